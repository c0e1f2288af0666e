/* The datatype services: what an MPI front end needs of a datatype engine
 * beyond packing, over the public dataloop.h API and nothing of MPI, so
 * that make check tests it: a type's fields and element runs, byte ranges
 * of its stream, its blocks a batch at a time, iovecs, element-wise
 * operations. One layer below both front ends: MPICH's typerep backend
 * (src/mpich/typerep/ maps each MPIR_Typerep_* call onto these; it
 * compiles them in MPICH's tree) and the interposer with the MPI bridge
 * (libdataloop-services.la). The MPI error class of each dataloop code is
 * the one other service both share (src/mpi/errclass.h, header-only: it
 * needs the front end's mpi.h). */
#ifndef DLI_TR_H
#define DLI_TR_H

#include <stdbool.h>
#include <stdint.h>
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
/* the contiguous runs of one element of t (at least 1), counted until cap
   (>= 1) is reached; a listing that fails returns its code, *runs cap */
DLI_TR_HIDDEN int dli_tr_runs(const dl_type *t, dl_count cap, dl_count *runs);
/* as dli_tr_runs, but past cap all of them estimated from the stream bytes
   the first cap cover (exact where the element repeats one pattern), at
   most DLI_TR_RUNS_MAX */
#define DLI_TR_RUNS_MAX ((dl_count)1 << 50)
DLI_TR_HIDDEN int dli_tr_runs_estimate(const dl_type *t, dl_count cap, dl_count *runs);

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

/* The contiguous blocks of a segment's stream bytes [first, end), in
   stream order, listed a batch at a time (offsets from the segment's
   buffer, and lengths): the one walk of a type's blocks for every caller
   that needs them one by one or a batch at a time (tr_cursor.c). */
#define DLI_TR_CURSOR_BATCH 256
typedef struct dli_tr_cursor {
  dl_segment *seg;
  size_t at, end;     /* listed up to stream byte at; listing stops at end */
  size_t n, i;        /* blocks in the batch; the next one handed out */
  int rc;             /* DL_OK, or why the listing stopped short */
  int64_t off[DLI_TR_CURSOR_BATCH], len[DLI_TR_CURSOR_BATCH];
} dli_tr_cursor;
DLI_TR_HIDDEN void dli_tr_cursor_start(dli_tr_cursor *c, dl_segment *s, size_t first,
                                       size_t end);
/* the next block; false past end or when the listing failed (c->rc) */
DLI_TR_HIDDEN bool dli_tr_cursor_next(dli_tr_cursor *c, int64_t *off, int64_t *len);
/* the next batch (the blocks next would hand out until the next listing,
   or a new listing of up to max, at most DLI_TR_CURSOR_BATCH; 0: that
   many): *n blocks at *off and *len, in the cursor, ending at stream
   byte *last; false past end or on a failure (c->rc) */
DLI_TR_HIDDEN bool dli_tr_cursor_batch(dli_tr_cursor *c, size_t max, const int64_t **off,
                                       const int64_t **len, size_t *n, size_t *last);

/* the blocks of stream bytes [first, end) of s, counted until cap is
   reached (then at least cap); cap when they cannot be listed, and then
   *rc (when not NULL) says why (else DL_OK); *upto (when not NULL): the
   stream byte the counted blocks end at (end when all were counted);
   *forward (when not NULL): whether every counted block starts at or past
   the end of the one before it (the data in one sweep of rising
   addresses) */
DLI_TR_HIDDEN size_t dli_tr_count_blocks(dl_segment *s, size_t first, size_t end,
                                         size_t cap, int *rc, size_t *upto, bool *forward);

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
