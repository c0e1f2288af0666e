#!/bin/sh
# make fuzz: builds each libFuzzer target with clang (ASan + UBSan, every
# report fatal) and runs it for FUZZ_SECONDS, one target at a time, from
# the checked-in corpus. New inputs go to fuzz-work/TARGET, never into the
# source tree; a crash leaves fuzz-work/TARGET-crash-* and fails the run
# (copy it to test/fuzz/regress/TARGET/ once the library is fixed).
#   usage: run.sh SRCDIR LIBRARY-SOURCES...   (from the Makefile)
# Environment: FUZZ_CC, FUZZ_SECONDS (60), FUZZ_TARGETS, FUZZ_ARGS (more
# libFuzzer flags).
set -eu
srcdir=$1
shift
: "${FUZZ_SECONDS:=60}"
: "${FUZZ_TARGETS:=deserialize process construct}"
: "${FUZZ_ARGS:=}"
# the fuzzers exercise the interpreter: an LLVM build's back end is
# replaced by the one used without LLVM
lib="$srcdir/src/codegen/none.c"
for f in "$@"; do
  case $f in
  src/codegen/*) ;;
  *.c) lib="$lib $srcdir/$f" ;;
  esac
done
flags="-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
-fno-sanitize-recover=all -fno-omit-frame-pointer -I$srcdir/include \
-I$srcdir/dataloop -I$srcdir/segment -I$srcdir/actions"
mkdir -p test/fuzz fuzz-work
status=0
for t in $FUZZ_TARGETS; do
  echo "== fuzz-$t: building"
  # shellcheck disable=SC2086
  $FUZZ_CC $flags -o "test/fuzz/fuzz-$t" $lib "$srcdir/test/fuzz/common.c" \
    "$srcdir/test/fuzz/$t.c"
  mkdir -p "fuzz-work/$t"
  regress=""
  [ -d "$srcdir/test/fuzz/regress/$t" ] && regress="$srcdir/test/fuzz/regress/$t"
  echo "== fuzz-$t: ${FUZZ_SECONDS}s"
  # shellcheck disable=SC2086
  if ! "test/fuzz/fuzz-$t" -max_total_time="$FUZZ_SECONDS" -max_len=4096 \
      -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="fuzz-work/$t-" $FUZZ_ARGS "fuzz-work/$t" \
      "$srcdir/test/fuzz/corpus/$t" $regress \
      2> "fuzz-work/$t.log"; then
    echo "fuzz-$t FAILED: see fuzz-work/$t.log and fuzz-work/$t-*" >&2
    status=1
  fi
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' \
    "fuzz-work/$t.log" || true
done
exit $status
