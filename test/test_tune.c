/* The tuning layer: thresholds from the machine, a tuning file and the
 * environment, each winning over the one before; dl_tune_print; the
 * non-temporal copy, that it fires from its threshold and moves the same
 * bytes. The settings are read once per process, so each case runs this
 * program again (--print) with its own environment. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dataloop.h"
#include "../src/tune/tune.h"
#include "../actions/actions.h"
#include "../dataloop/env.h"
#include "runner.h"

static const char *self;

/* the test is linked with --wrap=dli_nt_copy: calls of the library's
   streaming copy come here first, and are counted */
void __real_dli_nt_copy(void *dst, const void *src, size_t n);
void __wrap_dli_nt_copy(void *dst, const void *src, size_t n);
static unsigned long nt_calls;
void __wrap_dli_nt_copy(void *dst, const void *src, size_t n)
{
  nt_calls++;
  __real_dli_nt_copy(dst, src, n);
}

/* runs `self --print` with the given environment changes ("NAME=value" to
   set, "NAME" to unset); returns what it printed */
static char *printed(const char *const *env)
{
  int p[2];
  ck_assert_int_eq(pipe(p), 0);
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    dup2(p[1], STDOUT_FILENO);
    unsetenv("DL_TUNE_FILE");
    unsetenv("DL_NT_THRESHOLD");
    unsetenv("DL_LIST_BATCH");
    unsetenv("HWLOC_SYNTHETIC");
    unsetenv("HWLOC_XMLFILE");
    setenv("XDG_CONFIG_HOME", "/nonexistent-dataloop-test", 1);
    for (; env && *env; env++) {
      char *e = strdup(*env), *eq = strchr(e, '=');
      if (eq) {
        *eq = '\0';
        setenv(e, eq + 1, 1);
      } else {
        unsetenv(e);
      }
    }
    execl(self, self, "--print", (char *)NULL);
    _exit(127);
  }
  close(p[1]);
  static char buf[8192];
  size_t n = 0;
  ssize_t k;
  while (n + 1 < sizeof(buf) && (k = read(p[0], buf + n, sizeof(buf) - 1 - n)) > 0)
    n += (size_t)k;
  buf[n] = '\0';
  close(p[0]);
  int status;
  waitpid(pid, &status, 0);
  ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed: %s", buf);
  return buf;
}

/* the byte count after key in dl_tune_print's output, the word read with
   fmt; *at where key is */
static size_t bytes_after(const char *out, const char *key, const char *fmt,
                          const char **at)
{
  const char *l = strstr(out, key);
  ck_assert_msg(l != NULL, "%s not printed in:\n%s", key, out);
  char word[64];
  ck_assert_int_eq(sscanf(l + strlen(key), fmt, word), 1);
  size_t v;
  ck_assert_msg(dli_parse_bytes(word, &v), "bad value %s", word);
  *at = l;
  return v;
}

/* the value and source of a key in dl_tune_print's output */
static size_t value(const char *out, const char *key, char *source, size_t n)
{
  const char *l;
  size_t v = bytes_after(out, key, " %63s", &l);
  const char *hash = strchr(l, '#');
  if (source) {
    ck_assert_ptr_nonnull(hash);
    sscanf(hash + 1, " %[^;]", source);
    (void)n;
  }
  return v;
}

/* the rules of doc/tuning.md, from the caches a process saw */
static void thresholds_follow(const char *out, size_t l1d, size_t l2)
{
  char src[64];
  size_t batch = l1d / 8;
  batch = batch < 256 ? 256 : batch > 65536 ? 65536 : batch;
  (void)l2;
  ck_assert_uint_eq(value(out, "list_batch", src, sizeof(src)), batch);
  ck_assert_msg(!strcmp(src, "hwloc") || !strcmp(src, "sysconf"), "source %s", src);
}

/* a cache size the first line of --print gives after key ("L1d ") */
static size_t cache_printed(const char *out, const char *key)
{
  const char *l;
  return bytes_after(out, key, "%63[^,]", &l);
}

/* the caches and cores a --print child reports in its first line */
static void printed_caches(const char *out, size_t *l1d, size_t *l2, int *cores)
{
  *l1d = cache_printed(out, "caches L1d ");
  *l2 = cache_printed(out, ", L2 ");
  const char *c = strstr(out, " cores;");
  ck_assert_ptr_nonnull(c);
  while (c > out && c[-1] >= '0' && c[-1] <= '9')
    c--;
  *cores = atoi(c);
}

/* What this machine reports, whatever it is: the thresholds follow the
   rules from the caches the same process saw (a child run natively may see
   other caches than this process does under Valgrind, whose CPU hwloc's x86
   backend does not read) */
START_TEST(from_the_machine)
{
  const dl_tune *t = dl_tune_get();
  ck_assert_ptr_nonnull(t);
  ck_assert_ptr_eq(t, dl_tune_get());
  ck_assert_int_gt(t->cores, 0);
  char *out = printed(NULL);
  size_t l1d, l2;
  int cores;
  printed_caches(out, &l1d, &l2, &cores);
  ck_assert_int_gt(cores, 0);
  if (l2 && l1d)
    thresholds_follow(out, l1d, l2);
  char src[64];
  ck_assert_uint_eq(value(out, "nt_threshold", src, sizeof(src)), 0);
  ck_assert_str_eq(src, "default");
  ck_assert_int_eq(dl_tune_print(NULL), DL_ERR_ARG);
}
END_TEST

/* thresholds derived from topologies given to hwloc (HWLOC_SYNTHETIC), as
   on machines with small, usual and huge caches: each rule's clamps */
START_TEST(from_injected_topologies)
{
  static const struct { const char *topo; size_t l1d, l2; int cores; } m[] = {
    {"pack:1 l2:4(size=131072) l1d:1(size=16384) core:1 pu:1", 16384, 131072, 4},
    {"pack:1 l3:1(size=8388608) l2:2(size=1048576) l1d:1(size=49152) core:1 pu:2",
     49152, 1048576, 2},
    {"pack:2 l3:1(size=268435456) l2:8(size=67108864) l1d:1(size=1048576) core:1 pu:1",
     1048576, 67108864, 16},
  };
  for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
    char env[256];
    snprintf(env, sizeof(env), "HWLOC_SYNTHETIC=%s", m[i].topo);
    const char *e[] = {env, NULL};
    char *out = printed(e);
    size_t l1d, l2;
    int cores;
    printed_caches(out, &l1d, &l2, &cores);
    ck_assert_uint_eq(l1d, m[i].l1d);
    ck_assert_uint_eq(l2, m[i].l2);
    ck_assert_int_eq(cores, m[i].cores);
    thresholds_follow(out, l1d, l2);
  }
}
END_TEST

/* a new temporary file from the template path (its XXXXXX replaced) */
static FILE *temp_file(char *path)
{
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  ck_assert_ptr_nonnull(f);
  return f;
}

START_TEST(file_then_environment)
{
  char path[] = "/tmp/dl-tune-XXXXXX";
  FILE *f = temp_file(path);
  fprintf(f, "# a comment\n  list_batch = 96K   # spaces and =\n"
             "nt_threshold\t128M\npipeline_chunk 3M\n"
             "unknown_key 5\nlist_batch banana\n");
  fclose(f);
  char file[128];
  snprintf(file, sizeof(file), "DL_TUNE_FILE=%s", path);
  const char *env1[] = {file, NULL};
  char src[64];
  char *out = printed(env1);
  ck_assert_ptr_nonnull(strstr(out, path));
  ck_assert_uint_eq(value(out, "list_batch", src, sizeof(src)), 96 << 10);
  ck_assert_str_eq(src, "file");
  ck_assert_uint_eq(value(out, "nt_threshold", NULL, 0), 128 << 20);
  /* the interposer's keys are the interposer's (test_strategy) */
  ck_assert_ptr_null(strstr(out, "pipeline_chunk"));
  /* the environment wins over the file; bad values are ignored */
  const char *env2[] = {file, "DL_NT_THRESHOLD=1M", "DL_LIST_BATCH=3", NULL};
  out = printed(env2);
  ck_assert_uint_eq(value(out, "nt_threshold", src, sizeof(src)), 1 << 20);
  ck_assert_str_eq(src, "environment");
  ck_assert_uint_eq(value(out, "list_batch", src, sizeof(src)), 96 << 10);
  ck_assert_str_eq(src, "file");
  /* the standard location under XDG_CONFIG_HOME */
  char dir[] = "/tmp/dl-xdg-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char sub[256], conf[300], xdg[300];
  snprintf(sub, sizeof(sub), "%s/dataloop", dir);
  ck_assert_int_eq(mkdir(sub, 0755), 0);
  snprintf(conf, sizeof(conf), "%s/tune.conf", sub);
  f = fopen(conf, "w");
  fprintf(f, "list_batch 5K\n");
  fclose(f);
  snprintf(xdg, sizeof(xdg), "XDG_CONFIG_HOME=%s", dir);
  const char *env3[] = {xdg, NULL};
  out = printed(env3);
  ck_assert_uint_eq(value(out, "list_batch", src, sizeof(src)), 5 << 10);
  ck_assert_str_eq(src, "file");
  /* dl_tune_print's output is a tuning file that reads back the same */
  FILE *g = fopen(path, "w");
  fputs(out, g);
  fclose(g);
  char *again = printed(env1);
  ck_assert_uint_eq(value(again, "list_batch", NULL, 0), 5 << 10);
  unlink(conf);
  rmdir(sub);
  rmdir(dir);
  unlink(path);
}
END_TEST

/* lines of text (a host's tuning lines) read as a file's: comments,
   blanks and '=' as there, the last line without its newline, a line
   past the buffer cut, not run over */
static void collect(void *ctx, const char *name, const char *value)
{
  char *out = ctx;
  size_t n = strlen(out);
  snprintf(out + n, 1024 - n, "[%s|%s]", name, value);
}

START_TEST(lines_as_a_file)
{
  char out[1024] = "";
  dli_tune_lines_each("# a comment\n\n  a = 1  # why\nb\t2 3\nc", collect, out);
  ck_assert_str_eq(out, "[a|1][b|2 3][c|]");
  out[0] = '\0';
  dli_tune_lines_each(NULL, collect, out);
  dli_tune_lines_each("", collect, out);
  ck_assert_str_eq(out, "");
  char long_line[800];
  memset(long_line, 'x', sizeof(long_line) - 1);
  long_line[sizeof(long_line) - 1] = '\0';
  memcpy(long_line, "k ", 2);
  memcpy(long_line + 700, "\nz 9", 5);
  dli_tune_lines_each(long_line, collect, out);
  /* 511 bytes of the first line kept: "k", a blank, 509 of its value */
  ck_assert_uint_eq(strlen(out), strlen("[k|]") + 509 + strlen("[z|9]"));
  ck_assert_str_eq(out + strlen(out) - 5, "[z|9]");
}
END_TEST

START_TEST(nt_copy_bytes)
{
  /* every length and alignment around the 16-byte stores and 64-byte
     steps: the same bytes as memcpy, nothing outside */
  size_t cap = 4096 + 256;
  unsigned char *src = malloc(cap), *a = malloc(cap), *b = malloc(cap);
  for (size_t i = 0; i < cap; i++)
    src[i] = (unsigned char)(i * 131 + 7);
  for (size_t off = 0; off < 17; off++)
    for (size_t soff = 0; soff < 3; soff++)
      for (size_t n = 0; n < 300; n += (n < 140 ? 1 : 37)) {
        memset(a, 0xaa, cap);
        memset(b, 0xaa, cap);
        memcpy(a + off, src + soff, n);
        dli_nt_copy(b + off, src + soff, n);
        ck_assert_msg(memcmp(a, b, cap) == 0, "off %zu soff %zu n %zu", off, soff, n);
      }
  free(src);
  free(a);
  free(b);
}
END_TEST

/* a dense pack or unpack of at least DL_NT_THRESHOLD bytes goes through
   the streaming copy, and gives the same bytes */
START_TEST(nt_copy_fires)
{
  const char *env[] = {"DL_NT_THRESHOLD=64K", NULL};
  char *out = printed(env);
  ck_assert_uint_eq(value(out, "nt_threshold", NULL, 0), 64 << 10);
  ck_assert_ptr_nonnull(strstr(out, "nt copies 2"));   /* --print's own pack */
  const char *none[] = {NULL};
  out = printed(none);
  ck_assert_ptr_nonnull(strstr(out, "nt copies 0"));
}
END_TEST

/* --print: the thresholds, then a pack and unpack of 1 MiB of ints */
static int print_mode(void)
{
  dl_tune_print(stdout);
  size_t n = 1 << 18, pos = 0;
  int *in = malloc(n * sizeof(int)), *back = calloc(n, sizeof(int));
  char *packed = malloc(n * sizeof(int));
  for (size_t i = 0; i < n; i++)
    in[i] = (int)(i * 2654435761u);
  dl_type *t;
  dl_type_contiguous((dl_count)n, dl_builtin(DL_INT32), &t);
  dl_type_commit(t);
  unsigned long before = nt_calls;
  int rc = dl_pack(in, 1, t, packed, n * sizeof(int), &pos);
  pos = 0;
  rc |= dl_unpack(packed, n * sizeof(int), &pos, back, 1, t);
  printf("nt copies %lu\n", nt_calls - before);
  int same = memcmp(in, back, n * sizeof(int)) == 0;
  dl_type_free(&t);
  free(in);
  free(back);
  free(packed);
  return rc || !same;
}

int main(int argc, char **argv)
{
  self = argv[0];
  if (argc > 1 && !strcmp(argv[1], "--print"))
    return print_mode();
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, from_the_machine);
  tcase_add_test(tc, from_injected_topologies);
  tcase_add_test(tc, file_then_environment);
  tcase_add_test(tc, lines_as_a_file);
  tcase_add_test(tc, nt_copy_bytes);
  tcase_add_test(tc, nt_copy_fires);
  return test_run("tune", tc, false);
}
