/* Type to type: dl_copy against packing into a staging buffer and
 * unpacking from it, for pairs of suite layouts with equal signatures
 * (alike types on both sides among them),
 * with memcpy of the same bytes in the same run; and the sweep over run
 * lengths that chose the lockstep threshold (doc/benchmarks.md). */
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "actions.h"

#define N_ELEMS 1048576
#define CUBE 256

typedef struct pair {
  const char *name;
  char *src, *dst, *smem, *dmem, *stage, *copy;
  dl_type *st, *dt;
  dl_count sc, dc;
  size_t bytes;
  int force;          /* route forced for E_COPY (the sweep), or 0 */
} pair;

enum { E_MEMCPY, E_STAGED, E_COPY, E_CHUNKED, NENG };

static void run(void *ctx, int eng, bool unpack, char *buf)
{
  (void)unpack;
  (void)buf;
  pair *p = ctx;
  size_t pos = 0, n;
  switch (eng) {
  case E_MEMCPY:
    memcpy(p->copy, p->stage, p->bytes);
    break;
  case E_STAGED:
    dl_pack(p->src, p->sc, p->st, p->stage, p->bytes, &pos);
    pos = 0;
    dl_unpack(p->stage, p->bytes, &pos, p->dst, p->dc, p->dt);
    break;
  default:
    dli_copy_force_route(eng == E_CHUNKED ? DLI_COPY_CHUNKED : p->force);
    dl_copy(p->src, p->sc, p->st, p->dst, p->dc, p->dt, &n);
    dli_copy_force_route(0);
  }
}

static char *filled(size_t bytes)
{
  char *m = malloc(bytes + 64);
  if (!m)
    exit(1);
  for (size_t i = 0; i < bytes; i++)
    m[i] = (char)(i * 131 + 7);
  return m;
}

/* memory for both sides, staging, and a check that dl_copy and the staged
   copy leave the same destination */
static bool prepare(pair *p, size_t slen, size_t soff, size_t dlen, size_t doff)
{
  dl_type_commit(p->st);
  dl_type_commit(p->dt);
  size_t a, b;
  dl_pack_size(p->sc, p->st, &a);
  dl_pack_size(p->dc, p->dt, &b);
  if (a != b) {
    fprintf(stderr, "%s: packed sizes differ (%zu, %zu)\n", p->name, a, b);
    return false;
  }
  p->bytes = a;
  p->smem = filled(slen);
  p->dmem = calloc(dlen + 64, 1);
  p->src = p->smem + soff;
  p->dst = p->dmem + doff;
  p->stage = malloc(a);
  p->copy = malloc(a);
  char *want = malloc(dlen);
  run(p, E_STAGED, false, NULL);
  memcpy(want, p->dmem, dlen);
  memset(p->dmem, 0, dlen);
  run(p, E_COPY, false, NULL);
  bool ok = memcmp(want, p->dmem, dlen) == 0;
  if (!ok)
    fprintf(stderr, "%s: dl_copy and pack+unpack differ\n", p->name);
  free(want);
  return ok;
}

static void release(pair *p)
{
  dl_type_free(&p->st);
  dl_type_free(&p->dt);
  free(p->smem);
  free(p->dmem);
  free(p->stage);
  free(p->copy);
}

/* the suite: dl_copy as it chooses (route: the one it took); the sweep
   (route < 0): forced lockstep in the dl_copy column, forced chunks beside */
static void measure(pair *p, double batch_s, int batches, int route)
{
  double med[NENG], lo[NENG], hi[NENG];
  bool skip[NENG] = {false, false, false, route >= 0};
  bench_measure(NENG, skip, run, p, false, NULL, p->bytes, batch_s, batches,
                med, lo, hi);
  const char *names[] = {"", "dense", "lockstep", "chunked", "twin"};
  if (route >= 0)
    printf("%-34s %9.0f %9.0f %9.0f %6.2f  %s\n", p->name, med[E_MEMCPY],
           med[E_STAGED], med[E_COPY], med[E_COPY] / med[E_STAGED], names[route]);
  else
    printf("%-34s %9.0f %9.0f %9.0f %9.0f %6.2f\n", p->name, med[E_MEMCPY],
           med[E_STAGED], med[E_COPY], med[E_CHUNKED], med[E_COPY] / med[E_CHUNKED]);
  fflush(stdout);
}

static dl_type *D(void) { return dl_builtin(DL_DOUBLE); }

static void suite(double batch_s, int batches)
{
  const size_t n = CUBE, es = 8, cube = n * n * n * es;
  pair p;
  /* XZ face (y fixed: n rows of n doubles) to the YZ face of another cube */
  memset(&p, 0, sizeof(p));
  p.name = "3D XZ face -> YZ face (DOUBLE)";
  dl_type *col;
  dl_type_vector(n, n, n * n, D(), &p.st);
  dl_type_vector(n, 1, n, D(), &col);
  dl_type_hvector(n, 1, n * n * es, col, &p.dt);
  dl_type_free(&col);
  p.sc = p.dc = 1;
  if (prepare(&p, cube, n / 2 * n * es, cube, n / 2 * es))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* the YZ face of one cube to the YZ face of another, each side's type
     built apart (alike: dl_copy moves block to block) */
  memset(&p, 0, sizeof(p));
  p.name = "3D YZ face -> YZ face (DOUBLE)";
  dl_type *yz[2];
  for (int i = 0; i < 2; i++) {
    dl_type_vector(n, 1, n, D(), &col);
    dl_type_hvector(n, 1, n * n * es, col, &yz[i]);
    dl_type_free(&col);
  }
  p.st = yz[0];
  p.dt = yz[1];
  p.sc = p.dc = 1;
  if (prepare(&p, cube, (n - 2) * es, cube, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* a halo exchange's faces as subarrays: the last interior YZ layer
     (x = n - 2) of one cube into the ghost layer (x = 0) of another, the
     two types alike but for their starts */
  memset(&p, 0, sizeof(p));
  p.name = "3D YZ subarray 254 -> 0 (DOUBLE)";
  dl_count sizes[3] = {(dl_count)n, (dl_count)n, (dl_count)n},
           sub[3] = {(dl_count)n, (dl_count)n, 1}, from[3] = {0, 0, (dl_count)n - 2},
           to[3] = {0, 0, 0};
  dl_type_subarray(3, sizes, sub, from, DL_ORDER_C, D(), &p.st);
  dl_type_subarray(3, sizes, sub, to, DL_ORDER_C, D(), &p.dt);
  p.sc = p.dc = 1;
  if (prepare(&p, cube, 0, cube, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* vector to the suite's indexed pattern of the same element count */
  memset(&p, 0, sizeof(p));
  p.name = "Vector -> Indexed (DOUBLE)";
  static const int pick[5] = {0, 1, 3, 6, 7};
  dl_count *idx = malloc(N_ELEMS * sizeof(*idx)), *bl = malloc(N_ELEMS * sizeof(*bl));
  for (size_t i = 0; i < N_ELEMS; i++) {
    idx[i] = pick[i % 5] + 10 * (dl_count)(i / 5);
    bl[i] = 1;
  }
  dl_type_vector(N_ELEMS, 1, 2, D(), &p.st);
  dl_type_indexed(N_ELEMS, bl, idx, D(), &p.dt);
  p.sc = p.dc = 1;
  if (prepare(&p, 2 * N_ELEMS * es, 0, (size_t)(idx[N_ELEMS - 1] + 1) * es, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* the indexed pattern on both sides, built apart */
  memset(&p, 0, sizeof(p));
  p.name = "Indexed -> Indexed (DOUBLE)";
  dl_type_indexed(N_ELEMS, bl, idx, D(), &p.st);
  dl_type_indexed(N_ELEMS, bl, idx, D(), &p.dt);
  p.sc = p.dc = 1;
  if (prepare(&p, (size_t)(idx[N_ELEMS - 1] + 1) * es, 0, (size_t)(idx[N_ELEMS - 1] + 1) * es,
              0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);
  free(idx);
  free(bl);

  /* molecular dynamics atoms leaving a domain (dataloop-rma-bench's Atoms
     exchange): one atom of each ten of 100,000 padded structs (a 4-byte
     and a 52-byte block in 64 bytes) appended to another rank's array */
  memset(&p, 0, sizeof(p));
  p.name = "Atoms exchange (struct)";
  const dl_count natoms = 100000, moved = natoms / 10;
  dl_count bl4[4] = {1, 3, 3, 1}, *at = malloc(moved * sizeof(*at));
  dl_aint dsp4[4] = {0, 8, 32, 56};
  dl_type *mt4[4] = {dl_builtin(DL_INT32), D(), D(), dl_builtin(DL_INT32)}, *st4, *atom;
  dl_type_struct(4, bl4, dsp4, mt4, &st4);
  dl_type_resized(st4, 0, 64, &atom);
  dl_type_free(&st4);
  bench_atoms_leaving(natoms, moved, at);
  dl_type_indexed_block(moved, 1, at, atom, &p.st);
  dl_type_contiguous(moved, atom, &p.dt);
  dl_type_free(&atom);
  free(at);
  p.sc = p.dc = 1;
  if (prepare(&p, (size_t)natoms * 64, 0, (size_t)moved * 64, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* struct vector (one double, extent doubled, count N) to a vector */
  memset(&p, 0, sizeof(p));
  p.name = "Struct Vector -> Vector (DOUBLE)";
  dl_count one = 1;
  dl_aint zero = 0;
  dl_type *el = D(), *s;
  dl_type_struct(1, &one, &zero, &el, &s);
  dl_type_resized(s, 0, 2 * (dl_aint)es, &p.st);
  dl_type_free(&s);
  dl_type_vector(N_ELEMS, 1, 3, D(), &p.dt);
  p.sc = N_ELEMS;
  p.dc = 1;
  if (prepare(&p, 2 * N_ELEMS * es, 0, 3 * N_ELEMS * es, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* contiguous to a vector: the dense side unpacks in place */
  memset(&p, 0, sizeof(p));
  p.name = "Contig -> Vector (DOUBLE)";
  dl_type_contiguous(N_ELEMS, D(), &p.st);
  dl_type_vector(N_ELEMS, 1, 2, D(), &p.dt);
  p.sc = p.dc = 1;
  if (prepare(&p, N_ELEMS * es, 0, 2 * N_ELEMS * es, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);

  /* Flash I/O to contiguous: the dense side packs in place */
  memset(&p, 0, sizeof(p));
  p.name = "Flash I/O -> Contig (DOUBLE)";
  const size_t nb = 80, nx = 8, g = 4, nvar = 24, side = nx + 2 * g, cell = nvar * 8;
  dl_type *x, *y, *z, *b;
  dl_type_hvector(nx, 1, cell, D(), &x);
  dl_type_hvector(nx, 1, side * cell, x, &y);
  dl_type_hvector(nx, 1, side * side * cell, y, &z);
  dl_type_hvector(nb, 1, side * side * side * cell, z, &b);
  dl_type_hvector(nvar, 1, 8, b, &p.st);
  dl_type_free(&x);
  dl_type_free(&y);
  dl_type_free(&z);
  dl_type_free(&b);
  size_t fb = nb * nx * nx * nx * nvar * es;
  dl_type_contiguous((dl_count)fb, dl_builtin(DL_BYTE), &p.dt);
  p.sc = p.dc = 1;
  if (prepare(&p, nb * side * side * side * cell, ((g * side + g) * side + g) * cell,
              fb, 0))
    measure(&p, batch_s, batches, dli_copy_last_route());
  release(&p);
}

/* 8 MiB in runs of b bytes (stride 2b) into runs of 2b bytes (stride 3b):
   the lockstep walk and the chunked copy, both forced */
static void sweep(double batch_s, int batches)
{
  const size_t total = 8u << 20;
  for (size_t b = 8; b <= 4096; b *= 2) {
    {
      pair p;
      memset(&p, 0, sizeof(p));
      char name[64];
      snprintf(name, sizeof(name), "runs of %zu B -> %zu B", b, 2 * b);
      p.name = name;
      p.force = DLI_COPY_LOCKSTEP;
      dl_type_hvector((dl_count)(total / b), (dl_count)b, 2 * (dl_aint)b,
                      dl_builtin(DL_BYTE), &p.st);
      dl_type_hvector((dl_count)(total / b / 2), (dl_count)(2 * b), 3 * (dl_aint)b,
                      dl_builtin(DL_BYTE), &p.dt);
      p.sc = p.dc = 1;
      if (prepare(&p, 2 * total, 0, 3 * total / 2, 0))
        measure(&p, batch_s, batches, -1);
      release(&p);
    }
  }
}

int main(int argc, char **argv)
{
  double batch_s = 0.05;
  int batches = 11;
  bool do_sweep = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) {
      batch_s = 0.01;
      batches = 5;
    } else if (!strcmp(argv[i], "--sweep")) {
      do_sweep = true;
    } else {
      bool help = !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
      fprintf(help ? stdout : stderr,
              "usage: %s [--quick] [--sweep]\n"
              "  dl_copy against dl_pack into a staging buffer then dl_unpack,\n"
              "  for pairs of suite layouts, with memcpy of the same bytes;\n"
              "  --sweep: lockstep against chunked over run lengths;\n"
              "  --quick: shorter and fewer batches\n", argv[0]);
      return help ? 0 : 2;
    }
  }
  printf("# MB/s of packed bytes, medians of %d interleaved batches; ratio = "
         "dl_copy / pack+unpack (sweep: lockstep / chunked)\n", batches);
  if (do_sweep) {
    printf("%-34s %9s %9s %9s %9s %6s\n", "runs", "memcpy", "pack+unpk",
           "lockstep", "chunked", "l/c");
    sweep(batch_s, batches);
  } else {
    printf("%-34s %9s %9s %9s %6s  %s\n", "pair", "memcpy", "pack+unpk",
           "dl_copy", "ratio", "route");
    suite(batch_s, batches);
  }
  return 0;
}
