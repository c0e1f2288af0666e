/* When to compile (policy.h): DL_JIT=0 never; a DL_HINT_REUSE_HIGH type
 * at commit, or when the hint comes after it; otherwise a type once it has
 * been used DL_JIT_THRESHOLD times (default below, chosen from
 * measurements in doc/codegen.md). Read once. dl_type_commit and
 * dl_type_set_hint live here, at the edge that decides, so that the
 * representation never calls the code generator. */
#include <pthread.h>
#include "policy.h"
#include "../../dataloop/env.h"

#define DEFAULT_THRESHOLD 64

static struct {
  bool enabled, trace;
  long threshold;
} cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

static void load(void)
{
  cfg.enabled = dli_env_flag("DL_JIT", true);
  cfg.threshold = dli_env_int("DL_JIT_THRESHOLD", DEFAULT_THRESHOLD, 0, LONG_MAX - 1);
  cfg.trace = dli_env_flag("DL_TRACE", false);
}

bool dli_trace(void)
{
  pthread_once(&cfg_once, load);
  return cfg.trace;
}

/* compiles t unless DL_JIT=0 says never */
static void request(dl_type *t)
{
  pthread_once(&cfg_once, load);
  if (cfg.enabled)
    dli_jit_compile(t, 3);
}

int dl_type_commit(dl_type *t)
{
  if (!dli_type_valid(t))
    return DL_ERR_ARG;
  if (t->builtin)
    return DL_OK;
  atomic_store_explicit(&t->committed, 1, memory_order_release);
  if (atomic_load(&t->hint) == DL_HINT_REUSE_HIGH)
    request(t);
  return DL_OK;
}

int dl_type_set_hint(dl_type *t, int hint)
{
  if (!dli_type_valid(t) || (hint != DL_HINT_NONE && hint != DL_HINT_REUSE_HIGH))
    return DL_ERR_ARG;
  if (t->builtin)
    return DL_OK;
  atomic_store(&t->hint, hint);
  if (hint == DL_HINT_REUSE_HIGH && atomic_load(&t->committed))
    request(t);
  return DL_OK;
}

void dli_jit_count_use(dl_type *t, int dir)
{
  pthread_once(&cfg_once, load);
  if (!cfg.enabled) {
    atomic_store_explicit(&t->uses[dir], DLI_USES_DONE, memory_order_relaxed);
    return;
  }
  long n = atomic_load_explicit(&t->uses[dir], memory_order_relaxed);
  /* past the threshold (a compile that failed or was declined) no use
     writes the line again: many threads may share it (a count that wrapped,
     an increment racing the store below, is past it too) */
  if (n > cfg.threshold || n < 0) {
    if (n != DLI_USES_DONE)
      atomic_store_explicit(&t->uses[dir], DLI_USES_DONE, memory_order_relaxed);
    return;
  }
  /* exactly one caller sees the count reach the threshold */
  if (atomic_fetch_add_explicit(&t->uses[dir], 1, memory_order_relaxed) == cfg.threshold)
    dli_jit_compile(t, 1 << dir);
}

int dl_type_compile(dl_type *t)
{
  if (!dli_type_valid(t))
    return dli_fail(DL_ERR_ARG, "dl_type_compile: NULL or freed type");
  if (!dli_jit_built)
    return dli_fail(DL_ERR_UNSUPPORTED, "dl_type_compile: no JIT in this "
                    "build (configured without LLVM)");
  if (t->builtin || t->b.size == 0)
    return dli_fail(DL_ERR_UNSUPPORTED, "dl_type_compile: nothing to compile "
                    "in a predefined or empty type");
  /* the core's own compiles (dli_jit_note_use) leave the detail alone */
  int rc = dli_jit_compile(t, 3);
  if (rc == DL_ERR_UNSUPPORTED)
    return dli_fail(rc, "dl_type_compile: no code generated (the JIT could "
                    "not start, or none of the type's loops is compiled)");
  if (rc == DL_ERR_NOMEM)
    return dli_fail(rc, "dl_type_compile: out of memory generating code");
  return rc;
}
