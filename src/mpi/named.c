/* Predefined MPI datatypes as dataloop types: the basic ones map to
 * dataloop's builtins of the same size and alignment; the pair types of
 * MPI_MINLOC/MAXLOC are structs laid out as C lays them out, built once at
 * first use. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "named.h"

struct map {
  MPI_Datatype mpi;
  int dl;              /* a dl_builtin_t, or MORE + a dl_builtin_more_t */
};
#define MORE DL_NUM_BUILTINS

/* native packing needs only size and alignment; types without a builtin of
   their own use one of the same size and alignment whose external32 form
   is theirs too (MPI_WCHAR and the binary128 Fortran types have their own,
   which only external32 tells apart) */
static const struct map basics[] = {
  {MPI_CHAR, DL_CHAR}, {MPI_SIGNED_CHAR, DL_INT8}, {MPI_UNSIGNED_CHAR, DL_UINT8},
  {MPI_BYTE, DL_BYTE}, {MPI_WCHAR, MORE + DL_WCHAR}, {MPI_SHORT, DL_INT16},
  {MPI_UNSIGNED_SHORT, DL_UINT16}, {MPI_INT, DL_INT32}, {MPI_UNSIGNED, DL_UINT32},
  {MPI_LONG, DL_LONG}, {MPI_UNSIGNED_LONG, DL_UNSIGNED_LONG},
  {MPI_LONG_LONG_INT, DL_INT64}, {MPI_UNSIGNED_LONG_LONG, DL_UINT64},
  {MPI_FLOAT, DL_FLOAT}, {MPI_DOUBLE, DL_DOUBLE}, {MPI_LONG_DOUBLE, DL_LONG_DOUBLE},
  {MPI_PACKED, DL_PACKED}, {MPI_C_BOOL, DL_C_BOOL}, {MPI_INT8_T, DL_INT8},
  {MPI_INT16_T, DL_INT16}, {MPI_INT32_T, DL_INT32}, {MPI_INT64_T, DL_INT64},
  {MPI_UINT8_T, DL_UINT8}, {MPI_UINT16_T, DL_UINT16}, {MPI_UINT32_T, DL_UINT32},
  {MPI_UINT64_T, DL_UINT64}, {MPI_C_FLOAT_COMPLEX, DL_C_FLOAT_COMPLEX},
  {MPI_C_DOUBLE_COMPLEX, DL_C_DOUBLE_COMPLEX},
  {MPI_C_LONG_DOUBLE_COMPLEX, DL_C_LONG_DOUBLE_COMPLEX}, {MPI_AINT, DL_INT64},
  {MPI_OFFSET, DL_INT64}, {MPI_COUNT, DL_INT64}, {MPI_CXX_BOOL, DL_C_BOOL},
  {MPI_CXX_FLOAT_COMPLEX, DL_C_FLOAT_COMPLEX},
  {MPI_CXX_DOUBLE_COMPLEX, DL_C_DOUBLE_COMPLEX},
  {MPI_CXX_LONG_DOUBLE_COMPLEX, DL_C_LONG_DOUBLE_COMPLEX},
  /* Fortran */
  {MPI_CHARACTER, DL_CHAR}, {MPI_LOGICAL, DL_INT32}, {MPI_INTEGER, DL_INT32},
  {MPI_REAL, DL_FLOAT}, {MPI_DOUBLE_PRECISION, DL_DOUBLE},
  {MPI_COMPLEX, DL_C_FLOAT_COMPLEX}, {MPI_DOUBLE_COMPLEX, DL_C_DOUBLE_COMPLEX},
  {MPI_INTEGER1, DL_INT8}, {MPI_INTEGER2, DL_INT16}, {MPI_INTEGER4, DL_INT32},
  {MPI_INTEGER8, DL_INT64}, {MPI_REAL4, DL_FLOAT}, {MPI_REAL8, DL_DOUBLE},
  {MPI_REAL16, MORE + DL_FLOAT128}, {MPI_COMPLEX8, DL_C_FLOAT_COMPLEX},
  {MPI_COMPLEX16, DL_C_DOUBLE_COMPLEX}, {MPI_COMPLEX32, MORE + DL_C_FLOAT128_COMPLEX},
};

enum { FLOAT_INT, DOUBLE_INT, LONG_INT, SHORT_INT, TWO_INT, LONG_DOUBLE_INT,
       TWO_INTEGER, TWO_REAL, TWO_DOUBLE_PRECISION, NPAIRS };

static dl_type *pairs[NPAIRS];

#define PAIR(i, T)                                                          \
  do {                                                                      \
    struct s { T v; int i; };                                               \
    dl_count bl[2] = {1, 1};                                                \
    dl_aint d[2] = {offsetof(struct s, v), offsetof(struct s, i)};          \
    dl_type *ty[2] = {first, dl_builtin(DL_INT32)};                         \
    if (dl_type_struct(2, bl, d, ty, &pairs[i]) == DL_OK)                   \
      dl_type_commit(pairs[i]);                                             \
  } while (0)

static void make_pairs(void)
{
  dl_type *first;
  first = dl_builtin(DL_FLOAT);
  PAIR(FLOAT_INT, float);
  first = dl_builtin(DL_DOUBLE);
  PAIR(DOUBLE_INT, double);
  first = dl_builtin(DL_LONG);
  PAIR(LONG_INT, long);
  first = dl_builtin(DL_INT16);
  PAIR(SHORT_INT, short);
  first = dl_builtin(DL_INT32);
  PAIR(TWO_INT, int);
  first = dl_builtin(DL_LONG_DOUBLE);
  PAIR(LONG_DOUBLE_INT, long double);
  static const dl_builtin_t twos[3] = {DL_INT32, DL_FLOAT, DL_DOUBLE};
  for (int k = 0; k < 3; k++)
    if (dl_type_contiguous(2, dl_builtin(twos[k]), &pairs[TWO_INTEGER + k]) == DL_OK)
      dl_type_commit(pairs[TWO_INTEGER + k]);
}

/* handle -> type code, built once: a lookup is one hash and a probe or two
   rather than a scan of the table per call (the typerep backend asks for
   every predefined type it packs). Codes, not types, so that the pairs
   freed at finalize are not reached through a stale slot. */
enum { SLOTS = 256, PAIR = 2 * MORE };   /* codes: builtin, MORE + more, PAIR + pair */
static struct slot { MPI_Datatype mpi; int code1; } slots[SLOTS];   /* code1 0: empty */
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;

static size_t slot_of(MPI_Datatype dt)
{
  uint64_t h = (uint64_t)(uintptr_t)dt;   /* an int on MPICH, a pointer elsewhere */
  h = (h ^ (h >> 29)) * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 56);
}

static void put(MPI_Datatype dt, int code)
{
  if (dt == MPI_DATATYPE_NULL)          /* what an unsupported type is defined as */
    return;
  size_t i = slot_of(dt);
  while (slots[i].code1 && slots[i].mpi != dt)
    i = (i + 1) % SLOTS;
  if (!slots[i].code1)                   /* a handle named twice keeps its first type */
    slots[i] = (struct slot){dt, code + 1};
}

static void make_slots(void)
{
  static const MPI_Datatype pair_ids[NPAIRS] = {
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_2INT,
    MPI_LONG_DOUBLE_INT, MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION};
  make_pairs();
  for (size_t i = 0; i < sizeof(basics) / sizeof(basics[0]); i++)
    put(basics[i].mpi, basics[i].dl);
  for (int i = 0; i < NPAIRS; i++)
    put(pair_ids[i], PAIR + i);
}

dl_type *dli_named_type(MPI_Datatype dt)
{
  if (dt == MPI_DATATYPE_NULL)
    return NULL;
  pthread_once(&slots_once, make_slots);
  size_t i = slot_of(dt);
  while (slots[i].code1 && slots[i].mpi != dt)
    i = (i + 1) % SLOTS;
  int c = slots[i].code1 - 1;
  return c < 0       ? NULL
         : c < MORE  ? dl_builtin((dl_builtin_t)c)
         : c < PAIR  ? dl_builtin_more((dl_builtin_more_t)(c - MORE))
                     : pairs[c - PAIR];
}

void dli_named_free(void)
{
  for (int i = 0; i < NPAIRS; i++)
    if (pairs[i])
      dl_type_free(&pairs[i]);
}
