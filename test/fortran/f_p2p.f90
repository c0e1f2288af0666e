! Point-to-point and packing of derived types from Fortran (`use mpi`),
! on 2 ranks: every call the interposer serves for Fortran callers, each
! result checked against the data, so that the same program passes plainly
! and preloaded (test/fortran-openmpi.sh compares the interposer's counts).
program f_p2p
  use mpi
  implicit none
  integer, parameter :: nb = 100, bl = 3, st = 7, big = 40000
  integer :: ierr, rank, nprocs, vt, bigt, status(MPI_STATUS_SIZE), req, req2
  integer :: msg, n, pos, psize, cls, i, k, errs
  logical :: flag
  double precision :: a(nb * st), b(nb * st)
  double precision, allocatable :: ba(:), bb(:)
  character, allocatable :: packed(:)
  integer(kind=MPI_ADDRESS_KIND) :: xsize, xpos, addr
  integer :: abst, ut, psize2

  errs = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 2) then
    print *, 'f_p2p: run on 2 ranks'
    call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call mpi_type_vector(nb, bl, st, MPI_DOUBLE_PRECISION, vt, ierr)
  call mpi_type_commit(vt, ierr)
  ! a message longer than a pipeline chunk (the test's 64 KiB): a stream in
  ! pipeline mode
  call mpi_type_vector(big, 1, 2, MPI_DOUBLE_PRECISION, bigt, ierr)
  call mpi_type_commit(bigt, ierr)
  allocate(ba(2 * big), bb(2 * big))
  do i = 1, nb * st
    a(i) = i + 0.25d0
  end do
  do i = 1, 2 * big
    ba(i) = 3 * i + 0.5d0
  end do

  ! blocking sends of each mode into receives, probes and matched receives
  do k = 1, 4
    if (rank == 0) then
      select case (k)
      case (1)
        call mpi_send(a, 1, vt, 1, k, MPI_COMM_WORLD, ierr)
      case (2)
        call mpi_ssend(a, 1, vt, 1, k, MPI_COMM_WORLD, ierr)
      case (3)
        call mpi_isend(a, 1, vt, 1, k, MPI_COMM_WORLD, req, ierr)
        call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
      case (4)
        call mpi_issend(a, 1, vt, 1, k, MPI_COMM_WORLD, req, ierr)
        call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
      end select
    else
      b = -1
      select case (k)
      case (1)
        call mpi_recv(b, 1, vt, 0, k, MPI_COMM_WORLD, status, ierr)
      case (2)
        call mpi_probe(0, k, MPI_COMM_WORLD, status, ierr)
        call mpi_get_count(status, MPI_DOUBLE_PRECISION, n, ierr)
        call check(n == nb * bl, 'probe count')
        call mpi_recv(b, 1, vt, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
      case (3)
        call mpi_mprobe(0, k, MPI_COMM_WORLD, msg, status, ierr)
        call mpi_mrecv(b, 1, vt, msg, status, ierr)
        call check(msg == MPI_MESSAGE_NULL, 'mrecv message reset')
      case (4)
        flag = .false.
        do while (.not. flag)
          call mpi_improbe(0, k, MPI_COMM_WORLD, flag, msg, status, ierr)
        end do
        call mpi_imrecv(b, 1, vt, msg, req, ierr)
        call mpi_wait(req, status, ierr)
      end select
      call mpi_get_count(status, MPI_DOUBLE_PRECISION, n, ierr)
      call check(n == nb * bl .and. status(MPI_SOURCE) == 0 .and. status(MPI_TAG) == k, &
                 'receive status')
      call check_vector(b, k)
    end if
  end do

  ! persistent requests, started twice
  if (rank == 0) then
    call mpi_send_init(a, 1, vt, 1, 20, MPI_COMM_WORLD, req, ierr)
  else
    call mpi_recv_init(b, 1, vt, 0, 20, MPI_COMM_WORLD, req, ierr)
  end if
  do k = 1, 2
    b = -1
    call mpi_start(req, ierr)
    call mpi_wait(req, status, ierr)
    if (rank == 1) call check_vector(b, 20 + k)
  end do
  call mpi_request_free(req, ierr)

  ! sendrecv both ways, and sendrecv_replace
  b = -1
  call mpi_sendrecv(a, 1, vt, 1 - rank, 30, b, 1, vt, 1 - rank, 30, MPI_COMM_WORLD, &
                    status, ierr)
  call check_vector(b, 30)
  b = a
  call mpi_sendrecv_replace(b, 1, vt, 1 - rank, 31, 1 - rank, 31, MPI_COMM_WORLD, &
                            MPI_STATUS_IGNORE, ierr)
  call check(all(b == a), 'sendrecv_replace')

  ! absolute addresses: MPI_BOTTOM as the buffer, a type over this rank's
  ! array (MPI_F_SYNC_REG: the compiler sees no use of it in the call)
  if (rank == 0) then
    call mpi_get_address(a, addr, ierr)
  else
    b = -1
    call mpi_get_address(b, addr, ierr)
  end if
  call mpi_type_create_hindexed(1, [1], [addr], vt, abst, ierr)
  call mpi_type_commit(abst, ierr)
  call mpi_f_sync_reg(b)
  if (rank == 0) then
    call mpi_send(MPI_BOTTOM, 1, abst, 1, 35, MPI_COMM_WORLD, ierr)
  else
    call mpi_recv(MPI_BOTTOM, 1, abst, 0, 35, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call mpi_f_sync_reg(b)
    call check_vector(b, 35)
  end if
  call mpi_type_free(abst, ierr)

  ! a stream (pipeline mode) probed whole and received by its message handle
  if (rank == 0) then
    call mpi_send(ba, 1, bigt, 1, 40, MPI_COMM_WORLD, ierr)
    call mpi_isend(ba, 1, bigt, 1, 41, MPI_COMM_WORLD, req, ierr)
    call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  else
    bb = -1
    call mpi_mprobe(0, 40, MPI_COMM_WORLD, msg, status, ierr)
    call mpi_get_count(status, MPI_DOUBLE_PRECISION, n, ierr)
    call check(n == big, 'mprobe of a long message: count')
    call mpi_mrecv(bb, 1, bigt, msg, MPI_STATUS_IGNORE, ierr)
    call check_big(bb, 'mrecv of a long message')
    bb = -1
    call mpi_irecv(bb, 1, bigt, 0, 41, MPI_COMM_WORLD, req, ierr)
    call mpi_wait(req, status, ierr)
    call check_big(bb, 'irecv of a long message')
  end if

  ! a truncated receive: MPI_ERR_TRUNCATE, through the error class
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  if (rank == 0) then
    call mpi_send(a, nb * bl + 1, MPI_DOUBLE_PRECISION, 1, 50, MPI_COMM_WORLD, ierr)
  else
    call mpi_recv(b, 1, vt, 0, 50, MPI_COMM_WORLD, status, ierr)
    call mpi_error_class(ierr, cls, ierr)
    call check(cls == MPI_ERR_TRUNCATE, 'truncation class')
  end if
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

  ! packing: native and external32, each unpacked again
  call mpi_pack_size(1, vt, MPI_COMM_WORLD, psize, ierr)
  call check(psize >= nb * bl * 8, 'pack_size')
  allocate(packed(psize + 8 * nb * bl))
  pos = 0
  call mpi_pack(a, 1, vt, packed, psize, pos, MPI_COMM_WORLD, ierr)
  call check(pos == nb * bl * 8, 'pack position')
  b = -1
  pos = 0
  call mpi_unpack(packed, psize, pos, b, 1, vt, MPI_COMM_WORLD, ierr)
  call check_vector(b, 60)
  call mpi_pack_external_size('external32', 1, vt, xsize, ierr)
  call check(xsize == nb * bl * 8, 'pack_external_size')
  xpos = 0
  call mpi_pack_external('external32', a, 1, vt, packed, xsize, xpos, ierr)
  call check(xpos == xsize, 'pack_external position')
  ! big-endian: 1.25 is 3f f4 00 ..., its most significant byte first
  call check(ichar(packed(1)) == 63 .and. ichar(packed(2)) == 244, 'external32 byte order')
  b = -1
  xpos = 0
  call mpi_unpack_external('external32', packed, xsize, xpos, b, 1, vt, ierr)
  call check_vector(b, 61)

  ! bad arguments: each call's error class (and position) is printed, and
  ! test/fortran-openmpi.sh requires the same lines plainly and preloaded
  ! (the host judges arguments first); rank 0 alone, nothing is sent
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  if (rank == 0) then
    call mpi_send(a, -1, vt, 1, 70, MPI_COMM_WORLD, ierr)
    call bad('send of count -1', ierr, 0)
    call mpi_type_vector(nb, bl, st, MPI_DOUBLE_PRECISION, ut, ierr)
    call mpi_send(a, 1, ut, 1, 71, MPI_COMM_WORLD, ierr)
    call bad('send of an uncommitted type', ierr, 0)
    call mpi_type_free(ut, ierr)
    call mpi_isend(a, 1, vt, 7, 72, MPI_COMM_WORLD, req, ierr)
    call bad('isend to rank 7 of 2', ierr, 0)
    call mpi_recv(b, 1, vt, 1, -5, MPI_COMM_WORLD, status, ierr)
    call bad('recv of tag -5', ierr, 0)
    pos = 0
    call mpi_pack(a, 1, vt, packed, 16, pos, MPI_COMM_WORLD, ierr)
    call bad('pack into 16 bytes', ierr, pos)
    pos = 0
    call mpi_unpack(packed, 16, pos, b, 1, vt, MPI_COMM_WORLD, ierr)
    call bad('unpack from 16 bytes', ierr, pos)
    pos = 0
    call mpi_pack(a, -2, vt, packed, psize, pos, MPI_COMM_WORLD, ierr)
    call bad('pack of count -2', ierr, pos)
    call mpi_pack_size(-3, vt, MPI_COMM_WORLD, psize2, ierr)
    call bad('pack_size of count -3', ierr, 0)
    xpos = 0
    call mpi_pack_external('bogus', a, 1, vt, packed, xsize, xpos, ierr)
    call bad('pack_external to "bogus"', ierr, int(xpos))
    xpos = 0
    call mpi_unpack_external('external32', packed, 8_MPI_ADDRESS_KIND, xpos, b, 1, vt, ierr)
    call bad('unpack_external from 8 bytes', ierr, int(xpos))
  end if
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

  call mpi_type_free(vt, ierr)
  call mpi_type_free(bigt, ierr)
  call mpi_allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (errs == 0) then
      print '(a)', 'f_p2p: all passed'
    else
      print '(a,i0,a)', 'f_p2p: ', errs, ' failures'
    end if
  end if
  call mpi_finalize(ierr)
  if (errs /= 0) stop 1

contains

  ! a bad call's error class (0: it succeeded) and position, on a line
  subroutine bad(what, code, p)
    character(*), intent(in) :: what
    integer, intent(in) :: code, p
    integer :: c, e
    c = 0
    if (code /= MPI_SUCCESS) call mpi_error_class(code, c, e)
    print '(3a,i0,a,i0)', 'f_p2p: bad ', what, ': class ', c, ', position ', p
  end subroutine bad

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,a,a)', 'f_p2p: rank ', rank, ' FAILED: ', what
      errs = errs + 1
    end if
  end subroutine check

  ! the vector's elements received, and nothing between them written
  subroutine check_vector(x, case)
    double precision, intent(in) :: x(:)
    integer, intent(in) :: case
    integer :: i, j, bad
    logical :: in
    bad = 0
    do i = 1, nb * st
      j = mod(i - 1, st)
      in = j < bl
      if (in .and. x(i) /= a(i)) bad = bad + 1
      if (.not. in .and. x(i) /= -1) bad = bad + 1
    end do
    if (bad /= 0) then
      print '(a,i0,a,i0,a,i0)', 'f_p2p: rank ', rank, ' FAILED: case ', case, &
        ', wrong elements: ', bad
      errs = errs + 1
    end if
  end subroutine check_vector

  subroutine check_big(x, what)
    double precision, intent(in) :: x(:)
    character(*), intent(in) :: what
    integer :: i, bad
    bad = 0
    do i = 1, 2 * big
      if (mod(i, 2) == 1 .and. x(i) /= ba(i)) bad = bad + 1
      if (mod(i, 2) == 0 .and. x(i) /= -1) bad = bad + 1
    end do
    call check(bad == 0, what)
  end subroutine check_big

end program f_p2p
