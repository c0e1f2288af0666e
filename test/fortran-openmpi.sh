#!/bin/sh
# Fortran programs (`use mpi`) on Open MPI, plainly and with
# libdataloop-mpi-preload-openmpi.so preloaded: Open MPI's Fortran
# bindings call the PMPI_ names, so the interposer serves Fortran callers
# by entry points of its own (src/mpi/preload/fortran/). Each program
# checks every result against the data, so it passes plainly; preloaded,
# every rank's counts (DL_STATS_FILE) must show the interposer served it:
# test/fortran/f_p2p.f90 in the default and the pipeline mode (its
# derived-type sends, receives and packs, and its long messages as
# streams), test/fortran/f_rma.f90 (its one-sided operations of derived
# types, on every window kind and synchronization), test/fortran/f_coll.f90
# (its collectives of derived types, blocking and nonblocking, and the
# gathers in place). f_p2p's ten calls of bad arguments (counts, types,
# ranks, tags, short buffers, an unknown representation) print their
# error classes and positions: preloaded, the lines must be the plain
# run's (Open MPI judges them). Built here with
# mpifort.openmpi (skipped without it); two processes are not run under
# Valgrind.
. "${srcdir:-.}/test/openmpi-ranks.sh" fortran
command -v mpifort.openmpi >/dev/null 2>&1 || { echo "no mpifort.openmpi"; exit 77; }
for p in f_p2p f_rma f_coll; do
  mpifort.openmpi -O1 -J "$work" -o "$work/$p" "$s/test/fortran/$p.f90" ||
    { echo "FAILED: mpifort.openmpi could not build $p.f90" >&2; exit 1; }
done
prog=$work/f_p2p
# DL_TEST_SMOKE=1: f_p2p plainly and preloaded only (test/smoke.sh)
smoke_runs=1
. "$s/test/smoke.sh"

# run MODE [mpiexec options]: passes if the program says so
run() {
  m=$1
  shift
  echo "== $m"
  rm -f "$work/stats"
  timeout 300 $MPIEXEC_OMPI --oversubscribe -n 2 "$@" "$prog" >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  [ $rc -eq 0 ] && grep -q "^${prog##*/}: all passed" "$work/out" ||
    { echo "FAILED: $m (exit $rc)" >&2; exit 1; }
}
# served K N: at least N of field K served (test/served.sh)
. "$s/test/served.sh"

run plain
# the bad calls' lines, as Open MPI answers them (one per bad call on rank 0)
grep '^f_p2p: bad ' "$work/out" >"$work/bad.plain"
[ "$(wc -l <"$work/bad.plain")" -eq 10 ] ||
  { echo "FAILED: plain: $(wc -l <"$work/bad.plain") bad calls reported, 10 expected" >&2; exit 1; }
same_bad() {
  grep '^f_p2p: bad ' "$work/out" | diff "$work/bad.plain" - ||
    { echo "FAILED: $m: bad calls answered otherwise than plainly" >&2; exit 1; }
}
# the derived-type messages: rank 0 sends 4, 2 persistent starts, a
# sendrecv, one from MPI_BOTTOM and 2 long ones, rank 1 a sendrecv (a
# sendrecv_replace counts as a receive); rank 1 receives as many, plus
# the truncated one, and each rank a sendrecv and a sendrecv_replace; a
# pack and an unpack each way of packing, on each rank; the long
# messages stream in pipeline mode (in chunks of 64 KiB: the default
# chunk, a quarter of the L2, is as long as they are on some machines)
pre="-x LD_PRELOAD=$lib -x DL_STATS_FILE=$work/stats"
run default $pre -x DL_PIPELINE=0
same_bad
served send 11
served recv 14
served pack 4
served unpack 4
smoke
run pipeline $pre -x DL_PIPELINE=1 -x DL_PIPELINE_CHUNK=64K
same_bad
served send 11
served recv 14
served via_pipeline 2
# each rank puts, gets, accumulates and get-accumulates derived types 12
# times on each of 3 windows (created, allocated, allocated shared)
prog=$work/f_rma
run plain
run default $pre
served rma 72
# a collective counts at a rank where a side there is derived: 34 at
# rank 0 (the root) and 26 at rank 1 on Open MPI 4.1.4; at least 52
prog=$work/f_coll
run plain
run default $pre
served coll 52
