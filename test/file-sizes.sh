#!/bin/sh
# One idea per file: no library source file (the core, the actions, the
# segments, src/) over 600 lines. Fails naming every file over it.
s=${srcdir:-.}
limit=600
over=$(find "$s/dataloop" "$s/segment" "$s/actions" "$s/src" -name '*.c' -type f \
         2>/dev/null | xargs wc -l | awk -v m=$limit '$2 != "total" && $1 > m')
[ -d "$s/src" ] || { echo "no sources under $s" >&2; exit 77; }
if [ -n "$over" ]; then
  echo "library files over $limit lines:" >&2
  echo "$over" >&2
  exit 1
fi
exit 0
