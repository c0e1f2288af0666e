/* Persistent requests behave as MPI says, however they are started and
 * completed: MPI_Send_init, MPI_Ssend_init, MPI_Bsend_init, MPI_Rsend_init
 * and MPI_Recv_init of derived types, each started again and again with
 * new data in the buffer between starts, through MPI_Start, PMPI_Start
 * (as MPICH's Fortran 2008 bindings do), MPI_Startall and PMPI_Startall
 * over arrays that mix derived and predefined types, and completed by
 * MPI_Wait, PMPI_Wait, the Waitall forms, a loop of MPI_Test or of
 * MPI_Request_get_status; types freed while their requests live on; a
 * request freed while its send is in flight still delivers; a receive
 * cancelled before any message matched it leaves its buffer alone and
 * receives normally when started again; requests outliving their
 * communicator and type; a request's state as every completion call sees
 * it (inactive, active, complete); MPICH's errors for bad arguments.
 * Preloaded, every start of a derived type's request counts as one of the
 * interposer's sends or receives. */
#include <dlfcn.h>
#include <stdbool.h>
#include "sem.h"

#define ROUNDS 3
#define MAXN 70000
#define BL 1000
/* 16 ints are 64 bytes packed: exactly the semantics suite's pipeline
   chunk, a message that must be followed by the empty chunk */
static const int sizes[] = {5, 16, 3000, MAXN};
#define NSIZES 4
enum { START_WAIT, PSTART_PWAIT, STARTALL, PSTARTALL, TEST_LOOP, STATUS_LOOP, NWAYS };
static const char *const way_name[NWAYS] = {"MPI_Start/MPI_Wait", "PMPI_Start/PMPI_Wait",
                                            "MPI_Startall/MPI_Waitall",
                                            "PMPI_Startall/PMPI_Waitall",
                                            "MPI_Test loop", "MPI_Request_get_status loop"};
static const char *const mode_name[4] = {"MPI_Send_init", "MPI_Ssend_init",
                                         "MPI_Bsend_init", "MPI_Rsend_init"};

static long derived_sends, derived_recvs;   /* starts of derived types' requests */

static int code(int round, int i)
{
  return round * 1000000 + i;
}

/* the sender's layout of n ints: every other int (small blocks, packed),
   or blocks of BL ints with gaps (large blocks) where n allows */
static MPI_Datatype send_type(int n, bool blocky)
{
  MPI_Datatype t;
  if (blocky && n % BL == 0)
    MPI_Type_vector(n / BL, BL, BL + 7, MPI_INT, &t);
  else
    MPI_Type_vector(n, 1, 2, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

/* where int i of the sender's layout lies */
static int send_at(int n, bool blocky, int i)
{
  return blocky && n % BL == 0 ? i / BL * (BL + 7) + i % BL : 2 * i;
}

static MPI_Datatype recv_type(int n)
{
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 3, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

static int make_send(int mode, void *b, MPI_Datatype t, int dest, int tag, MPI_Request *r)
{
  switch (mode) {
  case 1: return MPI_Ssend_init(b, 1, t, dest, tag, MPI_COMM_WORLD, r);
  case 2: return MPI_Bsend_init(b, 1, t, dest, tag, MPI_COMM_WORLD, r);
  case 3: return MPI_Rsend_init(b, 1, t, dest, tag, MPI_COMM_WORLD, r);
  default: return MPI_Send_init(b, 1, t, dest, tag, MPI_COMM_WORLD, r);
  }
}

/* starts q[0] (and q[1] if k is 2) and completes them, the way w says */
static void start_complete(int w, int k, MPI_Request q[2], MPI_Status st[2])
{
  int flag = 0;
  switch (w) {
  case START_WAIT:
    for (int i = 0; i < k; i++)
      OK(MPI_Start(&q[i]));
    for (int i = 0; i < k; i++)
      OK(MPI_Wait(&q[i], &st[i]));
    break;
  case PSTART_PWAIT:
    for (int i = 0; i < k; i++)
      OK(PMPI_Start(&q[i]));
    for (int i = 0; i < k; i++)
      OK(PMPI_Wait(&q[i], &st[i]));
    break;
  case STARTALL:
    OK(MPI_Startall(k, q));
    OK(MPI_Waitall(k, q, st));
    break;
  case PSTARTALL:
    OK(PMPI_Startall(k, q));
    OK(PMPI_Waitall(k, q, st));
    break;
  case TEST_LOOP:
    OK(MPI_Startall(k, q));
    while (!flag)
      OK(MPI_Testall(k, q, &flag, st));
    break;
  default:
    OK(MPI_Startall(k, q));
    for (int i = 0; i < k; i++) {
      for (flag = 0; !flag;)
        OK(MPI_Request_get_status(q[i], &flag, &st[i]));
      OK(MPI_Wait(&q[i], &st[i]));
    }
    break;
  }
}

/* one persistent request pair, used ROUNDS times: rank 0 sends n ints in
   its layout by mode, with one int of MPI_INT beside it by a second
   persistent send when k is 2; rank 1 receives them in its own layout */
static void pair(int mode, int n, bool blocky, int w, bool free_types, int tag)
{
  int k = w == STARTALL || w == PSTARTALL || w == TEST_LOOP ? 2 : 1;
  int *b = calloc((size_t)(3 * n + 3 * BL), sizeof(int)), one = 0;
  MPI_Request q[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st[2];
  MPI_Datatype t = sem_rank == 0 ? send_type(n, blocky) : recv_type(n);
  if (sem_rank == 0) {
    OK(make_send(mode, b, t, 1, tag, &q[0]));
    if (k == 2)
      OK(MPI_Send_init(&one, 1, MPI_INT, 1, tag + 1, MPI_COMM_WORLD, &q[1]));
  } else {
    OK(MPI_Recv_init(b, 1, t, 0, tag, MPI_COMM_WORLD, &q[0]));
    if (k == 2)
      OK(MPI_Recv_init(&one, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD, &q[1]));
  }
  if (free_types)
    MPI_Type_free(&t);
  for (int r = 0; r < ROUNDS; r++) {
    if (sem_rank == 0) {
      for (int i = 0; i < n; i++)
        b[send_at(n, blocky, i)] = code(r, i);
      one = -r;
      /* the receive is posted before a ready send starts */
      OK(MPI_Recv(NULL, 0, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      start_complete(w, k, q, st);
      derived_sends++;
    } else {
      for (int i = 0; i < 3 * n; i++)
        b[i] = -1;
      one = 7;
      if (mode == 3) {          /* ready: the receive started first */
        OK(MPI_Start(&q[0]));
        OK(MPI_Send(NULL, 0, MPI_INT, 0, 99, MPI_COMM_WORLD));
        if (k == 2)
          OK(MPI_Start(&q[1]));
        OK(MPI_Waitall(k, q, st));
      } else {
        OK(MPI_Send(NULL, 0, MPI_INT, 0, 99, MPI_COMM_WORLD));
        start_complete(w, k, q, st);
      }
      derived_recvs++;
      int got = -1, first = -1;
      MPI_Get_elements(&st[0], MPI_INT, &got);
      for (int i = 0; i < 3 * n && first < 0; i++)
        if (b[i] != (i % 3 ? -1 : code(r, i / 3)))
          first = i;
      CHECK(got == n && first < 0 && st[0].MPI_SOURCE == 0 && st[0].MPI_TAG == tag &&
                (k == 1 || one == -r),
            "%s of %d ints (%s), %s, round %d: %d ints, int %d wrong (%d), "
            "source %d, tag %d, the int beside it %d",
            mode_name[mode], n, blocky ? "blocks" : "strided", way_name[w], r, got, first,
            first >= 0 ? b[first] : 0, st[0].MPI_SOURCE, st[0].MPI_TAG, one);
    }
  }
  for (int i = 0; i < k; i++)
    OK(MPI_Request_free(&q[i]));
  if (!free_types)
    MPI_Type_free(&t);
  free(b);
}

/* a send request freed while its message is in flight: the message is
   delivered whole all the same */
static void free_in_flight(void)
{
  int n = MAXN, *b = calloc(2 * (size_t)n, sizeof(int));
  MPI_Datatype t = sem_rank == 0 ? send_type(n, false) : recv_type(n);
  if (sem_rank == 0) {
    MPI_Request q;
    for (int i = 0; i < n; i++)
      b[2 * i] = code(5, i);
    OK(MPI_Send_init(b, 1, t, 1, 40, MPI_COMM_WORLD, &q));
    OK(MPI_Start(&q));
    derived_sends++;
    OK(MPI_Request_free(&q));
    OK(MPI_Recv(NULL, 0, MPI_INT, 1, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  } else {
    int *r = malloc(3 * sizeof(int) * (size_t)n), bad = -1;
    MPI_Status st;
    OK(MPI_Recv(r, 1, t, 0, 40, MPI_COMM_WORLD, &st));
    derived_recvs++;
    for (int i = 0; i < n && bad < 0; i++)
      if (r[3 * i] != code(5, i))
        bad = i;
    CHECK(bad < 0, "a send freed in flight: int %d wrong", bad);
    OK(MPI_Send(NULL, 0, MPI_INT, 0, 41, MPI_COMM_WORLD));
    free(r);
  }
  MPI_Type_free(&t);
  free(b);
}

/* a receive cancelled before anything matched it: cancelled, its buffer
   untouched; started again, it receives the message sent later */
static void cancel_then_receive(void)
{
  int n = 3000;
  MPI_Datatype t = sem_rank == 0 ? send_type(n, false) : recv_type(n);
  int *b = malloc(3 * sizeof(int) * (size_t)n);
  if (sem_rank == 1) {
    MPI_Request q;
    MPI_Status st;
    int c = 0, untouched = 1;
    for (int i = 0; i < 3 * n; i++)
      b[i] = -1;
    OK(MPI_Recv_init(b, 1, t, 0, 50, MPI_COMM_WORLD, &q));
    OK(MPI_Start(&q));
    derived_recvs++;
    OK(MPI_Cancel(&q));
    OK(MPI_Wait(&q, &st));
    MPI_Test_cancelled(&st, &c);
    for (int i = 0; i < 3 * n; i++)
      untouched &= b[i] == -1;
    CHECK(c && untouched, "a cancelled persistent receive: cancelled %d, buffer untouched %d",
          c, untouched);
    OK(MPI_Send(NULL, 0, MPI_INT, 0, 51, MPI_COMM_WORLD));
    OK(MPI_Start(&q));
    derived_recvs++;
    OK(MPI_Wait(&q, &st));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
      if (b[3 * i] != code(6, i))
        bad = i;
    CHECK(bad < 0, "a persistent receive started after its cancel: int %d wrong", bad);
    OK(MPI_Request_free(&q));
  } else {
    for (int i = 0; i < n; i++)
      b[2 * i] = code(6, i);
    OK(MPI_Recv(NULL, 0, MPI_INT, 1, 51, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Send(b, 1, t, 1, 50, MPI_COMM_WORLD));
    derived_sends++;
  }
  MPI_Type_free(&t);
  free(b);
}

/* requests whose communicator and type were freed after _init: started
   and completed again and again, as MPI keeps both alive for them */
static void comm_freed(void)
{
  int n = 3000;
  MPI_Comm c;
  OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  MPI_Datatype t = sem_rank == 0 ? send_type(n, false) : recv_type(n);
  int *b = malloc(3 * sizeof(int) * (size_t)n);
  MPI_Request q;
  if (sem_rank == 0)
    OK(MPI_Send_init(b, 1, t, 1, 60, c, &q));
  else
    OK(MPI_Recv_init(b, 1, t, 0, 60, c, &q));
  MPI_Type_free(&t);
  OK(MPI_Comm_free(&c));
  for (int r = 0; r < ROUNDS; r++) {
    MPI_Status st;
    for (int i = 0; i < 3 * n; i++)
      b[i] = sem_rank == 0 && i % 2 == 0 && i / 2 < n ? code(r, i / 2) : -1;
    OK(MPI_Start(&q));
    OK(MPI_Wait(&q, &st));
    if (sem_rank == 0) {
      derived_sends++;
      continue;
    }
    derived_recvs++;
    int got = -1, bad = -1;
    MPI_Get_elements(&st, MPI_INT, &got);
    for (int i = 0; i < n && bad < 0; i++)
      if (b[3 * i] != code(r, i))
        bad = i;
    CHECK(got == n && bad < 0 && st.MPI_SOURCE == 0 && st.MPI_TAG == 60,
          "a request whose communicator was freed, round %d: %d ints, int %d wrong, "
          "source %d, tag %d", r, got, bad, st.MPI_SOURCE, st.MPI_TAG);
  }
  OK(MPI_Request_free(&q));
  free(b);
}

/* a persistent receive's state, as every call sees it: an inactive one
   waits at once with an empty status; starting an active one is
   MPI_ERR_REQUEST; MPI_Waitany over two persistent receives and a plain
   one reports each once with its status and keeps the persistent handles;
   then, all inactive, MPI_UNDEFINED; one of any source and tag polled
   complete by MPI_Request_get_status has its envelope, MPI_Testsome then
   reports it once and no more; one freed while active still takes its
   message, and the sender's next (on another tag: in the pipeline mode a
   receive pending on the same envelope as a stream is a documented
   constraint, and a freed one is pending until its message came) arrives
   whole */
static void states(void)
{
  int n = 2000, *a = calloc(2 * (size_t)n, sizeof(int)), *b = calloc(2 * (size_t)n, sizeof(int));
  int small = 0;
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 2, MPI_INT, &t);
  MPI_Type_commit(&t);
  if (sem_rank == 0) {
    for (int i = 0; i < 2 * n; i++)
      a[i] = i, b[i] = -i;
    OK(MPI_Recv(NULL, 0, MPI_INT, 1, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Send(a, 1, t, 1, 71, MPI_COMM_WORLD));
    OK(MPI_Send(b, 1, t, 1, 72, MPI_COMM_WORLD));
    small = 42;
    OK(MPI_Send(&small, 1, MPI_INT, 1, 73, MPI_COMM_WORLD));
    OK(MPI_Send(a, 1, t, 1, 74, MPI_COMM_WORLD));
    OK(MPI_Send(b, 1, t, 1, 75, MPI_COMM_WORLD));
    OK(MPI_Send(a, 1, t, 1, 76, MPI_COMM_WORLD));
    derived_sends += 5;
  } else if (sem_rank == 1) {
    MPI_Request q[3], r;
    MPI_Status e;
    int c = -1, flag = 1, idx = -1;
    OK(MPI_Recv_init(a, 1, t, 0, 71, MPI_COMM_WORLD, &q[0]));
    OK(MPI_Recv_init(b, 1, t, 0, 72, MPI_COMM_WORLD, &q[1]));
    OK(MPI_Irecv(&small, 1, MPI_INT, 0, 73, MPI_COMM_WORLD, &q[2]));
    OK(MPI_Wait(&q[0], &e));
    MPI_Get_count(&e, MPI_INT, &c);
    CHECK(e.MPI_SOURCE == MPI_ANY_SOURCE && e.MPI_TAG == MPI_ANY_TAG && c == 0,
          "an inactive request's wait: source %d, tag %d, count %d", e.MPI_SOURCE,
          e.MPI_TAG, c);
    MPI_Request keep[2] = {q[0], q[1]};
    OK(MPI_Startall(2, q));
    /* MPICH raises it on MPI_COMM_WORLD */
#ifndef OMPI_MAJOR_VERSION   /* Open MPI 4.1 starts it again, and loses it */
    MPI_Errhandler was;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &was);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(sem_class(MPI_Start(&q[0])) == MPI_ERR_REQUEST, "an active request started again");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, was);
    MPI_Errhandler_free(&was);
#endif
    OK(MPI_Request_get_status(q[0], &flag, &e));
    CHECK(!flag, "MPI_Request_get_status complete before any message was sent");
    OK(MPI_Send(NULL, 0, MPI_INT, 0, 70, MPI_COMM_WORLD));
    int seen[3] = {0};
    for (int k = 0; k < 3; k++) {
      OK(MPI_Waitany(3, q, &idx, &e));
      if (idx < 0 || idx > 2 || seen[idx]) {
        CHECK(0, "MPI_Waitany: index %d", idx);
        break;
      }
      seen[idx] = 1;
      MPI_Get_count(&e, idx == 2 ? MPI_INT : t, &c);
      CHECK(e.MPI_SOURCE == 0 && e.MPI_TAG == 71 + idx && c == 1,
            "MPI_Waitany, request %d: source %d, tag %d, count %d", idx, e.MPI_SOURCE,
            e.MPI_TAG, c);
    }
    CHECK(q[0] == keep[0] && q[1] == keep[1] && q[2] == MPI_REQUEST_NULL,
          "MPI_Waitany: the persistent handles changed, or the other is not null");
    int bad = 0;
    for (int i = 0; i < n; i++)
      bad += a[2 * i] != 2 * i || b[2 * i] != -2 * i;
    CHECK(bad == 0 && small == 42, "MPI_Waitany: %d ints wrong, the int %d", bad, small);
    OK(MPI_Waitany(3, q, &idx, &e));
    CHECK(idx == MPI_UNDEFINED, "MPI_Waitany of inactive requests: index %d", idx);
    OK(MPI_Recv_init(a, 1, t, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
    OK(MPI_Start(&r));
    for (flag = 0; !flag;)
      OK(MPI_Request_get_status(r, &flag, &e));
    CHECK(e.MPI_SOURCE == 0 && e.MPI_TAG == 74, "MPI_Request_get_status: source %d, tag %d",
          e.MPI_SOURCE, e.MPI_TAG);
    int out = 0, ind[1];
    OK(MPI_Testsome(1, &r, &out, ind, &e));
    CHECK(out == 1 && ind[0] == 0 && e.MPI_SOURCE == 0 && e.MPI_TAG == 74,
          "MPI_Testsome after MPI_Request_get_status: %d, source %d, tag %d", out,
          e.MPI_SOURCE, e.MPI_TAG);
    OK(MPI_Testsome(1, &r, &out, ind, &e));
    CHECK(out == MPI_UNDEFINED, "MPI_Testsome of an inactive request: %d", out);
    OK(MPI_Request_free(&r));
    OK(MPI_Recv_init(b, 1, t, 0, 75, MPI_COMM_WORLD, &r));
    OK(MPI_Start(&r));
    OK(MPI_Request_free(&r));
    for (int i = 0; i < 2 * n; i++)
      a[i] = -1;
    OK(MPI_Recv(a, 1, t, 0, 76, MPI_COMM_WORLD, &e));
    bad = 0;
    for (int i = 0; i < n; i++)
      bad += a[2 * i] != 2 * i;
    CHECK(bad == 0, "the message after one a freed request took: %d ints wrong", bad);
    OK(MPI_Request_free(&q[0]));
    OK(MPI_Request_free(&q[1]));
    derived_recvs += 5;        /* the starts MPI took, and the receive */
  }
  MPI_Type_free(&t);
  free(a);
  free(b);
}

/* MPICH's errors for bad arguments, on the communicator's handler */
static void errors(void)
{
  MPI_Comm c;
  MPI_Datatype u;
  MPI_Request q = MPI_REQUEST_NULL;
  int x[8], size;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  MPI_Comm_size(c, &size);
  MPI_Type_vector(2, 1, 2, MPI_INT, &u);            /* not committed */
  int e1 = sem_class(MPI_Send_init(x, 1, u, 1 - sem_rank % 2, 1, c, &q));
  int e2 = sem_class(MPI_Recv_init(x, 1, u, 1 - sem_rank % 2, 1, c, &q));
  MPI_Type_commit(&u);
  int e3 = sem_class(MPI_Recv_init(x, 1, u, size, 1, c, &q));
  int e4 = sem_class(MPI_Ssend_init(x, 1, u, 0, -5, c, &q));
  CHECK(e1 == MPI_ERR_TYPE && e2 == MPI_ERR_TYPE && e3 == MPI_ERR_RANK && e4 == MPI_ERR_TAG,
        "errors: uncommitted send %d, receive %d (MPI_ERR_TYPE %d), bad rank %d "
        "(MPI_ERR_RANK %d), bad tag %d (MPI_ERR_TAG %d)", e1, e2, MPI_ERR_TYPE, e3,
        MPI_ERR_RANK, e4, MPI_ERR_TAG);
  MPI_Type_free(&u);
  MPI_Comm_free(&c);
}

/* preloaded outside the pipeline mode: every start counted */
static void counts(void)
{
  int (*get)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_counts");
  if (!get)
    return;
  unsigned long long c[4] = {0};
  get(c, 4);
  CHECK(c[2] == (unsigned long long)derived_sends && c[3] == (unsigned long long)derived_recvs,
        "the interposer counted %llu sends and %llu receives; %ld and %ld started",
        c[2], c[3], derived_sends, derived_recvs);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  int bsize = 4 * (MAXN * 4 + 64 + MPI_BSEND_OVERHEAD);
  void *bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach(bbuf, bsize);
  if (sem_rank < 2) {
    int tag = 100;
    for (int mode = 0; mode < 4; mode++)
      for (int s = 0; s < NSIZES; s++)
        for (int w = 0; w < NWAYS; w++, tag += 2)
#ifdef OMPI_MAJOR_VERSION   /* Open MPI 4.1's own MPI_Bsend_init sends the
                               first start's data at every start (past its
                               eager limit) */
          if (mode != 2)
#endif
          pair(mode, sizes[s], (w + s) % 2, w, (w + mode) % 3 == 0, tag);
    free_in_flight();
    cancel_then_receive();
    comm_freed();
    states();
  }
  errors();
  counts();
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
  return sem_finish("sem_persist");
}
