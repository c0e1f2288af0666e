/* MPI's type constructors: each builds the dataloop type at once (optimized
 * and committed) and takes MPICH's fields from it. */
#include "typerep_internal.h"

_Static_assert(sizeof(MPI_Aint) == sizeof(dl_aint) && sizeof(MPI_Aint) == sizeof(dl_count),
               "MPI_Aint arrays are passed to dataloop as they are");
#define COUNTS(a) ((const dl_count *)(a))
#define AINTS(a) ((const dl_aint *)(a))

/* the sum of count block lengths, or -1 past an MPI_Aint */
static MPI_Aint total(MPI_Aint count, const MPI_Aint *bls)
{
  MPI_Aint n = 0;
  for (MPI_Aint i = 0; i < count; i++)
    if (__builtin_add_overflow(n, bls[i], &n))
      return -1;
  return n;
}

/* the new type *tp from constructor status rc: adopted, and its elements
   those of `copies` copies of old. A pointer: *tp is read here, after the
   constructor (an argument `t` beside `ctor(..., &t)` would be read in
   either order) */
static int finish(int rc, dl_type **tp, MPIR_Datatype *newtype, MPI_Datatype old,
                  MPI_Aint copies, const char *fn)
{
  if (rc)
    return dli_mpich_err(rc, fn);
  int err = dli_mpich_adopt(newtype, *tp, fn);
  if (!err)
    dli_mpich_elements(newtype, old, copies);
  return err;
}

/* the body of every constructor of one old type: old's dataloop type,
   then CTOR (an expression naming old and &t), then finish */
#define BUILD(CTOR, copies)                                                  \
  do {                                                                       \
    dl_type *old, *t = NULL;                                                 \
    int err = dli_mpich_lookup(oldtype, __func__, &old);                     \
    return err ? err : finish(CTOR, &t, newtype, oldtype, (copies), __func__); \
  } while (0)

static MPI_Aint times(MPI_Aint a, MPI_Aint b)
{
  MPI_Aint n;
  return __builtin_mul_overflow(a, b, &n) ? -1 : n;
}

int MPIR_Typerep_create_contig(MPI_Aint count, MPI_Datatype oldtype, MPIR_Datatype *newtype)
{
  BUILD(dl_type_contiguous(count, old, &t), count);
}

int MPIR_Typerep_create_vector(MPI_Aint count, MPI_Aint blocklength, MPI_Aint stride,
                               MPI_Datatype oldtype, MPIR_Datatype *newtype)
{
  BUILD(dl_type_vector(count, blocklength, stride, old, &t), times(count, blocklength));
}

int MPIR_Typerep_create_hvector(MPI_Aint count, MPI_Aint blocklength, MPI_Aint stride,
                                MPI_Datatype oldtype, MPIR_Datatype *newtype)
{
  BUILD(dl_type_hvector(count, blocklength, stride, old, &t), times(count, blocklength));
}

int MPIR_Typerep_create_indexed_block(MPI_Aint count, MPI_Aint blocklength,
                                      const MPI_Aint *displs, MPI_Datatype oldtype,
                                      MPIR_Datatype *newtype)
{
  BUILD(dl_type_indexed_block(count, blocklength, COUNTS(displs), old, &t),
        times(count, blocklength));
}

int MPIR_Typerep_create_hindexed_block(MPI_Aint count, MPI_Aint blocklength,
                                       const MPI_Aint *displs, MPI_Datatype oldtype,
                                       MPIR_Datatype *newtype)
{
  BUILD(dl_type_hindexed_block(count, blocklength, AINTS(displs), old, &t),
        times(count, blocklength));
}

int MPIR_Typerep_create_indexed(MPI_Aint count, const MPI_Aint *blocklens,
                                const MPI_Aint *displs, MPI_Datatype oldtype,
                                MPIR_Datatype *newtype)
{
  BUILD(dl_type_indexed(count, COUNTS(blocklens), COUNTS(displs), old, &t),
        total(count, blocklens));
}

int MPIR_Typerep_create_hindexed(MPI_Aint count, const MPI_Aint *blocklens,
                                 const MPI_Aint *displs, MPI_Datatype oldtype,
                                 MPIR_Datatype *newtype)
{
  BUILD(dl_type_hindexed(count, COUNTS(blocklens), AINTS(displs), old, &t),
        total(count, blocklens));
}

int MPIR_Typerep_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                MPIR_Datatype *newtype)
{
  BUILD(dl_type_resized(old, lb, extent, &t), 1);
}

int MPIR_Typerep_create_dup(MPI_Datatype oldtype, MPIR_Datatype *newtype)
{
  BUILD(dl_type_dup(old, &t), 1);
}

/* a struct's elements: all of one basic type (parts of blocklength 0
   aside), or mixed */
static void struct_elements(MPIR_Datatype *newtype, MPI_Aint count, const MPI_Aint *bls,
                            const MPI_Datatype *types)
{
  MPI_Aint n = 0, esize = 0;
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  bool found = false;
  for (MPI_Aint i = 0; i < count; i++) {
    if (bls[i] == 0)
      continue;
    MPIR_Datatype part;
    dli_mpich_elements(&part, types[i], bls[i]);
    if (n >= 0)
      n = part.n_builtin_elements < 0 || __builtin_add_overflow(n, part.n_builtin_elements, &n)
              ? -1 : n;
    if (!found) {
      esize = part.builtin_element_size;
      basic = part.basic_type;
      found = true;
    } else if (esize != part.builtin_element_size) {
      esize = -1;
      basic = MPI_DATATYPE_NULL;
    } else if (basic != part.basic_type) {
      basic = MPI_DATATYPE_NULL;
    }
  }
  newtype->n_builtin_elements = n;
  newtype->builtin_element_size = esize;
  newtype->basic_type = basic;
}

int MPIR_Typerep_create_struct(MPI_Aint count, const MPI_Aint *blocklens,
                               const MPI_Aint *displs, const MPI_Datatype *types,
                               MPIR_Datatype *newtype)
{
  dl_type **olds = MPL_malloc((count > 0 ? count : 1) * sizeof *olds, MPL_MEM_DATATYPE);
  if (!olds)
    return dli_mpich_err(DL_ERR_NOMEM, __func__);
  int err = MPI_SUCCESS;
  for (MPI_Aint i = 0; i < count && !err; i++)
    err = dli_mpich_lookup(types[i], __func__, &olds[i]);
  dl_type *t = NULL;
  if (!err)
    err = dli_mpich_err(dl_type_struct(count, COUNTS(blocklens), AINTS(displs),
                                       (dl_type *const *)olds, &t), __func__);
  MPL_free(olds);
  if (!err)
    err = dli_mpich_adopt(newtype, t, __func__);
  if (!err)
    struct_elements(newtype, count, blocklens, types);
  return err;
}

/* MPICH set the pair's fields from the C layout; the engine's type is the
   same struct (src/mpi/named.c), a copy of its own */
int MPIR_Typerep_create_pairtype(MPI_Datatype type, MPIR_Datatype *newtype)
{
  dl_type *pair = dli_named_type(type), *t = NULL;
  if (!pair)
    return dli_mpich_lookup(type, __func__, &pair);
  int rc = dl_type_dup(pair, &t);
  if (!rc)
    rc = dl_type_commit(t);
  dli_tr_fields f;
  if (!rc)
    rc = dli_tr_fields_of(t, &f);
  if (rc) {
    dl_type_free(&t);
    return dli_mpich_err(rc, __func__);
  }
  newtype->typerep.handle = t;
  newtype->typerep.num_contig_blocks = f.runs;
  return MPI_SUCCESS;
}
