/* ondemand: what a process keeps per peer, and what MPI_Init costs, as an
 * application sees it (issue 24; bench/real/run-ondemand.sh).
 *
 *   ondemand LIBRARY PROVIDER CSV
 *
 * Heap in use (mallinfo2: uordblks + hblkhd, plus the pages of ours' sparse
 * world AV, a mapping outside the heap: pvar avrm_av_sparse_bytes) and RSS
 * (/proc/self/statm) of
 * every process at three points: right after MPI_Init, after a 2-D stencil
 * (4 neighbours on a periodic px x py grid, 10 iterations, and an
 * MPI_Allreduce), after an MPI_Alltoall of 512 bytes per peer (every peer
 * contacted).
 * MPI_Init's wall time (max over processes); the latency of the first
 * 8-byte message exchanged with a new peer (rank 0 <-> rank P/2, one round
 * trip) and of the second one. Rank 0 appends one CSV line per point:
 * library,provider,np,point,heap_max,heap_mean,rss_max,rss_mean,init_s,first_us,later_us
 * Run with GLIBC_TUNABLES=glibc.malloc.tcache_count=0 for exact heap
 * figures.
 *
 * ONDEMAND_BALLAST=B in the environment: every process allocates and
 * writes B bytes per peer right after MPI_Init, before the first
 * measurement (a known growth: test/heap's positive control). */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* bytes our library keeps outside the malloc heap: the sparse world AV's
 * written pages (pvar avrm_av_sparse_bytes; 0 without the pvar: stock,
 * Open MPI). The unit test test_sparse holds that count to the kernel's
 * resident bytes of the mapping. */
static double sparse_bytes(void)
{
    static int idx = -2;
    static MPI_T_pvar_session ses;
    static MPI_T_pvar_handle h;
    unsigned long long v = 0;
    if (idx == -2) {
        int count, provided;
        idx = -1;
        if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS ||
            MPI_T_pvar_get_index("avrm_av_sparse_bytes", MPI_T_PVAR_CLASS_SIZE, &idx) != MPI_SUCCESS ||
            MPI_T_pvar_session_create(&ses) != MPI_SUCCESS ||
            MPI_T_pvar_handle_alloc(ses, idx, NULL, &h, &count) != MPI_SUCCESS)
            idx = -1;
    }
    if (idx >= 0 && MPI_T_pvar_read(ses, h, &v) != MPI_SUCCESS)
        v = 0;
    return (double) v;
}

static void measure(double out[2])
{
    struct mallinfo2 mi = mallinfo2();
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    out[0] = (double) (mi.uordblks + mi.hblkhd) + sparse_bytes();
    out[1] = (double) resident * sysconf(_SC_PAGESIZE);
}

static void report(FILE *csv, const char *lib, const char *prov, const char *point, double init_s,
                   double first_us, double later_us)
{
    int np, rank;
    double m[2], mx[2], sum[2];
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    measure(m);         /* before the reductions: they contact peers */
    MPI_Reduce(m, mx, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(m, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(csv, "%s,%s,%d,%s,%.0f,%.0f,%.0f,%.0f,%.6f,%.2f,%.2f\n", lib, prov, np, point,
                mx[0], sum[0] / np, mx[1], sum[1] / np, init_s, first_us, later_us);
}

int main(int argc, char **argv)
{
    double t0 = now();
    MPI_Init(&argc, &argv);
    double init_s = now() - t0, init_max, m[2];
    int np, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *ballast_env = getenv("ONDEMAND_BALLAST");
    size_t ballast_size = ballast_env ? strtoul(ballast_env, NULL, 10) * (size_t) (np - 1) : 0;
    char *ballast = ballast_size ? malloc(ballast_size) : NULL;
    if (ballast_size && !ballast)
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (ballast)
        memset(ballast, 1, ballast_size);
    measure(m);         /* right after MPI_Init: nothing contacted yet */
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: ondemand LIBRARY PROVIDER CSV\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    FILE *csv = rank == 0 ? fopen(argv[3], "a") : NULL;
    if (rank == 0 && !csv)
        MPI_Abort(MPI_COMM_WORLD, 2);

    /* first and later message with a peer never contacted (before any
     * collective): rank 0 <-> rank np/2 */
    double first_us = 0, later_us = 0;
    int peer = np / 2, v = 0;
    for (int i = 0; i < 2; i++) {
        double t = now();
        if (rank == 0) {
            MPI_Send(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == peer) {
            MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        }
        double us = (now() - t) * 1e6 / 2;
        if (i == 0)
            first_us = us;
        else
            later_us = us;
    }
    /* the init figures, gathered now (the heap was measured before) */
    double mx[2], sum[2];
    MPI_Reduce(m, mx, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(m, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&init_s, &init_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(csv, "%s,%s,%d,init,%.0f,%.0f,%.0f,%.0f,%.6f,%.2f,%.2f\n", argv[1], argv[2], np,
                mx[0], sum[0] / np, mx[1], sum[1] / np, init_max, first_us, later_us);

    /* 2-D stencil: px x py periodic grid, 4 neighbours */
    int dims[2] = { 0, 0 };
    MPI_Dims_create(np, 2, dims);
    int x = rank % dims[0], y = rank / dims[0];
    int nb[4] = { ((x + 1) % dims[0]) + y * dims[0], ((x + dims[0] - 1) % dims[0]) + y * dims[0],
        x + ((y + 1) % dims[1]) * dims[0], x + ((y + dims[1] - 1) % dims[1]) * dims[0]
    };
    double halo[4][64], mine[4][64] = { {0} };
    for (int it = 0; it < 10; it++) {
        MPI_Request rq[8];
        for (int k = 0; k < 4; k++) {
            MPI_Irecv(halo[k], 64, MPI_DOUBLE, nb[k], k ^ 1, MPI_COMM_WORLD, &rq[k]);
            MPI_Isend(mine[k], 64, MPI_DOUBLE, nb[k], k, MPI_COMM_WORLD, &rq[4 + k]);
        }
        MPI_Waitall(8, rq, MPI_STATUSES_IGNORE);
    }
    double s = rank, tot;
    MPI_Allreduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    report(csv, argv[1], argv[2], "stencil", init_max, first_us, later_us);

    /* all-to-all: every peer contacted (512 B per peer: MPICH's algorithm
     * for short blocks, Bruck's, would contact log P peers only) */
    enum { BLK = 64 };
    long *a = malloc(np * BLK * sizeof(long)), *b = malloc(np * BLK * sizeof(long));
    for (int i = 0; i < np * BLK; i++)
        a[i] = rank;
    MPI_Alltoall(a, BLK, MPI_LONG, b, BLK, MPI_LONG, MPI_COMM_WORLD);
    free(a);
    free(b);
    report(csv, argv[1], argv[2], "alltoall", init_max, first_us, later_us);
    if (csv)
        fclose(csv);
    /* no process finalizes before every process has measured: an MPICH
     * that exchanges addresses eagerly closes its connections at
     * MPI_Finalize without a barrier first, and a peer measuring then sees
     * its side of them freed (tcp;ofi_rxm: an 18.8 KB endpoint each) */
    MPI_Barrier(MPI_COMM_WORLD);
    free(ballast);
    MPI_Finalize();
    return 0;
}
