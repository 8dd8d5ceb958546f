/*
 * test_hier.c - the node hierarchy (avrm_hier.h) against stock MPICH's
 * plain tables, rebuilt the way MPIR_Find_local/MPIR_Find_external build
 * them (tu_hier.h): for every placement (block, cyclic, uneven runs, random,
 * one node, one rank per node, unknown nodes) and every process of it,
 * every rank's intranode and internode rank, the node's members and every
 * node's leader, the form chosen and its out-of-line bytes, and the
 * locality a computed AV takes from it (avrm_locality_of_hier); then the
 * errors (bad arguments, allocation failures at every step).
 */
#include "tu_hier.h"
#include "avrm_alloc.h"

/* my node as a computed world AV describes it (avrm_locality_of_hier):
 * ranks whose locality differs from the hierarchy's answer */
static uint32_t locality_mismatches(const avrm_hier_t *h, uint32_t n)
{
    uint32_t len = avrm_locality_list_len(h), bad = 0;
    uint32_t *list = len ? malloc(sizeof(uint32_t) * len) : NULL;
    avrm_locality_t loc;
    avrm_locality_of_hier(h, list, &loc);
    for (uint32_t r = 0; r < n; r++)
        bad += avrm_locality_has(&loc, r) != (avrm_hier_intranode(h, r) >= 0);
    bad += (loc.kind == AVRM_LOCAL_LIST) != (len > 0);
    free(list);
    return bad;
}

/* build for a few processes of the placement (all when small), check,
 * release; the form must be `form` (or any when form < 0) */
static void check_placement(const tu_place_t *p, int form)
{
    avrm_params_t prm = avrm_params_default();
    avrm_ctx_t *ctx = NULL;
    CHECK(avrm_ctx_create(&prm, &ctx) == AVRM_OK);
    uint32_t step = p->n <= 64 ? 1 : p->n / 29 + 1;
    for (uint32_t me = 0; me < p->n; me += step) {
        avrm_hier_t h;
        CHECK(avrm_hier_build(ctx, p->n, me, p->max_nodes, tu_node_of, (void *) p, &h) == AVRM_OK);
        if (form >= 0 && h.form != form) {
            CHECK(h.form == form);
            fprintf(stderr, "  n %u: form %s, expected %s\n", p->n,
                    avrm_hier_form_name(h.form), avrm_hier_form_name(form));
        }
        CHECK(ctx->stats.hier_bytes == avrm_hier_bytes(&h));
        CHECK(tu_hier_mismatches(&h, p, me) == 0);
        CHECK(locality_mismatches(&h, p->n) == 0);
        /* dups (a communicator's MPI_Comm_dup) share the words: same
         * answers, counted once, freed with the last reference */
        avrm_hier_t d1, d2;
        size_t bytes = avrm_hier_bytes(&h);
        avrm_hier_dup(&h, &d1);
        avrm_hier_dup(&d1, &d2);
        CHECK(d2.words == h.words && ctx->stats.hier_bytes == bytes);
        avrm_hier_release(ctx, &h);
        CHECK(tu_hier_mismatches(&d2, p, me) == 0 && ctx->stats.hier_bytes == bytes);
        avrm_hier_release(ctx, &d2);
        CHECK(tu_hier_mismatches(&d1, p, me) == 0 && ctx->stats.hier_bytes == bytes);
        avrm_hier_release(ctx, &d1);
        CHECK(ctx->stats.hier_bytes == 0 && d1.form == AVRM_HIER_NONE && d1.words == NULL);
    }
    avrm_ctx_destroy(ctx);
}

static tu_place_t placement(uint32_t n, uint32_t max_nodes)
{
    tu_place_t p = { n, max_nodes, malloc(sizeof(int32_t) * n) };
    return p;
}


/* block of q per node, cyclic over k nodes, with node ids permuted so that
 * ids are not the node indices */
static void test_closed_forms(void)
{
    static const uint32_t sizes[] = { 1, 2, 7, 8, 16, 63, 64, 100, 1000 };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
        uint32_t n = sizes[i];
        for (uint32_t q = 1; q <= n; q = q < 4 ? q + 1 : q * 3) {
            tu_place_t p = placement(n, n);
            for (uint32_t r = 0; r < n; r++)
                p.node[r] = (int32_t) (n - 1 - r / q);     /* ids are not node indices */
            check_placement(&p, AVRM_HIER_BLOCK);
            uint32_t k = q;                                         /* k nodes, round-robin */
            for (uint32_t r = 0; r < n; r++)
                p.node[r] = (int32_t) (n - 1 - r % k);
            /* fewer ranks than nodes, or k == 1 / k == n: every rank its
             * own node or one node, which BLOCK describes */
            check_placement(&p, (k == 1 || k >= n) ? AVRM_HIER_BLOCK : AVRM_HIER_CYCLIC);
            free(p.node);
        }
    }
    /* reversed block (node ids descending): still BLOCK by first appearance */
    tu_place_t p = placement(48, 6);
    for (uint32_t r = 0; r < 48; r++)
        p.node[r] = (int32_t) (5 - r / 8);
    check_placement(&p, AVRM_HIER_BLOCK);
    free(p.node);
}

/* uneven cliques (MPIR_CVAR_NUM_CLIQUES-like, a last node larger); a last
 * node smaller than the others is BLOCK */
static void test_runs(void)
{
    static const uint32_t counts[][5] = {
        { 3, 5, 3, 5, 0 }, { 8, 8, 8, 9, 0 }, { 1, 7, 1, 7, 0 }, { 8, 9, 0 }, { 1, 2, 0 }
    };
    for (size_t c = 0; c < sizeof(counts) / sizeof(*counts); c++) {
        uint32_t n = 0;
        for (int e = 0; counts[c][e]; e++) n += counts[c][e];
        tu_place_t p = placement(n, 16);
        uint32_t r = 0;
        for (int e = 0; counts[c][e]; e++)
            for (uint32_t j = 0; j < counts[c][e]; j++)
                p.node[r++] = 15 - e;
        check_placement(&p, AVRM_HIER_RUNS);
        free(p.node);
    }
    tu_place_t p = placement(17, 2);
    for (uint32_t r = 0; r < 17; r++)
        p.node[r] = r < 9 ? 1 : 0;
    check_placement(&p, AVRM_HIER_BLOCK);
    free(p.node);
}

/* random placements: mostly TABLE, also with more than 65536 nodes (4-byte
 * entries) */
static void test_random_placements(void)
{
    for (unsigned long seed = 1; seed <= 40; seed++) {
        tu_srand(seed);
        uint32_t n = 1 + tu_below(300), nodes = 1 + tu_below(12);
        tu_place_t p = placement(n, nodes);
        for (uint32_t r = 0; r < n; r++)
            p.node[r] = (int32_t) tu_below(nodes);
        check_placement(&p, -1);
        free(p.node);
    }
    /* 70000 nodes of 2 ranks, a node's two ranks far apart */
    tu_place_t p = placement(140000, 70000);
    for (uint32_t r = 0; r < 140000; r++)
        p.node[r] = (int32_t) (r % 2 ? r / 2 : 69999 - r / 2);
    check_placement(&p, AVRM_HIER_TABLE);
    free(p.node);
}

/* a rank of unknown node (spawned, attached): NONE, one rank per node */
static void test_unknown(void)
{
    tu_place_t p = placement(10, 4);
    for (uint32_t r = 0; r < 10; r++)
        p.node[r] = r == 7 ? -1 : (int32_t) (r / 3);
    for (uint32_t me = 0; me < 10; me++) {
        avrm_hier_t h;
        CHECK(avrm_hier_build(NULL, 10, me, 4, tu_node_of, &p, &h) == AVRM_OK);
        CHECK(h.form == AVRM_HIER_NONE && h.nnodes == 10 && h.local_size == 1 && h.my_node == me);
        for (uint32_t r = 0; r < 10; r++)
            CHECK(avrm_hier_internode(&h, r) == r &&
                  avrm_hier_intranode(&h, r) == (r == me ? 0 : -1));
        CHECK(!avrm_hier_is_consecutive(&h));
        avrm_hier_release(NULL, &h);
    }
    free(p.node);
}

/* bad arguments and allocation failures leave *out untouched */
static void test_hier_errors(void)
{
    tu_place_t p = placement(12, 4);
    for (uint32_t r = 0; r < 12; r++)
        p.node[r] = (int32_t) (r * 7 % 4);     /* 0 3 2 1 0 ...: cyclic, ids permuted */
    avrm_hier_t h, keep;
    memset(&keep, 0xa5, sizeof(keep));
    h = keep;
    CHECK(avrm_hier_build(NULL, 0, 0, 4, tu_node_of, &p, &h) == AVRM_ERR_ARG);
    CHECK(avrm_hier_build(NULL, 12, 12, 4, tu_node_of, &p, &h) == AVRM_ERR_ARG);
    CHECK(avrm_hier_build(NULL, 12, 0, 3, tu_node_of, &p, &h) == AVRM_ERR_ARG);  /* id 3 >= 3 */
    CHECK(avrm_hier_build(NULL, AVRM_MAX_WORLD + 1, 0, 4, tu_node_of, &p, &h) == AVRM_ERR_LIMIT);
    CHECK(memcmp(&h, &keep, sizeof(h)) == 0);
    p.node[5] = 2;                              /* now TABLE: scratch + words */
    for (long k = 0; k < 2; k++) {
        avrm__alloc_fail_after(k);
        CHECK(avrm_hier_build(NULL, 12, 1, 4, tu_node_of, &p, &h) == AVRM_ERR_NOMEM);
        CHECK(memcmp(&h, &keep, sizeof(h)) == 0);
    }
    avrm__alloc_fail_after(2);
    CHECK(avrm_hier_build(NULL, 12, 1, 4, tu_node_of, &p, &h) == AVRM_OK && h.form == AVRM_HIER_TABLE);
    avrm__alloc_fail_after(-1);
    check_placement(&p, AVRM_HIER_TABLE);
    avrm_hier_release(NULL, &h);
    free(p.node);
}

int main(void)
{
    RUN(test_closed_forms);
    RUN(test_runs);
    RUN(test_random_placements);
    RUN(test_unknown);
    RUN(test_hier_errors);
    return tu_finish();
}
