/* A type shipped to another process (one-sided targets): MPICH's fields,
 * then dataloop's serialized form (doc/serialization.md), which the target
 * validates and rebuilds. Replaces MPICH's typerep_flatten.c. */
#include <limits.h>
#include <string.h>
#include "typerep_internal.h"

typedef struct flat_hdr {
  MPI_Aint size, extent, ub, lb, true_ub, true_lb;
  MPI_Aint n_builtin_elements, builtin_element_size, num_contig_blocks;
  int is_contig, basic_type;
  MPI_Aint body;      /* bytes of the serialized type that follow */
} flat_hdr;

int MPIR_Typerep_flatten_size(MPIR_Datatype *dtp, int *flattened_type_size)
{
  size_t need = 0;
  int rc = dl_type_serialize(dtp->typerep.handle, NULL, 0, &need);
  if (rc && rc != DL_ERR_TRUNCATE)
    return dli_mpich_err(rc, __func__);
  if (need > INT_MAX - sizeof(flat_hdr))
    return dli_mpich_err(DL_ERR_OVERFLOW, __func__);
  *flattened_type_size = (int)(sizeof(flat_hdr) + need);
  return MPI_SUCCESS;
}

int MPIR_Typerep_flatten(MPIR_Datatype *dtp, void *flattened_type)
{
  flat_hdr h = {dtp->size, dtp->extent, dtp->ub, dtp->lb, dtp->true_ub, dtp->true_lb,
                dtp->n_builtin_elements, dtp->builtin_element_size,
                dtp->typerep.num_contig_blocks, dtp->is_contig, dtp->basic_type, 0};
  size_t need = 0;
  int rc = dl_type_serialize(dtp->typerep.handle, NULL, 0, &need);
  if (rc && rc != DL_ERR_TRUNCATE)
    return dli_mpich_err(rc, __func__);
  h.body = (MPI_Aint)need;
  memcpy(flattened_type, &h, sizeof h);
  rc = dl_type_serialize(dtp->typerep.handle, (char *)flattened_type + sizeof h, need,
                         &need);
  return dli_mpich_err(rc, __func__);
}

int MPIR_Typerep_unflatten(MPIR_Datatype *dtp, void *flattened_type)
{
  flat_hdr h;
  memcpy(&h, flattened_type, sizeof h);
  dl_type *t = NULL;
  int rc = h.body < 0 ? DL_ERR_CORRUPT
                      : dl_type_deserialize((char *)flattened_type + sizeof h,
                                            (size_t)h.body, &t);
  if (rc)
    return dli_mpich_err(rc, __func__);
  dtp->is_committed = 1;
  dtp->attributes = NULL;
  dtp->name[0] = 0;
  dtp->contents = NULL;
  dtp->flattened = NULL;
  dtp->size = h.size;
  dtp->extent = h.extent;
  dtp->ub = h.ub;
  dtp->lb = h.lb;
  dtp->true_ub = h.true_ub;
  dtp->true_lb = h.true_lb;
  dtp->n_builtin_elements = h.n_builtin_elements;
  dtp->builtin_element_size = h.builtin_element_size;
  dtp->is_contig = h.is_contig;
  dtp->basic_type = h.basic_type;
  dtp->typerep.num_contig_blocks = h.num_contig_blocks;
  dtp->typerep.handle = t;
  return MPI_SUCCESS;
}
