/* Point-to-point calls with derived datatypes through dataloop.
 *
 * A message is exactly one MPI message holding the native packed stream,
 * no header (in pipeline mode, a message of a chunk or more may be a
 * stream of them, pipeline.c). Each call describes its data, picks the
 * route once (plan.c chooses per (type, count)) and runs it (routes.c):
 * a blocking call starts it and waits, a nonblocking one leaves the rest
 * to the completion calls. The status is MPICH's status of the byte
 * transfer, so MPI_Get_count and MPI_Get_elements with the user's type,
 * truncation and cancellation are MPICH's own. Predefined types and dense
 * data go to MPICH as they are, with no copy; so do MPI_PROC_NULL peers
 * and arguments MPICH must judge (a negative count, a null type). */
#include <limits.h>
#include <stdlib.h>
#include "preload.h"

/* one side of a call: MPI_SUCCESS, DLP_PASS (MPICH's business) or an
   error class */
static int op_init(dlp_op *op, bool recv, const void *buf, MPI_Count count,
                   MPI_Datatype dt, int peer, int tag, MPI_Comm comm, int mode)
{
  *op = (dlp_op){.recv = recv, .mode = mode, .peer = peer, .tag = tag, .comm = comm,
                 .blocks = MPI_DATATYPE_NULL, .req = MPI_REQUEST_NULL};
  if (peer == MPI_PROC_NULL)
    return DLP_PASS;
  int rc = dlp_data_get(buf, count, dt, &op->d);
  if (rc == MPI_SUCCESS && !op->d.named)
    dlp_count(recv ? DLP_N_RECV : DLP_N_SEND);
  return rc;
}

/* MPICH takes the side with the user's own arguments: a null peer, or a
   predefined type outside pipeline mode (where a long message may be a
   stream) */
static bool plain(const dlp_op *op, int rc)
{
  return (rc == DLP_PASS && op->peer == MPI_PROC_NULL) ||
         (rc == MPI_SUCCESS && op->d.named && !dlp_streams());
}

/* the route of op, its plan held in *c until dlp_choice_done. Pipeline
   mode: a receive of a chunk or more is a stream receive (its first
   receive lands as the plan says); a send is a stream where the plan says
   so, where it is exactly a chunk (whole, it would read as a first chunk),
   or behind a stream to the same place */
static void route(dlp_op *op, dlp_choice *c)
{
  const dlp_stream_module *m = dlp_streams();
  size_t n = op->d.bytes, chunk = m ? dlp_chunk() : 0;
  bool stream = m && n >= chunk;
  if (dlp_straight(&op->d))
    *c = (dlp_choice){.route = DLP_R_DIRECT, .first = DLP_R_DIRECT,
                      .blocks = MPI_DATATYPE_NULL};
  else
    dlp_choose(&op->d, stream, op->recv, c);
  if (m && (op->recv ? stream : n == chunk || m->blocked(op->peer, op->tag, op->comm))) {
    if (c->route != DLP_R_PIPE)
      c->first = c->route;
    c->route = DLP_R_PIPE;
  }
  op->route = c->route;
  op->first = c->first;
  op->blocks = c->blocks;
  if (!op->d.named)
    dlp_route_count(op->route, op->recv);
  if (!op->d.named && op->recv && op->route == DLP_R_PIPE && op->first == DLP_R_MPICH)
    dlp_route_count(DLP_R_MPICH, true);   /* MPICH's engine places its start */
}

static int run(dlp_op *op, MPI_Status *status)
{
  dlp_choice c;
  route(op, &c);
  int rc = dlp_run(op, status);
  dlp_choice_done(&c, op->recv, rc == MPI_SUCCESS);
  return rc;
}

static int start(dlp_op *op, MPI_Request *req)
{
  dlp_choice c;
  route(op, &c);
  int rc = dlp_start(op, req);
  dlp_choice_done(&c, op->recv, false);
  return rc;
}

static int send_common(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                       int tag, MPI_Comm comm, int mode)
{
  dlp_op op;
  int rc = op_init(&op, false, buf, count, dt, dest, tag, comm, mode);
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_send_as(buf, count, dt, dest, tag, comm, mode);
  if (rc)
    return dlp_raise(comm, rc);
  return run(&op, MPI_STATUS_IGNORE);
}

static int isend_common(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                        int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  dlp_op op;
  int rc = req ? op_init(&op, false, buf, count, dt, dest, tag, comm, mode) : DLP_PASS;
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_isend_as(buf, count, dt, dest, tag, comm, mode, req);
  if (rc)
    return dlp_raise(comm, rc);
  return start(&op, req);
}

static int recv_common(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                       MPI_Comm comm, MPI_Status *status)
{
  int rc;
  if (dlp_parked_recv(buf, count, dt, src, tag, comm, status, &rc))
    return rc;
  dlp_op op;
  rc = op_init(&op, true, buf, count, dt, src, tag, comm, DLP_STANDARD);
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_recv_as(buf, count, dt, src, tag, comm, status);
  if (rc)
    return dlp_raise(comm, rc);
  return run(&op, status);
}

static int irecv_common(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                        MPI_Comm comm, MPI_Request *req)
{
  int rc;
  if (req && dlp_parked_irecv(buf, count, dt, src, tag, comm, req, &rc))
    return rc;
  dlp_op op;
  rc = req ? op_init(&op, true, buf, count, dt, src, tag, comm, DLP_STANDARD) : DLP_PASS;
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_irecv_as(buf, count, dt, src, tag, comm, req);
  if (rc)
    return dlp_raise(comm, rc);
  return start(&op, req);
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

/* both sides started, the receive first (a message to oneself cannot wait
   for itself), then waited for */
static int sendrecv_ops(dlp_op *s, dlp_op *r, MPI_Status *status)
{
  MPI_Request q[2];
  int rc = start(r, &q[0]);
  if (rc)
    return rc;
  rc = start(s, &q[1]);
  if (rc) {
    dlp_cancel(&q[0]);
    dlp_wait(&q[0], MPI_STATUS_IGNORE);
    return rc;
  }
  int rr = dlp_wait(&q[0], status), rs = dlp_wait(&q[1], MPI_STATUS_IGNORE);
  return rr ? rr : rs;
}

/* a sendrecv to oneself whose receive can only match its own send (no
   message of oneself is waiting that it could match first, no stream is
   sending there): dataloop copies type to type (dl_copy), nothing staged.
   true when it did, *rc its code and status filled */
static bool self_copy(const dlp_op *s, const dlp_op *r, MPI_Status *status, int *rc)
{
  int me, inter = 1, waiting = 1;
  const dlp_stream_module *m = dlp_streams();
  if ((s->d.named && r->d.named) || s->d.bytes != r->d.bytes ||
      PMPI_Comm_test_inter(s->comm, &inter) != MPI_SUCCESS || inter ||
      PMPI_Comm_rank(s->comm, &me) != MPI_SUCCESS || s->peer != me ||
      (r->peer != me && r->peer != MPI_ANY_SOURCE) ||
      (r->tag != s->tag && r->tag != MPI_ANY_TAG) ||
      (m && m->blocked(s->peer, s->tag, s->comm)) ||
      PMPI_Iprobe(r->peer, r->tag, r->comm, &waiting, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
      waiting)
    return false;
  size_t copied = 0;
  dlp_detail_clear();
  int dlrc = dl_copy(s->d.buf, s->d.count, s->d.t, r->d.buf, r->d.count, r->d.t, &copied);
  if (dlrc) {
    *rc = dlp_raise_dl(s->comm, "MPI_Sendrecv", dlp_class_of(dlrc), dlrc);
    return true;
  }
  dlp_count(DLP_N_COPY);
  if (status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = me;
    status->MPI_TAG = s->tag;
    status->MPI_ERROR = MPI_SUCCESS;
    PMPI_Status_set_elements_x(status, MPI_BYTE, (MPI_Count)copied);
    PMPI_Status_set_cancelled(status, 0);
  }
  *rc = MPI_SUCCESS;
  return true;
}

static int sendrecv_common(const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                           int dest, int stag, void *rbuf, MPI_Count rcount,
                           MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                           MPI_Status *status)
{
  int rc;
  if (dlp_parked_recv(rbuf, rcount, rtype, src, rtag, comm, status, &rc)) {
    int sc = send_common(sbuf, scount, stype, dest, stag, comm, DLP_STANDARD);
    return rc ? rc : sc;
  }
  dlp_op s, r;
  int es = op_init(&s, false, sbuf, scount, stype, dest, stag, comm, DLP_STANDARD);
  int er = op_init(&r, true, rbuf, rcount, rtype, src, rtag, comm, DLP_STANDARD);
  bool judge = (es == DLP_PASS && dest != MPI_PROC_NULL) ||
               (er == DLP_PASS && src != MPI_PROC_NULL);
  if (judge || (plain(&s, es) && plain(&r, er)))
    return sendrecv_as(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
                       comm, status);
  if (es > 0 || er > 0)
    return dlp_raise(comm, es > 0 ? es : er);
  if (es == MPI_SUCCESS && er == MPI_SUCCESS && self_copy(&s, &r, status, &rc))
    return rc;
  /* a null peer's side is MPICH's blocking call (MPICH 4.0.2's MPI_Irecv
     from MPI_PROC_NULL completes with source 0 and tag 0 in its status) */
  if (er == DLP_PASS) {
    rc = run(&s, MPI_STATUS_IGNORE);
    return rc ? rc : dlp_recv_as(rbuf, rcount, rtype, src, rtag, comm, status);
  }
  if (es == DLP_PASS) {
    rc = run(&r, status);
    int sc = dlp_send_as(sbuf, scount, stype, dest, stag, comm, DLP_STANDARD);
    return rc ? rc : sc;
  }
  return sendrecv_ops(&s, &r, status);
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
