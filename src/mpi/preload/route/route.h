/* The operation model (src/mpi/preload/route/): every interposed
 * point-to-point or one-sided operation is a dlp_op whose route is a
 * table entry (start, finish, cancel); the point-to-point routes (direct,
 * packed, blocks, MPICH's engine: routes.c) and the pipeline's streams
 * (pipeline.c, a module behind dlp_streams; stream_recv.c their receiving
 * side, stream.h theirs only). */
#ifndef DLP_ROUTE_H
#define DLP_ROUTE_H

#include "../base/base.h"

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
  bool gap;              /* PACK receive: its staging's last byte lands one
                            past its place (dlp_room_post) */
  bool synced;           /* a one-sided request's epoch synchronized its
                            target already (rma.c) */
  bool unpacked;         /* PIPE send of exactly a chunk: the chunk went by
                            first's route, unpacked (pipeline.c) */
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
/* op cancelled as its route cancels */
DLI_HIDDEN void dlp_op_cancel(dlp_op *op);
/* whether op, its request complete as soon as started, may be finished
   at once (the program then gets MPICH's request): not a stream, nor a
   receive whose finish may still report an error of its own */
DLI_HIDDEN bool dlp_op_final_at_start(const dlp_op *op);

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

#endif
