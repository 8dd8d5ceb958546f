! fshapes.f90: rank-map shapes made from Fortran (use mpi_f08) and
! reductions on Fortran types over them, every result against the value the
! members' world ranks give. Shapes: the world, the odd/even MPI_Comm_split,
! rows and columns of a 2-d MPI_Cart_sub, MPI_Comm_create_group of the even
! ranks. Each shape also gets avtest.h's C checks (group translation,
! allgather, ring and any-source traffic) and its map mode read through
! MPI_T (avtest_f.c).
program fshapes
    use mpi_f08
    use avtest_f
    implicit none
    type(MPI_Comm) :: split, cart, row, col, evens
    type(MPI_Group) :: wgroup, egroup
    integer :: wrank, wsize, i, dims(2), range(3, 1)
    logical :: periods(2), keep(2)
    integer, allocatable :: expect(:)

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, wrank)
    call MPI_Comm_size(MPI_COMM_WORLD, wsize)
    call avtest_f_setup()

    expect = [(i, i = 0, wsize - 1)]
    call check_comm(MPI_COMM_WORLD%MPI_VAL, expect, 'world', 'direct')
    call reductions(MPI_COMM_WORLD, expect, 'world')

    call MPI_Comm_split(MPI_COMM_WORLD, mod(wrank, 2), wrank, split)
    expect = [(i, i = mod(wrank, 2), wsize - 1, 2)]
    call check_comm(split%MPI_VAL, expect, 'odd/even split', 'stride')
    call reductions(split, expect, 'odd/even split')
    call MPI_Comm_free(split)

    ! row-major grid, no reorder: world rank r sits at (r / dims(2), mod(r, dims(2)))
    dims = 0
    call MPI_Dims_create(wsize, 2, dims)
    periods = .false.
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart)
    keep = [.false., .true.]
    call MPI_Cart_sub(cart, keep, row)
    expect = [((wrank / dims(2)) * dims(2) + i, i = 0, dims(2) - 1)]
    call check_comm(row%MPI_VAL, expect, 'cart row', 'direct offset')
    call reductions(row, expect, 'cart row')
    keep = [.true., .false.]
    call MPI_Cart_sub(cart, keep, col)
    expect = [(mod(wrank, dims(2)) + i * dims(2), i = 0, dims(1) - 1)]
    call check_comm(col%MPI_VAL, expect, 'cart column', 'direct offset stride')
    call reductions(col, expect, 'cart column')
    call MPI_Comm_free(row)
    call MPI_Comm_free(col)
    call MPI_Comm_free(cart)

    call MPI_Comm_group(MPI_COMM_WORLD, wgroup)
    range(:, 1) = [0, wsize - 1, 2]
    call MPI_Group_range_incl(wgroup, 1, range, egroup)
    if (mod(wrank, 2) == 0) then
        call MPI_Comm_create_group(MPI_COMM_WORLD, egroup, 7, evens)
        expect = [(i, i = 0, wsize - 1, 2)]
        call check_comm(evens%MPI_VAL, expect, 'create_group of the even ranks', 'stride')
        call reductions(evens, expect, 'create_group of the even ranks')
        call MPI_Comm_free(evens)
    end if
    call MPI_Group_free(egroup)
    call MPI_Group_free(wgroup)

    if (.not. report(wrank)) then
        call MPI_Finalize()
        stop 1
    end if
    call MPI_Finalize()

contains

    ! Reductions on Fortran types over comm, whose rank i is world rank m(i+1).
    subroutine reductions(comm, m, what)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: m(:)
        character(*), intent(in) :: what
        integer :: n, me, isum, imin
        integer(8) :: i8
        real :: rmax
        double precision :: d, d3(3), p3(3), loc(2), locr(2)
        complex :: c
        double complex :: z
        logical :: land, lor

        n = size(m)
        call MPI_Comm_rank(comm, me)
        call MPI_Allreduce(dble(wrank) + 0.5d0, d, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm)
        if (d /= sum(dble(m)) + 0.5d0 * n) call ferr(what // ': DOUBLE PRECISION sum')
        call MPI_Allreduce(real(wrank), rmax, 1, MPI_REAL, MPI_MAX, comm)
        if (rmax /= real(maxval(m))) call ferr(what // ': REAL max')
        call MPI_Allreduce(wrank + 1, isum, 1, MPI_INTEGER, MPI_SUM, comm)
        if (isum /= sum(m) + n) call ferr(what // ': INTEGER sum')
        call MPI_Allreduce(wrank, imin, 1, MPI_INTEGER, MPI_MIN, comm)
        if (imin /= minval(m)) call ferr(what // ': INTEGER min')
        call MPI_Allreduce(int(wrank, 8) * 2_8**33, i8, 1, MPI_INTEGER8, MPI_SUM, comm)
        if (i8 /= sum(int(m, 8)) * 2_8**33) call ferr(what // ': INTEGER8 sum')
        call MPI_Allreduce(cmplx(wrank, -2 * wrank), c, 1, MPI_COMPLEX, MPI_SUM, comm)
        if (c /= cmplx(sum(m), -2 * sum(m))) call ferr(what // ': COMPLEX sum')
        call MPI_Allreduce(dcmplx(0.25d0, wrank), z, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, comm)
        if (z /= dcmplx(0.25d0 * n, sum(m))) call ferr(what // ': DOUBLE COMPLEX sum')
        call MPI_Allreduce(wrank == m(1), land, 1, MPI_LOGICAL, MPI_LAND, comm)
        call MPI_Allreduce(wrank == m(1), lor, 1, MPI_LOGICAL, MPI_LOR, comm)
        if (land .neqv. (n == 1) .or. .not. lor) call ferr(what // ': LOGICAL land/lor')
        d3 = [1d0, dble(wrank + 1), 2d0]
        call MPI_Allreduce(d3, p3, 3, MPI_REAL8, MPI_PROD, comm)
        if (any(p3 /= [1d0, product(dble(m + 1)), 2d0**n])) call ferr(what // ': REAL8 product')
        loc = [-dble(wrank), dble(wrank)]
        call MPI_Allreduce(loc, locr, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, comm)
        if (any(locr /= [-dble(maxval(m)), dble(maxval(m))])) &
            call ferr(what // ': 2DOUBLE_PRECISION minloc')
        call MPI_Scan(dble(wrank), d, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm)
        if (d /= sum(dble(m(1:me + 1)))) call ferr(what // ': DOUBLE PRECISION scan')
        d = -1d0
        call MPI_Reduce(dble(wrank), d, 1, MPI_DOUBLE_PRECISION, MPI_MAX, n - 1, comm)
        if (me == n - 1 .and. d /= dble(maxval(m))) call ferr(what // ': DOUBLE PRECISION reduce')
    end subroutine
end program fshapes
