#!/bin/sh
# test/test_p2p under mpiexec -n 2 on this host: plain MPICH, then with
# libdataloop-mpi-preload.so preloaded in the default mode (the automatic
# route; each route forced; a block threshold so low that the automatic
# choice mixes packing and blocks; a tuning file's route table; one rank
# packing and the other sending blocks or handing MPICH its type, which
# must meet on the wire; a calibration round with DL_ADAPT=1) and in the
# pipeline mode (the default chunk, and a small odd chunk that splits
# elements; messages longer than a chunk sent whole, packed or as their
# blocks, into stream receives, and streams into receives that land their
# first chunk in the user's blocks). Each run says which routes must (and
# must not) have carried messages, and test_p2p asks the interposer
# (dl_preload_routes). Two processes are not run under Valgrind (make
# check-valgrind skips this script; it runs in make check).
b=${top_builddir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
[ -n "$DL_VALGRIND" ] && { echo "two-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC" ] || { echo "no mpiexec found by configure" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
prog=$(cd "$b" && pwd)/test/test_p2p
# DL_TEST_SMOKE=1: the first two runs only (test/smoke.sh)
. "${srcdir:-.}/test/smoke.sh"
run() {
  echo "== $*"
  timeout 300 "$MPIEXEC" -n 2 "$@" "$prog" || { echo "FAILED: $*" >&2; exit 1; }
  smoke
}
pre="-genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD $lib"
run -genv DL_EXPECT_PRELOAD 0
run $pre -genv DL_FORBID_ROUTES pipeline
# the default mode counts messages of a chunk or more (DL_STATS_FILE's
# long=, by which the MPICH suites choose where to run the pipeline mode)
run $pre -genv DL_PIPELINE_CHUNK 5000 -genv DL_FORBID_ROUTES pipeline
run $pre -genv DL_PIPELINE 1 -genv DL_EXPECT_ROUTES pipeline
run $pre -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 5000 -genv DL_PIPELINE_RING 2 \
    -genv DL_EXPECT_ROUTES pipeline
# MPICH's engine receives the types whose elements are of one size (here
# most of them), and no receive takes it where another route is forced
for s in pack blocks; do
  run $pre -genv DL_STRATEGY $s -genv DL_EXPECT_ROUTES $s \
      -genv DL_FORBID_ROUTES pipeline -genv DL_EXPECT_RECV_ROUTES $s \
      -genv DL_FORBID_RECV_ROUTES mpich
done
run $pre -genv DL_STRATEGY mpich -genv DL_EXPECT_ROUTES mpich \
    -genv DL_FORBID_ROUTES pipeline -genv DL_EXPECT_RECV_ROUTES mpich,pack
# a threshold so low that some types go as blocks and others packed
run $pre -genv DL_DIRECT_BLOCK 64 -genv DL_DEFER_BYTES 0 -genv DL_EXPECT_ROUTES blocks,pack \
    -genv DL_FORBID_ROUTES mpich,pipeline
# DL_ADAPT=1: the repeated message's calibration round tries every route
run $pre -genv DL_ADAPT 1 -genv DL_EXPECT_ROUTES pack,blocks,mpich
run $pre -genv DL_ADAPT 1 -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 5000 \
    -genv DL_EXPECT_ROUTES pipeline,pack,blocks,mpich
# a tuning file's route table decides (test_strategy checks which row and
# point is nearest); the Flash-shaped message, which dataloop packs
# interleaved, and the transpose's columns, whose walk turns back, pack
# whatever the table says
conf=$(mktemp /tmp/dl-p2p-tune-XXXXXX)
for r in blocks:mpich mpich:blocks; do
  printf 'route@1M 1:%s 1M:%s\n' ${r%:*} ${r%:*} > "$conf"
  run $pre -genv DL_TUNE_FILE "$conf" -genv DL_EXPECT_ROUTES ${r%:*} \
      -genv DL_FORBID_ROUTES ${r#*:},pipeline
done
rm -f "$conf"
# pipeline mode, each route forced: messages longer than a chunk go whole
# into stream receives; (the default chunk, 256 KiB, is exactly the
# repeated message's size: it goes as a stream, C bytes and an empty end)
# (with MPICH's engine forced, a stream receive's first receive is its
# where the type allows: counted as a receive of both routes)
for s in pack blocks mpich; do
  run $pre -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 5000 -genv DL_STRATEGY $s \
      -genv DL_EXPECT_ROUTES $s -genv DL_EXPECT_RECV_ROUTES pipeline,$s
  run $pre -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 256K -genv DL_STRATEGY $s \
      -genv DL_EXPECT_ROUTES $s,pipeline
done
echo "== pipeline mode: one rank streaming, the other sending whole messages"
for s in pack blocks mpich; do
  timeout 300 "$MPIEXEC" -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
    -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 5000 \
    -n 1 -env DL_STRATEGY pipe "$prog" : -n 1 -env DL_STRATEGY $s "$prog" ||
    { echo "FAILED: pipeline mode, streams against $s" >&2; exit 1; }
done
echo "== one rank packing, the other sending its blocks as they lie, or MPICH's engine"
for pair in "pack blocks" "mpich pack" "blocks mpich"; do
  set -- $pair
  timeout 300 "$MPIEXEC" -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
    -n 1 -env DL_STRATEGY $1 -env DL_EXPECT_ROUTES $1 "$prog" : \
    -n 1 -env DL_STRATEGY $2 -env DL_EXPECT_ROUTES $2 "$prog" ||
    { echo "FAILED: mixed routes $1, $2" >&2; exit 1; }
done
echo "ok"
