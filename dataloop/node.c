/* Derived fields of a loop node: packed size, data bounds, depth, fusion. */
#include <string.h>
#include "build.h"

dli_elem dli_type_elem(const dl_type *t)
{
  return (dli_elem){.loop = t->loop, .size = t->b.size,
                    .extent = t->b.ub - t->b.lb};
}

/* bounds of `n` elements of extent `ext` starting at `pos`, each touching
   [tlb, tub) relative to its own start */
static int elems_bounds(dl_aint pos, dl_count n, dl_aint ext, dl_aint tlb,
                        dl_aint tub, dl_aint *lo, dl_aint *hi)
{
  dl_aint a, b;
  if (dli_span(n, ext, &a, &b) || __builtin_add_overflow(pos, a, &a) ||
      __builtin_add_overflow(pos, b, &b) || __builtin_add_overflow(a, tlb, lo) ||
      __builtin_add_overflow(b, tub, hi))
    return DL_ERR_OVERFLOW;
  return DL_OK;
}

static void widen(bool *any, dl_aint lo, dl_aint hi, dl_aint *tlb, dl_aint *tub)
{
  if (!*any || lo < *tlb) *tlb = lo;
  if (!*any || hi > *tub) *tub = hi;
  *any = true;
}

/* element count and child of block i, for the bounds walk */
static void block_shape(const dli_loop *l, dl_count i, dl_count *n,
                        dl_aint *ext, const dli_loop **child)
{
  *child = l->kind == DLI_STRUCT ? l->children[i] : l->child;
  *ext = l->kind == DLI_STRUCT ? l->exts[i] : l->el_extent;
  if (l->kind == DLI_CONTIG)
    *n = l->count;
  else if (l->kind == DLI_VECTOR || l->kind == DLI_BLOCKINDEXED)
    *n = l->blocklen;
  else
    *n = l->blocklens[i];
}

static int leaf_bounds(dli_loop *l, dl_aint *lo, dl_aint *hi)
{
  bool any = false;
  switch (l->kind) {
  case DLI_CONTIG:
    *lo = 0; *hi = l->count;
    return DL_OK;
  case DLI_VECTOR:
    if (dli_span(l->count, l->stride, lo, hi) ||
        __builtin_add_overflow(*hi, l->blocklen, hi))
      return DL_ERR_OVERFLOW;
    return DL_OK;
  default:
    for (dl_count i = 0; i < l->count; i++) {
      dl_count len = l->kind == DLI_BLOCKINDEXED ? l->blocklen
                                                 : l->pre[i + 1] - l->pre[i];
      dl_aint end;
      if (__builtin_add_overflow(l->offs[i], len, &end))
        return DL_ERR_OVERFLOW;
      widen(&any, l->offs[i], end, lo, hi);
    }
    return DL_OK;
  }
}

static int inner_bounds(dli_loop *l, dl_aint *lo, dl_aint *hi)
{
  bool any = false;
  dl_count nblocks = l->kind == DLI_CONTIG ? 1 : l->count;
  if (l->kind == DLI_VECTOR) {
    /* every block has the same shape: span the block starts once */
    dl_aint a, b, c, d;
    if (dli_span(l->count, l->stride, &a, &b) ||
        elems_bounds(0, l->blocklen, l->el_extent, l->child->tlb,
                     l->child->tub, &c, &d) ||
        __builtin_add_overflow(a, c, lo) || __builtin_add_overflow(b, d, hi))
      return DL_ERR_OVERFLOW;
    return DL_OK;
  }
  for (dl_count i = 0; i < nblocks; i++) {
    dl_count n;
    dl_aint ext, a, b;
    const dli_loop *c;
    block_shape(l, i, &n, &ext, &c);
    dl_aint pos = l->kind == DLI_CONTIG ? 0 : l->offs[i];
    if (elems_bounds(pos, n, ext, c->tlb, c->tub, &a, &b))
      return DL_ERR_OVERFLOW;
    widen(&any, a, b, lo, hi);
  }
  return DL_OK;
}

static int packed_size(const dli_loop *l, dl_count *size)
{
  dl_count per;
  switch (l->kind) {
  case DLI_CONTIG:
    per = l->leaf ? 1 : l->el_size;
    return __builtin_mul_overflow(l->count, per, size) ? DL_ERR_OVERFLOW : DL_OK;
  case DLI_VECTOR:
  case DLI_BLOCKINDEXED:
    per = l->leaf ? 1 : l->el_size;
    if (__builtin_mul_overflow(l->blocklen, per, &per) ||
        __builtin_mul_overflow(l->count, per, size))
      return DL_ERR_OVERFLOW;
    return DL_OK;
  default:
    *size = l->pre[l->count] - l->pre[0];
    return DL_OK;
  }
}

int dli_finish_node(dli_loop *l)
{
  dl_aint lo = 0, hi = 0;
  l->jit[0] = l->jit[1] = NULL;     /* compiled for another shape, if any */
  int rc = packed_size(l, &l->size);
  if (!rc)
    rc = l->leaf ? leaf_bounds(l, &lo, &hi) : inner_bounds(l, &lo, &hi);
  if (!rc && (__builtin_add_overflow(lo, l->offset, &l->tlb) ||
              __builtin_add_overflow(hi, l->offset, &l->tub)))
    rc = DL_ERR_OVERFLOW;
  if (rc)
    return rc;
  l->depth = 1;
  if (l->kind == DLI_STRUCT) {
    for (dl_count i = 0; i < l->count; i++)
      if (l->children[i]->depth + 1 > l->depth)
        l->depth = l->children[i]->depth + 1;
  } else if (!l->leaf) {
    l->depth = l->child->depth + 1;
  }
  l->fuse = !l->leaf && l->kind != DLI_STRUCT && l->child->leaf &&
            (l->kind == DLI_CONTIG || (l->kind == DLI_VECTOR && l->blocklen == 1));
  if (l->leaf && l->kind == DLI_INDEXED) {
    l->min_blk = SIZE_MAX;
    l->max_blk = 0;
    for (dl_count i = 0; i < l->count; i++) {
      size_t len = (size_t)(l->pre[i + 1] - l->pre[i]);
      if (len < l->min_blk) l->min_blk = len;
      if (len > l->max_blk) l->max_blk = len;
    }
    dli_find_period(l);
  }
  return DL_OK;
}

int dli_shift(dli_build *b, const dli_loop *l, dl_aint delta,
              const dli_loop **out)
{
  if (delta == 0) {
    *out = l;
    return DL_OK;
  }
  dli_loop *n = dli_build_node(b);
  if (!n)
    return DL_ERR_NOMEM;
  *n = *l;
  n->jit[0] = n->jit[1] = NULL;     /* compiled code holds the old offset */
  if (__builtin_add_overflow(n->offset, delta, &n->offset) ||
      __builtin_add_overflow(n->tlb, delta, &n->tlb) ||
      __builtin_add_overflow(n->tub, delta, &n->tub))
    return DL_ERR_OVERFLOW;
  *out = n;
  return DL_OK;
}
