/* MPI-4's large-count calls the interposer makes, on a host whose mpi.h is
 * MPI 3.1 (Open MPI 4.1): the int form where the count fits, MPI_ERR_COUNT
 * where it does not (a program of MPI 3.1 cannot ask for more). The same
 * names, so that the calling code is one for every host. */
#ifndef DLP_LARGE_H
#define DLP_LARGE_H

#include <limits.h>
#include <stdlib.h>
#include <mpi.h>

#if MPI_VERSION < 4

static inline int dlp_fits(MPI_Count n)
{
  return n >= INT_MIN && n <= INT_MAX;
}

#define DLP_SEND_C(name)                                                                  \
  static inline int PMPI_##name##_c(const void *buf, MPI_Count count, MPI_Datatype dt,   \
                                    int peer, int tag, MPI_Comm comm)                     \
  {                                                                                       \
    return dlp_fits(count) ? PMPI_##name(buf, (int)count, dt, peer, tag, comm)            \
                           : MPI_ERR_COUNT;                                               \
  }
#define DLP_ISEND_C(name)                                                                 \
  static inline int PMPI_##name##_c(const void *buf, MPI_Count count, MPI_Datatype dt,   \
                                    int peer, int tag, MPI_Comm comm, MPI_Request *req)   \
  {                                                                                       \
    return dlp_fits(count) ? PMPI_##name(buf, (int)count, dt, peer, tag, comm, req)       \
                           : MPI_ERR_COUNT;                                               \
  }
#define DLP_IRECV_C(name)                                                                 \
  static inline int PMPI_##name##_c(void *buf, MPI_Count count, MPI_Datatype dt,         \
                                    int peer, int tag, MPI_Comm comm, MPI_Request *req)   \
  {                                                                                       \
    return dlp_fits(count) ? PMPI_##name(buf, (int)count, dt, peer, tag, comm, req)       \
                           : MPI_ERR_COUNT;                                               \
  }
DLP_SEND_C(Send)
DLP_SEND_C(Ssend)
DLP_SEND_C(Rsend)
DLP_SEND_C(Bsend)
DLP_ISEND_C(Isend)
DLP_ISEND_C(Issend)
DLP_ISEND_C(Irsend)
DLP_ISEND_C(Ibsend)
DLP_ISEND_C(Send_init)
DLP_ISEND_C(Ssend_init)
DLP_ISEND_C(Rsend_init)
DLP_ISEND_C(Bsend_init)
DLP_IRECV_C(Irecv)
DLP_IRECV_C(Recv_init)
#undef DLP_SEND_C
#undef DLP_ISEND_C
#undef DLP_IRECV_C

static inline int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int peer, int tag,
                              MPI_Comm comm, MPI_Status *st)
{
  return dlp_fits(count) ? PMPI_Recv(buf, (int)count, dt, peer, tag, comm, st) : MPI_ERR_COUNT;
}

static inline int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *m,
                                MPI_Request *req)
{
  return dlp_fits(count) ? PMPI_Imrecv(buf, (int)count, dt, m, req) : MPI_ERR_COUNT;
}

static inline int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *m,
                               MPI_Status *st)
{
  return dlp_fits(count) ? PMPI_Mrecv(buf, (int)count, dt, m, st) : MPI_ERR_COUNT;
}

static inline int PMPI_Sendrecv_c(const void *sbuf, MPI_Count scount, MPI_Datatype stype,
                                  int dest, int stag, void *rbuf, MPI_Count rcount,
                                  MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                                  MPI_Status *st)
{
  if (!dlp_fits(scount) || !dlp_fits(rcount))
    return MPI_ERR_COUNT;
  return PMPI_Sendrecv(sbuf, (int)scount, stype, dest, stag, rbuf, (int)rcount, rtype, source,
                       rtag, comm, st);
}

static inline int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                                          int stag, int source, int rtag, MPI_Comm comm,
                                          MPI_Status *st)
{
  return dlp_fits(count)
           ? PMPI_Sendrecv_replace(buf, (int)count, dt, dest, stag, source, rtag, comm, st)
           : MPI_ERR_COUNT;
}

static inline int PMPI_Type_size_c(MPI_Datatype dt, MPI_Count *size)
{
  return PMPI_Type_size_x(dt, size);
}

/* the block lengths as ints, the displacements as addresses */
static inline int PMPI_Type_create_hindexed_c(MPI_Count n, const MPI_Count bl[],
                                              const MPI_Count disp[], MPI_Datatype old,
                                              MPI_Datatype *out)
{
  if (n < 0 || n > INT_MAX)
    return MPI_ERR_COUNT;
  size_t k = (size_t)n ? (size_t)n : 1;
  int *ibl = malloc(k * sizeof(int));
  MPI_Aint *ad = malloc(k * sizeof(MPI_Aint));
  int rc = ibl && ad ? MPI_SUCCESS : MPI_ERR_NO_MEM;
  for (MPI_Count i = 0; i < n && rc == MPI_SUCCESS; i++) {
    rc = dlp_fits(bl[i]) ? MPI_SUCCESS : MPI_ERR_COUNT;
    ibl[i] = (int)bl[i];
    ad[i] = (MPI_Aint)disp[i];
  }
  if (rc == MPI_SUCCESS)
    rc = PMPI_Type_create_hindexed((int)n, ibl, ad, old, out);
  free(ibl);
  free(ad);
  return rc;
}

static inline int PMPI_Get_count_c(const MPI_Status *st, MPI_Datatype dt, MPI_Count *n)
{
  int k;
  int rc = PMPI_Get_count(st, dt, &k);
  *n = k;
  return rc;
}

static inline int PMPI_Pack_c(const void *in, MPI_Count incount, MPI_Datatype dt, void *out,
                              MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
  if (!dlp_fits(incount) || !dlp_fits(outsize) || !dlp_fits(*position))
    return MPI_ERR_COUNT;
  int p = (int)*position;
  int rc = PMPI_Pack(in, (int)incount, dt, out, (int)outsize, &p, comm);
  *position = p;
  return rc;
}

static inline int PMPI_Unpack_c(const void *in, MPI_Count insize, MPI_Count *position, void *out,
                                MPI_Count outcount, MPI_Datatype dt, MPI_Comm comm)
{
  if (!dlp_fits(insize) || !dlp_fits(outcount) || !dlp_fits(*position))
    return MPI_ERR_COUNT;
  int p = (int)*position;
  int rc = PMPI_Unpack(in, (int)insize, &p, out, (int)outcount, dt, comm);
  *position = p;
  return rc;
}

static inline int PMPI_Pack_external_c(const char *rep, const void *in, MPI_Count incount,
                                       MPI_Datatype dt, void *out, MPI_Count outsize,
                                       MPI_Count *position)
{
  if (!dlp_fits(incount))
    return MPI_ERR_COUNT;
  MPI_Aint p = (MPI_Aint)*position;
  int rc = PMPI_Pack_external(rep, in, (int)incount, dt, out, (MPI_Aint)outsize, &p);
  *position = p;
  return rc;
}

static inline int PMPI_Unpack_external_c(const char *rep, const void *in, MPI_Count insize,
                                         MPI_Count *position, void *out, MPI_Count outcount,
                                         MPI_Datatype dt)
{
  if (!dlp_fits(outcount))
    return MPI_ERR_COUNT;
  MPI_Aint p = (MPI_Aint)*position;
  int rc = PMPI_Unpack_external(rep, in, (MPI_Aint)insize, &p, out, (int)outcount, dt);
  *position = p;
  return rc;
}

/* one-sided: the int form where every count fits */
static inline int PMPI_Put_c(const void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                             MPI_Aint disp, MPI_Count tc, MPI_Datatype tt, MPI_Win win)
{
  return dlp_fits(oc) && dlp_fits(tc)
           ? PMPI_Put(o, (int)oc, ot, rank, disp, (int)tc, tt, win) : MPI_ERR_COUNT;
}

static inline int PMPI_Rput_c(const void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                              MPI_Aint disp, MPI_Count tc, MPI_Datatype tt, MPI_Win win,
                              MPI_Request *req)
{
  return dlp_fits(oc) && dlp_fits(tc)
           ? PMPI_Rput(o, (int)oc, ot, rank, disp, (int)tc, tt, win, req) : MPI_ERR_COUNT;
}

static inline int PMPI_Get_c(void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                             MPI_Aint disp, MPI_Count tc, MPI_Datatype tt, MPI_Win win)
{
  return dlp_fits(oc) && dlp_fits(tc)
           ? PMPI_Get(o, (int)oc, ot, rank, disp, (int)tc, tt, win) : MPI_ERR_COUNT;
}

static inline int PMPI_Rget_c(void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                              MPI_Aint disp, MPI_Count tc, MPI_Datatype tt, MPI_Win win,
                              MPI_Request *req)
{
  return dlp_fits(oc) && dlp_fits(tc)
           ? PMPI_Rget(o, (int)oc, ot, rank, disp, (int)tc, tt, win, req) : MPI_ERR_COUNT;
}

static inline int PMPI_Accumulate_c(const void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                                    MPI_Aint disp, MPI_Count tc, MPI_Datatype tt, MPI_Op op,
                                    MPI_Win win)
{
  return dlp_fits(oc) && dlp_fits(tc)
           ? PMPI_Accumulate(o, (int)oc, ot, rank, disp, (int)tc, tt, op, win)
           : MPI_ERR_COUNT;
}

static inline int PMPI_Raccumulate_c(const void *o, MPI_Count oc, MPI_Datatype ot, int rank,
                                     MPI_Aint disp, MPI_Count tc, MPI_Datatype tt,
                                     MPI_Op op, MPI_Win win, MPI_Request *req)
{
  return dlp_fits(oc) && dlp_fits(tc)
           ? PMPI_Raccumulate(o, (int)oc, ot, rank, disp, (int)tc, tt, op, win, req)
           : MPI_ERR_COUNT;
}

static inline int PMPI_Get_accumulate_c(const void *o, MPI_Count oc, MPI_Datatype ot,
                                        void *r, MPI_Count rc, MPI_Datatype rt, int rank,
                                        MPI_Aint disp, MPI_Count tc, MPI_Datatype tt,
                                        MPI_Op op, MPI_Win win)
{
  return dlp_fits(oc) && dlp_fits(rc) && dlp_fits(tc)
           ? PMPI_Get_accumulate(o, (int)oc, ot, r, (int)rc, rt, rank, disp, (int)tc, tt,
                                 op, win)
           : MPI_ERR_COUNT;
}

static inline int PMPI_Rget_accumulate_c(const void *o, MPI_Count oc, MPI_Datatype ot,
                                         void *r, MPI_Count rc, MPI_Datatype rt, int rank,
                                         MPI_Aint disp, MPI_Count tc, MPI_Datatype tt,
                                         MPI_Op op, MPI_Win win, MPI_Request *req)
{
  return dlp_fits(oc) && dlp_fits(rc) && dlp_fits(tc)
           ? PMPI_Rget_accumulate(o, (int)oc, ot, r, (int)rc, rt, rank, disp, (int)tc, tt,
                                  op, win, req)
           : MPI_ERR_COUNT;
}

/* windows: a unit that fits an int (a program of MPI 3.1 cannot ask more) */
static inline int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint unit, MPI_Info info,
                                    MPI_Comm comm, MPI_Win *win)
{
  return dlp_fits(unit) ? PMPI_Win_create(base, size, (int)unit, info, comm, win)
                        : MPI_ERR_DISP;
}

static inline int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint unit, MPI_Info info,
                                      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
  return dlp_fits(unit) ? PMPI_Win_allocate(size, (int)unit, info, comm, baseptr, win)
                        : MPI_ERR_DISP;
}

static inline int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint unit, MPI_Info info,
                                             MPI_Comm comm, void *baseptr, MPI_Win *win)
{
  return dlp_fits(unit)
           ? PMPI_Win_allocate_shared(size, (int)unit, info, comm, baseptr, win)
           : MPI_ERR_DISP;
}

#endif
#endif
