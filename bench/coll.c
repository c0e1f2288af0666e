/* dataloop-coll-bench: collectives of derived datatypes from real codes,
 * on any number of ranks (2 and 4 are the cases of record).
 *
 *   mpiexec -n P dataloop-coll-bench [--quick | --full] [--filter NAME] [--out DIR]
 *
 * Patterns: an FFT's redistribution of a 2D and a 3D array of complex
 * doubles from one distributed axis to another by MPI_Alltoallw over
 * subarray types (the approach of mpi4py-fft: one type per peer and side);
 * the same with the types created, committed and freed around every call
 * (a type per call); a 3D halo exchange of one-cell faces by
 * MPI_Neighbor_alltoallw on a Cartesian communicator, and the same by
 * persistent requests made once (MPI_Send_init, MPI_Recv_init, MPI_Startall,
 * MPI_Waitall); a broadcast of a strided view (every other double). Variants, interleaved round by round
 * in a changing order so drift hits all alike:
 *   contig    the same bytes, contiguous, through the collective (the floor)
 *   MPICH     the derived types handed to MPICH's collective (PMPI_)
 *   manual    hand-written pack loops, MPICH's collective on the bytes
 *             (MPI_Alltoallv, MPI_Neighbor_alltoallv, MPI_Bcast), hand-
 *             written unpack loops
 *   dataloop  the interposer's collective (MPI_), the derived types
 * The interposer's code is linked in (what libdataloop-mpi-preload.so
 * holds), so MPI_Alltoallw here is the interposer's and PMPI_Alltoallw
 * MPICH's. Before timing, every variant's received data is checked against
 * MPICH's. Reported per pattern: microseconds per call (the slowest rank's,
 * median of the rounds, min-max) and the median over rounds of dataloop's
 * time over MPICH's and over manual's in the same round. Results also go
 * to DIR/coll.csv (default DIR: ./dataloop-results). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

enum { V_CONTIG, V_MPICH, V_MANUAL, V_DL, NVAR };
static const char *const var_names[NVAR] = {"contig", "MPICH", "manual", "dataloop"};

static int rank, nranks;

/* a 3D block of a 3D array (2D: dimension 0 of size 1), esize-byte
   elements, C order */
typedef struct box {
  int size[3], sub[3], start[3];
} box;

static size_t box_elems(const box *b)
{
  return (size_t)b->sub[0] * (size_t)b->sub[1] * (size_t)b->sub[2];
}

static MPI_Datatype box_type(const box *b, MPI_Datatype el)
{
  MPI_Datatype t;
  MPI_Type_create_subarray(3, b->size, b->sub, b->start, MPI_ORDER_C, el, &t);
  MPI_Type_commit(&t);
  return t;
}

/* the manual loops: a run of sub[2] elements per (i, j), at this byte */
static size_t box_run_at(const box *b, int i, int j, size_t es)
{
  return (((size_t)(b->start[0] + i) * (size_t)b->size[1] + (size_t)(b->start[1] + j)) *
              (size_t)b->size[2] + (size_t)b->start[2]) * es;
}

static char *box_pack(const box *b, const char *a, char *out, size_t es)
{
  size_t run = (size_t)b->sub[2] * es;
  for (int i = 0; i < b->sub[0]; i++)
    for (int j = 0; j < b->sub[1]; j++, out += run)
      memcpy(out, a + box_run_at(b, i, j, es), run);
  return out;
}

static const char *box_unpack(const box *b, char *a, const char *in, size_t es)
{
  size_t run = (size_t)b->sub[2] * es;
  for (int i = 0; i < b->sub[0]; i++)
    for (int j = 0; j < b->sub[1]; j++, in += run)
      memcpy(a + box_run_at(b, i, j, es), in, run);
  return in;
}

/* ---- a pattern: n send and n receive boxes (or a broadcast) ---- */

typedef struct pattern {
  char name[64];
  int kind;                    /* 0: Alltoallw, 1: Neighbor_alltoallw, 2: Bcast,
                                  3: persistent sends and receives */
  bool per_call;               /* types made and freed around every call */
  MPI_Comm comm;
  int n;                       /* peers (slots) */
  size_t es;
  MPI_Datatype el;
  box sb[8], rb[8];            /* boxes per slot */
  bool none[8];                /* a neighbour slot facing MPI_PROC_NULL */
  MPI_Datatype st[8], rt[8];
  char *src, *dst, *ref;       /* arrays; dst's result under MPICH */
  size_t src_len, dst_len;
  char *packed, *unpacked;     /* the manual and contig variants' bytes */
  int scount[8], sdispl[8], rcount[8], rdispl[8];   /* bytes */
  int ones[8], zeros[8];
  MPI_Aint azeros[8];
  /* broadcast: a vector of every other double */
  int bn;
  /* persistent: each slot's neighbour; requests of bytes (contig and
     manual), of the types through MPICH (PMPI_) and through dataloop */
  int nb[8];
  MPI_Request preq[3][16];
  int npreq;
} pattern;

static void slots_bytes(pattern *p)
{
  int so = 0, ro = 0;
  for (int i = 0; i < p->n; i++) {
    p->scount[i] = p->none[i] ? 0 : (int)(box_elems(&p->sb[i]) * p->es);
    p->rcount[i] = p->none[i] ? 0 : (int)(box_elems(&p->rb[i]) * p->es);
    p->sdispl[i] = so;
    p->rdispl[i] = ro;
    so += p->scount[i];
    ro += p->rcount[i];
    p->ones[i] = p->none[i] ? 0 : 1;
    p->zeros[i] = 0;
    p->azeros[i] = 0;
  }
  p->packed = malloc((size_t)so + 1);
  p->unpacked = malloc((size_t)ro + 1);
}

static void make_types(pattern *p)
{
  for (int i = 0; i < p->n; i++) {
    p->st[i] = box_type(&p->sb[i], p->el);
    p->rt[i] = box_type(&p->rb[i], p->el);
  }
}

static void free_types(pattern *p)
{
  for (int i = 0; i < p->n; i++) {
    MPI_Type_free(&p->st[i]);
    MPI_Type_free(&p->rt[i]);
  }
}

static void fill(char *a, size_t len, unsigned seed)
{
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  for (size_t i = 0; i < len; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    a[i] = (char)x;
  }
}

static void arrays(pattern *p, size_t src_len, size_t dst_len)
{
  p->src_len = src_len;
  p->dst_len = dst_len;
  p->src = malloc(src_len);
  p->dst = malloc(dst_len);
  p->ref = malloc(dst_len);
  fill(p->src, src_len, (unsigned)rank + 1);
  memset(p->dst, 0, dst_len);
  memset(p->ref, 0, dst_len);
}

/* an FFT redistribution of a d-dimensional (2 or 3) array of N^d complex
   doubles: distributed along axis d-2 before, along axis d-1 after */
static void fft(pattern *p, int d, int N, bool per_call)
{
  snprintf(p->name, sizeof(p->name), "FFT %dD %d^%d%s", d, N, d, per_call ? " (type per call)" : "");
  p->kind = 0;
  p->per_call = per_call;
  p->comm = MPI_COMM_WORLD;
  p->n = nranks;
  p->es = 16;
  MPI_Type_contiguous(2, MPI_DOUBLE, &p->el);
  MPI_Type_commit(&p->el);
  int m = N / nranks, z = d == 3 ? N : 1;
  for (int j = 0; j < nranks; j++) {
    /* before: (z, m, N); to j the columns j*m .. of every row */
    p->sb[j] = (box){{z, m, N}, {z, m, m}, {0, 0, j * m}};
    /* after: (z, N, m); from j its rows j*m .. */
    p->rb[j] = (box){{z, N, m}, {z, m, m}, {0, j * m, 0}};
  }
  size_t len = (size_t)z * (size_t)m * (size_t)N * p->es;
  arrays(p, len, len);
  slots_bytes(p);
}

/* a halo exchange of one-cell faces of an (n+2)^3 array of doubles on a
   Cartesian communicator of P x 1 x 1 (not periodic along the first axis,
   periodic along the others: those faces go to this rank itself) */
static void halo(pattern *p, int n, bool persistent)
{
  snprintf(p->name, sizeof(p->name), "Halo 3D %d^3%s", n, persistent ? " (persistent)" : "");
  p->kind = persistent ? 3 : 1;
  p->n = 6;
  p->es = 8;
  p->el = MPI_DOUBLE;
  int dims[3] = {nranks, 1, 1}, periods[3] = {0, 1, 1}, N = n + 2;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &p->comm);
  for (int a = 0; a < 3; a++) {
    int src, dst;
    MPI_Cart_shift(p->comm, a, 1, &src, &dst);
    p->none[2 * a] = src == MPI_PROC_NULL;
    p->none[2 * a + 1] = dst == MPI_PROC_NULL;
    p->nb[2 * a] = src;
    p->nb[2 * a + 1] = dst;
    for (int side = 0; side < 2; side++) {
      box b = {{N, N, N}, {n, n, n}, {1, 1, 1}};
      b.sub[a] = 1;
      /* send: the first (side 0) or last inner layer; receive: the ghost
         layer on the same side */
      b.start[a] = side ? n : 1;
      p->sb[2 * a + side] = b;
      b.start[a] = side ? n + 1 : 0;
      p->rb[2 * a + side] = b;
    }
  }
  size_t len = (size_t)N * N * N * p->es;
  arrays(p, len, len);
  memcpy(p->dst, p->src, len);      /* the ghost cells are written in place */
  memcpy(p->ref, p->src, len);
  slots_bytes(p);
}

/* a broadcast of every other double of 2n */
static void bcast_view(pattern *p, int n)
{
  snprintf(p->name, sizeof(p->name), "Bcast strided %d", n);
  p->kind = 2;
  p->comm = MPI_COMM_WORLD;
  p->n = 1;
  p->bn = n;
  p->es = 8;
  p->el = MPI_DOUBLE;
  MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &p->st[0]);
  MPI_Type_commit(&p->st[0]);
  p->rt[0] = p->st[0];
  size_t len = (size_t)2 * (size_t)n * 8;
  arrays(p, len, len);
  p->packed = malloc((size_t)n * 8);
  p->unpacked = p->packed;
}

/* the halo's persistent requests, once: receives first, then sends; slot
   i sends with tag i and receives the neighbour's opposite slot (i ^ 1) */
static void persist_make(pattern *p)
{
  for (int set = 0; set < 3; set++) {
    int k = 0;
    for (int send = 0; send < 2; send++)
      for (int i = 0, so = 0, ro = 0; i < p->n; i++) {
        char *sb = p->packed + so, *rb = p->unpacked + ro;
        so += p->scount[i];
        ro += p->rcount[i];
        if (p->none[i])
          continue;
        MPI_Request *q = &p->preq[set][k++];
        if (set == 0 && send)
          PMPI_Send_init(sb, p->scount[i], MPI_BYTE, p->nb[i], i, p->comm, q);
        else if (set == 0)
          PMPI_Recv_init(rb, p->rcount[i], MPI_BYTE, p->nb[i], i ^ 1, p->comm, q);
        else if (set == 1 && send)
          PMPI_Send_init(p->src, 1, p->st[i], p->nb[i], i, p->comm, q);
        else if (set == 1)
          PMPI_Recv_init(p->dst, 1, p->rt[i], p->nb[i], i ^ 1, p->comm, q);
        else if (send)
          MPI_Send_init(p->src, 1, p->st[i], p->nb[i], i, p->comm, q);
        else
          MPI_Recv_init(p->dst, 1, p->rt[i], p->nb[i], i ^ 1, p->comm, q);
      }
    p->npreq = k;
  }
}

static void persist_run(pattern *p, int v, char *out)
{
  MPI_Status st[16];
  /* the requests are bound to dst */
  if (out != p->dst)
    memcpy(p->dst, out, p->dst_len);
  int set = v == V_MPICH ? 1 : v == V_DL ? 2 : 0;
  if (v == V_MANUAL) {
    char *w = p->packed;
    for (int i = 0; i < p->n; i++)
      if (!p->none[i])
        w = box_pack(&p->sb[i], p->src, w, p->es);
  }
  MPI_Startall(p->npreq, p->preq[set]);
  MPI_Waitall(p->npreq, p->preq[set], st);
  if (v == V_MANUAL) {
    const char *r = p->unpacked;
    for (int i = 0; i < p->n; i++)
      if (!p->none[i])
        r = box_unpack(&p->rb[i], p->dst, r, p->es);
  }
  if (out != p->dst)
    memcpy(out, p->dst, p->dst_len);
}

/* one call of variant v, into out */
static void run(pattern *p, int v, char *out)
{
  if (p->kind == 3) {
    persist_run(p, v, out);
    return;
  }
  if (p->kind == 2) {
    double *a = (double *)out;
    if (rank == 0)
      memcpy(out, p->src, p->src_len);
    switch (v) {
    case V_CONTIG:
      PMPI_Bcast(p->packed, p->bn, MPI_DOUBLE, 0, p->comm);
      break;
    case V_MPICH:
      PMPI_Bcast(out, 1, p->st[0], 0, p->comm);
      break;
    case V_DL:
      MPI_Bcast(out, 1, p->st[0], 0, p->comm);
      break;
    default: {
      double *q = (double *)p->packed;
      if (rank == 0)
        for (int i = 0; i < p->bn; i++)
          q[i] = a[2 * i];
      PMPI_Bcast(q, p->bn, MPI_DOUBLE, 0, p->comm);
      if (rank != 0)
        for (int i = 0; i < p->bn; i++)
          a[2 * i] = q[i];
    }
    }
    return;
  }
  if (p->per_call && (v == V_MPICH || v == V_DL))
    make_types(p);
  switch (v) {
  case V_CONTIG:
    if (p->kind == 0)
      PMPI_Alltoallv(p->packed, p->scount, p->sdispl, MPI_BYTE, p->unpacked, p->rcount,
                     p->rdispl, MPI_BYTE, p->comm);
    else
      PMPI_Neighbor_alltoallv(p->packed, p->scount, p->sdispl, MPI_BYTE, p->unpacked,
                              p->rcount, p->rdispl, MPI_BYTE, p->comm);
    break;
  case V_MPICH:
    if (p->kind == 0)
      PMPI_Alltoallw(p->src, p->ones, p->zeros, p->st, out, p->ones, p->zeros, p->rt,
                     p->comm);
    else
      PMPI_Neighbor_alltoallw(p->src, p->ones, p->azeros, p->st, out, p->ones, p->azeros,
                              p->rt, p->comm);
    break;
  case V_DL:
    if (p->kind == 0)
      MPI_Alltoallw(p->src, p->ones, p->zeros, p->st, out, p->ones, p->zeros, p->rt,
                    p->comm);
    else
      MPI_Neighbor_alltoallw(p->src, p->ones, p->azeros, p->st, out, p->ones, p->azeros,
                             p->rt, p->comm);
    break;
  default: {
    char *w = p->packed;
    for (int i = 0; i < p->n; i++)
      if (!p->none[i])
        w = box_pack(&p->sb[i], p->src, w, p->es);
    if (p->kind == 0)
      PMPI_Alltoallv(p->packed, p->scount, p->sdispl, MPI_BYTE, p->unpacked, p->rcount,
                     p->rdispl, MPI_BYTE, p->comm);
    else
      PMPI_Neighbor_alltoallv(p->packed, p->scount, p->sdispl, MPI_BYTE, p->unpacked,
                              p->rcount, p->rdispl, MPI_BYTE, p->comm);
    const char *r = p->unpacked;
    for (int i = 0; i < p->n; i++)
      if (!p->none[i])
        r = box_unpack(&p->rb[i], out, r, p->es);
  }
  }
  if (p->per_call && (v == V_MPICH || v == V_DL))
    free_types(p);
}

static void pattern_free(pattern *p)
{
  for (int set = 0; p->kind == 3 && set < 3; set++)
    for (int i = 0; i < p->npreq; i++)
      MPI_Request_free(&p->preq[set][i]);
  if (p->kind == 2)
    MPI_Type_free(&p->st[0]);
  else if (!p->per_call)
    free_types(p);
  if (p->el != MPI_DOUBLE)
    MPI_Type_free(&p->el);
  if (p->comm != MPI_COMM_WORLD)
    MPI_Comm_free(&p->comm);
  free(p->src);
  free(p->dst);
  free(p->ref);
  if (p->unpacked != p->packed)
    free(p->unpacked);
  free(p->packed);
}

/* the slowest rank's seconds per call of variant v over reps calls */
static double timed(pattern *p, int v, int reps)
{
  PMPI_Barrier(MPI_COMM_WORLD);
  double t0 = bench_now();
  for (int i = 0; i < reps; i++)
    run(p, v, p->dst);
  double t = (bench_now() - t0) / reps, worst;
  PMPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

static void usage(FILE *to, int code)
{
  fprintf(to, "usage: mpiexec -n P dataloop-coll-bench [--quick | --full] [--filter NAME] "
              "[--out DIR]\n"
              "  --quick    7 rounds of >= 20 ms per variant (the default)\n"
              "  --full     21 rounds of >= 50 ms\n"
              "  --filter   the patterns whose name holds NAME (any case)\n"
              "  --out DIR  where coll.csv goes (default ./" BENCH_OUT_DEFAULT ")\n");
  exit(code);
}

int main(int argc, char **argv)
{
  const char *filter = NULL, *out = BENCH_OUT_DEFAULT;
  double batch_s = 0.02;
  int rounds = 7;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      batch_s = 0.02, rounds = 7;
    else if (!strcmp(argv[i], "--full"))
      batch_s = 0.05, rounds = 21;
    else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
      filter = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else if (!strcmp(argv[i], "--unpack"))
      ;   /* dataloop-bench's, accepted as the other benchmarks do */
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
      usage(stdout, 0);
    else
      usage(stderr, 2);
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks > 8 || 64 % nranks) {
    if (rank == 0)
      fprintf(stderr, "dataloop-coll-bench: 1, 2, 4 or 8 ranks\n");
    MPI_Finalize();
    return 2;
  }
  int ok = rank != 0 || bench_out_dir("dataloop-coll-bench", out);
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    MPI_Finalize();
    return 1;
  }
  bench_file bf = {0};
  FILE *csv = rank == 0 ? bench_file_open(&bf) : NULL;
  if (csv)
    fprintf(csv, "pattern,ranks,variant,us_median,us_min,us_max,bytes\n");
  if (rank == 0)
    printf("dataloop-coll-bench: %d ranks, %d rounds; us per call (slowest rank): median "
           "[min-max]; dataloop over MPICH and over manual: median of per-round ratios\n",
           nranks, rounds);
  int failed = 0;
  static const char *const names[] = {"FFT 2D 1024^2", "FFT 3D 64^3", "FFT 3D 128^3",
                                       "FFT 2D 256^2 (type per call)", "Halo 3D 64^3",
                                       "Halo 3D 64^3 (persistent)", "Bcast strided 1048576"};
  int matched = 0;
  for (int k = 0; k < 7; k++)
    matched += bench_matches(names[k], filter);
  if (!matched) {
    if (rank == 0)
      fprintf(stderr, "dataloop-coll-bench: no pattern matches %s\n", filter);
    failed = 1;
  }
  for (int k = 0; k < 7; k++) {
    if (!bench_matches(names[k], filter))
      continue;
    pattern p;
    memset(&p, 0, sizeof(p));
    p.comm = MPI_COMM_WORLD;
    switch (k) {
    case 0: fft(&p, 2, 1024, false); break;
    case 1: fft(&p, 3, 64, false); break;
    case 2: fft(&p, 3, 128, false); break;
    case 3: fft(&p, 2, 256, true); break;
    case 4: halo(&p, 64, false); break;
    case 5: halo(&p, 64, true); break;
    default: bcast_view(&p, 1 << 20); break;
    }
    if (!p.per_call && p.kind != 2)
      make_types(&p);
    if (p.kind == 3)
      persist_make(&p);
    /* checked first: every variant's data is MPICH's */
    run(&p, V_MPICH, p.ref);
    bool good = true;
    for (int v = V_MANUAL; v < NVAR; v++) {
      bool halo_like = p.kind == 1 || p.kind == 3;
      memcpy(p.dst, halo_like ? p.src : p.dst, halo_like ? p.dst_len : 0);
      if (!halo_like)
        memset(p.dst, 0, p.dst_len);
      run(&p, v, p.dst);
      if (memcmp(p.dst, p.ref, p.dst_len)) {
        fprintf(stderr, "rank %d: %s: %s's data differs from MPICH's\n", rank, p.name,
                var_names[v]);
        good = false;
      }
    }
    int all = good;
    PMPI_Allreduce(&good, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
      failed = 1;
      pattern_free(&p);
      continue;
    }
    /* reps per batch: from one call's time */
    double one = timed(&p, V_MPICH, 2);
    int reps = (int)(batch_s / (one > 1e-7 ? one : 1e-7)) + 1;
    PMPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double us[NVAR][32];
    int order[NVAR];
    for (int r = 0; r < rounds; r++) {
      bench_order(r, NVAR, order);
      for (int i = 0; i < NVAR; i++)
        us[order[i]][r] = 1e6 * timed(&p, order[i], reps);
    }
    if (rank == 0) {
      double flat[NVAR * 32];
      for (int v = 0; v < NVAR; v++)
        for (int r = 0; r < rounds; r++)
          flat[v * rounds + r] = us[v][r];
      double vs_mpich = bench_paired(flat, rounds, V_DL, V_MPICH);
      double vs_manual = bench_paired(flat, rounds, V_DL, V_MANUAL);
      size_t bytes = 0;
      for (int i = 0; i < p.n; i++)
        bytes += (size_t)p.scount[i];
      if (p.kind == 2)
        bytes = (size_t)p.bn * 8;
      printf("%-28s", p.name);
      for (int v = 0; v < NVAR; v++) {
        double s[32];
        memcpy(s, us[v], sizeof(double) * (size_t)rounds);
        double med = bench_median(s, rounds);
        printf(" %s %.0f [%.0f-%.0f]", var_names[v], med, s[0], s[rounds - 1]);
        fprintf(csv, "%s,%d,%s,%.2f,%.2f,%.2f,%zu\n", p.name, nranks, var_names[v], med,
                s[0], s[rounds - 1], bytes);
      }
      printf("  dl/MPICH %.2f dl/manual %.2f\n", vs_mpich, vs_manual);
      fflush(stdout);
    }
    pattern_free(&p);
  }
  if (rank == 0 && !matched) {
    bench_file_drop(&bf);
  } else if (rank == 0) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/coll.csv", out);
    if (!bench_file_commit("dataloop-coll-bench", &bf, path))
      failed = 1;
    else
      printf("results: %s\n", path);
  }
  MPI_Finalize();
  return failed;
}
