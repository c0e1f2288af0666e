/* Hand-written pack and unpack loops, written plainly as an application
 * programmer would, and compiled -O3: the yardstick of the benchmark.
 * (The pragma wins over the build's -O2, which comes later on the command
 * line than any per-target flag.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
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

/* WRF halo exchange: 4 2D, 3 3D and 2 4D float arrays, placed at byte
   offsets k[0..8] of one allocation, Fortran order (i fastest); the i, k, j
   ranges start at is0, 0, js0 with s1 x s2 x s3 elements. nx = dim1,
   ny = dim2 (k), nz = dim3 (j). The 4D arrays send their second slice. */
void man_wrf_pack(const bparams *p, const char *mem, char *out)
{
  size_t d1 = p->nx, d2 = p->ny, d3 = p->nz, s1 = p->k[9], s2 = p->k[10];
  size_t s3 = p->k[11], i0 = p->k[12], j0 = p->k[13];
  float *o = (float *)out;
  for (int m = 0; m < 4; m++) {
    const float *a = (const float *)(mem + p->k[m]);
    for (size_t j = j0; j < j0 + s3; j++)
      for (size_t i = i0; i < i0 + s1; i++)
        *o++ = a[i + d1 * j];
  }
  for (int m = 4; m < 9; m++) {
    const float *a = (const float *)(mem + p->k[m]);
    size_t t = m < 7 ? 0 : 1;
    for (size_t j = j0; j < j0 + s3; j++)
      for (size_t k = 0; k < s2; k++)
        for (size_t i = i0; i < i0 + s1; i++)
          *o++ = a[i + d1 * (k + d2 * (j + d3 * t))];
  }
}

void man_wrf_unpack(const bparams *p, char *mem, const char *in)
{
  size_t d1 = p->nx, d2 = p->ny, d3 = p->nz, s1 = p->k[9], s2 = p->k[10];
  size_t s3 = p->k[11], i0 = p->k[12], j0 = p->k[13];
  const float *o = (const float *)in;
  for (int m = 0; m < 4; m++) {
    float *a = (float *)(mem + p->k[m]);
    for (size_t j = j0; j < j0 + s3; j++)
      for (size_t i = i0; i < i0 + s1; i++)
        a[i + d1 * j] = *o++;
  }
  for (int m = 4; m < 9; m++) {
    float *a = (float *)(mem + p->k[m]);
    size_t t = m < 7 ? 0 : 1;
    for (size_t j = j0; j < j0 + s3; j++)
      for (size_t k = 0; k < s2; k++)
        for (size_t i = i0; i < i0 + s1; i++)
          a[i + d1 * (k + d2 * (j + d3 * t))] = *o++;
  }
}

/* NAS LU x: the z = n plane, y = 1..n, all 5 components: one run */
void man_lu_x_pack(const bparams *p, const char *mem, char *out)
{
  const double *a = (const double *)mem;
  double *o = (double *)out;
  size_t n = p->n;
  for (size_t y = 1; y <= n; y++)
    for (size_t c = 0; c < 5; c++)
      *o++ = a[c + 5 * (y + (n + 2) * n)];
}

void man_lu_x_unpack(const bparams *p, char *mem, const char *in)
{
  double *a = (double *)mem;
  const double *o = (const double *)in;
  size_t n = p->n;
  for (size_t y = 1; y <= n; y++)
    for (size_t c = 0; c < 5; c++)
      a[c + 5 * (y + (n + 2) * n)] = *o++;
}

/* NAS LU y: a[z][y][c] with 5 components, y and z of n + 2; the y = n
   plane for z = 1..n */
void man_lu_y_pack(const bparams *p, const char *mem, char *out)
{
  const double *a = (const double *)mem;
  double *o = (double *)out;
  size_t n = p->n;
  for (size_t z = 1; z <= n; z++)
    for (size_t c = 0; c < 5; c++)
      *o++ = a[c + 5 * (n + (n + 2) * z)];
}

void man_lu_y_unpack(const bparams *p, char *mem, const char *in)
{
  double *a = (double *)mem;
  const double *o = (const double *)in;
  size_t n = p->n;
  for (size_t z = 1; z <= n; z++)
    for (size_t c = 0; c < 5; c++)
      a[c + 5 * (n + (n + 2) * z)] = *o++;
}

/* NAS MG faces of a[z][y][x] (nx fastest), interior 1..n-2 on the two free
   axes; k[0] picks the fixed axis (0: x, 1: y, 2: z), k[1] its index */
#define MG_AT(x, y, z) ((x) + p->nx * ((y) + p->ny * (z)))

void man_mg_pack(const bparams *p, const char *mem, char *out)
{
  const double *a = (const double *)mem;
  double *o = (double *)out;
  size_t f = p->k[1];
  if (p->k[0] == 0) {
    for (size_t z = 1; z < p->nz - 1; z++)
      for (size_t y = 1; y < p->ny - 1; y++) *o++ = a[MG_AT(f, y, z)];
  } else if (p->k[0] == 1) {
    for (size_t z = 1; z < p->nz - 1; z++)
      for (size_t x = 1; x < p->nx - 1; x++) *o++ = a[MG_AT(x, f, z)];
  } else {
    for (size_t y = 1; y < p->ny - 1; y++)
      for (size_t x = 1; x < p->nx - 1; x++) *o++ = a[MG_AT(x, y, f)];
  }
}

void man_mg_unpack(const bparams *p, char *mem, const char *in)
{
  double *a = (double *)mem;
  const double *o = (const double *)in;
  size_t f = p->k[1];
  if (p->k[0] == 0) {
    for (size_t z = 1; z < p->nz - 1; z++)
      for (size_t y = 1; y < p->ny - 1; y++) a[MG_AT(f, y, z)] = *o++;
  } else if (p->k[0] == 1) {
    for (size_t z = 1; z < p->nz - 1; z++)
      for (size_t x = 1; x < p->nx - 1; x++) a[MG_AT(x, f, z)] = *o++;
  } else {
    for (size_t y = 1; y < p->ny - 1; y++)
      for (size_t x = 1; x < p->nx - 1; x++) a[MG_AT(x, y, f)] = *o++;
  }
}

/* FFT transpose: a local slab of n rows by nx complex doubles, packed
   column by column (the scatter type of the all-to-all, count nx / n) */
void man_fft_pack(const bparams *p, const char *mem, char *out)
{
  const double *a = (const double *)mem;
  double *o = (double *)out;
  for (size_t c = 0; c < p->nx; c++)
    for (size_t r = 0; r < p->n; r++) {
      o[0] = a[2 * (c + r * p->nx)];
      o[1] = a[2 * (c + r * p->nx) + 1];
      o += 2;
    }
}

void man_fft_unpack(const bparams *p, char *mem, const char *in)
{
  double *a = (double *)mem;
  const double *o = (const double *)in;
  for (size_t c = 0; c < p->nx; c++)
    for (size_t r = 0; r < p->n; r++) {
      a[2 * (c + r * p->nx)] = o[0];
      a[2 * (c + r * p->nx) + 1] = o[1];
      o += 2;
    }
}

/* Molecular dynamics atoms as a C struct with its compiler's padding
   (LAMMPS-style exchange of whole atoms): the fields, one by one */
struct atom {
  int32_t tag;
  double x[3], v[3];
  int32_t type;
};

static char *atom_pack(const struct atom *a, char *out)
{
  memcpy(out, &a->tag, 4);
  memcpy(out + 4, a->x, 24);
  memcpy(out + 28, a->v, 24);
  memcpy(out + 52, &a->type, 4);
  return out + 56;
}

static const char *atom_unpack(struct atom *a, const char *in)
{
  memcpy(&a->tag, in, 4);
  memcpy(a->x, in + 4, 24);
  memcpy(a->v, in + 28, 24);
  memcpy(&a->type, in + 52, 4);
  return in + 56;
}

/* n atoms from the k[0]-th on */
void man_atoms_pack(const bparams *p, const char *mem, char *out)
{
  const struct atom *a = (const struct atom *)mem + p->k[0];
  for (size_t i = 0; i < p->n; i++)
    out = atom_pack(&a[i], out);
}

void man_atoms_unpack(const bparams *p, char *mem, const char *in)
{
  struct atom *a = (struct atom *)mem + p->k[0];
  for (size_t i = 0; i < p->n; i++)
    in = atom_unpack(&a[i], in);
}

/* the atoms at idx[0..nidx) (those leaving a domain, as LAMMPS exchanges) */
void man_atoms_pick_pack(const bparams *p, const char *mem, char *out)
{
  const struct atom *a = (const struct atom *)mem;
  for (size_t i = 0; i < p->nidx; i++)
    out = atom_pack(&a[p->idx[i]], out);
}

void man_atoms_pick_unpack(const bparams *p, char *mem, const char *in)
{
  struct atom *a = (struct atom *)mem;
  for (size_t i = 0; i < p->nidx; i++)
    in = atom_unpack(&a[p->idx[i]], in);
}

/* One-sided FFT transpose (dataloop-rma-bench): the n x n block of complex
   doubles at column k[0] of a slab of rows nx wide, read column by column
   (the origin's vector of vectors) ... */
void man_fft_block_pack(const bparams *p, const char *mem, char *out)
{
  const double *a = (const double *)mem;
  double *o = (double *)out;
  for (size_t c = 0; c < p->n; c++)
    for (size_t r = 0; r < p->n; r++) {
      o[0] = a[2 * (p->k[0] + c + r * p->nx)];
      o[1] = a[2 * (p->k[0] + c + r * p->nx) + 1];
      o += 2;
    }
}

/* ... and written row by row into the target's slab (n rows of n complex
   at column k[0], rows nx apart) */
void man_fft_rows_unpack(const bparams *p, char *mem, const char *in)
{
  for (size_t r = 0; r < p->n; r++)
    memcpy(mem + 16 * (r * p->nx + p->k[0]), in + 16 * r * p->n, 16 * p->n);
}

/* SPECFEM3D-like points: nidx points of k[0] floats (1 or 3) at the point
   indices idx[] of an array of points */
void man_points_pack(const bparams *p, const char *mem, char *out)
{
  const float *a = (const float *)mem;
  float *o = (float *)out;
  if (p->k[0] == 3) {
    for (size_t i = 0; i < p->nidx; i++) {
      const float *s = a + 3 * p->idx[i];
      o[0] = s[0];
      o[1] = s[1];
      o[2] = s[2];
      o += 3;
    }
  } else {
    for (size_t i = 0; i < p->nidx; i++) o[i] = a[p->idx[i]];
  }
}

void man_points_unpack(const bparams *p, char *mem, const char *in)
{
  float *a = (float *)mem;
  const float *o = (const float *)in;
  if (p->k[0] == 3) {
    for (size_t i = 0; i < p->nidx; i++) {
      float *d = a + 3 * p->idx[i];
      d[0] = o[0];
      d[1] = o[1];
      d[2] = o[2];
      o += 3;
    }
  } else {
    for (size_t i = 0; i < p->nidx; i++) a[p->idx[i]] = o[i];
  }
}
