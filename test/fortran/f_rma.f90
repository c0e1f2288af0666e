! One-sided calls of derived types from Fortran (`use mpi`), on 2 ranks:
! the window kinds Open MPI offers (created, allocated, allocated shared)
! under each synchronization (fence, post-start-complete-wait, lock,
! lock_all with flushes), every operation the interposer serves for
! Fortran callers, each result checked against the data, so that the same
! program passes plainly and preloaded (test/fortran-openmpi.sh compares
! the interposer's counts). Each rank targets the other.
program f_rma
  use mpi
  implicit none
  integer, parameter :: nb = 50, st = 3, wn = nb * st + 8
  integer :: ierr, rank, nprocs, peer, vt, win, kind, k, errs, req, grp, world, i
  integer :: dunit
  double precision :: src(nb), got(nb), res(nb)
  double precision, target :: mem(wn)
  double precision, pointer :: w(:)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp, base

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 2) then
    print *, 'f_rma: run on 2 ranks'
    call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  end if
  peer = 1 - rank
  ! nb doubles st apart: the target's layout
  call mpi_type_vector(nb, 1, st, MPI_DOUBLE_PRECISION, vt, ierr)
  call mpi_type_commit(vt, ierr)
  call mpi_comm_group(MPI_COMM_WORLD, world, ierr)
  call mpi_group_incl(world, 1, (/ peer /), grp, ierr)
  wsize = wn * 8
  dunit = 8
  disp = 2
  do i = 1, nb
    src(i) = 1000 * (rank + 1) + i
  end do

  do kind = 1, 3
    select case (kind)
    case (1)
      call mpi_win_create(mem, wsize, dunit, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
      w => mem
    case (2)
      call mpi_win_allocate(wsize, dunit, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
      call c_f_pointer_of(base, w)
    case (3)
      call mpi_win_allocate_shared(wsize, dunit, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, &
                                   ierr)
      call c_f_pointer_of(base, w)
    end select
    do k = 1, 5
      ! the window starts at -1 everywhere, this rank's own epoch
      call mpi_win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win, ierr)
      w(1:wn) = -1
      call mpi_win_unlock(rank, win, ierr)
      call mpi_barrier(MPI_COMM_WORLD, ierr)
      got = 0
      res = 0
      select case (k)
      case (1)   ! put, then get it back, in fence epochs
        call mpi_win_fence(0, win, ierr)
        call mpi_put(src, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, ierr)
        call mpi_win_fence(0, win, ierr)
        call mpi_get(got, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, ierr)
        call mpi_win_fence(0, win, ierr)
      case (2)   ! accumulate onto the put, post-start-complete-wait
        call mpi_win_post(grp, 0, win, ierr)
        call mpi_win_start(grp, 0, win, ierr)
        call mpi_put(src, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, ierr)
        call mpi_win_complete(win, ierr)
        call mpi_win_wait(win, ierr)
        call mpi_barrier(MPI_COMM_WORLD, ierr)
        call mpi_win_post(grp, 0, win, ierr)
        call mpi_win_start(grp, 0, win, ierr)
        call mpi_accumulate(src, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, MPI_SUM, win, &
                            ierr)
        call mpi_win_complete(win, ierr)
        call mpi_win_wait(win, ierr)
        call mpi_barrier(MPI_COMM_WORLD, ierr)
        call mpi_win_lock(MPI_LOCK_SHARED, peer, 0, win, ierr)
        call mpi_get(got, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, ierr)
        call mpi_win_unlock(peer, win, ierr)
        got = got / 2
      case (3)   ! request forms in a lock epoch, flushed
        call mpi_win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win, ierr)
        call mpi_rput(src, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, req, ierr)
        call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
        call mpi_win_flush(peer, win, ierr)
        call mpi_rget(got, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, req, ierr)
        call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
        call mpi_win_flush_local(peer, win, ierr)
        call mpi_win_unlock(peer, win, ierr)
      case (4)   ! get-accumulates under lock_all: the old values come back
        call mpi_win_lock_all(0, win, ierr)
        call mpi_raccumulate(src, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, MPI_REPLACE, &
                             win, req, ierr)
        call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
        call mpi_win_flush_all(win, ierr)
        call mpi_get_accumulate(src, nb, MPI_DOUBLE_PRECISION, res, nb, &
                                MPI_DOUBLE_PRECISION, peer, disp, 1, vt, MPI_SUM, win, ierr)
        call mpi_win_flush_local_all(win, ierr)
        call mpi_rget_accumulate(src, nb, MPI_DOUBLE_PRECISION, got, nb, &
                                 MPI_DOUBLE_PRECISION, peer, disp, 1, vt, MPI_NO_OP, win, &
                                 req, ierr)
        call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
        call mpi_win_unlock_all(win, ierr)
        got = got / 2
        ! the old values: what the replace put
        do i = 1, nb
          if (res(i) /= src(i)) errs = errs + 1
        end do
      case (5)   ! an origin of one contiguous derived type, in fence epochs
        call mpi_win_fence(0, win, ierr)
        call mpi_put(src, 1, vt_of_src(), peer, disp, 1, vt, win, ierr)
        call mpi_win_fence(0, win, ierr)
        call mpi_get(got, nb, MPI_DOUBLE_PRECISION, peer, disp, 1, vt, win, ierr)
        call mpi_win_fence(0, win, ierr)
      end select
      ! what came back is what this rank put, in its order
      do i = 1, nb
        if (got(i) /= src(i)) then
          errs = errs + 1
          if (errs < 10) print *, 'f_rma: window', kind, 'case', k, 'element', i, got(i)
        end if
      end do
      call mpi_barrier(MPI_COMM_WORLD, ierr)
      ! the gaps of this rank's window are untouched
      call mpi_win_lock(MPI_LOCK_SHARED, rank, 0, win, ierr)
      do i = 1, wn
        if ((i <= disp .or. mod(i - 1 - disp, st) /= 0 .or. i > disp + st * nb) &
            .and. w(i) /= -1) then
          errs = errs + 1
          if (errs < 10) print *, 'f_rma: window', kind, 'case', k, 'gap', i, w(i)
        end if
      end do
      call mpi_win_unlock(rank, win, ierr)
      call mpi_barrier(MPI_COMM_WORLD, ierr)
    end do
    call mpi_win_free(win, ierr)
    if (win /= MPI_WIN_NULL) errs = errs + 1
  end do

  call mpi_allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (errs == 0) then
      print '(a)', 'f_rma: all passed'
    else
      print '(a,i0,a)', 'f_rma: ', errs, ' errors'
    end if
  end if
  call mpi_finalize(ierr)

contains

  ! src as one element of a contiguous type of nb doubles
  integer function vt_of_src()
    integer, save :: t = MPI_DATATYPE_NULL
    integer :: e
    if (t == MPI_DATATYPE_NULL) then
      call mpi_type_contiguous(nb, MPI_DOUBLE_PRECISION, t, e)
      call mpi_type_commit(t, e)
    end if
    vt_of_src = t
  end function

  subroutine c_f_pointer_of(addr, p)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: addr
    double precision, pointer, intent(out) :: p(:)
    type(c_ptr) :: cp
    cp = transfer(addr, cp)
    call c_f_pointer(cp, p, (/ wn /))
  end subroutine

end program f_rma
