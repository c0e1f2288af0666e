/* The collectives the interposer serves, blocking and nonblocking (q: the
 * program's request), int and _c forms: each describes the sides
 * significant at this rank (coll.h), calls MPICH's _c form with the staged
 * sides as bytes, and otherwise hands MPICH the call as the program made
 * it: predefined types, intercommunicators, null arrays, MPI_IN_PLACE
 * where MPI forbids it, anything MPICH must judge. */
#include "coll.h"

/* ---- broadcast ---- */

static int bcast(bool c, void *buf, MPI_Count count, MPI_Datatype dt, int root,
                 MPI_Comm comm, MPI_Request *q)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me;
  dlp_coll k;
  if (dlp_coll_named(dt) || !dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  dlp_slots one = {.buf = buf, .n = 1, .count = count, .type = dt};
  if (!dlp_coll_prepare(&k, comm, me == root ? &one : NULL, me == root ? NULL : &one,
                        DLP_FILL_NONE, -1, -1))
    goto pass;
  const dlp_side *s = me == root ? &k.s : &k.r;
  int rc = q ? PMPI_Ibcast_c(s->base, s->counts[0], s->type, root, comm, &in)
             : PMPI_Bcast_c(s->base, s->counts[0], s->type, root, comm);
  return dlp_coll_end(&k, rc, in, q);
pass:
  if (q)
    return c ? PMPI_Ibcast_c(buf, count, dt, root, comm, q)
             : PMPI_Ibcast(buf, (int)count, dt, root, comm, q);
  return c ? PMPI_Bcast_c(buf, count, dt, root, comm)
           : PMPI_Bcast(buf, (int)count, dt, root, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
  return bcast(false, buf, count, dt, root, comm, NULL);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
               MPI_Request *q)
{
  return bcast(false, buf, count, dt, root, comm, q);
}

int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
  return bcast(true, buf, count, dt, root, comm, NULL);
}

int MPI_Ibcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm,
                 MPI_Request *q)
{
  return bcast(true, buf, count, dt, root, comm, q);
}

/* ---- gathers and scatters to a root ---- */

/* Gather(v): the receive side at the root only; its own part stays where
   MPI_IN_PLACE says it is */
static int gather(bool c, bool v, const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                  MPI_Count rc, const void *rcs, const void *rds, MPI_Datatype rt,
                  int root, MPI_Comm comm, MPI_Request *q)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me;
  dlp_coll k;
  if (!dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  bool at_root = me == root, in_place = at_root && sb == MPI_IN_PLACE;
  if ((in_place || dlp_coll_named(st)) && (!at_root || dlp_coll_named(rt)))
    goto pass;
  if (sb == MPI_IN_PLACE && !at_root)
    goto pass;
  if (at_root && v && (!rcs || !rds))
    goto pass;
  dlp_slots s = {.buf = sb, .n = 1, .count = sc, .type = st};
  dlp_slots r = {.buf = rb, .n = n, .count = rc, .counts = v ? rcs : NULL,
                 .displs = v ? rds : NULL, .counts_c = c, .displs_c = c, .type = rt};
  if (!dlp_coll_prepare(&k, comm, in_place ? NULL : &s, at_root ? &r : NULL,
                        DLP_FILL_NONE, in_place ? me : -1, -1))
    goto pass;
  const void *sbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.s, sb);
  MPI_Count scount = DLP_ONE(k.s, sc);
  MPI_Datatype stype = DLP_TYPE(k.s, st);
  void *rbuf = DLP_BASE(k.r, rb);
  MPI_Datatype rtype = DLP_TYPE(k.r, rt);
  int rc2;
  if (v)
    rc2 = q ? PMPI_Igatherv_c(sbuf, scount, stype, rbuf, k.r.counts, k.r.displs, rtype, root,
                              comm, &in)
            : PMPI_Gatherv_c(sbuf, scount, stype, rbuf, k.r.counts, k.r.displs, rtype, root,
                             comm);
  else
    rc2 = q ? PMPI_Igather_c(sbuf, scount, stype, rbuf, DLP_ONE(k.r, rc), rtype, root, comm,
                             &in)
            : PMPI_Gather_c(sbuf, scount, stype, rbuf, DLP_ONE(k.r, rc), rtype, root, comm);
  return dlp_coll_end(&k, rc2, in, q);
pass:
  if (v && q)
    return c ? PMPI_Igatherv_c(sb, sc, st, rb, rcs, rds, rt, root, comm, q)
             : PMPI_Igatherv(sb, (int)sc, st, rb, rcs, rds, rt, root, comm, q);
  if (v)
    return c ? PMPI_Gatherv_c(sb, sc, st, rb, rcs, rds, rt, root, comm)
             : PMPI_Gatherv(sb, (int)sc, st, rb, rcs, rds, rt, root, comm);
  if (q)
    return c ? PMPI_Igather_c(sb, sc, st, rb, rc, rt, root, comm, q)
             : PMPI_Igather(sb, (int)sc, st, rb, (int)rc, rt, root, comm, q);
  return c ? PMPI_Gather_c(sb, sc, st, rb, rc, rt, root, comm)
           : PMPI_Gather(sb, (int)sc, st, rb, (int)rc, rt, root, comm);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm comm)
{
  return gather(false, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm, NULL);
}

int MPI_Igather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *q)
{
  return gather(false, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm, q);
}

int MPI_Gather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, int root, MPI_Comm comm)
{
  return gather(true, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm, NULL);
}

int MPI_Igather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                  MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *q)
{
  return gather(true, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm, q);
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                const int rds[], MPI_Datatype rt, int root, MPI_Comm comm)
{
  return gather(false, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm, NULL);
}

int MPI_Igatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                 const int rds[], MPI_Datatype rt, int root, MPI_Comm comm,
                 MPI_Request *q)
{
  return gather(false, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm, q);
}

int MPI_Gatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                  const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt, int root,
                  MPI_Comm comm)
{
  return gather(true, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm, NULL);
}

int MPI_Igatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                   const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt, int root,
                   MPI_Comm comm, MPI_Request *q)
{
  return gather(true, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm, q);
}

/* Scatter(v): the send side at the root only; MPI_IN_PLACE there keeps
   the root's own part where it is */
static int scatter(bool c, bool v, const void *sb, MPI_Count sc, const void *scs,
                   const void *sds, MPI_Datatype st, void *rb, MPI_Count rc,
                   MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *q)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me;
  dlp_coll k;
  if (!dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  bool at_root = me == root, in_place = at_root && rb == MPI_IN_PLACE;
  if ((!at_root || dlp_coll_named(st)) && (in_place || dlp_coll_named(rt)))
    goto pass;
  if (rb == MPI_IN_PLACE && !at_root)
    goto pass;
  if (at_root && v && (!scs || !sds))
    goto pass;
  dlp_slots s = {.buf = sb, .n = n, .count = sc, .counts = v ? scs : NULL,
                 .displs = v ? sds : NULL, .counts_c = c, .displs_c = c, .type = st};
  dlp_slots r = {.buf = rb, .n = 1, .count = rc, .type = rt};
  if (!dlp_coll_prepare(&k, comm, at_root ? &s : NULL, in_place ? NULL : &r,
                        DLP_FILL_NONE, -1, -1))
    goto pass;
  void *rbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.r, rb);
  MPI_Count rcount = DLP_ONE(k.r, rc);
  MPI_Datatype rtype = DLP_TYPE(k.r, rt);
  const void *sbuf = DLP_BASE(k.s, sb);
  MPI_Datatype stype = DLP_TYPE(k.s, st);
  int rc2;
  if (v)
    rc2 = q ? PMPI_Iscatterv_c(sbuf, k.s.counts, k.s.displs, stype, rbuf, rcount, rtype, root,
                               comm, &in)
            : PMPI_Scatterv_c(sbuf, k.s.counts, k.s.displs, stype, rbuf, rcount, rtype, root,
                              comm);
  else
    rc2 = q ? PMPI_Iscatter_c(sbuf, DLP_ONE(k.s, sc), stype, rbuf, rcount, rtype, root, comm,
                              &in)
            : PMPI_Scatter_c(sbuf, DLP_ONE(k.s, sc), stype, rbuf, rcount, rtype, root, comm);
  return dlp_coll_end(&k, rc2, in, q);
pass:
  if (v && q)
    return c ? PMPI_Iscatterv_c(sb, scs, sds, st, rb, rc, rt, root, comm, q)
             : PMPI_Iscatterv(sb, scs, sds, st, rb, (int)rc, rt, root, comm, q);
  if (v)
    return c ? PMPI_Scatterv_c(sb, scs, sds, st, rb, rc, rt, root, comm)
             : PMPI_Scatterv(sb, scs, sds, st, rb, (int)rc, rt, root, comm);
  if (q)
    return c ? PMPI_Iscatter_c(sb, sc, st, rb, rc, rt, root, comm, q)
             : PMPI_Iscatter(sb, (int)sc, st, rb, (int)rc, rt, root, comm, q);
  return c ? PMPI_Scatter_c(sb, sc, st, rb, rc, rt, root, comm)
           : PMPI_Scatter(sb, (int)sc, st, rb, (int)rc, rt, root, comm);
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                MPI_Datatype rt, int root, MPI_Comm comm)
{
  return scatter(false, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm, NULL);
}

int MPI_Iscatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *q)
{
  return scatter(false, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm, q);
}

int MPI_Scatter_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                  MPI_Datatype rt, int root, MPI_Comm comm)
{
  return scatter(true, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm, NULL);
}

int MPI_Iscatter_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                   MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *q)
{
  return scatter(true, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm, q);
}

int MPI_Scatterv(const void *sb, const int scs[], const int sds[], MPI_Datatype st,
                 void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
  return scatter(false, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm, NULL);
}

int MPI_Iscatterv(const void *sb, const int scs[], const int sds[], MPI_Datatype st,
                  void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm,
                  MPI_Request *q)
{
  return scatter(false, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm, q);
}

int MPI_Scatterv_c(const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                   MPI_Datatype st, void *rb, MPI_Count rc, MPI_Datatype rt, int root,
                   MPI_Comm comm)
{
  return scatter(true, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm, NULL);
}

int MPI_Iscatterv_c(const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                    MPI_Datatype st, void *rb, MPI_Count rc, MPI_Datatype rt, int root,
                    MPI_Comm comm, MPI_Request *q)
{
  return scatter(true, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm, q);
}

/* ---- gathers to all, all-to-all, and their neighbour forms ---- */

/* Allgather(v) and Neighbor_allgather(v): one send slot, n receive slots
   (n: the group, or the in-degree); MPI_IN_PLACE (not in the neighbour
   forms) sends this rank's part from where it lies among them */
static int allgather(bool c, bool v, bool nb, const void *sb, MPI_Count sc,
                     MPI_Datatype st, void *rb, MPI_Count rc, const void *rcs,
                     const void *rds, MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me = -1, out;
  bool nul[2 * DLP_COLL_MAXDIMS];
  dlp_coll k;
  bool in_place = sb == MPI_IN_PLACE;
  if ((in_place || dlp_coll_named(st)) && dlp_coll_named(rt))
    goto pass;
  if (nb ? in_place || !dlp_coll_degrees(comm, &n, &out, nul)
         : !dlp_coll_intra(comm, &n, &me))
    goto pass;
  if (v && (!rcs || !rds))
    goto pass;
  dlp_slots s = {.buf = sb, .n = 1, .count = sc, .type = st};
  dlp_slots r = {.buf = rb, .n = n, .count = rc, .counts = v ? rcs : NULL,
                 .displs = v ? rds : NULL, .counts_c = c, .displs_c = c, .type = rt,
                 .none = nb ? nul : NULL};
  if (!dlp_coll_prepare(&k, comm, in_place ? NULL : &s, &r,
                        in_place ? DLP_FILL_OWN : DLP_FILL_NONE, in_place ? me : -1, -1))
    goto pass;
  const void *sbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.s, sb);
  MPI_Count scount = DLP_ONE(k.s, sc);
  MPI_Datatype stype = DLP_TYPE(k.s, st);
  void *rbuf = DLP_BASE(k.r, rb);
  MPI_Datatype rtype = DLP_TYPE(k.r, rt);
  MPI_Count rcount = DLP_ONE(k.r, rc);
  const MPI_Count *rcs2 = k.r.counts;
  const MPI_Aint *rds2 = k.r.displs;
  int rc2;
  if (nb && v)
    rc2 = q ? PMPI_Ineighbor_allgatherv_c(sbuf, scount, stype, rbuf, rcs2, rds2, rtype, comm,
                                          &in)
            : PMPI_Neighbor_allgatherv_c(sbuf, scount, stype, rbuf, rcs2, rds2, rtype, comm);
  else if (nb)
    rc2 = q ? PMPI_Ineighbor_allgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm, &in)
            : PMPI_Neighbor_allgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  else if (v)
    rc2 = q ? PMPI_Iallgatherv_c(sbuf, scount, stype, rbuf, rcs2, rds2, rtype, comm, &in)
            : PMPI_Allgatherv_c(sbuf, scount, stype, rbuf, rcs2, rds2, rtype, comm);
  else
    rc2 = q ? PMPI_Iallgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm, &in)
            : PMPI_Allgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  return dlp_coll_end(&k, rc2, in, q);
pass:
  if (nb && v && q)
    return c ? PMPI_Ineighbor_allgatherv_c(sb, sc, st, rb, rcs, rds, rt, comm, q)
             : PMPI_Ineighbor_allgatherv(sb, (int)sc, st, rb, rcs, rds, rt, comm, q);
  if (nb && v)
    return c ? PMPI_Neighbor_allgatherv_c(sb, sc, st, rb, rcs, rds, rt, comm)
             : PMPI_Neighbor_allgatherv(sb, (int)sc, st, rb, rcs, rds, rt, comm);
  if (nb && q)
    return c ? PMPI_Ineighbor_allgather_c(sb, sc, st, rb, rc, rt, comm, q)
             : PMPI_Ineighbor_allgather(sb, (int)sc, st, rb, (int)rc, rt, comm, q);
  if (nb)
    return c ? PMPI_Neighbor_allgather_c(sb, sc, st, rb, rc, rt, comm)
             : PMPI_Neighbor_allgather(sb, (int)sc, st, rb, (int)rc, rt, comm);
  if (v && q)
    return c ? PMPI_Iallgatherv_c(sb, sc, st, rb, rcs, rds, rt, comm, q)
             : PMPI_Iallgatherv(sb, (int)sc, st, rb, rcs, rds, rt, comm, q);
  if (v)
    return c ? PMPI_Allgatherv_c(sb, sc, st, rb, rcs, rds, rt, comm)
             : PMPI_Allgatherv(sb, (int)sc, st, rb, rcs, rds, rt, comm);
  if (q)
    return c ? PMPI_Iallgather_c(sb, sc, st, rb, rc, rt, comm, q)
             : PMPI_Iallgather(sb, (int)sc, st, rb, (int)rc, rt, comm, q);
  return c ? PMPI_Allgather_c(sb, sc, st, rb, rc, rt, comm)
           : PMPI_Allgather(sb, (int)sc, st, rb, (int)rc, rt, comm);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(false, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm, NULL);
}

int MPI_Iallgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                   MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
  return allgather(false, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm, q);
}

int MPI_Allgather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                    MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(true, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm, NULL);
}

int MPI_Iallgather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                     MPI_Count rc, MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
  return allgather(true, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm, q);
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                   const int rds[], MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(false, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm, NULL);
}

int MPI_Iallgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                    const int rds[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
  return allgather(false, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm, q);
}

int MPI_Allgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                     const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt,
                     MPI_Comm comm)
{
  return allgather(true, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm, NULL);
}

int MPI_Iallgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                      const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt,
                      MPI_Comm comm, MPI_Request *q)
{
  return allgather(true, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm, q);
}

int MPI_Neighbor_allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                           MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(false, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm, NULL);
}

int MPI_Ineighbor_allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                            MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
  return allgather(false, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm, q);
}

int MPI_Neighbor_allgather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                             MPI_Count rc, MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(true, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm, NULL);
}

int MPI_Ineighbor_allgather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                              MPI_Count rc, MPI_Datatype rt, MPI_Comm comm,
                              MPI_Request *q)
{
  return allgather(true, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm, q);
}

int MPI_Neighbor_allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                            const int rcs[], const int rds[], MPI_Datatype rt,
                            MPI_Comm comm)
{
  return allgather(false, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm, NULL);
}

int MPI_Ineighbor_allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                             const int rcs[], const int rds[], MPI_Datatype rt,
                             MPI_Comm comm, MPI_Request *q)
{
  return allgather(false, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm, q);
}

int MPI_Neighbor_allgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                              const MPI_Count rcs[], const MPI_Aint rds[],
                              MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(true, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm, NULL);
}

int MPI_Ineighbor_allgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                               const MPI_Count rcs[], const MPI_Aint rds[],
                               MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
  return allgather(true, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm, q);
}
