/*
 * opcost: instructions per MPI_Isend (8 bytes) and per 8-byte MPI_Put to
 * peers, in communicators of each map mode, for callgrind.
 *
 *   mpiexec -genv CG_RANK $((NP-1)) -genv CG_OUT DIR -n NP cgwrap.sh /abs/path/opcost MODES_CSV [NCHILD=NP/2 B=32 R=32]
 *
 * World rank NP-1 (the measurer; cgwrap.sh runs it under callgrind with
 * --collect-atstart=no) sends round-robin to every other member of the
 * communicator: per region, one uncollected warm-up batch of B operations,
 * then R batches, each collected (CALLGRIND_TOGGLE_COLLECT around the B
 * calls only; completion -- MPI_Waitall, MPI_Win_fence -- is outside),
 * then CALLGRIND_DUMP_STATS_AT("OP-MODE") writes one profile per region.
 * cgcost.py splits each into libmpi and libfabric instructions per call.
 *
 * Communicators (named after the paper's Put microbenchmark, section V-C):
 *   direct  MPI_COMM_WORLD dup           offset  split: upper half
 *   stride  split: odd ranks             lut     split: a fixed random permutation
 *                                        (NP >= 6: not a stride with 2 exceptions)
 *   mlut    merge of the world with NCHILD spawned processes (two groups)
 *   mlut-rand  that merge split with a random key (groups interleaved)
 * NCHILD=0 leaves out spawn, mlut and mlut-rand.
 * The measurer appends MODES_CSV rows region,comm_size,mode,calls (mode: our
 * pvar avrm_comm_map_mode, "n/a" where the library has none; calls: R * B,
 * the collected calls, since callgrind's call counts are not exact when
 * collection is toggled). Run with
 * MPIR_CVAR_NOLOCAL=1 so every peer is reached through the OFI netmod.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include "perm.h"
#include "pvar.h"

static int B = 32, R = 32;
static int measurer;            /* this process is world rank NP-1 of the parents */
static FILE *modes_csv;

/* comm rank of the measurer in c (every member calls) */
static int measurer_rank(MPI_Comm c)
{
    int me, m;
    MPI_Comm_rank(c, &me);
    int mine = measurer ? me : -1;
    MPI_Allreduce(&mine, &m, 1, MPI_INT, MPI_MAX, c);
    return m;
}

/* peer of the i-th operation: round-robin over the members but the measurer */
static int peer(int i, int size, int m)
{
    int p = i % (size - 1);
    return p < m ? p : p + 1;
}

static void note_mode(const char *region, MPI_Comm c, int size)
{
    unsigned long long v;
    char name[64];
    if (!measurer)
        return;
    if (!pvar_read("avrm_comm_map_mode", MPI_T_PVAR_CLASS_STATE, &c, &v, name, sizeof name))
        strcpy(name, "n/a");
    fprintf(modes_csv, "%s,%d,%s,%d\n", region, size, name, R * B);
    fflush(modes_csv);
}

static void isend_region(const char *mode, MPI_Comm c)
{
    int size, me, m = measurer_rank(c);
    char region[64];
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &me);
    snprintf(region, sizeof region, "isend-%s", mode);
    note_mode(region, c, size);
    int n = (R + 1) * B;
    double *buf = calloc(n, sizeof *buf);
    MPI_Request *req = malloc(n * sizeof *req);
    if (me == m) {
        MPI_Barrier(c);         /* receives are posted */
        for (int r = 0; r <= R; r++) {
            double *b = buf + r * B;
            MPI_Request *q = req + r * B;
            if (r > 0)          /* batch 0 warms up (lazy binding, connections) */
                CALLGRIND_TOGGLE_COLLECT;
            for (int i = 0; i < B; i++)
                MPI_Isend(&b[i], 1, MPI_DOUBLE, peer(r * B + i, size, m), 0, c, &q[i]);
            if (r > 0)
                CALLGRIND_TOGGLE_COLLECT;
            MPI_Waitall(B, q, MPI_STATUSES_IGNORE);
        }
        CALLGRIND_DUMP_STATS_AT(region);
    } else {
        int k = 0;
        for (int i = 0; i < n; i++)
            if (peer(i, size, m) == me)
                MPI_Irecv(&buf[k], 1, MPI_DOUBLE, m, 0, c, &req[k]), k++;
        MPI_Barrier(c);
        MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    }
    MPI_Barrier(c);
    free(req);
    free(buf);
}

static void put_region(const char *mode, MPI_Comm c)
{
    int size, me, m = measurer_rank(c);
    char region[64];
    double *base, one = 1.0;
    MPI_Win win;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &me);
    snprintf(region, sizeof region, "put-%s", mode);
    note_mode(region, c, size);
    MPI_Win_allocate(size * sizeof(double), sizeof(double), MPI_INFO_NULL, c, &base, &win);
    /* one fence epoch per batch (passive-target MPI_Win_lock_all hangs with
     * MPIR_CVAR_NOLOCAL=1 on a spawned group, stock MPICH 4.0.2 included) */
    MPI_Win_fence(0, win);
    for (int r = 0; r <= R; r++) {
        if (me == m) {
            if (r > 0)
                CALLGRIND_TOGGLE_COLLECT;
            for (int i = 0; i < B; i++)
                MPI_Put(&one, 1, MPI_DOUBLE, peer(r * B + i, size, m), m, 1, MPI_DOUBLE, win);
            if (r > 0)
                CALLGRIND_TOGGLE_COLLECT;
        }
        MPI_Win_fence(0, win);
    }
    if (me == m)
        CALLGRIND_DUMP_STATS_AT(region);
    MPI_Win_free(&win);
}

static void both(const char *mode, MPI_Comm c)
{
    isend_region(mode, c);
    put_region(mode, c);
}

/* 1 when p[0..n) is a stride r -> o + r * s with at most 2 exceptions */
static int near_stride(const int *p, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if ((p[j] - p[i]) % (j - i))
                continue;
            int s = (p[j] - p[i]) / (j - i), o = p[i] - i * s, miss = 0;
            for (int k = 0; k < n; k++)
                miss += p[k] != o + k * s;
            if (miss <= 2)
                return 1;
        }
    return 0;
}

/* a permutation of 0..n-1, the same on every process (fixed seed); for
 * n >= 6 one that no stride with two exceptions describes */
static void irregular_perm(int *perm, int n)
{
    srand(4242);
    do
        perm_shuffle(perm, n);
    while (n >= 6 && near_stride(perm, n));
}

/* mlut and mlut-rand, on the merge of the parents and the spawned group */
static void multi_group(MPI_Comm merged)
{
    int size, me;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &me);
    int *perm = malloc(size * sizeof *perm);
    irregular_perm(perm, size);
    MPI_Comm mixed;
    MPI_Comm_split(merged, 0, perm[me], &mixed);
    both("mlut", merged);
    both("mlut-rand", mixed);
    MPI_Comm_free(&mixed);
    free(perm);
}

int main(int argc, char **argv)
{
    int rank, np, nchild;
    MPI_Comm parent, inter, merged, c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_get_parent(&parent);
    int child = parent != MPI_COMM_NULL;
    if (argc > 3) B = atoi(argv[3]);
    if (argc > 4) R = atoi(argv[4]);
    if (child) {                /* spawned: take part in the multi-group regions only */
        MPI_Intercomm_merge(parent, 1, &merged);
        multi_group(merged);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    if (argc < 2 || np < 4 || np % 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n NP(even, >=4) %s MODES_CSV [NCHILD B R]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    nchild = argc > 2 ? atoi(argv[2]) : np / 2;
    measurer = rank == np - 1;
    if (measurer && !(modes_csv = fopen(argv[1], "a"))) {
        perror("opcost: MODES_CSV");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pvar_init();

    if (nchild > 0) {           /* the children get the same arguments (argv[argc] is NULL) */
        MPI_Comm_spawn(argv[0], argv + 1, nchild, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        MPI_Intercomm_merge(inter, 0, &merged);
        multi_group(merged);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&inter);
    }

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    both("direct", c);
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, rank >= np / 2 ? 1 : MPI_UNDEFINED, rank, &c);
    if (c != MPI_COMM_NULL) {
        both("offset", c);
        MPI_Comm_free(&c);
    }
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? 1 : MPI_UNDEFINED, rank, &c);
    if (c != MPI_COMM_NULL) {
        both("stride", c);
        MPI_Comm_free(&c);
    }
    int *perm = malloc(np * sizeof *perm);
    irregular_perm(perm, np);
    MPI_Comm_split(MPI_COMM_WORLD, 0, perm[rank], &c);
    both("lut", c);
    MPI_Comm_free(&c);
    free(perm);

    pvar_fini();
    if (modes_csv)
        fclose(modes_csv);
    MPI_Finalize();
    return 0;
}
