/* Plans: the route of a (type, count), chosen once (doc/tuning.md) from
 * the thresholds (thresholds.c) by the message's size and its mean block
 * size, and cached with the hindexed type of its blocks when it moves them
 * as they lie. DL_STRATEGY forces a route where the data allows it.
 *
 * DL_ADAPT=1 adds one calibration round at a plan's first uses: each
 * candidate route runs CALIBRATE uses (the first of them not timed), its
 * blocking sends and receives timed; the route whose fastest send plus
 * fastest receive is least is kept for good. Without it the send path
 * reads no clock.
 *
 * The 64 most recently used plans of each mode are kept, each holding a
 * reference to its type; a plan an operation is being started with is not
 * evicted (MPI keeps the hindexed type alive once the operation started). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "p2p.h"
#include "../../../../actions/actions.h"
#include "../../../mpich/tr.h"
#include "../../../tune/tune.h"

#define PLANS 64
#define MAX_BLOCKS ((size_t)1 << 20)   /* more: never as they lie */
#define CALIBRATE 3                    /* uses per candidate route */
#define MAX_CAND 4
/* blocks smaller than a page, where the hardware prefetchers stop: a walk
   that turns back over its memory misses on each of them */
#define TURN_BLOCK 4096

typedef struct plan {
  dl_type *t;              /* NULL: free */
  MPI_Count count;
  bool stream;             /* a pipeline-mode plan of a chunk or more */
  int forced;              /* dlp_cfg()->strategy when it was chosen */
  int route, first;        /* as dlp_choice */
  MPI_Datatype blocks;
  size_t nblocks;          /* the data's contiguous blocks (counted up to
                              MAX_BLOCKS + 1) */
  bool forward;            /* those blocks in one sweep of rising addresses */
  unsigned long used;      /* LRU clock */
  int users;               /* operations being started with it */
  /* DL_ADAPT=1 */
  int cand[MAX_CAND], ncand;
  unsigned long uses;      /* uses so far, while calibrating */
  double send[MAX_CAND], recv[MAX_CAND];   /* fastest timed; 0: none */
} plan;

static void join_finalize(void)
{
  dlp_at_finalize(DLP_FIN_PLANS, dlp_plans_free);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static plan table[PLANS];
static unsigned long clock_;
static _Atomic unsigned long long carried[DLP_NROUTES][2];

void dlp_route_count(int route, bool recv)
{
  atomic_fetch_add_explicit(&carried[route][recv], 1, memory_order_relaxed);
}

/* exported: messages each route carried on this rank, sends then receives
   of route r at out[2r], out[2r + 1]; returns 2 * DLP_NROUTES */
__attribute__((visibility("default"))) int dl_preload_routes(unsigned long long *out,
                                                              int n)
{
  for (int i = 0; i < n && i < 2 * DLP_NROUTES; i++)
    out[i] = atomic_load_explicit(&carried[i / 2][i % 2], memory_order_relaxed);
  return 2 * DLP_NROUTES;
}

/* exported: the name of route r (NULL past the last) */
__attribute__((visibility("default"))) const char *dl_preload_route_name(int r)
{
  return r >= 0 && r < DLP_NROUTES ? dlp_route_name(r) : NULL;
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* the contiguous blocks of d's data, counted up to cap; *forward (when
   not NULL): whether those counted rise */
static size_t count_blocks(const dlp_data *d, size_t cap, bool *forward)
{
  dl_segment *s;
  if (forward)
    *forward = false;
  if (dl_segment_create(NULL, d->count, d->t, &s) != DL_OK)
    return cap;
  size_t n = dli_tr_count_blocks(s, 0, d->bytes, cap, NULL, NULL, forward);
  dl_segment_free(&s);
  return n ? n : 1;
}

/* d's n blocks as an hindexed type of bytes relative to its buffer, or
   MPI_DATATYPE_NULL */
static MPI_Datatype blocks_type(const dlp_data *d, size_t n)
{
  MPI_Count *cd = malloc(n * sizeof(MPI_Count)), *cl = malloc(n * sizeof(MPI_Count));
  MPI_Datatype b = MPI_DATATYPE_NULL;
  dl_segment *s = NULL;
  if (cd && cl && dl_segment_create(NULL, d->count, d->t, &s) == DL_OK) {
    dli_tr_cursor c;
    dli_tr_cursor_start(&c, s, 0, d->bytes);
    int64_t off, len;
    size_t got = 0;
    while (got < n && dli_tr_cursor_next(&c, &off, &len)) {
      cd[got] = off;
      cl[got++] = len;
    }
    /* every block of the data, n of them at most */
    bool whole = c.rc == DL_OK && !dli_tr_cursor_next(&c, &off, &len) && c.rc == DL_OK;
    if (whole &&
        (PMPI_Type_create_hindexed_c((MPI_Count)got, cl, cd, MPI_BYTE, &b) != MPI_SUCCESS ||
         PMPI_Type_commit(&b) != MPI_SUCCESS))
      b = MPI_DATATYPE_NULL;
  }
  if (s)
    dl_segment_free(&s);
  free(cd);
  free(cl);
  return b;
}

/* the route for p: forced, or from the thresholds; MPICH's engine only
   where it places d as dataloop does, blocks only as many as MAX_BLOCKS */
static int pick(const dlp_data *d, plan *p, size_t nblocks)
{
  int want = p->forced;
  /* the tables weigh the routes against packing block by block; a type
     dataloop packs interleaved (a line of stream at a time) packs several
     times faster than that, whole (doc/benchmarks.md): its blocks' size
     says nothing of its cost */
  if (want < 0 && dli_type_interleaves(d->t, d->count, dli_copy_limits()->interleave))
    return DLP_R_PACK;
  if (want < 0) {
    /* the tables weigh layouts walked in one rising sweep; where the walk
       turns back over its memory in small blocks (a transpose's columns)
       every block misses, which dataloop's packing overlaps several at a
       time and a host's engine, at both ends, pays one by one
       (doc/tuning.md) */
    size_t mean = d->bytes / nblocks;
    bool tables = p->forward || mean >= TURN_BLOCK;
    want = tables ? dlp_route_for(d->bytes, mean, p->stream) : DLP_R_PACK;
    if (d->engine_ok &&
        ((tables && dlp_mpich_wins(d->bytes, mean, d->fanout)) || dlp_sparse(d)))
      want = DLP_R_MPICH;
  }
  if (want == DLP_R_MPICH && !d->engine_ok)
    want = DLP_R_PACK;
  if (want == DLP_R_BLOCKS && nblocks > MAX_BLOCKS)
    want = DLP_R_PACK;
  if (want == DLP_R_PIPE && !p->stream)
    want = DLP_R_PACK;
  if (want == DLP_R_PACK && p->stream && p->forced < 0)
    want = DLP_R_PIPE;          /* pipeline mode: stream what would be packed */
  return want;
}

static void add_cand(plan *p, int route)
{
  for (int i = 0; i < p->ncand; i++)
    if (p->cand[i] == route)
      return;
  p->cand[p->ncand++] = route;
}

/* DL_ADAPT=1: the routes a calibration round tries, the chosen one first */
static void candidates(const dlp_data *d, plan *p, size_t nblocks)
{
  add_cand(p, p->route);
  add_cand(p, p->stream ? DLP_R_PIPE : DLP_R_PACK);
  if (p->stream)
    add_cand(p, DLP_R_PACK);
  if (nblocks <= MAX_BLOCKS)
    add_cand(p, DLP_R_BLOCKS);
  if (d->engine_ok)
    add_cand(p, DLP_R_MPICH);
}

static void ensure_blocks(const dlp_data *d, plan *p, size_t nblocks)
{
  if (p->blocks == MPI_DATATYPE_NULL && nblocks <= MAX_BLOCKS)
    p->blocks = blocks_type(d, nblocks);
}

static void choose(const dlp_data *d, plan *p)
{
  size_t cap = MAX_BLOCKS + 1;
  size_t nblocks = count_blocks(d, cap, &p->forward);
  p->nblocks = nblocks;
  p->route = pick(d, p, nblocks);
  bool adapt = p->forced < 0 && dlp_cfg()->adapt;
  if (adapt)
    candidates(d, p, nblocks);
  if (p->route == DLP_R_BLOCKS || (adapt && nblocks <= MAX_BLOCKS))
    ensure_blocks(d, p, nblocks);
  if (p->route == DLP_R_BLOCKS && p->blocks == MPI_DATATYPE_NULL)
    p->route = p->stream ? DLP_R_PIPE : DLP_R_PACK;
  if (p->ncand < 2)
    p->ncand = 0;
  DLP_TRACE("route: %s for %zu bytes in %zu%s %sblocks (%lld of a type%s%s)",
            dlp_route_name(p->route), d->bytes, nblocks, nblocks >= cap ? "+" : "",
            p->forward ? "" : "turning ", (long long)d->count, p->stream ? "; stream" : "",
            p->ncand ? "; calibrating" : "");
}

/* what a plan is found by, kept apart from the plans: a lookup reads
   these few contiguous lines, not every plan */
typedef struct key {
  const dl_type *t;        /* NULL: free */
  MPI_Count count;
  int mode;                /* forced * 2 + stream */
} key;
static key keys[PLANS];

static void drop(plan *p)
{
  if (p->blocks != MPI_DATATYPE_NULL)
    PMPI_Type_free(&p->blocks);
  dl_type_free(&p->t);
  memset(p, 0, sizeof(*p));
  keys[p - table] = (key){0};
}

/* the cached plan of d, else a new one in the least recently used free
   entry, else NULL (every entry busy); lock held */
static plan *find_or_make(const dlp_data *d, bool stream)
{
  int forced = dlp_cfg()->strategy, mode = forced * 2 + stream;
  for (int i = 0; i < PLANS; i++)
    if (keys[i].t == d->t && keys[i].count == d->count && keys[i].mode == mode)
      return &table[i];
  plan *lru = NULL;
  for (int i = 0; i < PLANS; i++) {
    plan *p = &table[i];
    if (!p->users && (!lru || !p->t || (lru->t && p->used < lru->used)))
      lru = p;
  }
  if (!lru)
    return NULL;
  if (lru->t)
    drop(lru);
  static pthread_once_t joined = PTHREAD_ONCE_INIT;
  pthread_once(&joined, join_finalize);  /* frees the types at MPI_Finalize */
  dl_type_retain(d->t);
  *lru = (plan){.t = d->t, .count = d->count, .forced = forced, .stream = stream,
                .blocks = MPI_DATATYPE_NULL};
  keys[lru - table] = (key){d->t, d->count, mode};
  choose(d, lru);
  return lru;
}

/* the candidate a calibrating plan's use u (from 1) runs: use 1 warms the
   chosen route, then CALIBRATE uses of each candidate in turn; -1 after */
static int calibration_slot(const plan *p, unsigned long u)
{
  if (u < 2 || u >= 2 + (unsigned long)(CALIBRATE * p->ncand))
    return u < 2 ? 0 : -1;
  return (int)((u - 2) / CALIBRATE);
}

/* the end of the round: the candidate with the least fastest send plus
   fastest receive (a rank that only sends or receives: what it does) */
static void settle(plan *p)
{
  int best = -1;
  double best_s = 0;
  for (int i = 0; i < p->ncand; i++) {
    double s = p->send[i] + p->recv[i];
    if (s > 0 && (best < 0 || s < best_s)) {
      best = i;
      best_s = s;
    }
  }
  if (best >= 0 && p->cand[best] != p->route) {
    DLP_TRACE("route: %s for %lld of a type after calibration", 
              dlp_route_name(p->cand[best]), (long long)p->count);
    p->route = p->cand[best];
  }
  p->ncand = 0;
}

/* whether MPICH's engine may receive d: DLP_DEV_ENGINE_STRADDLE (on every
   host: the bridge's engine check is MPICH 4.0.2's), and a stream's first
   chunk must end between elements */
static bool mpich_receives(const dlp_data *d, bool stream)
{
  return d->engine_ok && d->unit > 0 && (!stream || dlp_chunk() % (size_t)d->unit == 0);
}

/* what use of p a choice gets; lock held */
static void take(plan *p, const dlp_data *d, bool recv, dlp_choice *c)
{
  p->used = ++clock_;
  p->users++;
  c->plan = p;
  c->route = p->route;
  if (p->ncand) {
    unsigned long u = ++p->uses;
    int slot = calibration_slot(p, u);
    if (slot < 0) {
      settle(p);
      c->route = p->route;
    } else {
      c->route = p->cand[slot];
      c->timed = u >= 2 && (u - 2) % CALIBRATE != 0;
      c->slot = slot;
    }
  }
  c->first = c->route == DLP_R_PIPE ? DLP_R_PACK : c->route;
  if (recv && c->route == DLP_R_MPICH && !mpich_receives(d, p->stream))
    c->route = c->first = DLP_R_PACK;
  c->blocks = p->blocks;
  c->mean_block = d->bytes / (p->nblocks ? p->nblocks : 1);
}

void dlp_choose(const dlp_data *d, bool stream, bool recv, dlp_choice *c)
{
  *c = (dlp_choice){.route = stream ? DLP_R_PIPE : DLP_R_PACK, .first = DLP_R_PACK,
                    .blocks = MPI_DATATYPE_NULL};
  pthread_mutex_lock(&lock);
  plan *p = find_or_make(d, stream);
  if (p)
    take(p, d, recv, c);
  pthread_mutex_unlock(&lock);
  if (c->timed)
    c->t0 = now();
}

void dlp_choose_unstaged(const dlp_data *d, dlp_choice *c)
{
  *c = (dlp_choice){.route = DLP_R_MPICH, .first = DLP_R_MPICH,
                    .blocks = MPI_DATATYPE_NULL};
  pthread_mutex_lock(&lock);
  plan *p = find_or_make(d, false);
  if (p) {
    take(p, d, true, c);
    /* where the plan packs: MPICH's engine if it receives the type, which
       walks the type as it is, else the blocks */
    bool engine = mpich_receives(d, false);
    if (c->route != DLP_R_BLOCKS && !engine)
      ensure_blocks(d, p, count_blocks(d, MAX_BLOCKS + 1, NULL));
    c->blocks = p->blocks;
    c->route = c->route == DLP_R_BLOCKS && p->blocks != MPI_DATATYPE_NULL ? DLP_R_BLOCKS
             : engine || p->blocks == MPI_DATATYPE_NULL ? DLP_R_MPICH
             : DLP_R_BLOCKS;
    c->first = c->route;
    c->timed = false;
  }
  pthread_mutex_unlock(&lock);
}

void dlp_choice_done(dlp_choice *c, bool recv, bool ok)
{
  plan *p = c->plan;
  if (!p)
    return;
  double secs = c->timed && ok ? now() - c->t0 : 0;
  pthread_mutex_lock(&lock);
  if (secs > 0 && c->slot < p->ncand) {
    double *best = recv ? &p->recv[c->slot] : &p->send[c->slot];
    if (*best == 0 || secs < *best)
      *best = secs;
  }
  p->users--;
  pthread_mutex_unlock(&lock);
  c->plan = NULL;
}

void dlp_plans_free(void)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < PLANS; i++)
    if (table[i].t)
      drop(&table[i]);
  pthread_mutex_unlock(&lock);
}
