#!/bin/bash
# MPICH 4.0.2, from Debian's source package, with dataloop as its datatype
# engine, installed into a private prefix (doc/mpich.md, "Building").
#
#   tools/mpich/build.sh [--prefix DIR] [--work DIR] [--seam DIR]
#                        [--engine auto|dataloop|mpich-dataloop]
#                        [--device DEV] [--jobs N]
#                        [--reuse] [--no-smoke] [-- CONFIGURE-ARGS...]
#
# Steps, each logged to WORK/logs/STEP.log:
#   project    installs the project (already built: tools/run builds it)
#              into PREFIX: make install into a staging folder, then its
#              headers, shared libraries and pkg-config files (with
#              PREFIX as their prefix) copied into PREFIX, and the headers
#              and libraries into WORK/dataloop for MPICH's build
#   fetch      MPICH's source: test/mpich-suite/fetch.sh into
#              mpich-suite-work/src of the project (the cache that
#              `make check-mpich-suites` shares)
#   tree       a fresh copy of it in WORK/build
#   seam       (dataloop engine) the project's backend put in place and
#              MPICH's own dataloop removed, by the rule below
#   regen      (dataloop engine) aclocal, autoconf, autoheader, automake in
#              each autotools project whose makefiles the seam changed
#              (MPICH's top level always: a few seconds; never autogen.sh)
#   configure  --with-datatype-engine=dataloop --with-device=DEVICE
#              --enable-fortran=all --enable-cxx, MPICH's libraries named
#              as Debian's (MPILIBNAME=mpich: libmpich.so.12,
#              libmpichfort.so.12, libmpichcxx.so.12); with the dataloop
#              engine also
#              MPICHLIB_CPPFLAGS=-IWORK/dataloop/include,
#              LDFLAGS=-LWORK/dataloop/lib -Wl,-rpath,PREFIX/lib,
#              LIBS=-ldataloop
#   make       make -jN (N = --jobs, default 2)
#   install    make install; then checks that PREFIX/lib has Debian's
#              library names, and writes PREFIX/env.sh
#   smoke      tools/mpich/smoke.c on 2 ranks, built with PREFIX's mpicc
#              and run with its mpiexec, then built with Debian's
#              mpicc.mpich and run through LD_LIBRARY_PATH=PREFIX/lib;
#              with the dataloop engine, tools/mpich/engine.c (fails
#              unless packs and messages reach libdataloop)
#
# The seam (DIR, default src/mpich of the project):
#   typerep/   copied into MPICH's src/mpi/datatype/typerep/src/: each file
#              replaces the file of that name or is added (subfolders
#              too); typerep/Makefile.mk is that folder's list of sources
#   tr*.[ch]   (with typerep/) the MPICH-free layer under the backend, the
#              bridge's table of predefined types (DIR/../mpi/named.c,
#              named.h) and the error classes (DIR/../mpi/errclass.h), into
#              the same folder
#   romio/     copied into ROMIO's src/mpi/romio/adio/common/ (flatten.c)
#   overlay/   copied onto MPICH's tree, each file at its relative path
#   remove     paths in MPICH's tree to delete, one a line (# comments)
# and MPICH's own src/mpi/datatype/typerep/dataloop/ is deleted, with its
# include dropped from src/mpi/datatype/typerep/Makefile.mk, so that the
# project's installed dataloop.h is the one on the include path.
#
# --engine: dataloop puts the seam in; mpich-dataloop builds MPICH's own
# dataloop engine from the unchanged source; auto (default) is dataloop
# when SEAM/typerep has a file, else mpich-dataloop.
#
# Defaults: PREFIX mpich-dataloop/, WORK mpich-dataloop-work/ (both in the
# project folder). --reuse keeps WORK/build when it was configured with the
# same options, seam file list and makefiles, and only copies changed seam
# files in before make (a backend's edit-compile cycle); otherwise the tree
# is fresh. Arguments after -- go to MPICH's configure last.
#
# Exit status: 0 built, installed and the smoke test passed; 1 a step
# failed (the end of its log is printed); 2 usage.
set -eu -o pipefail

me=tools/mpich/build.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

prefix=$top/mpich-dataloop
work=$top/mpich-dataloop-work
seam=$top/src/mpich
engine=auto
device=ch4:ucx
jobs=2
reuse=0
smoke=1
extra=()

usage() {
  sed -n '/^#   tools\/mpich\/build.sh/,/CONFIGURE-ARGS\.\.\.\]$/s/^# \{0,3\}//p' "$0" >&2
  exit 2
}

die() {
  echo "$me: error: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
  --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
  --prefix=*) prefix=${1#*=}; shift ;;
  --work) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
  --work=*) work=${1#*=}; shift ;;
  --seam) [ $# -ge 2 ] || usage; seam=$2; shift 2 ;;
  --seam=*) seam=${1#*=}; shift ;;
  --engine) [ $# -ge 2 ] || usage; engine=$2; shift 2 ;;
  --engine=*) engine=${1#*=}; shift ;;
  --device) [ $# -ge 2 ] || usage; device=$2; shift 2 ;;
  --device=*) device=${1#*=}; shift ;;
  --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
  --jobs=*) jobs=${1#*=}; shift ;;
  --reuse) reuse=1; shift ;;
  --no-smoke) smoke=0; shift ;;
  --) shift; extra=("$@"); break ;;
  -h | --help) usage ;;
  *) echo "$me: unknown argument $1" >&2; usage ;;
  esac
done

case $jobs in '' | *[!0-9]* | 0) die "--jobs takes a positive number" ;; esac
case $engine in
auto)
  engine=mpich-dataloop
  if [ -d "$seam/typerep" ] && [ -n "$(find "$seam/typerep" -type f -print -quit)" ]; then
    engine=dataloop
  fi
  ;;
dataloop)
  if [ ! -d "$seam/typerep" ] || [ -z "$(find "$seam/typerep" -type f -print -quit)" ]; then
    die "--engine dataloop: no backend in $seam/typerep"
  fi
  ;;
mpich-dataloop) ;;
*) die "--engine is auto, dataloop or mpich-dataloop, not $engine" ;;
esac

# absolute paths: configure and the makefiles run in other folders
mkdir -p "$prefix" "$work/logs" || die "cannot create $prefix or $work"
prefix=$(cd "$prefix" && pwd)
work=$(cd "$work" && pwd)
[ -d "$seam" ] && seam=$(cd "$seam" && pwd)
logs=$work/logs
tree=$work/build

for c in gcc g++ gfortran make aclocal autoconf autoheader automake python3 perl; do
  command -v "$c" >/dev/null 2>&1 || die "$c not found (tools/run mpich installs what is missing)"
done
[ -f "$top/Makefile" ] || die "the project is not configured: run tools/run mpich, or configure and make it first"

# a command that fails outside run() says where
trap 'echo "$me: error: line $LINENO: a command failed (exit $?)" >&2' ERR

t_start=$(date +%s)
declare -A took cpu
phase() { echo "== $(date -u +%H:%M:%S) $1"; }

# run STEP CMD...: CMD (a program or a function of this script, in a
# subshell that stops at the first failing command) with its output in the
# step's log; on failure the end of that log
# (wall and CPU seconds added to took[STEP] and cpu[STEP])
children_cpu() { # CPU seconds of this shell's finished children, from times
  # (times in this shell, not in a $(...) subshell, which has no children)
  times >"$work/.times"
  awk 'NR == 2 { n = split($0, f, " "); s = 0
         for (i = 1; i <= n; i++) { split(f[i], ms, "m"); s += ms[1] * 60 + ms[2] }
         printf "%.0f", s }' "$work/.times"
}
run() {
  local step=$1 rc t0
  shift
  t0=$(date +%s)
  children_cpu >"$work/.cpu0"
  set +e
  (
    exec >>"$logs/$step.log" 2>&1
    set -e
    "$@"
  )
  rc=$?
  set -e
  took[$step]=$((${took[$step]:-0} + $(date +%s) - t0))
  children_cpu >"$work/.cpu1"
  cpu[$step]=$((${cpu[$step]:-0} + $(cat "$work/.cpu1") - $(cat "$work/.cpu0")))
  if [ "$rc" != 0 ]; then
    echo "$me: $step failed (exit $rc); the end of $logs/$step.log:" >&2
    tail -n 40 "$logs/$step.log" | sed 's/^/    | /' >&2
    exit 1
  fi
}

# ------------------------------------------------------------- project
# make install into a staging folder, whatever prefix the project was
# configured with (libtool installs nowhere else), then the parts MPICH
# and programs need copied into PREFIX
phase "project: installing the dataloop library into $prefix"
: >"$logs/project.log"
stage=$work/stage
rm -rf "$stage"
run project make -C "$top" -j"$jobs"
run project make -C "$top" install DESTDIR="$stage"
# shellcheck disable=SC2016  # make's variables, literally
dirs=$(printf 'print-dirs:\n\t@echo $(prefix) $(libdir) $(includedir)\n' |
  make -s --no-print-directory -C "$top" -f Makefile -f - print-dirs)
read -r p_prefix p_libdir p_includedir <<<"$dirs"
[ -f "$stage$p_includedir/dataloop.h" ] || die "make install put no dataloop.h in $stage$p_includedir"
# The same headers and libraries go to PREFIX, for users, and to
# WORK/dataloop, the one place MPICH's build looks (an earlier MPICH in
# PREFIX, its mpio.h or libmpl.so, must not stand in for the tree's own);
# to WORK/dataloop only when changed, so that --reuse recompiles nothing
# for an unchanged header.
dl=$work/dataloop
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$dl/include" "$dl/lib"
cp -p "$stage$p_includedir"/dataloop*.h "$prefix/include/"
cp -P -p "$stage$p_libdir"/libdataloop*.so* "$prefix/lib/"
for f in "$stage$p_includedir"/dataloop*.h "$stage$p_libdir"/libdataloop*.so*; do
  case $f in *.h) d=$dl/include ;; *) d=$dl/lib ;; esac
  if [ -L "$f" ] || ! cmp -s "$f" "$d/${f##*/}"; then
    cp -P -p "$f" "$d/"
  fi
done
# shellcheck disable=SC2016  # pkg-config's variables, literally
for pc in "$stage$p_libdir"/pkgconfig/dataloop*.pc; do
  [ -f "$pc" ] || continue
  sed -e "s|^prefix=.*|prefix=$prefix|" -e 's|^exec_prefix=.*|exec_prefix=${prefix}|' \
    -e 's|^libdir=.*|libdir=${exec_prefix}/lib|' -e 's|^includedir=.*|includedir=${prefix}/include|' \
    "$pc" >"$prefix/lib/pkgconfig/${pc##*/}"
done
rm -rf "$stage"
[ "$p_prefix" = "$prefix" ] || echo "   (the project is configured for $p_prefix; its files were copied)"

# ------------------------------------------------------------- fetch
phase "fetch: MPICH's source package"
: >"$logs/fetch.log"
run fetch "$top/test/mpich-suite/fetch.sh" "$top/mpich-suite-work/src"
src=$(tail -n 1 "$logs/fetch.log")
[ -d "$src/src/mpi/datatype/typerep" ] || die "fetch.sh gave no MPICH tree ($src)"
echo "   $src ($(cat "$src/.dataloop-fetched" 2>/dev/null || echo "?"))"

# ------------------------------------------------------------- options
case $device in
ch4:ucx*) dev_args=(--with-device="$device" --with-ucx=/usr) ;;
*) dev_args=(--with-device="$device") ;;
esac
# gfortran 10 and later reject MPICH's Fortran without
# -fallow-argument-mismatch (Debian's build passes it too)
fflags="-O2 -fallow-argument-mismatch"
conf_args=(--prefix="$prefix" "${dev_args[@]}" --with-hwloc=/usr --with-pm=hydra
  --with-datatype-engine=dataloop --enable-fortran=all --enable-cxx
  --disable-maintainer-mode MPILIBNAME=mpich "FFLAGS=$fflags" "FCFLAGS=$fflags")
if [ "$engine" = dataloop ]; then
  conf_args+=("MPICHLIB_CPPFLAGS=-I$dl/include"
    "LDFLAGS=-L$dl/lib -Wl,-rpath,$prefix/lib" "LIBS=-ldataloop")
fi
conf_args+=("${extra[@]}")

# the seam's files (relative paths) and, for those make reads, contents
seam_files() {
  local d
  for d in typerep romio overlay; do
    if [ -d "$seam/$d" ]; then (cd "$seam" && find "$d" -type f | LC_ALL=C sort); fi
  done
  if [ -d "$seam/typerep" ]; then
    (cd "$seam" && find . -maxdepth 1 -name 'tr*.[ch]' -type f | sed 's|^\./||' | LC_ALL=C sort)
    for f in named.c named.h errclass.h; do
      if [ -f "$seam/../mpi/$f" ]; then echo "../mpi/$f"; fi
    done
  fi
  if [ -f "$seam/remove" ]; then echo remove; fi
  return 0
}
is_autotools_input() {
  case ${1##*/} in Makefile.mk | Makefile.am | configure.ac | *.m4 | remove) return 0 ;; esac
  return 1
}
key=$( {
  echo "engine=$engine src=$(cat "$src/.dataloop-fetched" 2>/dev/null)"
  printf '%s\n' "${conf_args[@]}"
  if [ "$engine" = dataloop ]; then
    seam_files | while read -r f; do
      echo "$f"
      if is_autotools_input "$f"; then sha256sum <"$seam/$f"; fi
    done
  fi
} | sha256sum | cut -c1-16)

# ------------------------------------------------------------- tree
fresh=1
if [ "$reuse" = 1 ] && [ -f "$tree/Makefile" ] && [ "$(cat "$tree/.dataloop-build-key" 2>/dev/null)" = "$key" ]; then
  fresh=0
fi
for s in seam regen configure make install smoke; do : >"$logs/$s.log"; done

# copy_seam: the seam's files into the tree; with "changed", only those
# whose content differs (so make rebuilds only what they touch)
copy_seam() {
  local only_changed=$1 f dst n=0
  while read -r f; do
    case $f in
    typerep/*) dst=$tree/src/mpi/datatype/typerep/src/${f#typerep/} ;;
    tr*.[ch] | ../mpi/named.[ch] | ../mpi/errclass.h) dst=$tree/src/mpi/datatype/typerep/src/${f##*/} ;;
    romio/*) dst=$tree/src/mpi/romio/adio/common/${f#romio/} ;;
    overlay/*) dst=$tree/${f#overlay/} ;;
    *) continue ;;
    esac
    if [ "$only_changed" = changed ] && cmp -s "$seam/$f" "$dst"; then
      continue
    fi
    mkdir -p "$(dirname "$dst")"
    cp "$seam/$f" "$dst"
    echo "seam: $f -> ${dst#"$tree"/}"
    n=$((n + 1))
  done < <(seam_files)
  echo "seam: $n files copied"
}

apply_seam() {
  copy_seam all
  if [ -f "$seam/remove" ]; then
    sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$seam/remove" |
      while read -r p; do
        [ -n "$p" ] || continue
        case $p in /* | *..*) echo "seam: remove: $p is not a path inside MPICH's tree" >&2; return 1 ;; esac
        [ -e "$tree/$p" ] || { echo "seam: remove: $p does not exist in MPICH's tree" >&2; return 1; }
        rm -rf "${tree:?}/$p"
        echo "seam: removed $p"
      done
  fi
  # MPICH's own engine out of the build: its folder and its include
  local mk=$tree/src/mpi/datatype/typerep/Makefile.mk
  rm -rf "$tree/src/mpi/datatype/typerep/dataloop"
  echo "seam: removed src/mpi/datatype/typerep/dataloop/"
  awk '/^if BUILD_DATALOOP_ENGINE$/ { skip = 1; next }
       skip && /^endif/ { skip = 0; next }
       !skip' "$mk" >"$mk.new"
  mv "$mk.new" "$mk"
  if grep -rl --include=Makefile.mk --include=Makefile.am 'typerep/dataloop' "$tree/src" "$tree/Makefile.am"; then
    echo "seam: the makefiles above still name src/mpi/datatype/typerep/dataloop" >&2
    return 1
  fi
}

# the autotools projects (folders with a configure.ac) whose makefiles the
# seam changed; MPICH's top level always, for the dataloop/ include
regen_dirs() {
  local f d
  echo .
  seam_files | while read -r f; do
    is_autotools_input "$f" || continue
    case $f in overlay/*) d=$(dirname "${f#overlay/}") ;; *) continue ;; esac
    while [ "$d" != . ] && [ ! -f "$tree/$d/configure.ac" ]; do d=$(dirname "$d"); done
    echo "$d"
  done | LC_ALL=C sort -u
}

regen() {
  local d flags
  for d in $(regen_dirs); do
    echo "regen: $d"
    # aclocal's flags as the project's Makefile.am gives them
    flags=$(sed -n 's/^ACLOCAL_AMFLAGS[[:space:]]*=//p' "$tree/$d/Makefile.am")
    # shellcheck disable=SC2086  # flags are words
    (cd "$tree/$d" && aclocal $flags && autoconf && autoheader && automake && rm -rf autom4te.cache) || return 1
  done
}

if [ "$fresh" = 1 ]; then
  phase "tree: a fresh copy in $tree"
  rm -rf "$tree"
  cp -a "$src" "$tree"
  if [ "$engine" = dataloop ]; then
    phase "seam: the backend from $seam"
    run seam apply_seam
    grep -c '^seam: ' "$logs/seam.log" | sed 's/^/   seam steps: /'
    phase "regen: makefiles"
    run regen regen
    echo "   ${took[regen]} s"
  fi
  phase "configure: ${conf_args[*]}"
  run configure env -C "$tree" ./configure "${conf_args[@]}"
  echo "$key" >"$tree/.dataloop-build-key"
else
  phase "tree: reusing $tree (same options, seam files and makefiles)"
  if [ "$engine" = dataloop ]; then
    run seam copy_seam changed
    tail -n 1 "$logs/seam.log" | sed 's/^/   /'
  fi
fi

phase "make -j$jobs"
run make make -C "$tree" -j"$jobs"
phase "install into $prefix"
run install make -C "$tree" install

# Debian's names, which programs linked with Debian's MPICH ask for
for lib in libmpich.so.12 libmpichfort.so.12 libmpichcxx.so.12; do
  [ -e "$prefix/lib/$lib" ] || die "$prefix/lib/$lib is missing after make install"
  soname=$(readelf -d "$prefix/lib/$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [ "$soname" = "$lib" ] || die "$prefix/lib/$lib has SONAME '$soname'"
done
if [ "$engine" = dataloop ]; then
  readelf -d "$prefix/lib/libmpich.so.12" | grep -q 'NEEDED.*\[libdataloop\.so' ||
    die "$prefix/lib/libmpich.so.12 does not link libdataloop"
fi
cat >"$prefix/env.sh" <<EOF
# . $prefix/env.sh: this MPICH's mpicc and mpiexec first in PATH, and its
# libraries for programs linked with Debian's MPICH
export PATH="$prefix/bin:\$PATH"
export LD_LIBRARY_PATH="$prefix/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
EOF

# ------------------------------------------------------------- smoke
if [ "$smoke" = 1 ]; then
  phase "smoke: derived types on 2 ranks"
  sm=$work/smoke
  rm -rf "$sm"
  mkdir -p "$sm"
  run smoke "$prefix/bin/mpicc" -o "$sm/smoke" "$here/smoke.c"
  run smoke timeout 300 "$prefix/bin/mpiexec" -n 2 "$sm/smoke" "--prefix=$prefix"
  echo "   $prefix/bin/mpiexec: $(grep '^smoke:' "$logs/smoke.log" | tail -n 1)"
  if command -v mpicc.mpich >/dev/null 2>&1 && command -v mpiexec.mpich >/dev/null 2>&1; then
    run smoke mpicc.mpich -o "$sm/smoke-debian" "$here/smoke.c"
    run smoke env LD_LIBRARY_PATH="$prefix/lib" timeout 300 mpiexec.mpich -n 2 \
      "$sm/smoke-debian" "--prefix=$prefix"
    echo "   built with mpicc.mpich, LD_LIBRARY_PATH: $(grep '^smoke:' "$logs/smoke.log" | tail -n 1)"
  fi
  # the engine is dataloop's: packs and messages reach libdataloop's calls
  if [ "$engine" = dataloop ]; then
    run smoke "$prefix/bin/mpicc" -rdynamic -I"$prefix/include" -o "$sm/engine" \
      "$here/engine.c" -ldl
    run smoke timeout 300 "$prefix/bin/mpiexec" -n 2 "$sm/engine"
    echo "   $(grep '^engine:' "$logs/smoke.log" | tail -n 1)"
  fi
fi

# ------------------------------------------------------------- report
total=$(($(date +%s) - t_start))
conf_time="configure reused"
[ "$fresh" = 1 ] && conf_time="configure ${took[configure]} s (${cpu[configure]} s)"
what="MPICH's own dataloop engine"
[ "$engine" = dataloop ] && what="the project's backend from $seam"
cat <<EOF

MPICH 4.0.2 ($device) with $what, in $prefix
time (wall, CPU): $conf_time, make ${took[make]} s (${cpu[make]} s), install ${took[install]} s (${cpu[install]} s); total ${total} s (logs in $logs)

Use it:
  $prefix/bin/mpicc prog.c -o prog && $prefix/bin/mpiexec -n 2 ./prog
Programs linked with Debian's MPICH (mpicc.mpich, ScaLAPACK's testers):
  LD_LIBRARY_PATH=$prefix/lib mpiexec.mpich -n 2 ./prog
or, for both: . $prefix/env.sh
EOF
