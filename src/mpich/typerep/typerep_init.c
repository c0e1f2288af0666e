/* Start, end and the debug print of the dataloop engine in MPICH. */
#include <stdio.h>
#include "typerep_internal.h"

void MPIR_Typerep_init(void)
{
  (void)dl_tune_get();     /* machine thresholds read once, at start */
}

void MPIR_Typerep_finalize(void)
{
  dli_tr_release();
  dli_named_free();
  dli_mpich_empty_free();
}

void MPIR_Typerep_debug(MPI_Datatype type)
{
  dl_type *t = dli_mpich_type(type);
  if (t)
    dl_type_print(stderr, t);
  else
    fprintf(stderr, "datatype 0x%x: no dataloop type\n", (unsigned)type);
}
