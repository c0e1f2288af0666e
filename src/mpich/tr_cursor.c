/* A type's blocks in stream order, one walk for every caller: the
 * segment lists offset/length pairs a batch at a time, and the cursor
 * hands them out one by one or a batch at a time. */
#include "tr.h"

void dli_tr_cursor_start(dli_tr_cursor *c, dl_segment *s, size_t first, size_t end)
{
  c->seg = s;
  c->at = first;
  c->end = end;
  c->n = c->i = 0;
  c->rc = DL_OK;
}

/* the next listing of up to max blocks from c->at */
static bool refill(dli_tr_cursor *c, size_t max)
{
  if (c->rc != DL_OK || c->at >= c->end)
    return false;
  size_t last = c->end, got = 0;
  if (max == 0 || max > DLI_TR_CURSOR_BATCH)
    max = DLI_TR_CURSOR_BATCH;
  int rc = dl_segment_offlen(c->seg, c->at, &last, c->off, c->len, max, &got);
  if (rc == DL_OK && (last <= c->at || got == 0))
    rc = DL_ERR_ARG;                      /* no progress: a stream shorter than end */
  if (rc != DL_OK) {
    c->rc = rc;
    return false;
  }
  c->at = last;
  c->n = got;
  c->i = 0;
  return true;
}

bool dli_tr_cursor_next(dli_tr_cursor *c, int64_t *off, int64_t *len)
{
  if (c->i == c->n && !refill(c, 0))
    return false;
  *off = c->off[c->i];
  *len = c->len[c->i];
  c->i++;
  return true;
}

bool dli_tr_cursor_batch(dli_tr_cursor *c, size_t max, const int64_t **off,
                         const int64_t **len, size_t *n, size_t *last)
{
  if (c->i == c->n && !refill(c, max))
    return false;
  *off = c->off + c->i;
  *len = c->len + c->i;
  *n = c->n - c->i;
  *last = c->at;
  c->i = c->n;
  return true;
}

size_t dli_tr_count_blocks(dl_segment *s, size_t first, size_t end, size_t cap, int *rc,
                           size_t *upto, bool *forward)
{
  dli_tr_cursor c;
  dli_tr_cursor_start(&c, s, first, end);
  const int64_t *off, *len;
  size_t n = 0, got, last = first;
  bool rising = true;
  int64_t reached = INT64_MIN;
  while (n < cap && dli_tr_cursor_batch(&c, 0, &off, &len, &got, &last)) {
    for (size_t i = 0; forward && rising && i < got; i++) {
      rising = off[i] >= reached;
      reached = off[i] + len[i];
    }
    n += got;
  }
  if (rc)
    *rc = c.rc;
  if (upto)
    *upto = n < cap ? end : last;
  if (forward)
    *forward = rising;
  return c.rc == DL_OK ? n : cap;
}
