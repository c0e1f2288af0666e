/* What MPI_Finalize leaves the interposer to do, in a fixed order: each
 * part joins with its step (dlp_at_finalize), and the first to join
 * registers one delete callback on MPI_COMM_SELF's attributes, which MPI
 * runs first thing in MPI_Finalize. No part calls another's finalizer. */
#include <pthread.h>
#include "base.h"

static void (*steps[DLP_FIN_N])(void);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int at_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
  (void)comm; (void)val; (void)extra;
  for (int i = 0; i < DLP_FIN_N; i++) {
    pthread_mutex_lock(&lock);
    void (*step)(void) = steps[i];
    pthread_mutex_unlock(&lock);
    if (step)
      step();
  }
  PMPI_Comm_free_keyval(&key);
  return MPI_SUCCESS;
}

static void make_hook(void)
{
  int key;
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &key, NULL) ==
      MPI_SUCCESS)
    PMPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}

void dlp_at_finalize(int step, void (*fn)(void))
{
  pthread_once(&once, make_hook);
  pthread_mutex_lock(&lock);
  steps[step] = fn;
  pthread_mutex_unlock(&lock);
}
