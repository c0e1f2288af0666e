/* external32 actions for types of one basic type: every block of every
 * leaf is then whole elements of that type, so a leaf loop converts as it
 * copies, in one pass, like the native kernels. Blocks of one lane (a
 * vector of floats, an indexed list of doubles) get their own loops: a
 * load, a byte swap and a store per block. */
#include <string.h>
#include "actions.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#define INLINE static inline __attribute__((always_inline))

enum { ENC = 0, DEC = 1 };

INLINE void swap_lane(char *d, const char *s, int w)
{
  switch (w) {
  case 2: { uint16_t v; memcpy(&v, s, 2); v = __builtin_bswap16(v); memcpy(d, &v, 2); break; }
  case 4: { uint32_t v; memcpy(&v, s, 4); v = __builtin_bswap32(v); memcpy(d, &v, 4); break; }
  case 8: { uint64_t v; memcpy(&v, s, 8); v = __builtin_bswap64(v); memcpy(d, &v, 8); break; }
  default: {
    uint64_t lo, hi;
    memcpy(&lo, s, 8);
    memcpy(&hi, s + 8, 8);
    lo = __builtin_bswap64(lo);
    hi = __builtin_bswap64(hi);
    memcpy(d, &hi, 8);
    memcpy(d + 8, &lo, 8);
  }
  }
}

/* one block of len native bytes at m, to or from the stream at *x */
INLINE void block(struct dli_x32_state *st, char *m, size_t len, int dir)
{
  const dli_basic *b = &dli_basics[st->basic];
  size_t n = len / b->nsize;
  if (dir == ENC)
    dli_x32_encode(st->basic, m, st->cur, n);
  else
    dli_x32_decode(st->basic, st->cur, m, n);
  st->cur += n * b->xsize;
}

/* blocks that are one lane of a swapped type: w is a constant in each
   instance */
INLINE void lanes(char *base, dl_count reps, dl_aint rstride, dl_count count,
                  dl_aint stride, const dl_aint *offs, char **cur, int w, int dir)
{
  char *x = *cur;
  for (dl_count r = 0; r < reps; r++) {
    char *b = dli_at(base, r * rstride);      /* addresses modulo 2^64 */
    if (offs) {
      for (dl_count i = 0; i < count; i++, x += w) {
        char *m = dli_at(b, offs[i]);
        dir == ENC ? swap_lane(x, m, w) : swap_lane(m, x, w);
      }
    } else {
      char *m = b;
      for (dl_count i = 0; i < count; i++, x += w, m = dli_at(m, stride))
        dir == ENC ? swap_lane(x, m, w) : swap_lane(m, x, w);
    }
  }
  *cur = x;
}

/* any piece of a swapped type whose lanes are w bytes (a constant in each
   instance): short blocks lane by lane inline, long ones by the vectorized
   run kernels */
INLINE void swap_piece(struct dli_x32_state *st, const dl_piece *p, int w, int dir)
{
  char *x = st->cur;
  for (dl_count r = 0; r < p->reps; r++) {
    char *base = dli_at(p->base, r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i++) {
      size_t len = p->pre ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      char *m = dli_at(base, p->offs ? p->offs[i] : i * p->stride);
      if (len > 64) {
        size_t n = len / dli_basics[st->basic].nsize;
        if (dir == ENC)
          dli_x32_encode(st->basic, m, x, n);
        else
          dli_x32_decode(st->basic, x, m, n);
      } else {
        for (size_t k = 0; k < len; k += (size_t)w)
          dir == ENC ? swap_lane(x + k, m + k, w) : swap_lane(m + k, x + k, w);
      }
      x += len;
    }
  }
  st->cur = x;
}

INLINE size_t run_piece(void *state, const dl_piece *p, int dir)
{
  struct dli_x32_state *st = state;
  const dli_basic *b = &dli_basics[st->basic];
  int w = b->nsize / b->lanes;
  if (b->conv == DLI_X_SWAP) {
    const dl_aint *offs = p->offs;
    if (!p->pre && p->blk == (size_t)w) {      /* a lane per block */
      switch (w) {
      case 2: lanes(p->base, p->reps, p->rep_stride, p->count, p->stride, offs, &st->cur, 2, dir); break;
      case 4: lanes(p->base, p->reps, p->rep_stride, p->count, p->stride, offs, &st->cur, 4, dir); break;
      case 8: lanes(p->base, p->reps, p->rep_stride, p->count, p->stride, offs, &st->cur, 8, dir); break;
      default: lanes(p->base, p->reps, p->rep_stride, p->count, p->stride, offs, &st->cur, 16, dir); break;
      }
    } else {
      switch (w) {
      case 2: swap_piece(st, p, 2, dir); break;
      case 4: swap_piece(st, p, 4, dir); break;
      case 8: swap_piece(st, p, 8, dir); break;
      default: swap_piece(st, p, 16, dir); break;
      }
    }
    return dl_piece_bytes(p);
  }
  for (dl_count r = 0; r < p->reps; r++) {
    char *base = dli_at(p->base, r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i++) {
      size_t len = p->pre ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      char *m = dli_at(base, p->offs ? p->offs[i] : i * p->stride);
      block(st, m, len, dir);
    }
  }
  return dl_piece_bytes(p);
}

static size_t pack_contig(void *state, const dl_piece *p)
{
  block(state, p->base, p->blk, ENC);
  return p->blk;
}

static size_t unpack_contig(void *state, const dl_piece *p)
{
  block(state, p->base, p->blk, DEC);
  return p->blk;
}

static size_t pack_piece(void *state, const dl_piece *p)
{
  return run_piece(state, p, ENC);
}

static size_t unpack_piece(void *state, const dl_piece *p)
{
  return run_piece(state, p, DEC);
}

const dl_action dli_x32_pack_action = {pack_contig, pack_piece, pack_piece, pack_piece};
const dl_action dli_x32_unpack_action = {unpack_contig, unpack_piece, unpack_piece,
                                         unpack_piece};
