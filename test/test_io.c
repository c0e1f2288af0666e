/* Noncontiguous file I/O against the model of the standard's semantics
 * (io_model.h): random views, memory types and starting files, with the
 * batch limits and sieving varied; then every rule of the contract by
 * hand: EOF, errors, short transfers, EINTR, locks. No MPI here; ROMIO is
 * compared in test_io_romio.c. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "io.h"
#include "io_case.h"

static uint64_t seed;

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
    l.gap_max = (size_t)rng_range(r, 0, 64);
    l.piece_max = (size_t)rng_range(r, 1, 64);
    l.mem_piece_min = (size_t)rng_range(r, 0, 64);
  } else if (kind == 1) {
    l.sieve_read = l.sieve_write = 0;
  } else if (kind == 2) {
    l.gap_max = 1 << 20;          /* sieve everything sieveable */
    l.piece_max = 1 << 20;
  }
  ck_assert_int_eq(dli_file_view_set_limits(v, &l), DL_OK);
  snprintf(note, nsize, "limits: list %zu iov %zu sys %zu stage %zu sieve %zu/%zu "
           "gap %zu piece %zu mem %zu", l.list_max, l.iov_max, l.sys_iov_max, l.stage,
           l.sieve_read, l.sieve_write, l.gap_max, l.piece_max, l.mem_piece_min);
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

int main(void)
{
  const char *e = getenv("DL_TEST_SEED");
  seed = e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL);
  fprintf(stderr, "random seed: %llu (set DL_TEST_SEED to repeat)\n",
          (unsigned long long)seed);
  Suite *su = suite_create("io");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, random_vs_model);
  tcase_add_test(tc, view_rules_vs_model);
  suite_add_tcase(su, tc);
  SRunner *sr = srunner_create(su);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
