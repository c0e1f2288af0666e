/* The code generator's state while it emits one function (emit.c), and
 * the IR building blocks it is made of (ir.c): constants and addresses,
 * unaligned moves, counted loops (plain and unrolled), constant tables of
 * offsets. Internal to the code generator. */
#ifndef DLI_CODEGEN_IR_H
#define DLI_CODEGEN_IR_H

#include <stdbool.h>
#include <stdint.h>
#include "codegen.h"

typedef struct cg {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  LLVMTypeRef i8, i16, i32, i64, v2, p8;
  int dir;
  bool ok;
  int globals;
  /* reordering: the outer loop runs inside each leaf block copy, unrolled
     when the call covers all its elements (ro_full) */
  bool ro, ro_full;
  dl_count ro_n;
  LLVMValueRef ro_e0, ro_e1, ro_out0;
  const dli_loop *self;      /* the function's own loop */
  dli_cg_callee callee;
  void *callee_ctx;
  dl_aint ro_mstep;        /* bytes between the outer loop's elements */
  dl_count ro_pstep;       /* packed bytes of one outer element */
} cg;

static inline LLVMValueRef c64(cg *g, int64_t v)
{
  return LLVMConstInt(g->i64, (unsigned long long)v, 1);
}

static inline LLVMValueRef at(cg *g, LLVMValueRef p, LLVMValueRef off)
{
  return LLVMBuildGEP2(g->b, g->i8, p, &off, 1, "");
}

static inline LLVMValueRef atc(cg *g, LLVMValueRef p, int64_t off)
{
  return off == 0 ? p : at(g, p, c64(g, off));
}

/* the body of a loop: element i, the packed cursor carried in *out */
typedef void (*body_fn)(cg *g, LLVMValueRef i, LLVMValueRef *out, void *ctx);

/* one move of type t from src to dst, unaligned */
DLI_HIDDEN void dli_ir_move(cg *g, LLVMTypeRef t, LLVMValueRef dst, LLVMValueRef src);
/* for (i = lo; i < hi; i += step) body(i); `out` is carried through and
   returned */
DLI_HIDDEN LLVMValueRef dli_ir_loop_step(cg *g, LLVMValueRef lo, LLVMValueRef hi,
                                         LLVMValueRef out, int64_t step, body_fn body,
                                         void *ctx);
DLI_HIDDEN LLVMValueRef dli_ir_loop(cg *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef out,
                                    body_fn body, void *ctx);
/* the same loop with u bodies per trip, then the remaining trips one by
   one */
DLI_HIDDEN LLVMValueRef dli_ir_loop_unrolled(cg *g, LLVMValueRef lo, LLVMValueRef hi,
                                             LLVMValueRef out, body_fn body, void *ctx, int u);
/* a constant array of the n values in the module, of int32 where they
   all fit (a gather's offsets: half the metadata to stream, as the
   interpreter's offs32), else of int64 (NULL, g->ok false, when out of
   memory) */
DLI_HIDDEN LLVMValueRef dli_ir_table(cg *g, const int64_t *v, dl_count n);

/* entry i of a dli_ir_table, as an int64 */
static inline LLVMValueRef table_get(cg *g, LLVMValueRef gv, dl_count n, LLVMValueRef i)
{
  LLVMTypeRef et = LLVMGetElementType(LLVMGlobalGetValueType(gv));
  LLVMTypeRef at_t = LLVMArrayType(et, (unsigned)n);
  LLVMValueRef idx[2] = {c64(g, 0), i};
  LLVMValueRef p = LLVMBuildGEP2(g->b, at_t, gv, idx, 2, "");
  LLVMValueRef v = LLVMBuildLoad2(g->b, et, p, "");
  return et == g->i64 ? v : LLVMBuildSExt(g->b, v, g->i64, "");
}

#endif
