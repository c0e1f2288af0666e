#!/bin/sh
# test/mpi4py/fft.py: distributed FFTs of Debian's mpi4py-fft
# (python3-mpi4py-fft, on Open MPI through mpi4py), whose pencil
# transposes are MPI_Alltoallw over subarray types, on 2 ranks: plainly,
# then with libdataloop-mpi-preload-openmpi.so preloaded in the default
# and the pipeline mode, where the ranks' lines (digests of every result)
# must be the plain run's and their counts (DL_STATS_FILE) must show the
# interposer served the transposes. Skipped without mpiexec.openmpi, the
# interposer for Open MPI, or mpi4py-fft for the system's python3; two
# processes are not run under Valgrind.
b=${top_builddir:-.}
s=${srcdir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload-openmpi.so
py=/usr/bin/python3
[ -n "$DL_VALGRIND" ] && { echo "two-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC_OMPI" ] || { echo "no mpiexec.openmpi found by configure"; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured without Open MPI or --disable-shared?)"; exit 77; }
"$py" -c "import mpi4py_fft" 2>/dev/null ||
  { echo "no mpi4py-fft for $py (python3-mpi4py-fft)"; exit 77; }
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
work=$(mktemp -d /tmp/dl-mpi4py-fft-XXXXXX)
trap 'rm -rf "$work"' EXIT
prog=$s/test/mpi4py/fft.py
# DL_TEST_SMOKE=1: plainly and preloaded only (test/smoke.sh)
smoke_runs=1
. "$s/test/smoke.sh"

# run MODE [mpiexec options]: its lines in $work/MODE (rank 0's, then
# rank 1's: each rank writes a file of its own)
run() {
  m=$1
  shift
  echo "== $m"
  rm -f "$work/stats" "$work/$m".*
  timeout 300 env -u LD_PRELOAD $MPIEXEC_OMPI --oversubscribe --mca mpi_yield_when_idle 1 \
    -n 2 "$@" "$py" "$prog" "$work/$m" >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  [ $rc -eq 0 ] && [ -f "$work/$m.0" ] && [ -f "$work/$m.1" ] ||
    { echo "FAILED: $m (exit $rc)" >&2; exit 1; }
  cat "$work/$m.0" "$work/$m.1" >"$work/$m"
  echo "$m: $(wc -l <"$work/$m") lines"
}
same() {
  diff "$work/plain" "$work/$m" || { echo "FAILED: $m: other results than plainly" >&2; exit 1; }
}
. "$s/test/served.sh"

run plain
n=$(grep -c ' round trip ok ' "$work/plain")
[ "$n" -eq 16 ] || { echo "FAILED: plain: $n of 16 round trips right" >&2; exit 1; }
pre="-x LD_PRELOAD=$lib -x DL_STATS_FILE=$work/stats"
# 8 cases, a forward and a backward transform each, with one transpose
# each between the two ranks (a 2-rank grid splits one axis), but case 6,
# whose two axes transformed lie whole on each rank: 28 of them
run default $pre -x DL_PIPELINE=0
same
served coll 28
smoke
run pipeline $pre -x DL_PIPELINE=1 -x DL_PIPELINE_CHUNK=64K
same
served coll 28
echo "ok"
