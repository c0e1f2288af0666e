/* Type signatures (loop.h): built beside the loop tree by the constructors.
 * Runs are normalized to the basic type's own node, so runs of one basic
 * type next to each other, and copies of one signature next to each other,
 * merge into one item. */
#include <string.h>
#include "build.h"

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
