/* dl_type_deserialize: reads untrusted bytes (doc/serialization.md) and
 * checks everything before anything is used. Every count is bounded by the
 * input that remains, so a hostile count cannot cause a large allocation:
 * each array it announces must actually follow. Derived fields (sizes, data
 * bounds, depth, prefix sums, element sizes) are recomputed, never read,
 * with overflow checks; recursion stops at DLI_MAX_DEPTH. The tree must
 * touch only bytes inside the declared true bounds, which is what bounded
 * segments and callers sizing buffers by the true extent rely on. */
#include <string.h>
#include "build.h"
#include "serial.h"

struct rd {
  const uint8_t *p;
  size_t left;
  bool bad;            /* read past the end */
  dli_build *b;
};

static uint64_t get(struct rd *r, int bytes)
{
  if (r->left < (size_t)bytes) {
    r->bad = true;
    r->left = 0;
    return 0;
  }
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | r->p[i];
  r->p += bytes;
  r->left -= (size_t)bytes;
  return v;
}

static int64_t get64(struct rd *r)
{
  return (int64_t)get(r, 8);
}

/* n 64-bit entries, all of which must be in the input; NULL and *rc set
   otherwise */
static int64_t *get_array(struct rd *r, dl_count n, int *rc)
{
  if ((uint64_t)n > r->left / 8) {
    *rc = DL_ERR_CORRUPT;
    return NULL;
  }
  int64_t *a = dli_build_alloc(r->b, (size_t)n * 8);
  if (!a) {
    *rc = DL_ERR_NOMEM;
    return NULL;
  }
  for (dl_count i = 0; i < n; i++)
    a[i] = get64(r);
  return a;
}

static bool all_positive(const int64_t *v, dl_count n)
{
  for (dl_count i = 0; i < n; i++)
    if (v[i] < 1)
      return false;
  return true;
}

/* the kind's own fields; lens are block lengths as stored */
static int get_shape(struct rd *r, dli_loop *l, dl_count **lens)
{
  int rc = DL_OK;
  *lens = NULL;
  switch (l->kind) {
  case DLI_VECTOR:
    l->blocklen = get64(r);
    l->stride = get64(r);
    break;
  case DLI_BLOCKINDEXED:
    l->blocklen = get64(r);
    l->offs = get_array(r, l->count, &rc);
    break;
  case DLI_INDEXED:
  case DLI_STRUCT:
    if (!(*lens = get_array(r, l->count, &rc)) ||
        !(l->offs = get_array(r, l->count, &rc)))
      return rc;
    if (!all_positive(*lens, l->count))
      return DL_ERR_CORRUPT;
    if (l->kind == DLI_STRUCT)
      l->exts = get_array(r, l->count, &rc);
    break;
  default:
    break;
  }
  if ((l->kind == DLI_VECTOR || l->kind == DLI_BLOCKINDEXED) && l->blocklen < 1)
    return DL_ERR_CORRUPT;
  return r->bad ? DL_ERR_CORRUPT : rc;
}

static int get_loop(struct rd *r, int depth, const dli_loop **out);

/* children, then the prefix sums of the blocks' packed bytes */
static int get_children(struct rd *r, int depth, dli_loop *l, dl_count *lens)
{
  int rc;
  if (l->kind == DLI_STRUCT) {
    /* every child takes input: a count the input cannot hold is corrupt
       before anything is allocated for it */
    if ((uint64_t)l->count > r->left / DLI_SER_NODE_MIN)
      return DL_ERR_CORRUPT;
    const dli_loop **kids = dli_build_alloc(r->b, (size_t)l->count * sizeof(*kids));
    if (!kids)
      return DL_ERR_NOMEM;
    for (dl_count i = 0; i < l->count; i++)
      if ((rc = get_loop(r, depth + 1, &kids[i])))
        return rc;
    l->children = kids;
  } else if (!l->leaf) {
    l->el_extent = get64(r);
    if ((rc = get_loop(r, depth + 1, &l->child)))
      return rc;
    l->el_size = l->child->size;
  }
  if (l->kind != DLI_INDEXED && l->kind != DLI_STRUCT)
    return DL_OK;
  dl_count *pre = dli_build_alloc(r->b, ((size_t)l->count + 1) * sizeof(dl_count));
  if (!pre)
    return DL_ERR_NOMEM;
  pre[0] = 0;
  for (dl_count i = 0; i < l->count; i++) {
    dl_count per = l->leaf ? 1 : l->kind == DLI_STRUCT ? l->children[i]->size
                                                       : l->el_size, bytes;
    if (__builtin_mul_overflow(lens[i], per, &bytes) ||
        __builtin_add_overflow(pre[i], bytes, &pre[i + 1]))
      return DL_ERR_CORRUPT;
  }
  l->pre = pre;
  if (!l->leaf)
    l->blocklens = lens;
  return DL_OK;
}

static int get_loop(struct rd *r, int depth, const dli_loop **out)
{
  if (depth > DLI_MAX_DEPTH)
    return DL_ERR_CORRUPT;
  dli_loop *l = dli_build_node(r->b);
  if (!l)
    return DL_ERR_NOMEM;
  l->kind = (uint8_t)get(r, 1);
  l->leaf = (uint8_t)get(r, 1);
  l->unit = (uint8_t)get(r, 1);
  l->count = get64(r);
  l->offset = get64(r);
  if (r->bad || l->kind > DLI_STRUCT || l->leaf > 1 ||
      (l->kind == DLI_STRUCT && l->leaf) || (l->leaf ? l->unit == 0 : l->unit != 0) ||
      l->count < 1)
    return DL_ERR_CORRUPT;
  dl_count *lens;
  int rc = get_shape(r, l, &lens);
  if (!rc)
    rc = get_children(r, depth, l, lens);
  if (rc)
    return rc;
  /* sizes, data bounds and depth, with every overflow refused */
  if (dli_finish_node(l))
    return DL_ERR_CORRUPT;
  *out = l;
  return DL_OK;
}

static int get_bounds(struct rd *r, size_t size, dli_bounds *b, int *basic)
{
  uint32_t magic = (uint32_t)get(r, 4);
  unsigned version = (unsigned)get(r, 2), flags = (unsigned)get(r, 2);
  uint64_t length = get(r, 8);
  b->size = get64(r);
  b->lb = get64(r);
  b->ub = get64(r);
  b->true_lb = get64(r);
  b->true_ub = get64(r);
  b->align = (int)get(r, 1);
  *basic = (int8_t)get(r, 1);
  b->sticky = flags & DLI_SER_STICKY;
  dl_aint ext;
  if (r->bad || magic != DLI_SER_MAGIC || version != DLI_SER_VERSION ||
      (flags & ~DLI_SER_STICKY) || length != size || b->size < 0 ||
      __builtin_sub_overflow(b->ub, b->lb, &ext) || b->true_lb > b->true_ub ||
      __builtin_sub_overflow(b->true_ub, b->true_lb, &ext) ||
      b->align < 1 || b->align > DLI_SER_MAX_ALIGN || (b->align & (b->align - 1)) ||
      *basic < -1 || *basic >= DLI_NUM_BASICS)
    return DL_ERR_CORRUPT;
  /* a type without data has no true bounds */
  if (b->size == 0 && (b->true_lb != 0 || b->true_ub != 0))
    return DL_ERR_CORRUPT;
  return DL_OK;
}

/* a duplicate of a predefined type must be exactly that type */
static bool same_as_builtin(int basic, const dli_bounds *b, const dli_loop *l)
{
  const dl_type *p = dli_basic_type(basic);
  const dli_loop *q = p->loop;
  return b->size == p->b.size && b->lb == p->b.lb && b->ub == p->b.ub &&
         b->true_lb == p->b.true_lb && b->true_ub == p->b.true_ub &&
         b->sticky == p->b.sticky && b->align == p->b.align &&
         l->kind == q->kind && l->leaf == q->leaf && l->unit == q->unit &&
         l->count == q->count && l->offset == q->offset;
}

static int read_type(struct rd *r, size_t size, dl_type **out)
{
  dli_bounds b;
  int basic, rc = get_bounds(r, size, &b, &basic);
  if (rc)
    return rc;
  const dli_loop *root = NULL;
  if (b.size > 0 && (rc = get_loop(r, 1, &root)))
    return rc;
  if (r->left != 0)                        /* trailing bytes */
    return DL_ERR_CORRUPT;
  if (root && (root->size != b.size || root->tlb < b.true_lb ||
               root->tub > b.true_ub))
    return DL_ERR_CORRUPT;
  if (basic >= 0 && (!root || !same_as_builtin(basic, &b, root)))
    return DL_ERR_CORRUPT;
  /* the element types of a derived type are not in the format (external32
     is refused for it); a predefined type's are known from its id */
  dl_type *t;
  if ((rc = dli_type_new(root, &b, basic >= 0 ? dli_sig_basic(basic) : NULL, &t)))
    return rc;
  t->basic = (int8_t)basic;
  atomic_store_explicit(&t->committed, 1, memory_order_release);
  *out = t;
  return DL_OK;
}

int dl_type_deserialize(const void *buf, size_t size, dl_type **out)
{
  if (!out)
    return DL_ERR_ARG;
  *out = NULL;
  if (!buf && size > 0)
    return DL_ERR_ARG;
  struct rd r = {.p = buf, .left = size};
  if (!(r.b = dli_build_new()))
    return DL_ERR_NOMEM;
  int rc = read_type(&r, size, out);
  dli_build_free(r.b);
  return rc;
}
