/* external32: MPI_Pack_external and its kin. MPICH checks the buffer's
 * room before the call (the interface passes none), so the whole stream
 * of (count, type) is moved. */
#include <limits.h>
#include "typerep_internal.h"

int MPIR_Typerep_size_external32(MPI_Datatype type)
{
  dl_type *t = dli_mpich_type(type);
  size_t size = 0;
  if (!t || dl_pack_external_size("external32", 1, t, &size) || size > INT_MAX)
    return 0;     /* the interface has no error: a type with no external form */
  return (int)size;
}

int MPIR_Typerep_pack_external(const void *inbuf, MPI_Aint incount, MPI_Datatype datatype,
                               void *outbuf, MPI_Aint *actual_pack_bytes)
{
  dl_type *t;
  size_t size = 0, pos = 0;
  int err = dli_mpich_lookup(datatype, __func__, &t);
  if (!err)
    err = dli_mpich_err(dl_pack_external_size("external32", incount, t, &size), __func__);
  if (!err)
    err = dli_mpich_err(dl_pack_external("external32", inbuf, incount, t, outbuf, size,
                                         &pos), __func__);
  *actual_pack_bytes = (MPI_Aint)pos;
  return err;
}

int MPIR_Typerep_unpack_external(const void *inbuf, void *outbuf, MPI_Aint outcount,
                                 MPI_Datatype datatype, MPI_Aint *actual_unpack_bytes)
{
  dl_type *t;
  size_t size = 0, pos = 0;
  int err = dli_mpich_lookup(datatype, __func__, &t);
  if (!err)
    err = dli_mpich_err(dl_pack_external_size("external32", outcount, t, &size), __func__);
  if (!err)
    err = dli_mpich_err(dl_unpack_external("external32", inbuf, size, &pos, outbuf,
                                           outcount, t), __func__);
  *actual_unpack_bytes = (MPI_Aint)pos;
  return err;
}
