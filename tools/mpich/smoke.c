/* A small check of a freshly built MPICH, run by tools/mpich/build.sh on two
 * ranks: derived datatypes through point-to-point (a vector), MPI_Pack and
 * MPI_Unpack (a struct), and one-sided operations whose target type is
 * derived (MPI_Put and MPI_Accumulate of an indexed type, which MPICH
 * flattens at the origin and unflattens at the target).
 *
 *   mpiexec -n 2 smoke [TEXT]
 *
 * With TEXT, rank 0 also checks that MPI_Get_library_version contains it
 * (build.sh passes its --prefix, which MPICH's version string carries in
 * its configure line), which shows which libmpich the run loaded. Exit
 * status 0 when every check passed; each failure is named on stderr.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define N 64

static int fails;

static void check(int ok, int rank, const char *what)
{
  if (!ok) {
    fprintf(stderr, "smoke: rank %d: FAIL: %s\n", rank, what);
    fails++;
  }
}

struct rec {
  char c;
  double d;
  int i[3];
};

int main(int argc, char **argv)
{
  int rank, size, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "smoke: needs exactly 2 ranks, got %d\n", size);
    MPI_Finalize();
    return 2;
  }

  if (rank == 0 && argc > 1) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    check(strstr(version, argv[1]) != NULL, rank,
          "MPI_Get_library_version does not name the expected build");
  }

  /* a vector: every third int, sent from rank 0 and received in place */
  int buf[3 * N];
  MPI_Datatype vec;
  MPI_Type_vector(N, 1, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  for (i = 0; i < 3 * N; i++)
    buf[i] = rank == 0 ? i : -1;
  if (rank == 0) {
    MPI_Send(buf, 1, vec, 1, 0, MPI_COMM_WORLD);
  } else {
    int bad = 0;
    MPI_Recv(buf, 1, vec, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 3 * N; i++)
      bad += buf[i] != (i % 3 == 0 ? i : -1);
    check(bad == 0, rank, "vector send/recv");
  }

  /* a struct with holes, packed and unpacked */
  struct rec in[4], out[4];
  int bl[3] = {1, 1, 3};
  MPI_Aint disp[3] = {offsetof(struct rec, c), offsetof(struct rec, d),
                      offsetof(struct rec, i)};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, st, str;
  MPI_Type_create_struct(3, bl, disp, types, &st);
  MPI_Type_create_resized(st, 0, sizeof(struct rec), &str);
  MPI_Type_commit(&str);
  memset(in, 0, sizeof in);
  memset(out, 0, sizeof out);
  for (i = 0; i < 4; i++) {
    in[i].c = (char)('a' + i);
    in[i].d = 1.5 * i;
    in[i].i[0] = i;
    in[i].i[1] = 10 * i;
    in[i].i[2] = 100 * i;
  }
  char packed[512];
  int pos = 0, psize;
  MPI_Pack_size(4, str, MPI_COMM_WORLD, &psize);
  check(psize <= (int)sizeof packed, rank, "MPI_Pack_size");
  if (psize <= (int)sizeof packed) {
    MPI_Pack(in, 4, str, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    check(pos == 4 * (1 + 8 + 12), rank, "MPI_Pack position");
    pos = 0;
    MPI_Unpack(packed, sizeof packed, &pos, out, 4, str, MPI_COMM_WORLD);
    check(memcmp(in, out, sizeof in) == 0, rank, "MPI_Pack/MPI_Unpack of a struct");
  }

  /* one-sided: rank 0 puts, then accumulates, into an indexed layout of
   * rank 1's window */
  double win_buf[N];
  MPI_Win win;
  for (i = 0; i < N; i++)
    win_buf[i] = 0;
  MPI_Win_create(win_buf, sizeof win_buf, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int ibl[3] = {2, 3, 1}, idisp[3] = {1, 10, 40};
  MPI_Datatype idx;
  MPI_Type_indexed(3, ibl, idisp, MPI_DOUBLE, &idx);
  MPI_Type_commit(&idx);
  double src[6] = {1, 2, 3, 4, 5, 6};
  MPI_Win_fence(0, win);
  if (rank == 0)
    MPI_Put(src, 6, MPI_DOUBLE, 1, 0, 1, idx, win);
  MPI_Win_fence(0, win);
  if (rank == 0)
    MPI_Accumulate(src, 6, MPI_DOUBLE, 1, 0, 1, idx, MPI_SUM, win);
  MPI_Win_fence(0, win);
  if (rank == 1) {
    double want[N];
    int bad = 0, k = 0, b, j;
    for (i = 0; i < N; i++)
      want[i] = 0;
    for (b = 0; b < 3; b++)
      for (j = 0; j < ibl[b]; j++, k++)
        want[idisp[b] + j] = 2 * src[k];
    for (i = 0; i < N; i++)
      bad += win_buf[i] != want[i];
    check(bad == 0, rank, "MPI_Put and MPI_Accumulate to an indexed target");
  }
  MPI_Win_free(&win);

  MPI_Type_free(&idx);
  MPI_Type_free(&str);
  MPI_Type_free(&st);
  MPI_Type_free(&vec);

  int all;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("smoke: %s\n", all == 0 ? "ok" : "FAILED");
  MPI_Finalize();
  return all != 0;
}
