/* The period of a leaf INDEXED loop's block lengths: a struct over several
 * arrays (a particle's position, then one value from each of four other
 * arrays) gives lengths 24, 8, 8, 8, 8, 24, 8, ... at scattered offsets.
 * Knowing it, a kernel moves all blocks of one phase at a constant length
 * (actions/copy.c). That order is not the stream's, so unpacking takes
 * it only where no byte is stored out of stream order (phases_apart). */
#include <stdlib.h>
#include "loop.h"

static dl_count len_at(const dli_loop *l, dl_count i)
{
  return l->pre[i + 1] - l->pre[i];
}

static bool repeats(const dli_loop *l, dl_count p)
{
  for (dl_count i = p; i < l->count; i++)
    if (len_at(l, i) != len_at(l, i - p))
      return false;
  return true;
}

typedef struct span {
  dl_aint lo, hi;
} span;

/* The bytes of each phase lie apart from every other phase's. The kernel
   keeps stream order within a phase and within a repetition, so then no
   byte stored twice is stored out of stream order. */
static bool phases_apart(const dli_loop *l)
{
  dl_count p = l->period;
  span r[DLI_PERIOD_MAX];
  for (dl_count j = 0; j < p; j++) {
    r[j] = (span){l->offs[j], l->offs[j] + len_at(l, j)};
    for (dl_count i = j + p; i < l->count; i += p) {
      if (l->offs[i] < r[j].lo)
        r[j].lo = l->offs[i];
      if (l->offs[i] + len_at(l, i) > r[j].hi)
        r[j].hi = l->offs[i] + len_at(l, i);
    }
  }
  for (dl_count a = 0; a < p; a++)
    for (dl_count b = a + 1; b < p; b++)
      if (r[a].lo < r[b].hi && r[b].lo < r[a].hi)
        return false;
  return true;
}

void dli_find_period(dli_loop *l)
{
  l->period = 0;
  l->apart = 0;
  if (!l->leaf || l->kind != DLI_INDEXED || l->min_blk == l->max_blk)
    return;
  for (dl_count p = 2; p <= DLI_PERIOD_MAX && 2 * p <= l->count; p++)
    if (repeats(l, p)) {
      l->period = (uint8_t)p;
      l->apart = phases_apart(l);
      return;
    }
}
