/* MPI_Type_create_indexed_block and MPI_Type_create_hindexed_block: the
 * block list of indexed with one length for every block. */
#include "build.h"

int dl_type_indexed_block(dl_count count, dl_count blocklen,
                          const dl_count *displs, dl_type *old, dl_type **out)
{
  return dli_type_blocks(count, NULL, blocklen, displs, false, old, out);
}

int dl_type_hindexed_block(dl_count count, dl_count blocklen,
                           const dl_aint *displs, dl_type *old, dl_type **out)
{
  return dli_type_blocks(count, NULL, blocklen, displs, true, old, out);
}
