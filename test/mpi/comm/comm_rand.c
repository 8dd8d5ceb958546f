/* Many random subgroup communicators: each round picks (same seed on every
 * rank) a random subset of world in random order and builds it with
 * MPI_Comm_create, MPI_Comm_create_group or MPI_Comm_split (random colors
 * and keys), sometimes from a random parent instead of world.  Several are
 * kept alive at once and checked again before being freed. */
#include "avtest.h"

#define KEEP 6

struct live {
    MPI_Comm comm;
    int n, *w;
};

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int W = av_wsize, rounds = argc > 1 ? atoi(argv[1]) : 60;
    unsigned seed = argc > 2 ? (unsigned) atoi(argv[2]) : 2024u;
    int *perm = malloc(sizeof(int) * (size_t) W), *colors = malloc(sizeof(int) * (size_t) W),
        *keys = malloc(sizeof(int) * (size_t) W);
    struct live keep[KEEP] = {{0}};
    char what[96];
    av_ctx = what;

    for (int round = 0; round < rounds; round++) {
        int method = (int) (av_rand(&seed) % 3u);
        int n = 1 + (int) (av_rand(&seed) % (unsigned) W);
        for (int i = 0; i < W; i++)
            perm[i] = i;
        av_shuffle(perm, W, &seed);
        MPI_Comm c = MPI_COMM_NULL;
        int *expect = malloc(sizeof(int) * (size_t) W), en = 0;
        if (method < 2) {
            MPI_Group g;
            MPI_Group_incl(av_wgroup, n, perm, &g);
            if (method == 0) {
                MPI_Comm_create(MPI_COMM_WORLD, g, &c);
            } else if (av_find(perm, n, av_wrank) >= 0) {
                MPI_Comm_create_group(MPI_COMM_WORLD, g, round, &c);
            }
            MPI_Group_free(&g);
            if (av_find(perm, n, av_wrank) >= 0) {
                memcpy(expect, perm, sizeof(int) * (size_t) n);
                en = n;
            }
            snprintf(what, sizeof what, "round %d %s n=%d", round,
                     method ? "create_group" : "create", n);
        } else {
            int ncol = 1 + (int) (av_rand(&seed) % 4u);
            for (int w = 0; w < W; w++) {
                colors[w] = (int) (av_rand(&seed) % (unsigned) (ncol + 1));
                if (colors[w] == ncol)
                    colors[w] = MPI_UNDEFINED;
                keys[w] = (int) (av_rand(&seed) % 8u) - 4;
            }
            MPI_Comm_split(MPI_COMM_WORLD, colors[av_wrank], keys[av_wrank], &c);
            if (colors[av_wrank] != MPI_UNDEFINED)
                en = av_split_expect(colors, keys, colors[av_wrank], expect);
            snprintf(what, sizeof what, "round %d split ncolors=%d", round, ncol);
        }
        if (en == 0) {
            if (c != MPI_COMM_NULL)
                av_err("non-member got a communicator");
            free(expect);
        } else if (c == MPI_COMM_NULL) {
            av_err("member got MPI_COMM_NULL");
            free(expect);
        } else {
            av_check_comm(c, expect, en);
            if (round % 5 == 0)
                av_check_rma(c, expect, en);
            /* sub-split of the new communicator: reversed odd ranks */
            if (round % 4 == 1) {
                MPI_Comm sub;
                int r;
                MPI_Comm_rank(c, &r);
                MPI_Comm_split(c, r % 2 ? 0 : MPI_UNDEFINED, -r, &sub);
                if (r % 2) {
                    int *se = malloc(sizeof(int) * (size_t) en), sn = 0;
                    for (int i = en - 1; i >= 0; i--)
                        if (i % 2)
                            se[sn++] = expect[i];
                    av_check_comm(sub, se, sn);
                    free(se);
                    MPI_Comm_free(&sub);
                }
            }
            /* keep it alive in slot round % KEEP */
            struct live *k = &keep[round % KEEP];
            if (k->comm != MPI_COMM_NULL && k->w) {
                av_check_traffic(k->comm, k->w, k->n);
                MPI_Comm_free(&k->comm);
                free(k->w);
            }
            k->comm = c;
            k->n = en;
            k->w = expect;
            continue;
        }
        /* slot not refreshed by this rank: release it to stay balanced
         * (every member of a kept communicator frees it in the same round,
         * since membership of the new one is irrelevant to the old) */
        struct live *k = &keep[round % KEEP];
        if (k->comm != MPI_COMM_NULL && k->w) {
            av_check_traffic(k->comm, k->w, k->n);
            MPI_Comm_free(&k->comm);
            free(k->w);
            k->w = NULL;
        }
    }
    for (int i = 0; i < KEEP; i++)
        if (keep[i].w) {
            MPI_Comm_free(&keep[i].comm);
            free(keep[i].w);
        }
    free(perm);
    free(colors);
    free(keys);
    return av_finalize();
}
