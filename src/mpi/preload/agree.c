/* Whether MPICH's own engine moves a (count, type) as the MPI standard
 * says, so that the MPICH kind (strategy.c) puts on the wire the bytes
 * every other kind does. MPICH 4.0.2 departs from the standard for some
 * constructs (struct bounds from lb/ub markers, empty members, copies of
 * negative extent; test/test_mpich.c pins each), and no list of them can
 * be trusted to be whole, so the plan asks MPICH itself, once: its bounds
 * must be dataloop's, and MPI_Pack of a probe must give dl_pack's bytes.
 * Two copies are probed however many there are: MPICH packs count copies
 * as copies of one at its own extent, so if the second lies where the
 * standard puts it, every later one does.
 * The probe is the data's span in fresh anonymous memory with a patterned
 * stream of nonzero bytes unpacked into it: only the pages the typemap
 * touches cost memory, and a byte MPICH takes from elsewhere is 0. MPICH
 * may read outside the span the standard gives (a negative-extent copy
 * packed one extent too far), so the mapping has margins of the span's
 * size and more around it. Data spanning more than PROBE_MAX is not
 * probed, and not handed to MPICH. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "preload.h"

#define PROBE_MAX ((size_t)1 << 30)   /* of span: a face of a 512^3 cube */
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

/* nonzero bytes, each a different function of its position */
static void pattern(unsigned char *p, size_t n)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(1 + ((i * 0x9E3779B1u) >> 11 ^ i >> 8) % 255);
}

/* dl_pack's and MPICH's bytes of the probe at buf */
static bool same_bytes(const dlp_data *d, void *buf, char *mine, char *theirs)
{
  size_t pos = 0;
  MPI_Count mpos = 0;
  pattern((unsigned char *)theirs, d->bytes);
  return dl_unpack(theirs, d->bytes, &pos, buf, d->count, d->t) == DL_OK &&
         (pos = 0, dl_pack(buf, d->count, d->t, mine, d->bytes, &pos) == DL_OK) &&
         PMPI_Pack_c(buf, d->count, d->dt, theirs, (MPI_Count)d->bytes, &mpos,
                     MPI_COMM_SELF) == MPI_SUCCESS &&
         pos == d->bytes && (size_t)mpos == d->bytes &&
         memcmp(mine, theirs, d->bytes) == 0;
}

bool dlp_mpich_agrees(const dlp_data *whole)
{
  dlp_data probe = *whole, *d = &probe;
  if (d->count > 2) {
    d->count = 2;
    d->bytes = whole->bytes / (size_t)whole->count * 2;
  }
  dl_aint lo, hi;
  if (!bounds_agree(d) || !span_of(d, &lo, &hi) || (size_t)(hi - lo) > PROBE_MAX)
    return false;
  size_t span = (size_t)(hi - lo), margin = span + MARGIN_MIN;
  size_t len = span + 2 * margin;
  void *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  char *mine = malloc(d->bytes + 1), *theirs = malloc(d->bytes + 1);
  bool same = false;
  if (map != MAP_FAILED && mine && theirs) {
    /* integer arithmetic: the buffer the type's offsets start from */
    void *buf = (void *)((uintptr_t)map + margin - (uintptr_t)lo);
    same = same_bytes(d, buf, mine, theirs);
  }
  if (map != MAP_FAILED)
    munmap(map, len);
  free(mine);
  free(theirs);
  return same;
}
