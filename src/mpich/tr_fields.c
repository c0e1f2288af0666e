/* A type's bounds, contiguity and runs, as MPICH keeps them and as the
 * interposer weighs routes by them. */
#include "tr.h"

/* the runs of one element counted up to cap (*counted: as many as were,
   which may pass it), and the stream byte they end at of its bytes */
static int runs_upto(const dl_type *t, dl_count cap, dl_count *runs, size_t *counted,
                     size_t *upto, size_t *bytes)
{
  dl_segment *s;
  cap = cap < 1 ? 1 : cap;
  *runs = cap;
  *counted = *upto = *bytes = 0;
  int rc = dl_pack_size(1, t, bytes);
  if (rc || (rc = dl_segment_create(NULL, 1, t, &s)))
    return rc;
  size_t n = dli_tr_count_blocks(s, 0, *bytes, (size_t)cap, &rc, upto, NULL);
  dl_segment_free(&s);
  if (rc)
    return rc;
  *counted = n;
  *runs = n < 1 ? 1 : n < (size_t)cap ? (dl_count)n : cap;
  return DL_OK;
}

int dli_tr_runs(const dl_type *t, dl_count cap, dl_count *runs)
{
  size_t counted, upto, bytes;
  return runs_upto(t, cap, runs, &counted, &upto, &bytes);
}

int dli_tr_runs_estimate(const dl_type *t, dl_count cap, dl_count *runs)
{
  size_t counted, upto, bytes;
  int rc = runs_upto(t, cap, runs, &counted, &upto, &bytes);
  if (rc || upto == 0 || upto >= bytes)
    return rc;
  double all = (double)counted * ((double)bytes / (double)upto);
  *runs = all >= (double)DLI_TR_RUNS_MAX ? DLI_TR_RUNS_MAX
        : all > (double)*runs           ? (dl_count)all
                                        : *runs;
  return DL_OK;
}

int dli_tr_fields_of(const dl_type *t, dli_tr_fields *f)
{
  int rc, dense;
  dl_aint off;
  if ((rc = dl_type_size(t, &f->size)) || (rc = dl_type_extent(t, &f->lb, &f->extent)) ||
      (rc = dl_type_true_extent(t, &f->true_lb, &f->true_extent)))
    return rc;
  /* two copies dense: every count is one run (size == extent, no holes) */
  if ((rc = dl_type_dense(2, t, &dense, &off)))
    return rc;
  f->is_contig = dense;
  f->runs = 1;
  if (dense || f->size == 0)
    return DL_OK;
  return dli_tr_runs(t, INT64_MAX, &f->runs);
}
