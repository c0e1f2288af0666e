/* The code generator: what emit.c offers jit.c. Everything here is
 * internal to libdataloop and only built with --with-llvm. */
#ifndef DLI_CODEGEN_H
#define DLI_CODEGEN_H

#include "llvm.h"
#include "policy.h"

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

/* The object cache (objcache.c): values (compiled objects) stored under
   keys (the shapes they were compiled from) in files that outlive the
   process. Callers serialize calls. */
typedef struct dli_objcache_counts {
  unsigned long hits, misses;
  unsigned long refused;      /* a file under the key's name failed a check */
  unsigned long written, failed;
  unsigned long evicted;      /* removed to keep the folder in its bound */
} dli_objcache_counts;

/* ident: everything besides the key that the value depends on */
DLI_HIDDEN void dli_objcache_start(const char *ident);
/* the value stored under key (malloc'd), or NULL */
DLI_HIDDEN void *dli_objcache_get(const void *key, size_t len, size_t *value_len);
DLI_HIDDEN void dli_objcache_put(const void *key, size_t len, const void *value,
                                 size_t value_len);
/* for tests and the benchmark */
DLI_HIDDEN void dli_objcache_counts_get(dli_objcache_counts *out);
DLI_HIDDEN const char *dli_objcache_dir(void);        /* NULL: no cache */
DLI_HIDDEN const char *dli_objcache_identity(void);

/* Links an object of the code generator into the process (elfload.c),
   its code in arena: fns[i] gets the address of the function names[i]
   (skipped when NULL). false: the object holds something this loader
   does not know, or no memory could be mapped (nothing is linked; LLVM's
   linker takes it). Callers serialize calls on one arena, which lives as
   long as the process. */
typedef struct dli_code_arena dli_code_arena;
DLI_HIDDEN dli_code_arena *dli_code_arena_new(void);
DLI_HIDDEN bool dli_elf_link(dli_code_arena *arena, const void *object, size_t len,
                             size_t n, const char *const *names, void **fns);
/* objects linked by elfload.c and by LLVM's JIT linker in this process,
   for tests and the benchmark */
DLI_HIDDEN void dli_jit_links(unsigned long *own, unsigned long *llvm);

#endif
