/* MPI judges a call's arguments before anything moves, and raises its
 * errors through the handler of the call's communicator, once: a send or
 * receive of an uncommitted type, or of a freed one (MPI_DATATYPE_NULL),
 * fails with MPI_ERR_TYPE and delivers nothing, and so do MPI_Pack,
 * MPI_Unpack and MPI_Pack_size of an uncommitted type; a bad peer, tag or count gets MPI_ERR_RANK, MPI_ERR_TAG or
 * MPI_ERR_COUNT (a sendrecv too, without waiting for anything); a
 * truncated blocking receive calls the handler of its own communicator
 * once with MPI_ERR_TRUNCATE (MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: a
 * call of its handler aborts the program), and a truncated nonblocking
 * one returns MPI_ERR_TRUNCATE from the completion call. */
#include "sem.h"

static int handler_calls, handler_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
  (void)comm;
  handler_calls++;
  handler_class = sem_class(*code);
}

/* a vector of n ints, every other one */
static MPI_Datatype vec(int n, int commit)
{
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 2, MPI_INT, &t);
  if (commit)
    MPI_Type_commit(&t);
  return t;
}

static void uncommitted(MPI_Comm c)
{
  int buf[64] = {0};
  MPI_Datatype raw = vec(8, 0), ok = vec(8, 1);
  if (sem_rank == 0) {
    int rc = MPI_Send(buf, 1, raw, 1, 1, c);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "send of an uncommitted type: class %d",
          sem_class(rc));
    MPI_Request q = MPI_REQUEST_NULL;
    rc = MPI_Isend(buf, 1, raw, 1, 1, c, &q);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "isend of an uncommitted type: class %d",
          sem_class(rc));
    rc = MPI_Ssend(buf, 2, raw, 1, 1, c);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "ssend of an uncommitted type: class %d",
          sem_class(rc));
    buf[0] = 42;
    OK(MPI_Send(buf, 1, ok, 1, 2, c));
  } else if (sem_rank == 1) {
    int rc = MPI_Recv(buf, 1, raw, 0, 1, c, MPI_STATUS_IGNORE);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "receive of an uncommitted type: class %d",
          sem_class(rc));
    MPI_Status st;
    OK(MPI_Recv(buf, 1, ok, 0, MPI_ANY_TAG, c, &st));
    CHECK(st.MPI_TAG == 2 && buf[0] == 42,
          "after sends of an uncommitted type: got tag %d, first int %d (tag 2, 42 sent)",
          st.MPI_TAG, buf[0]);
  }
  int other = 1 - sem_rank;
  if (sem_rank < 2) {
    int rc = MPI_Sendrecv(buf, 1, raw, other, 3, buf + 32, 1, ok, other, 3, c,
                          MPI_STATUS_IGNORE);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "sendrecv of an uncommitted type: class %d",
          sem_class(rc));
  }
  /* packing: MPI_ERR_TYPE with the position and both buffers as they
     were, also after sizes asked of the type (MPI_Pack_external_size
     takes an uncommitted type) */
  char packed[64];
  memset(packed, 7, sizeof packed);
  for (int i = 0; i < 16; i++)
    buf[i] = i;
#ifndef OMPI_MAJOR_VERSION   /* Open MPI 4.1's own crashes on an uncommitted type */
  MPI_Aint esize;
  OK(MPI_Pack_external_size("external32", 1, raw, &esize));
#endif
  for (int round = 0; round < 2; round++) {
    int pos = 4;
    int rc = MPI_Pack(buf, 1, raw, packed, (int)sizeof packed, &pos, c);
    CHECK(sem_class(rc) == MPI_ERR_TYPE && pos == 4 && packed[4] == 7 && packed[5] == 7,
          "pack of an uncommitted type: class %d, position %d, byte %d", sem_class(rc), pos,
          packed[4]);
    rc = MPI_Unpack(packed, (int)sizeof packed, &pos, buf, 1, raw, c);
    CHECK(sem_class(rc) == MPI_ERR_TYPE && pos == 4 && buf[0] == 0 && buf[2] == 2,
          "unpack of an uncommitted type: class %d, position %d, int %d", sem_class(rc), pos,
          buf[0]);
#ifndef OMPI_MAJOR_VERSION   /* Open MPI 4.1's own MPI_Pack_size of it crashes */
    int size = -1;
    rc = MPI_Pack_size(1, raw, c, &size);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "pack size of an uncommitted type: class %d",
          sem_class(rc));
#endif
  }
  MPI_Type_free(&raw);
  MPI_Type_free(&ok);
  /* a freed type's handle is MPI_DATATYPE_NULL: MPI_ERR_TYPE, nothing sent */
  MPI_Datatype gone = vec(8, 1);
  MPI_Type_free(&gone);
  if (sem_rank == 0) {
    int rc = MPI_Send(buf, 1, gone, 1, 5, c);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "send of MPI_DATATYPE_NULL: class %d",
          sem_class(rc));
    MPI_Request q = MPI_REQUEST_NULL;
    rc = MPI_Isend(buf, 1, gone, 1, 5, c, &q);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "isend of MPI_DATATYPE_NULL: class %d",
          sem_class(rc));
  } else if (sem_rank == 1) {
    int rc = MPI_Recv(buf, 1, gone, 0, 5, c, MPI_STATUS_IGNORE);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "receive of MPI_DATATYPE_NULL: class %d",
          sem_class(rc));
    MPI_Request q = MPI_REQUEST_NULL;
    rc = MPI_Irecv(buf, 1, gone, 0, 5, c, &q);
    CHECK(sem_class(rc) == MPI_ERR_TYPE, "irecv of MPI_DATATYPE_NULL: class %d",
          sem_class(rc));
  }
  MPI_Barrier(c);
}

static void bad_arguments(MPI_Comm c)
{
  int buf[64] = {0}, size;
  MPI_Comm_size(c, &size);
  MPI_Datatype t = vec(8, 1);
  int rc = MPI_Send(buf, 1, t, size, 4, c);
  CHECK(sem_class(rc) == MPI_ERR_RANK, "send to rank %d: class %d", size, sem_class(rc));
  rc = MPI_Recv(buf, 1, t, size + 3, 4, c, MPI_STATUS_IGNORE);
  CHECK(sem_class(rc) == MPI_ERR_RANK, "receive from rank %d: class %d", size + 3,
        sem_class(rc));
  rc = MPI_Sendrecv(buf, 1, t, size, 4, buf + 32, 1, t, size, 4, c, MPI_STATUS_IGNORE);
  CHECK(sem_class(rc) == MPI_ERR_RANK, "sendrecv with rank %d: class %d", size,
        sem_class(rc));
  rc = MPI_Send(buf, 1, t, 1 - (sem_rank & 1), -5, c);
  CHECK(sem_class(rc) == MPI_ERR_TAG, "send with tag -5: class %d", sem_class(rc));
  rc = MPI_Send(buf, -1, t, 1 - (sem_rank & 1), 4, c);
  CHECK(sem_class(rc) == MPI_ERR_COUNT, "send of count -1: class %d", sem_class(rc));
  MPI_Type_free(&t);
  MPI_Barrier(c);
}

static void truncation(MPI_Comm c)
{
  int buf[64] = {0}, small[64] = {0};
  MPI_Datatype big = vec(10, 1), little = vec(5, 1);
  if (sem_rank == 0) {
    OK(MPI_Send(buf, 1, big, 1, 5, c));
    OK(MPI_Send(buf, 1, big, 1, 6, c));
  } else if (sem_rank == 1) {
    handler_calls = 0;
    int rc = MPI_Recv(small, 1, little, 0, 5, c, MPI_STATUS_IGNORE);
    CHECK(sem_class(rc) == MPI_ERR_TRUNCATE, "truncated receive: class %d",
          sem_class(rc));
    CHECK(handler_calls == 1 && handler_class == MPI_ERR_TRUNCATE,
          "truncated receive: the communicator's handler called %d times (class %d)",
          handler_calls, handler_class);
    /* MPICH 4.0.2 raises a completion call's errors on MPI_COMM_WORLD */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request q;
    OK(MPI_Irecv(small, 1, little, 0, 6, c, &q));
    MPI_Status st;
    rc = MPI_Wait(&q, &st);
    CHECK(sem_class(rc) == MPI_ERR_TRUNCATE, "truncated nonblocking receive: class %d",
          sem_class(rc));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
  MPI_Type_free(&big);
  MPI_Type_free(&little);
  MPI_Barrier(c);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  MPI_Comm c, h;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  MPI_Comm_dup(MPI_COMM_WORLD, &h);
  MPI_Errhandler eh;
  MPI_Comm_create_errhandler(count_errors, &eh);
  MPI_Comm_set_errhandler(h, eh);
  uncommitted(c);
  bad_arguments(c);
  truncation(h);
  MPI_Errhandler_free(&eh);
  MPI_Comm_free(&h);
  MPI_Comm_free(&c);
  return sem_finish("sem_errors");
}
