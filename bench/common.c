/* What both benchmarks share: the clock, test memory, building and freeing
 * a test from its entry. */
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
