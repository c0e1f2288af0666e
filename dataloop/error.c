/* dl_strerror: a name for every status code; dl_last_error_detail: why the
   last detailed failure on this thread happened. */
#include <stdarg.h>
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

/* thread-local, so no locking and no thread sees another's reason; in the
   static TLS block (initial-exec), so that clearing it before each small
   MPI_Pack is a store, not a call to __tls_get_addr (192 bytes fit the
   surplus glibc keeps for libraries loaded later) */
static _Thread_local __attribute__((tls_model("initial-exec"))) char detail[192];

const char *dl_last_error_detail(void)
{
  return detail;
}

void dli_detail_clear(void)
{
  detail[0] = '\0';
}

int dli_fail(int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof(detail), fmt, ap);
  va_end(ap);
  return code;
}

/* Linux never maps the first page, so data there is a NULL buffer misused */
#define FIRST_PAGE 4096

int dli_check_bottom(const void *buf, dl_count count, const dl_type *t,
                     const char *call)
{
  if (buf || count == 0 || t->b.size == 0)
    return DL_OK;
  /* the lowest data byte of count copies, as an absolute address */
  dl_aint span, lo;
  if (__builtin_mul_overflow(count - 1, t->b.ub - t->b.lb, &span) ||
      __builtin_add_overflow(t->b.true_lb, span < 0 ? span : 0, &lo))
    return dli_fail(DL_ERR_OVERFLOW, "%s: the data's addresses overflow 64 bits",
                    call);
  if (lo < FIRST_PAGE)
    return dli_fail(DL_ERR_ARG, "%s: NULL buffer (absolute addresses, as "
                    "MPI_BOTTOM) but the data starts at address %lld, below "
                    "%d", call, (long long)lo, FIRST_PAGE);
  return DL_OK;
}

int dli_ctor_args(const char *call, dl_count count, dl_count blocklen,
                  const dl_type *old, bool need_old, dl_type *const *out)
{
  if (!out)
    return dli_fail(DL_ERR_ARG, "%s: NULL output pointer", call);
  if (need_old && !dli_type_valid(old))
    return dli_fail(DL_ERR_ARG, "%s: NULL or freed old type", call);
  if (count < 0)
    return dli_fail(DL_ERR_ARG, "%s: negative count %lld", call, (long long)count);
  if (blocklen < 0)
    return dli_fail(DL_ERR_ARG, "%s: negative block length %lld", call,
                    (long long)blocklen);
  return DL_OK;
}
