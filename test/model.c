/* The typemap model: expansion by definition. See model.h. */
#include <stdlib.h>
#include <string.h>
#include "model.h"

static int push(mrun **runs, size_t *n, size_t *cap, dl_aint disp,
                dl_count len, int elem, size_t limit)
{
  if (len == 0)
    return 0;
  if (*n > 0 && (*runs)[*n - 1].disp + (*runs)[*n - 1].len == disp &&
      (*runs)[*n - 1].elem == elem) {
    (*runs)[*n - 1].len += len;
    return 0;
  }
  if (*n >= limit)
    return -1;
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 16;
    mrun *r = realloc(*runs, c * sizeof(mrun));
    if (!r)
      return -1;
    *runs = r;
    *cap = c;
  }
  (*runs)[(*n)++] = (mrun){disp, len, elem};
  return 0;
}

int mrun_push(mrun **runs, size_t *n, size_t *cap, dl_aint disp, dl_count len)
{
  return push(runs, n, cap, disp, len, 0, SIZE_MAX);
}

void model_free(model *m)
{
  if (m) {
    free(m->runs);
    free(m);
  }
}

static model *blank(void)
{
  model *m = calloc(1, sizeof(model));
  if (m)
    m->align = 1;
  return m;
}

dl_aint model_extent(const model *m)
{
  return m->ub - m->lb;
}

/* append one instance of old at displacement d */
static int append(model *m, const model *old, dl_aint d)
{
  for (size_t i = 0; i < old->n; i++)
    if (push(&m->runs, &m->n, &m->cap, old->runs[i].disp + d,
             old->runs[i].len, old->runs[i].elem, MODEL_MAX_RUNS))
      return -1;
  return 0;
}

/* bounds of copies of old at displacements in [dmin, dmax] */
static void replicate_bounds(model *m, const model *old, dl_count ncopies,
                             dl_aint dmin, dl_aint dmax)
{
  m->align = old->align;
  if (ncopies == 0 || (old->size == 0 && !old->sticky))
    return;                        /* empty typemap: all zero */
  m->size = old->size * ncopies;
  m->sticky = old->sticky;
  m->lb = dmin + old->lb;
  m->ub = dmax + old->ub;
  if (old->size > 0) {
    m->true_lb = dmin + old->true_lb;
    m->true_ub = dmax + old->true_ub;
  }
}

model *model_builtin(dl_count size, int align)
{
  model *m = blank();
  if (!m)
    return NULL;
  mrun_push(&m->runs, &m->n, &m->cap, 0, size);
  m->size = size;
  m->ub = m->true_ub = size;
  m->align = align;
  return m;
}

model *model_builtin_typed(dl_count size, int align, int basic)
{
  model *m = model_builtin(size, align);
  if (m)
    m->runs[0].elem = basic + 1;
  return m;
}

model *model_copy(const model *old)
{
  model *m = blank();
  if (!m || append(m, old, 0)) {
    model_free(m);
    return NULL;
  }
  mrun *keep = m->runs;
  size_t n = m->n, cap = m->cap;
  *m = *old;
  m->runs = keep;
  m->n = n;
  m->cap = cap;
  return m;
}

model *model_hindexed(dl_count count, const dl_count *bls, const dl_aint *displs,
                      const model *old)
{
  model *m = blank();
  if (!m)
    return NULL;
  dl_aint ext = model_extent(old), dmin = 0, dmax = 0;
  dl_count ncopies = 0;
  for (dl_count i = 0; i < count; i++) {
    for (dl_count j = 0; j < bls[i]; j++) {
      dl_aint d = displs[i] + j * ext;
      if (append(m, old, d)) {
        model_free(m);
        return NULL;
      }
      if (ncopies == 0 || d < dmin) dmin = d;
      if (ncopies == 0 || d > dmax) dmax = d;
      ncopies++;
    }
  }
  replicate_bounds(m, old, ncopies, dmin, dmax);
  return m;
}

model *model_contig(dl_count n, const model *old)
{
  dl_count one = n;
  dl_aint zero = 0;
  return model_hindexed(n > 0 ? 1 : 0, &one, &zero, old);
}

model *model_hvector(dl_count count, dl_count bl, dl_aint stride, const model *old)
{
  dl_count *bls = malloc((size_t)(count + 1) * sizeof(dl_count));
  dl_aint *d = malloc((size_t)(count + 1) * sizeof(dl_aint));
  model *m = NULL;
  if (bls && d) {
    for (dl_count i = 0; i < count; i++) {
      bls[i] = bl;
      d[i] = i * stride;
    }
    m = model_hindexed(count, bls, d, old);
  }
  free(bls);
  free(d);
  return m;
}

model *model_struct(dl_count count, const dl_count *bls, const dl_aint *displs,
                    model *const *olds)
{
  model *m = blank();
  if (!m)
    return NULL;
  bool any_sticky = false, any = false, any_data = false;
  for (dl_count i = 0; i < count; i++) {
    if (bls[i] > 0 && olds[i]->size > 0 && olds[i]->align > m->align)
      m->align = olds[i]->align;
    if (bls[i] > 0 && olds[i]->sticky)
      any_sticky = true;
  }
  for (dl_count i = 0; i < count; i++) {
    model part = {0};
    dl_aint ext = model_extent(olds[i]);
    for (dl_count j = 0; j < bls[i]; j++)
      if (append(m, olds[i], displs[i] + j * ext)) {
        model_free(m);
        return NULL;
      }
    dl_aint last = (bls[i] - 1) * ext;
    replicate_bounds(&part, olds[i], bls[i], displs[i] + (last < 0 ? last : 0),
                     displs[i] + (last > 0 ? last : 0));
    if (part.size == 0 && !part.sticky)
      continue;
    m->size += part.size;
    if (part.size > 0) {
      if (!any_data || part.true_lb < m->true_lb) m->true_lb = part.true_lb;
      if (!any_data || part.true_ub > m->true_ub) m->true_ub = part.true_ub;
      any_data = true;
    }
    if (any_sticky && !part.sticky)
      continue;
    if (!any || part.lb < m->lb) m->lb = part.lb;
    if (!any || part.ub > m->ub) m->ub = part.ub;
    any = true;
  }
  m->sticky = any_sticky;
  if (any && !any_sticky) {
    dl_aint r = (m->ub - m->lb) % m->align;
    if (r)
      m->ub += m->align - r;
  }
  return m;
}

model *model_resized(const model *old, dl_aint lb, dl_aint extent)
{
  model *m = model_copy(old);
  if (m) {
    m->lb = lb;
    m->ub = lb + extent;
    m->sticky = true;
  }
  return m;
}

/* the elements selected by `keep` in storage order, over a full array of
   dims[] elements of old; lb 0, extent the whole array (sticky) */
static model *grid(int ndims, const dl_count *dims, int order,
                   bool (*keep)(const void *ctx, int d, dl_count idx),
                   const void *ctx, const model *old)
{
  model *m = blank();
  dl_count idx[16] = {0}, total = 1, picked = 0;
  dl_aint ext = model_extent(old), dmin = 0, dmax = 0;
  if (!m || ndims > 16)
    goto fail;
  for (int d = 0; d < ndims; d++)
    total *= dims[d];
  for (dl_count k = 0; k < total; k++) {
    /* idx: storage-order counter, fastest dimension advancing first */
    bool in = true;
    dl_count lin = 0, mul = 1;
    for (int j = 0; j < ndims; j++) {
      int d = order == DL_ORDER_C ? ndims - 1 - j : j;
      in = in && keep(ctx, d, idx[d]);
      lin += idx[d] * mul;
      mul *= dims[d];
    }
    if (in) {
      if (append(m, old, lin * ext))
        goto fail;
      if (picked == 0 || lin * ext < dmin) dmin = lin * ext;
      if (picked == 0 || lin * ext > dmax) dmax = lin * ext;
      picked++;
    }
    for (int j = 0; j < ndims; j++) {
      int d = order == DL_ORDER_C ? ndims - 1 - j : j;
      if (++idx[d] < dims[d])
        break;
      idx[d] = 0;
    }
  }
  replicate_bounds(m, old, picked, dmin, dmax);
  m->lb = 0;
  m->ub = total * ext;
  m->sticky = true;
  return m;
fail:
  model_free(m);
  return NULL;
}

struct sub { const dl_count *subsizes, *starts; };

static bool sub_keep(const void *ctx, int d, dl_count i)
{
  const struct sub *s = ctx;
  return i >= s->starts[d] && i < s->starts[d] + s->subsizes[d];
}

model *model_subarray(int ndims, const dl_count *sizes, const dl_count *subsizes,
                      const dl_count *starts, int order, const model *old)
{
  struct sub s = {subsizes, starts};
  return grid(ndims, sizes, order, sub_keep, &s, old);
}

struct dar {
  const dl_count *gsizes;
  const int *distribs, *dargs, *psizes;
  int coords[16];
};

static bool dar_keep(const void *ctx, int d, dl_count g)
{
  const struct dar *a = ctx;
  dl_count p = a->psizes[d], b;
  switch (a->distribs[d]) {
  case DL_DISTRIBUTE_BLOCK:
    b = a->dargs[d] == DL_DISTRIBUTE_DFLT_DARG ? (a->gsizes[d] + p - 1) / p
                                               : a->dargs[d];
    return g / b == a->coords[d];
  case DL_DISTRIBUTE_CYCLIC:
    b = a->dargs[d] == DL_DISTRIBUTE_DFLT_DARG ? 1 : a->dargs[d];
    return (g / b) % p == a->coords[d];
  default:
    return true;
  }
}

model *model_darray(int size, int rank, int ndims, const dl_count *gsizes,
                    const int *distribs, const int *dargs, const int *psizes,
                    int order, const model *old)
{
  struct dar a = {gsizes, distribs, dargs, psizes, {0}};
  if (ndims > 16)
    return NULL;
  /* row-major process grid */
  for (int d = ndims - 1, r = rank; d >= 0; d--) {
    a.coords[d] = r % psizes[d];
    r /= psizes[d];
  }
  (void)size;
  return grid(ndims, gsizes, order, dar_keep, &a, old);
}

int model_bytemap(const model *m, dl_count count, mrun **runs, size_t *n)
{
  size_t cap = 0;
  *runs = NULL;
  *n = 0;
  dl_aint ext = model_extent(m);
  for (dl_count k = 0; k < count; k++)
    for (size_t i = 0; i < m->n; i++)
      if (push(runs, n, &cap, m->runs[i].disp + k * ext, m->runs[i].len,
               m->runs[i].elem, SIZE_MAX))
        return -1;
  return 0;
}
