/* The typerep layer MPICH's backend stands on (src/mpich/tr.h) against the
 * typemap model: a type's fields, byte ranges packed and unpacked in
 * random chunks through the kept segments, iovec lists by byte and by
 * entry, the block cursor over byte ranges (and whether the blocks rise), and element-wise reductions over random layouts (dense elements,
 * elements the layout splits, pair types). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tr.h"
#include "buffers.h"
#include "model.h"
#include "randtype.h"
#include "runner.h"

static uint64_t seed;

/* a random case (buffers.h), its failure reported with the seed */
#define case_new(r, c, basics, nb)                                                    \
  ck_assert_msg(tcase_new(r, c, 5, basics, nb) == 0, "seed %llu: building %s failed", \
                (unsigned long long)seed, (c)->rt.desc)

#define CASE_FMT "seed %llu, count %lld, type %s"
#define CASE_ARGS(c) (unsigned long long)seed, (long long)(c)->count, (c)->rt.desc

START_TEST(fields)
{
  rng r = {seed ^ 1};
  for (int it = 0; it < test_scaled(2000); it++) {
    tcase c;
    case_new(&r, &c, NULL, 0);
    dli_tr_fields f;
    ck_assert_int_eq(dli_tr_fields_of(c.rt.t, &f), DL_OK);
    dl_count size;
    dl_type_size(c.rt.t, &size);
    ck_assert_int_eq(f.size, size);
    mrun *one, *two;
    size_t n1, n2;
    ck_assert_int_eq(model_bytemap(c.rt.m, 1, &one, &n1), 0);
    ck_assert_int_eq(model_bytemap(c.rt.m, 2, &two, &n2), 0);
    /* contiguous: two copies are one run (or nothing) */
    ck_assert_msg(f.is_contig == (n2 <= 1), "is_contig " CASE_FMT, CASE_ARGS(&c));
    ck_assert_msg(f.runs == (f.is_contig || n1 == 0 ? 1 : (dl_count)n1),
                  "runs %lld, model %zu: " CASE_FMT, (long long)f.runs, n1,
                  CASE_ARGS(&c));
    /* the runs counted up to a cap (the MPI bridge's, which weighs
       MPICH's engine by them): the count, or the cap once reached */
    dl_count want = n1 < 1 ? 1 : (dl_count)n1;
    for (dl_count cap = 1; cap <= want + 1; cap += cap < 4 ? 1 : want / 3 + 1) {
      dl_count got;
      ck_assert_int_eq(dli_tr_runs(c.rt.t, cap, &got), DL_OK);
      ck_assert_msg(got == (want < cap ? want : cap), "runs up to %lld: %lld, model %lld: "
                    CASE_FMT, (long long)cap, (long long)got, (long long)want,
                    CASE_ARGS(&c));
      /* estimated past the cap: the count below it, at least the cap
         past it, and never more than the element's bytes */
      dl_count est;
      ck_assert_int_eq(dli_tr_runs_estimate(c.rt.t, cap, &est), DL_OK);
      ck_assert_msg(want < cap ? est == want : est >= cap && est <= (size < 1 ? 1 : size),
                    "runs estimated past %lld: %lld, model %lld: " CASE_FMT, (long long)cap,
                    (long long)est, (long long)want, CASE_ARGS(&c));
    }
    free(one);
    free(two);
    tcase_free(&c);
  }
  /* a type that is not one: its error, and the cap as the count */
  dl_count got = 0;
  ck_assert_int_eq(dli_tr_runs(NULL, 5, &got), DL_ERR_ARG);
  ck_assert_int_eq(got, 5);
  ck_assert_int_eq(dli_tr_runs_estimate(NULL, 5, &got), DL_ERR_ARG);
  ck_assert_int_eq(got, 5);
  /* a layout of one pattern: its count exactly, however far past the cap
     (a vector of 262,144 blocks counted up to 1,000; 100 copies of a
     vector of 2,621 blocks, apart, and one more block after them) */
  dl_type *i32 = dl_builtin(DL_INT32), *v, *w, *h, *st;
  ck_assert_int_eq(dl_type_vector(262144, 1, 2, i32, &v), DL_OK);
  ck_assert_int_eq(dl_type_commit(v), DL_OK);
  ck_assert_int_eq(dli_tr_runs_estimate(v, 1000, &got), DL_OK);
  ck_assert_int_eq(got, 262144);
  ck_assert_int_eq(dli_tr_runs(v, 1000, &got), DL_OK);
  ck_assert_int_eq(got, 1000);
  ck_assert_int_eq(dl_type_vector(2621, 1, 2, i32, &w), DL_OK);
  ck_assert_int_eq(dl_type_hvector(100, 1, 2621 * 8, w, &h), DL_OK);
  dl_type *ty[2] = {h, i32};
  ck_assert_int_eq(dl_type_struct(2, (dl_count[]){1, 1}, (dl_aint[]){0, 2621 * 8 * 100}, ty,
                                  &st), DL_OK);
  ck_assert_int_eq(dl_type_commit(st), DL_OK);
  ck_assert_int_eq(dli_tr_runs_estimate(st, 1000, &got), DL_OK);
  ck_assert_int_eq(got, 262101);
  dl_type_free(&v);
  dl_type_free(&w);
  dl_type_free(&h);
  dl_type_free(&st);
}
END_TEST

/* chunks of random sizes, in order and (each second case) with every
   other chunk first, through the kept segments */
START_TEST(chunks)
{
  rng r = {seed ^ 2};
  for (int it = 0; it < test_scaled(2000); it++) {
    tcase c;
    case_new(&r, &c, NULL, 0);
    char *want = malloc(c.size + 4), *got = malloc(c.size + 1);
    model_pack(c.runs, c.nruns, c.mem.origin, want);
    size_t edges[64];
    size_t ne = rng_cut(&r, c.size, edges, 64);
    for (int pass = 0; pass < 2; pass++)
      for (size_t k = 0; k + 1 < ne; k++) {
        if ((k & 1) != (size_t)pass && (it & 1))
          continue;
        if (!(it & 1) && pass)
          break;
        size_t done;
        ck_assert_int_eq(dli_tr_pack(c.mem.origin, c.count, c.rt.t, edges[k],
                                     got + edges[k], edges[k + 1] - edges[k], &done),
                         DL_OK);
        ck_assert_uint_eq(done, edges[k + 1] - edges[k]);
      }
    ck_assert_msg(memcmp(want, got, c.size) == 0, "pack " CASE_FMT, CASE_ARGS(&c));
    /* a range past the end is clipped; one starting there does nothing */
    size_t done = 1;
    ck_assert_int_eq(dli_tr_pack(c.mem.origin, c.count, c.rt.t, c.size, got, 8,
                                 &done), DL_OK);
    ck_assert_uint_eq(done, 0);
    /* unpack the stream back in the same chunks into cleared memory */
    tbuf_fill(&c.mem, 0);
    for (size_t k = 0; k + 1 < ne; k++) {
      size_t d;
      ck_assert_int_eq(dli_tr_unpack(want + edges[k], edges[k + 1] - edges[k] + 3,
                                     c.mem.origin, c.count, c.rt.t, edges[k], &d),
                       DL_OK);
      size_t hi = edges[k + 1] + 3 < c.size ? edges[k + 1] + 3 : c.size;
      ck_assert_uint_eq(d, hi - edges[k]);
    }
    model_pack(c.runs, c.nruns, c.mem.origin, got);
    ck_assert_msg(memcmp(want, got, c.size) == 0, "unpack " CASE_FMT, CASE_ARGS(&c));
    free(want);
    free(got);
    tcase_free(&c);
  }
  dli_tr_release();
  dli_tr_release();     /* nothing kept: nothing to do */
}
END_TEST

/* an entry's address relative to o (NULL: the address itself) */
static intptr_t rel(const struct iovec *v, const char *o)
{
  return (intptr_t)((uintptr_t)v->iov_base - (uintptr_t)o);
}

START_TEST(iov)
{
  rng r = {seed ^ 3};
  for (int it = 0; it < test_scaled(2000); it++) {
    tcase c;
    case_new(&r, &c, NULL, 0);
    struct iovec all[4096];
    size_t n, bytes;
    ck_assert_int_eq(dli_tr_iov_len(c.count, c.rt.t, SIZE_MAX, &n), DL_OK);
    ck_assert_msg(n == c.nruns, "len " CASE_FMT, CASE_ARGS(&c));
    if (n > 4096) {
      tcase_free(&c);
      continue;
    }
    /* the whole list; NULL buffers (MPI_BOTTOM) give the offsets */
    ck_assert_int_eq(dli_tr_iov(it & 1 ? NULL : c.mem.origin, c.count, c.rt.t, 0,
                                SIZE_MAX, all, 4096, &n, &bytes), DL_OK);
    ck_assert_uint_eq(n, c.nruns);
    ck_assert_uint_eq(bytes, c.size);
    char *o = it & 1 ? NULL : c.mem.origin;
    for (size_t i = 0; i < n; i++)
      ck_assert_msg(rel(&all[i], o) == c.runs[i].disp &&
                        all[i].iov_len == (size_t)c.runs[i].len,
                    "entry %zu " CASE_FMT, i, CASE_ARGS(&c));
    /* from entry `skip` on, with a small list */
    size_t skip = (size_t)rng_range(&r, 0, (int64_t)n);
    size_t room = (size_t)rng_range(&r, 1, 3), k;
    struct iovec part[3];
    ck_assert_int_eq(dli_tr_iov_from(c.mem.origin, c.count, c.rt.t, skip, part, room,
                                     &k), DL_OK);
    ck_assert_uint_eq(k, n - skip < room ? n - skip : room);
    for (size_t i = 0; i < k; i++)
      ck_assert(rel(&part[i], c.mem.origin) == rel(&all[skip + i], o) &&
                part[i].iov_len == all[skip + i].iov_len);
    /* a byte range: its entries cut at both ends, and the length of a
       prefix's list */
    size_t first = (size_t)rng_range(&r, 0, (int64_t)c.size);
    size_t max = (size_t)rng_range(&r, 0, (int64_t)(c.size - first));
    ck_assert_int_eq(dli_tr_iov(c.mem.origin, c.count, c.rt.t, first, max, part, 3,
                                &k, &bytes), DL_OK);
    size_t at = 0, covered = 0;
    for (size_t i = 0; i < n; i++) {
      size_t lo = at, hi = at + all[i].iov_len;
      at = hi;
      if (hi <= first || lo >= first + max)
        continue;
      size_t a = lo > first ? lo : first, b = hi < first + max ? hi : first + max;
      if (covered == k)
        break;
      ck_assert_msg(rel(&part[covered], c.mem.origin) ==
                            rel(&all[i], o) + (intptr_t)(a - lo) &&
                        part[covered].iov_len == b - a,
                    "range [%zu, +%zu) entry %zu: %jd+%zu, want %jd+%zu; " CASE_FMT,
                    first, max, covered, (intmax_t)rel(&part[covered], c.mem.origin),
                    part[covered].iov_len, (intmax_t)(rel(&all[i], o) + (intptr_t)(a - lo)),
                    b - a, CASE_ARGS(&c));
      covered++;
    }
    ck_assert_uint_eq(covered, k);
    size_t len;
    ck_assert_int_eq(dli_tr_iov_len(c.count, c.rt.t, first, &len), DL_OK);
    size_t expect = 0;
    at = 0;
    for (size_t i = 0; i < n && at < first; i++, expect++)
      at += all[i].iov_len;
    ck_assert_uint_eq(len, expect);
    tcase_free(&c);
  }
}
END_TEST

static int by_disp(const void *a, const void *b)
{
  dl_aint x = ((const mrun *)a)->disp, y = ((const mrun *)b)->disp;
  return (x > y) - (x < y);
}

/* whether some byte lies in two runs (an accumulate onto such a layout is
   erroneous: the order of the updates is unspecified) */
static bool overlaps(const mrun *runs, size_t n)
{
  if (n < 2)
    return false;
  mrun *s = malloc((n + 1) * sizeof *s);
  memcpy(s, runs, n * sizeof *s);
  qsort(s, n, sizeof *s, by_disp);
  bool o = false;
  for (size_t i = 1; i < n && !o; i++)
    o = s[i - 1].disp + s[i - 1].len > s[i].disp;
  free(s);
  return o;
}

typedef struct sum_ctx {
  int k;           /* doubles per element */
  long calls;
} sum_ctx;

static void sum(const void *in, void *inout, dl_count n, void *ctx)
{
  /* the layouts place doubles at any byte, so they are read and written
     through memcpy */
  sum_ctx *s = ctx;
  const char *a = in;
  char *b = inout;
  for (dl_count i = 0; i < n * s->k; i++) {
    double x, y;
    memcpy(&x, a + 8 * i, 8);
    memcpy(&y, b + 8 * i, 8);
    y += x;
    memcpy(b + 8 * i, &y, 8);
  }
  s->calls++;
}

/* sums into random layouts of doubles, elements of 1 to 3 doubles (those
   of 2 and 3 split by the layout's blocks, so staged), against the model:
   the first nelem elements of the stream summed, the rest untouched */
/* the memory offset of each stream byte of [first, end), from the model */
static void model_places(const tcase *c, size_t first, size_t end, int64_t *at)
{
  size_t pos = 0;
  for (size_t i = 0; i < c->nruns; i++)
    for (dl_count j = 0; j < c->runs[i].len; j++, pos++)
      if (pos >= first && pos < end)
        at[pos - first] = c->runs[i].disp + j;
}

/* The cursor hands out the model's runs in stream order, clipped to a
   random byte range, one by one and a batch (of random size) at a time,
   mixed; past the stream's end it stops with an error, after every block
   there is. Counting the range's blocks says whether they rise: every
   byte's place past the one before (both answers seen) */
START_TEST(cursor)
{
  rng r = {seed ^ 9};
  int rises[2] = {0, 0};
  for (int it = 0; it < test_scaled(2000); it++) {
    tcase c;
    case_new(&r, &c, NULL, 0);
    if (c.size > ((size_t)1 << 20)) {
      tcase_free(&c);
      continue;
    }
    dl_segment *s;
    ck_assert_int_eq(dl_segment_create(NULL, c.count, c.rt.t, &s), DL_OK);
    size_t first = (size_t)rng_range(&r, 0, (int64_t)c.size);
    size_t end = (size_t)rng_range(&r, (int64_t)first, (int64_t)c.size);
    bool past = it % 7 == 0;           /* a range past the stream's end */
    size_t want_end = end;
    if (past)
      end = c.size + 1 + (size_t)rng_range(&r, 0, 100);
    size_t span = (past ? c.size : want_end) - first;
    int64_t *want = malloc((span + 1) * sizeof(int64_t));
    int64_t *got = malloc((span + 1) * sizeof(int64_t));
    model_places(&c, first, first + span, want);
    dli_tr_cursor cur;
    dli_tr_cursor_start(&cur, s, first, end);
    size_t pos = 0;
    for (bool more = true; more;) {
      if (rng_range(&r, 0, 1)) {
        int64_t off, len;
        more = dli_tr_cursor_next(&cur, &off, &len);
        for (int64_t j = 0; more && j < len; j++) {
          ck_assert_msg(pos < span, "past the range " CASE_FMT, CASE_ARGS(&c));
          got[pos++] = off + j;
        }
      } else {
        const int64_t *off, *len;
        size_t n, last;
        more = dli_tr_cursor_batch(&cur, (size_t)rng_range(&r, 0, 300), &off, &len, &n,
                                   &last);
        for (size_t k = 0; more && k < n; k++)
          for (int64_t j = 0; j < len[k]; j++) {
            ck_assert_msg(pos < span, "past the range " CASE_FMT, CASE_ARGS(&c));
            got[pos++] = off[k] + j;
          }
        ck_assert(!more || last == first + pos);
      }
    }
    ck_assert_msg(pos == span, "%zu of %zu bytes " CASE_FMT, pos, span, CASE_ARGS(&c));
    ck_assert_msg(span == 0 || !memcmp(want, got, span * sizeof(int64_t)),
                  "places differ " CASE_FMT, CASE_ARGS(&c));
    ck_assert_msg(past ? cur.rc != DL_OK : cur.rc == DL_OK, "rc %d " CASE_FMT, cur.rc,
                  CASE_ARGS(&c));
    if (!past) {
      bool rising = true, forward = !rising;
      for (size_t k = 1; k < span; k++)
        rising = rising && want[k] > want[k - 1];
      dli_tr_count_blocks(s, first, end, SIZE_MAX, NULL, NULL, &forward);
      ck_assert_msg(forward == rising, "forward %d, places rise %d " CASE_FMT, forward,
                    rising, CASE_ARGS(&c));
      rises[rising]++;
    }
    free(want);
    free(got);
    dl_segment_free(&s);
    tcase_free(&c);
  }
  ck_assert_msg(rises[0] > 0 && rises[1] > 0, "blocks fall in %d ranges, rise in %d",
                rises[0], rises[1]);
}
END_TEST

START_TEST(apply_sum)
{
  rng r = {seed ^ 4};
  const int dbl[] = {DL_DOUBLE};
  long direct = 0, calls = 0;
  for (int it = 0; it < test_scaled(1500); it++) {
    tcase c;
    case_new(&r, &c, dbl, 1);
    if (overlaps(c.runs, c.nruns)) {
      tcase_free(&c);
      continue;
    }
    int k = (int)rng_range(&r, 1, 3);
    dl_type *elem;
    ck_assert_int_eq(dl_type_contiguous(k, dl_builtin(DL_DOUBLE), &elem), DL_OK);
    dl_type_commit(elem);
    size_t esize = 8 * (size_t)k, whole = c.size / esize;
    dl_count nelem = rng_range(&r, 0, (int64_t)whole + 1);
    size_t bytes = (size_t)nelem * esize > c.size ? whole * esize : (size_t)nelem * esize;
    double *src = malloc((size_t)nelem * esize + 8);
    for (size_t i = 0; i < (size_t)nelem * (size_t)k; i++)
      src[i] = (double)rng_range(&r, -1000, 1000) / 8;
    /* doubles of the stream hold small integers, so sums are exact */
    double *want = malloc(c.size + 8);
    for (size_t i = 0; i < c.size / 8; i++)
      want[i] = (double)rng_range(&r, -1000, 1000);
    model_unpack(c.runs, c.nruns, c.mem.origin, (char *)want);
    for (size_t i = 0; i < bytes / 8; i++)
      want[i] += src[i];
    sum_ctx ctx = {k, 0};
    ck_assert_int_eq(dli_tr_apply(src, nelem, elem, c.mem.origin, c.count, c.rt.t,
                                  sum, &ctx), DL_OK);
    double *got = malloc(c.size + 8);
    model_pack(c.runs, c.nruns, c.mem.origin, (char *)got);
    ck_assert_msg(memcmp(want, got, c.size) == 0, "k %d nelem %lld " CASE_FMT, k,
                  (long long)nelem, CASE_ARGS(&c));
    if (k == 1 && bytes)
      direct++, calls += ctx.calls > 1;
    dl_type_free(&elem);
    free(src);
    free(want);
    free(got);
    tcase_free(&c);
  }
  /* single doubles went block by block (the operation called per run,
     not once over a staged copy) in some of the cases */
  ck_assert(direct > 0 && calls > 0);
}
END_TEST

typedef struct dint {
  double v;
  int i;
} dint;

static void maxloc(const void *in, void *inout, dl_count n, void *ctx)
{
  (void)ctx;
  const dint *a = in;
  dint *b = inout;
  for (dl_count j = 0; j < n; j++)
    if (a[j].v > b[j].v || (a[j].v == b[j].v && a[j].i < b[j].i))
      b[j] = a[j];
}

/* MPI_DOUBLE_INT's layout (12 bytes in a 16-byte extent): a vector of
   pairs, every third of 9 replaced where the source is larger */
START_TEST(apply_pairs)
{
  dl_type *pair, *v;
  dl_count bl[2] = {1, 1};
  dl_aint d[2] = {offsetof(dint, v), offsetof(dint, i)};
  dl_type *ty[2] = {dl_builtin(DL_DOUBLE), dl_builtin(DL_INT32)};
  ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &pair), DL_OK);
  dl_type_commit(pair);
  ck_assert_int_eq(dl_type_vector(3, 1, 3, pair, &v), DL_OK);
  dl_type_commit(v);
  dint dst[9], src[6], want[9];
  memset(dst, 0, sizeof dst);
  for (int j = 0; j < 9; j++)
    dst[j] = (dint){j, 100 + j};
  for (int j = 0; j < 6; j++)
    src[j] = (dint){j % 2 ? 100.0 : -1.0, j};
  memcpy(want, dst, sizeof dst);
  /* two copies of v: elements 0, 3, 6 then (extent 7 pairs on) 7, 10, 13:
     only the first 4 source elements fall in dst[0..9) */
  want[3] = src[1];
  want[7] = src[3];
  ck_assert_int_eq(dli_tr_apply(src, 4, pair, dst, 2, v, maxloc, NULL), DL_OK);
  for (int j = 0; j < 9; j++)
    ck_assert_msg(dst[j].v == want[j].v && dst[j].i == want[j].i, "pair %d", j);
  /* nothing to combine, an empty element type: nothing touched */
  ck_assert_int_eq(dli_tr_apply(src, 0, pair, dst, 1, v, maxloc, NULL), DL_OK);
  ck_assert_int_eq(dst[0].i, 100);
  dl_type_free(&v);
  dl_type_free(&pair);
}
END_TEST

/* errors come back, nothing is written */
START_TEST(errors)
{
  dl_type *v;
  ck_assert_int_eq(dl_type_vector(2, 1, 2, dl_builtin(DL_INT32), &v), DL_OK);
  int mem[4] = {1, 2, 3, 4};
  char out[16] = {0};
  size_t done = 7;
  /* not committed */
  ck_assert_int_eq(dli_tr_pack(mem, 1, v, 2, out, 4, &done), DL_ERR_NOT_COMMITTED);
  ck_assert_uint_eq(done, 0);
  ck_assert_int_eq(dli_tr_unpack(out, 4, mem, 1, v, 2, &done), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(mem[0], 1);
  dli_tr_fields f;
  ck_assert_int_eq(dli_tr_fields_of(v, &f), DL_ERR_NOT_COMMITTED);
  size_t n;
  ck_assert_int_eq(dli_tr_iov_len(1, v, 8, &n), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(dli_tr_apply(mem, 1, dl_builtin(DL_INT32), mem, 1, v, sum, NULL),
                   DL_ERR_NOT_COMMITTED);
  /* a NULL packed buffer for a nonempty range */
  dl_type_commit(v);
  ck_assert_int_eq(dli_tr_pack(mem, 1, v, 2, NULL, 4, &done), DL_ERR_ARG);
  ck_assert_int_eq(dli_tr_pack(NULL, -1, v, 0, out, 4, &done), DL_ERR_ARG);
  dl_type_free(&v);
  dli_tr_release();
}
END_TEST

int main(void)
{
  const char *s = getenv("DL_TEST_SEED");
  seed = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL);
  printf("random seed: %llu (set DL_TEST_SEED to repeat)\n", (unsigned long long)seed);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, fields);
  tcase_add_test(tc, chunks);
  tcase_add_test(tc, iov);
  tcase_add_test(tc, cursor);
  tcase_add_test(tc, apply_sum);
  tcase_add_test(tc, apply_pairs);
  tcase_add_test(tc, errors);
  return test_run("typerep", tc, false);
}
