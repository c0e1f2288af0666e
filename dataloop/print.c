/* dl_type_print: the loop tree, one loop per line, in the form of Figure 1
 * of the dataloop paper (kind, count, block length, stride or offsets,
 * element size and extent). Leaf lengths are shown in basic elements. */
#include <inttypes.h>
#include "loop.h"

#define SHOWN 4   /* list entries printed before "..." */

static void list_aint(FILE *f, const char *name, const dl_aint *v, dl_count n,
                      dl_count div)
{
  fprintf(f, "; %s = [", name);
  for (dl_count i = 0; i < n && i < SHOWN; i++)
    fprintf(f, "%s%" PRId64, i ? ", " : "", v[i] / div);
  if (n > SHOWN)
    fprintf(f, ", ... %" PRId64 " in all", n);
  fputc(']', f);
}

static void list_lens(FILE *f, const dli_loop *l, dl_count div)
{
  fputs("; blks = [", f);
  for (dl_count i = 0; i < l->count && i < SHOWN; i++) {
    dl_count v = l->leaf ? (l->pre[i + 1] - l->pre[i]) / div : l->blocklens[i];
    fprintf(f, "%s%" PRId64, i ? ", " : "", v);
  }
  if (l->count > SHOWN)
    fprintf(f, ", ... %" PRId64 " in all", l->count);
  fputc(']', f);
}

static const char *kind_name(int kind)
{
  static const char *const names[] = {"contig", "vector", "blockindexed",
                                      "indexed", "struct"};
  return names[kind];
}

static void print_loop(FILE *f, const dli_loop *l, int indent)
{
  dl_count unit = l->leaf ? l->unit : 1;
  fprintf(f, "%*s%s ct = %" PRId64, indent, "", kind_name(l->kind),
          l->leaf && l->kind == DLI_CONTIG ? l->count / unit : l->count);
  if (l->kind == DLI_VECTOR || l->kind == DLI_BLOCKINDEXED)
    fprintf(f, "; blk = %" PRId64, l->blocklen / unit);
  if (l->kind == DLI_VECTOR)
    fprintf(f, "; str = %" PRId64, l->stride);
  if (l->kind == DLI_INDEXED || l->kind == DLI_STRUCT)
    list_lens(f, l, unit);
  if (l->kind >= DLI_BLOCKINDEXED)
    list_aint(f, "offs", l->offs, l->count, 1);
  if (l->offset)
    fprintf(f, "; off = %" PRId64, l->offset);
  if (l->leaf)
    fprintf(f, "; el_sz = %d; el_ext = %d", l->unit, l->unit);
  else if (l->kind != DLI_STRUCT)
    fprintf(f, "; el_sz = %" PRId64 "; el_ext = %" PRId64, l->el_size,
            l->el_extent);
  fputc('\n', f);
  if (l->kind == DLI_STRUCT) {
    for (dl_count i = 0; i < l->count; i++)
      print_loop(f, l->children[i], indent + 2);
  } else if (!l->leaf) {
    print_loop(f, l->child, indent + 2);
  }
}

int dl_type_print(FILE *f, const dl_type *t)
{
  if (!f || !dli_type_valid(t))
    return DL_ERR_ARG;
  fprintf(f, "type size = %" PRId64 "; lb = %" PRId64 "; extent = %" PRId64
          "; true_lb = %" PRId64 "; true_extent = %" PRId64 "\n",
          t->b.size, t->b.lb, t->b.ub - t->b.lb, t->b.true_lb,
          t->b.true_ub - t->b.true_lb);
  if (t->b.size == 0)
    fputs("(no data)\n", f);
  else
    print_loop(f, t->loop, 0);
  return ferror(f) ? DL_ERR_IO : DL_OK;
}
