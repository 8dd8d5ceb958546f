/*
 * msgrate: OSU-style message rate (osu_mbw_mr with one pair) and 8-byte
 * ping-pong latency. Rate: rank 0 sends windows of W 8-byte MPI_Isend to
 * rank 1, which has posted W MPI_Irecv; after each window rank 1 answers
 * with a 4-byte ack; N windows after N/10 warm-up windows. Latency: N
 * round trips of 8 bytes, half the round trip.
 *
 *   mpiexec -n 2 msgrate LIBRARY PATH REP CSV [W=64 N=20000 [T]]
 *
 * Rank 0 appends to CSV (PATH and REP are labels: the driver sets
 * MPIR_CVAR_NOLOCAL=1 for the OFI path):
 *   LIBRARY,PATH,REP,W,N,msgs_per_s,msgs_per_s_mean,latency_us
 * msgs_per_s = W / the median window span (a window in which a process was
 * preempted by another job does not count), msgs_per_s_mean = N * W / the
 * total; latency_us = the median round trip / 2.
 *
 * With T (threads mode, no latency): MPI_THREAD_MULTIPLE, T threads per
 * process, thread t running the windows on its own MPI_Comm_dup of the world
 * (MPICH's per-VCI builds put a communicator on VCI seq % NUM_VCIS, so T
 * dups land on T VCIs when MPIR_CVAR_CH4_NUM_VCIS >= T). Rank 0 appends
 *   LIBRARY,PATH,REP,T,W,N,msgs_per_s,msgs_per_s_mean
 * msgs_per_s = the sum over threads of W / the thread's median window span;
 * msgs_per_s_mean = T * N * W / the slowest thread's total.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* n windows; span[it] = each window's time on rank 0 (span may be NULL) */
static void windows(MPI_Comm comm, int rank, int n, int w, char *buf, MPI_Request *req,
                    double *span)
{
    int ack = 0;
    for (int it = 0; it < n; it++) {
        double t0 = MPI_Wtime();
        if (rank == 0) {
            for (int i = 0; i < w; i++)
                MPI_Isend(buf + 8 * i, 8, MPI_CHAR, 1, 1, comm, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, 1, 2, comm, MPI_STATUS_IGNORE);
            if (span)
                span[it] = MPI_Wtime() - t0;
        } else {
            for (int i = 0; i < w; i++)
                MPI_Irecv(buf + 8 * i, 8, MPI_CHAR, 0, 1, comm, &req[i]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, 0, 2, comm);
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

/* threads mode: one thread's windows on its own communicator */
struct lane {
    MPI_Comm comm;
    int rank, n, w;
    pthread_barrier_t *start;
    double rate, total;         /* out: W / median span, the n windows' total */
};

static void *lane_run(void *arg)
{
    struct lane *l = arg;
    char *buf = calloc(l->w, 8);
    MPI_Request *req = malloc(l->w * sizeof *req);
    double *span = malloc(l->n * sizeof *span);
    if (!buf || !req || !span) {
        fprintf(stderr, "msgrate: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    windows(l->comm, l->rank, l->n / 10 + 1, l->w, buf, req, NULL);
    pthread_barrier_wait(l->start);
    windows(l->comm, l->rank, l->n, l->w, buf, req, span);
    l->total = 0;
    for (int i = 0; i < l->n; i++)
        l->total += span[i];
    l->rate = l->w / median(span, l->n);
    free(span);
    free(req);
    free(buf);
    return NULL;
}

/* T threads, each on its own dup of the world; rank 0's row to f */
static void threads_mode(int rank, int nthreads, int w, int n, FILE *f, char **argv)
{
    struct lane *lane = calloc(nthreads, sizeof *lane);
    pthread_t *tid = calloc(nthreads, sizeof *tid);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, nthreads);
    for (int t = 0; t < nthreads; t++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &lane[t].comm);
        lane[t].rank = rank, lane[t].n = n, lane[t].w = w, lane[t].start = &start;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&tid[t], NULL, lane_run, &lane[t])) {
            fprintf(stderr, "msgrate: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    double rate = 0, slowest = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(tid[t], NULL);
        rate += lane[t].rate;
        slowest = lane[t].total > slowest ? lane[t].total : slowest;
        MPI_Comm_free(&lane[t].comm);
    }
    if (f)
        fprintf(f, "%s,%s,%s,%d,%d,%d,%.0f,%.0f\n", argv[1], argv[2], argv[3], nthreads, w, n, rate,
                (double) nthreads * n * w / slowest);
    pthread_barrier_destroy(&start);
    free(tid);
    free(lane);
}

int main(int argc, char **argv)
{
    int rank, np, w = 64, n = 20000, nthreads = 0, provided;
    if (argc > 7)
        nthreads = atoi(argv[7]);
    MPI_Init_thread(&argc, &argv, nthreads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 5 || np != 2 || (argc > 7 && nthreads < 1) ||
        (nthreads && provided < MPI_THREAD_MULTIPLE)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 %s LIBRARY PATH REP CSV [W N [THREADS >= 1]]"
                    " (threads need MPI_THREAD_MULTIPLE)\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 5)
        w = atoi(argv[5]);
    if (argc > 6)
        n = atoi(argv[6]);
    FILE *f = NULL;
    if (rank == 0 && !(f = fopen(argv[4], "a"))) {
        perror("msgrate: CSV");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (nthreads) {
        threads_mode(rank, nthreads, w, n, f, argv);
        if (f)
            fclose(f);
        MPI_Finalize();
        return 0;
    }
    char *buf = calloc(w, 8);
    MPI_Request *req = malloc(w * sizeof *req);
    double *span = malloc(n * sizeof *span), t = 0, lat;
    windows(MPI_COMM_WORLD, rank, n / 10 + 1, w, buf, req, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    windows(MPI_COMM_WORLD, rank, n, w, buf, req, span);
    for (int i = 0; i < n; i++)
        t += span[i];
    double rate = w / median(span, n);
    pingpong(rank, n / 10 + 1, buf, span);
    MPI_Barrier(MPI_COMM_WORLD);
    pingpong(rank, n, buf, span);
    lat = median(span, n) / 2 * 1e6;
    if (f) {
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
