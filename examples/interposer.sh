#!/bin/sh
# examples/interposer under mpiexec -n 2: plain MPICH (which must not find
# the interposer), then with libdataloop-mpi-preload.so preloaded, where the
# program requires that dataloop handled its packs and messages.
b=$(cd "${top_builddir:-.}" && pwd)
prog=$b/examples/interposer
lib=$b/.libs/libdataloop-mpi-preload.so
[ -n "$MPIEXEC" ] || { echo "no mpiexec found by configure" >&2; exit 77; }
[ -x "$prog" ] || { echo "$prog not built" >&2; exit 1; }

echo "== plain MPICH"
out=$(timeout 300 "$MPIEXEC" -n 2 "$prog") ||
  { echo "$out"; echo "FAILED: plain run" >&2; exit 1; }
echo "$out"
n=$(printf '%s\n' "$out" | grep -c 'column ok; no interposer loaded')
[ "$n" -eq 2 ] ||
  { echo "FAILED: the plain run did not report 2 ranks without it" >&2; exit 1; }

# the interposer exists only as a shared object
[ -f "$lib" ] ||
  { echo "no $lib (--disable-shared?): preloaded run not made" >&2; exit 77; }
echo "== preloaded: $lib"
timeout 300 "$MPIEXEC" -n 2 -genv LD_PRELOAD "$lib" "$prog" \
  --require-interposer ||
  { echo "FAILED: preloaded run" >&2; exit 1; }
