/* Type signatures (loop.h): built beside the loop tree by the constructors.
 * Runs are normalized to the basic type's own node, so runs of one basic
 * type next to each other, and copies of one signature next to each other,
 * merge into one item. */
#include <string.h>
#include "loop.h"

const dli_sig *dli_sig_copies(dli_sig *into, const dli_sig *s, dl_count n)
{
  if (!s || n <= 0)
    return NULL;
  if (n == 1)
    return s;
  *into = *s;
  /* n copies of s fit, since the type they make does */
  if (__builtin_mul_overflow(s->reps, n, &into->reps))
    return NULL;
  return into;
}

/* the item for `count` copies of s: a run's count is in elements */
static const dli_sig *item(dli_build *b, const dli_sig *s, dl_count count)
{
  if (count == 1)
    return s;
  dli_sig *n = dli_build_alloc(b, sizeof(dli_sig));
  return n ? dli_sig_copies(n, s, count) : NULL;
}

static int make_seq(dli_build *b, dl_count k, const dli_sig **node,
                    const dl_count *cnt, const dli_sig **out)
{
  dli_sig *q = dli_build_alloc(b, sizeof(dli_sig));
  const dli_sig **items = dli_build_alloc(b, (size_t)k * sizeof(dli_sig *));
  dl_count *npre = dli_build_alloc(b, (size_t)(k + 1) * sizeof(dl_count));
  dl_count *xpre = dli_build_alloc(b, (size_t)(k + 1) * sizeof(dl_count));
  if (!q || !items || !npre || !xpre)
    return DL_ERR_NOMEM;
  *q = (dli_sig){.basic = DLI_SIG_SEQ, .same = true, .depth = 1, .reps = 1,
                 .n = k, .items = items, .npre = npre, .xpre = xpre};
  npre[0] = xpre[0] = 0;
  for (dl_count j = 0; j < k; j++) {
    const dli_sig *it = item(b, node[j], cnt[j]);
    dl_count nb, xb;
    if (!it)
      return DL_ERR_NOMEM;
    if (__builtin_mul_overflow(it->reps, it->nsize, &nb) ||
        __builtin_mul_overflow(it->reps, it->xsize, &xb) ||
        __builtin_add_overflow(npre[j], nb, &npre[j + 1]) ||
        __builtin_add_overflow(xpre[j], xb, &xpre[j + 1]))
      return DL_ERR_OVERFLOW;
    items[j] = it;
    q->resize = q->resize || it->resize;
    q->same = q->same && it->same;
    if (it->depth >= q->depth)
      q->depth = (uint8_t)(it->depth + 1);
  }
  q->nsize = npre[k];
  q->xsize = xpre[k];
  *out = q;
  return DL_OK;
}

int dli_sig_struct(dli_build *b, dl_count n, const dl_count *blocklens,
                   dl_type *const *types, const dli_sig **out)
{
  *out = NULL;
  const dli_sig **node = dli_build_alloc(b, (size_t)n * sizeof(dli_sig *));
  dl_count *cnt = dli_build_alloc(b, (size_t)n * sizeof(dl_count));
  if (n > 0 && (!node || !cnt))
    return DL_ERR_NOMEM;
  dl_count k = 0;
  for (dl_count i = 0; i < n; i++) {
    const dli_sig *s = types[i]->sig;
    if (blocklens[i] == 0 || types[i]->b.size == 0)
      continue;
    if (!s)                        /* a member of unknown element types */
      return DL_OK;
    dl_count c = blocklens[i];
    if (s->basic != DLI_SIG_SEQ) {
      if (__builtin_mul_overflow(c, s->reps, &c))
        return DL_ERR_OVERFLOW;
      s = dli_sig_basic(s->basic);
    }
    if (k > 0 && node[k - 1] == s) {
      if (__builtin_add_overflow(cnt[k - 1], c, &cnt[k - 1]))
        return DL_ERR_OVERFLOW;
      continue;
    }
    node[k] = s;
    cnt[k++] = c;
  }
  if (k == 0)
    return DL_OK;
  if (k == 1) {
    *out = item(b, node[0], cnt[0]);
    return *out ? DL_OK : DL_ERR_NOMEM;
  }
  int rc = make_seq(b, k, node, cnt, out);
  if (!rc && (*out)->depth > DLI_SIG_MAX_DEPTH)
    *out = NULL;
  return rc;
}

/* ---- element alignment in the packed stream ---- */

#define ALIGN_CAP 4096       /* a stream's start: aligned for any element */
#define ALIGN_WALK 100000    /* signature nodes walked at most */

/* the largest power of two dividing x, at most cap (x == 0: cap) */
static dl_count low_pow2(dl_count x, dl_count cap)
{
  dl_count p = x & -x;
  return x == 0 || p > cap ? cap : p;
}

/* every element of s begins at a multiple of its size, a power of two,
   when s begins at a multiple of align (a power of two); *max: the largest
   element; *budget: nodes left to walk */
static bool sig_aligned(const dli_sig *s, dl_count align, dl_count *max, long *budget)
{
  if (--*budget < 0)
    return false;
  if (s->basic != DLI_SIG_SEQ) {
    dl_count size = s->nsize;
    if (size > *max)
      *max = size;
    return size > 0 && (size & (size - 1)) == 0 && size <= align;
  }
  if (s->reps > 1)
    align = low_pow2(s->nsize, align);
  for (dl_count i = 0; i < s->n; i++)
    if (!sig_aligned(s->items[i], low_pow2(s->npre[i], align), max, budget))
      return false;
  return true;
}

int dl_type_aligned(dl_count count, const dl_type *t, int *aligned, size_t *max_element)
{
  if (!dli_type_valid(t) || count < 0 || !aligned || !max_element)
    return DL_ERR_ARG;
  *aligned = 1;
  *max_element = 0;
  if (count == 0 || t->b.size == 0)
    return DL_OK;
  dl_count max = 0;
  long budget = ALIGN_WALK;
  /* copy k begins at k * size: as aligned as the size allows */
  dl_count align = count > 1 ? low_pow2(t->b.size, ALIGN_CAP) : ALIGN_CAP;
  *aligned = t->sig && sig_aligned(t->sig, align, &max, &budget);
  *max_element = *aligned ? (size_t)max : 0;
  return DL_OK;
}
