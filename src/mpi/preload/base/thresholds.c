/* The interposer's thresholds (doc/tuning.md): derived from the machine's
 * caches, then the tuning file dataloop-tune writes, then the environment.
 * Read once; tests and the benchmark may read them again while nothing is
 * in flight. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"
#include "thresholds.h"
#include "../../../tune/tune.h"
#include "../../../../dataloop/env.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)
#define MAX_CHUNK (1u << 30)      /* chunks use the int-count MPI calls */
#define NEVER ((size_t)1 << 50)

static const char *const names[DLP_NROUTES] = {"direct", "pack", "blocks", "mpich",
                                               "pipeline"};
static dlp_thresholds th;
/* the one-sided model without a tuning file: read off dataloop-rma-bench's
   medians (doc/rma.md says where and when; a tuning file replaces them) */
static const dlp_rma_model default_rma = {
  .put = {3000, 340, 0.09, 150000, 0.2, 30},
  .get = {3000, 340, 0.09, 150000, 0.2, 30},
  .pb = 1, .pn = 0.1, .pf = 8, .from = "default"};
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool no_host_lines;     /* tests only, while nothing is in flight */

const char *dlp_route_name(int route)
{
  return route >= 0 && route < DLP_NROUTES ? names[route] : "?";
}

int dlp_route_named(const char *name)
{
  for (int r = 0; r < DLP_NROUTES; r++)
    if (strcmp(name, names[r]) == 0)
      return r;
  return -1;
}

static size_t clamp(size_t v, size_t lo, size_t hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* a route's name, or a fan-out: the value of a point; false when bad */
typedef bool (*point_fn)(const char *text, size_t *v);

static bool route_value(const char *text, size_t *v)
{
  int r = dlp_route_named(text);
  *v = (size_t)r;
  return r == DLP_R_PACK || r == DLP_R_BLOCKS || r == DLP_R_MPICH;
}

static bool count_value(const char *text, size_t *v)
{
  return dli_parse_bytes(text, v);
}

/* "<table>@<message> <block>:<value> ...": a line with a bad entry is
   left out whole, a repeated message size replaces its row */
static void table_row(dlp_table *t, const char *message, const char *value, point_fn fn)
{
  struct dlp_row r = {0};
  if (!dli_parse_bytes(message, &r.message) || r.message == 0)
    return;
  char buf[512];
  snprintf(buf, sizeof(buf), "%s", value);
  for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w;
       w = strtok_r(NULL, " \t", &save)) {
    char *colon = strchr(w, ':');
    if (!colon || r.n == DLP_ROW_POINTS)
      return;
    *colon = '\0';
    size_t block, v;
    if (!dli_parse_bytes(w, &block) || block == 0 || !fn(colon + 1, &v))
      return;
    r.at[r.n++] = (struct dlp_point){block, v};
  }
  if (r.n == 0)
    return;
  int i = 0;
  while (i < t->rows && t->row[i].message != r.message)
    i++;
  if (i == DLP_ROWS)
    return;
  t->row[i] = r;
  if (i == t->rows)
    t->rows++;
}

/* n non-negative numbers, or false (the line is left out) */
static bool numbers(const char *text, double *v, int n)
{
  for (int i = 0; i < n; i++) {
    char *end;
    v[i] = strtod(text, &end);
    if (end == text || !(v[i] >= 0 && v[i] < 1e15))
      return false;
    text = end;
  }
  while (*text == ' ' || *text == '\t')
    text++;
  return *text == '\0';
}

static void rma_link(dlp_rma_link *l, const char *value, const char *from)
{
  double v[6];
  if (!numbers(value, v, 6))
    return;
  *l = (dlp_rma_link){v[0], v[1], v[2], v[3], v[4], v[5]};
  th.rma.from = from;
}

/* a line of the tuning file, or of the host's (ctx: where it is from) */
static void file_key(void *ctx, const char *name, const char *value)
{
  const char *from = ctx;
  size_t v;
  if (strcmp(name, "pipeline_chunk") == 0) {
    if (dli_parse_bytes(value, &v) && v >= 1 && v <= MAX_CHUNK) {
      th.chunk = v;
      th.chunk_from = from;
    }
  } else if (strcmp(name, "direct_block") == 0) {
    if (dli_parse_bytes(value, &v) && v >= 1) {
      th.direct_block = v;
      th.direct_from = from;
    }
  } else if (strcmp(name, "coll_block") == 0) {
    if (dli_parse_bytes(value, &v) && v >= 1) {
      th.coll_block = v;
      th.coll_from = from;
    }
  } else if (strcmp(name, "defer_bytes") == 0) {
    if (dli_parse_bytes(value, &v)) {
      th.defer_bytes = v;
      th.defer_from = from;
    }
  } else if (strcmp(name, "sparse_span") == 0) {
    double r;
    if (numbers(value, &r, 1)) {
      th.sparse_span = r;
      th.sparse_from = from;
    }
  } else if (strcmp(name, "rma_put") == 0) {
    rma_link(&th.rma.put, value, from);
  } else if (strcmp(name, "rma_get") == 0) {
    rma_link(&th.rma.get, value, from);
  } else if (strcmp(name, "rma_land") == 0) {
    double v[2];
    if (numbers(value, v, 2)) {
      th.rma.land_L = v[0];
      th.rma.land_G = v[1];
      th.rma.land_set = true;
      th.rma.from = from;
    }
  } else if (strcmp(name, "rma_pack") == 0) {
    double v[3];
    if (numbers(value, v, 3) || (numbers(value, v, 2) && (v[2] = default_rma.pf, true))) {
      th.rma.pb = v[0];
      th.rma.pn = v[1];
      th.rma.pf = v[2];
    }
  } else if (strncmp(name, "route@", 6) == 0) {
    table_row(&th.route, name + 6, value, route_value);
  } else if (strncmp(name, "stream@", 7) == 0) {
    table_row(&th.stream, name + 7, value, route_value);
  } else if (strncmp(name, "mpich@", 6) == 0) {
    table_row(&th.mpich, name + 6, value, count_value);
  }
}

static void load(void)
{
  const dl_tune *t = dl_tune_get();
  const char *machine = t->l2 ? "caches" : "default";
  th = (dlp_thresholds){.chunk_from = machine, .direct_from = machine,
                        .coll_from = "default", .defer_from = "default",
                        .sparse_from = "default"};
  /* a pipeline ring of four chunks stays in one core's L2 */
  th.chunk = t->l2 ? clamp(t->l2 / 4, 64 * KIB, 4 * MIB) : 256 * KIB;
  /* a block of half the L2 or more is out of cache by the time its packed
     copy is sent: packing it costs a whole extra pass over memory */
  th.direct_block = t->l2 ? clamp(t->l2 / 2, 64 * KIB, 16 * MIB) : 512 * KIB;
  th.coll_block = 2 * KIB;
  /* below this, decoding a type used once costs more than dataloop can
     gain on its one message (doc/tuning.md) */
  th.defer_bytes = 2 * KIB;
  th.rma = default_rma;
  const char *host = no_host_lines ? NULL : dlp_host_tuning();
  if (host)
    dli_tune_lines_each(host, file_key, (void *)dlp_host_name());
  /* a file's tables, measured together on its machine, replace the
     host's together */
  dlp_table route = th.route, stream = th.stream, mpich = th.mpich;
  th.route = th.stream = th.mpich = (dlp_table){0};
  dli_tune_file_each(file_key, (void *)"file");
  if (!th.route.rows && !th.stream.rows && !th.mpich.rows) {
    th.route = route;
    th.stream = stream;
    th.mpich = mpich;
  }
  if (!th.rma.land_set) {     /* a file of before rma_land, or none */
    th.rma.land_L = th.rma.put.L;
    th.rma.land_G = th.rma.put.G;
  }
  size_t v = dli_env_bytes("DL_PIPELINE_CHUNK", 0, 1, MAX_CHUNK);
  if (v) {
    th.chunk = v;
    th.chunk_from = "environment";
  }
  v = dli_env_bytes("DL_DIRECT_BLOCK", 0, 1, NEVER);
  if (v) {
    th.direct_block = v;
    th.direct_from = "environment";
    th.direct_env = true;
  }
  v = dli_env_bytes("DL_COLL_BLOCK", 0, 1, NEVER);
  if (v) {
    th.coll_block = v;
    th.coll_from = "environment";
  }
  v = dli_env_bytes("DL_DEFER_BYTES", SIZE_MAX, 0, NEVER);   /* 0 is a value */
  if (v != SIZE_MAX) {
    th.defer_bytes = v;
    th.defer_from = "environment";
  }
}

const dlp_thresholds *dlp_th(void)
{
  pthread_once(&once, load);
  return &th;
}

void dlp_thresholds_reload(void)
{
  pthread_once(&once, load);
  load();
}

void dlp_thresholds_host_lines(bool read)
{
  no_host_lines = !read;
}

/* how far apart two sizes are on a log scale: the larger over the smaller */
static double apart(size_t a, size_t b)
{
  a = a ? a : 1;
  return a < b ? (double)b / (double)a : (double)a / (double)b;
}

/* the point of table t measured nearest (message size, then block size);
   NULL when it has no rows or DL_DIRECT_BLOCK decides */
static const struct dlp_point *nearest(const dlp_table *t, size_t bytes, size_t block)
{
  const struct dlp_row *row = NULL;
  for (int i = 0; !dlp_th()->direct_env && i < t->rows; i++)
    if (!row || apart(bytes, t->row[i].message) < apart(bytes, row->message))
      row = &t->row[i];
  if (!row)
    return NULL;
  const struct dlp_point *p = &row->at[0];
  for (int i = 1; i < row->n; i++)
    if (apart(block, row->at[i].block) < apart(block, p->block))
      p = &row->at[i];
  return p;
}

int dlp_route_for(size_t bytes, size_t mean_block, bool stream)
{
  const dlp_thresholds *t = dlp_th();
  const dlp_table *table = stream && t->stream.rows ? &t->stream : &t->route;
  const struct dlp_point *p = nearest(table, bytes, mean_block);
  if (p)
    return (int)p->v;
  return mean_block >= dlp_th()->direct_block ? DLP_R_BLOCKS : DLP_R_PACK;
}

bool dlp_sparse(const dlp_data *d)
{
  double r = dlp_th()->sparse_span;
  dl_aint lb, ext, tlb, text;
  if (r <= 0 || dlp_th()->direct_env || d->dense || d->bytes == 0 ||
      dl_type_extent(d->t, &lb, &ext) || dl_type_true_extent(d->t, &tlb, &text))
    return false;
  double span = (double)text + (double)(d->count - 1) * (double)(ext < 0 ? -ext : ext);
  size_t l2 = dl_tune_get()->l2;
  return span >= r * (double)d->bytes && span > (double)(l2 ? l2 : MIB);
}

bool dlp_mpich_wins(size_t bytes, size_t mean_block, dl_count fanout)
{
  const struct dlp_point *p = nearest(&dlp_th()->mpich, bytes, mean_block);
  return p && p->v > 0 && (double)fanout * (double)fanout <= 8.0 * (double)p->v * (double)p->v;
}

/* the rows of table t, as the file has them */
static void print_table(FILE *f, const char *name, const dlp_table *t, bool routes)
{
  for (int i = 0; i < t->rows; i++) {
    fprintf(f, "%s@", name);
    dli_tune_print_bytes(f, t->row[i].message);
    for (int k = 0; k < t->row[i].n; k++) {
      fputc(k ? ' ' : '\t', f);
      dli_tune_print_bytes(f, t->row[i].at[k].block);
      if (routes)
        fprintf(f, ":%s", dlp_route_name((int)t->row[i].at[k].v));
      else
        fprintf(f, ":%zu", t->row[i].at[k].v);
    }
    fputc('\n', f);
  }
}

void dlp_thresholds_print(FILE *f)
{
  const dlp_thresholds *t = dlp_th();
  fprintf(f, "pipeline_chunk  ");
  dli_tune_print_bytes(f, t->chunk);
  fprintf(f, "\t# %s; DL_PIPELINE_CHUNK overrides\ndirect_block    ", t->chunk_from);
  dli_tune_print_bytes(f, t->direct_block);
  fprintf(f, "\t# %s; DL_DIRECT_BLOCK overrides, the route table too\n",
          t->direct_from);
  fprintf(f, "coll_block      ");
  dli_tune_print_bytes(f, t->coll_block);
  fprintf(f, "\t# %s; DL_COLL_BLOCK overrides\nsparse_span     %g\t# %s\n", t->coll_from,
          t->sparse_span, t->sparse_from);
  fprintf(f, "defer_bytes     ");
  dli_tune_print_bytes(f, t->defer_bytes);
  fprintf(f, "\t# %s; DL_DEFER_BYTES overrides (0: every type decoded at its first "
          "use)\n", t->defer_from);
  const dlp_rma_model *r = &t->rma;
  for (int g = 0; g < 2; g++) {
    const dlp_rma_link *l = g ? &r->get : &r->put;
    fprintf(f, "rma_%s         %.0f %.0f %.4f %.0f %.4f %.1f\t# %s: L o G ot Gt ht (ns)\n",
            g ? "get" : "put", l->L, l->o, l->G, l->ot, l->Gt, l->ht, r->from);
  }
  fprintf(f, "rma_land        %.0f %.4f\t# %s: a landing's message, L G (ns)\n",
          r->land_L, r->land_G, r->from);
  fprintf(f, "rma_pack        %.2f %.4f %.2f\t# ns per block, per byte, per block "
          "far apart\n", r->pb, r->pn, r->pf);
  print_table(f, "route", &t->route, true);
  print_table(f, "stream", &t->stream, true);
  print_table(f, "mpich", &t->mpich, false);
}
