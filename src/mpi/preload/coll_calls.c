/* The collectives the interposer serves, int and _c forms: each describes
 * the sides significant at this rank (coll.h), calls MPICH's _c form with
 * the staged sides as bytes, and otherwise hands MPICH the call as the
 * program made it: predefined types, intercommunicators, null arrays,
 * MPI_IN_PLACE where MPI forbids it, anything MPICH must judge. */
#include "coll.h"

/* ---- broadcast ---- */

static int bcast(bool c, void *buf, MPI_Count count, MPI_Datatype dt, int root,
                 MPI_Comm comm)
{
  int n, me;
  dlp_coll k;
  if (dlp_coll_named(dt) || !dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  dlp_slots one = {.buf = buf, .n = 1, .count = count, .type = dt};
  if (!dlp_coll_prepare(&k, comm, me == root ? &one : NULL, me == root ? NULL : &one,
                        DLP_FILL_NONE, -1, -1))
    goto pass;
  const dlp_side *s = me == root ? &k.s : &k.r;
  return dlp_coll_finish(&k, PMPI_Bcast_c(s->base, s->counts[0], s->type, root, comm));
pass:
  return c ? PMPI_Bcast_c(buf, count, dt, root, comm)
           : PMPI_Bcast(buf, (int)count, dt, root, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
  return bcast(false, buf, count, dt, root, comm);
}

int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
  return bcast(true, buf, count, dt, root, comm);
}

/* ---- gathers and scatters to a root ---- */

/* Gather(v): the receive side at the root only; its own part stays where
   MPI_IN_PLACE says it is */
static int gather(bool c, bool v, const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                  MPI_Count rc, const void *rcs, const void *rds, MPI_Datatype rt,
                  int root, MPI_Comm comm)
{
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
  int rc2 = v ? PMPI_Gatherv_c(sbuf, scount, stype, DLP_BASE(k.r, rb), k.r.counts, k.r.displs,
                               DLP_TYPE(k.r, rt), root, comm)
              : PMPI_Gather_c(sbuf, scount, stype, DLP_BASE(k.r, rb), DLP_ONE(k.r, rc),
                              DLP_TYPE(k.r, rt), root, comm);
  return dlp_coll_finish(&k, rc2);
pass:
  if (v)
    return c ? PMPI_Gatherv_c(sb, sc, st, rb, rcs, rds, rt, root, comm)
             : PMPI_Gatherv(sb, (int)sc, st, rb, rcs, rds, rt, root, comm);
  return c ? PMPI_Gather_c(sb, sc, st, rb, rc, rt, root, comm)
           : PMPI_Gather(sb, (int)sc, st, rb, (int)rc, rt, root, comm);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm comm)
{
  return gather(false, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm);
}

int MPI_Gather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, int root, MPI_Comm comm)
{
  return gather(true, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm);
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                const int rds[], MPI_Datatype rt, int root, MPI_Comm comm)
{
  return gather(false, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm);
}

int MPI_Gatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                  const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt, int root,
                  MPI_Comm comm)
{
  return gather(true, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm);
}

/* Scatter(v): the send side at the root only; MPI_IN_PLACE there keeps
   the root's own part where it is */
static int scatter(bool c, bool v, const void *sb, MPI_Count sc, const void *scs,
                   const void *sds, MPI_Datatype st, void *rb, MPI_Count rc,
                   MPI_Datatype rt, int root, MPI_Comm comm)
{
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
  int rc2 = v ? PMPI_Scatterv_c(DLP_BASE(k.s, sb), k.s.counts, k.s.displs, DLP_TYPE(k.s, st), rbuf,
                                rcount, rtype, root, comm)
              : PMPI_Scatter_c(DLP_BASE(k.s, sb), DLP_ONE(k.s, sc), DLP_TYPE(k.s, st), rbuf, rcount,
                               rtype, root, comm);
  return dlp_coll_finish(&k, rc2);
pass:
  if (v)
    return c ? PMPI_Scatterv_c(sb, scs, sds, st, rb, rc, rt, root, comm)
             : PMPI_Scatterv(sb, scs, sds, st, rb, (int)rc, rt, root, comm);
  return c ? PMPI_Scatter_c(sb, sc, st, rb, rc, rt, root, comm)
           : PMPI_Scatter(sb, (int)sc, st, rb, (int)rc, rt, root, comm);
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                MPI_Datatype rt, int root, MPI_Comm comm)
{
  return scatter(false, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm);
}

int MPI_Scatter_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                  MPI_Datatype rt, int root, MPI_Comm comm)
{
  return scatter(true, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm);
}

int MPI_Scatterv(const void *sb, const int scs[], const int sds[], MPI_Datatype st,
                 void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
  return scatter(false, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm);
}

int MPI_Scatterv_c(const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                   MPI_Datatype st, void *rb, MPI_Count rc, MPI_Datatype rt, int root,
                   MPI_Comm comm)
{
  return scatter(true, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm);
}

/* ---- gathers to all, all-to-all, and their neighbour forms ---- */

/* Allgather(v) and Neighbor_allgather(v): one send slot, n receive slots
   (n: the group, or the in-degree); MPI_IN_PLACE (not in the neighbour
   forms) sends this rank's part from where it lies among them */
static int allgather(bool c, bool v, bool nb, const void *sb, MPI_Count sc,
                     MPI_Datatype st, void *rb, MPI_Count rc, const void *rcs,
                     const void *rds, MPI_Datatype rt, MPI_Comm comm)
{
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
  int rc2;
  if (nb)
    rc2 = v ? PMPI_Neighbor_allgatherv_c(sbuf, scount, stype, rbuf, k.r.counts,
                                         k.r.displs, DLP_TYPE(k.r, rt), comm)
            : PMPI_Neighbor_allgather_c(sbuf, scount, stype, rbuf, DLP_ONE(k.r, rc),
                                        DLP_TYPE(k.r, rt), comm);
  else
    rc2 = v ? PMPI_Allgatherv_c(sbuf, scount, stype, rbuf, k.r.counts, k.r.displs,
                                DLP_TYPE(k.r, rt), comm)
            : PMPI_Allgather_c(sbuf, scount, stype, rbuf, DLP_ONE(k.r, rc), DLP_TYPE(k.r, rt), comm);
  return dlp_coll_finish(&k, rc2);
pass:
  if (nb && v)
    return c ? PMPI_Neighbor_allgatherv_c(sb, sc, st, rb, rcs, rds, rt, comm)
             : PMPI_Neighbor_allgatherv(sb, (int)sc, st, rb, rcs, rds, rt, comm);
  if (nb)
    return c ? PMPI_Neighbor_allgather_c(sb, sc, st, rb, rc, rt, comm)
             : PMPI_Neighbor_allgather(sb, (int)sc, st, rb, (int)rc, rt, comm);
  if (v)
    return c ? PMPI_Allgatherv_c(sb, sc, st, rb, rcs, rds, rt, comm)
             : PMPI_Allgatherv(sb, (int)sc, st, rb, rcs, rds, rt, comm);
  return c ? PMPI_Allgather_c(sb, sc, st, rb, rc, rt, comm)
           : PMPI_Allgather(sb, (int)sc, st, rb, (int)rc, rt, comm);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(false, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm);
}

int MPI_Allgather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                    MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(true, false, false, sb, sc, st, rb, rc, NULL, NULL, rt, comm);
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                   const int rds[], MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(false, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm);
}

int MPI_Allgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                     const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt,
                     MPI_Comm comm)
{
  return allgather(true, true, false, sb, sc, st, rb, 0, rcs, rds, rt, comm);
}

int MPI_Neighbor_allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                           MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(false, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm);
}

int MPI_Neighbor_allgather_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                             MPI_Count rc, MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(true, false, true, sb, sc, st, rb, rc, NULL, NULL, rt, comm);
}

int MPI_Neighbor_allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                            const int rcs[], const int rds[], MPI_Datatype rt,
                            MPI_Comm comm)
{
  return allgather(false, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm);
}

int MPI_Neighbor_allgatherv_c(const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                              const MPI_Count rcs[], const MPI_Aint rds[],
                              MPI_Datatype rt, MPI_Comm comm)
{
  return allgather(true, true, true, sb, sc, st, rb, 0, rcs, rds, rt, comm);
}
