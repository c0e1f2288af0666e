/* Partitioned communication (MPI-4, chapter 4) with a derived datatype:
 *   - a partition's data is what it holds when MPI_Pready marks it ready:
 *     the sender writes each partition after MPI_Start, just before its
 *     MPI_Pready, so data read at the start (or at init) is wrong;
 *   - partitions readied by several threads at once (MPI_THREAD_MULTIPLE,
 *     when provided), as ranges (MPI_Pready_range) or as a list
 *     (MPI_Pready_list) arrive whole;
 *   - the receiver may partition the message otherwise than the sender
 *     (the same type signature in total), and sees each partition through
 *     MPI_Parrived before the request completes;
 *   - the requests start again with new data. */
#include <pthread.h>
#include <stdbool.h>
#include "sem.h"

enum { SPARTS = 8, RPARTS = 4, PER = 48, ROUNDS = 5 };
enum { ELEMS = SPARTS * PER, SPAN = 4 * ELEMS };   /* ints the elements cover */

static MPI_Datatype vec;      /* 2 ints 3 apart, extent 4 ints */
static int sbuf[SPAN], rbuf[SPAN];

static int value(int round, int element, int k)
{
  return 1000000 * (round + 1) + 10 * element + k;
}

/* element e of partition p written */
static void fill(int round, int p)
{
  for (int e = p * PER; e < (p + 1) * PER; e++) {
    sbuf[4 * e] = value(round, e, 0);
    sbuf[4 * e + 3] = value(round, e, 1);
  }
}

/* the same, then partition p readied */
static void fill_and_ready(MPI_Request q, int round, int p)
{
  fill(round, p);
  OK(MPI_Pready(p, q));
}

typedef struct half {
  MPI_Request q;
  int round, first;
} half;

static void *readier(void *arg)
{
  half *h = arg;
  for (int p = h->first; p < SPARTS; p += 2)
    fill_and_ready(h->q, h->round, p);
  return NULL;
}

int main(int argc, char **argv)
{
  int provided;
  (void)sem_init;                    /* MPI_Init_thread here instead */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &sem_rank);
  MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  MPI_Request q = MPI_REQUEST_NULL;
  if (sem_rank == 0)
    OK(MPI_Psend_init(sbuf, SPARTS, PER, vec, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q));
  else if (sem_rank == 1)
    OK(MPI_Precv_init(rbuf, RPARTS, ELEMS / RPARTS, vec, 0, 5, MPI_COMM_WORLD,
                      MPI_INFO_NULL, &q));
  for (int round = 0; round < ROUNDS && q != MPI_REQUEST_NULL; round++) {
    bool threads = round == 1 && provided == MPI_THREAD_MULTIPLE;
    if (sem_rank == 0) {
      memset(sbuf, 0xee, sizeof(sbuf));       /* what a read at the start sees */
      OK(MPI_Start(&q));
      if (threads) {
        half h[2] = {{q, round, 0}, {q, round, 1}};
        pthread_t t;
        pthread_create(&t, NULL, readier, &h[1]);
        readier(&h[0]);
        pthread_join(t, NULL);
      } else if (round == 3) {
        /* the upper half readied as a range, then the lower */
        for (int p = 0; p < SPARTS; p++)
          fill(round, p);
        OK(MPI_Pready_range(SPARTS / 2, SPARTS - 1, q));
        OK(MPI_Pready_range(0, SPARTS / 2 - 1, q));
      } else if (round == 4) {
        /* every partition in one list, last first */
        int list[SPARTS];
        for (int p = 0; p < SPARTS; p++) {
          fill(round, p);
          list[p] = SPARTS - 1 - p;
        }
        OK(MPI_Pready_list(SPARTS, list, q));
      } else {
        for (int p = SPARTS - 1; p >= 0; p--)
          fill_and_ready(q, round, p);
      }
      OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    } else if (sem_rank == 1) {
      for (int i = 0; i < SPAN; i++)
        rbuf[i] = -7;
      OK(MPI_Start(&q));
      int seen[RPARTS] = {0}, left = RPARTS;
      while (left > 0)
        for (int p = 0; p < RPARTS; p++) {
          int flag = 0;
          if (seen[p])
            continue;
          OK(MPI_Parrived(q, p, &flag));
          if (!flag)
            continue;
          seen[p] = 1;
          left--;
          /* a partition that arrived is in the buffer before completion */
          int per = ELEMS / RPARTS, bad = 0;
          for (int e = p * per; e < (p + 1) * per; e++)
            bad += rbuf[4 * e] != value(round, e, 0) || rbuf[4 * e + 3] != value(round, e, 1);
          CHECK(bad == 0, "round %d: partition %d arrived with %d wrong elements", round,
                p, bad);
        }
      OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
      int bad = 0, gaps = 0;
      for (int e = 0; e < ELEMS; e++) {
        bad += rbuf[4 * e] != value(round, e, 0) || rbuf[4 * e + 3] != value(round, e, 1);
        gaps += rbuf[4 * e + 1] != -7 || rbuf[4 * e + 2] != -7;
      }
      CHECK(bad == 0, "round %d%s: %d elements wrong", round,
            threads ? " (two threads readying)" : "", bad);
      CHECK(gaps == 0, "round %d: %d gaps between blocks written", round, gaps);
    }
  }
  if (q != MPI_REQUEST_NULL)
    OK(MPI_Request_free(&q));
  MPI_Type_free(&vec);
  return sem_finish("sem_partitioned");
}
