/* A deliberately simple model of MPI typemaps, independent of the dataloop
 * code: every constructor expands its typemap into a list of byte runs in
 * packed order, and bounds follow the MPI rules written out once more.
 * It is the oracle the library's loops are compared against. */
#ifndef TEST_MODEL_H
#define TEST_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include "dataloop.h"

typedef struct mrun {
  dl_aint disp;
  dl_count len;
  int elem;             /* 1 + the basic type of its elements (typed models,
                           whose runs merge only within one type); 0: bytes */
} mrun;

typedef struct model {
  mrun *runs;           /* one instance, packed order, adjacent runs merged */
  size_t n, cap;
  dl_count size;
  dl_aint lb, ub, true_lb, true_ub;
  bool sticky;          /* bounds set by resized (MPI's lb/ub markers) */
  int align;
} model;

/* limits that keep random types small enough to expand */
#define MODEL_MAX_RUNS 20000

void model_free(model *m);
model *model_builtin(dl_count size, int align);
/* a predefined type whose runs remember it (for element conversions); ids
   at and past DL_NUM_BUILTINS are dl_builtin_more's, in order */
model *model_builtin_typed(dl_count size, int align, int basic);
model *model_contig(dl_count n, const model *old);
model *model_hvector(dl_count count, dl_count bl, dl_aint stride, const model *old);
model *model_hindexed(dl_count count, const dl_count *bls, const dl_aint *displs,
                      const model *old);
model *model_struct(dl_count count, const dl_count *bls, const dl_aint *displs,
                    model *const *olds);
model *model_resized(const model *old, dl_aint lb, dl_aint extent);
model *model_subarray(int ndims, const dl_count *sizes, const dl_count *subsizes,
                      const dl_count *starts, int order, const model *old);
model *model_darray(int size, int rank, int ndims, const dl_count *gsizes,
                    const int *distribs, const int *dargs, const int *psizes,
                    int order, const model *old);
model *model_copy(const model *old);
dl_aint model_extent(const model *m);

/* the byte runs of `count` instances, merged; caller frees *runs */
int model_bytemap(const model *m, dl_count count, mrun **runs, size_t *n);

/* append a run, merging with the previous one when they touch; no limit */
int mrun_push(mrun **runs, size_t *n, size_t *cap, dl_aint disp, dl_count len);

#endif
