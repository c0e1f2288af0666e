/* Collectives with derived datatypes: what coll.c shares with the entry
 * points (coll_rooted.c, coll_gathers.c, coll_alltoall.c). A collective's send and receive sides are each a list of
 * slots, one per peer (or one for a broadcast): a buffer position, a count
 * and a type. A side whose data is not all predefined or dense goes to
 * MPICH as packed bytes in one staging buffer; the rest stay the user's. */
#ifndef DLP_COLL_H
#define DLP_COLL_H

#include "../p2p/p2p.h"

/* the slots of one side as the program gave them: counts and
   displacements as int or MPI_Count/MPI_Aint arrays (the _c forms), or
   one count for every slot, slot i then at i * count extents */
typedef struct dlp_slots {
  const void *buf;
  int n;
  const void *counts;          /* NULL: `count` in every slot */
  MPI_Count count;
  const void *displs;          /* NULL: slot i at i * count */
  bool counts_c, displs_c;     /* the arrays are MPI_Count / MPI_Aint (the
                                  _c forms; Neighbor_alltoallw's
                                  displacements always) */
  const MPI_Datatype *types;   /* per slot, displacements in bytes (the
                                  w forms); NULL: `type` in every slot,
                                  displacements in its extents */
  MPI_Datatype type;
  const bool *none;            /* slots facing MPI_PROC_NULL (a Cartesian
                                  topology's edges): nothing moves there,
                                  nothing is written; NULL: none */
} dlp_slots;

/* one side as MPICH gets it: base and, per slot, count, displacement
   (bytes from base for the w forms, else extents of type) and type */
typedef struct dlp_side {
  int n;
  bool staged;                 /* some slot goes as packed bytes */
  char *base;
  MPI_Count *counts;
  MPI_Aint *displs;
  MPI_Datatype *types;         /* the w forms */
  MPI_Datatype type;           /* the others: MPI_BYTE when staged */
  MPI_Count one;               /* the forms of one count for all slots:
                                  the count (bytes when staged) */
  /* the interposer's: */
  char *stage;                 /* packed bytes of the staged slots */
  dlp_data *d;                 /* each slot's data */
  size_t *off;                 /* each staged slot's offset in stage, else
                                  SIZE_MAX */
  const bool *none;            /* dlp_slots' */
  bool per_slot;               /* a count per slot (the v and w forms) */
#if MPI_VERSION < 4
  int *icounts, *idispls;      /* counts and displs as a host of MPI 3.1
                                  takes them (its int forms) */
#endif
} dlp_side;

/* what the receive side holds before the call: nothing (the usual), every
   slot but `own` (MPI_IN_PLACE of the all-to-all forms: the data to send;
   their own slot stays where it is), or slot `own` only (MPI_IN_PLACE of
   the gathers to all: this rank's part) */
enum { DLP_FILL_NONE, DLP_FILL_ALL, DLP_FILL_OWN };

/* the most dimensions of a Cartesian topology the interposer serves */
#define DLP_COLL_MAXDIMS 32

typedef struct dlp_coll {
  MPI_Comm comm;
  dlp_side s, r;
  int fill;
  int own;                     /* a receive slot not unpacked (MPI_IN_PLACE:
                                  MPICH leaves it alone), or -1 */
  int nself;                   /* receive slots this rank sends itself, */
  int self_r[2 * DLP_COLL_MAXDIMS];  /* each from send slot self_s[k], */
  int self_s[2 * DLP_COLL_MAXDIMS];  /* copied here */
  bool held;                   /* the slots' types held (not blocking) */
} dlp_coll;

/* how a collective was called: NULL, blocking; else nonblocking (q: the
   program's request) or, init, persistent (MPI-4's _init forms) */
typedef struct dlp_how {
  MPI_Request *q;
  bool init;
  MPI_Info info;
} dlp_how;

/* The host's own calls, named by their blocking, nonblocking and
   persistent int forms (B, I, P): the _c form pasted on where the host has
   MPI-4's. A host of MPI 3.1 (Open MPI 4.1) has neither the _c forms nor
   the persistent collectives: the interposer defines none there, so only
   B and I are ever called, and the staged arrays it passes are ints
   (DLP_COUNTS, DLP_DISPLS; dlp_coll_prepare makes them fit or hands the
   call over). */
#if MPI_VERSION >= 4
/* the host's call of the form `how` asks, int or _c form (c), with the
   program's arguments */
#define DLP_PASS(how, c, B, I, P, ...)                                               \
  (!(how)       ? ((c) ? B##_c(__VA_ARGS__) : B(__VA_ARGS__))                       \
   : (how)->init ? ((c) ? P##_c(__VA_ARGS__, (how)->info, (how)->q)                 \
                        : P(__VA_ARGS__, (how)->info, (how)->q))                    \
                 : ((c) ? I##_c(__VA_ARGS__, (how)->q) : I(__VA_ARGS__, (how)->q)))
/* the host's _c call of that form on the staged arguments, its request
   (not blocking) in `in` */
#define DLP_STAGED(how, in, B, I, P, ...)                                            \
  (!(how) ? B##_c(__VA_ARGS__) : (how)->init ? P##_c(__VA_ARGS__, (how)->info, &(in)) \
                                             : I##_c(__VA_ARGS__, &(in)))
/* a side's per-slot counts and displacements as the host's call takes them */
typedef MPI_Count dlp_hcount;
typedef MPI_Aint dlp_hdispl;
#define DLP_COUNTS(side) ((side).counts)
#define DLP_DISPLS(side) ((side).displs)
#else
#define DLP_PASS(how, c, B, I, P, ...)                                               \
  ((void)(c), !(how) ? B(__VA_ARGS__) : I(__VA_ARGS__, (how)->q))
#define DLP_STAGED(how, in, B, I, P, ...) (!(how) ? B(__VA_ARGS__) : I(__VA_ARGS__, &(in)))
typedef int dlp_hcount;
typedef int dlp_hdispl;
#define DLP_COUNTS(side) ((side).icounts)
#define DLP_DISPLS(side) ((side).idispls)
#endif

/* a collective's entry points over its implementation impl(args..., how):
   blocking B, nonblocking I, persistent P, each in its int form
   (parameters PI, arguments AI) and its _c form (PC, AC); on a host of
   MPI 3.1, B and I in the int form */
#define DLP_UNPAREN(...) __VA_ARGS__
#define DLP_COLL_ENTRIES_3(B, I, impl, PI, AI)                                        \
  int B(DLP_UNPAREN PI) { return impl(DLP_UNPAREN AI, NULL); }                       \
  int I(DLP_UNPAREN PI, MPI_Request *q)                                              \
  {                                                                                  \
    return impl(DLP_UNPAREN AI, &(dlp_how){.q = q});                                 \
  }
#if MPI_VERSION >= 4
#define DLP_COLL_ENTRIES(B, I, P, impl, PI, PC, AI, AC)                               \
  DLP_COLL_ENTRIES_3(B, I, impl, PI, AI)                                             \
  int B##_c(DLP_UNPAREN PC) { return impl(DLP_UNPAREN AC, NULL); }                   \
  int I##_c(DLP_UNPAREN PC, MPI_Request *q)                                          \
  {                                                                                  \
    return impl(DLP_UNPAREN AC, &(dlp_how){.q = q});                                 \
  }                                                                                  \
  int P(DLP_UNPAREN PI, MPI_Info info, MPI_Request *q)                               \
  {                                                                                  \
    return impl(DLP_UNPAREN AI, &(dlp_how){.q = q, .init = true, .info = info});     \
  }                                                                                  \
  int P##_c(DLP_UNPAREN PC, MPI_Info info, MPI_Request *q)                           \
  {                                                                                  \
    return impl(DLP_UNPAREN AC, &(dlp_how){.q = q, .init = true, .info = info});     \
  }
#else
#define DLP_COLL_ENTRIES(B, I, P, impl, PI, PC, AI, AC) DLP_COLL_ENTRIES_3(B, I, impl, PI, AI)
#endif

/* describes, stages and packs a collective's sides (send or recv NULL: a
   side not significant at this rank): true when the interposer takes the
   call (some slot is derived data), false to hand the call to MPICH as it
   is: every slot predefined or dense, an argument MPICH must judge (its
   own call then reports it), a type dataloop cannot decode, no memory.
   Persistent: every derived slot staged, dense ones too (MPICH 4.0.2's
   persistent collectives drop a reference of a derived type too many);
   packed now (MPICH 4.0.2's persistent gathers read the send buffer when
   made) and at every start. self_r[k], k < nself: a receive slot this
   rank sends itself, from send slot self_s[k] (an all-to-all form not in
   place: its rank both; a gather's root: its rank and 0; a neighbour
   form: dlp_coll_self_pairs'), copied here */
DLI_HIDDEN bool dlp_coll_prepare(dlp_coll *k, MPI_Comm comm, const dlp_slots *send,
                                 const dlp_slots *recv, int fill, int own, int nself,
                                 const int *self_r, const int *self_s, const dlp_how *how);
/* after MPICH's call returned rc. Blocking (how NULL): the receive side
   unpacked (only when rc is MPI_SUCCESS), everything freed; returns rc.
   Nonblocking: inner is MPICH's request, and *how->q becomes the
   program's, which completes once inner has and the receive side is
   unpacked (the request table's, requests.c). Persistent: inner, MPICH's
   persistent request on the staging, is the program's; each start packs,
   each completion unpacks (persist.c watches it). The slots' types are
   held until the end */
DLI_HIDDEN int dlp_coll_end(dlp_coll *k, int rc, MPI_Request inner, const dlp_how *how);

/* a described side's count and type for MPICH's call (a side of one count
   for every slot), and its buffer; else the user's */
#define DLP_ONE(side, user) ((side).n > 0 ? (side).one : (MPI_Count)(user))
#define DLP_TYPE(side, user) ((side).n > 0 ? (side).type : (user))
#define DLP_BASE(side, user) ((side).base ? (void *)(side).base : (void *)(user))

/* whether a type is surely predefined (no slot of it is the interposer's) */
DLI_HIDDEN bool dlp_coll_named(MPI_Datatype dt);
/* whether comm is an intracommunicator (the interposer's business), and
   its size */
DLI_HIDDEN bool dlp_coll_intra(MPI_Comm comm, int *size, int *rank);
/* a topology's in- and out-degree (neighbour collectives); false: none.
   nul: a Cartesian topology's edges, slots facing MPI_PROC_NULL; self
   (unless NULL): its slots facing this rank (both the same for both
   sides: source, then destination, of each dimension) */
DLI_HIDDEN bool dlp_coll_degrees(MPI_Comm comm, int *in, int *out,
                                 bool nul[2 * DLP_COLL_MAXDIMS],
                                 bool self[2 * DLP_COLL_MAXDIMS]);
/* a neighbour collective's slots facing this rank (self, n of them:
   dlp_coll_degrees'), paired as the host pairs them in the form `how`
   asks (self_pairs.c): receive slot recv[k] gets send slot send[k];
   returns how many pairs (0: none, or the host's pairing unknown) */
DLI_HIDDEN int dlp_coll_self_pairs(const bool *self, int n, const dlp_how *how, int *recv,
                                   int *send);

#endif
