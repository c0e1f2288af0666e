#!/bin/sh
# shellcheck disable=SC2086  # $pre and $plain are lists of mpiexec options
# test/test_mixed under mpiexec -n 2: random derived-type messages between
# ranks with and without libdataloop-mpi-preload.so, in every combination
# (a message must hold MPICH's bytes whoever packs it), then between two
# preloaded ranks in the pipeline mode with a chunk small enough that
# most messages stream, and with every type decoded at its first use. Two
# processes are not run under Valgrind.
b=${top_builddir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
[ -n "$DL_VALGRIND" ] && { echo "two-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC" ] || { echo "no mpiexec found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$(cd "$b" && pwd)/test/test_mixed
seed=${DL_TEST_SEED:-$(date +%s)}
pre="-env LD_PRELOAD $lib -env DL_EXPECT_PRELOAD 1"
plain="-env DL_EXPECT_PRELOAD 0"
run() {
  echo "== $*"
  timeout 600 "$MPIEXEC" -genv DL_TEST_SEED "$seed" "$@" ||
    { echo "FAILED (DL_TEST_SEED=$seed): $*" >&2; exit 1; }
}
run -n 1 $pre "$prog" : -n 1 $plain "$prog"
run -n 1 $plain "$prog" : -n 1 $pre "$prog"
run -n 1 $pre "$prog" : -n 1 $pre "$prog"
# both packing: long doubles too, their padding bytes and all
run -genv DL_STRATEGY pack -n 1 $pre "$prog" : -n 1 $pre "$prog"
# every type decoded at its first use (most of them are used once: by
# default a short message of a one-level type would go to MPICH as made)
run -genv DL_DEFER_BYTES 0 -n 1 $pre "$prog" : -n 1 $pre "$prog"
run -n 1 $plain "$prog" : -n 1 $plain "$prog"
run -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 96 -n 1 $pre "$prog" : -n 1 $pre "$prog"
