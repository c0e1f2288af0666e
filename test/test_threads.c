/* Threads: eight threads pack, unpack and walk segments with the same
 * committed types at once and must get exactly the single-threaded
 * results; threads create and free types built from one shared base (dups,
 * derived types, types built from types another thread made), publish them
 * to each other and free them while other threads still process them
 * through segments (which hold references); many threads commit and dup
 * one type at once. Run under ThreadSanitizer by make check-tsan. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "dataloop.h"
#include "buffers.h"
#include "randtype.h"
#include "runner.h"

#define THREADS 8
#define NTYPES 24
#define SPAN (1 << 20)          /* input offsets lie in [-SPAN, SPAN) */

static uint64_t seed;

/* Check's assertions may not run in other threads: a worker records the
   first failure and stops, and the test asserts after the join */
static _Atomic int failed_line;
static const char *_Atomic failed_what;
#define TCHECK(c)                                                          \
  do {                                                                     \
    if (!(c)) {                                                            \
      int zero = 0;                                                        \
      if (atomic_compare_exchange_strong(&failed_line, &zero, __LINE__))   \
        atomic_store(&failed_what, #c);                                    \
      return false;                                                        \
    }                                                                      \
  } while (0)
#define FAILED() (atomic_load(&failed_line) != 0)

/* shared, read-only while threads run */
static char *input;             /* 2 * SPAN bytes; the origin is input + SPAN */
#define ORIGIN (input + SPAN)

/* a type and count with single-threaded reference results */
typedef struct job {
  dl_type *t;
  dl_count count;
  size_t size;
  char *packed;                 /* pack of (ORIGIN, count, t) */
  dl_aint lo, hi;               /* memory window the data touches */
  char *unpacked;               /* window after unpacking `packed` into zeros */
} job;

/* the bytes count copies touch: [k * ext + tlb, k * ext + tlb + text) */
static void window(const dl_type *t, dl_count count, dl_aint *lo, dl_aint *hi)
{
  dl_aint lb, ext, tlb, text;
  dl_type_extent(t, &lb, &ext);
  dl_type_true_extent(t, &tlb, &text);
  dl_aint last = count > 0 ? (count - 1) * ext : 0;
  *lo = tlb + (last < 0 ? last : 0);
  *hi = tlb + text + (last > 0 ? last : 0);
}

static void job_init(job *j, dl_type *t, dl_count count)
{
  j->t = t;
  j->count = count;
  ck_assert_int_eq(dl_pack_size(count, t, &j->size), DL_OK);
  window(t, count, &j->lo, &j->hi);
  ck_assert(j->lo >= -SPAN && j->hi <= SPAN);
  j->packed = malloc(j->size + 1);
  size_t pos = 0;
  ck_assert_int_eq(dl_pack(ORIGIN, count, t, j->packed, j->size, &pos), DL_OK);
  size_t w = (size_t)(j->hi - j->lo);
  char *mem = calloc(w + 1, 1);
  pos = 0;
  ck_assert_int_eq(dl_unpack(j->packed, j->size, &pos, mem - j->lo, count, t), DL_OK);
  j->unpacked = mem;
}

static void job_free(job *j)
{
  free(j->packed);
  free(j->unpacked);
}

/* one thread's pass over a job: one-shot pack, chunked segment pack from a
   segment of its own, unpack into its own memory */
static bool run_job(const job *j, char *out, char *mem, uint64_t *rs)
{
  size_t pos = 0;
  TCHECK(dl_pack(ORIGIN, j->count, j->t, out, j->size, &pos) == DL_OK);
  TCHECK(memcmp(out, j->packed, j->size) == 0);
  dl_segment *s;
  TCHECK(dl_segment_create(ORIGIN, j->count, j->t, &s) == DL_OK);
  memset(out, 0, j->size);
  for (size_t at = 0; at < j->size;) {
    *rs = *rs * 6364136223846793005ull + 1;
    size_t last = at + 1 + (size_t)(*rs >> 40) % 4096;
    TCHECK(dl_segment_pack(s, at, &last, out + at) == DL_OK);
    at = last;
  }
  dl_segment_free(&s);
  TCHECK(memcmp(out, j->packed, j->size) == 0);
  size_t w = (size_t)(j->hi - j->lo);
  memset(mem, 0, w);
  pos = 0;
  TCHECK(dl_unpack(j->packed, j->size, &pos, mem - j->lo, j->count, j->t) == DL_OK);
  TCHECK(memcmp(mem, j->unpacked, w) == 0);
  return true;
}

static job jobs[NTYPES];
static pthread_barrier_t start;

struct worker {
  int id, iters;
  char *out, *mem;
};

static void *shared_worker(void *arg)
{
  struct worker *w = arg;
  uint64_t rs = seed + (uint64_t)w->id;
  pthread_barrier_wait(&start);
  for (int it = 0; it < w->iters && !FAILED(); it++)
    if (!run_job(&jobs[(it + w->id) % NTYPES], w->out, w->mem, &rs))
      break;
  return NULL;
}

static void workers(void *(*fn)(void *), int iters)
{
  pthread_t th[THREADS];
  struct worker w[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int i = 0; i < THREADS; i++) {
    w[i] = (struct worker){i, iters, malloc(2 * SPAN), malloc(2 * SPAN)};
    ck_assert_int_eq(pthread_create(&th[i], NULL, fn, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(th[i], NULL);
    free(w[i].out);
    free(w[i].mem);
  }
  pthread_barrier_destroy(&start);
  ck_assert_msg(!FAILED(), "seed %llu: a thread failed at line %d: %s",
                (unsigned long long)seed, atomic_load(&failed_line),
                atomic_load(&failed_what));
}

static void fill_input(void)
{
  input = malloc(2 * SPAN);
  uint64_t x = seed | 1;
  for (size_t i = 0; i < 2 * SPAN; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    input[i] = (char)(x >> 56);
  }
}

START_TEST(same_types)
{
  fill_input();
  rng r = {seed ^ 21};
  rtype rts[NTYPES];
  for (int k = 0; k < NTYPES; k++) {
    ck_assert_int_eq(rtype_gen(&r, (int)rng_range(&r, 1, 5), &rts[k], NULL), 0);
    if (rts[k].m->size == 0) {         /* only types with data */
      rtype_free(&rts[k]);
      k--;
      continue;
    }
    job_init(&jobs[k], rts[k].t, rng_range(&r, 1, 3));
  }
  workers(shared_worker, test_scaled(2000));
  for (int k = 0; k < NTYPES; k++) {
    job_free(&jobs[k]);
    rtype_free(&rts[k]);
  }
  free(input);
}
END_TEST

/* ---- types created and freed around one shared base ---- */

#define RECIPES 6
#define SLOTS 16

static dl_type *base;
static job derived[RECIPES], doubled[RECIPES];   /* references */

typedef struct item {
  dl_type *t;
  int recipe;
} item;
static item *_Atomic slots[SLOTS];

/* recipe k applied to old, committed; NULL on failure */
static dl_type *derive(int k, dl_type *old)
{
  dl_type *t = NULL;
  dl_count bl[2] = {1, 2};
  dl_aint d[2] = {0, 200};
  dl_type *ty[2] = {old, dl_builtin(DL_DOUBLE)};
  dl_aint hd[3] = {64, 0, 320};
  int rc;
  switch (k) {
  case 0: rc = dl_type_dup(old, &t); break;
  case 1: rc = dl_type_contiguous(3, old, &t); break;
  case 2: rc = dl_type_vector(2, 1, 3, old, &t); break;
  case 3: rc = dl_type_struct(2, bl, d, ty, &t); break;
  case 4: rc = dl_type_resized(old, 0, 256, &t); break;
  default: rc = dl_type_hindexed_block(3, 1, hd, old, &t); break;
  }
  if (rc || dl_type_commit(t))
    return NULL;
  return t;
}

static bool expect_pack(const job *ref, const dl_type *t, char *out)
{
  size_t pos = 0;
  TCHECK(t != NULL);
  TCHECK(dl_pack(ORIGIN, ref->count, t, out, ref->size, &pos) == DL_OK);
  TCHECK(pos == ref->size && memcmp(out, ref->packed, ref->size) == 0);
  return true;
}

/* a type another thread built: build on it, free it, check what was built */
static bool take(item *old, char *out)
{
  dl_type *two;
  TCHECK(dl_type_contiguous(2, old->t, &two) == DL_OK);
  TCHECK(dl_type_free(&old->t) == DL_OK);
  TCHECK(dl_type_commit(two) == DL_OK);
  bool ok = expect_pack(&doubled[old->recipe], two, out);
  dl_type_free(&two);
  free(old);
  return ok;
}

static bool churn(struct worker *w, uint64_t *rs)
{
  *rs = *rs * 6364136223846793005ull + 1;
  int k = (int)((*rs >> 33) % RECIPES), slot = (int)((*rs >> 20) % SLOTS);
  dl_type *t = derive(k, base);
  if (!expect_pack(&derived[k], t, w->out))
    return false;
  /* a segment holds its own reference: once t is published, another
     thread may free it while this one still packs through s */
  dl_segment *s;
  TCHECK(dl_segment_create(ORIGIN, 1, t, &s) == DL_OK);
  item *mine = malloc(sizeof(*mine));
  *mine = (item){t, k};
  item *old = atomic_exchange(&slots[slot], mine);
  size_t last = derived[k].size;
  TCHECK(dl_segment_pack(s, 0, &last, w->out) == DL_OK);
  TCHECK(memcmp(w->out, derived[k].packed, derived[k].size) == 0);
  dl_segment_free(&s);
  return !old || take(old, w->out);
}

static void *churn_worker(void *arg)
{
  struct worker *w = arg;
  uint64_t rs = seed * 31 + (uint64_t)w->id;
  pthread_barrier_wait(&start);
  for (int it = 0; it < w->iters && !FAILED(); it++)
    if (!churn(w, &rs))
      break;
  return NULL;
}

START_TEST(create_and_free)
{
  fill_input();
  dl_type *v;
  ck_assert_int_eq(dl_type_vector(3, 2, 5, dl_builtin(DL_INT32), &v), DL_OK);
  dl_count bl[2] = {1, 1};
  dl_aint d[2] = {8, 96};
  dl_type *ty[2] = {v, dl_builtin(DL_INT16)};
  ck_assert_int_eq(dl_type_struct(2, bl, d, ty, &base), DL_OK);
  dl_type_free(&v);
  dl_type_commit(base);
  for (int k = 0; k < RECIPES; k++) {
    dl_type *t = derive(k, base), *two;
    job_init(&derived[k], t, 1);
    ck_assert_int_eq(dl_type_contiguous(2, t, &two), DL_OK);
    dl_type_commit(two);
    job_init(&doubled[k], two, 1);
  }
  workers(churn_worker, test_scaled(2000));
  for (int i = 0; i < SLOTS; i++) {
    item *it = atomic_exchange(&slots[i], NULL);
    if (it) {
      dl_type_free(&it->t);
      free(it);
    }
  }
  for (int k = 0; k < RECIPES; k++) {
    dl_type_free(&derived[k].t);
    dl_type_free(&doubled[k].t);
    job_free(&derived[k]);
    job_free(&doubled[k]);
  }
  dl_type_free(&base);
  free(input);
}
END_TEST

/* ---- one type committed and duplicated by every thread at once ---- */

static dl_type *fresh;
static job fresh_ref;

static bool dup_and_pack(char *out)
{
  dl_type *d;
  TCHECK(dl_type_dup(fresh, &d) == DL_OK);
  bool ok = expect_pack(&fresh_ref, d, out) &&      /* a dup of a committed type */
            expect_pack(&fresh_ref, fresh, out);
  TCHECK(dl_type_free(&d) == DL_OK);
  return ok;
}

static void *commit_worker(void *arg)
{
  struct worker *w = arg;
  pthread_barrier_wait(&start);
  if (dl_type_commit(fresh) != DL_OK)
    atomic_store(&failed_line, __LINE__);
  for (int it = 0; it < w->iters && !FAILED(); it++)
    if (!dup_and_pack(w->out))
      break;
  return NULL;
}

START_TEST(commit_race)
{
  fill_input();
  dl_aint o[4] = {0, 40, 12, 100};
  dl_type *ref;
  ck_assert_int_eq(dl_type_hindexed_block(4, 3, o, dl_builtin(DL_INT16), &fresh), DL_OK);
  ck_assert_int_eq(dl_type_dup(fresh, &ref), DL_OK);
  dl_type_commit(ref);
  job_init(&fresh_ref, ref, 2);
  workers(commit_worker, test_scaled(2000));
  job_free(&fresh_ref);
  dl_type_free(&ref);
  dl_type_free(&fresh);
  free(input);
}
END_TEST

/* dl_last_error_detail is per thread: a failure in another thread leaves
   this thread's detail as it was */
static void *fail_in_thread(void *arg)
{
  (void)arg;
  dl_type *t;
  int rc = dl_type_contiguous(-5, dl_builtin(DL_INT32), &t);
  const char *d = dl_last_error_detail();
  return rc == DL_ERR_ARG && strstr(d, "negative count -5") ? (void *)1 : NULL;
}

START_TEST(error_detail_per_thread)
{
  size_t size;
  ck_assert_int_eq(dl_pack_external_size("native", 1, dl_builtin(DL_INT32), &size),
                   DL_ERR_UNSUPPORTED);
  char mine[256];
  snprintf(mine, sizeof(mine), "%s", dl_last_error_detail());
  ck_assert_msg(strstr(mine, "\"native\"") && strstr(mine, "external32"),
                "detail: %s", mine);
  pthread_t th;
  void *theirs;
  ck_assert_int_eq(pthread_create(&th, NULL, fail_in_thread, NULL), 0);
  ck_assert_int_eq(pthread_join(th, &theirs), 0);
  ck_assert_msg(theirs != NULL, "the other thread saw no detail of its own");
  ck_assert_str_eq(dl_last_error_detail(), mine);
}
END_TEST

int main(void)
{
  seed = test_seed(NULL);
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, same_types);
  tcase_add_test(tc, create_and_free);
  tcase_add_test(tc, commit_race);
  tcase_add_test(tc, error_detail_per_thread);
  return test_run("threads", tc, false);
}
