/* Helpers shared by the fuzz targets; see fuzz.h. */
#include <string.h>
#include "fuzz.h"

FILE *fuzz_devnull(void)
{
  static FILE *f;
  if (!f)
    f = fopen("/dev/null", "w");
  FUZZ_CHECK(f != NULL);
  return f;
}

static void roundtrip(const dl_type *t)
{
  size_t need = 0, again = 0;
  FUZZ_CHECK(dl_type_serialize(t, NULL, 0, &need) == DL_ERR_TRUNCATE);
  uint8_t *a = malloc(need), *b = NULL;
  FUZZ_CHECK(a && dl_type_serialize(t, a, need, &again) == DL_OK && again == need);
  dl_type *c;
  FUZZ_CHECK(dl_type_deserialize(a, need, &c) == DL_OK);
  FUZZ_CHECK(dl_type_serialize(c, NULL, 0, &again) == DL_ERR_TRUNCATE && again == need);
  b = malloc(need);
  FUZZ_CHECK(b && dl_type_serialize(c, b, need, &again) == DL_OK);
  FUZZ_CHECK(memcmp(a, b, need) == 0);
  FUZZ_CHECK(dl_type_free(&c) == DL_OK);
  free(a);
  free(b);
}

/* external32 of count = 1 when the type's element types are known: one
   shot into an output of exactly its size, back, and in two pieces cut
   inside an element where one can be, equal to one shot */
static void external_small(const dl_type *t, char *origin)
{
  size_t xs, pos = 0;
  int rc = dl_pack_external_size("external32", 1, t, &xs);
  FUZZ_CHECK(rc == DL_OK || rc == DL_ERR_UNSUPPORTED);
  if (rc != DL_OK || xs == 0)
    return;
  char *a = malloc(xs), *b = malloc(xs);
  FUZZ_CHECK(a && b);
  FUZZ_CHECK(dl_pack_external("external32", origin, 1, t, a, xs, &pos) == DL_OK &&
             pos == xs);
  dl_segment *s;
  FUZZ_CHECK(dl_segment_create(origin, 1, t, &s) == DL_OK);
  size_t cut = xs / 2 + (xs > 2), last = xs;
  FUZZ_CHECK(dl_segment_pack_external("external32", s, cut, &last, b + cut) == DL_OK);
  last = cut;
  FUZZ_CHECK(dl_segment_pack_external("external32", s, 0, &last, b) == DL_OK);
  FUZZ_CHECK(memcmp(a, b, xs) == 0);
  last = xs;
  FUZZ_CHECK(dl_segment_unpack_external("external32", s, cut, &last, a + cut) == DL_OK);
  dl_segment_free(&s);
  pos = 0;
  FUZZ_CHECK(dl_unpack_external("external32", a, xs, &pos, origin, 1, t) == DL_OK &&
             pos == xs);
  free(a);
  free(b);
}

/* pack and unpack count = 1 with the data in a buffer of exactly the true
   extent, so any stray access is a memory error */
static void process_small(const dl_type *t, dl_count size, dl_aint tlb,
                          dl_aint text, bool exact)
{
  char *mem = malloc((size_t)text + 1), *out = malloc((size_t)size + 1);
  FUZZ_CHECK(mem && out);
  memset(mem, 0x3c, (size_t)text + 1);
  /* the origin may lie far outside the allocation: address arithmetic */
  char *origin = (char *)((uintptr_t)mem - (uintptr_t)tlb);
  size_t pos = 0;
  FUZZ_CHECK(dl_pack(origin, 1, t, out, (size_t)size, &pos) == DL_OK);
  FUZZ_CHECK(pos == (size_t)size);
  pos = 0;
  FUZZ_CHECK(dl_unpack(out, (size_t)size, &pos, origin, 1, t) == DL_OK);
  external_small(t, origin);
  dl_segment *s;
  FUZZ_CHECK(dl_segment_create_bounded(origin, 1, t, tlb, tlb + text, &s) == DL_OK);
  size_t last = (size_t)size;
  FUZZ_CHECK(dl_segment_pack(s, 0, &last, out) == DL_OK && last == (size_t)size);
  /* where the true bounds are exactly the data's, one byte less is
     refused before anything moves */
  dl_segment_free(&s);
  if (exact && size > 0) {
    FUZZ_CHECK(dl_segment_create_bounded(origin, 1, t, tlb + 1, tlb + text, &s) == DL_OK);
    last = (size_t)size;
    FUZZ_CHECK(dl_segment_unpack(s, 0, &last, out) == DL_ERR_BOUNDS);
    dl_segment_free(&s);
  }
  free(mem);
  free(out);
}

void fuzz_check_type(const dl_type *t, bool exact)
{
  dl_count size;
  dl_aint lb, ext, tlb, text;
  FUZZ_CHECK(dl_type_size(t, &size) == DL_OK && size >= 0);
  FUZZ_CHECK(dl_type_extent(t, &lb, &ext) == DL_OK);
  FUZZ_CHECK(dl_type_true_extent(t, &tlb, &text) == DL_OK && text >= 0);
  FUZZ_CHECK(dl_type_print(fuzz_devnull(), t) == DL_OK);
  roundtrip(t);
  if (size <= FUZZ_MAX_BYTES && text <= FUZZ_MAX_BYTES)
    process_small(t, size, tlb, text, exact);
}
