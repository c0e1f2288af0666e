##
## MPICH's typerep on dataloop (the project's src/mpich/typerep/, copied
## here with src/mpich/tr*.{c,h} and src/mpi/named.{c,h} by
## tools/mpich/build.sh). Replaces MPICH's
## src/mpi/datatype/typerep/src/Makefile.mk; links -ldataloop.
##

mpi_core_sources += \
    src/mpi/datatype/typerep/src/typerep_util.c \
    src/mpi/datatype/typerep/src/typerep_init.c \
    src/mpi/datatype/typerep/src/typerep_create.c \
    src/mpi/datatype/typerep/src/typerep_commit.c \
    src/mpi/datatype/typerep/src/typerep_pack.c \
    src/mpi/datatype/typerep/src/typerep_iov.c \
    src/mpi/datatype/typerep/src/typerep_external.c \
    src/mpi/datatype/typerep/src/typerep_op.c \
    src/mpi/datatype/typerep/src/typerep_flatten.c \
    src/mpi/datatype/typerep/src/tr_fields.c \
    src/mpi/datatype/typerep/src/tr_cursor.c \
    src/mpi/datatype/typerep/src/tr_stream.c \
    src/mpi/datatype/typerep/src/tr_iov.c \
    src/mpi/datatype/typerep/src/tr_op.c \
    src/mpi/datatype/typerep/src/named.c

noinst_HEADERS += \
    src/mpi/datatype/typerep/src/typerep_internal.h \
    src/mpi/datatype/typerep/src/typerep_pre.h \
    src/mpi/datatype/typerep/src/tr.h \
    src/mpi/datatype/typerep/src/named.h \
    src/mpi/datatype/typerep/src/errclass.h
