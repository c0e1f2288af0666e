/* The tuning layer: machine-aware thresholds for the layers above it.
 *
 *   topology.c  cache sizes and cores, from hwloc (or sysconf without it)
 *   tune.c      the thresholds: derived from the topology, then a tuning
 *               file written by dataloop-tune, then the environment; read
 *               once, under pthread_once, read-only afterwards
 *
 * dl_tune_get (include/dataloop.h) is the public face of dli_tune. The
 * calls that move data (dl_pack, dl_unpack, dl_typecopy: the actions'
 * entry points) read dli_copy_limits once and pass its sizes to the copy
 * kernels, which ask nobody.
 */
#ifndef DLI_TUNE_H
#define DLI_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
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

/* the sizes the copy kernels decide by, derived from the thresholds:
   nt, dense runs from which non-temporal stores win (0: never);
   interleave, whole moves from which an interleaving root is walked
   interleaved (half the L2); chunk, the staging chunk of a type-to-type
   copy (half the L2, within 32 KiB to 4 MiB). Never NULL */
typedef struct dli_copy_sizes {
  size_t nt, interleave, chunk;
} dli_copy_sizes;
DLI_HIDDEN const dli_copy_sizes *dli_copy_limits(void);

/* calls fn for each "name value" line of the tuning file (DL_TUNE_FILE,
   else $XDG_CONFIG_HOME or ~/.config, /dataloop/tune.conf), comments and
   blank lines left out; false when there is no file. The layers above
   read their own keys from it (the interposer: pipeline_chunk,
   direct_block, route@<message bytes>) */
DLI_HIDDEN bool dli_tune_file_each(void (*fn)(void *ctx, const char *name,
                                              const char *value),
                                   void *ctx);
/* the same for the lines of text (a tuning file's contents) */
DLI_HIDDEN void dli_tune_lines_each(const char *text,
                                    void (*fn)(void *ctx, const char *name,
                                               const char *value),
                                    void *ctx);
/* the tuning file's path: DL_TUNE_FILE, else $XDG_CONFIG_HOME (or
   ~/.config)/dataloop/tune.conf; false when there is none to look for */
DLI_HIDDEN bool dli_tune_file_path(char *out, size_t n);
/* a byte count as the tuning file writes it (4K, 1M, 12345) */
DLI_HIDDEN void dli_tune_print_bytes(FILE *f, size_t v);

#endif
