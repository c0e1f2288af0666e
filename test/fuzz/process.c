/* Fuzz target: bounded processing of deserialized types against a buffer
 * of fixed size. The input is 12 bytes of parameters (count, a bounds
 * window inside the buffer, a packed range), then a serialized type. A
 * bounded segment may touch only its window, so any access outside the
 * buffer is a library bug; where the declared bounds of the count copies
 * lie inside the buffer, the unbounded calls must stay inside it too. */
#include <string.h>
#include "fuzz.h"

#define HALF 32768                   /* the buffer is [-HALF, HALF) */
#define PARAMS 12

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  return 0;
}

static int64_t le(const uint8_t *p, int n)
{
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return (int64_t)v;
}

/* do the declared bounds of count copies lie in [-HALF, HALF)? */
static bool fits(const dl_type *t, dl_count count)
{
  dl_aint lb, ext, tlb, text;
  dl_type_extent(t, &lb, &ext);
  dl_type_true_extent(t, &tlb, &text);
  if (count == 0 || ext < -HALF || ext > HALF || tlb < -HALF || tlb > HALF ||
      text > 2 * HALF)
    return false;
  dl_aint a = tlb + (ext < 0 ? (count - 1) * ext : 0);
  dl_aint z = tlb + text + (ext > 0 ? (count - 1) * ext : 0);
  return a >= -HALF && z <= HALF;
}

static void calls(dl_segment *s, char *buf, size_t first, size_t len, int rc_ok)
{
  size_t total = dl_segment_size(s);
  char *out = malloc(len + 1);
  FUZZ_CHECK(out);
  size_t last = first + len;
  int rc = dl_segment_pack(s, first, &last, out);
  FUZZ_CHECK(rc == DL_OK || rc == DL_ERR_BOUNDS || (rc == DL_ERR_ARG && first > total));
  FUZZ_CHECK(rc_ok < 0 || rc == DL_OK || rc == DL_ERR_ARG);
  if (rc == DL_OK)
    FUZZ_CHECK(last == (first + len < total ? first + len : total));
  last = first + len;
  rc = dl_segment_unpack(s, first, &last, out);
  FUZZ_CHECK(rc == DL_OK || rc == DL_ERR_BOUNDS || rc == DL_ERR_ARG);
  struct iovec iov[4];
  int64_t offs[4], lens[4];
  size_t n;
  last = first + len;
  rc = dl_segment_iov(s, first, &last, iov, 4, &n);
  for (size_t i = 0; rc == DL_OK && i < n; i++)
    FUZZ_CHECK((char *)iov[i].iov_base >= buf - HALF &&
               (char *)iov[i].iov_base + iov[i].iov_len <= buf + HALF);
  last = first + len;
  rc = dl_segment_offlen(s, first, &last, offs, lens, 4, &n);
  for (size_t i = 0; rc == DL_OK && i < n; i++)
    FUZZ_CHECK(offs[i] >= -HALF && offs[i] + lens[i] <= HALF);
  free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < PARAMS)
    return 0;
  dl_type *t;
  if (dl_type_deserialize(data + PARAMS, size - PARAMS, &t) != DL_OK)
    return 0;
  dl_count count = data[0] % 4;
  dl_aint lo = le(data + 1, 2) % HALF, hi = le(data + 3, 2) % HALF;
  if (lo > hi) {
    dl_aint x = lo;
    lo = hi;
    hi = x;
  }
  size_t first = (size_t)le(data + 5, 4), len = (size_t)le(data + 9, 2);
  size_t total;
  if (dl_pack_size(count, t, &total) != DL_OK) {
    dl_type_free(&t);
    return 0;
  }
  /* far positions of huge types: seeking, not processing everything */
  if (total > 0 && first > total)
    first = (size_t)((uint64_t)first * 2654435761u % total);
  char *mem = malloc(2 * HALF), *buf = mem + HALF;
  FUZZ_CHECK(mem);
  memset(mem, 0x6b, 2 * HALF);
  dl_segment *s;
  int rc = dl_segment_create_bounded(buf, count, t, lo, hi, &s);
  /* count copies may span more than 64 bits even when their size fits */
  FUZZ_CHECK(rc == DL_OK || (rc == DL_ERR_OVERFLOW && count > 1 && !s));
  if (rc) {
    free(mem);
    dl_type_free(&t);
    return 0;
  }
  calls(s, buf, first, len, -1);
  calls(s, buf, 0, len, -1);           /* and back to the start */
  dl_segment_free(&s);
  if (fits(t, count)) {
    /* inside the buffer by the type's own word: everything is served */
    FUZZ_CHECK(dl_segment_create_bounded(buf, count, t, -HALF, HALF, &s) == DL_OK);
    calls(s, buf, first, len, 0);
    dl_segment_free(&s);
    if (total <= FUZZ_MAX_BYTES) {
      char *out = malloc(total + 1);
      size_t pos = 0;
      FUZZ_CHECK(dl_pack(buf, count, t, out, total, &pos) == DL_OK && pos == total);
      pos = 0;
      FUZZ_CHECK(dl_unpack(out, total, &pos, buf, count, t) == DL_OK && pos == total);
      free(out);
    }
  }
  free(mem);
  dl_type_free(&t);
  return 0;
}
