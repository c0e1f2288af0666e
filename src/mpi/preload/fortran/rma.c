/* The mpif.h and `use mpi` entry points of the one-sided calls the
 * interposer serves, for a host whose Fortran bindings call the PMPI_
 * names (fortran.h). A window made from Fortran must be described as one
 * made from C (every rank's size and unit, collectively), and its
 * synchronizations must run the work the C calls deferred to them, so the
 * window calls come here as well as the operations. Not here:
 * MPI_Win_get_attr, MPI_Win_get_info and MPI_Win_shared_query, which
 * answer for themselves on a host whose MPI_Win_allocate windows stay its
 * own (DLP_DEV_ALLOCATE_UNLIKE_SHARED), as on Open MPI. Target
 * displacements and sizes are INTEGER(KIND=MPI_ADDRESS_KIND), so they
 * arrive as MPI_Aint. */
#include "fortran.h"

#define W(x) PMPI_Win_f2c(*(x))
#define O(x) PMPI_Op_f2c(*(x))
#define INFO(x) PMPI_Info_f2c(*(x))

/* ---- operations ---- */
#define TO_TARGET(l, U, call)                                                           \
  void l##_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,        \
            MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *win, MPI_Fint *ierr);                 \
  void l##_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,        \
            MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *win, MPI_Fint *ierr)                  \
  {                                                                                     \
    *ierr = call(fbuf(o), *oc, T(ot), *rank, *disp, *tc, T(tt), W(win));                \
  }                                                                                     \
  SPELLINGS(l, U)
TO_TARGET(mpi_put, MPI_PUT, MPI_Put);
TO_TARGET(mpi_get, MPI_GET, MPI_Get);

#define TO_TARGET_REQ(l, U, call)                                                       \
  void l##_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,        \
            MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *win, MPI_Fint *req, MPI_Fint *ierr);  \
  void l##_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,        \
            MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *win, MPI_Fint *req, MPI_Fint *ierr)   \
  {                                                                                     \
    MPI_Request r;                                                                      \
    *ierr = req_out(call(fbuf(o), *oc, T(ot), *rank, *disp, *tc, T(tt), W(win), &r),    \
                    &r, req);                                                           \
  }                                                                                     \
  SPELLINGS(l, U)
TO_TARGET_REQ(mpi_rput, MPI_RPUT, MPI_Rput);
TO_TARGET_REQ(mpi_rget, MPI_RGET, MPI_Rget);

void mpi_accumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,
                     MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win, MPI_Fint *ierr);
void mpi_accumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,
                     MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win, MPI_Fint *ierr)
{
  *ierr = MPI_Accumulate(fbuf(o), *oc, T(ot), *rank, *disp, *tc, T(tt), O(op), W(win));
}
SPELLINGS(mpi_accumulate, MPI_ACCUMULATE);

void mpi_raccumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,
                      MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win,
                      MPI_Fint *req, MPI_Fint *ierr);
void mpi_raccumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, MPI_Fint *rank, MPI_Aint *disp,
                      MPI_Fint *tc, MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win,
                      MPI_Fint *req, MPI_Fint *ierr)
{
  MPI_Request r;
  *ierr = req_out(
      MPI_Raccumulate(fbuf(o), *oc, T(ot), *rank, *disp, *tc, T(tt), O(op), W(win), &r), &r,
      req);
}
SPELLINGS(mpi_raccumulate, MPI_RACCUMULATE);

void mpi_get_accumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, void *res, MPI_Fint *rc,
                         MPI_Fint *rt, MPI_Fint *rank, MPI_Aint *disp, MPI_Fint *tc,
                         MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win, MPI_Fint *ierr);
void mpi_get_accumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, void *res, MPI_Fint *rc,
                         MPI_Fint *rt, MPI_Fint *rank, MPI_Aint *disp, MPI_Fint *tc,
                         MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win, MPI_Fint *ierr)
{
  *ierr = MPI_Get_accumulate(fbuf(o), *oc, T(ot), fbuf(res), *rc, T(rt), *rank, *disp, *tc,
                             T(tt), O(op), W(win));
}
SPELLINGS(mpi_get_accumulate, MPI_GET_ACCUMULATE);

void mpi_rget_accumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, void *res, MPI_Fint *rc,
                          MPI_Fint *rt, MPI_Fint *rank, MPI_Aint *disp, MPI_Fint *tc,
                          MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win, MPI_Fint *req,
                          MPI_Fint *ierr);
void mpi_rget_accumulate_(void *o, MPI_Fint *oc, MPI_Fint *ot, void *res, MPI_Fint *rc,
                          MPI_Fint *rt, MPI_Fint *rank, MPI_Aint *disp, MPI_Fint *tc,
                          MPI_Fint *tt, MPI_Fint *op, MPI_Fint *win, MPI_Fint *req,
                          MPI_Fint *ierr)
{
  MPI_Request r;
  *ierr = req_out(MPI_Rget_accumulate(fbuf(o), *oc, T(ot), fbuf(res), *rc, T(rt), *rank, *disp,
                                      *tc, T(tt), O(op), W(win), &r),
                  &r, req);
}
SPELLINGS(mpi_rget_accumulate, MPI_RGET_ACCUMULATE);

/* ---- windows made and freed: the handle out ---- */
/* (w by address: read once the call that sets it has returned, which an
   argument by value would not promise) */
static void win_out(int rc, const MPI_Win *w, MPI_Fint *win, MPI_Fint *ierr)
{
  *ierr = rc;
  if (rc == MPI_SUCCESS)
    *win = PMPI_Win_c2f(*w);
}

void mpi_win_create_(void *base, MPI_Aint *size, MPI_Fint *unit, MPI_Fint *info,
                     MPI_Fint *comm, MPI_Fint *win, MPI_Fint *ierr);
void mpi_win_create_(void *base, MPI_Aint *size, MPI_Fint *unit, MPI_Fint *info,
                     MPI_Fint *comm, MPI_Fint *win, MPI_Fint *ierr)
{
  MPI_Win w = MPI_WIN_NULL;
  win_out(MPI_Win_create(base, *size, *unit, INFO(info), C(comm), &w), &w, win, ierr);
}
SPELLINGS(mpi_win_create, MPI_WIN_CREATE);

/* baseptr: an INTEGER(KIND=MPI_ADDRESS_KIND) that receives the address */
#define ALLOCATE(l, U, call)                                                            \
  void l##_(MPI_Aint *size, MPI_Fint *unit, MPI_Fint *info, MPI_Fint *comm,             \
            void *baseptr, MPI_Fint *win, MPI_Fint *ierr);                              \
  void l##_(MPI_Aint *size, MPI_Fint *unit, MPI_Fint *info, MPI_Fint *comm,             \
            void *baseptr, MPI_Fint *win, MPI_Fint *ierr)                               \
  {                                                                                     \
    MPI_Win w = MPI_WIN_NULL;                                                           \
    win_out(call(*size, *unit, INFO(info), C(comm), baseptr, &w), &w, win, ierr);        \
  }                                                                                     \
  SPELLINGS(l, U)
ALLOCATE(mpi_win_allocate, MPI_WIN_ALLOCATE, MPI_Win_allocate);
ALLOCATE(mpi_win_allocate_shared, MPI_WIN_ALLOCATE_SHARED, MPI_Win_allocate_shared);

void mpi_win_create_dynamic_(MPI_Fint *info, MPI_Fint *comm, MPI_Fint *win, MPI_Fint *ierr);
void mpi_win_create_dynamic_(MPI_Fint *info, MPI_Fint *comm, MPI_Fint *win, MPI_Fint *ierr)
{
  MPI_Win w = MPI_WIN_NULL;
  win_out(MPI_Win_create_dynamic(INFO(info), C(comm), &w), &w, win, ierr);
}
SPELLINGS(mpi_win_create_dynamic, MPI_WIN_CREATE_DYNAMIC);

void mpi_win_free_(MPI_Fint *win, MPI_Fint *ierr);
void mpi_win_free_(MPI_Fint *win, MPI_Fint *ierr)
{
  MPI_Win w = W(win);
  win_out(MPI_Win_free(&w), &w, win, ierr);
}
SPELLINGS(mpi_win_free, MPI_WIN_FREE);

/* ---- synchronizations ---- */
#define ON_WIN(l, U, call)                                                              \
  void l##_(MPI_Fint *win, MPI_Fint *ierr);                                             \
  void l##_(MPI_Fint *win, MPI_Fint *ierr)                                              \
  {                                                                                     \
    *ierr = call(W(win));                                                               \
  }                                                                                     \
  SPELLINGS(l, U)
ON_WIN(mpi_win_complete, MPI_WIN_COMPLETE, MPI_Win_complete);
ON_WIN(mpi_win_unlock_all, MPI_WIN_UNLOCK_ALL, MPI_Win_unlock_all);
ON_WIN(mpi_win_flush_all, MPI_WIN_FLUSH_ALL, MPI_Win_flush_all);
ON_WIN(mpi_win_flush_local_all, MPI_WIN_FLUSH_LOCAL_ALL, MPI_Win_flush_local_all);

/* one integer (a rank, or an assertion) and the window */
#define INT_WIN(l, U, call)                                                             \
  void l##_(MPI_Fint *k, MPI_Fint *win, MPI_Fint *ierr);                                \
  void l##_(MPI_Fint *k, MPI_Fint *win, MPI_Fint *ierr)                                 \
  {                                                                                     \
    *ierr = call(*k, W(win));                                                           \
  }                                                                                     \
  SPELLINGS(l, U)
INT_WIN(mpi_win_fence, MPI_WIN_FENCE, MPI_Win_fence);
INT_WIN(mpi_win_unlock, MPI_WIN_UNLOCK, MPI_Win_unlock);
INT_WIN(mpi_win_flush, MPI_WIN_FLUSH, MPI_Win_flush);
INT_WIN(mpi_win_flush_local, MPI_WIN_FLUSH_LOCAL, MPI_Win_flush_local);
INT_WIN(mpi_win_lock_all, MPI_WIN_LOCK_ALL, MPI_Win_lock_all);

#define GROUP_WIN(l, U, call)                                                           \
  void l##_(MPI_Fint *group, MPI_Fint *assert, MPI_Fint *win, MPI_Fint *ierr);          \
  void l##_(MPI_Fint *group, MPI_Fint *assert, MPI_Fint *win, MPI_Fint *ierr)           \
  {                                                                                     \
    *ierr = call(PMPI_Group_f2c(*group), *assert, W(win));                              \
  }                                                                                     \
  SPELLINGS(l, U)
GROUP_WIN(mpi_win_start, MPI_WIN_START, MPI_Win_start);
GROUP_WIN(mpi_win_post, MPI_WIN_POST, MPI_Win_post);

void mpi_win_lock_(MPI_Fint *type, MPI_Fint *rank, MPI_Fint *assert, MPI_Fint *win,
                   MPI_Fint *ierr);
void mpi_win_lock_(MPI_Fint *type, MPI_Fint *rank, MPI_Fint *assert, MPI_Fint *win,
                   MPI_Fint *ierr)
{
  *ierr = MPI_Win_lock(*type, *rank, *assert, W(win));
}
SPELLINGS(mpi_win_lock, MPI_WIN_LOCK);
