/* ROMIO's flattening on dataloop (src/mpich/romio/flatten.c), compiled
 * with ROMIO's own headers from a configured MPICH tree and run over the
 * MPI library this program is linked with (test/romio-flatten.sh builds
 * it). The MPICH backend's dli_mpich_type, which gives the dataloop type
 * of an MPI handle inside MPICH, is here dl_type_from_mpi (the project's
 * MPI bridge: the same layout, at the bounds MPICH reports); ROMIO's
 * allocator is malloc with a count of live blocks, so that a node left
 * behind by the attribute callbacks shows.
 *
 * Checked against the typemap model of random types built with MPI's
 * constructors (recipe_host): the runs, count >= 1, no zero-length runs,
 * the flags ADIO_Set_view refuses views by; the cache (same node again,
 * shared by MPI_Type_dup, freed with the last type); appending at an
 * offset; ADIOI_Optimize_flattened on hand-made lists; lists longer than
 * a batch; the message of a handle without a dataloop type. */
#include "adio.h"
#include "adio_extern.h"
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dataloop-mpi.h"
#include "mpi_recipe.h"
#include "randtype.h"
#include "runner.h"

void ADIOI_Optimize_flattened(ADIOI_Flatlist_node * flat);

/* ---- what libmpi gives flatten.c inside MPICH ---- */

__attribute__((visibility("hidden"))) dl_type *dli_mpich_type(MPI_Datatype dt)
{
    dl_type *t;
    return dl_type_from_mpi(dt, &t) == DL_OK ? t : NULL;
}

static long live;               /* blocks from ADIOI_Malloc_fn not yet freed */

void *ADIOI_Malloc_fn(size_t size, int lineno, const char *fname)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "Out of memory in file %s, line %d\n", fname, lineno);
        abort();
    }
    live++;
    return p;
}

void ADIOI_Free_fn(void *ptr, int lineno, const char *fname)
{
    if (!ptr) {                 /* ROMIO's aborts too; also outside a test */
        fprintf(stderr, "ADIOI_Free(NULL) at %s:%d\n", fname, lineno);
        abort();
    }
    live--;
    free(ptr);
}

int MPIR_Ext_assert_fail(const char *cond, const char *file, int line)
{
    fprintf(stderr, "assertion %s failed at %s:%d\n", cond, file, line);
    abort();
}

/* ---- expectations from the model ---- */

static uint64_t seed;

static int scaled(int n)
{
    const char *s = getenv("DL_TEST_SCALE");
    int k = (int) (n * (s ? atof(s) : 1.0));
    return k > 0 ? k : 1;
}

/* the flags of a typemap's runs in order: a run before the origin, a run
   starting below the one before it, a run starting inside an earlier one */
static int model_flags(const mrun *runs, size_t n)
{
    int f = 0;
    dl_aint end = 0;
    for (size_t i = 0; i < n; i++) {
        if (runs[i].disp < 0)
            f |= ADIOI_TYPE_NEGATIVE;
        if (i > 0 && runs[i].disp < runs[i - 1].disp)
            f |= ADIOI_TYPE_DECREASE;
        if (i > 0 && runs[i].disp < end)
            f |= ADIOI_TYPE_OVERLAP;
        if (i == 0 || runs[i].disp + runs[i].len > end)
            end = runs[i].disp + runs[i].len;
    }
    return f;
}

static void check_list(const ADIOI_Flatlist_node * flat, const mrun *runs, size_t n,
                       const char *desc)
{
    if (n == 0) {
        ck_assert_msg(flat->count == 1 && flat->indices[0] == 0 && flat->blocklens[0] == 0,
                      "seed %llu: a type without data is not the run (0, 0): %s",
                      (unsigned long long) seed, desc);
        ck_assert_int_eq(flat->flag, 0);
        return;
    }
    ck_assert_msg(flat->count == (MPI_Count) n, "seed %llu: %lld runs, the model %zu: %s",
                  (unsigned long long) seed, (long long) flat->count, n, desc);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(flat->indices[i] == runs[i].disp && flat->blocklens[i] == runs[i].len,
                      "seed %llu: run %zu is (%lld, %lld), the model (%lld, %lld): %s",
                      (unsigned long long) seed, i, (long long) flat->indices[i],
                      (long long) flat->blocklens[i], (long long) runs[i].disp,
                      (long long) runs[i].len, desc);
    ck_assert_msg(flat->flag == model_flags(runs, n), "seed %llu: flags %#x, the model %#x: %s",
                  (unsigned long long) seed, (unsigned) flat->flag,
                  (unsigned) model_flags(runs, n), desc);
}

/* ---- tests ---- */

START_TEST(random_types)
{
    rng r = { seed };
    int n = scaled(2000);
    for (int it = 0; it < n; it++) {
        rtype rt;
        int depth = (int) rng_range(&r, 1, 5);
        ck_assert_int_eq(it % 2 ? rtype_gen_deviant(&r, depth, NULL, 0, &rt)
                         : rtype_gen(&r, depth, &rt, NULL), 0);
        MPI_Datatype mt;
        model *host;
        ck_assert_int_eq(recipe_host(rt.rc, &mt, &host), MPI_SUCCESS);
        bool derived = rt.rc->kind != RT_BUILTIN;
        if (derived)
            MPI_Type_commit(&mt);
        long before = live;
        ADIOI_Flatlist_node *flat = ADIOI_Flatten_datatype(mt);
        if (live > before) {    /* new; a dup shares its old type's node */
            ck_assert_int_eq(flat->type, mt);
            ck_assert_int_eq(flat->refct, 1);
        }
        ck_assert(flat->lb_idx == -1 && flat->ub_idx == -1);
        check_list(flat, host->runs, host->n, rt.desc);
        ck_assert_ptr_eq(ADIOI_Flatten_and_find(mt), flat);     /* cached */
        MPI_Count idx = 5;
        MPI_Count c = ADIOI_Count_contiguous_blocks(mt, &idx);
        ck_assert_int_eq(c, (MPI_Count) host->n);
        ck_assert_int_eq(idx, 5 + c);
        if (derived) {
            MPI_Type_free(&mt); /* the delete callback frees the node */
            ck_assert_int_eq(live, before);
        }
        model_free(host);
        rtype_free(&rt);
    }
}
END_TEST

START_TEST(dup_shares_the_node)
{
    MPI_Datatype v, d;
    MPI_Type_vector(3, 2, 5, MPI_INT, &v);
    MPI_Type_commit(&v);
    long before = live;
    ADIOI_Flatlist_node *flat = ADIOI_Flatten_datatype(v);
    MPI_Type_dup(v, &d);
    ck_assert_ptr_eq(ADIOI_Flatten_and_find(d), flat);
    ck_assert_int_eq(flat->refct, 2);
    /* MPICH frees v with its dup (whose contents name it): the node stays */
    MPI_Type_free(&v);
    ck_assert_int_ge(flat->refct, 1);
    ck_assert_int_eq(flat->count, 3);
    ck_assert(flat->indices[2] == 40 && flat->blocklens[2] == 8);
    MPI_Type_free(&d);
    ck_assert_int_eq(live, before);
}
END_TEST

START_TEST(predefined_and_empty)
{
    ADIOI_Flatlist_node *f = ADIOI_Flatten_and_find(MPI_DOUBLE);
    ck_assert(f->count == 1 && f->indices[0] == 0 && f->blocklens[0] == 8 && f->flag == 0);
    MPI_Datatype e, s;
    MPI_Type_contiguous(0, MPI_INT, &e);
    MPI_Type_commit(&e);
    f = ADIOI_Flatten_datatype(e);
    ck_assert(f->count == 1 && f->indices[0] == 0 && f->blocklens[0] == 0 && f->flag == 0);
    MPI_Count idx = 0;
    ck_assert_int_eq(ADIOI_Count_contiguous_blocks(e, &idx), 0);
    /* contiguous, before its origin: the run is where the data is */
    MPI_Type_create_hindexed(1, (int[]) {1}, (MPI_Aint[]) {-4}, MPI_INT, &s);
    MPI_Type_commit(&s);
    f = ADIOI_Flatten_datatype(s);
    ck_assert(f->count == 1 && f->indices[0] == -4 && f->blocklens[0] == 4);
    ck_assert_int_eq(f->flag, ADIOI_TYPE_NEGATIVE);
    MPI_Type_free(&e);
    MPI_Type_free(&s);
}
END_TEST

/* the cases doc/io.md lists as ROMIO's flattening bugs */
START_TEST(romio_bug_cases)
{
    MPI_Datatype v, r, x, i, h, e, st, in;
    /* resized(vector(2, 2, 4, byte), lb 2, extent 8): bytes 0, 1, 4, 5 */
    MPI_Type_vector(2, 2, 4, MPI_BYTE, &v);
    MPI_Type_create_resized(v, 2, 8, &r);
    MPI_Type_commit(&r);
    ADIOI_Flatlist_node *f = ADIOI_Flatten_datatype(r);
    ck_assert(f->count == 2 && f->indices[0] == 0 && f->blocklens[0] == 2 &&
              f->indices[1] == 4 && f->blocklens[1] == 2 && f->flag == 0);
    /* indexed(2, {2, 1}, {0, 3}, resized(int, 0, 8)): ints at 0, 8, 24 */
    MPI_Type_create_resized(MPI_INT, 0, 8, &x);
    MPI_Type_indexed(2, (int[]) {2, 1}, (int[]) {0, 3}, x, &i);
    MPI_Type_commit(&i);
    f = ADIOI_Flatten_datatype(i);
    ck_assert(f->count == 3 && f->indices[0] == 0 && f->indices[1] == 8 &&
              f->indices[2] == 24 && f->blocklens[2] == 4 && f->flag == 0);
    /* hindexed(2, {0, 1}, {0, 16}, vector(2, 1, 2, int)): ints at 16, 24 */
    MPI_Datatype v2;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v2);
    MPI_Type_create_hindexed(2, (int[]) {0, 1}, (MPI_Aint[]) {0, 16}, v2, &h);
    MPI_Type_commit(&h);
    f = ADIOI_Flatten_datatype(h);
    ck_assert(f->count == 2 && f->indices[0] == 16 && f->indices[1] == 24);
    /* indexed(2, {1, 2}, {0, 3}, struct {2 x hvector(0, 0, 8, float) @ 12,
       3 x int16 @ 10}): 6 bytes at 10, 12 at 28 (extent 6: two copies
       meet) */
    MPI_Type_create_hvector(0, 0, 8, MPI_FLOAT, &e);
    MPI_Type_create_struct(2, (int[]) {2, 3}, (MPI_Aint[]) {12, 10},
                           (MPI_Datatype[]) {e, MPI_INT16_T}, &st);
    MPI_Type_indexed(2, (int[]) {1, 2}, (int[]) {0, 3}, st, &in);
    MPI_Type_commit(&in);
    MPI_Count size;
    MPI_Type_size_x(in, &size);
    f = ADIOI_Flatten_datatype(in);
    MPI_Count sum = 0;
    for (MPI_Count k = 0; k < f->count; k++) {
        ck_assert_int_gt(f->blocklens[k], 0);
        sum += f->blocklens[k];
    }
    ck_assert_int_eq(sum, size);
    ck_assert_int_eq(f->indices[0], 10);
    MPI_Datatype all[] = { v, r, x, i, v2, h, e, st, in };
    for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
        MPI_Type_free(&all[k]);
}
END_TEST

/* more runs than one batch of offset/length pairs, and runs that meet
   across copies of a block */
START_TEST(long_lists)
{
    MPI_Datatype v, s, c;
    MPI_Type_create_hvector(3000, 1, 3, MPI_BYTE, &v);
    MPI_Type_commit(&v);
    ADIOI_Flatlist_node *f = ADIOI_Flatten_datatype(v);
    ck_assert_int_eq(f->count, 3000);
    for (int k = 0; k < 3000; k++)
        ck_assert(f->indices[k] == 3 * k && f->blocklens[k] == 1);
    /* struct {int @ 0, int @ 4}: 8 bytes; 700 of them contiguous: one run */
    MPI_Type_create_struct(2, (int[]) {1, 1}, (MPI_Aint[]) {0, 4},
                           (MPI_Datatype[]) {MPI_INT, MPI_INT}, &s);
    MPI_Type_contiguous(700, s, &c);
    MPI_Type_commit(&c);
    f = ADIOI_Flatten_datatype(c);
    ck_assert(f->count == 1 && f->indices[0] == 0 && f->blocklens[0] == 5600);
    MPI_Type_free(&v);
    MPI_Type_free(&s);
    MPI_Type_free(&c);
}
END_TEST

/* ADIOI_Flatten appends at an offset; count is the capacity meanwhile */
START_TEST(flatten_appends)
{
    MPI_Datatype v;
    MPI_Type_vector(600, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    long before = live;
    ADIOI_Flatlist_node flat = { 0 };
    flat.blocklens = ADIOI_Malloc(2 * sizeof(ADIO_Offset));
    flat.indices = flat.blocklens + 1;
    flat.count = 1;
    flat.indices[0] = 7;
    flat.blocklens[0] = 1;
    MPI_Count idx = 1;
    ADIOI_Flatten(v, &flat, 100, &idx);
    ck_assert_int_eq(idx, 601);
    ck_assert_int_ge(flat.count, 601);
    ck_assert(flat.indices[0] == 7 && flat.blocklens[0] == 1);
    for (int k = 0; k < 600; k++)
        ck_assert(flat.indices[1 + k] == 100 + 8 * k && flat.blocklens[1 + k] == 4);
    ADIOI_Free(flat.blocklens);
    ck_assert_int_eq(live, before);
    MPI_Type_free(&v);
}
END_TEST

static ADIOI_Flatlist_node *hand_list(const ADIO_Offset (*e)[2], int n)
{
    ADIOI_Flatlist_node *f = ADIOI_Malloc(sizeof(*f));
    memset(f, 0, sizeof(*f));
    f->blocklens = ADIOI_Malloc(2 * n * sizeof(ADIO_Offset));
    f->indices = f->blocklens + n;
    f->count = n;
    for (int k = 0; k < n; k++) {
        f->indices[k] = e[k][0];
        f->blocklens[k] = e[k][1];
    }
    return f;
}

START_TEST(optimize)
{
    /* zero-length entries go, adjacent runs merge, flags on merged runs */
    static const ADIO_Offset a[][2] = { {0, 0}, {0, 4}, {4, 4}, {16, 0}, {12, 2},
    {20, 4}, {22, 1}, {-4, 1}
    };
    ADIOI_Flatlist_node *f = hand_list(a, 8);
    ADIOI_Optimize_flattened(f);
    static const ADIO_Offset want[][2] = { {0, 8}, {12, 2}, {20, 4}, {22, 1}, {-4, 1} };
    ck_assert_int_eq(f->count, 5);
    for (int k = 0; k < 5; k++)
        ck_assert(f->indices[k] == want[k][0] && f->blocklens[k] == want[k][1]);
    ck_assert_int_eq(f->flag, ADIOI_TYPE_NEGATIVE | ADIOI_TYPE_DECREASE | ADIOI_TYPE_OVERLAP);
    ADIOI_Free(f->blocklens);
    ADIOI_Free(f);
    /* a run that continues the one before is not a decrease: the verdict
       does not depend on where a run of bytes was split */
    static const ADIO_Offset b[][2] = { {8, 4}, {12, 4}, {10, 1} };
    f = hand_list(b, 3);
    ADIOI_Optimize_flattened(f);
    ck_assert(f->count == 2 && f->indices[0] == 8 && f->blocklens[0] == 8);
    ck_assert_int_eq(f->flag, ADIOI_TYPE_OVERLAP);
    ADIOI_Free(f->blocklens);
    ADIOI_Free(f);
    /* nothing but zero-length entries: one empty run */
    static const ADIO_Offset c[][2] = { {5, 0}, {9, 0} };
    f = hand_list(c, 2);
    ADIOI_Optimize_flattened(f);
    ck_assert(f->count == 1 && f->indices[0] == 0 && f->blocklens[0] == 0 && f->flag == 0);
    ADIOI_Free(f->blocklens);
    ADIOI_Free(f);
}
END_TEST

/* a handle without a dataloop type stops the program with a message */
START_TEST(no_dataloop_type)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setpgid(0, 0);          /* MPI_Abort kills the process group */
        dup2(fd[1], 2);
        MPI_Count idx = 0;
        ADIOI_Count_contiguous_blocks(MPI_DATATYPE_NULL, &idx);
        _exit(0);               /* not reached */
    }
    close(fd[1]);
    char msg[512] = "";
    size_t got = 0;
    ssize_t k;
    while (got < sizeof(msg) - 1 && (k = read(fd[0], msg + got, sizeof(msg) - 1 - got)) > 0)
        got += (size_t) k;
    close(fd[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(!WIFEXITED(status) || WEXITSTATUS(status) != 0);
    ck_assert_msg(strstr(msg, "ROMIO flatten (dataloop)") &&
                  strstr(msg, "no dataloop type for this handle"), "stderr: %s", msg);
}
END_TEST

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    seed = test_seed(NULL);
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, random_types);
    tcase_add_test(tc, dup_shares_the_node);
    tcase_add_test(tc, predefined_and_empty);
    tcase_add_test(tc, romio_bug_cases);
    tcase_add_test(tc, long_lists);
    tcase_add_test(tc, flatten_appends);
    tcase_add_test(tc, optimize);
    tcase_add_test(tc, no_dataloop_type);
    int rc = test_run("romio_flatten", tc, true);
    MPI_Finalize();
    return rc;
}
