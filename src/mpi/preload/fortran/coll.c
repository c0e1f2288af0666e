/* The mpif.h and `use mpi` entry points of the collectives the
 * interposer serves, blocking and nonblocking, for a host whose Fortran
 * bindings call the PMPI_ names (fortran.h; a host of MPI 3.1 has no
 * persistent collectives). Buffers may be MPI_IN_PLACE or MPI_BOTTOM by
 * the host's sentinels; count and displacement arrays are INTEGER arrays
 * the C call reads as they are; the w forms' type arrays are converted
 * handle by handle, as the host's own binding does (a type array is read
 * by the call, which holds the types it needs). */
#include <stdlib.h>
#include "fortran.h"
#include "../coll/coll.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "INTEGER arrays read as int arrays");

#define B(x) fbuf_in_place(x)
#define I(x) ((const int *)(x))

/* a blocking collective and its nonblocking form, over the C entry
   points call and icall: PARAMS the Fortran arguments before the
   communicator, ARGS the C call's */
#define COLL(l, U, il, IU, call, icall, PARAMS, ARGS)                                   \
  void l##_(DLP_UNPAREN PARAMS, MPI_Fint *comm, MPI_Fint *ierr);                        \
  void l##_(DLP_UNPAREN PARAMS, MPI_Fint *comm, MPI_Fint *ierr)                         \
  {                                                                                     \
    *ierr = call(DLP_UNPAREN ARGS, C(comm));                                            \
  }                                                                                     \
  SPELLINGS(l, U);                                                                      \
  void il##_(DLP_UNPAREN PARAMS, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr);        \
  void il##_(DLP_UNPAREN PARAMS, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)         \
  {                                                                                     \
    MPI_Request r;                                                                      \
    *ierr = req_out(icall(DLP_UNPAREN ARGS, C(comm), &r), &r, req);                     \
  }                                                                                     \
  SPELLINGS(il, IU)

#define ONE_EACH (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rc, MPI_Fint *rt)
#define ONE_EACH_ARGS (B(sb), *sc, T(st), B(rb), *rc, T(rt))
#define ONE_EACH_ROOT                                                                   \
  (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rc, MPI_Fint *rt,          \
   MPI_Fint *root)
#define ONE_EACH_ROOT_ARGS (B(sb), *sc, T(st), B(rb), *rc, T(rt), *root)

COLL(mpi_bcast, MPI_BCAST, mpi_ibcast, MPI_IBCAST, MPI_Bcast, MPI_Ibcast,
     (void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *root),
     (B(buf), *count, T(dt), *root));
COLL(mpi_gather, MPI_GATHER, mpi_igather, MPI_IGATHER, MPI_Gather, MPI_Igather,
     ONE_EACH_ROOT, ONE_EACH_ROOT_ARGS);
COLL(mpi_scatter, MPI_SCATTER, mpi_iscatter, MPI_ISCATTER, MPI_Scatter, MPI_Iscatter,
     ONE_EACH_ROOT, ONE_EACH_ROOT_ARGS);
COLL(mpi_allgather, MPI_ALLGATHER, mpi_iallgather, MPI_IALLGATHER, MPI_Allgather,
     MPI_Iallgather, ONE_EACH, ONE_EACH_ARGS);
COLL(mpi_alltoall, MPI_ALLTOALL, mpi_ialltoall, MPI_IALLTOALL, MPI_Alltoall, MPI_Ialltoall,
     ONE_EACH, ONE_EACH_ARGS);
COLL(mpi_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER, mpi_ineighbor_allgather,
     MPI_INEIGHBOR_ALLGATHER, MPI_Neighbor_allgather, MPI_Ineighbor_allgather, ONE_EACH,
     ONE_EACH_ARGS);
COLL(mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL, mpi_ineighbor_alltoall,
     MPI_INEIGHBOR_ALLTOALL, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, ONE_EACH,
     ONE_EACH_ARGS);

/* counts and displacements on the receive side */
#define RECV_V                                                                          \
  (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rcs, MPI_Fint *rds,        \
   MPI_Fint *rt)
#define RECV_V_ARGS (B(sb), *sc, T(st), B(rb), I(rcs), I(rds), T(rt))
COLL(mpi_gatherv, MPI_GATHERV, mpi_igatherv, MPI_IGATHERV, MPI_Gatherv, MPI_Igatherv,
     (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rcs, MPI_Fint *rds,
      MPI_Fint *rt, MPI_Fint *root),
     (B(sb), *sc, T(st), B(rb), I(rcs), I(rds), T(rt), *root));
COLL(mpi_allgatherv, MPI_ALLGATHERV, mpi_iallgatherv, MPI_IALLGATHERV, MPI_Allgatherv,
     MPI_Iallgatherv, RECV_V, RECV_V_ARGS);
COLL(mpi_neighbor_allgatherv, MPI_NEIGHBOR_ALLGATHERV, mpi_ineighbor_allgatherv,
     MPI_INEIGHBOR_ALLGATHERV, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, RECV_V,
     RECV_V_ARGS);
COLL(mpi_scatterv, MPI_SCATTERV, mpi_iscatterv, MPI_ISCATTERV, MPI_Scatterv, MPI_Iscatterv,
     (void *sb, MPI_Fint *scs, MPI_Fint *sds, MPI_Fint *st, void *rb, MPI_Fint *rc,
      MPI_Fint *rt, MPI_Fint *root),
     (B(sb), I(scs), I(sds), T(st), B(rb), *rc, T(rt), *root));

/* counts and displacements on both sides */
#define BOTH_V                                                                          \
  (void *sb, MPI_Fint *scs, MPI_Fint *sds, MPI_Fint *st, void *rb, MPI_Fint *rcs,       \
   MPI_Fint *rds, MPI_Fint *rt)
#define BOTH_V_ARGS (B(sb), I(scs), I(sds), T(st), B(rb), I(rcs), I(rds), T(rt))
COLL(mpi_alltoallv, MPI_ALLTOALLV, mpi_ialltoallv, MPI_IALLTOALLV, MPI_Alltoallv,
     MPI_Ialltoallv, BOTH_V, BOTH_V_ARGS);
COLL(mpi_neighbor_alltoallv, MPI_NEIGHBOR_ALLTOALLV, mpi_ineighbor_alltoallv,
     MPI_INEIGHBOR_ALLTOALLV, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, BOTH_V,
     BOTH_V_ARGS);

/* ---- the w forms: a type a slot ---- */

/* how many slots each side of a w form has on comm (nb: a neighbour
   form, its in- and out-degree); false where the host must judge comm */
static bool w_slots(MPI_Comm comm, bool nb, int *nsend, int *nrecv)
{
  if (nb) {
    bool nul[2 * DLP_COLL_MAXDIMS];
    return dlp_coll_degrees(comm, nrecv, nsend, nul, NULL);
  }
  int inter = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
      (inter ? PMPI_Comm_remote_size(comm, nsend) : PMPI_Comm_size(comm, nsend)) !=
          MPI_SUCCESS)
    return false;
  *nrecv = *nsend;
  return true;
}

/* the C types of n Fortran ones in `to` (NULL when the side is ignored,
   or nothing to convert); false: no memory */
static bool types_of(const MPI_Fint *f, int n, bool ignored, MPI_Datatype **to)
{
  *to = NULL;
  if (ignored || n <= 0 || !f)
    return true;
  if (!(*to = malloc((size_t)n * sizeof(MPI_Datatype))))
    return false;
  for (int i = 0; i < n; i++)
    (*to)[i] = PMPI_Type_f2c(f[i]);
  return true;
}

/* both w forms; displs are int arrays (Alltoallw) or addresses
   (Neighbor_alltoallw); req NULL: blocking */
static int w_form(bool nb, void *sb, MPI_Fint *scs, void *sds, MPI_Fint *sts, void *rb,
                  MPI_Fint *rcs, void *rds, MPI_Fint *rts, MPI_Fint *comm, MPI_Fint *req)
{
  MPI_Comm c = C(comm);
  void *s = B(sb);
  int ns = 0, nr = 0;
  MPI_Datatype *st = NULL, *rt = NULL;
  MPI_Request r = MPI_REQUEST_NULL;
  int rc;
  /* no count here: the host judges the communicator and the arrays */
  if (!w_slots(c, nb, &ns, &nr))
    ns = nr = 0;
  if (!types_of(sts, ns, s == MPI_IN_PLACE, &st) || !types_of(rts, nr, false, &rt))
    rc = dlp_raise(c, MPI_ERR_NO_MEM);
  else if (nb)
    rc = req ? MPI_Ineighbor_alltoallw(s, I(scs), sds, st, B(rb), I(rcs), rds, rt, c, &r)
             : MPI_Neighbor_alltoallw(s, I(scs), sds, st, B(rb), I(rcs), rds, rt, c);
  else
    rc = req ? MPI_Ialltoallw(s, I(scs), I(sds), st, B(rb), I(rcs), I(rds), rt, c, &r)
             : MPI_Alltoallw(s, I(scs), I(sds), st, B(rb), I(rcs), I(rds), rt, c);
  if (req)
    rc = req_out(rc, &r, req);
  free(st);
  free(rt);
  return rc;
}

void mpi_alltoallw_(void *sb, MPI_Fint *scs, MPI_Fint *sds, MPI_Fint *sts, void *rb,
                    MPI_Fint *rcs, MPI_Fint *rds, MPI_Fint *rts, MPI_Fint *comm,
                    MPI_Fint *ierr);
void mpi_alltoallw_(void *sb, MPI_Fint *scs, MPI_Fint *sds, MPI_Fint *sts, void *rb,
                    MPI_Fint *rcs, MPI_Fint *rds, MPI_Fint *rts, MPI_Fint *comm,
                    MPI_Fint *ierr)
{
  *ierr = w_form(false, sb, scs, sds, sts, rb, rcs, rds, rts, comm, NULL);
}
SPELLINGS(mpi_alltoallw, MPI_ALLTOALLW);

void mpi_ialltoallw_(void *sb, MPI_Fint *scs, MPI_Fint *sds, MPI_Fint *sts, void *rb,
                     MPI_Fint *rcs, MPI_Fint *rds, MPI_Fint *rts, MPI_Fint *comm,
                     MPI_Fint *req, MPI_Fint *ierr);
void mpi_ialltoallw_(void *sb, MPI_Fint *scs, MPI_Fint *sds, MPI_Fint *sts, void *rb,
                     MPI_Fint *rcs, MPI_Fint *rds, MPI_Fint *rts, MPI_Fint *comm,
                     MPI_Fint *req, MPI_Fint *ierr)
{
  *ierr = w_form(false, sb, scs, sds, sts, rb, rcs, rds, rts, comm, req);
}
SPELLINGS(mpi_ialltoallw, MPI_IALLTOALLW);

/* (the displacements: INTEGER(KIND=MPI_ADDRESS_KIND) arrays) */
void mpi_neighbor_alltoallw_(void *sb, MPI_Fint *scs, MPI_Aint *sds, MPI_Fint *sts,
                             void *rb, MPI_Fint *rcs, MPI_Aint *rds, MPI_Fint *rts,
                             MPI_Fint *comm, MPI_Fint *ierr);
void mpi_neighbor_alltoallw_(void *sb, MPI_Fint *scs, MPI_Aint *sds, MPI_Fint *sts,
                             void *rb, MPI_Fint *rcs, MPI_Aint *rds, MPI_Fint *rts,
                             MPI_Fint *comm, MPI_Fint *ierr)
{
  *ierr = w_form(true, sb, scs, sds, sts, rb, rcs, rds, rts, comm, NULL);
}
SPELLINGS(mpi_neighbor_alltoallw, MPI_NEIGHBOR_ALLTOALLW);

void mpi_ineighbor_alltoallw_(void *sb, MPI_Fint *scs, MPI_Aint *sds, MPI_Fint *sts,
                              void *rb, MPI_Fint *rcs, MPI_Aint *rds, MPI_Fint *rts,
                              MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr);
void mpi_ineighbor_alltoallw_(void *sb, MPI_Fint *scs, MPI_Aint *sds, MPI_Fint *sts,
                              void *rb, MPI_Fint *rcs, MPI_Aint *rds, MPI_Fint *rts,
                              MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)
{
  *ierr = w_form(true, sb, scs, sds, sts, rb, rcs, rds, rts, comm, req);
}
SPELLINGS(mpi_ineighbor_alltoallw, MPI_INEIGHBOR_ALLTOALLW);
