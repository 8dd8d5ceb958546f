/*
 * msgrate: OSU-style message rate (osu_mbw_mr with one pair): rank 0 sends
 * windows of W 8-byte MPI_Isend to rank 1, which has posted W MPI_Irecv;
 * after each window rank 1 answers with a 4-byte ack. Rate = messages per
 * second over N windows after N/10 warm-up windows.
 *
 *   mpiexec -n 2 msgrate LIBRARY PATH REP CSV [W=64 N=20000]
 *
 * Rank 0 appends LIBRARY,PATH,REP,W,N,msgs_per_s to CSV (PATH and REP are
 * labels: the driver sets MPIR_CVAR_NOLOCAL=1 for the OFI path).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void windows(int rank, int n, int w, char *buf, MPI_Request *req)
{
    int ack = 0;
    for (int it = 0; it < n; it++) {
        if (rank == 0) {
            for (int i = 0; i < w; i++)
                MPI_Isend(buf + 8 * i, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int i = 0; i < w; i++)
                MPI_Irecv(buf + 8 * i, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, np, w = 64, n = 20000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 5 || np != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s LIBRARY PATH REP CSV [W N]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 5)
        w = atoi(argv[5]);
    if (argc > 6)
        n = atoi(argv[6]);
    char *buf = calloc(w, 8);
    MPI_Request *req = malloc(w * sizeof *req);
    windows(rank, n / 10 + 1, w, buf, req);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    windows(rank, n, w, buf, req);
    double t = MPI_Wtime() - t0;
    FILE *f;
    if (rank == 0) {
        if (!(f = fopen(argv[4], "a"))) {
            perror("msgrate: CSV");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(f, "%s,%s,%s,%d,%d,%.0f\n", argv[1], argv[2], argv[3], w, n, (double) n * w / t);
        fclose(f);
    }
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}
