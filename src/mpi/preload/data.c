/* A user buffer as the interposer sees it, and the staging buffers that
 * carry derived-type data as the native packed stream. */
#include <stdlib.h>
#include "preload.h"

int dlp_data_get(const void *buf, MPI_Count count, MPI_Datatype dt, dlp_data *d)
{
  *d = (dlp_data){.buf = (void *)buf, .count = count, .dt = dt};
  if (dt == MPI_DATATYPE_NULL || count < 0)
    return DLP_PASS;
  d->t = dli_named_type(dt);
  d->named = d->t != NULL;
  if (!d->named) {
    int rc = dl_type_from_mpi(dt, &d->t);
    if (rc == DL_ERR_ARG)        /* not a datatype MPI knows */
      return DLP_PASS;
    if (rc)
      return dlp_class_of(rc);
  }
  int dense;
  dl_aint off;
  int rc = dl_pack_size(count, d->t, &d->bytes);
  if (!rc)
    rc = dl_type_dense(count, d->t, &dense, &off);
  if (rc)
    return dlp_class_of(rc);
  d->dense = dense;
  /* integer arithmetic: buf may be MPI_BOTTOM and off an absolute address */
  d->base = (char *)((uintptr_t)buf + (uintptr_t)off);
  return MPI_SUCCESS;
}

int dlp_stage_out(const dlp_data *d, void **stage)
{
  *stage = malloc(d->bytes ? d->bytes : 1);
  if (!*stage)
    return MPI_ERR_NO_MEM;
  size_t pos = 0;
  int rc = dl_pack(d->buf, d->count, d->t, *stage, d->bytes, &pos);
  if (rc) {
    free(*stage);
    *stage = NULL;
    return dlp_class_of(rc);
  }
  return MPI_SUCCESS;
}

void dlp_stage_in(const dlp_data *d, const void *stage, size_t n)
{
  size_t pos = 0;
  /* fewer bytes than the type holds is a normal short receive: the
     truncation code only says that, and what arrived is unpacked */
  dl_unpack(stage, n < d->bytes ? n : d->bytes, &pos, d->buf, d->count, d->t);
}

size_t dlp_status_bytes(const MPI_Status *st)
{
  MPI_Count n = 0;
  if (PMPI_Get_count_c(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
    return 0;
  return (size_t)n;
}
