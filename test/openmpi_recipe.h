/* Constructs for which Open MPI 4.1 places data elsewhere than the MPI
 * standard says (found by test_openmpi's random types against Open MPI's
 * own MPI_Pack, each cause read from Open MPI's datatype code and pinned
 * by a test of its own there), as predicates on a random type's recipe. */
#ifndef TEST_OPENMPI_RECIPE_H
#define TEST_OPENMPI_RECIPE_H

#include "randtype.h"

enum {
  ODEV_STRIDE_MINUS_ONE = 1 << 0, /* a vector or hvector of 2 or more blocks
                                     whose stride in bytes is -1: Open MPI
                                     takes -1 as "the old type's extent" and
                                     lays the blocks out contiguously (other
                                     bounds, other bytes) */
  ODEV_EMPTY_AFTER_DATA = 1 << 1, /* a struct with a member of no data but
                                     with bounds (blocklength >= 1 of an
                                     empty type) after a member with data:
                                     the bounds take it in, the flag that
                                     says "no gaps" is not cleared, so
                                     copies 2 and on are packed back to
                                     back (count >= 2, or any enclosing
                                     repetition) */
  ODEV_NCLASSES = 2
};
extern const char *const odev_names[ODEV_NCLASSES];

/* the ODEV_* classes that occur somewhere in the recipe (0: Open MPI
   places every byte where the standard does, at its own bounds) */
unsigned recipe_openmpi_deviates(const recipe *rc);

#endif
