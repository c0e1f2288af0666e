/* The typerep layer: what MPICH's typerep interface needs of a datatype
 * engine, over the public dataloop.h API and nothing of MPICH, so that
 * make check tests it. The backend's glue (src/mpich/typerep/) maps each
 * MPIR_Typerep_* call onto these. */
#ifndef DLI_TR_H
#define DLI_TR_H

#include <stdbool.h>
#include "dataloop.h"

#define DLI_TR_HIDDEN __attribute__((visibility("hidden")))

/* What MPICH keeps of a type beside its engine handle. */
typedef struct dli_tr_fields {
  dl_count size;
  dl_aint lb, extent, true_lb, true_extent;
  bool is_contig;     /* any count of it is one run of memory */
  dl_count runs;      /* contiguous runs of one element (>= 1) */
} dli_tr_fields;
/* t committed */
DLI_TR_HIDDEN int dli_tr_fields_of(const dl_type *t, dli_tr_fields *f);

/* Packed bytes [first, first + max) of (buf, count, t) to out, clipped to
   the stream's end; *done = bytes packed. A range that starts where an
   earlier one of this thread on the same (buf, count, t) stopped costs no
   seek: each thread keeps its last few segments. */
DLI_TR_HIDDEN int dli_tr_pack(const void *buf, dl_count count, const dl_type *t,
                              size_t first, void *out, size_t max, size_t *done);
/* in's insize bytes stored as packed bytes [first, ...) of (buf, count, t) */
DLI_TR_HIDDEN int dli_tr_unpack(const void *in, size_t insize, void *buf,
                                dl_count count, const dl_type *t, size_t first,
                                size_t *done);
/* frees this thread's kept segments (and the type references they hold) */
DLI_TR_HIDDEN void dli_tr_release(void);

/* iovec entries of packed bytes [first, first + max_bytes) of
   (buf, count, t), at most max_iov; *n entries, *bytes covered (a full
   list stops at a block boundary). buf NULL: absolute addresses. */
DLI_TR_HIDDEN int dli_tr_iov(const void *buf, dl_count count, const dl_type *t,
                             size_t first, size_t max_bytes, struct iovec *iov,
                             size_t max_iov, size_t *n, size_t *bytes);
/* the entries from entry number `skip` of the whole stream's list on */
DLI_TR_HIDDEN int dli_tr_iov_from(const void *buf, dl_count count,
                                  const dl_type *t, size_t skip,
                                  struct iovec *iov, size_t max_iov, size_t *n);
/* entries of packed bytes [0, max_bytes) */
DLI_TR_HIDDEN int dli_tr_iov_len(dl_count count, const dl_type *t,
                                 size_t max_bytes, size_t *n);

/* Element-wise reduction over a layout: fn(in, inout, n, ctx) combines n
   elements of the element type at in (laid out elem's extent apart) into n
   at inout (the same layout), as MPI's predefined operations do. apply
   runs it over the first nelem elements of the packed stream of
   (dst, count, t) with the nelem elements at src, one call per run of
   whole elements where the layout keeps elements whole, through a staging
   copy where it splits them (pair types). elem is committed. */
typedef void dli_tr_op_fn(const void *in, void *inout, dl_count n, void *ctx);
DLI_TR_HIDDEN int dli_tr_apply(const void *src, dl_count nelem,
                               const dl_type *elem, void *dst, dl_count count,
                               const dl_type *t, dli_tr_op_fn *fn, void *ctx);

#endif
