/* Settings from the environment (dataloop/env.c): what each parser takes,
 * that anything else is reported on stderr, naming the variable, and the
 * default applies. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "env.h"
#include "runner.h"

/* stderr of fn(), captured in a temporary file */
static char said[512];
#define CAPTURE(expr)                                          \
  do {                                                         \
    fflush(stderr);                                            \
    FILE *f_ = tmpfile();                                      \
    ck_assert_ptr_nonnull(f_);                                 \
    int saved_ = dup(STDERR_FILENO);                           \
    dup2(fileno(f_), STDERR_FILENO);                           \
    expr;                                                      \
    fflush(stderr);                                            \
    dup2(saved_, STDERR_FILENO);                               \
    close(saved_);                                             \
    rewind(f_);                                                \
    size_t n_ = fread(said, 1, sizeof(said) - 1, f_);          \
    said[n_] = '\0';                                           \
    fclose(f_);                                                \
  } while (0)

static int lines(const char *s)
{
  int n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}

START_TEST(flags)
{
  static const char *const on[] = {"1", "yes", "YES", "on", "true", "True"};
  static const char *const off[] = {"0", "no", "off", "false", "FALSE"};
  bool v;
  for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
    setenv("DL_TEST_FLAG", on[i], 1);
    CAPTURE(v = dli_env_flag("DL_TEST_FLAG", false));
    ck_assert_msg(v && !*said, "%s", on[i]);
  }
  for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
    setenv("DL_TEST_FLAG", off[i], 1);
    CAPTURE(v = dli_env_flag("DL_TEST_FLAG", true));
    ck_assert_msg(!v && !*said, "%s", off[i]);
  }
  /* once only exactly "0" was off: "no", "2" and "maybe" turned things on */
  static const char *const bad[] = {"2", "maybe", "-1", "yess", " 1"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    setenv("DL_TEST_FLAG", bad[i], 1);
    CAPTURE(v = dli_env_flag("DL_TEST_FLAG", false));
    ck_assert_msg(!v, "%s", bad[i]);
    ck_assert_msg(lines(said) == 1 && strstr(said, "DL_TEST_FLAG") &&
                  strstr(said, "ignored"), "%s: said %s", bad[i], said);
  }
  unsetenv("DL_TEST_FLAG");
  CAPTURE(v = dli_env_flag("DL_TEST_FLAG", true));
  ck_assert(v && !*said);
  setenv("DL_TEST_FLAG", "", 1);                 /* empty: unset */
  CAPTURE(v = dli_env_flag("DL_TEST_FLAG", true));
  ck_assert(v && !*said);
}
END_TEST

START_TEST(bytes_and_ints)
{
  size_t b;
  ck_assert(dli_parse_bytes("0", &b) && b == 0);
  ck_assert(dli_parse_bytes("64K", &b) && b == 65536);
  ck_assert(dli_parse_bytes("3m", &b) && b == 3u << 20);
  ck_assert(dli_parse_bytes("1G\n", &b) && b == 1u << 30);
  ck_assert(!dli_parse_bytes("1.5M", &b) && !dli_parse_bytes("K", &b) &&
            !dli_parse_bytes("-1", &b) && !dli_parse_bytes("1T", &b) &&
            !dli_parse_bytes("18446744073709551615", &b));
  setenv("DL_TEST_BYTES", "8K", 1);
  CAPTURE(b = dli_env_bytes("DL_TEST_BYTES", 5, 1, 1 << 20));
  ck_assert(b == 8192 && !*said);
  setenv("DL_TEST_BYTES", "2M", 1);              /* over hi */
  CAPTURE(b = dli_env_bytes("DL_TEST_BYTES", 5, 1, 1 << 20));
  ck_assert(b == 5 && lines(said) == 1 && strstr(said, "DL_TEST_BYTES=2M"));
  setenv("DL_TEST_BYTES", "lots", 1);
  CAPTURE(b = dli_env_bytes("DL_TEST_BYTES", 5, 1, 1 << 20));
  ck_assert(b == 5 && lines(said) == 1);
  long n;
  setenv("DL_TEST_INT", "17", 1);
  CAPTURE(n = dli_env_int("DL_TEST_INT", 64, 0, 100));
  ck_assert(n == 17 && !*said);
  /* DL_JIT_THRESHOLD=abc once meant 0, compile at first use */
  static const char *const bad[] = {"abc", "12abc", "-3", "101", "99999999999999999999"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    setenv("DL_TEST_INT", bad[i], 1);
    CAPTURE(n = dli_env_int("DL_TEST_INT", 64, 0, 100));
    ck_assert_msg(n == 64 && lines(said) == 1 && strstr(said, "DL_TEST_INT"), "%s",
                  bad[i]);
  }
  unsetenv("DL_TEST_BYTES");
  unsetenv("DL_TEST_INT");
}
END_TEST

START_TEST(choices)
{
  static const char *const words[] = {"auto", "pack", "blocks", NULL};
  int c;
  setenv("DL_TEST_CHOICE", "blocks", 1);
  CAPTURE(c = dli_env_choice("DL_TEST_CHOICE", words, 0));
  ck_assert(c == 2 && !*said);
  setenv("DL_TEST_CHOICE", "bogus", 1);
  CAPTURE(c = dli_env_choice("DL_TEST_CHOICE", words, 0));
  ck_assert(c == 0 && lines(said) == 1 && strstr(said, "DL_TEST_CHOICE=bogus") &&
            strstr(said, "auto pack blocks"));
  setenv("DL_TEST_CHOICE", "Pack", 1);           /* exact words only */
  CAPTURE(c = dli_env_choice("DL_TEST_CHOICE", words, 1));
  ck_assert(c == 1 && lines(said) == 1);
  unsetenv("DL_TEST_CHOICE");
}
END_TEST

int main(void)
{
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, flags);
  tcase_add_test(tc, bytes_and_ints);
  tcase_add_test(tc, choices);
  return test_run("env", tc, false);
}
