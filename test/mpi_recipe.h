/* Random type recipes (randtype.h) built with MPI's own constructors, so
 * MPICH can serve as a second, independent oracle; and the list of
 * constructs for which MPICH is known to depart from the MPI standard. */
#ifndef TEST_MPI_RECIPE_H
#define TEST_MPI_RECIPE_H

#include <mpi.h>
#include "randtype.h"

/* the MPI predefined type for a dataloop one (MPI_DATATYPE_NULL if none) */
MPI_Datatype mpi_builtin(dl_builtin_t b);

/* the recipe built with MPI constructors, uncommitted (a predefined type
   for RT_BUILTIN, which must not be freed). Returns MPI_SUCCESS or the
   first failing constructor's error code. */
int recipe_build_mpi(const recipe *rc, MPI_Datatype *out);
/* the same with the classic constructors (int counts): ROMIO reads types
   by MPI_Type_get_envelope/contents, which MPICH refuses for types built
   with the large-count (_c) constructors */
int recipe_build_mpi_classic(const recipe *rc, MPI_Datatype *out);

/* The recipe built with MPI's constructors (as recipe_build_mpi) and its
   typemap model as the host MPI places data: each level modelled the
   standard's way over its children, then resized to the lb and extent the
   MPI library reports for it (MPI_Type_get_extent). What an interposed
   MPI_Pack must produce (doc/mpi.md). */
int recipe_host(const recipe *rc, MPI_Datatype *out, model **m);

/* Constructs for which MPICH 4.0.2 answers differently from the standard
   (bounds or packed bytes), or not at all. Each was confirmed with a hand-built type, and
   test_mpich.c has one test per class pinning MPICH's actual answer. */
enum {
  DEV_STRUCT_MARKERS = 1 << 0,     /* a struct ignores members' resized
                                      lb/ub markers: bounds over all members,
                                      then padded */
  DEV_STRUCT_ZERO_MEMBER = 1 << 1, /* an empty member still extends a
                                      struct's bounds and true bounds */
  DEV_STRUCT_NO_PAD = 1 << 2,      /* a struct whose members are all one
                                      type is built as hindexed: no padding */
  DEV_ZERO_STICKY = 1 << 3,        /* an empty type with lb/ub markers, when
                                      replicated, becomes a zero-length type
                                      at 0: the markers are dropped */
  DEV_ZERO_BLOCKLEN = 1 << 4,      /* a blocklength-0 (h)vector or
                                      (h)indexed_block type is empty but has
                                      bounds spanning its displacements */
  DEV_DARRAY_TRUE = 1 << 5,        /* darray with a cyclic(>= 2) dimension:
                                      wrong true lb/extent (data, lb and
                                      extent are right) */
  DEV_NEG_BLOCK = 1 << 6,          /* a block of >= 2 copies of a
                                      negative-extent type: MPI_Pack puts
                                      the next block in the wrong place,
                                      outside the type's bounds: must not
                                      be packed on a buffer that only
                                      covers them */
  DEV_PACK_CRASH = 1 << 7,         /* MPI_Pack divides by zero on a struct
                                      holding a blocklength-0 vector member:
                                      must not be packed */
  DEV_NCLASSES = 8
};
#define DEV_NO_PACK (DEV_NEG_BLOCK | DEV_PACK_CRASH)
extern const char *const dev_names[DEV_NCLASSES];

/* the DEV_* classes whose trigger occurs, live, somewhere in the recipe
   (0: MPICH should agree with the standard exactly) */
unsigned recipe_mpich_deviates(const recipe *rc);

/* whether the recipe uses a long double element (MPICH's pack leaves the
   6 padding bytes of each x87 value unwritten) */
bool recipe_has_long_double(const recipe *rc);

/* Whether MPICH 4.0.2's MPI_Pack_external may be asked about a random type
   of one basic type, and is then right: its typemap is the standard's, and
   it holds nothing MPICH's external32 dies on (an empty type, a struct with
   an empty member, a cyclic darray). */
bool mpich_external_ok(const rtype *rt, MPI_Datatype mt);
/* Whether MPICH 4.0.2's MPI_Pack_external may be asked about a random type
   of one basic type at all; it then places data as recipe_host's model
   says (its own bounds at every level) */
bool mpich_external_host_ok(const rtype *rt);

#endif
