/* Random type recipes; see randtype.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "randtype.h"

#define MAX_EXTENT (1 << 18)

uint64_t rng_next(rng *r)
{
  /* splitmix64: any seed, including 0, gives a good stream */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int64_t rng_range(rng *r, int64_t lo, int64_t hi)
{
  return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

size_t rng_cut(rng *r, size_t size, size_t *edges, size_t max)
{
  size_t n = 0, at = 0, big = size / 3 + 1;
  edges[n++] = 0;
  while (at < size && n < max - 1) {
    size_t step = rng_range(r, 0, 3) == 0 ? (size_t)rng_range(r, 1, (int64_t)big)
                                          : (size_t)rng_range(r, 1, 9);
    at = at + step < size ? at + step : size;
    edges[n++] = at;
  }
  if (at < size)
    edges[n++] = size;
  return n;
}

void rng_shuffle(rng *r, size_t *v, size_t n)
{
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)rng_range(r, 0, (int64_t)i - 1), t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

static void recipe_free(recipe *rc)
{
  if (!rc)
    return;
  for (int i = 0; i < rc->nkids; i++)
    recipe_free(rc->kids[i]);
  free(rc->kids);
  free(rc->bls);
  free(rc->displs);
  free(rc);
}

void rtype_free(rtype *t)
{
  if (t->t)
    dl_type_free(&t->t);
  model_free(t->m);
  recipe_free(t->rc);
  free(t->desc);
  memset(t, 0, sizeof(*t));
}

static const struct { dl_builtin_t id; const char *name; int align; } basics[] = {
  {DL_BYTE, "byte", 1}, {DL_CHAR, "char", 1}, {DL_INT16, "int16", 2},
  {DL_INT32, "int32", 4}, {DL_FLOAT, "float", 4}, {DL_DOUBLE, "double", 8},
  {DL_C_DOUBLE_COMPLEX, "dcomplex", 8}, {DL_LONG_DOUBLE, "ldouble", 16},
  {DL_INT64, "int64", 8},
};
#define NBASICS (int)(sizeof(basics) / sizeof(basics[0]))

/* every predefined type, by basic id (dl_builtin_more's after dl_builtin's) */
static const char *const all_names[RT_NUM_BASICS] = {
  "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32",
  "int64", "uint64", "float", "double", "ldouble", "fcomplex", "dcomplex",
  "packed", "long", "ulong", "bool", "ldcomplex", "wchar", "float128",
  "qcomplex"};

dl_type *rt_basic_type(int basic)
{
  return basic < DL_NUM_BUILTINS ? dl_builtin((dl_builtin_t)basic)
                                 : dl_builtin_more((dl_builtin_more_t)(basic - DL_NUM_BUILTINS));
}

int rt_basic_align(int basic)
{
  dl_count size;
  dl_type_size(rt_basic_type(basic), &size);
  switch (basic) {
  case DL_C_FLOAT_COMPLEX: return 4;
  case DL_C_DOUBLE_COMPLEX: return 8;
  default: return size > 16 ? 16 : (int)size;
  }
}

/* the basic types of typed generation in this thread, or none */
static _Thread_local const int *typed_basics;
static _Thread_local int typed_n;
/* rtype_gen_deviant: draws weighted towards MPICH's bounds deviations */
static _Thread_local bool deviant;

/* ---- text ---- */

struct buf { char *s; size_t n, cap; };

static void put(struct buf *b, const char *f, ...)
{
  va_list ap;
  va_start(ap, f);
  char tmp[256];
  int k = vsnprintf(tmp, sizeof(tmp), f, ap);
  va_end(ap);
  if (k < 0)
    return;
  if (b->n + (size_t)k + 1 > b->cap) {
    b->cap = (b->n + (size_t)k + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, tmp, (size_t)k + 1);
  b->n += (size_t)k;
}

static void put_list(struct buf *b, const int64_t *v, int n)
{
  put(b, "{");
  for (int i = 0; i < n; i++)
    put(b, "%s%lld", i ? "," : "", (long long)v[i]);
  put(b, "}");
}

static void put_ints(struct buf *b, const int *v, int n)
{
  int64_t w[3];
  for (int i = 0; i < n; i++)
    w[i] = v[i];
  put_list(b, w, n);
}

static void describe(struct buf *b, const recipe *rc)
{
  static const char *names[RT_NKINDS] = {
    "", "contig", "vector", "hvector", "indexed", "hindexed", "indexed_block",
    "hindexed_block", "struct", "resized", "subarray", "darray", "dup", "indexed"};
  if (rc->kind == RT_BUILTIN) {
    put(b, "%s", (int)rc->basic < RT_NUM_BASICS ? all_names[rc->basic] : "?");
    return;
  }
  put(b, "%s(", names[rc->kind]);
  switch (rc->kind) {
  case RT_CONTIG: put(b, "%lld,", (long long)rc->n); break;
  case RT_VECTOR: case RT_HVECTOR:
    put(b, "%lld,%lld,%lld,", (long long)rc->n, (long long)rc->bl,
        (long long)rc->stride);
    break;
  case RT_INDEXED_BLOCK: case RT_HINDEXED_BLOCK:
    put(b, "%lld,%lld,", (long long)rc->n, (long long)rc->bl);
    put_list(b, rc->displs, (int)rc->n);
    put(b, ",");
    break;
  case RT_INDEXED: case RT_HINDEXED: case RT_PERIODIC:
    put(b, "%lld,", (long long)rc->n);
    put_list(b, rc->bls, (int)rc->n);
    put(b, ",");
    put_list(b, rc->displs, (int)rc->n);
    put(b, ",");
    break;
  case RT_STRUCT:
    for (int i = 0; i < rc->nkids; i++) {
      put(b, "%s%lldx", i ? "," : "", (long long)rc->bls[i]);
      describe(b, rc->kids[i]);
      put(b, "@%lld", (long long)rc->displs[i]);
    }
    put(b, ")");
    return;
  case RT_RESIZED:
    describe(b, rc->kids[0]);
    put(b, ",%lld,%lld)", (long long)rc->lb, (long long)rc->extent);
    return;
  case RT_SUBARRAY:
    put(b, "%d,", rc->ndims);
    put_list(b, rc->sizes, rc->ndims);
    put_list(b, rc->subs, rc->ndims);
    put_list(b, rc->starts, rc->ndims);
    put(b, ",%s,", rc->order ? "F" : "C");
    break;
  case RT_DARRAY:
    put(b, "%d,%d,%d,", rc->size, rc->rank, rc->ndims);
    put_list(b, rc->sizes, rc->ndims);
    put_ints(b, rc->dist, rc->ndims);
    put_ints(b, rc->darg, rc->ndims);
    put_ints(b, rc->psizes, rc->ndims);
    put(b, ",%s,", rc->order ? "F" : "C");
    break;
  default:
    break;
  }
  describe(b, rc->kids[0]);
  put(b, ")");
}

char *recipe_desc(const recipe *rc)
{
  struct buf b = {0};
  describe(&b, rc);
  return b.s;
}

/* ---- building with the library ---- */

int recipe_build(const recipe *rc, dl_type **out)
{
  if (rc->kind == RT_BUILTIN) {
    *out = rt_basic_type((int)rc->basic);
    return DL_OK;
  }
  dl_type *kids[4] = {0};
  int rc_ = DL_OK;
  for (int i = 0; i < rc->nkids && !rc_; i++)
    rc_ = recipe_build(rc->kids[i], &kids[i]);
  dl_type *c = kids[0];
  if (!rc_) {
    switch (rc->kind) {
    case RT_CONTIG: rc_ = dl_type_contiguous(rc->n, c, out); break;
    case RT_VECTOR: rc_ = dl_type_vector(rc->n, rc->bl, rc->stride, c, out); break;
    case RT_HVECTOR: rc_ = dl_type_hvector(rc->n, rc->bl, rc->stride, c, out); break;
    case RT_INDEXED: case RT_PERIODIC:
      rc_ = dl_type_indexed(rc->n, rc->bls, rc->displs, c, out); break;
    case RT_HINDEXED: rc_ = dl_type_hindexed(rc->n, rc->bls, rc->displs, c, out); break;
    case RT_INDEXED_BLOCK:
      rc_ = dl_type_indexed_block(rc->n, rc->bl, rc->displs, c, out); break;
    case RT_HINDEXED_BLOCK:
      rc_ = dl_type_hindexed_block(rc->n, rc->bl, rc->displs, c, out); break;
    case RT_STRUCT: rc_ = dl_type_struct(rc->n, rc->bls, rc->displs, kids, out); break;
    case RT_RESIZED: rc_ = dl_type_resized(c, rc->lb, rc->extent, out); break;
    case RT_SUBARRAY:
      rc_ = dl_type_subarray(rc->ndims, rc->sizes, rc->subs, rc->starts, rc->order, c, out);
      break;
    case RT_DARRAY:
      rc_ = dl_type_darray(rc->size, rc->rank, rc->ndims, rc->sizes, rc->dist,
                           rc->darg, rc->psizes, rc->order, c, out);
      break;
    case RT_DUP: rc_ = dl_type_dup(c, out); break;
    }
  }
  for (int i = 0; i < rc->nkids; i++)
    if (kids[i])
      dl_type_free(&kids[i]);    /* refused harmlessly for builtins */
  return rc_;
}

/* ---- drawing ---- */

static recipe *node(int kind)
{
  recipe *rc = calloc(1, sizeof(recipe));
  rc->kind = kind;
  return rc;
}

static void lists(recipe *rc, dl_count n)
{
  rc->n = n;
  rc->bls = calloc((size_t)n + 1, sizeof(dl_count));
  rc->displs = calloc((size_t)n + 1, sizeof(int64_t));
}

static bool too_big(const model *m)
{
  if (!m)
    return true;
  dl_aint ext = model_extent(m);
  return ext > MAX_EXTENT || ext < -MAX_EXTENT || m->size > MAX_EXTENT ||
         m->true_ub - m->true_lb > MAX_EXTENT;
}

static recipe *draw(rng *r, int depth, model **m, long *counts);

/* a child small enough to model; redraws until it is */
static recipe *child(rng *r, int depth, model **m, long *counts)
{
  for (;;) {
    recipe *rc = draw(r, depth - 1, m, counts);
    if (!too_big(*m))
      return rc;
    recipe_free(rc);
    model_free(*m);
  }
}

static void draw_indexed(rng *r, recipe *rc, const model *c)
{
  int kind = rc->kind;
  bool bytes = kind == RT_HINDEXED || kind == RT_HINDEXED_BLOCK;
  bool block = kind == RT_INDEXED_BLOCK || kind == RT_HINDEXED_BLOCK;
  dl_aint ext = model_extent(c);
  if (kind == RT_PERIODIC) {
    /* a repeating pattern with a remainder, to exercise index folding */
    dl_count p = rng_range(r, 2, 4), q = rng_range(r, 2, 6);
    dl_count rem = rng_range(r, 0, p - 1), pb[4];
    int64_t pd[4], period = rng_range(r, 1, 12);
    for (dl_count i = 0; i < p; i++) {
      pb[i] = rng_range(r, 0, 2);
      pd[i] = rng_range(r, -2, 10);
    }
    lists(rc, p * q + rem);
    for (dl_count i = 0; i < rc->n; i++) {
      rc->bls[i] = pb[i % p];
      rc->displs[i] = pd[i % p] + (i / p) * period;
    }
    return;
  }
  lists(rc, rng_range(r, 0, 6));
  rc->bl = block ? rng_range(r, 0, 3) : 0;
  for (dl_count i = 0; i < rc->n; i++) {
    rc->bls[i] = block ? rc->bl : rng_range(r, 0, 3);
    rc->displs[i] = bytes ? rng_range(r, -64, 128) : rng_range(r, -4, 10);
    if (i > 0 && rng_range(r, 0, 3) == 0)      /* touching the previous one */
      rc->displs[i] = rc->displs[i - 1] + (bytes ? rc->bls[i - 1] * ext : rc->bls[i - 1]);
  }
}

static model *model_of_indexed(const recipe *rc, const model *c)
{
  bool bytes = rc->kind == RT_HINDEXED || rc->kind == RT_HINDEXED_BLOCK;
  dl_aint *d = malloc(sizeof(dl_aint) * (size_t)(rc->n + 1));
  for (dl_count i = 0; i < rc->n; i++)
    d[i] = bytes ? rc->displs[i] : rc->displs[i] * model_extent(c);
  model *m = model_hindexed(rc->n, rc->bls, d, c);
  free(d);
  return m;
}

/* a predefined type: basics[pick] (typed: typed_basics[pick]); pick < 0
   draws one. *picked says which. */
static recipe *builtin(rng *r, int pick, int *picked, model **m)
{
  recipe *rc = node(RT_BUILTIN);
  dl_count sz;
  if (typed_basics) {
    *picked = pick >= 0 ? pick : (int)rng_range(r, 0, typed_n - 1);
    int id = typed_basics[*picked];
    rc->basic = (dl_builtin_t)id;
    dl_type_size(rt_basic_type(id), &sz);
    *m = model_builtin_typed(sz, rt_basic_align(id), id);
    return rc;
  }
  int k = *picked = pick >= 0 ? pick : (int)rng_range(r, 0, NBASICS - 1);
  rc->basic = basics[k].id;
  dl_type_size(dl_builtin(rc->basic), &sz);
  *m = model_builtin(sz, basics[k].align);
  return rc;
}

/* a struct member for rtype_gen_deviant: often an empty type, a
   blocklength-0 vector (empty, yet MPICH gives it bounds) or a resized
   type (whose markers MPICH's struct ignores) */
static recipe *deviant_member(rng *r, int depth, model **m, long *counts)
{
  static const int kinds[] = {RT_CONTIG, RT_CONTIG, RT_VECTOR, RT_RESIZED};
  int roll = (int)rng_range(r, 0, 5);
  if (roll >= 4 || depth < 2)
    return child(r, depth, m, counts);
  recipe *rc = node(kinds[roll]);
  model *c;
  rc->kids = calloc(1, sizeof(recipe *));
  rc->kids[0] = child(r, depth - 1, &c, counts);
  rc->nkids = 1;
  if (rc->kind == RT_VECTOR) {
    rc->n = rng_range(r, 1, 3);
    rc->stride = rng_range(r, -3, 5);
  } else if (rc->kind == RT_RESIZED) {
    rc->lb = c->true_lb - rng_range(r, 0, 8);
    rc->extent = c->true_ub - rc->lb + rng_range(r, 0, 24);
  }
  *m = recipe_model_level(rc, &c);
  model_free(c);
  return rc;
}

static recipe *draw_struct(rng *r, int depth, model **m, long *counts)
{
  recipe *rc = node(RT_STRUCT);
  int n = (int)rng_range(r, 1, 4);
  lists(rc, n);
  rc->kids = calloc(4, sizeof(recipe *));
  rc->nkids = n;
  model *ms[4];
  /* deviant: a quarter are structs of one predefined type */
  int same = deviant && rng_range(r, 0, 3) == 0 ? -1 : -2;
  for (int i = 0; i < n; i++) {
    if (same >= -1)
      rc->kids[i] = builtin(r, same, &same, &ms[i]);
    else if (deviant)
      rc->kids[i] = deviant_member(r, depth, &ms[i], counts);
    else
      rc->kids[i] = child(r, depth, &ms[i], counts);
    rc->bls[i] = rng_range(r, 0, 3);
    rc->displs[i] = rng_range(r, -64, 160);
  }
  *m = recipe_model_level(rc, ms);
  for (int i = 0; i < n; i++)
    model_free(ms[i]);
  return rc;
}

static void draw_subarray(rng *r, recipe *rc)
{
  rc->ndims = (int)rng_range(r, 1, 3);
  rc->order = (int)rng_range(r, 0, 1);
  for (int i = 0; i < rc->ndims; i++) {
    rc->sizes[i] = rng_range(r, 1, 4);
    rc->subs[i] = rng_range(r, 0, rc->sizes[i]);
    rc->starts[i] = rng_range(r, 0, rc->sizes[i] - rc->subs[i]);
  }
}

static void draw_darray(rng *r, recipe *rc)
{
  rc->ndims = (int)rng_range(r, 1, 3);
  rc->order = (int)rng_range(r, 0, 1);
  rc->size = 1;
  for (int i = 0; i < rc->ndims; i++) {
    rc->sizes[i] = rng_range(r, 1, 7);
    rc->dist[i] = (int)rng_range(r, 0, 2);
    rc->psizes[i] = rc->dist[i] == DL_DISTRIBUTE_NONE ? 1 : (int)rng_range(r, 1, 3);
    rc->size *= rc->psizes[i];
    rc->darg[i] = DL_DISTRIBUTE_DFLT_DARG;
    if (rc->dist[i] == DL_DISTRIBUTE_CYCLIC && rng_range(r, 0, 1))
      rc->darg[i] = (int)rng_range(r, 1, 3);
    if (rc->dist[i] == DL_DISTRIBUTE_BLOCK && rng_range(r, 0, 1))
      rc->darg[i] = (int)((rc->sizes[i] + rc->psizes[i] - 1) / rc->psizes[i] +
                          rng_range(r, 0, 2));
  }
  rc->rank = (int)rng_range(r, 0, rc->size - 1);
}

static recipe *draw(rng *r, int depth, model **m, long *counts)
{
  /* deviant: structs, resized and darray types three times as often */
  static const int weighted[] = {RT_STRUCT, RT_STRUCT, RT_RESIZED, RT_RESIZED,
                                 RT_DARRAY, RT_DARRAY};
  int kind = depth <= 0 || rng_range(r, 0, 5) == 0 ? RT_BUILTIN
           : deviant && rng_range(r, 0, 1) ? weighted[rng_range(r, 0, 5)]
           : (int)rng_range(r, RT_CONTIG, RT_NKINDS - 1);
  if (counts)
    counts[kind]++;
  if (kind == RT_BUILTIN) {
    int picked;
    return builtin(r, -1, &picked, m);
  }
  if (kind == RT_STRUCT)
    return draw_struct(r, depth, m, counts);
  recipe *rc = node(kind);
  model *c;
  rc->kids = calloc(1, sizeof(recipe *));
  rc->kids[0] = child(r, depth, &c, counts);
  rc->nkids = 1;
  rc->n = rng_range(r, 0, 4);
  rc->bl = rng_range(r, 0, 3);
  dl_aint ext = model_extent(c);
  switch (kind) {
  case RT_VECTOR:
    rc->stride = rng_range(r, -3, 5);
    break;
  case RT_HVECTOR:
    rc->stride = rng_range(r, 0, 2) == 0 ? rc->bl * ext : rng_range(r, -64, 96);
    break;
  case RT_RESIZED:
    rc->lb = rng_range(r, -16, 16);
    rc->extent = rng_range(r, 0, deviant ? 1 : 4) == 0
                     ? rng_range(r, -24, 0)
                     : c->true_ub - c->true_lb + rng_range(r, 0, 24);
    break;
  case RT_SUBARRAY: draw_subarray(r, rc); break;
  case RT_DARRAY: draw_darray(r, rc); break;
  case RT_CONTIG: case RT_DUP: break;
  default: draw_indexed(r, rc, c); break;
  }
  *m = recipe_model_level(rc, &c);
  model_free(c);
  return rc;
}

model *recipe_model_level(const recipe *rc, model *const *kids)
{
  const model *c = kids[0];
  switch (rc->kind) {
  case RT_STRUCT: return model_struct(rc->n, rc->bls, rc->displs, kids);
  case RT_CONTIG: return model_contig(rc->n, c);
  case RT_VECTOR: return model_hvector(rc->n, rc->bl, rc->stride * model_extent(c), c);
  case RT_HVECTOR: return model_hvector(rc->n, rc->bl, rc->stride, c);
  case RT_RESIZED: return model_resized(c, rc->lb, rc->extent);
  case RT_DUP: return model_copy(c);
  case RT_SUBARRAY:
    return model_subarray(rc->ndims, rc->sizes, rc->subs, rc->starts, rc->order, c);
  case RT_DARRAY:
    return model_darray(rc->size, rc->rank, rc->ndims, rc->sizes, rc->dist, rc->darg,
                        rc->psizes, rc->order, c);
  default: return model_of_indexed(rc, c);
  }
}

int rtype_gen_typed(rng *r, int depth, const int *basics_, int n, rtype *out)
{
  typed_basics = basics_;
  typed_n = n;
  int rc = rtype_gen(r, depth, out, NULL);
  typed_basics = NULL;
  return rc;
}

int rtype_gen_deviant(rng *r, int depth, const int *basics_, int n, rtype *out)
{
  deviant = true;
  int rc = basics_ ? rtype_gen_typed(r, depth, basics_, n, out)
                   : rtype_gen(r, depth, out, NULL);
  deviant = false;
  return rc;
}

int rtype_gen(rng *r, int depth, rtype *out, long *kind_counts)
{
  memset(out, 0, sizeof(*out));
  model *m;
  out->rc = child(r, depth + 1, &m, kind_counts);
  out->m = m;
  out->desc = recipe_desc(out->rc);
  if (recipe_build(out->rc, &out->t) != DL_OK) {
    out->t = NULL;
    return -1;
  }
  if (out->rc->kind == RT_BUILTIN)
    return 0;                   /* builtins are committed; never freed */
  return dl_type_commit(out->t) == DL_OK ? 0 : -1;
}
