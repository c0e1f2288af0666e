#!/bin/bash
# ScaLAPACK as a real client of the interposer and of another MPICH library.
#
# Debian's scalapack-mpi-test ships the BLACS, PBLAS and ScaLAPACK testers
# built against MPICH; scalapack-test-common ships their input files. This
# runs a selection of them (4 ranks, as their CTest files do) plainly, with
# the interposer preloaded, preloaded in pipeline mode with a chunk smaller
# than their messages (BLACS's largest are 6656 bytes), and on the
# libmpich.so.12 of another MPICH of the same ABI (one whose datatype
# engine is dataloop: doc/mpich.md), and judges every run by the tester's
# own PASSED/FAILED/SKIPPED counts, never by the exit code alone. The other
# modes must give exactly plain's counts.
#
#   test/scalapack/run.sh [--host mpich|openmpi]
#                         [--preload .libs/libdataloop-mpi-preload.so]
#                         [--mpich-lib DIR] --work WORK
#                         [--modes plain,default,pipeline,lib] [--chunk 1000]
#                         [--testers blacs,blacs-aux,pblas3,lu,qr,llt]
#                         [--timeout SECONDS] [--full]
#                         [--baseline FILE] [--record-baseline FILE]
#                         [--spin]
#
# --host openmpi: the testers Debian built against Open MPI (beside the
# MPICH ones in scalapack-mpi-test), run with mpiexec.openmpi
# --oversubscribe (4 ranks on fewer cores; as root with
# OMPI_ALLOW_RUN_AS_ROOT) and -x for each variable, the preload being
# the interposer built for Open MPI (libdataloop-mpi-preload-openmpi.so).
# Open MPI's waits yield their core by its own setting
# (mpi_yield_when_idle 1), so test/ucx_yield.c is not preloaded there;
# the lib mode is MPICH's only. Default: mpich.
#
# --baseline FILE: the plain mode's counts and times come from FILE, a
# recorded plain run (--record-baseline FILE writes one), instead of being
# run: they depend only on ScaLAPACK, MPICH and the inputs. FILE must name
# the installed scalapack-mpi-test and MPI versions and each tester's
# input files (a digest), else the plain mode runs as usual. A tester
# whose counts in another mode differ from the baseline's runs plainly
# again: if that run differs from the baseline too, it is the reference
# (the report says the baseline is stale).
#
# Modes: plain; default and pipeline (the interposer, --preload); lib
# (mpiexec -genv LD_LIBRARY_PATH with a copy of DIR's shared libraries, in
# WORK/mpich-lib: the testers and Debian's ScaLAPACK, linked with Debian's
# libmpich.so.12, load DIR's). Without --modes: plain, then default and
# pipeline if --preload is given, then lib if --mpich-lib is given. xCbtest
# (BLACS) also needs MPICH's Fortran library, libmpichfort.so.12: DIR's
# when it has one, else Debian's, which works over the libmpich.so.12 of
# an MPICH configured with Fortran. The MPICH must be: one configured
# without it has no Fortran datatypes (Debian's header gives MPI_COMPLEX,
# MPI_DOUBLE_PRECISION... handles it does not know), and BLACS's complex
# tests abort in MPI_Type_vector (Debian's libmpichfort loads over it
# anyway, 7 functions left undefined and bound lazily). The other testers
# link libmpich.so.12 alone. The lib check before the runs: with the copy
# on LD_LIBRARY_PATH, every tester resolves libmpich.so.12 into it (ldd)
# and leaves no symbol undefined (ldd -r; the check fails naming them);
# the summary says where libmpichfort.so.12 comes from.
#
# Exit status: 0 all modes agree with plain; 1 a difference, an incomplete
# run, or a preload or lib check failed; 2 usage; 77 the packages are not
# installed.
#
# The testers, all double precision but BLACS's (which tests all five):
#   blacs      xCbtest: SDRV (point to point) and BSBR (broadcasts) as
#              shipped, COMB (combines) trimmed, AUX off, so that the run
#              ends in BLACS_EXIT/MPI_Finalize (the stats are written there)
#   blacs-aux  xCbtest: the auxiliary tests alone; they end in BLACS_ABORT
#              (MPI_Abort), as the shipped run does, so only the aborting
#              rank writes its stats line
#   pblas3     PBLAS/dpb3tst, level 3 PBLAS
#   lu qr llt  xdlu, xdqr, xdllt: LU, QR (QR QL LQ RQ QP TZ), Cholesky
# Trimmed inputs (the installed files edited at run time; --full keeps them
# whole, which takes far longer than a CI budget):
#   bt.dat     AUX in its own run (blacs-aux), all five precisions kept
#   sdrv.dat, bsbr.dat   as shipped (all the derived-type traffic is there)
#   comb.dat   2 of 4 topologies, 2 of 6 matrices, 2 of 4 destinations, the
#              2x2 grid alone (ops, scopes, repeatability and coherence as
#              shipped); combines send nothing the default mode interposes
#   PDBLAS3TST 2 of 4 test problems, 2 of 4 grids (2x2, 1x4)
#   LU, LLT    sizes 17x13 and 31x31 (LLT: 17, 31), NB 3 and 4, NRHS 9,
#              NBRHS 5, grids 2x2 1x4 4x1 (no 1x1: it sends nothing)
#   QR         all six factorizations, sizes 15x10 and 13x17, MB 5 NB 3,
#              grids 2x2 1x4 4x1
#   LU, LLT    condition estimation and iterative refinement off, also with
#              --full: PDLACON (called by PDGERFS and PDPORFS) reads
#              uninitialised memory (valgrind says so); in LU the ranks then
#              disagree on TRANS in PDGERFS's PDGETRS call, which reports
#              "parameter number 1 had an illegal value" and hangs: about
#              one run in two of a 31x31 test, without the interposer, with
#              ASLR on (and that path alone took 10 s of such a test)
#
# Environment: the script sets LD_PRELOAD, DL_TRACE, DL_PIPELINE,
# DL_PIPELINE_CHUNK and DL_STATS_FILE itself (through -genv); other DL_*
# variables (DL_STRATEGY, DL_ADAPT, ...) pass through to the preloaded runs.
# Every run preloads test/ucx_yield.c (compiled into WORK with cc, or
# $CC): a rank whose UCX progress calls keep finding nothing to do yields
# its core, as Debian's MPICH (ch4:ucx) never does whatever its settings,
# so that four waiting ranks on two cores do not burn the time slices of
# the ones they wait for; only scheduling changes. --spin leaves them
# spinning. SCALAPACK_TESTS_DIR and
# SCALAPACK_DATA_DIR override where the testers and their inputs are.

set -u
# set per mode below, never inherited
unset LD_PRELOAD DL_TRACE DL_PIPELINE DL_PIPELINE_CHUNK DL_STATS_FILE

me=${0##*/}
host=mpich
preload=
mpich_lib=
work=
modes=
chunk=1000
testers=blacs,blacs-aux,pblas3,lu,qr,llt
timeout_s=300
full=0
baseline=
record_baseline=
spin=0

usage() {
  sed -n '/^#   test\/scalapack\/run.sh/,/--spin\]$/s/^# \{0,3\}//p' "$0" >&2
  exit 2
}

die() {
  echo "$me: $*" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
  --host) [ $# -ge 2 ] || usage; host=$2; shift 2 ;;
  --host=*) host=${1#*=}; shift ;;
  --preload) [ $# -ge 2 ] || usage; preload=$2; shift 2 ;;
  --preload=*) preload=${1#*=}; shift ;;
  --mpich-lib) [ $# -ge 2 ] || usage; mpich_lib=$2; shift 2 ;;
  --mpich-lib=*) mpich_lib=${1#*=}; shift ;;
  --work) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
  --work=*) work=${1#*=}; shift ;;
  --modes) [ $# -ge 2 ] || usage; modes=$2; shift 2 ;;
  --modes=*) modes=${1#*=}; shift ;;
  --chunk) [ $# -ge 2 ] || usage; chunk=$2; shift 2 ;;
  --chunk=*) chunk=${1#*=}; shift ;;
  --testers) [ $# -ge 2 ] || usage; testers=$2; shift 2 ;;
  --testers=*) testers=${1#*=}; shift ;;
  --timeout) [ $# -ge 2 ] || usage; timeout_s=$2; shift 2 ;;
  --timeout=*) timeout_s=${1#*=}; shift ;;
  --full) full=1; shift ;;
  --spin) spin=1; shift ;;
  --baseline) [ $# -ge 2 ] || usage; baseline=$2; shift 2 ;;
  --baseline=*) baseline=${1#*=}; shift ;;
  --record-baseline) [ $# -ge 2 ] || usage; record_baseline=$2; shift 2 ;;
  --record-baseline=*) record_baseline=${1#*=}; shift ;;
  -h | --help) usage ;;
  *) echo "$me: unknown argument $1" >&2; usage ;;
  esac
done

[ -n "$work" ] || die "--work DIR is required"
case $host in mpich | openmpi) ;; *) die "unknown host $host (mpich, openmpi)" ;; esac
case $timeout_s in '' | *[!0-9]*) die "--timeout takes whole seconds" ;; esac
if [ -z "$modes" ]; then
  modes=plain
  [ -z "$preload" ] || modes="$modes default pipeline"
  [ -z "$mpich_lib" ] || modes="$modes lib"
  [ "$modes" != plain ] || die "give --preload LIB, --mpich-lib DIR or --modes plain"
fi
modes=${modes//,/ }
testers=${testers//,/ }
needs_preload=0 needs_lib=0
for m in $modes; do
  case $m in
  plain) ;;
  default | pipeline) needs_preload=1 ;;
  lib) needs_lib=1; [ "$host" = mpich ] || die "the lib mode is MPICH's" ;;
  *) die "unknown mode $m (plain, default, pipeline, lib)" ;;
  esac
done
for t in $testers; do
  case $t in
  blacs | blacs-aux | pblas3 | lu | qr | llt) ;;
  *) die "unknown tester $t (blacs, blacs-aux, pblas3, lu, qr, llt)" ;;
  esac
done

# the host's launcher and how it passes a variable to the ranks: added to
# margs, the options of the next run (words of their own, so a value may
# hold blanks)
margs=()
if [ "$host" = mpich ]; then
  mpiexec=(mpiexec.mpich)
  env_opt() { margs+=(-genv "$1" "$2"); }
else
  mpiexec=(mpiexec.openmpi --oversubscribe --mca mpi_yield_when_idle 1)
  env_opt() { margs+=(-x "$1=$2"); }
  if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
fi
command -v "${mpiexec[0]}" >/dev/null 2>&1 || {
  echo "$me: SKIP: ${mpiexec[0]} not found" >&2
  exit 77
}

# where Debian put the testers and their inputs
pkg_file() {
  dpkg -L "$1" 2>/dev/null | grep -m1 -E "$2"
}
tests_dir=${SCALAPACK_TESTS_DIR:-}
if [ -z "$tests_dir" ]; then
  f=$(pkg_file scalapack-mpi-test "/$host-tests/xCbtest\$")
  [ -n "$f" ] && tests_dir=${f%/*}
fi
data_dir=${SCALAPACK_DATA_DIR:-}
if [ -z "$data_dir" ]; then
  f=$(pkg_file scalapack-test-common '/BLACS/bt\.dat$')
  [ -n "$f" ] && data_dir=${f%/BLACS/bt.dat}
fi
if [ -z "$tests_dir" ] || [ ! -x "$tests_dir/xCbtest" ] || [ -z "$data_dir" ] ||
  [ ! -r "$data_dir/LU.dat" ]; then
  echo "$me: SKIP: scalapack-mpi-test and scalapack-test-common are not installed" >&2
  exit 77
fi

mkdir -p "$work" || die "cannot create $work"
work=$(cd "$work" && pwd) || die "cannot enter $work"

# one copy of the interposer for the whole run: the build tree's may be
# relinked while this runs
lib=
if [ "$needs_preload" = 1 ]; then
  [ -n "$preload" ] || die "--preload LIB is required for the preloaded modes"
  [ -r "$preload" ] || die "$preload: not found"
  lib=$work/libdataloop-mpi-preload.so
  if ! cp "$preload" "$lib.tmp" || ! mv -f "$lib.tmp" "$lib"; then
    die "cannot copy $preload"
  fi
fi

# idle ranks yield (unless --spin; Open MPI's by its own setting)
yield=
if [ "$spin" = 0 ] && [ "$host" = mpich ]; then
  yield=$work/libucx_yield.so
  src=$(cd "$(dirname "$0")/.." && pwd)/ucx_yield.c
  ${CC:-cc} -O2 -shared -fPIC -o "$yield" "$src" -ldl -lpthread ||
    die "cannot build $yield from $src"
fi

# one copy of the other MPICH's shared libraries (dereferenced), for the
# same reason; libmpich.so.12's RUNPATH yields to LD_LIBRARY_PATH, so what
# it needs from DIR (libdataloop.so.0) comes from the copy too
mlib=
if [ "$needs_lib" = 1 ]; then
  [ -n "$mpich_lib" ] || die "--mpich-lib DIR is required for the lib mode"
  [ -r "$mpich_lib/libmpich.so.12" ] || die "$mpich_lib: no libmpich.so.12"
  mlib=$work/mpich-lib
  rm -rf "$mlib.tmp" "$mlib"
  mkdir -p "$mlib.tmp" || die "cannot create $mlib.tmp"
  for f in "$mpich_lib"/*.so*; do
    [ -f "$f" ] || continue
    cp -L "$f" "$mlib.tmp/" || die "cannot copy $f"
  done
  mv "$mlib.tmp" "$mlib" || die "cannot create $mlib"
fi

# Rewrite the lines of an input file whose trailing label (the text after
# the values) is one of the given labels: "label<TAB>values" lines on
# stdin. Each label must occur exactly once, or the format has changed.
dat_edit() { # src dst < edits
  local edits
  edits=$(cat)
  printf '%s\n' "$edits" | awk '
    FNR == NR { if ($0 == "") next
                i = index($0, "\t"); n++
                lab[n] = substr($0, 1, i - 1); val[n] = substr($0, i + 1); next }
    { line = $0; sub(/[ \t\r]+$/, "", line)
      for (k = 1; k <= n; k++) {
        l = length(lab[k]); L = length(line)
        if (L > l && substr(line, L - l + 1) == lab[k] &&
            substr(line, L - l, 1) ~ /[ \t]/) {
          print val[k] "\t\t" lab[k]; seen[k]++; next
        }
      }
      print }
    END { for (k = 1; k <= n; k++)
            if (seen[k] != 1) {
              printf "%s: label \"%s\" found %d times\n", FILENAME, lab[k], seen[k] > "/dev/stderr"
              bad = 1
            }
          exit bad }' - "$1" >"$2"
}

bt_flags() { # sdrv bsbr comb aux: the four "Run X?" answers of bt.dat
  printf "Run SDRV?\t'%s'\nRun BSBR?\t'%s'\nRun COMB?\t'%s'\nRun AUX?\t'%s'\n" "$@"
}

# the tester's binary, relative to tests_dir
tester_bin() {
  case $1 in
  blacs | blacs-aux) echo xCbtest ;;
  pblas3) echo PBLAS/dpb3tst ;;
  lu) echo xdlu ;;
  qr) echo xdqr ;;
  llt) echo xdllt ;;
  esac
}

# write the tester's input files into dir
prepare_inputs() { # tester dir
  local t=$1 d=$2 b=$data_dir/BLACS f
  case $t in
  blacs | blacs-aux | check)
    for f in sdrv bsbr comb; do cp "$b/$f.dat" "$d/" || return 1; done
    case $t in
    blacs) bt_flags T T T F | dat_edit "$b/bt.dat" "$d/bt.dat" || return 1 ;;
    blacs-aux) bt_flags F F F T | dat_edit "$b/bt.dat" "$d/bt.dat" || return 1 ;;
    check)
      # the preload check: one precision's broadcasts through a ring
      { bt_flags F T F F
        printf 'Number of precisions\t1\nValues for precision\t%s\n' "'Z'"
      } | dat_edit "$b/bt.dat" "$d/bt.dat" || return 1
      printf '%s\t%s\n' 'Number of scopes' 1 'values for scopes' "'A'" \
        'Number of topologies' 1 'TOP' "'I'" \
        'Number of src/dest pairs' 1 'Number of grids' 1 |
        dat_edit "$b/bsbr.dat" "$d/bsbr.dat" || return 1
      ;;
    esac
    if [ "$t" = blacs ] && [ "$full" = 0 ]; then
      printf '%s\t%s\n' 'Number of topologies' 2 'TOP' "' ' 'T'" \
        'Number of matrices' 2 M '3 25' N '5 19' LDASRC '5 25' \
        LDADEST '9 25' LDI '4 25' 'Number of dests' 2 RDEST '0 -1' \
        CDEST '0 -1' 'Number of grids' 1 NPROW 2 NPCOL 2 |
        dat_edit "$b/comb.dat" "$d/comb.dat" || return 1
    fi
    ;;
  pblas3)
    if [ "$full" = 1 ]; then
      cp "$data_dir/PBLAS/PDBLAS3TST.dat" "$d/" || return 1
    else
      printf '%s\t%s\n' 'number of process grids (ordered pairs of P & Q)' 2 \
        'values of P' '2 1' 'values of Q' '2 4' 'number of tests problems' 2 |
        dat_edit "$data_dir/PBLAS/PDBLAS3TST.dat" "$d/PDBLAS3TST.dat" || return 1
    fi
    ;;
  lu | llt)
    # the two files spell some labels their own way
    local f=LU.dat grids="number of process grids (ordered pairs of P & Q)"
    local nbrhs="Number of NBRHS's"
    if [ "$t" = llt ]; then
      f=LLT.dat grids="number of process grids (ordered pairs P & Q)"
      nbrhs="number of NBRHS's"
    fi
    {
      printf '%s\t%s\n' '(T or F) Test Cond. Est. and Iter. Ref. Routines' F
      if [ "$full" = 0 ]; then
        printf '%s\t%s\n' 'number of problems sizes' 2 "number of NB's" 2 \
          'values of NB' '3 4' "number of NRHS's" 1 'values of NRHS' 9 \
          "$nbrhs" 1 'values of NBRHS' 5 "$grids" 3 \
          'values of P' '2 1 4' 'values of Q' '2 4 1'
        if [ "$t" = lu ]; then
          printf '%s\t%s\n' 'values of M' '17 31' 'values of N' '13 31'
        else
          printf '%s\t%s\n' 'values of N' '17 31'
        fi
      fi
    } | dat_edit "$data_dir/$f" "$d/$f" || return 1
    ;;
  qr)
    if [ "$full" = 1 ]; then
      cp "$data_dir/QR.dat" "$d/" || return 1
    else
      printf '%s\t%s\n' 'number of problems sizes' 2 'values of M' '15 13' \
        'values of N' '10 17' 'number of blocking sizes' 1 \
        'values of MB' 5 'values of NB' 3 \
        'number of process grids (ordered pairs P & Q)' 3 \
        'values of P' '2 1 4' 'values of Q' '2 4 1' |
        dat_edit "$data_dir/QR.dat" "$d/QR.dat" || return 1
    fi
    ;;
  esac
}

# all descendants of a process, by parent pid (hydra's proxy and the ranks
# each start their own session, so a process group does not reach them)
descendants() {
  ps -eo pid=,ppid= | awk -v root="$1" '
    { kids[$2] = kids[$2] " " $1 }
    END { n = split(kids[root], q, " "); i = 1
          while (i <= n) { p = q[i++]; print p
                           m = split(kids[p], c, " ")
                           for (j = 1; j <= m; j++) q[++n] = c[j] } }'
}

kill_tree() { # pid: TERM to mpiexec (it cleans up), then KILL what is left
  local pid=$1 tree p
  tree=$(descendants "$pid")
  kill -TERM "$pid" 2>/dev/null
  for _ in 1 2 3 4 5; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  for p in $tree $pid; do kill -KILL "$p" 2>/dev/null; done
}

watchdog() { # pid seconds flagfile
  local s
  trap 'kill "$s" 2>/dev/null; exit 0' TERM
  sleep "$2" &
  s=$!
  wait "$s" || exit 0
  : >"$3"
  kill_tree "$1"
}

current=
# shellcheck disable=SC2317 # called by the trap
on_signal() {
  [ -n "$current" ] && kill_tree "$current"
  echo "$me: interrupted" >&2
  exit 130
}
trap on_signal INT TERM HUP

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# run mpiexec in dir with a timeout; sets run_rc, run_timed_out, run_wall
run_mpi() { # dir seconds mpiexec-args...
  local d=$1 secs=$2 t0 wd
  shift 2
  rm -f "$d/TIMEOUT"
  t0=$(now)
  (cd "$d" && exec "${mpiexec[@]}" "$@") >"$d/stdout" 2>"$d/stderr" </dev/null &
  current=$!
  watchdog "$current" "$secs" "$d/TIMEOUT" >/dev/null 2>&1 </dev/null &
  wd=$!
  wait "$current"
  run_rc=$?
  kill "$wd" 2>/dev/null
  wait "$wd" 2>/dev/null
  current=
  run_wall=$(elapsed "$t0" "$(now)")
  run_timed_out=0
  [ -e "$d/TIMEOUT" ] && run_timed_out=1
}

mode_args() { # mode: margs anew, the mode's mpiexec options
  margs=(-n 4)
  env_opt GFORTRAN_UNBUFFERED_PRECONNECTED y
  # Hydra passes the whole environment, Open MPI's launcher what -x names
  if [ "$host" = openmpi ] && [ "$1" != plain ]; then
    local v
    for v in $(compgen -e | grep '^DL_'); do env_opt "$v" "${!v}"; done
  fi
  local pre=$yield
  case $1 in
  default | pipeline) pre=$lib${yield:+:$yield} ;;
  esac
  [ -z "$pre" ] || env_opt LD_PRELOAD "$pre"
  case $1 in
  default) env_opt DL_PIPELINE 0 ;;
  lib) env_opt LD_LIBRARY_PATH "$mlib" ;;
  pipeline) env_opt DL_PIPELINE 1; env_opt DL_PIPELINE_CHUNK "$chunk" ;;
  esac
}

# "passed failed skipped complete" from a tester's stdout
parse() { # tester file
  case $1 in
  blacs)
    awk '/TESTS: *[0-9]+ TESTS; *[0-9]+ PASSED, *[0-9]+ SKIPPED, *[0-9]+ FAILED\./ {
           s = substr($0, index($0, "TESTS:") + 6); gsub(/[^0-9]+/, " ", s)
           split(s, a, " "); p += a[2]; k += a[3]; f += a[4]; g++ }
         /TESTS: PASSED ALL *[0-9]+ TESTS\./ {
           s = substr($0, index($0, "ALL") + 3); p += s + 0; g++ }
         /TESTS: .*\*\*\*\*\*/ { f++ }
         /THERE WERE .* FAILURES IN THIS TEST RUN/ { done = 1 }
         END { printf "%d %d %d %d %d\n", p, f, k, done, g }' "$2"
    ;;
  blacs-aux)
    # the repeatable sum test is SKIPPED when the plain sum happened to
    # be repeatable already, PASSED otherwise: timing decides, so only
    # its failure counts
    awk '/REPEATABLE SUM TEST/ && !/FAILED/ { next }
         /^ *PASSED  / { p++ } /^ *FAILED  / { f++ } /^ *SKIPPED / { k++ }
         /DONE BLACS_GRIDEXIT/ { done = 1 }
         END { printf "%d %d %d %d %d\n", p, f, k, done, p + f + k }' "$2"
    ;;
  pblas3)
    awk '/^ *\| +P[A-Z0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ *$/ {
           p += $4; f += $5; k += $6; g++ }
         /Input-only parameter check:.*FAILED/ { f++ }
         /End of Tests\./ { done = 1 }
         END { printf "%d %d %d %d %d\n", p, f, k, done, g }' "$2"
    ;;
  lu | qr | llt)
    awk '/tests completed and passed residual checks/ { p += $1 }
         /tests completed and failed residual checks/ { f += $1 }
         /tests skipped because of illegal input values/ { k += $1 }
         /had an illegal value/ { f++ }
         /END OF TESTS\./ { done = 1 }
         END { printf "%d %d %d %d %d\n", p, f, k, done, 0 }' "$2"
    ;;
  esac
}

# "send recv ranks" summed over a DL_STATS_FILE, or "n/a"
stats() { # file
  if [ -s "$1" ]; then
    awk '/^dataloop-preload / {
           for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] }
           r++ }
         END { printf "%d %d %d\n", v["send"], v["recv"], r }' "$1"
  else
    echo n/a
  fi
}

# the preload check: a tiny run; every rank must report its counts
# (DL_STATS_FILE), and in pipeline mode, streams forced (the host's route
# tables send the check's columns whole), some message must have
# travelled as a stream
check_preload() { # mode
  local m=$1 d ranks streams
  d=$work/$m/check
  rm -rf "$d"
  mkdir -p "$d"
  prepare_inputs check "$d" || return 1
  mode_args "$m"
  [ "$m" != pipeline ] || env_opt DL_STRATEGY pipe
  env_opt DL_STATS_FILE "$d/stats"
  run_mpi "$d" 120 "${margs[@]}" "$tests_dir/xCbtest"
  ranks=$(grep -c '^dataloop-preload ' "$d/stats" 2>/dev/null)
  streams=$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^via_pipeline=/) { split($i, kv, "="); n += kv[2] } }
                 END { print n + 0 }' "$d/stats" 2>/dev/null)
  check_msg="${ranks:-0}/4 ranks active ($m mode)"
  [ "$m" = pipeline ] && check_msg="$check_msg, ${streams:-0} messages sent as streams"
  [ "$ranks" = 4 ] || return 1
  [ "$m" != pipeline ] || [ "${streams:-0}" -gt 0 ] || return 1
  return 0
}

# the lib check: every tester loads the copy's libmpich.so.12 and finds
# every symbol; sets lib_msg (where libmpichfort.so.12 comes from, or
# what is wrong)
check_lib() {
  local t b got fort undef
  lib_msg=
  for t in $testers; do
    b=$tests_dir/$(tester_bin "$t")
    got=$(LD_LIBRARY_PATH=$mlib ldd "$b" 2>/dev/null | awk '$1 == "libmpich.so.12" { print $3 }')
    if [ "$got" != "$mlib/libmpich.so.12" ]; then
      lib_msg="$t loads libmpich.so.12 from '$got', not $mlib"
      return 1
    fi
    fort=$(LD_LIBRARY_PATH=$mlib ldd "$b" 2>/dev/null | awk '$1 == "libmpichfort.so.12" { print $3 }')
    undef=$(LD_LIBRARY_PATH=$mlib ldd -r "$b" 2>&1 | awk '/^undefined symbol:/ { print $3 }' | sort -u | tr '\n' ' ')
    if [ -n "$undef" ]; then
      lib_msg="$t: undefined with $mpich_lib (an MPICH configured without Fortran?): $undef"
      return 1
    fi
    lib_msg="$lib_msg${lib_msg:+; }$t: libmpich.so.12 of the copy${fort:+, libmpichfort.so.12 $fort}"
  done
  return 0
}

# what a failing run said: its failure lines, then the end of its stderr
excerpt() { # dir
  {
    grep -m 15 -E 'FAIL|ERROR|illegal value|REPORTS ERRORS' "$1/stdout" | grep -v ' 0 FAILED\.'
    grep -v '^\[dataloop-preload' "$1/stderr" | grep -v -E "BLACS WARNING .No need to set message ID range|^from \{-1,-1\}|^Note: The following floating-point exceptions|^$" | tail -n 8
  } | sed 's/^/    | /' | tee -a "$report"
}

declare -A res wall ds plain_wall base_res base_wall
status=0
report=$work/summary.txt
: >"$report"
say() { printf '%s\n' "$*" | tee -a "$report"; }

# what a baseline must match: the packages, and each tester's inputs
mpi_pkg=libmpich12
[ "$host" = mpich ] || mpi_pkg=libopenmpi3
versions="scalapack-mpi-test $(dpkg-query -W -f='${Version}' scalapack-mpi-test 2>/dev/null), ${host} $(dpkg-query -W -f='${Version}' $mpi_pkg 2>/dev/null)"
inputs_digest() { # tester
  local d
  d=$(mktemp -d "$work/inputs.XXXXXX") || return 1
  prepare_inputs "$1" "$d" || { rm -rf "$d"; return 1; }
  (cd "$d" && cat $(ls) | md5sum | cut -c1-16)
  rm -rf "$d"
}
case " $modes " in *" plain "*) has_plain=1 ;; *) has_plain=0 ;; esac
[ -z "$record_baseline" ] || [ $has_plain = 1 ] || die "--record-baseline needs the plain mode"
[ -z "$baseline" ] || [ -z "$record_baseline" ] || die "--baseline and --record-baseline exclude each other"
use_baseline=0
if [ -n "$baseline" ]; then
  [ $has_plain = 1 ] || die "--baseline stands for the plain mode: give plain among the modes"
  [ -r "$baseline" ] || die "$baseline: not found"
  bver=$(sed -n 's/^# versions: //p' "$baseline" | head -n 1)
  if [ "$bver" != "$versions" ]; then
    say "plain: the baseline $baseline is of $bver; installed: $versions: the plain mode runs"
  else
    use_baseline=1
    for t in $testers; do
      dg=$(inputs_digest "$t")
      line=$(awk -v t="$t" -v dg="$dg" '$1 == t && $2 == dg' "$baseline")
      if [ -z "$line" ]; then
        say "plain: the baseline $baseline has no run of $t with these inputs: the plain mode runs"
        use_baseline=0
        break
      fi
      read -r _ _ bp bf bk bfin bg bw <<<"$line"
      base_res[$t]="$bp $bf $bk $bfin $bg"
      base_wall[$t]=$bw
    done
  fi
fi

say "ScaLAPACK testers ($host): $tests_dir (inputs $data_dir)$([ "$full" = 1 ] && echo ', full inputs')"
[ -n "$lib" ] && say "interposer: $preload ($(sha256sum <"$lib" | cut -c1-12)), pipeline chunk $chunk"
[ -n "$mlib" ] && say "lib: the shared libraries of $mpich_lib (copied to $mlib)"
t_all=$(now)
for m in $modes; do
  t_mode=$(now)
  if [ "$m" = lib ]; then
    if check_lib; then
      say "[$m] lib check: $lib_msg"
    else
      say "[$m] FAIL: lib check: $lib_msg"
      status=1
    fi
  elif [ "$m" != plain ]; then
    if check_preload "$m"; then
      say "[$m] preload check: $check_msg"
    else
      say "[$m] FAIL: preload check: $check_msg (see $work/$m/check)"
      status=1
    fi
  fi
  for t in $testers; do
    if [ "$m" = plain ] && [ $use_baseline = 1 ]; then
      res[$m.$t]=${base_res[$t]}
      wall[$m.$t]=${base_wall[$t]}
      plain_wall[$t]=${base_wall[$t]}
      read -r p f k fin _ <<<"${res[$m.$t]}"
      say "[$m] $t: $p passed, $f failed, $k skipped, ${base_wall[$t]}s (the baseline)"
      continue
    fi
    d=$work/$m/$t
    rm -rf "$d"
    mkdir -p "$d"
    if ! prepare_inputs "$t" "$d"; then
      say "[$m] $t: FAIL: cannot prepare the input files"
      status=1
      continue
    fi
    secs=$timeout_s
    if [ "$m" != plain ] && [ -n "${plain_wall[$t]:-}" ]; then
      # a run may be slower preloaded, but not without bound
      secs=$(awk -v p="${plain_wall[$t]}" -v c="$timeout_s" 'BEGIN { s = int(3 * p + 60); print (s < c ? s : c) }')
    fi
    mode_args "$m"
    env_opt DL_TRACE 0
    env_opt DL_STATS_FILE "$d/stats"
    run_mpi "$d" "$secs" "${margs[@]}" "$tests_dir/$(tester_bin "$t")"
    [ "$m" = plain ] && plain_wall[$t]=$run_wall
    read -r p f k fin groups <<<"$(parse "$t" "$d/stdout")"
    [ "$run_timed_out" = 1 ] && fin=0
    res[$m.$t]="$p $f $k $fin $groups"
    wall[$m.$t]=$run_wall
    ds[$m.$t]=$(stats "$d/stats")
    note=
    [ "$run_timed_out" = 1 ] && note=" TIMED OUT after ${secs}s"
    [ "$fin" = 1 ] || note="$note INCOMPLETE (exit $run_rc; see $d)"
    say "[$m] $t: $p passed, $f failed, $k skipped, ${run_wall}s, exit $run_rc$note"
    # another result than the baseline's: plainly again, the reference
    # when it disagrees with the baseline too
    if [ "$m" != plain ] && [ $use_baseline = 1 ] && [ "${res[$m.$t]}" != "${res[plain.$t]}" ]; then
      d=$work/plain/$t
      rm -rf "$d"
      mkdir -p "$d"
      prepare_inputs "$t" "$d" || { say "[plain] $t: FAIL: cannot prepare the input files"; status=1; continue; }
      mode_args plain
      run_mpi "$d" "$timeout_s" "${margs[@]}" "$tests_dir/$(tester_bin "$t")"
      read -r p f k fin groups <<<"$(parse "$t" "$d/stdout")"
      [ "$run_timed_out" = 1 ] && fin=0
      say "[plain] $t again: $p passed, $f failed, $k skipped, ${run_wall}s, exit $run_rc"
      if [ "$p $f $k $fin $groups" != "${res[plain.$t]}" ]; then
        say "[plain] $t: the baseline is stale (${res[plain.$t]}): this run is the reference"
        res[plain.$t]="$p $f $k $fin $groups"
        wall[plain.$t]=$run_wall
      fi
    fi
  done
  say "[$m] wall time $(elapsed "$t_mode" "$(now)")s"
done
total=$(elapsed "$t_all" "$(now)")

# the plain counts as a baseline: tester, inputs digest, passed failed
# skipped completed groups, wall seconds
if [ -n "$record_baseline" ]; then
  {
    echo "# The plain runs' counts of Debian's ScaLAPACK testers, for"
    echo "# test/scalapack/run.sh --baseline (the test command runs the other modes"
    echo "# against it). Recorded $(date -u +%Y-%m-%d) on $(nproc) cores by:"
    echo "#   bash test/scalapack/run.sh --host $host --modes plain --work DIR --record-baseline FILE$([ "$full" = 1 ] && echo ' --full')"
    echo "# versions: $versions"
    echo "# tester inputs-digest passed failed skipped completed groups seconds"
    for t in $testers; do
      echo "$t $(inputs_digest "$t") ${res[plain.$t]} ${wall[plain.$t]}"
    done
  } >"$record_baseline.tmp" && mv "$record_baseline.tmp" "$record_baseline"
  say "baseline recorded: $record_baseline"
fi

# judge: plain is the reference; without plain, no failures
say ""
for t in $testers; do
  for m in $modes; do
    read -r p f k fin groups <<<"${res[$m.$t]:-0 0 0 0 0}"
    if [ "$fin" != 1 ]; then
      say "FAIL: $t, $m: the run did not complete ($work/$m/$t)"
      excerpt "$work/$m/$t"
      status=1
    elif [ "$m" = plain ]; then
      if [ "$f" != 0 ]; then
        say "WARNING: $t fails $f tests without the interposer ($work/$m/$t)"
        excerpt "$work/$m/$t"
      fi
    elif [ -n "${res[plain.$t]:-}" ]; then
      if [ "${res[$m.$t]}" != "${res[plain.$t]}" ]; then
        read -r pp pf pk _ pg <<<"${res[plain.$t]}"
        say "FAIL: $t, $m: $p passed $f failed $k skipped ($groups groups), plain: $pp passed $pf failed $pk skipped ($pg groups) ($work/$m/$t)"
        excerpt "$work/$m/$t"
        status=1
      fi
    elif [ "$f" != 0 ]; then
      say "FAIL: $t, $m: $f failures ($work/$m/$t)"
      excerpt "$work/$m/$t"
      status=1
    fi
  done
done

say ""
say "$(printf '%-10s %-9s %7s %6s %7s %8s  %s' tester mode passed failed skipped wall 'derived messages interposed (send/recv, ranks reporting)')"
for t in $testers; do
  for m in $modes; do
    read -r p f k fin _ <<<"${res[$m.$t]:-0 0 0 0 0}"
    s=${ds[$m.$t]:-n/a}
    if [ "$m" = plain ] || [ "$m" = lib ]; then
      s=-
    elif [ "$s" != n/a ]; then
      read -r sn rv rk <<<"$s"
      s="send $sn, recv $rv ($rk/4 ranks)"
    else
      s="not available (no DL_STATS_FILE lines)"
    fi
    [ "$fin" = 1 ] || s="$s INCOMPLETE"
    say "$(printf '%-10s %-9s %7s %6s %7s %7ss  %s' "$t" "$m" "$p" "$f" "$k" "${wall[$m.$t]:-?}" "$s")"
  done
done
say ""
say "total wall time ${total}s; outputs in $work"
if [ "$status" = 0 ]; then
  say "PASS"
else
  say "FAIL"
fi
exit "$status"
