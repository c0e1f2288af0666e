/* Commit and free: a dataloop type is committed when built (commit only
 * marks it), and freed with its MPICH object's last reference. */
#include "typerep_internal.h"

void MPIR_Typerep_commit(MPI_Datatype type)
{
  (void)type;
}

void MPIR_Typerep_free(MPIR_Datatype *typeptr)
{
  if (typeptr->typerep.handle)
    dl_type_free(&typeptr->typerep.handle);
}
