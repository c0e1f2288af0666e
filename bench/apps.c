/* Application patterns from DDTBench (Schneider, Gerstenberger, Hoefler,
 * EuroMPI 2012), each at the largest of DDTBench's default sizes: WRF halo
 * exchanges (a struct of nine arrays, built from vectors and from
 * subarrays), NAS LU and MG faces, and the 2D FFT transpose. */
#include <string.h>
#include "bench.h"

/* ---- WRF: 4 2D, 3 3D and 2 4D float arrays, one halo of each ---- */

struct wrf { size_t d1, d2, d3, s1, s2, s3, i0, j0; };

/* the "2x2" decomposition: x sends 3 columns in i, y sends 3 rows in j */
static const struct wrf wrf_x = {32, 65, 52, 3, 65, 44, 22, 4};
static const struct wrf wrf_y = {32, 65, 52, 23, 65, 3, 5, 7};

static const struct wrf *wrf_case(const btest *t)
{
  return strstr(t->name, "WRF x") ? &wrf_x : &wrf_y;
}

/* nine arrays in one allocation, 64-byte aligned, offsets in p->k[0..8]:
   the manual loops' parameters; the allocation's bytes */
static size_t wrf_params(const struct wrf *w, bparams *p)
{
  size_t a2 = w->d1 * w->d3 * 4, a3 = a2 * w->d2, a4 = 2 * a3, at = 0;
  for (int m = 0; m < 9; m++) {
    p->k[m] = at;
    at += m < 4 ? a2 : m < 7 ? a3 : a4;
    at = (at + 63) & ~(size_t)63;
  }
  p->nx = w->d1;
  p->ny = w->d2;
  p->nz = w->d3;
  p->k[9] = w->s1;
  p->k[10] = w->s2;
  p->k[11] = w->s3;
  p->k[12] = w->i0;
  p->k[13] = w->j0;
  return at;
}

static void wrf_layout(btest *t, const struct wrf *w)
{
  bench_alloc(t, wrf_params(w, &t->p));
  t->origin = t->mem;
  t->count = 1;
  t->mpack = man_wrf_pack;
  t->munpack = man_wrf_unpack;
}

static void dl_struct9(dl_type *const *parts, const dl_aint *disp, dl_type **out)
{
  dl_count bl[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  dl_type_struct(9, bl, disp, parts, out);
  dl_type_commit(*out);
}

static void mpi_struct9(MPI_Datatype *parts, const dl_aint *disp,
                        MPI_Datatype *out)
{
  int bl[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  MPI_Aint d[9];
  for (int i = 0; i < 9; i++)
    d[i] = disp[i];
  MPI_Type_create_struct(9, bl, d, parts, out);
  MPI_Type_commit(out);
}

/* vectors: each part starts at its first sent element */
static void wrf_vec_dl(const struct wrf *w, const dl_aint *disp, dl_type **out)
{
  dl_aint plane = (dl_aint)(w->d1 * w->d2 * 4), vol = plane * (dl_aint)w->d3;
  dl_type *t2, *tk, *t3, *t4;
  dl_type_vector(w->s3, w->s1, w->d1, dl_builtin(DL_FLOAT), &t2);
  dl_type_vector(w->s2, w->s1, w->d1, dl_builtin(DL_FLOAT), &tk);
  dl_type_hvector(w->s3, 1, plane, tk, &t3);
  dl_type_hvector(1, 1, vol, t3, &t4);
  dl_type *parts[9] = {t2, t2, t2, t2, t3, t3, t3, t4, t4};
  dl_struct9(parts, disp, out);
  dl_type_free(&t2);
  dl_type_free(&tk);
  dl_type_free(&t3);
  dl_type_free(&t4);
}

static void wrf_vec_mpi(const struct wrf *w, const dl_aint *disp, MPI_Datatype *out)
{
  MPI_Aint plane = (MPI_Aint)(w->d1 * w->d2 * 4), vol = plane * (MPI_Aint)w->d3;
  MPI_Datatype t2, tk, t3, t4;
  MPI_Type_vector((int)w->s3, (int)w->s1, (int)w->d1, MPI_FLOAT, &t2);
  MPI_Type_vector((int)w->s2, (int)w->s1, (int)w->d1, MPI_FLOAT, &tk);
  MPI_Type_create_hvector((int)w->s3, 1, plane, tk, &t3);
  MPI_Type_create_hvector(1, 1, vol, t3, &t4);
  MPI_Datatype parts[9] = {t2, t2, t2, t2, t3, t3, t3, t4, t4};
  mpi_struct9(parts, disp, out);
  MPI_Type_free(&t2);
  MPI_Type_free(&tk);
  MPI_Type_free(&t3);
  MPI_Type_free(&t4);
}

static bool wrf_vec(btest *t)
{
  const struct wrf *w = wrf_case(t);
  wrf_layout(t, w);
  dl_aint disp[9];
  for (int m = 0; m < 9; m++) {
    size_t first = m < 4 ? w->i0 + w->d1 * w->j0
                 : w->i0 + w->d1 * w->d2 * (w->j0 + (m < 7 ? 0 : w->d3));
    disp[m] = (dl_aint)(t->p.k[m] + 4 * first);
  }
  BENCH_BUILD(t, build_dl_us, wrf_vec_dl(w, disp, &t->dt));
  BENCH_BUILD(t, build_mpi_us, wrf_vec_mpi(w, disp, &t->mt));
  return true;
}

/* subarrays: each part is the whole array, the struct places their bases */
static void wrf_sa_dl(const struct wrf *w, const dl_aint *disp, dl_type **out)
{
  dl_count z2[2] = {w->d3, w->d1}, s2[2] = {w->s3, w->s1}, o2[2] = {w->j0, w->i0};
  dl_count z3[3] = {w->d3, w->d2, w->d1}, s3[3] = {w->s3, w->s2, w->s1};
  dl_count o3[3] = {w->j0, 0, w->i0};
  dl_count z4[4] = {2, w->d3, w->d2, w->d1}, s4[4] = {1, w->s3, w->s2, w->s1};
  dl_count o4[4] = {1, w->j0, 0, w->i0};
  dl_type *a, *b, *c, *f = dl_builtin(DL_FLOAT);
  dl_type_subarray(2, z2, s2, o2, DL_ORDER_C, f, &a);
  dl_type_subarray(3, z3, s3, o3, DL_ORDER_C, f, &b);
  dl_type_subarray(4, z4, s4, o4, DL_ORDER_C, f, &c);
  dl_type *parts[9] = {a, a, a, a, b, b, b, c, c};
  dl_struct9(parts, disp, out);
  dl_type_free(&a);
  dl_type_free(&b);
  dl_type_free(&c);
}

static void wrf_sa_mpi(const struct wrf *w, const dl_aint *disp, MPI_Datatype *out)
{
  int z2[2] = {(int)w->d3, (int)w->d1}, s2[2] = {(int)w->s3, (int)w->s1};
  int o2[2] = {(int)w->j0, (int)w->i0};
  int z3[3] = {(int)w->d3, (int)w->d2, (int)w->d1};
  int s3[3] = {(int)w->s3, (int)w->s2, (int)w->s1}, o3[3] = {(int)w->j0, 0, (int)w->i0};
  int z4[4] = {2, (int)w->d3, (int)w->d2, (int)w->d1};
  int s4[4] = {1, (int)w->s3, (int)w->s2, (int)w->s1};
  int o4[4] = {1, (int)w->j0, 0, (int)w->i0};
  MPI_Datatype a, b, c;
  MPI_Type_create_subarray(2, z2, s2, o2, MPI_ORDER_C, MPI_FLOAT, &a);
  MPI_Type_create_subarray(3, z3, s3, o3, MPI_ORDER_C, MPI_FLOAT, &b);
  MPI_Type_create_subarray(4, z4, s4, o4, MPI_ORDER_C, MPI_FLOAT, &c);
  MPI_Datatype parts[9] = {a, a, a, a, b, b, b, c, c};
  mpi_struct9(parts, disp, out);
  MPI_Type_free(&a);
  MPI_Type_free(&b);
  MPI_Type_free(&c);
}

size_t bench_wrf_halo(bool x, size_t start, bparams *p, MPI_Datatype *type)
{
  struct wrf w = x ? wrf_x : wrf_y;
  *(x ? &w.i0 : &w.j0) = start;
  size_t len = wrf_params(&w, p);
  dl_aint disp[9];
  for (int m = 0; m < 9; m++)
    disp[m] = (dl_aint)p->k[m];
  wrf_sa_mpi(&w, disp, type);
  return len;
}

static bool wrf_sa(btest *t)
{
  const struct wrf *w = wrf_case(t);
  wrf_layout(t, w);
  dl_aint disp[9];
  for (int m = 0; m < 9; m++)
    disp[m] = (dl_aint)t->p.k[m];
  BENCH_BUILD(t, build_dl_us, wrf_sa_dl(w, disp, &t->dt));
  BENCH_BUILD(t, build_mpi_us, wrf_sa_mpi(w, disp, &t->mt));
  return true;
}

/* ---- NAS LU: a[z][y][5] doubles, y and z of n + 2 (n = 1020) ---- */

#define LU_N 1020

static bool lu(btest *t)
{
  size_t n = LU_N;
  bool x = strstr(t->name, "LU x") != NULL;
  t->p.n = n;
  bench_alloc(t, 5 * (n + 2) * (n + 2) * 8);
  t->count = 1;
  dl_type *c5, *d;
  MPI_Datatype m5, m;
  if (x) {
    t->origin = t->mem + 8 * 5 * (1 + (n + 2) * n);
    BENCH_BUILD(t, build_dl_us,
                (dl_type_contiguous(5 * n, dl_builtin(DL_DOUBLE), &d), dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_contiguous(5 * (int)n, MPI_DOUBLE, &m), MPI_Type_commit(&m)));
    t->mpack = man_lu_x_pack;
    t->munpack = man_lu_x_unpack;
  } else {
    t->origin = t->mem + 8 * 5 * (n + (n + 2));
    BENCH_BUILD(t, build_dl_us,
                (dl_type_contiguous(5, dl_builtin(DL_DOUBLE), &c5),
                 dl_type_vector(n, 1, n + 2, c5, &d), dl_type_free(&c5),
                 dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_contiguous(5, MPI_DOUBLE, &m5),
                 MPI_Type_vector((int)n, 1, (int)n + 2, m5, &m), MPI_Type_free(&m5),
                 MPI_Type_commit(&m)));
    t->mpack = man_lu_y_pack;
    t->munpack = man_lu_y_unpack;
  }
  t->dt = d;
  t->mt = m;
  return true;
}

/* ---- NAS MG: faces of a[z][y][x] doubles, 514 x 258 x 258 ---- */

static bool mg(btest *t)
{
  size_t nx = 514, ny = 258, nz = 258;
  int axis = strstr(t->name, "MG x") ? 0 : strstr(t->name, "MG y") ? 1 : 2;
  t->p.nx = nx;
  t->p.ny = ny;
  t->p.nz = nz;
  t->p.k[0] = (size_t)axis;
  bench_alloc(t, nx * ny * nz * 8);
  t->count = 1;
  dl_type *v, *d, *dbl = dl_builtin(DL_DOUBLE);
  MPI_Datatype mv, m;
  if (axis == 0) {              /* x = nx - 2: single doubles */
    t->p.k[1] = nx - 2;
    t->origin = t->mem + 8 * ((nx - 2) + nx * (1 + ny));
    BENCH_BUILD(t, build_dl_us,
                (dl_type_vector(ny - 2, 1, nx, dbl, &v),
                 dl_type_hvector(nz - 2, 1, nx * ny * 8, v, &d), dl_type_free(&v),
                 dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_vector((int)ny - 2, 1, (int)nx, MPI_DOUBLE, &mv),
                 MPI_Type_create_hvector((int)nz - 2, 1, nx * ny * 8, mv, &m),
                 MPI_Type_free(&mv), MPI_Type_commit(&m)));
  } else if (axis == 1) {       /* y = ny - 2: rows of nx - 2 */
    t->p.k[1] = ny - 2;
    t->origin = t->mem + 8 * (1 + nx * ((ny - 2) + ny));
    BENCH_BUILD(t, build_dl_us,
                (dl_type_vector(nz - 2, nx - 2, nx * ny, dbl, &d), dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_vector((int)nz - 2, (int)nx - 2, (int)(nx * ny), MPI_DOUBLE, &m),
                 MPI_Type_commit(&m)));
  } else {                      /* z = 1: rows of nx - 2 */
    t->p.k[1] = 1;
    t->origin = t->mem + 8 * (1 + nx * (1 + ny));
    BENCH_BUILD(t, build_dl_us,
                (dl_type_vector(ny - 2, nx - 2, nx, dbl, &d), dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_vector((int)ny - 2, (int)nx - 2, (int)nx, MPI_DOUBLE, &m),
                 MPI_Type_commit(&m)));
  }
  t->dt = d;
  t->mt = m;
  t->mpack = man_mg_pack;
  t->munpack = man_mg_unpack;
  return true;
}

/* ---- FFT: 2D transpose of 1536 x 1536 complex on 2 processes ---- */

static bool fft(btest *t)
{
  size_t dim = 1536, procs = 2, n = dim / procs;
  t->p.n = n;
  t->p.nx = dim;
  bench_alloc(t, n * dim * 16);
  t->origin = t->mem;
  t->count = (dl_count)procs;     /* one block per process */
  dl_type *cx, *col, *colr, *d;
  MPI_Datatype mcx, mcol, mcolr, m;
  /* columns of n complex values, one extent (16 bytes) apart, n of them */
  BENCH_BUILD(t, build_dl_us,
              (dl_type_contiguous(2, dl_builtin(DL_DOUBLE), &cx),
               dl_type_vector(n, 1, dim, cx, &col), dl_type_resized(col, 0, 16, &colr),
               dl_type_contiguous(n, colr, &d), dl_type_free(&cx), dl_type_free(&col),
               dl_type_free(&colr), dl_type_commit(d)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_contiguous(2, MPI_DOUBLE, &mcx),
               MPI_Type_vector((int)n, 1, (int)dim, mcx, &mcol),
               MPI_Type_create_resized(mcol, 0, 16, &mcolr),
               MPI_Type_contiguous((int)n, mcolr, &m), MPI_Type_free(&mcx),
               MPI_Type_free(&mcol), MPI_Type_free(&mcolr), MPI_Type_commit(&m)));
  t->dt = d;
  t->mt = m;
  t->mpack = man_fft_pack;
  t->munpack = man_fft_unpack;
  return true;
}

/* ---- Atoms: 100,000 C structs {int tag; double x[3], v[3]; int type;}
   with natural alignment (64-byte extent, 56 bytes of data) ---- */

static bool atoms(btest *t)
{
  size_t n = 100000;
  t->p.n = n;
  bench_alloc(t, n * 64);
  t->origin = t->mem;
  t->count = (dl_count)n;
  int bl[4] = {1, 3, 3, 1};
  dl_aint d[4] = {0, 8, 32, 56};
  dl_type *dt[4] = {dl_builtin(DL_INT32), dl_builtin(DL_DOUBLE), dl_builtin(DL_DOUBLE),
                    dl_builtin(DL_INT32)};
  MPI_Datatype mt[4] = {MPI_INT, MPI_DOUBLE, MPI_DOUBLE, MPI_INT};
  bench_struct_types(t, 4, bl, d, dt, mt, 64);
  t->mpack = man_atoms_pack;
  t->munpack = man_atoms_unpack;
  return true;
}

const bentry bench_apps[] = {
  {"WRF x (vec)", wrf_vec},
  {"WRF y (vec)", wrf_vec},
  {"WRF x (sa)", wrf_sa},
  {"WRF y (sa)", wrf_sa},
  {"NAS LU x", lu},
  {"NAS LU y", lu},
  {"NAS MG x", mg},
  {"NAS MG y", mg},
  {"NAS MG z", mg},
  {"FFT transpose", fft},
  {"Atoms (padded struct)", atoms},
  {NULL, NULL},
};
