/* Writes the seed corpora of the fuzz targets from real types:
 *   mkcorpus DIR   creates DIR/deserialize, DIR/process, DIR/construct
 * deserialize: serialized random types; process: the same behind random
 * processing parameters; construct: random programs of constructor calls
 * in the construct target's encoding. Deterministic (fixed seed). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "dataloop.h"
#include "../randtype.h"

static void write_file(const char *dir, const char *kind, int i,
                       const uint8_t *p, size_t n)
{
  char path[4096];
  mkdir(dir, 0777);
  snprintf(path, sizeof(path), "%s/%s", dir, kind);
  mkdir(path, 0777);
  snprintf(path, sizeof(path), "%s/%s/seed-%02d", dir, kind, i);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
    perror(path);
    exit(1);
  }
}

typedef struct bytes {
  uint8_t p[4096];
  size_t n;
} bytes;

static void b8(bytes *b, uint8_t v)
{
  if (b->n < sizeof(b->p))
    b->p[b->n++] = v;
}

/* the construct target's number coding: one byte for -16..175, else 0xff
   and 64 bits */
static void bnum(bytes *b, int64_t v)
{
  if (v >= -16 && v < 176) {
    b8(b, (uint8_t)(v + 16));
    return;
  }
  b8(b, 0xff);
  for (int i = 0; i < 8; i++)
    b8(b, (uint8_t)((uint64_t)v >> (8 * i)));
}

/* a slot already filled, or a predefined type (8 + id) */
static void btype(bytes *b, rng *r, const bool *filled)
{
  int s = (int)rng_range(r, 0, 7);
  if (filled[s] && rng_range(r, 0, 1))
    b8(b, (uint8_t)s);
  else
    b8(b, (uint8_t)(8 + rng_range(r, 0, DL_NUM_BUILTINS - 1)));
}

static int64_t small(rng *r)
{
  /* now and then a hostile value */
  static const int64_t bad[] = {-1, 0, INT64_MAX, (int64_t)1 << 62, (int64_t)1 << 32};
  if (rng_range(r, 0, 15) == 0)
    return bad[rng_range(r, 0, 4)];
  return rng_range(r, 0, 6);
}

static void program(bytes *b, rng *r)
{
  bool filled[8] = {false};
  int ops = (int)rng_range(r, 2, 8);
  for (int k = 0; k < ops; k++) {
    int op = (int)rng_range(r, 0, 11), to = (int)rng_range(r, 0, 7);
    b8(b, (uint8_t)op);
    b8(b, (uint8_t)to);
    b8(b, 0);                                   /* arrays not NULL */
    int n = (int)rng_range(r, 1, 4);
    switch (op) {
    case 0: bnum(b, small(r)); btype(b, r, filled); break;
    case 1: case 2:
      bnum(b, small(r)); bnum(b, small(r));
      bnum(b, op == 1 ? rng_range(r, -3, 6) : rng_range(r, -40, 80));
      btype(b, r, filled);
      break;
    case 3: case 4:
      bnum(b, n);
      for (int i = 0; i < n; i++) bnum(b, small(r));
      for (int i = 0; i < n; i++) bnum(b, rng_range(r, -8, 40));
      btype(b, r, filled);
      break;
    case 5: case 6:
      bnum(b, n);
      bnum(b, small(r));
      for (int i = 0; i < n; i++) bnum(b, rng_range(r, -8, 40));
      btype(b, r, filled);
      break;
    case 7:
      bnum(b, n);
      for (int i = 0; i < n; i++) bnum(b, small(r));
      for (int i = 0; i < n; i++) bnum(b, rng_range(r, -8, 64));
      for (int i = 0; i < n; i++) btype(b, r, filled);
      break;
    case 8:
      btype(b, r, filled);
      bnum(b, rng_range(r, -8, 8));
      bnum(b, rng_range(r, -8, 64));
      break;
    case 9: {
      int nd = (int)rng_range(r, 1, 3);
      int64_t sz[4], sub[4], st[4];
      for (int i = 0; i < 4; i++) {
        sz[i] = rng_range(r, 1, 6);
        sub[i] = rng_range(r, 0, sz[i]);
        st[i] = rng_range(r, 0, sz[i] - sub[i]);
      }
      bnum(b, nd);
      for (int i = 0; i < 4; i++) bnum(b, sz[i]);
      for (int i = 0; i < 4; i++) bnum(b, sub[i]);
      for (int i = 0; i < 4; i++) bnum(b, st[i]);
      bnum(b, rng_range(r, 0, 1));
      btype(b, r, filled);
      break;
    }
    case 10: {
      int nd = (int)rng_range(r, 1, 2);
      int ps[4] = {(int)rng_range(r, 1, 2), (int)rng_range(r, 1, 2), 1, 1};
      int procs = nd == 1 ? ps[0] : ps[0] * ps[1];
      bnum(b, procs);
      bnum(b, rng_range(r, 0, procs - 1));
      bnum(b, nd);
      for (int i = 0; i < 4; i++) bnum(b, rng_range(r, 1, 9));
      for (int i = 0; i < 4; i++) {
        bnum(b, DL_DISTRIBUTE_CYCLIC);            /* distrib */
        bnum(b, rng_range(r, 1, 3));              /* darg */
        bnum(b, ps[i]);                           /* psize */
      }
      bnum(b, rng_range(r, 0, 1));
      btype(b, r, filled);
      break;
    }
    default: btype(b, r, filled); break;
    }
    filled[to] = true;
  }
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: mkcorpus DIR\n");
    return 2;
  }
  rng r = {20240601};
  for (int i = 0; i < 40; i++) {
    rtype t;
    if (rtype_gen(&r, (int)rng_range(&r, 1, 4), &t, NULL))
      return 1;
    size_t n;
    dl_type_serialize(t.t, NULL, 0, &n);
    bytes b = {.n = 12 + n};
    if (b.n > sizeof(b.p)) {                    /* keep seeds small */
      rtype_free(&t);
      i--;
      continue;
    }
    for (int k = 0; k < 12; k++)
      b.p[k] = (uint8_t)rng_next(&r);
    b.p[0] = (uint8_t)rng_range(&r, 0, 3);      /* count */
    b.p[9] = (uint8_t)rng_range(&r, 1, 255);    /* length */
    b.p[10] = 0;
    dl_type_serialize(t.t, b.p + 12, n, &n);
    write_file(argv[1], "deserialize", i, b.p + 12, n);
    if (i < 30)
      write_file(argv[1], "process", i, b.p, b.n);
    rtype_free(&t);
  }
  for (int i = 0; i < 30; i++) {
    bytes b = {.n = 0};
    program(&b, &r);
    write_file(argv[1], "construct", i, b.p, b.n);
  }
  return 0;
}
