/* Scratch memory of requests: the lists of one batch and the sieve and
 * stage buffers. A view caches one set for the next request; a request that
 * finds it taken (another thread) allocates its own and frees it after. */
#include <stdlib.h>
#include <string.h>
#include "io.h"

void dli_scratch_release(dli_scratch *s)
{
  free(s->offs);
  free(s->sieve);
  free(s->stage);
  memset(s, 0, sizeof(*s));
}

dli_scratch *dli_scratch_get(dl_file_view *v, dli_scratch *spare)
{
  if (!atomic_flag_test_and_set_explicit(&v->busy, memory_order_acquire))
    return &v->cache;
  memset(spare, 0, sizeof(*spare));   /* another thread has the cache */
  return spare;
}

void dli_scratch_put(dl_file_view *v, dli_scratch *s)
{
  if (s == &v->cache)
    atomic_flag_clear_explicit(&v->busy, memory_order_release);
  else
    dli_scratch_release(s);
}

int dli_scratch_lists(dli_scratch *s, const dli_io_limits *l)
{
  if (s->offs && s->lists_for[0] == l->list_max && s->lists_for[1] == l->iov_max &&
      s->lists_for[2] == l->sys_iov_max)
    return DL_OK;
  free(s->offs);
  s->offs = NULL;
  size_t bytes = 2 * l->list_max * sizeof(int64_t) +
                 (l->iov_max + l->sys_iov_max) * sizeof(struct iovec);
  char *p = malloc(bytes);
  if (!p)
    return DL_ERR_NOMEM;
  s->offs = (int64_t *)p;
  s->lens = s->offs + l->list_max;
  s->miov = (struct iovec *)(s->lens + l->list_max);
  s->sys = s->miov + l->iov_max;
  s->lists_for[0] = l->list_max;
  s->lists_for[1] = l->iov_max;
  s->lists_for[2] = l->sys_iov_max;
  return DL_OK;
}

/* grows geometrically, so a request that starts small costs little and a
   long one reallocates a few times at most */
char *dli_scratch_buf(char **p, size_t *cap, size_t want, size_t limit)
{
  if (*p && *cap >= want)
    return *p;
  size_t c = *cap > limit / 2 ? limit : 2 * *cap;
  if (c < 64 * 1024)
    c = 64 * 1024 < limit ? 64 * 1024 : limit;
  if (c < want)
    c = want;
  free(*p);
  *p = malloc(c);
  *cap = *p ? c : 0;
  return *p;
}
