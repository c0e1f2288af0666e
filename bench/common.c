/* What the benchmarks share: the clock, timed batches, test memory,
 * building and freeing a test from its entry. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

void bench_measure(int neng, bench_run_fn run, void *ctx, bool unpack, char *buf,
                   size_t bytes, double batch_s, int batches, double *med,
                   double *lo, double *hi)
{
  long *iters = malloc(sizeof(long) * (size_t)neng);
  double *rates = malloc(sizeof(double) * (size_t)batches * (size_t)neng);
  if (!iters || !rates)
    exit(1);
  for (int e = 0; e < neng; e++)
    iters[e] = calibrate(e, run, ctx, unpack, buf, batch_s);
  /* batches interleaved across engines, so drift hits all alike */
  for (int b = 0; b < batches; b++)
    for (int e = 0; e < neng; e++) {
      double t0 = bench_now();
      for (long i = 0; i < iters[e]; i++)
        run(ctx, e, unpack, buf);
      double per = (bench_now() - t0) / (double)iters[e];
      rates[e * batches + b] = (double)bytes / per / 1e6;
    }
  for (int e = 0; e < neng; e++) {
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
