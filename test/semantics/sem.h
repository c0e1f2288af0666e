/* The semantics suite's shared checks: each program states one guarantee
 * of the MPI standard and checks it on two ranks, plainly or under the
 * interposer (test/semantics.sh runs every mode). A failed check prints
 * the rank, the line and what differed; the program exits 1 if any did. */
#ifndef SEM_H
#define SEM_H
#include <dlfcn.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sem_rank, sem_failures;

static void sem_fail(int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "rank %d, line %d: ", sem_rank, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  sem_failures++;
}
#define CHECK(cond, ...)                     \
  do {                                       \
    if (!(cond))                             \
      sem_fail(__LINE__, __VA_ARGS__);       \
  } while (0)
#define OK(call)                                                         \
  do {                                                                   \
    int ok_rc_ = (call);                                                 \
    CHECK(ok_rc_ == MPI_SUCCESS, "%s: error class %d", #call,            \
          sem_class(ok_rc_));                                            \
  } while (0)

static int sem_class(int code)
{
  int c = -1;
  MPI_Error_class(code, &c);
  return c;
}

/* MPI_Init, two ranks or more, the rank in sem_rank; the interposer
   loaded where DL_EXPECT_PRELOAD=1 says it must be */
static void sem_init(int *argc, char ***argv)
{
  /* a preloaded mode whose interposer did not load would pass as plain */
  const char *expect = getenv("DL_EXPECT_PRELOAD");
  if (expect && *expect == '1' && !dlsym(RTLD_DEFAULT, "dl_preload_counts")) {
    fprintf(stderr, "DL_EXPECT_PRELOAD=1, but the interposer is not loaded\n");
    exit(2);
  }
  int size;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &sem_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "needs two ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/* every rank's verdict; returns the exit status */
static int sem_finish(const char *name)
{
  int all = 0;
  MPI_Allreduce(&sem_failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (sem_rank == 0)
    printf("%s: %s\n", name, all ? "FAILED" : "all passed");
  MPI_Finalize();
  return all ? 1 : 0;
}
#endif
