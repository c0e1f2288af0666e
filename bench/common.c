/* What the benchmarks share: the clock, timed batches, test memory,
 * building and freeing a test from its entry. */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

bool bench_types_only;

double bench_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_alloc(btest *t, size_t bytes)
{
  t->memlen = bytes;
  t->mem = malloc(bytes + 64);
  if (!t->mem) {
    fprintf(stderr, "out of memory for %s (%zu bytes)\n", t->name, bytes);
    exit(1);
  }
  if (bench_types_only)
    return;
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < bytes; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    t->mem[i] = (char)x;
  }
}

void bench_free(btest *t)
{
  if (t->dt)
    dl_type_free(&t->dt);
  if (t->jt)
    dl_type_free(&t->jt);
  if (t->mt != MPI_DATATYPE_NULL)
    MPI_Type_free(&t->mt);
  free(t->mem);
  free(t->owned);
  memset(t, 0, sizeof(*t));
  t->mt = MPI_DATATYPE_NULL;
}

bool bench_make(const bentry *e, btest *t)
{
  memset(t, 0, sizeof(*t));
  t->mt = MPI_DATATYPE_NULL;
  snprintf(t->name, sizeof(t->name), "%s", e->name);
  return e->make(t);
}

int bench_cmp_double(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

double bench_median(double *r, int n)
{
  qsort(r, (size_t)n, sizeof(double), bench_cmp_double);
  return n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
}

void bench_order(int round, int n, int *order)
{
  /* Fisher-Yates driven by a fixed LCG of the round number: every rank
     computes the same order without talking */
  uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(round + 1);
  for (int i = 0; i < n; i++)
    order[i] = i;
  for (int i = n - 1; i > 0; i--) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int j = (int)((x >> 33) % (uint64_t)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

double bench_paired(const double *us, int batches, int a, int b)
{
  double *r = malloc(sizeof(double) * (size_t)batches);
  for (int i = 0; i < batches; i++)
    r[i] = us[a * batches + i] / us[b * batches + i];
  double m = bench_median(r, batches);
  free(r);
  return m;
}

/* iterations per batch so one batch lasts at least batch_s */
static long calibrate(int eng, bench_run_fn run, void *ctx, bool unpack, char *buf,
                      double batch_s)
{
  long n = 1;
  for (;;) {
    double t0 = bench_now();
    for (long i = 0; i < n; i++)
      run(ctx, eng, unpack, buf);
    double dt = bench_now() - t0;
    if (dt >= batch_s || n > (1l << 30))
      return n;
    n = dt <= 0 ? n * 16 : (long)(n * (batch_s * 1.2 / dt)) + 1;
  }
}

void bench_measure(int neng, const bool *skip, bench_run_fn run, void *ctx,
                   bool unpack, char *buf,
                   size_t bytes, double batch_s, int batches, double *med,
                   double *lo, double *hi)
{
  long *iters = malloc(sizeof(long) * (size_t)neng);
  double *rates = malloc(sizeof(double) * (size_t)batches * (size_t)neng);
  if (!iters || !rates)
    exit(1);
  for (int e = 0; e < neng; e++)
    iters[e] = skip && skip[e] ? 0 : calibrate(e, run, ctx, unpack, buf, batch_s);
  /* batches interleaved across engines, so drift hits all alike; each
     round in its own order, so no engine always runs after the same one
     (an engine right after one that read the same bytes finds them in
     cache) */
  int *order = malloc(sizeof(int) * (size_t)neng);
  if (!order)
    exit(1);
  for (int b = 0; b < batches; b++) {
    bench_order(b, neng, order);
    for (int k = 0; k < neng; k++) {
      int e = order[k];
      if (!iters[e])
        continue;
      double t0 = bench_now();
      for (long i = 0; i < iters[e]; i++)
        run(ctx, e, unpack, buf);
      double per = (bench_now() - t0) / (double)iters[e];
      rates[e * batches + b] = (double)bytes / per / 1e6;
    }
  }
  free(order);
  for (int e = 0; e < neng; e++) {
    if (!iters[e]) {
      med[e] = lo[e] = hi[e] = NAN;
      continue;
    }
    double *r = rates + e * batches;
    qsort(r, (size_t)batches, sizeof(double), bench_cmp_double);
    med[e] = r[batches / 2];
    lo[e] = r[0];
    hi[e] = r[batches - 1];
  }
  free(rates);
  free(iters);
}

bool bench_matches(const char *name, const char *filter)
{
  if (!filter)
    return true;
  for (const char *s = name; *s; s++) {
    size_t i = 0;
    while (filter[i] && s[i] &&
           tolower((unsigned char)s[i]) == tolower((unsigned char)filter[i]))
      i++;
    if (!filter[i])
      return true;
  }
  return false;
}

bool bench_two_ranks(int *argc, char ***argv, const char *prog, int *rank, int *peer)
{
  int size;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (*rank == 0)
      fprintf(stderr, "%s runs on exactly 2 ranks (mpiexec -n 2)\n", prog);
    MPI_Finalize();
    return false;
  }
  *peer = 1 - *rank;
  return true;
}

bool bench_out_dir(const char *prog, const char *dir)
{
  char d[4096];
  if (snprintf(d, sizeof(d), "%s", dir) >= (int)sizeof(d) || !*d) {
    fprintf(stderr, "%s: bad output folder '%s'\n", prog, dir);
    return false;
  }
  for (char *p = d + 1;; p++)
    if (*p == '/' || !*p) {
      char c = *p;
      *p = '\0';
      if (mkdir(d, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot create %s: %s\n", prog, d, strerror(errno));
        return false;
      }
      *p = c;
      if (!c)
        break;
    }
  /* creating the file is what the end of the run needs; fail now, not
     after the measurement */
  char probe[4200];
  snprintf(probe, sizeof(probe), "%s/.dataloop-probe-XXXXXX", dir);
  int fd = mkstemp(probe);
  if (fd < 0) {
    fprintf(stderr, "%s: cannot write in %s: %s\n", prog, dir, strerror(errno));
    return false;
  }
  close(fd);
  unlink(probe);
  return true;
}

bool bench_out_parent(const char *prog, const char *path)
{
  char d[4096];
  snprintf(d, sizeof(d), "%s", path);
  return bench_out_dir(prog, dirname(d));
}

FILE *bench_file_open(bench_file *bf)
{
  memset(bf, 0, sizeof(*bf));
  bf->f = open_memstream(&bf->buf, &bf->len);
  if (!bf->f) {
    perror("open_memstream");
    exit(1);
  }
  return bf->f;
}

void bench_file_drop(bench_file *bf)
{
  if (bf->f)
    fclose(bf->f);
  free(bf->buf);
  memset(bf, 0, sizeof(*bf));
}

bool bench_file_commit(const char *prog, bench_file *bf, const char *path)
{
  bool ok = fflush(bf->f) == 0 && !ferror(bf->f);
  fclose(bf->f);
  bf->f = NULL;
  if (!ok) {
    fprintf(stderr, "%s: out of memory gathering %s\n", prog, path);
    bench_file_drop(bf);
    return false;
  }
  char tmp[4200];
  snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  const char *step = "create";
  if (fd >= 0) {
    step = "write";
    size_t at = 0;
    while (at < bf->len) {
      ssize_t w = write(fd, bf->buf + at, bf->len - at);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        break;
      at += (size_t)w;
    }
    /* mkstemp makes the file 0600; results are as readable as any file */
    mode_t um = umask(0);
    umask(um);
    ok = at == bf->len && fchmod(fd, 0666 & ~um) == 0;
    if (close(fd) != 0)
      ok = false;
    if (ok) {
      step = "rename";
      ok = rename(tmp, path) == 0;
    }
    if (!ok) {
      int e = errno;
      unlink(tmp);
      errno = e;
    }
  } else {
    ok = false;
  }
  if (!ok)
    fprintf(stderr, "%s: cannot %s %s: %s\n", prog, step, path, strerror(errno));
  bench_file_drop(bf);
  return ok;
}

void bench_atoms_leaving(dl_count n, dl_count moved, dl_count *at)
{
  uint64_t x = 0x2545f4914f6cdd1dull;
  dl_count group = n / moved;
  for (dl_count i = 0; i < moved; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    at[i] = i * group + (dl_count)(x % (uint64_t)group);
  }
}

void bench_pair_parse(int argc, char **argv, bench_pair_opts *o, int full_batches,
                      void (*usage)(FILE *to, int code))
{
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout, 0);
    } else if (!strcmp(argv[i], "--full")) {
      o->full = true;
      o->batch_s = 0.05;
      o->batches = full_batches;
    } else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
      o->filter = argv[++i];
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      o->out = argv[++i];
    } else if (strcmp(argv[i], "--quick") && strcmp(argv[i], "--unpack")) {
      usage(stderr, 2);
    }
  }
}

int bench_pair_start(int *argc, char ***argv, const char *prog, const char *out,
                     int *rank, int *peer)
{
  if (!bench_two_ranks(argc, argv, prog, rank, peer))
    return 2;
  int dir_ok = *rank != 0 || bench_out_dir(prog, out);
  MPI_Bcast(&dir_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (dir_ok)
    return 0;
  MPI_Finalize();
  return 1;
}

bool bench_pair_commit(const char *prog, bench_file bf[2], const char *out,
                       const char *const names[2])
{
  bool written = true;
  for (int f = 0; f < 2; f++) {
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", out, names[f]);
    written &= bench_file_commit(prog, &bf[f], path);
  }
  if (written)
    printf("results: %s/%s, %s/%s\n", out, names[0], out, names[1]);
  return written;
}

int bench_count_matches(const char *prog, const char *const *names, int n,
                        const char *filter)
{
  int k = 0;
  for (int i = 0; n < 0 ? names[i] != NULL : i < n; i++)
    k += bench_matches(names[i], filter);
  if (!k)
    fprintf(stderr, "%s: no test matches --filter '%s'\n", prog, filter ? filter : "");
  return k;
}

/* a 64-byte struct with gaps: int at 0, 3 doubles at 8, 16 chars at 32,
   3 floats at 48 */
void bench_small_types(dl_type **d1, MPI_Datatype *m1, dl_type **d2,
                       MPI_Datatype *m2)
{
  dl_count bl[4] = {1, 3, 16, 3};
  dl_aint ds[4] = {0, 8, 32, 48};
  dl_type *dt[4] = {dl_builtin(DL_INT32), dl_builtin(DL_DOUBLE), dl_builtin(DL_CHAR),
                    dl_builtin(DL_FLOAT)};
  int ibl[4] = {1, 3, 16, 3};
  MPI_Aint md[4] = {0, 8, 32, 48};
  MPI_Datatype mt[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_FLOAT};
  dl_type_struct(4, bl, ds, dt, d1);
  dl_type_commit(*d1);
  MPI_Type_create_struct(4, ibl, md, mt, m1);
  MPI_Type_commit(m1);
  dl_type_vector(3, 1, 2, dl_builtin(DL_DOUBLE), d2);
  dl_type_commit(*d2);
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, m2);
  MPI_Type_commit(m2);
}

void bench_struct_types(btest *t, int n, const int *bl, const dl_aint *disp,
                        dl_type *const *dt, const MPI_Datatype *mt, dl_aint extent)
{
  dl_count dbl[BENCH_STRUCT_MAX];
  MPI_Aint md[BENCH_STRUCT_MAX];
  if (n < 1 || n > BENCH_STRUCT_MAX) {
    fprintf(stderr, "bench_struct_types: %d members (1 to %d)\n", n, BENCH_STRUCT_MAX);
    exit(1);
  }
  for (int i = 0; i < n; i++) {
    dbl[i] = bl[i];
    md[i] = disp[i];
  }
  dl_type *s, *r;
  MPI_Datatype ms, mr;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_struct(n, dbl, disp, dt, &s), dl_type_resized(s, 0, extent, &r),
               dl_type_free(&s), dl_type_commit(r)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_create_struct(n, bl, md, mt, &ms),
               MPI_Type_create_resized(ms, 0, extent, &mr), MPI_Type_free(&ms),
               MPI_Type_commit(&mr)));
  t->dt = r;
  t->mt = mr;
}
