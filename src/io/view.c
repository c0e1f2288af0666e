/* File views: validation by MPI-IO's rules, the references a view holds,
 * and the scratch memory it caches for its requests. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io.h"

/* ---- MPI-IO: "the displacements in the typemap of the filetype are not
   required to be distinct, but they must be non-negative and monotonically
   nondecreasing"; overlapping regions are allowed for reading only. The
   blocks of one copy are walked once, a regular vector leaf in O(1). A
   block that starts where the one before it ends continues it, so the
   verdict does not depend on how the tree happens to split a run. ---- */

struct order {
  bool any, decreasing, overlap;
  int64_t first, last, end;     /* first and last run start, highest end */
  int64_t prev_end;             /* end of the block just seen */
};

static void block(struct order *o, int64_t at, int64_t len)
{
  if (!o->any) {
    o->any = true;
    o->first = o->last = at;
    o->end = o->prev_end = at + len;
    return;
  }
  if (at != o->prev_end) {
    o->decreasing |= at < o->last;
    o->overlap |= at < o->end;
    o->last = at;
  }
  o->prev_end = at + len;
  if (at + len > o->end)
    o->end = at + len;
}

static size_t order_piece(void *st, const dl_piece *p)
{
  struct order *o = st;
  size_t blk = p->blk;
  for (dl_count r = 0; r < p->reps && !o->decreasing; r++) {
    int64_t b = (int64_t)(intptr_t)p->base + r * p->rep_stride;
    if (!p->offs && p->count > 1 && p->stride == (dl_aint)blk) {
      block(o, b, (int64_t)blk * p->count);            /* one run */
      continue;
    }
    if (!p->offs && p->count > 1 && p->stride > (dl_aint)blk) {
      block(o, b, (int64_t)blk);                       /* sorted, disjoint */
      block(o, b + (p->count - 1) * p->stride, (int64_t)blk);
      continue;
    }
    for (dl_count i = 0; i < p->count; i++) {
      size_t len = p->pre ? (size_t)(p->pre[i + 1] - p->pre[i]) : blk;
      block(o, b + (p->offs ? p->offs[i] : i * p->stride), (int64_t)len);
    }
  }
  return o->decreasing ? 0 : dl_piece_bytes(p);
}

static const dl_action order_action = {order_piece, order_piece, order_piece,
                                       order_piece};

/* DL_OK, or DL_ERR_ARG when the tiled view's displacements decrease */
static int check_order(const dl_type *ft, dl_aint ext, bool *overlap)
{
  dl_segment *s;
  int rc = dl_segment_create(NULL, 1, ft, &s);
  if (rc)
    return rc;
  struct order o = {0};
  size_t last = dl_segment_size(s);
  rc = dl_segment_process(s, 0, &last, &order_action, &o);
  dl_segment_free(&s);
  if (rc)
    return rc;
  /* copy k + 1 starts ext after copy k: its first block against the last
     (a next copy past INT64_MAX is never reached) */
  int64_t next;
  bool far = __builtin_add_overflow(o.first, ext, &next);
  if (o.decreasing || (!far && next < o.last))
    return DL_ERR_ARG;
  *overlap = o.overlap || (!far && next < o.end);
  return DL_OK;
}

/* MPI-IO: the etype has data, the filetype is built of whole etypes, and
   its displacements are non-negative (relative to its own origin; its
   lower bound may be anything) and nondecreasing, tiled copies included.
   The extent must be positive so that copies advance through the file. */
static int check_types(const dl_type *etype, const dl_type *ft, bool *overlap)
{
  if (!dli_type_valid(etype) || !dli_type_valid(ft))
    return DL_ERR_ARG;
  if (!dli_io_committed(etype) || !dli_io_committed(ft))
    return DL_ERR_NOT_COMMITTED;
  dl_count es = etype->b.size, fsz = ft->b.size;
  if (es <= 0 || fsz <= 0 || fsz % es != 0)
    return DL_ERR_ARG;
  dl_aint lb, ext;
  if (dl_type_extent(ft, &lb, &ext) != DL_OK || ext <= 0)
    return DL_ERR_ARG;
  if (ft->b.true_lb < 0)
    return DL_ERR_ARG;
  return check_order(ft, ext, overlap);
}

int dl_file_view_create(int fd, dl_aint disp, const dl_type *etype,
                        const dl_type *filetype, dl_file_view **out)
{
  if (!out)
    return DL_ERR_ARG;
  *out = NULL;
  if (fd < 0 || disp < 0)
    return DL_ERR_ARG;
  bool overlap = false;
  int rc = check_types(etype, filetype, &overlap);
  if (rc)
    return rc;
  dl_file_view *v = calloc(1, sizeof(*v));
  if (!v)
    return DL_ERR_NOMEM;
  v->magic = DLI_VIEW_MAGIC;
  v->fd = fd;
  v->disp = disp;
  v->etype = etype;
  v->ftype = filetype;
  v->esize = etype->b.size;
  v->fsize = filetype->b.size;
  v->fext = filetype->b.ub - filetype->b.lb;
  v->ftrue_lb = filetype->b.true_lb;
  v->ftrue_ub = filetype->b.true_ub;
  v->overlap = overlap;
  v->lim = *dli_io_defaults();
  v->ops = dli_io_posix;
  atomic_flag_clear(&v->busy);
  dli_type_ref(etype);
  dli_type_ref(filetype);
  *out = v;
  return DL_OK;
}


void dl_file_view_free(dl_file_view **pv)
{
  if (!pv || !*pv || (*pv)->magic != DLI_VIEW_MAGIC)
    return;
  dl_file_view *v = *pv;
  dli_scratch_release(&v->cache);
  dli_type_unref(v->etype);
  dli_type_unref(v->ftype);
  v->magic = 0;
  free(v);
  *pv = NULL;
}

int dli_file_view_set_limits(dl_file_view *v, const dli_io_limits *l)
{
  long iovmax = sysconf(_SC_IOV_MAX);
  if (!v || !l || l->list_max < 1 || l->iov_max < 1 || l->sys_iov_max < 1 ||
      l->stage < 1 || (iovmax > 0 && l->sys_iov_max > (size_t)iovmax) ||
      l->sys_iov_max > INT_MAX)
    return DL_ERR_ARG;
  v->lim = *l;
  return DL_OK;
}

void dli_file_view_set_ops(dl_file_view *v, const dli_io_ops *ops)
{
  v->ops = ops ? *ops : dli_io_posix;
}
