/*
 * msgrate: OSU-style message rate (osu_mbw_mr with one pair) and 8-byte
 * ping-pong latency. Rate: rank 0 sends windows of W 8-byte MPI_Isend to
 * rank 1, which has posted W MPI_Irecv; after each window rank 1 answers
 * with a 4-byte ack; N windows after N/10 warm-up windows. Latency: N
 * round trips of 8 bytes, half the round trip.
 *
 *   mpiexec -n 2 msgrate LIBRARY PATH REP CSV [W=64 N=20000]
 *
 * Rank 0 appends to CSV (PATH and REP are labels: the driver sets
 * MPIR_CVAR_NOLOCAL=1 for the OFI path):
 *   LIBRARY,PATH,REP,W,N,msgs_per_s,msgs_per_s_mean,latency_us
 * msgs_per_s = W / the median window span (a window in which a process was
 * preempted by another job does not count), msgs_per_s_mean = N * W / the
 * total; latency_us = the median round trip / 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* n windows; span[it] = each window's time on rank 0 (span may be NULL) */
static void windows(int rank, int n, int w, char *buf, MPI_Request *req, double *span)
{
    int ack = 0;
    for (int it = 0; it < n; it++) {
        double t0 = MPI_Wtime();
        if (rank == 0) {
            for (int i = 0; i < w; i++)
                MPI_Isend(buf + 8 * i, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (span)
                span[it] = MPI_Wtime() - t0;
        } else {
            for (int i = 0; i < w; i++)
                MPI_Irecv(buf + 8 * i, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        }
    }
}

/* n round trips of 8 bytes; span[it] = each one's time on rank 0 */
static void pingpong(int rank, int n, char *buf, double *span)
{
    for (int it = 0; it < n; it++) {
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            span[it] = MPI_Wtime() - t0;
        } else {
            MPI_Recv(buf, 8, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
        }
    }
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
    double *span = malloc(n * sizeof *span), t = 0, lat;
    windows(rank, n / 10 + 1, w, buf, req, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    windows(rank, n, w, buf, req, span);
    for (int i = 0; i < n; i++)
        t += span[i];
    double rate = w / median(span, n);
    pingpong(rank, n / 10 + 1, buf, span);
    MPI_Barrier(MPI_COMM_WORLD);
    pingpong(rank, n, buf, span);
    lat = median(span, n) / 2 * 1e6;
    FILE *f;
    if (rank == 0) {
        if (!(f = fopen(argv[4], "a"))) {
            perror("msgrate: CSV");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(f, "%s,%s,%s,%d,%d,%.0f,%.0f,%.3f\n", argv[1], argv[2], argv[3], w, n, rate,
                (double) n * w / t, lat);
        fclose(f);
    }
    free(span);
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}
