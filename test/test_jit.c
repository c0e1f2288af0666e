/* The LLVM back end: what it compiles, that compiled code runs and moves
 * exactly the interpreter's bytes (one-shot and in chunks, both ways),
 * loop reordering for Flash I/O, long blocks moved in pieces, the shape
 * cache, the use threshold, the
 * commit hint, DL_JIT=0, and threads compiling and packing at once.
 * (Every randomized test also runs with DL_JIT_THRESHOLD=0: jit-forced.sh.) */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "loop.h"
#include "codegen.h"
#include "runner.h"

static bool jit_off;

/* Flash I/O's variables of blocks of 8^3 cells: nvars doubles of each
   192-byte cell, nblocks blocks of 16^3 cells */
static dl_type *flash_of(dl_count nblocks, dl_count nvars)
{
  dl_type *x, *y, *z, *b, *v;
  ck_assert_int_eq(dl_type_hvector(8, 1, 192, dl_builtin(DL_DOUBLE), &x), DL_OK);
  ck_assert_int_eq(dl_type_hvector(8, 1, 3072, x, &y), DL_OK);
  ck_assert_int_eq(dl_type_hvector(8, 1, 49152, y, &z), DL_OK);
  ck_assert_int_eq(dl_type_hvector(nblocks, 1, 786432, z, &b), DL_OK);
  ck_assert_int_eq(dl_type_hvector(nvars, 1, 8, b, &v), DL_OK);
  dl_type_free(&x);
  dl_type_free(&y);
  dl_type_free(&z);
  dl_type_free(&b);
  dl_type_commit(v);
  return v;
}

static dl_type *flash(void)
{
  return flash_of(80, 24);
}

#define FLASH_BYTES ((size_t)80 * 16 * 16 * 16 * 192)
#define FLASH_PACKED ((size_t)80 * 512 * 24 * 8)
#define FLASH_ORIGIN (((4 * 16 + 4) * 16 + 4) * 192)

/* pack and unpack one type with an interpreted twin: same bytes one-shot
   and in 64 KiB chunks */
static void same_as_interpreted(dl_type *compiled, dl_type *plain, char *mem,
                                size_t memlen, char *origin_c, size_t packed)
{
  char *a = malloc(packed), *b = malloc(packed);
  size_t pa = 0, pb = 0;
  ck_assert_int_eq(dl_pack(origin_c, 1, plain, a, packed, &pa), DL_OK);
  ck_assert_int_eq(dl_pack(origin_c, 1, compiled, b, packed, &pb), DL_OK);
  ck_assert(pa == packed && pb == packed && memcmp(a, b, packed) == 0);
  memset(b, 0, packed);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(origin_c, 1, compiled, &s), DL_OK);
  for (size_t at = 0; at < packed; at += 65536) {
    size_t last = at + 65536;
    ck_assert_int_eq(dl_segment_pack(s, at, &last, b + at), DL_OK);
  }
  dl_segment_free(&s);
  ck_assert(memcmp(a, b, packed) == 0);
  /* unpack a scrambled stream both ways into copies of the memory */
  char *m1 = malloc(memlen), *m2 = malloc(memlen);
  memcpy(m1, mem, memlen);
  memcpy(m2, mem, memlen);
  for (size_t i = 0; i < packed; i++)
    a[i] = (char)(i * 2654435761u >> 13);
  pa = pb = 0;
  ck_assert_int_eq(dl_unpack(a, packed, &pa, m1 + (origin_c - mem), 1, plain), DL_OK);
  ck_assert_int_eq(dl_unpack(a, packed, &pb, m2 + (origin_c - mem), 1, compiled), DL_OK);
  ck_assert(memcmp(m1, m2, memlen) == 0);
  free(m1);
  free(m2);
  free(a);
  free(b);
}

static char *emitted_ir_dir(const dl_type *t, int dir);
static int count_of(const char *s, const char *what);

START_TEST(flash_reordered)
{
  if (jit_off)
    return;
  dl_type *t = flash(), *plain = flash();
  /* 24 variables: 24 write streams packing, too many; unpacking reads them */
  ck_assert(!dli_cg_reorders(t->loop, DLI_JIT_PACK));
  ck_assert(dli_cg_reorders(t->loop, DLI_JIT_UNPACK));   /* blocks apart */
  /* each of the leaf's 8 blocks copied for the 24 variables is past the
     unrolling budget: a loop over the blocks of 24 copies each, not 192
     copies in a row (and as many on the partial path, which calls the
     loops below) */
  char *ir = emitted_ir_dir(t, DLI_JIT_UNPACK);
  int stores = count_of(ir, "store ");
  ck_assert_msg(stores >= 24 && stores < 8 * 24, "%d stores", stores);
  free(ir);
  ck_assert_int_eq(dl_type_compile(t), DL_OK);
  ck_assert(atomic_load(&t->compiled) == 3);
  ck_assert_ptr_nonnull(dli_jit_get(t->loop, DLI_JIT_PACK));
  ck_assert_ptr_nonnull(dli_jit_get(t->loop->child, DLI_JIT_UNPACK));
  char *mem = malloc(FLASH_BYTES);
  for (size_t i = 0; i < FLASH_BYTES; i++)
    mem[i] = (char)(i * 7 + (i >> 11));
  same_as_interpreted(t, plain, mem, FLASH_BYTES, mem + FLASH_ORIGIN, FLASH_PACKED);
  free(mem);
  dl_type_free(&t);
  dl_type_free(&plain);
}
END_TEST

/* a root that was reordered for packing when roots of up to 64 elements
   were: the partial path must still start from the packed pointer it was
   given (once a bug: random type from seed 1795317729); its 12 elements
   are 12 write streams, more than PACK_STREAMS now */
static dl_type *reordered_loop(void)
{
  dl_type *hb, *d3, *rs, *d1, *st;
  ck_assert_int_eq(dl_type_hindexed_block(2, 1, (dl_aint[]){91, -15},
                                          dl_builtin(DL_INT16), &hb), DL_OK);
  ck_assert_int_eq(dl_type_darray(3, 0, 3, (dl_count[]){5, 4, 6}, (int[]){2, 1, 1},
                                  (int[]){-1, -1, -1}, (int[]){1, 3, 1},
                                  DL_ORDER_FORTRAN, hb, &d3), DL_OK);
  ck_assert_int_eq(dl_type_resized(d3, 3, -2, &rs), DL_OK);
  ck_assert_int_eq(dl_type_darray(1, 0, 1, (dl_count[]){4}, (int[]){2}, (int[]){-1},
                                  (int[]){1}, DL_ORDER_FORTRAN, rs, &d1), DL_OK);
  ck_assert_int_eq(dl_type_struct(1, (dl_count[]){3}, (dl_aint[]){-55}, &d1, &st),
                   DL_OK);
  dl_type *parts[] = {hb, d3, rs, d1};
  for (size_t i = 0; i < 4; i++)
    dl_type_free(&parts[i]);
  dl_type_commit(st);
  return st;
}

/* 8 variables of Flash's cells: a root reordered for packing (8 write
   streams), whose calls for part of its elements run a loop */
static dl_type *flash8(void)
{
  return flash_of(2, 8);
}

/* t compiled against its interpreted twin: packed in chunks of many sizes
   through a segment, then one-shot and in 64 KiB chunks both ways */
static void chunks_match(dl_type *(*make)(void))
{
  dl_type *t = make(), *plain = make();
  ck_assert_int_eq(dl_type_compile(t), DL_OK);
  ck_assert_ptr_nonnull(dli_jit_get(t->loop, DLI_JIT_PACK));
  dl_aint tlb, text;
  dl_count size;
  dl_type_true_extent(t, &tlb, &text);
  dl_type_size(t, &size);
  char *mem = malloc((size_t)text), *origin = mem - tlb;
  for (dl_aint i = 0; i < text; i++)
    mem[i] = (char)(i * 13 + (i >> 7));
  char *want = malloc((size_t)size), *got = malloc((size_t)size);
  size_t n = 0;
  ck_assert_int_eq(dl_pack(origin, 1, plain, want, (size_t)size, &n), DL_OK);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(origin, 1, t, &s), DL_OK);
  size_t steps = (size_t)size > 300 * 64 ? 64 : 1;     /* long types: fewer calls */
  for (size_t step = steps; step <= 300 * steps; step += 7 * steps) {
    memset(got, 0, (size_t)size);
    for (size_t at = 0; at < (size_t)size; at += step) {
      size_t last = at + step < (size_t)size ? at + step : (size_t)size;
      ck_assert_int_eq(dl_segment_pack(s, at, &last, got + at), DL_OK);
    }
    ck_assert_msg(memcmp(want, got, (size_t)size) == 0, "chunks of %zu", step);
  }
  dl_segment_free(&s);
  same_as_interpreted(t, plain, mem, (size_t)text, origin, (size_t)size);
  free(want);
  free(got);
  free(mem);
  dl_type_free(&t);
  dl_type_free(&plain);
}

START_TEST(reordered_partial)
{
  if (jit_off)
    return;
  dl_type *r = reordered_loop(), *f = flash8();
  ck_assert(!dli_cg_reorders(r->loop, DLI_JIT_PACK));
  ck_assert(dli_cg_reorders(f->loop, DLI_JIT_PACK));
  dl_type_free(&r);
  dl_type_free(&f);
  chunks_match(reordered_loop);
  chunks_match(flash8);
}
END_TEST

/* compiled code of a loop fused over a leaf (the Indexed suite type: a
   contig of a 3-block indexed leaf) serves the whole repetitions of every
   chunk, not only chunks that start on a repetition; counted by a spy
   standing in for the compiled function */
static dli_jit_fn spied;
static int spy_calls;

static void spy(char *origin, char *packed, dl_count e0, dl_count e1)
{
  spy_calls++;
  spied(origin, packed, e0, e1);
}

static dl_type *five_of_ten(dl_count n)
{
  static const dl_count pick[5] = {0, 1, 3, 6, 7};
  dl_count *idx = malloc((size_t)n * sizeof(dl_count)), *bl = malloc((size_t)n * sizeof(dl_count));
  for (dl_count i = 0; i < n; i++) {
    idx[i] = pick[i % 5] + 10 * (i / 5);
    bl[i] = 1;
  }
  dl_type *t;
  ck_assert_int_eq(dl_type_indexed(n, bl, idx, dl_builtin(DL_INT32), &t), DL_OK);
  ck_assert_int_eq(dl_type_commit(t), DL_OK);
  free(idx);
  free(bl);
  return t;
}

START_TEST(chunked_repetitions)
{
  if (jit_off)
    return;
  enum { N = 5000, STEP = 130 };    /* 6.5 repetitions of 20 bytes */
  dl_type *t = five_of_ten(N), *plain = five_of_ten(N);
  ck_assert_int_eq(dl_type_compile(t), DL_OK);
  const dli_loop *fused = t->loop->kind == DLI_STRUCT ? t->loop->children[0] : t->loop;
  ck_assert(!fused->leaf && fused->child->leaf);
  spied = dli_jit_get(fused, DLI_JIT_PACK);
  ck_assert_ptr_nonnull(spied);
  __atomic_store_n(&((dli_loop *)fused)->jit[DLI_JIT_PACK], (void *)spy, __ATOMIC_RELEASE);
  int *mem = malloc(2 * N * sizeof(int));
  for (int i = 0; i < 2 * N; i++)
    mem[i] = i * 7919;
  size_t size = N * sizeof(int), n = 0;
  char *want = malloc(size), *got = calloc(size, 1);
  ck_assert_int_eq(dl_pack(mem, 1, plain, want, size, &n), DL_OK);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(mem, 1, t, &s), DL_OK);
  spy_calls = 0;
  int chunks = 0;
  for (size_t at = 0; at < size; at += STEP, chunks++) {
    size_t last = at + STEP;
    ck_assert_int_eq(dl_segment_pack(s, at, &last, got + at), DL_OK);
  }
  dl_segment_free(&s);
  ck_assert(memcmp(want, got, size) == 0);
  /* every chunk but the last (in the tail block) holds whole repetitions */
  ck_assert_msg(spy_calls >= chunks - 1, "%d calls for %d chunks", spy_calls, chunks);
  __atomic_store_n(&((dli_loop *)fused)->jit[DLI_JIT_PACK], (void *)spied, __ATOMIC_RELEASE);
  free(mem);
  free(want);
  free(got);
  dl_type_free(&t);
  dl_type_free(&plain);
}
END_TEST

/* a struct's short vector leaf (8 doubles 24 bytes apart) and an int: the
   leaf's own code serves the whole blocks a chunk holds after a block the
   chunk boundary cut (elements from e0 > 0), and the bytes are the
   interpreter's */
static int spy_mid_calls;

static void spy_mid(char *origin, char *packed, dl_count e0, dl_count e1)
{
  spy_mid_calls += e0 > 0;
  spied(origin, packed, e0, e1);
}

static dl_type *leaf_and_int(dl_count n)
{
  dl_type *v, *st, *t;
  dl_count one[2] = {1, 1};
  dl_aint disp[2] = {0, 200};
  ck_assert_int_eq(dl_type_hvector(8, 1, 24, dl_builtin(DL_DOUBLE), &v), DL_OK);
  dl_type *kids[2] = {v, dl_builtin(DL_INT32)};
  ck_assert_int_eq(dl_type_struct(2, one, disp, kids, &st), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(n, st, &t), DL_OK);
  ck_assert_int_eq(dl_type_commit(t), DL_OK);
  dl_type_free(&v);
  dl_type_free(&st);
  return t;
}

static const dli_loop *short_vector_leaf(const dli_loop *l)
{
  if (l->leaf)
    return l->kind == DLI_VECTOR && l->count == 8 ? l : NULL;
  if (l->kind != DLI_STRUCT)
    return short_vector_leaf(l->child);
  for (dl_count i = 0; i < l->count; i++) {
    const dli_loop *f = short_vector_leaf(l->children[i]);
    if (f)
      return f;
  }
  return NULL;
}

START_TEST(chunked_leaf_blocks)
{
  if (jit_off)
    return;
  enum { N = 1000, STEP = 37 };      /* elements of 68 packed bytes */
  dl_type *t = leaf_and_int(N), *plain = leaf_and_int(N);
  ck_assert_int_eq(dl_type_compile(t), DL_OK);
  const dli_loop *leaf = short_vector_leaf(t->loop);
  ck_assert_ptr_nonnull(leaf);
  spied = dli_jit_get(leaf, DLI_JIT_PACK);
  ck_assert_ptr_nonnull(spied);
  __atomic_store_n(&((dli_loop *)leaf)->jit[DLI_JIT_PACK], (void *)spy_mid, __ATOMIC_RELEASE);
  dl_aint lb, extent;
  ck_assert_int_eq(dl_type_extent(t, &lb, &extent), DL_OK);
  char *mem = malloc((size_t)extent);
  for (dl_aint i = 0; i < extent; i++)
    mem[i] = (char)(i * 131 + 7);
  size_t size = (size_t)N * 68, n = 0;
  char *want = malloc(size), *got = calloc(size, 1);
  ck_assert_int_eq(dl_pack(mem, 1, plain, want, size, &n), DL_OK);
  dl_segment *s;
  ck_assert_int_eq(dl_segment_create(mem, 1, t, &s), DL_OK);
  spy_mid_calls = 0;
  for (size_t at = 0; at < size; at += STEP) {
    size_t last = at + STEP;
    ck_assert_int_eq(dl_segment_pack(s, at, &last, got + at), DL_OK);
  }
  dl_segment_free(&s);
  __atomic_store_n(&((dli_loop *)leaf)->jit[DLI_JIT_PACK], (void *)spied, __ATOMIC_RELEASE);
  ck_assert(memcmp(want, got, size) == 0);
  /* the chunks start at 37 offsets mod 68: most inside the leaf's blocks */
  ck_assert_msg(spy_mid_calls >= (int)(size / STEP) / 4, "%d calls from a later block",
                spy_mid_calls);
  free(mem);
  free(want);
  free(got);
  dl_type_free(&t);
  dl_type_free(&plain);
}
END_TEST

/* copies of a darray of structs 10 bytes apart, overlapping: the leaf
   blocks of one copy lie 135 and 25 bytes apart, so unpacking reordered
   (each block for all three copies in turn) would write the overlaps in
   another order than the packed stream's; compiled code must leave what
   the interpreter leaves (a random type found it) */
static dl_type *overlapping_copies(void)
{
  dl_type *kids[4] = {dl_builtin(DL_DOUBLE), dl_builtin(DL_INT16),
                      dl_builtin(DL_C_DOUBLE_COMPLEX), dl_builtin(DL_LONG_DOUBLE)};
  dl_count bl[4] = {2, 0, 0, 1}, gs[1] = {7};
  dl_aint disp[4] = {-13, 1, 140, 122};
  int dist[1] = {DL_DISTRIBUTE_BLOCK}, darg[1] = {8}, ps[1] = {1};
  dl_type *st, *da, *hv, *t;
  ck_assert_int_eq(dl_type_struct(4, bl, disp, kids, &st), DL_OK);
  ck_assert_int_eq(dl_type_darray(1, 0, 1, gs, dist, darg, ps, DL_ORDER_FORTRAN, st, &da),
                   DL_OK);
  ck_assert_int_eq(dl_type_hvector(3, 1, 10, da, &hv), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(4, hv, &t), DL_OK);
  ck_assert_int_eq(dl_type_commit(t), DL_OK);
  dl_type_free(&st);
  dl_type_free(&da);
  dl_type_free(&hv);
  return t;
}

START_TEST(overlapping_unpack)
{
  dl_type *t = overlapping_copies(), *plain = overlapping_copies();
  if (!jit_off)
    ck_assert_int_eq(dl_type_compile(t), DL_OK);
  dl_aint tlb, text;
  ck_assert_int_eq(dl_type_true_extent(t, &tlb, &text), DL_OK);
  size_t size;
  ck_assert_int_eq(dl_pack_size(1, t, &size), DL_OK);
  char *a = calloc((size_t)text, 1), *b = calloc((size_t)text, 1), *p = malloc(size);
  for (size_t i = 0; i < size; i++)
    p[i] = (char)(i * 37 + 1);
  size_t qa = 0, qb = 0;
  ck_assert_int_eq(dl_unpack(p, size, &qa, a - tlb, 1, plain), DL_OK);
  ck_assert_int_eq(dl_unpack(p, size, &qb, b - tlb, 1, t), DL_OK);
  ck_assert(qa == size && qb == size && memcmp(a, b, (size_t)text) == 0);
  free(a);
  free(b);
  free(p);
  dl_type_free(&t);
  dl_type_free(&plain);
}
END_TEST

/* a type whose loops are all compiled as the suite's are */
START_TEST(suite_shapes)
{
  if (jit_off)
    return;
  dl_type *v, *s, *one, *f = dl_builtin(DL_FLOAT);
  dl_count bl = 1;
  dl_aint d = 0;
  ck_assert_int_eq(dl_type_vector(1 << 16, 1, 2, f, &v), DL_OK);
  ck_assert_int_eq(dl_type_struct(1, &bl, &d, &f, &one), DL_OK);
  ck_assert_int_eq(dl_type_resized(one, 0, 8, &s), DL_OK);
  dl_type_commit(v);
  dl_type_commit(s);
  /* a long leaf at the root is one interpreter kernel call already: no
     code of its own; a short one is unrolled; one inside a loop nest is
     emitted in its parent's function */
  ck_assert_int_eq(dl_type_compile(v), DL_ERR_UNSUPPORTED);
  ck_assert_ptr_null(dli_jit_get(v->loop, DLI_JIT_PACK));
  dl_type *shortv, *nest;
  ck_assert_int_eq(dl_type_vector(16, 1, 2, f, &shortv), DL_OK);
  ck_assert_int_eq(dl_type_hvector(50, 1, 1000, v, &nest), DL_OK);
  dl_type_commit(shortv);
  dl_type_commit(nest);
  ck_assert_int_eq(dl_type_compile(shortv), DL_OK);
  ck_assert_ptr_nonnull(dli_jit_get(shortv->loop, DLI_JIT_PACK));
  ck_assert_int_eq(dl_type_compile(nest), DL_OK);
  ck_assert(!nest->loop->leaf && nest->loop->child->leaf);
  ck_assert_ptr_nonnull(dli_jit_get(nest->loop, DLI_JIT_PACK));
  ck_assert_ptr_null(dli_jit_get(nest->loop->child, DLI_JIT_PACK));
  dl_type_free(&shortv);
  dl_type_free(&nest);
  /* a dense run has nothing to compile; builtins and empty types neither */
  ck_assert_int_eq(dl_type_compile(s), DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_type_compile(dl_builtin(DL_INT32)), DL_ERR_UNSUPPORTED);
  dl_type *z;
  ck_assert_int_eq(dl_type_contiguous(0, f, &z), DL_OK);
  ck_assert_int_eq(dl_type_compile(z), DL_ERR_UNSUPPORTED);
  ck_assert_int_eq(dl_type_compile(NULL), DL_ERR_ARG);
  /* the periodic Indexed pattern: the short period is unrolled */
  enum { N = 100000 };
  static const int pick[5] = {0, 1, 3, 6, 7};
  dl_count *b2 = malloc(N * sizeof(dl_count)), *d2 = malloc(N * sizeof(dl_count));
  for (int i = 0; i < N; i++) {
    b2[i] = 1;
    d2[i] = pick[i % 5] + 10 * (i / 5);
  }
  dl_type *ix, *ixp;
  ck_assert_int_eq(dl_type_indexed(N, b2, d2, f, &ix), DL_OK);
  ck_assert_int_eq(dl_type_indexed(N, b2, d2, f, &ixp), DL_OK);
  dl_type_commit(ix);
  dl_type_commit(ixp);
  ck_assert_int_eq(dl_type_compile(ix), DL_OK);
  ck_assert_ptr_nonnull(dli_jit_get(ix->loop, DLI_JIT_PACK));
  size_t len = (size_t)d2[N - 1] + 1, packed = N * 4;
  float *mem = malloc(len * sizeof(float));
  for (size_t i = 0; i < len; i++)
    mem[i] = (float)i;
  same_as_interpreted(ix, ixp, (char *)mem, len * 4, (char *)mem, packed);
  free(mem);
  free(b2);
  free(d2);
  dl_type_free(&ix);
  dl_type_free(&ixp);
  dl_type_free(&z);
  dl_type_free(&v);
  dl_type_free(&s);
  dl_type_free(&one);
}
END_TEST

/* loops emitted for t's root: "loop" blocks in its function */
static int emitted_loops_of(const dl_type *t)
{
  ck_assert(dli_llvm_load());
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("t", ctx);
  LLVMValueRef fn = LLVMAddFunction(m, "f", dli_cg_fn_type(ctx));
  ck_assert(dli_cg_emit(fn, t->loop, DLI_JIT_UNPACK, NULL, NULL));
  int loops = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    loops += strncmp(LLVMGetBasicBlockName(b), "loop", 4) == 0;
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return loops;
}

/* the IR emitted for t's root (to be freed) */
static char *emitted_ir_dir(const dl_type *t, int dir)
{
  ck_assert(dli_llvm_load());
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("t", ctx);
  LLVMValueRef fn = LLVMAddFunction(m, "f", dli_cg_fn_type(ctx));
  ck_assert(dli_cg_emit(fn, t->loop, dir, NULL, NULL));
  char *ir = LLVMPrintModuleToString(m), *copy = strdup(ir);
  LLVMDisposeMessage(ir);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return copy;
}

static char *emitted_ir(const dl_type *t)
{
  return emitted_ir_dir(t, DLI_JIT_PACK);
}

static int count_of(const char *s, const char *what)
{
  int n = 0;
  for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
    n++;
  return n;
}

/* A gather's offset table is emitted in 4 bytes where every offset fits
   (as the interpreter's offs32), in 8 where one does not; the compiled
   narrow gather moves the interpreter's bytes */
START_TEST(narrow_tables)
{
  if (jit_off)
    return;
  enum { N = 200, SPAN = 4000 };
  dl_count d[N];
  dl_aint far[N];
  for (int i = 0; i < N; i++) {
    d[i] = (dl_count)i * (SPAN / N) + (dl_count)(((unsigned)i * 2654435761u) >> 28);
    far[i] = (dl_aint)d[i] * 8 + (i == N - 1 ? ((dl_aint)1 << 33) : 0);
  }
  dl_type *g, *gp, *t, *tp, *h, *ht;
  ck_assert_int_eq(dl_type_indexed_block(N, 1, d, dl_builtin(DL_DOUBLE), &g), DL_OK);
  ck_assert_int_eq(dl_type_indexed_block(N, 1, d, dl_builtin(DL_DOUBLE), &gp), DL_OK);
  /* three gathers a mebibyte apart: the leaf inside a loop gets a table */
  ck_assert_int_eq(dl_type_hvector(3, 1, 1 << 20, g, &t), DL_OK);
  ck_assert_int_eq(dl_type_hvector(3, 1, 1 << 20, gp, &tp), DL_OK);
  ck_assert_int_eq(dl_type_hindexed_block(N, 1, far, dl_builtin(DL_DOUBLE), &h), DL_OK);
  ck_assert_int_eq(dl_type_hvector(3, 1, (dl_aint)1 << 35, h, &ht), DL_OK);
  dl_type_commit(t);
  dl_type_commit(tp);
  dl_type_commit(ht);
  ck_assert(t->loop->child && t->loop->child->kind == DLI_BLOCKINDEXED);
  char *ir = emitted_ir(t);
  ck_assert_msg(strstr(ir, "x i32] [i32 ") && !strstr(ir, "x i64] [i64 "), "%s", ir);
  free(ir);
  ir = emitted_ir(ht);
  ck_assert_msg(strstr(ir, "x i64] [i64 ") && !strstr(ir, "x i32] [i32 "), "%s", ir);
  free(ir);
  ck_assert_int_eq(dl_type_compile(t), DL_OK);
  ck_assert_ptr_nonnull(dli_jit_get(t->loop, DLI_JIT_PACK));
  size_t memlen = (size_t)(2 << 20) + SPAN * 8;
  char *mem = malloc(memlen);
  for (size_t i = 0; i < memlen; i++)
    mem[i] = (char)(i * 7 + 3);
  same_as_interpreted(t, tp, mem, memlen, mem, 3 * N * 8);
  free(mem);
  dl_type_free(&g);
  dl_type_free(&gp);
  dl_type_free(&t);
  dl_type_free(&tp);
  dl_type_free(&h);
  dl_type_free(&ht);
}
END_TEST

/* the same for a leaf of n blocks */
static int emitted_loops(dl_count n)
{
  dl_type *t;
  ck_assert_int_eq(dl_type_vector(n, 1, 2, dl_builtin(DL_FLOAT), &t), DL_OK);
  dl_type_commit(t);
  ck_assert(t->loop->leaf);
  int loops = emitted_loops_of(t);
  dl_type_free(&t);
  return loops;
}

/* a long loop of short blocks is unrolled (a loop of 16 bodies per trip,
   then the rest one by one); a loop too short for that is not (the
   function's own loop runs a range known only at run time) */
START_TEST(unrolled_loops)
{
  ck_assert_int_eq(emitted_loops(40), 2);
  ck_assert_int_eq(emitted_loops(20), 1);
}
END_TEST

/* blocks of blens bytes at offsets 0, 8192, 20480 of 32 KiB, 6 times */
static dl_type *three_blocks(const dl_count blens[3])
{
  dl_type *h, *r, *t;
  const dl_aint offs[3] = {0, 8192, 20480};
  ck_assert_int_eq(dl_type_hindexed(3, blens, offs, dl_builtin(DL_BYTE), &h), DL_OK);
  ck_assert_int_eq(dl_type_resized(h, 0, 32768, &r), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(6, r, &t), DL_OK);
  ck_assert_int_eq(dl_type_commit(t), DL_OK);
  dl_type_free(&h);
  dl_type_free(&r);
  return t;
}

/* a block longer than DLI_MOVSB_PIECE is moved in pieces (dli_memcpy's
   reason: glibc's `rep movsb` at some distances between the buffers), a
   loop of its own; and the bytes are the interpreter's at every distance
   near a multiple of 4 KiB */
START_TEST(long_blocks_in_pieces)
{
  if (jit_off)
    return;
  static const dl_count longb[3] = {3000, 5000, 4100}, shortb[3] = {2000, 2048, 100};
  dl_type *lt = three_blocks(longb), *st = three_blocks(shortb);
  ck_assert(!lt->loop->leaf && lt->loop->child->leaf);
  ck_assert_int_eq(emitted_loops_of(lt) - emitted_loops_of(st), 3);
  dl_type *plain = three_blocks(longb);
  ck_assert_int_eq(dl_type_compile(lt), DL_OK);
  ck_assert_ptr_nonnull(dli_jit_get(lt->loop, DLI_JIT_PACK));
  size_t memlen = 6 * 32768 + 8192, packed = 6 * 12100;
  char *mem = aligned_alloc(4096, memlen);
  for (size_t i = 0; i < memlen; i++)
    mem[i] = (char)(i * 31 + 7);
  for (long d = -40; d <= 40; d += 4)
    same_as_interpreted(lt, plain, mem, memlen, mem + 4096 + d, packed);
  free(mem);
  dl_type_free(&lt);
  dl_type_free(&st);
  dl_type_free(&plain);
}
END_TEST

/* One compile of 300 new shapes grows the shape cache while it collects
   its jobs; every one of them must be found compiled afterwards (the
   cache once kept pointers into the table it had just replaced, so the
   first jobs' code was written to freed memory and never found again). */
START_TEST(cache_grows_in_one_compile)
{
  if (jit_off)
    return;
  enum { N = 300 };
  dl_type *kids[N], *a, *b;
  dl_count bl[N];
  dl_aint da[N];
  for (int k = 0; k < N; k++) {
    ck_assert_int_eq(dl_type_vector(12, 3, 1000 + k, dl_builtin(DL_INT16), &kids[k]),
                     DL_OK);
    bl[k] = 1;
    da[k] = (dl_aint)k * 40000;
  }
  ck_assert_int_eq(dl_type_struct(N, bl, da, kids, &a), DL_OK);
  ck_assert_int_eq(dl_type_struct(N, bl, da, kids, &b), DL_OK);
  dl_type_commit(a);
  dl_type_commit(b);
  ck_assert_int_eq(dl_type_compile(a), DL_OK);
  ck_assert_int_eq(dl_type_compile(b), DL_OK);
  ck_assert_int_eq(a->loop->kind, DLI_STRUCT);
  /* every member compiled, and found in the cache by the second type */
  for (int k = 0; k < N; k++) {
    const dli_loop *x = a->loop->children[k], *y = b->loop->children[k];
    for (int dir = 0; dir < 2; dir++) {
      ck_assert_msg(dli_jit_get(x, dir) != NULL, "member %d, direction %d: no code", k, dir);
      ck_assert_ptr_eq(dli_jit_get(x, dir), dli_jit_get(y, dir));
    }
  }
  /* and the compiled code moves what the type's pieces say (listing the
     pieces never runs compiled code) */
  size_t size, pos = 0, n = 0, last;
  dl_pack_size(1, a, &size);
  char *mem = malloc((size_t)N * 40000), *packed = malloc(size), *want = malloc(size);
  for (size_t i = 0; i < (size_t)N * 40000; i++)
    mem[i] = (char)(i * 7);
  ck_assert_int_eq(dl_pack(mem, 1, a, packed, size, &pos), DL_OK);
  struct iovec *iov = malloc(size * sizeof(struct iovec));
  dl_segment *sg;
  ck_assert_int_eq(dl_segment_create(mem, 1, a, &sg), DL_OK);
  last = size;
  ck_assert_int_eq(dl_segment_iov(sg, 0, &last, iov, size, &n), DL_OK);
  ck_assert_uint_eq(last, size);
  dl_segment_free(&sg);
  for (size_t i = 0, at = 0; i < n; at += iov[i].iov_len, i++)
    memcpy(want + at, iov[i].iov_base, iov[i].iov_len);
  ck_assert_mem_eq(packed, want, size);
  for (int k = 0; k < N; k++)
    dl_type_free(&kids[k]);
  free(iov);
  free(mem);
  free(packed);
  free(want);
  dl_type_free(&a);
  dl_type_free(&b);
}
END_TEST

START_TEST(shape_cache)
{
  if (jit_off)
    return;
  /* two types of one shape share one compiled function */
  dl_type *a, *b;
  ck_assert_int_eq(dl_type_vector(12, 3, 7, dl_builtin(DL_INT16), &a), DL_OK);
  ck_assert_int_eq(dl_type_vector(12, 3, 7, dl_builtin(DL_INT16), &b), DL_OK);
  dl_type_commit(a);
  dl_type_commit(b);
  ck_assert_int_eq(dl_type_compile(a), DL_OK);
  ck_assert_int_eq(dl_type_compile(b), DL_OK);
  ck_assert_ptr_nonnull(dli_jit_get(a->loop, DLI_JIT_PACK));
  ck_assert_ptr_eq(dli_jit_get(a->loop, DLI_JIT_PACK), dli_jit_get(b->loop, DLI_JIT_PACK));
  /* another stride is another function */
  dl_type *c;
  ck_assert_int_eq(dl_type_vector(12, 3, 8, dl_builtin(DL_INT16), &c), DL_OK);
  dl_type_commit(c);
  ck_assert_int_eq(dl_type_compile(c), DL_OK);
  ck_assert_ptr_ne(dli_jit_get(a->loop, DLI_JIT_PACK), dli_jit_get(c->loop, DLI_JIT_PACK));
  dl_type_free(&a);
  dl_type_free(&b);
  dl_type_free(&c);
}
END_TEST

/* test/Makefile.inc runs this program with DL_JIT_THRESHOLD=3 */
START_TEST(threshold_and_hint)
{
  dl_type *t;
  ck_assert_int_eq(dl_type_vector(10, 2, 5, dl_builtin(DL_DOUBLE), &t), DL_OK);
  dl_type_commit(t);
  double in[500] = {0}, out[200];
  for (int k = 0; k < 4; k++) {
    ck_assert_int_eq(atomic_load(&t->compiled) & 1, 0);   /* not yet */
    size_t pos = 0;
    ck_assert_int_eq(dl_pack(in, 1, t, out, sizeof(out), &pos), DL_OK);
  }
  ck_assert_int_eq(atomic_load(&t->compiled), jit_off ? 0 : 1);  /* 4th use, pack only */
  dl_type_free(&t);
  /* a hint compiles at commit */
  ck_assert_int_eq(dl_type_vector(10, 2, 6, dl_builtin(DL_DOUBLE), &t), DL_OK);
  ck_assert_int_eq(dl_type_set_hint(t, DL_HINT_REUSE_HIGH), DL_OK);
  ck_assert_int_eq(atomic_load(&t->compiled), 0);
  dl_type_commit(t);
  ck_assert_int_eq(atomic_load(&t->compiled), jit_off ? 0 : 3);
  ck_assert_int_eq(dl_type_set_hint(t, 99), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_set_hint(NULL, DL_HINT_NONE), DL_ERR_ARG);
  ck_assert_int_eq(dl_type_set_hint(dl_builtin(DL_INT32), DL_HINT_REUSE_HIGH), DL_OK);
  dl_type_free(&t);
}
END_TEST

/* many threads compiling and packing the same and similar types at once */
struct job {
  dl_type *t;
  int k;
  bool ok;
};

/* 333 cells of 8 doubles, three picked from each: a loop nest that
   compiles */
enum { CELLS = 333 };
static const dl_aint picks[3] = {0, 16, 48};

static dl_type *cells(void)
{
  dl_type *b, *r, *t;
  ck_assert_int_eq(dl_type_hindexed_block(3, 1, picks, dl_builtin(DL_DOUBLE), &b), DL_OK);
  ck_assert_int_eq(dl_type_resized(b, 0, 64, &r), DL_OK);
  ck_assert_int_eq(dl_type_contiguous(CELLS, r, &t), DL_OK);
  dl_type_free(&b);
  dl_type_free(&r);
  dl_type_commit(t);
  return t;
}

static void *worker(void *arg)
{
  struct job *j = arg;
  double in[8 * CELLS], out[3 * CELLS];
  for (int i = 0; i < 8 * CELLS; i++)
    in[i] = i;
  j->ok = true;
  for (int round = 0; round < 50; round++) {
    if (round == j->k && dl_type_compile(j->t) != DL_OK && !jit_off)
      j->ok = false;
    size_t pos = 0;
    if (dl_pack(in, 1, j->t, out, sizeof(out), &pos) != DL_OK)
      j->ok = false;
    for (int c = 0; c < CELLS; c++)
      for (int k = 0; k < 3; k++)
        if (out[3 * c + k] != (double)(8 * c + picks[k] / 8))
          j->ok = false;
  }
  return NULL;
}

START_TEST(threads)
{
  enum { T = 8 };
  dl_type *shared;
  shared = cells();
  pthread_t th[T];
  struct job jobs[T];
  dl_type *own[T];
  for (int i = 0; i < T; i++) {
    /* half share one type, half have their own of the same shape */
    own[i] = NULL;
    if (i % 2) {
      own[i] = cells();
    }
    jobs[i] = (struct job){own[i] ? own[i] : shared, i, false};
    ck_assert_int_eq(pthread_create(&th[i], NULL, worker, &jobs[i]), 0);
  }
  for (int i = 0; i < T; i++) {
    pthread_join(th[i], NULL);
    ck_assert(jobs[i].ok);
    if (own[i])
      dl_type_free(&own[i]);
  }
  dl_type_free(&shared);
}
END_TEST

#ifdef DLI_LLVM_SONAME
static bool llvm_mapped(void)
{
  void *h = dlopen(DLI_LLVM_SONAME, RTLD_NOW | RTLD_NOLOAD);
  if (h)
    dlclose(h);
  return h != NULL;
}
#endif

/* a shared libLLVM is loaded by the first compile of a type with
   something to compile (main checks that it was not before) */
START_TEST(llvm_loaded_at_first_compile)
{
#ifdef DLI_LLVM_SONAME
  /* a long leaf loop is the interpreter's kernel's: nothing to compile,
     and LLVM not loaded for it (unless an earlier test did, CK_FORK=no) */
  bool before = llvm_mapped();
  dl_type *t;
  ck_assert_int_eq(dl_type_vector(1000, 2, 5, dl_builtin(DL_INT32), &t), DL_OK);
  dl_type_commit(t);
  ck_assert_int_eq(dl_type_compile(t), DL_ERR_UNSUPPORTED);
  ck_assert(llvm_mapped() == before);
  dl_type_free(&t);
  ck_assert_int_eq(dl_type_vector(7, 2, 5, dl_builtin(DL_INT32), &t), DL_OK);
  dl_type_commit(t);
  ck_assert_int_eq(dl_type_compile(t), DL_OK);   /* DL_JIT=0 or not */
  ck_assert(llvm_mapped());
  dl_type_free(&t);
#endif
}
END_TEST

int main(void)
{
  const char *e = getenv("DL_JIT");
  jit_off = e && !strcmp(e, "0");
#ifdef DLI_LLVM_SONAME
  /* nothing compiled yet: LLVM not loaded */
  if (llvm_mapped()) {
    fprintf(stderr, "test_jit: %s was loaded before any compile\n", DLI_LLVM_SONAME);
    return 1;
  }
#endif
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, llvm_loaded_at_first_compile);
  tcase_add_test(tc, flash_reordered);
  tcase_add_test(tc, reordered_partial);
  tcase_add_test(tc, chunked_repetitions);
  tcase_add_test(tc, chunked_leaf_blocks);
  tcase_add_test(tc, overlapping_unpack);
  tcase_add_test(tc, suite_shapes);
  tcase_add_test(tc, narrow_tables);
  tcase_add_test(tc, shape_cache);
  tcase_add_test(tc, unrolled_loops);
  tcase_add_test(tc, long_blocks_in_pieces);
  tcase_add_test(tc, cache_grows_in_one_compile);
  tcase_add_test(tc, threshold_and_hint);
  tcase_add_test(tc, threads);
  return test_run("jit", tc, false);
}
