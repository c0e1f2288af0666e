/* Open MPI 4.1 (Debian 12's Open MPI): which of the deviations the
 * interposer works around it has. MPI_Pack and its kin, point-to-point,
 * one-sided calls and collectives are served on Open MPI (doc/mpi.md,
 * "Open MPI"); a deviation not yet tried there is kept as if it had it
 * (each workaround is correct on a correct MPI). */
#include "host.h"

#define NOT_TRIED "not tried on Open MPI yet: the workaround is kept"

/* what its calls cost where no tuning file says (doc/mpi.md, "Open MPI";
   doc/rma.md has where each figure comes from):
   - its engine moves a noncontiguous message through shared memory in
     fragments, the sender packing one while the receiver unpacks the one
     before: where every block is a miss on both sides (faces of single
     doubles of a large cube) that beats packing whole, which cannot
     overlap the two (sparse_span);
   - large blocks it sends as they lie at memory speed, where a packed
     message of many MiB goes by its single-copy mechanism, slower
     (direct_block);
   - the same pipeline beats packing whole on layouts walked in one
     rising sweep, from blocks of 16 bytes in messages of 1 MiB, of 8 in
     8 MiB, of 256 in 128 KiB (dataloop-tune-openmpi's route table, its
     engine and the blocks route alike where they tie: route@); the
     pipeline mode's streams overlap the two sides as well, packing
     faster than its engine does, so they keep blocks below 64 KiB
     (stream@);
   - one-sided operations onto a derived target type cost about what
     contiguous ones do, as its engine walks the type where the data
     lands (MPICH ships the type first), and a landing's message a little
     more than a put: dataloop-tune-openmpi's fit, a block of a target
     type at what a vector's block costs. Irregular layouts pay more a
     block for their misses, but a figure that covers them priced halo
     rows, which its engine moves faster than a landing, out of its
     reach */
static const char tuning[] =
  "sparse_span 16\n"
  "direct_block 64K\n"
  "route@128K 8:pack 16:pack 32:pack 64:pack 256:mpich 1K:mpich 4K:mpich 16K:mpich\n"
  "route@1M 8:pack 16:mpich 64:mpich 256:mpich 4K:mpich 16K:mpich 64K:blocks\n"
  "route@8M 8:mpich 64:mpich 1K:mpich 16K:mpich 64K:blocks 1M:blocks\n"
  "route@32M 32:mpich 1K:mpich 16K:mpich 64K:blocks 4M:blocks\n"
  "stream@1M 8:pack 32K:pack 64K:blocks\n"
  "rma_put 0 48 0.082 0 0.15 2\n"
  "rma_get 0 40 0.089 0 0.15 2\n"
  "rma_land 2200 0.0625\n";

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
  .tuning = tuning,
};
