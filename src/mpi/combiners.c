/* MPI constructor arguments as dataloop's (combiners.h). */
#include <stdlib.h>
#include "combiners.h"

/* subarray: (ndims, sizes, subsizes, starts, order) in either form */
int dli_subarray(const dli_contents *c, dl_type *old, dl_type **out)
{
  int nd = c->ints[0], order;
  dl_count *s = malloc(sizeof(dl_count) * 3 * (size_t)(nd > 0 ? nd : 1));
  if (!s)
    return DL_ERR_NOMEM;
  for (int i = 0; i < 3 * nd; i++)
    s[i] = c->nc > 0 ? c->counts[i] : c->ints[1 + i];
  order = c->nc > 0 ? c->ints[1] : c->ints[1 + 3 * nd];
  int rc = dl_type_subarray(nd, s, s + nd, s + 2 * nd,
                            order == MPI_ORDER_FORTRAN ? DL_ORDER_FORTRAN : DL_ORDER_C,
                            old, out);
  free(s);
  return rc;
}

/* darray: (size, rank, ndims, gsizes, distribs, dargs, psizes, order) */
int dli_darray(const dli_contents *c, dl_type *old, dl_type **out)
{
  int nd = c->ints[2];
  size_t n = (size_t)(nd > 0 ? nd : 1);
  dl_count *g = malloc(sizeof(dl_count) * n);
  int *di = malloc(sizeof(int) * 3 * n);
  if (!g || !di) {
    free(g);
    free(di);
    return DL_ERR_NOMEM;
  }
  const int *rest = c->ints + 3 + (c->nc > 0 ? 0 : nd);  /* distribs on */
  for (int i = 0; i < nd; i++) {
    g[i] = c->nc > 0 ? c->counts[i] : c->ints[3 + i];
    int d = rest[i], a = rest[nd + i];
    di[i] = d == MPI_DISTRIBUTE_BLOCK ? DL_DISTRIBUTE_BLOCK
          : d == MPI_DISTRIBUTE_CYCLIC ? DL_DISTRIBUTE_CYCLIC : DL_DISTRIBUTE_NONE;
    di[nd + i] = a == MPI_DISTRIBUTE_DFLT_DARG ? DL_DISTRIBUTE_DFLT_DARG : a;
    di[2 * nd + i] = rest[2 * nd + i];
  }
  int order = rest[3 * nd];
  int rc = dl_type_darray(c->ints[0], c->ints[1], nd, g, di, di + nd, di + 2 * nd,
                          order == MPI_ORDER_FORTRAN ? DL_ORDER_FORTRAN : DL_ORDER_C,
                          old, out);
  free(g);
  free(di);
  return rc;
}

/* Fortran 90 parameterized types are predefined-like: by size */
int dli_f90(MPI_Datatype dt, int comb, dl_type **out)
{
  MPI_Count size;
  if (dli_mpi_size(dt, &size) != MPI_SUCCESS)
    return DL_ERR_ARG;
  dl_builtin_t b;
  if (comb == MPI_COMBINER_F90_INTEGER)
    b = size == 1 ? DL_INT8 : size == 2 ? DL_INT16 : size == 4 ? DL_INT32 : DL_INT64;
  else if (comb == MPI_COMBINER_F90_REAL)
    b = size == 4 ? DL_FLOAT : size == 8 ? DL_DOUBLE : DL_LONG_DOUBLE;
  else
    b = size == 8 ? DL_C_FLOAT_COMPLEX : size == 16 ? DL_C_DOUBLE_COMPLEX
                                                    : DL_C_LONG_DOUBLE_COMPLEX;
  /* the predefined type itself, not a dup: MPICH never frees its f90
     types, so the attribute's delete callback would never free a copy */
  *out = dl_builtin(b);
  return DL_OK;
}
