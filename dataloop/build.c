/* Scratch memory for one constructor call: nodes and arrays the normalizers
 * create before the finished tree is copied into the type's own block. */
#include <stdlib.h>
#include <string.h>
#include "loop.h"

struct chunk {
  struct chunk *next;
  max_align_t data[];
};

struct dli_build {
  struct chunk *chunks;
};

dli_build *dli_build_new(void)
{
  return calloc(1, sizeof(dli_build));
}

void dli_build_free(dli_build *b)
{
  if (!b)
    return;
  for (struct chunk *c = b->chunks, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(b);
}

void *dli_build_alloc(dli_build *b, size_t bytes)
{
  if (!b || bytes > SIZE_MAX - sizeof(struct chunk))
    return NULL;
  struct chunk *c = malloc(sizeof(struct chunk) + (bytes ? bytes : 1));
  if (!c)
    return NULL;
  c->next = b->chunks;
  b->chunks = c;
  return c->data;
}

dli_loop *dli_build_node(dli_build *b)
{
  dli_loop *l = dli_build_alloc(b, sizeof(dli_loop));
  if (l)
    memset(l, 0, sizeof(*l));
  return l;
}
