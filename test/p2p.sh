#!/bin/sh
# test/test_p2p under mpiexec -n 2 on this host: plain MPICH, then with
# libdataloop-mpi-preload.so preloaded in the default mode (the automatic
# strategy; every derived message's blocks sent as they lie; a block
# threshold so low that the automatic choice mixes both; one rank packing
# and the other sending blocks, which must meet on the wire) and in the
# pipeline mode (the default chunk, and a small odd chunk that splits
# elements). Two processes are not run under Valgrind (make check-valgrind
# skips this script; it runs in make check).
b=${top_builddir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
[ -n "$DL_VALGRIND" ] && { echo "two-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC" ] || { echo "no mpiexec found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$(cd "$b" && pwd)/test/test_p2p
run() {
  echo "== $*"
  timeout 300 "$MPIEXEC" -n 2 "$@" "$prog" || { echo "FAILED: $*" >&2; exit 1; }
}
run -genv DL_EXPECT_PRELOAD 0
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib"
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_PIPELINE 1
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_PIPELINE 1 \
    -genv DL_PIPELINE_CHUNK 5000 -genv DL_PIPELINE_RING 2
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_STRATEGY blocks
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_DIRECT_BLOCK 64
echo "== one rank packing, the other sending its blocks as they lie"
timeout 300 "$MPIEXEC" -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -n 1 -env DL_STRATEGY pack "$prog" : -n 1 -env DL_STRATEGY blocks "$prog" ||
  { echo "FAILED: mixed strategies" >&2; exit 1; }
# the automatic choice is made, and said, per (type, count): with a low
# threshold some types go as blocks and others packed
echo "== DL_TRACE shows the choices"
out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -genv DL_DIRECT_BLOCK 64 -genv DL_TRACE 1 "$prog" 2>&1) ||
  { echo "$out" | tail -20 >&2; echo "FAILED: traced run" >&2; exit 1; }
for s in blocks pack; do
  echo "$out" | grep -q "strategy: $s for" ||
    { echo "FAILED: no 'strategy: $s' decision in the trace" >&2; exit 1; }
done
echo "ok: both strategies chosen and traced"
