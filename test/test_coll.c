/* Collectives with derived datatypes against MPICH's own answers: every
 * collective the interposer serves (blocking; nonblocking, waited for by
 * MPI_Wait; persistent, started and waited for twice, on 2 ranks all
 * preloaded; int and _c forms; in place where MPI allows it) runs twice
 * on the same data, once through its MPI_ name (the interposer's, when it
 * is loaded) and once through its PMPI_ name (MPICH's own), into receive
 * buffers filled alike; the two must be byte for byte the same, gaps
 * between blocks included, and return the same code. Run by test/coll.sh
 * on 2 to 4 ranks, plainly, preloaded, in the pipeline mode and with
 * ranks preloaded and plain mixed.
 *
 * Beside them: MPI_Alltoallw and MPI_Bcast from MPI_BOTTOM; a nonblocking
 * collective and point-to-point requests completed together by
 * MPI_Waitany or MPI_Testall; partitioned requests (MPI_Psend_init,
 * MPI_Precv_init, every MPI_Pready form) on a ring, started twice with new
 * data; all with more than 512 derived types alive.
 *
 * Each rank draws its own types (vector, indexed, nested hvector, resized,
 * struct, subarray, contiguous, MPI_DOUBLE itself), independently of the
 * others; signatures agree because every type holds a divisor of 12
 * doubles and every message a multiple of 12, drawn from a seed all ranks
 * share.
 *
 *   DL_TEST_SEED       the random seed (rank 0's is used)
 *   DL_COLL_ROUNDS     rounds (each runs every collective once)
 *   DL_COLL_MAX        most doubles in one message (default 1200;
 *                      mixed runs keep messages under 8 KiB, doc/mpi.md)
 *   DL_EXPECT_PRELOAD  1: fail unless the interposer served collectives
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>

#if MPI_VERSION < 4
/* A host of MPI 3.1 (Open MPI 4.1) has neither the _c forms nor the
   persistent collectives nor partitioned requests: the rounds there never
   call them (main), and these stand in for their names so that the calls
   still compile; reaching one is a failure of the test itself */
#define ABSENT(name)                                                \
  __attribute__((unused)) static inline int name(const void *a, ...) \
  {                                                                   \
    (void)a;                                                          \
    abort();                                                          \
  }
/* a collective's _c, nonblocking _c and persistent names (B as in
   MPI_B, b as in MPI_Ib) */
#define ABSENT_FORMS(B, b)                                                            \
  ABSENT(MPI_##B##_c) ABSENT(PMPI_##B##_c) ABSENT(MPI_I##b##_c) ABSENT(PMPI_I##b##_c)  \
  ABSENT(MPI_##B##_init) ABSENT(PMPI_##B##_init) ABSENT(MPI_##B##_init_c)            \
  ABSENT(PMPI_##B##_init_c)
ABSENT_FORMS(Bcast, bcast)
ABSENT_FORMS(Gather, gather)
ABSENT_FORMS(Gatherv, gatherv)
ABSENT_FORMS(Scatter, scatter)
ABSENT_FORMS(Scatterv, scatterv)
ABSENT_FORMS(Allgather, allgather)
ABSENT_FORMS(Allgatherv, allgatherv)
ABSENT_FORMS(Alltoall, alltoall)
ABSENT_FORMS(Alltoallv, alltoallv)
ABSENT_FORMS(Alltoallw, alltoallw)
ABSENT_FORMS(Neighbor_alltoall, neighbor_alltoall)
ABSENT_FORMS(Neighbor_alltoallv, neighbor_alltoallv)
ABSENT_FORMS(Neighbor_alltoallw, neighbor_alltoallw)
ABSENT_FORMS(Neighbor_allgather, neighbor_allgather)
ABSENT_FORMS(Neighbor_allgatherv, neighbor_allgatherv)
#endif

static int rank, size, failures;
static char where[64];               /* the round, for failure messages */
static long max_doubles = 1200;

#define CHECK(cond, ...)                     \
  do {                                       \
    if (!(cond)) {                           \
      failures++;                            \
      fprintf(stderr, "rank %d, %s: ", rank, where); \
      fprintf(stderr, __VA_ARGS__);          \
      fputc('\n', stderr);                   \
    }                                        \
  } while (0)

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t next(rng *r)
{
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static long range(rng *r, long lo, long hi)
{
  return lo + (long)(next(r) % (uint64_t)(hi - lo + 1));
}

static rng mine;        /* this rank's: the types' shapes, the data */
static rng shared;      /* every rank's alike: message sizes, roots */

static const int divisors[] = {1, 2, 3, 4, 6, 12};

/* ---- types of e doubles ---- */

static MPI_Datatype commit(MPI_Datatype t)
{
  MPI_Type_commit(&t);
  return t;
}

static MPI_Datatype draw(int e, int depth);

/* a type of exactly e doubles at non-negative displacements, its data
   within its bounds and never overlapping, committed (MPI_DOUBLE itself
   for some e == 1) */
static MPI_Datatype draw(int e, int depth)
{
  MPI_Datatype t, in;
  MPI_Aint lb, ext;
  int kind = (int)range(&mine, 0, depth > 1 ? 5 : 8);
  if (e == 1 && kind == 0)
    return MPI_DOUBLE;
  switch (kind) {
  case 1: {                                   /* vector */
    int bl = 1;
    while (bl < e && range(&mine, 0, 1))
      bl++;
    while (e % bl)
      bl--;
    MPI_Type_vector(e / bl, bl, bl + (int)range(&mine, 0, 3), MPI_DOUBLE, &t);
    return commit(t);
  }
  case 2: {                                   /* indexed, some shuffled */
    int bls[12], ds[12], n = 0, at = (int)range(&mine, 0, 2);
    for (int left = e; left > 0; n++) {
      bls[n] = (int)range(&mine, 1, left);
      ds[n] = at;
      at += bls[n] + (int)range(&mine, 0, 3);
      left -= bls[n];
    }
    if (range(&mine, 0, 1))
      for (int i = n - 1; i > 0; i--) {
        int j = (int)range(&mine, 0, i), b = bls[i], d = ds[i];
        bls[i] = bls[j], ds[i] = ds[j], bls[j] = b, ds[j] = d;
      }
    MPI_Type_indexed(n, bls, ds, MPI_DOUBLE, &t);
    return commit(t);
  }
  case 3: {                                   /* resized: padding after */
    in = draw(e, depth + 1);
    MPI_Type_get_true_extent(in, &lb, &ext);
    MPI_Type_create_resized(in, 0, lb + ext + 8 * range(&mine, 1, 3), &t);
    if (in != MPI_DOUBLE)
      MPI_Type_free(&in);
    return commit(t);
  }
  case 4: {                                   /* contiguous */
    MPI_Type_contiguous(e, MPI_DOUBLE, &t);
    return commit(t);
  }
  case 5: {                                   /* hvector of a smaller type */
    int a = divisors[range(&mine, 0, 5)];
    while (e % a)
      a--;
    in = draw(e / a, depth + 1);
    MPI_Type_get_true_extent(in, &lb, &ext);
    MPI_Type_create_hvector(a, 1, ext + 8 * range(&mine, 0, 2), in, &t);
    if (in != MPI_DOUBLE)
      MPI_Type_free(&in);
    return commit(t);
  }
  case 6: {                                   /* struct of two parts */
    if (e < 2)
      return draw(e, depth + 1);
    int e1 = (int)range(&mine, 1, e - 1);
    MPI_Datatype m[2] = {draw(e1, depth + 1), draw(e - e1, depth + 1)};
    MPI_Type_get_true_extent(m[0], &lb, &ext);
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, lb + ext + 8 * range(&mine, 0, 2)};
    MPI_Type_create_struct(2, bl, d, m, &t);
    for (int i = 0; i < 2; i++)
      if (m[i] != MPI_DOUBLE)
        MPI_Type_free(&m[i]);
    return commit(t);
  }
  case 7: {                                   /* 2D subarray */
    int r = 1;
    while (r < e && range(&mine, 0, 1))
      r++;
    while (e % r)
      r--;
    int sub[2] = {r, e / r}, full[2], start[2];
    for (int i = 0; i < 2; i++) {
      full[i] = sub[i] + (int)range(&mine, 0, 3);
      start[i] = (int)range(&mine, 0, full[i] - sub[i]);
    }
    MPI_Type_create_subarray(2, full, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
    return commit(t);
  }
  default:
    if (e == 1)
      return MPI_DOUBLE;
    MPI_Type_contiguous(e, MPI_DOUBLE, &t);
    return commit(t);
  }
}

static void drop(MPI_Datatype *t)
{
  if (*t != MPI_DOUBLE && *t != MPI_DATATYPE_NULL)
    MPI_Type_free(t);
}

/* bytes (count, t) covers from the buffer's start */
static size_t span(MPI_Datatype t, MPI_Count count)
{
  MPI_Aint lb, ext, tlb, text;
  MPI_Type_get_extent(t, &lb, &ext);
  MPI_Type_get_true_extent(t, &tlb, &text);
  return count ? (size_t)((count - 1) * ext + tlb + text) : 0;
}

static MPI_Aint extent_of(MPI_Datatype t)
{
  MPI_Aint lb, ext;
  MPI_Type_get_extent(t, &lb, &ext);
  return ext;
}

/* a message of a multiple of 12 doubles, every rank drawing it alike */
static long message(void)
{
  return 12 * range(&shared, 0, max_doubles / 12);
}

/* ---- one side: slots in one buffer ---- */

#define MAXP 8
typedef struct side {
  int n;
  MPI_Datatype t[MAXP];       /* w forms: a type a slot; else t[0] */
  int e[MAXP];                /* doubles in each slot's type */
  int counts[MAXP], displs[MAXP];
  MPI_Count ccounts[MAXP];
  MPI_Aint adispls[MAXP];
  size_t len;
  char *buf, *ref;            /* the interposer's run, MPICH's */
} side;

/* whether count copies of t place some double twice: received into, the
   data there would be undefined (the standard forbids such a receive), as
   the host and the interposer may write the copies in another order */
static bool overlapping(MPI_Datatype t, long count)
{
  int size;
  MPI_Type_size(t, &size);
  size_t doubles = span(t, count) / sizeof(double), n = (size_t)size / sizeof(double) *
                                                        (size_t)count;
  if (n < 2)
    return false;
  double *mem = malloc(doubles * sizeof(double)), *in = malloc(n * sizeof(double));
  for (size_t i = 0; i < doubles; i++)
    mem[i] = -1;
  for (size_t i = 0; i < n; i++)
    in[i] = (double)i;
  int pos = 0;
  PMPI_Unpack(in, (int)(n * sizeof(double)), &pos, mem, (int)count, t, MPI_COMM_SELF);
  size_t landed = 0;
  for (size_t i = 0; i < doubles; i++)
    landed += mem[i] >= 0;
  free(mem);
  free(in);
  return landed != n;
}

/* a type of e doubles (draw) whose count copies never overlap */
static MPI_Datatype draw_apart(int e, long count)
{
  for (;;) {
    MPI_Datatype t = draw(e, 0);
    if (!overlapping(t, count))
      return t;
    drop(&t);
  }
}

/* n slots of m[i] doubles each: a type a slot (w) or one for all, whose
   copies in a slot (and, fixed, in all slots) never overlap; fixed: slot
   i at i * count extents (the forms without displacements) */
static void side_make(side *s, int n, const long *m, bool w, bool fixed, bool fill)
{
  memset(s, 0, sizeof(*s));
  s->n = n;
  int e0 = divisors[range(&mine, 0, 5)];
  for (int i = 0; i < n; i++)
    while (m[i] % e0)
      e0 = divisors[range(&mine, 0, 5)];
  long most = 0;           /* the copies of one type in one slot, or all */
  for (int i = 0; i < n; i++)
    most = fixed ? most + m[i] / e0 : (m[i] / e0 > most ? m[i] / e0 : most);
  MPI_Datatype one = w ? MPI_DATATYPE_NULL : draw_apart(e0, most);
  size_t at = 0;
  for (int i = 0; i < n; i++) {
    int e = w ? divisors[range(&mine, 0, 5)] : e0;
    s->t[i] = w ? draw_apart(e, m[i] / e) : one;
    s->e[i] = e;
    MPI_Count c = m[i] / e;
    s->counts[i] = (int)c;
    s->ccounts[i] = c;
    MPI_Aint ext = extent_of(s->t[i]);
    if (fixed) {
      s->displs[i] = (int)(i * c);
      s->adispls[i] = i * c;
      at = (size_t)((i * c) * ext) + span(s->t[i], c);
    } else if (w) {
      at += (size_t)range(&mine, 0, 15);
      s->displs[i] = (int)at;
      s->adispls[i] = (MPI_Aint)at;
      at += span(s->t[i], c);
    } else {
      size_t d = (at + (size_t)ext - 1) / (size_t)ext + (size_t)range(&mine, 0, 1);
      s->displs[i] = (int)d;
      s->adispls[i] = (MPI_Aint)d;
      at = d * (size_t)ext + span(s->t[i], c);
    }
    if (s->len < at)
      s->len = at;
  }
  s->len += 16;
  s->buf = malloc(s->len);
  s->ref = malloc(s->len);
  for (size_t i = 0; i < s->len; i++)
    s->buf[i] = (char)(fill ? next(&mine) : 0xa5 ^ (i * 7));
  memcpy(s->ref, s->buf, s->len);
}

static void side_free(side *s)
{
  MPI_Datatype first = s->n ? s->t[0] : MPI_DATATYPE_NULL;
  for (int i = 0; i < s->n; i++)
    if (i == 0 || s->t[i] != first)
      drop(&s->t[i]);
  free(s->buf);
  free(s->ref);
}

static void compare(const side *s, const char *what, int rc, int rc_ref)
{
  char msg[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (rc != rc_ref)
    MPI_Error_string(rc != MPI_SUCCESS ? rc : rc_ref, msg, &len);
  CHECK(rc == rc_ref, "%s: returned %d, MPICH %d (%s)", what, rc, rc_ref, msg);
  for (size_t i = 0; i < s->len; i++)
    if (s->buf[i] != s->ref[i]) {
      CHECK(0, "%s: byte %zu of %zu differs from MPICH's (%d slots, count %d, extent "
            "%ld)", what, i, s->len, s->n, s->counts[0], (long)extent_of(s->t[0]));
      if (getenv("DL_TEST_TRACE"))
        for (size_t j = i & ~(size_t)7; j < s->len && j < i + 64; j += 8)
          fprintf(stderr, "  %zu: %016llx %016llx\n", j,
                  (unsigned long long)*(const uint64_t *)(s->buf + j),
                  (unsigned long long)*(const uint64_t *)(s->ref + j));
      return;
    }
}

/* ---- blocking, or nonblocking and waited for ---- */

static bool nonblocking;      /* this round calls the MPI_I forms */
static bool persistent;       /* this round calls the _init forms (only
                                 where every rank runs the interposer:
                                 MPICH's own fail on derived types) */
static int all_preloaded;

/* a nonblocking call's code, then its wait's (pmpi: MPICH's own wait) */
static int waited(int rc, MPI_Request *q, bool pmpi)
{
  MPI_Status st;
  if (rc != MPI_SUCCESS)
    return rc;
  return pmpi ? PMPI_Wait(q, &st) : MPI_Wait(q, &st);
}

/* a persistent request's code from its _init, then: started and waited
   for twice, freed */
static int twice(int rc, MPI_Request *q)
{
  MPI_Status st;
  for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++) {
    rc = MPI_Start(q);
    if (rc == MPI_SUCCESS)
      rc = MPI_Wait(q, &st);
  }
  if (*q != MPI_REQUEST_NULL)
    MPI_Request_free(q);
  return rc;
}

static MPI_Request q_;
#define CALL(B, I, P, ...)                                          \
  (persistent    ? twice(P(__VA_ARGS__, MPI_INFO_NULL, &q_), &q_) \
   : nonblocking ? waited(I(__VA_ARGS__, &q_), &q_, false)         \
                 : B(__VA_ARGS__))
/* MPICH 4.0.2's own persistent collectives fail on derived types (an
   assertion in its handle pool, a type reference dropped, a gather that
   reads the send buffer when made): the oracle of a persistent round is
   MPICH's blocking call */
#define PCALL(B, I, P, ...) \
  (nonblocking && !persistent ? waited(I(__VA_ARGS__, &q_), &q_, true) : B(__VA_ARGS__))

/* ---- the collectives ---- */

static void t_bcast(MPI_Comm comm, bool c)
{
  int n, me, root = (int)range(&shared, 0, size - 1) % size;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  long m = message();
  side s;
  side_make(&s, 1, &m, false, true, me == root);
  int rc = c ? CALL(MPI_Bcast_c, MPI_Ibcast_c, MPI_Bcast_init_c, s.buf, s.ccounts[0],
                    s.t[0], root, comm)
             : CALL(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, s.buf, s.counts[0], s.t[0], root,
                    comm);
  int rr = c ? PCALL(PMPI_Bcast_c, PMPI_Ibcast_c, PMPI_Bcast_init_c, s.ref, s.ccounts[0],
                     s.t[0], root, comm)
             : PCALL(PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init, s.ref, s.counts[0], s.t[0],
                     root, comm);
  compare(&s, c ? "MPI_Bcast_c" : "MPI_Bcast", rc, rr);
  side_free(&s);
}

/* Gather(v) and Scatter(v); in place at the root when inplace */
static void t_rooted(MPI_Comm comm, bool scatter, bool v, bool c, bool inplace)
{
  int n, me, root = (int)range(&shared, 0, size - 1) % size;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  long m[MAXP], one = message();
  for (int i = 0; i < n; i++)
    m[i] = v ? message() : one;
  side many, single;
  side_make(&many, n, m, false, !v, scatter);
  side_make(&single, 1, &m[me], false, true, !scatter);
  bool ip = inplace && me == root;
  const char *name;
  int rc, rr;
  if (!scatter) {
    const void *sb = ip ? MPI_IN_PLACE : single.buf, *sr = ip ? MPI_IN_PLACE : single.ref;
    if (v && c) {
      name = "MPI_Gatherv_c";
      rc = CALL(MPI_Gatherv_c, MPI_Igatherv_c, MPI_Gatherv_init_c, sb, single.ccounts[0],
                single.t[0], many.buf, many.ccounts, many.adispls, many.t[0], root, comm);
      rr =
          PCALL(PMPI_Gatherv_c, PMPI_Igatherv_c, PMPI_Gatherv_init_c, sr, single.ccounts[0],
                single.t[0], many.ref, many.ccounts, many.adispls, many.t[0], root, comm);
    } else if (v) {
      name = "MPI_Gatherv";
      rc = CALL(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, sb, single.counts[0],
                single.t[0], many.buf, many.counts, many.displs, many.t[0], root, comm);
      rr = PCALL(PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init, sr, single.counts[0],
                 single.t[0], many.ref, many.counts, many.displs, many.t[0], root, comm);
    } else if (c) {
      name = "MPI_Gather_c";
      rc = CALL(MPI_Gather_c, MPI_Igather_c, MPI_Gather_init_c, sb, single.ccounts[0],
                single.t[0], many.buf, many.ccounts[0], many.t[0], root, comm);
      rr = PCALL(PMPI_Gather_c, PMPI_Igather_c, PMPI_Gather_init_c, sr, single.ccounts[0],
                 single.t[0], many.ref, many.ccounts[0], many.t[0], root, comm);
    } else {
      name = "MPI_Gather";
      rc = CALL(MPI_Gather, MPI_Igather, MPI_Gather_init, sb, single.counts[0], single.t[0],
                many.buf, many.counts[0], many.t[0], root, comm);
      rr = PCALL(PMPI_Gather, PMPI_Igather, PMPI_Gather_init, sr, single.counts[0],
                 single.t[0], many.ref, many.counts[0], many.t[0], root, comm);
    }
    compare(&many, name, rc, rr);
    compare(&single, name, rc, rr);
  } else {
    void *rb = ip ? MPI_IN_PLACE : single.buf, *rbr = ip ? MPI_IN_PLACE : single.ref;
    if (v && c) {
      name = "MPI_Scatterv_c";
      rc =
          CALL(MPI_Scatterv_c, MPI_Iscatterv_c, MPI_Scatterv_init_c, many.buf, many.ccounts,
               many.adispls, many.t[0], rb, single.ccounts[0], single.t[0], root, comm);
      rr = PCALL(PMPI_Scatterv_c, PMPI_Iscatterv_c, PMPI_Scatterv_init_c, many.ref,
                 many.ccounts, many.adispls, many.t[0], rbr, single.ccounts[0], single.t[0],
                 root, comm);
    } else if (v) {
      name = "MPI_Scatterv";
      rc = CALL(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, many.buf, many.counts,
                many.displs, many.t[0], rb, single.counts[0], single.t[0], root, comm);
      rr = PCALL(PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init, many.ref, many.counts,
                 many.displs, many.t[0], rbr, single.counts[0], single.t[0], root, comm);
    } else if (c) {
      name = "MPI_Scatter_c";
      rc = CALL(MPI_Scatter_c, MPI_Iscatter_c, MPI_Scatter_init_c, many.buf,
                many.ccounts[0], many.t[0], rb, single.ccounts[0], single.t[0], root, comm);
      rr = PCALL(PMPI_Scatter_c, PMPI_Iscatter_c, PMPI_Scatter_init_c, many.ref,
                 many.ccounts[0], many.t[0], rbr, single.ccounts[0], single.t[0], root,
                 comm);
    } else {
      name = "MPI_Scatter";
      rc = CALL(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, many.buf, many.counts[0],
                many.t[0], rb, single.counts[0], single.t[0], root, comm);
      rr = PCALL(PMPI_Scatter, PMPI_Iscatter, PMPI_Scatter_init, many.ref, many.counts[0],
                 many.t[0], rbr, single.counts[0], single.t[0], root, comm);
    }
    compare(&single, name, rc, rr);
    compare(&many, name, rc, rr);
  }
  side_free(&many);
  side_free(&single);
}

/* Allgather(v), in place or not */
static void t_allgather(MPI_Comm comm, bool v, bool c, bool ip)
{
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  long m[MAXP], one = message();
  for (int i = 0; i < n; i++)
    m[i] = v ? message() : one;
  side r, s;
  side_make(&r, n, m, false, !v, ip);
  side_make(&s, 1, &m[me], false, true, true);
  const void *sb = ip ? MPI_IN_PLACE : s.buf, *sr = ip ? MPI_IN_PLACE : s.ref;
  int rc, rr;
  if (v && c) {
    rc = CALL(MPI_Allgatherv_c, MPI_Iallgatherv_c, MPI_Allgatherv_init_c, sb, s.ccounts[0],
              s.t[0], r.buf, r.ccounts, r.adispls, r.t[0], comm);
    rr = PCALL(PMPI_Allgatherv_c, PMPI_Iallgatherv_c, PMPI_Allgatherv_init_c, sr,
               s.ccounts[0], s.t[0], r.ref, r.ccounts, r.adispls, r.t[0], comm);
  } else if (v) {
    rc = CALL(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, sb, s.counts[0], s.t[0],
              r.buf, r.counts, r.displs, r.t[0], comm);
    rr = PCALL(PMPI_Allgatherv, PMPI_Iallgatherv, PMPI_Allgatherv_init, sr, s.counts[0],
               s.t[0], r.ref, r.counts, r.displs, r.t[0], comm);
  } else if (c) {
    rc = CALL(MPI_Allgather_c, MPI_Iallgather_c, MPI_Allgather_init_c, sb, s.ccounts[0],
              s.t[0], r.buf, r.ccounts[0], r.t[0], comm);
    rr = PCALL(PMPI_Allgather_c, PMPI_Iallgather_c, PMPI_Allgather_init_c, sr, s.ccounts[0],
               s.t[0], r.ref, r.ccounts[0], r.t[0], comm);
  } else {
    rc = CALL(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, sb, s.counts[0], s.t[0],
              r.buf, r.counts[0], r.t[0], comm);
    rr = PCALL(PMPI_Allgather, PMPI_Iallgather, PMPI_Allgather_init, sr, s.counts[0],
               s.t[0], r.ref, r.counts[0], r.t[0], comm);
  }
  compare(&r, v ? "MPI_Allgatherv" : "MPI_Allgather", rc, rr);
  compare(&s, v ? "MPI_Allgatherv" : "MPI_Allgather", rc, rr);
  side_free(&r);
  side_free(&s);
}

/* the message from rank i to rank j of an all-to-all: drawn alike
   everywhere */
static void pair_sizes(int n, long m[MAXP][MAXP], bool v)
{
  long one = message();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      m[i][j] = v ? message() : one;
}

/* Alltoall(v,w), in place or not */
static void t_alltoall(MPI_Comm comm, int form, bool c, bool ip)
{
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  long m[MAXP][MAXP], out[MAXP] = {0}, in[MAXP] = {0};
  pair_sizes(n, m, form > 0);
  for (int j = 0; j < n; j++) {
    out[j] = m[me][j];
    in[j] = m[j][me];
  }
  side s, r;
  /* in place: each pair's two messages are alike */
  if (ip)
    for (int j = 0; j < n; j++)
      in[j] = m[me < j ? me : j][me < j ? j : me];
  side_make(&s, n, out, form == 2, form == 0, true);
  side_make(&r, n, in, form == 2, form == 0, ip);
  const void *sb = ip ? MPI_IN_PLACE : s.buf, *sr = ip ? MPI_IN_PLACE : s.ref;
  int rc, rr;
  const char *name = form == 0   ? "MPI_Alltoall"
                     : form == 1 ? "MPI_Alltoallv"
                                 : "MPI_Alltoallw";
  if (form == 0 && c) {
    rc = CALL(MPI_Alltoall_c, MPI_Ialltoall_c, MPI_Alltoall_init_c, sb, s.ccounts[0],
              s.t[0], r.buf, r.ccounts[0], r.t[0], comm);
    rr = PCALL(PMPI_Alltoall_c, PMPI_Ialltoall_c, PMPI_Alltoall_init_c, sr, s.ccounts[0],
               s.t[0], r.ref, r.ccounts[0], r.t[0], comm);
  } else if (form == 0) {
    rc = CALL(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, sb, s.counts[0], s.t[0],
              r.buf, r.counts[0], r.t[0], comm);
    rr = PCALL(PMPI_Alltoall, PMPI_Ialltoall, PMPI_Alltoall_init, sr, s.counts[0], s.t[0],
               r.ref, r.counts[0], r.t[0], comm);
  } else if (form == 1 && c) {
    rc = CALL(MPI_Alltoallv_c, MPI_Ialltoallv_c, MPI_Alltoallv_init_c, sb, s.ccounts,
              s.adispls, s.t[0], r.buf, r.ccounts, r.adispls, r.t[0], comm);
    rr = PCALL(PMPI_Alltoallv_c, PMPI_Ialltoallv_c, PMPI_Alltoallv_init_c, sr, s.ccounts,
               s.adispls, s.t[0], r.ref, r.ccounts, r.adispls, r.t[0], comm);
  } else if (form == 1) {
    rc = CALL(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, sb, s.counts, s.displs,
              s.t[0], r.buf, r.counts, r.displs, r.t[0], comm);
    rr = PCALL(PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, sr, s.counts, s.displs,
               s.t[0], r.ref, r.counts, r.displs, r.t[0], comm);
  } else if (c) {
    rc = CALL(MPI_Alltoallw_c, MPI_Ialltoallw_c, MPI_Alltoallw_init_c, sb, s.ccounts,
              s.adispls, s.t, r.buf, r.ccounts, r.adispls, r.t, comm);
    rr = PCALL(PMPI_Alltoallw_c, PMPI_Ialltoallw_c, PMPI_Alltoallw_init_c, sr, s.ccounts,
               s.adispls, s.t, r.ref, r.ccounts, r.adispls, r.t, comm);
  } else {
    rc = CALL(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, sb, s.counts, s.displs,
              s.t, r.buf, r.counts, r.displs, r.t, comm);
    rr = PCALL(PMPI_Alltoallw, PMPI_Ialltoallw, PMPI_Alltoallw_init, sr, s.counts, s.displs,
               s.t, r.ref, r.counts, r.displs, r.t, comm);
  }
  compare(&r, name, rc, rr);
  compare(&s, name, rc, rr);
  side_free(&s);
  side_free(&r);
}

/* the neighbour forms on a line of ranks (not periodic: the ends' outer
   slots face MPI_PROC_NULL and must stay as they were) */
static void t_neighbor(MPI_Comm line, int form, bool c)
{
  int me, n, nd;
  MPI_Comm_rank(line, &me);
  MPI_Comm_size(line, &n);
  MPI_Cartdim_get(line, &nd);
  /* a message per rank, dimension and direction: towards the source
     (slot 2d), towards the destination (slot 2d + 1); received from the
     source's one towards it and the destination's one towards it. A slot
     facing this rank itself (a periodic dimension of one) carries one
     length for all such slots, so that whichever self-facing send MPICH
     pairs with which receive, nothing truncates */
  long self = message(), out[MAXP] = {0}, in[MAXP] = {0}, lo[MAXP][3], hi[MAXP][3];
  for (int i = 0; i < n; i++)
    for (int d = 0; d < nd; d++) {
      lo[i][d] = message();
      hi[i][d] = form == 3 || form == 4 ? lo[i][0] : message();
      if (form == 3 || form == 4)
        lo[i][d] = lo[i][0];
    }
  for (int d = 0; d < nd; d++) {
    int src, dst;
    MPI_Cart_shift(line, d, 1, &src, &dst);
    bool gather = form == 3 || form == 4;
    out[2 * d] = src == me && !gather ? self : lo[me][d];
    out[2 * d + 1] = dst == me && !gather ? self : hi[me][d];
    in[2 * d] = src == MPI_PROC_NULL ? 12 : src == me ? out[2 * d] : hi[src][d];
    in[2 * d + 1] = dst == MPI_PROC_NULL ? 12 : dst == me ? out[2 * d + 1] : lo[dst][d];
  }
  if (form == 0 || form == 3) { /* one count a side: all alike */
    long one = message();
    for (int i = 0; i < 2 * nd; i++)
      out[i] = in[i] = one;
  }
  side s, r;
  bool w = form == 2, fixed = form == 0 || form == 3;
  side_make(&s, form >= 3 ? 1 : 2 * nd, out, w, fixed, true);
  side_make(&r, 2 * nd, in, w, fixed, false);
  int rc, rr;
  const char *name;
  switch (form) {
  case 0:
    name = "MPI_Neighbor_alltoall";
    rc = c ? CALL(MPI_Neighbor_alltoall_c, MPI_Ineighbor_alltoall_c,
                  MPI_Neighbor_alltoall_init_c, s.buf, s.ccounts[0], s.t[0], r.buf,
                  r.ccounts[0], r.t[0], line)
           : CALL(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall_init,
                  s.buf, s.counts[0], s.t[0], r.buf, r.counts[0], r.t[0], line);
    rr = c ? PCALL(PMPI_Neighbor_alltoall_c, PMPI_Ineighbor_alltoall_c,
                   PMPI_Neighbor_alltoall_init_c, s.ref, s.ccounts[0], s.t[0], r.ref,
                   r.ccounts[0], r.t[0], line)
           : PCALL(PMPI_Neighbor_alltoall, PMPI_Ineighbor_alltoall,
                   PMPI_Neighbor_alltoall_init, s.ref, s.counts[0], s.t[0], r.ref,
                   r.counts[0], r.t[0], line);
    break;
  case 1:
    name = "MPI_Neighbor_alltoallv";
    rc = c ? CALL(MPI_Neighbor_alltoallv_c, MPI_Ineighbor_alltoallv_c,
                  MPI_Neighbor_alltoallv_init_c, s.buf, s.ccounts, s.adispls, s.t[0], r.buf,
                  r.ccounts, r.adispls, r.t[0], line)
           : CALL(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv,
                  MPI_Neighbor_alltoallv_init, s.buf, s.counts, s.displs, s.t[0], r.buf,
                  r.counts, r.displs, r.t[0], line);
    rr = c ? PCALL(PMPI_Neighbor_alltoallv_c, PMPI_Ineighbor_alltoallv_c,
                   PMPI_Neighbor_alltoallv_init_c, s.ref, s.ccounts, s.adispls, s.t[0],
                   r.ref, r.ccounts, r.adispls, r.t[0], line)
           : PCALL(PMPI_Neighbor_alltoallv, PMPI_Ineighbor_alltoallv,
                   PMPI_Neighbor_alltoallv_init, s.ref, s.counts, s.displs, s.t[0], r.ref,
                   r.counts, r.displs, r.t[0], line);
    break;
  case 2:
    name = "MPI_Neighbor_alltoallw";
    rc = c ? CALL(MPI_Neighbor_alltoallw_c, MPI_Ineighbor_alltoallw_c,
                  MPI_Neighbor_alltoallw_init_c, s.buf, s.ccounts, s.adispls, s.t, r.buf,
                  r.ccounts, r.adispls, r.t, line)
           : CALL(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw,
                  MPI_Neighbor_alltoallw_init, s.buf, s.counts, s.adispls, s.t, r.buf,
                  r.counts, r.adispls, r.t, line);
    rr = c ? PCALL(PMPI_Neighbor_alltoallw_c, PMPI_Ineighbor_alltoallw_c,
                   PMPI_Neighbor_alltoallw_init_c, s.ref, s.ccounts, s.adispls, s.t, r.ref,
                   r.ccounts, r.adispls, r.t, line)
           : PCALL(PMPI_Neighbor_alltoallw, PMPI_Ineighbor_alltoallw,
                   PMPI_Neighbor_alltoallw_init, s.ref, s.counts, s.adispls, s.t, r.ref,
                   r.counts, r.adispls, r.t, line);
    break;
  case 3:
    name = "MPI_Neighbor_allgather";
    rc = c ? CALL(MPI_Neighbor_allgather_c, MPI_Ineighbor_allgather_c,
                  MPI_Neighbor_allgather_init_c, s.buf, s.ccounts[0], s.t[0], r.buf,
                  r.ccounts[0], r.t[0], line)
           : CALL(MPI_Neighbor_allgather, MPI_Ineighbor_allgather,
                  MPI_Neighbor_allgather_init, s.buf, s.counts[0], s.t[0], r.buf,
                  r.counts[0], r.t[0], line);
    rr = c ? PCALL(PMPI_Neighbor_allgather_c, PMPI_Ineighbor_allgather_c,
                   PMPI_Neighbor_allgather_init_c, s.ref, s.ccounts[0], s.t[0], r.ref,
                   r.ccounts[0], r.t[0], line)
           : PCALL(PMPI_Neighbor_allgather, PMPI_Ineighbor_allgather,
                   PMPI_Neighbor_allgather_init, s.ref, s.counts[0], s.t[0], r.ref,
                   r.counts[0], r.t[0], line);
    break;
  default:
    name = "MPI_Neighbor_allgatherv";
    rc = c ? CALL(MPI_Neighbor_allgatherv_c, MPI_Ineighbor_allgatherv_c,
                  MPI_Neighbor_allgatherv_init_c, s.buf, s.ccounts[0], s.t[0], r.buf,
                  r.ccounts, r.adispls, r.t[0], line)
           : CALL(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv,
                  MPI_Neighbor_allgatherv_init, s.buf, s.counts[0], s.t[0], r.buf, r.counts,
                  r.displs, r.t[0], line);
    rr = c ? PCALL(PMPI_Neighbor_allgatherv_c, PMPI_Ineighbor_allgatherv_c,
                   PMPI_Neighbor_allgatherv_init_c, s.ref, s.ccounts[0], s.t[0], r.ref,
                   r.ccounts, r.adispls, r.t[0], line)
           : PCALL(PMPI_Neighbor_allgatherv, PMPI_Ineighbor_allgatherv,
                   PMPI_Neighbor_allgatherv_init, s.ref, s.counts[0], s.t[0], r.ref,
                   r.counts, r.displs, r.t[0], line);
    break;
  }
  compare(&r, name, rc, rr);
  compare(&s, name, rc, rr);
  side_free(&s);
  side_free(&r);
}

/* an uncommitted type: MPICH's error, through the communicator's handler
   (here: returned), and nothing written */
static void t_uncommitted(MPI_Comm comm)
{
  int n;
  MPI_Comm_size(comm, &n);
  MPI_Datatype t;
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &t);
  double sb[6 * MAXP], rb[6 * MAXP], ref[6 * MAXP];
  for (int i = 0; i < 6 * MAXP; i++)
    sb[i] = i, rb[i] = ref[i] = -1;
  int counts[MAXP], displs[MAXP];
  for (int i = 0; i < n; i++)
    counts[i] = 1, displs[i] = 6 * i;
  int rc = CALL(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, sb, counts, displs, t,
                rb, counts, displs, t, comm);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE,
        "MPI_Alltoallv of an uncommitted type: class %d, not "
        "MPI_ERR_TYPE",
        cls);
  CHECK(memcmp(rb, ref, sizeof(rb)) == 0, "MPI_Alltoallv of an uncommitted type wrote");
  rc = CALL(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, rb, 1, t, 0, comm);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "MPI_Bcast of an uncommitted type: class %d", cls);
#if MPI_VERSION >= 4
  int me;
  MPI_Comm_rank(comm, &me);
  MPI_Request q = MPI_REQUEST_NULL;
  rc = MPI_Psend_init(sb, 2, 1, t, (me + 1) % n, 41, comm, MPI_INFO_NULL, &q);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "MPI_Psend_init of an uncommitted type: class %d", cls);
  rc = MPI_Precv_init(rb, 2, 1, t, (me + n - 1) % n, 41, comm, MPI_INFO_NULL, &q);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_TYPE, "MPI_Precv_init of an uncommitted type: class %d", cls);
#endif
  MPI_Type_free(&t);
}

/* ---- beside the collectives ---- */

/* (count, t) of each slot of s at its absolute address in buf: a struct
   type per slot, for MPI_BOTTOM and displacements of 0 */
static void absolute(const side *s, char *buf, MPI_Datatype out[])
{
  for (int i = 0; i < s->n; i++) {
    int len = s->counts[i];
    MPI_Aint at;
    MPI_Get_address(buf + s->displs[i], &at);
    MPI_Type_create_struct(1, &len, &at, &s->t[i], &out[i]);
    MPI_Type_commit(&out[i]);
  }
}

/* an all-to-all's w-form sides at rank me of n: a type a slot, sizes
   drawn alike on every rank, the send side filled */
static void w_sides(int n, int me, side *s, side *r)
{
  long m[MAXP][MAXP], out[MAXP], in[MAXP];
  pair_sizes(n, m, true);
  for (int j = 0; j < n; j++) {
    out[j] = m[me][j];
    in[j] = m[j][me];
  }
  side_make(s, n, out, true, false, true);
  side_make(r, n, in, true, false, false);
}

/* MPI_Alltoallw and MPI_Bcast from MPI_BOTTOM, the types holding absolute
   addresses */
static void t_bottom(MPI_Comm comm)
{
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  side s, r;
  w_sides(n, me, &s, &r);
  MPI_Datatype st[MAXP], rt[MAXP], rref[MAXP];
  absolute(&s, s.buf, st);
  absolute(&r, r.buf, rt);
  absolute(&r, r.ref, rref);
  int ones[MAXP], zeros[MAXP] = {0};
  for (int j = 0; j < n; j++)
    ones[j] = 1;
  int rc = CALL(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, MPI_BOTTOM, ones, zeros,
                st, MPI_BOTTOM, ones, zeros, rt, comm);
  int rr = PCALL(PMPI_Alltoallw, PMPI_Ialltoallw, PMPI_Alltoallw_init, MPI_BOTTOM, ones,
                 zeros, st, MPI_BOTTOM, ones, zeros, rref, comm);
  compare(&r, "MPI_Alltoallw from MPI_BOTTOM", rc, rr);
  /* the root's first slot, broadcast */
  int root = (int)range(&shared, 0, n - 1);
  long one = message();
  side b;
  side_make(&b, 1, &one, false, true, me == root);
  MPI_Datatype bt, bref;
  absolute(&b, b.buf, &bt);
  absolute(&b, b.ref, &bref);
  rc = CALL(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, MPI_BOTTOM, 1, bt, root, comm);
  rr = PCALL(PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init, MPI_BOTTOM, 1, bref, root, comm);
  compare(&b, "MPI_Bcast from MPI_BOTTOM", rc, rr);
  for (int j = 0; j < n; j++) {
    MPI_Type_free(&st[j]);
    MPI_Type_free(&rt[j]);
    MPI_Type_free(&rref[j]);
  }
  MPI_Type_free(&bt);
  MPI_Type_free(&bref);
  side_free(&b);
  side_free(&s);
  side_free(&r);
}

/* a nonblocking MPI_Ialltoallw and a ring's MPI_Isend and MPI_Irecv of
   derived types in one array, completed by MPI_Waitany one by one (odd
   rounds) or by polling MPI_Testall; against MPICH's blocking calls */
static void t_mixed(MPI_Comm comm, int k)
{
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  side s, r, ps, pr;
  w_sides(n, me, &s, &r);
  long ring = message();
  side_make(&ps, 1, &ring, false, true, true);
  side_make(&pr, 1, &ring, false, true, false);
  int to = (me + 1) % n, from = (me + n - 1) % n;
  MPI_Request q[3];
  MPI_Status sts[3];
  int rc = MPI_Ialltoallw(s.buf, s.counts, s.displs, s.t, r.buf, r.counts, r.displs, r.t,
                          comm, &q[0]);
  if (rc == MPI_SUCCESS)
    rc = MPI_Irecv(pr.buf, pr.counts[0], pr.t[0], from, 21, comm, &q[1]);
  if (rc == MPI_SUCCESS)
    rc = MPI_Isend(ps.buf, ps.counts[0], ps.t[0], to, 21, comm, &q[2]);
  for (int left = 3, idx, flag = 0; rc == MPI_SUCCESS && left > 0;) {
    if (k % 2) {
      rc = MPI_Waitany(3, q, &idx, MPI_STATUS_IGNORE);
      CHECK(rc != MPI_SUCCESS || idx != MPI_UNDEFINED, "MPI_Waitany: no request left");
      left--;
    } else {
      rc = MPI_Testall(3, q, &flag, sts);
      left = flag ? 0 : left;
    }
  }
  int rr = PMPI_Alltoallw(s.buf, s.counts, s.displs, s.t, r.ref, r.counts, r.displs, r.t,
                          comm);
  if (rr == MPI_SUCCESS)
    rr = PMPI_Sendrecv(ps.buf, ps.counts[0], ps.t[0], to, 22, pr.ref, pr.counts[0],
                       pr.t[0], from, 22, comm, MPI_STATUS_IGNORE);
  compare(&r, k % 2 ? "MPI_Ialltoallw by MPI_Waitany" : "MPI_Ialltoallw by MPI_Testall",
          rc, rr);
  compare(&pr, k % 2 ? "MPI_Irecv by MPI_Waitany" : "MPI_Irecv by MPI_Testall", rc, rr);
  side_free(&s);
  side_free(&r);
  side_free(&ps);
  side_free(&pr);
}

#if MPI_VERSION >= 4   /* partitioned requests */
/* a partition's readiness: one by one in a random order, by a range in
   two halves, or by one list */
static int ready(MPI_Request q, int parts)
{
  int order[16], rc = MPI_SUCCESS;
  for (int i = 0; i < parts; i++)
    order[i] = i;
  for (int i = parts - 1; i > 0; i--) {
    int j = (int)range(&mine, 0, i), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  switch (range(&mine, 0, 2)) {
  case 0:
    for (int i = 0; i < parts && rc == MPI_SUCCESS; i++)
      rc = MPI_Pready(order[i], q);
    return rc;
  case 1:
    rc = MPI_Pready_range(parts / 2, parts - 1, q);
    return rc || parts < 2 ? rc : MPI_Pready_range(0, parts / 2 - 1, q);
  default:
    return MPI_Pready_list(parts, order, q);
  }
}

/* partitioned requests on a ring (rank r sends to r + 1), each started
   twice with new data, the receiver polling MPI_Parrived; against MPICH's
   blocking send and receive of the whole */
static void t_partitioned(MPI_Comm comm)
{
  int n, me;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &me);
  int parts = (int)range(&shared, 1, 12);
  long m = 12 * range(&shared, 1, max_doubles / 12 / parts + 1) * parts;
  side s, r;
  side_make(&s, 1, &m, false, true, true);
  side_make(&r, 1, &m, false, true, false);
  int to = (me + 1) % n, from = (me + n - 1) % n;
  MPI_Request sq = MPI_REQUEST_NULL, rq = MPI_REQUEST_NULL;
  int rc = MPI_Precv_init(r.buf, parts, r.ccounts[0] / parts, r.t[0], from, 31, comm,
                          MPI_INFO_NULL, &rq);
  if (rc == MPI_SUCCESS)
    rc = MPI_Psend_init(s.buf, parts, s.ccounts[0] / parts, s.t[0], to, 31, comm,
                        MPI_INFO_NULL, &sq);
  for (int k = 0; k < 2 && rc == MPI_SUCCESS; k++) {
    for (size_t i = 0; k && i < s.len; i++)
      s.buf[i] = (char)next(&mine);
    for (size_t i = 0; k && i < r.len; i++)
      r.buf[i] = r.ref[i] = (char)(0x5a ^ i);
    rc = MPI_Start(&rq);
    if (rc == MPI_SUCCESS)
      rc = MPI_Start(&sq);
    if (rc == MPI_SUCCESS)
      rc = ready(sq, parts);
    for (int p = 0, flag; rc == MPI_SUCCESS && p < parts;) {
      rc = MPI_Parrived(rq, p, &flag);
      p += flag;
    }
    MPI_Request both[2] = {rq, sq};
    MPI_Status sts[2];
    if (rc == MPI_SUCCESS)
      rc = MPI_Waitall(2, both, sts);
    int rr = PMPI_Sendrecv(s.buf, s.counts[0], s.t[0], to, 32, r.ref, r.counts[0], r.t[0],
                           from, 32, comm, MPI_STATUS_IGNORE);
    compare(&r, k ? "MPI_Precv_init, started again" : "MPI_Precv_init", rc, rr);
  }
  if (sq != MPI_REQUEST_NULL)
    MPI_Request_free(&sq);
  if (rq != MPI_REQUEST_NULL)
    MPI_Request_free(&rq);
  side_free(&s);
  side_free(&r);
}
#endif

/* the interposer's count i (dl_preload_counts: 2 sends, 6 collectives) */
static unsigned long long served(int i)
{
  int (*counts)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_counts");
  unsigned long long c[8] = {0};
  if (!counts || counts(c, 8) < 7)
    return 0;
  return c[i];
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP) {
    if (rank == 0)
      fprintf(stderr, "at most %d ranks\n", MAXP);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *e = getenv("DL_TEST_SEED");
  unsigned long long seed = e ? strtoull(e, NULL, 10) : (unsigned long long)time(NULL);
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  int rounds = getenv("DL_COLL_ROUNDS") ? atoi(getenv("DL_COLL_ROUNDS")) : 30;
  if (getenv("DL_COLL_MAX"))
    max_doubles = atol(getenv("DL_COLL_MAX"));
  int pre = dlsym(RTLD_DEFAULT, "dl_preload_active") != NULL;
  MPI_Allreduce(&pre, &all_preloaded, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  mine.s = seed * 1000003 + (uint64_t)rank;
  shared.s = seed;
  MPI_Comm comm, line, grid;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int dims[3] = {size, 1, 1}, periods[3] = {0, 1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
  /* a halo's grid: the periodic dimensions of one face this rank itself */
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid);
  /* more than 512 derived types alive through every round (MPICH's Yaksa
     builds 4.0-4.0.3 packed contiguous types wrongly past that many,
     pmodels/mpich#6341) */
  enum { LIVE = 600 };
  MPI_Datatype live[LIVE];
  for (int i = 0; i < LIVE; i++) {
    MPI_Type_vector(2, 1 + i % 3, 4 + i % 5, MPI_DOUBLE, &live[i]);
    MPI_Type_commit(&live[i]);
  }
  for (int k = 0; k < rounds; k++) {
    bool c = MPI_VERSION >= 4 && k % 2;
    nonblocking = k % 6 == 2 || k % 6 == 3;
    /* on 2 ranks only: MPICH 4.0.2's MPI_Scatter_init fails on 3, even of
       MPI_BYTE ("Invalid communicator" from its schedule), and the
       interposer's persistent collectives are MPICH's on its staging */
    persistent = MPI_VERSION >= 4 && k % 6 >= 4 && all_preloaded && size == 2;
    /* in place: not in the persistent rounds (the interposer leaves those
       to MPICH, whose own fail on derived types) */
    bool ip = k % 3 == 1 && !persistent;
    snprintf(where, sizeof(where), "round %d%s%s%s%s", k, c ? ", _c form" : "",
             ip ? ", in place" : "", nonblocking ? ", nonblocking" : "",
             persistent ? ", persistent" : "");
    t_bcast(comm, c);
    for (int v = 0; v < 2; v++) {
      t_rooted(comm, false, v, c, ip);
      t_rooted(comm, true, v, c, ip);
      t_allgather(comm, v, c, ip);
    }
    /* MPICH 4.0.2's nonblocking all-to-all in place fails whatever the
       types (doc/mpi.md): not run */
    for (int form = 0; form < 3; form++)
      t_alltoall(comm, form, c, ip && !nonblocking && !persistent);
    for (int form = 0; form < 5; form++) {
      t_neighbor(line, form, c);
      t_neighbor(grid, form, c);
    }
    t_bottom(comm);
    t_mixed(comm, k);
#if MPI_VERSION >= 4
    if (size > 1)
      t_partitioned(comm);
#endif
  }
  t_uncommitted(comm);
  for (int i = 0; i < LIVE; i++)
    MPI_Type_free(&live[i]);
  const char *expect = getenv("DL_EXPECT_PRELOAD");
  unsigned long long got = served(6), sends = served(2);
  if (expect && *expect == '1')
    CHECK(got > 0 && sends > 0, "the interposer served %llu collectives, %llu sends", got,
          sends);
  if (expect && *expect == '0')
    CHECK(got == 0 && sends == 0, "collectives or sends served without the interposer");
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_coll: %d ranks, %d rounds, seed %llu: %s\n", size, rounds, seed,
           all ? "FAILED" : "ok");
  MPI_Comm_free(&grid);
  MPI_Comm_free(&line);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return all ? 1 : 0;
}
