/* The walker: hands the action whole leaf loops (or the part of one inside
 * the range), then steps the stack to the next leaf. No recursion, no
 * allocation; one action call per leaf loop, a few at the range's ends. */
#include "segment.h"

static size_t block_bytes(const dli_leaf *lf, dl_count i)
{
  return lf->kind == DLI_INDEXED ? (size_t)(lf->pre[i + 1] - lf->pre[i])
                                 : lf->blk;
}

static uintptr_t block_addr(const dli_leaf *lf, dl_count i)
{
  uintptr_t b = lf->base + (uintptr_t)(lf->r * lf->rstride);
  return b + (uintptr_t)(lf->kind == DLI_VECTOR ? i * lf->stride : lf->offs[i]);
}

/* whole blocks from block i of the current repetition that fit in `left` */
static dl_count whole_blocks(const dli_leaf *lf, dl_count i, size_t left)
{
  dl_count n = lf->count - i;
  if (lf->kind != DLI_INDEXED) {
    size_t k = left / lf->blk;
    return k < (size_t)n ? (dl_count)k : n;
  }
  const dl_count *pre = lf->pre;
  if ((size_t)(pre[lf->count] - pre[i]) <= left)
    return n;
  dl_count lo = 0, hi = n;           /* pre[i + lo] - pre[i] <= left */
  while (lo < hi) {
    dl_count mid = lo + (hi - lo + 1) / 2;
    if ((size_t)(pre[i + mid] - pre[i]) <= left)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static void next_block(dli_leaf *lf, dl_count k)
{
  lf->i += k;
  lf->off = 0;
  if (lf->i == lf->count) {
    lf->i = 0;
    lf->r++;
  }
}

/* The part of one block the range cuts (or that an earlier call left). */
static size_t ragged_run(dl_segment *s, size_t avail, const dl_action *a,
                         void *st, bool *stopped)
{
  dli_leaf *lf = &s->leaf;
  size_t bb = block_bytes(lf, lf->i);
  size_t want = bb - lf->off < avail ? bb - lf->off : avail;
  dl_piece p = {.pos = s->pos, .reps = 1, .count = 1, .blk = want,
                .base = (char *)(block_addr(lf, lf->i) + lf->off)};
  size_t got = a->contig(st, &p);
  lf->off += got;
  if (got < want)
    *stopped = true;
  else if (lf->off == bb)
    next_block(lf, 1);
  return got;
}

/* Processes one piece of the current leaf within `avail` bytes: all of
   it, a ragged block, whole repetitions, or whole blocks up to the end of
   a repetition; the caller comes back for the next (bulk_run may take it).
   Returns the bytes done; *stopped is set when the action took less than
   it was given. */
static size_t leaf_run(dl_segment *s, size_t avail, const dl_action *a,
                       void *st, bool *stopped)
{
  dli_leaf *lf = &s->leaf;
  if (lf->r == lf->reps)
    return 0;
  if (lf->off > 0 || block_bytes(lf, lf->i) > avail)
    return ragged_run(s, avail, a, st, stopped);
  bool whole = lf->r == 0 && lf->i == 0 && avail >= lf->total;
  bool whole_reps = lf->i == 0 && avail >= lf->repbytes && lf->reps - lf->r > 1;
  dl_piece p = {.pos = s->pos, .reps = 1, .blk = lf->blk, .stride = lf->stride,
                .min_blk = lf->min_blk, .max_blk = lf->max_blk,
                .period = lf->period, .apart = lf->apart,
                .base = (char *)(lf->base + (uintptr_t)(lf->r * lf->rstride))};
  dl_count k = 0;
  size_t want;
  if (whole || whole_reps) {
    size_t nr = avail / lf->repbytes;
    p.reps = (dl_count)nr < lf->reps - lf->r ? (dl_count)nr : lf->reps - lf->r;
    p.rep_stride = lf->rstride;
    p.count = lf->count;
    want = (size_t)p.reps * lf->repbytes;
  } else {
    k = whole_blocks(lf, lf->i, avail);
    p.count = k;
    want = lf->kind == DLI_INDEXED ? (size_t)(lf->pre[lf->i + k] - lf->pre[lf->i])
                                   : (size_t)k * lf->blk;
  }
  if (lf->kind == DLI_VECTOR)
    p.base = dli_at(p.base, lf->i * lf->stride);
  else {
    p.offs = lf->offs + lf->i;
    p.offs32 = lf->offs32 ? lf->offs32 + lf->i : NULL;
  }
  if (lf->kind == DLI_INDEXED)
    p.pre = lf->pre + lf->i;
  size_t got = lf->kind == DLI_VECTOR ? (p.count == 1 && p.reps == 1 ? a->contig(st, &p)
                                                                     : a->vector(st, &p))
             : lf->kind == DLI_BLOCKINDEXED ? a->blockindexed(st, &p)
                                            : a->indexed(st, &p);
  if (got < want) {
    size_t at = (size_t)lf->r * lf->repbytes + got +
                (lf->kind == DLI_INDEXED ? (size_t)lf->pre[lf->i] : (size_t)lf->i * lf->blk);
    dli_leaf_set(lf, at);
    *stopped = true;
  } else if (k) {
    next_block(lf, k);
  } else {
    lf->r += p.reps;
  }
  return got;
}

/* The next element of frame d, or false when its loop is exhausted. */
static bool frame_next(dli_frame *f)
{
  const dli_loop *l = f->loop;
  dl_count n = l->kind == DLI_CONTIG ? l->count
             : l->kind == DLI_VECTOR || l->kind == DLI_BLOCKINDEXED ? l->blocklen
             : l->blocklens[f->i];
  f->epos += (size_t)(l->kind == DLI_STRUCT ? l->children[f->i]->size : l->el_size);
  if (++f->j < n) {
    f->elem += (uintptr_t)(l->kind == DLI_STRUCT ? l->exts[f->i] : l->el_extent);
    return true;
  }
  f->j = 0;
  if (l->kind == DLI_CONTIG || ++f->i == l->count)
    return false;
  f->elem = f->origin + (uintptr_t)(l->offset + (l->kind == DLI_VECTOR
                                                     ? f->i * l->stride
                                                     : l->offs[f->i]));
  return true;
}

/* Steps to the first block of the next leaf: pops exhausted frames, then
   pushes the path down from the first that has another element. */
static bool next_leaf(dl_segment *s)
{
  int d = s->depth - 1;
  while (d >= 0 && !frame_next(&s->frames[d]))
    d--;
  if (d < 0)
    return false;
  dli_frame *low = &s->frames[d];
  if (d == s->depth - 1 && low->loop->kind != DLI_STRUCT) {
    /* the same leaf loop again, one element further on */
    s->leaf.origin = low->elem;
    s->leaf.base = low->elem + s->leaf.delta;
    s->leaf.r = s->leaf.i = 0;
    s->leaf.off = 0;
    return true;
  }
  for (;;) {
    dli_frame *f = &s->frames[d];
    const dli_loop *c = f->loop->kind == DLI_STRUCT ? f->loop->children[f->i]
                                                    : f->loop->child;
    if (c->leaf || c->fuse) {
      s->depth = d + 1;
      dli_leaf_load(&s->leaf, c, f->elem);
      return true;
    }
    dli_frame *g = &s->frames[++d];
    g->loop = c;
    g->origin = f->elem;
    g->i = g->j = 0;
    g->epos = f->epos;
    g->elem = g->origin + (uintptr_t)(c->offset + (c->kind == DLI_CONTIG ||
                                                   c->kind == DLI_VECTOR
                                                       ? 0 : c->offs[0]));
  }
}

static bool has_code(const dli_loop *l)
{
  return dli_jit_get(l, DLI_JIT_PACK) || dli_jit_get(l, DLI_JIT_UNPACK);
}

/* whether the leaf level's compiled elements are the fused parent's
   repetitions (else they are the leaf's blocks: a plain leaf, or a parent
   fused over a contiguous one, which loads as blocks) */
static bool leaf_by_reps(const dli_leaf *lf)
{
  return !lf->node->leaf && lf->node->child->kind != DLI_CONTIG;
}

/* The leaf level's part of bulk_run: whole repetitions or blocks from the
   leaf's position, when it is at the start of one. */
static size_t leaf_bulk(dli_leaf *lf, size_t left, void *st, dli_bulk_fn bulk)
{
  bool reps = leaf_by_reps(lf);
  if (lf->off != 0 || lf->r == lf->reps || (reps && lf->i != 0) || !has_code(lf->node))
    return 0;
  dl_count e0 = reps ? lf->r : lf->i, n;
  if (reps) {
    n = (dl_count)(left / lf->repbytes);
    n = n < lf->reps - lf->r ? n : lf->reps - lf->r;
  } else {
    n = whole_blocks(lf, lf->i, left);
    if (lf->node->leaf && lf->node->kind == DLI_INDEXED && (lf->i != 0 || n != lf->count))
      return 0;                  /* its code moves the whole leaf only */
  }
  size_t bytes = (size_t)dli_jit_bytes(lf->node, e0, e0 + n);
  if (n == 0 || bulk(st, lf->node, lf->origin, e0, e0 + n, bytes) != bytes)
    return 0;
  if (reps)
    lf->r += n;
  else
    next_block(lf, n);
  return bytes;
}

/* The one bulk path: the outermost level of the stack (the leaf counts as
   the innermost) standing at the start of one of its loop's elements
   hands as many whole elements as the range holds to that loop's compiled
   code. Returns the bytes moved (0: none), s->pos and the state advanced. */
static size_t bulk_run(dl_segment *s, size_t end, void *st, dli_bulk_fn bulk)
{
  size_t left = end - s->pos;
  for (int d = 0; d < s->depth; d++) {
    const dli_frame *f = &s->frames[d];
    const dli_loop *l = f->loop;
    if (f->epos != s->pos || !dli_jit_shape_ok(l) || !has_code(l))
      continue;
    dl_count e0 = l->kind == DLI_CONTIG ? f->j : f->i;
    dl_count n = (dl_count)(left / (size_t)l->el_size);
    if (n > dli_jit_elems(l) - e0)
      n = dli_jit_elems(l) - e0;
    size_t bytes = (size_t)dli_jit_bytes(l, e0, e0 + n);
    if (n > 0 && bulk(st, l, f->origin, e0, e0 + n, bytes) == bytes) {
      dli_segment_seek(s, s->pos + bytes);
      return bytes;
    }
  }
  size_t bytes = leaf_bulk(&s->leaf, left, st, bulk);
  s->pos += bytes;
  return bytes;
}

int dli_segment_run(dl_segment *s, size_t first, size_t *last,
                    const dl_action *a, void *state, dli_bulk_fn bulk)
{
  if (first > s->size || first > *last)
    return DL_ERR_ARG;
  size_t end = *last < s->size ? *last : s->size;
  if (first != s->pos || s->pos == DLI_UNLOADED)
    dli_segment_seek(s, first);
  bool stopped = false;
  while (s->pos < end && !stopped) {
    if (!bulk || !bulk_run(s, end, state, bulk))
      s->pos += leaf_run(s, end - s->pos, a, state, &stopped);
    if (s->leaf.r == s->leaf.reps && s->pos < s->size && !next_leaf(s))
      break;
  }
  *last = s->pos;
  return DL_OK;
}
