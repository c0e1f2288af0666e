/* The interposer's base (src/mpi/preload/base/): what every part uses.
 * Its configuration, counts, errors, the user's data and staging memory,
 * the routes' identities, byte messages, MPICH's own request calls, and
 * the registry of MPI_Finalize's steps. Nothing declared here is exported
 * but the dl_preload_* calls named so. host.h: the host MPI's deviations;
 * thresholds.h: the tuning the routes are chosen by.
 *
 *   config.c    environment (DL_TRACE, DL_PIPELINE, DL_PIPELINE_RING,
 *               DL_STRATEGY, DL_ADAPT, DL_RMA_*), trace
 *   counts.c    counts of what the interposer handled (dl_preload_counts)
 *   errors.c    errors through the communicator's or window's handler
 *   data.c      a user buffer as dataloop sees it; staging buffers
 *   raw.c       byte sends and receives (and persistent requests) in the
 *               int or the _c form
 *   next.c      MPICH's own request calls, for the interposer's use
 *   finalize.c  what MPI_Finalize leaves to do, each part's step in order
 *   thresholds.c  pipeline_chunk, direct_block, the route tables and the
 *               one-sided model's constants: from the caches, the tuning
 *               file, the environment
 *   host.c      which host MPI it runs on (host_mpich_4_0_2.c,
 *               host_openmpi_4_1.c: one file per host and version, naming
 *               each deviation)
 *   large.h     MPI-4's large-count calls on an MPI-3.1 host (Open MPI 4.1)
 */
#ifndef DLP_BASE_H
#define DLP_BASE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../../bridge.h"
#include "large.h"

/* ---- the routes' identities (thresholds.c names them) ---- */
/* the routes, in the order dl_preload_routes counts them */
enum { DLP_R_DIRECT, DLP_R_PACK, DLP_R_BLOCKS, DLP_R_MPICH, DLP_R_PIPE, DLP_NROUTES };
DLI_HIDDEN const char *dlp_route_name(int route);
/* the route a tuning file names, or -1 */
DLI_HIDDEN int dlp_route_named(const char *name);
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
/* ---- counts (counts.c) ---- */
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
/* and, past them, fences whose count exchange went through shared memory
   (rma/tally.c) */
#define DLP_RMA_SHARED_FENCE DLP_RMA_NCOUNTS
DLI_HIDDEN void dlp_rma_count(int slot);
enum { DLP_N_PACK, DLP_N_UNPACK, DLP_N_SEND, DLP_N_RECV, DLP_N_BLOCKED, DLP_N_LONG,
       DLP_N_COLL, DLP_N_DEFERRED, DLP_N_COUNTS };
DLI_HIDDEN void dlp_count(int what);
/* exported: copies the first n counts (at most DLP_N_COUNTS) to out and
   returns DLP_N_COUNTS */
int dl_preload_counts(unsigned long long *out, int n);
/* copies the first n one-sided counts (at most DLP_RMA_NCOUNTS, then the
   shared fences) to out and returns DLP_RMA_NCOUNTS */
DLI_HIDDEN int dlp_rma_counted(unsigned long long *out, int n);

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
/* A receive of up to n bytes into staging memory, which the host must not
   write past when the message is longer. dlp_room_get(n) allocates it
   (dlp_stage_put returns it); dlp_room_post says how to post the
   receive: (stage, n, MPI_PACKED), or on a host that writes a whole
   message past a contiguous buffer it truncates (DLP_DEV_TRUNCATE_OVERRUNS)
   (stage, 1, a type skipping the byte before the last: gap set), which
   the caller frees with dlp_room_posted once it posted the receive; with a
   gap, dlp_room_close puts the last byte in place once got bytes arrived
   (the status's count: more than n when the message was longer).
   false from dlp_room_post: no such type for n (fewer than 2 bytes, or
   the type failed): the receive is not to be staged */
typedef struct dlp_room {
  void *buf;
  MPI_Count count;
  MPI_Datatype dt;
  bool gap;
} dlp_room;
DLI_HIDDEN void *dlp_room_get(size_t n);
DLI_HIDDEN bool dlp_room_post(void *stage, size_t n, dlp_room *r);
DLI_HIDDEN void dlp_room_posted(dlp_room *r);
DLI_HIDDEN void dlp_room_close(void *stage, size_t n, size_t got);
/* bytes a receive status says arrived */
DLI_HIDDEN size_t dlp_status_bytes(const MPI_Status *st);
/* the host's judgement of dt (committed, valid) and comm: a pack of
   nothing from buf, whose errors go through comm's handler and stand */
DLI_HIDDEN int dlp_host_judges(const void *buf, MPI_Datatype dt, MPI_Comm comm);

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

/* ---- MPI_Finalize (finalize.c) ---- */
/* the steps, in the order they run: orphans completed, persistent
   requests' entries freed, plans freed, the collectives' communicator
   freed, kept staging freed */
enum { DLP_FIN_ORPHANS, DLP_FIN_PERSIST, DLP_FIN_PLANS, DLP_FIN_COLL, DLP_FIN_STAGING,
       DLP_FIN_N };
/* fn runs as step `step` at MPI_Finalize (joining again replaces it) */
DLI_HIDDEN void dlp_at_finalize(int step, void (*fn)(void));

#endif
