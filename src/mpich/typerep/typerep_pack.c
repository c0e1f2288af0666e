/* Packing and unpacking byte ranges of a message's stream: MPICH's
 * transports ask for each chunk by offset; chunks that continue one
 * another reuse the calling thread's segment (src/mpich/tr_stream.c). */
#include <string.h>
#include "typerep_internal.h"

int MPIR_Typerep_copy(void *outbuf, const void *inbuf, MPI_Aint num_bytes)
{
  if (num_bytes > 0)
    memcpy(outbuf, inbuf, (size_t)num_bytes);
  return MPI_SUCCESS;
}

int MPIR_Typerep_icopy(void *outbuf, const void *inbuf, MPI_Aint num_bytes,
                       MPIR_Typerep_req *req)
{
  *req = MPIR_TYPEREP_REQ_NULL;
  return MPIR_Typerep_copy(outbuf, inbuf, num_bytes);
}

int MPIR_Typerep_pack(const void *inbuf, MPI_Aint incount, MPI_Datatype datatype,
                      MPI_Aint inoffset, void *outbuf, MPI_Aint max_pack_bytes,
                      MPI_Aint *actual_pack_bytes)
{
  dl_type *t;
  size_t done = 0;
  int err = dli_mpich_lookup(datatype, __func__, &t);
  if (!err && (inoffset < 0 || max_pack_bytes < 0))
    err = dli_mpich_err(DL_ERR_ARG, __func__);
  if (!err)
    err = dli_mpich_err(dli_tr_pack(inbuf, incount, t, (size_t)inoffset, outbuf,
                                    (size_t)max_pack_bytes, &done), __func__);
  *actual_pack_bytes = (MPI_Aint)done;
  return err;
}

int MPIR_Typerep_unpack(const void *inbuf, MPI_Aint insize, void *outbuf,
                        MPI_Aint outcount, MPI_Datatype datatype, MPI_Aint outoffset,
                        MPI_Aint *actual_unpack_bytes)
{
  dl_type *t;
  size_t done = 0;
  int err = dli_mpich_lookup(datatype, __func__, &t);
  if (!err && (outoffset < 0 || insize < 0))
    err = dli_mpich_err(DL_ERR_ARG, __func__);
  if (!err)
    err = dli_mpich_err(dli_tr_unpack(inbuf, (size_t)insize, outbuf, outcount, t,
                                      (size_t)outoffset, &done), __func__);
  *actual_unpack_bytes = (MPI_Aint)done;
  return err;
}

int MPIR_Typerep_ipack(const void *inbuf, MPI_Aint incount, MPI_Datatype datatype,
                       MPI_Aint inoffset, void *outbuf, MPI_Aint max_pack_bytes,
                       MPI_Aint *actual_pack_bytes, MPIR_Typerep_req *req)
{
  *req = MPIR_TYPEREP_REQ_NULL;
  return MPIR_Typerep_pack(inbuf, incount, datatype, inoffset, outbuf, max_pack_bytes,
                           actual_pack_bytes);
}

int MPIR_Typerep_iunpack(const void *inbuf, MPI_Aint insize, void *outbuf,
                         MPI_Aint outcount, MPI_Datatype datatype, MPI_Aint outoffset,
                         MPI_Aint *actual_unpack_bytes, MPIR_Typerep_req *req)
{
  *req = MPIR_TYPEREP_REQ_NULL;
  return MPIR_Typerep_unpack(inbuf, insize, outbuf, outcount, datatype, outoffset,
                             actual_unpack_bytes);
}

int MPIR_Typerep_wait(MPIR_Typerep_req req)
{
  (void)req;
  return MPI_SUCCESS;
}
