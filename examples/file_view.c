/* file_view.c: write through a strided file view, read the file plainly.
 *
 * The view, as MPI_File_set_view makes it: after a header of HDR ints, the
 * file is tiled with copies of the filetype, each 2 ints of data followed by
 * a 3-int hole (contiguous(2, int) resized to an extent of 5 ints). Writing
 * N ints through the view fills only the data slots; the holes keep what
 * the file held. No MPI is needed: the view works on a POSIX descriptor.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* mkstemp, pread, pwrite */
#endif
#include <dataloop-io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { HDR = 4, DATA = 2, PERIOD = 5, N = 20 };
enum { FILE_INTS = HDR + N / DATA * PERIOD };   /* the header, N/DATA periods */

#define TRY(call)                                                        \
  do {                                                                   \
    int rc_ = (call);                                                    \
    if (rc_ != DL_OK) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
              dl_strerror(rc_));                                         \
      goto out;                                                          \
    }                                                                    \
  } while (0)

int main(void)
{
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof(path), "%s/dl-file-view-XXXXXX",
           dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path), status = 1;
  if (fd < 0) {
    perror(path);
    return 1;
  }
  dl_type *pair = NULL, *filetype = NULL;
  dl_file_view *view = NULL;
  int32_t file[FILE_INTS], mem[N], back[N];

  /* the file before: every int -1, so untouched holes can be seen */
  for (int i = 0; i < FILE_INTS; i++)
    file[i] = -1;
  if (pwrite(fd, file, sizeof(file), 0) != (ssize_t)sizeof(file)) {
    perror("pwrite");
    goto out;
  }
  for (int i = 0; i < N; i++)
    mem[i] = 100 + i;

  dl_type *i32 = dl_builtin(DL_INT32);
  TRY(dl_type_contiguous(DATA, i32, &pair));
  TRY(dl_type_resized(pair, 0, PERIOD * sizeof(int32_t), &filetype));
  TRY(dl_type_commit(filetype));
  /* displacement in bytes; etype int32: offsets count ints of the view */
  TRY(dl_file_view_create(fd, HDR * sizeof(int32_t), i32, filetype, &view));
  size_t bytes;
  TRY(dl_file_write_at(view, 0, mem, N, i32, &bytes));
  printf("wrote %zu bytes through the view\n", bytes);

  /* the file read plainly: data in the first DATA ints of every period */
  if (pread(fd, file, sizeof(file), 0) != (ssize_t)sizeof(file)) {
    perror("pread");
    goto out;
  }
  printf("file:");
  for (int i = 0; i < FILE_INTS; i++) {
    int k = i - HDR, want = -1;
    if (k >= 0 && k % PERIOD < DATA)
      want = 100 + k / PERIOD * DATA + k % PERIOD;
    printf(" %d", (int)file[i]);
    if (file[i] != want) {
      fprintf(stderr, "\nfile int %d is %d, not %d\n", i, (int)file[i], want);
      goto out;
    }
  }
  printf("\n");

  /* and back through the view, from etype offset 6: mem[6..] */
  TRY(dl_file_read_at(view, 6, back, N - 6, i32, &bytes));
  if (bytes != (N - 6) * sizeof(int32_t))
    goto out;
  for (int i = 0; i < N - 6; i++)
    if (back[i] != mem[6 + i]) {
      fprintf(stderr, "read back int %d is %d\n", i, (int)back[i]);
      goto out;
    }
  printf("read %zu bytes back through the view from offset 6\nok\n", bytes);
  status = 0;
out:
  dl_file_view_free(&view);
  dl_type_free(&filetype);
  dl_type_free(&pair);
  close(fd);
  unlink(path);
  return status;
}
