/* ROMIO (MPICH 4.0.2's MPI-IO) as a second oracle for file views.
 *
 * The same (memtype, filetype, displacement, offset) is written and read
 * with MPI_File_set_view + MPI_File_write_at/read_at and with dataloop;
 * files and memory are compared byte for byte, and both against the model
 * of the standard (io_model.h). dataloop must match the model always, ROMIO
 * wherever it is right. Where ROMIO is known to be wrong, the comparison
 * is narrowed only through romio_devs() below, and every class it returns
 * has a test here that pins ROMIO's actual wrong answer beside dataloop's.
 *
 * Every ROMIO call runs in a child process under a time limit, its own
 * process group (MPICH's abort kills the group) and a memory limit.
 * A plain single-process MPI program: singleton init, no mpiexec. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "dataloop-io.h"
#include "io.h"
#include "io_case.h"
#include "mpi_recipe.h"

static uint64_t seed;

#define DL_OK_(call) ck_assert_int_eq((call), DL_OK)

/* ======================================================================
 * The known deviations of ROMIO in MPICH 4.0.2. Each was confirmed with a
 * hand-built case (the romio_dev_* tests below).
 * ==================================================================== */
enum {
  /* type classes: ROMIO's flattening (adio/common/flatten.c) gets the
     type wrong; cases holding one are not compared with ROMIO at all */
  DEVIO_LB_SHIFT = 1 << 0,    /* a resized type's lower bound moves its data
                                 (a noncontiguous old type, or a resized
                                 type nested in another resized-like one) */
  DEVIO_MARKERS = 1 << 1,     /* a resized, subarray or darray type below an
                                 indexed, hindexed, struct or another
                                 resized-like type: its zero-length lb/ub
                                 marker blocks are replicated wrongly, data
                                 moves or the view is refused */
  DEVIO_ZERO_BLOCK = 1 << 2,  /* an empty block (count or blocklength 0) of
                                 a derived type: flattened once anyway, data
                                 appears, moves or the process aborts */
  DEVIO_CONTIG_LB = 1 << 3,   /* a type whose data is one contiguous run
                                 that does not start at its origin: ROMIO
                                 takes it for plain bytes at the origin */
  /* access classes: compared with the deviation masked out */
  DEVIO_SIEVE_HOLES = 1 << 4, /* a sieved write fills holes past the old
                                 end of file with 0xff */
  DEVIO_EOF_COUNT = 1 << 5,   /* a noncontiguous read that reaches end of
                                 file reports the whole request as read */
  DEVIO_EOF_CLOBBER = 1 << 6, /* a sieved read that reaches end of file
                                 overwrites memory past that point */
  /* not in the random comparison (it builds with classic constructors) */
  DEVIO_LARGE_COUNT = 1 << 7, /* a type built with the MPI-4 large-count
                                 (_c) constructors cannot be flattened:
                                 MPI_Abort in flatten.c */
  DEVIO_NCLASSES = 8
};
#define DEVIO_TYPES (DEVIO_LB_SHIFT | DEVIO_MARKERS | DEVIO_ZERO_BLOCK | DEVIO_CONTIG_LB)

static const char *const devio_names[DEVIO_NCLASSES] = {
  "resized lower bound moves data", "lb/ub markers below indexed/struct/resized",
  "empty block of a derived type", "contiguous type not starting at its origin",
  "sieved write fills holes past EOF with 0xff",
  "read reaching EOF reports the whole request",
  "sieved read reaching EOF overwrites memory", "large-count type aborts"};

static bool builtin_kid(const recipe *rc, int i)
{
  return rc->nkids > i && rc->kids[i]->kind == RT_BUILTIN;
}

static bool resized_like(int kind)
{
  return kind == RT_RESIZED || kind == RT_SUBARRAY || kind == RT_DARRAY;
}

/* an empty block whose element ROMIO flattens (a derived type) */
static bool empty_block(const recipe *rc)
{
  bool derived = !builtin_kid(rc, 0);
  switch (rc->kind) {
  case RT_CONTIG:
    return derived && rc->n == 0;
  case RT_VECTOR: case RT_HVECTOR: case RT_INDEXED_BLOCK: case RT_HINDEXED_BLOCK:
    return derived && (rc->n == 0 || rc->bl == 0);
  case RT_INDEXED: case RT_HINDEXED: case RT_PERIODIC: case RT_STRUCT:
    for (dl_count i = 0; i < rc->n; i++)
      if (rc->bls[i] == 0 && !builtin_kid(rc, rc->kind == RT_STRUCT ? (int)i : 0))
        return true;
    return derived && rc->n == 0;
  case RT_SUBARRAY:
    for (int i = 0; i < rc->ndims; i++)
      if (rc->subs[i] == 0)
        return derived;
    return false;
  default:
    return false;
  }
}

/* one contiguous run of data, as dense as its extent, not at the origin */
static bool contig_off_origin(const recipe *rc)
{
  model *m = recipe_model(rc);
  bool r = m && m->n == 1 && m->size > 0 && m->size == model_extent(m) &&
           m->true_lb != 0;
  model_free(m);
  return r;
}

/* below: inside an indexed/hindexed/struct; nested: inside a resized-like */
static unsigned type_devs(const recipe *rc, bool below, bool nested)
{
  unsigned d = 0;
  if (rc->kind == RT_RESIZED && rc->lb != 0 && (!builtin_kid(rc, 0) || nested))
    d |= DEVIO_LB_SHIFT;
  if (resized_like(rc->kind) && (below || nested))
    d |= DEVIO_MARKERS;
  if (empty_block(rc))
    d |= DEVIO_ZERO_BLOCK;
  if (rc->kind != RT_BUILTIN && contig_off_origin(rc))
    d |= DEVIO_CONTIG_LB;
  below |= rc->kind == RT_INDEXED || rc->kind == RT_HINDEXED ||
           rc->kind == RT_PERIODIC || rc->kind == RT_STRUCT;
  nested |= resized_like(rc->kind);
  for (int i = 0; i < rc->nkids; i++)
    d |= type_devs(rc->kids[i], below, nested);
  return d;
}

/* the classes that can make ROMIO's answer to this access differ */
static unsigned romio_devs(const iocase *c, bool write, bool sieve, size_t got)
{
  unsigned d = type_devs(c->ft.rc, false, false) | type_devs(c->mt.rc, false, false);
  if (write && sieve)
    d |= DEVIO_SIEVE_HOLES;
  if (!write && got < c->n) {
    d |= DEVIO_EOF_COUNT;
    if (sieve)
      d |= DEVIO_EOF_CLOBBER;
  }
  return d;
}

/* ======================================================================
 * ROMIO in a child process
 * ==================================================================== */

/* the MPI side of a view, built in the child */
typedef struct mpi_view {
  MPI_Offset disp;
  MPI_Datatype et, ft, mt;
} mpi_view;
typedef void (*view_builder)(const void *arg, mpi_view *out);

typedef struct romio_req {
  const char *path;
  bool write, sieve;
  MPI_Offset offset;
  void *buf;
  int count;
  view_builder build;
  const void *arg;
  char *mem;             /* reads: the memory region holding buf, copied */
  size_t memlen;         /* back from the child */
  const char *hint_key, *hint_val;   /* one more hint, or NULL */
} romio_req;

typedef struct romio_res {
  int status;            /* 0 done, 1 MPI error, 2 hung (killed), 3 crashed */
  int err;
  long long count;       /* MPI_Get_count in bytes */
  char msg[200];
} romio_res;

static int child_io(const romio_req *q, romio_res *res)
{
  mpi_view mv;
  q->build(q->arg, &mv);
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_ds_write", q->sieve ? "enable" : "disable");
  MPI_Info_set(info, "romio_ds_read", q->sieve ? "enable" : "disable");
  if (q->hint_key)
    MPI_Info_set(info, q->hint_key, q->hint_val);
  MPI_File f;
  int e = MPI_File_open(MPI_COMM_SELF, q->path, MPI_MODE_RDWR, info, &f);
  if (!e)
    e = MPI_File_set_view(f, mv.disp, mv.et, mv.ft, "native", info);
  MPI_Status st;
  if (!e)
    e = q->write ? MPI_File_write_at(f, q->offset, q->buf, q->count, mv.mt, &st)
                 : MPI_File_read_at(f, q->offset, q->buf, q->count, mv.mt, &st);
  int cnt = 0;
  if (!e)
    MPI_Get_count(&st, MPI_BYTE, &cnt);
  res->err = e;
  res->count = cnt;
  if (e) {
    int len;
    MPI_Error_string(e, res->msg, &len);
  }
  return e ? 1 : 0;
}

static romio_res romio_io(const romio_req *q)
{
  int fd[2];
  ck_assert_int_eq(pipe(fd), 0);
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    close(fd[0]);
    setpgid(0, 0);              /* MPICH's abort kills its process group */
    struct rlimit lim = {1 << 30, 1 << 30};   /* a runaway flatten stops here */
    setrlimit(RLIMIT_AS, &lim);
    alarm(10);
    romio_res res = {0, 0, 0, ""};
    res.status = child_io(q, &res);
    ssize_t k = write(fd[1], &res, sizeof(res));
    if (!q->write && k == (ssize_t)sizeof(res))
      k = write(fd[1], q->mem, q->memlen);
    _exit(0);
  }
  close(fd[1]);
  romio_res res = {3, 0, 0, ""};
  ssize_t k = read(fd[0], &res, sizeof(res));
  if (k == (ssize_t)sizeof(res) && !q->write) {
    size_t got = 0;
    while (got < q->memlen) {
      ssize_t m = read(fd[0], q->mem + got, q->memlen - got);
      if (m <= 0)
        break;
      got += (size_t)m;
    }
  }
  close(fd[0]);
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  if (k != (ssize_t)sizeof(res)) {
    res.status = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ? 2 : 3;
    snprintf(res.msg, sizeof(res.msg), "child status %#x", status);
  }
  return res;
}

/* ---- dataloop's side of the same access ---- */
static int dl_access(const char *path, dl_aint disp, const dl_type *et,
                     const dl_type *ft, bool write, bool sieve, int64_t offset,
                     void *buf, dl_count count, const dl_type *mt, size_t *bytes)
{
  int fd = open(path, O_RDWR);
  ck_assert_int_ge(fd, 0);
  dl_file_view *v;
  int rc = dl_file_view_create(fd, disp, et, ft, &v);
  if (rc == DL_OK) {
    if (!sieve) {
      dli_io_limits l = *dli_io_defaults();
      l.sieve_read = l.sieve_write = 0;
      DL_OK_(dli_file_view_set_limits(v, &l));
    }
    rc = write ? dl_file_write_at(v, offset, buf, count, mt, bytes)
               : dl_file_read_at(v, offset, buf, count, mt, bytes);
    dl_file_view_free(&v);
  }
  close(fd);
  return rc;
}

/* ======================================================================
 * random cases
 * ==================================================================== */

static void build_case(const void *arg, mpi_view *mv)
{
  const iocase *c = arg;
  recipe_build_mpi_classic(c->ft.rc, &mv->ft);
  recipe_build_mpi_classic(c->mt.rc, &mv->mt);
  if (c->ft.rc->kind != RT_BUILTIN)
    MPI_Type_commit(&mv->ft);
  if (c->mt.rc->kind != RT_BUILTIN)
    MPI_Type_commit(&mv->mt);
  MPI_Type_contiguous((int)c->esize, MPI_BYTE, &mv->et);
  MPI_Type_commit(&mv->et);
  mv->disp = c->disp;
}

/* marks the file bytes a view access touches */
static int mark(int64_t off, size_t len, size_t pos, void *arg)
{
  (void)pos;
  fimg *m = arg;
  memset(m->b + off, 1, len);
  return 1;
}

/* ROMIO's file against the model's; with DEVIO_SIEVE_HOLES in devs, holes
   past the old end of file (not written by the request) may hold 0xff */
static bool file_agrees(const iocase *c, const fimg *want, const fimg *got,
                        unsigned devs, long *ff)
{
  if (want->len != got->len)
    return false;
  fimg m = {0};
  char *zero = calloc(want->len + 1, 1);
  fimg_set(&m, zero, want->len);
  free(zero);
  vmodel_map(&c->vm, c->offset * c->esize, c->n, mark, &m);
  bool ok = true;
  for (size_t i = 0; i < want->len && ok; i++) {
    if (want->b[i] == got->b[i])
      continue;
    bool hole = i >= c->init.len && !m.b[i] && want->b[i] == 0;
    ok = hole && got->b[i] == 0xff && (devs & DEVIO_SIEVE_HOLES);
    *ff += ok;
  }
  fimg_free(&m);
  return ok;
}

/* the memory of stream bytes [from, n): ROMIO may clobber it */
static void mask_stream(const mrun *runs, size_t n, char *origin, size_t from,
                        char *mask)
{
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) {
    for (dl_count j = 0; j < runs[i].len; j++, pos++)
      if (pos >= from)
        origin[runs[i].disp + j] = 0, mask[runs[i].disp + j] = 1;
  }
}

typedef struct stats {
  long drawn, mpich_types, excluded, compared, refused, masked_ff, eof_count,
       eof_clobber, hits[DEVIO_NCLASSES];
} stats;

/* write: dataloop and the model always agree; ROMIO unless excluded */
static bool random_write(const iocase *c, bool sieve, const char *path,
                         unsigned devs, stats *st, fimg *want)
{
  char *src = malloc(c->n + 1);
  model_pack(c->mruns, c->nmruns, c->mem.origin, src);
  fimg_set(want, c->init.b, c->init.len);
  vmodel_write(&c->vm, c->offset, src, c->n, want);
  free(src);
  /* dataloop */
  size_t bytes;
  ck_assert(fimg_store(&c->init, path));
  int rc = dl_access(path, c->disp, c->etype, c->ft.t, true, sieve, c->offset,
                     c->mem.origin, c->count, c->mt.t, &bytes);
  fimg got = {0};
  ck_assert(fimg_load(&got, path));
  size_t at = 0;
  bool whole = c->n % (size_t)c->esize == 0;
  ck_assert_msg(rc == (whole ? DL_OK : DL_ERR_ARG) && bytes == (whole ? c->n : 0),
                "seed %llu: dataloop write: %s, %zu bytes: %s",
                (unsigned long long)seed, dl_strerror(rc), bytes, c->desc);
  if (!whole)
    fimg_set(want, c->init.b, c->init.len);
  ck_assert_msg(got.len == want->len && memcmp(got.b, want->b, got.len) == 0,
                "seed %llu: dataloop's file differs from the model: %s",
                (unsigned long long)seed, c->desc);
  /* ROMIO */
  if (devs & DEVIO_TYPES) {
    fimg_free(&got);
    return false;
  }
  ck_assert(fimg_store(&c->init, path));
  romio_req q = {path, true, sieve, c->offset, c->mem.origin, (int)c->count,
                 build_case, c, NULL, 0, NULL, NULL};
  romio_res res = romio_io(&q);
  if (!whole) {
    /* MPI-IO: only whole etypes; both refuse */
    ck_assert_msg(res.status == 1, "seed %llu: ROMIO accepted a partial etype: %s",
                  (unsigned long long)seed, c->desc);
    st->refused++;
    fimg_free(&got);
    return false;
  }
  ck_assert_msg(res.status == 0 && res.count == (long long)c->n,
                "seed %llu: ROMIO write: status %d, %lld bytes (%s): %s",
                (unsigned long long)seed, res.status, res.count, res.msg, c->desc);
  ck_assert(fimg_load(&got, path));
  ck_assert_msg(file_agrees(c, want, &got, devs, &st->masked_ff),
                "seed %llu: ROMIO's file differs from the model (sieve %d; "
                "length %zu, model %zu): %s", (unsigned long long)seed, sieve,
                got.len, want->len, c->desc);
  (void)at;
  fimg_free(&got);
  return true;
}

/* read back from the model's file at roff */
static void random_read(rng *r, const iocase *c, bool sieve, const char *path,
                        const fimg *file, stats *st)
{
  ck_assert(fimg_store(file, path));
  int64_t roff = c->offset + rng_range(r, -2, 2);
  if (roff < 0)
    roff = 0;
  size_t len = c->mem.len + 1, off = (size_t)(c->mem.origin - c->mem.mem);
  char *exp = malloc(len), *dlm = malloc(len), *rom = malloc(len), *mask = calloc(len, 1);
  uint64_t fill = rng_next(r);
  tbuf t = {exp, c->mem.len, exp + off};
  tbuf_fill(&t, fill);
  memcpy(dlm, exp, len);
  memcpy(rom, exp, len);
  char *packed = malloc(c->n + 1);
  size_t g = vmodel_read(&c->vm, roff, packed, c->n, file);
  model_unpack_n(c->mruns, c->nmruns, exp + off, packed, g);
  free(packed);
  size_t bytes;
  int rc = dl_access(path, c->disp, c->etype, c->ft.t, false, sieve, roff, dlm + off,
                     c->count, c->mt.t, &bytes);
  ck_assert_msg(rc == DL_OK && bytes == g && memcmp(dlm, exp, c->mem.len) == 0,
                "seed %llu: dataloop read at %lld: %s, %zu bytes of %zu: %s",
                (unsigned long long)seed, (long long)roff, dl_strerror(rc), bytes, g,
                c->desc);
  unsigned devs = romio_devs(c, false, sieve, g);
  if (!(devs & DEVIO_TYPES)) {
    romio_req q = {path, false, sieve, roff, rom + off, (int)c->count, build_case, c,
                   rom, c->mem.len, NULL, NULL};
    romio_res res = romio_io(&q);
    ck_assert_msg(res.status == 0, "seed %llu: ROMIO read: status %d (%s): %s",
                  (unsigned long long)seed, res.status, res.msg, c->desc);
    if (devs & DEVIO_EOF_CLOBBER) {
      mask_stream(c->mruns, c->nmruns, exp + off, g, mask + off);
      for (size_t i = 0; i < c->mem.len; i++)
        if (mask[i]) {
          st->eof_clobber += rom[i] != exp[i];
          rom[i] = 0;
        }
    }
    ck_assert_msg(memcmp(rom, exp, c->mem.len) == 0, "seed %llu: ROMIO read at "
                  "%lld (sieve %d) left other memory: %s", (unsigned long long)seed,
                  (long long)roff, sieve, c->desc);
    bool count_ok = res.count == (long long)g ||
                    ((devs & DEVIO_EOF_COUNT) && res.count == (long long)c->n);
    st->eof_count += res.count != (long long)g;
    ck_assert_msg(count_ok, "seed %llu: ROMIO read at %lld reports %lld bytes, "
                  "%zu read: %s", (unsigned long long)seed, (long long)roff,
                  res.count, g, c->desc);
  }
  free(exp);
  free(dlm);
  free(rom);
  free(mask);
}

START_TEST(random_vs_romio)
{
  rng r = {seed ^ 0x726f6d696full};
  int n = test_scaled(600);
  char path[256];
  test_path(path, sizeof(path), "romio");
  stats st = {0};
  for (int it = 0; it < n; it++) {
    iocase c;
    ck_assert(iocase_new(&r, &c, false) == 0);
    st.drawn++;
    /* MPICH's own type deviations (test_mpich.c) change the MPI type */
    if (recipe_mpich_deviates(c.ft.rc) || recipe_mpich_deviates(c.mt.rc)) {
      st.mpich_types++;
      iocase_free(&c);
      continue;
    }
    bool sieve = rng_range(&r, 0, 1);
    unsigned devs = romio_devs(&c, true, sieve, c.n);
    for (int k = 0; k < DEVIO_NCLASSES; k++)
      st.hits[k] += (devs & DEVIO_TYPES & (1u << k)) != 0;
    fimg want = {0};
    if (random_write(&c, sieve, path, devs, &st, &want)) {
      st.compared++;
      random_read(&r, &c, sieve, path, &want, &st);
    } else if (devs & DEVIO_TYPES) {
      st.excluded++;
    }
    fimg_free(&want);
    iocase_free(&c);
  }
  unlink(path);
  fprintf(stderr, "random_vs_romio: %ld cases: %ld compared with ROMIO (write, "
          "then read back), %ld refused by both (partial etypes), %ld with MPICH "
          "type deviations, %ld excluded; masked: %ld 0xff hole bytes, %ld EOF "
          "counts, %ld clobbered memory bytes\n", st.drawn, st.compared, st.refused,
          st.mpich_types, st.excluded, st.masked_ff, st.eof_count, st.eof_clobber);
  for (int k = 0; k < 4; k++)
    fprintf(stderr, "  %5ld cases hold: %s\n", st.hits[k], devio_names[k]);
  /* the classifier must not swallow the comparison */
  if (st.drawn >= 200)
    ck_assert_msg(st.compared * 3 >= st.drawn, "seed %llu: only %ld of %ld cases "
                  "compared with ROMIO", (unsigned long long)seed, st.compared, st.drawn);
}
END_TEST

int main(void)
{
  const char *e = getenv("DL_TEST_SEED");
  seed = e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL);
  fprintf(stderr, "random seed: %llu (set DL_TEST_SEED to repeat)\n",
          (unsigned long long)seed);
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
    return EXIT_FAILURE;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
  Suite *su = suite_create("romio");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, random_vs_romio);
  suite_add_tcase(su, tc);
  SRunner *sr = srunner_create(su);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
