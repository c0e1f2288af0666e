/* dl_file_write_at and dl_file_read_at: the request, the batch loop over
 * file pieces, and direct transfer (one system call per file piece, its
 * memory side joined from the memory segment). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "io.h"

_Static_assert(sizeof(off_t) == sizeof(int64_t), "64-bit file offsets");

/* Where the request lies in the view. Stream position P0 = offset * etype
   size is byte b0 of filetype copy k0; the request needs copies k0..k1.
   Every file offset it can touch is checked to fit int64_t (and off_t). */
static int place(dli_req *r, int64_t offset, dl_count count, const dl_type *mt)
{
  const dl_file_view *v = r->v;
  int64_t n, p0, p1, base, span, end;
  if (__builtin_mul_overflow(count, mt->b.size, &n) || (uint64_t)n > SIZE_MAX ||
      __builtin_mul_overflow(offset, v->esize, &p0))
    return DL_ERR_OVERFLOW;
  r->n = (size_t)n;
  if (n == 0)
    return DL_OK;
  if (__builtin_add_overflow(p0, n - 1, &p1))
    return DL_ERR_OVERFLOW;
  int64_t k0 = p0 / v->fsize, k1 = p1 / v->fsize;
  if (__builtin_mul_overflow(k0, v->fext, &base) ||
      __builtin_add_overflow(base, v->disp, &base) ||
      __builtin_mul_overflow(k1 - k0, v->fext, &span) ||
      __builtin_add_overflow(base, span, &end) ||
      __builtin_add_overflow(end, v->ftrue_ub, &end))
    return DL_ERR_OVERFLOW;
  r->base = base;
  r->f0 = (size_t)(p0 - k0 * v->fsize);
  int rc = dl_segment_create(NULL, k1 - k0 + 1, v->ftype, &r->fs);
  return rc;
}

static int setup(dli_req *r, dl_file_view *v, int64_t offset, const void *buf,
                 dl_count count, const dl_type *mt, bool write)
{
  memset(r, 0, sizeof(*r));
  r->v = v;
  r->write = write;
  if (!v || v->magic != DLI_VIEW_MAGIC || !dli_type_valid(mt) || count < 0 ||
      offset < 0 || (write && v->overlap))
    return DL_ERR_ARG;     /* MPI-IO: no overlapping filetype for writing */
  if (!dli_io_committed(mt))
    return DL_ERR_NOT_COMMITTED;
  int rc = dli_check_bottom(buf, count, mt,
                            write ? "dl_file_write_at" : "dl_file_read_at");
  if (rc)
    return rc;
  rc = place(r, offset, count, mt);
  if (rc || r->n == 0)
    return rc;
  if (r->n % (size_t)v->esize != 0)
    return DL_ERR_ARG;     /* MPI-IO: whole etypes only */
  r->sieve = (write ? v->lim.sieve_write : v->lim.sieve_read) > 0;
  r->lock = write && r->sieve;
  return dl_segment_create((void *)buf, count, mt, &r->ms);
}

/* file offset of piece j of the batch */
static inline int64_t poff(const dli_req *r, size_t j)
{
  return r->base + r->sc->offs[j];
}

int dli_direct_rw(dli_req *r, size_t k, size_t d, size_t s, size_t *moved)
{
  const int64_t *lens = r->sc->lens;
  int64_t lo = poff(r, k), hi = lo + lens[k];
  for (size_t j = k + 1; j < k + d; j++) {
    if (poff(r, j) < lo) lo = poff(r, j);
    if (poff(r, j) + lens[j] > hi) hi = poff(r, j) + lens[j];
  }
  /* a sieving writer elsewhere must not read-modify-write these bytes
     while they are written; a refused lock only loses that protection */
  bool locked = r->lock && dli_io_lock(r, lo, hi);
  int rc = DL_OK;
  *moved = 0;
  for (size_t j = k; j < k + d && !rc && !r->eof; j++) {
    size_t m = s + *moved - r->f0, len = (size_t)lens[j], pd = 0;
    while (pd < len && !rc && !r->eof) {
      size_t nio, bytes, got = 0;
      rc = dli_mem_iov(r, m + pd, m + len, r->sc->sys, r->v->lim.sys_iov_max,
                       &nio, &bytes);
      if (!rc)
        rc = dli_io_full(r, r->write, r->sc->sys, nio, poff(r, j) + (int64_t)pd,
                         &got, &r->eof);
      if (got && !r->write && r->mode == DLI_MEM_PACK) {
        int rc2 = dli_mem_filled(r, m + pd, m + pd + got);
        rc = rc ? rc : rc2;
      }
      pd += got;
      *moved += got;
    }
  }
  if (locked)
    dli_io_unlock(r, lo, hi);
  return rc;
}

/* pieces from k that go direct: up to the next one that starts a group */
static size_t direct_run(const dli_req *r, size_t k, size_t np)
{
  size_t d = 1;
  while (k + d < np && !dli_sieve_starts(r, k + d, np))
    d++;
  return d;
}

static int run(dli_req *r)
{
  dli_scratch *sc = r->sc;
  while (r->done < r->n && !r->eof) {
    size_t first = r->f0 + r->done, last = r->f0 + r->n, np;
    int rc = dl_segment_offlen(r->fs, first, &last, sc->offs, sc->lens,
                               r->v->lim.list_max, &np);
    if (rc)
      return rc;
    if (np == 0)
      return DL_ERR_CORRUPT;      /* a list of at least one always fits */
    size_t k = 0, s = first;
    while (k < np && !r->eof) {
      size_t g = dli_sieve_group(r, k, np), moved = 0;
      if (g >= 2)
        rc = dli_sieve_rw(r, k, g, s, &moved);
      else
        rc = dli_direct_rw(r, k, g = direct_run(r, k, np), s, &moved);
      r->done += moved;
      if (rc)
        return rc;
      for (size_t j = k; j < k + g; j++)
        s += (size_t)sc->lens[j];
      k += g;
    }
  }
  return DL_OK;
}

static int rw(dl_file_view *v, int64_t offset, void *buf, dl_count count,
              const dl_type *mt, size_t *bytes, bool write)
{
  if (!bytes)
    return DL_ERR_ARG;
  *bytes = 0;
  dli_req r;
  int rc = setup(&r, v, offset, buf, count, mt, write);
  dli_scratch spare;
  if (!rc && r.n > 0) {
    r.sc = dli_scratch_get(v, &spare);
    rc = dli_scratch_lists(r.sc, &v->lim);
    if (!rc)
      rc = dli_mem_start(&r);
    if (!rc)
      rc = run(&r);
    int err = errno;
    if (!write && r.sc->offs) {
      int rc2 = dli_mem_flush(&r);   /* what was read reaches memory */
      rc = rc ? rc : rc2;
    }
    dli_scratch_put(v, r.sc);
    errno = err;
  }
  int err = errno;
  dl_segment_free(&r.fs);
  dl_segment_free(&r.ms);
  *bytes = r.done;
  if (rc == DL_ERR_IO)
    errno = err;
  return rc;
}

int dl_file_write_at(dl_file_view *v, int64_t offset, const void *buf,
                     dl_count count, const dl_type *memtype, size_t *bytes)
{
  return rw(v, offset, (void *)buf, count, memtype, bytes, true);
}

int dl_file_read_at(dl_file_view *v, int64_t offset, void *buf,
                    dl_count count, const dl_type *memtype, size_t *bytes)
{
  return rw(v, offset, buf, count, memtype, bytes, false);
}
