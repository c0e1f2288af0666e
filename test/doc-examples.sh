#!/bin/sh
# doc/design.md shows exactly the trees doc/dl-examples prints.
srcdir=${srcdir:-.}
prog=${top_builddir:-.}/doc/dl-examples
[ -x "$prog" ] || { echo "doc/dl-examples not built" >&2; exit 1; }
want=$(sed -n '/<!-- examples: begin/,/<!-- examples: end/p' "$srcdir/doc/design.md" | sed '1,2d;$d')
got=$("$prog")
if [ "$want" != "$got" ]; then
  echo "doc/design.md is out of date with doc/dl-examples; differences:" >&2
  printf '%s\n' "$want" > doc-want.tmp
  printf '%s\n' "$got" > doc-got.tmp
  diff doc-want.tmp doc-got.tmp >&2
  rm -f doc-want.tmp doc-got.tmp
  exit 1
fi
echo "ok: doc/design.md matches the code"
