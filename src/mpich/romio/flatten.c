/* ROMIO's datatype flattening on dataloop. Replaces ROMIO's
 * adio/common/flatten.c (same exported functions, same ADIOI_Flatlist_node
 * contract): the offset/length list of one element of a type is dataloop's
 * own (dl_segment_offlen over (NULL, 1, t)), not a reconstruction from
 * MPI_Type_get_contents.
 *
 * What the node holds (every caller in ROMIO relies on this):
 * - indices[i], blocklens[i]: the type's contiguous runs of data, in
 *   typemap order, as byte displacements from the type's origin (negative
 *   ones included, a memory type may have them) and lengths; adjacent runs
 *   merged, no zero-length runs. A type without data has the single run
 *   (0, 0), so count >= 1 always.
 * - lb_idx = ub_idx = -1: no lb/ub marker entries. Callers take the bounds
 *   from MPI_Type_get_extent; the markers ROMIO used to keep in the list
 *   were replicated with the data and moved it.
 * - flag: ADIOI_TYPE_NEGATIVE (a run before the origin), _DECREASE (a run
 *   starting below the start of the run before it), _OVERLAP (a run
 *   starting below the end of an earlier one), judged on merged runs, so
 *   the verdict does not depend on how a tree splits a run of bytes;
 *   ADIO_Set_view refuses views by them.
 * - refct: the node is cached on the type as an attribute of
 *   ADIOI_Flattened_type_keyval; copies of the type (MPI_Type_dup) share
 *   it, and it is freed with the last one. */
#include "adio.h"
#include "adio_extern.h"
#include "dataloop.h"

/* the dataloop type of any MPI handle (src/mpich/typerep/, in the same
   libmpi); NULL when the handle has none */
extern __attribute__((visibility("hidden"))) dl_type *dli_mpich_type(MPI_Datatype dt);

void ADIOI_Optimize_flattened(ADIOI_Flatlist_node * flat);

/* offset/length pairs asked of dataloop per call: bounded, on the stack */
#define BATCH 256

/* ROMIO's flattening has no error return (its callers cannot fail
   there), so a type dataloop cannot list stops the program, as ROMIO's
   own code does for a combiner it does not know */
__attribute__((noreturn))
static void fail(MPI_Datatype dt, const char *what, int rc)
{
    const char *why = rc ? dl_last_error_detail() : "";
    fprintf(stderr, "ROMIO flatten (dataloop): datatype 0x%x: %s%s%s%s%s\n",
            (unsigned) dt, what, rc ? ": " : "", rc ? dl_strerror(rc) : "",
            *why ? ": " : "", why);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort();                    /* MPI_Abort does not return */
}

/* a segment over one element of dt, its origin at address 0 */
static dl_segment *element_segment(MPI_Datatype dt)
{
    dl_type *t = dli_mpich_type(dt);
    if (!t)
        fail(dt, "no dataloop type for this handle", 0);
    dl_segment *s;
    int rc = dl_segment_create(NULL, 1, t, &s);
    if (rc != DL_OK)
        fail(dt, "dl_segment_create", rc);
    return s;
}

/* room for at least n entries; flat->count is the capacity while a list
   is built (as in ROMIO's own code), indices right after blocklens in one
   allocation (ADIOI_Flattened_type_delete frees blocklens) */
static void grow(ADIOI_Flatlist_node * flat, MPI_Count n)
{
    if (n <= flat->count)
        return;
    MPI_Count cap = flat->count * 2 > n ? flat->count * 2 : n;
    ADIO_Offset *b = ADIOI_Malloc(2 * cap * sizeof(ADIO_Offset));
    if (flat->count) {          /* ADIOI_Free aborts on NULL */
        memcpy(b, flat->blocklens, flat->count * sizeof(ADIO_Offset));
        memcpy(b + cap, flat->indices, flat->count * sizeof(ADIO_Offset));
        ADIOI_Free(flat->blocklens);
    }
    flat->blocklens = b;
    flat->indices = b + cap;
    flat->count = cap;
}

static ADIOI_Flatlist_node *node_new(MPI_Datatype dt, MPI_Count cap)
{
    ADIOI_Flatlist_node *flat = ADIOI_Malloc(sizeof(*flat));
    flat->type = dt;
    flat->count = 0;
    flat->blocklens = flat->indices = NULL;
    flat->lb_idx = flat->ub_idx = -1;
    flat->refct = 1;
    flat->flag = 0;
    grow(flat, cap > 0 ? cap : 1);
    return flat;
}

/* The number of runs ADIOI_Flatten appends for one element of dt (0 for
   a type without data), added to *curr_index. */
MPI_Count ADIOI_Count_contiguous_blocks(MPI_Datatype dt, MPI_Count * curr_index)
{
    dl_segment *s = element_segment(dt);
    size_t last = dl_segment_size(s), n = 0;
    int rc = dl_segment_iov_count(s, 0, &last, &n);
    dl_segment_free(&s);
    if (rc != DL_OK)
        fail(dt, "dl_segment_iov_count", rc);
    *curr_index += (MPI_Count) n;
    return (MPI_Count) n;
}

/* Appends the runs of one element of dt, shifted by st_offset, at entry
   *curr_index on, and advances *curr_index. flat->count is taken as the
   arrays' capacity and grown as needed: the caller sets count =
   *curr_index when the list is complete. */
void ADIOI_Flatten(MPI_Datatype dt, ADIOI_Flatlist_node * flat,
                   ADIO_Offset st_offset, MPI_Count * curr_index)
{
    dl_segment *s = element_segment(dt);
    const size_t size = dl_segment_size(s);
    MPI_Count j = *curr_index;
    int64_t off[BATCH], len[BATCH];
    for (size_t pos = 0; pos < size;) {
        size_t last = size, n = 0;
        int rc = dl_segment_offlen(s, pos, &last, off, len, BATCH, &n);
        if (rc == DL_OK && last == pos)
            rc = DL_ERR_CORRUPT;        /* no progress: never loop forever */
        if (rc != DL_OK) {
            dl_segment_free(&s);
            fail(dt, "dl_segment_offlen", rc);
        }
        /* pieces come merged where adjacent (ADIOI_Optimize_flattened
           joins any that meet anyway) */
        grow(flat, j + (MPI_Count) n);
        for (size_t i = 0; i < n; i++, j++) {
            flat->indices[j] = st_offset + off[i];
            flat->blocklens[j] = len[i];
        }
        pos = last;
    }
    dl_segment_free(&s);
    *curr_index = j;
}

/* Merges adjacent runs, drops zero-length ones (keeping one entry) and
   sets flag; in place: the arrays keep their allocation. */
void ADIOI_Optimize_flattened(ADIOI_Flatlist_node * flat)
{
    MPI_Count j = 0;
    ADIO_Offset last_start = 0, max_end = 0;
    for (MPI_Count i = 0; i < flat->count; i++) {
        ADIO_Offset at = flat->indices[i], len = flat->blocklens[i];
        if (len == 0)
            continue;
        if (j > 0 && flat->indices[j - 1] + flat->blocklens[j - 1] == at) {
            flat->blocklens[j - 1] += len;
        } else {
            if (at < 0)
                flat->flag |= ADIOI_TYPE_NEGATIVE;
            if (j > 0 && at < last_start)
                flat->flag |= ADIOI_TYPE_DECREASE;
            if (j > 0 && at < max_end)
                flat->flag |= ADIOI_TYPE_OVERLAP;
            flat->indices[j] = at;
            flat->blocklens[j] = len;
            last_start = at;
            j++;
        }
        if (j == 1 || at + len > max_end)
            max_end = at + len;
    }
    if (j == 0) {               /* no data: one empty run, as callers index [0] */
        flat->indices[0] = flat->blocklens[0] = 0;
        j = 1;
    }
    flat->count = j;
}

int ADIOI_Flattened_type_keyval = MPI_KEYVAL_INVALID;

/* flattens dt, or returns the list already cached on it */
ADIOI_Flatlist_node *ADIOI_Flatten_datatype(MPI_Datatype dt)
{
    if (ADIOI_Flattened_type_keyval == MPI_KEYVAL_INVALID)
        /* ADIOI_End_call frees the keyval */
        MPI_Type_create_keyval(ADIOI_Flattened_type_copy, ADIOI_Flattened_type_delete,
                               &ADIOI_Flattened_type_keyval, NULL);
    ADIOI_Flatlist_node *flat;
    int found = 0;
    MPI_Type_get_attr(dt, ADIOI_Flattened_type_keyval, &flat, &found);
    if (found)
        return flat;

    MPI_Count n = 0;
    ADIOI_Count_contiguous_blocks(dt, &n);
    flat = node_new(dt, n);
    n = 0;
    ADIOI_Flatten(dt, flat, 0, &n);
    flat->count = n;
    ADIOI_Optimize_flattened(flat);
    MPI_Type_set_attr(dt, ADIOI_Flattened_type_keyval, flat);
    return flat;
}

ADIOI_Flatlist_node *ADIOI_Flatten_and_find(MPI_Datatype dt)
{
    return ADIOI_Flatten_datatype(dt);
}

/* attribute callbacks: copies of a type share its node */
int ADIOI_Flattened_type_copy(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag)
{
    (void) oldtype;
    (void) type_keyval;
    (void) extra_state;
    ADIOI_Flatlist_node *node = attribute_val_in;
    if (node)
        node->refct++;
    *(ADIOI_Flatlist_node **) attribute_val_out = node;
    *flag = 1;
    return MPI_SUCCESS;
}

int ADIOI_Flattened_type_delete(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                void *extra_state)
{
    (void) datatype;
    (void) type_keyval;
    (void) extra_state;
    ADIOI_Flatlist_node *node = attribute_val;
    ADIOI_Assert(node != NULL);
    if (--node->refct <= 0) {
        ADIOI_Free(node->blocklens);
        ADIOI_Free(node);
    }
    return MPI_SUCCESS;
}
