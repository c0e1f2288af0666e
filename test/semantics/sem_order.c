/* Messages from one sender to one receiver on one communicator and tag
 * are received in the order they were sent (MPI's non-overtaking rule),
 * whatever calls send and receive them: standard, synchronous, buffered
 * and nonblocking sends, persistent sends, MPI_Ibsend, predefined and
 * derived types, short and long messages (long ones stream in the
 * pipeline mode); plain, nonblocking, persistent, probed and matched
 * receives. Each message's ints are (sequence, index) codes; every receive
 * checks its count and every int. MPI_Sendrecv_replace of derived types
 * follows a message on its envelope and delivers. A persistent send
 * started right after a long nonblocking send on the same envelope (in
 * the pipeline mode, while the long one still streams) arrives after it. */
#include "sem.h"

#define K 96
static const int sizes[] = {8, 40000, 3, 1000, 0, 70000, 17};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAXN 70000

static int code(int seq, int i)
{
  return seq * 100000 + i;
}

/* every other int of n */
static MPI_Datatype strided(int n)
{
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 2, MPI_INT, &t);
  MPI_Type_commit(&t);
  return t;
}

static void sender(void)
{
  int bsize = 4 * (MAXN * 4 + MPI_BSEND_OVERHEAD);
  void *bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach(bbuf, bsize);
  int *mem[K];
  MPI_Request q[K];
  MPI_Datatype types[K];
  int nq = 0;
  for (int k = 0; k < K; k++) {
    int n = sizes[k % NSIZES], how = k % 8;
    /* ints 0 .. 2n-1 strided, 2n .. 3n-1 the same contiguous */
    int *b = mem[k] = malloc(sizeof(int) * (size_t)(3 * n + 1)), *flat = b + 2 * n;
    for (int i = 0; i < n; i++)
      b[2 * i] = flat[i] = code(k, i);
    types[k] = strided(n);
    MPI_Request r = MPI_REQUEST_NULL;
    switch (how) {
    case 0: OK(MPI_Send(b, 1, types[k], 1, 9, MPI_COMM_WORLD)); break;
    case 1: OK(MPI_Isend(b, 1, types[k], 1, 9, MPI_COMM_WORLD, &r)); break;
    case 2: OK(MPI_Ssend(b, 1, types[k], 1, 9, MPI_COMM_WORLD)); break;
    case 3: OK(MPI_Bsend(b, 1, types[k], 1, 9, MPI_COMM_WORLD)); break;
    case 4:
      OK(MPI_Send_init(b, 1, types[k], 1, 9, MPI_COMM_WORLD, &r));
      OK(MPI_Start(&r));
      OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
      OK(MPI_Request_free(&r));
      break;
    case 5: OK(MPI_Ibsend(b, 1, types[k], 1, 9, MPI_COMM_WORLD, &r)); break;
    case 6: OK(MPI_Send(flat, n, MPI_INT, 1, 9, MPI_COMM_WORLD)); break;
    default: OK(MPI_Isend(flat, n, MPI_INT, 1, 9, MPI_COMM_WORLD, &r)); break;
    }
    if (r != MPI_REQUEST_NULL)
      q[nq++] = r;
  }
  static MPI_Status sts[K];
  OK(MPI_Waitall(nq, q, sts));
  for (int k = 0; k < K; k++) {
    MPI_Type_free(&types[k]);
    free(mem[k]);
  }
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
}

static void check(int k, const int *b, int stride, const MPI_Status *st)
{
  int n = sizes[k % NSIZES], got = -1;
  MPI_Get_count(st, MPI_INT, &got);
  CHECK(got == n, "message %d: %d ints, %d sent", k, got, n);
  for (int i = 0; i < n && i < got; i++)
    if (b[i * stride] != code(k, i)) {
      CHECK(0, "message %d, int %d: %d (message %d's int %d), %d sent", k, i,
            b[i * stride], b[i * stride] / 100000, b[i * stride] % 100000, code(k, i));
      return;
    }
}

static void receiver(void)
{
  int *b = malloc(sizeof(int) * 2 * MAXN);
  MPI_Datatype wide = strided(MAXN);
  for (int k = 0; k < K; k++) {
    MPI_Status st;
    MPI_Request r;
    MPI_Message m;
    int stride = 1, how = k % 5;
    switch (how) {
    case 0: OK(MPI_Recv(b, MAXN, MPI_INT, 0, 9, MPI_COMM_WORLD, &st)); break;
    case 1:
      OK(MPI_Irecv(b, 1, wide, 0, 9, MPI_COMM_WORLD, &r));
      OK(MPI_Wait(&r, &st));
      stride = 2;
      break;
    case 2:
      OK(MPI_Recv_init(b, 1, wide, 0, 9, MPI_COMM_WORLD, &r));
      OK(MPI_Start(&r));
      OK(MPI_Wait(&r, &st));
      OK(MPI_Request_free(&r));
      stride = 2;
      break;
    case 3:
      OK(MPI_Probe(0, 9, MPI_COMM_WORLD, &st));
      OK(MPI_Recv(b, 1, wide, 0, 9, MPI_COMM_WORLD, &st));
      stride = 2;
      break;
    default:
      OK(MPI_Mprobe(0, 9, MPI_COMM_WORLD, &m, &st));
      OK(MPI_Mrecv(b, 1, wide, &m, &st));
      stride = 2;
      break;
    }
    check(k, b, stride, &st);
  }
  MPI_Type_free(&wide);
  free(b);
}

/* MPI_Sendrecv_replace of derived types between ranks 0 and 1, short and
   long, each after a message on the same envelope: the buffer holds the
   peer's data where the type lies and its own elsewhere */
static void replace(void)
{
  if (sem_rank > 1)
    return;
  int peer = 1 - sem_rank, *b = malloc(sizeof(int) * 2 * MAXN);
  for (int s = 0; s < NSIZES; s++) {
    int n = sizes[s], first = -1;
    MPI_Datatype t = strided(n);
    for (int i = 0; i < 2 * n; i++)
      b[i] = i % 2 ? -i : code(sem_rank * 100 + s, i / 2);
    int mark = sem_rank * 100 + s;
    OK(MPI_Sendrecv_replace(&mark, 1, MPI_INT, peer, 11, peer, 11, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
    MPI_Status st;
    OK(MPI_Sendrecv_replace(b, 1, t, peer, 11, peer, 11, MPI_COMM_WORLD, &st));
    for (int i = 0; i < 2 * n && first < 0; i++)
      if (b[i] != (i % 2 ? -i : code(peer * 100 + s, i / 2)))
        first = i;
    int got = -1;
    MPI_Get_count(&st, t, &got);
    CHECK(first < 0 && got == (n ? 1 : 0) && mark == peer * 100 + s && st.MPI_SOURCE == peer,
          "MPI_Sendrecv_replace of %d ints: int %d wrong, count %d, the message "
          "before it %d", n, first, got, mark);
    MPI_Type_free(&t);
  }
  free(b);
}

/* MPI_Isend of MAXN strided ints, then at once MPI_Start of a persistent
   send of 5 ints (derived, then predefined) on the same envelope */
static void persistent_behind(void)
{
  int *b = malloc(sizeof(int) * 2 * MAXN), small[10];
  MPI_Datatype t = strided(MAXN), t5 = strided(5);
  for (int round = 0; round < 2; round++) {
    MPI_Datatype st5 = round ? MPI_INT : t5;
    int stride = round ? 1 : 2;
    if (sem_rank == 0) {
      MPI_Request q[2];
      MPI_Status sts[2];
      for (int i = 0; i < MAXN; i++)
        b[2 * i] = code(5, i);
      for (int i = 0; i < 5; i++)
        small[stride * i] = code(1, i);
      OK(MPI_Send_init(small, round ? 5 : 1, st5, 1, 12, MPI_COMM_WORLD, &q[1]));
      OK(MPI_Isend(b, 1, t, 1, 12, MPI_COMM_WORLD, &q[0]));
      OK(MPI_Start(&q[1]));
      OK(MPI_Waitall(2, q, sts));
      OK(MPI_Request_free(&q[1]));
    } else if (sem_rank == 1) {
      MPI_Status st;
      OK(MPI_Recv(b, 1, t, 0, 12, MPI_COMM_WORLD, &st));
      check(5, b, 2, &st);   /* sizes[5] is MAXN, as message 5 of sender() */
      OK(MPI_Recv(small, 5, MPI_INT, 0, 12, MPI_COMM_WORLD, &st));
      int got = -1, first = -1;
      MPI_Get_count(&st, MPI_INT, &got);
      for (int i = 0; i < 5 && first < 0; i++)
        if (small[i] != code(1, i))
          first = i;
      CHECK(got == 5 && first < 0, "a persistent send behind a long one (%s): %d ints, "
            "int %d wrong", round ? "MPI_INT" : "derived", got, first);
    }
  }
  MPI_Type_free(&t);
  MPI_Type_free(&t5);
  free(b);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  if (sem_rank == 0)
    sender();
  else if (sem_rank == 1)
    receiver();
  MPI_Barrier(MPI_COMM_WORLD);
  persistent_behind();
  MPI_Barrier(MPI_COMM_WORLD);
  replace();
  return sem_finish("sem_order");
}
