/* dl_type_serialize: a committed type's loop tree as a versioned,
 * little-endian, self-delimiting byte string (doc/serialization.md). Only
 * what cannot be derived is written: the reader recomputes sizes, data
 * bounds, depth and prefix sums, so it has nothing to trust. */
#include "loop.h"
#include "serial.h"

/* a writer that only counts while p is NULL */
struct w {
  uint8_t *p;
  size_t n;
};

static void put(struct w *w, uint64_t v, int bytes)
{
  for (int i = 0; i < bytes; i++, v >>= 8)
    if (w->p)
      w->p[w->n + (size_t)i] = (uint8_t)v;
  w->n += (size_t)bytes;
}

static void put64(struct w *w, int64_t v)
{
  put(w, (uint64_t)v, 8);
}

static void put_array(struct w *w, const int64_t *v, dl_count n)
{
  if (!w->p) {                       /* counting: no need to visit them */
    w->n += (size_t)n * 8;
    return;
  }
  for (dl_count i = 0; i < n; i++)
    put64(w, v[i]);
}

/* block lengths as stored: bytes for a leaf, elements otherwise */
static void put_lens(struct w *w, const dli_loop *l)
{
  if (!l->leaf) {
    put_array(w, l->blocklens, l->count);
  } else if (!w->p) {
    w->n += (size_t)l->count * 8;
  } else {
    for (dl_count i = 0; i < l->count; i++)
      put64(w, l->pre[i + 1] - l->pre[i]);
  }
}

static void put_loop(struct w *w, const dli_loop *l)
{
  put(w, l->kind, 1);
  put(w, l->leaf, 1);
  put(w, l->unit, 1);
  put64(w, l->count);
  put64(w, l->offset);
  switch (l->kind) {
  case DLI_VECTOR:
    put64(w, l->blocklen);
    put64(w, l->stride);
    break;
  case DLI_BLOCKINDEXED:
    put64(w, l->blocklen);
    put_array(w, l->offs, l->count);
    break;
  case DLI_INDEXED:
  case DLI_STRUCT:
    put_lens(w, l);
    put_array(w, l->offs, l->count);
    if (l->kind == DLI_STRUCT)
      put_array(w, l->exts, l->count);
    break;
  default:
    break;
  }
  if (l->kind == DLI_STRUCT) {
    for (dl_count i = 0; i < l->count; i++)
      put_loop(w, l->children[i]);
  } else if (!l->leaf) {
    put64(w, l->el_extent);
    put_loop(w, l->child);
  }
}

static void put_type(struct w *w, const dl_type *t)
{
  size_t start = w->n;
  put(w, DLI_SER_MAGIC, 4);
  put(w, DLI_SER_VERSION, 2);
  put(w, t->b.sticky ? DLI_SER_STICKY : 0, 2);
  size_t at_length = w->n;
  put(w, 0, 8);                      /* length, filled in below */
  put64(w, t->b.size);
  put64(w, t->b.lb);
  put64(w, t->b.ub);
  put64(w, t->b.true_lb);
  put64(w, t->b.true_ub);
  put(w, (uint64_t)t->b.align, 1);
  put(w, (uint8_t)t->basic, 1);
  if (t->b.size > 0)
    put_loop(w, t->loop);
  if (w->p) {
    struct w len = {w->p, at_length};
    put(&len, w->n - start, 8);
  }
}

int dl_type_serialize(const dl_type *t, void *buf, size_t size, size_t *needed)
{
  if (!dli_type_valid(t) || !needed || (!buf && size > 0))
    return DL_ERR_ARG;
  if (!dli_type_committed(t))
    return DL_ERR_NOT_COMMITTED;
  /* constructors keep trees within the format's depth; the bound is
     checked here too so that a future constructor cannot break it */
  if (t->b.size > 0 && t->loop->depth > DLI_MAX_DEPTH)
    return dli_fail(DL_ERR_UNSUPPORTED, "type nesting deeper than %d levels",
                    DLI_MAX_DEPTH);
  struct w w = {NULL, 0};
  put_type(&w, t);
  *needed = w.n;
  if (size < w.n)
    return DL_ERR_TRUNCATE;
  w = (struct w){buf, 0};
  put_type(&w, t);
  return DL_OK;
}
