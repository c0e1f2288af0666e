/* Which ranks of a job carry the interposer. A window's set-up is
 * collective beyond the user's call (window.c: every rank's size and unit,
 * the landing state, MPI_Win_allocate made shared), and a rank without the
 * interposer never joins it: the preloaded rank would wait forever. Asking
 * the peer is no way out, since a plain rank answers nothing, and a message
 * on the user's communicator is one the program could receive. So every
 * preloaded process says it is here without a word to anyone: at load,
 * before main and so before MPI_Init, it binds a Linux abstract socket
 * named for the job on this node (its launcher's process id, which every
 * local rank of one job shares) and its rank in MPI_COMM_WORLD (the
 * launcher's PMI_RANK under MPICH's Hydra, OMPI_COMM_WORLD_RANK under
 * Open MPI's mpirun). The kernel removes the name when the process ends.
 *
 * A window's communicator is served only when every one of its ranks is
 * found so. Every rank then answers the same: each answers yes exactly
 * when every rank bound its name under one job key, and every rank was
 * loaded before any of them could reach a window on a communicator with
 * it. A rank on another node, or of another MPI_COMM_WORLD, is not found,
 * so a window spanning nodes is MPICH's alone unless DL_RMA_PEERS=all
 * says that every rank is preloaded (doc/mpi.md). */
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "window.h"

/* set once, at load, before any thread of the program exists */
static int here = -1;        /* the bound socket, or -1: not announced */
static long job = -1;        /* the job key: the launcher's process id */

static socklen_t name_of(struct sockaddr_un *a, long key, long rank)
{
  memset(a, 0, sizeof(*a));
  a->sun_family = AF_UNIX;
  /* sun_path[0] stays 0: the abstract namespace, no file */
  int n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "dataloop-preload.%ld.%ld.%ld",
                   (long)getuid(), key, rank);
  return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

__attribute__((constructor)) static void announce(void)
{
  const char *r = getenv("PMI_RANK");
  if (!r)
    r = getenv("OMPI_COMM_WORLD_RANK");
  char *end = NULL;
  long rank = r ? strtol(r, &end, 10) : -1;
  if (!r || !*r || *end || rank < 0)
    return;                  /* no launcher rank: found by nobody */
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return;
  struct sockaddr_un a;
  long key = (long)getppid();
  if (bind(fd, (struct sockaddr *)&a, name_of(&a, key, rank)) != 0) {
    close(fd);
    return;
  }
  here = fd;
  job = key;
}

/* whether a process of this job announced world rank r on this node */
static bool found(int probe, long r)
{
  struct sockaddr_un a;
  socklen_t n = name_of(&a, job, r);
  return connect(probe, (struct sockaddr *)&a, n) == 0;
}

bool dlp_all_preloaded(MPI_Comm comm)
{
  int setting = dlp_cfg()->peers;
  if (setting != DLP_PEERS_CHECK)
    return setting == DLP_PEERS_ALL;
  int n = 0, inter = 1;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
      PMPI_Comm_size(comm, &n) != MPI_SUCCESS)
    return false;
  if (n == 1)
    return true;             /* no other rank to wait for (a singleton too) */
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  if (here < 0 || PMPI_Comm_group(comm, &group) != MPI_SUCCESS)
    return false;
  int *ranks = NULL, *in_world = NULL, probe = -1;
  bool all = PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS &&
             (ranks = malloc(2 * (size_t)n * sizeof(int))) != NULL;
  if (all) {
    in_world = ranks + n;
    for (int i = 0; i < n; i++)
      ranks[i] = i;
    all = PMPI_Group_translate_ranks(group, n, ranks, world, in_world) == MPI_SUCCESS &&
          (probe = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0;
  }
  /* an undefined rank (another MPI_COMM_WORLD's) is never found */
  for (int i = 0; all && i < n; i++)
    all = in_world[i] >= 0 && found(probe, in_world[i]);
  if (probe >= 0)
    close(probe);
  free(ranks);
  if (world != MPI_GROUP_NULL)
    PMPI_Group_free(&world);
  PMPI_Group_free(&group);
  return all;
}
