/* Gathers of single elements at irregular places, the ghost and boundary
 * exchanges of particle and unstructured-mesh codes: an indexed_block of
 * one float or double (or three doubles) per block over random distinct
 * indices; a struct per selected particle over separate arrays (three
 * doubles of its position and one double of each of four other arrays);
 * a struct of gathers, one indexed_block per array over one shared index
 * list; a sparse unsorted gather of floats. The last two are also decoded
 * from the MPI type (dl_type_from_mpi: "(MPI)" in the name), as an
 * application's type reaches dataloop. The manual loops index with int
 * arrays, as such codes do. */
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "dataloop-mpi.h"

enum { SPREAD = 8 };          /* the array holds SPREAD times the picks */

/* n, from the test's name ("..., n") */
static size_t picks(const btest *t)
{
  const char *c = strrchr(t->name, ',');
  return c ? (size_t)atol(c + 1) : 0;
}

/* n distinct indices of [0, total), increasing (sorted: a migration's or
   a halo's list) or in random order; fixed seed */
static int *pick_of(size_t n, size_t total, bool sorted)
{
  int *idx = malloc(n * sizeof(int));
  char *used = calloc(total, 1);
  if (!idx || !used || n > total)
    exit(1);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n;) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    size_t k = (size_t)(x % total);
    if (!used[k]) {
      used[k] = 1;
      idx[i++] = (int)k;
    }
  }
  for (size_t k = 0, i = 0; sorted && k < total; k++)
    if (used[k])
      idx[i++] = (int)k;
  free(used);
  return idx;
}

static void man_gather_pack(const bparams *p, const char *mem, char *out)
{
  const int *idx = (const int *)p->idx;
  size_t b = p->k[0];          /* elements per block */
  if (p->esize == 4 && b == 1) {
    const float *a = (const float *)mem;
    float *o = (float *)out;
    for (size_t i = 0; i < p->n; i++)
      o[i] = a[idx[i]];
  } else if (b == 1) {
    const double *a = (const double *)mem;
    double *o = (double *)out;
    for (size_t i = 0; i < p->n; i++)
      o[i] = a[idx[i]];
  } else {
    const double *a = (const double *)mem;
    double *o = (double *)out;
    for (size_t i = 0; i < p->n; i++, o += 3) {
      const double *s = a + 3 * (size_t)idx[i];
      o[0] = s[0];
      o[1] = s[1];
      o[2] = s[2];
    }
  }
}

static void man_gather_unpack(const bparams *p, char *mem, const char *in)
{
  const int *idx = (const int *)p->idx;
  size_t b = p->k[0];
  if (p->esize == 4 && b == 1) {
    float *a = (float *)mem;
    const float *o = (const float *)in;
    for (size_t i = 0; i < p->n; i++)
      a[idx[i]] = o[i];
  } else if (b == 1) {
    double *a = (double *)mem;
    const double *o = (const double *)in;
    for (size_t i = 0; i < p->n; i++)
      a[idx[i]] = o[i];
  } else {
    double *a = (double *)mem;
    const double *o = (const double *)in;
    for (size_t i = 0; i < p->n; i++, o += 3) {
      double *s = a + 3 * (size_t)idx[i];
      s[0] = o[0];
      s[1] = o[1];
      s[2] = o[2];
    }
  }
}

/* "Gather float, n", "Gather double, n", "Gather 3 doubles, n" */
static bool gather(btest *t)
{
  size_t n = picks(t), b = strstr(t->name, "3 doubles") ? 3 : 1;
  bool flt = strstr(t->name, "float") != NULL;
  size_t es = flt ? 4 : 8;
  int *idx = pick_of(n, n * SPREAD, false);
  dl_count *disp = malloc(n * sizeof(dl_count));
  int *mdisp = malloc(n * sizeof(int));
  if (!disp || !mdisp)
    exit(1);
  for (size_t i = 0; i < n; i++)
    mdisp[i] = (int)(disp[i] = (dl_count)(b * (size_t)idx[i]));
  t->owned = idx;
  t->p.idx = (const dl_count *)idx;        /* read back as int by the loops */
  t->p.n = n;
  t->p.esize = es;
  t->p.k[0] = b;
  bench_alloc(t, n * SPREAD * b * es);
  t->origin = t->mem;
  t->count = 1;
  dl_type *el = dl_builtin(flt ? DL_FLOAT : DL_DOUBLE);
  MPI_Datatype mel = flt ? MPI_FLOAT : MPI_DOUBLE;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_indexed_block((dl_count)n, (dl_count)b, disp, el, &t->dt),
               dl_type_commit(t->dt)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_create_indexed_block((int)n, (int)b, mdisp, mel, &t->mt),
               MPI_Type_commit(&t->mt)));
  free(disp);
  free(mdisp);
  t->mpack = man_gather_pack;
  t->munpack = man_gather_unpack;
  return t->dt != NULL;
}

/* the particle arrays in one allocation: positions (3 doubles each), then
   four arrays of one double each, of n * SPREAD particles */
#define NSCALAR 4

static void man_particles_pack(const bparams *p, const char *mem, char *out)
{
  const int *idx = (const int *)p->idx;
  const double *pos = (const double *)mem, *s = pos + 3 * p->k[0];
  double *o = (double *)out;
  for (size_t i = 0; i < p->n; i++) {
    size_t k = (size_t)idx[i];
    o[0] = pos[3 * k];
    o[1] = pos[3 * k + 1];
    o[2] = pos[3 * k + 2];
    for (size_t a = 0; a < NSCALAR; a++)
      o[3 + a] = s[a * p->k[0] + k];
    o += 3 + NSCALAR;
  }
}

static void man_particles_unpack(const bparams *p, char *mem, const char *in)
{
  const int *idx = (const int *)p->idx;
  double *pos = (double *)mem, *s = pos + 3 * p->k[0];
  const double *o = (const double *)in;
  for (size_t i = 0; i < p->n; i++) {
    size_t k = (size_t)idx[i];
    pos[3 * k] = o[0];
    pos[3 * k + 1] = o[1];
    pos[3 * k + 2] = o[2];
    for (size_t a = 0; a < NSCALAR; a++)
      s[a * p->k[0] + k] = o[3 + a];
    o += 3 + NSCALAR;
  }
}

/* "Particles (struct), n": per selected particle, a struct of its
   position and its four scalars, from addresses (MPI_Get_address) taken
   relative to the allocation: MPICH 4.0.2's MPI_Pack refuses MPI_BOTTOM
   (a null inbuf) */
static bool particles(btest *t)
{
  size_t n = picks(t), np = n * SPREAD, nb = n * (1 + NSCALAR);
  int *idx = pick_of(n, n * SPREAD, false);
  bench_alloc(t, (3 + NSCALAR) * np * sizeof(double));
  t->owned = idx;
  t->p.idx = (const dl_count *)idx;
  t->p.n = n;
  t->p.k[0] = np;
  t->origin = t->mem;
  t->count = 1;
  MPI_Aint base;
  MPI_Get_address(t->mem, &base);
  dl_count *bl = malloc(nb * sizeof(dl_count));
  dl_aint *disp = malloc(nb * sizeof(dl_aint));
  dl_type **el = malloc(nb * sizeof(dl_type *));
  int *mbl = malloc(nb * sizeof(int));
  MPI_Aint *mdisp = malloc(nb * sizeof(MPI_Aint));
  MPI_Datatype *mel = malloc(nb * sizeof(MPI_Datatype));
  if (!bl || !disp || !el || !mbl || !mdisp || !mel)
    exit(1);
  const double *pos = (const double *)t->mem, *s = pos + 3 * np;
  for (size_t i = 0, j = 0; i < n; i++) {
    size_t k = (size_t)idx[i];
    for (size_t a = 0; a <= NSCALAR; a++, j++) {
      bl[j] = mbl[j] = a == 0 ? 3 : 1;
      MPI_Get_address(a == 0 ? pos + 3 * k : s + (a - 1) * np + k, &mdisp[j]);
      mdisp[j] = MPI_Aint_diff(mdisp[j], base);
      disp[j] = (dl_aint)mdisp[j];
      el[j] = dl_builtin(DL_DOUBLE);
      mel[j] = MPI_DOUBLE;
    }
  }
  BENCH_BUILD(t, build_dl_us,
              (dl_type_struct((dl_count)nb, bl, disp, el, &t->dt), dl_type_commit(t->dt)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_create_struct((int)nb, mbl, mdisp, mel, &t->mt),
               MPI_Type_commit(&t->mt)));
  free(bl);
  free(disp);
  free(el);
  free(mbl);
  free(mdisp);
  free(mel);
  t->mpack = man_particles_pack;
  t->munpack = man_particles_unpack;
  return t->dt != NULL;
}

/* ---- gathers from separate arrays sharing one index list ---- */

/* "..., n of total": total, the particles or elements picked from */
static size_t of_total(const btest *t)
{
  const char *c = strstr(t->name, " of ");
  return c ? (size_t)atol(c + 4) : 0;
}

/* the type the application builds is decoded (dl_type_from_mpi), not
   built through the dataloop API: the test's name says "(MPI)" */
static bool from_mpi(btest *t)
{
  if (!strstr(t->name, "(MPI)"))
    return true;
  dl_type *d = NULL;
  if (t->dt)
    dl_type_free(&t->dt);
  if (dl_type_from_mpi(t->mt, &d) != DL_OK || dl_type_retain(d) != DL_OK)
    return false;
  t->dt = d;
  return true;
}

/* k[0] particles, k[1] members: positions (3 doubles a particle), then
   k[1] - 1 arrays of one double a particle, one after the other */
static void man_arrays_pack(const bparams *p, const char *mem, char *out)
{
  const int *idx = (const int *)p->idx;
  const double *pos = (const double *)mem;
  double *o = (double *)out;
  for (size_t i = 0; i < p->n; i++, o += 3) {
    const double *q = pos + 3 * (size_t)idx[i];
    o[0] = q[0];
    o[1] = q[1];
    o[2] = q[2];
  }
  for (size_t a = 1; a < p->k[1]; a++) {
    const double *s = pos + (2 + a) * p->k[0];
    for (size_t i = 0; i < p->n; i++)
      *o++ = s[idx[i]];
  }
}

static void man_arrays_unpack(const bparams *p, char *mem, const char *in)
{
  const int *idx = (const int *)p->idx;
  double *pos = (double *)mem;
  const double *o = (const double *)in;
  for (size_t i = 0; i < p->n; i++, o += 3) {
    double *q = pos + 3 * (size_t)idx[i];
    q[0] = o[0];
    q[1] = o[1];
    q[2] = o[2];
  }
  for (size_t a = 1; a < p->k[1]; a++) {
    double *s = pos + (2 + a) * p->k[0];
    for (size_t i = 0; i < p->n; i++)
      s[idx[i]] = *o++;
  }
}

/* member a's place: positions first, the other arrays after them */
static size_t member_at(size_t a, size_t np)
{
  return (a == 0 ? 0 : (2 + a) * np) * sizeof(double);
}

/* the struct of m gathers over np particles, through the dataloop API
   (members in dm) and as the application builds it with MPI (in mm) */
static void arrays_dl(size_t n, size_t m, size_t np, const dl_count *d3, const dl_count *d1,
                      dl_type **dm, dl_type **out)
{
  dl_count bl[8];
  dl_aint disp[8];
  for (size_t a = 0; a < m; a++) {
    dl_type_indexed_block((dl_count)n, a ? 1 : 3, a ? d1 : d3, dl_builtin(DL_DOUBLE), &dm[a]);
    bl[a] = 1;
    disp[a] = (dl_aint)member_at(a, np);
  }
  dl_type_struct((dl_count)m, bl, disp, dm, out);
  dl_type_commit(*out);
}

static void arrays_mpi(size_t n, size_t m, size_t np, const int *d3, const int *d1,
                       MPI_Datatype *mm, MPI_Datatype *out)
{
  int bl[8];
  MPI_Aint disp[8];
  for (size_t a = 0; a < m; a++) {
    MPI_Type_create_indexed_block((int)n, a ? 1 : 3, a ? d1 : d3, MPI_DOUBLE, &mm[a]);
    bl[a] = 1;
    disp[a] = (MPI_Aint)member_at(a, np);
  }
  MPI_Type_create_struct((int)m, bl, disp, mm, out);
  MPI_Type_commit(out);
}

/* "Particle arrays mx, n of total": a struct of m gathers over one sorted
   index list, each member at its array's address relative to the
   allocation (as an application's MPI_BOTTOM struct, but MPICH 4.0.2's
   MPI_Pack refuses MPI_BOTTOM): an indexed_block of blocklength 3 over
   the positions, then one of blocklength 1 over each other array */
static bool particle_arrays(btest *t)
{
  size_t n = picks(t), np = of_total(t), m = (size_t)atol(strstr(t->name, "arrays ") + 7);
  if (m < 1 || m > 8)
    return false;
  int *idx = pick_of(n, np, true);
  bench_alloc(t, (3 + (m - 1)) * np * sizeof(double));
  t->owned = idx;
  t->p.idx = (const dl_count *)idx;
  t->p.n = n;
  t->p.k[0] = np;
  t->p.k[1] = m;
  t->origin = t->mem;
  t->count = 1;
  int *d3 = malloc(n * sizeof(int));
  dl_count *dd1 = malloc(n * sizeof(dl_count)), *dd3 = malloc(n * sizeof(dl_count));
  if (!d3 || !dd1 || !dd3)
    exit(1);
  for (size_t i = 0; i < n; i++) {
    d3[i] = 3 * idx[i];
    dd3[i] = d3[i];
    dd1[i] = idx[i];
  }
  dl_type *dm[8];
  MPI_Datatype mm[8];
  BENCH_BUILD(t, build_dl_us, arrays_dl(n, m, np, dd3, dd1, dm, &t->dt));
  BENCH_BUILD(t, build_mpi_us, arrays_mpi(n, m, np, d3, idx, mm, &t->mt));
  for (size_t a = 0; a < m; a++) {
    dl_type_free(&dm[a]);
    MPI_Type_free(&mm[a]);
  }
  free(d3);
  free(dd1);
  free(dd3);
  t->mpack = man_arrays_pack;
  t->munpack = man_arrays_unpack;
  return t->dt != NULL && from_mpi(t);
}

/* "Gather float unsorted, n of total": an indexed_block of one float over
   n indices of total in random order (a sparse halo of a spectral-element
   mesh) */
static bool gather_sparse(btest *t)
{
  size_t n = picks(t), total = of_total(t);
  int *idx = pick_of(n, total, false);
  dl_count *disp = malloc(n * sizeof(dl_count));
  if (!disp)
    exit(1);
  for (size_t i = 0; i < n; i++)
    disp[i] = idx[i];
  t->owned = idx;
  t->p.idx = (const dl_count *)idx;
  t->p.n = n;
  t->p.esize = 4;
  t->p.k[0] = 1;
  bench_alloc(t, total * 4);
  t->origin = t->mem;
  t->count = 1;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_indexed_block((dl_count)n, 1, disp, dl_builtin(DL_FLOAT), &t->dt),
               dl_type_commit(t->dt)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_create_indexed_block((int)n, 1, idx, MPI_FLOAT, &t->mt),
               MPI_Type_commit(&t->mt)));
  free(disp);
  t->mpack = man_gather_pack;
  t->munpack = man_gather_unpack;
  return t->dt != NULL && from_mpi(t);
}

const bentry bench_gathers[] = {
  {"Gather float, 200", gather},
  {"Gather float, 2000", gather},
  {"Gather float, 20000", gather},
  {"Gather double, 2000", gather},
  {"Gather double, 20000", gather},
  {"Gather 3 doubles, 2000", gather},
  {"Particles (struct), 2000", particles},
  {"Particle arrays 6x, 3000 of 3500", particle_arrays},
  {"Particle arrays 6x (MPI), 3000 of 3500", particle_arrays},
  {"Particle arrays 4x, 250 of 4000", particle_arrays},
  {"Particle arrays 4x (MPI), 250 of 4000", particle_arrays},
  {"Gather float unsorted, 3200 of 89000", gather_sparse},
  {"Gather float unsorted (MPI), 3200 of 89000", gather_sparse},
  {NULL, NULL},
};
