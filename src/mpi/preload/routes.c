/* The routes a derived-type message takes (doc/tuning.md). Every route
 * puts the same bytes on the wire, the native packed stream, so the two
 * ends of a message may take different routes:
 *
 *   DIRECT  the user's own arguments (a predefined type, empty data), or
 *           the dense run as bytes
 *   PACK    packed into a staging buffer (a receive: received there, and
 *           what arrived unpacked at completion)
 *   BLOCKS  the user's buffer as an hindexed type of bytes over its blocks:
 *           MPICH moves them where they lie
 *   MPICH   the user's own arguments, MPICH's engine moving the data
 *           (receives only of types it receives whole, plan.c)
 *   PIPE    the pipeline module's chunk stream (pipeline.c)
 *
 * An operation is a start and, for the routes that need one, a finish
 * once MPICH completed its request; a blocking call is both around a
 * wait, a nonblocking one leaves the finish to the completion calls. */
#include <stdlib.h>
#include "preload.h"

static int post(dlp_op *op, void *buf, MPI_Count n, MPI_Datatype dt)
{
  if (op->recv && op->matched)
    return dlp_imrecv_as(buf, n, dt, &op->msg, &op->req);
  if (op->recv)
    return dlp_irecv_as(buf, n, dt, op->peer, op->tag, op->comm, &op->req);
  return dlp_isend_as(buf, n, dt, op->peer, op->tag, op->comm, op->mode, &op->req);
}

static int direct_start(dlp_op *op)
{
  const dlp_data *d = &op->d;
  if (d->named || d->bytes == 0)
    return post(op, d->buf, d->count, d->dt);
  return post(op, d->base, (MPI_Count)d->bytes, MPI_BYTE);
}

static int blocks_start(dlp_op *op)
{
  return post(op, op->d.buf, 1, op->blocks);
}

static int mpich_start(dlp_op *op)
{
  return post(op, op->d.buf, op->d.count, op->d.dt);
}

static int pack_start(dlp_op *op)
{
  int rc = MPI_SUCCESS;
  if (!op->recv)
    rc = dlp_stage_out(&op->d, &op->stage);
  else if (!(op->stage = dlp_stage_get(op->d.bytes)))
    rc = MPI_ERR_NO_MEM;
  if (rc)
    return dlp_raise(op->comm, rc);
  rc = post(op, op->stage, (MPI_Count)op->d.bytes, MPI_PACKED);
  if (rc) {
    dlp_stage_put(op->stage);
    op->stage = NULL;
  }
  return rc;
}

static bool cancelled(const MPI_Status *st)
{
  int flag = 0;
  return PMPI_Test_cancelled(st, &flag) == MPI_SUCCESS && flag;
}

static int pack_finish(dlp_op *op, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  *raise_on = MPI_COMM_NULL;
  /* a truncated receive delivers nothing: MPICH's status then counts the
     buffer's bytes, not what it wrote into the staging memory (which may be
     nothing); a cancelled or failed one delivers nothing either */
  if (op->recv && err == MPI_SUCCESS && !cancelled(st))
    dlp_stage_in(&op->d, op->stage, dlp_status_bytes(st));
  dlp_stage_put(op->stage);
  op->stage = NULL;
  return err;
}

static const dlp_route table[DLP_NROUTES - 1] = {
  [DLP_R_DIRECT] = {direct_start, NULL},
  [DLP_R_PACK] = {pack_start, pack_finish},
  [DLP_R_BLOCKS] = {blocks_start, NULL},
  [DLP_R_MPICH] = {mpich_start, NULL},
};

const dlp_route *dlp_route_of(int route)
{
  return route == DLP_R_PIPE ? &dlp_stream_mod()->route : &table[route];
}

int dlp_run(dlp_op *op, MPI_Status *status)
{
  const dlp_route *r = dlp_route_of(op->route);
  int rc = r->start(op);
  if (rc)
    return rc;
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  int idx;
  rc = dlp_block_any(1, &op->req, &idx, st);
  if (!r->finish)
    return rc;
  MPI_Comm on;
  rc = r->finish(op, st, rc, &on);
  return on == MPI_COMM_NULL ? rc : dlp_raise(on, rc);
}

int dlp_start(dlp_op *op, MPI_Request *req)
{
  const dlp_route *r = dlp_route_of(op->route);
  dlp_req *e = NULL;
  if (r->finish && !(e = dlp_req_new()))
    return dlp_raise(op->comm, MPI_ERR_NO_MEM);
  int rc = r->start(op);
  if (rc) {
    free(e);
    return rc;
  }
  if (!e) {
    *req = op->req;
    return MPI_SUCCESS;
  }
  e->op = *op;
  rc = dlp_req_track(e, req);
  return rc ? dlp_raise(op->comm, rc) : rc;
}
