/* Accumulate and reduce: MPICH's predefined operations (its op table)
 * applied element-wise over a derived layout, once per run of whole
 * elements (src/mpich/tr_op.c). Replaces MPICH's typerep_op.c. */
#include "typerep_internal.h"

typedef struct op_call {
  MPIR_op_function *fn;
  MPI_Datatype basic;
} op_call;

static void apply(const void *in, void *inout, dl_count n, void *ctx)
{
  op_call *c = ctx;
  MPI_Aint len = n;
  MPI_Datatype dt = c->basic;
  c->fn((void *)in, inout, &len, &dt);
}

static int not_predefined(const char *fn, const char *what)
{
  char msg[160];
  snprintf(msg, sizeof msg, "dataloop %s: %s", fn, what);
  return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, fn, __LINE__, MPI_ERR_OP,
                              "**intern", "**intern %s", msg);
}

/* nelem elements of basic at src, laid out (packed: size apart, else
   extent apart), combined into the stream of (dst, count, t) */
static int over_layout(const void *src, MPI_Aint nelem, MPI_Datatype basic, bool packed,
                       void *dst, MPI_Aint count, MPI_Datatype type, MPI_Op op,
                       const char *fn)
{
  dl_type *elem, *t;
  int err = dli_mpich_lookup(basic, fn, &elem);
  if (!err)
    err = dli_mpich_lookup(type, fn, &t);
  if (err)
    return err;
  MPI_Aint size, extent;
  MPIR_Datatype_get_size_macro(basic, size);
  MPIR_Datatype_get_extent_macro(basic, extent);
  void *laid = NULL;
  if (packed && size != extent) {    /* pair types: laid out as C does */
    size_t pos = 0;
    if (!(laid = MPL_malloc(nelem * extent + 1, MPL_MEM_OTHER)))
      return dli_mpich_err(DL_ERR_NOMEM, fn);
    err = dli_mpich_err(dl_unpack(src, nelem * size, &pos, laid, nelem, elem), fn);
    src = laid;
  }
  op_call c = {MPIR_OP_HDL_TO_FN(op), basic};
  if (!err)
    err = dli_mpich_err(dli_tr_apply(src, nelem, elem, dst, count, t, apply, &c), fn);
  MPL_free(laid);
  return err;
}

int MPIR_Typerep_op(void *source_buf, MPI_Aint source_count, MPI_Datatype source_dtp,
                    void *target_buf, MPI_Aint target_count, MPI_Datatype target_dtp,
                    MPI_Op op, bool source_is_packed, int mapped_device)
{
  (void)mapped_device;     /* no device memory in this build */
  if (op == MPI_NO_OP)
    return MPI_SUCCESS;
  if (!HANDLE_IS_BUILTIN(op))
    return not_predefined(__func__, "accumulate needs a predefined operation");
  if (!MPIR_DATATYPE_IS_PREDEFINED(source_dtp))
    return not_predefined(__func__, "accumulate's origin elements are not predefined");
  int err = (*MPIR_OP_HDL_TO_DTYPE_FN(op))(source_dtp);
  if (err)
    return err;
  if (HANDLE_IS_BUILTIN(target_dtp) && target_dtp == source_dtp) {
    MPI_Aint n = source_count < target_count ? source_count : target_count;
    (*MPIR_OP_HDL_TO_FN(op))(source_buf, target_buf, &n, &source_dtp);
    return MPI_SUCCESS;
  }
  return over_layout(source_buf, source_count, source_dtp, source_is_packed, target_buf,
                     target_count, target_dtp, op, __func__);
}

int MPIR_Typerep_reduce_is_supported(MPI_Op op, MPI_Datatype datatype)
{
  (void)datatype;     /* any layout of the operation's types */
  return HANDLE_IS_BUILTIN(op) && op != MPI_NO_OP;
}

int MPIR_Typerep_reduce(const void *in_buf, void *out_buf, MPI_Aint count,
                        MPI_Datatype datatype, MPI_Op op)
{
  if (!HANDLE_IS_BUILTIN(op))
    return not_predefined(__func__, "reduce needs a predefined operation");
  if (MPIR_DATATYPE_IS_PREDEFINED(datatype)) {
    (*MPIR_OP_HDL_TO_FN(op))((void *)in_buf, out_buf, &count, &datatype);
    return MPI_SUCCESS;
  }
  /* a derived layout: in's elements packed, then combined into out's */
  MPIR_Datatype *dtp;
  MPIR_Datatype_get_ptr(datatype, dtp);
  MPI_Datatype basic = dtp->basic_type;
  if (basic == MPI_DATATYPE_NULL)
    return not_predefined(__func__, "the datatype mixes element types");
  int err = (*MPIR_OP_HDL_TO_DTYPE_FN(op))(basic);
  if (err)
    return err;
  dl_type *t;
  if ((err = dli_mpich_lookup(datatype, __func__, &t)))
    return err;
  MPI_Aint bsize, bytes;
  MPIR_Datatype_get_size_macro(basic, bsize);
  if (__builtin_mul_overflow(count, dtp->size, &bytes) || bsize <= 0)
    return dli_mpich_err(DL_ERR_OVERFLOW, __func__);
  void *packed = MPL_malloc(bytes + 1, MPL_MEM_OTHER);
  size_t pos = 0;
  if (!packed)
    return dli_mpich_err(DL_ERR_NOMEM, __func__);
  err = dli_mpich_err(dl_pack(in_buf, count, t, packed, (size_t)bytes, &pos), __func__);
  if (!err)
    err = over_layout(packed, bytes / bsize, basic, true, out_buf, count, datatype, op,
                      __func__);
  MPL_free(packed);
  return err;
}
