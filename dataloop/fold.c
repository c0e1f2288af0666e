/* Periodic index folding: an indexed loop whose blocks repeat a pattern
 * (the same block lengths, each block a fixed distance after its twin one
 * period earlier) is stored as a repetition of one small period. */
#include <stdlib.h>
#include "loop.h"

/* Only periods up to this many blocks are looked for; a longer period
   saves little over the plain list. */
#define DLI_FOLD_MAX_PERIOD 1024

static bool gap_eq(const dl_count *bls, const dl_aint *offs, dl_count a,
                   dl_count b)
{
  return bls[a] == bls[b] && offs[a + 1] - offs[a] == offs[b + 1] - offs[b];
}

/* Smallest period of the (length, gap) sequence of the first m blocks, by
   the Knuth-Morris-Pratt failure function; 0 if none repeats there. */
static dl_count prefix_period(const dl_count *bls, const dl_aint *offs,
                              dl_count m)
{
  int32_t fail[2 * DLI_FOLD_MAX_PERIOD];
  fail[0] = 0;
  for (dl_count i = 1; i < m; i++) {
    int32_t k = fail[i - 1];
    while (k > 0 && !gap_eq(bls, offs, i, k))
      k = fail[k - 1];
    if (gap_eq(bls, offs, i, k))
      k++;
    fail[i] = k;
  }
  dl_count p = m - fail[m - 1];
  return 2 * p <= m ? p : 0;
}

dl_count dli_find_period(dl_count n, const dl_count *bls, const dl_aint *offs)
{
  if (n < 4)
    return 0;
  /* gaps offs[k+1] - offs[k] must not overflow for the comparison */
  for (dl_count k = 0; k + 1 < n && k < 2 * DLI_FOLD_MAX_PERIOD; k++) {
    dl_aint g;
    if (__builtin_sub_overflow(offs[k + 1], offs[k], &g))
      return 0;
  }
  dl_count m = n - 1 < 2 * DLI_FOLD_MAX_PERIOD ? n - 1 : 2 * DLI_FOLD_MAX_PERIOD;
  dl_count p = prefix_period(bls, offs, m);
  if (p == 0 || p > DLI_FOLD_MAX_PERIOD || 2 * p > n)
    return 0;
  /* If the whole list has a period at most the limit, the prefix's smallest
     period divides it, so checking that one candidate is enough. */
  dl_aint delta;
  if (__builtin_sub_overflow(offs[p], offs[0], &delta))
    return 0;
  for (dl_count k = p; k < n; k++) {
    dl_aint d;
    if (bls[k] != bls[k - p] || __builtin_sub_overflow(offs[k], offs[k - p], &d) ||
        d != delta)
      return 0;
  }
  return p;
}
