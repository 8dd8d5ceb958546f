/* RMA (fence put, lock/unlock get, lock_all accumulate) on windows over
 * communicators from every creation routine, and MPI_Win_create on user
 * memory with MPI_Get_accumulate / MPI_Compare_and_swap addressed by
 * communicator rank; the payloads are world ranks, so a wrong rank
 * translation in the RMA path shows up as a wrong value. */
#include "avtest.h"

/* window on user memory: fetch-and-op and CAS on every target */
static void rma_atomics(MPI_Comm comm, const int *expect, int n)
{
    int r, *mem = malloc(sizeof(int) * 2);
    MPI_Win win;
    MPI_Comm_rank(comm, &r);
    mem[0] = av_wrank;  /* owner's world rank */
    mem[1] = 0;         /* counter */
    MPI_Win_create(mem, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &win);
    MPI_Win_lock_all(0, win);
    for (int t = 0; t < n; t++) {
        int one = 1, old = -1, owner = -1, cmp, res = -5;
        MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, t, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Fetch_and_op(NULL, &owner, MPI_INT, t, 0, MPI_NO_OP, win);
        MPI_Win_flush(t, win);
        if (owner != expect[t])
            av_err("fetch_and_op(no_op) at target %d: %d, expected world %d", t, owner, expect[t]);
        if (old < 0 || old >= n)
            av_err("get_accumulate at target %d: old counter %d", t, old);
        /* CAS that must fail (compare with a wrong value) leaves it */
        cmp = expect[t] + 1;
        MPI_Compare_and_swap(&r, &cmp, &res, MPI_INT, t, 0, win);
        MPI_Win_flush(t, win);
        if (res != expect[t])
            av_err("compare_and_swap at target %d returned %d, expected %d", t, res, expect[t]);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(comm);
    MPI_Win_lock(MPI_LOCK_SHARED, r, 0, win);
    if (mem[1] != n || mem[0] != av_wrank)
        av_err("after atomics: counter %d (expected %d), owner %d", mem[1], n, mem[0]);
    MPI_Win_unlock(r, win);
    MPI_Win_free(&win);
    free(mem);
}

/* PSCW: rank r exposes to its left neighbour, accesses its right */
static void rma_pscw(MPI_Comm comm, const int *expect, int n)
{
    if (n < 2)
        return;
    int r, *base;
    MPI_Win win;
    MPI_Group cg, left, right;
    MPI_Comm_rank(comm, &r);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &base, &win);
    *base = -1;
    MPI_Comm_group(comm, &cg);
    int lr = (r + n - 1) % n, rr = (r + 1) % n;
    MPI_Group_incl(cg, 1, &lr, &left);
    MPI_Group_incl(cg, 1, &rr, &right);
    MPI_Win_post(left, 0, win);
    MPI_Win_start(right, 0, win);
    MPI_Put(&av_wrank, 1, MPI_INT, rr, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    if (*base != expect[lr])
        av_err("pscw: got %d from left neighbour, expected world %d", *base, expect[lr]);
    MPI_Group_free(&left);
    MPI_Group_free(&right);
    MPI_Group_free(&cg);
    MPI_Win_free(&win);
}

static void all(MPI_Comm c, const int *expect, int n, const char *what)
{
    av_ctx = what;
    av_check_rma(c, expect, n);
    rma_atomics(c, expect, n);
    rma_pscw(c, expect, n);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    int W = av_wsize, *e = calloc((size_t) W, sizeof(int)), n;
    MPI_Comm c;

    for (int i = 0; i < W; i++)
        e[i] = i;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    all(c, e, W, "rma dup");
    MPI_Comm_free(&c);

    /* split stride 2, reversed within */
    MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2, -av_wrank, &c);
    n = 0;
    for (int i = W - 1; i >= 0; i--)
        if (i % 2 == av_wrank % 2)
            e[n++] = i;
    all(c, e, n, "rma split stride reversed");
    MPI_Comm_free(&c);

    /* random keys */
    {
        int *keys = malloc(sizeof(int) * (size_t) W), *col = calloc((size_t) W, sizeof(int));
        unsigned s = 31337;
        for (int i = 0; i < W; i++)
            keys[i] = i;
        av_shuffle(keys, W, &s);
        MPI_Comm_split(MPI_COMM_WORLD, 0, keys[av_wrank], &c);
        n = av_split_expect(col, keys, 0, e);
        all(c, e, n, "rma split random");
        MPI_Comm_free(&c);
        free(keys);
        free(col);
    }

    /* create_group: range W-1..0 stride -3 */
    {
        int rr[1][3] = {{W - 1, 0, -3}};
        MPI_Group g;
        int gr;
        MPI_Group_range_incl(av_wgroup, 1, rr, &g);
        MPI_Group_rank(g, &gr);
        if (gr != MPI_UNDEFINED) {
            MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &c);
            n = 0;
            for (int i = W - 1; i >= 0; i -= 3)
                e[n++] = i;
            all(c, e, n, "rma create_group stride -3");
            MPI_Comm_free(&c);
        }
        MPI_Group_free(&g);
    }

    /* merged intercommunicator (halves, upper half low) */
    if (W >= 2) {
        MPI_Comm local, inter;
        int up = av_wrank >= W / 2;
        MPI_Comm_split(MPI_COMM_WORLD, up, av_wrank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, up ? 0 : W / 2, 3, &inter);
        MPI_Intercomm_merge(inter, !up, &c);
        n = 0;
        for (int i = W / 2; i < W; i++)
            e[n++] = i;
        for (int i = 0; i < W / 2; i++)
            e[n++] = i;
        all(c, e, n, "rma merged intercomm");
        MPI_Comm_free(&c);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);
    }

    /* random subsets via MPI_Comm_create (argv[1] rounds, default 8) */
    unsigned rounds = argc > 1 ? (unsigned) atoi(argv[1]) : 8u;
    for (unsigned round = 0; round < rounds; round++) {
        unsigned s = 7 + round * 13;
        int *perm = malloc(sizeof(int) * (size_t) W);
        for (int i = 0; i < W; i++)
            perm[i] = i;
        av_shuffle(perm, W, &s);
        n = 1 + (int) (av_rand(&s) % (unsigned) W);
        MPI_Group g;
        MPI_Group_incl(av_wgroup, n, perm, &g);
        MPI_Comm_create(MPI_COMM_WORLD, g, &c);
        if (c != MPI_COMM_NULL) {
            char what[64];
            snprintf(what, sizeof what, "rma random subset round %u", round);
            all(c, perm, n, what);
            MPI_Comm_free(&c);
        }
        MPI_Group_free(&g);
        free(perm);
    }
    free(e);
    return av_finalize();
}
