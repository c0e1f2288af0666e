/* Decoded types by structure (shape.h): a hash table of keys, the oldest
 * dropped first when it is full. Each kept shape holds a reference to its
 * dataloop type, so a type made, used and freed around every call finds
 * its decoded form (and the interposer's plan of it, keyed by that form)
 * the next time. */
#include <stdlib.h>
#include <string.h>
#include "shape.h"

#define BUCKETS 1024
#define KEEP 1024                 /* shapes kept at most */

typedef struct node {
  struct node *next;              /* in its bucket */
  uint64_t id, hash;
  dl_type *t;
  dli_mpi_info info;
  size_t n;
  int64_t key[];
} node;

static node *bucket[BUCKETS];
static node *ring[KEEP];          /* the kept shapes, oldest at `oldest` */
static size_t oldest, kept;
static uint64_t next_id = 1;

static uint64_t hash_of(const int64_t *key, size_t n)
{
  uint64_t h = 0xcbf29ce484222325ULL ^ n;
  for (size_t i = 0; i < n; i++) {
    h ^= (uint64_t)key[i];
    h *= 0x100000001b3ULL;
    h ^= h >> 29;
  }
  return h;
}

uint64_t dli_shape_find(const int64_t *key, size_t n, dl_type **t, dli_mpi_info *info)
{
  if (n > DLI_SHAPE_MAX_KEY)
    return 0;
  uint64_t h = hash_of(key, n);
  for (node *x = bucket[h % BUCKETS]; x; x = x->next)
    if (x->hash == h && x->n == n && !memcmp(x->key, key, n * sizeof(int64_t)) &&
        dl_type_retain(x->t) == DL_OK) {
      *t = x->t;
      *info = x->info;
      return x->id;
    }
  return 0;
}

static void drop(node *x)
{
  node **p = &bucket[x->hash % BUCKETS];
  while (*p && *p != x)
    p = &(*p)->next;
  if (*p)
    *p = x->next;
  dl_type_free(&x->t);
  free(x);
}

uint64_t dli_shape_add(const int64_t *key, size_t n, dl_type *t, const dli_mpi_info *info)
{
  if (n > DLI_SHAPE_MAX_KEY)
    return 0;
  node *x = malloc(sizeof(node) + n * sizeof(int64_t));
  if (!x)
    return 0;
  if (dl_type_retain(t) != DL_OK) {
    free(x);
    return 0;
  }
  x->id = next_id++;
  x->hash = hash_of(key, n);
  x->t = t;
  x->info = *info;
  x->n = n;
  memcpy(x->key, key, n * sizeof(int64_t));
  if (kept == KEEP) {               /* the oldest makes room */
    drop(ring[oldest]);
    ring[oldest] = x;
    oldest = (oldest + 1) % KEEP;
  } else {
    ring[(oldest + kept++) % KEEP] = x;
  }
  x->next = bucket[x->hash % BUCKETS];
  bucket[x->hash % BUCKETS] = x;
  return x->id;
}

void dli_shape_flush(void)
{
  while (kept) {
    drop(ring[oldest]);
    ring[oldest] = NULL;
    oldest = (oldest + 1) % KEEP;
    kept--;
  }
  oldest = 0;
}
