/* grouptime.c - time of MPI group lookups on one rank, per member:
 * MPI_Group_translate_ranks of every rank of a group into the world's group
 * and back, MPI_Group_compare of the group with a copy built the same way
 * (compare_same: same members, same order; with tables shared by content
 * the two maps are byte-identical and ours answers from that shortcut),
 * MPI_Group_compare and MPI_Group_union of the group with its members in
 * reverse order (compare_similar, union_similar: the same set, so every
 * member is looked up in the other group; no shortcut), for group shapes
 *   world   MPI_Comm_group(MPI_COMM_WORLD)
 *   stride2 MPI_Group_range_incl of the even ranks
 *   rand    MPI_Group_incl of every rank in a random order (a table)
 *   excl3   MPI_Group_excl of 3 ranks spread over the world
 *
 *   mpiexec -n NP grouptime LIB OUT.csv REPS
 * Rank 0 measures (the others wait in a barrier); each figure is the
 * median over REPS samples, in ns per member; a sample times a batch of
 * 4096 / size calls (at least one), so that a sample lasts microseconds and
 * the clock's own cost and resolution stay out of the figure. Appends
 * "lib,np,shape,op,ns_per_member" lines to OUT.csv.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perm.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(*v), cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { WORLD, STRIDE2, RAND, EXCL3, NSHAPES };
static const char *const shape_name[NSHAPES] = { "world", "stride2", "rand", "excl3" };

static void make(int s, MPI_Group world, int np, int *perm, MPI_Group *g)
{
    switch (s) {
        case WORLD:
            MPI_Comm_group(MPI_COMM_WORLD, g);
            break;
        case STRIDE2: {
            int r[1][3] = { { 0, np - 1, 2 } };
            MPI_Group_range_incl(world, 1, r, g);
            break;
        }
        case RAND:
            MPI_Group_incl(world, np, perm, g);
            break;
        default: {
            int gone[3] = { np / 4, np / 2, 3 * np / 4 };
            MPI_Group_excl(world, np >= 4 ? 3 : 0, gone, g);
            break;
        }
    }
}

int main(int argc, char **argv)
{
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: grouptime LIB OUT.csv REPS\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const char *lib = argv[1];
    int reps = atoi(argv[3]);
    if (rank == 0) {
        FILE *out = fopen(argv[2], "a");
        MPI_Group world;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int *perm = malloc(sizeof(int) * (size_t) np), *in = malloc(sizeof(int) * (size_t) np),
            *res = malloc(sizeof(int) * (size_t) np);
        double *t = malloc(sizeof(double) * (size_t) reps);
        srand(1);
        perm_shuffle(perm, np);
        for (int s = 0; s < NSHAPES; s++) {
            MPI_Group g, h, r, u;
            int n;
            make(s, world, np, perm, &g);
            make(s, world, np, perm, &h);
            MPI_Group_size(g, &n);
            for (int i = 0; i < n; i++)
                in[i] = n - 1 - i;
            MPI_Group_incl(g, n, in, &r);       /* g's members, reversed */
            for (int i = 0; i < n; i++)
                in[i] = i;
            static const char *const ops[5] = { "translate_to_world", "translate_from_world",
                                                "compare_same", "compare_similar",
                                                "union_similar" };
            int batch = n < 4096 ? 4096 / n : 1;
            for (int op = 0; op < 5; op++) {
                for (int k = 0; k < reps; k++) {
                    double t0 = MPI_Wtime();
                    int cmp;
                    for (int b = 0; b < batch; b++) {
                        if (op == 0)
                            MPI_Group_translate_ranks(g, n, in, world, res);
                        else if (op == 1)
                            MPI_Group_translate_ranks(world, n, in, h, res);
                        else if (op == 2)
                            MPI_Group_compare(g, h, &cmp);
                        else if (op == 3)
                            MPI_Group_compare(g, r, &cmp);
                        else {
                            MPI_Group_union(g, r, &u);
                            MPI_Group_free(&u);
                        }
                    }
                    t[k] = (MPI_Wtime() - t0) * 1e9 / ((double) n * batch);
                }
                fprintf(out, "%s,%d,%s,%s,%.2f\n", lib, np, shape_name[s], ops[op],
                        median(t, reps));
            }
            MPI_Group_free(&g);
            MPI_Group_free(&h);
            MPI_Group_free(&r);
        }
        MPI_Group_free(&world);
        fclose(out);
        free(perm);
        free(in);
        free(res);
        free(t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
