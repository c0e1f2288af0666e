/* dataloop-tune's one-sided part (tune_rma.c) */
#ifndef DL_TUNE_RMA_H
#define DL_TUNE_RMA_H
#include <stdbool.h>
#include <stdio.h>
#include "preload.h"

/* collective over MPI_COMM_WORLD's two ranks: fits md on rank 0 (medians of
   reps runs of at least run_s seconds each), its points to csv (rank 0) */
void tune_rma(dlp_rma_model *md, FILE *csv, int reps, double run_s, bool smoke);

#endif
