/* The PMPI interposer (libdataloop-mpi-preload.so): a map of its parts,
 * and everything they offer each other, for the report (report.c), the
 * tests and the benchmarks that reach into every part. Nothing declared
 * here is exported; the library's only public symbols are the MPI_*
 * functions it intercepts, the PMPI_* ones it defines over MPICH's (the
 * calls that can see a request) and the dl_preload_* introspection calls.
 *
 * One folder per part, each with its header; a part calls only the parts
 * below it (test/cycles.sh checks files and folders), and a part that
 * must be called back joins a registry (dlp_at_finalize,
 * dlp_join_persistent). From the bottom:
 *
 *   base/       base.h: configuration, counts, errors, the user's data and
 *               staging memory, the routes' identities, byte messages,
 *               MPICH's own request calls, MPI_Finalize's steps;
 *               thresholds.h: the tuning routes are chosen by; host.h:
 *               the host MPI's deviations, one file per host and version
 *   route/      route.h: the operation model (an operation and its route,
 *               a table entry: start, finish, cancel), the point-to-point
 *               routes, the pipeline's streams behind dlp_streams
 *   request/    request.h: interposed requests, from start to free, and
 *               every call that can see one
 *   p2p/        p2p.h: point-to-point calls, plans, first uses,
 *               persistent and partitioned requests, probes
 *   pack/       MPI_Pack, MPI_Unpack, external32 (base.h only)
 *   rma/        rma.h, window.h: one-sided operations, windows, their
 *               routes, landings, fences' count exchanges, peers
 *   coll/       coll.h: collectives with derived datatypes, staged
 *   report.c    DL_STATS_FILE at MPI_Finalize and MPI_Abort
 *   fortran/    the Fortran entry points of the calls served, for a host
 *               whose Fortran bindings call the PMPI_ names (Open MPI's
 *               build only)
 */
#ifndef DLP_PRELOAD_H
#define DLP_PRELOAD_H

#include "base/base.h"
#include "base/host.h"
#include "base/thresholds.h"
#include "route/route.h"
#include "request/request.h"
#include "p2p/p2p.h"
#include "rma/rma.h"
#include "coll/coll.h"

/* exported (report.c): one-sided operations each route carried as origin,
   then (entry DLP_NROUTES) those of blocks from the user's memory, then
   puts and gets landed at the target, those copied into mapped memory,
   and fences whose counts went through shared memory (tally.c) */
int dl_preload_rma_routes(unsigned long long *out, int n);

#endif
