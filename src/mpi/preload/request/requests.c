/* The interposed requests. A nonblocking derived-type operation whose route
 * has work left at completion (free a send's staging buffer, unpack and
 * free a receive's, end a stream: routes.c) hands the program a
 * generalized request of MPICH's with poll and wait functions
 * (MPIX_Grequest_start), and keeps the operation's own request (MPICH's
 * byte message, or the stream's) inside. Whoever completes the program's
 * handle, the interposer's completion calls or MPICH's own reached through
 * PMPI_* (as MPICH's Fortran 2008 bindings do), the operation's work is
 * done before the handle reports completion: MPICH calls the poll function
 * in its tests and waits, and the wait function in MPI_Waitall.
 *
 * The interposer's completion calls claim the entries of the handles they
 * are given, put the operations' own requests in their place for MPICH,
 * and finish and free those that completed, so that statuses and error
 * codes are MPICH's own; the poll and wait functions serve the other
 * callers (an error the interposer reports through them reaches the
 * program as MPICH reports a generalized request's error: MPI_ERR_OTHER).
 * A claim is a flag on the entry, so a poll and a claim never complete
 * one operation twice. An entry leaves the table when MPICH frees the
 * handle (the free function): a handle in the table is never reused.
 *
 * An entry has two owners, the program's handle (until the host calls
 * the free function) and the operation (until it is finished and the
 * handle completed); the second to let go frees it. An operation still in
 * progress when the program frees its handle becomes an orphan, which the
 * interposer completes in later calls, and at the latest in MPI_Finalize
 * (finalize.c): the interposer's MPI_Request_free says so first, and the
 * free function again where the host calls it at once, complete or not
 * (MPICH: DLP_DEV_GREQUEST_FREED_EARLY; Open MPI calls it once the handle
 * is complete too).
 * A request complete when started is finished at once and the program
 * gets MPICH's request. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "request.h"

#define NBUCKETS 1024       /* a power of two */

static dlp_req *buckets[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static dlp_req *orphans;
static pthread_mutex_t orphan_lock = PTHREAD_MUTEX_INITIALIZER; /* no MPI call
                                                                   under it */
static atomic_flag orphan_runner = ATOMIC_FLAG_INIT;
static atomic_long norphans;
static atomic_long live;    /* entries plus orphans: 0 means no work at all */

static void join_finalize(void);

static unsigned bucket_of(MPI_Request h)
{
  uint64_t k = 0;
  memcpy(&k, &h, sizeof(h) < sizeof(k) ? sizeof(h) : sizeof(k));
  return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 32) & (NBUCKETS - 1);
}

dlp_req *dlp_req_new(void)
{
  dlp_req *r = calloc(1, sizeof(dlp_req));
  if (r)
    atomic_flag_clear(&r->claimed);
  return r;
}

static void add(dlp_req *r)
{
  dlp_req **b = &buckets[bucket_of(r->handle)];
  pthread_mutex_lock(&table_lock);
  r->next = *b;
  *b = r;
  r->in_table = true;
  pthread_mutex_unlock(&table_lock);
}

static void remove_entry(dlp_req *r)
{
  pthread_mutex_lock(&table_lock);
  if (r->in_table) {
    dlp_req **p = &buckets[bucket_of(r->handle)];
    while (*p && *p != r)
      p = &(*p)->next;
    if (*p)
      *p = r->next;
    r->in_table = false;
  }
  pthread_mutex_unlock(&table_lock);
}

/* an entry whose work is done: its type released, its memory freed */
static void drop(dlp_req *r)
{
  dl_type_free(&r->op.d.t);
  free(r);
  atomic_fetch_sub(&live, 1);
}

/* one owner lets go of r; the second frees it */
static void release(dlp_req *r)
{
  if (atomic_exchange(&r->released, true))
    drop(r);
}

static void orphan_push(dlp_req *r)
{
  pthread_mutex_lock(&orphan_lock);
  r->onext = orphans;
  orphans = r;
  pthread_mutex_unlock(&orphan_lock);
  atomic_fetch_add(&norphans, 1);
}

/* r settled: its handle completed, the operation's hold let go */
static void complete_handle(dlp_req *r)
{
  PMPI_Grequest_complete(r->handle);
  release(r);
}

/* the route's work after the operation's request completed with status st
   and MPICH's code err; the result kept for the handle's query */
static int settle(dlp_req *r, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  const dlp_route *route = dlp_op_route(&r->op);
  *raise_on = MPI_COMM_NULL;
  if (route->finish)
    err = route->finish(&r->op, st, err, raise_on);
  r->st = *st;
  r->st.MPI_ERROR = err;
  atomic_store(&r->done, true);
  return err;
}

/* ---- waiting ---- */

#define LEND_MAX 32

int dlp_block_any(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
  const dlp_stream_module *m;
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  bool any = false, counted = false;
  for (int i = 0; i < count && !any; i++)
    any = reqs[i] != MPI_REQUEST_NULL;
  while (any && (m = dlp_streams_busy())) {
    /* complete already, or nothing active (inactive persistent requests):
       MPICH's Waitany would return at once, so this does */
    int flag = 0;
    int rc = dlp_next()->testany(count, reqs, index, &flag, st);
    if (flag || rc != MPI_SUCCESS)
      return rc;
    MPI_Request small[8 + LEND_MAX], *set = small;
    if (count > 8 && !(set = malloc(sizeof(MPI_Request) * (size_t)(count + LEND_MAX))))
      break;
    void *who[LEND_MAX];
    int n = m->lend(set + count, who, LEND_MAX), idx = MPI_UNDEFINED;
    memcpy(set, reqs, sizeof(MPI_Request) * (size_t)count);
    if (n == 0) {           /* another thread has them: look, and let it run */
      rc = dlp_next()->testany(count, reqs, index, &flag, st);
      if (!flag && rc == MPI_SUCCESS)
        sched_yield();
    } else {
      if (!counted)
        dlp_count(DLP_N_BLOCKED);
      counted = true;
      rc = dlp_next()->waitany(count + n, set, &idx, st);
      bool theirs = idx != MPI_UNDEFINED && idx >= count;
      m->give_back(who, n, theirs ? idx - count : -1, st, rc);
      if (theirs) {
        rc = MPI_SUCCESS;      /* the stream's error is the stream's */
      } else {
        flag = 1;
        memcpy(reqs, set, sizeof(MPI_Request) * (size_t)count);
        *index = idx;
      }
    }
    if (set != small)
      free(set);
    if (flag || rc != MPI_SUCCESS)
      return rc;
  }
  return dlp_next()->waitany(count, reqs, index, st);
}

/* ---- an operation's request, from its start ---- */

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

/* ---- the generalized request's functions ---- */

static int query_fn(void *extra, MPI_Status *status)
{
  const dlp_req *r = extra;
  *status = r->st;
  return r->st.MPI_ERROR;
}

/* r's operation goes on without its handle, completed in later calls
   (once: the program's free and the host's free function both say so) */
static void make_orphan(dlp_req *r)
{
  if (atomic_exchange(&r->orphaned, true))
    return;
  atomic_flag_test_and_set(&r->claimed);   /* the orphans' from here */
  orphan_push(r);
}

/* the host's lock may be held: no MPI call here */
static int free_fn(void *extra)
{
  dlp_req *r = extra;
  remove_entry(r);
  if (!atomic_load(&r->done))
    make_orphan(r);
  release(r);
  return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
  dlp_req *r = extra;
  if (!complete && !atomic_load(&r->done)) {
    dlp_op_cancel(&r->op);
  }
  return MPI_SUCCESS;
}

/* completes r's operation if it is done (waits for it when block is set),
   r claimed by the caller; true when it did */
static bool settle_if_done(dlp_req *r, bool block)
{
  const dlp_stream_module *m = dlp_streams_busy();
  MPI_Status st;
  int flag = 1, idx, rc;
  if (block) {
    rc = dlp_block_any(1, &r->op.req, &idx, &st);
  } else {
    if (m)
      m->progress();
    rc = dlp_next()->test(&r->op.req, &flag, &st);
  }
  if (!flag)
    return false;
  MPI_Comm on;
  settle(r, &st, rc, &on);
  return true;
}

#ifdef MPICH_VERSION   /* MPIX_Grequest_start's poll and wait functions */
static int poll_fn(void *extra, MPI_Status *status)
{
  (void)status;
  dlp_req *r = extra;
  if (atomic_load(&r->done) || atomic_flag_test_and_set(&r->claimed))
    return MPI_SUCCESS;              /* done, or a completion call has it */
  bool done = settle_if_done(r, false);
  atomic_flag_clear(&r->claimed);
  if (done)
    complete_handle(r);
  return MPI_SUCCESS;
}

static int wait_fn(int count, void **states, double timeout, MPI_Status *status)
{
  (void)timeout; (void)status;
  for (int i = 0; i < count; i++) {
    dlp_req *r = states[i];
    while (!atomic_load(&r->done)) {
      if (atomic_flag_test_and_set(&r->claimed)) {
        sched_yield();             /* another call is completing it */
        continue;
      }
      bool done = settle_if_done(r, true);
      atomic_flag_clear(&r->claimed);
      if (done) {
        complete_handle(r);
        break;                     /* r may be gone */
      }
    }
  }
  return MPI_SUCCESS;
}
#endif

/* ---- starting ---- */

int dlp_req_track(dlp_req *r, MPI_Request *user)
{
  dl_type_retain(r->op.d.t);   /* the user may free the type before completion */
  atomic_fetch_add(&live, 1);
  /* MPICH hands out one shared handle for every request that completes at
     once (an eager send), and such a request has nothing left to wait
     for: it is finished now and the program gets MPICH's handle (not a
     sunk receive, which may yet report a truncation of its own) */
  int flag = 0;
  MPI_Status st;
  int rc = dlp_op_final_at_start(&r->op)
         ? dlp_next()->request_get_status(r->op.req, &flag, &st) : MPI_SUCCESS;
  if (flag) {
    MPI_Comm on;
    *user = r->op.req;
    settle(r, &st, rc, &on);
    drop(r);
    return MPI_SUCCESS;
  }
  static pthread_once_t joined = PTHREAD_ONCE_INIT;
  pthread_once(&joined, join_finalize);   /* orphans complete there at the latest */
#ifdef MPICH_VERSION
  rc = PMPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, r, &r->handle);
#else
  /* no poll function: the handle completes only in the interposer's
     completion calls, which every caller reaches (MPI_ and PMPI_ names) */
  rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, r, &r->handle);
#endif
  if (rc != MPI_SUCCESS) {
    /* the operation goes on, an orphan with no handle: it completes in
       later calls */
    r->handle = MPI_REQUEST_NULL;
    atomic_flag_test_and_set(&r->claimed);
    atomic_store(&r->released, true);
    orphan_push(r);
    *user = MPI_REQUEST_NULL;
    return MPI_ERR_NO_MEM;
  }
  *user = r->handle;
  add(r);
  return MPI_SUCCESS;
}

bool dlp_req_any(void)
{
  return atomic_load_explicit(&live, memory_order_acquire) > 0;
}

/* ---- the completion calls' side ---- */

dlp_req *dlp_req_find(MPI_Request h)
{
  if (h == MPI_REQUEST_NULL || !dlp_req_any())
    return NULL;
  pthread_mutex_lock(&table_lock);
  dlp_req *r = buckets[bucket_of(h)];
  while (r && r->handle != h)
    r = r->next;
  pthread_mutex_unlock(&table_lock);
  return r;
}

dlp_req *dlp_req_claim(MPI_Request h)
{
  dlp_req *r = dlp_req_find(h);
  if (!r || atomic_load(&r->done) || atomic_flag_test_and_set(&r->claimed))
    return NULL;            /* MPICH completes it through its functions */
  return r;
}

void dlp_req_unclaim(dlp_req *r)
{
  atomic_flag_clear(&r->claimed);
}

void dlp_req_let_go(MPI_Request h)
{
  dlp_req *r = dlp_req_find(h);   /* lives: the program holds its handle */
  if (r && !atomic_load(&r->done))
    make_orphan(r);
}

int dlp_req_finish(dlp_req *r, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  err = settle(r, st, err, raise_on);
  atomic_flag_clear(&r->claimed);
  MPI_Request h = r->handle;
  complete_handle(r);
  dlp_next()->request_free(&h);        /* frees r (free_fn) */
  return err;
}

int dlp_req_settle_early(dlp_req *r, MPI_Status *st, int err)
{
  MPI_Comm on;
  err = settle(r, st, err, &on);
  atomic_flag_clear(&r->claimed);
  complete_handle(r);           /* the program's handle stays */
  return err;
}

void dlp_req_settle_picked(bool (*pick)(dlp_op *op, const void *arg), const void *arg)
{
  if (!dlp_req_any())
    return;
  dlp_req *small[16], **got = small;
  size_t n = 0, cap = 16;
  pthread_mutex_lock(&table_lock);
  for (unsigned b = 0; b < NBUCKETS; b++)
    for (dlp_req *r = buckets[b]; r; r = r->next) {
      if (atomic_load(&r->done) || !pick(&r->op, arg) ||
          atomic_flag_test_and_set(&r->claimed))
        continue;
      if (n == cap) {
        dlp_req **more = malloc(sizeof(dlp_req *) * cap * 2);
        if (!more) {              /* the rest finish at their completion */
          atomic_flag_clear(&r->claimed);
          continue;
        }
        memcpy(more, got, sizeof(dlp_req *) * n);
        if (got != small)
          free(got);
        got = more;
        cap *= 2;
      }
      got[n++] = r;
    }
  pthread_mutex_unlock(&table_lock);
  for (size_t i = 0; i < n; i++) {
    MPI_Status st;
    int err = dlp_next()->wait(&got[i]->op.req, &st);
    dlp_req_settle_early(got[i], &st, err);
  }
  if (got != small)
    free(got);
}

/* ---- orphans ---- */

/* completes orphans whose operations are done (all of them when wait is
   set): the list taken whole, worked on with no lock held, the rest put
   back */
static void orphans_run(bool wait)
{
  if (!wait && atomic_load_explicit(&norphans, memory_order_acquire) == 0)
    return;
  if (atomic_flag_test_and_set(&orphan_runner)) {
    if (!wait)
      return;          /* another thread is at it */
    while (atomic_flag_test_and_set(&orphan_runner))
      sched_yield();
  }
  pthread_mutex_lock(&orphan_lock);
  dlp_req *list = orphans, *left = NULL;
  orphans = NULL;
  pthread_mutex_unlock(&orphan_lock);
  while (list) {
    dlp_req *r = list;
    list = r->onext;
    if (!settle_if_done(r, wait)) {
      r->onext = left;
      left = r;
      continue;
    }
    atomic_fetch_sub(&norphans, 1);
    if (r->handle != MPI_REQUEST_NULL) {
      complete_handle(r);
    } else {
      drop(r);                           /* it never had a handle */
    }
  }
  pthread_mutex_lock(&orphan_lock);
  while (left) {
    dlp_req *r = left;
    left = r->onext;
    r->onext = orphans;
    orphans = r;
  }
  pthread_mutex_unlock(&orphan_lock);
  atomic_flag_clear(&orphan_runner);
}

void dlp_orphans_poll(void)
{
  orphans_run(false);
}

static void orphans_drain(void)
{
  orphans_run(true);
}

static void join_finalize(void)
{
  dlp_at_finalize(DLP_FIN_ORPHANS, orphans_drain);
}
