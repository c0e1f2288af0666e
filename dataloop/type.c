/* Type objects: one allocation holding the header and the loop tree,
 * reference-counted, immutable once built. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "env.h"
#include "build.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

/* The in-memory size of a copy of the tree at l, added to *n; false once
   *n passes cap. A constructor's source tree may share subtrees (a struct
   naming one type twice), so its copy can be far larger than its source:
   stopping at the cap bounds the time as well as the memory. */
/* whether a leaf's offsets have a 4-byte copy (offs32) */
static bool has_offs32(const dli_loop *l)
{
  if (!l->leaf || (l->kind != DLI_BLOCKINDEXED && l->kind != DLI_INDEXED))
    return false;
  for (dl_count i = 0; i < l->count; i++)
    if (l->offs[i] < INT32_MIN || l->offs[i] > INT32_MAX)
      return false;
  return true;
}

static bool tree_bytes(const dli_loop *l, size_t *n, size_t cap)
{
  /* 8 bytes per array entry (tree_copy's layout, with room for 4-byte
     pointers), counted in entries: offs, pre (count + 1), blocklens, exts,
     children */
  size_t c = (size_t)l->count, entries = 0, bytes;
  bool blocks = l->kind == DLI_BLOCKINDEXED || l->kind == DLI_INDEXED ||
                l->kind == DLI_STRUCT;
  bool prefix = l->kind == DLI_INDEXED || l->kind == DLI_STRUCT;
  int arrays = blocks + prefix + (prefix && !l->leaf) + 2 * (l->kind == DLI_STRUCT);
  if (__builtin_mul_overflow(c, (size_t)arrays, &entries) ||
      __builtin_add_overflow(entries, (size_t)prefix, &entries) ||
      __builtin_mul_overflow(entries, (size_t)8, &bytes) ||
      __builtin_add_overflow(bytes, ALIGN8(sizeof(dli_loop)), &bytes) ||
      (has_offs32(l) && __builtin_add_overflow(bytes, ALIGN8(c * 4), &bytes)) ||
      __builtin_add_overflow(*n, bytes, n) || *n > cap)
    return false;
  if (l->kind == DLI_STRUCT) {
    for (size_t i = 0; i < c; i++)
      if (!tree_bytes(l->children[i], n, cap))
        return false;
    return true;
  }
  return l->leaf || tree_bytes(l->child, n, cap);
}

static void *take(char **cur, size_t bytes)
{
  void *p = *cur;
  *cur += ALIGN8(bytes);
  return p;
}

static void *take_copy(char **cur, const void *src, size_t bytes)
{
  void *p = take(cur, bytes);
  memcpy(p, src, bytes);
  return p;
}

static const dli_loop *tree_copy(const dli_loop *l, char **cur)
{
  dli_loop *n = take_copy(cur, l, sizeof(*l));
  for (int d = 0; d < 2; d++)       /* compiled code may land concurrently */
    n->jit[d] = __atomic_load_n(&l->jit[d], __ATOMIC_ACQUIRE);
  size_t c = (size_t)l->count;
  if (l->kind == DLI_BLOCKINDEXED || l->kind == DLI_INDEXED ||
      l->kind == DLI_STRUCT)
    n->offs = take_copy(cur, l->offs, c * sizeof(dl_aint));
  n->offs32 = NULL;
  if (has_offs32(l)) {
    n->offs32 = take(cur, c * sizeof(int32_t));
    for (size_t i = 0; i < c; i++)
      n->offs32[i] = (int32_t)l->offs[i];
  }
  if (l->kind == DLI_INDEXED || l->kind == DLI_STRUCT)
    n->pre = take_copy(cur, l->pre, (c + 1) * sizeof(dl_count));
  if (!l->leaf && (l->kind == DLI_INDEXED || l->kind == DLI_STRUCT))
    n->blocklens = take_copy(cur, l->blocklens, c * sizeof(dl_count));
  if (l->kind == DLI_STRUCT) {
    n->exts = take_copy(cur, l->exts, c * sizeof(dl_aint));
    const dli_loop **kids = take(cur, c * sizeof(dli_loop *));
    for (size_t i = 0; i < c; i++)
      kids[i] = tree_copy(l->children[i], cur);
    n->children = kids;
  } else if (!l->leaf) {
    n->child = tree_copy(l->child, cur);
  }
  return n;
}

/* Signatures are DAGs (a struct naming one type twice shares its
   signature, and nested dense structs share all the way down), so they are
   copied as DAGs: each node once, found again through a map from source
   nodes to their copies. Recursion is bounded by DLI_SIG_MAX_DEPTH. */
typedef struct sigmap {
  const dli_sig **from;
  dli_sig **to;
  size_t cap, n;       /* cap: a power of two */
} sigmap;

static size_t slot(const sigmap *m, const dli_sig *s)
{
  uint64_t h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ull;
  size_t i = (size_t)(h >> 20) & (m->cap - 1);
  while (m->from[i] && m->from[i] != s)
    i = (i + 1) & (m->cap - 1);
  return i;
}

static bool sig_grow(sigmap *m)
{
  sigmap g = {calloc(m->cap * 2, sizeof(*g.from)), calloc(m->cap * 2, sizeof(*g.to)),
              m->cap * 2, m->n};
  if (!g.from || !g.to) {
    free(g.from);
    free(g.to);
    return false;
  }
  for (size_t i = 0; i < m->cap; i++)
    if (m->from[i]) {
      size_t j = slot(&g, m->from[i]);
      g.from[j] = m->from[i];
      g.to[j] = m->to[i];
    }
  free(m->from);
  free(m->to);
  *m = g;
  return true;
}

/* adds the nodes of s not yet in m, and their bytes, to *n; false on
   running out of memory or past cap */
static bool sig_bytes(const dli_sig *s, sigmap *m, size_t *n, size_t cap)
{
  size_t i = slot(m, s);
  if (m->from[i])
    return true;
  if (2 * (m->n + 1) > m->cap) {
    if (!sig_grow(m))
      return false;
    i = slot(m, s);
  }
  m->from[i] = s;
  m->n++;
  size_t k = s->basic == DLI_SIG_SEQ ? (size_t)s->n : 0;
  /* items, npre and xpre: 8 bytes an entry, as in tree_bytes */
  size_t bytes;
  if (__builtin_mul_overflow(3 * k + 2 * (k > 0), (size_t)8, &bytes) ||
      __builtin_add_overflow(bytes, ALIGN8(sizeof(dli_sig)), &bytes) ||
      __builtin_add_overflow(*n, bytes, n) || *n > cap)
    return false;
  for (size_t j = 0; j < k; j++)
    if (!sig_bytes(s->items[j], m, n, cap))
      return false;
  return true;
}

static const dli_sig *sig_copy(const dli_sig *s, sigmap *m, char **cur)
{
  size_t i = slot(m, s);
  if (m->to[i])
    return m->to[i];
  dli_sig *c = take_copy(cur, s, sizeof(*s));
  m->to[i] = c;
  if (s->basic == DLI_SIG_SEQ) {
    size_t k = (size_t)s->n;
    const dli_sig **items = take(cur, k * sizeof(dli_sig *));
    c->npre = take_copy(cur, s->npre, (k + 1) * sizeof(dl_count));
    c->xpre = take_copy(cur, s->xpre, (k + 1) * sizeof(dl_count));
    for (size_t j = 0; j < k; j++)
      items[j] = sig_copy(s->items[j], m, cur);
    c->items = items;
  }
  return c;
}

static size_t max_type_bytes;
static pthread_once_t max_once = PTHREAD_ONCE_INIT;

static void read_max(void)
{
  max_type_bytes = dli_env_bytes("DL_MAX_TYPE_BYTES", (size_t)1 << 30, 1, SIZE_MAX / 2);
}

size_t dli_max_type_bytes(void)
{
  pthread_once(&max_once, read_max);
  return max_type_bytes;
}

int dli_type_new(const dli_loop *root, const dli_bounds *bounds,
                 const dli_sig *sig, dl_type **out)
{
  size_t head = ALIGN8(sizeof(dl_type));
  size_t body = 0, sigb = 0, max = dli_max_type_bytes();
  if (bounds->size > 0) {
    if (root->depth > DLI_MAX_DEPTH)
      return dli_fail(DL_ERR_UNSUPPORTED, "type nesting deeper than %d levels "
                      "(this one: %d)", DLI_MAX_DEPTH, (int)root->depth);
    /* a cap on memory, so the caller's remedy is a memory one: NOMEM */
    if (max <= head || !tree_bytes(root, &body, max - head))
      return dli_fail(DL_ERR_NOMEM, "type description larger than the "
                      "DL_MAX_TYPE_BYTES limit (%zu bytes)", max);
  }
  /* a signature that does not fit beside the tree is dropped: the type
     then packs natively only */
  sigmap m = {NULL, NULL, 64, 0};
  if (bounds->size == 0)
    sig = NULL;
  bool shared = sig && sig->basic != DLI_SIG_SEQ && sig == dli_sig_basic(sig->basic);
  if (sig && !shared) {
    m.from = calloc(m.cap, sizeof(*m.from));
    m.to = calloc(m.cap, sizeof(*m.to));
    if (!m.from || !m.to || !sig_bytes(sig, &m, &sigb, max - head - body)) {
      sig = NULL;
      sigb = 0;
    }
  }
  dl_type *t = malloc(head + body + sigb);
  if (!t) {
    free(m.from);
    free(m.to);
    return DL_ERR_NOMEM;
  }
  memset(t, 0, sizeof(*t));
  t->magic = DLI_TYPE_MAGIC;
  atomic_init(&t->refs, 1);
  atomic_init(&t->committed, 0);
  t->basic = -1;
  t->b = *bounds;
  t->loop_bytes = body;
  char *cur = (char *)t + head;
  if (body)
    t->loop = tree_copy(root, &cur);
  t->sig = sigb ? sig_copy(sig, &m, &cur) : sig;
  free(m.from);
  free(m.to);
  *out = t;
  return DL_OK;
}

int dli_type_new_copies(const dli_loop *root, const dli_bounds *bounds,
                        const dl_type *old, dl_type **out)
{
  dli_sig node;
  const dli_sig *sig = bounds->size > 0
      ? dli_sig_copies(&node, old->sig, bounds->size / old->b.size) : NULL;
  return dli_type_new(root, bounds, sig, out);
}


void dli_type_ref(const dl_type *t)
{
  if (!t->builtin)
    atomic_fetch_add_explicit(&((dl_type *)t)->refs, 1, memory_order_relaxed);
}

void dli_type_unref(const dl_type *t)
{
  if (t->builtin)
    return;
  if (atomic_fetch_sub_explicit(&((dl_type *)t)->refs, 1,
                                memory_order_acq_rel) == 1) {
    ((dl_type *)t)->magic = 0;
    free((void *)t);
  }
}

int dl_type_retain(dl_type *t)
{
  if (!dli_type_valid(t))
    return DL_ERR_ARG;
  dli_type_ref(t);
  return DL_OK;
}

int dl_type_free(dl_type **t)
{
  if (!t || !dli_type_valid(*t))
    return dli_fail(DL_ERR_ARG, "dl_type_free: NULL or freed type");
  if ((*t)->builtin)
    return dli_fail(DL_ERR_ARG, "dl_type_free: a predefined type is never freed");
  dli_type_unref(*t);
  *t = NULL;
  return DL_OK;
}

int dl_type_dup(dl_type *old, dl_type **out)
{
  if (!out || !dli_type_valid(old))
    return DL_ERR_ARG;
  dl_type *t;
  int rc = dli_type_new(old->loop, &old->b, old->sig, &t);
  if (rc)
    return rc;
  t->basic = old->basic;
  if (dli_type_committed(old))
    atomic_store(&t->committed, 1);
  atomic_store(&t->compiled, atomic_load(&old->compiled));
  *out = t;
  return DL_OK;
}

int dl_type_size(const dl_type *t, dl_count *size)
{
  if (!dli_type_valid(t) || !size)
    return DL_ERR_ARG;
  *size = t->b.size;
  return DL_OK;
}

int dl_type_extent(const dl_type *t, dl_aint *lb, dl_aint *extent)
{
  if (!dli_type_valid(t) || !lb || !extent)
    return DL_ERR_ARG;
  *lb = t->b.lb;
  *extent = t->b.ub - t->b.lb;
  return DL_OK;
}

int dl_type_true_extent(const dl_type *t, dl_aint *true_lb,
                        dl_aint *true_extent)
{
  if (!dli_type_valid(t) || !true_lb || !true_extent)
    return DL_ERR_ARG;
  *true_lb = t->b.true_lb;
  *true_extent = t->b.true_ub - t->b.true_lb;
  return DL_OK;
}
