/* Open MPI 4.1's departures from the standard's data placement, per
 * recipe node (openmpi_recipe.h). */
#include "openmpi_recipe.h"

const char *const odev_names[ODEV_NCLASSES] = {"stride -1", "empty member after data"};

/* the standard's size and extent of a recipe (0 and 0 if it cannot be built) */
static void size_extent(const recipe *rc, dl_count *size, dl_aint *extent)
{
  dl_type *t;
  dl_aint lb;
  *size = 0;
  *extent = 0;
  if (recipe_build(rc, &t) != DL_OK)
    return;
  dl_type_size(t, size);
  dl_type_extent(t, &lb, extent);
  if (rc->kind != RT_BUILTIN)
    dl_type_free(&t);
}

unsigned recipe_openmpi_deviates(const recipe *rc)
{
  unsigned d = 0;
  dl_count size;
  dl_aint ext;
  if ((rc->kind == RT_VECTOR || rc->kind == RT_HVECTOR) && rc->n >= 2 && rc->bl >= 1) {
    size_extent(rc->kids[0], &size, &ext);
    dl_aint bytes = rc->kind == RT_VECTOR ? rc->stride * ext : rc->stride;
    /* Open MPI takes the contiguous path first where blocks touch */
    bool touching = rc->kind == RT_VECTOR ? rc->bl == rc->stride : rc->bl * ext == rc->stride;
    if (bytes == -1 && !touching)
      d |= ODEV_STRIDE_MINUS_ONE;
  }
  if (rc->kind == RT_STRUCT) {
    bool data = false;
    for (int i = 0; i < rc->nkids; i++) {
      if (rc->bls[i] == 0)
        continue;
      size_extent(rc->kids[i], &size, &ext);
      if (size > 0)
        data = true;
      else if (data)
        d |= ODEV_EMPTY_AFTER_DATA;
    }
  }
  for (int i = 0; i < rc->nkids; i++)
    d |= recipe_openmpi_deviates(rc->kids[i]);
  return d;
}
