/* interposer.c: a plain MPI program that dataloop's interposer can serve.
 *
 * Rank 0 sends a column of a matrix (MPI_Type_vector) to rank 1, and each
 * rank packs and unpacks it with MPI_Pack/MPI_Unpack. Nothing here knows
 * dataloop: run with libdataloop-mpi-preload.so preloaded, those calls go
 * through it, and the program asks it what it handled. With the argument
 * --require-interposer (or DL_REQUIRE_INTERPOSER=1) it fails when they did
 * not go through it.
 *   mpiexec.mpich -n 2 -genv LD_PRELOAD <build>/.libs/libdataloop-mpi-preload.so \
 *                 ./interposer --require-interposer
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 6, COL = 2 };

static int fail(int rank, const char *what)
{
  fprintf(stderr, "rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const char *env = getenv("DL_REQUIRE_INTERPOSER");
  int require = (argc > 1 && strcmp(argv[1], "--require-interposer") == 0) ||
                (env && strcmp(env, "1") == 0);
  if (nprocs != 2)
    return fail(rank, "run with mpiexec -n 2");

  /* column COL of an N x N matrix: N blocks of 1 int, N ints apart */
  MPI_Datatype col;
  MPI_Type_vector(N, 1, N, MPI_INT, &col);
  MPI_Type_commit(&col);
  int m[N][N], got[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      m[i][j] = 100 * i + j;
      got[i][j] = -1;
    }

  if (rank == 0)
    MPI_Send(&m[0][COL], 1, col, 1, 0, MPI_COMM_WORLD);
  else
    MPI_Recv(&got[0][COL], 1, col, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  /* a local round trip through MPI_Pack and MPI_Unpack */
  char packed[N * sizeof(int)];
  int pos = 0;
  MPI_Pack(&m[0][COL], 1, col, packed, sizeof(packed), &pos, MPI_COMM_WORLD);
  if (rank == 0) {
    pos = 0;
    MPI_Unpack(packed, sizeof(packed), &pos, &got[0][COL], 1, col,
               MPI_COMM_WORLD);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      if (got[i][j] != (j == COL ? m[i][j] : -1))
        return fail(rank, "the column arrived wrong, or other data changed");
  MPI_Type_free(&col);

  /* found only when the interposer is loaded */
  int (*counts)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_counts");
  if (counts) {
    /* pack, unpack, send, recv, ..., and at [7] the short messages left to
       MPICH as made at their type's first use (doc/mpi.md) */
    unsigned long long c[8];
    counts(c, 8);
    printf("rank %d: column ok; dataloop handled %llu packs, %llu unpacks, "
           "%llu sends, %llu receives (%llu left to MPICH at the type's first "
           "use)\n", rank, c[0], c[1], c[2], c[3], c[7]);
    /* rank 0 packed, unpacked and sent; rank 1 packed and received */
    const unsigned long long want[2][4] = {{1, 1, 1, 0}, {1, 0, 0, 1}};
    unsigned long long seen[4] = {c[0], c[1], c[2] + (rank == 0 ? c[7] : 0),
                                  c[3] + (rank == 1 ? c[7] : 0)};
    if (require && memcmp(seen, want[rank], sizeof(seen)) != 0)
      return fail(rank, "the interposer did not handle this rank's calls");
  } else {
    printf("rank %d: column ok; no interposer loaded\n", rank);
    if (require)
      return fail(rank, "--require-interposer, but no interposer is loaded");
  }
  MPI_Finalize();
  return 0;
}
