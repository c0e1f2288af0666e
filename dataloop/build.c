/* Scratch memory for one constructor call: nodes and arrays the normalizers
 * create before the finished tree is copied into the type's own block.
 * A bump allocator over chunks, so building a small type costs one or two
 * mallocs, and freeing it all is a walk over the chunks. */
#include <stdlib.h>
#include <string.h>
#include "build.h"

#define CHUNK 4096

struct chunk {
  struct chunk *next;
  size_t used, cap;
  char *data;
};

struct dli_build {
  struct chunk *chunks;
  struct chunk first;     /* the first chunk lives in `room` */
  max_align_t room[CHUNK / sizeof(max_align_t)];
};

dli_build *dli_build_new(void)
{
  dli_build *b = malloc(sizeof(dli_build));
  if (b) {
    b->first = (struct chunk){.cap = sizeof(b->room), .data = (char *)b->room};
    b->chunks = &b->first;
  }
  return b;
}

void dli_build_free(dli_build *b)
{
  if (!b)
    return;
  for (struct chunk *c = b->chunks, *n; c != &b->first; c = n) {
    n = c->next;
    free(c);
  }
  free(b);
}

void *dli_build_alloc(dli_build *b, size_t bytes)
{
  if (!b || bytes > SIZE_MAX / 2)
    return NULL;
  size_t a = sizeof(max_align_t);
  bytes = (bytes + a - 1) / a * a;
  struct chunk *c = b->chunks;
  if (c->cap - c->used < bytes) {
    size_t cap = bytes > CHUNK ? bytes : CHUNK;
    struct chunk *n = malloc(sizeof(struct chunk) + a + cap);
    if (!n)
      return NULL;
    *n = (struct chunk){.next = c, .cap = cap,
                        .data = (char *)n + (sizeof(struct chunk) + a - 1) / a * a};
    b->chunks = c = n;
  }
  void *p = c->data + c->used;
  c->used += bytes;
  return p;
}

dli_loop *dli_build_node(dli_build *b)
{
  dli_loop *l = dli_build_alloc(b, sizeof(dli_loop));
  if (l)
    memset(l, 0, sizeof(*l));
  return l;
}
