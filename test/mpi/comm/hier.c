/* The node hierarchy of communicators (intranode and internode rank of every
 * member, which replaced stock's intranode_table and internode_table) against
 * stock's tables rebuilt here from an independent source: the node of every
 * world rank as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups them.
 * For the world, a dup, odd/even, reversed, halves and random-key splits,
 * the rows of a 2-D cart, MPI_Comm_create_group of the even ranks and the
 * merge of an intercomm: the pvar avrm_comm_hier's every answer, its form
 * (the test's own classification: block, cyclic, runs or table) and its
 * out-of-line bytes. Then node-aware collectives from every root, whose
 * results depend on those answers: MPI_Bcast, MPI_Reduce and MPI_Allreduce
 * with the library's default selection, and in the run with
 * MPIR_CVAR_DEVICE_COLLECTIVES=none and the smp algorithms (testlist).
 * The world's form is also checked against what the placement states (no
 * classification of node ids: check_world_form).
 * The world's node map (MPIR_Process.node_hier, which replaced stock's
 * node_map and the shm module's local_ranks): the node keys
 * MPI_Comm_split_type gives against the hosts' names and the placement the
 * clique CVARs of the environment ask for (expected_nodes), and the pvar
 * avrm_node_map_bytes against the bytes of the world's form. */
#include "avtest_mode.h"

enum { F_NONE, F_BLOCK, F_CYCLIC, F_RUNS, F_TABLE };
static const char *const form_name[] = { "none", "block", "cyclic", "runs", "table" };
static int *wnode;                  /* node key of every world rank */

static void find_pvar(void)
{
    av_find_mode_pvar();
    if (av_comm_hier_index() < 0)
        av_err("the library has no pvar avrm_comm_hier");
}

/* node key of every world rank: the lowest world rank on its node */
static void world_nodes(void)
{
    MPI_Comm node;
    int key;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, av_wrank, MPI_INFO_NULL, &node);
    MPI_Allreduce(&av_wrank, &key, 1, MPI_INT, MPI_MIN, node);
    wnode = malloc(sizeof(int) * (size_t) av_wsize);
    MPI_Allgather(&key, 1, MPI_INT, wnode, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
}

/* stock's construction (MPIR_Find_local / MPIR_Find_external) and the
 * form that describes it */
struct ref {
    int *intra, *inter, nnodes, my_node, local_size, form, bytes;
};

static void ref_build(const int *world, int n, int me, struct ref *f)
{
    int *seen = malloc(sizeof(int) * (size_t) av_wsize);   /* node key -> index */
    for (int i = 0; i < av_wsize; i++)
        seen[i] = -1;
    f->intra = malloc(sizeof(int) * (size_t) n);
    f->inter = malloc(sizeof(int) * (size_t) n);
    f->nnodes = f->local_size = 0;
    for (int r = 0; r < n; r++) {
        int k = wnode[world[r]];
        if (seen[k] < 0)
            seen[k] = f->nnodes++;
        f->inter[r] = seen[k];
        f->intra[r] = k == wnode[world[me]] ? f->local_size++ : -1;
    }
    f->my_node = f->inter[me];
    /* classify, by definition */
    int q = n, block = 1, cyclic = f->nnodes < n, runs = 1;
    for (int r = 1; r < n; r++)
        if (f->inter[r] != f->inter[r - 1]) {
            q = r;
            break;
        }
    for (int r = 0; r < n; r++) {
        block &= f->inter[r] == r / q;
        cyclic &= f->inter[r] == r % f->nnodes;
        if (r > 0)
            runs &= f->inter[r] == f->inter[r - 1] || f->inter[r] == f->inter[r - 1] + 1;
    }
    f->form = block ? F_BLOCK : cyclic ? F_CYCLIC : runs ? F_RUNS : F_TABLE;
    f->bytes = f->form == F_RUNS ? (f->nnodes + 1) * 4
             : f->form == F_TABLE ? (f->local_size + f->nnodes) * 4 + n * (f->nnodes <= 65536 ? 2 : 4)
             : 0;
    free(seen);
}

static void check_hier(MPI_Comm comm, const char *what)
{
    int count = 0, n, me, *world, *v;
    MPI_Group g;
    struct ref f;

    av_ctx = what;
    if (av_comm_hier_index() < 0)
        return;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    MPI_Comm_group(comm, &g);
    world = av_group_world(g, &n);
    MPI_Group_free(&g);
    ref_build(world, n, me, &f);
    v = av_comm_hier(comm, &count);
    if (!v) {
        av_err("avrm_comm_hier: no handle");
        goto out;
    }
    if (count != 5 + 2 * n) {
        av_err("avrm_comm_hier: count %d for %d ranks", count, n);
        free(v);
        goto out;
    }
    if (v[0] != f.form)
        av_err("form %s, expected %s", v[0] >= 0 && v[0] <= 4 ? form_name[v[0]] : "?",
               form_name[f.form]);
    if (v[1] != f.nnodes || v[2] != f.my_node || v[3] != f.local_size || v[4] != f.bytes)
        av_err("nodes %d, my node %d, local size %d, bytes %d; expected %d %d %d %d",
               v[1], v[2], v[3], v[4], f.nnodes, f.my_node, f.local_size, f.bytes);
    for (int r = 0; r < n; r++) {
        if (v[5 + r] != f.intra[r])
            av_err("intranode rank of %d: %d, expected %d", r, v[5 + r], f.intra[r]);
        if (v[5 + n + r] != f.inter[r])
            av_err("internode rank of %d: %d, expected %d", r, v[5 + n + r], f.inter[r]);
    }
    free(v);
  out:
    free(f.intra);
    free(f.inter);
    free(world);
}

/* Bcast/Reduce from every root and Allreduce: node-aware algorithms route
 * through the node leaders the hierarchy names */
static void check_colls(MPI_Comm comm, const char *what)
{
    int n, me;
    av_ctx = what;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    long sum_ranks = (long) n * (n - 1) / 2;
    for (int root = 0; root < n; root++) {
        long b[3] = { me == root ? 1000 + root : -1, me == root ? root : -1, 7 };
        MPI_Bcast(b, 3, MPI_LONG, root, comm);
        if (b[0] != 1000 + root || b[1] != root || b[2] != 7)
            av_err("bcast from %d: %ld %ld %ld", root, b[0], b[1], b[2]);
        long x[2] = { me, 1 }, y[2] = { -1, -1 };
        MPI_Reduce(x, y, 2, MPI_LONG, MPI_SUM, root, comm);
        if (me == root && (y[0] != sum_ranks || y[1] != n))
            av_err("reduce to %d: %ld %ld, expected %ld %d", root, y[0], y[1], sum_ranks, n);
    }
    long x = me, y = -1;
    MPI_Allreduce(&x, &y, 1, MPI_LONG, MPI_SUM, comm);
    if (y != sum_ranks)
        av_err("allreduce: %ld, expected %ld", y, sum_ranks);
}

/* The node key (lowest world rank of the node) of every world rank, from
 * sources other than the library's node map: across hosts (emulated hosts
 * of test/cluster have their own names), the ranks with one processor name;
 * on one host, the placement the environment's clique CVARs ask for
 * (MPIR_CVAR_NOLOCAL, _ODD_EVEN_CLIQUES, _NUM_CLIQUES [+ _CLIQUES_BY_BLOCK]:
 * the first n % k cliques by block hold one rank more), else one node. */
static void expected_nodes(int *key)
{
    const char *nl = getenv("MPIR_CVAR_NOLOCAL"), *oe = getenv("MPIR_CVAR_ODD_EVEN_CLIQUES");
    const char *nc = getenv("MPIR_CVAR_NUM_CLIQUES"), *bb = getenv("MPIR_CVAR_CLIQUES_BY_BLOCK");
    int n = av_wsize, k = nc ? atoi(nc) : oe && atoi(oe) ? 2 : 1, hosts = 0, len;
    char name[MPI_MAX_PROCESSOR_NAME] = { 0 };
    char *names = malloc((size_t) n * MPI_MAX_PROCESSOR_NAME);
    MPI_Get_processor_name(name, &len);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  MPI_COMM_WORLD);
    for (int r = 0; r < n; r++) {
        key[r] = r;
        for (int s = 0; s < r; s++)
            if (!strcmp(names + (size_t) s * MPI_MAX_PROCESSOR_NAME,
                        names + (size_t) r * MPI_MAX_PROCESSOR_NAME)) {
                key[r] = s;
                break;
            }
        hosts += key[r] == r;
    }
    free(names);
    if (hosts > 1)                        /* MPICH applies cliques on one host only */
        return;
    if (nl && atoi(nl)) {
        for (int r = 0; r < n; r++)
            key[r] = r;
        return;
    }
    if (k > n)
        k = n;
    if (k < 1)
        k = 1;
    int q = n / k, big = n % k, *low = malloc(sizeof(int) * (size_t) k);
    for (int c = 0; c < k; c++)
        low[c] = -1;
    for (int r = 0; r < n; r++) {
        int c = !(bb && atoi(bb)) ? r % k : r < big * (q + 1) ? r / (q + 1) : (r - big) / q;
        if (low[c] < 0)
            low[c] = r;
        key[r] = low[c];
    }
    free(low);
}

static void check_world_node_map(void)
{
    int *want = malloc(sizeof(int) * (size_t) av_wsize), *id = malloc(sizeof(int) * (size_t) av_wsize);
    av_ctx = "world node map";
    expected_nodes(want);
    for (int r = 0; r < av_wsize; r++)
        if (wnode[r] != want[r])
            av_err("rank %d is on the node of rank %d, expected with rank %d (hosts, clique CVARs)",
                   r, wnode[r], want[r]);
    for (int r = 0; r < av_wsize; r++)
        id[r] = r;
    struct ref f;
    ref_build(id, av_wsize, av_wrank, &f);
    int idx = av_pvar_index("avrm_node_map_bytes", MPI_T_BIND_NO_OBJECT);
    unsigned long long bytes = 0;
    MPI_T_pvar_handle h;
    int count;
    if (idx < 0 || MPI_T_pvar_handle_alloc(av_mode_sess, idx, NULL, &h, &count) != MPI_SUCCESS)
        av_err("the library has no pvar avrm_node_map_bytes");
    else {
        MPI_T_pvar_read(av_mode_sess, h, &bytes);
        MPI_T_pvar_handle_free(av_mode_sess, &h);
        if (bytes != (unsigned long long) f.bytes)
            av_err("avrm_node_map_bytes %llu, expected %d (the world's form is %s)", bytes,
                   f.bytes, form_name[f.form]);
    }
    free(f.intra);
    free(f.inter);
    free(want);
    free(id);
}

/* The world's form as the placement states it, not by classifying node ids
 * (check_hier does that with the same definitions as the library): one
 * node, or one rank per node, is block; odd/even and round-robin cliques
 * over more ranks than cliques are cyclic; cliques by block are block when
 * every node but the last has one size (n % k is 0 or k - 1), else runs
 * (avrm_hier.h's table). Across hosts (test/cluster) nothing is stated. */
static void check_world_form(void)
{
    const char *nl = getenv("MPIR_CVAR_NOLOCAL"), *oe = getenv("MPIR_CVAR_ODD_EVEN_CLIQUES");
    const char *nc = getenv("MPIR_CVAR_NUM_CLIQUES"), *bb = getenv("MPIR_CVAR_CLIQUES_BY_BLOCK");
    int n = av_wsize, k = nc ? atoi(nc) : oe && atoi(oe) ? 2 : 1, want, len, count;
    char name[MPI_MAX_PROCESSOR_NAME] = { 0 }, first[MPI_MAX_PROCESSOR_NAME] = { 0 };
    MPI_Get_processor_name(name, &len);
    if (av_wrank == 0)
        memcpy(first, name, sizeof first);
    MPI_Bcast(first, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    int other = strcmp(first, name) != 0, any = 0;
    MPI_Allreduce(&other, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any || av_comm_hier_index() < 0)
        return;
    if ((nl && atoi(nl)) || k <= 1 || k >= n)
        want = F_BLOCK;
    else if (!(bb && atoi(bb)))
        want = F_CYCLIC;
    else
        want = n % k == 0 || n % k == k - 1 ? F_BLOCK : F_RUNS;
    av_ctx = "world form from the placement";
    int *v = av_comm_hier(MPI_COMM_WORLD, &count);
    if (!v || count < 1) {
        av_err("avrm_comm_hier: no handle");
        free(v);
        return;
    }
    int v0 = v[0];
    free(v);
    if (v0 != want)
        av_err("form %s, the placement (%d ranks, %d nodes%s) states %s",
               v0 >= 0 && v0 <= 4 ? form_name[v0] : "?", n, (nl && atoi(nl)) ? n : k,
               bb && atoi(bb) ? " by block" : "", form_name[want]);
}

static void check(MPI_Comm comm, const char *what)
{
    if (comm == MPI_COMM_NULL)
        return;
    check_hier(comm, what);
    check_colls(comm, what);
}

int main(int argc, char **argv)
{
    MPI_Comm c;
    av_init(&argc, &argv);
    find_pvar();
    world_nodes();

    check(MPI_COMM_WORLD, "world");
    check_world_node_map();
    check_world_form();
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    check(c, "dup");
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2, av_wrank, &c);
    check(c, "odd/even split");
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -av_wrank, &c);
    check(c, "reversed");
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, av_wrank < av_wsize / 2, av_wrank, &c);
    check(c, "halves");
    MPI_Comm_free(&c);
    unsigned seed = 4242;
    for (int it = 0; it < 4; it++) {
        int *keys = malloc(sizeof(int) * (size_t) av_wsize);
        for (int i = 0; i < av_wsize; i++)
            keys[i] = i;
        av_shuffle(keys, av_wsize, &seed);
        MPI_Comm_split(MPI_COMM_WORLD, 0, keys[av_wrank], &c);
        check(c, "random keys");
        MPI_Comm_free(&c);
        free(keys);
    }
    int dims[2] = { 0, 0 }, periods[2] = { 0, 0 }, keep[2] = { 0, 1 };
    MPI_Comm cart;
    MPI_Dims_create(av_wsize, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    check(cart, "cart");
    MPI_Cart_sub(cart, keep, &c);
    check(c, "cart rows");
    MPI_Comm_free(&c);
    keep[0] = 1, keep[1] = 0;
    MPI_Cart_sub(cart, keep, &c);
    check(c, "cart columns");
    MPI_Comm_free(&c);
    MPI_Comm_free(&cart);
    if (av_wsize >= 2) {
        MPI_Group even;
        int range[1][3] = { { 0, av_wsize - 1, 2 } };
        MPI_Group_range_incl(av_wgroup, 1, range, &even);
        c = MPI_COMM_NULL;
        if (av_wrank % 2 == 0)
            MPI_Comm_create_group(MPI_COMM_WORLD, even, 7, &c);
        check(c, "create_group of the even ranks");
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Group_free(&even);

        MPI_Comm half, inter;
        int low = av_wrank < av_wsize / 2;
        MPI_Comm_split(MPI_COMM_WORLD, low, av_wrank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? av_wsize / 2 : 0, 11, &inter);
        MPI_Intercomm_merge(inter, low, &c);      /* the high half first */
        check(c, "merge of the halves' intercomm");
        MPI_Comm_free(&c);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    free(wnode);
    av_mode_done();
    return av_finalize();
}
