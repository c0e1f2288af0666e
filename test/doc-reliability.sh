#!/bin/sh
# doc/reliability.md names the test that proves each claim: every
# `test/FILE.c: NAME` there must be a test in that file, and every file or
# regression input it names must exist.
srcdir=${srcdir:-.}
doc=$srcdir/doc/reliability.md
status=0
pairs=$(grep -o '`test/[A-Za-z0-9_/]*\.c: [A-Za-z0-9_]*`' "$doc" | tr -d '`' | sort -u)
[ -n "$pairs" ] || { echo "no test references found in $doc" >&2; exit 1; }
for p in $(echo "$pairs" | tr ' ' '#'); do
  file=${p%%:*}
  name=${p#*:#}
  if ! grep -q "^START_TEST($name)" "$srcdir/$file" 2>/dev/null; then
    echo "$doc names $file: $name, which is not a test there" >&2
    status=1
  fi
done
for f in $(grep -o '`test/[A-Za-z0-9_./-]*`' "$doc" | tr -d '`' | sort -u); do
  case $f in
  test/fuzz/replay-*) f=test/fuzz/replay.c ;;      # built from replay.c
  esac
  [ -e "$srcdir/$f" ] || { echo "$doc names $f, which does not exist" >&2; status=1; }
done
[ $status -eq 0 ] && echo "ok: $(echo "$pairs" | wc -l) tests named in doc/reliability.md exist"
exit $status
