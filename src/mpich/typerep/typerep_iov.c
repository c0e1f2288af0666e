/* iovec lists of a message's stream, for transports that move the user's
 * blocks where they lie. */
#include "typerep_internal.h"

int MPIR_Typerep_to_iov(const void *buf, MPI_Aint count, MPI_Datatype type,
                        MPI_Aint byte_offset, struct iovec *iov, MPI_Aint max_iov_len,
                        MPI_Aint max_iov_bytes, MPI_Aint *actual_iov_len,
                        MPI_Aint *actual_iov_bytes)
{
  dl_type *t;
  size_t n = 0, bytes = 0;
  int err = dli_mpich_lookup(type, __func__, &t);
  if (!err && (byte_offset < 0 || max_iov_len < 0 || max_iov_bytes < 0))
    err = dli_mpich_err(DL_ERR_ARG, __func__);
  if (!err)
    err = dli_mpich_err(dli_tr_iov(buf, count, t, (size_t)byte_offset,
                                   (size_t)max_iov_bytes, iov, (size_t)max_iov_len, &n,
                                   &bytes), __func__);
  *actual_iov_len = (MPI_Aint)n;
  *actual_iov_bytes = (MPI_Aint)bytes;
  return err;
}

int MPIR_Typerep_to_iov_offset(const void *buf, MPI_Aint count, MPI_Datatype type,
                               MPI_Aint iov_offset, struct iovec *iov, MPI_Aint max_iov_len,
                               MPI_Aint *actual_iov_len)
{
  dl_type *t;
  size_t n = 0;
  int err = dli_mpich_lookup(type, __func__, &t);
  if (!err && (iov_offset < 0 || max_iov_len < 0))
    err = dli_mpich_err(DL_ERR_ARG, __func__);
  if (!err)
    err = dli_mpich_err(dli_tr_iov_from(buf, count, t, (size_t)iov_offset, iov,
                                        (size_t)max_iov_len, &n), __func__);
  *actual_iov_len = (MPI_Aint)n;
  return err;
}

int MPIR_Typerep_iov_len(MPI_Aint count, MPI_Datatype type, MPI_Aint max_iov_bytes,
                         MPI_Aint *iov_len)
{
  dl_type *t;
  size_t n = 0;
  int err = dli_mpich_lookup(type, __func__, &t);
  if (!err && max_iov_bytes < 0)
    err = dli_mpich_err(DL_ERR_ARG, __func__);
  if (!err)
    err = dli_mpich_err(dli_tr_iov_len(count, t, (size_t)max_iov_bytes, &n), __func__);
  *iov_len = (MPI_Aint)n;
  return err;
}
