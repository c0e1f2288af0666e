/* Size, bounds and true bounds of a typemap, as MPI defines them.
 *
 * Every constructor places copies of its old type(s) at displacements. A
 * typemap's lb is the lowest lb marker if it has one (set by resized, and
 * "sticky" through later constructors), else its lowest data byte; ub
 * likewise, with struct padding to the largest basic alignment when no
 * marker sets it. A typemap with neither data nor markers has lb = ub = 0.
 */
#include "loop.h"

static int add(dl_aint a, dl_aint b, dl_aint *r)
{
  return __builtin_add_overflow(a, b, r) ? DL_ERR_OVERFLOW : DL_OK;
}

int dli_span(dl_count n, dl_aint step, dl_aint *lo, dl_aint *hi)
{
  dl_aint last;
  if (__builtin_mul_overflow(n - 1, step, &last))
    return DL_ERR_OVERFLOW;
  *lo = last < 0 ? last : 0;
  *hi = last > 0 ? last : 0;
  return DL_OK;
}

void dli_bounds_empty(dli_bounds *out)
{
  *out = (dli_bounds){.align = 1};
}

static bool is_empty_map(const dli_bounds *b)
{
  return b->size == 0 && !b->sticky;
}

int dli_bounds_replicate(const dli_bounds *old, dl_count ncopies,
                         dl_aint dmin, dl_aint dmax, dli_bounds *out)
{
  if (ncopies == 0 || is_empty_map(old)) {
    dli_bounds_empty(out);
    out->align = old->align;
    return DL_OK;
  }
  dli_bounds r = {.sticky = old->sticky, .align = old->align};
  if (__builtin_mul_overflow(old->size, ncopies, &r.size))
    return DL_ERR_OVERFLOW;
  int rc = add(dmin, old->lb, &r.lb);
  if (!rc) rc = add(dmax, old->ub, &r.ub);
  if (!rc && old->size > 0) {
    rc = add(dmin, old->true_lb, &r.true_lb);
    if (!rc) rc = add(dmax, old->true_ub, &r.true_ub);
  }
  dl_aint ext;
  if (!rc && __builtin_sub_overflow(r.ub, r.lb, &ext))
    rc = DL_ERR_OVERFLOW;
  if (!rc && __builtin_sub_overflow(r.true_ub, r.true_lb, &ext))
    rc = DL_ERR_OVERFLOW;
  if (!rc)
    *out = r;
  return rc;
}

int dli_bounds_struct(dl_count n, const dli_bounds *blocks, dli_bounds *out)
{
  dli_bounds r;
  dli_bounds_empty(&r);
  bool any_sticky = false, any_data = false, any = false;
  for (dl_count i = 0; i < n; i++) {
    if (blocks[i].sticky)
      any_sticky = true;
    /* the padding rounds to the alignment of the typemap's entries: parts
       without data have none */
    if (blocks[i].size > 0 && blocks[i].align > r.align)
      r.align = blocks[i].align;
  }
  for (dl_count i = 0; i < n; i++) {
    const dli_bounds *b = &blocks[i];
    if (is_empty_map(b))
      continue;
    if (__builtin_add_overflow(r.size, b->size, &r.size))
      return DL_ERR_OVERFLOW;
    if (b->size > 0) {
      if (!any_data || b->true_lb < r.true_lb) r.true_lb = b->true_lb;
      if (!any_data || b->true_ub > r.true_ub) r.true_ub = b->true_ub;
      any_data = true;
    }
    if (any_sticky && !b->sticky)
      continue;       /* markers decide the bounds; plain data does not */
    if (!any || b->lb < r.lb) r.lb = b->lb;
    if (!any || b->ub > r.ub) r.ub = b->ub;
    any = true;
  }
  r.sticky = any_sticky;
  if (!any) {
    int align = r.align;
    dli_bounds_empty(&r);
    r.align = align;
  } else if (!any_sticky && r.align > 1) {
    dl_aint ext;
    if (__builtin_sub_overflow(r.ub, r.lb, &ext))
      return DL_ERR_OVERFLOW;
    dl_aint rem = ext % r.align;
    if (rem != 0 && add(r.ub, r.align - rem, &r.ub))
      return DL_ERR_OVERFLOW;
  }
  dl_aint ext;
  if (__builtin_sub_overflow(r.ub, r.lb, &ext) ||
      __builtin_sub_overflow(r.true_ub, r.true_lb, &ext))
    return DL_ERR_OVERFLOW;
  *out = r;
  return DL_OK;
}
