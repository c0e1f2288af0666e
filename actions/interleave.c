/* Packing a type whose root repeats one element n times a few bytes apart,
 * the copies interleaved with each other's data (Flash I/O's variables of
 * a cell, stored together and packed one variable after another). The
 * stream order reads every cache line of the element once per copy; here
 * the element is walked once, and each group of its blocks that fills an
 * output cache line is copied to all n copies' places in the stream before
 * the next. Only the order of the stores changes, and a pack's stores
 * never overlap, so the bytes are the stream's. */
#include <string.h>
#include "actions.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#define LINE 64
#define STACK_FRAMES 32

typedef struct ilv {
  char *out;          /* copy 0's stream; copy q's is q * size further */
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

/* blocks of the group: packed offset in the element's stream, address of
   copy 0, bytes */
typedef struct group {
  size_t at[LINE];
  const char *src[LINE];
  size_t len[LINE];
  int k;
} group;

/* each copy's blocks of the group, copy by copy; blocks of one size
   (all of a group, for vector and blockindexed leaves) as constant-size
   moves */
static void flush(const ilv *v, group *g, size_t same)
{
  for (dl_count q = 0; q < v->n; q++) {
    char *o = v->out + (size_t)q * v->size;
    const dl_aint d = q * v->step;
    if (same == 8)
      for (int b = 0; b < g->k; b++)
        memcpy(o + g->at[b], dli_at(g->src[b], d), 8);
    else if (same == 4)
      for (int b = 0; b < g->k; b++)
        memcpy(o + g->at[b], dli_at(g->src[b], d), 4);
    else
      for (int b = 0; b < g->k; b++)
        memcpy(o + g->at[b], dli_at(g->src[b], d), g->len[b]);
  }
  g->k = 0;
}

/* the piece's blocks in stream order, grouped a line of output at a time */
static size_t piece(void *st, const dl_piece *p, int kind)
{
  const ilv *v = st;
  group g;
  g.k = 0;
  size_t at = p->pos, fill = 0;
  size_t same = kind == DLI_INDEXED ? 0 : p->blk;
  for (dl_count r = 0; r < p->reps; r++) {
    const char *m = dli_at(p->base, r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i++) {
      size_t len = kind == DLI_INDEXED ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      g.src[g.k] = kind == DLI_VECTOR ? dli_at(m, i * p->stride) : dli_at(m, p->offs[i]);
      g.at[g.k] = at;
      g.len[g.k++] = len;
      at += len;
      fill += len;
      if (fill >= LINE || g.k == LINE) {
        flush(v, &g, same);
        fill = 0;
      }
    }
  }
  if (g.k)
    flush(v, &g, same);
  return at - p->pos;
}

static size_t on_contig(void *st, const dl_piece *p)
{
  return piece(st, &(dl_piece){.base = p->base, .reps = 1, .count = 1, .blk = p->blk,
                               .pos = p->pos}, DLI_VECTOR);
}
static size_t on_vector(void *st, const dl_piece *p) { return piece(st, p, DLI_VECTOR); }
static size_t on_bidx(void *st, const dl_piece *p) { return piece(st, p, DLI_BLOCKINDEXED); }
static size_t on_indexed(void *st, const dl_piece *p) { return piece(st, p, DLI_INDEXED); }

static const dl_action interleave_action = {on_contig, on_vector, on_bidx, on_indexed};

bool dli_interleaves(const dli_loop *l, size_t size)
{
  /* copies of one element (a leaf child is the fused transpose's case),
     a step apart that is small against what the element spans */
  if (l->leaf || l->fuse || l->kind != DLI_VECTOR || l->blocklen != 1 || l->count < 2 ||
      l->count > DLI_INTERLEAVE_MAX || l->stride <= 0 || l->el_size <= 0)
    return false;
  const dli_loop *c = l->child;
  dl_aint span;
  if (__builtin_mul_overflow(l->count, l->stride, &span) || span > c->tub - c->tlb ||
      c->depth + 1 > STACK_FRAMES || forced < 0)
    return false;
  return forced > 0 || size >= dli_interleave_threshold();
}

void dli_interleave_pack(const dli_loop *l, uintptr_t user, char *out)
{
  const dli_loop *c = l->child;
  dl_segment *s = __builtin_alloca(dli_segment_bytes(STACK_FRAMES));
  ilv v = {out, (size_t)c->size, l->count, l->stride};
  dli_segment_init_loop(s, STACK_FRAMES, user + (uintptr_t)l->offset, c);
  size_t last = v.size;
  dli_segment_run(s, 0, &last, &interleave_action, &v, NULL);
  uses++;
}
