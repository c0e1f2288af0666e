/* The MPI calls the bridge reads a datatype with, at the level of the
 * host's mpi.h: MPI-4's large-count forms where it has them (MPICH 4),
 * MPI-3.1's int and _x forms otherwise (Open MPI 4.1). Either way the
 * bridge sees counts as MPI_Count and a type's integer arguments in ints
 * (an MPI-3.1 host reports no large-count arguments: nc is 0). Also the
 * MPI-1 combiners MPI-3.0 removed: Open MPI's mpi.h leaves their names out
 * or refuses them at compile time, and its types never carry them. */
#ifndef DLI_CALLS_H
#define DLI_CALLS_H

#include <mpi.h>

#if MPI_VERSION >= 4

static inline int dli_mpi_envelope(MPI_Datatype dt, MPI_Count *ni, MPI_Count *na,
                                   MPI_Count *nc, MPI_Count *nd, int *comb)
{
  return PMPI_Type_get_envelope_c(dt, ni, na, nc, nd, comb);
}

static inline int dli_mpi_contents(MPI_Datatype dt, MPI_Count ni, MPI_Count na, MPI_Count nc,
                                   MPI_Count nd, int *ints, MPI_Aint *aints,
                                   MPI_Count *counts, MPI_Datatype *types)
{
  return PMPI_Type_get_contents_c(dt, ni, na, nc, nd, ints, aints, counts, types);
}

static inline int dli_mpi_size(MPI_Datatype dt, MPI_Count *size)
{
  return PMPI_Type_size_c(dt, size);
}

static inline int dli_mpi_extent(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
  return PMPI_Type_get_extent_c(dt, lb, extent);
}

#else

static inline int dli_mpi_envelope(MPI_Datatype dt, MPI_Count *ni, MPI_Count *na,
                                   MPI_Count *nc, MPI_Count *nd, int *comb)
{
  int i, a, d;
  int rc = PMPI_Type_get_envelope(dt, &i, &a, &d, comb);
  *ni = i;
  *na = a;
  *nc = 0;
  *nd = d;
  return rc;
}

static inline int dli_mpi_contents(MPI_Datatype dt, MPI_Count ni, MPI_Count na, MPI_Count nc,
                                   MPI_Count nd, int *ints, MPI_Aint *aints,
                                   MPI_Count *counts, MPI_Datatype *types)
{
  (void)nc;
  (void)counts;
  return PMPI_Type_get_contents(dt, (int)ni, (int)na, (int)nd, ints, aints, types);
}

static inline int dli_mpi_size(MPI_Datatype dt, MPI_Count *size)
{
  return PMPI_Type_size_x(dt, size);
}

static inline int dli_mpi_extent(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
  return PMPI_Type_get_extent_x(dt, lb, extent);
}

#endif

#if defined(OMPI_MAJOR_VERSION) && !OMPI_ENABLE_MPI1_COMPAT
/* values no combiner has, so that a switch may name them all the same
   (Open MPI's header either leaves the names out or makes them fail the
   build, by compiler) */
#define DLI_COMBINER_HVECTOR_INTEGER (-101)
#define DLI_COMBINER_HINDEXED_INTEGER (-102)
#define DLI_COMBINER_STRUCT_INTEGER (-103)
#else
#define DLI_COMBINER_HVECTOR_INTEGER MPI_COMBINER_HVECTOR_INTEGER
#define DLI_COMBINER_HINDEXED_INTEGER MPI_COMBINER_HINDEXED_INTEGER
#define DLI_COMBINER_STRUCT_INTEGER MPI_COMBINER_STRUCT_INTEGER
#endif

#endif
