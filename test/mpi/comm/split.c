/* MPI_Comm_split with key patterns: offset keys (blocks keep world order),
 * stride colors (r % s), reversed keys, random keys (seeded, with ties),
 * MPI_UNDEFINED colors, and splits of splits. */
#include "avtest.h"

static int *colors, *keys, *expect;

/* split `parent` (whose rank i is world rank pw[i]) with the given world-
 * indexed colors/keys and check the result */
static void check_split(MPI_Comm parent, const char *what)
{
    MPI_Comm c;
    av_ctx = what;
    MPI_Comm_split(parent, colors[av_wrank], keys[av_wrank], &c);
    if (colors[av_wrank] == MPI_UNDEFINED) {
        if (c != MPI_COMM_NULL)
            av_err("MPI_UNDEFINED color gave a communicator");
        return;
    }
    int n = av_split_expect(colors, keys, colors[av_wrank], expect);
    av_check_comm(c, expect, n);
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int W = av_wsize;
    colors = malloc(sizeof(int) * (size_t) W);
    keys = malloc(sizeof(int) * (size_t) W);
    expect = malloc(sizeof(int) * (size_t) W);
    char what[64];

    /* offset keys: blocks of b, key = rank - block start (order kept) */
    for (int b = 1; b <= W; b = b < W && b * 2 > W ? W : b * 2) {
        for (int w = 0; w < W; w++) {
            colors[w] = w / b;
            keys[w] = w - (w / b) * b;
        }
        snprintf(what, sizeof what, "split offset block %d", b);
        check_split(MPI_COMM_WORLD, what);
        if (b == W)
            break;
    }
    /* halves with a large constant offset in the key */
    for (int w = 0; w < W; w++) {
        colors[w] = w < (W + 1) / 2;
        keys[w] = w + 1000;
    }
    check_split(MPI_COMM_WORLD, "split halves offset 1000");

    /* stride colors */
    for (int s = 2; s <= 4 && s <= W; s++) {
        for (int w = 0; w < W; w++) {
            colors[w] = w % s;
            keys[w] = w;
        }
        snprintf(what, sizeof what, "split stride %d", s);
        check_split(MPI_COMM_WORLD, what);
    }

    /* reversed keys, whole and in halves */
    for (int w = 0; w < W; w++) {
        colors[w] = 0;
        keys[w] = W - 1 - w;
    }
    check_split(MPI_COMM_WORLD, "split reversed");
    for (int w = 0; w < W; w++) {
        colors[w] = w % 2;
        keys[w] = -w;
    }
    check_split(MPI_COMM_WORLD, "split stride 2 reversed");

    /* random keys (permutation) and random keys with ties */
    for (unsigned seed = 1; seed <= 6; seed++) {
        unsigned s = seed * 7919u;
        for (int w = 0; w < W; w++) {
            keys[w] = w;
            colors[w] = 0;
        }
        av_shuffle(keys, W, &s);
        if (seed % 2 == 0)
            for (int w = 0; w < W; w++)
                keys[w] /= 2;   /* ties: broken by parent rank */
        if (seed >= 3)
            for (int w = 0; w < W; w++)
                colors[w] = (int) (av_rand(&s) % 3u);
        snprintf(what, sizeof what, "split random seed %u", seed);
        check_split(MPI_COMM_WORLD, what);
    }

    /* MPI_UNDEFINED: every third rank opts out */
    for (int w = 0; w < W; w++) {
        colors[w] = w % 3 == 1 ? MPI_UNDEFINED : 5;
        keys[w] = w;
    }
    check_split(MPI_COMM_WORLD, "split undefined");

    /* split of a split: odd/even, then reversed within */
    {
        MPI_Comm half, c;
        av_ctx = "split of split";
        MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2, av_wrank, &half);
        MPI_Comm_split(half, 0, -av_wrank, &c);
        int n = 0;
        for (int w = W - 1; w >= 0; w--)
            if (w % 2 == av_wrank % 2)
                expect[n++] = w;
        av_check_comm(c, expect, n);
        av_check_rma(c, expect, n);
        MPI_Comm_free(&c);
        MPI_Comm_free(&half);
    }
    free(colors);
    free(keys);
    free(expect);
    return av_finalize();
}
