/* Block lists of one element type, read in one pass: zero-length blocks
 * skipped, touching blocks merged (unless kept apart), and everything the
 * normalizer needs
 * learned on the way (count, bounds, equal lengths, even spacing, the
 * first blocks, and how far a repeating pattern holds) without copying
 * the list. */
#include <string.h>
#include "build.h"

/* raw block i: displacement in bytes and length in elements */
static inline bool raw(const dli_blocks *s, dl_count i, dl_aint *off,
                       dl_count *len, int *rc)
{
  *len = s->bls ? s->bls[i] : s->bl;
  if (*len < 0) {
    *rc = DL_ERR_ARG;
    return false;
  }
  if (s->bytes) {
    *off = ((const dl_aint *)s->displs)[i];
  } else if (__builtin_mul_overflow(((const dl_count *)s->displs)[i], s->ext, off)) {
    *rc = DL_ERR_OVERFLOW;
    return false;
  }
  return true;
}

/* the raw block at it->i, read once even when looked at twice */
static inline bool peek(dli_blkit *it, dl_aint *off, dl_count *len)
{
  if (it->peeked != it->i + 1) {
    if (!raw(it->s, it->i, &it->poff, &it->plen, &it->rc))
      return false;
    it->peeked = it->i + 1;
  }
  *off = it->poff;
  *len = it->plen;
  return true;
}

static inline __attribute__((always_inline)) bool
next_block(dli_blkit *it, dl_aint *off, dl_count *len)
{
  const dli_blocks *s = it->s;
  dl_aint o, end;
  dl_count l;
  do {                             /* the next nonempty block */
    if (it->i >= s->n || !peek(it, &o, &l))
      return false;
    it->i++;
  } while (l == 0);
  if (__builtin_mul_overflow(l, s->ext, &end) || __builtin_add_overflow(end, o, &end)) {
    it->rc = DL_ERR_OVERFLOW;
    return false;
  }
  *off = o;
  *len = l;
  while (!s->apart && it->i < s->n) {   /* merge what follows without a gap */
    if (!peek(it, &o, &l))
      return false;
    if (l > 0 && o != end)
      break;
    dl_aint more;
    if (__builtin_add_overflow(*len, l, len) ||
        __builtin_mul_overflow(l, s->ext, &more) ||
        __builtin_add_overflow(end, more, &end)) {
      it->rc = DL_ERR_OVERFLOW;
      return false;
    }
    it->i++;
  }
  return true;
}

bool dli_blkit_next(dli_blkit *it, dl_aint *off, dl_count *len)
{
  return next_block(it, off, len);
}

/* bounds of the element copies of one block */
static inline int widen(dli_scan *sc, dl_aint off, dl_count len, dl_aint ext)
{
  dl_aint a = off, z = off;
  if ((len > 1 && (dli_span(len, ext, &a, &z) || __builtin_add_overflow(a, off, &a) ||
                   __builtin_add_overflow(z, off, &z))) ||
      __builtin_add_overflow(sc->ncopies, len, &sc->ncopies))
    return DL_ERR_OVERFLOW;
  if (sc->m == 0 || a < sc->lo) sc->lo = a;
  if (sc->m == 0 || z > sc->hi) sc->hi = z;
  return DL_OK;
}

/* block k as stored: the prefix, or the ring of the latest blocks */
static void get(const dli_scan *sc, dl_count k, dl_count *len, dl_aint *off)
{
  if (k < DLI_SCAN_PREFIX) {
    *len = sc->pbls[k];
    *off = sc->poffs[k];
  } else {
    *len = sc->rbls[k % DLI_FOLD_MAX_PERIOD];
    *off = sc->roffs[k % DLI_FOLD_MAX_PERIOD];
  }
}

/* does block k repeat block k - p? */
static bool repeats(const dli_scan *sc, dl_count k, dl_count len, dl_aint off)
{
  dl_count l0;
  dl_aint o0, d;
  get(sc, k - sc->period, &l0, &o0);
  return l0 == len && !__builtin_sub_overflow(off, o0, &d) && d == sc->pdelta;
}

/* a candidate period from the stored prefix, checked over the prefix */
static void find_period(dli_scan *sc, dl_count np)
{
  dl_count p = dli_prefix_period(sc->pbls, sc->poffs, np);
  if (p == 0 || __builtin_sub_overflow(sc->poffs[p], sc->poffs[0], &sc->pdelta))
    return;
  sc->period = p;
  sc->periodic = np;
  for (dl_count k = p; k < np; k++) {
    if (k % p == 0)
      sc->tail_raw = sc->praw[k];
    if (!repeats(sc, k, sc->pbls[k], sc->poffs[k])) {
      sc->periodic = k;
      break;
    }
  }
}

int dli_scan_blocks(dli_build *b, const dli_blocks *s, dli_scan *sc)
{
  memset(sc, 0, sizeof(*sc));
  sc->uniform = sc->even = true;
  /* the prefix holds at most n blocks; the ring is needed only past it */
  size_t np = s->n < DLI_SCAN_PREFIX ? (size_t)s->n + 1 : DLI_SCAN_PREFIX;
  size_t nr = s->n < DLI_SCAN_PREFIX ? 1 : DLI_FOLD_MAX_PERIOD;
  sc->pbls = dli_build_alloc(b, np * sizeof(dl_count));
  sc->poffs = dli_build_alloc(b, np * sizeof(dl_aint));
  sc->praw = dli_build_alloc(b, np * sizeof(dl_count));
  sc->rbls = dli_build_alloc(b, nr * sizeof(dl_count));
  sc->roffs = dli_build_alloc(b, nr * sizeof(dl_aint));
  if (!sc->pbls || !sc->poffs || !sc->praw || !sc->rbls || !sc->roffs)
    return DL_ERR_NOMEM;
  dli_blkit it = {.s = s};
  dl_aint off, prev = 0;
  dl_count len, raw_at = 0, phase = 0;   /* phase: k modulo the period */
  bool checking = false;       /* past the prefix, pattern still holding */
  while ((raw_at = it.i, next_block(&it, &off, &len))) {
    dl_count k = sc->m;
    int rc = widen(sc, off, len, s->ext);
    if (rc)
      return rc;
    if (k > 0) {
      dl_aint d;
      sc->uniform = sc->uniform && len == sc->pbls[0];
      if (k == 1 && __builtin_sub_overflow(off, prev, &sc->delta))
        sc->even = false;
      sc->even = sc->even && !__builtin_sub_overflow(off, prev, &d) && d == sc->delta;
    }
    if (k < DLI_SCAN_PREFIX) {
      sc->pbls[k] = len;
      sc->poffs[k] = off;
      sc->praw[k] = raw_at;
    } else {
      if (checking) {
        if (++phase == sc->period)
          phase = 0;
        if (phase == 0)
          sc->tail_raw = raw_at;
        if (!repeats(sc, k, len, off)) {
          sc->periodic = k;
          checking = false;
        }
      }
      sc->rbls[k % DLI_FOLD_MAX_PERIOD] = len;
      sc->roffs[k % DLI_FOLD_MAX_PERIOD] = off;
    }
    prev = off;
    sc->m++;
    if (sc->m == DLI_SCAN_PREFIX) {
      find_period(sc, DLI_SCAN_PREFIX);
      checking = sc->period > 0 && sc->periodic == DLI_SCAN_PREFIX;
      phase = checking ? (DLI_SCAN_PREFIX - 1) % sc->period : 0;
    }
  }
  if (it.rc)
    return it.rc;
  if (sc->m < DLI_SCAN_PREFIX)
    find_period(sc, sc->m);
  else if (checking)
    sc->periodic = sc->m;
  return DL_OK;
}
