/* Whether a loop's leaf blocks provably never overlap, with room to spare:
 * what lets a copy change the order of its stores into memory (a reordered
 * unpack, compiled or interpreted) without changing a byte. */
#include "loop.h"

static dl_aint span(const dli_loop *l)
{
  return l->tub - l->tlb;
}

bool dli_regular_disjoint(const dli_loop *l, dl_aint widen, dl_aint *leaf_stride,
                          dl_count *blk)
{
  for (;;) {
    if (l->leaf) {
      if (l->kind == DLI_VECTOR) {
        *leaf_stride = l->stride < 0 ? -l->stride : l->stride;
        *blk = l->blocklen;
        return l->count < 2 || *leaf_stride >= l->blocklen + widen;
      }
      return false;
    }
    if (l->kind != DLI_CONTIG && l->kind != DLI_VECTOR)
      return false;
    dl_aint ext = l->el_extent < 0 ? -l->el_extent : l->el_extent;
    dl_aint child = span(l->child) + widen;
    if (l->kind == DLI_CONTIG) {
      if (l->count > 1 && ext < child)
        return false;
    } else {
      dl_aint st = l->stride < 0 ? -l->stride : l->stride;
      if ((l->blocklen > 1 && ext < child) ||
          (l->count > 1 && st < (l->blocklen - 1) * ext + child))
        return false;
    }
    l = l->child;
  }
}
