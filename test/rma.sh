#!/bin/sh
# test/test_rma (one-sided communication with derived datatypes) under
# mpiexec -n 2 and -n 3 on this host (the forced origin routes on 2 ranks
# only, see run2 below): plain MPICH, then with
# libdataloop-mpi-preload.so preloaded: the automatic choice (predefined
# data must go "direct"), then each route forced with DL_STRATEGY (pack,
# on windows MPICH allocated, DL_RMA_MAP=never: a request form waited for
# after its epoch's unlock must not flush; blocks, mpich, pipe; the
# pipelined route also with DL_PIPELINE_CHUNK=1000,
# an odd chunk that splits target blocks and elements; blocks under a
# tuning file whose model sends them from the user's memory, block against
# block: "lockstep"; and with DL_RMA_LAND=always, puts of fence epochs
# landed at the target, "landed", which no forced route takes, also in
# landings of 1000 bytes that split target blocks and elements; fences
# exchange their landing counts through shared memory, "tallied", but
# under DL_RMA_MAP=never by a reduce-scatter). Puts
# and gets into windows of MPI_Win_allocate and MPI_Win_allocate_shared,
# whose memory every process maps, are copied there, "mapped" (the
# automatic choice, and DL_RMA_MAP=always with a route forced; never
# under DL_RMA_MAP=never, where MPI_Win_allocate stays MPICH's, nor where
# a route or landing is forced); under DL_RMA_PEERS=none, and in jobs of
# preloaded and plain ranks, every window stays MPICH's (no route carries
# an operation: DL_EXPECT_WINDOWS=mpich).
# Each preloaded run
# says which routes must have carried one-sided operations that each rank
# issued (DL_EXPECT_RMA_ROUTES) and which must not (DL_FORBID_RMA_ROUTES;
# blocks that the target's unit cannot address are packed, so the blocks
# runs do not forbid "pack"; the pipeline runs do, R-forms included);
# test_rma asks the interposer
# (dl_preload_rma_routes). The random cases differ from run to run: each
# prints its seed, and DL_TEST_SEED=<seed> repeats it. Several processes
# are not run under Valgrind (make check-valgrind skips this script; it
# runs in make check).
b=${top_builddir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
[ -n "$DL_VALGRIND" ] && { echo "multi-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC" ] || { echo "no mpiexec found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$(cd "$b" && pwd)/test/test_rma
# its idle ranks yield only if libmpich's calls of ucp_worker_progress
# bind to test/ucx_yield.c's, which the link must export
if command -v nm >/dev/null 2>&1 &&
  ! nm -D --defined-only "$prog" | grep -q ' T ucp_worker_progress$'; then
  echo "test_rma does not export ucp_worker_progress: its idle ranks would spin" >&2
  exit 1
fi
# on 2 and 3 ranks (run), or on 2 (run2): a forced origin route moves
# the same bytes whatever the number of ranks, while landings, fences'
# counts and mapped copies meet several origins at one target only on 3
# (test_rma's idle ranks yield their core, test/ucx_yield.c, so 3 ranks
# on this machine's 2 cores do not spin against each other)
run2() {
  echo "== -n 2 $*"
  timeout 300 "$MPIEXEC" -n 2 "$@" "$prog" || { echo "FAILED: -n 2 $*" >&2; exit 1; }
}
# DL_TEST_SMOKE=1: the first two runs only (test/smoke.sh)
. "${srcdir:-.}/test/smoke.sh"
run() {
  run2 "$@"
  echo "== -n 3 $*"
  timeout 300 "$MPIEXEC" -n 3 "$@" "$prog" || { echo "FAILED: -n 3 $*" >&2; exit 1; }
  smoke
}
pre="-genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD $lib"
run -genv DL_EXPECT_PRELOAD 0
run $pre -genv DL_EXPECT_RMA_ROUTES direct,mapped,tallied
run $pre -genv DL_RMA_MAP never -genv DL_EXPECT_RMA_ROUTES direct \
    -genv DL_FORBID_RMA_ROUTES mapped,tallied
run2 $pre -genv DL_RMA_MAP always -genv DL_STRATEGY pack \
    -genv DL_EXPECT_RMA_ROUTES direct,pack,mapped
# puts in fence epochs land at the target, whatever the model says
run $pre -genv DL_RMA_LAND always -genv DL_EXPECT_RMA_ROUTES direct,landed,tallied \
    -genv DL_FORBID_RMA_ROUTES mapped
# landed puts and gets of one type structure in one epoch (each fixed
# batch's ops have types alike, which decode to one dataloop type): the
# target may take a get request before the put that carried the type
run $pre -genv DL_RMA_MAP never -genv DL_RMA_LAND always \
    -genv DL_EXPECT_RMA_ROUTES direct,landed -genv DL_FORBID_RMA_ROUTES mapped,tallied
run $pre -genv DL_RMA_LAND always -genv DL_RMA_LAND_CHUNK 1000 \
    -genv DL_EXPECT_RMA_ROUTES direct,landed
run2 $pre -genv DL_STRATEGY pack -genv DL_RMA_MAP never -genv DL_EXPECT_RMA_ROUTES direct,pack \
    -genv DL_FORBID_RMA_ROUTES blocks,mpich,pipeline,landed,mapped
run2 $pre -genv DL_STRATEGY blocks -genv DL_EXPECT_RMA_ROUTES direct,blocks \
    -genv DL_FORBID_RMA_ROUTES mpich,pipeline,landed,mapped
run2 $pre -genv DL_STRATEGY mpich -genv DL_EXPECT_RMA_ROUTES direct,mpich \
    -genv DL_FORBID_RMA_ROUTES pack,blocks,pipeline,landed,mapped
run2 $pre -genv DL_STRATEGY pipe -genv DL_EXPECT_RMA_ROUTES direct,pipeline \
    -genv DL_FORBID_RMA_ROUTES pack,blocks,mpich,landed,mapped
run2 $pre -genv DL_STRATEGY pipe -genv DL_PIPELINE_CHUNK 1000 \
    -genv DL_EXPECT_RMA_ROUTES direct,pipeline \
    -genv DL_FORBID_RMA_ROUTES pack,blocks,mpich,landed,mapped
# a model under which blocks go from the user's memory, block against
# block (packing dear, operations cheap): forced and chosen
conf=$(mktemp /tmp/dl-rma-tune-XXXXXX)
printf 'rma_put 0 1 0 0 0 0\nrma_get 0 1 0 0 0 0\nrma_pack 1000 1\n' > "$conf"
run2 $pre -genv DL_TUNE_FILE "$conf" -genv DL_STRATEGY blocks \
    -genv DL_EXPECT_RMA_ROUTES direct,blocks,lockstep -genv DL_FORBID_RMA_ROUTES mpich,pipeline,landed
# a model under which puts land (MPICH's target engine dear, packing
# free): chosen, on windows of every kind when none is mapped
printf 'rma_put 0 1000 0 1000 0 1000\nrma_get 0 1000 0 1000 0 1000\nrma_pack 0 0\n' > "$conf"
run $pre -genv DL_TUNE_FILE "$conf" -genv DL_RMA_MAP never -genv DL_EXPECT_RMA_ROUTES direct,landed \
    -genv DL_FORBID_RMA_ROUTES tallied
# a model under which landing beats the copy into mapped memory (every
# block a costly miss, moving free): puts and gets of fence epochs into
# mapped windows land, the others are copied
printf 'rma_put 0 0 0 0 0 0\nrma_get 0 0 0 0 0 0\nrma_pack 1000 0 1000\n' > "$conf"
run $pre -genv DL_TUNE_FILE "$conf" -genv DL_EXPECT_RMA_ROUTES direct,landed,mapped
rm -f "$conf"
# DL_RMA_PEERS=none: every window is MPICH's alone, on every rank
never=direct,mpich,pack,blocks,lockstep,pipeline,landed,mapped,tallied
run $pre -genv DL_RMA_PEERS none -genv DL_EXPECT_WINDOWS mpich \
    -genv DL_FORBID_RMA_ROUTES $never
# ranks preloaded and plain in one job: the preloaded ones find a rank
# without the interposer, so every window is MPICH's alone (peers.c) and
# nothing waits for a plain rank's part of a window's set-up
mixed() { # the preloaded ranks, the plain ones
  echo "== mixed: -n $1 preloaded, -n $2 plain"
  timeout 300 "$MPIEXEC" -n "$1" -env DL_EXPECT_PRELOAD 1 -env LD_PRELOAD "$lib" \
      -env DL_EXPECT_WINDOWS mpich -env DL_FORBID_RMA_ROUTES $never "$prog" : \
      -n "$2" -env DL_EXPECT_PRELOAD 0 "$prog" ||
    { echo "FAILED: mixed, $1 preloaded and $2 plain" >&2; exit 1; }
}
mixed 1 1
mixed 2 1
echo "ok"
