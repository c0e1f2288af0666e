/* One MPICH operation of a described one-sided operation (rma.h), in
 * the _c forms: what every one-sided route and the request forms issue. */
#include "../base/host.h"
#include "rma.h"

int dlp_rma_issue(const rma *x, const void *from, void *to, MPI_Count n, MPI_Aint disp,
                 MPI_Count tcount, MPI_Datatype tdt, MPI_Request *req)
{
  MPI_Count k = n / x->esize;
  int r = x->rank;
  MPI_Win w = x->win;
  switch (x->kind) {
  case PUT:
    return req ? PMPI_Rput_c(from, k, x->el, r, disp, tcount, tdt, w, req)
               : PMPI_Put_c(from, k, x->el, r, disp, tcount, tdt, w);
  case GET:
    /* DLP_DEV_COMPLETE_EARLY_GET: MPI_Win_complete can return before
       contiguous gets that followed accumulates have arrived, and
       get-accumulates it waits for: a get of bytes onto a target of bytes
       goes as one */
    if (x->read_acc && !req && tdt == x->el && dlp_host_has(DLP_DEV_COMPLETE_EARLY_GET))
      return PMPI_Get_accumulate_c(NULL, 0, x->el, to, k, x->el, r, disp, tcount, tdt,
                                   MPI_NO_OP, w);
    return req ? PMPI_Rget_c(to, k, x->el, r, disp, tcount, tdt, w, req)
               : PMPI_Get_c(to, k, x->el, r, disp, tcount, tdt, w);
  case ACC:
    return req ? PMPI_Raccumulate_c(from, k, x->el, r, disp, tcount, tdt, x->op, w, req)
               : PMPI_Accumulate_c(from, k, x->el, r, disp, tcount, tdt, x->op, w);
  default:   /* MPI_NO_OP ignores the operand: the results stand in */
    if (!from)
      from = to;
    return req ? PMPI_Rget_accumulate_c(from, k, x->el, to, k, x->el, r, disp, tcount,
                                        tdt, x->op, w, req)
               : PMPI_Get_accumulate_c(from, k, x->el, to, k, x->el, r, disp, tcount,
                                       tdt, x->op, w);
  }
}

/* ---- routes ---- */
