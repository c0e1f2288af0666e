/* Noncontiguous file I/O against the model of the standard's semantics
 * (io_model.h): random views, memory types and starting files, with the
 * batch limits and sieving varied; then every rule of the contract by
 * hand: EOF, errors, short transfers, EINTR, locks. No MPI here; ROMIO is
 * compared in test_io_romio.c. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "io.h"
#include "../dataloop/env.h"
#include "io_case.h"
#include "runner.h"

static uint64_t seed;
static const char *self;       /* argv[0], to run this program again */

#define DL_OK_(call) ck_assert_int_eq((call), DL_OK)
#define BYTE dl_builtin(DL_BYTE)
#define INT32 dl_builtin(DL_INT32)

static dl_type *dcommit(dl_type *t)
{
  DL_OK_(dl_type_commit(t));
  return t;
}

/* a file of n bytes: i * 7 + base */
static int make_file(const char *path, size_t n, int base, int flags)
{
  int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
  ck_assert_int_ge(fd, 0);
  for (size_t i = 0; i < n; i++) {
    unsigned char b = (unsigned char)(i * 7 + (size_t)base);
    ck_assert_int_eq(pwrite(fd, &b, 1, (off_t)i), 1);
  }
  close(fd);
  fd = open(path, flags);
  ck_assert_int_ge(fd, 0);
  return fd;
}

static void no_sieve(dl_file_view *v)
{
  dli_io_limits l = v->lim;
  l.sieve_read = l.sieve_write = 0;
  DL_OK_(dli_file_view_set_limits(v, &l));
}

/* sieve everything that can be sieved */
static void all_sieve(dl_file_view *v)
{
  dli_io_limits l = v->lim;
  l.gap_read = l.gap_write = l.piece_max = 1 << 20;
  DL_OK_(dli_file_view_set_limits(v, &l));
}

#define CASE_FMT "seed %llu, it %d: %s"
#define CASE_ARGS(c) (unsigned long long)seed, it, (c)->desc

/* random limits: tiny lists and buffers force many batches and windows */
static void random_limits(rng *r, dl_file_view *v, char *note, size_t nsize)
{
  dli_io_limits l = *dli_io_defaults();
  int kind = (int)rng_range(r, 0, 3);
  if (kind == 0) {
    l.list_max = (size_t)rng_range(r, 1, 4);
    l.iov_max = (size_t)rng_range(r, 1, 4);
    l.sys_iov_max = (size_t)rng_range(r, 1, 4);
    l.stage = (size_t)rng_range(r, 1, 64);
    l.sieve_read = rng_range(r, 0, 3) ? (size_t)rng_range(r, 1, 256) : 0;
    l.sieve_write = rng_range(r, 0, 3) ? (size_t)rng_range(r, 1, 256) : 0;
    l.gap_read = (size_t)rng_range(r, 0, 64);
    l.gap_write = (size_t)rng_range(r, 0, 64);
    l.piece_max = (size_t)rng_range(r, 1, 64);
    l.mem_piece_min = (size_t)rng_range(r, 0, 64);
  } else if (kind == 1) {
    l.sieve_read = l.sieve_write = 0;
  } else if (kind == 2) {
    l.gap_read = l.gap_write = 1 << 20;   /* sieve everything sieveable */
    l.piece_max = 1 << 20;
  }
  ck_assert_int_eq(dli_file_view_set_limits(v, &l), DL_OK);
  snprintf(note, nsize, "limits: list %zu iov %zu sys %zu stage %zu sieve %zu/%zu "
           "gap %zu/%zu piece %zu mem %zu", l.list_max, l.iov_max, l.sys_iov_max, l.stage,
           l.sieve_read, l.sieve_write, l.gap_read, l.gap_write, l.piece_max, l.mem_piece_min);
}

static bool same_file(const fimg *a, const fimg *b, size_t *at)
{
  size_t n = a->len < b->len ? a->len : b->len;
  for (size_t i = 0; i < n; i++)
    if (a->b[i] != b->b[i]) {
      *at = i;
      return false;
    }
  *at = n;
  return a->len == b->len;
}

START_TEST(random_vs_model)
{
  rng r = {seed ^ 0x696f};
  int n = test_scaled(1500);
  char path[256], note[256];
  test_path(path, sizeof(path), "random");
  for (int it = 0; it < n; it++) {
    iocase c;
    ck_assert_msg(iocase_new(&r, &c, true) == 0, "seed %llu: building a type failed",
                  (unsigned long long)seed);
    ck_assert(fimg_store(&c.init, path));
    int fd = open(path, O_RDWR);
    ck_assert_int_ge(fd, 0);
    dl_file_view *v;
    ck_assert_int_eq(dl_file_view_create(fd, c.disp, c.etype, c.ft.t, &v), DL_OK);
    random_limits(&r, v, note, sizeof(note));
    /* write */
    char *src = malloc(c.n + 1);
    model_pack(c.mruns, c.nmruns, c.mem.origin, src);
    size_t bytes = 12345;
    int rc = dl_file_write_at(v, c.offset, c.mem.origin, c.count, c.mt.t, &bytes);
    /* MPI-IO: a filetype whose bytes repeat is for reading only, and
       accesses are of whole etypes */
    bool whole = c.n % (size_t)c.esize == 0;
    int want_rc = c.overlap || !whole ? DL_ERR_ARG : DL_OK;
    size_t want_bytes = want_rc ? 0 : c.n;
    ck_assert_msg(rc == want_rc && bytes == want_bytes, "write rc %d bytes %zu of %zu: "
                  "%s; " CASE_FMT, rc, bytes, c.n, note, CASE_ARGS(&c));
    fimg want = {0}, got = {0};
    fimg_set(&want, c.init.b, c.init.len);
    if (!want_rc)
      vmodel_write(&c.vm, c.offset, src, c.n, &want);
    ck_assert(fimg_load(&got, path));
    size_t at;
    ck_assert_msg(same_file(&want, &got, &at), "file differs at %zu (lengths %zu, "
                  "%zu): %s; " CASE_FMT, at, want.len, got.len, note, CASE_ARGS(&c));
    /* read back somewhere near, possibly past the end of file */
    int64_t roff = c.offset + rng_range(&r, -2, 2) * (rng_range(&r, 0, 1) ? 1 : 7);
    if (roff < 0)
      roff = 0;
    tbuf dst = c.mem, exp = c.mem;
    dst.mem = malloc(c.mem.len + 1);
    exp.mem = malloc(c.mem.len + 1);
    dst.origin = dst.mem + (c.mem.origin - c.mem.mem);
    exp.origin = exp.mem + (c.mem.origin - c.mem.mem);
    uint64_t fill = rng_next(&r);
    tbuf_fill(&dst, fill);
    tbuf_fill(&exp, fill);
    size_t g = whole ? vmodel_read(&c.vm, roff, src, c.n, &want) : 0;
    model_unpack_n(c.mruns, c.nmruns, exp.origin, src, g);
    bytes = 12345;
    rc = dl_file_read_at(v, roff, dst.origin, c.count, c.mt.t, &bytes);
    ck_assert_msg(rc == (whole ? DL_OK : DL_ERR_ARG) && bytes == g, "read at %lld: rc %d bytes %zu, model "
                  "%zu: %s; " CASE_FMT, (long long)roff, rc, bytes, g, note, CASE_ARGS(&c));
    ck_assert_msg(memcmp(dst.mem, exp.mem, c.mem.len) == 0, "read at %lld: memory "
                  "differs: %s; " CASE_FMT, (long long)roff, note, CASE_ARGS(&c));
    free(dst.mem);
    free(exp.mem);
    free(src);
    fimg_free(&want);
    fimg_free(&got);
    dl_file_view_free(&v);
    ck_assert_ptr_null(v);
    close(fd);
    iocase_free(&c);
  }
  unlink(path);
}
END_TEST

/* dl_file_view_create accepts exactly the filetypes MPI-IO allows */
START_TEST(view_rules_vs_model)
{
  rng r = {seed ^ 0x6f72646572};
  int n = test_scaled(3000);
  long ordered = 0, overlapping = 0;
  for (int it = 0; it < n; it++) {
    rtype t;
    ck_assert(iocase_filetype(&r, &t) == 0);
    bool overlap, ok = vmodel_ordered(t.m, &overlap);
    dl_file_view *v = (dl_file_view *)&t;
    int rc = dl_file_view_create(0, 0, dl_builtin(DL_BYTE), t.t, &v);
    ck_assert_msg(rc == (ok ? DL_OK : DL_ERR_ARG), "seed %llu, it %d: view of %s: "
                  "%s, model says %s", (unsigned long long)seed, it, t.desc,
                  dl_strerror(rc), ok ? "ordered" : "not ordered");
    ck_assert(ok || v == NULL);
    if (ok) {
      char b = 0;
      size_t bytes = 1;
      /* a write through repeating bytes is refused before touching fd 0 */
      rc = dl_file_write_at(v, 0, &b, overlap ? 1 : 0, dl_builtin(DL_BYTE), &bytes);
      ck_assert_msg(rc == (overlap ? DL_ERR_ARG : DL_OK) && bytes == 0,
                    "seed %llu, it %d: write through %s: %s",
                    (unsigned long long)seed, it, t.desc, dl_strerror(rc));
      ordered++;
      overlapping += overlap;
    }
    dl_file_view_free(&v);
    rtype_free(&t);
  }
  fprintf(stderr, "view_rules_vs_model: %d filetypes, %ld in MPI-IO order (%ld "
          "overlapping)\n", n, ordered, overlapping);
}
END_TEST


START_TEST(view_errors)
{
  char path[256];
  test_path(path, sizeof(path), "viewerr");
  int fd = make_file(path, 0, 0, O_RDWR);
  dl_file_view *v = (dl_file_view *)&fd;
  dl_type *vec, *unc, *empty, *neg, *zext, *nonmono, *overlap, *i3;
  DL_OK_(dl_type_vector(3, 1, 2, INT32, &vec));
  DL_OK_(dl_type_vector(3, 1, 2, INT32, &unc));         /* never committed */
  DL_OK_(dl_type_contiguous(0, INT32, &empty));
  DL_OK_(dl_type_hindexed(1, (dl_count[]){1}, (dl_aint[]){-4}, INT32, &neg));
  DL_OK_(dl_type_resized(INT32, 0, 0, &zext));
  DL_OK_(dl_type_hindexed(2, (dl_count[]){1, 1}, (dl_aint[]){8, 0}, INT32, &nonmono));
  DL_OK_(dl_type_hindexed(2, (dl_count[]){1, 1}, (dl_aint[]){0, 2}, INT32, &overlap));
  DL_OK_(dl_type_contiguous(3, BYTE, &i3));
  dl_type *ts[] = {vec, empty, neg, zext, nonmono, overlap, i3};
  for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
    dcommit(ts[i]);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, vec, NULL), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(-1, 0, BYTE, vec, &v), DL_ERR_ARG);
  ck_assert_ptr_null(v);
  ck_assert_int_eq(dl_file_view_create(fd, -1, BYTE, vec, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, NULL, vec, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, NULL, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, (dl_type *)&fd, vec, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, unc, vec, &v), DL_ERR_NOT_COMMITTED);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, unc, &v), DL_ERR_NOT_COMMITTED);
  /* MPI-IO's rules: an etype with data, a filetype of whole etypes with
     data, non-negative and nondecreasing displacements, positive extent */
  ck_assert_int_eq(dl_file_view_create(fd, 0, empty, vec, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, empty, &v), DL_ERR_ARG);
  DL_OK_(dl_file_view_create(fd, 0, i3, vec, &v));          /* 12 % 3 == 0 */
  dl_file_view_free(&v);
  ck_assert_int_eq(dl_file_view_create(fd, 0, dl_builtin(DL_DOUBLE), vec, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, neg, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, zext, &v), DL_ERR_ARG);
  ck_assert_int_eq(dl_file_view_create(fd, 0, BYTE, nonmono, &v), DL_ERR_ARG);
  ck_assert_ptr_null(v);
  /* repeated bytes: a view for reading only */
  DL_OK_(dl_file_view_create(fd, 0, BYTE, overlap, &v));
  int32_t d[2] = {1, 2};
  size_t bytes = 99;
  ck_assert_int_eq(dl_file_write_at(v, 0, d, 2, INT32, &bytes), DL_ERR_ARG);
  ck_assert_uint_eq(bytes, 0);
  DL_OK_(dl_file_read_at(v, 0, d, 2, INT32, &bytes));
  ck_assert_uint_eq(bytes, 0);                     /* empty file: EOF at once */
  dl_file_view_free(&v);
  ck_assert_ptr_null(v);
  /* one 32-byte run, whether the tree holds it whole or as two adjacent
     blocks, with extent 8: the next copy starts inside it (overlap), not
     before its start (no decrease); once a regression (seed 1795317367) */
  dl_type *negext, *split, *whole, *split8, *whole8;
  DL_OK_(dl_type_resized(dl_builtin(DL_LONG_DOUBLE), 0, -8, &negext));
  DL_OK_(dl_type_vector(2, 1, -2, negext, &split));
  DL_OK_(dl_type_contiguous(32, BYTE, &whole));
  DL_OK_(dl_type_resized(whole, 0, 8, &whole8));
  DL_OK_(dl_type_resized(split, 0, 8, &split8));
  dl_type *runs[] = {split, whole8, split8};
  for (size_t i = 0; i < 3; i++) {
    dcommit(runs[i]);
    DL_OK_(dl_file_view_create(fd, 0, BYTE, runs[i], &v));
    ck_assert_int_eq(dl_file_write_at(v, 0, d, 1, BYTE, &bytes), DL_ERR_ARG);
    dl_file_view_free(&v);
  }
  dl_type *runs_free[] = {negext, split, whole, whole8, split8};
  for (size_t i = 0; i < 5; i++)
    dl_type_free(&runs_free[i]);
  dl_file_view_free(&v);                           /* NULL: nothing */
  dl_file_view_free(NULL);
  /* the view holds its own references */
  DL_OK_(dl_file_view_create(fd, 4, i3, i3, &v));
  dl_type_free(&i3);
  dl_type *three;
  DL_OK_(dl_type_contiguous(3, BYTE, &three));
  dcommit(three);
  DL_OK_(dl_file_write_at(v, 1, "abcdef", 2, three, &bytes));
  ck_assert_uint_eq(bytes, 6);
  char back[16] = {0};
  ck_assert_int_eq(pread(fd, back, sizeof(back), 0), 13);
  ck_assert_mem_eq(back, "\0\0\0\0\0\0\0abcdef", 13);
  dl_file_view_free(&v);
  dl_type_free(&three);
  dl_type *rest[] = {vec, unc, empty, neg, zext, nonmono, overlap};
  for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
    dl_type_free(&rest[i]);
  close(fd);
  unlink(path);
}
END_TEST

START_TEST(rw_errors)
{
  /* bad arguments: DL_ERR_ARG (or the type's own code), nothing touched,
     *bytes 0 */
  char path[256];
  test_path(path, sizeof(path), "rwerr");
  int fd = make_file(path, 64, 1, O_RDWR);
  dl_type *vec, *unc, *big;
  DL_OK_(dl_type_vector(4, 1, 2, INT32, &vec));
  DL_OK_(dl_type_vector(4, 1, 2, INT32, &unc));
  DL_OK_(dl_type_contiguous(INT64_MAX / 8, BYTE, &big));
  dcommit(vec);
  dcommit(big);
  dl_file_view *v;
  DL_OK_(dl_file_view_create(fd, 0, INT32, vec, &v));
  int32_t mem[8] = {1, 2, 3, 4, 5, 6, 7, 8}, keep[8];
  memcpy(keep, mem, sizeof(mem));
  size_t bytes;
  for (int w = 0; w < 2; w++) {
#define RW(...) (w ? dl_file_write_at(__VA_ARGS__) : dl_file_read_at(__VA_ARGS__))
    bytes = 99;
    ck_assert_int_eq(RW(NULL, 0, mem, 1, INT32, &bytes), DL_ERR_ARG);
    ck_assert_uint_eq(bytes, 0);
    ck_assert_int_eq(RW(v, 0, mem, 1, INT32, NULL), DL_ERR_ARG);
    ck_assert_int_eq(RW(v, 0, mem, 1, NULL, &bytes), DL_ERR_ARG);
    ck_assert_int_eq(RW(v, 0, mem, -1, INT32, &bytes), DL_ERR_ARG);
    ck_assert_int_eq(RW(v, -1, mem, 1, INT32, &bytes), DL_ERR_ARG);
    ck_assert_int_eq(RW(v, 0, mem, 1, unc, &bytes), DL_ERR_NOT_COMMITTED);
    ck_assert_int_eq(RW(v, 0, mem, 1, dl_builtin(DL_INT16), &bytes), DL_ERR_ARG);
    ck_assert_int_eq(RW(v, 0, mem, 9, big, &bytes), DL_ERR_OVERFLOW);
    ck_assert_int_eq(RW(v, INT64_MAX / 2, mem, 1, INT32, &bytes), DL_ERR_OVERFLOW);
    /* copy k0 of the filetype (extent 28) starts past INT64_MAX */
    ck_assert_int_eq(RW(v, INT64_MAX / 6, mem, 1, INT32, &bytes), DL_ERR_OVERFLOW);
    ck_assert_uint_eq(bytes, 0);
    /* nothing to move: fine, and buf may be NULL */
    bytes = 99;
    DL_OK_(RW(v, 5, NULL, 0, INT32, &bytes));
    ck_assert_uint_eq(bytes, 0);
    /* NULL means absolute addresses: data in the first page is refused */
    ck_assert_int_eq(RW(v, 0, NULL, 2, INT32, &bytes), DL_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(dl_last_error_detail(),
                                 w ? "dl_file_write_at: NULL buffer"
                                   : "dl_file_read_at: NULL buffer"));
    ck_assert_uint_eq(bytes, 0);
#undef RW
  }
  ck_assert_mem_eq(mem, keep, sizeof(mem));
  unsigned char f[64];
  ck_assert_int_eq(pread(fd, f, 64, 0), 64);
  for (int i = 0; i < 64; i++)
    ck_assert_int_eq(f[i], (unsigned char)(i * 7 + 1));
  /* NULL with absolute displacements of a real buffer: served */
  static int32_t abs_mem[2];
  dl_aint ad = (dl_aint)(uintptr_t)abs_mem;
  dl_count two = 2;
  dl_type *at;
  DL_OK_(dl_type_hindexed(1, &two, &ad, INT32, &at));
  dcommit(at);
  DL_OK_(dl_file_read_at(v, 0, NULL, 1, at, &bytes));
  ck_assert_uint_eq(bytes, 8);
  ck_assert_mem_eq(abs_mem, f, 4);          /* the view's first int */
  ck_assert_mem_eq(abs_mem + 1, f + 8, 4);  /* its second, 8 bytes on */
  dl_type_free(&at);
  dl_file_view_free(&v);
  dl_type_free(&vec);
  dl_type_free(&unc);
  dl_type_free(&big);
  close(fd);
  unlink(path);
}
END_TEST

/* reads that reach the end of file, in every processing mode */
START_TEST(eof_reads)
{
  char path[256];
  test_path(path, sizeof(path), "eof");
  dl_type *vec, *mvec;
  DL_OK_(dl_type_vector(4, 2, 3, BYTE, &vec));         /* 0 1 3 4 6 7 9 10 */
  DL_OK_(dl_type_vector(6, 1, 2, BYTE, &mvec));        /* every other byte */
  dcommit(vec);
  dcommit(mvec);
  for (int mode = 0; mode < 4; mode++) {
    int fd = make_file(path, 20, 100, O_RDWR);          /* 20 bytes */
    dl_file_view *v;
    DL_OK_(dl_file_view_create(fd, 3, BYTE, vec, &v));  /* copies every 11 */
    if (mode & 1)
      no_sieve(v);
    if (mode & 2) {
      dli_io_limits l = v->lim;
      l.list_max = l.iov_max = l.sys_iov_max = 1;
      l.stage = 2;
      DL_OK_(dli_file_view_set_limits(v, &l));
    }
    /* view bytes: 3 4 6 7 9 10 12 13 | 14 15 17 18 20 (EOF) */
    unsigned char m[24];
    memset(m, 0xaa, sizeof(m));
    size_t bytes = 99;
    DL_OK_(dl_file_read_at(v, 0, m, 12, BYTE, &bytes));
    ck_assert_uint_eq(bytes, 12);
    static const int at[12] = {3, 4, 6, 7, 9, 10, 12, 13, 14, 15, 17, 18};
    for (int i = 0; i < 12; i++)
      ck_assert_int_eq(m[i], (unsigned char)(at[i] * 7 + 100));
    memset(m, 0xaa, sizeof(m));
    DL_OK_(dl_file_read_at(v, 10, m, 20, BYTE, &bytes));
    ck_assert_uint_eq(bytes, 2);                         /* 17, 18, then EOF */
    ck_assert_int_eq(m[0], (unsigned char)(17 * 7 + 100));
    for (int i = 2; i < 24; i++)
      ck_assert_int_eq(m[i], 0xaa);
    /* noncontiguous memory: the rest of it untouched */
    memset(m, 0xaa, sizeof(m));
    DL_OK_(dl_file_read_at(v, 7, m, 1, mvec, &bytes));
    ck_assert_uint_eq(bytes, 5);                         /* 13 14 15 17 18 */
    for (int i = 0; i < 24; i++)
      ck_assert_int_eq(m[i], i % 2 == 0 && i < 10 ? (unsigned char)(at[7 + i / 2] * 7 + 100)
                                                  : 0xaa);
    /* the first byte is at or past EOF: nothing */
    DL_OK_(dl_file_read_at(v, 12, m, 4, BYTE, &bytes));
    ck_assert_uint_eq(bytes, 0);
    DL_OK_(dl_file_read_at(v, 1000, m, 4, BYTE, &bytes));
    ck_assert_uint_eq(bytes, 0);
    /* a hole inside the file is data (zeros), not the end */
    ck_assert_int_eq(ftruncate(fd, 40), 0);
    DL_OK_(dl_file_read_at(v, 10, m, 8, BYTE, &bytes));
    ck_assert_uint_eq(bytes, 8);                         /* 17 18 20 21 23 24 25 26 */
    ck_assert_int_eq(m[2], 0);
    dl_file_view_free(&v);
    close(fd);
  }
  dl_type_free(&vec);
  dl_type_free(&mvec);
  unlink(path);
}
END_TEST

/* real I/O errors: DL_ERR_IO with errno kept */
START_TEST(io_errors)
{
  char path[256], fifo[256];
  test_path(path, sizeof(path), "ioerr");
  test_path(fifo, sizeof(fifo), "fifo");
  dl_type *vec;
  DL_OK_(dl_type_vector(8, 1, 3, INT32, &vec));
  dcommit(vec);
  int32_t mem[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int mode = 0; mode < 4; mode++) {
    bool sieve = mode & 1;
    dl_type *ft = mode & 2 ? vec : INT32;
    /* a read-only descriptor refuses writes: EBADF, nothing written */
    int fd = make_file(path, 200, 3, O_RDONLY);
    dl_file_view *v;
    DL_OK_(dl_file_view_create(fd, 0, INT32, ft, &v));
    if (!sieve)
      no_sieve(v);
    else
      all_sieve(v);
    size_t bytes = 99;
    errno = 0;
    ck_assert_int_eq(dl_file_write_at(v, 1, mem, 8, INT32, &bytes), DL_ERR_IO);
    ck_assert_int_eq(errno, EBADF);
    ck_assert_uint_eq(bytes, 0);
    dl_file_view_free(&v);
    close(fd);
    /* a write-only descriptor refuses reads; sieved writes fall back to
       direct ones and succeed */
    fd = make_file(path, 200, 3, O_WRONLY);
    DL_OK_(dl_file_view_create(fd, 0, INT32, ft, &v));
    if (!sieve)
      no_sieve(v);
    else
      all_sieve(v);
    errno = 0;
    ck_assert_int_eq(dl_file_read_at(v, 1, mem, 8, INT32, &bytes), DL_ERR_IO);
    ck_assert_int_eq(errno, EBADF);
    ck_assert_uint_eq(bytes, 0);
    DL_OK_(dl_file_write_at(v, 1, mem, 8, INT32, &bytes));
    ck_assert_uint_eq(bytes, 32);
    dl_file_view_free(&v);
    close(fd);
    fd = open(path, O_RDONLY);
    int32_t f[50];
    ck_assert_int_eq(pread(fd, f, 200, 0), 200);
    for (int i = 0; i < 8; i++)      /* the vector's extent is 22 ints */
      ck_assert_int_eq(f[mode & 2 ? (1 + i) / 8 * 22 + (1 + i) % 8 * 3 : 1 + i], mem[i]);
    close(fd);
    /* a FIFO has no offsets: ESPIPE */
    unlink(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    fd = open(fifo, O_RDWR);
    ck_assert_int_ge(fd, 0);
    DL_OK_(dl_file_view_create(fd, 0, INT32, ft, &v));
    if (!sieve)
      no_sieve(v);
    errno = 0;
    ck_assert_int_eq(dl_file_write_at(v, 0, mem, 8, INT32, &bytes), DL_ERR_IO);
    ck_assert_int_eq(errno, ESPIPE);
    ck_assert_uint_eq(bytes, 0);
    errno = 0;
    ck_assert_int_eq(dl_file_read_at(v, 0, mem, 8, INT32, &bytes), DL_ERR_IO);
    ck_assert_int_eq(errno, ESPIPE);
    dl_file_view_free(&v);
    close(fd);
    /* a descriptor closed under the view: EBADF */
    fd = make_file(path, 10, 3, O_RDWR);
    DL_OK_(dl_file_view_create(fd, 0, INT32, ft, &v));
    close(fd);
    errno = 0;
    ck_assert_int_eq(dl_file_write_at(v, 0, mem, 8, INT32, &bytes), DL_ERR_IO);
    ck_assert_int_eq(errno, EBADF);
    dl_file_view_free(&v);
  }
  dl_type_free(&vec);
  unlink(path);
  unlink(fifo);
}
END_TEST

/* a file size limit makes the kernel write short, then fail with EFBIG:
   the call reports DL_ERR_IO with errno EFBIG, and *bytes never counts a
   byte the file does not hold */
START_TEST(short_writes_fsize)
{
  char path[256];
  test_path(path, sizeof(path), "fsize");
  for (int mode = 0; mode < 6; mode++) {
    int fd = make_file(path, mode < 3 ? 0 : 50, 5, O_RDWR), pfd[2];
    ck_assert_int_eq(pipe(pfd), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
      signal(SIGXFSZ, SIG_IGN);
      struct rlimit lim = {777, 777};
      setrlimit(RLIMIT_FSIZE, &lim);
      dl_type *ft = BYTE;
      if (mode % 3 != 0) {
        dl_type_vector(400, 3, 5, BYTE, &ft);
        dl_type_commit(ft);
      }
      dl_file_view *v;
      dl_file_view_create(fd, 2, BYTE, ft, &v);
      if (mode % 3 == 1)
        no_sieve(v);
      char mem[1000];
      for (int i = 0; i < 1000; i++)
        mem[i] = (char)(i * 13 + 1);
      size_t bytes = 0;
      errno = 0;
      int rc = dl_file_write_at(v, 0, mem, 1000, BYTE, &bytes);
      long res[3] = {rc, errno, (long)bytes};
      _exit(write(pfd[1], res, sizeof(res)) == sizeof(res) ? 0 : 1);
    }
    long res[3] = {0, 0, 0};
    ck_assert_int_eq(read(pfd[0], res, sizeof(res)), (ssize_t)sizeof(res));
    close(pfd[0]);
    close(pfd[1]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(res[0] == DL_ERR_IO && res[1] == EFBIG, "mode %d: %s, errno %ld",
                  mode, dl_strerror((int)res[0]), res[1]);
    /* the stream bytes found in the file, in order */
    char f[800];
    ssize_t len = pread(fd, f, sizeof(f), 0);
    ck_assert_int_le(len, 777);
    long k = 0;
    for (int64_t i = 0; i < 1000; i++, k++) {
      int64_t at = mode % 3 == 0 ? 2 + i : 2 + (i / 3) * 5 + i % 3;
      if (at >= len || f[at] != (char)(i * 13 + 1))
        break;
    }
    ck_assert_msg(res[2] <= k, "mode %d: reported %ld bytes, %ld written", mode,
                  res[2], k);
    ck_assert_msg(res[2] > 0, "mode %d: no progress reported", mode);
    close(fd);
  }
  unlink(path);
}
END_TEST

/* ---- system calls that misbehave: short transfers, EINTR, then an error
   after a byte budget, as a full disk or a failing device would ---- */
typedef struct faults {
  rng r;
  int short_pct, eintr_pct;  /* chance of a short transfer, of EINTR */
  long budget;               /* bytes moved before failing; < 0: never */
  int err;                   /* errno of the failure */
  long moved, calls, shorts, eintrs, failures;
} faults;

/* how many bytes this call moves, or -1 with errno set */
static ssize_t fault(faults *f, const struct iovec *iov, int n, size_t *want)
{
  f->calls++;
  size_t total = 0;
  for (int i = 0; i < n; i++)
    total += iov[i].iov_len;
  if (rng_range(&f->r, 0, 99) < f->eintr_pct) {
    f->eintrs++;
    errno = EINTR;
    return -1;
  }
  if (f->budget >= 0 && f->moved >= f->budget) {
    f->failures++;
    errno = f->err;
    return -1;
  }
  size_t k = total;
  if (k > 1 && rng_range(&f->r, 0, 99) < f->short_pct) {
    k = (size_t)rng_range(&f->r, 1, (int64_t)k - 1);
    f->shorts++;
  }
  if (f->budget >= 0 && (long)k > f->budget - f->moved)
    k = (size_t)(f->budget - f->moved);       /* a short write, then ENOSPC */
  *want = k;
  return 0;
}

/* copies of iov limited to k bytes */
static int clip(const struct iovec *iov, int n, size_t k, struct iovec *out)
{
  int m = 0;
  for (int i = 0; i < n && k > 0; i++) {
    out[m] = iov[i];
    if (out[m].iov_len > k)
      out[m].iov_len = k;
    k -= out[m++].iov_len;
  }
  return m;
}

static ssize_t f_preadv(void *ctx, int fd, const struct iovec *iov, int n, off_t off)
{
  size_t k;
  if (fault(ctx, iov, n, &k))
    return -1;
  struct iovec c[1024];
  ssize_t got = preadv(fd, c, clip(iov, n, k, c), off);
  if (got > 0)
    ((faults *)ctx)->moved += got;
  return got;
}

static ssize_t f_pwritev(void *ctx, int fd, const struct iovec *iov, int n, off_t off)
{
  size_t k;
  if (fault(ctx, iov, n, &k))
    return -1;
  struct iovec c[1024];
  ssize_t got = k ? pwritev(fd, c, clip(iov, n, k, c), off) : 0;
  if (k == 0) {                                  /* the budget is spent */
    errno = ((faults *)ctx)->err;
    return -1;
  }
  if (got > 0)
    ((faults *)ctx)->moved += got;
  return got;
}

static int f_setlk(void *ctx, int fd, int cmd, struct flock *fl)
{
  faults *f = ctx;
  if (cmd == F_SETLKW && rng_range(&f->r, 0, 99) < f->eintr_pct) {
    f->eintrs++;
    errno = EINTR;
    return -1;
  }
  return fcntl(fd, cmd, fl);
}

START_TEST(fault_injection)
{
  rng r = {seed ^ 0x6661756c74};
  int n = test_scaled(1500);
  char path[256], note[256];
  test_path(path, sizeof(path), "faults");
  long failed = 0, shorts = 0, eintrs = 0;
  for (int it = 0; it < n; it++) {
    iocase c;
    ck_assert(iocase_new(&r, &c, false) == 0);
    if (c.n % (size_t)c.esize != 0 || c.n == 0) {
      iocase_free(&c);
      continue;
    }
    ck_assert(fimg_store(&c.init, path));
    int fd = open(path, O_RDWR);
    dl_file_view *v;
    DL_OK_(dl_file_view_create(fd, c.disp, c.etype, c.ft.t, &v));
    random_limits(&r, v, note, sizeof(note));
    bool fail = rng_range(&r, 0, 1);
    faults fa = {{rng_next(&r)}, (int)rng_range(&r, 0, 60), (int)rng_range(&r, 0, 30),
                 fail ? rng_range(&r, 0, (int64_t)c.n + 64) : -1,
                 rng_range(&r, 0, 1) ? ENOSPC : EIO, 0, 0, 0, 0, 0};
    dli_io_ops ops = {f_preadv, f_pwritev, f_setlk, &fa};
    dli_file_view_set_ops(v, &ops);
    char *src = malloc(c.n + 1);
    model_pack(c.mruns, c.nmruns, c.mem.origin, src);
    size_t bytes = 12345;
    errno = 0;
    int rc = dl_file_write_at(v, c.offset, c.mem.origin, c.count, c.mt.t, &bytes);
    int err = errno;
    /* the file is exactly the model after writing the first *bytes bytes
       (an ordered view is written in order), and a failure says so */
    fimg want = {0}, got = {0};
    fimg_set(&want, c.init.b, c.init.len);
    vmodel_write(&c.vm, c.offset, src, bytes <= c.n ? bytes : c.n, &want);
    ck_assert(fimg_load(&got, path));
    ck_assert_msg(rc == DL_OK ? bytes == c.n : rc == DL_ERR_IO && err == fa.err &&
                  bytes < c.n, "write: %s errno %d, %zu of %zu bytes; %s; " CASE_FMT,
                  dl_strerror(rc), err, bytes, c.n, note, CASE_ARGS(&c));
    ck_assert_msg(rc == DL_OK || fa.failures > 0, CASE_FMT, CASE_ARGS(&c));
    ck_assert_msg(got.len == want.len && memcmp(got.b, want.b, got.len) == 0,
                  "write of %zu bytes (%s): the file is not the model's; %s; "
                  CASE_FMT, bytes, dl_strerror(rc), note, CASE_ARGS(&c));
    failed += rc != DL_OK;
    /* read back from what is there: memory past *bytes untouched */
    fa.moved = 0;
    fa.budget = fail ? rng_range(&r, 0, (int64_t)c.n + 64) : -1;
    tbuf dst = c.mem, exp = c.mem;
    dst.mem = malloc(c.mem.len + 1);
    exp.mem = malloc(c.mem.len + 1);
    dst.origin = dst.mem + (c.mem.origin - c.mem.mem);
    exp.origin = exp.mem + (c.mem.origin - c.mem.mem);
    uint64_t fill = rng_next(&r);
    tbuf_fill(&dst, fill);
    tbuf_fill(&exp, fill);
    size_t g = vmodel_read(&c.vm, c.offset, src, c.n, &got);
    errno = 0;
    rc = dl_file_read_at(v, c.offset, dst.origin, c.count, c.mt.t, &bytes);
    err = errno;
    ck_assert_msg(rc == DL_OK ? bytes == g : rc == DL_ERR_IO && err == fa.err &&
                  bytes <= g, "read: %s errno %d, %zu of %zu bytes; %s; " CASE_FMT,
                  dl_strerror(rc), err, bytes, g, note, CASE_ARGS(&c));
    model_unpack_n(c.mruns, c.nmruns, exp.origin, src, bytes);
    ck_assert_msg(memcmp(dst.mem, exp.mem, c.mem.len) == 0, "read of %zu bytes (%s): "
                  "memory differs; %s; " CASE_FMT, bytes, dl_strerror(rc), note,
                  CASE_ARGS(&c));
    shorts += fa.shorts;
    eintrs += fa.eintrs;
    free(dst.mem);
    free(exp.mem);
    free(src);
    fimg_free(&want);
    fimg_free(&got);
    dl_file_view_free(&v);
    close(fd);
    iocase_free(&c);
  }
  fprintf(stderr, "fault_injection: %d cases, %ld failed writes, %ld short "
          "transfers, %ld EINTR\n", n, failed, shorts, eintrs);
  unlink(path);
}
END_TEST

/* ---- a real EINTR: a sieved write waits for a lock another process
   holds while a timer interrupts it every millisecond ---- */
static volatile sig_atomic_t ticks;
static void tick(int sig)
{
  (void)sig;
  ticks++;
}

START_TEST(lock_wait_eintr)
{
  char path[256];
  test_path(path, sizeof(path), "eintr");
  int fd = make_file(path, 4096, 9, O_RDWR), go[2];
  ck_assert_int_eq(pipe(go), 0);
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int cfd = open(path, O_RDWR);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0,
                       .l_len = 4096};
    char c = 'x';
    if (fcntl(cfd, F_SETLKW, &fl) != 0 || write(go[1], &c, 1) != 1)
      _exit(1);
    usleep(300 * 1000);
    _exit(0);                         /* exiting releases the lock */
  }
  char c;
  ck_assert_int_eq(read(go[0], &c, 1), 1);
  /* the tick handler stays for the rest of the process: a tick that
     valgrind delivers after the timer stops must not reach Check's own
     SIGALRM handler, which in CK_FORK=no kills the whole process group
     (make and everything above it) */
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = tick;               /* no SA_RESTART: fcntl gets EINTR */
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 1000}, {0, 1000}}, off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
  dl_type *vec;
  DL_OK_(dl_type_vector(64, 1, 4, INT32, &vec));
  dcommit(vec);
  dl_file_view *v;
  DL_OK_(dl_file_view_create(fd, 0, INT32, vec, &v));
  all_sieve(v);
  int32_t mem[64];
  for (int i = 0; i < 64; i++)
    mem[i] = -i;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  size_t bytes;
  DL_OK_(dl_file_write_at(v, 0, mem, 64, INT32, &bytes));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  setitimer(ITIMER_REAL, &off, NULL);
  ck_assert_uint_eq(bytes, 256);
  double waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  ck_assert_msg(waited > 0.1, "did not wait for the lock (%.3f s)", waited);
  ck_assert_msg(ticks > 10, "only %d signals", (int)ticks);
  int32_t f[1024];
  ck_assert_int_eq(pread(fd, f, 4096, 0), 4096);
  for (int i = 0; i < 64; i++)
    ck_assert_int_eq(f[4 * i], -i);
  int status;
  waitpid(pid, &status, 0);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  dl_file_view_free(&v);
  dl_type_free(&vec);
  close(fd);
  close(go[0]);
  close(go[1]);
  unlink(path);
}
END_TEST

/* ---- sieving on and off, with lists and buffers of one entry or of
   default size, give identical files and reads ---- */
START_TEST(sieve_on_off_identical)
{
  rng r = {seed ^ 0x7369657665};
  int n = test_scaled(800);
  char pa[256], pb[256];
  test_path(pa, sizeof(pa), "sieve-a");
  test_path(pb, sizeof(pb), "sieve-b");
  for (int it = 0; it < n; it++) {
    iocase c;
    ck_assert(iocase_new(&r, &c, false) == 0);
    if (c.n % (size_t)c.esize != 0) {
      iocase_free(&c);
      continue;
    }
    bool tiny = rng_range(&r, 0, 1);
    char *img[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    char *rd[2];
    for (int k = 0; k < 2; k++) {
      const char *path = k ? pb : pa;
      ck_assert(fimg_store(&c.init, path));
      int fd = open(path, O_RDWR);
      dl_file_view *v;
      DL_OK_(dl_file_view_create(fd, c.disp, c.etype, c.ft.t, &v));
      dli_io_limits l = v->lim;
      if (k == 0) {
        l.sieve_read = l.sieve_write = 0;
      } else {
        l.gap_read = l.gap_write = l.piece_max = 1 << 20;
      }
      if (tiny) {
        l.list_max = l.iov_max = l.sys_iov_max = 1;
        l.stage = 1 + (size_t)rng_range(&r, 0, 8);
        if (k)
          l.sieve_read = l.sieve_write = 16;
      }
      DL_OK_(dli_file_view_set_limits(v, &l));
      size_t bytes;
      DL_OK_(dl_file_write_at(v, c.offset, c.mem.origin, c.count, c.mt.t, &bytes));
      rd[k] = malloc(c.mem.len + 1);
      memset(rd[k], 0x33, c.mem.len);
      DL_OK_(dl_file_read_at(v, c.offset + 1, rd[k] + (c.mem.origin - c.mem.mem),
                             c.count, c.mt.t, &bytes));
      fimg f = {0};
      ck_assert(fimg_load(&f, path));
      img[k] = (char *)f.b;
      len[k] = f.len;
      dl_file_view_free(&v);
      close(fd);
    }
    ck_assert_msg(len[0] == len[1] && memcmp(img[0], img[1], len[0]) == 0,
                  "sieving changes the file (tiny %d): " CASE_FMT, tiny, CASE_ARGS(&c));
    ck_assert_msg(memcmp(rd[0], rd[1], c.mem.len) == 0,
                  "sieving changes a read (tiny %d): " CASE_FMT, tiny, CASE_ARGS(&c));
    for (int k = 0; k < 2; k++) {
      free(img[k]);
      free(rd[k]);
    }
    iocase_free(&c);
  }
  unlink(pa);
  unlink(pb);
}
END_TEST

/* ---- two threads on one view: the cached scratch goes to one, the
   other allocates its own ---- */
struct twin {
  dl_file_view *v;
  int k;
  int rc;
};

static void *twin_run(void *arg)
{
  struct twin *t = arg;
  int32_t mem[4096];
  for (int round = 0; round < 50 && !t->rc; round++) {
    for (int i = 0; i < 4096; i++)
      mem[i] = t->k * 1000000 + round * 10000 + i;
    size_t bytes;
    t->rc = dl_file_write_at(t->v, t->k * 4096, mem, 4096, INT32, &bytes);
    int32_t back[4096];
    if (!t->rc)
      t->rc = dl_file_read_at(t->v, t->k * 4096, back, 4096, INT32, &bytes);
    if (!t->rc && memcmp(back, mem, sizeof(mem)) != 0)
      t->rc = -1;
  }
  return NULL;
}

START_TEST(threads_share_view)
{
  char path[256];
  test_path(path, sizeof(path), "threads");
  int fd = make_file(path, 0, 0, O_RDWR);
  dl_type *vec;
  DL_OK_(dl_type_vector(2, 1, 2, INT32, &vec));     /* each thread its own part */
  dcommit(vec);
  dl_file_view *v;
  DL_OK_(dl_file_view_create(fd, 0, INT32, vec, &v));
  /* fcntl locks belong to the process, so they cannot keep two threads'
     read-modify-writes apart: threads writing one file do not sieve */
  no_sieve(v);
  pthread_t th[2];
  struct twin tw[2] = {{v, 0, 0}, {v, 1, 0}};
  for (int k = 0; k < 2; k++)
    ck_assert_int_eq(pthread_create(&th[k], NULL, twin_run, &tw[k]), 0);
  for (int k = 0; k < 2; k++)
    pthread_join(th[k], NULL);
  ck_assert_int_eq(tw[0].rc, 0);
  ck_assert_int_eq(tw[1].rc, 0);
  dl_file_view_free(&v);
  dl_type_free(&vec);
  close(fd);
  unlink(path);
}
END_TEST

/* ---- the environment, read once: checked in a fresh process ---- */
static void print_limits(void)
{
  const dli_io_limits *l = dli_io_defaults();
  printf("%zu %zu\n", l->sieve_read, l->sieve_write);
}

static void limits_with(const char *sieve, const char *rd, const char *wr, size_t *r,
                        size_t *w)
{
  int p[2];
  ck_assert_int_eq(pipe(p), 0);
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    dup2(p[1], STDOUT_FILENO);
    unsetenv("DL_IO_SIEVE");
    unsetenv("DL_IO_SIEVE_READ_BYTES");
    unsetenv("DL_IO_SIEVE_WRITE_BYTES");
    if (sieve) setenv("DL_IO_SIEVE", sieve, 1);
    if (rd) setenv("DL_IO_SIEVE_READ_BYTES", rd, 1);
    if (wr) setenv("DL_IO_SIEVE_WRITE_BYTES", wr, 1);
    execl(self, self, "--print-limits", (char *)NULL);
    _exit(127);
  }
  close(p[1]);
  char buf[128] = {0};
  ssize_t k = read(p[0], buf, sizeof(buf) - 1);
  close(p[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert_msg(k > 0 && sscanf(buf, "%zu %zu", r, w) == 2, "no limits printed");
}

START_TEST(environment)
{
  size_t r, w, out;
  limits_with(NULL, NULL, NULL, &r, &w);
  ck_assert_uint_eq(r, 4 << 20);
  ck_assert_uint_eq(w, 512 << 10);
  limits_with("0", NULL, NULL, &r, &w);
  ck_assert(r == 0 && w == 0);
  limits_with("1", "64k", "1M", &r, &w);
  ck_assert(r == 64 << 10 && w == 1 << 20);
  limits_with(NULL, "0", "junk", &r, &w);
  ck_assert(r == 0 && w == 512 << 10);
  limits_with("0", "8192", NULL, &r, &w);          /* DL_IO_SIEVE=0 wins */
  ck_assert(r == 0 && w == 0);
  limits_with(NULL, "3G", "1g", &r, &w);            /* over 1 GiB: ignored */
  ck_assert(r == 4 << 20 && w == 1 << 30);
  ck_assert(dli_parse_bytes("4096", &out) && out == 4096);
  ck_assert(dli_parse_bytes("1g", &out) && out == 1 << 30);
  ck_assert(dli_parse_bytes("2K ", &out) && out == 2048);
  ck_assert(!dli_parse_bytes("", &out) && !dli_parse_bytes("-4", &out) &&
            !dli_parse_bytes("12kb", &out) && !dli_parse_bytes(NULL, &out) &&
            !dli_parse_bytes("99999999999999999999", &out) &&
            !dli_parse_bytes("9999999999G", &out));
}
END_TEST

/* ---- more memory pieces than one system call takes (IOV_MAX) ---- */
START_TEST(many_memory_pieces)
{
  char path[256];
  test_path(path, sizeof(path), "iovmax");
  int fd = make_file(path, 0, 0, O_RDWR);
  dl_type *m;
  DL_OK_(dl_type_vector(3000, 640, 1024, BYTE, &m));   /* 3000 pieces of 640 */
  dcommit(m);
  size_t len = 3000 * 1024;
  char *mem = malloc(len), *back = calloc(len, 1);
  for (size_t i = 0; i < len; i++)
    mem[i] = (char)(i * 31 + 7);
  dl_file_view *v;
  DL_OK_(dl_file_view_create(fd, 5, BYTE, BYTE, &v));
  size_t bytes;
  DL_OK_(dl_file_write_at(v, 3, mem, 1, m, &bytes));
  ck_assert_uint_eq(bytes, 3000 * 640);
  char *f = malloc(3000 * 640);
  ck_assert_int_eq(pread(fd, f, 3000 * 640, 8), 3000 * 640);
  for (size_t i = 0; i < 3000; i++)
    ck_assert(memcmp(f + i * 640, mem + i * 1024, 640) == 0);
  DL_OK_(dl_file_read_at(v, 3, back, 1, m, &bytes));
  ck_assert_uint_eq(bytes, 3000 * 640);
  /* the first wrong byte, then one assertion (Check's bookkeeping on
     every byte's assertion took minutes under Valgrind) */
  size_t bad = len;
  for (size_t i = 0; i < len && bad == len; i++)
    if (back[i] != (i % 1024 < 640 ? mem[i] : 0))
      bad = i;
  ck_assert_msg(bad == len, "byte %zu read back wrong", bad);
  free(mem);
  free(back);
  free(f);
  dl_file_view_free(&v);
  dl_type_free(&m);
  close(fd);
  unlink(path);
}
END_TEST

int main(int argc, char **argv)
{
  self = argv[0];
  if (argc > 1 && strcmp(argv[1], "--print-limits") == 0) {
    print_limits();
    return 0;
  }
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, random_vs_model);
  tcase_add_test(tc, view_rules_vs_model);
  tcase_add_test(tc, view_errors);
  tcase_add_test(tc, rw_errors);
  tcase_add_test(tc, eof_reads);
  tcase_add_test(tc, io_errors);
  tcase_add_test(tc, short_writes_fsize);
  tcase_add_test(tc, fault_injection);
  tcase_add_test(tc, lock_wait_eintr);
  tcase_add_test(tc, sieve_on_off_identical);
  tcase_add_test(tc, threads_share_view);
  tcase_add_test(tc, environment);
  tcase_add_test(tc, many_memory_pieces);
  return test_run("io", tc, false);
}
