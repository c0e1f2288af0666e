/* Random type generation; see randtype.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "randtype.h"

#define MAX_EXTENT (1 << 20)

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

static char *fmt(const char *f, ...)
{
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  if (vasprintf(&s, f, ap) < 0)
    s = NULL;
  va_end(ap);
  return s;
}

void rtype_free(rtype *t)
{
  if (t->t)
    dl_type_free(&t->t);
  model_free(t->m);
  free(t->desc);
  memset(t, 0, sizeof(*t));
}

static const struct { dl_builtin_t id; const char *name; } basics[] = {
  {DL_BYTE, "byte"}, {DL_CHAR, "char"}, {DL_INT16, "int16"},
  {DL_INT32, "int32"}, {DL_FLOAT, "float"}, {DL_DOUBLE, "double"},
  {DL_C_DOUBLE_COMPLEX, "dcomplex"}, {DL_LONG_DOUBLE, "ldouble"},
  {DL_INT64, "int64"},
};

static int gen_builtin(rng *r, rtype *out)
{
  int k = (int)rng_range(r, 0, sizeof(basics) / sizeof(basics[0]) - 1);
  out->t = dl_builtin(basics[k].id);
  dl_count sz;
  dl_type_size(out->t, &sz);
  int align = basics[k].id == DL_C_DOUBLE_COMPLEX ? 8 : (int)sz;
  out->m = model_builtin(sz, align);
  out->desc = strdup(basics[k].name);
  return 0;
}

/* a list rendered for descriptions */
static char *list(const int64_t *v, dl_count n)
{
  size_t cap = 16 + 24 * (size_t)n;
  char *s = malloc(cap), *p = s;
  p += sprintf(p, "{");
  for (dl_count i = 0; i < n; i++)
    p += sprintf(p, "%s%lld", i ? "," : "", (long long)v[i]);
  sprintf(p, "}");
  return s;
}

static int finish(rtype *out, int rc, rtype *kids, int nkids)
{
  for (int i = 0; i < nkids; i++)
    rtype_free(&kids[i]);
  if (rc != DL_OK)
    return -1;
  if (!out->m)
    return 1;
  dl_aint ext = model_extent(out->m);
  if (ext > MAX_EXTENT || ext < -MAX_EXTENT ||
      out->m->true_ub - out->m->true_lb > MAX_EXTENT || out->m->size > MAX_EXTENT)
    return 1;
  return 0;
}

static int gen(rng *r, int depth, rtype *out, long *counts);

static int gen_child(rng *r, int depth, rtype *kid, long *counts)
{
  int rc;
  while ((rc = gen(r, depth - 1, kid, counts)) == 1)
    rtype_free(kid);
  return rc;
}

static int gen_indexed_family(rng *r, int kind, rtype *c, rtype *out)
{
  dl_count n = rng_range(r, 0, 6);
  dl_count bls[64], bl = rng_range(r, 0, 3);
  int64_t d[64];
  dl_aint hd[64];
  bool bytes = kind == RT_HINDEXED || kind == RT_HINDEXED_BLOCK;
  bool block = kind == RT_INDEXED_BLOCK || kind == RT_HINDEXED_BLOCK;
  dl_aint ext = model_extent(c->m);
  if (kind == RT_PERIODIC) {
    /* a repeating pattern with a remainder, to exercise index folding */
    dl_count p = rng_range(r, 2, 4), q = rng_range(r, 2, 6), rem = rng_range(r, 0, p - 1);
    dl_aint period = rng_range(r, 1, 12);
    dl_count pb[4];
    dl_aint pd[4];
    for (dl_count i = 0; i < p; i++) {
      pb[i] = rng_range(r, 0, 2);
      pd[i] = rng_range(r, -2, 10);
    }
    n = p * q + rem;
    for (dl_count i = 0; i < n; i++) {
      bls[i] = pb[i % p];
      d[i] = pd[i % p] + (i / p) * period;
    }
  } else {
    for (dl_count i = 0; i < n; i++) {
      bls[i] = block ? bl : rng_range(r, 0, 3);
      d[i] = bytes ? rng_range(r, -64, 128) : rng_range(r, -4, 10);
      if (rng_range(r, 0, 3) == 0 && i > 0)   /* touching the previous one */
        d[i] = d[i - 1] + (bytes ? bls[i - 1] * ext : bls[i - 1]);
    }
  }
  dl_aint *md = malloc(sizeof(dl_aint) * (size_t)(n + 1));
  for (dl_count i = 0; i < n; i++) {
    hd[i] = d[i];
    md[i] = bytes ? d[i] : d[i] * ext;
  }
  int rc;
  const char *name;
  switch (kind) {
  case RT_INDEXED: case RT_PERIODIC:
    rc = dl_type_indexed(n, bls, d, c->t, &out->t); name = "indexed"; break;
  case RT_HINDEXED:
    rc = dl_type_hindexed(n, bls, hd, c->t, &out->t); name = "hindexed"; break;
  case RT_INDEXED_BLOCK:
    rc = dl_type_indexed_block(n, bl, d, c->t, &out->t); name = "indexed_block"; break;
  default:
    rc = dl_type_hindexed_block(n, bl, hd, c->t, &out->t); name = "hindexed_block"; break;
  }
  out->m = model_hindexed(n, bls, md, c->m);
  char *bs = list(bls, n), *ds = list(d, n);
  out->desc = fmt("%s(%lld,%s,%s,%s)", name, (long long)n, bs, ds, c->desc);
  free(bs);
  free(ds);
  free(md);
  return rc;
}

static int gen_struct(rng *r, int depth, rtype *out, long *counts)
{
  rtype kids[4] = {{0}};
  int n = (int)rng_range(r, 1, 4);
  dl_count bls[4];
  dl_aint d[4];
  dl_type *ts[4];
  model *ms[4];
  char *desc = strdup("struct(");
  for (int i = 0; i < n; i++) {
    if (gen_child(r, depth, &kids[i], counts) < 0) {
      out->desc = kids[i].desc ? strdup(kids[i].desc) : NULL;
      free(desc);
      return finish(out, DL_ERR_ARG, kids, 4);
    }
    bls[i] = rng_range(r, 0, 3);
    d[i] = rng_range(r, -64, 160);
    ts[i] = kids[i].t;
    ms[i] = kids[i].m;
    char *nd = fmt("%s%s%lldx%s@%lld", desc, i ? "," : "", (long long)bls[i],
                   kids[i].desc, (long long)d[i]);
    free(desc);
    desc = nd;
  }
  int rc = dl_type_struct(n, bls, d, ts, &out->t);
  out->m = model_struct(n, bls, d, ms);
  out->desc = fmt("%s)", desc);
  free(desc);
  return finish(out, rc, kids, 4);
}

static int gen_subarray(rng *r, rtype *c, rtype *out)
{
  int nd = (int)rng_range(r, 1, 3), order = (int)rng_range(r, 0, 1);
  dl_count sizes[3], subs[3], starts[3];
  for (int i = 0; i < nd; i++) {
    sizes[i] = rng_range(r, 1, 4);
    subs[i] = rng_range(r, 0, sizes[i]);
    starts[i] = rng_range(r, 0, sizes[i] - subs[i]);
  }
  int rc = dl_type_subarray(nd, sizes, subs, starts, order, c->t, &out->t);
  out->m = model_subarray(nd, sizes, subs, starts, order, c->m);
  char *a = list(sizes, nd), *b = list(subs, nd), *s = list(starts, nd);
  out->desc = fmt("subarray(%d,%s,%s,%s,%s,%s)", nd, a, b, s,
                  order ? "F" : "C", c->desc);
  free(a); free(b); free(s);
  return rc;
}

static int gen_darray(rng *r, rtype *c, rtype *out)
{
  int nd = (int)rng_range(r, 1, 3), order = (int)rng_range(r, 0, 1);
  dl_count gs[3];
  int dist[3], darg[3], ps[3], size = 1;
  for (int i = 0; i < nd; i++) {
    gs[i] = rng_range(r, 1, 7);
    dist[i] = (int)rng_range(r, 0, 2);
    ps[i] = dist[i] == DL_DISTRIBUTE_NONE ? 1 : (int)rng_range(r, 1, 3);
    size *= ps[i];
    darg[i] = DL_DISTRIBUTE_DFLT_DARG;
    if (dist[i] == DL_DISTRIBUTE_CYCLIC && rng_range(r, 0, 1))
      darg[i] = (int)rng_range(r, 1, 3);
    if (dist[i] == DL_DISTRIBUTE_BLOCK && rng_range(r, 0, 1))
      darg[i] = (int)((gs[i] + ps[i] - 1) / ps[i] + rng_range(r, 0, 2));
  }
  int rank = (int)rng_range(r, 0, size - 1);
  int rc = dl_type_darray(size, rank, nd, gs, dist, darg, ps, order, c->t, &out->t);
  out->m = model_darray(size, rank, nd, gs, dist, darg, ps, order, c->m);
  int64_t d64[3], a64[3], p64[3];
  for (int i = 0; i < nd; i++) {
    d64[i] = dist[i];
    a64[i] = darg[i];
    p64[i] = ps[i];
  }
  char *g = list(gs, nd), *d = list(d64, nd), *a = list(a64, nd), *p = list(p64, nd);
  out->desc = fmt("darray(%d,%d,%d,%s,%s,%s,%s,%s,%s)", size, rank, nd, g, d, a,
                  p, order ? "F" : "C", c->desc);
  free(g); free(d); free(a); free(p);
  return rc;
}

static int gen(rng *r, int depth, rtype *out, long *counts)
{
  memset(out, 0, sizeof(*out));
  int kind = depth <= 0 || rng_range(r, 0, 5) == 0
                 ? RT_BUILTIN : (int)rng_range(r, RT_CONTIG, RT_NKINDS - 1);
  if (counts)
    counts[kind]++;
  if (kind == RT_BUILTIN)
    return gen_builtin(r, out);
  if (kind == RT_STRUCT)
    return gen_struct(r, depth, out, counts);
  rtype c;
  int rc = gen_child(r, depth, &c, counts);
  if (rc < 0) {
    out->desc = c.desc ? strdup(c.desc) : NULL;
    return finish(out, DL_ERR_ARG, &c, 1);
  }
  dl_count n = rng_range(r, 0, 4), bl = rng_range(r, 0, 3);
  dl_aint ext = model_extent(c.m);
  switch (kind) {
  case RT_CONTIG:
    rc = dl_type_contiguous(n, c.t, &out->t);
    out->m = model_contig(n, c.m);
    out->desc = fmt("contig(%lld,%s)", (long long)n, c.desc);
    break;
  case RT_VECTOR: {
    dl_count stride = rng_range(r, -3, 5);
    rc = dl_type_vector(n, bl, stride, c.t, &out->t);
    out->m = model_hvector(n, bl, stride * ext, c.m);
    out->desc = fmt("vector(%lld,%lld,%lld,%s)", (long long)n, (long long)bl,
                    (long long)stride, c.desc);
    break;
  }
  case RT_HVECTOR: {
    dl_aint stride = rng_range(r, -64, 96);
    if (rng_range(r, 0, 2) == 0)
      stride = bl * ext;          /* touching blocks */
    rc = dl_type_hvector(n, bl, stride, c.t, &out->t);
    out->m = model_hvector(n, bl, stride, c.m);
    out->desc = fmt("hvector(%lld,%lld,%lld,%s)", (long long)n, (long long)bl,
                    (long long)stride, c.desc);
    break;
  }
  case RT_RESIZED: {
    dl_aint lb = rng_range(r, -16, 16);
    dl_aint e = rng_range(r, 0, 4) == 0 ? rng_range(r, -24, 0)
                                        : c.m->true_ub - c.m->true_lb + rng_range(r, 0, 24);
    rc = dl_type_resized(c.t, lb, e, &out->t);
    out->m = model_resized(c.m, lb, e);
    out->desc = fmt("resized(%s,%lld,%lld)", c.desc, (long long)lb, (long long)e);
    break;
  }
  case RT_DUP:
    rc = dl_type_dup(c.t, &out->t);
    out->m = model_copy(c.m);
    out->desc = fmt("dup(%s)", c.desc);
    break;
  case RT_SUBARRAY:
    rc = gen_subarray(r, &c, out);
    break;
  case RT_DARRAY:
    rc = gen_darray(r, &c, out);
    break;
  default:
    rc = gen_indexed_family(r, kind, &c, out);
    break;
  }
  return finish(out, rc, &c, 1);
}

int rtype_gen(rng *r, int depth, rtype *out, long *kind_counts)
{
  int rc = gen(r, depth, out, kind_counts);
  if (rc == 0)
    dl_type_commit(out->t);
  return rc;
}
