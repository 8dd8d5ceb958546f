/*
 * test_sort.c - the distributed sort of irregular splits (avrm_split.h,
 * avrm_sort.c) against brute force: every position of a simulated parent
 * walks its comparators, the swaps run as the processes would (a pair swaps
 * when each one's next comparator is the other; no progress with swaps left
 * is a deadlock), and what each position holds at the end must be the
 * test's own sort of the items (insertion by colour, key, parent rank).
 * Then the runs of the sorted colours by the RUNS_SCAN of avrm_split.h,
 * round by round, must give each process its colour's members in MPI's
 * order, computed here by brute force.
 */
#include "tu.h"
#include "avrm/avrm_split.h"

#define UNDEF (-32766)          /* MPICH's MPI_UNDEFINED: an ordinary colour here */
#define MAXN 1100
#define MAXD 66                 /* avrm_sort_depth(2048) */

typedef struct step {
    uint32_t partner;
    int keep_low;
} step_t;

static step_t steps[MAXN][MAXD];
static uint32_t nsteps[MAXN], at[MAXN];
static avrm_split_item_t held[MAXN], want[MAXN];
static int overflow;

typedef struct rec {
    uint32_t j;
} rec_t;

static int record(void *arg, uint32_t partner, int keep_low)
{
    uint32_t j = ((rec_t *) arg)->j;
    if (nsteps[j] == MAXD) {
        overflow = 1;
        return 1;
    }
    steps[j][nsteps[j]++] = (step_t) { partner, keep_low };
    return 0;
}

/* the test's own order: colour, key, parent rank */
static int before(const avrm_split_item_t *a, const avrm_split_item_t *b)
{
    if (a->color != b->color) return a->color < b->color;
    if (a->key != b->key) return a->key < b->key;
    return a->rank < b->rank;
}

/* run the network over held[0..n); 0 when it finished without a deadlock
 * or an inconsistent pair, and no position took more than the bound */
static int run_network(uint32_t n)
{
    uint32_t bound = avrm_sort_depth(n), most = 0;
    overflow = 0;
    for (uint32_t j = 0; j < n; j++) {
        rec_t r = { j };
        nsteps[j] = at[j] = 0;
        if (avrm_sort_walk(n, j, record, &r) != 0 || overflow)
            return -1;
        most = nsteps[j] > most ? nsteps[j] : most;
    }
    CHECK(most <= bound);
    if ((n & (n - 1)) == 0 && n > 1)
        CHECK(most == bound);   /* a power of two: every level has a swap */
    for (int progress = 1; progress;) {
        progress = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (at[j] == nsteps[j]) continue;
            step_t s = steps[j][at[j]];
            if (s.partner >= n) return -2;
            uint32_t p = s.partner;
            if (p < j || at[p] == nsteps[p] || steps[p][at[p]].partner != j) continue;
            if (steps[p][at[p]].keep_low == s.keep_low) return -3;
            avrm_split_item_t a = held[j], b = held[p];
            int a_low = avrm_split_item_cmp(&a, &b) <= 0;
            held[j] = s.keep_low == a_low ? a : b;
            held[p] = s.keep_low == a_low ? b : a;
            at[j]++, at[p]++;
            progress = 1;
        }
    }
    for (uint32_t j = 0; j < n; j++)
        if (at[j] != nsteps[j]) return -4;      /* deadlock */
    return 0;
}

static void fill(uint32_t n, uint32_t colors, uint32_t keys)
{
    for (uint32_t j = 0; j < n; j++) {
        uint32_t c = tu_below(colors + 1);
        held[j] = (avrm_split_item_t) { c == colors ? UNDEF : (int32_t) c,
                                        (int32_t) tu_below(keys) - (int32_t) keys / 2, j };
        /* want: insertion into the test's order */
        uint32_t k = j;
        while (k > 0 && before(&held[j], &want[k - 1])) {
            want[k] = want[k - 1];
            k--;
        }
        want[k] = held[j];
    }
}

static void check_sorted(uint32_t n)
{
    int rc = run_network(n);
    CHECK(rc == 0);
    if (rc) fprintf(stderr, "  n=%u: network run failed (%d)\n", n, rc);
    uint32_t bad = 0;
    for (uint32_t j = 0; j < n; j++)
        bad += held[j].color != want[j].color || held[j].key != want[j].key ||
               held[j].rank != want[j].rank;
    CHECK(bad == 0);
    if (bad) fprintf(stderr, "  n=%u: %u positions hold the wrong item\n", n, bad);
}

/* every n up to 300 and some near powers of two, random items with ties */
static void test_network_sorts(void)
{
    static const uint32_t big[] = { 511, 512, 513, 767, 1000, 1023, 1024, 1025, 1099 };
    tu_srand(7);
    for (uint32_t n = 1; n <= 300; n++)
        for (int t = 0; t < 3; t++) {
            fill(n, 1 + tu_below(6), 1 + tu_below(5));
            check_sorted(n);
        }
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        fill(big[i], 1 + tu_below(40), 1 + tu_below(100));
        check_sorted(big[i]);
    }
}

/* every 0/1 input up to n = 12 (a network that sorts them sorts anything) */
static void test_zero_one(void)
{
    for (uint32_t n = 1; n <= 12; n++)
        for (uint32_t bits = 0; bits < (1u << n); bits++) {
            uint32_t ones = 0;
            for (uint32_t j = 0; j < n; j++) {
                held[j] = (avrm_split_item_t) { (int32_t) (bits >> j & 1), 0, 0 };
                ones += bits >> j & 1;
            }
            CHECK(run_network(n) == 0);
            for (uint32_t j = 0; j < n; j++)
                CHECK(held[j].color == (j >= n - ones));
        }
}

/* After the sort, each colour's run by the RUNS_SCAN round by round; each
 * process's list (its run's parent ranks, in run order) against the members
 * of its colour by key, then parent rank, found by scanning the parent. */
static void test_split_lists(void)
{
    static avrm_split_item_t orig[MAXN];
    static int32_t first[MAXN], end[MAXN], nf[MAXN], ne[MAXN];
    tu_srand(11);
    for (int t = 0; t < 60; t++) {
        uint32_t P = 1 + tu_below(400);
        fill(P, 1 + tu_below(t % 2 ? 3 : 30), 1 + tu_below(8));
        for (uint32_t j = 0; j < P; j++) orig[j] = held[j];
        CHECK(run_network(P) == 0);
        for (uint32_t j = 0; j < P; j++) {
            avrm_split_ck_t me = { held[j].color, held[j].key }, l, r;
            if (j > 0) l = (avrm_split_ck_t) { held[j - 1].color, held[j - 1].key };
            if (j + 1 < P) r = (avrm_split_ck_t) { held[j + 1].color, held[j + 1].key };
            avrm_split_scan_start(j, P, me, j > 0 ? &l : NULL, j + 1 < P ? &r : NULL,
                                  &first[j], &end[j]);
        }
        for (uint32_t d = 1; d < P; d *= 2) {
            for (uint32_t j = 0; j < P; j++) {
                nf[j] = first[j], ne[j] = end[j];
                avrm_split_scan_fold(&nf[j], j >= d ? first[j - d] : -1, &ne[j],
                                     j + d < P ? end[j + d] : (int32_t) P + 1);
            }
            for (uint32_t j = 0; j < P; j++) first[j] = nf[j], end[j] = ne[j];
        }
        /* position j holds the item of process held[j].rank */
        for (uint32_t j = 0; j < P; j++) {
            uint32_t proc = held[j].rank, n = 0, bad = 0;
            for (uint32_t w = 0; w < P; w++) {       /* brute force: count, then rank */
                if (orig[w].color != orig[proc].color) continue;
                uint32_t pos = 0;
                for (uint32_t v = 0; v < P; v++)
                    pos += orig[v].color == orig[proc].color &&
                           (orig[v].key < orig[w].key ||
                            (orig[v].key == orig[w].key && v < w));
                CHECK(pos < (uint32_t) (end[j] - first[j]));
                bad += pos >= (uint32_t) (end[j] - first[j]) ||
                       held[first[j] + (int32_t) pos].rank != w;
                n++;
            }
            CHECK(n == (uint32_t) (end[j] - first[j]) && bad == 0);
        }
    }
}

int main(void)
{
    RUN(test_network_sorts);
    RUN(test_zero_one);
    RUN(test_split_lists);
    return tu_finish();
}
