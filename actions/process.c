/* The segment calls: each runs one action over a range of the stream.
 * A bounded segment whose whole extent is not known to fit its bounds is
 * first walked with a checking action over the same range, so a call that
 * would touch anything outside fails before touching anything. */
#include "actions.h"
#include "../src/codegen/policy.h"

struct check {
  const dl_segment *s;
  bool out;
};

/* Lowest and highest byte a piece touches, plus one, as offsets from its
   base. A whole indexed leaf is known from when the type was built; only
   the partial pieces at a range's ends are scanned block by block. The
   repetitions are added modulo 2^64: a base may lie far from its data, so
   only the sums relative to buf are known to fit in 64 bits. */
static void piece_span(const dl_piece *p, const dli_leaf *lf, uint64_t *lo,
                       uint64_t *hi)
{
  dl_aint a = 0, z = 0;
  if (!p->offs) {                          /* contig or vector */
    dl_aint last = (p->count - 1) * p->stride;
    a = last < 0 ? last : 0;
    z = (last > 0 ? last : 0) + (dl_aint)p->blk;
  } else if (p->offs == lf->offs && p->count == lf->count) {
    a = lf->lo;
    z = lf->hi;
  } else {
    for (dl_count i = 0; i < p->count; i++) {
      dl_aint len = p->pre ? p->pre[i + 1] - p->pre[i] : (dl_aint)p->blk;
      if (i == 0 || p->offs[i] < a) a = p->offs[i];
      if (i == 0 || p->offs[i] + len > z) z = p->offs[i] + len;
    }
  }
  dl_aint rl = (p->reps - 1) * p->rep_stride;
  *lo = (uint64_t)a + (uint64_t)(rl < 0 ? rl : 0);
  *hi = (uint64_t)z + (uint64_t)(rl > 0 ? rl : 0);
}

/* Bounds are compared as offsets from buf, which fit in 64 bits for every
   byte a type touches (its bounds are checked when it is built or read). */
static size_t check_piece(void *st, const dl_piece *p)
{
  struct check *c = st;
  uint64_t a, z;
  piece_span(p, &c->s->leaf, &a, &z);
  uint64_t rel = (uint64_t)((uintptr_t)p->base - c->s->buf);
  dl_aint lo = (dl_aint)(rel + a), hi = (dl_aint)(rel + z);
  if (lo < c->s->lo || hi > c->s->hi || lo > hi) {
    c->out = true;
    return 0;
  }
  return dl_piece_bytes(p);
}

static const dl_action check_action = {check_piece, check_piece, check_piece,
                                       check_piece};

int dli_process(dl_segment *s, size_t first, size_t *last, const dl_action *a,
                void *state, dli_bulk_fn bulk)
{
  if (s->bounded && !s->inside) {
    struct check c = {s, false};
    size_t end = *last;
    int rc = dli_segment_run(s, first, &end, &check_action, &c, NULL);
    if (rc)
      return rc;
    if (c.out)
      return DL_ERR_BOUNDS;
  }
  return dli_segment_run(s, first, last, a, state, bulk);
}

int dl_segment_process(dl_segment *s, size_t first, size_t *last,
                       const dl_action *a, void *state)
{
  if (!s || !last || !a || !a->contig || !a->vector || !a->blockindexed ||
      !a->indexed)
    return DL_ERR_ARG;
  return dli_process(s, first, last, a, state, NULL);
}

static bool range_ok(const dl_segment *s, size_t first, const size_t *last)
{
  return s && last && first <= *last && first <= s->size;
}

/* a buffer is needed unless the range is empty */
static bool buf_ok(const dl_segment *s, size_t first, const size_t *last,
                   const void *buf)
{
  return buf || first == (*last < s->size ? *last : s->size);
}

/* the checks of dl_segment_pack and dl_segment_unpack, with details */
static int move_args(const char *call, const dl_segment *s, size_t first,
                     const size_t *last, const void *buf)
{
  if (!s || !last)
    return dli_fail(DL_ERR_ARG, "%s: NULL segment or last", call);
  if (first > *last || first > s->size)
    return dli_fail(DL_ERR_ARG, "%s: first %zu past *last %zu or past the "
                    "stream's %zu bytes", call, first, *last, s->size);
  if (!buf_ok(s, first, last, buf))
    return dli_fail(DL_ERR_ARG, "%s: NULL buffer for a nonempty range", call);
  /* the segment's own buffer is checked here, not at creation: a segment
     of a NULL buffer is how offset lists relative to 0 are made */
  if (first < (*last < s->size ? *last : s->size))
    return dli_check_bottom((const void *)s->buf, s->count, s->type, call);
  return DL_OK;
}

/* the whole stream from its start, with nothing to check against bounds:
   the one-shot path, which allocates nothing where a stack of its own
   fits on the call's */
static bool whole(const dl_segment *s, size_t first, const size_t *last)
{
  return first == 0 && *last >= s->size && s->size > 0 && (!s->bounded || s->inside) &&
         s->cap <= DLI_STACK_FRAMES;
}

int dl_segment_pack(dl_segment *s, size_t first, size_t *last, void *outbuf)
{
  int rc = move_args("dl_segment_pack", s, first, last, outbuf);
  if (rc)
    return rc;
  if (whole(s, first, last))
    return dli_whole_moves(s, outbuf, true, last);
  char *cur = outbuf;
  dli_jit_note_use(s->type, DLI_JIT_PACK);
  return dli_process(s, first, last, &dli_pack_action, &cur,
                     dli_bulk_for(s->type, DLI_JIT_PACK));
}

int dl_segment_unpack(dl_segment *s, size_t first, size_t *last,
                      const void *inbuf)
{
  int rc = move_args("dl_segment_unpack", s, first, last, inbuf);
  if (rc)
    return rc;
  if (whole(s, first, last))
    return dli_whole_moves(s, (char *)inbuf, false, last);
  char *cur = (char *)inbuf;
  dli_jit_note_use(s->type, DLI_JIT_UNPACK);
  return dli_process(s, first, last, &dli_unpack_action, &cur,
                     dli_bulk_for(s->type, DLI_JIT_UNPACK));
}

int dl_segment_iov(dl_segment *s, size_t first, size_t *last,
                   struct iovec *iov, size_t max_iov, size_t *n_iov)
{
  if (!range_ok(s, first, last) || !n_iov || (max_iov > 0 && !iov))
    return DL_ERR_ARG;
  struct dli_iov_state st = {iov, max_iov, 0};
  int rc = dli_process(s, first, last, &dli_iov_action, &st, NULL);
  *n_iov = st.n;
  return rc;
}

int dl_segment_iov_count(dl_segment *s, size_t first, size_t *last, size_t *n)
{
  if (!range_ok(s, first, last) || !n)
    return DL_ERR_ARG;
  struct dli_count_state st = {0, 0};
  int rc = dli_process(s, first, last, &dli_count_action, &st, NULL);
  *n = st.n;
  return rc;
}

int dl_segment_offlen(dl_segment *s, size_t first, size_t *last,
                      int64_t *offsets, int64_t *lengths, size_t max, size_t *n)
{
  if (!range_ok(s, first, last) || !n || (max > 0 && (!offsets || !lengths)))
    return DL_ERR_ARG;
  struct dli_offlen_state st = {s->buf, offsets, lengths, max, 0};
  int rc = dli_process(s, first, last, &dli_offlen_action, &st, NULL);
  *n = st.n;
  return rc;
}
