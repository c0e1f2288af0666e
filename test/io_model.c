/* See io_model.h. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io_model.h"

static void reserve(fimg *f, size_t len)
{
  if (len <= f->cap)
    return;
  size_t c = f->cap ? f->cap : 64;
  while (c < len)
    c *= 2;
  f->b = realloc(f->b, c);
  f->cap = c;
}

void fimg_set(fimg *f, const void *data, size_t len)
{
  reserve(f, len + 1);
  if (len)
    memcpy(f->b, data, len);
  f->len = len;
}

void fimg_free(fimg *f)
{
  free(f->b);
  memset(f, 0, sizeof(*f));
}

void vmodel_map(const vmodel *vm, int64_t p0, size_t n, vmodel_fn fn, void *arg)
{
  int64_t k = p0 / vm->fsize, q = p0 % vm->fsize;
  size_t i = 0, pos = 0;
  while (q >= vm->runs[i].len) {          /* the run holding byte q */
    q -= vm->runs[i].len;
    i++;
  }
  while (pos < n) {
    int64_t off = vm->disp + k * vm->fext + vm->runs[i].disp + q;
    size_t len = (size_t)(vm->runs[i].len - q);
    if (len > n - pos)
      len = n - pos;
    if (!fn(off, len, pos, arg))
      return;
    pos += len;
    q = 0;
    if (++i == vm->nruns) {
      i = 0;
      k++;
    }
  }
}

struct wr {
  const char *src;
  fimg *f;
};

static int put(int64_t off, size_t len, size_t pos, void *arg)
{
  struct wr *w = arg;
  size_t end = (size_t)off + len;
  reserve(w->f, end + 1);
  if (end > w->f->len) {
    if ((size_t)off > w->f->len)
      memset(w->f->b + w->f->len, 0, (size_t)off - w->f->len);
    w->f->len = end;
  }
  memcpy(w->f->b + off, w->src + pos, len);
  return 1;
}

void vmodel_write(const vmodel *vm, int64_t offset, const char *packed, size_t n,
                  fimg *f)
{
  struct wr w = {packed, f};
  vmodel_map(vm, offset * vm->esize, n, put, &w);
}

struct rd {
  char *dst;
  const fimg *f;
  size_t got;
};

static int get(int64_t off, size_t len, size_t pos, void *arg)
{
  struct rd *r = arg;
  size_t have = (size_t)off >= r->f->len ? 0 : r->f->len - (size_t)off;
  size_t take = have < len ? have : len;
  memcpy(r->dst + pos, r->f->b + off, take);
  r->got = pos + take;
  return take == len;
}

size_t vmodel_read(const vmodel *vm, int64_t offset, char *packed, size_t n,
                   const fimg *f)
{
  struct rd r = {packed, f, 0};
  vmodel_map(vm, offset * vm->esize, n, get, &r);
  return r.got;
}

static int hi(int64_t off, size_t len, size_t pos, void *arg)
{
  (void)pos;
  int64_t *h = arg;
  if (off + (int64_t)len > *h)
    *h = off + (int64_t)len;
  return 1;
}

int64_t vmodel_end(const vmodel *vm, int64_t p0, size_t n)
{
  int64_t h = 0;
  vmodel_map(vm, p0, n, hi, &h);
  return h;
}

bool vmodel_ordered(const model *m, bool *overlap)
{
  *overlap = false;
  if (m->n == 0)
    return true;
  dl_aint end = m->runs[0].disp + m->runs[0].len;
  for (size_t i = 1; i < m->n; i++) {
    if (m->runs[i].disp < m->runs[i - 1].disp)
      return false;
    *overlap |= m->runs[i].disp < end;
    if (m->runs[i].disp + m->runs[i].len > end)
      end = m->runs[i].disp + m->runs[i].len;
  }
  dl_aint next = m->runs[0].disp + model_extent(m);   /* the next copy */
  *overlap |= next < end;
  return next >= m->runs[m->n - 1].disp;
}

void model_unpack_n(const mrun *runs, size_t n, char *origin, const char *in,
                    size_t bytes)
{
  for (size_t i = 0; i < n && bytes > 0; i++) {
    size_t len = (size_t)runs[i].len < bytes ? (size_t)runs[i].len : bytes;
    memcpy(origin + runs[i].disp, in, len);
    in += len;
    bytes -= len;
  }
}

int fimg_load(fimg *f, const char *path)
{
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  off_t end = lseek(fd, 0, SEEK_END);
  reserve(f, (size_t)end + 1);
  f->len = (size_t)end;
  ssize_t k = end > 0 ? pread(fd, f->b, (size_t)end, 0) : 0;
  close(fd);
  return k == end;
}

int fimg_store(const fimg *f, const char *path)
{
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (fd < 0)
    return 0;
  ssize_t k = f->len ? pwrite(fd, f->b, f->len, 0) : 0;
  close(fd);
  return k == (ssize_t)f->len;
}
