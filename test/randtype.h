/* Random nested types. The generator draws a recipe (a tree of constructor
 * calls with their arguments) and builds its typemap model at once; the
 * same recipe is then built with the library's constructors (and, in the
 * MPI tests, with MPICH's). */
#ifndef TEST_RANDTYPE_H
#define TEST_RANDTYPE_H

#include <stdint.h>
#include "dataloop.h"
#include "model.h"

typedef struct rng {
  uint64_t s;
} rng;
uint64_t rng_next(rng *r);
/* uniform in [lo, hi] */
int64_t rng_range(rng *r, int64_t lo, int64_t hi);
/* [0, size) cut into pieces of random sizes (mostly 1-9 bytes, some up to
   a third of it): edges[0] = 0 ... edges[n - 1] = size, n returned, at
   most max edges */
size_t rng_cut(rng *r, size_t size, size_t *edges, size_t max);
/* v[0..n) in random order */
void rng_shuffle(rng *r, size_t *v, size_t n);

enum {
  RT_BUILTIN, RT_CONTIG, RT_VECTOR, RT_HVECTOR, RT_INDEXED, RT_HINDEXED,
  RT_INDEXED_BLOCK, RT_HINDEXED_BLOCK, RT_STRUCT, RT_RESIZED, RT_SUBARRAY,
  RT_DARRAY, RT_DUP, RT_PERIODIC, RT_NKINDS
};

typedef struct recipe recipe;
struct recipe {
  int kind;
  dl_builtin_t basic;           /* RT_BUILTIN */
  dl_count n, bl;               /* counts; n is also the list length */
  dl_aint stride;               /* vector: elements; hvector: bytes */
  dl_count *bls;                /* indexed family, struct: n entries */
  int64_t *displs;              /* elements (indexed, indexed_block) or bytes */
  dl_aint lb, extent;           /* resized */
  int ndims, order;             /* subarray, darray */
  dl_count sizes[3], subs[3], starts[3];
  int size, rank, dist[3], darg[3], psizes[3];
  recipe **kids;                /* one child; struct: n */
  int nkids;
};

typedef struct rtype {
  recipe *rc;
  model *m;
  dl_type *t;                   /* committed */
  char *desc;                   /* the recipe as text, for failure messages */
} rtype;

/* A random type nested at most `depth` deep, built and committed. Returns
   0, or -1 when a library constructor failed (a bug: desc says which).
   kind_counts, if given, counts the constructors drawn. */
int rtype_gen(rng *r, int depth, rtype *out, long *kind_counts);
void rtype_free(rtype *t);

/* The same drawing weighted towards the constructs where MPI libraries'
   bounds rules are known to depart from the standard (mpi_recipe.h):
   structs (of one predefined type, with empty or blocklength-0 members),
   resized types (with negative extents), darrays; typed (as
   rtype_gen_typed) when basics is not NULL */
int rtype_gen_deviant(rng *r, int depth, const int *basics, int n, rtype *out);

/* The same drawing only from the given basic types (ids at and past
   DL_NUM_BUILTINS are dl_builtin_more's), with a typed model: each run
   remembers its elements' type (mrun.elem). */
int rtype_gen_typed(rng *r, int depth, const int *basics, int n, rtype *out);
#define RT_NUM_BASICS (DL_NUM_BUILTINS + 3)
/* the predefined type of a basic id, and its alignment as C lays it out */
dl_type *rt_basic_type(int basic);
int rt_basic_align(int basic);

/* the typemap model of a recipe's top level, given its children's models
   (not a builtin) */
model *recipe_model_level(const recipe *rc, model *const *kids);

/* the recipe built with the library's constructors */
int recipe_build(const recipe *rc, dl_type **out);
char *recipe_desc(const recipe *rc);

#endif
