/* A request's state is true whenever the program asks: once
 * MPI_Request_get_status says a receive is complete, its data is in the
 * buffer (before any wait), and its status gives the sender, the tag and
 * the count; the request stays valid for a wait that returns the same.
 * The receiver polls only MPI_Request_get_status while the message, short
 * or long (a stream in the pipeline mode), is on its way: that alone must
 * let it complete. MPI_Get_count and MPI_Get_elements of a derived type
 * count whole copies and basic elements. */
#include "sem.h"

/* n doubles, every second of 2n */
static MPI_Datatype strided(int n)
{
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

static void one(int n, int tag)
{
  double *b = calloc((size_t)(2 * n), sizeof(double));
  MPI_Datatype t = strided(n);
  if (sem_rank == 0) {
    for (int i = 0; i < n; i++)
      b[2 * i] = tag * 1e6 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request q;
    OK(MPI_Isend(b, 1, t, 1, tag, MPI_COMM_WORLD, &q));
    int flag = 0;
    while (!flag)
      OK(MPI_Request_get_status(q, &flag, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
  } else if (sem_rank == 1) {
    MPI_Request q;
    OK(MPI_Irecv(b, 1, t, 0, tag, MPI_COMM_WORLD, &q));
    MPI_Barrier(MPI_COMM_WORLD);
    int flag = 0;
    MPI_Status st;
    while (!flag)
      OK(MPI_Request_get_status(q, &flag, &st));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
      if (b[2 * i] != tag * 1e6 + i)
        bad = i;
    CHECK(bad < 0, "%d doubles: complete by MPI_Request_get_status, double %d is %g",
          n, bad, bad < 0 ? 0.0 : b[2 * bad]);
    int count = -1, elements = -1;
    MPI_Get_count(&st, t, &count);
    MPI_Get_elements(&st, MPI_DOUBLE, &elements);
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == tag && count == 1 && elements == n,
          "%d doubles: MPI_Request_get_status's status: source %d, tag %d, count %d, "
          "elements %d", n, st.MPI_SOURCE, st.MPI_TAG, count, elements);
    memset(&st, 0, sizeof st);
    OK(MPI_Wait(&q, &st));
    MPI_Get_count(&st, t, &count);
    CHECK(q == MPI_REQUEST_NULL && st.MPI_SOURCE == 0 && st.MPI_TAG == tag && count == 1,
          "%d doubles: the wait after MPI_Request_get_status: source %d, tag %d, "
          "count %d", n, st.MPI_SOURCE, st.MPI_TAG, count);
  }
  MPI_Type_free(&t);
  free(b);
}

/* a receive of part of a type: MPI_Get_count is MPI_UNDEFINED, and
   MPI_Get_elements counts the doubles that arrived */
static void partial(void)
{
  double b[64] = {0};
  MPI_Datatype t = strided(10);
  if (sem_rank == 0) {
    OK(MPI_Send(b, 25, MPI_DOUBLE, 1, 50, MPI_COMM_WORLD));
  } else if (sem_rank == 1) {
    MPI_Status st;
    OK(MPI_Recv(b, 3, t, 0, 50, MPI_COMM_WORLD, &st));
    int count = 0, elements = -1;
    MPI_Get_count(&st, t, &count);
    MPI_Get_elements(&st, t, &elements);
    CHECK(count == MPI_UNDEFINED && elements == 25,
          "25 doubles into 3 vectors of 10: count %d (MPI_UNDEFINED), elements %d",
          count, elements);
  }
  MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  one(10, 1);
  one(3000, 2);
  one(200000, 3);
  partial();
  return sem_finish("sem_status");
}
