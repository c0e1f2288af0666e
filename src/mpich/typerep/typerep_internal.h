/* What the backend's files share: the dataloop type of any MPI handle, the
 * MPICH fields of a new type, and dataloop's codes as MPI errors. */
#ifndef TYPEREP_INTERNAL_H_INCLUDED
#define TYPEREP_INTERNAL_H_INCLUDED

#include "mpiimpl.h"
#include "typerep_pre.h"
#include "tr.h"
#include "named.h"
#include "errclass.h"

/* the dataloop type of a predefined or derived handle (a shared empty type
   for MPICH's count-0 types, which have no engine handle); NULL if it has
   none (MPI_LB, MPI_UB, a handle MPICH does not know) */
DLI_HIDDEN dl_type *dli_mpich_type(MPI_Datatype dt);
/* frees the empty type that stands for MPICH's count-0 types (at finalize) */
DLI_HIDDEN void dli_mpich_empty_free(void);
/* the same, or an MPI error code saying which handle has none */
DLI_HIDDEN int dli_mpich_lookup(MPI_Datatype dt, const char *fn, dl_type **out);
/* a dataloop status as an MPI error code (MPI_SUCCESS for DL_OK), its
   message naming the call and dataloop's reason */
DLI_HIDDEN int dli_mpich_err(int rc, const char *fn);
/* commits t, makes it newtype's engine type and sets the fields MPICH
   keeps from it (bounds, size, contiguity, runs); frees t on error */
DLI_HIDDEN int dli_mpich_adopt(MPIR_Datatype *newtype, dl_type *t, const char *fn);
/* n_builtin_elements, builtin_element_size and basic_type of copies of old */
DLI_HIDDEN void dli_mpich_elements(MPIR_Datatype *newtype, MPI_Datatype old,
                                   MPI_Aint copies);

#endif /* TYPEREP_INTERNAL_H_INCLUDED */
