/* PSCW with a rotating host (issue 26): in round i, rank i posts to every
 * other rank and waits; every other rank starts an access epoch on {i},
 * gets the host's value and completes. A post of round i+1 can reach a
 * guest before the post of round i (two senders, no order between them):
 * MPICH 4.0.2 counted posts per window, not per origin, so the guest took
 * the early post for the current round and then waited forever (or its
 * count passed the group size and never matched it again).
 *
 * Run on every communicator shape the other tests use: a dup of the world,
 * the world reversed, MPI_Comm_split_type(SHARED), two halves, and the
 * intracommunicator merged from an intercommunicator between the halves.
 * Each shape runs ROUNDS rotations on one window (argument 1, default 20)
 * and then the kin of the pattern:
 *   - two windows on the same communicator with opposite rotations, their
 *     epochs interleaved (posts must be counted per window and origin);
 *   - the host polls MPI_Win_test instead of MPI_Win_wait;
 *   - a guest's group of several hosts (ranks i and i+1 post together).
 * Every get checks the host's value (its world rank and the round), so an
 * epoch that opened on the wrong post shows up as a wrong value or as a
 * hang (runtests.sh's timeout). */
#include "avtest.h"

struct win { MPI_Win w; int *base; };

static void win_open(struct win *x, MPI_Comm comm)
{
    MPI_Win_allocate(sizeof(int) * 2, sizeof(int), MPI_INFO_NULL, comm, &x->base, &x->w);
    x->base[0] = av_wrank;
    x->base[1] = -1;
    MPI_Barrier(comm);
}

/* one round: `hosts` (nh comm ranks) expose, everyone else accesses them */
static void round_pscw(MPI_Comm comm, struct win *x, const int *hosts, int nh, int tag,
                       int use_test, const int *wof)
{
    int r, n, am_host = 0;
    MPI_Group cg, g;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    MPI_Comm_group(comm, &cg);
    for (int k = 0; k < nh; k++)
        am_host |= hosts[k] == r;
    if (am_host) {
        /* round value readable by the guests of this epoch */
        x->base[1] = tag;
        int *others = malloc(sizeof(int) * n), m = 0;
        for (int q = 0; q < n; q++) {
            int h = 0;
            for (int k = 0; k < nh; k++)
                h |= hosts[k] == q;
            if (!h)
                others[m++] = q;
        }
        MPI_Group_incl(cg, m, others, &g);
        MPI_Win_post(g, 0, x->w);
        if (use_test) {
            int flag = 0;
            while (!flag)
                MPI_Win_test(x->w, &flag);
        } else {
            MPI_Win_wait(x->w);
        }
        free(others);
    } else {
        int got[2][4];
        MPI_Group_incl(cg, nh, hosts, &g);
        MPI_Win_start(g, 0, x->w);
        for (int k = 0; k < nh; k++)
            MPI_Get(got[k], 2, MPI_INT, hosts[k], 0, 2, MPI_INT, x->w);
        MPI_Win_complete(x->w);
        for (int k = 0; k < nh; k++)
            if (got[k][0] != wof[hosts[k]] || got[k][1] != tag)
                av_err("got (world %d, round %d) from host %d, expected (world %d, round %d)",
                       got[k][0], got[k][1], hosts[k], wof[hosts[k]], tag);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&cg);
}

static void check_shape(MPI_Comm comm, const char *what, int rounds)
{
    int n, r;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &r);
    if (n < 2)
        return;
    av_ctx = what;
    int *wof = malloc(sizeof(int) * n);     /* world rank of each comm rank */
    MPI_Allgather(&av_wrank, 1, MPI_INT, wof, 1, MPI_INT, comm);
    struct win a, b;
    win_open(&a, comm);
    win_open(&b, comm);
    int tag = 0;
    for (int k = 0; k < rounds; k++)            /* the reported pattern */
        for (int i = 0; i < n; i++) {
            int h = i;
            round_pscw(comm, &a, &h, 1, ++tag, 0, wof);
        }
    for (int k = 0; k < rounds; k++)            /* two windows interleaved */
        for (int i = 0; i < n; i++) {
            int h1 = i, h2 = n - 1 - i;
            round_pscw(comm, &a, &h1, 1, ++tag, 0, wof);
            round_pscw(comm, &b, &h2, 1, ++tag, 0, wof);
        }
    for (int i = 0; i < n; i++) {               /* the host tests, not waits */
        int h = i;
        round_pscw(comm, &a, &h, 1, ++tag, 1, wof);
    }
    if (n >= 3)
        for (int k = 0; k < rounds; k++)        /* two hosts per round */
            for (int i = 0; i < n; i++) {
                int h[2] = { i, (i + 1) % n };
                round_pscw(comm, &a, h, 2, ++tag, 0, wof);
            }
    MPI_Win_free(&a.w);
    MPI_Win_free(&b.w);
    free(wof);
    av_ctx = "";
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    MPI_Comm c, half, inter, merged;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    check_shape(c, "world dup", rounds);
    MPI_Comm_free(&c);

    MPI_Comm_split(MPI_COMM_WORLD, 0, av_wsize - av_wrank, &c);
    check_shape(c, "world reversed", rounds);
    MPI_Comm_free(&c);

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
    check_shape(c, "split_type shared", rounds);
    MPI_Comm_free(&c);

    int lo = av_wrank < av_wsize / 2;
    MPI_Comm_split(MPI_COMM_WORLD, lo, av_wrank, &half);
    check_shape(half, "halves", rounds);
    if (av_wsize >= 2) {
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lo ? av_wsize / 2 : 0, 7, &inter);
        MPI_Intercomm_merge(inter, lo, &merged);    /* upper half first */
        check_shape(merged, "merged intercomm", rounds);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&inter);
    }
    MPI_Comm_free(&half);
    return av_finalize();
}
