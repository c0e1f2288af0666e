#!/bin/sh
# Every randomized differential test again with every type compiled at its
# first use: compiled code must give the interpreter's, the model's and
# MPICH's bytes.
b=${top_builddir:-.}/test
export DL_JIT_THRESHOLD=0
status=0
for t in test_segments test_mpich test_bridge test_types test_io test_external; do
  [ -x "$b/$t" ] || continue
  echo "== $t with DL_JIT_THRESHOLD=0"
  "$b/$t" || status=1
done
exit $status
