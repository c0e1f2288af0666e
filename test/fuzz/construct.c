/* Fuzz target: the constructors fed arbitrary arguments. The input is a
 * program of constructor calls over eight type slots; numbers are coded so
 * that hostile values (negative, huge, near 2^31, 2^32, 2^62, 2^63) are one
 * byte away. Every type a call returns is committed, queried, printed,
 * serialized and, when small, packed and unpacked inside a buffer of
 * exactly its true extent (fuzz_check_type). A refused call must leave its
 * output alone and return a status code, never crash. */
#include <limits.h>
#include <string.h>
#include "fuzz.h"

#define SLOTS 8
#define MAXN 32              /* entries of the arrays a call may pass */
#define MAXOPS 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  /* a smaller per-type limit keeps every run small; the mechanism is the
     library's, only the number is the fuzzer's */
  setenv("DL_MAX_TYPE_BYTES", "16777216", 0);
  return 0;
}

struct in {
  const uint8_t *p;
  size_t n;
};

static uint8_t u8(struct in *in)
{
  if (in->n == 0)
    return 0;
  in->n--;
  return *in->p++;
}

static const int64_t interesting[32] = {
  0, 1, -1, 2, 3, 4, 7, 8, 16, 64, 255, 256, 4096, 65536,
  INT32_MAX, (int64_t)INT32_MAX + 1, UINT32_MAX, (int64_t)1 << 32,
  ((int64_t)1 << 32) + 1, (int64_t)1 << 40, (int64_t)1 << 62,
  ((int64_t)1 << 62) + 1, INT64_MAX, INT64_MIN, INT64_MIN + 1,
  -((int64_t)1 << 32), -((int64_t)1 << 62), -4096, -8, -2, INT64_MAX / 2,
  INT64_MAX / 3};

/* 0x00-0xbf: -16..175; 0xc0-0xdf: interesting; 0xe0-0xfe: 16 bits signed;
   0xff: 64 bits */
static int64_t num(struct in *in)
{
  uint8_t s = u8(in);
  if (s < 0xc0)
    return (int64_t)s - 16;
  if (s < 0xe0)
    return interesting[s - 0xc0];
  uint64_t v = 0;
  int bytes = s == 0xff ? 8 : 2;
  for (int i = 0; i < bytes; i++)
    v |= (uint64_t)u8(in) << (8 * i);
  return s == 0xff ? (int64_t)v : (int64_t)(int16_t)v;
}

static int inum(struct in *in)
{
  int64_t v = num(in);
  return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

struct prog {
  dl_type *slot[SLOTS];
};

/* an old type: a slot (possibly empty: NULL), a predefined type, or NULL */
static dl_type *pick(struct prog *g, struct in *in)
{
  uint8_t b = u8(in);
  if (b < SLOTS)
    return g->slot[b];
  if (b == 0xff)
    return NULL;
  return dl_builtin((dl_builtin_t)((b - SLOTS) % DL_NUM_BUILTINS));
}

/* a list length: negative ones pass as they are (to be refused), others
   as many entries as the arrays hold */
static dl_count length(struct in *in)
{
  dl_count n = num(in);
  return n <= MAXN ? n : n % (MAXN + 1);
}

static void fill(struct in *in, int64_t *v, dl_count n)
{
  for (dl_count i = 0; i < n && i < MAXN; i++)
    v[i] = num(in);
}

/* one call; *out is a fresh type or stays NULL */
static int call(struct prog *g, struct in *in, int op, dl_type **out)
{
  int64_t a[MAXN] = {0}, b[MAXN] = {0}, c[MAXN] = {0};
  int ia[4] = {0}, ib[4] = {0}, ic[4] = {0};
  dl_type *ts[MAXN] = {0};
  dl_count n, x, y;
  dl_type *old;
  bool nulls = u8(in) == 0xee;        /* NULL arrays, to be refused */
  switch (op) {
  case 0:
    n = num(in);
    return dl_type_contiguous(n, pick(g, in), out);
  case 1:
  case 2:
    n = num(in);
    x = num(in);
    y = num(in);
    old = pick(g, in);
    return op == 1 ? dl_type_vector(n, x, y, old, out)
                   : dl_type_hvector(n, x, y, old, out);
  case 3:
  case 4:
    n = length(in);
    fill(in, a, n);
    fill(in, b, n);
    old = pick(g, in);
    return op == 3 ? dl_type_indexed(n, nulls ? NULL : a, b, old, out)
                   : dl_type_hindexed(n, a, nulls ? NULL : b, old, out);
  case 5:
  case 6:
    n = length(in);
    x = num(in);
    fill(in, a, n);
    old = pick(g, in);
    return op == 5 ? dl_type_indexed_block(n, x, nulls ? NULL : a, old, out)
                   : dl_type_hindexed_block(n, x, nulls ? NULL : a, old, out);
  case 7:
    n = length(in);
    fill(in, a, n);
    fill(in, b, n);
    for (dl_count i = 0; i < n; i++)
      ts[i] = pick(g, in);
    return dl_type_struct(n, a, b, nulls ? NULL : ts, out);
  case 8:
    old = pick(g, in);
    x = num(in);
    y = num(in);
    return dl_type_resized(old, x, y, out);
  case 9: {
    int nd = inum(in);
    nd = nd > 4 ? nd % 5 : nd;
    fill(in, a, 4);
    fill(in, b, 4);
    fill(in, c, 4);
    int order = inum(in);
    return dl_type_subarray(nd, nulls ? NULL : a, b, c, order, pick(g, in), out);
  }
  case 10: {
    int size = inum(in), rank = inum(in), nd = inum(in);
    nd = nd > 4 ? nd % 5 : nd;
    fill(in, a, 4);
    for (int i = 0; i < 4; i++) {
      ia[i] = inum(in);
      ib[i] = inum(in);
      ic[i] = inum(in);
    }
    int order = inum(in);
    return dl_type_darray(size, rank, nd, a, ia, ib, nulls ? NULL : ic, order,
                          pick(g, in), out);
  }
  case 11:
    return dl_type_dup(pick(g, in), out);
  default:
    return DL_OK;
  }
}

static void check_status(int rc)
{
  FUZZ_CHECK(rc == DL_OK || rc == DL_ERR_ARG || rc == DL_ERR_OVERFLOW ||
             rc == DL_ERR_NOMEM || rc == DL_ERR_UNSUPPORTED);
}

/* processing calls with hostile counts on a committed type: refused or
   sized, never run */
static void hostile_counts(const dl_type *t, struct in *in)
{
  dl_count count = num(in);
  size_t size;
  int rc = dl_pack_size(count, t, &size);
  FUZZ_CHECK(rc == DL_OK || rc == DL_ERR_ARG || rc == DL_ERR_OVERFLOW);
  FUZZ_CHECK(rc != DL_ERR_ARG || count < 0);
  dl_segment *s = (dl_segment *)1;
  int rs = dl_segment_create(NULL, count, t, &s);
  FUZZ_CHECK(rs == rc || (rc == DL_OK && rs == DL_ERR_OVERFLOW));
  FUZZ_CHECK((rs == DL_OK) == (s != NULL));
  if (rs == DL_OK) {
    FUZZ_CHECK(dl_segment_size(s) == size);
    dl_segment_free(&s);
  }
}

/* free a slot's type; a predefined type or NULL is refused, unchanged */
static void free_one(struct prog *g, struct in *in)
{
  uint8_t b = u8(in);
  if (b < SLOTS) {
    if (g->slot[b])
      FUZZ_CHECK(dl_type_free(&g->slot[b]) == DL_OK && g->slot[b] == NULL);
    return;
  }
  dl_type *p = b == 0xff ? NULL : dl_builtin((dl_builtin_t)(b % DL_NUM_BUILTINS));
  dl_type *keep = p;
  FUZZ_CHECK(dl_type_free(&p) == DL_ERR_ARG && p == keep);
  FUZZ_CHECK(dl_type_free(NULL) == DL_ERR_ARG);
}

/* a fresh type is refused by everything that needs a committed one */
static void uncommitted(struct prog *g, struct in *in)
{
  dl_type *old = pick(g, in), *t;
  dl_aint lb = num(in), ext = num(in);
  int rc = dl_type_resized(old, lb, ext, &t);
  check_status(rc);
  if (rc != DL_OK)
    return;
  char buf[16];
  size_t pos = 0, need;
  dl_segment *s;
  FUZZ_CHECK(dl_pack(buf, 1, t, buf, sizeof(buf), &pos) == DL_ERR_NOT_COMMITTED);
  FUZZ_CHECK(dl_unpack(buf, sizeof(buf), &pos, buf, 1, t) == DL_ERR_NOT_COMMITTED);
  FUZZ_CHECK(dl_segment_create(buf, 1, t, &s) == DL_ERR_NOT_COMMITTED && !s);
  FUZZ_CHECK(dl_type_serialize(t, NULL, 0, &need) == DL_ERR_NOT_COMMITTED);
  FUZZ_CHECK(dl_type_free(&t) == DL_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct in in = {data, size};
  struct prog g = {{0}};
  for (int ops = 0; ops < MAXOPS && in.n > 0; ops++) {
    uint8_t op = u8(&in), to = u8(&in) % SLOTS;
    if (op % 16 == 12) {
      free_one(&g, &in);
      continue;
    }
    if (op % 16 == 13) {
      uncommitted(&g, &in);
      continue;
    }
    dl_type *t = NULL;
    int rc = call(&g, &in, op % 16, &t);
    check_status(rc);
    if (rc != DL_OK) {
      FUZZ_CHECK(t == NULL);
      continue;
    }
    if (!t)
      continue;
    FUZZ_CHECK(dl_type_commit(t) == DL_OK && dl_type_commit(t) == DL_OK);
    fuzz_check_type(t, true);
    hostile_counts(t, &in);
    if (g.slot[to])
      FUZZ_CHECK(dl_type_free(&g.slot[to]) == DL_OK);
    g.slot[to] = t;
  }
  for (int i = 0; i < SLOTS; i++)
    if (g.slot[i])
      FUZZ_CHECK(dl_type_free(&g.slot[i]) == DL_OK);
  return 0;
}
