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

# doc/flash-ir.ll is the IR the code generator emits for the Flash type
# (built --with-llvm; without LLVM there is no IR to compare)
"$prog" --flash-ir 2> flash-ir.tmp > /dev/null && rc=0 || rc=$?
if [ "$rc" -eq 2 ]; then
  echo "note: built without LLVM, doc/flash-ir.ll not compared"
elif [ "$rc" -ne 0 ]; then
  echo "dl-examples --flash-ir failed ($rc)" >&2
  rm -f flash-ir.tmp
  exit 1
elif ! cmp -s flash-ir.tmp "$srcdir/doc/flash-ir.ll"; then
  echo "doc/flash-ir.ll is out of date with the code generator; differences:" >&2
  diff "$srcdir/doc/flash-ir.ll" flash-ir.tmp | head -40 >&2
  rm -f flash-ir.tmp
  exit 1
else
  echo "ok: doc/flash-ir.ll matches the code generator"
fi
rm -f flash-ir.tmp
