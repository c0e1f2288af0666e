/* dataloop-io: noncontiguous file I/O through MPI-IO style file views.
 *
 * A view maps the packed stream of its filetype, tiled without end, onto a
 * POSIX file; reads and writes move (buf, count, memtype) to or from the
 * view at an offset counted in etypes. Memory and file pieces are processed
 * in bounded batches and issued as preadv/pwritev; small dense file pieces
 * are served by data sieving (see doc/io.md). POSIX only, no MPI needed.
 */
#ifndef DATALOOP_IO_H
#define DATALOOP_IO_H

#include "dataloop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dl_file_view dl_file_view;
/* A file view as MPI-IO defines it: copy k of the filetype starts at byte
   disp + k * extent(filetype), and its data lies at the filetype's own
   displacements from there; the lower bound does not shift data. Offsets are
   counted in etypes of the view. etype and filetype must be committed; the
   view holds its own references (the caller may free its types at once) and
   never closes fd, which stays the caller's. */
/* disp: bytes. Free the view with dl_file_view_free. DL_ERR_ARG (touching
   nothing; *out = NULL when out is not NULL): NULL types or out, fd < 0,
   disp < 0, an etype or filetype without data, a filetype size not a
   multiple of the etype size, filetype data at a negative displacement,
   decreasing displacements (within a copy or from one copy to the next),
   a filetype extent <= 0; DL_ERR_NOT_COMMITTED; DL_ERR_NOMEM. */
int dl_file_view_create(int fd, dl_aint disp, const dl_type *etype,
                        const dl_type *filetype, dl_file_view **out);
/* write/read count elements of committed memtype at buf (NULL: MPI_BOTTOM)
   to/from the view's stream from etype `offset` on; *bytes is always set
   (0 on argument errors). DL_ERR_ARG: NULL v, memtype or bytes, count < 0,
   offset < 0, a request that is not whole etypes, a write through a view
   whose filetype overlaps itself, a NULL buf whose data would lie below
   address 4096; DL_ERR_NOT_COMMITTED; DL_ERR_OVERFLOW: a
   size or file offset past 64 bits (nothing touched); DL_ERR_NOMEM;
   DL_ERR_IO (below). */
int dl_file_write_at(dl_file_view *v, int64_t offset, const void *buf,
                     dl_count count, const dl_type *memtype, size_t *bytes);
int dl_file_read_at(dl_file_view *v, int64_t offset, void *buf,
                    dl_count count, const dl_type *memtype, size_t *bytes);
/* frees *v, drops its type references, sets *v = NULL; leaves the file
   open. v or *v NULL: no-op */
void dl_file_view_free(dl_file_view **v);

/* `*bytes` counts bytes of the memory data (packed-stream order) moved. A
   read that reaches end of file stops there: `*bytes` is what was read
   before the first view byte at or past end of file, the rest of the memory
   buffer is left as it was, and the call returns DL_OK. A write never
   reports more than it wrote; on an I/O error it returns DL_ERR_IO with
   errno kept.

   Environment, read once: DL_IO_SIEVE=0 turns data sieving off;
   DL_IO_SIEVE_READ_BYTES and DL_IO_SIEVE_WRITE_BYTES set the sieve buffer
   sizes (defaults 4 MiB and 512 KiB; 0 turns sieving off in that
   direction). doc/io.md has the rules. */

#ifdef __cplusplus
}
#endif
#endif
