/* MPI_Pack_external and MPI_Unpack_external for "external32", over any byte
 * range of the external stream. The segment moves native bytes between
 * memory and a chunk buffer as always; the chunk is converted run by run
 * along the type's signature. A cursor over the signature finds the run at
 * any external position in O(depth * log n), as a segment's stack does for
 * the native stream. When every element keeps its size, packing writes the
 * native bytes straight into the output and converts them in place. An
 * element cut by a range's end goes through a buffer of one element. */
#include <stdlib.h>
#include <string.h>
#include "actions.h"
#include "../src/codegen/policy.h"

#define SCRATCH 16384          /* native bytes of a chunk: stays in L1 */
#define MAX_ELEM 32            /* bytes of the largest basic element */

typedef struct xframe {
  const dli_sig *s;
  dl_count rep, item;
} xframe;

typedef struct xcur {
  const dli_sig *root;       /* count copies of the type's signature */
  dli_sig top;               /* root's node when count > 1 */
  xframe f[DLI_SIG_MAX_DEPTH + 1];
  int depth;
  const dli_sig *run;        /* the run being walked; NULL at the end */
  dl_count e;                /* its current element */
  size_t x, n;               /* where that element starts: external, native */
} xcur;

/* the item of sequence s holding byte x of one repetition */
static dl_count find_item(const dli_sig *s, size_t x)
{
  dl_count lo = 0, hi = s->n - 1;
  while (lo < hi) {                  /* largest j with xpre[j] <= x */
    dl_count mid = lo + (hi - lo + 1) / 2;
    if ((size_t)s->xpre[mid] <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Walks down from root to the element holding external byte x < the
   stream's size: its run, its index there, where it starts (external,
   native); records the frames on the way when f is not NULL. */
static const dli_sig *descend(const dli_sig *s, size_t x, xframe *f, int *depth,
                              dl_count *e, size_t *xs, size_t *ns)
{
  size_t xb = 0, nb = 0;
  int d = 0;
  while (s->basic == DLI_SIG_SEQ) {
    size_t r = x / (size_t)s->xsize;
    x -= r * (size_t)s->xsize;
    dl_count j = find_item(s, x);
    x -= (size_t)s->xpre[j];
    xb += r * (size_t)s->xsize + (size_t)s->xpre[j];
    nb += r * (size_t)s->nsize + (size_t)s->npre[j];
    if (f)
      f[d++] = (xframe){s, (dl_count)r, j};
    s = s->items[j];
  }
  if (depth)
    *depth = d;
  *e = (dl_count)(x / (size_t)s->xsize);
  *xs = xb + (size_t)*e * (size_t)s->xsize;
  *ns = nb + (size_t)*e * (size_t)s->nsize;
  return s;
}

/* positions c at the element holding external byte x < the stream's size */
static void seek(xcur *c, size_t x)
{
  c->run = descend(c->root, x, c->f, &c->depth, &c->e, &c->x, &c->n);
}

static void next_run(xcur *c)
{
  while (c->depth > 0) {
    xframe *f = &c->f[c->depth - 1];
    if (++f->item == f->s->n) {
      f->item = 0;
      if (++f->rep == f->s->reps) {
        c->depth--;
        continue;
      }
    }
    const dli_sig *s = f->s->items[f->item];
    while (s->basic == DLI_SIG_SEQ) {
      c->f[c->depth++] = (xframe){s, 0, 0};
      s = s->items[0];
    }
    c->run = s;
    c->e = 0;
    return;
  }
  c->run = NULL;
}

static void advance(xcur *c, dl_count m)
{
  c->e += m;
  c->x += (size_t)m * (size_t)c->run->xsize;
  c->n += (size_t)m * (size_t)c->run->nsize;
  if (c->e == c->run->reps)
    next_run(c);
}

/* the element boundary at or before external byte x, and its native
   position */
static void locate(const xcur *c, size_t x, size_t *xe, size_t *ne)
{
  const dli_sig *s = c->root;
  if (x >= (size_t)s->reps * (size_t)s->xsize) {
    *xe = (size_t)s->reps * (size_t)s->xsize;
    *ne = (size_t)s->reps * (size_t)s->nsize;
    return;
  }
  dl_count e;
  descend(s, x, NULL, NULL, &e, xe, ne);
}

/* converts the whole elements of external bytes [c->x, xend) between src
   and dst, advancing c */
static void convert(xcur *c, size_t xend, const char *src, char *dst, bool enc)
{
  while (c->x < xend) {
    const dli_sig *r = c->run;
    dl_count m = r->reps - c->e;
    size_t fit = (xend - c->x) / (size_t)r->xsize;
    if ((size_t)m > fit)
      m = (dl_count)fit;
    if (m == 0)
      return;                 /* xend inside an element: a caller's bug */
    size_t nb = (size_t)m * (size_t)r->nsize, xb = (size_t)m * (size_t)r->xsize;
    if (enc)
      dli_x32_encode(r->basic, src, dst, (size_t)m);
    else
      dli_x32_decode(r->basic, src, dst, (size_t)m);
    src += enc ? nb : xb;
    dst += enc ? xb : nb;
    advance(c, m);
  }
}

typedef struct xjob {
  dl_segment *s;
  dli_bulk_fn bulk[2];       /* compiled pack and unpack, or NULL */
} xjob;

/* native bytes [n0, n1) of the segment to or from buf */
static int native(const xjob *j, size_t n0, size_t n1, char *buf, int dir)
{
  char *cur = buf;
  size_t last = n1;
  return dli_process(j->s, n0, &last,
                     dir == DLI_JIT_PACK ? &dli_pack_action : &dli_unpack_action,
                     &cur, j->bulk[dir]);
}

/* the current element in external form, in x */
static int element(const xjob *j, const xcur *c, char x[MAX_ELEM])
{
  char nat[MAX_ELEM];
  int rc = native(j, c->n, c->n + (size_t)c->run->nsize, nat, DLI_JIT_PACK);
  if (!rc)
    dli_x32_encode(c->run->basic, nat, x, 1);
  return rc;
}

/* whole elements [c->x, xend) of a type of one basic type, in one pass of
   the segment with a converting action; c ends at xend (unless that is the
   end of the stream) */
static int one_pass(const xjob *j, xcur *c, size_t xend, size_t nend, char *ext,
                    int dir)
{
  struct dli_x32_state st = {ext, c->root->basic};
  size_t last = nend;
  int rc = dli_process(j->s, c->n, &last,
                       dir == DLI_JIT_PACK ? &dli_x32_pack_action : &dli_x32_unpack_action,
                       &st, NULL);
  if (rc)
    return rc;
  if (xend < (size_t)c->root->reps * (size_t)c->root->xsize) {
    seek(c, xend);
  } else {                          /* the end of the stream */
    c->x = xend;
    c->n = nend;
    c->run = NULL;
  }
  return DL_OK;
}

static int x32_pack(const xjob *j, xcur *c, size_t first, size_t last, char *out)
{
  if (c->root->same)                /* external32 is the native stream */
    return native(j, first, last, out, DLI_JIT_PACK);
  seek(c, first);
  char x[MAX_ELEM];
  int rc;
  if (c->x < first) {                         /* an element begun before */
    size_t end = c->x + (size_t)c->run->xsize, k = (end < last ? end : last) - first;
    if ((rc = element(j, c, x)))
      return rc;
    memcpy(out, x + (first - c->x), k);
    advance(c, 1);
  }
  size_t xend, nend;
  locate(c, last, &xend, &nend);
  bool resize = c->root->resize;
  char scratch[SCRATCH];
  size_t chunk = resize ? SCRATCH / 2 : SCRATCH;
  if (c->root->basic != DLI_SIG_SEQ && c->x < xend &&
      (rc = one_pass(j, c, xend, nend, out + (c->x - first), DLI_JIT_PACK)))
    return rc;
  while (c->x < xend) {
    size_t xe, ne, n0 = c->n;
    locate(c, c->x + chunk < xend ? c->x + chunk : xend, &xe, &ne);
    char *dst = out + (c->x - first), *nat = resize ? scratch : dst;
    if ((rc = native(j, n0, ne, nat, DLI_JIT_PACK)))
      return rc;
    convert(c, xe, nat, dst, true);
  }
  if (last > c->x) {                          /* an element that goes on */
    if ((rc = element(j, c, x)))
      return rc;
    memcpy(out + (c->x - first), x, last - c->x);
  }
  return DL_OK;
}

/* ---- elements cut by an unpack call's range ---- */

static dli_partial *slot_of(dl_segment *s, size_t pos)
{
  for (int i = 0; i < DLI_PARTIALS; i++)
    if (s->partial[i].have && s->partial[i].pos == pos)
      return &s->partial[i];
  return NULL;
}

/* a free slot, or the one used longest ago */
static dli_partial *slot_new(dl_segment *s, size_t pos)
{
  dli_partial *p = &s->partial[0];
  for (int i = 0; i < DLI_PARTIALS; i++) {
    if (!s->partial[i].have) {
      p = &s->partial[i];
      break;
    }
    if (s->partial[i].age < p->age)
      p = &s->partial[i];
  }
  p->pos = pos;
  p->have = 0;
  return p;
}

/* elements [x0, x1) arrived whole: anything kept of them is stale */
static void slots_drop(dl_segment *s, size_t x0, size_t x1)
{
  for (int i = 0; i < DLI_PARTIALS; i++)
    if (s->partial[i].have && s->partial[i].pos >= x0 && s->partial[i].pos < x1)
      s->partial[i].have = 0;
}

static uint32_t bits(size_t n)
{
  return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Bytes [off, off + len) of the current element from src. The rest comes
   from what earlier calls brought of it (kept in a slot), else from memory
   through its external form; memory gets the element decoded from all of
   that, and the slot is freed once every byte has come. Decoding a long
   double can round, so re-encoding memory would not give back bytes that
   were sent: the slot keeps them. */
static int patch(const xjob *j, const xcur *c, const char *src, size_t off,
                 size_t len)
{
  char x[MAX_ELEM], nat[MAX_ELEM];
  size_t xs = (size_t)c->run->xsize;
  dli_partial *p = slot_of(j->s, c->x);
  int rc;
  if (p)
    memcpy(x, p->bytes, xs);
  else if ((rc = element(j, c, x)))
    return rc;
  memcpy(x + off, src, len);
  uint32_t have = (p ? p->have : 0) | bits(len) << off;
  if (have != bits(xs)) {
    if (!p)
      p = slot_new(j->s, c->x);
    memcpy(p->bytes, x, xs);
    p->have = have;
    p->age = ++j->s->partial_age;
  } else if (p) {
    p->have = 0;
  }
  dli_x32_decode(c->run->basic, x, nat, 1);
  return native(j, c->n, c->n + (size_t)c->run->nsize, nat, DLI_JIT_UNPACK);
}

static int x32_unpack(const xjob *j, xcur *c, size_t first, size_t last,
                      const char *in)
{
  if (c->root->same)
    return native(j, first, last, (char *)in, DLI_JIT_UNPACK);
  seek(c, first);
  int rc;
  if (c->x < first) {
    size_t end = c->x + (size_t)c->run->xsize, k = (end < last ? end : last) - first;
    if ((rc = patch(j, c, in, first - c->x, k)))
      return rc;
    advance(c, 1);
  }
  size_t xend, nend;
  locate(c, last, &xend, &nend);
  char scratch[SCRATCH];
  size_t chunk = c->root->resize ? SCRATCH / 2 : SCRATCH;
  if (c->root->basic != DLI_SIG_SEQ && c->x < xend) {
    size_t x0 = c->x;
    if ((rc = one_pass(j, c, xend, nend, (char *)in + (c->x - first), DLI_JIT_UNPACK)))
      return rc;
    slots_drop(j->s, x0, xend);
  }
  while (c->x < xend) {
    size_t xe, ne, n0 = c->n;
    locate(c, c->x + chunk < xend ? c->x + chunk : xend, &xe, &ne);
    size_t x0 = c->x;
    convert(c, xe, in + (c->x - first), scratch, false);
    if ((rc = native(j, n0, ne, scratch, DLI_JIT_UNPACK)))
      return rc;
    slots_drop(j->s, x0, xe);
  }
  if (last > c->x)
    return patch(j, c, in + (c->x - first), 0, last - c->x);
  return DL_OK;
}

/* ---- the calls ---- */

static int datarep_ok(const char *datarep)
{
  if (!datarep)
    return dli_fail(DL_ERR_ARG, "NULL data representation");
  if (strcmp(datarep, "external32") != 0)
    return dli_fail(DL_ERR_UNSUPPORTED, "data representation \"%.64s\" is "
                    "not supported (only \"external32\")", datarep);
  return DL_OK;
}

/* external bytes of (count, t); DL_ERR_UNSUPPORTED when t's element types
   are unknown */
static int ext_size(dl_count count, const dl_type *t, size_t *size)
{
  dl_count per, n;
  if (t->b.size == 0 || count == 0) {
    *size = 0;
    return DL_OK;
  }
  if (!t->sig)
    return dli_fail(DL_ERR_UNSUPPORTED, "external32: the type's element types "
                    "are unknown (a deserialized type, or structs nested past "
                    "%d levels)", DLI_SIG_MAX_DEPTH);
  if (__builtin_mul_overflow(t->sig->reps, t->sig->xsize, &per) ||
      __builtin_mul_overflow(per, count, &n) || (uint64_t)n > SIZE_MAX)
    return DL_ERR_OVERFLOW;
  *size = (size_t)n;
  return DL_OK;
}

static void job_init(xjob *j, xcur *c, dl_segment *s)
{
  j->s = s;
  j->bulk[DLI_JIT_PACK] = dli_bulk_for(s->type, DLI_JIT_PACK);
  j->bulk[DLI_JIT_UNPACK] = dli_bulk_for(s->type, DLI_JIT_UNPACK);
  c->root = dli_sig_copies(&c->top, s->type->sig, s->count);
}

int dl_pack_external_size(const char *datarep, dl_count count, const dl_type *t,
                          size_t *size)
{
  int rc = datarep_ok(datarep);
  if (rc == DL_OK && (!dli_type_valid(t) || count < 0 || !size))
    rc = dli_fail(DL_ERR_ARG, "dl_pack_external_size: NULL or freed type, "
                  "negative count or NULL size pointer");
  return rc ? rc : ext_size(count, t, size);
}

/* packs or unpacks the first min(size, avail) external bytes of (count, t)
   at user memory; *moved says how many */
static int oneshot(bool pack, uintptr_t user, dl_count count, const dl_type *t,
                   char *ext, size_t avail, size_t *moved)
{
  size_t size = 0;
  *moved = 0;
  int rc = ext_size(count, t, &size);
  if (rc)
    return rc;
  size_t n = size < avail ? size : avail;
  if (n == 0)
    return size > 0 ? DL_ERR_TRUNCATE : DL_OK;
  dli_jit_note_use(t, pack ? DLI_JIT_PACK : DLI_JIT_UNPACK);
  int frames = dli_segment_frames(t);
  dl_segment *s = frames <= DLI_STACK_FRAMES ? __builtin_alloca(dli_segment_bytes(frames))
                                         : malloc(dli_segment_bytes(frames));
  if (!s)
    return DL_ERR_NOMEM;
  rc = dli_segment_init(s, frames, user, count, t);
  if (!rc) {
    xjob j;
    xcur c;
    job_init(&j, &c, s);
    rc = pack ? x32_pack(&j, &c, 0, n, ext) : x32_unpack(&j, &c, 0, n, ext);
  }
  if (frames > DLI_STACK_FRAMES)
    free(s);
  if (rc)
    return rc;
  *moved = n;
  return n < size ? DL_ERR_TRUNCATE : DL_OK;
}

/* MPI_Pack_external's and MPI_Unpack_external's checks and position
   arithmetic around oneshot: ext, size bytes, is the external side */
static int call(bool pack, const char *datarep, uintptr_t user, dl_count count,
                const dl_type *t, const void *ext, size_t size, size_t *position)
{
  int rc = datarep_ok(datarep);
  if (rc)
    return rc;
  rc = dli_pack_args(pack ? "dl_pack_external" : "dl_unpack_external", t,
                     count, position, size, ext, (const void *)user);
  if (rc)
    return rc;
  size_t moved;
  rc = oneshot(pack, user, count, t, ext ? (char *)ext + *position : NULL,
               size - *position, &moved);
  *position += moved;
  return rc;
}

int dl_pack_external(const char *datarep, const void *inbuf, dl_count incount,
                     const dl_type *t, void *outbuf, size_t outsize,
                     size_t *position)
{
  return call(true, datarep, (uintptr_t)inbuf, incount, t, outbuf, outsize, position);
}

int dl_unpack_external(const char *datarep, const void *inbuf, size_t insize,
                       size_t *position, void *outbuf, dl_count outcount,
                       const dl_type *t)
{
  return call(false, datarep, (uintptr_t)outbuf, outcount, t, inbuf, insize, position);
}

/* checks a segment call's arguments and clips *last to the stream */
static int seg_range(const char *datarep, dl_segment *s, size_t first,
                     size_t *last, const void *buf, size_t *size)
{
  int rc = datarep_ok(datarep);
  if (rc)
    return rc;
  if (!s || !last || first > *last)
    return dli_fail(DL_ERR_ARG, "segment external32 call: NULL segment or "
                    "last, or first past *last");
  if ((rc = ext_size(s->count, s->type, size)))
    return rc;
  if (first > *size)
    return dli_fail(DL_ERR_ARG, "segment external32 call: first %zu past the "
                    "stream's %zu bytes", first, *size);
  if (*last > *size)
    *last = *size;
  if (!buf && first < *last)
    return dli_fail(DL_ERR_ARG, "segment external32 call: NULL buffer for a "
                    "nonempty range");
  return first < *last ? dli_check_bottom((const void *)s->buf, s->count,
                                          s->type, "segment external32 call")
                       : DL_OK;
}

static int seg_call(bool pack, const char *datarep, dl_segment *s, size_t first,
                    size_t *last, char *buf)
{
  size_t size;
  int rc = seg_range(datarep, s, first, last, buf, &size);
  if (rc || first == *last)
    return rc;
  dli_jit_note_use(s->type, pack ? DLI_JIT_PACK : DLI_JIT_UNPACK);
  xjob j;
  xcur c;
  job_init(&j, &c, s);
  return pack ? x32_pack(&j, &c, first, *last, buf)
              : x32_unpack(&j, &c, first, *last, buf);
}

int dl_segment_pack_external(const char *datarep, dl_segment *s, size_t first,
                             size_t *last, void *outbuf)
{
  return seg_call(true, datarep, s, first, last, outbuf);
}

int dl_segment_unpack_external(const char *datarep, dl_segment *s, size_t first,
                               size_t *last, const void *inbuf)
{
  return seg_call(false, datarep, s, first, last, (char *)inbuf);
}
