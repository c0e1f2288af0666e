/* MPI_Type_create_subarray, one dimension at a time from the fastest: the
 * subsizes[d] elements of the previous dimension's type, starting at
 * starts[d], inside a dimension of sizes[d] elements (lb 0, extent the
 * whole dimension), so each step's extent is the next step's stride. */
#include "build.h"

int dl_type_subarray(int ndims, const dl_count *sizes, const dl_count *subsizes,
                     const dl_count *starts, int order, dl_type *old,
                     dl_type **out)
{
  if (!out || !dli_type_valid(old) || ndims <= 0 || !sizes || !subsizes ||
      !starts || (order != DL_ORDER_C && order != DL_ORDER_FORTRAN))
    return DL_ERR_ARG;
  for (int d = 0; d < ndims; d++)
    if (sizes[d] <= 0 || subsizes[d] < 0 || subsizes[d] > sizes[d] ||
        starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
      return DL_ERR_ARG;
  dl_type *t = old;
  dl_aint ext = old->b.ub - old->b.lb;
  int rc = DL_OK;
  for (int k = 0; k < ndims && !rc; k++) {
    int d = order == DL_ORDER_C ? ndims - 1 - k : k;
    dl_type *run, *next = NULL;
    dl_aint disp = 0, dimext = 0;
    if (__builtin_mul_overflow(starts[d], ext, &disp) ||
        __builtin_mul_overflow(sizes[d], ext, &dimext))
      rc = DL_ERR_OVERFLOW;
    if (!rc && !(rc = dl_type_contiguous(subsizes[d], t, &run))) {
      rc = dli_place(run, disp, dimext, &next);
      dl_type_free(&run);
    }
    if (t != old)
      dl_type_free(&t);
    t = next;
    ext = dimext;
  }
  if (!rc)
    *out = t;
  return rc;
}
