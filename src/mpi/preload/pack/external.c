/* MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size (and
 * their _c forms) through dataloop's external32. These calls name no
 * communicator, so their errors go to MPI_COMM_SELF's handler (MPI-4.0,
 * 9.3). A representation other than "external32" is the host's to judge
 * (MPICH 4.0.2 and Open MPI 4.1 pack it as external32, where the standard
 * knows no other): the host's call, unchanged; so is a type holding a
 * complex type the host packs otherwise (MPICH 4.0.2's Fortran complex
 * types: the bytes must be those a plain rank writes and reads). Where
 * MPICH 4.0.2 departs from the standard otherwise, dataloop does not: an
 * output buffer too small is MPI_ERR_TRUNCATE with what fits written (on
 * a host that judges a short buffer itself, the host's call), and structs
 * that mix basic types (on which MPICH aborts) follow the standard's
 * table. Arguments that are not the interposer's to judge (negative
 * counts, a null type, a bad position) go to the host unchanged. */
#include <string.h>
#include "../base/base.h"
#include "../base/host.h"

/* the representation this file serves; any other goes to the host */
static bool external32(const char *datarep)
{
  return datarep && strcmp(datarep, "external32") == 0;
}

/* MPI_SUCCESS, DLP_PASS, or an error already raised; errors name call */
static int judge(const char *call, const void *buf, MPI_Count count, MPI_Datatype dt,
                 dlp_data *d)
{
  dlp_detail_clear();
  int rc = dlp_data_get(buf, count, dt, d);
  if (rc)
    return rc == DLP_PASS ? rc : dlp_raise_dl(MPI_COMM_SELF, call, rc, DL_OK);
  return MPI_SUCCESS;
}

/* a type of elements of a complex type the host packs otherwise than
   the standard in external32 (DLP_DEV_EXTERNAL_COMPLEX_SWAPPED): the
   host's (a struct that mixes it with other types MPICH 4.0.2 cannot
   pack at all: it aborts, so dataloop packs that one) */
static bool complex_for_host(MPI_Datatype dt)
{
  dl_type *t;
  dli_mpi_info info;
  return dlp_host_has(DLP_DEV_EXTERNAL_COMPLEX_SWAPPED) &&
         dli_type_from_mpi_info(dt, &t, &info) == DL_OK && info.fcomplex &&
         info.basic != MPI_DATATYPE_NULL;
}

/* as pack.c's: a packed buffer too short on a host that judges it */
static bool short_for_host(const char *datarep, MPI_Count count, const dl_type *t,
                           MPI_Count room)
{
  size_t need;
  return dl_pack_external_size(datarep, count, t, &need) == DL_OK && need > (size_t)room &&
         !dlp_host_has(DLP_DEV_SHORT_BUFFER_SUCCEEDS);
}

static int outcome(const char *call, int dlrc)
{
  /* the arguments were judged: DL_ERR_ARG is a NULL (MPI_BOTTOM) buffer
     whose data would lie in the first page */
  int cls = dlrc == DL_ERR_ARG ? MPI_ERR_BUFFER : dlp_class_of(dlrc);
  return dlrc == DL_OK ? MPI_SUCCESS : dlp_raise_dl(MPI_COMM_SELF, call, cls, dlrc);
}

static int pack_ext(const char *call, const char *datarep, const void *in, MPI_Count incount,
                    MPI_Datatype dt, void *out, MPI_Count outsize,
                    MPI_Count *position)
{
  if (!external32(datarep) || !position || outsize < 0 || *position < 0 ||
      *position > outsize || (!out && outsize > 0))
    return DLP_PASS;
  /* the host judges the type first (a native pack of nothing: MPICH
     4.0.2's external32 dies on types whose native packing it survives) */
  int rc = dlp_host_judges(in, dt, MPI_COMM_SELF);
  if (rc != MPI_SUCCESS)
    return rc;
  dlp_data d;
  rc = judge(call, in, incount, dt, &d);
  if (rc)
    return rc;
  if (complex_for_host(dt) ||
      short_for_host(datarep, incount, d.t, outsize - *position))
    return DLP_PASS;
  dlp_count(DLP_N_PACK);
  size_t pos = (size_t)*position;
  rc = dl_pack_external(datarep, in, incount, d.t, out, (size_t)outsize, &pos);
  *position = (MPI_Count)pos;
  return outcome(call, rc);
}

static int unpack_ext(const char *call, const char *datarep, const void *in, MPI_Count insize,
                      MPI_Count *position, void *out, MPI_Count outcount,
                      MPI_Datatype dt)
{
  if (!external32(datarep) || !position || insize < 0 || *position < 0 ||
      *position > insize || (!in && insize > 0))
    return DLP_PASS;
  int rc = dlp_host_judges(out, dt, MPI_COMM_SELF);   /* as pack_ext */
  if (rc != MPI_SUCCESS)
    return rc;
  dlp_data d;
  rc = judge(call, out, outcount, dt, &d);
  if (rc)
    return rc;
  if (complex_for_host(dt) ||
      short_for_host(datarep, outcount, d.t, insize - *position))
    return DLP_PASS;
  dlp_count(DLP_N_UNPACK);
  size_t pos = (size_t)*position;
  rc = dl_unpack_external(datarep, in, (size_t)insize, &pos, out, outcount, d.t);
  *position = (MPI_Count)pos;
  return outcome(call, rc);
}

static int size_ext(const char *call, const char *datarep, MPI_Count count, MPI_Datatype dt,
                    MPI_Count *size)
{
  if (!external32(datarep) || !size)
    return DLP_PASS;
  dlp_data d;
  int rc = judge(call, NULL, count, dt, &d);
  if (rc)
    return rc;
  size_t n;
  rc = dl_pack_external_size(datarep, count, d.t, &n);
  if (rc == DL_OK)
    *size = (MPI_Count)n;
  return outcome(call, rc);
}

int MPI_Pack_external(const char *datarep, const void *inbuf, int incount,
                      MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                      MPI_Aint *position)
{
  MPI_Count pos = position ? *position : 0;
  int rc = pack_ext("MPI_Pack_external", datarep, inbuf, incount, datatype,
                    outbuf, outsize, position ? &pos : NULL);
  if (rc == DLP_PASS)
    return PMPI_Pack_external(datarep, inbuf, incount, datatype, outbuf, outsize,
                              position);
  *position = (MPI_Aint)pos;
  return rc;
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount,
                        MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                        MPI_Count *position)
{
  int rc = pack_ext("MPI_Pack_external_c", datarep, inbuf, incount, datatype,
                    outbuf, outsize, position);
  if (rc == DLP_PASS)
    return PMPI_Pack_external_c(datarep, inbuf, incount, datatype, outbuf, outsize,
                                position);
  return rc;
}
#endif

int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                        MPI_Aint *position, void *outbuf, int outcount,
                        MPI_Datatype datatype)
{
  MPI_Count pos = position ? *position : 0;
  int rc = unpack_ext("MPI_Unpack_external", datarep, inbuf, insize,
                      position ? &pos : NULL, outbuf, outcount, datatype);
  if (rc == DLP_PASS)
    return PMPI_Unpack_external(datarep, inbuf, insize, position, outbuf, outcount,
                                datatype);
  *position = (MPI_Aint)pos;
  return rc;
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                          MPI_Count *position, void *outbuf, MPI_Count outcount,
                          MPI_Datatype datatype)
{
  int rc = unpack_ext("MPI_Unpack_external_c", datarep, inbuf, insize, position,
                      outbuf, outcount, datatype);
  if (rc == DLP_PASS)
    return PMPI_Unpack_external_c(datarep, inbuf, insize, position, outbuf,
                                  outcount, datatype);
  return rc;
}
#endif

int MPI_Pack_external_size(const char *datarep, int incount, MPI_Datatype datatype,
                           MPI_Aint *size)
{
  MPI_Count n = 0;
  int rc = size ? size_ext("MPI_Pack_external_size", datarep, incount, datatype, &n)
                : DLP_PASS;
  if (rc == DLP_PASS)
    return PMPI_Pack_external_size(datarep, incount, datatype, size);
  if (rc == MPI_SUCCESS)
    *size = (MPI_Aint)n;
  return rc;
}

#if MPI_VERSION >= 4   /* MPI-4's large-count form */
int MPI_Pack_external_size_c(const char *datarep, MPI_Count incount,
                             MPI_Datatype datatype, MPI_Count *size)
{
  int rc = size_ext("MPI_Pack_external_size_c", datarep, incount, datatype, size);
  if (rc == DLP_PASS)
    return PMPI_Pack_external_size_c(datarep, incount, datatype, size);
  return rc;
}
#endif
