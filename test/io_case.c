/* See io_case.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io_case.h"

static int basic_align(dl_builtin_t b)
{
  switch (b) {
  case DL_INT16: return 2;
  case DL_INT32: case DL_FLOAT: return 4;
  case DL_DOUBLE: case DL_C_DOUBLE_COMPLEX: case DL_INT64: return 8;
  case DL_LONG_DOUBLE: return 16;
  default: return 1;
  }
}

static model *indexed_model(const recipe *rc, const model *c)
{
  bool bytes = rc->kind == RT_HINDEXED || rc->kind == RT_HINDEXED_BLOCK;
  bool block = rc->kind == RT_INDEXED_BLOCK || rc->kind == RT_HINDEXED_BLOCK;
  dl_count *bls = malloc(sizeof(dl_count) * (size_t)(rc->n + 1));
  dl_aint *d = malloc(sizeof(dl_aint) * (size_t)(rc->n + 1));
  for (dl_count i = 0; i < rc->n; i++) {
    bls[i] = block ? rc->bl : rc->bls[i];
    d[i] = bytes ? rc->displs[i] : rc->displs[i] * model_extent(c);
  }
  model *m = model_hindexed(rc->n, bls, d, c);
  free(bls);
  free(d);
  return m;
}

model *recipe_model(const recipe *rc)
{
  if (rc->kind == RT_BUILTIN) {
    dl_count sz;
    dl_type_size(dl_builtin(rc->basic), &sz);
    return model_builtin(sz, basic_align(rc->basic));
  }
  model *k[4] = {0}, *m = NULL;
  for (int i = 0; i < rc->nkids; i++)
    if (!(k[i] = recipe_model(rc->kids[i])))
      goto out;
  switch (rc->kind) {
  case RT_CONTIG: m = model_contig(rc->n, k[0]); break;
  case RT_VECTOR:
    m = model_hvector(rc->n, rc->bl, rc->stride * model_extent(k[0]), k[0]);
    break;
  case RT_HVECTOR: m = model_hvector(rc->n, rc->bl, rc->stride, k[0]); break;
  case RT_STRUCT: m = model_struct(rc->n, rc->bls, rc->displs, k); break;
  case RT_RESIZED: m = model_resized(k[0], rc->lb, rc->extent); break;
  case RT_DUP: m = model_copy(k[0]); break;
  case RT_SUBARRAY:
    m = model_subarray(rc->ndims, rc->sizes, rc->subs, rc->starts, rc->order, k[0]);
    break;
  case RT_DARRAY:
    m = model_darray(rc->size, rc->rank, rc->ndims, rc->sizes, rc->dist, rc->darg,
                     rc->psizes, rc->order, k[0]);
    break;
  default: m = indexed_model(rc, k[0]); break;
  }
out:
  for (int i = 0; i < rc->nkids; i++)
    model_free(k[i]);
  return m;
}

void test_path(char *path, size_t size, const char *name)
{
  const char *dir = getenv("DL_TEST_TMPDIR");
  if (!dir)
    dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(path, size, "%s/dl-%s.%ld", dir, name, (long)getpid());
}

/* the recipe wrapped as hindexed(1, {1}, {shift}, rc): its data moves by
   shift bytes and its bounds with it */
static void shift_recipe(rtype *t, dl_aint shift)
{
  recipe *w = calloc(1, sizeof(recipe));
  w->kind = RT_HINDEXED;
  w->n = 1;
  w->bls = calloc(2, sizeof(dl_count));
  w->displs = calloc(2, sizeof(int64_t));
  w->bls[0] = 1;
  w->displs[0] = shift;
  w->kids = calloc(1, sizeof(recipe *));
  w->kids[0] = t->rc;
  w->nkids = 1;
  model *m = model_hindexed(1, w->bls, (dl_aint[]){shift}, t->m);
  model_free(t->m);
  t->m = m;
  t->rc = w;
  free(t->desc);
  t->desc = recipe_desc(w);
  if (t->t)
    dl_type_free(&t->t);
  t->t = NULL;
  if (recipe_build(w, &t->t) == DL_OK)
    dl_type_commit(t->t);
}

int iocase_filetype(rng *r, rtype *t)
{
  for (;;) {
    if (rtype_gen(r, (int)rng_range(r, 1, 4), t, NULL))
      return -1;
    if (t->m->size > 0 && model_extent(t->m) > 0 && t->m->size <= 4096)
      break;
    rtype_free(t);
  }
  if (t->m->true_lb < 0 || rng_range(r, 0, 7) == 0) {
    /* mostly to 0, where a filetype's data usually starts */
    shift_recipe(t, -t->m->true_lb + (rng_range(r, 0, 3) ? 0 : rng_range(r, 1, 16)));
    if (!t->t)
      return -1;
  }
  return 0;
}

static dl_count pick_esize(rng *r, dl_count fsize)
{
  dl_count d[16];
  int n = 0;
  for (dl_count e = 1; e <= fsize && n < 16; e++)
    if (fsize % e == 0)
      d[n++] = e;
  return rng_range(r, 0, 2) ? 1 : d[rng_range(r, 0, n - 1)];
}

static void initial_file(rng *r, iocase *c, int64_t end)
{
  size_t len;
  switch (rng_range(r, 0, 3)) {
  case 0: len = 0; break;                                  /* new file */
  case 1: len = (size_t)(end + rng_range(r, 0, 64)); break; /* covers all */
  default: len = (size_t)rng_range(r, 0, end + 16); break;  /* ends inside */
  }
  unsigned char *b = malloc(len + 1);
  for (size_t i = 0; i < len; i++)
    b[i] = (unsigned char)rng_next(r);
  fimg_set(&c->init, b, len);
  free(b);
}

int iocase_new(rng *r, iocase *c, bool allow_overlap)
{
  memset(c, 0, sizeof(*c));
  for (;;) {
    if (iocase_filetype(r, &c->ft))
      return -1;
    bool ordered = vmodel_ordered(c->ft.m, &c->overlap);
    if (!ordered || (c->overlap && !allow_overlap)) {
      rtype_free(&c->ft);
      continue;
    }
    c->esize = pick_esize(r, c->ft.m->size);
    c->disp = rng_range(r, 0, 3) ? rng_range(r, 0, 64) : 0;
    if (rtype_gen(r, (int)rng_range(r, 1, 4), &c->mt, NULL))
      return -1;
    c->count = rng_range(r, 0, 3);
    if (model_bytemap(c->mt.m, c->count, &c->mruns, &c->nmruns))
      return -1;
    c->n = runs_bytes(c->mruns, c->nmruns);
    c->vm = (vmodel){c->ft.m->runs, c->ft.m->n, c->ft.m->size, c->esize,
                     model_extent(c->ft.m), c->disp};
    int64_t per = c->ft.m->size / c->esize;          /* etypes per copy */
    c->offset = rng_range(r, 0, 2) ? rng_range(r, 0, 3 * per) : rng_range(r, 0, 8);
    int64_t end = c->n ? vmodel_end(&c->vm, c->offset * c->esize, c->n)
                       : c->disp + c->offset;
    if (c->n <= (1 << 16) && end <= IOCASE_MAX_FILE)
      break;
    iocase_free(c);
  }
  dl_type_contiguous(c->esize, dl_builtin(DL_BYTE), &c->etype);
  dl_type_commit(c->etype);
  tbuf_for(c->mruns, c->nmruns, &c->mem, rng_next(r));
  initial_file(r, c, c->n ? vmodel_end(&c->vm, c->offset * c->esize, c->n) : 0);
  size_t dl = strlen(c->ft.desc) + strlen(c->mt.desc) + 200;
  c->desc = malloc(dl);
  snprintf(c->desc, dl, "filetype %s, etype %lld bytes, disp %lld, offset %lld, "
           "memtype %s, count %lld, file %zu bytes", c->ft.desc, (long long)c->esize,
           (long long)c->disp, (long long)c->offset, c->mt.desc, (long long)c->count,
           c->init.len);
  return 0;
}

void iocase_free(iocase *c)
{
  rtype_free(&c->ft);
  rtype_free(&c->mt);
  if (c->etype)
    dl_type_free(&c->etype);
  free(c->mruns);
  tbuf_free(&c->mem);
  fimg_free(&c->init);
  free(c->desc);
  memset(c, 0, sizeof(*c));
}
