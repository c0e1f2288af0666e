#!/bin/sh
# test/mpi4py/derived.py through Debian's mpi4py (python3-mpi4py, built on
# Open MPI) on 2 ranks: plainly, its lines are Open MPI's answers (result
# digests, statuses' counts, error classes of bad calls); with
# libdataloop-mpi-preload-openmpi.so preloaded, in the default and the
# pipeline mode, the lines must be the same, and every rank's counts
# (DL_STATS_FILE) must show the interposer served the program's packs,
# messages, collectives and one-sided operations. mpi4py's own test suite
# is not run: its source package is not in the archive (doc/mpi.md).
# Skipped without mpiexec.openmpi, the interposer for Open MPI or mpi4py
# for the system's python3; two processes are not run under Valgrind.
py=/usr/bin/python3
runner=$py
. "${srcdir:-.}/test/openmpi-ranks.sh" mpi4py
"$py" -c "import mpi4py" 2>/dev/null || { echo "no mpi4py for $py (python3-mpi4py)"; exit 77; }
prog=$s/test/mpi4py/derived.py
# DL_TEST_SMOKE=1: plainly and preloaded only (test/smoke.sh)
smoke_runs=1
. "$s/test/smoke.sh"

# served K N: at least N of field K served (test/served.sh)
. "$s/test/served.sh"

ranks_run plain
n=$(grep -c ' [0-9a-f]\{16\}$' "$work/plain")
[ "$n" -ge 70 ] || { echo "FAILED: plain: $n results, at least 70 expected" >&2; exit 1; }
pre="-x LD_PRELOAD=$lib -x DL_STATS_FILE=$work/stats"
# each rank packs and unpacks 5 types natively and in external32; rank 0
# sends 20 messages of derived types and rank 1 receives them (and the
# truncated one); each rank a long sendrecv and a sendrecv_replace; 5
# collectives with a derived side; a put, a get and an accumulate on each
# of two windows, each rank (one that lands counts twice, packed and
# landed: whether one does is the one-sided model's choice)
ranks_run default $pre -x DL_PIPELINE=0
ranks_same
served pack 20
served unpack 20
served send 21
served recv 23
served coll 10
served rma 12
smoke
# (chunks of 64 KiB: the default, a quarter of the L2, can be as long as
# the long message)
ranks_run pipeline $pre -x DL_PIPELINE=1 -x DL_PIPELINE_CHUNK=64K
ranks_same
served via_pipeline 2
echo "ok"
