/* dataloop's bridge from MPI datatypes (library libdataloop-mpi). */
#ifndef DATALOOP_MPI_H
#define DATALOOP_MPI_H

#include <mpi.h>
#include "dataloop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* builds (or returns the cached) dataloop type for any committed
   MPI_Datatype, predefined or derived, by MPI_Type_get_envelope/contents */
/* Needs MPI initialized (the cache is an attribute of dt). On error *out
   = NULL. DL_ERR_ARG: NULL out, MPI_DATATYPE_NULL, an MPI call on dt
   failing; DL_ERR_UNSUPPORTED: a combiner it does not know; DL_ERR_NOMEM;
   and the constructors' errors (DL_ERR_OVERFLOW...). */
int dl_type_from_mpi(MPI_Datatype dt, dl_type **out);

/* The returned type is committed and belongs to dt: it stays valid until
   dt is freed (or, for a predefined type, until MPI_Finalize); do not free
   it (dl_type_retain keeps it past dt). MPI_Type_dup shares it with the
   duplicate.

   Bounds are the MPI library's: every decoded level has the lb and extent
   that MPI_Type_get_extent reports for it (MPICH 4.0.2 departs from the
   standard in several rules, doc/mpi.md), so copies lie where the program,
   and MPICH's own engine, put them. Data within a level stays where the
   standard puts it, also where MPICH's MPI_Pack reads elsewhere or fails.
   dl_type_true_extent stays the bytes the type touches. */

#ifdef __cplusplus
}
#endif
#endif
