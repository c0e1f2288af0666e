/* The MPI bridge: what it offers the interposer. */
#ifndef DLI_BRIDGE_H
#define DLI_BRIDGE_H

#include "dataloop-mpi.h"

#define DLI_HIDDEN __attribute__((visibility("hidden")))

/* the dataloop type for a predefined MPI type, or NULL if it has none */
DLI_HIDDEN dl_type *dli_named_type(MPI_Datatype dt);
/* frees the named types built at first use (at MPI_Finalize) */
DLI_HIDDEN void dli_named_free(void);

#endif
