/* dataloop: a datatype engine for noncontiguous data.
 *
 * Types are built with the MPI constructors, turned into trees of five loop
 * kinds when built, and processed by segments (resumable, any byte range)
 * running actions (pack, unpack, iovec, offset/length lists, or your own).
 * Every function returns DL_OK (0) or a DL_ERR_* code; dl_strerror names it.
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

/* status codes; dl_strerror(code) never returns NULL */
enum { DL_OK = 0, DL_ERR_ARG, DL_ERR_NOMEM, DL_ERR_OVERFLOW, DL_ERR_TRUNCATE,
       DL_ERR_NOT_COMMITTED, DL_ERR_UNSUPPORTED, DL_ERR_CORRUPT, DL_ERR_BOUNDS,
       DL_ERR_IO };
const char *dl_strerror(int code);

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
dl_type *dl_builtin(dl_builtin_t which);

/* constructors: MPI semantics, MPI-4 large-count widths, h* take bytes */
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
int dl_type_struct(dl_count count, const dl_count *blocklens,
                   const dl_aint *displs, dl_type *const *types, dl_type **out);
int dl_type_resized(dl_type *old, dl_aint lb, dl_aint extent, dl_type **out);
enum { DL_ORDER_C = 0, DL_ORDER_FORTRAN = 1 };
int dl_type_subarray(int ndims, const dl_count *sizes, const dl_count *subsizes,
                     const dl_count *starts, int order, dl_type *old,
                     dl_type **out);
enum { DL_DISTRIBUTE_BLOCK, DL_DISTRIBUTE_CYCLIC, DL_DISTRIBUTE_NONE };
enum { DL_DISTRIBUTE_DFLT_DARG = -1 };
int dl_type_darray(int size, int rank, int ndims, const dl_count *gsizes,
                   const int *distribs, const int *dargs, const int *psizes,
                   int order, dl_type *old, dl_type **out);
int dl_type_dup(dl_type *old, dl_type **out);
int dl_type_commit(dl_type *t);        /* committing twice is DL_OK */
/* drops a reference and sets *t = NULL; for a predefined type nothing
   changes, *t included, and DL_ERR_ARG is returned (as MPI_Type_free refuses
   predefined types) */
int dl_type_free(dl_type **t);

int dl_type_size(const dl_type *t, dl_count *size);
int dl_type_extent(const dl_type *t, dl_aint *lb, dl_aint *extent);
int dl_type_true_extent(const dl_type *t, dl_aint *true_lb, dl_aint *true_extent);
int dl_type_print(FILE *f, const dl_type *t);   /* the dataloop tree */

/* serialization, for shipping a committed type to another process (an I/O
   server); the byte format is in doc/serialization.md */
/* *needed = bytes the serialized form takes (t must be committed). If
   size < *needed nothing is written and DL_ERR_TRUNCATE is returned; buf may
   be NULL when size is 0, to ask for the size. */
int dl_type_serialize(const dl_type *t, void *buf, size_t size, size_t *needed);
/* validates untrusted input completely; exactly `size` bytes must form one
   serialized type (trailing bytes are corruption); DL_ERR_CORRUPT on
   anything wrong, with *out set to NULL. On success *out is a new, committed
   type that owns its memory (buf may be freed at once). */
int dl_type_deserialize(const void *buf, size_t size, dl_type **out);

/* one-shot pack/unpack with MPI_Pack/MPI_Unpack semantics:
   *position is the byte offset in the packed buffer, advanced on success */
int dl_pack_size(dl_count count, const dl_type *t, size_t *size);
int dl_pack(const void *inbuf, dl_count incount, const dl_type *t,
            void *outbuf, size_t outsize, size_t *position);
int dl_unpack(const void *inbuf, size_t insize, size_t *position,
              void *outbuf, dl_count outcount, const dl_type *t);

/* segments: resumable processing of the packed byte stream of
   (buf, count, t). Each call handles packed bytes [first, *last) and sets
   *last to where it stopped (earlier than asked only when the output list
   filled). Calls may come in any order; sequential calls cost no seek. */
int dl_segment_create(void *buf, dl_count count, const dl_type *t,
                      dl_segment **out);
int dl_segment_pack(dl_segment *s, size_t first, size_t *last, void *outbuf);
int dl_segment_unpack(dl_segment *s, size_t first, size_t *last,
                      const void *inbuf);
int dl_segment_iov(dl_segment *s, size_t first, size_t *last,
                   struct iovec *iov, size_t max_iov, size_t *n_iov);
/* offsets are bytes relative to buf (for a file view: to the view's start) */
int dl_segment_offlen(dl_segment *s, size_t first, size_t *last,
                      int64_t *offsets, int64_t *lengths, size_t max,
                      size_t *n);
/* like dl_segment_create, but every byte that any call on this segment would
   read or write must lie in [buf + lo, buf + hi); a call that would touch
   anything outside fails with DL_ERR_BOUNDS before touching anything */
int dl_segment_create_bounded(void *buf, dl_count count, const dl_type *t,
                              dl_aint lo, dl_aint hi, dl_segment **out);
void dl_segment_free(dl_segment **s);

/* MPI_Pack_external semantics; datarep must be "external32", anything else
   is DL_ERR_UNSUPPORTED */
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
dl_type *dl_builtin_more(dl_builtin_more_t which);
/* The external32 stream of a segment's (count, type), processed in any
   byte range and order like the native one: positions are bytes of the
   external stream (dl_pack_external_size of the segment's count and type);
   *last is clipped to its end. Elements cut by a range's ends are handled
   whole (unpacking one reads the element's other bytes back from memory). */
int dl_segment_pack_external(const char *datarep, dl_segment *s, size_t first,
                             size_t *last, void *outbuf);
int dl_segment_unpack_external(const char *datarep, dl_segment *s,
                               size_t first, size_t *last, const void *inbuf);

/* Runtime code generation: compile pack/unpack for t now. Returns
   DL_ERR_UNSUPPORTED when built without LLVM (--with-llvm) or when nothing
   in t's loops can be compiled; the interpreter then runs, with identical
   results. Environment: DL_JIT=0 never compiles; DL_JIT_THRESHOLD=N
   compiles a type after N uses (0: at its first use). */
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
const dl_tune *dl_tune_get(void);
/* prints the thresholds and where each came from, in the tuning file's
   format */
int dl_tune_print(FILE *f);
/* Hints about how a type will be used; DL_HINT_REUSE_HIGH compiles it at
   commit (or at once if already committed). */
enum { DL_HINT_NONE = 0, DL_HINT_REUSE_HIGH = 1 };
int dl_type_set_hint(dl_type *t, int hint);

/* Takes another reference to t (released by dl_type_free); for holding a
   type across an operation that outlives its creator's reference. A
   predefined type needs none: DL_OK, nothing changes. */
int dl_type_retain(dl_type *t);

/* Whether the packed stream of (count, t) is one run of memory in order:
   bytes [buf + *offset, buf + *offset + count * size) of a buffer buf, so
   that packing or unpacking it is a single copy (and an embedder or an MPI
   layer can send from or receive into the user's buffer directly). A
   (count, t) without data is dense with *offset 0. */
int dl_type_dense(dl_count count, const dl_type *t, int *dense, dl_aint *offset);

/* Total packed bytes of the segment's (count, type). */
size_t dl_segment_size(const dl_segment *s);

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
} dl_piece;

typedef size_t (*dl_leaf_fn)(void *state, const dl_piece *p);
typedef struct dl_action {
  dl_leaf_fn contig;        /* one block of p->blk bytes at p->base */
  dl_leaf_fn vector;
  dl_leaf_fn blockindexed;
  dl_leaf_fn indexed;
} dl_action;

/* bytes a piece covers */
size_t dl_piece_bytes(const dl_piece *p);

/* Runs action a over packed bytes [first, *last) of the segment. */
int dl_segment_process(dl_segment *s, size_t first, size_t *last,
                       const dl_action *a, void *state);

#ifdef __cplusplus
}
#endif
#endif
