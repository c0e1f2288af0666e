/* Types and dataloops: sizes and bounds on hand-worked cases, the shape of
 * every build-time optimization, every error path, and the byte map of
 * thousands of random nested types against the typemap model. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "loop.h"
#include "loopwalk.h"
#include "model.h"
#include "randtype.h"
#include "runner.h"

static uint64_t seed;   /* main's, so the test uses the seed printed */

#define INT32 dl_builtin(DL_INT32)
#define FLOAT dl_builtin(DL_FLOAT)
#define DOUBLE dl_builtin(DL_DOUBLE)
#define CHAR dl_builtin(DL_CHAR)
#define DL_OK_(call) ck_assert_int_eq((call), DL_OK)

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

/* the printed tree, without the header line */
static char *tree_text(const dl_type *t)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(dl_type_print(f, t), DL_OK);
  fclose(f);
  char *nl = strchr(buf, '\n');
  memmove(buf, nl + 1, strlen(nl + 1) + 1);
  return buf;
}

static void expect_tree(const dl_type *t, const char *want)
{
  char *got = tree_text(t);
  ck_assert_msg(strcmp(got, want) == 0, "tree:\n%s\nwanted:\n%s", got, want);
  free(got);
}

START_TEST(builtins)
{
  static const struct { dl_builtin_t id; dl_count size; } b[] = {
    {DL_BYTE, 1}, {DL_CHAR, 1}, {DL_INT8, 1}, {DL_UINT8, 1}, {DL_INT16, 2},
    {DL_UINT16, 2}, {DL_INT32, 4}, {DL_UINT32, 4}, {DL_INT64, 8},
    {DL_UINT64, 8}, {DL_FLOAT, 4}, {DL_DOUBLE, 8},
    {DL_LONG_DOUBLE, sizeof(long double)}, {DL_C_FLOAT_COMPLEX, 8},
    {DL_C_DOUBLE_COMPLEX, 16}, {DL_PACKED, 1}, {DL_LONG, sizeof(long)},
    {DL_UNSIGNED_LONG, sizeof(long)}, {DL_C_BOOL, sizeof(_Bool)},
    {DL_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex)},
  };
  ck_assert_int_eq(sizeof(b) / sizeof(b[0]), DL_NUM_BUILTINS);
  for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
    dl_type *t = dl_builtin(b[i].id);
    ck_assert_ptr_nonnull(t);
    expect_bounds(t, b[i].size, 0, b[i].size, 0, b[i].size);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    dl_type *keep = t;
    ck_assert_int_eq(dl_type_free(&t), DL_ERR_ARG);   /* refused, unchanged */
    ck_assert_ptr_eq(t, keep);
  }
  ck_assert_ptr_null(dl_builtin((dl_builtin_t)-1));
  ck_assert_ptr_null(dl_builtin((dl_builtin_t)DL_NUM_BUILTINS));
}
END_TEST

START_TEST(hand_bounds)
{
  dl_type *t, *r, *z, *s, *u;
  ck_assert_int_eq(dl_type_contiguous(3, INT32, &t), DL_OK);
  expect_bounds(t, 12, 0, 12, 0, 12);
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_vector(3, 2, 4, INT32, &t), DL_OK);
  expect_bounds(t, 24, 0, 40, 0, 40);
  dl_type_free(&t);
  /* negative stride: blocks at 0, -8, -16 */
  ck_assert_int_eq(dl_type_vector(3, 1, -2, INT32, &t), DL_OK);
  expect_bounds(t, 12, -16, 20, -16, 20);
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_hvector(2, 1, 3, INT32, &t), DL_OK);
  expect_bounds(t, 8, 0, 7, 0, 7);
  dl_type_free(&t);
  {
    dl_count bl[2] = {2, 1}, d[2] = {3, 0};
    ck_assert_int_eq(dl_type_indexed(2, bl, d, DOUBLE, &t), DL_OK);
    expect_bounds(t, 24, 0, 40, 0, 40);
    dl_type_free(&t);
  }
  {  /* overlapping blocks count twice in size */
    dl_count bl[2] = {2, 2};
    dl_aint d[2] = {0, 4};
    ck_assert_int_eq(dl_type_hindexed(2, bl, d, INT32, &t), DL_OK);
    expect_bounds(t, 16, 0, 12, 0, 12);
    dl_type_free(&t);
  }
  {  /* zero-length blocks contribute nothing, not even bounds */
    dl_count bl[3] = {0, 2, 0}, d[3] = {-5, 1, 9};
    ck_assert_int_eq(dl_type_indexed(3, bl, d, INT32, &t), DL_OK);
    expect_bounds(t, 8, 4, 8, 4, 8);
    dl_type_free(&t);
  }
  {  /* struct padding to the largest alignment */
    dl_count bl[2] = {1, 1};
    dl_aint d[2] = {0, 8};
    dl_type *ty[2] = {DOUBLE, CHAR};
    ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &t), DL_OK);
    expect_bounds(t, 9, 0, 16, 0, 9);
    ck_assert_int_eq(dl_type_contiguous(2, t, &u), DL_OK);
    expect_bounds(u, 18, 0, 32, 0, 25);
    dl_type_free(&u);
    dl_type_free(&t);
    dl_type *ty2[2] = {CHAR, dl_builtin(DL_C_DOUBLE_COMPLEX)};
    d[1] = 4;
    ck_assert_int_eq(dl_type_struct(2, bl, d, ty2, &t), DL_OK);
    expect_bounds(t, 17, 0, 24, 0, 20);
    dl_type_free(&t);
  }
  ck_assert_int_eq(dl_type_resized(INT32, -4, 100, &r), DL_OK);
  expect_bounds(r, 4, -4, 100, 0, 4);
  ck_assert_int_eq(dl_type_vector(2, 2, 3, r, &t), DL_OK);
  expect_bounds(t, 16, -4, 500, 0, 404);
  dl_type_free(&t);
  {  /* MPI's sticky markers: resized bounds win over a char past them */
    dl_count bl[2] = {1, 1};
    dl_aint d[2] = {0, 200};
    dl_type *ty[2] = {r, CHAR};
    ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &t), DL_OK);
    expect_bounds(t, 5, -4, 100, 0, 201);
    dl_type_free(&t);
  }
  /* negative extent */
  ck_assert_int_eq(dl_type_resized(INT32, 0, -8, &u), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(3, u, &t), DL_OK);
  expect_bounds(t, 12, -16, 8, -16, 20);
  dl_type_free(&t);
  dl_type_free(&u);
  /* zero counts, and zero-size types that still carry markers */
  ck_assert_int_eq(dl_type_contiguous(0, r, &z), DL_OK);
  expect_bounds(z, 0, 0, 0, 0, 0);
  ck_assert_int_eq(dl_type_resized(z, 0, 10, &s), DL_OK);
  expect_bounds(s, 0, 0, 10, 0, 0);
  ck_assert_int_eq(dl_type_contiguous(3, s, &t), DL_OK);
  expect_bounds(t, 0, 0, 30, 0, 0);
  dl_type_free(&t);
  dl_type_free(&s);
  dl_type_free(&z);
  dl_type_free(&r);
}
END_TEST

/* The Flash I/O type of the paper's Figure 1: 80 blocks of 16^3 cells (8^3
   interior, 4 guard cells per side) of 24 doubles, written by variable. */
static dl_type *flash_type(void)
{
  dl_type *x, *y, *z, *blocks, *vars;
  ck_assert_int_eq(dl_type_hvector(8, 1, 192, DOUBLE, &x), DL_OK);
  ck_assert_int_eq(dl_type_hvector(8, 1, 16 * 192, x, &y), DL_OK);
  ck_assert_int_eq(dl_type_hvector(8, 1, 16 * 16 * 192, y, &z), DL_OK);
  ck_assert_int_eq(dl_type_hvector(80, 1, 16 * 16 * 16 * 192, z, &blocks), DL_OK);
  ck_assert_int_eq(dl_type_hvector(24, 1, 8, blocks, &vars), DL_OK);
  dl_type_free(&x);
  dl_type_free(&y);
  dl_type_free(&z);
  dl_type_free(&blocks);
  return vars;
}

START_TEST(flash)
{
  dl_type *t = flash_type();
  expect_bounds(t, 7864320, 0, 62495232, 0, 62495232);
  expect_tree(t,
    "vector ct = 24; blk = 1; str = 8; el_sz = 327680; el_ext = 62495048\n"
    "  vector ct = 80; blk = 1; str = 786432; el_sz = 4096; el_ext = 366920\n"
    "    vector ct = 8; blk = 1; str = 49152; el_sz = 512; el_ext = 22856\n"
    "      vector ct = 8; blk = 1; str = 3072; el_sz = 64; el_ext = 1352\n"
    "        vector ct = 8; blk = 1; str = 192; el_sz = 8; el_ext = 8\n");
  dl_type_free(&t);
}
END_TEST

static dl_type *face(int which, dl_type *el)
{
  dl_count sizes[3] = {256, 256, 256}, subs[3] = {256, 256, 256};
  dl_count starts[3] = {0, 0, 0};
  subs[which] = 1;     /* [z][y][x]: 0 = XY face, 1 = XZ, 2 = YZ */
  starts[which] = 7;
  dl_type *t;
  ck_assert_int_eq(dl_type_subarray(3, sizes, subs, starts, DL_ORDER_C, el, &t),
                   DL_OK);
  return t;
}

START_TEST(faces)
{
  dl_type *xy = face(0, FLOAT), *xz = face(1, FLOAT), *yz = face(2, FLOAT);
  dl_aint cube = 256 * 256 * 256 * 4;
  expect_bounds(xy, 262144, 0, cube, 7 * 262144, 262144);
  expect_bounds(xz, 262144, 0, cube, 7 * 1024, 255 * 262144 + 1024);
  expect_bounds(yz, 262144, 0, cube, 28, 65535 * 1024 + 4);
  expect_tree(xy, "contig ct = 65536; off = 1835008; el_sz = 4; el_ext = 4\n");
  expect_tree(xz, "vector ct = 256; blk = 256; str = 262144; off = 7168; "
                  "el_sz = 4; el_ext = 4\n");
  expect_tree(yz, "vector ct = 65536; blk = 1; str = 1024; off = 28; "
                  "el_sz = 4; el_ext = 4\n");
  dl_type_free(&xy);
  dl_type_free(&xz);
  dl_type_free(&yz);
}
END_TEST

START_TEST(opt_contig_merge)
{
  dl_type *c6, *v;
  ck_assert_int_eq(dl_type_contiguous(6, FLOAT, &c6), DL_OK);
  ck_assert_int_eq(dl_type_vector(10, 1, 8, c6, &v), DL_OK);
  const dli_loop *l = v->loop;
  ck_assert(l->leaf && l->kind == DLI_VECTOR);
  ck_assert_int_eq(l->blocklen, 24);     /* bytes */
  ck_assert_int_eq(l->stride, 192);
  ck_assert_int_eq(l->depth, 1);
  dl_type_free(&v);
  dl_type_free(&c6);
}
END_TEST

START_TEST(opt_vector_to_contig)
{
  dl_type *v;
  ck_assert_int_eq(dl_type_vector(5, 3, 3, INT32, &v), DL_OK);
  ck_assert(v->loop->leaf && v->loop->kind == DLI_CONTIG);
  ck_assert_int_eq(v->loop->count, 60);
  dl_type_free(&v);
  ck_assert_int_eq(dl_type_hvector(5, 2, 8, INT32, &v), DL_OK);
  ck_assert(v->loop->leaf && v->loop->kind == DLI_CONTIG);
  dl_type_free(&v);
}
END_TEST

START_TEST(opt_indexed)
{
  dl_type *t;
  {  /* touching blocks coalesce into one run */
    dl_count bl[3] = {2, 3, 1}, d[3] = {0, 2, 5};
    ck_assert_int_eq(dl_type_indexed(3, bl, d, INT32, &t), DL_OK);
    ck_assert(t->loop->leaf && t->loop->kind == DLI_CONTIG);
    ck_assert_int_eq(t->loop->count, 24);
    dl_type_free(&t);
  }
  {  /* equal lengths: blockindexed */
    dl_count bl[3] = {2, 2, 2}, d[3] = {0, 5, 13};
    ck_assert_int_eq(dl_type_indexed(3, bl, d, INT32, &t), DL_OK);
    ck_assert(t->loop->leaf && t->loop->kind == DLI_BLOCKINDEXED);
    ck_assert_int_eq(t->loop->blocklen, 8);
    dl_type_free(&t);
  }
  {  /* equal lengths, even spacing: vector */
    dl_count d[4] = {1, 4, 7, 10};
    ck_assert_int_eq(dl_type_indexed_block(4, 2, d, INT32, &t), DL_OK);
    ck_assert(t->loop->leaf && t->loop->kind == DLI_VECTOR);
    ck_assert_int_eq(t->loop->stride, 12);
    ck_assert_int_eq(t->loop->offset, 4);
    dl_type_free(&t);
  }
  {  /* unequal lengths stay indexed, with byte lengths at the leaf */
    dl_count bl[3] = {1, 3, 2}, d[3] = {0, 5, 13};
    ck_assert_int_eq(dl_type_indexed(3, bl, d, DOUBLE, &t), DL_OK);
    ck_assert(t->loop->leaf && t->loop->kind == DLI_INDEXED);
    ck_assert_int_eq(t->loop->pre[3], 48);
    ck_assert_int_eq(t->loop->min_blk, 8);
    ck_assert_int_eq(t->loop->max_blk, 24);
    dl_type_free(&t);
  }
}
END_TEST

/* n sorted distinct picks of 0..np-1, adjacent ones about as often as
   chance makes them (and one pair at least), or (pairs) every pick
   followed by its neighbour */
static dl_count *picks(rng *r, dl_count n, dl_count np, bool pairs)
{
  dl_count *d = malloc(sizeof(dl_count) * (size_t)n);
  char *used = calloc((size_t)np, 1);
  dl_count first = 0;
  if (!pairs) {                 /* one pair of neighbours at least */
    dl_count v = rng_range(r, 0, np - 2);
    used[v] = used[v + 1] = 1;
    first = 2;
  }
  for (dl_count i = first; i < n; i += pairs ? 2 : 1) {
    dl_count v;
    do
      v = pairs ? 3 * rng_range(r, 0, np / 3 - 1) : rng_range(r, 0, np - 1);
    while (used[v]);
    used[v] = 1;
    if (pairs)
      used[v + 1] = 1;
  }
  dl_count k = 0;
  for (dl_count v = 0; v < np && k < n; v++)
    if (used[v])
      d[k++] = v;
  free(used);
  return d;
}

/* the bytes of elements d[i] * bl .. of size el_size, gathered by hand */
static void gather_ref(const char *mem, const dl_count *d, dl_count n, dl_count bl,
                       size_t el, char *out)
{
  for (dl_count i = 0; i < n; i++, out += (size_t)bl * el)
    memcpy(out, mem + (size_t)d[i] * el, (size_t)bl * el);
}

/* A gather whose sorted picks touch now and then stays one length of
   block (BLOCKINDEXED: the gather kernels) instead of being merged into
   blocks of mixed lengths; where merging saves a quarter of the blocks or
   more, or blocks are long, they merge. Packed whole, unpacked, and
   packed in random ranges against a hand loop. */
START_TEST(opt_gather_apart)
{
  rng r = {seed};
  for (int k = 0; k < 6; k++) {
    bool pairs = k == 4;
    dl_count n = k == 5 ? 100 : 250, np = 4000, bl = k % 2 ? 3 : 1;
    if (k == 5)
      bl = 16;                          /* 128-byte blocks: merged */
    dl_count *d = picks(&r, n, np, pairs);
    dl_type *t;
    for (dl_count i = 0; i < n; i++)
      d[i] *= bl;                       /* pick i's bl doubles */
    ck_assert_int_eq(dl_type_indexed_block(n, bl, d, DOUBLE, &t), DL_OK);
    ck_assert_int_eq(dl_type_commit(t), DL_OK);
    bool touch = false;
    for (dl_count i = 1; i < n; i++)
      touch = touch || d[i] == d[i - 1] + bl;
    ck_assert(touch);
    if (k < 4) {
      ck_assert_msg(t->loop->leaf && t->loop->kind == DLI_BLOCKINDEXED, "case %d", k);
      ck_assert_int_eq(t->loop->count, n);
      ck_assert_int_eq(t->loop->blocklen, bl * 8);
    } else {
      ck_assert_msg(t->loop->leaf && t->loop->count < n, "case %d", k);
    }
    size_t bytes = (size_t)n * (size_t)bl * 8, memlen = (size_t)np * (size_t)bl * 8;
    char *mem = malloc(memlen), *want = malloc(bytes), *got = malloc(bytes),
         *back = calloc(memlen, 1), *wback = calloc(memlen, 1);
    for (size_t i = 0; i < memlen; i++)
      mem[i] = (char)rng_range(&r, 0, 255);
    gather_ref(mem, d, n, bl, 8, want);
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(mem, 1, t, got, bytes, &pos), DL_OK);
    ck_assert(pos == bytes && memcmp(got, want, bytes) == 0);
    pos = 0;
    ck_assert_int_eq(dl_unpack(want, bytes, &pos, back, 1, t), DL_OK);
    for (dl_count i = 0; i < n; i++)
      memcpy(wback + (size_t)d[i] * 8, want + (size_t)i * (size_t)bl * 8, (size_t)bl * 8);
    ck_assert(memcmp(back, wback, memlen) == 0);
    dl_segment *sg;
    ck_assert_int_eq(dl_segment_create(mem, 1, t, &sg), DL_OK);
    memset(got, 0, bytes);
    for (size_t at = 0; at < bytes;) {
      size_t last = at + (size_t)rng_range(&r, 1, 97);
      if (last > bytes)
        last = bytes;
      ck_assert_int_eq(dl_segment_pack(sg, at, &last, got + at), DL_OK);
      ck_assert(last > at);
      at = last;
    }
    ck_assert(memcmp(got, want, bytes) == 0);
    dl_segment_free(&sg);
    free(mem);
    free(want);
    free(got);
    free(back);
    free(wback);
    free(d);
    dl_type_free(&t);
  }
}
END_TEST

/* the pattern of the paper's Figure 2: picks among 10 positions, some
   adjacent, repeated; n blocks in all */
static dl_type *periodic(dl_count n, dl_type *el)
{
  static const dl_count pick[5] = {0, 1, 3, 6, 7};
  dl_count *bl = malloc(sizeof(dl_count) * (size_t)n);
  dl_count *d = malloc(sizeof(dl_count) * (size_t)n);
  for (dl_count i = 0; i < n; i++) {
    bl[i] = 1;
    d[i] = pick[i % 5] + 10 * (i / 5);
  }
  dl_type *t;
  ck_assert_int_eq(dl_type_indexed(n, bl, d, el, &t), DL_OK);
  free(bl);
  free(d);
  return t;
}

START_TEST(opt_periodic_fold)
{
  dl_type *t = periodic(100000, FLOAT);    /* 20000 periods exactly */
  const dli_loop *l = t->loop;
  ck_assert(!l->leaf && l->kind == DLI_CONTIG && l->fuse);
  ck_assert_int_eq(l->count, 20000);
  ck_assert_int_eq(l->el_extent, 40);
  ck_assert(l->child->leaf && l->child->kind == DLI_INDEXED);
  ck_assert_int_eq(l->child->count, 3);   /* {0,1} {3} {6,7} coalesced */
  ck_assert_uint_lt(t->loop_bytes, 1024); /* not O(blocks) */
  expect_bounds(t, 400000, 0, 799992, 0, 799992);
  dl_type_free(&t);
  t = periodic(100002, DOUBLE);            /* a remainder of two picks */
  l = t->loop;
  ck_assert(l->kind == DLI_STRUCT && l->count == 2);
  ck_assert(l->children[0]->kind == DLI_CONTIG && l->children[0]->fuse);
  ck_assert_int_eq(l->children[1]->kind, DLI_CONTIG);  /* {0,1}: one run */
  ck_assert_uint_lt(t->loop_bytes, 2048);
  dl_type_free(&t);
}
END_TEST

START_TEST(opt_struct_to_bytes)
{
  /* the paper's Struct Array element: packed, so one contiguous run */
  dl_type *c64, *t;
  ck_assert_int_eq(dl_type_contiguous(64, CHAR, &c64), DL_OK);
  dl_count bl[6] = {1, 1, 1, 1, 1, 1};
  dl_aint d[6] = {0, 4, 8, 72, 80, 88};
  dl_type *ty[6] = {INT32, INT32, c64, DOUBLE, DOUBLE, FLOAT};
  ck_assert_int_eq(dl_type_struct(6, bl, d, ty, &t), DL_OK);
  ck_assert(t->loop->leaf && t->loop->kind == DLI_CONTIG);
  ck_assert_int_eq(t->loop->count, 92);
  expect_bounds(t, 92, 0, 96, 0, 92);      /* padded to 8 */
  dl_type *packed;
  ck_assert_int_eq(dl_type_resized(t, 0, 92, &packed), DL_OK);
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_contiguous(65536, packed, &t), DL_OK);
  ck_assert(t->loop->leaf && t->loop->kind == DLI_CONTIG);
  ck_assert_int_eq(t->loop->count, 92 * 65536);
  dl_type_free(&t);
  dl_type_free(&packed);
  dl_type_free(&c64);
}
END_TEST

START_TEST(opt_struct_same_type)
{
  dl_type *v, *t;
  ck_assert_int_eq(dl_type_vector(4, 1, 3, INT32, &v), DL_OK);
  dl_count bl[3] = {1, 1, 1};
  dl_aint d[3] = {0, 100, 200};
  dl_type *ty[3] = {v, v, v};
  ck_assert_int_eq(dl_type_struct(3, bl, d, ty, &t), DL_OK);
  /* blocks of one type, evenly spaced: a vector of vectors, no struct */
  ck_assert(!t->loop->leaf && t->loop->kind == DLI_VECTOR);
  ck_assert_int_eq(t->loop->stride, 100);
  dl_type_free(&t);
  dl_type_free(&v);
}
END_TEST

START_TEST(opt_collapse_and_zero)
{
  dl_type *v, *c, *z, *t;
  ck_assert_int_eq(dl_type_vector(4, 1, 3, INT32, &v), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(1, v, &c), DL_OK);
  ck_assert_int_eq(c->loop->kind, DLI_VECTOR);   /* count 1 adds no loop */
  ck_assert_int_eq(c->loop->depth, v->loop->depth);
  ck_assert_int_eq(dl_type_contiguous(0, DOUBLE, &z), DL_OK);
  dl_count bl[2] = {1, 5};
  dl_aint d[2] = {0, 4};
  dl_type *ty[2] = {INT32, z};
  ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &t), DL_OK);
  ck_assert(t->loop->leaf && t->loop->kind == DLI_CONTIG);  /* z vanished */
  ck_assert_int_eq(t->loop->count, 4);
  dl_type_free(&t);
  dl_type_free(&z);
  dl_type_free(&c);
  dl_type_free(&v);
}
END_TEST

START_TEST(regular_is_small)
{
  /* a regular type's tree is O(depth), whatever its counts */
  dl_type *a, *b;
  ck_assert_int_eq(dl_type_vector(1000000, 3, 7, DOUBLE, &a), DL_OK);
  ck_assert_int_eq(dl_type_hvector(1000, 2, 1 << 26, a, &b), DL_OK);
  ck_assert_int_eq(b->loop->depth, 2);
  ck_assert_uint_le(b->loop_bytes, 2 * sizeof(dli_loop) + 16);
  dl_type_free(&b);
  dl_type_free(&a);
}
END_TEST

START_TEST(refcounts)
{
  dl_type *v, *w, *d;
  ck_assert_int_eq(dl_type_vector(4, 1, 3, INT32, &v), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(2, v, &w), DL_OK);
  ck_assert_int_eq(dl_type_dup(w, &d), DL_OK);
  ck_assert_int_eq(dl_type_free(&v), DL_OK);
  ck_assert_ptr_null(v);
  ck_assert_int_eq(dl_type_commit(w), DL_OK);
  ck_assert_int_eq(dl_type_commit(w), DL_OK);    /* twice is fine */
  expect_bounds(w, 32, 0, 80, 0, 80);           /* valid after v is gone */
  expect_bounds(d, 32, 0, 80, 0, 80);
  /* a retained type outlives its creator's reference */
  dl_type *keep = w;
  ck_assert_int_eq(dl_type_retain(w), DL_OK);
  ck_assert_int_eq(dl_type_free(&w), DL_OK);
  expect_bounds(keep, 32, 0, 80, 0, 80);
  ck_assert_int_eq(dl_type_free(&keep), DL_OK);
  ck_assert_int_eq(dl_type_free(&d), DL_OK);
  ck_assert_int_eq(dl_type_retain(NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_retain(INT32), DL_OK);
}
END_TEST

START_TEST(darray_hand)
{
  /* 2x2 process grid over a 4x6 C-order array of ints, block x cyclic(2):
     rank 3 = coords (1,1) owns rows 2..3, columns 2,3 */
  dl_count g[2] = {4, 6};
  int dist[2] = {DL_DISTRIBUTE_BLOCK, DL_DISTRIBUTE_CYCLIC};
  int darg[2] = {DL_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
  dl_type *t;
  ck_assert_int_eq(dl_type_darray(4, 3, 2, g, dist, darg, ps, DL_ORDER_C,
                                  INT32, &t), DL_OK);
  expect_bounds(t, 16, 0, 96, (2 * 6 + 2) * 4, (6 + 2) * 4);
  dl_type_free(&t);
  /* Fortran order, cyclic(1) over 5 elements, 2 processes: rank 1 owns 1, 3 */
  dl_count g1[1] = {5};
  int d1[1] = {DL_DISTRIBUTE_CYCLIC}, a1[1] = {DL_DISTRIBUTE_DFLT_DARG}, p1[1] = {2};
  ck_assert_int_eq(dl_type_darray(2, 1, 1, g1, d1, a1, p1, DL_ORDER_FORTRAN,
                                  DOUBLE, &t), DL_OK);
  expect_bounds(t, 16, 0, 40, 8, 24);
  dl_type_free(&t);
}
END_TEST

/* the constructors the cases above leave to the random oracle, worked by
   hand from the MPI definitions */
START_TEST(hand_bounds_more)
{
  dl_type *t;
  {  /* blocks of 2 ints at elements 4, 0 and 9: bytes 16..24, 0..8, 36..44 */
    dl_count d[3] = {4, 0, 9};
    ck_assert_int_eq(dl_type_indexed_block(3, 2, d, INT32, &t), DL_OK);
    expect_bounds(t, 24, 0, 44, 0, 44);
    dl_type_free(&t);
  }
  {  /* 3 int16 at bytes -10 and 20: [-10, -4) and [20, 26) */
    dl_aint d[2] = {-10, 20};
    ck_assert_int_eq(dl_type_hindexed_block(2, 3, d, dl_builtin(DL_INT16), &t),
                     DL_OK);
    expect_bounds(t, 12, -10, 36, -10, 36);
    dl_type_free(&t);
  }
  {  /* 2x3 of a 4x5 array of doubles from (1, 2) */
    dl_count sz[2] = {4, 5}, sub[2] = {2, 3}, st[2] = {1, 2};
    /* Fortran: element (i, j) at (i + 4j) * 8, i in 1..2, j in 2..4:
       first 72, last 144 */
    ck_assert_int_eq(dl_type_subarray(2, sz, sub, st, DL_ORDER_FORTRAN, DOUBLE,
                                      &t), DL_OK);
    expect_bounds(t, 48, 0, 160, 72, 80);
    dl_type_free(&t);
    /* C: (i, j) at (5i + j) * 8: first 56, last 112 */
    ck_assert_int_eq(dl_type_subarray(2, sz, sub, st, DL_ORDER_C, DOUBLE, &t),
                     DL_OK);
    expect_bounds(t, 48, 0, 160, 56, 64);
    dl_type_free(&t);
  }
  {  /* 4x6 ints, rows in blocks over 2 processes, columns not distributed:
        rank 1 owns rows 2..3 whole, bytes 48..96 */
    dl_count g[2] = {4, 6};
    int dist[2] = {DL_DISTRIBUTE_BLOCK, DL_DISTRIBUTE_NONE};
    int darg[2] = {DL_DISTRIBUTE_DFLT_DARG, DL_DISTRIBUTE_DFLT_DARG};
    int ps[2] = {2, 1};
    ck_assert_int_eq(dl_type_darray(2, 1, 2, g, dist, darg, ps, DL_ORDER_C,
                                    INT32, &t), DL_OK);
    expect_bounds(t, 48, 0, 96, 48, 48);
    dl_type_free(&t);
    /* Fortran order: dimension 0 is fastest, so rank 1's rows 2..3 are
       elements 2, 3 of each of the 6 columns of 4 */
    ck_assert_int_eq(dl_type_darray(2, 1, 2, g, dist, darg, ps,
                                    DL_ORDER_FORTRAN, INT32, &t), DL_OK);
    expect_bounds(t, 48, 0, 96, 8, 88);
    dl_type_free(&t);
  }
}
END_TEST

START_TEST(errors)
{
  dl_type *t = NULL, *bad = NULL;
  dl_count bl[2] = {1, -1}, d[2] = {0, 1};
  dl_aint hd[2] = {0, 1};
  /* negative counts and block lengths */
  ck_assert_int_eq(dl_type_contiguous(-1, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_vector(-1, 1, 1, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_vector(1, -1, 1, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_hvector(1, -2, 1, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_indexed(2, bl, d, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_hindexed(2, bl, hd, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_indexed_block(-2, 1, d, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_hindexed_block(2, -1, hd, INT32, &t), DL_ERR_ARG);
  dl_type *ty[2] = {INT32, INT32};
  ck_assert_int_eq(dl_type_struct(2, bl, hd, ty, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_struct(-1, bl, hd, ty, &t), DL_ERR_ARG);
  /* NULL arrays with nonzero count, NULL old types and outputs */
  ck_assert_int_eq(dl_type_indexed(2, NULL, d, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_indexed(2, d, NULL, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_hindexed_block(2, 1, NULL, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_struct(2, NULL, hd, ty, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_struct(2, d, hd, NULL, &t), DL_ERR_ARG);
  dl_type *ty_null[2] = {INT32, NULL};
  dl_count ok_bl[2] = {1, 1};
  ck_assert_int_eq(dl_type_struct(2, ok_bl, hd, ty_null, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_contiguous(1, NULL, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_contiguous(1, INT32, NULL), DL_ERR_ARG);
  ck_assert_str_eq(dl_last_error_detail(), "dl_type_contiguous: NULL output pointer");
  ck_assert_int_eq(dl_type_vector(-3, 1, 1, INT32, &t), DL_ERR_ARG);
  ck_assert_str_eq(dl_last_error_detail(), "dl_type_vector: negative count -3");
  ck_assert_int_eq(dl_type_hvector(1, -2, 1, INT32, &t), DL_ERR_ARG);
  ck_assert_str_eq(dl_last_error_detail(), "dl_type_hvector: negative block length -2");
  ck_assert_int_eq(dl_type_indexed(2, d, NULL, INT32, &t), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "NULL displacements"));
  ck_assert_int_eq(dl_type_struct(2, ok_bl, hd, ty_null, &t), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "block 1"));
  /* a success leaves the detail of the last failure */
  dl_type *ok;
  DL_OK_(dl_type_contiguous(2, INT32, &ok));
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "block 1"));
  ck_assert_int_eq(dl_type_free(&ok), DL_OK);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "block 1"));
  dl_type *pre = INT32;
  ck_assert_int_eq(dl_type_free(&pre), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "predefined"));
  /* which of its reasons depends on the build: either names itself */
  ck_assert_int_eq(dl_type_compile(INT32), DL_ERR_UNSUPPORTED);
  ck_assert_msg(strstr(dl_last_error_detail(), "dl_type_compile: no JIT in this build") ||
                strstr(dl_last_error_detail(), "dl_type_compile: nothing to compile"),
                "detail: %s", dl_last_error_detail());
  ck_assert_int_eq(dl_type_resized(NULL, 0, 4, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_dup(INT32, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_commit(NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_free(NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_free(&bad), DL_ERR_ARG);
  dl_count s;
  dl_aint a, b;
  ck_assert_int_eq(dl_type_size(NULL, &s), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_size(INT32, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_extent(INT32, NULL, &b), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_true_extent(NULL, &a, &b), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_print(NULL, INT32), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_print(stdout, NULL), DL_ERR_ARG);
  /* sizes and extents that overflow 64 bits */
  dl_type *huge;
  ck_assert_int_eq(dl_type_contiguous(INT64_MAX / 2, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_vector(2, 1, INT64_MAX / 2, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_hvector(3, 1, INT64_MAX / 2, INT32, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_resized(INT32, INT64_MAX, 1, &t), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_type_contiguous(1 << 30, DOUBLE,
                                      &huge), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(1ll << 31, huge, &t), DL_ERR_OVERFLOW);
  dl_aint far[2] = {INT64_MAX - 2, 0};
  dl_count two[2] = {1, 1};
  ck_assert_int_eq(dl_type_hindexed(2, two, far, DOUBLE, &t), DL_ERR_OVERFLOW);
  dl_count ifar[1] = {INT64_MAX / 4};
  ck_assert_int_eq(dl_type_indexed(1, two, ifar, DOUBLE, &t), DL_ERR_OVERFLOW);
  dl_type_free(&huge);
  /* subarray */
  dl_count sz[2] = {4, 4}, sub[2] = {2, 2}, st[2] = {1, 1};
  ck_assert_int_eq(dl_type_subarray(2, sz, sub, st, DL_ORDER_C, INT32, &t), DL_OK);
  dl_type_free(&t);
  dl_count sub_big[2] = {5, 2}, st_far[2] = {3, 0}, st_neg[2] = {-1, 0};
  dl_count sz_zero[2] = {0, 4};
  ck_assert_int_eq(dl_type_subarray(2, sz, sub_big, st, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_subarray(2, sz, sub, st_far, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_subarray(2, sz, sub, st_neg, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_subarray(2, sz_zero, sub, st, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_subarray(0, sz, sub, st, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_subarray(2, sz, sub, st, 7, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_subarray(2, NULL, sub, st, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  /* darray */
  dl_count g[2] = {4, 4};
  int dist[2] = {DL_DISTRIBUTE_BLOCK, DL_DISTRIBUTE_BLOCK};
  int darg[2] = {DL_DISTRIBUTE_DFLT_DARG, DL_DISTRIBUTE_DFLT_DARG};
  int ps[2] = {2, 2};
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_OK);
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_darray(3, 0, 2, g, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_darray(4, 4, 2, g, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_darray(4, -1, 2, g, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_darray(4, 0, 0, g, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist, darg, ps, 5, INT32, &t), DL_ERR_ARG);
  int darg_small[2] = {1, DL_DISTRIBUTE_DFLT_DARG};     /* 1 * 2 < 4 */
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist, darg_small, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  int darg_zero[2] = {0, DL_DISTRIBUTE_DFLT_DARG};
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist, darg_zero, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  int dist_none[2] = {DL_DISTRIBUTE_NONE, DL_DISTRIBUTE_BLOCK};
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist_none, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  int dist_bad[2] = {9, DL_DISTRIBUTE_BLOCK};
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist_bad, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  dl_count g_zero[2] = {0, 4};
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g_zero, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  int ps_zero[2] = {0, 2};
  ck_assert_int_eq(dl_type_darray(4, 0, 2, g, dist, darg, ps_zero, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_darray(4, 0, 2, NULL, dist, darg, ps, DL_ORDER_C, INT32, &t), DL_ERR_ARG);
  ck_assert_ptr_null(t);
  /* every code has a name */
  for (int c = DL_OK; c <= DL_ERR_IO; c++)
    ck_assert_ptr_nonnull(dl_strerror(c));
  ck_assert_str_eq(dl_strerror(12345), "unknown error code");
  ck_assert_str_ne(dl_strerror(DL_ERR_ARG), dl_strerror(DL_ERR_OVERFLOW));
}
END_TEST

/* ---- randomized: the loop tree against the model ---- */

struct collect {
  mrun *runs;
  size_t n, cap;
};

static int collect_run(void *ctx, dl_aint addr, dl_count len)
{
  struct collect *c = ctx;
  return mrun_push(&c->runs, &c->n, &c->cap, addr, len) ? DL_ERR_NOMEM : DL_OK;
}


START_TEST(random_bytemap)
{
  rng r = {seed};
  long kinds[RT_NKINDS] = {0};
  const char *scale = getenv("DL_TEST_SCALE");
  int ntypes = (int)(4000 * (scale ? atof(scale) : 1.0));
  if (ntypes < 200)
    ntypes = 200;       /* enough draws to reach every constructor */
  for (int it = 0; it < ntypes; it++) {
    rtype rt;
    int rc = rtype_gen(&r, (int)rng_range(&r, 1, 6), &rt, kinds);
    ck_assert_msg(rc == 0, "seed %llu: constructor failed in %s",
                  (unsigned long long)seed, rt.desc);
    const model *m = rt.m;
    dl_count size;
    dl_aint lb, ext, tlb, text;
    dl_type_size(rt.t, &size);
    dl_type_extent(rt.t, &lb, &ext);
    dl_type_true_extent(rt.t, &tlb, &text);
    ck_assert_msg(size == m->size && lb == m->lb && ext == model_extent(m) &&
                  tlb == m->true_lb && text == m->true_ub - m->true_lb,
                  "seed %llu type %d %s: size/lb/ext/tlb/text %lld %lld %lld "
                  "%lld %lld, model %lld %lld %lld %lld %lld",
                  (unsigned long long)seed, it, rt.desc, (long long)size,
                  (long long)lb, (long long)ext, (long long)tlb, (long long)text,
                  (long long)m->size, (long long)m->lb, (long long)model_extent(m),
                  (long long)m->true_lb, (long long)(m->true_ub - m->true_lb));
    if (size > 0)
      ck_assert_msg(rt.t->loop->tlb == tlb && rt.t->loop->tub == tlb + text,
                    "seed %llu type %d %s: loop bounds disagree",
                    (unsigned long long)seed, it, rt.desc);
    dl_count count = rng_range(&r, 0, 3);
    mrun *want;
    size_t nwant;
    ck_assert_int_eq(model_bytemap(m, count, &want, &nwant), 0);
    struct collect got = {0};
    for (dl_count k = 0; k < count && size > 0; k++)
      ck_assert_int_eq(dli_loop_walk(rt.t->loop, k * ext, collect_run, &got), 0);
    bool same = got.n == nwant;
    for (size_t i = 0; same && i < nwant; i++)
      same = got.runs[i].disp == want[i].disp && got.runs[i].len == want[i].len;
    if (!same) {
      dl_type_print(stderr, rt.t);
      for (size_t i = 0; i < nwant || i < got.n; i++)
        fprintf(stderr, "  %zu: model %lld+%lld  loops %lld+%lld\n", i,
                i < nwant ? (long long)want[i].disp : -1,
                i < nwant ? (long long)want[i].len : -1,
                i < got.n ? (long long)got.runs[i].disp : -1,
                i < got.n ? (long long)got.runs[i].len : -1);
    }
    ck_assert_msg(same, "seed %llu type %d count %lld %s: byte maps differ",
                  (unsigned long long)seed, it, (long long)count, rt.desc);
    free(want);
    free(got.runs);
    rtype_free(&rt);
  }
  for (int k = 0; k < RT_NKINDS; k++)
    ck_assert_msg(kinds[k] > 0, "seed %llu: constructor kind %d never drawn",
                  (unsigned long long)seed, k);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, builtins);
  tcase_add_test(tc, hand_bounds);
  tcase_add_test(tc, flash);
  tcase_add_test(tc, faces);
  tcase_add_test(tc, opt_contig_merge);
  tcase_add_test(tc, opt_vector_to_contig);
  tcase_add_test(tc, opt_indexed);
  tcase_add_test(tc, opt_periodic_fold);
  tcase_add_test(tc, opt_gather_apart);
  tcase_add_test(tc, opt_struct_to_bytes);
  tcase_add_test(tc, opt_struct_same_type);
  tcase_add_test(tc, opt_collapse_and_zero);
  tcase_add_test(tc, regular_is_small);
  tcase_add_test(tc, refcounts);
  tcase_add_test(tc, darray_hand);
  tcase_add_test(tc, hand_bounds_more);
  tcase_add_test(tc, errors);
  tcase_add_test(tc, random_bytemap);
  return test_run("types", tc, false);
}
