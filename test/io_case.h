/* Random file I/O cases for the I/O tests: a valid view (disp, etype,
 * filetype drawn from randtype recipes), a memory type and count, an offset,
 * and a starting file, with the model of each (io_model.h). */
#ifndef TEST_IO_CASE_H
#define TEST_IO_CASE_H

#include "buffers.h"
#include "io_model.h"
#include "randtype.h"

/* files stay small: views and offsets are redrawn until the file end is
   within this */
#define IOCASE_MAX_FILE (1 << 20)

typedef struct iocase {
  rtype ft;             /* the filetype; ft.m->runs is one copy */
  bool overlap;         /* some view bytes repeat: reads only */
  dl_count esize;       /* etype: contiguous(esize, byte) */
  dl_type *etype;
  dl_aint disp;
  int64_t offset;       /* etypes */
  rtype mt;             /* the memory type */
  dl_count count;
  mrun *mruns;          /* count copies of mt */
  size_t nmruns, n;     /* n: bytes of the request */
  tbuf mem;             /* memory covering the runs */
  fimg init;            /* the file before the request */
  vmodel vm;
  char *desc;           /* for failure messages */
} iocase;

/* 0, or -1 when a library constructor failed (a bug). Overlapping
   filetypes (legal for reading) come only when allow_overlap is set. */
int iocase_new(rng *r, iocase *c, bool allow_overlap);
/* a filetype with data, a positive extent and non-negative displacements,
   in MPI-IO order or not; 0 or -1 as above */
int iocase_filetype(rng *r, rtype *t);
void iocase_free(iocase *c);

/* the typemap model of any recipe node (NULL if a limit is exceeded) */
model *recipe_model(const recipe *rc);

/* a directory for test files: DL_TEST_TMPDIR, else /dev/shm, else /tmp;
   path gets dir/name.pid */
void test_path(char *path, size_t size, const char *name);


#endif
