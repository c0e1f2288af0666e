#!/bin/bash
# MPICH's own conformance tests of derived datatypes, plainly, under the
# interposer and on another MPICH library (one built with dataloop as its
# datatype engine: doc/mpich.md); or on Open MPI, plainly and under the
# interposer built for it.
#
#   test/mpich-suite/run.sh [--host mpich|openmpi]
#       [--preload .libs/libdataloop-mpi-preload.so]
#       [--mpich-lib DIR] [--work DIR] [--modes plain,default,pipeline,lib]
#       [--suites datatype,pt2pt,coll,rma,io] [--only REGEX]
#       [--dtp-divisor N] [--dtp-coll-divisor N] [--dtp-rma-divisor N]
#       [--dtp-max-count N] [--dtp-types LIST] [--list]
#       [--baseline FILE] [--record-baseline FILE] [--pipeline-all] [--coll-all]
#       [--served FILE] [--record-served FILE] [--spin]
#
# Fetches MPICH's source with Debian's source package (fetch.sh; cached in
# the work directory), writes the headers its configure would have made
# (conf.sh), builds the selected test programs of test/mpi/{datatype,pt2pt,
# coll,rma,io} against the installed MPICH with mpicc.mpich (sources and -D
# flags from each program's _SOURCES and _CPPFLAGS in its directory's
# Makefile.am), and runs each selected testlist line (process count, arg=,
# env=, timeLimit= as there) in each mode, one after the other:
#
#   plain     no preload
#   default   mpiexec.mpich -genv LD_PRELOAD LIB
#   pipeline  mpiexec.mpich -genv LD_PRELOAD LIB -genv DL_PIPELINE 1
#   lib       mpiexec.mpich -genv LD_LIBRARY_PATH DIR: the same programs
#             (linked with Debian's libmpich.so.12) on the libmpich.so.12
#             of DIR, an MPICH of the same ABI
#
# Without --modes: plain, then default and pipeline if --preload is given,
# then lib if --mpich-lib is given.
#
# --host openmpi: the same programs built with mpicc.openmpi and run with
# mpiexec.openmpi --oversubscribe (as root with OMPI_ALLOW_RUN_AS_ROOT),
# each variable passed by -x, LIB being the interposer built for Open MPI
# (libdataloop-mpi-preload-openmpi.so); idle ranks yield by Open MPI's own
# setting (mpi_yield_when_idle 1), so test/ucx_yield.c is not preloaded;
# no lib mode. Its files go to WORK/openmpi/ (the fetched source in
# WORK/src is shared), and a baseline names Open MPI's version.
#
# --baseline FILE: the plain mode's verdicts (and times) are read from
# FILE, a recorded plain run (--record-baseline), instead of being run:
# they depend only on MPICH and the programs. FILE must name the installed
# MPICH's version (else the plain mode runs as usual, and the report says
# why) and hold every selected line with the same command (else the run
# fails: the selection changed, record the baseline again). A line that
# the baseline says passes and that fails in another mode is run plainly
# once more: if it fails plainly too, MPICH failed here this time and the
# line is listed, not counted; otherwise the failure is dataloop's.
# --record-baseline FILE writes FILE from this run's plain results (the
# plain mode must be among the modes).
#
# The pipeline mode differs from the default mode only for messages of a
# pipeline chunk or more (doc/mpi.md): each default run counts them on
# every rank (DL_STATS_FILE, long=), and the pipeline mode runs only the
# lines whose default run passed and counted one, or did not say (a rank
# wrote no count); the others are reported as passing, the same run as
# the default one. --pipeline-all runs every line in the pipeline mode.
#
# --served FILE: the lines whose recorded default run (--record-served,
# from every rank's DL_STATS_FILE) had the interposer serve no operation
# (no pack, unpack, send, receive, one-sided or collective operation of a
# derived type: the program moves predefined types only, through calls
# the interposer hands to MPICH unchanged) are not run preloaded, default
# or pipeline, and are reported with their plain verdict, "not run: its
# recorded default run served nothing". A line not in FILE, or there with another
# command, runs. The interposer's pass-through of every call is the
# semantics suite's (test/semantics.sh); record FILE again when the
# interposer takes over more calls. --record-served FILE writes FILE from
# this run's default runs (the default mode must be among the modes).
#
# The coll lines run preloaded (default and pipeline) only when the
# interposer intercepts a collective (its library exports one): until then
# MPICH's collectives move their data by MPICH's internal calls, which no
# interposer sees, and a preloaded coll run tests MPICH against itself, as
# the io suite would (every rank of every such run counted no interposed
# operation). They are reported as passing, "not run: the interposer
# intercepts no collective"; --coll-all runs them. LIB, and the shared libraries of DIR
# (*.so*, dereferenced: libmpich.so.12 and what it needs from there, such
# as libdataloop.so.0, which its RUNPATH would find in DIR), are copied
# into the work directory first, so that a rebuild of the project or of
# that MPICH while this runs changes nothing half way. Before the runs, a
# built program must resolve libmpich.so.12 into that copy under its
# LD_LIBRARY_PATH and to another file without it (ldd; the report names
# both, and the dynamic symbols of the plain one that DIR's lacks: an MPICH
# configured without Fortran or C++ lacks some, and does not know those
# languages' predefined types, whose handles the programs have from
# Debian's mpi.h: datatype/typename fails there). --only REGEX keeps the lines whose id (suite/prog.N) or
# suite/prog matches; --list only prints the selection.
#
# A run passes as under MPICH's runtests: exit status 0, and the output
# (stdout and stderr) is one " No Errors" line and otherwise only "Test
# Passed" lines. Time limits: a plain run has its testlist timeLimit
# (default 180 s, as runtests); a run in another mode of a line that passed
# plainly in P seconds has 60 + 10 P seconds, at most that timeLimit, so a
# hang costs a minute; one that times out so runs once more with the
# timeLimit (two busy-polling ranks on a loaded 2-core machine can take
# longer than a minute), and a hang fails twice. Hydra kills a run at its limit (MPIEXEC_TIMEOUT); if
# that fails, timeout(1) kills mpiexec 20 s later, and the processes that
# carry the run's marker in their environment are killed (Hydra puts every
# proxy and rank in a session of its own). An io run starts in an empty
# folder of its own (WORK/scratch/MODE/ID: the programs write their files
# into the current folder), removed when the run passes.
#
# Selection (rules applied to the unpacked source, so that it follows the
# source; the result is WORK/selection.txt). --suites picks the suites;
# without it: datatype, pt2pt, coll and rma, and io too when the lib mode
# is among the modes (the interposer leaves MPI-IO to MPICH, so under
# preload the io suite would test MPICH against itself):
#   datatype  every line of testlist.in except the @largetest@ ones (they
#             need up to 17 GiB and long runs; MPICH runs them only when
#             configured with --enable-large-tests)
#   pt2pt     the testlist.in lines of the programs whose source calls a
#             derived-datatype constructor (MPI_Type_contiguous, _vector,
#             _create_hvector, _indexed, _create_hindexed,
#             _create_indexed_block, _create_hindexed_block, _create_struct,
#             _create_resized, _create_subarray, _create_darray, _dup, and
#             the MPI-1 names) or includes dtpools.h; plus the DTPools
#             programs' lines as MPICH's maint/gentests_dtp.sh generates
#             them into testlist.dtp from maint/dtp-test-config.txt, with
#             configure's default type list MPI_INT,MPI_INT:4+MPI_DOUBLE:8
#             and the same seeds
#   coll      the same rule (coll/bcast and bcast_comm_world_only are the
#             DTPools ones there)
#   rma       the same rule; 15 DTPools programs (accfence1, accpscw1,
#             epochtest, getfence1, putfence1, putpscw1, lock_dt*,
#             lockall_dt*, lock_contention_dt), 184 lines, most on 4 ranks
#   io        every line of testlist.in (MPI-IO: file views of derived
#             types go through ROMIO's flattening, which the dataloop MPICH
#             replaces; the MPIX i_* programs included, as MPICH builds
#             them by default; bigtype and i_bigtype need 6.5 GiB)
# The DTPools lines of pt2pt are MPICH's. Those of coll and rma try 1/16
# of their pool types (-testsize divided by --dtp-coll-divisor and
# --dtp-rma-divisor, at least 1; the count-1 lines of rma try 64 of their
# 1024): most of an rma line's time is starting 4 ranks and their windows,
# whatever the number of types, but the whole pools take several times as
# long (doc/reliability.md). --dtp-divisor N does the same to pt2pt's.
# --dtp-max-count N leaves out the DTPools lines of a count (pt2pt: send
# count) above N, --dtp-types LIST those of a type not in LIST (of
# configure's MPI_INT and MPI_INT:4+MPI_DOUBLE:8); the others keep
# MPICH's seeds. Lines MPICH marks xfail= are
# run and reported, not counted. Skipped and listed: lines needing more
# memory than the machine has (mem=, as runtests).
#
# Idle ranks yield their core: every run, in every mode, preloads
# test/ucx_yield.c (built into WORK/build/lib), which makes a rank whose
# UCX progress calls keep finding nothing to do call sched_yield. Debian's
# MPICH 4.0.2 is ch4:ucx, whose waits spin and never yield whatever its
# settings (MPIR_CVAR_POLLS_BEFORE_YIELD is read by ch3:nemesis alone):
# with more ranks than cores a waiting rank burns the time slices of the
# rank it waits for, and 4-rank lines take many times as long
# (doc/reliability.md has the figures). Only scheduling changes: MPICH's
# calls do what they do. --spin leaves the ranks
# spinning, as MPICH runs them.
#
# Exit status: 0 only if every counted run that passes plainly passes in
# every other mode (without the plain mode: every run passes), every
# selected program built (or the baseline records each line of it as not
# building: Open MPI lacks calls that some need) and some run passed
# plainly; 1 otherwise, and on any failure to fetch, configure or build
# (never a skip). Lines that fail
# plainly and pass in another mode are listed, not counted.
#
# Everything generated goes to WORK (default ./mpich-suite-work): src/ (the
# unpacked source and apt's private state: the cache), build/ (headers,
# libraries, programs; remade only when out of date), preload/ (the copy of
# LIB), mpich-lib/ (the copy of DIR's shared libraries), scratch/ (the io
# runs' folders), out/MODE/SUITE/ (each run's output and command),
# results.txt, report.txt.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=./mpich-suite-work
host=mpich
preload=""
mpich_lib=""
modes=""
suites=""
only=""
list_only=0
dtp_divisor=1
dtp_coll_divisor=16
dtp_rma_divisor=16
dtp_max_count=""
dtp_types="MPI_INT,MPI_INT:4+MPI_DOUBLE:8"
baseline=""
record_baseline=""
served_file=""
record_served=""
pipeline_all=0
coll_all=0
spin=0
default_time=180
# a preloaded run of a line that passed plainly in P seconds gets
# slack + factor * P seconds (at most its time limit): a hang costs a
# minute, not three
slack=60
factor=10

die() {
  echo "run.sh: error: $*" >&2
  exit 1
}
usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
  exit "${1:-2}"
}

while [ $# -gt 0 ]; do
  case $1 in
  --host) host=${2:?}; shift 2 ;;
  --host=*) host=${1#*=}; shift ;;
  --preload) preload=${2:?}; shift 2 ;;
  --preload=*) preload=${1#*=}; shift ;;
  --mpich-lib) mpich_lib=${2:?}; shift 2 ;;
  --mpich-lib=*) mpich_lib=${1#*=}; shift ;;
  --suites) suites=${2:?}; shift 2 ;;
  --suites=*) suites=${1#*=}; shift ;;
  --work) work=${2:?}; shift 2 ;;
  --work=*) work=${1#*=}; shift ;;
  --modes) modes=${2:?}; shift 2 ;;
  --modes=*) modes=${1#*=}; shift ;;
  --only) only=${2:?}; shift 2 ;;
  --only=*) only=${1#*=}; shift ;;
  --dtp-divisor) dtp_divisor=${2:?}; shift 2 ;;
  --dtp-divisor=*) dtp_divisor=${1#*=}; shift ;;
  --dtp-coll-divisor) dtp_coll_divisor=${2:?}; shift 2 ;;
  --dtp-coll-divisor=*) dtp_coll_divisor=${1#*=}; shift ;;
  --dtp-rma-divisor) dtp_rma_divisor=${2:?}; shift 2 ;;
  --dtp-rma-divisor=*) dtp_rma_divisor=${1#*=}; shift ;;
  --dtp-max-count) dtp_max_count=${2:?}; shift 2 ;;
  --dtp-max-count=*) dtp_max_count=${1#*=}; shift ;;
  --dtp-types) dtp_types=${2:?}; shift 2 ;;
  --dtp-types=*) dtp_types=${1#*=}; shift ;;
  --list) list_only=1; shift ;;
  --baseline) baseline=${2:?}; shift 2 ;;
  --baseline=*) baseline=${1#*=}; shift ;;
  --record-baseline) record_baseline=${2:?}; shift 2 ;;
  --record-baseline=*) record_baseline=${1#*=}; shift ;;
  --served) served_file=${2:?}; shift 2 ;;
  --served=*) served_file=${1#*=}; shift ;;
  --record-served) record_served=${2:?}; shift 2 ;;
  --record-served=*) record_served=${1#*=}; shift ;;
  --pipeline-all) pipeline_all=1; shift ;;
  --coll-all) coll_all=1; shift ;;
  --spin) spin=1; shift ;;
  -h | --help) usage 0 ;;
  *) echo "run.sh: unknown argument $1" >&2; usage 2 ;;
  esac
done

# the host's compiler and launcher, and how the launcher passes a variable
# to the ranks
case $host in
mpich)
  mpiexec=("${MPIEXEC:-mpiexec.mpich}")
  export MPICC=${MPICC:-mpicc.mpich}
  env_opt() { cmd+=(-genv "$1" "$2"); }
  ;;
openmpi)
  mpiexec=("${MPIEXEC:-mpiexec.openmpi}" --oversubscribe --mca mpi_yield_when_idle 1)
  export MPICC=${MPICC:-mpicc.openmpi}
  env_opt() { cmd+=(-x "$1=$2"); }
  if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  [ -z "$mpich_lib" ] || die "--mpich-lib is MPICH's (--host mpich)"
  ;;
*) die "unknown host '$host' (mpich, openmpi)" ;;
esac
for d in "$dtp_divisor" "$dtp_coll_divisor" "$dtp_rma_divisor"; do
  case $d in '' | *[!0-9]* | 0) die "a DTPools divisor must be a positive integer" ;; esac
done
case $dtp_max_count in *[!0-9]*) die "--dtp-max-count takes a count" ;; esac
IFS=, read -r -a dtp_type_list <<<"$dtp_types"
for d in "${dtp_type_list[@]}"; do
  case $d in MPI_INT | MPI_INT:4+MPI_DOUBLE:8) ;; *) die "unknown DTPools type '$d' (MPI_INT, MPI_INT:4+MPI_DOUBLE:8)" ;; esac
done
if [ -z "$modes" ]; then
  modes=plain
  [ -z "$preload" ] || modes=$modes,default,pipeline
  [ -z "$mpich_lib" ] || modes=$modes,lib
  [ "$modes" != plain ] || [ $list_only = 1 ] ||
    die "give --preload LIB, --mpich-lib DIR or --modes plain"
fi
IFS=, read -r -a mode_list <<<"$modes"
[ ${#mode_list[@]} -gt 0 ] || die "no mode given"
has_plain=0 has_lib=0 has_default=0
for m in "${mode_list[@]}"; do
  case $m in
  plain) has_plain=1 ;;
  default) has_default=1; [ -n "$preload" ] || [ $list_only = 1 ] || die "mode $m needs --preload LIB" ;;
  pipeline) [ -n "$preload" ] || [ $list_only = 1 ] || die "mode $m needs --preload LIB" ;;
  lib) has_lib=1; [ "$host" = mpich ] || die "the lib mode is MPICH's"
    [ -n "$mpich_lib" ] || [ $list_only = 1 ] || die "mode lib needs --mpich-lib DIR" ;;
  *) die "unknown mode '$m' (plain, default, pipeline, lib)" ;;
  esac
done
if [ -z "$suites" ]; then
  suites=datatype,pt2pt,coll,rma
  [ $has_lib = 0 ] || suites=$suites,io
fi
IFS=, read -r -a suite_list <<<"$suites"
[ ${#suite_list[@]} -gt 0 ] || die "no suite given"
for s in "${suite_list[@]}"; do
  case $s in
  datatype | pt2pt | coll | rma | io) ;;
  *) die "unknown suite '$s' (datatype, pt2pt, coll, rma, io)" ;;
  esac
done
command -v "$MPICC" >/dev/null 2>&1 || die "$MPICC not found"
command -v "${mpiexec[0]}" >/dev/null 2>&1 || die "${mpiexec[0]} not found"
mkdir -p "$work"
work=$(cd "$work" && pwd)
case $work in *[[:space:]]*) die "the work directory's path must not contain blanks: $work" ;; esac
srcwork=$work/src
[ "$host" = mpich ] || { work=$work/$host; mkdir -p "$work"; }

t_start=$(date +%s)
phase() { echo "== $(date -u +%H:%M:%S) $*"; }

# ---------------------------------------------------------------- fetch
phase "fetch"
src=$("$here/fetch.sh" "$srcwork" | tail -n 1)
[ -d "$src/test/mpi" ] || die "fetch.sh gave no source tree"
T=$src/test/mpi

# ---------------------------------------------------------------- select
# A program's sources and extra flags, from its directory's Makefile.am
# ("prog_SOURCES = a.c", "prog_CPPFLAGS = -DX $(AM_CPPFLAGS)", "prog_LDADD =
# $(LDADD) $(LDADDDATA) -lm"); without them, prog.c.
am_var() { # dir prog var
  awk -v key="$2_$3" '
    { line = $0
      while (line ~ /\\$/ && (getline nxt) > 0) { sub(/\\$/, " ", line); line = line nxt } }
    line ~ "^" key "[ \t]*=" { sub(/^[^=]*=[ \t]*/, "", line); print line; exit }
  ' "$T/$1/Makefile.am"
}
prog_sources() {
  local s
  s=$(am_var "$1" "$2" SOURCES)
  echo "${s:-$2.c}"
}
# shellcheck disable=SC2016  # make's $(AM_CPPFLAGS), literally
prog_cppflags() {
  am_var "$1" "$2" CPPFLAGS | sed -e 's/\$(AM_CPPFLAGS)//g' -e 's/^ *//' -e 's/ *$//'
}
# shellcheck disable=SC2016  # make's $(LDADDDATA), literally
prog_libs() { # libdtypes for $(LDADDDATA), and -l flags
  local l w out=""
  l=$(am_var "$1" "$2" LDADD)
  case $l in *'$(LDADDDATA)'*) out="dtypes" ;; esac
  for w in $l; do
    case $w in -l*) out="$out $w" ;; esac
  done
  echo "$out"
}
# the rule for pt2pt and coll
ctor_re='MPI_Type_(contiguous|vector|hvector|create_hvector|indexed|hindexed|create_hindexed|create_indexed_block|create_hindexed_block|struct|create_struct|create_resized|create_subarray|create_darray|dup)[[:space:]]*\(|#[[:space:]]*include[[:space:]]*"dtpools.h"'
uses_derived() { # dir prog
  local f
  for f in $(prog_sources "$1" "$2"); do
    [ -f "$T/$1/$f" ] || return 1
    grep -Eq "$ctor_re" "$T/$1/$f" && return 0
  done
  return 1
}

mem_total=$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)

# a directory's testlist.in lines; @largetest@ lines (configure makes them
# comments unless --enable-large-tests) are kept as "#largetest# ..."
testlist_in() { # dir
  sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/^@largetest@/#largetest# /' \
    "$T/$1/testlist.in" | grep -v '^[[:space:]]*$' || true
}
# maint/gentests_dtp.sh for one directory: the seed counts over every line
# of dtp-test-config.txt, as there; -testsize trimmed by the divisor
# (dtp-testsize= keeps MPICH's value for the report)
testlist_dtp() { # dir
  local types="MPI_INT,MPI_INT:4+MPI_DOUBLE:8"
  local div=$dtp_divisor
  case $1 in
  coll) div=$dtp_coll_divisor ;;
  rma) div=$dtp_rma_divisor ;;
  esac
  awk -F: -v want="$1" -v types="$types" -v div="$div" -v maxc="$dtp_max_count" \
    -v keep=",$dtp_types," '
    /^#/ || NF < 6 { next }
    {
      path = $1; args = $2; counts = $3; limit = $4; procs = $5
      mints = $6; maxts = $7
      if (maxts == "") maxts = mints
      n = split(path, pp, "/"); dir = pp[1]; name = pp[n]
      other = ""
      na = split(args, aa, " ")
      for (i = 1; i <= na; i++) other = other " arg=" aa[i]
      nt = split(types, tt, ",")
      nc = split(counts, cc, " ")
      for (t = 1; t <= nt; t++) {
        ts = 0; cnt = 0
        for (c = 1; c <= nc; c++) {
          sc = cc[c]
          if (ts == 0) { ts = maxts; cnt = sc }
          else {
            ts = int(ts * cnt / sc)
            if (ts < mints) ts = mints
            if (ts > maxts) ts = maxts
          }
          tts = int(ts / div); if (tts < 1) tts = 1
          trim = (tts != ts) ? " dtp-testsize=" ts : ""
          if (dir == "pt2pt" || dir == "part") {
            for (r = 1; r <= 2; r++) {
              rc = (r == 1) ? sc : sc * 2
              seed++
              if (dir == want && (maxc == "" || sc + 0 <= maxc + 0) && index(keep, "," tt[t] ","))
                print name " " procs " arg=-type=" tt[t] " arg=-sendcnt=" sc \
                  " arg=-recvcnt=" rc " arg=-seed=" seed " arg=-testsize=" tts other \
                  " " limit trim
            }
          } else {
            seed++
            if (dir == want && (maxc == "" || sc + 0 <= maxc + 0) && index(keep, "," tt[t] ","))
              print name " " procs " arg=-type=" tt[t] " arg=-count=" sc \
                " arg=-seed=" seed " arg=-testsize=" tts other " " limit trim
          }
        }
      }
    }' "$T/maint/dtp-test-config.txt"
}

# Lines that cannot run here, and why: more memory than this machine has
# (runtests' own rule for mem=)
skip_reason() { # suite prog np mem
  if [ -n "$4" ] && awk -v m="$4" -v t="$mem_total" 'BEGIN { exit !(m > t) }'; then
    echo "needs $4 GiB, this machine has $mem_total"
  fi
}

# one line per testlist line:
# suite|prog|np|timeLimit|mem|xfail|env|args|mpiexecargs|skip|from|note
select_runs() {
  local suite kind line prog np rest large w args envs mpiargs limit mem xfail unsup note skip
  for suite in "${suite_list[@]}"; do
    {
      testlist_in "$suite" | sed 's/^/testlist /'
      testlist_dtp "$suite" | sed 's/^/testlist.dtp /'
    } | while read -r kind line; do
      large=0
      case $line in
      '#largetest# '*) large=1; line=${line#'#largetest# '} ;;
      esac
      read -r prog np rest <<<"$line"
      np=${np:-2}
      case $np in *=*) rest="$np $rest"; np=2 ;; esac
      # datatype and io: every line
      case $suite/$kind in
      pt2pt/testlist | coll/testlist | rma/testlist) uses_derived "$suite" "$prog" || continue ;;
      esac
      args="" envs="" mpiargs="" limit="" mem="" xfail="" unsup="" note=""
      for w in $rest; do
        case $w in
        arg=*) args="$args ${w#arg=}" ;;
        env=*) envs="$envs ${w#env=}" ;;
        mpiexecarg=*) mpiargs="$mpiargs ${w#mpiexecarg=}" ;;
        timeLimit=*) limit=${w#timeLimit=} ;;
        mem=*) mem=${w#mem=} ;;
        xfail=*) xfail="$xfail ${w#xfail=}" ;;
        dtp-testsize=*) note="testsize ${w#dtp-testsize=} in MPICH's testlist.dtp" ;;
        resultTest=* | init=*) unsup="$w" ;;
        # strict=: this is not a strict-MPI run; mpix=: MPICH has MPIX;
        # lock=: runs are sequential anyway; words without "=" are ignored
        # by runtests too
        *) ;;
        esac
      done
      args=${args# } envs=${envs# } mpiargs=${mpiargs# } xfail=${xfail# }
      skip=""
      if [ $large = 1 ]; then
        skip="@largetest@ (MPICH runs it only with --enable-large-tests)"
      elif [ -n "$unsup" ]; then
        skip="$unsup needs a special result check of runtests"
      else
        skip=$(skip_reason "$suite" "$prog" "$np" "$mem")
      fi
      printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$suite" "$prog" "$np" \
        "${limit:-$default_time}" "$mem" "$xfail" "$envs" "$args" "$mpiargs" \
        "$skip" "$kind" "$note"
    done
  done
}

phase "select"
select_runs >"$work/runs.all"
# run ids: suite/prog.N, N counting that program's lines
awk -F'|' -v OFS='|' '{ k = $1 "/" $2; n[k]++; print k "." n[k], $0 }' "$work/runs.all" >"$work/runs.id"
rm -f "$work/runs.all"
if [ -n "$only" ]; then
  awk -F'|' -v re="$only" '$1 ~ re || ($2 "/" $3) ~ re' "$work/runs.id" >"$work/runs.txt"
else
  cp "$work/runs.id" "$work/runs.txt"
fi
rm -f "$work/runs.id"
[ -s "$work/runs.txt" ] || die "no run selected${only:+ by --only $only}"
# the programs to build: those with a line that is not skipped
awk -F'|' '$11 == "" { print $2 "|" $3 }' "$work/runs.txt" | sort -u >"$work/programs.txt"
{
  echo "# run id | np | timeLimit | mem | xfail | env | args | mpiexec args | skipped because | from | note"
  awk -F'|' -v OFS=' | ' '{ print $1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' "$work/runs.txt"
} >"$work/selection.txt"
echo "selected: $(wc -l <"$work/runs.txt") testlist lines of $(wc -l <"$work/programs.txt") programs ($work/selection.txt)"
if [ $list_only = 1 ]; then
  cat "$work/selection.txt"
  exit 0
fi

# ---------------------------------------------------------------- baseline
# the installed MPI, as the baseline names it
mpi_pkg=libmpich12
[ "$host" = mpich ] || mpi_pkg=libopenmpi3
mpi_version=$(dpkg-query -W -f='${Version}' $mpi_pkg 2>/dev/null || true)
mpi_version=${mpi_version:-unknown}
[ -z "$record_baseline" ] || [ $has_plain = 1 ] ||
  die "--record-baseline needs the plain mode among the modes"
use_baseline=0
baseline_note=""
declare -A base_result=()
if [ -n "$baseline" ]; then
  [ $has_plain = 1 ] || die "--baseline stands for the plain mode: give plain among the modes"
  [ -z "$record_baseline" ] || die "--baseline and --record-baseline exclude each other"
  [ -f "$baseline" ] || die "no such baseline: $baseline"
  bver=$(sed -n "s/^# $host-version: //p" "$baseline" | head -n 1)
  if [ "$bver" != "$mpi_version" ]; then
    baseline_note="the baseline $baseline is of $host ${bver:-(none named)}, this one is $mpi_version: the plain mode runs"
    echo "$baseline_note"
  else
    # every selected line (skips aside) in the baseline, with the same command
    if ! awk -F'|' -v only="$only" '
        FNR == NR { if ($0 ~ /^#/ || $0 == "") next
                    b[$1] = $2 "|" $3 "|" $4 "|" $5 "|" $6 "|" $7 "|" $8; nb++; next }
        $11 != "" { next }
        { ns++; spec = $4 "|" $5 "|" $6 "|" $7 "|" $8 "|" $9 "|" $10
          if (!($1 in b)) { if (bad++ < 10) print "  not in the baseline: " $1 }
          else if (b[$1] != spec) { if (bad++ < 10) print "  another command than the baseline'"'"'s: " $1 } }
        END { if (only == "" && nb != ns) {
                print "  the baseline holds " nb " lines, the selection " ns; bad++ }
              exit bad > 0 }' "$baseline" "$work/runs.txt" >&2; then
      die "the selection does not match $baseline: record it again (bash $0 --modes plain --record-baseline FILE, with the same divisors)"
    fi
    while IFS='|' read -r id _ _ _ _ _ _ _ st rc secs why; do
      case $id in '#'* | '') continue ;; esac
      base_result[$id]="$st|$rc|$secs|$why"
    done <"$baseline"
    use_baseline=1
    echo "plain mode: the baseline $baseline ($host $bver), ${#base_result[@]} lines"
  fi
fi

# ---------------------------------------------------------------- served
# the lines whose recorded default run served nothing (--served): id and
# the command's fields as in runs.txt, then the operations served
[ -z "$record_served" ] || [ $has_default = 1 ] ||
  die "--record-served needs the default mode among the modes"
[ -z "$served_file" ] || [ -f "$served_file" ] || die "no such record of served lines: $served_file"
declare -A unserved=()
if [ -n "$served_file" ]; then
  while IFS='|' read -r id n; do
    unserved[$id]=$n
  done < <(awk -F'|' '
    FNR == NR { if ($0 ~ /^#/ || $0 == "") next
                if ($9 == "0") b[$1] = $2 "|" $3 "|" $4 "|" $5 "|" $6 "|" $7 "|" $8; next }
    $11 == "" && ($1 in b) && b[$1] == $4 "|" $5 "|" $6 "|" $7 "|" $8 "|" $9 "|" $10 { print $1 "|0" }' \
    "$served_file" "$work/runs.txt")
  echo "served: $served_file, ${#unserved[@]} selected lines whose recorded default run served nothing"
fi

# ---------------------------------------------------------------- build
phase "configure"
B=$work/build
mkdir -p "$B/include/dtp" "$B/lib"
"$here/conf.sh" "$B/include"

phase "build"
# the flags in a file of their own, which every target depends on: a change
# rebuilds everything, a change of the selection nothing
# shellcheck disable=SC2016  # the $(...) are make's
{
  echo "CC = $MPICC"
  echo "CFLAGS = -g -O2"
  echo "T = $T"
  echo "B = $B"
  # dtpools_internal.h includes "../dtpoolsconf.h": found as include/dtp/../
  printf '%s' 'CPPFLAGS = -I$(B)/include -I$(B)/include/dtp -I$(T)/include -I$(T)/dtpools/include'
  [ "$host" = mpich ] || printf ' -include %s' "$B/include/mpi1_renamed.h"
  echo
} >"$B/flags.mk.new"
cmp -s "$B/flags.mk.new" "$B/flags.mk" 2>/dev/null || mv "$B/flags.mk.new" "$B/flags.mk"
# Open MPI 4.1 neither declares nor exports the calls MPI-3.0 removed;
# those that MPI-2 only renamed, with the same arguments and meaning, are
# called by their new names (DTPools' library builds hvector and hindexed
# types by the old ones); a program that needs another removed call (the
# MPI_UB and MPI_LB markers, MPI_Type_extent) does not build, and is
# listed so
if [ "$host" = openmpi ]; then
  cat >"$B/include/mpi1_renamed.h.new" <<'EOH'
/* written by dataloop's test/mpich-suite/run.sh --host openmpi */
#include <mpi.h>
#undef MPI_Type_hvector
#undef MPI_Type_hindexed
#undef MPI_Type_struct
#undef MPI_Address
#define MPI_Type_hvector MPI_Type_create_hvector
#define MPI_Type_hindexed MPI_Type_create_hindexed
#define MPI_Type_struct MPI_Type_create_struct
#define MPI_Address MPI_Get_address
EOH
  cmp -s "$B/include/mpi1_renamed.h.new" "$B/include/mpi1_renamed.h" 2>/dev/null ||
    mv "$B/include/mpi1_renamed.h.new" "$B/include/mpi1_renamed.h"
  rm -f "$B/include/mpi1_renamed.h.new"
fi
rm -f "$B/flags.mk.new"
# shellcheck disable=SC2016  # the $(...) are make's
{
  echo "# generated by dataloop's test/mpich-suite/run.sh"
  echo "include $B/flags.mk"
  printf '%s' 'DEPS = $(B)/include/mpitestconf.h $(B)/include/dtpoolsconf.h $(B)/flags.mk'
  [ "$host" = mpich ] || printf ' %s' '$(B)/include/mpi1_renamed.h'
  echo
  echo 'MTEST = $(B)/lib/libmtest.a'
  echo 'DTPOOLS = $(B)/lib/libdtpools.a'
  echo 'DTYPES = $(B)/lib/libdtypes.a'
  echo
  printf 'all: $(B)/lib/libucx_yield.so'
  while IFS='|' read -r suite prog; do printf ' \\\n  $(B)/%s/%s' "$suite" "$prog"; done <"$work/programs.txt"
  printf '\n\n'
  printf '$(B)/lib/libucx_yield.so: %s $(B)/flags.mk\n' "$here/../ucx_yield.c"
  printf '\t$(CC) $(CFLAGS) -shared -fPIC -o $@ %s -ldl -lpthread\n\n' "$here/../ucx_yield.c"
  lib() { # name sources...
    local name=$1 objs="" s o
    shift
    for s in "$@"; do
      o="\$(B)/lib/$name-$(basename "${s%.c}").o"
      objs="$objs $o"
      printf '%s: $(T)/%s $(DEPS)\n\t$(CC) $(CFLAGS) $(CPPFLAGS) -c -o $@ $(T)/%s\n' "$o" "$s" "$s"
    done
    printf '$(B)/lib/lib%s.a:%s\n\trm -f $@ && ar rcs $@%s\n\n' "$name" "$objs" "$objs"
  }
  # util/libmtest_single.la and libdtypes.la, dtpools/src/libdtpools.la
  lib mtest util/mtest_single.c util/mtest.c util/mtest_common.c
  lib dtypes util/dtypes.c
  lib dtpools dtpools/src/dtpools.c dtpools/src/dtpools_misc.c \
    dtpools/src/dtpools_init_verify.c dtpools/src/dtpools_desc.c \
    dtpools/src/dtpools_attr.c dtpools/src/dtpools_custom.c
  while IFS='|' read -r suite prog; do
    srcs="" libs='$(MTEST) $(DTPOOLS)' extra=""
    # headers listed in _SOURCES (rma's mutex_bench: mcs_mutex.h) are not
    # compiled
    for s in $(prog_sources "$suite" "$prog"); do
      case $s in *.h) ;; *) srcs="$srcs \$(T)/$suite/$s" ;; esac
    done
    for l in $(prog_libs "$suite" "$prog"); do
      case $l in
      dtypes) libs="\$(DTYPES) $libs" ;;
      *) extra="$extra $l" ;;
      esac
    done
    flags=$(prog_cppflags "$suite" "$prog")
    printf '$(B)/%s/%s:%s %s $(DEPS)\n' "$suite" "$prog" "$srcs" "$libs"
    printf '\t@mkdir -p $(@D)\n'
    printf '\t$(CC) $(CFLAGS) $(CPPFLAGS)%s -o $@%s %s%s\n\n' "${flags:+ $flags}" "$srcs" "$libs" "$extra"
  done <"$work/programs.txt"
} >"$B/Makefile"
jobs=$(nproc 2>/dev/null || echo 2)
# -k: build what builds; a program that does not is reported and fails the
# run (make -q: one whose rebuild failed is not up to date)
unbuilt=""
if ! make -k -j"$jobs" -C "$B" -f Makefile all >"$B/build.log" 2>&1; then
  while IFS='|' read -r suite prog; do
    make -q -C "$B" -f Makefile "$B/$suite/$prog" >/dev/null 2>&1 ||
      unbuilt="$unbuilt $suite/$prog"
  done <"$work/programs.txt"
  grep -E -i 'error' "$B/build.log" | head -n 40 >&2 || true
  echo "run.sh: did not build:${unbuilt:- (the libraries)} (log: $B/build.log)" >&2
  [ -n "$unbuilt" ] || die "the build failed"
fi
built() { # suite/prog
  case " $unbuilt " in *" $1 "*) return 1 ;; esac
  [ -x "$B/$1" ]
}

# idle ranks yield (unless --spin; Open MPI's by its own setting)
yield=""
if [ $spin = 0 ] && [ "$host" = mpich ]; then
  yield=$B/lib/libucx_yield.so
  [ -f "$yield" ] || die "$yield did not build (log: $B/build.log)"
  msg=$(LD_PRELOAD=$yield true 2>&1) || true
  [ -z "$msg" ] || die "$yield does not preload: $msg"
fi

# the interposer, as it is now
lib=""
if [ -n "$preload" ]; then
  [ -f "$preload" ] || die "no such file: $preload"
  mkdir -p "$work/preload"
  lib=$work/preload/$(basename "$preload")
  cp "$preload" "$lib.tmp" && mv "$lib.tmp" "$lib"
  # it loads (with libmpich) into a program
  msg=$(LD_PRELOAD=$lib true 2>&1) || true
  [ -z "$msg" ] || die "$preload does not preload: $msg"
fi
# whether it intercepts any collective (else a coll line preloaded runs
# MPICH's collectives against themselves, as io would)
# (the symbol list read whole first: under pipefail, grep -q stopping
# early would fail nm's side of a pipe)
coll_seen=0
if [ -n "$lib" ]; then
  syms=$(nm -D --defined-only "$lib" 2>/dev/null) || syms=""
  if grep -Eq ' T P?MPI_(I?(Bcast|Gather|Scatter|Allgather|Alltoall|Reduce|Allreduce|Scan|Exscan)|(I?[Nn]eighbor_))' <<<"$syms"; then
    coll_seen=1
  fi
fi

# the other MPICH's shared libraries, as they are now
mlib=""
libmpich_plain="" libmpich_lib="" lib_lacks=""
if [ $has_lib = 1 ]; then
  [ -f "$mpich_lib/libmpich.so.12" ] || die "no libmpich.so.12 in --mpich-lib $mpich_lib"
  mlib=$work/mpich-lib
  rm -rf "$mlib.tmp"
  mkdir -p "$mlib.tmp"
  for f in "$mpich_lib"/*.so*; do
    [ -f "$f" ] || continue
    cp -L "$f" "$mlib.tmp/" || die "cannot copy $f"
  done
  rm -rf "$mlib" && mv "$mlib.tmp" "$mlib"
  # a program built here resolves libmpich.so.12 into the copy with it on
  # LD_LIBRARY_PATH, and elsewhere without (else the comparison is void)
  probe=""
  while IFS='|' read -r suite prog; do
    if built "$suite/$prog"; then probe=$suite/$prog; break; fi
  done <"$work/programs.txt"
  [ -n "$probe" ] || die "no built program to check the library with"
  resolved() { # env assignment or "", program -> the file libmpich.so.12 resolves to
    env ${1:+"$1"} ldd "$2" 2>/dev/null | awk '$1 == "libmpich.so.12" { print $3; exit }'
  }
  libmpich_plain=$(resolved "" "$B/$probe")
  libmpich_lib=$(resolved "LD_LIBRARY_PATH=$mlib" "$B/$probe")
  [ "$libmpich_lib" = "$mlib/libmpich.so.12" ] ||
    die "with LD_LIBRARY_PATH=$mlib, $probe loads libmpich.so.12 from '$libmpich_lib'"
  if [ -z "$libmpich_plain" ] || [ "$libmpich_plain" = "$libmpich_lib" ]; then
    die "without LD_LIBRARY_PATH=$mlib, $probe loads libmpich.so.12 from '$libmpich_plain'"
  fi
  echo "libmpich.so.12: plain $(readlink -f "$libmpich_plain"); lib $mpich_lib (copied to $mlib)"
  # what the plain library exports and this one does not (nm: binutils)
  if command -v nm >/dev/null 2>&1; then
    dsyms() { nm -D --defined-only "$1" 2>/dev/null | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u; }
    lib_lacks=$(comm -23 <(dsyms "$libmpich_plain") <(dsyms "$mlib/libmpich.so.12") | tr '\n' ' ')
    lib_lacks=${lib_lacks% }
    [ -z "$lib_lacks" ] || echo "  lib lacks $(wc -w <<<"$lib_lacks") symbols of the plain libmpich.so.12: $lib_lacks"
  fi
  env LD_LIBRARY_PATH="$mlib" ldd "$B/$probe" | grep -E 'libmpich|libdataloop' | sed 's/^[[:space:]]*/  lib: /' || true
fi

# ---------------------------------------------------------------- run
# runtests' check of the output: a " No Errors" line and nothing but
# "Test Passed" lines otherwise (and the lines runtests ignores)
check_output() { # file -> "" when it passes, else why not
  awk '
    /FORTRAN STOP/ { next }
    !ok && /^[[:space:]]*No [Ee]rrors[[:space:]]*$/ { ok = 1; next }
    /^srun: error: .*: signal: Communication connection failure/ { next }
    /^[[:space:]]*Test Passed[[:space:]]*$/ { next }
    /requesting checkpoint[[:space:]]*$/ || /checkpoint completed[[:space:]]*$/ { next }
    { if (bad == "") bad = $0 }
    END {
      if (bad != "") { gsub(/[|\r]/, " ", bad); print "unexpected output: " substr(bad, 1, 100) }
      else if (!ok) print "no \"No Errors\" line"
    }' "$1"
}

# Kill what is left of a run. Hydra starts each proxy and rank in a session
# of its own, out of reach of timeout(1)'s process group: they are found
# by the run's marker in their environment.
reap() { # marker
  local p
  for p in /proc/[0-9]*; do
    if tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qx "DL_MPICH_SUITE_RUN=$1"; then
      kill -KILL "${p#/proc/}" 2>/dev/null || true
    fi
  done
}

# one run; sets result to "id|mode|pass or fail|exit status|seconds|why"
result=""
run_pid=""
run_marker=""
run_one() { # id suite prog np limit envs args mpiargs mode
  local id=$1 suite=$2 prog=$3 np=$4 limit=$5 envs=$6 args=$7 mpiargs=$8 mode=$9
  local out="$work/out/$mode/$id.out" dir="$B/$suite"
  local -a cmd=("${mpiexec[@]}" -n "$np")
  local pre=$yield
  case $mode in
  default | pipeline) pre=$lib${yield:+:$yield} ;;
  esac
  [ -z "$pre" ] || env_opt LD_PRELOAD "$pre"
  case $mode in
  default) env_opt DL_STATS_FILE "${out%.out}.stats" ;;
  pipeline) env_opt DL_PIPELINE 1 ;;
  lib) env_opt LD_LIBRARY_PATH "$mlib" ;;
  esac
  # shellcheck disable=SC2206  # words of the testlist line
  cmd+=($mpiargs "$B/$suite/$prog" $args)
  mkdir -p "$(dirname "$out")"
  # the io programs write their files into the current folder: an empty one
  if [ "$suite" = io ]; then
    dir=$work/scratch/$mode/$id
    rm -rf "$dir" && mkdir -p "$dir"
  fi
  echo "cd $dir && ${envs:+env $envs }${cmd[*]}" >"${out%.out}.cmd"
  rm -f "${out%.out}.stats"
  local t0 t1 rc secs why
  run_marker="$$-$mode-$id"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086  # env= assignments of the testlist line
  (
    cd "$dir"
    exec env -u LD_PRELOAD -u DL_PIPELINE $envs DL_MPICH_SUITE_RUN="$run_marker" \
      MPIEXEC_TIMEOUT="$limit" timeout -k 10 "$((limit + 20))" "${cmd[@]}"
  ) >"$out" 2>&1 </dev/null &
  run_pid=$!
  wait "$run_pid" && rc=0 || rc=$?
  run_pid=""
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  [ $rc -eq 0 ] || reap "$run_marker"
  if [ $rc -eq 124 ] || [ $rc -eq 137 ] ||
    grep -Eq 'APPLICATION TIMED OUT|time limit for job execution has been reached' "$out"; then
    why="timeout (${limit} s)"
  elif [ $rc -ne 0 ]; then
    why="exit status $rc"
  else
    why=$(check_output "$out")
  fi
  if [ -z "$why" ]; then
    [ "$suite" != io ] || rm -rf "$dir"
    result="$id|$mode|pass|$rc|$secs|"
  else
    result="$id|$mode|fail|$rc|$secs|$why"
  fi
}

# shellcheck disable=SC2317  # called by the trap
# interrupted: stop the run in progress (timeout(1) is in a process group of
# its own, out of reach of the terminal's ^C) and what is left of it
interrupted() {
  trap - INT TERM
  if [ -n "$run_pid" ]; then
    kill -TERM "$run_pid" 2>/dev/null || true
    sleep 1
    reap "$run_marker"
  fi
  echo "run.sh: interrupted" >&2
  exit 130
}
trap interrupted INT TERM

# whether the line's default run passed and every rank of it counted no
# point-to-point message of a chunk or more (DL_STATS_FILE's long=)
no_long() { # id np default-status
  local f=$work/out/default/$1.stats
  [ "$3" = pass ] && [ -f "$f" ] || return 1
  awk -v np="$2" '/^dataloop-preload / { n++; for (i = 2; i <= NF; i++) if ($i ~ /^long=/) { split($i, kv, "="); seen++; sum += kv[2] } }
    END { exit !(n >= np && seen == n && sum == 0) }' "$f"
}

phase "run (modes: $modes${baseline:+; plain: $([ $use_baseline = 1 ] && echo "the baseline" || echo run)})"
rm -rf "$work/scratch"
# this run's outputs only: the report sums the counts found there
rm -rf "$work/out"
results=$work/results.txt
: >"$results"
total=$(awk -F'|' '$11 == ""' "$work/runs.txt" | wc -l)
n=0 retried=0
# shellcheck disable=SC2034  # from, note: read for the record only
while IFS='|' read -r id suite prog np limit mem xfail envs args mpiargs skip from note; do
  if [ -n "$skip" ]; then
    echo "$id|-|skip|-|0|$skip" >>"$results"
    continue
  fi
  n=$((n + 1))
  line="" plain_secs="" plain_st="" plain_base=0 plain_at="" default_st=""
  rs=()
  for m in "${mode_list[@]}"; do
    lim=$limit
    if [ "$m" != plain ] && [ -n "$plain_secs" ]; then
      lim=$(awk -v p="$plain_secs" -v l="$limit" -v s="$slack" -v f="$factor" \
        'BEGIN { x = int(s + f * p + 0.999); print (x < l ? x : l) }')
    fi
    if ! built "$suite/$prog"; then
      result="$id|$m|fail|-|0|did not build"
    elif [ "$m" = plain ] && [ $use_baseline = 1 ]; then
      result="$id|plain|${base_result[$id]}"
      plain_base=1
    elif [ "$suite" = coll ] && [ "$m" != plain ] && [ "$m" != lib ] && [ $coll_all = 0 ] &&
      [ $coll_seen = 0 ]; then
      result="$id|$m|pass|-|0|not run: the interposer intercepts no collective"
    elif { [ "$m" = default ] || [ "$m" = pipeline ]; } && [ -n "${unserved[$id]:-}" ]; then
      # (the plain verdict stands for it: not run, it cannot pass where
      # the host failed)
      result="$id|$m|${plain_st:-pass}|-|0|not run: its recorded default run served nothing"
    elif [ "$m" = pipeline ] && [ $pipeline_all = 0 ] && no_long "$id" "$np" "$default_st"; then
      result="$id|pipeline|pass|-|0|the default run: no message of a chunk or more"
    else
      run_one "$id" "$suite" "$prog" "$np" "$lim" "$envs" "$args" "$mpiargs" "$m"
      # a minute can be too short for two busy-polling ranks on a loaded
      # machine: a timeout runs again once in the program's own limit (a
      # hang fails twice; the first timeout stays in the log)
      IFS='|' read -r _ _ st _ secs why <<<"$result"
      if [ "$m" != plain ] && [ "$st" != pass ] && [ "${why#timeout}" != "$why" ] &&
        [ "$lim" -lt "$limit" ]; then
        line="$line $m:timeout(${secs}s)"
        retried=$((retried + 1))
        run_one "$id" "$suite" "$prog" "$np" "$limit" "$envs" "$args" "$mpiargs" "$m"
      fi
    fi
    IFS='|' read -r _ _ st _ secs _ <<<"$result"
    # a recorded plain pass that fails here: MPICH's turn again, plainly
    if [ "$m" != plain ] && [ "$st" != pass ] && [ $plain_base = 1 ] && [ "$plain_st" = pass ]; then
      saved=$result
      run_one "$id" "$suite" "$prog" "$np" "$limit" "$envs" "$args" "$mpiargs" plain
      IFS='|' read -r _ _ pst _ psecs pwhy <<<"$result"
      if [ "$pst" != pass ]; then
        rs[plain_at]="$id|plain|fail|-|$psecs|run again plainly after a $m failure: $pwhy (the baseline says it passes)"
        plain_st=fail
        line="$line plain-again:fail(${psecs}s)"
      else
        line="$line plain-again:pass(${psecs}s)"
      fi
      result=$saved
    fi
    rs+=("$result")
    [ "$m" != default ] || default_st=$st
    if [ "$m" = plain ]; then
      plain_at=$((${#rs[@]} - 1))
      plain_st=$st
      [ "$st" = pass ] && plain_secs=$secs
    fi
    line="$line $m:$st(${secs}s)"
  done
  printf '%s\n' "${rs[@]}" >>"$results"
  printf '[%d/%d] %s -n %s%s%s\n' "$n" "$total" "$id" "$np" "${xfail:+ [xfail]}" "$line"
done <"$work/runs.txt"

# the plain verdicts as a baseline: id | the command's fields (np,
# timeLimit, mem, xfail, env, args, mpiexec args) | status | exit | seconds | why
if [ -n "$record_baseline" ]; then
  {
    echo "# The plain mode's verdicts of MPICH's test programs on this $host, for"
    echo "# test/mpich-suite/run.sh --baseline (the test command runs the other"
    echo "# modes against it). Recorded $(date -u +%Y-%m-%d) on $(nproc) cores by:"
    echo "#   bash test/mpich-suite/run.sh --host $host --modes plain --record-baseline FILE"
    echo "#     --dtp-divisor $dtp_divisor --dtp-coll-divisor $dtp_coll_divisor --dtp-rma-divisor $dtp_rma_divisor${dtp_max_count:+ --dtp-max-count $dtp_max_count} --dtp-types $dtp_types${suites:+ --suites $suites}"
    echo "# $host-version: $mpi_version"
    echo "# id|np|timeLimit|mem|xfail|env|args|mpiexec args|status|exit|seconds|why"
    awk -F'|' -v OFS='|' '
      FNR == NR { if ($2 == "plain") r[$1] = $3 "|" $4 "|" $5 "|" $6; next }
      $11 == "" && ($1 in r) { print $1, $4, $5, $6, $7, $8, $9, $10, r[$1] }' \
      "$results" "$work/runs.txt"
  } >"$record_baseline.tmp"
  mv "$record_baseline.tmp" "$record_baseline"
  echo "baseline recorded: $record_baseline ($(grep -vc '^#' "$record_baseline") lines)"
fi

# the operations each line's default run served, summed over its ranks
# (- where a rank wrote no count), as --served reads them
if [ -n "$record_served" ]; then
  {
    echo "# The operations the interposer served in each line's default run of"
    echo "# MPICH's test programs, summed over the ranks' DL_STATS_FILE lines (-:"
    echo "# a rank wrote none), for test/mpich-suite/run.sh --served (the test"
    echo "# command runs a line with 0 plainly only). Recorded $(date -u +%Y-%m-%d) by:"
    echo "#   bash test/mpich-suite/run.sh --host $host --preload LIB --record-served FILE"
    echo "#     --dtp-divisor $dtp_divisor --dtp-coll-divisor $dtp_coll_divisor --dtp-rma-divisor $dtp_rma_divisor${dtp_max_count:+ --dtp-max-count $dtp_max_count} --dtp-types $dtp_types${suites:+ --suites $suites}"
    echo "# id|np|timeLimit|mem|xfail|env|args|mpiexec args|served"
    while IFS='|' read -r id _ _ np limit mem xfail envs args mpiargs skip _; do
      [ -z "$skip" ] || continue
      f=$work/out/default/$id.stats
      n=-
      [ ! -f "$f" ] || n=$(awk -v np="$np" '/^dataloop-preload / { r++
          for (i = 2; i <= NF; i++) { split($i, kv, "=")
            if (kv[1] ~ /^(pack|unpack|send|recv|rma|coll)$/) n += kv[2] } }
        END { if (r >= np) print n + 0; else print "-" }' "$f")
      printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$id" "$np" "$limit" "$mem" "$xfail" "$envs" "$args" "$mpiargs" "$n"
    done <"$work/runs.txt"
  } >"$record_served.tmp"
  mv "$record_served.tmp" "$record_served"
  echo "served recorded: $record_served ($(grep -v '^#' "$record_served" | awk -F'|' '$9 == "0"' | wc -l) lines with nothing served)"
fi

# ---------------------------------------------------------------- report
phase "report"
t_end=$(date +%s)
base_shown=""
[ $use_baseline = 0 ] || base_shown=$baseline
report=$work/report.txt
# the derived-type operations the interposer served in each suite's default
# runs, summed over their ranks' DL_STATS_FILE lines
served=""
for s in "${suite_list[@]}"; do
  compgen -G "$work/out/default/$s/*.stats" >/dev/null || continue
  served+="${served:+; }$(cat "$work/out/default/$s"/*.stats | awk -v s="$s" '
    /^dataloop-preload / { for (i = 2; i <= NF; i++) { split($i, kv, "=")
      if (kv[1] == "send" || kv[1] == "recv") p += kv[2]
      if (kv[1] == "rma") r += kv[2]
      if (kv[1] == "coll") c += kv[2] } }
    END { printf "%s %d point-to-point, %d one-sided, %d collective", s, p, r, c }')"
done
awk -F'|' -v modes="$modes" -v suitelist="${suite_list[*]}" -v has_plain=$has_plain \
  -v host="$host $mpi_version" -v served="$served" -v sfile="$served_file" -v preload="$preload" -v spin="$spin" -v mpich_lib="$mpich_lib" -v lp="$libmpich_plain" -v lacks="$lib_lacks" -v secs=$((t_end - t_start)) \
 -v work="$work" -v unbuilt="$unbuilt" -v base="$base_shown" -v bnote="$baseline_note" -v divisor="$dtp_divisor" -v cdivisor="$dtp_coll_divisor" -v rdivisor="$dtp_rma_divisor" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
  FILENAME ~ /programs.txt$/ {
    nprog[$1]++
    if (index(" " unbuilt " ", " " $1 "/" $2 " ") == 0) built[$1]++
    next
  }
  FILENAME ~ /runs.txt$/ {
    suite[$1] = $2; np[$1] = $4; xf[$1] = $7; note[$1] = $13; order[++nr] = $1
    next
  }
  {   # results.txt
    id = $1; s = suite[id]
    if ($3 == "skip") { skipped[s]++; skips[++nsk] = id " -n " np[id] ": " $6; next }
    st[id, $2] = $3; why[id, $2] = $6; t[id, $2] = $5; tsum[s, $2] += $5
    if ($6 == "not run: the interposer intercepts no collective") cskip[$2]++
    else if ($6 == "not run: its recorded default run served nothing") uskip[$2]++
    else if ($2 == "pipeline") { if ($4 == "-" && $3 == "pass") pskip++; else prun++ }
  }
  END {
    nm = split(modes, mode, ",")
    ns = split(suitelist, suites, " ")
    for (i = 1; i <= nr; i++) {
      id = order[i]; s = suite[id]
      if (!((id, mode[1]) in st)) continue
      if (note[id] != "") trimmed++
      if (xf[id] != "") { xfail[s]++; xfl[++nxf] = id; continue }
      runs[s]++
      for (k = 1; k <= nm; k++) if (st[id, mode[k]] == "pass") passed[s, mode[k]]++
      if (has_plain && st[id, "plain"] != "pass") pfail[++npf] = id
      for (k = 1; k <= nm; k++) {
        m = mode[k]
        if (m == "plain") continue
        if (st[id, m] != "pass" && (!has_plain || st[id, "plain"] == "pass"))
          bad[++nbad] = id SUBSEP m
      }
    }
    printf "MPICH %s test suite on %s, modes %s: %d s (load average at the end: %s)\n", \
      "4.0.2", host, modes, secs, load
    if (preload != "") printf "preload: %s\n", preload
    if (served != "") printf "served by dataloop in the default runs (operations summed over ranks): %s\n", served
    printf "idle ranks: %s\n", spin ? "spin, as MPICH runs them (--spin)" : \
      (host ~ /^mpich/ ? "yield their core (test/ucx_yield.c preloaded in every mode)" : "yield their core (mpi_yield_when_idle 1)")
    if (base != "") printf "plain: the verdicts and times of the baseline %s, not run (but again where another mode failed)\n", base
    if (bnote != "") printf "plain: %s\n", bnote
    if (prun + pskip) printf "pipeline: %d lines run; %d not, their default run having moved no message of a chunk or more (they pass as it did)\n", prun, pskip
    if (cskip["default"] + cskip["pipeline"]) printf "coll: lines not run preloaded (default %d, pipeline %d): the interposer intercepts no collective, so they would run MPICH against itself (--coll-all runs them)\n", cskip["default"], cskip["pipeline"]
    if (uskip["default"] + uskip["pipeline"]) printf "served: lines not run preloaded (default %d, pipeline %d): their recorded default run served nothing (%s)\n", uskip["default"], uskip["pipeline"], sfile
    if (mpich_lib != "") printf "lib: libmpich.so.12 of %s (plain: %s)\n", mpich_lib, lp
    if (lacks != "") printf "lib lacks %d symbols of the plain libmpich.so.12: %s\n", split(lacks, _l, " "), lacks
    printf "\n"
    printf "%-9s %8s %5s", "suite", "programs", "runs"
    for (k = 1; k <= nm; k++) printf " %10s", "pass " mode[k]
    printf " %6s %8s\n", "xfail", "skipped"
    for (i = 1; i <= ns; i++) {
      s = suites[i]
      printf "%-9s %8s %5d", s, (built[s] + 0) "/" (nprog[s] + 0), runs[s]
      for (k = 1; k <= nm; k++) printf " %10d", passed[s, mode[k]]
      printf " %6d %8d\n", xfail[s], skipped[s]
    }
    printf "\nseconds per mode:"
    for (k = 1; k <= nm; k++) {
      sum = 0
      for (i = 1; i <= ns; i++) sum += tsum[suites[i], mode[k]]
      printf " %s %d", mode[k], sum
    }
    nrs = 0
    for (i = 1; i <= ns; i++) if (runs[suites[i]] + xfail[suites[i]]) nrs++
    if (nrs > 1)
      for (i = 1; i <= ns; i++) {
        if (!(runs[suites[i]] + xfail[suites[i]])) continue
        printf "\n  %-9s", suites[i]
        for (k = 1; k <= nm; k++) printf " %s %d", mode[k], tsum[suites[i], mode[k]]
      }
    printf "\n(programs: built/selected; runs: counted testlist lines, xfail ones apart;\n"
    printf " %d DTPools lines try fewer pool types than MPICH'"'"'s testlist.dtp:", trimmed
    if (divisor > 1) printf " 1/%d in pt2pt,", divisor
    printf " 1/%d in coll, 1/%d in rma; see selection.txt)\n", cdivisor, rdivisor
    if (npf) {
      printf "\nFailing plainly (not counted: MPICH itself, or the build, on this machine):\n"
      for (i = 1; i <= npf; i++) {
        id = pfail[i]
        printf "  %s -n %s: %s", id, np[id], why[id, "plain"]
        for (k = 1; k <= nm; k++)
          if (mode[k] != "plain") printf "; %s %s", mode[k], st[id, mode[k]]
        printf "\n"
      }
    }
    if (nxf) {
      printf "\nxfail in MPICH'"'"'s testlist (not counted):\n"
      for (i = 1; i <= nxf; i++) {
        id = xfl[i]; printf "  %s -n %s:", id, np[id]
        for (k = 1; k <= nm; k++) printf " %s %s", mode[k], st[id, mode[k]]
        printf "\n"
      }
    }
    if (nsk) {
      printf "\nSkipped:\n"
      for (i = 1; i <= nsk; i++) printf "  %s\n", skips[i]
    }
    printf "\n%s:\n", has_plain ? "Passing plainly, failing in another mode" : "Failing"
    if (!nbad) printf "  none\n"
    for (i = 1; i <= nbad; i++) {
      split(bad[i], b, SUBSEP); id = b[1]; m = b[2]
      printf "\n  %s -n %s, %s mode: %s (%.1f s)\n", id, np[id], m, why[id, m], t[id, m]
      f = work "/out/" m "/" id ".cmd"
      if ((getline l < f) > 0) printf "    $ %s\n", l
      close(f)
      f = work "/out/" m "/" id ".out"
      n = 0
      while ((getline l < f) > 0) buf[++n] = l
      close(f)
      for (j = 1; j <= n; j++) {
        if (n > 16 && j == 9) { printf "    | ... (%d lines)\n", n - 14; j = n - 5 }
        printf "    | %s\n", substr(buf[j], 1, 160)
      }
    }
    print nbad + 0 > (work "/nbad")
  }' "$work/programs.txt" "$work/runs.txt" "$results" | tee "$report"

nbad=$(cat "$work/nbad")
rm -f "$work/nbad"
echo
[ "$retried" -eq 0 ] || echo "timed out in the shorter limit of a mode and ran again in the program's own: $retried (\":timeout\" in the lines above)" | tee -a "$report"
echo "report: $report; each run's output and command: $work/out/MODE/SUITE/PROG.N.{out,cmd}"
status=0
[ "$nbad" -eq 0 ] || status=1
# a program that did not build fails the run, unless the baseline records
# every line of it so (a host that lacks what it needs: the report lists it)
new_unbuilt=""
for p in $unbuilt; do
  known=$use_baseline
  while [ "$known" = 1 ] && IFS='|' read -r id suite prog _; do
    [ "$suite/$prog" = "$p" ] || continue
    [ "${base_result[$id]:-}" = "fail|-|0|did not build" ] || known=0
  done < <(awk -F'|' '$11 == ""' "$work/runs.txt")
  [ "$known" = 1 ] || new_unbuilt="$new_unbuilt $p"
done
if [ -n "$new_unbuilt" ]; then
  echo "run.sh: FAIL: did not build:$new_unbuilt" >&2
  status=1
elif [ -n "$unbuilt" ]; then
  echo "did not build, as the baseline records:$unbuilt" | tee -a "$report"
fi
if [ $has_plain = 1 ] && ! awk -F'|' '$2 == "plain" && $3 == "pass" { f = 1 } END { exit !f }' "$results"; then
  echo "run.sh: FAIL: no run passed plainly: MPICH or this runner is broken here" >&2
  status=1
fi
if [ "$nbad" -gt 0 ]; then
  if [ $has_plain = 1 ]; then
    echo "run.sh: FAIL: $nbad runs pass plainly but fail in another mode" >&2
  else
    echo "run.sh: FAIL: $nbad runs fail" >&2
  fi
fi
exit $status
