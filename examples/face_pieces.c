/* face_pieces.c: pack one face of a 3D array in pieces, in any order.
 *
 * A segment processes any byte range [first, last) of a type's packed
 * stream, so a face can be packed piece by piece (as a pipelined or
 * chunked sender would) and the pieces can come in any order. Here the
 * pieces are taken in a shuffled order into one buffer, which must equal a
 * one-shot dl_pack of the same face.
 */
#include <dataloop.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NZ = 6, NY = 5, NX = 7, PIECE = 10 };   /* PIECE cuts ints apart */

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
  static int32_t grid[NZ][NY][NX];
  for (int z = 0; z < NZ; z++)
    for (int y = 0; y < NY; y++)
      for (int x = 0; x < NX; x++)
        grid[z][y][x] = 10000 * z + 100 * y + x;

  /* the face x = NX - 1: a subarray one element thick */
  dl_count sizes[3] = {NZ, NY, NX}, sub[3] = {NZ, NY, 1},
           starts[3] = {0, 0, NX - 1};
  dl_type *face;
  TRY(dl_type_subarray(3, sizes, sub, starts, DL_ORDER_C,
                       dl_builtin(DL_INT32), &face));
  TRY(dl_type_commit(face));
  size_t size;
  TRY(dl_pack_size(1, face, &size));

  unsigned char oneshot[NZ * NY * sizeof(int32_t)], pieces[sizeof(oneshot)];
  size_t pos = 0;
  TRY(dl_pack(grid, 1, face, oneshot, sizeof(oneshot), &pos));
  for (int k = 0; k < NZ * NY; k++) {   /* check against the array itself */
    int32_t v;
    memcpy(&v, oneshot + k * sizeof(int32_t), sizeof(v));
    if (v != grid[k / NY][k % NY][NX - 1]) {
      fprintf(stderr, "one-shot pack: element %d is %d\n", k, (int)v);
      return 1;
    }
  }

  /* the pieces' start offsets, shuffled (Fisher-Yates, fixed seed) */
  size_t n = (size + PIECE - 1) / PIECE, order[sizeof(oneshot) / PIECE + 1];
  for (size_t i = 0; i < n; i++)
    order[i] = i * PIECE;
  srand(21);
  for (size_t i = n - 1; i > 0; i--) {
    size_t j = (size_t)rand() % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }

  dl_segment *seg;
  TRY(dl_segment_create(grid, 1, face, &seg));
  memset(pieces, 0xff, sizeof(pieces));
  printf("face of %dx%dx%d ints: %zu bytes in %zu pieces, in the order", NZ,
         NY, NX, size, n);
  for (size_t i = 0; i < n; i++) {
    size_t first = order[i], last = first + PIECE;
    if (last > size)
      last = size;
    size_t want = last;
    /* outbuf receives the range's bytes, so it points at byte `first` */
    TRY(dl_segment_pack(seg, first, &last, pieces + first));
    if (last != want) {
      fprintf(stderr, "piece at %zu stopped at %zu\n", first, last);
      return 1;
    }
    printf(" %zu", first);
  }
  printf("\n");
  dl_segment_free(&seg);

  if (memcmp(pieces, oneshot, size) != 0) {
    fprintf(stderr, "the pieces differ from the one-shot pack\n");
    return 1;
  }
  printf("pieces == one-shot pack\nok\n");
  TRY(dl_type_free(&face));
  return 0;
}
