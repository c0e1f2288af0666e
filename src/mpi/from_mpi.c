/* dl_type_from_mpi: any MPI datatype as a dataloop type, decoded by
 * MPI_Type_get_envelope_c/get_contents_c and built with the same
 * constructors, cached on the datatype with an attribute. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "bridge.h"

/* the attribute that caches a derived datatype's dataloop type; created at
   first use and freed at MPI_Finalize (see finalize_cb) */
static int type_key = MPI_KEYVAL_INVALID;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

static int delete_cb(MPI_Datatype dt, int key, void *val, void *extra)
{
  (void)dt; (void)key; (void)extra;
  dl_type *t = val;
  dl_type_free(&t);
  return MPI_SUCCESS;
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: free the keyval
   and the named types there, after which no datatype can ask for them */
static int finalize_cb(MPI_Comm comm, int key, void *val, void *extra)
{
  (void)comm; (void)val; (void)extra;
  if (type_key != MPI_KEYVAL_INVALID)
    PMPI_Type_free_keyval(&type_key);
  dli_named_free();
  PMPI_Comm_free_keyval(&key);
  return MPI_SUCCESS;
}

static void make_keys(void)
{
  int self_key;
  if (PMPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_cb, &type_key, NULL))
    type_key = MPI_KEYVAL_INVALID;
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_cb, &self_key, NULL) == MPI_SUCCESS)
    PMPI_Comm_set_attr(MPI_COMM_SELF, self_key, NULL);
}

/* the contents of a derived datatype; v[] holds the integer arguments in
   MPI-4's large-count order whichever form built the type */
typedef struct contents {
  int comb;
  MPI_Count ni, na, nc, nd;
  int *ints;
  MPI_Aint *aints;
  MPI_Count *counts;
  MPI_Datatype *types;
  int64_t *v;
} contents;

static void contents_free(contents *c)
{
  for (MPI_Count i = 0; i < c->nd; i++) {
    MPI_Count ni, na, nc, nd;
    int comb;
    if (PMPI_Type_get_envelope_c(c->types[i], &ni, &na, &nc, &nd, &comb) != MPI_SUCCESS ||
        comb != MPI_COMBINER_NAMED)
      PMPI_Type_free(&c->types[i]);    /* get_contents returned a reference */
  }
  free(c->ints);
  free(c->aints);
  free(c->counts);
  free(c->types);
  free(c->v);
}

static int get_contents(MPI_Datatype dt, contents *c)
{
  memset(c, 0, sizeof(*c));
  if (PMPI_Type_get_envelope_c(dt, &c->ni, &c->na, &c->nc, &c->nd, &c->comb) != MPI_SUCCESS)
    return DL_ERR_ARG;
  if (c->comb == MPI_COMBINER_NAMED)
    return DL_OK;
  c->ints = malloc(sizeof(int) * (size_t)(c->ni + 1));
  c->aints = malloc(sizeof(MPI_Aint) * (size_t)(c->na + 1));
  c->counts = malloc(sizeof(MPI_Count) * (size_t)(c->nc + 1));
  c->types = malloc(sizeof(MPI_Datatype) * (size_t)(c->nd + 1));
  c->v = malloc(sizeof(int64_t) * (size_t)(c->ni + c->na + c->nc + 1));
  if (!c->ints || !c->aints || !c->counts || !c->types || !c->v)
    return DL_ERR_NOMEM;
  MPI_Count nd = c->nd;
  c->nd = 0;          /* nothing to free until the call fills them */
  if (PMPI_Type_get_contents_c(dt, c->ni, c->na, c->nc, nd, c->ints, c->aints,
                               c->counts, c->types) != MPI_SUCCESS)
    return DL_ERR_ARG;
  c->nd = nd;
  MPI_Count k = 0;
  if (c->nc > 0 && c->comb != MPI_COMBINER_SUBARRAY && c->comb != MPI_COMBINER_DARRAY) {
    for (MPI_Count i = 0; i < c->nc; i++)
      c->v[k++] = c->counts[i];
  } else {
    for (MPI_Count i = 0; i < c->ni; i++)
      c->v[k++] = c->ints[i];
    for (MPI_Count i = 0; i < c->na; i++)
      c->v[k++] = c->aints[i];
  }
  return DL_OK;
}

static int lookup(MPI_Datatype dt, dl_type **out);

/* subarray: (ndims, sizes, subsizes, starts, order) in either form */
static int subarray(const contents *c, dl_type *old, dl_type **out)
{
  int nd = c->ints[0], order;
  dl_count *s = malloc(sizeof(dl_count) * 3 * (size_t)(nd > 0 ? nd : 1));
  if (!s)
    return DL_ERR_NOMEM;
  for (int i = 0; i < 3 * nd; i++)
    s[i] = c->nc > 0 ? c->counts[i] : c->ints[1 + i];
  order = c->nc > 0 ? c->ints[1] : c->ints[1 + 3 * nd];
  int rc = dl_type_subarray(nd, s, s + nd, s + 2 * nd,
                            order == MPI_ORDER_FORTRAN ? DL_ORDER_FORTRAN : DL_ORDER_C,
                            old, out);
  free(s);
  return rc;
}

/* darray: (size, rank, ndims, gsizes, distribs, dargs, psizes, order) */
static int darray(const contents *c, dl_type *old, dl_type **out)
{
  int nd = c->ints[2];
  size_t n = (size_t)(nd > 0 ? nd : 1);
  dl_count *g = malloc(sizeof(dl_count) * n);
  int *di = malloc(sizeof(int) * 3 * n);
  if (!g || !di) {
    free(g);
    free(di);
    return DL_ERR_NOMEM;
  }
  const int *rest = c->ints + 3 + (c->nc > 0 ? 0 : nd);  /* distribs on */
  for (int i = 0; i < nd; i++) {
    g[i] = c->nc > 0 ? c->counts[i] : c->ints[3 + i];
    int d = rest[i], a = rest[nd + i];
    di[i] = d == MPI_DISTRIBUTE_BLOCK ? DL_DISTRIBUTE_BLOCK
          : d == MPI_DISTRIBUTE_CYCLIC ? DL_DISTRIBUTE_CYCLIC : DL_DISTRIBUTE_NONE;
    di[nd + i] = a == MPI_DISTRIBUTE_DFLT_DARG ? DL_DISTRIBUTE_DFLT_DARG : a;
    di[2 * nd + i] = rest[2 * nd + i];
  }
  int order = rest[3 * nd];
  int rc = dl_type_darray(c->ints[0], c->ints[1], nd, g, di, di + nd, di + 2 * nd,
                          order == MPI_ORDER_FORTRAN ? DL_ORDER_FORTRAN : DL_ORDER_C,
                          old, out);
  free(g);
  free(di);
  return rc;
}

static int structure(const contents *c, dl_type **out)
{
  int64_t n = c->v[0];
  dl_type **ty = malloc(sizeof(dl_type *) * (size_t)(n + 1));
  if (!ty)
    return DL_ERR_NOMEM;
  int rc = DL_OK;
  for (int64_t i = 0; i < n && !rc; i++)
    rc = lookup(c->types[i], &ty[i]);
  if (!rc)
    rc = dl_type_struct(n, c->v + 1, c->v + 1 + n, ty, out);
  free(ty);
  return rc;
}

/* Fortran 90 parameterized types are predefined-like: by size */
static int f90(MPI_Datatype dt, int comb, dl_type **out)
{
  MPI_Count size;
  if (PMPI_Type_size_c(dt, &size) != MPI_SUCCESS)
    return DL_ERR_ARG;
  dl_builtin_t b;
  if (comb == MPI_COMBINER_F90_INTEGER)
    b = size == 1 ? DL_INT8 : size == 2 ? DL_INT16 : size == 4 ? DL_INT32 : DL_INT64;
  else if (comb == MPI_COMBINER_F90_REAL)
    b = size == 4 ? DL_FLOAT : size == 8 ? DL_DOUBLE : DL_LONG_DOUBLE;
  else
    b = size == 8 ? DL_C_FLOAT_COMPLEX : size == 16 ? DL_C_DOUBLE_COMPLEX
                                                    : DL_C_LONG_DOUBLE_COMPLEX;
  /* the predefined type itself, not a dup: MPICH never frees its f90
     types, so the attribute's delete callback would never free a copy */
  *out = dl_builtin(b);
  return DL_OK;
}

/* The host MPI's bounds: where its lb or extent for dt differs from the
   standard's (MPICH 4.0.2 departs in several rules, doc/mpi.md), the
   level is resized to them, so copies lie where the program, which asks
   MPI_Type_get_extent, put them. The data within stays the standard's. */
static int host_bounds(MPI_Datatype dt, dl_type **t)
{
  MPI_Count lb, extent;
  dl_aint l, e;
  if (PMPI_Type_get_extent_c(dt, &lb, &extent) != MPI_SUCCESS)
    return DL_ERR_ARG;
  int rc = dl_type_extent(*t, &l, &e);
  if (rc || (l == lb && e == extent))
    return rc;
  dl_type *r;
  rc = dl_type_resized(*t, lb, extent, &r);
  dl_type_free(t);
  *t = rc ? NULL : r;
  return rc;
}

/* builds the dataloop type of a derived datatype from its contents */
static int build(MPI_Datatype dt, dl_type **out)
{
  contents c;
  int rc = get_contents(dt, &c);
  dl_type *old = NULL;
  const int64_t *v = c.v;
  if (!rc && c.nd > 0 && c.comb != MPI_COMBINER_STRUCT &&
      c.comb != MPI_COMBINER_STRUCT_INTEGER)
    rc = lookup(c.types[0], &old);
  if (!rc) {
    switch (c.comb) {
    case MPI_COMBINER_DUP: rc = dl_type_dup(old, out); break;
    case MPI_COMBINER_CONTIGUOUS: rc = dl_type_contiguous(v[0], old, out); break;
    case MPI_COMBINER_VECTOR: rc = dl_type_vector(v[0], v[1], v[2], old, out); break;
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_HVECTOR_INTEGER:
      rc = dl_type_hvector(v[0], v[1], v[2], old, out);
      break;
    case MPI_COMBINER_INDEXED:
      rc = dl_type_indexed(v[0], v + 1, v + 1 + v[0], old, out);
      break;
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_HINDEXED_INTEGER:
      rc = dl_type_hindexed(v[0], v + 1, v + 1 + v[0], old, out);
      break;
    case MPI_COMBINER_INDEXED_BLOCK:
      rc = dl_type_indexed_block(v[0], v[1], v + 2, old, out);
      break;
    case MPI_COMBINER_HINDEXED_BLOCK:
      rc = dl_type_hindexed_block(v[0], v[1], v + 2, old, out);
      break;
    case MPI_COMBINER_STRUCT:
    case MPI_COMBINER_STRUCT_INTEGER:
      rc = structure(&c, out);
      break;
    case MPI_COMBINER_RESIZED: rc = dl_type_resized(old, v[0], v[1], out); break;
    case MPI_COMBINER_SUBARRAY: rc = subarray(&c, old, out); break;
    case MPI_COMBINER_DARRAY: rc = darray(&c, old, out); break;
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
      rc = f90(dt, c.comb, out);
      break;
    default: rc = DL_ERR_UNSUPPORTED; break;
    }
  }
  contents_free(&c);
  if (!rc && c.comb != MPI_COMBINER_F90_REAL && c.comb != MPI_COMBINER_F90_COMPLEX &&
      c.comb != MPI_COMBINER_F90_INTEGER)
    rc = host_bounds(dt, out);
  if (!rc)
    dl_type_commit(*out);
  return rc;
}

/* the cached type, building and caching it if needed; build_lock held */
static int lookup(MPI_Datatype dt, dl_type **out)
{
  if ((*out = dli_named_type(dt)))
    return DL_OK;
  int found = 0;
  if (type_key == MPI_KEYVAL_INVALID ||
      PMPI_Type_get_attr(dt, type_key, out, &found) != MPI_SUCCESS)
    return DL_ERR_ARG;
  if (found)
    return DL_OK;
  int rc = build(dt, out);
  if (!rc && PMPI_Type_set_attr(dt, type_key, *out) != MPI_SUCCESS) {
    dl_type_free(out);
    rc = DL_ERR_ARG;
  }
  return rc;
}

int dl_type_from_mpi(MPI_Datatype dt, dl_type **out)
{
  if (!out)
    return DL_ERR_ARG;
  *out = NULL;
  if (dt == MPI_DATATYPE_NULL)
    return DL_ERR_ARG;
  if ((*out = dli_named_type(dt)))
    return DL_OK;
  pthread_once(&key_once, make_keys);
  int found = 0;
  if (type_key != MPI_KEYVAL_INVALID &&
      PMPI_Type_get_attr(dt, type_key, out, &found) == MPI_SUCCESS && found)
    return DL_OK;                      /* the common case: a lookup */
  pthread_mutex_lock(&build_lock);
  int rc = lookup(dt, out);
  pthread_mutex_unlock(&build_lock);
  if (rc)
    *out = NULL;
  return rc;
}
