/*
 * avtest.h: helpers shared by our MPI tests (header only).
 *
 * Every test checks communicators against what the test itself expects:
 * for each communicator rank, the MPI_COMM_WORLD rank that must sit there.
 * The checks use three independent views of that translation:
 *   - MPI_Group_translate_ranks of the communicator's group into world's,
 *   - MPI_Allgather of each member's world rank,
 *   - point-to-point messages whose payload carries the sender's world
 *     rank and communicator rank (ring in both directions, and
 *     MPI_ANY_SOURCE receives whose status must name the right sender).
 * RMA checks put and get world ranks through windows on the communicator.
 *
 * A test calls av_init(), runs its checks, then av_finalize(), which prints
 * "No Errors" on world rank 0 when every rank passed and returns the exit
 * status (nonzero on any error).
 */
#ifndef AVTEST_H_INCLUDED
#define AVTEST_H_INCLUDED

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int av_wrank, av_wsize, av_errs;
static MPI_Group av_wgroup;
static const char *av_ctx = "";     /* what is being checked, for messages */

#define AV_MAGIC 0x41565254

static inline void av_err(const char *fmt, ...)
{
    va_list ap;
    av_errs++;
    if (av_errs > 20)
        return;
    fprintf(stderr, "[world %d] %s: ", av_wrank, av_ctx);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

/* the placement's premise, after MPI_Init: with AVTEST_EXPECT_NICS set
 * (runtests.sh twonics), MPICH found that many NICs (MPI_INFO_ENV num_nics);
 * set empty, not checked */
static inline void av_check_placement(void)
{
    const char *nics = getenv("AVTEST_EXPECT_NICS");
    if (!nics || !*nics)
        return;
    char v[16] = "";
    int flag = 0;
    MPI_Info_get(MPI_INFO_ENV, "num_nics", (int) sizeof v - 1, v, &flag);
    av_ctx = "AVTEST_EXPECT_NICS";
    if (!flag || strcmp(v, nics))
        av_err("MPI_INFO_ENV num_nics is \"%s\", expected %s", flag ? v : "(unset)", nics);
    av_ctx = "";
}

/* after MPI_Init or MPI_Init_thread: the world's rank, size and group,
 * fatal errors, the placement's premise */
static inline void av_setup(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &av_wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &av_wsize);
    MPI_Comm_group(MPI_COMM_WORLD, &av_wgroup);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    av_check_placement();
}

static inline void av_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    av_setup();
}

/* MPI_Init_thread for MPI_THREAD_MULTIPLE, then av_setup: 1 when it was
 * provided, else 0 after an error (the caller ends with av_finalize) */
static inline int av_init_thread_multiple(int *argc, char ***argv)
{
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    av_setup();
    if (provided == MPI_THREAD_MULTIPLE)
        return 1;
    av_err("MPI_THREAD_MULTIPLE not provided (%d)", provided);
    return 0;
}

static inline int av_finalize(void)
{
    int total = 0;
    MPI_Allreduce(&av_errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (av_wrank == 0) {
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
        fflush(stdout);
    }
    MPI_Group_free(&av_wgroup);
    MPI_Finalize();
    return total != 0;
}

/* Deterministic generator, identical on every rank for the same seed. */
static inline unsigned av_rand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffffu;
}

static inline void av_shuffle(int *a, int n, unsigned *s)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int) (av_rand(s) % (unsigned) (i + 1));
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* index of v in a[0..n), or -1 */
static inline int av_find(const int *a, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (a[i] == v)
            return i;
    return -1;
}

/* World ranks of every rank of a group, in group order (caller frees). */
static inline int *av_group_world(MPI_Group g, int *n)
{
    MPI_Group_size(g, n);
    int *in = malloc(sizeof(int) * (size_t) (*n + 1)), *out = malloc(sizeof(int) * (size_t) (*n + 1));
    for (int i = 0; i < *n; i++)
        in[i] = i;
    MPI_Group_translate_ranks(g, *n, in, av_wgroup, out);
    free(in);
    return out;
}

/* Check a group against the expected world ranks. */
static inline void av_check_group(MPI_Group g, const int *expect, int n)
{
    int gn, *w = av_group_world(g, &gn);
    if (gn != n)
        av_err("group size %d, expected %d", gn, n);
    else
        for (int i = 0; i < n; i++)
            if (w[i] != expect[i]) {
                av_err("group rank %d translates to world %d, expected %d", i, w[i], expect[i]);
                break;
            }
    /* and back: world -> group */
    int *back = malloc(sizeof(int) * (size_t) (n + 1));
    if (gn == n) {
        MPI_Group_translate_ranks(av_wgroup, n, w, g, back);
        for (int i = 0; i < n; i++)
            if (back[i] != i) {
                av_err("world %d translates back to group rank %d, expected %d", w[i], back[i], i);
                break;
            }
    }
    free(back);
    free(w);
}

struct av_msg {
    int magic, wrank, crank, tag;
};

static inline void av_check_msg(const struct av_msg *m, int from, const int *expect, int tag,
                         const char *how)
{
    if (m->magic != AV_MAGIC || m->crank != from || m->wrank != expect[from] || m->tag != tag)
        av_err("%s: message from rank %d carried (magic %x, world %d, rank %d, tag %d), "
               "expected world %d", how, from, m->magic, m->wrank, m->crank, m->tag,
               expect[from]);
}

/* Point-to-point and collective checks on an intracommunicator. */
static inline void av_check_traffic(MPI_Comm comm, const int *expect, int n)
{
    int r;
    MPI_Comm_rank(comm, &r);
    struct av_msg out = {AV_MAGIC, av_wrank, r, 0}, in;
    MPI_Status st;

    /* ring, both directions */
    for (int dir = 1; dir >= -1; dir -= 2) {
        int to = (r + dir + n) % n, from = (r - dir + n) % n;
        out.tag = 10 + dir;
        memset(&in, 0, sizeof in);
        MPI_Sendrecv(&out, 4, MPI_INT, to, out.tag, &in, 4, MPI_INT, from, out.tag, comm, &st);
        if (st.MPI_SOURCE != from)
            av_err("ring: status source %d, expected %d", st.MPI_SOURCE, from);
        av_check_msg(&in, from, expect, out.tag, "ring");
    }

    /* wildcard receives: rank r sends to r+1..r+k; receives k from anyone */
    int k = n - 1 < 3 ? n - 1 : 3;
    MPI_Request req[3];
    out.tag = 20;
    for (int i = 1; i <= k; i++)
        MPI_Isend(&out, 4, MPI_INT, (r + i) % n, 20, comm, &req[i - 1]);
    int seen[3] = {-1, -1, -1};
    for (int i = 0; i < k; i++) {
        MPI_Recv(&in, 4, MPI_INT, MPI_ANY_SOURCE, 20, comm, &st);
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= n) {
            av_err("any-source: status source %d out of range", st.MPI_SOURCE);
            continue;
        }
        av_check_msg(&in, st.MPI_SOURCE, expect, 20, "any-source");
        int d = (r - st.MPI_SOURCE + n) % n;
        if (d < 1 || d > k || seen[d - 1] != -1)
            av_err("any-source: unexpected sender %d", st.MPI_SOURCE);
        else
            seen[d - 1] = st.MPI_SOURCE;
    }
    if (k > 0)
        MPI_Waitall(k, req, MPI_STATUSES_IGNORE);

    /* collectives see the same order */
    int *all = malloc(sizeof(int) * (size_t) n);
    MPI_Allgather(&av_wrank, 1, MPI_INT, all, 1, MPI_INT, comm);
    for (int i = 0; i < n; i++)
        if (all[i] != expect[i]) {
            av_err("allgather: slot %d holds world %d, expected %d", i, all[i], expect[i]);
            break;
        }
    int root = n - 1, v = av_wrank;
    MPI_Bcast(&v, 1, MPI_INT, root, comm);
    if (v != expect[root])
        av_err("bcast from rank %d gave world %d, expected %d", root, v, expect[root]);
    free(all);
}

/* Full check of an intracommunicator: expect[i] = world rank of rank i. */
static inline void av_check_comm(MPI_Comm comm, const int *expect, int n)
{
    int inter, size, r;
    MPI_Comm_test_inter(comm, &inter);
    if (inter) {
        av_err("is an intercommunicator");
        return;
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &r);
    if (size != n) {
        av_err("size %d, expected %d", size, n);
        return;     /* traffic checks would mismatch and may hang */
    }
    if (r < 0 || r >= n || expect[r] != av_wrank) {
        av_err("this process is rank %d, expected rank %d", r, av_find(expect, n, av_wrank));
        return;
    }
    MPI_Group g;
    MPI_Comm_group(comm, &g);
    av_check_group(g, expect, n);
    MPI_Group_free(&g);
    av_check_traffic(comm, expect, n);
}

/* Intercommunicator: local and remote groups and traffic between them.
 * Local rank r sends to remote rank r % rn and receives from every remote
 * rank q with q % ln == r. */
static inline void av_check_inter(MPI_Comm comm, const int *lexp, int ln, const int *rexp, int rn)
{
    int inter, size, rsize, r;
    MPI_Comm_test_inter(comm, &inter);
    if (!inter) {
        av_err("not an intercommunicator");
        return;
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_remote_size(comm, &rsize);
    MPI_Comm_rank(comm, &r);
    if (size != ln || rsize != rn || r < 0 || r >= ln || lexp[r] != av_wrank) {
        av_err("sizes %d/%d rank %d, expected %d/%d rank %d", size, rsize, r, ln, rn,
               av_find(lexp, ln, av_wrank));
        return;
    }
    MPI_Group g;
    MPI_Comm_group(comm, &g);
    av_check_group(g, lexp, ln);
    MPI_Group_free(&g);
    MPI_Comm_remote_group(comm, &g);
    av_check_group(g, rexp, rn);
    MPI_Group_free(&g);

    struct av_msg out = {AV_MAGIC, av_wrank, r, 30}, in;
    MPI_Request req;
    MPI_Status st;
    MPI_Isend(&out, 4, MPI_INT, r % rn, 30, comm, &req);
    for (int q = r; q < rn; q += ln) {
        MPI_Recv(&in, 4, MPI_INT, q, 30, comm, &st);
        av_check_msg(&in, q, rexp, 30, "inter");
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* wildcard: remote rank q sends to local q % ln, as above */
    out.tag = 31;
    MPI_Isend(&out, 4, MPI_INT, r % rn, 31, comm, &req);
    for (int q = r; q < rn; q += ln) {
        MPI_Recv(&in, 4, MPI_INT, MPI_ANY_SOURCE, 31, comm, &st);
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= rn || st.MPI_SOURCE % ln != r)
            av_err("inter any-source: unexpected sender %d", st.MPI_SOURCE);
        else if (in.crank != st.MPI_SOURCE || in.wrank != rexp[st.MPI_SOURCE])
            av_err("inter any-source: sender %d carried world %d rank %d", st.MPI_SOURCE,
                   in.wrank, in.crank);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* an intercomm collective: allgather returns the remote group's order */
    int *all = malloc(sizeof(int) * (size_t) rn);
    MPI_Allgather(&av_wrank, 1, MPI_INT, all, 1, MPI_INT, comm);
    for (int i = 0; i < rn; i++)
        if (all[i] != rexp[i]) {
            av_err("inter allgather: slot %d holds world %d, expected %d", i, all[i], rexp[i]);
            break;
        }
    free(all);
}

/* RMA on an intracommunicator: every rank puts its world rank into slot
 * [its rank] of every window (fence), then gets slot [t] of every target t
 * (passive target, lock/unlock), and accumulates (lock_all + flush). */
static inline void av_check_rma(MPI_Comm comm, const int *expect, int n)
{
    int r, *base;
    MPI_Win win;
    MPI_Comm_rank(comm, &r);
    MPI_Win_allocate((MPI_Aint) (n + 1) * (MPI_Aint) sizeof(int), sizeof(int), MPI_INFO_NULL,
                     comm, &base, &win);
    for (int i = 0; i <= n; i++)
        base[i] = -1;
    base[n] = 0;
    MPI_Win_fence(0, win);
    for (int t = 0; t < n; t++)
        MPI_Put(&av_wrank, 1, MPI_INT, t, r, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < n; i++)
        if (base[i] != expect[i]) {
            av_err("put: slot %d holds %d, expected world %d", i, base[i], expect[i]);
            break;
        }
    MPI_Barrier(comm);
    /* get slot t from target t: each target holds its own world rank there */
    for (int t = 0; t < n; t++) {
        int v = -2;
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
        MPI_Get(&v, 1, MPI_INT, t, t, 1, MPI_INT, win);
        MPI_Win_unlock(t, win);
        if (v != expect[t])
            av_err("get: target %d slot %d gave %d, expected %d", t, t, v, expect[t]);
    }
    /* accumulate: everyone adds world rank + 1 into slot n of every target */
    MPI_Win_lock_all(0, win);
    int one = av_wrank + 1;
    for (int t = 0; t < n; t++) {
        MPI_Accumulate(&one, 1, MPI_INT, t, n, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_flush(t, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(comm);
    int want = 0;
    for (int i = 0; i < n; i++)
        want += expect[i] + 1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0, win);
    int got = base[n];
    MPI_Win_unlock(r, win);
    if (got != want)
        av_err("accumulate: slot %d holds %d, expected %d", n, got, want);
    MPI_Win_free(&win);
}

/* Members of a split of a parent of size p with the given colour, ordered
 * by (key, parent rank), as parent ranks: colors/keys indexed by parent
 * rank. Returns n; out needs p slots. */
static inline int av_split_members(const int *colors, const int *keys, int p, int color, int *out)
{
    int n = 0;
    for (int w = 0; w < p; w++)
        if (colors[w] == color) {
            int j = n++;
            while (j > 0 && (keys[out[j - 1]] > keys[w] ||
                             (keys[out[j - 1]] == keys[w] && out[j - 1] > w))) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = w;
        }
    return n;
}

/* Expected world ranks of MPI_Comm_split(world, color, key): members with
 * the caller's color, ordered by (key, world rank).  colors/keys indexed by
 * world rank.  Returns n; out needs av_wsize slots. */
static inline int av_split_expect(const int *colors, const int *keys, int color, int *out)
{
    return av_split_members(colors, keys, av_wsize, color, out);
}

/* Reference set operations on lists of world ranks (the groups' members in
 * order): the members of a that are (want 1) or are not (0) in b, into out;
 * and MPI_Group_compare's answer for a and b. */
static inline int av_ref_select(const int *aw, int an, const int *bw, int bn, int want, int *out)
{
    int n = 0;
    for (int i = 0; i < an; i++)
        if ((av_find(bw, bn, aw[i]) >= 0) == want)
            out[n++] = aw[i];
    return n;
}

static inline int av_ref_compare(const int *aw, int an, const int *bw, int bn)
{
    if (an != bn)
        return MPI_UNEQUAL;
    if (an == 0 || !memcmp(aw, bw, sizeof(int) * (size_t) an))
        return MPI_IDENT;
    for (int i = 0; i < an; i++)
        if (av_find(bw, bn, aw[i]) < 0)
            return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

#endif
