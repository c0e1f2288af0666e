/* Type-to-type copies: the packed stream of one (buf, count, type) into
 * another's memory without staging the whole stream. Four routes, chosen
 * once per call (doc/design.md, "Copying type to type"):
 * - one side dense: the other side packs into, or unpacks from, its memory;
 * - one type on both sides (or two alike, dli_type_same_places): each
 *   block moves straight to its own offset in the other buffer, shifted
 *   alike (one walk, no stream between);
 * - long runs on both sides: both streams are walked in lockstep as iovec
 *   batches on the stack and each overlap of two runs is one memcpy;
 * - short runs: chunks of the stream are packed into a buffer of half a
 *   core's L2 and unpacked from it, since the leaf kernels move small
 *   blocks far cheaper than a memcpy call per overlap. */
#include <stdlib.h>
#include <string.h>
#include "actions.h"
#include "../src/codegen/policy.h"
#include "../src/tune/tune.h"

/* Mean run (bytes per iovec entry, on the side with the shorter runs) from
   which the lockstep walk beats packing and unpacking a chunk: measured
   with dataloop-bench --copy (doc/benchmarks.md, "Type to type") */
#define LOCKSTEP_MIN_RUN 256
/* array entries two types' trees may compare to find them alike: an
   entry costs about what moving 4 bytes of the stream does */
#define TWIN_BUDGET 256
#define BATCH 128                 /* iovec entries per side and batch */
#define STACK_CHUNK (32 * 1024)   /* staging on the stack, below a heap chunk */

static _Thread_local int last_route, forced_route;
static _Thread_local size_t last_chunk, forced_chunk;

int dli_copy_last_route(void)
{
  return last_route;
}

void dli_copy_force_route(int route)
{
  forced_route = route;
}

size_t dli_copy_last_chunk(void)
{
  return last_chunk;
}

void dli_copy_force_chunk(size_t bytes)
{
  forced_chunk = bytes;
}

static size_t pass_piece(void *st, const dl_piece *p)
{
  (void)st;
  return dl_piece_bytes(p);
}
static const dl_action pass_action = {pass_piece, pass_piece, pass_piece,
                                      pass_piece};

bool dli_copy_twins(const dl_type *a, const dl_type *b, size_t bytes, dl_aint *shift)
{
  return dli_type_same_places(a, b, TWIN_BUDGET + bytes / 4, shift);
}

/* a bounded segment whose data is not known to be inside its bounds is
   checked once for the whole range (a walk with an action that does
   nothing), so the batches below run unchecked */
static int check_bounds(dl_segment *s, size_t first, size_t end)
{
  if (!s->bounded || s->inside || first == end)
    return DL_OK;
  size_t e = end;
  return dli_process(s, first, &e, &pass_action, NULL, NULL);
}

/* stream byte k of a dense segment is at its dense_base() + k */
static bool seg_dense(const dl_segment *s)
{
  const dl_type *t = s->type;
  return dli_is_dense(t->loop) &&
         (s->count == 1 || t->b.ub - t->b.lb == t->b.size);
}
static char *dense_base(const dl_segment *s)
{
  return (char *)(s->buf + (uintptr_t)s->type->loop->offset);
}

struct batch {
  struct iovec v[BATCH];
  size_t n, i, off;   /* entries, current entry, bytes done in it */
  size_t pos;         /* stream position the batch ends at */
};

/* the next batch of s's runs up to end; a side that has nothing left
   while the other has (streams that hand out different bytes: never with
   a consistent segment) ends the walk rather than read an empty batch */
static int fill(dl_segment *s, struct batch *b, size_t end, bool *empty)
{
  struct dli_iov_state st = {b->v, BATCH, 0};
  size_t e = end;
  int rc = b->pos < end
               ? dli_segment_run(s, b->pos, &e, &dli_iov_action, &st, NULL)
               : DL_OK;
  b->n = st.n;
  b->i = b->off = 0;
  b->pos = e;
  *empty = st.n == 0;
  return rc;
}

/* mean bytes per entry of a filled batch that started at `from` */
static size_t mean_run(const struct batch *b, size_t from)
{
  return b->n ? (b->pos - from) / b->n : SIZE_MAX;
}

static int lockstep(dl_segment *f, dl_segment *t, struct batch *a,
                    struct batch *b, size_t end)
{
  bool empty = false;
  for (;;) {
    if (a->i == a->n) {
      int rc = fill(f, a, end, &empty);
      if (rc || empty)
        return rc;
    }
    if (b->i == b->n) {
      int rc = fill(t, b, end, &empty);
      if (rc || empty)
        return rc;
    }
    const struct iovec *x = &a->v[a->i], *y = &b->v[b->i];
    size_t ra = x->iov_len - a->off, rb = y->iov_len - b->off;
    size_t n = ra < rb ? ra : rb;
    dli_memcpy((char *)y->iov_base + b->off, (const char *)x->iov_base + a->off, n);
    if ((a->off += n) == x->iov_len)
      a->i++, a->off = 0;
    if ((b->off += n) == y->iov_len)
      b->i++, b->off = 0;
  }
}

/* Chunks of half a core's L2 (dli_copy_limits): smaller chunks made the
   route slower than staging the whole stream (doc/benchmarks.md, "Type
   to type"). One allocation per call
   of a stream that long; without it, the stack's 32 KiB. */
static int chunked(dl_segment *f, dl_segment *t, size_t first, size_t end,
                   const dli_copy_sizes *lim)
{
  char small[STACK_CHUNK];
  size_t chunk = forced_chunk ? forced_chunk : lim->chunk;
  chunk = chunk < end - first ? chunk : end - first;
  char *heap = chunk > STACK_CHUNK ? malloc(chunk) : NULL, *buf = heap ? heap : small;
  if (!heap && chunk > STACK_CHUNK)
    chunk = STACK_CHUNK;
  last_chunk = chunk;
  dli_bulk_fn pk = dli_bulk_for(f->type, DLI_JIT_PACK);
  dli_bulk_fn up = dli_bulk_for(t->type, DLI_JIT_UNPACK);
  int rc = DL_OK;
  for (size_t p = first; p < end && !rc;) {
    size_t e = end - p > chunk ? p + chunk : end;
    char *cur = buf;
    rc = dli_segment_run(f, p, &e, &dli_pack_action, &cur, pk);
    size_t e2 = e;
    cur = buf;
    if (!rc)
      rc = dli_segment_run(t, p, &e2, &dli_unpack_action, &cur, up);
    p = e;
  }
  free(heap);
  return rc;
}

/* [first, end) of f's stream into t's memory; both ranges valid, buffers
   checked; lim, the tuning layer's sizes, which the entry points read */
static int copy_range(dl_segment *f, dl_segment *t, size_t first, size_t end,
                      const dli_copy_sizes *lim)
{
  int rc = check_bounds(f, first, end);
  if (!rc)
    rc = check_bounds(t, first, end);
  if (rc || first == end)
    return rc;
  bool fd = seg_dense(f), td = seg_dense(t);
  if (fd || td) {
    last_route = DLI_COPY_DENSE;
    if (fd && td) {
      dli_memcpy(dense_base(t) + first, dense_base(f) + first, end - first);
      return DL_OK;
    }
    /* the other side packs into or unpacks from the dense memory, as
       dl_pack and dl_unpack would (a whole interleaving type by its walk) */
    dl_segment *o = fd ? t : f;
    int dir = fd ? DLI_JIT_UNPACK : DLI_JIT_PACK;
    char *cur = (fd ? dense_base(f) : dense_base(t)) + first;
    dli_jit_note_use(o->type, dir);
    dli_bulk_fn bulk = dli_bulk_for(o->type, dir);
    if (first == 0 && dli_interleave_whole(o->type, o->count, o->buf, cur, end, !fd,
                                           bulk != NULL, lim->interleave))
      return DL_OK;
    size_t e = end;
    return dli_segment_run(o, first, &e, fd ? &dli_unpack_action : &dli_pack_action,
                           &cur, bulk);
  }
  dl_aint shift;
  if ((!forced_route || forced_route == DLI_COPY_TWIN) &&
      dli_copy_twins(f->type, t->type, end - first, &shift)) {
    /* every byte lands at its own offset in the other buffer, less the
       shift (none, and the same buffer: where it is already) */
    last_route = DLI_COPY_TWIN;
    dl_aint d = (dl_aint)(t->buf - f->buf - (uintptr_t)shift);
    size_t e = end;
    return d == 0 ? DL_OK : dli_segment_run(f, first, &e, &dli_twin_action, &d, NULL);
  }
  /* the first batches of both sides decide the route, and are the first
     batches of the lockstep walk when it is taken */
  struct batch a = {.pos = first}, b = {.pos = first};
  bool empty;
  rc = fill(f, &a, end, &empty);
  if (!rc)
    rc = fill(t, &b, end, &empty);
  if (rc)
    return rc;
  size_t ma = mean_run(&a, first), mb = mean_run(&b, first);
  bool step = forced_route ? forced_route == DLI_COPY_LOCKSTEP
                           : (ma < mb ? ma : mb) >= LOCKSTEP_MIN_RUN;
  if (step) {
    last_route = DLI_COPY_LOCKSTEP;
    return lockstep(f, t, &a, &b, end);
  }
  last_route = DLI_COPY_CHUNKED;
  dli_jit_note_use(f->type, DLI_JIT_PACK);
  dli_jit_note_use(t->type, DLI_JIT_UNPACK);
  return chunked(f, t, first, end, lim);
}

int dl_segment_copy(dl_segment *from, dl_segment *to, size_t first,
                    size_t *last)
{
  if (!from || !to || !last)
    return dli_fail(DL_ERR_ARG, "dl_segment_copy: NULL segment or last");
  if (from == to)
    return dli_fail(DL_ERR_ARG, "dl_segment_copy: from and to are one segment");
  size_t size = from->size < to->size ? from->size : to->size;
  if (first > *last || first > size)
    return dli_fail(DL_ERR_ARG, "dl_segment_copy: first %zu past *last %zu "
                    "or past the shorter stream's %zu bytes", first, *last,
                    size);
  size_t end = *last < size ? *last : size;
  if (first < end) {
    int rc = dli_check_bottom((const void *)from->buf, from->count, from->type,
                              "dl_segment_copy");
    if (!rc)
      rc = dli_check_bottom((const void *)to->buf, to->count, to->type,
                            "dl_segment_copy");
    if (rc)
      return rc;
  }
  int rc = copy_range(from, to, first, end, dli_copy_limits());
  if (!rc)
    *last = end;
  return rc;
}

int dl_copy(const void *src, dl_count scount, const dl_type *st, void *dst,
            dl_count dcount, const dl_type *dt, size_t *copied)
{
  if (copied)
    *copied = 0;
  if (!dli_type_valid(st) || !dli_type_valid(dt))
    return dli_fail(DL_ERR_ARG, "dl_copy: NULL or freed type");
  if (scount < 0 || dcount < 0)
    return dli_fail(DL_ERR_ARG, "dl_copy: negative count");
  if (!copied)
    return dli_fail(DL_ERR_ARG, "dl_copy: NULL copied pointer");
  if (!dli_type_committed(st) || !dli_type_committed(dt))
    return dli_fail(DL_ERR_NOT_COMMITTED, "dl_copy: type not committed");
  size_t ss, ds;
  int rc = dl_pack_size(scount, st, &ss);
  if (!rc)
    rc = dl_pack_size(dcount, dt, &ds);
  if (rc)
    return rc;
  size_t n = ss < ds ? ss : ds;
  if (n > 0) {
    rc = dli_check_bottom(src, scount, st, "dl_copy");
    if (!rc)
      rc = dli_check_bottom(dst, dcount, dt, "dl_copy");
    if (rc)
      return rc;
    int fs = dli_segment_frames(st), fd = dli_segment_frames(dt);
    size_t bs = dli_segment_bytes(fs), bd = dli_segment_bytes(fd);
    bool heap = fs > DLI_STACK_FRAMES || fd > DLI_STACK_FRAMES;
    char *mem = heap ? malloc(bs + bd) : __builtin_alloca(bs + bd);
    if (!mem)
      return DL_ERR_NOMEM;
    dl_segment *f = (dl_segment *)mem, *t = (dl_segment *)(mem + bs);
    rc = dli_segment_init(f, fs, (uintptr_t)src, scount, st);
    if (!rc)
      rc = dli_segment_init(t, fd, (uintptr_t)dst, dcount, dt);
    if (!rc)
      rc = copy_range(f, t, 0, n, dli_copy_limits());
    if (heap)
      free(mem);
    if (rc)
      return rc;
  }
  *copied = n;
  return ds < ss ? DL_ERR_TRUNCATE : DL_OK;
}
