/* dl_type_from_mpi: any MPI datatype as a dataloop type, decoded by
 * MPI_Type_get_envelope_c/get_contents_c and built with the same
 * constructors, cached on the datatype with an attribute and by its
 * structure (shape.h), so that a type made again decodes at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include "bridge.h"
#include "combiners.h"
#include "contents.h"
#include "shape.h"
#include "../mpich/tr.h"

/* the attribute that caches a derived datatype's dataloop type; created at
   first use and freed at MPI_Finalize (see finalize_cb) */
static int type_key = MPI_KEYVAL_INVALID;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* what the attribute holds: the type, and what the bridge learnt of it */
typedef struct entry {
  dl_type *t;
  dli_mpi_info info;         /* props: DLI_MPI_*, ZERO_BL and NEG_STD */
  _Atomic dl_count blocks;   /* dli_mpi_blocks's, counted at first need */
  uint64_t shape;            /* its structure's id (shape.h), 0: not kept */
} entry;

/* ZERO_BL: an empty type with bounds, a blocklength-0 vector or
   block-indexed type of a nonempty one, maybe resized or duplicated;
   NEG_STD: nonempty, and of negative extent by the standard's bounds
   (before the host's were taken) */
enum { ZERO_BL = 1u << 16, NEG_STD = 1u << 17 };

/* entries freed so far: a thread's remembered lookup holds while none was
   (MPI reuses a handle only after its type, and so the entry, is gone);
   initial-exec: read without a call to __tls_get_addr (24 bytes of the
   static TLS reserve, which a library loaded with the program has) */
static _Atomic unsigned long freed;
static _Thread_local __attribute__((tls_model("initial-exec"))) struct {
  MPI_Datatype dt;
  entry *e;
  unsigned long freed;
} last;

static int delete_cb(MPI_Datatype dt, int key, void *val, void *extra)
{
  (void)dt; (void)key; (void)extra;
  entry *e = val;
  atomic_fetch_add_explicit(&freed, 1, memory_order_acq_rel);
  dl_type_free(&e->t);
  free(e);
  return MPI_SUCCESS;
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: free the keyval
   and the named types there, after which no datatype can ask for them */
static int finalize_cb(MPI_Comm comm, int key, void *val, void *extra)
{
  (void)comm; (void)val; (void)extra;
  if (type_key != MPI_KEYVAL_INVALID)
    PMPI_Type_free_keyval(&type_key);
  pthread_mutex_lock(&build_lock);
  dli_shape_flush();
  pthread_mutex_unlock(&build_lock);
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

static int lookup(MPI_Datatype dt, dl_type **out, dli_mpi_info *info);

/* a nonempty type of negative extent, by the host's bounds or the
   standard's: MPICH 4.0.2 misplaces a block of several copies of one */
static bool negative(const dl_type *t, unsigned props)
{
  dl_aint lb, ext;
  dl_count size;
  return (props & NEG_STD) ||
         (dl_type_extent(t, &lb, &ext) == DL_OK && dl_type_size(t, &size) == DL_OK &&
          ext < 0 && size > 0);
}

static bool empty(const dl_type *t)
{
  dl_count size;
  return dl_type_size(t, &size) != DL_OK || size == 0;
}

/* DLI_MPI_ENGINE_WRONG and ZERO_BL of a replicating level: count blocks
   of blocklength bls[i] (or bl for all) copies of old */
static unsigned replicated(dl_count count, const dl_count *bls, dl_count bl,
                           const dl_type *old, unsigned old_props)
{
  dl_count most = 0;
  for (dl_count i = 0; i < count; i++) {
    dl_count b = bls ? bls[i] : bl;
    most = b > most ? b : most;
  }
  /* no copies, or copies of nothing: the old type's data is not there */
  unsigned p = 0;
  if (!bls && count > 0 && bl == 0 && !empty(old))
    p = ZERO_BL | (old_props & DLI_MPI_ENGINE_WRONG);   /* bounds from old */
  else if (most > 0 && !empty(old))
    p = old_props & DLI_MPI_ENGINE_WRONG;
  if (most >= 2 && negative(old, old_props))
    p |= DLI_MPI_ENGINE_WRONG;
  return p;
}

/* a predefined type's unit (dli_mpi_info): its size, half of it for the
   pairs of one type, 0 for the pairs of two */
static dl_count named_unit(MPI_Datatype dt)
{
  MPI_Count size;
  if (dt == MPI_FLOAT_INT || dt == MPI_DOUBLE_INT || dt == MPI_LONG_INT ||
      dt == MPI_SHORT_INT || dt == MPI_LONG_DOUBLE_INT ||
      dli_mpi_size(dt, &size) != MPI_SUCCESS || size <= 0)
    return 0;
  if (dt == MPI_2INT || dt == MPI_2INTEGER || dt == MPI_2REAL ||
      dt == MPI_2DOUBLE_PRECISION)
    size /= 2;
  return (size & (size - 1)) == 0 ? (dl_count)size : 0;
}

/* dli_mpi_info's fcomplex of a predefined type */
static bool fortran_complex(MPI_Datatype dt)
{
  return dt == MPI_COMPLEX || dt == MPI_DOUBLE_COMPLEX;
}

/* the unit of data whose members have units a and b (-1: none yet) */
static dl_count unit_join(dl_count a, dl_count b)
{
  return a < 0 || a == b ? b : 0;
}

/* a struct; MPICH's engine misplaces data where a member does, where a
   block holds several copies of a negative-extent member, and dies on a
   member that is a blocklength-0 vector */
static int structure(const dli_contents *c, dl_type **out, dli_mpi_info *info)
{
  int64_t n = c->v[0];
  dl_type **ty = malloc(sizeof(dl_type *) * (size_t)(n + 1));
  if (!ty)
    return DL_ERR_NOMEM;
  int rc = DL_OK;
  unsigned *props = &info->props;
  info->fanout = n;
  dl_count unit = -1;
  bool any = false;
  info->basic = MPI_DATATYPE_NULL;
  for (int64_t i = 0; i < n && !rc; i++) {
    dli_mpi_info m;
    rc = lookup(c->types[i], &ty[i], &m);
    unsigned p = m.props;
    const dl_count bl = c->v[1 + i];
    if (!rc && bl > 0 && !empty(ty[i])) {
      unit = unit_join(unit, m.unit);
      info->basic = !any || info->basic == m.basic ? m.basic : MPI_DATATYPE_NULL;
      info->fcomplex |= m.fcomplex;
      any = true;
    }
    if (!rc && bl > 0 && (p & (ZERO_BL | DLI_MPI_ENGINE_WRONG) ||
                          (bl >= 2 && negative(ty[i], p))))
      *props |= DLI_MPI_ENGINE_WRONG;
    if (!rc && m.fanout > info->fanout)
      info->fanout = m.fanout;
  }
  info->unit = unit < 0 ? 1 : unit;
  if (!rc)
    rc = dl_type_struct(n, c->v + 1, c->v + 1 + n, ty, out);
  if (!rc && empty(*out))
    *props = 0;                    /* no data, nothing to misplace */
  free(ty);
  return rc;
}

/* The host MPI's bounds: where its lb or extent for dt differs from the
   standard's (MPICH 4.0.2 departs in several rules, doc/mpi.md), the
   level is resized to them, so copies lie where the program, which asks
   MPI_Type_get_extent, put them. The data within stays the standard's. */
static int host_bounds(MPI_Datatype dt, dl_type **t)
{
  MPI_Count lb, extent;
  dl_aint l, e;
  if (dli_mpi_extent(dt, &lb, &extent) != MPI_SUCCESS)
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

/* the largest count of one level of a subarray or darray that MPICH
   builds as a vector over the others: every dimension but the one whose
   elements are contiguous */
static dl_count dims_fanout(const dli_contents *c)
{
  bool sub = c->comb == MPI_COMBINER_SUBARRAY;
  int nd = sub ? c->ints[0] : c->ints[2];
  const int *rest = c->ints + 3 + (c->nc > 0 ? 0 : nd);
  int order = sub ? (c->nc > 0 ? c->ints[1] : c->ints[1 + 3 * nd]) : rest[3 * nd];
  dl_count most = 0;
  for (int i = 0; i < nd; i++) {
    if (i == (order == MPI_ORDER_FORTRAN ? 0 : nd - 1))
      continue;
    dl_count k = sub ? (c->nc > 0 ? c->counts[nd + i] : c->ints[1 + nd + i])
                     : (c->nc > 0 ? c->counts[i] : c->ints[3 + i]);
    most = k > most ? k : most;
  }
  return most;
}

/* a level's fan-out: the most blocks MPICH's engine walks one by one
   within one copy of it (the level's count, except where it divides:
   contiguous, resized and dup levels), or its old type's if larger;
   struct: already set (s) */
static dl_count fanout_of(const dli_contents *c, dl_count old, dl_count s)
{
  dl_count own = 0;
  switch (c->comb) {
  case MPI_COMBINER_VECTOR: case MPI_COMBINER_HVECTOR: case DLI_COMBINER_HVECTOR_INTEGER:
  case MPI_COMBINER_INDEXED: case MPI_COMBINER_HINDEXED:
  case DLI_COMBINER_HINDEXED_INTEGER: case MPI_COMBINER_INDEXED_BLOCK:
  case MPI_COMBINER_HINDEXED_BLOCK:
    own = c->v[0];
    break;
  case MPI_COMBINER_SUBARRAY: case MPI_COMBINER_DARRAY:
    own = dims_fanout(c);
    break;
  case MPI_COMBINER_STRUCT: case DLI_COMBINER_STRUCT_INTEGER:
    return s;
  default:
    break;
  }
  return own > old ? own : old;
}

/* builds the dataloop type of a derived datatype from its contents, and
   what the bridge learns of it (*info) */
static int build(MPI_Datatype dt, const dli_contents *c, dl_type **out,
                 dli_mpi_info *info)
{
  int rc = DL_OK;
  dl_type *old = NULL;
  dli_mpi_info oi = {.basic = MPI_DATATYPE_NULL};
  unsigned op = 0, *props = &info->props;
  const int64_t *v = c->v;
  *info = (dli_mpi_info){.basic = MPI_DATATYPE_NULL};
  if (!rc && c->nd > 0 && c->comb != MPI_COMBINER_STRUCT &&
      c->comb != DLI_COMBINER_STRUCT_INTEGER) {
    rc = lookup(c->types[0], &old, &oi);
    op = oi.props;
  }
  if (!rc) {
    switch (c->comb) {
    case MPI_COMBINER_DUP:
      rc = dl_type_dup(old, out);
      *props = op & ~NEG_STD;
      break;
    case MPI_COMBINER_CONTIGUOUS:
      rc = dl_type_contiguous(v[0], old, out);
      *props = replicated(1, NULL, v[0], old, op) & ~ZERO_BL;
      break;
    case MPI_COMBINER_VECTOR:
      rc = dl_type_vector(v[0], v[1], v[2], old, out);
      *props = replicated(v[0], NULL, v[1], old, op);
      break;
    case MPI_COMBINER_HVECTOR:
    case DLI_COMBINER_HVECTOR_INTEGER:
      rc = dl_type_hvector(v[0], v[1], v[2], old, out);
      *props = replicated(v[0], NULL, v[1], old, op);
      break;
    case MPI_COMBINER_INDEXED:
      rc = dl_type_indexed(v[0], v + 1, v + 1 + v[0], old, out);
      *props = replicated(v[0], v + 1, 0, old, op);
      break;
    case MPI_COMBINER_HINDEXED:
    case DLI_COMBINER_HINDEXED_INTEGER:
      rc = dl_type_hindexed(v[0], v + 1, v + 1 + v[0], old, out);
      *props = replicated(v[0], v + 1, 0, old, op);
      break;
    case MPI_COMBINER_INDEXED_BLOCK:
      rc = dl_type_indexed_block(v[0], v[1], v + 2, old, out);
      *props = replicated(v[0], NULL, v[1], old, op);
      break;
    case MPI_COMBINER_HINDEXED_BLOCK:
      rc = dl_type_hindexed_block(v[0], v[1], v + 2, old, out);
      *props = replicated(v[0], NULL, v[1], old, op);
      break;
    case MPI_COMBINER_STRUCT:
    case DLI_COMBINER_STRUCT_INTEGER:
      rc = structure(c, out, info);
      break;
    case MPI_COMBINER_RESIZED:
      rc = dl_type_resized(old, v[0], v[1], out);
      *props = op & ~NEG_STD;
      break;
    case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY:
      /* built from contiguous runs of the old type */
      rc = c->comb == MPI_COMBINER_SUBARRAY ? dli_subarray(c, old, out)
                                           : dli_darray(c, old, out);
      *props = (op & DLI_MPI_ENGINE_WRONG) | (negative(old, op) ? DLI_MPI_ENGINE_WRONG : 0);
      break;
    case MPI_COMBINER_F90_REAL:
    case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
      rc = dli_f90(dt, c->comb, out);
      break;
    default: rc = DL_ERR_UNSUPPORTED; break;
    }
  }
  if (!rc)
    info->fanout = fanout_of(c, oi.fanout, info->fanout);
  if (!rc && c->comb != MPI_COMBINER_STRUCT && c->comb != DLI_COMBINER_STRUCT_INTEGER)
    info->unit = c->nd > 0 ? oi.unit : named_unit(dt);
  if (!rc && c->comb != MPI_COMBINER_STRUCT && c->comb != DLI_COMBINER_STRUCT_INTEGER)
    info->basic = c->nd > 0 ? oi.basic : dt;
  if (!rc && c->comb != MPI_COMBINER_STRUCT && c->comb != DLI_COMBINER_STRUCT_INTEGER)
    info->fcomplex = c->nd > 0 ? oi.fcomplex : c->comb == MPI_COMBINER_F90_COMPLEX;
  if (!rc && negative(*out, 0))
    *props |= NEG_STD;
  if (!rc && c->comb != MPI_COMBINER_F90_REAL && c->comb != MPI_COMBINER_F90_COMPLEX &&
      c->comb != MPI_COMBINER_F90_INTEGER)
    rc = host_bounds(dt, out);
  if (!rc)
    dl_type_commit(*out);
  return rc;
}

/* the entry cached on derived type dt, or NULL: the last one this thread
   found when nothing was freed since, else the attribute's */
static entry *cached(MPI_Datatype dt)
{
  unsigned long f = atomic_load_explicit(&freed, memory_order_acquire);
  if (last.e && last.dt == dt && last.freed == f)
    return last.e;
  int found = 0;
  entry *e;
  if (type_key == MPI_KEYVAL_INVALID ||
      PMPI_Type_get_attr(dt, type_key, &e, &found) != MPI_SUCCESS || !found)
    return NULL;
  last.dt = dt;
  last.e = e;
  last.freed = f;
  return e;
}

dl_type *dli_type_recent(MPI_Datatype dt)
{
  unsigned long f = atomic_load_explicit(&freed, memory_order_acquire);
  return last.e && last.dt == dt && last.freed == f ? last.e->t : NULL;
}

/* the key of c's structure (shape.h) in *key (buf when it holds cap
   entries, else malloc'ed; NULL, with DL_OK, when it has none: a child
   whose shape was not kept, a key too long) */
static int shape_key(const dli_contents *c, int64_t *buf, size_t cap, int64_t **key,
                     size_t *n)
{
  *key = NULL;
  *n = 0;
  size_t len = 5 + (size_t)(c->ni + c->na + c->nc) + 2 * (size_t)c->nd;
  if (len > DLI_SHAPE_MAX_KEY)
    return DL_OK;
  int64_t *k = len <= cap ? buf : malloc(len * sizeof(int64_t));
  if (!k)
    return DL_ERR_NOMEM;
  size_t at = 0;
  int64_t head[5] = {c->comb, c->ni, c->na, c->nc, c->nd};
  for (int i = 0; i < 5; i++)
    k[at++] = head[i];
  for (MPI_Count i = 0; i < c->ni; i++)
    k[at++] = c->ints[i];
  for (MPI_Count i = 0; i < c->na; i++)
    k[at++] = c->aints[i];
  for (MPI_Count i = 0; i < c->nc; i++)
    k[at++] = c->counts[i];
  for (MPI_Count i = 0; i < c->nd; i++) {
    dl_type *t;
    dli_mpi_info ci;
    int rc = lookup(c->types[i], &t, &ci);
    if (rc) {
      if (k != buf)
        free(k);
      return rc;
    }
    entry *e = dli_named_type(c->types[i]) ? NULL : cached(c->types[i]);
    if (!dli_named_type(c->types[i]) && (!e || !e->shape)) {
      if (k != buf)
        free(k);
      return DL_OK;
    }
    k[at++] = e ? 1 : 0;
    k[at++] = e ? (int64_t)e->shape : (int64_t)(intptr_t)c->types[i];
  }
  *key = k;
  *n = at;
  return DL_OK;
}

/* e's type and info: those of a type of the same structure decoded before
   (shape.h), else built and kept under its structure */
static int decode(MPI_Datatype dt, entry *e)
{
  dli_contents c;
  int64_t kbuf[64], *key = NULL;
  size_t n = 0;
  int rc = dli_contents_get(dt, &c);
  if (!rc)
    rc = shape_key(&c, kbuf, sizeof(kbuf) / sizeof(kbuf[0]), &key, &n);
  if (!rc && !(key && (e->shape = dli_shape_find(key, n, &e->t, &e->info)))) {
    rc = build(dt, &c, &e->t, &e->info);
    if (!rc && key)
      e->shape = dli_shape_add(key, n, e->t, &e->info);
  }
  dli_contents_free(&c);
  if (key != kbuf)
    free(key);
  return rc;
}

/* the cached type, building and caching it if needed; build_lock held */
static int lookup(MPI_Datatype dt, dl_type **out, dli_mpi_info *info)
{
  *info = (dli_mpi_info){.basic = MPI_DATATYPE_NULL};
  if ((*out = dli_named_type(dt))) {
    info->unit = named_unit(dt);
    info->basic = dt;
    info->fcomplex = fortran_complex(dt);
    return DL_OK;
  }
  int found = 0;
  entry *e;
  if (type_key == MPI_KEYVAL_INVALID ||
      PMPI_Type_get_attr(dt, type_key, &e, &found) != MPI_SUCCESS)
    return DL_ERR_ARG;
  if (found) {
    *out = e->t;
    *info = e->info;
    return DL_OK;
  }
  if (!(e = malloc(sizeof(*e))))
    return DL_ERR_NOMEM;
  e->blocks = -1;
  e->shape = 0;
  int rc = decode(dt, e);
  if (!rc && PMPI_Type_set_attr(dt, type_key, e) != MPI_SUCCESS) {
    dl_type_free(&e->t);
    rc = DL_ERR_ARG;
  }
  if (rc) {
    free(e);
    return rc;
  }
  *out = e->t;
  *info = e->info;
  return DL_OK;
}

int dli_type_from_mpi_info(MPI_Datatype dt, dl_type **out, dli_mpi_info *info)
{
  if (!out || !info)
    return DL_ERR_ARG;
  *out = NULL;
  *info = (dli_mpi_info){.basic = MPI_DATATYPE_NULL};
  if (dt == MPI_DATATYPE_NULL)
    return DL_ERR_ARG;
  if ((*out = dli_named_type(dt))) {
    info->unit = named_unit(dt);
    info->basic = dt;
    info->fcomplex = fortran_complex(dt);
    return DL_OK;
  }
  pthread_once(&key_once, make_keys);
  entry *e = cached(dt);
  if (e) {
    *out = e->t;                       /* the common case: a lookup */
    *info = e->info;
    info->props &= DLI_MPI_ENGINE_WRONG;
    return DL_OK;
  }
  pthread_mutex_lock(&build_lock);
  int rc = lookup(dt, out, info);
  pthread_mutex_unlock(&build_lock);
  info->props &= DLI_MPI_ENGINE_WRONG;
  if (rc)
    *out = NULL;
  return rc;
}

/* a member that MPICH 4.0.2's engine writes as dataloop does: predefined
   and, since that engine leaves a long double's padding unwritten where
   dataloop copies it (the same values, other bytes), no long double */
static bool flat_member(MPI_Datatype m)
{
  return dli_named_type(m) != NULL && m != MPI_LONG_DOUBLE && m != MPI_LONG_DOUBLE_INT &&
         m != MPI_C_LONG_DOUBLE_COMPLEX && m != MPI_CXX_LONG_DOUBLE_COMPLEX;
}

/* dli_type_flat asks at a type's first use, every message of a program
   that makes a type per message: a type of a few arguments is read into
   the stack, with nothing of the decoder's form built */
enum { FLAT_ARGS = 16 };

bool dli_type_flat(MPI_Datatype dt, dl_count *unit)
{
  *unit = 0;
  MPI_Count ni, na, nc, nd;
  int comb;
  if (dli_mpi_envelope(dt, &ni, &na, &nc, &nd, &comb) != MPI_SUCCESS ||
      comb == MPI_COMBINER_NAMED || nd <= 0)
    return false;
  int ints[FLAT_ARGS];
  MPI_Aint aints[FLAT_ARGS];
  MPI_Count counts[FLAT_ARGS];
  MPI_Datatype types[FLAT_ARGS];
  dli_contents c;
  MPI_Datatype *ty = types;
  bool small = ni <= FLAT_ARGS && na <= FLAT_ARGS && nc <= FLAT_ARGS && nd <= FLAT_ARGS;
  if (small) {
    if (dli_mpi_contents(dt, ni, na, nc, nd, ints, aints, counts, types) !=
        MPI_SUCCESS)
      return false;
  } else if (dli_contents_get(dt, &c) == DL_OK) {
    ty = c.types;
  } else {
    dli_contents_free(&c);
    return false;
  }
  bool flat = true;
  dl_count u = -1;
  for (MPI_Count i = 0; i < nd; i++) {
    MPI_Datatype m = ty[i];
    if (!flat_member(m)) {
      flat = false;
      if (small && !dli_named_type(m))
        dli_contents_release(&types[i]);
    } else if (flat && (i == 0 || m != ty[i - 1])) {
      u = unit_join(u, named_unit(m));
    }
  }
  if (!small)
    dli_contents_free(&c);
  *unit = flat && u > 0 ? u : 0;
  return flat;
}

dl_count dli_mpi_blocks(MPI_Datatype dt)
{
  if (dli_named_type(dt))
    return 1;
  pthread_once(&key_once, make_keys);
  entry *e = cached(dt);
  if (!e)
    return DLI_MPI_BLOCKS_CAP;
  dl_count n = e->blocks;
  if (n < 0) {
    dli_tr_runs_estimate(e->t, DLI_MPI_BLOCKS_CAP, &n);   /* the cap when not listed */
    e->blocks = n;       /* another thread may count it too: the same */
  }
  return n;
}

int dl_type_from_mpi(MPI_Datatype dt, dl_type **out)
{
  dli_mpi_info info;
  return dli_type_from_mpi_info(dt, out, &info);
}
