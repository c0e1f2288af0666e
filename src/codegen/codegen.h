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

/* The signature of every emitted function (see dli_jit_fn). */
DLI_HIDDEN LLVMTypeRef dli_cg_fn_type(LLVMContextRef ctx);

/* Other functions of the same module an emitted body may call for a whole
   instance of a loop below its own, instead of emitting it again. */
typedef LLVMValueRef (*dli_cg_callee)(void *ctx, const dli_loop *l, int dir);

/* Emits the body of fn, moving elements [e0, e1) of loop l in direction
   dir. Returns false when some part of l's subtree is not compiled (an
   index list longer than DLI_CG_MAX_LIST, a struct of many blocks); fn's
   body is then left empty and the caller deletes it. */
DLI_HIDDEN bool dli_cg_emit(LLVMValueRef fn, const dli_loop *l, int dir,
                            dli_cg_callee callee, void *callee_ctx);

/* Whether the emitted function walks memory in an order other than the
   packed order (loop reordering), for tracing and tests. */
DLI_HIDDEN bool dli_cg_reorders(const dli_loop *l, int dir);

#endif
