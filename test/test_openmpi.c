/* Open MPI as the oracle of the bridge built for it
 * (libdataloop-mpi-openmpi): types built with Open MPI's constructors and
 * decoded by dl_type_from_mpi have the size and bounds Open MPI reports,
 * and dataloop packs, unpacks and packs to external32 the bytes Open
 * MPI's own calls give, on thousands of random types a run (half of them
 * drawn from the classes where MPI libraries' rules depart: resized and
 * empty members, subarray and darray bounds, negative extents). Inside a
 * program the host's bounds rule; where Open MPI places data elsewhere
 * than the standard (openmpi_recipe.h names each class) dataloop keeps
 * the standard's placement at Open MPI's bounds, is compared with that
 * model instead, and a test per class pins Open MPI's own answer, so that
 * a fixed Open MPI shows up.
 *
 * With the interposer for Open MPI preloaded (test/openmpi.sh), the
 * program's MPI_Pack, MPI_Unpack and external32 calls are the
 * interposer's: each is compared with Open MPI's own (PMPI_), on data
 * and on calls Open MPI refuses (errors_as_openmpi); and its truncated
 * receive writes nothing past the user's data (openmpi_truncation_overrun).
 *
 * A plain single-process program: Open MPI's singleton init. */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dataloop-mpi.h"
#include "buffers.h"
#include "model.h"
#include "mpi_recipe.h"
#include "openmpi_recipe.h"
#include "randtype.h"
#include "runner.h"

#define MPI_OK(call) ck_assert_int_eq((call), MPI_SUCCESS)

static uint64_t seed;
/* whether the interposer for Open MPI is loaded: the program's MPI_Pack
   and friends are then its (compared with Open MPI's PMPI_ ones) */
static bool preloaded;

/* the classes of random type each draw falls in (a recipe's levels) */
enum { C_RESIZED, C_EMPTY_MEMBER, C_SUBARRAY, C_DARRAY, C_NEG_EXTENT, C_STRUCT, C_N };
static const char *const class_names[C_N] = {"resized", "empty member", "subarray",
                                             "darray", "negative extent", "struct"};

static unsigned classes_of(const recipe *rc, const model *m)
{
  unsigned c = 0;
  if (rc->kind == RT_RESIZED)
    c |= 1u << C_RESIZED;
  if (rc->kind == RT_SUBARRAY)
    c |= 1u << C_SUBARRAY;
  if (rc->kind == RT_DARRAY)
    c |= 1u << C_DARRAY;
  if (rc->kind == RT_STRUCT)
    c |= 1u << C_STRUCT;
  if (m && model_extent(m) < 0)
    c |= 1u << C_NEG_EXTENT;
  for (int i = 0; i < rc->nkids; i++) {
    if (rc->kind == RT_STRUCT && rc->bls[i] == 0)
      c |= 1u << C_EMPTY_MEMBER;
    c |= classes_of(rc->kids[i], NULL);
  }
  return c;
}

/* true: also the true bounds (which Open MPI reports wrong where it
   places data wrong) */
static void same_bounds(MPI_Datatype mt, const dl_type *t, bool true_too, const char *desc)
{
  MPI_Count size, lb, ext, tlb, text;
  dl_count s;
  dl_aint a, b, c, d;
  MPI_OK(MPI_Type_size_x(mt, &size));
  MPI_OK(MPI_Type_get_extent_x(mt, &lb, &ext));
  MPI_OK(MPI_Type_get_true_extent_x(mt, &tlb, &text));
  ck_assert_int_eq(dl_type_size(t, &s), DL_OK);
  ck_assert_int_eq(dl_type_extent(t, &a, &b), DL_OK);
  ck_assert_int_eq(dl_type_true_extent(t, &c, &d), DL_OK);
  ck_assert_msg(size == s && lb == a && ext == b,
                "seed %llu: size %lld lb %lld extent %lld, Open MPI %lld %lld %lld: %s",
                (unsigned long long)seed, (long long)s, (long long)a, (long long)b,
                (long long)size, (long long)lb, (long long)ext, desc);
  ck_assert_msg(!true_too || s == 0 || (tlb == c && text == d),
                "seed %llu: true lb %lld extent %lld, Open MPI %lld %lld: %s",
                (unsigned long long)seed, (long long)c, (long long)d, (long long)tlb,
                (long long)text, desc);
}

/* MPI_Pack into two buffers of other contents (a byte Open MPI leaves
   alone differs between them) against dl_pack; where Open MPI places data
   wrong (host_right false), dl_pack against the model */
static void pack_case(const model *m, MPI_Datatype mt, const dl_type *t, int count,
                      bool host_right, rng *r, const char *desc)
{
  mrun *runs;
  size_t nruns;
  ck_assert_int_eq(model_bytemap(m, count, &runs, &nruns), 0);
  size_t size = runs_bytes(runs, nruns), at = (size_t)rng_range(r, 0, 7);
  size_t out = at + size;
  tbuf in;
  tbuf_for(runs, nruns, &in, rng_next(r));
  char *m1 = malloc(out + 1), *m2 = malloc(out + 1), *got = malloc(out + 1);
  for (size_t i = 0; i < out; i++) {
    m1[i] = (char)(i * 131 + 7);
    m2[i] = (char)~m1[i];
    got[i] = m1[i];
  }
  int ps, sps;
  MPI_OK(PMPI_Pack_size(count, mt, MPI_COMM_SELF, &ps));
  MPI_OK(MPI_Pack_size(count, mt, MPI_COMM_SELF, &sps));
  ck_assert_int_eq(sps, ps);
  size_t dps;
  ck_assert_int_eq(dl_pack_size(count, t, &dps), DL_OK);
  ck_assert_msg((size_t)ps == dps, "seed %llu: pack size %zu, Open MPI %d: %s",
                (unsigned long long)seed, dps, ps, desc);
  int p1 = (int)at, p2 = (int)at;
  if (host_right) {
    MPI_OK(PMPI_Pack(in.origin, count, mt, m1, (int)out, &p1, MPI_COMM_SELF));
    MPI_OK(PMPI_Pack(in.origin, count, mt, m2, (int)out, &p2, MPI_COMM_SELF));
  } else {
    model_pack(runs, nruns, in.origin, m1 + at);
    model_pack(runs, nruns, in.origin, m2 + at);
    p1 = p2 = (int)out;
  }
  size_t pos = at;
  ck_assert_int_eq(dl_pack(in.origin, count, t, got, out, &pos), DL_OK);
  ck_assert_msg(p1 == (int)pos && p2 == (int)pos, "seed %llu: position %zu, Open MPI "
                "%d: count %d, %s", (unsigned long long)seed, pos, p1, count, desc);
  ck_assert_msg(memcmp(m1, got, at) == 0, "seed %llu: dl_pack wrote before the "
                "position: %s", (unsigned long long)seed, desc);
  for (size_t i = at; i < out; i++)
    ck_assert_msg(m1[i] == m2[i] && m1[i] == got[i], "seed %llu: packed byte %zu "
                  "differs from Open MPI's%s: count %d, %s", (unsigned long long)seed,
                  i - at, m1[i] == m2[i] ? "" : " (which left it unwritten)", count, desc);
  /* the program's MPI_Pack (the interposer's when preloaded) */
  if (host_right || preloaded) {
    for (size_t i = 0; i < out; i++)
      got[i] = (char)(i * 131 + 7);
    int ps3 = (int)at;
    MPI_OK(MPI_Pack(in.origin, count, mt, got, (int)out, &ps3, MPI_COMM_SELF));
    ck_assert_msg(ps3 == p1 && memcmp(got, m1, out) == 0, "seed %llu: MPI_Pack differs "
                  "from %s: count %d, %s", (unsigned long long)seed,
                  host_right ? "Open MPI's" : "the model", count, desc);
  }
  free(m1);
  free(m2);
  free(got);
  free(runs);
  tbuf_free(&in);
}

/* MPI_Unpack of a random stream into memory of other contents against
   dl_unpack into the same contents: every byte of the memory alike (the
   model's unpack where Open MPI places data wrong) */
static void unpack_case(const model *m, MPI_Datatype mt, const dl_type *t, int count,
                        bool host_right, rng *r, const char *desc)
{
  mrun *runs;
  size_t nruns;
  ck_assert_int_eq(model_bytemap(m, count, &runs, &nruns), 0);
  size_t size = runs_bytes(runs, nruns), at = (size_t)rng_range(r, 0, 7);
  char *in = malloc(at + size + 1);
  for (size_t i = 0; i < at + size; i++)
    in[i] = (char)rng_next(r);
  uint64_t fill = rng_next(r);
  tbuf want, got;
  tbuf_for(runs, nruns, &want, fill);
  tbuf_for(runs, nruns, &got, fill);
  int p = (int)(at + size);
  if (host_right) {
    p = (int)at;
    MPI_OK(PMPI_Unpack(in, (int)(at + size), &p, want.origin, count, mt, MPI_COMM_SELF));
  } else {
    model_unpack(runs, nruns, want.origin, in + at);
  }
  size_t pos = at;
  ck_assert_int_eq(dl_unpack(in, at + size, &pos, got.origin, count, t), DL_OK);
  ck_assert_msg(p == (int)pos, "seed %llu: unpack position %zu, Open MPI %d: %s",
                (unsigned long long)seed, pos, p, desc);
  for (size_t i = 0; i < want.len; i++)
    ck_assert_msg(want.mem[i] == got.mem[i], "seed %llu: unpacked byte %zu of %zu "
                  "differs from Open MPI's: count %d, %s", (unsigned long long)seed, i,
                  want.len, count, desc);
  if (host_right || preloaded) {   /* the program's MPI_Unpack */
    tbuf sub;
    tbuf_for(runs, nruns, &sub, fill);
    int ps = (int)at;
    MPI_OK(MPI_Unpack(in, (int)(at + size), &ps, sub.origin, count, mt, MPI_COMM_SELF));
    ck_assert_msg(ps == p && memcmp(sub.mem, want.mem, want.len) == 0, "seed %llu: "
                  "MPI_Unpack differs from %s: count %d, %s", (unsigned long long)seed,
                  host_right ? "Open MPI's" : "the model", count, desc);
    tbuf_free(&sub);
  }
  free(in);
  free(runs);
  tbuf_free(&want);
  tbuf_free(&got);
}

/* MPI_Pack_external("external32") against dl_pack_external, and back */
static void external_case(const model *m, MPI_Datatype mt, const dl_type *t, int count,
                          rng *r, const char *desc)
{
  mrun *runs;
  size_t nruns;
  ck_assert_int_eq(model_bytemap(m, count, &runs, &nruns), 0);
  tbuf in;
  tbuf_for(runs, nruns, &in, rng_next(r));
  MPI_Aint esize;
  size_t dsize;
  MPI_OK(PMPI_Pack_external_size("external32", count, mt, &esize));
  ck_assert_int_eq(dl_pack_external_size("external32", count, t, &dsize), DL_OK);
  ck_assert_msg((size_t)esize == dsize, "seed %llu: external32 size %zu, Open MPI "
                "%lld: count %d, %s", (unsigned long long)seed, dsize, (long long)esize,
                count, desc);
  char *want = calloc(dsize + 1, 1), *got = calloc(dsize + 1, 1);
  MPI_Aint p = 0;
  MPI_OK(PMPI_Pack_external("external32", in.origin, count, mt, want, esize, &p));
  size_t pos = 0;
  ck_assert_int_eq(dl_pack_external("external32", in.origin, count, t, got, dsize, &pos),
                   DL_OK);
  ck_assert_msg((size_t)p == pos && memcmp(want, got, dsize) == 0, "seed %llu: "
                "external32 differs from Open MPI's: count %d, %s",
                (unsigned long long)seed, count, desc);
  tbuf back, mback;
  uint64_t fill = rng_next(r);
  tbuf_for(runs, nruns, &back, fill);
  tbuf_for(runs, nruns, &mback, fill);
  p = 0;
  MPI_OK(PMPI_Unpack_external("external32", want, esize, &p, mback.origin, count, mt));
  pos = 0;
  ck_assert_int_eq(dl_unpack_external("external32", want, dsize, &pos, back.origin, count,
                                      t), DL_OK);
  ck_assert_msg(memcmp(back.mem, mback.mem, back.len) == 0, "seed %llu: external32 "
                "unpacked differs from Open MPI's: count %d, %s",
                (unsigned long long)seed, count, desc);
  /* the program's calls (the interposer's when preloaded) */
  MPI_Aint ssize, sp = 0;
  MPI_OK(MPI_Pack_external_size("external32", count, mt, &ssize));
  memset(got, 0, dsize);
  MPI_OK(MPI_Pack_external("external32", in.origin, count, mt, got, esize, &sp));
  ck_assert_msg(ssize == esize && sp == p && memcmp(want, got, dsize) == 0, "seed %llu: "
                "MPI_Pack_external differs from Open MPI's: count %d, %s",
                (unsigned long long)seed, count, desc);
  tbuf_fill(&back, fill);
  sp = 0;
  MPI_OK(MPI_Unpack_external("external32", want, esize, &sp, back.origin, count, mt));
  ck_assert_msg(sp == p && memcmp(back.mem, mback.mem, back.len) == 0, "seed %llu: "
                "MPI_Unpack_external differs from Open MPI's: count %d, %s",
                (unsigned long long)seed, count, desc);
  free(want);
  free(got);
  free(runs);
  tbuf_free(&in);
  tbuf_free(&back);
  tbuf_free(&mback);
}

START_TEST(random_vs_openmpi)
{
  rng r = {seed ^ 0x6f6d7069ull};
  /* Valgrind: a fifth (memcheck proves the memory rules on fewer; Open
     MPI's calls run slowly under it) */
  int n = test_scaled(3000) / (UNDER_VALGRIND ? 5 : 1);
  long classes[C_N] = {0}, devs[ODEV_NCLASSES] = {0}, refused = 0, with_host = 0;
  for (int it = 0; it < n; it++) {
    rtype rt;
    int depth = (int)rng_range(&r, 1, 5);
    ck_assert_int_eq(it % 2 ? rtype_gen_deviant(&r, depth, NULL, 0, &rt)
                            : rtype_gen(&r, depth, &rt, NULL), 0);
    MPI_Datatype mt;
    model *host;
    if (recipe_host(rt.rc, &mt, &host) != MPI_SUCCESS) {
      if (refused++ < 5)
        fprintf(stderr, "refused by Open MPI: %s\n", rt.desc);
      model_free(host);
      rtype_free(&rt);
      continue;
    }
    bool derived = rt.rc->kind != RT_BUILTIN;
    if (derived)
      MPI_OK(MPI_Type_commit(&mt));
    unsigned cl = classes_of(rt.rc, host), dev = recipe_openmpi_deviates(rt.rc);
    for (int c = 0; c < C_N; c++)
      classes[c] += (cl >> c) & 1;
    for (int c = 0; c < ODEV_NCLASSES; c++)
      devs[c] += (dev >> c) & 1;
    with_host += dev == 0;
    dl_type *t;
    ck_assert_int_eq(dl_type_from_mpi(mt, &t), DL_OK);
    same_bounds(mt, t, dev == 0, rt.desc);
    int count = (int)rng_range(&r, 0, 3);
    pack_case(host, mt, t, count, dev == 0, &r, rt.desc);
    unpack_case(host, mt, t, count, dev == 0, &r, rt.desc);
    dl_count size;
    dl_type_size(t, &size);
    if (dev == 0 && size > 0 && !recipe_has_long_double(rt.rc))
      external_case(host, mt, t, count, &r, rt.desc);
    model_free(host);
    if (derived)
      MPI_OK(MPI_Type_free(&mt));
    rtype_free(&rt);
  }
  fprintf(stderr, "random_vs_openmpi: %d types, %ld refused by Open MPI, %ld compared "
          "with Open MPI, the others with the model; classes:", n, refused, with_host);
  for (int c = 0; c < C_N; c++)
    fprintf(stderr, " %s %ld;", class_names[c], classes[c]);
  fprintf(stderr, " Open MPI's departures:");
  for (int c = 0; c < ODEV_NCLASSES; c++)
    fprintf(stderr, " %s %ld;", odev_names[c], devs[c]);
  fputc('\n', stderr);
  if (n >= 1000) {
    ck_assert_msg(with_host * 10 >= n * 8, "%ld of %d types compared with Open MPI",
                  with_host, n);
    for (int c = 0; c < C_N; c++)
      ck_assert_msg(classes[c] * 100 >= n, "class \"%s\" in %ld of %d types",
                    class_names[c], classes[c], n);
  }
}
END_TEST

/* the bytes Open MPI's MPI_Pack and dl_pack (of the bridge's decoding)
   give for count copies of mt, from memory whose every byte holds its offset from
   the buffer given (-200 to 199) */
static void pack_both(MPI_Datatype mt, int count, signed char *host, signed char *dl,
                      int *n)
{
  signed char mem[400];
  for (int i = 0; i < 400; i++)
    mem[i] = (signed char)(i - 200);
  int pos = 0;
  MPI_OK(PMPI_Pack(mem + 200, count, mt, host, 64, &pos, MPI_COMM_SELF));
  dl_type *t;
  ck_assert_int_eq(dl_type_from_mpi(mt, &t), DL_OK);
  size_t p = 0;
  ck_assert_int_eq(dl_pack(mem + 200, count, t, dl, 64, &p), DL_OK);
  ck_assert_int_eq((int)p, pos);
  *n = pos;
  if (preloaded) {   /* the interposer's MPI_Pack: dataloop's bytes */
    signed char sub[64];
    pos = 0;
    MPI_OK(MPI_Pack(mem + 200, count, mt, sub, 64, &pos, MPI_COMM_SELF));
    ck_assert(pos == *n && memcmp(sub, dl, (size_t)pos) == 0);
  }
}

/* ODEV_STRIDE_MINUS_ONE: a vector of stride -1 byte is laid out as
   contiguous bytes (Open MPI's opal_datatype_add reads an extent of -1
   as "the old type's own"): bounds 0 and 4, bytes 0 1 2 3 in that order,
   where the standard has lb -3, extent 4 and bytes 0 -1 -2 -3. The
   bridge keeps Open MPI's bounds and the standard's bytes. */
START_TEST(openmpi_stride_minus_one)
{
  MPI_Datatype v;
  MPI_OK(MPI_Type_vector(4, 1, -1, MPI_BYTE, &v));
  MPI_OK(MPI_Type_commit(&v));
  MPI_Aint lb, ext, tlb, text;
  MPI_OK(MPI_Type_get_extent(v, &lb, &ext));
  MPI_OK(MPI_Type_get_true_extent(v, &tlb, &text));
  signed char host[64], dl[64];
  int n;
  pack_both(v, 1, host, dl, &n);
  ck_assert_msg(lb == 0 && ext == 4 && tlb == 0 && text == 4 && n == 4 && host[0] == 0 &&
                host[1] == 1 && host[2] == 2 && host[3] == 3,
                "Open MPI lays out a stride of -1 as the standard does now: drop "
                "ODEV_STRIDE_MINUS_ONE (openmpi_recipe.h)");
  ck_assert(dl[0] == 0 && dl[1] == -1 && dl[2] == -2 && dl[3] == -3);
  MPI_OK(MPI_Type_free(&v));
}
END_TEST

/* ODEV_EMPTY_AFTER_DATA: {2 chars at 0, an empty type at 40} has extent 40
   in Open MPI (as in the standard), but two copies are packed back to
   back (bytes 0 1 2 3, not 0 1 40 41); with the empty member first, Open
   MPI packs them right */
START_TEST(openmpi_empty_member_after_data)
{
  MPI_Datatype z, s, f;
  MPI_OK(MPI_Type_contiguous(0, MPI_INT, &z));
  MPI_OK(MPI_Type_create_struct(2, (int[]){2, 1}, (MPI_Aint[]){0, 40},
                                (MPI_Datatype[]){MPI_CHAR, z}, &s));
  MPI_OK(MPI_Type_create_struct(2, (int[]){1, 2}, (MPI_Aint[]){40, 0},
                                (MPI_Datatype[]){z, MPI_CHAR}, &f));
  MPI_OK(MPI_Type_commit(&s));
  MPI_OK(MPI_Type_commit(&f));
  MPI_Aint lb, ext;
  MPI_OK(MPI_Type_get_extent(s, &lb, &ext));
  ck_assert(lb == 0 && ext == 40);
  signed char host[64], dl[64];
  int n;
  pack_both(s, 2, host, dl, &n);
  ck_assert_int_eq(n, 4);
  ck_assert_msg(host[2] == 2 && host[3] == 3, "Open MPI packs a struct with an empty "
                "member after its data as the standard does now: drop "
                "ODEV_EMPTY_AFTER_DATA (openmpi_recipe.h)");
  ck_assert(dl[0] == 0 && dl[1] == 1 && dl[2] == 40 && dl[3] == 41);
  pack_both(f, 2, host, dl, &n);
  ck_assert(n == 4 && memcmp(host, dl, 4) == 0 && host[2] == 40);
  MPI_OK(MPI_Type_free(&s));
  MPI_OK(MPI_Type_free(&f));
  MPI_OK(MPI_Type_free(&z));
}
END_TEST

/* the class of an MPI return code */
static int cls(int rc)
{
  int c = rc;
  MPI_Error_class(rc, &c);
  return c;
}

/* A call the host refuses, made through the program's name and through
   Open MPI's own: the same class, position and bytes either way (Open
   MPI: MPI_ERR_TRUNCATE with nothing moved and the position as it was,
   MPI_ERR_TYPE for an uncommitted type, its own judgement of bad counts
   and positions) */
enum { E_PACK, E_UNPACK, E_EXT_PACK, E_EXT_UNPACK };
static void same_error(int call, const void *in, int count, MPI_Datatype dt, int size,
                       int position, const char *what)
{
  char a[128], b[128];
  int32_t ia[32], ib[32];
  memset(a, 5, sizeof a);
  memset(b, 5, sizeof b);
  for (int i = 0; i < 32; i++)
    ia[i] = ib[i] = -i;
  int pa = position, pb = position, ra = 0, rb = 0;
  MPI_Aint xa = position, xb = position;
  switch (call) {
  case E_PACK:
    ra = MPI_Pack(in, count, dt, a, size, &pa, MPI_COMM_SELF);
    rb = PMPI_Pack(in, count, dt, b, size, &pb, MPI_COMM_SELF);
    break;
  case E_UNPACK:
    ra = MPI_Unpack(in, size, &pa, ia, count, dt, MPI_COMM_SELF);
    rb = PMPI_Unpack(in, size, &pb, ib, count, dt, MPI_COMM_SELF);
    break;
  case E_EXT_PACK:
    ra = MPI_Pack_external("external32", in, count, dt, a, size, &xa);
    rb = PMPI_Pack_external("external32", in, count, dt, b, size, &xb);
    break;
  default:
    ra = MPI_Unpack_external("external32", in, size, &xa, ia, count, dt);
    rb = PMPI_Unpack_external("external32", in, size, &xb, ib, count, dt);
    break;
  }
  ck_assert_msg(rb != MPI_SUCCESS, "%s: Open MPI accepts it", what);
  ck_assert_msg(cls(ra) == cls(rb) && pa == pb && xa == xb && memcmp(a, b, sizeof a) == 0 &&
                memcmp(ia, ib, sizeof ia) == 0, "%s: class %d, position %d/%ld, "
                "Open MPI's class %d, position %d/%ld (or other bytes)", what, cls(ra), pa,
                (long)xa, cls(rb), pb, (long)xb);
}

START_TEST(errors_as_openmpi)
{
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int32_t src[32];
  for (int i = 0; i < 32; i++)
    src[i] = i + 1;
  MPI_Datatype v, raw;
  MPI_OK(MPI_Type_vector(5, 1, 2, MPI_INT, &v));
  MPI_OK(MPI_Type_commit(&v));
  MPI_OK(MPI_Type_vector(5, 1, 2, MPI_INT, &raw));
  for (int round = 0; round < 2; round++) {   /* the second: the type known */
    same_error(E_PACK, src, 1, v, 16, 0, "pack into 16 bytes of 20");
    same_error(E_PACK, src, 2, v, 40, 4, "pack of 40 bytes from position 4 of 40");
    same_error(E_PACK, src, 10, MPI_INT, 16, 4, "pack of 10 ints into 12 bytes");
    same_error(E_PACK, src, 1, v, 16, 20, "pack from a position past the buffer");
    same_error(E_PACK, src, -1, v, 64, 0, "pack of count -1");
    same_error(E_PACK, src, 1, raw, 64, 0, "pack of an uncommitted type");
    same_error(E_UNPACK, src, 1, v, 16, 0, "unpack of 20 bytes from 16");
    same_error(E_UNPACK, src, 2, v, 40, 8, "unpack of 40 bytes from position 8 of 40");
    same_error(E_UNPACK, src, 1, raw, 64, 0, "unpack of an uncommitted type");
    same_error(E_EXT_PACK, src, 1, v, 16, 0, "external32 pack into 16 bytes of 20");
    same_error(E_EXT_PACK, src, 1, raw, 64, 0, "external32 pack of an uncommitted type");
    same_error(E_EXT_UNPACK, src, 1, v, 16, 0, "external32 unpack of 20 bytes from 16");
    same_error(E_EXT_UNPACK, src, 1, raw, 64, 0, "external32 unpack of an uncommitted type");
  }
  MPI_OK(MPI_Type_free(&raw));
  MPI_OK(MPI_Type_free(&v));
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}
END_TEST

/* DLP_DEV_TRUNCATE_OVERRUNS (host_openmpi_4_1.c): Open MPI writes a whole
   message past a contiguous receive buffer too short for it, once the
   message is past the eager limit (here a send to oneself); a receive of
   a derived type too short gets nothing past its data, plainly and
   preloaded, where the interposer receives it into staging memory
   (DL_STRATEGY=pack, set by main) the host must not overrun */
START_TEST(openmpi_truncation_overrun)
{
  enum { MSG = 100000, CAP = 25000, ROOM = 2 * MSG };
  unsigned char *sb = malloc(MSG), *rb = malloc(ROOM);
  ck_assert(sb && rb);
  for (int i = 0; i < MSG; i++)
    sb[i] = (unsigned char)(i % 200);   /* never the 0xee of untouched memory */
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Datatype v;   /* CAP bytes, every other byte of 2 * CAP - 1 */
  MPI_OK(MPI_Type_vector(CAP, 1, 2, MPI_BYTE, &v));
  MPI_OK(MPI_Type_commit(&v));
  unsigned long long before[4] = {0}, after[4] = {0};
  int (*counts)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_counts");
  for (int derived = 0; derived < 2; derived++) {
    memset(rb, 0xee, ROOM);
    if (counts)
      counts(before, 4);
    MPI_Request q[2];
    MPI_Status st[2];
    MPI_OK(derived ? MPI_Irecv(rb, 1, v, 0, 5, MPI_COMM_SELF, &q[0])
                   : MPI_Irecv(rb, CAP, MPI_BYTE, 0, 5, MPI_COMM_SELF, &q[0]));
    MPI_OK(MPI_Isend(sb, MSG, MPI_BYTE, 0, 5, MPI_COMM_SELF, &q[1]));
    int rc = MPI_Waitall(2, q, st), cls = -1;
    MPI_Error_class(rc, &cls);
    ck_assert_int_eq(cls, MPI_ERR_IN_STATUS);
    MPI_Error_class(st[0].MPI_ERROR, &cls);
    ck_assert_int_eq(cls, MPI_ERR_TRUNCATE);
    size_t end = derived ? 2 * CAP - 1 : CAP, past = 0;
    for (size_t i = end; i < ROOM; i++)
      past += rb[i] != 0xee;
    if (!derived) {
      ck_assert_msg(past == MSG - CAP, "Open MPI no longer writes past a truncated "
                    "receive (%zu bytes): drop DLP_DEV_TRUNCATE_OVERRUNS from "
                    "host_openmpi_4_1.c", past);
    } else {
      ck_assert_msg(past == 0, "%zu bytes written past a truncated derived-type receive",
                    past);
      if (counts) {     /* the interposer's receive, staged */
        counts(after, 4);
        ck_assert_uint_eq(after[3], before[3] + 1);
      }
    }
  }
  MPI_OK(MPI_Type_free(&v));
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  free(sb);
  free(rb);
}
END_TEST

int main(int argc, char **argv)
{
  seed = test_seed(NULL);
  int (*counts)(unsigned long long *, int) =
      (int (*)(unsigned long long *, int))dlsym(RTLD_DEFAULT, "dl_preload_counts");
  preloaded = counts != NULL;
  if (preloaded)   /* read at the interposer's first point-to-point call */
    setenv("DL_STRATEGY", "pack", 1);
  const char *expect = getenv("DL_EXPECT_PRELOAD");
  if (expect && (*expect == '1') != preloaded) {
    fprintf(stderr, "the interposer is %sloaded, DL_EXPECT_PRELOAD=%s\n",
            preloaded ? "" : "not ", expect);
    return EXIT_FAILURE;
  }
  MPI_Init(&argc, &argv);
  /* a constructor Open MPI refuses returns its error */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  TCase *tc = tcase_create("openmpi");
  tcase_add_test(tc, random_vs_openmpi);
  tcase_add_test(tc, openmpi_stride_minus_one);
  tcase_add_test(tc, openmpi_empty_member_after_data);
  tcase_add_test(tc, errors_as_openmpi);
  tcase_add_test(tc, openmpi_truncation_overrun);
  int rc = test_run("openmpi", tc, true);
  unsigned long long n[2] = {0, 0};
  if (preloaded && (counts(n, 2) < 2 || n[0] == 0 || n[1] == 0)) {
    fprintf(stderr, "the interposer packed %llu and unpacked %llu times\n", n[0], n[1]);
    rc = EXIT_FAILURE;
  } else if (preloaded) {
    fprintf(stderr, "the interposer packed %llu and unpacked %llu times\n", n[0], n[1]);
  }
  MPI_Finalize();
  return rc;
}
