/* The one-sided routes (doc/rma.md): how an operation rma.c described
 * moves, as one or more MPICH operations. PACK: the operand packed,
 * results staged, one operation on the user's target type; BLOCKS: one
 * contiguous operation per target block; LOCKSTEP: the origin's blocks
 * against the target's, nothing staged; PIPE: chunk after chunk, each
 * packed and issued on the target's sub-range. */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include "host.h"
#include "rma.h"

int dlp_rma_issue(const rma *x, const void *from, void *to, MPI_Count n, MPI_Aint disp,
                 MPI_Count tcount, MPI_Datatype tdt, MPI_Request *req)
{
  MPI_Count k = n / x->esize;
  int r = x->rank;
  MPI_Win w = x->win;
  switch (x->kind) {
  case PUT:
    return req ? PMPI_Rput_c(from, k, x->el, r, disp, tcount, tdt, w, req)
               : PMPI_Put_c(from, k, x->el, r, disp, tcount, tdt, w);
  case GET:
    /* DLP_DEV_COMPLETE_EARLY_GET: MPI_Win_complete can return before
       contiguous gets that followed accumulates have arrived, and
       get-accumulates it waits for: a get of bytes onto a target of bytes
       goes as one */
    if (x->read_acc && !req && tdt == x->el && dlp_host_has(DLP_DEV_COMPLETE_EARLY_GET))
      return PMPI_Get_accumulate_c(NULL, 0, x->el, to, k, x->el, r, disp, tcount, tdt,
                                   MPI_NO_OP, w);
    return req ? PMPI_Rget_c(to, k, x->el, r, disp, tcount, tdt, w, req)
               : PMPI_Get_c(to, k, x->el, r, disp, tcount, tdt, w);
  case ACC:
    return req ? PMPI_Raccumulate_c(from, k, x->el, r, disp, tcount, tdt, x->op, w, req)
               : PMPI_Accumulate_c(from, k, x->el, r, disp, tcount, tdt, x->op, w);
  default:   /* MPI_NO_OP ignores the operand: the results stand in */
    if (!from)
      from = to;
    return req ? PMPI_Rget_accumulate_c(from, k, x->el, to, k, x->el, r, disp, tcount,
                                        tdt, x->op, w, req)
               : PMPI_Get_accumulate_c(from, k, x->el, to, k, x->el, r, disp, tcount,
                                       tdt, x->op, w);
  }
}

/* ---- routes ---- */

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

int dlp_rma_pack_route(rma *x)
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
  int64_t off[BATCH], len[BATCH];
  int level = 2;
  for (size_t at = 0; x->unit > 1 && at < x->n;) {
    size_t last = x->n, got = 0;
    if (dl_segment_offlen(ts, at, &last, off, len, BATCH, &got) != DL_OK || last <= at)
      return 0;
    for (size_t i = 0; i < got; i++) {
      if (off[i] % x->unit)
        return 0;
      if (len[i] % x->unit)
        level = 1;
    }
    at = last;
  }
  dl_segment *os;
  if (x->unit == 1 || level < 2 || !origin)
    return level;
  if (dl_segment_create(NULL, x->o.count, x->o.t, &os) != DL_OK)
    return 1;
  for (size_t at = 0; level == 2 && at < x->n;) {
    size_t last = x->n, got = 0;
    if (dl_segment_offlen(os, at, &last, off, len, BATCH, &got) != DL_OK || last <= at)
      level = 1;
    for (size_t i = 0; level == 2 && i < got; i++)
      if (len[i] % x->unit)
        level = 1;
    at = last;
  }
  dl_segment_free(&os);
  return level;
}

/* the target's blocks in stream bytes [at, end) as one hindexed type of
   elements, up to BATCH of them (*last: where they end); one block that
   read_acc must carry and the unit addresses: *sub stays null, *one is
   its offset */
static int sub_range(const rma *x, dl_segment *ts, size_t at, size_t *last,
                     MPI_Datatype *sub, int64_t *one)
{
  int64_t off[BATCH], len[BATCH];
  MPI_Count d[BATCH], k[BATCH];
  size_t got = 0;
  if (dl_segment_offlen(ts, at, last, off, len, BATCH, &got) != DL_OK || *last <= at)
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

int dlp_rma_blocks_route(rma *x, dl_segment *ts)
{
  int64_t off[BATCH], len[BATCH];
  size_t at = 0;
  int rc = MPI_SUCCESS;
  while (rc == MPI_SUCCESS && at < x->n) {
    size_t last = x->n, got = 0;
    if (dl_segment_offlen(ts, at, &last, off, len, BATCH, &got) != DL_OK || last <= at)
      return -MPI_ERR_INTERN;
    for (size_t i = 0; i < got && rc == MPI_SUCCESS; i++) {
      rc = one_block(x, x->from ? x->from + at : NULL, x->to ? x->to + at : NULL, off[i],
                     len[i]);
      at += (size_t)len[i];
    }
  }
  return rc;
}

/* the origin's blocks against the target's: one operation per overlap,
   from (a get: into) the user's memory where it lies, nothing staged */
int dlp_rma_lockstep_route(rma *x, dl_segment *ts)
{
  dl_segment *os;
  if (dl_segment_create(x->o.buf, x->o.count, x->o.t, &os) != DL_OK)
    return -MPI_ERR_NO_MEM;
  struct iovec iov[BATCH];
  int64_t off[BATCH], len[BATCH];
  size_t ni = 0, ii = 0, nt = 0, it = 0, oat = 0, tat = 0, iused = 0, tused = 0;
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
    last = x->n;
    if (it == nt) {
      if (dl_segment_offlen(ts, tat, &last, off, len, BATCH, &nt) != DL_OK || last <= tat) {
        rc = -MPI_ERR_INTERN;
        break;
      }
      tat = last;
      it = 0;
    }
    size_t a = iov[ii].iov_len - iused, b = (size_t)len[it] - tused, m = a < b ? a : b;
    char *mem = (char *)iov[ii].iov_base + iused;
    rc = one_block(x, x->kind == GET ? NULL : mem, x->kind == GET ? mem : NULL,
                   off[it] + (int64_t)tused, (int64_t)m);
    pos += m;
    iused += m;
    tused += m;
    if (iused == iov[ii].iov_len) {
      ii++;
      iused = 0;
    }
    if (tused == (size_t)len[it]) {
      it++;
      tused = 0;
    }
  }
  dl_segment_free(&os);
  return rc;
}

/* chunk after chunk: pack it, then issue it on the target's sub-range */
int dlp_rma_pipe_route(rma *x, dl_segment *ts)
{
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
    while (rc == MPI_SUCCESS && a < b) {
      MPI_Datatype sub = MPI_DATATYPE_NULL;
      int64_t one = 0;
      last = b;
      rc = sub_range(x, ts, a, &last, &sub, &one);
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

