/*
 * commdemo: create communicators with every MPI creation routine, exercise
 * each one with a ring exchange (MPI_Sendrecv, payload checked) and one-sided
 * puts into a window (checked), then print one table on world rank 0:
 *
 *   name  routine  comms  sizes  result  rankmap  map bytes
 *
 * "rankmap" and "map bytes" describe how the MPI library stores the
 * communicator's rank translation.  They come from demo_map_info(), which
 * asks the library (communicator info keys, then MPI_T performance
 * variables) and prints "-" when the library does not say.
 *
 * Exit status is nonzero when any check fails on any rank.
 *
 *   mpiexec -n 8 ./commdemo [seed]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODE_LEN 24
#define MAX_ENTRIES 32
#define MAGIC 0x5eed1234

/* ------------------------------------------------------------------ */
/* Rank-map information (filled in by the library once it reports it)  */
/* ------------------------------------------------------------------ */

/* Names the library may use.  Info keys are checked first (cheap, per
 * communicator), then MPI_T performance variables bound to communicators. */
static const char *const map_mode_info_keys[] = {"avrm_comm_map_mode", "avrm_rankmap_mode", NULL};
static const char *const map_bytes_info_keys[] = {"avrm_comm_map_bytes", "avrm_rankmap_bytes", NULL};
static const char *const map_mode_pvars[] = {"avrm_comm_map_mode", "avrm_rankmap_mode", NULL};
static const char *const map_bytes_pvars[] = {"avrm_comm_map_bytes", "avrm_rankmap_bytes", NULL};

static int mpit_ok;             /* MPI_T_init_thread succeeded */
static MPI_T_pvar_session mpit_session;

static int name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return 1;
    return 0;
}

static int info_lookup(MPI_Info info, const char *const *keys, char *val, int vlen)
{
    for (; *keys; keys++) {
        int flag = 0;
        MPI_Info_get(info, *keys, vlen - 1, val, &flag);
        if (flag)
            return 1;
    }
    return 0;
}

/* Read a communicator-bound pvar whose name is in `names` (with comm
 * MPI_COMM_NULL: a pvar bound to no object).  On success,
 * *num receives its value and, when the pvar has an enumeration, `str`
 * receives the item name for that value.  Returns 1 when found. */
static int pvar_lookup(MPI_Comm comm, const char *const *names, unsigned long long *num,
                       char *str, int slen)
{
    int n = 0;
    if (!mpit_ok || MPI_T_pvar_get_num(&n) != MPI_SUCCESS)
        return 0;
    for (int i = 0; i < n; i++) {
        char name[256], desc[256];
        int nlen = sizeof name, dlen = sizeof desc, verb, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum et;
        if (MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &et, desc, &dlen,
                                &bind, &ro, &cont, &atomic) != MPI_SUCCESS)
            continue;
        if (!name_in(name, names) ||
            bind != (comm == MPI_COMM_NULL ? MPI_T_BIND_NO_OBJECT : MPI_T_BIND_MPI_COMM))
            continue;
        MPI_T_pvar_handle h;
        int count = 0;
        if (MPI_T_pvar_handle_alloc(mpit_session, i, comm == MPI_COMM_NULL ? NULL : &comm, &h,
                                    &count) != MPI_SUCCESS)
            continue;
        int got = 0;
        if (count == 1) {
            union { unsigned u; unsigned long ul; unsigned long long ull; int i; double d; } v;
            if (!cont)
                MPI_T_pvar_start(mpit_session, h);
            if (MPI_T_pvar_read(mpit_session, h, &v) == MPI_SUCCESS) {
                got = 1;
                if (dt == MPI_UNSIGNED)
                    *num = v.u;
                else if (dt == MPI_UNSIGNED_LONG)
                    *num = v.ul;
                else if (dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_COUNT)
                    *num = v.ull;
                else if (dt == MPI_INT)
                    *num = (unsigned long long) v.i;
                else if (dt == MPI_DOUBLE)
                    *num = (unsigned long long) v.d;
                else
                    got = 0;
            }
            if (got && str && et != MPI_T_ENUM_NULL) {
                int items = 0;
                char ename[64];
                int elen = sizeof ename;
                MPI_T_enum_get_info(et, &items, ename, &elen);
                for (int k = 0; k < items; k++) {
                    int val, ilen = slen;
                    if (MPI_T_enum_get_item(et, k, &val, str, &ilen) == MPI_SUCCESS &&
                        (unsigned long long) val == *num)
                        break;
                    str[0] = '\0';
                }
            }
        }
        MPI_T_pvar_handle_free(mpit_session, &h);
        if (got)
            return 1;
    }
    return 0;
}

/* Ask the MPI library how it stores `comm`'s rank map.  Writes a short mode
 * name (at most MODE_LEN-1 chars) or "-" into `mode`, and the map's size in
 * bytes into *bytes, or SIZE_MAX when unknown.  Collective-free: may be
 * called by any member at any time. */
void demo_map_info(MPI_Comm comm, char *mode, size_t *bytes)
{
    char val[64];
    unsigned long long num = 0;
    strcpy(mode, "-");
    *bytes = SIZE_MAX;

    MPI_Info info = MPI_INFO_NULL;
    if (MPI_Comm_get_info(comm, &info) == MPI_SUCCESS && info != MPI_INFO_NULL) {
        if (info_lookup(info, map_mode_info_keys, val, sizeof val))
            snprintf(mode, MODE_LEN, "%.*s", MODE_LEN - 1, val);
        if (info_lookup(info, map_bytes_info_keys, val, sizeof val))
            *bytes = (size_t) strtoull(val, NULL, 10);
        MPI_Info_free(&info);
    }
    if (strcmp(mode, "-") == 0) {
        val[0] = '\0';
        if (pvar_lookup(comm, map_mode_pvars, &num, val, sizeof val))
            snprintf(mode, MODE_LEN, "%.*s", MODE_LEN - 1, val[0] ? val : "");
        if (strcmp(mode, "") == 0)
            snprintf(mode, MODE_LEN, "%llu", num);
    }
    if (*bytes == SIZE_MAX && pvar_lookup(comm, map_bytes_pvars, &num, NULL, 0))
        *bytes = (size_t) num;
}

static void demo_map_init(void)
{
    int provided;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
        mpit_ok = MPI_T_pvar_session_create(&mpit_session) == MPI_SUCCESS;
        if (!mpit_ok)
            MPI_T_finalize();
    }
}

static void demo_map_fini(void)
{
    if (mpit_ok) {
        MPI_T_pvar_session_free(&mpit_session);
        MPI_T_finalize();
    }
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

static int wrank, wsize;
static MPI_Group wgroup;

struct msg {
    int magic, wrank, crank, tag;
};

/* world rank of rank `r` of `comm` (remote group for intercomms) */
static int world_of(MPI_Comm comm, int r, int remote)
{
    MPI_Group g;
    int w;
    if (remote)
        MPI_Comm_remote_group(comm, &g);
    else
        MPI_Comm_group(comm, &g);
    MPI_Group_translate_ranks(g, 1, &r, wgroup, &w);
    MPI_Group_free(&g);
    return w;
}

/* Ring exchange on an intracommunicator; checks every payload field. */
static int ring_intra(MPI_Comm comm, int tag)
{
    int r, n, bad = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int right = (r + 1) % n, left = (r + n - 1) % n;
    struct msg out = {MAGIC, wrank, r, tag}, in;
    MPI_Status st;
    MPI_Sendrecv(&out, 4, MPI_INT, right, tag, &in, 4, MPI_INT, left, tag, comm, &st);
    if (in.magic != MAGIC || in.crank != left || in.tag != tag ||
        in.wrank != world_of(comm, left, 0) || st.MPI_SOURCE != left) {
        fprintf(stderr, "[%d] ring: bad message from %d (wrank %d crank %d)\n", wrank, left,
                in.wrank, in.crank);
        bad = 1;
    }
    return bad;
}

/* Exchange across an intercommunicator: local rank r sends to remote rank
 * r % rsize and receives from every remote rank q with q % lsize == r. */
static int ring_inter(MPI_Comm comm, int tag)
{
    int r, lsize, rsize, bad = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &lsize);
    MPI_Comm_remote_size(comm, &rsize);
    struct msg out = {MAGIC, wrank, r, tag};
    MPI_Request sreq;
    MPI_Isend(&out, 4, MPI_INT, r % rsize, tag, comm, &sreq);
    for (int q = r; q < rsize; q += lsize) {
        struct msg in;
        MPI_Recv(&in, 4, MPI_INT, q, tag, comm, MPI_STATUS_IGNORE);
        if (in.magic != MAGIC || in.crank != q || in.wrank != world_of(comm, q, 1)) {
            fprintf(stderr, "[%d] inter: bad message from remote %d\n", wrank, q);
            bad = 1;
        }
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    return bad;
}

/* Every rank puts its world rank into slot [my rank] of every rank's window. */
static int put_check(MPI_Comm comm)
{
    int r, n, bad = 0, *base;
    MPI_Win win;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    MPI_Win_allocate((MPI_Aint) n * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &base, &win);
    for (int i = 0; i < n; i++)
        base[i] = -1;
    MPI_Win_fence(0, win);
    for (int t = 0; t < n; t++)
        MPI_Put(&wrank, 1, MPI_INT, t, r, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < n; i++)
        if (base[i] != world_of(comm, i, 0)) {
            fprintf(stderr, "[%d] put: slot %d holds %d\n", wrank, i, base[i]);
            bad = 1;
        }
    MPI_Win_free(&win);
    return bad;
}

/* ------------------------------------------------------------------ */
/* Communicators                                                       */
/* ------------------------------------------------------------------ */

struct entry {
    const char *name, *routine;
    MPI_Comm comm;              /* MPI_COMM_NULL when this rank is not a member */
};

/* What each rank reports to rank 0 for one entry. */
struct report {
    int member, crank, csize, fails;
    unsigned long long bytes;   /* ULLONG_MAX = unknown */
    char mode[MODE_LEN];
};

static struct entry E[MAX_ENTRIES];
static int nE;

static void add(const char *name, const char *routine, MPI_Comm c)
{
    E[nE].name = name;
    E[nE].routine = routine;
    E[nE].comm = c;
    nE++;
}

/* Seeded permutation, identical on every rank. */
static void permutation(int *p, int n, unsigned seed)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int) ((seed >> 8) % (unsigned) (i + 1));
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_group(MPI_COMM_WORLD, &wgroup);
    unsigned seed = argc > 1 ? (unsigned) strtoul(argv[1], NULL, 0) : 42u;
    demo_map_init();

    MPI_Comm c;
    int half = (wsize + 1) / 2;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    add("dup", "MPI_Comm_dup", c);

    /* offset keys: each half keeps world order, ranks shifted by the offset */
    MPI_Comm_split(MPI_COMM_WORLD, wrank / half, wrank - (wrank / half) * half, &c);
    add("split-halves", "MPI_Comm_split", c);

    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &c);
    add("split-stride", "MPI_Comm_split", c);

    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - 1 - wrank, &c);
    add("split-reversed", "MPI_Comm_split", c);

    int *perm = malloc(sizeof(int) * (size_t) wsize);
    permutation(perm, wsize, seed);
    MPI_Comm_split(MPI_COMM_WORLD, 0, perm[wrank], &c);
    add("split-random", "MPI_Comm_split", c);

    /* create: every rank but those with wrank % 3 == 2 (at least rank 0, 1) */
    {
        int *ranks = malloc(sizeof(int) * (size_t) wsize), n = 0;
        for (int i = 0; i < wsize; i++)
            if (i % 3 != 2)
                ranks[n++] = i;
        MPI_Group g;
        MPI_Group_incl(wgroup, n, ranks, &g);
        MPI_Comm_create(MPI_COMM_WORLD, g, &c);
        add("create-incl", "MPI_Comm_create", c);
        MPI_Group_free(&g);
        free(ranks);
    }

    /* create_group: reversed stride-2 range, only members call */
    {
        int range[1][3] = {{wsize - 1, 0, -2}};
        MPI_Group g;
        int grank;
        MPI_Group_range_incl(wgroup, 1, range, &g);
        MPI_Group_rank(g, &grank);
        c = MPI_COMM_NULL;
        if (grank != MPI_UNDEFINED)
            MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c);
        add("create-group", "MPI_Comm_create_group", c);
        MPI_Group_free(&g);
    }

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
    add("split-shared", "MPI_Comm_split_type", c);

    /* 2-D periodic Cartesian grid and its rows */
    {
        int dims[2] = {0, 0}, periods[2] = {1, 1}, remain[2] = {0, 1};
        MPI_Comm cart, row;
        MPI_Dims_create(wsize, 2, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
        add("cart-2d", "MPI_Cart_create", cart);
        MPI_Cart_sub(cart, remain, &row);
        add("cart-rows", "MPI_Cart_sub", row);
    }

    /* intercommunicator between even and odd world ranks, then merged */
    if (wsize > 1) {
        MPI_Comm local, inter, merged;
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, wrank % 2 ? 0 : 1, 99, &inter);
        add("intercomm", "MPI_Intercomm_create", inter);
        MPI_Intercomm_merge(inter, wrank % 2, &merged);
        add("intercomm-merged", "MPI_Intercomm_merge", merged);
        MPI_Comm_free(&local);
    }

    /* exercise every communicator this rank belongs to */
    struct report *mine = calloc((size_t) nE, sizeof *mine);
    for (int i = 0; i < nE; i++) {
        struct report *rp = &mine[i];
        strcpy(rp->mode, "-");
        rp->bytes = ~0ULL;
        if (E[i].comm == MPI_COMM_NULL)
            continue;
        int inter;
        rp->member = 1;
        MPI_Comm_test_inter(E[i].comm, &inter);
        MPI_Comm_rank(E[i].comm, &rp->crank);
        MPI_Comm_size(E[i].comm, &rp->csize);
        if (inter) {
            rp->fails += ring_inter(E[i].comm, 100 + i);
        } else {
            rp->fails += ring_intra(E[i].comm, 100 + i);
            rp->fails += put_check(E[i].comm);
        }
        size_t b;
        demo_map_info(E[i].comm, rp->mode, &b);
        rp->bytes = b == SIZE_MAX ? ~0ULL : (unsigned long long) b;
    }

    /* peers whose address this process resolved on first contact (ours,
     * on-demand addressing; 0 when addresses were exchanged at MPI_Init) */
    static const char *const resolved_pvars[] = {"avrm_peers_resolved", NULL};
    unsigned long long resolved = 0, *all_resolved = NULL;
    int have_resolved = pvar_lookup(MPI_COMM_NULL, resolved_pvars, &resolved, NULL, 0);
    if (wrank == 0)
        all_resolved = malloc(sizeof *all_resolved * (size_t) wsize);
    MPI_Gather(&resolved, 1, MPI_UNSIGNED_LONG_LONG, all_resolved, 1, MPI_UNSIGNED_LONG_LONG, 0,
               MPI_COMM_WORLD);

    /* gather reports on world rank 0 (as bytes: the struct is plain data) */
    struct report *all = NULL;
    if (wrank == 0)
        all = malloc(sizeof *all * (size_t) nE * (size_t) wsize);
    MPI_Gather(mine, (int) (sizeof *mine * (size_t) nE), MPI_BYTE, all,
               (int) (sizeof *mine * (size_t) nE), MPI_BYTE, 0, MPI_COMM_WORLD);

    int anyfail = 0;
    if (wrank == 0) {
        printf("commdemo: %d processes, seed %u\n", wsize, seed);
        printf("%-17s %-22s %5s %-14s %-6s %-14s %s\n", "name", "routine", "comms", "sizes",
               "result", "rankmap", "map bytes");
        for (int i = 0; i < nE; i++) {
            int ncomm = 0, fails = 0, members = 0;
            char sizes[64] = "", modes[64] = "", bytes[64] = "";
            for (int p = 0; p < wsize; p++) {
                struct report *rp = &all[(size_t) p * (size_t) nE + (size_t) i];
                if (!rp->member)
                    continue;
                members++;
                fails += rp->fails;
                if (rp->crank != 0)
                    continue;   /* one line item per communicator (its rank 0) */
                char tmp[32];
                ncomm++;
                snprintf(tmp, sizeof tmp, "%s%d", ncomm > 1 ? "," : "", rp->csize);
                if (strlen(sizes) + strlen(tmp) < sizeof sizes - 4)
                    strcat(sizes, tmp);
                else if (!strstr(sizes, "..."))
                    strcat(sizes, "...");
                if (!strstr(modes, rp->mode) && strlen(modes) + strlen(rp->mode) < 40)
                    snprintf(modes + strlen(modes), sizeof modes - strlen(modes), "%s%s",
                             modes[0] ? "," : "", rp->mode);
                if (rp->bytes == ~0ULL)
                    snprintf(tmp, sizeof tmp, "-");
                else
                    snprintf(tmp, sizeof tmp, "%llu", rp->bytes);
                if (!strstr(bytes, tmp) && strlen(bytes) + strlen(tmp) < 40)
                    snprintf(bytes + strlen(bytes), sizeof bytes - strlen(bytes), "%s%s",
                             bytes[0] ? "," : "", tmp);
            }
            if (members == 0)
                fails = 1;      /* every entry must have members */
            if (fails)
                anyfail = 1;
            printf("%-17s %-22s %5d %-14s %-6s %-14s %s\n", E[i].name, E[i].routine, ncomm,
                   sizes, fails ? "FAIL" : "ok", modes, bytes);
        }
        if (have_resolved) {
            printf("commdemo: peers resolved on first contact, per process:");
            for (int p = 0; p < wsize; p++)
                printf(" %llu", all_resolved[p]);
            printf(" of %d (0: addresses exchanged at MPI_Init)\n", wsize - 1);
        }
        printf("commdemo: %s\n", anyfail ? "FAILED" : "all communicators ok");
        fflush(stdout);
        free(all);
        free(all_resolved);
    }
    MPI_Bcast(&anyfail, 1, MPI_INT, 0, MPI_COMM_WORLD);

    for (int i = 0; i < nE; i++)
        if (E[i].comm != MPI_COMM_NULL)
            MPI_Comm_free(&E[i].comm);
    free(mine);
    free(perm);
    MPI_Group_free(&wgroup);
    demo_map_fini();
    MPI_Finalize();
    return anyfail ? 1 : 0;
}
