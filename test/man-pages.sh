#!/bin/sh
# The reference pages (doc/man) against the code: (a) every dl_ function
# the libraries export is named in some page's NAME section and has a page
# of its own name (the page or a .so link), (b) every page renders without
# a groff warning and has the required sections, (c) every SYNOPSIS
# statement is text of the header the page includes (whitespace-normalised,
# comments dropped), (d) every page is installed (doc/man/Makefile.inc).
# The interposer's dl_preload_* calls are documented in doc/mpi.md, not here.
src=${srcdir:-.}
bld=${top_builddir:-.}
man=$src/doc/man
command -v groff >/dev/null 2>&1 || {
  echo "groff not found (Debian: groff-base)" >&2; exit 77; }
status=0
fail() { echo "man-pages: $*" >&2; status=1; }

pages=$(ls "$man"/*.3)
real=""
for p in $pages; do
  if grep -q '^\.so ' "$p"; then
    t=$(sed -n 's/^\.so man3\///p' "$p")
    [ -f "$man/$t" ] || fail "$p: .so target $t missing"
  else
    real="$real $p"
  fi
done
[ -n "$real" ] || { fail "no pages in $man"; exit 1; }

# (a) exported functions: the shared libraries' dynamic symbols, or the
# static archives' global ones when built without shared libraries
syms=""
for lib in libdataloop libdataloop-mpi; do
  if [ -f "$bld/.libs/$lib.so" ]; then
    syms="$syms $(nm -D --defined-only "$bld/.libs/$lib.so" | awk '$2 == "T" && $3 ~ /^dl_/ {print $3}')"
  elif [ -f "$bld/.libs/$lib.a" ]; then
    syms="$syms $(nm --defined-only "$bld/.libs/$lib.a" 2>/dev/null | awk '$2 == "T" && $3 ~ /^dl_/ {print $3}')"
  elif [ "$lib" = libdataloop ]; then
    fail "no $lib built in $bld/.libs"
  fi
done
syms=$(echo $syms | tr ' ' '\n' | sort -u)
[ -n "$syms" ] || fail "no dl_ functions found"
named=$(for p in $real; do
  sed -n '/^\.SH NAME/{n;p;q;}' "$p" | sed 's/ \\-.*//' | tr ',' '\n'
done | tr -d ' ' | sort -u)
for f in $syms; do
  echo "$named" | grep -qx "$f" || fail "$f: exported but in no page's NAME section"
done
for f in $named; do
  [ -f "$man/$f.3" ] || fail "$f: no doc/man/$f.3 (man $f would not find its page)"
done

# (b) rendering and sections
for p in $real; do
  out=$(groff -man -Tutf8 -ww -z "$p" 2>&1) || fail "$p: groff failed"
  [ -z "$out" ] || fail "$p: groff warnings:
$out"
  grep -q '^\.TH ' "$p" || fail "$p: no .TH"
  for s in NAME SYNOPSIS DESCRIPTION 'RETURN VALUE' ERRORS 'SEE ALSO'; do
    grep -q "^\.SH \"*$s\"*\$" "$p" || fail "$p: no $s section"
  done
done

# (c) SYNOPSIS statements against the header, comments stripped
flat() { tr '\n\t' '  ' | sed 's:/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/: :g' | tr -s ' '; }
for p in $real; do
  syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$p" | sed -n '/^\.nf/,/^\.fi/p')
  h=$(echo "$syn" | sed -n 's/^\.B #include <\(.*\)>$/\1/p' | head -n 1)
  [ -n "$h" ] && [ -f "$src/include/$h" ] || { fail "$p: SYNOPSIS names no header of include/"; continue; }
  head=$(flat < "$src/include/$h")
  n=0
  stmts=$(echo "$syn" | grep -v '^\.' | grep -v '^#' | flat | tr ';' '\n')
  echo "$stmts" | while IFS= read -r st; do
    st=$(echo "$st" | sed 's/^ *//; s/ *$//')
    [ -n "$st" ] || continue
    case "$head" in
      *"$st;"*) ;;
      *) echo "man-pages: $p: SYNOPSIS \"$st;\" is not in include/$h" >&2; exit 1 ;;
    esac
  done || status=1
  n=$(echo "$stmts" | grep -c '(')
  [ "$n" -gt 0 ] || fail "$p: SYNOPSIS has no prototype"
done

# (d) installed: every page is listed for make install
for p in $pages; do
  b=$(basename "$p")
  grep -q "doc/man/$b\\b" "$src/doc/man/Makefile.inc" ||
    fail "$b: not listed in doc/man/Makefile.inc (not installed)"
done
[ $status -eq 0 ] && echo "man-pages: $(echo $real | wc -w) pages, $(echo $pages | wc -w) files, $(echo $syms | wc -w) functions checked"
exit $status
