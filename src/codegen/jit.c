/* The JIT: one LLJIT for the process, started at first use; compiled code
 * cached by the shape of the loop it was compiled from, so identical
 * shapes compile once; one module (one pass of code generation) per type.
 * Code generation runs at LLVM's fastest level: the emitted IR already has
 * its constants, unrolling and order, and a type must compile in well
 * under a millisecond. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include "codegen.h"
#include "../../dataloop/env.h"

static struct {
  LLVMOrcLLJITRef jit;
  bool ready;
  pthread_mutex_t lock;      /* compiles and the cache, one at a time */
  unsigned long next;        /* function names */
  struct entry *table;       /* the shape cache, open addressing */
  size_t cap, used;
  bool strict, dump;         /* DL_JIT_STRICT, DL_JIT_DUMP */
} J = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t start_once = PTHREAD_ONCE_INIT;

struct entry {
  uint64_t hash;
  unsigned char *key;        /* NULL: empty slot */
  size_t len;
  void *fn;                  /* NULL: this shape does not compile */
};

static bool ok(LLVMErrorRef e, const char *what)
{
  if (!e)
    return true;
  char *m = LLVMGetErrorMessage(e);
  if (dli_trace())
    fprintf(stderr, "dataloop: jit: %s: %s\n", what, m);
  LLVMDisposeErrorMessage(m);
  return false;
}

static void start(void)
{
  double t0 = (double)clock();
  J.strict = dli_env_flag("DL_JIT_STRICT", false);
  J.dump = dli_env_flag("DL_JIT_DUMP", false);
  if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
    return;
  char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    LLVMDisposeMessage(err);
    LLVMDisposeMessage(triple);
    return;
  }
  char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  int level = (int)dli_env_int("DL_JIT_OPT", 0, 0, 3);   /* LLVM's codegen level */
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
      target, triple, cpu, features, (LLVMCodeGenOptLevel)level, LLVMRelocDefault,
      LLVMCodeModelJITDefault);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
  if (!ok(LLVMOrcCreateLLJIT(&J.jit, builder), "start"))
    return;
  /* memcpy, for long blocks, comes from the process */
  LLVMOrcDefinitionGeneratorRef gen;
  if (!ok(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
              &gen, LLVMOrcLLJITGetGlobalPrefix(J.jit), NULL, NULL), "process symbols"))
    return;
  LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(J.jit), gen);
  J.ready = true;
  if (dli_trace())
    fprintf(stderr, "dataloop: jit: started in %.2f ms\n",
            ((double)clock() - t0) * 1e3 / CLOCKS_PER_SEC);
}

/* ---- shapes ---- */

typedef struct bytes {
  unsigned char *p;
  size_t n, cap;
  bool nomem;
} bytes;

static void put(bytes *b, const void *v, size_t n)
{
  if (b->n + n > b->cap) {
    size_t cap = (b->n + n) * 2 + 64;
    unsigned char *p = realloc(b->p, cap);
    if (!p) {
      b->nomem = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, v, n);
  b->n += n;
}

/* everything code generation reads from a loop subtree */
static void shape(bytes *b, const dli_loop *l)
{
  int64_t f[9] = {l->kind, l->leaf, l->count, l->blocklen, l->stride, l->offset,
                  l->el_size, l->el_extent, l->size};
  put(b, f, sizeof(f));
  dl_count c = l->count;
  if (l->kind == DLI_BLOCKINDEXED || l->kind == DLI_INDEXED || l->kind == DLI_STRUCT)
    put(b, l->offs, (size_t)c * sizeof(dl_aint));
  if (l->kind == DLI_INDEXED || l->kind == DLI_STRUCT)
    put(b, l->pre, (size_t)(c + 1) * sizeof(dl_count));
  if (!l->leaf && (l->kind == DLI_INDEXED || l->kind == DLI_STRUCT))
    put(b, l->blocklens, (size_t)c * sizeof(dl_count));
  if (l->kind == DLI_STRUCT) {
    put(b, l->exts, (size_t)c * sizeof(dl_aint));
    for (dl_count i = 0; i < c; i++)
      shape(b, l->children[i]);
  } else if (!l->leaf) {
    shape(b, l->child);
  }
}

static uint64_t fnv(const unsigned char *p, size_t n)
{
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/* the cache slot for a key: its entry, or the empty slot to fill */
static struct entry *slot(const bytes *k, uint64_t h)
{
  if (J.cap == 0)
    return NULL;
  for (size_t i = h % J.cap;; i = (i + 1) % J.cap) {
    struct entry *e = &J.table[i];
    if (!e->key || (e->hash == h && e->len == k->n && !memcmp(e->key, k->p, k->n)))
      return e;
  }
}

static bool grow(void)
{
  if (2 * (J.used + 1) <= J.cap)
    return true;
  size_t cap = J.cap ? 2 * J.cap : 256;
  struct entry *old = J.table, *t = calloc(cap, sizeof(struct entry));
  if (!t)
    return false;
  size_t oldcap = J.cap;
  J.table = t;
  J.cap = cap;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].key) {
      bytes k = {old[i].key, old[i].len, old[i].len, false};
      *slot(&k, old[i].hash) = old[i];
    }
  free(old);
  return true;
}

/* ---- compiling a type ---- */

typedef struct job {
  const dli_loop *l;
  int dir;
  /* the cache entry it fills, by its key: the table may be rehashed (and
     its entries moved) while the batch collects later jobs */
  uint64_t hash;
  unsigned char *key;        /* the entry's own key bytes, never moved */
  size_t len;
  char name[24];
  LLVMValueRef fn;           /* declared in the batch's module */
} job;

typedef struct batch {
  job *jobs;
  size_t n, cap;
  LLVMModuleRef m;
  bool nomem;
} batch;

/* the functions for loop l in the directions of mask */
static void add_jobs(batch *bt, const dli_loop *l, LLVMContextRef ctx, int mask)
{
  for (int dir = 0; dir < 2; dir++) {
    if (!(mask & (1 << dir)))
      continue;
    bytes k = {0};
    shape(&k, l);
    put(&k, &dir, sizeof(dir));
    if (k.nomem || !grow()) {
      free(k.p);
      bt->nomem = true;
      return;
    }
    uint64_t h = fnv(k.p, k.n);
    struct entry *e = slot(&k, h);
    if (e->key) {                       /* compiled before, or known not to */
      free(k.p);
      if (e->fn)
        __atomic_store_n(&((dli_loop *)l)->jit[dir], e->fn, __ATOMIC_RELEASE);
      continue;
    }
    *e = (struct entry){h, k.p, k.n, NULL};
    J.used++;
    if (bt->n == bt->cap) {
      size_t cap = bt->cap ? 2 * bt->cap : 16;
      job *j = realloc(bt->jobs, cap * sizeof(job));
      if (!j) {
        bt->nomem = true;
        return;
      }
      bt->jobs = j;
      bt->cap = cap;
    }
    job *j = &bt->jobs[bt->n++];
    *j = (job){l, dir, h, e->key, e->len, {0}, NULL};
    snprintf(j->name, sizeof(j->name), "dlf%lu", J.next++);
    if (!bt->m)
      bt->m = LLVMModuleCreateWithNameInContext("dataloop", ctx);
    j->fn = LLVMAddFunction(bt->m, j->name, dli_cg_fn_type(ctx));
  }
}

/* a function of this batch for loop l, for bodies that contain it */
static LLVMValueRef batch_callee(void *ctx, const dli_loop *l, int dir)
{
  batch *bt = ctx;
  for (size_t i = 0; i < bt->n; i++)
    if (bt->jobs[i].l == l && bt->jobs[i].dir == dir && bt->jobs[i].fn)
      return bt->jobs[i].fn;
  return NULL;
}

/* the bodies, once every function is declared; a body that does not
   compile leaves its function out (callers emit that loop inline) */
static void emit_all(batch *bt)
{
  for (size_t i = bt->n; i-- > 0;) {      /* inner loops were collected last */
    job *j = &bt->jobs[i];
    LLVMValueRef fn = j->fn;
    j->fn = NULL;                         /* not callable while being built */
    if (dli_cg_emit(fn, j->l, j->dir, batch_callee, bt))
      j->fn = fn;
    else
      LLVMDeleteFunction(fn);
  }
}

/* the loops that get code, each requested direction, from the cache or
   emitted into the batch's module: the root (one-shot calls use it), and
   on each path below it the first loop whose elements are small enough
   for chunked processing to find whole ones */
static void collect(batch *bt, const dli_loop *l, LLVMContextRef ctx, int mask, bool root)
{
  /* a single run is one memcpy already: nothing to gain */
  bool eligible = dli_jit_shape_ok(l) && !dli_is_dense(l);
  bool small = l->leaf || l->el_size <= DLI_CG_CHUNK_ELEM;
  /* a long leaf loop is one call of an optimized kernel for the
     interpreter already: code of its own would only be slower */
  bool own = !(l->leaf && l->kind != DLI_CONTIG && l->count > DLI_CG_UNROLL);
  if (eligible && own && (root || small))
    add_jobs(bt, l, ctx, mask);
  if (eligible && small && !root)
    return;
  if (l->kind == DLI_STRUCT)
    for (dl_count i = 0; i < l->count; i++)
      collect(bt, l->children[i], ctx, mask, false);
  else if (!l->leaf)
    collect(bt, l->child, ctx, mask, false);
}

/* hands the module to the JIT and fills the cache and the loops */
static bool link_batch(batch *bt, LLVMOrcThreadSafeContextRef tsc)
{
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(bt->m, tsc);
  bt->m = NULL;                        /* owned by the JIT now */
  if (!ok(LLVMOrcLLJITAddLLVMIRModule(J.jit, LLVMOrcLLJITGetMainJITDylib(J.jit), tsm),
          "add module"))
    return false;
  bool any = false;
  for (size_t i = 0; i < bt->n; i++) {
    job *j = &bt->jobs[i];
    if (!j->fn)
      continue;
    LLVMOrcExecutorAddress a;
    if (!ok(LLVMOrcLLJITLookup(J.jit, &a, j->name), "lookup"))
      continue;
    bytes k = {j->key, j->len, j->len, false};
    struct entry *e = slot(&k, j->hash);
    e->fn = (void *)(uintptr_t)a;
    __atomic_store_n(&((dli_loop *)j->l)->jit[j->dir], e->fn, __ATOMIC_RELEASE);
    any = true;
  }
  return any;
}

static bool has_code(const dli_loop *l, int dir)
{
  if (dli_jit_get(l, dir))
    return true;
  if (l->kind == DLI_STRUCT) {
    for (dl_count i = 0; i < l->count; i++)
      if (has_code(l->children[i], dir))
        return true;
    return false;
  }
  return !l->leaf && has_code(l->child, dir);
}

static double ms_between(struct timespec a, struct timespec b)
{
  return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

/* Emitted IR that LLVM's verifier rejects is a bug here: the type stays
   interpreted (correct, only slower), DL_TRACE says why, and the tests
   (DL_JIT_STRICT=1) abort on it. */
static bool verified(LLVMModuleRef m)
{
  char *msg = NULL;
  if (!LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    LLVMDisposeMessage(msg);
    return true;
  }
  if (dli_trace() || J.strict)
    fprintf(stderr, "dataloop: jit: emitted code fails verification: %s\n", msg);
  LLVMDisposeMessage(msg);
  if (J.strict)
    abort();
  return false;
}

const bool dli_jit_built = true;

int dli_jit_compile(dl_type *t, int mask)
{
  if (t->builtin || t->b.size == 0)
    return DL_ERR_UNSUPPORTED;
  pthread_once(&start_once, start);
  if (!J.ready)
    return DL_ERR_UNSUPPORTED;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_mutex_lock(&J.lock);
  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  batch bt = {0};
  collect(&bt, t->loop, LLVMOrcThreadSafeContextGetContext(tsc), mask, true);
  if (bt.m)
    emit_all(&bt);
  struct timespec te;
  clock_gettime(CLOCK_MONOTONIC, &te);
  int rc = DL_OK;
  if (bt.nomem)
    rc = DL_ERR_NOMEM;
  if (bt.m && J.dump) {                   /* the IR, for doc/codegen.md */
    char *ir = LLVMPrintModuleToString(bt.m);
    fputs(ir, stderr);
    LLVMDisposeMessage(ir);
  }
  if (bt.m && bt.n > 0 && !bt.nomem && verified(bt.m))
    link_batch(&bt, tsc);
  if (bt.m)
    LLVMDisposeModule(bt.m);
  LLVMOrcDisposeThreadSafeContext(tsc);
  free(bt.jobs);
  bool any = false;
  for (int dir = 0; dir < 2; dir++)
    if ((mask & (1 << dir)) && has_code(t->loop, dir)) {
      atomic_fetch_or_explicit(&t->compiled, (unsigned char)(1 << dir),
                               memory_order_release);
      any = true;
    }
  if (!any && !rc)
    rc = DL_ERR_UNSUPPORTED;
  pthread_mutex_unlock(&J.lock);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (dli_trace())
    fprintf(stderr, "dataloop: jit: type %p: %zu new functions, %s, %.3f ms "
            "(IR %.3f ms)\n", (void *)t, bt.n, any ? "compiled" : "interpreted",
            ms_between(t0, t1), ms_between(t0, te));
  return rc;
}
