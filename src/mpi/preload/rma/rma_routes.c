/* The one-sided routes (doc/rma.md), a table (rma.h names them): how an
 * operation rma.c described moves. DIRECT and MPICH: the call's own
 * arguments to MPICH; PACK: the operand packed, results staged, one
 * operation on the user's target type; BLOCKS: one contiguous operation
 * per target block; LOCKSTEP: the origin's blocks against the target's,
 * nothing staged; PIPE: chunk after chunk, each packed and issued on the
 * target's sub-range; LANDED: sent to land at the target (landing.c);
 * MAPPED: copied type to type into the target's memory mapped here. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include "../base/host.h"
#include "rma.h"
#include "../../../mpich/tr.h"

int dlp_rma_stage(rma *x, bool pack_operand)
{
  bool results = x->kind == GET || x->kind == GET_ACC;
  dlp_data *res = x->kind == GET ? &x->o : &x->r;
  bool stage_res = results && !res->dense, stage_op = x->operand && !x->o.dense;
  x->from = x->operand && x->o.dense ? x->o.base : NULL;
  x->to = results && res->dense ? res->base : NULL;
  if (!stage_res && !stage_op)
    return MPI_SUCCESS;
  x->stage = dlp_stage_get((stage_res ? x->n : 0) + (stage_op ? x->n : 0));
  if (!x->stage)
    return -MPI_ERR_NO_MEM;
  if (stage_res) {
    x->to = x->stage;
    x->into = res;
  }
  if (stage_op) {
    x->from = x->stage + (stage_res ? x->n : 0);
    size_t pos = 0;
    if (pack_operand && dl_pack(x->o.buf, x->o.count, x->o.t, (char *)x->from, x->n, &pos))
      return -MPI_ERR_INTERN;
  }
  return MPI_SUCCESS;
}

/* a block of len bytes of x at byte off from the target address (a
   multiple of its unit: alignment), from `from` (results to `to`), as one
   contiguous operation */
static int one_block(const rma *x, const char *from, char *to, int64_t off, int64_t len)
{
  return dlp_rma_issue(x, from, to, len, x->disp + (MPI_Aint)(off / x->unit), len / x->esize,
               x->el, NULL);
}

static int pack_moves(rma *x)
{
  /* onto a dense target: one block of bytes, as read_acc must carry it
     (where the unit addresses it) */
  int64_t off = (int64_t)(intptr_t)x->t.base;
  if (x->read_acc && x->t.dense && off % x->unit == 0)
    return one_block(x, x->from, x->to, off, (int64_t)x->n);
  return dlp_rma_issue(x, x->from, x->to, (MPI_Count)x->n, x->disp, x->t.count, x->t.dt, NULL);
}

/* how the target's unit addresses x's blocks: 0, some target block
   begins where it cannot (DLP_DEV_GET_ACC_UNALIGNED: get-accumulates
   fail on the one-block types that would address it); 1, every one begins at a
   multiple of it; 2, and every length, the origin's blocks' too, is a
   multiple of it, so that block against block every piece is addressed
   (origin: check those) */
int dlp_rma_alignment(const rma *x, dl_segment *ts, bool origin)
{
  dli_tr_cursor c;
  int64_t off, len;
  int level = 2;
  if (x->unit > 1) {
    dli_tr_cursor_start(&c, ts, 0, x->n);
    while (dli_tr_cursor_next(&c, &off, &len)) {
      if (off % x->unit)
        return 0;
      if (len % x->unit)
        level = 1;
    }
    if (c.rc != DL_OK)
      return 0;
  }
  dl_segment *os;
  if (x->unit == 1 || level < 2 || !origin)
    return level;
  if (dl_segment_create(NULL, x->o.count, x->o.t, &os) != DL_OK)
    return 1;
  dli_tr_cursor_start(&c, os, 0, x->n);
  while (level == 2 && dli_tr_cursor_next(&c, &off, &len))
    if (len % x->unit)
      level = 1;
  if (c.rc != DL_OK)
    level = 1;
  dl_segment_free(&os);
  return level;
}

/* the target's next blocks from cursor c as one hindexed type of
   elements, up to BATCH of them (*last: where they end); one block that
   read_acc must carry and the unit addresses: *sub stays null, *one is
   its offset */
static int sub_range(const rma *x, dli_tr_cursor *c, size_t *last, MPI_Datatype *sub,
                     int64_t *one)
{
  const int64_t *off, *len;
  MPI_Count d[BATCH], k[BATCH];
  size_t got = 0;
  if (!dli_tr_cursor_batch(c, BATCH, &off, &len, &got, last))
    return -MPI_ERR_INTERN;
  if (got == 1 && x->read_acc && off[0] % x->unit == 0) {
    *one = off[0];
    return MPI_SUCCESS;
  }
  for (size_t i = 0; i < got; i++) {
    d[i] = off[i];
    k[i] = len[i] / x->esize;
  }
  int rc = PMPI_Type_create_hindexed_c((MPI_Count)got, k, d, x->el, sub);
  return rc == MPI_SUCCESS ? PMPI_Type_commit(sub) : rc;
}

static int blocks_moves(rma *x)
{
  dli_tr_cursor c;
  dli_tr_cursor_start(&c, x->ts, 0, x->n);
  int64_t off, len;
  size_t at = 0;
  int rc = MPI_SUCCESS;
  while (rc == MPI_SUCCESS && dli_tr_cursor_next(&c, &off, &len)) {
    rc = one_block(x, x->from ? x->from + at : NULL, x->to ? x->to + at : NULL, off, len);
    at += (size_t)len;
  }
  return rc == MPI_SUCCESS && c.rc != DL_OK ? -MPI_ERR_INTERN : rc;
}

/* the origin's blocks against the target's: one operation per overlap,
   from (a get: into) the user's memory where it lies, nothing staged */
static int lockstep_moves(rma *x)
{
  dl_segment *ts = x->ts;
  dl_segment *os;
  if (dl_segment_create(x->o.buf, x->o.count, x->o.t, &os) != DL_OK)
    return -MPI_ERR_NO_MEM;
  struct iovec iov[BATCH];
  dli_tr_cursor c;
  dli_tr_cursor_start(&c, ts, 0, x->n);
  int64_t toff = 0, tlen = 0;     /* the target block in hand */
  size_t ni = 0, ii = 0, oat = 0, iused = 0, tused = 0;
  int rc = MPI_SUCCESS;
  for (size_t pos = 0; rc == MPI_SUCCESS && pos < x->n;) {
    size_t last = x->n;
    if (ii == ni) {
      if (dl_segment_iov(os, oat, &last, iov, BATCH, &ni) != DL_OK || last <= oat) {
        rc = -MPI_ERR_INTERN;
        break;
      }
      oat = last;
      ii = 0;
    }
    if (tused == (size_t)tlen) {
      if (!dli_tr_cursor_next(&c, &toff, &tlen)) {
        rc = -MPI_ERR_INTERN;
        break;
      }
      tused = 0;
    }
    size_t a = iov[ii].iov_len - iused, b = (size_t)tlen - tused, m = a < b ? a : b;
    char *mem = (char *)iov[ii].iov_base + iused;
    rc = one_block(x, x->kind == GET ? NULL : mem, x->kind == GET ? mem : NULL,
                   toff + (int64_t)tused, (int64_t)m);
    pos += m;
    iused += m;
    tused += m;
    if (iused == iov[ii].iov_len) {
      ii++;
      iused = 0;
    }
  }
  dl_segment_free(&os);
  return rc;
}

/* chunk after chunk: pack it, then issue it on the target's sub-range */
static int pipe_moves(rma *x)
{
  dl_segment *ts = x->ts;
  size_t chunk = x->chunk ? x->chunk : (size_t)x->esize;
  dl_segment *os = NULL;
  bool pack = x->from && x->from != x->o.base;
  if (pack && dl_segment_create(x->o.buf, x->o.count, x->o.t, &os) != DL_OK)
    return -MPI_ERR_NO_MEM;
  int rc = MPI_SUCCESS;
  for (size_t a = 0; a < x->n && rc == MPI_SUCCESS;) {
    size_t b = x->n - a < chunk ? x->n : a + chunk, last = b;
    if (pack && dl_segment_pack(os, a, &last, (char *)x->from + a) != DL_OK)
      rc = -MPI_ERR_INTERN;
    dli_tr_cursor c;
    dli_tr_cursor_start(&c, ts, a, b);
    while (rc == MPI_SUCCESS && a < b) {
      MPI_Datatype sub = MPI_DATATYPE_NULL;
      int64_t one = 0;
      rc = sub_range(x, &c, &last, &sub, &one);
      const char *from = x->from ? x->from + a : NULL;
      char *to = x->to ? x->to + a : NULL;
      if (rc == MPI_SUCCESS)
        rc = sub == MPI_DATATYPE_NULL
           ? one_block(x, from, to, one, (int64_t)(last - a))
           : dlp_rma_issue(x, from, to, (MPI_Count)(last - a), x->disp, 1, sub, NULL);
      if (sub != MPI_DATATYPE_NULL)
        PMPI_Type_free(&sub);   /* MPI keeps it for the operation */
      a = last;
    }
  }
  dl_segment_free(&os);
  return rc;
}

/* ---- the call's own arguments ---- */

static int pass(const rma_args *a, MPI_Request *req)
{
  switch (a->kind) {
  case PUT:
    return req ? PMPI_Rput_c(a->origin, a->ocount, a->otype, a->rank, a->disp,
                             a->tcount, a->ttype, a->win, req)
               : PMPI_Put_c(a->origin, a->ocount, a->otype, a->rank, a->disp,
                            a->tcount, a->ttype, a->win);
  case GET:
    return req ? PMPI_Rget_c(a->result, a->rcount, a->rtype, a->rank, a->disp,
                             a->tcount, a->ttype, a->win, req)
               : PMPI_Get_c(a->result, a->rcount, a->rtype, a->rank, a->disp,
                            a->tcount, a->ttype, a->win);
  case ACC:
    return req ? PMPI_Raccumulate_c(a->origin, a->ocount, a->otype, a->rank, a->disp,
                                    a->tcount, a->ttype, a->op, a->win, req)
               : PMPI_Accumulate_c(a->origin, a->ocount, a->otype, a->rank, a->disp,
                                   a->tcount, a->ttype, a->op, a->win);
  default:
    return req ? PMPI_Rget_accumulate_c(a->origin, a->ocount, a->otype, a->result,
                                        a->rcount, a->rtype, a->rank, a->disp,
                                        a->tcount, a->ttype, a->op, a->win, req)
               : PMPI_Get_accumulate_c(a->origin, a->ocount, a->otype, a->result,
                                       a->rcount, a->rtype, a->rank, a->disp,
                                       a->tcount, a->ttype, a->op, a->win);
  }
}

/* the user's arguments with a derived type to MPICH: where it makes the
   request of such an operation complete before its data moved
   (DLP_DEV_RMA_DERIVED_EARLY: an MPI_Rget's buffer unwritten), a request
   made complete is completed for real (remote completion: MPICH's local
   one is early too) */
static int mpich_issue(rma *x, MPI_Request *req)
{
  const rma_args *a = x->args;
  int rc = pass(a, req), done = 0;
  if (rc == MPI_SUCCESS && req && dlp_host_has(DLP_DEV_RMA_DERIVED_EARLY) &&
      dlp_next()->request_get_status(*req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done)
    rc = PMPI_Win_flush(a->rank, a->win);
  return rc;
}

static int direct_issue(rma *x, MPI_Request *req)
{
  return x->derived ? mpich_issue(x, req) : pass(x->args, req);
}

/* ---- the routes that move the stream themselves ---- */

/* after a route's moves: the request form's handle, made complete by the
   last of them (but PACK's, which is that operation's own); staging left
   to the synchronization that completes the operation (or MPI_Win_free),
   also after a failure part way, since operations may read it; an own
   error (a class, negated) raised on the window */
static int moved(rma *x, int rc, MPI_Request *req, bool own_request)
{
  if (rc == MPI_SUCCESS && req && !own_request)
    rc = dlp_rma_start_request(x, false, req);
  if (x->stage && dlp_win_defer(dlp_win_of(x->win), x->rank, x->stage, x->into))
    rc = rc ? rc : -MPI_ERR_NO_MEM;
  if (rc >= 0)
    return rc;
  return dlp_raise_win_msg(x->win, -rc, "%s: %s", x->call,
                           -rc == MPI_ERR_NO_MEM ? "out of memory for staging"
                                                 : "the target type could not be listed");
}

static int pack_issue(rma *x, MPI_Request *req)
{
  int rc = dlp_rma_stage(x, true);
  if (rc == MPI_SUCCESS)
    rc = req ? dlp_rma_start_request(x, true, req) : pack_moves(x);
  return moved(x, rc, req, true);
}

static int blocks_issue(rma *x, MPI_Request *req)
{
  int rc = dlp_rma_stage(x, true);
  return moved(x, rc == MPI_SUCCESS ? blocks_moves(x) : rc, req, false);
}

static int lockstep_issue(rma *x, MPI_Request *req)
{
  return moved(x, lockstep_moves(x), req, false);
}

static int pipe_issue(rma *x, MPI_Request *req)
{
  int rc = dlp_rma_stage(x, false);
  return moved(x, rc == MPI_SUCCESS ? pipe_moves(x) : rc, req, false);
}

/* ---- elsewhere than through MPICH's operations ---- */

/* a put or get sent to land in the target's memory at its fence */
static int landed_issue(rma *x, MPI_Request *req)
{
  (void)req;                     /* no request form lands */
  MPI_Aint off;
  dlp_landing *l = dlp_win_landing(x->w);
  int rc = __builtin_mul_overflow(x->disp, x->unit, &off) ? MPI_ERR_RMA_RANGE
         : x->kind == PUT ? dlp_land(l, x->rank, off, &x->o, &x->t, x->chunk)
                          : dlp_land_get(l, x->rank, off, &x->o, &x->t, x->chunk);
  return rc == MPI_SUCCESS ? rc : dlp_raise_win_msg(x->win, rc, "%s: could not be sent "
                                                    "to land", x->call);
}

/* x copied type to type between the origin and the target's memory at
   x->mem, as MPICH copies into the windows it maps, at the call
   (doc/rma.md); first an empty operation of the same kind, whose checks
   of the epoch are MPICH's (its errors through the window's handler) and
   whose request is the request form's */
static int mapped_issue(rma *x, MPI_Request *req)
{
  int rc = dlp_rma_issue(x, NULL, NULL, 0, x->disp, 0, MPI_BYTE, req);
  if (rc != MPI_SUCCESS)
    return rc;
  MPI_Aint off;
  if (__builtin_mul_overflow(x->disp, x->unit, &off))
    return dlp_raise_win_msg(x->win, MPI_ERR_RMA_RANGE, "%s: the target range lies "
                             "outside rank %d's window", x->call, x->rank);
  const dlp_data *o = &x->o, *t = &x->t;
  char *mem = x->mem;
  size_t copied = 0;
  int dlrc = x->kind == PUT
           ? dl_copy(o->buf, (dl_count)o->count, o->t, mem + off, (dl_count)t->count, t->t,
                     &copied)
           : dl_copy(mem + off, (dl_count)t->count, t->t, o->buf, (dl_count)o->count, o->t,
                     &copied);
  atomic_thread_fence(memory_order_seq_cst);
  return dlrc == DL_OK ? MPI_SUCCESS
                       : dlp_raise_win_msg(x->win, dlp_class_of(dlrc), "%s: the copy into "
                                           "mapped memory failed: %s", x->call,
                                           dl_strerror(dlrc));
}

const dlp_rma_route dlp_rma_routes[DLP_RMA_R_N] = {
  [DLP_RMA_R_DIRECT] = {direct_issue, {DLP_R_DIRECT, -1}},
  [DLP_RMA_R_MPICH] = {mpich_issue, {DLP_R_MPICH, -1}},
  [DLP_RMA_R_PACK] = {pack_issue, {DLP_R_PACK, -1}},
  [DLP_RMA_R_BLOCKS] = {blocks_issue, {DLP_R_BLOCKS, -1}},
  [DLP_RMA_R_LOCKSTEP] = {lockstep_issue, {DLP_R_BLOCKS, DLP_RMA_SLOT_LOCKSTEP}},
  [DLP_RMA_R_PIPE] = {pipe_issue, {DLP_R_PIPE, -1}},
  [DLP_RMA_R_LANDED] = {landed_issue, {DLP_R_PACK, DLP_RMA_SLOT_LANDED}},
  [DLP_RMA_R_MAPPED] = {mapped_issue, {DLP_RMA_SLOT_MAPPED, -1}},
};
