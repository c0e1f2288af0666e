/* The standard's semantics of file views, written out plainly for tests:
 * view stream byte p lies in filetype copy k = p / size(filetype), at the
 * file offset disp + k * extent(filetype) + the displacement of byte
 * p % size in the filetype's typemap (test/model.h byte runs). Files are
 * byte images whose length is what exists; writing past the end leaves
 * zero holes, as POSIX does. Independent of the dataloop code. */
#ifndef TEST_IO_MODEL_H
#define TEST_IO_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"

typedef struct vmodel {
  const mrun *runs;     /* one filetype copy, packed order */
  size_t nruns;
  dl_count fsize, esize;
  dl_aint fext, disp;
} vmodel;

typedef struct fimg {
  unsigned char *b;
  size_t len, cap;
} fimg;

void fimg_set(fimg *f, const void *data, size_t len);
void fimg_free(fimg *f);

/* calls fn(off, len, pos, arg) for the file runs of view stream bytes
   [p0, p0 + n) in stream order (pos: bytes before this run); stops early
   when fn returns false */
typedef int (*vmodel_fn)(int64_t off, size_t len, size_t pos, void *arg);
void vmodel_map(const vmodel *vm, int64_t p0, size_t n, vmodel_fn fn, void *arg);

/* a write of packed bytes at `offset` etypes */
void vmodel_write(const vmodel *vm, int64_t offset, const char *packed, size_t n,
                  fimg *f);
/* a read: fills packed and returns the bytes before the first view byte at
   or past the end of the image */
size_t vmodel_read(const vmodel *vm, int64_t offset, char *packed, size_t n,
                   const fimg *f);
/* highest file offset + 1 the view bytes [p0, p0 + n) touch (0 if n = 0) */
int64_t vmodel_end(const vmodel *vm, int64_t p0, size_t n);

/* MPI-IO's rule for filetypes: block starts nondecreasing in packed order,
   also from the last block of one copy to the first of the next (extent
   apart). Returns whether it holds; *overlap: some bytes repeat (allowed
   for reading only). */
bool vmodel_ordered(const model *m, bool *overlap);

/* unpacks the first `bytes` bytes of a stream through runs */
void model_unpack_n(const mrun *runs, size_t n, char *origin, const char *in,
                    size_t bytes);

/* reads a whole file into an image; false on error */
int fimg_load(fimg *f, const char *path);
/* writes an image as the whole file (truncating) */
int fimg_store(const fimg *f, const char *path);

#endif
