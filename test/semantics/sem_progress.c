/* Progress: an operation in flight completes whatever MPI calls its rank
 * makes while it waits. A sender polling MPI_Iprobe for the reply to a
 * long derived-type message it sent nonblockingly; a receiver polling
 * MPI_Iprobe for a "done" message while its long derived-type receive is
 * pending; a rank that waits on inactive persistent requests (which
 * returns at once) while its long send is in flight, before it sends what
 * its peer waits for; a communicator freed with a long send and a long
 * receive pending on it. In the pipeline mode each of these long messages
 * is a stream. */
#include "sem.h"

enum { N = 100000 };

static MPI_Datatype strided(void)
{
  MPI_Datatype t;
  MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

static void fill(double *b, int tag)
{
  for (int i = 0; i < N; i++)
    b[2 * i] = tag * 1e6 + i;
}

static int first_bad(const double *b, int tag)
{
  for (int i = 0; i < N; i++)
    if (b[2 * i] != tag * 1e6 + i)
      return i;
  return -1;
}

/* polls MPI_Iprobe until an int from src with tag is there, receives it,
   then completes q */
static int poll_for_int(int src, int tag, MPI_Request *q)
{
  int v = 0, flag = 0;
  while (!flag)
    OK(MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  OK(MPI_Recv(&v, 1, MPI_INT, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  OK(MPI_Wait(q, MPI_STATUS_IGNORE));
  return v;
}

/* rank 0 sends, then polls MPI_Iprobe for rank 1's reply */
static void sender_polls(double *b, MPI_Datatype t)
{
  int reply = 0;
  if (sem_rank == 0) {
    fill(b, 1);
    MPI_Request q;
    OK(MPI_Isend(b, 1, t, 1, 1, MPI_COMM_WORLD, &q));
    reply = poll_for_int(1, 2, &q);
    CHECK(reply == 7, "the reply after the long send is %d", reply);
  } else if (sem_rank == 1) {
    OK(MPI_Recv(b, 1, t, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bad = first_bad(b, 1);
    CHECK(bad < 0, "the long message polled for: double %d wrong", bad);
    reply = 7;
    OK(MPI_Send(&reply, 1, MPI_INT, 0, 2, MPI_COMM_WORLD));
  }
}

/* rank 1 posts the long receive, then polls MPI_Iprobe for "done" */
static void receiver_polls(double *b, MPI_Datatype t)
{
  int done = 0;
  if (sem_rank == 0) {
    fill(b, 3);
    OK(MPI_Send(b, 1, t, 1, 3, MPI_COMM_WORLD));
    done = 1;
    OK(MPI_Send(&done, 1, MPI_INT, 1, 4, MPI_COMM_WORLD));
  } else if (sem_rank == 1) {
    memset(b, 0, sizeof(double) * 2 * N);
    MPI_Request q;
    OK(MPI_Irecv(b, 1, t, 0, 3, MPI_COMM_WORLD, &q));
    done = poll_for_int(0, 4, &q);
    int bad = first_bad(b, 3);
    CHECK(bad < 0 && done == 1, "the long receive behind the polled \"done\": "
          "double %d wrong, done %d", bad, done);
  }
}

/* rank 0 waits on inactive persistent requests while its long send is in
   flight, then sends the message rank 1 waits for before it receives */
static void inactive_wait(double *b, MPI_Datatype t)
{
  int go = 0, spare[2];
  if (sem_rank == 0) {
    fill(b, 5);
    MPI_Request q, p[2];
    OK(MPI_Recv_init(&spare[0], 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &p[0]));
    OK(MPI_Recv_init(&spare[1], 1, MPI_INT, 1, 98, MPI_COMM_WORLD, &p[1]));
    OK(MPI_Isend(b, 1, t, 1, 5, MPI_COMM_WORLD, &q));
    MPI_Status st[2];
    OK(MPI_Waitall(2, p, st));
    int idx = 0;
    OK(MPI_Waitany(2, p, &idx, MPI_STATUS_IGNORE));
    CHECK(idx == MPI_UNDEFINED, "MPI_Waitany of inactive requests: index %d", idx);
    OK(MPI_Wait(&p[0], MPI_STATUS_IGNORE));
    go = 1;
    OK(MPI_Send(&go, 1, MPI_INT, 1, 6, MPI_COMM_WORLD));
    OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
  } else if (sem_rank == 1) {
    memset(b, 0, sizeof(double) * 2 * N);
    OK(MPI_Recv(&go, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Recv(b, 1, t, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bad = first_bad(b, 5);
    CHECK(bad < 0 && go == 1, "the long message after the waits on inactive "
          "requests: double %d wrong", bad);
  }
}

/* a communicator freed with a long send and a long receive pending on it:
   they complete normally */
static void freed_comm(double *b, MPI_Datatype t)
{
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Request q = MPI_REQUEST_NULL;
  if (sem_rank == 0) {
    fill(b, 7);
    OK(MPI_Isend(b, 1, t, 1, 7, c, &q));
  } else if (sem_rank == 1) {
    memset(b, 0, sizeof(double) * 2 * N);
    OK(MPI_Irecv(b, 1, t, 0, 7, c, &q));
  }
  OK(MPI_Comm_free(&c));
  OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
  if (sem_rank == 1) {
    int bad = first_bad(b, 7);
    CHECK(bad < 0 && c == MPI_COMM_NULL, "the long message on a communicator freed "
          "while it was pending: double %d wrong", bad);
  }
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  double *b = calloc(2 * N, sizeof(double));
  MPI_Datatype t = strided();
  sender_polls(b, t);
  MPI_Barrier(MPI_COMM_WORLD);
  receiver_polls(b, t);
  MPI_Barrier(MPI_COMM_WORLD);
  inactive_wait(b, t);
  MPI_Barrier(MPI_COMM_WORLD);
  freed_comm(b, t);
  MPI_Type_free(&t);
  free(b);
  return sem_finish("sem_progress");
}
