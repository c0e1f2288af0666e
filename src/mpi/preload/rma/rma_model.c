/* The cost model that chooses a one-sided operation's route (doc/rma.md):
 * the paper's latency L, overhead per operation o and cost per byte G for
 * contiguous operations; the same for one operation whose target is a
 * derived type (ot, Gt, and ht per target block, which MPICH's engine
 * walks); and the copy cost of packing (per block, per byte, and per block
 * more where the blocks lie far apart). dataloop-tune fits them to the
 * machine it runs on; the times are in nanoseconds. */
#include <math.h>
#include "rma.h"

/* the whole m >= 1 that minimises a / m + b * m (a, b > 0): near sqrt(a / b),
   without libm */
static double best_split(double a, double b)
{
  double m = 1;                      /* floor(sqrt(a / b)), at least 1 */
  while (4 * m * m * b <= a)
    m *= 2;
  for (double step = m / 2; step >= 1; step /= 2)
    if ((m + step) * (m + step) * b <= a)
      m += step;
  return a / (m + 1) + b * (m + 1) < a / m + b * m ? m + 1 : m;
}

/* dataloop's copy of n bytes in k blocks, far apart or not */
static double copy_cost(const dlp_rma_model *md, double n, double k, bool far)
{
  return (md->pb + (far ? md->pf : 0)) * k + md->pn * n;
}

/* the time of route r for shape s (ns); in *m the pipeline's best chunk
   count, or 0 where blocks go from the user's memory */
static double cost(const dlp_rma_link *l, const dlp_rma_model *md, const dlp_rma_shape *s,
                   int r, double *m)
{
  double n = (double)s->n, k = (double)s->k, ko = (double)s->k_origin;
  double copy = s->origin_dense ? 0 : copy_cost(md, n, ko, s->far_origin);
  double derived = l->ot + l->Gt * n + l->ht * k;
  switch (r) {
  case DLP_R_BLOCKS: {
    /* from the packed stream, or (*m = 0) an operation per overlap of an
       origin block and a target block, from the user's memory: at most
       k + k_o of them, k where the blocks line up (assumed) */
    double staged = l->L + copy + k * l->o + l->G * n;
    double lockstep = l->L + (k > ko ? k : ko) * l->o + l->G * n;
    *m = s->lockstep_ok && lockstep < staged ? 0 : 1;
    return *m == 0 ? lockstep : staged;
  }
  case DLP_R_PACK: return l->L + copy + derived;
  case DLP_R_MPICH: return l->L + derived + l->ht * ko;
  case DLP_R_PIPE: {
    /* packing chunk i + 1 overlaps moving chunk i (a put; a get unpacks
       when it is complete, so nothing overlaps): copy / m + m * ot */
    double most = (double)(s->n / s->esize);
    *m = copy > 0 && l->ot > 0 && !s->get ? best_split(copy, l->ot) : 1;
    *m = *m < 1 ? 1 : *m > most ? most : *m;
    double overlapped = s->get ? copy : copy / *m;
    return l->L + overlapped + derived + (*m - 1) * l->ot;
  }
  default: return INFINITY;
  }
}

/* a landing holds at least this many stream bytes: below it the header,
   the message and the target's probe cost more than overlap gains */
#define LAND_MIN (4 << 10)

/* a put landed at the target in m chunks, each packed here, moved as one
   contiguous message and unpacked there block by block while the next is
   packed: the slowest of the three stages sets the pace, the others add
   their share of one chunk, and each chunk past the first a round trip
   (land_L: a message of a landing's size moves once the target, busy
   unpacking, polls for it). A get the other way round, after its request
   went there (one more latency) */
static double land_time(const dlp_rma_model *md, const dlp_rma_link *l, double L0,
                        double pack, double unpack, double n, double m)
{
  double move = l->o * m + md->land_G * n;
  double most = pack > move ? pack : move;
  most = most > unpack ? most : unpack;
  return L0 + most + (pack + move + unpack - most) / m + (m - 1) * md->land_L;
}

double dlp_rma_land_cost(const dlp_rma_shape *s, size_t *chunk)
{
  const dlp_rma_model *md = &dlp_th()->rma;
  const dlp_rma_link *l = s->get ? &md->get : &md->put;
  double n = (double)s->n, k = (double)s->k, ko = (double)s->k_origin;
  /* a landing copies a dense operand too */
  double pack = s->origin_dense ? md->pn * n : copy_cost(md, n, ko, s->far_origin);
  double unpack = copy_cost(md, n, k, s->far);
  double L0 = (s->get ? 2 : 1) * md->land_L;
  size_t forced = dlp_cfg()->land_chunk, c;
  if (forced) {
    c = forced;
  } else {
    /* the m that minimises the share of the two faster stages over m
       against m round trips, as for the pipeline */
    double move1 = l->o + md->land_G * n;
    double most = pack > move1 ? pack : move1;
    most = most > unpack ? most : unpack;
    double rest = pack + move1 + unpack - most;
    double m = rest > 0 ? best_split(rest, md->land_L > 1 ? md->land_L : 1) : 1;
    double most_m = s->n > LAND_MIN ? (double)(s->n / LAND_MIN) : 1;
    m = m > most_m ? most_m : m;
    c = (size_t)((n + m - 1) / m);
    c = c < 1 ? 1 : c;
  }
  if (chunk)
    *chunk = c;
  double m = (double)((s->n + c - 1) / c);
  return land_time(md, l, L0, pack, unpack, n, m < 1 ? 1 : m);
}

/* the two passes of a copy into mapped memory: packing the origin and
   unpacking into the target (0 for a dense side). Alike types take one,
   block to block: a pack, and of the unpack only the misses of blocks
   far apart (the two sides' blocks alike, each block meets a miss on
   either side) */
static void map_passes(const dlp_rma_model *md, const dlp_rma_shape *s, double *pack,
                       double *unpack)
{
  double n = (double)s->n;
  if (s->twin && !s->origin_dense) {
    *pack = copy_cost(md, n, (double)s->k, s->far);
    *unpack = s->far ? md->pf * (double)s->k : 0;
    return;
  }
  *pack = s->origin_dense ? 0 : copy_cost(md, n, (double)s->k_origin, s->far_origin);
  *unpack = s->k <= 1 ? 0 : copy_cost(md, n, (double)s->k, s->far);
}

double dlp_rma_map_cost(const dlp_rma_shape *s)
{
  const dlp_rma_model *md = &dlp_th()->rma;
  double pack, unpack;
  map_passes(md, s, &pack, &unpack);
  return pack + unpack > 0 ? pack + unpack : md->pn * (double)s->n;   /* dense to dense */
}

bool dlp_rma_land_beats_map(const dlp_rma_shape *s)
{
  const dlp_rma_model *md = &dlp_th()->rma;
  const dlp_rma_link *l = s->get ? &md->get : &md->put;
  double pack, unpack;
  map_passes(md, s, &pack, &unpack);
  double saved = pack < unpack ? pack : unpack;
  return saved > md->land_L + l->o + (md->land_G + md->pn) * (double)s->n;
}

int dlp_rma_best(const dlp_rma_shape *s, double t[DLP_NROUTES], size_t *chunk,
                 bool *lockstep)
{
  const dlp_rma_model *md = &dlp_th()->rma;
  const dlp_rma_link *l = s->get ? &md->get : &md->put;
  int best = DLP_R_PACK;
  double m = 1;
  for (int r = 0; r < DLP_NROUTES; r++) {
    double mr = 1;
    t[r] = cost(l, md, s, r, &mr);
    if (r == DLP_R_PIPE)
      m = mr;
    if (r == DLP_R_BLOCKS)
      *lockstep = mr == 0;
  }
  for (int r = 0; r < DLP_NROUTES; r++)
    if (t[r] < t[best])
      best = r;
  size_t e = s->esize, c = (size_t)((double)s->n / m) + 1;
  *chunk = (c + e - 1) / e * e;
  return best;
}
