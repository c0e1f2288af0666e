/* Interposed requests (src/mpi/preload/request/): one module owns an
 * operation's request from its start to its free. requests.c: the
 * operation started or run on its route, the program's generalized
 * request, its poll, wait and free functions, orphans; complete.c: every
 * call that can see a request (MPI_Wait*, MPI_Test*,
 * MPI_Request_get_status, MPI_Request_free, MPI_Cancel, MPI_Start*, under
 * their PMPI_ names too). */
#ifndef DLP_REQUEST_H
#define DLP_REQUEST_H

#include "../route/route.h"

/* a blocking operation: start, wait (progressing streams), finish */
DLI_HIDDEN int dlp_run(dlp_op *op, MPI_Status *status);
/* a nonblocking one: started, its remaining work entered under *req */
DLI_HIDDEN int dlp_start(dlp_op *op, MPI_Request *req);

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
  atomic_bool orphaned;  /* its handle freed before it was done */
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
/* the program frees handle h (before the host does): an interposed
   operation still in progress becomes an orphan */
DLI_HIDDEN void dlp_req_let_go(MPI_Request h);
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
#endif
