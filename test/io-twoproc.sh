#!/bin/sh
# Two processes (mpiexec -n 2) write interleaved views of one file with
# data sieving on; see test/test_io_twoproc.c.
if [ -z "${MPIEXEC:-}" ]; then
  echo "no mpiexec found by configure" >&2
  exit 77
fi
exec "$MPIEXEC" -n 2 "${top_builddir:-.}/test/test_io_twoproc"
