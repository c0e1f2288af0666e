/* Data sieving. A run of consecutive file pieces (in stream order) is
 * sieved when
 *   - there are at least two,
 *   - every piece is at most piece_max bytes (a bigger piece pays for its
 *     own system call),
 *   - each piece adds at most gap_read (4 KiB) or gap_write (32 KiB) bytes
 *     of hole to the covering extent (in a view, whose pieces are sorted:
 *     the hole before it is at most that),
 *   - the covering extent fits the sieve buffer, and the pieces' bytes the
 *     stage buffer.
 * One pread covers the extent; the copy between it and memory runs through
 * the file segment with the pack or unpack kernels, addresses shifted into
 * the sieve buffer. Writes hold an fcntl write lock on the extent from the
 * read to the write-back, and write back only bytes that existed before
 * (below the old end of file) or that the request writes. */
#include <errno.h>
#include "io.h"

static inline int64_t poff(const dli_req *r, size_t j)
{
  return r->base + r->sc->offs[j];
}

static size_t sieve_cap(const dli_req *r)
{
  return r->write ? r->v->lim.sieve_write : r->v->lim.sieve_read;
}

/* whether piece j may join a group covering [lo, hi) with `bytes` bytes */
static bool joins(const dli_req *r, int64_t lo, int64_t hi, size_t bytes, size_t j)
{
  const dli_io_limits *l = &r->v->lim;
  int64_t o = poff(r, j), len = r->sc->lens[j];
  if ((uint64_t)len > l->piece_max || bytes + (size_t)len > dli_mem_span_max(r))
    return false;
  int64_t nlo = o < lo ? o : lo, nhi = o + len > hi ? o + len : hi;
  int64_t added = (nhi - nlo) - (hi - lo) - len;
  size_t gap = r->write ? l->gap_write : l->gap_read;
  return (uint64_t)(nhi - nlo) <= sieve_cap(r) && (added <= 0 || (uint64_t)added <= gap);
}

bool dli_sieve_starts(const dli_req *r, size_t k, size_t np)
{
  if (!r->sieve || k + 1 >= np || (uint64_t)r->sc->lens[k] > r->v->lim.piece_max)
    return false;
  return joins(r, poff(r, k), poff(r, k) + r->sc->lens[k], (size_t)r->sc->lens[k],
               k + 1);
}

size_t dli_sieve_group(const dli_req *r, size_t k, size_t np)
{
  if (!dli_sieve_starts(r, k, np))
    return 0;
  int64_t lo = poff(r, k), hi = lo + r->sc->lens[k];
  size_t bytes = (size_t)r->sc->lens[k], g = 1;
  while (k + g < np && joins(r, lo, hi, bytes, k + g)) {
    int64_t o = poff(r, k + g), e = o + r->sc->lens[k + g];
    lo = o < lo ? o : lo;
    hi = e > hi ? e : hi;
    bytes += (size_t)r->sc->lens[k + g];
    g++;
  }
  return g;
}

size_t dli_prefix_below(const dli_req *r, size_t k, size_t g, int64_t lim)
{
  size_t acc = 0;
  for (size_t j = k; j < k + g; j++) {
    int64_t o = poff(r, j), len = r->sc->lens[j];
    if (o + len > lim)
      return acc + (o < lim ? (size_t)(lim - o) : 0);
    acc += (size_t)len;
  }
  return acc;
}

/* ---- the kernels, with addresses moved into the sieve buffer ---- */

struct shift {
  char *cur;             /* packed side, as the pack/unpack actions keep it */
  uintptr_t delta;       /* file-segment address + delta = buffer address */
  const dl_action *a;
};

static size_t shifted(void *st, const dl_piece *p, int which)
{
  struct shift *s = st;
  dl_piece q = *p;
  q.base = (char *)((uintptr_t)p->base + s->delta);
  dl_leaf_fn f = which == 0 ? s->a->contig : which == 1 ? s->a->vector
               : which == 2 ? s->a->blockindexed : s->a->indexed;
  return f(&s->cur, &q);
}

static size_t sh_contig(void *st, const dl_piece *p) { return shifted(st, p, 0); }
static size_t sh_vector(void *st, const dl_piece *p) { return shifted(st, p, 1); }
static size_t sh_blockidx(void *st, const dl_piece *p) { return shifted(st, p, 2); }
static size_t sh_indexed(void *st, const dl_piece *p) { return shifted(st, p, 3); }
static const dl_action shift_action = {sh_contig, sh_vector, sh_blockidx, sh_indexed};

/* copies file-side stream [s, e) between the sieve buffer (holding the
   file from offset lo) and the packed bytes at p */
static int copy(dli_req *r, size_t s, size_t e, char *sieve, int64_t lo, char *p)
{
  struct shift st = {p, (uintptr_t)sieve + (uintptr_t)(r->base - lo),
                     r->write ? &dli_unpack_action : &dli_pack_action};
  size_t last = e;
  return s < e ? dli_process(r->fs, s, &last, &shift_action, &st, NULL) : DL_OK;
}

static void extent(const dli_req *r, size_t k, size_t g, int64_t *lo, int64_t *hi,
                   size_t *bytes)
{
  *lo = poff(r, k);
  *hi = *lo + r->sc->lens[k];
  *bytes = 0;
  for (size_t j = k; j < k + g; j++) {
    int64_t o = poff(r, j), e = o + r->sc->lens[j];
    *lo = o < *lo ? o : *lo;
    *hi = e > *hi ? e : *hi;
    *bytes += (size_t)r->sc->lens[j];
  }
}

static int sieve_read(dli_req *r, size_t k, size_t g, size_t s, size_t *moved)
{
  int64_t lo, hi;
  size_t bytes, got = 0;
  extent(r, k, g, &lo, &hi, &bytes);
  char *sb = dli_scratch_buf(&r->sc->sieve, &r->sc->sieve_cap, (size_t)(hi - lo),
                             sieve_cap(r));
  if (!sb)
    return DL_ERR_NOMEM;
  struct iovec one = {sb, (size_t)(hi - lo)};
  int rc = dli_io_full(r, false, &one, 1, lo, &got, &r->eof);
  int err = errno;
  /* what lies below the first byte not read (end of file, or an error)
     is delivered; the rest of memory stays as it was */
  size_t want = got == (size_t)(hi - lo) ? bytes : dli_prefix_below(r, k, g, lo + (int64_t)got);
  if (want < bytes && !rc)
    r->eof = true;
  char *dst;
  int rc2 = want ? dli_mem_span(r, s - r->f0, s + want - r->f0, &dst) : DL_OK;
  if (!rc2 && want)
    rc2 = copy(r, s, s + want, sb, lo, dst);
  if (!rc2 && want)
    rc2 = dli_mem_filled(r, s - r->f0, s + want - r->f0);
  *moved = rc2 ? 0 : want;
  errno = err;
  return rc ? rc : rc2;
}

/* writes back the sieve buffer: [lo, old_eof) whole, past it only the
   pieces; *moved gets the stream bytes known written */
static int write_back(dli_req *r, size_t k, size_t g, char *sb, int64_t lo,
                      int64_t old_eof, size_t *moved)
{
  size_t w = 0, acc = 0;
  struct iovec one = {sb, (size_t)(old_eof - lo)};
  int rc = old_eof > lo ? dli_io_full(r, true, &one, 1, lo, &w, NULL) : DL_OK;
  if (rc) {
    *moved = dli_prefix_below(r, k, g, lo + (int64_t)w);
    return rc;
  }
  for (size_t j = k; j < k + g; j++) {
    int64_t o = poff(r, j), e = o + r->sc->lens[j];
    if (e > old_eof) {
      int64_t from = o > old_eof ? o : old_eof;
      one = (struct iovec){sb + (from - lo), (size_t)(e - from)};
      rc = dli_io_full(r, true, &one, 1, from, &w, NULL);
      if (rc) {
        *moved = acc + (size_t)(from - o) + w;
        return rc;
      }
    }
    acc += (size_t)r->sc->lens[j];
  }
  *moved = acc;
  return DL_OK;
}

static int sieve_write(dli_req *r, size_t k, size_t g, size_t s, size_t *moved)
{
  int64_t lo, hi;
  size_t bytes, got;
  extent(r, k, g, &lo, &hi, &bytes);
  char *src, *sb = dli_scratch_buf(&r->sc->sieve, &r->sc->sieve_cap,
                                   (size_t)(hi - lo), sieve_cap(r));
  if (!sb)
    return DL_ERR_NOMEM;
  int rc = dli_mem_span(r, s - r->f0, s + bytes - r->f0, &src);
  if (rc)
    return rc;
  if (!dli_io_lock(r, lo, hi)) {
    r->sieve = r->lock = false;   /* no locks here: no read-modify-write */
    return dli_direct_rw(r, k, g, s, moved);
  }
  bool eof;
  struct iovec one = {sb, (size_t)(hi - lo)};
  if (dli_io_full(r, false, &one, 1, lo, &got, &eof) != DL_OK) {
    dli_io_unlock(r, lo, hi);
    r->sieve = false;             /* e.g. a write-only descriptor */
    return dli_direct_rw(r, k, g, s, moved);
  }
  rc = copy(r, s, s + bytes, sb, lo, src);
  if (!rc)
    rc = write_back(r, k, g, sb, lo, lo + (int64_t)got, moved);
  dli_io_unlock(r, lo, hi);
  return rc;
}

int dli_sieve_rw(dli_req *r, size_t k, size_t g, size_t s, size_t *moved)
{
  *moved = 0;
  return r->write ? sieve_write(r, k, g, s, moved) : sieve_read(r, k, g, s, moved);
}
