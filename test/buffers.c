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

int test_scaled(int n)
{
  const char *s = getenv("DL_TEST_SCALE");
  int k = (int)(n * (s ? atof(s) : 1.0));
  return k > 0 ? k : 1;
}

int tcase_new(rng *r, tcase *c, int max_depth, const int *basics, int nb)
{
  memset(c, 0, sizeof *c);
  int depth = (int)rng_range(r, 1, max_depth);
  int rc = basics ? rtype_gen_typed(r, depth, basics, nb, &c->rt)
                  : rtype_gen(r, depth, &c->rt, NULL);
  if (rc)
    return -1;
  dl_count count = rng_range(r, 0, 3);
  return tcase_layout(c, c->rt.m, count, rng_next(r));
}

int tcase_layout(tcase *c, const model *m, dl_count count, uint64_t fill)
{
  c->count = count;
  if (model_bytemap(m, count, &c->runs, &c->nruns))
    return -1;
  c->size = runs_bytes(c->runs, c->nruns);
  tbuf_for(c->runs, c->nruns, &c->mem, fill);
  return 0;
}

void tcase_free(tcase *c)
{
  rtype_free(&c->rt);
  free(c->runs);
  tbuf_free(&c->mem);
}
