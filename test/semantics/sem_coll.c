/* A collective moves the type map's elements as point-to-point does (MPI
 * 4.0, 6.1): with a strided derived type on the sending side and
 * contiguous doubles on the receiving side (the signatures match), every
 * rank receives each sender's elements in order, in every form of every
 * collective that moves typed data: blocking, nonblocking, persistent,
 * their large-count _c forms (where the host has MPI-4's), and the
 * neighborhood collectives of a ring; and the gathers in place, the
 * receive side strided. The receive buffers' guard elements stay
 * untouched. */
#include "sem.h"

#define PER 6                    /* elements of one vec */
#define BLK 2                    /* vecs a rank sends to one rank */
#define N (PER * BLK)            /* elements one rank receives from one */
#define HOLE -1.0
#define MAXP 8

static MPI_Datatype vec;         /* 3 blocks of 2 doubles, 3 apart: 8 doubles of extent */
static int np;
static const char *const form_name[6] = {"", "_c", " (nonblocking)", " (nonblocking, _c)",
                                         " (persistent)", " (persistent, _c)"};

static int at(int k)
{
  return (k / PER) * 8 + (k % PER / 2) * 3 + k % 2;
}

static double value(int rank, int k)
{
  return 1000.0 * (rank + 1) + k;
}

/* copies vecs of rank's elements 0, 1, ... (each vec PER of them) */
static double *strided(int rank, int copies)
{
  double *b = malloc(sizeof(double) * (size_t)(copies * 8 + 1));
  for (int i = 0; i < copies * 8 + 1; i++)
    b[i] = HOLE;
  for (int k = 0; k < copies * PER; k++)
    b[at(k)] = value(rank, k);
  return b;
}

static double *holes(int n)
{
  double *b = malloc(sizeof(double) * (size_t)(n + 1));
  for (int i = 0; i <= n; i++)
    b[i] = HOLE;
  return b;
}

/* d[j * N + k] is element first[j] + k of rank from[j], for j < blocks */
static void expect(const double *d, int blocks, const int *from, const int *first,
                   const char *what, int form)
{
  for (int j = 0; j < blocks; j++)
    for (int k = 0; k < N; k++) {
      double want = value(from[j], first[j] + k);
      if (d[j * N + k] != want) {
        CHECK(0, "%s%s: element %d from rank %d is %g, not %g", what, form_name[form], k,
              from[j], d[j * N + k], want);
        return;
      }
    }
  CHECK(d[blocks * N] == HOLE, "%s%s: written past the receive buffer", what,
        form_name[form]);
}

#define UNP(...) __VA_ARGS__
#if MPI_VERSION >= 4
#define HAS_FORM(form) 1
/* the call in form `form` (0 blocking, 1 _c, 2 nonblocking, 3 its _c, 4
   persistent, 5 its _c), waited for; A the int form's arguments, AC the
   _c form's */
#define FORMS(B, I, P, A, AC)                                                 \
  do {                                                                        \
    MPI_Request r_ = MPI_REQUEST_NULL;                                        \
    int rc_ = MPI_SUCCESS;                                                    \
    switch (form) {                                                           \
    case 0: rc_ = B A; break;                                                 \
    case 1: rc_ = B##_c AC; break;                                            \
    case 2: rc_ = I(UNP A, &r_); break;                                       \
    case 3: rc_ = I##_c(UNP AC, &r_); break;                                  \
    case 4: rc_ = P(UNP A, MPI_INFO_NULL, &r_); break;                        \
    case 5: rc_ = P##_c(UNP AC, MPI_INFO_NULL, &r_); break;                   \
    }                                                                         \
    CHECK(rc_ == MPI_SUCCESS, "%s%s: error class %d", #B, form_name[form],    \
          sem_class(rc_));                                                    \
    if (rc_ == MPI_SUCCESS && form >= 4)                                      \
      OK(MPI_Start(&r_));                                                     \
    if (rc_ == MPI_SUCCESS && form >= 2)                                      \
      OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                   \
    if (form >= 4 && r_ != MPI_REQUEST_NULL)                                  \
      OK(MPI_Request_free(&r_));                                              \
  } while (0)
#else
/* a host of MPI 3.1 (Open MPI 4.1) has the blocking and nonblocking int
   forms only (the _c forms' arguments are still handed to sem_unused, so
   that what is set for them counts as used) */
#define HAS_FORM(form) ((form) == 0 || (form) == 2)
static inline void sem_unused(int n, ...)
{
  (void)n;
}
#define FORMS(B, I, P, A, AC)                                                 \
  do {                                                                        \
    MPI_Request r_ = MPI_REQUEST_NULL;                                        \
    int rc_ = form == 0 ? B A : I(UNP A, &r_);                                \
    sem_unused(0, UNP AC);                                                    \
    CHECK(rc_ == MPI_SUCCESS, "%s%s: error class %d", #B, form_name[form],    \
          sem_class(rc_));                                                    \
    if (rc_ == MPI_SUCCESS && form == 2)                                      \
      OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                   \
  } while (0)
#endif

static void bcast(int form)
{
  double *b = sem_rank == 0 ? strided(0, BLK) : holes(N);
  void *buf = b;
  int n = sem_rank == 0 ? BLK : N;
  MPI_Datatype t = sem_rank == 0 ? vec : MPI_DOUBLE;
  MPI_Comm w = MPI_COMM_WORLD;
  FORMS(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, (buf, n, t, 0, w), (buf, n, t, 0, w));
  int from = 0, first = 0;
  if (sem_rank != 0)
    expect(b, 1, &from, &first, "MPI_Bcast", form);
  free(b);
}

/* rank r's block j of a receive is sender j's elements at first[j] */
static void senders(int *from, int *first, int offset)
{
  for (int j = 0; j < np; j++)
    from[j] = j, first[j] = offset;
}

static void gathers(int form)
{
  MPI_Comm w = MPI_COMM_WORLD;
  int counts[MAXP], displs[MAXP], from[MAXP], first[MAXP];
  MPI_Count ccounts[MAXP];
  MPI_Aint cdispls[MAXP];
  for (int j = 0; j < np; j++)
    counts[j] = ccounts[j] = N, displs[j] = cdispls[j] = j * N;
  senders(from, first, 0);
  for (int v = 0; v < 4; v++) {
    double *s = strided(sem_rank, BLK), *d = holes(np * N);
    switch (v) {
    case 0:
      FORMS(MPI_Gather, MPI_Igather, MPI_Gather_init,
            (s, BLK, vec, d, N, MPI_DOUBLE, 0, w), (s, BLK, vec, d, N, MPI_DOUBLE, 0, w));
      break;
    case 1:
      FORMS(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init,
            (s, BLK, vec, d, counts, displs, MPI_DOUBLE, 0, w),
            (s, BLK, vec, d, ccounts, cdispls, MPI_DOUBLE, 0, w));
      break;
    case 2:
      FORMS(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init,
            (s, BLK, vec, d, N, MPI_DOUBLE, w), (s, BLK, vec, d, N, MPI_DOUBLE, w));
      break;
    case 3:
      FORMS(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init,
            (s, BLK, vec, d, counts, displs, MPI_DOUBLE, w),
            (s, BLK, vec, d, ccounts, cdispls, MPI_DOUBLE, w));
      break;
    }
    static const char *const name[] = {"MPI_Gather", "MPI_Gatherv", "MPI_Allgather",
                                       "MPI_Allgatherv"};
    if (v >= 2 || sem_rank == 0)
      expect(d, np, from, first, name[v], form);
    free(s);
    free(d);
  }
}

static void scatters(int form)
{
  MPI_Comm w = MPI_COMM_WORLD;
  int counts[MAXP], displs[MAXP];
  MPI_Count ccounts[MAXP];
  MPI_Aint cdispls[MAXP];
  for (int j = 0; j < np; j++)
    counts[j] = ccounts[j] = BLK, displs[j] = cdispls[j] = j * BLK;
  for (int v = 0; v < 2; v++) {
    double *s = strided(sem_rank, np * BLK), *d = holes(N);
    if (v == 0)
      FORMS(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init,
            (s, BLK, vec, d, N, MPI_DOUBLE, 0, w), (s, BLK, vec, d, N, MPI_DOUBLE, 0, w));
    else
      FORMS(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init,
            (s, counts, displs, vec, d, N, MPI_DOUBLE, 0, w),
            (s, ccounts, cdispls, vec, d, N, MPI_DOUBLE, 0, w));
    int from = 0, first = sem_rank * N;
    expect(d, 1, &from, &first, v ? "MPI_Scatterv" : "MPI_Scatter", form);
    free(s);
    free(d);
  }
}

static void alltoalls(int form)
{
  MPI_Comm w = MPI_COMM_WORLD;
  int scounts[MAXP], sdispls[MAXP], rcounts[MAXP], rdispls[MAXP], wsd[MAXP], wrd[MAXP];
  MPI_Count csc[MAXP], crc[MAXP];
  MPI_Aint csd[MAXP], crd[MAXP], cwsd[MAXP], cwrd[MAXP];
  MPI_Datatype st[MAXP], rt[MAXP];
  int from[MAXP], first[MAXP];
  for (int j = 0; j < np; j++) {
    scounts[j] = csc[j] = BLK, sdispls[j] = csd[j] = j * BLK;
    rcounts[j] = crc[j] = N, rdispls[j] = crd[j] = j * N;
    wsd[j] = cwsd[j] = j * BLK * 8 * (int)sizeof(double);   /* bytes */
    wrd[j] = cwrd[j] = j * N * (int)sizeof(double);
    st[j] = vec, rt[j] = MPI_DOUBLE;
  }
  senders(from, first, sem_rank * N);
  for (int v = 0; v < 3; v++) {
    double *s = strided(sem_rank, np * BLK), *d = holes(np * N);
    switch (v) {
    case 0:
      FORMS(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init,
            (s, BLK, vec, d, N, MPI_DOUBLE, w), (s, BLK, vec, d, N, MPI_DOUBLE, w));
      break;
    case 1:
      FORMS(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init,
            (s, scounts, sdispls, vec, d, rcounts, rdispls, MPI_DOUBLE, w),
            (s, csc, csd, vec, d, crc, crd, MPI_DOUBLE, w));
      break;
    case 2:
      FORMS(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init,
            (s, scounts, wsd, st, d, rcounts, wrd, rt, w),
            (s, csc, cwsd, st, d, crc, cwrd, rt, w));
      break;
    }
    static const char *const name[] = {"MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw"};
    expect(d, np, from, first, name[v], form);
    free(s);
    free(d);
  }
}

/* MPI_IN_PLACE (MPI 4.0, 6.5 and 6.7): a gather's root and every rank of
   a gather to all take their own part from where it lies in the receive
   buffer, here a strided one: each rank's BLK vecs, at block j rank j's;
   every other element stays a hole. Blocking and nonblocking forms (the
   persistent ones in place are the host's as made) */
static void in_place(int form)
{
  if (form >= 4)
    return;
  MPI_Comm w = MPI_COMM_WORLD;
  int vecs[MAXP], at_vec[MAXP];
  MPI_Count cvecs[MAXP];
  MPI_Aint cat_vec[MAXP];
  for (int j = 0; j < np; j++)
    vecs[j] = cvecs[j] = BLK, at_vec[j] = cat_vec[j] = j * BLK;
  int len = np * BLK * 8;
  for (int v = 0; v < 3; v++) {
    double *d = holes(len), *s = strided(sem_rank, BLK);
    bool gather = v == 2, root = sem_rank == 0;
    if (!gather || root)
      for (int k = 0; k < N; k++)
        d[sem_rank * BLK * 8 + at(k)] = value(sem_rank, k);
    const void *sb = !gather || root ? MPI_IN_PLACE : s;
    switch (v) {
    case 0:
      FORMS(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init,
            (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, BLK, vec, w),
            (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, BLK, vec, w));
      break;
    case 1:
      FORMS(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init,
            (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, vecs, at_vec, vec, w),
            (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, cvecs, cat_vec, vec, w));
      break;
    case 2:
      FORMS(MPI_Gather, MPI_Igather, MPI_Gather_init, (sb, BLK, vec, d, BLK, vec, 0, w),
            (sb, BLK, vec, d, BLK, vec, 0, w));
      break;
    }
    static const char *const name[] = {"MPI_Allgather in place", "MPI_Allgatherv in place",
                                       "MPI_Gather in place"};
    if (!gather || root) {
      double *want = holes(len);
      for (int j = 0; j < np; j++)
        for (int k = 0; k < N; k++)
          want[j * BLK * 8 + at(k)] = value(j, k);
      for (int i = 0; i <= len; i++)
        if (d[i] != want[i]) {
          CHECK(0, "%s%s: element %d is %g, not %g", name[v], form_name[form], i, d[i],
                want[i]);
          break;
        }
      free(want);
    }
    free(d);
    free(s);
  }
}

/* on a graph where each rank's one neighbor is the next (in and out; a
   ring of two ranks, or a rank of one its own), what arrives is that
   neighbor's one block */
static void neighbors(int form, MPI_Comm g, int nbr)
{
  int counts[1] = {BLK}, displs[1] = {0}, rcounts[1] = {N}, rdispls[1] = {0};
  MPI_Count csc[1] = {BLK}, crc[1] = {N};
  /* (the w forms' displacements are bytes, MPI_Aint in both forms) */
  MPI_Aint csd[1] = {0}, crd[1] = {0}, wd[1] = {0};
  MPI_Datatype st[1] = {vec}, rt[1] = {MPI_DOUBLE};
  int first = 0;
  for (int v = 0; v < 5; v++) {
    double *s = strided(sem_rank, BLK), *d = holes(N);
    switch (v) {
    case 0:
      FORMS(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, MPI_Neighbor_allgather_init,
            (s, BLK, vec, d, N, MPI_DOUBLE, g), (s, BLK, vec, d, N, MPI_DOUBLE, g));
      break;
    case 1:
      FORMS(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv,
            MPI_Neighbor_allgatherv_init, (s, BLK, vec, d, rcounts, rdispls, MPI_DOUBLE, g),
            (s, BLK, vec, d, crc, crd, MPI_DOUBLE, g));
      break;
    case 2:
      FORMS(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall_init,
            (s, BLK, vec, d, N, MPI_DOUBLE, g), (s, BLK, vec, d, N, MPI_DOUBLE, g));
      break;
    case 3:
      FORMS(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, MPI_Neighbor_alltoallv_init,
            (s, counts, displs, vec, d, rcounts, rdispls, MPI_DOUBLE, g),
            (s, csc, csd, vec, d, crc, crd, MPI_DOUBLE, g));
      break;
    case 4:
      FORMS(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, MPI_Neighbor_alltoallw_init,
            (s, counts, wd, st, d, rcounts, wd, rt, g), (s, csc, wd, st, d, crc, wd, rt, g));
      break;
    }
    static const char *const name[] = {"MPI_Neighbor_allgather", "MPI_Neighbor_allgatherv",
                                       "MPI_Neighbor_alltoall", "MPI_Neighbor_alltoallv",
                                       "MPI_Neighbor_alltoallw"};
    expect(d, 1, &nbr, &first, name[v], form);
    free(s);
    free(d);
  }
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np > MAXP)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  int next = (sem_rank + 1) % np, prev = (sem_rank + np - 1) % np;
  MPI_Comm ring;
  /* (through a volatile pointer: GCC takes Open MPI's MPI_UNWEIGHTED, a
     small constant address, for an array it would read) */
  int *volatile unweighted = MPI_UNWEIGHTED;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, unweighted, 1, &next, unweighted,
                                 MPI_INFO_NULL, 0, &ring);
  for (int form = 0; form < 6; form++) {
    if (!HAS_FORM(form))
      continue;
    bcast(form);
    gathers(form);
    scatters(form);
    alltoalls(form);
    in_place(form);
    neighbors(form, ring, prev);
  }
  MPI_Comm_free(&ring);
  MPI_Type_free(&vec);
  return sem_finish("sem_coll");
}
