#!/bin/sh
# The semantics suite (test/semantics/*.c): small MPI programs, each
# checking one guarantee of the MPI standard on two ranks, run in every
# mode a program can meet the interposer in:
#   plain     the host MPI alone
#   default   both ranks preloaded
#   pipeline  both preloaded, DL_PIPELINE=1 with a 64-byte chunk, so that
#             nearly every message streams
#   mixed     rank 0 preloaded and rank 1 plain, then the other way round
# SEM_HOST says which host: mpich (the default: every program, built in
# test/semantics/) or openmpi (test/semantics-openmpi.sh: the programs of
# the parts the interposer serves on Open MPI, built against it in
# test/semantics/openmpi/, run by mpiexec.openmpi).
# A program that fails plainly is the host's failure on this machine:
# listed, its other modes not run. A run listed in the host's known failures
# (test/semantics/known.txt, known-openmpi.txt: a defect not yet fixed,
# with its issue) is expected to fail and runs with a short time limit; if
# it passes, the list is out of date and the suite fails. Every other run
# must pass. The table of programs and modes ends the output.
# Breadth: every MPI function the interposer defines (its MPI_ and PMPI_
# exports) is called by some program of the suite (read from the built
# programs' symbol tables, so that names a macro makes count), or the
# suite fails naming those that are not (SEM_PROGRAMS="..." runs only the
# programs named, without this check).
b=${top_builddir:-.}
s=${srcdir:-.}
[ -n "$DL_VALGRIND" ] && { echo "two-process test: not under valgrind"; exit 77; }
case ${SEM_HOST:-mpich} in
mpich)
  lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload.so
  dir=$b/test/semantics
  launch=$MPIEXEC
  known=$s/test/semantics/known.txt
  all="sem_errors sem_truncate sem_order sem_status sem_window sem_pmpi sem_progress sem_persist sem_partitioned sem_typemap sem_coll sem_rma" ;;
openmpi)
  lib=$(cd "$b" && pwd)/.libs/libdataloop-mpi-preload-openmpi.so
  dir=$b/test/semantics/openmpi
  launch=${MPIEXEC_OMPI:+$MPIEXEC_OMPI --oversubscribe}
  known=$s/test/semantics/known-openmpi.txt
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
  all="sem_errors sem_truncate sem_order sem_status sem_window sem_pmpi sem_progress sem_persist sem_typemap sem_coll sem_rma" ;;
*) echo "SEM_HOST: mpich or openmpi, not $SEM_HOST" >&2; exit 2 ;;
esac
[ -n "$launch" ] || { echo "no mpiexec found by configure for ${SEM_HOST:-mpich}" >&2; exit 77; }
[ -f "$lib" ] || { echo "no $lib (configured with --disable-shared?)" >&2; exit 77; }
programs=${SEM_PROGRAMS:-$all}
# DL_TEST_SMOKE=1 (the release tarball's check in tools/run test): the
# first program in every mode, which proves the tarball holds what the
# suite needs; make check in the tree runs them all
[ "${DL_TEST_SMOKE:-}" = 1 ] && programs=${programs%% *}
modes="plain default pipeline mixed"
out=$(mktemp -d /tmp/dl-semantics-XXXXXX)
trap 'rm -rf "$out"' EXIT

is_known() { # program mode
  grep -q "^$1 $2 " "$known" 2>/dev/null
}

run() { # program mode limit -> exit status; output in $out/prog.mode
  # the preload set by env in the program's own command, as both hosts'
  # launchers run it (and an MPMD line's contexts each their own)
  p=$(cd "$dir" && pwd)/$1
  pre="env LD_PRELOAD=$lib DL_EXPECT_PRELOAD=1"
  case $2 in
  plain) set -- "$1" "$2" "$3" -n 2 "$p" ;;
  default) set -- "$1" "$2" "$3" -n 2 $pre "$p" ;;
  pipeline) set -- "$1" "$2" "$3" -n 2 $pre DL_PIPELINE=1 DL_PIPELINE_CHUNK=64 "$p" ;;
  mixed-01) set -- "$1" "$2" "$3" -n 1 $pre "$p" : -n 1 "$p" ;;
  mixed-10) set -- "$1" "$2" "$3" -n 1 "$p" : -n 1 $pre "$p" ;;
  esac
  f=$out/$1.$2 limit=$3
  shift 3
  timeout -k 5 "$limit" env -u LD_PRELOAD $launch "$@" >"$f" 2>&1 </dev/null
}

failed=0 table=""
for prog in $programs; do
  row=$(printf '%-16s' "$prog")
  plain_ok=1
  for mode in $modes; do
    sub=$mode
    [ "$mode" = mixed ] && sub="mixed-01 mixed-10"
    cell=""
    for m in $sub; do
      if [ "$mode" != plain ] && [ $plain_ok = 0 ]; then
        cell="$cell${cell:+,}not run"     # the host fails it alone
        continue
      fi
      limit=300
      is_known "$prog" "$mode" && limit=5
      if run "$prog" "$m" "$limit"; then st=pass; else st=fail; fi
      if [ "$mode" = plain ]; then
        [ $st = pass ] || { plain_ok=0; st="fail(host)"; }
      elif is_known "$prog" "$mode"; then
        if [ $st = pass ]; then
          st="pass(listed as known: update known.txt)"
          failed=1
        else
          st="known"
        fi
      elif [ $st = fail ]; then
        failed=1
        echo "FAILED: $prog in the $m mode:" >&2
        tail -n 20 "$out/$prog.$m" >&2
      fi
      cell="$cell${cell:+,}$st"
    done
    row="$row $(printf '%-12s' "$cell")"
  done
  table="$table$row
"
done
echo "semantics suite on ${SEM_HOST:-mpich} (known failures: $known)"
printf '%-16s %-12s %-12s %-12s %s\n' program $modes
printf '%s' "$table"
if [ "${DL_TEST_SMOKE:-}" != 1 ] && [ -z "${SEM_PROGRAMS:-}" ]; then
  called=$(for p in $programs; do nm -u "$dir/$p"; done |
           awk '{print $NF}' | sed 's/@.*//; s/^PMPI_/MPI_/' | sort -u)
  missing=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^P?MPI_[A-Z][a-z]/ {print $3}' |
            sed 's/^PMPI_/MPI_/' | sort -u | while read -r f; do
              echo "$called" | grep -qx "$f" || printf ' %s' "$f"
            done)
  n=$(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^P?MPI_[A-Z][a-z]/ {print $3}' |
      sed 's/^PMPI_/MPI_/' | sort -u | wc -l)
  if [ -n "$missing" ]; then
    echo "semantics suite: the interposer defines calls no program makes:$missing" >&2
    failed=1
  else
    echo "breadth: every one of the $n MPI calls the interposer defines is made by a program"
  fi
fi
[ $failed = 0 ] || { echo "semantics suite: FAILED" >&2; exit 1; }
echo "semantics suite: ok"
