/* MPICH's typerep handle, dataloop's engine: a type is a dl_type. Replaces
 * MPICH's typerep_pre.h (src/mpi/datatype/typerep/src/). */
#ifndef TYPEREP_PRE_H_INCLUDED
#define TYPEREP_PRE_H_INCLUDED

#define MPICH_DATATYPE_ENGINE_YAKSA    (1)
#define MPICH_DATATYPE_ENGINE_DATALOOP (2)

/* every copy is done when the call returns: requests are never pending */
typedef int MPIR_Typerep_req;
#define MPIR_TYPEREP_REQ_NULL 0
#define MPIR_TYPEREP_HANDLE_TYPE struct dl_type *
#define MPIR_TYPEREP_HANDLE_NULL NULL

#endif /* TYPEREP_PRE_H_INCLUDED */
