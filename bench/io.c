/* dataloop-io-bench: noncontiguous file I/O, dataloop against ROMIO.
 *
 *   dataloop-io-bench [--quick | --full] [--filter NAME] [--dir DIR]... [--out FILE]
 *   (--help explains each option)
 *
 * Patterns (the data moved is the same for both engines):
 *   Flash mem->file   the Flash I/O type of bench/synthetic.c as the memory
 *                     type, written contiguously to the file (and read back)
 *   Flash file views  the checkpoint as file views: each of the 24 variables
 *                     of every interior cell through its own view, from
 *                     contiguous memory (the whole Flash type, variables
 *                     outermost, is not a legal filetype: its
 *                     displacements decrease)
 *   3D subarray       a block of a 3D array of doubles, a subarray view,
 *                     contiguous memory
 * Each pattern is written over an existing file (so both engines do the
 * same read-modify-write work) and read back, on every directory given
 * (default: /dev/shm and the current directory), engines interleaved,
 * median of the repetitions. Page-cache throughput: nothing is synced.
 * After timing, the files and memory both engines produced are compared
 * byte for byte. */
#include <fcntl.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "dataloop-io.h"
#include "bench.h"

typedef struct opts {
  int reps, flash_blocks, cube;
  const char *dirs[8];
  int ndirs;
  const char *out;
  const char *filter;
} opts;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static void die(const char *what)
{
  fprintf(stderr, "dataloop-io-bench: %s failed\n", what);
  exit(1);
}

/* ---- one pattern: views for both engines, one or more accesses ---- */

typedef struct ioacc {
  dl_aint disp;
  dl_type *ft, *mt;            /* dataloop */
  MPI_Datatype mft, mmt;       /* MPI */
  size_t memoff;               /* buffer = memory + memoff */
  dl_count count;
} ioacc;

typedef struct pattern {
  char name[48];
  ioacc acc[24];
  int nacc;
  size_t memlen, filelen, bytes;   /* bytes moved per write or read */
  dl_type *own_dl[2];              /* the types to free */
  MPI_Datatype own_mpi[2];
} pattern;

static void free_pattern(pattern *p)
{
  for (int i = 0; i < 2; i++) {
    if (p->own_dl[i])
      dl_type_free(&p->own_dl[i]);
    if (p->own_mpi[i] != MPI_DATATYPE_NULL)
      MPI_Type_free(&p->own_mpi[i]);
  }
}

/* ---- Flash: nb blocks of 16^3 cells of 24 doubles, 8^3 interior ---- */
enum { SIDE = 16, G = 4, NX = 8, NVAR = 24, CELL = NVAR * 8 };

static void flash_types(int nb, int nvar, dl_type **d, MPI_Datatype *m)
{
  dl_type *x, *y, *z, *b;
  MPI_Datatype mx, my, mz, mb;
  dl_type_hvector(NX, 1, CELL, dl_builtin(DL_DOUBLE), &x);
  dl_type_hvector(NX, 1, SIDE * CELL, x, &y);
  dl_type_hvector(NX, 1, SIDE * SIDE * CELL, y, &z);
  dl_type_hvector(nb, 1, SIDE * SIDE * SIDE * CELL, z, &b);
  MPI_Type_create_hvector(NX, 1, CELL, MPI_DOUBLE, &mx);
  MPI_Type_create_hvector(NX, 1, SIDE * CELL, mx, &my);
  MPI_Type_create_hvector(NX, 1, SIDE * SIDE * CELL, my, &mz);
  MPI_Type_create_hvector(nb, 1, SIDE * SIDE * SIDE * CELL, mz, &mb);
  if (nvar > 1) {
    dl_type_hvector(nvar, 1, 8, b, d);
    MPI_Type_create_hvector(nvar, 1, 8, mb, m);
  } else {
    dl_type_dup(b, d);
    MPI_Type_dup(mb, m);
  }
  dl_type_commit(*d);
  MPI_Type_commit(m);
  dl_type *ts[] = {x, y, z, b};
  MPI_Datatype ms[] = {mx, my, mz, mb};
  for (int i = 0; i < 4; i++) {
    dl_type_free(&ts[i]);
    MPI_Type_free(&ms[i]);
  }
}

static size_t flash_interior(void)
{
  return ((size_t)(G * SIDE + G) * SIDE + G) * CELL;
}

static void flash_mem_to_file(const opts *o, pattern *p)
{
  int nb = o->flash_blocks;
  snprintf(p->name, sizeof(p->name), "Flash mem->file");
  ioacc *a = &p->acc[0];
  flash_types(nb, NVAR, &a->mt, &a->mmt);
  a->ft = dl_builtin(DL_BYTE);
  a->mft = MPI_BYTE;
  a->memoff = flash_interior();
  a->count = 1;
  p->nacc = 1;
  p->own_dl[0] = a->mt;
  p->own_mpi[0] = a->mmt;
  p->memlen = (size_t)nb * SIDE * SIDE * SIDE * CELL;
  p->bytes = (size_t)nb * NX * NX * NX * CELL;
  p->filelen = p->bytes;
}

static void flash_file_views(const opts *o, pattern *p)
{
  int nb = o->flash_blocks;
  snprintf(p->name, sizeof(p->name), "Flash file views");
  dl_type *ft;
  MPI_Datatype mft;
  flash_types(nb, 1, &ft, &mft);
  size_t per = (size_t)nb * NX * NX * NX * 8;
  for (int v = 0; v < NVAR; v++) {
    ioacc *a = &p->acc[v];
    a->disp = (dl_aint)(flash_interior() + 8 * (size_t)v);
    a->ft = ft;
    a->mft = mft;
    a->mt = dl_builtin(DL_BYTE);
    a->mmt = MPI_BYTE;
    a->memoff = per * (size_t)v;
    a->count = (dl_count)per;
  }
  p->nacc = NVAR;
  p->own_dl[0] = ft;
  p->own_mpi[0] = mft;
  p->memlen = per * NVAR;
  p->bytes = per * NVAR;
  p->filelen = (size_t)nb * SIDE * SIDE * SIDE * CELL;
}

/* an n^3 array of doubles; the block of (n/2)^3 at (n/4, n/4, n/4) */
static void subarray3d(const opts *o, pattern *p)
{
  int n = o->cube, s = n / 2, st = n / 4;
  snprintf(p->name, sizeof(p->name), "3D subarray %d^3 of %d^3", s, n);
  ioacc *a = &p->acc[0];
  dl_count sz[3] = {n, n, n}, sb[3] = {s, s, s}, sta[3] = {st, st, st};
  int msz[3] = {n, n, n}, msb[3] = {s, s, s}, msta[3] = {st, st, st};
  dl_type_subarray(3, sz, sb, sta, DL_ORDER_C, dl_builtin(DL_DOUBLE), &a->ft);
  dl_type_commit(a->ft);
  MPI_Type_create_subarray(3, msz, msb, msta, MPI_ORDER_C, MPI_DOUBLE, &a->mft);
  MPI_Type_commit(&a->mft);
  a->mt = dl_builtin(DL_DOUBLE);
  a->mmt = MPI_DOUBLE;
  a->count = (dl_count)s * s * s;
  p->nacc = 1;
  p->own_dl[0] = a->ft;
  p->own_mpi[0] = a->mft;
  p->memlen = (size_t)s * s * s * 8;
  p->bytes = p->memlen;
  p->filelen = (size_t)n * n * n * 8;
}

/* ---- the engines ---- */

static void run_dl(const char *path, pattern *p, char *mem, bool write)
{
  int fd = open(path, O_RDWR);
  if (fd < 0)
    die("open");
  for (int i = 0; i < p->nacc; i++) {
    ioacc *a = &p->acc[i];
    dl_file_view *v;
    size_t bytes;
    if (dl_file_view_create(fd, a->disp, dl_builtin(DL_BYTE), a->ft, &v))
      die("dl_file_view_create");
    int rc = write ? dl_file_write_at(v, 0, mem + a->memoff, a->count, a->mt, &bytes)
                   : dl_file_read_at(v, 0, mem + a->memoff, a->count, a->mt, &bytes);
    if (rc)
      die(write ? "dl_file_write_at" : "dl_file_read_at");
    dl_file_view_free(&v);
  }
  close(fd);
}

static void run_romio(const char *path, pattern *p, char *mem, bool write)
{
  MPI_File f;
  if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDWR, MPI_INFO_NULL, &f))
    die("MPI_File_open");
  for (int i = 0; i < p->nacc; i++) {
    ioacc *a = &p->acc[i];
    MPI_Status st;
    MPI_File_set_view(f, a->disp, MPI_BYTE, a->mft, "native", MPI_INFO_NULL);
    int rc = write ? MPI_File_write_at(f, 0, mem + a->memoff, (int)a->count, a->mmt, &st)
                   : MPI_File_read_at(f, 0, mem + a->memoff, (int)a->count, a->mmt, &st);
    if (rc)
      die(write ? "MPI_File_write_at" : "MPI_File_read_at");
  }
  MPI_File_close(&f);
}

static void fill_file(const char *path, size_t len)
{
  int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
  char *b = malloc(1 << 20);
  memset(b, 0x5a, 1 << 20);
  for (size_t at = 0; at < len; at += 1 << 20) {
    size_t k = len - at < (1 << 20) ? len - at : 1 << 20;
    if (fd < 0 || pwrite(fd, b, k, (off_t)at) != (ssize_t)k)
      die("creating the file");
  }
  free(b);
  close(fd);
}

static char *slurp(const char *path, size_t len)
{
  char *b = malloc(len + 1);
  int fd = open(path, O_RDONLY);
  if (fd < 0 || pread(fd, b, len, 0) != (ssize_t)len)
    die("reading the file back");
  close(fd);
  return b;
}

typedef struct result {
  char pattern[48], dir[128];
  size_t bytes;
  double mbs[2][2];       /* [write/read][dataloop/ROMIO] */
  bool same;
} result;

static double measure(const opts *o, const char *path, pattern *p, char *mem,
                      bool write, int eng, double *samples)
{
  (void)o;
  double t0 = now();
  if (eng == 0)
    run_dl(path, p, mem, write);
  else
    run_romio(path, p, mem, write);
  double dt = now() - t0;
  *samples = (double)p->bytes / dt / 1e6;
  return dt;
}

static void bench_pattern(const opts *o, const char *dir, pattern *p, result *r)
{
  char path[2][512];
  for (int e = 0; e < 2; e++)
    snprintf(path[e], sizeof(path[e]), "%s/dl-io-bench-%s.%ld", dir, e ? "romio" : "dl",
             (long)getpid());
  char *mem = malloc(p->memlen);
  for (size_t i = 0; i < p->memlen; i++)
    mem[i] = (char)(i * 2654435761u >> 13);
  for (int e = 0; e < 2; e++)
    fill_file(path[e], p->filelen);
  double s[2][2][64];
  for (int rep = 0; rep < o->reps; rep++)
    for (int w = 1; w >= 0; w--)
      for (int e = 0; e < 2; e++)
        measure(o, path[e], p, mem, w == 1, e, &s[1 - w][e][rep]);
  for (int d = 0; d < 2; d++)
    for (int e = 0; e < 2; e++) {
      qsort(s[d][e], (size_t)o->reps, sizeof(double), cmp_double);
      r->mbs[d][e] = s[d][e][o->reps / 2];
    }
  /* both files and both reads agree */
  char *f0 = slurp(path[0], p->filelen), *f1 = slurp(path[1], p->filelen);
  char *m0 = calloc(p->memlen, 1), *m1 = calloc(p->memlen, 1);
  run_dl(path[0], p, m0, false);
  run_romio(path[1], p, m1, false);
  r->same = memcmp(f0, f1, p->filelen) == 0 && memcmp(m0, m1, p->memlen) == 0;
  snprintf(r->pattern, sizeof(r->pattern), "%s", p->name);
  snprintf(r->dir, sizeof(r->dir), "%s", dir);
  r->bytes = p->bytes;
  free(f0);
  free(f1);
  free(m0);
  free(m1);
  free(mem);
  for (int e = 0; e < 2; e++)
    unlink(path[e]);
}

static void usage(FILE *to, int code)
{
  fprintf(to,
    "usage: dataloop-io-bench [--quick | --full] [--filter NAME] [--dir DIR]... "
    "[--out FILE]\n"
    "Writes and reads noncontiguous data through dataloop's MPI-IO layer and\n"
    "through ROMIO (Flash checkpoint, Flash file views, a 3D subarray), checks\n"
    "that both leave the same files and memory, and times them.\n"
    "  --quick        5 runs of each, 40 Flash blocks, a 192^3 cube; the default\n"
    "  --full         11 runs, 80 Flash blocks, a 256^3 cube\n"
    "  --filter NAME  only the patterns whose name contains NAME (any case:\n"
    "                 \"Flash mem\", \"Flash file\", \"subarray\"); none\n"
    "                 matching is an error\n"
    "  --dir DIR      a folder to put the test files in (repeatable, up to 8;\n"
    "                 default /dev/shm and the working directory)\n"
    "  --out FILE     write the CSV to FILE, its folder made with parents;\n"
    "                 default ./" BENCH_OUT_DEFAULT "/io.csv (in the working directory)\n"
    "  -h, --help     this text\n"
    "Exit status: 0 when both engines agreed everywhere and the file was\n"
    "written, 1 otherwise, 2 for a bad option.\n");
  exit(code);
}

int main(int argc, char **argv)
{
  opts o = {.reps = 5, .flash_blocks = 40, .cube = 192,
            .out = BENCH_OUT_DEFAULT "/io.csv"};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout, 0);
    } else if (!strcmp(argv[i], "--full")) {
      o.reps = 11;
      o.flash_blocks = 80;
      o.cube = 256;
    } else if (!strcmp(argv[i], "--quick")) {
      o.reps = 5;
    } else if (!strcmp(argv[i], "--dir") && i + 1 < argc && o.ndirs < 8) {
      o.dirs[o.ndirs++] = argv[++i];
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      o.out = argv[++i];
    } else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
      o.filter = argv[++i];
    } else {
      usage(stderr, 2);
    }
  }
  /* the patterns' names before their sizes are known (makers below) */
  static const char *const pnames[] = {"Flash mem->file", "Flash file views",
                                       "3D subarray", NULL};
  if (!bench_count_matches("dataloop-io-bench", pnames, -1, o.filter) ||
      !bench_out_parent("dataloop-io-bench", o.out))
    return 1;
  if (o.ndirs == 0) {
    o.dirs[o.ndirs++] = "/dev/shm";
    o.dirs[o.ndirs++] = ".";
  }
  MPI_Init(&argc, &argv);
  void (*makers[])(const opts *, pattern *) = {flash_mem_to_file, flash_file_views,
                                               subarray3d};
  enum { NPAT = 3 };
  result rs[8 * NPAT];
  int n = 0, bad = 0;
  printf("dataloop-io-bench: median of %d runs, MB/s of data moved (page cache, "
         "no sync); files overwritten in place\n\n", o.reps);
  printf("%-28s %-12s %8s | %9s %9s %6s | %9s %9s %6s | %s\n", "pattern", "directory",
         "data MB", "dl write", "ROMIO", "ratio", "dl read", "ROMIO", "ratio", "same");
  for (int d = 0; d < o.ndirs; d++)
    for (int k = 0; k < NPAT; k++) {
      if (!bench_matches(pnames[k], o.filter))
        continue;
      pattern p;
      memset(&p, 0, sizeof(p));
      p.own_mpi[0] = p.own_mpi[1] = MPI_DATATYPE_NULL;
      makers[k](&o, &p);
      result *r = &rs[n++];
      bench_pattern(&o, o.dirs[d], &p, r);
      free_pattern(&p);
      printf("%-28s %-12s %8.2f | %9.0f %9.0f %6.2f | %9.0f %9.0f %6.2f | %s\n",
             r->pattern, r->dir, r->bytes / 1048576.0, r->mbs[0][0], r->mbs[0][1],
             r->mbs[0][0] / r->mbs[0][1], r->mbs[1][0], r->mbs[1][1],
             r->mbs[1][0] / r->mbs[1][1], r->same ? "yes" : "NO");
      fflush(stdout);
      bad += !r->same;
    }
  bench_file file;
  FILE *f = bench_file_open(&file);
  {
    fprintf(f, "pattern,dir,bytes,dl_write_mbs,romio_write_mbs,dl_read_mbs,romio_read_mbs,"
               "same\n");
    for (int i = 0; i < n; i++)
      fprintf(f, "\"%s\",\"%s\",%zu,%.1f,%.1f,%.1f,%.1f,%d\n", rs[i].pattern, rs[i].dir,
              rs[i].bytes, rs[i].mbs[0][0], rs[i].mbs[0][1], rs[i].mbs[1][0],
              rs[i].mbs[1][1], rs[i].same);
    if (bench_file_commit("dataloop-io-bench", &file, o.out))
      printf("\nresults: %s\n", o.out);
    else
      bad++;
  }
  MPI_Finalize();
  return bad ? 1 : 0;
}
