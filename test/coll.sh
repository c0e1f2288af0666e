#!/bin/sh
# shellcheck disable=SC2086  # $pre and $plain are lists of mpiexec options
# test/test_coll: every collective the interposer serves against MPICH's
# own (PMPI_) answers on random derived types, plainly, preloaded on 2, 3
# and 4 ranks, in the pipeline mode with a chunk small enough that the
# point-to-point messages around them stream, and with preloaded and plain
# ranks in one collective (messages under 8 KiB there: doc/mpi.md); with
# them, partitioned requests and point-to-point requests completed
# together with collective ones.
b=${top_builddir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
[ -n "$DL_VALGRIND" ] && { echo "several processes: not under valgrind"; exit 77; }
[ -n "$MPIEXEC" ] || { echo "no mpiexec found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$(cd "$b" && pwd)/test/test_coll
seed=${DL_TEST_SEED:-$(date +%s)}
pre="-env LD_PRELOAD $lib -env DL_EXPECT_PRELOAD 1"
plain="-env DL_EXPECT_PRELOAD 0"
run() {
  echo "== $*"
  timeout 600 "$MPIEXEC" -genv DL_TEST_SEED "$seed" "$@" ||
    { echo "FAILED (DL_TEST_SEED=$seed): $*" >&2; exit 1; }
}
run -n 2 $plain "$prog"
run -n 2 $pre "$prog"
run -n 3 $pre "$prog"
# one rank: every neighbour of the grid but the edges is this rank itself
run -n 1 $pre "$prog"
run -n 4 -genv DL_COLL_ROUNDS 12 $pre "$prog"
run -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 96 -n 2 $pre "$prog"
# every block left to MPICH (only this rank's own slot copied here), then
# every block packed
run -genv DL_COLL_BLOCK 1 -n 3 $pre "$prog"
run -genv DL_COLL_BLOCK 1G -n 2 $pre "$prog"
# point-to-point beside them (the partitioned requests, the ring) by the
# blocks route
run -genv DL_STRATEGY blocks -n 2 $pre "$prog"
small="-genv DL_COLL_MAX 600"
run $small -n 1 $pre "$prog" : -n 1 $plain "$prog"
run $small -n 1 $plain "$prog" : -n 1 $pre "$prog"
run $small -n 2 $plain "$prog" : -n 1 $pre "$prog"
