/* Each communicator shape gets the rank-map mode it should, read from the
 * library through the MPI_T pvar avrm_comm_map_mode (class STATE, bound to a
 * communicator, enumeration of mode names), and traffic reaches the right
 * peer for every rank (av_check_comm).  The accepted modes per shape are
 * those an AV-Rankmap builder may choose (e.g. reversed: stride -1 or a
 * table).  spawn + merge must give a multi-group map (join: two runs, no
 * table; mlut/mlut32 otherwise: a communicator never takes mseg).
 *
 * On a library without the pvar the test fails, unless AVTEST_STOCK=1 says
 * it runs on stock MPICH (then only the traffic is checked). */
#include "avtest_mode.h"

static void check_split(int color, int key, const char *what, const char *accepted)
{
    int *colors = malloc(sizeof(int) * av_wsize), *keys = malloc(sizeof(int) * av_wsize);
    int *expect = malloc(sizeof(int) * av_wsize);
    MPI_Allgather(&color, 1, MPI_INT, colors, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgather(&key, 1, MPI_INT, keys, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, color, key, &c);
    int n = av_split_expect(colors, keys, color, expect);
    av_ctx = what;
    av_check_comm(c, expect, n);
    if (n > 2)     /* 1-2 ranks are always regular */
        av_check_mode(c, what, accepted);
    MPI_Comm_free(&c);
    free(colors);
    free(keys);
    free(expect);
}

/* spawn 2 children of this program, merge, check the multi-group map */
static void spawn_merge(char **argv)
{
    MPI_Comm inter, merged;
    char *args[] = { "child", NULL };
    int size, rank, sum = 0, expect;
    MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                   MPI_ERRCODES_IGNORE);
    MPI_Intercomm_merge(inter, 0, &merged);
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    av_ctx = "spawn+merge";
    if (size != av_wsize + 2)
        av_err("merged size %d, expected %d", size, av_wsize + 2);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
    expect = size * (size - 1) / 2;
    if (sum != expect)
        av_err("rank sum %d, expected %d", sum, expect);
    /* ring: each rank receives its left neighbour's merged rank */
    int left = (rank + size - 1) % size, right = (rank + 1) % size, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, merged,
                 MPI_STATUS_IGNORE);
    if (got != left)
        av_err("ring: got %d from left neighbour %d", got, left);
    av_check_mode(merged, "spawn+merge", "join mlut mlut32");
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
}

static int child(void)
{
    MPI_Comm parent, merged;
    int size, rank, sum = 0, got = -1;
    MPI_Comm_get_parent(&parent);
    MPI_Intercomm_merge(parent, 1, &merged);
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, merged,
                 MPI_STATUS_IGNORE);
    int bad = sum != size * (size - 1) / 2 || got != left;
    if (bad)
        fprintf(stderr, "child: rank sum %d ring got %d (left %d)\n", sum, got, left);
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return bad;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child")) {
        MPI_Init(&argc, &argv);
        return child();
    }
    av_init(&argc, &argv);
    int W = av_wsize, r = av_wrank;
    av_find_mode_pvar();
    av_need_mode_pvar();

    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    av_check_mode(d, "dup of world", "direct");
    av_check_mode(MPI_COMM_WORLD, "world", "direct");
    MPI_Comm_free(&d);

    check_split(r % 2, r, "odd/even split", "stride");
    check_split(r < W / 2, r, "halves", "direct offset");
    check_split(0, -r, "reversed", "stride ilut lut lut16");
    /* a permutation with no arithmetic pattern: pairs swapped, then every
     * third rank moved to the end */
    int key = (r % 3 == 2) ? 1000 + r : (r ^ 1);
    check_split(0, key, "scrambled", "ilut lut lut16");

    /* cart rows of a 2-d grid: contiguous runs */
    int dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, keep[2] = { 0, 1 };
    MPI_Comm cart, row;
    MPI_Dims_create(W, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_sub(cart, keep, &row);
    if (dims[1] > 2)
        av_check_mode(row, "cart row", "direct offset");
    keep[0] = 1;
    keep[1] = 0;
    MPI_Comm col;
    MPI_Cart_sub(cart, keep, &col);
    if (dims[0] > 2)
        av_check_mode(col, "cart column", "direct offset stride");
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
    MPI_Comm_free(&cart);

    /* node roots: rank 0 of each shared-memory node (regular under block or
     * round-robin cliques, whatever the placement) */
    MPI_Comm node;
    int nr;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nr);
    MPI_Comm roots;
    MPI_Comm_split(MPI_COMM_WORLD, nr == 0 ? 0 : MPI_UNDEFINED, r, &roots);
    if (roots != MPI_COMM_NULL) {
        int nroots;
        MPI_Comm_size(roots, &nroots);
        if (nroots > 2)
            av_check_mode(roots, "node roots", "direct offset stride block except");
        MPI_Comm_free(&roots);
    }
    MPI_Comm_free(&node);

    spawn_merge(argv);
    av_mode_done();
    return av_finalize();
}
