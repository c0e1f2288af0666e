/* What the one-sided files share beyond the operations (rma.h): windows
 * as the interposer describes them, puts and gets landed at the target,
 * and the fences' count exchange. Included by rma.h and by window.c,
 * landing.c and tally.c; report.c reads the fences' count. */
#ifndef DLP_WINDOW_H
#define DLP_WINDOW_H
#include "../request/request.h"

/* ---- windows (window.c) ---- */
typedef struct dlp_win dlp_win;
/* the interposer's description of win, or NULL (MPICH's alone) */
DLI_HIDDEN dlp_win *dlp_win_of(MPI_Win win);
/* rank's window size in bytes (-1: a dynamic window, addressed absolutely)
   and displacement unit (1 for a dynamic one); false: no such rank */
DLI_HIDDEN bool dlp_win_target(const dlp_win *w, int rank, MPI_Aint *size,
                               MPI_Aint *unit);
/* an access epoch opened by MPI_Win_start is open on w (window.c: gets
   then go as get-accumulates, rma.c) */
DLI_HIDDEN bool dlp_win_started(const dlp_win *w);
/* an operation to rank was issued in this epoch (flush_all flushes it on
   its own: window.c) */
DLI_HIDDEN void dlp_win_touch(dlp_win *w, int rank);
/* work for the synchronization that completes an operation to rank:
   into (when not NULL) gets stage's first into->bytes bytes unpacked, then
   stage is freed (dlp_stage_put) */
DLI_HIDDEN int dlp_win_defer(dlp_win *w, int rank, void *stage, const dlp_data *into);
/* rank's window memory as mapped in this process (a shared-memory window),
   or NULL */
DLI_HIDDEN char *dlp_win_mapped(const dlp_win *w, int rank);
/* the request forms (MPI_Rget, MPI_Rput, ...) on win to rank (-1: every
   rank), completed by a synchronization: finished now (rma.c) */
DLI_HIDDEN void dlp_rma_requests_synced(MPI_Win win, int rank);
/* its landing state, or NULL (puts do not land on it) */
typedef struct dlp_landing dlp_landing;
DLI_HIDDEN dlp_landing *dlp_win_landing(const dlp_win *w);

/* ---- puts landed at the target (landing.c) ---- */
/* made collectively with the window (comm: its group; base: this rank's
   memory; dynamic: offsets are addresses; share: the fences may exchange
   their counts through shared memory, the same on every rank), freed with
   it */
DLI_HIDDEN int dlp_landing_new(MPI_Comm comm, void *base, bool dynamic, bool share,
                               dlp_landing **out);
DLI_HIDDEN void dlp_landing_free(dlp_landing *l);
/* whether a fence epoch is open here (puts may land), and its end by an
   epoch of another kind */
DLI_HIDDEN bool dlp_landing_open(const dlp_landing *l);
DLI_HIDDEN void dlp_landing_close(dlp_landing *l);
/* a put of operand o onto target layout t at byte off of rank's window:
   packed and sent now, in landings of chunk stream bytes; an MPI error
   class */
DLI_HIDDEN int dlp_land(dlp_landing *l, int rank, MPI_Aint off, const dlp_data *o,
                        const dlp_data *t, size_t chunk);
/* a get of target layout t at byte off of rank's window into `into`: a
   request sent now (the target replies in landings of chunk bytes), the
   data unpacked by this rank's next fence */
DLI_HIDDEN int dlp_land_get(dlp_landing *l, int rank, MPI_Aint off, const dlp_data *into,
                            const dlp_data *t, size_t chunk);
/* in MPI_Win_fence before MPICH's: receives and unpacks the landings of
   the epoch it closes, answers the get requests, unpacks the replies to
   this rank's gets, completes this rank's sends; an MPI error class */
DLI_HIDDEN int dlp_landing_fence(dlp_landing *l, int assert);

/* ---- which ranks carry the interposer (peers.c) ---- */
/* whether the window set-up beyond MPICH's may run on the intracommunicator
   comm: every rank of it found preloaded (DL_RMA_PEERS may say all or
   none instead); local, and every rank of comm answers the same */
DLI_HIDDEN bool dlp_all_preloaded(MPI_Comm comm);

/* ---- a fence's count exchange (tally.c) ---- */
/* each rank gives nranks groups of per counts and learns the sum of its
   group over all ranks: through memory every rank maps when share is
   true on every rank and they are on one node, else by a reduce-scatter;
   made and freed collectively on comm, which it uses for its messages */
typedef struct dlp_tally dlp_tally;
/* whether every rank of the intracommunicator comm is on this node
   (collective: MPI_Comm_split_type; every rank sees the same) */
DLI_HIDDEN bool dlp_on_one_node(MPI_Comm comm);
DLI_HIDDEN int dlp_tally_new(MPI_Comm comm, int per, bool share, dlp_tally **out);
DLI_HIDDEN void dlp_tally_free(dlp_tally *t);
/* an exchange started (counts: nranks * per, read now), every rank in
   the same order; mine (per counts) holds the sums once a test says done */
DLI_HIDDEN int dlp_tally_start(dlp_tally *t, const int *counts, int *mine);
DLI_HIDDEN int dlp_tally_test(dlp_tally *t, int *mine, int *done);

#endif
