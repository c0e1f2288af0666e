/* Open MPI 4.1 (Debian 12's Open MPI): which of the deviations the
 * interposer works around it has. MPI_Pack and its kin, point-to-point,
 * one-sided calls and collectives are served on Open MPI (doc/mpi.md,
 * "Open MPI"); a deviation not yet tried there is kept as if it had it
 * (each workaround is correct on a correct MPI). */
#include "host.h"
#include "thresholds.h"

#define NOT_TRIED "not tried on Open MPI yet: the workaround is kept"

/* its one-sided operations onto a derived target type cost what
   contiguous ones do (its engine walks the type where the data lands: no
   overhead of MPICH's 150 us to ship it), and a landing's message about
   2 us more than a put: dataloop-tune-openmpi's fit (doc/rma.md says
   where and when). MPICH's figures would have fences land where Open MPI's
   own put is twice as fast */
static const dlp_rma_model openmpi_4_1_rma = {
  .put = {0, 48, 0.082, 0, 0.256, 0.6},
  .get = {0, 40, 0.089, 0, 0.160, 2.2},
  .land_L = 2200, .land_G = 0.0625, .land_set = true,
  .from = "Open MPI 4.1's",
};

const dlp_host dlp_host_openmpi_4_1 = {
  .name = "Open MPI 4.1",
  .version_prefix = "Open MPI v4.1.",
  .why = {
    [DLP_DEV_ADDED_CODE_STRING] = NOT_TRIED,
    [DLP_DEV_PROC_NULL_STATUS] = NOT_TRIED,
    [DLP_DEV_COMPLETION_RAISES_ON_WORLD] = NOT_TRIED,
    [DLP_DEV_ENGINE_STRADDLE] = NOT_TRIED,
    [DLP_DEV_RMA_DERIVED_EARLY] = NOT_TRIED,
    [DLP_DEV_RMA_NO_RANGE_CHECK] =
      "its sm component (windows of MPI_Win_allocate_shared) checks no "
      "target range and writes past the target's segment: the interposer "
      "checks every operation (its rdma component does check)",
    [DLP_DEV_SHARED_WINDOW_SLOW_COPY] = NOT_TRIED,
    [DLP_DEV_COMPLETE_EARLY_GET] = NOT_TRIED,
    [DLP_DEV_GET_ACC_UNALIGNED] = NOT_TRIED,
    [DLP_DEV_FLUSH_ALL_EARLY_GET] = NOT_TRIED,
    [DLP_DEV_FLUSH_LOCAL_EARLY_GET] = NOT_TRIED,
    [DLP_DEV_COLL_IN_PLACE_STAGED] = NOT_TRIED,
    [DLP_DEV_COLL_PERSIST_DERIVED] = NOT_TRIED,
    [DLP_DEV_COLL_PERSIST_READ_AT_INIT] = NOT_TRIED,
    [DLP_DEV_ALLGATHERV_ONE_RANK] = NOT_TRIED,
    [DLP_DEV_ALLOCATE_UNLIKE_SHARED] =
      "MPI_Win_allocate's windows of several processes are its rdma "
      "component's and MPI_Win_allocate_shared's its sm component's, "
      "whose info keys and checks differ: MPI_Win_allocate windows stay "
      "Open MPI's, unmapped",
    [DLP_DEV_TRUNCATE_OVERRUNS] =
      "a receive into contiguous memory of a message longer than the buffer, "
      "moved by its rendezvous get (past the transport's eager limit), writes "
      "the whole message past the buffer's end: staging receives skip a byte "
      "of their room",
    /* DLP_DEV_GREQUEST_FREED_EARLY: no; the free function is called once
       the handle is both freed and complete */
    /* DLP_DEV_SHORT_BUFFER_SUCCEEDS: no; a packed buffer too short is
       MPI_ERR_TRUNCATE with nothing moved and the position as it was */
    /* DLP_DEV_EXTERNAL_COMPLEX_SWAPPED: no; every complex type is two
       reals in external32, as the standard has it */
  },
  .rma = &openmpi_4_1_rma,
};
