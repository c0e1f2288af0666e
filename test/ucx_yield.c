/* Test runs only: a rank whose UCX progress calls keep finding nothing to
 * do gives its core away.
 *
 * Debian's MPICH (ch4:ucx) waits by calling ucp_worker_progress in a loop
 * and never yields, whatever its settings. With more ranks than cores, as
 * in most 3- and 4-rank tests on a 2-core machine, a waiting rank then
 * spins through whole time slices that the rank it waits for needs, and
 * runs take many times as long (doc/reliability.md). libmpich calls
 * ucp_worker_progress through its PLT, so a definition that comes first
 * in the lookup order (linked into the test program, or preloaded) takes
 * its place; it calls UCX's and yields after a run of empty calls. Only
 * the scheduling changes: every MPI call still does what MPICH does. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* empty progress calls in a row before a yield: enough that a rank
 * waiting for a message already on its way does not give up its core */
#define IDLE_CALLS_BEFORE_YIELD 32

typedef unsigned (*progress_fn)(void *worker);

static progress_fn ucx_progress;
static pthread_once_t ucx_progress_once = PTHREAD_ONCE_INIT;
static _Thread_local unsigned idle_calls;

static void find_ucx_progress(void)
{
    void *sym = dlsym(RTLD_NEXT, "ucp_worker_progress");
    if (!sym) {
        fprintf(stderr, "ucx_yield: no ucp_worker_progress after this "
                        "object: %s\n", dlerror());
        abort();
    }
    memcpy(&ucx_progress, &sym, sizeof sym);
}

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    pthread_once(&ucx_progress_once, find_ucx_progress);
    unsigned events = ucx_progress(worker);
    if (events)
        idle_calls = 0;
    else if (++idle_calls >= IDLE_CALLS_BEFORE_YIELD) {
        idle_calls = 0;
        sched_yield();
    }
    return events;
}
