/* See mpi_recipe.h. */
#include <stdlib.h>
#include "mpi_recipe.h"

MPI_Datatype mpi_builtin(dl_builtin_t b)
{
  if ((int)b >= DL_NUM_BUILTINS) {
    switch ((int)b - DL_NUM_BUILTINS) {
    case DL_WCHAR: return MPI_WCHAR;
    case DL_FLOAT128: return MPI_REAL16;
    case DL_C_FLOAT128_COMPLEX: return MPI_COMPLEX32;
    }
    return MPI_DATATYPE_NULL;
  }
  switch (b) {
  case DL_BYTE: return MPI_BYTE;
  case DL_CHAR: return MPI_CHAR;
  case DL_INT8: return MPI_INT8_T;
  case DL_UINT8: return MPI_UINT8_T;
  case DL_INT16: return MPI_INT16_T;
  case DL_UINT16: return MPI_UINT16_T;
  case DL_INT32: return MPI_INT32_T;
  case DL_UINT32: return MPI_UINT32_T;
  case DL_INT64: return MPI_INT64_T;
  case DL_UINT64: return MPI_UINT64_T;
  case DL_FLOAT: return MPI_FLOAT;
  case DL_DOUBLE: return MPI_DOUBLE;
  case DL_LONG_DOUBLE: return MPI_LONG_DOUBLE;
  case DL_C_FLOAT_COMPLEX: return MPI_C_FLOAT_COMPLEX;
  case DL_C_DOUBLE_COMPLEX: return MPI_C_DOUBLE_COMPLEX;
  case DL_PACKED: return MPI_PACKED;
  case DL_LONG: return MPI_LONG;
  case DL_UNSIGNED_LONG: return MPI_UNSIGNED_LONG;
  case DL_C_BOOL: return MPI_C_BOOL;
  case DL_C_LONG_DOUBLE_COMPLEX: return MPI_C_LONG_DOUBLE_COMPLEX;
  }
  return MPI_DATATYPE_NULL;
}

static int mpi_distrib(int d)
{
  switch (d) {
  case DL_DISTRIBUTE_BLOCK: return MPI_DISTRIBUTE_BLOCK;
  case DL_DISTRIBUTE_CYCLIC: return MPI_DISTRIBUTE_CYCLIC;
  default: return MPI_DISTRIBUTE_NONE;
  }
}

static int mpi_order(int o)
{
  return o == DL_ORDER_FORTRAN ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
}

/* the classic constructors (int counts, MPI_Aint bytes), whose types ROMIO
   can flatten; the recipe's numbers are small enough for int */
static int make_classic(const recipe *rc, MPI_Datatype c, MPI_Datatype *kids,
                        MPI_Datatype *out)
{
  int n = (int)rc->n, *bls = malloc(sizeof(int) * (size_t)(n + 1));
  int *di = malloc(sizeof(int) * (size_t)(n + 1));
  MPI_Aint *da = malloc(sizeof(MPI_Aint) * (size_t)(n + 1));
  int sizes[3], subs[3], starts[3], dist[3], darg[3], err = MPI_ERR_NO_MEM;
  for (int i = 0; bls && di && da && i < n; i++) {
    bls[i] = rc->bls ? (int)rc->bls[i] : 0;
    di[i] = rc->displs ? (int)rc->displs[i] : 0;
    da[i] = rc->displs ? (MPI_Aint)rc->displs[i] : 0;
  }
  for (int i = 0; i < rc->ndims; i++) {
    sizes[i] = (int)rc->sizes[i];
    subs[i] = (int)rc->subs[i];
    starts[i] = (int)rc->starts[i];
    dist[i] = mpi_distrib(rc->dist[i]);
    darg[i] = rc->darg[i] == DL_DISTRIBUTE_DFLT_DARG ? MPI_DISTRIBUTE_DFLT_DARG
                                                     : rc->darg[i];
  }
  int bl = (int)rc->bl;
  if (bls && di && da) {
    switch (rc->kind) {
    case RT_CONTIG: err = MPI_Type_contiguous(n, c, out); break;
    case RT_VECTOR: err = MPI_Type_vector(n, bl, (int)rc->stride, c, out); break;
    case RT_HVECTOR: err = MPI_Type_create_hvector(n, bl, rc->stride, c, out); break;
    case RT_INDEXED: case RT_PERIODIC: err = MPI_Type_indexed(n, bls, di, c, out); break;
    case RT_HINDEXED: err = MPI_Type_create_hindexed(n, bls, da, c, out); break;
    case RT_INDEXED_BLOCK: err = MPI_Type_create_indexed_block(n, bl, di, c, out); break;
    case RT_HINDEXED_BLOCK:
      err = MPI_Type_create_hindexed_block(n, bl, da, c, out);
      break;
    case RT_STRUCT: err = MPI_Type_create_struct(n, bls, da, kids, out); break;
    case RT_RESIZED: err = MPI_Type_create_resized(c, rc->lb, rc->extent, out); break;
    case RT_SUBARRAY:
      err = MPI_Type_create_subarray(rc->ndims, sizes, subs, starts,
                                     mpi_order(rc->order), c, out);
      break;
    case RT_DARRAY:
      err = MPI_Type_create_darray(rc->size, rc->rank, rc->ndims, sizes, dist, darg,
                                   rc->psizes, mpi_order(rc->order), c, out);
      break;
    case RT_DUP: err = MPI_Type_dup(c, out); break;
    default: err = MPI_ERR_TYPE; break;
    }
  }
  free(bls);
  free(di);
  free(da);
  return err;
}

static int build_mpi(const recipe *rc, MPI_Datatype *out, bool large);

int recipe_build_mpi(const recipe *rc, MPI_Datatype *out)
{
  return build_mpi(rc, out, true);
}

int recipe_build_mpi_classic(const recipe *rc, MPI_Datatype *out)
{
  return build_mpi(rc, out, false);
}

#if MPI_VERSION >= 4
/* the recipe's lists as MPI_Count arrays (dl_count and int64_t need not be
   the same C type as MPI_Count) */
static MPI_Count *counts(const int64_t *v, int64_t n)
{
  MPI_Count *c = malloc(sizeof(MPI_Count) * (size_t)(n + 1));
  for (int64_t i = 0; c && i < n; i++)
    c[i] = v[i];
  return c;
}

/* the large-count constructors (MPI-4) */
static int make_large(const recipe *rc, MPI_Datatype c, MPI_Datatype *kids,
                      MPI_Datatype *out)
{
  int err = MPI_SUCCESS;
  MPI_Count *bls = counts(rc->bls, rc->bls ? rc->n : 0);
  MPI_Count *ds = counts(rc->displs, rc->displs ? rc->n : 0);
  MPI_Count sizes[3], subs[3], starts[3];
  int dist[3], darg[3];
  for (int i = 0; i < rc->ndims; i++) {
    sizes[i] = rc->sizes[i];
    subs[i] = rc->subs[i];
    starts[i] = rc->starts[i];
    dist[i] = mpi_distrib(rc->dist[i]);
    darg[i] = rc->darg[i] == DL_DISTRIBUTE_DFLT_DARG ? MPI_DISTRIBUTE_DFLT_DARG
                                                     : rc->darg[i];
  }
  if (!bls || !ds)
    err = MPI_ERR_NO_MEM;
  else {
    switch (rc->kind) {
    case RT_CONTIG: err = MPI_Type_contiguous_c(rc->n, c, out); break;
    case RT_VECTOR: err = MPI_Type_vector_c(rc->n, rc->bl, rc->stride, c, out); break;
    case RT_HVECTOR:
      err = MPI_Type_create_hvector_c(rc->n, rc->bl, rc->stride, c, out);
      break;
    case RT_INDEXED: case RT_PERIODIC:
      err = MPI_Type_indexed_c(rc->n, bls, ds, c, out);
      break;
    case RT_HINDEXED: err = MPI_Type_create_hindexed_c(rc->n, bls, ds, c, out); break;
    case RT_INDEXED_BLOCK:
      err = MPI_Type_create_indexed_block_c(rc->n, rc->bl, ds, c, out);
      break;
    case RT_HINDEXED_BLOCK:
      err = MPI_Type_create_hindexed_block_c(rc->n, rc->bl, ds, c, out);
      break;
    case RT_STRUCT: err = MPI_Type_create_struct_c(rc->n, bls, ds, kids, out); break;
    case RT_RESIZED: err = MPI_Type_create_resized_c(c, rc->lb, rc->extent, out); break;
    case RT_SUBARRAY:
      err = MPI_Type_create_subarray_c(rc->ndims, sizes, subs, starts,
                                       mpi_order(rc->order), c, out);
      break;
    case RT_DARRAY:
      err = MPI_Type_create_darray_c(rc->size, rc->rank, rc->ndims, sizes, dist,
                                     darg, rc->psizes, mpi_order(rc->order), c, out);
      break;
    case RT_DUP: err = MPI_Type_dup(c, out); break;
    default: err = MPI_ERR_TYPE; break;
    }
  }
  free(bls);
  free(ds);
  return err;
}
#endif

/* the recipe's top level over its children's MPI types: an MPI-3.1 host
   (Open MPI 4.1) has only the classic constructors */
static int mpi_level(const recipe *rc, MPI_Datatype *kids, bool large, MPI_Datatype *out)
{
#if MPI_VERSION >= 4
  if (large)
    return make_large(rc, kids[0], kids, out);
#else
  (void)large;
#endif
  return make_classic(rc, kids[0], kids, out);
}

/* the new type keeps what it needs of its children */
static void kids_free(const recipe *rc, MPI_Datatype *kids)
{
  for (int i = 0; i < rc->nkids; i++)
    if (kids[i] != MPI_DATATYPE_NULL && rc->kids[i]->kind != RT_BUILTIN)
      MPI_Type_free(&kids[i]);
}

static int build_mpi(const recipe *rc, MPI_Datatype *out, bool large)
{
  *out = MPI_DATATYPE_NULL;
  if (rc->kind == RT_BUILTIN) {
    *out = mpi_builtin(rc->basic);
    return *out == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
  }
  MPI_Datatype kids[4] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL,
                          MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
  int err = MPI_SUCCESS;
  for (int i = 0; i < rc->nkids && err == MPI_SUCCESS; i++)
    err = build_mpi(rc->kids[i], &kids[i], large);
  if (err == MPI_SUCCESS)
    err = mpi_level(rc, kids, large, out);
  kids_free(rc, kids);
  return err;
}

static int align_of(dl_builtin_t b);

int recipe_host(const recipe *rc, MPI_Datatype *out, model **m)
{
  *out = MPI_DATATYPE_NULL;
  *m = NULL;
  if (rc->kind == RT_BUILTIN) {
    *out = mpi_builtin(rc->basic);
    dl_count sz = 0;
    dl_type_size(rt_basic_type((int)rc->basic), &sz);
    *m = model_builtin(sz, (int)rc->basic < DL_NUM_BUILTINS
                               ? align_of(rc->basic) : rt_basic_align((int)rc->basic));
    return *out == MPI_DATATYPE_NULL ? MPI_ERR_TYPE : MPI_SUCCESS;
  }
  MPI_Datatype kids[4] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL,
                          MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
  model *km[4] = {NULL, NULL, NULL, NULL};
  int err = MPI_SUCCESS;
  for (int i = 0; i < rc->nkids && err == MPI_SUCCESS; i++)
    err = recipe_host(rc->kids[i], &kids[i], &km[i]);
  if (err == MPI_SUCCESS)
    err = mpi_level(rc, kids, true, out);
  kids_free(rc, kids);
  model *std = err == MPI_SUCCESS ? recipe_model_level(rc, km) : NULL;
  for (int i = 0; i < rc->nkids; i++)
    model_free(km[i]);
  MPI_Count lb, ext;
  if (std && MPI_Type_get_extent_x(*out, &lb, &ext) == MPI_SUCCESS &&
      (lb != std->lb || ext != model_extent(std))) {
    *m = model_resized(std, lb, ext);
    model_free(std);
  } else {
    *m = std;
  }
  if (err == MPI_SUCCESS && !*m)
    err = MPI_ERR_NO_MEM;
  return err;
}

/* ---- known deviations ----
 *
 * The rules below are MPICH 4.0.2's (its yaksa type engine), each confirmed
 * with a hand-built type in test_mpich.c. Each node of a recipe is modelled
 * the standard's way; where MPICH's rule, applied to the same children,
 * gives a different answer, the node is flagged with the rule's class. */

const char *const dev_names[DEV_NCLASSES] = {
  "struct ignores resized lb/ub markers",
  "zero-size struct member counts in bounds",
  "struct of one repeated type not padded",
  "zero-size type's markers dropped when replicated",
  "blocklength-0 vector/block-indexed has bounds",
  "darray true bounds (cyclic)",
  "block of negative-extent copies (not packed)",
  "MPI_Pack crash (not packed)",
};

/* natural alignment: what the model (randtype.c) and MPICH both use */
static int align_of(dl_builtin_t b)
{
  switch (b) {
  case DL_INT16: case DL_UINT16: return (int)_Alignof(int16_t);
  case DL_INT32: case DL_UINT32: return (int)_Alignof(int32_t);
  case DL_INT64: case DL_UINT64: return (int)_Alignof(int64_t);
  case DL_LONG: case DL_UNSIGNED_LONG: return (int)_Alignof(long);
  case DL_FLOAT: return (int)_Alignof(float);
  case DL_DOUBLE: return (int)_Alignof(double);
  case DL_LONG_DOUBLE: return (int)_Alignof(long double);
  case DL_C_FLOAT_COMPLEX: return (int)_Alignof(float _Complex);
  case DL_C_DOUBLE_COMPLEX: return (int)_Alignof(double _Complex);
  case DL_C_LONG_DOUBLE_COMPLEX: return (int)_Alignof(long double _Complex);
  default: return 1;
  }
}

typedef struct info {
  model *m;        /* the standard's type */
  int basic;       /* >= 0: an identity chain over this builtin (contig(1),
                      dup, ...), which MPICH hands out as the builtin itself */
  int malign;      /* MPICH's alignment, which ignores empty struct members */
  bool zero_bl;    /* a blocklength-0 vector or block-indexed type, maybe
                      resized or duplicated */
  unsigned dev;
} info;

static dl_count sum(const dl_count *v, dl_count n)
{
  dl_count s = 0;
  for (dl_count i = 0; i < n; i++)
    s += v[i];
  return s;
}

/* the vector and indexed families: MPICH makes the result a zero-length
   type at 0 whenever count is 0 or the old type is empty, and computes
   bounds from the displacements even when the blocklength is 0 */
static void replicated(const recipe *rc, const info *k, info *r)
{
  const model *c = k->m;
  dl_aint ext = model_extent(c);
  int kind = rc->kind;
  bool bytes = kind == RT_HINDEXED || kind == RT_HINDEXED_BLOCK;
  bool block = kind == RT_VECTOR || kind == RT_HVECTOR ||
               kind == RT_INDEXED_BLOCK || kind == RT_HINDEXED_BLOCK;
  dl_count copies;
  switch (kind) {
  case RT_CONTIG:
    copies = rc->n;
    r->m = model_contig(rc->n, c);
    break;
  case RT_VECTOR: case RT_HVECTOR:
    copies = rc->n * rc->bl;
    r->m = model_hvector(rc->n, rc->bl, kind == RT_VECTOR ? rc->stride * ext : rc->stride, c);
    break;
  default: {
    dl_count *bls = malloc(sizeof(dl_count) * (size_t)(rc->n + 1));
    dl_aint *d = malloc(sizeof(dl_aint) * (size_t)(rc->n + 1));
    if (!bls || !d) {
      free(bls);
      free(d);
      return;
    }
    for (dl_count i = 0; i < rc->n; i++) {
      bls[i] = kind == RT_INDEXED_BLOCK || kind == RT_HINDEXED_BLOCK ? rc->bl : rc->bls[i];
      d[i] = bytes ? rc->displs[i] : rc->displs[i] * ext;
    }
    copies = sum(bls, rc->n);
    r->m = model_hindexed(rc->n, bls, d, c);
    free(bls);
    free(d);
    break;
  }
  }
  dl_count maxbl = 0;
  switch (kind) {
  case RT_CONTIG: maxbl = rc->n; break;
  case RT_INDEXED: case RT_HINDEXED: case RT_PERIODIC:
    for (dl_count i = 0; i < rc->n; i++)
      if (rc->bls[i] > maxbl)
        maxbl = rc->bls[i];
    break;
  default: maxbl = rc->n > 0 ? rc->bl : 0; break;
  }
  if (rc->n == 0 || c->size == 0 || (!block && copies == 0))
    r->malign = 1;                          /* MPICH's zero-length type */
  if (maxbl >= 2 && ext < 0 && c->size > 0)
    r->dev |= DEV_NEG_BLOCK;
  if (block && rc->n > 0 && rc->bl == 0 && c->size > 0) {
    r->dev |= DEV_ZERO_BLOCKLEN | k->dev;   /* its bounds use the old type's */
    r->zero_bl = true;
  } else if (copies > 0 && c->size == 0) {
    if (c->sticky)
      r->dev |= DEV_ZERO_STICKY;            /* the old type is ignored */
  } else if (copies > 0) {
    r->dev |= k->dev;
  }
  /* an identity: one block of one element at 0 */
  bool one = false;
  switch (kind) {
  case RT_CONTIG: one = rc->n == 1; break;
  case RT_VECTOR: case RT_HVECTOR: one = rc->n == 1 && rc->bl == 1; break;
  case RT_INDEXED_BLOCK: case RT_HINDEXED_BLOCK:
    one = rc->n == 1 && rc->bl == 1 && rc->displs[0] == 0;
    break;
  default: one = rc->n == 1 && rc->bls[0] == 1 && rc->displs[0] == 0; break;
  }
  r->basic = one ? k->basic : -1;
}

/* MPICH's struct: members that are all the same type make an hindexed type
   (no padding); otherwise bounds are taken over every member with blocks,
   lb/ub markers or not, empty or not, and padded to the largest alignment
   among them. A struct of empty members is empty. */
static void structure(const recipe *rc, const info *k, info *r)
{
  model *ms[4];
  for (int i = 0; i < rc->nkids; i++)
    ms[i] = k[i].m;
  r->m = model_struct(rc->n, rc->bls, rc->displs, ms);
  if (!r->m)
    return;
  bool same = true, sticky = false, crashy = false;
  dl_count total = 0;
  int align = 1;
  /* [0]: over all members with blocks, as MPICH; [1]: only those with data */
  struct { bool any; dl_aint lo, hi, tlo, thi; } b[2] = {{0}, {0}};
  for (int i = 0; i < rc->nkids; i++) {
    if (i > 0 && (k[i].basic < 0 || k[i].basic != k[0].basic))
      same = false;
    dl_count bl = rc->bls[i];
    if (bl == 0)
      continue;
    const model *c = k[i].m;
    r->dev |= k[i].dev;
    total += bl * c->size;
    sticky = sticky || c->sticky;
    crashy = crashy || k[i].zero_bl;
    if (k[i].malign > align)
      align = k[i].malign;
    dl_aint ext = model_extent(c), span = ext * (bl - 1), d = rc->displs[i];
    if (bl >= 2 && ext < 0 && c->size > 0)
      r->dev |= DEV_NEG_BLOCK;
    dl_aint l = d + c->lb + (ext > 0 ? 0 : span), u = d + c->ub + (ext > 0 ? span : 0);
    dl_aint tl = l - c->lb + c->true_lb, tu = u - c->ub + c->true_ub;
    for (int j = 0; j < 2; j++) {
      if (j == 1 && c->size == 0)
        continue;
      if (!b[j].any || l < b[j].lo) b[j].lo = l;
      if (!b[j].any || u > b[j].hi) b[j].hi = u;
      if (!b[j].any || tl < b[j].tlo) b[j].tlo = tl;
      if (!b[j].any || tu > b[j].thi) b[j].thi = tu;
      b[j].any = true;
    }
  }
  r->basic = rc->n == 1 && rc->bls[0] == 1 && rc->displs[0] == 0 ? k[0].basic : -1;
  if (total == 0) {
    r->malign = 1;
    r->dev = sticky ? DEV_ZERO_STICKY : 0;
    return;
  }
  dl_aint hi = b[0].hi;
  if (same) {
    r->malign = k[0].malign;
  } else {
    r->malign = align;
    uint64_t rem = (uint64_t)(hi - b[0].lo) % (uint64_t)align;   /* as MPICH */
    if (rem)
      hi += align - (dl_aint)rem;
    if (crashy)
      r->dev |= DEV_PACK_CRASH;
  }
  const model *std = r->m;
  if (b[0].lo == std->lb && hi == std->ub && b[0].tlo == std->true_lb &&
      b[0].thi == std->true_ub)
    return;
  if (sticky)
    r->dev |= DEV_STRUCT_MARKERS;
  else if (b[0].lo != b[1].lo || b[0].hi != b[1].hi || b[0].tlo != b[1].tlo ||
           b[0].thi != b[1].thi)
    r->dev |= DEV_STRUCT_ZERO_MEMBER;
  else if (same)
    r->dev |= DEV_STRUCT_NO_PAD;
}

/* MPICH's darray gets the true bounds wrong (not the data, lb or extent)
   when a cyclic(>= 2) dimension has a faster-varying cyclic dimension in
   which this rank's coordinate is not 0, or the old type's true lb is not
   0 */
static bool darray_true_bug(const recipe *rc, const model *old)
{
  int co[3];
  for (int d = rc->ndims - 1, r = rc->rank; d >= 0; d--) {
    co[d] = r % rc->psizes[d];
    r /= rc->psizes[d];
  }
  for (int i = 0; i < rc->ndims; i++) {
    if (rc->dist[i] != DL_DISTRIBUTE_CYCLIC || rc->darg[i] < 2)
      continue;
    if (old->true_lb != 0)
      return true;
    for (int j = 0; j < rc->ndims; j++) {
      bool faster = rc->order == DL_ORDER_C ? j > i : j < i;
      if (faster && rc->dist[j] == DL_DISTRIBUTE_CYCLIC && co[j] > 0)
        return true;
    }
  }
  return false;
}

static info analyze(const recipe *rc)
{
  info r = {NULL, -1, 1, false, 0};
  if (rc->kind == RT_BUILTIN) {
    dl_count sz = 0;
    dl_type_size(rt_basic_type((int)rc->basic), &sz);
    r.malign = (int)rc->basic < DL_NUM_BUILTINS ? align_of(rc->basic)
                                                : rt_basic_align((int)rc->basic);
    r.m = model_builtin(sz, r.malign);
    r.basic = (int)rc->basic;
    return r;
  }
  info k[4] = {{0}};
  bool ok = true;
  for (int i = 0; i < rc->nkids; i++) {
    k[i] = analyze(rc->kids[i]);
    ok = ok && k[i].m;
  }
  if (ok) {
    const model *c = k[0].m;
    r.malign = k[0].malign;
    switch (rc->kind) {
    case RT_STRUCT:
      structure(rc, k, &r);
      break;
    case RT_RESIZED:
      r.m = model_resized(c, rc->lb, rc->extent);
      r.dev = k[0].dev;
      r.zero_bl = k[0].zero_bl;
      r.basic = rc->lb == c->lb && rc->extent == model_extent(c) ? k[0].basic : -1;
      break;
    case RT_DUP:
      r.m = model_copy(c);
      r.dev = k[0].dev;
      r.zero_bl = k[0].zero_bl;
      r.basic = k[0].basic;
      break;
    case RT_SUBARRAY:
      r.m = model_subarray(rc->ndims, rc->sizes, rc->subs, rc->starts, rc->order, c);
      r.dev = k[0].dev;              /* the old type's extent counts */
      if (model_extent(c) < 0 && c->size > 0)
        r.dev |= DEV_NEG_BLOCK;
      r.basic = k[0].basic;
      for (int i = 0; i < rc->ndims; i++)
        if (rc->sizes[i] != 1 || rc->subs[i] != 1)
          r.basic = -1;
      break;
    case RT_DARRAY:
      r.m = model_darray(rc->size, rc->rank, rc->ndims, rc->sizes, rc->dist,
                         rc->darg, rc->psizes, rc->order, c);
      r.dev = k[0].dev | (darray_true_bug(rc, c) ? DEV_DARRAY_TRUE : 0);
      if (model_extent(c) < 0 && c->size > 0)
        r.dev |= DEV_NEG_BLOCK;        /* built from contiguous runs of it */
      break;
    default:
      replicated(rc, &k[0], &r);
      break;
    }
  }
  for (int i = 0; i < rc->nkids; i++)
    model_free(k[i].m);
  if (!r.m)
    r.dev = 0;
  return r;
}

unsigned recipe_mpich_deviates(const recipe *rc)
{
  info r = analyze(rc);
  model_free(r.m);
  return r.dev;
}

bool recipe_has_long_double(const recipe *rc)
{
  if (rc->kind == RT_BUILTIN)
    return rc->basic == DL_LONG_DOUBLE || rc->basic == DL_C_LONG_DOUBLE_COMPLEX;
  for (int i = 0; i < rc->nkids; i++)
    if (recipe_has_long_double(rc->kids[i]))
      return true;
  return false;
}

/* whether a block of one member of struct rc ends where a block of
   another begins (or the members hold too many blocks to tell) */
static bool struct_members_abut(const recipe *rc)
{
  enum { MAXRUNS = 1024, BATCH = 64 };
  int64_t *from = malloc(MAXRUNS * sizeof(int64_t)), *to = malloc(MAXRUNS * sizeof(int64_t));
  int *who = malloc(MAXRUNS * sizeof(int));
  size_t n = 0;
  bool many = false;
  for (int i = 0; i < rc->nkids && !many; i++) {
    dl_type *k;
    dl_segment *sg;
    if (recipe_build(rc->kids[i], &k) != DL_OK)
      continue;
    size_t size = 0;
    if ((rc->kids[i]->kind == RT_BUILTIN || dl_type_commit(k) == DL_OK) &&
        dl_pack_size(rc->bls[i], k, &size) == DL_OK &&
        dl_segment_create(NULL, rc->bls[i], k, &sg) == DL_OK) {
      for (size_t at = 0, got = 0; at < size; at = got) {
        int64_t off[BATCH], len[BATCH];
        size_t last = size, nb = 0;
        if (dl_segment_offlen(sg, at, &last, off, len, BATCH, &nb) != DL_OK || last <= at)
          break;
        for (size_t j = 0; j < nb && !many; j++) {
          many = n == MAXRUNS;
          if (!many) {
            from[n] = rc->displs[i] + off[j];
            to[n] = from[n] + len[j];
            who[n++] = i;
          }
        }
        got = last;
        if (many)
          break;
      }
      dl_segment_free(&sg);
    }
    if (rc->kids[i]->kind != RT_BUILTIN)
      dl_type_free(&k);
  }
  bool abut = many;
  for (size_t a = 0; a < n && !abut; a++)
    for (size_t b = 0; b < n && !abut; b++)
      abut = who[a] != who[b] && to[a] == from[b];
  free(from);
  free(to);
  free(who);
  return abut;
}

/* MPICH's external32 takes one basic type per type, and a struct with an
   empty member has none: MPI_Pack_external dies of SIGILL on it, and on a
   cyclic darray, which MPICH builds from such structs. It counts a
   struct's blocks member by member, while its iovec merges blocks of two
   members that abut: MPI_Pack_external asserts (max_iov_len ==
   actual_iov_len) where such a struct is not taken whole as contiguous
   (resized past its bounds; test_preload's seed 1795765365) */
static bool struct_members_full(const recipe *rc)
{
  if (rc->kind == RT_STRUCT && rc->nkids >= 2 && struct_members_abut(rc))
    return false;
  if (rc->kind == RT_DARRAY)
    for (int d = 0; d < rc->ndims; d++)
      if (rc->dist[d] == DL_DISTRIBUTE_CYCLIC)
        return false;
  for (int i = 0; i < rc->nkids; i++) {
    if (rc->kind == RT_STRUCT) {
      dl_type *k;
      dl_count size = 0;
      if (recipe_build(rc->kids[i], &k) == DL_OK) {
        dl_type_size(k, &size);
        if (rc->kids[i]->kind != RT_BUILTIN)
          dl_type_free(&k);
      }
      if (rc->bls[i] == 0 || size == 0)
        return false;
    }
    if (!struct_members_full(rc->kids[i]))
      return false;
  }
  return true;
}

/* MPICH's size and bounds are the standard's */
static bool mpi_bounds_agree(MPI_Datatype mt, const dl_type *t)
{
  MPI_Count lb, ext, tlb, text, size;
  dl_aint a, b, c, d;
  dl_count s;
  MPI_Type_get_extent_x(mt, &lb, &ext);
  MPI_Type_get_true_extent_x(mt, &tlb, &text);
  MPI_Type_size_x(mt, &size);
  dl_type_extent(t, &a, &b);
  dl_type_true_extent(t, &c, &d);
  dl_type_size(t, &s);
  return lb == a && ext == b && size == s && (s == 0 || (tlb == c && text == d));
}

bool mpich_external_host_ok(const rtype *rt)
{
  dl_count size;
  dl_type_size(rt->t, &size);
  return size > 0 && !(recipe_mpich_deviates(rt->rc) & DEV_NO_PACK) &&
         struct_members_full(rt->rc);
}

bool mpich_external_ok(const rtype *rt, MPI_Datatype mt)
{
  dl_count size;
  dl_type_size(rt->t, &size);
  /* MPI_Pack_external_size of an empty derived type dies of SIGILL too */
  return size > 0 && recipe_mpich_deviates(rt->rc) == 0 &&
         mpi_bounds_agree(mt, rt->t) && struct_members_full(rt->rc);
}
