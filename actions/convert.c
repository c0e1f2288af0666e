/* external32 element conversions: whole runs of one basic type at a time,
 * so each is one tight loop the compiler can vectorize (byte swaps become
 * shuffles). Native and external pointers may be equal when the sizes are
 * (in-place conversion): every loop reads an element before writing it. */
#include <string.h>
#include "actions.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* The swap loops, built twice: for any x86-64 (SSE2 has no byte shuffle,
   so they stay scalar) and for AVX2, where the compiler turns them into
   vpshufb over 32 bytes at a time. The CPU is asked once per run. */
#define SWAPS(sfx, attr)                                                    \
  attr static void swap2##sfx(const char *s, char *d, size_t n)            \
  {                                                                         \
    for (size_t i = 0; i < n; i++) {                                        \
      uint16_t v;                                                           \
      memcpy(&v, s + 2 * i, 2);                                             \
      v = __builtin_bswap16(v);                                             \
      memcpy(d + 2 * i, &v, 2);                                             \
    }                                                                       \
  }                                                                         \
  attr static void swap4##sfx(const char *s, char *d, size_t n)            \
  {                                                                         \
    for (size_t i = 0; i < n; i++) {                                        \
      uint32_t v;                                                           \
      memcpy(&v, s + 4 * i, 4);                                             \
      v = __builtin_bswap32(v);                                             \
      memcpy(d + 4 * i, &v, 4);                                             \
    }                                                                       \
  }                                                                         \
  attr static void swap8##sfx(const char *s, char *d, size_t n)            \
  {                                                                         \
    for (size_t i = 0; i < n; i++) {                                        \
      uint64_t v;                                                           \
      memcpy(&v, s + 8 * i, 8);                                             \
      v = __builtin_bswap64(v);                                             \
      memcpy(d + 8 * i, &v, 8);                                             \
    }                                                                       \
  }                                                                         \
  attr static void swap16##sfx(const char *s, char *d, size_t n)           \
  {                                                                         \
    for (size_t i = 0; i < n; i++) {                                        \
      uint64_t lo, hi;                                                      \
      memcpy(&lo, s + 16 * i, 8);                                           \
      memcpy(&hi, s + 16 * i + 8, 8);                                       \
      lo = __builtin_bswap64(lo);                                           \
      hi = __builtin_bswap64(hi);                                           \
      memcpy(d + 16 * i, &hi, 8);                                           \
      memcpy(d + 16 * i + 8, &lo, 8);                                       \
    }                                                                       \
  }

SWAPS(_any, )
#if defined(__x86_64__) && defined(__GNUC__)
SWAPS(_avx2, __attribute__((target("avx2"))))
#define HAVE_AVX2_SWAPS 1
#endif

static void swap(const char *s, char *d, size_t n, size_t width)
{
#ifdef HAVE_AVX2_SWAPS
  /* worth asking only for runs the vector loop takes */
  if (n * width >= 64 && __builtin_cpu_supports("avx2")) {
    switch (width) {
    case 2: swap2_avx2(s, d, n); return;
    case 4: swap4_avx2(s, d, n); return;
    case 8: swap8_avx2(s, d, n); return;
    case 16: swap16_avx2(s, d, n); return;
    }
  }
#endif
  switch (width) {
  case 2: swap2_any(s, d, n); break;
  case 4: swap4_any(s, d, n); break;
  case 8: swap8_any(s, d, n); break;
  case 16: swap16_any(s, d, n); break;
  default: memmove(d, s, n * width); break;
  }
}

/* 8-byte integers to 4 bytes: the low half, as the two's complement (or
   unsigned) value modulo 2^32, which is what MPICH writes too */
static void long_enc(const char *s, char *d, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    uint64_t v;
    memcpy(&v, s + 8 * i, 8);
    uint32_t w = __builtin_bswap32((uint32_t)v);
    memcpy(d + 4 * i, &w, 4);
  }
}

/* decoding runs backwards so that it may work in place, wider over
   narrower */
static void long_dec(const char *s, char *d, size_t n, bool sign)
{
  for (size_t i = n; i-- > 0;) {
    uint32_t w;
    memcpy(&w, s + 4 * i, 4);
    w = __builtin_bswap32(w);
    uint64_t v = sign ? (uint64_t)(int64_t)(int32_t)w : (uint64_t)w;
    memcpy(d + 8 * i, &v, 8);
  }
}

static void wchar_enc(const char *s, char *d, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    uint32_t v;
    memcpy(&v, s + 4 * i, 4);
    uint16_t w = __builtin_bswap16((uint16_t)v);
    memcpy(d + 2 * i, &w, 2);
  }
}

static void wchar_dec(const char *s, char *d, size_t n)
{
  for (size_t i = n; i-- > 0;) {
    uint16_t w;
    memcpy(&w, s + 2 * i, 2);
    uint32_t v = __builtin_bswap16(w);
    memcpy(d + 4 * i, &v, 4);
  }
}

/* ---- x87 extended (64-bit significand with explicit integer bit, 15-bit
   exponent, in the low 10 of 16 bytes) and IEEE binary128 (112-bit
   fraction), which share the exponent's width and bias ---- */

static void quad_store(char *d, unsigned sign, unsigned exp, uint64_t hi48,
                       uint64_t lo64)
{
  uint64_t hi = (uint64_t)sign << 63 | (uint64_t)exp << 48 | hi48;
  hi = __builtin_bswap64(hi);
  lo64 = __builtin_bswap64(lo64);
  memcpy(d, &hi, 8);
  memcpy(d + 8, &lo64, 8);
}

/* exact: every x87 value is a binary128 value */
static void ld_enc1(const char *s, char *d)
{
  uint64_t sig;
  uint16_t se;
  memcpy(&sig, s, 8);
  memcpy(&se, s + 8, 2);
  unsigned sign = se >> 15, exp = se & 0x7fff;
  uint64_t frac = sig & 0x7fffffffffffffffull;   /* 63 bits below the point */
  bool one = sig >> 63;
  if (exp == 0x7fff) {
    if (!one || frac != 0)                       /* NaN (or pseudo-NaN) */
      frac |= one ? 0 : 1ull << 62;
  } else if (exp == 0) {
    if (one)                                     /* pseudo-denormal */
      exp = 1;
  } else if (!one) {                             /* unnormal: invalid */
    exp = 0x7fff;
    frac = 1ull << 62;
  }
  quad_store(d, sign, exp, frac >> 15, (frac & 0x7fff) << 49);
}

/* rounds the 112-bit fraction to the 63 bits below x87's explicit integer
   bit, to nearest with ties to even */
static void ld_dec1(const char *s, char *d)
{
  uint64_t hi, lo;
  memcpy(&hi, s, 8);
  memcpy(&lo, s + 8, 8);
  hi = __builtin_bswap64(hi);
  lo = __builtin_bswap64(lo);
  unsigned sign = (unsigned)(hi >> 63), exp = (unsigned)(hi >> 48) & 0x7fff;
  uint64_t hi48 = hi & 0xffffffffffffull;
  uint64_t frac = hi48 << 15 | lo >> 49;         /* the top 63 bits */
  uint64_t rest = lo & ((1ull << 49) - 1), half = 1ull << 48;
  uint64_t sig;
  if (exp == 0x7fff) {
    bool nan = hi48 != 0 || lo != 0;
    if (nan && frac == 0)                        /* payload only below */
      frac = 1ull << 62;
    sig = 1ull << 63 | (nan ? frac : 0);
  } else {
    if (rest > half || (rest == half && (frac & 1)))
      frac++;
    if (exp == 0) {                              /* denormal: no integer bit */
      sig = frac;                                /* 2^63 here is the smallest normal */
      if (sig >> 63)
        exp = 1;
    } else if (frac >> 63) {                     /* rounded up to 2^63 */
      exp++;
      sig = 1ull << 63;
    } else {
      sig = 1ull << 63 | frac;
    }
    if (exp == 0x7fff)                           /* rounded past the largest */
      sig = 1ull << 63;
  }
  uint16_t se = (uint16_t)(sign << 15 | exp);
  memset(d, 0, 16);
  memcpy(d, &sig, 8);
  memcpy(d + 8, &se, 2);
}

static void ld_enc(const char *s, char *d, size_t n)
{
  char tmp[16];
  for (size_t i = 0; i < n; i++) {
    ld_enc1(s + 16 * i, tmp);
    memcpy(d + 16 * i, tmp, 16);
  }
}

static void ld_dec(const char *s, char *d, size_t n)
{
  char tmp[16];
  for (size_t i = 0; i < n; i++) {
    ld_dec1(s + 16 * i, tmp);
    memcpy(d + 16 * i, tmp, 16);
  }
}

void dli_x32_encode(int basic, const char *native, char *ext, size_t n)
{
  const dli_basic *b = &dli_basics[basic];
  size_t lanes = n * b->lanes, width = b->nsize / b->lanes;
  switch (b->conv) {
  case DLI_X_COPY: memmove(ext, native, n * b->nsize); break;
  case DLI_X_SWAP: swap(native, ext, lanes, width); break;
  case DLI_X_LONG:
  case DLI_X_ULONG: long_enc(native, ext, n); break;
  case DLI_X_WCHAR: wchar_enc(native, ext, n); break;
  case DLI_X_LDOUBLE: ld_enc(native, ext, lanes); break;
  }
}

void dli_x32_decode(int basic, const char *ext, char *native, size_t n)
{
  const dli_basic *b = &dli_basics[basic];
  size_t lanes = n * b->lanes, width = b->nsize / b->lanes;
  switch (b->conv) {
  case DLI_X_COPY: memmove(native, ext, n * b->nsize); break;
  case DLI_X_SWAP: swap(ext, native, lanes, width); break;
  case DLI_X_LONG: long_dec(ext, native, n, true); break;
  case DLI_X_ULONG: long_dec(ext, native, n, false); break;
  case DLI_X_WCHAR: wchar_dec(ext, native, n); break;
  case DLI_X_LDOUBLE: ld_dec(ext, native, lanes); break;
  }
}
