/* dl_strerror: a name for every status code. */
#include "loop.h"

const char *dl_strerror(int code)
{
  switch (code) {
  case DL_OK: return "success";
  case DL_ERR_ARG: return "invalid argument";
  case DL_ERR_NOMEM: return "out of memory";
  case DL_ERR_OVERFLOW: return "size or displacement overflows 64 bits";
  case DL_ERR_TRUNCATE: return "buffer too small: data truncated";
  case DL_ERR_NOT_COMMITTED: return "type not committed";
  case DL_ERR_UNSUPPORTED: return "operation not supported";
  case DL_ERR_CORRUPT: return "corrupt serialized type";
  case DL_ERR_BOUNDS: return "access outside the buffer bounds";
  case DL_ERR_IO: return "I/O error";
  default: return "unknown error code";
  }
}
