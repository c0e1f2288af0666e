/* One-sided operations with derived datatypes through dataloop
 * (doc/rma.md). The target datatype is a layout at the target described at
 * the origin, so dataloop lists its blocks here. An operation's route:
 *
 *   DIRECT  predefined or dense data on every side: the user's arguments
 *   MPICH   the user's types, MPICH's engine at both ends
 *   PACK    the operand packed, results staged; one operation whose target
 *           is the user's target type
 *   BLOCKS  one contiguous operation per target block (maximal blocks),
 *           from the operand (packed where it is not dense)
 *   PIPE    the stream in chunks, each packed and issued at once on the
 *           target's sub-range (an hindexed type of its blocks), so packing
 *           the next chunk overlaps the transfer of this one
 *
 * Puts and gets of fence epochs may instead land (landing.c), and those
 * whose target memory is mapped here are copied type to type (dl_copy).
 *
 * Staging lives until the synchronization that completes the operation
 * (window.c) or, for the request forms, until the request completes;
 * gets are unpacked then. Accumulates move elements of their one basic
 * type, never split. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "../base/host.h"
#include "rma.h"
#include "../../../../actions/actions.h"   /* dli_copy_twins */

static const char *const call_names[2][4] = {
  {"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate"},
  {"MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate"}};

/* ---- describing an operation ---- */

/* the element that moves: bytes for puts and gets; an accumulate's one
   basic type on both sides, whose packed copies lie as an array does */
static MPI_Datatype element(const rma *x, MPI_Aint *size)
{
  *size = 1;
  if (x->kind == PUT || x->kind == GET)
    return MPI_BYTE;
  const dlp_data *side = x->operand ? &x->o : &x->r;
  MPI_Datatype b = x->t.basic;
  MPI_Aint lb, ext;
  MPI_Count sz;
  if (b == MPI_DATATYPE_NULL || side->basic != b ||
      (x->kind == GET_ACC && x->r.basic != b) ||
      PMPI_Type_size_c(b, &sz) != MPI_SUCCESS ||
      PMPI_Type_get_extent(b, &lb, &ext) != MPI_SUCCESS || sz != ext || sz <= 0)
    return MPI_DATATYPE_NULL;
  *size = (MPI_Aint)sz;
  return b;
}

/* whether bytes of (count, t) at disp units lie in a window of size bytes */
static bool in_window(const rma *x, MPI_Aint size)
{
  dl_aint lb, ext, tlb, text, rep, lo, hi, base;
  if (dl_type_extent(x->t.t, &lb, &ext) || dl_type_true_extent(x->t.t, &tlb, &text) ||
      __builtin_mul_overflow((dl_aint)x->t.count - 1, ext, &rep) ||
      __builtin_mul_overflow((dl_aint)x->disp, (dl_aint)x->unit, &base) ||
      __builtin_add_overflow(base, tlb + (rep < 0 ? rep : 0), &lo) ||
      __builtin_add_overflow(base, tlb + text + (rep > 0 ? rep : 0), &hi))
    return false;
  return lo >= 0 && hi <= size;
}

/* ---- choosing ---- */

/* the contiguous blocks of d: its elements' runs times its count (runs
   of neighbouring elements that merge counted apart), at most 2^50 */
static size_t blocks_of(const dlp_data *d)
{
  if (d->dense)
    return 1;
  double n = (double)dli_mpi_blocks(d->dt) * (double)d->count;
  return n > 0x1p50 ? (size_t)1 << 50 : (size_t)n;
}

/* whether d's k blocks lie far apart: a cache line or more each, spread
   over more memory than the last-level cache holds */
static bool far_apart(const dlp_data *d, size_t k)
{
  dl_aint lb, ext, tlb, text;
  if (d->dense || k < 2 || dl_type_extent(d->t, &lb, &ext) ||
      dl_type_true_extent(d->t, &tlb, &text))
    return false;
  double span = (double)text + (double)(d->count - 1) * (double)(ext < 0 ? -ext : ext);
  size_t l3 = dl_tune_get()->l3;
  return span >= 64.0 * (double)k && span > (double)(l3 ? l3 : (size_t)32 << 20);
}

static dlp_rma_shape shape_of(const rma *x)
{
  const dlp_data *o = x->kind == GET || x->operand ? &x->o : &x->r;
  dlp_rma_shape s = {.get = x->kind == GET || x->kind == GET_ACC, .n = x->n,
                     .esize = (size_t)x->esize, .origin_dense = o->dense,
                     .lockstep_ok = x->kind != GET_ACC && !o->dense};
  s.k = blocks_of(&x->t);
  s.k_origin = blocks_of(o);
  s.far = far_apart(&x->t, s.k);
  s.far_origin = far_apart(o, s.k_origin);
  return s;
}

/* the shape for weighing a copy into mapped memory, which alone compares
   the two types (a cost growing with them) */
static dlp_rma_shape map_shape_of(const rma *x)
{
  dlp_rma_shape s = shape_of(x);
  dl_aint shift;
  s.twin = (x->kind == PUT || x->kind == GET) &&
           dli_copy_twins(x->o.t, x->t.t, x->n, &shift);
  return s;
}

/* the route of least predicted time (rma_model.c), each route's time in t */
static int predict(rma *x, double t[DLP_NROUTES])
{
  dlp_rma_shape s = shape_of(x);
  return dlp_rma_best(&s, t, &x->chunk, &x->lockstep);
}

/* a put or get, not a request form, in a fence epoch, of a target layout
   with gaps: it may land (landing.c) */
static bool may_land(const rma *x, bool req)
{
  return (x->kind == PUT || x->kind == GET) && !req && !x->t.dense &&
         dlp_cfg()->land >= 0 && dlp_landing_open(dlp_win_landing(x->w));
}

/* one that may land does where DL_RMA_LAND=always (whatever DL_STRATEGY
   forces), or where no route is forced and the model predicts it beats
   the route chosen; x->chunk: its landings' size */
static bool lands(rma *x, bool req, int route, const double t[DLP_NROUTES])
{
  int land = dlp_cfg()->land;
  if (!may_land(x, req))
    return false;
  dlp_rma_shape s = shape_of(x);
  size_t chunk;
  double cost = dlp_rma_land_cost(&s, &chunk);
  if (land == 0 && (dlp_cfg()->strategy >= 0 || cost >= t[route]))
    return false;
  x->chunk = chunk;
  return true;
}

/* an operation into mapped memory that may land: it does, unless
   DL_RMA_MAP=always, where the model predicts landing beats the copy here
   (dlp_rma_land_beats_map: blocks far apart on both sides, each a miss,
   that the two processes then take in parallel); x->chunk: its landings'
   size */
static bool land_beats_copy(rma *x, bool req)
{
  if (dlp_cfg()->map > 0 || !may_land(x, req))
    return false;
  dlp_rma_shape s = map_shape_of(x);
  if (!dlp_rma_land_beats_map(&s))
    return false;
  dlp_rma_land_cost(&s, &x->chunk);
  return true;
}

/* forced, or the route of least predicted time; *land: the operation
   lands instead (in landings of x->chunk bytes) */
static int choose(rma *x, bool req, bool *land)
{
  int forced = dlp_cfg()->strategy;
  *land = false;
  if (x->el == MPI_DATATYPE_NULL)
    return DLP_R_MPICH;
  double t[DLP_NROUTES];
  int best = predict(x, t);
  *land = lands(x, req, forced >= 0 ? forced : best, t);
  if (*land || forced == DLP_R_MPICH)
    return forced >= 0 ? forced : best;
  size_t esize = (size_t)x->esize;
  if (strcmp(dlp_th()->chunk_from, "environment") == 0)
    x->chunk = dlp_chunk() / esize * esize;
  return forced >= 0 ? forced : best;
}

/* a put or get whose target memory is mapped here: copied, where
   DL_RMA_MAP=always, or unless a route or landing is forced; the target's
   memory, or NULL */
static char *maps(const rma *x)
{
  const dlp_config *c = dlp_cfg();
  if ((x->kind != PUT && x->kind != GET) || c->map < 0 ||
      (c->map == 0 && (c->strategy >= 0 || c->land > 0)))
    return NULL;
  return dlp_win_mapped(x->w, x->rank);
}

/* ---- the calls ---- */

/* x from the call's arguments: MPI_SUCCESS, or DLP_PASS where MPICH takes
   the user's arguments (invalid ones it judges, sizes that differ, data
   with nothing to rearrange) */
static int describe(rma *x, const rma_args *a)
{
  *x = (rma){.kind = a->kind, .op = a->op, .rank = a->rank, .disp = a->disp,
             .win = a->win};
  x->operand = a->kind != GET && !(a->kind == GET_ACC && a->op == MPI_NO_OP);
  dlp_win *w = dlp_win_of(a->win);
  MPI_Aint size;
  /* a negative displacement is MPICH's to refuse (MPI_ERR_DISP) */
  if (a->rank == MPI_PROC_NULL || a->disp < 0 || !w ||
      !dlp_win_target(w, a->rank, &size, &x->unit))
    return DLP_PASS;
  x->w = w;
  if (dlp_data_get(NULL, a->tcount, a->ttype, &x->t) != MPI_SUCCESS)
    return DLP_PASS;
  bool straight = dlp_straight(&x->t);
  int rc = MPI_SUCCESS;
  if (a->kind == GET)
    rc = dlp_data_get(a->result, a->rcount, a->rtype, &x->o);
  else if (x->operand)
    rc = dlp_data_get(a->origin, a->ocount, a->otype, &x->o);
  if (rc == MPI_SUCCESS && a->kind == GET_ACC)
    rc = dlp_data_get(a->result, a->rcount, a->rtype, &x->r);
  if (rc != MPI_SUCCESS)
    return DLP_PASS;
  x->n = x->t.bytes;
  if ((x->operand || a->kind == GET) && x->o.bytes != x->n)
    return DLP_PASS;
  if (a->kind == GET_ACC && x->r.bytes != x->n)
    return DLP_PASS;
#if MPI_VERSION < 4
  /* a host of MPI 3.1 takes int counts only, which the routes' staged
     bytes may pass: such an operation is the host's whole */
  if (x->n > INT_MAX)
    return DLP_PASS;
#endif
  /* DLP_DEV_RMA_NO_RANGE_CHECK: every operation is checked here */
  if (x->n > 0 && size >= 0 && !in_window(x, size))
    return MPI_ERR_RMA_RANGE;
  bool has_o = x->operand || a->kind == GET;
  straight = straight && (!has_o || dlp_straight(&x->o)) &&
             (a->kind != GET_ACC || dlp_straight(&x->r));
  x->derived = !x->t.named || (has_o && !x->o.named) ||
               (a->kind == GET_ACC && !x->r.named);
  /* dense or predefined data MPICH moves as it is, but into mapped memory
     the copy here is faster (DLP_DEV_SHARED_WINDOW_SLOW_COPY) */
  if (x->n == 0 ||
      (straight && (!maps(x) || !dlp_host_has(DLP_DEV_SHARED_WINDOW_SLOW_COPY))))
    return DLP_PASS;
  x->el = element(x, &x->esize);
  x->read_acc = a->kind == GET && dlp_win_started(w);
  return MPI_SUCCESS;
}

int dlp_rma_predict(bool get, const void *buf, MPI_Count count, MPI_Datatype dt, int rank,
                    MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
                    double t[DLP_NROUTES + 2])
{
  rma_args a = {.kind = get ? GET : PUT, .origin = buf, .ocount = count, .otype = dt,
                .result = (void *)buf, .rcount = count, .rtype = dt, .rank = rank,
                .disp = disp, .tcount = tcount, .ttype = ttype,
                .op = get ? MPI_NO_OP : MPI_REPLACE, .win = win};
  rma x;
  if (describe(&x, &a) != MPI_SUCCESS || x.el == MPI_DATATYPE_NULL)
    return -1;
  dlp_rma_shape s = map_shape_of(&x);
  t[DLP_RMA_LANDED] = dlp_rma_land_cost(&s, NULL);
  t[DLP_RMA_MAPPED] = dlp_rma_map_cost(&s);
  return predict(&x, t);
}

/* the route of x (described, not DLP_PASS): into mapped memory, landed,
   or the model's (or the forced) choice */
static int pick(rma *x, bool req)
{
  x->mem = maps(x);
  bool land = x->mem && land_beats_copy(x, req);
  if (x->mem && !land)
    return DLP_RMA_R_MAPPED;
  int route = land ? DLP_R_PACK : choose(x, req, &land);
  if (land)
    return DLP_RMA_R_LANDED;
  return route == DLP_R_MPICH ? DLP_RMA_R_MPICH
       : route == DLP_R_BLOCKS ? DLP_RMA_R_BLOCKS
       : route == DLP_R_PIPE ? DLP_RMA_R_PIPE : DLP_RMA_R_PACK;
}

/* the target's blocks listed for the routes that issue them (x->ts), and
   the blocks route made what the target's unit allows: packed where a
   block cannot be addressed, lockstep where every piece can and the
   model chose it; false when the list could not be made */
static bool listed(rma *x, int *route)
{
  if (*route != DLP_RMA_R_BLOCKS && *route != DLP_RMA_R_PIPE)
    return true;
  if (dl_segment_create(NULL, x->t.count, x->t.t, &x->ts) != DL_OK)
    return false;
  if (*route == DLP_RMA_R_BLOCKS) {
    int level = dlp_rma_alignment(x, x->ts, x->lockstep);
    *route = level == 0 ? DLP_RMA_R_PACK
           : level == 2 && x->lockstep ? DLP_RMA_R_LOCKSTEP : DLP_RMA_R_BLOCKS;
  }
  x->lockstep = *route == DLP_RMA_R_LOCKSTEP;
  return true;
}

static void count(int route, const rma *x)
{
  if (route == DLP_RMA_R_DIRECT && !x->derived)
    return;                     /* predefined data: not the interposer's */
  for (int i = 0; i < 2; i++)
    if (dlp_rma_routes[route].counted[i] >= 0)
      dlp_rma_count(dlp_rma_routes[route].counted[i]);
}

static int one_sided(const rma_args *a, MPI_Request *req)
{
  rma x;
  int rc = describe(&x, a);
  dlp_win_touch(x.w, a->rank);
  x.args = a;
  x.call = call_names[req != NULL][a->kind];
  if (rc != MPI_SUCCESS && rc != DLP_PASS)
    return dlp_raise_win_msg(a->win, rc, "%s: the target range lies outside rank %d's "
                             "window", x.call, a->rank);
  int route = rc == DLP_PASS ? DLP_RMA_R_DIRECT : pick(&x, req != NULL);
  if (!listed(&x, &route))
    return dlp_raise_win_msg(a->win, MPI_ERR_NO_MEM, "%s: out of memory for staging",
                             x.call);
  rc = dlp_rma_routes[route].issue(&x, req);
  dl_segment_free(&x.ts);
  count(route, &x);
  return rc;
}

/* ---- the MPI entry points ---- */

/* put and accumulate: an operand, no results (op: MPI_REPLACE for a put) */
static int to_target(int kind, const void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                     MPI_Aint disp, MPI_Count tc, MPI_Datatype tt, MPI_Op op, MPI_Win win,
                     MPI_Request *req)
{
  rma_args a = {.kind = kind, .origin = o, .ocount = oc, .otype = ot, .rank = rank,
                .disp = disp, .tcount = tc, .ttype = tt, .op = op, .win = win};
  return one_sided(&a, req);
}

static int get(void *o, MPI_Count oc, MPI_Datatype ot, int rank, MPI_Aint disp,
               MPI_Count tc, MPI_Datatype tt, MPI_Win win, MPI_Request *req)
{
  rma_args a = {.kind = GET, .result = o, .rcount = oc, .rtype = ot, .rank = rank,
                .disp = disp, .tcount = tc, .ttype = tt, .op = MPI_NO_OP, .win = win};
  return one_sided(&a, req);
}

static int get_acc(const void *o, MPI_Count oc, MPI_Datatype ot, void *r, MPI_Count rc,
                   MPI_Datatype rt, int rank, MPI_Aint disp, MPI_Count tc,
                   MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request *req)
{
  rma_args a = {.kind = GET_ACC, .origin = o, .ocount = oc, .otype = ot, .result = r,
                .rcount = rc, .rtype = rt, .rank = rank, .disp = disp, .tcount = tc,
                .ttype = tt, .op = op, .win = win};
  return one_sided(&a, req);
}

#define ORIGIN(T) const void *origin_addr, T origin_count, MPI_Datatype origin_datatype
#define TARGET(T)                                                           \
  int target_rank, MPI_Aint target_disp, T target_count,                    \
      MPI_Datatype target_datatype
#define O origin_addr, origin_count, origin_datatype
#define TG target_rank, target_disp, target_count, target_datatype

int MPI_Put(ORIGIN(int), TARGET(int), MPI_Win win)
{
  return to_target(PUT, O, TG, MPI_REPLACE, win, NULL);
}

int MPI_Rput(ORIGIN(int), TARGET(int), MPI_Win win, MPI_Request *request)
{
  return to_target(PUT, O, TG, MPI_REPLACE, win, request);
}

int MPI_Accumulate(ORIGIN(int), TARGET(int), MPI_Op op, MPI_Win win)
{
  return to_target(ACC, O, TG, op, win, NULL);
}

int MPI_Raccumulate(ORIGIN(int), TARGET(int), MPI_Op op, MPI_Win win,
                    MPI_Request *request)
{
  return to_target(ACC, O, TG, op, win, request);
}

#define RESULT(T) void *result_addr, T result_count, MPI_Datatype result_datatype
#define R result_addr, result_count, result_datatype

int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            TARGET(int), MPI_Win win)
{
  return get(O, TG, win, NULL);
}

int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             TARGET(int), MPI_Win win, MPI_Request *request)
{
  return get(O, TG, win, request);
}

int MPI_Get_accumulate(ORIGIN(int), RESULT(int), TARGET(int), MPI_Op op, MPI_Win win)
{
  return get_acc(O, R, TG, op, win, NULL);
}

int MPI_Rget_accumulate(ORIGIN(int), RESULT(int), TARGET(int), MPI_Op op, MPI_Win win,
                        MPI_Request *request)
{
  return get_acc(O, R, TG, op, win, request);
}

#if MPI_VERSION >= 4   /* MPI-4's large-count forms */
int MPI_Put_c(ORIGIN(MPI_Count), TARGET(MPI_Count), MPI_Win win)
{
  return to_target(PUT, O, TG, MPI_REPLACE, win, NULL);
}

int MPI_Rput_c(ORIGIN(MPI_Count), TARGET(MPI_Count), MPI_Win win, MPI_Request *request)
{
  return to_target(PUT, O, TG, MPI_REPLACE, win, request);
}

int MPI_Accumulate_c(ORIGIN(MPI_Count), TARGET(MPI_Count), MPI_Op op, MPI_Win win)
{
  return to_target(ACC, O, TG, op, win, NULL);
}

int MPI_Raccumulate_c(ORIGIN(MPI_Count), TARGET(MPI_Count), MPI_Op op, MPI_Win win,
                      MPI_Request *request)
{
  return to_target(ACC, O, TG, op, win, request);
}

int MPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
              TARGET(MPI_Count), MPI_Win win)
{
  return get(O, TG, win, NULL);
}

int MPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               TARGET(MPI_Count), MPI_Win win, MPI_Request *request)
{
  return get(O, TG, win, request);
}

int MPI_Get_accumulate_c(ORIGIN(MPI_Count), RESULT(MPI_Count), TARGET(MPI_Count),
                         MPI_Op op, MPI_Win win)
{
  return get_acc(O, R, TG, op, win, NULL);
}

int MPI_Rget_accumulate_c(ORIGIN(MPI_Count), RESULT(MPI_Count), TARGET(MPI_Count),
                          MPI_Op op, MPI_Win win, MPI_Request *request)
{
  return get_acc(O, R, TG, op, win, request);
}
#endif
