/* Open MPI 4.1 (Debian 12's Open MPI): which of the deviations the
 * interposer works around it has. Only MPI_Pack and its kin are served on
 * Open MPI so far (doc/mpi.md, "Open MPI"): the deviations of the other
 * parts are kept as if it had them until those parts run on it and are
 * tried (each workaround is correct on a correct MPI). */
#include "host.h"

#define NOT_TRIED "not tried on Open MPI yet: the workaround is kept"

const dlp_host dlp_host_openmpi_4_1 = {
  .name = "Open MPI 4.1",
  .version_prefix = "Open MPI v4.1.",
  .why = {
    [DLP_DEV_ADDED_CODE_STRING] = NOT_TRIED,
    [DLP_DEV_PROC_NULL_STATUS] = NOT_TRIED,
    [DLP_DEV_COMPLETION_RAISES_ON_WORLD] = NOT_TRIED,
    [DLP_DEV_GREQUEST_FREED_EARLY] = NOT_TRIED,
    [DLP_DEV_ENGINE_STRADDLE] = NOT_TRIED,
    [DLP_DEV_RMA_DERIVED_EARLY] = NOT_TRIED,
    [DLP_DEV_RMA_NO_RANGE_CHECK] = NOT_TRIED,
    [DLP_DEV_SHARED_WINDOW_SLOW_COPY] = NOT_TRIED,
    [DLP_DEV_COMPLETE_EARLY_GET] = NOT_TRIED,
    [DLP_DEV_GET_ACC_UNALIGNED] = NOT_TRIED,
    [DLP_DEV_FLUSH_ALL_EARLY_GET] = NOT_TRIED,
    [DLP_DEV_FLUSH_LOCAL_EARLY_GET] = NOT_TRIED,
    [DLP_DEV_COLL_IN_PLACE_STAGED] = NOT_TRIED,
    [DLP_DEV_COLL_PERSIST_DERIVED] = NOT_TRIED,
    [DLP_DEV_COLL_PERSIST_READ_AT_INIT] = NOT_TRIED,
    [DLP_DEV_ALLGATHERV_ONE_RANK] = NOT_TRIED,
    /* DLP_DEV_SHORT_BUFFER_SUCCEEDS: no; a packed buffer too short is
       MPI_ERR_TRUNCATE with nothing moved and the position as it was */
  },
};
