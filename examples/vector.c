/* vector.c: pack and unpack a strided vector with the one-shot calls.
 *
 * The type picks 2 doubles out of every row of a 4 x 6 matrix (columns 1 and
 * 2): MPI_Type_vector(4, 2, 6, MPI_DOUBLE). Packing gathers those 8 doubles
 * into a dense buffer; unpacking scatters them back into a second matrix.
 */
#include <dataloop.h>
#include <stdio.h>
#include <string.h>

enum { ROWS = 4, COLS = 6, FIRST = 1, WIDTH = 2 };

/* every call returns DL_OK or an error code that dl_strerror names */
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
  double a[ROWS][COLS], b[ROWS][COLS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      a[i][j] = 10 * i + j;
  memset(b, 0, sizeof(b));

  /* count ROWS blocks of WIDTH doubles, block starts COLS doubles apart */
  dl_type *cols;
  TRY(dl_type_vector(ROWS, WIDTH, COLS, dl_builtin(DL_DOUBLE), &cols));
  TRY(dl_type_commit(cols));   /* a type must be committed before use */

  size_t size;
  TRY(dl_pack_size(1, cols, &size));
  printf("vector(%d, %d, %d) of double: %zu packed bytes\n", ROWS, WIDTH,
         COLS, size);
  double packed[ROWS * WIDTH];
  if (size != sizeof(packed)) {
    fprintf(stderr, "expected %zu packed bytes\n", sizeof(packed));
    return 1;
  }

  /* the data starts at column FIRST: pass that element as the buffer */
  size_t pos = 0;
  TRY(dl_pack(&a[0][FIRST], 1, cols, packed, sizeof(packed), &pos));
  printf("packed:");
  for (int k = 0; k < ROWS * WIDTH; k++)
    printf(" %g", packed[k]);
  printf("\n");
  for (int k = 0; k < ROWS * WIDTH; k++)
    if (pos != size || packed[k] != a[k / WIDTH][FIRST + k % WIDTH]) {
      fprintf(stderr, "packed element %d is %g, position %zu\n", k,
              packed[k], pos);
      return 1;
    }

  /* unpack into b: exactly the selected elements change */
  pos = 0;
  TRY(dl_unpack(packed, sizeof(packed), &pos, &b[0][FIRST], 1, cols));
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      int picked = j >= FIRST && j < FIRST + WIDTH;
      if (b[i][j] != (picked ? a[i][j] : 0)) {
        fprintf(stderr, "b[%d][%d] is %g after unpacking\n", i, j, b[i][j]);
        return 1;
      }
    }
  printf("unpacked %zu bytes: columns %d-%d of every row restored\n", pos,
         FIRST, FIRST + WIDTH - 1);

  /* an output buffer too small is refused, not overrun */
  pos = 0;
  int rc = dl_pack(&a[0][FIRST], 1, cols, packed, size - 1, &pos);
  printf("packing into %zu bytes: %s\n", size - 1, dl_strerror(rc));
  if (rc != DL_ERR_TRUNCATE)
    return 1;

  TRY(dl_type_free(&cols));
  printf("ok\n");
  return 0;
}
