/* The version three ways (the header's DL_VERSION_* macros, configure's
 * PACKAGE_VERSION from AC_INIT, the library's dl_version()) must agree. */
#include <config.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dataloop.h"
#include "runner.h"

/* the macros must work in #if, where a release test would use them */
#if !(DL_VERSION_MAJOR >= 0 && DL_VERSION_MINOR >= 0 && DL_VERSION_PATCH >= 0)
#error "DL_VERSION_* are not non-negative integer constants"
#endif

START_TEST(macros_match_configure)
{
  int major = -1, minor = -1, patch = -1, used = 0;
  ck_assert_int_eq(sscanf(PACKAGE_VERSION, "%d.%d.%d%n", &major, &minor,
                          &patch, &used), 3);
  ck_assert_msg(PACKAGE_VERSION[used] == '\0',
                "PACKAGE_VERSION \"%s\" is not MAJOR.MINOR.PATCH",
                PACKAGE_VERSION);
  ck_assert_int_eq(DL_VERSION_MAJOR, major);
  ck_assert_int_eq(DL_VERSION_MINOR, minor);
  ck_assert_int_eq(DL_VERSION_PATCH, patch);
  char s[64];
  snprintf(s, sizeof s, "%d.%d.%d", DL_VERSION_MAJOR, DL_VERSION_MINOR,
           DL_VERSION_PATCH);
  ck_assert_str_eq(s, PACKAGE_VERSION);
}
END_TEST

START_TEST(library_matches_configure)
{
  const char *v = dl_version();
  ck_assert_ptr_nonnull(v);
  ck_assert_str_eq(v, PACKAGE_VERSION);
  ck_assert_str_eq(dl_version(), v);
}
END_TEST

int main(void)
{
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, macros_match_configure);
  tcase_add_test(tc, library_matches_configure);
  return test_run("version", tc, false);
}
