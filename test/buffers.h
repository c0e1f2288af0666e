/* Buffers for differential tests: memory covering exactly the bytes a
 * (count, type) touches, and the model's own pack and unpack. */
#ifndef TEST_BUFFERS_H
#define TEST_BUFFERS_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

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

#endif
