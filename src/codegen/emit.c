/* LLVM IR for one loop subtree: nested loops with every count, stride and
 * offset a constant, short leaf loops unrolled, short index lists in
 * constant arrays, fixed-size blocks moved by plain loads and stores. The
 * IR is emitted ready to run (no optimizer needed), so compiling is quick.
 *
 * Loop reordering: when the function's own loop steps through memory in
 * small steps (at most a cache line) while everything below it jumps by
 * more, the packed order would touch each cache line once per element of
 * that loop (Flash I/O: 24 variables of a cell, one pass over all cells
 * per variable). The emitted code instead makes that loop the innermost
 * one: memory is walked once, and each element's bytes still go to their
 * own place in the packed stream. Packing is reordered only for loops of
 * few elements (PACK_STREAMS): each element is a stream of writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "../../actions/actions.h"   /* DLI_MOVSB_PIECE */

struct pieces {
  LLVMValueRef dst, src;
};

static void piece(cg *g, LLVMValueRef i, LLVMValueRef *out, void *ctx)
{
  (void)out;
  const struct pieces *p = ctx;
  LLVMBuildMemCpy(g->b, at(g, p->dst, i), 1, at(g, p->src, i), 1, c64(g, DLI_MOVSB_PIECE));
}

/* n bytes between memory and the packed stream, n a constant; a long
   block in pieces whatever the distance (dli_memcpy's reason: the code
   does not know its addresses), the last of 1 to DLI_MOVSB_PIECE bytes */
static void copy_const(cg *g, LLVMValueRef mem, LLVMValueRef packed, dl_count n)
{
  LLVMValueRef dst = g->dir == DLI_JIT_PACK ? packed : mem;
  LLVMValueRef src = g->dir == DLI_JIT_PACK ? mem : packed;
  if (n > DLI_MOVSB_PIECE) {
    int64_t whole = (int64_t)(n - 1) / DLI_MOVSB_PIECE * DLI_MOVSB_PIECE;
    struct pieces p = {dst, src};
    dli_ir_loop_step(g, c64(g, 0), c64(g, whole), dst, DLI_MOVSB_PIECE, piece, &p);
    LLVMBuildMemCpy(g->b, atc(g, dst, whole), 1, atc(g, src, whole), 1,
                    c64(g, (int64_t)n - whole));
    return;
  }
  if (n > 256) {
    LLVMBuildMemCpy(g->b, dst, 1, src, 1, c64(g, n));
    return;
  }
  static const int sizes[5] = {16, 8, 4, 2, 1};
  int64_t o = 0;
  for (int k = 0; k < 5; k++) {
    LLVMTypeRef t = k == 0 ? g->v2 : k == 1 ? g->i64 : k == 2 ? g->i32
                  : k == 3 ? g->i16 : g->i8;
    for (; n - o >= sizes[k]; o += sizes[k])
      dli_ir_move(g, t, atc(g, dst, o), atc(g, src, o));
    if (o < n && n >= 16 && k == 0) {       /* the tail overlapping */
      dli_ir_move(g, t, atc(g, dst, n - 16), atc(g, src, n - 16));
      return;
    }
  }
}

/* a block at mem; with reordering, that block of every outer element */
static void copy_block(cg *g, LLVMValueRef mem, LLVMValueRef packed, dl_count n);

/* bodies per trip for a loop of `trips` whose body makes `copies` block
   copies of `bytes` bytes each, straight-line */
static int unroll_for(const cg *g, dl_count trips, dl_count copies, dl_count bytes)
{
  if (g->ro || copies < 1 || copies > 8 || bytes > 64)
    return 1;
  int u = (int)(16 / copies);
  return trips >= 2 * u ? u : 1;
}

static void instance(cg *g, const dli_loop *l, LLVMValueRef origin, LLVMValueRef *out);

/* block copies one instance of l makes when emitted unrolled (capped) */
static dl_count copies(const dli_loop *l)
{
  if (l->leaf)
    return l->kind == DLI_CONTIG ? 1 : l->count;
  if (l->kind != DLI_CONTIG && l->kind != DLI_VECTOR)
    return DLI_CG_BUDGET + 1;
  dl_count n = l->kind == DLI_CONTIG ? l->count : l->count * l->blocklen;
  dl_count c = copies(l->child);
  return n > DLI_CG_BUDGET || c > DLI_CG_BUDGET || n * c > DLI_CG_BUDGET
             ? DLI_CG_BUDGET + 1 : n * c;
}

/* the longest block copy below l */
static dl_count block_bytes(const dli_loop *l)
{
  while (!l->leaf) {
    if (l->kind == DLI_STRUCT)
      return INT64_MAX;
    l = l->child;
  }
  return l->kind == DLI_CONTIG ? l->count : l->kind == DLI_INDEXED ? (dl_count)l->max_blk
                                                                 : l->blocklen;
}

/* bodies per trip for a loop of `trips` over instances of `child` */
static int unroll_over(const cg *g, dl_count trips, const dli_loop *child)
{
  return unroll_for(g, trips, copies(child), block_bytes(child));
}

/* ---- the elements of non-leaf loops ---- */

struct elems {
  const dli_loop *l;
  LLVMValueRef base;       /* block start, or the loop's base */
  LLVMValueRef offs;       /* table of block offsets, or NULL */
  dl_count n;              /* table length */
};

/* element j of a block at base: the child at base + j * el_extent */
static void elem_body(cg *g, LLVMValueRef j, LLVMValueRef *out, void *ctx)
{
  struct elems *e = ctx;
  LLVMValueRef o = at(g, e->base, LLVMBuildMul(g->b, j, c64(g, e->l->el_extent), ""));
  instance(g, e->l->child, o, out);
}

/* block i: its blocklen (or blocklens[i]) elements */
static void block_body(cg *g, LLVMValueRef i, LLVMValueRef *out, void *ctx)
{
  struct elems *e = ctx, inner = *e;
  const dli_loop *l = e->l;
  LLVMValueRef off = l->kind == DLI_VECTOR ? LLVMBuildMul(g->b, i, c64(g, l->stride), "")
                                           : table_get(g, e->offs, e->n, i);
  inner.base = at(g, e->base, off);
  if (l->kind == DLI_INDEXED) {
    LLVMValueRef lens = dli_ir_table(g, l->blocklens, l->count);
    if (!g->ok)
      return;
    LLVMValueRef n = table_get(g, lens, l->count, i);
    *out = dli_ir_loop(g, c64(g, 0), n, *out, elem_body, &inner);
  } else if (l->blocklen == 1) {
    instance(g, l->child, inner.base, out);
  } else {
    *out = dli_ir_loop_unrolled(g, c64(g, 0), c64(g, l->blocklen), *out, elem_body, &inner,
                         unroll_over(g, l->blocklen, l->child));
  }
}

static void struct_blocks(cg *g, const dli_loop *l, LLVMValueRef base, LLVMValueRef *out)
{
  for (dl_count i = 0; i < l->count && g->ok; i++) {
    LLVMValueRef b = atc(g, base, l->offs[i]);
    for (dl_count j = 0; j < l->blocklens[i] && g->ok; j++)
      instance(g, l->children[i], atc(g, b, j * l->exts[i]), out);
  }
}

static void inner_instance(cg *g, const dli_loop *l, LLVMValueRef base, LLVMValueRef *out)
{
  struct elems e = {l, base, NULL, 0};
  dl_count per = g->ro && g->ro_full ? g->ro_n : 1;   /* copies per block */
  if ((l->kind == DLI_CONTIG || l->kind == DLI_VECTOR) && copies(l) * per <= DLI_CG_BUDGET) {
    /* small enough to unroll whole: straight-line code, constant offsets */
    dl_count nb = l->kind == DLI_CONTIG ? 1 : l->count;
    dl_count ne = l->kind == DLI_CONTIG ? l->count : l->blocklen;
    for (dl_count i = 0; i < nb; i++)
      for (dl_count j = 0; j < ne; j++)
        instance(g, l->child, atc(g, base, i * l->stride + j * l->el_extent), out);
    return;
  }
  switch (l->kind) {
  case DLI_CONTIG:
    *out = dli_ir_loop_unrolled(g, c64(g, 0), c64(g, l->count), *out, elem_body, &e,
                         unroll_over(g, l->count, l->child));
    return;
  case DLI_STRUCT:
    if (l->count > DLI_CG_UNROLL) {
      g->ok = false;
      return;
    }
    struct_blocks(g, l, base, out);
    return;
  case DLI_BLOCKINDEXED:
  case DLI_INDEXED:
    if (l->count > DLI_CG_MAX_LIST) {
      g->ok = false;
      return;
    }
    e.offs = dli_ir_table(g, l->offs, l->count);
    e.n = l->count;
    if (!g->ok)
      return;
    /* fall through */
  default:
    *out = dli_ir_loop_unrolled(g, c64(g, 0), c64(g, l->count), *out, block_body, &e,
                         l->kind == DLI_INDEXED || l->blocklen != 1 ? 1
                         : unroll_over(g, l->count, l->child));
  }
}

/* ---- leaves ---- */

struct leafctx {
  const dli_loop *l;
  LLVMValueRef base, offs;
};

static void vec_block(cg *g, LLVMValueRef i, LLVMValueRef *out, void *ctx)
{
  struct leafctx *c = ctx;
  LLVMValueRef off = c->offs ? table_get(g, c->offs, c->l->count, i)
                             : LLVMBuildMul(g->b, i, c64(g, c->l->stride), "");
  copy_block(g, at(g, c->base, off), *out, c->l->blocklen);
  *out = atc(g, *out, c->l->blocklen);
}

static void leaf_instance(cg *g, const dli_loop *l, LLVMValueRef base, LLVMValueRef *out)
{
  switch (l->kind) {
  case DLI_CONTIG:
    copy_block(g, base, *out, l->count);
    *out = atc(g, *out, l->count);
    return;
  case DLI_INDEXED:
    if (l->count > 4 * DLI_CG_UNROLL) {
      g->ok = false;                 /* many varying blocks: the interpreter */
      return;
    }
    for (dl_count i = 0; i < l->count; i++) {
      dl_count len = l->pre[i + 1] - l->pre[i];
      copy_block(g, atc(g, base, l->offs[i]), *out, len);
      *out = atc(g, *out, len);
    }
    return;
  default:
    /* unrolled whole unless each block is copied for every element of a
       reordered loop past the budget: then a loop of those copies, whose
       code generation costs a fraction and the copies as little */
    if (l->count <= DLI_CG_UNROLL &&
        (!g->ro || !g->ro_full || l->count * g->ro_n <= DLI_CG_BUDGET)) {
      for (dl_count i = 0; i < l->count; i++) {
        dl_aint off = l->kind == DLI_VECTOR ? i * l->stride : l->offs[i];
        copy_block(g, atc(g, base, off), *out, l->blocklen);
        *out = atc(g, *out, l->blocklen);
      }
      return;
    }
    if (l->kind == DLI_BLOCKINDEXED && l->count > DLI_CG_MAX_LIST) {
      g->ok = false;
      return;
    }
    struct leafctx c = {l, base, l->kind == DLI_VECTOR ? NULL : dli_ir_table(g, l->offs, l->count)};
    if (g->ok)
      *out = dli_ir_loop_unrolled(g, c64(g, 0), c64(g, l->count), *out, vec_block, &c,
                           unroll_for(g, l->count, 1, l->blocklen));
  }
}

/* a loop over a vector leaf that the interpreter copies a cache line at a
   time (dli_transposes): left to it, whose order beats the packed order
   compiled (doc/codegen.md) */
static bool interpreter_transposes(const dli_loop *l)
{
  if (l->leaf || !(l->kind == DLI_CONTIG || (l->kind == DLI_VECTOR && l->blocklen == 1)) ||
      !l->child->leaf || l->child->kind != DLI_VECTOR)
    return false;
  dl_aint step = l->kind == DLI_VECTOR ? l->stride : l->el_extent;
  return dli_transposes(l->count, step, l->child->count, l->child->blocklen,
                        l->child->stride);
}

static void instance(cg *g, const dli_loop *l, LLVMValueRef origin, LLVMValueRef *out)
{
  if (!g->ok)
    return;
  if (interpreter_transposes(l)) {
    g->ok = false;
    return;
  }
  LLVMValueRef f;
  if (!g->ro && l != g->self && g->callee && (f = g->callee(g->callee_ctx, l, g->dir))) {
    /* a loop with a function of its own: call it for the whole instance */
    LLVMValueRef args[4] = {origin, *out, c64(g, 0), c64(g, dli_jit_elems(l))};
    LLVMBuildCall2(g->b, dli_cg_fn_type(g->ctx), f, args, 4, "");
    *out = atc(g, *out, l->size);
    return;
  }
  LLVMValueRef base = atc(g, origin, l->offset);
  if (l->leaf)
    leaf_instance(g, l, base, out);
  else
    inner_instance(g, l, base, out);
}

/* ---- reordering ---- */

struct roctx {
  LLVMValueRef mem, inner;   /* block address for outer element e0, its packed offset */
  dl_count n;
};

static void ro_body(cg *g, LLVMValueRef e, LLVMValueRef *out, void *ctx)
{
  struct roctx *c = ctx;
  LLVMValueRef k = LLVMBuildSub(g->b, e, g->ro_e0, "");
  LLVMValueRef mem = at(g, c->mem, LLVMBuildMul(g->b, k, c64(g, g->ro_mstep), ""));
  LLVMValueRef pk = at(g, at(g, g->ro_out0, LLVMBuildMul(g->b, k, c64(g, g->ro_pstep), "")),
                       c->inner);
  copy_const(g, mem, pk, c->n);
  (void)out;
}

static void copy_block(cg *g, LLVMValueRef mem, LLVMValueRef packed, dl_count n)
{
  if (!g->ro) {
    copy_const(g, mem, packed, n);
    return;
  }
  if (g->ro_full) {                 /* straight-line: constant offsets */
    for (dl_count e = 0; e < g->ro_n; e++)
      copy_const(g, atc(g, mem, e * g->ro_mstep), atc(g, packed, e * g->ro_pstep), n);
    return;
  }
  /* the same block of every outer element: mem is element e0's block, and
     packed is where it goes counted from element e0's packed start */
  LLVMValueRef inner = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, packed, g->i64, ""),
                                    LLVMBuildPtrToInt(g->b, g->ro_out0, g->i64, ""), "");
  struct roctx c = {mem, inner, n};
  dli_ir_loop(g, g->ro_e0, g->ro_e1, packed, ro_body, &c);
}

/* Reordered packing writes one stream per element of the reordered loop:
   past a few streams the stores thrash the write-combining buffers and it
   runs several times slower than the packed order, while reordered
   unpacking, many read streams and one write stream, gains
   (doc/codegen.md) */
#define PACK_STREAMS 8

bool dli_cg_reorders(const dli_loop *l, int dir)
{
  if (l->leaf || (l->kind != DLI_CONTIG && !(l->kind == DLI_VECTOR && l->blocklen == 1)) ||
      l->count < 2)
    return false;
  dl_aint m = l->kind == DLI_CONTIG ? l->el_extent : l->stride;
  if (m < 0)
    m = -m;
  dl_aint ls = 0;
  dl_count blk = 0;
  bool disjoint = dli_regular_disjoint(l->child, 0, &ls, &blk);
  /* worth it: small steps outside, large jumps inside */
  if (m > 64 || ls < 64 || blk > 16 || l->count > 64 || ls == 0)
    return false;
  if (dir == DLI_JIT_PACK)
    return l->count <= PACK_STREAMS;
  /* unpack: the copies of one leaf block for every element, (count - 1) *
     m + blk bytes, clear of every other block's, so the order of the
     writes cannot matter */
  return disjoint && dli_regular_disjoint(l->child, (l->count - 1) * m, &ls, &blk);
}

/* ---- the function ---- */

struct top {
  const dli_loop *l;
  LLVMValueRef base, offs;
};

/* element e of the function's own loop */
static void top_body(cg *g, LLVMValueRef e, LLVMValueRef *out, void *ctx)
{
  struct top *t = ctx;
  const dli_loop *l = t->l;
  if (l->leaf) {
    LLVMValueRef off = l->kind == DLI_VECTOR ? LLVMBuildMul(g->b, e, c64(g, l->stride), "")
                                             : table_get(g, t->offs, l->count, e);
    copy_block(g, at(g, t->base, off), *out, l->blocklen);
    *out = atc(g, *out, l->blocklen);
    return;
  }
  dl_aint step = l->kind == DLI_CONTIG ? l->el_extent : l->stride;
  LLVMValueRef off = l->kind == DLI_BLOCKINDEXED ? table_get(g, t->offs, l->count, e)
                                                 : LLVMBuildMul(g->b, e, c64(g, step), "");
  instance(g, l->child, at(g, t->base, off), out);
}

static void emit_body(cg *g, const dli_loop *l, LLVMValueRef origin, LLVMValueRef packed,
                      LLVMValueRef e0, LLVMValueRef e1)
{
  LLVMValueRef base = atc(g, origin, l->offset), out = packed;
  struct top t = {l, base, NULL};
  if (interpreter_transposes(l)) {
    g->ok = false;
    return;
  }
  if (l->leaf && (l->kind == DLI_CONTIG || l->kind == DLI_INDEXED)) {
    /* called for the whole leaf only (the walker's one use of it): one
       block, or a short list unrolled */
    leaf_instance(g, l, base, &out);
    return;
  }
  if (l->kind == DLI_BLOCKINDEXED) {
    if (l->count > DLI_CG_MAX_LIST) {
      g->ok = false;
      return;
    }
    t.offs = dli_ir_table(g, l->offs, l->count);
    if (!g->ok)
      return;
  }
  if (dli_cg_reorders(l, g->dir)) {
    /* the inner loops once, each leaf block copied for every element; a
       call for all elements (the usual one) gets the copies unrolled */
    g->ro = true;
    g->ro_e0 = e0;
    g->ro_e1 = e1;
    g->ro_out0 = packed;
    g->ro_n = l->count;
    g->ro_mstep = l->kind == DLI_CONTIG ? l->el_extent : l->stride;
    g->ro_pstep = l->el_size;
    LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "full");
    LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "part");
    LLVMValueRef all = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, e0, c64(g, 0), ""),
                                    LLVMBuildICmp(g->b, LLVMIntEQ, e1, c64(g, l->count), ""), "");
    LLVMBuildCondBr(g->b, all, full, part);
    LLVMPositionBuilderAtEnd(g->b, full);
    g->ro_full = true;
    LLVMValueRef full_out = out;      /* the partial path starts from packed */
    instance(g, l->child, base, &full_out);
    LLVMBuildRetVoid(g->b);
    /* a part of its elements (rare: a chunk boundary inside the loop's
       range): in packed order, calling the loops below where they have
       functions of their own */
    LLVMPositionBuilderAtEnd(g->b, part);
    g->ro = g->ro_full = false;
  }
  dl_count n = dli_jit_elems(l);
  dli_ir_loop_unrolled(g, e0, e1, out, top_body, &t,
                l->leaf ? unroll_for(g, n, 1, l->blocklen)
                : l->kind == DLI_INDEXED ? 1
                : unroll_over(g, n, l->child));
}

LLVMTypeRef dli_cg_fn_type(LLVMContextRef ctx)
{
  LLVMTypeRef p8 = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef params[4] = {p8, p8, i64, i64};
  return LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 4, 0);
}

bool dli_cg_emit(LLVMValueRef fn, const dli_loop *l, int dir, dli_cg_callee callee,
                 void *callee_ctx)
{
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  cg g = {.m = m, .ctx = LLVMGetModuleContext(m), .fn = fn, .dir = dir, .ok = true,
          .self = l, .callee = callee, .callee_ctx = callee_ctx};
  g.i8 = LLVMInt8TypeInContext(g.ctx);
  g.i16 = LLVMInt16TypeInContext(g.ctx);
  g.i32 = LLVMInt32TypeInContext(g.ctx);
  g.i64 = LLVMInt64TypeInContext(g.ctx);
  g.v2 = LLVMVectorType(g.i64, 2);
  g.p8 = LLVMPointerType(g.i8, 0);
  for (unsigned k = 0; k < 2; k++)      /* memory and the packed stream never alias */
    LLVMAddAttributeAtIndex(fn, k + 1,
        LLVMCreateEnumAttribute(g.ctx, LLVMGetEnumAttributeKindForName("noalias", 7), 0));
  g.b = LLVMCreateBuilderInContext(g.ctx);
  LLVMPositionBuilderAtEnd(g.b, LLVMAppendBasicBlockInContext(g.ctx, fn, "entry"));
  emit_body(&g, l, LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), LLVMGetParam(fn, 2),
            LLVMGetParam(fn, 3));
  if (g.ok)
    LLVMBuildRetVoid(g.b);
  LLVMDisposeBuilder(g.b);
  return g.ok;
}
