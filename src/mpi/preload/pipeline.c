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
 * sender's plan chooses, strategy.c): the first receive of a stream takes
 * up to the receive's capacity, and more than C bytes there means the
 * message was whole. N == C reads as a first chunk: it always ends with an
 * empty message, sent whole or not (p2p.c).
 *
 * Receiver: a receive of at least C bytes is a stream receive. Its first
 * receive lands where a whole message would: dense data in the user's
 * buffer, a plan sending blocks as they lie in the user's blocks, else in
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
 * when its stream is done. Streams move only in dlp_progress, which every
 * intercepted completion and blocking call runs, and each operation once
 * when it starts. A blocking receive while no stream is in progress
 * (dlp_pipe_recv) makes its first receive a blocking one: a message that
 * came whole needs no request at all.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "preload.h"

#define DENSE_WINDOW 16   /* chunks of dense data in flight (no copies) */

struct dlp_pipe {
  bool send;
  int mode;                /* DLP_STANDARD ... for the first chunk */
  MPI_Comm comm;
  int peer, tag;           /* receive: as posted, then the first chunk's */
  dlp_data d;
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
  bool cancelled, finished, retired_op, orphan;
  MPI_Request greq;
  dlp_pipe *prev, *next;   /* the active list, in starting order */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static dlp_pipe *head, *tail;
static atomic_long nactive;

bool dlp_pipe_active(void)
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

static size_t min_size(size_t a, size_t b)
{
  return a < b ? a : b;
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

/* the interposer frees the stream itself, and cancels in MPI_Cancel */
static int free_fn(void *extra)
{
  (void)extra;
  return MPI_SUCCESS;
}

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
   it the blocks or the type and a chunk ends between elements, else the
   staging buffer); sets p->placed and p->land */
static dlp_args first_target(dlp_pipe *p)
{
  dlp_args t;
  if (dlp_in_place(&p->d, true, p->C, &t)) {
    p->placed = true;
    p->land = p->d.buf;
    return t;
  }
  p->placed = p->d.dense;
  p->land = p->d.dense ? p->d.base : p->stage;
  return (dlp_args){p->land, (MPI_Count)p->n, MPI_PACKED};
}

/* the first receive takes a whole message as well as a first chunk */
static int post_first(dlp_pipe *p)
{
  dlp_args t = first_target(p);
  return dlp_irecv_as(t.buf, t.count, t.dt, p->peer, p->tag, p->comm, &p->rreq);
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
      memcpy(p->d.base + off, land, fit);
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
  p->retired_op = true;
  DLP_TRACE("%s stream done: %zu bytes%s", p->send ? "send" : "receive",
            p->send ? p->n : p->delivered, p->truncated ? ", truncated" : "");
  /* complete before a waiter can see no stream active and block in MPICH */
  PMPI_Grequest_complete(p->greq);
  atomic_fetch_sub(&nactive, 1);
  if (p->orphan) {
    PMPI_Request_free(&p->greq);
    free(p);
  }
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
    advance(p);
  }
}

void dlp_progress(void)
{
  if (!dlp_pipe_active() || pthread_mutex_trylock(&lock))
    return;                  /* nothing to do, or another thread is at it */
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
  dlp_args t;
  bool placed = dlp_in_place(&p->d, true, p->C, &t);
  size_t cap = p->d.dense ? p->C : placed || p->n < two ? two : p->n;
  p->stage = dlp_stage_get(cap);
  if (!p->stage)
    return false;
  p->slots[0] = p->stage;
  p->slots[1] = p->d.dense ? p->stage : (char *)p->stage + p->C;
  return true;
}

static dlp_pipe *pipe_new(const dlp_data *d, int peer, int tag, MPI_Comm comm,
                          bool send, int *err)
{
  dlp_pipe *p = calloc(1, sizeof(*p));
  if (!p) {
    *err = MPI_ERR_NO_MEM;
    return NULL;
  }
  *p = (dlp_pipe){.send = send, .comm = comm, .peer = peer, .tag = tag, .d = *d,
                  .C = dlp_cfg()->chunk, .n = d->bytes, .rreq = MPI_REQUEST_NULL,
                  .greq = MPI_REQUEST_NULL};
  p->d.plan = NULL;          /* the caller's to release */
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

/* the generalized request, the first receive (or, first non-NULL, what it
   received), the list, a first advance */
static int start(dlp_pipe *p, const MPI_Status *first, MPI_Request *req)
{
  MPI_Comm comm = p->comm;
  dlp_req *e = dlp_req_new(DLP_REQ_PIPE);
  int rc = e ? PMPI_Grequest_start(query_fn, free_fn, cancel_fn, p, &p->greq)
             : MPI_ERR_NO_MEM;
  if (rc) {
    free(e);
    release(p);
    free(p);
    return dlp_raise(comm, rc);
  }
  dlp_finalize_hook();
  pthread_mutex_lock(&lock);
  if (!p->send && !first && (rc = post_recv(p))) {   /* MPICH raised it */
    pthread_mutex_unlock(&lock);
    PMPI_Grequest_complete(p->greq);
    PMPI_Request_free(&p->greq);
    free(e);
    release(p);
    free(p);
    return rc;
  }
  append(p);
  MPI_Request greq = p->greq;
  e->pipe = p;
  if (first)
    arrived(p, first);
  advance(p);
  pthread_mutex_unlock(&lock);
  dlp_req_add(e, greq);
  *req = greq;
  return MPI_SUCCESS;
}

int dlp_pipe_isend(const dlp_data *d, int dest, int tag, MPI_Comm comm, int mode,
                   MPI_Request *req)
{
  int err;
  dlp_pipe *p = pipe_new(d, dest, tag, comm, true, &err);
  if (!p)
    return dlp_raise(comm, err);
  p->mode = mode;
  DLP_TRACE("send stream: %zu bytes to %d, tag %d, %zu chunks%s", p->n, dest, tag,
            p->nchunks, d->dense ? ", dense" : "");
  return start(p, NULL, req);
}

static void trace_recv(const dlp_pipe *p, const char *how)
{
  dlp_args t;
  DLP_TRACE("receive stream%s: up to %zu bytes from %d, tag %d%s", how, p->n, p->peer,
            p->tag, p->d.dense ? ", dense" : !dlp_in_place(&p->d, true, p->C, &t) ? ""
            : p->d.strategy == DLP_S_BLOCKS ? ", first into the user's blocks"
            : ", first into the user's type (MPICH)");
}

/* a new receive stream, traced; NULL (*err set) when out of memory */
static dlp_pipe *recv_new(const dlp_data *d, int src, int tag, MPI_Comm comm,
                          const char *how, int *err)
{
  dlp_pipe *p = pipe_new(d, src, tag, comm, false, err);
  if (p)
    trace_recv(p, how);
  return p;
}

int dlp_pipe_irecv(const dlp_data *d, int src, int tag, MPI_Comm comm,
                   MPI_Request *req)
{
  int err;
  dlp_pipe *p = recv_new(d, src, tag, comm, "", &err);
  return p ? start(p, NULL, req) : dlp_raise(comm, err);
}

int dlp_pipe_recv(const dlp_data *d, int src, int tag, MPI_Comm comm,
                  MPI_Status *status)
{
  int err;
  dlp_pipe *p = recv_new(d, src, tag, comm, ", blocking", &err);
  if (!p)
    return dlp_raise(comm, err);
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  dlp_args t = first_target(p);
  int rc = dlp_recv_as(t.buf, t.count, t.dt, src, tag, comm, st);
  size_t got = dlp_status_bytes(st);
  bool whole = rc != MPI_SUCCESS || got != p->C;
  if (whole) {             /* MPICH's status and code, as the default mode */
    DLP_TRACE("receive stream: %zu bytes arrived whole", got);
    if (rc == MPI_SUCCESS || dlp_class(rc) == MPI_ERR_TRUNCATE)
      deliver(p, 0, p->land, got);
    release(p);
    free(p);
    return rc;
  }
  DLP_TRACE("receive stream: a first chunk arrived");
  MPI_Request r;
  rc = start(p, st, &r);
  return rc ? rc : dlp_wait(&r, status);
}

bool dlp_pipe_send_needed(const dlp_data *d, int dest, int tag, MPI_Comm comm)
{
  return d->bytes >= dlp_cfg()->chunk || dlp_pipe_blocked(dest, tag, comm);
}

bool dlp_pipe_blocked(int dest, int tag, MPI_Comm comm)
{
  if (!dlp_pipe_active())
    return false;
  dlp_pipe probe = {.send = true, .comm = comm, .peer = dest, .tag = tag};
  pthread_mutex_lock(&lock);
  probe.prev = tail;
  bool busy = blocked(&probe);
  pthread_mutex_unlock(&lock);
  return busy;
}

void dlp_pipe_cancel(dlp_pipe *p)
{
  pthread_mutex_lock(&lock);
  /* only a receive not yet matched can be cancelled; progress sees it */
  if (!p->send && !p->finished && p->k == 0)
    PMPI_Cancel(&p->rreq);
  pthread_mutex_unlock(&lock);
}

void dlp_pipe_orphan(dlp_pipe *p)
{
  pthread_mutex_lock(&lock);
  bool done = p->retired_op;
  p->orphan = true;
  pthread_mutex_unlock(&lock);
  if (done) {                     /* completed: free its request now */
    PMPI_Request_free(&p->greq);
    free(p);
  }
}

int dlp_pipe_finish(dlp_pipe *p, MPI_Comm *comm, bool *raised)
{
  int err = p->err ? p->err
          : !p->send && p->truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  *comm = p->comm;
  *raised = p->err && p->err_raised;
  free(p);
  return err;
}

void dlp_pipe_drain_orphans(void)
{
  for (;;) {
    pthread_mutex_lock(&lock);
    bool any = false;
    for (dlp_pipe *p = head; p && !any; p = p->next)
      any = p->orphan;
    if (any)
      progress_locked();
    pthread_mutex_unlock(&lock);
    if (!any)
      return;
  }
}
