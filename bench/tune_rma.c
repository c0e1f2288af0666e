/* dataloop-tune's one-sided part: fits the model that chooses a one-sided
 * route (src/mpi/preload/rma/rma_model.c, doc/rma.md) on this machine, by
 * least squares over medians:
 *   contiguous   m puts (gets) of b bytes, then MPI_Win_flush:
 *                L + m * o + m * b * G
 *   derived      one put (get) of n = k * b bytes whose target is k blocks
 *                of b bytes, then the flush: L + ot + n * Gt + k * ht
 *   landing      m messages of b bytes, the last answered by an empty
 *                one: c + m * land_L + m * b * land_G (relative errors
 *                weighed)
 *   packing      dl_pack of k blocks of b bytes: k * pb + n * pn; and of
 *                16384 doubles spread over four times the last-level cache
 *                (at least 64 MiB): k * (pb + pf) + n * pn
 * Rank 0 is the origin, MPICH's own calls (PMPI_) move the data, rank 1
 * takes the landings' messages, then waits in a barrier (where MPICH
 * progresses its side). */
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "preload.h"
#include "tune_rma.h"

#define WIN ((size_t)32 << 20)
#define MAXPTS 16

typedef struct pt {
  double x[3], y;          /* features; median ns */
  size_t b, k;
} pt;

/* c minimising the squared error of c . x against y (normal equations,
   Gaussian elimination with partial pivoting); R^2 returned */
static double fit3(const pt *p, int n, double c[3])
{
  double a[3][4] = {{0}};
  for (int i = 0; i < n; i++)
    for (int r = 0; r < 3; r++) {
      for (int s = 0; s < 3; s++)
        a[r][s] += p[i].x[r] * p[i].x[s];
      a[r][3] += p[i].x[r] * p[i].y;
    }
  for (int col = 0; col < 3; col++) {
    int piv = col;
    for (int r = col + 1; r < 3; r++)
      if (__builtin_fabs(a[r][col]) > __builtin_fabs(a[piv][col]))
        piv = r;
    for (int s = 0; s < 4; s++) {
      double tmp = a[col][s];
      a[col][s] = a[piv][s];
      a[piv][s] = tmp;
    }
    for (int r = 0; r < 3; r++)
      if (r != col && a[col][col] != 0) {
        double f = a[r][col] / a[col][col];
        for (int s = col; s < 4; s++)
          a[r][s] -= f * a[col][s];
      }
  }
  for (int r = 0; r < 3; r++)
    c[r] = a[r][r] != 0 && a[r][3] / a[r][r] > 0 ? a[r][3] / a[r][r] : 0;
  double mean = 0, tot = 0, res = 0;
  for (int i = 0; i < n; i++)
    mean += p[i].y / n;
  for (int i = 0; i < n; i++) {
    double f = c[0] * p[i].x[0] + c[1] * p[i].x[1] + c[2] * p[i].x[2];
    tot += (p[i].y - mean) * (p[i].y - mean);
    res += (p[i].y - f) * (p[i].y - f);
  }
  return tot > 0 ? 1 - res / tot : 1;
}

typedef struct rig {
  MPI_Win win;
  char *src;
  int reps;
  double run_s;
} rig;

/* one epoch: m operations of b bytes each (get: into src), or with
   target type tt one operation of n bytes; then the flush */
static void epoch(const rig *g, bool get, size_t m, size_t b, MPI_Datatype tt, size_t n)
{
  if (tt != MPI_DATATYPE_NULL) {
    if (get)
      PMPI_Get_c(g->src, (MPI_Count)n, MPI_BYTE, 1, 0, 1, tt, g->win);
    else
      PMPI_Put_c(g->src, (MPI_Count)n, MPI_BYTE, 1, 0, 1, tt, g->win);
  } else {
    for (size_t i = 0; i < m; i++) {
      MPI_Aint at = (MPI_Aint)(2 * i * b);
      if (get)
        PMPI_Get_c(g->src + at, (MPI_Count)b, MPI_BYTE, 1, at, (MPI_Count)b, MPI_BYTE,
                   g->win);
      else
        PMPI_Put_c(g->src + at, (MPI_Count)b, MPI_BYTE, 1, at, (MPI_Count)b, MPI_BYTE,
                   g->win);
    }
  }
  PMPI_Win_flush(1, g->win);
}

/* median ns of one epoch over g->reps runs of enough epochs to last run_s */
static double time_epochs(const rig *g, bool get, size_t m, size_t b, MPI_Datatype tt,
                          size_t n)
{
  double t0 = bench_now();
  epoch(g, get, m, b, tt, n);
  double one = bench_now() - t0;
  long times = one > 0 ? (long)(g->run_s / one) : 1000;
  times = times < 1 ? 1 : times > 1000 ? 1000 : times;
  double v[32];
  for (int r = 0; r < g->reps; r++) {
    t0 = bench_now();
    for (long i = 0; i < times; i++)
      epoch(g, get, m, b, tt, n);
    v[r] = (bench_now() - t0) / (double)times * 1e9;
  }
  qsort(v, (size_t)g->reps, sizeof(double), bench_cmp_double);
  return v[g->reps / 2];
}

static MPI_Datatype blocks_of(size_t k, size_t b)
{
  MPI_Datatype t;
#if MPI_VERSION >= 4
  PMPI_Type_create_hvector_c((MPI_Count)k, (MPI_Count)b, (MPI_Aint)(2 * b), MPI_BYTE, &t);
#else   /* (a host of MPI 3.1: the counts here fit an int) */
  PMPI_Type_create_hvector((int)k, (int)b, (MPI_Aint)(2 * b), MPI_BYTE, &t);
#endif
  PMPI_Type_commit(&t);
  return t;
}

static const size_t cb[] = {8, 256, 8192, 262144}, cm[] = {1, 32, 256};
static const size_t db[] = {8, 64, 1024}, dk[] = {16, 1024, 16384};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static void link_fit(const rig *g, bool get, dlp_rma_link *l, FILE *csv, bool smoke)
{
  pt p[MAXPTS];
  int n = 0;
  for (size_t i = 0; i < N(cb); i++)
    for (size_t j = 0; j < N(cm) && n < MAXPTS; j++) {
      size_t b = cb[i], m = cm[j];
      if (2 * m * b > WIN || (smoke && (m > 32 || b > 8192)))
        continue;
      p[n] = (pt){{1, (double)m, (double)(m * b)}, 0, b, m};
      p[n].y = time_epochs(g, get, m, b, MPI_DATATYPE_NULL, 0);
      n++;
    }
  double c[3];
  double r2 = fit3(p, n, c);
  *l = (dlp_rma_link){.L = c[0], .o = c[1], .G = c[2]};
  for (int i = 0; i < n; i++)
    fprintf(csv, "%s,contiguous,%zu,%zu,%.0f,%.0f\n", get ? "get" : "put", p[i].b,
            p[i].k, p[i].y, c[0] + c[1] * p[i].x[1] + c[2] * p[i].x[2]);
  printf("  %s contiguous: L %.0f ns, o %.0f ns, G %.4f ns/B (R^2 %.3f, %d points)\n",
         get ? "get" : "put", c[0], c[1], c[2], r2, n);
  n = 0;
  for (size_t i = 0; i < N(db); i++)
    for (size_t j = 0; j < N(dk) && n < MAXPTS; j++) {
      size_t b = db[i], k = dk[j];
      if (2 * k * b > WIN || (smoke && k > 1024))
        continue;
      MPI_Datatype t = blocks_of(k, b);
      p[n] = (pt){{1, (double)(k * b), (double)k}, 0, b, k};
      p[n].y = time_epochs(g, get, 1, 0, t, k * b);
      PMPI_Type_free(&t);
      n++;
    }
  r2 = fit3(p, n, c);
  l->ot = c[0] > l->L ? c[0] - l->L : 0;
  l->Gt = c[1];
  l->ht = c[2];
  for (int i = 0; i < n; i++)
    fprintf(csv, "%s,derived,%zu,%zu,%.0f,%.0f\n", get ? "get" : "put", p[i].b, p[i].k,
            p[i].y, c[0] + c[1] * p[i].x[1] + c[2] * p[i].x[2]);
  printf("  %s derived target: ot %.0f ns, Gt %.4f ns/B, ht %.1f ns/block (R^2 %.3f)\n",
         get ? "get" : "put", l->ot, l->Gt, l->ht, r2);
}

/* what a landing costs (landing.c sends each with MPI_Isend as it is
   packed, and the target's fence finds them one by one with MPI_Improbe
   and MPI_Mrecv): batches of m messages of b bytes sent back to back and
   taken so, the last answered with an empty one, fit as c + m L + m b G
   (c: the answer's trip). Both ranks: rank 1 takes them until an empty
   message of TAG_END */
enum { TAG_MSG = 1, TAG_LAST = 2, TAG_END = 3 };
#define MAX_BATCH 256

static double batch_ns(const rig *g, char *buf, size_t b, size_t m)
{
  double v[32];
  MPI_Request rq[MAX_BATCH];
  MPI_Status sts[MAX_BATCH];
  for (int r = 0; r < g->reps; r++) {
    long times = 0;
    double t0 = bench_now(), el;
    do {
      for (size_t i = 0; i < m; i++)
        PMPI_Isend(buf + (i * b) % ((size_t)4 << 20), (int)b, MPI_BYTE, 1,
                   i + 1 == m ? TAG_LAST : TAG_MSG, MPI_COMM_WORLD, &rq[i]);
      PMPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_MSG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      PMPI_Waitall((int)m, rq, sts);
      times++;
    } while ((el = bench_now() - t0) < g->run_s / 4);
    v[r] = el / (double)times * 1e9;
  }
  qsort(v, (size_t)g->reps, sizeof(double), bench_cmp_double);
  return v[g->reps / 2];
}

static const struct {
  size_t b, m;
} lb[] = {{4096, 1}, {4096, 32}, {4096, 256}, {65536, 1}, {65536, 16},
          {524288, 1}, {524288, 4}, {4194304, 1}};

static void land_fit(const rig *g, int rank, dlp_rma_model *md, FILE *csv, bool smoke)
{
  char *buf = malloc((size_t)8 << 20);
  if (rank == 1) {
    for (;;) {
      MPI_Message m;
      MPI_Status st;
      int n = 0, here = 0;
      while (!here)
        PMPI_Improbe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &here, &m, &st);
      PMPI_Get_count(&st, MPI_BYTE, &n);
      PMPI_Mrecv(buf, n, MPI_BYTE, &m, MPI_STATUS_IGNORE);
      if (st.MPI_TAG == TAG_END)
        break;
      if (st.MPI_TAG == TAG_LAST)
        PMPI_Send(NULL, 0, MPI_BYTE, 0, TAG_MSG, MPI_COMM_WORLD);
    }
    free(buf);
    return;
  }
  memset(buf, 1, (size_t)8 << 20);
  pt p[MAXPTS];
  int n = 0;
  for (size_t i = 0; i < N(lb); i++) {
    if (smoke && (lb[i].b > 65536 || lb[i].m > 32))
      continue;
    double y = batch_ns(g, buf, lb[i].b, lb[i].m), m = (double)lb[i].m;
    /* each point divided by its time: the fit weighs relative errors, so
       that the largest message does not drown the latency */
    p[n] = (pt){{1 / y, m / y, m * (double)lb[i].b / y}, 1, lb[i].b, lb[i].m};
    n++;
  }
  PMPI_Send(NULL, 0, MPI_BYTE, 1, TAG_END, MPI_COMM_WORLD);
  free(buf);
  double c[3];
  fit3(p, n, c);
  md->land_L = c[1];
  md->land_G = c[2];
  md->land_set = true;
  for (int i = 0; i < n; i++)
    fprintf(csv, "land,messages,%zu,%zu,%.0f,%.0f\n", p[i].b, p[i].k, 1 / p[i].x[0],
            c[0] + (c[1] + c[2] * (double)p[i].b) * (double)p[i].k);
  printf("  a landing: L %.0f ns, G %.4f ns/B (batches of messages; the answer %.0f ns)\n",
         md->land_L, md->land_G, c[0]);
}

/* median ns of dl_pack of t at src (n bytes) over g->reps runs */
static double pack_ns(const rig *g, const void *src, const dl_type *t, char *out, size_t n)
{
  double v[32];
  for (int r = 0; r < g->reps; r++) {
    long times = 0;
    double t0 = bench_now(), el;
    do {
      size_t pos = 0;
      dl_pack(src, 1, t, out, n, &pos);
      times++;
    } while ((el = bench_now() - t0) < g->run_s / 4);
    v[r] = el / (double)times * 1e9;
  }
  qsort(v, (size_t)g->reps, sizeof(double), bench_cmp_double);
  return v[g->reps / 2];
}

/* dataloop's packing of k blocks of b bytes (rank 0) */
static void pack_fit(const rig *g, dlp_rma_model *md, FILE *csv, bool smoke)
{
  pt p[MAXPTS];
  int n = 0;
  char *out = malloc(WIN / 2);
  for (size_t i = 0; i < N(db); i++)
    for (size_t j = 0; j < N(dk); j++) {
      size_t b = db[i], k = dk[j];
      if (2 * k * b > WIN || (smoke && k > 1024))
        continue;
      dl_type *t;
      dl_type_hvector((dl_count)k, (dl_count)b, (dl_aint)(2 * b), dl_builtin(DL_BYTE), &t);
      dl_type_commit(t);
      double y = pack_ns(g, g->src, t, out, k * b);
      dl_type_free(&t);
      p[n] = (pt){{1, (double)k, (double)(k * b)}, y, b, k};
      n++;
    }
  free(out);
  double c[3];
  double r2 = fit3(p, n, c);
  md->pb = c[1];
  md->pn = c[2];
  for (int i = 0; i < n; i++)
    fprintf(csv, "pack,copy,%zu,%zu,%.0f,%.0f\n", p[i].b, p[i].k, p[i].y,
            c[0] + c[1] * p[i].x[1] + c[2] * p[i].x[2]);
  printf("  packing: %.2f ns/block, %.4f ns/B (R^2 %.3f)\n", md->pb, md->pn, r2);
}

/* what a block costs more where the blocks lie far apart, each a miss
   (rank 0; smoke runs keep the default) */
static void far_fit(const rig *g, dlp_rma_model *md, FILE *csv)
{
  const size_t k = 16384, b = 8;
  size_t l3 = dl_tune_get()->l3, span = 4 * (l3 ? l3 : (size_t)32 << 20);
  span = span < ((size_t)64 << 20) ? (size_t)64 << 20 : span;
  size_t stride = span / k / 64 * 64;
  char *mem = malloc(span), *out = malloc(k * b);
  dl_type *t = NULL;
  if (!mem || !out ||
      dl_type_hvector((dl_count)k, (dl_count)b, (dl_aint)stride, dl_builtin(DL_BYTE), &t) ||
      dl_type_commit(t)) {
    fprintf(stderr, "dataloop-tune: no memory for the far-apart layout; pf kept\n");
  } else {
    memset(mem, 1, span);
    double y = pack_ns(g, mem, t, out, k * b), near = md->pb * (double)k + md->pn * (double)(k * b);
    md->pf = y > near ? (y - near) / (double)k : 0;
    fprintf(csv, "pack,far,%zu,%zu,%.0f,%.0f\n", b, k, y, near + md->pf * (double)k);
    printf("  packing blocks far apart (%zu of %zu bytes, %zu bytes apart): %.2f ns/block "
           "more\n", k, b, stride, md->pf);
  }
  if (t)
    dl_type_free(&t);
  free(mem);
  free(out);
}

void tune_rma(dlp_rma_model *md, FILE *csv, int reps, double run_s, bool smoke)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  rig g = {.reps = reps, .run_s = run_s};
  char *base;
  PMPI_Win_allocate((MPI_Aint)WIN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &g.win);
  memset(base, 0, WIN);
  g.src = malloc(WIN);
  memset(g.src, 1, WIN);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("\none-sided model (doc/rma.md):\n");
  land_fit(&g, rank, md, csv, smoke);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    PMPI_Win_lock_all(0, g.win);
    link_fit(&g, false, &md->put, csv, smoke);
    link_fit(&g, true, &md->get, csv, smoke);
    PMPI_Win_unlock_all(g.win);
    pack_fit(&g, md, csv, smoke);
    if (!smoke)
      far_fit(&g, md, csv);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  PMPI_Win_free(&g.win);
  free(g.src);
}
