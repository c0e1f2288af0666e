/* A truncated receive writes nothing that the message does not hold: each
 * byte of the receive buffer is either as it was or the message's byte at
 * that place of the stream, never other memory; bytes outside the receive
 * type's blocks are never written. The completion reports MPI_ERR_TRUNCATE
 * (MPI_ERRORS_RETURN everywhere here), for a blocking receive, a
 * nonblocking one and one whose sender streams (long messages). Nothing
 * of the truncated message is left to match later: the next message on
 * the same envelope is the sender's next, also when many receives are
 * pending at once and MPI_Waitall reports the truncation in a status. */
#include <stdint.h>
#include "sem.h"

#define GUARD 0xA5

/* a vector of n doubles, every third one */
static MPI_Datatype vec(int n)
{
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 3, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

static double value(int i)
{
  return 1000.0 + i;
}

/* rank 1's buffer of a receive of `cap` elements after a message of
   `sent`: element k (at 3k) is value(k) or untouched, the rest untouched */
static void verify(const char *what, const unsigned char *mem, int cap)
{
  size_t len = (size_t)cap * 3 * sizeof(double);
  for (size_t off = 0; off < len; off++) {
    size_t el = off / sizeof(double);
    if (mem[off] == GUARD)
      continue;
    if (el % 3 != 0) {
      CHECK(0, "%s: byte %zu (outside the type) written", what, off);
      return;
    }
    double want = value((int)(el / 3));
    const unsigned char *w = (const unsigned char *)&want;
    if (mem[off] != w[off % sizeof(double)]) {
      CHECK(0, "%s: byte %zu is neither the message's nor untouched", what, off);
      return;
    }
  }
}

static void one(int sent, int cap, int tag, int blocking)
{
  size_t slen = (size_t)sent * 3 * sizeof(double), rlen = (size_t)cap * 3 * sizeof(double);
  double *s = malloc(slen);
  unsigned char *r = malloc(rlen);
  MPI_Datatype ts = vec(sent), tr = vec(cap);
  for (int i = 0; i < sent * 3; i++)
    s[i] = i % 3 ? -1.0 : value(i / 3);
  int marker = -1;
  if (sem_rank == 0) {
    OK(MPI_Send(s, 1, ts, 1, tag, MPI_COMM_WORLD));
    marker = 7000 + tag;
    OK(MPI_Send(&marker, 1, MPI_INT, 1, tag, MPI_COMM_WORLD));
  } else if (sem_rank == 1) {
    memset(r, GUARD, rlen);
    MPI_Status st;
    int rc;
    if (blocking) {
      rc = MPI_Recv(r, 1, tr, 0, tag, MPI_COMM_WORLD, &st);
    } else {
      MPI_Request q;
      OK(MPI_Irecv(r, 1, tr, 0, tag, MPI_COMM_WORLD, &q));
      rc = MPI_Wait(&q, &st);
    }
    char what[96];
    snprintf(what, sizeof what, "%s receive of %d of %d elements",
             blocking ? "blocking" : "nonblocking", cap, sent);
    CHECK(sem_class(rc) == MPI_ERR_TRUNCATE, "%s: class %d", what, sem_class(rc));
    verify(what, r, cap);
    rc = MPI_Recv(&marker, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && marker == 7000 + tag,
          "%s: the next message is not the sender's next (class %d, %d)", what,
          sem_class(rc), marker);
  }
  MPI_Type_free(&ts);
  MPI_Type_free(&tr);
  free(s);
  free(r);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* eight nonblocking receives of 4 elements pending at once, the last one
   reached by a message of 10 (in the pipeline mode a stream, received
   past the first few receives' staging): MPI_Waitall reports its
   truncation in its status alone, the others have their data, and the next
   message on its envelope is the sender's next */
static void many_pending(void)
{
  enum { N = 8 };
  double *s = malloc(10 * 3 * sizeof(double));
  unsigned char *r = malloc((size_t)N * 4 * 3 * sizeof(double));
  MPI_Datatype t4 = vec(4), t10 = vec(10);
  for (int i = 0; i < 30; i++)
    s[i] = i % 3 ? -1.0 : value(i / 3);
  int marker = -1;
  if (sem_rank == 0) {
    OK(MPI_Recv(NULL, 0, MPI_INT, 1, 199, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int k = 0; k < N; k++)
      OK(MPI_Send(s, 1, k == N - 1 ? t10 : t4, 1, 200 + k, MPI_COMM_WORLD));
    marker = 7777;
    OK(MPI_Send(&marker, 1, MPI_INT, 1, 200 + N - 1, MPI_COMM_WORLD));
  } else if (sem_rank == 1) {
    MPI_Request q[N];
    MPI_Status st[N];
    memset(r, GUARD, (size_t)N * 4 * 3 * sizeof(double));
    for (int k = 0; k < N; k++)
      OK(MPI_Irecv(r + (size_t)k * 4 * 3 * sizeof(double), 1, t4, 0, 200 + k,
                   MPI_COMM_WORLD, &q[k]));
    OK(MPI_Send(NULL, 0, MPI_INT, 0, 199, MPI_COMM_WORLD));
    int rc = MPI_Waitall(N, q, st);
    CHECK(sem_class(rc) == MPI_ERR_IN_STATUS, "many pending: MPI_Waitall class %d",
          sem_class(rc));
    for (int k = 0; k < N; k++) {
      int want = k == N - 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
      CHECK(sem_class(st[k].MPI_ERROR) == want, "many pending: receive %d, class %d", k,
            sem_class(st[k].MPI_ERROR));
      verify("many pending", r + (size_t)k * 4 * 3 * sizeof(double), 4);
    }
    rc = MPI_Recv(&marker, 1, MPI_INT, 0, 200 + N - 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && marker == 7777,
          "many pending: the next message is not the sender's next (class %d, %d)",
          sem_class(rc), marker);
  }
  MPI_Type_free(&t4);
  MPI_Type_free(&t10);
  free(s);
  free(r);
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  static const int sizes[][2] = {{10, 4}, {100, 99}, {5000, 1000}, {200000, 150000}};
  int tag = 0;
  for (int blocking = 0; blocking < 2; blocking++)
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
      one(sizes[k][0], sizes[k][1], tag++, blocking);
  many_pending();
  return sem_finish("sem_truncate");
}
