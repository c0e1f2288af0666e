/* Fuzz target: dl_type_deserialize on arbitrary bytes. Whatever it accepts
 * must be a sound type (fuzz_check_type) and canonical: serializing it
 * again gives exactly the input. */
#include <string.h>
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  dl_type *t = (dl_type *)1;
  int rc = dl_type_deserialize(data, size, &t);
  if (rc != DL_OK) {
    FUZZ_CHECK(rc == DL_ERR_CORRUPT && t == NULL);
    return 0;
  }
  size_t need;
  FUZZ_CHECK(dl_type_serialize(t, NULL, 0, &need) == DL_ERR_TRUNCATE && need == size);
  uint8_t *back = malloc(size);
  FUZZ_CHECK(back && dl_type_serialize(t, back, size, &need) == DL_OK);
  FUZZ_CHECK(memcmp(back, data, size) == 0);
  free(back);
  fuzz_check_type(t, false);
  FUZZ_CHECK(dl_type_free(&t) == DL_OK && t == NULL);
  return 0;
}
