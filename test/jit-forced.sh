#!/bin/sh
# Every randomized differential test again with every type compiled at its
# first use: compiled code must give the interpreter's, the model's and
# MPICH's bytes. The programs share a fresh object cache and one seed, and
# test_segments runs a second time at the end, when the code of each of
# its types comes from that cache.
b=${top_builddir:-.}/test
export DL_JIT_THRESHOLD=0
cache=$(mktemp -d "${TMPDIR:-/tmp}/dl-jit-forced.XXXXXX") || exit 1
trap 'rm -rf "$cache"' EXIT
export DL_JIT_CACHE="$cache"
: "${DL_TEST_SEED:=$(date +%s)}"
export DL_TEST_SEED
status=0
for t in test_segments test_mpich test_bridge test_types test_io test_external \
         test_segments; do
  [ -x "$b/$t" ] || continue
  echo "== $t with DL_JIT_THRESHOLD=0"
  "$b/$t" || status=1
done
exit $status
