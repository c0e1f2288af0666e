/* Handles to dataloop types, new types' MPICH fields, and errors. */
#include <pthread.h>
#include <stdio.h>
#include "typerep_internal.h"

/* MPICH's constructors make a type of count 0 without the engine
   (MPII_Type_zerolen: no typerep handle; size and bounds 0): one shared
   empty type stands for all of them */
static dl_type *empty;
static pthread_once_t empty_once = PTHREAD_ONCE_INIT;

static void make_empty(void)
{
  if (dl_type_contiguous(0, dl_builtin(DL_BYTE), &empty) == DL_OK &&
      dl_type_commit(empty) != DL_OK)
    dl_type_free(&empty);
}

void dli_mpich_empty_free(void)
{
  if (empty)
    dl_type_free(&empty);
}

dl_type *dli_mpich_type(MPI_Datatype dt)
{
  if (HANDLE_IS_BUILTIN(dt))
    return dli_named_type(dt);
  if (HANDLE_GET_KIND(dt) == HANDLE_KIND_INVALID ||
      HANDLE_GET_MPI_KIND(dt) != MPIR_DATATYPE)
    return NULL;
  MPIR_Datatype *p;
  MPIR_Datatype_get_ptr(dt, p);
  if (!p || p->typerep.handle || p->size != 0)
    return p ? p->typerep.handle : NULL;
  pthread_once(&empty_once, make_empty);
  return empty;
}

int dli_mpich_lookup(MPI_Datatype dt, const char *fn, dl_type **out)
{
  if ((*out = dli_mpich_type(dt)))
    return MPI_SUCCESS;
  char msg[128];
  snprintf(msg, sizeof msg, "dataloop %s: no dataloop type for datatype 0x%x", fn,
           (unsigned)dt);
  return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, fn, __LINE__,
                              MPI_ERR_TYPE, "**intern", "**intern %s", msg);
}

int dli_mpich_err(int rc, const char *fn)
{
  if (rc == DL_OK)
    return MPI_SUCCESS;
  int cls = dli_mpi_class_of(rc);
  const char *why = dl_last_error_detail();
  char msg[320];
  snprintf(msg, sizeof msg, "dataloop %s: %s%s%s", fn, dl_strerror(rc),
           *why ? ": " : "", why);
  return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, fn, __LINE__, cls,
                              "**intern", "**intern %s", msg);
}

int dli_mpich_adopt(MPIR_Datatype *newtype, dl_type *t, const char *fn)
{
  dli_tr_fields f;
  int rc = dl_type_commit(t);
  if (!rc)
    rc = dli_tr_fields_of(t, &f);
  if (rc) {
    dl_type_free(&t);
    return dli_mpich_err(rc, fn);
  }
  newtype->typerep.handle = t;
  newtype->size = f.size;
  newtype->lb = f.lb;
  newtype->extent = f.extent;
  newtype->ub = f.lb + f.extent;
  newtype->true_lb = f.true_lb;
  newtype->true_ub = f.true_lb + f.true_extent;
  newtype->is_contig = f.is_contig;
  newtype->typerep.num_contig_blocks = f.runs;
  newtype->alignsize = 0;      /* read only of pair types, which set it */
  return MPI_SUCCESS;
}

void dli_mpich_elements(MPIR_Datatype *newtype, MPI_Datatype old, MPI_Aint copies)
{
  if (HANDLE_IS_BUILTIN(old)) {
    newtype->n_builtin_elements = copies;
    newtype->builtin_element_size = MPIR_Datatype_get_basic_size(old);
    newtype->basic_type = old;
    return;
  }
  MPIR_Datatype *o;
  MPIR_Datatype_get_ptr(old, o);
  MPI_Aint n;
  if (__builtin_mul_overflow(copies, o->n_builtin_elements, &n))
    n = -1;     /* more than an MPI_Aint counts: unknown, as MPICH's struct */
  newtype->n_builtin_elements = n;
  newtype->builtin_element_size = o->builtin_element_size;
  newtype->basic_type = o->basic_type;
}
