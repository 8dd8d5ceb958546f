/*
 * splitcost: what one communicator creation costs each process, for any MPI:
 * bytes received and send calls on its sockets, peak transient heap (all
 * three from sockcount.so, preloaded; zeros without it), time.
 *
 *   mpiexec -n P env LD_PRELOAD=/abs/sockcount.so splitcost LIB SHAPES [REPS=5]
 *
 * Shapes (comma-separated): dup (MPI_Comm_dup: the context id alone, what
 * every creation pays), oddeven (r % 2), blocks8 (r / 8), reversed
 * (r / 8, key -r), rows and cols (a 2-D MPI_Dims_create grid: r / ncols,
 * r % ncols), cartsub (MPI_Cart_sub keeping the second dimension of that
 * grid), shared (MPI_Comm_split_type SHARED), randcolor (4 colours by a
 * hash of r), randkey (r / 8, key a hash of r); and MPI_Intercomm_create
 * between groups made before the measured creations: icreate (the halves
 * r < P/2 and the rest), icreate-oe (odd and even ranks), icreate-rand
 * (halves of a permutation of r by a hash: groups no formula describes);
 * imerge (MPI_Intercomm_merge of the halves' intercommunicator); and from
 * a group made before: create (MPI_Comm_create of the world with the odd
 * ranks' group; the even ranks get MPI_COMM_NULL), create-group
 * (MPI_Comm_create_group of the world's halves, each half its own).
 * Per shape: one creation to warm up (connections, first contacts), then
 * REPS measured ones. Socket figures are differences of two windows per
 * repetition, [barrier; creation; barrier] minus [barrier; barrier], so
 * that a barrier's bytes read inside either count in both. Heap: the peak
 * above the live heap at the creation's start, inside the creation
 * (the new communicator included). Time: the creation's MPI_Wtime span,
 * max over ranks, median over REPS.
 * Prints CSV rows (rank 0): lib,shape,P,recv_bytes_mean,recv_bytes_max,
 * sends_mean,sends_max,heap_peak_max,time_us_median,time_us_min,time_us_max
 * Under callgrind (bench/real/cgwrap.sh runs one rank so, collection off),
 * the measured creations are collected (CALLGRIND_TOGGLE_COLLECT around
 * each) and dumped once per shape (CALLGRIND_DUMP_STATS_AT(shape)): a
 * no-op in the other ranks (bench/real/run-createinsns.sh).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>

static void (*sc_read)(unsigned long long out[4]);
static void (*sc_mark)(void);
static long long (*sc_peak)(long long *now);

static void counters(unsigned long long out[4])
{
    if (sc_read)
        sc_read(out);
    else
        memset(out, 0, 4 * sizeof(out[0]));
}

static unsigned hash(unsigned x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* The intercomm shapes' groups (made at their first creation, the warm-up):
 * k 0 halves, 1 odd/even, 2 halves of a hash permutation. */
static MPI_Comm sides[3], halves_inter = MPI_COMM_NULL;

static int side_color(int k, int w, int P)
{
    return k == 0 ? w >= P / 2 : k == 1 ? w % 2 : (int) (hash((unsigned) w) & 1);
}

static int side_key(int k, int w)
{
    return k == 2 ? (int) (hash((unsigned) w) >> 1) : w;
}

/* My group of shape k, and in *remote_leader the world rank of the other
 * group's local rank 0 (its least key, ties by rank) */
static MPI_Comm side(int k, int r, int P, int *remote_leader)
{
    if (!sides[k])
        MPI_Comm_split(MPI_COMM_WORLD, side_color(k, r, P), side_key(k, r), &sides[k]);
    int lead = -1;
    for (int w = 0; w < P; w++)
        if (side_color(k, w, P) != side_color(k, r, P) &&
            (lead < 0 || side_key(k, w) < side_key(k, lead)))
            lead = w;
    *remote_leader = lead;
    return sides[k];
}

static MPI_Comm make(const char *shape, int r, int P)
{
    MPI_Comm c = MPI_COMM_NULL;
    int rl;
    int dims[2] = { 0, 0 }, periods[2] = { 0, 0 };
    MPI_Dims_create(P, 2, dims);
    if (!strcmp(shape, "dup")) MPI_Comm_dup(MPI_COMM_WORLD, &c);
    else if (!strcmp(shape, "oddeven")) MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &c);
    else if (!strcmp(shape, "blocks8")) MPI_Comm_split(MPI_COMM_WORLD, r / 8, r, &c);
    else if (!strcmp(shape, "reversed")) MPI_Comm_split(MPI_COMM_WORLD, r / 8, -r, &c);
    else if (!strcmp(shape, "rows")) MPI_Comm_split(MPI_COMM_WORLD, r / dims[1], r, &c);
    else if (!strcmp(shape, "cols")) MPI_Comm_split(MPI_COMM_WORLD, r % dims[1], r, &c);
    else if (!strcmp(shape, "randcolor")) MPI_Comm_split(MPI_COMM_WORLD, (int) (hash((unsigned) r) % 4), r, &c);
    else if (!strcmp(shape, "randkey")) MPI_Comm_split(MPI_COMM_WORLD, r / 8, (int) (hash((unsigned) r) >> 1), &c);
    else if (!strcmp(shape, "icreate") || !strcmp(shape, "icreate-oe") || !strcmp(shape, "icreate-rand")) {
        int k = !strcmp(shape, "icreate") ? 0 : !strcmp(shape, "icreate-oe") ? 1 : 2;
        MPI_Comm l = side(k, r, P, &rl);
        /* local leader: local rank 0, whose lowest world rank leads the other side too */
        MPI_Intercomm_create(l, 0, MPI_COMM_WORLD, rl, 7, &c);
    } else if (!strcmp(shape, "imerge")) {
        if (halves_inter == MPI_COMM_NULL) {
            MPI_Comm l = side(0, r, P, &rl);
            MPI_Intercomm_create(l, 0, MPI_COMM_WORLD, rl, 8, &halves_inter);
        }
        MPI_Intercomm_merge(halves_inter, r >= P / 2, &c);
    }
    else if (!strcmp(shape, "create") || !strcmp(shape, "create-group")) {
        static MPI_Group odd = MPI_GROUP_NULL, half = MPI_GROUP_NULL;
        if (odd == MPI_GROUP_NULL) {
            MPI_Group w;
            int rr[1][3] = { { 1, P - 1, 2 } }, hr[1][3] = { { r < P / 2 ? 0 : P / 2,
                                                              r < P / 2 ? P / 2 - 1 : P - 1, 1 } };
            MPI_Comm_group(MPI_COMM_WORLD, &w);
            MPI_Group_range_incl(w, 1, rr, &odd);
            MPI_Group_range_incl(w, 1, hr, &half);
            MPI_Group_free(&w);
        }
        if (!strcmp(shape, "create"))
            MPI_Comm_create(MPI_COMM_WORLD, odd, &c);
        else
            MPI_Comm_create_group(MPI_COMM_WORLD, half, 9, &c);
    }
    else if (!strcmp(shape, "shared")) MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &c);
    else if (!strcmp(shape, "cartsub")) {
        static MPI_Comm cart = MPI_COMM_NULL;
        int keep[2] = { 0, 1 };
        if (cart == MPI_COMM_NULL)
            MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
        MPI_Cart_sub(cart, keep, &c);
    } else {
        if (r == 0) fprintf(stderr, "splitcost: unknown shape %s\n", shape);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (argc < 3) {
        if (r == 0) fprintf(stderr, "usage: splitcost LIB SHAPES [REPS]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *lib = argv[1];
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    sc_read = (void (*)(unsigned long long *)) dlsym(RTLD_DEFAULT, "sockcount_read");
    sc_mark = (void (*)(void)) dlsym(RTLD_DEFAULT, "sockcount_heap_mark");
    sc_peak = (long long (*)(long long *)) dlsym(RTLD_DEFAULT, "sockcount_heap_peak");
    char *shapes = strdup(argv[2]);
    double *tmax = malloc(sizeof(double) * (size_t) reps);
    for (char *save, *shape = strtok_r(shapes, ",", &save); shape; shape = strtok_r(NULL, ",", &save)) {
        MPI_Comm c = make(shape, r, P);
        if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
        double recv = 0, sends = 0, peak = 0;
        for (int k = 0; k < reps; k++) {
            unsigned long long a[4], b[4], x[4], y[4];
            /* baseline window: two barriers */
            MPI_Barrier(MPI_COMM_WORLD);
            counters(x);
            MPI_Barrier(MPI_COMM_WORLD);
            counters(y);
            /* creation window */
            MPI_Barrier(MPI_COMM_WORLD);
            counters(a);
            long long now = 0, pk = 0;
            if (sc_mark) sc_mark();
            double t0 = MPI_Wtime();
            CALLGRIND_TOGGLE_COLLECT;
            c = make(shape, r, P);
            CALLGRIND_TOGGLE_COLLECT;
            double t = MPI_Wtime() - t0;
            if (sc_peak) pk = sc_peak(&now);
            MPI_Barrier(MPI_COMM_WORLD);
            counters(b);
            if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
            double dr = (double) (b[2] - a[2]) - (double) (y[2] - x[2]);
            double ds = (double) (b[1] - a[1]) - (double) (y[1] - x[1]);
            recv += dr / reps;
            sends += ds / reps;
            if ((double) pk > peak) peak = (double) pk;
            MPI_Reduce(&t, &tmax[k], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        }
        CALLGRIND_DUMP_STATS_AT(shape);
        double sum[2], mx[3], in[3] = { recv, sends, peak };
        MPI_Reduce(in, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(in, mx, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (r == 0) {
            qsort(tmax, (size_t) reps, sizeof(double), cmpd);
            printf("%s,%s,%d,%.0f,%.0f,%.1f,%.0f,%.0f,%.1f,%.1f,%.1f\n", lib, shape, P, sum[0] / P,
                   mx[0], sum[1] / P, mx[1], mx[2], tmax[reps / 2] * 1e6, tmax[0] * 1e6,
                   tmax[reps - 1] * 1e6);
            fflush(stdout);
        }
    }
    free(tmax);
    free(shapes);
    MPI_Finalize();
    return 0;
}
