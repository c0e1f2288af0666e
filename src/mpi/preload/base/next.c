/* MPICH's own request calls, for the interposer's use. The interposer
 * defines both names of every call that can see a request (MPI_Wait and
 * PMPI_Wait, and the rest), so that a program, a tool or MPICH's Fortran
 * bindings reach the same code whichever name they call; the interposer
 * itself reaches MPICH's through these, the next definitions after its
 * own. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include "base.h"

static dlp_next_calls calls;
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void *next_symbol(const char *name)
{
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "dataloop: %s not found after the interposer\n", name);
    abort();
  }
  return f;
}

#define FIND(member, name) *(void **)&calls.member = next_symbol(name)

static void find(void)
{
  FIND(wait, "PMPI_Wait");
  FIND(test, "PMPI_Test");
  FIND(waitall, "PMPI_Waitall");
  FIND(testall, "PMPI_Testall");
  FIND(waitany, "PMPI_Waitany");
  FIND(testany, "PMPI_Testany");
  FIND(waitsome, "PMPI_Waitsome");
  FIND(testsome, "PMPI_Testsome");
  FIND(request_get_status, "PMPI_Request_get_status");
  FIND(cancel, "PMPI_Cancel");
  FIND(request_free, "PMPI_Request_free");
  FIND(start, "PMPI_Start");
  FIND(startall, "PMPI_Startall");
#if MPI_VERSION >= 4   /* partitioned communication */
  FIND(pready, "PMPI_Pready");
  FIND(pready_range, "PMPI_Pready_range");
  FIND(pready_list, "PMPI_Pready_list");
#endif
}

const dlp_next_calls *dlp_next(void)
{
  pthread_once(&found, find);
  return &calls;
}
