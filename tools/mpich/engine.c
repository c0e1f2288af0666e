/* Proof that an MPICH's datatype engine is dataloop, on 2 ranks of that
 * MPICH (tools/mpich/build.sh runs it after the smoke test). The program
 * defines dl_pack, dl_unpack, dl_segment_pack, dl_segment_unpack and
 * dl_segment_iov itself (linked -rdynamic), counting the calls and passing
 * them on to libdataloop (dlsym RTLD_NEXT): an MPICH whose MPI_Pack,
 * MPI_Unpack and derived-type messages do not reach them (its own
 * dataloop, Yaksa) fails. Also fails if the bounds are not the standard's
 * (a struct of two doubles 12 bytes apart spans 24 bytes; Yaksa says 20)
 * or a byte moves wrong. Prints "engine: dataloop" on success. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "dataloop.h"

static long calls;

#define FORWARD(name, params, args)                                        \
  int name params                                                          \
  {                                                                        \
    static int (*next) params;                                             \
    if (!next)                                                             \
      *(void **)&next = dlsym(RTLD_NEXT, #name);                           \
    calls++;                                                               \
    return next ? next args : DL_ERR_UNSUPPORTED;                          \
  }

FORWARD(dl_pack, (const void *in, dl_count n, const dl_type *t, void *out, size_t sz,
                  size_t *pos), (in, n, t, out, sz, pos))
FORWARD(dl_unpack, (const void *in, size_t sz, size_t *pos, void *out, dl_count n,
                    const dl_type *t), (in, sz, pos, out, n, t))
FORWARD(dl_segment_pack, (dl_segment *s, size_t first, size_t *last, void *out),
        (s, first, last, out))
FORWARD(dl_segment_unpack, (dl_segment *s, size_t first, size_t *last, const void *in),
        (s, first, last, in))
FORWARD(dl_segment_iov, (dl_segment *s, size_t first, size_t *last, struct iovec *iov,
                         size_t max, size_t *n), (s, first, last, iov, max, n))

static int fail(const char *what)
{
  fprintf(stderr, "engine: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2)
    return fail("run on 2 ranks");

  /* the standard's bounds: padded to the doubles' alignment */
  int bl[2] = {1, 1};
  MPI_Aint d[2] = {0, 12}, lb, extent;
  MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_DOUBLE}, st, vec;
  MPI_Type_create_struct(2, bl, d, ty, &st);
  MPI_Type_get_extent(st, &lb, &extent);
  if (lb != 0 || extent != 24)
    return fail("struct {double @0, double @12}: extent is not 24");

  /* MPI_Pack and MPI_Unpack of a vector reach dataloop */
  MPI_Type_vector(100, 1, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  int src[300], back[300], packed[100], pos = 0;
  for (int i = 0; i < 300; i++)
    src[i] = i, back[i] = -1;
  long before = calls;
  MPI_Pack(src, 1, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
  for (int i = 0; i < 100; i++)
    if (packed[i] != 3 * i)
      return fail("MPI_Pack moved a wrong byte");
  pos = 0;
  MPI_Unpack(packed, sizeof packed, &pos, back, 1, vec, MPI_COMM_WORLD);
  for (int i = 0; i < 300; i++)
    if (back[i] != (i % 3 ? -1 : i))
      return fail("MPI_Unpack moved a wrong byte");
  if (calls - before < 2)
    return fail("MPI_Pack and MPI_Unpack did not reach dataloop");

  /* a derived-type message of 4 MB between the ranks reaches it too */
  enum { N = 1 << 20 };
  static int big[2 * N];
  MPI_Datatype every2;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every2);
  MPI_Type_commit(&every2);
  before = calls;
  if (rank == 0) {
    for (int i = 0; i < 2 * N; i++)
      big[i] = i;
    MPI_Send(big, 1, every2, 1, 0, MPI_COMM_WORLD);
  } else {
    memset(big, 0xff, sizeof big);
    MPI_Recv(big, 1, every2, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * N; i++)
      if (big[i] != (i % 2 ? -1 : i))
        return fail("a derived-type message arrived wrong");
  }
  if (calls == before)
    return fail("a derived-type message did not reach dataloop");
  MPI_Type_free(&every2);
  MPI_Type_free(&vec);
  MPI_Type_free(&st);
  if (rank == 0)
    printf("engine: dataloop\n");
  MPI_Finalize();
  return 0;
}
