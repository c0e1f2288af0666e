/* What the constructors share (the files of dataloop/): scratch space, the
 * normalizing constructors every MPI constructor funnels into, block-list
 * scanning and folding, signatures being built, and new types. The layers
 * above see only loop.h. */
#ifndef DLI_BUILD_H
#define DLI_BUILD_H

#include "loop.h"

/* ---- scratch space while one constructor runs (build.c) ---- */
typedef struct dli_build dli_build;
DLI_HIDDEN dli_build *dli_build_new(void);
DLI_HIDDEN void dli_build_free(dli_build *b);
DLI_HIDDEN void *dli_build_alloc(dli_build *b, size_t bytes);
DLI_HIDDEN dli_loop *dli_build_node(dli_build *b);

/* ---- signatures (sig.c) ---- */
/* the signature of one element of a basic type */
DLI_HIDDEN const dli_sig *dli_sig_basic(int basic);
/* a struct's: blocklens[i] copies of types[i]'s signature in turn; NULL when
   the struct is empty or a nonempty member's signature is unknown */
DLI_HIDDEN int dli_sig_struct(dli_build *b, dl_count n, const dl_count *blocklens,
                              dl_type *const *types, const dli_sig **out);


/* ---- normalizing constructors; results may share nodes with inputs ---- */
DLI_HIDDEN int dli_mk_vector(dli_build *b, dl_count count, dl_count blocklen,
                             dl_aint stride, dli_elem e, const dli_loop **out);
/* n blocks of blocklens[i] elements at byte offsets offs[i]; the arrays are
   scratch the function may rewrite (b owns them or the caller does) */
DLI_HIDDEN int dli_mk_blocks(dli_build *b, dl_count n, dl_count *blocklens,
                             dl_aint *offs, dli_elem e, const dli_loop **out);
DLI_HIDDEN int dli_mk_struct(dli_build *b, dl_count n, const dl_count *blocklens,
                             const dl_aint *offs, const dli_elem *elems,
                             const dli_loop **out);
/* ---- block lists of one element type (blocklist.c, fold.c) ---- */
typedef struct dli_blocks {
  dl_count n;
  const dl_count *bls;     /* lengths in elements, or NULL: bl for all */
  dl_count bl;
  const void *displs;      /* dl_aint bytes, or dl_count elements of ext */
  bool bytes;
  dl_aint ext;             /* element extent */
  bool apart;              /* touching blocks kept apart */
} dli_blocks;

/* iterates nonempty blocks, touching ones merged unless the list keeps
   them apart; rc says why it stopped early (a negative length, an
   overflow) */
typedef struct dli_blkit {
  const dli_blocks *s;
  dl_count i;              /* next raw block */
  int rc;
  dl_count peeked;         /* 1 + index of the raw block held below, or 0 */
  dl_aint poff;
  dl_count plen;
} dli_blkit;
DLI_HIDDEN bool dli_blkit_next(dli_blkit *it, dl_aint *off, dl_count *len);

#define DLI_FOLD_MAX_PERIOD 1024     /* longest period looked for, in blocks */
#define DLI_SCAN_PREFIX (2 * DLI_FOLD_MAX_PERIOD + 1)

/* what one pass over a block list learns */
typedef struct dli_scan {
  dl_count m;              /* merged nonempty blocks */
  dl_count ncopies;        /* elements */
  dl_aint lo, hi;          /* span of the element copies' displacements */
  bool uniform, even;      /* one length; one distance between blocks */
  dl_aint delta;           /* that distance */
  dl_count *pbls, *praw;   /* the first blocks: length, raw index */
  dl_aint *poffs;
  dl_count *rbls;          /* the latest blocks, for the pattern check */
  dl_aint *roffs;
  dl_count period;         /* a repeating pattern of this many blocks ... */
  dl_aint pdelta;          /* ... each this far after its twin ... */
  dl_count periodic;       /* ... holds for blocks [0, periodic) */
  dl_count tail_raw;       /* raw index of block periodic / period * period */
} dli_scan;
DLI_HIDDEN int dli_scan_blocks(dli_build *b, const dli_blocks *s, dli_scan *sc);
DLI_HIDDEN dl_count dli_prefix_period(const dl_count *bls, const dl_aint *offs,
                                      dl_count n);

/* the indexed family: blocklens, or one length bl for all; displs in bytes
   or in extents of old */
DLI_HIDDEN int dli_type_blocks(dl_count count, const dl_count *blocklens,
                               dl_count bl, const void *displs, bool bytes,
                               dl_type *old, dl_type **out);
/* t moved to byte disp inside a type with lb 0 and the given extent (the
   per-dimension step of subarray and darray) */
DLI_HIDDEN int dli_place(dl_type *t, dl_aint disp, dl_aint extent,
                         dl_type **out);
/* l moved by delta bytes */
DLI_HIDDEN int dli_shift(dli_build *b, const dli_loop *l, dl_aint delta,
                         const dli_loop **out);
/* fills size, tlb/tub, depth and fuse of a node whose other fields are set */
DLI_HIDDEN int dli_finish_node(dli_loop *l);

/* ---- new types (type.c) ---- */
/* a new type owning a deep copy of root (NULL when bounds->size is 0) and
   of sig; DL_ERR_UNSUPPORTED when root is deeper than DLI_MAX_DEPTH,
   DL_ERR_NOMEM when its copy would exceed dli_max_type_bytes() */
DLI_HIDDEN int dli_type_new(const dli_loop *root, const dli_bounds *bounds,
                            const dli_sig *sig, dl_type **out);
/* the same for a type holding copies of old (contiguous, vector and the
   indexed family): its signature repeats old's */
DLI_HIDDEN int dli_type_new_copies(const dli_loop *root, const dli_bounds *bounds,
                                   const dl_type *old, dl_type **out);

#endif
