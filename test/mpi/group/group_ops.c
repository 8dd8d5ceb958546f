/* Group constructors checked against expectations computed here:
 * incl (random order), excl, range_incl / range_excl with strides
 * (positive, negative, several ranges), union, intersection, difference,
 * compare, translate_ranks both ways (incl. MPI_PROC_NULL), the
 * communicators MPI_Comm_create builds from them, and its MPI_ERR_GROUP for a
 * group outside the communicator. */
#include "avtest.h"

static int W;

static void expect_group(MPI_Group g, const int *w, int n, const char *what, int make_comm)
{
    av_ctx = what;
    av_check_group(g, w, n);
    int gr, want = av_find(w, n, av_wrank);
    MPI_Group_rank(g, &gr);
    if (gr != (want < 0 ? MPI_UNDEFINED : want))
        av_err("group_rank %d, expected %d", gr, want);
    if (make_comm) {
        MPI_Comm c;
        MPI_Comm_create(MPI_COMM_WORLD, g, &c);
        if (want >= 0) {
            if (c == MPI_COMM_NULL)
                av_err("member got MPI_COMM_NULL");
            else {
                av_check_comm(c, w, n);
                MPI_Comm_free(&c);
            }
        } else if (c != MPI_COMM_NULL)
            av_err("non-member got a communicator");
    }
}

/* expected ranks of a range list over a group with world ranks base[] */
static int ranges(const int *base, int (*r)[3], int nr, int *out)
{
    int n = 0;
    for (int i = 0; i < nr; i++) {
        int a = r[i][0], b = r[i][1], s = r[i][2];
        for (int x = a; s > 0 ? x <= b : x >= b; x += s)
            out[n++] = base[x];
    }
    return n;
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    W = av_wsize;
    int *world = malloc(sizeof(int) * (size_t) W), *e = malloc(sizeof(int) * (size_t) W * 2),
        *tmp = malloc(sizeof(int) * (size_t) W * 2);
    char what[96];
    MPI_Group g, h, u;
    unsigned seed = 99;
    for (int i = 0; i < W; i++)
        world[i] = i;

    expect_group(av_wgroup, world, W, "world", 0);

    /* incl, random order and random subsets */
    for (int t = 0; t < 6; t++) {
        int n = 1 + (int) (av_rand(&seed) % (unsigned) W);
        memcpy(tmp, world, sizeof(int) * (size_t) W);
        av_shuffle(tmp, W, &seed);
        MPI_Group_incl(av_wgroup, n, tmp, &g);
        snprintf(what, sizeof what, "incl random %d of %d", n, W);
        expect_group(g, tmp, n, what, t % 2 == 0);
        /* incl of a group (nested): reverse it */
        int *idx = malloc(sizeof(int) * (size_t) n);
        for (int i = 0; i < n; i++) {
            idx[i] = n - 1 - i;
            e[i] = tmp[n - 1 - i];
        }
        MPI_Group_incl(g, n, idx, &h);
        snprintf(what, sizeof what, "incl reversed of incl random %d", n);
        expect_group(h, e, n, what, 1);
        MPI_Group_free(&h);
        free(idx);
        MPI_Group_free(&g);
    }

    /* excl: every rank ≡ k mod 3 */
    for (int k = 0; k < 3 && k < W; k++) {
        int nx = 0, n = 0;
        for (int i = 0; i < W; i++) {
            if (i % 3 == k)
                tmp[nx++] = i;
            else
                e[n++] = i;
        }
        MPI_Group_excl(av_wgroup, nx, tmp, &g);
        snprintf(what, sizeof what, "excl mod 3 == %d", k);
        expect_group(g, e, n, what, 1);
        MPI_Group_free(&g);
    }

    /* range_incl / range_excl with strides */
    for (int s = 1; s <= 4; s++) {
        int r1[1][3] = {{0, W - 1, s}}, r2[1][3] = {{W - 1, 0, -s}};
        int n = ranges(world, r1, 1, e);
        MPI_Group_range_incl(av_wgroup, 1, r1, &g);
        snprintf(what, sizeof what, "range_incl stride %d", s);
        expect_group(g, e, n, what, s <= 2);
        MPI_Group_free(&g);
        n = ranges(world, r2, 1, e);
        MPI_Group_range_incl(av_wgroup, 1, r2, &g);
        snprintf(what, sizeof what, "range_incl stride %d", -s);
        expect_group(g, e, n, what, s <= 2);
        MPI_Group_free(&g);
        /* range_excl: world order minus the range */
        int nx = ranges(world, r1, 1, tmp), m = 0;
        for (int i = 0; i < W; i++)
            if (av_find(tmp, nx, i) < 0)
                e[m++] = i;
        if (m > 0) {
            MPI_Group_range_excl(av_wgroup, 1, r1, &g);
            snprintf(what, sizeof what, "range_excl stride %d", s);
            expect_group(g, e, m, what, 1);
            MPI_Group_free(&g);
        }
    }
    if (W >= 6) {
        /* three ranges: a strided block, a reversed block, a singleton */
        int r3[3][3] = {{0, W / 2 - 1, 2}, {W - 1, W / 2 + 1, -2}, {W / 2, W / 2, 1}};
        int n = ranges(world, r3, 3, e);
        MPI_Group_range_incl(av_wgroup, 3, r3, &g);
        expect_group(g, e, n, "range_incl three ranges", 1);
        /* range_incl of that group (nested strides) */
        int rr[1][3] = {{n - 1, 0, -2}};
        int *base = malloc(sizeof(int) * (size_t) n);
        memcpy(base, e, sizeof(int) * (size_t) n);
        int m = ranges(base, rr, 1, tmp);
        MPI_Group_range_incl(g, 1, rr, &h);
        expect_group(h, tmp, m, "range_incl of range_incl", 1);
        MPI_Group_free(&h);
        free(base);
        MPI_Group_free(&g);
    }

    /* set operations: g = odd ranks reversed, h = ranks < W/2 */
    {
        int n1 = 0, n2 = 0;
        int *a = malloc(sizeof(int) * (size_t) W), *b = malloc(sizeof(int) * (size_t) W);
        for (int i = W - 1; i >= 0; i--)
            if (i % 2)
                a[n1++] = i;
        for (int i = 0; i < W / 2; i++)
            b[n2++] = i;
        MPI_Group_incl(av_wgroup, n1, a, &g);
        MPI_Group_incl(av_wgroup, n2, b, &h);
        /* union: g's order, then h's members not in g, in h's order */
        int n = 0;
        for (int i = 0; i < n1; i++)
            e[n++] = a[i];
        for (int i = 0; i < n2; i++)
            if (av_find(a, n1, b[i]) < 0)
                e[n++] = b[i];
        MPI_Group_union(g, h, &u);
        expect_group(u, e, n, "union", 1);
        MPI_Group_free(&u);
        /* intersection: g's members also in h, in g's order */
        n = 0;
        for (int i = 0; i < n1; i++)
            if (av_find(b, n2, a[i]) >= 0)
                e[n++] = a[i];
        MPI_Group_intersection(g, h, &u);
        if (n > 0)
            expect_group(u, e, n, "intersection", 1);
        MPI_Group_free(&u);
        /* difference g \ h in g's order */
        n = 0;
        for (int i = 0; i < n1; i++)
            if (av_find(b, n2, a[i]) < 0)
                e[n++] = a[i];
        MPI_Group_difference(g, h, &u);
        if (n > 0)
            expect_group(u, e, n, "difference", 1);
        MPI_Group_free(&u);
        /* compare: same members reordered is SIMILAR */
        int res;
        int *ra = malloc(sizeof(int) * (size_t) (n1 + 1));
        for (int i = 0; i < n1; i++)
            ra[i] = a[n1 - 1 - i];
        MPI_Group_incl(av_wgroup, n1, ra, &u);
        av_ctx = "compare";
        MPI_Group_compare(g, u, &res);
        if (res != (n1 > 1 ? MPI_SIMILAR : MPI_IDENT))
            av_err("compare reordered: %d", res);
        MPI_Group_compare(g, g, &res);
        if (res != MPI_IDENT)
            av_err("compare self: %d", res);
        free(ra);
        MPI_Group_free(&u);
        /* translate between two subgroups, with MPI_PROC_NULL */
        av_ctx = "translate g->h";
        int *in = malloc(sizeof(int) * (size_t) (n1 + 1)), *out = malloc(sizeof(int) * (size_t) (n1 + 1));
        for (int i = 0; i < n1; i++)
            in[i] = i;
        in[n1] = MPI_PROC_NULL;
        MPI_Group_translate_ranks(g, n1 + 1, in, h, out);
        for (int i = 0; i < n1; i++) {
            int want = av_find(b, n2, a[i]);
            if (out[i] != (want < 0 ? MPI_UNDEFINED : want))
                av_err("g rank %d -> h rank %d, expected %d", i, out[i], want);
        }
        if (out[n1] != MPI_PROC_NULL)
            av_err("MPI_PROC_NULL translated to %d", out[n1]);
        free(in);
        free(out);
        MPI_Group_free(&g);
        MPI_Group_free(&h);
        free(a);
        free(b);
    }
    /* MPI_Comm_create with a group that is not in the communicator (the
     * world's group on one half of it, then on an intercomm between the
     * halves): MPI_ERR_GROUP naming the member, on every process, and
     * the communicator stays usable */
    if (W >= 2) {
        MPI_Comm half, inter;
        MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2, av_wrank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, av_wrank % 2 ? 0 : 1, 7, &inter);
        MPI_Comm cs[2] = { half, inter };
        for (int k = 0; k < 2; k++) {
            MPI_Comm c = MPI_COMM_NULL;
            char msg[MPI_MAX_ERROR_STRING];
            int cls = MPI_SUCCESS, len = 0;
            av_ctx = k ? "create from a non-subset, intercomm" : "create from a non-subset";
            MPI_Comm_set_errhandler(cs[k], MPI_ERRORS_RETURN);
            int rc = MPI_Comm_create(cs[k], av_wgroup, &c);
            MPI_Error_class(rc, &cls);
            if (rc != MPI_SUCCESS)
                MPI_Error_string(rc, msg, &len);
            if (cls != MPI_ERR_GROUP || !strstr(msg, "not a member of this communicator"))
                av_err("error class %d (MPI_ERR_GROUP %d), message \"%.*s\"", cls, MPI_ERR_GROUP,
                       len, rc != MPI_SUCCESS ? msg : "");
            if (c != MPI_COMM_NULL)
                MPI_Comm_free(&c);
            MPI_Barrier(cs[k]);
        }
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    free(world);
    free(e);
    free(tmp);
    return av_finalize();
}
