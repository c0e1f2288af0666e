/* The MPI error class of each dataloop error code: the one table both MPI
 * front ends use (the interposer's errors.c and MPICH's typerep backend,
 * src/mpich/typerep/typerep_util.c), so that a program meets the same class
 * for the same failure whichever of them serves it. Header-only, since the
 * backend is compiled inside MPICH's tree against MPICH's own mpi.h. */
#ifndef DLI_ERRCLASS_H
#define DLI_ERRCLASS_H
#include <mpi.h>
#include "dataloop.h"

static inline int dli_mpi_class_of(int dlrc)
{
  switch (dlrc) {
  case DL_OK: return MPI_SUCCESS;
  case DL_ERR_ARG: return MPI_ERR_ARG;
  case DL_ERR_NOMEM: return MPI_ERR_NO_MEM;
  case DL_ERR_OVERFLOW: return MPI_ERR_COUNT;     /* a count times a size */
  case DL_ERR_TRUNCATE: return MPI_ERR_TRUNCATE;
  case DL_ERR_NOT_COMMITTED:
  case DL_ERR_UNSUPPORTED:
  case DL_ERR_CORRUPT: return MPI_ERR_TYPE;       /* the type cannot be used */
  case DL_ERR_BOUNDS: return MPI_ERR_BUFFER;      /* outside the buffer given */
  case DL_ERR_IO: return MPI_ERR_IO;
  default: return MPI_ERR_INTERN;
  }
}
#endif
