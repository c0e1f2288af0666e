#!/bin/sh
# The LLVM back end's own tests with a use threshold of 3, then the same
# with DL_JIT=0 (nothing may compile).
prog=${top_builddir:-.}/test/test_jit
DL_JIT_THRESHOLD=3 "$prog" || exit 1
DL_JIT=0 DL_JIT_THRESHOLD=3 "$prog" || exit 1
