/* Decoded types by structure (shape.c): two derived datatypes made by the
 * same constructors with the same arguments from the same (predefined, or
 * alike) types decode to the same dataloop type, so a program that builds
 * a type for every call (create, commit, use, free) decodes it once. A key
 * is a list of 64-bit words: a type's combiner, its arguments and its
 * children (a predefined one by its handle, a derived one by its shape). */
#ifndef DLI_SHAPE_H
#define DLI_SHAPE_H

#include <stddef.h>
#include <stdint.h>
#include "bridge.h"

/* keys longer than this are not kept (a type of many blocks, unlikely to
   be made again, and costly to hold) */
#define DLI_SHAPE_MAX_KEY 1024

/* the shape kept under key[0..n) (an id > 0, never reused), with its type
   (retained for the caller) and what the bridge learnt of it; 0 when
   there is none. Callers serialize the calls (the bridge's build lock). */
DLI_HIDDEN uint64_t dli_shape_find(const int64_t *key, size_t n, dl_type **t,
                                   dli_mpi_info *info);
/* keeps t (retained) and info under key[0..n): the new shape's id, or 0
   when it was not kept (key too long, no memory); the oldest shape goes
   when too many are kept */
DLI_HIDDEN uint64_t dli_shape_add(const int64_t *key, size_t n, dl_type *t,
                                  const dli_mpi_info *info);
/* forgets every shape (MPI_Finalize) */
DLI_HIDDEN void dli_shape_flush(void);

#endif
