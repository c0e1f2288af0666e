#!/bin/sh
# demo-seam.sh MPICH_TREE OUT: a stand-in backend for tools/mpich/build.sh,
# made from MPICH's own dataloop engine, to check the build machinery
# before (or beside) the project's backend in src/mpich/.
#
#   tools/mpich/demo-seam.sh mpich-suite-work/src/mpich-4.0.2 /tmp/seam
#   tools/mpich/build.sh --engine dataloop --seam /tmp/seam
#
# OUT/typerep/ follows the seam's rule (doc/mpich.md, "The seam"): its
# files go to MPICH's src/mpi/datatype/typerep/src/, and the build removes
# src/mpi/datatype/typerep/dataloop/. It holds
#   mpich_loop/          MPICH's dataloop/ sources, its dataloop.h renamed
#                        mpich_dataloop.h (includes rewritten to match)
#   typerep_*.c          MPICH's backend files that include dataloop.h,
#                        rewritten the same way
#   typerep_dl_probe.c   includes <dataloop.h> (fails to compile unless the
#                        project's header is the one found) and exports
#                        MPII_Typerep_dataloop_version(), which calls
#                        dl_version() (so libmpich needs -ldataloop)
#   Makefile.mk          the replacement list of sources
# So the result runs MPICH's own engine, built through every step a real
# backend takes: files replaced and added, MPICH's dataloop/ gone, the
# makefiles regenerated, the project's header and library found.
set -eu

die() {
  echo "demo-seam.sh: error: $*" >&2
  exit 1
}

[ $# -eq 2 ] || die "usage: demo-seam.sh MPICH_TREE OUT"
tree=$1
out=$2
typerep=$tree/src/mpi/datatype/typerep
if [ ! -d "$typerep/dataloop" ] || [ ! -d "$typerep/src" ]; then
  die "$tree is not an MPICH 4 source tree (no $typerep/dataloop)"
fi

rm -rf "$out/typerep"
mkdir -p "$out/typerep/mpich_loop"

# MPICH's includes of its dataloop.h, in either spelling, to NAME
rename_include() { # file name
  sed -e "s|#include[[:space:]]*[<\"]dataloop\.h[>\"]|#include \"$2\"|" "$1"
}

for f in "$typerep"/dataloop/*.c "$typerep"/dataloop/*.h; do
  b=${f##*/}
  [ "$b" = dataloop.h ] && b=mpich_dataloop.h
  rename_include "$f" mpich_dataloop.h >"$out/typerep/mpich_loop/$b"
done

backend=""
for f in "$typerep"/src/*.c; do
  b=${f##*/}
  case $b in typerep_yaksa_*) continue ;; esac
  backend="$backend $b"
  if grep -q '#include[[:space:]]*[<"]dataloop\.h[>"]' "$f"; then
    rename_include "$f" mpich_loop/mpich_dataloop.h >"$out/typerep/$b"
  fi
done

cat >"$out/typerep/typerep_dl_probe.c" <<'EOF'
/* demo seam: the project's dataloop.h must be the one on the include path */
#include <dataloop.h>

#ifndef DL_VERSION_MAJOR
#error "<dataloop.h> is not the dataloop project's header"
#endif

const char *MPII_Typerep_dataloop_version(void);

const char *MPII_Typerep_dataloop_version(void)
{
    return dl_version();
}
EOF

# make's "VAR += a b" over several lines, the last without a backslash
am_list() { # var words...
  v=$1
  shift
  printf '%s +=' "$v"
  for w in "$@"; do printf ' \\\n    %s' "$w"; done
  printf '\n'
}

{
  echo "## demo seam made by tools/mpich/demo-seam.sh from MPICH's own engine"
  echo
  d=src/mpi/datatype/typerep/src
  srcs=""
  for b in $backend typerep_dl_probe.c; do srcs="$srcs $d/$b"; done
  for f in "$out"/typerep/mpich_loop/*.c; do srcs="$srcs $d/mpich_loop/${f##*/}"; done
  hdrs="$d/typerep_internal.h $d/typerep_pre.h"
  for f in "$out"/typerep/mpich_loop/*.h; do hdrs="$hdrs $d/mpich_loop/${f##*/}"; done
  # shellcheck disable=SC2086  # word lists
  am_list mpi_core_sources $srcs
  echo
  # shellcheck disable=SC2086
  am_list noinst_HEADERS $hdrs
} >"$out/typerep/Makefile.mk"

echo "demo-seam.sh: wrote $out/typerep ($(find "$out/typerep" -type f | wc -l) files)"
