/* The action layer: the built-in actions and the calls that join a segment
 * to an action. An action is a dl_action table (include/dataloop.h); the
 * segment hands each leaf function whole leaf loops. */
#ifndef DLI_ACTIONS_H
#define DLI_ACTIONS_H

#include <string.h>
#include "../segment/segment.h"

/* pack and unpack: state is a char * cursor into the packed buffer */
DLI_HIDDEN extern const dl_action dli_pack_action;
DLI_HIDDEN extern const dl_action dli_unpack_action;

/* a copy between buffers of two alike types (the twin route of
   typecopy.c): state is a dl_aint, how far each destination byte lies
   past its source byte; walk the source's segment */
DLI_HIDDEN extern const dl_action dli_twin_action;

struct dli_iov_state {
  struct iovec *iov;
  size_t max, n;
};
DLI_HIDDEN extern const dl_action dli_iov_action;

struct dli_offlen_state {
  uintptr_t buf;
  int64_t *offs, *lens;
  size_t max, n;
};
DLI_HIDDEN extern const dl_action dli_offlen_action;

/* counts the entries the list actions would make, with no limit */
struct dli_count_state {
  uintptr_t end;
  size_t n;
};
DLI_HIDDEN extern const dl_action dli_count_action;

/* compiled code for pack and unpack (see dli_bulk_fn); NULL-safe to pass
   only when the type has some */
DLI_HIDDEN size_t dli_pack_bulk(void *state, const dli_loop *l, uintptr_t origin,
                                dl_count e0, dl_count e1, size_t bytes);
DLI_HIDDEN size_t dli_unpack_bulk(void *state, const dli_loop *l, uintptr_t origin,
                                  dl_count e0, dl_count e1, size_t bytes);
/* the bulk function for a copy in direction dir (DLI_JIT_PACK, _UNPACK)
   over type t, or NULL when t has no compiled code */
static inline dli_bulk_fn dli_bulk_for(const dl_type *t, int dir)
{
  if (!(atomic_load_explicit(&((dl_type *)t)->compiled, memory_order_acquire) & (1 << dir)))
    return NULL;
  return dir == DLI_JIT_PACK ? dli_pack_bulk : dli_unpack_bulk;
}

/* external32 of a type of one basic type (x32leaf.c): leaf loops convert
   as they copy; state is the stream cursor and the basic type */
struct dli_x32_state {
  char *cur;
  int basic;
};
DLI_HIDDEN extern const dl_action dli_x32_pack_action;
DLI_HIDDEN extern const dl_action dli_x32_unpack_action;

/* external32 conversion of n elements of a basic type (convert.c); the two
   buffers may be the same when the type's sizes are */
DLI_HIDDEN void dli_x32_encode(int basic, const char *native, char *ext, size_t n);
DLI_HIDDEN void dli_x32_decode(int basic, const char *ext, char *native, size_t n);

/* n bytes from src to dst with non-temporal stores (ntcopy.c; dst need
   not be aligned), for dense runs from the size at which dataloop-tune
   measured that they win (dli_copy_limits, src/tune/tune.h: the entry
   points read it and pass it on; the kernels ask nobody) */
DLI_HIDDEN void dli_nt_copy(void *dst, const void *src, size_t n);

/* n bytes from src to dst, which do not overlap: memcpy, but in pieces of
   DLI_MOVSB_PIECE bytes where glibc's memcpy would take `rep movsb` into
   its slow case, a destination 1 to 31 bytes past the source modulo
   4 KiB (an order of magnitude slower on some cores; doc/design.md,
   "Bulk copies"). A large buffer from malloc
   starts 16 bytes into a page, window memory at a page: the case is
   common */
#define DLI_MOVSB_PIECE 2048
static inline bool dli_movsb_slow(const void *dst, const void *src, size_t n)
{
  return n > DLI_MOVSB_PIECE && (((uintptr_t)dst - (uintptr_t)src - 1) & 4095) < 31;
}
DLI_HIDDEN void dli_copy_pieces(void *dst, const void *src, size_t n);
/* copies this thread made in pieces (for the tests) */
DLI_HIDDEN unsigned long long dli_copy_pieces_calls(void);
static inline void dli_memcpy(void *dst, const void *src, size_t n)
{
  if (dli_movsb_slow(dst, src, n))
    dli_copy_pieces(dst, src, n);
  else
    memcpy(dst, src, n);
}

/* runs action a over [first, *last), first checking bounds for a bounded
   segment whose whole extent is not known to lie inside them */
/* the checks of MPI_Pack and friends, in their order, each failure with a
   detail naming call: type, count, position, packed buffer, commit, and a
   NULL user buffer (dli_check_bottom) */
DLI_HIDDEN int dli_pack_args(const char *call, const dl_type *t, dl_count count,
                             const size_t *position, size_t size,
                             const void *packed, const void *user);
/* the route the calling thread's last type-to-type copy took
   (typecopy.c; 0 before any): for tests, which check that each fires */
enum { DLI_COPY_DENSE = 1, DLI_COPY_LOCKSTEP, DLI_COPY_CHUNKED, DLI_COPY_TWIN };
DLI_HIDDEN int dli_copy_last_route(void);
/* whether a copy of `bytes` stream bytes between types a and b goes by
   the twin route (unless forced otherwise): a and b alike but for a
   constant *shift of a's bytes past b's (dli_type_same_places), within a
   budget growing with the stream */
DLI_HIDDEN bool dli_copy_twins(const dl_type *a, const dl_type *b, size_t bytes,
                               dl_aint *shift);
/* makes the calling thread's copies without a dense side take route
   (LOCKSTEP or CHUNKED; TWIN where the types are alike; 0: chosen
   again: TWIN for alike types, else by run length), for the benchmarks
   and the tests that compare routes */
DLI_HIDDEN void dli_copy_force_route(int route);
/* the staging chunk of the chunked route is half a core's L2
   (dli_copy_limits); the size the calling thread's last chunked copy
   took, and a size that its copies take instead (0: the limit's again),
   for tests */
DLI_HIDDEN size_t dli_copy_last_chunk(void);
DLI_HIDDEN void dli_copy_force_chunk(size_t bytes);
/* pack and unpack of whole types whose root interleaves copies of one
   element (interleave.c): whether a whole pack (or unpack) of root l,
   size bytes, goes that way (at most DLI_INTERLEAVE_MAX copies, each moved
   a line of stream per group of the element's blocks; unpacking only where
   no two blocks can overlap; at least threshold bytes, the caller's
   dli_copy_limits()->interleave, or any size when forced), the move
   itself (all copies of one element, to or from stream), how many such
   moves the calling thread has made, and, for tests, forcing the choice
   on the calling thread (1: whenever the shape allows, -1: never, 0: by
   size again) */
#define DLI_INTERLEAVE_MAX 64
DLI_HIDDEN bool dli_interleaves(const dli_loop *l, size_t size, bool pack, size_t threshold);
/* whether dl_pack of count copies of committed t, whole, goes that way
   (the interposer weighs routes by it) */
DLI_HIDDEN bool dli_type_interleaves(const dl_type *t, dl_count count, size_t threshold);
DLI_HIDDEN void dli_interleave_run(const dli_loop *l, uintptr_t user, char *stream,
                                   bool pack);
/* the whole stream, n bytes, of count copies of t at user moved that way
   if it goes that way (with compiled code, unpacking does not); false
   when it does not, and nothing moved */
DLI_HIDDEN bool dli_interleave_whole(const dl_type *t, dl_count count, uintptr_t user,
                                     char *stream, size_t n, bool pack, bool compiled,
                                     size_t threshold);
DLI_HIDDEN unsigned long dli_interleave_uses(void);
/* pieces the calling thread unpacked by the 32-byte row loop (copy.c:
   blocks of 257 bytes to 1 KiB, where the CPU has AVX2), for tests */
DLI_HIDDEN unsigned long dli_rows_uses(void);
/* indexed pieces of two blocks of mixed lengths up to 64 bytes, repeated,
   that the calling thread moved by the two-block loop (copy.c), for tests */
DLI_HIDDEN unsigned long dli_two_uses(void);
/* A leaf of a few blocks, moved whole at count 1 without choosing a
   kernel: the one-shot call of a small type (a struct of a few members),
   where the choice costs more than the moves. Returns the bytes moved;
   dli_few_uses counts such moves on this thread (for tests). */
#define DLI_FEW_BLOCKS 8
static inline bool dli_few_blocks(const dli_loop *l)
{
  return l->leaf && l->kind != DLI_CONTIG && l->count <= DLI_FEW_BLOCKS;
}
DLI_HIDDEN size_t dli_move_few(const dli_loop *l, uintptr_t user, char *packed, bool pack);
DLI_HIDDEN unsigned long dli_few_uses(void);
/* A struct of at most DLI_MEMBERS_MAX members that are all leaves, one
   copy of it whole: its leaves straight to their kernels, one call each
   (oneshot.c); dli_members_uses counts such calls on this thread (for
   tests) */
#define DLI_MEMBERS_MAX 64
DLI_HIDDEN unsigned long dli_members_uses(void);
DLI_HIDDEN void dli_interleave_force(int how);
/* frames of a segment that a call keeps on its stack (deeper types
   allocate theirs) */
#define DLI_STACK_FRAMES 32

/* A segment call over its whole stream, from byte 0 (pack and unpack of a
   segment not bounded, or bounded with all its data inside, of a type
   of at most DLI_STACK_FRAMES frames): the one-shot call's path, which
   needs no stack of the segment's; the segment's state is left as it
   was. *last becomes the bytes moved; dli_whole_uses counts such calls on
   this thread (for tests). */
DLI_HIDDEN int dli_whole_moves(dl_segment *s, char *packed, bool pack, size_t *last);
DLI_HIDDEN unsigned long dli_whole_uses(void);
DLI_HIDDEN int dli_process(dl_segment *s, size_t first, size_t *last,
                           const dl_action *a, void *state, dli_bulk_fn bulk);

#endif
