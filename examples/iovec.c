/* iovec.c: list a type's blocks in bounded batches.
 *
 * dl_segment_iov hands out the memory blocks of a (buffer, count, type) as
 * struct iovec entries, at most max_iov per call, and sets *last to the
 * packed byte it stopped at: the next call continues there. That is how a
 * writev/sendmsg or an RDMA layer walks a large type with a fixed-size
 * list. dl_segment_offlen lists the same blocks as (offset, length) pairs.
 */
#include <dataloop.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 8, MAX = 3 };   /* an 8 x 8 matrix; at most 3 blocks per call */

#define TRY(call)                                                        \
  do {                                                                   \
    int rc_ = (call);                                                    \
    if (rc_ != DL_OK) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
              dl_strerror(rc_));                                         \
      return 1;                                                          \
    }                                                                    \
  } while (0)

int main(void)
{
  double m[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      m[i][j] = i * N + j;

  /* the lower triangle: row i holds i + 1 elements starting at column 0 */
  dl_count lens[N], displs[N];
  for (int i = 0; i < N; i++) {
    lens[i] = i + 1;
    displs[i] = (dl_count)i * N;
  }
  dl_type *tri;
  TRY(dl_type_indexed(N, lens, displs, dl_builtin(DL_DOUBLE), &tri));
  TRY(dl_type_commit(tri));
  size_t size, pos = 0;
  TRY(dl_pack_size(1, tri, &size));
  unsigned char packed[sizeof(m)], gathered[sizeof(m)];
  TRY(dl_pack(m, 1, tri, packed, sizeof(packed), &pos));

  dl_segment *seg, *seg2;
  TRY(dl_segment_create(m, 1, tri, &seg));
  TRY(dl_segment_create(m, 1, tri, &seg2));
  size_t first = 0, total = 0, blocks = 0;
  while (first < size) {
    struct iovec iov[MAX];
    int64_t offs[MAX], lens2[MAX];
    size_t last = size, last2 = size, n, n2;
    TRY(dl_segment_iov(seg, first, &last, iov, MAX, &n));
    TRY(dl_segment_offlen(seg2, first, &last2, offs, lens2, MAX, &n2));
    if (n == 0 || n > MAX || n2 != n || last2 != last) {
      fprintf(stderr, "batch at %zu: %zu iovecs, %zu pairs\n", first, n, n2);
      return 1;
    }
    printf("bytes [%3zu, %3zu):", first, last);
    for (size_t k = 0; k < n; k++, blocks++) {
      size_t off = (size_t)((char *)iov[k].iov_base - (char *)m);
      printf(" (offset %3zu, %2zu bytes)", off, iov[k].iov_len);
      /* block k is row `blocks`: its offset and length are known */
      if (off != blocks * N * sizeof(double) ||
          iov[k].iov_len != (blocks + 1) * sizeof(double) ||
          offs[k] != (int64_t)off || lens2[k] != (int64_t)iov[k].iov_len) {
        fprintf(stderr, "\nblock %zu is not row %zu\n", blocks, blocks);
        return 1;
      }
      memcpy(gathered + total, iov[k].iov_base, iov[k].iov_len);
      total += iov[k].iov_len;
    }
    printf("\n");
    first = last;
  }
  dl_segment_free(&seg);
  dl_segment_free(&seg2);

  /* the blocks, concatenated, are the packed stream */
  if (blocks != N || total != size || memcmp(gathered, packed, size) != 0) {
    fprintf(stderr, "%zu blocks of %zu bytes do not make the %zu packed\n",
            blocks, total, size);
    return 1;
  }
  printf("%zu blocks, %zu bytes = the packed size\nok\n", blocks, total);
  TRY(dl_type_free(&tri));
  return 0;
}
