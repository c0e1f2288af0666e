/* A derived MPI datatype's constructor and arguments (MPI_Type_get_envelope
 * and MPI_Type_get_contents, calls.h), as the bridge reads them: needs only
 * mpi.h, so that the decoder (from_mpi.c) and the structure cache
 * (shape.c) share one reading. */
#ifndef DLI_CONTENTS_H
#define DLI_CONTENTS_H

#include "calls.h"
#include <stdint.h>

#ifndef DLI_HIDDEN
#define DLI_HIDDEN __attribute__((visibility("hidden")))
#endif

/* v[] holds the integer arguments in MPI-4's large-count order whichever
   form built the type */
typedef struct dli_contents {
  int comb;
  MPI_Count ni, na, nc, nd;
  int *ints;
  MPI_Aint *aints;
  MPI_Count *counts;
  MPI_Datatype *types;       /* references: dli_contents_free releases them */
  int64_t *v;
  /* the arrays above, in one block: this one when they fit (a type of
     a few arguments is read with no allocation), else allocated */
  void *block;
  int64_t small[40];
} dli_contents;

/* dt's constructor and arguments: DL_OK (0); DL_ERR_ARG (not a datatype),
   DL_ERR_NOMEM; c is then to be freed all the same. A predefined type has
   comb MPI_COMBINER_NAMED and nothing else */
DLI_HIDDEN int dli_contents_get(MPI_Datatype dt, dli_contents *c);
DLI_HIDDEN void dli_contents_free(dli_contents *c);
/* one type MPI_Type_get_contents returned: freed unless predefined */
DLI_HIDDEN void dli_contents_release(MPI_Datatype *dt);

#endif
