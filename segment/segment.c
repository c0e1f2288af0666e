/* Creating segments: count-time optimization and the preloaded stack. */
#include <stdlib.h>
#include <string.h>
#include "segment.h"

int dli_segment_frames(const dl_type *t)
{
  return t->b.size > 0 ? t->loop->depth + 1 : 1;
}

int dli_segment_init(dl_segment *s, int cap, uintptr_t buf, dl_count count,
                     const dl_type *t)
{
  memset(s, 0, sizeof(*s));
  s->buf = buf;
  s->type = t;
  s->count = count;
  s->cap = cap;
  dl_count size;
  if (__builtin_mul_overflow(count, t->b.size, &size) || (uint64_t)size > SIZE_MAX)
    return DL_ERR_OVERFLOW;
  s->size = (size_t)size;
  if (size == 0)
    return DL_OK;
  /* count copies of the type are one loop over them, merged with the
     type's root where the copies continue its pattern (a contiguous type
     becomes one run, a single block with a larger extent a vector) */
  int rc = dli_mk_contig(NULL, &s->top, count, dli_type_elem(t), &s->root);
  if (rc)
    return rc;
  s->pos = DLI_UNLOADED;          /* the first call that walks loads the stack */
  return DL_OK;
}

int dli_segment_init_loop(dl_segment *s, int cap, uintptr_t origin, const dli_loop *l)
{
  memset(s, 0, sizeof(*s));
  s->buf = origin;
  s->count = 1;
  s->cap = cap;
  s->size = (size_t)l->size;
  s->root = l;
  if (s->size > 0)
    s->pos = DLI_UNLOADED;
  return DL_OK;
}

static int create(void *buf, dl_count count, const dl_type *t, dl_segment **out)
{
  if (!out)
    return DL_ERR_ARG;
  *out = NULL;
  if (!dli_type_valid(t) || count < 0)
    return DL_ERR_ARG;
  if (!dli_type_committed(t))
    return DL_ERR_NOT_COMMITTED;
  int cap = dli_segment_frames(t);
  dl_segment *s = malloc(dli_segment_bytes(cap));
  if (!s)
    return DL_ERR_NOMEM;
  int rc = dli_segment_init(s, cap, (uintptr_t)buf, count, t);
  if (rc) {
    free(s);
    return rc;
  }
  s->owned = true;
  dli_type_ref(t);      /* the type lives as long as the segment */
  *out = s;
  return DL_OK;
}

int dl_segment_create(void *buf, dl_count count, const dl_type *t,
                      dl_segment **out)
{
  return create(buf, count, t, out);
}

int dl_segment_create_bounded(void *buf, dl_count count, const dl_type *t,
                              dl_aint lo, dl_aint hi, dl_segment **out)
{
  if (out && lo > hi) {
    *out = NULL;
    return DL_ERR_ARG;
  }
  int rc = create(buf, count, t, out);
  if (rc)
    return rc;
  dl_segment *s = *out;
  s->bounded = true;
  s->lo = lo;
  s->hi = hi;
  /* the root loop knows every byte the count copies touch: when they all
     fit, no call needs the per-leaf checks */
  s->inside = s->size == 0 || (s->root->tlb >= lo && s->root->tub <= hi);
  return DL_OK;
}

void dl_segment_free(dl_segment **s)
{
  if (!s || !*s)
    return;
  if ((*s)->owned) {
    dli_type_unref((*s)->type);
    free(*s);
  }
  *s = NULL;
}

size_t dl_segment_size(const dl_segment *s)
{
  return s ? s->size : 0;
}

size_t dl_piece_bytes(const dl_piece *p)
{
  if (!p)
    return 0;
  size_t per;
  if (p->pre)
    per = (size_t)(p->pre[p->count] - p->pre[0]);
  else
    per = (size_t)p->count * p->blk;
  return per * (size_t)p->reps;
}
