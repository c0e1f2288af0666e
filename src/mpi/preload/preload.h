/* The PMPI interposer (libdataloop-mpi-preload.so): what its files offer
 * each other. Nothing declared here is exported; the library's only public
 * symbols are the MPI_* functions it intercepts and dl_preload_active.
 *
 *   config.c    environment (DL_TRACE, DL_PIPELINE, DL_PIPELINE_CHUNK,
 *               DL_STRATEGY, DL_ADAPT, DL_TRY_MPICH), trace
 *   errors.c    errors through the communicator's error handler
 *   data.c      a user buffer as dataloop sees it; staging buffers
 *   raw.c       byte sends and receives in the int or the _c form
 *   pack.c      MPI_Pack, MPI_Unpack, MPI_Pack_size and their _c forms
 *   external.c  MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size
 *   p2p.c       point-to-point calls with derived datatypes
 *   requests.c  the table of interposed requests, freed requests, finalize
 *   complete.c  MPI_Wait*, MPI_Test*, MPI_Request_free, MPI_Cancel
 *   pipeline.c  the opt-in chunk streams (DL_PIPELINE=1)
 *   strategy.c  how each (type, count) moves: direct, blocks, pack, pipeline,
 *               MPICH's own engine
 *   stats.c     counts of what it handled (dl_preload_counts, DL_STATS_FILE)
 *   probe.c     probes and matched receives; streams probed whole (parked)
 */
#ifndef DLP_PRELOAD_H
#define DLP_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../bridge.h"

/* ---- configuration (config.c) ---- */
typedef struct dlp_config {
  bool trace;        /* DL_TRACE=1: a line per interposed operation, stderr */
  bool pipeline;     /* DL_PIPELINE=1: receives of >= chunk bytes are
                        streams, sends may be */
  size_t chunk;      /* DL_PIPELINE_CHUNK: bytes per chunk (dl_tune) */
  int ring;          /* DL_PIPELINE_RING: packed chunks in flight, 2..4 */
  int strategy;      /* DL_STRATEGY: DLP_S_PACK, _BLOCKS, _PIPE or _MPICH
                        forced, or -1 */
  bool adapt;        /* DL_ADAPT (default 1): timed sends and receives may
                        switch a (type, count) among PACK, BLOCKS, MPICH (and
                        PIPE) */
  bool try_mpich;    /* DL_TRY_MPICH (default 1): MPICH is one of the kinds */
} dlp_config;
DLI_HIDDEN const dlp_config *dlp_cfg(void);
/* switches the mode at run time (the benchmark does, on all ranks at a
   point where no message is in flight); chunk 0 keeps the chunk size */
DLI_HIDDEN void dlp_configure(bool pipeline, size_t chunk);
/* forces a strategy (DLP_S_PACK, _BLOCKS, _PIPE, _MPICH) or -1 for the automatic
   choice; for the benchmark, like dlp_configure */
DLI_HIDDEN void dlp_configure_strategy(int strategy);
/* DL_ADAPT and DL_TRY_MPICH at run time, for the tests; plans made before
   keep theirs */
DLI_HIDDEN void dlp_configure_adapt(bool adapt);
DLI_HIDDEN void dlp_configure_try_mpich(bool try_mpich);
DLI_HIDDEN void dlp_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define DLP_TRACE(...)                  \
  do {                                  \
    if (dlp_cfg()->trace)               \
      dlp_trace(__VA_ARGS__);           \
  } while (0)

/* exported: 1 (dlsym(RTLD_DEFAULT, "dl_preload_active") finds it only when
   the interposer is loaded) */
int dl_preload_active(void);

/* ---- counts (stats.c) ---- */
/* what dl_preload_counts reports, in this order: MPI_Pack and MPI_Unpack
   calls (native and external32) and derived-type sends and receives
   (a sendrecv counts once on each side) that dataloop handled */
enum { DLP_N_PACK, DLP_N_UNPACK, DLP_N_SEND, DLP_N_RECV, DLP_N_COUNTS };
DLI_HIDDEN void dlp_count(int what);
/* exported: copies the first n counts (at most DLP_N_COUNTS) to out and
   returns DLP_N_COUNTS */
int dl_preload_counts(unsigned long long *out, int n);
/* appends this rank's counts to DL_STATS_FILE, if set */
DLI_HIDDEN void dlp_stats_write(void);

/* ---- errors (errors.c) ---- */
/* an error the interposer detected, through comm's error handler (which
   may abort, as MPICH's own errors would); returns code */
DLI_HIDDEN int dlp_raise(MPI_Comm comm, int code);
/* the MPI error class for a DL_ERR_* code */
DLI_HIDDEN int dlp_class_of(int dlrc);
DLI_HIDDEN int dlp_class(int code);   /* MPI_Error_class, never failing */

/* ---- the user's data (data.c) ---- */
typedef struct dlp_data {
  void *buf;
  MPI_Count count;
  MPI_Datatype dt;
  dl_type *t;          /* belongs to dt (retain it to hold it) */
  size_t bytes;        /* packed bytes of (count, dt) */
  bool named;          /* dt is predefined */
  bool dense;          /* the packed stream is bytes [base, base + bytes) */
  char *base;
  int strategy;        /* DLP_S_*, from dlp_plan */
  MPI_Datatype blocks; /* BLOCKS: the blocks, relative to buf */
  bool engine_ok;      /* MPICH's engine places the data as dataloop does
                          (dli_type_from_mpi_props) */
  size_t mpich_unit;   /* MPICH may unpack into the user's buffer pieces of
                          the stream cut at multiples of this; 0 (always,
                          as MPICH 4.0.2 fails receives whose elements
                          straddle its fragments): an MPICH receive is
                          staged */
  void *plan;          /* the cache entry in use until dlp_plan_done */
  bool trial;          /* this use is one of the plan's timed trials */
  bool control;        /* this use times the kept kind just before a trial */
  bool watch;          /* this use times the kept kind for its own speed */
} dlp_data;

/* ---- strategies (strategy.c) ---- */
enum { DLP_S_DIRECT, DLP_S_BLOCKS, DLP_S_PACK, DLP_S_PIPE, DLP_S_MPICH };
/* chooses how d moves (stream: a pipeline-mode message of at least a
   chunk, which may be PIPE as well as PACK or BLOCKS); BLOCKS leaves the
   hindexed type in d->blocks. Call dlp_plan_done once the MPI operation
   using d has started. */
DLI_HIDDEN void dlp_plan(dlp_data *d, bool stream);
DLI_HIDDEN void dlp_plan_done(dlp_data *d);
/* dlp_plan_done for a blocking send whose duration the caller measured
   (seconds; negative: failed): the plan's timed choice among its kinds
   learns from it */
DLI_HIDDEN void dlp_plan_timed_done(dlp_data *d, double seconds);
/* dlp_plan_done for a blocking receive whose duration, unpacking
   included, the caller measured (seconds; negative: failed) */
DLI_HIDDEN void dlp_plan_received(dlp_data *d, double seconds);
/* seconds on a monotonic clock */
DLI_HIDDEN double dlp_now(void);
DLI_HIDDEN const char *dlp_strategy_name(int s);
/* frees every cached plan (at MPI_Finalize) */
DLI_HIDDEN void dlp_plans_free(void);

enum { DLP_PASS = -1 };  /* not the interposer's business: MPICH judges */
/* describes (buf, count, dt): MPI_SUCCESS, DLP_PASS for arguments MPICH
   should judge (a null or invalid type, a negative count), or an MPI error
   class (the type cannot be decoded, sizes overflow) */
DLI_HIDDEN int dlp_data_get(const void *buf, MPI_Count count, MPI_Datatype dt,
                            dlp_data *d);
/* whether the default mode hands the user's own arguments to MPICH */
static inline bool dlp_straight(const dlp_data *d)
{
  return d->named || d->dense || d->bytes == 0;
}
/* a buffer as MPICH is handed it */
typedef struct dlp_args {
  void *buf;
  MPI_Count count;
  MPI_Datatype dt;
} dlp_args;
/* BLOCKS and MPICH hand MPICH the user's buffer as it is (*a): described
   by the hindexed type of its blocks, or by the user's own type; a receive
   of the latter only where MPICH unpacks it soundly (d->mpich_unit) and
   pieces cut at multiples of `cut` bytes (0: the message whole) end
   between elements. false: the data is staged */
DLI_HIDDEN bool dlp_in_place(const dlp_data *d, bool recv, size_t cut, dlp_args *a);
/* staging memory of n bytes (a kept buffer when one is large enough), and
   its return; dlp_stage_flush frees the kept ones (at MPI_Finalize) */
DLI_HIDDEN void *dlp_stage_get(size_t n);
DLI_HIDDEN void dlp_stage_put(void *buf);
DLI_HIDDEN void dlp_stage_flush(void);
/* a new staging buffer (at least one byte) holding the packed data; an MPI
   error class on failure */
DLI_HIDDEN int dlp_stage_out(const dlp_data *d, void **stage);
/* unpacks the first n packed bytes (n <= d->bytes) into the user's data */
DLI_HIDDEN void dlp_stage_in(const dlp_data *d, const void *stage, size_t n);
/* bytes a receive status says arrived */
DLI_HIDDEN size_t dlp_status_bytes(const MPI_Status *st);

/* ---- byte messages, int or _c form by size (raw.c) ---- */
enum { DLP_STANDARD, DLP_SYNC, DLP_READY, DLP_BUFFERED };
DLI_HIDDEN int dlp_send_as(const void *buf, MPI_Count count, MPI_Datatype dt,
                           int dest, int tag, MPI_Comm comm, int mode);
DLI_HIDDEN int dlp_isend_as(const void *buf, MPI_Count count, MPI_Datatype dt,
                            int dest, int tag, MPI_Comm comm, int mode,
                            MPI_Request *req);
DLI_HIDDEN int dlp_recv_as(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                           int tag, MPI_Comm comm, MPI_Status *st);
DLI_HIDDEN int dlp_irecv_as(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                            int tag, MPI_Comm comm, MPI_Request *req);

/* ---- interposed requests (requests.c) ---- */
enum { DLP_REQ_SEND, DLP_REQ_RECV, DLP_REQ_PIPE };
typedef struct dlp_pipe dlp_pipe;
typedef struct dlp_req {
  MPI_Request handle;    /* what the user holds */
  int kind;
  void *stage;           /* SEND, RECV: the packed bytes */
  dlp_data d;            /* RECV: where they go; d.t holds a reference */
  dlp_pipe *pipe;        /* PIPE */
  struct dlp_req *next;
} dlp_req;

DLI_HIDDEN dlp_req *dlp_req_new(int kind);
/* a staged SEND or RECV whose request MPICH just started: entered in the
   table, or finished at once if already complete */
DLI_HIDDEN void dlp_req_track(dlp_req *r, MPI_Request handle);
/* enters r under its handle (newest first, so a handle MPICH reuses at
   once finds the new entry) */
DLI_HIDDEN void dlp_req_add(dlp_req *r, MPI_Request handle);
DLI_HIDDEN bool dlp_req_any(void);           /* entries or orphans exist */
DLI_HIDDEN dlp_req *dlp_req_find(MPI_Request h);
/* the entry of h taken out of the table (NULL: not interposed), for a call
   that may complete it; dlp_req_unclaim puts it back if it did not */
DLI_HIDDEN dlp_req *dlp_req_claim(MPI_Request h);
DLI_HIDDEN void dlp_req_unclaim(dlp_req *r);
/* the interposer's work for a claimed request MPICH has completed (and
   freed), whose error MPICH reported as err: unpacks a receive that was not
   cancelled, frees everything, returns the error to report for it. That is
   err, or a stream's own error; *raise_on is then the communicator to
   raise it on (MPI_COMM_NULL when MPICH has already raised it). */
DLI_HIDDEN int dlp_req_finish(dlp_req *r, MPI_Status *st, int err,
                              MPI_Comm *raise_on);
/* MPI_Request_free of a claimed interposed request: it completes later */
DLI_HIDDEN void dlp_req_orphan(dlp_req *r);
/* completes orphans that are done; never blocks */
DLI_HIDDEN void dlp_orphans_poll(void);
/* registers the MPI_Finalize hook that drains orphans (idempotent) */
DLI_HIDDEN void dlp_finalize_hook(void);

/* ---- completion (complete.c) ---- */
/* MPI_Wait for the blocking calls built on nonblocking ones (errors of
   their own go to their communicator), and MPI_Cancel */
DLI_HIDDEN int dlp_wait(MPI_Request *req, MPI_Status *status);
DLI_HIDDEN int dlp_cancel(MPI_Request *req);

/* ---- pipelined streams (pipeline.c) ---- */
/* some stream is in progress: blocking calls must poll and progress */
DLI_HIDDEN bool dlp_pipe_active(void);
/* advances every stream as far as it can without blocking */
DLI_HIDDEN void dlp_progress(void);
/* whether a send of d to (comm, dest, tag) is a pipeline-mode operation:
   at least a chunk, or queued behind a stream still sending there */
DLI_HIDDEN bool dlp_pipe_send_needed(const dlp_data *d, int dest, int tag,
                                     MPI_Comm comm);
/* whether a stream is still sending to (comm, dest, tag): a send there
   must be a stream too, to keep MPI's message order */
DLI_HIDDEN bool dlp_pipe_blocked(int dest, int tag, MPI_Comm comm);
/* nonblocking stream operations; *req is a generalized request. A
   receive's first receive lands in the user's blocks when d->strategy is
   BLOCKS (d->blocks, held until the call returns) */
DLI_HIDDEN int dlp_pipe_isend(const dlp_data *d, int dest, int tag, MPI_Comm comm,
                              int mode, MPI_Request *req);
DLI_HIDDEN int dlp_pipe_irecv(const dlp_data *d, int src, int tag, MPI_Comm comm,
                              MPI_Request *req);
/* a blocking stream receive while no stream is in progress: its first
   receive is MPICH's blocking one, and a message that arrived whole ends
   there with MPICH's status and code; a first chunk goes on as a stream
   (dlp_pipe_irecv's, waited for) */
DLI_HIDDEN int dlp_pipe_recv(const dlp_data *d, int src, int tag, MPI_Comm comm,
                             MPI_Status *status);
DLI_HIDDEN void dlp_pipe_cancel(dlp_pipe *p);
DLI_HIDDEN void dlp_pipe_orphan(dlp_pipe *p);
/* after its generalized request completed: the error to report (MPI_SUCCESS,
   MPI_ERR_TRUNCATE, a chunk's error), *comm where to raise it, *raised
   whether MPICH already raised it; frees p */
DLI_HIDDEN int dlp_pipe_finish(dlp_pipe *p, MPI_Comm *comm, bool *raised);
/* drives orphaned streams to their end (at MPI_Finalize) */
DLI_HIDDEN void dlp_pipe_drain_orphans(void);

/* ---- probed messages (probe.c) ---- */
/* a receive whose envelope matches a stream a probe received whole: true
   when it took it (delivered, *rc its code); false: none matches */
DLI_HIDDEN bool dlp_parked_recv(void *buf, MPI_Count count, MPI_Datatype dt,
                                int source, int tag, MPI_Comm comm,
                                MPI_Status *status, int *rc);
/* the same for a nonblocking receive: *req is a request already complete */
DLI_HIDDEN bool dlp_parked_irecv(void *buf, MPI_Count count, MPI_Datatype dt,
                                 int source, int tag, MPI_Comm comm,
                                 MPI_Request *req, int *rc);

#endif
