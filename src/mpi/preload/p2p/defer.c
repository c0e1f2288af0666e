/* A derived type decoded at its second use. Codes that make, commit, use
 * once and free a type for every message (BLACS, halo codes building a
 * type per call) would pay dataloop's decode and plan on every message;
 * for a short one that costs more than packing it can gain. So in the
 * default mode a point-to-point message of at most defer_bytes (the
 * thresholds') whose derived type has not been used since it was
 * committed goes to MPICH as made, and the type is remembered; its next
 * use decodes it. MPICH then does exactly what it does without the
 * interposer: it judges the arguments and moves the data. A route forced
 * by DL_STRATEGY carries every message.
 *
 * Only where MPICH's engine places the data as dataloop does, so that a
 * message's bytes never depend on which side deferred: one constructor
 * over predefined types (dli_type_flat), and for receives elements of one
 * power-of-two size (DLP_DEV_ENGINE_STRADDLE, on every host as in
 * plan.c; such a short message is one fragment, but the rule costs
 * nothing).
 *
 * Which types were used is a hint kept by handle in a small table, reset
 * by MPI_Type_commit: MPI reuses a freed type's handle, and a type is
 * committed before any use. A stale or lost entry only moves the decode
 * by a use (a type decoded elsewhere, or whose entry another handle took,
 * may go to MPICH once more); what a message carries never depends on
 * it. */
#include <stdatomic.h>
#include "p2p.h"

#define SLOTS 512              /* a power of two */
#define DECODED (1ull << 63)   /* past a first use: decoded as it comes */

/* what is known of the handles used since their commit: handle + 1, with
   DECODED once a use was not deferred (0: empty) */
static _Atomic uint64_t seen[SLOTS];

/* an integer handle may be negative (MPICH's are): sign-extended, its
   high bits are set, DECODED's among them */
static uint64_t key_of(MPI_Datatype dt)
{
  return ((uint64_t)(uintptr_t)dt + 1) & ~DECODED;
}

static _Atomic uint64_t *slot_of(uint64_t key)
{
  uint64_t h = key * 0x9e3779b97f4a7c15ULL;
  return &seen[(h >> 40) & (SLOTS - 1)];
}

/* one load for a type past its first use; the type's size and contents
   only at a first use */
bool dlp_defer(MPI_Count count, MPI_Datatype dt, bool recv)
{
  size_t limit = dlp_th()->defer_bytes;
  /* MPI_DATATYPE_NULL (a freed type's handle): MPICH judges it in the
     call itself, where its MPI_Type_size would raise on MPI_COMM_WORLD */
  if (!limit || count <= 0 || dt == MPI_DATATYPE_NULL || dlp_streams() ||
      dlp_cfg()->strategy >= 0 || dli_named_type(dt) || dli_type_recent(dt))
    return false;
  uint64_t key = key_of(dt);
  _Atomic uint64_t *s = slot_of(key);
  uint64_t was = atomic_load_explicit(s, memory_order_relaxed);
  if (was == (key | DECODED))
    return false;
  MPI_Count size;
  dl_count unit;
  bool defer = was != key && PMPI_Type_size_c(dt, &size) == MPI_SUCCESS && size > 0 &&
               (uint64_t)count <= limit / (uint64_t)size &&
               dli_type_flat(dt, &unit) && !(recv && unit <= 0);
  atomic_store_explicit(s, defer ? key : key | DECODED, memory_order_relaxed);
  if (defer)
    dlp_count(DLP_N_DEFERRED);
  return defer;
}

int MPI_Type_commit(MPI_Datatype *dt)
{
  int rc = PMPI_Type_commit(dt);
  if (rc == MPI_SUCCESS) {
    uint64_t key = key_of(*dt);
    _Atomic uint64_t *s = slot_of(key);
    uint64_t was = atomic_load_explicit(s, memory_order_relaxed);
    if ((was & ~DECODED) == key)
      atomic_compare_exchange_strong_explicit(s, &was, 0, memory_order_relaxed,
                                              memory_order_relaxed);
  }
  return rc;
}
