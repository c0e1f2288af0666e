/* Constructors whose MPI arguments need translating into dataloop's
 * (subarray, darray, the Fortran 90 parameterized types): the decoder's
 * (from_mpi.c) one-to-one part, apart from what it learns of a type. */
#ifndef DLI_COMBINERS_H
#define DLI_COMBINERS_H

#include "dataloop.h"
#include "contents.h"

/* c: a subarray's or darray's contents, old: its decoded old type */
DLI_HIDDEN int dli_subarray(const dli_contents *c, dl_type *old, dl_type **out);
DLI_HIDDEN int dli_darray(const dli_contents *c, dl_type *old, dl_type **out);
/* dt of combiner comb, an MPI_COMBINER_F90_*: the predefined type of its size */
DLI_HIDDEN int dli_f90(MPI_Datatype dt, int comb, dl_type **out);

#endif
