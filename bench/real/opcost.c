/*
 * opcost: instructions (under callgrind) and issue rate (plain) of 8-byte
 * MPI_Isend and MPI_Put to peers, in communicators of each map mode.
 *
 *   mpiexec -genv CG_RANK $((NP-1)) -genv CG_OUT DIR -n NP cgwrap.sh /abs/path/opcost MODES_CSV [NCHILD=NP/2 B=32 R=32]
 *   mpiexec -n NP /abs/path/opcost MODES_CSV [NCHILD B R]      (issue rate only)
 *   mpiexec -n 2^(G+1) /abs/path/opcost MODES_CSV 0 B R G     (generations, below)
 *   mpiexec -n NP /abs/path/opcost MODES_CSV NCHILD B R tables  (table maps, below)
 *
 * World rank NP-1 (the measurer; cgwrap.sh runs it under callgrind with
 * --collect-atstart=no) sends round-robin to every other member of the
 * communicator: per region, one uncollected warm-up batch of B operations,
 * then R batches, each collected (CALLGRIND_TOGGLE_COLLECT around the B
 * calls only; completion -- MPI_Waitall, MPI_Win_fence -- is outside),
 * then CALLGRIND_DUMP_STATS_AT("OP-MODE") writes one profile per region.
 * cgsplit.py splits each into libmpi and libfabric instructions per call.
 *
 * Communicators (named after the paper's Put microbenchmark, section V-C):
 *   direct  MPI_COMM_WORLD dup           offset  split: upper half
 *   stride  split: odd ranks             lut     split: a fixed random permutation
 *                                        (NP >= 6: not a stride with 2 exceptions)
 *   mlut    merge of the world with NCHILD spawned processes (two groups)
 *   mlut-rand  that merge split with a random key (groups interleaved)
 * NCHILD=0 leaves out spawn, mlut and mlut-rand.
 * Table maps ("tables" for G; only these regions run): two shapes the
 * worlds above do not build:
 *   lut16   the world split by a fixed random permutation, NP > AVRM_ILUT_MAX
 *           (16) ranks: a table of 16-bit lpids (an ILUT up to 16)
 *   mseg    the merge with NCHILD spawned processes in three runs (parents'
 *           lower half, the children, the upper half), NP + NCHILD >= 10: a
 *           group of that shape takes MSEG (three 12-byte segments), a
 *           communicator MLUT32, as mlut-rand (MSEG's lookup is the generic
 *           class's: communicators never take it, src/core/avrm_build.c);
 *           the region shows that they do not
 * (test/insns: NP 18, NCHILD 2.) The mode a map takes is the measurer's
 * MODES_CSV row; a world too small for these modes gives others there.
 * Generations (G > 0, the paper's Fig. 19; only these regions run): put-genN
 * for N = 0..G, N odd/even splits deep (each the odd half of the one
 * before, key = rank; gen0 is the world): the measurer, world rank
 * 2^(G+1)-1, is in every one; generation N has 2^(G+1-N) members, a stride
 * 2^N of the world. Each puts to one target only, the generation's rank 0
 * (the issue rate falls with the number of targets, a provider effect that
 * would hide the generation's).
 * The measurer appends MODES_CSV rows after each region:
 *   region,comm_size,mode,calls,batch,rate_median,rate_mean
 * (mode: our pvar avrm_comm_map_mode, "n/a" where the library has none;
 * calls: R * B, the collected calls, since callgrind's call counts are not
 * exact when collection is toggled; rate_median: B / the median over the R
 * batches of the batch's MPI_Wtime span, calls per second; rate_mean:
 * R * B / the sum of the spans. Spans cover the B calls only, not their
 * completion; under callgrind the rates are meaningless.) Run with
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
static double *span;            /* [R]: MPI_Wtime span of each collected batch */
static int recording = 1;       /* 0: a warm-up pass, nothing collected or noted */

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

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* the measurer's row of a region, from span[R] */
static void note_region(const char *region, MPI_Comm c, int size)
{
    unsigned long long v;
    char name[64];
    double sum = 0;
    if (!measurer)
        return;
    if (!pvar_read("avrm_comm_map_mode", MPI_T_PVAR_CLASS_STATE, &c, &v, name, sizeof name))
        strcpy(name, "n/a");
    for (int r = 0; r < R; r++)
        sum += span[r];
    qsort(span, R, sizeof *span, cmp_d);
    double med = R % 2 ? span[R / 2] : (span[R / 2 - 1] + span[R / 2]) / 2;
    fprintf(modes_csv, "%s,%d,%s,%d,%d,%.0f,%.0f\n", region, size, name, R * B, B, B / med, R * B / sum);
    fflush(modes_csv);
}

/* per batch: the peers post their receives of the batch (a provider's
 * receive queue is finite: libfabric shm's takes ~1000), a barrier, the
 * measurer's B sends, everyone's Waitall */
static void isend_region(const char *mode, MPI_Comm c)
{
    int size, me, m = measurer_rank(c);
    char region[64];
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &me);
    snprintf(region, sizeof region, "isend-%s", mode);
    double *buf = calloc(B, sizeof *buf);
    MPI_Request *req = malloc(B * sizeof *req);
    for (int r = 0; r <= R; r++) {
        int k = 0;
        if (me != m)
            for (int i = 0; i < B; i++)
                if (peer(r * B + i, size, m) == me)
                    MPI_Irecv(&buf[k], 1, MPI_DOUBLE, m, 0, c, &req[k]), k++;
        MPI_Barrier(c);
        if (me == m) {
            double t0 = MPI_Wtime();
            if (r > 0 && recording)     /* batch 0 warms up (lazy binding, connections) */
                CALLGRIND_TOGGLE_COLLECT;
            for (int i = 0; i < B; i++)
                MPI_Isend(&buf[i], 1, MPI_DOUBLE, peer(r * B + i, size, m), 0, c, &req[i]);
            if (r > 0 && recording)
                CALLGRIND_TOGGLE_COLLECT;
            if (r > 0)
                span[r - 1] = MPI_Wtime() - t0;
            k = B;
        }
        MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    }
    if (me == m && recording) {
        CALLGRIND_DUMP_STATS_AT(region);
        note_region(region, c, size);
    }
    MPI_Barrier(c);
    free(req);
    free(buf);
}

/* targets: the first `targets` members (the measurer last in c), 0: all */
static void put_region(const char *mode, MPI_Comm c, int targets)
{
    int size, me, m = measurer_rank(c);
    char region[64];
    double *base, one = 1.0;
    MPI_Win win;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &me);
    snprintf(region, sizeof region, "put-%s", mode);
    MPI_Win_allocate(size * sizeof(double), sizeof(double), MPI_INFO_NULL, c, &base, &win);
    /* one fence epoch per batch (passive-target MPI_Win_lock_all hangs with
     * MPIR_CVAR_NOLOCAL=1 on a spawned group, stock MPICH 4.0.2 included) */
    MPI_Win_fence(0, win);
    for (int r = 0; r <= R; r++) {
        if (me == m) {
            double t0 = MPI_Wtime();
            if (r > 0 && recording)
                CALLGRIND_TOGGLE_COLLECT;
            for (int i = 0; i < B; i++)
                MPI_Put(&one, 1, MPI_DOUBLE, peer(r * B + i, targets ? targets + 1 : size, m), m, 1,
                        MPI_DOUBLE, win);
            if (r > 0 && recording)
                CALLGRIND_TOGGLE_COLLECT;
            if (r > 0)
                span[r - 1] = MPI_Wtime() - t0;
        }
        MPI_Win_fence(0, win);
    }
    if (me == m && recording) {
        CALLGRIND_DUMP_STATS_AT(region);
        note_region(region, c, size);
    }
    MPI_Win_free(&win);
}

static void both(const char *mode, MPI_Comm c)
{
    isend_region(mode, c);
    put_region(mode, c, 0);
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

/* one unrecorded pass over a communicator with spawned members: without it
 * (OPCOST_NO_WARMUP=1) the Isend region right after the spawn ran at half
 * the rate of the same sends later, both MPICHs alike (1.3-1.5 against
 * 2.6-3.4 M calls/s, quiet machine, 2026-11-23) */
static void warm_up(MPI_Comm c)
{
    if (!getenv("OPCOST_NO_WARMUP")) {
        recording = 0;
        both("warm-up", c);
        recording = 1;
    }
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
    warm_up(merged);
    both("mlut", merged);
    both("mlut-rand", mixed);
    MPI_Comm_free(&mixed);
    free(perm);
}

/* mseg: the merge in three runs (every member of merged calls; the parents
 * are merged ranks [0, np), the children [np, np + nchild)) */
static void mseg_region(MPI_Comm merged, int np)
{
    int size, me;
    MPI_Comm mixed;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &me);
    int nchild = size - np, key = me < np / 2 ? me : me >= np ? me - nchild : me + nchild;
    MPI_Comm_split(merged, 0, key, &mixed);
    warm_up(mixed);
    both("mseg", mixed);
    MPI_Comm_free(&mixed);
}

/* the regions over the merge of the parents (low) and the spawned group
 * (high) that inter joins; np: the parents' count. Frees and disconnects. */
static void merged_regions(MPI_Comm inter, int high, int np, int tables)
{
    MPI_Comm merged;
    MPI_Intercomm_merge(inter, high, &merged);
    if (tables)
        mseg_region(merged, np);
    else
        multi_group(merged);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
}

/* the world in a fixed random order: lut (an ILUT up to 16 ranks), lut16 */
static void permuted_region(const char *mode, int rank, int np)
{
    MPI_Comm c;
    int *perm = malloc(np * sizeof *perm);
    irregular_perm(perm, np);
    MPI_Comm_split(MPI_COMM_WORLD, 0, perm[rank], &c);
    both(mode, c);
    MPI_Comm_free(&c);
    free(perm);
}

/* direct, offset, stride, lut: communicators of the world's processes */
static void single_group(int rank, int np)
{
    MPI_Comm c;
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
    permuted_region("lut", rank, np);
}

/* put-gen0..G: generation 0 is the world, each next one the odd half of the
 * one before (key = rank); world rank 2^(G+1)-1, the measurer, is the last
 * rank of every one. Every region puts to one target, its first member (the
 * last generation has two), so only the generation changes. */
static void generations(int gens)
{
    MPI_Comm c = MPI_COMM_WORLD, next;
    char name[16];
    put_region("gen0", c, 1);
    for (int g = 1; g <= gens && c != MPI_COMM_NULL; g++) {
        int me;
        MPI_Comm_rank(c, &me);
        MPI_Comm_split(c, me % 2 ? 1 : MPI_UNDEFINED, me, &next);
        if (c != MPI_COMM_WORLD)
            MPI_Comm_free(&c);
        c = next;
        if (c != MPI_COMM_NULL) {
            snprintf(name, sizeof name, "gen%d", g);
            put_region(name, c, 1);
        }
    }
    if (c != MPI_COMM_NULL && c != MPI_COMM_WORLD)
        MPI_Comm_free(&c);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int rank, np, nchild;
    MPI_Comm parent, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_get_parent(&parent);
    int child = parent != MPI_COMM_NULL;
    if (argc > 3) B = atoi(argv[3]);
    if (argc > 4) R = atoi(argv[4]);
    int tables = argc > 5 && !strcmp(argv[5], "tables");
    int gens = argc > 5 && !tables ? atoi(argv[5]) : 0;
    span = calloc(R, sizeof *span);
    if (child) {                /* spawned: take part in the multi-group regions only */
        int pnp;
        MPI_Comm_remote_size(parent, &pnp);
        merged_regions(parent, 1, pnp, tables);
        MPI_Finalize();
        return 0;
    }
    nchild = argc > 2 ? atoi(argv[2]) : np / 2;
    if (argc < 2 || np < 4 || np % 2 || (gens > 0 && np != 2 << gens) || (tables && nchild < 1)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n NP(even, >=4; 2^(G+1) with G) %s MODES_CSV "
                    "[NCHILD B R [G | tables (NCHILD >= 1)]]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    measurer = rank == np - 1;
    if (measurer && !(modes_csv = fopen(argv[1], "a"))) {
        perror("opcost: MODES_CSV");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pvar_init();

    if (gens > 0)
        generations(gens);
    else {
        if (nchild > 0) {       /* the children get the same arguments (argv[argc] is NULL) */
            MPI_Comm_spawn(argv[0], argv + 1, nchild, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                           MPI_ERRCODES_IGNORE);
            merged_regions(inter, 0, np, tables);
        }
        if (tables)
            permuted_region("lut16", rank, np);
        else
            single_group(rank, np);
    }

    pvar_fini();
    if (modes_csv)
        fclose(modes_csv);
    free(span);
    MPI_Finalize();
    return 0;
}

