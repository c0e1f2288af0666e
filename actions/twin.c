/* The twin route of type-to-type copies (typecopy.c) as an action. */
#include "block.h"

/* The twin route of type-to-type copies (typecopy.c): one type on both
   sides, so each block moves from its place in the source to the same
   place in the destination, d bytes on, with no stream between them. The
   loops take d where the others take the stream cursor (DISPATCH passes
   it through); copy_block's UNPACK moves from its first argument to its
   second. */
INLINE dl_aint twin_vec(dl_aint d, const dl_piece *p, size_t n, int cls, int dir)
{
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride, stride = p->stride;
  for (dl_count r = 0; r < reps; r++) {
    char *m = dli_at(p->base, r * rs);
    for (dl_count i = 0; i < count; i++, m = dli_at(m, stride))
      copy_block(m, dli_at(m, d), n, cls, dir);
  }
  return d;
}

INLINE dl_aint twin_bidx_run(dl_aint d, const dl_piece *p, size_t n, int cls, int dir,
                             bool narrow)
{
  const dl_aint *offs = p->offs;
  const int32_t *o32 = p->offs32;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride;
  for (dl_count r = 0; r < reps; r++) {
    char *m = dli_at(p->base, r * rs);
    for (dl_count i = 0; i < count; i++) {
      char *b = dli_at(m, offset_at(offs, o32, i, narrow));
      copy_block(b, dli_at(b, d), n, cls, dir);
    }
  }
  return d;
}

INLINE dl_aint twin_bidx(dl_aint d, const dl_piece *p, size_t n, int cls, int dir)
{
  if (gathers(p, n, cls))
    return twin_bidx_run(d, p, n, cls, dir, true);
  return twin_bidx_run(d, p, n, cls, dir, false);
}

INLINE dl_aint twin_idx(dl_aint d, const dl_piece *p, size_t n, int cls, int dir)
{
  const dl_aint *offs = p->offs;
  const dl_count *pre = p->pre;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride;
  (void)n;
  for (dl_count r = 0; r < reps; r++) {
    char *m = dli_at(p->base, r * rs);
    for (dl_count i = 0; i < count; i++) {
      char *b = dli_at(m, offs[i]);
      copy_block(b, dli_at(b, d), (size_t)(pre[i + 1] - pre[i]), cls, dir);
    }
  }
  return d;
}

static size_t twin_contig(void *st, const dl_piece *p)
{
  dli_memcpy(dli_at(p->base, *(const dl_aint *)st), p->base, p->blk);
  return p->blk;
}

static size_t twin_vector(void *st, const dl_piece *p)
{
  dl_aint d = *(const dl_aint *)st;
  DISPATCH(twin_vec, d, p, p->blk, p->blk, UNPACK);
  return dl_piece_bytes(p);
}

static size_t twin_blockindexed(void *st, const dl_piece *p)
{
  dl_aint d = *(const dl_aint *)st;
  DISPATCH(twin_bidx, d, p, p->blk, p->blk, UNPACK);
  return dl_piece_bytes(p);
}

static size_t twin_indexed(void *st, const dl_piece *p)
{
  dl_aint d = *(const dl_aint *)st;
  if (p->min_blk == p->max_blk) {
    dl_piece q = *p;
    q.blk = p->min_blk;
    DISPATCH(twin_bidx, d, &q, q.blk, q.blk, UNPACK);
  } else {
    DISPATCH(twin_idx, d, p, p->min_blk, p->max_blk, UNPACK);
  }
  return dl_piece_bytes(p);
}

const dl_action dli_twin_action = {twin_contig, twin_vector, twin_blockindexed,
                                   twin_indexed};
