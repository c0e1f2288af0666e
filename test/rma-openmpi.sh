#!/bin/sh
# test/test_rma built against Open MPI (test/test_rma_openmpi) under
# mpiexec.openmpi on 2 ranks, and on 3 (landings and fences' counts
# meeting several origins at one target) plainly and in the automatic
# choice, DL_RMA_MAP=never and DL_RMA_LAND=always (3 ranks hung at
# random while test_rma still drew operations that move nothing through a
# derived type of size 0, on which Open MPI 4.1.4 hangs plainly too:
# doc/mpi.md, doc/reliability.md): plainly, then with
# libdataloop-mpi-preload-openmpi.so preloaded in the modes test/rma.sh
# runs on MPICH: the automatic choice (predefined data must go "direct";
# windows of MPI_Win_allocate_shared are "mapped", fences "tallied"),
# DL_RMA_MAP=never, each origin route forced with DL_STRATEGY (pack,
# blocks, mpich, pipe, the pipeline also in chunks of 1000 bytes that
# split target blocks and elements), puts and gets of fence epochs landed
# at the target (DL_RMA_LAND=always, also in landings of 1000 bytes),
# DL_RMA_PEERS=none (every window Open MPI's alone), and jobs of preloaded
# and plain ranks (every window Open MPI's alone: peers.c finds a rank
# without the interposer). Open MPI's MPI_Win_allocate windows are its
# rdma component's and stay its own (DLP_DEV_ALLOCATE_UNLIKE_SHARED), so
# no run here expects them mapped. Each preloaded run says which routes
# must have carried operations and which must not (DL_EXPECT_RMA_ROUTES,
# DL_FORBID_RMA_ROUTES, as in test/rma.sh). The random cases differ from
# run to run: each prints its seed, and DL_TEST_SEED=<seed> repeats it.
# Several processes are not run under Valgrind.
b=${top_builddir:-.}
top=$(cd "$b" && pwd)
lib=$top/.libs/libdataloop-mpi-preload-openmpi.so
[ -n "$DL_VALGRIND" ] && { echo "multi-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC_OMPI" ] || { echo "no mpiexec.openmpi found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$top/test/test_rma_openmpi
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# idle ranks yield their core
launch="$MPIEXEC_OMPI --oversubscribe --mca mpi_yield_when_idle 1"
# DL_TEST_SMOKE=1: the first two runs only (test/smoke.sh)
. "${srcdir:-.}/test/smoke.sh"
# the variables of a run go through env in the program's own command, as
# semantics.sh does, so that each context of an MPMD line has its own
run_on() { # the ranks, the variables of the run
  n=$1
  shift
  echo "== -n $n $*"
  timeout 300 env -u LD_PRELOAD $launch -n "$n" env "$@" "$prog" </dev/null ||
    { echo "FAILED: -n $n $*" >&2; exit 1; }
  smoke
}
run2() { run_on 2 "$@"; }
run3() { run_on 3 "$@"; }
pre="DL_EXPECT_PRELOAD=1 LD_PRELOAD=$lib"
run2 DL_EXPECT_PRELOAD=0
run2 $pre DL_EXPECT_RMA_ROUTES=direct,mapped,tallied
run2 $pre DL_RMA_MAP=never DL_EXPECT_RMA_ROUTES=direct DL_FORBID_RMA_ROUTES=mapped,tallied
run2 $pre DL_RMA_MAP=always DL_STRATEGY=pack DL_EXPECT_RMA_ROUTES=direct,pack,mapped
run2 $pre DL_RMA_LAND=always DL_EXPECT_RMA_ROUTES=direct,landed,tallied \
    DL_FORBID_RMA_ROUTES=mapped
run2 $pre DL_RMA_LAND=always DL_RMA_LAND_CHUNK=1000 DL_EXPECT_RMA_ROUTES=direct,landed
run2 $pre DL_STRATEGY=pack DL_RMA_MAP=never DL_EXPECT_RMA_ROUTES=direct,pack \
    DL_FORBID_RMA_ROUTES=blocks,mpich,pipeline,landed,mapped
run2 $pre DL_STRATEGY=blocks DL_EXPECT_RMA_ROUTES=direct,blocks \
    DL_FORBID_RMA_ROUTES=mpich,pipeline,landed,mapped
run2 $pre DL_STRATEGY=mpich DL_EXPECT_RMA_ROUTES=direct,mpich \
    DL_FORBID_RMA_ROUTES=pack,blocks,pipeline,landed,mapped
run2 $pre DL_STRATEGY=pipe DL_PIPELINE_CHUNK=1000 DL_EXPECT_RMA_ROUTES=direct,pipeline \
    DL_FORBID_RMA_ROUTES=pack,blocks,mpich,landed,mapped
run3 DL_EXPECT_PRELOAD=0
run3 $pre DL_EXPECT_RMA_ROUTES=direct,mapped,tallied
run3 $pre DL_RMA_MAP=never DL_EXPECT_RMA_ROUTES=direct DL_FORBID_RMA_ROUTES=mapped,tallied
run3 $pre DL_RMA_LAND=always DL_EXPECT_RMA_ROUTES=direct,landed,tallied \
    DL_FORBID_RMA_ROUTES=mapped
never=direct,mpich,pack,blocks,lockstep,pipeline,landed,mapped,tallied
run2 $pre DL_RMA_PEERS=none DL_EXPECT_WINDOWS=mpich DL_FORBID_RMA_ROUTES=$never
mixed() { # the preloaded ranks, the plain ones
  echo "== mixed: -n $1 preloaded, -n $2 plain"
  timeout 300 env -u LD_PRELOAD $launch -n "$1" env $pre DL_EXPECT_WINDOWS=mpich \
      DL_FORBID_RMA_ROUTES=$never "$prog" : -n "$2" env DL_EXPECT_PRELOAD=0 "$prog" \
      </dev/null || { echo "FAILED: mixed, $1 preloaded and $2 plain" >&2; exit 1; }
}
mixed 1 1
echo "ok"
