/* A type's bounds and contiguity as MPICH keeps them. */
#include "tr.h"

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
  dl_segment *s;
  if ((rc = dl_segment_create(NULL, 1, t, &s)))
    return rc;
  size_t last = SIZE_MAX, n = 0;
  rc = dl_segment_iov_count(s, 0, &last, &n);
  dl_segment_free(&s);
  f->runs = (dl_count)n;
  return rc;
}
