/* The predefined types: static, immutable, always committed. Each is one
 * leaf of its size, and the signature of one element of its basic type. */
#include <stdalign.h>
#include <wchar.h>
#include "build.h"

/* a 16-byte IEEE binary128 (Fortran REAL*16 with gfortran) and its complex
   pair; only size and alignment matter natively */
typedef struct { alignas(16) unsigned char b[16]; } float128_bytes;
typedef struct { alignas(16) unsigned char b[32]; } float128_pair;

/* id, C type, external32 bytes, conversion, lanes (MPI-4.0, Table 19.1:
   long and unsigned long are 4 bytes, wchar_t 2, long double binary128, the
   complex types pairs of reals) */
#define BASICS(X)                                                             \
  X(DL_BYTE, char, 1, DLI_X_COPY, 1)                                          \
  X(DL_CHAR, char, 1, DLI_X_COPY, 1)                                          \
  X(DL_INT8, int8_t, 1, DLI_X_COPY, 1)                                        \
  X(DL_UINT8, uint8_t, 1, DLI_X_COPY, 1)                                      \
  X(DL_INT16, int16_t, 2, DLI_X_SWAP, 1)                                      \
  X(DL_UINT16, uint16_t, 2, DLI_X_SWAP, 1)                                    \
  X(DL_INT32, int32_t, 4, DLI_X_SWAP, 1)                                      \
  X(DL_UINT32, uint32_t, 4, DLI_X_SWAP, 1)                                    \
  X(DL_INT64, int64_t, 8, DLI_X_SWAP, 1)                                      \
  X(DL_UINT64, uint64_t, 8, DLI_X_SWAP, 1)                                    \
  X(DL_FLOAT, float, 4, DLI_X_SWAP, 1)                                        \
  X(DL_DOUBLE, double, 8, DLI_X_SWAP, 1)                                      \
  X(DL_LONG_DOUBLE, long double, 16, DLI_X_LDOUBLE, 1)                        \
  X(DL_C_FLOAT_COMPLEX, float _Complex, 8, DLI_X_SWAP, 2)                     \
  X(DL_C_DOUBLE_COMPLEX, double _Complex, 16, DLI_X_SWAP, 2)                  \
  X(DL_PACKED, char, 1, DLI_X_COPY, 1)                                        \
  X(DL_LONG, long, 4, DLI_X_LONG, 1)                                          \
  X(DL_UNSIGNED_LONG, unsigned long, 4, DLI_X_ULONG, 1)                       \
  X(DL_C_BOOL, _Bool, 1, DLI_X_COPY, 1)                                       \
  X(DL_C_LONG_DOUBLE_COMPLEX, long double _Complex, 32, DLI_X_LDOUBLE, 2)     \
  X(DLI_WCHAR, wchar_t, 2, DLI_X_WCHAR, 1)                                    \
  X(DLI_FLOAT128, float128_bytes, 16, DLI_X_SWAP, 1)                          \
  X(DLI_C_FLOAT128_COMPLEX, float128_pair, 32, DLI_X_SWAP, 2)

_Static_assert(sizeof(long) == 8 && sizeof(wchar_t) == 4 &&
               sizeof(long double) == 16,
               "external32 conversions assume an LP64 x86-64 ABI");

#define INFO(id, ctype, xsz, conv, lanes)                                     \
  [id] = {sizeof(ctype), (xsz), (conv), (lanes)},
const dli_basic dli_basics[DLI_NUM_BASICS] = {BASICS(INFO)};

#define SIG(id, ctype, xsz, conv, lanes)                                      \
  [id] = {.basic = (id), .resize = sizeof(ctype) != (xsz),                   \
          .same = (conv) == DLI_X_COPY, .depth = 1,                           \
          .reps = 1,                                                          \
          .nsize = sizeof(ctype), .xsize = (xsz)},
static const dli_sig sigs[DLI_NUM_BASICS] = {BASICS(SIG)};

#define LOOP(id, ctype, xsz, conv, lanes)                                     \
  [id] = {.kind = DLI_CONTIG, .leaf = 1, .unit = sizeof(ctype), .depth = 1,   \
          .count = sizeof(ctype), .size = sizeof(ctype), .tlb = 0,            \
          .tub = sizeof(ctype)},
static const dli_loop loops[DLI_NUM_BASICS] = {BASICS(LOOP)};

#define TYPE(id, ctype, xsz, conv, lanes)                                     \
  [id] = {.magic = DLI_TYPE_MAGIC, .builtin = 1, .committed = 1,              \
          .basic = (id), .loop = &loops[id], .sig = &sigs[id],                \
          .b = {.size = sizeof(ctype), .lb = 0, .ub = sizeof(ctype),          \
                .true_lb = 0, .true_ub = sizeof(ctype),                       \
                .align = alignof(ctype)}},
static const dl_type types[DLI_NUM_BASICS] = {BASICS(TYPE)};

dl_type *dl_builtin(dl_builtin_t which)
{
  if ((int)which < 0 || (int)which >= DL_NUM_BUILTINS)
    return NULL;
  /* never written: reference counting skips builtins */
  return (dl_type *)&types[which];
}

dl_type *dl_builtin_more(dl_builtin_more_t which)
{
  if ((int)which < 0 || DL_NUM_BUILTINS + (int)which >= DLI_NUM_BASICS)
    return NULL;
  return (dl_type *)&types[DL_NUM_BUILTINS + which];
}

const dl_type *dli_basic_type(int basic)
{
  return basic >= 0 && basic < DLI_NUM_BASICS ? &types[basic] : NULL;
}

const dli_sig *dli_sig_basic(int basic)
{
  return &sigs[basic];
}
