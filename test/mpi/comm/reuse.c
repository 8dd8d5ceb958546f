/* What a communicator keeps so that later calls do not redo it (issue 28,
 * item 5), read from the library's pvars on an irregular communicator (the
 * world split in a random order, over emulated nodes: a table map and a
 * table node hierarchy):
 *  - its dups share its node hierarchy: process-wide avrm_hier_bytes does
 *    not grow with MPI_Comm_dup (it grew by the communicator's table, 2 B
 *    per member and more, per dup);
 *  - MPI_Comm_create on it (its subset check) builds the rank index of its
 *    group once and keeps it with the communicator (avrm_rank_index_bytes grows once, not again
 *    for a second MPI_Comm_create; it built and dropped one per call), and
 *    frees it with the communicator.
 * Every created communicator is checked (its world ranks). Stock MPICH (no
 * pvars, AVTEST_STOCK=1): the calls and their results only. */
#include "avtest_mode.h"

/* bytes of comm's node hierarchy out of line (avrm_comm_hier entry 4), -1
 * without the pvar */
static int comm_hier_bytes(MPI_Comm comm)
{
    int count, n, b = -1;
    int *v = av_comm_hier(comm, &count);
    MPI_Comm_size(comm, &n);
    if (v && count == 5 + 2 * n)
        b = v[4];
    free(v);
    return b;
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    av_find_mode_pvar();
    av_need_mode_pvar();
    int W = av_wsize, *perm = malloc(sizeof(int) * W), key = 0;
    unsigned seed = 99;
    for (int i = 0; i < W; i++)
        perm[i] = i;
    av_shuffle(perm, W, &seed);
    for (int i = 0; i < W; i++)
        if (perm[i] == av_wrank)
            key = i;            /* rank i of c is world rank perm[i] */
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, key, &c);
    unsigned long long h0, h1, i0, i1, i2, i3;
    int pv = av_read_ull_pvar("avrm_hier_bytes", &h0);

    /* dups share the hierarchy */
    av_ctx = "dups of an irregular communicator";
    int own = comm_hier_bytes(c);
    if (pv && own <= 0)
        av_err("its node hierarchy has %d bytes out of line: not an irregular placement, "
               "nothing to check (run it over emulated nodes)", own);
    MPI_Comm d[3];
    for (int k = 0; k < 3; k++)
        MPI_Comm_dup(k ? d[k - 1] : c, &d[k]);
    av_read_ull_pvar("avrm_hier_bytes", &h1);
    if (pv && h1 != h0)
        av_err("avrm_hier_bytes %llu after 3 dups, %llu before", h1, h0);
    for (int k = 0; k < 3; k++) {
        if (pv && comm_hier_bytes(d[k]) != own)
            av_err("dup %d: %d bytes of hierarchy, its parent %d", k, comm_hier_bytes(d[k]),
                   own);
        MPI_Comm_free(&d[k]);
    }

    /* MPI_Comm_create keeps the rank index of c's group */
    av_ctx = "MPI_Comm_create on an irregular communicator";
    MPI_Group g, cg;
    MPI_Comm_group(c, &cg);
    int nev = (W + 1) / 2, *ev = malloc(sizeof(int) * nev), crank;
    for (int i = 0; i < nev; i++)
        ev[i] = 2 * i;
    MPI_Group_incl(cg, nev, ev, &g);        /* c's even ranks */
    MPI_Group_free(&cg);
    MPI_Comm_rank(c, &crank);
    av_read_ull_pvar("avrm_rank_index_bytes", &i0);
    MPI_Comm e[2];
    for (int k = 0; k < 2; k++) {
        MPI_Comm_create(c, g, &e[k]);
        av_read_ull_pvar("avrm_rank_index_bytes", k ? &i2 : &i1);
        if ((e[k] != MPI_COMM_NULL) != (crank % 2 == 0))
            av_err("create %d: MPI_COMM_NULL %s for rank %d of c", k,
                   e[k] == MPI_COMM_NULL ? "returned" : "not returned", crank);
        if (e[k] != MPI_COMM_NULL) {
            int n, r, wr;
            MPI_Comm_size(e[k], &n);
            MPI_Comm_rank(e[k], &r);
            MPI_Allreduce(&av_wrank, &wr, 1, MPI_INT, MPI_MAX, e[k]);
            if (n != nev || r != crank / 2)
                av_err("create %d: size %d rank %d, expected %d %d", k, n, r, nev, crank / 2);
        }
    }
    /* the search happens in MPI_Comm_create's subset check (error checking:
     * on in every build of ours, --enable-fast=all included), on the
     * members of the new group only: the others search nothing */
    int member = crank % 2 == 0;
    if (pv && (member ? !(i1 > i0 && i2 == i1) : !(i1 == i0 && i2 == i1)))
        av_err("avrm_rank_index_bytes %llu before, %llu after one MPI_Comm_create, %llu after "
               "two: expected %s", i0, i1, i2,
               member ? "one index built and kept" : "none (not in the group)");
    for (int k = 0; k < 2; k++)
        if (e[k] != MPI_COMM_NULL)
            MPI_Comm_free(&e[k]);
    MPI_Group_free(&g);
    MPI_Comm_free(&c);
    av_read_ull_pvar("avrm_rank_index_bytes", &i3);
    if (pv && i3 != i0)
        av_err("avrm_rank_index_bytes %llu after the communicator was freed, %llu before", i3, i0);
    free(perm);
    free(ev);
    av_mode_done();
    return av_finalize();
}
