/* Shared by the fuzz targets: the libFuzzer entry points (also built with
 * gcc into plain replay programs for make check, see replay.c) and small
 * helpers. A target aborts on any wrong answer, so a wrong result is a
 * finding like a crash is. */
#ifndef TEST_FUZZ_H
#define TEST_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "dataloop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_CHECK(cond)                                                    \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                              \
    }                                                                       \
  } while (0)

/* the one stream every target prints to */
FILE *fuzz_devnull(void);

/* What every accepted type must satisfy: its queries answer, it prints,
   it survives a serialization round trip byte for byte, and, when it is
   small, it packs and unpacks count = 1 inside a buffer of exactly its
   true extent, one-shot and through a bounded segment. `exact` says the
   true bounds are known to be exactly the data's (as for every type a
   constructor builds; a serialized type may declare wider ones). */
void fuzz_check_type(const dl_type *t, bool exact);

/* types with more data or extent than this are not processed */
#define FUZZ_MAX_BYTES (1 << 16)

#endif
