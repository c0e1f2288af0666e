/* The interposer's MPI_Pack, MPI_Unpack and MPI_Pack_size (and _c forms),
 * tested from a plain MPI program that knows nothing of dataloop: run by
 * test/preload.sh once with libdataloop-mpi-preload.so preloaded and once
 * without (DL_EXPECT_PRELOAD=1 or 0 says which; a silently unloaded
 * interposer fails). The same assertions hold on both runs except where
 * MPICH departs from the standard, which is pinned for the plain run.
 *
 * Random types built with MPI constructors: MPI_Pack must give the typemap
 * model's bytes always, and PMPI_Pack's (MPICH's own) wherever MPICH is
 * right; likewise MPI_Unpack. A single-process program (singleton init). */
#include <check.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wchar.h>
#include "buffers.h"
#include "model.h"
#include "mpi_recipe.h"
#include "randtype.h"
#include "runner.h"

#define MPI_OK(call) ck_assert_int_eq((call), MPI_SUCCESS)

static uint64_t seed;
static bool preloaded;   /* the interposer is in this process */

static int cls(int code)
{
  int c;
  MPI_Error_class(code, &c);
  return c;
}

START_TEST(interposer_loaded)
{
  const char *want = getenv("DL_EXPECT_PRELOAD");
  if (want && strcmp(want, "1") == 0) {
    ck_assert_msg(preloaded, "DL_EXPECT_PRELOAD=1 but the interposer is not loaded");
    int (*active)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "dl_preload_active");
    ck_assert_int_eq(active(), 1);
  } else if (want && strcmp(want, "0") == 0) {
    ck_assert_msg(!preloaded, "DL_EXPECT_PRELOAD=0 but the interposer is loaded");
  }
}
END_TEST

/* dl_preload_counts: each interposed MPI_Pack, MPI_Unpack and external32
   call counts once (a size query does not); the plain run has no counts */
START_TEST(counts)
{
  int (*get)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_counts");
  ck_assert(preloaded == (get != NULL));
  if (!get)
    return;
  unsigned long long a[4], b[4];
  ck_assert_int_eq(get(a, 4), 8);
  MPI_Datatype v;
  MPI_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
  MPI_OK(MPI_Type_commit(&v));
  int in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0}, size;
  char buf[64];
  int pos = 0;
  MPI_Aint xpos = 0;
  MPI_OK(MPI_Pack_size(1, v, MPI_COMM_SELF, &size));
  MPI_OK(MPI_Pack(in, 1, v, buf, sizeof(buf), &pos, MPI_COMM_SELF));
  MPI_OK(MPI_Pack_external("external32", in, 1, v, buf + 32, 32, &xpos));
  pos = 0;
  MPI_OK(MPI_Unpack(buf, sizeof(buf), &pos, out, 1, v, MPI_COMM_SELF));
  ck_assert_int_eq(get(b, 4), 8);
  ck_assert(b[0] == a[0] + 2 && b[1] == a[1] + 1 && b[2] == a[2] && b[3] == a[3]);
  ck_assert(out[0] == 1 && out[2] == 3 && out[4] == 5);
  unsigned long long one;
  ck_assert_int_eq(get(&one, 1), 8);             /* a shorter array is filled */
  ck_assert(one == b[0]);
  MPI_OK(MPI_Type_free(&v));
}
END_TEST

/* MPI_Pack at a random position, against the model and (when MPICH is
   right) against PMPI_Pack; bytes MPICH leaves unwritten (long double
   padding) are those that differ between two PMPI_Pack calls into
   differently filled buffers */
static void pack_case(const rtype *rt, MPI_Datatype mt, bool with_mpich, int count,
                      bool large, rng *r)
{
  mrun *runs;
  size_t nruns;
  ck_assert_int_eq(model_bytemap(rt->m, count, &runs, &nruns), 0);
  size_t size = runs_bytes(runs, nruns), at = (size_t)rng_range(r, 0, 7);
  size_t out = at + size;
  tbuf in;
  tbuf_for(runs, nruns, &in, rng_next(r));
  char *want = malloc(out + 1), *got = malloc(out + 1);
  char *m1 = malloc(out + 1), *m2 = malloc(out + 1);
  memset(want, 0x3c, out);
  model_pack(runs, nruns, in.origin, want + at);
  memcpy(got, want, at);
  int ps;
  MPI_Count psc;
  MPI_OK(MPI_Pack_size(count, mt, MPI_COMM_SELF, &ps));
  MPI_OK(MPI_Pack_size_c(count, mt, MPI_COMM_SELF, &psc));
  ck_assert_msg((size_t)ps == size && (size_t)psc == size, "seed %llu: pack size %d "
                "(_c %lld), model %zu: %s", (unsigned long long)seed, ps,
                (long long)psc, size, rt->desc);
  int pos = (int)at;
  MPI_Count cpos = (MPI_Count)at;
  if (large)
    MPI_OK(MPI_Pack_c(in.origin, count, mt, got, (MPI_Count)out, &cpos, MPI_COMM_SELF));
  else
    MPI_OK(MPI_Pack(in.origin, count, mt, got, (int)out, &pos, MPI_COMM_SELF));
  size_t end = large ? (size_t)cpos : (size_t)pos;
  ck_assert_msg(end == out, "seed %llu: MPI_Pack%s position %zu, expected %zu: %s",
                (unsigned long long)seed, large ? "_c" : "", end, out, rt->desc);
  for (size_t i = at; i < out; i++)
    ck_assert_msg(got[i] == want[i] || (!preloaded && recipe_has_long_double(rt->rc)),
                  "seed %llu: MPI_Pack%s byte %zu differs from the model: count "
                  "%d, %s", (unsigned long long)seed, large ? "_c" : "", i - at,
                  count, rt->desc);
  if (with_mpich) {
    int p1 = (int)at, p2 = (int)at;
    for (size_t i = 0; i < out; i++) {
      m1[i] = (char)(i * 131 + 7);
      m2[i] = (char)~m1[i];
    }
    MPI_OK(PMPI_Pack(in.origin, count, mt, m1, (int)out, &p1, MPI_COMM_SELF));
    MPI_OK(PMPI_Pack(in.origin, count, mt, m2, (int)out, &p2, MPI_COMM_SELF));
    ck_assert_int_eq(p1, (int)end);
    for (size_t i = at; i < out; i++)
      ck_assert_msg(m1[i] != m2[i] || m1[i] == got[i], "seed %llu: byte %zu differs "
                    "from PMPI_Pack: count %d, %s", (unsigned long long)seed, i - at,
                    count, rt->desc);
  }
  free(want);
  free(got);
  free(m1);
  free(m2);
  free(runs);
  tbuf_free(&in);
}

/* MPI_Unpack of a random stream into memory with other contents, against
   the model and (when MPICH is right) PMPI_Unpack */
static void unpack_case(const rtype *rt, MPI_Datatype mt, bool with_mpich, int count,
                        bool large, rng *r)
{
  mrun *runs;
  size_t nruns;
  ck_assert_int_eq(model_bytemap(rt->m, count, &runs, &nruns), 0);
  size_t size = runs_bytes(runs, nruns), at = (size_t)rng_range(r, 0, 7);
  char *in = malloc(at + size + 1);
  for (size_t i = 0; i < at + size; i++)
    in[i] = (char)rng_next(r);
  uint64_t fill = rng_next(r);
  tbuf want, got, mp;
  tbuf_for(runs, nruns, &want, fill);
  tbuf_for(runs, nruns, &got, fill);
  tbuf_for(runs, nruns, &mp, fill);
  model_unpack(runs, nruns, want.origin, in + at);
  if (!preloaded && size == 0)
    at = 0;          /* see unpack_empty_type */
  int pos = (int)at;
  MPI_Count cpos = (MPI_Count)at;
  if (large)
    MPI_OK(MPI_Unpack_c(in, (MPI_Count)(at + size), &cpos, got.origin, count, mt,
                        MPI_COMM_SELF));
  else
    MPI_OK(MPI_Unpack(in, (int)(at + size), &pos, got.origin, count, mt, MPI_COMM_SELF));
  size_t end = large ? (size_t)cpos : (size_t)pos;
  ck_assert_msg(end == at + size && memcmp(got.mem, want.mem, want.len) == 0,
                "seed %llu: MPI_Unpack%s differs from the model: count %d, %s",
                (unsigned long long)seed, large ? "_c" : "", count, rt->desc);
  if (with_mpich && size > 0) {   /* see mpich_unpack_empty_crash */
    pos = (int)at;
    MPI_OK(PMPI_Unpack(in, (int)(at + size), &pos, mp.origin, count, mt, MPI_COMM_SELF));
    ck_assert_msg(memcmp(got.mem, mp.mem, mp.len) == 0, "seed %llu: MPI_Unpack "
                  "differs from PMPI_Unpack: count %d, %s", (unsigned long long)seed,
                  count, rt->desc);
  }
  free(in);
  free(runs);
  tbuf_free(&want);
  tbuf_free(&got);
  tbuf_free(&mp);
}

/* A random type built with MPI's constructors, and the model of where the
   host MPI places its data (recipe_host): the standard's typemap at every
   level, each level at the bounds MPICH reports for it. */
static void host_type(rtype *rt, MPI_Datatype *mt)
{
  model *host;
  ck_assert_int_eq(recipe_host(rt->rc, mt, &host), MPI_SUCCESS);
  model_free(rt->m);
  rt->m = host;
  if (rt->rc->kind != RT_BUILTIN)
    MPI_OK(MPI_Type_commit(mt));
}

static void host_type_free(rtype *rt, MPI_Datatype *mt)
{
  if (rt->rc->kind != RT_BUILTIN)
    MPI_OK(MPI_Type_free(mt));
  rtype_free(rt);
}

/* MPI_Pack and MPI_Unpack of random types, counts 0 to 5, against the
   host model always (preloaded) and against MPICH wherever MPICH's
   MPI_Pack is usable (everywhere but the classes where it reads the wrong
   place or dies): every class of MPICH's bounds rules must occur, since
   an interposer that kept the standard's bounds passes on all others */
START_TEST(random_types)
{
  rng r = {seed ^ 0x707265ull};
  int n = test_scaled(3000);
  long with_mpich = 0, deviating = 0, classes[DEV_NCLASSES] = {0};
  for (int it = 0; it < n; it++) {
    rtype rt;
    int depth = (int)rng_range(&r, 1, 5);
    ck_assert_int_eq(it % 2 ? rtype_gen_deviant(&r, depth, NULL, 0, &rt)
                            : rtype_gen(&r, depth, &rt, NULL), 0);
    MPI_Datatype mt;
    host_type(&rt, &mt);
    unsigned dev = recipe_mpich_deviates(rt.rc);
    for (int c = 0; c < DEV_NCLASSES; c++)
      classes[c] += (dev >> c) & 1;
    /* Valgrind runs x87 long doubles at double precision, so MPICH's
       copies change them */
    bool mpich = !(dev & DEV_NO_PACK) &&
                 !(UNDER_VALGRIND && recipe_has_long_double(rt.rc));
    with_mpich += mpich;
    deviating += mpich && dev;
    int count = (int)rng_range(&r, 0, 5);
    bool large = rng_range(&r, 0, 1);
    /* without the interposer MPI_Pack is MPICH's: only where it is usable */
    if (preloaded || mpich) {
      bool ld = recipe_has_long_double(rt.rc);
      pack_case(&rt, mt, mpich, count, large, &r);
      /* MPICH's unpack leaves long double padding as it was */
      if (preloaded || !ld)
        unpack_case(&rt, mt, mpich && !ld, count, large, &r);
    }
    host_type_free(&rt, &mt);
  }
  fprintf(stderr, "random_types: %d types, %ld also compared with MPICH, %ld of "
          "them where MPICH's bounds depart from the standard:", n, with_mpich,
          deviating);
  for (int c = 0; c < DEV_NCLASSES; c++)
    fprintf(stderr, " %s %ld;", dev_names[c], classes[c]);
  fputc('\n', stderr);
  /* every class drawn: a loose bound, since each is far more common and a
     tighter one failed on unlucky seeds */
  if (n >= 1000) {
    ck_assert_msg(with_mpich * 4 >= n * 3, "too few types compared with MPICH");
    for (int c = 0; c < DEV_NCLASSES; c++)
      ck_assert_msg(classes[c] * 400 >= n, "class \"%s\" in %ld of %d types",
                    dev_names[c], classes[c], n);
  }
}
END_TEST

/* a struct of absolute addresses, packed from MPI_BOTTOM: the standard
   allows it, MPICH 4.0.2 rejects it (pmodels/mpich#6410) */
START_TEST(bottom)
{
  int a[5] = {1, 2, 3, 4, 5};
  double b[3] = {0.5, 1.5, 2.5};
  MPI_Aint da, db;
  MPI_Get_address(a, &da);
  MPI_Get_address(b, &db);
  MPI_Datatype t;
  MPI_OK(MPI_Type_create_struct(2, (int[]){5, 3}, (MPI_Aint[]){da, db},
                                (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t));
  MPI_OK(MPI_Type_commit(&t));
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  char out[64], want[44];
  memcpy(want, a, 20);
  memcpy(want + 20, b, 24);
  int pos = 0, size = 0;
  MPI_OK(MPI_Pack_size(1, t, MPI_COMM_SELF, &size));
  ck_assert_int_eq(size, 44);
  int rc = MPI_Pack(MPI_BOTTOM, 1, t, out, sizeof(out), &pos, MPI_COMM_SELF);
  if (preloaded) {
    ck_assert_int_eq(rc, MPI_SUCCESS);
    ck_assert_int_eq(pos, 44);
    ck_assert(memcmp(out, want, 44) == 0);
    /* and back, onto the same absolute addresses */
    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    pos = 0;
    MPI_OK(MPI_Unpack(want, 44, &pos, MPI_BOTTOM, 1, t, MPI_COMM_SELF));
    ck_assert_int_eq(pos, 44);
    ck_assert(a[0] == 1 && a[4] == 5 && b[0] == 0.5 && b[2] == 2.5);
    MPI_Count cpos = 0;
    MPI_OK(MPI_Pack_c(MPI_BOTTOM, 1, t, out, sizeof(out), &cpos, MPI_COMM_SELF));
    ck_assert(cpos == 44 && memcmp(out, want, 44) == 0);
  } else {
    /* documents an MPICH deviation: fails when fixed */
    ck_assert_int_eq(cls(rc), MPI_ERR_ARG);
  }
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&t);
}
END_TEST

/* a packed buffer too small for the data: the interposer moves what fits
   and reports MPI_ERR_TRUNCATE. MPICH 4.0.2 reports success, and from a
   nonzero position it moves as many bytes as the whole buffer holds:
   MPI_Pack writes past the end of the output buffer and MPI_Unpack reads
   past the end of the input (pinned below; fails when MPICH is fixed) */
START_TEST(truncation)
{
  MPI_Datatype v;
  MPI_OK(MPI_Type_vector(4, 1, 2, MPI_INT, &v));
  MPI_OK(MPI_Type_commit(&v));
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, packed[4] = {0, 2, 4, 6};
  unsigned char out[32];
  memset(out, 0x55, sizeof(out));
  int pos = 2;
  int rc = MPI_Pack(in, 1, v, out, 12, &pos, MPI_COMM_SELF);
  if (preloaded) {
    ck_assert_int_eq(cls(rc), MPI_ERR_TRUNCATE);
    ck_assert_int_eq(pos, 12);
    ck_assert(memcmp(out + 2, packed, 10) == 0);
    ck_assert_int_eq(out[12], 0x55);
  } else {
    ck_assert_int_eq(rc, MPI_SUCCESS);
    ck_assert_int_eq(pos, 14);                     /* past outsize */
    ck_assert(memcmp(out + 2, packed, 12) == 0 && out[14] == 0x55);
  }
  int dst[8] = {0};
  pos = 2;
  char src[32];
  memcpy(src + 2, packed, 16);
  rc = MPI_Unpack(src, 12, &pos, dst, 1, v, MPI_COMM_SELF);
  if (preloaded) {
    ck_assert_int_eq(cls(rc), MPI_ERR_TRUNCATE);
    ck_assert_int_eq(pos, 12);
    ck_assert(dst[0] == 0 && dst[2] == 2 && dst[6] == 0);
    ck_assert_int_eq(dst[4] & 0xffff, 4);
  } else {
    ck_assert_int_eq(rc, MPI_SUCCESS);
    ck_assert_int_eq(pos, 14);                     /* past insize */
    ck_assert(dst[4] == 4 && dst[6] == 0);
  }
  /* arguments MPICH judges, on both runs alike */
  pos = 0;
  ck_assert_int_eq(cls(MPI_Pack(in, -1, v, out, 32, &pos, MPI_COMM_SELF)), MPI_ERR_COUNT);
  ck_assert_int_eq(cls(MPI_Pack(in, 1, MPI_DATATYPE_NULL, out, 32, &pos, MPI_COMM_SELF)),
                   MPI_ERR_TYPE);
  ck_assert_int_eq(cls(MPI_Unpack(in, 32, &pos, dst, -2, v, MPI_COMM_SELF)), MPI_ERR_COUNT);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  /* a size too large for an int */
  MPI_Datatype big;
  MPI_OK(MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &big));
  MPI_OK(MPI_Type_commit(&big));
  int size = 0;
  MPI_Count csize = 0;
  MPI_OK(MPI_Pack_size(1 << 10, big, MPI_COMM_SELF, &size));
  ck_assert_int_eq(size, MPI_UNDEFINED);
  MPI_OK(MPI_Pack_size_c(1 << 10, big, MPI_COMM_SELF, &csize));
  ck_assert(csize == (MPI_Count)1 << 33);
  MPI_Type_free(&big);
  MPI_Type_free(&v);
}
END_TEST

/* documents an MPICH 4.0.2 defect: MPI_Unpack of an empty derived type
   (contiguous(0, MPI_INT)) at a nonzero position divides by zero (SIGFPE).
   The interposer unpacks nothing and leaves the position. MPICH runs in a
   child process (fails when MPICH is fixed). */
START_TEST(unpack_empty_type)
{
  MPI_Datatype t;
  MPI_OK(MPI_Type_contiguous(0, MPI_INT, &t));
  MPI_OK(MPI_Type_commit(&t));
  char in[8] = {0}, out[8];
  int pos = 3;
  if (preloaded) {
    MPI_OK(MPI_Unpack(in, 8, &pos, out, 1, t, MPI_COMM_SELF));
    ck_assert_int_eq(pos, 3);
  } else {
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
      signal(SIGFPE, SIG_DFL);       /* not MPICH's (UCX's) reporter */
      MPI_Unpack(in, 8, &pos, out, 1, t, MPI_COMM_SELF);
      _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGFPE,
                  "MPI_Unpack of an empty type no longer crashes (status %#x)", status);
  }
  MPI_Type_free(&t);
}
END_TEST

/* several packs into one buffer and unpacks from it, as MPI programs do */
START_TEST(packing_unit)
{
  MPI_Datatype v, s;
  MPI_OK(MPI_Type_vector(3, 2, 5, MPI_SHORT, &v));
  MPI_OK(MPI_Type_create_struct(2, (int[]){1, 2}, (MPI_Aint[]){0, 16},
                                (MPI_Datatype[]){v, MPI_DOUBLE}, &s));
  MPI_OK(MPI_Type_commit(&s));
  char mem[64], out1[256], out2[256];
  for (int i = 0; i < 64; i++)
    mem[i] = (char)(i * 7 + 1);
  int p1 = 0, p2 = 0, n = 0;
  MPI_OK(MPI_Pack(&n, 1, MPI_INT, out1, 256, &p1, MPI_COMM_SELF));
  MPI_OK(MPI_Pack(mem, 2, s, out1, 256, &p1, MPI_COMM_SELF));
  MPI_OK(MPI_Pack(mem + 3, 5, MPI_CHAR, out1, 256, &p1, MPI_COMM_SELF));
  MPI_OK(PMPI_Pack(&n, 1, MPI_INT, out2, 256, &p2, MPI_COMM_SELF));
  MPI_OK(PMPI_Pack(mem, 2, s, out2, 256, &p2, MPI_COMM_SELF));
  MPI_OK(PMPI_Pack(mem + 3, 5, MPI_CHAR, out2, 256, &p2, MPI_COMM_SELF));
  ck_assert_int_eq(p1, p2);
  ck_assert(memcmp(out1, out2, (size_t)p1) == 0);
  char back1[64] = {0}, back2[64] = {0};
  int m1, m2;
  p1 = p2 = 0;
  MPI_OK(MPI_Unpack(out1, 256, &p1, &m1, 1, MPI_INT, MPI_COMM_SELF));
  MPI_OK(MPI_Unpack(out1, 256, &p1, back1, 2, s, MPI_COMM_SELF));
  MPI_OK(PMPI_Unpack(out2, 256, &p2, &m2, 1, MPI_INT, MPI_COMM_SELF));
  MPI_OK(PMPI_Unpack(out2, 256, &p2, back2, 2, s, MPI_COMM_SELF));
  ck_assert_int_eq(p1, p2);
  ck_assert(m1 == m2 && memcmp(back1, back2, 64) == 0);
  MPI_Type_free(&v);
  MPI_Type_free(&s);
}
END_TEST

/* ---- MPI_Pack_external and friends ---- */

/* the basic types MPICH converts right, apart from x87 values (whose
   random bit patterns are mostly no value at all: external_standard has
   those) */
static const dl_builtin_t ext_basics[] = {
  DL_BYTE, DL_CHAR, DL_INT8, DL_UINT8, DL_INT16, DL_UINT16, DL_INT32, DL_UINT32,
  DL_INT64, DL_UINT64, DL_FLOAT, DL_DOUBLE, DL_C_FLOAT_COMPLEX,
  DL_C_DOUBLE_COMPLEX, DL_LONG, DL_UNSIGNED_LONG, DL_C_BOOL};
#define NEXT (int)(sizeof(ext_basics) / sizeof(ext_basics[0]))

static bool runs_overlap(const mrun *runs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      if (runs[i].disp < runs[j].disp + runs[j].len &&
          runs[j].disp < runs[i].disp + runs[i].len)
        return true;
  return false;
}

/* random types of one basic type each: MPI_Pack_external (the interposer's
   when preloaded) gives PMPI_Pack_external's bytes and size, and
   MPI_Unpack_external its memory */
START_TEST(external_random)
{
  rng r = {seed ^ 0x657874ull};
  int n = test_scaled(1600);
  long compared = 0, deviating = 0;
  for (int it = 0; it < n; it++) {
    int id = ext_basics[it % NEXT];
    rtype rt;
    int depth = (int)rng_range(&r, 1, 4);
    ck_assert_int_eq(it % 2 ? rtype_gen_deviant(&r, depth, &id, 1, &rt)
                            : rtype_gen_typed(&r, depth, &id, 1, &rt), 0);
    MPI_Datatype mt;
    host_type(&rt, &mt);
    int count = (int)rng_range(&r, 0, 5);
    mrun *runs;
    size_t nr;
    ck_assert_int_eq(model_bytemap(rt.m, count, &runs, &nr), 0);
    if (mpich_external_host_ok(&rt) && nr > 0) {
      deviating += recipe_mpich_deviates(rt.rc) != 0;
      MPI_Aint s1, s2;
      MPI_OK(MPI_Pack_external_size("external32", count, mt, &s1));
      MPI_OK(PMPI_Pack_external_size("external32", count, mt, &s2));
      ck_assert_int_eq(s1, s2);
      tbuf in;
      tbuf_for(runs, nr, &in, rng_next(&r));
      unsigned char *a = malloc((size_t)s1 + 1), *b = malloc((size_t)s1 + 1);
      MPI_Aint p1 = 0, p2 = 0;
      MPI_OK(MPI_Pack_external("external32", in.origin, count, mt, a, s1, &p1));
      MPI_OK(PMPI_Pack_external("external32", in.origin, count, mt, b, s1, &p2));
      ck_assert_msg(p1 == p2 && memcmp(a, b, (size_t)s1) == 0,
                    "seed %llu: MPI_Pack_external differs from MPICH's: %s",
                    (unsigned long long)seed, rt.desc);
      if (!runs_overlap(runs, nr)) {
        for (MPI_Aint i = 0; i < s1; i++)
          a[i] = (unsigned char)rng_next(&r);
        tbuf out1, out2;
        tbuf_for(runs, nr, &out1, 7);
        tbuf_for(runs, nr, &out2, 7);
        p1 = p2 = 0;
        MPI_OK(MPI_Unpack_external("external32", a, s1, &p1, out1.origin, count, mt));
        MPI_OK(PMPI_Unpack_external("external32", a, s1, &p2, out2.origin, count, mt));
        ck_assert_msg(p1 == p2 && memcmp(out1.mem, out2.mem, out1.len) == 0,
                      "seed %llu: MPI_Unpack_external differs from MPICH's: %s",
                      (unsigned long long)seed, rt.desc);
        tbuf_free(&out1);
        tbuf_free(&out2);
      }
      free(a);
      free(b);
      tbuf_free(&in);
      compared++;
    }
    free(runs);
    host_type_free(&rt, &mt);
  }
  fprintf(stderr, "external_random: %d types, %ld compared with MPICH, %ld of them "
          "where MPICH's bounds depart from the standard\n", n, compared, deviating);
  ck_assert_int_gt(compared, n / 4);
  if (n >= 1000)
    ck_assert_int_ge(deviating, n / 200);
}
END_TEST

/* where MPICH 4.0.2 departs from the standard's external32, the interposer
   follows the standard (golden bytes from its table); the plain run pins
   MPICH's behaviour where that is safe to call */
START_TEST(external_standard)
{
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  unsigned char out[64];
  MPI_Aint pos = 0;
  /* long double: binary128 */
  long double ld[2];
  memset(ld, 0, sizeof(ld));
  ld[0] = 1.5L;
  ld[1] = -2.0L;
  MPI_OK(MPI_Pack_external("external32", ld, 2, MPI_LONG_DOUBLE, out, 64, &pos));
  ck_assert_int_eq(pos, 32);
  ck_assert(memcmp(out, "\x3f\xff\x80\0\0\0\0\0\0\0\0\0\0\0\0\0"
                        "\xc0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 32) == 0);
  /* Fortran COMPLEX: the standard has two reals, each big-endian; MPICH
     swaps all 8 bytes, and preloaded its bytes stand (a plain rank reads
     them: DLP_DEV_EXTERNAL_COMPLEX_SWAPPED), in a derived type too, and
     unpack back; COMPLEX8 and the C complex types are two reals */
  float c[2] = {1.0f, 2.0f}, cb[2] = {0, 0};
  pos = 0;
  MPI_OK(MPI_Pack_external("external32", c, 1, MPI_COMPLEX, out, 64, &pos));
  ck_assert_int_eq(pos, 8);
  ck_assert(memcmp(out, "\x40\0\0\0\x3f\x80\0\0", 8) == 0);
  pos = 0;
  MPI_OK(MPI_Unpack_external("external32", out, 8, &pos, cb, 1, MPI_COMPLEX));
  ck_assert(pos == 8 && cb[0] == 1.0f && cb[1] == 2.0f);
  pos = 0;
  MPI_OK(MPI_Pack_external("external32", c, 1, MPI_COMPLEX8, out, 64, &pos));
  ck_assert(pos == 8 && memcmp(out, "\x3f\x80\0\0\x40\0\0\0", 8) == 0);
  double z[6] = {1.0, 2.0, 9.0, 9.0, 3.0, 4.0};
  MPI_Datatype zv;
  MPI_OK(MPI_Type_vector(2, 1, 2, MPI_DOUBLE_COMPLEX, &zv));
  MPI_OK(MPI_Type_commit(&zv));
  unsigned char host[64];
  MPI_Aint hpos = 0;
  MPI_OK(PMPI_Pack_external("external32", z, 1, zv, host, 64, &hpos));
  pos = 0;
  MPI_OK(MPI_Pack_external("external32", z, 1, zv, out, 64, &pos));
  ck_assert(pos == 32 && hpos == 32 && memcmp(out, host, 32) == 0);
  ck_assert(memcmp(out, "\x40\0\0\0\0\0\0\0\x3f\xf0", 10) == 0);
  MPI_OK(MPI_Type_free(&zv));
  /* a representation that does not exist: MPICH's to judge (it packs
     anyway, as external32), preloaded or not */
  int v = 0x01020304;
  pos = 0;
  int rc = MPI_Pack_external("native", &v, 1, MPI_INT, out, 64, &pos);
  ck_assert_int_eq(cls(rc), MPI_SUCCESS);
  ck_assert(pos == 4 && memcmp(out, "\x01\x02\x03\x04", 4) == 0);
  MPI_Aint size;
  rc = MPI_Pack_external_size("big-endian", 1, MPI_INT, &size);
  ck_assert_int_eq(cls(rc), MPI_SUCCESS);
  ck_assert_int_eq(size, 4);
  if (preloaded) {
    /* MPICH aborts on these, and writes past a buffer one byte short; a
       struct mixing a Fortran complex with another type (MPICH aborts):
       the standard's two reals */
    struct { int i; double z[2]; } iz = {5, {1.0, 2.0}};
    int izbl[2] = {1, 1};
    MPI_Aint izd[2] = {0, offsetof(__typeof__(iz), z)};
    MPI_Datatype izt[2] = {MPI_INT, MPI_DOUBLE_COMPLEX}, izs;
    MPI_OK(MPI_Type_create_struct(2, izbl, izd, izt, &izs));
    MPI_OK(MPI_Type_commit(&izs));
    pos = 0;
    MPI_OK(MPI_Pack_external("external32", &iz, 1, izs, out, 64, &pos));
    ck_assert(pos == 20 && memcmp(out, "\0\0\0\x05\x3f\xf0\0\0\0\0\0\0\x40\0", 14) == 0);
    MPI_OK(MPI_Type_free(&izs));
    struct { float f; int i; } fi = {1.0f, 7};
    pos = 0;
    MPI_OK(MPI_Pack_external("external32", &fi, 1, MPI_FLOAT_INT, out, 64, &pos));
    ck_assert_int_eq(pos, 8);
    ck_assert(memcmp(out, "\x3f\x80\0\0\0\0\0\x07", 8) == 0);
    wchar_t w[2] = {L'A', 0x20ac};
    pos = 0;
    MPI_OK(MPI_Pack_external("external32", w, 2, MPI_WCHAR, out, 64, &pos));
    ck_assert(pos == 4 && memcmp(out, "\0\x41\x20\xac", 4) == 0);
    wchar_t wb[2] = {0, 0};
    pos = 0;
    MPI_OK(MPI_Unpack_external("external32", out, 4, &pos, wb, 2, MPI_WCHAR));
    ck_assert(wb[0] == L'A' && wb[1] == 0x20ac);
    memset(out, 0x55, sizeof(out));
    pos = 0;
    rc = MPI_Pack_external("external32", ld, 2, MPI_LONG_DOUBLE, out, 31, &pos);
    ck_assert_int_eq(cls(rc), MPI_ERR_TRUNCATE);
    ck_assert_int_eq(pos, 31);
    ck_assert_int_eq(out[31], 0x55);
    MPI_Count csize;
    MPI_OK(MPI_Pack_external_size_c("external32", 3, MPI_LONG, &csize));
    ck_assert(csize == 12);
  }
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}
END_TEST

static void error_string(int code, char *s)
{
  int len;
  ck_assert_int_eq(MPI_Error_string(code, s, &len), MPI_SUCCESS);
  ck_assert_int_eq((int)strlen(s), len);
}

/* errors the interposer raises itself: the standard class, and a string
   naming the MPI call and the reason */
START_TEST(error_strings)
{
  if (!preloaded)
    return;           /* MPICH crashes on MPI_BOTTOM */
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char s[MPI_MAX_ERROR_STRING];
  unsigned char out[64];
  memset(out, 0x55, sizeof(out));
  /* MPI_BOTTOM with a type whose data lies at relative addresses */
  int p = 0;
  int rc = MPI_Pack(MPI_BOTTOM, 2, MPI_INT, out, 64, &p, MPI_COMM_WORLD);
  ck_assert_int_eq(cls(rc), MPI_ERR_BUFFER);
  ck_assert(p == 0 && out[0] == 0x55);
  error_string(rc, s);
  ck_assert_msg(strstr(s, "MPI_Pack:") && strstr(s, "NULL buffer"),
                "error string: %s", s);
  /* the same error again: the same code, not a new one each time */
  int rc2 = MPI_Pack(MPI_BOTTOM, 2, MPI_INT, out, 64, &p, MPI_COMM_WORLD);
  ck_assert_int_eq(rc2, rc);
  MPI_Aint pos = 0;
  rc = MPI_Unpack_external("external32", out, 8, &pos, MPI_BOTTOM, 2, MPI_INT);
  ck_assert_int_eq(cls(rc), MPI_ERR_BUFFER);
  error_string(rc, s);
  ck_assert_msg(strstr(s, "MPI_Unpack_external:") && strstr(s, "NULL buffer"),
                "error string: %s", s);
  /* MPI_BOTTOM with absolute addresses still works */
  static int abs_src[2] = {11, 22};
  MPI_Aint a;
  MPI_Get_address(abs_src, &a);
  MPI_Datatype at;
  int bl = 2;
  MPI_OK(MPI_Type_create_hindexed(1, &bl, &a, MPI_INT, &at));
  MPI_OK(MPI_Type_commit(&at));
  p = 0;
  MPI_OK(MPI_Pack(MPI_BOTTOM, 1, at, out, 64, &p, MPI_COMM_WORLD));
  ck_assert_int_eq(p, 8);
  ck_assert(memcmp(out, abs_src, 8) == 0);
  MPI_Type_free(&at);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  preloaded = dlsym(RTLD_DEFAULT, "dl_preload_active") != NULL;
  seed = test_seed(preloaded ? "interposer loaded" : "interposer not loaded");
  TCase *tc = tcase_create("pack");
  tcase_add_test(tc, interposer_loaded);
  tcase_add_test(tc, counts);
  tcase_add_test(tc, random_types);
  tcase_add_test(tc, bottom);
  tcase_add_test(tc, truncation);
  tcase_add_test(tc, packing_unit);
  tcase_add_test(tc, unpack_empty_type);
  tcase_add_test(tc, external_random);
  tcase_add_test(tc, external_standard);
  tcase_add_test(tc, error_strings);
  int rc = test_run("preload", tc, true);
  MPI_Finalize();
  return rc;
}
