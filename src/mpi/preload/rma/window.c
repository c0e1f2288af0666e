/* What the origin of a one-sided operation must know of a window: every
 * rank's size and displacement unit (MPI keeps them inside; the routes that
 * split an operation address the target in bytes), and the work left for
 * the synchronization that completes an operation: staging buffers to free
 * and gets to unpack; where every rank's memory is mapped here (a
 * shared-memory window), each rank's address (rma.c; doc/rma.md).
 *
 * The facts are gathered once, collectively, when the window is made (an
 * allreduce and an allgather on its communicator, and its landing state:
 * landing.c), when every rank of it carries the interposer (peers.c), and hang on the window as an attribute whose deletion
 * (MPI_Win_free) frees them. A synchronization call runs the deferred work
 * of the targets it completes after MPICH returned; a fence takes the
 * landings first. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "window.h"
#include "../base/host.h"

typedef struct deferred {
  int rank;                  /* target */
  void *stage;               /* freed */
  dlp_data into;             /* unpacked from stage first (into.t held) */
  struct deferred *next;
} deferred;

struct dlp_win {
  pthread_mutex_t lock;
  bool dynamic;              /* target_disp is an absolute address */
  int nranks;
  struct dlp_win_rank {
    MPI_Aint size, unit;
  } *at;
  char **mapped;             /* per rank: its memory here, or NULL */
  bool as_allocate;          /* MPI_Win_allocate's, made shared (allocate) */
  bool noncontig;            /* and the program asked alloc_shared_noncontig */
  _Atomic unsigned char *touched;   /* per rank: addressed in this epoch */
  _Atomic bool started;      /* an access epoch of MPI_Win_start is open */
  deferred *pending;
  dlp_landing *land;         /* puts and gets landed (landing.c) */
};

static int keyval = MPI_KEYVAL_INVALID;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void run(deferred *d)
{
  if (d->into.t)
    dlp_stage_in(&d->into, d->stage, d->into.bytes);
  dl_type_free(&d->into.t);
  dlp_stage_put(d->stage);
  free(d);
}

static void release(dlp_win *w)
{
  while (w->pending) {
    deferred *d = w->pending;
    w->pending = d->next;
    run(d);
  }
  dlp_landing_free(w->land);
  pthread_mutex_destroy(&w->lock);
  free(w->at);
  free(w->mapped);
  free((void *)w->touched);
  free(w);
}

static int delete_state(MPI_Win win, int kv, void *val, void *extra)
{
  (void)win, (void)kv, (void)extra;
  release(val);
  return MPI_SUCCESS;
}

static void make_key(void)
{
  PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_state, &keyval, NULL);
}

dlp_win *dlp_win_of(MPI_Win win)
{
  pthread_once(&key_once, make_key);
  void *val = NULL;
  int flag = 0;
  if (win == MPI_WIN_NULL || keyval == MPI_KEYVAL_INVALID ||
      PMPI_Win_get_attr(win, keyval, &val, &flag) != MPI_SUCCESS || !flag)
    return NULL;
  return val;
}

/* every rank's memory as mapped here, from a shared window; a rank whose
   address MPICH does not give stays unmapped */
static void map_ranks(dlp_win *w, MPI_Win win)
{
  w->mapped = calloc((size_t)w->nranks, sizeof(*w->mapped));
  for (int r = 0; w->mapped && r < w->nranks; r++) {
    MPI_Aint size = 0;
    int unit = 0;
    void *at = NULL;
    if (PMPI_Win_shared_query(win, r, &size, &unit, &at) == MPI_SUCCESS)
      w->mapped[r] = at;
  }
}

/* after MPICH made win over comm: every rank's size and unit (a dynamic
   window addresses bytes absolutely and needs none), and whether puts may
   land (every rank must agree: its fences exchange counts, through shared
   memory unless DL_RMA_MAP is never on some rank); shared: every
   rank's memory is mapped here. A window the interposer could not describe
   on some rank is MPICH's alone: no error, its operations take MPICH's
   route. So is a window with a rank that would not join these
   collectives (peers.c) */
static int describe(MPI_Win win, MPI_Comm comm, void *base, MPI_Aint size, MPI_Aint unit,
                    bool dynamic, bool shared)
{
  if (!dlp_all_preloaded(comm))
    return MPI_SUCCESS;
  pthread_once(&key_once, make_key);
  int n = 0, rc = PMPI_Comm_size(comm, &n);
  if (rc != MPI_SUCCESS)
    return rc;
  dlp_win *w = calloc(1, sizeof(*w));
  if (w && !dynamic)
    w->at = malloc((size_t)n * sizeof(*w->at));
  if (w)
    w->touched = calloc((size_t)n, sizeof(*w->touched));
  int ok = w && (dynamic || w->at) && w->touched && keyval != MPI_KEYVAL_INVALID;
  int mine[3] = {ok, dlp_cfg()->land >= 0, dlp_cfg()->map >= 0}, all[3] = {0, 0, 0};
  /* collective whatever happened here, so that no rank waits alone */
  rc = PMPI_Allreduce(mine, all, 3, MPI_INT, MPI_MIN, comm);
  struct dlp_win_rank me = {size, unit};
  if (rc == MPI_SUCCESS && all[0] && !dynamic)
    rc = PMPI_Allgather(&me, 2, MPI_AINT, w->at, 2, MPI_AINT, comm);
  if (rc == MPI_SUCCESS && all[0] && all[1])
    rc = dlp_landing_new(comm, base, dynamic, all[2], &w->land);
  if (rc != MPI_SUCCESS || !all[0]) {
    if (w) {
      free(w->at);
      free((void *)w->touched);
    }
    free(w);
    return rc;
  }
  w->nranks = n;
  w->dynamic = dynamic;
  if (shared)
    map_ranks(w, win);
  pthread_mutex_init(&w->lock, NULL);
  rc = PMPI_Win_set_attr(win, keyval, w);
  if (rc != MPI_SUCCESS)
    release(w);
  return rc;
}

bool dlp_win_target(const dlp_win *w, int rank, MPI_Aint *size, MPI_Aint *unit)
{
  if (!w || rank < 0 || rank >= w->nranks)
    return false;
  *size = w->dynamic ? -1 : w->at[rank].size;
  *unit = w->dynamic ? 1 : w->at[rank].unit;
  return true;
}

bool dlp_win_started(const dlp_win *w)
{
  return w && atomic_load_explicit(&w->started, memory_order_relaxed);
}

void dlp_win_touch(dlp_win *w, int rank)
{
  if (w && rank >= 0 && rank < w->nranks)
    atomic_store_explicit(&w->touched[rank], 1, memory_order_relaxed);
}

char *dlp_win_mapped(const dlp_win *w, int rank)
{
  return w && w->mapped && rank >= 0 && rank < w->nranks ? w->mapped[rank] : NULL;
}

dlp_landing *dlp_win_landing(const dlp_win *w)
{
  return w ? w->land : NULL;
}

int dlp_win_defer(dlp_win *w, int rank, void *stage, const dlp_data *into)
{
  deferred *d = malloc(sizeof(*d));
  if (!d)
    return MPI_ERR_NO_MEM;
  *d = (deferred){.rank = rank, .stage = stage};
  if (into) {
    d->into = *into;
    dl_type_retain(d->into.t);    /* the user may free the type meanwhile */
  }
  pthread_mutex_lock(&w->lock);
  d->next = w->pending;
  w->pending = d;
  pthread_mutex_unlock(&w->lock);
  return MPI_SUCCESS;
}

/* the deferred work of rank's operations (every rank's for -1), in the
   order the operations were issued, once MPICH completed them; they are
   no longer the epoch's to flush (nor, past its end, may they be) */
static void complete(MPI_Win win, int rank)
{
  dlp_rma_requests_synced(win, rank);
  dlp_win *w = dlp_win_of(win);
  if (!w)
    return;
  for (int r = rank < 0 ? 0 : rank; r < (rank < 0 ? w->nranks : rank + 1); r++)
    atomic_store_explicit(&w->touched[r], 0, memory_order_relaxed);
  deferred *mine = NULL;
  pthread_mutex_lock(&w->lock);
  for (deferred **p = &w->pending; *p;) {
    deferred *d = *p;
    if (rank < 0 || d->rank == rank) {
      *p = d->next;
      d->next = mine;        /* reversed: oldest first */
      mine = d;
    } else {
      p = &d->next;
    }
  }
  pthread_mutex_unlock(&w->lock);
  while (mine) {
    deferred *d = mine;
    mine = d->next;
    run(d);
  }
}

/* ---- window creation ---- */

static int made(int rc, MPI_Win *win, MPI_Comm comm, void *base, MPI_Aint size,
                MPI_Aint unit, bool dynamic, bool shared)
{
  return rc == MPI_SUCCESS ? describe(*win, comm, base, size, unit, dynamic, shared) : rc;
}

/* the memory MPI_Win_allocate* returned */
static void *allocated(int rc, void *baseptr)
{
  return rc == MPI_SUCCESS ? *(void **)baseptr : NULL;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win)
{
  return made(PMPI_Win_create(base, size, disp_unit, info, comm, win), win, comm, base,
              size, disp_unit, false, false);
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                     MPI_Comm comm, MPI_Win *win)
{
  return made(PMPI_Win_create_c(base, size, disp_unit, info, comm, win), win, comm,
              base, size, disp_unit, false, false);
}
#endif

/* whether every rank of comm (an intracommunicator) shares one node, valid
   arguments, DL_RMA_MAP other than never and its info for the shared
   window (ready): decided together, as the window is made together */
static bool one_node(MPI_Aint size, MPI_Aint unit, MPI_Comm comm, bool ready)
{
  int inter = 1;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
      !dlp_all_preloaded(comm))
    return false;
  int mine = dlp_on_one_node(comm) && size >= 0 && unit > 0 && dlp_cfg()->map >= 0 && ready,
      all = 0;
  return PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm) == MPI_SUCCESS && all;
}

/* info with alloc_shared_noncontig (each rank's memory on its own pages),
   or MPI_INFO_NULL when it could not be made */
static MPI_Info noncontig(MPI_Info info)
{
  MPI_Info with = MPI_INFO_NULL;
  int rc = info == MPI_INFO_NULL ? PMPI_Info_create(&with) : PMPI_Info_dup(info, &with);
  if (rc == MPI_SUCCESS && PMPI_Info_set(with, "alloc_shared_noncontig", "true") ==
                               MPI_SUCCESS)
    return with;
  if (with != MPI_INFO_NULL)
    PMPI_Info_free(&with);
  return MPI_INFO_NULL;
}

/* whether info sets alloc_shared_noncontig to true */
static bool asked_noncontig(MPI_Info info)
{
  char v[8] = "";
  int flag = 0;
  return info != MPI_INFO_NULL &&
         PMPI_Info_get(info, "alloc_shared_noncontig", (int)sizeof(v) - 1, v, &flag) ==
             MPI_SUCCESS &&
         flag && strcmp(v, "true") == 0;
}

/* MPICH maps the memory of an MPI_Win_allocate window into every process
   of its node (its shared-memory one-sided operations) but gives nobody
   the addresses: within one node the window is made by
   MPI_Win_allocate_shared instead, and answers as MPI_Win_allocate's
   (MPI_Win_get_attr, MPI_Win_shared_query below), on a host whose two
   kinds of window answer alike otherwise (DLP_DEV_ALLOCATE_UNLIKE_SHARED) */
static int allocate(MPI_Aint size, MPI_Aint unit, MPI_Info info, MPI_Comm comm,
                    void *baseptr, MPI_Win *win, bool c_form)
{
  bool alike = !dlp_host_has(DLP_DEV_ALLOCATE_UNLIKE_SHARED);
  MPI_Info with = alike ? noncontig(info) : MPI_INFO_NULL;
  int rc;
  if (alike && one_node(size, unit, comm, with != MPI_INFO_NULL)) {
    rc = PMPI_Win_allocate_shared_c(size, unit, with, comm, baseptr, win);
    PMPI_Info_free(&with);
    rc = made(rc, win, comm, allocated(rc, baseptr), size, unit, false, true);
    dlp_win *w = rc == MPI_SUCCESS ? dlp_win_of(*win) : NULL;
    if (w) {
      w->as_allocate = true;
      w->noncontig = asked_noncontig(info);
    }
    return rc;
  }
  if (with != MPI_INFO_NULL)
    PMPI_Info_free(&with);
  rc = c_form ? PMPI_Win_allocate_c(size, unit, info, comm, baseptr, win)
              : PMPI_Win_allocate(size, (int)unit, info, comm, baseptr, win);
  return made(rc, win, comm, allocated(rc, baseptr), size, unit, false, false);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                     void *baseptr, MPI_Win *win)
{
  return allocate(size, disp_unit, info, comm, baseptr, win, false);
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                       void *baseptr, MPI_Win *win)
{
  return allocate(size, disp_unit, info, comm, baseptr, win, true);
}
#endif

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void *baseptr, MPI_Win *win)
{
  int rc = PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
  return made(rc, win, comm, allocated(rc, baseptr), size, disp_unit, false, true);
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                              MPI_Comm comm, void *baseptr, MPI_Win *win)
{
  int rc = PMPI_Win_allocate_shared_c(size, disp_unit, info, comm, baseptr, win);
  return made(rc, win, comm, allocated(rc, baseptr), size, disp_unit, false, true);
}
#endif

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
  return made(PMPI_Win_create_dynamic(info, comm, win), win, comm, NULL, 0, 1, true,
              false);
}

/* ---- what a window made shared for MPI_Win_allocate answers ---- */

static const int allocate_flavor = MPI_WIN_FLAVOR_ALLOCATE;

int MPI_Win_get_attr(MPI_Win win, int keyval, void *value, int *flag)
{
  int rc = PMPI_Win_get_attr(win, keyval, value, flag);
  if (rc == MPI_SUCCESS && keyval == MPI_WIN_CREATE_FLAVOR && *flag) {
    dlp_win *w = dlp_win_of(win);
    if (w && w->as_allocate)
      *(const int **)value = &allocate_flavor;
  }
  return rc;
}

/* the info of a window MPI_Win_allocate made: alloc_shared_noncontig as
   the program asked it (MPICH's default for such a window is false), not
   as the interposer set it to make the window shared */
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
  int rc = PMPI_Win_get_info(win, info_used);
  dlp_win *w = rc == MPI_SUCCESS ? dlp_win_of(win) : NULL;
  if (w && w->as_allocate)
    PMPI_Info_set(*info_used, "alloc_shared_noncontig", w->noncontig ? "true" : "false");
  return rc;
}

/* MPI 4.0 answers only for windows of MPI_Win_allocate_shared, and so
   does MPICH for a window of MPI_Win_allocate the interposer made shared */
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
                         void *baseptr)
{
  dlp_win *w = dlp_win_of(win);
  if (w && w->as_allocate)
    return dlp_raise_win_msg(win, MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query: the window "
                             "was made by MPI_Win_allocate, not MPI_Win_allocate_shared");
  return PMPI_Win_shared_query(win, rank, size, disp_unit, baseptr);
}

/* ---- synchronization: MPICH's, then the work of what it completed ---- */

static int synced(int rc, MPI_Win win, int rank)
{
  if (rc == MPI_SUCCESS)
    complete(win, rank);
  return rc;
}

/* DLP_DEV_FLUSH_ALL_EARLY_GET: MPI_Win_flush_all can return before a get
   has arrived that followed many get-accumulates to the same target, where
   MPI_Win_flush on that target waits for it: each target addressed in the
   epoch is flushed on its own, then all (for operations the interposer
   does not see) */
static int flush_each(MPI_Win win)
{
  if (!dlp_host_has(DLP_DEV_FLUSH_ALL_EARLY_GET))
    return PMPI_Win_flush_all(win);
  dlp_win *w = dlp_win_of(win);
  int rc = MPI_SUCCESS;
  for (int r = 0; w && rc == MPI_SUCCESS && r < w->nranks; r++)
    if (atomic_exchange_explicit(&w->touched[r], 0, memory_order_relaxed))
      rc = PMPI_Win_flush(r, win);
  return rc == MPI_SUCCESS ? PMPI_Win_flush_all(win) : rc;
}

/* the landed puts and gets first: MPICH's fence then opens the next epoch
   to memory that holds them (landing.c); MPICH's fence is called whatever
   happened, as every rank must */
int MPI_Win_fence(int assert, MPI_Win win)
{
  int land = dlp_landing_fence(dlp_win_landing(dlp_win_of(win)), assert);
  int rc = synced(PMPI_Win_fence(assert, win), win, -1);
  if (rc == MPI_SUCCESS && land != MPI_SUCCESS)
    return dlp_raise_win_msg(win, land, "MPI_Win_fence: a landed put or get could not "
                             "be completed here");
  return rc;
}

/* epochs other than a fence's: puts do not land */
static dlp_win *leaving_fence(MPI_Win win)
{
  dlp_win *w = dlp_win_of(win);
  dlp_landing_close(dlp_win_landing(w));
  return w;
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
  dlp_win *w = leaving_fence(win);
  int rc = PMPI_Win_start(group, assert, win);
  if (w && rc == MPI_SUCCESS)
    atomic_store_explicit(&w->started, true, memory_order_relaxed);
  return rc;
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
  leaving_fence(win);
  return PMPI_Win_post(group, assert, win);
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
  leaving_fence(win);
  return PMPI_Win_lock(lock_type, rank, assert, win);
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
  leaving_fence(win);
  return PMPI_Win_lock_all(assert, win);
}

int MPI_Win_complete(MPI_Win win)
{
  dlp_win *w = dlp_win_of(win);
  if (w)
    atomic_store_explicit(&w->started, false, memory_order_relaxed);
  return synced(PMPI_Win_complete(win), win, -1);
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
  return synced(PMPI_Win_unlock(rank, win), win, rank);
}

int MPI_Win_unlock_all(MPI_Win win)
{
  return synced(PMPI_Win_unlock_all(win), win, -1);
}

int MPI_Win_flush(int rank, MPI_Win win)
{
  return synced(PMPI_Win_flush(rank, win), win, rank);
}

int MPI_Win_flush_all(MPI_Win win)
{
  return synced(flush_each(win), win, -1);
}

/* DLP_DEV_FLUSH_LOCAL_EARLY_GET: a get completes locally before its data
   arrived when a put to the same target follows it (even of predefined
   types): local completion is done as remote completion, which implies
   it */
int MPI_Win_flush_local(int rank, MPI_Win win)
{
  if (!dlp_host_has(DLP_DEV_FLUSH_LOCAL_EARLY_GET))
    return synced(PMPI_Win_flush_local(rank, win), win, rank);
  return synced(PMPI_Win_flush(rank, win), win, rank);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
  return synced(flush_each(win), win, -1);
}

/* MPI requires every operation complete by now; the attribute's deletion
   frees what is left */
int MPI_Win_free(MPI_Win *win)
{
  if (win)
    complete(*win, -1);
  return PMPI_Win_free(win);
}
