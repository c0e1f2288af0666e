/* The mpif.h and `use mpi` entry points of the calls the interposer
 * serves, for a host whose Fortran bindings call the PMPI_ names (Open
 * MPI's libmpi_mpifh: its mpi_send_ calls PMPI_Send, which no interposer
 * of MPI_Send sees; MPICH's libmpichfort calls the MPI_ names and needs
 * none of this). Each converts its arguments as the host's own binding
 * does (handles by the host's f2c and c2f, MPI_BOTTOM and
 * MPI_STATUS_IGNORE by the host's Fortran sentinels, LOGICAL as 1 and 0,
 * character arguments blank-padded with their length last) and calls the
 * C entry point, the interposer's: the host judges the arguments there as
 * for a C caller. The completion calls need no entry points here: the
 * host's bindings call PMPI_Wait and the like, which the interposer
 * serves (request/complete.c). Every name in the four spellings Fortran
 * compilers use: mpi_send_, mpi_send__, mpi_send, MPI_SEND. */
#include "fortran.h"

/* ---- blocking sends ---- */
#define BLOCKING_SEND(l, U, call)                                                      \
  void l##_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *tag,   \
            MPI_Fint *comm, MPI_Fint *ierr);                                           \
  void l##_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *dest, MPI_Fint *tag,   \
            MPI_Fint *comm, MPI_Fint *ierr)                                            \
  {                                                                                    \
    *ierr = call(fbuf(buf), *count, T(dt), *dest, *tag, C(comm));                      \
  }                                                                                    \
  SPELLINGS(l, U)
BLOCKING_SEND(mpi_send, MPI_SEND, MPI_Send);
BLOCKING_SEND(mpi_bsend, MPI_BSEND, MPI_Bsend);
BLOCKING_SEND(mpi_ssend, MPI_SSEND, MPI_Ssend);
BLOCKING_SEND(mpi_rsend, MPI_RSEND, MPI_Rsend);

/* ---- nonblocking and persistent sends and receives: a request out ---- */
#define REQUEST_CALL(l, U, call)                                                       \
  void l##_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *peer, MPI_Fint *tag,   \
            MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr);                            \
  void l##_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *peer, MPI_Fint *tag,   \
            MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr)                             \
  {                                                                                    \
    MPI_Request r;                                                                     \
    *ierr = req_out(call(fbuf(buf), *count, T(dt), *peer, *tag, C(comm), &r), &r, req); \
  }                                                                                    \
  SPELLINGS(l, U)
REQUEST_CALL(mpi_isend, MPI_ISEND, MPI_Isend);
REQUEST_CALL(mpi_ibsend, MPI_IBSEND, MPI_Ibsend);
REQUEST_CALL(mpi_issend, MPI_ISSEND, MPI_Issend);
REQUEST_CALL(mpi_irsend, MPI_IRSEND, MPI_Irsend);
REQUEST_CALL(mpi_irecv, MPI_IRECV, MPI_Irecv);
REQUEST_CALL(mpi_send_init, MPI_SEND_INIT, MPI_Send_init);
REQUEST_CALL(mpi_bsend_init, MPI_BSEND_INIT, MPI_Bsend_init);
REQUEST_CALL(mpi_ssend_init, MPI_SSEND_INIT, MPI_Ssend_init);
REQUEST_CALL(mpi_rsend_init, MPI_RSEND_INIT, MPI_Rsend_init);
REQUEST_CALL(mpi_recv_init, MPI_RECV_INIT, MPI_Recv_init);

/* ---- receives ---- */
void mpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *source, MPI_Fint *tag,
               MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr);
void mpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *source, MPI_Fint *tag,
               MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  *ierr = MPI_Recv(fbuf(buf), *count, T(dt), *source, *tag, C(comm), st);
  if (*ierr == MPI_SUCCESS)
    STATUS_OUT(status, st);
}
SPELLINGS(mpi_recv, MPI_RECV);

void mpi_sendrecv_(void *sbuf, MPI_Fint *scount, MPI_Fint *stype, MPI_Fint *dest,
                   MPI_Fint *stag, void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
                   MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *status,
                   MPI_Fint *ierr);
void mpi_sendrecv_(void *sbuf, MPI_Fint *scount, MPI_Fint *stype, MPI_Fint *dest,
                   MPI_Fint *stag, void *rbuf, MPI_Fint *rcount, MPI_Fint *rtype,
                   MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm, MPI_Fint *status,
                   MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  *ierr = MPI_Sendrecv(fbuf(sbuf), *scount, T(stype), *dest, *stag, fbuf(rbuf), *rcount,
                       T(rtype), *source, *rtag, C(comm), st);
  if (*ierr == MPI_SUCCESS)
    STATUS_OUT(status, st);
}
SPELLINGS(mpi_sendrecv, MPI_SENDRECV);

void mpi_sendrecv_replace_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *dest,
                           MPI_Fint *stag, MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm,
                           MPI_Fint *status, MPI_Fint *ierr);
void mpi_sendrecv_replace_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *dest,
                           MPI_Fint *stag, MPI_Fint *source, MPI_Fint *rtag, MPI_Fint *comm,
                           MPI_Fint *status, MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  *ierr = MPI_Sendrecv_replace(fbuf(buf), *count, T(dt), *dest, *stag, *source, *rtag,
                               C(comm), st);
  if (*ierr == MPI_SUCCESS)
    STATUS_OUT(status, st);
}
SPELLINGS(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE);

/* ---- probes and matched receives (the interposer's own message
   handles, in pipeline mode, by dlp_message_c2f) ---- */
void mpi_probe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                MPI_Fint *ierr);
void mpi_probe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  *ierr = MPI_Probe(*source, *tag, C(comm), st);
  if (*ierr == MPI_SUCCESS)
    STATUS_OUT(status, st);
}
SPELLINGS(mpi_probe, MPI_PROBE);

void mpi_iprobe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag,
                 MPI_Fint *status, MPI_Fint *ierr);
void mpi_iprobe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag,
                 MPI_Fint *status, MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  int f = 0;
  *ierr = MPI_Iprobe(*source, *tag, C(comm), &f, st);
  if (*ierr == MPI_SUCCESS) {
    *flag = f ? 1 : 0;
    if (f)
      STATUS_OUT(status, st);
  }
}
SPELLINGS(mpi_iprobe, MPI_IPROBE);

void mpi_mprobe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                 MPI_Fint *status, MPI_Fint *ierr);
void mpi_mprobe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                 MPI_Fint *status, MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  MPI_Message m;
  *ierr = MPI_Mprobe(*source, *tag, C(comm), &m, st);
  if (*ierr == MPI_SUCCESS) {
    *message = dlp_message_c2f(m);
    STATUS_OUT(status, st);
  }
}
SPELLINGS(mpi_mprobe, MPI_MPROBE);

void mpi_improbe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag,
                  MPI_Fint *message, MPI_Fint *status, MPI_Fint *ierr);
void mpi_improbe_(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *flag,
                  MPI_Fint *message, MPI_Fint *status, MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  MPI_Message m;
  int f = 0;
  *ierr = MPI_Improbe(*source, *tag, C(comm), &f, &m, st);
  if (*ierr == MPI_SUCCESS) {
    *flag = f ? 1 : 0;
    if (f) {
      *message = dlp_message_c2f(m);
      STATUS_OUT(status, st);
    }
  }
}
SPELLINGS(mpi_improbe, MPI_IMPROBE);

void mpi_mrecv_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *message,
                MPI_Fint *status, MPI_Fint *ierr);
void mpi_mrecv_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *message,
                MPI_Fint *status, MPI_Fint *ierr)
{
  STATUS_IN(status, st);
  MPI_Message m = dlp_message_f2c(*message);
  *ierr = MPI_Mrecv(fbuf(buf), *count, T(dt), &m, st);
  if (*ierr == MPI_SUCCESS) {
    *message = PMPI_Message_c2f(m);
    STATUS_OUT(status, st);
  }
}
SPELLINGS(mpi_mrecv, MPI_MRECV);

void mpi_imrecv_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *message,
                 MPI_Fint *req, MPI_Fint *ierr);
void mpi_imrecv_(void *buf, MPI_Fint *count, MPI_Fint *dt, MPI_Fint *message,
                 MPI_Fint *req, MPI_Fint *ierr)
{
  MPI_Message m = dlp_message_f2c(*message);
  MPI_Request r;
  *ierr = req_out(MPI_Imrecv(fbuf(buf), *count, T(dt), &m, &r), &r, req);
  if (*ierr == MPI_SUCCESS)
    *message = PMPI_Message_c2f(m);
}
SPELLINGS(mpi_imrecv, MPI_IMRECV);

/* ---- packing ---- */
void mpi_pack_(void *in, MPI_Fint *incount, MPI_Fint *dt, void *out, MPI_Fint *outsize,
               MPI_Fint *position, MPI_Fint *comm, MPI_Fint *ierr);
void mpi_pack_(void *in, MPI_Fint *incount, MPI_Fint *dt, void *out, MPI_Fint *outsize,
               MPI_Fint *position, MPI_Fint *comm, MPI_Fint *ierr)
{
  int pos = *position;
  *ierr = MPI_Pack(fbuf(in), *incount, T(dt), out, *outsize, &pos, C(comm));
  if (*ierr == MPI_SUCCESS)
    *position = pos;
}
SPELLINGS(mpi_pack, MPI_PACK);

void mpi_unpack_(void *in, MPI_Fint *insize, MPI_Fint *position, void *out,
                 MPI_Fint *outcount, MPI_Fint *dt, MPI_Fint *comm, MPI_Fint *ierr);
void mpi_unpack_(void *in, MPI_Fint *insize, MPI_Fint *position, void *out,
                 MPI_Fint *outcount, MPI_Fint *dt, MPI_Fint *comm, MPI_Fint *ierr)
{
  int pos = *position;
  *ierr = MPI_Unpack(in, *insize, &pos, fbuf(out), *outcount, T(dt), C(comm));
  if (*ierr == MPI_SUCCESS)
    *position = pos;
}
SPELLINGS(mpi_unpack, MPI_UNPACK);

void mpi_pack_size_(MPI_Fint *incount, MPI_Fint *dt, MPI_Fint *comm, MPI_Fint *size,
                    MPI_Fint *ierr);
void mpi_pack_size_(MPI_Fint *incount, MPI_Fint *dt, MPI_Fint *comm, MPI_Fint *size,
                    MPI_Fint *ierr)
{
  int n = 0;
  *ierr = MPI_Pack_size(*incount, T(dt), C(comm), &n);
  if (*ierr == MPI_SUCCESS)
    *size = n;
}
SPELLINGS(mpi_pack_size, MPI_PACK_SIZE);

/* a data representation's name: longer than any the host knows is no
   name it knows either (the host refuses it) */
#define DATAREP(f, len, c) \
  char c[MPI_MAX_DATAREP_STRING + 2]; \
  fstring(f, len, c, sizeof(c))

void mpi_pack_external_(char *datarep, void *in, MPI_Fint *incount, MPI_Fint *dt, void *out,
                        MPI_Aint *outsize, MPI_Aint *position, MPI_Fint *ierr, size_t len);
void mpi_pack_external_(char *datarep, void *in, MPI_Fint *incount, MPI_Fint *dt, void *out,
                        MPI_Aint *outsize, MPI_Aint *position, MPI_Fint *ierr, size_t len)
{
  DATAREP(datarep, len, rep);
  *ierr = MPI_Pack_external(rep, fbuf(in), *incount, T(dt), out, *outsize, position);
}
SPELLINGS(mpi_pack_external, MPI_PACK_EXTERNAL);

void mpi_unpack_external_(char *datarep, void *in, MPI_Aint *insize, MPI_Aint *position,
                          void *out, MPI_Fint *outcount, MPI_Fint *dt, MPI_Fint *ierr,
                          size_t len);
void mpi_unpack_external_(char *datarep, void *in, MPI_Aint *insize, MPI_Aint *position,
                          void *out, MPI_Fint *outcount, MPI_Fint *dt, MPI_Fint *ierr,
                          size_t len)
{
  DATAREP(datarep, len, rep);
  *ierr = MPI_Unpack_external(rep, in, *insize, position, fbuf(out), *outcount, T(dt));
}
SPELLINGS(mpi_unpack_external, MPI_UNPACK_EXTERNAL);

void mpi_pack_external_size_(char *datarep, MPI_Fint *incount, MPI_Fint *dt, MPI_Aint *size,
                             MPI_Fint *ierr, size_t len);
void mpi_pack_external_size_(char *datarep, MPI_Fint *incount, MPI_Fint *dt, MPI_Aint *size,
                             MPI_Fint *ierr, size_t len)
{
  DATAREP(datarep, len, rep);
  *ierr = MPI_Pack_external_size(rep, *incount, T(dt), size);
}
SPELLINGS(mpi_pack_external_size, MPI_PACK_EXTERNAL_SIZE);

/* ---- the other calls the interposer takes over ---- */
void mpi_type_commit_(MPI_Fint *dt, MPI_Fint *ierr);
void mpi_type_commit_(MPI_Fint *dt, MPI_Fint *ierr)
{
  MPI_Datatype t = T(dt);
  *ierr = MPI_Type_commit(&t);
}
SPELLINGS(mpi_type_commit, MPI_TYPE_COMMIT);

void mpi_comm_free_(MPI_Fint *comm, MPI_Fint *ierr);
void mpi_comm_free_(MPI_Fint *comm, MPI_Fint *ierr)
{
  MPI_Comm c = C(comm);
  *ierr = MPI_Comm_free(&c);
  if (*ierr == MPI_SUCCESS)
    *comm = PMPI_Comm_c2f(c);
}
SPELLINGS(mpi_comm_free, MPI_COMM_FREE);

void mpi_error_class_(MPI_Fint *code, MPI_Fint *cls, MPI_Fint *ierr);
void mpi_error_class_(MPI_Fint *code, MPI_Fint *cls, MPI_Fint *ierr)
{
  int c = 0;
  *ierr = MPI_Error_class(*code, &c);
  if (*ierr == MPI_SUCCESS)
    *cls = c;
}
SPELLINGS(mpi_error_class, MPI_ERROR_CLASS);

/* the counts a run reports (report.c) are written in these */
void mpi_finalize_(MPI_Fint *ierr);
void mpi_finalize_(MPI_Fint *ierr)
{
  *ierr = MPI_Finalize();
}
SPELLINGS(mpi_finalize, MPI_FINALIZE);

void mpi_abort_(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr);
void mpi_abort_(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr)
{
  *ierr = MPI_Abort(C(comm), *code);
}
SPELLINGS(mpi_abort, MPI_ABORT);
