/* Random nested types built twice: with the library's constructors and with
 * the model's, from the same arguments. */
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

typedef struct rtype {
  dl_type *t;
  model *m;
  char *desc;      /* the constructor calls, for failure messages */
} rtype;

/* Constructor kinds the generator may choose from. */
enum {
  RT_BUILTIN, RT_CONTIG, RT_VECTOR, RT_HVECTOR, RT_INDEXED, RT_HINDEXED,
  RT_INDEXED_BLOCK, RT_HINDEXED_BLOCK, RT_STRUCT, RT_RESIZED, RT_SUBARRAY,
  RT_DARRAY, RT_DUP, RT_PERIODIC, RT_NKINDS
};

/* A random type nested at most `depth` deep. Returns 0 on success, 1 when
   the draw was too large to model (draw again), -1 when a library
   constructor failed (a bug: out->desc says which). Every constructor kind
   is reachable; kind_counts[k] counts the constructors used. */
int rtype_gen(rng *r, int depth, rtype *out, long *kind_counts);
void rtype_free(rtype *t);

#endif
