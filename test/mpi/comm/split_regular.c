/* MPI_Comm_split settled without a gather (ch4_avrm_split.c): every shape
 * the library should settle that way (runs of colours rising or falling,
 * colours with a period, keys keeping or reversing parent order,
 * MPI_UNDEFINED at an end) and shapes it must gather for (colours that come
 * back, random keys), over three parents: the world, its odd ranks (a
 * stride map) and a shuffled world (a table map). Each result is checked
 * against the members the test computes itself (sorting (key, parent rank)
 * of the colour), with the group, traffic and RMA; the pvar
 * avrm_comm_splits_no_gather must rise by one exactly for the shapes meant
 * to settle without a gather (and not for a regular shape on a
 * communicator whose last two splits gathered: it does not vote then) (never, when MPIR_CVAR_AVRM_SPLIT_MIN_SIZE,
 * read through MPI_T, is 0 or above the parent's size). With
 * MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE at or below the parent's size, every
 * split votes and the irregular shapes are sorted: avrm_comm_splits_sorted
 * must rise by one exactly for them. */
#include "avtest_mode.h"

static int P, prank, *pw;      /* parent size, rank, parent rank -> world rank */
static int *colors, *keys, *expect;
static int min_size;           /* MPIR_CVAR_AVRM_SPLIT_MIN_SIZE, read through MPI_T */
static int sort_min;           /* MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE */

/* an int CVAR's value in the library (its default, or the environment's) */
static void read_cvar(const char *name, int *val)
{
    int idx, count;
    MPI_T_cvar_handle h;
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS) {
        av_err("no CVAR %s", name);
        return;
    }
    MPI_T_cvar_handle_alloc(idx, NULL, &h, &count);
    MPI_T_cvar_read(h, val);
    MPI_T_cvar_handle_free(&h);
}

/* a parent of n processes sorts what no form settles (and always votes) */
static int sorts(int n)
{
    return min_size > 0 && sort_min > 0 && n >= sort_min;
}

/* members of colour c in MPI order, as world ranks */
static int members(int c)
{
    int n = av_split_members(colors, keys, P, c, expect);
    for (int j = 0; j < n; j++)
        expect[j] = pw[expect[j]];
    return n;
}

static void check(MPI_Comm parent, int regular, const char *what)
{
    unsigned long long before, after, sbefore, safter;
    MPI_Comm c;
    av_ctx = what;
    av_read_ull_pvar("avrm_comm_splits_no_gather", &before);
    av_read_ull_pvar("avrm_comm_splits_sorted", &sbefore);
    if (MPI_Comm_split(parent, colors[prank], keys[prank], &c) != MPI_SUCCESS) {
        av_err("MPI_Comm_split failed");
        return;
    }
    av_read_ull_pvar("avrm_comm_splits_no_gather", &after);
    av_read_ull_pvar("avrm_comm_splits_sorted", &safter);
    /* a parent the sort takes always votes; what no form settles, it sorts */
    int sorted = sorts(P) && !regular;
    int settled = (min_size > 0 && (P >= min_size || sorts(P)) && regular) || sorted;
    if (after - before != (unsigned long long) settled)
        av_err("settled without a gather %llu times, expected %d", after - before, settled);
    if (safter - sbefore != (unsigned long long) sorted)
        av_err("settled by the sort %llu times, expected %d", safter - sbefore, sorted);
    if (colors[prank] == MPI_UNDEFINED) {
        if (c != MPI_COMM_NULL)
            av_err("MPI_UNDEFINED gave a communicator");
    } else if (c == MPI_COMM_NULL) {
        av_err("no communicator");
    } else {
        int n = members(colors[prank]);
        av_check_comm(c, expect, n);
        if (n > 1)
            av_check_rma(c, expect, n);
        MPI_Comm_free(&c);
    }
    MPI_Barrier(parent);
}

static void shapes(MPI_Comm parent, const char *pname)
{
    char what[96];
    MPI_Comm_size(parent, &P);
    MPI_Comm_rank(parent, &prank);
#define SHAPE(regular, name, cexpr, kexpr) do { \
        for (int i = 0; i < P; i++) { colors[i] = (cexpr); keys[i] = (kexpr); } \
        snprintf(what, sizeof what, "%s: %s", pname, name); \
        check(parent, regular, what); } while (0)
    SHAPE(1, "one colour", 0, 0);
    SHAPE(1, "one colour, reversed", 0, P - i);
    SHAPE(1, "one colour, key = rank + 1000", 7, i + 1000);
    SHAPE(1, "blocks of 2", i / 2, i);
    SHAPE(1, "blocks of 3, reversed", i / 3, -i);
    SHAPE(1, "falling blocks of 4", 100 - i / 4, 0);
    SHAPE(1, "halves", i < P / 2, i);
    SHAPE(1, "own colour", i, 0);
    SHAPE(1, "first 3, then MPI_UNDEFINED", i < 3 ? 1 : MPI_UNDEFINED, i);
    SHAPE(1, "MPI_UNDEFINED, then the last 2", i >= P - 2 ? 1 : MPI_UNDEFINED, -i);
    SHAPE(1, "odd/even", i % 2, i);
    SHAPE(1, "odd/even, reversed", i % 2, -i);
    SHAPE(1, "r % 3, rank / 3 as key", i % 3, i / 3);
    SHAPE(1, "falling r % 3", 9 - i % 3, 0);
    SHAPE(1, "even ranks, odd MPI_UNDEFINED", i % 2 ? MPI_UNDEFINED : 4, i);
    SHAPE(1, "cart columns of 4 (i % 4, key i / 4)", i % 4, i / 4);
    SHAPE(P <= 4, "colours come back (i / 2 % 2)", i / 2 % 2, i);
    SHAPE(P <= 3, "blocks, keys shuffled", i / 4, (i * 7) % 5);
    SHAPE(P <= 3, "period broken at the end", i == P - 1 ? (i % 3 + 1) % 3 : i % 3, i);
    if (P >= 5) {               /* irregular at any size from 5 */
        SHAPE(0, "colours i*i % 5, keys with ties", (i * i + 3) % 5, (i * 7) % 4);
        SHAPE(0, "scattered MPI_UNDEFINED", i % 3 == 1 ? MPI_UNDEFINED : (i * i + 3) % 5, -i);
        SHAPE(0, "one colour, keys shuffled", 2, (i * 7) % 5 - 2);
    }
#undef SHAPE
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    av_find_mode_pvar();
    int W = av_wsize;
    read_cvar("MPIR_CVAR_AVRM_SPLIT_MIN_SIZE", &min_size);
    read_cvar("MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE", &sort_min);
    unsigned long long v;
    if (!av_read_ull_pvar("avrm_comm_splits_no_gather", &v))
        av_err("no pvar avrm_comm_splits_no_gather");
    if (!av_read_ull_pvar("avrm_comm_splits_sorted", &v))
        av_err("no pvar avrm_comm_splits_sorted");
    colors = malloc(sizeof(int) * (size_t) W);
    keys = malloc(sizeof(int) * (size_t) W);
    expect = malloc(sizeof(int) * (size_t) W);
    pw = malloc(sizeof(int) * (size_t) W);

    for (int i = 0; i < W; i++)
        pw[i] = i;
    shapes(MPI_COMM_WORLD, "world");

    /* a communicator whose splits gathered twice in a row stops voting (its
     * hint avrm_split_gathers) but for one split in 8; MPI_Comm_set_info
     * resets the count */
    int sort_world = sorts(W);
    if (min_size > 0 && (W >= min_size || sort_world) && W >= 6) {
        MPI_Comm d;
        MPI_Info info;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        P = W;
        prank = av_wrank;
        for (int i = 0; i < W; i++) { colors[i] = i / 2 % 2; keys[i] = i; }
        check(d, 0, "dup: colours come back (1)");
        check(d, 0, "dup: colours come back (2)");
        /* a communicator the sort takes never skips its vote */
        for (int k = 0; k < 7; k++) {
            for (int i = 0; i < W; i++) { colors[i] = i / 2; keys[i] = i; }
            check(d, sort_world, sort_world ? "dup: blocks of 2 after two sorts (a vote)"
                  : "dup: blocks of 2 after two gathers (no vote)");
        }
        check(d, 1, "dup: blocks of 2, the eighth: a vote");
        for (int i = 0; i < W; i++) { colors[i] = i / 2 % 2; keys[i] = i; }
        check(d, 0, "dup: colours come back (3)");
        check(d, 0, "dup: colours come back (4)");
        MPI_Info_create(&info);
        MPI_Info_set(info, "avrm_split_gathers", "0");
        MPI_Comm_set_info(d, info);
        MPI_Info_free(&info);
        for (int i = 0; i < W; i++) { colors[i] = i % 2; keys[i] = -i; }
        check(d, 1, "dup: odd/even after the hint's reset");
        MPI_Comm_free(&d);
    }

    /* the odd ranks (even ones take part in the split that makes it) */
    MPI_Comm odd;
    MPI_Comm_split(MPI_COMM_WORLD, av_wrank % 2 ? 0 : MPI_UNDEFINED, av_wrank, &odd);
    if (odd != MPI_COMM_NULL) {
        for (int i = 0; i < W / 2; i++)
            pw[i] = 2 * i + 1;
        shapes(odd, "odd ranks");
        MPI_Comm_free(&odd);
    }

    /* a shuffled world (a table map when large enough) */
    unsigned s = 4242;
    int *perm = malloc(sizeof(int) * (size_t) W);
    for (int i = 0; i < W; i++)
        perm[i] = i;
    av_shuffle(perm, W, &s);
    MPI_Comm shuf;
    MPI_Comm_split(MPI_COMM_WORLD, 0, perm[av_wrank], &shuf);
    for (int i = 0; i < W; i++)
        pw[perm[i]] = i;
    shapes(shuf, "shuffled world");
    MPI_Comm_free(&shuf);

    free(perm);
    free(pw);
    free(colors);
    free(keys);
    free(expect);
    av_mode_done();
    return av_finalize();
}
