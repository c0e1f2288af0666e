/* Point-to-point calls with derived datatypes through dataloop.
 *
 * Default mode: a message is exactly one MPI message holding the native
 * packed stream, no header, moved as strategy.c chooses. PACK: a
 * derived-type send packs into a staging buffer and sends it as MPI_PACKED
 * bytes; a derived-type receive receives MPI_PACKED bytes into staging
 * and, at completion, unpacks only the bytes that arrived. BLOCKS: the
 * same bytes, which MPICH gathers from (or scatters to) the user's large
 * blocks itself, through an hindexed type of bytes. Either way the status
 * is MPICH's status of that byte transfer, so MPI_Get_count and
 * MPI_Get_elements with the user's type, truncation and cancellation are
 * MPICH's own. Predefined types and types whose data is one dense run go
 * to MPICH with the user's own arguments, no copy; so do MPI_PROC_NULL
 * peers and arguments MPICH must judge (a negative count, a null type).
 *
 * Pipeline mode (DL_PIPELINE=1, pipeline.c) receives messages of at least
 * a chunk as chunk streams, which a message of a chunk or more may also be
 * sent whole: dense data longer than a chunk always, derived data as its
 * plan chooses (a stream, packed whole, or its blocks as they lie; whole
 * and exactly a chunk, with an empty message after it). Blocking calls
 * then run as the nonblocking ones followed by the interposer's wait,
 * which progresses every stream. */
#include <limits.h>
#include <stdlib.h>
#include "preload.h"

/* the data of one side; a null peer sends or receives nothing, as is */
static int side(const void *buf, MPI_Count count, MPI_Datatype dt, int peer,
                dlp_data *d)
{
  if (peer != MPI_PROC_NULL)
    return dlp_data_get(buf, count, dt, d);
  *d = (dlp_data){.buf = (void *)buf, .count = count, .dt = dt, .named = true};
  return count < 0 || dt == MPI_DATATYPE_NULL ? DLP_PASS : MPI_SUCCESS;
}

/* counts a side with a derived type's data (dl_preload_counts) */
static void count_side(const dlp_data *d, int what)
{
  if (!dlp_straight(d))
    dlp_count(what);
}

/* What MPICH gets for data that needs no dataloop work: the user's own
   arguments for predefined types and empty data; a dense derived type as
   its bytes where they lie (MPICH would otherwise walk a struct of many
   members element by element, to the same bytes). */
static dlp_args direct(const dlp_data *d)
{
  if (d->named || d->bytes == 0)
    return (dlp_args){d->buf, d->count, d->dt};
  return (dlp_args){d->base, (MPI_Count)d->bytes, MPI_BYTE};
}

static const char *in_place_how(const dlp_data *d)
{
  return d->strategy == DLP_S_BLOCKS ? "the user's blocks" : "the user's type (MPICH)";
}

/* pipeline mode with a stream in progress or to start: blocking calls
   become nonblocking ones plus the interposer's wait */
static bool pipe_send(const dlp_data *d, int dest, int tag, MPI_Comm comm)
{
  return dlp_cfg()->pipeline &&
         (dlp_pipe_active() || dlp_pipe_send_needed(d, dest, tag, comm));
}

static bool pipe_recv(const dlp_data *d)
{
  return dlp_cfg()->pipeline && (dlp_pipe_active() || d->bytes >= dlp_cfg()->chunk);
}

/* ---- sends ---- */

/* pipeline mode, a message of exactly a chunk: sent whole, it reads as a
   stream's first chunk, so an empty message must follow it */
static bool one_chunk(const dlp_data *d)
{
  return dlp_cfg()->pipeline && d->bytes == dlp_cfg()->chunk;
}

/* how a send of d goes (d->strategy), its plan held until dlp_plan_done */
static void plan_send(dlp_data *d, int dest, int tag, MPI_Comm comm)
{
  const dlp_config *c = dlp_cfg();
  if (c->pipeline && dlp_pipe_blocked(dest, tag, comm)) {
    d->strategy = DLP_S_PIPE;           /* behind a stream: one too */
    d->plan = NULL;
    return;
  }
  dlp_plan(d, c->pipeline && d->bytes >= c->chunk);
  if (d->strategy == DLP_S_DIRECT && one_chunk(d))
    d->strategy = DLP_S_PIPE;           /* C bytes and an empty end */
}

/* starts the send of a planned d */
static int isend_planned(dlp_data *d, int dest, int tag, MPI_Comm comm, int mode,
                         MPI_Request *req)
{
  if (d->strategy != DLP_S_DIRECT && one_chunk(d))
    d->strategy = DLP_S_PIPE;           /* one request: the stream's */
  if (d->strategy == DLP_S_PIPE)
    return dlp_pipe_isend(d, dest, tag, comm, mode, req);
  dlp_args a;
  if (d->strategy == DLP_S_DIRECT) {
    a = direct(d);
    return dlp_isend_as(a.buf, a.count, a.dt, dest, tag, comm, mode, req);
  }
  if (dlp_in_place(d, false, 0, &a)) {
    DLP_TRACE("isend: %zu bytes from %s to %d, tag %d", d->bytes, in_place_how(d),
              dest, tag);
    return dlp_isend_as(a.buf, a.count, a.dt, dest, tag, comm, mode, req);
  }
  void *stage;
  int rc = dlp_stage_out(d, &stage);
  dlp_req *e = rc ? NULL : dlp_req_new(DLP_REQ_SEND);
  if (!e) {
    dlp_stage_put(stage);
    return dlp_raise(comm, rc ? rc : MPI_ERR_NO_MEM);
  }
  DLP_TRACE("isend: %zu packed bytes to %d, tag %d", d->bytes, dest, tag);
  rc = dlp_isend_as(stage, (MPI_Count)d->bytes, MPI_PACKED, dest, tag, comm, mode, req);
  if (rc) {
    dlp_stage_put(stage);
    free(e);
    return rc;
  }
  e->stage = stage;
  dlp_req_track(e, *req);
  return MPI_SUCCESS;
}

static int isend_data(const dlp_data *d0, int dest, int tag, MPI_Comm comm, int mode,
                      MPI_Request *req)
{
  dlp_data d = *d0;
  plan_send(&d, dest, tag, comm);
  int rc = isend_planned(&d, dest, tag, comm, mode, req);
  dlp_plan_done(&d);
  return rc;
}

static int send_common(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                       int tag, MPI_Comm comm, int mode)
{
  dlp_data d;
  int rc = dest == MPI_PROC_NULL ? DLP_PASS : side(buf, count, dt, dest, &d);
  if (rc)
    return rc == DLP_PASS ? dlp_send_as(buf, count, dt, dest, tag, comm, mode)
                          : dlp_raise(comm, rc);
  count_side(&d, DLP_N_SEND);
  /* timed: the plan may switch kinds by how long its sends take */
  bool piped = pipe_send(&d, dest, tag, comm);
  if (piped)
    plan_send(&d, dest, tag, comm);
  else
    dlp_plan(&d, false);
  double t0 = dlp_now();
  if (d.strategy == DLP_S_PIPE || (piped && dlp_pipe_active())) {
    /* a stream, or streams to progress while this one goes */
    MPI_Request r;
    rc = isend_planned(&d, dest, tag, comm, mode, &r);
    if (!rc)
      rc = dlp_wait(&r, MPI_STATUS_IGNORE);
    dlp_plan_timed_done(&d, rc ? -1 : dlp_now() - t0);
    return rc;
  }
  dlp_args a;
  if (d.strategy == DLP_S_DIRECT) {
    a = direct(&d);
    return dlp_send_as(a.buf, a.count, a.dt, dest, tag, comm, mode);
  }
  if (dlp_in_place(&d, false, 0, &a)) {
    DLP_TRACE("send: %zu bytes from %s to %d, tag %d", d.bytes, in_place_how(&d),
              dest, tag);
    rc = dlp_send_as(a.buf, a.count, a.dt, dest, tag, comm, mode);
  } else {
    void *stage;
    if ((rc = dlp_stage_out(&d, &stage))) {
      dlp_plan_timed_done(&d, -1);
      return dlp_raise(comm, rc);
    }
    DLP_TRACE("send: %zu packed bytes to %d, tag %d", d.bytes, dest, tag);
    rc = dlp_send_as(stage, (MPI_Count)d.bytes, MPI_PACKED, dest, tag, comm, mode);
    dlp_stage_put(stage);
  }
  if (!rc && one_chunk(&d))             /* the end a stream receive waits for */
    rc = dlp_send_as(d.buf, 0, MPI_PACKED, dest, tag, comm,
                     mode == DLP_BUFFERED ? DLP_BUFFERED : DLP_STANDARD);
  dlp_plan_timed_done(&d, rc ? -1 : dlp_now() - t0);
  return rc;
}

static int isend_common(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                        int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  dlp_data d;
  int rc = req ? side(buf, count, dt, dest, &d) : DLP_PASS;
  if (rc)
    return rc == DLP_PASS ? dlp_isend_as(buf, count, dt, dest, tag, comm, mode, req)
                          : dlp_raise(comm, rc);
  count_side(&d, DLP_N_SEND);
  return isend_data(&d, dest, tag, comm, mode, req);
}

/* ---- receives ---- */

/* plans a receive of d (a stream receive in pipeline mode from a chunk
   on); its plan held until dlp_plan_done or dlp_plan_received */
static bool plan_recv(dlp_data *d)
{
  bool stream = dlp_cfg()->pipeline && d->bytes >= dlp_cfg()->chunk;
  dlp_plan(d, stream);
  return stream;
}

/* starts the receive of a planned d */
static int irecv_planned(dlp_data *d, bool stream, int src, int tag, MPI_Comm comm,
                         MPI_Request *req)
{
  if (stream)
    return dlp_pipe_irecv(d, src, tag, comm, req);
  dlp_args a;
  if (d->strategy == DLP_S_DIRECT) {
    a = direct(d);
    return dlp_irecv_as(a.buf, a.count, a.dt, src, tag, comm, req);
  }
  if (dlp_in_place(d, true, 0, &a)) {
    DLP_TRACE("irecv: up to %zu bytes into %s from %d, tag %d", d->bytes,
              in_place_how(d), src, tag);
    return dlp_irecv_as(a.buf, a.count, a.dt, src, tag, comm, req);
  }
  void *stage = dlp_stage_get(d->bytes);
  dlp_req *e = stage ? dlp_req_new(DLP_REQ_RECV) : NULL;
  if (!e) {
    dlp_stage_put(stage);
    return dlp_raise(comm, MPI_ERR_NO_MEM);
  }
  DLP_TRACE("irecv: up to %zu packed bytes from %d, tag %d", d->bytes, src, tag);
  int rc = dlp_irecv_as(stage, (MPI_Count)d->bytes, MPI_PACKED, src, tag, comm, req);
  if (rc) {
    dlp_stage_put(stage);
    free(e);
    return rc;
  }
  e->stage = stage;
  e->d = *d;
  e->d.plan = NULL;
  dl_type_retain(e->d.t);    /* the user may free the type before completion */
  dlp_req_track(e, *req);
  return MPI_SUCCESS;
}

static int irecv_data(const dlp_data *d0, int src, int tag, MPI_Comm comm,
                      MPI_Request *req)
{
  dlp_data d = *d0;
  bool stream = plan_recv(&d);
  int rc = irecv_planned(&d, stream, src, tag, comm, req);
  dlp_plan_done(&d);
  return rc;
}

/* a staged blocking receive: MPICH's status and code, what arrived
   unpacked */
static int recv_staged(const dlp_data *d, int src, int tag, MPI_Comm comm,
                       MPI_Status *status)
{
  void *stage = dlp_stage_get(d->bytes);
  if (!stage)
    return dlp_raise(comm, MPI_ERR_NO_MEM);
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  DLP_TRACE("recv: up to %zu packed bytes from %d, tag %d", d->bytes, src, tag);
  int rc = dlp_recv_as(stage, (MPI_Count)d->bytes, MPI_PACKED, src, tag, comm, st);
  if (rc == MPI_SUCCESS || dlp_class(rc) == MPI_ERR_TRUNCATE)
    dlp_stage_in(d, stage, dlp_status_bytes(st));
  dlp_stage_put(stage);
  return rc;
}

static int recv_common(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                       MPI_Comm comm, MPI_Status *status)
{
  dlp_data d;
  int rc;
  if (dlp_parked_recv(buf, count, dt, src, tag, comm, status, &rc))
    return rc;
  rc = src == MPI_PROC_NULL ? DLP_PASS : side(buf, count, dt, src, &d);
  if (rc)
    return rc == DLP_PASS ? dlp_recv_as(buf, count, dt, src, tag, comm, status)
                          : dlp_raise(comm, rc);
  count_side(&d, DLP_N_RECV);
  /* timed, like sends: the whole blocking receive, unpacking included */
  bool stream = plan_recv(&d);
  double t0 = dlp_now();
  dlp_args a;
  if (stream && !dlp_pipe_active()) {
    rc = dlp_pipe_recv(&d, src, tag, comm, status);
  } else if (pipe_recv(&d)) {
    MPI_Request r;
    rc = irecv_planned(&d, stream, src, tag, comm, &r);
    if (!rc)
      rc = dlp_wait(&r, status);
  } else if (d.strategy == DLP_S_DIRECT) {
    a = direct(&d);
    rc = dlp_recv_as(a.buf, a.count, a.dt, src, tag, comm, status);
  } else if (dlp_in_place(&d, true, 0, &a)) {
    DLP_TRACE("recv: up to %zu bytes into %s from %d, tag %d", d.bytes,
              in_place_how(&d), src, tag);
    rc = dlp_recv_as(a.buf, a.count, a.dt, src, tag, comm, status);
  } else {
    rc = recv_staged(&d, src, tag, comm, status);
  }
  dlp_plan_received(&d, rc ? -1 : dlp_now() - t0);
  return rc;
}

static int irecv_common(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                        MPI_Comm comm, MPI_Request *req)
{
  dlp_data d;
  int rc;
  if (req && dlp_parked_irecv(buf, count, dt, src, tag, comm, req, &rc))
    return rc;
  rc = req ? side(buf, count, dt, src, &d) : DLP_PASS;
  if (rc)
    return rc == DLP_PASS ? dlp_irecv_as(buf, count, dt, src, tag, comm, req)
                          : dlp_raise(comm, rc);
  count_side(&d, DLP_N_RECV);
  return irecv_data(&d, src, tag, comm, req);
}

/* ---- sendrecv ---- */

static int sendrecv_as(const void *sb, MPI_Count sc, MPI_Datatype st, int dest,
                       int stag, void *rb, MPI_Count rc, MPI_Datatype rt, int src,
                       int rtag, MPI_Comm comm, MPI_Status *status)
{
  if (sc <= INT_MAX && rc <= INT_MAX)
    return PMPI_Sendrecv(sb, (int)sc, st, dest, stag, rb, (int)rc, rt, src, rtag,
                         comm, status);
  return PMPI_Sendrecv_c(sb, sc, st, dest, stag, rb, rc, rt, src, rtag, comm, status);
}

/* both sides as nonblocking operations and the interposer's wait: the
   receive first, so a message to oneself cannot wait for itself. A null
   peer's side is MPICH's blocking call (MPICH 4.0.2's MPI_Irecv from
   MPI_PROC_NULL completes with source 0 and tag 0 in its status) */
static int sendrecv_pipe(const dlp_data *s, int dest, int stag, const dlp_data *r,
                         int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
  if (src == MPI_PROC_NULL) {
    int rc = send_common(s->buf, s->count, s->dt, dest, stag, comm, DLP_STANDARD);
    return rc ? rc : PMPI_Recv(r->buf, 0, MPI_BYTE, src, rtag, comm, status);
  }
  if (dest == MPI_PROC_NULL)
    return recv_common(r->buf, r->count, r->dt, src, rtag, comm, status);
  MPI_Request q[2];
  int rc = irecv_data(r, src, rtag, comm, &q[0]);
  if (rc)
    return rc;
  rc = isend_data(s, dest, stag, comm, DLP_STANDARD, &q[1]);
  if (rc) {
    dlp_cancel(&q[0]);
    dlp_wait(&q[0], MPI_STATUS_IGNORE);
    return rc;
  }
  int rr = dlp_wait(&q[0], status), rs = dlp_wait(&q[1], MPI_STATUS_IGNORE);
  return rr ? rr : rs;
}

static int sendrecv_common(const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                           int dest, int stag, void *rbuf, MPI_Count rcount,
                           MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                           MPI_Status *status)
{
  dlp_data s, r;
  int rc;
  if (dlp_parked_recv(rbuf, rcount, rtype, src, rtag, comm, status, &rc)) {
    int sc = send_common(sbuf, scount, stype, dest, stag, comm, DLP_STANDARD);
    return rc ? rc : sc;
  }
  int es = side(sbuf, scount, stype, dest, &s);
  int er = side(rbuf, rcount, rtype, src, &r);
  if (es == DLP_PASS || er == DLP_PASS)
    return sendrecv_as(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src,
                       rtag, comm, status);
  if (es || er)
    return dlp_raise(comm, es ? es : er);
  count_side(&s, DLP_N_SEND);
  count_side(&r, DLP_N_RECV);
  if (pipe_send(&s, dest, stag, comm) || pipe_recv(&r))
    return sendrecv_pipe(&s, dest, stag, &r, src, rtag, comm, status);
  if (dlp_straight(&s) && dlp_straight(&r)) {
    dlp_args a = direct(&s), b = direct(&r);
    return sendrecv_as(a.buf, a.count, a.dt, dest, stag, b.buf, b.count, b.dt, src,
                       rtag, comm, status);
  }
  /* each side as one byte transfer: the user's blocks, or staged */
  dlp_plan(&s, false);
  dlp_plan(&r, false);
  dlp_args a = {0}, b = {0};
  bool sb = dlp_in_place(&s, false, 0, &a), rb = dlp_in_place(&r, true, 0, &b);
  void *so = NULL, *ri = NULL;
  rc = dlp_straight(&s) || sb ? MPI_SUCCESS : dlp_stage_out(&s, &so);
  if (!rc && !dlp_straight(&r) && !rb && !(ri = dlp_stage_get(r.bytes)))
    rc = MPI_ERR_NO_MEM;
  if (rc) {
    dlp_stage_put(so);
    dlp_plan_done(&s);
    dlp_plan_done(&r);
    return dlp_raise(comm, rc);
  }
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  if (!sb)
    a = so ? (dlp_args){so, (MPI_Count)s.bytes, MPI_PACKED} : direct(&s);
  if (!rb)
    b = ri ? (dlp_args){ri, (MPI_Count)r.bytes, MPI_PACKED} : direct(&r);
  rc = sendrecv_as(a.buf, a.count, a.dt, dest, stag, b.buf, b.count, b.dt, src, rtag,
                   comm, st);
  dlp_plan_done(&s);
  dlp_plan_done(&r);
  if (ri && (rc == MPI_SUCCESS || dlp_class(rc) == MPI_ERR_TRUNCATE))
    dlp_stage_in(&r, ri, dlp_status_bytes(st));
  dlp_stage_put(so);
  dlp_stage_put(ri);
  return rc;
}

/* ---- the MPI entry points ---- */

#define SEND(NAME, T, MODE)                                                    \
  int NAME(const void *buf, T count, MPI_Datatype datatype, int dest, int tag, \
           MPI_Comm comm)                                                      \
  {                                                                            \
    return send_common(buf, count, datatype, dest, tag, comm, MODE);           \
  }
SEND(MPI_Send, int, DLP_STANDARD)
SEND(MPI_Send_c, MPI_Count, DLP_STANDARD)
SEND(MPI_Ssend, int, DLP_SYNC)
SEND(MPI_Ssend_c, MPI_Count, DLP_SYNC)
SEND(MPI_Rsend, int, DLP_READY)
SEND(MPI_Rsend_c, MPI_Count, DLP_READY)
SEND(MPI_Bsend, int, DLP_BUFFERED)
SEND(MPI_Bsend_c, MPI_Count, DLP_BUFFERED)

#define ISEND(NAME, T, MODE)                                                    \
  int NAME(const void *buf, T count, MPI_Datatype datatype, int dest, int tag,  \
           MPI_Comm comm, MPI_Request *request)                                 \
  {                                                                             \
    return isend_common(buf, count, datatype, dest, tag, comm, MODE, request);  \
  }
ISEND(MPI_Isend, int, DLP_STANDARD)
ISEND(MPI_Isend_c, MPI_Count, DLP_STANDARD)
ISEND(MPI_Issend, int, DLP_SYNC)
ISEND(MPI_Issend_c, MPI_Count, DLP_SYNC)

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, MPI_Status *status)
{
  return recv_common(buf, count, datatype, source, tag, comm, status);
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status)
{
  return recv_common(buf, count, datatype, source, tag, comm, status);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, MPI_Request *request)
{
  return irecv_common(buf, count, datatype, source, tag, comm, request);
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                int tag, MPI_Comm comm, MPI_Request *request)
{
  return irecv_common(buf, count, datatype, source, tag, comm, request);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  return sendrecv_common(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
}

int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Status *status)
{
  return sendrecv_common(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
}
