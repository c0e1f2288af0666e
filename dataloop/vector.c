/* MPI_Type_vector and MPI_Type_create_hvector. */
#include <string.h>
#include "build.h"

int dli_mk_vector(dli_build *b, dl_count count, dl_count bl, dl_aint stride,
                  dli_elem e, const dli_loop **out)
{
  if (count == 1)
    return dli_mk_contig(b, NULL, bl, e, out);
  dl_aint span;
  bool span_ok = !__builtin_mul_overflow(bl, e.extent, &span);
  if (span_ok && span == stride) {       /* blocks touch: one long run */
    dl_count n;
    if (__builtin_mul_overflow(count, bl, &n))
      return DL_ERR_OVERFLOW;
    return dli_mk_contig(b, NULL, n, e, out);
  }
  const dli_loop *blk;
  int rc = dli_mk_contig(b, NULL, bl, e, &blk);
  if (rc)
    return rc;
  dli_loop *l = dli_build_node(b);
  if (!l)
    return DL_ERR_NOMEM;
  dl_aint run;
  if (dli_is_dense(blk)) {
    *l = (dli_loop){.kind = DLI_VECTOR, .leaf = 1, .unit = blk->unit,
                    .offset = blk->offset, .count = count,
                    .blocklen = blk->count, .stride = stride};
  } else if (blk->kind == DLI_VECTOR &&
             !__builtin_mul_overflow(blk->count, blk->stride, &run) &&
             run == stride) {
    *l = *blk;                     /* nested vectors that tile: one vector */
    if (__builtin_mul_overflow(count, blk->count, &l->count))
      return DL_ERR_OVERFLOW;
  } else if (bl == 1 || blk->leaf) {
    *l = (dli_loop){.kind = DLI_VECTOR, .count = count, .blocklen = 1,
                    .stride = stride, .child = blk, .el_size = e.size * bl,
                    .el_extent = span_ok ? span : 0};
  } else {
    *l = (dli_loop){.kind = DLI_VECTOR, .count = count, .blocklen = bl,
                    .stride = stride, .child = e.loop, .el_size = e.size,
                    .el_extent = e.extent};
  }
  *out = l;
  return dli_finish_node(l);
}

static int make(dl_count count, dl_count bl, dl_aint stride, dl_type *old,
                dl_type **out)
{
  dli_elem e = dli_type_elem(old);
  dl_aint lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0, lo, hi;
  dl_count ncopies = 0;
  int rc = DL_OK;
  if (count > 0 && bl > 0) {
    if (dli_span(count, stride, &lo1, &hi1) ||
        dli_span(bl, e.extent, &lo2, &hi2) ||
        __builtin_mul_overflow(count, bl, &ncopies))
      return DL_ERR_OVERFLOW;
  }
  if (__builtin_add_overflow(lo1, lo2, &lo) ||
      __builtin_add_overflow(hi1, hi2, &hi))
    return DL_ERR_OVERFLOW;
  dli_bounds bd;
  rc = dli_bounds_replicate(&old->b, ncopies, lo, hi, &bd);
  if (rc)
    return rc;
  const dli_loop *root = NULL;
  dli_build *b = NULL;
  if (bd.size > 0) {
    if (!(b = dli_build_new()))
      return DL_ERR_NOMEM;
    rc = dli_mk_vector(b, count, bl, stride, e, &root);
  }
  if (!rc)
    rc = dli_type_new_copies(root, &bd, old, out);
  dli_build_free(b);
  return rc;
}

int dl_type_hvector(dl_count count, dl_count blocklen, dl_aint stride,
                    dl_type *old, dl_type **out)
{
  int rc = dli_ctor_args("dl_type_hvector", count, blocklen, old, true, out);
  if (rc)
    return rc;
  return make(count, blocklen, stride, old, out);
}

int dl_type_vector(dl_count count, dl_count blocklen, dl_count stride,
                   dl_type *old, dl_type **out)
{
  int rc = dli_ctor_args("dl_type_vector", count, blocklen, old, true, out);
  if (rc)
    return rc;
  dl_aint bytes;
  if (__builtin_mul_overflow(stride, old->b.ub - old->b.lb, &bytes))
    return DL_ERR_OVERFLOW;
  return make(count, blocklen, bytes, old, out);
}
