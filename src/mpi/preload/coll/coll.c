/* Collectives with derived datatypes: each side's slots described, the
 * derived ones packed by dataloop into one staging buffer, MPICH's own
 * collective (its _c form) moving bytes, the received slots unpacked.
 *
 * MPICH judges first: a slot whose arguments MPICH must judge (a negative
 * count, a null or freed type, a type MPICH refuses, such as an
 * uncommitted one) hands the whole call to MPICH as the program made it,
 * so its error, message and handler are MPICH's own; so does anything
 * that fails here (no memory, a type dataloop cannot decode), since a
 * collective cannot fail at one rank alone. Only MPICH's own error stops
 * the unpacking: nothing is written that MPICH would not write.
 *
 * The bytes on the wire are MPICH's: every algorithm it picks depends on
 * the sizes, which packing keeps, so a preloaded rank and a plain one
 * meet in the same collective. */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "coll.h"
#include "../base/host.h"

/* a communicator of this process alone whose errors return: types are
   judged there, by a send to MPI_PROC_NULL, without calling the program's
   error handlers */
static MPI_Comm judge_comm = MPI_COMM_NULL;
static pthread_once_t judge_once = PTHREAD_ONCE_INIT;

static void judge_free(void)
{
  if (judge_comm != MPI_COMM_NULL)
    PMPI_Comm_free(&judge_comm);
}

static void judge_make(void)
{
  MPI_Comm c;
  if (PMPI_Comm_dup(MPI_COMM_SELF, &c) != MPI_SUCCESS)
    return;
  PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  judge_comm = c;
  dlp_at_finalize(DLP_FIN_COLL, judge_free);
}

/* whether MPICH accepts (count, dt) as a buffer's description */
static bool judged_ok(const void *buf, MPI_Count count, MPI_Datatype dt)
{
  pthread_once(&judge_once, judge_make);
  if (judge_comm == MPI_COMM_NULL)
    return false;
  int rc = count <= INT_MAX ? PMPI_Send(buf, (int)count, dt, MPI_PROC_NULL, 0, judge_comm)
                            : PMPI_Send_c(buf, count, dt, MPI_PROC_NULL, 0, judge_comm);
  return rc == MPI_SUCCESS;
}

bool dlp_coll_named(MPI_Datatype dt)
{
  return dt != MPI_DATATYPE_NULL && dli_named_type(dt) != NULL;
}

bool dlp_coll_intra(MPI_Comm comm, int *size, int *rank)
{
  int inter = 1;
  return comm != MPI_COMM_NULL && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS &&
         !inter && PMPI_Comm_size(comm, size) == MPI_SUCCESS &&
         PMPI_Comm_rank(comm, rank) == MPI_SUCCESS;
}

bool dlp_coll_degrees(MPI_Comm comm, int *in, int *out, bool nul[2 * DLP_COLL_MAXDIMS],
                      bool self[2 * DLP_COLL_MAXDIMS])
{
  int topo = MPI_UNDEFINED, me, n, weighted;
  for (int i = 0; i < 2 * DLP_COLL_MAXDIMS; i++) {
    nul[i] = false;
    if (self)
      self[i] = false;
  }
  if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
    return false;
  switch (topo) {
  case MPI_CART:
    if (PMPI_Cartdim_get(comm, &n) != MPI_SUCCESS || n > DLP_COLL_MAXDIMS ||
        (self && PMPI_Comm_rank(comm, &me) != MPI_SUCCESS))
      return false;
    for (int d = 0; d < n; d++) {
      int src, dst;
      if (PMPI_Cart_shift(comm, d, 1, &src, &dst) != MPI_SUCCESS)
        return false;
      nul[2 * d] = src == MPI_PROC_NULL;
      nul[2 * d + 1] = dst == MPI_PROC_NULL;
      if (self) {
        self[2 * d] = src == me;
        self[2 * d + 1] = dst == me;
      }
    }
    *in = *out = 2 * n;
    return true;
  case MPI_GRAPH:
    if (PMPI_Comm_rank(comm, &me) != MPI_SUCCESS ||
        PMPI_Graph_neighbors_count(comm, me, &n) != MPI_SUCCESS)
      return false;
    *in = *out = n;
    return true;
  case MPI_DIST_GRAPH:
    return PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted) == MPI_SUCCESS;
  default:
    return false;
  }
}

static MPI_Count count_at(const dlp_slots *in, int i)
{
  if (!in->counts)
    return in->count;
  return in->counts_c ? ((const MPI_Count *)in->counts)[i] : ((const int *)in->counts)[i];
}

static MPI_Aint displ_at(const dlp_slots *in, int i)
{
  if (!in->displs)
    return (MPI_Aint)i * (MPI_Aint)in->count;
  return in->displs_c ? ((const MPI_Aint *)in->displs)[i] : ((const int *)in->displs)[i];
}

static void side_free(dlp_side *s)
{
  dlp_stage_put(s->stage);
  free(s->counts);
#if MPI_VERSION < 4
  free(s->icounts);
#endif
  *s = (dlp_side){0};
}

#if MPI_VERSION < 4
/* the side's counts and displacements as the int arrays a host of MPI 3.1
   takes (kept with the side: a nonblocking call may read them until it
   completes); false where one does not fit an int, and the host then
   takes the program's own call */
static bool side_ints(dlp_side *s)
{
  if (s->n <= 0)
    return true;
  if (s->one < 0 || s->one > INT_MAX ||
      !(s->icounts = malloc(2 * (size_t)s->n * sizeof(int))))
    return false;
  s->idispls = s->icounts + s->n;
  for (int i = 0; i < s->n; i++) {
    if (s->counts[i] < 0 || s->counts[i] > INT_MAX || s->displs[i] < INT_MIN ||
        s->displs[i] > INT_MAX)
      return false;
    s->icounts[i] = (int)s->counts[i];
    s->idispls[i] = (int)s->displs[i];
  }
  return true;
}
#endif

/* whether (count, type) is packed: unless its plan says MPICH's engine
   beats packing it (the tuning file's mpich table), or its blocks are
   large (coll_block: MPICH's collective then moves them as they lie, one
   pass fewer than packing them into a staging buffer for it) */
static bool packs(const dlp_data *d)
{
  dlp_choice c;
  dlp_choose(d, false, false, &c);
  bool pack = c.route != DLP_R_MPICH && c.mean_block < dlp_th()->coll_block;
  dlp_choice_done(&c, false, true);
  return pack;
}

/* s described from in (all: every derived slot staged, whatever its plan
   or density): false to hand the call to MPICH */
static bool side_make(dlp_side *s, const dlp_slots *in, bool all)
{
  int n = in->n;
  *s = (dlp_side){.n = n, .type = in->type, .one = in->count, .none = in->none,
                  .per_slot = in->counts || in->types};
  if (n <= 0)
    return n == 0;
  if ((n > 0 && !in->counts && !in->types && in->count < 0) ||
      (in->types == NULL && in->type == MPI_DATATYPE_NULL))
    return false;
  size_t each = sizeof(MPI_Count) + sizeof(MPI_Aint) + sizeof(MPI_Datatype) +
                sizeof(dlp_data) + sizeof(size_t) + sizeof(bool);
  char *mem = malloc((size_t)n * each);
  if (!mem)
    return false;
  s->counts = (MPI_Count *)mem;
  s->displs = (MPI_Aint *)(mem + (size_t)n * sizeof(MPI_Count));
  s->d = (dlp_data *)(mem + (size_t)n * (sizeof(MPI_Count) + sizeof(MPI_Aint)));
  s->off = (size_t *)((char *)s->d + (size_t)n * sizeof(dlp_data));
  s->types = (MPI_Datatype *)((char *)s->off + (size_t)n * sizeof(size_t));
  if (in->none) {   /* kept: a nonblocking call returns before it ends */
    bool *none = (bool *)((char *)s->types + (size_t)n * sizeof(MPI_Datatype));
    memcpy(none, in->none, (size_t)n * sizeof(bool));
    s->none = none;
  }
  MPI_Aint lb = 0, extent = 0;
  if (!in->types && PMPI_Type_get_extent(in->type, &lb, &extent) != MPI_SUCCESS)
    goto pass;
  MPI_Datatype judged = MPI_DATATYPE_NULL;
  int packs_side = -1;       /* one type for all: whether its plan packs */
  for (int i = 0; i < n; i++) {
    MPI_Datatype dt = in->types ? in->types[i] : in->type;
    MPI_Count c = count_at(in, i);
    MPI_Aint at = displ_at(in, i);
    if (!in->types && __builtin_mul_overflow(at, extent, &at))
      goto pass;
    const char *p = (const char *)((uintptr_t)in->buf + (uintptr_t)at);
    dlp_data *d = &s->d[i];
    if (dlp_data_get(p, c, dt, d) != MPI_SUCCESS)
      goto pass;
    if (!d->named && dt != judged) {
      if (!judged_ok(p, c, dt))
        goto pass;
      judged = dt;
    }
    s->counts[i] = c;
    s->displs[i] = in->types ? at : displ_at(in, i);
    s->types[i] = dt;
    /* a w form stages a slot's derived data alone, where its plan packs;
       the others all slots or none, as the first derived one's plan says */
    bool derived = all ? !d->named : !dlp_straight(d);
    if (in->types)
      s->off[i] = derived && (all || packs(d)) ? 0 : SIZE_MAX;
    else if (derived && packs_side < 0)
      packs_side = all || packs(d);
  }
  bool any = false;
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    const dlp_data *d = &s->d[i];
    bool stage = in->types ? s->off[i] == 0 : packs_side > 0 && !d->named && d->count > 0;
    s->off[i] = stage ? total : SIZE_MAX;
    /* all: a derived type of no data is staged too (as MPI_BYTE) */
    any |= all ? !d->named : stage && !dlp_straight(d);
    if (stage && __builtin_add_overflow(total, d->bytes, &total))
      goto pass;
  }
  s->staged = any;
  s->base = (char *)in->buf;
  if (!any)
    return true;
  if (!(s->stage = dlp_stage_get(total)))
    goto pass;
  s->base = s->stage;
  if (!in->types)
    s->type = MPI_BYTE;
  for (int i = 0; i < n; i++) {
    if (s->off[i] == SIZE_MAX && in->types) {   /* the user's: bytes from the stage */
      s->displs[i] = (MPI_Aint)((uintptr_t)in->buf + (uintptr_t)s->displs[i] -
                                (uintptr_t)s->stage);
      continue;
    }
    if (s->d[i].bytes == 0)
      s->off[i] = SIZE_MAX;          /* nothing to pack or unpack */
    s->counts[i] = (MPI_Count)s->d[i].bytes;
    if (s->off[i] != SIZE_MAX)
      s->one = s->counts[i];
    s->displs[i] = (MPI_Aint)(s->off[i] == SIZE_MAX ? 0 : s->off[i]);
    s->types[i] = MPI_BYTE;
  }
  return true;
pass:
  side_free(s);
  return false;
}

/* packs slot i of s into the stage */
static bool slot_pack(dlp_side *s, int i)
{
  if (s->off[i] == SIZE_MAX || (s->none && s->none[i]))
    return true;
  const dlp_data *d = &s->d[i];
  size_t pos = 0;
  return dl_pack(d->buf, d->count, d->t, s->stage + s->off[i], d->bytes, &pos) == DL_OK;
}

/* whether slot i is among the n of list (this rank's own, copied here) */
static bool listed(const int *list, int n, int i)
{
  for (int k = 0; k < n; k++)
    if (list[k] == i)
      return true;
  return false;
}

/* packs the send side and what the receive side holds before the call */
static bool pack_sides(dlp_coll *k)
{
  bool ok = true;
  for (int i = 0; ok && k->s.staged && i < k->s.n; i++)
    if (!listed(k->self_s, k->nself, i))
      ok = slot_pack(&k->s, i);
  /* MPI_IN_PLACE: the all-to-all forms send every slot but their own,
     which MPICH leaves where it is; the gathers to all their own alone */
  for (int i = 0; ok && k->r.staged && i < k->r.n; i++)
    if (k->fill == DLP_FILL_ALL ? i != k->own : k->fill == DLP_FILL_OWN && i == k->own)
      ok = slot_pack(&k->r, i);
  return ok;
}

bool dlp_coll_prepare(dlp_coll *k, MPI_Comm comm, const dlp_slots *send,
                      const dlp_slots *recv, int fill, int own, int nself,
                      const int *self_r, const int *self_s, const dlp_how *how)
{
  *k = (dlp_coll){.comm = comm, .fill = fill, .own = own};
  bool init = how && how->init, all = init && dlp_host_has(DLP_DEV_COLL_PERSIST_DERIVED);
  dlp_slots none = {.n = 0, .type = MPI_BYTE};
  if (!side_make(&k->s, send ? send : &none, all))
    return false;
  if (!side_make(&k->r, recv ? recv : &none, all)) {
    side_free(&k->s);
    return false;
  }
  /* this rank's own slots are copied here from type to type (one pass, no
     staging) where they are derived data and both sides have a count per
     slot (MPICH then gets none of them), or where they are staged (MPICH
     then moves the staging's bytes, and the copy here is what lands) */
  for (int p = 0; p < nself && p < 2 * DLP_COLL_MAXDIMS; p++) {
    int r = self_r[p], s = self_s[p];
    if (r >= 0 && s >= 0 && s < k->s.n && r < k->r.n &&
        !(k->s.none && k->s.none[s]) && !(k->r.none && k->r.none[r]) &&
        ((k->s.per_slot && k->r.per_slot &&
          (!dlp_straight(&k->s.d[s]) || !dlp_straight(&k->r.d[r]))) ||
         k->s.off[s] != SIZE_MAX || k->r.off[r] != SIZE_MAX)) {
      k->self_r[k->nself] = r;
      k->self_s[k->nself++] = s;
      if (k->s.per_slot && k->r.per_slot)
        k->s.counts[s] = k->r.counts[r] = 0;
    }
  }
  bool pack_now = !init || dlp_host_has(DLP_DEV_COLL_PERSIST_READ_AT_INIT);
#if MPI_VERSION < 4
  bool fits = side_ints(&k->s) && side_ints(&k->r);
#else
  bool fits = true;
#endif
  if (!fits || (!k->s.staged && !k->r.staged && k->nself == 0) ||
      (pack_now && !pack_sides(k))) {
    side_free(&k->s);
    side_free(&k->r);
    return false;
  }
  if (!init)
    dlp_count(DLP_N_COLL);
  return true;
}

static int finish(dlp_coll *k, int rc);
static int unpack(dlp_coll *k, int rc);
static void release(dlp_coll *k);

/* a nonblocking collective's work at completion: its sides unpacked and
   freed, the types it held let go */
static int coll_finish(dlp_op *op, MPI_Status *st, int err, MPI_Comm *raise_on)
{
  (void)st;
  *raise_on = MPI_COMM_NULL;
  dlp_coll *k = op->stage;
  op->stage = NULL;
  err = finish(k, err);
  free(k);
  return err;
}
static const dlp_route coll_route = {NULL, coll_finish, NULL};

/* holds (hold) or lets go of the dataloop types of a side's slots: a
   nonblocking collective's, which the program may free before it ends */
static void side_hold(dlp_side *s, bool hold)
{
  for (int i = 0; s->d && i < s->n; i++)
    if (s->d[i].t && !s->d[i].named) {
      if (hold)
        dl_type_retain(s->d[i].t);
      else
        dl_type_free(&s->d[i].t);
    }
}

/* a persistent collective's start: the sides packed (the program may
   have changed its data since the last) */
static int persistent_start(void *arg)
{
  dlp_coll *k = arg;
  if (!pack_sides(k))
    return dlp_raise_msg(k->comm, MPI_ERR_INTERN, "MPI_Start: a persistent "
                         "collective's data could not be packed");
  dlp_count(DLP_N_COLL);
  return MPI_SUCCESS;
}

/* its completion: the receive side unpacked, this rank's own slot copied */
static void persistent_done(void *arg)
{
  unpack(arg, MPI_SUCCESS);
}

static void persistent_free(void *arg)
{
  release(arg);
  free(arg);
}

/* k copied to the heap, its slots' types held */
static dlp_coll *kept_copy(const dlp_coll *k)
{
  dlp_coll *kept = malloc(sizeof(*kept));
  if (!kept)
    return NULL;
  *kept = *k;
  side_hold(&kept->s, true);
  side_hold(&kept->r, true);
  kept->held = true;
  return kept;
}

int dlp_coll_end(dlp_coll *k, int rc, MPI_Request inner, const dlp_how *how)
{
  if (!how || rc != MPI_SUCCESS)
    return finish(k, rc);
  if (how->init) {
    dlp_coll *kept = kept_copy(k);
    if (!kept) {             /* MPICH's request, on staging nobody packs */
      dlp_next()->request_free(&inner);
      release(k);
      return dlp_raise(k->comm, MPI_ERR_NO_MEM);
    }
    *how->q = inner;
    dlp_persist_watch(inner, k->comm, persistent_start, persistent_done, persistent_free,
                      kept);
    return MPI_SUCCESS;
  }
  MPI_Request *req = how->q;
  dlp_req *e = dlp_req_new();
  dlp_coll *kept = kept_copy(k);
  if (!e || !kept) {
    /* the collective goes on in MPICH: wait for it here, then finish */
    free(e);
    if (kept) {                /* its holds let go; the sides are k's */
      side_hold(&kept->s, false);
      side_hold(&kept->r, false);
      free(kept);
    }
    rc = dlp_next()->wait(&inner, MPI_STATUS_IGNORE);
    *req = MPI_REQUEST_NULL;
    return finish(k, rc);
  }
  e->op.route = DLP_R_PACK;
  e->op.via = &coll_route;
  e->op.comm = k->comm;
  e->op.req = inner;
  e->op.stage = kept;
  e->op.peer = MPI_PROC_NULL;
  rc = dlp_req_track(e, req);
  return rc ? dlp_raise(k->comm, rc) : MPI_SUCCESS;
}

static int unpack(dlp_coll *k, int rc)
{
  if (rc == MPI_SUCCESS && k->r.staged)
    for (int i = 0; i < k->r.n; i++)
      if (k->r.off[i] != SIZE_MAX && i != k->own && !listed(k->self_r, k->nself, i) &&
          !(k->r.none && k->r.none[i]))
        dlp_stage_in(&k->r.d[i], k->r.stage + k->r.off[i], k->r.d[i].bytes);
  for (int p = 0; rc == MPI_SUCCESS && p < k->nself; p++) {
    const dlp_data *a = &k->s.d[k->self_s[p]], *b = &k->r.d[k->self_r[p]];
    size_t copied = 0;
    int dlrc = dl_copy(a->buf, a->count, a->t, b->buf, b->count, b->t, &copied);
    if (dlrc == DL_ERR_TRUNCATE)
      rc = dlp_raise_msg(k->comm, MPI_ERR_TRUNCATE, "collective: this rank's own %zu "
                         "bytes do not fit its receive buffer of %zu", a->bytes, b->bytes);
    else if (dlrc != DL_OK)
      rc = dlp_raise_dl(k->comm, "collective", dlp_class_of(dlrc), dlrc);
  }
  return rc;
}

static void release(dlp_coll *k)
{
  if (k->held) {
    side_hold(&k->s, false);
    side_hold(&k->r, false);
  }
  side_free(&k->s);
  side_free(&k->r);
}

static int finish(dlp_coll *k, int rc)
{
  rc = unpack(k, rc);
  release(k);
  return rc;
}
