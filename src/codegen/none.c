/* Built without LLVM: no code generator; the interpreter runs everything. */
#include "policy.h"

const bool dli_jit_built = false;

int dli_jit_compile(dl_type *t, int mask)
{
  (void)t;
  (void)mask;
  return DL_ERR_UNSUPPORTED;
}
