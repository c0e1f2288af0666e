#!/bin/sh
# test/test_p2p under mpiexec -n 2 on this host: plain MPICH, then with
# libdataloop-mpi-preload.so preloaded in the default mode and in the
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
