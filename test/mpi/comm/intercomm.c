/* MPI_Intercomm_create between halves, odd/even, blocks, a group of one,
 * a regular group and a shuffled one, world ranks 2 3 1 (overlapping
 * blocks), and uneven random groups (local
 * leaders not rank 0 of world), checked on both sides; then
 * MPI_Intercomm_merge with high = 0/1 on either side: the low group comes
 * first in the merged communicator, each group in its own order.  Also
 * MPI_Comm_dup and MPI_Comm_create of an intercommunicator. */
#include "avtest.h"

static int W;

/* colors (0/1) and keys indexed by world rank; local leader = local rank
 * `lead` of each side (clamped) */
static void run(const int *colors, const int *keys, int lead, const char *what)
{
    char buf[128];
    int *mine = malloc(sizeof(int) * (size_t) W), *other = malloc(sizeof(int) * (size_t) W);
    int c = colors[av_wrank];
    int ln = av_split_expect(colors, keys, c, mine);
    int rn = av_split_expect(colors, keys, 1 - c, other);
    if (rn == 0) {
        free(mine);
        free(other);
        return;
    }
    MPI_Comm local, inter, merged;
    MPI_Comm_split(MPI_COMM_WORLD, c, keys[av_wrank], &local);
    int llead = lead < ln ? lead : ln - 1, rlead = lead < rn ? lead : rn - 1;
    MPI_Intercomm_create(local, llead, MPI_COMM_WORLD, other[rlead], 77, &inter);
    snprintf(buf, sizeof buf, "intercomm %s", what);
    av_ctx = buf;
    av_check_inter(inter, mine, ln, other, rn);

    {
        MPI_Comm d;
        snprintf(buf, sizeof buf, "intercomm dup %s", what);
        MPI_Comm_dup(inter, &d);
        av_check_inter(d, mine, ln, other, rn);
        MPI_Comm_free(&d);
    }

    int *m = malloc(sizeof(int) * (size_t) W);
    for (int variant = 0; variant < 3; variant++) {
        /* variant 0: color 1 high; 1: color 0 high; 2: both high=0 (then
         * the order is implementation chosen, only membership is checked) */
        int high = variant == 0 ? c : variant == 1 ? 1 - c : 0;
        MPI_Intercomm_merge(inter, high, &merged);
        snprintf(buf, sizeof buf, "merge %s variant %d", what, variant);
        int n = 0;
        if (variant < 2) {
            const int *lo = high ? other : mine, *hi = high ? mine : other;
            int lon = high ? rn : ln, hin = high ? ln : rn;
            for (int i = 0; i < lon; i++)
                m[n++] = lo[i];
            for (int i = 0; i < hin; i++)
                m[n++] = hi[i];
        } else {
            int sz;
            MPI_Comm_size(merged, &sz);
            MPI_Allgather(&av_wrank, 1, MPI_INT, m, 1, MPI_INT, merged);
            n = sz;
            /* each group must be contiguous and in its own order */
            int a = av_find(m, n, mine[0]);
            for (int i = 0; a >= 0 && i < ln; i++)
                if (a + i >= n || m[a + i] != mine[i]) {
                    av_err("merged (high equal): local group not contiguous/in order");
                    break;
                }
            if (n != ln + rn)
                av_err("merged size %d, expected %d", n, ln + rn);
        }
        av_check_comm(merged, m, n);
        if (variant == 0)
            av_check_rma(merged, m, n);
        MPI_Comm_free(&merged);
    }

    /* MPI_Comm_create on the intercommunicator: each side keeps its even
     * local ranks */
    {
        MPI_Group lg, sub;
        MPI_Comm ic;
        MPI_Comm_group(inter, &lg);
        int rr[1][3] = {{0, ln - 1, 2}};
        MPI_Group_range_incl(lg, 1, rr, &sub);
        MPI_Comm_create(inter, sub, &ic);
        snprintf(buf, sizeof buf, "intercomm create %s", what);
        int lr;
        MPI_Comm_rank(inter, &lr);
        if (lr % 2) {
            if (ic != MPI_COMM_NULL)
                av_err("non-member got a communicator");
        } else {
            int *le = malloc(sizeof(int) * (size_t) W), *re = malloc(sizeof(int) * (size_t) W);
            int a = 0, b = 0;
            for (int i = 0; i < ln; i += 2)
                le[a++] = mine[i];
            for (int i = 0; i < rn; i += 2)
                re[b++] = other[i];
            if (ic == MPI_COMM_NULL)
                av_err("member got MPI_COMM_NULL");
            else
                av_check_inter(ic, le, a, re, b);
            free(le);
            free(re);
        }
        if (ic != MPI_COMM_NULL)
            MPI_Comm_free(&ic);
        MPI_Group_free(&sub);
        MPI_Group_free(&lg);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    free(m);
    free(mine);
    free(other);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    W = av_wsize;
    int *colors = malloc(sizeof(int) * (size_t) W), *keys = malloc(sizeof(int) * (size_t) W);

    for (int w = 0; w < W; w++) {
        colors[w] = w >= W / 2;
        keys[w] = w;
    }
    run(colors, keys, 0, "halves");
    for (int w = 0; w < W; w++) {
        colors[w] = w % 2;
        keys[w] = -w;
    }
    run(colors, keys, 1, "odd/even reversed");
    /* blocks of 2 alternating (each side a block formula), a side of one
     * process, and a formula against a list (the second half's keys
     * shuffled) */
    for (int w = 0; w < W; w++) {
        colors[w] = (w / 2) % 2;
        keys[w] = w;
    }
    run(colors, keys, 2, "blocks of 2");
    for (int w = 0; w < W; w++) {
        colors[w] = w == W - 1;
        keys[w] = w;
    }
    run(colors, keys, 0, "one alone");
    /* world ranks 2 3 1 against the rest: a map of blocks of 2, -1 apart,
     * whose short last block overlaps the first (its formula crosses) */
    if (W >= 5) {
        for (int w = 0; w < W; w++) {
            colors[w] = !(w >= 1 && w <= 3);
            keys[w] = w == 2 ? 0 : w == 3 ? 1 : w == 1 ? 2 : w;
        }
        run(colors, keys, 0, "ranks 2 3 1");
    }
    {
        unsigned s = 7919u;
        for (int w = 0; w < W; w++) {
            colors[w] = w >= W / 2;
            keys[w] = colors[w] ? (int) (av_rand(&s) % 1000u) : w;
        }
        run(colors, keys, 1, "halves, one shuffled");
    }
    for (unsigned seed = 1; seed <= 3; seed++) {
        unsigned s = seed * 104729u;
        for (int w = 0; w < W; w++) {
            colors[w] = (int) (av_rand(&s) % 3u == 0);
            keys[w] = (int) (av_rand(&s) % 100u);
        }
        colors[0] = 0;
        colors[W - 1] = 1;
        char what[32];
        snprintf(what, sizeof what, "random seed %u", seed);
        run(colors, keys, (int) seed, what);
    }
    free(colors);
    free(keys);
    return av_finalize();
}
