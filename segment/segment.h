/* The segment layer: what it offers the action layer.
 *
 * A segment walks the packed stream of (buf, count, type). Its state is an
 * explicit stack of frames, one per non-leaf loop from the root down, plus
 * the state of the leaf being processed; it is loaded when the segment is
 * created and kept between calls, so a call that starts where the last one
 * stopped needs no search, and any other start is found by arithmetic on
 * the stack (division for regular loops, binary search over prefix sums
 * for indexed and struct loops).
 */
#ifndef DLI_SEGMENT_H
#define DLI_SEGMENT_H

#include "../dataloop/loop.h"

/* one non-leaf loop being iterated */
typedef struct dli_frame {
  const dli_loop *loop;
  uintptr_t origin;  /* address the loop's offsets are relative to */
  uintptr_t elem;    /* address of element j of block i */
  dl_count i, j;
  size_t epos;       /* stream position where that element starts */
} dli_frame;

/* the leaf being processed, with the regular repetition of a fused parent
   (a CONTIG or single-element VECTOR loop directly above it) folded in */
typedef struct dli_leaf {
  const dli_loop *node;   /* the leaf, or the fused parent over it */
  uintptr_t origin;       /* the node's origin */
  int kind;               /* DLI_VECTOR, DLI_BLOCKINDEXED or DLI_INDEXED */
  uintptr_t base;         /* origin of repetition 0, leaf offset included */
  dl_count reps;
  dl_aint rstride;
  dl_count count;         /* blocks per repetition */
  size_t blk;             /* vector, blockindexed: bytes per block */
  dl_aint stride;
  const dl_aint *offs;
  const int32_t *offs32;  /* (dli_loop) */
  const dl_count *pre;
  size_t min_blk, max_blk;
  unsigned period;        /* indexed: of the block lengths (dli_loop) */
  bool apart;
  dl_aint lo, hi;         /* bytes one repetition touches, from base */
  size_t repbytes;
  size_t total;           /* packed bytes of all repetitions */
  uintptr_t delta;        /* base minus the origin it was loaded at */
  dl_count r, i;          /* current repetition and block */
  size_t off;             /* bytes already done in block i */
} dli_leaf;

/* An element of a converted stream (external32) that an unpack call's range
   cut: its external bytes so far, so that the call bringing the rest
   decodes the element from exactly what was sent. Kept here for the
   actions, which own no state between calls. */
typedef struct dli_partial {
  size_t pos;             /* external position of the element */
  uint32_t have;          /* bit k: byte k has arrived; 0: slot free */
  uint32_t age;
  unsigned char bytes[32];
} dli_partial;
#define DLI_PARTIALS 4

struct dl_segment {
  uintptr_t buf;
  const dl_type *type;
  dl_count count;
  size_t size;            /* packed bytes of (count, type) */
  size_t pos;             /* stream position the state describes, or
                             DLI_UNLOADED before the first walk */
  const dli_loop *root;   /* type's root, or `top` for count > 1 */
  dli_loop top;           /* count-time optimized loop over count copies */
  bool bounded, inside;   /* bounds given; all data known inside them */
  dl_aint lo, hi;         /* the bounds, in bytes from buf */
  bool owned;             /* allocated by dl_segment_create */
  int depth;              /* frames in use */
  int cap;                /* frames available */
  uint32_t partial_age;
  dli_partial partial[DLI_PARTIALS];
  dli_leaf leaf;
  dli_frame frames[];
};

/* the position of a segment whose stack is not loaded yet: a call that
   only the one-shot path serves (a whole small stream) never pays for it */
#define DLI_UNLOADED SIZE_MAX

/* bytes of a segment with room for `frames` frames */
static inline size_t dli_segment_bytes(int frames)
{
  return sizeof(struct dl_segment) + (size_t)frames * sizeof(dli_frame);
}
/* frames a segment over (count, t) needs */
DLI_HIDDEN int dli_segment_frames(const dl_type *t);
/* sets up a segment in caller memory with room for cap frames (at least
   dli_segment_frames(t)); its stack is loaded by the first dli_segment_run */
DLI_HIDDEN int dli_segment_init(dl_segment *s, int cap, uintptr_t buf,
                                dl_count count, const dl_type *t);
/* the same over one instance of loop l (part of a type) whose origin is
   `origin`, for actions that walk a subtree; cap >= l->depth + 1 */
DLI_HIDDEN int dli_segment_init_loop(dl_segment *s, int cap, uintptr_t origin,
                                     const dli_loop *l);
/* positions the state at stream byte pos (pos <= size) */
DLI_HIDDEN void dli_segment_seek(dl_segment *s, size_t pos);
/* loads the leaf state for leaf loop l (or fused loop f over it) at origin */
DLI_HIDDEN void dli_leaf_load(dli_leaf *lf, const dli_loop *l, uintptr_t origin);
/* sets the leaf's (r, i, off) from a byte position inside it */
DLI_HIDDEN void dli_leaf_set(dli_leaf *lf, size_t p);
/* Moves whole elements [e0, e1) of loop l at origin with compiled code,
   `bytes` packed bytes in all; returns bytes, or 0 when l has none (the
   walker then interprets). Supplied by the pack and unpack actions. */
typedef size_t (*dli_bulk_fn)(void *state, const dli_loop *l, uintptr_t origin,
                              dl_count e0, dl_count e1, size_t bytes);

/* runs action a over [first, *last); the core of every processing call.
   bulk, when not NULL, is tried first wherever whole elements of a loop
   fall inside the range. */
DLI_HIDDEN int dli_segment_run(dl_segment *s, size_t first, size_t *last,
                               const dl_action *a, void *state,
                               dli_bulk_fn bulk);

#endif
