/* dataloop-tune: measures this machine's thresholds and writes the tuning
 * file the library reads at start-up (doc/tuning.md).
 *
 *   mpiexec -n 2 dataloop-tune [--quick | --smoke] [--file PATH] [--out DIR]
 *   (--help explains each option)
 *
 * Every setting is measured over repeated runs and reported as minimum,
 * median and maximum; medians decide (single runs of a ping-pong scatter
 * too much to pick from). Five measurements:
 *   nt      a copy of 1 to 256 MiB with memcpy and with non-temporal
 *           stores (rank 0): nt_threshold is the size from which the
 *           streaming copy wins by 5% at every larger size, or 0
 *   pack    dl_segment_pack of an 8 MiB vector in chunks of 16 KiB to
 *           4 MiB (rank 0): what a chunk costs the packing side
 *   chunks  ping-pong of that vector in pipeline mode over the same chunk
 *           sizes: pipeline_chunk is the fastest
 *   routes  ping-pong of messages of 128 KiB, 1, 8 and 32 MiB in blocks of
 *           8 bytes (at most 2^20 of them) to an eighth of the message by
 *           every route that moves blocks (packed, the blocks as they lie,
 *           MPICH's engine on the type), every setting's runs spread over
 *           the whole measurement (run r of each before run r + 1 of any):
 *           route@<message> lists, per block size, the route of least
 *           median
 *   mpich   the same messages as copies of types of fan-out 1 to 4096
 *           (dli_mpi_info) by MPICH's engine: mpich@<message> lists, per
 *           block size, the largest fan-out up to which it beat the
 *           faster of pack and blocks
 *   rma     the one-sided model (tune_rma.c): rma_put, rma_get, rma_land,
 *           rma_pack
 * The file goes to PATH, else DL_TUNE_FILE, else
 * $XDG_CONFIG_HOME (or ~/.config)/dataloop/tune.conf; the curves to DIR
 * (default ./dataloop-results) as tune-*.csv (tune.gp plots them). The
 * interposer's code is linked in, as in dataloop-pingpong. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench.h"
#include "preload.h"
#include "../src/tune/tune.h"
#include "../actions/actions.h"
#include "tune_rma.h"

enum { TAG = 23 };

static int rank, peer;
static int reps = 9;
/* --smoke: one short run of each setting, 128 KiB messages only, nt up to
   4 MiB: checks that the tool works; its numbers are no tuning */
static bool smoke;
static double run_s = 0.05;   /* the least time of one timed run */

typedef struct stat3 {
  double med, lo, hi;
} stat3;

static stat3 stats(double *v, int n)
{
  qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
  return (stat3){v[n / 2], v[0], v[n - 1]};
}

/* ---- nt: memcpy against non-temporal stores (rank 0) ---- */

static size_t measure_nt(FILE *csv)
{
  static const int mib[] = {1, 4, 16, 64, 256};
  enum { N = sizeof(mib) / sizeof(mib[0]) };
  stat3 plain[N], nt[N];
  for (int k = 0; k < (smoke ? 2 : N); k++) {
    size_t n = (size_t)mib[k] << 20;
    char *a = malloc(n), *b = malloc(n);
    memset(a, 1, n);
    memset(b, 2, n);
    double r1[32], r2[32];
    int times = (int)(((size_t)256 << 20) / n);       /* ~256 MiB a run */
    if (smoke)
      times = 1;
    for (int r = 0; r < reps; r++) {
      double t0 = bench_now();
      for (int i = 0; i < times; i++)
        memcpy(b, a, n);
      double t1 = bench_now();
      for (int i = 0; i < times; i++)
        dli_nt_copy(b, a, n);
      double t2 = bench_now();
      r1[r] = (double)n * times / (t1 - t0) / 1e6;
      r2[r] = (double)n * times / (t2 - t1) / 1e6;
    }
    plain[k] = stats(r1, reps);
    nt[k] = stats(r2, reps);
    printf("nt      %4d MiB   memcpy %7.0f MB/s (%6.0f - %6.0f)   streaming %7.0f MB/s "
           "(%6.0f - %6.0f)\n", mib[k], plain[k].med, plain[k].lo, plain[k].hi,
           nt[k].med, nt[k].lo, nt[k].hi);
    fprintf(csv, "%zu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n", n, plain[k].med, plain[k].lo,
            plain[k].hi, nt[k].med, nt[k].lo, nt[k].hi);
    free(a);
    free(b);
  }
  size_t from = 0;
  for (int k = (smoke ? 2 : N) - 1; k >= 0 && nt[k].med > 1.05 * plain[k].med; k--)
    from = (size_t)mib[k] << 20;
  return from;
}

/* ---- pack: chunked packing (rank 0) ---- */

static const size_t chunk_sizes[] = {16 << 10, 32 << 10, 64 << 10, 128 << 10,
                                     256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20};
#define NCHUNK (int)(sizeof(chunk_sizes) / sizeof(chunk_sizes[0]))

static void measure_pack(btest *t, char *out, FILE *csv)
{
  for (int k = 0; k < NCHUNK; k++) {
    size_t C = chunk_sizes[k];
    double r[32];
    for (int i = 0; i < reps; i++) {
      double t0 = bench_now();
      int times = 0;
      do {
        dl_segment *s;
        dl_segment_create(t->origin, t->count, t->dt, &s);
        for (size_t at = 0; at < t->packed; at += C) {
          size_t last = at + C;
          dl_segment_pack(s, at, &last, out + at % (4u << 20));
        }
        dl_segment_free(&s);
        times++;
      } while (bench_now() - t0 < run_s * 0.4);
      r[i] = (double)t->packed * times / (bench_now() - t0) / 1e6;
    }
    stat3 s = stats(r, reps);
    printf("pack    chunk %5zu KiB   %7.0f MB/s (%6.0f - %6.0f)\n", C >> 10, s.med,
           s.lo, s.hi);
    fprintf(csv, "%zu,%.1f,%.1f,%.1f\n", C, s.med, s.lo, s.hi);
  }
}

/* ---- ping-pong (both ranks) ---- */

static void round_trip(btest *t)
{
  if (rank == 0) {
    MPI_Send(t->origin, (int)t->count, t->mt, peer, TAG, MPI_COMM_WORLD);
    MPI_Recv(t->origin, (int)t->count, t->mt, peer, TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(t->origin, (int)t->count, t->mt, peer, TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Send(t->origin, (int)t->count, t->mt, peer, TAG, MPI_COMM_WORLD);
  }
}

/* n round trips, in microseconds per round trip */
static double timed(btest *t, long n)
{
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = bench_now();
  for (long i = 0; i < n; i++)
    round_trip(t);
  double us = (bench_now() - t0) / (double)n * 1e6;
  MPI_Bcast(&us, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return us;
}

/* the count of round trips for a run of at least 50 ms, fixed before the
   timed runs so that no run pays for deciding when to stop; both ranks
   agree */
static long calibrate(btest *t)
{
  round_trip(t);                            /* warm: plans, pages */
  long n = 1;
  for (;;) {
    double s = timed(t, n) * (double)n / 1e6;
    long next = s >= run_s ? 0
              : s <= 0 ? n * 16 : (long)((double)n * (run_s * 1.2 / s)) + 1;
    if (!next)
      return n;
    n = next;
  }
}

/* microseconds per round trip over repeated runs */
static stat3 pingpong(btest *t)
{
  long n = calibrate(t);
  double us[32];
  for (int r = 0; r < reps; r++)
    us[r] = timed(t, n);
  return stats(us, reps);
}

static size_t measure_chunks(btest *t, FILE *csv)
{
  size_t best = 0;
  double best_us = 0;
  for (int k = 0; k < NCHUNK; k++) {
    dlp_configure(true, chunk_sizes[k]);
    dlp_configure_strategy(DLP_R_PIPE);
    stat3 s = pingpong(t);
    if (rank == 0) {
      printf("chunks  chunk %5zu KiB   %9.1f us (%8.1f - %8.1f)\n",
             chunk_sizes[k] >> 10, s.med, s.lo, s.hi);
      fprintf(csv, "%zu,%.2f,%.2f,%.2f\n", chunk_sizes[k], s.med, s.lo, s.hi);
    }
    if (!best || s.med < best_us) {
      best = chunk_sizes[k];
      best_us = s.med;
    }
  }
  dlp_configure(false, 0);
  dlp_configure_strategy(-1);
  return best;
}

/* message sizes at which the crossover is measured, a factor of 4 to 8
   apart: the interposer uses the one nearest a message's size */
static const size_t message_sizes[] = {128 << 10, 1 << 20, 8 << 20, 32 << 20};
enum { NMSG = sizeof(message_sizes) / sizeof(message_sizes[0]) };

/* a message of m bytes in blocks of b bytes, every other block of 2m */
static void make_blocks(btest *t, size_t m, size_t b)
{
  memset(t, 0, sizeof(*t));
  snprintf(t->name, sizeof(t->name), "%zu in blocks of %zu", m, b);
  bench_alloc(t, 2 * m);
  t->origin = t->mem;
  t->count = 1;
  dl_count n = (dl_count)(m / b), bl = (dl_count)b;
  dl_type_hvector(n, bl, 2 * bl, dl_builtin(DL_BYTE), &t->dt);
  dl_type_commit(t->dt);
#if MPI_VERSION >= 4
  MPI_Type_create_hvector_c(n, bl, 2 * bl, MPI_BYTE, &t->mt);
#else   /* (a host of MPI 3.1: the counts here fit an int) */
  MPI_Type_create_hvector((int)n, (int)bl, (MPI_Aint)(2 * bl), MPI_BYTE, &t->mt);
#endif
  MPI_Type_commit(&t->mt);
  dl_pack_size(1, t->dt, &t->packed);
}

/* the routes measured, in the CSV's order */
static const int routes[] = {DLP_R_PACK, DLP_R_BLOCKS, DLP_R_MPICH};
enum { NR = sizeof(routes) / sizeof(routes[0]) };

/* the fan-outs MPICH's engine is measured at (dli_mpi_info): blocks in
   one copy of the type it walks one by one, 8 times apart */
static const size_t fanouts[] = {1, 8, 64, 512, 4096};
enum { NF = sizeof(fanouts) / sizeof(fanouts[0]) };

/* one setting of the routes measurement: its message, round trips per run
   and times per run (microseconds per round trip) by route; and the same
   layout as count copies of a type of fan-out fanouts[f], by MPICH's
   engine */
typedef struct probe {
  btest t;
  long n[NR];
  double us[NR][32];
  btest ft[NF];
  long nf[NF];
  double usf[NF][32];
  int nfan;              /* fan-outs measured: those with a whole copy */
} probe;

/* the message of m bytes in blocks of b bytes (b a multiple of 8) as
   count copies of f blocks of doubles: hvector(f, b / 8, 2b) resized to
   2bf */
static void make_fanout(btest *t, size_t m, size_t b, size_t f)
{
  memset(t, 0, sizeof(*t));
  snprintf(t->name, sizeof(t->name), "%zu in blocks of %zu, fan-out %zu", m, b, f);
  bench_alloc(t, 2 * m);
  t->origin = t->mem;
  t->count = (dl_count)(m / (b * f));
  dl_count bl = (dl_count)(b / 8);
  dl_type *v;
  dl_type_hvector((dl_count)f, bl, (dl_aint)(2 * b), dl_builtin(DL_DOUBLE), &v);
  dl_type_resized(v, 0, (dl_aint)(2 * b * f), &t->dt);
  dl_type_free(&v);
  dl_type_commit(t->dt);
  MPI_Datatype mv;
#if MPI_VERSION >= 4
  MPI_Type_create_hvector_c((MPI_Count)f, bl, (MPI_Count)(2 * b), MPI_DOUBLE, &mv);
#else
  MPI_Type_create_hvector((int)f, (int)bl, (MPI_Aint)(2 * b), MPI_DOUBLE, &mv);
#endif
  MPI_Type_create_resized(mv, 0, (MPI_Aint)(2 * b * f), &t->mt);
  MPI_Type_free(&mv);
  MPI_Type_commit(&t->mt);
  dl_pack_size(t->count, t->dt, &t->packed);
}

static const size_t bs[] = {8, 16, 32, 64, 256, 1 << 10, 4 << 10, 16 << 10,
                            64 << 10, 256 << 10, 1 << 20, 4 << 20};
enum { NB = sizeof(bs) / sizeof(bs[0]) };

/* the settings measured: blocks up to an eighth of the message, and no
   more of them than the interposer ever sends as they lie (2^20) */
static bool measured(int m, int b)
{
  return (!smoke || m == 0) && bs[b] <= message_sizes[m] / 8 && message_sizes[m] / bs[b] <= ((size_t)1 << 20);
}

/* whether any block size of message m is measured (--smoke: only the
   first message) */
static bool any_measured(int m)
{
  for (int b = 0; b < NB; b++)
    if (measured(m, b))
      return true;
  return false;
}

/* the fastest route at each block size of each message size, its median
   of reps runs; every setting's runs spread over the whole measurement,
   run r of each before run r + 1 of any, so that a change in the
   transport's speed while it lasts (this development VM's shared-memory
   transfers change speed by 2-4x from one minute to the next) weighs on
   every setting alike */
static void measure_routes(FILE *csv, FILE *fcsv, int best[NMSG][NB],
                           size_t fmax[NMSG][NB])
{
  probe *pr = calloc(NMSG * NB, sizeof(*pr));
  int np = 0;
  dlp_configure(false, 0);
  for (int m = 0; m < NMSG; m++)
    for (int b = 0; b < NB; b++) {
      if (!measured(m, b))
        continue;
      make_blocks(&pr[np].t, message_sizes[m], bs[b]);
      for (int k = 0; k < NR; k++) {
        dlp_configure_strategy(routes[k]);
        pr[np].n[k] = calibrate(&pr[np].t);
      }
      dlp_configure_strategy(DLP_R_MPICH);
      for (int f = 0; f < NF && bs[b] % 8 == 0 && bs[b] * fanouts[f] <= message_sizes[m];
           f++, pr[np].nfan++) {
        make_fanout(&pr[np].ft[f], message_sizes[m], bs[b], fanouts[f]);
        pr[np].nf[f] = calibrate(&pr[np].ft[f]);
      }
      np++;
    }
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < np; i++) {
      for (int k = 0; k < NR; k++) {
        dlp_configure_strategy(routes[k]);
        pr[i].us[k][r] = timed(&pr[i].t, pr[i].n[k]);
      }
      dlp_configure_strategy(DLP_R_MPICH);
      for (int f = 0; f < pr[i].nfan; f++)
        pr[i].usf[f][r] = timed(&pr[i].ft[f], pr[i].nf[f]);
    }
  dlp_configure_strategy(-1);
  int i = 0;
  for (int m = 0; m < NMSG; m++)
    for (int b = 0; b < NB; b++) {
      if (!measured(m, b))
        continue;
      stat3 s[NR];
      best[m][b] = 0;
      for (int k = 0; k < NR; k++) {
        s[k] = stats(pr[i].us[k], reps);
        if (s[k].med < s[best[m][b]].med)
          best[m][b] = k;
      }
      if (rank == 0) {
        printf("routes  %5zu KiB in %7zu B  ", message_sizes[m] >> 10, bs[b]);
        for (int k = 0; k < NR; k++)
          printf("  %s %9.1f us (%8.1f - %8.1f)", dlp_route_name(routes[k]), s[k].med,
                 s[k].lo, s[k].hi);
        printf("\n");
        fprintf(csv, "%zu,%zu", message_sizes[m], bs[b]);
        for (int k = 0; k < NR; k++)
          fprintf(csv, ",%.2f,%.2f,%.2f", s[k].med, s[k].lo, s[k].hi);
        fprintf(csv, "\n");
      }
      /* MPICH's engine up to which fan-out beat the others there */
      double other = s[0].med < s[1].med ? s[0].med : s[1].med;
      fmax[m][b] = 0;
      for (int f = 0; f < pr[i].nfan; f++) {
        stat3 sf = stats(pr[i].usf[f], reps);
        if (rank == 0) {
          printf("mpich   %5zu KiB in %7zu B, fan-out %4zu  %9.1f us (%8.1f - %8.1f)\n",
                 message_sizes[m] >> 10, bs[b], fanouts[f], sf.med, sf.lo, sf.hi);
          fprintf(fcsv, "%zu,%zu,%zu,%.2f,%.2f,%.2f,%.2f\n", message_sizes[m], bs[b],
                  fanouts[f], sf.med, sf.lo, sf.hi, other);
        }
        if (sf.med < other && fmax[m][b] == (f ? fanouts[f - 1] : 0))
          fmax[m][b] = fanouts[f];
        bench_free(&pr[i].ft[f]);
      }
      bench_free(&pr[i++].t);
    }
  free(pr);
}

/* the curves, gathered on rank 0 and written when the run is over */
static const struct {
  const char *name, *header;
} csvs[] = {
  {"tune-nt.csv", "bytes,memcpy_mbs,min,max,nt_mbs,min,max"},
  {"tune-pack.csv", "chunk,pack_mbs,min,max"},
  {"tune-chunks.csv", "chunk,roundtrip_us,min,max"},
  {"tune-routes.csv", "message,block,pack_us,min,max,blocks_us,min,max,mpich_us,min,max"},
  {"tune-mpich.csv", "message,block,fanout,mpich_us,min,max,best_other_us"},
  {"tune-rma.csv", "kind,shape,block,count,measured_ns,predicted_ns"}};
enum { NCSV = sizeof(csvs) / sizeof(csvs[0]) };

/* --file, else where the library looks, else the working directory */
static void file_path(char *out, size_t n, const char *arg)
{
  if (arg)
    snprintf(out, n, "%s", arg);
  else if (!dli_tune_file_path(out, n))
    snprintf(out, n, "tune.conf");
}

static void usage(FILE *to, int code)
{
  fprintf(to,
    "usage: mpiexec -n 2 dataloop-tune [--quick | --smoke] [--file PATH] [--out DIR]\n"
    "Measures this machine's thresholds (non-temporal copies, pipeline chunk,\n"
    "the fastest route by message and block size, MPICH's engine by fan-out,\n"
    "the one-sided cost model)\n"
    "and writes the tuning file the library reads at start-up.\n"
    "  (no option)    9 runs of each setting\n"
    "  --quick        5 runs of each setting\n"
    "  --smoke        one short run of each, 128 KiB messages only: checks that\n"
    "                 the tool works (seconds); the file it writes is no tuning\n"
    "  --file PATH    write the tuning file to PATH (its folder made); default\n"
    "                 $DL_TUNE_FILE, else $XDG_CONFIG_HOME (or ~/.config)\n"
    "                 /dataloop/tune.conf\n"
    "  --out DIR      write the curves tune-nt.csv, tune-pack.csv,\n"
    "                 tune-chunks.csv, tune-routes.csv, tune-mpich.csv (for\n"
    "                 tune.gp) and tune-rma.csv (the one-sided model's points,\n"
    "                 measured and predicted) to DIR, made with its parents; default\n"
    "                 ./" BENCH_OUT_DEFAULT " (in the working directory)\n"
    "  -h, --help     this text\n"
    "Runs on exactly 2 ranks. Every file is written whole at the end of the\n"
    "run or not at all. Exit status: 0 when all were written, 1 otherwise, 2\n"
    "for a bad option or rank count.\n");
  exit(code);
}

int main(int argc, char **argv)
{
  const char *file = NULL, *out = BENCH_OUT_DEFAULT;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      usage(stdout, 0);
    else if (!strcmp(argv[i], "--quick"))
      reps = 5;
    else if (!strcmp(argv[i], "--smoke")) {
      smoke = true;
      reps = 1;
      run_s = 0.005;
    } else if (!strcmp(argv[i], "--file") && i + 1 < argc)
      file = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else
      usage(stderr, 2);
  }
  setenv("DL_JIT", "0", 1);
  if (!bench_two_ranks(&argc, &argv, "dataloop-tune", &rank, &peer))
    return 2;
  char path[4096];
  file_path(path, sizeof(path), file);
  /* both destinations usable before minutes of measuring */
  int ok = rank != 0 || (bench_out_dir("dataloop-tune", out) &&
                         bench_out_parent("dataloop-tune", path));
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    MPI_Finalize();
    return 1;
  }
  bench_file bf[NCSV];
  FILE *csv[NCSV] = {NULL};
  if (rank == 0) {
    printf("dataloop-tune: median (min - max) of %d runs each%s\n", reps,
           smoke ? " (--smoke: not a tuning)" : "");
    dl_tune_print(stdout);
    dlp_thresholds_print(stdout);
    for (int c = 0; c < NCSV; c++) {
      csv[c] = bench_file_open(&bf[c]);
      fprintf(csv[c], "%s\n", csvs[c].header);
    }
  }
  FILE *fnt = csv[0], *fpk = csv[1], *fch = csv[2], *fbl = csv[3], *ffo = csv[4];
  size_t nt = rank == 0 ? measure_nt(fnt) : 0;
  MPI_Bcast(&nt, sizeof(nt), MPI_BYTE, 0, MPI_COMM_WORLD);

  const bentry *vec = NULL;
  for (const bentry *e = bench_synthetic; e->name; e++)
    if (!strcmp(e->name, "Vector (DOUBLE)"))
      vec = e;
  btest t;
  if (!vec || !bench_make(vec, &t)) {
    fprintf(stderr, "no Vector (DOUBLE) test\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  dl_pack_size(t.count, t.dt, &t.packed);
  if (rank == 0) {
    char *buf = malloc(4u << 20);
    measure_pack(&t, buf, fpk);
    free(buf);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  size_t chunk = measure_chunks(&t, fch);
  bench_free(&t);
  int best[NMSG][NB] = {{0}};
  size_t fmax[NMSG][NB] = {{0}};
  measure_routes(fbl, ffo, best, fmax);
  dlp_rma_model rma = {0};
  tune_rma(&rma, csv[5], reps, run_s, smoke);

  int failed = 0;
  if (rank == 0) {
    for (int c = 0; c < NCSV; c++) {
      char cpath[4200];
      snprintf(cpath, sizeof(cpath), "%s/%s", out, csvs[c].name);
      failed += !bench_file_commit("dataloop-tune", &bf[c], cpath);
    }
    bench_file tf;
    FILE *w = bench_file_open(&tf);
    fprintf(w, "# written by dataloop-tune%s: medians of %d runs (doc/tuning.md)\n",
            smoke ? " --smoke, a check of the tool, not a tuning" : "", reps);
    fprintf(w, "pipeline_chunk %zu\t# fastest pipelined ping-pong of 8 MiB\n", chunk);
    for (int m = 0; m < NMSG; m++) {
      if (!any_measured(m))
        continue;
      fprintf(w, "route@%zu", message_sizes[m]);
      for (int b = 0; b < NB; b++)
        if (measured(m, b))
          fprintf(w, " %zu:%s", bs[b], dlp_route_name(routes[best[m][b]]));
      fprintf(w, "\t# the fastest route by mean block size\n");
    }
    for (int m = 0; m < NMSG; m++) {
      if (!any_measured(m))
        continue;
      fprintf(w, "mpich@%zu", message_sizes[m]);
      for (int b = 0; b < NB; b++)
        if (measured(m, b))
          fprintf(w, " %zu:%zu", bs[b], fmax[m][b]);
      fprintf(w, "\t# MPICH's engine won up to this fan-out\n");
    }
    for (int g = 0; g < 2; g++) {
      const dlp_rma_link *l = g ? &rma.get : &rma.put;
      fprintf(w, "rma_%s %.0f %.0f %.4f %.0f %.4f %.1f\t# L o G ot Gt ht (ns)\n",
              g ? "get" : "put", l->L, l->o, l->G, l->ot, l->Gt, l->ht);
    }
    fprintf(w, "rma_land %.0f %.4f\t# a landing message: L G (ns)\n", rma.land_L,
            rma.land_G);
    if (smoke)   /* blocks far apart not measured: the reader's default */
      fprintf(w, "rma_pack %.2f %.4f\t# packing: ns per block, per byte\n", rma.pb, rma.pn);
    else
      fprintf(w, "rma_pack %.2f %.4f %.2f\t# packing: ns per block, per byte, per block "
              "far apart\n", rma.pb, rma.pn, rma.pf);
    fprintf(w, "nt_threshold %zu\t# 0: non-temporal stores never won\n", nt);
    fprintf(w, "list_batch %zu\n", dl_tune_get()->list_batch);
    if (!bench_file_commit("dataloop-tune", &tf, path)) {
      MPI_Finalize();
      return 1;
    }
    printf("\nwrote %s:\n  pipeline_chunk %zu\n", path, chunk);
    for (int m = 0; m < NMSG; m++) {
      if (!any_measured(m))
        continue;
      printf("  route@%zu", message_sizes[m]);
      for (int b = 0; b < NB; b++)
        if (measured(m, b))
          printf(" %zu:%s", bs[b], dlp_route_name(routes[best[m][b]]));
      printf("\n");
    }

    printf("  nt_threshold %zu\n", nt);
    if (!failed)
      printf("curves: %s/tune-*.csv\n", out);
  }
  MPI_Finalize();
  return failed ? 1 : 0;
}
