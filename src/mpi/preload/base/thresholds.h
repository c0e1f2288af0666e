/* The tuning the routes are chosen by (thresholds.c): the pipeline chunk,
 * the block size from which blocks go as they lie, the route tables a
 * tuning file measured, the one-sided model's constants. */
#ifndef DLP_THRESHOLDS_H
#define DLP_THRESHOLDS_H

#include "base.h"

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
  double land_L, land_G;   /* a landing (landing.c): one message on the
                              window's communicator, found by the target's
                              probe, L + G * bytes; without a line of its
                              own the put's L and G */
  bool land_set;           /* rma_land given (file or host) */
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
  dlp_table stream;      /* stream@...: the same for the pipeline mode's
                            plans, pack meaning a stream (none: route's) */
  dlp_table mpich;       /* mpich@<message> <block>:<fan-out>: the largest
                            fan-out up to which MPICH's engine beat it */
  size_t coll_block;     /* mean block bytes from which a collective hands
                            MPICH the user's type instead of packing */
  size_t defer_bytes;    /* messages up to this long of a derived type's
                            first use go to MPICH as made (defer.c; 0:
                            none) */
  double sparse_span;    /* data spread over at least this many times its
                            bytes, and over more than the L2, goes to the
                            host's engine where it places it (0: never;
                            dlp_sparse) */
  const char *chunk_from, *direct_from, *coll_from, *defer_from, *sparse_from;
  dlp_rma_model rma;     /* rma_put, rma_get, rma_land, rma_pack */
} dlp_thresholds;
/* read once: the machine's caches, the tuning file, the environment */
DLI_HIDDEN const dlp_thresholds *dlp_th(void);
/* reads them again (tests, after changing the file or the environment;
   no operation may be in flight) */
DLI_HIDDEN void dlp_thresholds_reload(void);
/* whether a reload reads the host's lines (tests of the rules alone turn
   them off; they are read unless told) */
DLI_HIDDEN void dlp_thresholds_host_lines(bool read);
/* the route for a message of that many bytes in blocks of that mean size:
   the route table's point measured nearest (message size, then block size,
   on a log scale; a stream plan's: the stream table's where it has rows),
   else blocks from direct_block, else packed */
DLI_HIDDEN int dlp_route_for(size_t bytes, size_t mean_block, bool stream);
/* whether MPICH's engine beats that route for a type of that fan-out
   (dli_mpi_info): the nearest point of the mpich table says up to which
   fan-out it did, measured at fan-outs 8 times apart; a type's counts up
   to the geometric middle to the next */
DLI_HIDDEN bool dlp_mpich_wins(size_t bytes, size_t mean_block, dl_count fanout);
/* whether d lies sparse by sparse_span: packing and unpacking it each
   meet a miss per block, which an engine that moves a message piece by
   piece overlaps on the two sides and packing whole does not (never
   where DL_DIRECT_BLOCK decides alone) */
DLI_HIDDEN bool dlp_sparse(const dlp_data *d);
/* prints them as tuning file lines */
DLI_HIDDEN void dlp_thresholds_print(FILE *f);

#endif
