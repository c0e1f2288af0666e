/* Persistent point-to-point requests: MPI_Send_init, MPI_Ssend_init,
 * MPI_Bsend_init, MPI_Rsend_init, MPI_Recv_init (and _c), MPI_Start,
 * MPI_Startall.
 *
 * The program's handle is always MPICH's own persistent request, so every
 * call that can see it (completion, MPI_Request_get_status, MPI_Cancel,
 * MPI_Request_free, reached through MPI_* or PMPI_*) finds MPICH's state,
 * and MPICH judges the arguments: the request is first made with the
 * program's own. The route is chosen once, at _init, for a derived type:
 *
 *   BLOCKS  the request is remade over the user's blocks (an hindexed type
 *           of bytes, plan.c): MPICH moves them where they lie, and a start
 *           needs nothing of the interposer
 *   PACK    (sends) the request is remade over a staging buffer it owns;
 *           each start packs the user's data into it first
 *   MPICH   the request made with the program's arguments stays (also
 *           where a route could not be set up); DIRECT the same, for
 *           dense data
 *
 * Every start of a derived type's request counts as a send or receive of
 * the interposer's (dl_preload_counts, dl_preload_routes).
 * A start is the one point every use of a packing send passes, so the
 * interposer defines PMPI_Start and PMPI_Startall over MPICH's (MPICH's
 * Fortran 2008 bindings call those); both names of MPI_Request_free end
 * here too (complete.c calls what this module joins it with,
 * dlp_join_persistent), so that an entry never outlives its handle (MPICH
 * reuses handle values). A receive
 * never packs: no call that every completion passes could unpack it, so
 * where the plan would pack it takes MPICH's engine if that receives the
 * type whole, else the blocks (dlp_choose_unstaged).
 *
 * In the pipeline mode a persistent message is always one MPI message
 * (routed as above), which a stream receive takes whole, except one of
 * exactly a chunk, which would read as a stream's first chunk: each start
 * of such a send is followed by the empty chunk that ends a stream. A send
 * start cannot be held back (the program may complete it through MPICH's
 * own calls), so the streams still sending to the same place send all
 * they have left first, keeping MPI's message order; every send request
 * has an entry for that, predefined types included. A persistent receive
 * is the interposer's where a stream may come (a derived type, or data of
 * a chunk or more): the program's handle is MPICH's request made with the
 * program's arguments and never started, and each start is the
 * interposer's receive (dlp_irecv), which the calls that can see a
 * request put in the handle's place while it is active (swap_in and
 * swap_out, joined to complete.c) and which leaves the handle inactive
 * once complete.
 *
 * Another part's persistent requests are watched here too (a persistent
 * collective's, coll.c: dlp_persist_watch): its hook runs before each
 * start, and the calls that can see a request call its other hook once
 * they see a start completed (swap_out), before they return. Or only
 * attached (a partitioned request's, partitioned.c: dlp_persist_attach):
 * its record lives and dies with the handle, each start counted. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "p2p.h"

#define BUCKETS 256

typedef struct entry {
  MPI_Request h;          /* the program's handle */
  int route;              /* DLP_R_PACK, _BLOCKS, _MPICH or _DIRECT (dense) */
  bool recv;
  bool named;             /* a predefined type: not the interposer's data */
  MPI_Comm comm;          /* errors of a start go to its handler */
  int peer, tag, mode;    /* a send's envelope and mode */
  size_t bytes;           /* the message's */
  dlp_data d;             /* PACK: the user's data, d.t held */
  void *stage;            /* PACK: the packed message */
  /* relayed (pipeline mode, a receive the interposer starts) */
  bool relayed;
  MPI_Request inner;      /* the active start's request, or null */
  void *buf;
  MPI_Count count;
  MPI_Datatype dt;        /* a duplicate, the program's if predefined */
  /* watched for another part (a persistent collective): before(arg) at
     each start, after(arg) once it completed, arg_free(arg) at the end */
  int (*before)(void *arg);
  void (*after)(void *arg);
  void (*arg_free)(void *arg);
  void *arg;
  atomic_bool active;     /* started, its completion not yet seen */
  struct entry *next;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *table[BUCKETS];
static entry *retired;    /* freed while active: kept, since MPICH may
                             read the staging until MPI_Finalize ends */
static atomic_long nentries;
static atomic_long nrelayed;  /* relayed entries that are active */
static atomic_long nwatched;  /* watched entries that are active */

static size_t bucket(MPI_Request h)
{
  return ((size_t)h * 0x9E3779B97F4A7C15ull >> 24) % BUCKETS;
}

static void entry_free(entry *e)
{
  if (e->d.t)
    dl_type_free(&e->d.t);
  if (e->relayed && !e->named)
    PMPI_Type_free(&e->dt);
  if (e->arg_free)
    e->arg_free(e->arg);
  free(e->stage);
  free(e);
}

static void free_all(void)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < BUCKETS; i++)
    while (table[i]) {
      entry *e = table[i];
      table[i] = e->next;
      entry_free(e);
    }
  atomic_store(&nentries, 0);
  pthread_mutex_unlock(&lock);
}

static bool any(void);
static int swap_in(int n, MPI_Request reqs[], MPI_Request saved[]);
static void swap_out(int n, MPI_Request reqs[], const MPI_Request saved[]);
static int persist_free(MPI_Request *req);
static const dlp_persistent calls = {any, swap_in, swap_out, persist_free};

static void join_finalize(void)
{
  dlp_at_finalize(DLP_FIN_PERSIST, free_all);
  dlp_join_persistent(&calls);
}

static void insert(entry *e)
{
  static pthread_once_t joined = PTHREAD_ONCE_INIT;
  pthread_once(&joined, join_finalize);
  pthread_mutex_lock(&lock);
  entry **b = &table[bucket(e->h)];
  e->next = *b;
  *b = e;
  atomic_fetch_add(&nentries, 1);
  pthread_mutex_unlock(&lock);
}

/* h's entry, taken out of the table when take */
static entry *lookup(MPI_Request h, bool take)
{
  if (atomic_load_explicit(&nentries, memory_order_acquire) == 0)
    return NULL;
  pthread_mutex_lock(&lock);
  entry **p = &table[bucket(h)];
  while (*p && (*p)->h != h)
    p = &(*p)->next;
  entry *e = *p;
  if (e && take) {
    *p = e->next;
    atomic_fetch_sub(&nentries, 1);
  }
  pthread_mutex_unlock(&lock);
  return e;
}

/* MPICH's persistent request of the given arguments (raw.c) */
static int make(bool recv, const void *buf, MPI_Count count, MPI_Datatype dt, int peer,
                int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  return recv ? dlp_recv_init_as((void *)buf, count, dt, peer, tag, comm, req)
              : dlp_send_init_as(buf, count, dt, peer, tag, comm, mode, req);
}

/* the entry of *req (made with the program's arguments), the request
   remade as the route of d says where it takes the blocks or packs; a
   route that cannot be set up leaves MPICH's engine the data */
static void plan(bool recv, int peer, int tag, MPI_Comm comm, int mode, dlp_data *d,
                 MPI_Request *req)
{
  entry *e = calloc(1, sizeof *e);
  if (!e)
    return;
  dlp_choice c = {.route = DLP_R_DIRECT, .blocks = MPI_DATATYPE_NULL};
  bool planned = !dlp_straight(d);
  if (planned && recv)
    dlp_choose_unstaged(d, &c);
  else if (planned)
    dlp_choose(d, false, recv, &c);
  MPI_Request mine = MPI_REQUEST_NULL;
  if (c.route == DLP_R_PACK && !recv && (e->stage = malloc(d->bytes)) &&
      dl_type_retain(d->t) == DL_OK) {
    e->d = *d;
    if (make(false, e->stage, (MPI_Count)d->bytes, MPI_PACKED, peer, tag, comm, mode,
             &mine))
      mine = MPI_REQUEST_NULL;
  } else if (c.route == DLP_R_BLOCKS && c.blocks != MPI_DATATYPE_NULL) {
    if (make(recv, d->buf, 1, c.blocks, peer, tag, comm, mode, &mine))
      mine = MPI_REQUEST_NULL;
  }
  if (planned)
    dlp_choice_done(&c, recv, false);
  e->route = c.route;
  if (mine == MPI_REQUEST_NULL) {
    if (planned)
      e->route = DLP_R_MPICH;
    if (e->d.t)
      dl_type_free(&e->d.t);
    free(e->stage);
    e->stage = NULL;
  } else {
    dlp_next()->request_free(req);
    *req = mine;
  }
  e->h = *req;
  e->recv = recv;
  e->named = d->named;
  e->comm = comm;
  e->peer = peer;
  e->tag = tag;
  e->mode = mode;
  e->bytes = d->bytes;
  insert(e);
}

/* the entry of MPICH's receive h, relayed (no entry: h stays MPICH's) */
static void relay(void *buf, MPI_Count count, MPI_Datatype dt, int peer, int tag,
                  MPI_Comm comm, const dlp_data *d, MPI_Request h)
{
  entry *e = calloc(1, sizeof *e);
  if (!e)
    return;
  *e = (entry){.h = h, .route = DLP_R_PIPE, .recv = true, .named = d->named,
               .comm = comm, .peer = peer, .tag = tag, .bytes = d->bytes,
               .relayed = true, .inner = MPI_REQUEST_NULL, .buf = buf,
               .count = count, .dt = dt};
  if (!d->named && PMPI_Type_dup(dt, &e->dt) != MPI_SUCCESS) {
    free(e);
    return;
  }
  insert(e);
}

void dlp_persist_attach(MPI_Request h, bool recv, int route, void *arg,
                        void (*arg_free)(void *))
{
  entry *e = calloc(1, sizeof *e);
  if (!e) {
    arg_free(arg);
    return;
  }
  *e = (entry){.h = h, .route = route, .recv = recv, .arg_free = arg_free, .arg = arg};
  insert(e);
}

void *dlp_persist_arg(MPI_Request h)
{
  entry *e = lookup(h, false);
  return e && !e->before ? e->arg : NULL;
}

void dlp_persist_watch(MPI_Request h, MPI_Comm comm, int (*before)(void *),
                       void (*after)(void *), void (*arg_free)(void *), void *arg)
{
  entry *e = calloc(1, sizeof *e);
  if (!e) {
    arg_free(arg);
    return;
  }
  *e = (entry){.h = h, .route = DLP_R_PACK, .comm = comm, .before = before,
               .after = after, .arg_free = arg_free, .arg = arg};
  insert(e);
}

/* a watched entry's completion, if its request now says so (looked at
   after every call that can see it: done once, however many see it) */
static void watched_done(entry *e)
{
  int flag = 0;
  if (!atomic_load(&e->active) ||
      dlp_next()->request_get_status(e->h, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag)
    return;
  if (atomic_exchange(&e->active, false)) {
    atomic_fetch_sub(&nwatched, 1);
    e->after(e->arg);
  }
}

static int init_common(bool recv, const void *buf, MPI_Count count, MPI_Datatype dt,
                       int peer, int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  int rc = make(recv, buf, count, dt, peer, tag, comm, mode, req);
  if (rc != MPI_SUCCESS || peer == MPI_PROC_NULL || !req || *req == MPI_REQUEST_NULL)
    return rc;
  dlp_data d;
  if (dlp_data_get(buf, count, dt, &d) != MPI_SUCCESS)
    return MPI_SUCCESS;
  if (recv && dlp_streams() && (!dlp_straight(&d) || d.bytes >= dlp_chunk()))
    relay((void *)buf, count, dt, peer, tag, comm, &d, *req);
  else if (!d.named || (!recv && dlp_streams()))
    plan(recv, peer, tag, comm, mode, &d, req);
  return MPI_SUCCESS;
}

/* the interposer's part of starting h: the streams to the same place sent
   out (pipeline mode), and a packing send's data packed, unless
   the request is active (MPICH then reports the error, and the message in
   flight keeps its bytes) */
static int prepare(entry *e)
{
  if (!e || e->arg)
    return MPI_SUCCESS;
  const dlp_stream_module *m = dlp_streams();
  if (m && !e->recv && m->blocked(e->peer, e->tag, e->comm)) {
    int rc = m->flush(e->peer, e->tag, e->comm);
    if (rc)
      return dlp_raise(e->comm, rc);
  }
  if (e->named)
    return MPI_SUCCESS;
  if (e->route == DLP_R_PACK) {
    int inactive = 0;
    if (dlp_next()->request_get_status(e->h, &inactive, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
        !inactive)
      return MPI_SUCCESS;
    size_t pos = 0;
    dlp_detail_clear();
    int rc = dl_pack(e->d.buf, e->d.count, e->d.t, e->stage, e->d.bytes, &pos);
    if (rc)
      return dlp_raise_dl(e->comm, "MPI_Start", dlp_class_of(rc), rc);
  }
  return MPI_SUCCESS;
}

/* a start MPICH took counts as the interposer's send or receive */
static void counted(const entry *e)
{
  if (e && !e->named && !e->relayed) {
    dlp_count(e->recv ? DLP_N_RECV : DLP_N_SEND);
    dlp_route_count(e->route, e->recv);
  }
}

/* pipeline mode: a send of exactly a chunk, just started, gets the empty
   chunk that ends its stream */
static bool trailed(const entry *e)
{
  return e && !e->recv && dlp_streams() && e->bytes == dlp_chunk();
}

static int trail(const entry *e)
{
  char none = 0;
  MPI_Request q;
  int rc = dlp_isend_as(&none, 0, MPI_PACKED, e->peer, e->tag, e->comm,
                        e->mode == DLP_BUFFERED ? DLP_BUFFERED : DLP_STANDARD, &q);
  if (rc == MPI_SUCCESS)
    rc = dlp_next()->request_free(&q);
  return rc;
}

/* a relayed receive's start: the interposer's receive; MPICH's error for
   a request already active, raised as MPICH raises it */
static int relay_start(entry *e)
{
  if (e->inner != MPI_REQUEST_NULL)
    return dlp_raise_msg(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                         "MPI_Start: the persistent request is already active");
  MPI_Request h;
  int rc = dlp_irecv(e->buf, e->count, e->dt, e->peer, e->tag, e->comm, &h);
  if (rc == MPI_SUCCESS && h != MPI_REQUEST_NULL) {
    e->inner = h;
    atomic_fetch_add(&nrelayed, 1);
  }
  return rc;
}

static entry *relayed_entry(MPI_Request h)
{
  entry *e = dlp_streams() ? lookup(h, false) : NULL;
  return e && e->relayed ? e : NULL;
}

/* one lookup per start: relayed entries exist only in the pipeline mode */
static int start_common(MPI_Request *req)
{
  entry *e = req ? lookup(*req, false) : NULL;
  if (e && e->relayed)
    return relay_start(e);
  if (e && e->before) {
    /* an active one: MPICH's error for it, the staging left alone */
    int rc = atomic_load(&e->active) ? MPI_SUCCESS : e->before(e->arg);
    if (rc == MPI_SUCCESS)
      rc = dlp_next()->start(req);
    if (rc == MPI_SUCCESS && !atomic_exchange(&e->active, true))
      atomic_fetch_add(&nwatched, 1);
    return rc;
  }
  if (e && e->arg) {
    int rc = dlp_next()->start(req);
    if (rc == MPI_SUCCESS)
      counted(e);
    return rc;
  }
  int rc = prepare(e);
  if (rc)
    return rc;
  rc = dlp_next()->start(req);
  if (rc == MPI_SUCCESS)
    counted(e);
  if (rc == MPI_SUCCESS && trailed(e))
    rc = trail(e);
  return rc;
}

static int startall_common(int n, MPI_Request reqs[])
{
  bool trails = false;
  for (int i = 0; reqs && i < n && !trails; i++) {
    entry *e = lookup(reqs[i], false);
    trails = trailed(e) || (e && (e->relayed || e->before));
  }
  /* two trailed sends to one place: each one's empty chunk right after it;
     relayed receives are the interposer's to start */
  if (trails) {
    for (int i = 0; i < n; i++) {
      int rc = start_common(&reqs[i]);
      if (rc)
        return rc;
    }
    return MPI_SUCCESS;
  }
  for (int i = 0; reqs && i < n; i++) {
    int rc = prepare(lookup(reqs[i], false));
    if (rc)
      return rc;
  }
  int rc = dlp_next()->startall(n, reqs);
  for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
    counted(lookup(reqs[i], false));
  return rc;
}

/* an entry leaves with its handle; one freed while active keeps its
   staging for good, since the message may still be in flight (a freed
   request never says when it is done) */
static int persist_free(MPI_Request *req)
{
  entry *e = req ? lookup(*req, true) : NULL;
  if (e && e->before && atomic_exchange(&e->active, false))
    atomic_fetch_sub(&nwatched, 1);   /* goes on: its staging kept, below */
  if (e && e->relayed) {
    /* an active start goes on (an interposed one as an orphan) */
    if (e->inner != MPI_REQUEST_NULL) {
      dlp_next()->request_free(&e->inner);
      atomic_fetch_sub(&nrelayed, 1);
    }
    entry_free(e);
  } else if (e) {
    int inactive = 0;
    if (dlp_next()->request_get_status(*req, &inactive, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
        inactive) {
      entry_free(e);
    } else {
      pthread_mutex_lock(&lock);
      e->next = retired;
      retired = e;
      pthread_mutex_unlock(&lock);
    }
  }
  return dlp_next()->request_free(req);
}

/* ---- relayed receives in the calls that can see a request ---- */

static bool any(void)
{
  return atomic_load_explicit(&nrelayed, memory_order_acquire) > 0 ||
         atomic_load_explicit(&nwatched, memory_order_acquire) > 0;
}

static entry *watched_entry(MPI_Request h)
{
  entry *e = atomic_load_explicit(&nwatched, memory_order_acquire) ? lookup(h, false) : NULL;
  return e && e->before ? e : NULL;
}

static int swap_in(int n, MPI_Request reqs[], MPI_Request saved[])
{
  int swapped = 0;
  for (int i = 0; i < n; i++) {
    entry *e = reqs[i] != MPI_REQUEST_NULL ? relayed_entry(reqs[i]) : NULL;
    saved[i] = MPI_REQUEST_NULL;
    if (e && e->inner != MPI_REQUEST_NULL) {
      saved[i] = reqs[i];
      reqs[i] = e->inner;
      swapped++;
    } else if (reqs[i] != MPI_REQUEST_NULL && watched_entry(reqs[i])) {
      saved[i] = reqs[i];     /* stays in place; looked at after the call */
      swapped++;
    }
  }
  return swapped;
}

static void swap_out(int n, MPI_Request reqs[], const MPI_Request saved[])
{
  for (int i = 0; i < n; i++) {
    if (saved[i] == MPI_REQUEST_NULL)
      continue;
    entry *w = watched_entry(saved[i]);
    if (w) {
      watched_done(w);
      continue;
    }
    entry *e = relayed_entry(saved[i]);
    if (e) {
      e->inner = reqs[i];
      if (reqs[i] == MPI_REQUEST_NULL)
        atomic_fetch_sub(&nrelayed, 1);
    }
    reqs[i] = saved[i];
  }
}

/* ---- the MPI entry points ---- */

#define SEND_INIT(NAME, T, MODE)                                                       \
  int NAME(const void *buf, T count, MPI_Datatype datatype, int dest, int tag,         \
           MPI_Comm comm, MPI_Request *request)                                        \
  {                                                                                    \
    return init_common(false, buf, count, datatype, dest, tag, comm, MODE, request);   \
  }
SEND_INIT(MPI_Send_init, int, DLP_STANDARD)
SEND_INIT(MPI_Ssend_init, int, DLP_SYNC)
SEND_INIT(MPI_Rsend_init, int, DLP_READY)
SEND_INIT(MPI_Bsend_init, int, DLP_BUFFERED)
#if MPI_VERSION >= 4   /* MPI-4's large-count forms */
SEND_INIT(MPI_Send_init_c, MPI_Count, DLP_STANDARD)
SEND_INIT(MPI_Ssend_init_c, MPI_Count, DLP_SYNC)
SEND_INIT(MPI_Rsend_init_c, MPI_Count, DLP_READY)
SEND_INIT(MPI_Bsend_init_c, MPI_Count, DLP_BUFFERED)
#endif

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
  return init_common(true, buf, count, datatype, source, tag, comm, DLP_STANDARD, request);
}

#if MPI_VERSION >= 4
int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
  return init_common(true, buf, count, datatype, source, tag, comm, DLP_STANDARD, request);
}
#endif

int MPI_Start(MPI_Request *request) { return start_common(request); }
int PMPI_Start(MPI_Request *request) { return start_common(request); }
int MPI_Startall(int count, MPI_Request array_of_requests[])
{
  return startall_common(count, array_of_requests);
}
int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
  return startall_common(count, array_of_requests);
}
