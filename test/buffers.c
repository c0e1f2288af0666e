/* See buffers.h. */
#include <stdlib.h>
#include <string.h>
#include "buffers.h"

void tbuf_fill(tbuf *b, uint64_t fill)
{
  for (size_t i = 0; i < b->len; i++) {
    fill = fill * 6364136223846793005ull + 1442695040888963407ull;
    b->mem[i] = (char)(fill >> 56);
  }
}

void tbuf_for(const mrun *runs, size_t n, tbuf *b, uint64_t fill)
{
  dl_aint lo = 0, hi = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || runs[i].disp < lo) lo = runs[i].disp;
    if (i == 0 || runs[i].disp + runs[i].len > hi) hi = runs[i].disp + runs[i].len;
  }
  b->len = (size_t)(hi - lo);
  b->mem = malloc(b->len + 1);
  b->origin = b->mem - lo;    /* may point outside: only used plus a run */
  tbuf_fill(b, fill);
}

void tbuf_free(tbuf *b)
{
  free(b->mem);
  memset(b, 0, sizeof(*b));
}

size_t runs_bytes(const mrun *runs, size_t n)
{
  size_t s = 0;
  for (size_t i = 0; i < n; i++)
    s += (size_t)runs[i].len;
  return s;
}

void model_pack(const mrun *runs, size_t n, const char *origin, char *out)
{
  for (size_t i = 0; i < n; i++) {
    memcpy(out, origin + runs[i].disp, (size_t)runs[i].len);
    out += runs[i].len;
  }
}

void model_unpack(const mrun *runs, size_t n, char *origin, const char *in)
{
  for (size_t i = 0; i < n; i++) {
    memcpy(origin + runs[i].disp, in, (size_t)runs[i].len);
    in += runs[i].len;
  }
}
