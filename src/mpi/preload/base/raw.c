/* Sends and receives in MPICH's int form, or its _c form when the count
 * does not fit an int (messages of 2^31 bytes and more). */
#include <limits.h>
#include "base.h"

int dlp_send_as(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, int mode)
{
  if (count <= INT_MAX) {
    int n = (int)count;
    switch (mode) {
    case DLP_SYNC: return PMPI_Ssend(buf, n, dt, dest, tag, comm);
    case DLP_READY: return PMPI_Rsend(buf, n, dt, dest, tag, comm);
    case DLP_BUFFERED: return PMPI_Bsend(buf, n, dt, dest, tag, comm);
    default: return PMPI_Send(buf, n, dt, dest, tag, comm);
    }
  }
  switch (mode) {
  case DLP_SYNC: return PMPI_Ssend_c(buf, count, dt, dest, tag, comm);
  case DLP_READY: return PMPI_Rsend_c(buf, count, dt, dest, tag, comm);
  case DLP_BUFFERED: return PMPI_Bsend_c(buf, count, dt, dest, tag, comm);
  default: return PMPI_Send_c(buf, count, dt, dest, tag, comm);
  }
}

int dlp_isend_as(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  if (count <= INT_MAX) {
    int n = (int)count;
    switch (mode) {
    case DLP_SYNC: return PMPI_Issend(buf, n, dt, dest, tag, comm, req);
    case DLP_READY: return PMPI_Irsend(buf, n, dt, dest, tag, comm, req);
    case DLP_BUFFERED: return PMPI_Ibsend(buf, n, dt, dest, tag, comm, req);
    default: return PMPI_Isend(buf, n, dt, dest, tag, comm, req);
    }
  }
  switch (mode) {
  case DLP_SYNC: return PMPI_Issend_c(buf, count, dt, dest, tag, comm, req);
  case DLP_READY: return PMPI_Irsend_c(buf, count, dt, dest, tag, comm, req);
  case DLP_BUFFERED: return PMPI_Ibsend_c(buf, count, dt, dest, tag, comm, req);
  default: return PMPI_Isend_c(buf, count, dt, dest, tag, comm, req);
  }
}

int dlp_recv_as(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                MPI_Comm comm, MPI_Status *st)
{
  if (count <= INT_MAX)
    return PMPI_Recv(buf, (int)count, dt, src, tag, comm, st);
  return PMPI_Recv_c(buf, count, dt, src, tag, comm, st);
}

int dlp_irecv_as(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                 MPI_Comm comm, MPI_Request *req)
{
  if (count <= INT_MAX)
    return PMPI_Irecv(buf, (int)count, dt, src, tag, comm, req);
  return PMPI_Irecv_c(buf, count, dt, src, tag, comm, req);
}

int dlp_imrecv_as(void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *msg,
                  MPI_Request *req)
{
  if (count <= INT_MAX)
    return PMPI_Imrecv(buf, (int)count, dt, msg, req);
  return PMPI_Imrecv_c(buf, count, dt, msg, req);
}

int dlp_send_init_as(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                     int tag, MPI_Comm comm, int mode, MPI_Request *req)
{
  if (count <= INT_MAX) {
    int n = (int)count;
    switch (mode) {
    case DLP_SYNC: return PMPI_Ssend_init(buf, n, dt, dest, tag, comm, req);
    case DLP_READY: return PMPI_Rsend_init(buf, n, dt, dest, tag, comm, req);
    case DLP_BUFFERED: return PMPI_Bsend_init(buf, n, dt, dest, tag, comm, req);
    default: return PMPI_Send_init(buf, n, dt, dest, tag, comm, req);
    }
  }
  switch (mode) {
  case DLP_SYNC: return PMPI_Ssend_init_c(buf, count, dt, dest, tag, comm, req);
  case DLP_READY: return PMPI_Rsend_init_c(buf, count, dt, dest, tag, comm, req);
  case DLP_BUFFERED: return PMPI_Bsend_init_c(buf, count, dt, dest, tag, comm, req);
  default: return PMPI_Send_init_c(buf, count, dt, dest, tag, comm, req);
  }
}

int dlp_recv_init_as(void *buf, MPI_Count count, MPI_Datatype dt, int src, int tag,
                     MPI_Comm comm, MPI_Request *req)
{
  return count <= INT_MAX ? PMPI_Recv_init(buf, (int)count, dt, src, tag, comm, req)
                          : PMPI_Recv_init_c(buf, count, dt, src, tag, comm, req);
}
