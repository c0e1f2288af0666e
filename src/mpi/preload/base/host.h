/* Host MPIs' deviations that the interposer works around, each named
 * here. A host's own file (host_mpich_4_0_2.c, host_openmpi_4_1.c: one
 * per host and version) says which it has and what each is; the code
 * that works around one
 * asks dlp_host_has() where the work can be left out, and names it in a
 * comment where it cannot. A host without a file is taken to have every
 * deviation: each workaround is correct on a correct MPI, only slower. */
#ifndef DLP_HOST_H
#define DLP_HOST_H

#include <stdbool.h>

typedef enum dlp_deviation {
  DLP_DEV_ADDED_CODE_STRING,       /* errors.c */
  DLP_DEV_PROC_NULL_STATUS,        /* p2p.c */
  DLP_DEV_COMPLETION_RAISES_ON_WORLD, /* complete.c, pipeline.c */
  DLP_DEV_GREQUEST_FREED_EARLY,    /* requests.c */
  DLP_DEV_ENGINE_STRADDLE,         /* plan.c, defer.c, the bridge's engine check */
  DLP_DEV_RMA_DERIVED_EARLY,       /* rma.c, rma_request.c */
  DLP_DEV_RMA_NO_RANGE_CHECK,      /* rma.c */
  DLP_DEV_SHARED_WINDOW_SLOW_COPY, /* rma.c */
  DLP_DEV_COMPLETE_EARLY_GET,      /* rma_routes.c */
  DLP_DEV_GET_ACC_UNALIGNED,       /* rma_routes.c */
  DLP_DEV_FLUSH_ALL_EARLY_GET,     /* window.c */
  DLP_DEV_FLUSH_LOCAL_EARLY_GET,   /* window.c */
  DLP_DEV_ALLOCATE_UNLIKE_SHARED,  /* window.c */
  DLP_DEV_COLL_IN_PLACE_STAGED,    /* coll_alltoall.c, coll_gathers.c, coll_rooted.c */
  DLP_DEV_COLL_PERSIST_DERIVED,    /* coll.c */
  DLP_DEV_COLL_PERSIST_READ_AT_INIT, /* coll.c */
  DLP_DEV_ALLGATHERV_ONE_RANK,     /* coll_gathers.c */
  DLP_DEV_SHORT_BUFFER_SUCCEEDS,   /* pack.c, external.c */
  DLP_DEV_EXTERNAL_COMPLEX_SWAPPED, /* external.c */
  DLP_DEV_TRUNCATE_OVERRUNS,       /* data.c (staging receives) */
  DLP_DEV_N
} dlp_deviation;

/* one host MPI version: how its library version string begins, what it
   deviates in (why[d] says how; NULL: it does not), and what its calls
   cost where no tuning file says: tuning file lines (doc/tuning.md) read
   before the file's, NULL for none */
typedef struct dlp_host {
  const char *name;
  const char *version_prefix;
  const char *why[DLP_DEV_N];
  const char *tuning;
} dlp_host;

/* the hosts with a file of their own */
extern const dlp_host dlp_host_mpich_4_0_2;
extern const dlp_host dlp_host_openmpi_4_1;

/* whether the MPI the interposer runs on has deviation d */
bool dlp_host_has(dlp_deviation d);
/* the host's name, or NULL when it has no file (every deviation assumed) */
const char *dlp_host_name(void);
/* the host's tuning lines, or NULL */
const char *dlp_host_tuning(void);

#endif
