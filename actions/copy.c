/* Pack and unpack kernels. One template serves both directions and all
 * three blocked leaf kinds. Each loop is instantiated per copy class, so
 * fixed-size blocks compile to plain moves: exact sizes that are common,
 * two overlapping moves for any length in [k, 2k], 32-byte moves up to 256
 * bytes, and memcpy beyond. The class is chosen once per leaf loop. */
#include <string.h>
#include "actions.h"

/* The kernels are the hot path: let the compiler vectorize them with its
   full cost model (the library is otherwise built -O2). Functions start
   on a cache line and loops on 32 bytes, so that a change elsewhere in
   the file does not move them: one more loop here once took the 2,000-float
   gather's unpack from 0.84-1.24 of the manual loop to 0.58-0.78, and
   0.86-0.98 with these alignments (AMD Zen 4). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3", "align-functions=64", "align-loops=32")
#endif

#define INLINE static inline __attribute__((always_inline))

enum { PACK = 0, UNPACK = 1 };
enum { EXACT, PAIR2, PAIR4, PAIR8, PAIR16, PAIR32, CHUNK32, SMALL, ANY };

INLINE void copy(char *packed, char *mem, size_t n, int dir)
{
  if (dir == PACK)
    memcpy(packed, mem, n);
  else
    memcpy(mem, packed, n);
}

/* a block of any length: long ones may meet glibc's slow case */
INLINE void copy_long(char *packed, char *mem, size_t n, int dir)
{
  if (dir == PACK)
    dli_memcpy(packed, mem, n);
  else
    dli_memcpy(mem, packed, n);
}

/* any length in [k, 2k]: the first k and the last k bytes */
INLINE void copy_pair(char *q, char *m, size_t len, size_t k, int dir)
{
  copy(q, m, k, dir);
  copy(q + len - k, m + len - k, k, dir);
}

/* one block of len bytes; len is a constant for EXACT */
INLINE void copy_block(char *q, char *m, size_t len, int cls, int dir)
{
  size_t k;
  switch (cls) {
  case EXACT: copy(q, m, len, dir); return;
  case PAIR2: k = 2; break;
  case PAIR4: k = 4; break;
  case PAIR8: k = 8; break;
  case PAIR16: k = 16; break;
  case PAIR32: k = 32; break;
  case CHUNK32:
    for (size_t i = 0; i + 32 < len; i += 32)
      copy(q + i, m + i, 32, dir);
    copy(q + len - 32, m + len - 32, 32, dir);
    return;
  case SMALL:                      /* mixed lengths up to 64: no call */
    /* each branch with its own constant k, so the two copies are moves
       (one k computed at run time made them memcpy calls) */
    if (len >= 32) k = 32;
    else if (len >= 16) { copy_pair(q, m, len, 16, dir); return; }
    else if (len >= 8) { copy_pair(q, m, len, 8, dir); return; }
    else if (len >= 4) { copy_pair(q, m, len, 4, dir); return; }
    else if (len >= 2) { copy_pair(q, m, len, 2, dir); return; }
    else { copy(q, m, 1, dir); return; }
    break;
  default: copy_long(q, m, len, dir); return;
  }
  copy_pair(q, m, len, k, dir);
}

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

/* Blocks of a gather's size (an element or a few) read their offsets in
   4 bytes where the piece has them so (offs32), as a hand loop reads int
   indices: 8-byte offsets double the metadata, and their stream, running
   at twice the packed one's rate, meets it modulo 4 KiB (the loads then
   wait on unrelated stores): 1.4 us against 1.0 for 2000 floats. */
enum { GATHER_MAX = 32 };

INLINE dl_aint offset_at(const dl_aint *offs, const int32_t *offs32, dl_count i, bool narrow)
{
  return narrow ? (dl_aint)offs32[i] : offs[i];
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
   stores of a hand loop (in L1, 200 floats in 58 ns against its 77).
   Returns the blocks done. */
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

INLINE bool gathers(const dl_piece *p, size_t n, int cls)
{
  return cls == EXACT && n <= GATHER_MAX && p->offs32;
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
   scalars beside the length branches of SMALL. The four-slot loop below
   ran such atoms at 0.38-0.44 of a manual field-by-field loop, this one at
   0.81. Only this class and count: scalars for every pattern of up to
   four blocks slowed the Indexed suite's 8 + 4 + 8 bytes (PAIR4) 1.65x. */
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

/* the class of blocks whose lengths lie in [lo, hi] */
static int copy_class(size_t lo, size_t hi)
{
  if (lo >= 32 && hi <= 64) return PAIR32;
  if (lo >= 16 && hi <= 32) return PAIR16;
  if (lo >= 8 && hi <= 16) return PAIR8;
  if (lo >= 4 && hi <= 8) return PAIR4;
  if (lo >= 2 && hi <= 4) return PAIR2;
  if (lo >= 32 && hi <= 256) return CHUNK32;
  if (hi <= 64) return SMALL;
  return ANY;
}

static bool exact_size(size_t lo, size_t hi)
{
  switch (lo) {
  case 1: case 2: case 4: case 8: case 12: case 16: case 24: case 32:
  case 40: case 48: case 64:
    return lo == hi;
  default:
    return false;
  }
}

/* one instance of `loop` per common exact size, then by class */
#define DISPATCH(loop, pk, p, lo, hi, dir)                                  \
  do {                                                                      \
    if (exact_size(lo, hi)) {                                               \
      switch (lo) {                                                         \
      case 1: pk = loop(pk, p, 1, EXACT, dir); break;                       \
      case 2: pk = loop(pk, p, 2, EXACT, dir); break;                       \
      case 4: pk = loop(pk, p, 4, EXACT, dir); break;                       \
      case 8: pk = loop(pk, p, 8, EXACT, dir); break;                       \
      case 12: pk = loop(pk, p, 12, EXACT, dir); break;                     \
      case 16: pk = loop(pk, p, 16, EXACT, dir); break;                     \
      case 24: pk = loop(pk, p, 24, EXACT, dir); break;                     \
      case 32: pk = loop(pk, p, 32, EXACT, dir); break;                     \
      case 40: pk = loop(pk, p, 40, EXACT, dir); break;                     \
      case 48: pk = loop(pk, p, 48, EXACT, dir); break;                     \
      default: pk = loop(pk, p, 64, EXACT, dir); break;                     \
      }                                                                     \
    } else {                                                                \
      switch (copy_class(lo, hi)) {                                         \
      case PAIR2: pk = loop(pk, p, lo, PAIR2, dir); break;                  \
      case PAIR4: pk = loop(pk, p, lo, PAIR4, dir); break;                  \
      case PAIR8: pk = loop(pk, p, lo, PAIR8, dir); break;                  \
      case PAIR16: pk = loop(pk, p, lo, PAIR16, dir); break;                \
      case PAIR32: pk = loop(pk, p, lo, PAIR32, dir); break;                \
      case CHUNK32: pk = loop(pk, p, lo, CHUNK32, dir); break;              \
      case SMALL: pk = loop(pk, p, lo, SMALL, dir); break;                  \
      default: pk = loop(pk, p, lo, ANY, dir); break;                       \
      }                                                                     \
    }                                                                       \
  } while (0)

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
  if (n <= 64)
    copy_block(q, m, n, SMALL, dir);
  else
    copy_long(q, m, n, dir);
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
