/* Segments and actions against the typemap model: pack and unpack of
 * random types, the same split into random chunks in and out of order,
 * iovec and offset/length lists under tiny limits, an embedder's own
 * action, the one-shot calls' MPI semantics, bounds, and every error. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "segment.h"
#include "actions.h"
#include "../src/tune/tune.h"
#include "loopwalk.h"
#include "buffers.h"
#include "model.h"
#include "randtype.h"
#include "runner.h"

/* the whole-move size from which an interleaving root walks interleaved */
#define IL_LIMIT (dli_copy_limits()->interleave)

#define INT32 dl_builtin(DL_INT32)
#define DOUBLE dl_builtin(DL_DOUBLE)
#define FLOAT dl_builtin(DL_FLOAT)

static uint64_t seed;

/* a random case (buffers.h), its failure reported with the seed */
#define case_new(r, c)                                                             \
  ck_assert_msg(tcase_new(r, c, 6, NULL, 0) == 0, "seed %llu: building %s failed", \
                (unsigned long long)seed, (c)->rt.desc)

#define CASE_FMT "seed %llu, count %lld, type %s"
#define CASE_ARGS(c) (unsigned long long)seed, (long long)(c)->count, (c)->rt.desc
#define CASE_MSG(c) CASE_FMT, CASE_ARGS(c)

/* two copies of c's buffer, origins placed alike, both filled from fill */
static void twin_bufs(const tcase *c, uint64_t fill, tbuf *a, tbuf *b)
{
  tbuf *both[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    *both[i] = c->mem;
    both[i]->mem = malloc(c->mem.len + 1);
    both[i]->origin = both[i]->mem + (c->mem.origin - c->mem.mem);
    tbuf_fill(both[i], fill);
  }
}

START_TEST(random_pack_unpack)
{
  rng r = {seed ^ 1};
  int n = test_scaled(10000);
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    size_t want_size;
    ck_assert_int_eq(dl_pack_size(c.count, c.rt.t, &want_size), DL_OK);
    ck_assert_msg(want_size == c.size, CASE_MSG(&c));
    /* dense means one run in packed order where dl_type_dense says (the
       converse need not hold: some single runs are not seen as one) */
    int dense;
    dl_aint off;
    ck_assert_int_eq(dl_type_dense(c.count, c.rt.t, &dense, &off), DL_OK);
    if (dense)
      ck_assert_msg(c.size == 0 || (c.nruns == 1 && c.runs[0].disp == off),
                    "dense: " CASE_MSG(&c));
    char *want = malloc(c.size + 1), *got = malloc(c.size + 1);
    model_pack(c.runs, c.nruns, c.mem.origin, want);
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(c.mem.origin, c.count, c.rt.t, got, c.size, &pos), DL_OK);
    ck_assert_msg(pos == c.size, CASE_MSG(&c));
    ck_assert_msg(memcmp(want, got, c.size) == 0, "pack: " CASE_MSG(&c));
    /* unpack a fresh stream into a buffer with other contents: the model
       and the library must leave identical buffers */
    tbuf a, b;
    uint64_t f = rng_next(&r);
    twin_bufs(&c, f, &a, &b);
    for (size_t i = 0; i < c.size; i++)
      want[i] = (char)rng_next(&r);
    model_unpack(c.runs, c.nruns, a.origin, want);
    pos = 0;
    ck_assert_int_eq(dl_unpack(want, c.size, &pos, b.origin, c.count, c.rt.t), DL_OK);
    ck_assert_msg(pos == c.size, CASE_MSG(&c));
    ck_assert_msg(memcmp(a.mem, b.mem, c.mem.len) == 0, "unpack: " CASE_MSG(&c));
    free(a.mem);
    free(b.mem);
    free(want);
    free(got);
    tcase_free(&c);
  }
}
END_TEST

START_TEST(random_chunks)
{
  rng r = {seed ^ 2};
  int n = test_scaled(3000);
  size_t edges[256], order[256];
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    char *want = malloc(c.size + 1), *got = malloc(c.size + 1);
    model_pack(c.runs, c.nruns, c.mem.origin, want);
    size_t ne = rng_cut(&r, c.size, edges, 256);
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create(c.mem.origin, c.count, c.rt.t, &s), DL_OK);
    ck_assert_uint_eq(dl_segment_size(s), c.size);
    for (int pass = 0; pass < 2; pass++) {
      for (size_t k = 0; k + 1 < ne; k++)
        order[k] = k;
      if (pass == 1)
        rng_shuffle(&r, order, ne - 1);          /* out of order */
      memset(got, 0, c.size);
      for (size_t k = 0; k + 1 < ne; k++) {
        size_t a = edges[order[k]], z = edges[order[k] + 1], last = z;
        ck_assert_int_eq(dl_segment_pack(s, a, &last, got + a), DL_OK);
        ck_assert_msg(last == z, "pass %d: " CASE_FMT, pass, CASE_ARGS(&c));
      }
      ck_assert_msg(memcmp(want, got, c.size) == 0,
                    "chunked pack pass %d: " CASE_FMT, pass, CASE_ARGS(&c));
    }
    /* unpack in shuffled chunks equals the one-shot unpack */
    tbuf one, two;
    uint64_t f = rng_next(&r);
    twin_bufs(&c, f, &one, &two);
    size_t pos = 0;
    ck_assert_int_eq(dl_unpack(want, c.size, &pos, one.origin, c.count, c.rt.t), DL_OK);
    dl_segment *u;
    ck_assert_int_eq(dl_segment_create(two.origin, c.count, c.rt.t, &u), DL_OK);
    rng_shuffle(&r, order, ne - 1);
    for (size_t k = 0; k + 1 < ne; k++) {
      size_t a = edges[order[k]], z = edges[order[k] + 1], last = z;
      ck_assert_int_eq(dl_segment_unpack(u, a, &last, want + a), DL_OK);
      ck_assert_uint_eq(last, z);
    }
    /* shuffled unpack of overlapping blocks may legitimately end with a
       different winner; compare only when no byte is written twice */
    bool overlap = false;
    for (size_t i = 0; i < c.nruns && !overlap; i++)
      for (size_t j = i + 1; j < c.nruns && !overlap; j++)
        overlap = c.runs[i].disp < c.runs[j].disp + c.runs[j].len &&
                  c.runs[j].disp < c.runs[i].disp + c.runs[i].len;
    if (!overlap)
      ck_assert_msg(memcmp(one.mem, two.mem, c.mem.len) == 0,
                    "chunked unpack: " CASE_MSG(&c));
    dl_segment_free(&u);
    dl_segment_free(&s);
    ck_assert_ptr_null(s);
    free(one.mem);
    free(two.mem);
    free(want);
    free(got);
    tcase_free(&c);
  }
}
END_TEST

/* t's stream packed (or, unpack, unpacked from src) by a segment in
   chunks of at most 7 bytes: the walker's path, never the one-shot one */
static void by_chunks(const dl_type *t, void *mem, char *buf, size_t size, bool unpack)
{
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(mem, 1, t, &s), DL_OK);
  for (size_t at = 0; at < size;) {
    size_t last = at + 7 < size ? at + 7 : size;
    ck_assert_int_eq(unpack ? dl_segment_unpack(s, at, &last, buf + at)
                            : dl_segment_pack(s, at, &last, buf + at), DL_OK);
    at = last;
  }
  dl_segment_free(&s);
}

/* A struct whose members are all leaves (a vector, an index list of one
   length, one of mixed lengths, a leaf repeated by a fused parent, a
   member of two copies) goes member by member to the kernels at count 1
   (dli_members_uses), and packs and unpacks the walker's bytes; a struct
   with a member that is not a leaf, and count 2, do not take it. */
START_TEST(struct_members)
{
  rng r = {seed ^ 0x51c7};
  dl_count d1[40], bl[40];
  for (int i = 0; i < 40; i++) {
    d1[i] = 7 * i + (dl_count)rng_range(&r, 0, 5);
    bl[i] = rng_range(&r, 1, 3);
  }
  dl_type *v, *bi, *ix, *rep, *tmp, *nest, *ty[5];
  ck_assert_int_eq(dl_type_vector(30, 2, 5, DOUBLE, &v), DL_OK);
  ck_assert_int_eq(dl_type_indexed_block(40, 1, d1, DOUBLE, &bi), DL_OK);
  ck_assert_int_eq(dl_type_indexed(40, bl, d1, FLOAT, &ix), DL_OK);
  ck_assert_int_eq(dl_type_vector(4, 1, 3, INT32, &tmp), DL_OK);
  ck_assert_int_eq(dl_type_hvector(20, 1, 64, tmp, &rep), DL_OK);
  dl_type *inner[2] = {tmp, DOUBLE};
  dl_count ib[2] = {1, 1};
  dl_aint id[2] = {0, 48};
  ck_assert_int_eq(dl_type_struct(2, ib, id, inner, &nest), DL_OK);
  ty[0] = v;
  ty[1] = bi;
  ty[2] = ix;
  ty[3] = rep;
  ty[4] = bi;
  dl_count mb[5] = {1, 1, 1, 1, 2};
  dl_aint md[5] = {0, 4096, 8192, 12288, 20000};
  dl_type *t, *t2, *mixed;
  ck_assert_int_eq(dl_type_struct(5, mb, md, ty, &t), DL_OK);
  ty[3] = nest;                        /* a member that is itself a struct */
  ck_assert_int_eq(dl_type_struct(5, mb, md, ty, &mixed), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(2, t, &t2), DL_OK);
  dl_type *all[3] = {t, mixed, t2};
  for (int k = 0; k < 3; k++) {
    dl_type *x = all[k];
    ck_assert_int_eq(dl_type_commit(x), DL_OK);
    size_t size;
    dl_aint lb, ext;
    ck_assert_int_eq(dl_pack_size(1, x, &size), DL_OK);
    ck_assert_int_eq(dl_type_extent(x, &lb, &ext), DL_OK);
    size_t len = (size_t)(lb + ext) + 64;
    char *mem = malloc(len), *want = malloc(size), *got = malloc(size);
    char *m1 = malloc(len), *m2 = malloc(len);
    for (size_t i = 0; i < len; i++)
      mem[i] = (char)rng_next(&r);
    /* the one-shot calls first: the walker's many calls make the type hot
       enough to compile, and compiled code takes the whole call */
    unsigned long before = dli_members_uses();
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(mem, 1, x, got, size, &pos), DL_OK);
    /* (compiled at its first use, DL_JIT_THRESHOLD=0: compiled code's) */
    bool fires = k == 0 && !dli_bulk_for(x, DLI_JIT_PACK);
    ck_assert_msg(pos == size && dli_members_uses() - before == (fires ? 1u : 0u),
                  "uses, type %d", k);
    char *in = malloc(size);
    for (size_t i = 0; i < size; i++)
      in[i] = (char)rng_next(&r);
    memcpy(m1, mem, len);
    memcpy(m2, mem, len);
    pos = 0;
    before = dli_members_uses();
    ck_assert_int_eq(dl_unpack(in, size, &pos, m2, 1, x), DL_OK);
    fires = k == 0 && !dli_bulk_for(x, DLI_JIT_UNPACK);
    ck_assert_msg(dli_members_uses() - before == (fires ? 1u : 0u), "unpack uses, type %d",
                  k);
    by_chunks(x, mem, want, size, false);
    ck_assert_msg(pos == size && !memcmp(want, got, size), "pack, type %d", k);
    by_chunks(x, m1, in, size, true);
    free(in);
    ck_assert_msg(!memcmp(m1, m2, len), "unpack, type %d", k);
    free(mem);
    free(want);
    free(got);
    free(m1);
    free(m2);
  }
  ck_assert(t->loop->kind == DLI_STRUCT && !mixed->loop->children[3]->leaf);
  dl_type *fr[8] = {v, bi, ix, rep, tmp, nest, t, t2};
  for (int i = 0; i < 8; i++)
    dl_type_free(&fr[i]);
  dl_type_free(&mixed);
}
END_TEST

/* A segment's stack is loaded by its first walking call, and a call over
   the whole stream from byte 0 goes the one-shot way without one: both
   fire (dli_whole_uses) and change no byte, in any order of calls, and a
   bounded segment with data outside its bounds is still checked first. */
START_TEST(whole_ranges)
{
  rng r = {seed ^ 0x3401e};
  int n = test_scaled(2000);
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    if (c.size == 0) {
      tcase_free(&c);
      continue;
    }
    char *want = malloc(c.size), *got = malloc(c.size + 16);
    model_pack(c.runs, c.nruns, c.mem.origin, want);
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create(c.mem.origin, c.count, c.rt.t, &s), DL_OK);
    /* a fresh segment's first call anywhere but byte 0 loads its stack there */
    size_t a = (size_t)rng_range(&r, 1, (dl_aint)c.size), last = c.size;
    unsigned long before = dli_whole_uses();
    memset(got, 0, c.size + 16);
    ck_assert_int_eq(dl_segment_pack(s, a, &last, got + a), DL_OK);
    ck_assert_msg(last == c.size && !memcmp(want + a, got + a, c.size - a) &&
                  dli_whole_uses() == before, "from %zu: " CASE_FMT, a, CASE_ARGS(&c));
    /* the whole stream, *last past its end: the one-shot path */
    memset(got, 0x5a, c.size + 16);
    last = c.size + (size_t)rng_range(&r, 0, 16);
    ck_assert_int_eq(dl_segment_pack(s, 0, &last, got), DL_OK);
    ck_assert_msg(last == c.size && !memcmp(want, got, c.size) && got[c.size] == 0x5a,
                  "whole: " CASE_MSG(&c));
    ck_assert_msg(dli_whole_uses() - before == 1, "whole not taken: " CASE_MSG(&c));
    /* the state it left still serves a range from where the walk stood */
    a = (size_t)rng_range(&r, 0, (dl_aint)c.size - 1);
    size_t z = (size_t)rng_range(&r, (dl_aint)a + 1, (dl_aint)c.size);
    last = z;
    memset(got, 0, c.size);
    ck_assert_int_eq(dl_segment_pack(s, a, &last, got + a), DL_OK);
    ck_assert_msg(last == z && !memcmp(want + a, got + a, z - a), "after: " CASE_MSG(&c));
    dl_segment_free(&s);
    /* unpack of the whole stream into a fresh segment */
    tbuf one, two;
    uint64_t f = rng_next(&r);
    twin_bufs(&c, f, &one, &two);
    for (size_t i = 0; i < c.size; i++)
      want[i] = (char)rng_next(&r);
    model_unpack(c.runs, c.nruns, one.origin, want);
    ck_assert_int_eq(dl_segment_create(two.origin, c.count, c.rt.t, &s), DL_OK);
    last = c.size;
    before = dli_whole_uses();
    ck_assert_int_eq(dl_segment_unpack(s, 0, &last, want), DL_OK);
    ck_assert_msg(last == c.size && dli_whole_uses() - before == 1 &&
                  !memcmp(one.mem, two.mem, c.mem.len), "whole unpack: " CASE_MSG(&c));
    dl_segment_free(&s);
    /* bounds that leave out the lowest byte: checked, refused, nothing written */
    dl_aint lo = c.runs[0].disp, hi = lo;
    for (size_t i = 0; i < c.nruns; i++) {
      if (c.runs[i].disp < lo)
        lo = c.runs[i].disp;
      if (c.runs[i].disp + c.runs[i].len > hi)
        hi = c.runs[i].disp + c.runs[i].len;
    }
    bool inside = rng_next(&r) % 2;
    ck_assert_int_eq(dl_segment_create_bounded(two.origin, c.count, c.rt.t,
                                               inside ? lo : lo + 1, hi, &s), DL_OK);
    tbuf_fill(&two, f);
    memcpy(one.mem, two.mem, c.mem.len);
    last = c.size;
    before = dli_whole_uses();
    int rc = dl_segment_unpack(s, 0, &last, want);
    if (inside)
      ck_assert_msg(rc == DL_OK && dli_whole_uses() - before == 1, "inside: " CASE_MSG(&c));
    else
      ck_assert_msg(rc == DL_ERR_BOUNDS && dli_whole_uses() == before &&
                    !memcmp(one.mem, two.mem, c.mem.len), "outside: " CASE_MSG(&c));
    dl_segment_free(&s);
    free(one.mem);
    free(two.mem);
    free(want);
    free(got);
    tcase_free(&c);
  }
}
END_TEST

/* A type deeper than a call's stack frames keeps the walking path for a
   whole range (the one-shot path would allocate a stack of its own) */
START_TEST(whole_range_deep)
{
  enum { LEVELS = DLI_STACK_FRAMES + 8 };
  dl_type *t = INT32, *n;
  for (int k = 1; k <= LEVELS; k++) {
    /* the last level at 0 and a byte at 1000 + k: one loop more each */
    dl_count bl[2] = {1, 1};
    dl_aint d[2] = {0, 1000 + k};
    dl_type *ty[2] = {t, dl_builtin(DL_BYTE)};
    ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &n), DL_OK);
    if (t != INT32)
      dl_type_free(&t);
    t = n;
  }
  ck_assert_int_eq(dl_type_commit(t), DL_OK);
  ck_assert_int_gt(dli_segment_frames(t), DLI_STACK_FRAMES);
  unsigned char mem[1100], want[4 + LEVELS], got[4 + LEVELS];
  for (size_t i = 0; i < sizeof(mem); i++)
    mem[i] = (unsigned char)(i * 7 + 3);
  memcpy(want, mem, 4);
  for (int k = 1; k <= LEVELS; k++)
    want[3 + k] = mem[1000 + k];
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(mem, 1, t, &s), DL_OK);
  ck_assert_uint_eq(dl_segment_size(s), sizeof(want));
  unsigned long before = dli_whole_uses();
  size_t last = sizeof(got);
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, got), DL_OK);
  ck_assert_uint_eq(last, sizeof(got));
  ck_assert(!memcmp(want, got, sizeof(got)));
  for (size_t i = 0; i < sizeof(got); i++)
    got[i] = (unsigned char)~want[i];
  last = sizeof(got);
  ck_assert_int_eq(dl_segment_unpack(s, 0, &last, got), DL_OK);
  ck_assert(mem[0] == (unsigned char)~want[0] && mem[1000 + LEVELS] == (unsigned char)~want[3 + LEVELS]);
  ck_assert_uint_eq(dli_whole_uses(), before);
  dl_segment_free(&s);
  dl_type_free(&t);
}
END_TEST

START_TEST(random_lists)
{
  rng r = {seed ^ 3};
  int n = test_scaled(3000);
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create(c.mem.origin, c.count, c.rt.t, &s), DL_OK);
    size_t max = (size_t)rng_range(&r, 1, 3);
    for (int kind = 0; kind < 2; kind++) {
      mrun *got = NULL;
      size_t ngot = 0, cap = 0, at = 0;
      int calls = 0;
      while (at < c.size) {
        struct iovec iov[3];
        int64_t offs[3], lens[3];
        size_t k = 0, last = SIZE_MAX;
        if (kind == 0)
          ck_assert_int_eq(dl_segment_iov(s, at, &last, iov, max, &k), DL_OK);
        else
          ck_assert_int_eq(dl_segment_offlen(s, at, &last, offs, lens, max, &k), DL_OK);
        ck_assert_msg(k >= 1 && k <= max && last > at, CASE_MSG(&c));
        size_t bytes = 0;
        for (size_t i = 0; i < k; i++) {
          dl_aint d = kind == 0 ? (char *)iov[i].iov_base - c.mem.origin : offs[i];
          dl_count len = kind == 0 ? (dl_count)iov[i].iov_len : lens[i];
          bytes += (size_t)len;
          mrun_push(&got, &ngot, &cap, d, len);
        }
        ck_assert_msg(bytes == last - at, "list bytes: " CASE_MSG(&c));
        at = last;
        calls++;
      }
      bool same = ngot == c.nruns;
      for (size_t i = 0; same && i < ngot; i++)
        same = got[i].disp == c.runs[i].disp && got[i].len == c.runs[i].len;
      ck_assert_msg(same, "%s list: " CASE_FMT, kind ? "offlen" : "iov",
                    CASE_ARGS(&c));
      free(got);
    }
    /* the entry count: the model's runs over the whole stream; over a
       random range, what one iov call with room for all writes */
    size_t n = 0, last = SIZE_MAX;
    ck_assert_int_eq(dl_segment_iov_count(s, 0, &last, &n), DL_OK);
    ck_assert_msg(n == c.nruns && last == c.size, "count: " CASE_FMT, CASE_ARGS(&c));
    size_t a = (size_t)rng_range(&r, 0, (int64_t)c.size);
    size_t b = (size_t)rng_range(&r, (int64_t)a, (int64_t)c.size);
    last = b;
    ck_assert_int_eq(dl_segment_iov_count(s, a, &last, &n), DL_OK);
    struct iovec *iov = malloc((n + 1) * sizeof *iov);
    size_t k = 0, last2 = b;
    ck_assert_int_eq(dl_segment_iov(s, a, &last2, iov, n + 1, &k), DL_OK);
    ck_assert_msg(k == n && last == b && last2 == b, "range count: " CASE_FMT,
                  CASE_ARGS(&c));
    free(iov);
    dl_segment_free(&s);
    tcase_free(&c);
  }
}
END_TEST

/* ---- an embedder's action: a position-weighted checksum ---- */

struct sum {
  uint64_t s;
  uint64_t expect_pos;
  bool in_order;
};

static void sum_bytes(struct sum *st, const char *p, size_t n, size_t pos)
{
  for (size_t i = 0; i < n; i++)
    st->s += (uint64_t)(unsigned char)p[i] * (pos + i + 1);
}

static size_t sum_contig(void *state, const dl_piece *p)
{
  struct sum *st = state;
  st->in_order = st->in_order && p->pos == st->expect_pos;
  sum_bytes(st, p->base, p->blk, p->pos);
  st->expect_pos = p->pos + p->blk;
  return p->blk;
}

static size_t sum_blocks(void *state, const dl_piece *p)
{
  struct sum *st = state;
  st->in_order = st->in_order && p->pos == st->expect_pos;
  size_t pos = p->pos;
  for (dl_count r = 0; r < p->reps; r++)
    for (dl_count i = 0; i < p->count; i++) {
      const char *b = p->base + r * p->rep_stride +
                      (p->offs ? p->offs[i] : i * p->stride);
      size_t len = p->pre ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      sum_bytes(st, b, len, pos);
      pos += len;
    }
  st->expect_pos = pos;
  return pos - p->pos;
}

static const dl_action sum_action = {sum_contig, sum_blocks, sum_blocks, sum_blocks};

START_TEST(custom_action)
{
  rng r = {seed ^ 4};
  int n = test_scaled(2000);
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    char *packed = malloc(c.size + 1);
    model_pack(c.runs, c.nruns, c.mem.origin, packed);
    struct sum want = {0, 0, true}, got = {0, 0, true};
    sum_bytes(&want, packed, c.size, 0);
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create(c.mem.origin, c.count, c.rt.t, &s), DL_OK);
    size_t last = c.size;
    ck_assert_int_eq(dl_segment_process(s, 0, &last, &sum_action, &got), DL_OK);
    ck_assert_uint_eq(last, c.size);
    ck_assert_msg(got.in_order && got.s == want.s, "checksum: " CASE_MSG(&c));
    dl_segment_free(&s);
    free(packed);
    tcase_free(&c);
  }
  dl_action incomplete = sum_action;
  incomplete.indexed = NULL;
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(NULL, 0, INT32, &s), DL_OK);
  size_t last = 0;
  ck_assert_int_eq(dl_segment_process(s, 0, &last, &incomplete, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_process(s, 0, &last, NULL, NULL), DL_ERR_ARG);
  dl_segment_free(&s);
}
END_TEST

/* ---- hand-written loops as a second oracle ---- */

START_TEST(flash_manual)
{
  /* 80 blocks of 16^3 cells of 24 doubles; pack the 8^3 interior of each
     block variable by variable, as the paper's Flash I/O test */
  size_t cells = 80 * 16 * 16 * 16;
  double *mem = malloc(cells * 24 * sizeof(double));
  for (size_t i = 0; i < cells * 24; i++)
    mem[i] = (double)i;
  double *want = malloc(80 * 512 * 24 * sizeof(double)), *w = want;
  for (int v = 0; v < 24; v++)
    for (int b = 0; b < 80; b++)
      for (int z = 4; z < 12; z++)
        for (int y = 4; y < 12; y++)
          for (int x = 4; x < 12; x++)
            *w++ = mem[((((size_t)b * 16 + z) * 16 + y) * 16 + x) * 24 + v];
  dl_type *x, *y, *z, *blocks, *vars;
  ck_assert_int_eq(dl_type_hvector(8, 1, 192, DOUBLE, &x), DL_OK);
  ck_assert_int_eq(dl_type_hvector(8, 1, 16 * 192, x, &y), DL_OK);
  ck_assert_int_eq(dl_type_hvector(8, 1, 16 * 16 * 192, y, &z), DL_OK);
  ck_assert_int_eq(dl_type_hvector(80, 1, 16 * 16 * 16 * 192, z, &blocks), DL_OK);
  ck_assert_int_eq(dl_type_hvector(24, 1, 8, blocks, &vars), DL_OK);
  ck_assert_int_eq(dl_type_commit(vars), DL_OK);
  double *got = malloc(80 * 512 * 24 * sizeof(double));
  size_t pos = 0, size = 80 * 512 * 24 * sizeof(double);
  char *interior = (char *)mem + ((4 * 16 + 4) * 16 + 4) * 192;
  unsigned long before = dli_interleave_uses();
  ck_assert_int_eq(dl_pack(interior, 1, vars, got, size, &pos), DL_OK);
  ck_assert_uint_eq(pos, size);
  ck_assert(memcmp(want, got, size) == 0);
  /* past the threshold (half a core's L2), the variables go interleaved */
  ck_assert_int_eq(dli_interleave_uses() - before, size >= dli_copy_limits()->interleave);
  /* and back, through 64 KiB segment chunks */
  memset(mem, 0, cells * 24 * sizeof(double));
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(interior, 1, vars, &s), DL_OK);
  for (size_t at = 0; at < size; at += 65536) {
    size_t last = at + 65536;
    ck_assert_int_eq(dl_segment_unpack(s, at, &last, (char *)got + at), DL_OK);
  }
  dl_segment_free(&s);
  /* counted in plain C, asserted once: Check's bookkeeping on each of
     the million values' assertions took minutes under Valgrind */
  w = want;
  size_t wrong = 0;
  for (int v = 0; v < 24; v++)
    for (int b = 0; b < 80; b++)
      for (int zz = 4; zz < 12; zz++)
        for (int yy = 4; yy < 12; yy++)
          for (int xx = 4; xx < 12; xx++)
            wrong += mem[((((size_t)b * 16 + zz) * 16 + yy) * 16 + xx) * 24 + v] != *w++;
  ck_assert_msg(wrong == 0, "%zu values unpacked wrong", wrong);
  dl_type *ts[5] = {x, y, z, blocks, vars};
  for (int i = 0; i < 5; i++)
    dl_type_free(&ts[i]);
  free(mem);
  free(want);
  free(got);
}
END_TEST

/* ---- count-time optimization: it fires, and the bytes are the same ---- */

START_TEST(count_time)
{
  /* Struct Vector: one float resized to twice its extent, count N, must
     become the same single vector leaf as Vector(N, 1, 2) */
  dl_type *sv, *v;
  ck_assert_int_eq(dl_type_resized(FLOAT, 0, 8, &sv), DL_OK);
  ck_assert_int_eq(dl_type_vector(1000, 1, 2, FLOAT, &v), DL_OK);
  dl_type_commit(sv);
  dl_type_commit(v);
  float *a = malloc(2000 * sizeof(float));
  for (int i = 0; i < 2000; i++)
    a[i] = (float)i;
  dl_segment *s1, *s2;
  ck_assert_int_eq(dl_segment_create(a, 1000, sv, &s1), DL_OK);
  ck_assert_int_eq(dl_segment_create(a, 1, v, &s2), DL_OK);
  ck_assert(s1->root->leaf && s1->root->kind == DLI_VECTOR);
  ck_assert_int_eq(s1->root->count, 1000);
  ck_assert_int_eq(s1->root->stride, 8);
  ck_assert_int_eq(s1->depth, 0);
  float p1[1000], p2[1000];
  size_t last = sizeof(p1);
  ck_assert_int_eq(dl_segment_pack(s1, 0, &last, p1), DL_OK);
  last = sizeof(p2);
  ck_assert_int_eq(dl_segment_pack(s2, 0, &last, p2), DL_OK);
  ck_assert(memcmp(p1, p2, sizeof(p1)) == 0);
  for (int i = 0; i < 1000; i++)
    ck_assert(p1[i] == (float)(2 * i));
  dl_segment_free(&s1);
  dl_segment_free(&s2);
  /* count copies of a contiguous type: one run */
  dl_type *c3;
  ck_assert_int_eq(dl_type_contiguous(3, FLOAT, &c3), DL_OK);
  dl_type_commit(c3);
  ck_assert_int_eq(dl_segment_create(a, 600, c3, &s1), DL_OK);
  ck_assert(s1->root->leaf && s1->root->kind == DLI_CONTIG);
  ck_assert_int_eq(s1->root->count, 7200);
  dl_segment_free(&s1);
  /* a vector whose copies continue its stride: one longer vector */
  dl_type *rv;
  ck_assert_int_eq(dl_type_resized(v, 0, 8000, &rv), DL_OK);
  dl_type_commit(rv);
  ck_assert_int_eq(dl_segment_create(a, 2, rv, &s1), DL_OK);
  ck_assert(s1->root->kind == DLI_VECTOR && s1->root->count == 2000);
  dl_segment_free(&s1);
  dl_type_free(&rv);
  dl_type_free(&c3);
  dl_type_free(&sv);
  dl_type_free(&v);
  free(a);
}
END_TEST

/* ---- every copy class of the kernels moves exactly the block ---- */

static void check_model_bytes(rng *r, dl_type *t, const model *m, bool any_order,
                              const char *desc);

/* whether loop l has an indexed leaf of two blocks that a loop above it
   repeats */
static bool repeats_two(const dli_loop *l, bool repeated)
{
  if (l->leaf)
    return repeated && l->kind == DLI_INDEXED && l->count == 2;
  if (l->kind != DLI_STRUCT)
    return repeats_two(l->child, repeated || l->count > 1);
  for (dl_count i = 0; i < l->count; i++)
    if (repeats_two(l->children[i], repeated || l->blocklens[i] > 1))
      return true;
  return false;
}

START_TEST(copy_classes)
{
  rng r = {seed ^ 5};
  enum { N = DLI_FEW_BLOCKS + 3, MAXB = 4200 };   /* past dli_move_few: the kernels */
  char *mem = malloc(N * MAXB * 2), *out = malloc(N * MAXB), *want = malloc(N * MAXB);
  for (int i = 0; i < N * MAXB * 2; i++)
    mem[i] = (char)rng_next(&r);
  /* every length to 300, then samples through the 64-byte chunk class
     (to 4096) and past it, its edges included */
  for (dl_count blk = 1; blk <= MAXB;
       blk = blk < 300 ? blk + 1 : blk == 4095 || blk == 4096 ? blk + 1
           : blk < 4095 && blk + 97 > 4095 ? 4095 : blk + 97) {
    /* vector and blockindexed leaves of blk-byte blocks */
    dl_type *v, *bi;
    ck_assert_int_eq(dl_type_hvector(N, blk, blk + 3, dl_builtin(DL_BYTE), &v), DL_OK);
    dl_aint offs[N];
    for (int i = 0; i < N; i++)
      offs[i] = (N - 1 - i) * (blk + 5);       /* descending: not a vector */
    ck_assert_int_eq(dl_type_hindexed_block(N, blk, offs, dl_builtin(DL_BYTE), &bi), DL_OK);
    dl_type_commit(v);
    dl_type_commit(bi);
    for (int i = 0; i < N; i++) {
      memcpy(want + i * blk, mem + i * (blk + 3), (size_t)blk);
    }
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(mem, 1, v, out, N * MAXB, &pos), DL_OK);
    ck_assert_msg(memcmp(out, want, (size_t)(N * blk)) == 0, "vector blk %lld", (long long)blk);
    for (int i = 0; i < N; i++)
      memcpy(want + i * blk, mem + offs[i], (size_t)blk);
    pos = 0;
    ck_assert_int_eq(dl_pack(mem, 1, bi, out, N * MAXB, &pos), DL_OK);
    ck_assert_msg(memcmp(out, want, (size_t)(N * blk)) == 0, "blockindexed blk %lld",
                  (long long)blk);
    /* unpack back over a cleared copy restores exactly the blocks, the
       32-byte row loop taken exactly for its lengths where the CPU has AVX2 */
    char *back = calloc(N * MAXB * 2, 1), *ref = calloc(N * MAXB * 2, 1);
    for (int i = 0; i < N; i++)
      memcpy(ref + offs[i], out + i * blk, (size_t)blk);
    pos = 0;
    bool by_rows = blk >= 257 && blk <= 1024 && __builtin_cpu_supports("avx2");
    unsigned long rows_before = dli_rows_uses();
    ck_assert_int_eq(dl_unpack(out, (size_t)(N * blk), &pos, back, 1, bi), DL_OK);
    ck_assert_msg(memcmp(back, ref, N * MAXB * 2) == 0, "unpack blk %lld", (long long)blk);
    /* (compiled code, where the type has it under DL_JIT forced, unpacks first) */
    ck_assert_uint_eq(dli_rows_uses() - rows_before,
                      by_rows && !dli_bulk_for(bi, DLI_JIT_UNPACK));
    memset(back, 0, N * MAXB * 2);
    memset(ref, 0, N * MAXB * 2);
    for (int i = 0; i < N; i++)
      memcpy(ref + i * (blk + 3), out + i * blk, (size_t)blk);
    pos = 0;
    rows_before = dli_rows_uses();
    ck_assert_int_eq(dl_unpack(out, (size_t)(N * blk), &pos, back, 1, v), DL_OK);
    ck_assert_msg(memcmp(back, ref, N * MAXB * 2) == 0, "vector unpack blk %lld",
                  (long long)blk);
    ck_assert_uint_eq(dli_rows_uses() - rows_before,
                      by_rows && !dli_bulk_for(v, DLI_JIT_UNPACK));
    free(back);
    free(ref);
    dl_type_free(&v);
    dl_type_free(&bi);
  }
  /* indexed leaves whose lengths span each class range: 2 to 4 blocks
     (the kernels' unrolled short patterns) and more, once and repeated
     9 times (a contig over the leaf, fused into its repetitions). Two
     blocks of mixed lengths to 64 bytes that fit no pair class ({4, 52}:
     a padded C struct) take the two-block loop when repeated. */
  static const dl_count ranges[][2] = {{1, 3}, {2, 4}, {4, 8}, {8, 16}, {16, 32},
                                       {32, 64}, {33, 256}, {1, 300}, {100, 120},
                                       {64, 4096}, {257, 1000}, {1, 4200}, {4, 52},
                                       {1, 64}};
  static const bool mixed_small[] = {true, false, false, false, false, false, false,
                                     false, false, false, false, false, true, true};
  static const int nblocks[] = {2, 3, 4, 5, N};
  for (size_t k = 0; k < sizeof(ranges) / sizeof(ranges[0]); k++)
    for (size_t q = 0; q < sizeof(nblocks) / sizeof(nblocks[0]); q++)
      for (int reps = 1; reps <= 9; reps += 8) {
        int nb = nblocks[q];
        dl_count bl[N];
        dl_aint offs[N], at = 0;
        for (int i = 0; i < nb; i++)
          bl[i] = i == 0 ? ranges[k][0] : i == 1 ? ranges[k][1]  /* both ends */
                  : rng_range(&r, ranges[k][0], ranges[k][1]);
        for (int i = 0; i < nb; i++) {
          offs[i] = at + 1;                     /* gaps keep blocks apart */
          at = offs[i] + bl[i];
        }
        dl_aint ext = at + 2;
        if ((size_t)(ext * reps) > N * MAXB)
          continue;                             /* beyond the buffers */
        dl_type *ix, *rz, *t;
        ck_assert_int_eq(dl_type_hindexed(nb, bl, offs, dl_builtin(DL_BYTE), &ix), DL_OK);
        ck_assert_int_eq(dl_type_resized(ix, 0, ext, &rz), DL_OK);
        ck_assert_int_eq(dl_type_contiguous(reps, rz, &t), DL_OK);
        dl_type_commit(t);
        size_t total = 0;
        for (int rep = 0; rep < reps; rep++)
          for (int i = 0; i < nb; i++) {
            memcpy(want + total, mem + rep * ext + offs[i], (size_t)bl[i]);
            total += (size_t)bl[i];
          }
        size_t pos = 0;
        /* (a repeated leaf of two blocks comes of more blocks too, where
           the random lengths repeat the first two) */
        bool two = mixed_small[k] && repeats_two(t->loop, false);
        unsigned long two_before = dli_two_uses();
        ck_assert_int_eq(dl_pack(mem, 1, t, out, N * MAXB, &pos), DL_OK);
        ck_assert_uint_eq(pos, total);
        ck_assert_msg(memcmp(out, want, total) == 0, "indexed range %lld-%lld, %d blocks x %d",
                      (long long)ranges[k][0], (long long)ranges[k][1], nb, reps);
        /* (once per piece: a leaf inside a repeated struct runs in several) */
        ck_assert_int_eq(dli_two_uses() > two_before, two && !dli_bulk_for(t, DLI_JIT_PACK));
        char *back = calloc(N * MAXB * 2, 1), *ref = calloc(N * MAXB * 2, 1);
        total = 0;
        for (int rep = 0; rep < reps; rep++)
          for (int i = 0; i < nb; i++) {
            memcpy(ref + rep * ext + offs[i], out + total, (size_t)bl[i]);
            total += (size_t)bl[i];
          }
        pos = 0;
        two_before = dli_two_uses();
        ck_assert_int_eq(dl_unpack(out, total, &pos, back, 1, t), DL_OK);
        ck_assert_msg(memcmp(back, ref, N * MAXB * 2) == 0, "indexed unpack %lld-%lld, %d x %d",
                      (long long)ranges[k][0], (long long)ranges[k][1], nb, reps);
        ck_assert_int_eq(dli_two_uses() > two_before, two && !dli_bulk_for(t, DLI_JIT_UNPACK));
        if (two) {                  /* and in pieces, in any order */
          model *b = model_builtin(1, 1), *ixm = model_hindexed(nb, bl, offs, b),
                *rzm = model_resized(ixm, 0, ext), *m = model_contig(reps, rzm);
          char desc[64];
          snprintf(desc, sizeof(desc), "two blocks %lld-%lld x %d", (long long)ranges[k][0],
                   (long long)ranges[k][1], reps);
          check_model_bytes(&r, t, m, true, desc);
          model_free(m);
          model_free(rzm);
          model_free(ixm);
          model_free(b);
        }
        free(back);
        free(ref);
        dl_type_free(&ix);
        dl_type_free(&rz);
        dl_type_free(&t);
      }
  /* every other 4- or 8-byte element (the kernels' stride-2 loops, four
     at a time and the rest), unpacked over a cleared buffer */
  for (int es = 4; es <= 8; es += 4)
    for (dl_count n = 1; n <= 13; n++) {
      dl_type *v2;
      ck_assert_int_eq(dl_type_vector(n, 1, 2, dl_builtin(es == 4 ? DL_FLOAT : DL_DOUBLE),
                                      &v2), DL_OK);
      dl_type_commit(v2);
      char *back = calloc((size_t)(2 * n * es), 1), *ref = calloc((size_t)(2 * n * es), 1);
      for (dl_count i = 0; i < n; i++)
        memcpy(ref + 2 * i * es, mem + i * es, (size_t)es);
      size_t pos = 0;
      ck_assert_int_eq(dl_unpack(mem, (size_t)(n * es), &pos, back, 1, v2), DL_OK);
      ck_assert_msg(memcmp(back, ref, (size_t)(2 * n * es)) == 0, "stride-2 unpack %d x %lld",
                    es, (long long)n);
      pos = 0;
      ck_assert_int_eq(dl_pack(ref, 1, v2, out, N * MAXB, &pos), DL_OK);
      ck_assert(memcmp(out, mem, (size_t)(n * es)) == 0);
      free(back);
      free(ref);
      dl_type_free(&v2);
    }
  free(mem);
  free(out);
  free(want);
}
END_TEST

/* ---- transposes: repetitions one block apart, copied a cache line at a
   time (dli_transposes); it fires for the FFT's shape, and packing and
   unpacking, whole and in random pieces, give the bytes of the plain
   order; overlapping shapes keep the plain order ---- */

/* the first loop over a leaf in the segment's tree */
static const dli_loop *leaf_parent(const dli_loop *l)
{
  while (!l->leaf && (l->kind == DLI_CONTIG || l->kind == DLI_VECTOR) && !l->child->leaf)
    l = l->child;
  return l->leaf || (l->kind != DLI_CONTIG && l->kind != DLI_VECTOR) ? NULL : l;
}

/* Copies of a random element interleaved a few bytes apart (the root of
   Flash I/O's type): a whole pack takes the interleaved path wherever the
   copies lie within what the element spans, and gives the model's bytes;
   unpacking and packing in chunks, which stay in stream order, agree. */
/* the smallest period of the lengths (2 <= p, 2p <= n), or 0 */
static dl_count lens_period(const dl_count *bl, dl_count n)
{
  for (dl_count p = 2; p <= DLI_PERIOD_MAX && 2 * p <= n; p++) {
    dl_count i = p;
    while (i < n && bl[i] == bl[i - p])
      i++;
    if (i == n)
      return p;
  }
  return 0;
}

/* 1-3 copies of t (described by m) at a random layout, against the
   model: packed whole and in pieces in random order, then another stream
   unpacked whole and in pieces, in random order when any_order (no byte
   of memory stored twice), else in stream order */
static void check_model_bytes(rng *r, dl_type *t, const model *m, bool any_order,
                              const char *desc)
{
  tcase c = {.rt = {.t = t}};
  dl_count count = rng_range(r, 1, 3);
  ck_assert(tcase_layout(&c, m, count, rng_next(r)) == 0);
  char *want = malloc(c.size), *got = malloc(c.size);
  model_pack(c.runs, c.nruns, c.mem.origin, want);
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(c.mem.origin, count, t, got, c.size, &pos), DL_OK);
  ck_assert_msg(pos == c.size && !memcmp(want, got, c.size), "%s: pack", desc);
  size_t edges[256], order[256], ne = rng_cut(r, c.size, edges, 256);
  for (size_t k = 0; k + 1 < ne; k++)
    order[k] = k;
  rng_shuffle(r, order, ne - 1);
  dl_segment *sg;
  ck_assert_int_eq(dl_segment_create(c.mem.origin, count, t, &sg), DL_OK);
  memset(got, 0, c.size);
  for (size_t k = 0; k + 1 < ne; k++) {
    size_t a = edges[order[k]], last = edges[order[k] + 1];
    ck_assert_int_eq(dl_segment_pack(sg, a, &last, got + a), DL_OK);
  }
  ck_assert_msg(!memcmp(want, got, c.size), "%s: pieces", desc);
  for (size_t i = 0; i < c.size; i++)
    want[i] = (char)rng_next(r);
  char *expect = malloc(c.mem.len), *before = malloc(c.mem.len);
  memcpy(expect, c.mem.mem, c.mem.len);
  memcpy(before, c.mem.mem, c.mem.len);
  model_unpack(c.runs, c.nruns, expect + (c.mem.origin - c.mem.mem), want);
  pos = 0;
  ck_assert_int_eq(dl_unpack(want, c.size, &pos, c.mem.origin, count, t), DL_OK);
  ck_assert_msg(!memcmp(c.mem.mem, expect, c.mem.len), "%s: unpack", desc);
  memcpy(c.mem.mem, before, c.mem.len);
  if (!any_order)
    for (size_t k = 0; k + 1 < ne; k++)
      order[k] = k;
  for (size_t k = 0; k + 1 < ne; k++) {
    size_t a = edges[order[k]], last = edges[order[k] + 1];
    ck_assert_int_eq(dl_segment_unpack(sg, a, &last, want + a), DL_OK);
  }
  ck_assert_msg(!memcmp(c.mem.mem, expect, c.mem.len), "%s: unpack pieces", desc);
  dl_segment_free(&sg);
  free(before);
  free(expect);
  free(want);
  free(got);
  free(c.runs);
  tbuf_free(&c.mem);
}

/* Block lengths repeating with a short period (a struct over several
   arrays): the leaf knows its period and whether its phases lie apart
   (each phase in an array of its own; a phase's slot taken twice keeps
   them apart, a block inside another phase's array does not), and whole
   packs, pieces in random order and unpacks give the model's bytes,
   which the period kernel moves phase by phase. */
START_TEST(periodic_lengths)
{
  rng r = {seed ^ 0x9e71};
  for (int trial = 0; trial < test_scaled(300); trial++) {
    dl_count P = rng_range(&r, 2, 6), G = rng_range(&r, 8, 300);
    dl_count n = G * P + rng_range(&r, 0, P - 1);
    /* distinct slots; a slot twice; a block in another phase's array;
       offsets anywhere */
    int mode = (int)rng_range(&r, 0, 3);
    dl_count lens[6] = {0}, *bl = malloc((size_t)n * sizeof(dl_count));
    dl_aint *off = malloc((size_t)n * sizeof(dl_aint));
    for (dl_count j = 0; j < P; j++)
      lens[j] = rng_range(&r, 1, 40);
    if (lens[1] == lens[0])
      lens[1] = lens[0] + 1;
    dl_count slots = 2 * G + 4;                /* each phase's array, in blocks */
    dl_aint array = 0;
    for (dl_count j = 0; j < P; j++)
      array = array > slots * lens[j] ? array : slots * lens[j];
    char *used = calloc((size_t)(P * slots), 1);
    for (dl_count i = 0; i < n; i++) {
      dl_count j = i % P, k;
      bl[i] = lens[j];
      if (mode == 3) {
        off[i] = rng_range(&r, 0, array * P);
        continue;
      }
      do
        k = rng_range(&r, 0, slots - 1);
      while (used[j * slots + k]);
      used[j * slots + k] = 1;
      off[i] = j * (array + 64) + k * lens[j];
    }
    dl_count a = rng_range(&r, 0, n - 1 - P);
    if (mode == 1)                             /* a later block of a's phase */
      off[a + P * rng_range(&r, 1, (n - 1 - a) / P)] = off[a];
    if (mode == 2) {       /* the next block, of phase 0, onto a of phase P - 1 */
      /* not where it would end right at the block after it (with two
         phases, in the same array): the constructor joins such blocks,
         and the lengths it keeps no longer repeat */
      for (int tries = 0; tries < 100; tries++) {
        a = P * rng_range(&r, 0, G - 2) + P - 1;
        if (off[a] + lens[0] != off[a + 2])
          break;
      }
      off[a + 1] = off[a];
    }
    dl_type *t;
    ck_assert_int_eq(dl_type_hindexed(n, bl, off, dl_builtin(DL_BYTE), &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    char desc[96];
    snprintf(desc, sizeof(desc), "seed %llu trial %d: period %lld, %lld blocks, mode %d",
             (unsigned long long)seed, trial, (long long)P, (long long)n, mode);
    const dli_loop *l = t->loop;
    if (mode < 3) {
      ck_assert_msg(l->leaf && l->kind == DLI_INDEXED, "%s: not an indexed leaf", desc);
      ck_assert_msg(l->period == lens_period(bl, n), "%s: period %d", desc, l->period);
      /* (lengths of a shorter period than P make phases that span
         several arrays, interleaved with each other's) */
      ck_assert_msg(l->apart == (mode < 2 && l->period == P), "%s: apart %d", desc,
                    l->apart);
    }
    model *b = model_builtin(1, 1), *m = model_hindexed(n, bl, off, b);
    /* (unpacking in any order only where no byte is stored twice) */
    check_model_bytes(&r, t, m, mode == 0, desc);
    model_free(m);
    model_free(b);
    dl_type_free(&t);
    free(used);
    free(bl);
    free(off);
  }
}
END_TEST

/* a padded struct of nm members, int32s and doubles in turn, 1-8 bytes
   apart (so a leaf of nm blocks over bytes), resized to an extent past its
   data; its model in *m */
static dl_type *padded_struct(rng *r, int nm, model **m)
{
  dl_count bl[8];
  dl_aint d[8], at = 0;
  dl_type *ty[8], *st, *el;
  model *mt[8];
  for (int i = 0; i < nm; i++) {
    bool dbl = i % 2;
    bl[i] = rng_range(r, 1, 3);
    d[i] = at;
    ty[i] = dl_builtin(dbl ? DL_DOUBLE : DL_INT32);
    mt[i] = model_builtin(dbl ? 8 : 4, dbl ? 8 : 4);
    at += bl[i] * (dbl ? 8 : 4) + rng_range(r, 1, 8);
  }
  dl_aint ext = (at + rng_range(r, 0, 16) + 7) / 8 * 8;
  ck_assert_int_eq(dl_type_struct(nm, bl, d, ty, &st), DL_OK);
  ck_assert_int_eq(dl_type_resized(st, 0, ext, &el), DL_OK);
  model *sm = model_struct(nm, bl, d, mt);
  *m = model_resized(sm, 0, ext);
  model_free(sm);
  for (int i = 0; i < nm; i++)
    model_free(mt[i]);
  dl_type_free(&st);
  return el;
}

/* Elements that are short leaves of separate blocks (padded structs),
   placed by the indexed family, are spread into one leaf of all their
   blocks (dataloop/indexed.c); with five blocks an element they stay the
   indexed loop's child, one level below it. Slots one to nb apart, each gap longer than the
   last, so that no list is evenly spaced or periodic; in either
   direction. Bytes against the model, whole, in pieces and unpacked. */
START_TEST(spread_elements)
{
  rng r = {seed ^ 0x5b7e};
  for (int trial = 0; trial < test_scaled(300); trial++) {
    int nm = (int)rng_range(&r, 2, 5), ctor = trial % 3;
    dl_count nb = rng_range(&r, 3, 150), bls[150], slot[150], pos = 0;
    dl_aint bytes[150];
    model *em, *m;
    dl_type *el = padded_struct(&r, nm, &em), *t;
    dl_aint ext = model_extent(em);
    bool down = rng_next(&r) % 2;
    for (dl_count i = 0; i < nb; i++) {
      pos += i + 1;
      slot[i] = (down ? -pos : pos) * 3;     /* in extents; blocks of up to 3 */
      bls[i] = ctor == 1 ? 1 : rng_range(&r, 1, 3);
      bytes[i] = slot[i] * ext;
    }
    if (ctor == 0)
      ck_assert_int_eq(dl_type_hindexed(nb, bls, bytes, el, &t), DL_OK);
    else if (ctor == 1)
      ck_assert_int_eq(dl_type_indexed_block(nb, 1, slot, el, &t), DL_OK);
    else
      ck_assert_int_eq(dl_type_indexed(nb, bls, slot, el, &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    m = model_hindexed(nb, bls, bytes, em);
    char desc[96];
    snprintf(desc, sizeof(desc), "seed %llu trial %d: %d members, %lld blocks, ctor %d",
             (unsigned long long)seed, trial, nm, (long long)nb, ctor);
    const dli_loop *l = t->loop;
    /* (five members may also fold, int32 and double in turn, into a
       repetition: no leaf to spread either; so may three of four, blocks
       of 8 bytes a period apart: the element is then no short leaf, and
       only its bytes are checked) */
    bool spread = l->leaf, nested = !l->leaf && l->depth == el->loop->depth + 1;
    bool folded = nm <= 4 && el->loop->depth > 2;
    if (!folded && (nm <= 4 ? !spread : !nested))
      dl_type_print(stderr, t);
    ck_assert_msg(folded || (nm <= 4 ? spread : nested), "%s: %s", desc,
                  nm <= 4 ? "not spread" : "spread");
    check_model_bytes(&r, t, m, true, desc);
    model_free(m);
    model_free(em);
    dl_type_free(&t);
    dl_type_free(&el);
  }
  /* past 2^20 blocks in all: the element stays a child */
  model *em;
  dl_type *el = padded_struct(&r, 4, &em), *t;
  dl_count n = (1 << 18) + 1, *at = malloc((size_t)n * sizeof(dl_count));
  for (dl_count i = 0, p = 0; i < n; i++, p += rng_range(&r, 2, 5))
    at[i] = p;                  /* gaps at random: no period to fold */
  ck_assert_int_eq(dl_type_indexed_block(n, 1, at, el, &t), DL_OK);
  ck_assert(!t->loop->leaf && t->loop->child->leaf);
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_indexed_block(n - 1, 1, at, el, &t), DL_OK);
  ck_assert(t->loop->leaf || t->loop->fuse);
  dl_type_free(&t);
  free(at);
  model_free(em);
  dl_type_free(&el);
}
END_TEST

/* Gathers and scatters of small blocks at random places: their leaf keeps
   a 4-byte copy of its offsets (offs32), which the kernels read, and
   packing 4- and 8-byte blocks assembles 16 bytes of the stream at a time;
   bytes against the model, whole and in pieces in any order, and unpacked */
START_TEST(gathers)
{
  rng r = {seed ^ 0x6a7e};
  static const dl_count sizes[] = {1, 2, 3, 4, 8, 12, 16, 24, 32, 40};
  for (int trial = 0; trial < test_scaled(400); trial++) {
    dl_count k = sizes[rng_range(&r, 0, sizeof(sizes) / sizeof(sizes[0]) - 1)];
    dl_count n = trial % 10 == 0 ? rng_range(&r, 1000, 3000) : rng_range(&r, 1, 300);
    dl_aint gap = rng_range(&r, 1, 9), slots = 4 * n + 8;
    dl_count *bl = malloc((size_t)n * sizeof(dl_count));
    dl_aint *off = malloc((size_t)n * sizeof(dl_aint));
    char *used = calloc((size_t)slots, 1);
    /* distinct slots, never adjacent (the blocks stay k bytes), some below
       the origin */
    for (dl_count i = 0; i < n; i++) {
      dl_aint q;
      do
        q = rng_range(&r, 0, slots - 1);
      while (used[q]);
      used[q] = 1;
      bl[i] = k;
      off[i] = (q - slots / 4) * (k + gap);
    }
    dl_type *t;
    ck_assert_int_eq(dl_type_hindexed_block(n, k, off, dl_builtin(DL_BYTE), &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    char desc[96];
    snprintf(desc, sizeof(desc), "seed %llu trial %d: %lld blocks of %lld bytes",
             (unsigned long long)seed, trial, (long long)n, (long long)k);
    const dli_loop *l = t->loop;
    /* (a few slots may fall evenly spaced: a vector, rightly) */
    bool even = true;
    for (dl_count i = 2; i < n; i++)
      even = even && off[i] - off[i - 1] == off[1] - off[0];
    if (n > 2 && !even) {
      ck_assert_msg(l->leaf && l->kind == DLI_BLOCKINDEXED, "%s: not a blockindexed leaf",
                    desc);
      ck_assert_msg(l->offs32 != NULL, "%s: no 4-byte offsets", desc);
      for (dl_count i = 0; i < n; i++)
        ck_assert_msg(l->offs32[i] == l->offs[i], "%s: offs32[%lld]", desc, (long long)i);
    }
    model *b = model_builtin(1, 1), *m = model_hindexed(n, bl, off, b);
    check_model_bytes(&r, t, m, true, desc);     /* distinct blocks: any order */
    model_free(m);
    model_free(b);
    dl_type_free(&t);
    free(used);
    free(bl);
    free(off);
  }
}
END_TEST

/* Leaves of a few blocks (a struct of a few members, a short vector) are
   moved at count 1 by one short loop (dli_move_few) instead of a kernel:
   it fires exactly for such leaves with room for the whole stream, and
   gives the model's bytes both ways; blocks of every length up to 100
   bytes, vectors with negative strides */
START_TEST(few_blocks)
{
  rng r = {seed ^ 0xfe3b};
  for (int trial = 0; trial < test_scaled(600); trial++) {
    dl_count n = rng_range(&r, 1, DLI_FEW_BLOCKS + 2), k = rng_range(&r, 1, 100);
    dl_count *bl = malloc((size_t)n * sizeof(dl_count));
    dl_aint *off = malloc((size_t)n * sizeof(dl_aint));
    dl_type *t;
    model *b = model_builtin(1, 1), *m;
    if (trial % 3 == 0) {                      /* a vector, stride of either sign */
      dl_aint gap = rng_range(&r, 1, 40), stride = (k + gap) * (rng_next(&r) % 2 ? 1 : -1);
      ck_assert_int_eq(dl_type_hvector(n, k, stride, dl_builtin(DL_BYTE), &t), DL_OK);
      m = model_hvector(n, k, stride, b);
    } else {                /* distinct slots 128 bytes apart, lengths fixed or not */
      char used[DLI_FEW_BLOCKS + 2] = {0};
      for (dl_count i = 0; i < n; i++) {
        dl_aint q;
        do
          q = rng_range(&r, 0, DLI_FEW_BLOCKS + 1);
        while (used[q]);
        used[q] = 1;
        bl[i] = trial % 3 == 1 ? k : rng_range(&r, 1, 100);
        off[i] = (q - 2) * 128 + rng_range(&r, 0, 27);
      }
      ck_assert_int_eq(dl_type_hindexed(n, bl, off, dl_builtin(DL_BYTE), &t), DL_OK);
      m = model_hindexed(n, bl, off, b);
    }
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    char desc[96];
    snprintf(desc, sizeof(desc), "seed %llu trial %d: %lld blocks", (unsigned long long)seed,
             trial, (long long)n);
    const dli_loop *l = t->loop;
    bool few = l->leaf && l->kind != DLI_CONTIG && l->count <= DLI_FEW_BLOCKS;
    tcase c = {.rt = {.t = t}};
    ck_assert(tcase_layout(&c, m, 1, rng_next(&r)) == 0);
    char *want = malloc(c.size + 1), *got = malloc(c.size + 1);
    model_pack(c.runs, c.nruns, c.mem.origin, want);
    unsigned long before = dli_few_uses();
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(c.mem.origin, 1, t, got, c.size, &pos), DL_OK);
    ck_assert_msg(pos == c.size && !memcmp(want, got, c.size), "%s: pack", desc);
    ck_assert_msg(dli_few_uses() - before == (few ? 1u : 0u), "%s: fired %lu times", desc,
                  dli_few_uses() - before);
    /* one byte short: the general path, which stops there */
    if (c.size > 0) {
      pos = 0;
      memset(got, 0x5a, c.size + 1);
      before = dli_few_uses();
      ck_assert_int_eq(dl_pack(c.mem.origin, 1, t, got, c.size - 1, &pos), DL_ERR_TRUNCATE);
      ck_assert_msg(pos == c.size - 1 && !memcmp(want, got, c.size - 1) &&
                    got[c.size - 1] == 0x5a && dli_few_uses() == before, "%s: short", desc);
    }
    for (size_t i = 0; i < c.size; i++)
      want[i] = (char)rng_next(&r);
    char *expect = malloc(c.mem.len);
    memcpy(expect, c.mem.mem, c.mem.len);
    model_unpack(c.runs, c.nruns, expect + (c.mem.origin - c.mem.mem), want);
    before = dli_few_uses();
    pos = 0;
    ck_assert_int_eq(dl_unpack(want, c.size, &pos, c.mem.origin, 1, t), DL_OK);
    ck_assert_msg(!memcmp(c.mem.mem, expect, c.mem.len), "%s: unpack", desc);
    ck_assert_msg(dli_few_uses() - before == (few ? 1u : 0u), "%s: unpack fired", desc);
    free(expect);
    free(want);
    free(got);
    free(c.runs);
    tbuf_free(&c.mem);
    model_free(m);
    model_free(b);
    dl_type_free(&t);
    free(bl);
    free(off);
  }
}
END_TEST

START_TEST(interleaved)
{
  rng r = {seed ^ 0x11ea};
  long fired = 0, plain = 0;
  dli_interleave_force(1);     /* these are small: by size, none would */
  for (int it = 0; it < test_scaled(600); it++) {
    /* every other draw is an element with holes and copies within what
       it spans, where the interleaved walk applies, so that some draws
       fire whatever the seed and the scale */
    bool fit = it % 2;
    rtype el;
    dl_count size0, n = rng_range(&r, 2, DLI_INTERLEAVE_MAX + 2);
    dl_aint step = rng_range(&r, 1, 48), tlb, text;
    for (int tries = 0;; tries++) {
      ck_assert_int_eq(rtype_gen(&r, (int)rng_range(&r, fit ? 2 : 1, 4), &el, NULL), 0);
      ck_assert_int_eq(dl_type_true_extent(el.t, &tlb, &text), DL_OK);
      ck_assert_int_eq(dl_type_size(el.t, &size0), DL_OK);
      if (!fit || tries == 50 || (size0 < text && text / n >= 1))
        break;
      rtype_free(&el);
    }
    if (fit && text / n >= 1)
      step = rng_range(&r, 1, text / n);
    recipe *kids[1] = {el.rc};
    recipe top = {.kind = RT_HVECTOR, .n = n, .bl = 1, .stride = step, .kids = kids,
                  .nkids = 1};
    dl_type *t;
    ck_assert_int_eq(recipe_build(&top, &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    model *m = recipe_model_level(&top, (model *const *)&el.m);
    if (!m) {                /* past the model's run limit */
      dl_type_free(&t);
      rtype_free(&el);
      continue;
    }
    tcase c = {0};
    ck_assert_int_eq(tcase_layout(&c, m, 1, rng_next(&r)), 0);
    size_t size = c.size;
    char *origin = c.mem.origin;
    char *want = malloc(size + 1), *got = malloc(size + 1), *chunked = malloc(size + 1);
    model_pack(c.runs, c.nruns, origin, want);
    unsigned long before = dli_interleave_uses();
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(origin, 1, t, got, size, &pos), DL_OK);
    ck_assert_uint_eq(pos, size);
    bool fires = dli_interleave_uses() > before;
    ck_assert_int_eq(fires, size > 0 && dli_interleaves(t->loop, size, true, IL_LIMIT));
    fires ? fired++ : plain++;
    ck_assert_msg(memcmp(want, got, size) == 0, "seed %llu: n %lld step %lld of %s (%s)",
                  (unsigned long long)seed, (long long)n, (long long)step, el.desc,
                  fires ? "interleaved" : "plain");
    dl_segment *sg;
    ck_assert_int_eq(dl_segment_create(origin, 1, t, &sg), DL_OK);
    for (size_t at = 0; at < size; at += 4096) {
      size_t last = at + 4096;
      ck_assert_int_eq(dl_segment_pack(sg, at, &last, chunked + at), DL_OK);
    }
    dl_segment_free(&sg);
    ck_assert(memcmp(want, chunked, size) == 0);
    free(want);
    free(got);
    free(chunked);
    tcase_free(&c);
    model_free(m);
    dl_type_free(&t);
    rtype_free(&el);
  }
  dli_interleave_force(0);
  ck_assert_msg(fired > 0 && plain > 0, "interleaved %ld, plain %ld", fired, plain);
}
END_TEST

/* Flash-like nests (regular, disjoint) of n copies interleaved a step
   apart: both a whole pack and a whole unpack take the interleaved walk,
   and give the model's bytes; where the copies' step lets the copies of
   one block reach the next block, unpacking keeps stream order. */
START_TEST(interleaved_unpack)
{
  rng r = {seed ^ 0x11eb};
  long both = 0, pack_only = 0, by_code = 0;
  dli_interleave_force(1);
  for (int it = 0; it < test_scaled(400); it++) {
    dl_count e = rng_range(&r, 0, 1) ? 8 : 4, n = rng_range(&r, 2, 32);
    dl_aint step = e * rng_range(&r, 1, 2);
    bool apart = rng_range(&r, 0, 3) > 0;       /* else copies reach the next block */
    dl_aint s0 = apart ? (n - 1) * step + e + e * rng_range(&r, 0, 8) : step * (n - 1);
    dl_count c0 = rng_range(&r, 2, 9), c1 = rng_range(&r, 1, 5);
    dl_aint s1 = c0 * s0 + s0 * rng_range(&r, 0, 3);
    dl_type *x, *y, *t;
    ck_assert_int_eq(dl_type_hvector(c0, 1, s0, e == 8 ? DOUBLE : FLOAT, &x), DL_OK);
    ck_assert_int_eq(dl_type_hvector(c1, 1, s1, x, &y), DL_OK);
    ck_assert_int_eq(dl_type_hvector(n, 1, step, y, &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    model *mb = model_builtin(e, (int)e), *mx = model_hvector(c0, 1, s0, mb),
          *my = model_hvector(c1, 1, s1, mx), *m = model_hvector(n, 1, step, my);
    tcase c = {0};
    ck_assert_int_eq(tcase_layout(&c, m, 1, rng_next(&r)), 0);
    size_t size = c.size;
    tbuf mem = c.mem;
    char *want = malloc(size), *got = malloc(size), *ref = malloc(mem.len);
    model_pack(c.runs, c.nruns, mem.origin, want);
    unsigned long u0 = dli_interleave_uses();
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(mem.origin, 1, t, got, size, &pos), DL_OK);
    bool packed = dli_interleave_uses() == u0 + 1;
    ck_assert_int_eq(packed, dli_interleaves(t->loop, size, true, IL_LIMIT));
    /* (a child that folded into one leaf is the transpose kernel's) */
    ck_assert(!apart || packed || t->loop->child->leaf);
    ck_assert(memcmp(want, got, size) == 0);
    /* unpack a fresh stream over the same memory: the model's result */
    for (size_t i = 0; i < size; i++)
      got[i] = (char)rng_next(&r);
    memcpy(ref, mem.mem, mem.len);
    model_unpack(c.runs, c.nruns, ref + (mem.origin - mem.mem), got);
    pos = 0;
    ck_assert_int_eq(dl_unpack(got, size, &pos, mem.origin, 1, t), DL_OK);
    /* compiled code, where the type has it (DL_JIT forced), unpacks first */
    bool compiled = dli_bulk_for(t, DLI_JIT_UNPACK) != NULL;
    bool fired = dli_interleave_uses() == u0 + packed + 1;
    ck_assert_int_eq(fired, dli_interleaves(t->loop, size, false, IL_LIMIT) && !compiled);
    ck_assert(fired == apart || !packed || compiled);
    if (packed)
      compiled ? by_code++ : fired ? both++ : pack_only++;
    ck_assert_msg(memcmp(ref, mem.mem, mem.len) == 0, "seed %llu: unpack of %lld x %lld "
                  "copies %lld apart over %lld x %lld B at %lld, %lld at %lld (%s)",
                  (unsigned long long)seed, (long long)n, (long long)e, (long long)step,
                  (long long)c1, (long long)c0, (long long)s0, (long long)c1,
                  (long long)s1, fired ? "interleaved" : "stream order");
    free(want);
    free(got);
    free(ref);
    tcase_free(&c);
    model_free(m);
    model_free(my);
    model_free(mx);
    model_free(mb);
    dl_type_free(&t);
    dl_type_free(&y);
    dl_type_free(&x);
  }
  dli_interleave_force(0);
  ck_assert_msg((both > 0 && pack_only > 0) || by_code > 0,
                "both %ld, pack only %ld, unpacked by compiled code %ld", both, pack_only,
                by_code);
}
END_TEST

START_TEST(transposes)
{
  rng r = {seed ^ 0x7a5e};
  static const dl_count blks[] = {4, 8, 12, 16, 24, 32, 40};
  static const dl_count nreps[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 33};
  static const dl_count cols[] = {1, 2, 5};
  int fired = 0;
  for (size_t a = 0; a < sizeof(blks) / sizeof(blks[0]); a++)
    for (size_t b = 0; b < sizeof(nreps) / sizeof(nreps[0]); b++)
      for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
        for (int shape = 0; shape < 3; shape++) {
          dl_count blk = blks[a], R = nreps[b], C = cols[c];
          /* stride: just disjoint, disjoint with room, overlapping */
          dl_count S = shape == 0 ? R * blk : shape == 1 ? R * blk + 24 : blk + 4;
          for (dl_count count = 1; count <= 2; count++) {
            dl_type *el, *col, *colr, *t;
            ck_assert_int_eq(dl_type_contiguous(blk, dl_builtin(DL_BYTE), &el), DL_OK);
            ck_assert_int_eq(dl_type_hvector(C, 1, S, el, &col), DL_OK);
            ck_assert_int_eq(dl_type_resized(col, 0, blk, &colr), DL_OK);
            ck_assert_int_eq(dl_type_contiguous(R, colr, &t), DL_OK);
            ck_assert_int_eq(dl_type_commit(t), DL_OK);
            dl_aint ext = (count - 1) * R * blk + (C - 1) * S + R * blk;
            size_t size = (size_t)(count * R * C * blk);
            char *mem = malloc((size_t)ext), *want = malloc(size), *got = malloc(size);
            char *back = calloc(1, (size_t)ext), *ref = calloc(1, (size_t)ext);
            for (dl_aint i = 0; i < ext; i++)
              mem[i] = (char)rng_next(&r);
            /* the plain order: copy k, repetition q, block i */
            size_t at = 0;
            for (dl_count k = 0; k < count; k++)
              for (dl_count q = 0; q < R; q++)
                for (dl_count i = 0; i < C; i++) {
                  memcpy(want + at, mem + (k * R + q) * blk + i * S, (size_t)blk);
                  memcpy(ref + (k * R + q) * blk + i * S, want + at, (size_t)blk);
                  at += (size_t)blk;
                }
            dl_segment *sg;
            ck_assert_int_eq(dl_segment_create(mem, count, t, &sg), DL_OK);
            const dli_loop *pl = leaf_parent(sg->root);
            bool tiles = pl && pl->child->kind == DLI_VECTOR &&
                         dli_transposes(pl->count, pl->el_extent, pl->child->count,
                                        pl->child->blocklen, pl->child->stride);
            /* one copy: it fires exactly where the shape allows it (two
               copies may merge into one loop of 2R repetitions, whose
               blocks may then overlap) */
            bool expect = C >= 2 && blk <= 32 && R >= 64 / blk && S >= R * blk;
            ck_assert_msg(count > 1 || tiles == expect, "blk %lld R %lld C %lld S %lld count %lld: tiles %d "
                          "(loop %d over %d: %lld x %lld, child %lld x %lld B at %lld)",
                          (long long)blk, (long long)R, (long long)C, (long long)S,
                          (long long)count, tiles, pl ? pl->kind : -1,
                          pl ? pl->child->kind : -1, pl ? (long long)pl->count : 0,
                          pl ? (long long)pl->el_extent : 0,
                          pl ? (long long)pl->child->count : 0,
                          pl ? (long long)pl->child->blocklen : 0,
                          pl ? (long long)pl->child->stride : 0);
            fired += tiles;
            size_t pos = 0;
            ck_assert_int_eq(dl_pack(mem, count, t, got, size, &pos), DL_OK);
            ck_assert_msg(memcmp(got, want, size) == 0, "pack blk %lld R %lld C %lld S %lld",
                          (long long)blk, (long long)R, (long long)C, (long long)S);
            pos = 0;
            ck_assert_int_eq(dl_unpack(want, size, &pos, back, count, t), DL_OK);
            ck_assert_msg(memcmp(back, ref, (size_t)ext) == 0,
                          "unpack blk %lld R %lld C %lld S %lld", (long long)blk,
                          (long long)R, (long long)C, (long long)S);
            /* in random pieces, in order */
            memset(got, 0, size);
            for (size_t first = 0; first < size;) {
              size_t last = first + 1 + (size_t)rng_range(&r, 0, (int64_t)(3 * R * blk));
              ck_assert_int_eq(dl_segment_pack(sg, first, &last, got + first), DL_OK);
              first = last;
            }
            ck_assert(memcmp(got, want, size) == 0);
            dl_segment *su;
            memset(back, 0, (size_t)ext);
            ck_assert_int_eq(dl_segment_create(back, count, t, &su), DL_OK);
            for (size_t first = 0; first < size;) {
              size_t last = first + 1 + (size_t)rng_range(&r, 0, (int64_t)(3 * R * blk));
              if (last > size)
                last = size;
              ck_assert_int_eq(dl_segment_unpack(su, first, &last, want + first), DL_OK);
              first = last;
            }
            ck_assert(memcmp(back, ref, (size_t)ext) == 0);
            dl_segment_free(&su);
            dl_segment_free(&sg);
            free(mem);
            free(want);
            free(got);
            free(back);
            free(ref);
            dl_type_free(&el);
            dl_type_free(&col);
            dl_type_free(&colr);
            dl_type_free(&t);
          }
        }
  ck_assert_int_gt(fired, 50);
}
END_TEST

/* ---- compiled code: a stand-in compiler exercises the walker's use of it ----

   Every loop that may carry compiled code gets a function that moves its
   elements with the reference walk; packing in random chunks, in and out
   of order, must still give the model's bytes. */

enum { SLOTS = 64 };
static const dli_loop *slot_loop[SLOTS];
static int slot_calls;

struct copyrun { char *packed; int dir; };

static int copy_run(void *ctx, dl_aint addr, dl_count len)
{
  struct copyrun *c = ctx;
  if (c->dir == DLI_JIT_PACK)
    memcpy(c->packed, (char *)addr, (size_t)len);
  else
    memcpy((char *)addr, c->packed, (size_t)len);
  c->packed += len;
  return 0;
}

static void fake_run(int k, int dir, char *origin, char *packed, dl_count e0, dl_count e1)
{
  const dli_loop *l = slot_loop[k];
  struct copyrun c = {packed, dir};
  slot_calls++;
  for (dl_count e = e0; e < e1; e++) {
    dl_aint at = (dl_aint)(uintptr_t)origin + l->offset;
    if (l->kind == DLI_VECTOR)
      at += e * l->stride;
    else if (l->kind == DLI_BLOCKINDEXED || l->kind == DLI_INDEXED)
      at += l->offs[e];
    else if (!l->leaf)
      at += e * l->el_extent;
    if (l->leaf)
      copy_run(&c, at, l->kind == DLI_CONTIG ? l->count
                      : l->kind == DLI_INDEXED ? l->pre[e + 1] - l->pre[e] : l->blocklen);
    else
      dli_loop_walk(l->child, at, copy_run, &c);
  }
}

#define FAKE(k, j)                                                           \
  static void fake_p##k##j(char *o, char *p, dl_count a, dl_count b)         \
  { fake_run(8 * k + j, 0, o, p, a, b); }                                    \
  static void fake_u##k##j(char *o, char *p, dl_count a, dl_count b)         \
  { fake_run(8 * k + j, 1, o, p, a, b); }
#define FAKE8(k) FAKE(k, 0) FAKE(k, 1) FAKE(k, 2) FAKE(k, 3) FAKE(k, 4) \
  FAKE(k, 5) FAKE(k, 6) FAKE(k, 7)
FAKE8(0) FAKE8(1) FAKE8(2) FAKE8(3) FAKE8(4) FAKE8(5) FAKE8(6) FAKE8(7)
#define REF(k, j) {fake_p##k##j, fake_u##k##j},
#define REF8(k) REF(k, 0) REF(k, 1) REF(k, 2) REF(k, 3) REF(k, 4) REF(k, 5) \
  REF(k, 6) REF(k, 7)
static const dli_jit_fn fakes[SLOTS][2] = {REF8(0) REF8(1) REF8(2) REF8(3) REF8(4)
                                          REF8(5) REF8(6) REF8(7)};

/* gives every eligible loop of the tree a stand-in function; returns how
   many (0 means nothing was eligible) */
static int fake_compile(const dli_loop *l, int *used)
{
  int n = 0;
  if (*used < SLOTS && dli_jit_shape_ok(l)) {
    slot_loop[*used] = l;
    ((dli_loop *)l)->jit[0] = (void *)fakes[*used][0];
    ((dli_loop *)l)->jit[1] = (void *)fakes[*used][1];
    (*used)++;
    n++;
  }
  if (l->kind == DLI_STRUCT)
    for (dl_count i = 0; i < l->count; i++)
      n += fake_compile(l->children[i], used);
  else if (!l->leaf)
    n += fake_compile(l->child, used);
  return n;
}

START_TEST(compiled_code_in_the_walker)
{
  rng r = {seed ^ 6};
  int n = test_scaled(2000), compiled = 0;
  size_t edges[256], order[256];
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    int used = 0;
    if (c.size == 0 || c.rt.t->builtin || fake_compile(c.rt.t->loop, &used) == 0) {
      tcase_free(&c);
      continue;
    }
    atomic_store(&c.rt.t->compiled, 3);
    compiled++;
    char *want = malloc(c.size + 1), *got = malloc(c.size + 1);
    model_pack(c.runs, c.nruns, c.mem.origin, want);
    size_t pos = 0;
    slot_calls = 0;
    ck_assert_int_eq(dl_pack(c.mem.origin, c.count, c.rt.t, got, c.size, &pos), DL_OK);
    if (memcmp(want, got, c.size) != 0) {
      dl_type_print(stderr, c.rt.t);
      for (size_t i = 0; i < c.size; i++)
        if (want[i] != got[i]) {
          fprintf(stderr, "first difference at packed byte %zu of %zu\n", i, c.size);
          break;
        }
    }
    ck_assert_msg(memcmp(want, got, c.size) == 0, "compiled one-shot: " CASE_FMT,
                  CASE_ARGS(&c));
    /* a single dense run is a plain memmove, compiled or not, and a leaf
       of a few blocks one short loop (dli_move_few) */
    if (!dli_is_dense(c.rt.t->loop) && c.count == 1 && !dli_few_blocks(c.rt.t->loop))
      ck_assert_msg(slot_calls > 0, "compiled code never called: " CASE_FMT,
                    CASE_ARGS(&c));
    size_t ne = rng_cut(&r, c.size, edges, 256);
    for (size_t k = 0; k + 1 < ne; k++)
      order[k] = k;
    rng_shuffle(&r, order, ne - 1);
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create(c.mem.origin, c.count, c.rt.t, &s), DL_OK);
    memset(got, 0, c.size);
    for (size_t k = 0; k + 1 < ne; k++) {
      size_t a = edges[order[k]], z = edges[order[k] + 1], last = z;
      ck_assert_int_eq(dl_segment_pack(s, a, &last, got + a), DL_OK);
      ck_assert_uint_eq(last, z);
    }
    ck_assert_msg(memcmp(want, got, c.size) == 0, "compiled chunks: " CASE_FMT,
                  CASE_ARGS(&c));
    /* unpack: the one-shot, compiled, into a copy equals the model's */
    tbuf a, b;
    uint64_t f = rng_next(&r);
    twin_bufs(&c, f, &a, &b);
    model_unpack(c.runs, c.nruns, a.origin, want);
    pos = 0;
    ck_assert_int_eq(dl_unpack(want, c.size, &pos, b.origin, c.count, c.rt.t), DL_OK);
    ck_assert_msg(memcmp(a.mem, b.mem, c.mem.len) == 0, "compiled unpack: " CASE_FMT,
                  CASE_ARGS(&c));
    free(a.mem);
    free(b.mem);
    dl_segment_free(&s);
    free(want);
    free(got);
    tcase_free(&c);
  }
  ck_assert_int_gt(compiled, n / 4);
}
END_TEST

/* ---- one-shot semantics ---- */

START_TEST(oneshot)
{
  dl_type *v;
  ck_assert_int_eq(dl_type_vector(4, 1, 2, INT32, &v), DL_OK);
  int32_t in[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  char out[40];
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(in, 1, v, out, sizeof(out), &pos), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(dl_unpack(out, sizeof(out), &pos, in, 1, v), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(dl_type_commit(v), DL_OK);
  /* position advances; a second pack appends */
  ck_assert_int_eq(dl_pack(in, 1, v, out, sizeof(out), &pos), DL_OK);
  ck_assert_uint_eq(pos, 16);
  ck_assert_int_eq(dl_pack(in + 1, 1, v, out, sizeof(out), &pos), DL_OK);
  ck_assert_uint_eq(pos, 32);
  int32_t w[8];
  memcpy(w, out, 32);
  int32_t expect[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  ck_assert(memcmp(w, expect, 32) == 0);
  /* too small: what fits is written, nothing past the end, position says
     how far it got */
  memset(out, 0x55, sizeof(out));
  pos = 2;
  ck_assert_int_eq(dl_pack(in, 1, v, out, 12, &pos), DL_ERR_TRUNCATE);
  ck_assert_uint_eq(pos, 12);
  ck_assert(memcmp(out + 2, expect, 10) == 0);
  for (int i = 12; i < 40; i++)
    ck_assert_int_eq(out[i], 0x55);
  ck_assert_int_eq(out[0], 0x55);
  /* unpack of a short stream: unpacks what is there, reports truncation */
  int32_t dst[8] = {0};
  int32_t src[4] = {10, 20, 30, 40};
  pos = 0;
  ck_assert_int_eq(dl_unpack(src, 10, &pos, dst, 1, v), DL_ERR_TRUNCATE);
  ck_assert_uint_eq(pos, 10);
  ck_assert_int_eq(dst[0], 10);
  ck_assert_int_eq(dst[2], 20);
  ck_assert_int_eq(dst[4] & 0xffff, 30 & 0xffff);
  ck_assert_int_eq(dst[6], 0);
  /* bad arguments */
  pos = 0;
  ck_assert_int_eq(dl_pack(in, -1, v, out, 40, &pos), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack(in, 1, NULL, out, 40, &pos), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack(in, 1, v, out, 40, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack(in, 1, v, NULL, 40, &pos), DL_ERR_ARG);
  pos = 41;
  ck_assert_int_eq(dl_pack(in, 1, v, out, 40, &pos), DL_ERR_ARG);
  ck_assert_int_eq(dl_unpack(out, 40, &pos, in, 1, v), DL_ERR_ARG);
  pos = 0;
  ck_assert_int_eq(dl_unpack(NULL, 40, &pos, in, 1, v), DL_ERR_ARG);
  ck_assert_int_eq(dl_unpack(out, 40, &pos, in, -3, v), DL_ERR_ARG);
  size_t sz;
  ck_assert_int_eq(dl_pack_size(-1, v, &sz), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_size(1, v, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_size(INT64_MAX / 8, v, &sz), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_pack_size(5, v, &sz), DL_OK);
  ck_assert_uint_eq(sz, 80);
  /* zero count and zero output space are fine */
  pos = 0;
  ck_assert_int_eq(dl_pack(in, 0, v, NULL, 0, &pos), DL_OK);
  ck_assert_uint_eq(pos, 0);
  /* dense runs: one copy from buf + offset */
  int dense;
  dl_aint off;
  ck_assert_int_eq(dl_type_dense(1, v, &dense, &off), DL_OK);
  ck_assert(!dense);
  ck_assert_int_eq(dl_type_dense(3, INT32, &dense, &off), DL_OK);
  ck_assert(dense && off == 0);
  ck_assert_int_eq(dl_type_dense(0, v, &dense, &off), DL_OK);
  ck_assert(dense && off == 0);
  dl_type *r;
  ck_assert_int_eq(dl_type_resized(INT32, -4, 12, &r), DL_OK);
  ck_assert_int_eq(dl_type_dense(1, r, &dense, &off), DL_OK);
  ck_assert(dense && off == 0);
  ck_assert_int_eq(dl_type_dense(2, r, &dense, &off), DL_OK);
  ck_assert(!dense);
  dl_type_free(&r);
  dl_count one = 1;
  dl_aint at = 8;
  ck_assert_int_eq(dl_type_hindexed(1, &one, &at, DOUBLE, &r), DL_OK);
  ck_assert_int_eq(dl_type_dense(1, r, &dense, &off), DL_OK);
  ck_assert(dense && off == 8);
  ck_assert_int_eq(dl_type_dense(1, r, NULL, &off), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_dense(-1, r, &dense, &off), DL_ERR_ARG);
  dl_type_free(&r);
  /* predefined types need no commit */
  pos = 0;
  ck_assert_int_eq(dl_pack(in, 2, INT32, out, 40, &pos), DL_OK);
  ck_assert_uint_eq(pos, 8);
  dl_type_free(&v);
}
END_TEST

/* a NULL buffer means absolute addresses (MPI_BOTTOM): refused with a
   detail when the data would lie in the first page, served otherwise */
static int32_t abs_data[4] = {10, 11, 12, 13};

START_TEST(null_buffers)
{
  dl_type *v, *a;
  ck_assert_int_eq(dl_type_vector(2, 1, 2, INT32, &v), DL_OK);
  ck_assert_int_eq(dl_type_commit(v), DL_OK);
  unsigned char out[16];
  memset(out, 0x55, sizeof(out));
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(NULL, 1, v, out, sizeof(out), &pos), DL_ERR_ARG);
  ck_assert_msg(strstr(dl_last_error_detail(), "dl_pack: NULL buffer"),
                "detail: %s", dl_last_error_detail());
  ck_assert_uint_eq(pos, 0);
  ck_assert_int_eq(out[0], 0x55);
  ck_assert_int_eq(dl_unpack(out, sizeof(out), &pos, NULL, 1, v), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "dl_unpack: NULL buffer"));
  ck_assert_uint_eq(pos, 0);
  /* a predefined type from NULL, and nothing to move: count 0 is fine */
  ck_assert_int_eq(dl_pack(NULL, 2, INT32, out, sizeof(out), &pos), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack(NULL, 0, v, out, sizeof(out), &pos), DL_OK);
  /* data below the first page through a negative copy: count 2 of a
     type whose data sits at the static array and whose extent takes the
     second copy to address 0 */
  dl_aint d = (dl_aint)(uintptr_t)abs_data;
  dl_count two = 2;
  ck_assert_int_eq(dl_type_hindexed(1, &two, &d, INT32, &a), DL_OK);
  dl_type *neg;
  ck_assert_int_eq(dl_type_resized(a, 0, -d, &neg), DL_OK);
  ck_assert_int_eq(dl_type_commit(neg), DL_OK);
  ck_assert_int_eq(dl_pack(NULL, 2, neg, out, sizeof(out), &pos), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "address 0,"));
  ck_assert_uint_eq(pos, 0);
  dl_type_free(&neg);
  /* absolute displacements of a real buffer: served */
  ck_assert_int_eq(dl_type_commit(a), DL_OK);
  ck_assert_int_eq(dl_pack(NULL, 1, a, out, sizeof(out), &pos), DL_OK);
  ck_assert_uint_eq(pos, 8);
  ck_assert(memcmp(out, abs_data, 8) == 0);
  int32_t back[2] = {-1, -2};
  memcpy(out, back, 8);
  pos = 0;
  ck_assert_int_eq(dl_unpack(out, 8, &pos, NULL, 1, a), DL_OK);
  ck_assert(abs_data[0] == -1 && abs_data[1] == -2);
  abs_data[0] = 10;
  abs_data[1] = 11;
  /* segments: creation takes NULL (offset lists relative to 0), moving
     data is refused or served as above */
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(NULL, 1, v, &s), DL_OK);
  int64_t offs[2], lens[2];
  size_t last = 8, n;
  ck_assert_int_eq(dl_segment_offlen(s, 0, &last, offs, lens, 2, &n), DL_OK);
  ck_assert(n == 2 && offs[0] == 0 && offs[1] == 8);
  memset(out, 0x55, sizeof(out));
  last = 8;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "dl_segment_pack: NULL buffer"));
  ck_assert_int_eq(out[0], 0x55);
  last = 8;
  ck_assert_int_eq(dl_segment_unpack(s, 0, &last, out), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "dl_segment_unpack: NULL buffer"));
  dl_segment_free(&s);
  ck_assert_int_eq(dl_segment_create(NULL, 1, a, &s), DL_OK);
  last = 8;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_OK);
  ck_assert(last == 8 && memcmp(out, abs_data, 8) == 0);
  dl_segment_free(&s);
  dl_type_free(&a);
  dl_type_free(&v);
}
END_TEST

START_TEST(segment_errors)
{
  dl_type *v;
  dl_segment *s = (dl_segment *)1;
  ck_assert_int_eq(dl_type_vector(4, 1, 2, INT32, &v), DL_OK);
  ck_assert_int_eq(dl_segment_create(NULL, 1, v, &s), DL_ERR_NOT_COMMITTED);
  ck_assert_ptr_null(s);
  dl_type_commit(v);
  ck_assert_int_eq(dl_segment_create(NULL, -1, v, &s), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_create(NULL, 1, NULL, &s), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_create(NULL, 1, v, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_create(NULL, INT64_MAX / 4, v, &s), DL_ERR_OVERFLOW);
  s = (dl_segment *)1;
  ck_assert_int_eq(dl_segment_create_bounded(NULL, 1, v, 10, 5, &s), DL_ERR_ARG);
  ck_assert_ptr_null(s);
  int32_t in[8] = {0};
  char out[16];
  ck_assert_int_eq(dl_segment_create(in, 1, v, &s), DL_OK);
  /* the segment holds its own reference: freeing the type is safe */
  ck_assert_int_eq(dl_type_free(&v), DL_OK);
  size_t last = 16;
  ck_assert_int_eq(dl_segment_pack(NULL, 0, &last, out), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_pack(s, 0, NULL, out), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_pack(s, 17, &last, out), DL_ERR_ARG);
  last = 4;
  ck_assert_int_eq(dl_segment_pack(s, 8, &last, out), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_unpack(s, 0, &last, NULL), DL_ERR_ARG);
  size_t n;
  last = 16;
  ck_assert_int_eq(dl_segment_iov(s, 0, &last, NULL, 4, &n), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_iov(s, 0, &last, NULL, 0, NULL), DL_ERR_ARG);
  int64_t o[2], l[2];
  ck_assert_int_eq(dl_segment_offlen(s, 0, &last, o, NULL, 2, &n), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_iov_count(s, 0, &last, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_iov_count(NULL, 0, &last, &n), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_iov_count(s, 0, NULL, &n), DL_ERR_ARG);
  last = 4;
  ck_assert_int_eq(dl_segment_iov_count(s, 8, &last, &n), DL_ERR_ARG);
  /* a request past the end stops at the end; an empty list makes no
     progress and says so */
  last = 1000;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_OK);
  ck_assert_uint_eq(last, 16);
  last = 16;
  ck_assert_int_eq(dl_segment_iov(s, 0, &last, NULL, 0, &n), DL_OK);
  ck_assert_uint_eq(last, 0);
  ck_assert_uint_eq(n, 0);
  last = 16;
  ck_assert_int_eq(dl_segment_offlen(s, 4, &last, o, l, 2, &n), DL_OK);
  ck_assert_uint_eq(last, 12);          /* two entries hold blocks 1 and 2 */
  ck_assert_uint_eq(n, 2);
  ck_assert_int_eq(o[0], 8);
  ck_assert_int_eq(o[1], 16);
  dl_segment_free(&s);
  dl_segment_free(&s);                  /* NULL: nothing */
  dl_segment_free(NULL);
  ck_assert_uint_eq(dl_segment_size(NULL), 0);
  ck_assert_uint_eq(dl_piece_bytes(NULL), 0);
}
END_TEST

START_TEST(bounded)
{
  dl_type *v;
  ck_assert_int_eq(dl_type_vector(4, 2, 3, INT32, &v), DL_OK);   /* bytes 0..44 */
  dl_type_commit(v);
  int32_t in[12];
  for (int i = 0; i < 11; i++)
    in[i] = i;
  char out[32];
  dl_segment *s;
  /* inside: works */
  ck_assert_int_eq(dl_segment_create_bounded(in, 1, v, 0, 44, &s), DL_OK);
  size_t last = 32;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_OK);
  ck_assert_uint_eq(last, 32);
  dl_segment_free(&s);
  /* one byte short: the call fails before writing anything */
  ck_assert_int_eq(dl_segment_create_bounded(in, 1, v, 0, 43, &s), DL_OK);
  memset(out, 0x77, sizeof(out));
  last = 32;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_ERR_BOUNDS);
  for (int i = 0; i < 32; i++)
    ck_assert_int_eq(out[i], 0x77);
  /* a range that stays inside the bounds is still served */
  last = 24;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_OK);
  ck_assert_uint_eq(last, 24);
  ck_assert(memcmp(out, (int32_t[]){0, 1, 3, 4, 6, 7}, 24) == 0);
  /* unpack refuses to write outside too */
  int32_t dst[12] = {0};
  dl_segment *u;
  ck_assert_int_eq(dl_segment_create_bounded(dst, 1, v, 4, 44, &u), DL_OK);
  last = 32;
  ck_assert_int_eq(dl_segment_unpack(u, 0, &last, out), DL_ERR_BOUNDS);
  for (int i = 0; i < 12; i++)
    ck_assert_int_eq(dst[i], 0);
  size_t n;
  struct iovec iov[8];
  last = 32;
  ck_assert_int_eq(dl_segment_iov(u, 0, &last, iov, 8, &n), DL_ERR_BOUNDS);
  last = 32;
  ck_assert_int_eq(dl_segment_iov_count(u, 0, &last, &n), DL_ERR_BOUNDS);
  struct sum sum = {0, 0, true};               /* an embedder's action too */
  last = 32;
  ck_assert_int_eq(dl_segment_process(u, 0, &last, &sum_action, &sum), DL_ERR_BOUNDS);
  ck_assert(sum.s == 0);
  dl_segment_free(&u);
  dl_segment_free(&s);
  dl_type_free(&v);
}
END_TEST

/* ---- bounded segments against random windows ---- */

/* the lowest and one past the highest memory offset that packed bytes
   [first, last) of the runs touch; false when the range is empty */
static bool range_span(const mrun *runs, size_t n, size_t first, size_t last,
                       dl_aint *lo, dl_aint *hi)
{
  size_t pos = 0;
  bool any = false;
  for (size_t i = 0; i < n; pos += (size_t)runs[i].len, i++) {
    size_t a = pos > first ? pos : first, z = pos + (size_t)runs[i].len;
    z = z < last ? z : last;
    if (a >= z)
      continue;
    dl_aint b = runs[i].disp + (dl_aint)(a - pos), e = b + (dl_aint)(z - a);
    if (!any || b < *lo) *lo = b;
    if (!any || e > *hi) *hi = e;
    any = true;
  }
  return any;
}

/* the model's pack (to_mem false) or unpack of packed bytes [first, last) */
static void model_range(const mrun *runs, size_t n, char *origin, char *packed,
                        size_t first, size_t last, bool to_mem)
{
  size_t pos = 0;
  for (size_t i = 0; i < n; pos += (size_t)runs[i].len, i++) {
    size_t a = pos > first ? pos : first, z = pos + (size_t)runs[i].len;
    z = z < last ? z : last;
    if (a >= z)
      continue;
    char *m = origin + runs[i].disp + (a - pos), *q = packed + (a - first);
    memcpy(to_mem ? m : q, to_mem ? q : m, z - a);
  }
}

/* Memory whose accessible part is the window [lo, hi) of offsets from
   `origin`, plus less than a page of slack on one side; guard pages
   (PROT_NONE) on both sides, one of them exactly at the window's edge. */
typedef struct guarded {
  char *map, *origin, *acc;
  size_t maplen, acclen;
} guarded;

static void guarded_new(guarded *g, dl_aint lo, dl_aint hi, bool guard_high)
{
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t win = (size_t)(hi - lo), pages = (win + pg - 1) / pg + (win % pg == 0);
  g->acclen = pages * pg;
  g->maplen = g->acclen + 2 * pg;
  g->map = mmap(NULL, g->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert(g->map != MAP_FAILED);
  g->acc = g->map + pg;
  ck_assert_int_eq(mprotect(g->acc, g->acclen, PROT_READ | PROT_WRITE), 0);
  char *w = guard_high ? g->acc + g->acclen - win : g->acc;
  g->origin = w - lo;
}

START_TEST(random_bounds)
{
  rng r = {seed ^ 6};
  int n = test_scaled(2000), refused = 0, served = 0;
  for (int it = 0; it < n; it++) {
    tcase c;
    case_new(&r, &c);
    dl_aint dlo = 0, dhi = 0;
    range_span(c.runs, c.nruns, 0, c.size, &dlo, &dhi);
    dl_aint cut = (dhi - dlo) / 3 + 1;
    dl_aint lo = dlo + rng_range(&r, -2, cut), hi = dhi - rng_range(&r, -2, cut);
    if (rng_range(&r, 0, 3) == 0) {           /* often the exact data span */
      lo = dlo;
      hi = dhi;
    }
    if (hi < lo)
      hi = lo;
    guarded g;
    guarded_new(&g, lo, hi, it % 2 == 0);
    for (size_t i = 0; i < g.acclen; i++)
      g.acc[i] = (char)rng_next(&r);
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create_bounded(g.origin, c.count, c.rt.t, lo, hi, &s),
                     DL_OK);
    char *packed = malloc(c.size + 16), *want = malloc(c.size + 16);
    char *before = malloc(g.acclen), *after = malloc(g.acclen);
    for (int call = 0; call < 4; call++) {
      size_t first = (size_t)rng_range(&r, 0, (int64_t)c.size), last;
      if (call == 0)
        first = 0, last = c.size;
      else
        last = (size_t)rng_range(&r, (int64_t)first, (int64_t)c.size);
      /* served exactly when every byte the range touches is inside */
      dl_aint a, z;
      bool ok = !range_span(c.runs, c.nruns, first, last, &a, &z) ||
                (a >= lo && z <= hi);
      size_t len = last - first, got = last;
      bool pack = call % 2 == 0;
      int rc;
      memcpy(before, g.acc, g.acclen);
      memset(packed, 0x5c, c.size + 16);
      if (pack) {
        rc = dl_segment_pack(s, first, &got, packed);
        memcpy(after, before, g.acclen);           /* reading changes nothing */
        if (ok)
          model_range(c.runs, c.nruns, g.origin, want, first, last, false);
      } else {
        for (size_t i = 0; i < len; i++)
          packed[i] = (char)rng_next(&r);
        if (ok)                                    /* the model's result */
          model_range(c.runs, c.nruns, g.origin, packed, first, last, true);
        memcpy(after, g.acc, g.acclen);
        memcpy(g.acc, before, g.acclen);
        rc = dl_segment_unpack(s, first, &got, packed);
      }
      ck_assert_msg(rc == (ok ? DL_OK : DL_ERR_BOUNDS),
                    "%s [%zu, %zu) in [%lld, %lld): %s; " CASE_FMT,
                    pack ? "pack" : "unpack", first, last, (long long)lo,
                    (long long)hi, dl_strerror(rc), CASE_ARGS(&c));
      ck_assert_msg(memcmp(after, g.acc, g.acclen) == 0,
                    "memory differs after %s: " CASE_FMT, pack ? "pack" : "unpack",
                    CASE_ARGS(&c));
      if (ok) {
        ck_assert_uint_eq(got, last);
        served++;
      } else {
        refused++;
      }
      if (pack) {
        ck_assert_msg(!ok || memcmp(packed, want, len) == 0, "pack: " CASE_MSG(&c));
        for (size_t i = ok ? len : 0; i < c.size + 16; i++)
          ck_assert_msg(packed[i] == 0x5c, "pack wrote outside its output: " CASE_MSG(&c));
      }
    }
    dl_segment_free(&s);
    free(packed);
    free(want);
    free(before);
    free(after);
    munmap(g.map, g.maplen);
    tcase_free(&c);
  }
  ck_assert_int_gt(refused, n / 10);
  ck_assert_int_gt(served, n / 10);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, random_pack_unpack);
  tcase_add_test(tc, random_chunks);
  tcase_add_test(tc, whole_ranges);
  tcase_add_test(tc, struct_members);
  tcase_add_test(tc, whole_range_deep);
  tcase_add_test(tc, random_lists);
  tcase_add_test(tc, custom_action);
  tcase_add_test(tc, flash_manual);
  tcase_add_test(tc, count_time);
  tcase_add_test(tc, copy_classes);
  tcase_add_test(tc, transposes);
  tcase_add_test(tc, periodic_lengths);
  tcase_add_test(tc, spread_elements);
  tcase_add_test(tc, gathers);
  tcase_add_test(tc, few_blocks);
  tcase_add_test(tc, interleaved);
  tcase_add_test(tc, interleaved_unpack);
  tcase_add_test(tc, compiled_code_in_the_walker);
  tcase_add_test(tc, oneshot);
  tcase_add_test(tc, null_buffers);
  tcase_add_test(tc, segment_errors);
  tcase_add_test(tc, bounded);
  tcase_add_test(tc, random_bounds);
  return test_run("segments", tc, false);
}
