/* MPI_Type_indexed and MPI_Type_create_hindexed, and the normalizer for
 * any list of blocks of one element type: zero-length blocks vanish,
 * touching blocks merge, equal lengths become BLOCKINDEXED, even spacing
 * becomes a VECTOR, and a repeating pattern is folded to one period. */
#include <stdlib.h>
#include <string.h>
#include "loop.h"

/* blocks as given, without further normalization */
static int mk_plain(dli_build *b, dl_count n, const dl_count *bls,
                    const dl_aint *offs, dli_elem e, const dli_loop **out)
{
  const dli_loop *r = e.loop;
  bool uniform = true;
  for (dl_count i = 1; i < n && uniform; i++)
    uniform = bls[i] == bls[0];
  bool tiles = dli_is_dense(r) && e.extent == e.size;
  bool bytes = tiles || (dli_is_dense(r) && uniform && bls[0] == 1);
  dli_loop *l = dli_build_node(b);
  dl_aint *o = dli_build_alloc(b, (size_t)n * sizeof(dl_aint));
  if (!l || !o)
    return DL_ERR_NOMEM;
  dl_aint shift = bytes ? r->offset : 0;
  for (dl_count i = 0; i < n; i++)
    if (__builtin_add_overflow(offs[i], shift, &o[i]))
      return DL_ERR_OVERFLOW;
  *l = (dli_loop){.kind = uniform ? DLI_BLOCKINDEXED : DLI_INDEXED,
                  .count = n, .offs = o};
  dl_count unit_bytes = bytes ? r->count : e.size;  /* per element, packed */
  if (bytes) {
    l->leaf = 1;
    l->unit = r->unit;
  } else {
    l->child = r;
    l->el_size = e.size;
    l->el_extent = e.extent;
  }
  if (uniform) {
    l->blocklen = bls[0];
    if (bytes && __builtin_mul_overflow(bls[0], unit_bytes, &l->blocklen))
      return DL_ERR_OVERFLOW;
  } else {
    dl_count *pre = dli_build_alloc(b, (size_t)(n + 1) * sizeof(dl_count));
    if (!pre)
      return DL_ERR_NOMEM;
    pre[0] = 0;
    for (dl_count i = 0; i < n; i++) {
      dl_count len;
      if (__builtin_mul_overflow(bls[i], unit_bytes, &len) ||
          __builtin_add_overflow(pre[i], len, &pre[i + 1]))
        return DL_ERR_OVERFLOW;
    }
    l->pre = pre;
    if (!bytes) {
      dl_count *bl = dli_build_alloc(b, (size_t)n * sizeof(dl_count));
      if (!bl)
        return DL_ERR_NOMEM;
      memcpy(bl, bls, (size_t)n * sizeof(dl_count));
      l->blocklens = bl;
    }
  }
  *out = l;
  return dli_finish_node(l);
}

/* q repetitions of the first p blocks, then the n - q*p left over */
static int mk_folded(dli_build *b, dl_count n, dl_count p, const dl_count *bls,
                     const dl_aint *offs, dli_elem e, const dli_loop **out)
{
  dl_count q = n / p, r = n % p;
  const dli_loop *pat, *rep, *tail;
  int rc = mk_plain(b, p, bls, offs, e, &pat);
  if (rc)
    return rc;
  dli_elem pe = {pat, pat->size, offs[p] - offs[0]};
  if ((rc = dli_mk_contig(b, NULL, q, pe, &rep)) || r == 0) {
    *out = rep;
    return rc;
  }
  dl_count *tb = dli_build_alloc(b, (size_t)r * sizeof(dl_count));
  dl_aint *to = dli_build_alloc(b, (size_t)r * sizeof(dl_aint));
  if (!tb || !to)
    return DL_ERR_NOMEM;
  memcpy(tb, bls + q * p, (size_t)r * sizeof(dl_count));
  memcpy(to, offs + q * p, (size_t)r * sizeof(dl_aint));
  if ((rc = dli_mk_blocks(b, r, tb, to, e, &tail)))
    return rc;
  dli_loop *l = dli_build_node(b);
  dl_aint *o = dli_build_alloc(b, 2 * sizeof(dl_aint));
  dl_aint *x = dli_build_alloc(b, 2 * sizeof(dl_aint));
  dl_count *bl = dli_build_alloc(b, 2 * sizeof(dl_count));
  dl_count *pre = dli_build_alloc(b, 3 * sizeof(dl_count));
  const dli_loop **kids = dli_build_alloc(b, 2 * sizeof(dli_loop *));
  if (!l || !o || !x || !bl || !pre || !kids)
    return DL_ERR_NOMEM;
  o[0] = o[1] = 0;
  x[0] = x[1] = 0;      /* one element per block: never stepped over */
  bl[0] = bl[1] = 1;
  pre[0] = 0;
  pre[1] = rep->size;
  pre[2] = rep->size + tail->size;
  kids[0] = rep;
  kids[1] = tail;
  *l = (dli_loop){.kind = DLI_STRUCT, .count = 2, .offs = o, .exts = x,
                  .blocklens = bl, .pre = pre, .children = kids};
  *out = l;
  return dli_finish_node(l);
}

int dli_mk_blocks(dli_build *b, dl_count n, dl_count *bls, dl_aint *offs,
                  dli_elem e, const dli_loop **out)
{
  dl_count k = 0;
  for (dl_count i = 0; i < n; i++) {
    if (bls[i] == 0)
      continue;
    dl_aint len, end;
    if (k > 0 && !__builtin_mul_overflow(bls[k - 1], e.extent, &len) &&
        !__builtin_add_overflow(offs[k - 1], len, &end) && end == offs[i]) {
      if (__builtin_add_overflow(bls[k - 1], bls[i], &bls[k - 1]))
        return DL_ERR_OVERFLOW;
      continue;
    }
    bls[k] = bls[i];
    offs[k] = offs[i];
    k++;
  }
  n = k;
  *out = NULL;
  if (n == 0)
    return DL_OK;
  int rc;
  const dli_loop *l;
  if (n == 1) {
    if ((rc = dli_mk_contig(b, NULL, bls[0], e, &l)))
      return rc;
    return dli_shift(b, l, offs[0], out);
  }
  bool uniform = true, even = true;
  dl_aint delta;
  if (__builtin_sub_overflow(offs[1], offs[0], &delta))
    even = false;
  for (dl_count i = 1; i < n && (uniform || even); i++) {
    dl_aint d;
    uniform = uniform && bls[i] == bls[0];
    even = even && !__builtin_sub_overflow(offs[i], offs[i - 1], &d) && d == delta;
  }
  if (uniform && even) {
    if ((rc = dli_mk_vector(b, n, bls[0], delta, e, &l)))
      return rc;
    return dli_shift(b, l, offs[0], out);
  }
  dl_count p = dli_find_period(n, bls, offs);
  if (p > 0)
    return mk_folded(b, n, p, bls, offs, e, out);
  return mk_plain(b, n, bls, offs, e, out);
}

int dli_type_blocks(dl_count count, const dl_count *blocklens, dl_count bl,
                    const void *displs, bool bytes, dl_type *old, dl_type **out)
{
  if (!out || !dli_type_valid(old) || count < 0 || bl < 0 ||
      (count > 0 && !displs))
    return DL_ERR_ARG;
  dli_elem e = dli_type_elem(old);
  dli_build *b = dli_build_new();
  dl_count *bls = count ? dli_build_alloc(b, (size_t)count * sizeof(dl_count)) : NULL;
  dl_aint *offs = count ? dli_build_alloc(b, (size_t)count * sizeof(dl_aint)) : NULL;
  int rc = (!b || (count && (!bls || !offs))) ? DL_ERR_NOMEM : DL_OK;
  dl_aint lo = 0, hi = 0;
  dl_count ncopies = 0;
  bool any = false;
  for (dl_count i = 0; i < count && !rc; i++) {
    bls[i] = blocklens ? blocklens[i] : bl;
    if (bls[i] < 0) {
      rc = DL_ERR_ARG;
      break;
    }
    dl_aint d = bytes ? ((const dl_aint *)displs)[i]
                      : ((const dl_count *)displs)[i];
    if (!bytes && __builtin_mul_overflow(d, e.extent, &d)) {
      rc = DL_ERR_OVERFLOW;
      break;
    }
    offs[i] = d;
    if (bls[i] == 0)
      continue;
    dl_aint a, z;
    if (dli_span(bls[i], e.extent, &a, &z) || __builtin_add_overflow(a, d, &a) ||
        __builtin_add_overflow(z, d, &z) ||
        __builtin_add_overflow(ncopies, bls[i], &ncopies)) {
      rc = DL_ERR_OVERFLOW;
      break;
    }
    if (!any || a < lo) lo = a;
    if (!any || z > hi) hi = z;
    any = true;
  }
  dli_bounds bd;
  if (!rc)
    rc = dli_bounds_replicate(&old->b, ncopies, lo, hi, &bd);
  const dli_loop *root = NULL;
  if (!rc && bd.size > 0)
    rc = dli_mk_blocks(b, count, bls, offs, e, &root);
  if (!rc)
    rc = dli_type_new(root, &bd, out);
  dli_build_free(b);
  return rc;
}

int dl_type_indexed(dl_count count, const dl_count *blocklens,
                    const dl_count *displs, dl_type *old, dl_type **out)
{
  if (count > 0 && !blocklens)
    return DL_ERR_ARG;
  return dli_type_blocks(count, blocklens, 0, displs, false, old, out);
}

int dl_type_hindexed(dl_count count, const dl_count *blocklens,
                     const dl_aint *displs, dl_type *old, dl_type **out)
{
  if (count > 0 && !blocklens)
    return DL_ERR_ARG;
  return dli_type_blocks(count, blocklens, 0, displs, true, old, out);
}
