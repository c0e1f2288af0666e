/* The synthetic suite of the dataloop paper, section 3, with its exact
 * parameters: Contig, Struct Array, Vector, Struct Vector, Indexed, the
 * three faces of a 256^3 cube, and Flash I/O. */
#include <stdlib.h>
#include <string.h>
#include "bench.h"

#define N_ELEMS 1048576
#define CUBE 256

static dl_type *dl_el(size_t esize, bool is_int)
{
  return dl_builtin(is_int ? DL_INT32 : esize == 4 ? DL_FLOAT : DL_DOUBLE);
}

static MPI_Datatype mpi_el(size_t esize, bool is_int)
{
  return is_int ? MPI_INT : esize == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

/* name suffix and element from the test name: "(INT)", "(FLOAT)", "(DOUBLE)" */
static void element(const btest *t, size_t *esize, bool *is_int)
{
  *is_int = strstr(t->name, "(INT)") != NULL;
  *esize = strstr(t->name, "(DOUBLE)") ? 8 : 4;
}

static void commit_both(btest *t, dl_type *d, MPI_Datatype m)
{
  dl_type_commit(d);
  t->dt = d;
  t->mt = m;
}

static bool contig(btest *t)
{
  size_t es;
  bool is_int;
  element(t, &es, &is_int);
  t->p.n = N_ELEMS;
  t->p.esize = es;
  bench_alloc(t, N_ELEMS * es);
  t->origin = t->mem;
  t->count = 1;
  dl_type *d;
  MPI_Datatype m;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_contiguous(N_ELEMS, dl_el(es, is_int), &d), dl_type_commit(d)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_contiguous(N_ELEMS, mpi_el(es, is_int), &m), MPI_Type_commit(&m)));
  commit_both(t, d, m);
  t->mpack = man_contig_pack;
  t->munpack = man_contig_unpack;
  return true;
}

/* two ints, 64 chars, two doubles, a float; packed: 92 bytes */
static bool struct_array(btest *t)
{
  t->p.n = 65536;
  bench_alloc(t, 65536 * 92);
  t->origin = t->mem;
  t->count = 65536;
  int bl[6] = {1, 1, 64, 1, 1, 1};
  dl_aint d[6] = {0, 4, 8, 72, 80, 88};
  dl_type *dt[6] = {dl_builtin(DL_INT32), dl_builtin(DL_INT32), dl_builtin(DL_CHAR),
                    dl_builtin(DL_DOUBLE), dl_builtin(DL_DOUBLE), dl_builtin(DL_FLOAT)};
  MPI_Datatype mt[6] = {MPI_INT, MPI_INT, MPI_CHAR, MPI_DOUBLE, MPI_DOUBLE, MPI_FLOAT};
  bench_struct_types(t, 6, bl, d, dt, mt, 92);
  t->mpack = man_struct_array_pack;
  t->munpack = man_struct_array_unpack;
  return true;
}

static bool vector(btest *t)
{
  size_t es;
  bool is_int;
  element(t, &es, &is_int);
  t->p.n = N_ELEMS;
  t->p.esize = es;
  bench_alloc(t, 2 * N_ELEMS * es);
  t->origin = t->mem;
  t->count = 1;
  dl_type *d;
  MPI_Datatype m;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_vector(N_ELEMS, 1, 2, dl_el(es, is_int), &d), dl_type_commit(d)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_vector(N_ELEMS, 1, 2, mpi_el(es, is_int), &m), MPI_Type_commit(&m)));
  commit_both(t, d, m);
  t->mpack = man_vector_pack;
  t->munpack = man_vector_unpack;
  return true;
}

/* one element with its extent doubled (the paper's MPI_LB/MPI_UB struct),
   packed with count 1,048,576 */
static bool struct_vector(btest *t)
{
  size_t es;
  bool is_int;
  element(t, &es, &is_int);
  t->p.n = N_ELEMS;
  t->p.esize = es;
  bench_alloc(t, 2 * N_ELEMS * es);
  t->origin = t->mem;
  t->count = N_ELEMS;
  dl_count one = 1;
  dl_aint zero = 0;
  int ione = 1;
  MPI_Aint mzero = 0;
  dl_type *el = dl_el(es, is_int), *s, *r;
  MPI_Datatype mel = mpi_el(es, is_int), ms, mr;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_struct(1, &one, &zero, &el, &s),
               dl_type_resized(s, 0, 2 * (dl_aint)es, &r), dl_type_free(&s),
               dl_type_commit(r)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_create_struct(1, &ione, &mzero, &mel, &ms),
               MPI_Type_create_resized(ms, 0, 2 * (MPI_Aint)es, &mr),
               MPI_Type_free(&ms), MPI_Type_commit(&mr)));
  commit_both(t, r, mr);
  t->mpack = man_vector_pack;
  t->munpack = man_vector_unpack;
  return true;
}

/* 1,048,576 single-element blocks picking positions 0, 1, 3, 6, 7 of every
   ten (Figure 2: a repeating pattern with some adjacent picks) */
static bool indexed(btest *t)
{
  static const int pick[5] = {0, 1, 3, 6, 7};
  size_t es;
  bool is_int;
  element(t, &es, &is_int);
  dl_count *idx = malloc(N_ELEMS * sizeof(dl_count));
  dl_count *bl = malloc(N_ELEMS * sizeof(dl_count));
  int *iidx = malloc(N_ELEMS * sizeof(int)), *ibl = malloc(N_ELEMS * sizeof(int));
  for (size_t i = 0; i < N_ELEMS; i++) {
    idx[i] = iidx[i] = pick[i % 5] + 10 * (int)(i / 5);
    bl[i] = ibl[i] = 1;
  }
  t->p.esize = es;
  t->p.idx = idx;
  t->p.nidx = N_ELEMS;
  t->owned = idx;
  bench_alloc(t, (size_t)(idx[N_ELEMS - 1] + 1) * es);
  t->origin = t->mem;
  t->count = 1;
  dl_type *d;
  MPI_Datatype m;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_indexed(N_ELEMS, bl, idx, dl_el(es, is_int), &d), dl_type_commit(d)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_indexed(N_ELEMS, ibl, iidx, mpi_el(es, is_int), &m),
               MPI_Type_commit(&m)));
  commit_both(t, d, m);
  free(bl);
  free(iidx);
  free(ibl);
  t->mpack = man_indexed_pack;
  t->munpack = man_indexed_unpack;
  return true;
}

/* faces of cube[z][y][x]: XY has z fixed, XZ has y fixed, YZ has x fixed;
   the types start at the face's first element */
static bool face(btest *t)
{
  size_t es;
  bool is_int;
  element(t, &es, &is_int);
  size_t n = CUBE, fixed = CUBE / 2;
  t->p.n = n;
  t->p.esize = es;
  t->p.fixed = fixed;
  bench_alloc(t, n * n * n * es);
  t->count = 1;
  dl_type *el = dl_el(es, is_int), *d, *col;
  MPI_Datatype mel = mpi_el(es, is_int), m, mcol;
  if (strstr(t->name, "XY")) {
    t->origin = t->mem + fixed * n * n * es;
    BENCH_BUILD(t, build_dl_us, (dl_type_contiguous(n * n, el, &d), dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_contiguous((int)(n * n), mel, &m), MPI_Type_commit(&m)));
    t->mpack = man_face_xy_pack;
    t->munpack = man_face_xy_unpack;
  } else if (strstr(t->name, "XZ")) {
    t->origin = t->mem + fixed * n * es;
    BENCH_BUILD(t, build_dl_us, (dl_type_vector(n, n, n * n, el, &d), dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_vector((int)n, (int)n, (int)(n * n), mel, &m), MPI_Type_commit(&m)));
    t->mpack = man_face_xz_pack;
    t->munpack = man_face_xz_unpack;
  } else {
    t->origin = t->mem + fixed * es;
    BENCH_BUILD(t, build_dl_us,
                (dl_type_vector(n, 1, n, el, &col),
                 dl_type_hvector(n, 1, n * n * es, col, &d), dl_type_free(&col),
                 dl_type_commit(d)));
    BENCH_BUILD(t, build_mpi_us,
                (MPI_Type_vector((int)n, 1, (int)n, mel, &mcol),
                 MPI_Type_create_hvector((int)n, 1, (MPI_Aint)(n * n * es), mcol, &m),
                 MPI_Type_free(&mcol), MPI_Type_commit(&m)));
    t->mpack = man_face_yz_pack;
    t->munpack = man_face_yz_unpack;
  }
  commit_both(t, d, m);
  return true;
}

/* 80 blocks of 8^3 interior cells with 4 guard cells per side, 24 doubles
   per cell, written variable by variable: the dataloop of Figure 1 */
static bool flash(btest *t)
{
  const size_t nb = 80, nx = 8, g = 4, nvar = 24, side = nx + 2 * g;
  const size_t cell = nvar * 8;
  t->p.n = nb;
  t->p.nx = nx;
  t->p.k[0] = nvar;
  t->p.k[1] = g;
  bench_alloc(t, nb * side * side * side * cell);
  t->origin = t->mem + ((g * side + g) * side + g) * cell;
  t->count = 1;
  dl_type *x, *y, *z, *b, *v;
  MPI_Datatype mx, my, mz, mb, mv;
  BENCH_BUILD(t, build_dl_us,
              (dl_type_hvector(nx, 1, cell, dl_builtin(DL_DOUBLE), &x),
               dl_type_hvector(nx, 1, side * cell, x, &y),
               dl_type_hvector(nx, 1, side * side * cell, y, &z),
               dl_type_hvector(nb, 1, side * side * side * cell, z, &b),
               dl_type_hvector(nvar, 1, 8, b, &v), dl_type_free(&x),
               dl_type_free(&y), dl_type_free(&z), dl_type_free(&b),
               dl_type_commit(v)));
  BENCH_BUILD(t, build_mpi_us,
              (MPI_Type_create_hvector(nx, 1, cell, MPI_DOUBLE, &mx),
               MPI_Type_create_hvector(nx, 1, side * cell, mx, &my),
               MPI_Type_create_hvector(nx, 1, side * side * cell, my, &mz),
               MPI_Type_create_hvector(nb, 1, side * side * side * cell, mz, &mb),
               MPI_Type_create_hvector(nvar, 1, 8, mb, &mv), MPI_Type_free(&mx),
               MPI_Type_free(&my), MPI_Type_free(&mz), MPI_Type_free(&mb),
               MPI_Type_commit(&mv)));
  commit_both(t, v, mv);
  t->mpack = man_flash_pack;
  t->munpack = man_flash_unpack;
  return true;
}

const bentry bench_synthetic[] = {
  {"Contig (INT)", contig},
  {"Contig (FLOAT)", contig},
  {"Contig (DOUBLE)", contig},
  {"Struct Array", struct_array},
  {"Vector (FLOAT)", vector},
  {"Vector (DOUBLE)", vector},
  {"Struct Vector (FLOAT)", struct_vector},
  {"Struct Vector (DOUBLE)", struct_vector},
  {"Indexed (INT)", indexed},
  {"Indexed (FLOAT)", indexed},
  {"Indexed (DOUBLE)", indexed},
  {"3D XY Face (FLOAT)", face},
  {"3D XZ Face (FLOAT)", face},
  {"3D YZ Face (FLOAT)", face},
  {"3D XY Face (DOUBLE)", face},
  {"3D XZ Face (DOUBLE)", face},
  {"3D YZ Face (DOUBLE)", face},
  {"Flash I/O (DOUBLE)", flash},
  {NULL, NULL},
};
