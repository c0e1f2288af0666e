/* MPI_Type_create_struct. Blocks of one element type become the indexed
 * family; blocks that are all plain byte runs become one indexed loop over
 * bytes (the homogeneous case: no per-element type is needed at the leaf);
 * anything else is a STRUCT loop with one child per block. */
#include <string.h>
#include "build.h"

static bool same_elem(const dli_elem *a, const dli_elem *b)
{
  return a->loop == b->loop && a->size == b->size && a->extent == b->extent;
}

/* every block a dense run: an indexed loop over bytes (or over a common
   basic unit, so printing keeps element sizes) */
static int mk_bytes(dli_build *b, dl_count n, const dli_loop **blks,
                    const dl_aint *offs, const dli_loop **out)
{
  dl_count *lens = dli_build_alloc(b, (size_t)n * sizeof(dl_count));
  dl_aint *o = dli_build_alloc(b, (size_t)n * sizeof(dl_aint));
  if (!lens || !o)
    return DL_ERR_NOMEM;
  int unit = blks[0]->unit;
  for (dl_count i = 0; i < n; i++) {
    if (blks[i]->unit != unit || blks[i]->count % unit != 0)
      unit = 1;
    if (__builtin_add_overflow(offs[i], blks[i]->offset, &o[i]))
      return DL_ERR_OVERFLOW;
  }
  for (dl_count i = 0; i < n; i++)
    lens[i] = blks[i]->count / unit;
  dli_loop *u = dli_build_node(b);
  if (!u)
    return DL_ERR_NOMEM;
  *u = (dli_loop){.kind = DLI_CONTIG, .leaf = 1, .unit = (uint8_t)unit,
                  .depth = 1, .count = unit, .size = unit, .tub = unit};
  return dli_mk_blocks(b, n, lens, o, (dli_elem){u, unit, unit}, out);
}

int dli_mk_struct(dli_build *b, dl_count n, const dl_count *blocklens,
                  const dl_aint *offs, const dli_elem *elems,
                  const dli_loop **out)
{
  size_t sz = (size_t)n * sizeof(dl_count);
  dl_count *bl = dli_build_alloc(b, sz);
  dl_aint *o = dli_build_alloc(b, sz);
  dl_aint *x = dli_build_alloc(b, sz);
  dl_count *pre = dli_build_alloc(b, sz + sizeof(dl_count));
  const dli_loop **kids = dli_build_alloc(b, (size_t)n * sizeof(dli_loop *));
  const dli_loop **blks = dli_build_alloc(b, (size_t)n * sizeof(dli_loop *));
  if (!bl || !o || !x || !pre || !kids || !blks)
    return DL_ERR_NOMEM;
  dl_count k = 0;
  bool same = true, dense = true;
  const dli_elem *first = NULL;
  int rc;
  for (dl_count i = 0; i < n; i++) {
    if (blocklens[i] == 0 || elems[i].size == 0)
      continue;
    if (!first)
      first = &elems[i];
    same = same && same_elem(first, &elems[i]);
    if ((rc = dli_mk_contig(b, NULL, blocklens[i], elems[i], &blks[k])))
      return rc;
    dense = dense && dli_is_dense(blks[k]);
    bl[k] = blocklens[i];
    o[k] = offs[i];
    kids[k] = elems[i].loop;
    x[k] = elems[i].extent;
    k++;
  }
  *out = NULL;
  if (k == 0)
    return DL_OK;
  if (k == 1)
    return dli_shift(b, blks[0], o[0], out);
  if (same)
    return dli_mk_blocks(b, k, bl, o, *first, out);
  if (dense)
    return mk_bytes(b, k, blks, o, out);
  pre[0] = 0;
  for (dl_count i = 0; i < k; i++) {
    if (blks[i]->leaf) {          /* the leaf takes the whole block */
      kids[i] = blks[i];
      bl[i] = 1;
    }
    dl_count bytes;
    if (__builtin_mul_overflow(bl[i], kids[i]->size, &bytes) ||
        __builtin_add_overflow(pre[i], bytes, &pre[i + 1]))
      return DL_ERR_OVERFLOW;
  }
  dli_loop *l = dli_build_node(b);
  if (!l)
    return DL_ERR_NOMEM;
  *l = (dli_loop){.kind = DLI_STRUCT, .count = k, .offs = o, .exts = x,
                  .blocklens = bl, .pre = pre, .children = kids};
  *out = l;
  return dli_finish_node(l);
}

int dl_type_struct(dl_count count, const dl_count *blocklens,
                   const dl_aint *displs, dl_type *const *types, dl_type **out)
{
  int rc = dli_ctor_args("dl_type_struct", count, 0, NULL, false, out);
  if (rc)
    return rc;
  if (count > 0 && (!blocklens || !displs || !types))
    return dli_fail(DL_ERR_ARG, "dl_type_struct: NULL array with count %lld",
                    (long long)count);
  for (dl_count i = 0; i < count; i++)
    if (blocklens[i] < 0 || !dli_type_valid(types[i]))
      return dli_fail(DL_ERR_ARG, "dl_type_struct: block %lld: negative "
                      "length or NULL or freed type", (long long)i);
  dli_build *b = dli_build_new();
  dli_bounds *bb = count ? dli_build_alloc(b, (size_t)count * sizeof(dli_bounds)) : NULL;
  dli_elem *el = count ? dli_build_alloc(b, (size_t)count * sizeof(dli_elem)) : NULL;
  rc = (!b || (count && (!bb || !el))) ? DL_ERR_NOMEM : DL_OK;
  for (dl_count i = 0; i < count && !rc; i++) {
    el[i] = dli_type_elem(types[i]);
    dl_aint lo = 0, hi = 0;
    if (blocklens[i] > 0 &&
        (dli_span(blocklens[i], el[i].extent, &lo, &hi) ||
         __builtin_add_overflow(lo, displs[i], &lo) ||
         __builtin_add_overflow(hi, displs[i], &hi)))
      rc = DL_ERR_OVERFLOW;
    if (!rc)
      rc = dli_bounds_replicate(&types[i]->b, blocklens[i], lo, hi, &bb[i]);
  }
  dli_bounds bd;
  if (!rc)
    rc = dli_bounds_struct(count, bb, &bd);
  const dli_loop *root = NULL;
  const dli_sig *sig = NULL;
  if (!rc && bd.size > 0)
    rc = dli_mk_struct(b, count, blocklens, displs, el, &root);
  if (!rc && bd.size > 0)
    rc = dli_sig_struct(b, count, blocklens, types, &sig);
  if (!rc)
    rc = dli_type_new(root, &bd, sig, out);
  dli_build_free(b);
  return rc;
}
