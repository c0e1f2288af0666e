/* Whether two types place every byte of their packed streams at the same
 * offsets: then a copy between buffers of the two moves each block to its
 * own offset in the other buffer (the twin route of actions/typecopy.c).
 * Field by field over both trees; the arrays count against a budget so
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

static bool same_loop(const dli_loop *a, const dli_loop *b, size_t *budget)
{
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || a->leaf != b->leaf || a->count != b->count ||
      a->size != b->size || a->offset != b->offset || a->blocklen != b->blocklen ||
      a->stride != b->stride || a->el_size != b->el_size || a->el_extent != b->el_extent)
    return false;
  const dl_count n = a->count;
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
    for (dl_count i = 0; i < n; i++)
      if (!same_loop(a->children[i], b->children[i], budget))
        return false;
    return true;
  default:
    break;
  }
  return a->leaf || same_loop(a->child, b->child, budget);
}

bool dli_type_same_places(const dl_type *a, const dl_type *b, size_t budget)
{
  if (a == b)
    return true;
  return a->b.size == b->b.size && a->b.lb == b->b.lb && a->b.ub == b->b.ub &&
         same_loop(a->loop, b->loop, &budget);
}
