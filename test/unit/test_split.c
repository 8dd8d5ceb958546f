/*
 * test_split.c - splits without a gather (avrm_split.h) against a brute
 * force: every process of a simulated parent runs the protocol (neighbour
 * words, the two-way doubling scan round by round, the cyclic check), and
 * whenever a form is decided, each process's group and new rank must be
 * what sorting (key, parent rank) of its colour gives. Shapes that are
 * regular by construction must be decided regular; random ones only never
 * wrong. And avrm_map_build_affine against avrm_map_build of the same
 * mapping array, over direct, stride and table parents.
 */
#include "tu.h"
#include "avrm/avrm_split.h"     /* not in avrm.h: only the split glue needs it */

#define UNDEF (-32766)          /* MPICH's MPI_UNDEFINED: an ordinary colour here */
#define MAXP 300

static int32_t col[MAXP], key[MAXP];
static int check_colors = 1;    /* MPI_Comm_split's rule (MPICH's internal callers: 0) */

typedef struct outcome {
    int kind, order, path;      /* path: what avrm_split_decide said first */
    uint32_t period;
} outcome_t;

/* the members of r's colour in MPI order (key, then parent rank) */
static uint32_t oracle(uint32_t P, uint32_t r, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < P; w++) {
        if (col[w] != col[r]) continue;
        uint32_t j = n++;
        while (j > 0 && (key[out[j - 1]] > key[w])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = w;
    }
    return n;
}

/* every vote folded, in a random order and grouping (the op must not care) */
static void reduce(uint32_t P, avrm_split_sum_t *v, avrm_split_sum_t *all)
{
    static uint32_t idx[MAXP];
    for (uint32_t i = 0; i < P; i++) idx[i] = i;
    for (uint32_t i = P - 1; i > 0; i--) {
        uint32_t j = tu_below(i + 1), t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
    for (uint32_t n = P; n > 1; n = (n + 1) / 2)      /* a tree of pairs */
        for (uint32_t i = 0; i + 1 < n; i += 2) {
            avrm_split_sum_fold(&v[idx[i]], &v[idx[i + 1]]);
            idx[i / 2] = idx[i];
            if (i + 2 == n - 1) idx[i / 2 + 1] = idx[n - 1];
        }
    *all = v[idx[0]];
}

/* Run the protocol for every process; 0 when no form (or processes
 * disagree: counted as a failure), else the outcome in *o. Checks each
 * process's group against the oracle. */
static int simulate(uint32_t P, outcome_t *o)
{
    static avrm_split_sum_t v[MAXP];
    static int32_t first[MAXP], end[MAXP], nfirst[MAXP], nend[MAXP];
    static avrm_split_form_t f[MAXP];
    static uint32_t expect[MAXP];
    avrm_split_sum_t all;
    for (uint32_t r = 0; r < P; r++) {
        avrm_split_ck_t me = { col[r], key[r] }, l;
        if (r > 0) l = (avrm_split_ck_t) { col[r - 1], key[r - 1] };
        avrm_split_vote(r, P, me, r > 0 ? &l : NULL, check_colors && col[r] < 0 && col[r] != UNDEF,
                        &v[r]);
    }
    reduce(P, v, &all);
    for (uint32_t r = 0; r < P; r++) {
        avrm_split_decide(r, P, &all, &f[r]);
        if (f[r].kind != f[0].kind || f[r].period != f[0].period || f[r].order != f[0].order) {
            CHECK(!"processes disagree on the form");
            return 0;
        }
    }
    int path = f[0].kind;
    if (path == AVRM_SPLIT_RUNS_SCAN) {         /* every message of a round is sent first */
        for (uint32_t r = 0; r < P; r++) {
            avrm_split_ck_t me = { col[r], key[r] }, l, rt;
            if (r > 0) l = (avrm_split_ck_t) { col[r - 1], key[r - 1] };
            if (r + 1 < P) rt = (avrm_split_ck_t) { col[r + 1], key[r + 1] };
            avrm_split_scan_start(r, P, me, r > 0 ? &l : NULL, r + 1 < P ? &rt : NULL,
                                  &first[r], &end[r]);
        }
        for (uint32_t d = 1; d < P; d *= 2) {
            memcpy(nfirst, first, sizeof(first[0]) * P);
            memcpy(nend, end, sizeof(end[0]) * P);
            for (uint32_t r = 0; r < P; r++)
                avrm_split_scan_fold(&nfirst[r], r >= d ? first[r - d] : -1, &nend[r],
                                     r + d < P ? end[r + d] : (int32_t) P + 1);
            memcpy(first, nfirst, sizeof(first[0]) * P);
            memcpy(end, nend, sizeof(end[0]) * P);
        }
        for (uint32_t r = 0; r < P; r++)
            avrm_split_scan_settle(&f[r], first[r], end[r]);
    } else if (path == AVRM_SPLIT_CYCLIC_CHECK) {
        uint32_t votes = ~0u, C = f[0].period;
        for (uint32_t r = 0; r < P; r++) {
            avrm_split_ck_t me = { col[r], key[r] }, back;
            if (r >= C) back = (avrm_split_ck_t) { col[r - C], key[r - C] };
            votes &= avrm_split_cyclic_vote(me, r >= C ? &back : NULL);
        }
        for (uint32_t r = 0; r < P; r++)
            avrm_split_cyclic_settle(&f[r], votes);
    }
    *o = (outcome_t) { f[0].kind, f[0].order, path, f[0].period };
    if (f[0].kind == AVRM_SPLIT_BAD_COLOR) return 1;
    if (f[0].kind != AVRM_SPLIT_RUNS && f[0].kind != AVRM_SPLIT_CYCLIC) return 0;
    for (uint32_t r = 0; r < P; r++) {
        int64_t lo, stride;
        uint32_t n, me;
        avrm_split_group(&f[r], r, P, &lo, &stride, &n, &me);
        uint32_t en = oracle(P, r, expect);
        CHECK(n == en);
        if (n != en) return 1;
        CHECK(me < n && expect[me] == r);
        for (uint32_t i = 0; i < n; i++)
            if (lo + (int64_t) i * stride != expect[i]) {
                CHECK(!"a member differs from the oracle");
                fprintf(stderr, "  P %u rank %u member %u: %lld, oracle %u\n", P, r, i,
                        (long long) (lo + (int64_t) i * stride), expect[i]);
                return 1;
            }
    }
    return 1;
}

/* shapes regular by construction: each must be decided (kind, order), and
 * settled by the first decision when `direct` (no scan, no period check) */
static void expect_form(uint32_t P, int kind, int order, int direct, const char *what)
{
    outcome_t o;
    int ok = simulate(P, &o) && o.kind == kind && (kind == AVRM_SPLIT_BAD_COLOR || o.order == order);
    if (ok && direct && o.path != kind) ok = 0;
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  P %u %s: kind %d order %d path %d, expected %d %d%s\n", P, what, o.kind,
                o.order, o.path, kind, order, direct ? " direct" : "");
}

static void test_regular_shapes(void)
{
    static const uint32_t sizes[] = { 1, 2, 3, 5, 8, 13, 16, 31, 64, 100, 128, 257, MAXP };
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        uint32_t P = sizes[si];
        for (uint32_t r = 0; r < P; r++) { col[r] = 0; key[r] = 0; }
        expect_form(P, AVRM_SPLIT_RUNS, 1, 1, "one colour, one key");
        for (uint32_t r = 0; r < P; r++) key[r] = -(int32_t) r;
        expect_form(P, AVRM_SPLIT_RUNS, P > 1 ? -1 : 1, 1, "one colour, reversed");
        for (uint32_t B = 1; B <= P; B = B * 3 + 1) {
            for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) (r / B); key[r] = (int32_t) r; }
            expect_form(P, AVRM_SPLIT_RUNS, 1, 1, "blocks");
            for (uint32_t r = 0; r < P; r++) { col[r] = 1000 - (int32_t) (r / B); key[r] = 7 - (int32_t) r; }
            expect_form(P, AVRM_SPLIT_RUNS, B > 1 ? -1 : 1, 1, "falling blocks, reversed");
            for (uint32_t r = 0; r < P; r++) { col[r] = r < B ? 5 : UNDEF; key[r] = 0; }
            expect_form(P, AVRM_SPLIT_RUNS, 1, 1, "first B, then MPI_UNDEFINED");
            for (uint32_t r = 0; r < P; r++) { col[r] = r < B ? UNDEF : r < 2 * B ? 1 : 2; key[r] = 0; }
            expect_form(P, AVRM_SPLIT_RUNS, 1, 1, "three runs");
        }
        /* runs of lengths 1, 2, 3, ...: bounds by the scan */
        for (uint32_t r = 0, len = 1, left = 1, c = 0; r < P; r++) {
            col[r] = (int32_t) c;
            key[r] = (int32_t) (r % 3);
            if (--left == 0) { c++; left = ++len; }
        }
        for (uint32_t r = 1; r < P; r++) if (col[r] == col[r - 1]) key[r] = key[r - 1];
        expect_form(P, AVRM_SPLIT_RUNS, 1, P < 7, "runs of growing lengths");
        for (uint32_t C = 2; C < P; C = C * 2 + 1) {
            for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) (r % C); key[r] = (int32_t) r; }
            expect_form(P, AVRM_SPLIT_CYCLIC, 1, 1, "r % C");
            for (uint32_t r = 0; r < P; r++) { col[r] = 5 * (int32_t) (r % C) + 9; key[r] = (int32_t) (r / C); }
            expect_form(P, AVRM_SPLIT_CYCLIC, 1, 1, "5 (r % C) + 9, key r / C");
            for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) (r % C); key[r] = -(int32_t) r; }
            expect_form(P, AVRM_SPLIT_CYCLIC, -1, 1, "r % C, reversed");
            for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) (r % C); key[r] = -(int32_t) (r / C); }
            expect_form(P, AVRM_SPLIT_CYCLIC, -1, 0, "r % C, key -(r / C): checked");
            for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) ((r % C) * (r % C)); key[r] = 0; }
            if (C > 2)
                expect_form(P, AVRM_SPLIT_CYCLIC, 1, 0, "(r % C)^2, rising unevenly: checked");
            for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) (C - r % C); key[r] = -(int32_t) (r / C); }
            expect_form(P, AVRM_SPLIT_CYCLIC, -1, 0, "falling r % C, reversed: checked");
        }
        if (P > 2) {    /* (with C > 2 MPI_UNDEFINED repeats inside a period: no form) */
            for (uint32_t r = 0; r < P; r++) { col[r] = r % 2 ? UNDEF : 3; key[r] = 1; }
            expect_form(P, AVRM_SPLIT_CYCLIC, 1, 0, "even ranks, odd MPI_UNDEFINED");
        }
        for (uint32_t r = 0; r < P; r++) { col[r] = (int32_t) r; key[r] = 3; }
        expect_form(P, AVRM_SPLIT_RUNS, 1, 1, "own colour");
        /* steps of 2^32 - 1: the arithmetic is in 64 bits (negative colours:
         * as MPICH's own callers of the split may pass) */
        check_colors = 0;
        for (uint32_t r = 0; r < P; r++) { col[r] = r % 2 ? INT32_MAX : INT32_MIN; key[r] = (int32_t) r; }
        expect_form(P, P > 2 ? AVRM_SPLIT_CYCLIC : AVRM_SPLIT_RUNS, 1, 1, "INT_MIN, INT_MAX, ...");
        for (uint32_t r = 0; r < P; r++) { col[r] = r < P / 2 ? INT32_MAX : INT32_MIN; key[r] = INT32_MIN; }
        expect_form(P, AVRM_SPLIT_RUNS, 1, 1, "INT_MAX then INT_MIN, keys INT_MIN");
        check_colors = 1;
        if (P > 1) {
            for (uint32_t r = 0; r < P; r++) { col[r] = 0; key[r] = 0; }
            col[P / 2] = -5;
            expect_form(P, AVRM_SPLIT_BAD_COLOR, 0, 1, "an erroneous colour");
        }
    }
}

/* Near-periods that a weaker rule would take for r % 3 (the oracle in
 * simulate() catches a wrong group): a wrap of the right size but early
 * (rank 5), a last wrap too small. */
static void test_near_periods(void)
{
    static const int32_t seq[][7] = { { 0, 1, 2, 0, 1, -1, 0 }, { 0, 1, 2, 0, 1, 2, 1 } };
    for (int t = 0; t < 2; t++) {
        for (uint32_t r = 0; r < 7; r++) { col[r] = seq[t][r] + 10; key[r] = (int32_t) r; }
        outcome_t o;
        simulate(7, &o);
        CHECK(o.path != AVRM_SPLIT_CYCLIC);
    }
}

/* Adversarial and random (colour, key): a decided form is never wrong.
 * Counts how many were decided, so that the check is not vacuous. */
static void test_random_shapes(void)
{
    unsigned decided = 0, total = 0;
    for (int t = 0; t < 6000; t++) {
        tu_srand(5000 + (unsigned long) t);
        uint32_t P = 1 + tu_below(t % 3 ? 40 : MAXP);
        uint32_t nc = 1 + tu_below(5), kr = 1 + tu_below(4);
        int style = (int) tu_below(6);
        for (uint32_t r = 0; r < P; r++) {
            switch (style) {
            case 0: col[r] = (int32_t) tu_below(nc); break;                 /* random colours */
            case 1: col[r] = (int32_t) (r / (1 + nc)) ^ (int32_t) tu_below(2); break; /* near blocks */
            case 2: col[r] = (int32_t) (r % (1 + nc)) + (tu_below(50) == 0); break;   /* near cyclic */
            case 3: col[r] = tu_below(3) ? INT32_MAX - (int32_t) (r / 3) : UNDEF; break;
            case 4: col[r] = (int32_t) ((r * 7) % (nc + 1)); break;
            default: col[r] = (int32_t) (r / 4 % 3); break;                 /* colours come back */
            }
            key[r] = (int32_t) tu_below(kr) - 1;
            if (tu_below(4) == 0) key[r] = (int32_t) r * (tu_below(2) ? 1 : -1);
            if (tu_below(3) == 0) key[r] = tu_below(2) ? INT32_MIN : INT32_MAX;
        }
        outcome_t o;
        total++;
        decided += simulate(P, &o) && o.kind != AVRM_SPLIT_NONE;
    }
    printf("  random: %u of %u decided without a gather\n", decided, total);
    CHECK(decided > total / 20 && decided < total);
}

/* avrm_map_build_affine == avrm_map_build of the same array, every rank */
static void test_affine(void)
{
    avrm_params_t prm = avrm_params_default();
    avrm_ctx_t *ctx = NULL;
    CHECK(avrm_ctx_create(&prm, &ctx) == AVRM_OK);
    const uint32_t W = 97;
    CHECK(tu_av(ctx, 0, W) != NULL);
    tmap_t world, par[3];
    tu_world(ctx, &world, 0);
    int32_t map[W];
    for (uint32_t i = 0; i < 48; i++) map[i] = (int32_t) (1 + 2 * i);       /* stride parent */
    CHECK(tu_build(ctx, &world, map, 48, &par[0]));
    for (uint32_t i = 0; i < W; i++) map[i] = (int32_t) i;
    tu_srand(77);
    for (uint32_t i = W - 1; i > 0; i--) {                                     /* table parent */
        uint32_t j = tu_below(i + 1);
        int32_t t = map[i]; map[i] = map[j]; map[j] = t;
    }
    CHECK(tu_build(ctx, &world, map, W, &par[1]));
    par[2] = world;
    for (int pi = 0; pi < 3; pi++) {
        const tmap_t *p = &par[pi];
        for (int t = 0; t < 300; t++) {
            int64_t stride = (int64_t) tu_below(7) - 3;
            uint32_t n = 1 + tu_below(p->n);
            if (stride == 0) stride = 1;
            int64_t span = (int64_t) (n - 1) * (stride < 0 ? -stride : stride);
            if (span >= p->n) { n = 1 + (uint32_t) ((p->n - 1) / (stride < 0 ? -stride : stride)); span = (int64_t) (n - 1) * (stride < 0 ? -stride : stride); }
            int64_t lo = tu_below((uint32_t) (p->n - span));
            int64_t first = stride > 0 ? lo : lo + span;
            tmap_t a;
            a.n = n;
            a.ref = malloc(n * sizeof(avrm_gpid_t));
            for (uint32_t i = 0; i < n; i++) a.ref[i] = p->ref[first + (int64_t) i * stride];
            CHECK(avrm_map_build_affine(ctx, &p->m, first, stride, n, &a.m) == AVRM_OK);
            CHECK(tu_check(ctx, &a));
            tu_release(ctx, &a);
        }
        avrm_rankmap_t bad;
        CHECK(avrm_map_build_affine(ctx, &p->m, 0, -1, 2, &bad) == AVRM_ERR_ARG);
        CHECK(avrm_map_build_affine(ctx, &p->m, p->n - 1, 1, 2, &bad) == AVRM_ERR_ARG);
        CHECK(avrm_map_build_affine(ctx, &p->m, 0, 1, 0, &bad) == AVRM_ERR_ARG);
    }
    /* a regular parent's regular child is a formula: no table */
    avrm_rankmap_t s;
    CHECK(avrm_map_build_affine(ctx, &world.m, 90, -3, 30, &s) == AVRM_OK);
    CHECK(avrm_map_table_bytes(&s, NULL) == 0);
    avrm_map_release(ctx, &s);
    tu_release(ctx, &par[0]);
    tu_release(ctx, &par[1]);
    tu_release(ctx, &world);
    avrm_ctx_destroy(ctx);
}

int main(void)
{
    RUN(test_regular_shapes);
    RUN(test_near_periods);
    RUN(test_random_shapes);
    RUN(test_affine);
    return tu_finish();
}
