/* MPI_Type_create_resized: same data, explicit (sticky) bounds. The loop
 * tree is unchanged; the new extent is what the next constructor or a
 * count > 1 replicates by. */
#include "build.h"

int dl_type_resized(dl_type *old, dl_aint lb, dl_aint extent, dl_type **out)
{
  if (!out || !dli_type_valid(old))
    return DL_ERR_ARG;
  dli_bounds bd = old->b;
  bd.lb = lb;
  bd.sticky = true;
  if (__builtin_add_overflow(lb, extent, &bd.ub))
    return DL_ERR_OVERFLOW;
  return dli_type_new(bd.size > 0 ? old->loop : NULL, &bd, old->sig, out);
}

int dli_place(dl_type *t, dl_aint disp, dl_aint extent, dl_type **out)
{
  dl_type *moved;
  int rc = dl_type_hindexed_block(1, 1, &disp, t, &moved);
  if (rc)
    return rc;
  rc = dl_type_resized(moved, 0, extent, out);
  dl_type_free(&moved);
  return rc;
}
