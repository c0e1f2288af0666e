/* Periodic index folding: the period of a block list's first blocks. An
 * indexed loop whose blocks repeat a pattern (the same lengths, each block
 * a fixed distance after its twin one period earlier) is stored as a
 * repetition of one small period; blocklist.c checks the candidate found
 * here against the whole list. */
#include "build.h"

static bool gap_eq(const dl_count *bls, const dl_aint *offs, dl_count a,
                   dl_count b)
{
  return bls[a] == bls[b] && offs[a + 1] - offs[a] == offs[b + 1] - offs[b];
}

/* Smallest period of the (length, gap to the next block) sequence of the
   first n blocks, by the Knuth-Morris-Pratt failure function; 0 unless it
   repeats at least twice there. If the whole list has a period of at most
   DLI_FOLD_MAX_PERIOD and n >= 2 * DLI_FOLD_MAX_PERIOD + 1, the period
   found here divides it, so checking this one candidate is enough. */
dl_count dli_prefix_period(const dl_count *bls, const dl_aint *offs, dl_count n)
{
  int32_t fail[2 * DLI_FOLD_MAX_PERIOD];
  dl_count m = n - 1;             /* gaps */
  if (n < 4 || m > 2 * DLI_FOLD_MAX_PERIOD)
    return 0;
  for (dl_count k = 0; k < m; k++) {
    dl_aint g;
    if (__builtin_sub_overflow(offs[k + 1], offs[k], &g))
      return 0;
  }
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
  return 2 * p <= m && p <= DLI_FOLD_MAX_PERIOD ? p : 0;
}
