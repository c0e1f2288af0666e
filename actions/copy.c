/* Pack and unpack kernels. One template serves both directions and all
 * three blocked leaf kinds; each loop is instantiated per copy class
 * (block.h), so fixed-size blocks compile to plain moves. */
#include "block.h"

/* g repetitions together, a cache line of memory at a time: block i of
   each (g is a constant for whole lines) */
INLINE char *tile_loop(char *pk, char *m, dl_count g, dl_count count, dl_aint rs,
                       dl_aint stride, size_t n, int cls, int dir)
{
  const size_t per = (size_t)count * n;
  for (dl_count i = 0; i < count; i++) {
    for (dl_count q = 0; q < g; q++)
      copy_block(pk + (size_t)q * per + (size_t)i * n, dli_at(m, q * rs), n, cls, dir);
    m = dli_at(m, stride);
  }
  return pk + (size_t)g * per;
}

/* Piece fields are read into locals first: stores through char pointers
   may alias anything, so the compiler would reload them every element. */
INLINE char *vec_loop(char *pk, const dl_piece *p, size_t n, int cls, int dir)
{
  char *base = p->base;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride, stride = p->stride;
  dl_count r = 0;
  const dl_count t = n <= DLI_TILE_BYTES ? DLI_TILE_BYTES / (dl_count)n : 1;
  if (reps > 1 && dli_transposes(reps < t ? t : reps, rs, count, (dl_aint)n, stride)) {
    /* groups begin where memory's lines do (when some repetition starts
       one), so that a line is written whole in one group however the
       stream is cut into pieces: a piece that begins or ends mid-line
       groups the repetitions up to the line's end */
    uintptr_t a = (uintptr_t)base;
    dl_count lead = (-a) % DLI_TILE_BYTES % n ? 0 : (dl_count)((-a) % DLI_TILE_BYTES / n);
    lead = lead < reps ? lead : reps;
    if (lead > 0)
      pk = tile_loop(pk, base, lead, count, rs, stride, n, cls, dir);
    for (r = lead; r + t <= reps; r += t)
      pk = tile_loop(pk, dli_at(base, r * rs), t, count, rs, stride, n, cls, dir);
    if (r < reps)
      pk = tile_loop(pk, dli_at(base, r * rs), reps - r, count, rs, stride, n, cls, dir);
    return pk;
  }
  for (; r < reps; r++) {
    char *m = dli_at(base, r * rs);
    for (dl_count i = 0; i < count; i++) {
      copy_block(pk, m, n, cls, dir);
      pk += n;
      m = dli_at(m, stride);
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
    char *m = dli_at(base, r * rs);
    dl_count i = 0;
    if (dir == UNPACK)
      /* four blocks at a time, stored in address order: left to itself
         the compiler stores them out of order, which costs a quarter of
         the bandwidth of strided stores */
      for (; i + 4 <= count; i += 4) {
        uint64_t v[4];
        for (int k = 0; k < 4; k++)
          memcpy(&v[k], pk + (i + k) * n, n);
        for (int k = 0; k < 4; k++) {
          memcpy(m + 2 * (i + k) * n, &v[k], n);
          __asm__ volatile("" ::: "memory");
        }
      }
    for (; i < count; i++)
      copy(pk + i * n, m + 2 * i * n, n, dir);
    pk += count * n;
  }
  return pk;
}

typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef uint64_t u64x2 __attribute__((vector_size(16)));

INLINE uint64_t load8(const char *at)
{
  uint64_t v;
  memcpy(&v, at, 8);
  return v;
}

INLINE uint32_t load4(const char *at)
{
  uint32_t v;
  memcpy(&v, at, 4);
  return v;
}

/* Packing gathered 4- and 8-byte elements, 16 bytes of the stream are
   assembled in a register and stored at once: a quarter or half the
   stores of a hand loop, which is what bounds a gather whose data is in
   L1. Returns the blocks done. */
INLINE dl_count gather16(char *pk, const char *m, const int32_t *o32, dl_count count, size_t n)
{
  dl_count i = 0;
  if (n == 4)
    for (; i + 4 <= count; i += 4, pk += 16) {
      u32x4 v = {load4(m + o32[i]), load4(m + o32[i + 1]), load4(m + o32[i + 2]),
                 load4(m + o32[i + 3])};
      memcpy(pk, &v, 16);
    }
  else if (n == 8)
    for (; i + 2 <= count; i += 2, pk += 16) {
      u64x2 v = {load8(m + o32[i]), load8(m + o32[i + 1])};
      memcpy(pk, &v, 16);
    }
  return i;
}

INLINE char *bidx_run(char *pk, const dl_piece *p, size_t n, int cls, int dir, bool narrow)
{
  char *base = p->base;
  const dl_aint *offs = p->offs;
  const int32_t *o32 = p->offs32;
  const dl_count reps = p->reps, count = p->count;
  const dl_aint rs = p->rep_stride;
  for (dl_count r = 0; r < reps; r++) {
    char *m = dli_at(base, r * rs);
    dl_count i = 0;
    if (narrow && dir == PACK && (n == 4 || n == 8)) {
      i = gather16(pk, m, o32, count, n);
      pk += (size_t)i * n;
    }
    for (; i < count; i++) {
      copy_block(pk, dli_at(m, offset_at(offs, o32, i, narrow)), n, cls, dir);
      pk += n;
    }
  }
  return pk;
}

INLINE char *bidx_loop(char *pk, const dl_piece *p, size_t n, int cls, int dir)
{
  if (gathers(p, n, cls))
    return bidx_run(pk, p, n, cls, dir, true);
  return bidx_run(pk, p, n, cls, dir, false);
}

enum { IDX_FEW = 4 };

/* Two blocks of mixed lengths repeated (a C struct whose padding splits
   it in two: a 4-byte and a 52-byte run per atom): offsets and lengths in
   scalars beside the length branches of SMALL: the four-slot loop below
   reloads them from memory every atom. Only this class and count:
   scalars for every pattern of up to four blocks slowed the three-block
   patterns (PAIR4) instead (doc/design.md, "Figures behind the kernels"). */
/* initial-exec: no __tls_get_addr call per piece */
static _Thread_local __attribute__((tls_model("initial-exec"))) unsigned long two_uses;

unsigned long dli_two_uses(void)
{
  return two_uses;
}

INLINE char *two_loop(char *pk, const dl_piece *p, int dir)
{
  char *base = p->base;
  const dl_count reps = p->reps, *pre = p->pre;
  const dl_aint rs = p->rep_stride, o0 = p->offs[0], o1 = p->offs[1];
  const size_t len0 = (size_t)(pre[1] - pre[0]), len1 = (size_t)(pre[2] - pre[1]);
  two_uses++;
  for (dl_count r = 0; r < reps; r++) {
    char *m = dli_at(base, r * rs);
    copy_block(pk, dli_at(m, o0), len0, SMALL, dir);
    copy_block(pk + len0, dli_at(m, o1), len1, SMALL, dir);
    pk += len0 + len1;
  }
  return pk;
}

INLINE char *idx_loop(char *pk, const dl_piece *p, size_t n, int cls, int dir)
{
  char *base = p->base;
  const dl_aint *offs = p->offs;
  const dl_count *pre = p->pre;
  const dl_count reps = p->reps, count = p->count, pre0 = pre[0];
  const dl_aint rs = p->rep_stride;
  const size_t per = (size_t)(pre[count] - pre0);
  (void)n;
  if (cls == SMALL && count == 2 && reps > 1)
    return two_loop(pk, p, dir);
  if (count <= IDX_FEW && reps > 1) {
    /* a short pattern repeated (what periodic detection makes of an index
       list): its offsets and lengths live in registers, the block loop
       is unrolled (once, loading them costs more than it saves) */
    dl_aint o[IDX_FEW] = {0}, at[IDX_FEW] = {0};
    size_t len[IDX_FEW] = {0};
    for (dl_count i = 0; i < count; i++) {
      o[i] = offs[i];
      at[i] = pre[i] - pre0;
      len[i] = (size_t)(pre[i + 1] - pre[i]);
    }
    for (dl_count r = 0; r < reps; r++) {
      char *m = dli_at(base, r * rs);
      for (int i = 0; i < IDX_FEW; i++)
        if (i < count)
          copy_block(pk + at[i], dli_at(m, o[i]), len[i], cls, dir);
      pk += per;
    }
    return pk;
  }
  for (dl_count r = 0; r < reps; r++) {
    char *m = dli_at(base, r * rs);
    for (dl_count i = 0; i < count; i++)
      copy_block(pk + (pre[i] - pre0), dli_at(m, offs[i]), (size_t)(pre[i + 1] - pre[i]),
                 cls, dir);
    pk += per;
  }
  return pk;
}

/* every step-th block of a piece (offs advanced to the first), all of
   length n, to or from the stream at pk, group bytes apart */
INLINE char *phase_run(char *pk, const dl_piece *q, size_t n, int cls, int dir, bool narrow)
{
  char *m = q->base;
  const dl_aint *offs = q->offs;
  const int32_t *o32 = q->offs32;
  const dl_count count = q->count, step = q->stride;
  const size_t group = (size_t)q->rep_stride;
  for (dl_count g = 0; g < count; g++)
    copy_block(pk + (size_t)g * group, dli_at(m, offset_at(offs, o32, g * step, narrow)), n,
               cls, dir);
  return pk;
}

INLINE char *phase_loop(char *pk, const dl_piece *q, size_t n, int cls, int dir)
{
  if (gathers(q, n, cls))
    return phase_run(pk, q, n, cls, dir, true);
  return phase_run(pk, q, n, cls, dir, false);
}

/* packed bytes of a tile of groups: the tile's stream and offsets stay in
   L1 while each phase passes over it */
enum { PERIOD_TILE_BYTES = 4096 };

/* Block lengths that repeat every P blocks (dataloop/period.c): per tile
   of groups of P blocks, one pass per phase, each at a constant length;
   the blocks after the last whole group as any indexed blocks. */
static char *period_loop(char *pk, const dl_piece *p, int dir)
{
  const dl_count P = (dl_count)p->period, count = p->count, groups = count / P;
  const dl_count *pre = p->pre;
  const size_t group = (size_t)(pre[P] - pre[0]), per = (size_t)(pre[count] - pre[0]);
  const dl_count tile = group >= PERIOD_TILE_BYTES / 16 ? 16
                                                       : (dl_count)(PERIOD_TILE_BYTES / group);
  size_t at[DLI_PERIOD_MAX], len[DLI_PERIOD_MAX];
  for (dl_count j = 0; j < P; j++) {
    at[j] = (size_t)(pre[j] - pre[0]);
    len[j] = (size_t)(pre[j + 1] - pre[j]);
  }
  dl_piece rest = *p;
  rest.reps = 1;
  rest.count = count - groups * P;
  rest.offs = p->offs + groups * P;
  rest.offs32 = p->offs32 ? p->offs32 + groups * P : NULL;
  rest.pre = pre + groups * P;
  for (dl_count r = 0; r < p->reps; r++) {
    char *m = dli_at(p->base, r * p->rep_stride);
    for (dl_count g0 = 0; g0 < groups; g0 += tile) {
      dl_count gn = groups - g0 < tile ? groups - g0 : tile;
      for (dl_count j = 0; j < P; j++) {
        dl_piece q = {.base = m, .offs = p->offs + g0 * P + j, .count = gn, .stride = P,
                      .rep_stride = (dl_aint)group,
                      .offs32 = p->offs32 ? p->offs32 + g0 * P + j : NULL};
        char *out = pk + (size_t)g0 * group + at[j];
        DISPATCH(phase_loop, out, &q, len[j], len[j], dir);
      }
    }
    if (rest.count > 0) {
      char *out = pk + (size_t)groups * group;
      rest.base = m;
      DISPATCH(idx_loop, out, &rest, rest.min_blk, rest.max_blk, dir);
    }
    pk += per;
  }
  return pk;
}

/* a period pays where there are groups enough to pass over; unpacking
   phase by phase needs phases that share no byte */
static bool by_period(const dl_piece *p, int dir)
{
  return p->period >= 2 && p->count >= 8 * (dl_count)p->period &&
         (dir == PACK || p->apart);
}

INLINE size_t do_contig(void *st, const dl_piece *p, int dir)
{
  char **pk = st;
  copy(*pk, p->base, p->blk, dir);
  *pk += p->blk;
  return p->blk;
}

/* Unpacking blocks of 257 bytes to 1 KiB (rows of a 3D face): a loop of
   32-byte moves, compiled for AVX2 and taken where the CPU has it,
   instead of a memcpy call per block. glibc's call ran at 0.74 of the
   manual loop on the XZ face's 1 KiB rows, 256 KiB apart (their cache sets
   alias), the loop at 0.96; packing such rows, and unpacking 2 KiB ones,
   the call was faster (1.28 against 0.98 of manual; 1.00 against 0.92). */
enum { ROWS_MIN = 257, ROWS_MAX = 1024 };
static _Thread_local unsigned long rows_uses;

unsigned long dli_rows_uses(void)
{
  return rows_uses;
}
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("avx2"))) static inline void row32(char *to, const char *from,
                                                          size_t n)
{
  size_t i = 0;
  for (; i + 32 < n; i += 32)
    _mm256_storeu_si256((__m256i *)(to + i), _mm256_loadu_si256((const __m256i *)(from + i)));
  _mm256_storeu_si256((__m256i *)(to + n - 32),
                      _mm256_loadu_si256((const __m256i *)(from + n - 32)));
}

/* a vector or blockindexed piece of such blocks (offs NULL: a vector) */
__attribute__((target("avx2"))) static char *rows_avx2(char *pk, const dl_piece *p, int dir)
{
  const size_t n = p->blk;
  rows_uses++;
  for (dl_count r = 0; r < p->reps; r++) {
    char *m = dli_at(p->base, r * p->rep_stride);
    for (dl_count i = 0; i < p->count; i++) {
      char *b = dli_at(m, p->offs ? p->offs[i] : i * p->stride);
      if (dir == PACK)
        row32(pk, b, n);
      else
        row32(b, pk, n);
      pk += n;
    }
  }
  return pk;
}

static bool rows(const dl_piece *p, int dir)
{
  return dir == UNPACK && p->blk >= ROWS_MIN && p->blk <= ROWS_MAX &&
         __builtin_cpu_supports("avx2");
}
#else
static bool rows(const dl_piece *p, int dir)
{
  (void)p;
  (void)dir;
  return false;
}
static char *rows_avx2(char *pk, const dl_piece *p, int dir)
{
  (void)p;
  (void)dir;
  return pk;
}
#endif

INLINE size_t do_vector(void *st, const dl_piece *p, int dir)
{
  char **cur = st, *pk = *cur;
  if (rows(p, dir))
    pk = rows_avx2(pk, p, dir);
  else if (p->blk == 4 && p->stride == 8)
    pk = vec2_loop(pk, p, 4, dir);
  else if (p->blk == 8 && p->stride == 16)
    pk = vec2_loop(pk, p, 8, dir);
  else
    DISPATCH(vec_loop, pk, p, p->blk, p->blk, dir);
  size_t n = (size_t)(pk - *cur);
  *cur = pk;
  return n;
}

INLINE size_t do_blockindexed(void *st, const dl_piece *p, int dir)
{
  char **cur = st, *pk = *cur;
  if (rows(p, dir))
    pk = rows_avx2(pk, p, dir);
  else
    DISPATCH(bidx_loop, pk, p, p->blk, p->blk, dir);
  size_t n = (size_t)(pk - *cur);
  *cur = pk;
  return n;
}

INLINE size_t do_indexed(void *st, const dl_piece *p, int dir)
{
  char **cur = st, *pk = *cur;
  if (p->min_blk == p->max_blk) {
    dl_piece q = *p;               /* one length: the blockindexed loops */
    q.blk = p->min_blk;
    DISPATCH(bidx_loop, pk, &q, q.blk, q.blk, dir);
  } else if (by_period(p, dir)) {
    pk = period_loop(pk, p, dir);
  } else {
    DISPATCH(idx_loop, pk, p, p->min_blk, p->max_blk, dir);
  }
  size_t n = (size_t)(pk - *cur);
  *cur = pk;
  return n;
}

/* one block of any length (lengths of a leaf are at least 1) */
INLINE void copy_any(char *q, char *m, size_t n, int dir)
{
  copy_block(q, m, n, ANY, dir);
}

/* initial-exec: no __tls_get_addr call on the per-call path */
static _Thread_local __attribute__((tls_model("initial-exec"))) unsigned long few_uses;

unsigned long dli_few_uses(void)
{
  return few_uses;
}

INLINE size_t move_few(const dli_loop *l, uintptr_t user, char *pk, int dir)
{
  char *base = (char *)(user + (uintptr_t)l->offset);
  const dl_count count = l->count;
  const size_t blk = (size_t)l->blocklen;
  few_uses++;
  if (l->kind == DLI_INDEXED) {
    const dl_count *pre = l->pre;
    for (dl_count i = 0; i < count; i++)
      copy_any(pk + pre[i], dli_at(base, l->offs[i]), (size_t)(pre[i + 1] - pre[i]), dir);
    return (size_t)pre[count];
  }
  for (dl_count i = 0; i < count; i++)
    copy_any(pk + (size_t)i * blk,
             dli_at(base, l->kind == DLI_VECTOR ? i * l->stride : l->offs[i]), blk, dir);
  return (size_t)count * blk;
}

size_t dli_move_few(const dli_loop *l, uintptr_t user, char *packed, bool pack)
{
  return pack ? move_few(l, user, packed, PACK) : move_few(l, user, packed, UNPACK);
}

static size_t pack_contig(void *st, const dl_piece *p) { return do_contig(st, p, PACK); }
static size_t pack_vector(void *st, const dl_piece *p) { return do_vector(st, p, PACK); }
static size_t pack_bidx(void *st, const dl_piece *p) { return do_blockindexed(st, p, PACK); }
static size_t pack_idx(void *st, const dl_piece *p) { return do_indexed(st, p, PACK); }
static size_t unpack_contig(void *st, const dl_piece *p) { return do_contig(st, p, UNPACK); }
static size_t unpack_vector(void *st, const dl_piece *p) { return do_vector(st, p, UNPACK); }
static size_t unpack_bidx(void *st, const dl_piece *p) { return do_blockindexed(st, p, UNPACK); }
static size_t unpack_idx(void *st, const dl_piece *p) { return do_indexed(st, p, UNPACK); }

static size_t bulk(void *st, const dli_loop *l, uintptr_t origin, dl_count e0,
                   dl_count e1, size_t bytes, int dir)
{
  dli_jit_fn f = dli_jit_get(l, dir);
  if (!f)
    return 0;
  char **cur = st;
  f((char *)origin, *cur, e0, e1);
  *cur += bytes;
  return bytes;
}

size_t dli_pack_bulk(void *st, const dli_loop *l, uintptr_t origin, dl_count e0,
                     dl_count e1, size_t bytes)
{
  return bulk(st, l, origin, e0, e1, bytes, DLI_JIT_PACK);
}

size_t dli_unpack_bulk(void *st, const dli_loop *l, uintptr_t origin, dl_count e0,
                       dl_count e1, size_t bytes)
{
  return bulk(st, l, origin, e0, e1, bytes, DLI_JIT_UNPACK);
}

const dl_action dli_pack_action = {pack_contig, pack_vector, pack_bidx, pack_idx};
const dl_action dli_unpack_action = {unpack_contig, unpack_vector, unpack_bidx,
                                     unpack_idx};
