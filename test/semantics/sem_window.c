/* A window is what MPI made of the program's call, whatever the
 * interposer records about it: a window of MPI_Win_allocate reports the
 * flavor MPI_WIN_FLAVOR_ALLOCATE and never alloc_shared_noncontig true
 * unless the program asked it (false or unset by default: MPICH says
 * false, Open MPI's components differ); one-sided operations of derived
 * types on it complete at the fence, and at the end of a lock epoch; so
 * do those on a window of MPI_COMM_SELF, which the interposer serves in a
 * job of preloaded and plain ranks too. */
#include "sem.h"

/* key of w's info is one of want (values separated by '|', "unset" for
   none) */
static void info_is(MPI_Win w, const char *key, const char *want, const char *what)
{
  MPI_Info info;
  OK(MPI_Win_get_info(w, &info));
  char v[64] = "", have[72];
  int flag = 0;
  MPI_Info_get(info, key, (int)sizeof(v) - 1, v, &flag);
  snprintf(have, sizeof have, "|%s|", flag ? v : "unset");
  char wants[128];
  snprintf(wants, sizeof wants, "|%s|", want);
  CHECK(strstr(wants, have) != NULL, "%s: %s is %s, %s expected", what, key,
        flag ? v : "(unset)", want);
  MPI_Info_free(&info);
}

static void one(int asked)
{
  const char *what = asked ? "MPI_Win_allocate asking alloc_shared_noncontig"
                           : "MPI_Win_allocate";
  MPI_Info hint = MPI_INFO_NULL;
  if (asked) {
    MPI_Info_create(&hint);
    MPI_Info_set(hint, "alloc_shared_noncontig", "true");
  }
  double *base;
  MPI_Win w;
  OK(MPI_Win_allocate(64 * sizeof(double), sizeof(double), hint, MPI_COMM_WORLD, &base,
                      &w));
  if (hint != MPI_INFO_NULL)
    MPI_Info_free(&hint);
  int *flavor = NULL, flag = 0;
  OK(MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "%s: flavor %d", what,
        flag ? *flavor : -1);
  info_is(w, "alloc_shared_noncontig", asked ? "true|unset" : "false|unset", what);
  for (int i = 0; i < 64; i++)
    base[i] = -1.0;
  MPI_Datatype every3;
  MPI_Type_vector(10, 1, 3, MPI_DOUBLE, &every3);
  MPI_Type_commit(&every3);
  double src[30], got[30];
  for (int i = 0; i < 30; i++)
    src[i] = 100.0 * (sem_rank + 1) + i;
  int peer = 1 - (sem_rank & 1);
  OK(MPI_Win_fence(0, w));
  if (sem_rank < 2)
    OK(MPI_Put(src, 1, every3, peer, 2, 1, every3, w));
  OK(MPI_Win_fence(0, w));
  if (sem_rank < 2)
    for (int i = 0; i < 10; i++)
      CHECK(base[2 + 3 * i] == 100.0 * (peer + 1) + 3 * i,
            "%s: after the fence, element %d is %g", what, 2 + 3 * i, base[2 + 3 * i]);
  MPI_Barrier(MPI_COMM_WORLD);
  /* (MPI_Rget in place of MPI_Get: MPICH 4.0.2's own has, now and then,
     not delivered when its wait returns, doc/mpi.md) */
  if (sem_rank < 2) {
    memset(got, 0, sizeof got);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w));
    OK(MPI_Get(got, 1, every3, peer, 2, 1, every3, w));
    OK(MPI_Win_unlock(peer, w));
    for (int i = 0; i < 10; i++)
      CHECK(got[3 * i] == 100.0 * (sem_rank + 1) + 3 * i,
            "%s: MPI_Get after its epoch, element %d is %g", what, 3 * i, got[3 * i]);
  }
  MPI_Type_free(&every3);
  OK(MPI_Win_free(&w));
}

/* a window of one rank (MPI_COMM_SELF): no peer to find, in any job.
   Created over the program's memory, or where the host makes no such
   window (Open MPI 4.1 without a one-sided transport to itself:
   MPI_ERR_WIN), allocated */
static void self_window(void)
{
  double mem[40], src[30], got[30];
  for (int i = 0; i < 40; i++)
    mem[i] = -1.0;
  for (int i = 0; i < 30; i++)
    src[i] = 7.0 * sem_rank + i;
  MPI_Datatype every3;
  MPI_Type_vector(10, 1, 3, MPI_DOUBLE, &every3);
  MPI_Type_commit(&every3);
  MPI_Win w;
  double *at = mem;
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  if (MPI_Win_create(mem, sizeof(mem), sizeof(double), MPI_INFO_NULL, MPI_COMM_SELF, &w) !=
      MPI_SUCCESS) {
    OK(MPI_Win_allocate(sizeof(mem), sizeof(double), MPI_INFO_NULL, MPI_COMM_SELF, &at, &w));
    memcpy(at, mem, sizeof(mem));
  }
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  OK(MPI_Win_fence(0, w));
  OK(MPI_Put(src, 1, every3, 0, 1, 1, every3, w));
  OK(MPI_Win_fence(0, w));
  for (int i = 0; i < 40; i++)
    CHECK(at[i] == (i >= 1 && (i - 1) % 3 == 0 && i < 30 ? src[i - 1] : -1.0),
          "a window of MPI_COMM_SELF: after the fence, element %d is %g", i, at[i]);
  memset(got, 0, sizeof got);
  OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
  OK(MPI_Get(got, 1, every3, 0, 1, 1, every3, w));
  OK(MPI_Win_unlock(0, w));
  for (int i = 0; i < 10; i++)
    CHECK(got[3 * i] == src[3 * i], "a window of MPI_COMM_SELF: MPI_Get, element %d is %g",
          3 * i, got[3 * i]);
  MPI_Type_free(&every3);
  OK(MPI_Win_free(&w));
}

int main(int argc, char **argv)
{
  sem_init(&argc, &argv);
  one(0);
  one(1);
  self_window();
  return sem_finish("sem_window");
}
