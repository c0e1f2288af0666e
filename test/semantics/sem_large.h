/* MPI-4's large-count calls on a host of MPI 3.1 (Open MPI 4.1), for the
 * test programs that make both forms (the semantics programs,
 * test/test_rma.c): each the int form (the counts these programs pass
 * fit), so that such a host runs the same program with the int forms
 * checked twice. */
#ifndef SEM_LARGE_H
#define SEM_LARGE_H
#include <mpi.h>

#if MPI_VERSION < 4
#define SEM_SEND_C(name)                                                                \
  static inline int MPI_##name##_c(const void *b, MPI_Count n, MPI_Datatype t, int p,   \
                                   int g, MPI_Comm c)                                   \
  {                                                                                     \
    return MPI_##name(b, (int)n, t, p, g, c);                                           \
  }
#define SEM_ISEND_C(name)                                                               \
  static inline int MPI_##name##_c(const void *b, MPI_Count n, MPI_Datatype t, int p,   \
                                   int g, MPI_Comm c, MPI_Request *r)                   \
  {                                                                                     \
    return MPI_##name(b, (int)n, t, p, g, c, r);                                        \
  }
SEM_SEND_C(Send)
SEM_SEND_C(Bsend)
SEM_SEND_C(Ssend)
SEM_SEND_C(Rsend)
SEM_ISEND_C(Isend)
SEM_ISEND_C(Ibsend)
SEM_ISEND_C(Issend)
SEM_ISEND_C(Irsend)
SEM_ISEND_C(Send_init)
SEM_ISEND_C(Bsend_init)
SEM_ISEND_C(Ssend_init)
SEM_ISEND_C(Rsend_init)
#undef SEM_SEND_C
#undef SEM_ISEND_C

static inline int MPI_Recv_c(void *b, MPI_Count n, MPI_Datatype t, int p, int g, MPI_Comm c,
                             MPI_Status *s)
{
  return MPI_Recv(b, (int)n, t, p, g, c, s);
}
static inline int MPI_Irecv_c(void *b, MPI_Count n, MPI_Datatype t, int p, int g, MPI_Comm c,
                              MPI_Request *r)
{
  return MPI_Irecv(b, (int)n, t, p, g, c, r);
}
static inline int MPI_Recv_init_c(void *b, MPI_Count n, MPI_Datatype t, int p, int g,
                                  MPI_Comm c, MPI_Request *r)
{
  return MPI_Recv_init(b, (int)n, t, p, g, c, r);
}
static inline int MPI_Mrecv_c(void *b, MPI_Count n, MPI_Datatype t, MPI_Message *m,
                              MPI_Status *s)
{
  return MPI_Mrecv(b, (int)n, t, m, s);
}
static inline int MPI_Imrecv_c(void *b, MPI_Count n, MPI_Datatype t, MPI_Message *m,
                               MPI_Request *r)
{
  return MPI_Imrecv(b, (int)n, t, m, r);
}
static inline int MPI_Sendrecv_c(const void *sb, MPI_Count sn, MPI_Datatype st, int d, int sg,
                                 void *rb, MPI_Count rn, MPI_Datatype rt, int s, int rg,
                                 MPI_Comm c, MPI_Status *status)
{
  return MPI_Sendrecv(sb, (int)sn, st, d, sg, rb, (int)rn, rt, s, rg, c, status);
}
static inline int MPI_Sendrecv_replace_c(void *b, MPI_Count n, MPI_Datatype t, int d, int sg,
                                         int s, int rg, MPI_Comm c, MPI_Status *status)
{
  return MPI_Sendrecv_replace(b, (int)n, t, d, sg, s, rg, c, status);
}
static inline int MPI_Pack_size_c(MPI_Count n, MPI_Datatype t, MPI_Comm c, MPI_Count *size)
{
  int k = 0, rc = MPI_Pack_size((int)n, t, c, &k);
  *size = k;
  return rc;
}
static inline int MPI_Pack_c(const void *in, MPI_Count n, MPI_Datatype t, void *out,
                             MPI_Count outsize, MPI_Count *pos, MPI_Comm c)
{
  int p = (int)*pos, rc = MPI_Pack(in, (int)n, t, out, (int)outsize, &p, c);
  *pos = p;
  return rc;
}
static inline int MPI_Unpack_c(const void *in, MPI_Count insize, MPI_Count *pos, void *out,
                               MPI_Count n, MPI_Datatype t, MPI_Comm c)
{
  int p = (int)*pos, rc = MPI_Unpack(in, (int)insize, &p, out, (int)n, t, c);
  *pos = p;
  return rc;
}
static inline int MPI_Pack_external_size_c(const char *rep, MPI_Count n, MPI_Datatype t,
                                           MPI_Count *size)
{
  MPI_Aint s = 0;
  int rc = MPI_Pack_external_size(rep, (int)n, t, &s);
  *size = s;
  return rc;
}
static inline int MPI_Pack_external_c(const char *rep, const void *in, MPI_Count n,
                                      MPI_Datatype t, void *out, MPI_Count outsize,
                                      MPI_Count *pos)
{
  MPI_Aint p = (MPI_Aint)*pos;
  int rc = MPI_Pack_external(rep, in, (int)n, t, out, (MPI_Aint)outsize, &p);
  *pos = p;
  return rc;
}
static inline int MPI_Unpack_external_c(const char *rep, const void *in, MPI_Count insize,
                                        MPI_Count *pos, void *out, MPI_Count n,
                                        MPI_Datatype t)
{
  MPI_Aint p = (MPI_Aint)*pos;
  int rc = MPI_Unpack_external(rep, in, (MPI_Aint)insize, &p, out, (int)n, t);
  *pos = p;
  return rc;
}
#define SEM_TO_TARGET_C(name)                                                          \
  static inline int MPI_##name##_c(const void *o, MPI_Count on, MPI_Datatype ot, int p,  \
                                   MPI_Aint d, MPI_Count tn, MPI_Datatype tt, MPI_Win w) \
  {                                                                                     \
    return MPI_##name(o, (int)on, ot, p, d, (int)tn, tt, w);                            \
  }
SEM_TO_TARGET_C(Put)
#undef SEM_TO_TARGET_C
static inline int MPI_Rput_c(const void *o, MPI_Count on, MPI_Datatype ot, int p, MPI_Aint d,
                             MPI_Count tn, MPI_Datatype tt, MPI_Win w, MPI_Request *r)
{
  return MPI_Rput(o, (int)on, ot, p, d, (int)tn, tt, w, r);
}
static inline int MPI_Get_c(void *o, MPI_Count on, MPI_Datatype ot, int p, MPI_Aint d,
                            MPI_Count tn, MPI_Datatype tt, MPI_Win w)
{
  return MPI_Get(o, (int)on, ot, p, d, (int)tn, tt, w);
}
static inline int MPI_Rget_c(void *o, MPI_Count on, MPI_Datatype ot, int p, MPI_Aint d,
                             MPI_Count tn, MPI_Datatype tt, MPI_Win w, MPI_Request *r)
{
  return MPI_Rget(o, (int)on, ot, p, d, (int)tn, tt, w, r);
}
static inline int MPI_Accumulate_c(const void *o, MPI_Count on, MPI_Datatype ot, int p,
                                   MPI_Aint d, MPI_Count tn, MPI_Datatype tt, MPI_Op op,
                                   MPI_Win w)
{
  return MPI_Accumulate(o, (int)on, ot, p, d, (int)tn, tt, op, w);
}
static inline int MPI_Raccumulate_c(const void *o, MPI_Count on, MPI_Datatype ot, int p,
                                    MPI_Aint d, MPI_Count tn, MPI_Datatype tt, MPI_Op op,
                                    MPI_Win w, MPI_Request *r)
{
  return MPI_Raccumulate(o, (int)on, ot, p, d, (int)tn, tt, op, w, r);
}
static inline int MPI_Get_accumulate_c(const void *o, MPI_Count on, MPI_Datatype ot, void *res,
                                       MPI_Count rn, MPI_Datatype rt, int p, MPI_Aint d,
                                       MPI_Count tn, MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
  return MPI_Get_accumulate(o, (int)on, ot, res, (int)rn, rt, p, d, (int)tn, tt, op, w);
}
static inline int MPI_Rget_accumulate_c(const void *o, MPI_Count on, MPI_Datatype ot,
                                        void *res, MPI_Count rn, MPI_Datatype rt, int p,
                                        MPI_Aint d, MPI_Count tn, MPI_Datatype tt, MPI_Op op,
                                        MPI_Win w, MPI_Request *r)
{
  return MPI_Rget_accumulate(o, (int)on, ot, res, (int)rn, rt, p, d, (int)tn, tt, op, w, r);
}
static inline int MPI_Win_create_c(void *b, MPI_Aint size, MPI_Aint unit, MPI_Info i,
                                   MPI_Comm c, MPI_Win *w)
{
  return MPI_Win_create(b, size, (int)unit, i, c, w);
}
static inline int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint unit, MPI_Info i, MPI_Comm c,
                                     void *b, MPI_Win *w)
{
  return MPI_Win_allocate(size, (int)unit, i, c, b, w);
}
static inline int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint unit, MPI_Info i,
                                            MPI_Comm c, void *b, MPI_Win *w)
{
  return MPI_Win_allocate_shared(size, (int)unit, i, c, b, w);
}
static inline int MPI_Type_get_extent_c(MPI_Datatype t, MPI_Count *lb, MPI_Count *ext)
{
  return MPI_Type_get_extent_x(t, lb, ext);
}
static inline int MPI_Type_get_true_extent_c(MPI_Datatype t, MPI_Count *lb, MPI_Count *ext)
{
  return MPI_Type_get_true_extent_x(t, lb, ext);
}
static inline int MPI_Type_size_c(MPI_Datatype t, MPI_Count *size)
{
  return MPI_Type_size_x(t, size);
}
static inline int PMPI_Pack_c(const void *in, MPI_Count n, MPI_Datatype t, void *out,
                              MPI_Count outsize, MPI_Count *pos, MPI_Comm c)
{
  int p = (int)*pos, rc = PMPI_Pack(in, (int)n, t, out, (int)outsize, &p, c);
  *pos = p;
  return rc;
}
static inline int PMPI_Unpack_c(const void *in, MPI_Count insize, MPI_Count *pos, void *out,
                                MPI_Count n, MPI_Datatype t, MPI_Comm c)
{
  int p = (int)*pos, rc = PMPI_Unpack(in, (int)insize, &p, out, (int)n, t, c);
  *pos = p;
  return rc;
}
#endif
#endif
