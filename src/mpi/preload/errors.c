/* Errors the interposer detects itself go where MPICH's would: through the
 * communicator's error handler, as an MPI error class. */
#include "preload.h"

int dlp_raise(MPI_Comm comm, int code)
{
  DLP_TRACE("error: class %d", dlp_class(code));
  PMPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
  return code;
}

int dlp_class_of(int dlrc)
{
  switch (dlrc) {
  case DL_OK: return MPI_SUCCESS;
  case DL_ERR_NOMEM: return MPI_ERR_NO_MEM;
  case DL_ERR_OVERFLOW: return MPI_ERR_COUNT;
  case DL_ERR_TRUNCATE: return MPI_ERR_TRUNCATE;
  case DL_ERR_ARG:
  case DL_ERR_UNSUPPORTED:
  case DL_ERR_CORRUPT:
  case DL_ERR_NOT_COMMITTED: return MPI_ERR_TYPE;
  default: return MPI_ERR_INTERN;
  }
}

int dlp_class(int code)
{
  int cls;
  return PMPI_Error_class(code, &cls) == MPI_SUCCESS ? cls : MPI_ERR_UNKNOWN;
}
