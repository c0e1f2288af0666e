/* The memory side of a request. Chosen once per request from the first
 * iovec batch:
 *   CONTIG  the memory stream is one run: every span is an address;
 *   IOV     large pieces: system calls get the user's iovecs directly,
 *           through a cursor over bounded dl_segment_iov batches;
 *   PACK    small pieces: the stream is packed (writes) or unpacked
 *           (reads) through a bounded stage buffer by the copy kernels, so
 *           a system call moves a stage-full instead of IOV_MAX crumbs.
 * A span that must be contiguous (a sieved group) goes through the stage
 * buffer in IOV mode too. */
#include "io.h"

static int cursor_load(dli_req *r, size_t a)
{
  size_t last = r->n, n = 0;
  int rc = dl_segment_iov(r->ms, a, &last, r->sc->miov, r->v->lim.iov_max, &n);
  if (rc)
    return rc;
  if (n == 0 || last <= a)
    return DL_ERR_CORRUPT;        /* a segment always makes progress */
  r->mb_n = n;
  r->mb_i = 0;
  r->mb_off = 0;
  r->mb_pos = a;
  r->mb_end = last;
  return DL_OK;
}

int dli_mem_start(dli_req *r)
{
  int rc = cursor_load(r, 0);
  if (rc)
    return rc;
  if (r->mb_end == r->n && r->mb_n == 1) {
    r->mode = DLI_MEM_CONTIG;
    r->contig = r->sc->miov[0].iov_base;
  } else {
    size_t avg = r->mb_end / r->mb_n;
    r->mode = avg < r->v->lim.mem_piece_min ? DLI_MEM_PACK : DLI_MEM_IOV;
  }
  r->ws = r->wvalid = r->we = 0;
  return DL_OK;
}

size_t dli_mem_span_max(const dli_req *r)
{
  return r->mode == DLI_MEM_CONTIG ? SIZE_MAX : r->v->lim.stage;
}

/* IOV mode: up to max entries for [a, b) from the cursor */
static int cursor_take(dli_req *r, size_t a, size_t b, struct iovec *iov,
                       size_t max, size_t *n, size_t *bytes)
{
  int rc = DL_OK;
  if (a != r->mb_pos || a == r->mb_end)
    rc = cursor_load(r, a);
  size_t k = 0, pos = a;
  while (!rc && k < max && pos < b) {
    if (r->mb_i == r->mb_n) {
      rc = cursor_load(r, pos);
      continue;
    }
    const struct iovec *e = &r->sc->miov[r->mb_i];
    size_t take = e->iov_len - r->mb_off;
    if (take > b - pos)
      take = b - pos;
    iov[k++] = (struct iovec){(char *)e->iov_base + r->mb_off, take};
    pos += take;
    r->mb_off += take;
    if (r->mb_off == e->iov_len) {
      r->mb_i++;
      r->mb_off = 0;
    }
  }
  r->mb_pos = pos;
  *n = k;
  *bytes = pos - a;
  return rc;
}

int dli_mem_flush(dli_req *r)
{
  if (r->write || r->wvalid <= r->ws)
    return DL_OK;
  size_t last = r->wvalid;
  int rc = dl_segment_unpack(r->ms, r->ws, &last, r->sc->stage);
  r->ws = r->wvalid;
  return rc;
}

/* points the stage window at [a, we) with we >= b; writes pack it */
static int window_at(dli_req *r, size_t a, size_t b)
{
  int rc = dli_mem_flush(r);
  if (rc)
    return rc;
  size_t cap = r->v->lim.stage;
  size_t we = r->mode == DLI_MEM_PACK ? (r->n - a < cap ? r->n : a + cap) : b;
  if (we < b || !dli_scratch_buf(&r->sc->stage, &r->sc->stage_cap, we - a, cap))
    return we < b ? DL_ERR_ARG : DL_ERR_NOMEM;
  r->ws = r->wvalid = a;
  r->we = we;
  if (r->write) {
    size_t last = we;
    rc = dl_segment_pack(r->ms, a, &last, r->sc->stage);
    r->wvalid = last;
  }
  return rc;
}

/* whether [a, b) can continue in the current window */
static bool in_window(const dli_req *r, size_t a, size_t b)
{
  if (r->write)
    return r->ws <= a && b <= r->we && r->we > r->ws;
  return a == r->wvalid && b <= r->we && r->we > r->ws;
}

int dli_mem_span(dli_req *r, size_t a, size_t b, char **p)
{
  if (r->mode == DLI_MEM_CONTIG) {
    *p = r->contig + a;
    return DL_OK;
  }
  if (!in_window(r, a, b)) {
    int rc = window_at(r, a, b);
    if (rc)
      return rc;
  }
  *p = r->sc->stage + (a - r->ws);
  return DL_OK;
}

int dli_mem_iov(dli_req *r, size_t a, size_t b, struct iovec *iov, size_t max,
                size_t *n, size_t *bytes)
{
  if (r->mode == DLI_MEM_IOV)
    return cursor_take(r, a, b, iov, max, n, bytes);
  char *p;
  if (r->mode == DLI_MEM_PACK && !in_window(r, a, a + 1)) {
    int rc = window_at(r, a, a + 1);
    if (rc)
      return rc;
  }
  if (b > r->we && r->mode == DLI_MEM_PACK)
    b = r->we;
  int rc = dli_mem_span(r, a, b, &p);
  iov[0] = (struct iovec){p, b - a};
  *n = 1;
  *bytes = b - a;
  return rc;
}

int dli_mem_filled(dli_req *r, size_t a, size_t b)
{
  if (r->write || r->mode == DLI_MEM_CONTIG || b == a)
    return DL_OK;
  if (a != r->wvalid)
    return DL_ERR_ARG;            /* spans are filled in stream order */
  r->wvalid = b;
  /* IOV mode stages only sieved groups: deliver at once */
  return r->mode == DLI_MEM_IOV ? dli_mem_flush(r) : DL_OK;
}
