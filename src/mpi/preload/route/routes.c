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
#include <stdatomic.h>
#include <stdlib.h>
#include "route.h"

/* sunk receives (below) staged in a whole chunk at once, at most: the
   common case without a type per receive, the memory bounded */
#define WHOLE_MAX 4
static atomic_int wholes;

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

/* a receive shorter than a pipeline chunk, posted with room for a whole
   chunk, so that a stream's first chunk arrives whole and is known by its
   size: a chunk of staging while few are, else its bytes in the staging
   buffer and up to a chunk's more in the stream module's sink (the type
   is MPICH's to hold once posted) */
static int post_sunk(dlp_op *op)
{
  size_t c = dlp_chunk();       /* at most 1 GiB (config.c), more than bytes */
  dlp_room room;
  if (atomic_fetch_add(&wholes, 1) < WHOLE_MAX && (op->stage = dlp_room_get(c))) {
    if (dlp_room_post(op->stage, c, &room)) {
      op->whole = true;
      op->gap = room.gap;
      int rc = post(op, room.buf, room.count, room.dt);
      dlp_room_posted(&room);
      return rc;
    }
    dlp_stage_put(op->stage);       /* no room type (out of memory): the sink */
    op->stage = NULL;
  }
  atomic_fetch_sub(&wholes, 1);
  char *sink = dlp_stream_sink();
  if (!sink || !(op->stage = dlp_stage_get(op->d.bytes)))
    return MPI_ERR_NO_MEM;
  MPI_Aint at[2];
  int len[2] = {(int)op->d.bytes, (int)(c - op->d.bytes)};
  MPI_Datatype t;
  PMPI_Get_address(op->stage, &at[0]);
  PMPI_Get_address(sink, &at[1]);
  int rc = PMPI_Type_create_hindexed(2, len, at, MPI_BYTE, &t);
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&t)) == MPI_SUCCESS) {
    rc = post(op, MPI_BOTTOM, 1, t);
    PMPI_Type_free(&t);
  }
  return rc;
}

/* a sunk receive's start; out of memory (no staging) raised as the
   interposer's, MPICH's errors as MPICH raised them */
static int sunk_start(dlp_op *op)
{
  int rc = post_sunk(op);
  if (rc == MPI_SUCCESS)
    return rc;
  if (op->whole)
    atomic_fetch_sub(&wholes, 1);
  op->whole = false;
  if (!op->stage)
    return dlp_raise(op->comm, rc);
  dlp_stage_put(op->stage);
  op->stage = NULL;
  return rc;
}

static int pack_start(dlp_op *op)
{
  if (op->sink)
    return sunk_start(op);
  int rc = MPI_SUCCESS;
  if (!op->recv)
    rc = dlp_stage_out(&op->d, &op->stage);
  else if (!(op->stage = dlp_room_get(op->d.bytes)))
    rc = MPI_ERR_NO_MEM;
  if (rc)
    return dlp_raise(op->comm, rc);
  dlp_room room;
  if (!op->recv) {
    rc = post(op, op->stage, (MPI_Count)op->d.bytes, MPI_PACKED);
  } else if (dlp_room_post(op->stage, op->d.bytes, &room)) {
    op->gap = room.gap;
    rc = post(op, room.buf, room.count, room.dt);
    dlp_room_posted(&room);
  } else {                 /* no room the host cannot overrun: its own receive */
    dlp_stage_put(op->stage);
    op->stage = NULL;
    return post(op, op->d.buf, op->d.count, op->d.dt);
  }
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

/* a sunk receive's message longer than its buffer: what fits delivered,
   MPI_ERR_TRUNCATE raised on the communicator, and if it was a stream's
   first chunk the rest of the stream drained, so that no later receive
   takes it */
static int sunk_truncated(dlp_op *op, MPI_Status *st, size_t got, MPI_Comm *raise_on)
{
  dlp_stage_in(&op->d, op->stage, op->d.bytes);
  PMPI_Status_set_elements_x(st, MPI_BYTE, (MPI_Count)op->d.bytes);
  const dlp_stream_module *m = dlp_stream_mod();
  int rc = got == dlp_chunk() && m ? m->drain(st->MPI_SOURCE, st->MPI_TAG, op->comm)
                                   : MPI_SUCCESS;
  *raise_on = op->comm;
  return rc ? rc : MPI_ERR_TRUNCATE;
}

static int pack_finish(dlp_op *op, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  *raise_on = MPI_COMM_NULL;
  if (op->whole)
    atomic_fetch_sub(&wholes, 1);
  if (!op->stage)
    return err;                       /* the host received the user's data */
  size_t got = err == MPI_SUCCESS ? dlp_status_bytes(st) : 0;
  if (op->gap)
    dlp_room_close(op->stage, op->whole ? dlp_chunk() : op->d.bytes, got);
  if (op->sink && got > op->d.bytes && !cancelled(st)) {
    err = sunk_truncated(op, st, got, raise_on);
    dlp_stage_put(op->stage);
    op->stage = NULL;
    return err;
  }
  /* a truncated receive delivers nothing: MPICH's status then counts the
     buffer's bytes, not what it wrote into the staging memory (which may be
     nothing), Open MPI's the message's, and its MPI_Request_get_status
     says success (the request's completion reports the truncation); a
     cancelled or failed one delivers nothing either */
  if (op->recv && err == MPI_SUCCESS && got <= op->d.bytes && !cancelled(st))
    dlp_stage_in(&op->d, op->stage, got);
  dlp_stage_put(op->stage);
  op->stage = NULL;
  return err;
}

static const dlp_route table[DLP_NROUTES - 1] = {
  [DLP_R_DIRECT] = {direct_start, NULL, NULL},
  [DLP_R_PACK] = {pack_start, pack_finish, NULL},
  [DLP_R_BLOCKS] = {blocks_start, NULL, NULL},
  [DLP_R_MPICH] = {mpich_start, NULL, NULL},
};

const dlp_route *dlp_route_of(int route)
{
  return route == DLP_R_PIPE ? &dlp_stream_mod()->route : &table[route];
}

void dlp_op_cancel(dlp_op *op)
{
  const dlp_route *r = dlp_op_route(op);
  if (r->cancel)
    r->cancel(op);
  else
    dlp_next()->cancel(&op->req);
}

bool dlp_op_final_at_start(const dlp_op *op)
{
  return op->route != DLP_R_PIPE && !op->sink;
}
