/* MPI_Comm_create (collective over the parent) and MPI_Comm_create_group
 * (members only) from groups built by incl (reordered), excl, range_incl
 * with positive and negative strides; non-members get MPI_COMM_NULL. */
#include "avtest.h"

static void check_created(MPI_Comm c, MPI_Group g, const char *what)
{
    int n, *w = av_group_world(g, &n);
    av_ctx = what;
    if (av_find(w, n, av_wrank) < 0) {
        if (c != MPI_COMM_NULL)
            av_err("non-member got a communicator");
    } else if (c == MPI_COMM_NULL) {
        av_err("member got MPI_COMM_NULL");
    } else {
        av_check_comm(c, w, n);
    }
    free(w);
}

static void both(MPI_Group g, const char *what, int tag)
{
    MPI_Comm c;
    char buf[96];
    MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    snprintf(buf, sizeof buf, "create %s", what);
    check_created(c, g, buf);
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);

    int gr;
    MPI_Group_rank(g, &gr);
    c = MPI_COMM_NULL;
    if (gr != MPI_UNDEFINED)
        MPI_Comm_create_group(MPI_COMM_WORLD, g, tag, &c);
    snprintf(buf, sizeof buf, "create_group %s", what);
    check_created(c, g, buf);
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int W = av_wsize, *ranks = malloc(sizeof(int) * (size_t) W), n;
    MPI_Group g;

    /* full group, world order and reversed */
    both(av_wgroup, "world", 1);
    for (int i = 0; i < W; i++)
        ranks[i] = W - 1 - i;
    MPI_Group_incl(av_wgroup, W, ranks, &g);
    both(g, "incl reversed", 2);
    MPI_Group_free(&g);

    /* excl every third */
    n = 0;
    for (int i = 0; i < W; i += 3)
        ranks[n++] = i;
    MPI_Group_excl(av_wgroup, n, ranks, &g);
    both(g, "excl every third", 3);
    MPI_Group_free(&g);

    /* range_incl strides */
    int tag = 10;
    for (int s = 1; s <= 3; s++) {
        int r1[1][3] = {{0, W - 1, s}}, r2[1][3] = {{W - 1, 0, -s}};
        char what[64];
        MPI_Group_range_incl(av_wgroup, 1, r1, &g);
        snprintf(what, sizeof what, "range_incl 0..%d stride %d", W - 1, s);
        both(g, what, tag++);
        MPI_Group_free(&g);
        MPI_Group_range_incl(av_wgroup, 1, r2, &g);
        snprintf(what, sizeof what, "range_incl %d..0 stride %d", W - 1, -s);
        both(g, what, tag++);
        MPI_Group_free(&g);
    }
    /* two ranges: upper half forward then lower half backward */
    if (W >= 4) {
        int h = W / 2, r[2][3] = {{h, W - 1, 1}, {h - 1, 0, -1}};
        MPI_Group_range_incl(av_wgroup, 2, r, &g);
        both(g, "range_incl two ranges", tag++);
        MPI_Group_free(&g);
    }
    /* singletons */
    ranks[0] = W - 1;
    MPI_Group_incl(av_wgroup, 1, ranks, &g);
    both(g, "singleton last", tag++);
    MPI_Group_free(&g);

    /* create from a subcommunicator (parent is odd/even split) */
    {
        MPI_Comm half, c;
        MPI_Group hg, sub;
        MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2, -av_wrank, &half);
        MPI_Comm_group(half, &hg);
        int hn;
        MPI_Group_size(hg, &hn);
        int rr[1][3] = {{0, hn - 1, 2}};
        MPI_Group_range_incl(hg, 1, rr, &sub);
        MPI_Comm_create(half, sub, &c);
        check_created(c, sub, "create from split parent");
        if (c != MPI_COMM_NULL) {
            int sn, *w = av_group_world(sub, &sn);
            av_check_rma(c, w, sn);
            free(w);
            MPI_Comm_free(&c);
        }
        MPI_Group_free(&sub);
        MPI_Group_free(&hg);
        MPI_Comm_free(&half);
    }
    free(ranks);
    return av_finalize();
}
