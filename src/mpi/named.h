/* Predefined MPI datatypes as dataloop types: needs only mpi.h and
 * dataloop.h, so that MPICH's typerep backend (src/mpich) shares it. */
#ifndef DLI_NAMED_H
#define DLI_NAMED_H

#include <mpi.h>
#include "dataloop.h"

#ifndef DLI_HIDDEN
#define DLI_HIDDEN __attribute__((visibility("hidden")))
#endif

/* the dataloop type for a predefined MPI type, or NULL if it has none */
DLI_HIDDEN dl_type *dli_named_type(MPI_Datatype dt);
/* frees the named types built at first use (at MPI_Finalize) */
DLI_HIDDEN void dli_named_free(void);

#endif
