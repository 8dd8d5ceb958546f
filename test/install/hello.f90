! Install test program (Fortran, mpi_f08): each rank prints
! "hello RANK of SIZE libmpi=PATH" with the libmpi this process mapped.
program hello
    use mpi_f08
    implicit none
    integer :: rank, nprocs, total, u, ios
    character(len=4096) :: line, path
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    path = 'none'
    open(newunit=u, file='/proc/self/maps', action='read', iostat=ios)
    do while (ios == 0)
        read(u, '(A)', iostat=ios) line
        if (ios /= 0) exit
        if (index(line, '/libmpi.') > 0) then
            path = line(index(line, '/'):)
            exit
        end if
    end do
    close(u)
    if (total == nprocs) write(*, '(A,I0,A,I0,A,A)') 'hello ', rank, ' of ', nprocs, ' libmpi=', trim(path)
    call MPI_Finalize()
end program hello
