#!/bin/sh
# The semantics suite (test/semantics.sh) on Open MPI: the programs of the
# parts the interposer serves there, built against Open MPI, under
# libdataloop-mpi-preload-openmpi.so and mpiexec.openmpi
SEM_HOST=openmpi
export SEM_HOST
exec sh "${srcdir:-.}/test/semantics.sh" "$@"
