/* dataloop-pingpong: DDTBench-style ping-pong of derived datatypes between
 * two ranks.
 *
 *   mpiexec -n 2 dataloop-pingpong [--quick | --full] [--filter NAME] [--out DIR]
 *   (--help explains each option)
 *
 * For every pattern, eleven kinds of round trip (rank 0 sends, rank 1
 * receives and sends back), interleaved batch by batch so drift hits all
 * alike:
 *   contig    a contiguous message of the same byte count (the floor)
 *   MPICH     the MPI datatype handed to MPICH (PMPI_Send / PMPI_Recv)
 *   MPICH-pers  the same by MPICH's persistent requests (PMPI_Send_init,
 *             PMPI_Recv_init once; a start and a wait per message)
 *   manual    hand-written pack loop, contiguous send, hand-written unpack
 *   dataloop  the interposer's MPI_Send / MPI_Recv, default mode, its
 *             route chosen from the tuning file (doc/tuning.md)
 *   dl-pers   the interposer's persistent requests (MPI_Send_init,
 *             MPI_Recv_init, routed once; MPI_Start and MPI_Wait), default
 *             mode
 *   dl-pack   the same with packing forced (DL_STRATEGY=pack)
 *   dl-blocks the same with the user's blocks sent as they lie forced
 *             (DL_STRATEGY=blocks)
 *   dl-mpich  the same with MPICH's engine on the user's type forced
 *             (DL_STRATEGY=mpich)
 *   dl-pipe   the interposer in pipeline mode (chunk: DL_PIPELINE_CHUNK),
 *             streams forced (DL_STRATEGY=pipe)
 *   pipe-auto the interposer in pipeline mode, its route chosen among
 *             streams, packing, blocks and MPICH's engine
 * First, on rank 0, MPI_Pack of two small types (count 1) through the
 * interposer against MPICH's own PMPI_Pack, ns per call; then, on both,
 * a type made, committed, sent and freed per message, through the
 * interposer and through MPICH, us per round trip.
 * The interposer's code is linked into this program (what
 * libdataloop-mpi-preload.so holds), so MPI_Send here is the interposer's
 * and PMPI_Send MPICH's; both ranks switch its mode at the same point.
 * Before timing, each kind's received data is checked against a
 * hand-written pack of the sender's, and the automatic kinds run past
 * any calibration (DL_ADAPT=1). Reported: time per round trip (median
 * of the rounds, min-max) and the overhead over the contiguous round trip,
 * (t - t_contig) / t_contig; and each automatic choice against the forced
 * strategy of its mode with the lowest median (dataloop: dl-pack,
 * dl-blocks, dl-mpich; pipe-auto: those and dl-pipe), as the median of the two's
 * per-round ratios (drift between rounds cancels) and as the ratio of
 * their medians. Results also go to DIR/pingpong.csv and
 * DIR/pingpong-auto.csv (default DIR: ./dataloop-results). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench.h"
#include "preload.h"

enum { V_CONTIG, V_MPICH, V_PMPICH, V_MANUAL, V_DL, V_PDL, V_PACK, V_BLOCKS, V_DLMPICH,
       V_PIPE, V_PAUTO, NVAR };
static const char *const var_names[NVAR] = {"contig", BENCH_HOST, BENCH_HOST "-pers", "manual",
                                            "dataloop", "dl-pers", "dl-pack",
                                            "dl-blocks", "dl-mpich", "dl-pipe",
                                            "pipe-auto"};
static const int forced[NVAR] = {[V_PACK] = DLP_R_PACK, [V_BLOCKS] = DLP_R_BLOCKS,
                                 [V_DLMPICH] = DLP_R_MPICH, [V_PIPE] = DLP_R_PIPE,
                                 [V_DL] = -1, [V_PDL] = -1, [V_PAUTO] = -1};
enum { TAG = 17 };
/* round trips an automatic variant runs before it is measured: 96 uses of
   its plan, past a calibration round (DL_ADAPT=1: at most 14 uses);
   measured is how the choice serves a type in use, not its set-up */
enum { WARM_TRIPS = 48 };

typedef bench_pair_opts opts;

typedef struct stat3 {
  double med, lo, hi;    /* microseconds per round trip */
} stat3;

static int rank, peer;

/* the synthetic suite's noncontiguous types, the DDTBench-style patterns of
   the main benchmark, and large blocks */
static const char *const patterns[] = {
  "Struct Array", "Vector (DOUBLE)", "Struct Vector (DOUBLE)", "Indexed (DOUBLE)",
  "3D XZ Face (DOUBLE)", "3D YZ Face (DOUBLE)", "Flash I/O (DOUBLE)", "NAS MG x",
  "NAS MG y", "WRF y (vec)", "FFT transpose", "Large blocks (1 MiB)",
  "Blocks (64 KiB)", NULL};

/* blocks of p->k[0] bytes, p->n of them, each followed by a gap as large */
static void man_blocks_pack(const bparams *p, const char *mem, char *out)
{
  for (size_t i = 0; i < p->n; i++)
    memcpy(out + i * p->k[0], mem + 2 * i * p->k[0], p->k[0]);
}

static void man_blocks_unpack(const bparams *p, char *mem, const char *in)
{
  for (size_t i = 0; i < p->n; i++)
    memcpy(mem + 2 * i * p->k[0], in + i * p->k[0], p->k[0]);
}

/* 32 MiB in blocks of `block` bytes, every other block of the buffer */
static bool blocks(btest *t, size_t block)
{
  t->group = "large blocks";
  t->p.n = (32u << 20) / block;
  t->p.k[0] = block;
  bench_alloc(t, 2 * t->p.n * block);
  t->origin = t->mem;
  t->count = 1;
  t->mpack = man_blocks_pack;
  t->munpack = man_blocks_unpack;
  dl_count n = (dl_count)t->p.n, bl = (dl_count)block;
  BENCH_BUILD(t, build_dl_us, {
    dl_type_hvector(n, bl, 2 * bl, dl_builtin(DL_BYTE), &t->dt);
    dl_type_commit(t->dt);
  });
  BENCH_BUILD(t, build_mpi_us, {
    MPI_Type_create_hvector((int)n, (int)bl, (MPI_Aint)(2 * bl), MPI_BYTE, &t->mt);
    MPI_Type_commit(&t->mt);
  });
  return true;
}

static bool blocks_1m(btest *t)
{
  return blocks(t, 1u << 20);
}

static bool blocks_64k(btest *t)
{
  return blocks(t, 64u << 10);
}

static const bentry local[] = {
  {"Large blocks (1 MiB)", blocks_1m}, {"Blocks (64 KiB)", blocks_64k}, {NULL, NULL}};

static const bentry *find(const char *name)
{
  const bentry *groups[3] = {bench_synthetic, bench_apps, local};
  for (int g = 0; g < 3; g++)
    for (const bentry *e = groups[g]; e->name; e++)
      if (!strcmp(e->name, name))
        return e;
  return NULL;
}

/* ---- one message each way ---- */

static void mode_for(int v)
{
  if (v >= V_DL) {
    dlp_configure(v == V_PIPE || v == V_PAUTO, 0);
    dlp_configure_strategy(forced[v]);
  }
}

/* the route the automatic choice of mode v sends the pattern by */
static const char *auto_choice(btest *t, int v)
{
  mode_for(v);
  dlp_data d;
  if (dlp_data_get(t->origin, t->count, t->mt, &d) != MPI_SUCCESS)
    return "?";
  bool stream = v == V_PAUTO && d.bytes >= dlp_chunk();
  if (v == V_PAUTO && d.bytes == dlp_chunk())
    return dlp_route_name(DLP_R_PIPE);
  if (dlp_straight(&d))
    return dlp_route_name(DLP_R_DIRECT);
  dlp_choice c;
  dlp_choose(&d, stream, false, &c);
  dlp_choice_done(&c, false, false);
  return dlp_route_name(c.route);
}

/* the pattern's persistent requests, made at their variant's first use:
   [0] MPICH's (PMPI_Send_init, PMPI_Recv_init of the MPI type), [1] the
   interposer's (MPI_Send_init, MPI_Recv_init: routed once); a send and a
   receive each */
static MPI_Request pers[2][2] = {{MPI_REQUEST_NULL, MPI_REQUEST_NULL},
                                 {MPI_REQUEST_NULL, MPI_REQUEST_NULL}};

static MPI_Request *pers_req(int v, btest *t, bool recv)
{
  bool dl = v == V_PDL;
  MPI_Request *r = &pers[dl][recv];
  int c = (int)t->count;
  if (*r == MPI_REQUEST_NULL && recv)
    (dl ? MPI_Recv_init : PMPI_Recv_init)(t->origin, c, t->mt, peer, TAG, MPI_COMM_WORLD, r);
  else if (*r == MPI_REQUEST_NULL)
    (dl ? MPI_Send_init : PMPI_Send_init)(t->origin, c, t->mt, peer, TAG, MPI_COMM_WORLD, r);
  return r;
}

static void pers_free(void)
{
  for (int k = 0; k < 2; k++)
    for (int d = 0; d < 2; d++)
      if (pers[k][d] != MPI_REQUEST_NULL)
        MPI_Request_free(&pers[k][d]);
}

/* one start and its completion: the interposer's calls, or MPICH's */
static void pers_run(int v, btest *t, bool recv)
{
  MPI_Request *r = pers_req(v, t, recv);
  if (v == V_PDL) {
    MPI_Start(r);
    MPI_Wait(r, MPI_STATUS_IGNORE);
  } else {
    PMPI_Start(r);
    PMPI_Wait(r, MPI_STATUS_IGNORE);
  }
}

static void send_v(int v, btest *t, char *buf)
{
  int n = (int)t->packed, c = (int)t->count;
  switch (v) {
  case V_CONTIG:
    PMPI_Send(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
    break;
  case V_MPICH:
    PMPI_Send(t->origin, c, t->mt, peer, TAG, MPI_COMM_WORLD);
    break;
  case V_MANUAL:
    t->mpack(&t->p, t->mem, buf);
    PMPI_Send(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
    break;
  case V_PMPICH:
  case V_PDL:
    pers_run(v, t, false);
    break;
  default:
    MPI_Send(t->origin, c, t->mt, peer, TAG, MPI_COMM_WORLD);
  }
}

static void recv_v(int v, btest *t, char *buf)
{
  int n = (int)t->packed, c = (int)t->count;
  switch (v) {
  case V_CONTIG:
    PMPI_Recv(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    break;
  case V_MPICH:
    PMPI_Recv(t->origin, c, t->mt, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    break;
  case V_MANUAL:
    PMPI_Recv(buf, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    t->munpack(&t->p, t->mem, buf);
    break;
  case V_PMPICH:
  case V_PDL:
    pers_run(v, t, true);
    break;
  default:
    MPI_Recv(t->origin, c, t->mt, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void round_trips(int v, btest *t, char *buf, long n)
{
  for (long i = 0; i < n; i++) {
    if (rank == 0) {
      send_v(v, t, buf);
      recv_v(v, t, buf);
    } else {
      recv_v(v, t, buf);
      send_v(v, t, buf);
    }
  }
}

/* ---- per call ---- */

/* ns per MPI_Pack of (in, 1, m) through the interposer (mine) and through
   MPICH's own PMPI_Pack (*theirs), medians of batches taken alternately */
static double pack_ns(MPI_Datatype m, const opts *o, double *theirs)
{
  char in[256] = {0}, out[256];
  double v[2][64];
  long n = o->full ? 2000000 : 500000;
  for (int b = 0; b < o->batches; b++)
    for (int pm = 0; pm < 2; pm++) {
      double t0 = bench_now();
      for (long i = 0; i < n; i++) {
        int p = 0;
        if (pm)
          PMPI_Pack(in, 1, m, out, sizeof(out), &p, MPI_COMM_SELF);
        else
          MPI_Pack(in, 1, m, out, sizeof(out), &p, MPI_COMM_SELF);
        __asm__ volatile("" : : "r"(out) : "memory");
      }
      v[pm][b] = (bench_now() - t0) / (double)n * 1e9;
    }
  *theirs = bench_median(v[1], o->batches);
  return bench_median(v[0], o->batches);
}

static void per_call(const opts *o)
{
  dl_type *d1, *d2;
  MPI_Datatype m1, m2;
  bench_small_types(&d1, &m1, &d2, &m2);
  double s_mpich, v_mpich, s = pack_ns(m1, o, &s_mpich), v = pack_ns(m2, o, &v_mpich);
  printf("MPI_Pack per call, count 1, through the interposer: 64-byte struct %.1f ns "
         "(" BENCH_HOST "'s own %.1f ns, %.2fx), 3-double vector %.1f ns (%.1f ns, %.2fx)\n",
         s, s_mpich, s / s_mpich, v, v_mpich, v / v_mpich);
  dl_type_free(&d1);
  dl_type_free(&d2);
  MPI_Type_free(&m1);
  MPI_Type_free(&m2);
}

/* us per round trip of a vector type made, committed, sent (and received
   into one made alike) and freed every call, as BLACS does: through the
   interposer (mine) or MPICH's own calls (*theirs), medians of batches
   taken alternately on both ranks. fresh: a structure never seen before
   at every call (a stride of its own: decoded and planned anew); else 15
   structures in turn */
static double typed_us(const opts *o, bool fresh, double *theirs)
{
  static double buf[1 << 16];
  double v[2][64];
  long n = o->full ? 4000 : 1000;
  int other = 1 - rank;
  long k = 0;
  for (int b = 0; b < o->batches; b++)
    for (int pm = 0; pm < 2; pm++) {
      PMPI_Barrier(MPI_COMM_WORLD);
      double t0 = bench_now();
      for (long i = 0; i < n; i++, k++) {
        MPI_Datatype t;
        int stride = fresh ? 40 + (int)(k % 8000) : 40;
        PMPI_Type_vector(3 + (int)(k % 5), 2 + (int)(k % 3), stride, MPI_DOUBLE, &t);
        if (pm)
          PMPI_Type_commit(&t);
        else
          MPI_Type_commit(&t);  /* the interposer's, as a program calls it */
        if ((rank == 0) == (i % 2 == 0)) {
          if (pm)
            PMPI_Send(buf, 1, t, other, 0, MPI_COMM_WORLD);
          else
            MPI_Send(buf, 1, t, other, 0, MPI_COMM_WORLD);
        } else if (pm) {
          PMPI_Recv(buf, 1, t, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf, 1, t, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        PMPI_Type_free(&t);
      }
      v[pm][b] = (bench_now() - t0) / (double)n * 2e6;
    }
  *theirs = bench_median(v[1], o->batches);
  return bench_median(v[0], o->batches);
}

static void type_per_call(const opts *o)
{
  double seen_mpich, fresh_mpich;
  double seen = typed_us(o, false, &seen_mpich), fresh = typed_us(o, true, &fresh_mpich);
  if (rank == 0)
    printf("a type per message (made, committed, sent or received, freed), us per round "
           "trip: 15 structures in turn %.2f (" BENCH_HOST "'s own %.2f, %.2fx), a new structure "
           "each %.2f (%.2f, %.2fx)\n",
           seen, seen_mpich, seen / seen_mpich, fresh, fresh_mpich, fresh / fresh_mpich);
}

/* ---- checking and timing ---- */

/* rank 1 receives into zeroed memory; what arrived, packed by hand, must be
   the sender's stream (both ranks fill their memory alike). Agreed by both. */
static bool check(int v, btest *t, char *buf, const char *want)
{
  mode_for(v);
  int ok = 1;
  if (rank == 0) {
    send_v(v, t, buf);
  } else {
    memset(t->mem, 0, t->memlen);
    recv_v(v, t, buf);
    char *got = malloc(t->packed + 1);
    t->mpack(&t->p, t->mem, got);
    ok = memcmp(got, want, t->packed) == 0;
    free(got);
  }
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return ok;
}

/* round trips per batch so one batch lasts batch_s (rank 0 decides) */
static long calibrate(const opts *o, int v, btest *t, char *buf)
{
  mode_for(v);
  long n = 1;
  for (;;) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = bench_now();
    round_trips(v, t, buf, n);
    double dt = bench_now() - t0;
    long next = dt >= o->batch_s || n > (1l << 24) ? 0
              : dt <= 0 ? n * 16 : (long)(n * (o->batch_s * 1.2 / dt)) + 1;
    MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (!next)
      return n;
    n = next;
  }
}

/* us[v * batches + b]: variant v's time per round trip in round b */
static void measure(const opts *o, btest *t, char *buf, double *us)
{
  long iters[NVAR];
  for (int v = 0; v < NVAR; v++) {
    iters[v] = calibrate(o, v, t, buf);
    if (forced[v] < 0)          /* automatic: past any calibration */
      round_trips(v, t, buf, WARM_TRIPS);
  }
  /* each round in its own order (bench_order), so that no variant always
     runs right after the same other one (whose traffic leaves caches and
     MPICH's buffers in its own state) */
  int order[NVAR];
  for (int b = 0; b < o->batches; b++) {
    bench_order(b, NVAR, order);
    for (int k = 0; k < NVAR; k++) {
      int v = order[k];
      mode_for(v);
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = bench_now();
      round_trips(v, t, buf, iters[v]);
      us[v * o->batches + b] = (bench_now() - t0) / (double)iters[v] * 1e6;
    }
  }
}

static stat3 summary(const double *us, int batches)
{
  double *r = malloc(sizeof(double) * (size_t)batches);
  memcpy(r, us, sizeof(double) * (size_t)batches);
  stat3 st = {bench_median(r, batches), r[0], r[batches - 1]};
  free(r);
  return st;
}

/* an automatic variant against the forced one with the lowest median
   among those of its mode */
typedef struct verdict {
  int best;            /* the forced variant */
  double by_median;    /* auto's median over the forced one's */
  double by_round;     /* the median of the per-round ratios */
} verdict;

static verdict judge(const double *us, const stat3 *st, int batches, int v_auto,
                     const int *forced_v, int n)
{
  verdict j = {forced_v[0], 0, 0};
  for (int i = 1; i < n; i++)
    if (st[forced_v[i]].med < st[j.best].med)
      j.best = forced_v[i];
  j.by_median = st[v_auto].med / st[j.best].med;
  j.by_round = bench_paired(us, batches, v_auto, j.best);
  return j;
}

static void print_rows(const btest *t, const stat3 *st, const char *const choice[2],
                       const verdict vd[2], FILE *csv, FILE *acsv)
{
  for (int v = 0; v < NVAR; v++) {
    double ovh = (st[v].med - st[V_CONTIG].med) / st[V_CONTIG].med;
    if (v)
      printf("%-22s %9s", "", "");
    else
      printf("%-22s %9.1f", t->name, t->packed / 1024.0);
    printf("  %-9s %10.1f  (%8.1f - %8.1f)", var_names[v], st[v].med, st[v].lo,
           st[v].hi);
    if (v)
      printf("  %7.2f\n", ovh);
    else
      printf("  %7s\n", "-");
    if (csv)
      fprintf(csv, "\"%s\",%zu,%s,%.2f,%.2f,%.2f,%.4f\n", t->name, t->packed,
              var_names[v], st[v].med, st[v].lo, st[v].hi, ovh);
  }
  /* each automatic choice against the best forced strategy of its mode */
  static const char *const mode[2] = {"auto", "pipe-auto"};
  for (int m = 0; m < 2; m++) {
    printf("%-22s %9s  %s (%s at the end): %.2f of %s's time, round by round "
           "(medians: %.2f)\n", "", "", mode[m], choice[m], vd[m].by_round,
           var_names[vd[m].best], vd[m].by_median);
    if (acsv)
      fprintf(acsv, "\"%s\",%zu,%s,%s,%s,%.4f,%.4f\n", t->name, t->packed,
              var_names[m ? V_PAUTO : V_DL], choice[m], var_names[vd[m].best],
              vd[m].by_round, vd[m].by_median);
  }
  fflush(stdout);
}

/* one pattern on both ranks: false when it could not be built or checked */
static bool run(const opts *o, const bentry *e, FILE *const files[2])
{
  btest t;
  if (!bench_make(e, &t)) {
    bench_free(&t);
    return false;
  }
  dl_pack_size(t.count, t.dt, &t.packed);
  char *buf = malloc(t.packed + 64), *want = malloc(t.packed + 64);
  t.mpack(&t.p, t.mem, want);
  bool ok = true;
  for (int v = 0; v < NVAR && ok; v++)
    if (v != V_CONTIG && !check(v, &t, buf, want)) {
      if (rank == 0)
        fprintf(stderr, "%s: %s: received data differ\n", t.name, var_names[v]);
      ok = false;
    }
  if (ok) {
    stat3 st[NVAR];
    double *us = malloc(sizeof(double) * (size_t)o->batches * NVAR);
    measure(o, &t, buf, us);
    for (int v = 0; v < NVAR; v++)
      st[v] = summary(us + v * o->batches, o->batches);
    static const int def[] = {V_PACK, V_BLOCKS, V_DLMPICH},
                     pipe[] = {V_PACK, V_BLOCKS, V_DLMPICH, V_PIPE};
    verdict vd[2] = {judge(us, st, o->batches, V_DL, def, 3),
                     judge(us, st, o->batches, V_PAUTO, pipe, 4)};
    free(us);
    const char *choice[2] = {auto_choice(&t, V_DL), auto_choice(&t, V_PAUTO)};
    if (rank == 0)
      print_rows(&t, st, choice, vd, files[0], files[1]);
  }
  pers_free();
  free(buf);
  free(want);
  bench_free(&t);
  return ok;
}

static void usage(FILE *to, int code)
{
  fprintf(to,
    "usage: mpiexec -n 2 dataloop-pingpong [--quick | --full] [--filter NAME] "
    "[--out DIR]\n"
    "Round trips of derived datatypes between two ranks: a contiguous message,\n"
    BENCH_HOST ", hand-written packing and the interposer (automatic and each route\n"
    "forced, default and pipeline mode), " BENCH_HOST "'s and the interposer's persistent\n"
    "requests, after checking what each delivers.\n"
    "  --quick        5 rounds of a batch of >= 30 ms per variant; the default\n"
    "  --full         21 rounds of >= 50 ms\n"
    "  --unpack       accepted and ignored (dataloop-bench's option; a round\n"
    "                 trip always unpacks)\n"
    "  --filter NAME  only the patterns whose name contains NAME (any case;\n"
    "                 e.g. \"Vector (DOUBLE)\"); none matching is an error\n"
    "  --out DIR      write pingpong.csv and pingpong-auto.csv to DIR, made\n"
    "                 with its parents; default ./" BENCH_OUT_DEFAULT " (in the\n"
    "                 working directory)\n"
    "  -h, --help     this text\n"
    "Runs on exactly 2 ranks. Exit status: 0 when every pattern checked and\n"
    "the files were written, 1 otherwise, 2 for a bad option or rank count.\n");
  exit(code);
}

int main(int argc, char **argv)
{
  opts o = {.out = BENCH_OUT_DEFAULT, .batch_s = 0.03, .batches = 5};
  bench_pair_parse(argc, argv, &o, 21, usage);
  /* every rank checks its arguments alike, so both stop together */
  if (!bench_count_matches("dataloop-pingpong", patterns, -1, o.filter))
    return 1;
  int started = bench_pair_start(&argc, &argv, "dataloop-pingpong", o.out, &rank, &peer);
  if (started)
    return started;
  FILE *files[2] = {NULL, NULL};    /* pingpong.csv, pingpong-auto.csv */
  bench_file bf[2];
  if (rank == 0) {
    files[0] = bench_file_open(&bf[0]);
    fprintf(files[0], "pattern,packed_bytes,variant,median_us,min_us,max_us,"
                      "overhead_vs_contig\n");
    files[1] = bench_file_open(&bf[1]);
    fprintf(files[1], "pattern,packed_bytes,variant,kind_at_end,best_forced,"
                      "ratio_by_round,ratio_of_medians\n");
    printf("\ndataloop ping-pong (%s): 2 ranks, %d rounds of a batch of >= %.0f ms "
           "per variant, medians; pipeline chunk %zu bytes\n", o.full ? "full" : "quick",
           o.batches, o.batch_s * 1e3, dlp_chunk());
    per_call(&o);
  }
  type_per_call(&o);
  if (rank == 0)
    printf("%-22s %9s  %-9s %10s  %21s  %7s\n", "pattern", "KiB", "variant",
           "round trip", "(min - max) us", "ovh");
  int failed = 0;
  for (const char *const *p = patterns; *p; p++) {
    if (!bench_matches(*p, o.filter))
      continue;
    const bentry *e = find(*p);
    if (!e) {
      if (rank == 0)
        fprintf(stderr, "%s: no such test\n", *p);
      failed++;
    } else if (!run(&o, e, files)) {
      failed++;
    }
  }
  if (rank == 0) {
    static const char *const fname[2] = {"pingpong.csv", "pingpong-auto.csv"};
    if (!bench_pair_commit("dataloop-pingpong", bf, o.out, fname))
      failed++;
  }
  MPI_Finalize();
  return failed ? 1 : 0;
}
