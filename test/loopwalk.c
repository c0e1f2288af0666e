/* A plain recursive walk of a loop tree, element by element: the reference
 * the segment walker is tested against (test_types, test_segments). */
#include "loopwalk.h"

static int walk_block(const dli_loop *l, dl_count i, dl_aint start,
                      dli_run_fn fn, void *ctx)
{
  if (l->leaf)
    return fn(ctx, start, dli_block_bytes(l, i));
  const dli_loop *c = l->kind == DLI_STRUCT ? l->children[i] : l->child;
  dl_aint ext = l->kind == DLI_STRUCT ? l->exts[i] : l->el_extent;
  dl_count n = l->kind == DLI_CONTIG ? l->count
             : (l->kind == DLI_INDEXED || l->kind == DLI_STRUCT) ? l->blocklens[i]
             : l->blocklen;
  for (dl_count j = 0; j < n; j++) {
    int rc = dli_loop_walk(c, start + j * ext, fn, ctx);
    if (rc)
      return rc;
  }
  return DL_OK;
}

int dli_loop_walk(const dli_loop *l, dl_aint origin, dli_run_fn fn, void *ctx)
{
  dl_count nblocks = l->kind == DLI_CONTIG ? 1 : l->count;
  for (dl_count i = 0; i < nblocks; i++) {
    dl_aint at = origin + l->offset;
    if (l->kind == DLI_VECTOR)
      at += i * l->stride;
    else if (l->kind != DLI_CONTIG)
      at += l->offs[i];
    int rc = walk_block(l, i, at, fn, ctx);
    if (rc)
      return rc;
  }
  return DL_OK;
}
