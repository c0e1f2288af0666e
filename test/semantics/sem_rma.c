/* One-sided operations move the type maps' elements (MPI 4.0, 12.3): a
 * put of a strided origin type onto a strided target type writes the
 * origin's elements in order at the target type's displacements and
 * nothing else, a get reads them back the same way, an accumulate adds
 * element by element and a get-accumulate also returns the old elements;
 * in every form (the large-count _c forms, the request forms in passive
 * target epochs), on every window flavor (created, allocated, shared,
 * dynamic) and under every synchronization that completes them (fence,
 * post-start-complete-wait, lock, lock with flush, lock_all with flush_all
 * or with flush_local and flush_local_all). Each rank targets the other. */
#include "sem.h"
#include "sem_large.h"

#define PER 6
#define N (2 * PER)              /* elements of an operation */
#define WIN 64                   /* doubles of a window */
#define DISP 4                   /* the target type's first element */
#define HOLE -1.0

static MPI_Datatype vec, every2; /* origin: 2 vecs; target: N doubles 2 apart */

static int at(int k)
{
  return (k / PER) * 8 + (k % PER / 2) * 3 + k % 2;
}

static double value(int rank, int k)
{
  return 1000.0 * (rank + 1) + k;
}

static double base_of(int rank, int i)
{
  return 100.0 * (rank + 1) + i;
}

enum { F_CREATE, F_CREATE_C, F_ALLOCATE, F_ALLOCATE_C, F_SHARED, F_SHARED_C, F_DYNAMIC, NF };
static const char *const flavor_name[NF] = {"MPI_Win_create", "MPI_Win_create_c",
                                            "MPI_Win_allocate", "MPI_Win_allocate_c",
                                            "MPI_Win_allocate_shared",
                                            "MPI_Win_allocate_shared_c",
                                            "MPI_Win_create_dynamic"};
enum { Y_FENCE, Y_PSCW, Y_LOCK, Y_LOCK_FLUSH, Y_ALL_FLUSH, Y_ALL_LOCAL, NY };
static const char *const sync_name[NY] = {"fence", "post/start/complete/wait", "lock",
                                          "lock, flush", "lock_all, flush_all",
                                          "lock_all, flush_local, flush_local_all"};
enum { O_PUT, O_GET, O_ACC, O_GACC, NO };
static const char *const op_name[NO][4] = {
  {"MPI_Put", "MPI_Put_c", "MPI_Rput", "MPI_Rput_c"},
  {"MPI_Get", "MPI_Get_c", "MPI_Rget", "MPI_Rget_c"},
  {"MPI_Accumulate", "MPI_Accumulate_c", "MPI_Raccumulate", "MPI_Raccumulate_c"},
  {"MPI_Get_accumulate", "MPI_Get_accumulate_c", "MPI_Rget_accumulate",
   "MPI_Rget_accumulate_c"}};

typedef struct win {
  MPI_Win w;
  double *mem;                   /* this rank's window memory */
  double *peer_mem;              /* the peer's, mapped (shared windows) */
  MPI_Aint disp;                 /* the peer's target displacement of DISP */
  void *own;                     /* memory to free (create, dynamic) */
  bool dynamic;                  /* own attached */
} win;

static void make(int f, win *x)
{
  int peer = 1 - sem_rank;
  MPI_Comm c = MPI_COMM_WORLD;
  MPI_Aint size = WIN * sizeof(double);
  *x = (win){.disp = DISP};
  switch (f) {
  case F_CREATE:
  case F_CREATE_C:
  case F_DYNAMIC:
    x->mem = x->own = malloc((size_t)size);
    if (f == F_CREATE)
      OK(MPI_Win_create(x->mem, size, sizeof(double), MPI_INFO_NULL, c, &x->w));
    else if (f == F_CREATE_C)
      OK(MPI_Win_create_c(x->mem, size, sizeof(double), MPI_INFO_NULL, c, &x->w));
    else {
      OK(MPI_Win_create_dynamic(MPI_INFO_NULL, c, &x->w));
      x->dynamic = true;
      OK(MPI_Win_attach(x->w, x->mem, size));
      MPI_Aint mine, all[2];
      MPI_Get_address(x->mem, &mine);
      MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, c);
      x->disp = MPI_Aint_add(all[peer], DISP * sizeof(double));
    }
    break;
  case F_ALLOCATE:
    OK(MPI_Win_allocate(size, sizeof(double), MPI_INFO_NULL, c, &x->mem, &x->w));
    break;
  case F_ALLOCATE_C:
    OK(MPI_Win_allocate_c(size, sizeof(double), MPI_INFO_NULL, c, &x->mem, &x->w));
    break;
  case F_SHARED:
  case F_SHARED_C: {
    if (f == F_SHARED)
      OK(MPI_Win_allocate_shared(size, sizeof(double), MPI_INFO_NULL, c, &x->mem, &x->w));
    else
      OK(MPI_Win_allocate_shared_c(size, sizeof(double), MPI_INFO_NULL, c, &x->mem, &x->w));
    MPI_Aint psize = 0;
    int unit = 0;
    OK(MPI_Win_shared_query(x->w, peer, &psize, &unit, &x->peer_mem));
    CHECK(psize == size && unit == (int)sizeof(double),
          "MPI_Win_shared_query: size %ld unit %d", (long)psize, unit);
    break;
  }
  }
}

static void unmake(win *x)
{
  if (x->dynamic)
    OK(MPI_Win_detach(x->w, x->mem));
  OK(MPI_Win_free(&x->w));
  free(x->own);
}

/* the operation of kind o in form (0 plain, 1 _c, 2 request, 3 request
   _c); a request form's request waited for */
static void issue(int o, int form, win *x, const double *origin, double *result)
{
  int peer = 1 - sem_rank;
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Win w = x->w;
  MPI_Aint d = x->disp;
  void *o_buf = (void *)origin;
  switch (o * 4 + form) {
  case 0: OK(MPI_Put(o_buf, 2, vec, peer, d, 1, every2, w)); break;
  case 1: OK(MPI_Put_c(o_buf, 2, vec, peer, d, 1, every2, w)); break;
  case 2: OK(MPI_Rput(o_buf, 2, vec, peer, d, 1, every2, w, &r)); break;
  case 3: OK(MPI_Rput_c(o_buf, 2, vec, peer, d, 1, every2, w, &r)); break;
  case 4: OK(MPI_Get(result, 2, vec, peer, d, 1, every2, w)); break;
  case 5: OK(MPI_Get_c(result, 2, vec, peer, d, 1, every2, w)); break;
  case 6: OK(MPI_Rget(result, 2, vec, peer, d, 1, every2, w, &r)); break;
  case 7: OK(MPI_Rget_c(result, 2, vec, peer, d, 1, every2, w, &r)); break;
  case 8: OK(MPI_Accumulate(o_buf, 2, vec, peer, d, 1, every2, MPI_SUM, w)); break;
  case 9: OK(MPI_Accumulate_c(o_buf, 2, vec, peer, d, 1, every2, MPI_SUM, w)); break;
  case 10: OK(MPI_Raccumulate(o_buf, 2, vec, peer, d, 1, every2, MPI_SUM, w, &r)); break;
  case 11: OK(MPI_Raccumulate_c(o_buf, 2, vec, peer, d, 1, every2, MPI_SUM, w, &r)); break;
  case 12:
    OK(MPI_Get_accumulate(o_buf, 2, vec, result, 2, vec, peer, d, 1, every2, MPI_SUM, w));
    break;
  case 13:
    OK(MPI_Get_accumulate_c(o_buf, 2, vec, result, 2, vec, peer, d, 1, every2, MPI_SUM, w));
    break;
  case 14:
    OK(MPI_Rget_accumulate(o_buf, 2, vec, result, 2, vec, peer, d, 1, every2, MPI_SUM, w,
                           &r));
    break;
  case 15:
    OK(MPI_Rget_accumulate_c(o_buf, 2, vec, result, 2, vec, peer, d, 1, every2, MPI_SUM,
                             w, &r));
    break;
  }
  if (form >= 2)
    OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
}

/* this rank's window after the peer's operation o, and (gets) what this
   rank's own operation returned */
static void check(int o, const win *x, const double *result, const char *what)
{
  int peer = 1 - sem_rank;
  bool writes = o != O_GET;
  for (int i = 0; i < WIN; i++) {
    int k = i - DISP;
    double want = base_of(sem_rank, i);
    if (writes && k >= 0 && k % 2 == 0 && k / 2 < N)
      want = o == O_PUT ? value(peer, k / 2) : want + value(peer, k / 2);
    if (x->mem[i] != want) {
      CHECK(0, "%s: window double %d is %g, not %g", what, i, x->mem[i], want);
      break;
    }
  }
  if (o == O_GET || o == O_GACC)
    for (int k = 0; k < N; k++)
      if (result[at(k)] != base_of(peer, DISP + 2 * k)) {
        CHECK(0, "%s: element %d read is %g, not %g", what, k, result[at(k)],
              base_of(peer, DISP + 2 * k));
        break;
      }
  if (x->peer_mem)
    for (int k = 0; k < N && writes; k++) {
      double want = o == O_PUT ? value(sem_rank, k)
                               : base_of(peer, DISP + 2 * k) + value(sem_rank, k);
      if (x->peer_mem[DISP + 2 * k] != want) {
        CHECK(0, "%s: the peer's window through MPI_Win_shared_query, element %d is %g, "
              "not %g", what, k, x->peer_mem[DISP + 2 * k], want);
        break;
      }
    }
}

static void epoch(int f, int y, int o, int form, win *x)
{
  int peer = 1 - sem_rank;
  char what[192];
  snprintf(what, sizeof(what), "%s on %s, %s", op_name[o][form], flavor_name[f],
           sync_name[y]);
  double origin[16], result[16];
  for (int i = 0; i < 16; i++)
    origin[i] = result[i] = HOLE;
  for (int k = 0; k < N; k++)
    origin[at(k)] = value(sem_rank, k);
  OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, sem_rank, 0, x->w));
  for (int i = 0; i < WIN; i++)
    x->mem[i] = base_of(sem_rank, i);
  OK(MPI_Win_unlock(sem_rank, x->w));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Group world, other;
  switch (y) {
  case Y_FENCE:
    OK(MPI_Win_fence(0, x->w));
    issue(o, form, x, origin, result);
    OK(MPI_Win_fence(0, x->w));
    break;
  case Y_PSCW:
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &other);
    OK(MPI_Win_post(other, 0, x->w));
    OK(MPI_Win_start(other, 0, x->w));
    issue(o, form, x, origin, result);
    OK(MPI_Win_complete(x->w));
    OK(MPI_Win_wait(x->w));
    MPI_Group_free(&other);
    MPI_Group_free(&world);
    break;
  case Y_LOCK:
    OK(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, x->w));
    issue(o, form, x, origin, result);
    OK(MPI_Win_unlock(peer, x->w));
    break;
  case Y_LOCK_FLUSH:
  case Y_ALL_FLUSH:
  case Y_ALL_LOCAL:
    if (y == Y_LOCK_FLUSH)
      OK(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, x->w));
    else
      OK(MPI_Win_lock_all(0, x->w));
    issue(o, form, x, origin, result);
    if (y == Y_LOCK_FLUSH)
      OK(MPI_Win_flush(peer, x->w));
    else if (y == Y_ALL_FLUSH)
      OK(MPI_Win_flush_all(x->w));
    else {
      OK(MPI_Win_flush_local(peer, x->w));
      OK(MPI_Win_flush_local_all(x->w));
      OK(MPI_Win_flush(peer, x->w));   /* (local completion says nothing of the target) */
    }
    /* the peer's operation on this window is complete: seen here (the
       window's memory synchronized) while the epoch is still open */
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_sync(x->w));
    if (o != O_GET && o != O_GACC)
      check(o, x, result, what);
    MPI_Barrier(MPI_COMM_WORLD);
    if (y == Y_LOCK_FLUSH)
      OK(MPI_Win_unlock(peer, x->w));
    else
      OK(MPI_Win_unlock_all(x->w));
    break;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  OK(MPI_Win_lock(MPI_LOCK_SHARED, sem_rank, 0, x->w));
  check(o, x, result, what);
  OK(MPI_Win_unlock(sem_rank, x->w));
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  int np;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np != 2) {
    if (sem_rank == 0)
      fprintf(stderr, "sem_rma runs on two ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &every2);
  MPI_Type_commit(&every2);
  for (int f = 0; f < NF; f++) {
    win x;
    make(f, &x);
    for (int y = 0; y < NY; y++)
      for (int o = 0; o < NO; o++)
        for (int form = 0; form < 4; form++)
          /* the request forms belong to passive target epochs */
          if (form < 2 || y >= Y_LOCK)
            epoch(f, y, o, form, &x);
    unmake(&x);
  }
  MPI_Type_free(&every2);
  MPI_Type_free(&vec);
  return sem_finish("sem_rma");
}
