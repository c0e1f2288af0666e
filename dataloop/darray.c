/* MPI_Type_create_darray as the MPI standard defines it: one dimension at a
 * time from the fastest, each the cyclic(darg) selection of this process's
 * blocks of the previous dimension's type, placed in a dimension of
 * gsizes[d] elements (lb 0, extent the whole dimension). BLOCK is cyclic
 * with one block per process; NONE keeps the whole dimension. Processes are
 * numbered row-major over the grid, whatever the array order. */
#include <stdlib.h>
#include "build.h"

static int check(int size, int rank, int ndims, const dl_count *gsizes,
                 const int *distribs, const int *dargs, const int *psizes,
                 int order)
{
  if (size <= 0 || rank < 0 || rank >= size || ndims <= 0 || !gsizes ||
      !distribs || !dargs || !psizes ||
      (order != DL_ORDER_C && order != DL_ORDER_FORTRAN))
    return DL_ERR_ARG;
  dl_count procs = 1;
  for (int d = 0; d < ndims; d++) {
    if (gsizes[d] <= 0 || psizes[d] <= 0 ||
        (dargs[d] != DL_DISTRIBUTE_DFLT_DARG && dargs[d] <= 0))
      return DL_ERR_ARG;
    if (__builtin_mul_overflow(procs, psizes[d], &procs))
      return DL_ERR_OVERFLOW;
    switch (distribs[d]) {
    case DL_DISTRIBUTE_NONE:
      if (psizes[d] != 1)
        return DL_ERR_ARG;
      break;
    case DL_DISTRIBUTE_BLOCK:
      if (dargs[d] != DL_DISTRIBUTE_DFLT_DARG &&
          (dl_count)dargs[d] * psizes[d] < gsizes[d])
        return DL_ERR_ARG;
      break;
    case DL_DISTRIBUTE_CYCLIC:
      break;
    default:
      return DL_ERR_ARG;
    }
  }
  return procs == size ? DL_OK : DL_ERR_ARG;
}

/* this process's blocks of b elements, dealt round-robin to p processes:
   a vector of whole blocks and a shorter last block, from element
   coord * b of the dimension */
static int cyclic(dl_type *t, dl_count gsize, dl_count b, int p, int coord,
                  dl_type **out)
{
  dl_count start = (dl_count)coord * b, local = 0, cycle;
  /* a cycle past 64 bits is longer than any dimension: one block at most */
  bool one = __builtin_mul_overflow(b, (dl_count)p, &cycle);
  if (one)
    cycle = 0;
  if (start < gsize) {
    dl_count span = gsize - start;
    local = one ? (span < b ? span : b)
                : span / cycle * b + (span % cycle < b ? span % cycle : b);
  }
  dl_count full = local / b, rem = local % b;
  dl_type *vec, *tail;
  int rc = dl_type_vector(full, b, cycle, t, &vec);
  if (rc || rem == 0) {
    *out = vec;
    return rc;
  }
  rc = dl_type_contiguous(rem, t, &tail);
  if (!rc) {
    dl_aint ext = t->b.ub - t->b.lb, disp = 0;
    dl_count at;                  /* element where the short block starts */
    if (__builtin_mul_overflow(full, cycle, &at) ||
        __builtin_mul_overflow(at, ext, &disp))
      rc = DL_ERR_OVERFLOW;
    dl_type *parts[2] = {vec, tail};
    dl_count bl[2] = {1, 1};
    dl_aint disps[2] = {0, disp};
    if (!rc)
      rc = dl_type_struct(2, bl, disps, parts, out);
    dl_type_free(&tail);
  }
  dl_type_free(&vec);
  return rc;
}

static int one_dim(dl_type *t, dl_count gsize, int distrib, int darg, int p,
                   int coord, dl_type **out)
{
  dl_count b;
  if (distrib == DL_DISTRIBUTE_NONE) {
    b = gsize;
    p = 1;
    coord = 0;
  } else if (distrib == DL_DISTRIBUTE_BLOCK) {
    b = darg == DL_DISTRIBUTE_DFLT_DARG ? gsize / p + (gsize % p != 0) : darg;
  } else {
    b = darg == DL_DISTRIBUTE_DFLT_DARG ? 1 : darg;
  }
  dl_aint ext = t->b.ub - t->b.lb, disp, dimext;
  if (__builtin_mul_overflow((dl_count)coord * b, ext, &disp) ||
      __builtin_mul_overflow(gsize, ext, &dimext))
    return DL_ERR_OVERFLOW;
  dl_type *mine;
  int rc = cyclic(t, gsize, b, p, coord, &mine);
  if (rc)
    return rc;
  rc = dli_place(mine, disp, dimext, out);
  dl_type_free(&mine);
  return rc;
}

int dl_type_darray(int size, int rank, int ndims, const dl_count *gsizes,
                   const int *distribs, const int *dargs, const int *psizes,
                   int order, dl_type *old, dl_type **out)
{
  if (!out || !dli_type_valid(old))
    return DL_ERR_ARG;
  int rc = check(size, rank, ndims, gsizes, distribs, dargs, psizes, order);
  if (rc)
    return rc;
  int *coords = malloc((size_t)ndims * sizeof(int));
  if (!coords)
    return DL_ERR_NOMEM;
  for (int d = 0, rest = rank, procs = size; d < ndims; d++) {
    procs /= psizes[d];
    coords[d] = rest / procs;
    rest %= procs;
  }
  dl_type *t = old;
  for (int k = 0; k < ndims && !rc; k++) {
    int d = order == DL_ORDER_C ? ndims - 1 - k : k;
    dl_type *next = NULL;
    rc = one_dim(t, gsizes[d], distribs[d], dargs[d], psizes[d], coords[d],
                 &next);
    if (t != old)
      dl_type_free(&t);
    t = next;
  }
  free(coords);
  if (!rc)
    *out = t;
  return rc;
}
