/* What the host's Fortran entry points of the interposer share (Open
 * MPI's build: fortran.c, the point-to-point and MPI_Pack calls; rma.c,
 * the one-sided ones; coll.c, the collectives): the host's sentinels,
 * statuses, the four spellings of a name, character arguments and
 * handles. */
#ifndef DLP_FORTRAN_H
#define DLP_FORTRAN_H

#include <string.h>
#include "../p2p/p2p.h"

/* the host's Fortran sentinels (Open MPI: common blocks of libmpi) */
extern int mpi_fortran_bottom_, mpi_fortran_status_ignore_, mpi_fortran_in_place_;

static inline void *fbuf(void *b)
{
  return b == (void *)&mpi_fortran_bottom_ ? MPI_BOTTOM : b;
}

/* a buffer that may also be MPI_IN_PLACE (the collectives') */
static inline void *fbuf_in_place(void *b)
{
  return b == (void *)&mpi_fortran_in_place_ ? MPI_IN_PLACE : fbuf(b);
}

static inline bool fignore(const MPI_Fint *st)
{
  return st == (const MPI_Fint *)&mpi_fortran_status_ignore_;
}

/* a C status for a Fortran one: the local one, or none */
#define STATUS_IN(f, c) MPI_Status c##_local, *c = fignore(f) ? MPI_STATUS_IGNORE : &c##_local
#define STATUS_OUT(f, c)                \
  do {                                  \
    if (c != MPI_STATUS_IGNORE)         \
      PMPI_Status_c2f(c, f);            \
  } while (0)

/* a nonblocking call's result for Fortran: its error code, and the new
 * request's handle where it succeeded (read through its address, after
 * the call has set it) */
static inline MPI_Fint req_out(int rc, const MPI_Request *r, MPI_Fint *req)
{
  if (rc == MPI_SUCCESS)
    *req = PMPI_Request_c2f(*r);
  return rc;
}

/* the other spellings of a defined name */
#define SPELLINGS(l, U)                                      \
  __typeof__(l##_) l##__ __attribute__((alias(#l "_")));     \
  __typeof__(l##_) l __attribute__((alias(#l "_")));         \
  __typeof__(l##_) U __attribute__((alias(#l "_")))

/* character arguments: blank-padded, their length passed last */
static inline void fstring(const char *f, size_t len, char *out, size_t cap)
{
  while (len > 0 && f[len - 1] == ' ')
    len--;
  while (len > 0 && *f == ' ') {
    f++;
    len--;
  }
  if (len >= cap)
    len = cap - 1;
  memcpy(out, f, len);
  out[len] = '\0';
}

#define T(x) PMPI_Type_f2c(*(x))
#define C(x) PMPI_Comm_f2c(*(x))

#endif
