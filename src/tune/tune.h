/* The tuning layer: machine-aware thresholds for the layers above it.
 *
 *   topology.c  cache sizes and cores, from hwloc (or sysconf without it)
 *   tune.c      the thresholds: derived from the topology, then a tuning
 *               file written by dataloop-tune, then the environment; read
 *               once, under pthread_once, read-only afterwards
 *   ntcopy.c    copies with non-temporal stores, for the largest runs
 *
 * dl_tune_get (include/dataloop.h) is the public face of dli_tune.
 */
#ifndef DLI_TUNE_H
#define DLI_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include "dataloop.h"

#define DLI_HIDDEN __attribute__((visibility("hidden")))

typedef struct dli_topology {
  size_t l1d, l2, l3;      /* bytes, per core for L1d and L2; 0: unknown */
  int cores;
  bool from_hwloc;
} dli_topology;

DLI_HIDDEN void dli_topology_read(dli_topology *t);

/* the thresholds; never NULL */
DLI_HIDDEN const dl_tune *dli_tune(void);

/* n bytes from src to dst with non-temporal stores (dst need not be
   aligned); the caller decides when, by dli_tune()->nt_threshold */
DLI_HIDDEN void dli_nt_copy(void *dst, const void *src, size_t n);

#endif
