#!/bin/sh
# conf.sh OUTDIR: write the headers that the `configure` of MPICH's test
# suite (test/mpi/configure.ac) and of its DTPools library
# (test/mpi/dtpools/configure.ac) would have made, OUTDIR/mpitestconf.h and
# OUTDIR/dtpoolsconf.h, for the installed MPICH and its compiler.
#
# Every macro that configure decides by a check is decided here by the same
# kind of check (a header or type that compiles, a function that links, a
# size that a program prints), with $MPICC (default mpicc.mpich;
# mpicc.openmpi for the same programs on Open MPI). Macros that
# follow from configure's options take their defaults: not strict MPI,
# spawn and RMA enabled, long double complex enabled, POSIX threads. Left
# out: the GPU macros (no GPU support configured), the Fortran name-mangling
# macros and the C++ ones (only the Fortran and C++ tests use them).
set -eu

die() {
  echo "conf.sh: error: $*" >&2
  exit 1
}

[ $# -eq 1 ] || die "usage: conf.sh OUTDIR"
out=$1
mkdir -p "$out"
cc=${MPICC:-mpicc.mpich}
command -v "$cc" >/dev/null 2>&1 || die "$cc not found"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpich-conf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# compiles: a translation unit that compiles (with -Werror for declarations)
compiles() {
  printf '%s\n' "$1" >"$tmp/t.c"
  "$cc" -Werror=implicit-function-declaration -c -o "$tmp/t.o" "$tmp/t.c" >/dev/null 2>&1
}
# links: a program that links
links() {
  printf '%s\n' "$1" >"$tmp/t.c"
  "$cc" -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1
}

hdr=""
define() { hdr="$hdr
/* $3 */
#define $1 $2"; }
undef() { hdr="$hdr
/* $2 */
/* #undef $1 */"; }

have_header() { # header macro
  if compiles "#include <$1>"; then
    define "$2" 1 "Define to 1 if you have the <$1> header file."
  else
    undef "$2" "Define to 1 if you have the <$1> header file."
  fi
}
# the C headers, and strdup (which may need a declaration), both files have
common_checks() { # header...
  define STDC_HEADERS 1 "Define to 1 if you have the ANSI C header files."
  for h in "$@"; do
    m=$(echo "HAVE_$h" | tr 'a-z./' 'A-Z__')
    have_header "$h" "$m"
  done
  if have_func strdup HAVE_STRDUP; then
    needs_decl "#include <string.h>" strdup NEEDS_STRDUP_DECL
  fi
}
have_func() { # func macro
  if links "char $1(void); int main(void) { return (int)(long)&$1 != 0 ? 0 : 1; }"; then
    define "$2" 1 "Define to 1 if you have the '$1' function."
    return 0
  fi
  undef "$2" "Define to 1 if you have the '$1' function."
  return 1
}
needs_decl() { # includes func macro (PAC_FUNC_NEEDS_DECL)
  if compiles "$1
void (*fptr)(void) = (void (*)(void))$2;"; then
    undef "$3" "Define if $2 needs a declaration"
  else
    define "$3" 1 "Define if $2 needs a declaration"
  fi
}
have_type() { # type macro
  if compiles "$1 x; int y = sizeof($1);"; then
    define "$2" 1 "Define to 1 if the system has the type '$1'."
    return 0
  fi
  undef "$2" "Define to 1 if the system has the type '$1'."
  return 1
}

# ---- mpitestconf.h
hdr="/* mpitestconf.h: written by dataloop's test/mpich-suite/conf.sh for
   $("$cc" --version 2>/dev/null | head -n 1) and the installed MPI,
   in place of what MPICH's test/mpi/configure would write. */
#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED"

common_checks dlfcn.h inttypes.h memory.h stdint.h stdlib.h strings.h string.h \
  sys/stat.h sys/types.h unistd.h stdarg.h sys/time.h sys/resource.h \
  pthread.h iostream.h
have_func getrusage HAVE_GETRUSAGE || true
if have_func usleep HAVE_USLEEP; then
  needs_decl "#include <unistd.h>" usleep NEEDS_USLEEP_DECL
fi

# long double, long long (enable-long-double is configure's default)
if compiles "long double a;"; then
  define HAVE_LONG_DOUBLE 1 "Define if long double is supported"
  ld=yes
else
  ld=no
fi
compiles "long long a;" &&
  define HAVE_LONG_LONG 1 "Define if compiler supports long long"
have_type _Bool HAVE__BOOL || true
have_type "float _Complex" HAVE_FLOAT__COMPLEX || true
have_type "double _Complex" HAVE_DOUBLE__COMPLEX || true
if have_type "long double _Complex" HAVE_LONG_DOUBLE__COMPLEX && [ "$ld" = yes ]; then
  define USE_LONG_DOUBLE_COMPLEX 1 "Define if tests with long double complex should be included"
fi

# MPI features: configure's defaults for MPICH (spawn and RMA enabled);
# MPI-IO, MPI_INTEGER16 and the Fortran binding as the installed MPICH has
define HAVE_MPI_SPAWN 1 "Define if Dynamic Process functionality is available"
define HAVE_MPI_WIN_CREATE 1 "Define if MPI_Win_create is available"
links "#include <mpi.h>
int main(void) { MPI_File f; return MPI_File_close(&f); }" &&
  define HAVE_MPI_IO 1 "Define if MPI-IO (really ROMIO) is included"
compiles "#include <mpi.h>
#include <mpio.h>
MPIO_Request r; MPI_Request *p = &r;" &&
  define MPIO_USES_MPI_REQUEST 1 "Define if MPI IO uses MPI_Request"
compiles "#include <mpi.h>
MPI_Datatype t = MPI_INTEGER16;" &&
  define HAVE_MPI_INTEGER16 1 "Define if MPI_INTEGER16 is available"
# configure defines it when a Fortran compiler builds an mpif.h program:
# the MPI's Fortran wrapper is installed and compiles one
fc=""
fcs="mpifort.mpich mpif77.mpich"
case $cc in *openmpi*) fcs="mpifort.openmpi mpif77.openmpi" ;; esac
for f in $fcs; do
  command -v "$f" >/dev/null 2>&1 && { fc=$f; break; }
done
if [ -n "$fc" ]; then
  printf '      program main\n      include '"'"'mpif.h'"'"'\n      integer ierr\n      call mpi_init(ierr)\n      call mpi_finalize(ierr)\n      end\n' >"$tmp/f.f"
  if "$fc" -o "$tmp/f" "$tmp/f.f" >/dev/null 2>&1; then
    define HAVE_FORTRAN_BINDING 1 "Define if Fortran is supported"
  fi
fi
compiles "#include <netdb.h>
struct hostent h; char **p = h.h_addr_list;" &&
  define HAVE_H_ADDR_LIST 1 "Define if struct hostent contains h_addr_list"

# sizes, and the pointer-sized integer
printf '%s\n' '#include <stdio.h>
#include <mpi.h>
int main(void) {
  printf("%d %d %d %d %d %d\n", (int)sizeof(void *), (int)sizeof(int),
         (int)sizeof(long), (int)sizeof(long long), (int)sizeof(short),
         (int)sizeof(MPI_Offset));
  return 0;
}' >"$tmp/s.c"
"$cc" -o "$tmp/s" "$tmp/s.c" >/dev/null 2>&1 || die "$cc cannot build a program"
# shellcheck disable=SC2046  # six numbers
set -- $("$tmp/s")
[ $# -eq 6 ] || die "size probe failed"
define SIZEOF_VOID_P "$1" "The size of 'void *', as computed by sizeof."
define SIZEOF_INT "$2" "The size of 'int', as computed by sizeof."
define SIZEOF_LONG "$3" "The size of 'long', as computed by sizeof."
define SIZEOF_LONG_LONG "$4" "The size of 'long long', as computed by sizeof."
define SIZEOF_SHORT "$5" "The size of 'short', as computed by sizeof."
define SIZEOF_MPI_OFFSET "$6" "The size of 'MPI_Offset', as computed by sizeof."
pint=MPI_Aint
if [ "$2" = "$1" ]; then pint=int
elif [ "$3" = "$1" ]; then pint=long
elif [ "$4" = "$1" ]; then pint="long long"
elif [ "$5" = "$1" ]; then pint=short
fi
define POINTERINT_t "$pint" "POINTERINT_t is a pointer-sized integer"

define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX "set to the name of the thread package"
define PACKAGE '"mpich-testsuite"' "Name of package"
define PACKAGE_NAME '"mpich-testsuite"' "Define to the full name of this package."
define PACKAGE_TARNAME '"mpich-testsuite"' "Define to the one symbol short name of this package."
# the MPI's version: MPICH's, or Open MPI's three numbers
v=$(printf '#include <mpi.h>\ndl_mpich_version MPICH_VERSION\n' |
  "$cc" -E -P -x c - 2>/dev/null | sed -n 's/^dl_mpich_version *"\(.*\)".*/\1/p')
[ -n "$v" ] || v=$(printf '#include <mpi.h>\ndl_ompi_version OMPI_MAJOR_VERSION OMPI_MINOR_VERSION OMPI_RELEASE_VERSION\n' |
  "$cc" -E -P -x c - 2>/dev/null | sed -n 's/^dl_ompi_version *\([0-9]*\) *\([0-9]*\) *\([0-9]*\).*/\1.\2.\3/p')
[ -n "$v" ] || die "cannot read MPICH_VERSION nor Open MPI's version from mpi.h"
define PACKAGE_VERSION "\"$v\"" "Define to the version of this package."
define VERSION "\"$v\"" "Version number of package"
define PACKAGE_STRING "\"mpich-testsuite $v\"" "Define to the full name and version of this package."
define PACKAGE_BUGREPORT '"discuss@mpich.org"' "Define to the address where bug reports for this package should be sent."
define PACKAGE_URL '"http://www.mpich.org/"' "Define to the home page for this package."

hdr="$hdr

#endif"
printf '%s\n' "$hdr" >"$tmp/mpitestconf.h"

# ---- dtpoolsconf.h: dtpools/configure.ac checks only headers and two
# functions
hdr="/* dtpoolsconf.h: written by dataloop's test/mpich-suite/conf.sh in
   place of what MPICH's test/mpi/dtpools/configure would write. */
#ifndef DTPOOLSCONF_H_INCLUDED
#define DTPOOLSCONF_H_INCLUDED"
common_checks dlfcn.h inttypes.h limits.h memory.h stdint.h stdlib.h strings.h \
  string.h sys/stat.h sys/types.h unistd.h
have_func memset HAVE_MEMSET || true
define PACKAGE '"dtpools"' "Name of package"
define PACKAGE_NAME '"dtpools"' "Define to the full name of this package."
define PACKAGE_TARNAME '"dtpools"' "Define to the one symbol short name of this package."
define PACKAGE_VERSION '"0.0"' "Define to the version of this package."
define VERSION '"0.0"' "Version number of package"
define PACKAGE_STRING '"dtpools 0.0"' "Define to the full name and version of this package."
hdr="$hdr

#endif /* !defined(DTPOOLSCONF_H_INCLUDED) */"
printf '%s\n' "$hdr" >"$tmp/dtpoolsconf.h"

# replace only when changed, so that make rebuilds only then
for f in mpitestconf.h dtpoolsconf.h; do
  cmp -s "$tmp/$f" "$out/$f" 2>/dev/null || cp "$tmp/$f" "$out/$f"
done
