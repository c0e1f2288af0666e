/* dataloop-bench: manual loops, dataloop and MPICH side by side.
 *
 *   dataloop-bench [--quick | --full] [--unpack] [--filter NAME] [--out DIR]
 *   (--help explains each option)
 *
 * For every test: build the types (timed), pack with all three, require the
 * same bytes, unpack each stream back and require the same memory, then
 * time repeated batches, interleaving the engines, and report the median
 * and min-max spread of the rate. Results go to stdout as a table and to
 * DIR (default ./dataloop-results) as CSV and JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"

/* the compile passes in processes of their own (pass_times) */
enum { PASS_COLD, PASS_CACHED, PASS_BUSY, NPASS };

typedef struct opts {
  bool full, unpack;
  bool jit;              /* the library compiles (built --with-llvm) */
  const char *filter, *out;
  double batch_s;        /* minimum time of one timed batch */
  int batches;           /* timed batches per engine */
  int builds;            /* repetitions of the type-construction timing */
  bool compile_pass;     /* only compile every test's type (see pass_times) */
  bool busy;             /* ... after packing its data (a running program) */
  char *cache;           /* the run's object cache folder, made fresh */
} opts;

/* dataloop interpreted (DL_JIT=0 for the run) and compiled (dl_type_compile
   on a duplicate), each one-shot and in 64 KiB segment chunks */
enum { E_MANUAL, E_DL, E_CHUNKED, E_JIT, E_JIT_CHUNKED, E_MPICH, E_MEMCPY, NENG };
static const char *const eng_names[NENG] = {"manual", "dataloop", "dl-64K", "dl-jit",
                                            "jit-64K", BENCH_HOST, "memcpy"};

typedef struct stat3 {
  double med, lo, hi;    /* MB/s */
} stat3;

typedef struct result {
  char name[64];
  const char *group;
  size_t packed, extent;
  stat3 pack[NENG], unpack[NENG];
  double build_dl_us, build_mpi_us;
  double jit_ms;            /* compile time; -1: nothing compiled */
  double pass_ms[NPASS];    /* compile processes: cold, from the object
                               cache, from it amid packing; -1: none */
} result;

/* ---- the three engines ---- */

static dl_type *dl_of(int eng, const btest *t)
{
  return eng == E_JIT || eng == E_JIT_CHUNKED ? t->jt : t->dt;
}

static void run_pack(int eng, btest *t, char *out)
{
  size_t pos = 0;
  switch (eng) {
  case E_MANUAL:
    t->mpack(&t->p, t->mem, out);
    break;
  case E_DL:
  case E_JIT:
    if (dl_pack(t->origin, t->count, dl_of(eng, t), out, t->packed, &pos) != DL_OK)
      abort();
    break;
  case E_CHUNKED:
  case E_JIT_CHUNKED: {
    dl_segment *s;
    if (dl_segment_create(t->origin, t->count, dl_of(eng, t), &s) != DL_OK)
      abort();
    for (size_t at = 0; at < t->packed; at += 65536) {
      size_t last = at + 65536;
      dl_segment_pack(s, at, &last, out + at);
    }
    dl_segment_free(&s);
    break;
  }
  case E_MPICH: {
    int p = 0;
    MPI_Pack(t->origin, (int)t->count, t->mt, out, (int)t->packed, &p, MPI_COMM_SELF);
    break;
  }
  default:          /* the same bytes, contiguous: the machine's limit */
    memcpy(out, t->mem, t->packed);
  }
}

static void run_unpack(int eng, btest *t, const char *in)
{
  size_t pos = 0;
  switch (eng) {
  case E_MANUAL:
    t->munpack(&t->p, t->mem, in);
    break;
  case E_DL:
  case E_JIT:
    if (dl_unpack(in, t->packed, &pos, t->origin, t->count, dl_of(eng, t)) != DL_OK)
      abort();
    break;
  case E_CHUNKED:
  case E_JIT_CHUNKED: {
    dl_segment *s;
    if (dl_segment_create(t->origin, t->count, dl_of(eng, t), &s) != DL_OK)
      abort();
    for (size_t at = 0; at < t->packed; at += 65536) {
      size_t last = at + 65536;
      dl_segment_unpack(s, at, &last, in + at);
    }
    dl_segment_free(&s);
    break;
  }
  case E_MPICH: {
    int p = 0;
    MPI_Unpack(in, (int)t->packed, &p, t->origin, (int)t->count, t->mt, MPI_COMM_SELF);
    break;
  }
  default:
    memcpy(t->mem, in, t->packed);
  }
}

/* All engines must produce the manual loop's bytes, and unpacking a stream
   must leave memory exactly as the manual unpack does. */
static bool verify(btest *t, char *a, char *b)
{
  t->mpack(&t->p, t->mem, a);
  for (int e = E_DL; e <= E_MPICH; e++) {
    memset(b, 0x5a, t->packed);
    run_pack(e, t, b);
    if (memcmp(a, b, t->packed) != 0) {
      fprintf(stderr, "%s: %s pack differs from the manual loop\n", t->name,
              eng_names[e]);
      return false;
    }
  }
  char *keep = malloc(t->memlen), *want = malloc(t->memlen);
  memcpy(keep, t->mem, t->memlen);
  for (size_t i = 0; i < t->packed; i++)
    b[i] = (char)(i * 7 + 3);
  t->munpack(&t->p, t->mem, b);
  memcpy(want, t->mem, t->memlen);
  bool ok = true;
  for (int e = E_DL; e <= E_MPICH && ok; e++) {
    memcpy(t->mem, keep, t->memlen);
    run_unpack(e, t, b);
    if (memcmp(want, t->mem, t->memlen) != 0) {
      fprintf(stderr, "%s: %s unpack differs from the manual loop\n", t->name,
              eng_names[e]);
      ok = false;
    }
  }
  memcpy(t->mem, keep, t->memlen);
  free(keep);
  free(want);
  return ok;
}

static void run_engine(void *ctx, int eng, bool unpack, char *buf)
{
  unpack ? run_unpack(eng, ctx, buf) : run_pack(eng, ctx, buf);
}

static void measure(const opts *o, btest *t, bool unpack, char *buf, stat3 *st)
{
  double med[NENG], lo[NENG], hi[NENG];
  bool skip[NENG] = {false};
  skip[E_JIT] = skip[E_JIT_CHUNKED] = !o->jit;
  bench_measure(NENG, skip, run_engine, t, unpack, buf, t->packed, o->batch_s,
                o->batches, med, lo, hi);
  for (int e = 0; e < NENG; e++)
    st[e] = (stat3){med[e], lo[e], hi[e]};
}

/* median construction + commit time over repeated builds */
static void build_times(const opts *o, const bentry *e, result *r)
{
  double *d = malloc(sizeof(double) * (size_t)o->builds);
  double *m = malloc(sizeof(double) * (size_t)o->builds);
  bench_types_only = true;
  for (int i = 0; i < o->builds; i++) {
    btest t;
    bench_make(e, &t);
    d[i] = t.build_dl_us;
    m[i] = t.build_mpi_us;
    bench_free(&t);
  }
  bench_types_only = false;
  qsort(d, (size_t)o->builds, sizeof(double), bench_cmp_double);
  qsort(m, (size_t)o->builds, sizeof(double), bench_cmp_double);
  r->build_dl_us = d[o->builds / 2];
  r->build_mpi_us = m[o->builds / 2];
  free(d);
  free(m);
}


static void print_header(const opts *o)
{
  (void)o;
  printf("\n%-24s %7s %8s | %7s %7s %5s %7s %7s %7s %7s %7s | %6s %6s %6s %6s %6s %6s | %7s %7s %6s\n",
         "test", "size MB", "ext MB", "manual", "dataloop", "+-%", "dl-64K", "dl-jit",
         "jit-64K", BENCH_HOST, "memcpy", "dl/man", "dl/mpi", "64K/dl", "dl/mem", "jit/mn",
         "j64/jt", "type us", "MPI us", "jit ms");
  printf("%-24s %7s %8s | %64s | %41s | %s\n", "", "", "",
         "MB/s, median of batches (+-%: dataloop's spread)", "ratios",
         "type+commit, compile");
}

/* v in a column of width w with prec decimals; "-" for no number (a JIT
   column without a JIT) */
static const char *num(char *b, int w, int prec, double v)
{
  if (isfinite(v) && v >= 0)
    snprintf(b, 24, "%*.*f", w, prec, v);
  else
    snprintf(b, 24, "%*s", w, "-");
  return b;
}

static void print_row(const result *r, const stat3 *s, const char *dir)
{
  char label[80], b[5][24];
  snprintf(label, sizeof(label), "%s%s", r->name, dir);
  double spread = 100.0 * (s[E_DL].hi - s[E_DL].lo) / 2 / s[E_DL].med;
  printf("%-24s %7.2f %8.2f | %7.0f %7.0f %5.1f %7.0f %s %s %7.0f %7.0f | "
         "%6.2f %6.2f %6.2f %6.2f %s %s | %7.2f %7.2f %s\n",
         label, r->packed / 1048576.0, r->extent / 1048576.0, s[E_MANUAL].med,
         s[E_DL].med, spread, s[E_CHUNKED].med, num(b[0], 7, 0, s[E_JIT].med),
         num(b[1], 7, 0, s[E_JIT_CHUNKED].med), s[E_MPICH].med, s[E_MEMCPY].med,
         s[E_DL].med / s[E_MANUAL].med, s[E_DL].med / s[E_MPICH].med,
         s[E_CHUNKED].med / s[E_DL].med, s[E_DL].med / s[E_MEMCPY].med,
         num(b[2], 6, 2, s[E_JIT].med / s[E_MANUAL].med),
         num(b[3], 6, 2, s[E_JIT_CHUNKED].med / s[E_JIT].med), r->build_dl_us,
         r->build_mpi_us, num(b[4], 6, 2, r->jit_ms));
  fflush(stdout);
}

/* a CSV field: empty for no number */
static void csv_num(FILE *f, const char *fmt, double v)
{
  if (isfinite(v) && v >= 0)
    fprintf(f, fmt, v);
  else
    fputc(',', f);
}

/* a JSON number: null for none */
static void json_num(FILE *f, const char *fmt, double v)
{
  if (isfinite(v) && v >= 0)
    fprintf(f, fmt, v);
  else
    fputs("null", f);
}

static bool run_test(const opts *o, const bentry *e, result *r)
{
  btest t;
  if (!bench_make(e, &t)) {
    bench_free(&t);
    return false;
  }
  size_t sz;
  dl_pack_size(t.count, t.dt, &sz);
  int msz;
  MPI_Pack_size((int)t.count, t.mt, MPI_COMM_SELF, &msz);
  t.packed = sz;
  dl_aint tlb, text, lb, ext;
  dl_type_true_extent(t.dt, &tlb, &text);
  dl_type_extent(t.dt, &lb, &ext);
  t.extent = (size_t)((t.count - 1) * ext + text);
  /* the compiled twin: a duplicate, compiled now; the first compile of
     this shape in the run, so the time is a real compile */
  dl_type_dup(t.dt, &t.jt);
  double c0 = bench_now();
  int jrc = dl_type_compile(t.jt);
  double jit_ms = (bench_now() - c0) * 1e3;
  char *a = malloc(sz + 64), *b = malloc(sz + 64);
  bool ok = (size_t)msz >= sz && verify(&t, a, b);
  if (ok) {
    memset(r, 0, sizeof(*r));
    snprintf(r->name, sizeof(r->name), "%s", t.name);
    r->group = t.group;
    r->packed = t.packed;
    r->extent = t.extent;
    r->jit_ms = jrc == DL_OK ? jit_ms : -1;
    measure(o, &t, false, a, r->pack);
    if (o->unpack) {
      t.mpack(&t.p, t.mem, a);
      measure(o, &t, true, a, r->unpack);
    }
  }
  free(a);
  free(b);
  bench_free(&t);
  if (ok)
    build_times(o, e, r);
  return ok;
}

/* ---- machine limits and small-type latency ---- */

static double memcpy_rate(size_t bytes, const opts *o)
{
  char *a = malloc(bytes), *b = malloc(bytes);
  memset(a, 1, bytes);
  memset(b, 2, bytes);
  double best[64];
  int nb = o->batches;
  for (int k = 0; k < nb; k++) {
    long n = 0;
    double t0 = bench_now(), dt;
    do {
      memcpy(b, a, bytes);
      n++;
      dt = bench_now() - t0;
    } while (dt < o->batch_s);
    best[k] = (double)bytes * n / dt / 1e6;
  }
  qsort(best, (size_t)nb, sizeof(double), bench_cmp_double);
  free(a);
  free(b);
  return best[nb / 2];
}

static double latency_ns(dl_type *d, MPI_Datatype m, bool mpi, const opts *o)
{
  char in[256] = {0}, out[256];
  double v[64];
  long n = 200000;
  for (int k = 0; k < o->batches; k++) {
    double t0 = bench_now();
    for (long i = 0; i < n; i++) {
      if (mpi) {
        int p = 0;
        MPI_Pack(in, 1, m, out, sizeof(out), &p, MPI_COMM_SELF);
      } else {
        size_t p = 0;
        dl_pack(in, 1, d, out, sizeof(out), &p);
      }
      __asm__ volatile("" : : "r"(out) : "memory");
    }
    v[k] = (bench_now() - t0) / (double)n * 1e9;
  }
  qsort(v, (size_t)o->batches, sizeof(double), bench_cmp_double);
  return v[o->batches / 2];
}

/* ---- output files ---- */

/* the median and maximum of the times at field off of the tests that
   compiled; false if none */
static bool median_max(const result *rs, int n, size_t off, double *med, double *max, int *k)
{
  double ms[128];
  *k = 0;
  for (int i = 0; i < n && *k < 128; i++) {
    double v = *(const double *)((const char *)&rs[i] + off);
    if (rs[i].jit_ms >= 0 && v >= 0)
      ms[(*k)++] = v;
  }
  if (*k == 0)
    return false;
  qsort(ms, (size_t)*k, sizeof(double), bench_cmp_double);
  *med = *k % 2 ? ms[*k / 2] : (ms[*k / 2 - 1] + ms[*k / 2]) / 2;
  *max = ms[*k - 1];
  return true;
}

static void compile_summary(const result *rs, int n, const double pass_start[NPASS])
{
  double med, max;
  int k;
  if (!median_max(rs, n, offsetof(result, jit_ms), &med, &max, &k))
    return;
  printf("compile: median %.2f ms, max %.2f ms over %d compiled types\n", med, max, k);
  static const char *const what[NPASS] = {
      "in a process that only compiles, cold",
      "in a process that only compiles, from the object cache",
      "in a process that packs each type's data first, from the object cache"};
  for (int c = 0; c < NPASS; c++)
    if (median_max(rs, n, offsetof(result, pass_ms) + (size_t)c * sizeof(double), &med,
                   &max, &k))
      printf("compile %s: median %.3f ms, max %.3f ms over %d types; JIT start-up and a "
             "first compile %.2f ms\n", what[c], med, max, k, pass_start[c]);
}

/* uses of a type after which its compiled code has saved its compile time,
   from the interpreted and compiled rates of this run; -1 when compiled
   code is not faster */
static double payback_uses(const result *r, const stat3 *s)
{
  double t_dl = r->packed / (s[E_DL].med * 1e6);
  double t_jit = r->packed / (s[E_JIT].med * 1e6);
  return t_jit < t_dl ? r->jit_ms * 1e-3 / (t_dl - t_jit) : -1;
}

/* what the default DL_JIT_THRESHOLD is weighed against (doc/codegen.md) */
static void payback_summary(const opts *o, const result *rs, int n)
{
  printf("compile payback, in uses (-: compiled code not faster):\n");
  for (int i = 0; i < n; i++) {
    if (rs[i].jit_ms < 0)
      continue;
    double u[2] = {payback_uses(&rs[i], rs[i].pack),
                   o->unpack ? payback_uses(&rs[i], rs[i].unpack) : -2};
    printf("  %-24s", rs[i].name);
    for (int d = 0; d < 2; d++) {
      if (u[d] == -2)
        continue;
      if (u[d] < 0)
        printf(" %s -", d ? "unpack" : "pack");
      else
        printf(" %s %.0f", d ? "unpack" : "pack", u[d] < 1 ? 1 : u[d]);
    }
    printf("\n");
  }
}

static bool write_files(const opts *o, const result *rs, int n, double mc_big,
                        double mc_cache, const double lat[4],
                        const double starts[1 + NPASS])
{
  char path[4200];
  bench_file csv, json, dat;
  FILE *f = bench_file_open(&csv);
  fprintf(f, "test,group,direction,packed_bytes,extent_bytes");
  for (int e = 0; e < NENG; e++)
    fprintf(f, ",%s_mbs,%s_min,%s_max", eng_names[e], eng_names[e], eng_names[e]);
  fprintf(f, ",dl_over_manual,dl_over_mpich,jit_over_manual,build_dl_us,build_mpich_us,"
             "jit_ms,jit_pass_ms,jit_cached_ms,jit_busy_ms\n");
  for (int i = 0; i < n; i++)
    for (int dir = 0; dir < (o->unpack ? 2 : 1); dir++) {
      const stat3 *s = dir ? rs[i].unpack : rs[i].pack;
      fprintf(f, "\"%s\",%s,%s,%zu,%zu", rs[i].name, rs[i].group,
              dir ? "unpack" : "pack", rs[i].packed, rs[i].extent);
      for (int e = 0; e < NENG; e++) {
        csv_num(f, ",%.1f", s[e].med);
        csv_num(f, ",%.1f", s[e].lo);
        csv_num(f, ",%.1f", s[e].hi);
      }
      fprintf(f, ",%.3f,%.3f", s[E_DL].med / s[E_MANUAL].med, s[E_DL].med / s[E_MPICH].med);
      csv_num(f, ",%.3f", s[E_JIT].med / s[E_MANUAL].med);
      fprintf(f, ",%.3f,%.3f", rs[i].build_dl_us, rs[i].build_mpi_us);
      csv_num(f, ",%.3f", rs[i].jit_ms);
      for (int c = 0; c < NPASS; c++)
        csv_num(f, ",%.4f", rs[i].jit_ms >= 0 ? rs[i].pass_ms[c] : -1);
      fputc('\n', f);
    }
  f = bench_file_open(&json);
  fprintf(f, "{\n  \"mode\": \"%s\",\n  \"jit\": %s,\n"
          "  \"memcpy_mbs\": {\"large\": %.1f, \"cache\": %.1f},\n",
          o->full ? "full" : "quick", o->jit ? "true" : "false", mc_big, mc_cache);
  fprintf(f, "  \"jit_start_ms\": ");
  json_num(f, "%.3f", starts[0]);
  fprintf(f, ",\n  \"jit_pass_start_ms\": ");
  json_num(f, "%.3f", starts[1]);
  fprintf(f, ",\n  \"jit_cached_start_ms\": ");
  json_num(f, "%.3f", starts[2]);
  fprintf(f, ",\n  \"jit_busy_start_ms\": ");
  json_num(f, "%.3f", starts[3]);
  fprintf(f, ",\n  \"latency_ns\": {\"struct64_dataloop\": %.1f, \"struct64_mpich\": %.1f, "
          "\"vector3_dataloop\": %.1f, \"vector3_mpich\": %.1f},\n  \"tests\": [\n",
          lat[0], lat[1], lat[2], lat[3]);
  for (int i = 0; i < n; i++) {
    fprintf(f, "    {\"test\": \"%s\", \"group\": \"%s\", \"packed_bytes\": %zu, "
            "\"extent_bytes\": %zu, \"build_dl_us\": %.3f, \"build_mpich_us\": %.3f, "
            "\"jit_ms\": ", rs[i].name, rs[i].group, rs[i].packed, rs[i].extent,
            rs[i].build_dl_us, rs[i].build_mpi_us);
    json_num(f, "%.3f", rs[i].jit_ms);
    fprintf(f, ", \"jit_pass_ms\": ");
    json_num(f, "%.4f", rs[i].jit_ms >= 0 ? rs[i].pass_ms[0] : -1);
    fprintf(f, ", \"jit_cached_ms\": ");
    json_num(f, "%.4f", rs[i].jit_ms >= 0 ? rs[i].pass_ms[1] : -1);
    fprintf(f, ", \"jit_busy_ms\": ");
    json_num(f, "%.4f", rs[i].jit_ms >= 0 ? rs[i].pass_ms[2] : -1);
    for (int dir = 0; dir < (o->unpack ? 2 : 1); dir++) {
      const stat3 *s = dir ? rs[i].unpack : rs[i].pack;
      fprintf(f, ", \"%s\": {", dir ? "unpack" : "pack");
      for (int e = 0; e < NENG; e++) {
        fprintf(f, "%s\"%s\": {\"median\": ", e ? ", " : "", eng_names[e]);
        json_num(f, "%.1f", s[e].med);
        fprintf(f, ", \"min\": ");
        json_num(f, "%.1f", s[e].lo);
        fprintf(f, ", \"max\": ");
        json_num(f, "%.1f", s[e].hi);
        fprintf(f, "}");
      }
      fprintf(f, "}");
    }
    fprintf(f, "}%s\n", i + 1 < n ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  /* data for the plot: ratios per test */
  f = bench_file_open(&dat);
  fprintf(f, "# test dl/manual dl/mpich\n");
  for (int i = 0; i < n; i++)
    fprintf(f, "\"%s\" %.3f %.3f\n", rs[i].name, rs[i].pack[E_DL].med /
            rs[i].pack[E_MANUAL].med, rs[i].pack[E_DL].med / rs[i].pack[E_MPICH].med);
  bool ok = true;
  snprintf(path, sizeof(path), "%s/results.csv", o->out);
  ok &= bench_file_commit("dataloop-bench", &csv, path);
  snprintf(path, sizeof(path), "%s/results.json", o->out);
  ok &= bench_file_commit("dataloop-bench", &json, path);
  snprintf(path, sizeof(path), "%s/ratios.dat", o->out);
  ok &= bench_file_commit("dataloop-bench", &dat, path);
  return ok;
}

/* ---- compiles in processes of their own ----
 * The run compiles with the object cache off, so `jit ms` is a cold
 * compile amid the benchmark's traffic. Then this program runs three times
 * more with --compile-pass, in processes that build and compile the same
 * types in the same order, with an object cache folder made fresh for
 * them: the first compiles and fills it, the second finds every object,
 * the third (--busy) finds them after packing each type's data, as a
 * running program would. */

static void warm_type(dl_type **t)
{
  dl_type_vector(3, 1, 5, dl_builtin(DL_INT16), t);
  dl_type_commit(*t);
}

/* compile time in ms, or -1 when nothing compiles */
static double compile_ms(dl_type *t)
{
  double c0 = bench_now();
  int rc = dl_type_compile(t);
  return rc == DL_OK ? (bench_now() - c0) * 1e3 : -1;
}

/* packs t's data a few times, as a program does between its compiles:
   what a compile then finds of LLVM, the cache and the heap is a running
   program's */
static void busy_with(const btest *t)
{
  char *buf = malloc(t->packed ? t->packed : 1);
  for (int k = 0; buf && k < 3; k++) {
    size_t pos = 0;
    dl_pack(t->origin, t->count, t->dt, buf, t->packed, &pos);
  }
  free(buf);
}

/* --compile-pass: "start <ms>", then "<ms> <name>" for each selected test
   (--busy: each test's data packed first) */
static int compile_pass(const opts *o, const bentry *const *groups)
{
  dl_type *w;
  warm_type(&w);
  printf("start %.4f\n", compile_ms(w));
  dl_type_free(&w);
  bench_types_only = !o->busy;
  for (int g = 0; g < 3; g++)
    for (const bentry *e = groups[g]; e->name; e++) {
      if (!bench_matches(e->name, o->filter))
        continue;
      btest t;
      if (bench_make(e, &t)) {
        if (o->busy)
          busy_with(&t);
        printf("%.4f %s\n", compile_ms(t.dt), t.name);
      }
      bench_free(&t);
    }
  return 0;
}

static bool fresh_cache(opts *o)
{
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  size_t n = strlen(tmp) + 40;
  o->cache = malloc(n);
  snprintf(o->cache, n, "%s/dataloop-bench-jit.XXXXXX", tmp);
  if (!mkdtemp(o->cache)) {
    fprintf(stderr, "dataloop-bench: no object cache folder in %s: %s\n", tmp,
            strerror(errno));
    free(o->cache);
    o->cache = NULL;
    return false;
  }
  return true;
}

static void remove_cache(opts *o)
{
  if (!o->cache)
    return;
  DIR *d = opendir(o->cache);
  for (struct dirent *e; d && (e = readdir(d));) {
    char p[4200];
    snprintf(p, sizeof(p), "%s/%s", o->cache, e->d_name);
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      unlink(p);
  }
  if (d)
    closedir(d);
  rmdir(o->cache);
  free(o->cache);
  o->cache = NULL;
}

/* the compile pass is a singleton MPI process: not a rank of the mpiexec
   this run may be under, whose process-manager variables it would use */
static void forget_launcher(void)
{
  static const char *const prefixes[] = {"PMI_", "PMIX_", "HYDRA_", "MPIR_", "OMPI_"};
  for (;;) {
    char name[256] = "";
    for (char **e = environ; *e && !name[0]; e++)
      for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++)
        if (!strncmp(*e, prefixes[k], strlen(prefixes[k]))) {
          snprintf(name, sizeof(name), "%.*s", (int)strcspn(*e, "="), *e);
          break;
        }
    if (!name[0] || unsetenv(name))
      return;
  }
}

/* runs a compile pass in a process of its own with the run's object cache
   folder and fills pass_ms[c]; its JIT start-up in *start_ms (-1 if it
   did not run) */
static void pass_times(const opts *o, int c, result *rs, int n, double *start_ms)
{
  *start_ms = -1;
  for (int i = 0; i < n; i++)
    rs[i].pass_ms[c] = -1;
  int fds[2];
  if (pipe(fds))
    return;
  pid_t pid = fork();
  if (pid == 0) {
    setenv("DL_JIT_CACHE", o->cache, 1);
    forget_launcher();
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    char *argv[6] = {"dataloop-bench", "--compile-pass", NULL, NULL, NULL, NULL};
    int a = 2;
    if (c == PASS_BUSY)
      argv[a++] = "--busy";
    if (o->filter) {
      argv[a++] = "--filter";
      argv[a++] = (char *)o->filter;
    }
    execv("/proc/self/exe", argv);
    _exit(127);
  }
  close(fds[1]);
  FILE *f = pid > 0 ? fdopen(fds[0], "r") : NULL;
  char line[256];
  while (f && fgets(line, sizeof(line), f)) {
    line[strcspn(line, "\n")] = '\0';
    char *sp = strchr(line, ' ');
    if (!sp)
      continue;
    *sp = '\0';
    const char *rest = sp + 1;
    if (!strcmp(line, "start")) {
      *start_ms = atof(rest);
      continue;
    }
    for (int i = 0; i < n; i++)
      if (!strcmp(rs[i].name, rest))
        rs[i].pass_ms[c] = atof(line);
  }
  if (f)
    fclose(f);
  else
    close(fds[0]);
  if (pid > 0)
    waitpid(pid, NULL, 0);
}

static void usage(FILE *to, int code)
{
  fprintf(to,
    "usage: dataloop-bench [--quick | --full] [--unpack] [--filter NAME] [--out DIR]\n"
    "Packs the synthetic and application tests with hand-written loops,\n"
    "dataloop (interpreted and compiled, whole and in 64 KiB chunks) and " BENCH_HOST ",\n"
    "checks that all produce the same bytes, and times them.\n"
    "  --quick        short batches (9 of >= 10 ms per engine); the default\n"
    "  --full         long batches (21 of >= 40 ms), unpacking too\n"
    "  --unpack       time unpacking as well as packing\n"
    "  --filter NAME  only the tests whose name contains NAME (any case);\n"
    "                 none matching is an error\n"
    "  --out DIR      write results.csv, results.json and ratios.dat (for\n"
    "                 plot.gp) to DIR, made with its parents; default\n"
    "                 ./" BENCH_OUT_DEFAULT " (in the working directory)\n"
    "  -h, --help     this text\n"
    "  --compile-pass only build and compile every selected test's type,\n"
    "                 printing the times (the benchmark runs itself so, three\n"
    "                 times, to time compiles cold, from the object cache, and\n"
    "                 with --busy from it after packing each test's data)\n"
    "Without a JIT (built without --with-llvm) the dl-jit and jit-64K columns\n"
    "show - and their CSV fields are empty. Exit status: 0 when every test\n"
    "checked and every file was written, 1 otherwise, 2 for a bad option.\n");
  exit(code);
}

int main(int argc, char **argv)
{
  opts o = {.out = BENCH_OUT_DEFAULT, .batch_s = 0.01, .batches = 9, .builds = 9};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout, 0);
    } else if (!strcmp(argv[i], "--full")) {
      o.full = o.unpack = true;
      o.batch_s = 0.04;
      o.batches = 21;
      o.builds = 31;
    } else if (!strcmp(argv[i], "--quick")) {
      o.full = false;
    } else if (!strcmp(argv[i], "--compile-pass")) {
      o.compile_pass = true;
    } else if (!strcmp(argv[i], "--busy")) {
      o.busy = true;
    } else if (!strcmp(argv[i], "--unpack")) {
      o.unpack = true;
    } else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
      o.filter = argv[++i];
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      o.out = argv[++i];
    } else {
      usage(stderr, 2);
    }
  }
  const bentry *groups[3] = {bench_synthetic, bench_apps, bench_gathers};
  static const char *const group_names[3] = {"synthetic", "application", "gather"};
  const char *names[128];
  int nn = 0;
  for (int g = 0; g < 3; g++)
    for (const bentry *e = groups[g]; e->name && nn < 128; e++)
      names[nn++] = e->name;
  if (!bench_count_matches("dataloop-bench", names, nn, o.filter))
    return 1;
  /* the dataloop columns interpret; the dl-jit columns compile explicitly */
  setenv("DL_JIT", "0", 1);
  if (o.compile_pass) {
    MPI_Init(&argc, &argv);
    compile_pass(&o, groups);
    MPI_Finalize();
    return 0;
  }
  if (!bench_out_dir("dataloop-bench", o.out))
    return 1;
  setenv("DL_JIT_CACHE", "off", 1);      /* jit ms: a cold compile */
  fresh_cache(&o);
  MPI_Init(&argc, &argv);
  double mc_big = memcpy_rate(64 << 20, &o), mc_cache = memcpy_rate(128 << 10, &o);
  printf("dataloop benchmark (%s): median of %d batches of >= %.0f ms each\n",
         o.full ? "full" : "quick", o.batches, o.batch_s * 1e3);
  printf("memcpy: %.0f MB/s (64 MiB), %.0f MB/s (128 KiB, in cache)\n", mc_big, mc_cache);
  dl_type *d1, *d2;
  MPI_Datatype m1, m2;
  bench_small_types(&d1, &m1, &d2, &m2);
  double lat[4] = {latency_ns(d1, m1, false, &o), latency_ns(d1, m1, true, &o),
                   latency_ns(d2, m2, false, &o), latency_ns(d2, m2, true, &o)};
  printf("per-call latency, count 1: 64-byte struct %.1f ns (" BENCH_HOST " %.1f ns), "
         "3-double vector %.1f ns (" BENCH_HOST " %.1f ns)\n", lat[0], lat[1], lat[2], lat[3]);
  dl_type_free(&d1);
  dl_type_free(&d2);
  MPI_Type_free(&m1);
  MPI_Type_free(&m2);
  /* the JIT's one-time start-up, with a compile of a shape no test has, so
     that each test's compile time below is its own */
  dl_type *warm;
  warm_type(&warm);
  double w0 = bench_now();
  int wrc = dl_type_compile(warm);
  double jit_start_ms = wrc == DL_OK ? (bench_now() - w0) * 1e3 : -1;
  dl_type_free(&warm);
  o.jit = wrc == DL_OK;
  if (o.jit)
    printf("JIT start-up and a first 3-block compile: %.2f ms\n", jit_start_ms);
  else
    printf("JIT: not available (%s): the dl-jit and jit-64K columns show -\n",
           dl_strerror(wrc));

  result *rs = calloc(128, sizeof(result));
  int n = 0, failed = 0;
  print_header(&o);
  for (int g = 0; g < 3; g++)
    for (const bentry *e = groups[g]; e->name; e++) {
      if (!bench_matches(e->name, o.filter))
        continue;
      if (!run_test(&o, e, &rs[n])) {
        fprintf(stderr, "%s: FAILED verification; not timed\n", e->name);
        failed++;
        continue;
      }
      rs[n].group = group_names[g];
      print_row(&rs[n], rs[n].pack, "");
      if (o.unpack)
        print_row(&rs[n], rs[n].unpack, " unpack");
      n++;
    }
  double pass_start[NPASS] = {-1, -1, -1};
  for (int c = 0; c < NPASS && o.jit && o.cache; c++)
    pass_times(&o, c, rs, n, &pass_start[c]);
  remove_cache(&o);
  compile_summary(rs, n, pass_start);
  payback_summary(&o, rs, n);
  double starts[1 + NPASS] = {jit_start_ms, pass_start[0], pass_start[1], pass_start[2]};
  bool written = write_files(&o, rs, n, mc_big, mc_cache, lat, starts);
  if (written)
    printf("\nresults: %s/results.csv, %s/results.json\n", o.out, o.out);
  free(rs);
  MPI_Finalize();
  return failed || !written ? 1 : 0;
}
