/* Buffers for differential tests: memory covering exactly the bytes a
 * (count, type) touches, and the model's own pack and unpack. */
#ifndef TEST_BUFFERS_H
#define TEST_BUFFERS_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"
#include "randtype.h"

typedef struct tbuf {
  char *mem;       /* allocation */
  size_t len;
  char *origin;    /* the buffer address to pass with the type */
} tbuf;

/* memory for the runs (lowest to highest byte), origin placed so that run
   displacements are relative to it, filled from `fill` */
void tbuf_for(const mrun *runs, size_t n, tbuf *b, uint64_t fill);
void tbuf_fill(tbuf *b, uint64_t fill);
void tbuf_free(tbuf *b);
size_t runs_bytes(const mrun *runs, size_t n);
void model_pack(const mrun *runs, size_t n, const char *origin, char *out);
void model_unpack(const mrun *runs, size_t n, char *origin, const char *in);

/* DL_TEST_SCALE (default 1) scales randomized loops, so a run under
   Valgrind can use the same suite with fewer draws */
int test_scaled(int n);

/* a random committed type of depth 1 to max_depth (built of the basic
   types given, or of any when basics is NULL), a count of 0 to 3, its
   byte map and a buffer covering it; 0, or -1 if the generator failed
   (c->rt.desc says what it tried) */
typedef struct tcase {
  rtype rt;
  dl_count count;
  mrun *runs;
  size_t nruns, size;
  tbuf mem;
} tcase;
int tcase_new(rng *r, tcase *c, int max_depth, const int *basics, int nb);
/* the layout part alone: count copies of model m mapped, and a buffer
   over them filled from `fill` (c->rt left as it is); 0 or -1 */
int tcase_layout(tcase *c, const model *m, dl_count count, uint64_t fill);
void tcase_free(tcase *c);

#endif
