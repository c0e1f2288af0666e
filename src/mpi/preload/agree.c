/* Whether MPICH's own engine moves a (count, type) as the MPI standard
 * says, so that the MPICH kind (strategy.c) puts on the wire the bytes
 * every other kind does. MPICH 4.0.2 departs from the standard for some
 * constructs (struct bounds from lb/ub markers, empty members, copies of
 * negative extent; test/test_mpich.c pins each), and no list of them can
 * be trusted to be whole, so the plan asks MPICH itself, once: its bounds
 * must be dataloop's, and MPI_Pack of a patterned copy of the data's span
 * must give dl_pack's bytes. MPICH may read outside the span the
 * standard gives (a negative-extent copy packed one extent too far), so
 * the probe has margins of the span's size and more around it, patterned
 * too. Types whose span is larger than PROBE_MAX are not probed, and not
 * handed to MPICH. */
#include <stdlib.h>
#include <string.h>
#include "preload.h"

#define PROBE_MAX ((size_t)32 << 20)
#define MARGIN_MIN ((size_t)64 << 10)

/* the bytes [lo, hi) relative to buf that (count, t) touches */
static bool span_of(const dlp_data *d, dl_aint *lo, dl_aint *hi)
{
  dl_aint lb, ext, tlb, text, last;
  if (dl_type_extent(d->t, &lb, &ext) || dl_type_true_extent(d->t, &tlb, &text) ||
      __builtin_mul_overflow((dl_aint)d->count - 1, ext, &last))
    return false;
  *lo = tlb + (last < 0 ? last : 0);
  *hi = tlb + text + (last > 0 ? last : 0);
  return *hi >= *lo;
}

static bool bounds_agree(const dlp_data *d)
{
  MPI_Count mlb, mext, mtlb, mtext;
  dl_aint lb, ext, tlb, text;
  return PMPI_Type_get_extent_c(d->dt, &mlb, &mext) == MPI_SUCCESS &&
         PMPI_Type_get_true_extent_c(d->dt, &mtlb, &mtext) == MPI_SUCCESS &&
         dl_type_extent(d->t, &lb, &ext) == DL_OK &&
         dl_type_true_extent(d->t, &tlb, &text) == DL_OK &&
         mlb == lb && mext == ext && mtlb == tlb && mtext == text;
}

/* every byte of the span a different function of its offset, so a byte
   taken from elsewhere shows */
static void pattern(unsigned char *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)((i * 0x9E3779B1u) >> 11 ^ i >> 8);
}

bool dlp_mpich_agrees(const dlp_data *d)
{
  dl_aint lo, hi;
  if (!bounds_agree(d) || !span_of(d, &lo, &hi) || (size_t)(hi - lo) > PROBE_MAX ||
      d->bytes > PROBE_MAX)
    return false;
  size_t span = (size_t)(hi - lo), margin = span + MARGIN_MIN;
  unsigned char *mem = malloc(span + 2 * margin);
  char *mine = malloc(d->bytes + 1), *theirs = malloc(d->bytes + 1);
  bool same = false;
  if (mem && mine && theirs) {
    pattern(mem, span + 2 * margin);
    /* integer arithmetic: the buffer the type's offsets start from */
    void *buf = (void *)((uintptr_t)mem + margin - (uintptr_t)lo);
    size_t pos = 0;
    MPI_Count mpos = 0;
    same = dl_pack(buf, d->count, d->t, mine, d->bytes, &pos) == DL_OK &&
           PMPI_Pack_c(buf, d->count, d->dt, theirs, (MPI_Count)d->bytes, &mpos,
                       MPI_COMM_SELF) == MPI_SUCCESS &&
           pos == d->bytes && (size_t)mpos == d->bytes &&
           memcmp(mine, theirs, d->bytes) == 0;
  }
  free(mem);
  free(mine);
  free(theirs);
  return same;
}
