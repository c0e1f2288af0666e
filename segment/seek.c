/* Positioning a segment at any byte of its packed stream by arithmetic on
 * the stack: O(depth) divisions for regular loops, a binary search over
 * prefix sums for indexed and struct loops. Nothing is replayed. */
#include "segment.h"

/* largest i in [0, n) with pre[i] <= x, given pre[0] <= x < pre[n] */
static dl_count search(const dl_count *pre, dl_count n, dl_count x)
{
  dl_count lo = 0, hi = n - 1;
  while (lo < hi) {
    dl_count mid = lo + (hi - lo + 1) / 2;
    if (pre[mid] <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

void dli_leaf_load(dli_leaf *lf, const dli_loop *l, uintptr_t origin)
{
  uintptr_t at = origin;
  const dli_loop *node = l;
  dl_count reps = 1;
  dl_aint rstride = 0;
  if (!l->leaf) {                 /* a fused parent: its repetition */
    reps = l->count;
    rstride = l->kind == DLI_VECTOR ? l->stride : l->el_extent;
    origin += (uintptr_t)l->offset;
    l = l->child;
  }
  *lf = (dli_leaf){.kind = l->kind, .base = origin + (uintptr_t)l->offset,
                   .reps = reps, .rstride = rstride, .count = l->count,
                   .blk = (size_t)l->blocklen, .stride = l->stride,
                   .offs = l->offs, .offs32 = l->offs32, .pre = l->pre,
                   .min_blk = l->min_blk,
                   .max_blk = l->max_blk, .period = l->period, .apart = l->apart,
                   .lo = l->tlb - l->offset, .hi = l->tub - l->offset,
                   .repbytes = (size_t)l->size};
  if (l->kind == DLI_CONTIG) {
    /* one run per repetition: a vector over the repetitions */
    lf->kind = DLI_VECTOR;
    lf->blk = (size_t)l->count;
    lf->count = reps;
    lf->stride = rstride;
    lf->reps = 1;
    lf->rstride = 0;
    lf->repbytes = lf->blk * (size_t)reps;
  }
  lf->total = lf->repbytes * (size_t)lf->reps;
  lf->delta = lf->base - at;
  lf->node = node;
  lf->origin = at;
}

void dli_leaf_set(dli_leaf *lf, size_t p)
{
  lf->r = (dl_count)(p / lf->repbytes);
  p %= lf->repbytes;
  if (lf->kind == DLI_INDEXED) {
    lf->i = search(lf->pre, lf->count, (dl_count)p);
    lf->off = p - (size_t)lf->pre[lf->i];
  } else {
    lf->i = (dl_count)(p / lf->blk);
    lf->off = p % lf->blk;
  }
}

/* element (i, j) of frame f from the byte offset rem inside its loop;
   returns the offset left inside that element */
static dl_count frame_set(dli_frame *f, dl_count rem, size_t pos)
{
  const dli_loop *l = f->loop;
  dl_count el = l->el_size;
  dl_aint off = l->offset, ext = l->el_extent;
  switch (l->kind) {
  case DLI_CONTIG:
    f->i = 0;
    break;
  case DLI_VECTOR:
  case DLI_BLOCKINDEXED: {
    dl_count bb = l->blocklen * el;
    f->i = rem / bb;
    rem %= bb;
    off += l->kind == DLI_VECTOR ? f->i * l->stride : l->offs[f->i];
    break;
  }
  default:
    f->i = search(l->pre, l->count, rem);
    rem -= l->pre[f->i];
    off += l->offs[f->i];
    if (l->kind == DLI_STRUCT) {
      el = l->children[f->i]->size;
      ext = l->exts[f->i];
    }
  }
  f->j = rem / el;
  f->elem = f->origin + (uintptr_t)off + (uintptr_t)(f->j * ext);
  dl_count left = rem % el;
  f->epos = pos - (size_t)left;
  return left;
}

void dli_segment_seek(dl_segment *s, size_t pos)
{
  s->pos = pos;
  s->depth = 0;
  if (pos >= s->size)
    return;                          /* at the end: no state to load */
  const dli_loop *l = s->root;
  uintptr_t origin = s->buf;
  dl_count rem = (dl_count)pos;
  while (!l->leaf && !l->fuse) {
    dli_frame *f = &s->frames[s->depth++];
    f->loop = l;
    f->origin = origin;
    rem = frame_set(f, rem, pos);
    l = l->kind == DLI_STRUCT ? l->children[f->i] : l->child;
    origin = f->elem;
  }
  dli_leaf_load(&s->leaf, l, origin);
  dli_leaf_set(&s->leaf, (size_t)rem);
}
