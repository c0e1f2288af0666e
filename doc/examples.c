/* Prints the loop trees shown in doc/design.md, and with --flash-ir the LLVM
 * IR of the Flash I/O type kept in doc/flash-ir.ll; test/doc-examples.sh
 * checks that the documents still show exactly what this prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dataloop.h"

#define F dl_builtin(DL_FLOAT)
#define D dl_builtin(DL_DOUBLE)
#define I dl_builtin(DL_INT32)

static void show(const char *title, dl_type *t)
{
  printf("### %s\n\n```\n", title);
  dl_type_print(stdout, t);
  printf("```\n\n");
  dl_type_free(&t);
}

/* 80 blocks of 16^3 cells (8^3 interior) of 24 doubles, by variable */
static dl_type *flash(void)
{
  dl_type *a, *b, *c, *t;
  dl_type_hvector(8, 1, 192, D, &a);
  dl_type_hvector(8, 1, 3072, a, &b);
  dl_type_hvector(8, 1, 49152, b, &c);
  dl_type_free(&a);
  dl_type_hvector(80, 1, 786432, c, &a);
  dl_type_hvector(24, 1, 8, a, &t);
  dl_type_free(&a);
  dl_type_free(&b);
  dl_type_free(&c);
  return t;
}

/* the code generator prints each module it compiles on stderr under
   DL_JIT_DUMP; exits 2 when built without LLVM */
static int flash_ir(void)
{
  setenv("DL_JIT_DUMP", "1", 1);
  dl_type *t = flash();
  dl_type_commit(t);
  int rc = dl_type_compile(t);
  dl_type_free(&t);
  return rc == DL_OK ? 0 : rc == DL_ERR_UNSUPPORTED ? 2 : 1;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "--flash-ir") == 0)
    return flash_ir();
  dl_type *a, *t;

  dl_type_contiguous(6, F, &a);
  dl_type_vector(100, 1, 8, a, &t);
  dl_type_free(&a);
  show("vector(100, 1, 8, contiguous(6, float)): the contiguous child merges "
       "into the block", t);

  dl_type_vector(50, 3, 3, D, &t);
  show("vector(50, 3, 3, double): blocks that touch are one run", t);

  {
    dl_count bl[4] = {2, 1, 3, 2}, d[4] = {0, 2, 7, 10};
    dl_type_indexed(4, bl, d, I, &t);
    show("indexed({2,1,3,2}, {0,2,7,10}, int): touching blocks coalesce", t);
  }
  {
    dl_count d[4] = {0, 5, 13, 14};
    dl_type_indexed_block(4, 2, d, I, &t);
    show("indexed_block(2, {0,5,13,14}, int): equal lengths", t);
    dl_count e[4] = {1, 5, 9, 13};
    dl_type_indexed_block(4, 2, e, I, &t);
    show("indexed_block(2, {1,5,9,13}, int): evenly spaced, so a vector", t);
  }
  {
    /* Figure 2 of the paper: picks 0, 1, 3, 6, 7 of every 10 */
    enum { N = 1048576 };
    static const int pick[5] = {0, 1, 3, 6, 7};
    dl_count *bl = malloc(N * sizeof(dl_count)), *d = malloc(N * sizeof(dl_count));
    for (int i = 0; i < N; i++) {
      bl[i] = 1;
      d[i] = pick[i % 5] + 10 * (i / 5);
    }
    dl_type_indexed(N, bl, d, F, &t);
    show("indexed, 1,048,576 single floats at 0, 1, 3, 6, 7 of every 10: "
         "a repeating pattern folds to one period (the last, partial period "
         "is a second block)", t);
    dl_type_indexed(N - 1, bl, d, F, &t);
    show("the same with 1,048,575 blocks: whole periods only", t);
    free(bl);
    free(d);
  }
  {
    dl_type *c64;
    dl_type_contiguous(64, dl_builtin(DL_CHAR), &c64);
    dl_count bl[6] = {1, 1, 1, 1, 1, 1};
    dl_aint d[6] = {0, 4, 8, 72, 80, 88};
    dl_type *ty[6] = {I, I, c64, D, D, F};
    dl_type_struct(6, bl, d, ty, &t);
    dl_type_free(&c64);
    show("struct {int, int, char[64], double, double, float}, packed: one run "
         "of bytes", t);
  }
  {
    dl_count bl[3] = {2, 1, 1};
    dl_aint d[3] = {0, 16, 40};
    dl_type *ty[3] = {D, F, dl_builtin(DL_INT16)};
    dl_type_struct(3, bl, d, ty, &t);
    show("struct {2 double @0, float @16, short @40}: an indexed loop over "
         "bytes", t);
  }
  {
    dl_type *v;
    dl_type_vector(4, 1, 3, I, &v);
    dl_count bl[2] = {1, 2};
    dl_aint d[2] = {0, 64};
    dl_type *ty[2] = {v, D};
    dl_type_struct(2, bl, d, ty, &t);
    dl_type_free(&v);
    show("struct {vector(4, 1, 3, int) @0, 2 double @64}: a STRUCT loop", t);
  }
  {
    dl_count sz[3] = {256, 256, 256}, sub[3] = {256, 256, 1}, st[3] = {0, 0, 7};
    dl_type_subarray(3, sz, sub, st, DL_ORDER_C, F, &t);
    show("subarray: the YZ face of a 256^3 float cube; the nested vectors tile, "
         "so they are one vector", t);
  }
  t = flash();
  show("the Flash I/O type (Figure 1 of the paper)", t);
  return 0;
}
