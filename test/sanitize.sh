#!/bin/sh
# make check-asan / check-tsan: the test suite built with a sanitizer, in
# its own build directory from the distributed sources (the source tree
# itself may be configured in place, which rules out a VPATH build of it).
#   usage: sanitize.sh DIR CC CFLAGS [TESTS]    (from the Makefile, in the
#   build directory of a configured tree; MAKE, srcdir in the environment)
# Every sanitizer report is fatal. LeakSanitizer is off for the
# programs that call MPI_Init: MPI_Init leaves allocations of UCX
# modules it has unloaded, which no suppression can name; the Valgrind run
# checks those programs for leaks, with suppressions confined to MPI_Init.
set -eu
dir=$1 cc=$2 cflags=$3 tests=${4:-}
top=$(pwd)
rm -rf "$dir"
mkdir -p "$dir"
${MAKE:-make} distdir distdir="$dir/src" >/dev/null
mkdir "$dir/obj"
cd "$dir/obj"
echo "== $dir: configure CC=$cc CFLAGS=$cflags"
../src/configure --enable-werror --disable-shared CC="$cc" CFLAGS="$cflags" \
  > configure.out 2>&1 || { cat configure.out; exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)
# named tests: their programs and what they link only, run by the test
# harness's own target (make check would build everything first)
if [ -n "$tests" ]; then
  ${MAKE:-make} -j"$jobs" $tests >/dev/null
else
  ${MAKE:-make} -j"$jobs" >/dev/null
fi
export ASAN_OPTIONS=abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
cat > run-test <<'EOS'
#!/bin/sh
case "$*" in
*test_mpich|*test_bridge|*test_openmpi|*test_strategy|*test_io_romio|*test_external|*io-twoproc.sh|*tools.sh|*interposer.sh) ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 ;;
*) ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=1 ;;
esac
export ASAN_OPTIONS
exec "$@"
EOS
chmod +x run-test
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# fewer random draws when asked (TEST_SCALE: make check-asan TEST_SCALE=0.2)
if [ -n "${TEST_SCALE:-}" ]; then
  DL_TEST_SCALE=$TEST_SCALE
  export DL_TEST_SCALE
fi
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
echo "== $dir: make check${tests:+ TESTS=$tests}${TEST_SCALE:+ (DL_TEST_SCALE=$TEST_SCALE)}"
if [ -n "$tests" ]; then
  ${MAKE:-make} -j"$jobs" check-TESTS TESTS="$tests" \
    LOG_COMPILER=./run-test SH_LOG_COMPILER="./run-test /bin/sh" || status=$?
else
  ${MAKE:-make} -j"$jobs" check \
    LOG_COMPILER=./run-test SH_LOG_COMPILER="./run-test /bin/sh" || status=$?
fi
if [ "${status:-0}" -ne 0 ]; then
  cat test-suite.log 2>/dev/null || true
  exit 1
fi
grep -h '^# \(TOTAL\|PASS\|SKIP\|FAIL\|ERROR\)' test-suite.log 2>/dev/null || true
cd "$top"
