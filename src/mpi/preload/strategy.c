/* How a derived-type message moves, chosen per (type, count) and cached
 * (doc/tuning.md):
 *
 *   DIRECT  predefined, dense or empty data: MPICH with the user's own
 *           arguments
 *   BLOCKS  blocks of at least dl_tune_direct_block(message bytes) on
 *           average (DL_DIRECT_BLOCK, else what dataloop-tune measured at
 *           the nearest message size): MPICH moves them from where they
 *           lie, described by an hindexed type of bytes over the user's
 *           buffer, with no staging copy; the wire is the packed stream
 *           all the same, so any receiver matches
 *   PACK    packed into a staging buffer and sent as one message
 *   PIPE    pipeline mode (DL_PIPELINE=1), messages of a chunk or more:
 *           chunk streams (pipeline.c)
 *
 * DL_STRATEGY=pack or blocks forces a kind for every derived type whose
 * data is not dense (auto, the default, chooses); DL_TRACE=1 prints each
 * choice when it is made.
 *
 * The automatic choice starts as the tuned threshold's. The speed of
 * MPICH's transfers of blocks changes with the state of its transport,
 * by 2-4x on the development machine from one minute to the next, which
 * no threshold measured beforehand can follow. So where either kind could
 * win (at least ADAPT_BYTES in blocks of ADAPT_BLOCK bytes or more on
 * average), some uses of the plan are trials of one kind or the other
 * (trial_of), whose blocking sends are timed; after each trial the plan
 * keeps the kind whose latest trial's fastest send was faster, switching
 * only for a gain of 4% (DL_ADAPT=0: never). The first timed send of each
 * kind is not counted: it pays for page faults and set-up.
 *
 * The choice and the hindexed type are kept for the 64 most recently used
 * (type, count) pairs, each holding a reference to its type; a plan an
 * operation is being started with is not evicted (after that, MPI keeps
 * the hindexed type alive as long as the operation needs it). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "preload.h"

#define PLANS 64
#define MAX_BLOCKS ((size_t)1 << 20)   /* forced BLOCKS with more: PACK */
#define ADAPT_BYTES ((size_t)64 << 10)  /* smaller sends end before the
                                           transfer does: their time says
                                           nothing of it */
#define ADAPT_BLOCK 256                 /* 64-byte blocks tied with packing at
                                           best, and lost by up to 5x */
#define TRY_EVERY 128                   /* uses from one trial to the next: a
                                           trial of the worse kind costs a 64th
                                           of its excess */
#define TRY_USES 4                      /* uses in a trial: two timed sends of
                                           each of two ranks exchanging */
#define SWITCH_GAIN 0.96

typedef struct plan {
  dl_type *t;              /* NULL: free */
  MPI_Count count;
  int strategy;
  MPI_Datatype blocks;     /* BLOCKS, or an adaptive plan's other kind */
  unsigned long used;
  int users;               /* operations being started with it */
  int forced;              /* dlp_cfg()->strategy when it was chosen */
  bool adaptive;           /* PACK and BLOCKS both possible, timed sends */
  int initial;             /* the threshold's kind */
  unsigned long uses;      /* operations started with it, sends and receives */
  bool warm[2];            /* a timed send of the kind ran (its first, with
                              page faults and set-up, is not kept) */
  double best[2];          /* the fastest timed send of the kind in its
                              latest trial, [0] PACK, [1] BLOCKS; 0: none */
} plan;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static plan table[PLANS];
static unsigned long clock_;

static const char *const names[] = {"direct", "blocks", "pack", "pipeline"};

const char *dlp_strategy_name(int s)
{
  return s >= 0 && s <= DLP_S_PIPE ? names[s] : "?";
}

/* stream bytes [first, first + len) of segment s as an hindexed type of
   bytes relative to its buffer, if they lie in at most max blocks (*nb of
   them); MPI_DATATYPE_NULL otherwise */
static MPI_Datatype range_blocks(dl_segment *s, size_t first, size_t len, size_t max,
                                 size_t *nb)
{
  int64_t *offs = malloc((max + 1) * sizeof(int64_t));
  int64_t *lens = malloc((max + 1) * sizeof(int64_t));
  MPI_Count *cd = malloc((max + 1) * sizeof(MPI_Count));
  MPI_Count *cl = malloc((max + 1) * sizeof(MPI_Count));
  size_t last = first + len, n = 0;
  MPI_Datatype b = MPI_DATATYPE_NULL;
  if (offs && lens && cd && cl &&
      dl_segment_offlen(s, first, &last, offs, lens, max, &n) == DL_OK &&
      last == first + len) {
    for (size_t i = 0; i < n; i++) {
      cl[i] = lens[i];
      cd[i] = offs[i];
    }
    if (PMPI_Type_create_hindexed_c((MPI_Count)n, cl, cd, MPI_BYTE, &b) != MPI_SUCCESS ||
        PMPI_Type_commit(&b) != MPI_SUCCESS)
      b = MPI_DATATYPE_NULL;
    *nb = n;
  }
  free(offs);
  free(lens);
  free(cd);
  free(cl);
  return b;
}

/* the blocks of (count, t), if there are at most max of them; *n their
   number */
static MPI_Datatype blocks_type(const dlp_data *d, size_t max, size_t *n)
{
  dl_segment *s;
  if (dl_segment_create(NULL, d->count, d->t, &s) != DL_OK)
    return MPI_DATATYPE_NULL;
  MPI_Datatype b = range_blocks(s, 0, d->bytes, max, n);
  dl_segment_free(&s);
  return b;
}

static size_t at_most(size_t n, size_t cap)
{
  return n < cap ? n : cap;
}

/* the kind for a new plan p of d: BLOCKS needs few enough blocks; when
   timing may change it later, the blocks type is made all the same */
static void choose(const dlp_data *d, plan *p)
{
  const dlp_config *c = dlp_cfg();
  p->blocks = MPI_DATATYPE_NULL;
  p->strategy = DLP_S_PACK;
  if (c->strategy == DLP_S_PACK)
    return;
  size_t threshold = at_most(d->bytes / dl_tune_direct_block(d->bytes), MAX_BLOCKS);
  size_t max = c->strategy == DLP_S_BLOCKS ? MAX_BLOCKS : threshold;
  bool adapt = c->strategy < 0 && c->adapt && d->bytes >= ADAPT_BYTES;
  size_t adapt_max = at_most(d->bytes / ADAPT_BLOCK, MAX_BLOCKS);
  if (adapt && adapt_max > max)
    max = adapt_max;
  size_t n = 0;
  if (max == 0 || (p->blocks = blocks_type(d, max, &n)) == MPI_DATATYPE_NULL)
    return;
  p->adaptive = adapt && n <= adapt_max;
  p->strategy = c->strategy == DLP_S_BLOCKS || n <= threshold ? DLP_S_BLOCKS
                                                              : DLP_S_PACK;
  p->initial = p->strategy;
}

static void drop(plan *p)
{
  if (p->blocks != MPI_DATATYPE_NULL)
    PMPI_Type_free(&p->blocks);
  dl_type_free(&p->t);
  memset(p, 0, sizeof(*p));
}

/* the cached plan of (d->t, d->count), made if new; NULL when every
   entry is busy; lock held */
static plan *lookup(const dlp_data *d)
{
  plan *lru = NULL;
  for (int i = 0; i < PLANS; i++) {
    if (table[i].t == d->t && table[i].count == d->count &&
        table[i].forced == dlp_cfg()->strategy)
      return &table[i];
    if (!table[i].users && (!lru || !table[i].t || (lru->t && table[i].used < lru->used)))
      lru = &table[i];
  }
  if (!lru)
    return NULL;
  if (lru->t)
    drop(lru);
  dlp_finalize_hook();                /* frees the types at MPI_Finalize */
  dl_type_retain(d->t);
  *lru = (plan){.t = d->t, .count = d->count, .forced = dlp_cfg()->strategy};
  choose(d, lru);
  DLP_TRACE("strategy: %s for %zu bytes (%lld of a type; blocks from %zu bytes%s)",
            dlp_strategy_name(lru->strategy), d->bytes, (long long)d->count,
            dl_tune_direct_block(d->bytes), lru->adaptive ? "; timed" : "");
  return lru;
}

static int other(int kind)
{
  return kind == DLP_S_PACK ? DLP_S_BLOCKS : DLP_S_PACK;
}

static int slot(int kind)
{
  return kind == DLP_S_BLOCKS;
}

/* The trial a use falls in (uses of the plan, sends and receives, counted
   from 1), or 0: uses 5-8 and 9-12, then TRY_USES uses every TRY_EVERY.
   Odd trials run the kind the threshold did not choose, even ones the
   kind it did, whatever the plan runs in between: two ranks that send a
   (type, count) back and forth count each message as the same use, so a
   trial is the same kind on both sides. */
static unsigned long trial_of(unsigned long u)
{
  if (u >= 5 && u <= 12)
    return (u - 5) / TRY_USES + 1;
  if (u > 12 && u % TRY_EVERY >= 1 && u % TRY_EVERY <= TRY_USES)
    return u / TRY_EVERY + 2;
  return 0;
}

static int trial_kind(const plan *p, unsigned long trial)
{
  return trial % 2 ? other(p->initial) : p->initial;
}

/* the use after a trial from the second on: both kinds have a latest time */
static bool decision_at(unsigned long u)
{
  return trial_of(u - 1) >= 2 && !trial_of(u);
}

/* keeps the kind whose latest trial was faster, switching only for a gain
   of 1 - SWITCH_GAIN or more */
static void decide(plan *p)
{
  int keep = slot(p->strategy), alt = !keep;
  if (p->best[alt] > 0 && p->best[keep] > 0 &&
      p->best[alt] < SWITCH_GAIN * p->best[keep]) {
    DLP_TRACE("strategy: %s for %lld of a type now (its trial's send %.0f us, "
              "%s %.0f us)", dlp_strategy_name(other(p->strategy)),
              (long long)p->count, p->best[alt] * 1e6, dlp_strategy_name(p->strategy),
              p->best[keep] * 1e6);
    p->strategy = other(p->strategy);
  }
}

/* the plan of d, in use until dlp_plan_done; lock held */
static plan *take(dlp_data *d)
{
  plan *p = lookup(d);
  if (!p) {
    d->strategy = DLP_S_PACK;
    return NULL;
  }
  p->used = ++clock_;
  p->users++;
  d->strategy = p->strategy;
  d->blocks = p->blocks;
  d->plan = p;
  if (p->adaptive) {
    unsigned long u = ++p->uses, trial = trial_of(u);
    if (decision_at(u))
      decide(p);
    if (trial && trial != trial_of(u - 1))
      p->best[slot(trial_kind(p, trial))] = 0;    /* a new trial of the kind */
    d->trial = trial != 0;
    d->strategy = trial ? trial_kind(p, trial) : p->strategy;
  }
  return p;
}

void dlp_plan(dlp_data *d, bool stream)
{
  d->strategy = DLP_S_DIRECT;
  d->blocks = MPI_DATATYPE_NULL;
  d->plan = NULL;
  d->trial = false;
  if (dlp_straight(d))
    return;
  if (stream) {
    d->strategy = DLP_S_PIPE;
    return;
  }
  pthread_mutex_lock(&lock);
  take(d);
  pthread_mutex_unlock(&lock);
}

/* a timed send of the kind: the first warms up, a trial's faster ones
   count */
static void record(plan *p, int kind, bool trial, double secs)
{
  int k = slot(kind);
  if (!p->warm[k])
    p->warm[k] = true;
  else if (trial && (p->best[k] == 0 || secs < p->best[k]))
    p->best[k] = secs;
}

void dlp_plan_timed_done(dlp_data *d, double seconds)
{
  plan *p = d->plan;
  if (!p)
    return;
  pthread_mutex_lock(&lock);
  if (p->adaptive && seconds >= 0 &&
      (d->strategy == DLP_S_PACK || d->strategy == DLP_S_BLOCKS))
    record(p, d->strategy, d->trial, seconds);
  p->users--;
  pthread_mutex_unlock(&lock);
  d->plan = NULL;
}

double dlp_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void dlp_plan_done(dlp_data *d)
{
  dlp_plan_timed_done(d, -1);         /* nothing timed: only the release */
}

void dlp_plans_free(void)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < PLANS; i++)
    if (table[i].t)
      drop(&table[i]);
  pthread_mutex_unlock(&lock);
}
