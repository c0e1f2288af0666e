/* dataloop-x32-bench: external32 packing of the synthetic suite, beside
 * native packing and beside MPICH's MPI_Pack_external, in one run.
 *
 *   dataloop-x32-bench [--quick | --full] [--unpack] [--filter NAME] [--out DIR]
 *   (--help explains each option)
 *
 * Each test's external32 stream is checked first: dataloop's must equal
 * MPICH's byte for byte where MPICH can convert the type (it aborts on
 * structs that mix basic types: Struct Array), and unpacking it must give
 * the memory back. Then engines are timed in interleaved batches; rates are
 * MB/s of native packed bytes (the data moved), median of the batches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench.h"
#include "../dataloop/loop.h"

enum { X_NATIVE, X_X32, X_X32_64K, X_MPICH, X_MPICH_X32, NX };
static const char *const names[NX] = {"native", "x32", "x32-64K", "MPICH",
                                      "MPICH-x32"};

typedef struct xtest {
  btest t;
  size_t xbytes;            /* external32 bytes */
  bool mpich_x32;           /* MPICH converts this type */
} xtest;

static void x_pack(xtest *x, int eng, char *out)
{
  btest *t = &x->t;
  size_t pos = 0;
  int rc = DL_OK;
  switch (eng) {
  case X_NATIVE:
    rc = dl_pack(t->origin, t->count, t->dt, out, t->packed, &pos);
    break;
  case X_X32:
    rc = dl_pack_external("external32", t->origin, t->count, t->dt, out, x->xbytes,
                          &pos);
    break;
  case X_X32_64K: {
    dl_segment *s;
    rc = dl_segment_create(t->origin, t->count, t->dt, &s);
    for (size_t at = 0; !rc && at < x->xbytes; at += 65536) {
      size_t last = at + 65536;
      rc = dl_segment_pack_external("external32", s, at, &last, out + at);
    }
    dl_segment_free(&s);
    break;
  }
  case X_MPICH: {
    int p = 0;
    MPI_Pack(t->origin, (int)t->count, t->mt, out, (int)t->packed, &p, MPI_COMM_SELF);
    break;
  }
  default: {
    MPI_Aint p = 0;
    MPI_Pack_external("external32", t->origin, (int)t->count, t->mt, out,
                      (MPI_Aint)x->xbytes, &p);
  }
  }
  if (rc) {
    fprintf(stderr, "%s: %s: %s\n", x->t.name, names[eng], dl_strerror(rc));
    abort();
  }
}

static void x_unpack(xtest *x, int eng, const char *in)
{
  btest *t = &x->t;
  size_t pos = 0;
  int rc = DL_OK;
  switch (eng) {
  case X_NATIVE:
    rc = dl_unpack(in, t->packed, &pos, t->origin, t->count, t->dt);
    break;
  case X_X32:
    rc = dl_unpack_external("external32", in, x->xbytes, &pos, t->origin, t->count,
                            t->dt);
    break;
  case X_X32_64K: {
    dl_segment *s;
    rc = dl_segment_create(t->origin, t->count, t->dt, &s);
    for (size_t at = 0; !rc && at < x->xbytes; at += 65536) {
      size_t last = at + 65536;
      rc = dl_segment_unpack_external("external32", s, at, &last, in + at);
    }
    dl_segment_free(&s);
    break;
  }
  case X_MPICH: {
    int p = 0;
    MPI_Unpack(in, (int)t->packed, &p, t->origin, (int)t->count, t->mt, MPI_COMM_SELF);
    break;
  }
  default: {
    MPI_Aint p = 0;
    MPI_Unpack_external("external32", in, (MPI_Aint)x->xbytes, &p, t->origin,
                        (int)t->count, t->mt);
  }
  }
  if (rc) {
    fprintf(stderr, "%s: %s: %s\n", x->t.name, names[eng], dl_strerror(rc));
    abort();
  }
}

static void run(void *ctx, int eng, bool unpack, char *buf)
{
  unpack ? x_unpack(ctx, eng, buf) : x_pack(ctx, eng, buf);
}

/* MPICH's external32 converts a type made of one basic type only (it
   aborts on a struct of ints and doubles): the type's signature says */
static bool one_basic(const xtest *x)
{
  const dli_sig *s = x->t.dt->sig;
  return s && s->basic != DLI_SIG_SEQ;
}

/* the stream checked before timing */
static bool verify(xtest *x, char *a, char *b)
{
  btest *t = &x->t;
  memset(a, 0x11, x->xbytes);
  x_pack(x, X_X32, a);
  if (x->mpich_x32) {
    memset(b, 0x22, x->xbytes);
    x_pack(x, X_MPICH_X32, b);
    if (memcmp(a, b, x->xbytes) != 0) {
      fprintf(stderr, "%s: external32 differs from MPICH's\n", t->name);
      return false;
    }
  }
  memset(b, 0x33, x->xbytes);
  x_pack(x, X_X32_64K, b);
  if (memcmp(a, b, x->xbytes) != 0) {
    fprintf(stderr, "%s: external32 in 64 KiB pieces differs\n", t->name);
    return false;
  }
  /* unpacked into scrambled memory, every packed byte comes back */
  char *keep = malloc(t->memlen), *n1 = malloc(t->packed), *n2 = malloc(t->packed);
  memcpy(keep, t->mem, t->memlen);
  x_pack(x, X_NATIVE, n1);
  for (size_t i = 0; i < t->memlen; i++)
    t->mem[i] ^= (char)0x5a;
  x_unpack(x, X_X32, a);
  x_pack(x, X_NATIVE, n2);
  bool ok = memcmp(n1, n2, t->packed) == 0;
  if (!ok)
    fprintf(stderr, "%s: external32 unpack does not restore the data\n", t->name);
  memcpy(t->mem, keep, t->memlen);
  free(keep);
  free(n1);
  free(n2);
  return ok;
}


static void usage(FILE *to, int code)
{
  fprintf(to,
    "usage: dataloop-x32-bench [--quick | --full] [--unpack] [--filter NAME] [--out DIR]\n"
    "Packs the synthetic tests to external32 with dataloop (whole and in 64 KiB\n"
    "chunks) beside native packing and MPICH's MPI_Pack / MPI_Pack_external,\n"
    "after checking the streams agree, and times them.\n"
    "  --quick        short batches (9 of >= 10 ms per engine); the default\n"
    "  --full         long batches (21 of >= 40 ms)\n"
    "  --unpack       time unpacking as well as packing\n"
    "  --filter NAME  only the tests whose name contains NAME (any case);\n"
    "                 none matching is an error\n"
    "  --out DIR      write external.csv to DIR, made with its parents;\n"
    "                 default ./" BENCH_OUT_DEFAULT " (in the working directory)\n"
    "  -h, --help     this text\n"
    "Exit status: 0 when every test checked and the file was written, 1\n"
    "otherwise, 2 for a bad option.\n");
  exit(code);
}

int main(int argc, char **argv)
{
  bool full = false, unpack = false;
  const char *filter = NULL, *out = BENCH_OUT_DEFAULT;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      usage(stdout, 0);
    else if (!strcmp(argv[i], "--quick"))
      full = false;
    else if (!strcmp(argv[i], "--full"))
      full = true;
    else if (!strcmp(argv[i], "--unpack"))
      unpack = true;
    else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
      filter = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else
      usage(stderr, 2);
  }
  const char *names[128];
  int nn = 0;
  for (const bentry *e = bench_synthetic; e->name && nn < 128; e++)
    names[nn++] = e->name;
  if (!bench_count_matches("dataloop-x32-bench", names, nn, filter) ||
      !bench_out_dir("dataloop-x32-bench", out))
    return 1;
  double batch_s = full ? 0.04 : 0.01;
  int batches = full ? 21 : 9;
  setenv("DL_JIT", "0", 1);
  MPI_Init(&argc, &argv);
  printf("external32 benchmark (%s): median of %d batches of >= %.0f ms; MB/s "
         "of native bytes\n", full ? "full" : "quick", batches, batch_s * 1e3);
  printf("\n%-24s %7s %7s | %7s %7s %7s %7s %9s | %7s %7s %7s\n", "test", "size MB",
         "x32 MB", names[0], names[1], names[2], names[3], names[4], "x32/nat",
         "x32/MPx", "64K/x32");
  char path[4200];
  snprintf(path, sizeof(path), "%s/external.csv", out);
  bench_file file;
  FILE *csv = bench_file_open(&file);
  fprintf(csv, "test,direction,packed_bytes,x32_bytes,native_mbs,x32_mbs,"
                 "x32_64k_mbs,mpich_mbs,mpich_x32_mbs\n");
  int failed = 0;
  for (const bentry *e = bench_synthetic; e->name; e++) {
    if (!bench_matches(e->name, filter))
      continue;
    xtest x;
    memset(&x, 0, sizeof(x));
    if (!bench_make(e, &x.t)) {
      fprintf(stderr, "%s: cannot be built\n", e->name);
      failed++;
      bench_free(&x.t);
      continue;
    }
    if (dl_pack_size(x.t.count, x.t.dt, &x.t.packed) != DL_OK ||
        dl_pack_external_size("external32", x.t.count, x.t.dt, &x.xbytes) != DL_OK) {
      fprintf(stderr, "%s: no external32 size\n", e->name);
      failed++;
      bench_free(&x.t);
      continue;
    }
    x.mpich_x32 = one_basic(&x);
    size_t room = x.xbytes > x.t.packed ? x.xbytes : x.t.packed;
    char *a = malloc(room + 64), *b = malloc(room + 64);
    if (!verify(&x, a, b)) {
      failed++;
    } else {
      int neng = x.mpich_x32 ? NX : NX - 1;
      for (int dir = 0; dir < 1 + unpack; dir++) {
        double med[NX] = {0}, lo[NX], hi[NX];
        if (dir)
          x_pack(&x, X_X32, a);         /* a stream for both kinds of unpack */
        bench_measure(neng, NULL, run, &x, dir, a, x.t.packed, batch_s, batches, med, lo,
                      hi);
        char label[80], mp[16] = "-", ratio[16] = "-";
        snprintf(label, sizeof(label), "%s%s", e->name, dir ? " unpack" : "");
        if (x.mpich_x32) {
          snprintf(mp, sizeof(mp), "%9.0f", med[X_MPICH_X32]);
          snprintf(ratio, sizeof(ratio), "%7.2f", med[X_X32] / med[X_MPICH_X32]);
        }
        printf("%-24s %7.2f %7.2f | %7.0f %7.0f %7.0f %7.0f %9s | %7.2f %7s %7.2f\n",
               label, x.t.packed / 1048576.0, x.xbytes / 1048576.0, med[X_NATIVE],
               med[X_X32], med[X_X32_64K], med[X_MPICH], mp,
               med[X_X32] / med[X_NATIVE], ratio, med[X_X32_64K] / med[X_X32]);
        fflush(stdout);
        /* MPICH-x32 empty where MPICH cannot convert the type */
        fprintf(csv, "\"%s\",%s,%zu,%zu,%.1f,%.1f,%.1f,%.1f,", e->name,
                dir ? "unpack" : "pack", x.t.packed, x.xbytes, med[X_NATIVE],
                med[X_X32], med[X_X32_64K], med[X_MPICH]);
        if (x.mpich_x32)
          fprintf(csv, "%.1f", med[X_MPICH_X32]);
        fputc('\n', csv);
      }
    }
    free(a);
    free(b);
    bench_free(&x.t);
  }
  if (bench_file_commit("dataloop-x32-bench", &file, path))
    printf("\nresults: %s\n", path);
  else
    failed++;
  MPI_Finalize();
  return failed ? 1 : 0;
}
