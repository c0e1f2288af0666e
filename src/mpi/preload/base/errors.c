/* Errors the interposer detects itself go where MPICH's would: through the
 * communicator's error handler, as an MPI error class, or as an error code
 * whose MPI_Error_string names the call and the reason and whose
 * MPI_Error_class (intercepted here) is the standard class. */
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include "base.h"
#include "../../../../dataloop/loop.h"
#include "../../errclass.h"

int dlp_raise(MPI_Comm comm, int code)
{
  DLP_TRACE("error: class %d", dlp_class(code));
  PMPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
  return code;
}

/* MPI has no way to attach a string to one occurrence of an error, so
   each distinct (class, message) gets its own code, made once under the
   lock. DLP_DEV_ADDED_CODE_STRING: MPICH garbles the string of a code
   added to a predefined class (MPI_Add_error_code(MPI_ERR_ARG, ...):
   MPI_Error_string reads some other message), so each message gets a
   class of its own (on every host: it works on any), which is also
   its code, and MPI_Error_class (intercepted below) maps it back to the
   standard class. The table is bounded so that endless distinct messages
   (datarep names are the caller's) cannot grow MPI's tables without end;
   past it the bare standard class is returned. */
#define MAX_CODES 64
#define MSG_BYTES 256
static struct {
  int cls, code;
  char msg[MSG_BYTES];
} codes[MAX_CODES];
static int ncodes;
static pthread_mutex_t codes_lock = PTHREAD_MUTEX_INITIALIZER;

static int code_for(int cls, const char *msg)
{
  int code = cls;
  pthread_mutex_lock(&codes_lock);
  int i = 0;
  while (i < ncodes && (codes[i].cls != cls || strcmp(codes[i].msg, msg) != 0))
    i++;
  if (i < ncodes) {
    code = codes[i].code;
  } else if (ncodes < MAX_CODES) {
    int c;
    if (PMPI_Add_error_class(&c) == MPI_SUCCESS &&
        PMPI_Add_error_string(c, msg) == MPI_SUCCESS) {
      codes[ncodes].cls = cls;
      codes[ncodes].code = c;
      snprintf(codes[ncodes].msg, MSG_BYTES, "%s", msg);
      ncodes++;
      code = c;
    }
  }
  pthread_mutex_unlock(&codes_lock);
  return code;
}

/* the standard class of one of our codes, or -1 */
static int our_class(int code)
{
  int cls = -1;
  pthread_mutex_lock(&codes_lock);
  for (int i = 0; i < ncodes && cls < 0; i++)
    if (codes[i].code == code)
      cls = codes[i].cls;
  pthread_mutex_unlock(&codes_lock);
  return cls;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
  int cls = errorclass ? our_class(errorcode) : -1;
  if (cls < 0)
    return PMPI_Error_class(errorcode, errorclass);
  *errorclass = cls;
  return MPI_SUCCESS;
}

static int code_vf(int cls, const char *fmt, va_list ap)
{
  char msg[MSG_BYTES];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  return code_for(cls, msg);
}

int dlp_raise_msg(MPI_Comm comm, int cls, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int code = code_vf(cls, fmt, ap);
  va_end(ap);
  return dlp_raise(comm, code);
}

int dlp_raise_win_msg(MPI_Win win, int cls, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int code = code_vf(cls, fmt, ap);
  va_end(ap);
  DLP_TRACE("error: class %d", cls);
  PMPI_Win_call_errhandler(win, code);
  return code;
}

int dlp_raise_dl(MPI_Comm comm, const char *call, int cls, int dlrc)
{
  const char *why = dl_last_error_detail();
  return dlp_raise_msg(comm, cls, "%s: %s", call,
                       why[0] ? why : dl_strerror(dlrc));
}

void dlp_detail_clear(void)
{
  dli_detail_clear();
}

int dlp_class_of(int dlrc)
{
  return dli_mpi_class_of(dlrc);
}

int dlp_class(int code)
{
  int cls;
  return MPI_Error_class(code, &cls) == MPI_SUCCESS ? cls : MPI_ERR_UNKNOWN;
}
