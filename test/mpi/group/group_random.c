/* Random groups against a brute-force reference (each group kept as the list
 * of its members' world ranks): a pool built by incl, excl, range_incl,
 * range_excl, union, intersection, difference and MPI_Comm_group of random
 * splits (and of their intercomm's remote side), nested on each other; every
 * new group is checked member by member both ways (av_check_group), its
 * MPI_Group_rank, MPI_Group_compare and MPI_Group_translate_ranks against
 * random pool groups (all three compare outcomes), and some become
 * communicators (MPI_Comm_create_group) checked by traffic.
 * Then what groups cost, from the library's pvars (where it has them):
 * regular groups (the world's, a stride, a communicator's) add no table and
 * no rank index, even after searches, and freeing every group returns
 * avrm_map_bytes, avrm_table_bytes and avrm_rank_index_bytes to their
 * values before; a communicator made from a permuted group
 * (MPI_Comm_create, _create_group) takes the group's table instead of
 * building another. The seed is the same on every rank (group operations are
 * local; the collectives are entered by the same decisions).
 * MPI_PROC_NULL must translate to MPI_PROC_NULL whatever the target group
 * (MPI 4.0, 7.4.1): stock MPICH 4.0.2 returns MPI_UNDEFINED for it when the
 * target group is empty, and fails here for that reason alone. */
#include "avtest.h"
#include "avtest_mode.h"

#define POOL 12
#define STEPS 70

typedef struct {
    MPI_Group g;
    int n, *w;              /* members' world ranks, in group order */
} ref_group_t;

static ref_group_t pool[POOL];
static int npool;
static unsigned seed = 12345;

/* rnd: decisions, the same on every rank (pooled groups are the same
 * everywhere, so sizes drawn from them agree); rndl: picks that may differ
 * by rank (members to translate, work on a rank's own split group) */
static unsigned lseed;
static int rnd(int n)
{
    return n > 0 ? (int) (av_rand(&seed) % (unsigned) n) : 0;
}
static int rndl(int n)
{
    return n > 0 ? (int) (av_rand(&lseed) % (unsigned) n) : 0;
}

/* reference set operations on world-rank lists */
static int ref_select(const ref_group_t *a, const ref_group_t *b, int want, int *out)
{
    return av_ref_select(a->w, a->n, b->w, b->n, want, out);
}

static int ref_compare(const ref_group_t *a, const ref_group_t *b)
{
    return av_ref_compare(a->w, a->n, b->w, b->n);
}

/* every check of one group against the reference and the pool */
static void check_group(const ref_group_t *r, const char *what)
{
    av_ctx = what;
    av_check_group(r->g, r->w, r->n);
    int gr, want = av_find(r->w, r->n, av_wrank);
    MPI_Group_rank(r->g, &gr);
    if (gr != (want < 0 ? MPI_UNDEFINED : want))
        av_err("group_rank %d, expected %d", gr, want);
    for (int k = 0; k < npool; k++) {
        const ref_group_t *o = &pool[k];
        int res;
        MPI_Group_compare(r->g, o->g, &res);
        if (res != ref_compare(r, o))
            av_err("compare with pool %d: %d, expected %d", k, res, ref_compare(r, o));
        int m = r->n < 8 ? r->n : 8, in[9], out[9];
        for (int i = 0; i < m; i++)
            in[i] = rndl(r->n);
        in[m] = MPI_PROC_NULL;
        MPI_Group_translate_ranks(r->g, m + 1, in, o->g, out);
        for (int i = 0; i < m; i++) {
            int w = av_find(o->w, o->n, r->w[in[i]]);
            if (out[i] != (w < 0 ? MPI_UNDEFINED : w))
                av_err("translate rank %d to pool %d: %d, expected %d", in[i], k, out[i], w);
        }
        if (out[m] != MPI_PROC_NULL)
            av_err("MPI_PROC_NULL translated to %d", out[m]);
    }
}

/* a new group made by the library and its reference: checked, then kept in
 * the pool (replacing a random one when full) or freed */
static void take(MPI_Group g, int *w, int n, const char *what)
{
    ref_group_t r = { g, n, w };
    if (n == 0) {
        int res;
        av_ctx = what;
        MPI_Group_compare(g, MPI_GROUP_EMPTY, &res);
        if (res != MPI_IDENT)
            av_err("empty result compares %d with MPI_GROUP_EMPTY", res);
        if (g != MPI_GROUP_EMPTY)
            MPI_Group_free(&g);
        free(w);
        return;
    }
    check_group(&r, what);
    if (rnd(4) == 0) {                 /* some become communicators */
        MPI_Comm c;
        if (av_find(w, n, av_wrank) >= 0) {
            MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c);
            av_check_comm(c, w, n);
            MPI_Comm_free(&c);
        }
    }
    int slot;                          /* 0 (world) and 1 (empty) stay */
    if (npool < POOL) {
        slot = npool++;
    } else {
        slot = 2 + rnd(POOL - 2);
        MPI_Group_free(&pool[slot].g);
        free(pool[slot].w);
    }
    pool[slot] = r;
}

static int *alloc_ranks(int n)
{
    return malloc(sizeof(int) * (size_t) (n + 1));
}

static void step(int t)
{
    char what[96];
    ref_group_t *a = &pool[rnd(npool)], *b = &pool[rnd(npool)];
    int W = av_wsize, op = rnd(9), *w, *idx, n;
    if (a->n == 0 && op <= 3)          /* rank-based constructors need members */
        a = &pool[0];
    MPI_Group g;
    switch (op) {
    case 0:                            /* incl: a random subset, random order */
        n = 1 + rnd(a->n);
        idx = alloc_ranks(a->n);
        for (int i = 0; i < a->n; i++)
            idx[i] = i;
        av_shuffle(idx, a->n, &seed);
        w = alloc_ranks(n);
        for (int i = 0; i < n; i++)
            w[i] = a->w[idx[i]];
        MPI_Group_incl(a->g, n, idx, &g);
        free(idx);
        snprintf(what, sizeof what, "step %d: incl %d of %d", t, n, a->n);
        take(g, w, n, what);
        break;
    case 1: {                          /* excl: a few members (the survivors) */
        int k = rnd(a->n < 4 ? a->n : 4) , m = 0;
        idx = alloc_ranks(a->n);
        for (int i = 0; i < a->n; i++)
            idx[i] = i;
        av_shuffle(idx, a->n, &seed);
        w = alloc_ranks(a->n);
        for (int i = 0; i < a->n; i++)
            if (av_find(idx, k, i) < 0)
                w[m++] = a->w[i];
        MPI_Group_excl(a->g, k, idx, &g);
        free(idx);
        snprintf(what, sizeof what, "step %d: excl %d of %d", t, k, a->n);
        take(g, w, m, what);
        break;
    }
    case 2: case 3: {                  /* range_incl / range_excl, one strided range */
        int s = 1 + rnd(3), first = rnd(a->n), last;
        if (rnd(2)) {                  /* descending */
            last = first - s * rnd(first / s + 1);
            s = -s;
        } else {
            last = first + s * rnd((a->n - 1 - first) / s + 1);
        }
        int rg[1][3] = { { first, last, s } }, m = 0;
        w = alloc_ranks(a->n);
        if (op == 2) {
            for (int x = first; s > 0 ? x <= last : x >= last; x += s)
                w[m++] = a->w[x];
            MPI_Group_range_incl(a->g, 1, rg, &g);
        } else {
            for (int i = 0; i < a->n; i++) {
                int in = s > 0 ? (i >= first && i <= last && (i - first) % s == 0)
                               : (i <= first && i >= last && (first - i) % -s == 0);
                if (!in)
                    w[m++] = a->w[i];
            }
            MPI_Group_range_excl(a->g, 1, rg, &g);
        }
        snprintf(what, sizeof what, "step %d: range_%s %d..%d:%d of %d", t,
                 op == 2 ? "incl" : "excl", first, last, s, a->n);
        take(g, w, m, what);
        break;
    }
    case 4:                            /* union */
        w = alloc_ranks(a->n + b->n);
        memcpy(w, a->w, sizeof(int) * (size_t) a->n);
        n = a->n + ref_select(b, a, 0, w + a->n);
        MPI_Group_union(a->g, b->g, &g);
        snprintf(what, sizeof what, "step %d: union %d + %d", t, a->n, b->n);
        take(g, w, n, what);
        break;
    case 5: case 6:                    /* a's members that are (5) / are not (6) in b */
        w = alloc_ranks(a->n);
        n = ref_select(a, b, op == 5, w);
        if (op == 5)
            MPI_Group_intersection(a->g, b->g, &g);
        else
            MPI_Group_difference(a->g, b->g, &g);
        snprintf(what, sizeof what, "step %d: %s %d, %d", t, op == 5 ? "intersection" : "difference",
                 a->n, b->n);
        take(g, w, n, what);
        break;
    default: {                         /* the group of a random split, and of an intercomm */
        int *colors = alloc_ranks(W), *keys = alloc_ranks(W), nc = 1 + rnd(3);
        for (int i = 0; i < W; i++) {
            colors[i] = rnd(nc);
            keys[i] = rnd(3) ? rnd(W) : 0;
        }
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, colors[av_wrank], keys[av_wrank], &c);
        w = alloc_ranks(W);
        n = av_split_expect(colors, keys, colors[av_wrank], w);
        MPI_Comm_group(c, &g);
        snprintf(what, sizeof what, "step %d: comm_group of split %d colors", t, nc);
        /* a rank's own group (not pooled: pools must agree across ranks):
         * checked, and its union with a pool group */
        ref_group_t r = { g, n, w }, *o = &pool[rndl(npool)];
        check_group(&r, what);
        MPI_Group u;
        int *uw = alloc_ranks(n + o->n);
        memcpy(uw, w, sizeof(int) * (size_t) n);
        int un = n + ref_select(o, &r, 0, uw + n);
        MPI_Group_union(g, o->g, &u);
        ref_group_t ru = { u, un, uw };
        snprintf(what, sizeof what, "step %d: union of a split's group and a pool group", t);
        check_group(&ru, what);
        MPI_Group_free(&u);
        MPI_Group_free(&g);
        free(uw);
        free(w);
        /* remote group of an intercomm between color 0 and color 1 */
        int n0 = 0, n1 = 0;
        for (int i = 0; i < W; i++)
            n0 += colors[i] == 0, n1 += colors[i] == 1;
        if (n0 > 0 && n1 > 0 && colors[av_wrank] <= 1) {
            int *other = alloc_ranks(W), m = av_split_expect(colors, keys, !colors[av_wrank], other);
            MPI_Comm ic;
            MPI_Intercomm_create(c, 0, MPI_COMM_WORLD, other[0], 9, &ic);
            MPI_Comm_remote_group(ic, &g);
            snprintf(what, sizeof what, "step %d: remote group of an intercomm", t);
            av_ctx = what;
            av_check_group(g, other, m);     /* not pooled: only these ranks made it */
            MPI_Group_free(&g);
            MPI_Comm_free(&ic);
            free(other);
        }
        MPI_Comm_free(&c);
        free(colors);
        free(keys);
        break;
    }
    }
}

/* process-wide size pvars, or -1 when the library has none */
static MPI_T_pvar_session sess;
static int sz_idx[3] = { -1, -1, -1 };
static const char *const sz_name[3] = { "avrm_map_bytes", "avrm_table_bytes",
                                        "avrm_rank_index_bytes" };

static void read_sizes(unsigned long long *v)
{
    for (int i = 0; i < 3; i++) {
        v[i] = 0;
        if (sz_idx[i] < 0)
            continue;
        MPI_T_pvar_handle h;
        int count;
        MPI_T_pvar_handle_alloc(sess, sz_idx[i], NULL, &h, &count);
        MPI_T_pvar_read(sess, h, &v[i]);
        MPI_T_pvar_handle_free(sess, &h);
    }
}

static void expect_sizes(const unsigned long long *before, int which_mask, const char *what)
{
    unsigned long long now[3];
    read_sizes(now);
    av_ctx = what;
    for (int i = 0; i < 3; i++)
        if ((which_mask >> i & 1) && now[i] != before[i])
            av_err("%s went from %llu to %llu bytes", sz_name[i], before[i], now[i]);
}

/* the testlist's discriminating run: no content sharing, more ranks than an
 * inline map holds */
static int have_table_env(void)
{
    const char *v = getenv("MPIR_CVAR_AVRM_SHARE_TABLES");
    return v && !strcmp(v, "0") && av_wsize > 16;
}

static void memory_checks(void)
{
    int W = av_wsize;
    unsigned long long base[3];
    read_sizes(base);
    /* regular groups: no table, no rank index, searched or not */
    MPI_Group g, s;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    int rg[1][3] = { { W - 1, 0, -2 } }, in[1] = { 0 }, out[1];
    MPI_Group_range_incl(g, 1, rg, &s);
    MPI_Group_translate_ranks(av_wgroup, 1, in, s, out);
    MPI_Group_translate_ranks(s, 1, in, g, out);
    int res;
    MPI_Group_compare(g, s, &res);
    expect_sizes(base, 6, "regular groups (world, stride -2)");
    MPI_Group_free(&s);
    MPI_Group_free(&g);
    /* an irregular group's index is kept while it lives, and goes with it */
    int *perm = alloc_ranks(W);
    for (int i = 0; i < W; i++)
        perm[i] = i;
    av_shuffle(perm, W, &seed);
    unsigned long long before[3], with_group[3];
    read_sizes(before);
    MPI_Group_incl(av_wgroup, W, perm, &g);
    MPI_Group_translate_ranks(av_wgroup, 1, in, g, out);
    if (out[0] != av_find(perm, W, 0))
        av_err("translate into a permuted world: %d", out[0]);
    /* a communicator made from the group takes the group's map (its table
     * shared) instead of building another: no table byte more. The group
     * has a table above 16 members (smaller ones are inline); then with
     * MPIR_CVAR_AVRM_SHARE_TABLES=0 (testlist: 18 ranks) a second build
     * would add one. (Its node comm on one node is a slice of that table.) */
    MPI_Comm c1, c2;
    read_sizes(with_group);
    if (have_table_env() && with_group[1] == before[1])
        av_err("a permuted group of %d has no table: the check below proves nothing", W);
    MPI_Comm_create(MPI_COMM_WORLD, g, &c1);
    MPI_Comm_create_group(MPI_COMM_WORLD, g, 11, &c2);
    expect_sizes(with_group, 2, "MPI_Comm_create and _create_group from a permuted group");
    av_check_comm(c1, perm, W);
    av_check_comm(c2, perm, W);
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
    MPI_Group_free(&g);
    free(perm);
    expect_sizes(base, 7, "every group freed");
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    lseed = 777u + (unsigned) av_wrank;
    pool[0] = (ref_group_t) { av_wgroup, av_wsize, alloc_ranks(av_wsize) };
    for (int i = 0; i < av_wsize; i++)
        pool[0].w[i] = i;
    pool[1] = (ref_group_t) { MPI_GROUP_EMPTY, 0, alloc_ranks(0) };
    npool = 2;
    unsigned long long base[3];
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&sess);
    for (int i = 0; i < 3; i++)
        sz_idx[i] = av_pvar_index(sz_name[i], MPI_T_BIND_NO_OBJECT);
    int have_pvars = sz_idx[0] >= 0;   /* stock MPICH has none: nothing to read */
    read_sizes(base);
    /* the discriminating memory run (18 ranks, testlist) needs few steps:
     * its 18 ranks over two emulated hosts (test/cluster) are slow */
    int steps = have_table_env() ? STEPS / 7 : STEPS;
    for (int t = 0; t < steps; t++)
        step(t);
    for (int k = 2; k < npool; k++) {
        MPI_Group_free(&pool[k].g);
        free(pool[k].w);
    }
    free(pool[0].w);
    free(pool[1].w);
    if (have_pvars) {
        expect_sizes(base, 7, "the pool freed");
        memory_checks();
    }
    MPI_T_pvar_session_free(&sess);
    MPI_T_finalize();
    return av_finalize();
}
