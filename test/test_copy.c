/* Type-to-type copies (dl_copy, dl_segment_copy) against the typemap
 * model: random pairs of layouts, whole and in shuffled byte ranges, each
 * route (dense side, lockstep, chunked, twin) seen to fire, memory outside the
 * destination's data untouched, and every error; long blocks at every
 * distance near a multiple of 4 KiB, those glibc copies slowly made in
 * pieces. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "actions.h"
#include "../src/tune/tune.h"
#include "buffers.h"
#include "model.h"
#include "randtype.h"
#include "runner.h"

#define BYTE dl_builtin(DL_BYTE)
#define INT32 dl_builtin(DL_INT32)
#define GUARD 64

static uint64_t seed;

/* one side of a copy: a committed type, a count, its byte map, and memory
   covering the map with GUARD bytes either side */
typedef struct side {
  rtype rt;            /* random type, or rt.t alone for a byte layout */
  dl_type *t;
  dl_count count;
  mrun *runs;
  size_t nruns, size;
  char *mem, *origin;
  size_t len;
  char desc[96];
} side;

static void side_mem(side *s, rng *r)
{
  dl_aint lo = 0, hi = 0;
  for (size_t i = 0; i < s->nruns; i++) {
    if (i == 0 || s->runs[i].disp < lo) lo = s->runs[i].disp;
    if (i == 0 || s->runs[i].disp + s->runs[i].len > hi)
      hi = s->runs[i].disp + s->runs[i].len;
  }
  s->len = (size_t)(hi - lo) + 2 * GUARD;
  s->mem = malloc(s->len);
  s->origin = s->mem + GUARD - lo;
  for (size_t i = 0; i < s->len; i++)
    s->mem[i] = (char)rng_next(r);
}

/* a random type from the generator, count 0-3 */
static void side_random(side *s, rng *r)
{
  memset(s, 0, sizeof(*s));
  int rc = rtype_gen(r, (int)rng_range(r, 1, 5), &s->rt, NULL);
  ck_assert_msg(rc == 0, "seed %llu: building %s failed",
                (unsigned long long)seed, s->rt.desc);
  s->t = s->rt.t;
  s->count = rng_range(r, 0, 3);
  ck_assert_int_eq(model_bytemap(s->rt.m, s->count, &s->runs, &s->nruns), 0);
  s->size = runs_bytes(s->runs, s->nruns);
  side_mem(s, r);
}

/* `size` bytes as an hindexed layout of bytes: runs of [minb, maxb] bytes
   with gaps of 0-15 bytes, placed upwards or downwards in memory */
static void side_bytes(side *s, rng *r, size_t size, size_t minb, size_t maxb)
{
  memset(s, 0, sizeof(*s));
  size_t cap = size / minb + 2, n = 0;
  dl_count *bls = malloc(cap * sizeof(*bls));
  dl_aint *ds = malloc(cap * sizeof(*ds));
  s->runs = malloc(cap * sizeof(*s->runs));
  bool down = rng_range(r, 0, 1);
  dl_aint at = 0;
  for (size_t done = 0; done < size; n++) {
    size_t b = (size_t)rng_range(r, (int64_t)minb, (int64_t)maxb);
    if (b > size - done)
      b = size - done;
    dl_aint gap = rng_range(r, 0, 15);
    if (down)
      at -= (dl_aint)b + gap;
    bls[n] = (dl_count)b;
    ds[n] = at;
    s->runs[n] = (mrun){at, (dl_count)b, 0};
    if (!down)
      at += (dl_aint)b + gap;
    done += b;
  }
  ck_assert_int_eq(dl_type_hindexed((dl_count)n, bls, ds, BYTE, &s->t), DL_OK);
  ck_assert_int_eq(dl_type_commit(s->t), DL_OK);
  s->count = 1;
  s->nruns = n;
  s->size = size;
  snprintf(s->desc, sizeof(s->desc), "bytes(%zu runs of %zu-%zu, %s)", n,
           minb, maxb, down ? "down" : "up");
  free(bls);
  free(ds);
  side_mem(s, r);
}

static void side_free(side *s)
{
  if (s->rt.t)
    rtype_free(&s->rt);
  else
    dl_type_free(&s->t);
  free(s->runs);
  free(s->mem);
}

static const char *side_desc(const side *s)
{
  return s->rt.desc ? s->rt.desc : s->desc;
}

/* the model's answer: stream bytes [first, end) of `in` (the whole stream)
   stored where dst's runs place them */
static void model_store(const side *d, char *origin, const char *in,
                        size_t first, size_t end)
{
  size_t pos = 0;
  for (size_t i = 0; i < d->nruns && pos < end; i++) {
    size_t len = (size_t)d->runs[i].len;
    size_t a = pos > first ? pos : first, z = pos + len < end ? pos + len : end;
    if (a < z)
      memcpy(origin + d->runs[i].disp + (a - pos), in + a, z - a);
    pos += len;
  }
}

static long routes[5];

static int by_disp(const void *x, const void *y)
{
  const mrun *a = x, *b = y;
  return a->disp < b->disp ? -1 : a->disp > b->disp;
}

/* whether some byte is written twice (copies of a negative or short
   extent): ranges in shuffled order may then end with another winner */
static bool overlaps(const side *s)
{
  if (s->nruns < 2)
    return false;
  mrun *v = malloc(s->nruns * sizeof(*v));
  memcpy(v, s->runs, s->nruns * sizeof(*v));
  qsort(v, s->nruns, sizeof(*v), by_disp);
  bool o = false;
  for (size_t i = 1; i < s->nruns && !o; i++)
    o = v[i].disp < v[i - 1].disp + v[i - 1].len;
  free(v);
  return o;
}

/* copies a into b both with dl_copy and in shuffled ranges with
   dl_segment_copy, each against the model */
static void check_pair(rng *r, side *a, side *b)
{
  char *stream = malloc(a->size + 1);
  model_pack(a->runs, a->nruns, a->origin, stream);
  size_t n = a->size < b->size ? a->size : b->size;
  char *want = malloc(b->len), *orig = malloc(b->len);
  memcpy(orig, b->mem, b->len);
  memcpy(want, b->mem, b->len);
  model_store(b, want + (b->origin - b->mem), stream, 0, n);

  size_t copied = 12345;
  int rc = dl_copy(a->origin, a->count, a->t, b->origin, b->count, b->t, &copied);
  ck_assert_msg(rc == (b->size < a->size ? DL_ERR_TRUNCATE : DL_OK),
                "seed %llu: rc %d, %s x%lld -> %s x%lld", (unsigned long long)seed,
                rc, side_desc(a), (long long)a->count, side_desc(b),
                (long long)b->count);
  ck_assert_uint_eq(copied, n);
  if (n)
    routes[dli_copy_last_route()]++;
  ck_assert_msg(memcmp(want, b->mem, b->len) == 0,
                "seed %llu: dl_copy %s x%lld -> %s x%lld differs",
                (unsigned long long)seed, side_desc(a), (long long)a->count,
                side_desc(b), (long long)b->count);

  /* the same in random ranges, in shuffled order */
  memcpy(b->mem, orig, b->len);
  dl_segment *f, *t;
  ck_assert_int_eq(dl_segment_create(a->origin, a->count, a->t, &f), DL_OK);
  ck_assert_int_eq(dl_segment_create(b->origin, b->count, b->t, &t), DL_OK);
  size_t edges[66];
  size_t ne = rng_cut(r, n, edges, 66);
  size_t *order = malloc(ne * sizeof(*order));
  for (size_t i = 0; i + 1 < ne; i++)
    order[i] = i;
  rng_shuffle(r, order, ne - 1);
  for (size_t k = 0; k + 1 < ne; k++) {
    size_t i = order[k], last = edges[i + 1];
    /* the last range asks past the end: clipped */
    if (last == n && rng_range(r, 0, 1))
      last = n + 100;
    ck_assert_int_eq(dl_segment_copy(f, t, edges[i], &last), DL_OK);
    ck_assert_uint_eq(last, edges[i + 1]);
  }
  ck_assert_msg(overlaps(b) || memcmp(want, b->mem, b->len) == 0,
                "seed %llu: dl_segment_copy %s x%lld -> %s x%lld differs",
                (unsigned long long)seed, side_desc(a), (long long)a->count,
                side_desc(b), (long long)b->count);
  dl_segment_free(&f);
  dl_segment_free(&t);
  free(order);
  free(stream);
  free(want);
  free(orig);
}

START_TEST(random_pairs)
{
  rng r = {seed ^ 20};
  int n = test_scaled(3000);
  memset(routes, 0, sizeof(routes));
  for (int it = 0; it < n; it++) {
    side a, b;
    int mode = (int)rng_range(&r, 0, 4);
    /* chunks of the chunked route from one byte up, or the default */
    dli_copy_force_chunk(it % 3 ? (size_t)rng_range(&r, 1, 5000) : 0);
    rng again = r;
    side_random(&a, &r);
    dl_type *wrap = NULL;
    if (mode == 4) {
      /* a type built alike from the same draws (the twin route), its
         memory drawn anew; half of them displaced as a whole, which
         shifts every byte alike */
      side_random(&b, &again);
      dl_aint by = rng_range(&r, -64, 64);
      if (rng_range(&r, 0, 1) &&
          dl_type_hindexed_block(1, 1, &by, b.t, &wrap) == DL_OK &&
          dl_type_commit(wrap) == DL_OK) {
        b.t = wrap;
        for (size_t i = 0; i < b.nruns; i++)
          b.runs[i].disp += by;
        free(b.mem);
        side_mem(&b, &r);
      }
      for (size_t i = 0; i < b.len; i++)
        b.mem[i] = (char)rng_next(&r);
    } else if (mode == 0) {
      side_random(&b, &r);          /* sizes differ: truncation or a tail */
    } else if (a.size == 0) {
      side_random(&b, &r);
    } else {
      size_t lo = mode == 1 ? 1 : 64, hi = mode == 1 ? 3 : 2048;
      side_bytes(&b, &r, a.size, lo, hi);
    }
    if (rng_range(&r, 0, 1)) {
      check_pair(&r, &a, &b);
    } else {
      /* the other direction: into the random type */
      check_pair(&r, &b, &a);
    }
    dl_type_free(&wrap);
    side_free(&a);
    side_free(&b);
  }
  /* byte layouts on both sides, long and short runs */
  for (int it = 0; it < test_scaled(300); it++) {
    side a, b;
    size_t size = (size_t)rng_range(&r, 1, 300000);
    bool lng = it & 1;
    dli_copy_force_chunk(it % 4 < 2 ? 0 : (size_t)rng_range(&r, 1, 70000));
    side_bytes(&a, &r, size, lng ? 300 : 1, lng ? 8000 : 4);
    side_bytes(&b, &r, size, lng ? 300 : 1, lng ? 8000 : 4);
    check_pair(&r, &a, &b);
    side_free(&a);
    side_free(&b);
  }
  dli_copy_force_chunk(0);
  ck_assert_int_gt(routes[DLI_COPY_DENSE], 0);
  ck_assert_int_gt(routes[DLI_COPY_LOCKSTEP], 0);
  ck_assert_int_gt(routes[DLI_COPY_CHUNKED], 0);
  ck_assert_int_gt(routes[DLI_COPY_TWIN], 0);
}
END_TEST

/* each route fires where it should: a dense side, long runs on both
   sides, short runs on one */
START_TEST(routes_fire)
{
  rng r = {seed ^ 21};
  side a, b, c, d;
  side_bytes(&a, &r, 100000, 1000, 1000);
  side_bytes(&b, &r, 100000, 700, 900);
  side_bytes(&c, &r, 100000, 1, 2);
  dl_type *dense;
  ck_assert_int_eq(dl_type_contiguous(100000, BYTE, &dense), DL_OK);
  ck_assert_int_eq(dl_type_commit(dense), DL_OK);
  char *mem = malloc(100000);
  for (int i = 0; i < 100000; i++)
    mem[i] = (char)i;
  size_t copied;
  ck_assert_int_eq(dl_copy(a.origin, 1, a.t, b.origin, 1, b.t, &copied), DL_OK);
  ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_LOCKSTEP);
  ck_assert_int_eq(dl_copy(a.origin, 1, a.t, c.origin, 1, c.t, &copied), DL_OK);
  ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_CHUNKED);
  ck_assert_int_eq(dl_copy(c.origin, 1, c.t, b.origin, 1, b.t, &copied), DL_OK);
  ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_CHUNKED);
  /* chunks of half the L2, at most the stream (100,000 bytes here) */
  size_t chunk = dli_copy_limits()->chunk;
  ck_assert(chunk >= 32 * 1024 && chunk <= 4 << 20);
  ck_assert_uint_eq(dli_copy_last_chunk(), chunk < 100000 ? chunk : 100000);
  dli_copy_force_chunk(1000);
  ck_assert_int_eq(dl_copy(c.origin, 1, c.t, b.origin, 1, b.t, &copied), DL_OK);
  ck_assert_uint_eq(dli_copy_last_chunk(), 1000);
  dli_copy_force_chunk(0);
  ck_assert_int_eq(dl_copy(mem, 1, dense, c.origin, 1, c.t, &copied), DL_OK);
  ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_DENSE);
  /* and the bytes are right: through c and back, then compare */
  char *back = malloc(100000);
  side_bytes(&d, &r, 100000, 1, 1);
  ck_assert_int_eq(dl_copy(c.origin, 1, c.t, d.origin, 1, d.t, &copied), DL_OK);
  ck_assert_int_eq(dl_copy(d.origin, 1, d.t, back, 1, dense, &copied), DL_OK);
  ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_DENSE);
  ck_assert(memcmp(mem, back, 100000) == 0);
  side_free(&a);
  side_free(&b);
  side_free(&c);
  side_free(&d);
  dl_type_free(&dense);
  free(mem);
  free(back);
}
END_TEST

/* a face of a cube of doubles as the rma benchmark's YZ face (x fixed):
   n x n single doubles, n * 8 and n * n * 8 bytes apart; stride_y
   bytes between rows instead where not 0 */
static dl_type *yz_face(int n, dl_aint stride_y)
{
  dl_type *col, *face;
  ck_assert_int_eq(dl_type_hvector(n, 1, stride_y ? stride_y : n * 8, dl_builtin(DL_DOUBLE),
                                   &col), DL_OK);
  ck_assert_int_eq(dl_type_hvector(n, 1, (dl_aint)n * n * 8, col, &face), DL_OK);
  ck_assert_int_eq(dl_type_commit(face), DL_OK);
  dl_type_free(&col);
  return face;
}

/* dl_copy of one face of a cube into another through types a and b, each
   byte of the destination cube checked: the face's doubles from the
   source, the rest as it was; the route it took */
static int copy_face(dl_type *a, dl_type *b, int n, dl_count count, size_t forced_chunk)
{
  size_t len = (size_t)n * n * n * 8 + 64;
  double *src = malloc(len), *dst = malloc(len), *was = malloc(len);
  for (size_t i = 0; i < len / 8; i++) {
    src[i] = (double)i;
    dst[i] = was[i] = -(double)i;
  }
  size_t copied;
  dli_copy_force_chunk(forced_chunk);
  ck_assert_int_eq(dl_copy(src + 3, count, a, dst + 5, count, b, &copied), DL_OK);
  dli_copy_force_chunk(0);
  int route = dli_copy_last_route();
  ck_assert_uint_eq(copied, (size_t)count * n * n * 8);
  for (size_t i = 0; i < len / 8; i++) {
    /* the face's doubles lie at (z * n + y) * n from the start, each
       copy of the face one double on (an extent of 8 bytes: the faces
       of count copies are x = 0 .. count - 1) */
    size_t at = i - 5, x = at % n, zy = at / n;
    bool in = i >= 5 && x < (size_t)count && zy < (size_t)n * n;
    double want = in ? src[3 + at] : was[i];
    ck_assert_msg(dst[i] == want, "double %zu: %g, want %g (route %d)", i, dst[i], want,
                  route);
  }
  free(src);
  free(dst);
  free(was);
  return route;
}

/* dl_copy of (src, 1, a) into (dst, 1, b), memory of len bytes each,
   against dl_pack then dl_unpack of the same: every byte of dst alike;
   the route dl_copy took */
static int copy_staged(dl_type *a, dl_type *b, size_t len)
{
  char *src = malloc(len), *dst = malloc(len), *want = malloc(len);
  size_t size, copied, pos = 0;
  for (size_t i = 0; i < len; i++) {
    src[i] = (char)(i * 7 + 1);
    dst[i] = want[i] = (char)(i * 3);
  }
  ck_assert_int_eq(dl_pack_size(1, a, &size), DL_OK);
  char *stage = malloc(size + 1);
  ck_assert_int_eq(dl_pack(src, 1, a, stage, size, &pos), DL_OK);
  pos = 0;
  ck_assert_int_eq(dl_unpack(stage, size, &pos, want, 1, b), DL_OK);
  ck_assert_int_eq(dl_copy(src, 1, a, dst, 1, b, &copied), DL_OK);
  int route = dli_copy_last_route();
  ck_assert_uint_eq(copied, size);
  ck_assert_msg(memcmp(dst, want, len) == 0, "route %d: not the staged bytes", route);
  free(src);
  free(dst);
  free(want);
  free(stage);
  return route;
}

/* a struct of members m0 and m1, 100,000 bytes apart, resized to an
   extent of 150,000 bytes, committed */
static dl_type *two_members(dl_type *m0, dl_type *m1)
{
  dl_count ones[2] = {1, 1};
  dl_aint at[2] = {0, 100000};
  dl_type *ms[2] = {m0, m1}, *s, *r;
  ck_assert_int_eq(dl_type_struct(2, ones, at, ms, &s), DL_OK);
  ck_assert_int_eq(dl_type_resized(s, 0, 150000, &r), DL_OK);
  ck_assert_int_eq(dl_type_commit(r), DL_OK);
  dl_type_free(&s);
  return r;
}

/* Types alike on both sides (the same one, or two built alike, also but
   for a shift) copy block to block, and only they; the bytes are those of
   the other routes. */
START_TEST(twins)
{
  const int n = 32;
  dl_type *a = yz_face(n, 0), *b = yz_face(n, 0), *c = yz_face(n, 16 * 8);
  dl_type *ra, *rb;
  ck_assert_int_eq(dl_type_resized(a, 0, 8, &ra), DL_OK);
  ck_assert_int_eq(dl_type_resized(b, 0, 8, &rb), DL_OK);
  ck_assert_int_eq(dl_type_commit(ra), DL_OK);
  ck_assert_int_eq(dl_type_commit(rb), DL_OK);
  ck_assert_int_eq(copy_face(a, a, n, 1, 0), DLI_COPY_TWIN);
  ck_assert_int_eq(copy_face(a, b, n, 1, 0), DLI_COPY_TWIN);
  ck_assert_int_eq(copy_face(ra, rb, n, 3, 0), DLI_COPY_TWIN);
  dli_copy_force_route(DLI_COPY_CHUNKED);
  ck_assert_int_eq(copy_face(a, b, n, 1, 100), DLI_COPY_CHUNKED);
  ck_assert_int_eq(copy_face(ra, rb, n, 3, 0), DLI_COPY_CHUNKED);
  dli_copy_force_route(0);
  dl_aint sh;
  /* onto itself: nothing changes */
  size_t len = (size_t)n * n * n * 8, done;
  double *self = malloc(len), *keep = malloc(len);
  for (size_t i = 0; i < len / 8; i++)
    self[i] = keep[i] = (double)(i * 7);
  ck_assert_int_eq(dl_copy(self, 1, a, self, 1, b, &done), DL_OK);
  ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_TWIN);
  ck_assert(done == (size_t)n * n * 8 && memcmp(self, keep, len) == 0);
  free(self);
  free(keep);
  /* the extents differ (resized): not alike */
  ck_assert(!dli_copy_twins(a, ra, (size_t)n * n * 8, &sh));
  ck_assert(dli_copy_twins(ra, rb, (size_t)n * n * 8, &sh));
  /* rows 16 doubles apart against n: not alike, by the strided route */
  ck_assert(!dli_copy_twins(a, c, (size_t)n * n * 8, &sh));
  size_t copied;
  char *m1 = malloc((size_t)n * n * n * 8), *m2 = malloc((size_t)n * n * n * 8);
  ck_assert_int_eq(dl_copy(m1, 1, a, m2, 1, c, &copied), DL_OK);
  ck_assert_int_ne(dli_copy_last_route(), DLI_COPY_TWIN);
  free(m1);
  free(m2);
  /* 5000 scattered bytes, built twice alike: their 5000 offsets exceed a
     budget of 256 + 5000 / 4 entries, so they are not compared; the
     same type needs no comparing */
  rng r = {seed ^ 22};
  dl_count *d = malloc(5000 * sizeof(*d));
  for (int i = 0; i < 5000; i++)     /* gaps at random: no pattern to fold */
    d[i] = (i ? d[i - 1] : 0) + rng_range(&r, 1, 9);
  dl_type *s1, *s2;
  ck_assert_int_eq(dl_type_indexed_block(5000, 1, d, BYTE, &s1), DL_OK);
  ck_assert_int_eq(dl_type_indexed_block(5000, 1, d, BYTE, &s2), DL_OK);
  ck_assert_int_eq(dl_type_commit(s1), DL_OK);
  ck_assert_int_eq(dl_type_commit(s2), DL_OK);
  ck_assert(!dli_copy_twins(s1, s2, 5000, &sh));
  ck_assert(dli_copy_twins(s1, s1, 5000, &sh));
  ck_assert(dli_copy_twins(s1, s2, 5000 * 20, &sh));
  /* one offset apart at the end, within the budget: not alike */
  d[4999]++;
  dl_type *s3;
  ck_assert_int_eq(dl_type_indexed_block(5000, 1, d, BYTE, &s3), DL_OK);
  ck_assert_int_eq(dl_type_commit(s3), DL_OK);
  ck_assert(!dli_copy_twins(s1, s3, 5000 * 20, &sh));
  free(d);
  /* the same face as subarrays of different starts (x = n - 2 into
     x = 0): alike but for a shift */
  dl_type *send, *ghost;
  dl_count sizes[3] = {n, n, n}, sub[3] = {n, n, 1}, at[3] = {0, 0, n - 2}, at0[3] = {0};
  ck_assert_int_eq(dl_type_subarray(3, sizes, sub, at, DL_ORDER_C, dl_builtin(DL_DOUBLE),
                                    &send), DL_OK);
  ck_assert_int_eq(dl_type_subarray(3, sizes, sub, at0, DL_ORDER_C, dl_builtin(DL_DOUBLE),
                                    &ghost), DL_OK);
  ck_assert_int_eq(dl_type_commit(send), DL_OK);
  ck_assert_int_eq(dl_type_commit(ghost), DL_OK);
  ck_assert(dli_copy_twins(send, ghost, (size_t)n * n * 8, &sh));
  ck_assert_int_eq(sh, (n - 2) * 8);
  ck_assert(dli_copy_twins(ghost, send, (size_t)n * n * 8, &sh));
  ck_assert_int_eq(sh, -(n - 2) * 8);
  /* by the twin route and against staging, both ways */
  ck_assert_int_eq(copy_staged(send, ghost, (size_t)n * n * n * 8), DLI_COPY_TWIN);
  ck_assert_int_eq(copy_staged(ghost, send, (size_t)n * n * n * 8), DLI_COPY_TWIN);
  /* a struct whose two members shift apart (8 and 0 bytes), resized to
     one extent: not alike */
  dl_type *v4, *v8, *q1, *q2;
  dl_aint eight = 8, zero = 0;
  ck_assert_int_eq(dl_type_vector(1000, 1, 3, dl_builtin(DL_INT32), &v4), DL_OK);
  ck_assert_int_eq(dl_type_vector(1000, 1, 5, dl_builtin(DL_INT64), &v8), DL_OK);
  ck_assert_int_eq(dl_type_hindexed_block(1, 1, &eight, v4, &q1), DL_OK);
  ck_assert_int_eq(dl_type_hindexed_block(1, 1, &zero, v4, &q2), DL_OK);
  dl_type *st1 = two_members(q1, v8), *st2 = two_members(q2, v8);
  ck_assert(!dli_copy_twins(st1, st2, 12000, &sh));
  ck_assert_int_ne(copy_staged(st1, st2, 150000), DLI_COPY_TWIN);
  /* both members shifted alike (8 bytes): alike */
  dl_type *st3 = two_members(q1, q1), *st4 = two_members(q2, q2);
  ck_assert(dli_copy_twins(st3, st4, 8000, &sh));
  ck_assert_int_eq(sh, 8);
  ck_assert_int_eq(copy_staged(st3, st4, 150000), DLI_COPY_TWIN);
  dl_type *all[] = {a, b, c, ra, rb, s1, s2, s3, send, ghost, v4, v8, q1, q2,
                    st1, st2, st3, st4};
  for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
    dl_type_free(&all[i]);
}
END_TEST

/* one side of interleaved_dense against a dense buffer, each way: the
   model's bytes, and the interleaved walk taken exactly when
   dli_interleaves says so; counts in fired[dir] or *plain */
static void dense_both_ways(rng *r, dl_type *t, model *m, const char *desc, long fired[2],
                            long *plain)
{
  tcase c = {0};
  ck_assert_int_eq(tcase_layout(&c, m, 1, rng_next(r)), 0);
  size_t size = c.size, copied;
  dl_type *dense;
  ck_assert_int_eq(dl_type_contiguous((dl_count)size, BYTE, &dense), DL_OK);
  ck_assert_int_eq(dl_type_commit(dense), DL_OK);
  char *want = malloc(size + 1), *got = malloc(size + 1), *expect = malloc(c.mem.len);
  model_pack(c.runs, c.nruns, c.mem.origin, want);
  for (int dir = 0; dir < 2; dir++) {
    bool ways = size > 0 &&
                dli_interleaves(t->loop, size, dir == 0, dli_copy_limits()->interleave);
    unsigned long before = dli_interleave_uses();
    if (dir == 0) {
      ck_assert_int_eq(dl_copy(c.mem.origin, 1, t, got, 1, dense, &copied), DL_OK);
      ck_assert_msg(copied == size && !memcmp(want, got, size), "seed %llu: %s pack",
                    (unsigned long long)seed, desc);
    } else {
      for (size_t i = 0; i < size; i++)
        want[i] = (char)rng_next(r);
      memcpy(expect, c.mem.mem, c.mem.len);
      model_unpack(c.runs, c.nruns, expect + (c.mem.origin - c.mem.mem), want);
      ck_assert_int_eq(dl_copy(want, 1, dense, c.mem.origin, 1, t, &copied), DL_OK);
      ck_assert_msg(copied == size && !memcmp(expect, c.mem.mem, c.mem.len),
                    "seed %llu: %s unpack", (unsigned long long)seed, desc);
    }
    if (size > 0)
      ck_assert_int_eq(dli_copy_last_route(), DLI_COPY_DENSE);
    ck_assert_int_eq(dli_interleave_uses() - before, ways);
    ways ? fired[dir]++ : (*plain)++;
  }
  free(want);
  free(got);
  free(expect);
  tcase_free(&c);
  dl_type_free(&dense);
}

/* A dense side against a type whose whole stream dl_pack moves by the
   interleaved walk (copies of one element a few bytes apart): dl_copy
   takes that walk too, both ways (unpacking where no two blocks can
   overlap, as in Flash I/O's nests of cells), with the model's bytes. */
START_TEST(interleaved_dense)
{
  rng r = {seed ^ 0x1ea7};
  long fired[2] = {0, 0}, plain = 0;
  dli_interleave_force(1);     /* these are small: by size, none would */
  for (int it = 0; it < test_scaled(300); it++) {
    rtype el;
    ck_assert_int_eq(rtype_gen(&r, (int)rng_range(&r, 1, 4), &el, NULL), 0);
    dl_count n = rng_range(&r, 2, DLI_INTERLEAVE_MAX);
    recipe *kids[1] = {el.rc};
    recipe top = {.kind = RT_HVECTOR, .n = n, .bl = 1, .stride = rng_range(&r, 1, 48),
                  .kids = kids, .nkids = 1};
    dl_type *t;
    ck_assert_int_eq(recipe_build(&top, &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    model *m = recipe_model_level(&top, (model *const *)&el.m);
    if (m)                   /* else past the model's run limit */
      dense_both_ways(&r, t, m, el.desc, fired, &plain);
    model_free(m);
    dl_type_free(&t);
    rtype_free(&el);
  }
  /* Flash-like: nv variables of every cell of a k x k block of cells, in
     rows of k + 2 (guard cells) */
  for (int it = 0; it < test_scaled(40); it++) {
    dl_count nv = rng_range(&r, 2, 24), k = rng_range(&r, 2, 8);
    dl_type *x, *y, *v;
    ck_assert_int_eq(dl_type_hvector(k, 1, 8 * nv, dl_builtin(DL_DOUBLE), &x), DL_OK);
    ck_assert_int_eq(dl_type_hvector(k, 1, 8 * nv * (k + 2), x, &y), DL_OK);
    ck_assert_int_eq(dl_type_hvector(nv, 1, 8, y, &v), DL_OK);
    ck_assert_int_eq(dl_type_commit(v), DL_OK);
    model *d = model_builtin(8, 8), *mx = model_hvector(k, 1, 8 * nv, d),
          *my = model_hvector(k, 1, 8 * nv * (k + 2), mx), *mv = model_hvector(nv, 1, 8, my);
    char desc[64];
    snprintf(desc, sizeof(desc), "%lld variables of %lld x %lld cells", (long long)nv,
             (long long)k, (long long)k);
    dense_both_ways(&r, v, mv, desc, fired, &plain);
    model_free(d);
    model_free(mx);
    model_free(my);
    model_free(mv);
    dl_type_free(&x);
    dl_type_free(&y);
    dl_type_free(&v);
  }
  dli_interleave_force(0);
  ck_assert_msg(fired[0] > 0 && fired[1] > 0 && plain > 0, "packed %ld, unpacked %ld, "
                "plain %ld", fired[0], fired[1], plain);
}
END_TEST

START_TEST(errors)
{
  dl_type *v, *u;
  ck_assert_int_eq(dl_type_vector(4, 1, 2, INT32, &v), DL_OK);
  ck_assert_int_eq(dl_type_commit(v), DL_OK);
  ck_assert_int_eq(dl_type_vector(4, 1, 2, INT32, &u), DL_OK);   /* uncommitted */
  int32_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dst[8];
  int32_t small[4];
  memset(dst, 0x55, sizeof(dst));
  size_t copied = 7;
  ck_assert_int_eq(dl_copy(src, 1, NULL, dst, 1, v, &copied), DL_ERR_ARG);
  ck_assert_uint_eq(copied, 0);
  ck_assert_int_eq(dl_copy(src, 1, v, dst, 1, NULL, &copied), DL_ERR_ARG);
  ck_assert_int_eq(dl_copy(src, 1, v, dst, 1, v, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_copy(src, -1, v, dst, 1, v, &copied), DL_ERR_ARG);
  ck_assert_int_eq(dl_copy(src, 1, v, dst, -1, v, &copied), DL_ERR_ARG);
  ck_assert_int_eq(dl_copy(src, 1, u, dst, 1, v, &copied), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(dl_copy(src, 1, v, dst, 1, u, &copied), DL_ERR_NOT_COMMITTED);
  /* NULL buffers with relative data: refused, nothing written */
  ck_assert_int_eq(dl_copy(NULL, 1, v, dst, 1, v, &copied), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "dl_copy: NULL buffer"));
  ck_assert_int_eq(dl_copy(src, 1, v, NULL, 1, v, &copied), DL_ERR_ARG);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(dst[i], 0x55555555);
  /* nothing to copy: NULL buffers are fine */
  ck_assert_int_eq(dl_copy(NULL, 0, v, NULL, 0, v, &copied), DL_OK);
  ck_assert_uint_eq(copied, 0);
  /* overflow of a packed size */
  ck_assert_int_eq(dl_copy(src, INT64_MAX, v, dst, 1, v, &copied), DL_ERR_OVERFLOW);
  /* truncation: 16 bytes into 8, what fits is copied, nothing past */
  memset(small, 0x55, sizeof(small));
  ck_assert_int_eq(dl_copy(src, 1, v, small, 2, INT32, &copied), DL_ERR_TRUNCATE);
  ck_assert_uint_eq(copied, 8);
  ck_assert(small[0] == 1 && small[1] == 3 && small[2] == 0x55555555 &&
            small[3] == 0x55555555);
  /* a larger destination: its tail untouched */
  ck_assert_int_eq(dl_copy(src, 1, INT32, dst, 1, v, &copied), DL_OK);
  ck_assert_uint_eq(copied, 4);
  ck_assert(dst[0] == 1 && dst[2] == 0x55555555);

  dl_segment *f, *t, *nul, *bnd;
  ck_assert_int_eq(dl_segment_create(src, 1, v, &f), DL_OK);
  ck_assert_int_eq(dl_segment_create(dst, 1, v, &t), DL_OK);
  ck_assert_int_eq(dl_segment_create(NULL, 1, v, &nul), DL_OK);
  ck_assert_int_eq(dl_segment_create_bounded(dst, 1, v, 0, 20, &bnd), DL_OK);
  size_t last = 16;
  ck_assert_int_eq(dl_segment_copy(NULL, t, 0, &last), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_copy(f, NULL, 0, &last), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_copy(f, t, 0, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_copy(f, f, 0, &last), DL_ERR_ARG);
  last = 4;
  ck_assert_int_eq(dl_segment_copy(f, t, 8, &last), DL_ERR_ARG);   /* first > *last */
  last = 40;
  ck_assert_int_eq(dl_segment_copy(f, t, 17, &last), DL_ERR_ARG);  /* past the end */
  memset(dst, 0x55, sizeof(dst));
  last = 16;
  ck_assert_int_eq(dl_segment_copy(nul, t, 0, &last), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_copy(f, nul, 0, &last), DL_ERR_ARG);
  /* the bounded segment's last element (bytes 24..27) lies outside */
  ck_assert_int_eq(dl_segment_copy(f, bnd, 0, &last), DL_ERR_BOUNDS);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(dst[i], 0x55555555);
  /* its first three elements are inside */
  last = 12;
  ck_assert_int_eq(dl_segment_copy(f, bnd, 0, &last), DL_OK);
  ck_assert(dst[0] == 1 && dst[2] == 3 && dst[4] == 5 && dst[6] == 0x55555555);
  /* an empty range with a NULL buffer is fine; clipped to 16 */
  last = 16;
  ck_assert_int_eq(dl_segment_copy(nul, t, 16, &last), DL_OK);
  last = 1000;
  ck_assert_int_eq(dl_segment_copy(f, t, 0, &last), DL_OK);
  ck_assert_uint_eq(last, 16);
  ck_assert(dst[6] == 7 && dst[7] == 0x55555555);
  dl_segment_free(&f);
  dl_segment_free(&t);
  dl_segment_free(&nul);
  dl_segment_free(&bnd);
  dl_type_free(&v);
  dl_type_free(&u);
}
END_TEST

/* blocks long enough for glibc's `rep movsb`, at every distance between
   source and destination near a multiple of 4 KiB: the bytes of a plain
   loop, and the copies at distances 1 to 31 made in pieces */
static void long_blocks_at(dl_type *t, size_t bytes, char *mem, char *packed,
                           size_t extent, long d)
{
  size_t pos = 0;
  char *p = packed + (d < 0 ? 4096 + d : d);   /* distance from mem modulo 4 KiB */
  for (size_t i = 0; i < extent; i++)
    mem[i] = (char)(i * 7 + 3);
  unsigned long long before = dli_copy_pieces_calls();
  ck_assert_int_eq(dl_pack(mem, 1, t, p, bytes, &pos), DL_OK);
  bool pieces = d >= 1 && d <= 31;
  ck_assert_msg((dli_copy_pieces_calls() > before) == pieces, "distance %ld: %s in pieces",
                d, pieces ? "not" : "");
  /* the first wrong byte, then one assertion: Check's per-assertion
     bookkeeping on every byte made this test minutes long under Valgrind */
  size_t bad = SIZE_MAX;
  for (size_t k = 0, b = 0; b < 3 && bad == SIZE_MAX; b++)  /* 3 blocks of bytes / 3, 8 KiB apart */
    for (size_t i = 0; i < bytes / 3; i++, k++)
      if (p[k] != (char)((b * 8192 + i) * 7 + 3)) {
        bad = k;
        break;
      }
  ck_assert_msg(bad == SIZE_MAX, "distance %ld: byte %zu", d, bad);
  memset(mem, 0, extent);
  pos = 0;
  ck_assert_int_eq(dl_unpack(p, bytes, &pos, mem, 1, t), DL_OK);
  for (size_t i = 0; i < extent && bad == SIZE_MAX; i++)
    if (mem[i] != (i % 8192 < bytes / 3 ? (char)(i * 7 + 3) : 0))
      bad = i;
  ck_assert_msg(bad == SIZE_MAX, "distance %ld: unpacked byte %zu", d, bad);
}

/* bytes at a page (aligned_alloc wants a size that is a multiple) */
static char *at_page(size_t bytes)
{
  char *p = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
  ck_assert_ptr_nonnull(p);
  return p;
}

START_TEST(long_blocks)
{
  const size_t blk = 5000, extent = 2 * 8192 + blk;
  dl_type *t;
  ck_assert_int_eq(dl_type_hvector(3, (dl_count)blk, 8192, dl_builtin(DL_BYTE), &t), DL_OK);
  ck_assert_int_eq(dl_type_commit(t), DL_OK);
  char *mem = at_page(extent + 4096), *packed = at_page(3 * blk + 8192);
  for (long d = -40; d <= 40; d++)
    long_blocks_at(t, 3 * blk, mem, packed, extent, d);
  /* dense to dense in one copy: 100,000 bytes 16 past the source */
  size_t n = 100000, copied = 0;
  char *src = at_page(n), *dst = at_page(n + 4096);
  for (size_t i = 0; i < n; i++)
    src[i] = (char)(i * 13 + 1);
  unsigned long long before = dli_copy_pieces_calls();
  ck_assert_int_eq(dl_copy(src, (dl_count)n, dl_builtin(DL_BYTE), dst + 16, (dl_count)n,
                           dl_builtin(DL_BYTE), &copied), DL_OK);
  ck_assert(dli_copy_pieces_calls() > before);
  ck_assert(copied == n && memcmp(src, dst + 16, n) == 0);
  free(src);
  free(dst);
  free(mem);
  free(packed);
  dl_type_free(&t);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, random_pairs);
  tcase_add_test(tc, routes_fire);
  tcase_add_test(tc, twins);
  tcase_add_test(tc, interleaved_dense);
  tcase_add_test(tc, errors);
  tcase_add_test(tc, long_blocks);
  return test_run("copy", tc, false);
}
