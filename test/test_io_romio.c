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
 * A plain single-process MPI program: singleton init, no mpiexec.
 *
 * DL_TEST_ROMIO_FLATTEN=dataloop says that the ROMIO under test flattens
 * datatypes with dataloop (src/mpich/romio/flatten.c: the MPICH tools/mpich
 * builds, through LD_LIBRARY_PATH): the classes that came from ROMIO's own
 * flattening (DEVIO_FLATTEN) are then compared like any other case, and
 * their romio_dev_* tests expect the standard's answer from ROMIO too. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dataloop-io.h"
#include "io.h"
#include "io_case.h"
#include "mpi_recipe.h"
#include "runner.h"

/* Under Valgrind (make check-valgrind) ROMIO is not run: MPICH and ROMIO
   are the oracle, not the subject (ROMIO even copies uninitialised bytes
   past EOF into memory), and each child would take seconds. dataloop's
   side of every comparison still runs (UNDER_VALGRIND, runner.h). */

/* AddressSanitizer reserves terabytes of address space for its shadow:
   an address-space limit would stop it, not a runaway flatten */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN true
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN false
#endif

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
                                 a derived type, or blocks of a derived type
                                 without data: flattened once anyway, data
                                 appears, moves or the process aborts */
  DEVIO_CONTIG_LB = 1 << 3,   /* a type whose data is one contiguous run
                                 that does not start at its origin: ROMIO
                                 takes it for plain bytes at the origin */
  /* access classes: compared with the deviation masked out */
  DEVIO_SIEVE_HOLES = 1 << 4, /* a sieved write fills holes past the old
                                 end of file with junk: 0xff in its first
                                 buffer-full, stale bytes after */
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
/* the classes ROMIO's adio/common/flatten.c causes: gone when it flattens
   with dataloop. DEVIO_CONTIG_LB stays: a contiguous type never reaches the
   flattening (ADIOI_Datatype_iscontig, then the caller's own buf) */
#define DEVIO_FLATTEN (DEVIO_LB_SHIFT | DEVIO_MARKERS | DEVIO_ZERO_BLOCK)

/* DL_TEST_ROMIO_FLATTEN: "romio" (the default: ROMIO's own flattening) or
   "dataloop"; anything else stops the test */
static bool romio_on_dataloop(void)
{
  const char *e = getenv("DL_TEST_ROMIO_FLATTEN");
  if (!e || strcmp(e, "romio") == 0)
    return false;
  if (strcmp(e, "dataloop") == 0)
    return true;
  fprintf(stderr, "DL_TEST_ROMIO_FLATTEN=%s: expected romio or dataloop\n", e);
  exit(EXIT_FAILURE);
}
#define STOCK_HINT "(set DL_TEST_ROMIO_FLATTEN=dataloop if ROMIO flattens with dataloop)"

static const char *const devio_names[DEVIO_NCLASSES] = {
  "resized lower bound moves data", "lb/ub markers below indexed/struct/resized",
  "empty block of a derived type", "contiguous type not starting at its origin",
  "sieved write fills holes past EOF with junk",
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

static bool empty_derived(const recipe *rc)
{
  if (rc->kind == RT_BUILTIN)
    return false;
  model *m = recipe_model(rc);
  bool empty = m && m->size == 0;
  model_free(m);
  return empty;
}

/* an empty block whose element ROMIO flattens (a derived type), or a
   block of a derived type without data */
static bool empty_block(const recipe *rc)
{
  for (int i = 0; i < rc->nkids; i++)
    if (empty_derived(rc->kids[i]))
      return true;
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

/* one contiguous run of data, as dense as its extent, before the origin */
static bool contig_off_origin(const recipe *rc)
{
  model *m = recipe_model(rc);
  bool r = m && m->n == 1 && m->size > 0 && m->size == model_extent(m) &&
           m->true_lb < 0;
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
  if (romio_on_dataloop())
    d &= ~(unsigned)DEVIO_FLATTEN;
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
    if (!UNDER_ASAN)
      setrlimit(RLIMIT_AS, &lim);
    signal(SIGALRM, SIG_DFL);   /* not Check's handler, which kills a group */
    alarm(10);
    romio_res res;
    memset(&res, 0, sizeof(res));
    res.status = child_io(q, &res);
    ssize_t k = write(fd[1], &res, sizeof(res));
    if (!q->write && k == (ssize_t)sizeof(res))
      k = write(fd[1], q->mem, q->memlen);
    raise(SIGKILL);             /* no exit processing: no MPI_Finalize */
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
   past the old end of file (not written by the request) may hold anything
   (0xff, or what ROMIO's buffer held from the previous window) */
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
    ok = hole && (devs & DEVIO_SIEVE_HOLES);
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
  long drawn, mpich_types, excluded, excluded_right, compared, refused, masked_ff, eof_count,
       eof_clobber, hits[DEVIO_NCLASSES], right[DEVIO_NCLASSES], excluded_status[4];
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
  /* ROMIO; an excluded case runs only when DL_TEST_ROMIO_EXCLUDED is set
     (MPICH's abort after a crash takes about a second) */
  if (UNDER_VALGRIND || ((devs & DEVIO_TYPES) && !getenv("DL_TEST_ROMIO_EXCLUDED"))) {
    fimg_free(&got);
    return false;
  }
  ck_assert(fimg_store(&c->init, path));
  romio_req q = {path, true, sieve, c->offset, c->mem.origin, (int)c->count,
                 build_case, c, NULL, 0, NULL, NULL};
  romio_res res = romio_io(&q);
  if (devs & DEVIO_TYPES) {
    /* excluded: only counted, to see how often ROMIO gets it right anyway */
    long ff = 0;
    bool ok = whole && res.status == 0 && res.count == (long long)c->n &&
              fimg_load(&got, path) && file_agrees(c, want, &got, devs, &ff);
    st->excluded_right += ok;
    st->excluded_status[res.status]++;
    for (int k = 0; k < DEVIO_NCLASSES; k++)
      st->right[k] += ok && (devs & DEVIO_TYPES & (1u << k));
    fimg_free(&got);
    return false;
  }
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
  size_t len = c->mem.len + 1;
  ptrdiff_t off = c->mem.origin - c->mem.mem;   /* may be negative */
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
  if (!(devs & DEVIO_TYPES) && !UNDER_VALGRIND) {
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
  int n = test_scaled(2000);
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
          "type deviations, %ld excluded by class; masked: %ld junk hole bytes, %ld "
          "EOF counts, %ld clobbered memory bytes\n", st.drawn, st.compared,
          st.refused, st.mpich_types, st.excluded, st.masked_ff, st.eof_count,
          st.eof_clobber);
  bool ran = getenv("DL_TEST_ROMIO_EXCLUDED") != NULL;
  if (ran)
    fprintf(stderr, "  excluded cases run anyway: ROMIO right %ld, refused %ld, hung "
            "%ld, crashed %ld\n", st.excluded_right, st.excluded_status[1],
            st.excluded_status[2], st.excluded_status[3]);
  for (int k = 0; k < 4; k++)
    if (ran)
      fprintf(stderr, "  %5ld cases hold (%ld of them written right anyway): %s\n",
              st.hits[k], st.right[k], devio_names[k]);
    else
      fprintf(stderr, "  %5ld cases hold: %s\n", st.hits[k], devio_names[k]);
  /* the classifier must not swallow the comparison */
  if (st.drawn >= 200 && !UNDER_VALGRIND)
    ck_assert_msg(st.compared * 3 >= st.drawn, "seed %llu: only %ld of %ld cases "
                  "compared with ROMIO", (unsigned long long)seed, st.compared, st.drawn);
}
END_TEST

/* ======================================================================
 * hand-built cases: helpers
 * ==================================================================== */

static void file_fill(const char *path, size_t n, int byte)
{
  char *b = malloc(n + 1);
  memset(b, byte, n);
  fimg f = {0};
  fimg_set(&f, b, n);
  ck_assert(fimg_store(&f, path));
  fimg_free(&f);
  free(b);
}

static void pattern(void *buf, size_t n, int base)
{
  for (size_t i = 0; i < n; i++)
    ((unsigned char *)buf)[i] = (unsigned char)(base + i);
}

/* a view of MPI types made by callbacks, for the hand-built cases */
typedef struct hview {
  MPI_Offset disp;
  MPI_Datatype (*et)(void), (*ft)(void), (*mt)(void);
} hview;

static void build_hand(const void *arg, mpi_view *mv)
{
  const hview *h = arg;
  mv->disp = h->disp;
  mv->et = h->et ? h->et() : MPI_BYTE;
  mv->ft = h->ft ? h->ft() : MPI_BYTE;
  mv->mt = h->mt ? h->mt() : MPI_BYTE;
}

static romio_res romio_write(const char *path, const hview *h, bool sieve,
                             MPI_Offset off, void *buf, int count)
{
  romio_req q = {path, true, sieve, off, buf, count, build_hand, h, NULL, 0, NULL, NULL};
  return romio_io(&q);
}

static romio_res romio_read(const char *path, const hview *h, bool sieve,
                            MPI_Offset off, void *buf, int count, void *mem, size_t len)
{
  romio_req q = {path, false, sieve, off, buf, count, build_hand, h, mem, len, NULL, NULL};
  return romio_io(&q);
}

static MPI_Datatype commit(MPI_Datatype t)
{
  MPI_Type_commit(&t);
  return t;
}

static dl_type *dcommit(dl_type *t)
{
  DL_OK_(dl_type_commit(t));
  return t;
}

#define DLB dl_builtin(DL_BYTE)


/* ======================================================================
 * the deviations, one hand-built case each. Each asserts ROMIO's actual
 * answer beside dataloop's standard one; if ROMIO is fixed, the ROMIO half
 * fails: drop the test and its class in romio_devs().
 * ==================================================================== */

static MPI_Datatype vec_0145(void)     /* bytes 0, 1, 4, 5 */
{
  MPI_Datatype v;
  MPI_Type_vector(2, 2, 4, MPI_BYTE, &v);
  return v;
}

static MPI_Datatype lb_plus2(void)
{
  MPI_Datatype v = vec_0145(), r;
  MPI_Type_create_resized(v, 2, 8, &r);
  MPI_Type_free(&v);
  return commit(r);
}

static MPI_Datatype lb_minus2(void)
{
  MPI_Datatype v = vec_0145(), r;
  MPI_Type_create_resized(v, -2, 8, &r);
  MPI_Type_free(&v);
  return commit(r);
}

static MPI_Datatype vec_0145_committed(void)
{
  return commit(vec_0145());
}

static MPI_Datatype vec_2x1x2_double(void)
{
  MPI_Datatype v;
  MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &v);
  return commit(v);
}

/* DEVIO_LB_SHIFT */
START_TEST(romio_dev_lb_shift)
{
  /* documents a ROMIO deviation: resized(vector(2, 2, 4, byte), lb, 8)
     holds bytes 0, 1, 4, 5 of every 8 whatever its lower bound; ROMIO
     moves them by lb: lb 2 puts them at 2, 3, 6, 7, and lb -2 makes the
     write fail (a negative offset) */
  char path[256];
  test_path(path, sizeof(path), "lbshift");
  unsigned char data[12];
  pattern(data, sizeof(data), 1);
  dl_type *v, *rp, *rm;
  DL_OK_(dl_type_vector(2, 2, 4, DLB, &v));
  DL_OK_(dl_type_resized(v, 2, 8, &rp));
  DL_OK_(dl_type_resized(v, -2, 8, &rm));
  dcommit(rp);
  dcommit(rm);
  for (int neg = 0; neg < 2; neg++) {
    hview h = {0, NULL, neg ? lb_minus2 : lb_plus2, NULL};
    file_fill(path, 32, 0xee);
    romio_res res = romio_write(path, &h, false, 0, data, 12);
    fimg rf = {0}, df = {0};
    ck_assert(fimg_load(&rf, path));
    file_fill(path, 32, 0xee);
    size_t bytes;
    DL_OK_(dl_access(path, 0, DLB, neg ? rm : rp, true, false, 0, data, 12, DLB, &bytes));
    ck_assert(fimg_load(&df, path));
    ck_assert_uint_eq(bytes, 12);
    bool fixed = romio_on_dataloop();
    if (fixed)
      ck_assert_msg(res.status == 0 && res.count == 12, "status %d (%s)", res.status,
                    res.msg);
    else if (neg)
      ck_assert_msg(res.status == 1, "ROMIO wrote with lb -2 (status %d) " STOCK_HINT,
                    res.status);
    else
      ck_assert_msg(res.status == 0 && res.count == 12, "status %d", res.status);
    for (int k = 0; k < 12; k++) {
      int at = 8 * (k / 4) + (k % 4 < 2 ? k % 4 : k % 4 + 2);
      ck_assert_int_eq(df.b[at], data[k]);                 /* the standard */
      if (!neg && !fixed)
        ck_assert_msg(rf.b[at + 2] == data[k], "ROMIO put byte %d in its place "
                      STOCK_HINT, k);                      /* ROMIO: moved */
    }
    if (fixed)                                             /* ROMIO: right */
      ck_assert(rf.len == df.len && memcmp(rf.b, df.b, df.len) == 0);
    fimg_free(&rf);
    fimg_free(&df);
  }
  dl_type_free(&v);
  dl_type_free(&rp);
  dl_type_free(&rm);
  unlink(path);
}
END_TEST

/* indexed(2, {2, 1}, {0, 3}, resized(int, 0, 8)): the zero-length lb/ub
   marker blocks of each resized copy sit in ROMIO's list between data */
static MPI_Datatype marked(void)
{
  MPI_Datatype r, t;
  MPI_Type_create_resized(MPI_INT, 0, 8, &r);
  MPI_Type_indexed(2, (int[]){2, 1}, (int[]){0, 3}, r, &t);
  MPI_Type_free(&r);
  return commit(t);
}

/* DEVIO_MARKERS */
START_TEST(romio_dev_markers)
{
  /* documents a ROMIO deviation: indexed(2, {2, 1}, {0, 3}, resized(int,
     0, 8)) holds ints at bytes 0, 8 and 24; ROMIO's flattening replicates
     the resized type's lb/ub marker entries as if they were blocks: it
     writes the ints at 0, 32 and 64 */
  char path[256];
  test_path(path, sizeof(path), "markers");
  int32_t data[3] = {0x11111111, 0x22222222, 0x33333333};
  dl_type *r, *t;
  DL_OK_(dl_type_resized(dl_builtin(DL_INT32), 0, 8, &r));
  DL_OK_(dl_type_indexed(2, (dl_count[]){2, 1}, (dl_count[]){0, 3}, r, &t));
  dcommit(t);
  hview h = {0, NULL, marked, NULL};
  file_fill(path, 64, 0);
  romio_res res = romio_write(path, &h, false, 0, data, 12);
  fimg rf = {0}, df = {0};
  ck_assert(fimg_load(&rf, path));
  file_fill(path, 64, 0);
  size_t bytes;
  DL_OK_(dl_access(path, 0, DLB, t, true, false, 0, data, 12, DLB, &bytes));
  ck_assert(fimg_load(&df, path));
  int32_t got[16], want[16] = {0};
  want[0] = data[0];
  want[2] = data[1];
  want[6] = data[2];
  memcpy(got, df.b, 64);
  ck_assert_mem_eq(got, want, 64);
  ck_assert_msg(res.status == 0 && res.count == 12, "status %d (%s)", res.status,
                res.msg);
  if (romio_on_dataloop()) {
    ck_assert(rf.len == 64 && memcmp(rf.b, df.b, 64) == 0);   /* ROMIO: right */
  } else {
    /* ROMIO: at 0, 32 and 64, as if each int were a block of 32 bytes */
    int32_t romio[17] = {0}, rgot[17];
    romio[0] = data[0];
    romio[8] = data[1];
    romio[16] = data[2];
    ck_assert_msg(rf.len == 68, "ROMIO wrote %zu bytes " STOCK_HINT, rf.len);
    memcpy(rgot, rf.b, 68);
    ck_assert_mem_eq(rgot, romio, 68);
  }
  fimg_free(&rf);
  fimg_free(&df);
  dl_type_free(&r);
  dl_type_free(&t);
  unlink(path);
}
END_TEST

/* hindexed(2, {0, 1}, {0, 16}, vector(2, 1, 2, int)): the first block is
   empty, the second holds ints at 16 and 24 */
static MPI_Datatype empty_first(void)
{
  MPI_Datatype v, t;
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);
  MPI_Type_create_hindexed(2, (int[]){0, 1}, (MPI_Aint[]){0, 16}, v, &t);
  MPI_Type_free(&v);
  return commit(t);
}

/* indexed(2, {1, 2}, {0, 3}, struct {2 x hvector(0, 0, 8, float) @ 12,
   3 x int16 @ 10}): the struct's first member has no data */
static MPI_Datatype empty_member(void)
{
  MPI_Datatype e, t;
  MPI_Type_create_hvector(0, 0, 8, MPI_FLOAT, &e);
  MPI_Type_create_struct(2, (int[]){2, 3}, (MPI_Aint[]){12, 10},
                         (MPI_Datatype[]){e, MPI_INT16_T}, &t);
  MPI_Type_free(&e);
  MPI_Datatype x;
  MPI_Type_indexed(2, (int[]){1, 2}, (int[]){0, 3}, t, &x);
  MPI_Type_free(&t);
  return commit(x);
}

/* DEVIO_ZERO_BLOCK */
START_TEST(romio_dev_zero_block)
{
  /* documents a ROMIO deviation: in hindexed(2, {0, 1}, {0, 16},
     vector(2, 1, 2, int)) the empty first block has no data and the
     second holds ints at 16 and 24; ROMIO flattens the vector at the empty
     block's displacement and writes them at 0 and 8. A struct member
     without data (a count-0 vector) below an indexed type loses data. */
  char path[256];
  test_path(path, sizeof(path), "zeroblock");
  int32_t data[2] = {0x11111111, 0x22222222};
  dl_type *v, *t;
  DL_OK_(dl_type_vector(2, 1, 2, dl_builtin(DL_INT32), &v));
  DL_OK_(dl_type_hindexed(2, (dl_count[]){0, 1}, (dl_aint[]){0, 16}, v, &t));
  dcommit(t);
  hview h = {0, NULL, empty_first, NULL};
  file_fill(path, 64, 0);
  romio_res res = romio_write(path, &h, false, 0, data, 8);
  fimg rf = {0}, df = {0};
  ck_assert(fimg_load(&rf, path));
  file_fill(path, 64, 0);
  size_t bytes;
  DL_OK_(dl_access(path, 0, DLB, t, true, false, 0, data, 8, DLB, &bytes));
  ck_assert(fimg_load(&df, path));
  int32_t got[16], want[16] = {0};
  want[4] = data[0];
  want[6] = data[1];
  memcpy(got, df.b, 64);
  ck_assert_mem_eq(got, want, 64);
  /* ROMIO: at 0 and 8, where the empty block is */
  int32_t romio[16] = {0};
  romio[0] = data[0];
  romio[2] = data[1];
  bool fixed = romio_on_dataloop();
  memcpy(got, rf.b, 64);
  ck_assert(res.status == 0 && res.count == 8);
  if (fixed)
    ck_assert_mem_eq(got, want, 64);
  else
    ck_assert_msg(memcmp(got, romio, 64) == 0, "ROMIO's ints are not where its "
                  "flattening puts them " STOCK_HINT);
  fimg_free(&rf);
  fimg_free(&df);
  /* a member without data, below an indexed type: the memory data are
     bytes 10..16, 28..34 and 34..40; ROMIO writes the first 6 and reports
     18 written */
  unsigned char mem[64];
  pattern(mem, sizeof(mem), 1);
  dl_type *e, *st, *x;
  DL_OK_(dl_type_hvector(0, 0, 8, dl_builtin(DL_FLOAT), &e));
  DL_OK_(dl_type_struct(2, (dl_count[]){2, 3}, (dl_aint[]){12, 10},
                        (dl_type *[]){e, dl_builtin(DL_INT16)}, &st));
  DL_OK_(dl_type_indexed(2, (dl_count[]){1, 2}, (dl_count[]){0, 3}, st, &x));
  dcommit(x);
  hview hs = {0, NULL, NULL, empty_member};
  file_fill(path, 0, 0);
  res = romio_write(path, &hs, false, 0, mem, 1);
  ck_assert(fimg_load(&rf, path));
  file_fill(path, 0, 0);
  DL_OK_(dl_access(path, 0, DLB, DLB, true, false, 0, mem, 1, x, &bytes));
  ck_assert(fimg_load(&df, path));
  ck_assert(res.status == 0 && res.count == 18 && bytes == 18);
  ck_assert(df.len == 18);
  ck_assert_mem_eq(df.b, mem + 10, 6);
  ck_assert_mem_eq(df.b + 6, mem + 28, 12);
  if (fixed) {
    ck_assert(rf.len == 18 && memcmp(rf.b, df.b, 18) == 0);
  } else {
    ck_assert_msg(rf.len == 6, "ROMIO wrote %zu bytes " STOCK_HINT, rf.len);
    ck_assert_mem_eq(rf.b, mem + 10, 6);
  }
  fimg_free(&rf);
  fimg_free(&df);
  dl_type *ts[] = {e, st, x};
  for (int i = 0; i < 3; i++)
    dl_type_free(&ts[i]);
  dl_type_free(&v);
  dl_type_free(&t);
  unlink(path);
}
END_TEST

/* one int at byte 4: contiguous, but not at its origin */
static MPI_Datatype int_at_4(void)
{
  MPI_Datatype t;
  MPI_Type_create_hindexed(1, (int[]){1}, (MPI_Aint[]){4}, MPI_INT, &t);
  return commit(t);
}

static MPI_Datatype int_at_m4(void)
{
  MPI_Datatype t;
  MPI_Type_create_hindexed(1, (int[]){1}, (MPI_Aint[]){-4}, MPI_INT, &t);
  return commit(t);
}

/* DEVIO_CONTIG_LB */
START_TEST(romio_dev_contig_lb)
{
  /* documents a ROMIO deviation: hindexed(1, {1}, {-4}, int) is 4 bytes
     at byte -4 of its origin and contiguous; two of them from buf cover
     buf - 4 to buf + 4. ROMIO takes the 8 bytes at buf. The same type
     with its data at +4 is read from the right place. */
  char path[256];
  test_path(path, sizeof(path), "contiglb");
  unsigned char mem[32];
  pattern(mem, sizeof(mem), 1);
  for (int pos = 0; pos < 2; pos++) {
    dl_type *t;
    DL_OK_(dl_type_hindexed(1, (dl_count[]){1}, (dl_aint[]){pos ? 4 : -4},
                           dl_builtin(DL_INT32), &t));
    dcommit(t);
    hview h = {0, NULL, NULL, pos ? int_at_4 : int_at_m4};
    file_fill(path, 8, 0);
    romio_res res = romio_write(path, &h, false, 0, mem + 8, 2);
    fimg rf = {0}, df = {0};
    ck_assert(fimg_load(&rf, path));
    file_fill(path, 8, 0);
    size_t bytes;
    DL_OK_(dl_access(path, 0, DLB, DLB, true, false, 0, mem + 8, 2, t, &bytes));
    ck_assert(fimg_load(&df, path));
    ck_assert(res.status == 0 && res.count == 8 && bytes == 8);
    ck_assert_mem_eq(df.b, mem + (pos ? 12 : 4), 8);   /* the standard */
    ck_assert_mem_eq(rf.b, mem + (pos ? 12 : 8), 8);   /* ROMIO */
    fimg_free(&rf);
    fimg_free(&df);
    dl_type_free(&t);
  }
  unlink(path);
}
END_TEST

/* DEVIO_SIEVE_HOLES */
START_TEST(romio_dev_sieve_holes)
{
  /* documents a ROMIO deviation: holes past the old end of file get junk.
     A sieved write of 8 bytes through
     vector(2, 2, 4, byte) (bytes 0, 1, 4, 5; extent 6) on an empty file reads nothing, copies the data into a buffer
     ROMIO filled with 0xff, and writes the whole extent back: the holes
     past the old end of file hold 0xff. dataloop writes only the data
     there (the holes read as zeros). With the file long enough, both
     agree. */
  char path[256];
  test_path(path, sizeof(path), "holes");
  unsigned char data[8];
  pattern(data, sizeof(data), 1);
  dl_type *v;
  DL_OK_(dl_type_vector(2, 2, 4, DLB, &v));
  dcommit(v);
  /* copies 6 bytes apart: data at 0, 1, 4, 5, 6, 7, 10, 11 */
  static const unsigned char want[12] = {1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 8};
  hview h = {0, NULL, NULL, NULL};
  h.ft = vec_0145_committed;
  for (int cover = 0; cover < 2; cover++) {
    file_fill(path, cover ? 12 : 0, 0);
    romio_res res = romio_write(path, &h, true, 0, data, 8);
    fimg rf = {0}, df = {0};
    ck_assert(fimg_load(&rf, path));
    file_fill(path, cover ? 12 : 0, 0);
    size_t bytes;
    DL_OK_(dl_access(path, 0, DLB, v, true, true, 0, data, 8, DLB, &bytes));
    ck_assert(fimg_load(&df, path));
    ck_assert(res.status == 0 && res.count == 8 && bytes == 8);
    ck_assert_uint_eq(df.len, 12);
    ck_assert_uint_eq(rf.len, 12);
    ck_assert_mem_eq(df.b, want, 12);
    for (int i = 0; i < 12; i++)
      ck_assert_int_eq(rf.b[i], want[i] || cover ? want[i] : 0xff);
    fimg_free(&rf);
    fimg_free(&df);
  }
  /* with an 8-byte buffer (hint ind_wr_buffer_size) the later windows'
     holes get what the buffer held from the window before: bytes of the
     request itself, written where nothing was asked for */
  unsigned char d16[16];
  pattern(d16, sizeof(d16), 0x41);
  file_fill(path, 0, 0);
  romio_req q = {path, true, true, 0, d16, 16, build_hand, &h, NULL, 0,
                 "ind_wr_buffer_size", "8"};
  romio_res res = romio_io(&q);
  fimg rf = {0}, df = {0};
  ck_assert(fimg_load(&rf, path));
  file_fill(path, 0, 0);
  size_t bytes;
  DL_OK_(dl_access(path, 0, DLB, v, true, true, 0, d16, 16, DLB, &bytes));
  ck_assert(fimg_load(&df, path));
  static const unsigned char std16[24] = {
    0x41, 0x42, 0, 0, 0x43, 0x44, 0x45, 0x46, 0, 0, 0x47, 0x48,
    0x49, 0x4a, 0, 0, 0x4b, 0x4c, 0x4d, 0x4e, 0, 0, 0x4f, 0x50};
  static const unsigned char romio16[24] = {   /* windows at 0, 10, 18 */
    0x41, 0x42, 0xff, 0xff, 0x43, 0x44, 0x45, 0x46, 0, 0, 0x47, 0x48,
    0x49, 0x4a, 0x43, 0x44, 0x4b, 0x4c, 0x4d, 0x4e, 0x49, 0x4a, 0x4f, 0x50};
  ck_assert(res.status == 0 && res.count == 16 && bytes == 16);
  ck_assert(rf.len == 24 && df.len == 24);
  ck_assert_mem_eq(df.b, std16, 24);
  ck_assert_mem_eq(rf.b, romio16, 24);
  fimg_free(&rf);
  fimg_free(&df);
  dl_type_free(&v);
  unlink(path);
}
END_TEST

/* DEVIO_EOF_COUNT */
START_TEST(romio_dev_eof_count)
{
  /* documents a ROMIO deviation: the file holds 10 bytes; a read of 8
     bytes through vector(2, 2, 4, byte) (extent 6) finds bytes 0, 1, 4,
     5, 6, 7 and then the end of file. ROMIO reports 8 bytes read, dataloop
     6; the memory is the same (the last 2 bytes untouched). Likewise a
     contiguous view read into two vector(2, 2, 4, byte) from offset 4:
     ROMIO reports 8 bytes, 6 were there. */
  char path[256];
  test_path(path, sizeof(path), "eofcount");
  dl_type *v;
  DL_OK_(dl_type_vector(2, 2, 4, DLB, &v));
  dcommit(v);
  for (int memside = 0; memside < 2; memside++) {
    fimg f = {0};
    fimg_set(&f, "ABCDEFGHIJ", 10);
    ck_assert(fimg_store(&f, path));
    fimg_free(&f);
    hview h = {0, NULL, memside ? NULL : vec_0145_committed, memside ? vec_0145_committed : NULL};
    char rm[16], dm[16];
    memset(rm, '.', 16);
    memset(dm, '.', 16);
    int count = memside ? 2 : 8;
    MPI_Offset off = memside ? 4 : 0;
    for (int sieve = 0; sieve < 2; sieve++) {
      romio_res res = romio_read(path, &h, sieve, off, rm, count, rm, 16);
      size_t bytes;
      DL_OK_(dl_access(path, 0, DLB, memside ? DLB : v, false, sieve, off, dm, count,
                       memside ? v : DLB, &bytes));
      ck_assert_uint_eq(bytes, 6);
      ck_assert_msg(res.status == 0 && res.count == 8,
                    "ROMIO reports %lld bytes", res.count);
      ck_assert_mem_eq(dm, memside ? "EF..GHIJ........" : "ABEFGH..........", 16);
      if (!sieve)
        ck_assert_mem_eq(rm, dm, 16);
    }
  }
  dl_type_free(&v);
  unlink(path);
}
END_TEST

/* DEVIO_EOF_CLOBBER */
START_TEST(romio_dev_eof_clobber)
{
  /* documents a ROMIO deviation: the file holds 12 bytes; a sieved read
     of vector(2, 1, 2, double) memory (16 bytes) from a contiguous view
     copies all 16 bytes out of ROMIO's buffer, so the 4 bytes past the end
     of file overwrite memory (with whatever the buffer held); dataloop
     reads 12 and leaves the rest as it was */
  char path[256];
  test_path(path, sizeof(path), "eofclobber");
  file_fill(path, 12, 0x41);
  dl_type *v;
  DL_OK_(dl_type_vector(2, 1, 2, dl_builtin(DL_DOUBLE), &v));
  dcommit(v);
  hview h = {0, NULL, NULL, vec_2x1x2_double};
  unsigned char rm[32], dm[32];
  memset(rm, 0x5a, 32);
  memset(dm, 0x5a, 32);
  romio_res res = romio_read(path, &h, true, 0, rm, 1, rm, 32);
  size_t bytes;
  DL_OK_(dl_access(path, 0, DLB, DLB, false, true, 0, dm, 1, v, &bytes));
  ck_assert_uint_eq(bytes, 12);
  ck_assert(res.status == 0 && res.count == 16);
  for (int i = 0; i < 32; i++) {
    int want = i < 8 || (i >= 16 && i < 20) ? 0x41 : 0x5a;
    ck_assert_int_eq(dm[i], want);
    if (i < 20 || i >= 24)
      ck_assert_int_eq(rm[i], want);
  }
  ck_assert_msg(memcmp(rm + 20, dm + 20, 4) != 0, "ROMIO left memory past EOF alone");
  dl_type_free(&v);
  unlink(path);
}
END_TEST

static MPI_Datatype large_count_view(void)
{
  MPI_Datatype v, t;
  MPI_Type_vector_c(2, 1, 2, MPI_INT, &v);
  MPI_Type_create_hindexed_c(1, (MPI_Count[]){1}, (MPI_Count[]){8}, v, &t);
  MPI_Type_free(&v);
  return commit(t);
}

/* DEVIO_LARGE_COUNT */
START_TEST(romio_dev_large_count)
{
  /* documents a ROMIO defect: hindexed_c(1, {1}, {8}, vector_c(2, 1, 2,
     int)) is an ordinary filetype, but ROMIO flattens it with
     MPI_Type_get_envelope, which MPICH refuses for types built with the
     large-count constructors, and the process aborts. Built with the
     classic constructors, ROMIO writes it right. ROMIO on dataloop
     flattens it and writes it right, as filetype and as memory type,
     where MPI errors return (as here: ADIO_Set_view's
     MPI_Type_get_envelope still fails, and still gives the combiner);
     under MPI_ERRORS_ARE_FATAL that call aborts (doc/mpich.md). Stock
     ROMIO's process dies (status 3) or, in a sanitizer's build, may hang
     in its crash handlers until the child's alarm (status 2): either way
     it writes nothing. */
  char path[256];
  test_path(path, sizeof(path), "largecount");
  int32_t data[4] = {1, 2, 3, 4};
  dl_type *v, *t;
  DL_OK_(dl_type_vector(2, 1, 2, dl_builtin(DL_INT32), &v));
  DL_OK_(dl_type_hindexed(1, (dl_count[]){1}, (dl_aint[]){8}, v, &t));
  dcommit(t);
  file_fill(path, 0, 0);
  hview h = {0, NULL, large_count_view, NULL};
  romio_res res = romio_write(path, &h, false, 0, data, 16);
  fimg rf = {0}, df = {0};
  ck_assert(fimg_load(&rf, path));
  if (romio_on_dataloop())
    ck_assert_msg(res.status == 0 && res.count == 16, "status %d (%s)", res.status,
                  res.msg);
  else
    ck_assert_msg(res.status == 3 || res.status == 2, "ROMIO status %d (%s) " STOCK_HINT,
                  res.status, res.msg);
  file_fill(path, 0, 0);
  size_t bytes;
  DL_OK_(dl_access(path, 0, DLB, t, true, false, 0, data, 16, DLB, &bytes));
  ck_assert(fimg_load(&df, path));
  int32_t want[8] = {0, 0, 1, 0, 2, 3, 0, 4};   /* 8 + 12k and 16 + 12k */
  ck_assert_uint_eq(df.len, 32);
  ck_assert_mem_eq(df.b, want, 32);
  if (romio_on_dataloop())
    ck_assert(rf.len == 32 && memcmp(rf.b, want, 32) == 0);
  fimg_free(&df);
  fimg_free(&rf);
  /* the memory type: the ints at bytes 8 and 16 */
  int32_t mem[6] = {1, 2, 3, 4, 5, 6};
  hview hm = {0, NULL, NULL, large_count_view};
  file_fill(path, 0, 0);
  res = romio_write(path, &hm, false, 0, mem, 1);
  ck_assert(fimg_load(&rf, path));
  if (romio_on_dataloop()) {
    ck_assert_msg(res.status == 0 && res.count == 8, "status %d (%s)", res.status,
                  res.msg);
    ck_assert(rf.len == 8 && memcmp(rf.b, mem + 2, 4) == 0 &&
              memcmp(rf.b + 4, mem + 4, 4) == 0);
  } else {
    ck_assert_msg(res.status == 3 || res.status == 2, "ROMIO status %d (%s) " STOCK_HINT,
                  res.status, res.msg);
  }
  fimg_free(&rf);
  dl_type_free(&v);
  dl_type_free(&t);
  unlink(path);
}
END_TEST

/* ======================================================================
 * application views: ROMIO, dataloop (sieving on and off) and a hand
 * written loop must all give the same file, and read back the same data
 * ==================================================================== */

/* a view built by a function of parameters */
typedef struct pview {
  MPI_Offset disp;
  void (*build)(const void *p, MPI_Datatype *ft, MPI_Datatype *mt);
  const void *p;
} pview;

static void build_pview(const void *arg, mpi_view *mv)
{
  const pview *v = arg;
  mv->disp = v->disp;
  mv->et = MPI_BYTE;
  mv->ft = mv->mt = MPI_BYTE;
  v->build(v->p, &mv->ft, &mv->mt);
}

/* writes (buf, count) at offset through ROMIO and through dataloop, with
   and without sieving, each starting from init; all four files must equal
   want */
static void write_all_ways(const char *path, const fimg *init, const pview *pv,
                           const dl_type *ft, const dl_type *mt, int64_t off,
                           void *buf, int count, const fimg *want, const char *what)
{
  for (int eng = 0; eng < (UNDER_VALGRIND ? 2 : 4); eng++) {
    bool sieve = eng & 1, romio = eng & 2;
    ck_assert(fimg_store(init, path));
    if (romio) {
      romio_req q = {path, true, sieve, off, buf, count, build_pview, pv, NULL, 0,
                     NULL, NULL};
      romio_res res = romio_io(&q);
      ck_assert_msg(res.status == 0, "%s: ROMIO status %d (%s)", what, res.status,
                    res.msg);
    } else {
      size_t bytes;
      DL_OK_(dl_access(path, pv->disp, DLB, ft, true, sieve, off, buf, count, mt,
                       &bytes));
    }
    fimg got = {0};
    ck_assert(fimg_load(&got, path));
    /* ROMIO's sieving fills holes past the old end of file with junk
       (DEVIO_SIEVE_HOLES, romio_dev_sieve_holes); those bytes are the
       model's zeros that no access of this test writes */
    size_t at = 0;
    while (at < got.len && at < want->len &&
           (got.b[at] == want->b[at] ||
            (romio && sieve && at >= init->len && want->b[at] == 0)))
      at++;
    ck_assert_msg(got.len == want->len && at == want->len, "%s: %s (sieve %d) "
                  "differs at byte %zu (length %zu, want %zu)", what,
                  romio ? "ROMIO" : "dataloop", sieve, at, got.len, want->len);
    fimg_free(&got);
  }
}

/* reads (buf, count) at offset from the file at path through ROMIO and
   dataloop (sieving on and off) into copies of `mem`; all must equal want */
static void read_all_ways(const char *path, const pview *pv, const dl_type *ft,
                          const dl_type *mt, int64_t off, char *mem, size_t memlen,
                          size_t bufoff, int count, const char *want, size_t bytes_want,
                          const char *what)
{
  char *m = malloc(memlen);
  for (int eng = 0; eng < (UNDER_VALGRIND ? 2 : 4); eng++) {
    bool sieve = eng & 1, romio = eng & 2;
    memcpy(m, mem, memlen);
    if (romio) {
      romio_req q = {path, false, sieve, off, m + bufoff, count, build_pview, pv, m,
                     memlen, NULL, NULL};
      romio_res res = romio_io(&q);
      ck_assert_msg(res.status == 0 && res.count == (long long)bytes_want,
                    "%s: ROMIO read status %d, %lld bytes", what, res.status, res.count);
    } else {
      size_t bytes;
      DL_OK_(dl_access(path, pv->disp, DLB, ft, false, sieve, off, m + bufoff, count,
                       mt, &bytes));
      ck_assert_uint_eq(bytes, bytes_want);
    }
    ck_assert_msg(memcmp(m, want, memlen) == 0, "%s: %s read (sieve %d) differs", what,
                  romio ? "ROMIO" : "dataloop", sieve);
  }
  free(m);
}

static void random_img(fimg *f, size_t n, uint64_t s)
{
  char *b = malloc(n + 1);
  for (size_t i = 0; i < n; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    b[i] = (char)(s >> 56);
  }
  fimg_set(f, b, n);
  free(b);
}

/* ---- Flash I/O: 24 variables of 8^3 interior cells of nb blocks of 16^3
   cells with 4 guard cells per side, as in bench/synthetic.c ---- */
enum { FL_NB = 3, FL_SIDE = 16, FL_G = 4, FL_NX = 8, FL_NVAR = 24 };
#define FL_CELL (FL_NVAR * 8)
#define FL_CELLS ((size_t)FL_NB * FL_SIDE * FL_SIDE * FL_SIDE)
#define FL_INTERIOR ((size_t)((FL_G * FL_SIDE + FL_G) * FL_SIDE + FL_G) * FL_CELL)

/* one variable's interior cells (nvar 1) or all variables (nvar 24) */
static void flash_mpi(const void *p, MPI_Datatype *ft, MPI_Datatype *mt)
{
  int nvar = *(const int *)p;
  MPI_Datatype x, y, z, b, v;
  MPI_Type_create_hvector(FL_NX, 1, FL_CELL, MPI_DOUBLE, &x);
  MPI_Type_create_hvector(FL_NX, 1, FL_SIDE * FL_CELL, x, &y);
  MPI_Type_create_hvector(FL_NX, 1, FL_SIDE * FL_SIDE * FL_CELL, y, &z);
  MPI_Type_create_hvector(FL_NB, 1, FL_SIDE * FL_SIDE * FL_SIDE * FL_CELL, z, &b);
  if (nvar > 1) {
    MPI_Type_create_hvector(nvar, 1, 8, b, &v);
    *mt = commit(v);                 /* memory type: all variables */
  } else {
    /* file type: one variable's cells from the start of the interior,
       resized to the whole array so copies would tile */
    MPI_Datatype h;
    MPI_Type_create_hindexed(1, (int[]){1}, (MPI_Aint[]){FL_INTERIOR}, b, &h);
    MPI_Type_create_resized(h, 0, FL_CELLS * FL_CELL, &v);
    MPI_Type_free(&h);
    *ft = commit(v);
  }
  MPI_Type_free(&x);
  MPI_Type_free(&y);
  MPI_Type_free(&z);
  MPI_Type_free(&b);
}

static dl_type *flash_dl(int nvar)
{
  dl_type *x, *y, *z, *b, *v;
  DL_OK_(dl_type_hvector(FL_NX, 1, FL_CELL, dl_builtin(DL_DOUBLE), &x));
  DL_OK_(dl_type_hvector(FL_NX, 1, FL_SIDE * FL_CELL, x, &y));
  DL_OK_(dl_type_hvector(FL_NX, 1, FL_SIDE * FL_SIDE * FL_CELL, y, &z));
  DL_OK_(dl_type_hvector(FL_NB, 1, FL_SIDE * FL_SIDE * FL_SIDE * FL_CELL, z, &b));
  if (nvar > 1) {
    DL_OK_(dl_type_hvector(nvar, 1, 8, b, &v));
  } else {
    dl_type *h;
    DL_OK_(dl_type_hindexed(1, (dl_count[]){1}, (dl_aint[]){FL_INTERIOR}, b, &h));
    DL_OK_(dl_type_resized(h, 0, FL_CELLS * FL_CELL, &v));
    dl_type_free(&h);
  }
  dl_type *ts[4] = {x, y, z, b};
  for (int i = 0; i < 4; i++)
    dl_type_free(&ts[i]);
  return dcommit(v);
}

/* byte offset, in the cell array, of variable v of interior cell i of the
   packed order of one variable */
static size_t flash_at(size_t i, int v)
{
  size_t x = i % FL_NX, y = i / FL_NX % FL_NX, z = i / (FL_NX * FL_NX) % FL_NX;
  size_t blk = i / (FL_NX * FL_NX * FL_NX);
  size_t cell = ((blk * FL_SIDE + z + FL_G) * FL_SIDE + y + FL_G) * FL_SIDE + x + FL_G;
  return cell * FL_CELL + (size_t)v * 8;
}

START_TEST(flash_vs_romio)
{
  char path[256];
  test_path(path, sizeof(path), "flash");
  size_t memlen = FL_CELLS * FL_CELL, per = (size_t)FL_NB * FL_NX * FL_NX * FL_NX * 8;
  char *mem = malloc(memlen), *packed = malloc(per * FL_NVAR);
  pattern(mem, memlen, 3);
  for (int v = 0; v < FL_NVAR; v++)
    for (size_t i = 0; i < per / 8; i++)
      memcpy(packed + v * per + i * 8, mem + flash_at(i, v), 8);
  /* 1. the Flash type as the memory type, written contiguously at byte 100
     of an existing file */
  int all = FL_NVAR, one = 1;
  dl_type *dmem = flash_dl(FL_NVAR), *dvar = flash_dl(1);
  pview pv = {0, flash_mpi, &all};
  fimg init = {0}, want = {0};
  random_img(&init, 300, 7);
  fimg_set(&want, init.b, init.len);
  vmodel wv = {&(mrun){0, 1, 0}, 1, 1, 1, 1, 0};     /* a byte view */
  vmodel_write(&wv, 100, packed, per * FL_NVAR, &want);
  write_all_ways(path, &init, &pv, DLB, dmem, 100, mem + FL_INTERIOR, 1, &want,
                 "Flash memory type");
  /* read it back into a cleared array: the interior cells come back */
  ck_assert(fimg_store(&want, path));
  char *zero = calloc(memlen, 1), *back = calloc(memlen, 1);
  for (int v = 0; v < FL_NVAR; v++)
    for (size_t i = 0; i < per / 8; i++)
      memcpy(back + flash_at(i, v), mem + flash_at(i, v), 8);
  read_all_ways(path, &pv, DLB, dmem, 100, zero, memlen, FL_INTERIOR, 1, back,
                per * FL_NVAR, "Flash memory type read");
  /* 2. the checkpoint as file views: variable v of every interior cell
     from contiguous memory, the view one variable's cells at disp 8v
     (the whole Flash type, variables outermost, has decreasing
     displacements, which MPI-IO forbids for filetypes) */
  fimg_free(&init);
  random_img(&init, memlen, 9);
  fimg_set(&want, init.b, init.len);
  for (int v = 0; v < FL_NVAR; v++)
    for (size_t i = 0; i < per / 8; i++)
      memcpy(want.b + flash_at(i, v), packed + v * per + i * 8, 8);
  fimg cur = {0};
  fimg_set(&cur, init.b, init.len);
  for (int v = 0; v < FL_NVAR; v += 7) {
    pview fv = {8 * v, flash_mpi, &one};
    fimg step = {0};
    fimg_set(&step, cur.b, cur.len);
    for (size_t i = 0; i < per / 8; i++)
      memcpy(step.b + flash_at(i, v), packed + v * per + i * 8, 8);
    write_all_ways(path, &cur, &fv, dvar, DLB, 0, packed + v * per, (int)per, &step,
                   "Flash file view");
    fimg_set(&cur, step.b, step.len);
    fimg_free(&step);
  }
  fimg_free(&cur);
  free(zero);
  free(back);
  free(mem);
  free(packed);
  fimg_free(&init);
  fimg_free(&want);
  dl_type_free(&dmem);
  dl_type_free(&dvar);
  unlink(path);
}
END_TEST

/* ---- 3D subarrays of a 24 x 20 x 16 array of doubles ---- */
typedef struct sub3 {
  int order;
  int sizes[3], subs[3], starts[3];
  bool ghost_mem;        /* memory: the subarray inside a ghosted block */
} sub3;

static void sub3_mpi(const void *p, MPI_Datatype *ft, MPI_Datatype *mt)
{
  const sub3 *s = p;
  MPI_Datatype f, m;
  MPI_Type_create_subarray(3, s->sizes, s->subs, s->starts,
                           s->order ? MPI_ORDER_FORTRAN : MPI_ORDER_C, MPI_DOUBLE, &f);
  *ft = commit(f);
  if (s->ghost_mem) {
    int gs[3], st[3] = {2, 2, 2};
    for (int i = 0; i < 3; i++)
      gs[i] = s->subs[i] + 4;
    MPI_Type_create_subarray(3, gs, s->subs, st, s->order ? MPI_ORDER_FORTRAN : MPI_ORDER_C,
                             MPI_DOUBLE, &m);
    *mt = commit(m);
  } else {
    *mt = MPI_DOUBLE;
  }
}

/* linear index in an array of sizes (C or Fortran order) */
static size_t lin(const int *sz, int i, int j, int k, int order)
{
  return order ? ((size_t)k * sz[1] + j) * sz[0] + i : ((size_t)i * sz[1] + j) * sz[2] + k;
}

START_TEST(subarray3d_vs_romio)
{
  char path[256];
  test_path(path, sizeof(path), "sub3d");
  static const sub3 cases[] = {
    {0, {24, 20, 16}, {10, 7, 9}, {3, 5, 2}, false},
    {1, {24, 20, 16}, {10, 7, 9}, {3, 5, 2}, false},
    {0, {24, 20, 16}, {24, 20, 3}, {0, 0, 13}, false},   /* dense rows */
    {0, {24, 20, 16}, {6, 20, 16}, {9, 0, 0}, true},     /* contiguous slab */
    {1, {24, 20, 16}, {5, 4, 11}, {0, 16, 5}, true},
  };
  for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
    const sub3 *s = &cases[t];
    dl_count sz[3], sb[3], st[3];
    for (int i = 0; i < 3; i++) {
      sz[i] = s->sizes[i];
      sb[i] = s->subs[i];
      st[i] = s->starts[i];
    }
    dl_type *ft, *mt = dl_builtin(DL_DOUBLE);
    DL_OK_(dl_type_subarray(3, sz, sb, st, s->order, dl_builtin(DL_DOUBLE), &ft));
    dcommit(ft);
    int gs[3];
    for (int i = 0; i < 3; i++)
      gs[i] = s->subs[i] + 4;
    size_t n = (size_t)s->subs[0] * s->subs[1] * s->subs[2];
    size_t memn = s->ghost_mem ? (size_t)gs[0] * gs[1] * gs[2] : n;
    double *mem = malloc(memn * 8);
    for (size_t i = 0; i < memn; i++)
      mem[i] = (double)i + 0.5;
    if (s->ghost_mem) {
      dl_count g[3] = {gs[0], gs[1], gs[2]}, two[3] = {2, 2, 2};
      DL_OK_(dl_type_subarray(3, g, sb, two, s->order, dl_builtin(DL_DOUBLE), &mt));
      dcommit(mt);
    }
    size_t total = (size_t)s->sizes[0] * s->sizes[1] * s->sizes[2] * 8;
    fimg init = {0}, want = {0};
    random_img(&init, total, t + 1);
    fimg_set(&want, init.b, init.len);
    size_t k = 0;
    /* the subarray's elements in the array's own order */
    for (int a = 0; a < (s->order ? s->subs[2] : s->subs[0]); a++)
      for (int b = 0; b < s->subs[1]; b++)
        for (int c = 0; c < (s->order ? s->subs[0] : s->subs[2]); c++, k++) {
          int i = s->order ? c : a, j = b, l = s->order ? a : c;
          size_t at = lin(s->sizes, i + s->starts[0], j + s->starts[1],
                          l + s->starts[2], s->order);
          size_t from = s->ghost_mem ? lin(gs, i + 2, j + 2, l + 2, s->order) : k;
          memcpy(want.b + at * 8, &mem[from], 8);
        }
    pview pv = {0, sub3_mpi, s};
    int count = s->ghost_mem ? 1 : (int)n;
    write_all_ways(path, &init, &pv, ft, mt, 0, mem, count, &want, "3D subarray");
    /* read back into cleared memory */
    ck_assert(fimg_store(&want, path));
    char *zero = calloc(memn, 8), *exp = calloc(memn, 8);
    k = 0;
    for (int a = 0; a < (s->order ? s->subs[2] : s->subs[0]); a++)
      for (int b = 0; b < s->subs[1]; b++)
        for (int c = 0; c < (s->order ? s->subs[0] : s->subs[2]); c++, k++) {
          int i = s->order ? c : a, j = b, l = s->order ? a : c;
          size_t from = s->ghost_mem ? lin(gs, i + 2, j + 2, l + 2, s->order) : k;
          memcpy(exp + from * 8, &mem[from], 8);
        }
    read_all_ways(path, &pv, ft, mt, 0, zero, memn * 8, 0, count, exp, n * 8,
                  "3D subarray read");
    free(zero);
    free(exp);
    free(mem);
    fimg_free(&init);
    fimg_free(&want);
    dl_type_free(&ft);
    if (s->ghost_mem)
      dl_type_free(&mt);
  }
  unlink(path);
}
END_TEST

/* ---- darray views on a 2 x 2 process grid: 20 x 18 ints ---- */
typedef struct dar {
  int rank, dist[2], darg[2], order;
} dar;

static void dar_mpi(const void *p, MPI_Datatype *ft, MPI_Datatype *mt)
{
  const dar *d = p;
  static const int gs[2] = {20, 18}, ps[2] = {2, 2};
  int dist[2], darg[2];
  for (int i = 0; i < 2; i++) {
    dist[i] = d->dist[i] == DL_DISTRIBUTE_BLOCK ? MPI_DISTRIBUTE_BLOCK
                                                : MPI_DISTRIBUTE_CYCLIC;
    darg[i] = d->darg[i] == DL_DISTRIBUTE_DFLT_DARG ? MPI_DISTRIBUTE_DFLT_DARG
                                                    : d->darg[i];
  }
  MPI_Datatype t;
  MPI_Type_create_darray(4, d->rank, 2, gs, dist, darg, ps,
                         d->order ? MPI_ORDER_FORTRAN : MPI_ORDER_C, MPI_INT, &t);
  *ft = commit(t);
  *mt = MPI_INT;
}

START_TEST(darray_vs_romio)
{
  /* each rank's view written by this process in turn: together the four
     fill the file with the global array, element e holding e */
  char path[256];
  test_path(path, sizeof(path), "darray");
  static const dar kinds[] = {
    {0, {DL_DISTRIBUTE_BLOCK, DL_DISTRIBUTE_BLOCK}, {-1, -1}, 0},
    {0, {DL_DISTRIBUTE_CYCLIC, DL_DISTRIBUTE_BLOCK}, {2, -1}, 0},
    {0, {DL_DISTRIBUTE_CYCLIC, DL_DISTRIBUTE_CYCLIC}, {3, 1}, 1},
  };
  for (size_t t = 0; t < sizeof(kinds) / sizeof(kinds[0]); t++) {
    fimg cur = {0}, want = {0};
    fimg_set(&cur, "", 0);
    int32_t global[20 * 18];
    for (int e = 0; e < 20 * 18; e++)
      global[e] = e;
    for (int rank = 0; rank < 4; rank++) {
      dar d = kinds[t];
      d.rank = rank;
      dl_type *ft;
      DL_OK_(dl_type_darray(4, rank, 2, (dl_count[]){20, 18}, d.dist, d.darg,
                            (int[]){2, 2}, d.order, dl_builtin(DL_INT32), &ft));
      dcommit(ft);
      /* the rank's elements, in the darray's order, from the global array
         by the type itself (dl_pack): the model checks dl_pack elsewhere */
      dl_count n;
      DL_OK_(dl_type_size(ft, &n));
      int32_t *local = malloc((size_t)n + 4);
      size_t pos = 0;
      DL_OK_(dl_pack(global, 1, ft, local, (size_t)n, &pos));
      fimg_set(&want, cur.b, cur.len);
      /* file = global array image; this rank's elements land where they are
         in the global array */
      size_t end = 0;
      dl_segment *sg;
      DL_OK_(dl_segment_create(NULL, 1, ft, &sg));
      int64_t offs[512], lens[512];
      size_t last = (size_t)n, nn;
      DL_OK_(dl_segment_offlen(sg, 0, &last, offs, lens, 512, &nn));
      ck_assert_uint_eq(last, (size_t)n);
      dl_segment_free(&sg);
      for (size_t i = 0; i < nn; i++)
        if ((size_t)(offs[i] + lens[i]) > end)
          end = (size_t)(offs[i] + lens[i]);
      if (end > want.len) {
        char *z = calloc(end, 1);
        memcpy(z, want.b, want.len);
        fimg_set(&want, z, end);
        free(z);
      }
      for (size_t i = 0; i < nn; i++)
        memcpy(want.b + offs[i], (char *)global + offs[i], (size_t)lens[i]);
      pview pv = {0, dar_mpi, &d};
      write_all_ways(path, &cur, &pv, ft, dl_builtin(DL_INT32), 0, local,
                     (int)(n / 4), &want, "darray");
      fimg_set(&cur, want.b, want.len);
      free(local);
      dl_type_free(&ft);
    }
    ck_assert_uint_eq(cur.len, sizeof(global));
    ck_assert_mem_eq(cur.b, global, sizeof(global));
    /* and each rank reads its part back */
    ck_assert(fimg_store(&cur, path));
    for (int rank = 0; rank < 4; rank++) {
      dar d = kinds[t];
      d.rank = rank;
      dl_type *ft;
      DL_OK_(dl_type_darray(4, rank, 2, (dl_count[]){20, 18}, d.dist, d.darg,
                            (int[]){2, 2}, d.order, dl_builtin(DL_INT32), &ft));
      dcommit(ft);
      dl_count n;
      DL_OK_(dl_type_size(ft, &n));
      char *zero = calloc((size_t)n, 1), *exp = malloc((size_t)n);
      size_t pos = 0;
      DL_OK_(dl_pack(global, 1, ft, exp, (size_t)n, &pos));
      pview pv = {0, dar_mpi, &d};
      read_all_ways(path, &pv, ft, dl_builtin(DL_INT32), 0, zero, (size_t)n, 0,
                    (int)(n / 4), exp, (size_t)n, "darray read");
      free(zero);
      free(exp);
      dl_type_free(&ft);
    }
    fimg_free(&cur);
    fimg_free(&want);
  }
  unlink(path);
}
END_TEST

/* ---- an indexed view with holes ---- */
static void holes_mpi(const void *p, MPI_Datatype *ft, MPI_Datatype *mt)
{
  int memvec = *(const int *)p;
  MPI_Datatype h, r, v;
  MPI_Type_create_hindexed(5, (int[]){3, 1, 4, 1, 5}, (MPI_Aint[]){0, 40, 72, 128, 160},
                           MPI_DOUBLE, &h);
  MPI_Type_create_resized(h, 0, 256, &r);
  MPI_Type_free(&h);
  *ft = commit(r);
  if (memvec) {
    MPI_Type_vector(7, 2, 3, MPI_DOUBLE, &v);
    *mt = commit(v);
  } else {
    *mt = MPI_DOUBLE;
  }
}

START_TEST(indexed_holes_vs_romio)
{
  char path[256];
  test_path(path, sizeof(path), "holes");
  dl_type *h, *ft, *vec;
  DL_OK_(dl_type_hindexed(5, (dl_count[]){3, 1, 4, 1, 5},
                          (dl_aint[]){0, 40, 72, 128, 160}, dl_builtin(DL_DOUBLE), &h));
  DL_OK_(dl_type_resized(h, 0, 256, &ft));
  dcommit(ft);
  DL_OK_(dl_type_vector(7, 2, 3, dl_builtin(DL_DOUBLE), &vec));
  dcommit(vec);
  static const mrun runs[] = {{0, 24, 0}, {40, 8, 0}, {72, 32, 0}, {128, 8, 0}, {160, 40, 0}};
  double mem[7 * 3 * 3];
  for (int i = 0; i < 63; i++)
    mem[i] = i * 1.25;
  for (int memvec = 0; memvec < 2; memvec++)
    for (int64_t off = 0; off < 40; off += 13) {
      for (int covered = 0; covered < 2; covered++) {
        int count = memvec ? 3 : 42;
        fimg init = {0}, want = {0};
        random_img(&init, covered ? 2600 : 100, (uint64_t)off + 3);
        fimg_set(&want, init.b, init.len);
        mrun vr[3 * 7];
        size_t nv = 0;
        for (int c = 0; c < count && memvec; c++)
          for (int b = 0; b < 7; b++)
            vr[nv++] = (mrun){(c * 20 + b * 3) * 8, 16, 0};
        char packed[42 * 8];
        if (memvec)
          model_pack(vr, nv, (char *)mem, packed);
        else
          memcpy(packed, mem, sizeof(packed));
        vmodel vm = {runs, 5, 112, 1, 256, 24};     /* etype: byte */
        vmodel_write(&vm, off, packed, 42 * 8, &want);
        pview pv = {24, holes_mpi, &memvec};
        write_all_ways(path, &init, &pv, ft, memvec ? vec : dl_builtin(DL_DOUBLE), off,
                       mem, count, &want, covered ? "indexed view" : "indexed view, new file");
        fimg_free(&init);
        fimg_free(&want);
      }
    }
  dl_type_free(&h);
  dl_type_free(&ft);
  dl_type_free(&vec);
  unlink(path);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  fprintf(stderr, "ROMIO under test flattens with %s (DL_TEST_ROMIO_FLATTEN)\n",
          romio_on_dataloop() ? "dataloop" : "its own code");
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
    return EXIT_FAILURE;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, random_vs_romio);
  tcase_add_test(tc, flash_vs_romio);
  tcase_add_test(tc, subarray3d_vs_romio);
  tcase_add_test(tc, darray_vs_romio);
  tcase_add_test(tc, indexed_holes_vs_romio);
  if (!UNDER_VALGRIND) {           /* they are about ROMIO's answers */
    tcase_add_test(tc, romio_dev_lb_shift);
    tcase_add_test(tc, romio_dev_markers);
    tcase_add_test(tc, romio_dev_zero_block);
    tcase_add_test(tc, romio_dev_contig_lb);
    tcase_add_test(tc, romio_dev_sieve_holes);
    tcase_add_test(tc, romio_dev_eof_count);
    tcase_add_test(tc, romio_dev_eof_clobber);
    tcase_add_test(tc, romio_dev_large_count);
  }
  int rc = test_run("romio", tc, false);
  MPI_Finalize();
  return rc;
}
