/* The dataloop layer: what it offers the segment and action layers.
 *
 * A type's processing form is a tree of loops of five kinds. Each loop is a
 * set of blocks; block i holds blocklen elements spaced by the element's
 * extent, and an element is either a run of bytes (a leaf) or one instance
 * of the child loop placed at that address. Displacements are relative to
 * the loop's origin, the address of the element that contains it.
 *
 *   CONTIG        one block of count elements at offset
 *   VECTOR        count blocks at offset + i * stride
 *   BLOCKINDEXED  count blocks of blocklen elements at offset + offs[i]
 *   INDEXED       count blocks of blocklens[i] elements at offset + offs[i]
 *   STRUCT        like INDEXED, but block i has its own child children[i]
 *
 * At a leaf the element is a byte: CONTIG counts bytes, block lengths are
 * bytes, and `unit` remembers the basic element size for printing.
 *
 * The constructors share more among themselves (build.h), and the
 * serializers their format's constants (serial.h).
 */
#ifndef DLI_LOOP_H
#define DLI_LOOP_H

#include <limits.h>
#include <stdbool.h>
#include <stdatomic.h>
#include "dataloop.h"

#define DLI_HIDDEN __attribute__((visibility("hidden")))

enum dli_kind { DLI_CONTIG, DLI_VECTOR, DLI_BLOCKINDEXED, DLI_INDEXED,
                DLI_STRUCT };

typedef struct dli_loop dli_loop;
struct dli_loop {
  uint8_t kind;
  uint8_t leaf;      /* elements are bytes */
  uint8_t fuse;      /* non-leaf repeating a leaf child at one fixed stride */
  uint8_t unit;      /* leaf: basic element size (1 when mixed) */
  uint8_t period;    /* leaf INDEXED: block lengths repeat every `period`
                        blocks (2..DLI_PERIOD_MAX); 0: not so */
  uint8_t apart;     /* leaf INDEXED with a period: blocks of different
                        phases share no byte */
  int32_t depth;     /* loops from here down to the deepest leaf; leaf: 1 */
  dl_count count;    /* CONTIG: elements (leaf: bytes); others: blocks */
  dl_count size;     /* packed bytes of one instance of the loop */
  dl_aint offset;    /* added to every block's displacement */
  dl_aint tlb, tub;  /* bytes touched lie in [origin + tlb, origin + tub) */
  dl_count blocklen; /* VECTOR, BLOCKINDEXED (leaf: bytes) */
  dl_aint stride;    /* VECTOR: bytes between block starts */
  dl_count el_size;  /* non-leaf, not STRUCT: packed bytes of an element */
  dl_aint el_extent; /* non-leaf, not STRUCT: extent of an element */
  dl_aint *offs;     /* BLOCKINDEXED, INDEXED, STRUCT */
  int32_t *offs32;   /* leaf BLOCKINDEXED, INDEXED: offs in 4 bytes each when
                        all fit (a gather's metadata then costs what a hand
                        loop's int indices do), else NULL */
  dl_count *pre;     /* INDEXED, STRUCT: count + 1 packed-byte prefix sums */
  dl_count *blocklens; /* non-leaf INDEXED, STRUCT: elements per block */
  dl_aint *exts;     /* STRUCT: extent of block i's element */
  size_t min_blk, max_blk; /* leaf INDEXED: bounds on block bytes */
  const dli_loop *child;      /* non-leaf, not STRUCT */
  const dli_loop **children;  /* STRUCT */
  void *jit[2];      /* compiled pack and unpack of whole elements (a
                        dli_jit_fn), published once with release order */
};

/* A compiled function moves elements [e0, e1) of loop l whose origin is
   `origin`, to or from `packed` (the first element's first byte). A loop's
   elements, for this purpose, are its blocks when it is a leaf or has
   single-element blocks, and its elements when it is a CONTIG; the code of
   a CONTIG or INDEXED leaf moves the whole leaf only. */
typedef void (*dli_jit_fn)(char *origin, char *packed, dl_count e0, dl_count e1);
enum { DLI_JIT_PACK = 0, DLI_JIT_UNPACK = 1 };

static inline dli_jit_fn dli_jit_get(const dli_loop *l, int dir)
{
  return (dli_jit_fn)__atomic_load_n(&l->jit[dir], __ATOMIC_ACQUIRE);
}

/* may loop l carry a compiled function for ranges of its elements? */
static inline bool dli_jit_shape_ok(const dli_loop *l)
{
  return l->kind != DLI_STRUCT &&
         (l->leaf || l->kind == DLI_CONTIG || l->blocklen == 1) &&
         !(l->kind == DLI_INDEXED && !l->leaf);
}

/* elements of loop l in that sense, and the packed bytes of [e0, e1) */
static inline dl_count dli_jit_elems(const dli_loop *l)
{
  return l->kind == DLI_CONTIG ? (l->leaf ? 1 : l->count) : l->count;
}

static inline dl_count dli_jit_bytes(const dli_loop *l, dl_count e0, dl_count e1)
{
  if (l->leaf)
    return l->kind == DLI_CONTIG ? l->count
         : l->kind == DLI_INDEXED ? l->pre[e1] - l->pre[e0]
                                  : (e1 - e0) * l->blocklen;
  return (e1 - e0) * l->el_size;
}

/* Typemap bounds as MPI defines them. `sticky` marks bounds set by
   MPI_Type_create_resized (MPI's lb/ub markers), which later constructors
   keep in preference to the data's own bounds. */
typedef struct dli_bounds {
  dl_count size;
  dl_aint lb, ub;
  dl_aint true_lb, true_ub;
  bool sticky;
  int align;          /* largest basic alignment, for struct padding */
} dli_bounds;

/* ---- basic element types (builtin.c) ----
   The contract's predefined types, then those only external32 tells apart
   from one of the same size (dl_builtin_more). */
enum { DLI_WCHAR = DL_NUM_BUILTINS, DLI_FLOAT128, DLI_C_FLOAT128_COMPLEX,
       DLI_NUM_BASICS };

/* how an element becomes its external32 form */
enum { DLI_X_COPY,      /* bytes as they are */
       DLI_X_SWAP,      /* each lane byte-reversed (big-endian) */
       DLI_X_LONG,      /* 8-byte signed integer as 4 bytes */
       DLI_X_ULONG,     /* 8-byte unsigned integer as 4 bytes */
       DLI_X_WCHAR,     /* 4-byte wchar_t as 2 bytes */
       DLI_X_LDOUBLE }; /* x87 extended in 16 bytes as IEEE binary128 */

typedef struct dli_basic {
  uint8_t nsize;   /* native bytes */
  uint8_t xsize;   /* external32 bytes */
  uint8_t conv;    /* DLI_X_* */
  uint8_t lanes;   /* 2 for the complex types, else 1 */
} dli_basic;
DLI_HIDDEN extern const dli_basic dli_basics[DLI_NUM_BASICS];
/* the predefined type of a basic id (dl_builtin's or beyond), or NULL */
DLI_HIDDEN const dl_type *dli_basic_type(int basic);

/* ---- type signatures (sig.c) ----
   The basic elements of one instance of a type in packed order: a run of
   `reps` elements of one basic type, or a sequence of items repeated `reps`
   times. Native packing never reads a signature (the loop tree is bytes
   only); representations that convert elements walk it beside the native
   stream. Every constructor but struct repeats its old type's signature
   and struct concatenates its blocks', so a signature is one run for every
   homogeneous type and O(description) for the rest. */
#define DLI_SIG_SEQ (-1)
/* deeper signatures (structs of dense structs nested past the loop tree's
   own limit) are dropped: the type then packs natively only */
#define DLI_SIG_MAX_DEPTH 64
typedef struct dli_sig dli_sig;
struct dli_sig {
  int32_t basic;          /* a run's basic type, or DLI_SIG_SEQ */
  bool resize;            /* some element's external size is not native */
  bool same;              /* every element's external form is its bytes */
  uint8_t depth;          /* nodes from here to the deepest run; run: 1 */
  dl_count reps;          /* run: elements; sequence: repetitions */
  dl_count n;             /* sequence: items */
  dl_count nsize, xsize;  /* native, external32 bytes of one repetition
                             (a run's: of one element) */
  const dli_sig **items;  /* sequence */
  dl_count *npre, *xpre;  /* sequence: n + 1 prefix sums of the items'
                             whole native and external32 bytes */
};


#define DLI_TYPE_MAGIC 0x646c7479u  /* "dlty" */

/* Loops from a type's root to its deepest leaf. Constructors refuse deeper
   trees (DL_ERR_UNSUPPORTED), so every recursive walk of a tree has a fixed
   bound and every type can be serialized. */
#define DLI_MAX_DEPTH 64

struct dl_type {
  uint32_t magic;      /* DLI_TYPE_MAGIC while the type lives */
  _Atomic long refs;
  uint8_t builtin;
  _Atomic unsigned char committed;
  int8_t basic;        /* dl_builtin_t of a predefined type, else -1 */
  dli_bounds b;
  const dli_loop *loop;  /* root; NULL when size is 0; inside this block */
  size_t loop_bytes;     /* bytes of the tree after the header */
  const dli_sig *sig;    /* NULL when size is 0 or the element types are
                            unknown (a deserialized type); inside this block */
  _Atomic long uses[2];  /* pack and unpack calls, for compiling hot types */
  _Atomic unsigned char compiled;  /* bit 1 << dir: some loops carry code */
  _Atomic int hint;      /* DL_HINT_* */
};

/* ---- bounds (bounds.c) ---- */
/* copies of old at displacements spanning [dmin, dmax]; ncopies may be 0 */
DLI_HIDDEN int dli_bounds_replicate(const dli_bounds *old, dl_count ncopies,
                                    dl_aint dmin, dl_aint dmax,
                                    dli_bounds *out);
DLI_HIDDEN void dli_bounds_empty(dli_bounds *out);
/* struct: merges per-block bounds already replicated */
DLI_HIDDEN int dli_bounds_struct(dl_count n, const dli_bounds *blocks,
                                 dli_bounds *out);
/* span of j * step for j in [0, n), n >= 1 */
DLI_HIDDEN int dli_span(dl_count n, dl_aint step, dl_aint *lo, dl_aint *hi);

/* ---- alike types (same.c) ---- */
/* whether a and b (committed) place every packed byte at the same offset
   from their buffers but for a constant *shift (a's past b's), for any
   count: the same type, or trees alike in every field that places bytes
   but their loops' offsets, and extents alike; at most `budget` array
   entries compared (beyond it: false) */
DLI_HIDDEN bool dli_type_same_places(const dl_type *a, const dl_type *b, size_t budget,
                                     dl_aint *shift);

/* ---- disjointness (disjoint.c) ---- */
/* l is regular all the way down (contiguous and vector levels over a
   vector leaf) and its leaf blocks never overlap even with `widen` bytes
   added to the end of each (the room a reordered unpack's copies of one
   block take); *leaf_stride and *blk are the leaf's |stride| and block
   bytes */
DLI_HIDDEN bool dli_regular_disjoint(const dli_loop *l, dl_aint widen,
                                     dl_aint *leaf_stride, dl_count *blk);

/* ---- what a segment wraps around count copies of a type ---- */
typedef struct dli_build dli_build;
/* an element to replicate: a loop plus the extent of its type */
typedef struct dli_elem {
  const dli_loop *loop;
  dl_count size;
  dl_aint extent;
} dli_elem;
DLI_HIDDEN dli_elem dli_type_elem(const dl_type *t);
/* n consecutive elements; n >= 1, e.size > 0. When `into` is non-NULL the
   one new node is written there (no allocation) and b may be NULL. */
DLI_HIDDEN int dli_mk_contig(dli_build *b, dli_loop *into, dl_count n,
                             dli_elem e, const dli_loop **out);
/* n copies of s (NULL for an empty or an unknown signature); the one new
   node is written to `into` */
DLI_HIDDEN const dli_sig *dli_sig_copies(dli_sig *into, const dli_sig *s,
                                         dl_count n);

/* whether l's data is one dense run in order */
static inline bool dli_is_dense(const dli_loop *l)
{
  return l->leaf && l->kind == DLI_CONTIG;
}

/* ---- errors (error.c) ---- */
/* sets this thread's dl_last_error_detail() and returns code */
DLI_HIDDEN int dli_fail(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* a constructor's common checks, each failure with a detail naming call:
   out, old (when need_old), count, blocklen */
DLI_HIDDEN int dli_ctor_args(const char *call, dl_count count, dl_count blocklen,
                             const dl_type *old, bool need_old,
                             dl_type *const *out);
/* empties it, for a caller that reports the detail of its next failure */
DLI_HIDDEN void dli_detail_clear(void);
/* a NULL buffer means absolute addresses (MPI_BOTTOM): DL_ERR_ARG when
   (count, t)'s data would then reach below the first page, which is never
   mapped; DL_OK for any other buffer. O(1), from t's true bounds. */
DLI_HIDDEN int dli_check_bottom(const void *buf, dl_count count,
                                const dl_type *t, const char *call);

/* ---- types (type.c) ---- */
/* (inline: every processing call asks both, and a call each costs as much
   as moving a small block) */
static inline bool dli_type_valid(const dl_type *t)
{
  return t != NULL && t->magic == DLI_TYPE_MAGIC;
}
static inline bool dli_type_committed(const dl_type *t)
{
  return t->builtin ||
         atomic_load_explicit(&((dl_type *)t)->committed, memory_order_acquire);
}
/* the most bytes one type's loop tree may take: DL_MAX_TYPE_BYTES from the
   environment, read once, or 1 GiB */
DLI_HIDDEN size_t dli_max_type_bytes(void);
DLI_HIDDEN void dli_type_ref(const dl_type *t);
DLI_HIDDEN void dli_type_unref(const dl_type *t);

/* p + off as an address. A loop's origin or base may lie far from its
   data (only the bytes' own offsets are bounded), so addresses are
   computed modulo 2^64 as integers: pointer arithmetic that wrapped would
   be undefined. */
static inline char *dli_at(const void *p, dl_aint off)
{
  return (char *)((uintptr_t)p + (uintptr_t)off);
}

/* packed-byte size of block i of a loop */
static inline dl_count dli_block_bytes(const dli_loop *l, dl_count i)
{
  switch (l->kind) {
  case DLI_CONTIG: return l->size;
  case DLI_VECTOR:
  case DLI_BLOCKINDEXED: return l->leaf ? l->blocklen : l->blocklen * l->el_size;
  default: return l->pre[i + 1] - l->pre[i];
  }
}

/* Whether reps repetitions, rep_stride apart, of a vector leaf (count
   blocks of blk bytes, stride apart) form a transpose that is copied a
   cache line at a time (DLI_TILE_BYTES / blk repetitions together, block
   by block): the repetitions lie one block apart, so their blocks at one
   index share cache lines, while one repetition's blocks each land in a
   different line (and, at strides that are multiples of a page, in the
   same few cache sets: the FFT transpose's columns). Only when no two
   blocks overlap, so that the order of the copies cannot change a byte. */
#define DLI_TILE_BYTES 64

/* Leaf INDEXED loops whose block lengths repeat with a short period (a
   struct over several arrays, one block of each per element): the kernels
   move them one length at a time (dataloop/period.c, actions/copy.c). */
#define DLI_PERIOD_MAX 16
DLI_HIDDEN void dli_find_period(dli_loop *l);
static inline bool dli_transposes(dl_count reps, dl_aint rep_stride, dl_count count,
                                  dl_aint blk, dl_aint stride)
{
  dl_aint span;
  if (blk <= 0 || blk > DLI_TILE_BYTES / 2 || rep_stride != blk || count < 2 ||
      reps < DLI_TILE_BYTES / blk || stride == INT64_MIN ||
      __builtin_mul_overflow(reps, blk, &span))
    return false;
  return span <= (stride < 0 ? -stride : stride);
}

#endif
