/* The completion calls. Each claims the interposed requests among those it
 * is given and puts their operations' own requests in their places
 * (requests.c), lets MPICH complete whatever it completes, and then
 * finishes the interposer's work for exactly the interposed requests MPICH
 * completed (their places are now MPI_REQUEST_NULL), giving the program
 * back the handles of the others, whatever mix of interposed and plain
 * requests the user passed. The interposer needs the statuses of receives
 * (how many bytes arrived, whether they were cancelled), so when the user
 * ignores them it passes its own.
 *
 * While a pipelined stream is in progress, the request waited for may
 * depend on it, and a stream moves only inside intercepted calls: the
 * waits (and the blocking point-to-point calls) then block in MPICH on
 * their requests together with those the streams wait on next, moving the
 * streams on as those complete (dlp_block_any); MPI_Waitall and
 * MPI_Waitsome complete their requests that way one at a time while a
 * stream is in progress, and keep their statuses and errors as MPICH's
 * own calls report them.
 * Without streams a program with no interposed request pending pays two
 * atomic loads per call.
 *
 * MPI_Request_get_status finishes a packed receive MPICH completed, so
 * that its answer is true of the program's buffer.
 *
 * Errors: MPICH's own codes and statuses pass through. An error of the
 * interposer's own (a stream's truncation) is raised as MPICH raises
 * completion errors (DLP_DEV_COMPLETION_RAISES_ON_WORLD, kept on every
 * host): through MPI_COMM_WORLD's handler, and in the calls
 * with status arrays as MPI_ERR_IN_STATUS with each status's MPI_ERROR set. */
#include <stdlib.h>
#include <string.h>
#include "request.h"

#define SMALL 16          /* requests handled without allocation */

static _Atomic(const dlp_persistent *) joined;

void dlp_join_persistent(const dlp_persistent *p)
{
  atomic_store_explicit(&joined, p, memory_order_release);
}

static const dlp_persistent *persistent(void)
{
  return atomic_load_explicit(&joined, memory_order_acquire);
}

typedef struct batch {
  int n;
  MPI_Request *reqs;      /* the program's, the claimed ones replaced by
                             their operations' own requests */
  dlp_req **e;            /* claimed entry of request i, or NULL */
  MPI_Status *st;         /* the user's statuses or ours */
  dlp_req *e_small[SMALL];
  MPI_Status st_small[SMALL];
} batch;

static bool quiet(void)
{
  return !dlp_req_any() && !dlp_streams_busy();
}

/* progresses streams, if any */
static void progress(void)
{
  const dlp_stream_module *m = dlp_streams_busy();
  if (m)
    m->progress();
}

/* MPI_Waitall while streams are in progress: the requests completed one
   at a time by dlp_block_any, their statuses (errors in MPI_ERROR) kept,
   the rest by MPICH's Waitall once no stream is; MPI_ERR_IN_STATUS if
   any failed, as MPICH reports it */
static int waitall_blocked(int n, MPI_Request reqs[], MPI_Status st[])
{
  MPI_Status small[SMALL], *kept = n <= SMALL ? small : malloc(sizeof(MPI_Status) * (size_t)n);
  if (!kept)
    return dlp_next()->waitall(n, reqs, st);
  bool failed = false;
  for (int i = 0; i < n; i++)
    kept[i].MPI_ERROR = MPI_ERR_PENDING;       /* not completed here */
  while (dlp_streams_busy()) {
    int idx;
    MPI_Status s;
    int rc = dlp_block_any(n, reqs, &idx, &s);
    if (idx == MPI_UNDEFINED || idx < 0)
      break;
    s.MPI_ERROR = rc;
    kept[idx] = s;
    failed = failed || rc != MPI_SUCCESS;
  }
  int rc = dlp_next()->waitall(n, reqs, st);
  for (int i = 0; i < n; i++) {
    if (kept[i].MPI_ERROR != MPI_ERR_PENDING)
      st[i] = kept[i];
    else if (failed && rc != MPI_ERR_IN_STATUS)
      st[i].MPI_ERROR = rc;
  }
  if (kept != small)
    free(kept);
  return failed ? MPI_ERR_IN_STATUS : rc;
}

/* MPI_Waitsome while streams are in progress: the first completion by
   dlp_block_any, then whatever else MPICH has completed */
static int waitsome_blocked(int n, MPI_Request reqs[], int *outcount, int indices[],
                            MPI_Status st[])
{
  int idx;
  int rc = dlp_block_any(n, reqs, &idx, &st[0]);
  if (idx == MPI_UNDEFINED || idx < 0) {
    *outcount = MPI_UNDEFINED;
    return rc;
  }
  indices[0] = idx;
  *outcount = 1;
  if (rc != MPI_SUCCESS) {
    st[0].MPI_ERROR = rc;
    return MPI_ERR_IN_STATUS;
  }
  int more = 0;
  rc = dlp_next()->testsome(n, reqs, &more, indices + 1, st + 1);
  if (more != MPI_UNDEFINED)
    *outcount += more;
  if (rc == MPI_ERR_IN_STATUS)
    st[0].MPI_ERROR = MPI_SUCCESS;
  return rc;
}

/* entries of n requests and room for nst statuses; false when out of
   memory */
static bool batch_init(batch *b, int n, MPI_Request reqs[], MPI_Status *user,
                       int nst)
{
  dlp_orphans_poll();
  b->n = n;
  b->reqs = reqs;
  b->e = n <= SMALL ? b->e_small : malloc(sizeof(dlp_req *) * (size_t)n);
  b->st = user;
  if (user == MPI_STATUSES_IGNORE || user == MPI_STATUS_IGNORE)
    b->st = nst <= SMALL ? b->st_small : malloc(sizeof(MPI_Status) * (size_t)nst);
  if (!b->e || !b->st) {
    if (b->e != b->e_small)
      free(b->e);
    if (b->st != user && b->st != b->st_small)
      free(b->st);
    return false;
  }
  for (int i = 0; i < n; i++)
    if ((b->e[i] = dlp_req_claim(reqs[i])))
      reqs[i] = b->e[i]->op.req;
  return true;
}

/* gives the program back the handles of requests still pending (a
   request MPICH freed without the call reporting it, which should not
   happen, is finished as failed); frees the batch */
static void batch_free(batch *b, MPI_Status *user)
{
  for (int i = 0; i < b->n; i++) {
    if (!b->e[i])
      continue;
    if (b->reqs[i] != MPI_REQUEST_NULL) {
      b->reqs[i] = b->e[i]->handle;
      dlp_req_unclaim(b->e[i]);
    } else {
      MPI_Status st;
      MPI_Comm on;
      PMPI_Status_set_elements(&st, MPI_BYTE, 0);
      dlp_req_finish(b->e[i], &st, MPI_ERR_OTHER, &on);
    }
  }
  if (b->e != b->e_small)
    free(b->e);
  if (b->st != user && b->st != b->st_small)
    free(b->st);
}

/* finishes request i if it is interposed and MPICH completed it; returns
   the error to report for it, and in *on the communicator of the
   interposer's own error, still to be raised (else MPI_COMM_NULL) */
static int finish_at(batch *b, MPI_Request reqs[], int i, MPI_Status *st,
                     int err, MPI_Comm *on)
{
  *on = MPI_COMM_NULL;
  if (!b->e[i] || reqs[i] != MPI_REQUEST_NULL)
    return err;
  dlp_req *e = b->e[i];
  b->e[i] = NULL;
  return dlp_req_finish(e, st, err, on);
}

/* after a call with a status array that completed m requests (request
   idx[k], or k, with status st[k]) and returned rc */
static int finish_many(batch *b, MPI_Request reqs[], const int *idx, int m,
                       int rc)
{
  bool in_status = rc == MPI_ERR_IN_STATUS, any_own = false, any_fresh = false;
  for (int k = 0; k < m; k++) {
    MPI_Comm on;
    int mpich = in_status ? b->st[k].MPI_ERROR : rc;
    int err = finish_at(b, reqs, idx ? idx[k] : k, &b->st[k], mpich, &on);
    if (err != mpich) {   /* a stream's own, or its MPICH operation's */
      if (!any_own && !in_status)     /* MPICH said success for all */
        for (int j = 0; j < m; j++)
          b->st[j].MPI_ERROR = MPI_SUCCESS;
      b->st[k].MPI_ERROR = err;
      any_own = true;
      any_fresh = any_fresh || on != MPI_COMM_NULL;
    }
  }
  if (!any_own || in_status)
    return rc;
  /* an error MPICH raised in the stream's own operation is not raised
     twice */
  return any_fresh ? dlp_raise(MPI_COMM_WORLD, MPI_ERR_IN_STATUS) : MPI_ERR_IN_STATUS;
}

/* one request: its error, the interposer's own raised on raise_to (or,
   MPI_COMM_NULL, on the operation's communicator) */
static int finish_one(batch *b, MPI_Request reqs[], int i, MPI_Status *st,
                      int rc, MPI_Comm raise_to)
{
  MPI_Comm on;
  int err = finish_at(b, reqs, i, st, rc, &on);
  if (on == MPI_COMM_NULL)
    return err;
  return dlp_raise(raise_to == MPI_COMM_NULL ? on : raise_to, err);
}

static int no_memory(void)
{
  return dlp_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
}

/* ---- single requests ---- */

static int wait_one(MPI_Request *req, MPI_Status *status, MPI_Comm raise_to)
{
  if (quiet() || !req)
    return dlp_next()->wait(req, status);
  batch b;
  if (!batch_init(&b, 1, req, status, 1))
    return no_memory();
  int idx;
  int rc = dlp_block_any(1, req, &idx, b.st);
  rc = finish_one(&b, req, 0, b.st, rc, raise_to);
  batch_free(&b, status);
  return rc;
}

int dlp_wait(MPI_Request *req, MPI_Status *status)
{
  /* for the blocking point-to-point calls: errors on their communicator,
     which the stream knows */
  return wait_one(req, status, MPI_COMM_NULL);
}

static int call_wait(MPI_Request *request, MPI_Status *status)
{
  return wait_one(request, status, MPI_COMM_WORLD);
}

static int call_test(MPI_Request *request, int *flag, MPI_Status *status)
{
  if (quiet() || !request || !flag)
    return dlp_next()->test(request, flag, status);
  batch b;
  if (!batch_init(&b, 1, request, status, 1))
    return no_memory();
  progress();
  int rc = dlp_next()->test(request, flag, b.st);
  if (*flag)
    rc = finish_one(&b, request, 0, b.st, rc, MPI_COMM_WORLD);
  batch_free(&b, status);
  return rc;
}

/* ---- arrays ---- */

static int call_waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
  if (quiet() || count <= 0 || !reqs)
    return dlp_next()->waitall(count, reqs, statuses);
  batch b;
  if (!batch_init(&b, count, reqs, statuses, count))
    return no_memory();
  int rc = dlp_streams_busy() ? waitall_blocked(count, reqs, b.st)
                               : dlp_next()->waitall(count, reqs, b.st);
  rc = finish_many(&b, reqs, NULL, count, rc);
  batch_free(&b, statuses);
  return rc;
}

static int call_testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
  if (quiet() || count <= 0 || !reqs || !flag)
    return dlp_next()->testall(count, reqs, flag, statuses);
  batch b;
  if (!batch_init(&b, count, reqs, statuses, count))
    return no_memory();
  progress();
  int rc = dlp_next()->testall(count, reqs, flag, b.st);
  if (*flag || rc == MPI_ERR_IN_STATUS)
    rc = finish_many(&b, reqs, NULL, count, rc);
  batch_free(&b, statuses);
  return rc;
}

static int call_waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
  if (quiet() || count <= 0 || !reqs || !index)
    return dlp_next()->waitany(count, reqs, index, status);
  batch b;
  if (!batch_init(&b, count, reqs, status, 1))
    return no_memory();
  int rc = dlp_block_any(count, reqs, index, b.st);
  if (*index != MPI_UNDEFINED && *index >= 0 && *index < count)
    rc = finish_one(&b, reqs, *index, b.st, rc, MPI_COMM_WORLD);
  batch_free(&b, status);
  return rc;
}

static int call_testany(int count, MPI_Request reqs[], int *index, int *flag,
                        MPI_Status *status)
{
  if (quiet() || count <= 0 || !reqs || !index || !flag)
    return dlp_next()->testany(count, reqs, index, flag, status);
  batch b;
  if (!batch_init(&b, count, reqs, status, 1))
    return no_memory();
  progress();
  int rc = dlp_next()->testany(count, reqs, index, flag, b.st);
  if (*flag && *index != MPI_UNDEFINED && *index >= 0 && *index < count)
    rc = finish_one(&b, reqs, *index, b.st, rc, MPI_COMM_WORLD);
  batch_free(&b, status);
  return rc;
}

static int call_waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
  if (quiet() || incount <= 0 || !reqs || !outcount || !indices)
    return dlp_next()->waitsome(incount, reqs, outcount, indices, statuses);
  batch b;
  if (!batch_init(&b, incount, reqs, statuses, incount))
    return no_memory();
  int rc = dlp_streams_busy()
             ? waitsome_blocked(incount, reqs, outcount, indices, b.st)
             : dlp_next()->waitsome(incount, reqs, outcount, indices, b.st);
  if (*outcount != MPI_UNDEFINED && *outcount > 0)
    rc = finish_many(&b, reqs, indices, *outcount, rc);
  batch_free(&b, statuses);
  return rc;
}

static int call_testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                         MPI_Status statuses[])
{
  if (quiet() || incount <= 0 || !reqs || !outcount || !indices)
    return dlp_next()->testsome(incount, reqs, outcount, indices, statuses);
  batch b;
  if (!batch_init(&b, incount, reqs, statuses, incount))
    return no_memory();
  progress();
  int rc = dlp_next()->testsome(incount, reqs, outcount, indices, b.st);
  if (*outcount != MPI_UNDEFINED && *outcount > 0)
    rc = finish_many(&b, reqs, indices, *outcount, rc);
  batch_free(&b, statuses);
  return rc;
}

/* ---- querying ---- */

/* MPI_Request_get_status says complete only once the data is where the
   program looks for it: an operation MPICH completed is finished now (a
   packed receive unpacked), and streams move first. The program's handle
   stays, complete, as MPICH's call leaves it. */
static int call_request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
  if (quiet() || !flag)
    return dlp_next()->request_get_status(request, flag, status);
  progress();
  dlp_req *e = dlp_req_claim(request);
  if (!e)
    return dlp_next()->request_get_status(request, flag, status);
  MPI_Status local, *st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = dlp_next()->request_get_status(e->op.req, flag, st);
  if (rc != MPI_SUCCESS || !*flag) {
    dlp_req_unclaim(e);
    return rc;
  }
  MPI_Status done;
  int err = dlp_next()->wait(&e->op.req, &done);    /* complete: frees it at once */
  dlp_req_settle_early(e, &done, err);
  return rc;
}

/* ---- freeing and cancelling ---- */

/* an interposed operation still in progress when its handle is freed
   becomes an orphan (requests.c), whichever name frees it */
static int call_request_free(MPI_Request *request)
{
  dlp_orphans_poll();
  if (request)
    dlp_req_let_go(*request);
  const dlp_persistent *p = persistent();
  return p ? p->free(request) : dlp_next()->request_free(request);
}

int dlp_cancel(MPI_Request *request)
{
  dlp_req *e = request ? dlp_req_find(*request) : NULL;
  if (e && !atomic_load(&e->done)) {
    dlp_op_cancel(&e->op);   /* a stream not yet matched stops */
    return MPI_SUCCESS;
  }
  return dlp_next()->cancel(request);
}

static int call_cancel(MPI_Request *request)
{
  return dlp_cancel(request);
}

/* ---- the entry points, under both names ---- */

/* the handles of relayed persistent receives (persist.c) out of, and back
   into, the places of the requests their starts made */
typedef struct swap {
  int n;                      /* 0: none swapped */
  MPI_Request *saved;
  MPI_Request small[SMALL];
} swap;

/* false when out of memory */
static bool swap_in(swap *w, int n, MPI_Request reqs[])
{
  w->n = 0;
  const dlp_persistent *p = persistent();
  if (n <= 0 || !reqs || !p || !p->any())
    return true;
  w->saved = n <= SMALL ? w->small : malloc(sizeof(MPI_Request) * (size_t)n);
  if (!w->saved)
    return false;
  if (p->in(n, reqs, w->saved) > 0)
    w->n = n;
  else if (w->saved != w->small)
    free(w->saved);
  return true;
}

static void swap_out(swap *w, MPI_Request reqs[])
{
  if (w->n == 0)
    return;
  persistent()->out(w->n, reqs, w->saved);
  if (w->saved != w->small)
    free(w->saved);
}

/* a program, a tool and MPICH's Fortran bindings reach the same code by
   either name; the interposer reaches MPICH's through dlp_next() */
#define BOTH(NAME, CALL, PARAMS, ARGS, N, REQS)                                        \
  static int swapped_##CALL PARAMS                                                     \
  {                                                                                    \
    swap w;                                                                            \
    if (!swap_in(&w, N, REQS))                                                         \
      return no_memory();                                                              \
    int rc = CALL ARGS;                                                                \
    swap_out(&w, REQS);                                                                \
    return rc;                                                                         \
  }                                                                                    \
  int MPI_##NAME PARAMS { return swapped_##CALL ARGS; }                                \
  int PMPI_##NAME PARAMS { return swapped_##CALL ARGS; }

BOTH(Wait, call_wait, (MPI_Request *request, MPI_Status *status),
     (request, status), 1, request)
BOTH(Test, call_test, (MPI_Request *request, int *flag, MPI_Status *status),
     (request, flag, status), 1, request)
BOTH(Waitall, call_waitall, (int count, MPI_Request reqs[], MPI_Status statuses[]),
     (count, reqs, statuses), count, reqs)
BOTH(Testall, call_testall,
     (int count, MPI_Request reqs[], int *flag, MPI_Status statuses[]),
     (count, reqs, flag, statuses), count, reqs)
BOTH(Waitany, call_waitany,
     (int count, MPI_Request reqs[], int *index, MPI_Status *status),
     (count, reqs, index, status), count, reqs)
BOTH(Testany, call_testany,
     (int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status),
     (count, reqs, index, flag, status), count, reqs)
BOTH(Waitsome, call_waitsome,
     (int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]),
     (incount, reqs, outcount, indices, statuses), incount, reqs)
BOTH(Testsome, call_testsome,
     (int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]),
     (incount, reqs, outcount, indices, statuses), incount, reqs)
BOTH(Request_get_status, call_request_get_status,
     (MPI_Request request, int *flag, MPI_Status *status),
     (request, flag, status), 1, &request)
BOTH(Request_free, call_request_free, (MPI_Request *request),
     (request), 0, NULL)
BOTH(Cancel, call_cancel, (MPI_Request *request),
     (request), 1, request)
