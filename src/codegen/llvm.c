/* LLVM loaded at the first compile (llvm.h says why). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#define DLI_LLVM_NO_RENAME   /* the table's members by LLVM's names, here */
#include "llvm.h"
#include "policy.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;

#ifdef DLI_LLVM_SONAME
dli_llvm_api dli_llvm;

#define DLI_STR_(x) #x
#define DLI_STR(x) DLI_STR_(x)

/* LLVMInitializeNativeTarget and LLVMInitializeNativeAsmPrinter are inline
   calls of the native target's functions, found here by their names */
static bool native(void *h)
{
  static const char *const inits[] = {
      DLI_STR(LLVM_NATIVE_TARGETINFO), DLI_STR(LLVM_NATIVE_TARGET),
      DLI_STR(LLVM_NATIVE_TARGETMC), DLI_STR(LLVM_NATIVE_ASMPRINTER)};
  for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
    void (*init)(void);
    *(void **)&init = dlsym(h, inits[i]);
    if (!init)
      return false;
    init();
  }
  return true;
}

static void load(void)
{
  void *h = dlopen(DLI_LLVM_SONAME, RTLD_NOW | RTLD_LOCAL);
#ifdef DLI_LLVM_PATH
  if (!h)
    h = dlopen(DLI_LLVM_PATH, RTLD_NOW | RTLD_LOCAL);
#endif
  if (!h) {
    if (dli_trace())
      fprintf(stderr, "dataloop: jit: cannot load %s: %s\n", DLI_LLVM_SONAME, dlerror());
    return;
  }
  const char *missing = NULL;
#define DLI_LLVM_FIND(f)                      \
  *(void **)&dli_llvm.f = dlsym(h, #f);       \
  if (!dli_llvm.f && !missing)                \
    missing = #f;
  DLI_LLVM_FUNCTIONS(DLI_LLVM_FIND)
#undef DLI_LLVM_FIND
  if (!missing && !native(h))
    missing = "the native target";
  loaded = !missing;
  if (missing && dli_trace())
    fprintf(stderr, "dataloop: jit: %s lacks %s\n", DLI_LLVM_SONAME, missing);
}
#else
static void load(void)
{
  loaded = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter();
}
#endif

bool dli_llvm_load(void)
{
  pthread_once(&once, load);
  return loaded;
}
