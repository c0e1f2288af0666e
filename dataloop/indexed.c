/* MPI_Type_indexed and MPI_Type_create_hindexed, and the normalizer for
 * any list of blocks of one element type: zero-length blocks vanish,
 * touching blocks merge, equal lengths become BLOCKINDEXED, even spacing
 * becomes a VECTOR, and a repeating pattern is folded to one period. */
#include <string.h>
#include "build.h"

/* Elements that are short leaves of separate blocks (a padded struct's
   members) are spread into one leaf of all their blocks: the walker then
   hands the kernels one leaf, not one leaf per element. Up to SPREAD_PER
   blocks an element, SPREAD_MAX blocks in all (a block costs up to 20
   bytes of offsets and prefix sums). */
enum { SPREAD_PER = 4, SPREAD_MAX = 1 << 20 };

/* the blocks of spreading k merged blocks from raw index `from`, or 0 */
static dl_count spread_blocks(const dli_blocks *s, dl_count from, dl_count k, dli_elem e)
{
  const dli_loop *r = e.loop;
  if (!r->leaf || r->kind == DLI_CONTIG || r->count > SPREAD_PER)
    return 0;
  dli_blkit it = {.s = s, .i = from};
  dl_count n = 0, total;
  for (dl_count i = 0; i < k; i++) {
    dl_aint off;
    dl_count len;
    if (!dli_blkit_next(&it, &off, &len) || __builtin_add_overflow(n, len, &n))
      return 0;
  }
  return __builtin_mul_overflow(n, r->count, &total) || total > SPREAD_MAX ? 0 : total;
}

static dl_aint leaf_block_off(const dli_loop *r, dl_count q)
{
  return r->offset + (r->kind == DLI_VECTOR ? q * r->stride : r->offs[q]);
}

/* the total blocks of the k merged blocks from `from`, each element's
   blocks in turn, as a list over the leaf's basic unit */
static int mk_spread(dli_build *b, const dli_blocks *s, dl_count from, dl_count k,
                     dl_count total, dli_elem e, const dli_loop **out)
{
  const dli_loop *r = e.loop;
  dl_aint *o = dli_build_alloc(b, (size_t)total * sizeof(dl_aint));
  dl_count *lens = dli_build_alloc(b, (size_t)total * sizeof(dl_count));
  dli_loop *u = dli_build_node(b);
  if (!o || !lens || !u)
    return DL_ERR_NOMEM;
  int unit = r->unit ? r->unit : 1;
  for (dl_count q = 0; q < r->count; q++)
    if (dli_block_bytes(r, q) % unit != 0)
      unit = 1;
  dli_blkit it = {.s = s, .i = from};
  dl_count at = 0;
  for (dl_count i = 0; i < k; i++) {
    dl_aint off, base;
    dl_count len;
    if (!dli_blkit_next(&it, &off, &len))
      return it.rc ? it.rc : DL_ERR_ARG;
    for (dl_count j = 0; j < len; j++) {
      if (__builtin_mul_overflow(j, e.extent, &base) || __builtin_add_overflow(base, off, &base))
        return DL_ERR_OVERFLOW;
      for (dl_count q = 0; q < r->count; q++, at++) {
        if (__builtin_add_overflow(base, leaf_block_off(r, q), &o[at]))
          return DL_ERR_OVERFLOW;
        lens[at] = dli_block_bytes(r, q) / unit;
      }
    }
  }
  *u = (dli_loop){.kind = DLI_CONTIG, .leaf = 1, .unit = (uint8_t)unit,
                  .depth = 1, .count = unit, .size = unit, .tub = unit};
  return dli_mk_blocks(b, total, lens, o, (dli_elem){u, unit, unit}, out);
}

/* the blocks from raw index `from` on (k merged blocks), as one INDEXED or
   BLOCKINDEXED loop; a leaf over bytes when the element is a dense run or
   spreads */
static int mk_plain(dli_build *b, const dli_blocks *s, dl_count from, dl_count k,
                    dli_elem e, const dli_loop **out)
{
  const dli_loop *r = e.loop;
  bool dense = dli_is_dense(r), tiles = dense && e.extent == e.size;
  dl_count spread = dense ? 0 : spread_blocks(s, from, k, e);
  if (spread)
    return mk_spread(b, s, from, k, spread, e, out);
  dli_loop *l = dli_build_node(b);
  dl_aint *o = dli_build_alloc(b, (size_t)k * sizeof(dl_aint));
  dl_count *pre = dli_build_alloc(b, (size_t)(k + 1) * sizeof(dl_count));
  dl_count *bl = dli_build_alloc(b, (size_t)k * sizeof(dl_count));
  if (!l || !o || !pre || !bl)
    return DL_ERR_NOMEM;
  dli_blkit it = {.s = s, .i = from};
  bool uniform = true;
  pre[0] = 0;
  for (dl_count i = 0; i < k; i++) {
    if (!dli_blkit_next(&it, &o[i], &bl[i]))
      return it.rc ? it.rc : DL_ERR_ARG;
    uniform = uniform && bl[i] == bl[0];
    if (__builtin_add_overflow(pre[i], bl[i], &pre[i + 1]))
      return DL_ERR_OVERFLOW;
  }
  /* bytes at the leaf: element runs that tile, or single-element blocks */
  bool bytes = tiles || (dense && uniform && bl[0] == 1);
  dl_count per = bytes ? r->count : e.size;    /* packed bytes per element */
  *l = (dli_loop){.kind = uniform ? DLI_BLOCKINDEXED : DLI_INDEXED, .count = k,
                  .offs = o, .blocklen = bl[0]};
  if (bytes) {
    l->leaf = 1;
    l->unit = r->unit;
    for (dl_count i = 0; r->offset && i < k; i++)
      if (__builtin_add_overflow(o[i], r->offset, &o[i]))
        return DL_ERR_OVERFLOW;
  } else {
    l->child = r;
    l->el_size = e.size;
    l->el_extent = e.extent;
    if (!uniform)
      l->blocklens = bl;
  }
  if (__builtin_mul_overflow(pre[k], per, &pre[k]) ||
      (uniform && __builtin_mul_overflow(bl[0], bytes ? per : 1, &l->blocklen)))
    return DL_ERR_OVERFLOW;
  for (dl_count i = 0; !uniform && i < k; i++)
    pre[i] *= per;                 /* pre[k] bounds them all */
  if (!uniform)
    l->pre = pre;
  *out = l;
  return dli_finish_node(l);
}

static int build(dli_build *b, const dli_blocks *s, const dli_scan *sc,
                 dli_elem e, bool may_fold, const dli_loop **out);

/* a block list starting at raw index `from`, normalized but not folded */
static int mk_rest(dli_build *b, const dli_blocks *s, dl_count from, dli_elem e,
                   const dli_loop **out)
{
  dli_blocks rest = *s;
  size_t w = s->bytes ? sizeof(dl_aint) : sizeof(dl_count);
  rest.n = s->n - from;
  rest.bls = s->bls ? s->bls + from : NULL;
  rest.displs = (const char *)s->displs + (size_t)from * w;
  dli_scan sc;
  int rc = dli_scan_blocks(b, &rest, &sc);
  return rc ? rc : build(b, &rest, &sc, e, false, out);
}

/* q repetitions of the first p blocks, then the blocks after them */
static int mk_folded(dli_build *b, const dli_blocks *s, const dli_scan *sc,
                     dli_elem e, const dli_loop **out)
{
  dl_count p = sc->period, q = sc->periodic / p;
  dli_blocks pattern = {.n = p, .bls = sc->pbls, .displs = sc->poffs,
                        .bytes = true, .ext = e.extent, .apart = s->apart};
  const dli_loop *pat, *rep, *tail;
  int rc = mk_plain(b, &pattern, 0, p, e, &pat);
  if (rc)
    return rc;
  rc = dli_mk_contig(b, NULL, q, (dli_elem){pat, pat->size, sc->pdelta}, &rep);
  if (rc || q * p == sc->m) {
    *out = rep;
    return rc;
  }
  if ((rc = mk_rest(b, s, sc->tail_raw, e, &tail)))
    return rc;
  dli_loop *l = dli_build_node(b);
  dl_aint *o = dli_build_alloc(b, 2 * sizeof(dl_aint));
  dl_aint *x = dli_build_alloc(b, 2 * sizeof(dl_aint));
  dl_count *bl = dli_build_alloc(b, 2 * sizeof(dl_count));
  dl_count *pre = dli_build_alloc(b, 3 * sizeof(dl_count));
  const dli_loop **kids = dli_build_alloc(b, 2 * sizeof(dli_loop *));
  if (!l || !o || !x || !bl || !pre || !kids)
    return DL_ERR_NOMEM;
  o[0] = o[1] = x[0] = x[1] = 0;    /* one element per block: no stepping */
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

static int build(dli_build *b, const dli_blocks *s, const dli_scan *sc,
                 dli_elem e, bool may_fold, const dli_loop **out)
{
  const dli_loop *l;
  int rc;
  *out = NULL;
  if (sc->m == 0)
    return DL_OK;
  if (sc->m == 1 || (sc->uniform && sc->even)) {
    rc = sc->m == 1 ? dli_mk_contig(b, NULL, sc->pbls[0], e, &l)
                    : dli_mk_vector(b, sc->m, sc->pbls[0], sc->delta, e, &l);
    return rc ? rc : dli_shift(b, l, sc->poffs[0], out);
  }
  /* fold when the pattern repeats and covers most of the list */
  dl_count p = sc->period;
  if (may_fold && p > 0 && sc->periodic / p >= 2 &&
      sc->periodic / p * p >= sc->m - sc->m / 4)
    return mk_folded(b, s, sc, e, out);
  return mk_plain(b, s, 0, sc->m, e, out);
}

int dli_mk_blocks(dli_build *b, dl_count n, dl_count *bls, dl_aint *offs,
                  dli_elem e, const dli_loop **out)
{
  dli_blocks s = {.n = n, .bls = bls, .displs = offs, .bytes = true,
                  .ext = e.extent};
  dli_scan sc;
  int rc = dli_scan_blocks(b, &s, &sc);
  return rc ? rc : build(b, &s, &sc, e, true, out);
}

/* Blocks of one short length (a gather's elements) stay apart where
   merging the touching ones would leave most of them all the same but
   the leaf of mixed lengths: the kernels move blocks of one length with
   the length known and narrow offsets, at the speed of a hand loop over
   an index list, and mixed ones with a length per block. Up to
   APART_MAX_BYTES a block, and where merging saves less than a quarter
   of the blocks. */
enum { APART_MAX_BYTES = 64 };

static bool keep_apart(const dli_blocks *s, const dli_scan *sc, dli_elem e)
{
  if (sc->uniform || sc->m < 2 || !e.loop || !dli_is_dense(e.loop) ||
      e.extent != e.size)
    return false;
  dl_count len = 0, raw = 0;
  for (dl_count i = 0; i < s->n; i++) {
    dl_count l = s->bls ? s->bls[i] : s->bl;
    if (l == 0)
      continue;
    if (len && l != len)
      return false;
    len = l;
    raw++;
  }
  dl_aint bytes;
  return !__builtin_mul_overflow(len, e.size, &bytes) && bytes <= APART_MAX_BYTES &&
         sc->m > raw - raw / 4;
}

int dli_type_blocks(dl_count count, const dl_count *blocklens, dl_count bl,
                    const void *displs, bool bytes, dl_type *old, dl_type **out)
{
  int rc = dli_ctor_args("indexed constructor", count, bl, old, true, out);
  if (rc)
    return rc;
  if (count > 0 && !displs)
    return dli_fail(DL_ERR_ARG, "indexed constructor: NULL displacements");
  dli_elem e = dli_type_elem(old);
  dli_blocks s = {.n = count, .bls = blocklens, .bl = bl, .displs = displs,
                  .bytes = bytes, .ext = e.extent};
  dli_build *b = dli_build_new();
  if (!b)
    return DL_ERR_NOMEM;
  dli_scan sc;
  dli_bounds bd;
  const dli_loop *root = NULL;
  rc = dli_scan_blocks(b, &s, &sc);
  if (!rc && keep_apart(&s, &sc, e)) {
    s.apart = true;
    rc = dli_scan_blocks(b, &s, &sc);
  }
  if (!rc)
    rc = dli_bounds_replicate(&old->b, sc.ncopies, sc.lo, sc.hi, &bd);
  if (!rc && bd.size > 0)
    rc = build(b, &s, &sc, e, true, &root);
  if (!rc)
    rc = dli_type_new_copies(root, &bd, old, out);
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
