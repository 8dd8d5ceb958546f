/*
 * jobkey: two jobs, started by two mpiexecs, meet through a port (the
 * acceptor writes its port name to a file, the connector reads it) and
 * exchange a message between every pair of equal ranks.
 *   jobkey accept FILE | jobkey connect FILE
 * Run by jobkey.sh: with distinct job keys the jobs connect ("No Errors");
 * with one key for both (MPIR_CVAR_AVRM_JOB_KEY) their active messages'
 * sender ids collide: each job warns on stderr and goes on.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char port[MPI_MAX_PORT_NAME] = "";
    int rank, size, rsize, in = -1, errs = 0;
    MPI_Comm inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        fprintf(stderr, "usage: jobkey accept|connect FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int accept = !strcmp(argv[1], "accept");
    if (rank == 0 && accept) {
        char tmp[4096];
        FILE *f;
        MPI_Open_port(MPI_INFO_NULL, port);
        snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
        if (!(f = fopen(tmp, "w")) || fputs(port, f) < 0 || fclose(f) || rename(tmp, argv[2])) {
            perror("jobkey: port file");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    } else if (rank == 0) {
        FILE *f;
        for (int t = 0; !(f = fopen(argv[2], "r")); t++) {
            if (t == 300) {
                fprintf(stderr, "jobkey: no port file %s after 30 s\n", argv[2]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            usleep(100000);
        }
        if (!fgets(port, sizeof(port), f))
            MPI_Abort(MPI_COMM_WORLD, 2);
        fclose(f);
    }
    if (accept)
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    else
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    if (rank < rsize) {
        int out = 1000 * accept + rank;
        MPI_Sendrecv(&out, 1, MPI_INT, rank, 0, &in, 1, MPI_INT, rank, 0, inter,
                     MPI_STATUS_IGNORE);
        if (in != 1000 * !accept + rank) {
            printf("rank %d: got %d from the other job's rank %d\n", rank, in, rank);
            errs++;
        }
    }
    MPI_Comm_disconnect(&inter);
    if (rank == 0 && accept)
        MPI_Close_port(port);
    MPI_Allreduce(MPI_IN_PLACE, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && errs == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
