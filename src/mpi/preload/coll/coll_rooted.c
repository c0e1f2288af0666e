/* The broadcast, gathers and scatters to a root the interposer serves:
 * blocking, nonblocking and persistent (how: coll.h), int and _c forms.
 * Each describes the sides significant at this rank (coll.h), calls
 * MPICH's _c form of the same call with the staged sides as bytes, and
 * otherwise hands MPICH the call as the program made it: predefined
 * types, intercommunicators, null arrays, MPI_IN_PLACE where MPI forbids
 * it, a root outside the group, anything MPICH must judge. */
#include "coll.h"
#include "../base/host.h"

/* the buffer at every rank: sent from the root, received elsewhere */
static int bcast(bool c, void *buf, MPI_Count count, MPI_Datatype dt, int root,
                 MPI_Comm comm, const dlp_how *how)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me;
  dlp_coll k;
  if (dlp_coll_named(dt) || !dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  dlp_slots one = {.buf = buf, .n = 1, .count = count, .type = dt};
  if (!dlp_coll_prepare(&k, comm, me == root ? &one : NULL, me == root ? NULL : &one,
                        DLP_FILL_NONE, -1, 0, NULL, NULL, how))
    goto pass;
  const dlp_side *s = me == root ? &k.s : &k.r;
  int rc = DLP_STAGED(how, in, PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init, s->base,
                      s->counts[0], s->type, root, comm);
  return dlp_coll_end(&k, rc, in, how);
pass:
  return DLP_PASS(how, c, PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init, buf, count, dt, root,
                  comm);
}

/* Gather(v): the receive side at the root only; its own part stays where
   MPI_IN_PLACE says it is */
static int gather(bool c, bool v, const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                  MPI_Count rc, const void *rcs, const void *rds, MPI_Datatype rt,
                  int root, MPI_Comm comm, const dlp_how *how)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me;
  dlp_coll k;
  if (!dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  bool at_root = me == root, in_place = at_root && sb == MPI_IN_PLACE;
  if ((in_place || dlp_coll_named(st)) && (!at_root || dlp_coll_named(rt)))
    goto pass;
  if (in_place && how && how->init && dlp_host_has(DLP_DEV_COLL_IN_PLACE_STAGED))
    goto pass;
  if ((sb == MPI_IN_PLACE && !at_root) || (at_root && v && (!rcs || !rds)))
    goto pass;
  dlp_slots s = {.buf = sb, .n = 1, .count = sc, .type = st};
  dlp_slots r = {.buf = rb, .n = n, .count = rc, .counts = v ? rcs : NULL,
                 .displs = v ? rds : NULL, .counts_c = c, .displs_c = c, .type = rt};
  int zero = 0;
  if (!dlp_coll_prepare(&k, comm, in_place ? NULL : &s, at_root ? &r : NULL,
                        DLP_FILL_NONE, in_place ? me : -1, at_root && !in_place, &me, &zero,
                        how))
    goto pass;
  const void *sbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.s, sb);
  MPI_Count scount = DLP_ONE(k.s, sc);
  MPI_Datatype stype = DLP_TYPE(k.s, st), rtype = DLP_TYPE(k.r, rt);
  void *rbuf = DLP_BASE(k.r, rb);
  int err =
      v ? DLP_STAGED(how, in, PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init, sbuf, scount,
                     stype, rbuf, DLP_COUNTS(k.r), DLP_DISPLS(k.r), rtype, root, comm)
        : DLP_STAGED(how, in, PMPI_Gather, PMPI_Igather, PMPI_Gather_init, sbuf, scount,
                     stype, rbuf, DLP_ONE(k.r, rc), rtype, root, comm);
  return dlp_coll_end(&k, err, in, how);
pass:
  if (v)
    return DLP_PASS(how, c, PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init, sb, sc, st, rb,
                    rcs, rds, rt, root, comm);
  return DLP_PASS(how, c, PMPI_Gather, PMPI_Igather, PMPI_Gather_init, sb, sc, st, rb, rc,
                  rt, root, comm);
}

/* Scatter(v): the send side at the root only; MPI_IN_PLACE there keeps
   the root's own part where it is */
static int scatter(bool c, bool v, const void *sb, MPI_Count sc, const void *scs,
                   const void *sds, MPI_Datatype st, void *rb, MPI_Count rc,
                   MPI_Datatype rt, int root, MPI_Comm comm, const dlp_how *how)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int n, me;
  dlp_coll k;
  if (!dlp_coll_intra(comm, &n, &me) || root < 0 || root >= n)
    goto pass;
  bool at_root = me == root, in_place = at_root && rb == MPI_IN_PLACE;
  if ((!at_root || dlp_coll_named(st)) && (in_place || dlp_coll_named(rt)))
    goto pass;
  if (in_place && how && how->init && dlp_host_has(DLP_DEV_COLL_IN_PLACE_STAGED))
    goto pass;
  if ((rb == MPI_IN_PLACE && !at_root) || (at_root && v && (!scs || !sds)))
    goto pass;
  dlp_slots s = {.buf = sb, .n = n, .count = sc, .counts = v ? scs : NULL,
                 .displs = v ? sds : NULL, .counts_c = c, .displs_c = c, .type = st};
  dlp_slots r = {.buf = rb, .n = 1, .count = rc, .type = rt};
  if (!dlp_coll_prepare(&k, comm, at_root ? &s : NULL, in_place ? NULL : &r,
                        DLP_FILL_NONE, -1, 0, NULL, NULL, how))
    goto pass;
  void *rbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.r, rb);
  MPI_Count rcount = DLP_ONE(k.r, rc);
  MPI_Datatype rtype = DLP_TYPE(k.r, rt), stype = DLP_TYPE(k.s, st);
  const void *sbuf = DLP_BASE(k.s, sb);
  int err = v ? DLP_STAGED(how, in, PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init, sbuf,
                           DLP_COUNTS(k.s), DLP_DISPLS(k.s), stype, rbuf, rcount, rtype,
                           root, comm)
              : DLP_STAGED(how, in, PMPI_Scatter, PMPI_Iscatter, PMPI_Scatter_init, sbuf,
                           DLP_ONE(k.s, sc), stype, rbuf, rcount, rtype, root, comm);
  return dlp_coll_end(&k, err, in, how);
pass:
  if (v)
    return DLP_PASS(how, c, PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init, sb, scs, sds,
                    st, rb, rc, rt, root, comm);
  return DLP_PASS(how, c, PMPI_Scatter, PMPI_Iscatter, PMPI_Scatter_init, sb, sc, st, rb,
                  rc, rt, root, comm);
}

DLP_COLL_ENTRIES(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, bcast,
                 (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm),
                 (void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm),
                 (false, buf, count, dt, root, comm), (true, buf, count, dt, root, comm))

DLP_COLL_ENTRIES(MPI_Gather, MPI_Igather, MPI_Gather_init, gather,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, int root, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                  MPI_Datatype rt, int root, MPI_Comm comm),
                 (false, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm),
                 (true, false, sb, sc, st, rb, rc, NULL, NULL, rt, root, comm))

DLP_COLL_ENTRIES(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, gather,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                 const int rds[], MPI_Datatype rt, int root, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb,
                 const MPI_Count rcs[], const MPI_Aint rds[], MPI_Datatype rt, int root,
                 MPI_Comm comm),
                 (false, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm),
                 (true, true, sb, sc, st, rb, 0, rcs, rds, rt, root, comm))

DLP_COLL_ENTRIES(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, scatter,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, int root, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, int root, MPI_Comm comm),
                 (false, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm),
                 (true, false, sb, sc, NULL, NULL, st, rb, rc, rt, root, comm))

DLP_COLL_ENTRIES(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, scatter,
                 (const void *sb, const int scs[], const int sds[], MPI_Datatype st,
                 void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm),
                 (const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                 MPI_Datatype st, void *rb, MPI_Count rc, MPI_Datatype rt, int root,
                 MPI_Comm comm),
                 (false, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm),
                 (true, true, sb, 0, scs, sds, st, rb, rc, rt, root, comm))
