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
py=/usr/bin/python3
runner=$py
. "${srcdir:-.}/test/openmpi-ranks.sh" mpi4py-fft
"$py" -c "import mpi4py_fft" 2>/dev/null ||
  { echo "no mpi4py-fft for $py (python3-mpi4py-fft)"; exit 77; }
prog=$s/test/mpi4py/fft.py
# DL_TEST_SMOKE=1: plainly and preloaded only (test/smoke.sh)
smoke_runs=1
. "$s/test/smoke.sh"
. "$s/test/served.sh"

ranks_run plain
n=$(grep -c ' round trip ok ' "$work/plain")
[ "$n" -eq 16 ] || { echo "FAILED: plain: $n of 16 round trips right" >&2; exit 1; }
pre="-x LD_PRELOAD=$lib -x DL_STATS_FILE=$work/stats"
# 8 cases, a forward and a backward transform each, with one transpose
# each between the two ranks (a 2-rank grid splits one axis), but case 6,
# whose two axes transformed lie whole on each rank: 28 of them
ranks_run default $pre -x DL_PIPELINE=0
ranks_same
served coll 28
smoke
ranks_run pipeline $pre -x DL_PIPELINE=1 -x DL_PIPELINE_CHUNK=64K
ranks_same
served coll 28
# on 3 ranks (slabs of unequal thickness: each peer's subarrays differ;
# 14 transposes a rank, as on 2) and on 4 (a 2 x 2 grid of pencils where
# mpi4py-fft chooses: transposes within rows and columns, on
# subcommunicators; 24 a rank), plainly and preloaded
for ranks in 3 4; do
  ranks_run plain$ranks
  n=$(grep -c ' round trip ok ' "$work/plain$ranks")
  [ "$n" -eq $((8 * ranks)) ] ||
    { echo "FAILED: plain$ranks: $n of $((8 * ranks)) round trips right" >&2; exit 1; }
  ranks_run default$ranks $pre -x DL_PIPELINE=0
  ranks_same plain$ranks
  served coll $((ranks == 3 ? 42 : 96))
done
echo "ok"
