/* The file I/O layer: views, requests and what each file of src/io offers
 * the others: config.c (tunables from the environment), view.c (views by
 * MPI-IO's rules), scratch.c (per-request buffers a view caches), sys.c
 * (system call loops, locks), mem.c (the memory side), sieve.c (data
 * sieving), rw.c (requests and direct transfer). doc/io.md explains it.
 *
 * A request (one write_at or read_at) walks two segments side by side: the
 * file side over the filetype copies the request touches (offsets relative
 * to the file offset of the first copy), and the memory side over (buf,
 * count, memtype). File pieces come in bounded (offset, length) batches;
 * each run of pieces is either sieved (sieve.c: one covering read, a copy
 * through the kernels, for writes a locked write-back) or issued directly
 * (rw.c: one preadv/pwritev per file piece, joined with the memory pieces of
 * the same stream bytes by mem.c).
 */
#ifndef DLI_IO_H
#define DLI_IO_H

#include <fcntl.h>
#include <stdatomic.h>
#include <sys/types.h>
#include "../../actions/actions.h"
#include "dataloop-io.h"

/* ---- tunables (config.c) ---- */
typedef struct dli_io_limits {
  size_t list_max;      /* file (offset, length) pieces per batch */
  size_t iov_max;       /* memory iovecs per batch */
  size_t sys_iov_max;   /* iovecs per preadv/pwritev, <= IOV_MAX */
  size_t sieve_read;    /* read sieve buffer bytes; 0: no read sieving */
  size_t sieve_write;   /* write sieve buffer bytes; 0: no write sieving */
  size_t stage;         /* bounce buffer bytes for fragmented memory */
  size_t gap_read;      /* largest hole a sieved read group may add */
  size_t gap_write;     /* the same for writes */
  size_t piece_max;     /* largest piece worth sieving */
  size_t mem_piece_min; /* average memory piece below which memory is packed */
} dli_io_limits;

/* defaults with the environment applied; read once, thread-safe */
DLI_HIDDEN const dli_io_limits *dli_io_defaults(void);

/* ---- system calls (sys.c); a test may replace them on one view ---- */
typedef struct dli_io_ops {
  ssize_t (*preadv)(void *ctx, int fd, const struct iovec *iov, int n, off_t off);
  ssize_t (*pwritev)(void *ctx, int fd, const struct iovec *iov, int n, off_t off);
  int (*setlk)(void *ctx, int fd, int cmd, struct flock *fl);   /* fcntl */
  void *ctx;
} dli_io_ops;
DLI_HIDDEN extern const dli_io_ops dli_io_posix;

/* scratch memory of one request; a view caches one set */
typedef struct dli_scratch {
  int64_t *offs, *lens;         /* list_max file pieces */
  struct iovec *miov;           /* iov_max memory pieces */
  struct iovec *sys;            /* sys_iov_max entries of one system call */
  size_t lists_for[3];          /* the limits the lists were sized for */
  char *sieve;
  size_t sieve_cap;
  char *stage;
  size_t stage_cap;
} dli_scratch;

#define DLI_VIEW_MAGIC 0x646c7677u  /* "dlvw" */

struct dl_file_view {
  uint32_t magic;
  int fd;
  dl_aint disp;
  const dl_type *etype, *ftype;   /* references held */
  dl_count esize, fsize;
  dl_aint fext, ftrue_lb, ftrue_ub;
  bool overlap;                   /* bytes repeat: the view is read-only */
  dli_io_limits lim;
  dli_io_ops ops;
  atomic_flag busy;               /* the cached scratch is in use */
  dli_scratch cache;
};

static inline bool dli_io_committed(const dl_type *t)
{
  return t->builtin ||
         atomic_load_explicit(&((dl_type *)t)->committed, memory_order_acquire);
}

/* internal setters, for tests: limits (every field >= 1 except the sieve
   sizes, which may be 0) and system calls */
DLI_HIDDEN int dli_file_view_set_limits(dl_file_view *v, const dli_io_limits *l);
DLI_HIDDEN void dli_file_view_set_ops(dl_file_view *v, const dli_io_ops *ops);

/* scratch of one request: the view's cached set, or `spare` (zeroed) when
   another thread holds it; lists sized to the limits; buffers grown on
   demand up to `limit` bytes */
DLI_HIDDEN dli_scratch *dli_scratch_get(dl_file_view *v, dli_scratch *spare);
DLI_HIDDEN void dli_scratch_put(dl_file_view *v, dli_scratch *s);
DLI_HIDDEN int dli_scratch_lists(dli_scratch *s, const dli_io_limits *l);
DLI_HIDDEN char *dli_scratch_buf(char **p, size_t *cap, size_t want, size_t limit);
DLI_HIDDEN void dli_scratch_release(dli_scratch *s);

/* ---- one request ---- */
enum dli_mem_mode { DLI_MEM_CONTIG, DLI_MEM_IOV, DLI_MEM_PACK };

typedef struct dli_req {
  dl_file_view *v;
  bool write;
  dl_segment *fs;          /* file side; addresses are offsets from base */
  dl_segment *ms;          /* memory side */
  int64_t base;            /* file offset of the first filetype copy used */
  size_t f0;               /* file-side stream position of the first byte */
  size_t n;                /* bytes of the request */
  size_t done;             /* bytes moved and accounted for */
  bool eof;                /* a read reached end of file */
  bool sieve;              /* sieving allowed for this request */
  bool lock;               /* writes: lock what is written (sieving writers
                              may share the file) */
  dli_scratch *sc;
  /* memory side (mem.c) */
  int mode;
  char *contig;            /* DLI_MEM_CONTIG: address of stream byte 0 */
  size_t mb_n, mb_i, mb_off, mb_pos, mb_end;    /* iov batch cursor */
  size_t ws, wvalid, we;   /* staged window [ws, we); valid up to wvalid */
} dli_req;

/* ---- the memory side (mem.c); positions are memory-stream bytes ---- */
DLI_HIDDEN int dli_mem_start(dli_req *r);
/* memory for [a, b) as at most max iovecs covering [a, a + *bytes) */
DLI_HIDDEN int dli_mem_iov(dli_req *r, size_t a, size_t b, struct iovec *iov,
                           size_t max, size_t *n, size_t *bytes);
/* one contiguous span for [a, b) (b - a <= stage capacity unless the
   memory is contiguous): writes get the data, reads a place to put it */
DLI_HIDDEN int dli_mem_span(dli_req *r, size_t a, size_t b, char **p);
/* reads: [a, b) of the last span (or PACK-mode dli_mem_iov) now holds
   data; spans are filled in stream order */
DLI_HIDDEN int dli_mem_filled(dli_req *r, size_t a, size_t b);
/* reads: deliver every filled staged byte to memory */
DLI_HIDDEN int dli_mem_flush(dli_req *r);
/* bytes one dli_mem_span may cover */
DLI_HIDDEN size_t dli_mem_span_max(const dli_req *r);

/* ---- system call loops (sys.c) ---- */
/* moves all of iov[0, n) at off, retrying EINTR and short transfers; a
   read stops early at end of file and sets *eof (which may be NULL for
   writes). *done gets the bytes moved. Returns DL_OK or DL_ERR_IO with
   errno set. iov is consumed. */
DLI_HIDDEN int dli_io_full(dli_req *r, bool write, struct iovec *iov, size_t n,
                           int64_t off, size_t *done, bool *eof);
/* fcntl write lock on [lo, hi), waiting; false (errno set) if refused */
DLI_HIDDEN bool dli_io_lock(dli_req *r, int64_t lo, int64_t hi);
DLI_HIDDEN void dli_io_unlock(dli_req *r, int64_t lo, int64_t hi);

/* ---- sieving (sieve.c) ---- */
/* pieces k.. of the batch that form a sieved group (0 or 1: none) */
DLI_HIDDEN size_t dli_sieve_group(const dli_req *r, size_t k, size_t np);
/* whether piece k starts a sieved group: O(1) */
DLI_HIDDEN bool dli_sieve_starts(const dli_req *r, size_t k, size_t np);
/* transfers group pieces [k, k + g), whose first byte is at file-side
   stream position s; *moved gets the stream bytes accounted for */
DLI_HIDDEN int dli_sieve_rw(dli_req *r, size_t k, size_t g, size_t s,
                            size_t *moved);
/* stream bytes of pieces [k, k + g), in order, that lie wholly below file
   offset lim, plus the part below lim of the first that does not */
DLI_HIDDEN size_t dli_prefix_below(const dli_req *r, size_t k, size_t g,
                                   int64_t lim);

/* ---- direct transfer (rw.c) ---- */
/* pieces [k, k + d) one system call (or a few) each */
DLI_HIDDEN int dli_direct_rw(dli_req *r, size_t k, size_t d, size_t s,
                             size_t *moved);

#endif
