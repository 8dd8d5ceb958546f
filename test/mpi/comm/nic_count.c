/*
 * nic_count: on-demand addressing over two NICs where one process has one
 * (test/mpi/nicshim.c's NICSHIM_PLAIN_RANK: a node with fewer NICs than
 * the job's others). With two NICs asked for (MPIR_CVAR_CH4_OFI_MAX_NICS=2),
 * first contact between that process and another, at either end, must end
 * the job with an MPI error naming that rank and the CVARs that cure it
 * (ofi_ondemand_names.c, get_other_names), not hang in MPI_Init's fences or
 * address an endpoint the peer does not have: the testlist entries are
 * aborts= ones. Where every process has as many NICs, it prints No Errors.
 *   default: every rank sends to every other and receives from it;
 *   NIC_COUNT_FROM_PLAIN=1: only rank NICSHIM_PLAIN_RANK contacts anyone
 *   (it sends to every other, which receives from MPI_ANY_SOURCE and so
 *   contacts no one): the one-NIC end must find the mismatch itself.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    const char *plain_env = getenv("NICSHIM_PLAIN_RANK");
    int from_plain = getenv("NIC_COUNT_FROM_PLAIN") != NULL;
    int plain = plain_env ? atoi(plain_env) : 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (from_plain) {
        if (rank == plain) {
            for (int to = 0; to < size; to++)
                if (to != rank)
                    MPI_Send(&rank, 1, MPI_INT, to, 0, MPI_COMM_WORLD);
        } else {
            int in = -1;
            MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (in != plain) {
                printf("[world %d] got %d, not rank %d's message\n", rank, in, plain);
                errs++;
            }
        }
    } else {
        for (int d = 1; d < size; d++) {
            int to = (rank + d) % size, from = (rank - d + size) % size, out = rank, in = -1;
            MPI_Sendrecv(&out, 1, MPI_INT, to, d, &in, 1, MPI_INT, from, d, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            if (in != from) {
                printf("[world %d] from rank %d: got %d\n", rank, from, in);
                errs++;
            }
        }
    }
    MPI_Finalize();
    if (rank == 0 && errs == 0)
        printf(" No Errors\n");
    return 0;
}
