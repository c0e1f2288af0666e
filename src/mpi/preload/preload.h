/* The PMPI interposer (libdataloop-mpi-preload.so): what its files offer
 * each other. Nothing declared here is exported; the library's only public
 * symbols are the MPI_* functions it intercepts and the dl_preload_*
 * introspection calls. The files call one another one way
 * (test/cycles.sh); a part that must be called back joins a registry
 * (dlp_at_finalize, dlp_join_persistent).
 *
 *   config.c    environment (DL_TRACE, DL_PIPELINE, DL_PIPELINE_RING,
 *               DL_STRATEGY, DL_ADAPT), trace
 *   thresholds.c  pipeline_chunk, direct_block and the route table: from
 *               the caches, the tuning file, the environment
 *   plan.c      the route of each (type, count), chosen once and cached
 *   routes.c    the routes: direct, packed, blocks, MPICH's engine; each
 *               a start and a finish
 *   errors.c    errors through the communicator's error handler
 *   data.c      a user buffer as dataloop sees it; staging buffers
 *   raw.c       byte sends and receives (and persistent requests) in the
 *               int or the _c form
 *   pack.c      MPI_Pack, MPI_Unpack, MPI_Pack_size and their _c forms
 *   external.c  MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size
 *   p2p.c       point-to-point calls with derived datatypes
 *   persist.c   persistent requests: routed at _init, packed at each start
 *               (MPI_Start and PMPI_Start), their entries freed with them
 *   partitioned.c  partitioned requests: routed at _init, a packing send's
 *               partition packed at MPI_Pready (and PMPI_Pready)
 *   requests.c  interposed requests: an operation started or run on its
 *               route, the program's generalized request, its poll, wait
 *               and free functions, orphans
 *   finalize.c  what MPI_Finalize leaves to do, each part's step in order
 *   complete.c  MPI_Wait*, MPI_Test*, MPI_Request_get_status,
 *               MPI_Request_free, MPI_Cancel, under their PMPI_ names too
 *   next.c      MPICH's own request calls, for the interposer's use
 *   host.c      which host MPI it runs on: the deviations it works around
 *               (host.h names them; host_mpich_4_0_2.c, one file per host
 *               and version, says which and what)
 *   pipeline.c  the opt-in chunk streams (DL_PIPELINE=1): the pipeline
 *               route and its progress, a module behind dlp_streams()
 *               (the only way to it);
 *               stream_recv.c their receiving side (stream.h, theirs only)
 *   stats.c     counts of what it handled (dl_preload_counts,
 *               dl_preload_rma_routes, DL_STATS_FILE)
 *   probe.c     probes and matched receives; streams probed whole (parked)
 *   window.c    windows: every rank's size and unit, the work a
 *               synchronization leaves (freeing staging, unpacking gets)
 *   landing.c   puts and gets landed: unpacked, packed by the target's fence
 *   tally.c     a fence's count exchange, through shared memory on one node
 *               (window.h: what these three and the rma files share)
 *   rma.c       one-sided operations with derived datatypes: described,
 *               their route chosen (rma.h: what the rma files share)
 *   rma_routes.c  the one-sided routes, a table (rma.h): direct, mpich,
 *               pack, blocks, lockstep, pipeline, landed, mapped
 *   rma_issue.c one MPICH operation of a described one-sided operation
 *   rma_request.c the request forms, finished at completion or at the
 *               synchronization that completes them
 *   coll.c      collectives with derived datatypes, staged (coll.h:
 *               what it shares with the entry points, coll_rooted.c,
 *               coll_gathers.c, coll_alltoall.c)
 */
#ifndef DLP_PRELOAD_H
#define DLP_PRELOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../bridge.h"

/* ---- configuration (config.c) ---- */
typedef struct dlp_config {
  bool trace;        /* DL_TRACE=1: each plan's route, stream ends, on stderr */
  bool pipeline;     /* DL_PIPELINE=1: receives of >= chunk bytes are
                        streams, sends may be */
  int ring;          /* DL_PIPELINE_RING: packed chunks in flight, 2..4 */
  int strategy;      /* DL_STRATEGY: a route (DLP_R_PACK, _BLOCKS, _PIPE or
                        _MPICH) forced, or -1 */
  bool adapt;        /* DL_ADAPT=1: one calibration round per plan */
  int land;          /* DL_RMA_LAND: puts in fence epochs land at the
                        target: 1 always, 0 where the model says, -1 never */
  size_t land_chunk; /* DL_RMA_LAND_CHUNK: stream bytes per landing (0: the model's) */
  int map;           /* DL_RMA_MAP: puts and gets copied into target memory
                        mapped here (rma.c): 1 always, 0 unless a route
                        is forced or landing is, -1 never (and MPI_Win_allocate
                        stays MPICH's) */
  int peers;         /* DL_RMA_PEERS: which windows the interposer describes
                        (peers.c) */
} dlp_config;
enum {
  DLP_PEERS_CHECK,   /* those whose every rank is found preloaded */
  DLP_PEERS_ALL,     /* every window: the job says every rank is preloaded */
  DLP_PEERS_NONE     /* none: every window is MPICH's alone */
};
DLI_HIDDEN const dlp_config *dlp_cfg(void);
/* the benchmark's and tests' switches, at a point where no message is in
   flight: the mode (chunk 0 keeps the chunk size), a forced route (-1:
   the thresholds choose), DL_ADAPT; plans made before keep theirs */
DLI_HIDDEN void dlp_configure(bool pipeline, size_t chunk);
DLI_HIDDEN void dlp_configure_strategy(int route);
DLI_HIDDEN void dlp_configure_adapt(bool adapt);
/* DL_RMA_LAND's setting for operations issued from now on (windows made
   under "never" never land) */
DLI_HIDDEN void dlp_configure_land(int land);
/* DL_RMA_MAP's setting for operations issued from now on (windows made
   under "never" are never mapped) */
DLI_HIDDEN void dlp_configure_map(int map);
/* the pipeline chunk in use */
DLI_HIDDEN size_t dlp_chunk(void);
DLI_HIDDEN void dlp_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define DLP_TRACE(...)                  \
  do {                                  \
    if (dlp_cfg()->trace)               \
      dlp_trace(__VA_ARGS__);           \
  } while (0)

/* exported: 1 (dlsym(RTLD_DEFAULT, "dl_preload_active") finds it only when
   the interposer is loaded) */
int dl_preload_active(void);
/* exported (plan.c): messages each route carried, and the routes' names */
int dl_preload_routes(unsigned long long *out, int n);
const char *dl_preload_route_name(int route);
/* exported (rma.c): one-sided operations each route carried as origin,
   then (entry DLP_NROUTES) those of blocks from the user's memory, then
   puts and gets landed at the target, those copied into mapped memory,
   and fences whose counts went through shared memory (tally.c) */
int dl_preload_rma_routes(unsigned long long *out, int n);

/* ---- a derived type's first use (defer.c) ---- */
/* whether a point-to-point message of count dt (a receive: recv) goes to
   MPICH as made because it is short and dt's first use since its commit
   (counted as DLP_N_DEFERRED); the next use of dt decodes it */
DLI_HIDDEN bool dlp_defer(MPI_Count count, MPI_Datatype dt, bool recv);

/* ---- counts (stats.c) ---- */
/* what dl_preload_counts reports, in this order: MPI_Pack and MPI_Unpack
   calls (native and external32) and derived-type sends and receives
   (a sendrecv counts once on each side) that dataloop handled, waits
   that blocked in MPICH on requests of pipeline streams as well as their
   own, and point-to-point sends and receives of any type of a pipeline
   chunk or more (those the pipeline mode treats as streams: where a run
   counts none, its pipeline mode moves every message as the default mode
   does), collective calls in which dataloop packed or unpacked
   (coll.c), and derived-type sends and receives handed to MPICH as made
   at their type's first use (defer.c) */
/* one-sided operations counted in slot (the point-to-point routes', then
   three more: rma.h) */
#define DLP_RMA_NCOUNTS (DLP_NROUTES + 3)
DLI_HIDDEN void dlp_rma_count(int slot);
/* fences' count exchanges through shared memory so far, in this process
   (tally.c) */
DLI_HIDDEN unsigned long long dlp_tally_shared(void);
enum { DLP_N_PACK, DLP_N_UNPACK, DLP_N_SEND, DLP_N_RECV, DLP_N_BLOCKED, DLP_N_LONG,
       DLP_N_COLL, DLP_N_DEFERRED, DLP_N_COUNTS };
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
/* the same with an error code of class cls whose MPI_Error_string is the
   formatted message (which should start with the MPI call's name) */
DLI_HIDDEN int dlp_raise_msg(MPI_Comm comm, int cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* the same through a window's error handler (one-sided operations) */
DLI_HIDDEN int dlp_raise_win_msg(MPI_Win win, int cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* a dataloop failure dlrc of class cls in call: the message is the call's
   name and dl_last_error_detail() (clear it before the dataloop calls),
   or dl_strerror(dlrc) when there is no detail */
DLI_HIDDEN int dlp_raise_dl(MPI_Comm comm, const char *call, int cls, int dlrc);
/* empties this thread's dl_last_error_detail() before dataloop calls whose
   failure dlp_raise_dl reports */
DLI_HIDDEN void dlp_detail_clear(void);
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
  bool engine_ok;      /* MPICH's engine places the data as dataloop does
                          (dli_type_from_mpi_info) */
  dl_count fanout;     /* dli_mpi_info's: what MPICH's engine's speed
                          depends on */
  dl_count unit;       /* dli_mpi_info's: MPICH's engine may receive it */
  MPI_Datatype basic;  /* dli_mpi_info's: its one predefined element type */
} dlp_data;

enum { DLP_PASS = -1 };  /* not the interposer's business: MPICH judges */
/* describes (buf, count, dt): MPI_SUCCESS, DLP_PASS for arguments MPICH
   should judge (a null or invalid type, a negative count), or an MPI error
   class (the type cannot be decoded, sizes overflow) */
DLI_HIDDEN int dlp_data_get(const void *buf, MPI_Count count, MPI_Datatype dt,
                            dlp_data *d);
/* whether the user's own arguments (or the dense bytes) go to MPICH */
static inline bool dlp_straight(const dlp_data *d)
{
  return d->named || d->dense || d->bytes == 0;
}
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

/* ---- thresholds (thresholds.c) ---- */
/* the routes, in the order dl_preload_routes counts them */
enum { DLP_R_DIRECT, DLP_R_PACK, DLP_R_BLOCKS, DLP_R_MPICH, DLP_R_PIPE, DLP_NROUTES };
DLI_HIDDEN const char *dlp_route_name(int route);
/* the route a tuning file names, or -1 */
DLI_HIDDEN int dlp_route_named(const char *name);
#define DLP_ROW_POINTS 16
#define DLP_ROWS 8
/* rows of a tuning file table, one per message size measured: a value per
   block size */
typedef struct dlp_table {
  int rows;
  struct dlp_row {
    size_t message;
    int n;
    struct dlp_point {
      size_t block;
      size_t v;
    } at[DLP_ROW_POINTS];
  } row[DLP_ROWS];
} dlp_table;
/* the one-sided cost model (rma_model.c), in ns: contiguous operations
   cost L + o + G * bytes each (L once per epoch); one operation on a
   derived target type ot + Gt * bytes + ht * target blocks */
typedef struct dlp_rma_link {
  double L, o, G, ot, Gt, ht;
} dlp_rma_link;
typedef struct dlp_rma_model {
  dlp_rma_link put, get;   /* accumulates cost as puts */
  double pb, pn;           /* packing: per block, per byte */
  double pf;               /* and per block more where a layout's blocks lie
                              far apart (dlp_rma_shape) */
  const char *from;        /* "default" or "file" */
} dlp_rma_model;
typedef struct dlp_thresholds {
  size_t chunk;          /* pipeline_chunk, DL_PIPELINE_CHUNK */
  size_t direct_block;   /* mean block bytes from which blocks go as they
                            lie where no route table applies */
  bool direct_env;       /* DL_DIRECT_BLOCK set: it decides alone */
  dlp_table route;       /* route@<message> <block>:<route>: the fastest of
                            pack and blocks (or mpich) there */
  dlp_table mpich;       /* mpich@<message> <block>:<fan-out>: the largest
                            fan-out up to which MPICH's engine beat it */
  size_t coll_block;     /* mean block bytes from which a collective hands
                            MPICH the user's type instead of packing */
  size_t defer_bytes;    /* messages up to this long of a derived type's
                            first use go to MPICH as made (defer.c; 0:
                            none) */
  const char *chunk_from, *direct_from, *coll_from, *defer_from;
  dlp_rma_model rma;     /* rma_put, rma_get, rma_pack */
} dlp_thresholds;
/* read once: the machine's caches, the tuning file, the environment */
DLI_HIDDEN const dlp_thresholds *dlp_th(void);
/* reads them again (tests, after changing the file or the environment;
   no operation may be in flight) */
DLI_HIDDEN void dlp_thresholds_reload(void);
/* the route for a message of that many bytes in blocks of that mean size:
   the route table's point measured nearest (message size, then block size,
   on a log scale), else blocks from direct_block, else packed */
DLI_HIDDEN int dlp_route_for(size_t bytes, size_t mean_block);
/* whether MPICH's engine beats that route for a type of that fan-out
   (dli_mpi_info): the nearest point of the mpich table says up to which
   fan-out it did, measured at fan-outs 8 times apart; a type's counts up
   to the geometric middle to the next */
DLI_HIDDEN bool dlp_mpich_wins(size_t bytes, size_t mean_block, dl_count fanout);
/* an operation as the one-sided model sees it: bytes, target blocks,
   origin blocks (its packing costs nothing when dense), element size */
typedef struct dlp_rma_shape {
  bool get;
  size_t n, k, k_origin, esize;
  bool origin_dense;
  bool lockstep_ok;      /* blocks may go from the user's memory */
  bool far, far_origin;  /* the target's (origin's) blocks lie far apart: a
                            cache line or more each, over more memory than
                            the last-level cache (each costs a miss) */
  bool twin;             /* origin and target types alike: a copy into mapped
                            memory moves each block straight across
                            (dli_copy_twins), one pass instead of two */
} dlp_rma_shape;
/* the route of least predicted time among pack, blocks, pipeline and
   mpich; t: each route's prediction (ns; DIRECT infinite); *chunk: the
   pipeline's chunk (a multiple of esize); *lockstep: blocks go from the
   user's memory, one operation per overlap of origin and target blocks */
DLI_HIDDEN int dlp_rma_best(const dlp_rma_shape *s, double t[DLP_NROUTES], size_t *chunk,
                            bool *lockstep);
/* the time of a put or get landed (landing.c), in landings of *chunk
   stream bytes (DL_RMA_LAND_CHUNK, else the model's best; chunk may be
   NULL) */
DLI_HIDDEN double dlp_rma_land_cost(const dlp_rma_shape *s, size_t *chunk);
/* the time of a put or get copied into mapped memory (rma.c): the
   origin's packing and the target's unpacking, nothing moved (one
   pass over the bytes from dense to dense) */
DLI_HIDDEN double dlp_rma_map_cost(const dlp_rma_shape *s);
/* whether a put or get into mapped memory is faster landed: the landing
   splits the copy's two passes between the two processes, so it saves the
   shorter one at best, and it pays a move of the stream (L, o, G) and a
   pass more over it (pn per byte: the stream lies in memory twice, in the
   landing and the receive buffer, where the copy here keeps it in a
   cache-sized buffer) */
DLI_HIDDEN bool dlp_rma_land_beats_map(const dlp_rma_shape *s);
/* what the model predicts for an MPI_Put (get: MPI_Get) of (buf, count,
   dt) onto (tcount, ttype) at disp of rank's window (rma.c): each route's
   time in t (ns), a landed one's at t[DLP_RMA_LANDED], a copy into mapped
   memory's at t[DLP_RMA_MAPPED] (taken wherever the target is mapped,
   whatever the others), and the least's
   route among the routes; -1 where the interposer
   would hand the operation to MPICH whole (predefined or dense data, no
   description of the window) */
#define DLP_RMA_LANDED DLP_NROUTES
#define DLP_RMA_MAPPED (DLP_NROUTES + 1)
DLI_HIDDEN int dlp_rma_predict(bool get, const void *buf, MPI_Count count, MPI_Datatype dt,
                               int rank, MPI_Aint disp, MPI_Count tcount,
                               MPI_Datatype ttype, MPI_Win win,
                               double t[DLP_NROUTES + 2]);
/* prints them as tuning file lines */
DLI_HIDDEN void dlp_thresholds_print(FILE *f);

/* ---- plans: a route chosen once per (type, count) (plan.c) ---- */
typedef struct dlp_choice {
  int route;             /* DLP_R_*; MPICH for a receive only where its
                            engine receives the type whole (a unit) */
  int first;             /* PIPE: the route a whole message's first receive
                            lands by (PACK, BLOCKS, MPICH) */
  MPI_Datatype blocks;   /* BLOCKS (or PIPE's first): the blocks, an
                            hindexed type of bytes relative to the buffer,
                            valid until dlp_choice_done */
  void *plan;
  size_t mean_block;     /* the data's mean contiguous block, in bytes */
  bool timed;            /* a calibration use (DL_ADAPT=1) of candidate
                            slot, started at t0 */
  int slot;
  double t0;
} dlp_choice;
/* the route of a send (recv false) or receive of d; stream: a pipeline-mode
   message of a chunk or more */
DLI_HIDDEN void dlp_choose(const dlp_data *d, bool stream, bool recv, dlp_choice *c);
/* the route of a receive that cannot be staged (a persistent one: no
   completion call it passes through could unpack it): the blocks where the
   plan takes them; else MPICH's engine where it receives the type whole
   (dlp_data's unit); else the blocks; else MPICH's engine all the same
   (more than a million blocks: a sender that packs may then meet MPICH
   4.0.2's failure on elements that straddle its fragments, doc/mpi.md) */
DLI_HIDDEN void dlp_choose_unstaged(const dlp_data *d, dlp_choice *c);
/* releases the plan once its operation has started; ok: a blocking one
   ended well (a calibration use counts its time) */
DLI_HIDDEN void dlp_choice_done(dlp_choice *c, bool recv, bool ok);
/* frees every cached plan (at MPI_Finalize, and for tests) */
DLI_HIDDEN void dlp_plans_free(void);
/* counts a message a route carried (dl_preload_routes) */
DLI_HIDDEN void dlp_route_count(int route, bool recv);

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
DLI_HIDDEN int dlp_imrecv_as(void *buf, MPI_Count count, MPI_Datatype dt,
                             MPI_Message *msg, MPI_Request *req);
/* persistent requests (MPICH's own, made with these arguments) */
DLI_HIDDEN int dlp_send_init_as(const void *buf, MPI_Count count, MPI_Datatype dt,
                                int dest, int tag, MPI_Comm comm, int mode,
                                MPI_Request *req);
DLI_HIDDEN int dlp_recv_init_as(void *buf, MPI_Count count, MPI_Datatype dt, int src,
                                int tag, MPI_Comm comm, MPI_Request *req);

/* ---- operations and their routes (routes.c) ---- */
typedef struct dlp_pipe dlp_pipe;
typedef struct dlp_op {
  int route;             /* DLP_R_* */
  bool recv;
  int mode;              /* a send's DLP_STANDARD ... */
  int peer, tag;
  MPI_Comm comm;
  dlp_data d;
  int first;             /* PIPE: dlp_choice's */
  MPI_Datatype blocks;   /* BLOCKS, PIPE's first: dlp_choice's, while starting */
  void *stage;           /* PACK: the packed bytes */
  dlp_pipe *pipe;        /* PIPE */
  MPI_Request req;       /* what completes it: MPICH's request, or the
                            stream's generalized request */
  const struct dlp_route *via;  /* its functions when not route's (a
                                   one-sided request, rma.c) */
  MPI_Win win;           /* a one-sided request's (peer: its target) */
  int raised;            /* an error MPICH raised on the call's arguments */
  bool matched;          /* a receive of msg, matched already (a blocking
                            receive's: p2p.c) */
  bool sink;             /* PACK, a receive shorter than a pipeline chunk:
                            room for a whole chunk, so that a stream's first
                            chunk is known (routes.c) */
  bool whole;            /* sink: the room is a chunk of staging, not the
                            staging and the sink */
  bool synced;           /* a one-sided request's epoch synchronized its
                            target already (rma.c) */
  MPI_Message msg;
} dlp_op;

typedef struct dlp_route {
  /* starts op (sets op->req); an error of the interposer's is raised */
  int (*start)(dlp_op *op);
  /* after op->req completed with MPICH's status st and code err: the rest
     of the work (unpacking, freeing); returns the code to report, and in
     *raise_on the communicator to raise an error of the interposer's own
     on (MPI_COMM_NULL: none, or MPICH raised it). NULL: nothing to do */
  int (*finish)(dlp_op *op, MPI_Status *st, int err, MPI_Comm *raise_on);
  /* stops op if it has not matched yet; NULL: MPICH's cancel of op->req */
  void (*cancel)(dlp_op *op);
} dlp_route;
DLI_HIDDEN const dlp_route *dlp_route_of(int route);
static inline const dlp_route *dlp_op_route(const dlp_op *op)
{
  return op->via ? op->via : dlp_route_of(op->route);
}
/* a blocking operation: start, wait (progressing streams), finish */
DLI_HIDDEN int dlp_run(dlp_op *op, MPI_Status *status);
/* op cancelled as its route cancels */
DLI_HIDDEN void dlp_op_cancel(dlp_op *op);
/* whether op, its request complete as soon as started, may be finished
   at once (the program then gets MPICH's request): not a stream, nor a
   receive whose finish may still report an error of its own */
DLI_HIDDEN bool dlp_op_final_at_start(const dlp_op *op);
/* a nonblocking one: started, its remaining work entered under *req */
DLI_HIDDEN int dlp_start(dlp_op *op, MPI_Request *req);

/* ---- MPI_Finalize (finalize.c) ---- */
/* the steps, in the order they run: orphans completed, persistent
   requests' entries freed, plans freed, the collectives' communicator
   freed, kept staging freed */
enum { DLP_FIN_ORPHANS, DLP_FIN_PERSIST, DLP_FIN_PLANS, DLP_FIN_COLL, DLP_FIN_STAGING,
       DLP_FIN_N };
/* fn runs as step `step` at MPI_Finalize (joining again replaces it) */
DLI_HIDDEN void dlp_at_finalize(int step, void (*fn)(void));

/* ---- interposed requests (requests.c) ---- */
typedef struct dlp_req {
  MPI_Request handle;    /* the program's: a generalized request */
  dlp_op op;             /* op.req: the operation's own request; a
                            receive's op.d.t holds a reference */
  MPI_Status st;         /* once done: the status to report, MPI_ERROR
                            the code */
  atomic_flag claimed;   /* a call is completing op.req */
  atomic_bool done;      /* finished; the handle completed */
  atomic_bool released;  /* one of its two owners let go (requests.c) */
  bool in_table;
  struct dlp_req *next;  /* in the table */
  struct dlp_req *onext; /* among orphans */
} dlp_req;

DLI_HIDDEN dlp_req *dlp_req_new(void);
/* r->op started (r->op.req): *user set to the handle the program gets,
   which completes once the route's work at completion is done (r's type
   held until then), or to MPICH's request, finished now, if MPICH
   completed it already. MPI_ERR_NO_MEM, not raised, when there is no
   handle to give (the operation then completes in later calls) */
DLI_HIDDEN int dlp_req_track(dlp_req *r, MPI_Request *user);
DLI_HIDDEN bool dlp_req_any(void);           /* entries or orphans exist */
DLI_HIDDEN dlp_req *dlp_req_find(MPI_Request h);
/* the pending entry of the program's handle h, claimed (NULL: not
   interposed, done, or another call has it): the caller completes its
   op.req, then dlp_req_finish, or dlp_req_unclaim if it did not */
DLI_HIDDEN dlp_req *dlp_req_claim(MPI_Request h);
DLI_HIDDEN void dlp_req_unclaim(dlp_req *r);
/* the interposer's work for a claimed request whose op.req MPICH has
   completed (and freed), with MPICH's error err: the route's finish; frees
   the program's handle and r */
DLI_HIDDEN int dlp_req_finish(dlp_req *r, MPI_Status *st, int err,
                              MPI_Comm *raise_on);
/* the same, but the program's handle stays, complete, for the program to
   complete (MPI_Request_get_status) */
DLI_HIDDEN int dlp_req_settle_early(dlp_req *r, MPI_Status *st, int err);
/* finishes now, their handles staying the program's, the pending entries
   for which pick (which may mark them) says true: a synchronization has
   completed their operations' own requests */
DLI_HIDDEN void dlp_req_settle_picked(bool (*pick)(dlp_op *op, const void *arg),
                                      const void *arg);
/* completes orphans that are done; never blocks */
DLI_HIDDEN void dlp_orphans_poll(void);

/* MPI_Waitany over reqs, blocked in MPICH, the streams progressing
   whenever a request they wait on completes (requests.c) */
DLI_HIDDEN int dlp_block_any(int count, MPI_Request reqs[], int *index,
                             MPI_Status *status);

/* ---- completion (complete.c) ---- */
/* MPI_Wait for the blocking calls built on nonblocking ones (errors of
   their own go to their communicator), and MPI_Cancel */
DLI_HIDDEN int dlp_wait(MPI_Request *req, MPI_Status *status);
DLI_HIDDEN int dlp_cancel(MPI_Request *req);

/* ---- pipelined streams (pipeline.c), a module behind dlp_streams ---- */
typedef struct dlp_stream_module {
  dlp_route route;                 /* DLP_R_PIPE */
  /* route choice: a stream is still sending to (comm, dest, tag), so a
     send there must be a stream too (MPI's message order) */
  bool (*blocked)(int dest, int tag, MPI_Comm comm);
  /* a send the interposer cannot hold back (a persistent one) is next to
     (comm, dest, tag): the streams sending there send all they have left
     now, so that it follows them */
  int (*flush)(int dest, int tag, MPI_Comm comm);
  /* completion: some stream is in progress, so blocking calls progress
     them while they wait */
  bool (*active)(void);
  void (*progress)(void);          /* advances every stream, never blocks */
  /* progresses, then lends a waiter the MPICH requests the streams wait
     on next (copies, at most max; their streams in who, left alone until
     given back); give_back: request `done` of them (-1: none) completed
     with status st and code rc */
  int (*lend)(MPI_Request *out, void **who, int max);
  void (*give_back)(void **who, int n, int done, const MPI_Status *st, int rc);
  /* some stream in progress uses comm */
  bool (*uses)(MPI_Comm comm);
  /* the chunks after a stream's first (which a receive shorter than a
     chunk took, truncated) from source with tag on comm, received and
     dropped as they come; nobody waits for it */
  int (*drain)(int source, int tag, MPI_Comm comm);
} dlp_stream_module;
/* the stream module in pipeline mode (DL_PIPELINE=1), else NULL */
DLI_HIDDEN const dlp_stream_module *dlp_streams(void);
/* the stream module whatever the mode (NULL when built without one): what
   finishes, cancels and drains the streams it started */
DLI_HIDDEN const dlp_stream_module *dlp_stream_mod(void);
/* where a receive shorter than a chunk takes what lies past its end
   (stream_recv.c): a chunk of the process's, written, never read; NULL
   when it could not be had */
DLI_HIDDEN char *dlp_stream_sink(void);
/* the completion calls' hook: streams are in progress */
static inline const dlp_stream_module *dlp_streams_busy(void)
{
  const dlp_stream_module *m = dlp_streams();
  return m && m->active() ? m : NULL;
}

/* What the calls that can see a request (complete.c) ask of the
   persistent requests' module (persist.c), which joins once it has a
   request (a registry, as for MPI_Finalize: complete.c names nothing of
   persist.c's). any: some relayed receive (pipeline mode) is active; in:
   in the n handles of reqs, each such receive replaced by its start's
   request, the handle kept in saved[i] (else MPI_REQUEST_NULL there),
   returning how many; out: the handles put back after the call, a relayed
   receive whose request was completed and freed becoming inactive; free:
   MPI_Request_free, the request's entry leaving with it */
typedef struct dlp_persistent {
  bool (*any)(void);
  int (*in)(int n, MPI_Request reqs[], MPI_Request saved[]);
  void (*out)(int n, MPI_Request reqs[], const MPI_Request saved[]);
  int (*free)(MPI_Request *req);
} dlp_persistent;
DLI_HIDDEN void dlp_join_persistent(const dlp_persistent *p);
/* MPICH's persistent request h watched for another part (coll.c):
   before(arg) at each start (its error is the start's), after(arg) once a
   call that can see h sees a start completed, arg_free(arg) at the end */
DLI_HIDDEN void dlp_persist_watch(MPI_Request h, MPI_Comm comm, int (*before)(void *arg),
                                  void (*after)(void *arg), void (*arg_free)(void *arg),
                                  void *arg);
/* another part's record of MPICH's persistent request h (partitioned.c):
   freed with h (arg_free(arg)), each start of h counted as the
   interposer's send or receive by route */
DLI_HIDDEN void dlp_persist_attach(MPI_Request h, bool recv, int route, void *arg,
                                   void (*arg_free)(void *arg));
/* the arg attached to h, or NULL */
DLI_HIDDEN void *dlp_persist_arg(MPI_Request h);
/* MPI_Irecv as the interposer makes it (p2p.c) */
DLI_HIDDEN int dlp_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                         MPI_Comm comm, MPI_Request *req);

/* ---- MPICH's request calls (next.c) ---- */
/* the interposer defines MPI_ and PMPI_ names of these; its own calls of
   MPICH's go through dlp_next() */
typedef struct dlp_next_calls {
  int (*wait)(MPI_Request *, MPI_Status *);
  int (*test)(MPI_Request *, int *, MPI_Status *);
  int (*waitall)(int, MPI_Request[], MPI_Status[]);
  int (*testall)(int, MPI_Request[], int *, MPI_Status[]);
  int (*waitany)(int, MPI_Request[], int *, MPI_Status *);
  int (*testany)(int, MPI_Request[], int *, int *, MPI_Status *);
  int (*waitsome)(int, MPI_Request[], int *, int[], MPI_Status[]);
  int (*testsome)(int, MPI_Request[], int *, int[], MPI_Status[]);
  int (*request_get_status)(MPI_Request, int *, MPI_Status *);
  int (*cancel)(MPI_Request *);
  int (*request_free)(MPI_Request *);
  int (*start)(MPI_Request *);
  int (*startall)(int, MPI_Request[]);
  int (*pready)(int, MPI_Request);
  int (*pready_range)(int, int, MPI_Request);
  int (*pready_list)(int, int[], MPI_Request);
} dlp_next_calls;
DLI_HIDDEN const dlp_next_calls *dlp_next(void);

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
