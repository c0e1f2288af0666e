#!/bin/sh
# Every shared library of the project exports dl_* symbols only.
libs=$(find "${top_builddir:-.}/.libs" -name 'libdataloop*.so.*.*' -type f 2>/dev/null)
if [ -z "$libs" ]; then
  echo "no shared library built (configured with --disable-shared?)" >&2
  exit 77
fi
status=0
for lib in $libs; do
  bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v '^dl_' || true)
  if [ -n "$bad" ]; then
    echo "$lib exports symbols without the dl_ prefix:" >&2
    echo "$bad" >&2
    status=1
  fi
  n=$(nm -D --defined-only "$lib" | grep -c ' T dl_')
  echo "$lib: $n dl_ functions"
done
lib=$(echo "$libs" | grep '/libdataloop\.so' | head -n 1)
for f in dl_strerror dl_type_commit dl_type_free; do
  nm -D --defined-only "$lib" | grep -q " T $f\$" || { echo "$f not exported" >&2; status=1; }
done
exit $status
