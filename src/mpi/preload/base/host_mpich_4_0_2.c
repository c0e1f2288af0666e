/* MPICH 4.0.2 (Debian 12's MPICH): what it does that the interposer works
 * around, deviation by deviation (host.h names them; the code that works
 * around each says so). Pinned by tests that fail once MPICH is fixed
 * where the doc says so (doc/mpi.md). */
#include "host.h"

/* what its calls cost where no tuning file says (doc/mpi.md, "A host's
   figures"): dataloop-tune's route and fan-out tables of this host, the
   medians of five runs. Its engine moves small blocks slowly but for
   types of small fan-out (a struct resized, a vector of a few blocks),
   and blocks from 256 bytes on at memory speed either as the user's type
   or as an hindexed type of them, where packing them into one message
   copies every byte twice more */
static const char tuning[] =
  "route@128K 8:pack 16:pack 32:pack 64:pack 256:mpich 1K:mpich 4K:mpich 16K:mpich\n"
  "route@1M 8:pack 64:pack 256:mpich 1K:blocks 4K:mpich 16K:blocks 64K:blocks\n"
  "route@8M 8:pack 32:pack 64:mpich 16K:mpich 64K:mpich 256K:blocks 1M:mpich\n"
  "route@32M 32:mpich 1K:mpich 4K:blocks 16K:mpich 64K:blocks 256K:mpich 4M:mpich\n"
  "mpich@128K 8:8 16:8 32:1 64:1 256:64 1K:0 4K:0 16K:8\n"
  "mpich@1M 8:64 64:64 256:1 1K:0 4K:64 16K:0 64K:0\n"
  "mpich@8M 8:64 32:64 64:512 256:8 1K:0 1M:0\n"
  "mpich@32M 32:64 64:4096 256:8 1K:1 4K:0 16K:1 64K:0 256K:0 1M:1 4M:0\n";

const dlp_host dlp_host_mpich_4_0_2 = {
  .name = "MPICH 4.0.2",
  .version_prefix = "MPICH Version:\t4.0.2\n",
  .why = {
    [DLP_DEV_ADDED_CODE_STRING] =
      "MPI_Error_string garbles the string of a code added to a predefined "
      "class: each message of the interposer gets a class of its own",
    [DLP_DEV_PROC_NULL_STATUS] =
      "MPI_Irecv from MPI_PROC_NULL completes with source 0 and tag 0: a null "
      "peer's side of a sendrecv is MPICH's blocking call",
    [DLP_DEV_COMPLETION_RAISES_ON_WORLD] =
      "completion calls raise errors through MPI_COMM_WORLD's handler, not "
      "the request's communicator: the interposer's own completion errors "
      "follow the same rule",
    [DLP_DEV_GREQUEST_FREED_EARLY] =
      "a generalized request's free function is called as soon as the program "
      "frees the handle, complete or not: the operation becomes an orphan",
    [DLP_DEV_ENGINE_STRADDLE] =
      "its engine fails receives of elements that straddle its fragments, and "
      "misplaces some types: it receives only the types it receives whole",
    [DLP_DEV_RMA_DERIVED_EARLY] =
      "the request of a one-sided operation on a derived target type completes "
      "before its data moved: such a request is completed by a flush",
    [DLP_DEV_RMA_NO_RANGE_CHECK] =
      "no target range is checked: the interposer checks every operation "
      "(MPI_ERR_RMA_RANGE)",
    [DLP_DEV_SHARED_WINDOW_SLOW_COPY] =
      "large moves on a shared window run far below memory speed: "
      "dense data into mapped memory is copied by the interposer",
    [DLP_DEV_COMPLETE_EARLY_GET] =
      "MPI_Win_complete can return before contiguous gets that followed "
      "accumulates have arrived: such a get goes as a get-accumulate",
    [DLP_DEV_GET_ACC_UNALIGNED] =
      "get-accumulates fail on one-block types addressing a target block "
      "that does not begin at a multiple of the unit: those take another route",
    [DLP_DEV_FLUSH_ALL_EARLY_GET] =
      "MPI_Win_flush_all can return before a get that followed many "
      "get-accumulates to one target has arrived: each target is flushed",
    [DLP_DEV_FLUSH_LOCAL_EARLY_GET] =
      "a get completes locally before its data arrived when a put to the "
      "same target follows: local completion is done as remote completion",
    [DLP_DEV_COLL_IN_PLACE_STAGED] =
      "nonblocking all-to-all collectives in place fail on derived types and "
      "on their staged bytes, persistent gathers to all in place on staged "
      "bytes: those, and every persistent collective in place, go to MPICH "
      "as made",
    [DLP_DEV_COLL_PERSIST_DERIVED] =
      "persistent collectives drop a reference of a derived type too many "
      "(assertions, crashes): every derived slot is staged, dense ones too",
    [DLP_DEV_COLL_PERSIST_READ_AT_INIT] =
      "persistent gathers read the send buffer when made, not at each start: "
      "the staging is packed when made too, so the bytes are those MPICH sends",
    [DLP_DEV_ALLGATHERV_ONE_RANK] =
      "MPI_Allgatherv and MPI_Iallgatherv on a communicator of one rank put "
      "the data at the receive buffer's start, whatever its displacement: "
      "those go to MPICH as made",
    [DLP_DEV_SHORT_BUFFER_SUCCEEDS] =
      "MPI_Pack and MPI_Pack_external on a packed buffer too short write past "
      "its end, MPI_Unpack moves what the buffer holds, and all return "
      "MPI_SUCCESS: the interposer moves what fits and returns MPI_ERR_TRUNCATE",
    [DLP_DEV_EXTERNAL_COMPLEX_SWAPPED] =
      "external32 of MPI_COMPLEX and MPI_DOUBLE_COMPLEX (and the f90 complex "
      "types) is one big-endian unit, the imaginary part first, where the "
      "standard has two reals: a type holding one is packed by MPICH, so its "
      "bytes are those a plain rank writes and reads",
    /* DLP_DEV_ALLOCATE_UNLIKE_SHARED: no; within one node both kinds of
       window are its shared-memory ones, told apart by the flavor and
       alloc_shared_noncontig alone, which window.c answers as made */
  },
  .tuning = tuning,
};
