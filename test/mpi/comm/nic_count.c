/*
 * nic_count: on-demand addressing over two NICs where one process has one
 * (test/mpi/nicshim.c's NICSHIM_PLAIN_RANK: a node with fewer NICs than
 * the job's others). Every rank sends to every other and receives from
 * it. With two NICs asked for (MPIR_CVAR_CH4_OFI_MAX_NICS=2), the first
 * contact of a two-NIC process with the one-NIC process must end the job
 * with an MPI error naming that rank and the CVARs that cure it
 * (ofi_avrm_lazy.c, get_other_names), not hang in MPI_Init's fences or
 * address an endpoint the peer does not have: the testlist entry is an
 * aborts= one. Where every process has as many NICs, it prints No Errors.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int d = 1; d < size; d++) {
        int to = (rank + d) % size, from = (rank - d + size) % size, out = rank, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, to, d, &in, 1, MPI_INT, from, d, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (in != from)
            printf("[world %d] from rank %d: got %d\n", rank, from, in);
    }
    MPI_Finalize();
    if (rank == 0)
        printf(" No Errors\n");
    return 0;
}
