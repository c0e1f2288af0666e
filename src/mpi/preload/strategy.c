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
 *   PIPE    pipeline mode (DL_PIPELINE=1): a chunk stream, packed chunk by
 *           chunk while earlier chunks travel (pipeline.c)
 *   MPICH   the user's own arguments: MPICH's engine moves the data (for
 *           some layouts it packs straight into its shared-memory cells,
 *           one copy where packing makes two); the wire is the packed
 *           stream all the same, for the types MPICH's engine places as
 *           dataloop does (known from the type's structure when it was
 *           decoded, dli_type_from_mpi_props; on others DL_STRATEGY=mpich
 *           packs, and trials leave the kind out). Sends only: MPICH 4.0.2
 *           fails to receive a message into a type whose elements straddle
 *           its fragments (test_p2p pins it), so a receive of this kind is
 *           staged and unpacked as PACK's
 *
 * In pipeline mode a plan of a message of at least a chunk is a stream
 * plan: PIPE where the default mode would pack, or PACK, BLOCKS or MPICH
 * (the message whole, which a stream receive also takes; one of exactly a
 * chunk then needs an empty message after it, p2p.c). DL_STRATEGY=pack,
 * blocks, pipe or mpich forces a kind for every derived type whose data is
 * not dense, where the mode and size allow it (auto, the default, chooses);
 * DL_TRACE=1 prints each choice when it is made.
 *
 * The automatic choice starts as the tuned threshold's. The speed of
 * MPICH's transfers of blocks changes with the state of its transport,
 * by 2-4x on the development machine from one minute to the next, which
 * no threshold measured beforehand can follow. So where more than one kind
 * could win (at least ADAPT_BYTES; blocks when they average ADAPT_BLOCK
 * bytes or more, or number at most ADAPT_FEW; MPICH unless DL_TRY_MPICH=0;
 * in a stream plan, PIPE and PACK always), some uses of the plan are
 * trials of one kind or another (trial_at), whose blocking sends and receives are timed (a receive's
 * time covers the unpacking after its data arrived, which no send's does:
 * all of a packed message, MPICH's own for blocks, a stream's last chunk).
 * A kind's time is its fastest send plus its fastest receive: for two
 * ranks exchanging the (type, count), a round trip. After the early
 * trials the plan keeps the kind that was fastest; after each later trial
 * it takes the trial's kind if that beat the kept kind timed in the uses
 * just before the trial (times taken far apart do not compare on a
 * drifting transport). Switching needs a gain of 4% (DL_ADAPT=0: never).
 * A kind that lost is tried again after a period that keeps what its
 * trials cost, at the excess it showed, within 1/TRY_BUDGET of the uses'
 * time; one HOPELESS times slower than the fastest in the first round
 * sits out the second. A trial's first SETTLE uses are not timed (they
 * wait on the peer's handling of the kind before), nor are the first
 * timed send and receive of each kind (page faults, set-up). The kept
 * kind's own uses are watched: SLOWER than before, and the others'
 * periods start again from TRY_PERIOD.
 *
 * The choice and the hindexed type are kept for the 64 most recently used
 * (type, count) pairs of each mode, each holding a reference to its type;
 * a plan an operation is being started with is not evicted (after that,
 * MPI keeps the hindexed type alive as long as the operation needs it). */
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
#define ADAPT_BLOCK 256                 /* blocks of this size or more may
                                           win (64-byte blocks tied with
                                           packing at best, and lost by up to
                                           5x) */
#define ADAPT_FEW 65536                 /* or so few blocks that a trial of
                                           them costs little whatever their
                                           size (8-byte blocks won by 14%
                                           where MPICH overlapped its packing
                                           with the peer's unpacking) */
#define SETTLE 2                        /* a trial's first uses, not timed: a
                                           ping-pong's first receive of the
                                           trial waits for the peer's
                                           unpacking of a message of the kind
                                           before (the YZ face's packing trial
                                           looked 20% faster than packing was,
                                           its first receive not waiting for a
                                           packed message's unpacking) */
#define TRY_USES 4                      /* timed uses in a trial, and before
                                           one: two sends and two receives of
                                           each of two ranks exchanging */
#define TRIAL (SETTLE + TRY_USES)
#define TRY_PERIOD 256                  /* uses from one trial of a kind to its
                                           next, at the shortest */
#define MAX_PERIOD 16384                /* ... and at the longest */
#define TRY_BUDGET 128                  /* a kind's trials cost at most this
                                           share of the uses' time, at the
                                           excess its latest trial showed */
#define HOPELESS 4.0                    /* slower than the fastest by this in
                                           the first round: not in the second */
#define SWITCH_GAIN 0.96
#define WATCH 16                        /* uses in a window of the kept kind's
                                           own times */
#define SLOWER 1.25                     /* the kept kind's window this much
                                           slower than its best window: the
                                           other kinds are tried every
                                           TRY_PERIOD again */

typedef struct plan {
  dl_type *t;              /* NULL: free */
  MPI_Count count;
  int strategy;
  MPI_Datatype blocks;     /* BLOCKS, or an adaptive plan's other kind */
  size_t mpich_unit;       /* dlp_data's */
  unsigned long used;
  int users;               /* operations being started with it */
  int forced;              /* dlp_cfg()->strategy when it was chosen */
  bool stream;             /* a pipeline-mode plan of a chunk or more */
  bool adaptive;           /* more than one kind possible, timed sends */
  int kinds[4], nkinds;    /* the kinds tried, [0] the threshold's */
  unsigned long period[4]; /* by index in kinds: uses between its later
                              trials, a power of two from TRY_PERIOD */
  bool sits_out[4];        /* by index: not in the second early round */
  unsigned long uses;      /* operations started with it, sends and receives */
  bool warm[DLP_S_MPICH + 1];  /* a timed send of the kind ran (its first,
                                  with page faults and set-up, is not kept) */
  double best[DLP_S_MPICH + 1];  /* by kind: the fastest timed send of its
                                    latest trial; 0: none */
  bool warm_recv[DLP_S_MPICH + 1];
  double recv[DLP_S_MPICH + 1];  /* by kind: the fastest timed receive of
                                    its latest trial; 0: none */
  double ctl_send, ctl_recv;    /* the kept kind's fastest in the uses just
                                   before the latest trial; 0: none */
  double win_send, win_recv;    /* the kept kind's fastest in the current
                                   window of WATCH uses; 0: none */
  double ref_send, ref_recv;    /* its fastest window since it was kept */
} plan;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static plan table[PLANS];
static unsigned long clock_;

static const char *const names[] = {"direct", "blocks", "pack", "pipeline", "mpich"};

const char *dlp_strategy_name(int s)
{
  return s >= 0 && s <= DLP_S_MPICH ? names[s] : "?";
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

static void add_kind(plan *p, int kind)
{
  for (int i = 0; i < p->nkinds; i++)
    if (p->kinds[i] == kind)
      return;
  p->kinds[p->nkinds++] = kind;
}

/* what a new plan may do with MPICH's engine */
typedef struct mpich_verdict {
  bool may;                /* it moves d as dataloop does */
  size_t unit;             /* dlp_data's mpich_unit */
} mpich_verdict;

/* a new plan of d would ask: MPICH forced, or among the timed kinds */
static bool wants_mpich(const dlp_data *d)
{
  const dlp_config *c = dlp_cfg();
  return c->strategy == DLP_S_MPICH ||
         (c->strategy < 0 && c->adapt && c->try_mpich && d->bytes >= ADAPT_BYTES);
}

/* MPICH's engine for sends of types it places as dataloop does, decided
   from the type's structure when it was decoded; its receives are staged
   (MPICH 4.0.2 fails receives whose elements straddle its fragments) */
static mpich_verdict ask_mpich(const dlp_data *d)
{
  return (mpich_verdict){d->engine_ok, 0};
}

/* the kind for a new plan p of d: BLOCKS needs few enough blocks; when
   timing may change it later, the blocks type is made all the same, and
   p->kinds lists what the trials run; mv: MPICH's verdict, NULL where
   wants_mpich said no */
static void choose(const dlp_data *d, plan *p, const mpich_verdict *mv)
{
  bool mpich = mv && mv->may;
  if (mpich)
    p->mpich_unit = mv->unit;
  const dlp_config *c = dlp_cfg();
  int packing = p->stream ? DLP_S_PIPE : DLP_S_PACK;
  p->blocks = MPI_DATATYPE_NULL;
  p->strategy = packing;
  if (c->strategy == DLP_S_PACK || c->strategy == DLP_S_PIPE) {
    p->strategy = p->stream ? c->strategy : DLP_S_PACK;
    return;
  }
  if (c->strategy == DLP_S_MPICH) {
    if (mpich)
      p->strategy = DLP_S_MPICH;
    return;
  }
  size_t threshold = at_most(d->bytes / dl_tune_direct_block(d->bytes), MAX_BLOCKS);
  size_t max = c->strategy == DLP_S_BLOCKS ? MAX_BLOCKS : threshold;
  bool adapt = c->strategy < 0 && c->adapt && d->bytes >= ADAPT_BYTES;
  size_t few = d->bytes / ADAPT_BLOCK > ADAPT_FEW ? d->bytes / ADAPT_BLOCK : ADAPT_FEW;
  size_t adapt_max = at_most(few, MAX_BLOCKS);
  if (adapt && adapt_max > max)
    max = adapt_max;
  size_t n = 0;
  if (max > 0)
    p->blocks = blocks_type(d, max, &n);
  bool have = p->blocks != MPI_DATATYPE_NULL;
  if (have && (c->strategy == DLP_S_BLOCKS || n <= threshold))
    p->strategy = DLP_S_BLOCKS;
  if (!adapt)
    return;
  add_kind(p, p->strategy);
  add_kind(p, packing);
  if (p->stream)
    add_kind(p, DLP_S_PACK);
  if (have && n <= adapt_max)
    add_kind(p, DLP_S_BLOCKS);
  if (c->try_mpich && mpich)
    add_kind(p, DLP_S_MPICH);
  p->adaptive = p->nkinds > 1;
  for (int i = 0; i < p->nkinds; i++)
    p->period[i] = TRY_PERIOD;
}

static void drop(plan *p)
{
  if (p->blocks != MPI_DATATYPE_NULL)
    PMPI_Type_free(&p->blocks);
  dl_type_free(&p->t);
  memset(p, 0, sizeof(*p));
}

/* the cached plan of (d->t, d->count), or NULL; lock held */
static plan *find(const dlp_data *d, bool stream)
{
  for (int i = 0; i < PLANS; i++)
    if (table[i].t == d->t && table[i].count == d->count &&
        table[i].forced == dlp_cfg()->strategy && table[i].stream == stream)
      return &table[i];
  return NULL;
}

/* a new plan of (d->t, d->count) in the least recently used free entry
   (mv: as for choose); NULL when every entry is busy; lock held */
static plan *make(const dlp_data *d, bool stream, const mpich_verdict *mv)
{
  plan *lru = NULL;
  for (int i = 0; i < PLANS; i++)
    if (!table[i].users && (!lru || !table[i].t || (lru->t && table[i].used < lru->used)))
      lru = &table[i];
  if (!lru)
    return NULL;
  if (lru->t)
    drop(lru);
  dlp_finalize_hook();                /* frees the types at MPI_Finalize */
  dl_type_retain(d->t);
  *lru = (plan){.t = d->t, .count = d->count, .forced = dlp_cfg()->strategy,
                .stream = stream};
  choose(d, lru, mv);
  DLP_TRACE("strategy: %s for %zu bytes (%lld of a type; blocks from %zu bytes%s%s)",
            dlp_strategy_name(lru->strategy), d->bytes, (long long)d->count,
            dl_tune_direct_block(d->bytes), stream ? "; stream" : "",
            lru->adaptive ? "; timed" : "");
  return lru;
}

/* the last use of early round r (0 or 1) */
static unsigned long round_end(const plan *p, unsigned long r)
{
  return 4 + (r + 1) * TRIAL * (unsigned long)p->nkinds;
}

/* the last use of the early rounds */
static unsigned long early_end(const plan *p)
{
  return round_end(p, 1);
}

/* The trial a use falls in (uses of the plan, sends and receives, counted
   from 1): the index in p->kinds of the kind it tries, or -1. From use 5
   on, two rounds of TRIAL uses per kind (the first warms every kind up:
   MPICH's first transfers with a new type or buffer run slow; the
   threshold's kind last in each round); then each kind but the kept one
   has TRIAL uses at the end of every p->period[i] uses, kind i at
   offset i of nkinds in the last TRY_PERIOD, so no two kinds' trials
   meet. Whatever the plan runs in
   between: two ranks that send a (type, count) back and forth count each
   message as the same use, so a trial is the same kind on both sides
   (where their periods differ, the longer one's trials are some of the
   shorter one's). */
static int trial_at(const plan *p, unsigned long u)
{
  unsigned long n = (unsigned long)p->nkinds;
  if (u < 5)
    return -1;
  if (u <= early_end(p)) {
    unsigned long slot = (u - 5) / TRIAL;
    int i = (int)((slot + 1) % n);
    return slot >= n && p->sits_out[i] ? -1 : i;
  }
  for (unsigned long i = 0; i < n; i++) {
    unsigned long at = u % p->period[i];
    unsigned long first = p->period[i] - TRY_PERIOD + i * (TRY_PERIOD / n) + 1;
    if (p->kinds[i] != p->strategy && at >= first && at < first + TRIAL)
      return (int)i;
  }
  return -1;
}

/* a kind's latest trial: its fastest send plus its fastest receive (a
   rank that only sends or only receives: the one it does); 0: nothing
   timed */
static double score(const plan *p, int k)
{
  return p->best[k] + p->recv[k];
}

/* the period of a kind whose trial took ratio times the kept kind's: its
   trials' excess within 1/TRY_BUDGET of the time */
static unsigned long period_for(double ratio)
{
  unsigned long period = TRY_PERIOD;
  while (period < MAX_PERIOD && TRIAL * (ratio - 1) * TRY_BUDGET > (double)period)
    period *= 2;
  return period;
}

/* each kind but the kept one is tried again as often as its latest time
   against the kept kind's (kept seconds) allows */
static void set_periods(plan *p, double kept)
{
  for (int i = 0; i < p->nkinds; i++) {
    double s = score(p, p->kinds[i]);
    p->period[i] = p->sits_out[i] ? MAX_PERIOD
                 : s > 0 && kept > 0 ? period_for(s / kept) : TRY_PERIOD;
  }
}

static void switch_to(plan *p, int kind, double secs, double kept_secs)
{
  DLP_TRACE("strategy: %s for %lld of a type now (its trial's send and receive "
            "%.0f us, %s %.0f us)", dlp_strategy_name(kind), (long long)p->count,
            secs * 1e6, dlp_strategy_name(p->strategy), kept_secs * 1e6);
  p->strategy = kind;
  p->ref_send = p->ref_recv = 0;
}

/* at the end of early round r (0 or 1): keeps the kind whose latest trial
   was fastest, for a gain of 1 - SWITCH_GAIN or more; after the first
   round, a kind HOPELESS times slower than it sits out the second */
static void decide_early(plan *p, int round)
{
  int keep = p->strategy, fast = keep;
  for (int i = 0; i < p->nkinds; i++) {
    int k = p->kinds[i];
    if (score(p, k) > 0 && (score(p, fast) == 0 || score(p, k) < score(p, fast)))
      fast = k;
  }
  if (fast != keep && score(p, keep) > 0 && score(p, fast) < SWITCH_GAIN * score(p, keep))
    switch_to(p, fast, score(p, fast), score(p, keep));
  if (round == 0 && score(p, fast) > 0)
    for (int i = 0; i < p->nkinds; i++)
      p->sits_out[i] = score(p, p->kinds[i]) > HOPELESS * score(p, fast);
  set_periods(p, score(p, p->strategy));
}

/* after a later trial of kind index i: takes its kind if it beat the kept
   kind timed in the uses just before it (the transport's speed drifts:
   times taken minutes apart do not compare), for a gain of 1 - SWITCH_GAIN
   or more; either way the loser's next trial comes after a period its
   excess allows */
static void decide(plan *p, int i)
{
  int k = p->kinds[i];
  double kept = p->ctl_send + p->ctl_recv, s = score(p, k);
  if (s <= 0 || kept <= 0)
    return;
  if (s >= SWITCH_GAIN * kept) {
    p->period[i] = period_for(s / kept);
    return;
  }
  int old = p->strategy;
  switch_to(p, k, s, kept);
  for (int j = 0; j < p->nkinds; j++)
    if (p->kinds[j] == old)
      p->period[j] = period_for(kept / s);
}

/* the sum of a and b's parts that both have (a rank that only sends, or
   only receives, compares what it does) */
static double common(double a_send, double a_recv, double b_send, double b_recv)
{
  return (a_send > 0 && b_send > 0 ? a_send : 0) + (a_recv > 0 && b_recv > 0 ? a_recv : 0);
}

/* at the end of a window of WATCH uses: the kept kind SLOWER than in its
   best window since it was kept means the other kinds' periods, set
   against its former speed, are too long (the transport's state changed):
   they are tried every TRY_PERIOD again, and this window is the new
   reference */
static void watch(plan *p)
{
  double now = common(p->win_send, p->win_recv, p->ref_send, p->ref_recv);
  double ref = common(p->ref_send, p->ref_recv, p->win_send, p->win_recv);
  if (ref > 0 && now > SLOWER * ref) {
    DLP_TRACE("strategy: %s for %lld of a type slowed to %.0f us from %.0f: the "
              "others are tried again", dlp_strategy_name(p->strategy),
              (long long)p->count, now * 1e6, ref * 1e6);
    for (int i = 0; i < p->nkinds; i++)
      p->period[i] = TRY_PERIOD;
    p->ref_send = p->win_send;
    p->ref_recv = p->win_recv;
  } else {
    if (p->win_send > 0 && (p->ref_send == 0 || p->win_send < p->ref_send))
      p->ref_send = p->win_send;
    if (p->win_recv > 0 && (p->ref_recv == 0 || p->win_recv < p->ref_recv))
      p->ref_recv = p->win_recv;
  }
  p->win_send = p->win_recv = 0;
}

/* the decision use u brings, if any: at the end of each early round, or
   after a later trial */
static void decide_at(plan *p, unsigned long u)
{
  int was = trial_at(p, u - 1);
  if (u - 1 == round_end(p, 0) || u - 1 == round_end(p, 1))
    decide_early(p, u - 1 == round_end(p, 0) ? 0 : 1);
  else if (u - 1 > early_end(p) && was >= 0 && trial_at(p, u) != was)
    decide(p, was);
}

/* d takes plan p (NULL: none could be made), in use until dlp_plan_done;
   lock held */
static void take(dlp_data *d, plan *p, bool stream)
{
  if (!p) {
    d->strategy = stream ? DLP_S_PIPE : DLP_S_PACK;
    return;
  }
  p->used = ++clock_;
  p->users++;
  d->strategy = p->strategy;
  d->blocks = p->blocks;
  d->mpich_unit = p->mpich_unit;
  d->plan = p;
  if (p->adaptive) {
    unsigned long u = ++p->uses;
    int was = trial_at(p, u - 1);
    decide_at(p, u);
    if (u > early_end(p) && u % WATCH == 0)
      watch(p);
    int now = trial_at(p, u);
    if (now >= 0 && now != was) {   /* a new trial of the kind */
      p->best[p->kinds[now]] = 0;
      p->recv[p->kinds[now]] = 0;
    }
    /* the TRY_USES uses before a trial time the kept kind against it */
    int ahead = trial_at(p, u + TRY_USES);
    d->control = now < 0 && ahead >= 0;
    if (d->control && ahead != trial_at(p, u + TRY_USES - 1))
      p->ctl_send = p->ctl_recv = 0;
    d->trial = now >= 0 && trial_at(p, u - SETTLE) == now;   /* settled */
    /* a use of the kept kind, settled after any trial */
    d->watch = now < 0 && was < 0 && trial_at(p, u - SETTLE) < 0 && u > early_end(p) + SETTLE;
    d->strategy = now >= 0 ? p->kinds[now] : p->strategy;
  }
}

void dlp_plan(dlp_data *d, bool stream)
{
  d->strategy = DLP_S_DIRECT;
  d->blocks = MPI_DATATYPE_NULL;
  d->mpich_unit = 0;
  d->plan = NULL;
  d->trial = d->control = d->watch = false;
  if (dlp_straight(d))
    return;
  pthread_mutex_lock(&lock);
  plan *p = find(d, stream);
  if (!p) {
    mpich_verdict v = ask_mpich(d);
    p = make(d, stream, wants_mpich(d) ? &v : NULL);
  }
  take(d, p, stream);
  pthread_mutex_unlock(&lock);
}

/* a timed operation of the kind: the first warms up, a trial's (or
   control's) faster ones count */
static void record(bool *warm, double *fastest, bool counted, double secs)
{
  if (!*warm)
    *warm = true;
  else if (counted && (*fastest == 0 || secs < *fastest))
    *fastest = secs;
}

/* releases d's plan; a blocking send or receive with it took seconds
   (negative: not timed) */
static void release(dlp_data *d, double seconds, bool receive)
{
  plan *p = d->plan;
  if (!p)
    return;
  pthread_mutex_lock(&lock);
  int k = d->strategy;
  if (p->adaptive && seconds > 0 && k >= DLP_S_BLOCKS && k <= DLP_S_MPICH) {
    bool *warm = receive ? &p->warm_recv[k] : &p->warm[k];
    if (d->watch && k == p->strategy)
      record(warm, receive ? &p->win_recv : &p->win_send, true, seconds);
    if (d->control)
      record(warm, receive ? &p->ctl_recv : &p->ctl_send, true, seconds);
    else
      record(warm, receive ? &p->recv[k] : &p->best[k], d->trial, seconds);
  }
  p->users--;
  pthread_mutex_unlock(&lock);
  d->plan = NULL;
}

void dlp_plan_timed_done(dlp_data *d, double seconds)
{
  release(d, seconds, false);
}

void dlp_plan_received(dlp_data *d, double seconds)
{
  release(d, seconds, true);
}

double dlp_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void dlp_plan_done(dlp_data *d)
{
  release(d, -1, false);              /* nothing timed: only the release */
}

void dlp_plans_free(void)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < PLANS; i++)
    if (table[i].t)
      drop(&table[i]);
  pthread_mutex_unlock(&lock);
}
