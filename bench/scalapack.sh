#!/bin/bash
# ScaLAPACK end to end, plain against preloaded: what the interposer costs
# or saves a program that builds a datatype for every message (BLACS makes
# a vector or indexed type per send and frees it after).
#
#   bench/scalapack.sh [--rounds N] [--preload LIB] [--out DIR] [--work DIR]
#
# Programs, on 4 ranks with test/ucx_yield.c preloaded in both modes (a
# waiting rank gives its core away):
#   blacs pblas3 lu qr llt   Debian's testers as test/scalapack/run.sh runs
#                            them (its trimmed inputs; its wall time of
#                            each run)
#   pblas3-timer             the level-3 PBLAS timer (dpb3tim) on a 2x2
#                            grid, its eight problems at 400^3, blocks of
#                            32: the sum of the WALL seconds it reports
# Each runs N times (default 7) in each mode, the modes alternating and
# their order flipping every round, so that drift hits both alike. A run
# whose results differ from plain's (the testers' passed/failed/skipped
# counts), or a preloaded timer run in which the interposer saw no
# derived-type send (DL_STATS_FILE: sent, or left to MPICH at the type's
# first use), fails the benchmark. Reported per program: the median seconds of
# each mode [min-max] and the median of the per-round ratios
# preloaded/plain; OUT/scalapack.csv (default bench/results) holds every
# run. Exit status: 0 done, 1 a run failed, 2 usage, 77 the testers are
# not installed (tools/run bench installs them).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=7
preload=$top/.libs/libdataloop-mpi-preload.so
out=bench/results
work=
die() { echo "bench/scalapack.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --rounds) rounds=${2:-}; shift 2 ;;
  --preload) preload=${2:-}; shift 2 ;;
  --out) out=${2:-}; shift 2 ;;
  --work) work=${2:-}; shift 2 ;;
  -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
  *) die "unknown argument $1" ;;
  esac
done
case $rounds in '' | *[!0-9]* | 0) die "--rounds takes a positive whole number" ;; esac
[ -f "$preload" ] || die "no interposer at $preload (build first)"
# absolute: the runs start in directories of their own
preload=$(cd "$(dirname "$preload")" && pwd)/$(basename "$preload")
tests=/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests
timer=$tests/PBLAS/TIMING/dpb3tim
[ -x "$timer" ] || { echo "bench/scalapack.sh: Debian's scalapack-mpi-test is not installed" >&2; exit 77; }
command -v mpiexec.mpich >/dev/null || { echo "bench/scalapack.sh: no mpiexec.mpich" >&2; exit 77; }
[ -n "$work" ] || work=$(mktemp -d /tmp/dl-scalapack-bench.XXXXXX)
mkdir -p "$work" "$out" || die "cannot make $work or $out"
work=$(cd "$work" && pwd)
yield=$work/libucx_yield.so
${CC:-cc} -O2 -shared -fPIC -o "$yield" "$top/test/ucx_yield.c" -ldl -lpthread ||
  die "cannot build $yield"

# the timer's input: the shipped file, every problem 400^3 in blocks of 32
awk '
/values of (M|N|K)$/ || /values of (M|N)_[ABC]/ { v = "400"; }
/values of (IMB|INB|MB|NB)_[ABC]/ { v = "32"; }
/values of RSRC_/ { v = "0"; }
v != "" { printf "%s %s %s %s %s %s %s %s\t\t%s\n", v, v, v, v, v, v, v, v,
          substr($0, index($0, "values")); v = ""; next }
{ print }' "$tests/PBLAS/TIMING/PDBLAS3TIM.dat" >"$work/PDBLAS3TIM.dat" ||
  die "cannot write the timer's input"

# one run of the timer: the sum of its WALL seconds (empty if it failed)
timer_run() { # mode
  local d=$work/timer-$1 pre=$yield
  rm -rf "$d" && mkdir -p "$d" && cp "$work/PDBLAS3TIM.dat" "$d/"
  [ "$1" = plain ] || pre=$preload:$yield
  (cd "$d" && timeout 600 mpiexec.mpich -n 4 -genv LD_PRELOAD "$pre" \
    -genv DL_STATS_FILE "$d/stats" "$timer") >"$d/stdout" 2>&1 </dev/null || return
  grep -q 'End of Tests' "$d/stdout" || return
  # preloaded, the interposer must have seen its messages
  [ "$1" = plain ] || cat "$d"/stats* 2>/dev/null | grep -Eq ' (send|deferred)=[1-9]' ||
    return
  awk '/^ *\| *PD/ { s += $3 } END { printf "%.3f", s }' "$d/stdout"
}
# one run of a tester through test/scalapack/run.sh: "counts seconds"
tester_run() { # mode tester
  local mode=$1 t=$2 line
  line=$(bash "$top/test/scalapack/run.sh" --preload "$preload" --work "$work/run-$mode" \
    --modes "$mode" --testers "$t" 2>&1 | grep -E "^\[$mode\] $t: [0-9]+ passed" | tail -n 1)
  [ -n "$line" ] || return
  case $line in *INCOMPLETE* | *TIMED*) return ;; esac
  sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped, ([0-9.]+)s.*/\1\/\2\/\3 \4/' <<<"$line"
}

programs="blacs pblas3 lu qr llt pblas3-timer"
csv=$out/scalapack.csv
echo "program,round,mode,seconds" >"$csv"
declare -A secs counts
status=0
echo "bench/scalapack.sh: 4 ranks, $rounds rounds, plain and preloaded ($preload) alternating"
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then order="plain default"; else order="default plain"; fi
  for p in $programs; do
    for m in $order; do
      if [ "$p" = pblas3-timer ]; then
        s=$(timer_run "$m") c=-
      else
        read -r c s <<<"$(tester_run "$m" "$p")"
      fi
      if [ -z "${s:-}" ]; then
        echo "$p: the $m run of round $r failed (see $work)" >&2
        status=1
        continue
      fi
      secs[$p.$m]="${secs[$p.$m]:-} $s"
      echo "$p,$r,$m,$s" >>"$csv"
      if [ "$c" != - ]; then
        [ -z "${counts[$p]:-}" ] && counts[$p]=$c
        [ "${counts[$p]}" = "$c" ] || {
          echo "$p: $m run of round $r counted $c, another run ${counts[$p]}" >&2
          status=1
        }
      fi
    done
  done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { tr ' ' '\n' | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }
printf '%-14s %20s %20s %16s\n' program "plain s [min-max]" "preloaded s" "preloaded/plain"
for p in $programs; do
  a=${secs[$p.plain]:-} b=${secs[$p.default]:-}
  if [ -z "$a" ] || [ -z "$b" ]; then continue; fi
  # per-round ratios, in round order (both lists hold the rounds in order)
  ratios=$(paste <(tr ' ' '\n' <<<"$a" | grep .) <(tr ' ' '\n' <<<"$b" | grep .) |
    awk '$1 > 0 { printf "%s ", $2 / $1 }')
  printf '%-14s %8s [%s] %8s [%s] %10.2f\n' "$p" "$(median <<<"$a")" "$(range <<<"$a")" \
    "$(median <<<"$b")" "$(range <<<"$b")" "$(median <<<"$ratios")"
done
echo "results: $csv"
exit $status
