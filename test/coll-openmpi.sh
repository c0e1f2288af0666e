#!/bin/sh
# test/test_coll built against Open MPI (test/test_coll_openmpi): every
# collective the interposer serves there, blocking and nonblocking (Open
# MPI 4.1 has no _c or persistent forms), against Open MPI's own (PMPI_)
# answers on random derived types, plainly and preloaded, in the pipeline
# mode, with every block left to Open MPI and with every block packed, by
# the blocks route beside, and with a preloaded and a plain rank in one
# collective. On 2 ranks only: plainly, Open MPI 4.1.4 corrupts its heap on
# 1 rank (after MPI_Ialltoallw and messages to itself) and deadlocks on 3
# (its ranks' MPI_Allgatherv of alike signatures in different types take
# different algorithms, Bruck's and the ring; doc/mpi.md).
b=${top_builddir:-.}
top=$(cd "$b" && pwd)
lib=$top/.libs/libdataloop-mpi-preload-openmpi.so
[ -n "$DL_VALGRIND" ] && { echo "several processes: not under valgrind"; exit 77; }
[ -n "$MPIEXEC_OMPI" ] || { echo "no mpiexec.openmpi found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$top/test/test_coll_openmpi
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
seed=${DL_TEST_SEED:-$(date +%s)}
launch="$MPIEXEC_OMPI --oversubscribe --mca mpi_yield_when_idle 1"
pre="LD_PRELOAD=$lib DL_EXPECT_PRELOAD=1"
# DL_TEST_SMOKE=1: the first two runs only (test/smoke.sh)
. "${srcdir:-.}/test/smoke.sh"
# the variables of the run, each rank's through env
run() {
  echo "== $*"
  timeout 600 env -u LD_PRELOAD $launch -n 2 env DL_TEST_SEED="$seed" "$@" "$prog" \
    </dev/null || { echo "FAILED (DL_TEST_SEED=$seed): $*" >&2; exit 1; }
  smoke
}
run DL_EXPECT_PRELOAD=0
run $pre
run $pre DL_PIPELINE=1 DL_PIPELINE_CHUNK=96
run $pre DL_COLL_BLOCK=1
run $pre DL_COLL_BLOCK=1G
run $pre DL_STRATEGY=blocks
echo "== mixed: a preloaded rank and a plain one, both ways"
for order in 0 1; do
  if [ $order = 0 ]; then
    a="$pre" z="DL_EXPECT_PRELOAD=0"
  else
    a="DL_EXPECT_PRELOAD=0" z="$pre"
  fi
  timeout 600 env -u LD_PRELOAD $launch -n 1 env DL_TEST_SEED="$seed" DL_COLL_MAX=600 $a \
      "$prog" : -n 1 env DL_TEST_SEED="$seed" DL_COLL_MAX=600 $z "$prog" </dev/null ||
    { echo "FAILED (DL_TEST_SEED=$seed): mixed, order $order" >&2; exit 1; }
done
echo "ok"
