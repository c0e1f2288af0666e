/* Tunables: ROMIO-like defaults, overridden once from the environment.
 * The only process-wide state of the I/O layer, written inside
 * pthread_once and read-only afterwards. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>
#include "io.h"
#include "../tune/tune.h"
#include "../../dataloop/env.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)
#define SIEVE_CAP (1024 * MIB)   /* no sieve or stage buffer beyond 1 GiB */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static dli_io_limits defaults;

static void load(void)
{
  long iovmax = sysconf(_SC_IOV_MAX);
  size_t batch = dli_tune()->list_batch;     /* DL_LIST_BATCH */
  defaults = (dli_io_limits){
    .list_max = batch,
    .iov_max = batch,
    .sys_iov_max = iovmax > 0 ? (size_t)iovmax : 16,   /* POSIX minimum */
    .sieve_read = 4 * MIB,       /* ROMIO's ind_rd_buffer_size */
    .sieve_write = 512 * KIB,    /* ROMIO's ind_wr_buffer_size */
    .stage = 4 * MIB,
    .gap_read = 4 * KIB,        /* a hole costs a copy per byte, a call far more */
    .gap_write = 32 * KIB,      /* writes pay a lock and a costlier call */
    .piece_max = 16 * KIB,
    .mem_piece_min = 2 * KIB,
  };
  defaults.sieve_read = dli_env_bytes("DL_IO_SIEVE_READ_BYTES", defaults.sieve_read,
                                      0, SIEVE_CAP);
  defaults.sieve_write = dli_env_bytes("DL_IO_SIEVE_WRITE_BYTES", defaults.sieve_write,
                                       0, SIEVE_CAP);
  if (!dli_env_flag("DL_IO_SIEVE", true))
    defaults.sieve_read = defaults.sieve_write = 0;
  /* a sieved group is packed through the stage buffer in one piece */
  if (defaults.stage < defaults.sieve_read)
    defaults.stage = defaults.sieve_read;
  if (defaults.stage < defaults.sieve_write)
    defaults.stage = defaults.sieve_write;
}

const dli_io_limits *dli_io_defaults(void)
{
  pthread_once(&once, load);
  return &defaults;
}
