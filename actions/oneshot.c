/* MPI_Pack, MPI_Unpack and MPI_Pack_size semantics over a segment that
 * lives on the stack for the call: no allocation for types of ordinary
 * depth, and a plain memcpy when the data is one contiguous run. */
#include <stdlib.h>
#include <string.h>
#include "actions.h"
#include "../src/codegen/policy.h"
#include "../src/tune/tune.h"

static _Thread_local __attribute__((tls_model("initial-exec"))) unsigned long whole_uses;

int dl_pack_size(dl_count count, const dl_type *t, size_t *size)
{
  if (!dli_type_valid(t))
    return dli_fail(DL_ERR_ARG, "dl_pack_size: NULL or freed type");
  if (count < 0)
    return dli_fail(DL_ERR_ARG, "dl_pack_size: negative count");
  if (!size)
    return dli_fail(DL_ERR_ARG, "dl_pack_size: NULL size pointer");
  dl_count n;
  if (__builtin_mul_overflow(count, t->b.size, &n) || (uint64_t)n > SIZE_MAX)
    return DL_ERR_OVERFLOW;
  *size = (size_t)n;
  return DL_OK;
}

/* one dense run in order: count == 1, or copies that touch */
static bool dense_run(dl_count count, const dl_type *t)
{
  return dli_is_dense(t->loop) && (count == 1 || t->b.ub - t->b.lb == t->b.size);
}

int dl_type_dense(dl_count count, const dl_type *t, int *dense, dl_aint *offset)
{
  size_t size = 0;
  int rc = dense && offset ? dl_pack_size(count, t, &size) : DL_ERR_ARG;
  if (rc)
    return rc;
  bool yes = size == 0 || dense_run(count, t);
  *dense = yes;
  *offset = size > 0 && yes ? t->loop->offset : 0;
  return DL_OK;
}

/* the piece of a whole leaf loop at user: read directly, as the general
   loading (dli_leaf_load, fused_piece's) costs a third of a small one-shot
   call */
static inline void plain_piece(const dli_loop *l, uintptr_t user, dl_piece *p)
{
  p->base = (char *)(user + (uintptr_t)l->offset);
  p->reps = 1;
  p->rep_stride = 0;
  p->count = l->count;
  p->blk = (size_t)l->blocklen;
  p->stride = l->stride;
  p->offs = l->kind == DLI_VECTOR ? NULL : l->offs;
  p->pre = l->kind == DLI_INDEXED ? l->pre : NULL;
  p->min_blk = l->min_blk;
  p->max_blk = l->max_blk;
  p->period = l->period;
  p->apart = l->apart;
  p->offs32 = l->kind == DLI_VECTOR ? NULL : l->offs32;
}

/* the piece of a parent fused over a leaf at user, and the leaf's kind */
static __attribute__((noinline)) int fused_piece(const dli_loop *l, uintptr_t user,
                                                  dl_piece *p)
{
  dli_leaf lf;
  dli_leaf_load(&lf, l, user);
  *p = (dl_piece){.base = (char *)lf.base, .reps = lf.reps, .rep_stride = lf.rstride,
                  .count = lf.count, .blk = lf.blk, .stride = lf.stride,
                  .offs = lf.kind == DLI_VECTOR ? NULL : lf.offs,
                  .offs32 = lf.kind == DLI_VECTOR ? NULL : lf.offs32,
                  .pre = lf.kind == DLI_INDEXED ? lf.pre : NULL,
                  .min_blk = lf.min_blk, .max_blk = lf.max_blk,
                  .period = lf.period, .apart = lf.apart};
  return lf.kind;
}

/* a whole leaf loop at user (or a parent fused over one) straight to its
   kernel, its stream at *cur, stream position pos; the bytes moved */
static inline __attribute__((always_inline)) size_t whole_leaf(const dl_action *a,
                                                               const dli_loop *l,
                                                               uintptr_t user, char **cur,
                                                               size_t pos)
{
  dl_piece p;
  int kind = l->kind;
  if (l->leaf)
    plain_piece(l, user, &p);
  else
    kind = fused_piece(l, user, &p);
  p.pos = pos;
  if (kind == DLI_VECTOR)
    return a->vector(cur, &p);
  if (kind == DLI_BLOCKINDEXED)
    return a->blockindexed(cur, &p);
  if (kind == DLI_CONTIG) {           /* a dense run of count bytes (a member) */
    p.blk = (size_t)l->count;
    return a->contig(cur, &p);
  }
  return a->indexed(cur, &p);
}

/* initial-exec: no __tls_get_addr call on the per-call path */
static _Thread_local __attribute__((tls_model("initial-exec"))) unsigned long members_uses;

unsigned long dli_members_uses(void)
{
  return members_uses;
}

/* One copy of a struct whose members are all leaves (arrays picked by
   index lists at absolute addresses, a particle's fields), whole: each
   member's leaf goes straight to its kernel, as a type of one leaf does,
   with no segment to set up and walk (a fixed cost per member that a
   short list cannot hide). False, nothing moved, for any other struct. */
static __attribute__((noinline)) bool members(const dl_action *a, const dli_loop *l,
                                              uintptr_t user, char *packed)
{
  if (l->kind != DLI_STRUCT || l->count > DLI_MEMBERS_MAX)
    return false;
  for (dl_count i = 0; i < l->count; i++)
    if (!l->children[i]->leaf && !l->children[i]->fuse)
      return false;
  members_uses++;
  char *cur = packed;
  uintptr_t base = user + (uintptr_t)l->offset;
  for (dl_count i = 0; i < l->count; i++) {
    const dli_loop *c = l->children[i];
    uintptr_t at = base + (uintptr_t)l->offs[i];
    for (dl_count j = 0; j < l->blocklens[i]; j++, at += (uintptr_t)l->exts[i])
      whole_leaf(a, c, at, &cur, (size_t)(cur - packed));
  }
  return true;
}

/* the general case: a segment on the stack (for types of ordinary depth) */
static __attribute__((noinline)) int by_segment(const dl_action *a, uintptr_t user,
                                                dl_count count, const dl_type *t,
                                                char *packed, size_t n, size_t size,
                                                dli_bulk_fn bulk, size_t *moved)
{
  int frames = dli_segment_frames(t);
  dl_segment *s = frames <= DLI_STACK_FRAMES ? __builtin_alloca(dli_segment_bytes(frames))
                                         : malloc(dli_segment_bytes(frames));
  if (!s)
    return DL_ERR_NOMEM;
  int rc = dli_segment_init(s, frames, user, count, t);
  size_t last = n;
  char *cur = packed;
  if (!rc)
    rc = dli_segment_run(s, 0, &last, a, &cur, bulk);
  if (frames > DLI_STACK_FRAMES)
    free(s);
  if (rc)
    return rc;
  *moved = last;
  return last < size ? DL_ERR_TRUNCATE : DL_OK;
}

/* Moves the first min(size, avail) packed bytes between user memory and
   the packed buffer; *moved says how many. Inline in dl_pack and dl_unpack:
   a small type's call pays for every instruction before its kernel. */
static inline __attribute__((always_inline)) int oneshot(const dl_action *a, bool pack,
                                                         uintptr_t user, dl_count count,
                                                         const dl_type *t, char *packed,
                                                         size_t avail, size_t *moved)
{
  const dli_loop *l = t->loop;
  if (count == 1 && l && dli_few_blocks(l) && avail >= (size_t)t->b.size) {
    *moved = dli_move_few(l, user, packed, pack);
    return DL_OK;
  }
  dli_jit_note_use(t, pack ? DLI_JIT_PACK : DLI_JIT_UNPACK);
  dli_bulk_fn bulk = dli_bulk_for(t, pack ? DLI_JIT_PACK : DLI_JIT_UNPACK);
  *moved = 0;                      /* on every path: callers add it */
  dl_count bytes;                  /* (the arguments are checked: the size alone) */
  if (__builtin_mul_overflow(count, t->b.size, &bytes) || (uint64_t)bytes > SIZE_MAX)
    return DL_ERR_OVERFLOW;
  size_t size = (size_t)bytes;
  size_t n = size < avail ? size : avail;
  if (n == 0)
    return size > 0 ? DL_ERR_TRUNCATE : DL_OK;
  if (dense_run(count, t)) {
    char *mem = (char *)(user + (uintptr_t)l->offset);
    char *to = pack ? packed : mem, *from = pack ? mem : packed;
    size_t nt = n >= 65536 ? dli_copy_limits()->nt : 0;
    uintptr_t a = (uintptr_t)to, b = (uintptr_t)from;
    bool apart = a + n <= b || b + n <= a;
    if (nt && n >= nt && apart)
      dli_nt_copy(to, from, n);     /* past the caches, where that was measured to win */
    else if (apart)
      dli_memcpy(to, from, n);
    else
      memmove(to, from, n);
    *moved = n;
    return n < size ? DL_ERR_TRUNCATE : DL_OK;
  }
  /* (a leaf is never walked interleaved) */
  if (!l->leaf && dli_interleave_whole(t, count, user, packed, n, pack, bulk != NULL,
                                       dli_copy_limits()->interleave)) {
    *moved = size;
    return DL_OK;
  }
  if (count == 1 && (l->leaf || l->fuse) && n == size) {
    /* one leaf loop: straight to the kernel, no segment */
    char *cur = packed;
    if (bulk && bulk(&cur, l, user, 0, dli_jit_elems(l), size) == size) {
      *moved = size;
      return DL_OK;
    }
    *moved = whole_leaf(a, l, user, &cur, 0);
    return DL_OK;
  }
  if (count == 1 && n == size && !bulk && members(a, l, user, packed)) {
    *moved = size;
    return DL_OK;
  }
  return by_segment(a, user, count, t, packed, n, size, bulk, moved);
}

int dli_whole_moves(dl_segment *s, char *packed, bool pack, size_t *last)
{
  int rc = pack ? oneshot(&dli_pack_action, true, s->buf, s->count, s->type, packed,
                          s->size, last)
                : oneshot(&dli_unpack_action, false, s->buf, s->count, s->type, packed,
                          s->size, last);
  whole_uses++;
  return rc;
}

unsigned long dli_whole_uses(void)
{
  return whole_uses;
}

int dli_pack_args(const char *call, const dl_type *t, dl_count count,
                  const size_t *position, size_t size, const void *packed,
                  const void *user)
{
  if (!dli_type_valid(t))
    return dli_fail(DL_ERR_ARG, "%s: NULL or freed type", call);
  if (count < 0)
    return dli_fail(DL_ERR_ARG, "%s: negative count %lld", call, (long long)count);
  if (!position)
    return dli_fail(DL_ERR_ARG, "%s: NULL position pointer", call);
  if (*position > size)
    return dli_fail(DL_ERR_ARG, "%s: position %zu past the packed buffer's "
                    "%zu bytes", call, *position, size);
  if (!packed && size > 0)
    return dli_fail(DL_ERR_ARG, "%s: NULL packed buffer of %zu bytes", call, size);
  if (!dli_type_committed(t))
    return dli_fail(DL_ERR_NOT_COMMITTED, "%s: type not committed", call);
  return dli_check_bottom(user, count, t, call);
}

int dl_pack(const void *inbuf, dl_count incount, const dl_type *t,
            void *outbuf, size_t outsize, size_t *position)
{
  int rc = dli_pack_args("dl_pack", t, incount, position, outsize, outbuf, inbuf);
  if (rc)
    return rc;
  size_t moved;
  rc = oneshot(&dli_pack_action, true, (uintptr_t)inbuf, incount, t,
                   outbuf ? (char *)outbuf + *position : NULL,
                   outsize - *position, &moved);
  *position += moved;
  return rc;
}

int dl_unpack(const void *inbuf, size_t insize, size_t *position,
              void *outbuf, dl_count outcount, const dl_type *t)
{
  int rc = dli_pack_args("dl_unpack", t, outcount, position, insize, inbuf, outbuf);
  if (rc)
    return rc;
  size_t moved;
  rc = oneshot(&dli_unpack_action, false, (uintptr_t)outbuf, outcount, t,
                   inbuf ? (char *)inbuf + *position : NULL,
                   insize - *position, &moved);
  *position += moved;
  return rc;
}
