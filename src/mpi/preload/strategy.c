/* How a derived-type message moves, chosen per (type, count) and cached
 * (doc/tuning.md):
 *
 *   DIRECT  predefined, dense or empty data: MPICH with the user's own
 *           arguments
 *   BLOCKS  blocks of at least dl_tune_direct_block(message bytes) on
 *           average (DL_DIRECT_BLOCK, else measured at the nearest
 *           message size by dataloop-tune): MPICH moves
 *           them from where they lie, described by an hindexed type of
 *           bytes over the user's buffer, with no staging copy; the wire
 *           is the packed stream all the same, so any receiver matches
 *   PACK    packed into a staging buffer and sent as one message
 *   PIPE    pipeline mode (DL_PIPELINE=1), messages of a chunk or more:
 *           chunk streams (pipeline.c)
 *
 * DL_STRATEGY=pack or blocks forces a kind for every derived type whose
 * data is not dense (auto, the default, chooses); DL_TRACE=1 prints each
 * choice when it is made. The choice and the hindexed type are kept for
 * the 64 most recently used (type, count) pairs, each holding a reference
 * to its type; a plan an operation is being started with is not evicted
 * (after that, MPI keeps the hindexed type alive as long as the operation
 * needs it). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "preload.h"

#define PLANS 64
#define MAX_BLOCKS ((size_t)1 << 20)   /* forced BLOCKS with more: PACK */

typedef struct plan {
  dl_type *t;              /* NULL: free */
  MPI_Count count;
  int strategy;
  MPI_Datatype blocks;     /* BLOCKS */
  unsigned long used;
  int users;               /* operations being started with it */
  int forced;              /* dlp_cfg()->strategy when it was chosen */
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
   bytes relative to its buffer, if they lie in at most max blocks;
   MPI_DATATYPE_NULL otherwise */
static MPI_Datatype range_blocks(dl_segment *s, size_t first, size_t len, size_t max)
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
  }
  free(offs);
  free(lens);
  free(cd);
  free(cl);
  return b;
}

/* the blocks of (count, t), if there are at most max of them */
static MPI_Datatype blocks_type(const dlp_data *d, size_t max)
{
  dl_segment *s;
  if (dl_segment_create(NULL, d->count, d->t, &s) != DL_OK)
    return MPI_DATATYPE_NULL;
  MPI_Datatype b = range_blocks(s, 0, d->bytes, max);
  dl_segment_free(&s);
  return b;
}

/* the kind for d when nothing is cached: BLOCKS needs few enough blocks */
static int choose(const dlp_data *d, MPI_Datatype *blocks)
{
  const dlp_config *c = dlp_cfg();
  *blocks = MPI_DATATYPE_NULL;
  if (c->strategy == DLP_S_PACK)
    return DLP_S_PACK;
  size_t max = c->strategy == DLP_S_BLOCKS ? MAX_BLOCKS
                                           : d->bytes / dl_tune_direct_block(d->bytes);
  if (max > 0 && (*blocks = blocks_type(d, max < MAX_BLOCKS ? max : MAX_BLOCKS)) !=
                     MPI_DATATYPE_NULL)
    return DLP_S_BLOCKS;
  return DLP_S_PACK;
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
  lru->strategy = choose(d, &lru->blocks);
  DLP_TRACE("strategy: %s for %zu bytes (%lld of a type; blocks from %zu bytes)",
            dlp_strategy_name(lru->strategy), d->bytes, (long long)d->count,
            dl_tune_direct_block(d->bytes));
  return lru;
}

void dlp_plan(dlp_data *d, bool stream)
{
  d->strategy = DLP_S_DIRECT;
  d->blocks = MPI_DATATYPE_NULL;
  d->plan = NULL;
  if (dlp_straight(d))
    return;
  if (stream) {
    d->strategy = DLP_S_PIPE;
    return;
  }
  pthread_mutex_lock(&lock);
  plan *p = lookup(d);
  if (p) {
    p->used = ++clock_;
    p->users++;
    d->strategy = p->strategy;
    d->blocks = p->blocks;
    d->plan = p;
  } else {
    d->strategy = DLP_S_PACK;
  }
  pthread_mutex_unlock(&lock);
}

void dlp_plan_done(dlp_data *d)
{
  if (!d->plan)
    return;
  pthread_mutex_lock(&lock);
  ((plan *)d->plan)->users--;
  pthread_mutex_unlock(&lock);
  d->plan = NULL;
}

void dlp_plans_free(void)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < PLANS; i++)
    if (table[i].t)
      drop(&table[i]);
  pthread_mutex_unlock(&lock);
}
