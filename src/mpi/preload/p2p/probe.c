/* Probes and matched receives: MPI_Probe, MPI_Iprobe, MPI_Mprobe,
 * MPI_Improbe, MPI_Mrecv, MPI_Imrecv (and the _c forms of the last two).
 *
 * Pipeline mode: a message of a chunk or more may travel as a stream of
 * several MPI messages, and its first message says only that it is one
 * (exactly a chunk). A probe that finds one receives the whole stream at
 * once and keeps it, *parked*, with its envelope: the status it returns
 * then has the whole message's size. A matched probe hands the user a
 * message handle of the interposer's own (MPICH never makes handles of
 * that form); MPI_Mrecv and MPI_Imrecv deliver from it. A plain probe
 * leaves the parked message to the next probe or receive whose envelope
 * matches it, which takes it before anything MPICH holds.
 *
 * Both modes: a matched receive into a derived type receives bytes and
 * unpacks them, as every interposed receive does. */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "p2p.h"

typedef struct parked {
  MPI_Comm comm;
  int source, tag;
  char *data;
  size_t n;
  MPI_Message handle;       /* matched by a probe: the user's handle */
  MPI_Fint fhandle;         /* its Fortran handle, once it had one (0: none) */
  struct parked *next;
} parked;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static parked *head, **tail = &head;
static atomic_int nparked;
#ifdef MPICH_VERSION
static unsigned next_handle;

/* the interposer's message handles: HANDLE_KIND_INVALID with object kind
   0 in MPICH's encoding, which no MPICH message handle has */
#define OWN_HANDLE 0x01000000
#define OWN_MASK 0xff000000u

static bool own_handle(MPI_Message m)
{
  return ((unsigned)m & OWN_MASK) == OWN_HANDLE;
}

static MPI_Message new_handle(parked *p)
{
  (void)p;
  return (MPI_Message)(OWN_HANDLE | (next_handle++ & 0xffffff));
}
#else
/* a host whose handles are pointers (Open MPI): the interposer's are its
   parked entries' addresses, which no message object of the host's has;
   take_handle finds them */
static bool own_handle(MPI_Message m)
{
  return m != MPI_MESSAGE_NULL && m != MPI_MESSAGE_NO_PROC && atomic_load(&nparked) > 0;
}

static MPI_Message new_handle(parked *p)
{
  return (MPI_Message)(void *)p;
}
#endif

static bool matches(const parked *p, int source, int tag, MPI_Comm comm)
{
  int cmp;
  return p->handle == MPI_MESSAGE_NULL &&
         (source == MPI_ANY_SOURCE || source == p->source) &&
         (tag == MPI_ANY_TAG || tag == p->tag) &&
         (p->comm == comm ||
          (PMPI_Comm_compare(p->comm, comm, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT));
}

/* the oldest unmatched parked message the envelope matches; taken out of
   the list when take, else left (and returned) */
static parked *find(int source, int tag, MPI_Comm comm, bool take)
{
  if (atomic_load(&nparked) == 0)
    return NULL;
  pthread_mutex_lock(&lock);
  parked **pp = &head, *p = NULL;
  for (; *pp; pp = &(*pp)->next)
    if (matches(*pp, source, tag, comm))
      break;
  if ((p = *pp) && take) {
    *pp = p->next;
    if (!*pp)
      tail = pp;
    atomic_fetch_sub(&nparked, 1);
  }
  pthread_mutex_unlock(&lock);
  return p;
}

/* the parked message with the user's handle m, taken out of the list */
static parked *take_handle(MPI_Message m)
{
  pthread_mutex_lock(&lock);
  parked **pp = &head, *p;
  while (*pp && (*pp)->handle != m)
    pp = &(*pp)->next;
  if ((p = *pp)) {
    *pp = p->next;
    if (!*pp)
      tail = pp;
    atomic_fetch_sub(&nparked, 1);
  }
  pthread_mutex_unlock(&lock);
  return p;
}

static void park(parked *p, bool matched)
{
  pthread_mutex_lock(&lock);
  if (matched)
    p->handle = new_handle(p);
  p->next = NULL;
  *tail = p;
  tail = &p->next;
  atomic_fetch_add(&nparked, 1);
  pthread_mutex_unlock(&lock);
}

/* Fortran handles of the interposer's message handles where the host's
   are pointers (Open MPI, whose MPI_Message_c2f reads its own objects):
   OWN_F with a counter, which the host's table of Fortran handles (small
   indices) never reaches; elsewhere the host's conversions. */
#define OWN_F 0x40000000
#define OWN_F_MASK 0x3fffffff

MPI_Fint dlp_message_c2f(MPI_Message m)
{
#ifndef MPICH_VERSION
  static unsigned next_f;
  if (own_handle(m)) {
    pthread_mutex_lock(&lock);
    parked *p = head;
    while (p && p->handle != m)
      p = p->next;
    MPI_Fint f = 0;
    if (p) {
      if (!p->fhandle)
        p->fhandle = (MPI_Fint)(OWN_F | (++next_f & OWN_F_MASK));
      f = p->fhandle;
    }
    pthread_mutex_unlock(&lock);
    if (f)
      return f;
  }
#endif
  return PMPI_Message_c2f(m);
}

MPI_Message dlp_message_f2c(MPI_Fint f)
{
#ifndef MPICH_VERSION
  if ((f & ~OWN_F_MASK) == OWN_F) {
    pthread_mutex_lock(&lock);
    parked *p = head;
    while (p && p->fhandle != f)
      p = p->next;
    MPI_Message m = p ? p->handle : MPI_MESSAGE_NULL;
    pthread_mutex_unlock(&lock);
    return m;
  }
#endif
  return PMPI_Message_f2c(f);
}

static void parked_free(parked *p)
{
  free(p->data);
  free(p);
}

/* a status describing a parked message (MPI_ERROR left as it is) */
static void describe(const parked *p, MPI_Status *st, size_t bytes)
{
  if (st == MPI_STATUS_IGNORE)
    return;
  PMPI_Status_set_elements_x(st, MPI_BYTE, (MPI_Count)bytes);
  PMPI_Status_set_cancelled(st, 0);
  st->MPI_SOURCE = p->source;
  st->MPI_TAG = p->tag;
}

/* a message whose first MPI message is exactly a chunk is a stream (or a
   whole message of a chunk, followed by an empty one) */
static bool stream_start(const MPI_Status *st)
{
  return dlp_cfg()->pipeline && dlp_status_bytes(st) == dlp_chunk();
}

/* receives the stream whose first chunk MPICH matched as *m: that chunk,
   then the next ones from its sender and tag until a short one */
static int assemble(MPI_Message *m, const MPI_Status *first, MPI_Comm comm,
                    parked **out)
{
  size_t c = dlp_chunk(), n = 0, cap = 2 * c;
  parked *p = calloc(1, sizeof(*p));
  char *data = malloc(cap);
  if (!p || !data) {
    free(p);
    free(data);
    return MPI_ERR_NO_MEM;
  }
  MPI_Status st;
  int rc = PMPI_Mrecv(data, (int)c, MPI_BYTE, m, &st);
  size_t got = rc == MPI_SUCCESS ? dlp_status_bytes(&st) : 0;
  for (n = got; rc == MPI_SUCCESS && got == c; n += got) {
    if (n + c > cap) {
      char *more = realloc(data, cap *= 2);
      if (!more) {
        rc = MPI_ERR_NO_MEM;
        break;
      }
      data = more;
    }
    MPI_Request r;
    rc = PMPI_Irecv(data + n, (int)c, MPI_BYTE, first->MPI_SOURCE, first->MPI_TAG,
                    comm, &r);
    if (rc == MPI_SUCCESS)
      rc = dlp_wait(&r, &st);   /* other streams progress meanwhile */
    got = rc == MPI_SUCCESS ? dlp_status_bytes(&st) : 0;
  }
  if (rc != MPI_SUCCESS) {
    free(data);
    free(p);
    return rc;
  }
  *p = (parked){comm, first->MPI_SOURCE, first->MPI_TAG, data, n, MPI_MESSAGE_NULL, 0, NULL};
  *out = p;
  return MPI_SUCCESS;
}

/* ---- delivery ---- */

/* unpacks a parked message into (buf, count, dt) and frees it; the
   status and code of a receive of its bytes */
static int deliver(parked *p, void *buf, MPI_Count count, MPI_Datatype dt,
                   MPI_Status *st, MPI_Comm *raise_on)
{
  dlp_data d;
  int rc = dlp_data_get(buf, count, dt, &d);
  *raise_on = p->comm;
  if (rc) {
    parked_free(p);
    return rc == DLP_PASS ? MPI_ERR_TYPE : rc;
  }
  size_t n = p->n < d.bytes ? p->n : d.bytes;
  dlp_stage_in(&d, p->data, n);
  dlp_count(DLP_N_RECV);
  describe(p, st, n);
  rc = p->n > d.bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  parked_free(p);
  return rc;
}

/* a request already complete, for a nonblocking receive of a parked
   message: its status and code come from here */
typedef struct done {
  MPI_Status st;
  int err;
} done;

static int done_query(void *extra, MPI_Status *st)
{
  const done *x = extra;
  int err = st->MPI_ERROR;
  *st = x->st;
  st->MPI_ERROR = err;
  return x->err;
}

static int done_free(void *extra)
{
  free(extra);
  return MPI_SUCCESS;
}

static int done_cancel(void *extra, int complete)
{
  (void)extra; (void)complete;
  return MPI_SUCCESS;
}

static int deliver_request(parked *p, void *buf, MPI_Count count, MPI_Datatype dt,
                           MPI_Request *req)
{
  done *x = calloc(1, sizeof(*x));
  if (!x) {
    MPI_Comm comm = p->comm;
    parked_free(p);
    return dlp_raise(comm, MPI_ERR_NO_MEM);
  }
  MPI_Comm on;
  x->err = deliver(p, buf, count, dt, &x->st, &on);
  int rc = PMPI_Grequest_start(done_query, done_free, done_cancel, x, req);
  if (rc != MPI_SUCCESS) {
    free(x);
    return rc;
  }
  return PMPI_Grequest_complete(*req);
}

bool dlp_parked_recv(void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag,
                     MPI_Comm comm, MPI_Status *status, int *rc)
{
  parked *p = find(source, tag, comm, true);
  if (!p)
    return false;
  MPI_Comm on;
  *rc = deliver(p, buf, count, dt, status, &on);
  if (*rc)
    *rc = dlp_raise(on, *rc);
  return true;
}

bool dlp_parked_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                      int tag, MPI_Comm comm, MPI_Request *req, int *rc)
{
  parked *p = find(source, tag, comm, true);
  if (!p)
    return false;
  *rc = deliver_request(p, buf, count, dt, req);
  return true;
}

/* ---- probes ---- */

/* MPICH's probe (a matched one when msg is given), with the streams moving
   while it looks: a rank polling for a reply while its own stream is in
   flight must let that stream go on; a blocking probe polls while any
   stream is in progress */
static int probe_moving(int source, int tag, MPI_Comm comm, int *flag,
                        MPI_Message *msg, MPI_Status *st, bool block)
{
  for (;;) {
    const dlp_stream_module *m = dlp_streams_busy();
    if (m)
      m->progress();
    if (block && !m)
      return msg ? PMPI_Mprobe(source, tag, comm, msg, st)
                 : PMPI_Probe(source, tag, comm, st);
    int rc = msg ? PMPI_Improbe(source, tag, comm, flag, msg, st)
                 : PMPI_Iprobe(source, tag, comm, flag, st);
    if (rc != MPI_SUCCESS || *flag || !block)
      return rc;
  }
}

static int probe_common(int source, int tag, MPI_Comm comm, int *flag,
                        MPI_Status *status, bool block)
{
  if (!dlp_cfg()->pipeline)
    return block ? PMPI_Probe(source, tag, comm, status)
                 : PMPI_Iprobe(source, tag, comm, flag, status);
  parked *p = find(source, tag, comm, false);
  if (p) {
    describe(p, status, p->n);
    if (flag)
      *flag = 1;
    return MPI_SUCCESS;
  }
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  int one = 1;
  int rc = probe_moving(source, tag, comm, &one, NULL, st, block);
  if (flag)
    *flag = one;
  if (rc != MPI_SUCCESS || !one || st->MPI_SOURCE == MPI_PROC_NULL || !stream_start(st))
    return rc;
  /* the same message, matched: the first from its sender with its tag */
  MPI_Message m;
  MPI_Status first;
  rc = PMPI_Mprobe(st->MPI_SOURCE, st->MPI_TAG, comm, &m, &first);
  if (rc == MPI_SUCCESS)
    rc = assemble(&m, &first, comm, &p);
  if (rc != MPI_SUCCESS)
    return dlp_raise(comm, rc);
  describe(p, status, p->n);
  park(p, false);
  return MPI_SUCCESS;
}

static int mprobe_common(int source, int tag, MPI_Comm comm, int *flag,
                         MPI_Message *message, MPI_Status *status, bool block)
{
  if (!dlp_cfg()->pipeline || !message)
    return block ? PMPI_Mprobe(source, tag, comm, message, status)
                 : PMPI_Improbe(source, tag, comm, flag, message, status);
  parked *p = find(source, tag, comm, true);
  if (!p) {
    MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
    int one = 1;
    int rc = probe_moving(source, tag, comm, &one, message, st, block);
    if (flag)
      *flag = one;
    if (rc != MPI_SUCCESS || !one || *message == MPI_MESSAGE_NO_PROC ||
        !stream_start(st))
      return rc;
    MPI_Status first = *st;
    if ((rc = assemble(message, &first, comm, &p)) != MPI_SUCCESS)
      return dlp_raise(comm, rc);
  }
  if (flag)
    *flag = 1;
  describe(p, status, p->n);
  park(p, true);
  *message = p->handle;
  return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  return probe_common(source, tag, comm, NULL, status, true);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  return probe_common(source, tag, comm, flag, status, false);
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status)
{
  return mprobe_common(source, tag, comm, NULL, message, status, true);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status)
{
  return mprobe_common(source, tag, comm, flag, message, status, false);
}

/* ---- matched receives ---- */

static int mrecv_as(void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *m,
                    MPI_Status *st)
{
  return count <= INT_MAX ? PMPI_Mrecv(buf, (int)count, dt, m, st)
                          : PMPI_Mrecv_c(buf, count, dt, m, st);
}

static int imrecv_as(void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *m,
                     MPI_Request *req)
{
  return count <= INT_MAX ? PMPI_Imrecv(buf, (int)count, dt, m, req)
                          : PMPI_Imrecv_c(buf, count, dt, m, req);
}

/* the user's data, when a matched receive must stage it (a derived type
   of a real message); false: MPICH receives it as it is */
static bool staged(void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message m,
                   dlp_data *d)
{
  return m != MPI_MESSAGE_NO_PROC && m != MPI_MESSAGE_NULL &&
         dlp_data_get(buf, count, dt, d) == MPI_SUCCESS && !dlp_straight(d);
}

static int mrecv_common(void *buf, MPI_Count count, MPI_Datatype dt,
                        MPI_Message *message, MPI_Status *status)
{
  parked *p = message && own_handle(*message) ? take_handle(*message) : NULL;
  if (p) {
    *message = MPI_MESSAGE_NULL;
    MPI_Comm on;
    int rc = deliver(p, buf, count, dt, status, &on);
    return rc ? dlp_raise(on, rc) : rc;
  }
  dlp_data d;
  if (!message || !staged(buf, count, dt, *message, &d))
    return mrecv_as(buf, count, dt, message, status);
  void *stage = dlp_room_get(d.bytes);
  if (!stage)
    return dlp_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
  dlp_room room;
  if (!dlp_room_post(stage, d.bytes, &room)) {
    dlp_stage_put(stage);
    return mrecv_as(buf, count, dt, message, status);
  }
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = mrecv_as(room.buf, room.count, room.dt, message, st);
  dlp_room_posted(&room);
  size_t got = rc == MPI_SUCCESS ? dlp_status_bytes(st) : 0;
  if (room.gap)
    dlp_room_close(stage, d.bytes, got);
  if (rc == MPI_SUCCESS && got <= d.bytes)  /* truncated: nothing (routes.c) */
    dlp_stage_in(&d, stage, got);
  dlp_count(DLP_N_RECV);
  dlp_stage_put(stage);
  return rc;
}

static int imrecv_common(void *buf, MPI_Count count, MPI_Datatype dt,
                         MPI_Message *message, MPI_Request *req)
{
  parked *p = message && req && own_handle(*message) ? take_handle(*message) : NULL;
  if (p) {
    *message = MPI_MESSAGE_NULL;
    return deliver_request(p, buf, count, dt, req);
  }
  dlp_data d;
  if (!message || !req || !staged(buf, count, dt, *message, &d))
    return imrecv_as(buf, count, dt, message, req);
  dlp_req *e = dlp_req_new();
  void *stage = e ? dlp_room_get(d.bytes) : NULL;
  if (!stage) {
    free(e);
    return dlp_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
  }
  dlp_room room;
  if (!dlp_room_post(stage, d.bytes, &room)) {
    dlp_stage_put(stage);
    free(e);
    return imrecv_as(buf, count, dt, message, req);
  }
  MPI_Request inner;
  int rc = imrecv_as(room.buf, room.count, room.dt, message, &inner);
  dlp_room_posted(&room);
  if (rc != MPI_SUCCESS) {
    dlp_stage_put(stage);
    free(e);
    return rc;
  }
  dlp_count(DLP_N_RECV);
  /* completed as a packed receive is (routes.c) */
  e->op = (dlp_op){.route = DLP_R_PACK, .recv = true, .d = d, .stage = stage,
                   .gap = room.gap, .blocks = MPI_DATATYPE_NULL, .req = inner,
                   .comm = MPI_COMM_WORLD};
  rc = dlp_req_track(e, req);
  return rc ? dlp_raise(MPI_COMM_WORLD, rc) : rc;
}

#define MATCHED(NAME, T, LAST, COMMON)                                         \
  int NAME(void *buf, T count, MPI_Datatype datatype, MPI_Message *message,    \
           LAST last)                                                          \
  {                                                                            \
    return COMMON(buf, count, datatype, message, last);                        \
  }
MATCHED(MPI_Mrecv, int, MPI_Status *, mrecv_common)
MATCHED(MPI_Imrecv, int, MPI_Request *, imrecv_common)
#if MPI_VERSION >= 4   /* MPI-4's large-count forms */
MATCHED(MPI_Mrecv_c, MPI_Count, MPI_Status *, mrecv_common)
MATCHED(MPI_Imrecv_c, MPI_Count, MPI_Request *, imrecv_common)
#endif
