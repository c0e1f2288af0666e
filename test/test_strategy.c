/* The interposer's timed choice between packing a message and sending its
 * blocks as they lie (src/mpi/preload/strategy.c): which sends try the other
 * kind, when a plan switches and back, and which plans are never timed.
 * Send durations are the test's own numbers, fed to the plan as a blocking
 * send would report them; no message moves. Single-process MPI (singleton
 * init): the plans hold MPI hindexed types. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "preload.h"

enum { KIB = 1024 };

static char *mem;

/* a message of n blocks of b bytes, every other block of 2 n b */
static MPI_Datatype blocks_of(MPI_Count n, MPI_Count b)
{
  MPI_Datatype t;
  ck_assert_int_eq(MPI_Type_create_hvector_c(n, b, 2 * b, MPI_BYTE, &t), MPI_SUCCESS);
  ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
  return t;
}

/* a timed send of (count, t) whose kind takes pack_s or blocks_s seconds;
   returns the kind it used */
static int send_taking(MPI_Count count, MPI_Datatype t, double pack_s, double blocks_s)
{
  dlp_data d;
  ck_assert_int_eq(dlp_data_get(mem, count, t, &d), MPI_SUCCESS);
  dlp_plan_timed(&d);
  int kind = d.strategy;
  ck_assert_msg(kind == DLP_S_PACK || kind == DLP_S_BLOCKS, "kind %d", kind);
  if (kind == DLP_S_BLOCKS)
    ck_assert_int_ne(d.blocks, MPI_DATATYPE_NULL);
  dlp_plan_timed_done(&d, kind == DLP_S_PACK ? pack_s : blocks_s);
  ck_assert_ptr_null(d.plan);
  return kind;
}

/* what a receive (or any untimed use) of (count, t) would do now */
static int kept(MPI_Count count, MPI_Datatype t)
{
  dlp_data d;
  ck_assert_int_eq(dlp_data_get(mem, count, t, &d), MPI_SUCCESS);
  dlp_plan(&d, false);
  int kind = d.strategy;
  dlp_plan_done(&d);
  return kind;
}

static void setup(void)
{
  dlp_configure(false, 0);
  dlp_configure_strategy(-1);
  dlp_configure_adapt(true);
}

/* packing chosen by the threshold; blocks measured twice as fast: the 5th
   send (the first kept try of blocks) switches the plan, receives follow,
   and every 32nd send tries packing again; when blocks become slow,
   the next try of packing switches back */
START_TEST(switches_and_back)
{
  setup();
  MPI_Datatype t = blocks_of(32, 64 * KIB);   /* 2 MiB in 64 KiB blocks */
  for (int k = 1; k <= 3; k++)
    ck_assert_int_eq(send_taking(1, t, 0.010, 0.005), DLP_S_PACK);
  ck_assert_int_eq(send_taking(1, t, 0.010, 0.005), DLP_S_BLOCKS);  /* warm-up try */
  ck_assert_int_eq(kept(1, t), DLP_S_PACK);
  ck_assert_int_eq(send_taking(1, t, 0.010, 0.005), DLP_S_BLOCKS);  /* kept try */
  ck_assert_int_eq(kept(1, t), DLP_S_BLOCKS);
  for (int k = 6; k < 32; k++)
    ck_assert_int_eq(send_taking(1, t, 0.010, 0.005), DLP_S_BLOCKS);
  ck_assert_int_eq(send_taking(1, t, 0.010, 0.005), DLP_S_PACK);    /* 32nd: a try */
  ck_assert_int_eq(kept(1, t), DLP_S_BLOCKS);                         /* 10 ms lost */
  /* the transport slows down the blocks */
  for (int k = 33; k < 64; k++)
    ck_assert_int_eq(send_taking(1, t, 0.010, 0.030), DLP_S_BLOCKS);
  ck_assert_int_eq(send_taking(1, t, 0.010, 0.030), DLP_S_PACK);    /* 64th */
  ck_assert_int_eq(kept(1, t), DLP_S_PACK);
  ck_assert_int_eq(send_taking(1, t, 0.010, 0.030), DLP_S_PACK);
  MPI_Type_free(&t);
}
END_TEST

/* blocks as fast as the threshold said: a try that gains less than 8% over
   every recent send of the kept kind changes nothing */
START_TEST(small_gains_keep_the_choice)
{
  setup();
  MPI_Datatype t = blocks_of(64, 16 * KIB);
  int kinds[2] = {0, 0};
  for (int k = 1; k <= 100; k++)
    kinds[send_taking(1, t, 0.0100, 0.0095) == DLP_S_BLOCKS]++;
  ck_assert_int_eq(kept(1, t), DLP_S_PACK);
  ck_assert_int_eq(kinds[1], 2 + 100 / 32);        /* the 4th, 5th, 32nd, 64th, 96th */
  /* a single slow send of the kept kind does not make a try win: it must
     beat every recent one */
  MPI_Datatype u = blocks_of(64, 16 * KIB + 8);
  for (int k = 1; k <= 5; k++)
    send_taking(1, u, k == 2 ? 0.050 : 0.010, 0.0098);
  ck_assert_int_eq(kept(1, u), DLP_S_PACK);
  /* while a try that does beat them all switches */
  MPI_Datatype v = blocks_of(64, 16 * KIB + 16);
  for (int k = 1; k <= 5; k++)
    send_taking(1, v, k == 2 ? 0.050 : 0.010, 0.0090);
  ck_assert_int_eq(kept(1, v), DLP_S_BLOCKS);
  MPI_Type_free(&v);
  MPI_Type_free(&t);
  MPI_Type_free(&u);
}
END_TEST

/* never timed: messages under 64 KiB, blocks under 256 bytes on average,
   forced strategies, DL_ADAPT=0 */
START_TEST(untimed_plans_never_try)
{
  setup();
  MPI_Datatype small = blocks_of(8, 4 * KIB);        /* 32 KiB */
  MPI_Datatype tiny = blocks_of(4096, 128);           /* 512 KiB in 128 B */
  MPI_Datatype big = blocks_of(16, 64 * KIB);
  for (int k = 1; k <= 70; k++) {
    ck_assert_int_eq(send_taking(1, small, 0.010, 0.001), kept(1, small));
    ck_assert_int_eq(send_taking(1, tiny, 0.010, 0.001), DLP_S_PACK);
  }
  dlp_configure_strategy(DLP_S_PACK);
  for (int k = 1; k <= 70; k++)
    ck_assert_int_eq(send_taking(1, big, 0.010, 0.001), DLP_S_PACK);
  dlp_configure_strategy(DLP_S_BLOCKS);
  for (int k = 1; k <= 70; k++)
    ck_assert_int_eq(send_taking(1, big, 0.001, 0.010), DLP_S_BLOCKS);
  dlp_configure_strategy(-1);
  dlp_configure_adapt(false);
  for (int k = 1; k <= 70; k++)
    ck_assert_int_eq(send_taking(2, big, 0.010, 0.001), DLP_S_PACK);
  dlp_configure_adapt(true);
  MPI_Type_free(&small);
  MPI_Type_free(&tiny);
  MPI_Type_free(&big);
}
END_TEST

/* failed sends (negative durations) teach nothing */
START_TEST(failures_are_not_times)
{
  setup();
  MPI_Datatype t = blocks_of(32, 32 * KIB);
  for (int k = 1; k <= 40; k++)
    send_taking(1, t, 0.010, -1.0);
  ck_assert_int_eq(kept(1, t), DLP_S_PACK);
  MPI_Type_free(&t);
}
END_TEST

int main(int argc, char **argv)
{
  /* the threshold alone would always pack these messages */
  setenv("DL_DIRECT_BLOCK", "1G", 1);
  unsetenv("DL_STRATEGY");
  unsetenv("DL_ADAPT");
  MPI_Init(&argc, &argv);
  mem = calloc(1, 16 << 20);
  Suite *s = suite_create("strategy");
  TCase *tc = tcase_create("timed");
  tcase_add_test(tc, switches_and_back);
  tcase_add_test(tc, small_gains_keep_the_choice);
  tcase_add_test(tc, untimed_plans_never_try);
  tcase_add_test(tc, failures_are_not_times);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);   /* MPI lives in this process */
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  dlp_plans_free();
  free(mem);
  MPI_Finalize();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
