/* The code generator: what emit.c offers jit.c. Everything here is
 * internal to libdataloop and only built with --with-llvm. */
#ifndef DLI_CODEGEN_H
#define DLI_CODEGEN_H

#include <llvm-c/Core.h>
#include "../../dataloop/loop.h"

/* Limits on what is compiled: longer index lists stay interpreted, and
   loops this short are unrolled. */
#define DLI_CG_MAX_LIST 4096
#define DLI_CG_UNROLL 16
#define DLI_CG_BUDGET 128     /* block copies a whole loop nest may unroll to */
/* below the root, only the outermost loops whose elements are at most this
   big are compiled: where chunked processing finds whole elements */
#define DLI_CG_CHUNK_ELEM (256 * 1024)

/* Emits `void name(i8 *origin, i8 *packed, i64 e0, i64 e1)` moving
   elements [e0, e1) of loop l (see dli_jit_fn) in direction dir into
   module m. Returns false, emitting nothing usable, when some part of l's
   subtree is not compiled (an index list longer than DLI_CG_MAX_LIST, a
   struct of many blocks); the function is then removed from m. */
DLI_HIDDEN bool dli_cg_emit(LLVMModuleRef m, const dli_loop *l, int dir,
                            const char *name);

/* Whether the emitted function walks memory in an order other than the
   packed order (loop reordering), for tracing and tests. */
DLI_HIDDEN bool dli_cg_reorders(const dli_loop *l, int dir);

#endif
