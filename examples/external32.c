/* external32.c: a struct in MPI's portable representation and back.
 *
 * external32 is big-endian with fixed sizes (MPI-4.0, Table 19.1): a long
 * takes 4 bytes there whatever its native size. The struct type below
 * describes struct rec field by field, so each field is converted by its
 * own type; the packed bytes are checked against an encoder written here.
 */
#include <dataloop.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct rec {
  int32_t id;
  double x;
  int16_t s;
  char tag[3];
  long n;
};
enum { COUNT = 2, X32 = 4 + 8 + 2 + 3 + 4 };   /* external32 bytes per rec */

#define TRY(call)                                                        \
  do {                                                                   \
    int rc_ = (call);                                                    \
    if (rc_ != DL_OK) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,      \
              dl_strerror(rc_));                                         \
      return 1;                                                          \
    }                                                                    \
  } while (0)

/* the expected bytes: v's low `size` bytes, most significant first */
static unsigned char *put_be(unsigned char *p, uint64_t v, int size)
{
  for (int i = size - 1; i >= 0; i--, v >>= 8)
    p[i] = (unsigned char)(v & 0xff);
  return p + size;
}

int main(void)
{
  struct rec in[COUNT] = {{0x01020304, 1.5, -2, "ab", -5},
                          {7, -0.25, 300, "xyz", 123456}}, back[COUNT];
  dl_count lens[5] = {1, 1, 1, 3, 1};
  dl_aint displs[5] = {offsetof(struct rec, id), offsetof(struct rec, x),
                       offsetof(struct rec, s), offsetof(struct rec, tag),
                       offsetof(struct rec, n)};
  dl_type *types[5] = {dl_builtin(DL_INT32), dl_builtin(DL_DOUBLE),
                       dl_builtin(DL_INT16), dl_builtin(DL_CHAR),
                       dl_builtin(DL_LONG)};
  dl_type *fields, *rec;
  TRY(dl_type_struct(5, lens, displs, types, &fields));
  /* the extent of the C struct, padding included, so COUNT recs tile */
  TRY(dl_type_resized(fields, 0, sizeof(struct rec), &rec));
  TRY(dl_type_commit(rec));

  size_t size, pos = 0;
  TRY(dl_pack_external_size("external32", COUNT, rec, &size));
  unsigned char out[COUNT * X32], want[COUNT * X32];
  if (size != sizeof(out)) {
    fprintf(stderr, "external32 size %zu, expected %zu\n", size, sizeof(out));
    return 1;
  }
  TRY(dl_pack_external("external32", in, COUNT, rec, out, sizeof(out), &pos));

  unsigned char *p = want;
  for (int r = 0; r < COUNT; r++) {
    uint64_t bits;
    memcpy(&bits, &in[r].x, sizeof(bits));   /* IEEE double on this host */
    p = put_be(p, (uint32_t)in[r].id, 4);
    p = put_be(p, bits, 8);
    p = put_be(p, (uint16_t)in[r].s, 2);
    memcpy(p, in[r].tag, 3);
    p = put_be(p + 3, (uint32_t)in[r].n, 4);
  }
  for (int r = 0; r < COUNT; r++) {
    printf("rec %d (native %zu bytes) as external32:", r, sizeof(struct rec));
    for (int k = 0; k < X32; k++)
      printf("%s%02x", k == 4 || k == 12 || k == 14 || k == 17 ? " | " : " ",
             out[r * X32 + k]);
    printf("\n");
  }
  if (pos != size || memcmp(out, want, size) != 0) {
    fprintf(stderr, "the external32 bytes differ from the expected ones\n");
    return 1;
  }

  memset(back, 0, sizeof(back));
  pos = 0;
  TRY(dl_unpack_external("external32", out, size, &pos, back, COUNT, rec));
  for (int r = 0; r < COUNT; r++)
    if (back[r].id != in[r].id || back[r].x != in[r].x ||
        back[r].s != in[r].s || memcmp(back[r].tag, in[r].tag, 3) != 0 ||
        back[r].n != in[r].n) {
      fprintf(stderr, "rec %d differs after unpacking\n", r);
      return 1;
    }
  printf("unpacked %zu bytes: both recs equal the originals\nok\n", pos);
  TRY(dl_type_free(&rec));
  TRY(dl_type_free(&fields));
  return 0;
}
