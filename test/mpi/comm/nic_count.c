/*
 * nic_count: on-demand addressing over two NICs where one process has one
 * (test/mpi/nicshim.c's NICSHIM_PLAIN_RANK: a node with fewer NICs than
 * the job's others). With two NICs asked for (MPIR_CVAR_CH4_OFI_MAX_NICS=2),
 * first contact between that process and another, at either end, must end
 * the job with an MPI error naming that rank and the CVARs that cure it
 * (ofi_ondemand_names.c, get_other_names), not hang in MPI_Init's fences or
 * address an endpoint the peer does not have. Where every process has as
 * many NICs, it prints No Errors. The testlist runs the
 * NIC_COUNT_ERRORS_RETURN mode and that control: the modes that end the
 * job lost their abort message to hydra in 4 of 6 runs here.
 *   default: every rank sends to every other and receives from it;
 *   NIC_COUNT_FROM_PLAIN=1: only rank NICSHIM_PLAIN_RANK contacts anyone
 *   (it sends to every other, which receives from MPI_ANY_SOURCE and so
 *   contacts no one): the one-NIC end must find the mismatch itself (not
 *   in the testlist: the job's one abort message is sometimes lost when
 *   hydra tears the job down; NIC_COUNT_ERRORS_RETURN covers that end).
 *   NIC_COUNT_ERRORS_RETURN=1: under MPI_ERRORS_RETURN, rank 0 sends to the
 *   one-NIC rank and that rank sends to rank 1: each MPI_Send must return
 *   an error of class MPI_ERR_OTHER whose string names the mismatch, and
 *   the job must go on to MPI_Finalize (nobody receives). Rank 0 prints
 *   No Errors; a wrong answer at the one-NIC rank aborts the job.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI_Send to `to` must fail with MPI_ERR_OTHER naming the mismatch */
static int send_must_fail(int rank, int to)
{
    char msg[MPI_MAX_ERROR_STRING];
    int cls = MPI_SUCCESS, len = 0, rc = MPI_Send(&rank, 1, MPI_INT, to, 0, MPI_COMM_WORLD);

    if (rc == MPI_SUCCESS) {
        printf("[world %d] MPI_Send to rank %d returned MPI_SUCCESS\n", rank, to);
        return 1;
    }
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    if (cls != MPI_ERR_OTHER || !strstr(msg, "another count of endpoints")) {
        printf("[world %d] MPI_Send to rank %d: class %d, \"%s\"\n", rank, to, cls, msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    const char *plain_env = getenv("NICSHIM_PLAIN_RANK");
    int from_plain = getenv("NIC_COUNT_FROM_PLAIN") != NULL;
    int errors_return = getenv("NIC_COUNT_ERRORS_RETURN") != NULL;
    int plain = plain_env ? atoi(plain_env) : 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (errors_return) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        if (rank == 0)
            errs += send_must_fail(rank, plain);
        if (rank == plain && send_must_fail(rank, plain == 1 ? 0 : 1))
            MPI_Abort(MPI_COMM_SELF, 1);
    } else if (from_plain) {
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
