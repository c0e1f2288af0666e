/* Whether two types place every byte of their packed streams at the same
 * offsets, but for one constant shift: then a copy between buffers of the
 * two moves each block straight across (the twin route of
 * actions/typecopy.c). That holds for one type, and for two built alike
 * from one description but for their displacements (the faces of a halo
 * exchange as subarrays of different starts). Field by field over both
 * trees; every loop's offset may differ as long as the differences sum
 * to the same shift down every path. The arrays count against a budget so
 * that the check stays far cheaper than the copy it would save. */
#include <string.h>
#include "loop.h"

static bool same_array(const void *a, const void *b, dl_count n, size_t el,
                       size_t *budget)
{
  if ((size_t)n > *budget)
    return false;
  *budget -= (size_t)n;
  return n == 0 || a == b || (a && b && memcmp(a, b, (size_t)n * el) == 0);
}

/* *shift: how far a's bytes lie past b's */
static bool same_loop(const dli_loop *a, const dli_loop *b, size_t *budget, dl_aint *shift)
{
  *shift = 0;
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || a->leaf != b->leaf || a->count != b->count ||
      a->size != b->size || a->blocklen != b->blocklen || a->stride != b->stride ||
      a->el_size != b->el_size || a->el_extent != b->el_extent ||
      __builtin_sub_overflow(a->offset, b->offset, shift))
    return false;
  const dl_count n = a->count;
  dl_aint below = 0;
  switch (a->kind) {
  case DLI_BLOCKINDEXED:
    if (!same_array(a->offs, b->offs, n, sizeof(*a->offs), budget))
      return false;
    break;
  case DLI_INDEXED:
    if (!same_array(a->offs, b->offs, n, sizeof(*a->offs), budget) ||
        !same_array(a->pre, b->pre, n + 1, sizeof(*a->pre), budget) ||
        (!a->leaf && !same_array(a->blocklens, b->blocklens, n, sizeof(*a->blocklens), budget)))
      return false;
    break;
  case DLI_STRUCT:
    if (!same_array(a->offs, b->offs, n, sizeof(*a->offs), budget) ||
        !same_array(a->pre, b->pre, n + 1, sizeof(*a->pre), budget) ||
        !same_array(a->blocklens, b->blocklens, n, sizeof(*a->blocklens), budget) ||
        !same_array(a->exts, b->exts, n, sizeof(*a->exts), budget))
      return false;
    /* every child's bytes shifted alike */
    for (dl_count i = 0; i < n; i++) {
      dl_aint s;
      if (!same_loop(a->children[i], b->children[i], budget, &s) || (i > 0 && s != below))
        return false;
      below = s;
    }
    return !__builtin_add_overflow(*shift, below, shift);
  default:
    break;
  }
  if (!a->leaf && !same_loop(a->child, b->child, budget, &below))
    return false;
  return !__builtin_add_overflow(*shift, below, shift);
}

bool dli_type_same_places(const dl_type *a, const dl_type *b, size_t budget, dl_aint *shift)
{
  *shift = 0;
  if (a == b)
    return true;
  return a->b.size == b->b.size && a->b.ub - a->b.lb == b->b.ub - b->b.lb &&
         same_loop(a->loop, b->loop, &budget, shift);
}
