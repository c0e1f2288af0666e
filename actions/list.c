/* The list actions: iovec entries and (offset, length) pairs, one per
 * contiguous block, adjacent blocks merged, stopping cleanly at a block
 * boundary when the list is full; and the count of such entries. */
#include "actions.h"

#define INLINE static inline __attribute__((always_inline))

enum { IOV, OFFLEN, COUNT };

/* appends [addr, addr + len) or extends the last entry; false when full */
INLINE bool add(void *st, uintptr_t addr, size_t len, int kind)
{
  if (kind == COUNT) {
    struct dli_count_state *s = st;
    if (!s->n || s->end != addr)
      s->n++;
    s->end = addr + len;
    return true;
  }
  if (kind == IOV) {
    struct dli_iov_state *s = st;
    struct iovec *last = s->n ? &s->iov[s->n - 1] : NULL;
    if (last && (uintptr_t)last->iov_base + last->iov_len == addr) {
      last->iov_len += len;
      return true;
    }
    if (s->n == s->max)
      return false;
    s->iov[s->n++] = (struct iovec){(void *)addr, len};
    return true;
  }
  struct dli_offlen_state *s = st;
  int64_t off = (int64_t)(addr - s->buf);
  if (s->n && s->offs[s->n - 1] + s->lens[s->n - 1] == off) {
    s->lens[s->n - 1] += (int64_t)len;
    return true;
  }
  if (s->n == s->max)
    return false;
  s->offs[s->n] = off;
  s->lens[s->n++] = (int64_t)len;
  return true;
}

INLINE size_t blocks(void *st, const dl_piece *p, int kind)
{
  size_t done = 0;
  for (dl_count r = 0; r < p->reps; r++) {
    uintptr_t b = (uintptr_t)p->base + (uintptr_t)(r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i++) {
      uintptr_t at = b + (uintptr_t)(p->offs ? p->offs[i] : i * p->stride);
      size_t len = p->pre ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      if (!add(st, at, len, kind))
        return done;
      done += len;
    }
  }
  return done;
}

INLINE size_t one(void *st, const dl_piece *p, int kind)
{
  return add(st, (uintptr_t)p->base, p->blk, kind) ? p->blk : 0;
}

static size_t iov_contig(void *st, const dl_piece *p) { return one(st, p, IOV); }
static size_t iov_blocks(void *st, const dl_piece *p) { return blocks(st, p, IOV); }
static size_t ol_contig(void *st, const dl_piece *p) { return one(st, p, OFFLEN); }
static size_t ol_blocks(void *st, const dl_piece *p) { return blocks(st, p, OFFLEN); }

static size_t n_contig(void *st, const dl_piece *p) { return one(st, p, COUNT); }
static size_t n_blocks(void *st, const dl_piece *p) { return blocks(st, p, COUNT); }

const dl_action dli_iov_action = {iov_contig, iov_blocks, iov_blocks, iov_blocks};
const dl_action dli_offlen_action = {ol_contig, ol_blocks, ol_blocks, ol_blocks};
const dl_action dli_count_action = {n_contig, n_blocks, n_blocks, n_blocks};
