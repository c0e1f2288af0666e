/* Point-to-point calls with derived datatypes (src/mpi/preload/p2p/):
 *
 *   p2p.c       sends, receives, sendrecv, their nonblocking forms
 *   defer.c     a derived type's first use, handed to MPICH as made
 *   plan.c      the route of each (type, count), chosen once and cached
 *   persist.c   persistent requests: routed at _init, packed at each start
 *               (MPI_Start and PMPI_Start), their entries freed with them
 *   partitioned.c  partitioned requests: routed at _init, a packing send's
 *               partition packed at MPI_Pready (and PMPI_Pready)
 *   probe.c     probes and matched receives; streams probed whole (parked)
 */
#ifndef DLP_P2P_H
#define DLP_P2P_H

#include "../request/request.h"
#include "../base/thresholds.h"

/* ---- a derived type's first use (defer.c) ---- */
/* whether a point-to-point message of count dt (a receive: recv) goes to
   MPICH as made because it is short and dt's first use since its commit
   (counted as DLP_N_DEFERRED); the next use of dt decodes it */
DLI_HIDDEN bool dlp_defer(MPI_Count count, MPI_Datatype dt, bool recv);

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

/* ---- message handles in Fortran (probe.c): the interposer's own as
   handles of its own, the host's by the host's conversions ---- */
DLI_HIDDEN MPI_Fint dlp_message_c2f(MPI_Message m);
DLI_HIDDEN MPI_Message dlp_message_f2c(MPI_Fint f);

/* exported (plan.c): messages each route carried, and the routes' names */
int dl_preload_routes(unsigned long long *out, int n);
const char *dl_preload_route_name(int route);
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
