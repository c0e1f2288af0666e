/* The predefined types: static, immutable, always committed. */
#include <stdalign.h>
#include "loop.h"

/* id, C type */
#define BUILTINS(X)                                                        \
  X(DL_BYTE, char) X(DL_CHAR, char) X(DL_INT8, int8_t) X(DL_UINT8, uint8_t) \
  X(DL_INT16, int16_t) X(DL_UINT16, uint16_t) X(DL_INT32, int32_t)         \
  X(DL_UINT32, uint32_t) X(DL_INT64, int64_t) X(DL_UINT64, uint64_t)       \
  X(DL_FLOAT, float) X(DL_DOUBLE, double) X(DL_LONG_DOUBLE, long double)   \
  X(DL_C_FLOAT_COMPLEX, float _Complex)                                    \
  X(DL_C_DOUBLE_COMPLEX, double _Complex) X(DL_PACKED, char)               \
  X(DL_LONG, long) X(DL_UNSIGNED_LONG, unsigned long) X(DL_C_BOOL, _Bool)  \
  X(DL_C_LONG_DOUBLE_COMPLEX, long double _Complex)

#define LOOP(id, ctype)                                                     \
  [id] = {.kind = DLI_CONTIG, .leaf = 1, .unit = sizeof(ctype), .depth = 1, \
          .count = sizeof(ctype), .size = sizeof(ctype), .tlb = 0,          \
          .tub = sizeof(ctype)},
static const dli_loop loops[DL_NUM_BUILTINS] = {BUILTINS(LOOP)};

#define TYPE(id, ctype)                                                     \
  [id] = {.magic = DLI_TYPE_MAGIC, .builtin = 1, .committed = 1,            \
          .basic = (id), .loop = &loops[id],                                \
          .b = {.size = sizeof(ctype), .lb = 0, .ub = sizeof(ctype),        \
                .true_lb = 0, .true_ub = sizeof(ctype),                     \
                .align = alignof(ctype)}},
static const dl_type types[DL_NUM_BUILTINS] = {BUILTINS(TYPE)};

dl_type *dl_builtin(dl_builtin_t which)
{
  if ((int)which < 0 || (int)which >= DL_NUM_BUILTINS)
    return NULL;
  /* never written: reference counting skips builtins */
  return (dl_type *)&types[which];
}
