/* Puts and gets landed (doc/rma.md, "landed"). In a fence epoch the
 * origin packs a put's operand in chunks, each sent behind a header (where
 * it goes, which stream bytes, the target type or its number) on a
 * communicator of the window's own; a get sends a request instead. The
 * interposed MPI_Win_fence unpacks landings, answers requests and unpacks
 * the replies as they come while it learns how many it gets (tally.c), and
 * only then calls MPICH's fence: no operation of the
 * next epoch reaches the target's memory before the target's fence opens
 * it, and the target's own loads come after, so the data is there when MPI
 * says it is. MPICH's engine never walks the target type. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "window.h"
#include "../../../../actions/actions.h"   /* dli_memcpy */

/* tags: landings, get requests, get replies; each plus the epoch's parity */
enum { TAG_PUT = 2, TAG_REQ = 4, TAG_REPLY = 6, TYPES = 64 };
enum { KIND_PUT = 1, KIND_REQ = 2 };    /* which messages carried a type */

typedef struct flight {
  MPI_Request req;
  void *stage;
} flight;

/* a get of this epoch, as origin: replies unpacked into `into` */
typedef struct pending_get {
  dlp_data into;         /* into.t held */
  dl_segment *seg;       /* over into, unless dense */
  size_t left;           /* bytes still to come */
} pending_get;

struct dlp_landing {
  MPI_Comm comm;         /* the window's group, a context of its own */
  char *base;            /* this rank's window memory */
  bool dynamic;          /* offsets are absolute addresses */
  int nranks;
  bool open;             /* a fence epoch is open on this rank */
  unsigned epoch;        /* fences so far: the tag's parity (a landing of the
                            next epoch may come while this one's are
                            received, never one of the epoch after) */
  pthread_mutex_t lock;
  dlp_tally *tally;      /* the fences' count exchange */
  int *sent;             /* this epoch's landings and get requests to
                            each rank: [2 r], [2 r + 1] */
  flight *fl;            /* sends in flight */
  size_t nfl, capfl;
  pending_get *gets;     /* this epoch's, by request id */
  size_t ngets, capgets, left;   /* left: bytes all still wait for */
  /* target types sent once per target, then named by their number (a
     type of 100,000 displacements costs more to serialize and rebuild
     than its data to move): this rank's as origin, each held, and which
     targets have each; as target, each origin's by number (lazily) */
  struct sent_type {
    dl_type *t;
    unsigned char *at;
  } types[TYPES];
  int ntypes;
  dl_type **got;         /* [origin * TYPES + number - 1] */
};

/* what precedes the type and the stream; the stream starts 16-aligned */
typedef struct header {
  uint64_t off;          /* bytes from the window's base (dynamic: address) */
  uint64_t count;        /* of the target type */
  uint64_t tlen;         /* serialized type bytes (0: known by its number) */
  uint64_t number;       /* 1..TYPES: the origin's type number; 0: none */
  uint64_t first, len;   /* the stream bytes this landing holds (a get
                            request: first 0, len its bytes) */
  uint64_t id;           /* a get's request id at its origin */
  uint64_t failed;       /* a reply without data: the target could not
                            pack bytes [first, first + len) */
  uint64_t chunk;        /* a get request: stream bytes per reply */
} header;

static size_t pad16(size_t n)
{
  return (n + 15) & ~(size_t)15;
}

int dlp_landing_new(MPI_Comm comm, void *base, bool dynamic, bool share,
                    dlp_landing **out)
{
  int n = 0, rc = PMPI_Comm_size(comm, &n);
  dlp_landing *l = rc == MPI_SUCCESS ? calloc(1, sizeof(*l)) : NULL;
  if (l) {
    l->comm = MPI_COMM_NULL;
    l->sent = calloc(2 * (size_t)n, sizeof(*l->sent));
  }
  if (rc == MPI_SUCCESS && (!l || !l->sent))
    rc = MPI_ERR_NO_MEM;
  if (rc == MPI_SUCCESS)
    rc = PMPI_Comm_dup(comm, &l->comm);
  if (rc == MPI_SUCCESS)      /* its errors are reported on the window */
    PMPI_Comm_set_errhandler(l->comm, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS)
    rc = dlp_tally_new(l->comm, 2, share, &l->tally);
  if (rc != MPI_SUCCESS) {
    if (l && l->comm != MPI_COMM_NULL)
      PMPI_Comm_free(&l->comm);
    if (l)
      free(l->sent);
    free(l);
    return rc;
  }
  l->base = base;
  l->dynamic = dynamic;
  l->nranks = n;
  pthread_mutex_init(&l->lock, NULL);
  *out = l;
  return MPI_SUCCESS;
}

/* every send complete before any buffer goes back: one buffer carries
   all of an operation's landings (batch) */
static void wait_sends(dlp_landing *l)
{
  for (size_t i = 0; i < l->nfl; i++)
    dlp_next()->wait(&l->fl[i].req, MPI_STATUS_IGNORE);
  for (size_t i = 0; i < l->nfl; i++)
    dlp_stage_put(l->fl[i].stage);
  l->nfl = 0;
}

/* forgets this rank's gets from the one numbered from on */
static void drop_gets(dlp_landing *l, size_t from)
{
  for (size_t i = from; i < l->ngets; i++) {
    l->left -= l->gets[i].left;
    dl_segment_free(&l->gets[i].seg);
    dl_type_free(&l->gets[i].into.t);
  }
  l->ngets = from;
}

void dlp_landing_free(dlp_landing *l)
{
  if (!l)
    return;
  wait_sends(l);    /* an erroneous program's: MPI_Win_free completes them */
  dlp_tally_free(l->tally);
  PMPI_Comm_free(&l->comm);
  for (int i = 0; i < l->ntypes; i++) {
    dl_type_free(&l->types[i].t);
    free(l->types[i].at);
  }
  for (size_t i = 0; l->got && i < (size_t)l->nranks * TYPES; i++)
    dl_type_free(&l->got[i]);
  free(l->got);
  drop_gets(l, 0);          /* never completed: an erroneous program's */
  free(l->gets);
  pthread_mutex_destroy(&l->lock);
  free(l->fl);
  free(l->sent);
  free(l);
}

bool dlp_landing_open(const dlp_landing *l)
{
  return l && __atomic_load_n(&l->open, __ATOMIC_RELAXED);
}

void dlp_landing_close(dlp_landing *l)
{
  if (l)
    __atomic_store_n(&l->open, false, __ATOMIC_RELAXED);
}

/* room for one more of n elements of size bytes in *arr, doubling *cap */
static bool room(void **arr, size_t n, size_t *cap, size_t size)
{
  if (n < *cap)
    return true;
  size_t more = *cap ? 2 * *cap : 16;
  void *a = realloc(*arr, more * size);
  if (!a)
    return false;
  *arr = a;
  *cap = more;
  return true;
}

static int track(dlp_landing *l, void *stage, MPI_Request req)
{
  if (!room((void **)&l->fl, l->nfl, &l->capfl, sizeof(*l->fl)))
    return MPI_ERR_NO_MEM;
  l->fl[l->nfl++] = (flight){req, stage};
  return MPI_SUCCESS;
}

/* one staging buffer for all the landings (or replies) of an operation,
   in slices: a buffer per landing, past the few the staging pool keeps,
   is a fresh allocation whose pages fault in while it is packed
   (doc/rma.md, "Landing at the target") */
typedef struct batch {
  char *buf;
  size_t size, used;
} batch;

#define SLICE 64       /* each landing's slice starts on a cache line */

/* a batch for n stream bytes in landings of chunk bytes, the first (every
   one: every) carrying tlen bytes of type; tracked as a send, so that it
   goes back once every send from it is complete */
static int batch_open(dlp_landing *l, batch *b, size_t n, size_t chunk, size_t tlen,
                      bool every)
{
  size_t m = n / chunk + (n % chunk != 0), heads, types, size;
  *b = (batch){0};
  if (__builtin_mul_overflow(m, sizeof(header) + SLICE, &heads) ||
      __builtin_mul_overflow(every ? m : 1, pad16(tlen), &types) ||
      __builtin_add_overflow(heads, types, &size) || __builtin_add_overflow(size, n, &size))
    return MPI_ERR_INTERN;
  if (!(b->buf = dlp_stage_get(size)))
    return MPI_ERR_NO_MEM;
  int rc = track(l, b->buf, MPI_REQUEST_NULL);
  if (rc != MPI_SUCCESS) {
    dlp_stage_put(b->buf);
    b->buf = NULL;
    return rc;
  }
  b->size = size;
  return MPI_SUCCESS;
}

/* total bytes from b (NULL, or no buffer: a staging buffer of its own) */
static char *slice(batch *b, size_t total)
{
  if (!b || !b->buf)
    return dlp_stage_get(total);
  if (total > b->size - b->used)
    return NULL;
  char *at = b->buf + b->used;
  size_t step = (total + SLICE - 1) / SLICE * SLICE;
  b->used += step < b->size - b->used ? step : b->size - b->used;
  return at;
}

/* t's number in this rank's table (0: full), added (held) if new; *known:
   rank has it already from a message of this kind (a bit: the landings
   and the get requests travel under tags of their own, so the target may
   take a request before an earlier landing that carried the type) */
static int number_of(dlp_landing *l, dl_type *t, int rank, unsigned kind, bool *known)
{
  int i = 0;
  while (i < l->ntypes && l->types[i].t != t)
    i++;
  if (i == l->ntypes) {
    unsigned char *at = i < TYPES ? calloc((size_t)l->nranks, 1) : NULL;
    if (!at || dl_type_retain(t) != DL_OK) {
      free(at);
      *known = false;
      return 0;
    }
    l->types[l->ntypes++] = (struct sent_type){t, at};
  }
  *known = l->types[i].at[rank] & kind;
  l->types[i].at[rank] |= (unsigned char)kind;
  return i + 1;
}

/* one message of kind tag: header, the type t (NULL: the target knows
   it), stream bytes [first, first + len) packed from os (dense: copied
   from base; neither: none, a get request); in a slice of b, if any */
static int send_one(dlp_landing *l, int tag, int rank, const header *h0, const dl_type *t,
                    dl_segment *os, const char *base, batch *b)
{
  header h = *h0;
  bool data = os || base;
  size_t total, last = h.first + h.len;
  h.tlen = 0;
  if (t)
    dl_type_serialize(t, NULL, 0, &h.tlen);
  if ((t && !h.tlen) ||
      __builtin_add_overflow(sizeof(h) + pad16(h.tlen), data ? h.len : 0, &total))
    return MPI_ERR_INTERN;
  bool own = !b || !b->buf;
  char *stage = slice(b, total);
  if (!stage)
    return own ? MPI_ERR_NO_MEM : MPI_ERR_INTERN;
  memcpy(stage, &h, sizeof(h));
  char *stream = stage + sizeof(h) + pad16(h.tlen);
  size_t tlen = h.tlen;
  int rc = MPI_SUCCESS;
  if (tlen && dl_type_serialize(t, stage + sizeof(h), tlen, &tlen) != DL_OK)
    rc = MPI_ERR_INTERN;
  else if (!os && base)
    dli_memcpy(stream, base + h.first, h.len);
  else if (os &&
           (dl_segment_pack(os, h.first, &last, stream) != DL_OK || last != h.first + h.len))
    rc = MPI_ERR_INTERN;
  MPI_Request req = MPI_REQUEST_NULL;
  if (rc == MPI_SUCCESS)
    rc = PMPI_Isend_c(stage, (MPI_Count)total, MPI_BYTE, rank, tag + (int)(l->epoch & 1),
                      l->comm, &req);
  if (rc == MPI_SUCCESS && (rc = track(l, own ? stage : NULL, req)) != MPI_SUCCESS)
    dlp_next()->wait(&req, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS && own)
    dlp_stage_put(stage);
  return rc;
}

/* in landings of chunk bytes, each sent once packed, so that the target
   (polling in its fence) unpacks one while the next is packed. Under the
   lock, so that a type goes before every landing that names it */
int dlp_land(dlp_landing *l, int rank, MPI_Aint off, const dlp_data *o, const dlp_data *t,
             size_t chunk)
{
  dl_segment *os = NULL;
  if (!o->dense && dl_segment_create(o->buf, o->count, o->t, &os) != DL_OK)
    return MPI_ERR_NO_MEM;
  pthread_mutex_lock(&l->lock);
  bool known = false;
  int number = number_of(l, t->t, rank, KIND_PUT, &known), rc = MPI_SUCCESS;
  header h = {.off = (uint64_t)off, .count = (uint64_t)t->count,
              .number = (uint64_t)number};
  chunk = chunk ? chunk : 1;
  size_t tlen = 0;
  batch b = {0};
  if (!known)
    dl_type_serialize(t->t, NULL, 0, &tlen);
  if (t->bytes && (rc = batch_open(l, &b, t->bytes, chunk, tlen, !number)) != MPI_SUCCESS &&
      number)
    l->types[number - 1].at[rank] &= (unsigned char)~KIND_PUT;   /* nothing went */
  for (size_t a = 0; rc == MPI_SUCCESS && a < t->bytes; a += h.len) {
    h.first = a;
    h.len = t->bytes - a < chunk ? t->bytes - a : chunk;
    rc = send_one(l, TAG_PUT, rank, &h, known ? NULL : t->t, os, o->base, &b);
    if (rc == MPI_SUCCESS)
      l->sent[2 * rank]++;
    if (rc == MPI_SUCCESS && number)
      known = true;
    else if (number && a == 0)   /* the target may not have it */
      l->types[number - 1].at[rank] &= (unsigned char)~KIND_PUT;
  }
  pthread_mutex_unlock(&l->lock);
  dl_segment_free(&os);
  return rc;
}

static int add_get(dlp_landing *l, const dlp_data *into, uint64_t *id)
{
  if (!room((void **)&l->gets, l->ngets, &l->capgets, sizeof(*l->gets)))
    return MPI_ERR_NO_MEM;
  pending_get g = {.into = *into, .left = into->bytes};
  if (!into->dense && dl_segment_create(into->buf, into->count, into->t, &g.seg) != DL_OK)
    return MPI_ERR_NO_MEM;
  dl_type_retain(g.into.t);     /* the user may free the type meanwhile */
  *id = l->ngets;
  l->gets[l->ngets++] = g;
  l->left += g.left;
  return MPI_SUCCESS;
}

/* a request for the target layout t at byte off of rank's window; the
   target packs it in its fence, and this rank's fence unpacks the replies
   into `into` */
int dlp_land_get(dlp_landing *l, int rank, MPI_Aint off, const dlp_data *into,
                 const dlp_data *t, size_t chunk)
{
  pthread_mutex_lock(&l->lock);
  bool known = false;
  int number = number_of(l, t->t, rank, KIND_REQ, &known);
  header h = {.off = (uint64_t)off, .count = (uint64_t)t->count,
              .number = (uint64_t)number, .len = t->bytes, .chunk = chunk ? chunk : 1};
  int rc = add_get(l, into, &h.id);
  bool added = rc == MPI_SUCCESS;
  if (added)
    rc = send_one(l, TAG_REQ, rank, &h, known ? NULL : t->t, NULL, NULL, NULL);
  if (rc == MPI_SUCCESS) {
    l->sent[2 * rank + 1]++;
  } else {
    if (number && !known)
      l->types[number - 1].at[rank] &= (unsigned char)~KIND_REQ;
    if (added)              /* the request never left: no reply will come */
      drop_gets(l, l->ngets - 1);
  }
  pthread_mutex_unlock(&l->lock);
  return rc;
}

/* the type a landing from origin names, or carries (kept if numbered) */
static int type_of(dlp_landing *l, int origin, const header *h, const char *bytes,
                   dl_type **t, bool *own)
{
  *own = h->number == 0;
  if (h->number > TYPES || origin < 0 || origin >= l->nranks)
    return MPI_ERR_INTERN;
  if (!l->got && h->number &&
      !(l->got = calloc((size_t)l->nranks * TYPES, sizeof(*l->got))))
    return MPI_ERR_NO_MEM;
  dl_type **slot = h->number ? &l->got[(size_t)origin * TYPES + h->number - 1] : t;
  if (h->tlen) {
    dl_type_free(slot);   /* a number is never reused: an erroneous one */
    if (dl_type_deserialize(bytes, (size_t)h->tlen, slot) != DL_OK)
      return MPI_ERR_INTERN;
  }
  *t = *slot;
  return *t ? MPI_SUCCESS : MPI_ERR_INTERN;
}

/* the header of a message of len bytes and where its stream starts; data:
   the message holds stream bytes [first, first + len) */
static int parse(const char *msg, size_t len, bool data, header *h, size_t *at)
{
  size_t last;
  if (len < sizeof(*h))
    return MPI_ERR_INTERN;
  memcpy(h, msg, sizeof(*h));
  *at = sizeof(*h) + pad16((size_t)h->tlen);
  if (h->tlen > len || *at > len || len - *at != (data ? h->len : 0) ||
      __builtin_add_overflow((size_t)h->first, (size_t)h->len, &last))
    return MPI_ERR_INTERN;
  return MPI_SUCCESS;
}

/* a segment over the target layout of h in this rank's window memory */
static int window_segment(dlp_landing *l, int origin, const header *h, const char *msg,
                          dl_segment **ts)
{
  dl_type *t = NULL;
  bool own = false;
  int rc = type_of(l, origin, h, msg + sizeof(*h), &t, &own);
  if (rc != MPI_SUCCESS)
    return rc;
  char *to = l->dynamic ? (char *)(uintptr_t)h->off : l->base + h->off;
  rc = dl_segment_create(to, (dl_count)h->count, t, ts) == DL_OK ? MPI_SUCCESS
                                                                 : MPI_ERR_NO_MEM;
  if (own)
    dl_type_free(&t);
  return rc;
}

/* one landing from origin into this rank's window memory */
static int unpack_one(dlp_landing *l, int origin, const char *msg, size_t len)
{
  header h = {0};
  size_t at, last;
  dl_segment *ts = NULL;
  int rc = parse(msg, len, true, &h, &at);
  if (rc == MPI_SUCCESS)
    rc = window_segment(l, origin, &h, msg, &ts);
  last = (size_t)(h.first + h.len);
  if (rc == MPI_SUCCESS &&
      (dl_segment_unpack(ts, (size_t)h.first, &last, msg + at) != DL_OK ||
       last != h.first + h.len))
    rc = MPI_ERR_INTERN;
  dl_segment_free(&ts);
  return rc;
}

/* a get request from origin: its layout in this rank's window memory,
   packed and sent back in replies of the chunk it names; what cannot be
   packed is answered by a failed reply, so that the origin waits for
   nothing that never comes */
static int serve_get(dlp_landing *l, int origin, const char *msg, size_t len)
{
  header h = {0};
  size_t at, a = 0;
  dl_segment *ts = NULL;
  int rc = parse(msg, len, false, &h, &at);
  if (rc != MPI_SUCCESS)
    return rc;        /* no id to answer: the origin's fence reports it */
  rc = window_segment(l, origin, &h, msg, &ts);
  size_t chunk = h.chunk ? (size_t)h.chunk : 1, n = (size_t)h.len;
  header r = {.id = h.id};
  batch b = {0};
  if (rc == MPI_SUCCESS && n)
    rc = batch_open(l, &b, n, chunk, 0, false);
  for (; rc == MPI_SUCCESS && a < n; a += r.len) {
    r.first = a;
    r.len = n - a < chunk ? n - a : chunk;
    rc = send_one(l, TAG_REPLY, origin, &r, NULL, ts, NULL, &b);
  }
  if (rc != MPI_SUCCESS && a < n) {
    header f = {.id = h.id, .first = a, .len = n - a, .failed = 1};
    send_one(l, TAG_REPLY, origin, &f, NULL, NULL, NULL, NULL);
  }
  dl_segment_free(&ts);
  return rc;
}

/* a reply to one of this rank's gets: unpacked into its destination */
static int take_reply(dlp_landing *l, const char *msg, size_t len)
{
  header h = {0};
  size_t at, last;
  int rc = len >= sizeof(h) ? MPI_SUCCESS : MPI_ERR_INTERN;
  if (rc == MPI_SUCCESS) {
    memcpy(&h, msg, sizeof(h));
    rc = parse(msg, len, !h.failed, &h, &at);
  }
  if (rc != MPI_SUCCESS || h.id >= l->ngets || h.len > l->gets[h.id].left)
    return rc ? rc : MPI_ERR_INTERN;
  pending_get *g = &l->gets[h.id];
  last = (size_t)(h.first + h.len);
  if (h.failed || h.first + h.len > g->into.bytes)
    rc = MPI_ERR_INTERN;
  else if (!g->seg)
    dli_memcpy(g->into.base + h.first, msg + at, (size_t)h.len);
  else if (dl_segment_unpack(g->seg, (size_t)h.first, &last, msg + at) != DL_OK ||
           last != h.first + h.len)
    rc = MPI_ERR_INTERN;
  g->left -= (size_t)h.len;
  l->left -= (size_t)h.len;
  return rc;
}

/* receives one message of kind tag and does what it asks */
static int take(dlp_landing *l, int tag, MPI_Message *m, const MPI_Status *st)
{
  MPI_Count len = 0;
  int rc = PMPI_Get_count_c(st, MPI_BYTE, &len);
  char *buf = rc == MPI_SUCCESS ? dlp_stage_get((size_t)len) : NULL;
  if (!buf) {
    PMPI_Mrecv(NULL, 0, MPI_BYTE, m, MPI_STATUS_IGNORE);  /* truncated: gone */
    return rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc;
  }
  rc = PMPI_Mrecv_c(buf, len, MPI_BYTE, m, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS)
    rc = tag == TAG_PUT ? unpack_one(l, st->MPI_SOURCE, buf, (size_t)len)
       : tag == TAG_REQ ? serve_get(l, st->MPI_SOURCE, buf, (size_t)len)
                        : take_reply(l, buf, (size_t)len);
  dlp_stage_put(buf);
  return rc;
}

/* before MPICH's fence: the landings and get requests of the epoch it
   closes, taken as they come while the count of them is being summed, and
   the replies to this rank's gets */
int dlp_landing_fence(dlp_landing *l, int assert)
{
  if (!l)
    return MPI_SUCCESS;
  int rc = MPI_SUCCESS, mine[2] = {0, 0}, got[2] = {0, 0}, summed = 1;
  /* every rank asserts MPI_MODE_NOPRECEDE or none does: then nobody put */
  if (!(assert & MPI_MODE_NOPRECEDE)) {
    rc = dlp_tally_start(l->tally, l->sent, mine);
    summed = rc != MPI_SUCCESS;
  }
  static const int tags[3] = {TAG_PUT, TAG_REQ, TAG_REPLY};
  int err = MPI_SUCCESS, parity = (int)(l->epoch & 1);
  while (rc == MPI_SUCCESS &&
         (!summed || got[0] < mine[0] || got[1] < mine[1] || l->left > 0)) {
    /* the counts first: an epoch that landed nothing here then ends
       without a probe (each one a pass of the host's progress) */
    if (!summed && (rc = dlp_tally_test(l->tally, mine, &summed)) != MPI_SUCCESS)
      break;
    for (int k = 0; k < 3 && rc == MPI_SUCCESS; k++) {
      MPI_Message m;
      MPI_Status st;
      int here = 0;
      if ((k < 2 && summed && got[k] == mine[k]) || (k == 2 && l->left == 0))
        continue;
      rc = PMPI_Improbe(MPI_ANY_SOURCE, tags[k] + parity, l->comm, &here, &m, &st);
      if (rc == MPI_SUCCESS && here) {
        int e = take(l, tags[k], &m, &st);
        err = err ? err : e;
        if (k < 2)
          got[k]++;
      }
    }
    if (err && l->left > 0 && summed && got[0] == mine[0] && got[1] == mine[1])
      break;         /* a reply that failed leaves bytes that never come */
  }
  if (!(assert & MPI_MODE_NOPRECEDE))
    memset(l->sent, 0, 2 * sizeof(*l->sent) * (size_t)l->nranks);
  wait_sends(l);
  drop_gets(l, 0);
  l->epoch++;
  __atomic_store_n(&l->open, !(assert & MPI_MODE_NOSUCCEED), __ATOMIC_RELAXED);
  return rc ? rc : err;
}
