/* A request completes whoever completes it: a program (or a library
 * layer, or MPICH's Fortran 2008 bindings) that completes its requests
 * through the PMPI_* names finds the data of a derived-type receive in its
 * buffer and the status MPI gives, for every completion call: PMPI_Wait,
 * PMPI_Test, PMPI_Waitall, PMPI_Testall, PMPI_Waitany, PMPI_Testany,
 * PMPI_Waitsome, PMPI_Testsome, over arrays that mix derived-type and
 * plain requests; PMPI_Cancel of a receive never matched leaves its buffer
 * alone and its status cancelled. Messages short and long (streams in the
 * pipeline mode), of nested vector, hvector and resized types as a pencil
 * transpose sends them. (Two streams of 64-byte chunks in flight to one
 * receiver grow MPICH's queues: the largest message, 0.4 MB, keeps the
 * pipeline mode's run to seconds.) */
#include <stdbool.h>
#include "sem.h"

enum { WAIT, TEST, WAITALL, TESTALL, WAITANY, TESTANY, WAITSOME, TESTSOME, NWAYS };
static const char *way_name[NWAYS] = {"PMPI_Wait", "PMPI_Test", "PMPI_Waitall",
                                      "PMPI_Testall", "PMPI_Waitany", "PMPI_Testany",
                                      "PMPI_Waitsome", "PMPI_Testsome"};

/* an n x n x n block of an (n+2)^3 array of doubles, one pencil per line:
   a resized vector of blocks of a vector, in an hvector of planes */
static MPI_Datatype pencil(int n)
{
  int m = n + 2;
  MPI_Datatype line, plane, vol, rline;
  MPI_Type_vector(n, 1, 1, MPI_DOUBLE, &line);
  MPI_Type_create_resized(line, 0, (MPI_Aint)(m * sizeof(double)), &rline);
  MPI_Type_contiguous(n, rline, &plane);
  MPI_Type_create_hvector(n, 1, (MPI_Aint)(m * m * sizeof(double)), plane, &vol);
  MPI_Type_commit(&vol);
  MPI_Type_free(&line);
  MPI_Type_free(&rline);
  MPI_Type_free(&plane);
  return vol;
}

static double value(int tag, int i)
{
  return tag * 1e7 + i;
}

/* completes all of q[0..k) by way w */
static void complete(int w, int k, MPI_Request q[], MPI_Status st[])
{
  int left = k, flag = 0, idx, out, ids[8];
  MPI_Status s[8];
  switch (w) {
  case WAIT:
    for (int i = 0; i < k; i++)
      OK(PMPI_Wait(&q[i], &st[i]));
    break;
  case TEST:
    for (int i = 0; i < k; i++)
      for (flag = 0; !flag;)
        OK(PMPI_Test(&q[i], &flag, &st[i]));
    break;
  case WAITALL:
    OK(PMPI_Waitall(k, q, st));
    break;
  case TESTALL:
    while (!flag)
      OK(PMPI_Testall(k, q, &flag, st));
    break;
  case WAITANY:
    while (left--) {
      OK(PMPI_Waitany(k, q, &idx, &s[0]));
      if (idx >= 0 && idx < k)
        st[idx] = s[0];
    }
    break;
  case TESTANY:
    while (left) {
      OK(PMPI_Testany(k, q, &idx, &flag, &s[0]));
      if (flag && idx >= 0 && idx < k) {
        st[idx] = s[0];
        left--;
      }
    }
    break;
  case WAITSOME:
  case TESTSOME:
    while (left > 0) {
      if (w == WAITSOME)
        OK(PMPI_Waitsome(k, q, &out, ids, s));
      else
        OK(PMPI_Testsome(k, q, &out, ids, s));
      if (out == MPI_UNDEFINED)
        break;
      for (int j = 0; j < out; j++)
        if (ids[j] >= 0 && ids[j] < k)
          st[ids[j]] = s[j];
      left -= out;
    }
    break;
  }
  for (int i = 0; i < k; i++)
    CHECK(q[i] == MPI_REQUEST_NULL, "%s: request %d not freed", way_name[w], i);
}

/* rank 0 sends two derived-type messages and a plain one; rank 1
   receives them with the three requests in one array */
static void exchange(int n, int w)
{
  int m = n + 2, cells = m * m * m, tag = 10 * n + w;
  MPI_Datatype t = pencil(n);
  double *a = malloc(sizeof(double) * (size_t)cells);
  double *b = malloc(sizeof(double) * (size_t)cells);
  int plain[4] = {0};
  for (int i = 0; i < cells; i++)
    a[i] = sem_rank == 0 ? value(tag, i) : -1.0;
  for (int i = 0; i < cells; i++)
    b[i] = sem_rank == 0 ? value(tag + 1, i) : -1.0;
  MPI_Request q[3];
  MPI_Status st[3];
  if (sem_rank == 0) {
    plain[0] = tag;
    OK(MPI_Isend(a, 1, t, 1, tag, MPI_COMM_WORLD, &q[0]));
    OK(MPI_Isend(plain, 4, MPI_INT, 1, tag + 2, MPI_COMM_WORLD, &q[1]));
    OK(MPI_Isend(b, 1, t, 1, tag + 1, MPI_COMM_WORLD, &q[2]));
    complete(w, 3, q, st);
  } else if (sem_rank == 1) {
    OK(MPI_Irecv(b, 1, t, 0, tag + 1, MPI_COMM_WORLD, &q[0]));
    OK(MPI_Irecv(plain, 4, MPI_INT, 0, tag + 2, MPI_COMM_WORLD, &q[1]));
    OK(MPI_Irecv(a, 1, t, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &q[2]));
    complete(w, 3, q, st);
    int bad = -1, badb = -1;
    for (int z = 0; z < m; z++)
      for (int y = 0; y < m; y++)
        for (int x = 0; x < m; x++) {
          int i = (z * m + y) * m + x;
          bool in = z < n && y < n && x < n;
          if (bad < 0 && a[i] != (in ? value(tag, i) : -1.0))
            bad = i;
          if (badb < 0 && b[i] != (in ? value(tag + 1, i) : -1.0))
            badb = i;
        }
    CHECK(bad < 0 && badb < 0, "%s, n %d: cell %d of the first message is %g, "
          "cell %d of the second %g", way_name[w], n, bad, bad < 0 ? 0 : a[bad],
          badb, badb < 0 ? 0 : b[badb]);
    CHECK(plain[0] == tag, "%s, n %d: the plain message holds %d", way_name[w], n,
          plain[0]);
    int c0 = -1, c2 = -1;
    MPI_Get_count(&st[0], t, &c0);
    MPI_Get_count(&st[2], t, &c2);
    CHECK(st[0].MPI_SOURCE == 0 && st[0].MPI_TAG == tag + 1 && c0 == 1 &&
          st[2].MPI_SOURCE == 0 && st[2].MPI_TAG == tag && c2 == 1,
          "%s, n %d: statuses (source, tag, count) %d %d %d and %d %d %d", way_name[w],
          n, st[0].MPI_SOURCE, st[0].MPI_TAG, c0, st[2].MPI_SOURCE, st[2].MPI_TAG, c2);
  }
  MPI_Type_free(&t);
  free(a);
  free(b);
}

/* a derived-type receive nobody sends to, cancelled through PMPI_Cancel
   and completed through PMPI_Wait */
static void cancel(int n)
{
  if (sem_rank != 1)
    return;
  int m = n + 2, cells = m * m * m;
  MPI_Datatype t = pencil(n);
  double *a = malloc(sizeof(double) * (size_t)cells);
  for (int i = 0; i < cells; i++)
    a[i] = 5.0;
  MPI_Request q;
  MPI_Status st;
  OK(MPI_Irecv(a, 1, t, 0, 999, MPI_COMM_WORLD, &q));
  OK(PMPI_Cancel(&q));
  OK(PMPI_Wait(&q, &st));
  int cancelled = 0, bad = -1;
  MPI_Test_cancelled(&st, &cancelled);
  for (int i = 0; i < cells && bad < 0; i++)
    if (a[i] != 5.0)
      bad = i;
  CHECK(cancelled && bad < 0 && q == MPI_REQUEST_NULL,
        "PMPI_Cancel, n %d: cancelled %d, cell %d written", n, cancelled, bad);
  MPI_Type_free(&t);
  free(a);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  const int sizes[] = {3, 20, 36};
  for (int s = 0; s < 3; s++) {
    for (int w = 0; w < NWAYS; w++) {
      exchange(sizes[s], w);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    cancel(sizes[s]);
  }
  return sem_finish("sem_pmpi");
}
