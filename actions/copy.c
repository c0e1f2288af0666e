/* Pack and unpack kernels. One template serves both directions; each leaf
 * kind is specialized by block size so that fixed-size copies compile to
 * plain moves, and indexed leaves pick a copy by the range of their block
 * lengths (two overlapping moves cover any length in [n, 2n]). */
#include <string.h>
#include "actions.h"

#define INLINE static inline __attribute__((always_inline))

enum { PACK = 0, UNPACK = 1 };

INLINE void copy(char *packed, char *mem, size_t n, int dir)
{
  if (dir == PACK)
    memcpy(packed, mem, n);
  else
    memcpy(mem, packed, n);
}

/* any length in [n, 2n]: the first n and the last n bytes */
INLINE void copy_pair(char *packed, char *mem, size_t len, size_t n, int dir)
{
  copy(packed, mem, n, dir);
  copy(packed + len - n, mem + len - n, n, dir);
}

/* Piece fields are read into locals first: stores through char pointers
   may alias anything, so the compiler would reload them every element. */
INLINE char *vec_loop(char *pk, const dl_piece *p, size_t n, int dir)
{
  char *base = p->base;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride, stride = p->stride;
  for (dl_count r = 0; r < reps; r++) {
    char *m = base + r * rs;
    for (dl_count i = 0; i < count; i++) {
      copy(pk, m, n, dir);
      pk += n;
      m += stride;
    }
  }
  return pk;
}

/* every other block (stride twice the block): a constant stride lets the
   compiler vectorize with shuffles, as it does a hand-written a[2 * i] */
INLINE char *vec2_loop(char *pk, const dl_piece *p, size_t n, int dir)
{
  char *base = p->base;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride;
  for (dl_count r = 0; r < reps; r++) {
    char *m = base + r * rs;
    for (dl_count i = 0; i < count; i++)
      copy(pk + i * n, m + 2 * i * n, n, dir);
    pk += count * n;
  }
  return pk;
}

INLINE char *bidx_loop(char *pk, const dl_piece *p, size_t n, int dir)
{
  char *base = p->base;
  const dl_aint *offs = p->offs;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride;
  for (dl_count r = 0; r < reps; r++) {
    char *m = base + r * rs;
    for (dl_count i = 0; i < count; i++) {
      copy(pk, m + offs[i], n, dir);
      pk += n;
    }
  }
  return pk;
}

/* cls: 0 any length (memcpy), else lengths in [cls, 2 * cls] */
INLINE char *idx_loop(char *pk, const dl_piece *p, size_t cls, int dir)
{
  char *base = p->base;
  const dl_aint *offs = p->offs;
  const dl_count *pre = p->pre;
  const dl_count reps = p->reps, count = p->count, pre0 = pre[0];
  const dl_aint rs = p->rep_stride;
  const size_t per = (size_t)(pre[count] - pre0);
  for (dl_count r = 0; r < reps; r++) {
    char *m = base + r * rs;
    for (dl_count i = 0; i < count; i++) {
      size_t len = (size_t)(pre[i + 1] - pre[i]);
      char *q = pk + (pre[i] - pre0);
      if (cls == 0)
        copy(q, m + offs[i], len, dir);
      else
        copy_pair(q, m + offs[i], len, cls, dir);
    }
    pk += per;
  }
  return pk;
}

/* the block sizes worth their own instance of a loop */
#define BY_SIZE(loop, pk, p, n, dir)                                     \
  switch (n) {                                                           \
  case 1: pk = loop(pk, p, 1, dir); break;                               \
  case 2: pk = loop(pk, p, 2, dir); break;                               \
  case 4: pk = loop(pk, p, 4, dir); break;                               \
  case 8: pk = loop(pk, p, 8, dir); break;                               \
  case 12: pk = loop(pk, p, 12, dir); break;                             \
  case 16: pk = loop(pk, p, 16, dir); break;                             \
  case 24: pk = loop(pk, p, 24, dir); break;                             \
  case 32: pk = loop(pk, p, 32, dir); break;                             \
  default: pk = loop(pk, p, n, dir); break;                              \
  }

INLINE size_t do_contig(void *st, const dl_piece *p, int dir)
{
  char **pk = st;
  copy(*pk, p->base, p->blk, dir);
  *pk += p->blk;
  return p->blk;
}

INLINE size_t do_vector(void *st, const dl_piece *p, int dir)
{
  char **cur = st, *pk = *cur;
  if (p->blk == 4 && p->stride == 8)
    pk = vec2_loop(pk, p, 4, dir);
  else if (p->blk == 8 && p->stride == 16)
    pk = vec2_loop(pk, p, 8, dir);
  else
    BY_SIZE(vec_loop, pk, p, p->blk, dir);
  size_t n = (size_t)(pk - *cur);
  *cur = pk;
  return n;
}

INLINE size_t do_blockindexed(void *st, const dl_piece *p, int dir)
{
  char **cur = st, *pk = *cur;
  BY_SIZE(bidx_loop, pk, p, p->blk, dir);
  size_t n = (size_t)(pk - *cur);
  *cur = pk;
  return n;
}

INLINE size_t do_indexed(void *st, const dl_piece *p, int dir)
{
  char **cur = st, *pk = *cur;
  if (p->min_blk == p->max_blk) {
    /* one length: the blockindexed loop over the same offsets */
    dl_piece q = *p;
    q.blk = p->min_blk;
    BY_SIZE(bidx_loop, pk, &q, q.blk, dir);
  } else if (p->min_blk >= 16 && p->max_blk <= 32) {
    pk = idx_loop(pk, p, 16, dir);
  } else if (p->min_blk >= 8 && p->max_blk <= 16) {
    pk = idx_loop(pk, p, 8, dir);
  } else if (p->min_blk >= 4 && p->max_blk <= 8) {
    pk = idx_loop(pk, p, 4, dir);
  } else if (p->min_blk >= 2 && p->max_blk <= 4) {
    pk = idx_loop(pk, p, 2, dir);
  } else {
    pk = idx_loop(pk, p, 0, dir);
  }
  size_t n = (size_t)(pk - *cur);
  *cur = pk;
  return n;
}

static size_t pack_contig(void *st, const dl_piece *p) { return do_contig(st, p, PACK); }
static size_t pack_vector(void *st, const dl_piece *p) { return do_vector(st, p, PACK); }
static size_t pack_bidx(void *st, const dl_piece *p) { return do_blockindexed(st, p, PACK); }
static size_t pack_idx(void *st, const dl_piece *p) { return do_indexed(st, p, PACK); }
static size_t unpack_contig(void *st, const dl_piece *p) { return do_contig(st, p, UNPACK); }
static size_t unpack_vector(void *st, const dl_piece *p) { return do_vector(st, p, UNPACK); }
static size_t unpack_bidx(void *st, const dl_piece *p) { return do_blockindexed(st, p, UNPACK); }
static size_t unpack_idx(void *st, const dl_piece *p) { return do_indexed(st, p, UNPACK); }

const dl_action dli_pack_action = {pack_contig, pack_vector, pack_bidx, pack_idx};
const dl_action dli_unpack_action = {unpack_contig, unpack_vector, unpack_bidx,
                                     unpack_idx};
