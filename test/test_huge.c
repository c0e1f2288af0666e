/* Huge counts (MPI-4 large counts): types whose packed size is past 2^31,
 * 2^32 and far beyond, with their sizes and extents; packing them through
 * segments in chunks and seeking past 2^32 while memory stays small (the
 * data reuses a small buffer: stride 0, extent 0); every constructor, the
 * pack size and segment creation refusing sizes past 64 bits with
 * DL_ERR_OVERFLOW; and the per-type memory limit (DL_MAX_TYPE_BYTES). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "loop.h"
#include "runner.h"

#define BYTE dl_builtin(DL_BYTE)
#define INT32 dl_builtin(DL_INT32)
#define DOUBLE dl_builtin(DL_DOUBLE)

#define G2 ((dl_count)1 << 31)
#define G4 ((dl_count)1 << 32)

static void expect_bounds(const dl_type *t, dl_count size, dl_aint lb,
                          dl_aint ext, dl_aint tlb, dl_aint text)
{
  dl_count s;
  dl_aint a, b;
  ck_assert_int_eq(dl_type_size(t, &s), DL_OK);
  ck_assert_int_eq(s, size);
  ck_assert_int_eq(dl_type_extent(t, &a, &b), DL_OK);
  ck_assert_int_eq(a, lb);
  ck_assert_int_eq(b, ext);
  ck_assert_int_eq(dl_type_true_extent(t, &a, &b), DL_OK);
  ck_assert_int_eq(a, tlb);
  ck_assert_int_eq(b, text);
}

/* A huge type whose packed stream is periodic: byte p of the stream is
   pattern[p % period] (pattern: `period` bytes, from a small buffer). */
typedef struct periodic {
  dl_type *t;
  dl_count count;
  size_t size;
  const char *mem;            /* the buffer to pass */
  char pattern[64];
  size_t period;
} periodic;

/* packs [first, first + len) through s and checks it against the pattern */
static void check_chunk(const periodic *p, dl_segment *s, size_t first,
                        size_t len, char *out)
{
  size_t last = first + len, want = first + len < p->size ? first + len : p->size;
  ck_assert_int_eq(dl_segment_pack(s, first, &last, out), DL_OK);
  ck_assert_uint_eq(last, want);
  for (size_t i = 0; i < want - first; i++)
    if (out[i] != p->pattern[(first + i) % p->period])
      ck_abort_msg("byte %zu of the stream: %d, want %d", first + i, out[i],
                   p->pattern[(first + i) % p->period]);
}

/* chunks from the start, around 2^31 and 2^32, far past them (seeks), in
   sequence from there (no seek), and at the very end */
static void walk_chunks(const periodic *p)
{
  enum { CHUNK = 1 << 16 };
  char *out = malloc(CHUNK);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create((void *)p->mem, p->count, p->t, &s), DL_OK);
  ck_assert_uint_eq(dl_segment_size(s), p->size);
  size_t starts[] = {0, (size_t)G2 - 77, (size_t)G4 - 1000, (size_t)G4 + 12345,
                     p->size / 3 + 5, p->size - 3 * CHUNK - 11};
  for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++)
    for (size_t at = starts[k], n = 0; n < 4; n++, at += CHUNK)
      check_chunk(p, s, at, CHUNK, out);
  check_chunk(p, s, p->size - 5, CHUNK, out);        /* stops at the end */
  check_chunk(p, s, 3, 5, out);                      /* and back */
  /* an iovec of a far chunk names only the small buffer */
  struct iovec iov[8];
  size_t n, last = (size_t)G4 + 100 + 4096;
  ck_assert_int_eq(dl_segment_iov(s, (size_t)G4 + 100, &last, iov, 8, &n), DL_OK);
  for (size_t i = 0; i < n; i++)
    ck_assert((char *)iov[i].iov_base >= p->mem - 64 &&
              (char *)iov[i].iov_base + iov[i].iov_len <= p->mem + 64);
  dl_segment_free(&s);
  /* one-shot pack of the whole stream into a small buffer: what fits */
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(p->mem, p->count, p->t, out, CHUNK, &pos), DL_ERR_TRUNCATE);
  ck_assert_uint_eq(pos, CHUNK);
  for (size_t i = 0; i < CHUNK; i++)
    ck_assert_int_eq(out[i], p->pattern[i % p->period]);
  free(out);
}

static char small[64];

static void fill_small(void)
{
  for (int i = 0; i < 64; i++)
    small[i] = (char)(i * 7 + 1);
}

START_TEST(stride_zero_vector)
{
  /* 2^33 + 3 blocks of two int32 at stride 0: 2^36 + 24 bytes from 8 */
  fill_small();
  periodic p = {.count = 1, .mem = small, .period = 8};
  ck_assert_int_eq(dl_type_hvector(2 * G4 + 3, 2, 0, INT32, &p.t), DL_OK);
  dl_type_commit(p.t);
  expect_bounds(p.t, (2 * G4 + 3) * 8, 0, 8, 0, 8);
  p.size = (size_t)(2 * G4 + 3) * 8;
  memcpy(p.pattern, small, 8);
  walk_chunks(&p);
  /* unpack at a far position writes only the small buffer; the last
     block written wins */
  dl_segment *s;
  char mem[8] = {0}, in[24];
  for (int i = 0; i < 24; i++)
    in[i] = (char)(100 + i);
  ck_assert_int_eq(dl_segment_create(mem, 1, p.t, &s), DL_OK);
  size_t first = (size_t)3 * G4 + 4, last = first + 24;
  ck_assert_int_eq(dl_segment_unpack(s, first, &last, in), DL_OK);
  ck_assert_uint_eq(last, first + 24);
  /* bytes 4..7 of a block, two whole blocks, then bytes 0..3 */
  char want[8] = {120, 121, 122, 123, 116, 117, 118, 119};
  ck_assert(memcmp(mem, want, 8) == 0);
  dl_segment_free(&s);
  dl_type_free(&p.t);
}
END_TEST

START_TEST(zero_extent_copies)
{
  /* 2^34 copies of vector(3, 1, 2, int32) resized to extent 0: 12 bytes of
     every copy from the same 20 bytes */
  fill_small();
  dl_type *v, *r;
  periodic p = {.count = 1, .mem = small, .period = 12};
  ck_assert_int_eq(dl_type_vector(3, 1, 2, INT32, &v), DL_OK);
  ck_assert_int_eq(dl_type_resized(v, 0, 0, &r), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(4 * G4, r, &p.t), DL_OK);
  dl_type_commit(p.t);
  expect_bounds(p.t, 4 * G4 * 12, 0, 0, 0, 20);
  p.size = (size_t)(4 * G4 * 12);
  memcpy(p.pattern, small, 4);
  memcpy(p.pattern + 4, small + 8, 4);
  memcpy(p.pattern + 8, small + 16, 4);
  walk_chunks(&p);
  /* the same through count-time optimization: count 2^34 of r */
  dl_type_commit(r);
  periodic q = p;
  q.t = r;
  q.count = 4 * G4;
  walk_chunks(&q);
  dl_type_free(&p.t);
  dl_type_free(&r);
  dl_type_free(&v);
}
END_TEST

START_TEST(struct_with_huge_part)
{
  /* struct {2^32 doubles at stride 0 @0, int32 @8}: past 2^35 bytes; the
     stream is the 8 doubles' bytes over and over, then 4 bytes */
  fill_small();
  dl_type *h, *t;
  ck_assert_int_eq(dl_type_hvector(G4, 1, 0, DOUBLE, &h), DL_OK);
  dl_count bl[2] = {1, 1};
  dl_aint d[2] = {0, 8};
  dl_type *ty[2] = {h, INT32};
  ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &t), DL_OK);
  dl_type_commit(t);
  dl_count size = G4 * 8 + 4;
  expect_bounds(t, size, 0, 16, 0, 12);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(small, 1, t, &s), DL_OK);
  char out[32];
  size_t first = (size_t)size - 20, last = (size_t)size;
  ck_assert_int_eq(dl_segment_pack(s, first, &last, out), DL_OK);
  ck_assert_uint_eq(last, (size_t)size);
  ck_assert(memcmp(out, small, 8) == 0 && memcmp(out + 8, small, 8) == 0 &&
            memcmp(out + 16, small + 8, 4) == 0);
  first = (size_t)G4 + 3;
  last = first + 8;
  ck_assert_int_eq(dl_segment_pack(s, first, &last, out), DL_OK);
  for (int i = 0; i < 8; i++)
    ck_assert_int_eq(out[i], small[(3 + i) % 8]);
  dl_segment_free(&s);
  /* the serialized form of a huge type is small and round-trips */
  size_t n;
  ck_assert_int_eq(dl_type_serialize(t, NULL, 0, &n), DL_ERR_TRUNCATE);
  ck_assert_uint_lt(n, 256);
  char *buf = malloc(n);
  ck_assert_int_eq(dl_type_serialize(t, buf, n, &n), DL_OK);
  dl_type *c;
  ck_assert_int_eq(dl_type_deserialize(buf, n, &c), DL_OK);
  expect_bounds(c, size, 0, 16, 0, 12);
  free(buf);
  dl_type_free(&c);
  dl_type_free(&t);
  dl_type_free(&h);
}
END_TEST

START_TEST(large_count_sizes)
{
  /* past 2^31 and 2^32: sizes, extents and pack sizes are exact */
  dl_type *t;
  ck_assert_int_eq(dl_type_contiguous(G2 + 5, BYTE, &t), DL_OK);
  expect_bounds(t, G2 + 5, 0, G2 + 5, 0, G2 + 5);
  size_t sz;
  ck_assert_int_eq(dl_pack_size(3, t, &sz), DL_OK);
  ck_assert_uint_eq(sz, 3 * (size_t)(G2 + 5));
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_vector(G4 + 1, 1, 2, DOUBLE, &t), DL_OK);
  expect_bounds(t, (G4 + 1) * 8, 0, G4 * 16 + 8, 0, G4 * 16 + 8);
  dl_type_free(&t);
  dl_count bl[2] = {G4, 3};
  dl_aint d[2] = {-16, G4 * 4};
  ck_assert_int_eq(dl_type_hindexed(2, bl, d, INT32, &t), DL_OK);
  expect_bounds(t, (G4 + 3) * 4, -16, G4 * 4 + 12 + 16, -16, G4 * 4 + 12 + 16);
  dl_type_free(&t);
  /* a subarray of a 2^20 x 2^20 x 8 array of doubles */
  dl_count sizes[3] = {1 << 20, 1 << 20, 8}, subs[3] = {1 << 19, 1 << 20, 4},
           starts[3] = {1 << 18, 0, 2};
  ck_assert_int_eq(dl_type_subarray(3, sizes, subs, starts, DL_ORDER_C, DOUBLE, &t),
                   DL_OK);
  dl_count all = ((dl_count)1 << 43) * 8;
  dl_aint row = (dl_aint)8 * 8 * (1 << 20);
  expect_bounds(t, ((dl_count)1 << 41) * 8, 0, all,
                (dl_aint)(1 << 18) * row + 16, ((dl_aint)1 << 19) * row - 32);
  dl_type_free(&t);
  /* darray over a dimension of 2^63 - 1 bytes: block over 2 processes,
     cyclic(2^30) over 4 (block and cycle lengths near 64 bits) */
  dl_count gmax[1] = {INT64_MAX};
  int blk[1] = {DL_DISTRIBUTE_BLOCK}, cyc[1] = {DL_DISTRIBUTE_CYCLIC};
  int dflt[1] = {DL_DISTRIBUTE_DFLT_DARG}, d30[1] = {1 << 30}, two[1] = {2}, four[1] = {4};
  ck_assert_int_eq(dl_type_darray(2, 1, 1, gmax, blk, dflt, two, DL_ORDER_C, BYTE, &t),
                   DL_OK);
  expect_bounds(t, ((dl_count)1 << 62) - 1, 0, INT64_MAX, (dl_aint)1 << 62,
                ((dl_aint)1 << 62) - 1);
  dl_type_free(&t);
  dl_count total = 0, size;
  for (int r = 0; r < 4; r++) {
    ck_assert_int_eq(dl_type_darray(4, r, 1, gmax, cyc, d30, four, DL_ORDER_C, BYTE, &t),
                     DL_OK);
    dl_type_size(t, &size);
    ck_assert_int_eq(size, r < 3 ? (dl_count)1 << 61 : ((dl_count)1 << 61) - 1);
    total += size;
    dl_type_free(&t);
  }
  ck_assert_int_eq(total, INT64_MAX);
}
END_TEST

START_TEST(overflow_refused)
{
  dl_type *t = NULL;
  dl_count big = (dl_count)1 << 62;
  dl_count bl1[1] = {big}, bl3[3] = {big, big, big}, d3[3] = {0, 0, 0};
  dl_aint hd3[3] = {0, 0, 0};
  /* sizes past 2^63 - 1 */
  ck_assert_int_eq(dl_type_contiguous(big, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_vector(big, 1, 1, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_hvector(big / 2, 8, 0, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_indexed(1, bl1, d3, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_hindexed(3, bl3, hd3, BYTE, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_indexed_block(3, big, d3, BYTE, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_hindexed_block(2, big, hd3, INT32, &t), DL_ERR_OVERFLOW);
  dl_type *ty[3] = {BYTE, BYTE, INT32};
  ck_assert_int_eq(dl_type_struct(3, bl3, hd3, ty, &t), DL_ERR_OVERFLOW);
  /* extents past 64 bits, with sizes that fit */
  ck_assert_int_eq(dl_type_vector(3, 1, big, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_hvector(4, 1, INT64_MAX / 2, BYTE, &t), DL_ERR_OVERFLOW);
  dl_count far[2] = {0, INT64_MAX / 2};
  ck_assert_int_eq(dl_type_indexed(2, (dl_count[]){1, 1}, far, INT32, &t),
                   DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_resized(INT32, INT64_MAX, 1, &t), DL_ERR_OVERFLOW);
  dl_count sizes[2] = {big, 8}, subs[2] = {1, 1}, starts[2] = {0, 0};
  ck_assert_int_eq(dl_type_subarray(2, sizes, subs, starts, DL_ORDER_C, INT32, &t),
                   DL_ERR_OVERFLOW);
  dl_count g[2] = {big, big};
  int dist[2] = {DL_DISTRIBUTE_NONE, DL_DISTRIBUTE_NONE};
  int darg[2] = {DL_DISTRIBUTE_DFLT_DARG, DL_DISTRIBUTE_DFLT_DARG}, ps[2] = {1, 1};
  ck_assert_int_eq(dl_type_darray(1, 0, 2, g, dist, darg, ps, DL_ORDER_C, INT32, &t),
                   DL_ERR_OVERFLOW);
  ck_assert_ptr_null(t);
  /* counts of a valid type whose total overflows */
  dl_type *v, *z;
  ck_assert_int_eq(dl_type_contiguous(G4, INT32, &v), DL_OK);
  dl_type_commit(v);
  size_t sz;
  dl_segment *s = (dl_segment *)1;
  ck_assert_int_eq(dl_pack_size(big, v, &sz), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_segment_create(NULL, big, v, &s), DL_ERR_OVERFLOW);
  ck_assert_ptr_null(s);
  ck_assert_int_eq(dl_segment_create_bounded(NULL, big, v, 0, 1, &s), DL_ERR_OVERFLOW);
  char buf[8];
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(buf, big, v, buf, 8, &pos), DL_ERR_OVERFLOW);
  ck_assert_uint_eq(pos, 0);
  ck_assert_int_eq(dl_unpack(buf, 8, &pos, buf, big, v), DL_ERR_OVERFLOW);
  /* a size that fits whose copies' extent does not: the segment refuses */
  ck_assert_int_eq(dl_type_resized(BYTE, 0, big, &z), DL_OK);
  dl_type_commit(z);
  ck_assert_int_eq(dl_pack_size(4, z, &sz), DL_OK);
  ck_assert_int_eq(dl_segment_create(NULL, 4, z, &s), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_pack(buf, 4, z, buf, 8, &pos), DL_ERR_OVERFLOW);
  dl_type_free(&z);
  dl_type_free(&v);
}
END_TEST

/* A gather whose offsets pass 32 bits keeps 8-byte ones only (offs32 is
   for those that all fit) and still moves the right bytes, over a sparse
   mapping of 4 GiB of which it touches a few pages; one whose offsets
   fit, just, has the 4-byte copy. */
START_TEST(wide_offsets)
{
  size_t span = ((size_t)1 << 32) + 3 * 4096;
  char *region = mmap(NULL, span, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ck_assert_msg(region != MAP_FAILED, "a sparse mapping of 4 GiB");
  char *base = region + 4096;
  dl_aint wide[5] = {0, 24, (dl_aint)INT32_MAX + 1, 8, G4 + 64},
          fit[4] = {-4096, 16, (dl_aint)INT32_MAX - 7, 32};
  struct { const dl_aint *off; int n; bool has32; } cases[2] = {{wide, 5, false},
                                                                {fit, 4, true}};
  for (int c = 0; c < 2; c++) {
    dl_type *t;
    ck_assert_int_eq(dl_type_hindexed_block(cases[c].n, 1, cases[c].off, DOUBLE, &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    ck_assert(t->loop->leaf && t->loop->kind == DLI_BLOCKINDEXED);
    ck_assert_int_eq(t->loop->offs32 != NULL, cases[c].has32);
    double in[5], out[5], back[5];
    for (int i = 0; i < cases[c].n; i++) {
      in[i] = 1.5 + i + 10 * c;
      memcpy(base + cases[c].off[i], &in[i], 8);
    }
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(base, 1, t, out, sizeof(out), &pos), DL_OK);
    ck_assert_uint_eq(pos, 8 * (size_t)cases[c].n);
    ck_assert(!memcmp(in, out, pos));
    for (int i = 0; i < cases[c].n; i++)
      out[i] = -in[i];
    pos = 0;
    ck_assert_int_eq(dl_unpack(out, sizeof(out), &pos, base, 1, t), DL_OK);
    for (int i = 0; i < cases[c].n; i++) {
      memcpy(&back[i], base + cases[c].off[i], 8);
      ck_assert(back[i] == -in[i]);
    }
    dl_type_free(&t);
  }
  munmap(region, span);
}
END_TEST

START_TEST(type_memory_limit)
{
  /* main() set DL_MAX_TYPE_BYTES to 1 MiB. A struct of 32 blocks that
     alternate a type and its resized twin holds 32 copies of its tree;
     nesting that multiplies the copy 32 times a level. The build stops at
     the limit, at once, instead of taking exponential time and memory. */
  dl_type *t = DOUBLE;
  int rc = DL_OK, level = 0;
  while (level < 10) {
    dl_type *r, *n;
    ck_assert_int_eq(dl_type_resized(t, 0, 64, &r), DL_OK);
    dl_count bl[32];
    dl_aint d[32];
    dl_type *ty[32];
    for (int i = 0; i < 32; i++) {
      bl[i] = 1;
      d[i] = (dl_aint)i * 64 * (i % 3 + 1);
      ty[i] = i % 2 ? r : t;
    }
    clock_t c0 = clock();
    rc = dl_type_struct(32, bl, d, ty, &n);
    ck_assert_msg((double)(clock() - c0) / CLOCKS_PER_SEC < 2.0, "level %d: slow", level);
    dl_type_free(&r);
    if (rc != DL_OK)
      break;
    if (t != DOUBLE)
      dl_type_free(&t);
    t = n;
    level++;
  }
  ck_assert_int_eq(rc, DL_ERR_NOMEM);
  /* NOMEM, not ARG: a cap on memory, raised as memory is (the variable) */
  ck_assert_msg(strstr(dl_last_error_detail(), "DL_MAX_TYPE_BYTES") &&
                strstr(dl_last_error_detail(), "1048576 bytes"),
                "detail: %s", dl_last_error_detail());
  ck_assert_int_ge(level, 2);              /* 32 * 32 copies still fit */
  ck_assert_int_le(t->loop_bytes, 1 << 20);
  dl_type_free(&t);
  /* one long block list past the limit: refused, nothing allocated */
  enum { N = 1 << 17 };
  dl_aint *offs = malloc(N * sizeof(dl_aint));
  for (int i = 0; i < N; i++)
    offs[i] = (dl_aint)i * i;                /* no pattern to fold */
  ck_assert_int_eq(dl_type_hindexed_block(N, 1, offs, INT32, &t), DL_ERR_NOMEM);
  ck_assert_int_eq(dl_type_hindexed_block(N / 16, 1, offs, INT32, &t), DL_OK);
  dl_type_free(&t);
  free(offs);
}
END_TEST

int main(void)
{
  /* before any type is built: the limit is read once */
  setenv("DL_MAX_TYPE_BYTES", "1048576", 1);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, stride_zero_vector);
  tcase_add_test(tc, zero_extent_copies);
  tcase_add_test(tc, struct_with_huge_part);
  tcase_add_test(tc, large_count_sizes);
  tcase_add_test(tc, overflow_refused);
  tcase_add_test(tc, type_memory_limit);
  tcase_add_test(tc, wide_offsets);
  return test_run("huge", tc, false);
}
