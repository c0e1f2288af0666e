/* Hand-written pack and unpack loops, written plainly as an application
 * programmer would, and compiled -O3: the yardstick of the benchmark.
 * (The pragma wins over the build's -O2, which comes later on the command
 * line than any per-target flag.) */
#pragma GCC optimize("O3")
#include <stdint.h>
#include <string.h>
#include "bench.h"

/* element types by size: the loops copy whole elements */
#define BY_ESIZE(p, body4, body8) \
  do {                            \
    if ((p)->esize == 4) {        \
      typedef float T;            \
      body4;                      \
    } else {                      \
      typedef double T;           \
      body8;                      \
    }                             \
  } while (0)

void man_contig_pack(const bparams *p, const char *mem, char *out)
{
  BY_ESIZE(p,
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t i = 0; i < p->n; i++) o[i] = a[i]; },
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t i = 0; i < p->n; i++) o[i] = a[i]; });
}

void man_contig_unpack(const bparams *p, char *mem, const char *in)
{
  BY_ESIZE(p,
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t i = 0; i < p->n; i++) a[i] = o[i]; },
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t i = 0; i < p->n; i++) a[i] = o[i]; });
}

struct __attribute__((packed)) sarray {
  int32_t a, b;
  char c[64];
  double d, e;
  float f;
};

void man_struct_array_pack(const bparams *p, const char *mem, char *out)
{
  const struct sarray *s = (const struct sarray *)mem;
  for (size_t i = 0; i < p->n; i++) {
    memcpy(out, &s[i].a, 4); out += 4;
    memcpy(out, &s[i].b, 4); out += 4;
    memcpy(out, s[i].c, 64); out += 64;
    memcpy(out, &s[i].d, 8); out += 8;
    memcpy(out, &s[i].e, 8); out += 8;
    memcpy(out, &s[i].f, 4); out += 4;
  }
}

void man_struct_array_unpack(const bparams *p, char *mem, const char *in)
{
  struct sarray *s = (struct sarray *)mem;
  for (size_t i = 0; i < p->n; i++) {
    memcpy(&s[i].a, in, 4); in += 4;
    memcpy(&s[i].b, in, 4); in += 4;
    memcpy(s[i].c, in, 64); in += 64;
    memcpy(&s[i].d, in, 8); in += 8;
    memcpy(&s[i].e, in, 8); in += 8;
    memcpy(&s[i].f, in, 4); in += 4;
  }
}

void man_vector_pack(const bparams *p, const char *mem, char *out)
{
  BY_ESIZE(p,
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t i = 0; i < p->n; i++) o[i] = a[2 * i]; },
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t i = 0; i < p->n; i++) o[i] = a[2 * i]; });
}

void man_vector_unpack(const bparams *p, char *mem, const char *in)
{
  BY_ESIZE(p,
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t i = 0; i < p->n; i++) a[2 * i] = o[i]; },
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t i = 0; i < p->n; i++) a[2 * i] = o[i]; });
}

void man_indexed_pack(const bparams *p, const char *mem, char *out)
{
  BY_ESIZE(p,
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t i = 0; i < p->nidx; i++) o[i] = a[p->idx[i]]; },
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t i = 0; i < p->nidx; i++) o[i] = a[p->idx[i]]; });
}

void man_indexed_unpack(const bparams *p, char *mem, const char *in)
{
  BY_ESIZE(p,
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t i = 0; i < p->nidx; i++) a[p->idx[i]] = o[i]; },
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t i = 0; i < p->nidx; i++) a[p->idx[i]] = o[i]; });
}

/* cube[z][y][x], n elements a side; the face's fixed index is p->fixed */
#define AT(z, y, x) (((z) * p->n + (y)) * p->n + (x))

void man_face_xy_pack(const bparams *p, const char *mem, char *out)
{
  BY_ESIZE(p,
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t y = 0; y < p->n; y++)
        for (size_t x = 0; x < p->n; x++) *o++ = a[AT(p->fixed, y, x)]; },
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t y = 0; y < p->n; y++)
        for (size_t x = 0; x < p->n; x++) *o++ = a[AT(p->fixed, y, x)]; });
}

void man_face_xy_unpack(const bparams *p, char *mem, const char *in)
{
  BY_ESIZE(p,
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t y = 0; y < p->n; y++)
        for (size_t x = 0; x < p->n; x++) a[AT(p->fixed, y, x)] = *o++; },
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t y = 0; y < p->n; y++)
        for (size_t x = 0; x < p->n; x++) a[AT(p->fixed, y, x)] = *o++; });
}

void man_face_xz_pack(const bparams *p, const char *mem, char *out)
{
  BY_ESIZE(p,
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t z = 0; z < p->n; z++)
        for (size_t x = 0; x < p->n; x++) *o++ = a[AT(z, p->fixed, x)]; },
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t z = 0; z < p->n; z++)
        for (size_t x = 0; x < p->n; x++) *o++ = a[AT(z, p->fixed, x)]; });
}

void man_face_xz_unpack(const bparams *p, char *mem, const char *in)
{
  BY_ESIZE(p,
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t z = 0; z < p->n; z++)
        for (size_t x = 0; x < p->n; x++) a[AT(z, p->fixed, x)] = *o++; },
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t z = 0; z < p->n; z++)
        for (size_t x = 0; x < p->n; x++) a[AT(z, p->fixed, x)] = *o++; });
}

void man_face_yz_pack(const bparams *p, const char *mem, char *out)
{
  BY_ESIZE(p,
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t z = 0; z < p->n; z++)
        for (size_t y = 0; y < p->n; y++) *o++ = a[AT(z, y, p->fixed)]; },
    { const T *a = (const T *)mem; T *o = (T *)out;
      for (size_t z = 0; z < p->n; z++)
        for (size_t y = 0; y < p->n; y++) *o++ = a[AT(z, y, p->fixed)]; });
}

void man_face_yz_unpack(const bparams *p, char *mem, const char *in)
{
  BY_ESIZE(p,
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t z = 0; z < p->n; z++)
        for (size_t y = 0; y < p->n; y++) a[AT(z, y, p->fixed)] = *o++; },
    { T *a = (T *)mem; const T *o = (const T *)in;
      for (size_t z = 0; z < p->n; z++)
        for (size_t y = 0; y < p->n; y++) a[AT(z, y, p->fixed)] = *o++; });
}

/* Flash: blocks of nx^3 cells with guard cells g on each side, k[0]
   variables per cell; written variable by variable, interior only */
#define FLASH_AT(b, z, y, x, v) \
  (((((b) * side + (z)) * side + (y)) * side + (x)) * nvar + (v))

void man_flash_pack(const bparams *p, const char *mem, char *out)
{
  const double *a = (const double *)mem;
  double *o = (double *)out;
  size_t g = p->k[1], nvar = p->k[0], side = p->nx + 2 * g;
  for (size_t v = 0; v < nvar; v++)
    for (size_t b = 0; b < p->n; b++)
      for (size_t z = g; z < g + p->nx; z++)
        for (size_t y = g; y < g + p->nx; y++)
          for (size_t x = g; x < g + p->nx; x++)
            *o++ = a[FLASH_AT(b, z, y, x, v)];
}

void man_flash_unpack(const bparams *p, char *mem, const char *in)
{
  double *a = (double *)mem;
  const double *o = (const double *)in;
  size_t g = p->k[1], nvar = p->k[0], side = p->nx + 2 * g;
  for (size_t v = 0; v < nvar; v++)
    for (size_t b = 0; b < p->n; b++)
      for (size_t z = g; z < g + p->nx; z++)
        for (size_t y = g; y < g + p->nx; y++)
          for (size_t x = g; x < g + p->nx; x++)
            a[FLASH_AT(b, z, y, x, v)] = *o++;
}
