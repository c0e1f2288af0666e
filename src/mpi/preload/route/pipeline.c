/* Pipelined messages: the opt-in mode DL_PIPELINE=1 (doc/mpi.md says when
 * it is safe: every rank preloaded with the same settings, and the
 * constraints below).
 *
 * Wire: a message of N >= C bytes (C = DL_PIPELINE_CHUNK) travels as
 * consecutive MPI messages on the same (comm, tag): N / C chunks of exactly
 * C bytes, then a final chunk of N mod C bytes (possibly 0). A chunk
 * shorter than C ends the stream, so the receiver knows where the message
 * ends whatever it expected. A message below C is an ordinary message,
 * which is also a stream of one final chunk.
 *
 * Sender: packs chunk k+1 into a ring of 2-4 chunks while chunk k is in
 * flight; dense data goes straight from the user's buffer. A send to a
 * (comm, dest, tag) that a stream is still sending to waits behind it, so
 * chunks of two messages never interleave and order is kept.
 *
 * A message of N >= C bytes may also travel whole, as one MPI message (the
 * sender's plan chooses, plan.c): the first receive of a stream takes
 * up to the receive's capacity, and more than C bytes there means the
 * message was whole. N == C reads as a first chunk, so it is always sent
 * as a stream (C bytes, then an empty chunk); where the plan moves the
 * message by MPICH's engine or as its blocks, that chunk goes so, unpacked
 * (the same bytes in one MPI message), when it is posted at the start.
 *
 * Receiver: a receive of at least C bytes is a stream receive. Its first
 * receive lands where a whole message would: dense data in the user's
 * buffer, a plan moving blocks as they lie in the user's blocks, else in
 * a staging buffer of the capacity. After that it has one chunk receive
 * posted at a time, because it cannot know where the stream ends until a
 * short chunk arrives, and a receive posted past the end would take the
 * next message; but it posts the next one before unpacking the current
 * chunk, into the other of two slots. Dense data lands straight in the
 * user's buffer. A receive holding less than a stream drains the rest and
 * reports MPI_ERR_TRUNCATE (a whole message: MPICH's truncation); with
 * MPI_ANY_SOURCE or MPI_ANY_TAG, the rest comes from where the first chunk
 * came from.
 *
 * Every operation is a generalized request that the interposer completes
 * when its stream is done: the route DLP_R_PIPE (routes.c), which the
 * module this file offers (dlp_stream_mod) with the hooks the completion
 * calls use.
 * Streams move only inside intercepted calls: each operation once when it
 * starts, and every completion and blocking call while a stream is
 * active. A call that waits blocks in MPICH on what it waits for together
 * with the requests the streams wait on next (lend, give_back), and moves
 * the streams on whenever one of those completes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "stream.h"

#define DENSE_WINDOW 16   /* chunks of dense data in flight (no copies) */


static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static dlp_pipe *head, *tail;
static atomic_long nactive;

static bool active(void)
{
  return atomic_load_explicit(&nactive, memory_order_acquire) > 0;
}

/* ---- the generalized request ---- */

/* the status of the whole stream: the bytes placed in the receive buffer,
   so MPI_Get_count and MPI_Get_elements with the user's type work */
static int query_fn(void *extra, MPI_Status *st)
{
  const dlp_pipe *p = extra;
  PMPI_Status_set_elements_x(st, MPI_BYTE, p->send ? 0 : (MPI_Count)p->delivered);
  PMPI_Status_set_cancelled(st, p->cancelled);
  st->MPI_SOURCE = p->peer;
  st->MPI_TAG = p->tag;
  return MPI_SUCCESS;
}

/* the interposer frees the stream itself, and cancels it through the
   program's handle (requests.c) */
static int free_fn(void *extra) { (void)extra; return MPI_SUCCESS; }
static int cancel_fn(void *extra, int complete)
{
  (void)extra; (void)complete;
  return MPI_SUCCESS;
}

/* ---- sending ---- */

/* an earlier stream still has chunks to send to the same place */
static bool blocked(const dlp_pipe *p)
{
  for (const dlp_pipe *q = p->prev; q; q = q->prev)
    if (q->send && q->comm == p->comm && q->peer == p->peer && q->tag == p->tag &&
        q->posted < q->nchunks && !q->err)
      return true;
  return false;
}

static size_t chunk_len(const dlp_pipe *p, size_t k)
{
  return k + 1 < p->nchunks ? p->C : p->n - k * p->C;
}

/* chunk k's send, from buf */
static int send_chunk(dlp_pipe *p, size_t k, const char *buf)
{
  /* synchronous and ready semantics concern the first chunk; buffered
     ones need all chunks buffered */
  int mode = k == 0 || p->mode == DLP_BUFFERED ? p->mode : DLP_STANDARD;
  return dlp_isend_as(buf, (MPI_Count)chunk_len(p, k), MPI_PACKED, p->peer, p->tag,
                      p->comm, mode, &p->reqs[k % p->window]);
}

static int post_chunk(dlp_pipe *p)
{
  size_t k = p->posted, off = k * p->C;
  char *buf = p->d.base + off;
  if (!p->d.dense) {
    buf = p->ring + (k % p->window) * p->slot;
    size_t last = off + chunk_len(p, k);
    int rc = dl_segment_pack(p->seg, off, &last, buf);
    if (rc)
      return dlp_class_of(rc);
  }
  return send_chunk(p, k, buf);
}

/* every chunk of p not yet sent, sent now (a send the interposer cannot
   hold back follows to the same place): data that is not dense is packed
   whole into a buffer of its own, and the request ring becomes one entry
   per chunk. Lock held. */
static int flush(dlp_pipe *p)
{
  size_t from = p->posted, off = from * p->C;
  if (p->err || from == p->nchunks)
    return MPI_SUCCESS;
  MPI_Request *all = malloc(sizeof(MPI_Request) * p->nchunks);
  if (!all || (!p->d.dense && !(p->rest = dlp_stage_get(p->n - off)))) {
    free(all);
    return MPI_ERR_NO_MEM;
  }
  for (size_t k = p->retired; k < p->posted; k++)
    all[k] = p->reqs[k % p->window];
  free(p->reqs);
  p->reqs = all;
  p->window = p->nchunks;
  if (!p->d.dense) {
    size_t last = p->n;
    int rc = dl_segment_pack(p->seg, off, &last, p->rest);
    if (rc) {
      dlp_pipe_fail(p, dlp_class_of(rc), false);
      return dlp_class_of(rc);
    }
  }
  for (size_t k = from; k < p->nchunks; k++) {
    const char *buf = p->d.dense ? p->d.base + k * p->C : p->rest + (k * p->C - off);
    int rc = send_chunk(p, k, buf);
    if (rc) {
      dlp_pipe_fail(p, rc, true);
      return rc;
    }
    p->posted++;
  }
  return MPI_SUCCESS;
}

static void send_advance(dlp_pipe *p)
{
  while (p->retired < p->posted) {          /* chunks complete in order */
    int flag = 0;
    int rc = dlp_next()->test(&p->reqs[p->retired % p->window], &flag, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
      dlp_pipe_fail(p, rc, true);
      flag = 1;
    }
    if (!flag)
      break;
    p->retired++;
  }
  while (!p->err && p->posted < p->nchunks && p->posted - p->retired < p->window &&
         !blocked(p)) {
    int rc = post_chunk(p);
    if (rc) {
      dlp_pipe_fail(p, rc, dlp_class(rc) != MPI_ERR_NO_MEM && dlp_class(rc) != MPI_ERR_TYPE);
      break;
    }
    p->posted++;
  }
  if (p->retired == p->posted && (p->posted == p->nchunks || p->err))
    p->finished = true;
}

/* ---- the active list ---- */

static void release(dlp_pipe *p)
{
  free(p->reqs);
  dlp_stage_put(p->ring);
  dlp_stage_put(p->rest);
  p->rest = NULL;
  dlp_stage_put(p->stage);
  p->stage = NULL;
  p->reqs = NULL;
  p->ring = p->slots[0] = p->slots[1] = NULL;
  if (p->seg)
    dl_segment_free(&p->seg);
}

static void append(dlp_pipe *p)
{
  p->prev = tail;
  p->next = NULL;
  if (tail)
    tail->next = p;
  else
    head = p;
  tail = p;
  atomic_fetch_add(&nactive, 1);
}

/* a finished stream leaves the list and completes its request; lock held */
static void retire(dlp_pipe *p)
{
  if (p->prev)
    p->prev->next = p->next;
  else
    head = p->next;
  if (p->next)
    p->next->prev = p->prev;
  else
    tail = p->prev;
  release(p);
  DLP_TRACE("%s stream done: %zu bytes%s", p->send ? "send" : "receive",
            p->send ? p->n : p->delivered, p->truncated ? ", truncated" : "");
  /* complete before a waiter can see no stream active and block in MPICH */
  if (p->detached)
    free(p);
  else
    PMPI_Grequest_complete(p->greq);
  atomic_fetch_sub(&nactive, 1);
}

static void advance(dlp_pipe *p)
{
  if (!p->finished)
    (p->send ? send_advance : dlp_stream_recv_advance)(p);
  if (p->finished)
    retire(p);
}

static void progress_locked(void)
{
  for (dlp_pipe *p = head, *next; p; p = next) {
    next = p->next;
    if (!p->lent)
      advance(p);
  }
}

static void progress(void)
{
  if (!active() || pthread_mutex_trylock(&lock))
    return;                  /* nothing to do, or another thread is at it */
  progress_locked();
  pthread_mutex_unlock(&lock);
}

/* ---- blocking in MPICH ---- */

/* the MPICH request stream p waits on next: its oldest chunk send, or its
   chunk receive; NULL when it waits on none */
static MPI_Request *next_wait(dlp_pipe *p)
{
  if (p->finished || p->lent)
    return NULL;
  if (p->send)
    return p->retired < p->posted ? &p->reqs[p->retired % p->window] : NULL;
  return p->rreq != MPI_REQUEST_NULL ? &p->rreq : NULL;
}

/* progresses the streams, then lends a waiter (at most max of) the
   requests they wait on next: copies in out, the streams in who, left
   alone by progress until given back */
static int lend(MPI_Request *out, void **who, int max)
{
  pthread_mutex_lock(&lock);
  progress_locked();
  int n = 0;
  for (dlp_pipe *p = head; p && n < max; p = p->next) {
    MPI_Request *r = next_wait(p);
    if (r) {
      p->lent = true;
      out[n] = *r;
      who[n++] = p;
    }
  }
  pthread_mutex_unlock(&lock);
  return n;
}

/* what lend lent, back: request `done` (-1: none) completed in MPICH with
   status st and code rc; then progress */
static void give_back(void **who, int n, int done, const MPI_Status *st, int rc)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < n; i++) {
    dlp_pipe *p = who[i];
    p->lent = false;
    if (i != done)
      continue;
    if (p->send) {
      p->reqs[p->retired++ % p->window] = MPI_REQUEST_NULL;
      if (rc)
        dlp_pipe_fail(p, rc, true);
    } else {
      p->rreq = MPI_REQUEST_NULL;
      if (rc) {
        dlp_pipe_fail(p, rc, true);
        p->finished = true;
      } else {
        dlp_stream_recv_arrived(p, st);
      }
    }
  }
  progress_locked();
  pthread_mutex_unlock(&lock);
}

/* ---- starting ---- */

static dlp_pipe *pipe_new(const dlp_op *op, int *err)
{
  dlp_pipe *p = calloc(1, sizeof(*p));
  if (!p) {
    *err = MPI_ERR_NO_MEM;
    return NULL;
  }
  const dlp_data *d = &op->d;
  bool send = !op->recv;
  *p = (dlp_pipe){.send = send, .mode = op->mode, .comm = op->comm, .peer = op->peer,
                  .tag = op->tag, .d = *d, .first = op->first, .blocks = op->blocks,
                  .C = dlp_chunk(), .n = d->bytes, .rreq = MPI_REQUEST_NULL,
                  .greq = MPI_REQUEST_NULL};
  bool ok = true;
  if (!d->dense && d->bytes > 0)
    ok = dl_segment_create(d->buf, d->count, d->t, &p->seg) == DL_OK;
  if (send) {
    p->nchunks = p->n / p->C + 1;
    p->window = dlp_min_size(d->dense ? DENSE_WINDOW : (size_t)dlp_cfg()->ring, p->nchunks);
    p->slot = dlp_min_size(p->C, p->n);
    p->reqs = malloc(sizeof(MPI_Request) * p->window);
    if (!d->dense)
      p->ring = dlp_stage_get(p->window * p->slot);
    ok = ok && p->reqs && (d->dense || p->ring);
  } else {
    ok = ok && dlp_stream_recv_buffers(p);
  }
  if (!ok) {
    release(p);
    free(p);
    *err = MPI_ERR_NO_MEM;
    return NULL;
  }
  return p;
}

/* a send of exactly one chunk whose plan moves it by MPICH's engine or as
   its blocks, not held behind another stream: that chunk posted so now,
   while the type is the caller's to hand to MPI; false when it is for
   the ring. Lock held. */
static bool post_unpacked(dlp_pipe *p)
{
  const dlp_data *d = &p->d;
  bool engine = p->first == DLP_R_MPICH;
  if (!p->send || p->n != p->C || d->dense || blocked(p) ||
      !(engine || (p->first == DLP_R_BLOCKS && p->blocks != MPI_DATATYPE_NULL)))
    return false;
  int rc = engine ? dlp_isend_as(d->buf, d->count, d->dt, p->peer, p->tag, p->comm,
                                 p->mode, &p->reqs[0])
                  : dlp_isend_as(d->buf, 1, p->blocks, p->peer, p->tag, p->comm, p->mode,
                                 &p->reqs[0]);
  if (rc != MPI_SUCCESS)
    dlp_pipe_fail(p, rc, true);
  else
    p->posted = 1;
  return rc == MPI_SUCCESS;
}

/* the generalized request, the first receive, the list, a first advance */
static int start(dlp_op *op)
{
  int rc;
  dlp_pipe *p = pipe_new(op, &rc);
  if (!p)
    return dlp_raise(op->comm, rc);
  DLP_TRACE("%s stream: %zu bytes %s %d, tag %d%s", p->send ? "send" : "receive", p->n,
            p->send ? "to" : "from", p->peer, p->tag,
            p->d.dense ? ", dense" : dlp_stream_recv_placed(p) ? ", first into the user's data" : "");
  rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, p, &p->greq);
  if (rc) {
    release(p);
    free(p);
    return dlp_raise(op->comm, rc);
  }
  pthread_mutex_lock(&lock);
  if (!p->send && (rc = dlp_stream_recv_post(p))) {     /* MPICH raised it */
    pthread_mutex_unlock(&lock);
    PMPI_Grequest_complete(p->greq);
    dlp_next()->request_free(&p->greq);
    release(p);
    free(p);
    return rc;
  }
  append(p);
  op->unpacked = post_unpacked(p);
  p->blocks = MPI_DATATYPE_NULL;             /* MPI holds it from here */
  op->req = p->greq;
  op->pipe = p;
  advance(p);
  pthread_mutex_unlock(&lock);
  return MPI_SUCCESS;
}

/* after its generalized request completed: the error to report
   (MPI_SUCCESS, MPI_ERR_TRUNCATE, a chunk's error), raised on the stream's
   communicator unless MPICH raised it already; frees the stream */
static int finish(dlp_op *op, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  (void)st;
  dlp_pipe *p = op->pipe;
  int own = p->err ? p->err : !p->send && p->truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  *raise_on = own && !(p->err && p->err_raised) ? p->comm : MPI_COMM_NULL;
  free(p);
  op->pipe = NULL;
  return own ? own : err;
}

/* a receive of capacity 0 from chunk 1 on, every chunk into the sink */
static int drain(int source, int tag, MPI_Comm comm)
{
  dlp_pipe *p = calloc(1, sizeof(*p));
  if (!p)
    return MPI_ERR_NO_MEM;
  *p = (dlp_pipe){.comm = comm, .peer = source, .tag = tag, .C = dlp_chunk(), .k = 1,
                  .first = DLP_R_PACK, .rreq = MPI_REQUEST_NULL, .greq = MPI_REQUEST_NULL,
                  .truncated = true, .detached = true};
  int rc = dlp_stream_recv_buffers(p) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
  pthread_mutex_lock(&lock);
  if (rc == MPI_SUCCESS)
    rc = dlp_stream_recv_post(p);
  if (rc == MPI_SUCCESS) {
    DLP_TRACE("receive stream from %d, tag %d: the rest drained", source, tag);
    append(p);
    advance(p);
  }
  pthread_mutex_unlock(&lock);
  if (rc != MPI_SUCCESS) {
    release(p);
    free(p);
  }
  return rc;
}

static bool blocked_at(int dest, int tag, MPI_Comm comm)
{
  if (!active())
    return false;
  dlp_pipe probe = {.send = true, .comm = comm, .peer = dest, .tag = tag};
  pthread_mutex_lock(&lock);
  probe.prev = tail;
  bool busy = blocked(&probe);
  pthread_mutex_unlock(&lock);
  return busy;
}

/* the streams still sending to (comm, dest, tag) send the rest now, in
   their order */
static int flush_at(int dest, int tag, MPI_Comm comm)
{
  if (!active())
    return MPI_SUCCESS;
  int rc = MPI_SUCCESS;
  pthread_mutex_lock(&lock);
  for (dlp_pipe *p = head; p && !rc; p = p->next)
    if (p->send && p->comm == comm && p->peer == dest && p->tag == tag)
      rc = flush(p);
  pthread_mutex_unlock(&lock);
  return rc;
}

static void cancel(dlp_op *op)
{
  dlp_pipe *p = op->pipe;
  pthread_mutex_lock(&lock);
  /* only a receive not yet matched can be cancelled; progress sees it */
  if (!p->send && !p->finished && p->k == 0)
    dlp_next()->cancel(&p->rreq);
  pthread_mutex_unlock(&lock);
}

static bool uses(MPI_Comm comm)
{
  if (!active())
    return false;
  pthread_mutex_lock(&lock);
  bool any = false;
  for (dlp_pipe *p = head; p && !any; p = p->next)
    any = p->comm == comm;
  pthread_mutex_unlock(&lock);
  return any;
}

static const dlp_stream_module pipeline = {
  .route = {start, finish, cancel},
  .blocked = blocked_at,
  .flush = flush_at,
  .active = active,
  .progress = progress,
  .lend = lend,
  .give_back = give_back,
  .uses = uses,
  .drain = drain,
};

/* the module the rest of the interposer reaches the streams through: the
   only names it has of this file */
const dlp_stream_module *dlp_stream_mod(void)
{
  return &pipeline;
}

const dlp_stream_module *dlp_streams(void)
{
  return dlp_cfg()->pipeline ? &pipeline : NULL;
}
