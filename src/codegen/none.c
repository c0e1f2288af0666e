/* Built without LLVM: no code generator; the interpreter runs everything. */
#include "../../dataloop/loop.h"

int dli_jit_compile(dl_type *t)
{
  (void)t;
  return DL_ERR_UNSUPPORTED;
}
