/* The Check programs' common main: the random seed and the suite run. */
#ifndef DL_TEST_RUNNER_H
#define DL_TEST_RUNNER_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* whether the program runs under Valgrind (where x87 long doubles are
   computed at double precision and every call is slow: the tests that
   care draw fewer cases or skip what it changes) */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND (RUNNING_ON_VALGRIND != 0)
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND false
#endif

/* DL_TEST_SEED, else the clock; printed so that a failing run can be
 * repeated. what, if not NULL, is appended to the line. */
static inline uint64_t test_seed(const char *what)
{
  const char *e = getenv("DL_TEST_SEED");
  uint64_t seed = e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL);
  fprintf(stderr, "random seed: %llu (set DL_TEST_SEED to repeat)%s%s\n",
          (unsigned long long)seed, what ? "; " : "", what ? what : "");
  return seed;
}

/* Runs tc as the suite's one case: in this process when in_process (its
 * tests use the process's MPI), else as CK_FORK says (forked by default).
 * EXIT_FAILURE on any failure, for make check. */
static inline int test_run(const char *suite, TCase *tc, bool in_process)
{
  tcase_set_timeout(tc, 600);   /* a loaded machine: never Check's 4 s */
  Suite *su = suite_create(suite);
  suite_add_tcase(su, tc);
  SRunner *sr = srunner_create(su);
  if (in_process)
    srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
