#!/bin/sh
# test/test_openmpi with libdataloop-mpi-preload-openmpi.so preloaded: the
# program's MPI_Pack, MPI_Unpack and external32 calls are the
# interposer's, each compared with Open MPI's own (the plain run is
# test/test_openmpi itself). Under make check-valgrind, DL_VALGRIND holds
# the valgrind command.
b=${top_builddir:-.}
top=$(cd "$b" && pwd)
lib=$top/.libs/libdataloop-mpi-preload-openmpi.so
[ -f "$lib" ] || { echo "no $lib (no Open MPI found, or --disable-shared)" >&2; exit 77; }
# the program itself, not libtool's wrapper script, under the preload
prog=$top/test/.libs/test_openmpi
[ -x "$prog" ] || prog=$top/test/test_openmpi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
# errors_as_openmpi fails unless the interposer found its host file for
# this Open MPI (host.c: an unknown host keeps every workaround, and a
# short buffer then moves what fits, where Open MPI moves nothing)
LD_LIBRARY_PATH="$top/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LD_PRELOAD=$lib \
  DL_EXPECT_PRELOAD=1 $DL_VALGRIND "$prog" 2> "$err" ||
  { cat "$err" >&2; exit 1; }
cat "$err" >&2
