/* Element-wise reductions over a layout (MPI's accumulate): the operation
 * runs once per block of whole elements where the layout keeps them whole,
 * and over a staged copy of the rest. */
#include <stdlib.h>
#include <string.h>
#include "tr.h"

typedef struct walk {
  const char *src;     /* the source element of packed byte 0 */
  size_t esize;        /* element bytes, dense (size == extent) */
  dli_tr_op_fn *fn;
  void *ctx;
} walk;

/* one block: whole elements starting at an element's start, else stop */
static bool block(walk *w, char *at, size_t pos, size_t len)
{
  if (pos % w->esize || len % w->esize)
    return false;
  w->fn(w->src + pos, at, (dl_count)(len / w->esize), w->ctx);
  return true;
}

static size_t on_contig(void *st, const dl_piece *p)
{
  return block(st, p->base, p->pos, p->blk) ? p->blk : 0;
}

static size_t on_blocks(void *st, const dl_piece *p)
{
  size_t done = 0;
  for (dl_count r = 0; r < p->reps; r++) {
    char *b = p->base + r * p->rep_stride;
    for (dl_count i = 0; i < p->count; i++) {
      char *at = b + (p->offs ? p->offs[i] : i * p->stride);
      size_t len = p->pre ? (size_t)(p->pre[i + 1] - p->pre[i]) : p->blk;
      if (len && !block(st, at, p->pos + done, len))
        return done;
      done += len;
    }
  }
  return done;
}

static const dl_action op_action = {on_contig, on_blocks, on_blocks, on_blocks};

/* packed bytes [first, last) of s, as elements of elem: packed, laid out
   at elem's extent, combined with src's, packed back and stored */
static int staged(dl_segment *s, size_t first, size_t last, const char *src,
                  const dl_type *elem, dl_count esize, dl_aint extent,
                  dli_tr_op_fn *fn, void *ctx)
{
  dl_count n = (dl_count)((last - first) / (size_t)esize);
  char *packed = malloc(last - first + 1), *laid = malloc((size_t)(n * extent) + 1);
  size_t end = last, pos = 0;
  int rc = packed && laid ? DL_OK : DL_ERR_NOMEM;
  if (!rc)
    rc = dl_segment_pack(s, first, &end, packed);
  if (!rc)
    rc = dl_unpack(packed, last - first, &pos, laid, n, elem);
  if (!rc) {
    fn(src + (first / (size_t)esize) * (size_t)extent, laid, n, ctx);
    pos = 0;
    rc = dl_pack(laid, n, elem, packed, last - first, &pos);
  }
  if (!rc)
    rc = dl_segment_unpack(s, first, &end, packed);
  free(packed);
  free(laid);
  return rc;
}

int dli_tr_apply(const void *src, dl_count nelem, const dl_type *elem, void *dst,
                 dl_count count, const dl_type *t, dli_tr_op_fn *fn, void *ctx)
{
  dl_count esize;
  dl_aint lb, extent;
  int rc, dense;
  if ((rc = dl_type_size(elem, &esize)) || (rc = dl_type_extent(elem, &lb, &extent)) ||
      (rc = dl_type_dense(1, elem, &dense, &lb)))
    return rc;
  if (esize <= 0 || nelem <= 0)
    return DL_OK;
  dl_segment *s;
  if ((rc = dl_segment_create(dst, count, t, &s)))
    return rc;
  size_t want;
  if (__builtin_mul_overflow((size_t)nelem, (size_t)esize, &want))
    want = SIZE_MAX;
  size_t last = want < dl_segment_size(s) ? want : dl_segment_size(s);
  last -= last % (size_t)esize;            /* whole elements only */
  size_t stop = 0;
  if (dense && extent == esize) {          /* blocks of whole elements */
    walk w = {src, (size_t)esize, fn, ctx};
    stop = last;
    rc = dl_segment_process(s, 0, &stop, &op_action, &w);
  }
  if (!rc && stop < last)                  /* split elements: staged */
    rc = staged(s, stop, last, src, elem, esize, extent, fn, ctx);
  dl_segment_free(&s);
  return rc;
}
