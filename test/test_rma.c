/* One-sided communication with derived datatypes, as any MPI program does
 * it: run by test/rma.sh under mpiexec -n 2 and -n 3, plainly and with
 * libdataloop-mpi-preload.so preloaded (the automatic route, then each
 * route forced). After every case the target's whole window and the
 * origin's whole origin and result buffers are compared byte for byte with
 * what MPICH's own pack and unpack (PMPI_Pack_c, PMPI_Unpack_c on
 * MPI_COMM_SELF, past the interposer) make of the same data: bytes outside
 * the layouts must stay as they were.
 *
 * Cases: fixed layouts (3D faces of a 64^3 double cube, vectors of 12-byte
 * blocks, a transpose as a vector of vectors, predefined types on both
 * sides), then random nested types of one basic type (MPI_INT32_T or
 * MPI_DOUBLE) with equal type signatures on the two sides (every
 * constructor, half of them drawn where MPICH's bounds depart from the
 * standard), each with one operation (MPI_Put, MPI_Get, MPI_Accumulate,
 * MPI_Get_accumulate, their R-forms, plain or _c), synchronization (fence,
 * post-start-complete-wait, lock exclusive or shared, lock_all with a flush
 * of each kind) and window (MPI_Win_create with a disp_unit of 1, 4 or 8,
 * MPI_Win_allocate, MPI_Win_create_dynamic with an attached region,
 * MPI_Win_allocate_shared), every rank the origin of one operation: to the
 * next rank, or all to rank 0 (disjoint target regions, or one region for
 * MPI_SUM and MPI_MAX accumulates and reads). After MPI_Win_flush_local(_all)
 * or a completed request, the origin buffer is overwritten (the target must
 * hold the old data) and received data is already there. Cases run in
 * batches sharing one window and one epoch. Last, targets outside the
 * window: MPI_ERR_RMA_RANGE, nothing moved. Plain MPICH 4.0.2 checks no
 * target range and completes some operations early (local_done,
 * range_errors): those checks apply only where the interposer serves
 * one-sided calls (dl_preload_rma_routes is there).
 *
 *   DL_EXPECT_PRELOAD=1|0      fail unless the interposer is (is not) loaded
 *   DL_EXPECT_RMA_ROUTES=a,b   fail unless each route named carried
 *                              one-sided operations this rank issued
 *                              (dl_preload_rma_routes; "lockstep": the
 *                              blocks route's operations from the user's
 *                              memory, and "landed": puts unpacked by
 *                              the target's fence, and "mapped": puts
 *                              and gets copied into mapped memory, the
 *                              three counts past the routes'; "tallied":
 *                              fences that exchanged their landing counts
 *                              through shared memory, the fourth)
 *   DL_FORBID_RMA_ROUTES=a,b   fail if any of them carried one
 *   DL_EXPECT_WINDOWS=mpich    the interposer is loaded but describes no
 *                              window (DL_RMA_PEERS=none, or a rank of
 *                              the job is plain): plain MPICH's checks
 *   DL_TEST_SEED               the random seed (rank 0's is used)
 *   DL_TEST_SCALE              scales the number of random cases (1)
 *   DL_TEST_TRACE              rank 0 prints each case before it runs
 *   DL_TEST_ONLY=k             runs only the batch of case k (the same seed)
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mpi_recipe.h"
#include "openmpi_recipe.h"
#include "semantics/sem_large.h"
#include "buffers.h"
#include "randtype.h"

static int rank, nranks, failures;
static bool preloaded;      /* the interposer is loaded */
static bool rma_served;     /* ... and serves one-sided calls */

static void fail_at(int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "rank %d, line %d: ", rank, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  failures++;
}
#define CHECK(cond, ...)                        \
  do {                                          \
    if (!(cond))                                \
      fail_at(__LINE__, __VA_ARGS__);           \
  } while (0)

static int cls(int code)
{
  int c;
  MPI_Error_class(code, &c);
  return c;
}

static void ok_at(int line, int rc, const char *call)
{
  if (rc == MPI_SUCCESS)
    return;
  char s[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(rc, s, &n);
  fail_at(line, "%s: class %d: %s", call, cls(rc), s);
}
#define OK(call) ok_at(__LINE__, (call), #call)

/* ---- layouts: (count, type) and the bytes it touches ---- */

typedef struct layout {
  MPI_Datatype t;       /* committed; predefined ones are not freed */
  bool derived;
  MPI_Count count;
  MPI_Aint lo, hi;      /* bytes touched, relative to the buffer address */
  MPI_Count packed;     /* bytes of its packed stream */
  bool overlaps;        /* some byte twice: only where the data is read */
  rtype rt;             /* a random type's recipe (rt.rc NULL otherwise) */
  char name[48];
} layout;

static bool is_derived(MPI_Datatype t)
{
  int ni, na, nd, comb;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
  return comb != MPI_COMBINER_NAMED;
}

/* a fixed layout: its bytes are MPICH's true extent, count times */
static void layout_fixed(layout *l, const char *name, MPI_Datatype t, MPI_Count count)
{
  memset(l, 0, sizeof(*l));
  snprintf(l->name, sizeof(l->name), "%s", name);
  l->t = t;
  l->derived = is_derived(t);
  if (l->derived)
    MPI_Type_commit(&l->t);
  l->count = count;
  MPI_Count lb, ext, tlb, text, size;
  MPI_Type_get_extent_c(t, &lb, &ext);
  MPI_Type_get_true_extent_c(t, &tlb, &text);
  MPI_Type_size_c(t, &size);
  MPI_Count rep = (count > 0 ? count - 1 : 0) * ext;
  l->lo = count ? (MPI_Aint)(tlb + (rep < 0 ? rep : 0)) : 0;
  l->hi = count ? (MPI_Aint)(tlb + text + (rep > 0 ? rep : 0)) : 0;
  l->packed = size * count;
}

static int by_disp(const void *a, const void *b)
{
  const mrun *x = a, *y = b;
  return x->disp < y->disp ? -1 : x->disp > y->disp;
}

/* a random type as MPICH places it (recipe_host), count copies; its bytes
   from the model */
static bool layout_random(layout *l, rtype *rt, MPI_Datatype mt, MPI_Count count)
{
  memset(l, 0, sizeof(*l));
  l->rt = *rt;
  l->t = mt;
  l->derived = rt->rc->kind != RT_BUILTIN;
  l->count = count;
  snprintf(l->name, sizeof(l->name), "random");
  mrun *runs;
  size_t n;
  if (model_bytemap(rt->m, count, &runs, &n))
    return false;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || runs[i].disp < l->lo) l->lo = runs[i].disp;
    if (i == 0 || runs[i].disp + runs[i].len > l->hi) l->hi = runs[i].disp + runs[i].len;
    l->packed += runs[i].len;
  }
  /* any two runs sharing a byte: in address order, one starting before
     the previous ends */
  qsort(runs, n, sizeof(mrun), by_disp);
  for (size_t i = 1; i < n; i++)
    l->overlaps = l->overlaps || runs[i].disp < runs[i - 1].disp + runs[i - 1].len;
  free(runs);
  MPI_Count size;
  MPI_Type_size_c(mt, &size);
  CHECK(size * count == l->packed, "%s: MPI_Type_size %lld, model %lld bytes",
        rt->desc, (long long)size, (long long)l->packed);
  return true;
}

static void layout_free(layout *l)
{
  if (l->derived)
    MPI_Type_free(&l->t);
  if (l->rt.rc)
    rtype_free(&l->rt);
  memset(l, 0, sizeof(*l));
}

static const char *layout_desc(const layout *l)
{
  return l->rt.rc ? l->rt.desc : l->name;
}

/* memory covering a layout with PAD bytes each side, all compared */
enum { PAD = 16 };
typedef struct obuf {
  char *mem, *at;
  size_t len;
} obuf;

static void obuf_make(obuf *b, const layout *l)
{
  b->len = (size_t)(l->hi - l->lo) + 2 * PAD;
  b->mem = malloc(b->len + 1);
  b->at = b->mem + PAD - l->lo;
}

/* ---- cases ---- */

enum { OP_PUT, OP_GET, OP_ACC, OP_GACC, OP_RPUT, OP_RGET, OP_RACC, OP_RGACC, NOPS };
static const char *const op_names[NOPS] = {
  "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Rput", "MPI_Rget",
  "MPI_Raccumulate", "MPI_Rget_accumulate"};
enum { SY_FENCE, SY_PSCW, SY_LOCK, SY_LOCK_SHARED, SY_FLUSH, SY_FLUSH_LOCAL, SY_FLUSH_ALL,
       SY_FLUSH_LOCAL_ALL, NSYNCS };
static const char *const sync_names[NSYNCS] = {
  "fence", "post-start-complete-wait", "lock exclusive", "lock shared",
  "lock_all + flush", "lock_all + flush_local", "lock_all + flush_all",
  "lock_all + flush_local_all"};
enum { W_CREATE, W_ALLOCATE, W_DYNAMIC, W_SHARED, NWINS };
static const char *const win_names[NWINS] = {
  "MPI_Win_create", "MPI_Win_allocate", "MPI_Win_create_dynamic", "MPI_Win_allocate_shared"};
/* D_LATE: MPI_Wait after the synchronization that completed them (the
   unlock of a lock epoch, the flush of a lock_all one) */
enum { D_WAIT, D_TEST, D_WAITALL, D_LATE, NDONES };
static const char *const done_names[NDONES] = {"MPI_Wait", "MPI_Test", "MPI_Waitall",
                                               "MPI_Wait after the epoch"};

/* One operation per rank. The cases of a batch share one window and one
   epoch (fewer synchronizations: three ranks on two cores wait for each
   other's time slices), so sync, win, du, done and fan_in are the
   batch's. */
typedef struct rcase {
  int index;
  int op, sync, win, done, du;
  MPI_Op mop;               /* accumulates */
  bool large;               /* the _c form */
  bool fan_in;              /* all ranks to rank 0; else each to the next */
  MPI_Datatype basic;
  int elsize;
  layout o, t, r;           /* origin, target, result (get-accumulates) */
  uint64_t seed;
  /* the case's part of the window, and where each target region lies in
     it */
  MPI_Aint base, off0, stride, wlen;
  int nreg;
} rcase;

static int base_op(const rcase *c)
{
  return c->op % 4;
}

static bool accumulates(const rcase *c)
{
  return base_op(c) >= OP_ACC;
}

/* the target region is written */
static bool writes_target(const rcase *c)
{
  return base_op(c) == OP_PUT || (accumulates(c) && c->mop != MPI_NO_OP);
}

static int target_of(const rcase *c, int r)
{
  return c->fan_in ? 0 : (r + 1) % nranks;
}

/* several origins share one region where the result is theirs in any
   order: reads, and MPI_SUM or MPI_MAX accumulates (exact on small
   integers) */
static bool one_region(const rcase *c)
{
  return base_op(c) == OP_GET || (base_op(c) == OP_ACC && c->mop != MPI_REPLACE) ||
         (base_op(c) == OP_GACC && c->mop == MPI_NO_OP);
}

static MPI_Aint region_off(const rcase *c, int origin)
{
  return c->off0 + (c->nreg > 1 ? origin : 0) * c->stride;
}

static MPI_Aint round_up(MPI_Aint v, MPI_Aint m)
{
  return (v + m - 1) / m * m;
}

/* the target window's regions: each at a multiple of the disp unit */
static void place_regions(rcase *c, rng *r)
{
  c->nreg = c->fan_in && !one_region(c) ? nranks : 1;
  MPI_Aint lo = c->t.lo, hi = c->t.hi, margin = rng_range(r, 0, 40);
  c->off0 = round_up(lo < margin ? margin - lo : 0, c->du);
  c->stride = round_up(hi - lo + rng_range(r, 0, 24), c->du);
  if (c->stride == 0)
    c->stride = c->du;
  c->wlen = c->off0 + (c->nreg - 1) * c->stride + (hi > 0 ? hi : 0) + rng_range(r, 1, 40);
}

static const char *op_name(const MPI_Op op)
{
  return op == MPI_SUM ? "MPI_SUM" : op == MPI_MAX ? "MPI_MAX"
       : op == MPI_REPLACE ? "MPI_REPLACE" : op == MPI_NO_OP ? "MPI_NO_OP" : "";
}

static char *case_desc(const rcase *c)
{
  static char s[4096];
  snprintf(s, sizeof(s), "case %d: %s%s %s, %s, %s (disp unit %d), %s%s%s; origin %lld x "
           "%s; target %lld x %s", c->index, op_names[c->op], c->large ? "_c" : "",
           op_name(c->mop), c->fan_in ? "all to rank 0" : "each to the next rank",
           win_names[c->win], c->win == W_DYNAMIC ? 1 : c->du, sync_names[c->sync],
           c->op >= OP_RPUT ? ", " : "", c->op >= OP_RPUT ? done_names[c->done] : "",
           (long long)c->o.count, layout_desc(&c->o), (long long)c->t.count,
           layout_desc(&c->t));
  if (base_op(c) == OP_GACC) {
    size_t n = strlen(s);
    snprintf(s + n, sizeof(s) - n, "; result %lld x %s", (long long)c->r.count,
             layout_desc(&c->r));
  }
  return s;
}

/* ---- data, and MPICH's pack and unpack as the oracle ---- */

static uint64_t mix(uint64_t x)
{
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static uint64_t seed_of(const rcase *c, int r, int what)
{
  return mix(c->seed + 0x9e3779b97f4a7c15ull * (uint64_t)(1 + r * 64 + what));
}

static void fill_bytes(char *p, size_t n, uint64_t s)
{
  for (size_t i = 0; i < n; i += 8) {
    uint64_t x = mix(s += 0x9e3779b97f4a7c15ull);
    memcpy(p + i, &x, n - i < 8 ? n - i : 8);
  }
}

/* the layout's elements set to small integers (-100..100), so that sums
   and maxima are exact in MPI_INT32_T and MPI_DOUBLE alike */
static void fill_values(const rcase *c, const layout *l, char *at, uint64_t s)
{
  if (l->packed == 0)
    return;
  char *stream = malloc((size_t)l->packed);
  for (MPI_Count i = 0; i < l->packed / c->elsize; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    int v = (int)((s >> 33) % 201) - 100;
    if (c->elsize == 8) {
      double d = v;
      memcpy(stream + i * 8, &d, 8);
    } else {
      int32_t k = v;
      memcpy(stream + i * 4, &k, 4);
    }
  }
  MPI_Count pos = 0;
  OK(PMPI_Unpack_c(stream, l->packed, &pos, at, l->count, l->t, MPI_COMM_SELF));
  free(stream);
}

static char *pack_of(const layout *l, const char *at)
{
  char *s = malloc((size_t)l->packed + 1);
  MPI_Count pos = 0;
  OK(PMPI_Pack_c(at, l->count, l->t, s, l->packed, &pos, MPI_COMM_SELF));
  return s;
}

static void unpack_to(const layout *l, char *at, const char *s)
{
  MPI_Count pos = 0;
  OK(PMPI_Unpack_c(s, l->packed, &pos, at, l->count, l->t, MPI_COMM_SELF));
}

/* rank r's window as it starts (the same data whichever rank computes it) */
static void make_window(const rcase *c, int r, char *mem)
{
  fill_bytes(mem, (size_t)c->wlen, seed_of(c, r, 0));
  if (accumulates(c))
    for (int k = 0; k < c->nreg; k++)
      fill_values(c, &c->t, mem + c->off0 + k * c->stride, seed_of(c, r, 8 + k));
}

static void make_origin(const rcase *c, int r, obuf *b)
{
  fill_bytes(b->mem, b->len, seed_of(c, r, 1));
  if (accumulates(c))
    fill_values(c, &c->o, b->at, seed_of(c, r, 2));
}

/* what overwrites an origin buffer once MPI allows it */
static void overwrite(const rcase *c, int r, obuf *b)
{
  fill_bytes(b->mem, b->len, seed_of(c, r, 3));
}

static void make_result(const rcase *c, int r, obuf *b)
{
  fill_bytes(b->mem, b->len, seed_of(c, r, 4));
}

/* t = t op o, element by element */
static void combine(const rcase *c, char *t, const char *o, MPI_Count bytes)
{
  if (c->mop == MPI_NO_OP)
    return;
  if (base_op(c) == OP_PUT || c->mop == MPI_REPLACE) {
    memcpy(t, o, (size_t)bytes);
    return;
  }
  for (MPI_Count i = 0; i < bytes; i += c->elsize) {
    if (c->elsize == 8) {
      double a, b;
      memcpy(&a, t + i, 8);
      memcpy(&b, o + i, 8);
      a = c->mop == MPI_SUM ? a + b : a > b ? a : b;
      memcpy(t + i, &a, 8);
    } else {
      int32_t a, b;
      memcpy(&a, t + i, 4);
      memcpy(&b, o + i, 4);
      a = c->mop == MPI_SUM ? a + b : a > b ? a : b;
      memcpy(t + i, &a, 4);
    }
  }
}

/* rank t's part of the window for case c after every origin's operation */
static void expected_window(const rcase *c, int t, char *exp)
{
  make_window(c, t, exp);
  for (int k = 0; k < nranks && writes_target(c); k++) {
    if (target_of(c, k) != t)
      continue;
    obuf ob;
    obuf_make(&ob, &c->o);
    make_origin(c, k, &ob);
    char *at = exp + region_off(c, k);
    char *os = pack_of(&c->o, ob.at), *ts = pack_of(&c->t, at);
    combine(c, ts, os, c->t.packed);
    unpack_to(&c->t, at, ts);
    free(os);
    free(ts);
    free(ob.mem);
  }
}

/* what this rank's target region held before: what a get or a
   get-accumulate brings back into layout l */
static void fetched(const rcase *c, const layout *l, obuf *b)
{
  int t = target_of(c, rank);
  char *w = malloc((size_t)c->wlen + 1);
  make_window(c, t, w);
  char *s = pack_of(&c->t, w + region_off(c, rank));
  unpack_to(l, b->at, s);
  free(s);
  free(w);
}

static void compare(int line, const rcase *c, const char *what, const char *got,
                    const char *want, size_t len)
{
  if (memcmp(got, want, len) == 0)
    return;
  size_t i = 0;
  while (got[i] == want[i])
    i++;
  char near[2][3 * 8 + 1] = {"", ""};
  for (size_t k = 0; k < 8 && i + k < len; k++)
    for (int side = 0; side < 2; side++)
      sprintf(near[side] + 3 * k, " %02x", (unsigned char)(side ? want : got)[i + k]);
  fail_at(line, "%s: %s differs at byte %zu of %zu (from there:%s, not%s)", case_desc(c),
          what, i, len, near[0], near[1]);
}

/* ---- windows ---- */

typedef struct window {
  MPI_Win w;
  char *mem;               /* this rank's window memory */
  char *own;               /* allocated here (create, dynamic) */
  MPI_Aint *addr;          /* dynamic: each rank's region address */
} window;

static void win_open(window *w, const rcase *c, MPI_Aint len)
{
  memset(w, 0, sizeof(*w));
  switch (c->win) {
  case W_CREATE:
    w->mem = w->own = malloc((size_t)len + 1);
    OK(MPI_Win_create(w->mem, len, c->du, MPI_INFO_NULL, MPI_COMM_WORLD, &w->w));
    break;
  case W_ALLOCATE:
    OK(MPI_Win_allocate(len, c->du, MPI_INFO_NULL, MPI_COMM_WORLD, &w->mem, &w->w));
    break;
  case W_SHARED:
    OK(MPI_Win_allocate_shared(len, c->du, MPI_INFO_NULL, MPI_COMM_WORLD, &w->mem,
                               &w->w));
    break;
  default:
    w->mem = w->own = malloc((size_t)len + 1);
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->w));
    OK(MPI_Win_attach(w->w, w->mem, len));
    w->addr = malloc(sizeof(MPI_Aint) * (size_t)nranks);
    MPI_Aint mine;
    MPI_Get_address(w->mem, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, MPI_COMM_WORLD);
    break;
  }
  MPI_Win_set_errhandler(w->w, MPI_ERRORS_RETURN);
}

static void win_close(window *w)
{
  if (w->addr) {
    MPI_Barrier(MPI_COMM_WORLD);       /* nobody accesses it any more */
    OK(MPI_Win_detach(w->w, w->mem));
  }
  OK(MPI_Win_free(&w->w));
  free(w->own);
  free(w->addr);
}

/* ---- one batch of cases ---- */

static int issue(const rcase *c, window *w, int tgt, MPI_Aint disp, obuf *ob, obuf *rb,
                 MPI_Request *q)
{
  const layout *o = &c->o, *t = &c->t, *r = &c->r;
  void *oa = ob->at, *ra = rb->at;
  MPI_Win win = w->w;
  if (c->large) {
    switch (c->op) {
    case OP_PUT: return MPI_Put_c(oa, o->count, o->t, tgt, disp, t->count, t->t, win);
    case OP_GET: return MPI_Get_c(oa, o->count, o->t, tgt, disp, t->count, t->t, win);
    case OP_ACC:
      return MPI_Accumulate_c(oa, o->count, o->t, tgt, disp, t->count, t->t, c->mop, win);
    case OP_GACC:
      return MPI_Get_accumulate_c(oa, o->count, o->t, ra, r->count, r->t, tgt, disp,
                                  t->count, t->t, c->mop, win);
    case OP_RPUT:
      return MPI_Rput_c(oa, o->count, o->t, tgt, disp, t->count, t->t, win, q);
    case OP_RGET:
      return MPI_Rget_c(oa, o->count, o->t, tgt, disp, t->count, t->t, win, q);
    case OP_RACC:
      return MPI_Raccumulate_c(oa, o->count, o->t, tgt, disp, t->count, t->t, c->mop,
                               win, q);
    default:
      return MPI_Rget_accumulate_c(oa, o->count, o->t, ra, r->count, r->t, tgt, disp,
                                   t->count, t->t, c->mop, win, q);
    }
  }
  int oc = (int)o->count, tc = (int)t->count, rc = (int)r->count;
  switch (c->op) {
  case OP_PUT: return MPI_Put(oa, oc, o->t, tgt, disp, tc, t->t, win);
  case OP_GET: return MPI_Get(oa, oc, o->t, tgt, disp, tc, t->t, win);
  case OP_ACC: return MPI_Accumulate(oa, oc, o->t, tgt, disp, tc, t->t, c->mop, win);
  case OP_GACC:
    return MPI_Get_accumulate(oa, oc, o->t, ra, rc, r->t, tgt, disp, tc, t->t, c->mop,
                              win);
  case OP_RPUT: return MPI_Rput(oa, oc, o->t, tgt, disp, tc, t->t, win, q);
  case OP_RGET: return MPI_Rget(oa, oc, o->t, tgt, disp, tc, t->t, win, q);
  case OP_RACC: return MPI_Raccumulate(oa, oc, o->t, tgt, disp, tc, t->t, c->mop, win, q);
  default:
    return MPI_Rget_accumulate(oa, oc, o->t, ra, rc, r->t, tgt, disp, tc, t->t, c->mop,
                               win, q);
  }
}

typedef struct state {
  obuf ob, rb;
  bool overwritten;
  MPI_Request q;
} state;

/* The operation is complete at the origin: what it fetched is there now,
   and its origin buffer may be reused (the target must still get the data
   it held) */
static void local_done(const rcase *c, state *s)
{
  /* Plain MPICH 4.0.2 (ch4:ucx) completes too early, the data arriving or
     leaving by the unlock: MPI_Wait on an MPI_Rget of a derived type
     (either side) returns before the data is there; MPI_Win_flush_local
     after a get and then a put to the same target (252 ints got, 12
     doubles put) too; MPI_Test completes an MPI_Rput into a derived
     target type before reading its origin buffer when other operations
     are pending (3 ranks, 8 operations each to rank 0). These are
     required only where the interposer serves one-sided calls; plain
     runs still reuse origin buffers after MPI_Win_flush_local(_all). */
  if (!rma_served && (c->op >= OP_RPUT || base_op(c) == OP_GET))
    return;
  if (!rma_served) {
    overwrite(c, rank, &s->ob);
    s->overwritten = true;
    return;
  }
  if (base_op(c) == OP_GET) {
    obuf e;
    obuf_make(&e, &c->o);
    make_origin(c, rank, &e);
    fetched(c, &c->o, &e);
    compare(__LINE__, c, "origin buffer at local completion", s->ob.mem, e.mem, e.len);
    free(e.mem);
    return;
  }
  if (base_op(c) == OP_GACC) {
    obuf e;
    obuf_make(&e, &c->r);
    make_result(c, rank, &e);
    fetched(c, &c->r, &e);
    compare(__LINE__, c, "result buffer at local completion", s->rb.mem, e.mem, e.len);
    free(e.mem);
  }
  overwrite(c, rank, &s->ob);
  s->overwritten = true;
}

/* the batch's requests, by its completion call; then each is done */
static void complete(rcase *cs, int n, state *s)
{
  int how = cs[0].done;
  MPI_Request *q = malloc(sizeof(MPI_Request) * (size_t)n);
  MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)n);
  for (int i = 0; i < n; i++)
    q[i] = s[i].q;
  if (how == D_WAITALL)
    OK(MPI_Waitall(n, q, st));
  for (int i = 0; i < n; i++) {
    int flag = 0;
    if (how == D_WAIT || how == D_LATE)
      OK(MPI_Wait(&q[i], MPI_STATUS_IGNORE));
    while (how == D_TEST && !flag)
      OK(MPI_Test(&q[i], &flag, MPI_STATUS_IGNORE));
    CHECK(q[i] == MPI_REQUEST_NULL, "%s: %s left the request active", case_desc(&cs[i]),
          done_names[how]);
    if (cs[i].op >= OP_RPUT && s[i].q != MPI_REQUEST_NULL)
      local_done(&cs[i], &s[i]);
  }
  free(q);
  free(st);
}

static void issue_all(rcase *cs, int n, window *w, state *s)
{
  for (int i = 0; i < n; i++) {
    rcase *c = &cs[i];
    int tgt = target_of(c, rank);
    MPI_Aint at = c->base + region_off(c, rank);
    MPI_Aint disp = c->win == W_DYNAMIC ? w->addr[tgt] + at : at / c->du;
    s[i].q = MPI_REQUEST_NULL;
    int rc = issue(c, w, tgt, disp, &s[i].ob, &s[i].rb, &s[i].q);
    CHECK(rc == MPI_SUCCESS, "%s: error class %d", case_desc(c), cls(rc));
    if (rc != MPI_SUCCESS)
      s[i].q = MPI_REQUEST_NULL;
  }
}

static void epoch(rcase *cs, int n, window *w, state *s)
{
  const rcase *c = &cs[0];
  int tgt = target_of(c, rank);
  MPI_Win win = w->w;
  switch (c->sync) {
  case SY_FENCE:
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    issue_all(cs, n, w, s);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    break;
  case SY_PSCW: {
    MPI_Group world, origins, targets;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int from[16], k = 0;
    for (int r = 0; r < nranks; r++)
      if (target_of(c, r) == rank)
        from[k++] = r;
    MPI_Group_incl(world, k, from, &origins);
    MPI_Group_incl(world, 1, &tgt, &targets);
    if (k)
      OK(MPI_Win_post(origins, 0, win));
    OK(MPI_Win_start(targets, 0, win));
    issue_all(cs, n, w, s);
    OK(MPI_Win_complete(win));
    if (k)
      OK(MPI_Win_wait(win));
    MPI_Group_free(&origins);
    MPI_Group_free(&targets);
    MPI_Group_free(&world);
    break;
  }
  case SY_LOCK: case SY_LOCK_SHARED:
    OK(MPI_Win_lock(c->sync == SY_LOCK ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, tgt, 0,
                    win));
    issue_all(cs, n, w, s);
    if (c->done != D_LATE)
      complete(cs, n, s);
    OK(MPI_Win_unlock(tgt, win));
    if (c->done == D_LATE)
      complete(cs, n, s);
    break;
  default:
    OK(MPI_Win_lock_all(0, win));
    issue_all(cs, n, w, s);
    if (c->done != D_LATE)
      complete(cs, n, s);
    switch (c->sync) {
    case SY_FLUSH: OK(MPI_Win_flush(tgt, win)); break;
    case SY_FLUSH_ALL: OK(MPI_Win_flush_all(win)); break;
    case SY_FLUSH_LOCAL: OK(MPI_Win_flush_local(tgt, win)); break;
    default: OK(MPI_Win_flush_local_all(win)); break;
    }
    if (c->done == D_LATE)
      complete(cs, n, s);
    if (c->sync == SY_FLUSH_LOCAL || c->sync == SY_FLUSH_LOCAL_ALL)
      for (int i = 0; i < n; i++)
        if (cs[i].op < OP_RPUT)
          local_done(&cs[i], &s[i]);
    OK(MPI_Win_unlock_all(win));
    break;
  }
}

/* the window's bytes outside every case's part */
static void make_gaps(const rcase *c, int r, char *mem, MPI_Aint len)
{
  fill_bytes(mem, (size_t)len, seed_of(c, r, 5));
}

static void run_batch(rcase *cs, int n)
{
  static double last;
  const char *only = getenv("DL_TEST_ONLY");
  if (only && (atoi(only) < cs[0].index || atoi(only) > cs[n - 1].index))
    return;
  MPI_Aint len = 0;
  for (int i = 0; i < n; i++) {
    cs[i].base = len;
    /* parts at multiples of 16, and so the window's size: MPICH 4.0.2's
       MPI_Win_allocate on one node places a rank's window wrongly for the
       others unless its size is a multiple of 16 (rank 0's get of rank 1's
       window of 100 bytes reads 4 bytes too low) */
    len += round_up(cs[i].wlen, 16);
    if (getenv("DL_TEST_TRACE") && rank == 0) {
      fprintf(stderr, "[%.3f s] %s\n", MPI_Wtime() - last, case_desc(&cs[i]));
      last = MPI_Wtime();
    }
  }
  window w;
  win_open(&w, &cs[0], len);
  state *s = calloc((size_t)n, sizeof(state));
  for (int i = 0; i < n; i++) {
    obuf_make(&s[i].ob, &cs[i].o);
    obuf_make(&s[i].rb, &cs[i].r);
    make_origin(&cs[i], rank, &s[i].ob);
    make_result(&cs[i], rank, &s[i].rb);
  }
  /* the window's first contents, in an epoch of its own */
  OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w.w));
  make_gaps(&cs[0], rank, w.mem, len);
  for (int i = 0; i < n; i++)
    make_window(&cs[i], rank, w.mem + cs[i].base);
  OK(MPI_Win_unlock(rank, w.w));
  MPI_Barrier(MPI_COMM_WORLD);
  epoch(cs, n, &w, s);
  MPI_Barrier(MPI_COMM_WORLD);
  char *got = malloc((size_t)len + 1), *want = malloc((size_t)len + 1);
  OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.w));
  OK(MPI_Win_sync(w.w));
  memcpy(got, w.mem, (size_t)len);
  OK(MPI_Win_unlock(rank, w.w));
  make_gaps(&cs[0], rank, want, len);
  for (int i = 0; i < n; i++) {
    rcase *c = &cs[i];
    expected_window(c, rank, want + c->base);
    /* the case's part and the gap after it */
    MPI_Aint end = i + 1 < n ? cs[i + 1].base : len;
    compare(__LINE__, c, "target window", got + c->base, want + c->base,
            (size_t)(end - c->base));
    obuf e;
    obuf_make(&e, &c->o);
    if (s[i].overwritten)
      overwrite(c, rank, &e);
    else
      make_origin(c, rank, &e);
    if (base_op(c) == OP_GET)
      fetched(c, &c->o, &e);
    compare(__LINE__, c, "origin buffer", s[i].ob.mem, e.mem, e.len);
    free(e.mem);
    obuf_make(&e, &c->r);
    make_result(c, rank, &e);
    if (base_op(c) == OP_GACC)
      fetched(c, &c->r, &e);
    compare(__LINE__, c, "result buffer", s[i].rb.mem, e.mem, e.len);
    free(e.mem);
    free(s[i].ob.mem);
    free(s[i].rb.mem);
  }
  free(got);
  free(want);
  free(s);
  win_close(&w);
}

/* a batch's synchronization (a passive-target one for R-forms), window,
   disp unit, completion call and pattern */
static void draw_batch(rcase *c, rng *r, bool passive)
{
  static const int units[3] = {1, 4, 8};
  c->sync = (int)rng_range(r, passive ? SY_LOCK : 0, NSYNCS - 1);
  c->win = (int)rng_range(r, 0, NWINS - 1);
  c->du = c->win == W_DYNAMIC ? 1 : units[rng_range(r, 0, 2)];
  c->done = (int)rng_range(r, 0, NDONES - 1);
  c->fan_in = rng_range(r, 0, 2) == 0;
}

static void draw_op(rcase *c, rng *r, int op)
{
  static const MPI_Op acc_ops[3] = {MPI_SUM, MPI_REPLACE, MPI_MAX};
  static const MPI_Op gacc_ops[3] = {MPI_SUM, MPI_NO_OP, MPI_REPLACE};
  c->op = op;
  c->mop = op % 4 == OP_ACC ? acc_ops[rng_range(r, 0, 2)]
         : op % 4 == OP_GACC ? gacc_ops[rng_range(r, 0, 2)] : MPI_OP_NULL;
}

static void batch_free(rcase *cs, int n)
{
  for (int i = 0; i < n; i++) {
    layout_free(&cs[i].o);
    layout_free(&cs[i].t);
    layout_free(&cs[i].r);
  }
}

/* ---- fixed layouts ---- */

enum { CUBE = 64, NT = 48 };

static MPI_Datatype face_xz(void)
{
  MPI_Datatype t;
  MPI_Type_vector(CUBE, CUBE, CUBE * CUBE, MPI_DOUBLE, &t);
  return t;
}

static MPI_Datatype face_yz(void)
{
  MPI_Datatype col, t;
  MPI_Type_vector(CUBE, 1, CUBE, MPI_DOUBLE, &col);
  MPI_Type_create_hvector(CUBE, 1, CUBE * CUBE * 8, col, &t);
  MPI_Type_free(&col);
  return t;
}

/* blocks of three ints (12 bytes), every `stride` ints */
static MPI_Datatype blocks12(int n, int stride)
{
  MPI_Datatype t;
  MPI_Type_vector(n, 3, stride, MPI_INT, &t);
  return t;
}

/* an NT x NT matrix of doubles stored transposed: a column (a vector)
   repeated every double (an hvector over it) */
static MPI_Datatype transposed(void)
{
  MPI_Datatype col, t;
  MPI_Type_vector(NT, 1, NT, MPI_DOUBLE, &col);
  MPI_Type_create_hvector(NT, 1, 8, col, &t);
  MPI_Type_free(&col);
  return t;
}

/* layouts of fixed pair p: false past the last */
static bool fixed_pair(int p, rcase *c)
{
  c->basic = MPI_DOUBLE;
  c->elsize = 8;
  switch (p) {
  case 0:                       /* predefined on both sides */
    c->basic = MPI_INT;
    c->elsize = 4;
    layout_fixed(&c->o, "1000 MPI_INT", MPI_INT, 1000);
    layout_fixed(&c->t, "1000 MPI_INT", MPI_INT, 1000);
    break;
  case 1:
    layout_fixed(&c->o, "4096 MPI_DOUBLE", MPI_DOUBLE, CUBE * CUBE);
    layout_fixed(&c->t, "3D XZ face", face_xz(), 1);
    break;
  case 2:
    layout_fixed(&c->o, "3D XZ face", face_xz(), 1);
    layout_fixed(&c->t, "3D YZ face", face_yz(), 1);
    break;
  case 3:
    c->basic = MPI_INT;
    c->elsize = 4;
    layout_fixed(&c->o, "vector of 12-byte blocks, stride 20", blocks12(2000, 5), 1);
    layout_fixed(&c->t, "vector of 12-byte blocks, stride 32", blocks12(400, 8), 5);
    break;
  case 4:
    layout_fixed(&c->o, "2304 MPI_DOUBLE (rows)", MPI_DOUBLE, NT * NT);
    layout_fixed(&c->t, "transposed: vector of vectors", transposed(), 1);
    break;
  case 5:
    layout_fixed(&c->o, "3D XZ face", face_xz(), 1);
    layout_fixed(&c->t, "4096 MPI_DOUBLE", MPI_DOUBLE, CUBE * CUBE);
    break;
  default:
    return false;
  }
  /* the result of a get-accumulate: as the origin */
  MPI_Datatype d = c->o.t;
  if (c->o.derived)
    MPI_Type_dup(c->o.t, &d);
  layout_fixed(&c->r, c->o.name, d, c->o.count);
  return true;
}

/* Each fixed pair twice: every operation in a passive-target epoch, then
   the four that are not R-forms in an active-target one; each operation
   once with int counts and once as its _c form. Over the six pairs, every
   synchronization, window kind and completion call occurs. */
static int fixed_cases(rng *r, int index)
{
  for (int p = 0;; p++) {
    for (int active = 0; active < 2; active++) {
      rcase cs[NOPS], proto;
      memset(&proto, 0, sizeof(proto));
      draw_batch(&proto, r, !active);
      proto.sync = active ? (p % 2 ? SY_FENCE : SY_PSCW) : SY_LOCK + p % (NSYNCS - SY_LOCK);
      proto.win = (p + 2 * active) % NWINS;
      proto.du = proto.win == W_DYNAMIC ? 1 : proto.du;
      proto.done = p % NDONES;
      int n = active ? 4 : NOPS;
      for (int op = 0; op < n; op++) {
        rcase *c = &cs[op];
        *c = proto;
        if (!fixed_pair(p, c)) {
          batch_free(cs, op);
          return index;
        }
        draw_op(c, r, op);
        c->index = index++;
        c->large = (p + op + active) % 2;
        c->seed = rng_next(r);
        place_regions(c, r);
      }
      run_batch(cs, n);
      batch_free(cs, n);
    }
  }
}

/* ---- random layouts ---- */

static long kinds[RT_NKINDS], deviating, random_run;

static void count_kinds(const recipe *rc)
{
  kinds[rc->kind]++;
  for (int i = 0; i < rc->nkids; i++)
    count_kinds(rc->kids[i]);
}

/* a random type of one basic type at MPICH's bounds, committed, that
   MPICH's MPI_Pack handles (the oracle). For an accumulate, one whose
   single basic type MPICH sees: it asserts (typerep_op.c:99) on a struct
   with an empty member or a cyclic darray (built from such structs), as
   its MPI_Pack_external dies on them; nor an empty type. */
static void draw_type(rng *r, int basic, bool acc, rtype *rt, MPI_Datatype *mt)
{
  for (;;) {
    int depth = (int)rng_range(r, 1, 4);
    if ((rng_range(r, 0, 1) ? rtype_gen_deviant(r, depth, &basic, 1, rt)
                            : rtype_gen_typed(r, depth, &basic, 1, rt)) != 0) {
      CHECK(false, "type generation failed: %s", rt->desc);
      rtype_free(rt);
      continue;
    }
    model *host = NULL;
#ifdef OPEN_MPI
    /* Open MPI: a type it refuses (errors returned, not fatal) or one
       whose data it places elsewhere than the standard (openmpi_recipe.h)
       is drawn again; its bounds are the host's, as MPICH's are */
    (void)acc;
    bool usable = recipe_openmpi_deviates(rt->rc) == 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    usable = usable && recipe_host(rt->rc, mt, &host) == MPI_SUCCESS;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#else
    bool usable = !(recipe_mpich_deviates(rt->rc) & DEV_NO_PACK) &&
                  (!acc || mpich_external_host_ok(rt)) &&
                  recipe_host(rt->rc, mt, &host) == MPI_SUCCESS;
#endif
    if (!usable) {
      model_free(host);
      rtype_free(rt);
      continue;
    }
    model_free(rt->m);
    rt->m = host;
    if (rt->rc->kind != RT_BUILTIN)
      MPI_Type_commit(mt);
    return;
  }
}

enum { MAX_SPAN = 1 << 20, MAX_COPIES = 12 };

/* a layout of `elems` basic elements: a random type whose size divides it
   (a few draws), else the predefined type */
static void layout_of(rng *r, const rcase *c, int basic, MPI_Count elems, layout *l)
{
  bool predefined = rng_range(r, 0, 9) == 0;
  for (int tries = 0; tries < 40 && !predefined; tries++) {
    rtype rt;
    MPI_Datatype mt;
    draw_type(r, basic, accumulates(c), &rt, &mt);
    MPI_Count size, count;
    MPI_Type_size_c(mt, &size);
    MPI_Count e = size / c->elsize;
    if (e == 0)
      count = elems == 0 ? rng_range(r, 0, 3) : -1;
    else
      count = elems % e == 0 && elems / e <= MAX_COPIES ? elems / e : -1;
    if (count >= 0 && layout_random(l, &rt, mt, count)) {
      if (l->hi - l->lo <= MAX_SPAN)
        return;
      layout_free(l);
      continue;
    }
    if (rt.rc->kind != RT_BUILTIN)
      MPI_Type_free(&mt);
    rtype_free(&rt);
  }
  layout_fixed(l, c->elsize == 8 ? "MPI_DOUBLE" : "MPI_INT32_T", c->basic, elems);
}

/* a random case on the batch's settings (proto) */
static void random_case(rng *r, const rcase *proto, rcase *c)
{
  for (;;) {
    *c = *proto;
    draw_op(c, r, (int)rng_range(r, 0, c->sync >= SY_LOCK ? NOPS - 1 : OP_GACC));
    c->large = rng_range(r, 0, 2) == 0;
    int basic = rng_range(r, 0, 1) ? DL_INT32 : DL_DOUBLE;
#ifdef OPEN_MPI
    /* Open MPI 4.1's get-accumulates of 32-bit integers on its rdma
       windows return garbage results now and then, plainly (doc/mpi.md) */
    if (base_op(c) == OP_GACC)
      basic = DL_DOUBLE;
#endif
    c->basic = mpi_builtin(basic);
    c->elsize = basic == DL_DOUBLE ? 8 : 4;
    /* the target first, its element count the others' */
    rtype rt;
    MPI_Datatype mt;
    draw_type(r, basic, accumulates(c), &rt, &mt);
    MPI_Count size;
    MPI_Type_size_c(mt, &size);
    MPI_Count count = rng_range(r, 0, 9) == 0 ? 0 : rng_range(r, 1, 4);
    if (!layout_random(&c->t, &rt, mt, count) || c->t.hi - c->t.lo > MAX_SPAN) {
      layout_free(&c->t);
      continue;
    }
    MPI_Count elems = size / c->elsize * count;
    layout_of(r, c, basic, elems, &c->o);
    layout_of(r, c, basic, elems, &c->r);
    /* the written side must not overlap itself, nor any side of an
       accumulate (its elements must stay whole numbers) */
    bool bad = (writes_target(c) && c->t.overlaps) ||
               (base_op(c) == OP_GET && c->o.overlaps) ||
               (accumulates(c) && (c->t.overlaps || c->o.overlaps)) ||
               (base_op(c) == OP_GACC && c->r.overlaps);
#ifdef OPEN_MPI
    /* Open MPI 4.1's rdma windows never finish an operation that moves
       nothing through copies of a derived type of size 0 (an empty
       darray): its shared-memory transport's put of 0 bytes at the
       address it computes for the type fails (EFAULT) and is tried again
       for ever, plainly (doc/mpi.md) */
    bad = bad || (elems == 0 && ((c->o.derived && c->o.count > 0) ||
                                 (c->t.derived && c->t.count > 0) ||
                                 (c->r.derived && c->r.count > 0)));
#endif
    if (!bad) {
      place_regions(c, r);
      c->seed = rng_next(r);
      return;
    }
    batch_free(c, 1);
  }
}

enum { BATCH = 12 };

static void random_cases(rng *r, int index, int n)
{
  for (int i = 0; i < n; i += BATCH) {
    rcase cs[BATCH], proto;
    memset(&proto, 0, sizeof(proto));
    draw_batch(&proto, r, rng_range(r, 0, 1));
    int k = n - i < BATCH ? n - i : BATCH;
    for (int j = 0; j < k; j++) {
      rcase *c = &cs[j];
      random_case(r, &proto, c);
      c->index = index + i + j;
      layout *ls[3] = {&c->o, &c->t, &c->r};
      for (int m = 0; m < (base_op(c) == OP_GACC ? 3 : 2); m++)
        if (ls[m]->rt.rc) {
          count_kinds(ls[m]->rt.rc);
          deviating += recipe_mpich_deviates(ls[m]->rt.rc) != 0;
        }
    }
    run_batch(cs, k);
    random_run += k;
    batch_free(cs, k);
  }
}

/* ---- targets outside the window ---- */

/* Plain MPICH 4.0.2 (ch4:ucx) checks no target range against the window:
   with MPI_ERRORS_RETURN set, a put or accumulate past the end of the
   window returns MPI_SUCCESS and writes past it, a get reads past it; only
   a negative target_disp is refused (MPI_ERR_DISP). So the ranges are
   required to fail only where the interposer serves one-sided calls; the
   plain run pins MPICH's success on a window with guard bytes around it. */
static int handler_class;

static void record(MPI_Win *win, int *code, ...)
{
  (void)win;
  handler_class = cls(*code);
}

/* What a window of MPI_Win_allocate answers, as MPICH's own do (the
   interposer makes one on a single node by MPI_Win_allocate_shared, to map
   it): its flavor, MPI_Win_shared_query refused (MPI_ERR_RMA_FLAVOR). A
   window of MPI_Win_allocate_shared answers both. A put of a derived type
   outside any epoch fails as MPICH's does (MPI_ERR_RMA_SYNC), its target
   untouched; in an epoch it moves the data. */
static void allocate_answers(void)
{
  for (int shared = 0; shared < 2; shared++) {
    const char *how = shared ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
    double *mem;
    MPI_Win win;
    OK(shared ? MPI_Win_allocate_shared(64 * sizeof(double), sizeof(double),
                                        MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win)
              : MPI_Win_allocate(64 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &mem, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int *flavor = NULL, flag = 0;
    OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    CHECK(flag && flavor && *flavor == (shared ? MPI_WIN_FLAVOR_SHARED
                                               : MPI_WIN_FLAVOR_ALLOCATE),
          "%s: MPI_WIN_CREATE_FLAVOR is %d", how, flag && flavor ? *flavor : -1);
    MPI_Aint size = -1;
    int unit = -1;
    double *at = NULL;
    int rc = MPI_Win_shared_query(win, (rank + 1) % nranks, &size, &unit, &at);
    if (shared)
      CHECK(rc == MPI_SUCCESS && size == 64 * (MPI_Aint)sizeof(double) && at,
            "%s: MPI_Win_shared_query gave %d, size %ld", how, cls(rc), (long)size);
    else
      CHECK(cls(rc) == MPI_ERR_RMA_FLAVOR, "%s: MPI_Win_shared_query gave class %d",
            how, cls(rc));
    for (int i = 0; i < 64; i++)
      mem[i] = -1;
    double src[64];
    for (int i = 0; i < 64; i++)
      src[i] = rank * 100 + i;
    MPI_Datatype every_other;
    MPI_Type_vector(32, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    int to = (rank + 1) % nranks, from = (rank + nranks - 1) % nranks;
#ifdef OPEN_MPI
    /* its shared windows (the sm component) check no epoch: such a put
       writes, plainly */
    bool epochs_checked = !shared;
#else
    bool epochs_checked = true;
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    if (epochs_checked) {
      rc = MPI_Put(src, 32, MPI_DOUBLE, to, 0, 1, every_other, win);
      CHECK(cls(rc) == MPI_ERR_RMA_SYNC, "%s: a put outside an epoch gave class %d", how,
            cls(rc));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 64; i++)
      CHECK(mem[i] == -1, "%s: a failed put wrote element %d", how, i);
    OK(MPI_Win_fence(0, win));
    OK(MPI_Put(src, 32, MPI_DOUBLE, to, 0, 1, every_other, win));
    OK(MPI_Win_fence(0, win));
    for (int i = 0; i < 64; i++)
      CHECK(mem[i] == (i % 2 ? -1 : from * 100 + i / 2), "%s: element %d is %g", how, i,
            mem[i]);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_Type_free(&every_other);
    OK(MPI_Win_free(&win));
  }
}

/* A get after many get-accumulates to the same target, completed by
   MPI_Win_flush_all or MPI_Win_flush_local_all: its data is there when
   the call returns. Plain MPICH 4.0.2 often returns before (checked only
   where the interposer serves one-sided calls); it is there by the
   unlock either way. */
static void get_after_many(void)
{
  enum { NACC = 630, WL = 4096, GOT = 24, GETAT = 64, ROUNDS = 20 };
  char *mem = malloc(WL);
  int32_t *one = malloc(NACC * sizeof(int32_t)), *res = malloc(NACC * sizeof(int32_t));
  int tgt = (rank + 1) % nranks;
  for (int round = 0; round < ROUNDS; round++) {
    for (int i = 0; i < WL; i++)
      mem[i] = (char)(rank * 31 + i * 7 + round);
    for (int i = 0; i < NACC; i++)
      one[i] = i;
    MPI_Win w;
    OK(MPI_Win_create(mem, WL, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    char got[GOT], want[GOT];
    memset(got, 0, GOT);
    for (int i = 0; i < GOT; i++)
      want[i] = (char)(tgt * 31 + (GETAT + i) * 7 + round);
    OK(MPI_Win_lock_all(0, w));
    for (int i = 0; i < NACC; i++)
      OK(MPI_Get_accumulate(&one[i], 1, MPI_INT32_T, &res[i], 1, MPI_INT32_T, tgt,
                            1024 + 4 * i, 1, MPI_INT32_T, MPI_SUM, w));
    OK(MPI_Get(got, GOT, MPI_BYTE, tgt, GETAT, GOT, MPI_BYTE, w));
    const char *how = round % 2 ? "MPI_Win_flush_local_all" : "MPI_Win_flush_all";
    OK(round % 2 ? MPI_Win_flush_local_all(w) : MPI_Win_flush_all(w));
    CHECK(!rma_served || memcmp(got, want, GOT) == 0,
          "MPI_Get after %d get-accumulates to rank %d: not there after %s (round %d)",
          NACC, tgt, how, round);
    OK(MPI_Win_unlock_all(w));
    CHECK(memcmp(got, want, GOT) == 0, "MPI_Get after %d get-accumulates: not there after "
          "MPI_Win_unlock_all (round %d)", NACC, round);
    OK(MPI_Win_free(&w));
  }
  free(mem);
  free(one);
  free(res);
}

/* Gets after accumulates to the same target in a post-start-complete-wait
   epoch: their data is there when MPI_Win_complete returns (plain MPICH
   4.0.2 often returns before contiguous ones arrive: checked only where
   the interposer serves one-sided calls), one into a vector from a dense
   target, one into a dense buffer from a vector; by the barrier after
   MPI_Win_wait either way. */
static void gets_after_accumulates(void)
{
  enum { NACC = 160, NGET = 96, WL = 8192, ROUNDS = 10 };
  MPI_Datatype vec;               /* 48 pairs of doubles, a double apart */
  MPI_Type_vector(NGET / 2, 2, 3, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  MPI_Group world, peers;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int to = (rank + 1) % nranks, from = (rank + nranks - 1) % nranks;
  int both[2] = {to, from};
  MPI_Group_incl(world, to == from ? 1 : 2, both, &peers);
  double one[NACC], *sparse = malloc(3 * NGET / 2 * sizeof(double));
  double dense[NGET], want_sparse[3 * NGET / 2], want_dense[NGET];
  for (int i = 0; i < NACC; i++)
    one[i] = i;
  for (int round = 0; round < ROUNDS; round++) {
    double *mem;
    MPI_Win w;
    OK(MPI_Win_allocate(WL, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w));
    for (int i = 0; i < WL / 8; i++)
      mem[i] = rank * 10000 + i + round;
    OK(MPI_Win_unlock(rank, w));
    MPI_Barrier(MPI_COMM_WORLD);
    /* the target's doubles 0..NGET-1 into the vector's places; its vector
       at double 2 * NGET into dense */
    for (int i = 0; i < 3 * NGET / 2; i++)
      sparse[i] = want_sparse[i] = -1;
    for (int i = 0; i < NGET; i++) {
      want_sparse[i / 2 * 3 + i % 2] = to * 10000 + i + round;
      want_dense[i] = to * 10000 + 2 * NGET + i / 2 * 3 + i % 2 + round;
      dense[i] = -1;
    }
    OK(MPI_Win_post(peers, 0, w));
    OK(MPI_Win_start(peers, 0, w));
    for (int i = 0; i < NACC; i++)       /* doubles from 512 on */
      OK(MPI_Accumulate(&one[i], 1, MPI_DOUBLE, to, 2 * (512 + i), 1, MPI_DOUBLE, MPI_SUM,
                        w));
    OK(MPI_Get(sparse, 1, vec, to, 0, NGET, MPI_DOUBLE, w));
    OK(MPI_Get(dense, NGET, MPI_DOUBLE, to, 2 * 2 * NGET, 1, vec, w));
    OK(MPI_Win_complete(w));
    CHECK(!rma_served || !memcmp(sparse, want_sparse, sizeof(want_sparse)),
          "MPI_Get into a vector after %d accumulates to rank %d: not there after "
          "MPI_Win_complete (round %d)", NACC, to, round);
    CHECK(!rma_served || !memcmp(dense, want_dense, sizeof(want_dense)),
          "MPI_Get from a vector after %d accumulates to rank %d: not there after "
          "MPI_Win_complete (round %d)", NACC, to, round);
    OK(MPI_Win_wait(w));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(!memcmp(sparse, want_sparse, sizeof(want_sparse)) &&
          !memcmp(dense, want_dense, sizeof(want_dense)),
          "MPI_Get after accumulates: not there after the epoch (round %d)", round);
    OK(MPI_Win_free(&w));
  }
  free(sparse);
  MPI_Group_free(&peers);
  MPI_Group_free(&world);
  MPI_Type_free(&vec);
}

static void range_errors(void)
{
  enum { G = 256, WL = 512, NCASES = 8 };
  MPI_Datatype vec, below;
  MPI_Type_vector(4, 1, 10, MPI_INT, &vec);             /* 31 ints wide */
  MPI_Type_create_hindexed(1, (int[]){2}, (MPI_Aint[]){-8}, MPI_INT, &below);
  MPI_Type_commit(&vec);
  MPI_Type_commit(&below);
  MPI_Errhandler mine;
  MPI_Win_create_errhandler(record, &mine);
  char *g = malloc(2 * G + WL), *want = malloc(2 * G + WL);
  int32_t src[64], fetch[64], valid[4] = {1, 2, 3, 4};
  for (int i = 0; i < 64; i++)
    src[i] = 0x01020304 + i;
  int tgt = (rank + 1) % nranks;
  for (int k = 0; k < NCASES; k++) {
    bool shared = k == NCASES - 1;
    if (shared && !rma_served)
      continue;        /* MPICH would write into the next rank's segment */
    MPI_Win w;
    char *base = g + G;
    if (shared)
      OK(MPI_Win_allocate_shared(WL, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    else
      OK(MPI_Win_create(base, WL, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MPI_Win_set_errhandler(w, k == 1 ? mine : MPI_ERRORS_RETURN);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w));
    memset(g, 0x5c, 2 * G + WL);
    memset(base, 0x5c, WL);
    OK(MPI_Win_unlock(rank, w));
    memset(fetch, 0x3a, sizeof(fetch));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tgt, 0, w));
    MPI_Aint end = WL / 4;          /* in disp units of 4 bytes */
    MPI_Request q = MPI_REQUEST_NULL;
    int rc;
    const char *what;
    handler_class = -1;
    switch (k) {
    case 0:
      what = "MPI_Put of 10 ints, 6 inside";
      rc = MPI_Put(src, 10, MPI_INT, tgt, end - 6, 10, MPI_INT, w);
      break;
    case 1:
      what = "MPI_Put_c of a vector past the end (the window's own handler)";
      rc = MPI_Put_c(src, 4, MPI_INT, tgt, end - 20, 1, vec, w);
      break;
    case 2:
      what = "MPI_Put of a type reaching 8 bytes before the window";
      rc = MPI_Put(src, 2, MPI_INT, tgt, 0, 1, below, w);
      break;
    case 3:
      what = "MPI_Get of a vector past the end";
      rc = MPI_Get(fetch, 4, MPI_INT, tgt, end - 20, 1, vec, w);
      break;
    case 4:
      what = "MPI_Accumulate of 10 ints past the end";
      rc = MPI_Accumulate(src, 10, MPI_INT, tgt, end - 6, 10, MPI_INT, MPI_SUM, w);
      break;
    case 5:
      what = "MPI_Get_accumulate of a vector past the end";
      rc = MPI_Get_accumulate(src, 4, MPI_INT, fetch, 4, MPI_INT, tgt, end - 20, 1, vec,
                              MPI_SUM, w);
      break;
    case 6:
      what = "MPI_Rput of a vector past the end";
      rc = MPI_Rput(src, 4, MPI_INT, tgt, end - 20, 1, vec, w, &q);
      if (rc == MPI_SUCCESS)
        OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
      break;
    default:
      what = "MPI_Put of a vector past the end of a shared window's segment";
      rc = MPI_Put(src, 4, MPI_INT, tgt, end - 20, 1, vec, w);
      break;
    }
    /* the epoch goes on: a put inside the window lands */
    OK(MPI_Put(valid, 4, MPI_INT, tgt, 2, 4, MPI_INT, w));
    OK(MPI_Win_unlock(tgt, w));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rma_served) {
      CHECK(cls(rc) == MPI_ERR_RMA_RANGE, "%s: class %d, not MPI_ERR_RMA_RANGE", what,
            cls(rc));
      CHECK(k != 1 || handler_class == MPI_ERR_RMA_RANGE, "%s: the handler saw class %d",
            what, handler_class);
      bool untouched = true;
      for (int i = 0; i < 64; i++)
        untouched = untouched && fetch[i] == 0x3a3a3a3a;
      CHECK(untouched, "%s: the origin's buffer was written", what);
    } else if (k == 0) {
#ifdef OPEN_MPI
      /* its rdma windows (MPI_Win_create's) check target ranges */
      CHECK(cls(rc) == MPI_ERR_RMA_RANGE, "%s: Open MPI reports class %d", what, cls(rc));
#else
      CHECK(rc == MPI_SUCCESS, "%s: MPICH now reports class %d (it did not check "
            "target ranges)", what, cls(rc));
#endif
    }
    /* the target's memory, the guard bytes around it included */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w));
    OK(MPI_Win_sync(w));
    memset(want, 0x5c, 2 * G + WL);
    memcpy(want + G + 8, valid, sizeof(valid));
    if (shared) {
      char *s = want + G;
      CHECK(memcmp(base, s, WL) == 0, "%s: the target's window changed", what);
    } else if (rma_served) {
      CHECK(memcmp(g, want, 2 * G + WL) == 0, "%s: the target's memory changed", what);
    } else {
      CHECK(memcmp(base + 8, valid, sizeof(valid)) == 0, "%s: the valid put is missing",
            what);
    }
    OK(MPI_Win_unlock(rank, w));
    OK(MPI_Win_free(&w));
  }
  /* a negative target displacement is MPICH's to refuse (MPI_ERR_DISP),
     preloaded or not */
  MPI_Win w;
  OK(MPI_Win_create(g + G, WL, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tgt, 0, w));
  int rc = MPI_Put(src, 4, MPI_INT, tgt, -4, 1, vec, w);
  CHECK(cls(rc) == MPI_ERR_DISP, "MPI_Put of a vector at displacement -4: class %d, "
        "not MPI_ERR_DISP", cls(rc));
  rc = MPI_Get(fetch, 4, MPI_INT, tgt, -1, 1, vec, w);
  CHECK(cls(rc) == MPI_ERR_DISP, "MPI_Get of a vector at displacement -1: class %d, "
        "not MPI_ERR_DISP", cls(rc));
  OK(MPI_Win_unlock(tgt, w));
  OK(MPI_Win_free(&w));
  MPI_Errhandler_free(&mine);
  MPI_Type_free(&vec);
  MPI_Type_free(&below);
  free(g);
  free(want);
}

/* ---- routes ---- */

/* the routes DL_EXPECT_RMA_ROUTES and DL_FORBID_RMA_ROUTES name, against
   the operations this rank issued (dl_preload_rma_routes); without those
   variables an interposer that does not count them is no failure */
static void check_routes(void)
{
  static const char *const vars[2] = {"DL_EXPECT_RMA_ROUTES", "DL_FORBID_RMA_ROUTES"};
  int (*routes)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_rma_routes");
  const char *(*named)(int) =
      (const char *(*)(int))dlsym(RTLD_DEFAULT, "dl_preload_route_name");
  unsigned long long c[32] = {0};
  int n = routes ? routes(c, 32) : 0;
  for (int v = 0; v < 2; v++) {
    const char *list = getenv(vars[v]);
    if (!list || !*list)
      continue;
    if (!routes || !named) {
      CHECK(false, "%s=%s, but the interposer has no dl_preload_rma_routes", vars[v],
            list);
      continue;
    }
    char words[128];
    snprintf(words, sizeof(words), "%s", list);
    for (char *save = NULL, *word = strtok_r(words, ",", &save); word;
         word = strtok_r(NULL, ",", &save)) {
      int r = 0, nroutes = 0;
      while (named(nroutes))
        nroutes++;
      while (named(r) && strcmp(named(r), word))
        r++;
      if (!strcmp(word, "lockstep"))   /* the counts past the routes' */
        r = nroutes;
      else if (!strcmp(word, "landed"))
        r = nroutes + 1;
      else if (!strcmp(word, "mapped"))
        r = nroutes + 2;
      else if (!strcmp(word, "tallied"))
        r = nroutes + 3;
      else if (!named(r))
        r = n;
      if (r < 0 || r >= n || r >= 32) {
        CHECK(false, "%s: no route named %s", vars[v], word);
        continue;
      }
      CHECK(v ? c[r] == 0 : c[r] > 0, "%s: %llu %s", word, c[r],
            r == nroutes + 3 ? "fences" : "one-sided operations carried");
    }
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks < 2 || nranks > 16) {
    fprintf(stderr, "test_rma: needs 2 to 16 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  preloaded = dlsym(RTLD_DEFAULT, "dl_preload_active") != NULL;
  const char *windows = getenv("DL_EXPECT_WINDOWS");
  rma_served = preloaded && dlsym(RTLD_DEFAULT, "dl_preload_rma_routes") != NULL &&
               !(windows && !strcmp(windows, "mpich"));
  const char *want = getenv("DL_EXPECT_PRELOAD");
  if (want)
    CHECK(preloaded == (strcmp(want, "1") == 0), "interposer %s, DL_EXPECT_PRELOAD=%s",
          preloaded ? "loaded" : "not loaded", want);
  const char *e = getenv("DL_TEST_SEED");
  unsigned long long seed = e ? strtoull(e, NULL, 0) : (unsigned long long)time(NULL);
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0)
    fprintf(stderr, "random seed: %llu (set DL_TEST_SEED to repeat)\n", seed);
  rng r = {seed};
  int index = fixed_cases(&r, 0);
  int n = test_scaled(200);
  random_cases(&r, index, n);
  allocate_answers();
  get_after_many();
  gets_after_accumulates();
  range_errors();
  check_routes();
  if (rank == 0) {
    fprintf(stderr, "%d fixed cases, %ld random ones (%ld types where MPICH's bounds "
            "depart from the standard); constructors:", index, random_run, deviating);
    for (int k = RT_CONTIG; k < RT_NKINDS; k++)
      fprintf(stderr, " %ld", kinds[k]);
    fputc('\n', stderr);
    /* every constructor occurred (RT_PERIODIC is an indexed one) */
    for (int k = RT_CONTIG; k < RT_PERIODIC && n >= 100; k++)
      CHECK(kinds[k] > 0, "no random type used constructor %d", k);
#ifndef OPEN_MPI
    CHECK(n < 100 || deviating > 0, "no random type where MPICH's bounds depart");
#endif
  }
  int total;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_rma, %d ranks (%s): %s\n", nranks,
           !preloaded ? "plain" : rma_served ? "interposer" : "interposer, "
           "the host's windows", total ? "FAILED" : "all passed");
  MPI_Finalize();
  return total ? 1 : 0;
}
