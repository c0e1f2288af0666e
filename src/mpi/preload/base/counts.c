/* What the interposer handled: counts of its own packs, unpacks and
 * derived-type messages, and of one-sided operations by route, for tests
 * (dl_preload_counts) and for runs of unmodified programs (report.c). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "base.h"

/* Counted per thread, so a call writes no line that other threads write
   (a shared atomic add was a tenth of a small MPI_Pack's time): each
   thread's block joins a list at its first count and leaves it at the
   thread's exit, its counts kept in `gone`; readers sum under the lock. */
typedef struct block {
  _Atomic unsigned long long c[DLP_N_COUNTS];
  struct block *prev, *next;
} block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static block *live;
static unsigned long long gone[DLP_N_COUNTS];
static _Atomic unsigned long long lost[DLP_N_COUNTS];   /* no block to count in */
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
/* initial-exec: no __tls_get_addr call (the interposer is loaded with
   the program) */
static _Thread_local __attribute__((tls_model("initial-exec"))) block *mine;

static void leave(void *p)
{
  block *b = p;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < DLP_N_COUNTS; i++)
    gone[i] += atomic_load_explicit(&b->c[i], memory_order_relaxed);
  if (b->prev)
    b->prev->next = b->next;
  else
    live = b->next;
  if (b->next)
    b->next->prev = b->prev;
  pthread_mutex_unlock(&lock);
  free(b);
}

static void make_key(void)
{
  if (pthread_key_create(&key, leave))
    key = (pthread_key_t)-1;
}

static block *join(void)
{
  pthread_once(&key_once, make_key);
  block *b = calloc(1, sizeof(*b));
  if (!b || key == (pthread_key_t)-1 || pthread_setspecific(key, b)) {
    free(b);
    return NULL;
  }
  pthread_mutex_lock(&lock);
  b->next = live;
  if (live)
    live->prev = b;
  live = b;
  pthread_mutex_unlock(&lock);
  return mine = b;
}

void dlp_count(int what)
{
  block *b = mine ? mine : join();
  if (!b) {
    atomic_fetch_add_explicit(&lost[what], 1, memory_order_relaxed);
    return;
  }
  /* this thread alone writes it: a load and a store, no locked add */
  unsigned long long v = atomic_load_explicit(&b->c[what], memory_order_relaxed);
  atomic_store_explicit(&b->c[what], v + 1, memory_order_relaxed);
}

__attribute__((visibility("default"))) int dl_preload_counts(unsigned long long *out,
                                                              int n)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < n && i < DLP_N_COUNTS; i++) {
    out[i] = gone[i] + atomic_load_explicit(&lost[i], memory_order_relaxed);
    for (block *b = live; b; b = b->next)
      out[i] += atomic_load_explicit(&b->c[i], memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  return DLP_N_COUNTS;
}

/* one-sided operations as origin: per route (the point-to-point route of
   its name), then those of blocks that went from the user's memory, then
   puts and gets landed (counted under pack too), then those copied into
   mapped memory (rma.h's slots) */
static _Atomic unsigned long long rma_carried[DLP_RMA_NCOUNTS + 1];

void dlp_rma_count(int slot)
{
  atomic_fetch_add_explicit(&rma_carried[slot], 1, memory_order_relaxed);
}

int dlp_rma_counted(unsigned long long *out, int n)
{
  for (int r = 0; r <= DLP_RMA_NCOUNTS && r < n; r++)
    out[r] = atomic_load_explicit(&rma_carried[r], memory_order_relaxed);
  return DLP_RMA_NCOUNTS;
}
