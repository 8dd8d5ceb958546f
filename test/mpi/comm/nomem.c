/* Out of memory inside the address layer: every allocation a call makes, in
 * turn, fails (MPIR_CVAR_AVRM_FAIL_ALLOC = N, written through MPI_T just
 * before the call: the Nth allocation of the layer after it fails once).
 * For each N until the call makes fewer than N allocations, the call must
 * either return an error of class MPI_ERR_NO_MEM or succeed with a result
 * identical to the same call made without a failure; never a communicator
 * with a wrong node hierarchy (every rank local rank 0, the others remote)
 * and never MPI_ERR_RMA_SYNC on a valid put (issue 28, items 3 and 4).
 * Calls: MPI_Comm_dup and a reversed MPI_Comm_split of the world (rank map,
 * node hierarchy: compared through the pvar avrm_comm_hier and the world
 * ranks of the result), when the split sorts
 * (MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE at most the world's size: a testlist
 * entry) an MPI_Comm_split of the world with shuffled keys armed on one rank
 * only (comm_case says why only there), MPI_Group_incl of a permutation then
 * MPI_Group_translate_ranks into it (group map, rank index), and a PSCW
 * epoch on such a group, with and without MPI_MODE_NOCHECK (rank index at
 * MPI_Win_start). The failure is local: a call that fails on some ranks
 * only is followed by no collective on its result. Stock MPICH (no such
 * CVAR: AVTEST_STOCK=1) runs the calls once, without failures. */
#include "avtest_mode.h"

#define MAX_ALLOCS 64           /* a call making more allocations is an error */

static int cvar_idx = -1;
static MPI_T_cvar_handle cvar;

static void arm(int n)
{
    if (cvar_idx >= 0)
        MPI_T_cvar_write(cvar, &n);
}

/* 1 when the armed failure happened (the CVAR counted down to 0); disarms */
static int disarm(void)
{
    int left = 0, zero = 0;
    if (cvar_idx < 0)
        return 0;
    MPI_T_cvar_read(cvar, &left);
    MPI_T_cvar_write(cvar, &zero);
    return left == 0;
}

/* What a communicator is, as far as this test compares: its world ranks and
 * the pvar avrm_comm_hier (form, nodes, node, local size, bytes, then the
 * intranode and internode rank of every rank). *len ints, malloc'd. */
static int *comm_facts(MPI_Comm c, int *len)
{
    int n, count = 0;
    MPI_Group g;
    MPI_Comm_size(c, &n);
    MPI_Comm_group(c, &g);
    int *world = av_group_world(g, &n);
    MPI_Group_free(&g);
    int *hier = av_comm_hier(c, &count);
    int *f = malloc(sizeof(int) * (size_t) (n + count + 1));
    memcpy(f, world, sizeof(int) * (size_t) n);
    if (count)
        memcpy(f + n, hier, sizeof(int) * (size_t) count);
    free(world);
    free(hier);
    *len = n + count;
    return f;
}

/* A permutation of the world that is no regular map (its searches need a
 * rank index). */
static void permutation(int *perm, unsigned seed)
{
    for (int i = 0; i < av_wsize; i++)
        perm[i] = i;
    av_shuffle(perm, av_wsize, &seed);
}

typedef int (*comm_op_t)(MPI_Comm * out);
static int op_dup(MPI_Comm * out)
{
    return MPI_Comm_dup(MPI_COMM_WORLD, out);
}

static int op_split_reversed(MPI_Comm * out)
{
    return MPI_Comm_split(MPI_COMM_WORLD, 0, av_wsize - av_wrank, out);
}

static int op_split_shuffled(MPI_Comm * out)
{
    int *perm = malloc(sizeof(int) * (size_t) av_wsize);
    permutation(perm, 11);
    int rc = MPI_Comm_split(MPI_COMM_WORLD, 0, perm[av_wrank], out);
    free(perm);
    return rc;
}

/* 1 when any rank saw its armed failure happen: the next N is worth trying */
static int any(int flag)
{
    int all = 0;
    MPI_Allreduce(&flag, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static void check_error(int rc, int injected, const char *call)
{
    int cls = 0;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    if (!injected)
        av_err("%s failed with no failure injected: %s", call, msg);
    else if (cls != MPI_ERR_NO_MEM)
        av_err("%s: error class %d, expected MPI_ERR_NO_MEM (%d): %s", call, cls,
               MPI_ERR_NO_MEM, msg);
}

/* armed: the rank whose Nth allocation fails, or -1 for every rank's (N =
 * 1, 2, ...). With one rank armed only N = 1 is tried, and that failure
 * must fail the call on every rank: the call agrees on it (the sorted
 * split's first allocation is the new map's table, before the context id,
 * when the map has more ranks than fit inline: AVRM_ILUT_MAX, 16).
 * A later one (the new communicator's commit) fails that rank alone, and
 * the others wait in the commit's collectives, as in every creation call of
 * MPICH: not tried. */
static void comm_case(const char *name, comm_op_t op, int armed)
{
    MPI_Comm ref, c;
    int nref, n;
    av_ctx = name;
    op(&ref);
    int *fref = comm_facts(ref, &nref);
    /* freed now: a map table the reference holds would be shared by
     * content, and the calls below would not allocate it */
    MPI_Comm_free(&ref);
    int tried = 0;
    for (int k = 1; cvar_idx >= 0 && k <= (armed < 0 ? MAX_ALLOCS : 1); k++) {
        int mine = armed < 0 || armed == av_wrank;
        if (mine)
            arm(k);
        c = MPI_COMM_NULL;
        int rc = op(&c);
        int injected = mine ? disarm() : 0;
        int injected_any = any(injected);
        if (armed >= 0 && !injected_any)
            av_err("rank %d armed, and no allocation of the layer failed in the call: "
                   "nothing tested", armed);
        if (armed >= 0 && injected_any) {
            int ok = rc == MPI_SUCCESS, some_ok = 0;
            MPI_Allreduce(&ok, &some_ok, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (some_ok)
                av_err("the first allocation failed on rank %d only and this rank %s: "
                       "every rank must return the error", armed,
                       ok ? "returned a communicator" : "returned the error, another not");
        }
        if (rc != MPI_SUCCESS) {
            check_error(rc, injected_any, name);
        } else if (c == MPI_COMM_NULL) {
            av_err("allocation %d failed%s and MPI_SUCCESS came with MPI_COMM_NULL", k,
                   armed >= 0 ? " on one rank" : "");
        } else {
            int *f = comm_facts(c, &n);
            if (n != nref || memcmp(f, fref, sizeof(int) * (size_t) n))
                av_err("allocation %d failed and the communicator differs from one made "
                       "without a failure (world ranks or node hierarchy)", k);
            free(f);
            MPI_Comm_free(&c);
        }
        tried = k;
        if (!injected_any)
            break;
    }
    if (armed < 0 && tried == MAX_ALLOCS)
        av_err("more than %d allocations", MAX_ALLOCS);
    free(fref);
}

static void group_case(void)
{
    int W = av_wsize, *perm = malloc(sizeof(int) * W), *in = malloc(sizeof(int) * W);
    int *out = malloc(sizeof(int) * W);
    av_ctx = "group incl + translate";
    permutation(perm, 7);
    for (int i = 0; i < W; i++)
        in[i] = i;
    for (int k = 1; cvar_idx >= 0 && k <= MAX_ALLOCS; k++) {
        MPI_Group g = MPI_GROUP_NULL;
        arm(k);
        int rc = MPI_Group_incl(av_wgroup, W, perm, &g);
        if (rc == MPI_SUCCESS)
            rc = MPI_Group_translate_ranks(av_wgroup, W, in, g, out);
        int injected = disarm();
        if (rc != MPI_SUCCESS)
            check_error(rc, injected, "MPI_Group_incl or MPI_Group_translate_ranks");
        else
            for (int i = 0; i < W; i++)
                if (perm[out[i]] != i)
                    av_err("allocation %d failed: world rank %d translated to %d", k, i,
                           out[i]);
        if (g != MPI_GROUP_NULL)
            MPI_Group_free(&g);
        if (!any(injected))
            break;
    }
    free(perm);
    free(in);
    free(out);
}

/* Every rank posts to and starts on a permuted group of all, puts its rank
 * into slot [its rank] of every window; the armed failure spans MPI_Win_start
 * and the first put. */
static void pscw_case(int nocheck)
{
    int W = av_wsize, *perm = malloc(sizeof(int) * W), *buf;
    MPI_Win win;
    av_ctx = nocheck ? "PSCW (MPI_MODE_NOCHECK)" : "PSCW";
    MPI_Win_allocate(sizeof(int) * W, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int k = 1; k <= MAX_ALLOCS; k++) {
        MPI_Group g;
        permutation(perm, 100 + k);
        MPI_Group_incl(av_wgroup, W, perm, &g);     /* a fresh group: no index yet */
        for (int i = 0; i < W; i++)
            buf[i] = -1;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_post(g, nocheck ? MPI_MODE_NOCHECK : 0, win);
        if (nocheck)
            MPI_Barrier(MPI_COMM_WORLD);        /* NOCHECK: posts done before starts */
        arm(k);
        int rc = MPI_Win_start(g, nocheck ? MPI_MODE_NOCHECK : 0, win), injected = 0;
        if (rc != MPI_SUCCESS) {
            injected = disarm();
            check_error(rc, injected, "MPI_Win_start");
            rc = MPI_Win_start(g, nocheck ? MPI_MODE_NOCHECK : 0, win);
            if (rc != MPI_SUCCESS)
                av_err("MPI_Win_start failed again without a failure injected");
        }
        for (int t = 0; t < W; t++) {
            int prc = MPI_Put(&av_wrank, 1, MPI_INT, perm[t], av_wrank, 1, MPI_INT, win);
            if (t == 0 && cvar_idx >= 0)
                injected |= disarm();
            if (prc != MPI_SUCCESS) {
                int cls;
                MPI_Error_class(prc, &cls);
                av_err("allocation %d failed: MPI_Put to a member of the start group "
                       "returned class %d%s", k, cls,
                       cls == MPI_ERR_RMA_SYNC ? " (MPI_ERR_RMA_SYNC)" : "");
            }
        }
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        for (int i = 0; i < W; i++)
            if (buf[i] != i)
                av_err("allocation %d failed: slot %d holds %d after the epoch", k, i, buf[i]);
        MPI_Group_free(&g);
        if (cvar_idx < 0 || !any(injected))
            break;
    }
    MPI_Win_free(&win);
    free(perm);
}

/* 1 when MPI_Comm_split of the world sorts what no form settles
 * (MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE at most the world's size) into a map
 * whose table is allocated (more than AVRM_ILUT_MAX, 16, ranks) */
static int sorted_split(void)
{
    int idx, count, min = 0;
    MPI_T_cvar_handle h;
    if (MPI_T_cvar_get_index("MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE", &idx) != MPI_SUCCESS)
        return 0;
    MPI_T_cvar_handle_alloc(idx, NULL, &h, &count);
    MPI_T_cvar_read(h, &min);
    MPI_T_cvar_handle_free(&h);
    return min > 0 && min <= av_wsize && av_wsize > 16;  /* no inline table */
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    av_find_mode_pvar();
    av_need_mode_pvar();
    int count;
    if (MPI_T_cvar_get_index("MPIR_CVAR_AVRM_FAIL_ALLOC", &cvar_idx) != MPI_SUCCESS)
        cvar_idx = -1;
    else
        MPI_T_cvar_handle_alloc(cvar_idx, NULL, &cvar, &count);
    if (cvar_idx < 0 && av_mode_idx >= 0) {
        av_ctx = "setup";
        av_err("no CVAR MPIR_CVAR_AVRM_FAIL_ALLOC");
    }

    comm_case("MPI_Comm_dup", op_dup, -1);
    comm_case("MPI_Comm_split (reversed)", op_split_reversed, -1);
    if (sorted_split())
        comm_case("MPI_Comm_split (shuffled keys, sorted, one rank armed)", op_split_shuffled,
                  av_wsize - 1);
    group_case();
    pscw_case(0);
    pscw_case(1);

    if (cvar_idx >= 0)
        MPI_T_cvar_handle_free(&cvar);
    av_mode_done();
    return av_finalize();
}
