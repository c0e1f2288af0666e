#!/bin/sh
# ROMIO's flattening on dataloop (src/mpich/romio/flatten.c), compiled with
# ROMIO's own headers and flags from a configured MPICH 4.0.2 tree (in-source
# build: the tree tools/mpich configures), -Wall -Wextra -Werror, and tested
# by test/romio_flatten.c against the typemap model over the system's MPICH
# (pkg-config mpich); the MPICH backend's dli_mpich_type is the project's
# dl_type_from_mpi there.
#
#   test/romio-flatten.sh MPICH_TREE      (or DL_MPICH_TREE=MPICH_TREE)
#
# Without a tree it skips (exit 77), so it may sit in TESTS. Needs the
# project built (libdataloop and libdataloop-mpi in .libs). DL_TEST_SEED and
# DL_TEST_SCALE apply as in the other tests.
set -u
srcdir=${srcdir:-$(dirname "$0")/..}
top=${top_builddir:-.}
tree=${1:-${DL_MPICH_TREE:-}}
if [ -z "$tree" ]; then
  echo "no configured MPICH tree given (argument or DL_MPICH_TREE): skipped" >&2
  exit 77
fi
romio=$tree/src/mpi/romio
if [ ! -f "$romio/Makefile" ] || [ ! -f "$romio/adio/include/romioconf.h" ]; then
  echo "$tree: not a configured MPICH tree ($romio/Makefile, adio/include/romioconf.h)" >&2
  exit 99
fi
for lib in libdataloop.so libdataloop-mpi.so; do
  [ -f "$top/.libs/$lib" ] || { echo "$top/.libs/$lib: build the project first" >&2; exit 99; }
done
CC=${CC:-gcc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
work=$(mktemp -d "${TMPDIR:-/tmp}/dl-romio-flatten.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT

# ROMIO's compile line (make -n in $romio for adio/common/flatten.lo): its
# include directories, as system directories so that warnings in MPICH's
# headers are not ours; the defines of its CPPFLAGS
romio_cppflags="-DHAVE_CONFIG_H -DHAVE_ROMIOCONF_H -DFORTRANUNDERSCORE"
for d in "$romio" "$romio/adio/include" "$tree/src/include" "$romio/include" \
         "$tree/src/mpl/include" "$romio/mpi-io"; do
  romio_cppflags="$romio_cppflags -isystem $d"
done
for f in $(sed -n 's/^CPPFLAGS = //p' "$romio/Makefile"); do
  case $f in -D*) romio_cppflags="$romio_cppflags $f" ;; esac
done
warn="-std=gnu11 -Wall -Wextra -Werror -g -O2"
check_cflags=$($PKG_CONFIG --cflags check) || exit 99
check_libs=$($PKG_CONFIG --libs check) || exit 99
mpi_cflags=$($PKG_CONFIG --cflags mpich) || exit 99
mpi_libs=$($PKG_CONFIG --libs mpich) || exit 99

run() { echo "$*"; "$@" || exit 1; }
run $CC $warn -fvisibility=hidden $romio_cppflags -I"$srcdir/include" \
  -c "$srcdir/src/mpich/romio/flatten.c" -o "$work/flatten.o"
run $CC $warn $romio_cppflags -I"$srcdir/include" -I"$srcdir/test" $check_cflags \
  -c "$srcdir/test/romio_flatten.c" -o "$work/romio_flatten.o"
for f in model randtype mpi_recipe buffers; do
  run $CC $warn -I"$srcdir/include" -I"$srcdir/test" $mpi_cflags \
    -c "$srcdir/test/$f.c" -o "$work/$f.o"
done
run $CC -o "$work/romio_flatten" "$work"/*.o -L"$top/.libs" -Wl,-rpath,"$top/.libs" \
  -ldataloop-mpi -ldataloop $mpi_libs $check_libs
timeout 600 "$work/romio_flatten"
