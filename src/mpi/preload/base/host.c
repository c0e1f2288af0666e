/* Which host MPI the interposer runs on (MPI_Get_library_version, which
 * MPI allows at any time), and so which deviations it works around. */
#include <pthread.h>
#include <string.h>
#include "base.h"
#include "host.h"

static const dlp_host *const known[] = {&dlp_host_mpich_4_0_2, &dlp_host_openmpi_4_1};
static const dlp_host *host;     /* NULL: no file, every deviation */
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void find(void)
{
  char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0;
  if (PMPI_Get_library_version(v, &len) != MPI_SUCCESS)
    return;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strncmp(v, known[i]->version_prefix, strlen(known[i]->version_prefix)) == 0)
      host = known[i];
}

bool dlp_host_has(dlp_deviation d)
{
  pthread_once(&found, find);
  return !host || host->why[d] != NULL;
}

const char *dlp_host_name(void)
{
  pthread_once(&found, find);
  return host ? host->name : NULL;
}

const char *dlp_host_tuning(void)
{
  pthread_once(&found, find);
  return host ? host->tuning : NULL;
}
