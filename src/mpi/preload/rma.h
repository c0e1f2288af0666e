/* What the one-sided files share (rma.c describes and chooses,
 * rma_routes.c moves): an operation as described at the origin. */
#ifndef DLP_RMA_H
#define DLP_RMA_H
#include "preload.h"

enum { PUT, GET, ACC, GET_ACC };

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
} rma;

#define BATCH 256   /* blocks listed at a time */

/* one MPICH operation of x: n stream bytes from `from` (results to `to`),
   the target (tcount, tdt) at disp; req: the request form */
DLI_HIDDEN int dlp_rma_issue(const rma *x, const void *from, void *to, MPI_Count n,
                             MPI_Aint disp, MPI_Count tcount, MPI_Datatype tdt,
                             MPI_Request *req);
/* staging for the results (and the operand, packed unless it is dense);
   pack_operand: packed whole now (PIPE packs chunk by chunk) */
DLI_HIDDEN int dlp_rma_stage(rma *x, bool pack_operand);
DLI_HIDDEN int dlp_rma_pack_route(rma *x);
/* how the target's unit addresses x's blocks (0, 1, 2: rma_routes.c) */
DLI_HIDDEN int dlp_rma_alignment(const rma *x, dl_segment *ts, bool origin);
DLI_HIDDEN int dlp_rma_blocks_route(rma *x, dl_segment *ts);
DLI_HIDDEN int dlp_rma_lockstep_route(rma *x, dl_segment *ts);
DLI_HIDDEN int dlp_rma_pipe_route(rma *x, dl_segment *ts);
/* the request form (rma_request.c) */
DLI_HIDDEN int dlp_rma_start_request(rma *x, bool whole, MPI_Request *req);
#endif
