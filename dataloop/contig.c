/* MPI_Type_contiguous, and the normalizer every constructor uses for a run
 * of consecutive elements. */
#include <string.h>
#include "build.h"

/* copies of a loop whose blocks keep a fixed stride across copies merge
   into one longer loop of the same kind */
static bool continues(const dli_loop *r, dl_aint extent)
{
  dl_aint span;
  if (r->kind == DLI_VECTOR)
    return !__builtin_mul_overflow(r->count, r->stride, &span) && span == extent;
  if (r->kind == DLI_CONTIG && !r->leaf)
    return !__builtin_mul_overflow(r->count, r->el_extent, &span) &&
           span == extent;
  return false;
}

int dli_mk_contig(dli_build *b, dli_loop *into, dl_count n, dli_elem e,
                  const dli_loop **out)
{
  const dli_loop *r = e.loop;
  if (n == 1) {
    *out = r;
    return DL_OK;
  }
  dli_loop *l = into ? into : dli_build_node(b);
  if (!l)
    return DL_ERR_NOMEM;
  memset(l, 0, sizeof(*l));
  if (dli_is_dense(r) && e.extent == e.size) {
    *l = (dli_loop){.kind = DLI_CONTIG, .leaf = 1, .unit = r->unit,
                    .offset = r->offset};
    if (__builtin_mul_overflow(n, r->count, &l->count))
      return DL_ERR_OVERFLOW;
  } else if (dli_is_dense(r)) {
    *l = (dli_loop){.kind = DLI_VECTOR, .leaf = 1, .unit = r->unit,
                    .offset = r->offset, .count = n, .blocklen = r->count,
                    .stride = e.extent};
  } else if (continues(r, e.extent)) {
    *l = *r;
    if (__builtin_mul_overflow(n, r->count, &l->count))
      return DL_ERR_OVERFLOW;
  } else {
    *l = (dli_loop){.kind = DLI_CONTIG, .count = n, .child = r,
                    .el_size = e.size, .el_extent = e.extent};
  }
  *out = l;
  return dli_finish_node(l);
}

int dl_type_contiguous(dl_count count, dl_type *old, dl_type **out)
{
  int rc = dli_ctor_args("dl_type_contiguous", count, 0, old, true, out);
  if (rc)
    return rc;
  dli_elem e = dli_type_elem(old);
  dli_bounds bd;
  dl_aint lo = 0, hi = 0;
  rc = count > 0 ? dli_span(count, e.extent, &lo, &hi) : DL_OK;
  if (!rc)
    rc = dli_bounds_replicate(&old->b, count, lo, hi, &bd);
  if (rc)
    return rc;
  dli_loop node;
  const dli_loop *root = NULL;
  if (bd.size > 0)
    rc = dli_mk_contig(NULL, &node, count, e, &root);
  return rc ? rc : dli_type_new_copies(root, &bd, old, out);
}
