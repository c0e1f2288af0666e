/* The MPI bridge: what it offers the interposer. */
#ifndef DLI_BRIDGE_H
#define DLI_BRIDGE_H

#include <stdbool.h>
#include "dataloop-mpi.h"

#define DLI_HIDDEN __attribute__((visibility("hidden")))

#include "named.h"

/* dl_type_from_mpi, and what the bridge learnt of the type when it
   decoded it: in props, DLI_MPI_ENGINE_WRONG where MPICH 4.0.2's own
   engine places the data elsewhere than dataloop (a block of several
   copies of a type of negative extent; in a struct, a member that is a
   blocklength-0 vector, on which MPI_Pack dies), at any count; fanout,
   the largest count of one level of the type that MPICH's engine walks
   block by block to find a place in the type (vectors, the indexed
   family, structs, the outer dimensions of subarrays and darrays; not
   contiguous, resized or dup levels, which it divides): its sends take
   time with it (doc/tuning.md); unit, the size of every basic element
   when all are of one power-of-two size (0: mixed), so that each begins
   at a multiple of it in the packed stream and no fragment MPICH 4.0.2
   receives splits one (it fails such receives) */
enum { DLI_MPI_ENGINE_WRONG = 1 };
typedef struct dli_mpi_info {
  unsigned props;
  dl_count fanout;
  dl_count unit;
  MPI_Datatype basic;  /* the predefined type of every basic element
                          (MPI_DATATYPE_NULL: mixed), as accumulates need */
  bool fcomplex;       /* some basic element is MPI_COMPLEX or
                          MPI_DOUBLE_COMPLEX (or an f90 complex type),
                          which MPICH 4.0.2's external32 swaps whole */
} dli_mpi_info;
DLI_HIDDEN int dli_type_from_mpi_info(MPI_Datatype dt, dl_type **out,
                                      dli_mpi_info *info);
/* the decoded form of dt when dt is the derived type this thread last
   looked up and no decoded type was freed since (one compare: the
   per-call paths); NULL otherwise (ask dli_type_from_mpi_info) */
DLI_HIDDEN dl_type *dli_type_recent(MPI_Datatype dt);
/* the contiguous runs of one element of a type dli_type_from_mpi_info
   decoded (1 for a predefined one), counted once and kept: up to
   DLI_MPI_BLOCKS_CAP, past it estimated from the bytes those cover
   (dli_tr_runs_estimate); DLI_MPI_BLOCKS_CAP for a type not decoded */
#define DLI_MPI_BLOCKS_CAP ((dl_count)1 << 16)
DLI_HIDDEN dl_count dli_mpi_blocks(MPI_Datatype dt);
/* whether dt is one constructor over predefined types only (none of
   them of long doubles), so that MPICH 4.0.2's engine writes the bytes
   dataloop would (no DLI_MPI_ENGINE_WRONG), with *unit as
   dli_mpi_info's; nothing is decoded or kept */
DLI_HIDDEN bool dli_type_flat(MPI_Datatype dt, dl_count *unit);

#endif
