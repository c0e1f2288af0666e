/* What a run of an unmodified program reports (DL_STATS_FILE: a line per
 * rank at MPI_Finalize or MPI_Abort, which are intercepted for that
 * alone), and the one-sided counts with the fences' shared-memory
 * exchanges: the top of the interposer, which reads every part's counts. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "preload.h"

/* exported: one-sided operations (as origin) each route carried, then
   fences that exchanged their counts through shared memory */
__attribute__((visibility("default"))) int dl_preload_rma_routes(unsigned long long *out,
                                                                 int n)
{
  dlp_rma_counted(out, n);       /* the routes', then the shared fences */
  return DLP_RMA_NCOUNTS + 1;
}

/* one write with O_APPEND, so ranks sharing the file never mix lines */
static void stats_write(void)
{
  const char *path = getenv("DL_STATS_FILE");
  if (!path || !*path)
    return;
  unsigned long long c[DLP_N_COUNTS];
  dl_preload_counts(c, DLP_N_COUNTS);
  unsigned long long r[2 * DLP_NROUTES], o[DLP_NROUTES + 4] = {0}, rma = 0;
  dl_preload_routes(r, 2 * DLP_NROUTES);
  /* one-sided operations the interposer handled: those of each origin
     route, landed and mapped (entry DLP_NROUTES counts some of them again,
     the last one fences) */
  int no = dl_preload_rma_routes(o, DLP_NROUTES + 4);
  for (int i = 0; i < no - 1 && i < DLP_NROUTES + 3; i++)
    rma += i == DLP_NROUTES ? 0 : o[i];
  char line[512];
  int n = snprintf(line, sizeof(line),
                   "dataloop-preload pid=%d pack=%llu unpack=%llu send=%llu recv=%llu "
                   "long=%llu rma=%llu coll=%llu deferred=%llu",
                   (int)getpid(), c[DLP_N_PACK], c[DLP_N_UNPACK], c[DLP_N_SEND],
                   c[DLP_N_RECV], c[DLP_N_LONG], rma, c[DLP_N_COLL],
                   c[DLP_N_DEFERRED]);
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
  stats_write();
  return PMPI_Finalize();
}

/* ranks that end in MPI_Abort (BLACS's tester does) never finalize */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
  stats_write();
  return PMPI_Abort(comm, errorcode);
}
