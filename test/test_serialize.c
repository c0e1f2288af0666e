/* Serialization: random types survive a round trip byte for byte (the
 * packed stream, the bounds, the printed tree and the serialized bytes
 * themselves), the format is pinned by a golden example, and hostile input
 * of every kind is refused with DL_ERR_CORRUPT: every truncation, every bit
 * flip (or, where a flip still describes a valid type, a type that is safe
 * and canonical), hostile counts, depth bombs, data outside the declared
 * bounds, wrong magic and version, trailing bytes. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "loop.h"
#include "serial.h"
#include "buffers.h"
#include "model.h"
#include "randtype.h"
#include "runner.h"

#define INT32 dl_builtin(DL_INT32)
#define DOUBLE dl_builtin(DL_DOUBLE)
#define BYTE dl_builtin(DL_BYTE)

static uint64_t seed;

/* the serialized bytes of t, checked against the size query */
static uint8_t *ser(const dl_type *t, size_t *n)
{
  ck_assert_int_eq(dl_type_serialize(t, NULL, 0, n), DL_ERR_TRUNCATE);
  uint8_t *b = malloc(*n);
  size_t again = 0;
  ck_assert_int_eq(dl_type_serialize(t, b, *n, &again), DL_OK);
  ck_assert_uint_eq(again, *n);
  return b;
}

static char *print_text(const dl_type *t)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert_int_eq(dl_type_print(f, t), DL_OK);
  fclose(f);
  return buf;
}

static void expect_same_bounds(const dl_type *a, const dl_type *b)
{
  dl_count s1, s2;
  dl_aint l1, e1, l2, e2;
  dl_type_size(a, &s1);
  dl_type_size(b, &s2);
  ck_assert_int_eq(s1, s2);
  dl_type_extent(a, &l1, &e1);
  dl_type_extent(b, &l2, &e2);
  ck_assert(l1 == l2 && e1 == e2);
  dl_type_true_extent(a, &l1, &e1);
  dl_type_true_extent(b, &l2, &e2);
  ck_assert(l1 == l2 && e1 == e2);
}

/* count copies of `orig` and `copy` pack identically from the same memory,
   one-shot and through a segment in random chunks, and unpack identically */
static void expect_same_packing(rng *r, const rtype *rt, const dl_type *copy,
                                dl_count count)
{
  mrun *runs;
  size_t nruns;
  ck_assert_int_eq(model_bytemap(rt->m, count, &runs, &nruns), 0);
  size_t size = runs_bytes(runs, nruns);
  tbuf mem;
  tbuf_for(runs, nruns, &mem, rng_next(r));
  char *a = malloc(size + 1), *b = malloc(size + 1);
  size_t pa = 0, pb = 0;
  ck_assert_int_eq(dl_pack(mem.origin, count, rt->t, a, size, &pa), DL_OK);
  ck_assert_int_eq(dl_pack(mem.origin, count, copy, b, size, &pb), DL_OK);
  ck_assert_msg(pa == size && pb == size && memcmp(a, b, size) == 0,
                "seed %llu: one-shot pack differs: %s", (unsigned long long)seed,
                rt->desc);
  memset(b, 0, size);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(mem.origin, count, copy, &s), DL_OK);
  for (size_t at = 0; at < size;) {
    size_t step = (size_t)rng_range(r, 1, 64), last = at + step;
    ck_assert_int_eq(dl_segment_pack(s, at, &last, b + at), DL_OK);
    at = last;
  }
  dl_segment_free(&s);
  ck_assert_msg(memcmp(a, b, size) == 0, "seed %llu: chunked pack differs: %s",
                (unsigned long long)seed, rt->desc);
  /* unpack of the packed stream into two equal buffers */
  tbuf m2 = mem;
  m2.mem = malloc(mem.len + 1);
  m2.origin = m2.mem + (mem.origin - mem.mem);
  tbuf_fill(&mem, 7);
  tbuf_fill(&m2, 7);
  pa = pb = 0;
  ck_assert_int_eq(dl_unpack(a, size, &pa, mem.origin, count, rt->t), DL_OK);
  ck_assert_int_eq(dl_unpack(a, size, &pb, m2.origin, count, copy), DL_OK);
  ck_assert(memcmp(mem.mem, m2.mem, mem.len) == 0);
  free(m2.mem);
  tbuf_free(&mem);
  free(a);
  free(b);
  free(runs);
}

START_TEST(roundtrip_random)
{
  rng r = {seed ^ 11};
  int n = test_scaled(2500);
  for (int it = 0; it < n; it++) {
    rtype rt;
    ck_assert_int_eq(rtype_gen(&r, (int)rng_range(&r, 1, 6), &rt, NULL), 0);
    size_t len;
    uint8_t *bytes = ser(rt.t, &len);
    /* one byte short: refused, nothing written */
    uint8_t *shortb = malloc(len);
    memset(shortb, 0xa5, len);
    size_t need = 0;
    ck_assert_int_eq(dl_type_serialize(rt.t, shortb, len - 1, &need), DL_ERR_TRUNCATE);
    ck_assert_uint_eq(need, len);
    for (size_t i = 0; i < len; i++)
      ck_assert_int_eq(shortb[i], 0xa5);
    free(shortb);
    dl_type *copy;
    uint8_t *input = malloc(len);
    memcpy(input, bytes, len);
    ck_assert_msg(dl_type_deserialize(input, len, &copy) == DL_OK,
                  "seed %llu: %s", (unsigned long long)seed, rt.desc);
    free(input);                     /* the type owns its memory */
    expect_same_bounds(rt.t, copy);
    size_t len2;
    uint8_t *again = ser(copy, &len2);
    ck_assert_msg(len2 == len && memcmp(again, bytes, len) == 0,
                  "seed %llu: serialized again differs: %s",
                  (unsigned long long)seed, rt.desc);
    char *p1 = print_text(rt.t), *p2 = print_text(copy);
    ck_assert_str_eq(p1, p2);
    expect_same_packing(&r, &rt, copy, rng_range(&r, 0, 3));
    free(p1);
    free(p2);
    free(again);
    free(bytes);
    dl_type_free(&copy);
    rtype_free(&rt);
  }
}
END_TEST

START_TEST(roundtrip_builtins)
{
  for (int k = 0; k < DL_NUM_BUILTINS; k++) {
    dl_type *b = dl_builtin((dl_builtin_t)k), *c, *d;
    size_t len, len2;
    uint8_t *bytes = ser(b, &len);
    ck_assert_uint_eq(len, DLI_SER_HEADER + DLI_SER_NODE_MIN);
    ck_assert_int_eq(dl_type_deserialize(bytes, len, &c), DL_OK);
    expect_same_bounds(b, c);
    ck_assert_int_eq(c->basic, k);
    uint8_t *again = ser(c, &len2);
    ck_assert(len2 == len && memcmp(bytes, again, len) == 0);
    /* a dup keeps its predefined identity through the trip */
    ck_assert_int_eq(dl_type_dup(b, &d), DL_OK);
    free(again);
    again = ser(d, &len2);
    ck_assert(len2 == len && memcmp(bytes, again, len) == 0);
    dl_type_free(&c);
    dl_type_free(&d);
    free(again);
    free(bytes);
  }
  /* a type without data */
  dl_type *z, *c;
  ck_assert_int_eq(dl_type_contiguous(0, INT32, &z), DL_OK);
  dl_type_commit(z);
  size_t len;
  uint8_t *bytes = ser(z, &len);
  ck_assert_uint_eq(len, DLI_SER_HEADER);
  ck_assert_int_eq(dl_type_deserialize(bytes, len, &c), DL_OK);
  expect_same_bounds(z, c);
  dl_type_free(&c);
  dl_type_free(&z);
  free(bytes);
}
END_TEST

/* ---- an encoder for hand-made (and hostile) input ---- */

typedef struct enc {
  uint8_t *p;
  size_t n, cap;
} enc;

static void e_put(enc *e, uint64_t v, int bytes)
{
  if (e->n + (size_t)bytes > e->cap) {
    e->cap = (e->n + (size_t)bytes) * 2;
    e->p = realloc(e->p, e->cap);
  }
  for (int i = 0; i < bytes; i++, v >>= 8)
    e->p[e->n++] = (uint8_t)v;
}

static void e64(enc *e, int64_t v)
{
  e_put(e, (uint64_t)v, 8);
}

/* the header; the length is patched by e_done */
static void e_header(enc *e, dl_count size, dl_aint lb, dl_aint ub, dl_aint tlb,
                     dl_aint tub)
{
  e_put(e, 0x59544c44, 4);
  e_put(e, 1, 2);
  e_put(e, 0, 2);
  e_put(e, 0, 8);
  e64(e, size);
  e64(e, lb);
  e64(e, ub);
  e64(e, tlb);
  e64(e, tub);
  e_put(e, 1, 1);          /* align */
  e_put(e, 0xff, 1);       /* basic: none */
}

static void e_done(enc *e)
{
  uint64_t v = e->n;
  for (int i = 0; i < 8; i++, v >>= 8)
    e->p[8 + i] = (uint8_t)v;
}

static void e_node(enc *e, int kind, int leaf, int unit, dl_count count,
                   dl_aint offset)
{
  e_put(e, (uint64_t)kind, 1);
  e_put(e, (uint64_t)leaf, 1);
  e_put(e, (uint64_t)unit, 1);
  e64(e, count);
  e64(e, offset);
}

static int decode(const enc *e)
{
  dl_type *t = (dl_type *)1;
  int rc = dl_type_deserialize(e->p, e->n, &t);
  if (rc == DL_OK) {
    size_t len;
    uint8_t *back = ser(t, &len);
    ck_assert(len == e->n && memcmp(back, e->p, len) == 0);   /* canonical */
    free(back);
    dl_type_free(&t);
  } else {
    ck_assert_ptr_null(t);
  }
  return rc;
}

/* a leaf contig of n bytes at offset 0 as a whole type */
static void e_bytes(enc *e, dl_count n)
{
  e_header(e, n, 0, n, 0, n);
  e_node(e, DLI_CONTIG, 1, 1, n, 0);
  e_done(e);
}

START_TEST(golden)
{
  /* vector(4, 2, 3, int32): the format spelled out in
     doc/serialization.md, byte for byte */
  static const uint8_t want[] = {
    0x44, 0x4c, 0x54, 0x59,  1, 0,  0, 0,  93, 0, 0, 0, 0, 0, 0, 0,
    32, 0, 0, 0, 0, 0, 0, 0,     /* size */
    0, 0, 0, 0, 0, 0, 0, 0,      /* lb */
    44, 0, 0, 0, 0, 0, 0, 0,     /* ub */
    0, 0, 0, 0, 0, 0, 0, 0,      /* true_lb */
    44, 0, 0, 0, 0, 0, 0, 0,     /* true_ub */
    4, 0xff,                     /* align, basic */
    1, 1, 4,                     /* vector, leaf, unit */
    4, 0, 0, 0, 0, 0, 0, 0,      /* count */
    0, 0, 0, 0, 0, 0, 0, 0,      /* offset */
    8, 0, 0, 0, 0, 0, 0, 0,      /* blocklen (bytes) */
    12, 0, 0, 0, 0, 0, 0, 0,     /* stride */
  };
  dl_type *v, *c;
  ck_assert_int_eq(dl_type_vector(4, 2, 3, INT32, &v), DL_OK);
  size_t len;
  ck_assert_int_eq(dl_type_serialize(v, NULL, 0, &len), DL_ERR_NOT_COMMITTED);
  dl_type_commit(v);
  uint8_t *bytes = ser(v, &len);
  ck_assert_uint_eq(len, sizeof(want));
  ck_assert(memcmp(bytes, want, len) == 0);
  ck_assert_int_eq(dl_type_deserialize(want, sizeof(want), &c), DL_OK);
  expect_same_bounds(v, c);
  dl_type_free(&c);
  free(bytes);
  dl_type_free(&v);
}
END_TEST

START_TEST(bad_arguments)
{
  dl_type *t = (dl_type *)1;
  uint8_t b[64];
  size_t n;
  ck_assert_int_eq(dl_type_serialize(NULL, b, 64, &n), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_serialize(INT32, b, 64, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_serialize(INT32, NULL, 64, &n), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_deserialize(b, 64, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_deserialize(NULL, 64, &t), DL_ERR_ARG);
  ck_assert_ptr_null(t);
  t = (dl_type *)1;
  ck_assert_int_eq(dl_type_deserialize(NULL, 0, &t), DL_ERR_CORRUPT);
  ck_assert_ptr_null(t);
}
END_TEST

/* a few types with every loop kind, for the exhaustive corruption tests */
static dl_type *sample(int which)
{
  dl_type *t = NULL, *a, *b;
  switch (which) {
  case 0: {           /* struct of a vector and doubles: STRUCT, VECTOR, CONTIG */
    ck_assert_int_eq(dl_type_vector(4, 1, 3, INT32, &a), DL_OK);
    dl_count bl[2] = {1, 2};
    dl_aint d[2] = {0, 64};
    dl_type *ty[2] = {a, DOUBLE};
    ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &t), DL_OK);
    dl_type_free(&a);
    break;
  }
  case 1: {           /* indexed over a non-dense child: INDEXED, BLOCKINDEXED */
    dl_aint o[3] = {0, 20, 52};
    ck_assert_int_eq(dl_type_hindexed_block(3, 2, o, INT32, &a), DL_OK);
    ck_assert_int_eq(dl_type_resized(a, -8, 80, &b), DL_OK);
    dl_count bl[3] = {1, 3, 2}, dd[3] = {0, 2, 7};
    ck_assert_int_eq(dl_type_indexed(3, bl, dd, b, &t), DL_OK);
    dl_type_free(&a);
    dl_type_free(&b);
    break;
  }
  default: {          /* a leaf INDEXED under a vector, negative offsets */
    dl_count bl[3] = {1, 3, 2};
    dl_aint o[3] = {-12, 0, 40};
    ck_assert_int_eq(dl_type_hindexed(3, bl, o, INT32, &a), DL_OK);
    ck_assert_int_eq(dl_type_hvector(3, 1, -100, a, &t), DL_OK);
    dl_type_free(&a);
  }
  }
  dl_type_commit(t);
  return t;
}

START_TEST(every_truncation)
{
  for (int w = 0; w < 3; w++) {
    dl_type *t = sample(w);
    size_t len;
    uint8_t *bytes = ser(t, &len);
    for (size_t k = 0; k < len; k++) {
      /* a copy of exactly k bytes, so reading past it is a memory error */
      uint8_t *part = malloc(k + 1);
      memcpy(part, bytes, k);
      dl_type *c = (dl_type *)1;
      ck_assert_int_eq(dl_type_deserialize(part, k, &c), DL_ERR_CORRUPT);
      ck_assert_ptr_null(c);
      free(part);
    }
    /* and one trailing byte */
    uint8_t *more = malloc(len + 1);
    memcpy(more, bytes, len);
    more[len] = 0;
    dl_type *c = (dl_type *)1;
    ck_assert_int_eq(dl_type_deserialize(more, len + 1, &c), DL_ERR_CORRUPT);
    ck_assert_ptr_null(c);
    more[8]++;                        /* even when the length field agrees */
    ck_assert_int_eq(dl_type_deserialize(more, len + 1, &c), DL_ERR_CORRUPT);
    free(more);
    free(bytes);
    dl_type_free(&t);
  }
}
END_TEST

/* a type that was accepted must be safe: everything it touches lies inside
   its declared true extent (a buffer of exactly that size, so a stray
   access is a memory error under Valgrind or ASan) */
static void expect_safe(const dl_type *t)
{
  dl_count size;
  dl_aint tlb, text;
  dl_type_size(t, &size);
  dl_type_true_extent(t, &tlb, &text);
  if (size > (1 << 20) || text > (1 << 20))
    return;
  char *mem = malloc((size_t)text + 1), *out = malloc((size_t)size + 1);
  memset(mem, 1, (size_t)text + 1);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create_bounded(mem - tlb, 1, t, tlb, tlb + text, &s), DL_OK);
  size_t last = (size_t)size;
  ck_assert_int_eq(dl_segment_pack(s, 0, &last, out), DL_OK);
  ck_assert_uint_eq(last, (size_t)size);
  dl_segment_free(&s);
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(mem - tlb, 1, t, out, (size_t)size, &pos), DL_OK);
  pos = 0;
  ck_assert_int_eq(dl_unpack(out, (size_t)size, &pos, mem - tlb, 1, t), DL_OK);
  free(mem);
  free(out);
}

START_TEST(every_bit_flip)
{
  int accepted = 0, refused = 0;
  for (int w = 0; w < 3; w++) {
    dl_type *t = sample(w);
    size_t len;
    uint8_t *bytes = ser(t, &len);
    uint8_t *x = malloc(len);
    for (size_t k = 0; k < len; k++)
      for (int bit = 0; bit < 8; bit++) {
        memcpy(x, bytes, len);
        x[k] ^= (uint8_t)(1u << bit);
        dl_type *c = (dl_type *)1;
        int rc = dl_type_deserialize(x, len, &c);
        if (rc != DL_OK) {
          ck_assert_int_eq(rc, DL_ERR_CORRUPT);
          ck_assert_ptr_null(c);
          refused++;
          continue;
        }
        accepted++;
        size_t len2;
        uint8_t *back = ser(c, &len2);
        ck_assert(len2 == len && memcmp(back, x, len) == 0);
        free(back);
        expect_safe(c);
        dl_type_free(&c);
      }
    free(x);
    free(bytes);
    dl_type_free(&t);
  }
  /* most flips break something; some (an offset inside the bounds, the
     lb) describe another valid type */
  ck_assert_int_gt(refused, accepted);
  ck_assert_int_gt(accepted, 0);
}
END_TEST

START_TEST(header_fields)
{
  enc e = {0};
  e_bytes(&e, 8);
  ck_assert_int_eq(decode(&e), DL_OK);
  uint8_t keep[DLI_SER_HEADER];
  memcpy(keep, e.p, sizeof(keep));
  struct { size_t at; uint8_t v; } bad[] = {
    {0, 0x45}, {3, 0x58},          /* magic */
    {4, 0}, {4, 2}, {5, 1},        /* version */
    {6, 2}, {7, 0x80},             /* unknown flags */
    {8, 0}, {8, 78}, {15, 1},      /* length */
    {23, 0x80},                    /* size negative */
    {56, 0}, {56, 3}, {56, 255},   /* align */
    {57, 20}, {57, 0x80},          /* basic out of range */
    {57, DL_INT32},                /* basic: 8 bytes are not an int32 */
    {40, 1},                       /* true_lb past the data */
    {48, 7},                       /* true_ub before its end */
    {16, 9},                       /* size differs from the tree's */
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    memcpy(e.p, keep, sizeof(keep));
    e.p[bad[i].at] = bad[i].v;
    ck_assert_msg(decode(&e) == DL_ERR_CORRUPT, "byte %zu = %d", bad[i].at,
                  bad[i].v);
  }
  /* ub - lb overflows */
  enc f = {0};
  e_header(&f, 8, INT64_MIN, INT64_MAX, 0, 8);
  e_node(&f, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&f);
  ck_assert_int_eq(decode(&f), DL_ERR_CORRUPT);
  /* true bounds reversed */
  f.n = 0;
  e_header(&f, 8, 0, 8, 8, 0);
  e_node(&f, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&f);
  ck_assert_int_eq(decode(&f), DL_ERR_CORRUPT);
  /* a type without data: no tree may follow, and no true bounds */
  f.n = 0;
  e_header(&f, 0, 0, 4, 0, 0);
  e_done(&f);
  ck_assert_int_eq(decode(&f), DL_OK);
  e_node(&f, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&f);
  ck_assert_int_eq(decode(&f), DL_ERR_CORRUPT);
  f.n = 0;
  e_header(&f, 0, 0, 4, 0, 4);
  e_done(&f);
  ck_assert_int_eq(decode(&f), DL_ERR_CORRUPT);
  /* sticky flag and a wider declared true extent are fine */
  f.n = 0;
  e_header(&f, 8, -4, 100, -4, 12);
  e_node(&f, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&f);
  f.p[6] = 1;
  ck_assert_int_eq(decode(&f), DL_OK);
  free(e.p);
  free(f.p);
}
END_TEST

START_TEST(node_fields)
{
  enc e = {0};
  /* kind, leaf flag and unit */
  int combos[][3] = {{5, 1, 1}, {255, 1, 1}, {DLI_CONTIG, 2, 1}, {DLI_CONTIG, 1, 0},
                     {DLI_STRUCT, 1, 1}};
  for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
    e.n = 0;
    e_header(&e, 8, 0, 8, 0, 8);
    e_node(&e, combos[i][0], combos[i][1], combos[i][2], 8, 0);
    e_done(&e);
    ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  }
  /* a non-leaf must have unit 0 */
  e.n = 0;
  e_header(&e, 8, 0, 8, 0, 8);
  e_node(&e, DLI_CONTIG, 0, 1, 1, 0);
  e64(&e, 8);
  e_node(&e, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  e.p[DLI_SER_HEADER + 2] = 0;
  ck_assert_int_eq(decode(&e), DL_OK);
  /* zero and negative counts and block lengths */
  dl_count counts[] = {0, -1, INT64_MIN};
  for (size_t i = 0; i < 3; i++) {
    e.n = 0;
    e_header(&e, 8, 0, 8, 0, 8);
    e_node(&e, DLI_CONTIG, 1, 1, counts[i], 0);
    e_done(&e);
    ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
    e.n = 0;
    e_header(&e, 8, 0, 8, 0, 8);
    e_node(&e, DLI_VECTOR, 1, 1, 2, 0);
    e64(&e, counts[i]);
    e64(&e, 4);
    e_done(&e);
    ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
    e.n = 0;
    e_header(&e, 8, 0, 8, 0, 8);
    e_node(&e, DLI_INDEXED, 1, 1, 2, 0);
    e64(&e, 8);
    e64(&e, counts[i]);       /* second block length */
    e64(&e, 0);
    e64(&e, 8);
    e_done(&e);
    ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  }
  /* the same vector with valid fields */
  e.n = 0;
  e_header(&e, 8, 0, 12, 0, 12);
  e_node(&e, DLI_VECTOR, 1, 1, 2, 0);
  e64(&e, 4);
  e64(&e, 8);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_OK);
  free(e.p);
}
END_TEST

START_TEST(hostile_counts)
{
  enc e = {0};
  dl_count huge = (dl_count)1 << 62;
  /* arrays a count announces must be in the input: refused at once, with
     nothing allocated for them (Valgrind and ASan would see the attempt) */
  int kinds[] = {DLI_BLOCKINDEXED, DLI_INDEXED, DLI_STRUCT};
  for (int k = 0; k < 3; k++)
    for (int leaf = 0; leaf < 2; leaf++) {
      e.n = 0;
      e_header(&e, 8, 0, 8, 0, 8);
      e_node(&e, kinds[k], leaf, leaf, huge, 0);
      if (kinds[k] == DLI_BLOCKINDEXED)
        e64(&e, 1);
      for (int i = 0; i < 64; i++)
        e64(&e, 1);
      e_done(&e);
      ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
    }
  /* a struct whose arrays are present but whose children cannot be */
  e.n = 0;
  e_header(&e, 8, 0, 8, 0, 8);
  e_node(&e, DLI_STRUCT, 0, 0, 3, 0);
  for (int i = 0; i < 9; i++)
    e64(&e, 1);
  e_node(&e, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  /* a huge count without arrays is a valid, huge type ... */
  e.n = 0;
  e_header(&e, huge, 0, huge, 0, huge);
  e_node(&e, DLI_CONTIG, 1, 1, huge, 0);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_OK);
  /* ... until its size or extent overflows */
  e.n = 0;
  e_header(&e, 0, 0, 0, 0, 0);
  e_node(&e, DLI_CONTIG, 0, 0, huge, 0);
  e64(&e, 8);
  e_node(&e, DLI_CONTIG, 1, 1, 8, 0);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  e.n = 0;
  e_header(&e, 16, 0, 0, 0, 0);
  e_node(&e, DLI_VECTOR, 1, 1, 2, 0);
  e64(&e, 8);
  e64(&e, INT64_MAX);          /* the second block ends past 2^63 */
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  /* prefix sums that overflow */
  e.n = 0;
  e_header(&e, 0, 0, 0, 0, 0);
  e_node(&e, DLI_INDEXED, 1, 1, 2, 0);
  e64(&e, INT64_MAX);
  e64(&e, INT64_MAX);
  e64(&e, 0);
  e64(&e, 0);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  free(e.p);
}
END_TEST

/* a chain of `depth` loops: contig(1) over contig(1) ... over 8 bytes */
static void e_chain(enc *e, int depth)
{
  e->n = 0;
  e_header(e, 8, 0, 8, 0, 8);
  for (int i = 1; i < depth; i++) {
    e_node(e, DLI_CONTIG, 0, 0, 1, 0);
    e64(e, 8);
  }
  e_node(e, DLI_CONTIG, 1, 1, 8, 0);
  e_done(e);
}

START_TEST(depth_bombs)
{
  enc e = {0};
  e_chain(&e, DLI_MAX_DEPTH);
  ck_assert_int_eq(decode(&e), DL_OK);
  e_chain(&e, DLI_MAX_DEPTH + 1);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  e_chain(&e, 200000);         /* no recursion to this depth: no stack overflow */
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  /* a struct of structs: wide, within the depth, fine */
  e.n = 0;
  e_header(&e, 64, 0, 64, 0, 64);
  e_node(&e, DLI_STRUCT, 0, 0, 2, 0);
  e64(&e, 1); e64(&e, 1);      /* lens */
  e64(&e, 0); e64(&e, 32);     /* offs */
  e64(&e, 32); e64(&e, 32);    /* exts */
  for (int i = 0; i < 2; i++) {
    e_node(&e, DLI_STRUCT, 0, 0, 2, 0);
    e64(&e, 1); e64(&e, 1);
    e64(&e, 0); e64(&e, 16);
    e64(&e, 16); e64(&e, 16);
    e_node(&e, DLI_CONTIG, 1, 1, 16, 0);
    e_node(&e, DLI_VECTOR, 1, 8, 2, 0);
    e64(&e, 8);
    e64(&e, 8);
  }
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_OK);
  /* constructors refuse trees deeper than the format can carry */
  dl_type *t = INT32, *n;
  int rc = DL_OK, levels = 0;
  while (rc == DL_OK && levels < 1000) {
    /* a struct of the last level and a byte: one loop more each time */
    dl_count bl[2] = {1, 1};
    dl_aint d[2] = {0, 1000};
    dl_type *ty[2] = {t, BYTE};
    rc = dl_type_struct(2, bl, d, ty, &n);
    if (rc == DL_OK) {
      if (t != INT32)
        dl_type_free(&t);
      t = n;
      levels++;
    }
  }
  ck_assert_int_eq(rc, DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(levels, DLI_MAX_DEPTH);
  ck_assert_msg(strstr(dl_last_error_detail(), "nesting deeper than 64 levels"),
                "detail: %s", dl_last_error_detail());
  dl_type_commit(t);
  size_t len;
  uint8_t *bytes = ser(t, &len);
  dl_type *c;
  ck_assert_int_eq(dl_type_deserialize(bytes, len, &c), DL_OK);
  ck_assert_int_eq(c->loop->depth, DLI_MAX_DEPTH);
  dl_type_free(&c);
  dl_type_free(&t);
  free(bytes);
  free(e.p);
}
END_TEST

START_TEST(offsets_and_extent)
{
  enc e = {0};
  /* blocks of 4 bytes at 0 and 8: true extent [0, 12) */
  dl_aint offs[][2] = {{0, 8}, {0, 0}, {8, 0}, {-1, 8}, {0, 9}, {INT64_MAX - 2, 0}};
  int want[] = {DL_OK, DL_OK, DL_OK, DL_ERR_CORRUPT, DL_ERR_CORRUPT, DL_ERR_CORRUPT};
  for (int i = 0; i < 6; i++) {
    e.n = 0;
    e_header(&e, 8, 0, 12, 0, 12);
    e_node(&e, DLI_BLOCKINDEXED, 1, 1, 2, 0);
    e64(&e, 4);
    e64(&e, offs[i][0]);
    e64(&e, offs[i][1]);
    e_done(&e);
    /* overlapping blocks are a valid typemap (MPI allows them for packing);
       a block outside the declared true extent is not */
    ck_assert_msg(decode(&e) == want[i], "offsets %lld %lld",
                  (long long)offs[i][0], (long long)offs[i][1]);
  }
  /* the loop's own offset and a child's offset count too */
  e.n = 0;
  e_header(&e, 8, 0, 12, 0, 12);
  e_node(&e, DLI_CONTIG, 0, 0, 2, 5);
  e64(&e, 4);
  e_node(&e, DLI_CONTIG, 1, 1, 4, 0);
  e_done(&e);
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);     /* [5, 13) */
  e.p[DLI_SER_HEADER + 11] = 4;                      /* [4, 12) */
  ck_assert_int_eq(decode(&e), DL_OK);
  e.p[DLI_SER_HEADER + 11] = 0;                      /* [0, 8) */
  ck_assert_int_eq(decode(&e), DL_OK);
  e.p[e.n - 8] = 5;                                  /* the child at 5: [5, 13) */
  ck_assert_int_eq(decode(&e), DL_ERR_CORRUPT);
  free(e.p);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, roundtrip_random);
  tcase_add_test(tc, roundtrip_builtins);
  tcase_add_test(tc, golden);
  tcase_add_test(tc, bad_arguments);
  tcase_add_test(tc, every_truncation);
  tcase_add_test(tc, every_bit_flip);
  tcase_add_test(tc, header_fields);
  tcase_add_test(tc, node_fields);
  tcase_add_test(tc, hostile_counts);
  tcase_add_test(tc, depth_bombs);
  tcase_add_test(tc, offsets_and_extent);
  return test_run("serialize", tc, false);
}
