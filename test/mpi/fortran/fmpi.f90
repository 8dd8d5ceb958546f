! fmpi.f90: shapes made through `use mpi` (integer handles): a scrambled
! MPI_Comm_create (pairs swapped, so no arithmetic pattern), an intercomm
! between the two halves of the world and its merge (upper half low), each
! checked by avtest.h's C checks and its map mode (avtest_f.c), and a
! DOUBLE PRECISION vector sum over each against the expected value.
program fmpi
    use mpi
    use avtest_f
    implicit none
    integer :: wrank, wsize, ierr, i, wgroup, g, scr, half, inter, merged, nh, lo
    integer, allocatable :: expect(:)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
    call avtest_f_setup()

    ! pairs swapped: 1 0 3 2 ... (an odd last rank stays)
    expect = [(ieor(i, 1), i = 0, wsize - 1)]
    if (mod(wsize, 2) == 1) expect(wsize) = wsize - 1
    call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
    call MPI_Group_incl(wgroup, wsize, expect, g, ierr)
    call MPI_Comm_create(MPI_COMM_WORLD, g, scr, ierr)
    call check_comm(scr, expect, 'scrambled create', 'grid ilut lut lut16')
    call vsum(scr, expect, 'scrambled create')
    call MPI_Comm_free(scr, ierr)
    call MPI_Group_free(g, ierr)
    call MPI_Group_free(wgroup, ierr)

    if (wsize >= 2) then
        nh = wsize / 2
        lo = merge(0, 1, wrank < nh)
        call MPI_Comm_split(MPI_COMM_WORLD, lo, wrank, half, ierr)
        ! leaders: world rank 0 and nh
        call MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, merge(nh, 0, lo == 0), 5, inter, ierr)
        ! upper half low: world ranks nh..wsize-1, then 0..nh-1
        call MPI_Intercomm_merge(inter, lo == 0, merged, ierr)
        expect = [(i, i = nh, wsize - 1), (i, i = 0, nh - 1)]
        call check_comm(merged, expect, 'intercomm merge, upper half low', '')
        call vsum(merged, expect, 'intercomm merge, upper half low')
        call MPI_Comm_free(merged, ierr)
        call MPI_Comm_free(inter, ierr)
        call MPI_Comm_free(half, ierr)
    end if

    if (.not. report(wrank)) then
        call MPI_Finalize(ierr)
        stop 1
    end if
    call MPI_Finalize(ierr)

contains

    subroutine vsum(comm, m, what)
        integer, intent(in) :: comm, m(:)
        character(*), intent(in) :: what
        double precision :: x(4), y(4)
        integer :: n, ierr
        n = size(m)
        x = [1d0, dble(wrank), -dble(wrank), 0.125d0]
        call MPI_Allreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
        if (any(y /= [dble(n), sum(dble(m)), -sum(dble(m)), 0.125d0 * n])) &
            call ferr(what // ': DOUBLE PRECISION vector sum')
    end subroutine
end program fmpi
