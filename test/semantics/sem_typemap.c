/* A message of a derived datatype is the sequence of its type map's basic
 * elements (MPI 4.0, 3.3 and 5.1): whichever send and receive call carries
 * it (every send mode, blocking, nonblocking and persistent, the large-count
 * _c forms, matched probes, sendrecv and sendrecv_replace), a strided type
 * sent arrives as its elements in order in a contiguous receive, and
 * contiguous elements received into a strided type land at its
 * displacements, the holes between them untouched. Packing obeys the same
 * map: MPI_Pack's bytes unpack, as any type of the same signature, into
 * the elements in order; external32 is defined byte for byte, so a strided
 * type packs to exactly the bytes of its elements packed contiguously. */
#include "sem.h"
#include "sem_large.h"

#define PER 6                    /* elements of one vec */
#define COUNT 2
#define N (PER * COUNT)          /* elements of a message */
#define SPAN 16                  /* doubles spanned by COUNT vecs */
#define HOLE -1.0
#define TAG 7
#define READY 99

static MPI_Datatype vec;         /* 3 blocks of 2 doubles, 3 apart */

/* where element k of COUNT vecs lies, in doubles */
static int at(int k)
{
  int copy = k / PER, e = k % PER;
  return copy * 8 + (e / 2) * 3 + e % 2;
}

static double value(int rank, int k)
{
  return 1000.0 * (rank + 1) + k;
}

/* the strided buffer: rank's elements at their places, holes elsewhere */
static void fill_strided(double *b, int rank)
{
  for (int i = 0; i < SPAN + 2; i++)
    b[i] = HOLE;
  for (int k = 0; k < N; k++)
    b[at(k)] = value(rank, k);
}

static void check_strided(const double *b, int rank, const char *how)
{
  double want[SPAN + 2];
  fill_strided(want, rank);
  for (int i = 0; i < SPAN + 2; i++)
    CHECK(b[i] == want[i], "%s: double %d is %g, not %g", how, i, b[i], want[i]);
}

static void check_dense(const double *b, int rank, const char *how)
{
  for (int k = 0; k < N; k++)
    CHECK(b[k] == value(rank, k), "%s: element %d is %g, not %g", how, k, b[k],
          value(rank, k));
  CHECK(b[N] == HOLE, "%s: written past the message", how);
}

enum { S_SEND, S_SEND_C, S_BSEND, S_BSEND_C, S_SSEND, S_SSEND_C, S_RSEND, S_RSEND_C,
       S_ISEND, S_ISEND_C, S_IBSEND, S_IBSEND_C, S_ISSEND, S_ISSEND_C, S_IRSEND,
       S_IRSEND_C, S_SEND_INIT, S_SEND_INIT_C, S_BSEND_INIT, S_BSEND_INIT_C,
       S_SSEND_INIT, S_SSEND_INIT_C, S_RSEND_INIT, S_RSEND_INIT_C, NSEND };
static const char *const send_name[NSEND] = {
  "Send", "Send_c", "Bsend", "Bsend_c", "Ssend", "Ssend_c", "Rsend", "Rsend_c",
  "Isend", "Isend_c", "Ibsend", "Ibsend_c", "Issend", "Issend_c", "Irsend", "Irsend_c",
  "Send_init", "Send_init_c", "Bsend_init", "Bsend_init_c", "Ssend_init",
  "Ssend_init_c", "Rsend_init", "Rsend_init_c"};
enum { R_RECV, R_RECV_C, R_IRECV, R_IRECV_C, R_RECV_INIT, R_RECV_INIT_C, R_MRECV,
       R_MRECV_C, R_IMRECV, R_IMRECV_C, NRECV };
static const char *const recv_name[NRECV] = {
  "Recv", "Recv_c", "Irecv", "Irecv_c", "Recv_init", "Recv_init_c", "Mprobe+Mrecv",
  "Mprobe+Mrecv_c", "Improbe+Imrecv", "Improbe+Imrecv_c"};

static bool ready_mode(int s)
{
  return s == S_RSEND || s == S_RSEND_C || s == S_IRSEND || s == S_IRSEND_C ||
         s == S_RSEND_INIT || s == S_RSEND_INIT_C;
}

static void send_as(int s, const void *buf, int n, MPI_Datatype t)
{
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Count c = n;
  MPI_Comm w = MPI_COMM_WORLD;
  switch (s) {
  case S_SEND: OK(MPI_Send(buf, n, t, 1, TAG, w)); return;
  case S_SEND_C: OK(MPI_Send_c(buf, c, t, 1, TAG, w)); return;
  case S_BSEND: OK(MPI_Bsend(buf, n, t, 1, TAG, w)); return;
  case S_BSEND_C: OK(MPI_Bsend_c(buf, c, t, 1, TAG, w)); return;
  case S_SSEND: OK(MPI_Ssend(buf, n, t, 1, TAG, w)); return;
  case S_SSEND_C: OK(MPI_Ssend_c(buf, c, t, 1, TAG, w)); return;
  case S_RSEND: OK(MPI_Rsend(buf, n, t, 1, TAG, w)); return;
  case S_RSEND_C: OK(MPI_Rsend_c(buf, c, t, 1, TAG, w)); return;
  case S_ISEND: OK(MPI_Isend(buf, n, t, 1, TAG, w, &r)); break;
  case S_ISEND_C: OK(MPI_Isend_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_IBSEND: OK(MPI_Ibsend(buf, n, t, 1, TAG, w, &r)); break;
  case S_IBSEND_C: OK(MPI_Ibsend_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_ISSEND: OK(MPI_Issend(buf, n, t, 1, TAG, w, &r)); break;
  case S_ISSEND_C: OK(MPI_Issend_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_IRSEND: OK(MPI_Irsend(buf, n, t, 1, TAG, w, &r)); break;
  case S_IRSEND_C: OK(MPI_Irsend_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_SEND_INIT: OK(MPI_Send_init(buf, n, t, 1, TAG, w, &r)); break;
  case S_SEND_INIT_C: OK(MPI_Send_init_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_BSEND_INIT: OK(MPI_Bsend_init(buf, n, t, 1, TAG, w, &r)); break;
  case S_BSEND_INIT_C: OK(MPI_Bsend_init_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_SSEND_INIT: OK(MPI_Ssend_init(buf, n, t, 1, TAG, w, &r)); break;
  case S_SSEND_INIT_C: OK(MPI_Ssend_init_c(buf, c, t, 1, TAG, w, &r)); break;
  case S_RSEND_INIT: OK(MPI_Rsend_init(buf, n, t, 1, TAG, w, &r)); break;
  case S_RSEND_INIT_C: OK(MPI_Rsend_init_c(buf, c, t, 1, TAG, w, &r)); break;
  }
  bool persistent = s >= S_SEND_INIT;
  if (persistent)
    OK(MPI_Start(&r));
  OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  if (persistent)
    OK(MPI_Request_free(&r));
}

/* a receive posted (nonblocking forms, started persistent ones) or NULL
   request for the blocking and probing forms, done in recv_finish */
static void recv_post(int rv, void *buf, int n, MPI_Datatype t, MPI_Request *r)
{
  MPI_Count c = n;
  MPI_Comm w = MPI_COMM_WORLD;
  *r = MPI_REQUEST_NULL;
  switch (rv) {
  case R_IRECV: OK(MPI_Irecv(buf, n, t, 0, TAG, w, r)); break;
  case R_IRECV_C: OK(MPI_Irecv_c(buf, c, t, 0, TAG, w, r)); break;
  case R_RECV_INIT: OK(MPI_Recv_init(buf, n, t, 0, TAG, w, r)); OK(MPI_Start(r)); break;
  case R_RECV_INIT_C: OK(MPI_Recv_init_c(buf, c, t, 0, TAG, w, r)); OK(MPI_Start(r)); break;
  default: break;
  }
}

static void recv_finish(int rv, void *buf, int n, MPI_Datatype t, MPI_Request *r,
                        MPI_Status *st)
{
  MPI_Count c = n;
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Message m;
  MPI_Request q;
  int flag = 0;
  switch (rv) {
  case R_RECV: OK(MPI_Recv(buf, n, t, 0, TAG, w, st)); return;
  case R_RECV_C: OK(MPI_Recv_c(buf, c, t, 0, TAG, w, st)); return;
  case R_MRECV:
  case R_MRECV_C:
    OK(MPI_Mprobe(0, TAG, w, &m, st));
    if (rv == R_MRECV)
      OK(MPI_Mrecv(buf, n, t, &m, st));
    else
      OK(MPI_Mrecv_c(buf, c, t, &m, st));
    return;
  case R_IMRECV:
  case R_IMRECV_C:
    while (!flag)
      OK(MPI_Improbe(0, TAG, w, &flag, &m, st));
    if (rv == R_IMRECV)
      OK(MPI_Imrecv(buf, n, t, &m, &q));
    else
      OK(MPI_Imrecv_c(buf, c, t, &m, &q));
    OK(MPI_Wait(&q, st));
    return;
  default:
    OK(MPI_Wait(r, st));
    if (rv == R_RECV_INIT || rv == R_RECV_INIT_C)
      OK(MPI_Request_free(r));
  }
}

/* rank 0 sends by s, rank 1 receives by rv; strided: which side's type is
   vec (the other receives or sends N contiguous doubles) */
static void one(int s, int rv, bool strided_send)
{
  double b[SPAN + 2];
  char how[96];
  snprintf(how, sizeof(how), "%s of %s to %s of %s", send_name[s],
           strided_send ? "2 vec" : "12 doubles", recv_name[rv],
           strided_send ? "12 doubles" : "2 vec");
  if (ready_mode(s) && rv != R_IRECV_C)
    rv = R_IRECV;                /* a ready send needs its receive posted */
  if (sem_rank == 0) {
    fill_strided(b, 0);
    double dense[N];
    for (int k = 0; k < N; k++)
      dense[k] = value(0, k);
    if (ready_mode(s))
      OK(MPI_Recv(NULL, 0, MPI_BYTE, 1, READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (strided_send)
      send_as(s, b, COUNT, vec);
    else
      send_as(s, dense, N, MPI_DOUBLE);
  } else if (sem_rank == 1) {
    for (int i = 0; i < SPAN + 2; i++)
      b[i] = HOLE;
    MPI_Request r;
    MPI_Status st;
    void *buf = b;
    int n = strided_send ? N : COUNT;
    MPI_Datatype t = strided_send ? MPI_DOUBLE : vec;
    recv_post(rv, buf, n, t, &r);
    if (ready_mode(s))
      OK(MPI_Send(NULL, 0, MPI_BYTE, 0, READY, MPI_COMM_WORLD));
    recv_finish(rv, buf, n, t, &r, &st);
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == TAG, "%s: status source %d tag %d", how,
          st.MPI_SOURCE, st.MPI_TAG);
    int got = -1;
    OK(MPI_Get_count(&st, t, &got));
    CHECK(got == n, "%s: MPI_Get_count %d, not %d", how, got, n);
    if (strided_send)
      check_dense(b, 0, how);
    else
      check_strided(b, 0, how);
  }
}

/* each rank sends its strided elements to the other and receives the
   other's: contiguously (MPI_Sendrecv) or in place (_replace) */
static void exchange(void)
{
  int other = 1 - sem_rank;
  if (sem_rank > 1)
    return;
  for (int form = 0; form < 4; form++) {
    double b[SPAN + 2], d[N + 1];
    fill_strided(b, sem_rank);
    for (int k = 0; k <= N; k++)
      d[k] = HOLE;
    MPI_Status st;
    switch (form) {
    case 0:
      OK(MPI_Sendrecv(b, COUNT, vec, other, TAG, d, N, MPI_DOUBLE, other, TAG,
                      MPI_COMM_WORLD, &st));
      check_dense(d, other, "MPI_Sendrecv");
      break;
    case 1:
      OK(MPI_Sendrecv_c(b, COUNT, vec, other, TAG, d, N, MPI_DOUBLE, other, TAG,
                        MPI_COMM_WORLD, &st));
      check_dense(d, other, "MPI_Sendrecv_c");
      break;
    case 2:
      OK(MPI_Sendrecv_replace(b, COUNT, vec, other, TAG, other, TAG, MPI_COMM_WORLD, &st));
      check_strided(b, other, "MPI_Sendrecv_replace");
      break;
    case 3:
      OK(MPI_Sendrecv_replace_c(b, COUNT, vec, other, TAG, other, TAG, MPI_COMM_WORLD,
                                &st));
      check_strided(b, other, "MPI_Sendrecv_replace_c");
      break;
    }
    CHECK(st.MPI_SOURCE == other, "sendrecv form %d: source %d", form, st.MPI_SOURCE);
  }
}

/* MPI_Pack's bytes, unpacked as N doubles, are the elements in order;
   external32 is the same bytes as N doubles packed contiguously */
static void packing(void)
{
  double b[SPAN + 2], d[N + 1], dense[N];
  char packed[512], ext[512], ext_dense[512];
  fill_strided(b, sem_rank);
  for (int k = 0; k < N; k++)
    dense[k] = value(sem_rank, k);
  for (int big = 0; big < 2; big++) {
    const char *how = big ? "MPI_Pack_c" : "MPI_Pack";
    int size = 0, pos = 0, upos = 0;
    MPI_Count csize = 0, cpos = 0, cupos = 0;
    for (int k = 0; k <= N; k++)
      d[k] = HOLE;
    if (!big) {
      OK(MPI_Pack_size(COUNT, vec, MPI_COMM_WORLD, &size));
      OK(MPI_Pack(b, COUNT, vec, packed, (int)sizeof(packed), &pos, MPI_COMM_WORLD));
      OK(MPI_Unpack(packed, pos, &upos, d, N, MPI_DOUBLE, MPI_COMM_WORLD));
      csize = size, cpos = pos, cupos = upos;
    } else {
      OK(MPI_Pack_size_c(COUNT, vec, MPI_COMM_WORLD, &csize));
      OK(MPI_Pack_c(b, COUNT, vec, packed, sizeof(packed), &cpos, MPI_COMM_WORLD));
      OK(MPI_Unpack_c(packed, cpos, &cupos, d, N, MPI_DOUBLE, MPI_COMM_WORLD));
    }
    CHECK(csize >= (MPI_Count)(N * sizeof(double)) && cpos <= csize && cupos == cpos,
          "%s: size %lld, packed %lld, unpacked %lld", how, (long long)csize,
          (long long)cpos, (long long)cupos);
    check_dense(d, sem_rank, how);

    how = big ? "MPI_Pack_external_c" : "MPI_Pack_external";
    MPI_Aint esize = 0, epos = 0, dpos = 0, upos2 = 0;
    MPI_Count cesize = 0, cepos = 0, cdpos = 0, cupos2 = 0;
    double back[SPAN + 2];
    for (int i = 0; i < SPAN + 2; i++)
      back[i] = HOLE;
    if (!big) {
      OK(MPI_Pack_external_size("external32", COUNT, vec, &esize));
      OK(MPI_Pack_external("external32", b, COUNT, vec, ext, sizeof(ext), &epos));
      OK(MPI_Pack_external("external32", dense, N, MPI_DOUBLE, ext_dense,
                           sizeof(ext_dense), &dpos));
      OK(MPI_Unpack_external("external32", ext, epos, &upos2, back, COUNT, vec));
      cesize = esize, cepos = epos, cdpos = dpos, cupos2 = upos2;
    } else {
      OK(MPI_Pack_external_size_c("external32", COUNT, vec, &cesize));
      OK(MPI_Pack_external_c("external32", b, COUNT, vec, ext, sizeof(ext), &cepos));
      OK(MPI_Pack_external_c("external32", dense, N, MPI_DOUBLE, ext_dense,
                             sizeof(ext_dense), &cdpos));
      OK(MPI_Unpack_external_c("external32", ext, cepos, &cupos2, back, COUNT, vec));
    }
    CHECK(cepos == N * 8 && cdpos == N * 8 && cesize >= cepos && cupos2 == cepos,
          "%s: size %lld, packed %lld (contiguous %lld), unpacked %lld", how,
          (long long)cesize, (long long)cepos, (long long)cdpos, (long long)cupos2);
    CHECK(cepos == cdpos && memcmp(ext, ext_dense, (size_t)cepos) == 0,
          "%s: the bytes differ from the elements' packed contiguously", how);
    check_strided(back, sem_rank, big ? "MPI_Unpack_external_c" : "MPI_Unpack_external");
  }
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  int bsize = 4 * (N * (int)sizeof(double) + MPI_BSEND_OVERHEAD);
  char *bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach(bbuf, bsize);
  /* every send form and every receive form at least once, each way */
  int rounds = 2 * ((int)NSEND > (int)NRECV ? (int)NSEND : (int)NRECV);
  for (int i = 0; i < rounds; i++)
    one(i % NSEND, (i / 2) % NRECV, (i + i / NSEND) % 2 == 0);
  exchange();
  packing();
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
  MPI_Type_free(&vec);
  return sem_finish("sem_typemap");
}
