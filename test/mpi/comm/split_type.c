/* MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): each process's node
 * communicator holds exactly the parent's processes on its node, ordered by
 * (key, parent rank), against a reference the test computes itself: the
 * node of a world rank from the placement's CVARs by MPICH's documented
 * clique rules (MPIR_CVAR_NOLOCAL, _ODD_EVEN_CLIQUES, _NUM_CLIQUES with or
 * without _CLIQUES_BY_BLOCK), else from MPI_Get_processor_name. Keys that
 * keep parent order (equal, rank + c), reverse it (c - rank), or neither
 * (taken by MPICH's splits); MPI_UNDEFINED at odd ranks; reversed,
 * scattered and interleaved parents (the hierarchy's TABLE form); MPICH's
 * topology hint. The pvar avrm_comm_split_types_from_hier says which calls
 * our node-hierarchy path settled. */
#include "avtest.h"
#include "avtest_mode.h"

/* the node of world rank w by the placement's CVARs, or -1 (one host per
 * processor name) */
static int placement_node(int w)
{
    const char *e = getenv("MPIR_CVAR_NOLOCAL");
    if (e && atoi(e))
        return w;
    int k = 0;
    if ((e = getenv("MPIR_CVAR_NUM_CLIQUES")))
        k = atoi(e);
    if ((e = getenv("MPIR_CVAR_ODD_EVEN_CLIQUES")) && atoi(e))
        k = 2;
    if (k > av_wsize)
        k = av_wsize;
    if (k < 2)
        return -1;
    if (!((e = getenv("MPIR_CVAR_CLIQUES_BY_BLOCK")) && atoi(e)))
        return w % k;
    int q = av_wsize / k, rem = av_wsize % k;
    return w < (q + 1) * rem ? w / (q + 1) : (w - rem) / q;
}

/* the reference: the world ranks of this process's node communicator of
 * parent (key: this process's key; in: whether it asks SHARED, not
 * MPI_UNDEFINED), in order; returns its size */
static int expected_node(MPI_Comm parent, int key, int in, int **out)
{
    int pn, pr;
    MPI_Comm_size(parent, &pn);
    MPI_Comm_rank(parent, &pr);
    int mine[3] = { av_wrank, key, in }, *all = malloc(sizeof(int) * 3 * (size_t) pn);
    char name[MPI_MAX_PROCESSOR_NAME] = { 0 }, *names;
    int len;
    MPI_Get_processor_name(name, &len);
    names = malloc((size_t) pn * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(mine, 3, MPI_INT, all, 3, MPI_INT, parent);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, parent);
    int *colors = malloc(sizeof(int) * (size_t) pn), *keys = malloc(sizeof(int) * (size_t) pn);
    for (int i = 0; i < pn; i++) {
        int node = placement_node(all[3 * i]);
        if (node < 0)   /* by name: the first parent rank of that name */
            for (node = 0; strcmp(names + (size_t) node * MPI_MAX_PROCESSOR_NAME,
                                  names + (size_t) i * MPI_MAX_PROCESSOR_NAME); node++);
        colors[i] = all[3 * i + 2] ? node : -1 - i;     /* out: a colour of its own */
        keys[i] = all[3 * i + 1];
    }
    int *members = malloc(sizeof(int) * (size_t) pn);
    int n = av_split_members(colors, keys, pn, colors[pr], members);
    for (int i = 0; i < n; i++)
        members[i] = all[3 * members[i]];
    *out = members;
    free(keys);
    free(colors);
    free(names);
    free(all);
    return n;
}

/* node of parent by MPI_Comm_split_type(SHARED, key, info): the members
 * against the reference; messages and RMA over it; the pvar grew by
 * `settled` (1 on our path, 0 on MPICH's; -1: not checked) */
static void check_node(MPI_Comm parent, int key, MPI_Info info, int settled)
{
    MPI_Comm node;
    unsigned long long before = 0, after = 0;
    int *want, n, has = av_read_ull_pvar("avrm_comm_split_types_from_hier", &before);
    int wn = expected_node(parent, key, 1, &want);

    if (!has && settled >= 0 && !getenv("AVTEST_STOCK"))
        av_err("no pvar avrm_comm_split_types_from_hier in this library");

    MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, key, info, &node);
    av_read_ull_pvar("avrm_comm_split_types_from_hier", &after);
    MPI_Comm_size(node, &n);
    if (n != wn)
        av_err("node communicator of %d processes, the reference has %d", n, wn);
    else
        av_check_comm(node, want, n);   /* members, order, messages */
    av_check_rma(node, want, wn < n ? wn : n);
    if (has && settled >= 0 && after - before != (unsigned long long) settled &&
        !getenv("AVTEST_STOCK"))
        av_err("avrm_comm_split_types_from_hier grew by %llu, want %d", after - before, settled);
    MPI_Comm_free(&node);
    free(want);
}

/* the world reordered (this process at position pos of MPI_Comm_split's
 * key) as the parent, with key 0 and with its rank times sign (1: parent
 * order, -1: reversed) */
static void check_parent(int pos, const char *what, int sign, int ours)
{
    static char ctx[160];
    MPI_Comm parent;
    int pr;

    MPI_Comm_split(MPI_COMM_WORLD, 0, pos, &parent);
    MPI_Comm_rank(parent, &pr);
    snprintf(ctx, sizeof(ctx), "split_type shared of %s", what);
    av_ctx = ctx;
    check_node(parent, 0, MPI_INFO_NULL, ours);
    snprintf(ctx, sizeof(ctx), "split_type shared of %s, key %s", what,
             sign > 0 ? "its rank" : "-rank");
    check_node(parent, sign * pr, MPI_INFO_NULL, ours);
    MPI_Comm_free(&parent);
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    av_find_mode_pvar();
    MPI_Comm c;
    MPI_Info hint;
    /* our path unless MPIR_CVAR_AVRM_SPLIT_MIN_SIZE=0 (MPICH's way always) */
    const char *m = getenv("MPIR_CVAR_AVRM_SPLIT_MIN_SIZE");
    int ours = !(m && atoi(m) <= 0);

    av_ctx = "split_type shared, key 0";
    check_node(MPI_COMM_WORLD, 0, MPI_INFO_NULL, ours);
    av_ctx = "split_type shared, key rank + 7";
    check_node(MPI_COMM_WORLD, av_wrank + 7, MPI_INFO_NULL, ours);
    av_ctx = "split_type shared, key -rank (reversed)";
    check_node(MPI_COMM_WORLD, -av_wrank, MPI_INFO_NULL, ours);
    av_ctx = "split_type shared, key rank / 2 (MPICH's way)";
    check_node(MPI_COMM_WORLD, av_wrank / 2, MPI_INFO_NULL, av_wsize > 2 ? 0 : -1);
    av_ctx = "split_type shared, key (rank * 5) % size (ours where it keeps order: P = 4)";
    check_node(MPI_COMM_WORLD, (av_wrank * 5) % av_wsize, MPI_INFO_NULL, -1);

    check_parent(av_wsize - av_wrank, "reversed parent", 1, ours);

    /* parents in which a node's members are no run of ranks, so that the
     * hierarchy takes the TABLE form: world rank * m mod P (m = 2 for odd
     * P: under block3 at 9 two nodes of stride 2, a formula, and one list;
     * under oddeven at 9 two lists), and the first two nodes of the
     * placement interleaved (block3: stride-2 nodes) */
    int mul = av_wsize % 2 ? 2 : 5;
    if (mul % av_wsize > 1)
        check_parent((av_wrank * mul) % av_wsize, "a scattered parent", -1, ours);
    if (placement_node(0) >= 0) {
        /* position in: a0 b0 a1 b1 ... (the nodes of rank 0 and of the
         * first rank elsewhere), then the rest in world order */
        int a = placement_node(0), b = -1, pos = 0, ia = 0, ib = 0, na = 0, nb = 0;
        int *order = malloc(sizeof(int) * (size_t) av_wsize);
        int *as = malloc(sizeof(int) * (size_t) av_wsize), *bs = malloc(sizeof(int) * (size_t) av_wsize);
        for (int w = 0; w < av_wsize; w++) {
            int nd = placement_node(w);
            if (nd == a)
                as[na++] = w;
            else if (b < 0 || nd == b)
                bs[nb++] = w, b = nd;
        }
        while (ia < na || ib < nb) {
            if (ia < na)
                order[as[ia++]] = pos++;
            if (ib < nb)
                order[bs[ib++]] = pos++;
        }
        for (int w = 0; w < av_wsize; w++)
            if (placement_node(w) != a && placement_node(w) != b)
                order[w] = pos++;
        check_parent(order[av_wrank], "a parent interleaving two nodes", -1, ours);
        free(bs);
        free(as);
        free(order);
    }

    av_ctx = "split_type shared, MPICH's topology hint";
    MPI_Info_create(&hint);
    MPI_Info_set(hint, "shmem_topo", "machine");
    check_node(MPI_COMM_WORLD, 0, hint, 0);
    MPI_Info_free(&hint);

    av_ctx = "split_type undefined";
    int *want, wn = expected_node(MPI_COMM_WORLD, 0, av_wrank % 2 == 0, &want);
    MPI_Comm_split_type(MPI_COMM_WORLD, av_wrank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED,
                        0, MPI_INFO_NULL, &c);
    if (av_wrank % 2) {
        if (c != MPI_COMM_NULL)
            av_err("MPI_UNDEFINED gave a communicator");
    } else {
        /* the even ranks of this node, in world order */
        int n;
        MPI_Comm_size(c, &n);
        if (n != wn)
            av_err("node communicator of %d processes, the reference has %d", n, wn);
        else
            av_check_comm(c, want, n);
        MPI_Comm_free(&c);
    }
    free(want);
    return av_finalize();
}
