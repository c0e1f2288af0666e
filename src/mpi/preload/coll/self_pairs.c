/* Which receive slot of a neighbour collective a slot this rank sends
 * itself lands in (a Cartesian topology periodic along a dimension of
 * one) is the host's choice, and hosts differ: the standard pairs the two
 * sides of a dimension, MPICH 4.0.2 matches such messages in the order it
 * posts them, and that order differs between its own collectives. The
 * interposer copies those slots here, type to type, only where it knows
 * the host's answer: it asks the host once per form, on a grid of this
 * process alone, and follows what it did. */
#include <pthread.h>
#include "coll.h"

enum { UNKNOWN, IN_ORDER, REVERSED };
enum { FORMS = 3, SLOTS = 4 };

static int answer[FORMS];
static pthread_once_t once[FORMS] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                     PTHREAD_ONCE_INIT};

/* MPI_Neighbor_alltoallw's form f (blocking, nonblocking, persistent) on
   a 2-D periodic grid of one rank: four slots, all facing this rank */
static int ask(int f)
{
  MPI_Comm g;
  int dims[2] = {1, 1}, periods[2] = {1, 1};
  if (PMPI_Cart_create(MPI_COMM_SELF, 2, dims, periods, 0, &g) != MPI_SUCCESS)
    return UNKNOWN;
  PMPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
  int s[SLOTS], r[SLOTS], ones[SLOTS];
  MPI_Aint at[SLOTS];
  MPI_Datatype t[SLOTS];
  for (int i = 0; i < SLOTS; i++) {
    s[i] = i;
    r[i] = -1;
    ones[i] = 1;
    at[i] = (MPI_Aint)(i * sizeof(int));
    t[i] = MPI_INT;
  }
  MPI_Request q = MPI_REQUEST_NULL;
  int rc;
  if (f == 0) {
    rc = PMPI_Neighbor_alltoallw(s, ones, at, t, r, ones, at, t, g);
  } else if (f == 1) {
    rc = PMPI_Ineighbor_alltoallw(s, ones, at, t, r, ones, at, t, g, &q);
    if (rc == MPI_SUCCESS)
      rc = dlp_next()->wait(&q, MPI_STATUS_IGNORE);
  } else {
#if MPI_VERSION >= 4   /* a host of MPI 3.1 has no persistent collectives */
    rc = PMPI_Neighbor_alltoallw_init(s, ones, at, t, r, ones, at, t, g, MPI_INFO_NULL, &q);
    if (rc == MPI_SUCCESS && (rc = dlp_next()->start(&q)) == MPI_SUCCESS)
      rc = dlp_next()->wait(&q, MPI_STATUS_IGNORE);
    if (q != MPI_REQUEST_NULL)
      dlp_next()->request_free(&q);
#else
    rc = MPI_ERR_INTERN;
#endif
  }
  PMPI_Comm_free(&g);
  bool in_order = rc == MPI_SUCCESS, reversed = rc == MPI_SUCCESS;
  for (int i = 0; i < SLOTS; i++) {
    in_order = in_order && r[i] == i;
    reversed = reversed && r[i] == SLOTS - 1 - i;
  }
  return in_order ? IN_ORDER : reversed ? REVERSED : UNKNOWN;
}

static void ask_0(void) { answer[0] = ask(0); }
static void ask_1(void) { answer[1] = ask(1); }
static void ask_2(void) { answer[2] = ask(2); }

int dlp_coll_self_pairs(const bool *self, int n, const dlp_how *how, int *recv, int *send)
{
  int mine[2 * DLP_COLL_MAXDIMS], m = 0;
  for (int i = 0; i < n && i < 2 * DLP_COLL_MAXDIMS; i++)
    if (self[i])
      mine[m++] = i;
  if (m == 0)
    return 0;
  int f = !how ? 0 : how->init ? 2 : 1;
  static void (*const asks[FORMS])(void) = {ask_0, ask_1, ask_2};
  pthread_once(&once[f], asks[f]);
  if (answer[f] == UNKNOWN)
    return 0;
  for (int k = 0; k < m; k++) {
    recv[k] = mine[k];
    send[k] = answer[f] == IN_ORDER ? mine[k] : mine[m - 1 - k];
  }
  return m;
}
