/* dataloop: a datatype engine for noncontiguous data.
 *
 * Types are built with the MPI constructors, turned into trees of five loop
 * kinds when built, and processed by segments (resumable, any byte range)
 * running actions (pack, unpack, iovec, offset/length lists, or your own).
 * Every function returns DL_OK (0) or a DL_ERR_* code; dl_strerror names it.
 *
 * Conventions (reference pages: man 3 dl_pack, dl_segment, dl_type_vector...):
 * - sizes, positions, offsets and extents are bytes; counts are elements
 *   of the type named beside them.
 * - a NULL *memory* buffer (the user data described by a type) means
 *   MPI_BOTTOM: the type's displacements are absolute addresses. A NULL
 *   *packed* buffer is allowed only when nothing is to be moved.
 * - a NULL type, handle or output pointer is DL_ERR_ARG unless said below.
 * - processing (pack, unpack, segments, serialization, file I/O) needs
 *   committed types (else DL_ERR_NOT_COMMITTED); constructors and queries
 *   do not. Predefined types are committed.
 * - DL_ERR_NOMEM: malloc failed (or a type outgrew DL_MAX_TYPE_BYTES).
 */
#ifndef DATALOOP_H
#define DATALOOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>

/* this header's version, equal to the package's (configure.ac's AC_INIT) */
#define DL_VERSION_MAJOR 0
#define DL_VERSION_MINOR 1
#define DL_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* the linked library's version, "MAJOR.MINOR.PATCH"; never NULL */
const char *dl_version(void);

typedef int64_t dl_aint;    /* byte displacement, offset, extent */
typedef int64_t dl_count;   /* element and block counts */
typedef struct dl_type dl_type;
typedef struct dl_segment dl_segment;

/* status codes; dl_strerror(code) never returns NULL: a static English
   message, "unknown error code" for any other value */
enum { DL_OK = 0, DL_ERR_ARG, DL_ERR_NOMEM, DL_ERR_OVERFLOW, DL_ERR_TRUNCATE,
       DL_ERR_NOT_COMMITTED, DL_ERR_UNSUPPORTED, DL_ERR_CORRUPT, DL_ERR_BOUNDS,
       DL_ERR_IO };
const char *dl_strerror(int code);
/* why the last failing call on this thread failed, in one line (thread-local,
   never NULL, "" when no detail is known); only failures with a known reason
   set it and a successful call leaves it as it was (see dl_last_error_detail(3)) */
const char *dl_last_error_detail(void);

/* predefined element types; never freed */
typedef enum {
  DL_BYTE, DL_CHAR, DL_INT8, DL_UINT8, DL_INT16, DL_UINT16, DL_INT32,
  DL_UINT32, DL_INT64, DL_UINT64, DL_FLOAT, DL_DOUBLE, DL_LONG_DOUBLE,
  DL_C_FLOAT_COMPLEX, DL_C_DOUBLE_COMPLEX, DL_PACKED,
  /* native C types whose external32 size differs or that need their own
     conversion: long (external32: 4 bytes), unsigned long, _Bool,
     long double _Complex */
  DL_LONG, DL_UNSIGNED_LONG, DL_C_BOOL, DL_C_LONG_DOUBLE_COMPLEX
} dl_builtin_t;
#define DL_NUM_BUILTINS ((int)DL_C_LONG_DOUBLE_COMPLEX + 1)
/* the predefined type `which` (committed, shared, never freed:
   dl_type_free refuses it); NULL when which is out of range */
dl_type *dl_builtin(dl_builtin_t which);

/* constructors: MPI semantics, MPI-4 large-count widths, h* take bytes.
   Counts and block lengths are elements of old; displs and strides of the
   non-h forms are in units of old's extent, of the h forms in bytes. On
   success *out is a new, uncommitted type holding one reference (drop it
   with dl_type_free). old (any type, committed or not) stays the caller's:
   the new type copies what it needs, so old may be freed at once. On error
   *out is untouched.
   Errors: DL_ERR_ARG: NULL old or out, count or a block length < 0, a NULL
   array with count > 0 (and as listed per call); DL_ERR_OVERFLOW: a size,
   extent, displacement or bound past 64 bits; DL_ERR_NOMEM;
   DL_ERR_UNSUPPORTED: a loop tree deeper than 64 levels. */
int dl_type_contiguous(dl_count count, dl_type *old, dl_type **out);
int dl_type_vector(dl_count count, dl_count blocklen, dl_count stride,
                   dl_type *old, dl_type **out);
int dl_type_hvector(dl_count count, dl_count blocklen, dl_aint stride,
                    dl_type *old, dl_type **out);
int dl_type_indexed(dl_count count, const dl_count *blocklens,
                    const dl_count *displs, dl_type *old, dl_type **out);
int dl_type_hindexed(dl_count count, const dl_count *blocklens,
                     const dl_aint *displs, dl_type *old, dl_type **out);
int dl_type_indexed_block(dl_count count, dl_count blocklen,
                          const dl_count *displs, dl_type *old, dl_type **out);
int dl_type_hindexed_block(dl_count count, dl_count blocklen,
                           const dl_aint *displs, dl_type *old, dl_type **out);
/* struct: types[i] must each be a valid type (a NULL one is DL_ERR_ARG) */
int dl_type_struct(dl_count count, const dl_count *blocklens,
                   const dl_aint *displs, dl_type *const *types, dl_type **out);
/* resized: lb and extent in bytes, sticky as MPI's explicit bounds */
int dl_type_resized(dl_type *old, dl_aint lb, dl_aint extent, dl_type **out);
enum { DL_ORDER_C = 0, DL_ORDER_FORTRAN = 1 };
/* subarray: DL_ERR_ARG also for ndims <= 0, NULL arrays, sizes[d] <= 0,
   subsizes[d] < 0 or > sizes[d], starts[d] outside [0, sizes[d] -
   subsizes[d]], an order other than DL_ORDER_C or DL_ORDER_FORTRAN */
int dl_type_subarray(int ndims, const dl_count *sizes, const dl_count *subsizes,
                     const dl_count *starts, int order, dl_type *old,
                     dl_type **out);
enum { DL_DISTRIBUTE_BLOCK, DL_DISTRIBUTE_CYCLIC, DL_DISTRIBUTE_NONE };
enum { DL_DISTRIBUTE_DFLT_DARG = -1 };
/* darray: DL_ERR_ARG also for size <= 0, rank outside [0, size), ndims <= 0,
   NULL arrays, gsizes[d] or psizes[d] <= 0, a darg neither > 0 nor
   DL_DISTRIBUTE_DFLT_DARG, a BLOCK darg * psizes[d] < gsizes[d], NONE with
   psizes[d] != 1, an unknown distribution or order, product of psizes !=
   size */
int dl_type_darray(int size, int rank, int ndims, const dl_count *gsizes,
                   const int *distribs, const int *dargs, const int *psizes,
                   int order, dl_type *old, dl_type **out);
/* a new type (one reference) with old's layout, committed if old is.
   DL_ERR_ARG: NULL old or out; DL_ERR_NOMEM */
int dl_type_dup(dl_type *old, dl_type **out);
/* makes t usable for processing (with DL_HINT_REUSE_HIGH: compiles it);
   predefined types: DL_OK, nothing to do. DL_ERR_ARG: NULL t. */
int dl_type_commit(dl_type *t);        /* committing twice is DL_OK */
/* drops a reference and sets *t = NULL; for a predefined type nothing
   changes, *t included, and DL_ERR_ARG is returned (as MPI_Type_free refuses
   predefined types) */
/* The memory goes with the last reference (segments, file views and
   dl_type_retain hold their own). DL_ERR_ARG: t or *t NULL, predefined. */
int dl_type_free(dl_type **t);

/* queries, any type (committed or not); DL_ERR_ARG for a NULL argument.
   size: bytes of data in one element (what it packs to); extent: lb and
   ub - lb in bytes (MPI_Type_get_extent); true extent: the bytes the data
   spans (MPI_Type_get_true_extent) */
int dl_type_size(const dl_type *t, dl_count *size);
int dl_type_extent(const dl_type *t, dl_aint *lb, dl_aint *extent);
int dl_type_true_extent(const dl_type *t, dl_aint *true_lb, dl_aint *true_extent);
/* writes bounds and the loop tree to f (format not stable). DL_ERR_ARG:
   NULL f or t; DL_ERR_IO: ferror(f) is set afterwards */
int dl_type_print(FILE *f, const dl_type *t);   /* the dataloop tree */

/* serialization, for shipping a committed type to another process (an I/O
   server); the byte format is in doc/serialization.md */
/* *needed = bytes the serialized form takes (t must be committed). If
   size < *needed nothing is written and DL_ERR_TRUNCATE is returned; buf may
   be NULL when size is 0, to ask for the size. */
/* DL_ERR_ARG: NULL t or needed, NULL buf with size > 0;
   DL_ERR_NOT_COMMITTED; DL_ERR_UNSUPPORTED: a tree deeper than 64 levels. */
int dl_type_serialize(const dl_type *t, void *buf, size_t size, size_t *needed);
/* validates untrusted input completely; exactly `size` bytes must form one
   serialized type (trailing bytes are corruption); DL_ERR_CORRUPT on
   anything wrong, with *out set to NULL. On success *out is a new, committed
   type that owns its memory (buf may be freed at once). */
/* One reference: free it with dl_type_free. It has no element types, so
   external32 calls on it are DL_ERR_UNSUPPORTED (a predefined type keeps
   its identity). DL_ERR_ARG: NULL out, NULL buf with size > 0 (*out =
   NULL); DL_ERR_NOMEM. */
int dl_type_deserialize(const void *buf, size_t size, dl_type **out);

/* one-shot pack/unpack with MPI_Pack/MPI_Unpack semantics:
   *position is the byte offset in the packed buffer, advanced on success */
/* pack size: *size = count * dl_type_size(t), bytes (any type). DL_ERR_ARG:
   NULL t or size, count < 0; DL_ERR_OVERFLOW: past SIZE_MAX. */
int dl_pack_size(dl_count count, const dl_type *t, size_t *size);
/* pack: incount elements of committed t at inbuf (NULL: MPI_BOTTOM) go to
   outbuf + *position. unpack: the packed bytes at inbuf + *position go to
   outcount elements of t at outbuf (NULL: MPI_BOTTOM). The packed buffer
   (outbuf of pack, inbuf of unpack; outsize/insize bytes) may be NULL only
   when its size is 0.
   DL_ERR_ARG: NULL t or position, a count < 0, *position > the packed
   buffer's size, NULL packed buffer with a size > 0, a NULL user buffer
   whose data would lie below address 4096 (nothing moved);
   DL_ERR_NOT_COMMITTED;
   DL_ERR_OVERFLOW: the packed size past SIZE_MAX (*position unchanged);
   DL_ERR_TRUNCATE: fewer bytes left than dl_pack_size; what fits is moved,
   nothing past the packed buffer is touched, and *position is advanced by
   the bytes moved; DL_ERR_NOMEM (trees deeper than 31 levels). */
int dl_pack(const void *inbuf, dl_count incount, const dl_type *t,
            void *outbuf, size_t outsize, size_t *position);
int dl_unpack(const void *inbuf, size_t insize, size_t *position,
              void *outbuf, dl_count outcount, const dl_type *t);

/* segments: resumable processing of the packed byte stream of
   (buf, count, t). Each call handles packed bytes [first, *last) and sets
   *last to where it stopped (earlier than asked only when the output list
   filled). Calls may come in any order; sequential calls cost no seek. */
/* A *last past the stream's end (dl_segment_size) is clipped to it. A
   segment keeps a position: one thread at a time per segment.
   create: buf (NULL: MPI_BOTTOM) is not read until a call; t must be
   committed; the segment holds its own reference to t (free t at will) and
   is freed with dl_segment_free. DL_ERR_ARG: NULL t or out, count < 0;
   DL_ERR_NOT_COMMITTED; DL_ERR_OVERFLOW: count * size past SIZE_MAX;
   DL_ERR_NOMEM. On error *out = NULL (when out is not NULL).
   Calls on a segment: DL_ERR_ARG: NULL s or last, first > *last, first past
   the stream's end, a NULL buffer or list (with room > 0) for a nonempty
   range, a NULL segment buffer (MPI_BOTTOM) whose data would lie below
   address 4096 when moved (offset lists accept it); DL_ERR_BOUNDS: see
   dl_segment_create_bounded. */
int dl_segment_create(void *buf, dl_count count, const dl_type *t,
                      dl_segment **out);
/* outbuf[0] receives stream byte `first`: outbuf holds *last - first
   bytes (not an image of the whole stream) */
int dl_segment_pack(dl_segment *s, size_t first, size_t *last, void *outbuf);
/* inbuf[0] holds stream byte `first` */
int dl_segment_unpack(dl_segment *s, size_t first, size_t *last,
                      const void *inbuf);
/* the memory pieces (absolute addresses) of the range, in stream order,
   adjacent ones merged: at most max_iov entries; *n_iov = entries written.
   A full list stops the call at a block boundary (*last says where; with
   max_iov 0, no progress) */
int dl_segment_iov(dl_segment *s, size_t first, size_t *last,
                   struct iovec *iov, size_t max_iov, size_t *n_iov);
/* offsets are bytes relative to buf (for a file view: to the view's start) */
/* lengths in bytes; at most max pairs, *n written; stops as dl_segment_iov */
int dl_segment_offlen(dl_segment *s, size_t first, size_t *last,
                      int64_t *offsets, int64_t *lengths, size_t max,
                      size_t *n);
/* like dl_segment_create, but every byte that any call on this segment would
   read or write must lie in [buf + lo, buf + hi); a call that would touch
   anything outside fails with DL_ERR_BOUNDS before touching anything */
/* lo, hi: bytes from buf; lo > hi is DL_ERR_ARG (*out = NULL) */
int dl_segment_create_bounded(void *buf, dl_count count, const dl_type *t,
                              dl_aint lo, dl_aint hi, dl_segment **out);
/* frees *s, drops its type reference and sets *s = NULL; s or *s NULL: no-op */
void dl_segment_free(dl_segment **s);

/* MPI_Pack_external semantics; datarep must be "external32", anything else
   is DL_ERR_UNSUPPORTED */
/* As dl_pack_size, dl_pack and dl_unpack (same arguments, errors and
   partial moves), over the big-endian external32 stream. Also:
   DL_ERR_ARG: NULL datarep; DL_ERR_UNSUPPORTED: t has no element types
   (deserialized, or its signature was dropped); DL_ERR_TRUNCATE on unpack:
   what came is stored, memory past the elements it reaches untouched. */
int dl_pack_external_size(const char *datarep, dl_count count,
                          const dl_type *t, size_t *size);
int dl_pack_external(const char *datarep, const void *inbuf, dl_count incount,
                     const dl_type *t, void *outbuf, size_t outsize,
                     size_t *position);
int dl_unpack_external(const char *datarep, const void *inbuf, size_t insize,
                       size_t *position, void *outbuf, dl_count outcount,
                       const dl_type *t);

/* ---- beyond the contract ------------------------------------------------ */
/* Predefined types beyond dl_builtin_t, which only external32 tells apart
   from a type of the same size: wchar_t (external32: 2 bytes), IEEE
   binary128 in 16 bytes (_Float128; Fortran REAL*16 with gfortran) and its
   complex pair. Never freed. */
typedef enum { DL_WCHAR, DL_FLOAT128, DL_C_FLOAT128_COMPLEX } dl_builtin_more_t;
/* NULL when which is out of range */
dl_type *dl_builtin_more(dl_builtin_more_t which);
/* The external32 stream of a segment's (count, type), processed in any
   byte range and order like the native one: positions are bytes of the
   external stream (dl_pack_external_size of the segment's count and type);
   *last is clipped to its end. Elements cut by a range's ends are handled
   whole (unpacking one reads the element's other bytes back from memory). */
/* outbuf[0] / inbuf[0] is external byte `first`. Errors as dl_segment_pack
   plus those of dl_pack_external_size (datarep, element types). */
int dl_segment_pack_external(const char *datarep, dl_segment *s, size_t first,
                             size_t *last, void *outbuf);
int dl_segment_unpack_external(const char *datarep, dl_segment *s,
                               size_t first, size_t *last, const void *inbuf);

/* Runtime code generation: compile pack/unpack for t now. Returns
   DL_ERR_UNSUPPORTED when built without LLVM (--with-llvm) or when nothing
   in t's loops can be compiled; the interpreter then runs, with identical
   results. Environment: DL_JIT=0 never compiles; DL_JIT_THRESHOLD=N
   compiles a type after N uses (0: at its first use). */
/* DL_ERR_UNSUPPORTED also for a predefined type or one without data;
   DL_ERR_ARG: NULL t; DL_ERR_NOMEM. t need not be committed. */
int dl_type_compile(dl_type *t);   /* compile pack/unpack for t now */

/* Machine-aware thresholds (doc/tuning.md), set once at first use: from
   the machine's caches (hwloc), then a tuning file written by dataloop-tune
   (DL_TUNE_FILE, else $XDG_CONFIG_HOME or ~/.config, /dataloop/tune.conf),
   then the environment variable named for each. */
typedef struct dl_tune {
  size_t l1d, l2, l3;       /* cache bytes: L1d and L2 of a core, L3; 0: unknown */
  int cores;
  size_t nt_threshold;      /* DL_NT_THRESHOLD: contiguous copies of at least
                               this many bytes use non-temporal stores; 0: never */
  size_t list_batch;        /* DL_LIST_BATCH: entries of an iovec or
                               offset/length batch in file I/O */
  const char *file;         /* the tuning file read, or NULL */
} dl_tune;
/* never NULL; the library's own read-only copy, valid for the process */
const dl_tune *dl_tune_get(void);
/* prints the thresholds and where each came from, in the tuning file's
   format */
/* DL_ERR_ARG: NULL f; DL_ERR_IO: ferror(f) is set afterwards */
int dl_tune_print(FILE *f);
/* Hints about how a type will be used; DL_HINT_REUSE_HIGH compiles it at
   commit (or at once if already committed). */
/* DL_ERR_ARG: NULL t, an unknown hint; a predefined type: DL_OK, ignored */
enum { DL_HINT_NONE = 0, DL_HINT_REUSE_HIGH = 1 };
int dl_type_set_hint(dl_type *t, int hint);

/* Takes another reference to t (released by dl_type_free); for holding a
   type across an operation that outlives its creator's reference. A
   predefined type needs none: DL_OK, nothing changes. */
/* DL_ERR_ARG: NULL t */
int dl_type_retain(dl_type *t);

/* Whether the packed stream of (count, t) is one run of memory in order:
   bytes [buf + *offset, buf + *offset + count * size) of a buffer buf, so
   that packing or unpacking it is a single copy (and an embedder or an MPI
   layer can send from or receive into the user's buffer directly). A
   (count, t) without data is dense with *offset 0. */
/* *dense = 1 or 0. Any type. Errors as dl_pack_size; NULL dense or offset:
   DL_ERR_ARG */
int dl_type_dense(dl_count count, const dl_type *t, int *dense, dl_aint *offset);

/* How many entries dl_segment_iov would write for packed bytes
   [first, *last) given room for all of them (adjacent blocks merged): the
   size of list a caller must provide, or the contiguous runs of a type.
   Nothing is read or written; a NULL segment buffer (MPI_BOTTOM) is
   accepted. *last is clipped to the stream's end. */
/* DL_ERR_ARG: NULL s, last or n, first > *last, first past the end;
   DL_ERR_BOUNDS (bounded segments) */
int dl_segment_iov_count(dl_segment *s, size_t first, size_t *last, size_t *n);

/* Total packed bytes of the segment's (count, type). */
/* 0 for a NULL s */
size_t dl_segment_size(const dl_segment *s);

/* Type to type: the packed stream of one (buffer, count, type) stored
   straight into another's memory, as a pack followed by an unpack but
   without staging the stream (a send to self, an unpack of data already in
   memory in another layout). The two streams are the same bytes by the
   caller's promise (as MPI's matching type signatures); only their sizes
   can be checked. Source and destination memory must not overlap: the
   result is then undefined, as for memcpy.
   segment copy: packed bytes [first, *last) of from's stream go to the
   same stream bytes of to's memory; *last is clipped to the shorter
   stream and set to where the call stopped (that end). Calls may come in
   any order, as with the other segment calls.
   DL_ERR_ARG: NULL from, to or last, from == to, first > *last, first past the shorter
   stream's end, a NULL segment buffer (MPI_BOTTOM) whose data would lie
   below address 4096 for a nonempty range (nothing written);
   DL_ERR_BOUNDS: a bounded segment (either) would be touched outside its
   bounds (nothing written). */
int dl_segment_copy(dl_segment *from, dl_segment *to, size_t first,
                    size_t *last);
/* one-shot: scount elements of committed st at src (NULL: MPI_BOTTOM) to
   dcount elements of committed dt at dst (NULL: MPI_BOTTOM); the first
   min(both packed sizes) bytes of the stream are copied and *copied says
   how many (0 on any error but truncation).
   DL_ERR_ARG: NULL st, dt or copied, a count < 0, a NULL buffer whose data
   would lie below address 4096 (nothing written); DL_ERR_NOT_COMMITTED;
   DL_ERR_OVERFLOW: a packed size past SIZE_MAX; DL_ERR_TRUNCATE: dt's
   packed size is smaller than st's; what fits is copied, as dl_unpack
   does, and nothing past dcount elements of dt is written; DL_ERR_NOMEM
   (trees deeper than 31 levels). */
int dl_copy(const void *src, dl_count scount, const dl_type *st, void *dst,
            dl_count dcount, const dl_type *dt, size_t *copied);

/* Actions: a table of leaf functions, one per leaf loop kind. The segment
   hands each function a whole leaf loop, or the part of it inside the
   requested range, described by a dl_piece. Blocks are visited in packed
   order: for r in [0, reps), for i in [0, count): block i of repetition r
   starts at base + r * rep_stride + (vector: i * stride; otherwise offs[i]).
   A function returns how many packed bytes it consumed; returning fewer than
   dl_piece_bytes(p) stops processing there (an output list filled). */
typedef struct dl_piece {
  char *base;            /* address that offsets are relative to */
  dl_count reps;         /* outer repetitions, >= 1 */
  dl_aint rep_stride;    /* bytes between repetitions */
  dl_count count;        /* blocks per repetition */
  size_t blk;            /* contig: bytes; vector/blockindexed: block bytes */
  dl_aint stride;        /* vector: bytes between blocks */
  const dl_aint *offs;   /* blockindexed/indexed: count block offsets */
  const dl_count *pre;   /* indexed: count + 1 packed-byte prefix sums; block
                            i has pre[i + 1] - pre[i] bytes (pre[0] need not
                            be 0) */
  size_t min_blk, max_blk; /* indexed: bounds on block bytes */
  size_t pos;            /* packed-stream position of the piece's first byte */
  unsigned period;       /* indexed: block lengths repeat every period
                            blocks (0: not known to) */
  int apart;             /* indexed with a period: blocks of different phases
                            share no byte */
  const int32_t *offs32; /* blockindexed/indexed: offs as 32-bit integers,
                            where every one fits (NULL when not known to) */
} dl_piece;

typedef size_t (*dl_leaf_fn)(void *state, const dl_piece *p);
typedef struct dl_action {
  dl_leaf_fn contig;        /* one block of p->blk bytes at p->base */
  dl_leaf_fn vector;
  dl_leaf_fn blockindexed;
  dl_leaf_fn indexed;
} dl_action;

/* bytes a piece covers */
/* 0 for a NULL p */
size_t dl_piece_bytes(const dl_piece *p);

/* Runs action a over packed bytes [first, *last) of the segment. */
/* state goes to every leaf call as is. All four entries of a must be set.
   DL_ERR_ARG: NULL a or entry, and as the other segment calls;
   DL_ERR_BOUNDS (bounded segments, before any leaf call). */
int dl_segment_process(dl_segment *s, size_t first, size_t *last,
                       const dl_action *a, void *state);

#ifdef __cplusplus
}
#endif
#endif
