#!/bin/sh
# The shared library exports dl_* symbols only.
lib=$(find "${top_builddir:-.}/.libs" -name 'libdataloop.so*' -type f 2>/dev/null | head -n 1)
if [ -z "$lib" ]; then
  echo "libdataloop.so not built (configured with --disable-shared?)" >&2
  exit 77
fi
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v '^dl_' || true)
if [ -n "$bad" ]; then
  echo "symbols exported without the dl_ prefix:" >&2
  echo "$bad" >&2
  exit 1
fi
n=$(nm -D --defined-only "$lib" | grep -c ' T dl_')
for f in dl_strerror dl_type_commit dl_type_free; do
  nm -D --defined-only "$lib" | grep -q " T $f\$" || { echo "$f not exported" >&2; exit 1; }
done
echo "ok: $n dl_ functions, nothing else exported"
