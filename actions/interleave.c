/* Packing and unpacking a type whose root repeats one element n times a
 * few bytes apart, the copies interleaved with each other's data (Flash
 * I/O's variables of a cell, stored together and packed one variable after
 * another). The stream order touches every cache line of the element once
 * per copy; here the element is walked once, and each group of its blocks
 * that fills a cache line of the stream is copied for all n copies before
 * the next. Only the order of the stores changes: a pack never stores a
 * stream byte twice, and an unpack goes this way only where no two blocks
 * of memory can overlap. */
#include <string.h>
#include "actions.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#define LINE 64

typedef struct ilv {
  char *stream;       /* copy 0's stream; copy q's is q * size further */
  size_t size;        /* packed bytes of one element */
  dl_count n;         /* copies */
  dl_aint step;       /* bytes between copies in memory */
} ilv;

static _Thread_local unsigned long uses;
static _Thread_local int forced;

unsigned long dli_interleave_uses(void)
{
  return uses;
}

void dli_interleave_force(int how)
{
  forced = how;
}

/* blocks of the group: offset in the element's stream, address of copy
   0, bytes */
typedef struct group {
  size_t at[LINE];
  char *mem[LINE];
  size_t len[LINE];
  int k;
} group;

#define INLINE static inline __attribute__((always_inline))
enum { PACK, UNPACK };

INLINE void move(char *s, char *m, size_t n, int dir)
{
  if (dir == PACK)
    memcpy(s, m, n);
  else
    memcpy(m, s, n);
}

/* each copy's blocks of the group, copy by copy; blocks of one common size
   (all of a group, for vector and blockindexed leaves) as constant-size
   moves */
INLINE void flush(const ilv *v, group *g, size_t same, int dir)
{
  for (dl_count q = 0; q < v->n; q++) {
    char *s = v->stream + (size_t)q * v->size;
    const dl_aint d = q * v->step;
    if (same == 8)
      for (int b = 0; b < g->k; b++)
        move(s + g->at[b], dli_at(g->mem[b], d), 8, dir);
    else if (same == 4)
      for (int b = 0; b < g->k; b++)
        move(s + g->at[b], dli_at(g->mem[b], d), 4, dir);
    else
      for (int b = 0; b < g->k; b++)
        move(s + g->at[b], dli_at(g->mem[b], d), g->len[b], dir);
  }
  g->k = 0;
}

/* k blocks of blk bytes, stride apart from m, whose stream starts at `at`,
   for every copy: a vector's group, its addresses computed rather than
   listed (two loads a move fewer) */
INLINE void strided(const ilv *v, size_t at, char *m, dl_count k, size_t blk, dl_aint stride,
                    int dir)
{
  for (dl_count q = 0; q < v->n; q++) {
    char *s = v->stream + (size_t)q * v->size + at, *mq = dli_at(m, q * v->step);
    if (blk == 8)
      for (dl_count b = 0; b < k; b++)
        move(s + 8 * b, dli_at(mq, b * stride), 8, dir);
    else if (blk == 4)
      for (dl_count b = 0; b < k; b++)
        move(s + 4 * b, dli_at(mq, b * stride), 4, dir);
    else
      for (dl_count b = 0; b < k; b++)
        move(s + (size_t)b * blk, dli_at(mq, b * stride), blk, dir);
  }
}

INLINE size_t vector_piece(const ilv *v, const dl_piece *p, int dir)
{
  const size_t blk = p->blk;
  const dl_count per = blk >= LINE ? 1 : (dl_count)(LINE / blk);
  size_t at = p->pos;
  for (dl_count r = 0; r < p->reps; r++) {
    char *m = dli_at(p->base, r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i += per) {
      dl_count k = p->count - i < per ? p->count - i : per;
      strided(v, at, dli_at(m, i * p->stride), k, blk, p->stride, dir);
      at += (size_t)k * blk;
    }
  }
  return at - p->pos;
}

/* the piece's blocks in stream order, grouped a line of stream at a time */
INLINE size_t piece(void *st, const dl_piece *p, int kind, int dir)
{
  const ilv *v = st;
  if (kind == DLI_VECTOR)
    return vector_piece(v, p, dir);
  group g;
  g.k = 0;
  size_t at = p->pos, fill = 0;
  size_t same = kind == DLI_INDEXED ? 0 : p->blk;
  for (dl_count r = 0; r < p->reps; r++) {
    char *m = dli_at(p->base, r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i++) {
      size_t len = kind == DLI_INDEXED ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      g.mem[g.k] = kind == DLI_VECTOR ? dli_at(m, i * p->stride) : dli_at(m, p->offs[i]);
      g.at[g.k] = at;
      g.len[g.k++] = len;
      at += len;
      fill += len;
      if (fill >= LINE || g.k == LINE) {
        flush(v, &g, same, dir);
        fill = 0;
      }
    }
  }
  if (g.k)
    flush(v, &g, same, dir);
  return at - p->pos;
}

INLINE size_t one_block(void *st, const dl_piece *p, int dir)
{
  return piece(st, &(dl_piece){.base = p->base, .reps = 1, .count = 1, .blk = p->blk,
                               .pos = p->pos}, DLI_VECTOR, dir);
}

static size_t pk_contig(void *st, const dl_piece *p) { return one_block(st, p, PACK); }
static size_t pk_vector(void *st, const dl_piece *p) { return piece(st, p, DLI_VECTOR, PACK); }
static size_t pk_bidx(void *st, const dl_piece *p) { return piece(st, p, DLI_BLOCKINDEXED, PACK); }
static size_t pk_indexed(void *st, const dl_piece *p) { return piece(st, p, DLI_INDEXED, PACK); }
static size_t up_contig(void *st, const dl_piece *p) { return one_block(st, p, UNPACK); }
static size_t up_vector(void *st, const dl_piece *p) { return piece(st, p, DLI_VECTOR, UNPACK); }
static size_t up_bidx(void *st, const dl_piece *p) { return piece(st, p, DLI_BLOCKINDEXED, UNPACK); }
static size_t up_indexed(void *st, const dl_piece *p) { return piece(st, p, DLI_INDEXED, UNPACK); }

static const dl_action actions[2] = {{pk_contig, pk_vector, pk_bidx, pk_indexed},
                                     {up_contig, up_vector, up_bidx, up_indexed}};

bool dli_interleaves(const dli_loop *l, size_t size, bool pack, size_t threshold)
{
  /* copies of one element (a leaf child is the fused transpose's case),
     a step apart that is small against what the element spans */
  if (l->leaf || l->fuse || l->kind != DLI_VECTOR || l->blocklen != 1 || l->count < 2 ||
      l->count > DLI_INTERLEAVE_MAX || l->stride <= 0 || l->el_size <= 0)
    return false;
  const dli_loop *c = l->child;
  dl_aint span, ls;
  dl_count blk;
  if (__builtin_mul_overflow(l->count, l->stride, &span) || span > c->tub - c->tlb ||
      c->depth + 1 > DLI_STACK_FRAMES || forced < 0)
    return false;
  /* unpacking: the copies of one block, (n - 1) * step + blk bytes, clear
     of every other block */
  if (!pack && !dli_regular_disjoint(c, (l->count - 1) * l->stride, &ls, &blk))
    return false;
  return forced > 0 || size >= threshold;
}

bool dli_type_interleaves(const dl_type *t, dl_count count, size_t threshold)
{
  return count == 1 && t->loop && dli_interleaves(t->loop, (size_t)t->b.size, true, threshold);
}

bool dli_interleave_whole(const dl_type *t, dl_count count, uintptr_t user, char *stream,
                          size_t n, bool pack, bool compiled, size_t threshold)
{
  /* compiled code unpacks such types reordered, faster still; it packs
     them in stream order, slower (doc/codegen.md) */
  const dli_loop *l = t->loop;
  if (count != 1 || n != (size_t)t->b.size || l->leaf || (!pack && compiled) ||
      !dli_interleaves(l, n, pack, threshold))
    return false;
  dli_interleave_run(l, user, stream, pack);
  return true;
}

void dli_interleave_run(const dli_loop *l, uintptr_t user, char *stream, bool pack)
{
  const dli_loop *c = l->child;
  dl_segment *s = __builtin_alloca(dli_segment_bytes(DLI_STACK_FRAMES));
  ilv v = {stream, (size_t)c->size, l->count, l->stride};
  dli_segment_init_loop(s, DLI_STACK_FRAMES, user + (uintptr_t)l->offset, c);
  size_t last = v.size;
  dli_segment_run(s, 0, &last, &actions[pack ? PACK : UNPACK], &v, NULL);
  uses++;
}
