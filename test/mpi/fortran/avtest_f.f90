! avtest_f.f90: bind(C) interfaces to avtest_f.c, and the Fortran side's
! error count. Compiled before each test of this directory.
module avtest_f
    use, intrinsic :: iso_c_binding
    implicit none
    integer :: ferrs = 0
    interface
        subroutine avtest_f_setup() bind(C, name="avtest_f_setup")
        end subroutine
        subroutine c_check_comm(comm, expect, n, what, accepted) bind(C, name="avtest_f_check_comm")
            import :: c_int, c_char
            integer(c_int), value :: comm, n
            integer(c_int), intent(in) :: expect(*)
            character(kind=c_char), intent(in) :: what(*), accepted(*)
        end subroutine
        integer(c_int) function c_errors(f) bind(C, name="avtest_f_errors")
            import :: c_int
            integer(c_int), value :: f
        end function
    end interface
contains
    subroutine ferr(what)
        character(*), intent(in) :: what
        integer :: wrank
        ferrs = ferrs + 1
        if (ferrs <= 20) then
            call mpi_comm_rank_f(wrank)
            write (0, '("[world ",I0,"] ",A)') wrank, what
        end if
    end subroutine
    subroutine mpi_comm_rank_f(r)
        include 'mpif.h'
        integer, intent(out) :: r
        integer :: ierr
        call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
    end subroutine
    ! comm: a Fortran (integer) handle
    subroutine check_comm(comm, expect, what, accepted)
        integer, intent(in) :: comm, expect(:)
        character(*), intent(in) :: what, accepted
        call c_check_comm(int(comm, c_int), int(expect, c_int), int(size(expect), c_int), &
                          what // c_null_char, accepted // c_null_char)
    end subroutine
    ! prints " No Errors" on world rank 0 when every rank passed
    logical function report(wrank)
        integer, intent(in) :: wrank
        integer :: total
        total = c_errors(int(ferrs, c_int))
        if (wrank == 0) then
            if (total == 0) then
                print '(A)', ' No Errors'
            else
                print '(" Found ",I0," errors")', total
            end if
        end if
        report = total == 0
    end function
end module avtest_f
