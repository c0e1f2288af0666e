/* The gathers to all and their neighbour forms the interposer serves:
 * blocking, nonblocking and persistent (how: coll.h), int and _c forms,
 * as coll_rooted.c serves the others: one send slot, n receive slots (the
 * group, or the topology's in-degree); MPI_IN_PLACE (not in the
 * neighbour forms) sends this rank's part from where it lies among them. */
#include "coll.h"
#include "../base/host.h"

static int allgather(bool c, bool v, bool nb, const void *sb, MPI_Count sc,
                     MPI_Datatype st, void *rb, MPI_Count rc, const void *rcs,
                     const void *rds, MPI_Datatype rt, MPI_Comm comm, const dlp_how *how)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me = -1, out;
  bool nul[2 * DLP_COLL_MAXDIMS];
  dlp_coll k;
  bool in_place = sb == MPI_IN_PLACE;
  if ((in_place || dlp_coll_named(st)) && dlp_coll_named(rt))
    goto pass;
  /* DLP_DEV_COLL_IN_PLACE_STAGED: in place, persistent, MPICH's call */
  if ((in_place && how && how->init && dlp_host_has(DLP_DEV_COLL_IN_PLACE_STAGED)) ||
      (nb ? in_place || !dlp_coll_degrees(comm, &n, &out, nul, NULL)
          : !dlp_coll_intra(comm, &n, &me)))
    goto pass;
  if ((v && (!rcs || !rds)) || (v && !nb && n == 1 && !(how && how->init) &&
                                dlp_host_has(DLP_DEV_ALLGATHERV_ONE_RANK)))
    goto pass;
  dlp_slots s = {.buf = sb, .n = 1, .count = sc, .type = st};
  dlp_slots r = {.buf = rb, .n = n, .count = rc, .counts = v ? rcs : NULL,
                 .displs = v ? rds : NULL, .counts_c = c, .displs_c = c, .type = rt,
                 .none = nb ? nul : NULL};
  if (!dlp_coll_prepare(&k, comm, in_place ? NULL : &s, &r,
                        in_place ? DLP_FILL_OWN : DLP_FILL_NONE, in_place ? me : -1, 0, NULL,
                        NULL, how))
    goto pass;
  const void *sbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.s, sb);
  MPI_Count scount = DLP_ONE(k.s, sc), rcount = DLP_ONE(k.r, rc);
  MPI_Datatype stype = DLP_TYPE(k.s, st), rtype = DLP_TYPE(k.r, rt);
  void *rbuf = DLP_BASE(k.r, rb);
  const dlp_hcount *rcs2 = DLP_COUNTS(k.r);
  const dlp_hdispl *rds2 = DLP_DISPLS(k.r);
  int err;
  if (nb && v)
    err = DLP_STAGED(how, in, PMPI_Neighbor_allgatherv, PMPI_Ineighbor_allgatherv,
                     PMPI_Neighbor_allgatherv_init, sbuf, scount, stype, rbuf, rcs2, rds2,
                     rtype, comm);
  else if (nb)
    err = DLP_STAGED(how, in, PMPI_Neighbor_allgather, PMPI_Ineighbor_allgather,
                     PMPI_Neighbor_allgather_init, sbuf, scount, stype, rbuf, rcount, rtype,
                     comm);
  else if (v)
    err = DLP_STAGED(how, in, PMPI_Allgatherv, PMPI_Iallgatherv, PMPI_Allgatherv_init, sbuf,
                     scount, stype, rbuf, rcs2, rds2, rtype, comm);
  else
    err = DLP_STAGED(how, in, PMPI_Allgather, PMPI_Iallgather, PMPI_Allgather_init, sbuf,
                     scount, stype, rbuf, rcount, rtype, comm);
  return dlp_coll_end(&k, err, in, how);
pass:
  if (nb && v)
    return DLP_PASS(how, c, PMPI_Neighbor_allgatherv, PMPI_Ineighbor_allgatherv,
                    PMPI_Neighbor_allgatherv_init, sb, sc, st, rb, rcs, rds, rt, comm);
  if (nb)
    return DLP_PASS(how, c, PMPI_Neighbor_allgather, PMPI_Ineighbor_allgather,
                    PMPI_Neighbor_allgather_init, sb, sc, st, rb, rc, rt, comm);
  if (v)
    return DLP_PASS(how, c, PMPI_Allgatherv, PMPI_Iallgatherv, PMPI_Allgatherv_init, sb,
                    sc, st, rb, rcs, rds, rt, comm);
  return DLP_PASS(how, c, PMPI_Allgather, PMPI_Iallgather, PMPI_Allgather_init, sb, sc, st,
                  rb, rc, rt, comm);
}

DLP_COLL_ENTRIES(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, allgather,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (false, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm),
                 (true, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm))

DLP_COLL_ENTRIES(MPI_Neighbor_allgather, MPI_Ineighbor_allgather,
                 MPI_Neighbor_allgather_init, allgather,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (false, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm),
                 (true, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm))

DLP_COLL_ENTRIES(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, allgather,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                 const int rds[], MPI_Datatype rt, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                 const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt,
                 MPI_Comm comm),
                 (false, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm),
                 (true, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm))

DLP_COLL_ENTRIES(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv,
                 MPI_Neighbor_allgatherv_init, allgather,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                 const int rds[], MPI_Datatype rt, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                 const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt,
                 MPI_Comm comm),
                 (false, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm),
                 (true, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm))
