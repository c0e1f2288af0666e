/* System calls: preadv/pwritev until done (EINTR and short transfers
 * retried, end of file noticed), and fcntl byte-range write locks. */
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>
#include "io.h"

static ssize_t posix_preadv(void *ctx, int fd, const struct iovec *iov, int n,
                            off_t off)
{
  (void)ctx;
  return preadv(fd, iov, n, off);
}

static ssize_t posix_pwritev(void *ctx, int fd, const struct iovec *iov, int n,
                             off_t off)
{
  (void)ctx;
  return pwritev(fd, iov, n, off);
}

static int posix_setlk(void *ctx, int fd, int cmd, struct flock *fl)
{
  (void)ctx;
  return fcntl(fd, cmd, fl);
}

const dli_io_ops dli_io_posix = {posix_preadv, posix_pwritev, posix_setlk, NULL};

/* drops the first k bytes of iov[*i, n) */
static void advance(struct iovec *iov, size_t n, size_t *i, size_t k)
{
  while (k > 0 && *i < n) {
    if (k >= iov[*i].iov_len) {
      k -= iov[*i].iov_len;
      (*i)++;
    } else {
      iov[*i].iov_base = (char *)iov[*i].iov_base + k;
      iov[*i].iov_len -= k;
      k = 0;
    }
  }
  while (*i < n && iov[*i].iov_len == 0)
    (*i)++;
}

int dli_io_full(dli_req *r, bool write, struct iovec *iov, size_t n, int64_t off,
                size_t *done, bool *eof)
{
  const dli_io_ops *o = &r->v->ops;
  size_t i = 0;
  *done = 0;
  if (eof)
    *eof = false;
  advance(iov, n, &i, 0);
  while (i < n) {
    int cnt = (int)(n - i);         /* n <= sys_iov_max <= IOV_MAX */
    off_t at = (off_t)(off + (int64_t)*done);
    ssize_t k = write ? o->pwritev(o->ctx, r->v->fd, iov + i, cnt, at)
                         : o->preadv(o->ctx, r->v->fd, iov + i, cnt, at);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return DL_ERR_IO;
    if (k == 0) {
      if (!write) {
        *eof = true;                /* nothing at or past this offset */
        return DL_OK;
      }
      errno = EIO;                  /* a write that makes no progress */
      return DL_ERR_IO;
    }
    *done += (size_t)k;
    advance(iov, n, &i, (size_t)k);
  }
  return DL_OK;
}

static int setlk(dli_req *r, short type, int cmd, int64_t lo, int64_t hi)
{
  struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = (off_t)lo,
                     .l_len = (off_t)(hi - lo)};
  const dli_io_ops *o = &r->v->ops;
  int rc;
  do
    rc = o->setlk(o->ctx, r->v->fd, cmd, &fl);
  while (rc < 0 && errno == EINTR);
  return rc;
}

bool dli_io_lock(dli_req *r, int64_t lo, int64_t hi)
{
  return hi > lo && setlk(r, F_WRLCK, F_SETLKW, lo, hi) == 0;
}

void dli_io_unlock(dli_req *r, int64_t lo, int64_t hi)
{
  int keep = errno;                 /* the caller may be reporting an error */
  if (hi > lo)
    setlk(r, F_UNLCK, F_SETLK, lo, hi);
  errno = keep;
}
