/* The table of interposed requests. A nonblocking derived-type operation
 * hands the user MPICH's own request handle (the byte message's request,
 * or a stream's generalized request) and records, under that handle, the
 * operation whose route has work left at completion (routes.c): free the
 * staging buffer of a send, unpack and free that of a receive, end a
 * stream; and it holds the type until then.
 *
 * Completion wrappers claim the entries of the requests they are given
 * (take them out of the table) before calling MPICH, finish those whose
 * request MPICH completed and put the others back. The handle of a pending
 * request is unique (a request complete when started is finished at once,
 * see dlp_req_track), and claiming first means that once MPICH frees a
 * handle and hands it out again, perhaps to another thread, no lookup can
 * find the old entry. (MPI makes it erroneous for two threads to complete
 * the same request at once.)
 *
 * MPI_Request_free on an interposed request makes it an orphan: the
 * interposer keeps MPICH's request, completes it in later calls, and at the
 * latest in MPI_Finalize (a delete callback on MPI_COMM_SELF, which MPI
 * runs first thing there). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "preload.h"

#define NBUCKETS 1024       /* a power of two */

static dlp_req *buckets[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static dlp_req *orphans;
static pthread_mutex_t orphan_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long live;    /* entries plus orphans: 0 means no work at all */

static unsigned bucket_of(MPI_Request h)
{
  uint64_t k = 0;
  memcpy(&k, &h, sizeof(h) < sizeof(k) ? sizeof(h) : sizeof(k));
  return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 32) & (NBUCKETS - 1);
}

dlp_req *dlp_req_new(void)
{
  return calloc(1, sizeof(dlp_req));
}

static void add(dlp_req *r, MPI_Request handle)
{
  r->handle = handle;
  dlp_req **b = &buckets[bucket_of(handle)];
  pthread_mutex_lock(&table_lock);
  r->next = *b;
  *b = r;
  atomic_fetch_add(&live, 1);
  pthread_mutex_unlock(&table_lock);
}

void dlp_req_track(dlp_req *r)
{
  dl_type_retain(r->op.d.t);   /* the user may free the type before completion */
  /* MPICH hands out one shared handle for every request that completes at
     once (an eager send: 0x6c000001), so only pending requests, whose
     handles are unique, go into the table; the others finish now. A
     stream's generalized request is unique, and reports its errors when
     the user completes it */
  int flag = 0;
  MPI_Status st;
  int rc = r->op.route == DLP_R_PIPE ? MPI_SUCCESS
         : PMPI_Request_get_status(r->op.req, &flag, &st);
  if (flag) {
    MPI_Comm on;
    atomic_fetch_add(&live, 1);
    dlp_req_finish(r, &st, rc, &on);
    return;
  }
  add(r, r->op.req);
}

bool dlp_req_any(void)
{
  return atomic_load_explicit(&live, memory_order_acquire) > 0;
}

/* the entry of h, unlinked from the table when claim is set; lock held */
static dlp_req *lookup(MPI_Request h, bool claim)
{
  dlp_req **p = &buckets[bucket_of(h)];
  while (*p && (*p)->handle != h)
    p = &(*p)->next;
  dlp_req *r = *p;
  if (r && claim)
    *p = r->next;
  return r;
}

dlp_req *dlp_req_find(MPI_Request h)
{
  if (h == MPI_REQUEST_NULL || !dlp_req_any())
    return NULL;
  pthread_mutex_lock(&table_lock);
  dlp_req *r = lookup(h, false);
  pthread_mutex_unlock(&table_lock);
  return r;
}

dlp_req *dlp_req_claim(MPI_Request h)
{
  if (h == MPI_REQUEST_NULL || !dlp_req_any())
    return NULL;
  pthread_mutex_lock(&table_lock);
  dlp_req *r = lookup(h, true);
  pthread_mutex_unlock(&table_lock);
  return r;
}

void dlp_req_unclaim(dlp_req *r)
{
  dlp_req **b = &buckets[bucket_of(r->handle)];
  pthread_mutex_lock(&table_lock);
  r->next = *b;
  *b = r;
  pthread_mutex_unlock(&table_lock);
}

/* an entry whose work is done: its type released, its memory freed */
static void drop(dlp_req *r)
{
  dl_type_free(&r->op.d.t);
  free(r);
  atomic_fetch_sub(&live, 1);
}

int dlp_req_finish(dlp_req *r, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  const dlp_route *route = dlp_op_route(&r->op);
  *raise_on = MPI_COMM_NULL;
  if (route->finish)
    err = route->finish(&r->op, st, err, raise_on);
  drop(r);
  return err;
}

void dlp_req_orphan(dlp_req *r)
{
  if (r->op.route == DLP_R_PIPE) {
    dlp_stream_mod()->orphan(&r->op);    /* the stream ends on its own */
    drop(r);
    return;
  }
  dlp_finalize_hook();
  pthread_mutex_lock(&orphan_lock);
  r->next = orphans;
  orphans = r;
  pthread_mutex_unlock(&orphan_lock);
}

/* completes orphans MPICH has completed (all of them when wait is set) */
static void orphans_run(bool wait)
{
  if (wait)
    pthread_mutex_lock(&orphan_lock);
  else if (!orphans || pthread_mutex_trylock(&orphan_lock))
    return;            /* another thread is at it */
  dlp_req **p = &orphans;
  while (*p) {
    dlp_req *r = *p;
    MPI_Status st;
    int flag = 1;
    int rc = wait ? PMPI_Wait(&r->handle, &st) : PMPI_Test(&r->handle, &flag, &st);
    if (!flag) {
      p = &r->next;
      continue;
    }
    *p = r->next;
    MPI_Comm on;
    dlp_req_finish(r, &st, rc, &on);
  }
  pthread_mutex_unlock(&orphan_lock);
}

void dlp_orphans_poll(void)
{
  orphans_run(false);
}

static int finalize_key = MPI_KEYVAL_INVALID;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes before anything else */
static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
  (void)comm; (void)val; (void)extra;
  orphans_run(true);
  if (dlp_stream_mod())
    dlp_stream_mod()->drain();
  dlp_plans_free();
  dlp_stage_flush();
  PMPI_Comm_free_keyval(&key);
  return MPI_SUCCESS;
}

static void make_hook(void)
{
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &finalize_key,
                              NULL) == MPI_SUCCESS)
    PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_key, NULL);
}

void dlp_finalize_hook(void)
{
  pthread_once(&hook_once, make_hook);
}
