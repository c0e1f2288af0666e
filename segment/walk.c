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

/* The whole repetitions of a fused parent that `left` bytes hold, by the
   parent's compiled code: returns the bytes moved (0: no code, or not
   one whole repetition). */
static size_t reps_bulk(dli_leaf *lf, size_t left, void *st, dli_bulk_fn bulk)
{
  dl_count k = (dl_count)(left / lf->repbytes);
  if (k > lf->reps - lf->r)
    k = lf->reps - lf->r;
  size_t bytes = (size_t)k * lf->repbytes;
  if (k == 0 || bulk(st, lf->node, lf->origin, lf->r, lf->r + k, bytes) != bytes)
    return 0;
  lf->r += k;
  return bytes;
}

/* Processes up to `avail` bytes of the current leaf. Returns the bytes
   done; *stopped is set when the action took less than it was given. */
static size_t leaf_run(dl_segment *s, size_t avail, const dl_action *a,
                       void *st, dli_bulk_fn bulk, bool *stopped)
{
  dli_leaf *lf = &s->leaf;
  size_t done = 0;
  bool whole = lf->r == 0 && lf->i == 0 && lf->off == 0 && avail >= lf->total;
  if (whole && bulk) {
    const dli_loop *n = lf->node;
    dl_count e1 = dli_jit_elems(n);
    if (bulk(st, n, lf->origin, 0, e1, lf->total) == lf->total) {
      lf->r = lf->reps;
      return lf->total;
    }
  }
  if (whole) {
    /* the common case: the whole leaf, all repetitions, in one call */
    dl_piece p = {.base = (char *)lf->base, .reps = lf->reps,
                  .rep_stride = lf->rstride, .count = lf->count, .blk = lf->blk,
                  .stride = lf->stride, .min_blk = lf->min_blk,
                  .max_blk = lf->max_blk, .pos = s->pos};
    size_t got;
    if (lf->kind == DLI_VECTOR) {
      got = lf->count == 1 && lf->reps == 1 ? a->contig(st, &p) : a->vector(st, &p);
    } else {
      p.offs = lf->offs;
      if (lf->kind == DLI_INDEXED)
        p.pre = lf->pre;
      got = lf->kind == DLI_INDEXED ? a->indexed(st, &p) : a->blockindexed(st, &p);
    }
    if (got == lf->total) {
      lf->r = lf->reps;
      return got;
    }
    dli_leaf_set(lf, got);
    *stopped = true;
    return got;
  }
  while (done < avail && lf->r < lf->reps) {
    size_t left = avail - done, bb = block_bytes(lf, lf->i), want, got;
    if (bulk && lf->i == 0 && lf->off == 0 && lf->reps > 1) {
      size_t n = reps_bulk(lf, left, st, bulk);
      if (n) {
        done += n;
        continue;
      }
    }
    dl_piece p = {.pos = s->pos + done, .reps = 1};
    if (lf->off > 0 || bb > left) {
      /* a ragged end: part of one block */
      want = bb - lf->off < left ? bb - lf->off : left;
      p.base = (char *)(block_addr(lf, lf->i) + lf->off);
      p.count = 1;
      p.blk = want;
      got = a->contig(st, &p);
      done += got;
      if (got < want) {
        lf->off += got;
        *stopped = true;
        return done;
      }
      if ((lf->off += got) == bb)
        next_block(lf, 1);
      continue;
    }
    p.base = (char *)(lf->base + (uintptr_t)(lf->r * lf->rstride));
    p.blk = lf->blk;
    p.stride = lf->stride;
    p.min_blk = lf->min_blk;
    p.max_blk = lf->max_blk;
    dl_count k;
    bool whole_reps = lf->i == 0 && left >= lf->repbytes && lf->reps - lf->r > 1;
    if (whole_reps) {
      size_t nr = left / lf->repbytes;
      p.reps = (dl_count)nr < lf->reps - lf->r ? (dl_count)nr : lf->reps - lf->r;
      p.rep_stride = lf->rstride;
      p.count = lf->count;
      want = (size_t)p.reps * lf->repbytes;
    } else {
      k = whole_blocks(lf, lf->i, left);
      p.count = k;
      want = lf->kind == DLI_INDEXED
                 ? (size_t)(lf->pre[lf->i + k] - lf->pre[lf->i]) : (size_t)k * lf->blk;
    }
    if (lf->kind == DLI_VECTOR)
      p.base = dli_at(p.base, lf->i * lf->stride);
    else
      p.offs = lf->offs + lf->i;
    if (lf->kind == DLI_INDEXED)
      p.pre = lf->pre + lf->i;
    got = lf->kind == DLI_VECTOR ? (p.count == 1 && p.reps == 1 ? a->contig(st, &p)
                                                                : a->vector(st, &p))
        : lf->kind == DLI_BLOCKINDEXED ? a->blockindexed(st, &p)
                                       : a->indexed(st, &p);
    if (got < want) {
      size_t at = (size_t)lf->r * lf->repbytes + got +
                  (lf->kind == DLI_INDEXED ? (size_t)lf->pre[lf->i]
                                           : (size_t)lf->i * lf->blk);
      dli_leaf_set(lf, at);
      *stopped = true;
      return done + got;
    }
    done += got;
    if (whole_reps)
      lf->r += p.reps;
    else
      next_block(lf, k);
  }
  return done;
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

/* The outermost frame at the start of one of its elements whose loop has
   compiled code takes as many whole elements as the range holds; returns
   the bytes it moved (0: none). */
static size_t frames_bulk(dl_segment *s, size_t end, void *state, dli_bulk_fn bulk)
{
  for (int d = 0; d < s->depth; d++) {
    dli_frame *f = &s->frames[d];
    const dli_loop *l = f->loop;
    if (f->epos != s->pos || !dli_jit_shape_ok(l) || !dli_jit_get(l, DLI_JIT_PACK))
      continue;
    dl_count e0 = l->kind == DLI_CONTIG ? f->j : f->i;
    dl_count n = (dl_count)((end - s->pos) / (size_t)l->el_size);
    if (n > dli_jit_elems(l) - e0)
      n = dli_jit_elems(l) - e0;
    if (n == 0)
      continue;
    size_t bytes = (size_t)dli_jit_bytes(l, e0, e0 + n);
    if (bulk(state, l, f->origin, e0, e0 + n, bytes) == bytes)
      return bytes;
  }
  return 0;
}

int dli_segment_run(dl_segment *s, size_t first, size_t *last,
                    const dl_action *a, void *state, dli_bulk_fn bulk)
{
  if (first > s->size || first > *last)
    return DL_ERR_ARG;
  size_t end = *last < s->size ? *last : s->size;
  if (first != s->pos)
    dli_segment_seek(s, first);
  bool stopped = false;
  while (s->pos < end && !stopped) {
    if (bulk && s->depth > 0) {
      size_t got = frames_bulk(s, end, state, bulk);
      if (got) {
        dli_segment_seek(s, s->pos + got);
        continue;
      }
    }
    s->pos += leaf_run(s, end - s->pos, a, state, bulk, &stopped);
    if (s->leaf.r == s->leaf.reps && s->pos < s->size && !next_leaf(s))
      break;
  }
  *last = s->pos;
  return DL_OK;
}
