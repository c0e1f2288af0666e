/* dl_type_from_mpi: every predefined type against MPICH, and thousands of
 * random types built with MPI constructors decoded back into the type
 * dataloop's own constructors build from the same recipe, at the bounds
 * MPICH reports for every level; caching (on the type, and by structure
 * across types), dup, free and errors. A plain single-process MPI program. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "dataloop-mpi.h"
#include "buffers.h"
#include "mpi_recipe.h"
#include "randtype.h"
#include "runner.h"

static uint64_t seed;

static const struct { MPI_Datatype t; const char *name; } named[] = {
  {MPI_CHAR, "CHAR"}, {MPI_SIGNED_CHAR, "SIGNED_CHAR"},
  {MPI_UNSIGNED_CHAR, "UNSIGNED_CHAR"}, {MPI_BYTE, "BYTE"}, {MPI_WCHAR, "WCHAR"},
  {MPI_SHORT, "SHORT"}, {MPI_UNSIGNED_SHORT, "UNSIGNED_SHORT"}, {MPI_INT, "INT"},
  {MPI_UNSIGNED, "UNSIGNED"}, {MPI_LONG, "LONG"}, {MPI_UNSIGNED_LONG, "UNSIGNED_LONG"},
  {MPI_LONG_LONG_INT, "LONG_LONG_INT"}, {MPI_UNSIGNED_LONG_LONG, "UNSIGNED_LONG_LONG"},
  {MPI_FLOAT, "FLOAT"}, {MPI_DOUBLE, "DOUBLE"}, {MPI_LONG_DOUBLE, "LONG_DOUBLE"},
  {MPI_PACKED, "PACKED"}, {MPI_C_BOOL, "C_BOOL"}, {MPI_INT8_T, "INT8_T"},
  {MPI_INT16_T, "INT16_T"}, {MPI_INT32_T, "INT32_T"}, {MPI_INT64_T, "INT64_T"},
  {MPI_UINT8_T, "UINT8_T"}, {MPI_UINT16_T, "UINT16_T"}, {MPI_UINT32_T, "UINT32_T"},
  {MPI_UINT64_T, "UINT64_T"}, {MPI_C_FLOAT_COMPLEX, "C_FLOAT_COMPLEX"},
  {MPI_C_DOUBLE_COMPLEX, "C_DOUBLE_COMPLEX"},
  {MPI_C_LONG_DOUBLE_COMPLEX, "C_LONG_DOUBLE_COMPLEX"}, {MPI_AINT, "AINT"},
  {MPI_OFFSET, "OFFSET"}, {MPI_COUNT, "COUNT"}, {MPI_CXX_BOOL, "CXX_BOOL"},
  {MPI_CXX_FLOAT_COMPLEX, "CXX_FLOAT_COMPLEX"},
  {MPI_CXX_DOUBLE_COMPLEX, "CXX_DOUBLE_COMPLEX"},
  {MPI_CXX_LONG_DOUBLE_COMPLEX, "CXX_LONG_DOUBLE_COMPLEX"},
  {MPI_CHARACTER, "CHARACTER"}, {MPI_LOGICAL, "LOGICAL"}, {MPI_INTEGER, "INTEGER"},
  {MPI_REAL, "REAL"}, {MPI_DOUBLE_PRECISION, "DOUBLE_PRECISION"},
  {MPI_COMPLEX, "COMPLEX"}, {MPI_DOUBLE_COMPLEX, "DOUBLE_COMPLEX"},
  {MPI_INTEGER1, "INTEGER1"}, {MPI_INTEGER2, "INTEGER2"}, {MPI_INTEGER4, "INTEGER4"},
  {MPI_INTEGER8, "INTEGER8"}, {MPI_REAL4, "REAL4"}, {MPI_REAL8, "REAL8"},
  {MPI_REAL16, "REAL16"}, {MPI_COMPLEX8, "COMPLEX8"}, {MPI_COMPLEX16, "COMPLEX16"},
  {MPI_COMPLEX32, "COMPLEX32"},
  {MPI_FLOAT_INT, "FLOAT_INT"}, {MPI_DOUBLE_INT, "DOUBLE_INT"},
  {MPI_LONG_INT, "LONG_INT"}, {MPI_SHORT_INT, "SHORT_INT"}, {MPI_2INT, "2INT"},
  {MPI_LONG_DOUBLE_INT, "LONG_DOUBLE_INT"}, {MPI_2INTEGER, "2INTEGER"},
  {MPI_2REAL, "2REAL"}, {MPI_2DOUBLE_PRECISION, "2DOUBLE_PRECISION"},
};

/* dl_pack against MPI_Pack on the same data: bytes MPICH leaves unwritten
   (it skips long double padding) are those that differ between two
   MPI_Pack calls into buffers filled differently, and are not compared */
static void same_as_mpich(MPI_Datatype mt, dl_type *dt, int count, const char *what)
{
  MPI_Aint lb, ext, tlb, text;
  MPI_Type_get_extent(mt, &lb, &ext);
  MPI_Type_get_true_extent(mt, &tlb, &text);
  size_t span = (size_t)((count - 1) * ext + text) + 64;
  char *in = malloc(span), *a = malloc(span), *b = malloc(span), *got = malloc(span);
  for (size_t i = 0; i < span; i++)
    in[i] = (char)(i * 131 + 7);
  int size;
  MPI_Pack_size(count, mt, MPI_COMM_SELF, &size);
  memset(a, 0x11, span);
  memset(b, 0x22, span);
  int pa = 0, pb = 0;
  char *origin = in + 32 - tlb;
  MPI_Pack(origin, count, mt, a, size, &pa, MPI_COMM_SELF);
  MPI_Pack(origin, count, mt, b, size, &pb, MPI_COMM_SELF);
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(origin, count, dt, got, span, &pos), DL_OK);
  ck_assert_msg((size_t)pa == pos, "%s: packed %zu, MPICH %d", what, pos, pa);
  for (int i = 0; i < pa; i++)
    if (a[i] == b[i])
      ck_assert_msg(a[i] == got[i], "%s: byte %d differs from MPI_Pack", what, i);
  free(in);
  free(a);
  free(b);
  free(got);
}

START_TEST(named_types)
{
  for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
    if (named[i].t == MPI_DATATYPE_NULL)
      continue;               /* not supported by this MPICH build */
    dl_type *t = NULL;
    ck_assert_msg(dl_type_from_mpi(named[i].t, &t) == DL_OK && t, "%s", named[i].name);
    MPI_Count msize;
    MPI_Count mlb, mext, mtlb, mtext;
    MPI_Type_size_c(named[i].t, &msize);
    MPI_Type_get_extent_c(named[i].t, &mlb, &mext);
    MPI_Type_get_true_extent_c(named[i].t, &mtlb, &mtext);
    dl_count size;
    dl_aint lb, ext, tlb, text;
    dl_type_size(t, &size);
    dl_type_extent(t, &lb, &ext);
    dl_type_true_extent(t, &tlb, &text);
    ck_assert_msg(size == msize && lb == mlb && ext == mext && tlb == mtlb &&
                  text == mtext, "%s: bounds %lld/%lld/%lld/%lld/%lld, MPICH "
                  "%lld/%lld/%lld/%lld/%lld", named[i].name, (long long)size,
                  (long long)lb, (long long)ext, (long long)tlb, (long long)text,
                  (long long)msize, (long long)mlb, (long long)mext, (long long)mtlb,
                  (long long)mtext);
    same_as_mpich(named[i].t, t, 3, named[i].name);
    dl_type *again;
    ck_assert_int_eq(dl_type_from_mpi(named[i].t, &again), DL_OK);
    ck_assert_ptr_eq(t, again);
  }
}
END_TEST

/* random types built with MPI constructors decode to the type dataloop's
   constructors build from the same recipe, except that every level takes
   the bounds MPICH reports for it (doc/mpi.md): the bytes of the host
   model (recipe_host) always, the standard type's bounds and bytes where
   MPICH's rules agree with the standard; half the types are drawn where
   they do not */
START_TEST(random_decode)
{
  rng r = {seed};
  int n = test_scaled(3000);
  long deviating = 0;
  for (int it = 0; it < n; it++) {
    rtype rt;
    int depth = (int)rng_range(&r, 1, 6);
    ck_assert_int_eq(it % 2 ? rtype_gen_deviant(&r, depth, NULL, 0, &rt)
                            : rtype_gen(&r, depth, &rt, NULL), 0);
    MPI_Datatype mt;
    model *host;
    ck_assert_int_eq(recipe_host(rt.rc, &mt, &host), MPI_SUCCESS);
    bool derived = rt.rc->kind != RT_BUILTIN;
    if (derived)
      MPI_Type_commit(&mt);
    dl_type *t;
    ck_assert_msg(dl_type_from_mpi(mt, &t) == DL_OK, "seed %llu: %s",
                  (unsigned long long)seed, rt.desc);
    bool standard = recipe_mpich_deviates(rt.rc) == 0;
    deviating += !standard;
    dl_count s1, s2;
    dl_aint a1, b1, a2, b2, c1, d1, c2, d2;
    MPI_Count mlb, mext;
    MPI_Type_get_extent_c(mt, &mlb, &mext);
    dl_type_size(t, &s1);
    dl_type_size(rt.t, &s2);
    dl_type_extent(t, &a1, &b1);
    dl_type_extent(rt.t, &a2, &b2);
    dl_type_true_extent(t, &c1, &d1);
    dl_type_true_extent(rt.t, &c2, &d2);
    ck_assert_msg(s1 == s2 && a1 == mlb && b1 == mext && a1 == host->lb &&
                  b1 == model_extent(host), "seed %llu: bounds differ from MPICH's "
                  "for %s", (unsigned long long)seed, rt.desc);
    ck_assert_msg(!standard || (a1 == a2 && b1 == b2 && c1 == c2 && d1 == d2),
                  "seed %llu: bounds differ for %s", (unsigned long long)seed, rt.desc);
    dl_count count = rng_range(&r, 0, 5);
    mrun *runs;
    size_t nruns;
    model_bytemap(host, count, &runs, &nruns);
    size_t size = runs_bytes(runs, nruns);
    tbuf mem;
    tbuf_for(runs, nruns, &mem, rng_next(&r));
    char *p1 = malloc(size + 1), *p2 = malloc(size + 1), *want = malloc(size + 1);
    model_pack(runs, nruns, mem.origin, want);
    size_t q1 = 0, q2 = 0;
    ck_assert_int_eq(dl_pack(mem.origin, count, t, p1, size, &q1), DL_OK);
    ck_assert_msg(q1 == size && memcmp(p1, want, size) == 0,
                  "seed %llu: bytes differ from the host model for %s, count %d",
                  (unsigned long long)seed, rt.desc, (int)count);
    if (standard) {
      ck_assert_int_eq(dl_pack(mem.origin, count, rt.t, p2, size, &q2), DL_OK);
      ck_assert_msg(q2 == size && memcmp(p1, p2, size) == 0,
                    "seed %llu: bytes differ for %s", (unsigned long long)seed, rt.desc);
    }
    dl_type *again;
    ck_assert_int_eq(dl_type_from_mpi(mt, &again), DL_OK);
    ck_assert_ptr_eq(t, again);         /* cached */
    free(p1);
    free(p2);
    free(want);
    free(runs);
    tbuf_free(&mem);
    model_free(host);
    if (derived)
      MPI_Type_free(&mt);               /* the delete callback frees t */
    rtype_free(&rt);
  }
  if (n >= 1000)
    ck_assert_int_gt(deviating, n / 20);
}
END_TEST

/* a type made again from the same constructors and arguments decodes to
   the same dataloop type, kept by its structure; one differing anywhere
   does not; the bytes stay the host model's */
START_TEST(shared_by_structure)
{
  rng r = {seed ^ 0x5eed};
  int n = test_scaled(400), shared = 0, derived_n = 0;
  for (int it = 0; it < n; it++) {
    rtype rt;
    ck_assert_int_eq(rtype_gen(&r, (int)rng_range(&r, 1, 4), &rt, NULL), 0);
    MPI_Datatype a, b;
    model *host;
    ck_assert_int_eq(recipe_host(rt.rc, &a, &host), MPI_SUCCESS);
    if (rt.rc->kind == RT_BUILTIN) {
      model_free(host);
      rtype_free(&rt);
      continue;
    }
    derived_n++;
    MPI_Type_commit(&a);
    dl_type *ta, *tb;
    ck_assert_int_eq(dl_type_from_mpi(a, &ta), DL_OK);
    /* both alive: two types, one decoded form (without the structure's
       key they would be two allocations) */
    ck_assert_int_eq(recipe_build_mpi(rt.rc, &b), MPI_SUCCESS);
    MPI_Type_commit(&b);
    ck_assert_int_eq(dl_type_from_mpi(b, &tb), DL_OK);
    shared += ta == tb;
    MPI_Type_free(&a);
    dl_count count = rng_range(&r, 1, 3);
    mrun *runs;
    size_t nruns;
    model_bytemap(host, count, &runs, &nruns);
    size_t size = runs_bytes(runs, nruns), q = 0;
    tbuf mem;
    tbuf_for(runs, nruns, &mem, rng_next(&r));
    char *got = malloc(size + 1), *want = malloc(size + 1);
    model_pack(runs, nruns, mem.origin, want);
    ck_assert_int_eq(dl_pack(mem.origin, count, tb, got, size, &q), DL_OK);
    ck_assert_msg(q == size && memcmp(got, want, size) == 0, "seed %llu: the type made "
                  "again packs otherwise: %s", (unsigned long long)seed, rt.desc);
    free(got);
    free(want);
    free(runs);
    tbuf_free(&mem);
    MPI_Type_free(&b);
    model_free(host);
    rtype_free(&rt);
  }
  /* keys past DLI_SHAPE_MAX_KEY words (long index lists) are not kept */
  ck_assert_msg(shared >= derived_n * 9 / 10, "%d of %d types made again shared their "
                "decoded form", shared, derived_n);
  /* alike but for one argument, or one predefined type: not shared */
  MPI_Datatype v[4];
  dl_type *t[4];
  MPI_Type_vector(3, 1, 2, MPI_INT, &v[0]);
  MPI_Type_vector(3, 1, 3, MPI_INT, &v[1]);
  MPI_Type_vector(3, 1, 2, MPI_FLOAT, &v[2]);
  MPI_Type_contiguous(2, v[0], &v[3]);
  for (int i = 0; i < 4; i++) {
    MPI_Type_commit(&v[i]);
    ck_assert_int_eq(dl_type_from_mpi(v[i], &t[i]), DL_OK);
  }
  ck_assert(t[0] != t[1] && t[0] != t[2] && t[1] != t[2] && t[3] != t[0]);
  for (int i = 0; i < 4; i++)
    MPI_Type_free(&v[i]);
}
END_TEST

START_TEST(int_forms_dup_and_f90)
{
  /* the MPI-3 (int) constructors store their arguments differently */
  MPI_Datatype v, h, ix, s, sub, dar, dup, res;
  MPI_Type_vector(3, 2, 5, MPI_INT, &v);
  MPI_Type_create_hvector(2, 1, 100, v, &h);
  int bl[2] = {1, 2}, d[2] = {0, 9};
  MPI_Type_indexed(2, bl, d, h, &ix);
  MPI_Aint ad[2] = {0, 2000};
  MPI_Datatype ty[2] = {ix, MPI_DOUBLE};
  MPI_Type_create_struct(2, bl, ad, ty, &s);
  int sz[2] = {4, 5}, ss[2] = {2, 3}, st[2] = {1, 2};
  MPI_Type_create_subarray(2, sz, ss, st, MPI_ORDER_FORTRAN, s, &sub);
  int g[2] = {4, 6}, di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
  int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
  MPI_Type_create_darray(4, 3, 2, g, di, da, ps, MPI_ORDER_C, MPI_FLOAT, &dar);
  MPI_Type_create_resized(sub, -8, 100000, &res);
  MPI_Type_dup(res, &dup);
  MPI_Datatype all[] = {v, h, ix, s, sub, dar, res, dup};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
    MPI_Type_commit(&all[i]);
    dl_type *t;
    ck_assert_int_eq(dl_type_from_mpi(all[i], &t), DL_OK);
    MPI_Count msize, mlb, mext;
    MPI_Type_size_c(all[i], &msize);
    MPI_Type_get_extent_c(all[i], &mlb, &mext);
    dl_count size;
    dl_aint lb, ext;
    dl_type_size(t, &size);
    dl_type_extent(t, &lb, &ext);
    ck_assert_int_eq(size, msize);
    ck_assert_int_eq(lb, mlb);
    ck_assert_int_eq(ext, mext);
    same_as_mpich(all[i], t, 2, "int form");
  }
  /* freeing the original keeps the duplicate's own cached type valid */
  MPI_Type_free(&all[6]);
  dl_type *t;
  ck_assert_int_eq(dl_type_from_mpi(all[7], &t), DL_OK);
  same_as_mpich(all[7], t, 1, "dup after free");
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
    if (i != 6)
      MPI_Type_free(&all[i]);
  /* parameterized Fortran 90 types */
  MPI_Datatype f;
  if (MPI_Type_create_f90_real(6, 30, &f) == MPI_SUCCESS) {
    ck_assert_int_eq(dl_type_from_mpi(f, &t), DL_OK);
    same_as_mpich(f, t, 4, "f90 real");
  }
  if (MPI_Type_create_f90_integer(9, &f) == MPI_SUCCESS) {
    ck_assert_int_eq(dl_type_from_mpi(f, &t), DL_OK);
    same_as_mpich(f, t, 4, "f90 integer");
  }
}
END_TEST

START_TEST(errors)
{
  dl_type *t = (dl_type *)1;
  ck_assert_int_eq(dl_type_from_mpi(MPI_INT, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_from_mpi(MPI_DATATYPE_NULL, &t), DL_ERR_ARG);
  ck_assert_ptr_null(t);
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, named_types);
  tcase_add_test(tc, random_decode);
  tcase_add_test(tc, shared_by_structure);
  tcase_add_test(tc, int_forms_dup_and_f90);
  tcase_add_test(tc, errors);
  int rc = test_run("bridge", tc, true);
  MPI_Finalize();
  return rc;
}
