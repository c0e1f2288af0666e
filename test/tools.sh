#!/bin/sh
# The benchmark programs' command lines (doc/benchmarks.md): --help names
# every option and exits 0, a bogus option exits 2, a --filter matching
# nothing and an unusable --out exit non-zero leaving no file behind, a
# result that cannot be renamed into place leaves no temporary file, and one
# short run from a folder outside the source tree writes complete files to
# the default ./dataloop-results. The two-rank programs run under mpiexec;
# without one only their part is skipped (exit 77 at the end).
b=$(cd "${top_builddir:-.}" && pwd)/bench
[ -n "$DL_VALGRIND" ] && { echo "benchmark tools: not under valgrind"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/dl-tools.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

# no temporary or probe file anywhere under the work folder
no_leftovers() {
  left=$(find "$work" -name '*.tmp-*' -o -name '.dataloop-probe-*')
  [ -z "$left" ] || fail "$1 left $left"
}

# every file non-empty, a header and data rows with as many fields as the
# header (a CSV cut short would not)
complete_csv() {
  for f in "$@"; do
    [ -s "$f" ] || fail "$f missing or empty"
    awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR < 2 }' "$f" ||
      fail "$f incomplete"
  done
}

# prog "options" [launcher...]: --help names the options and exits 0, a
# bogus option exits 2, an unmatched --filter and an --out under a regular
# file exit non-zero and leave nothing in the working folder
cli() {
  prog=$1; shift
  opts=$1; shift
  out=$("$b/$prog" --help 2>/dev/null); rc=$?
  [ $rc -eq 0 ] || fail "$prog --help exited $rc"
  for o in $opts --help; do
    printf '%s\n' "$out" | grep -q -e "$o" || fail "$prog --help does not name $o"
  done
  "$b/$prog" -h >/dev/null 2>&1 || fail "$prog -h exited non-zero"
  "$b/$prog" --bogus-option >/dev/null 2>"$work/err"; rc=$?
  [ $rc -eq 2 ] || fail "$prog --bogus-option exited $rc, not 2"
  grep -q "usage:" "$work/err" || fail "$prog --bogus-option printed no usage on stderr"
  w=$work/cli
  mkdir "$w" && : > "$w/plain"
  (cd "$w" && "$@" "$b/$prog" --filter no-such-test-xyz --out "$w/f") \
    >/dev/null 2>&1 && fail "$prog --filter matching nothing exited 0"
  (cd "$w" && "$@" "$b/$prog" --out "$w/plain/sub") >/dev/null 2>&1 &&
    fail "$prog --out under a regular file exited 0"
  [ "$(ls -A "$w")" = plain ] || fail "$prog left $(ls -A "$w")"
  [ -s "$w/plain" ] && fail "$prog wrote into $w/plain"
  no_leftovers "$prog"
  rm -rf "$w" "$work/err"
}

cli dataloop-bench "--quick --full --unpack --filter --out"
cli dataloop-x32-bench "--quick --full --unpack --filter --out"
cli dataloop-io-bench "--quick --full --filter --dir --out"

run=$work/run
mkdir "$run"
cd "$run" || exit 1
"$b/dataloop-bench" --quick --filter "Contig (INT)" >/dev/null || fail "dataloop-bench run"
complete_csv dataloop-results/results.csv
[ -s dataloop-results/ratios.dat ] || fail "no ratios.dat"
tail -n 1 dataloop-results/results.json | grep -q '^}$' || fail "results.json incomplete"
"$b/dataloop-x32-bench" --quick --filter "Contig (INT)" >/dev/null || fail "dataloop-x32-bench run"
complete_csv dataloop-results/external.csv
"$b/dataloop-io-bench" --quick --filter subarray --dir "$run" >/dev/null ||
  fail "dataloop-io-bench run"
complete_csv dataloop-results/io.csv
no_leftovers "the runs"

# a file that cannot be renamed into place (a folder of its name): exit 1,
# no temporary file left, the other files written whole
mkdir -p "$work/busy/results.csv"
"$b/dataloop-bench" --quick --filter "Contig (INT)" --out "$work/busy" >/dev/null 2>&1 &&
  fail "dataloop-bench exited 0 though results.csv could not be written"
no_leftovers "a failed rename"
tail -n 1 "$work/busy/results.json" | grep -q '^}$' || fail "results.json incomplete"

if [ -z "$MPIEXEC" ]; then
  echo "no mpiexec found by configure: dataloop-pingpong, dataloop-rma-bench and" \
    "dataloop-tune not run" >&2
  exit 77
fi
mpi() { timeout 300 "$MPIEXEC" -n 2 "$@"; }
cli dataloop-pingpong "--quick --full --unpack --filter --out" mpi
cli dataloop-rma-bench "--quick --full --unpack --filter --out" mpi
# dataloop-tune has no --filter: the option is refused (exit 2)
cli dataloop-tune "--quick --smoke --file --out" mpi
mpi "$b/dataloop-pingpong" --quick --filter "Struct Array" >/dev/null ||
  fail "dataloop-pingpong run"
complete_csv dataloop-results/pingpong.csv dataloop-results/pingpong-auto.csv
# the XZ face put and get: every route, landing included, checked byte for
# byte against the manual variant
mpi "$b/dataloop-rma-bench" --quick --filter "XZ face" >/dev/null ||
  fail "dataloop-rma-bench run"
complete_csv dataloop-results/rma.csv dataloop-results/rma-auto.csv
mpi "$b/dataloop-tune" --smoke --file "$run/conf/tune.conf" >/dev/null ||
  fail "dataloop-tune run"
for f in nt pack chunks routes mpich; do
  complete_csv "dataloop-results/tune-$f.csv"
done
for k in list_batch rma_put rma_get rma_land rma_pack; do
  grep -q "^$k " conf/tune.conf || fail "tune.conf incomplete: no $k"
done
no_leftovers "the two-rank runs"
echo "benchmark tools: all checks passed"
