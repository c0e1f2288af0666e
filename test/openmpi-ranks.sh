# Sourced by the scripts that run a program on a few ranks of Open MPI,
# plainly and with $lib (libdataloop-mpi-preload-openmpi.so) preloaded:
# skips (77) under Valgrind and without mpiexec.openmpi or the
# interposer, lets Open MPI run as root, and makes $work (removed at
# exit; $1 names it). For a program that writes its lines to a file per
# rank (the launcher's forwarding of the ranks' standard output may
# interleave them mid-line): ranks_run MODE [mpiexec options] runs $prog
# (after $runner, if set) on $ranks ranks (default 2) with the file name
# $work/MODE as its argument, and leaves the ranks' lines, rank 0's
# first, in $work/MODE; ranks_same checks that $work/$m holds the lines
# of $work/plain (or of the run named by $1).
b=${top_builddir:-.}
s=${srcdir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload-openmpi.so
[ -n "$DL_VALGRIND" ] && { echo "two-process test: not under valgrind"; exit 77; }
[ -n "$MPIEXEC_OMPI" ] || { echo "no mpiexec.openmpi found by configure"; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured without Open MPI or --disable-shared?)"; exit 77; }
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
work=$(mktemp -d "/tmp/dl-$1-XXXXXX")
trap 'rm -rf "$work"' EXIT

ranks_run() {
  m=$1
  shift
  echo "== $m"
  rm -f "$work/stats" "$work/$m".*
  # shellcheck disable=SC2086  # $runner is empty or one word
  timeout 300 env -u LD_PRELOAD $MPIEXEC_OMPI --oversubscribe --mca mpi_yield_when_idle 1 \
    -n "${ranks:-2}" "$@" $runner "$prog" "$work/$m" >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  : >"$work/$m"
  r=0
  while [ $r -lt "${ranks:-2}" ]; do
    [ $rc -eq 0 ] && [ -f "$work/$m.$r" ] || { echo "FAILED: $m (exit $rc)" >&2; exit 1; }
    cat "$work/$m.$r" >>"$work/$m"
    r=$((r + 1))
  done
  echo "$m: $(wc -l <"$work/$m") lines"
}
ranks_same() {
  diff "$work/${1:-plain}" "$work/$m" ||
    { echo "FAILED: $m: other answers than plainly" >&2; exit 1; }
}
