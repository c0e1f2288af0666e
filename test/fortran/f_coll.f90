! Collectives of derived types from Fortran (`use mpi`), on 2 ranks:
! every collective the interposer serves for Fortran callers, blocking and
! nonblocking (but the nonblocking w forms, which Open MPI 4.1's own
! bindings crash on), with a strided type (nb doubles st apart) on the sending
! side and contiguous doubles received, and the gathers in place with the
! strided type received; each result checked against the elements it must
! hold, so that the same program passes plainly and preloaded
! (test/fortran-openmpi.sh compares the interposer's counts).
program f_coll
  use mpi
  implicit none
  integer, parameter :: nb = 40, st = 3, np = 2
  integer :: ierr, rank, nprocs, vt, errs, form, k, i, j, req, ring, prev, next
  integer :: counts(np), displs(np), vcounts(np), vdispls(np), types(np), rtypes(np)
  integer :: bdispls(np), rbdispls(np)
  integer(kind=MPI_ADDRESS_KIND) :: ndispls(1), nrdispls(1)
  double precision :: s(nb * st * np), r(nb * np + 1), own(nb * st * np + 1)

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= np) then
    print *, 'f_coll: run on 2 ranks'
    call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  end if
  ! (resized to nb * st doubles, so that part j lies j extents on)
  call mpi_type_vector(nb, 1, st, MPI_DOUBLE_PRECISION, i, ierr)
  call mpi_type_create_resized(i, 0_MPI_ADDRESS_KIND, int(nb * st * 8, MPI_ADDRESS_KIND), &
                               vt, ierr)
  call mpi_type_free(i, ierr)
  call mpi_type_commit(vt, ierr)
  prev = mod(rank + np - 1, np)
  next = mod(rank + 1, np)
  call mpi_dist_graph_create_adjacent(MPI_COMM_WORLD, 1, (/ prev /), MPI_UNWEIGHTED, 1, &
                                      (/ next /), MPI_UNWEIGHTED, MPI_INFO_NULL, .false., &
                                      ring, ierr)
  do j = 1, np
    counts(j) = nb
    displs(j) = (j - 1) * nb
    vcounts(j) = 1
    vdispls(j) = j - 1
    types(j) = vt
    rtypes(j) = MPI_DOUBLE_PRECISION
    bdispls(j) = (j - 1) * nb * st * 8
    rbdispls(j) = (j - 1) * nb * 8
  end do
  ndispls(1) = 0
  nrdispls(1) = 0

  do form = 0, 1          ! blocking, nonblocking
    do k = 1, 15
      call fill()
      req = MPI_REQUEST_NULL
      select case (k)
      case (1)    ! rank 0's strided elements, received contiguous
        if (rank == 0) then
          call bcast_as(s, 1, vt)
        else
          call bcast_as(r, nb, MPI_DOUBLE_PRECISION)
        end if
        if (rank /= 0) call expect_from(1, (/ 0 /), 'bcast')
      case (2)
        if (form == 0) then
          call mpi_gather(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
        else
          call mpi_igather(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        if (rank == 0) call expect_from(np, (/ 0, 1 /), 'gather')
      case (3)
        if (form == 0) then
          call mpi_gatherv(s, 1, vt, r, counts, displs, MPI_DOUBLE_PRECISION, 0, &
                           MPI_COMM_WORLD, ierr)
        else
          call mpi_igatherv(s, 1, vt, r, counts, displs, MPI_DOUBLE_PRECISION, 0, &
                            MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        if (rank == 0) call expect_from(np, (/ 0, 1 /), 'gatherv')
      case (4)    ! rank 0's slot for this rank: its elements of part rank
        if (form == 0) then
          call mpi_scatter(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
        else
          call mpi_iscatter(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, req, &
                            ierr)
        end if
        call done()
        call expect_part(0, rank, 'scatter')
      case (5)
        if (form == 0) then
          call mpi_scatterv(s, vcounts, vdispls, vt, r, nb, MPI_DOUBLE_PRECISION, 0, &
                            MPI_COMM_WORLD, ierr)
        else
          call mpi_iscatterv(s, vcounts, vdispls, vt, r, nb, MPI_DOUBLE_PRECISION, 0, &
                             MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        call expect_part(0, rank, 'scatterv')
      case (6)
        if (form == 0) then
          call mpi_allgather(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
        else
          call mpi_iallgather(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        call expect_from(np, (/ 0, 1 /), 'allgather')
      case (7)
        if (form == 0) then
          call mpi_allgatherv(s, 1, vt, r, counts, displs, MPI_DOUBLE_PRECISION, &
                              MPI_COMM_WORLD, ierr)
        else
          call mpi_iallgatherv(s, 1, vt, r, counts, displs, MPI_DOUBLE_PRECISION, &
                               MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        call expect_from(np, (/ 0, 1 /), 'allgatherv')
      case (8)    ! slot j of each rank's strided parts to rank j
        if (form == 0) then
          call mpi_alltoall(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
        else
          call mpi_ialltoall(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        call expect_parts('alltoall')
      case (9)
        if (form == 0) then
          call mpi_alltoallv(s, vcounts, vdispls, vt, r, counts, displs, &
                             MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
        else
          call mpi_ialltoallv(s, vcounts, vdispls, vt, r, counts, displs, &
                              MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, req, ierr)
        end if
        call done()
        call expect_parts('alltoallv')
      case (10)   ! a type a slot, displacements in bytes (blocking only:
                  ! Open MPI 4.1's own mpi_ialltoallw frees the type arrays
                  ! it made before its schedule reads them, and crashes)
        if (form == 0) then
          call mpi_alltoallw(s, vcounts, bdispls, types, r, counts, rbdispls, rtypes, &
                             MPI_COMM_WORLD, ierr)
          call expect_parts('alltoallw')
        end if
      case (11)   ! the ring: each rank's one in-neighbour is prev
        if (form == 0) then
          call mpi_neighbor_allgather(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, ring, ierr)
        else
          call mpi_ineighbor_allgather(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, ring, req, ierr)
        end if
        call done()
        call expect_from(1, (/ prev /), 'neighbor_allgather')
      case (12)
        if (form == 0) then
          call mpi_neighbor_allgatherv(s, 1, vt, r, counts, displs, MPI_DOUBLE_PRECISION, &
                                       ring, ierr)
        else
          call mpi_ineighbor_allgatherv(s, 1, vt, r, counts, displs, MPI_DOUBLE_PRECISION, &
                                        ring, req, ierr)
        end if
        call done()
        call expect_from(1, (/ prev /), 'neighbor_allgatherv')
      case (13)
        if (form == 0) then
          call mpi_neighbor_alltoall(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, ring, ierr)
        else
          call mpi_ineighbor_alltoall(s, 1, vt, r, nb, MPI_DOUBLE_PRECISION, ring, req, ierr)
        end if
        call done()
        call expect_part(prev, 0, 'neighbor_alltoall')
      case (14)
        if (form == 0) then
          call mpi_neighbor_alltoallv(s, vcounts, vdispls, vt, r, counts, displs, &
                                      MPI_DOUBLE_PRECISION, ring, ierr)
        else
          call mpi_ineighbor_alltoallv(s, vcounts, vdispls, vt, r, counts, displs, &
                                       MPI_DOUBLE_PRECISION, ring, req, ierr)
        end if
        call done()
        call expect_part(prev, 0, 'neighbor_alltoallv')
      case (15)   ! (blocking only, as mpi_ialltoallw)
        if (form == 0) then
          call mpi_neighbor_alltoallw(s, vcounts, ndispls, types, r, counts, nrdispls, &
                                      rtypes, ring, ierr)
          call expect_part(prev, 0, 'neighbor_alltoallw')
        end if
      end select
    end do
    ! the gathers in place: this rank's own part already where it goes,
    ! the strided type received
    do k = 1, 3
      own = -1
      if (k == 3 .and. rank /= 0) then
        own(1:nb) = 0
      else
        do i = 1, nb
          own(rank * nb * st + (i - 1) * st + 1) = value(rank, i)
        end do
      end if
      select case (k)
      case (1)
        if (form == 0) then
          call mpi_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, own, 1, vt, MPI_COMM_WORLD, &
                             ierr)
        else
          call mpi_iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, own, 1, vt, &
                              MPI_COMM_WORLD, req, ierr)
        end if
      case (2)
        if (form == 0) then
          call mpi_allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, own, vcounts, vdispls, vt, &
                              MPI_COMM_WORLD, ierr)
        else
          call mpi_iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, own, vcounts, vdispls, &
                               vt, MPI_COMM_WORLD, req, ierr)
        end if
      case (3)    ! the root in place; the other rank sends its elements
        do i = 1, nb
          s(i) = value(rank, i)
        end do
        if (rank == 0 .and. form == 0) then
          call mpi_gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, own, 1, vt, 0, MPI_COMM_WORLD, &
                          ierr)
        else if (rank == 0) then
          call mpi_igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, own, 1, vt, 0, &
                           MPI_COMM_WORLD, req, ierr)
        else if (form == 0) then
          call mpi_gather(s, nb, MPI_DOUBLE_PRECISION, own, 1, vt, 0, MPI_COMM_WORLD, ierr)
        else
          call mpi_igather(s, nb, MPI_DOUBLE_PRECISION, own, 1, vt, 0, MPI_COMM_WORLD, req, &
                           ierr)
        end if
      end select
      if (form == 1) call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
      if (k < 3 .or. rank == 0) then
        do j = 0, np - 1
          do i = 1, nb
            if (own(j * nb * st + (i - 1) * st + 1) /= value(j, i)) errs = errs + 1
          end do
        end do
        if (own(nb * st * np + 1) /= -1) errs = errs + 1
      end if
    end do
    if (errs > 0 .and. rank == 0) print *, 'f_coll: errors after form', form, errs
  end do

  call mpi_comm_free(ring, ierr)
  call mpi_allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (errs == 0) then
      print '(a)', 'f_coll: all passed'
    else
      print '(a,i0,a)', 'f_coll: ', errs, ' errors'
    end if
  end if
  call mpi_finalize(ierr)

contains

  ! element i (from 1) of rank p's strided data
  double precision function value(p, i)
    integer, intent(in) :: p, i
    value = 1000 * (p + 1) + i
  end function

  ! the send buffer: np parts of nb elements st apart, holes between; the
  ! receive buffer and its guard element -1
  subroutine fill()
    integer :: q
    s = -7
    do q = 1, nb * np
      s((q - 1) * st + 1) = value(rank, q)
    end do
    r = -1
  end subroutine

  subroutine bcast_as(buf, n, t)
    double precision, intent(inout) :: buf(*)
    integer, intent(in) :: n, t
    if (form == 0) then
      call mpi_bcast(buf, n, t, 0, MPI_COMM_WORLD, ierr)
    else
      call mpi_ibcast(buf, n, t, 0, MPI_COMM_WORLD, req, ierr)
      call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine

  subroutine done()
    if (form == 1) call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  end subroutine

  ! r holds, block after block, the first nb elements of each rank in from
  subroutine expect_from(n, from, what)
    integer, intent(in) :: n, from(n)
    character(*), intent(in) :: what
    integer :: b, q
    do b = 1, n
      do q = 1, nb
        if (r((b - 1) * nb + q) /= value(from(b), q)) then
          errs = errs + 1
          if (errs < 5) print *, 'f_coll: ', what, form, b, q, r((b - 1) * nb + q)
          return
        end if
      end do
    end do
    if (r(n * nb + 1) /= -1 .and. n == np) errs = errs + 1
  end subroutine

  ! r holds part `part` (the elements nb*part+1 on) of rank p
  subroutine expect_part(p, part, what)
    integer, intent(in) :: p, part
    character(*), intent(in) :: what
    integer :: q
    do q = 1, nb
      if (r(q) /= value(p, part * nb + q)) then
        errs = errs + 1
        if (errs < 5) print *, 'f_coll: ', what, form, q, r(q)
        return
      end if
    end do
    if (r(nb + 1) /= -1) errs = errs + 1
  end subroutine

  ! r holds, block after block, part `rank` of each rank
  subroutine expect_parts(what)
    character(*), intent(in) :: what
    integer :: b, q
    do b = 0, np - 1
      do q = 1, nb
        if (r(b * nb + q) /= value(b, rank * nb + q)) then
          errs = errs + 1
          if (errs < 5) print *, 'f_coll: ', what, form, b, q, r(b * nb + q)
          return
        end if
      end do
    end do
  end subroutine

end program f_coll
