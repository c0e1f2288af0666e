/* The request forms of one-sided operations (MPI_Rput, MPI_Rget, ...):
 * the request the program gets, whose completion flushes the target and
 * finishes the staging, or which an unlock or a flush of the target
 * finishes first. */
#include <stdlib.h>
#include "../base/host.h"
#include "rma.h"

static int request_finish(dlp_op *op, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  (void)st;
  *raise_on = MPI_COMM_NULL;
  /* DLP_DEV_RMA_DERIVED_EARLY: the request of an operation on a derived
     target type completes before its data moved (an MPI_Rget's buffer
     still unwritten), and its local completion can be early too: remote
     completion first (a request form is in a passive-target epoch, where
     this is allowed) */
  if (err == MPI_SUCCESS && !op->synced && dlp_host_has(DLP_DEV_RMA_DERIVED_EARLY))
    err = PMPI_Win_flush(op->peer, op->win);
  if (op->recv && err == MPI_SUCCESS)
    dlp_stage_in(&op->d, op->stage, op->d.bytes);
  dlp_stage_put(op->stage);
  op->stage = NULL;
  return err;
}
static const dlp_route request_route = {NULL, request_finish, NULL};

typedef struct sync_key {
  MPI_Win win;
  int rank;
} sync_key;

static bool synced_by(dlp_op *op, const void *arg)
{
  const sync_key *k = arg;
  if (op->via != &request_route || op->win != k->win || (k->rank >= 0 && op->peer != k->rank))
    return false;
  op->synced = true;       /* completed remotely: no flush at its finish */
  return true;
}

/* an unlock or a flush completes the request forms to its targets; after
   an unlock, a flush at their finish would be erroneous */
void dlp_rma_requests_synced(MPI_Win win, int rank)
{
  sync_key k = {win, rank};
  dlp_req_settle_picked(synced_by, &k);
}

/* the request form: the operation whose request completes it (whole: the
   whole transfer on the user's target type; else an empty one issued after
   the route's pieces, whose completion flushes them all); its staging is
   done with when the request completes */
int dlp_rma_start_request(rma *x, bool whole, MPI_Request *req)
{
  dlp_req *e = dlp_req_new();
  if (!e)
    return -MPI_ERR_NO_MEM;
  int rc = whole ? dlp_rma_issue(x, x->from, x->to, (MPI_Count)x->n, x->disp, x->t.count,
                         x->t.dt, &e->op.req)
                 : dlp_rma_issue(x, x->from, x->to, 0, x->disp, 0, x->el, &e->op.req);
  if (rc != MPI_SUCCESS) {
    free(e);
    return rc;
  }
  e->op.route = DLP_R_PACK;
  e->op.via = &request_route;
  e->op.peer = x->rank;
  e->op.win = x->win;
  e->op.recv = x->into != NULL;
  e->op.d = x->into ? *x->into : x->o;
  e->op.stage = x->stage;
  x->stage = NULL;
  return -dlp_req_track(e, req);      /* an own error class, negated */
}

