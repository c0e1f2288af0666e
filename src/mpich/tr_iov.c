/* iovec lists of a packed stream: by byte offset, by entry number, and
 * their lengths. */
#include <stdlib.h>
#include "tr.h"

/* a segment over (buf, count, t) and its stream size */
static int open_seg(const void *buf, dl_count count, const dl_type *t,
                    dl_segment **s, size_t *size)
{
  int rc = dl_segment_create((void *)buf, count, t, s);
  if (!rc)
    *size = dl_segment_size(*s);
  return rc;
}

/* entries of [first, *last) into iov; through offsets when buf is NULL,
   whose addresses the segment's iov call would refuse as unmovable */
static int list(dl_segment *s, const void *buf, size_t first, size_t *last,
                struct iovec *iov, size_t max, size_t *n)
{
  if (buf)
    return dl_segment_iov(s, first, last, iov, max, n);
  int64_t *o = malloc(2 * (max ? max : 1) * sizeof *o);
  if (!o)
    return DL_ERR_NOMEM;
  int rc = dl_segment_offlen(s, first, last, o, o + max, max, n);
  for (size_t i = 0; !rc && i < *n; i++)
    iov[i] = (struct iovec){(void *)(uintptr_t)o[i], (size_t)o[max + i]};
  free(o);
  return rc;
}

int dli_tr_iov(const void *buf, dl_count count, const dl_type *t, size_t first,
               size_t max_bytes, struct iovec *iov, size_t max_iov, size_t *n,
               size_t *bytes)
{
  dl_segment *s;
  size_t size;
  *n = *bytes = 0;
  int rc = open_seg(buf, count, t, &s, &size);
  if (rc)
    return rc;
  if (first < size && max_iov > 0) {
    size_t last = max_bytes > size - first ? size : first + max_bytes;
    rc = list(s, buf, first, &last, iov, max_iov, n);
    *bytes = last - first;
  }
  dl_segment_free(&s);
  return rc;
}

int dli_tr_iov_from(const void *buf, dl_count count, const dl_type *t,
                    size_t skip, struct iovec *iov, size_t max_iov, size_t *n)
{
  dl_segment *s;
  size_t size, at = 0;
  *n = 0;
  int rc = open_seg(buf, count, t, &s, &size);
  /* the byte where entry `skip` starts: batches of at most max_iov entries
     (each batch ends at a block boundary, so entries stay whole) */
  while (!rc && skip > 0 && at < size && max_iov > 0) {
    size_t last = size, k;
    rc = list(s, buf, at, &last, iov, skip < max_iov ? skip : max_iov, &k);
    skip -= k;
    at = last;
  }
  if (!rc && at < size && max_iov > 0) {
    size_t last = size;
    rc = list(s, buf, at, &last, iov, max_iov, n);
  }
  dl_segment_free(&s);
  return rc;
}

int dli_tr_iov_len(dl_count count, const dl_type *t, size_t max_bytes, size_t *n)
{
  dl_segment *s;
  size_t size;
  *n = 0;
  int rc = open_seg(NULL, count, t, &s, &size);
  if (rc)
    return rc;
  size_t last = max_bytes < size ? max_bytes : size;
  rc = dl_segment_iov_count(s, 0, &last, n);
  dl_segment_free(&s);
  return rc;
}
