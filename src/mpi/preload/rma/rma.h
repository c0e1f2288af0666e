/* What the one-sided files share (rma.c describes and chooses,
 * rma_routes.c moves): an operation as described at the origin, and the
 * one-sided routes, a table of their own like point-to-point's. */
#ifndef DLP_RMA_H
#define DLP_RMA_H
#include "window.h"
#include "../base/thresholds.h"

enum { PUT, GET, ACC, GET_ACC };

/* a call's own arguments */
typedef struct rma_args {
  int kind;
  const void *origin;
  MPI_Count ocount;
  MPI_Datatype otype;
  void *result;
  MPI_Count rcount;
  MPI_Datatype rtype;
  int rank;
  MPI_Aint disp;
  MPI_Count tcount;
  MPI_Datatype ttype;
  MPI_Op op;
  MPI_Win win;
} rma_args;

typedef struct rma {
  int kind;
  MPI_Op op;
  dlp_data o;          /* PUT, ACC, GET_ACC: the operand; GET: the destination */
  dlp_data r;          /* GET_ACC: the result */
  dlp_data t;          /* the target layout from byte 0 of the target address */
  bool operand;        /* the operand's data is read (not a get, not MPI_NO_OP) */
  MPI_Datatype el;     /* what moves: bytes, or the accumulates' basic type */
  MPI_Aint esize;
  int rank;
  MPI_Aint disp;       /* the user's, in the target's units */
  MPI_Win win;
  MPI_Aint unit;       /* the target's displacement unit */
  size_t n;            /* stream bytes */
  char *stage;         /* [results n][operand n], as needed */
  const char *from;    /* the operand's bytes in stream order */
  char *to;            /* the results in stream order */
  dlp_data *into;      /* to is staged: unpacked into this at completion */
  size_t chunk;        /* PIPE's, a multiple of esize */
  bool lockstep;       /* BLOCKS from the user's memory (lockstep_route) */
  bool derived;        /* some side is a derived type */
  dlp_win *w;          /* the interposer's description of win, or NULL */
  bool read_acc;       /* a get in an MPI_Win_start epoch: its pieces of bytes
                          go as get-accumulates of MPI_NO_OP (issue) */
  /* what the route chosen needs */
  const rma_args *args;   /* DIRECT, MPICH: the call's own */
  const char *call;       /* its name, for errors */
  char *mem;              /* MAPPED: the target's memory */
  dl_segment *ts;         /* BLOCKS, LOCKSTEP, PIPE: the target layout */
} rma;

/* The one-sided routes (doc/rma.md), chosen in rma.c, each a table entry
   (rma_routes.c) that issues a described operation; req: the request
   form's handle. counted: the slots of dl_preload_rma_routes it counts
   in (the point-to-point route of its name, then the three counts past
   the routes), -1 for none. */
enum {
  DLP_RMA_R_DIRECT,   /* predefined or dense data: the call's own arguments */
  DLP_RMA_R_MPICH,    /* the user's types, MPICH's engine at both ends */
  DLP_RMA_R_PACK,     /* operand packed, results staged, the user's target type */
  DLP_RMA_R_BLOCKS,   /* one contiguous operation per target block */
  DLP_RMA_R_LOCKSTEP, /* the origin's blocks against the target's, unstaged */
  DLP_RMA_R_PIPE,     /* chunks, each packed and issued on its target range */
  DLP_RMA_R_LANDED,   /* sent to land at the target's fence (landing.c) */
  DLP_RMA_R_MAPPED,   /* copied type to type into the target's mapped memory */
  DLP_RMA_R_N
};
#define DLP_RMA_SLOT_LOCKSTEP DLP_NROUTES
#define DLP_RMA_SLOT_LANDED (DLP_NROUTES + 1)
#define DLP_RMA_SLOT_MAPPED (DLP_NROUTES + 2)
typedef struct dlp_rma_route {
  int (*issue)(rma *x, MPI_Request *req);
  int counted[2];
} dlp_rma_route;
DLI_HIDDEN extern const dlp_rma_route dlp_rma_routes[DLP_RMA_R_N];

#define BATCH 256   /* blocks listed at a time */

/* one MPICH operation of x: n stream bytes from `from` (results to `to`),
   the target (tcount, tdt) at disp; req: the request form */
DLI_HIDDEN int dlp_rma_issue(const rma *x, const void *from, void *to, MPI_Count n,
                             MPI_Aint disp, MPI_Count tcount, MPI_Datatype tdt,
                             MPI_Request *req);
/* staging for the results (and the operand, packed unless it is dense);
   pack_operand: packed whole now (PIPE packs chunk by chunk) */
DLI_HIDDEN int dlp_rma_stage(rma *x, bool pack_operand);
/* how the target's unit addresses x's blocks (0, 1, 2: rma_routes.c) */
DLI_HIDDEN int dlp_rma_alignment(const rma *x, dl_segment *ts, bool origin);
/* the request form (rma_request.c) */
DLI_HIDDEN int dlp_rma_start_request(rma *x, bool whole, MPI_Request *req);
/* ---- the one-sided cost model (rma_model.c; rma.c predicts) ---- */
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


#endif
