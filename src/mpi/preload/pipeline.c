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
 * as a stream (C bytes, then an empty chunk).
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
 * module dlp_pipeline offers with the hooks the completion calls use.
 * Streams move only inside intercepted calls: each operation once when it
 * starts, and every completion and blocking call while a stream is
 * active. A call that waits blocks in MPICH on what it waits for together
 * with the requests the streams wait on next (lend, give_back), and moves
 * the streams on whenever one of those completes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "preload.h"
#include "../../../actions/actions.h"   /* dli_memcpy */

#define DENSE_WINDOW 16   /* chunks of dense data in flight (no copies) */

struct dlp_pipe {
  bool send;
  int mode;                /* DLP_STANDARD ... for the first chunk */
  MPI_Comm comm;
  int peer, tag;           /* receive: as posted, then the first chunk's */
  dlp_data d;
  int first;               /* receive: dlp_op's */
  MPI_Datatype blocks;     /* receive: dlp_op's, while starting */
  dl_segment *seg;         /* data that is not dense, chunk by chunk */
  size_t C;                /* chunk bytes */
  size_t n;                /* send: message bytes; receive: capacity */
  /* send */
  size_t nchunks, posted, retired;
  size_t window, slot;     /* chunks in flight; bytes per ring slot */
  MPI_Request *reqs;       /* window entries */
  char *ring;              /* window * slot, for packed chunks (staged) */
  /* receive */
  MPI_Request rreq;        /* the chunk receive in flight */
  size_t k;                /* its chunk number */
  char *land;              /* where it lands */
  char *slots[2];          /* in stage: the first receive's bytes are */
  void *stage;             /* delivered before a chunk lands there */
  bool placed;             /* the first receive lands in the user's data */
  size_t got, delivered;   /* bytes received; bytes placed in the buffer */
  bool truncated;
  /* both */
  int err;                 /* first error */
  bool err_raised;         /* MPICH raised it already */
  bool cancelled, finished;
  bool lent;               /* its next request is in a waiter's hands */
  MPI_Request greq;
  dlp_pipe *prev, *next;   /* the active list, in starting order */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static dlp_pipe *head, *tail;
static atomic_long nactive;

static bool active(void)
{
  return atomic_load_explicit(&nactive, memory_order_acquire) > 0;
}

static void fail(dlp_pipe *p, int err, bool raised)
{
  if (!p->err) {
    p->err = err;
    p->err_raised = raised;
  }
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

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

static int post_chunk(dlp_pipe *p)
{
  size_t k = p->posted, off = k * p->C;
  size_t len = k + 1 < p->nchunks ? p->C : p->n - off;
  char *buf = p->d.base + off;
  if (!p->d.dense) {
    buf = p->ring + (k % p->window) * p->slot;
    size_t last = off + len;
    int rc = dl_segment_pack(p->seg, off, &last, buf);
    if (rc)
      return dlp_class_of(rc);
  }
  /* synchronous and ready semantics concern the first chunk; buffered
     ones need all chunks buffered */
  int mode = k == 0 || p->mode == DLP_BUFFERED ? p->mode : DLP_STANDARD;
  return dlp_isend_as(buf, (MPI_Count)len, MPI_PACKED, p->peer, p->tag, p->comm, mode,
                      &p->reqs[k % p->window]);
}

static void send_advance(dlp_pipe *p)
{
  while (p->retired < p->posted) {          /* chunks complete in order */
    int flag = 0;
    int rc = PMPI_Test(&p->reqs[p->retired % p->window], &flag, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
      fail(p, rc, true);
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
      fail(p, rc, dlp_class(rc) != MPI_ERR_NO_MEM && dlp_class(rc) != MPI_ERR_TYPE);
      break;
    }
    p->posted++;
  }
  if (p->retired == p->posted && (p->posted == p->nchunks || p->err))
    p->finished = true;
}

/* ---- receiving ---- */

/* chunk k lands in the user's buffer if the data is dense and a whole
   chunk fits there, else in a slot */
static char *landing(const dlp_pipe *p, size_t k)
{
  size_t off = k * p->C;
  if (p->d.dense && off <= p->n && p->C <= p->n - off)
    return p->d.base + off;
  return p->slots[p->d.dense ? 0 : k % 2];
}

/* where the first receive lands: where a whole message would (dense data
   in the user's buffer, the user's data through MPICH where the plan hands
   it the blocks or the type, else the staging buffer); sets p->placed and
   p->land */
static bool in_user(const dlp_pipe *p)
{
  return (p->first == DLP_R_BLOCKS && p->blocks != MPI_DATATYPE_NULL) ||
         p->first == DLP_R_MPICH;
}

/* the first receive takes a whole message as well as a first chunk */
static int post_first(dlp_pipe *p)
{
  p->placed = in_user(p) || p->d.dense;
  p->land = in_user(p) ? p->d.buf : p->d.dense ? p->d.base : p->stage;
  if (p->first == DLP_R_MPICH)
    return dlp_irecv_as(p->d.buf, p->d.count, p->d.dt, p->peer, p->tag, p->comm, &p->rreq);
  if (in_user(p))
    return dlp_irecv_as(p->d.buf, 1, p->blocks, p->peer, p->tag, p->comm, &p->rreq);
  return dlp_irecv_as(p->land, (MPI_Count)p->n, MPI_PACKED, p->peer, p->tag, p->comm,
                      &p->rreq);
}

static int post_recv(dlp_pipe *p)
{
  if (p->k == 0)
    return post_first(p);
  p->land = landing(p, p->k);
  return dlp_irecv_as(p->land, (MPI_Count)p->C, MPI_PACKED, p->peer, p->tag, p->comm,
                      &p->rreq);
}

/* chunk k (got bytes at land) into the buffer, as far as it holds */
static void deliver(dlp_pipe *p, size_t k, const char *land, size_t got)
{
  size_t off = k * p->C;
  size_t fit = off < p->n ? min_size(got, p->n - off) : 0;
  if (fit < got)
    p->truncated = true;        /* the rest of the stream is drained */
  bool in_place = k == 0 ? p->placed : land == p->d.base + off;
  if (fit > 0 && !in_place) {
    if (p->d.dense) {
      dli_memcpy(p->d.base + off, land, fit);
    } else {
      size_t last = off + fit;
      dl_segment_unpack(p->seg, off, &last, land);
    }
  }
  p->got += got;
  p->delivered += fit;
}

/* a receive that may take this stream's chunks is pending (a documented
   constraint of the mode; only traced) */
static void check_hazard(const dlp_pipe *p)
{
  for (const dlp_pipe *q = p->next; q; q = q->next)
    if (!q->send && q->comm == p->comm && q->k == 0 &&
        (q->peer == p->peer || q->peer == MPI_ANY_SOURCE) &&
        (q->tag == p->tag || q->tag == MPI_ANY_TAG))
      DLP_TRACE("warning: a pending receive may take chunks of a stream from %d, "
                "tag %d", p->peer, p->tag);
}

static void first_chunk(dlp_pipe *p, const MPI_Status *st)
{
  p->peer = st->MPI_SOURCE;     /* the rest comes from there */
  p->tag = st->MPI_TAG;
  if (dlp_cfg()->trace && dlp_status_bytes(st) == p->C)
    check_hazard(p);
}

/* a receive of the stream completed with status st: the chunk is
   delivered, the next one posted unless the stream ended */
static void arrived(dlp_pipe *p, const MPI_Status *st)
{
  if (p->k == 0) {
    int c = 0;
    if (PMPI_Test_cancelled(st, &c) == MPI_SUCCESS && c) {
      p->cancelled = p->finished = true;
      return;
    }
    first_chunk(p, st);
  }
  size_t got = dlp_status_bytes(st), k = p->k;
  char *land = p->land;
  bool more = got == p->C;
  /* receive the next chunk while this one is unpacked, unless it would
     land on this one */
  bool ahead = more && landing(p, k + 1) != land;
  int rc;
  p->k++;
  if (ahead && (rc = post_recv(p))) {
    fail(p, rc, true);
    more = false;
  }
  deliver(p, k, land, got);
  if (more && !ahead && (rc = post_recv(p))) {
    fail(p, rc, true);
    more = false;
  }
  if (!more)
    p->finished = true;
}

static void recv_advance(dlp_pipe *p)
{
  while (!p->finished) {
    int flag = 0;
    MPI_Status st;
    int rc = PMPI_Test(&p->rreq, &flag, &st);
    if (rc != MPI_SUCCESS) {
      fail(p, rc, true);
      p->finished = true;
      return;
    }
    if (!flag)
      return;
    arrived(p, &st);
  }
}

/* ---- the active list ---- */

static void release(dlp_pipe *p)
{
  free(p->reqs);
  dlp_stage_put(p->ring);
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
  PMPI_Grequest_complete(p->greq);
  atomic_fetch_sub(&nactive, 1);
}

static void advance(dlp_pipe *p)
{
  if (!p->finished)
    (p->send ? send_advance : recv_advance)(p);
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
        fail(p, rc, true);
    } else {
      p->rreq = MPI_REQUEST_NULL;
      if (rc) {
        fail(p, rc, true);
        p->finished = true;
      } else {
        arrived(p, st);
      }
    }
  }
  progress_locked();
  pthread_mutex_unlock(&lock);
}

/* ---- starting ---- */

/* one kept staging buffer per receive (no large allocation per message):
   the first receive lands at its start unless it is placed, and the chunk
   slots are its first 2C bytes (C for dense data, whose chunks land in the
   user's buffer while they fit), reused once that receive is delivered */
static bool recv_buffers(dlp_pipe *p)
{
  size_t two = 2 * p->C;     /* C is at most 1 GiB (config.c) */
  bool placed = in_user(p);
  size_t cap = p->d.dense ? p->C : placed || p->n < two ? two : p->n;
  p->stage = dlp_stage_get(cap);
  if (!p->stage)
    return false;
  p->slots[0] = p->stage;
  p->slots[1] = p->d.dense ? p->stage : (char *)p->stage + p->C;
  return true;
}

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
    p->window = min_size(d->dense ? DENSE_WINDOW : (size_t)dlp_cfg()->ring, p->nchunks);
    p->slot = min_size(p->C, p->n);
    p->reqs = malloc(sizeof(MPI_Request) * p->window);
    if (!d->dense)
      p->ring = dlp_stage_get(p->window * p->slot);
    ok = ok && p->reqs && (d->dense || p->ring);
  } else {
    ok = ok && recv_buffers(p);
  }
  if (!ok) {
    release(p);
    free(p);
    *err = MPI_ERR_NO_MEM;
    return NULL;
  }
  return p;
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
            p->d.dense ? ", dense" : in_user(p) ? ", first into the user's data" : "");
  rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, p, &p->greq);
  if (rc) {
    release(p);
    free(p);
    return dlp_raise(op->comm, rc);
  }
  pthread_mutex_lock(&lock);
  if (!p->send && (rc = post_recv(p))) {     /* MPICH raised it */
    pthread_mutex_unlock(&lock);
    PMPI_Grequest_complete(p->greq);
    PMPI_Request_free(&p->greq);
    release(p);
    free(p);
    return rc;
  }
  p->blocks = MPI_DATATYPE_NULL;             /* MPI holds it from here */
  append(p);
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

static void cancel(dlp_op *op)
{
  dlp_pipe *p = op->pipe;
  pthread_mutex_lock(&lock);
  /* only a receive not yet matched can be cancelled; progress sees it */
  if (!p->send && !p->finished && p->k == 0)
    PMPI_Cancel(&p->rreq);
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

const dlp_stream_module dlp_pipeline = {
  .route = {start, finish},
  .blocked = blocked_at,
  .active = active,
  .progress = progress,
  .lend = lend,
  .give_back = give_back,
  .cancel = cancel,
  .uses = uses,
};
