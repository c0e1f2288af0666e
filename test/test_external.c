/* external32: dl_pack_external and friends against three oracles.
 *
 *  - MPICH's MPI_Pack_external / MPI_Unpack_external, byte for byte, for
 *    random types of one basic type each (MPICH 4.0.2 aborts on structs
 *    that mix basic types, on the pair types and on MPI_WCHAR);
 *  - a reference written from the standard's external32 table, applied
 *    element by element to the typed typemap model, for random types that
 *    mix every basic type;
 *  - golden bytes worked out by hand, for the cases where MPICH departs
 *    from the standard (complex types swapped as one unit, mixed structs).
 *
 * Then round trips, any split of the stream in any order equal to one
 * shot, signatures' shapes, and every bad argument. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../dataloop/loop.h"
#include "buffers.h"
#include "model.h"
#include "mpi_recipe.h"
#include "randtype.h"
#include "runner.h"

#define X32 "external32"
#define DL_OK_(x) ck_assert_int_eq((x), DL_OK)
#define MPI_OK(x) ck_assert_int_eq((x), MPI_SUCCESS)

static uint64_t seed;

/* ======================================================================
 * the reference: MPI-4.0's external32 table, one element at a time
 * ==================================================================== */

enum { R_RAW, R_INT, R_UINT, R_IEEE, R_X87 };

static const struct ref {
  int nsize, xsize, kind, lanes;
} ref[RT_NUM_BASICS] = {
  [DL_BYTE] = {1, 1, R_RAW, 1}, [DL_CHAR] = {1, 1, R_RAW, 1},
  [DL_INT8] = {1, 1, R_INT, 1}, [DL_UINT8] = {1, 1, R_UINT, 1},
  [DL_INT16] = {2, 2, R_INT, 1}, [DL_UINT16] = {2, 2, R_UINT, 1},
  [DL_INT32] = {4, 4, R_INT, 1}, [DL_UINT32] = {4, 4, R_UINT, 1},
  [DL_INT64] = {8, 8, R_INT, 1}, [DL_UINT64] = {8, 8, R_UINT, 1},
  [DL_FLOAT] = {4, 4, R_IEEE, 1}, [DL_DOUBLE] = {8, 8, R_IEEE, 1},
  [DL_LONG_DOUBLE] = {16, 16, R_X87, 1},
  [DL_C_FLOAT_COMPLEX] = {8, 8, R_IEEE, 2},
  [DL_C_DOUBLE_COMPLEX] = {16, 16, R_IEEE, 2},
  [DL_PACKED] = {1, 1, R_RAW, 1},
  [DL_LONG] = {8, 4, R_INT, 1}, [DL_UNSIGNED_LONG] = {8, 4, R_UINT, 1},
  [DL_C_BOOL] = {1, 1, R_UINT, 1},
  [DL_C_LONG_DOUBLE_COMPLEX] = {32, 32, R_X87, 2},
  [DL_NUM_BUILTINS + DL_WCHAR] = {4, 2, R_UINT, 1},
  [DL_NUM_BUILTINS + DL_FLOAT128] = {16, 16, R_IEEE, 1},
  [DL_NUM_BUILTINS + DL_C_FLOAT128_COMPLEX] = {32, 16 * 2, R_IEEE, 2},
};

typedef unsigned __int128 u128;

static int top_bit(u128 v)
{
  int p = -1;
  while (v) {
    v >>= 1;
    p++;
  }
  return p;
}

/* binary128 from sign and value m * 2^e2 (m < 2^64): generic normalizing */
static void quad_of(int sign, uint64_t m, int e2, unsigned char out[16])
{
  u128 bitsv = 0;
  if (m != 0) {
    int p = top_bit(m), e = e2 + p;            /* leading bit's exponent */
    u128 f;
    unsigned be;
    if (e >= -16382) {
      be = (unsigned)(e + 16383);
      f = ((u128)m - ((u128)1 << p)) << (112 - p);
    } else {
      be = 0;
      f = (u128)m << (e2 + 16382 + 112);
    }
    bitsv = (u128)be << 112 | f;
  }
  bitsv |= (u128)sign << 127;
  for (int i = 0; i < 16; i++)
    out[i] = (unsigned char)(bitsv >> (8 * (15 - i)));
}

/* what loading a bit pattern as x87 means: invalid encodings are NaN */
static void ref_x87_enc(const unsigned char *n, unsigned char *x)
{
  uint64_t m = 0;
  for (int i = 7; i >= 0; i--)
    m = m << 8 | n[i];
  unsigned se = (unsigned)n[8] | (unsigned)n[9] << 8;
  int sign = (int)(se >> 15);
  unsigned exp = se & 0x7fff;
  bool one = m >> 63;
  uint64_t frac = m & ~(1ull << 63);
  if (exp == 0x7fff || (exp != 0 && !one)) {
    u128 f;
    if (exp != 0x7fff)                    /* unnormal */
      f = (u128)1 << 62;
    else if (one && frac == 0)            /* infinity */
      f = 0;
    else                                  /* NaN: quiet when it was not valid */
      f = frac | (one ? 0 : 1ull << 62);
    u128 b = (u128)sign << 127 | (u128)0x7fff << 112 | f << 49;
    for (int i = 0; i < 16; i++)
      x[i] = (unsigned char)(b >> (8 * (15 - i)));
    return;
  }
  quad_of(sign, m, (exp ? (int)exp : 1) - 16383 - 63, x);
}

/* binary128 to x87, rounding to nearest, ties to even */
static void ref_x87_dec(const unsigned char *x, unsigned char *n)
{
  u128 b = 0;
  for (int i = 0; i < 16; i++)
    b = b << 8 | x[i];
  int sign = (int)(b >> 127);
  unsigned be = (unsigned)(b >> 112) & 0x7fff;
  u128 f = b & (((u128)1 << 112) - 1);
  uint64_t m;
  unsigned exp;
  if (be == 0x7fff) {
    exp = 0x7fff;
    m = 1ull << 63;
    if (f) {
      m |= (uint64_t)(f >> 49);
      if ((f >> 49) == 0)
        m |= 1ull << 62;
    }
  } else {
    u128 M = be ? ((u128)1 << 112) | f : f;
    int e2 = (be ? (int)be : 1) - 16383 - 112;
    if (M == 0) {
      m = 0;
      exp = 0;
    } else {
      int p = top_bit(M), e = e2 + p;
      /* bits kept: 64 for a normal result, fewer below x87's range */
      int shift = e >= -16382 ? p - 63 : -(e2 + 16445);
      u128 kept = M >> shift, rest = M & (((u128)1 << shift) - 1);
      u128 half = (u128)1 << (shift - 1);
      if (rest > half || (rest == half && (kept & 1)))
        kept++;
      if (e >= -16382) {
        if (kept >> 64) {                 /* rounded up to 2^64 */
          kept >>= 1;
          e++;
        }
        exp = (unsigned)(e + 16383);
        m = (uint64_t)kept;
        if (exp >= 0x7fff) {
          exp = 0x7fff;
          m = 1ull << 63;
        }
      } else {
        m = (uint64_t)kept;
        exp = m >> 63 ? 1 : 0;            /* rounded up to the smallest normal */
      }
    }
  }
  memset(n, 0, 16);
  for (int i = 0; i < 8; i++)
    n[i] = (unsigned char)(m >> (8 * i));
  unsigned se = (unsigned)sign << 15 | exp;
  n[8] = (unsigned char)se;
  n[9] = (unsigned char)(se >> 8);
}

static void ref_enc(int id, const unsigned char *n, unsigned char *x)
{
  const struct ref *r = &ref[id];
  int w = r->nsize / r->lanes, xw = r->xsize / r->lanes;
  for (int l = 0; l < r->lanes; l++, n += w, x += xw) {
    switch (r->kind) {
    case R_RAW:
      memcpy(x, n, (size_t)w);
      break;
    case R_INT:
    case R_UINT:                          /* the low xw bytes, big-endian */
      for (int i = 0; i < xw; i++)
        x[i] = n[xw - 1 - i];
      break;
    case R_IEEE:
      for (int i = 0; i < w; i++)
        x[i] = n[w - 1 - i];
      break;
    case R_X87:
      ref_x87_enc(n, x);
      break;
    }
  }
}

static void ref_dec(int id, const unsigned char *x, unsigned char *n)
{
  const struct ref *r = &ref[id];
  int w = r->nsize / r->lanes, xw = r->xsize / r->lanes;
  for (int l = 0; l < r->lanes; l++, n += w, x += xw) {
    switch (r->kind) {
    case R_RAW:
      memcpy(n, x, (size_t)w);
      break;
    case R_INT:
    case R_UINT: {
      unsigned char ext = r->kind == R_INT && (x[0] & 0x80) ? 0xff : 0;
      for (int i = 0; i < w; i++)
        n[i] = i < xw ? x[xw - 1 - i] : ext;
      break;
    }
    case R_IEEE:
      for (int i = 0; i < w; i++)
        n[i] = x[w - 1 - i];
      break;
    case R_X87:
      ref_x87_dec(x, n);
      break;
    }
  }
}

/* ---- typed typemaps ---- */

/* the elements of (count, type) in packed order */
typedef struct elems {
  mrun *runs;
  size_t n;
  size_t xsize;       /* external bytes of all of them */
  bool overlap;       /* some byte belongs to two elements */
} elems;

static int cmp_disp(const void *a, const void *b)
{
  const mrun *x = a, *y = b;
  return x->disp < y->disp ? -1 : x->disp > y->disp;
}

static void elems_of(const rtype *rt, dl_count count, elems *e)
{
  ck_assert_int_eq(model_bytemap(rt->m, count, &e->runs, &e->n), 0);
  e->xsize = 0;
  for (size_t i = 0; i < e->n; i++) {
    ck_assert_msg(e->runs[i].elem > 0, "untyped run in %s", rt->desc);
    const struct ref *r = &ref[e->runs[i].elem - 1];
    e->xsize += (size_t)(e->runs[i].len / r->nsize * r->xsize);
  }
  mrun *s = malloc((e->n + 1) * sizeof(mrun));
  if (e->n)                           /* runs is NULL for an empty map */
    memcpy(s, e->runs, e->n * sizeof(mrun));
  qsort(s, e->n, sizeof(mrun), cmp_disp);
  e->overlap = false;
  for (size_t i = 1; i < e->n; i++)
    if (s[i].disp < s[i - 1].disp + s[i - 1].len)
      e->overlap = true;
  free(s);
}

static void ref_pack(const elems *e, const char *origin, unsigned char *out)
{
  for (size_t i = 0; i < e->n; i++) {
    int id = e->runs[i].elem - 1;
    const struct ref *r = &ref[id];
    for (dl_count k = 0; k < e->runs[i].len / r->nsize; k++) {
      ref_enc(id, (const unsigned char *)origin + e->runs[i].disp + k * r->nsize, out);
      out += r->xsize;
    }
  }
}

static void ref_unpack(const elems *e, char *origin, const unsigned char *in)
{
  for (size_t i = 0; i < e->n; i++) {
    int id = e->runs[i].elem - 1;
    const struct ref *r = &ref[id];
    for (dl_count k = 0; k < e->runs[i].len / r->nsize; k++) {
      ref_dec(id, in, (unsigned char *)origin + e->runs[i].disp + k * r->nsize);
      in += r->xsize;
    }
  }
}

/* Valid values in every element: x87 lanes get a real encoding (normal,
   denormal, zero, infinity or NaN); with `small`, integers that external32
   narrows get values that survive it. */
static void fill_elem(int id, unsigned char *p, rng *g, bool small)
{
  const struct ref *r = &ref[id];
  for (int i = 0; i < r->nsize; i++)
    p[i] = (unsigned char)rng_next(g);
  if (r->kind == R_X87) {
    for (int l = 0; l < r->lanes; l++) {
      unsigned char *q = p + 16 * l;
      uint64_t m = rng_next(g);
      unsigned exp = (unsigned)rng_range(g, 1, 0x7ffe);
      switch (rng_range(g, 0, 9)) {
      case 0: exp = 0; m >>= 1 + rng_range(g, 0, 62); break;    /* denormal */
      case 1: exp = 0; m = 0; break;
      case 2: exp = 0x7fff; m = 1ull << 63; break;                /* infinity */
      case 3: exp = 0x7fff; m |= 3ull << 62; break;               /* NaN */
      default: m |= 1ull << 63; break;
      }
      unsigned se = (unsigned)rng_range(g, 0, 1) << 15 | exp;
      memcpy(q, &m, 8);
      q[8] = (unsigned char)se;
      q[9] = (unsigned char)(se >> 8);
    }
  } else if (small && r->xsize < r->nsize) {
    /* the value of the low xsize bytes, extended as decoding extends it */
    bool neg = r->kind == R_INT && (p[r->xsize - 1] & 0x80);
    memset(p + r->xsize, neg ? 0xff : 0, (size_t)(r->nsize - r->xsize));
  }
}

static void fill(const elems *e, char *origin, rng *g, bool small)
{
  for (size_t i = 0; i < e->n; i++) {
    int id = e->runs[i].elem - 1;
    for (dl_count k = 0; k < e->runs[i].len / ref[id].nsize; k++)
      fill_elem(id, (unsigned char *)origin + e->runs[i].disp + k * ref[id].nsize,
                g, small);
  }
}

/* memory compared where it means something: everything but the 6 padding
   bytes of each x87 lane of the elements */
static bool same_memory(const elems *e, const char *a, const char *b, size_t len,
                        const char *origin)
{
  char *ma = malloc(len + 1), *mb = malloc(len + 1);
  memcpy(ma, a, len);
  memcpy(mb, b, len);
  for (size_t i = 0; i < e->n; i++) {
    int id = e->runs[i].elem - 1;
    if (ref[id].kind != R_X87)
      continue;
    for (dl_count k = 0; k < e->runs[i].len / 16; k++) {
      size_t at = (size_t)(origin - a) + (size_t)(e->runs[i].disp + 16 * k);
      memset(ma + at + 10, 0, 6);
      memset(mb + at + 10, 0, 6);
    }
  }
  bool same = memcmp(ma, mb, len) == 0;
  free(ma);
  free(mb);
  return same;
}

/* the memory of a (count, type), plus a second copy for unpacking */
typedef struct mem2 {
  tbuf a, b;
} mem2;

static void mem2_for(const elems *e, mem2 *m, rng *g, bool small)
{
  tbuf_for(e->runs, e->n, &m->a, rng_next(g));
  fill(e, m->a.origin, g, small);
  m->b.len = m->a.len;
  m->b.mem = malloc(m->a.len + 1);
  memcpy(m->b.mem, m->a.mem, m->a.len);
  m->b.origin = m->b.mem + (m->a.origin - m->a.mem);
}

static void mem2_free(mem2 *m)
{
  tbuf_free(&m->a);
  tbuf_free(&m->b);
}

/* ======================================================================
 * against the reference: random types mixing every basic type
 * ==================================================================== */

static const int all_basics[] = {
  DL_BYTE, DL_CHAR, DL_INT8, DL_UINT8, DL_INT16, DL_UINT16, DL_INT32,
  DL_UINT32, DL_INT64, DL_UINT64, DL_FLOAT, DL_DOUBLE, DL_LONG_DOUBLE,
  DL_C_FLOAT_COMPLEX, DL_C_DOUBLE_COMPLEX, DL_PACKED, DL_LONG,
  DL_UNSIGNED_LONG, DL_C_BOOL, DL_C_LONG_DOUBLE_COMPLEX,
  DL_NUM_BUILTINS + DL_WCHAR, DL_NUM_BUILTINS + DL_FLOAT128,
  DL_NUM_BUILTINS + DL_C_FLOAT128_COMPLEX};
#define NALL (int)(sizeof(all_basics) / sizeof(all_basics[0]))

static void hex(char *out, const unsigned char *p, size_t n)
{
  for (size_t i = 0; i < n && i < 48; i++)
    sprintf(out + 3 * i, "%02x ", p[i]);
}

/* first differing byte, for messages */
static size_t first_diff(const void *a, const void *b, size_t n)
{
  const unsigned char *x = a, *y = b;
  size_t i = 0;
  while (i < n && x[i] == y[i])
    i++;
  return i;
}

START_TEST(random_vs_reference)
{
  rng r = {seed ^ 0x78333272ull};
  int n = test_scaled(3000);
  long packed = 0, unpacked = 0;
  for (int it = 0; it < n; it++) {
    rtype rt;
    /* one to three basic types per type, from all of them */
    int pick[3], np = (int)rng_range(&r, 1, 3);
    for (int k = 0; k < np; k++)
      pick[k] = all_basics[rng_range(&r, 0, NALL - 1)];
    ck_assert_int_eq(rtype_gen_typed(&r, (int)rng_range(&r, 1, 5), pick, np, &rt), 0);
    dl_count count = rng_range(&r, 0, 3);
    elems e;
    elems_of(&rt, count, &e);
    size_t xs;
    DL_OK_(dl_pack_external_size(X32, count, rt.t, &xs));
    ck_assert_msg(xs == e.xsize, "seed %llu: size %zu, reference %zu: %s",
                  (unsigned long long)seed, xs, e.xsize, rt.desc);
    if (e.n == 0) {
      free(e.runs);
      rtype_free(&rt);
      continue;
    }
    mem2 m;
    mem2_for(&e, &m, &r, false);
    unsigned char *got = malloc(xs + 1), *want = malloc(xs + 1);
    size_t pos = 0;
    DL_OK_(dl_pack_external(X32, m.a.origin, count, rt.t, got, xs, &pos));
    ck_assert_uint_eq(pos, xs);
    ref_pack(&e, m.a.origin, want);
    size_t d = first_diff(got, want, xs);
    if (d < xs) {
      char g[160] = "", w[160] = "";
      hex(g, got + d, xs - d);
      hex(w, want + d, xs - d);
      ck_abort_msg("seed %llu: pack differs at byte %zu of %zu\n got  %s\n want %s\n type %s",
                   (unsigned long long)seed, d, xs, g, w, rt.desc);
    }
    packed++;
    if (!e.overlap) {
      /* any external bytes decode: random ones, into two equal memories */
      for (size_t i = 0; i < xs; i++)
        got[i] = (unsigned char)rng_next(&r);
      pos = 0;
      DL_OK_(dl_unpack_external(X32, got, xs, &pos, m.a.origin, count, rt.t));
      ck_assert_uint_eq(pos, xs);
      ref_unpack(&e, m.b.origin, got);
      ck_assert_msg(same_memory(&e, m.a.mem, m.b.mem, m.a.len, m.a.origin),
                    "seed %llu: unpack differs from the reference at byte %zu: %s",
                    (unsigned long long)seed, first_diff(m.a.mem, m.b.mem, m.a.len),
                    rt.desc);
      unpacked++;
    }
    free(got);
    free(want);
    mem2_free(&m);
    free(e.runs);
    rtype_free(&rt);
  }
  printf("random_vs_reference: %d types, %ld packed, %ld unpacked\n", n, packed,
         unpacked);
}
END_TEST

/* ======================================================================
 * against MPICH: random types of one basic type each
 * ==================================================================== */

/* the basic types MPICH 4.0.2 converts (all but MPI_WCHAR, which aborts),
   by the MPI type the recipes use for them */
static const int mpich_basics[] = {
  DL_BYTE, DL_CHAR, DL_INT8, DL_UINT8, DL_INT16, DL_UINT16, DL_INT32,
  DL_UINT32, DL_INT64, DL_UINT64, DL_FLOAT, DL_DOUBLE, DL_LONG_DOUBLE,
  DL_C_FLOAT_COMPLEX, DL_C_DOUBLE_COMPLEX, DL_PACKED, DL_LONG,
  DL_UNSIGNED_LONG, DL_C_BOOL, DL_C_LONG_DOUBLE_COMPLEX,
  DL_NUM_BUILTINS + DL_FLOAT128};
#define NMPICH (int)(sizeof(mpich_basics) / sizeof(mpich_basics[0]))

START_TEST(random_vs_mpich)
{
  rng r = {seed ^ 0x6d70696368ull};
  int n = test_scaled(2000);
  long packed = 0, unpacked = 0, skipped = 0, per[RT_NUM_BASICS] = {0};
  /* past n, more of each basic type no type has been compared of yet (a
     scaled-down run may skip all of one's few draws): at most 100 more each */
  for (int it = 0, extra = 0; it < n || extra < 100 * NMPICH; it++) {
    int id = mpich_basics[it % NMPICH];
    if (it >= n) {
      int k = 0;
      while (k < NMPICH && (per[mpich_basics[k]] > 0 ||
                            (UNDER_VALGRIND && ref[mpich_basics[k]].kind == R_X87)))
        k++;
      if (k == NMPICH)
        break;
      id = mpich_basics[k];
      extra++;
    }
    bool x87 = ref[id].kind == R_X87;
    rtype rt;
    ck_assert_int_eq(rtype_gen_typed(&r, (int)rng_range(&r, 1, 5), &id, 1, &rt), 0);
    MPI_Datatype mt;
    ck_assert_msg(recipe_build_mpi(rt.rc, &mt) == MPI_SUCCESS, "MPI refused %s",
                  rt.desc);
    bool named = rt.rc->kind == RT_BUILTIN;
    if (!named)
      MPI_OK(MPI_Type_commit(&mt));
    /* under Valgrind MPICH's x87 arithmetic runs at double precision */
    if (!mpich_external_ok(&rt, mt) || (x87 && UNDER_VALGRIND)) {
      skipped++;
      if (!named)
        MPI_Type_free(&mt);
      rtype_free(&rt);
      continue;
    }
    dl_count count = rng_range(&r, 0, 3);
    elems e;
    elems_of(&rt, count, &e);
    if (getenv("DL_TEST_TRACE"))
      fprintf(stderr, "vs_mpich %d: %s\n", it, rt.desc);
    MPI_Aint msize;
    size_t xs;
    MPI_OK(MPI_Pack_external_size(X32, (int)count, mt, &msize));
    DL_OK_(dl_pack_external_size(X32, count, rt.t, &xs));
    ck_assert_msg((size_t)msize == xs, "size: MPICH %ld, dataloop %zu: %s",
                  (long)msize, xs, rt.desc);
    /* overlapping x87 elements clobber each other's exponents: bit
       patterns that are no value (unnormals), which dataloop reads as NaN,
       as the FPU does, and MPICH converts to some number */
    if (e.n > 0 && !(x87 && e.overlap)) {
      mem2 m;
      mem2_for(&e, &m, &r, false);
      unsigned char *a = malloc(xs + 1), *b = malloc(xs + 1);
      MPI_Aint mp = 0;
      size_t dp = 0;
      MPI_OK(MPI_Pack_external(X32, m.a.origin, (int)count, mt, a, msize, &mp));
      DL_OK_(dl_pack_external(X32, m.a.origin, count, rt.t, b, xs, &dp));
      ck_assert_uint_eq(dp, xs);
      if (mp != msize || memcmp(a, b, xs) != 0) {
        size_t d = first_diff(a, b, xs);
        char ga[160] = "", gb[160] = "";
        hex(ga, a + d, xs - d);
        hex(gb, b + d, xs - d);
        ck_abort_msg("seed %llu: pack differs from MPICH at byte %zu of %zu\n"
                     " MPICH    %s\n dataloop %s\n type %s",
                     (unsigned long long)seed, d, xs, ga, gb, rt.desc);
      }
      packed++;
      per[id]++;
      if (!e.overlap) {
        /* MPICH rounds quads through the FPU: give it x87 values, which
           decode exactly; everything else gets random bytes */
        if (!x87)
          for (size_t i = 0; i < xs; i++)
            a[i] = (unsigned char)rng_next(&r);
        mp = 0;
        dp = 0;
        MPI_OK(MPI_Unpack_external(X32, a, msize, &mp, m.a.origin, (int)count, mt));
        DL_OK_(dl_unpack_external(X32, a, xs, &dp, m.b.origin, count, rt.t));
        ck_assert_msg(same_memory(&e, m.a.mem, m.b.mem, m.a.len, m.a.origin),
                      "seed %llu: unpack differs from MPICH at byte %zu: %s",
                      (unsigned long long)seed,
                      first_diff(m.a.mem, m.b.mem, m.a.len), rt.desc);
        unpacked++;
      }
      free(a);
      free(b);
      mem2_free(&m);
    }
    free(e.runs);
    if (!named)
      MPI_Type_free(&mt);
    rtype_free(&rt);
  }
  printf("random_vs_mpich: %d types, %ld packed and %ld unpacked like MPICH, "
         "%ld skipped (MPICH's typemap deviates)\n", n, packed, unpacked, skipped);
  ck_assert_int_gt(packed, n / 4);
  for (int k = 0; k < NMPICH; k++)
    ck_assert_msg(per[mpich_basics[k]] > 0 || (UNDER_VALGRIND && ref[mpich_basics[k]].kind == R_X87),
                  "no %d type compared with MPICH", mpich_basics[k]);
}
END_TEST

/* ======================================================================
 * golden bytes from the standard's table, worked by hand
 * ==================================================================== */

static void expect_pack(const dl_type *t, const void *in, dl_count count,
                        const unsigned char *want, size_t n)
{
  unsigned char out[128];
  memset(out, 0xee, sizeof(out));
  size_t pos = 0, size;
  DL_OK_(dl_pack_external_size(X32, count, t, &size));
  ck_assert_uint_eq(size, n);
  DL_OK_(dl_pack_external(X32, in, count, t, out, sizeof(out), &pos));
  ck_assert_uint_eq(pos, n);
  ck_assert_mem_eq(out, want, n);
  ck_assert_int_eq(out[n], 0xee);
}

START_TEST(golden)
{
  const int32_t i32 = 0x01020304;
  expect_pack(dl_builtin(DL_INT32), &i32, 1, (const unsigned char *)"\x01\x02\x03\x04", 4);
  const int16_t i16[2] = {-2, 0x1234};
  expect_pack(dl_builtin(DL_INT16), i16, 2, (const unsigned char *)"\xff\xfe\x12\x34", 4);
  const uint64_t u64 = 0x0102030405060708ull;
  expect_pack(dl_builtin(DL_UINT64), &u64, 1,
              (const unsigned char *)"\x01\x02\x03\x04\x05\x06\x07\x08", 8);
  const float f = 1.0f;
  expect_pack(dl_builtin(DL_FLOAT), &f, 1, (const unsigned char *)"\x3f\x80\x00\x00", 4);
  const double d = -2.5;
  expect_pack(dl_builtin(DL_DOUBLE), &d, 1,
              (const unsigned char *)"\xc0\x04\x00\x00\x00\x00\x00\x00", 8);
  /* long and unsigned long are 4 bytes: the value modulo 2^32 */
  const long l[2] = {-2, 0x123456789aL};
  expect_pack(dl_builtin(DL_LONG), l, 2,
              (const unsigned char *)"\xff\xff\xff\xfe\x34\x56\x78\x9a", 8);
  const unsigned long ul = 0xfffffffffffffff0ul;
  expect_pack(dl_builtin(DL_UNSIGNED_LONG), &ul, 1,
              (const unsigned char *)"\xff\xff\xff\xf0", 4);
  /* wchar_t is 2 bytes */
  const wchar_t w[2] = {L'A', 0x20ac};
  expect_pack(dl_builtin_more(DL_WCHAR), w, 2, (const unsigned char *)"\x00\x41\x20\xac", 4);
  const _Bool yes = 1;
  expect_pack(dl_builtin(DL_C_BOOL), &yes, 1, (const unsigned char *)"\x01", 1);
  /* complex: two reals, each big-endian (MPICH swaps the pair as one unit
     for the Fortran complex types) */
  const float fc[2] = {1.0f, 2.0f};
  expect_pack(dl_builtin(DL_C_FLOAT_COMPLEX), fc, 1,
              (const unsigned char *)"\x3f\x80\x00\x00\x40\x00\x00\x00", 8);
  /* long double: binary128, sign, 15-bit exponent (bias 16383), 112-bit
     fraction */
  long double ld[3];
  memset(ld, 0, sizeof(ld));
  ld[0] = 1.5L;
  ld[1] = -2.0L;
  {  /* the smallest x87 denormal, 2^-16445: fraction bit 49 */
    uint64_t m = 1;
    memcpy(&ld[2], &m, 8);
  }
  expect_pack(dl_builtin(DL_LONG_DOUBLE), ld, 3,
              (const unsigned char *)
              "\x3f\xff\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
              "\xc0\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
              "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00", 48);
  /* binary128 in memory is byte-reversed only: 1.0 is 3fff 0000... */
  unsigned char q[16] = {0};
  q[15] = 0x3f;
  q[14] = 0xff;
  expect_pack(dl_builtin_more(DL_FLOAT128), q, 1,
              (const unsigned char *)"\x3f\xff\x00\x00\x00\x00\x00\x00"
                                     "\x00\x00\x00\x00\x00\x00\x00\x00", 16);
  /* MPI_FLOAT_INT as C lays it out, a struct MPICH refuses: no padding in
     the stream */
  struct { float v; int i; } fi = {1.0f, 7};
  dl_count bl[2] = {1, 1};
  dl_aint dis[2] = {0, 4};
  dl_type *ty[2] = {dl_builtin(DL_FLOAT), dl_builtin(DL_INT32)}, *t;
  DL_OK_(dl_type_struct(2, bl, dis, ty, &t));
  DL_OK_(dl_type_commit(t));
  expect_pack(t, &fi, 1, (const unsigned char *)"\x3f\x80\x00\x00\x00\x00\x00\x07", 8);
  dl_type_free(&t);
  /* MPI_LONG_DOUBLE_INT: 16 + 4 bytes, then the next pair */
  struct { long double v; int i; } ldi[2];
  memset(ldi, 0, sizeof(ldi));
  ldi[0].v = 1.5L;
  ldi[0].i = -1;
  ldi[1].v = -2.0L;
  ldi[1].i = 2;
  dl_type *ty2[2] = {dl_builtin(DL_LONG_DOUBLE), dl_builtin(DL_INT32)};
  dis[1] = 16;
  DL_OK_(dl_type_struct(2, bl, dis, ty2, &t));
  DL_OK_(dl_type_commit(t));
  expect_pack(t, ldi, 2,
              (const unsigned char *)
              "\x3f\xff\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
              "\xff\xff\xff\xff"
              "\xc0\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
              "\x00\x00\x00\x02", 40);
  /* and back: the pairs come out as they went in */
  unsigned char x[40];
  size_t pos = 0;
  DL_OK_(dl_pack_external(X32, ldi, 2, t, x, sizeof(x), &pos));
  struct { long double v; int i; } back[2];
  memset(back, 0, sizeof(back));
  pos = 0;
  DL_OK_(dl_unpack_external(X32, x, sizeof(x), &pos, back, 2, t));
  ck_assert_uint_eq(pos, 40);
  ck_assert(back[0].v == 1.5L && back[0].i == -1 && back[1].v == -2.0L && back[1].i == 2);
  dl_type_free(&t);
  /* decoding: a quad that is not an x87 value rounds to nearest, ties to
     even; 1 + 2^-64 (the halfway point) rounds to 1, 1 + 3 * 2^-64 to
     1 + 2^-62 */
  unsigned char h[16] = {0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0};
  long double v = 0;
  pos = 0;
  DL_OK_(dl_unpack_external(X32, h, 16, &pos, &v, 1, dl_builtin(DL_LONG_DOUBLE)));
  ck_assert(v == 1.0L);
  h[9] = 0x03;
  pos = 0;
  DL_OK_(dl_unpack_external(X32, h, 16, &pos, &v, 1, dl_builtin(DL_LONG_DOUBLE)));
  if (!UNDER_VALGRIND)          /* Valgrind compares x87 values as doubles */
    ck_assert(v == 1.0L + ldexpl(1.0L, -62));
  uint64_t m;
  memcpy(&m, &v, 8);
  ck_assert_uint_eq(m, 0x8000000000000002ull);
}
END_TEST

/* ======================================================================
 * round trips, splits, signatures, errors
 * ==================================================================== */

START_TEST(roundtrip)
{
  rng r = {seed ^ 0x7274ull};
  int n = test_scaled(1500);
  for (int it = 0; it < n; it++) {
    int pick[3], np = (int)rng_range(&r, 1, 3);
    for (int k = 0; k < np; k++)
      pick[k] = all_basics[rng_range(&r, 0, NALL - 1)];
    rtype rt;
    ck_assert_int_eq(rtype_gen_typed(&r, (int)rng_range(&r, 1, 5), pick, np, &rt), 0);
    dl_count count = rng_range(&r, 1, 3);
    elems e;
    elems_of(&rt, count, &e);
    if (e.n > 0 && !e.overlap) {
      mem2 m;
      mem2_for(&e, &m, &r, true);
      memset(m.b.mem, 0x5a, m.b.len);
      size_t xs, pos = 0;
      DL_OK_(dl_pack_external_size(X32, count, rt.t, &xs));
      char *x = malloc(xs + 1);
      DL_OK_(dl_pack_external(X32, m.a.origin, count, rt.t, x, xs, &pos));
      pos = 0;
      DL_OK_(dl_unpack_external(X32, x, xs, &pos, m.b.origin, count, rt.t));
      /* every element's meaningful bytes came back */
      for (size_t i = 0; i < e.n; i++) {
        int id = e.runs[i].elem - 1;
        for (dl_count k = 0; k < e.runs[i].len / ref[id].nsize; k++)
          for (int l = 0; l < ref[id].lanes; l++) {
            dl_aint at = e.runs[i].disp + k * ref[id].nsize + l * (ref[id].nsize / ref[id].lanes);
            int len = ref[id].kind == R_X87 ? 10 : ref[id].nsize / ref[id].lanes;
            ck_assert_msg(memcmp(m.a.origin + at, m.b.origin + at, (size_t)len) == 0,
                          "seed %llu: element at %lld did not survive: %s",
                          (unsigned long long)seed, (long long)at, rt.desc);
          }
      }
      free(x);
      mem2_free(&m);
    }
    free(e.runs);
    rtype_free(&rt);
  }
}
END_TEST

/* cut points of the stream: pieces of 1 to 7 bytes, some up to 64 */
static void pieces(rng *r, size_t total, size_t *cuts, size_t *ncuts)
{
  size_t k = 0, at = 0;
  cuts[k++] = 0;
  while (at < total) {
    size_t step = (size_t)rng_range(r, 1, rng_range(r, 0, 3) == 0 ? 64 : 7);
    at = at + step < total ? at + step : total;
    cuts[k++] = at;
  }
  *ncuts = k;
}

START_TEST(split_equals_oneshot)
{
  rng r = {seed ^ 0x73706c6974ull};
  int n = test_scaled(800);
  long in_order = 0, shuffled = 0;
  for (int it = 0; it < n; it++) {
    int pick[3], np = (int)rng_range(&r, 1, 3);
    for (int k = 0; k < np; k++)
      pick[k] = all_basics[rng_range(&r, 0, NALL - 1)];
    rtype rt;
    ck_assert_int_eq(rtype_gen_typed(&r, (int)rng_range(&r, 1, 4), pick, np, &rt), 0);
    dl_count count = rng_range(&r, 1, 3);
    elems e;
    elems_of(&rt, count, &e);
    size_t xs;
    DL_OK_(dl_pack_external_size(X32, count, rt.t, &xs));
    if (e.n == 0 || xs > 20000) {
      free(e.runs);
      rtype_free(&rt);
      continue;
    }
    mem2 m;
    mem2_for(&e, &m, &r, false);
    char *one = malloc(xs + 1), *parts = malloc(xs + 1), *in = malloc(xs + 1);
    size_t pos = 0;
    DL_OK_(dl_pack_external(X32, m.a.origin, count, rt.t, one, xs, &pos));
    size_t *cuts = malloc((xs + 2) * sizeof(size_t)), nc;
    pieces(&r, xs, cuts, &nc);
    size_t *order = malloc(nc * sizeof(size_t));
    for (size_t i = 0; i + 1 < nc; i++)
      order[i] = i;
    bool shuffle = rng_range(&r, 0, 1);
    if (shuffle)
      for (size_t i = nc - 1; i-- > 1;) {
        size_t j = (size_t)rng_range(&r, 0, (int64_t)i), t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    dl_segment *s;
    DL_OK_(dl_segment_create(m.a.origin, count, rt.t, &s));
    memset(parts, 0, xs);
    for (size_t i = 0; i + 1 < nc; i++) {
      size_t a = cuts[order[i]], b = cuts[order[i] + 1];
      DL_OK_(dl_segment_pack_external(X32, s, a, &b, parts + a));
      ck_assert_uint_eq(b, cuts[order[i] + 1]);
    }
    ck_assert_msg(memcmp(one, parts, xs) == 0,
                  "seed %llu: %s pack in pieces differs at byte %zu: %s",
                  (unsigned long long)seed, shuffle ? "shuffled" : "ordered",
                  first_diff(one, parts, xs), rt.desc);
    dl_segment_free(&s);
    if (!e.overlap) {
      /* unpack pieces of random external bytes; the one-shot result is
         the oracle (it is checked against the reference above). Out of
         order, more elements may be cut at once than a segment keeps (a
         cut long double is then rebuilt from memory, which is exact for
         every x87 value but not for extra precision): those get a stream
         of x87 values */
      bool x87 = false;
      for (size_t i = 0; i < e.n; i++)
        x87 = x87 || ref[e.runs[i].elem - 1].kind == R_X87;
      for (size_t i = 0; i < xs; i++)
        in[i] = shuffle && x87 ? one[i] : (char)rng_next(&r);
      pos = 0;
      DL_OK_(dl_unpack_external(X32, in, xs, &pos, m.a.origin, count, rt.t));
      DL_OK_(dl_segment_create(m.b.origin, count, rt.t, &s));
      for (size_t i = 0; i + 1 < nc; i++) {
        size_t a = cuts[order[i]], b = cuts[order[i] + 1];
        DL_OK_(dl_segment_unpack_external(X32, s, a, &b, in + a));
      }
      dl_segment_free(&s);
      ck_assert_msg(same_memory(&e, m.a.mem, m.b.mem, m.a.len, m.a.origin),
                    "seed %llu: %s unpack in pieces differs at byte %zu: %s",
                    (unsigned long long)seed, shuffle ? "shuffled" : "ordered",
                    first_diff(m.a.mem, m.b.mem, m.a.len), rt.desc);
    }
    shuffle ? shuffled++ : in_order++;
    free(cuts);
    free(order);
    free(one);
    free(parts);
    free(in);
    mem2_free(&m);
    free(e.runs);
    rtype_free(&rt);
  }
  printf("split_equals_oneshot: %ld in order, %ld shuffled\n", in_order, shuffled);
}
END_TEST

START_TEST(signatures)
{
  dl_type *I = dl_builtin(DL_INT32), *D = dl_builtin(DL_DOUBLE), *C = dl_builtin(DL_CHAR);
  dl_type *a, *t;
  /* homogeneous nesting is one run */
  DL_OK_(dl_type_vector(10, 3, 5, I, &a));
  DL_OK_(dl_type_contiguous(4, a, &t));
  ck_assert_int_eq(t->sig->basic, DL_INT32);
  ck_assert_int_eq(t->sig->reps, 120);
  dl_type_free(&t);
  /* a struct of ints and a vector of ints is one run too */
  dl_count bl[3] = {2, 1, 1};
  dl_aint dis[3] = {0, 8, 200};
  dl_type *ty[3] = {I, a, I};
  DL_OK_(dl_type_struct(3, bl, dis, ty, &t));
  ck_assert_int_eq(t->sig->basic, DL_INT32);
  ck_assert_int_eq(t->sig->reps, 33);
  dl_type_free(&t);
  dl_type_free(&a);
  /* mixed: a sequence, whose repeated member is one item of 2 copies */
  dl_type *ty2[3] = {I, D, C};
  dl_count bl2[3] = {1, 2, 3};
  DL_OK_(dl_type_struct(3, bl2, dis, ty2, &a));
  ck_assert_int_eq(a->sig->basic, DLI_SIG_SEQ);
  ck_assert_int_eq(a->sig->n, 3);
  ck_assert_int_eq(a->sig->xsize, 4 + 16 + 3);
  dl_type *ty3[2] = {a, a};
  dl_count bl3[2] = {1, 1};
  dl_aint dis3[2] = {0, 1000};
  DL_OK_(dl_type_struct(2, bl3, dis3, ty3, &t));
  ck_assert_int_eq(t->sig->basic, DLI_SIG_SEQ);
  ck_assert_int_eq(t->sig->reps, 2);
  ck_assert_int_eq(t->sig->n, 3);
  dl_type_free(&t);
  /* a type named twice around another is shared, not copied twice */
  dl_type *ty4[3] = {a, C, a};
  dl_count bl4[3] = {1, 1, 1};
  dl_aint dis4[3] = {0, 500, 1000};
  DL_OK_(dl_type_struct(3, bl4, dis4, ty4, &t));
  ck_assert_int_eq(t->sig->n, 3);
  ck_assert_ptr_eq(t->sig->items[0], t->sig->items[2]);
  dl_type_free(&t);
  dl_type_free(&a);
  /* dense structs nested 20 deep, each naming the last twice, share all
     the way down: the type stays small (a level adds a node, not a copy;
     copies would be 2^20), and converts */
  dl_type *cur;
  {
    dl_type *tyc[2] = {C, dl_builtin(DL_C_BOOL)};
    dl_count blc[2] = {1, 1};
    dl_aint disc[2] = {0, 1};
    DL_OK_(dl_type_struct(2, blc, disc, tyc, &cur));
  }
  for (int k = 0; k < 20; k++) {
    dl_count size;
    dl_type_size(cur, &size);
    dl_type *tyk[3] = {cur, dl_builtin(DL_INT8), cur}, *next;
    dl_count blk[3] = {1, 1, 1};
    dl_aint disk[3] = {0, size, size + 1};
    DL_OK_(dl_type_struct(3, blk, disk, tyk, &next));
    dl_type_free(&cur);
    cur = next;
  }
  ck_assert_ptr_nonnull(cur->sig);
  ck_assert_int_eq(cur->sig->depth, 22);
  ck_assert_uint_lt(cur->loop_bytes, 4096);
  DL_OK_(dl_type_commit(cur));
  size_t xs;
  DL_OK_(dl_pack_external_size(X32, 1, cur, &xs));
  dl_count ns;
  dl_type_size(cur, &ns);
  ck_assert_uint_eq(xs, (size_t)ns);        /* bytes all the way */
  char *mem = malloc((size_t)ns), *x = malloc(xs);
  for (dl_count i = 0; i < ns; i++)
    mem[i] = (char)i;
  size_t pos = 0;
  DL_OK_(dl_pack_external(X32, mem, 1, cur, x, xs, &pos));
  ck_assert_mem_eq(x, mem, xs);
  free(mem);
  free(x);
  /* past DLI_SIG_MAX_DEPTH the signature is dropped: native only */
  for (int k = 0; k < DLI_SIG_MAX_DEPTH; k++) {
    dl_count size;
    dl_type_size(cur, &size);
    dl_type *tyk[2] = {cur, D}, *next;
    dl_count blk[2] = {1, 1};
    dl_aint disk[2] = {0, size + 7};
    DL_OK_(dl_type_struct(2, blk, disk, tyk, &next));
    dl_type_free(&cur);
    cur = next;
  }
  ck_assert_ptr_null(cur->sig);
  DL_OK_(dl_type_commit(cur));
  ck_assert_int_eq(dl_pack_external_size(X32, 1, cur, &xs), DL_ERR_UNSUPPORTED);
  dl_type_free(&cur);
}
END_TEST

START_TEST(deserialized)
{
  /* the serialized form holds loops, not element types: a derived type
     read back is refused external32; a predefined one keeps its type */
  dl_type *t, *u;
  DL_OK_(dl_type_vector(3, 1, 2, dl_builtin(DL_INT32), &t));
  DL_OK_(dl_type_commit(t));
  size_t need;
  ck_assert_int_eq(dl_type_serialize(t, NULL, 0, &need), DL_ERR_TRUNCATE);
  char *buf = malloc(need);
  DL_OK_(dl_type_serialize(t, buf, need, &need));
  DL_OK_(dl_type_deserialize(buf, need, &u));
  size_t xs, pos = 0;
  char out[64];
  int in[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_int_eq(dl_pack_external_size(X32, 1, u, &xs), DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_pack_external(X32, in, 1, u, out, sizeof(out), &pos),
                   DL_ERR_UNSUPPORTED);
  ck_assert_uint_eq(pos, 0);
  DL_OK_(dl_pack(in, 1, u, out, sizeof(out), &pos));    /* native still works */
  dl_type_free(&u);
  free(buf);
  dl_type_free(&t);
  dl_type *L = dl_builtin(DL_LONG);
  ck_assert_int_eq(dl_type_serialize(L, NULL, 0, &need), DL_ERR_TRUNCATE);
  buf = malloc(need);
  DL_OK_(dl_type_serialize(L, buf, need, &need));
  DL_OK_(dl_type_deserialize(buf, need, &u));
  DL_OK_(dl_pack_external_size(X32, 3, u, &xs));
  ck_assert_uint_eq(xs, 12);
  dl_type_free(&u);
  free(buf);
}
END_TEST

START_TEST(errors)
{
  dl_type *I = dl_builtin(DL_INT32), *t;
  int in[4] = {1, 2, 3, 4}, back[4];
  unsigned char out[32];
  size_t pos = 0, size;
  ck_assert_int_eq(dl_pack_external_size("native", 1, I, &size), DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_pack_external_size("EXTERNAL32", 1, I, &size), DL_ERR_UNSUPPORTED);
  ck_assert_msg(strstr(dl_last_error_detail(), "\"EXTERNAL32\" is not supported"),
                "detail: %s", dl_last_error_detail());
  ck_assert_int_eq(dl_pack_external_size(NULL, 1, I, &size), DL_ERR_ARG);
  ck_assert_str_eq(dl_last_error_detail(), "NULL data representation");
  /* NULL means absolute addresses: refused where the data would lie in
     the first page, nothing written */
  memset(out, 0x55, sizeof(out));
  ck_assert_int_eq(dl_pack_external(X32, NULL, 1, I, out, 32, &pos), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "dl_pack_external: NULL buffer"));
  ck_assert(pos == 0 && out[0] == 0x55);
  ck_assert_int_eq(dl_unpack_external(X32, out, 32, &pos, NULL, 1, I), DL_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(dl_last_error_detail(), "dl_unpack_external: NULL buffer"));
  ck_assert_uint_eq(pos, 0);
  dl_aint abs_d = (dl_aint)(uintptr_t)in;
  dl_count one = 1;
  dl_type *abs_t;
  ck_assert_int_eq(dl_type_hindexed(1, &one, &abs_d, I, &abs_t), DL_OK);
  ck_assert_int_eq(dl_type_commit(abs_t), DL_OK);
  ck_assert_int_eq(dl_pack_external(X32, NULL, 1, abs_t, out, 32, &pos), DL_OK);
  ck_assert(pos == 4 && memcmp(out, "\0\0\0\1", 4) == 0);
  dl_type_free(&abs_t);
  pos = 0;
  ck_assert_int_eq(dl_pack_external_size(X32, -1, I, &size), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_external_size(X32, 1, NULL, &size), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_external_size(X32, 1, I, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_external_size(X32, INT64_MAX / 2, I, &size), DL_ERR_OVERFLOW);
  ck_assert_int_eq(dl_pack_external("external", in, 1, I, out, 32, &pos), DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_unpack_external("internal", out, 32, &pos, back, 1, I),
                   DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_pack_external(X32, in, 1, I, out, 32, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_external(X32, in, -1, I, out, 32, &pos), DL_ERR_ARG);
  ck_assert_int_eq(dl_pack_external(X32, in, 1, I, NULL, 32, &pos), DL_ERR_ARG);
  pos = 33;
  ck_assert_int_eq(dl_pack_external(X32, in, 1, I, out, 32, &pos), DL_ERR_ARG);
  ck_assert_uint_eq(pos, 33);
  pos = 0;
  ck_assert_int_eq(dl_unpack_external(X32, NULL, 4, &pos, back, 1, I), DL_ERR_ARG);
  /* uncommitted */
  DL_OK_(dl_type_contiguous(4, I, &t));
  ck_assert_int_eq(dl_pack_external(X32, in, 1, t, out, 32, &pos), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(dl_unpack_external(X32, out, 32, &pos, back, 1, t), DL_ERR_NOT_COMMITTED);
  DL_OK_(dl_type_commit(t));
  /* a short output: what fits, nothing past it, DL_ERR_TRUNCATE */
  for (size_t room = 0; room < 16; room++) {
    memset(out, 0xee, sizeof(out));
    pos = 0;
    ck_assert_int_eq(dl_pack_external(X32, in, 1, t, out, room, &pos), DL_ERR_TRUNCATE);
    ck_assert_uint_eq(pos, room);
    for (size_t i = 0; i < room; i++)
      ck_assert_int_eq(out[i], (i % 4 == 3) ? i / 4 + 1 : 0);
    for (size_t i = room; i < sizeof(out); i++)
      ck_assert_int_eq(out[i], 0xee);
  }
  /* a short input: what came is unpacked (a cut element keeps memory's
     other bytes), nothing else touched */
  pos = 0;
  DL_OK_(dl_pack_external(X32, in, 1, t, out, 16, &pos));
  for (size_t have = 0; have < 16; have++) {
    int got[5] = {-1, -1, -1, -1, -1};
    pos = 0;
    ck_assert_int_eq(dl_unpack_external(X32, out, have, &pos, got, 1, t),
                     DL_ERR_TRUNCATE);
    ck_assert_uint_eq(pos, have);
    for (size_t k = 0; k < have / 4; k++)
      ck_assert_int_eq(got[k], in[k]);
    ck_assert_int_eq(got[4], -1);
    for (size_t k = (have + 3) / 4; k < 4; k++)
      ck_assert_int_eq(got[k], -1);
  }
  /* segments: range checks and clipping */
  dl_segment *s;
  DL_OK_(dl_segment_create(in, 1, t, &s));
  size_t last = 100;
  DL_OK_(dl_segment_pack_external(X32, s, 4, &last, out));
  ck_assert_uint_eq(last, 16);
  last = 3;
  ck_assert_int_eq(dl_segment_pack_external(X32, s, 4, &last, out), DL_ERR_ARG);
  last = 20;
  ck_assert_int_eq(dl_segment_pack_external(X32, s, 17, &last, out), DL_ERR_ARG);
  last = 8;
  ck_assert_int_eq(dl_segment_pack_external(X32, s, 0, &last, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_segment_pack_external("x", s, 0, &last, out), DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_segment_unpack_external(X32, NULL, 0, &last, out), DL_ERR_ARG);
  last = 16;
  DL_OK_(dl_segment_pack_external(X32, s, 16, &last, NULL));   /* empty range */
  dl_segment_free(&s);
  /* a bounded segment refuses an element outside its bounds, untouched */
  DL_OK_(dl_segment_create_bounded(in, 1, t, 0, 12, &s));
  memset(out, 0xee, sizeof(out));
  last = 16;
  ck_assert_int_eq(dl_segment_pack_external(X32, s, 0, &last, out), DL_ERR_BOUNDS);
  last = 12;
  DL_OK_(dl_segment_pack_external(X32, s, 0, &last, out));
  dl_segment_free(&s);
  dl_type_free(&t);
}
END_TEST

/* the external32 stream of a type large enough for many chunks, with
   longs shrinking, cut at every kind of place */
START_TEST(large_and_shrinking)
{
  dl_count n = 100000;
  long *v = malloc((size_t)n * 2 * sizeof(long));
  for (dl_count i = 0; i < 2 * n; i++)
    v[i] = (long)(int32_t)(uint32_t)(i * 2654435761u);
  dl_type *t;
  DL_OK_(dl_type_vector(n, 1, 2, dl_builtin(DL_LONG), &t));
  DL_OK_(dl_type_commit(t));
  size_t xs, pos = 0;
  DL_OK_(dl_pack_external_size(X32, 1, t, &xs));
  ck_assert_uint_eq(xs, (size_t)n * 4);
  unsigned char *x = malloc(xs);
  DL_OK_(dl_pack_external(X32, v, 1, t, x, xs, &pos));
  for (dl_count i = 0; i < n; i++) {
    uint32_t w = (uint32_t)v[2 * i];
    unsigned char want[4] = {(unsigned char)(w >> 24), (unsigned char)(w >> 16),
                             (unsigned char)(w >> 8), (unsigned char)w};
    ck_assert_mem_eq(x + 4 * i, want, 4);
  }
  long *back = calloc((size_t)n * 2, sizeof(long));
  dl_segment *s;
  DL_OK_(dl_segment_create(back, 1, t, &s));
  for (size_t at = 0; at < xs;) {           /* chunks that cut elements */
    size_t last = at + 4093 < xs ? at + 4093 : xs;
    DL_OK_(dl_segment_unpack_external(X32, s, at, &last, x + at));
    at = last;
  }
  dl_segment_free(&s);
  for (dl_count i = 0; i < n; i++) {
    ck_assert_int_eq(back[2 * i], v[2 * i]);
    ck_assert_int_eq(back[2 * i + 1], 0);
  }
  free(back);
  free(x);
  free(v);
  dl_type_free(&t);
}
END_TEST

/* a long double element cut inside its low bytes, delivered in order and in
   reverse: what was sent is kept until the element is whole, so the result
   is the one-shot result even for a quad x87 must round */
START_TEST(cut_long_double)
{
  unsigned char q[32];
  rng r = {seed ^ 0x71ull};
  dl_type *t;
  DL_OK_(dl_type_contiguous(2, dl_builtin(DL_LONG_DOUBLE), &t));
  DL_OK_(dl_type_commit(t));
  for (int it = 0; it < 200; it++) {
    for (int i = 0; i < 32; i++)
      q[i] = (unsigned char)rng_next(&r);
    q[0] &= 0x7f;
    q[1] = (unsigned char)rng_range(&r, 0, 255);
    long double one[2], parts[2];
    memset(one, 0, sizeof(one));
    memset(parts, 0x33, sizeof(parts));
    size_t pos = 0;
    DL_OK_(dl_unpack_external(X32, q, 32, &pos, one, 1, t));
    dl_segment *s;
    DL_OK_(dl_segment_create(parts, 1, t, &s));
    size_t c1 = (size_t)rng_range(&r, 1, 15), c2 = (size_t)rng_range(&r, 17, 31);
    size_t cuts[4] = {0, c1, c2, 32};
    for (int k = 0; k < 3; k++) {
      int i = it % 2 ? 2 - k : k;           /* forwards or backwards */
      size_t last = cuts[i + 1];
      DL_OK_(dl_segment_unpack_external(X32, s, cuts[i], &last, q + cuts[i]));
    }
    dl_segment_free(&s);
    ck_assert_mem_eq(one, parts, 10);
    ck_assert_mem_eq((char *)one + 16, (char *)parts + 16, 10);
  }
  dl_type_free(&t);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
    return EXIT_FAILURE;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, golden);
  tcase_add_test(tc, signatures);
  tcase_add_test(tc, errors);
  tcase_add_test(tc, deserialized);
  tcase_add_test(tc, random_vs_reference);
  tcase_add_test(tc, random_vs_mpich);
  tcase_add_test(tc, roundtrip);
  tcase_add_test(tc, split_equals_oneshot);
  tcase_add_test(tc, large_and_shrinking);
  tcase_add_test(tc, cut_long_double);
  int rc = test_run("external32", tc, false);
  MPI_Finalize();
  return rc;
}
