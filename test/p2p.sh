#!/bin/sh
# test/test_p2p under mpiexec -n 2 on this host: plain MPICH, then with
# libdataloop-mpi-preload.so preloaded in the default mode (the automatic
# strategy; every derived message's blocks sent as they lie; a block
# threshold so low that the automatic choice mixes both; MPICH's engine on
# the user's type forced; one rank packing and the other sending blocks
# or handing MPICH its type, which must meet on the wire; a tuning
# file's thresholds per message size, each choice by the nearest; timed
# choices, and none with DL_ADAPT=0) and in the
# pipeline mode (the default chunk, and a small odd chunk that splits
# elements; messages longer than a chunk sent whole, packed or as their
# blocks, into stream receives, and streams into receives that land their
# first chunk in the user's blocks; timed choices among the three). Two processes are not run under Valgrind (make check-valgrind
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
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_STRATEGY mpich
run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_DIRECT_BLOCK 64
# (the default chunk, 256 KiB, is exactly the repeated message's size:
# sent whole, an empty message must follow it)
for s in pack blocks mpich; do
  run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_PIPELINE 1 \
      -genv DL_PIPELINE_CHUNK 5000 -genv DL_STRATEGY $s
  run -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" -genv DL_PIPELINE 1 \
      -genv DL_PIPELINE_CHUNK 256K -genv DL_STRATEGY $s
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
    -n 1 -env DL_STRATEGY $1 "$prog" : -n 1 -env DL_STRATEGY $2 "$prog" ||
    { echo "FAILED: mixed strategies $1, $2" >&2; exit 1; }
done
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
# a (type, count) sent again and again in 2 KiB rows is timed: it tries
# the other kind (and every message still arrives whole, checked by the
# program); DL_ADAPT=0 times nothing
echo "== timed choices, and DL_ADAPT=0"
out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -genv DL_TRACE 1 "$prog" 2>&1) ||
  { echo "$out" | tail -20 >&2; echo "FAILED: timed run" >&2; exit 1; }
echo "$out" | grep -q "strategy: .* for 262144 bytes .*; timed)" ||
  { echo "FAILED: the repeated 256 KiB message was not timed" >&2; exit 1; }
echo "$out" | grep -q "send: 262144 bytes from the user's blocks" ||
  { echo "FAILED: no timed try sent the blocks as they lie" >&2; exit 1; }
echo "$out" | grep -q "send: 262144 packed bytes" ||
  { echo "FAILED: no timed send packed" >&2; exit 1; }
echo "$out" | grep -q "send: 262144 bytes from the user's type (MPICH)" ||
  { echo "FAILED: no timed try handed MPICH the user's type" >&2; exit 1; }
out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -genv DL_TRACE 1 -genv DL_TRY_MPICH 0 "$prog" 2>&1) ||
  { echo "$out" | tail -20 >&2; echo "FAILED: DL_TRY_MPICH=0 run" >&2; exit 1; }
if echo "$out" | grep -q "user's type (MPICH)"; then
  echo "FAILED: DL_TRY_MPICH=0 tried MPICH's engine" >&2; exit 1
fi
out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -genv DL_TRACE 1 -genv DL_ADAPT 0 "$prog" 2>&1) ||
  { echo "$out" | tail -20 >&2; echo "FAILED: DL_ADAPT=0 run" >&2; exit 1; }
if echo "$out" | grep -q "; timed)"; then
  echo "FAILED: DL_ADAPT=0 timed a plan" >&2; exit 1
fi
echo "ok: timed where more than one kind could win, MPICH's engine not with"
echo "    DL_TRY_MPICH=0, nothing with DL_ADAPT=0"
# in pipeline mode, the repeated message (longer than the 5000-byte chunk)
# is timed as a stream, packed whole and sent as its blocks; its blocking
# receives (no other stream in progress) end as MPICH's own receive when
# the message came whole, and go on as a stream after a first chunk
echo "== pipeline mode: timed choices among stream, packed, blocks and MPICH"
out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 5000 -genv DL_TRACE 1 "$prog" 2>&1) ||
  { echo "$out" | tail -20 >&2; echo "FAILED: timed pipeline run" >&2; exit 1; }
echo "$out" | grep -q "strategy: .* for 262144 bytes .*; stream; timed)" ||
  { echo "FAILED: the repeated message had no timed stream plan" >&2; exit 1; }
for w in "send stream: 262144 bytes" "send: 262144 bytes from the user's blocks" \
         "send: 262144 packed bytes" "send: 262144 bytes from the user's type (MPICH)" \
         "receive stream.*: up to 262144 bytes.*user's blocks" \
         "receive stream, blocking: up to 262144" "receive stream: 262144 bytes arrived whole" \
         "receive stream: a first chunk arrived"; do
  echo "$out" | grep -q "$w" ||
    { echo "FAILED: no timed try traced '$w'" >&2; exit 1; }
done
echo "ok: streams, whole packed, whole blocks and MPICH's engine tried"
# DL_STRATEGY=mpich: MPICH's engine sends; receives are staged (MPICH
# 4.0.2 fails receives whose elements straddle its fragments; the program
# checks every byte)
echo "== MPICH's engine forced: sends only"
for chunk in "" "-genv DL_PIPELINE 1 -genv DL_PIPELINE_CHUNK 5000"; do
  out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
    -genv DL_STRATEGY mpich -genv DL_TRACE 1 $chunk "$prog" 2>&1) ||
    { echo "$out" | tail -20 >&2; echo "FAILED: DL_STRATEGY=mpich $chunk" >&2; exit 1; }
  for w in "send: [0-9]* bytes from the user's type (MPICH)" \
           "recv: up to [0-9]* packed bytes"; do
    echo "$out" | grep -q "$w" ||
      { echo "FAILED: DL_STRATEGY=mpich $chunk: no '$w' in the trace" >&2; exit 1; }
  done
  if echo "$out" | grep -q "into the user's type (MPICH)"; then
    echo "FAILED: DL_STRATEGY=mpich $chunk: a receive went to MPICH's engine" >&2; exit 1
  fi
done
echo "ok: MPICH's engine sends, receives are staged"
# a tuning file's per-message-size thresholds: each choice uses the entry
# measured at the size nearest the message's (on a log scale)
echo "== direct_block@<size> entries of a tuning file"
conf=$(mktemp /tmp/dl-p2p-tune-XXXXXX)
printf 'direct_block 5\ndirect_block@4K 64\ndirect_block@1M 1T\n' > "$conf"
sed -i 's/1T$/1099511627776/' "$conf"
out=$(timeout 300 "$MPIEXEC" -n 2 -genv DL_EXPECT_PRELOAD 1 -genv LD_PRELOAD "$lib" \
  -genv DL_TUNE_FILE "$conf" -genv DL_TRACE 1 "$prog" 2>&1) ||
  { rm -f "$conf"; echo "$out" | tail -20 >&2; echo "FAILED: tuning file run" >&2; exit 1; }
rm -f "$conf"
echo "$out" | awk '
  /strategy: .* for [0-9]+ bytes .*blocks from [0-9]+ bytes/ {
    for (i = 1; i <= NF; i++) {
      if ($i == "for") n = $(i + 1)
      if ($i == "from") b = $(i + 1)
    }
    r1 = n > 4096 ? n / 4096 : 4096 / n; r2 = n > 1048576 ? n / 1048576 : 1048576 / n
    want = r1 < r2 ? 64 : 1099511627776
    if (b != want) { print "FAILED: " n " bytes used blocks from " b ", not " want; bad = 1 }
    seen++; used[b]++
  }
  END { if (!used["64"] || !used["1099511627776"]) { print "FAILED: not both entries used"; bad = 1 }
        if (bad) exit 1; print "ok: " seen " choices used the nearest size" }' ||
  exit 1
