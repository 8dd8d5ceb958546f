/*
 * groupinsns: instructions per MPI_Group_translate_ranks call (callgrind,
 * deterministic where times on a shared 2-core machine are not), every
 * member of a group into the world's group and back, for the world, a
 * random order (MPI_Group_incl: a table), the world minus 3 ranks
 * (MPI_Group_excl) and the even ranks (MPI_Group_range_incl: a stride). Rank 0 runs under callgrind with --collect-atstart=no
 * semantics emulated by CALLGRIND_ZERO_STATS: after one warm-up call (a
 * table group builds its rank index on its first search), 1000 calls, then
 * CALLGRIND_DUMP_STATS_AT("OP-SHAPE").
 *
 *   mpiexec -n 1 valgrind --tool=callgrind --callgrind-out-file=F ./groupinsns : -n NP-1 ./groupinsns
 *
 * run-groupinsns.sh runs it on both builds and prints the table.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/callgrind.h>
#include "perm.h"

#define CALLS 1000

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world, rnd, excl, even;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int *perm = malloc(np * sizeof(int)), *in = malloc(np * sizeof(int)),
        *out = malloc(np * sizeof(int)), gone[3] = { 1, np / 3, 2 * np / 3 + 1 };
    srand(1);
    perm_shuffle(perm, np);
    for (int i = 0; i < np; i++)
        in[i] = i;
    MPI_Group_incl(world, np, perm, &rnd);
    MPI_Group_excl(world, np >= 6 ? 3 : 0, gone, &excl);
    int evens[1][3] = { { 0, np - 1, 2 } };
    MPI_Group_range_incl(world, 1, evens, &even);
    if (rank == 0) {
        MPI_Group gs[4] = { world, rnd, excl, even };
        const char *name[4] = { "world", "rand", "excl3", "stride2" };
        for (int s = 0; s < 4; s++) {
            int n;
            char what[64];
            MPI_Group_size(gs[s], &n);
            MPI_Group_translate_ranks(world, n, in, gs[s], out);
            MPI_Group_translate_ranks(gs[s], n, in, world, out);
            CALLGRIND_ZERO_STATS;
            for (int k = 0; k < CALLS; k++)
                MPI_Group_translate_ranks(world, n, in, gs[s], out);
            snprintf(what, sizeof what, "translate_from_world-%s", name[s]);
            CALLGRIND_DUMP_STATS_AT(what);
            for (int k = 0; k < CALLS; k++)
                MPI_Group_translate_ranks(gs[s], n, in, world, out);
            snprintf(what, sizeof what, "translate_to_world-%s", name[s]);
            CALLGRIND_DUMP_STATS_AT(what);
        }
    }
    MPI_Group_free(&even);
    MPI_Group_free(&excl);
    MPI_Group_free(&rnd);
    MPI_Group_free(&world);
    free(out);
    free(in);
    free(perm);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
