/* MPI_Pack, MPI_Unpack and MPI_Pack_size (and their _c forms) through
 * dataloop, with MPI semantics: position is a byte offset in the packed
 * buffer, advanced by the bytes moved; the stream is the native packed
 * stream, so the host can send it as MPI_PACKED. The host judges a call
 * first (the same call of count 0, at a type's first use in this thread:
 * an uncommitted type gets its error, through its handler). MPI_BOTTOM is
 * a valid buffer (MPICH's own MPI_Pack rejects it). A packed buffer too
 * small for the data is the host's to judge (short_for_host), but where
 * the host moves what fits and reports success (MPICH 4.0.2): there
 * MPI_ERR_TRUNCATE, with what fits moved and position advanced over it.
 * Arguments that are not the interposer's to judge (negative counts, a
 * null type, a bad position) go to the host unchanged, so its own error
 * reporting applies. */
#include <limits.h>
#include "../base/base.h"
#include "../base/host.h"

/* the outcome of a dataloop call as an MPI return code; errors name call */
static int outcome(MPI_Comm comm, const char *call, int dlrc)
{
  /* the arguments were judged: DL_ERR_ARG is a NULL (MPI_BOTTOM) buffer
     whose data would lie in the first page */
  int cls = dlrc == DL_ERR_ARG ? MPI_ERR_BUFFER : dlp_class_of(dlrc);
  return dlrc == DL_OK ? MPI_SUCCESS : dlp_raise_dl(comm, call, cls, dlrc);
}

/* dlp_data_get with errors that name call (the detail cleared first, so
   that only this call's reason is reported) */
static int data(const char *call, const void *buf, MPI_Count count,
                MPI_Datatype dt, MPI_Comm comm, dlp_data *d)
{
  dlp_detail_clear();
  int rc = dlp_data_get(buf, count, dt, d);
  if (rc && rc != DLP_PASS)
    return dlp_raise_dl(comm, call, rc, DL_OK);
  return rc;
}

/* the derived type this thread's host last judged a call of (below) */
static _Thread_local MPI_Datatype judged = MPI_DATATYPE_NULL;

/* the dataloop form of (count, dt): the type this thread used last at
   once, when the host judged a call of it (dl_pack checks the rest); else
   the type is described in full and the host judges the call (judge: the
   same call of count 0, which checks every argument, the type's commit
   among them, and moves nothing; an error it raises stands) */
static int type_of(const char *call, const void *buf, MPI_Count count, MPI_Datatype dt,
                   MPI_Comm comm, int (*judge)(const void *args, const dlp_data *d),
                   const void *args, dl_type **t)
{
  if (count >= 0 && dt == judged && (*t = dli_type_recent(dt))) {
    dlp_detail_clear();
    return MPI_SUCCESS;
  }
  dlp_data d;
  int rc = data(call, buf, count, dt, comm, &d);
  *t = d.t;
  if (rc == MPI_SUCCESS)
    rc = judge(args, &d);
  if (rc == MPI_SUCCESS)
    judged = dt;
  return rc;
}

/* the arguments of a pack or unpack, for its judge */
typedef struct call_args {
  const void *in;
  void *out;
  MPI_Count size;
  MPI_Count position;
  MPI_Datatype dt;
  MPI_Comm comm;
} call_args;

static int judge_pack(const void *args, const dlp_data *d)
{
  (void)d;
  const call_args *a = args;
  MPI_Count p = a->position;
  return PMPI_Pack_c(a->in, 0, a->dt, a->out, a->size, &p, a->comm);
}

/* from an empty packed buffer (MPICH 4.0.2 divides by zero unpacking an
   empty type from bytes, test_preload's unpack_empty_type); and where
   MPICH's engine mishandles the type (it divides by zero on some of those
   whatever the count) a pack of nothing judges the type and communicator
   instead */
static int judge_unpack(const void *args, const dlp_data *d)
{
  const call_args *a = args;
  MPI_Count p = 0;
  return d->engine_ok ? PMPI_Unpack_c(a->in, 0, &p, a->out, 0, a->dt, a->comm)
                      : dlp_host_judges(a->out, a->dt, a->comm);
}

/* whether (count, t) needs more than room bytes of packed buffer on a
   host that refuses such a call itself (Open MPI: MPI_ERR_TRUNCATE with
   nothing moved and the position as it was): the host then has the call
   as made. Where the host moves what fits and says nothing
   (DLP_DEV_SHORT_BUFFER_SUCCEEDS), the interposer moves what fits and
   says MPI_ERR_TRUNCATE. */
static bool short_for_host(MPI_Count count, const dl_type *t, MPI_Count room)
{
  size_t need;
  return dl_pack_size(count, t, &need) == DL_OK && need > (size_t)room &&
         !dlp_host_has(DLP_DEV_SHORT_BUFFER_SUCCEEDS);
}

static int pack(const char *call, const void *in, MPI_Count incount, MPI_Datatype dt, void *out,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
  if (!position || comm == MPI_COMM_NULL || outsize < 0 || *position < 0 || *position > outsize ||
      (!out && outsize > 0))
    return DLP_PASS;
  dl_type *t;
  call_args a = {in, out, outsize, *position, dt, comm};
  int rc = type_of(call, in, incount, dt, comm, judge_pack, &a, &t);
  if (rc)
    return rc;
  if (short_for_host(incount, t, outsize - *position))
    return DLP_PASS;
  dlp_count(DLP_N_PACK);
  size_t pos = (size_t)*position;
  rc = dl_pack(in, incount, t, out, (size_t)outsize, &pos);
  *position = (MPI_Count)pos;
  return outcome(comm, call, rc);
}

static int unpack(const char *call, const void *in, MPI_Count insize, MPI_Count *position,
                  void *out, MPI_Count outcount, MPI_Datatype dt, MPI_Comm comm)
{
  if (!position || comm == MPI_COMM_NULL || insize < 0 || *position < 0 || *position > insize ||
      (!in && insize > 0))
    return DLP_PASS;
  dl_type *t;
  call_args a = {in, out, insize, *position, dt, comm};
  int rc = type_of(call, out, outcount, dt, comm, judge_unpack, &a, &t);
  if (rc)
    return rc;
  if (short_for_host(outcount, t, insize - *position))
    return DLP_PASS;
  dlp_count(DLP_N_UNPACK);
  size_t pos = (size_t)*position;
  rc = dl_unpack(in, (size_t)insize, &pos, out, outcount, t);
  *position = (MPI_Count)pos;
  return outcome(comm, call, rc);
}


static int pack_size(const char *call, MPI_Count count, MPI_Datatype dt, MPI_Comm comm,
                     MPI_Count *size)
{
  if (!size || comm == MPI_COMM_NULL)
    return DLP_PASS;
  /* the host judges the type (its commit among the rest) on count 0 */
  int n0, rc = PMPI_Pack_size(0, dt, comm, &n0);
  if (rc != MPI_SUCCESS)
    return rc;
  dlp_data d;
  rc = data(call, NULL, count, dt, comm, &d);
  if (rc)
    return rc;
  *size = (MPI_Count)d.bytes;
  return MPI_SUCCESS;
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
             int outsize, int *position, MPI_Comm comm)
{
  MPI_Count pos = position ? *position : 0;
  int rc = pack("MPI_Pack", inbuf, incount, datatype, outbuf, outsize,
                position ? &pos : NULL, comm);
  if (rc == DLP_PASS)
    return PMPI_Pack(inbuf, incount, datatype, outbuf, outsize, position, comm);
  *position = (int)pos;           /* pos <= outsize */
  return rc;
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
               void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
  int rc = pack("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize,
                position, comm);
  if (rc == DLP_PASS)
    return PMPI_Pack_c(inbuf, incount, datatype, outbuf, outsize, position, comm);
  return rc;
}
#endif

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
               int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
  MPI_Count pos = position ? *position : 0;
  int rc = unpack("MPI_Unpack", inbuf, insize, position ? &pos : NULL, outbuf,
                  outcount, datatype, comm);
  if (rc == DLP_PASS)
    return PMPI_Unpack(inbuf, insize, position, outbuf, outcount, datatype, comm);
  *position = (int)pos;           /* pos <= insize */
  return rc;
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position,
                 void *outbuf, MPI_Count outcount, MPI_Datatype datatype,
                 MPI_Comm comm)
{
  int rc = unpack("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount,
                  datatype, comm);
  if (rc == DLP_PASS)
    return PMPI_Unpack_c(inbuf, insize, position, outbuf, outcount, datatype, comm);
  return rc;
}
#endif

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
  MPI_Count n = 0;
  int rc = size ? pack_size("MPI_Pack_size", incount, datatype, comm, &n)
                : DLP_PASS;
  if (rc == DLP_PASS)
    return PMPI_Pack_size(incount, datatype, comm, size);
  if (rc == MPI_SUCCESS)          /* as MPI-4: too large for an int */
    *size = n > INT_MAX ? MPI_UNDEFINED : (int)n;
  return rc;
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm,
                    MPI_Count *size)
{
  int rc = pack_size("MPI_Pack_size_c", incount, datatype, comm, size);
  if (rc == DLP_PASS)
    return PMPI_Pack_size_c(incount, datatype, comm, size);
  return rc;
}
#endif
