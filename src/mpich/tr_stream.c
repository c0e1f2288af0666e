/* Byte ranges of a packed stream, as MPICH's transports ask for them: each
 * chunk of a message by its offset, with no handle for the message. Each
 * thread keeps its last few segments, so a chunk that continues one costs
 * no seek and no set-up. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "tr.h"

enum { KEPT = 4 };

typedef struct kept {
  const void *buf;
  dl_count count;
  const dl_type *t;
  dl_segment *s;
  uint64_t used;
} kept;

typedef struct cache {
  kept k[KEPT];
  uint64_t clock;
} cache;

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void drop(void *p)
{
  cache *c = p;
  for (int i = 0; i < KEPT; i++)
    dl_segment_free(&c->k[i].s);
  free(c);
}

static void make_key(void) { pthread_key_create(&key, drop); }

/* this thread's segment over (buf, count, t), made if not kept */
static int segment_for(const void *buf, dl_count count, const dl_type *t,
                       dl_segment **out)
{
  pthread_once(&key_once, make_key);
  cache *c = pthread_getspecific(key);
  if (!c) {
    if (!(c = calloc(1, sizeof *c)) || pthread_setspecific(key, c)) {
      free(c);
      return DL_ERR_NOMEM;
    }
  }
  kept *oldest = &c->k[0];
  for (int i = 0; i < KEPT; i++) {
    kept *k = &c->k[i];
    if (k->s && k->buf == buf && k->count == count && k->t == t) {
      k->used = ++c->clock;
      *out = k->s;
      return DL_OK;
    }
    if (k->used < oldest->used)
      oldest = k;
  }
  dl_segment *s;
  int rc = dl_segment_create((void *)buf, count, t, &s);
  if (rc)
    return rc;
  dl_segment_free(&oldest->s);
  *oldest = (kept){buf, count, t, s, ++c->clock};
  *out = s;
  return DL_OK;
}

void dli_tr_release(void)
{
  pthread_once(&key_once, make_key);
  cache *c = pthread_getspecific(key);
  if (c) {
    pthread_setspecific(key, NULL);
    drop(c);
  }
}

/* packed bytes [first, first + max) of (buf, count, t) out to data (pack)
   or in from it */
static int range(bool pack, void *buf, dl_count count, const dl_type *t, size_t first,
                 void *data, size_t max, size_t *done)
{
  size_t size, last;
  int rc = dl_pack_size(count, t, &size);
  *done = 0;
  if (rc || first >= size)
    return rc;
  if (first == 0 && max >= size) {   /* the whole stream: one call */
    size_t pos = 0;
    rc = pack ? dl_pack(buf, count, t, data, size, &pos)
              : dl_unpack(data, size, &pos, buf, count, t);
    *done = pos;
    return rc;
  }
  dl_segment *s;
  if ((rc = segment_for(buf, count, t, &s)))
    return rc;
  last = max > size - first ? size : first + max;
  rc = pack ? dl_segment_pack(s, first, &last, data) : dl_segment_unpack(s, first, &last, data);
  *done = last - first;
  return rc;
}

int dli_tr_pack(const void *buf, dl_count count, const dl_type *t, size_t first,
                void *out, size_t max, size_t *done)
{
  return range(true, (void *)buf, count, t, first, out, max, done);
}

int dli_tr_unpack(const void *in, size_t insize, void *buf, dl_count count,
                  const dl_type *t, size_t first, size_t *done)
{
  return range(false, buf, count, t, first, (void *)in, insize, done);
}
