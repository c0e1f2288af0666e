/* The IR building blocks of the code generator (ir.h). */
#include <stdio.h>
#include <stdlib.h>
#include "ir.h"

void dli_ir_move(cg *g, LLVMTypeRef t, LLVMValueRef dst, LLVMValueRef src)
{
  LLVMTypeRef pt = LLVMPointerType(t, 0);
  LLVMValueRef v = LLVMBuildLoad2(g->b, t, LLVMBuildBitCast(g->b, src, pt, ""), "");
  LLVMSetAlignment(v, 1);
  LLVMValueRef s = LLVMBuildStore(g->b, v, LLVMBuildBitCast(g->b, dst, pt, ""));
  LLVMSetAlignment(s, 1);
}

LLVMValueRef dli_ir_loop_step(cg *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef out,
                              int64_t step, body_fn body, void *ctx)
{
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "loop");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "done");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, lo, hi, ""), head, done);
  LLVMPositionBuilderAtEnd(g->b, head);
  LLVMValueRef i = LLVMBuildPhi(g->b, g->i64, "i");
  LLVMValueRef o = LLVMBuildPhi(g->b, g->p8, "out");
  LLVMValueRef o2 = o;
  body(g, i, &o2, ctx);
  LLVMValueRef next = LLVMBuildAdd(g->b, i, c64(g, step), "");
  LLVMBasicBlockRef last = LLVMGetInsertBlock(g->b);
  /* the back edge gets a block of its own: LLVM's fast register
     allocator spills every value of a block that branches to itself */
  LLVMBasicBlockRef latch = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "latch");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, next, hi, ""), latch, done);
  LLVMPositionBuilderAtEnd(g->b, latch);
  LLVMBuildBr(g->b, head);
  LLVMAddIncoming(i, (LLVMValueRef[]){lo, next}, (LLVMBasicBlockRef[]){pre, latch}, 2);
  LLVMAddIncoming(o, (LLVMValueRef[]){out, o2}, (LLVMBasicBlockRef[]){pre, latch}, 2);
  LLVMPositionBuilderAtEnd(g->b, done);
  LLVMValueRef res = LLVMBuildPhi(g->b, g->p8, "");
  LLVMAddIncoming(res, (LLVMValueRef[]){out, o2}, (LLVMBasicBlockRef[]){pre, last}, 2);
  return res;
}

LLVMValueRef dli_ir_loop(cg *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef out,
                         body_fn body, void *ctx)
{
  return dli_ir_loop_step(g, lo, hi, out, 1, body, ctx);
}

struct unrolled {
  body_fn body;
  void *ctx;
  int u;
};

static void unrolled_body(cg *g, LLVMValueRef i, LLVMValueRef *out, void *ctx)
{
  struct unrolled *r = ctx;
  for (int k = 0; k < r->u && g->ok; k++)
    r->body(g, k ? LLVMBuildAdd(g->b, i, c64(g, k), "") : i, out, r->ctx);
}

/* The IR is compiled without optimization, where a loop's counter and
   pointer pass through the stack each trip: a short body needs unrolling
   to run at the speed of its loads and stores. */
LLVMValueRef dli_ir_loop_unrolled(cg *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef out,
                                  body_fn body, void *ctx, int u)
{
  if (u <= 1)
    return dli_ir_loop(g, lo, hi, out, body, ctx);
  LLVMValueRef n = LLVMBuildSub(g->b, hi, lo, "");
  n = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, n, c64(g, 0), ""),
                      c64(g, 0), n, "");
  LLVMValueRef mid = LLVMBuildAdd(g->b, lo, LLVMBuildMul(g->b, LLVMBuildUDiv(g->b, n,
                                  c64(g, u), ""), c64(g, u), ""), "");
  struct unrolled r = {body, ctx, u};
  out = dli_ir_loop_step(g, lo, mid, out, u, unrolled_body, &r);
  return dli_ir_loop(g, mid, hi, out, body, ctx);
}

LLVMValueRef dli_ir_table(cg *g, const int64_t *v, dl_count n)
{
  bool narrow = true;
  for (dl_count i = 0; narrow && i < n; i++)
    narrow = v[i] >= INT32_MIN && v[i] <= INT32_MAX;
  LLVMTypeRef et = narrow ? g->i32 : g->i64;
  LLVMValueRef *k = malloc(sizeof(LLVMValueRef) * (size_t)n);
  if (!k) {
    g->ok = false;
    return NULL;
  }
  for (dl_count i = 0; i < n; i++)
    k[i] = LLVMConstInt(et, (unsigned long long)v[i], 1);
  LLVMValueRef init = LLVMConstArray(et, k, (unsigned)n);
  free(k);
  char name[32];
  snprintf(name, sizeof(name), "t%d", g->globals++);
  LLVMValueRef gv = LLVMAddGlobal(g->m, LLVMTypeOf(init), name);
  LLVMSetInitializer(gv, init);
  LLVMSetGlobalConstant(gv, 1);
  LLVMSetLinkage(gv, LLVMPrivateLinkage);
  return gv;
}
