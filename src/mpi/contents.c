/* A derived datatype's constructor and arguments, read once for the
 * decoder and the structure cache (contents.h). */
#include <stdlib.h>
#include <string.h>
#include "contents.h"
#include "dataloop.h"

void dli_contents_free(dli_contents *c)
{
  for (MPI_Count i = 0; i < c->nd; i++) {
    MPI_Count ni, na, nc, nd;
    int comb;
    if (PMPI_Type_get_envelope_c(c->types[i], &ni, &na, &nc, &nd, &comb) != MPI_SUCCESS ||
        comb != MPI_COMBINER_NAMED)
      PMPI_Type_free(&c->types[i]);    /* get_contents returned a reference */
  }
  free(c->ints);
  free(c->aints);
  free(c->counts);
  free(c->types);
  free(c->v);
}

int dli_contents_get(MPI_Datatype dt, dli_contents *c)
{
  memset(c, 0, sizeof(*c));
  if (PMPI_Type_get_envelope_c(dt, &c->ni, &c->na, &c->nc, &c->nd, &c->comb) != MPI_SUCCESS)
    return DL_ERR_ARG;
  if (c->comb == MPI_COMBINER_NAMED)
    return DL_OK;
  c->ints = malloc(sizeof(int) * (size_t)(c->ni + 1));
  c->aints = malloc(sizeof(MPI_Aint) * (size_t)(c->na + 1));
  c->counts = malloc(sizeof(MPI_Count) * (size_t)(c->nc + 1));
  c->types = malloc(sizeof(MPI_Datatype) * (size_t)(c->nd + 1));
  c->v = malloc(sizeof(int64_t) * (size_t)(c->ni + c->na + c->nc + 1));
  if (!c->ints || !c->aints || !c->counts || !c->types || !c->v)
    return DL_ERR_NOMEM;
  MPI_Count nd = c->nd;
  c->nd = 0;          /* nothing to free until the call fills them */
  if (PMPI_Type_get_contents_c(dt, c->ni, c->na, c->nc, nd, c->ints, c->aints,
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
