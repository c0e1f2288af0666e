/* A fence's count exchange (landing.c): every rank contributes a row of
 * counts, one group per rank, and learns the sum of its group over all
 * rows. Across nodes that is one MPI_Ireduce_scatter_block per fence. On
 * one node each rank writes its row into memory every rank maps (a small
 * window of MPI_Win_allocate_shared made with the landing state), stamps
 * it with the number of the exchange, and sums its column once every row
 * carries that stamp: a few cache lines instead of a collective, which
 * cost more than MPICH's whole fence (doc/rma.md, "Landed"). A row is
 * rewritten only in the next exchange, which no rank starts before every
 * rank left MPICH's fence, and so read them all. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "window.h"

typedef struct row {
  _Atomic uint64_t stamp;      /* the exchange the counts are for */
  char pad[56];                /* the counts on a line of their own */
  int counts[];                /* nranks * per */
} row;

struct dlp_tally {
  MPI_Comm comm;
  int nranks, me, per;
  uint64_t stamp;              /* exchanges started here */
  MPI_Win win;                 /* shared: the rows; else MPI_WIN_NULL */
  row **rows;                  /* each rank's, as mapped here */
  int next;                    /* rows seen stamped so far */
  MPI_Request sum;             /* otherwise: the reduce-scatter */
};

bool dlp_on_one_node(MPI_Comm comm)
{
  MPI_Comm node = MPI_COMM_NULL;
  int n = 0, m = 0;
  if (PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
      MPI_SUCCESS)
    return false;
  PMPI_Comm_size(comm, &n);
  PMPI_Comm_size(node, &m);
  PMPI_Comm_free(&node);
  return m == n;
}

/* the rows, mapped: every rank agrees whether it has them (an allreduce) */
static int map_rows(dlp_tally *t)
{
  size_t bytes = sizeof(row) + sizeof(int) * (size_t)t->nranks * (size_t)t->per;
  bytes = (bytes + 63) & ~(size_t)63;   /* rows end to end, none sharing a line */
  row *mine = NULL;
  int rc = PMPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, t->comm, &mine,
                                    &t->win);
  t->rows = rc == MPI_SUCCESS ? calloc((size_t)t->nranks, sizeof(*t->rows)) : NULL;
  for (int r = 0; t->rows && r < t->nranks; r++) {
    MPI_Aint size = 0;
    int unit = 0;
    if (PMPI_Win_shared_query(t->win, r, &size, &unit, &t->rows[r]) != MPI_SUCCESS ||
        !t->rows[r] || (size_t)size < bytes) {
      free(t->rows);
      t->rows = NULL;
    }
  }
  if (t->rows)
    atomic_store_explicit(&mine->stamp, 0, memory_order_relaxed);
  int ok[2] = {t->win != MPI_WIN_NULL, t->rows != NULL}, all[2] = {0, 0};
  int arc = PMPI_Allreduce(ok, all, 2, MPI_INT, MPI_MIN, t->comm);
  if (arc == MPI_SUCCESS && all[1])
    return PMPI_Barrier(t->comm);        /* every stamp 0 before the first */
  free(t->rows);
  t->rows = NULL;
  /* freeing is collective: a window MPICH made on some ranks only is left
     to MPI_Finalize */
  if (arc == MPI_SUCCESS && all[0])
    PMPI_Win_free(&t->win);
  t->win = MPI_WIN_NULL;
  return arc;
}

int dlp_tally_new(MPI_Comm comm, int per, bool share, dlp_tally **out)
{
  dlp_tally *t = calloc(1, sizeof(*t));
  if (!t)
    return MPI_ERR_NO_MEM;
  *t = (dlp_tally){.comm = comm, .per = per, .win = MPI_WIN_NULL,
                   .sum = MPI_REQUEST_NULL};
  int rc = PMPI_Comm_size(comm, &t->nranks);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Comm_rank(comm, &t->me);
  if (rc == MPI_SUCCESS && share && dlp_on_one_node(comm))
    rc = map_rows(t);
  if (rc != MPI_SUCCESS) {
    free(t);
    return rc;
  }
  *out = t;
  return MPI_SUCCESS;
}

void dlp_tally_free(dlp_tally *t)
{
  if (!t)
    return;
  if (t->sum != MPI_REQUEST_NULL)       /* an erroneous program's */
    dlp_next()->wait(&t->sum, MPI_STATUS_IGNORE);
  if (t->win != MPI_WIN_NULL)
    PMPI_Win_free(&t->win);
  free(t->rows);
  free(t);
}

int dlp_tally_start(dlp_tally *t, const int *counts, int *mine)
{
  t->stamp++;
  t->next = 0;
  if (!t->rows)
    return PMPI_Ireduce_scatter_block(counts, mine, t->per, MPI_INT, MPI_SUM, t->comm,
                                      &t->sum);
  row *r = t->rows[t->me];
  memcpy(r->counts, counts, sizeof(int) * (size_t)t->nranks * (size_t)t->per);
  atomic_store_explicit(&r->stamp, t->stamp, memory_order_release);
  dlp_rma_count(DLP_RMA_SHARED_FENCE);
  return MPI_SUCCESS;
}

int dlp_tally_test(dlp_tally *t, int *mine, int *done)
{
  if (!t->rows)
    return dlp_next()->test(&t->sum, done, MPI_STATUS_IGNORE);
  while (t->next < t->nranks &&
         atomic_load_explicit(&t->rows[t->next]->stamp, memory_order_acquire) == t->stamp)
    t->next++;
  *done = t->next == t->nranks;
  if (!*done)
    return MPI_SUCCESS;
  memset(mine, 0, sizeof(int) * (size_t)t->per);
  for (int r = 0; r < t->nranks; r++)
    for (int k = 0; k < t->per; k++)
      mine[k] += t->rows[r]->counts[t->me * t->per + k];
  return MPI_SUCCESS;
}
