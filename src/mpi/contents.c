/* A derived datatype's constructor and arguments, read once for the
 * decoder and the structure cache (contents.h). */
#include <stdlib.h>
#include <string.h>
#include "contents.h"
#include "dataloop.h"
#include "named.h"

void dli_contents_release(MPI_Datatype *dt)
{
  MPI_Count ni, na, nc, nd;
  int comb;
  if (!dli_named_type(*dt) &&
      (dli_mpi_envelope(*dt, &ni, &na, &nc, &nd, &comb) != MPI_SUCCESS ||
       comb != MPI_COMBINER_NAMED))
    PMPI_Type_free(dt);    /* get_contents returned a reference */
}

void dli_contents_free(dli_contents *c)
{
  for (MPI_Count i = 0; i < c->nd; i++)
    dli_contents_release(&c->types[i]);
  if (c->block != c->small)
    free(c->block);
  c->block = NULL;
}

/* n elements of size sz from *at, 8-byte aligned */
static void *carve(char **at, MPI_Count n, size_t sz)
{
  void *p = *at;
  *at += ((size_t)(n + 1) * sz + 7) & ~(size_t)7;
  return p;
}

int dli_contents_get(MPI_Datatype dt, dli_contents *c)
{
  c->comb = 0;
  c->ni = c->na = c->nc = c->nd = 0;
  c->ints = NULL;
  c->aints = NULL;
  c->counts = NULL;
  c->types = NULL;
  c->v = NULL;
  c->block = NULL;
  if (dli_mpi_envelope(dt, &c->ni, &c->na, &c->nc, &c->nd, &c->comb) != MPI_SUCCESS)
    return DL_ERR_ARG;
  if (c->comb == MPI_COMBINER_NAMED)
    return DL_OK;
  size_t r8 = 7;   /* rounding of each of the five arrays */
  size_t need = (size_t)(c->ni + 1) * sizeof(int) + (size_t)(c->na + 1) * sizeof(MPI_Aint) +
                (size_t)(c->nc + 1) * sizeof(MPI_Count) +
                (size_t)(c->nd + 1) * sizeof(MPI_Datatype) +
                (size_t)(c->ni + c->na + c->nc + 1) * sizeof(int64_t) + 5 * r8;
  c->block = need <= sizeof(c->small) ? (void *)c->small : malloc(need);
  if (!c->block)
    return DL_ERR_NOMEM;
  char *at = c->block;
  c->v = carve(&at, c->ni + c->na + c->nc, sizeof(int64_t));
  c->aints = carve(&at, c->na, sizeof(MPI_Aint));
  c->counts = carve(&at, c->nc, sizeof(MPI_Count));
  c->types = carve(&at, c->nd, sizeof(MPI_Datatype));
  c->ints = carve(&at, c->ni, sizeof(int));
  MPI_Count nd = c->nd;
  c->nd = 0;          /* nothing to free until the call fills them */
  if (dli_mpi_contents(dt, c->ni, c->na, c->nc, nd, c->ints, c->aints,
                               c->counts, c->types) != MPI_SUCCESS)
    return DL_ERR_ARG;
  c->nd = nd;
  MPI_Count k = 0;
  if (c->nc > 0 && c->comb != MPI_COMBINER_SUBARRAY && c->comb != MPI_COMBINER_DARRAY) {
    for (MPI_Count i = 0; i < c->nc; i++)
      c->v[k++] = c->counts[i];
  } else {
    for (MPI_Count i = 0; i < c->ni; i++)
      c->v[k++] = c->ints[i];
    for (MPI_Count i = 0; i < c->na; i++)
      c->v[k++] = c->aints[i];
  }
  return DL_OK;
}
