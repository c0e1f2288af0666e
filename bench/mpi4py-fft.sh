#!/bin/bash
# Debian's mpi4py-fft on Open MPI, plain against preloaded: the pencil
# transposes of distributed FFTs, MPI_Alltoallw over subarray types, one
# per peer and side (what bench/coll.c's FFT patterns model on MPICH).
#
#   bench/mpi4py-fft.sh [--rounds N] [--preload LIB] [--out DIR]
#
# Each round runs bench/fft_transposes.py (2 ranks, 5 rounds of its own) once
# plainly and once with LIB (default .libs/libdataloop-mpi-preload-openmpi.so)
# preloaded, their order flipping every round, N rounds (default 5).
# Reported per pattern: the transposes' and the whole forward and backward
# transform's ms, median [min-max] of the runs, and the median of the
# per-round ratios plain/preloaded (above 1: preloaded is faster);
# OUT/mpi4py-fft.csv (default bench/results-openmpi) holds every run. A
# preloaded run in which the interposer served no collective fails it.
# Exit status: 0 done, 1 a run failed, 2 usage, 77 no mpiexec.openmpi or
# mpi4py-fft (tools/run bench installs python3-mpi4py-fft).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=5
preload=$top/.libs/libdataloop-mpi-preload-openmpi.so
out=bench/results-openmpi
py=/usr/bin/python3
die() { echo "bench/mpi4py-fft.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --rounds) rounds=${2:-}; shift 2 ;;
  --preload) preload=${2:-}; shift 2 ;;
  --out) out=${2:-}; shift 2 ;;
  -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
  *) die "unknown argument $1" ;;
  esac
done
case $rounds in '' | *[!0-9]* | 0) die "--rounds takes a positive whole number" ;; esac
[ -f "$preload" ] || die "no interposer at $preload (build first)"
preload=$(cd "$(dirname "$preload")" && pwd)/$(basename "$preload")
command -v mpiexec.openmpi >/dev/null || { echo "bench/mpi4py-fft.sh: no mpiexec.openmpi" >&2; exit 77; }
"$py" -c "import mpi4py_fft" 2>/dev/null ||
  { echo "bench/mpi4py-fft.sh: no mpi4py-fft for $py (python3-mpi4py-fft)" >&2; exit 77; }
mkdir -p "$out" || die "cannot make $out"
work=$(mktemp -d /tmp/dl-mpi4py-fft-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# one run: "name|transposes ms|transform ms" lines in $work/MODE
one() { # mode
  local pre=()
  rm -f "$work/stats"
  [ "$1" = plain ] || pre=(-x LD_PRELOAD="$preload" -x DL_STATS_FILE="$work/stats")
  timeout 600 env -u LD_PRELOAD mpiexec.openmpi --oversubscribe --mca mpi_yield_when_idle 1 \
    -n 2 "${pre[@]}" "$py" "$top/bench/fft_transposes.py" 5 >"$work/$1" 2>"$work/$1.err" || return 1
  [ "$1" = plain ] || grep -Eq ' coll=[1-9]' "$work/stats" || return 1
}

csv=$out/mpi4py-fft.csv
echo "pattern,round,mode,transposes_ms,transform_ms" >"$csv"
status=0
echo "bench/mpi4py-fft.sh: 2 ranks, $rounds rounds, plain and preloaded ($preload) alternating"
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then order="plain preloaded"; else order="preloaded plain"; fi
  for m in $order; do
    if ! one "$m"; then
      echo "the $m run of round $r failed:" >&2
      cat "$work/$m.err" >&2
      status=1
      continue
    fi
    awk -F'|' -v r="$r" -v m="$m" '{ printf "\"%s\",%s,%s,%s,%s\n", $1, r, m, $2, $3 }' \
      "$work/$m" >>"$csv"
  done
done

# per pattern and measure: medians, ranges, median of per-round ratios
"$py" - "$csv" <<'PY'
import csv, statistics, sys
runs = {}
for row in csv.DictReader(open(sys.argv[1])):
    runs.setdefault(row["pattern"], {}).setdefault(row["mode"], {})[int(row["round"])] = (
        float(row["transposes_ms"]), float(row["transform_ms"]))
print("%-24s %-10s %22s %22s %15s" % ("pattern", "measure", "plain ms [min-max]",
                                      "preloaded ms", "plain/preloaded"))
for p, modes in runs.items():
    a, b = modes.get("plain", {}), modes.get("preloaded", {})
    for k, what in ((0, "transposes"), (1, "transform")):
        xa = [v[k] for v in a.values()]
        xb = [v[k] for v in b.values()]
        ratios = [a[r][k] / b[r][k] for r in a if r in b and b[r][k] > 0]
        if not xa or not xb or not ratios:
            continue
        print("%-24s %-10s %8.2f [%.2f-%.2f] %8.2f [%.2f-%.2f] %10.2f [%.2f-%.2f]" % (
            p, what, statistics.median(xa), min(xa), max(xa), statistics.median(xb),
            min(xb), max(xb), statistics.median(ratios), min(ratios), max(ratios)))
PY
echo "results: $csv"
exit $status
