# Sourced by the scripts that run several processes. DL_TEST_SMOKE=1 (the
# release tarball's check in tools/run test): a script stops after its
# first $smoke_runs runs (default 2: plainly and preloaded), which prove
# the tarball holds what it needs; make check in the tree runs them all.
# The script calls smoke after each run.
smoke_left=${smoke_runs:-2}
smoke() {
  [ "${DL_TEST_SMOKE:-}" = 1 ] || return 0
  smoke_left=$((smoke_left - 1))
  [ "$smoke_left" -gt 0 ] || { echo "DL_TEST_SMOKE=1: the first runs only"; exit 0; }
}
