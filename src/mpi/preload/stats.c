/* What the interposer handled: counts of its own packs, unpacks and
 * derived-type messages, for tests (dl_preload_counts) and for runs of
 * unmodified programs (DL_STATS_FILE: a line per rank at MPI_Finalize or
 * MPI_Abort, which are intercepted for that alone). */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "preload.h"

static _Atomic unsigned long long counts[DLP_N_COUNTS];

void dlp_count(int what)
{
  atomic_fetch_add_explicit(&counts[what], 1, memory_order_relaxed);
}

__attribute__((visibility("default"))) int dl_preload_counts(unsigned long long *out,
                                                              int n)
{
  for (int i = 0; i < n && i < DLP_N_COUNTS; i++)
    out[i] = atomic_load_explicit(&counts[i], memory_order_relaxed);
  return DLP_N_COUNTS;
}

/* one write with O_APPEND, so ranks sharing the file never mix lines */
void dlp_stats_write(void)
{
  const char *path = getenv("DL_STATS_FILE");
  if (!path || !*path)
    return;
  unsigned long long c[DLP_N_COUNTS];
  dl_preload_counts(c, DLP_N_COUNTS);
  unsigned long long r[2 * DLP_NROUTES];
  dl_preload_routes(r, 2 * DLP_NROUTES);
  char line[512];
  int n = snprintf(line, sizeof(line),
                   "dataloop-preload pid=%d pack=%llu unpack=%llu send=%llu recv=%llu",
                   (int)getpid(), c[DLP_N_PACK], c[DLP_N_UNPACK], c[DLP_N_SEND],
                   c[DLP_N_RECV]);
  for (int i = 0; i < DLP_NROUTES; i++)   /* messages sent by each route */
    n += snprintf(line + n, sizeof(line) - (size_t)n, " via_%s=%llu",
                  dlp_route_name(i), r[2 * i]);
  n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  if (write(fd, line, (size_t)n) != n)
    dlp_trace("DL_STATS_FILE %s: short write", path);
  close(fd);
}

int MPI_Finalize(void)
{
  dlp_stats_write();
  return PMPI_Finalize();
}

/* ranks that end in MPI_Abort (BLACS's tester does) never finalize */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
  dlp_stats_write();
  return PMPI_Abort(comm, errorcode);
}
