/*
 * commheap: heap bytes per created communicator, and the rank map each
 * shape gets (from our MPI_T pvars; "n/a" on a library without them).
 *
 *   mpiexec -n NP commheap LIBRARY HEAP_CSV MAPS_CSV [K=200]
 *
 * For each shape, K creations; each is measured on every rank as the
 * mallinfo2() delta (uordblks + hblkhd) around that one creation. All K
 * communicators stay alive until the end of the shape's loop, then are
 * freed. The median over K is the steady cost of one communicator; the mean
 * also counts the blocks MPICH's handle pools allocate now and then.
 * Rank 0 appends to HEAP_CSV: library,np,shape,median_bytes,mean_bytes
 * (each the max over ranks) and to MAPS_CSV: library,np,shape,mode_rank0,
 * map_bytes_max (avrm_comm_map_mode / avrm_comm_map_bytes of the last
 * communicator created; the merged one for the intercomm shapes).
 *
 * Shapes: dup, oddeven (split color rank%2), halves (color rank<np/2),
 * reversed (key -rank), random (key: a fresh permutation per creation, from
 * a fixed seed, so tables are not shared by content), and the intercomm of
 * the two halves, its merge, and both together (intercomm, merge,
 * inter+merge: deltas of the same K iterations).
 */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perm.h"
#include "pvar.h"

/* the split shapes; the intercomm ones follow in run_inter_shape */
enum { DUP, ODDEVEN, HALVES, REVERSED, RANDOM, NSPLIT };
static const char *const shape_name[NSPLIT] = {"dup", "oddeven", "halves", "reversed", "random"};

static int rank, np, K = 200;
static const char *lib;
static FILE *heap_csv, *maps_csv;

static long long heap_now(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long) (m.uordblks + m.hblkhd);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *) a, y = *(const long long *) b;
    return (x > y) - (x < y);
}

/* median and mean of d[K] on this rank, max over ranks; rank 0 writes */
static void report_heap(const char *shape, long long *d)
{
    double mine[2] = {0, 0}, all[2];
    for (int k = 0; k < K; k++)
        mine[1] += (double) d[k] / K;
    qsort(d, K, sizeof *d, cmp_ll);
    mine[0] = K % 2 ? d[K / 2] : (d[K / 2 - 1] + d[K / 2]) / 2.0;
    MPI_Reduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(heap_csv, "%s,%d,%s,%.0f,%.1f\n", lib, np, shape, all[0], all[1]);
}

static void report_map(const char *shape, MPI_Comm c)
{
    unsigned long long mode, bytes = 0, maxb;
    char name[64];
    int have = pvar_read("avrm_comm_map_mode", MPI_T_PVAR_CLASS_STATE, &c, &mode, name,
                         sizeof name);
    int haveb = pvar_read("avrm_comm_map_bytes", MPI_T_PVAR_CLASS_SIZE, &c, &bytes, NULL, 0);
    MPI_Reduce(&bytes, &maxb, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        fprintf(maps_csv, "%s,%d,%s,%s,", lib, np, shape, have ? name : "n/a");
        fprintf(maps_csv, haveb ? "%llu\n" : "n/a\n", maxb);
    }
}

static void run_split_shape(int s, MPI_Comm *comms, long long *d, int *perm)
{
    double t0 = MPI_Wtime();
    for (int k = 0; k < K; k++) {
        int color = 0, key = rank;
        if (s == ODDEVEN)
            color = rank % 2;
        else if (s == HALVES)
            color = rank < np / 2;
        else if (s == REVERSED)
            key = -rank;
        else if (s == RANDOM) {
            perm_shuffle(perm, np);     /* same on every rank */
            key = perm[rank];
        }
        MPI_Barrier(MPI_COMM_WORLD);    /* fewer early (unexpected) messages */
        long long h0 = heap_now();
        if (s == DUP)
            MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]);
        else
            MPI_Comm_split(MPI_COMM_WORLD, color, key, &comms[k]);
        d[k] = heap_now() - h0;
    }
    if (rank == 0)
        fprintf(stderr, "commheap: %s -n %d %s: %.1f s\n", lib, np, shape_name[s], MPI_Wtime() - t0);
    report_heap(shape_name[s], d);
    report_map(shape_name[s], comms[K - 1]);
    for (int k = 0; k < K; k++)
        MPI_Comm_free(&comms[k]);
}

/* intercomm of the two halves (leaders: world ranks 0 and np/2), then merge */
static void run_inter_shape(MPI_Comm *inter, MPI_Comm *merged, long long *d)
{
    int low = rank < np / 2;
    long long *dm = d + K, *both = d + 2 * K;
    MPI_Comm half;
    double t0 = MPI_Wtime();
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    for (int k = 0; k < K; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        long long h0 = heap_now();
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? np / 2 : 0, 7, &inter[k]);
        long long h1 = heap_now();
        MPI_Intercomm_merge(inter[k], !low, &merged[k]);
        long long h2 = heap_now();
        d[k] = h1 - h0;
        dm[k] = h2 - h1;
        both[k] = h2 - h0;
    }
    if (rank == 0)
        fprintf(stderr, "commheap: %s -n %d intercomm+merge: %.1f s\n", lib, np, MPI_Wtime() - t0);
    report_heap("intercomm", d);
    report_heap("merge", dm);
    report_heap("inter+merge", both);
    report_map("intercomm", inter[K - 1]);
    report_map("merge", merged[K - 1]);
    for (int k = 0; k < K; k++) {
        MPI_Comm_free(&merged[k]);
        MPI_Comm_free(&inter[k]);
    }
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 4 || np < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n NP(>=2) %s LIBRARY HEAP_CSV MAPS_CSV [K]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    lib = argv[1];
    if (argc > 4)
        K = atoi(argv[4]);
    if (rank == 0 && (!(heap_csv = fopen(argv[2], "a")) || !(maps_csv = fopen(argv[3], "a")))) {
        perror("commheap: output");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pvar_init();
    srand(12345);
    MPI_Comm *comms = malloc(2 * K * sizeof *comms);
    long long *d = malloc(3 * K * sizeof *d);
    int *perm = malloc(np * sizeof *perm);
    for (int s = 0; s < NSPLIT; s++)
        run_split_shape(s, comms, d, perm);
    run_inter_shape(comms, comms + K, d);
    free(perm);
    free(d);
    free(comms);
    pvar_fini();
    if (rank == 0) {
        fclose(heap_csv);
        fclose(maps_csv);
    }
    MPI_Finalize();
    return 0;
}
