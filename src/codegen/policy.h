/* When a type compiles, as the actions (the core's edge: the calls that
 * move data) and the code generator see it. The representation only keeps
 * the counts (dl_type's uses[], compiled and hint, dataloop/loop.h) and
 * never calls up here: policy.c decides (a DL_HINT_REUSE_HIGH type at
 * dl_type_commit or dl_type_set_hint, which it defines; any type after
 * DL_JIT_THRESHOLD uses), jit.c or none.c compiles. */
#ifndef DLI_POLICY_H
#define DLI_POLICY_H

#include <limits.h>
#include "../../dataloop/loop.h"

/* uses[dir] once no use of t can lead to a compile (DL_JIT=0, or the
   threshold passed): the count is then one load on a line only read */
#define DLI_USES_DONE LONG_MAX
/* counts a use of t in direction dir when it may still compile */
DLI_HIDDEN void dli_jit_count_use(dl_type *t, int dir);
/* counts a use of t in direction dir (DLI_JIT_PACK, _UNPACK) and compiles
   that direction when it has become hot; inline, since a small pack pays
   for every instruction of it */
static inline void dli_jit_note_use(const dl_type *t, int dir)
{
  dl_type *w = (dl_type *)t;
  if (!t->builtin &&
      !(atomic_load_explicit(&w->compiled, memory_order_relaxed) & (1 << dir)) &&
      atomic_load_explicit(&w->uses[dir], memory_order_relaxed) != DLI_USES_DONE)
    dli_jit_count_use(w, dir);
}
/* compiles t's loops in the directions of mask (1 << dir), returning
   DL_ERR_UNSUPPORTED without a code generator or when nothing compiles;
   the code generator's entry point */
DLI_HIDDEN int dli_jit_compile(dl_type *t, int mask);
/* whether this build has a code generator (jit.c) or not (none.c) */
DLI_HIDDEN extern const bool dli_jit_built;
/* DL_TRACE=1: say what the engine decides, on stderr */
DLI_HIDDEN bool dli_trace(void);

#endif
