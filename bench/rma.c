/* dataloop-rma-bench: one-sided transfers of derived datatypes between two
 * ranks, rank 0 the origin and rank 1 the target (doc/rma.md).
 *
 *   mpiexec -n 2 dataloop-rma-bench [--quick | --full] [--filter NAME] [--out DIR]
 *   (--help explains each option)
 *
 * Patterns: the three faces of a 256^3 cube of doubles, the last interior
 * layer of one cube put into the first (ghost) layer of the other (got
 * back too); the block a 2D FFT's transpose moves between two slabs;
 * WRF's halo of nine arrays (DDTBench's x and y cases); the atoms a
 * molecular dynamics code moves to a neighbour; SPECFEM3D-like points of
 * 4 and 12 bytes at random places on one side and consecutive on the
 * other. Each under MPI_Win_fence (a fence closes every
 * epoch) and under MPI_Win_lock_all (an MPI_Win_flush closes every epoch),
 * in nine variants interleaved batch by batch:
 *   manual    hand-written pack loop, one contiguous PMPI_Put into a
 *             staging slot of the target's window, the target's
 *             hand-written unpack after the epoch (two slots: the target
 *             unpacks one while the next epoch fills the other; under
 *             lock_all a message tells the target, one back frees the
 *             slot); a dense side is neither packed nor staged. Gets
 *             mirror it (the target packs, the origin unpacks).
 *   MPICH     PMPI_Put (PMPI_Get) with the origin and target datatypes
 *   dl-pack, dl-blocks, dl-pipe, dl-mpich   the interposer's MPI_Put
 *             (MPI_Get) with that route forced
 *   dl-land   puts and gets of fence epochs landed (DL_RMA_LAND=always:
 *             unpacked, packed, by the target's fence; under lock the
 *             automatic choice)
 *   dl-map    puts and gets copied into the target's memory, mapped here
 *             (DL_RMA_MAP=always; the window is MPI_Win_allocate's on one
 *             node, which the interposer makes shared)
 *   auto      the interposer's MPI_Put (MPI_Get), its route chosen
 * The interposer's code is linked in, so MPI_Put here is the interposer's
 * and PMPI_Put MPICH's; the manual and MPICH variants use a window made by
 * PMPI_Win_allocate, the others one made by MPI_Win_allocate (which the
 * interposer makes shared on one node). An epoch's time is a batch's on the slower rank
 * over its epochs, so the target's unpacking counts. Before timing, the
 * receiving rank's memory after one epoch of each variant (the whole of
 * it, in and around the layout) is compared byte for byte with the manual
 * variant's. Each forced route's row also shows what the one-sided model
 * (rma_model.c, under the tuning file in use) predicts for one epoch of it.
 * Results also go to DIR/rma.csv and DIR/rma-auto.csv. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "preload.h"

enum { V_MANUAL, V_MPICH, V_PACK, V_BLOCKS, V_PIPE, V_DLMPICH, V_LAND, V_MAP, V_AUTO,
       NVAR };
static const char *const var_names[NVAR] = {"manual",   BENCH_HOST,   "dl-pack",
                                            "dl-blocks", "dl-pipe", "dl-mpich",
                                            "dl-land",  "dl-map",  "auto"};
static const int forced[NVAR] = {[V_MANUAL] = -1,         [V_MPICH] = -1,
                                 [V_PACK] = DLP_R_PACK,   [V_BLOCKS] = DLP_R_BLOCKS,
                                 [V_PIPE] = DLP_R_PIPE,   [V_DLMPICH] = DLP_R_MPICH,
                                 [V_LAND] = -1,           [V_MAP] = -1,
                                 [V_AUTO] = -1};
enum { S_FENCE, S_LOCK, NSYNC };
static const char *const sync_names[NSYNC] = {"fence", "lock"};
/* PUT and GET: rma.h's operation kinds */
enum { TAG_READY = 31, TAG_DONE };
enum { CUBE = 256, FFT_DIM = 1024, POINTS = 1 << 20 };

typedef bench_pair_opts opts;

typedef struct stat3 {
  double med, lo, hi;    /* microseconds per epoch */
} stat3;

static int rank;

/* one side of a transfer: memlen bytes of memory, the layout its MPI type
   (count 1) describes from byte off, and the hand-written loops over it
   (given the whole memory); a dense layout moves as it lies */
typedef struct side {
  size_t memlen, off;
  bool dense;
  MPI_Datatype type;
  bparams p;
  manual_pack_fn pack;
  manual_unpack_fn unpack;
} side;

typedef struct pattern {
  char name[48];
  int op;
  size_t bytes;         /* the stream */
  side o, t;            /* rank 0's memory; rank 1's window */
  dl_count *idx;        /* points: their indices */
  int *disp;            /* and the displacements of the MPI type */
} pattern;

typedef struct pentry {
  const char *name;
  void (*make)(pattern *pt, const struct pentry *e);
  int op, a, b, c;      /* the family's parameters */
} pentry;

/* ---- the patterns ---- */

/* a face of cube[z][y][x] (which: 0 XY, z fixed; 1 XZ; 2 YZ, x fixed) */
static void face_side(side *s, int which, size_t fixed)
{
  static const manual_pack_fn packs[3] = {man_face_xy_pack, man_face_xz_pack,
                                          man_face_yz_pack};
  static const manual_unpack_fn unpacks[3] = {man_face_xy_unpack, man_face_xz_unpack,
                                              man_face_yz_unpack};
  const int n = CUBE;
  MPI_Datatype col;
  s->memlen = (size_t)n * n * n * 8;
  s->p.n = n;
  s->p.esize = 8;
  s->p.fixed = fixed;
  s->pack = packs[which];
  s->unpack = unpacks[which];
  if (which == 0) {
    s->off = fixed * n * n * 8;
    s->dense = true;
    MPI_Type_contiguous(n * n, MPI_DOUBLE, &s->type);
  } else if (which == 1) {
    s->off = fixed * n * 8;
    MPI_Type_vector(n, n, n * n, MPI_DOUBLE, &s->type);
  } else {
    s->off = fixed * 8;
    MPI_Type_vector(n, 1, n, MPI_DOUBLE, &col);
    MPI_Type_create_hvector(n, 1, (MPI_Aint)n * n * 8, col, &s->type);
    MPI_Type_free(&col);
  }
  MPI_Type_commit(&s->type);
}

/* the sender's last interior layer into the receiver's ghost layer */
static void face(pattern *pt, const pentry *e)
{
  size_t send = CUBE - 2, ghost = 0;
  face_side(&pt->o, e->a, e->op == PUT ? send : ghost);
  face_side(&pt->t, e->a, e->op == PUT ? ghost : send);
  pt->bytes = (size_t)CUBE * CUBE * 8;
}

/* A 2D FFT of FFT_DIM^2 complex doubles on two ranks, rows split in
   slabs: the transpose moves rank 0's n x n block of rank 1's columns,
   read column by column (a vector of column vectors), into rows of rank 1's
   transposed slab at the columns of rank 0's rows (n rows of n complex,
   FFT_DIM apart). */
static void fft(pattern *pt, const pentry *e)
{
  (void)e;
  const int dim = FFT_DIM, n = FFT_DIM / 2;
  MPI_Datatype cx, col;
  MPI_Type_contiguous(2, MPI_DOUBLE, &cx);
  pt->o.memlen = pt->t.memlen = (size_t)n * dim * 16;
  pt->o.p.n = pt->t.p.n = (size_t)n;
  pt->o.p.nx = pt->t.p.nx = (size_t)dim;
  pt->o.off = (size_t)n * 16;
  pt->o.p.k[0] = (size_t)n;
  pt->o.pack = man_fft_block_pack;
  MPI_Type_vector(n, 1, dim, cx, &col);
  MPI_Type_create_hvector(n, 1, 16, col, &pt->o.type);
  pt->t.unpack = man_fft_rows_unpack;
  MPI_Type_vector(n, n, dim, cx, &pt->t.type);
  MPI_Type_free(&col);
  MPI_Type_free(&cx);
  MPI_Type_commit(&pt->o.type);
  MPI_Type_commit(&pt->t.type);
  pt->bytes = (size_t)n * n * 16;
}

/* WRF's halo exchange (bench/apps.c; e->a: case x, else y): the
   sender's strip of nine float arrays at DDTBench's place (i = 22, j = 7)
   into the receiver's first (ghost) strip; a struct of subarrays, 12-byte
   blocks (x) or 92-byte rows (y) */
static void wrf(pattern *pt, const pentry *e)
{
  static const size_t send[2] = {7, 22};
  int size = 0;
  pt->o.memlen = bench_wrf_halo(e->a, send[e->a], &pt->o.p, &pt->o.type);
  pt->t.memlen = bench_wrf_halo(e->a, 0, &pt->t.p, &pt->t.type);
  pt->o.pack = pt->t.pack = man_wrf_pack;
  pt->o.unpack = pt->t.unpack = man_wrf_unpack;
  MPI_Type_size(pt->o.type, &size);
  pt->bytes = (size_t)size;
}

/* molecular dynamics atoms, C structs {int tag; double x[3], v[3]; int
   type;} with natural alignment (64-byte extent, 56 bytes of data; as
   dataloop-bench's Atoms): n of them from `at` on, or at the indices of
   idx (nidx of them) when idx is given */
static void atom_side(side *s, size_t at, size_t n, const dl_count *idx, const int *disp,
                      int nidx)
{
  int bl[4] = {1, 3, 3, 1};
  MPI_Aint d[4] = {0, 8, 32, 56};
  MPI_Datatype mt[4] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE, MPI_INT}, st, atom;
  MPI_Type_create_struct(4, bl, d, mt, &st);
  MPI_Type_create_resized(st, 0, 64, &atom);
  s->memlen = n * 64;
  s->off = at * 64;
  if (idx) {
    s->p.idx = idx;
    s->p.nidx = (size_t)nidx;
    s->pack = man_atoms_pick_pack;
    s->unpack = man_atoms_pick_unpack;
    MPI_Type_create_indexed_block(nidx, 1, disp, atom, &s->type);
  } else {
    s->p.n = n - at;
    s->p.k[0] = at;
    s->pack = man_atoms_pack;
    s->unpack = man_atoms_unpack;
    MPI_Type_contiguous((int)(n - at), atom, &s->type);
  }
  MPI_Type_commit(&s->type);
  MPI_Type_free(&st);
  MPI_Type_free(&atom);
}

/* LAMMPS-like exchange: e->b atoms leaving rank 0's domain, one in each
   group of ten of its e->a atoms (bench_atoms_leaving), appended to the e->a - e->b atoms rank 1 keeps */
static void atoms(pattern *pt, const pentry *e)
{
  const int n = e->a, nb = e->b;
  pt->idx = malloc(sizeof(dl_count) * (size_t)nb);
  pt->disp = malloc(sizeof(int) * (size_t)nb);
  if (!pt->idx || !pt->disp) {
    fprintf(stderr, "out of memory for %s\n", pt->name);
    exit(1);
  }
  bench_atoms_leaving(n, nb, pt->idx);
  for (int i = 0; i < nb; i++)
    pt->disp[i] = (int)pt->idx[i];
  atom_side(&pt->o, 0, (size_t)n, pt->idx, pt->disp, nb);
  atom_side(&pt->t, (size_t)(n - nb), (size_t)n, NULL, NULL, 0);
  pt->bytes = (size_t)nb * 56;
}

/* e->b points of e->a floats (a SPECFEM3D scalar or 3-vector per grid
   point): distinct points of POINTS in random order on one side (the
   origin's: a gather; the target's, e->c: a scatter), consecutive on the
   other */
static void points(pattern *pt, const pentry *e)
{
  const int fl = e->a, nb = e->b;
  pt->idx = malloc(sizeof(dl_count) * (size_t)nb);
  pt->disp = malloc(sizeof(int) * (size_t)nb);
  uint32_t *perm = malloc(sizeof(uint32_t) * POINTS);
  if (!pt->idx || !pt->disp || !perm) {
    fprintf(stderr, "out of memory for %s\n", pt->name);
    exit(1);
  }
  for (uint32_t i = 0; i < POINTS; i++)
    perm[i] = i;
  uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)(nb * fl);
  for (int i = 0; i < nb; i++) {     /* the first nb of a random shuffle */
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    uint32_t j = (uint32_t)i + (uint32_t)(x % (uint64_t)(POINTS - i)), s = perm[i];
    perm[i] = perm[j];
    perm[j] = s;
    pt->idx[i] = perm[i];
    pt->disp[i] = (int)perm[i] * fl;
  }
  free(perm);
  side *rnd = e->c ? &pt->t : &pt->o, *seq = e->c ? &pt->o : &pt->t;
  rnd->memlen = (size_t)POINTS * 4 * fl;
  rnd->p.k[0] = (size_t)fl;
  rnd->p.idx = pt->idx;
  rnd->p.nidx = (size_t)nb;
  rnd->pack = man_points_pack;
  rnd->unpack = man_points_unpack;
  MPI_Type_create_indexed_block(nb, fl, pt->disp, MPI_FLOAT, &rnd->type);
  seq->memlen = (size_t)nb * 4 * fl;
  seq->dense = true;
  MPI_Type_contiguous(nb * fl, MPI_FLOAT, &seq->type);
  MPI_Type_commit(&rnd->type);
  MPI_Type_commit(&seq->type);
  pt->bytes = (size_t)nb * 4 * fl;
}

static const pentry patterns[] = {
  {"XY face put", face, PUT, 0, 0, 0},
  {"XZ face put", face, PUT, 1, 0, 0},
  {"YZ face put", face, PUT, 2, 0, 0},
  {"FFT transpose put", fft, PUT, 0, 0, 0},
  {"WRF x halo put", wrf, PUT, 1, 0, 0},
  {"WRF y halo put", wrf, PUT, 0, 0, 0},
  {"Atoms exchange put", atoms, PUT, 100000, 10000, 0},
  {"irregular 4B x100k gather put", points, PUT, 1, 100000, 0},
  {"irregular 4B x100k scatter put", points, PUT, 1, 100000, 1},
  {"irregular 12B x100k gather put", points, PUT, 3, 100000, 0},
  {"irregular 12B x100k scatter put", points, PUT, 3, 100000, 1},
  {"irregular 4B x4k gather put", points, PUT, 1, 4096, 0},
  {"irregular 12B x4k gather put", points, PUT, 3, 4096, 0},
  {"XY face get", face, GET, 0, 0, 0},
  {"XZ face get", face, GET, 1, 0, 0},
  {"YZ face get", face, GET, 2, 0, 0},
};
enum { NPAT = sizeof(patterns) / sizeof(patterns[0]) };

static void pattern_free(pattern *pt)
{
  MPI_Type_free(&pt->o.type);
  MPI_Type_free(&pt->t.type);
  free(pt->idx);
  free(pt->disp);
}

/* ---- epochs ---- */

typedef struct ctx {
  const pattern *pt;
  int sync;
  MPI_Win win;          /* the interposer's MPI_Win_allocate */
  char *wmem;           /* rank 1: the window (the layout's memory, slots) */
  MPI_Win pwin;         /* PMPI_Win_allocate's: the manual and MPICH variants'
                           window, as a program has it without the interposer
                           (made first: made after the interposer's shared
                           one, its contiguous puts ran 4x slower in three
                           filtered runs here, a cause not found) */
  char *pwmem;
  char *omem;           /* rank 0: the origin's memory */
  char *sbuf;           /* rank 0: the manual variant's packed stream */
  size_t slot0, slotlen;
} ctx;

static MPI_Aint slot(const ctx *c, long i)
{
  return (MPI_Aint)(c->slot0 + (size_t)(i % 2) * c->slotlen);
}

static void note(int tag)
{
  PMPI_Send(NULL, 0, MPI_BYTE, 1 - rank, tag, MPI_COMM_WORLD);
}

static void await(int tag)
{
  PMPI_Recv(NULL, 0, MPI_BYTE, 1 - rank, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* the operation with the user's types: MPICH's, or the interposer's */
static void typed(const ctx *c, int v)
{
  const pattern *pt = c->pt;
  char *o = c->omem + pt->o.off;
  MPI_Aint d = (MPI_Aint)pt->t.off;
  if (pt->op == PUT && v == V_MPICH)
    PMPI_Put(o, 1, pt->o.type, 1, d, 1, pt->t.type, c->win);
  else if (pt->op == PUT)
    MPI_Put(o, 1, pt->o.type, 1, d, 1, pt->t.type, c->win);
  else if (v == V_MPICH)
    PMPI_Get(o, 1, pt->o.type, 1, d, 1, pt->t.type, c->win);
  else
    MPI_Get(o, 1, pt->o.type, 1, d, 1, pt->t.type, c->win);
}

static void origin_epochs(const ctx *c, int v, long n)
{
  const pattern *pt = c->pt;
  bool fence = c->sync == S_FENCE, man = v == V_MANUAL, staged = man && !pt->t.dense;
  int nb = (int)pt->bytes;
  for (long i = 0; i < n; i++) {
    if (!man) {
      typed(c, v);
    } else if (pt->op == PUT) {
      const char *src = c->omem + pt->o.off;
      if (!pt->o.dense) {
        pt->o.pack(&pt->o.p, c->omem, c->sbuf);
        src = c->sbuf;
      }
      if (staged && !fence && i >= 2)
        await(TAG_DONE);            /* slot i % 2 unpacked */
      PMPI_Put(src, nb, MPI_BYTE, 1, staged ? slot(c, i) : (MPI_Aint)pt->t.off, nb,
               MPI_BYTE, c->win);
    } else {
      char *dst = pt->o.dense ? c->omem + pt->o.off : c->sbuf;
      if (staged && !fence)
        await(TAG_READY);           /* slot i % 2 packed */
      PMPI_Get(dst, nb, MPI_BYTE, 1, staged ? slot(c, i) : (MPI_Aint)pt->t.off, nb,
               MPI_BYTE, c->win);
    }
    if (fence)
      MPI_Win_fence(0, c->win);
    else
      MPI_Win_flush(1, c->win);
    if (staged && !fence)
      note(pt->op == PUT ? TAG_READY : TAG_DONE);
    if (man && pt->op == GET && !pt->o.dense)
      pt->o.unpack(&pt->o.p, c->omem, c->sbuf);
  }
  if (staged && !fence && pt->op == PUT)
    for (long i = n < 2 ? 0 : n - 2; i < n; i++)
      await(TAG_DONE);
}

/* the target: fences, and the manual variant's staging */
static void target_epochs(const ctx *c, int v, long n)
{
  const pattern *pt = c->pt;
  bool fence = c->sync == S_FENCE, staged = v == V_MANUAL && !pt->t.dense;
  for (long i = 0; i < n; i++) {
    if (!staged) {
      if (fence)
        MPI_Win_fence(0, c->win);
    } else if (pt->op == PUT) {
      if (fence) {
        MPI_Win_fence(0, c->win);
      } else {
        await(TAG_READY);
        MPI_Win_sync(c->win);
      }
      pt->t.unpack(&pt->t.p, c->wmem, c->wmem + slot(c, i));
      if (!fence)
        note(TAG_DONE);
    } else if (fence) {               /* slot 0 was packed before the batch */
      pt->t.pack(&pt->t.p, c->wmem, c->wmem + slot(c, i + 1));
      MPI_Win_fence(0, c->win);
    } else {
      if (i >= 2)
        await(TAG_DONE);
      pt->t.pack(&pt->t.p, c->wmem, c->wmem + slot(c, i));
      MPI_Win_sync(c->win);
      note(TAG_READY);
    }
  }
  if (staged && !fence && pt->op == GET)
    for (long i = n < 2 ? 0 : n - 2; i < n; i++)
      await(TAG_DONE);
}

/* variant v's view of c: its window */
static ctx of_variant(const ctx *c, int v)
{
  ctx cv = *c;
  if (v == V_MANUAL || v == V_MPICH) {
    cv.win = c->pwin;
    cv.wmem = c->pwmem;
  }
  return cv;
}

/* n epochs of variant v: seconds on the slower rank */
static double batch(const ctx *cc, int v, long n)
{
  ctx cv = of_variant(cc, v);
  const ctx *c = &cv;
  bool fence = c->sync == S_FENCE;
  dlp_configure_strategy(forced[v]);
  dlp_configure_land(v == V_LAND ? 1 : 0);
  dlp_configure_map(v == V_MAP ? 1 : 0);
  if (rank == 1 && fence && v == V_MANUAL && c->pt->op == GET && !c->pt->t.dense)
    c->pt->t.pack(&c->pt->t.p, c->wmem, c->wmem + slot(c, 0));
  if (!fence)
    MPI_Win_lock_all(0, c->win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (fence)
    MPI_Win_fence(0, c->win);
  double t0 = bench_now();
  if (rank == 0)
    origin_epochs(c, v, n);
  else
    target_epochs(c, v, n);
  double dt = bench_now() - t0;
  if (!fence)
    MPI_Win_unlock_all(c->win);
  MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return dt;
}

/* ---- checking and timing ---- */

/* one epoch of each variant into zeroed memory; the receiving rank's whole
   memory must equal what the manual variant left. *route: the route of
   the automatic variant (rank 0's counts). Agreed by both ranks. */
static bool check(const ctx *c, const char **route)
{
  const pattern *pt = c->pt;
  int recv_rank = pt->op == PUT ? 1 : 0;
  size_t len = recv_rank == 1 ? pt->t.memlen : pt->o.memlen;
  char *ref = rank == recv_rank ? malloc(len) : NULL;
  bool ok = rank != recv_rank || ref;
  *route = "?";
  for (int v = 0; v < NVAR && ok; v++) {
    char *mem = recv_rank == 1 ? of_variant(c, v).wmem : c->omem;
    if (rank == recv_rank)
      memset(mem, 0, len);
    /* the counts past the routes': lockstep, landed, mapped */
    unsigned long long before[DLP_NROUTES + 3], after[DLP_NROUTES + 3];
    dl_preload_rma_routes(before, DLP_NROUTES + 3);
    batch(c, v, 1);
    dl_preload_rma_routes(after, DLP_NROUTES + 3);
    if (v == V_AUTO) {
      for (int r = 0; r < DLP_NROUTES; r++)
        if (after[r] > before[r])
          *route = after[DLP_NROUTES + 1] > before[DLP_NROUTES + 1] ? "landed"
                                                                   : dlp_route_name(r);
      if (after[DLP_NROUTES + 2] > before[DLP_NROUTES + 2])
        *route = "mapped";
    }
    int good = 1;
    if (rank == recv_rank && v == V_MANUAL) {
      memcpy(ref, mem, len);
    } else if (rank == recv_rank && memcmp(ref, mem, len)) {
      size_t at = 0;
      while (ref[at] == mem[at])
        at++;
      fprintf(stderr, "%s (%s): %s: rank %d's memory differs from the manual variant's "
              "from byte %zu on\n", pt->name, sync_names[c->sync], var_names[v], rank, at);
      good = 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, &good, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    ok = good;
  }
  free(ref);
  return ok;
}

/* epochs per batch so one batch lasts batch_s (rank 0 decides) */
static long calibrate(const opts *o, const ctx *c, int v)
{
  long n = 1;
  for (;;) {
    double dt = batch(c, v, n);
    long next = dt >= o->batch_s || n > (1l << 24) ? 0
              : dt <= 0 ? n * 16 : (long)(n * (o->batch_s * 1.2 / dt)) + 1;
    MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (!next)
      return n;
    n = next;
  }
}

/* us[v * batches + b]: variant v's time per epoch in round b; each round
   in its own order (bench_order), so none always follows the same one */
static void measure(const opts *o, const ctx *c, double *us)
{
  long iters[NVAR];
  for (int v = 0; v < NVAR; v++)
    iters[v] = calibrate(o, c, v);
  int order[NVAR];
  for (int b = 0; b < o->batches; b++) {
    bench_order(b, NVAR, order);
    for (int k = 0; k < NVAR; k++) {
      int v = order[k];
      us[v * o->batches + b] = batch(c, v, iters[v]) / (double)iters[v] * 1e6;
    }
  }
}

/* batches: at most 64 (11 with --full) */
static stat3 summary(const double *us, int batches)
{
  double r[64];
  memcpy(r, us, sizeof(double) * (size_t)batches);
  stat3 st = {bench_median(r, batches), r[0], r[batches - 1]};
  return st;
}

/* the prediction of variant v's route (-1: none) */
static int route_of(int v)
{
  return v == V_PACK || v == V_BLOCKS || v == V_PIPE || v == V_DLMPICH ? forced[v]
       : v == V_LAND ? DLP_RMA_LANDED : v == V_MAP ? DLP_RMA_MAPPED : -1;
}

/* pred: the model's time of each route (ns; NULL: no prediction) */
static void report(const ctx *c, const double *us, int batches, const char *route,
                   const double *pred, FILE *const files[2])
{
  const pattern *pt = c->pt;
  stat3 st[NVAR];
  for (int v = 0; v < NVAR; v++)
    st[v] = summary(us + v * batches, batches);
  /* operations land only in fence epochs: elsewhere dl-land is the
     automatic choice again */
  int best = V_PACK;
  for (int v = V_BLOCKS; v <= V_MAP; v++)
    if ((v != V_LAND || c->sync == S_FENCE) && st[v].med < st[best].med)
      best = v;
  const int against[3] = {best, V_MPICH, V_MANUAL};
  double by_round[3], by_median[3];
  for (int k = 0; k < 3; k++) {
    by_round[k] = bench_paired(us, batches, V_AUTO, against[k]);
    by_median[k] = st[V_AUTO].med / st[against[k]].med;
  }
  for (int v = 0; v < NVAR; v++) {
    if (v)
      printf("%-31s %7s  %-5s", "", "", "");
    else
      printf("%-31s %7.1f  %-5s", pt->name, pt->bytes / 1024.0, sync_names[c->sync]);
    printf("  %-9s %10.1f  (%9.1f - %9.1f)", var_names[v], st[v].med, st[v].lo,
           st[v].hi);
    double model = pred && route_of(v) >= 0 ? pred[route_of(v)] / 1e3 : -1;
    if (model >= 0)
      printf("  model %9.1f", model);
    printf("\n");
    fprintf(files[0], "\"%s\",%s,%zu,%s,%.2f,%.2f,%.2f,", pt->name, sync_names[c->sync],
            pt->bytes, var_names[v], st[v].med, st[v].lo, st[v].hi);
    if (model >= 0)
      fprintf(files[0], "%.2f", model);
    fprintf(files[0], "\n");
  }
  printf("%-31s %7s  %-5s  auto (%s): %.2f of %s (best forced), %.2f of " BENCH_HOST ", "
         "%.2f of manual, round by round (medians: %.2f, %.2f, %.2f)\n", "", "", "",
         route, by_round[0], var_names[best], by_round[1], by_round[2], by_median[0],
         by_median[1], by_median[2]);
  fprintf(files[1], "\"%s\",%s,%zu,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", pt->name,
          sync_names[c->sync], pt->bytes, route, var_names[best], by_round[0],
          by_round[1], by_round[2], by_median[0], by_median[1], by_median[2]);
  fflush(stdout);
}

static void fill(char *m, size_t n, uint64_t seed)
{
  uint64_t x = seed;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    m[i] = (char)x;
  }
}

/* one pattern under both synchronizations: false when a check failed */
static bool run(const opts *o, const pentry *e, FILE *const files[2])
{
  pattern pt;
  memset(&pt, 0, sizeof(pt));
  snprintf(pt.name, sizeof(pt.name), "%s", e->name);
  pt.op = e->op;
  e->make(&pt, e);
  ctx c = {.pt = &pt};
  c.slot0 = (pt.t.memlen + 63) / 64 * 64;
  c.slotlen = (pt.bytes + 63) / 64 * 64;
  size_t wlen = rank == 0 ? 0 : pt.t.dense ? pt.t.memlen : c.slot0 + 2 * c.slotlen;
  PMPI_Win_allocate((MPI_Aint)wlen, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c.pwmem, &c.pwin);
  MPI_Win_allocate((MPI_Aint)wlen, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c.wmem, &c.win);
  if (rank == 0) {
    c.omem = malloc(pt.o.memlen);
    c.sbuf = malloc(pt.bytes);
    if (!c.omem || !c.sbuf) {
      fprintf(stderr, "out of memory for %s\n", pt.name);
      exit(1);
    }
    memset(c.omem, 0, pt.o.memlen);
  }
  /* the sending rank's data */
  if (rank == (pt.op == PUT ? 0 : 1))
    for (int w = 0; w < 2; w++)
      fill(rank ? (w ? c.pwmem : c.wmem) : c.omem, rank ? pt.t.memlen : pt.o.memlen,
           88172645463325252ull);
  bool ok = true;
  double pred[DLP_NROUTES + 2];
  bool predicted = rank == 0 &&
                   dlp_rma_predict(pt.op == GET, c.omem + pt.o.off, 1, pt.o.type, 1,
                                   (MPI_Aint)pt.t.off, 1, pt.t.type, c.win, pred) >= 0;
  double *us = malloc(sizeof(double) * NVAR * (size_t)o->batches);
  for (int s = 0; s < NSYNC && ok; s++) {
    c.sync = s;
    const char *route;
    ok = check(&c, &route);
    if (!ok)
      break;
    measure(o, &c, us);
    if (rank == 0)
      report(&c, us, o->batches, route, predicted ? pred : NULL, files);
  }
  free(us);
  dlp_configure_strategy(-1);
  dlp_configure_land(0);
  dlp_configure_map(0);
  MPI_Win_free(&c.win);
  MPI_Win_free(&c.pwin);
  free(c.omem);
  free(c.sbuf);
  pattern_free(&pt);
  return ok;
}

static void usage(FILE *to, int code)
{
  fprintf(to,
    "usage: mpiexec -n 2 dataloop-rma-bench [--quick | --full] [--filter NAME] "
    "[--out DIR]\n"
    "One-sided puts (and gets) of derived datatypes from rank 0 into rank 1's\n"
    "window, under fence and under lock_all/flush: hand-written packing with a\n"
    "contiguous put, " BENCH_HOST "'s derived-type put, and the interposer's (each route\n"
    "forced, and its automatic choice), after checking what each delivers.\n"
    "  --quick        5 rounds of a batch of >= 10 ms per variant; the default\n"
    "  --full         11 rounds of >= 50 ms\n"
    "  --unpack       accepted and ignored (dataloop-bench's option; the\n"
    "                 receiving side always unpacks)\n"
    "  --filter NAME  only the patterns whose name contains NAME (any case;\n"
    "                 e.g. \"YZ face\", \"irregular\", \"get\"); none matching is an\n"
    "                 error\n"
    "  --out DIR      write rma.csv and rma-auto.csv to DIR, made with its\n"
    "                 parents; default ./" BENCH_OUT_DEFAULT " (in the working\n"
    "                 directory)\n"
    "  -h, --help     this text\n"
    "Runs on exactly 2 ranks. Exit status: 0 when every pattern checked and\n"
    "the files were written, 1 otherwise, 2 for a bad option or rank count.\n");
  exit(code);
}

int main(int argc, char **argv)
{
  opts o = {.out = BENCH_OUT_DEFAULT, .batch_s = 0.01, .batches = 5};
  bench_pair_parse(argc, argv, &o, 11, usage);
  const char *names[NPAT];
  for (int p = 0; p < NPAT; p++)
    names[p] = patterns[p].name;
  /* every rank checks its arguments alike, so both stop together */
  if (!bench_count_matches("dataloop-rma-bench", names, NPAT, o.filter))
    return 1;
  int peer;
  int started = bench_pair_start(&argc, &argv, "dataloop-rma-bench", o.out, &rank, &peer);
  if (started)
    return started;
  FILE *files[2] = {NULL, NULL};    /* rma.csv, rma-auto.csv */
  bench_file bf[2];
  if (rank == 0) {
    files[0] = bench_file_open(&bf[0]);
    fprintf(files[0], "pattern,sync,stream_bytes,variant,median_us,min_us,max_us,"
                      "model_us\n");
    files[1] = bench_file_open(&bf[1]);
    fprintf(files[1], "pattern,sync,stream_bytes,auto_route,best_forced,auto_over_best,"
                      "auto_over_mpich,auto_over_manual,auto_over_best_medians,"
                      "auto_over_mpich_medians,auto_over_manual_medians\n");
    printf("\ndataloop one-sided benchmark (%s): rank 0 origin, rank 1 target; %d rounds "
           "of a batch of >= %.0f ms per variant, medians; pipeline chunk %zu bytes\n",
           o.full ? "full" : "quick", o.batches, o.batch_s * 1e3, dlp_chunk());
    printf("%-31s %7s  %-5s  %-9s %10s  %23s\n", "pattern", "KiB", "sync", "variant",
           "epoch us", "(min - max) us");
  }
  int failed = 0;
  for (int p = 0; p < NPAT; p++)
    if (bench_matches(patterns[p].name, o.filter) && !run(&o, &patterns[p], files))
      failed++;
  if (rank == 0) {
    static const char *const fname[2] = {"rma.csv", "rma-auto.csv"};
    if (!bench_pair_commit("dataloop-rma-bench", bf, o.out, fname))
      failed++;
  }
  MPI_Finalize();
  return failed ? 1 : 0;
}
