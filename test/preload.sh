#!/bin/sh
# test/test_preload (MPI_Pack and friends) with libdataloop-mpi-preload.so
# preloaded, then as plain MPICH. Under make check-valgrind, DL_VALGRIND
# holds the valgrind command for the run with the interposer (the plain
# run tests MPICH and runs as is).
b=${top_builddir:-.}
lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
stats=$(mktemp)
err=$(mktemp)
trap 'rm -f "$stats" "$err"' EXIT
echo "== with the interposer (and two bad settings, which change nothing)"
LD_PRELOAD=$lib DL_EXPECT_PRELOAD=1 DL_STATS_FILE=$stats DL_PIPELINE=maybe \
  DL_STRATEGY=bogus $DL_VALGRIND "$b/test/test_preload" 2> "$err" ||
  { cat "$err" >&2; exit 1; }
cat "$err" >&2
# each bad setting reported once on stderr
for v in DL_PIPELINE=maybe DL_STRATEGY=bogus; do
  [ "$(grep -c "^dataloop: $v ignored" "$err")" -eq 1 ] ||
    { echo "$v not reported once" >&2; exit 1; }
done
# DL_STATS_FILE: one line at MPI_Finalize, with the packs counted
grep -Eq '^dataloop-preload pid=[0-9]+ pack=[1-9][0-9]* unpack=[1-9][0-9]* send=0 recv=0 long=0 rma=0 coll=0 deferred=0( via_[a-z]+=0){5}$' \
  "$stats" && [ "$(wc -l < "$stats")" -eq 1 ] ||
  { echo "DL_STATS_FILE holds:" >&2; cat "$stats" >&2; exit 1; }
# DL_TRACE names the host MPI found (host.c): this MPICH's version has a
# file of its deviations, any other runs with every workaround
ver=$(pkg-config --modversion mpich 2>/dev/null)
case $ver in 4.0.2) want="host MPICH 4.0.2" ;; *) want="host unknown (every workaround)" ;; esac
LD_PRELOAD=$lib DL_TRACE=1 DL_EXPECT_PRELOAD=1 "$b/test/test_preload" 2> "$err" >/dev/null ||
  { cat "$err" >&2; exit 1; }
grep -q "active: .*, $want\$" "$err" ||
  { echo "DL_TRACE does not say \"$want\":" >&2; grep active "$err" >&2; exit 1; }
echo "== plain MPICH"
DL_EXPECT_PRELOAD=0 "$b/test/test_preload" || exit 1
