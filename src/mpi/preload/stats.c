/* What the interposer handled: counts of its own packs, unpacks and
 * derived-type messages, for tests (dl_preload_counts) and for runs of
 * unmodified programs (DL_STATS_FILE: a line per rank at MPI_Finalize or
 * MPI_Abort, which are intercepted for that alone). */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "preload.h"

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
static _Atomic unsigned long long rma_carried[DLP_RMA_NCOUNTS];

void dlp_rma_count(int slot)
{
  atomic_fetch_add_explicit(&rma_carried[slot], 1, memory_order_relaxed);
}

/* exported: one-sided operations (as origin) each route carried, then
   fences that exchanged their counts through shared memory */
__attribute__((visibility("default"))) int dl_preload_rma_routes(unsigned long long *out,
                                                                 int n)
{
  for (int r = 0; r < DLP_RMA_NCOUNTS && r < n; r++)
    out[r] = rma_carried[r];
  if (n > DLP_RMA_NCOUNTS)
    out[DLP_RMA_NCOUNTS] = dlp_tally_shared();
  return DLP_RMA_NCOUNTS + 1;
}

/* one write with O_APPEND, so ranks sharing the file never mix lines */
void dlp_stats_write(void)
{
  const char *path = getenv("DL_STATS_FILE");
  if (!path || !*path)
    return;
  unsigned long long c[DLP_N_COUNTS];
  dl_preload_counts(c, DLP_N_COUNTS);
  unsigned long long r[2 * DLP_NROUTES], o[DLP_NROUTES + 4] = {0}, rma = 0;
  dl_preload_routes(r, 2 * DLP_NROUTES);
  /* one-sided operations the interposer handled: those of each origin
     route, landed and mapped (entry DLP_NROUTES counts some of them again,
     the last one fences) */
  int no = dl_preload_rma_routes(o, DLP_NROUTES + 4);
  for (int i = 0; i < no - 1 && i < DLP_NROUTES + 3; i++)
    rma += i == DLP_NROUTES ? 0 : o[i];
  char line[512];
  int n = snprintf(line, sizeof(line),
                   "dataloop-preload pid=%d pack=%llu unpack=%llu send=%llu recv=%llu "
                   "long=%llu rma=%llu coll=%llu deferred=%llu",
                   (int)getpid(), c[DLP_N_PACK], c[DLP_N_UNPACK], c[DLP_N_SEND],
                   c[DLP_N_RECV], c[DLP_N_LONG], rma, c[DLP_N_COLL],
                   c[DLP_N_DEFERRED]);
  for (int i = 0; i < DLP_NROUTES; i++)   /* messages sent by each route */
    n += snprintf(line + n, sizeof(line) - (size_t)n, " via_%s=%llu",
                  dlp_route_name(i), r[2 * i]);
  n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (write(fd, line, (size_t)n) != n)
    dlp_trace("DL_STATS_FILE %s: short write", path);
  close(fd);
}

int MPI_Finalize(void)
{
  dlp_stats_write();
  return PMPI_Finalize();
}

/* ranks that end in MPI_Abort (BLACS's tester does) never finalize */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
  dlp_stats_write();
  return PMPI_Abort(comm, errorcode);
}
