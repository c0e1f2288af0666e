/* The benchmark: every test packs (and unpacks) the same data three ways in
 * one process -- a hand-written loop, dataloop, the MPI's own MPI_Pack
 * (MPICH's, or Open MPI's in the Open MPI build) -- checks
 * that all three produce the same bytes, then times them. */
#ifndef BENCH_H
#define BENCH_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "dataloop.h"

/* the MPI the benchmark is built against, as its columns name it (each
   MPI gets its own build: dataloop-bench, dataloop-bench-openmpi) */
#ifdef OPEN_MPI
#define BENCH_HOST "Open MPI"
#else
#define BENCH_HOST "MPICH"
#endif

/* parameters a test's manual loops read */
typedef struct bparams {
  size_t n, nx, ny, nz;      /* counts and array dimensions */
  size_t esize;              /* element bytes */
  size_t fixed;              /* the fixed index of a face */
  const dl_count *idx;       /* indexed: element displacements */
  size_t nidx;
  size_t k[16];              /* pattern-specific */
} bparams;

/* manual loops get the allocation base, not the types' origin */
typedef void (*manual_pack_fn)(const bparams *p, const char *mem, char *out);
typedef void (*manual_unpack_fn)(const bparams *p, char *mem, const char *in);

typedef struct btest {
  char name[64];
  const char *group;          /* "synthetic" or "application" */
  char *mem;                  /* the user data (allocation) */
  size_t memlen;
  char *origin;               /* buffer argument of the pack calls */
  dl_count count;             /* count argument */
  dl_type *dt;
  dl_type *jt;                /* the same, compiled */
  MPI_Datatype mt;
  size_t packed;              /* packed bytes */
  size_t extent;              /* bytes of memory the data spans */
  bparams p;
  manual_pack_fn mpack;
  manual_unpack_fn munpack;
  double build_dl_us, build_mpi_us;   /* construction + commit */
  void *owned;                /* extra allocation freed with the test */
} btest;

/* a test constructor fills t (memory, types, manual loops); returns false
   when it cannot run */
typedef bool (*btest_make)(btest *t);

typedef struct bentry {
  const char *name;
  btest_make make;
} bentry;

extern const bentry bench_synthetic[];
extern const bentry bench_apps[];
extern const bentry bench_gathers[];

/* helpers for test constructors (common.c) */
void bench_alloc(btest *t, size_t bytes);
double bench_now(void);
/* bench_alloc reserves memory without touching it (timing type builds) */
extern bool bench_types_only;
/* builds an entry's test (false: it cannot run); frees a test */
bool bench_make(const bentry *e, btest *t);
void bench_free(btest *t);
/* Timed batches of engines 0..neng-1, interleaved: run(ctx, engine,
   unpack, buf) once is one operation over `bytes` bytes; each batch repeats
   it for at least batch_s seconds. MB/s per engine: median, min, max;
   engines with skip[e] (skip may be NULL) are not run and get NAN. */
typedef void (*bench_run_fn)(void *ctx, int eng, bool unpack, char *buf);
void bench_measure(int neng, const bool *skip, bench_run_fn run, void *ctx,
                   bool unpack, char *buf,
                   size_t bytes, double batch_s, int batches, double *med,
                   double *lo, double *hi);
int bench_cmp_double(const void *x, const void *y);   /* for qsort */
/* the median of r[0..n) (sorted in place: r[0] and r[n-1] are then the
   extremes) */
double bench_median(double *r, int n);
/* interleaved rounds: us[v * batches + i] is variant v's time in round i;
   the median over rounds of a's time over b's in the same round (drift
   between rounds moves both alike) */
double bench_paired(const double *us, int batches, int a, int b);
/* order[0..n): a permutation of 0..n-1 for round `round`, the same on
   every rank; rounds run their variants in these orders, so no variant
   always follows the same other one */
void bench_order(int round, int n, int *order);
/* the per-call types, both ways, committed: a 64-byte struct with gaps
   (int at 0, 3 doubles at 8, 16 chars at 32, 3 floats at 48) and 3
   doubles 16 bytes apart */
void bench_small_types(dl_type **d1, MPI_Datatype *m1, dl_type **d2, MPI_Datatype *m2);
/* WRF's halo (DDTBench's "2x2" case x, else y; bench/apps.c) as a
   struct of nine subarrays, the strip of 3 starting at i = start (x) or
   j = start (y): *type (committed) and the manual loops' *p (man_wrf_pack);
   the bytes of the nine arrays' allocation */
size_t bench_wrf_halo(bool x, size_t start, bparams *p, MPI_Datatype *type);
/* the atoms leaving a molecular dynamics domain: one at random in each
   group of n / moved of n atoms, in order (as a scan finds them), their
   indices in at[0..moved) (the same ones in every program and run) */
void bench_atoms_leaving(dl_count n, dl_count moved, dl_count *at);
/* whether a test's name holds filter (any case); a NULL filter matches */
bool bench_matches(const char *name, const char *filter);
/* MPI_Init for a program of exactly two ranks: this rank (*rank) and the
   other (*peer); false, with a message naming prog and MPI finalized,
   for any other size */
bool bench_two_ranks(int *argc, char ***argv, const char *prog, int *rank, int *peer);
/* the output folder when --out is not given: relative to the working
   directory, so an installed tool writes where it is run */
#define BENCH_OUT_DEFAULT "dataloop-results"
/* makes dir and its parents and checks that a file can be created there;
   false, with a message naming prog, otherwise */
bool bench_out_dir(const char *prog, const char *dir);
/* the same for the folder holding the file path */
bool bench_out_parent(const char *prog, const char *path);
/* An output file is gathered in memory and written out whole when the run
   is over: an interrupted or failed run leaves no partial file. */
typedef struct bench_file {
  FILE *f;          /* write here */
  char *buf;
  size_t len;
} bench_file;
/* f's stream; exits on failure (out of memory) */
FILE *bench_file_open(bench_file *bf);
/* writes what bf holds to a temporary file in path's folder and renames it
   to path; false, with a message naming prog and nothing left behind,
   when any step fails. bf is released either way. */
bool bench_file_commit(const char *prog, bench_file *bf, const char *path);
/* releases bf without writing anything */
void bench_file_drop(bench_file *bf);
/* the options of the two-rank programs (dataloop-pingpong,
   dataloop-rma-bench): --quick (the default; the caller's batch_s and
   batches), --full (full_batches rounds of >= 50 ms), --filter NAME,
   --out DIR, --unpack (dataloop-bench's, accepted and ignored); -h and
   --help call usage(stdout, 0), anything else usage(stderr, 2) */
typedef struct bench_pair_opts {
  const char *filter, *out;
  double batch_s;        /* minimum time of one timed batch */
  int batches;           /* timed rounds */
  bool full;
} bench_pair_opts;
void bench_pair_parse(int argc, char **argv, bench_pair_opts *o, int full_batches,
                      void (*usage)(FILE *to, int code));
/* MPI_Init on exactly two ranks (bench_two_ranks), then the output folder
   made on rank 0 and agreed by both: 0 to go on, else the exit status
   (MPI finalized) */
int bench_pair_start(int *argc, char ***argv, const char *prog, const char *out,
                     int *rank, int *peer);
/* rank 0's two result files written as out/names[0] and out/names[1]
   (bench_file_commit), and a line naming them; false when either failed */
bool bench_pair_commit(const char *prog, bench_file bf[2], const char *out,
                       const char *const names[2]);
/* how many of the tests named names[0..] (NULL-terminated, or n of them
   when n >= 0) match filter; none: a message naming prog */
int bench_count_matches(const char *prog, const char *const *names, int n,
                        const char *filter);
/* the test's dt and mt: a struct of n <= BENCH_STRUCT_MAX members (block
   lengths, byte displacements, member types of each library) resized to
   extent; each library's construction and commit timed */
#define BENCH_STRUCT_MAX 8
void bench_struct_types(btest *t, int n, const int *bl, const dl_aint *disp,
                        dl_type *const *dt, const MPI_Datatype *mt, dl_aint extent);
/* times construction + commit: call before and after building a type */
#define BENCH_BUILD(t, field, stmt)                \
  do {                                             \
    double t0_ = bench_now();                      \
    stmt;                                          \
    (t)->field = (bench_now() - t0_) * 1e6;        \
  } while (0)

/* manual loops (manual.c, compiled -O3) */
void man_contig_pack(const bparams *p, const char *mem, char *out);
void man_contig_unpack(const bparams *p, char *mem, const char *in);
void man_struct_array_pack(const bparams *p, const char *mem, char *out);
void man_struct_array_unpack(const bparams *p, char *mem, const char *in);
void man_vector_pack(const bparams *p, const char *mem, char *out);
void man_vector_unpack(const bparams *p, char *mem, const char *in);
void man_indexed_pack(const bparams *p, const char *mem, char *out);
void man_indexed_unpack(const bparams *p, char *mem, const char *in);
void man_face_xy_pack(const bparams *p, const char *mem, char *out);
void man_face_xy_unpack(const bparams *p, char *mem, const char *in);
void man_face_xz_pack(const bparams *p, const char *mem, char *out);
void man_face_xz_unpack(const bparams *p, char *mem, const char *in);
void man_face_yz_pack(const bparams *p, const char *mem, char *out);
void man_face_yz_unpack(const bparams *p, char *mem, const char *in);
void man_flash_pack(const bparams *p, const char *mem, char *out);
void man_flash_unpack(const bparams *p, char *mem, const char *in);
void man_wrf_pack(const bparams *p, const char *mem, char *out);
void man_wrf_unpack(const bparams *p, char *mem, const char *in);
void man_lu_x_pack(const bparams *p, const char *mem, char *out);
void man_lu_x_unpack(const bparams *p, char *mem, const char *in);
void man_lu_y_pack(const bparams *p, const char *mem, char *out);
void man_lu_y_unpack(const bparams *p, char *mem, const char *in);
void man_mg_pack(const bparams *p, const char *mem, char *out);
void man_mg_unpack(const bparams *p, char *mem, const char *in);
void man_atoms_pack(const bparams *p, const char *mem, char *out);
void man_atoms_unpack(const bparams *p, char *mem, const char *in);
void man_atoms_pick_pack(const bparams *p, const char *mem, char *out);
void man_atoms_pick_unpack(const bparams *p, char *mem, const char *in);
void man_fft_pack(const bparams *p, const char *mem, char *out);
void man_fft_unpack(const bparams *p, char *mem, const char *in);
/* dataloop-rma-bench: an FFT block read transposed, rows written; points */
void man_fft_block_pack(const bparams *p, const char *mem, char *out);
void man_fft_rows_unpack(const bparams *p, char *mem, const char *in);
void man_points_pack(const bparams *p, const char *mem, char *out);
void man_points_unpack(const bparams *p, char *mem, const char *in);

#endif
