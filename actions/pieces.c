/* The copies dli_memcpy (actions.h) keeps out of `rep movsb`: each piece
 * is below the size from which glibc's memcpy uses it, so glibc copies it
 * with vector moves, which the distance does not slow. */
#include "actions.h"

static _Thread_local unsigned long long calls;

unsigned long long dli_copy_pieces_calls(void)
{
  return calls;
}

void dli_copy_pieces(void *dst, const void *src, size_t n)
{
  calls++;
  char *d = dst;
  const char *s = src;
  size_t piece = DLI_MOVSB_PIECE;
  /* hidden from the compiler, which would inline a copy of a constant
     size as `rep movsq`, slow in the same case */
  __asm__("" : "+r"(piece));
  for (; n > piece; n -= piece, d += piece, s += piece)
    memcpy(d, s, piece);
  memcpy(d, s, n);
}
