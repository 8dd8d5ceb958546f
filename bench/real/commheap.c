/*
 * commheap: heap bytes and time per created communicator, the address-layer
 * share of the bytes (our MPI_T pvars; "n/a" on a library without them) and
 * the rank map each shape gets. Builds with any MPI (MPICH, Open MPI).
 *
 *   mpiexec -n NP commheap LIBRARY HEAP_CSV MAPS_CSV [K=200 [SHAPES=all [REP=0]]]
 *
 * For each shape, K creations; each is measured on every rank as the
 * mallinfo2() delta (uordblks + hblkhd) around that one creation, its time
 * (MPI_Wtime, after a barrier) and the delta of our address-layer pvars
 * (avrm_av_entry/meta, avrm_map, avrm_table, avrm_index bytes; read
 * outside the heap window). All K communicators stay alive until the end of
 * the shape's loop, then are freed. The median over K is the steady cost of
 * one communicator; the mean also counts the blocks MPICH's handle pools
 * allocate now and then. Rank 0 appends to HEAP_CSV:
 *   library,np,rep,shape,K,median_bytes,mean_bytes,avrm_median,avrm_mean,
 *   avrm_heap_mean,median_us,mean_us
 * each the max over ranks (a non-member of create_group counts 0);
 * avrm_heap_mean leaves out avrm_map_bytes (map structs inline in the
 * communicator object, already inside the heap figure's handle blocks).
 * To MAPS_CSV: library,np,shape,mode_rank0,map_bytes_max
 * (avrm_comm_map_mode / avrm_comm_map_bytes of the last one created).
 *
 * Shapes (SHAPES: comma-separated names, or "all"):
 *   dup, oddeven (split color rank%2), halves (color rank<np/2), reversed
 *   (key -rank), random (key: a fresh permutation per creation, fixed seed,
 *   so tables are not shared by content), cartrows (MPI_Cart_sub of a 2-D
 *   MPI_Dims_create grid, rows), shared (MPI_Comm_split_type SHARED),
 *   create_group (MPI_Comm_create_group of the even ranks, tag k), cart
 *   (MPI_Cart_create of the world, 2-D MPI_Dims_create grid), win
 *   (MPI_Win_create of 64 bytes over the world), comm_group (MPI_Comm_group
 *   of one of K dups of the world made beforehand: a group, the first one
 *   asked of that communicator), range_incl
 *   (MPI_Group_range_incl of the even ranks of the world group), group_rand
 *   (MPI_Group_incl of the world group in a fresh random order, fixed seed:
 *   an irregular group), group_excl (MPI_Group_excl of one rank, np/2, of
 *   the world group: the survivors of one failed process), and the
 *   intercomm of the two halves (leaders 0 and np/2), its merge, both
 *   (intercomm, merge, inter+merge: deltas of the same K iterations; any of
 *   the three names selects all three).
 * Also one line with shape mpi_init and K = 1: the heap growth across
 * MPI_Init (read before it and after it; avrm columns: the pvars after it).
 */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perm.h"
#include "pvar.h"

enum { DUP, ODDEVEN, HALVES, REVERSED, RANDOM, CARTROWS, SHARED, CREATE_GROUP, CART,
       WIN, COMM_GROUP, RANGE_INCL, GROUP_RAND, GROUP_EXCL, NSINGLE };
static const char *const shape_name[NSINGLE] = {
    "dup", "oddeven", "halves", "reversed", "random", "cartrows", "shared", "create_group",
    "cart", "win", "comm_group", "range_incl", "group_rand", "group_excl"
};

static int rank, np, K = 200;
static const char *lib, *rep = "0";
static FILE *heap_csv, *maps_csv;

/* one creation's measures on this rank */
struct sample {
    long long *heap, *avrm, *avrm_heap;
    double *us;
};

static long long heap_now(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long) (m.uordblks + m.hblkhd);
}

/* our address-layer bytes (all, and without the inline map structs);
 * -1 when the library has no such pvars */
static const char *const avrm_pvars[] = {
    "avrm_av_entry_bytes", "avrm_av_meta_bytes",
    "avrm_table_bytes", "avrm_index_bytes", "avrm_map_bytes"     /* map last */
};
#define NAVRM_PVARS ((int) (sizeof avrm_pvars / sizeof avrm_pvars[0]))
static int have_avrm = 1;

static long long avrm_now(long long *heap_part)
{
    unsigned long long v[NAVRM_PVARS];
    for (int i = 0; have_avrm && i < NAVRM_PVARS; i++)
        have_avrm = pvar_read(avrm_pvars[i], MPI_T_PVAR_CLASS_SIZE, NULL, &v[i], NULL, 0);
    if (!have_avrm)
        return *heap_part = -1;
    *heap_part = 0;
    for (int i = 0; i < NAVRM_PVARS - 1; i++)
        *heap_part += (long long) v[i];
    return *heap_part + (long long) v[NAVRM_PVARS - 1];
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *) a, y = *(const long long *) b;
    return (x > y) - (x < y);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median_ll(long long *d)
{
    qsort(d, K, sizeof *d, cmp_ll);
    return K % 2 ? d[K / 2] : (d[K / 2 - 1] + d[K / 2]) / 2.0;
}

static double mean_ll(const long long *d)
{
    double m = 0;
    for (int k = 0; k < K; k++)
        m += (double) d[k] / K;
    return m;
}

/* medians and means over K on this rank, max over ranks; rank 0 writes */
static void report_heap(const char *shape, struct sample *s)
{
    double mine[7], all[7];
    mine[1] = mean_ll(s->heap);
    mine[0] = median_ll(s->heap);
    mine[3] = mean_ll(s->avrm);
    mine[4] = mean_ll(s->avrm_heap);
    mine[2] = median_ll(s->avrm);
    mine[6] = 0;
    for (int k = 0; k < K; k++)
        mine[6] += s->us[k] / K;
    qsort(s->us, K, sizeof *s->us, cmp_d);
    mine[5] = K % 2 ? s->us[K / 2] : (s->us[K / 2 - 1] + s->us[K / 2]) / 2;
    MPI_Reduce(mine, all, 7, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    fprintf(heap_csv, "%s,%d,%s,%s,%d,%.0f,%.1f,", lib, np, rep, shape, K, all[0], all[1]);
    if (have_avrm)
        fprintf(heap_csv, "%.0f,%.1f,%.1f,", all[2], all[3], all[4]);
    else
        fprintf(heap_csv, "n/a,n/a,n/a,");
    fprintf(heap_csv, "%.1f,%.1f\n", all[5], all[6]);
    fflush(heap_csv);
}

static void report_map(const char *shape, MPI_Comm c)
{
    unsigned long long mode, bytes = 0, maxb;
    char name[64];
    int have = 0, haveb = 0;
    if (c != MPI_COMM_NULL) {
        have = pvar_read("avrm_comm_map_mode", MPI_T_PVAR_CLASS_STATE, &c, &mode, name, sizeof name);
        haveb = pvar_read("avrm_comm_map_bytes", MPI_T_PVAR_CLASS_SIZE, &c, &bytes, NULL, 0);
    }
    MPI_Reduce(&bytes, &maxb, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        fprintf(maps_csv, "%s,%d,%s,%s,", lib, np, shape, have ? name : "n/a");
        fprintf(maps_csv, haveb ? "%llu\n" : "n/a\n", maxb);
        fflush(maps_csv);
    }
}

/* the objects one shape creates: communicators, or groups (comm_group,
 * range_incl), or windows (win) */
struct objs {
    MPI_Comm *c;
    MPI_Group *g;
    MPI_Win *w;
    char *buf;
};

/* the k-th object of single shape s; MPI_COMM_NULL for a non-member
 * (create_group). cart: the grid for cartrows, even: the group of the even
 * ranks for create_group, world: the world group, perm: scratch for random. */
static void create(int s, int k, MPI_Comm cart, MPI_Group even, MPI_Group world, int *perm,
                   struct objs *o)
{
    int color = 0, key = rank, remain[2] = {0, 1};
    MPI_Comm *c = &o->c[k];
    if (s != COMM_GROUP)
        *c = MPI_COMM_NULL;
    switch (s) {
        case CART: {
            int dims[2] = {0, 0}, periods[2] = {0, 0};
            MPI_Dims_create(np, 2, dims);
            MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, c);
            return;
        }
        case WIN:
            MPI_Win_create(o->buf + 64 * k, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &o->w[k]);
            return;
        case COMM_GROUP:                /* o->c[k]: a dup made before */
            MPI_Comm_group(o->c[k], &o->g[k]);
            return;
        case RANGE_INCL: {
            int range[1][3] = {{0, np - 1, 2}};
            MPI_Group_range_incl(world, 1, range, &o->g[k]);
            return;
        }
        case GROUP_RAND:
            MPI_Group_incl(world, np, perm, &o->g[k]);
            return;
        case GROUP_EXCL: {
            int gone = np / 2;
            MPI_Group_excl(world, 1, &gone, &o->g[k]);
            return;
        }
        case DUP:
            MPI_Comm_dup(MPI_COMM_WORLD, c);
            return;
        case CARTROWS:
            MPI_Cart_sub(cart, remain, c);
            return;
        case SHARED:
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, c);
            return;
        case CREATE_GROUP:
            if (rank % 2 == 0)
                MPI_Comm_create_group(MPI_COMM_WORLD, even, k, c);
            return;
        case ODDEVEN:
            color = rank % 2;
            break;
        case HALVES:
            color = rank < np / 2;
            break;
        case REVERSED:
            key = -rank;
            break;
        case RANDOM:
            key = perm[rank];
            break;
    }
    MPI_Comm_split(MPI_COMM_WORLD, color, key, c);
}

/* measure one creation (stmt) into sample k: heap inside the pvar readings,
 * time inside the heap readings */
#define MEASURE(s, k, stmt)                                     \
    do {                                                        \
        long long a0h, a1h, a0 = avrm_now(&a0h);                \
        long long h0 = heap_now();                              \
        double t0 = MPI_Wtime();                                \
        stmt;                                                   \
        double t1 = MPI_Wtime();                                \
        (s)->heap[k] = heap_now() - h0;                         \
        long long a1 = avrm_now(&a1h);                          \
        (s)->us[k] = (t1 - t0) * 1e6;                           \
        (s)->avrm[k] = a1 - a0;                                 \
        (s)->avrm_heap[k] = a1h - a0h;                          \
    } while (0)

static void run_single_shape(int s, struct objs *o, struct sample *m, int *perm)
{
    MPI_Comm cart = MPI_COMM_NULL;
    MPI_Group world, even = MPI_GROUP_NULL;
    double t0 = MPI_Wtime();
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (s == CARTROWS) {
        int dims[2] = {0, 0}, periods[2] = {0, 0};
        MPI_Dims_create(np, 2, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    } else if (s == CREATE_GROUP) {
        int range[1][3] = {{0, np - 1, 2}};
        MPI_Group_range_incl(world, 1, range, &even);
    } else if (s == COMM_GROUP) {     /* a communicator's group is made once, then cached */
        for (int k = 0; k < K; k++)
            MPI_Comm_dup(MPI_COMM_WORLD, &o->c[k]);
    }
    for (int k = 0; k < K; k++) {
        if (s == RANDOM || s == GROUP_RAND)
            perm_shuffle(perm, np);     /* same on every rank */
        MPI_Barrier(MPI_COMM_WORLD);    /* fewer early (unexpected) messages */
        o->g[k] = MPI_GROUP_NULL;
        o->w[k] = MPI_WIN_NULL;
        MEASURE(m, k, create(s, k, cart, even, world, perm, o));
    }
    if (rank == 0)
        fprintf(stderr, "commheap: %s -n %d %s: %.1f s\n", lib, np, shape_name[s], MPI_Wtime() - t0);
    report_heap(shape_name[s], m);
    report_map(shape_name[s], o->c[K - 1]);
    for (int k = 0; k < K; k++) {
        if (o->c[k] != MPI_COMM_NULL)
            MPI_Comm_free(&o->c[k]);
        if (o->g[k] != MPI_GROUP_NULL)
            MPI_Group_free(&o->g[k]);
        if (o->w[k] != MPI_WIN_NULL)
            MPI_Win_free(&o->w[k]);
    }
    if (cart != MPI_COMM_NULL)
        MPI_Comm_free(&cart);
    if (even != MPI_GROUP_NULL)
        MPI_Group_free(&even);
    MPI_Group_free(&world);
}

/* intercomm of the two halves (leaders: world ranks 0 and np/2), then merge */
static void run_inter_shape(MPI_Comm *inter, MPI_Comm *merged, struct sample *m)
{
    int low = rank < np / 2;
    struct sample *mm = m + 1, *both = m + 2;
    MPI_Comm half;
    double t0 = MPI_Wtime();
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    for (int k = 0; k < K; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        MEASURE(m, k, MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? np / 2 : 0, 7, &inter[k]));
        MEASURE(mm, k, MPI_Intercomm_merge(inter[k], !low, &merged[k]));
        both->heap[k] = m->heap[k] + mm->heap[k];
        both->us[k] = m->us[k] + mm->us[k];
        both->avrm[k] = m->avrm[k] + mm->avrm[k];
        both->avrm_heap[k] = m->avrm_heap[k] + mm->avrm_heap[k];
    }
    if (rank == 0)
        fprintf(stderr, "commheap: %s -n %d intercomm+merge: %.1f s\n", lib, np, MPI_Wtime() - t0);
    report_heap("intercomm", m);
    report_heap("merge", mm);
    report_heap("inter+merge", both);
    report_map("intercomm", inter[K - 1]);
    report_map("merge", merged[K - 1]);
    for (int k = 0; k < K; k++) {
        MPI_Comm_free(&merged[k]);
        MPI_Comm_free(&inter[k]);
    }
    MPI_Comm_free(&half);
}

/* is shape `name` in the comma-separated list (or the list "all")? */
static int selected(const char *list, const char *name)
{
    size_t n = strlen(name);
    if (!strcmp(list, "all"))
        return 1;
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    const char *shapes = "all";
    long long init0 = heap_now();
    MPI_Init(&argc, &argv);
    long long init_heap = heap_now() - init0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 4 || np < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n NP(>=2) %s LIBRARY HEAP_CSV MAPS_CSV [K [SHAPES [REP]]]\n",
                    argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    lib = argv[1];
    if (argc > 4)
        K = atoi(argv[4]);
    if (argc > 5)
        shapes = argv[5];
    if (argc > 6)
        rep = argv[6];
    if (rank == 0 && (!(heap_csv = fopen(argv[2], "a")) || !(maps_csv = fopen(argv[3], "a")))) {
        perror("commheap: output");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pvar_init();
    srand(12345);
    MPI_Comm *comms = malloc(2 * K * sizeof *comms);
    struct sample m[3];
    for (int i = 0; i < 3; i++) {
        m[i].heap = malloc(K * sizeof(long long));
        m[i].avrm = malloc(K * sizeof(long long));
        m[i].avrm_heap = malloc(K * sizeof(long long));
        m[i].us = malloc(K * sizeof(double));
    }
    int *perm = malloc(np * sizeof *perm);
    {   /* MPI_Init: one sample (K = 1 for this line) */
        long long ah, a = avrm_now(&ah);
        int k0 = K;
        m[0].heap[0] = init_heap, m[0].avrm[0] = a, m[0].avrm_heap[0] = ah, m[0].us[0] = 0;
        K = 1;
        report_heap("mpi_init", &m[0]);
        K = k0;
    }
    struct objs o = { comms, malloc(K * sizeof(MPI_Group)), malloc(K * sizeof(MPI_Win)),
                      calloc((size_t) K, 64) };
    for (int s = 0; s < NSINGLE; s++)
        if (selected(shapes, shape_name[s]))
            run_single_shape(s, &o, m, perm);
    free(o.g);
    free(o.w);
    free(o.buf);
    if (selected(shapes, "intercomm") || selected(shapes, "merge") || selected(shapes, "inter+merge"))
        run_inter_shape(comms, comms + K, m);
    free(perm);
    for (int i = 0; i < 3; i++) {
        free(m[i].heap);
        free(m[i].avrm);
        free(m[i].avrm_heap);
        free(m[i].us);
    }
    free(comms);
    pvar_fini();
    if (rank == 0) {
        fclose(heap_csv);
        fclose(maps_csv);
    }
    MPI_Finalize();
    return 0;
}
