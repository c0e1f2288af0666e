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
 * and arguments MPICH must judge (a negative count, a null type, a peer
 * outside the group). MPICH judges a derived type's call before anything
 * moves: the same call to MPI_PROC_NULL, which checks every argument but
 * the peer and moves nothing (an uncommitted type, a bad tag or
 * communicator get MPICH's error through MPICH's handler call). */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include "p2p.h"

/* MPICH raised an error on the caller's arguments (its handler was
   called): op->raised holds the code to return */
enum { RAISED = -2 };

/* whether peer names a process of comm's (remote) group, or any */
static bool peer_ok(int peer, bool recv, MPI_Comm comm)
{
  int inter = 0, size = 0;
  if (recv && peer == MPI_ANY_SOURCE)
    return true;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
      (inter ? PMPI_Comm_remote_size(comm, &size) : PMPI_Comm_size(comm, &size)) !=
          MPI_SUCCESS)
    return false;
  return peer >= 0 && peer < size;
}

/* MPICH's checks of the call, with MPI_PROC_NULL for the peer */
static int judge(bool recv, const void *buf, MPI_Count count, MPI_Datatype dt, int tag,
                 MPI_Comm comm)
{
  MPI_Status st;
  if (count <= INT_MAX)
    return recv ? PMPI_Recv((void *)buf, (int)count, dt, MPI_PROC_NULL, tag, comm, &st)
                : PMPI_Send(buf, (int)count, dt, MPI_PROC_NULL, tag, comm);
  return recv ? PMPI_Recv_c((void *)buf, count, dt, MPI_PROC_NULL, tag, comm, &st)
              : PMPI_Send_c(buf, count, dt, MPI_PROC_NULL, tag, comm);
}

/* one side of a call: MPI_SUCCESS, DLP_PASS (MPICH's business), RAISED
   or an error class */
static int op_init(dlp_op *op, bool recv, const void *buf, MPI_Count count,
                   MPI_Datatype dt, int peer, int tag, MPI_Comm comm, int mode)
{
  *op = (dlp_op){.recv = recv, .mode = mode, .peer = peer, .tag = tag, .comm = comm,
                 .blocks = MPI_DATATYPE_NULL, .req = MPI_REQUEST_NULL};
  if (peer == MPI_PROC_NULL)
    return DLP_PASS;
  int rc = dlp_data_get(buf, count, dt, &op->d);
  if (rc == MPI_SUCCESS && op->d.bytes >= dlp_chunk())
    dlp_count(DLP_N_LONG);
  if (rc != MPI_SUCCESS || op->d.named)
    return rc;
  if (!peer_ok(peer, recv, comm))
    return DLP_PASS;
  if ((op->raised = judge(recv, buf, count, dt, tag, comm)) != MPI_SUCCESS)
    return RAISED;
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
   receive lands as the plan says); a shorter nonblocking one of a derived
   type is packed, with room for a whole chunk, so that a stream truncated
   there is known and drained (routes.c); a
   send is a stream where the plan says so, where it is exactly a chunk
   (whole, it would read as a first chunk), or behind a stream to the same
   place */
static void route(dlp_op *op, dlp_choice *c)
{
  const dlp_stream_module *m = dlp_streams();
  size_t n = op->d.bytes, chunk = m ? dlp_chunk() : 0;
  bool stream = m && n >= chunk;
  bool straight = dlp_straight(&op->d);
  if (straight)
    *c = (dlp_choice){.route = DLP_R_DIRECT, .first = DLP_R_DIRECT,
                      .blocks = MPI_DATATYPE_NULL};
  else
    dlp_choose(&op->d, stream, op->recv, c);
  op->sink = m && op->recv && !stream && !straight && !op->matched;
  if (op->sink)
    c->route = DLP_R_PACK;
  else if (m && (op->recv ? stream : n == chunk || m->blocked(op->peer, op->tag, op->comm))) {
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

/* a stream of exactly a chunk that went by its plan's route counts there
   too */
static void count_unpacked(const dlp_op *op)
{
  if (op->unpacked)
    dlp_route_count(op->first, false);
}

static int run(dlp_op *op, MPI_Status *status)
{
  dlp_choice c;
  route(op, &c);
  int rc = dlp_run(op, status);
  count_unpacked(op);
  dlp_choice_done(&c, op->recv, rc == MPI_SUCCESS);
  return rc;
}

/* receives the chunks of a stream after its first, from source with tag,
   into chunk (of a chunk's bytes), until the short last one */
static int drain_stream(void *chunk, int source, int tag, MPI_Comm comm)
{
  size_t c = dlp_chunk(), got = c;
  while (got == c) {
    MPI_Request q;
    MPI_Status st;
    int idx, rc = dlp_irecv_as(chunk, (MPI_Count)c, MPI_BYTE, source, tag, comm, &q);
    if (rc == MPI_SUCCESS)
      rc = dlp_block_any(1, &q, &idx, &st);
    if (rc != MPI_SUCCESS)
      return rc;
    got = dlp_status_bytes(&st);
  }
  return MPI_SUCCESS;
}

/* A blocking receive matches its message first (MPI_Mprobe), so that a
   message longer than the buffer never reaches MPICH's completion calls,
   which raise every error on MPI_COMM_WORLD's handler: MPICH's MPI_Recv
   raises a truncation on the receive's communicator. A message that fits
   is received as the route says (MPI_Imrecv); a longer one arrives whole
   in staging memory, the buffer gets its first bytes, and MPI_ERR_TRUNCATE
   goes to the communicator's handler. In the pipeline mode a receive of a
   chunk or more is the stream module's, and a shorter one probes without
   blocking, moving the rank's streams between probes. */
static int recv_matched(dlp_op *op, MPI_Status *status)
{
  const dlp_stream_module *m = dlp_streams(), *busy;
  if (m && op->d.bytes >= dlp_chunk())
    return run(op, status);
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc, found = 0;
  if (!m)
    rc = PMPI_Mprobe(op->peer, op->tag, op->comm, &op->msg, st);
  else
    while ((rc = PMPI_Improbe(op->peer, op->tag, op->comm, &found, &op->msg, st)) ==
               MPI_SUCCESS && !found)
      if ((busy = dlp_streams_busy()))
        busy->progress();
  if (rc != MPI_SUCCESS)
    return rc;               /* raised by MPICH, on the communicator */
  MPI_Count n = 0;
  if (PMPI_Get_count_c(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
    n = 0;
  op->matched = true;
  if ((size_t)n <= op->d.bytes)
    return run(op, status);
  void *whole = dlp_stage_get((size_t)n);
  if (!whole) {
    /* the message must leave the queue all the same */
    char none;
    PMPI_Mrecv(&none, 0, MPI_BYTE, &op->msg, MPI_STATUS_IGNORE);
    return dlp_raise(op->comm, MPI_ERR_NO_MEM);
  }
  rc = n <= INT_MAX ? PMPI_Mrecv(whole, (int)n, MPI_BYTE, &op->msg, st)
                    : PMPI_Mrecv_c(whole, n, MPI_BYTE, &op->msg, st);
  if (rc == MPI_SUCCESS) {
    dlp_stage_in(&op->d, whole, op->d.bytes);
    /* a stream's first chunk: its other chunks leave the queue too */
    if (m && (size_t)n == dlp_chunk())
      rc = drain_stream(whole, st->MPI_SOURCE, st->MPI_TAG, op->comm);
    PMPI_Status_set_elements_x(st, MPI_BYTE, (MPI_Count)op->d.bytes);
  }
  dlp_stage_put(whole);
  if (rc != MPI_SUCCESS)
    return rc;
  return dlp_raise_msg(op->comm, MPI_ERR_TRUNCATE,
                       "MPI_Recv: a message of %lld bytes into a buffer of %zu",
                       (long long)n, op->d.bytes);
}

static int start(dlp_op *op, MPI_Request *req)
{
  dlp_choice c;
  route(op, &c);
  int rc = dlp_start(op, req);
  count_unpacked(op);
  dlp_choice_done(&c, op->recv, false);
  return rc;
}

static int send_common(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                       int tag, MPI_Comm comm, int mode)
{
  if (dlp_defer(count, dt, false))
    return dlp_send_as(buf, count, dt, dest, tag, comm, mode);
  dlp_op op;
  int rc = op_init(&op, false, buf, count, dt, dest, tag, comm, mode);
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_send_as(buf, count, dt, dest, tag, comm, mode);
  if (rc == RAISED)
    return op.raised;
  if (rc)
    return dlp_raise(comm, rc);
  return run(&op, MPI_STATUS_IGNORE);
}

static int isend_common(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                        int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  dlp_op op;
  int rc = req && !dlp_defer(count, dt, false)
         ? op_init(&op, false, buf, count, dt, dest, tag, comm, mode) : DLP_PASS;
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_isend_as(buf, count, dt, dest, tag, comm, mode, req);
  if (rc == RAISED)
    return op.raised;
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
  if (dlp_defer(count, dt, true))
    return dlp_recv_as(buf, count, dt, src, tag, comm, status);
  dlp_op op;
  rc = op_init(&op, true, buf, count, dt, src, tag, comm, DLP_STANDARD);
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_recv_as(buf, count, dt, src, tag, comm, status);
  if (rc == RAISED)
    return op.raised;
  if (rc)
    return dlp_raise(comm, rc);
  return recv_matched(&op, status);
}

int dlp_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
              MPI_Comm comm, MPI_Request *req)
{
  int rc;
  if (req && dlp_parked_irecv(buf, count, dt, src, tag, comm, req, &rc))
    return rc;
  dlp_op op;
  rc = req && !dlp_defer(count, dt, true)
     ? op_init(&op, true, buf, count, dt, src, tag, comm, DLP_STANDARD) : DLP_PASS;
  if (rc == DLP_PASS || plain(&op, rc))
    return dlp_irecv_as(buf, count, dt, src, tag, comm, req);
  if (rc == RAISED)
    return op.raised;
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

/* both sides started, then waited for: in the pipeline mode the receive
   first (a message to oneself cannot wait for itself). A sendrecv to oneself is two messages
   too, never a copy from buffer to buffer: a receive the program posted
   before, which the interposer may not see (a persistent one, or one
   posted through PMPI_Irecv by a library or MPICH's Fortran bindings),
   must match the send first */
static int sendrecv_ops(dlp_op *s, dlp_op *r, MPI_Status *status)
{
  MPI_Request q[2];
  int rc;
  if (!dlp_streams() || r->d.bytes < dlp_chunk()) {
    /* the send first, then the receive matched as a blocking one's */
    if ((rc = start(s, &q[1])) != MPI_SUCCESS)
      return rc;
    int rr = recv_matched(r, status), rs = dlp_wait(&q[1], MPI_STATUS_IGNORE);
    return rr ? rr : rs;
  }
  rc = start(r, &q[0]);
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
  if (es == RAISED)
    return s.raised;
  int er = op_init(&r, true, rbuf, rcount, rtype, src, rtag, comm, DLP_STANDARD);
  if (er == RAISED)
    return r.raised;
  bool mpich_judges = (es == DLP_PASS && dest != MPI_PROC_NULL) ||
                      (er == DLP_PASS && src != MPI_PROC_NULL);
  if (mpich_judges || (plain(&s, es) && plain(&r, er)))
    return sendrecv_as(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
                       comm, status);
  if (es > 0 || er > 0)
    return dlp_raise(comm, es > 0 ? es : er);
  /* a null peer's side is MPICH's blocking call, on every host
     (DLP_DEV_PROC_NULL_STATUS: MPI_Irecv from MPI_PROC_NULL completes with
     source 0 and tag 0 in its status) */
  if (er == DLP_PASS) {
    rc = run(&s, MPI_STATUS_IGNORE);
    return rc ? rc : dlp_recv_as(rbuf, rcount, rtype, src, rtag, comm, status);
  }
  if (es == DLP_PASS) {
    rc = recv_matched(&r, status);
    int sc = dlp_send_as(sbuf, scount, stype, dest, stag, comm, DLP_STANDARD);
    return rc ? rc : sc;
  }
  return sendrecv_ops(&s, &r, status);
}

/* MPI_Sendrecv_replace of a derived type (of any type in the pipeline
   mode, where the send may have to follow a stream): the data packed into
   a copy that the send side sends, the receive side received into the
   buffer as MPI_Sendrecv's; MPICH's own call where it is not the
   interposer's (predefined types, arguments MPICH judges) */
static int replace_common(void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                          int stag, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
  dlp_data d;
  void *copy = NULL;
  if (dest == MPI_PROC_NULL || dlp_data_get(buf, count, dt, &d) != MPI_SUCCESS ||
      (d.named && !dlp_streams()) || dlp_stage_out(&d, &copy) != MPI_SUCCESS)
    return count <= INT_MAX ? PMPI_Sendrecv_replace(buf, (int)count, dt, dest, stag, src,
                                                    rtag, comm, status)
                            : PMPI_Sendrecv_replace_c(buf, count, dt, dest, stag, src,
                                                      rtag, comm, status);
  int rc = sendrecv_common(copy, (MPI_Count)d.bytes, MPI_PACKED, dest, stag, buf, count,
                           dt, src, rtag, comm, status);
  dlp_stage_put(copy);
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
SEND(MPI_Ssend, int, DLP_SYNC)
SEND(MPI_Rsend, int, DLP_READY)
SEND(MPI_Bsend, int, DLP_BUFFERED)
#if MPI_VERSION >= 4   /* MPI-4's large-count forms */
SEND(MPI_Send_c, MPI_Count, DLP_STANDARD)
SEND(MPI_Ssend_c, MPI_Count, DLP_SYNC)
SEND(MPI_Rsend_c, MPI_Count, DLP_READY)
SEND(MPI_Bsend_c, MPI_Count, DLP_BUFFERED)
#endif

#define ISEND(NAME, T, MODE)                                                    \
  int NAME(const void *buf, T count, MPI_Datatype datatype, int dest, int tag,  \
           MPI_Comm comm, MPI_Request *request)                                 \
  {                                                                             \
    return isend_common(buf, count, datatype, dest, tag, comm, MODE, request);  \
  }
ISEND(MPI_Isend, int, DLP_STANDARD)
ISEND(MPI_Issend, int, DLP_SYNC)
ISEND(MPI_Irsend, int, DLP_READY)
ISEND(MPI_Ibsend, int, DLP_BUFFERED)
#if MPI_VERSION >= 4   /* MPI-4's large-count forms */
ISEND(MPI_Isend_c, MPI_Count, DLP_STANDARD)
ISEND(MPI_Issend_c, MPI_Count, DLP_SYNC)
ISEND(MPI_Irsend_c, MPI_Count, DLP_READY)
ISEND(MPI_Ibsend_c, MPI_Count, DLP_BUFFERED)
#endif

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, MPI_Status *status)
{
  return recv_common(buf, count, datatype, source, tag, comm, status);
}

#if MPI_VERSION >= 4
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status)
{
  return recv_common(buf, count, datatype, source, tag, comm, status);
}
#endif

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, MPI_Request *request)
{
  return dlp_irecv(buf, count, datatype, source, tag, comm, request);
}

#if MPI_VERSION >= 4
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                int tag, MPI_Comm comm, MPI_Request *request)
{
  return dlp_irecv(buf, count, datatype, source, tag, comm, request);
}
#endif

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  return sendrecv_common(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
}

#if MPI_VERSION >= 4
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Status *status)
{
  return sendrecv_common(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
}
#endif

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                         int sendtag, int source, int recvtag, MPI_Comm comm,
                         MPI_Status *status)
{
  return replace_common(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                        status);
}

#if MPI_VERSION >= 4
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int sendtag, int source, int recvtag, MPI_Comm comm,
                           MPI_Status *status)
{
  return replace_common(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                        status);
}
#endif

/* Freeing a communicator leaves its pending operations to complete
   normally, but a stream still has chunks to send or receive on it: the
   free waits until the streams on it are done, moving them (as every
   blocking call does), and only then frees it in MPICH */
int MPI_Comm_free(MPI_Comm *comm)
{
  const dlp_stream_module *m = dlp_streams_busy();
  if (m && comm && *comm != MPI_COMM_NULL)
    while (m->uses(*comm)) {
      m->progress();
      sched_yield();
    }
  return PMPI_Comm_free(comm);
}
