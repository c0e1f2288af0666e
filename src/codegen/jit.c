/* The JIT: one LLJIT for the process, started at first use; compiled code
 * cached by the shape of the loop it was compiled from, so identical
 * shapes compile once; one module (one pass of code generation) per type,
 * lowered here to an object that the object cache keeps across runs.
 * Functions are named by their shape, so an object serves any process
 * that needs the same shapes. Code generation runs at LLVM's fastest
 * level: the emitted IR already has its constants, unrolling and order,
 * and a type must compile in well under a millisecond. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "codegen.h"
#include "../../dataloop/env.h"
#include <build-id.h>     /* made by make in the build tree (Makefile.am) */

static struct {
  LLVMOrcLLJITRef jit;
  LLVMTargetMachineRef tm;   /* lowers modules to objects */
  LLVMTargetDataRef layout;
  char *triple;
  bool ready;
  pthread_mutex_t lock;      /* compiles and the caches, one at a time */
  unsigned long next;        /* names of functions whose shape hash is taken */
  struct entry *table;       /* the shape cache, open addressing */
  size_t cap, used;
  bool strict, dump;         /* DL_JIT_STRICT, DL_JIT_DUMP */
  int level;                 /* DL_JIT_OPT: LLVM's code generation level */
  bool llvm_links;           /* DL_JIT_LINK=llvm: every object by LLVM's linker */
  unsigned long own, by_llvm;   /* objects linked by elfload.c, by LLVM */
  dli_code_arena *arena;     /* elfload.c's code */
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

/* a target machine for this host at the JIT's level, or NULL */
static LLVMTargetMachineRef host_machine(void)
{
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(J.triple, &target, &err)) {
    LLVMDisposeMessage(err);
    return NULL;
  }
  char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
      target, J.triple, cpu, features, (LLVMCodeGenOptLevel)J.level, LLVMRelocDefault,
      LLVMCodeModelJITDefault);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  return tm;
}

/* what a compiled object depends on besides the shapes it was compiled
   from: the library's sources, LLVM, the CPU and the code generation level */
static void start_object_cache(const char *cpu, const char *features, int level)
{
  char head[256];
  int n = snprintf(head, sizeof(head), "dataloop %s sources %s llvm %s %s %s O%d ",
                   dl_version(), DLI_BUILD_ID, LLVM_VERSION_STRING, J.triple, cpu, level);
  size_t len = (size_t)n + strlen(features) + 1;
  char *ident = malloc(len);
  if (!ident)
    return;
  snprintf(ident, len, "%s%s", head, features);
  dli_objcache_start(ident);
  free(ident);
}

static void start(void)
{
  double t0 = (double)clock();
  J.strict = dli_env_flag("DL_JIT_STRICT", false);
  J.dump = dli_env_flag("DL_JIT_DUMP", false);
  if (!dli_llvm_load())
    return;
  J.triple = LLVMGetDefaultTargetTriple();
  J.level = (int)dli_env_int("DL_JIT_OPT", 0, 0, 3);
  if (!(J.tm = host_machine()))
    return;
  J.layout = LLVMCreateTargetDataLayout(J.tm);
  char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  start_object_cache(cpu, features, J.level);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  static const char *const links[] = {"own", "llvm", NULL};
  J.llvm_links = dli_env_choice("DL_JIT_LINK", links, 0) == 1;
  J.ready = true;
  if (dli_trace())
    fprintf(stderr, "dataloop: jit: started in %.2f ms, object cache %s\n",
            ((double)clock() - t0) * 1e3 / CLOCKS_PER_SEC,
            dli_objcache_dir() ? dli_objcache_dir() : "off");
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
  bool code;                 /* its body compiled (or the cached object has it) */
} job;

typedef struct batch {
  job *jobs;
  size_t n, cap;
  LLVMModuleRef m;
  bool nomem;
  bool local;                /* a name is this process's own: not for the disk */
  double ir_ms, lower_ms;
} batch;

/* whether a shape in the cache other than the one being added has hash h
   (functions are named by it); the table always has an empty slot */
static bool hash_taken(uint64_t h)
{
  for (size_t i = h % J.cap; J.table[i].key; i = (i + 1) % J.cap)
    if (J.table[i].hash == h)
      return true;
  return false;
}

/* the functions for loop l in the directions of mask */
static void add_jobs(batch *bt, const dli_loop *l, int mask)
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
    bool taken = hash_taken(h);
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
    *j = (job){l, dir, h, e->key, e->len, {0}, NULL, false};
    if (taken) {
      snprintf(j->name, sizeof(j->name), "dlu%lu", J.next++);
      bt->local = true;
    } else {
      snprintf(j->name, sizeof(j->name), "dl_%016" PRIx64, h);
    }
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

/* the loops that get code, each requested direction, from the cache or
   new in the batch: the root (one-shot calls use it), and on each path
   below it the first loop whose elements are small enough for chunked
   processing to find whole ones. With no batch, only whether there is
   one (before the JIT is started for it). */
static bool collect(batch *bt, const dli_loop *l, int mask, bool root)
{
  /* a single run is one memcpy already: nothing to gain */
  bool eligible = dli_jit_shape_ok(l) && !dli_is_dense(l);
  bool small = l->leaf || l->el_size <= DLI_CG_CHUNK_ELEM;
  /* a long leaf loop is one call of an optimized kernel for the
     interpreter already: code of its own would only be slower */
  bool own = !(l->leaf && l->kind != DLI_CONTIG && l->count > DLI_CG_UNROLL);
  if (eligible && own && (root || small)) {
    if (!bt)
      return true;
    add_jobs(bt, l, mask);
  }
  if (eligible && small && !root)
    return false;
  bool any = false;
  if (l->kind == DLI_STRUCT)
    for (dl_count i = 0; i < l->count && !(any && !bt); i++)
      any = collect(bt, l->children[i], mask, false) || any;
  else if (!l->leaf)
    any = collect(bt, l->child, mask, false);
  return any;
}

/* the key of the batch's object: its jobs' shapes, in order */
static bool batch_key(const batch *bt, bytes *k)
{
  for (size_t i = 0; i < bt->n; i++) {
    uint64_t len = bt->jobs[i].len;
    put(k, &len, sizeof(len));
    put(k, bt->jobs[i].key, bt->jobs[i].len);
  }
  return !k->nomem;
}

/* LLVM's JIT linker, for an object elfload.c refuses: made at the first */
static bool llvm_jit(void)
{
  if (J.jit)
    return true;
  LLVMTargetMachineRef tm = host_machine();
  if (!tm)
    return false;
  LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
  LLVMOrcLLJITRef jit;
  if (!ok(LLVMOrcCreateLLJIT(&jit, builder), "start"))
    return false;
  /* memcpy, for long blocks, comes from the process */
  LLVMOrcDefinitionGeneratorRef gen;
  if (!ok(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
              &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL), "process symbols")) {
    LLVMOrcDisposeLLJIT(jit);
    return false;
  }
  LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
  J.jit = jit;
  return true;
}

static void publish(const job *j, void *fn)
{
  bytes k = {j->key, j->len, j->len, false};
  struct entry *e = slot(&k, j->hash);
  e->fn = fn;
  __atomic_store_n(&((dli_loop *)j->l)->jit[j->dir], fn, __ATOMIC_RELEASE);
}

/* links the object (len bytes at p) that defines the batch's functions,
   and publishes those into the cache and the loops: by elfload.c, or by
   LLVM's linker where it refuses the object */
static void link_object(batch *bt, const void *p, size_t len)
{
  const char **names = calloc(bt->n + 1, sizeof(*names));
  void **fns = calloc(bt->n + 1, sizeof(*fns));
  for (size_t i = 0; names && i < bt->n; i++)
    names[i] = bt->jobs[i].code ? bt->jobs[i].name : NULL;
  if (!J.arena && !J.llvm_links)
    J.arena = dli_code_arena_new();
  if (names && fns && J.arena && !J.llvm_links &&
      dli_elf_link(J.arena, p, len, bt->n, names, fns)) {
    for (size_t i = 0; i < bt->n; i++)
      if (names[i])
        publish(&bt->jobs[i], fns[i]);
    J.own++;
  } else if (llvm_jit() &&
             ok(LLVMOrcLLJITAddObjectFile(J.jit, LLVMOrcLLJITGetMainJITDylib(J.jit),
                                          LLVMCreateMemoryBufferWithMemoryRangeCopy(
                                              p, len, "dataloop")),
                "add object")) {
    for (size_t i = 0; i < bt->n; i++) {
      LLVMOrcExecutorAddress a;
      if (bt->jobs[i].code && ok(LLVMOrcLLJITLookup(J.jit, &a, bt->jobs[i].name), "lookup"))
        publish(&bt->jobs[i], (void *)(uintptr_t)a);
    }
    J.by_llvm++;
  }
  free(names);
  free(fns);
}

void dli_jit_links(unsigned long *own, unsigned long *llvm)
{
  pthread_mutex_lock(&J.lock);
  *own = J.own;
  *llvm = J.by_llvm;
  pthread_mutex_unlock(&J.lock);
}

/* The object stored under key: a flag per job (whether the object
   defines its function), then the object file. */
static bool from_disk(batch *bt, const bytes *key)
{
  size_t len;
  unsigned char *v = dli_objcache_get(key->p, key->n, &len);
  if (!v)
    return false;
  bool whole = len > bt->n;
  for (size_t i = 0; whole && i < bt->n; i++)
    bt->jobs[i].code = v[i] == 1;
  if (whole)
    link_object(bt, v + bt->n, len - bt->n);
  free(v);
  return whole;
}

static void to_disk(const batch *bt, const bytes *key, LLVMMemoryBufferRef obj)
{
  size_t n = LLVMGetBufferSize(obj);
  unsigned char *v = malloc(bt->n + n);
  if (!v)
    return;
  for (size_t i = 0; i < bt->n; i++)
    v[i] = bt->jobs[i].code;
  memcpy(v + bt->n, LLVMGetBufferStart(obj), n);
  dli_objcache_put(key->p, key->n, v, bt->n + n);
  free(v);
}

/* the bodies, once every function is declared; a body that does not
   compile leaves its function out (callers emit that loop inline) */
static void emit_all(batch *bt, LLVMContextRef ctx)
{
  bt->m = LLVMModuleCreateWithNameInContext("dataloop", ctx);
  LLVMSetTarget(bt->m, J.triple);
  LLVMSetModuleDataLayout(bt->m, J.layout);
  for (size_t i = 0; i < bt->n; i++)
    bt->jobs[i].fn = LLVMAddFunction(bt->m, bt->jobs[i].name, dli_cg_fn_type(ctx));
  for (size_t i = bt->n; i-- > 0;) {      /* inner loops were collected last */
    job *j = &bt->jobs[i];
    LLVMValueRef fn = j->fn;
    j->fn = NULL;                         /* not callable while being built */
    if (dli_cg_emit(fn, j->l, j->dir, batch_callee, bt)) {
      j->fn = fn;
      j->code = true;
    } else {
      LLVMDeleteFunction(fn);
    }
  }
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

static double ms_since(struct timespec a)
{
  struct timespec b;
  clock_gettime(CLOCK_MONOTONIC, &b);
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

/* emits, checks and lowers the batch, keeps the object under key (unless
   NULL) and links it */
static void compile_batch(batch *bt, const bytes *key)
{
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  LLVMContextRef ctx = LLVMContextCreate();
  emit_all(bt, ctx);
  if (J.dump) {                           /* the IR, for doc/codegen.md */
    char *ir = LLVMPrintModuleToString(bt->m);
    fputs(ir, stderr);
    LLVMDisposeMessage(ir);
  }
  bt->ir_ms = ms_since(t0);
  char *err = NULL;
  LLVMMemoryBufferRef obj = NULL;
  if (verified(bt->m) &&
      LLVMTargetMachineEmitToMemoryBuffer(J.tm, bt->m, LLVMObjectFile, &err, &obj)) {
    if (dli_trace())
      fprintf(stderr, "dataloop: jit: lowering: %s\n", err);
    LLVMDisposeMessage(err);
    obj = NULL;
  }
  LLVMDisposeModule(bt->m);
  LLVMContextDispose(ctx);
  bt->lower_ms = ms_since(t0) - bt->ir_ms;
  if (!obj)
    return;
  if (key)
    to_disk(bt, key, obj);
  link_object(bt, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj));
  LLVMDisposeMemoryBuffer(obj);
}

const bool dli_jit_built = true;

int dli_jit_compile(dl_type *t, int mask)
{
  /* nothing to compile: LLVM is not even loaded for it */
  if (t->builtin || t->b.size == 0 || !collect(NULL, t->loop, mask, true))
    return DL_ERR_UNSUPPORTED;
  pthread_once(&start_once, start);
  if (!J.ready)
    return DL_ERR_UNSUPPORTED;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_mutex_lock(&J.lock);
  batch bt = {0};
  collect(&bt, t->loop, mask, true);
  bool hit = false;
  if (bt.n > 0 && !bt.nomem) {
    bytes key = {0};
    bool keep = !bt.local && batch_key(&bt, &key);
    hit = keep && !J.dump && from_disk(&bt, &key);   /* a dump shows new IR */
    if (!hit)
      compile_batch(&bt, keep ? &key : NULL);
    free(key.p);
  }
  free(bt.jobs);
  int rc = bt.nomem ? DL_ERR_NOMEM : DL_OK;
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
  if (dli_trace())
    fprintf(stderr, "dataloop: jit: type %p: %zu new functions%s, %s, %.3f ms "
            "(IR %.3f ms, lowering %.3f ms)\n", (void *)t, bt.n,
            hit ? " from the object cache" : "", any ? "compiled" : "interpreted",
            ms_since(t0), bt.ir_ms, bt.lower_ms);
  return rc;
}
