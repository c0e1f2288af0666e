/* One block's move between memory and a packed stream, and the copy
 * classes that give a block's length to the compiler: exact sizes that
 * are common, two overlapping moves for any length in [k, 2k], 32-byte
 * moves up to 256 bytes, memcpy beyond. DISPATCH instantiates a loop once
 * per class, chosen once per leaf loop. Shared by the pack and unpack
 * kernels (copy.c) and the twin route of type-to-type copies (twin.c). */
#ifndef DL_ACTIONS_BLOCK_H
#define DL_ACTIONS_BLOCK_H
#include <stdbool.h>
#include <string.h>
#include "actions.h"

/* The kernels are the hot path: let the compiler vectorize them with its
   full cost model (the library is otherwise built -O2). Functions start
   on a cache line and loops on 32 bytes, so that a change elsewhere in a
   file that includes this does not move them and change their speed
   (doc/design.md). */
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

/* mixed lengths up to 64 bytes, with no call: each branch with its own
   constant k, so the two copies are moves (one k computed at run time
   made them memcpy calls) */
INLINE void copy_small(char *q, char *m, size_t len, int dir)
{
  if (len >= 32) copy_pair(q, m, len, 32, dir);
  else if (len >= 16) copy_pair(q, m, len, 16, dir);
  else if (len >= 8) copy_pair(q, m, len, 8, dir);
  else if (len >= 4) copy_pair(q, m, len, 4, dir);
  else if (len >= 2) copy_pair(q, m, len, 2, dir);
  else copy(q, m, 1, dir);
}

/* one block of len bytes; len is a constant for EXACT. ANY: lengths of
   every size, where a few long ones (runs of touching blocks in an index
   list) must not make every short one a call */
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
  case SMALL: copy_small(q, m, len, dir); return;
  default:
    if (len <= 64)
      copy_small(q, m, len, dir);
    else
      copy_long(q, m, len, dir);
    return;
  }
  copy_pair(q, m, len, k, dir);
}

/* Blocks of a gather's size (an element or a few) read their offsets in
   4 bytes where the piece has them so (offs32), as a hand loop reads int
   indices: 8-byte offsets double the metadata, and their stream, running
   at twice the packed one's rate, meets it modulo 4 KiB (the loads then
   wait on unrelated stores; doc/design.md, "Figures behind the kernels") */
enum { GATHER_MAX = 32 };

INLINE dl_aint offset_at(const dl_aint *offs, const int32_t *offs32, dl_count i, bool narrow)
{
  return narrow ? (dl_aint)offs32[i] : offs[i];
}

INLINE bool gathers(const dl_piece *p, size_t n, int cls)
{
  return cls == EXACT && n <= GATHER_MAX && p->offs32;
}

/* (copy_class and exact_size stay plain static: made inline, they change
   GCC's inlining of the kernels that DISPATCH them) */

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

#endif
