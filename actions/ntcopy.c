/* Copies with non-temporal stores: the destination bypasses the caches,
 * so a copy much larger than the last-level cache does not first read each
 * destination line in (the write-allocate) and does not evict everything
 * else. Whether that wins depends on the machine: dataloop-tune measures
 * it, and dli_copy_limits()->nt (the tuning layer's, which the entry points pass
 * on) says from what size. */
#include <string.h>
#include "actions.h"
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

void dli_nt_copy(void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
  char *d = dst;
  const char *s = src;
  size_t head = (16 - ((uintptr_t)d & 15)) & 15;
  if (head > n)
    head = n;
  memcpy(d, s, head);               /* up to the first 16-byte boundary */
  d += head;
  s += head;
  n -= head;
  for (; n >= 64; n -= 64, d += 64, s += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)s);
    __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
    __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
    _mm_stream_si128((__m128i *)d, a);
    _mm_stream_si128((__m128i *)(d + 16), b);
    _mm_stream_si128((__m128i *)(d + 32), c);
    _mm_stream_si128((__m128i *)(d + 48), e);
  }
  _mm_sfence();                     /* streaming stores are weakly ordered */
  memcpy(d, s, n);
#else
  memcpy(dst, src, n);
#endif
}
