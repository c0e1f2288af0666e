/* The all-to-all collectives and their neighbour forms the interposer
 * serves: blocking, nonblocking and persistent (how: coll.h), int and _c,
 * as coll_rooted.c serves the others: n send and n receive slots (the
 * group, or the topology's out- and in-degree); MPI_IN_PLACE (not in the
 * neighbour forms) exchanges the receive slots' own data. The w forms
 * stage each slot alone, so a slot MPICH moves well (predefined or dense)
 * stays the user's. */
#include "coll.h"
#include "../base/host.h"


/* the slots' count: the group (and *me) or the neighbours (*me -1; nul
   and self: dlp_coll_degrees', self only set for them) */
static bool peers(bool nb, MPI_Comm comm, int *nout, int *nin, int *me,
                  bool nul[2 * DLP_COLL_MAXDIMS], bool self[2 * DLP_COLL_MAXDIMS])
{
  *me = -1;
  for (int i = 0; i < 2 * DLP_COLL_MAXDIMS; i++)
    nul[i] = false;
  if (nb)
    return dlp_coll_degrees(comm, nin, nout, nul, self);
  if (!dlp_coll_intra(comm, nout, me))
    return false;
  *nin = *nout;
  return true;
}

static bool all_named(int n, const MPI_Datatype *t)
{
  for (int i = 0; i < n; i++)
    if (!dlp_coll_named(t[i]))
      return false;
  return true;
}

/* Alltoall(v) and Neighbor_alltoall(v): one type a side */
static int alltoall(bool c, bool v, bool nb, const void *sb, MPI_Count sc, const void *scs,
                    const void *sds, MPI_Datatype st, void *rb, MPI_Count rc,
                    const void *rcs, const void *rds, MPI_Datatype rt, MPI_Comm comm,
                    const dlp_how *how)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int nout, nin, me;
  bool nul[2 * DLP_COLL_MAXDIMS];
  dlp_coll k;
  bool in_place = sb == MPI_IN_PLACE;
  if ((in_place || dlp_coll_named(st)) && dlp_coll_named(rt))
    goto pass;
  /* DLP_DEV_COLL_IN_PLACE_STAGED: in place, not blocking, MPICH's call */
  if ((in_place && (nb || (how && dlp_host_has(DLP_DEV_COLL_IN_PLACE_STAGED)))) ||
      !peers(nb, comm, &nout, &nin, &me, nul, NULL))
    goto pass;
  if (v && (!rcs || !rds || (!in_place && (!scs || !sds))))
    goto pass;
  dlp_slots s = {.buf = sb, .n = nout, .count = sc, .counts = v ? scs : NULL,
                 .displs = v ? sds : NULL, .counts_c = c, .displs_c = c, .type = st,
                 .none = nul};
  dlp_slots r = {.buf = rb, .n = nin, .count = rc, .counts = v ? rcs : NULL,
                 .displs = v ? rds : NULL, .counts_c = c, .displs_c = c, .type = rt,
                 .none = nul};
  if (!dlp_coll_prepare(&k, comm, in_place ? NULL : &s, &r,
                        in_place ? DLP_FILL_ALL : DLP_FILL_NONE, in_place ? me : -1,
                        !in_place && me >= 0, &me, &me, how))
    goto pass;
  /* MPI_IN_PLACE: the send arguments are ignored; the receive side's fill
     their places */
  const dlp_side *ss = in_place ? &k.r : &k.s;
  const void *sbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.s, sb);
  void *rbuf = DLP_BASE(k.r, rb);
  MPI_Datatype stype = in_place ? k.r.type : DLP_TYPE(k.s, st), rtype = DLP_TYPE(k.r, rt);
  const dlp_hcount *scs2 = DLP_COUNTS(*ss), *rcs2 = DLP_COUNTS(k.r);
  const dlp_hdispl *sds2 = DLP_DISPLS(*ss), *rds2 = DLP_DISPLS(k.r);
  MPI_Count sc2 = in_place ? 0 : DLP_ONE(k.s, sc), rc2 = DLP_ONE(k.r, rc);
  int err;
  if (v && nb)
    err = DLP_STAGED(how, in, PMPI_Neighbor_alltoallv, PMPI_Ineighbor_alltoallv,
                     PMPI_Neighbor_alltoallv_init, sbuf, scs2, sds2, stype, rbuf, rcs2,
                     rds2, rtype, comm);
  else if (v)
    err = DLP_STAGED(how, in, PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, sbuf,
                     scs2, sds2, stype, rbuf, rcs2, rds2, rtype, comm);
  else if (nb)
    err = DLP_STAGED(how, in, PMPI_Neighbor_alltoall, PMPI_Ineighbor_alltoall,
                     PMPI_Neighbor_alltoall_init, sbuf, sc2, stype, rbuf, rc2, rtype, comm);
  else
    err = DLP_STAGED(how, in, PMPI_Alltoall, PMPI_Ialltoall, PMPI_Alltoall_init, sbuf, sc2,
                     stype, rbuf, rc2, rtype, comm);
  return dlp_coll_end(&k, err, in, how);
pass:
  if (v && nb)
    return DLP_PASS(how, c, PMPI_Neighbor_alltoallv, PMPI_Ineighbor_alltoallv,
                    PMPI_Neighbor_alltoallv_init, sb, scs, sds, st, rb, rcs, rds, rt, comm);
  if (v)
    return DLP_PASS(how, c, PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, sb, scs,
                    sds, st, rb, rcs, rds, rt, comm);
  if (nb)
    return DLP_PASS(how, c, PMPI_Neighbor_alltoall, PMPI_Ineighbor_alltoall,
                    PMPI_Neighbor_alltoall_init, sb, sc, st, rb, rc, rt, comm);
  return DLP_PASS(how, c, PMPI_Alltoall, PMPI_Ialltoall, PMPI_Alltoall_init, sb, sc, st, rb,
                  rc, rt, comm);
}

/* Alltoallw and Neighbor_alltoallw: a type a slot, displacements in bytes */
static int alltoallw(bool c, bool nb, const void *sb, const void *scs, const void *sds,
                     const MPI_Datatype *sts, void *rb, const void *rcs, const void *rds,
                     const MPI_Datatype *rts, MPI_Comm comm, const dlp_how *how)
{
  MPI_Request in = MPI_REQUEST_NULL;
  int nout, nin, me;
  bool nul[2 * DLP_COLL_MAXDIMS], self[2 * DLP_COLL_MAXDIMS];
  dlp_coll k;
  bool in_place = sb == MPI_IN_PLACE;
  if ((in_place && (nb || (how && dlp_host_has(DLP_DEV_COLL_IN_PLACE_STAGED)))) ||
      !peers(nb, comm, &nout, &nin, &me, nul, self))
    goto pass;
  if (!rcs || !rds || !rts || (!in_place && (!scs || !sds || !sts)))
    goto pass;
  if ((in_place || all_named(nout, sts)) && all_named(nin, rts))
    goto pass;
  dlp_slots s = {.buf = sb, .n = nout, .counts = scs, .displs = sds, .counts_c = c,
                 .displs_c = c || nb, .types = sts, .none = nul};
  dlp_slots r = {.buf = rb, .n = nin, .counts = rcs, .displs = rds, .counts_c = c,
                 .displs_c = c || nb, .types = rts, .none = nul};
  /* this rank's own slot, or a neighbour form's slots facing this rank,
     paired as the host pairs them */
  int self_r[2 * DLP_COLL_MAXDIMS], self_s[2 * DLP_COLL_MAXDIMS], nself = 0;
  if (!in_place && !nb)
    nself = 1, self_r[0] = self_s[0] = me;
  else if (!in_place && nout == nin)
    nself = dlp_coll_self_pairs(self, nout, how, self_r, self_s);
  if (!dlp_coll_prepare(&k, comm, in_place ? NULL : &s, &r,
                        in_place ? DLP_FILL_ALL : DLP_FILL_NONE, in_place ? me : -1, nself,
                        self_r, self_s, how))
    goto pass;
  const dlp_side *ss = in_place ? &k.r : &k.s;
  const void *sbuf = in_place ? MPI_IN_PLACE : DLP_BASE(k.s, sb);
  void *rbuf = DLP_BASE(k.r, rb);
  /* (Neighbor_alltoallw's displacements are addresses in every form) */
  int err = nb ? DLP_STAGED(how, in, PMPI_Neighbor_alltoallw, PMPI_Ineighbor_alltoallw,
                            PMPI_Neighbor_alltoallw_init, sbuf, DLP_COUNTS(*ss), ss->displs,
                            ss->types, rbuf, DLP_COUNTS(k.r), k.r.displs, k.r.types, comm)
               : DLP_STAGED(how, in, PMPI_Alltoallw, PMPI_Ialltoallw, PMPI_Alltoallw_init,
                            sbuf, DLP_COUNTS(*ss), DLP_DISPLS(*ss), ss->types, rbuf,
                            DLP_COUNTS(k.r), DLP_DISPLS(k.r), k.r.types, comm);
  return dlp_coll_end(&k, err, in, how);
pass:
  if (nb)
    return DLP_PASS(how, c, PMPI_Neighbor_alltoallw, PMPI_Ineighbor_alltoallw,
                    PMPI_Neighbor_alltoallw_init, sb, scs, sds, sts, rb, rcs, rds, rts,
                    comm);
  return DLP_PASS(how, c, PMPI_Alltoallw, PMPI_Ialltoallw, PMPI_Alltoallw_init, sb, scs,
                  sds, sts, rb, rcs, rds, rts, comm);
}

DLP_COLL_ENTRIES(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, alltoall,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (false, false, false, sb, sc, NULL, NULL, st, rb, rc, NULL, NULL, rt,
                 comm),
                 (true, false, false, sb, sc, NULL, NULL, st, rb, rc, NULL, NULL, rt,
                 comm))

DLP_COLL_ENTRIES(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall,
                 MPI_Neighbor_alltoall_init, alltoall,
                 (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (const void *sb, MPI_Count sc, MPI_Datatype st, void *rb, MPI_Count rc,
                 MPI_Datatype rt, MPI_Comm comm),
                 (false, false, true, sb, sc, NULL, NULL, st, rb, rc, NULL, NULL, rt,
                 comm),
                 (true, false, true, sb, sc, NULL, NULL, st, rb, rc, NULL, NULL, rt,
                 comm))

DLP_COLL_ENTRIES(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, alltoall,
                 (const void *sb, const int scs[], const int sds[], MPI_Datatype st,
                 void *rb, const int rcs[], const int rds[], MPI_Datatype rt,
                 MPI_Comm comm),
                 (const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                 MPI_Datatype st, void *rb, const MPI_Count rcs[], const MPI_Aint rds[],
                 MPI_Datatype rt, MPI_Comm comm),
                 (false, true, false, sb, 0, scs, sds, st, rb, 0, rcs, rds, rt, comm),
                 (true, true, false, sb, 0, scs, sds, st, rb, 0, rcs, rds, rt, comm))

DLP_COLL_ENTRIES(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv,
                 MPI_Neighbor_alltoallv_init, alltoall,
                 (const void *sb, const int scs[], const int sds[], MPI_Datatype st,
                 void *rb, const int rcs[], const int rds[], MPI_Datatype rt,
                 MPI_Comm comm),
                 (const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                 MPI_Datatype st, void *rb, const MPI_Count rcs[], const MPI_Aint rds[],
                 MPI_Datatype rt, MPI_Comm comm),
                 (false, true, true, sb, 0, scs, sds, st, rb, 0, rcs, rds, rt, comm),
                 (true, true, true, sb, 0, scs, sds, st, rb, 0, rcs, rds, rt, comm))

DLP_COLL_ENTRIES(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, alltoallw,
                 (const void *sb, const int scs[], const int sds[],
                 const MPI_Datatype sts[], void *rb, const int rcs[], const int rds[],
                 const MPI_Datatype rts[], MPI_Comm comm),
                 (const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                 const MPI_Datatype sts[], void *rb, const MPI_Count rcs[],
                 const MPI_Aint rds[], const MPI_Datatype rts[], MPI_Comm comm),
                 (false, false, sb, scs, sds, sts, rb, rcs, rds, rts, comm),
                 (true, false, sb, scs, sds, sts, rb, rcs, rds, rts, comm))

DLP_COLL_ENTRIES(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw,
                 MPI_Neighbor_alltoallw_init, alltoallw,
                 (const void *sb, const int scs[], const MPI_Aint sds[],
                 const MPI_Datatype sts[], void *rb, const int rcs[],
                 const MPI_Aint rds[], const MPI_Datatype rts[], MPI_Comm comm),
                 (const void *sb, const MPI_Count scs[], const MPI_Aint sds[],
                 const MPI_Datatype sts[], void *rb, const MPI_Count rcs[],
                 const MPI_Aint rds[], const MPI_Datatype rts[], MPI_Comm comm),
                 (false, true, sb, scs, sds, sts, rb, rcs, rds, rts, comm),
                 (true, true, sb, scs, sds, sts, rb, rcs, rds, rts, comm))
