/*
 * test_hooks.c - what the MPICH glue relies on besides the maps themselves:
 * avrm_map_mark_groups marks exactly the process groups a map's ranks
 * belong to (the glue drops group references after it, never while it
 * decodes), ctx->avs stays readable by a lock-free reader while an AV is
 * created (the array it loaded is retired, not freed), and
 * avrm_set_allocator routes every allocation and free of libavrm (the glue
 * passes MPL's so that MPICH's memory tracing sees them).
 */
#include "tu_gen.h"
#include "avrm_mapi.h"      /* a table's cached process groups */

/* world of 12 (pgid 0) and two spawned groups of 3 (pgid 1) and 5 (pgid 2) */
static avrm_ctx_t *three_groups(avrm_rankmap_t g[3])
{
    avrm_params_t p = avrm_params_default();
    avrm_ctx_t *ctx = NULL;
    static const uint32_t size[3] = { 12, 3, 5 };
    CHECK(avrm_ctx_create(&p, &ctx) == AVRM_OK);
    for (uint32_t i = 0; i < 3; i++) {
        avrm_av_params_t ap = { .size = size[i], .pgid = (avrm_pgid_t) i };
        avrm_av_t *av = NULL;
        CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK);
        for (uint32_t l = 0; l < size[i]; l++)
            CHECK(avrm_av_set(av, l, 100 * i + l, 0) == AVRM_OK);
        CHECK(avrm_map_init_group(ctx, (avrm_pgid_t) i, &g[i]) == AVRM_OK);
    }
    return ctx;
}

/* marks of m against the groups the test put in it */
static void check_marks(avrm_ctx_t *ctx, const avrm_rankmap_t *m, int g0, int g1, int g2)
{
    uint8_t seen[8] = { 0 };
    CHECK(ctx->navs <= sizeof(seen));
    avrm_map_mark_groups(ctx, m, seen);
    CHECK(seen[0] == g0 && seen[1] == g1 && seen[2] == g2);
    for (uint32_t i = 3; i < sizeof(seen); i++)
        CHECK(seen[i] == 0);
}

static void test_mark_groups(void)
{
    avrm_rankmap_t g[3], m;
    avrm_ctx_t *ctx = three_groups(g);
    const avrm_rankmap_t *parents[3] = { &g[0], &g[1], &g[2] };
    avrm_src_t src[20];

    for (int i = 0; i < 3; i++)
        check_marks(ctx, &g[i], i == 0, i == 1, i == 2);
    /* world then group 1, in order (a JOIN of two runs) */
    uint32_t n = 0;
    for (int r = 0; r < 12; r++) src[n++] = (avrm_src_t) { 0, r };
    for (int r = 0; r < 3; r++) src[n++] = (avrm_src_t) { 1, r };
    CHECK(avrm_map_build_multi(ctx, parents, 2, src, n, &m) == AVRM_OK);
    check_marks(ctx, &m, 1, 1, 0);
    avrm_map_release(ctx, &m);
    /* world 0-5, group 2, world 8-11: three offset runs, MSEG from the
     * compact builder (marks come from its segments) */
    n = 0;
    for (int r = 0; r < 6; r++) src[n++] = (avrm_src_t) { 0, r };
    for (int r = 0; r < 5; r++) src[n++] = (avrm_src_t) { 2, r };
    for (int r = 8; r < 12; r++) src[n++] = (avrm_src_t) { 0, r };
    CHECK(avrm_map_build_multi_compact(ctx, parents, 3, src, n, &m) == AVRM_OK);
    CHECK(m.mode == AVRM_MODE_MSEG);
    check_marks(ctx, &m, 1, 0, 1);
    avrm_map_release(ctx, &m);
    /* groups 2 and 1 interleaved, none of the world (a multi-group table) */
    n = 0;
    for (int r = 0; r < 5; r++) {
        src[n++] = (avrm_src_t) { 2, 4 - r };
        if (r < 3) src[n++] = (avrm_src_t) { 1, r };
    }
    CHECK(avrm_map_build_multi(ctx, parents, 3, src, n, &m) == AVRM_OK);
    CHECK(m.mode == AVRM_MODE_MLUT || m.mode == AVRM_MODE_MLUT32);
    CHECK(avrm__map_table(&m)->groups == 0);
    check_marks(ctx, &m, 0, 1, 1);
    /* the first marking of a whole table keeps its groups in the header:
     * later ones (MPI_Comm_group, dups, releases) read them, O(15) */
    CHECK(avrm__map_table(&m)->groups == (1u << 1 | 1u << 2));
    check_marks(ctx, &m, 0, 1, 1);
    avrm_rankmap_t d;
    avrm_map_dup(ctx, &m, &d);
    check_marks(ctx, &d, 0, 1, 1);
    avrm_map_release(ctx, &d);
    /* a map of one rank of that map: group 1 only */
    int32_t one = 1;
    avrm_rankmap_t c;
    CHECK(avrm_map_build(ctx, &m, &one, 1, &c) == AVRM_OK);
    check_marks(ctx, &c, 0, 1, 0);
    avrm_map_release(ctx, &c);
    avrm_map_release(ctx, &m);
    check_marks(ctx, &m, 0, 0, 0);     /* released: size 0, nothing */
    for (int i = 0; i < 3; i++)
        avrm_map_release(ctx, &g[i]);
    avrm_ctx_destroy(ctx);
}

/* A reader that loaded ctx->avs before a spawn grew it (the glue's sends
 * on a multi-group map read it without a lock) still reads the same valid
 * slots: the old array is retired, not freed (under ASan a freed one
 * fails here). */
static void test_avs_retired(void)
{
    avrm_rankmap_t g[3];
    avrm_ctx_t *ctx = three_groups(g);
    avrm_av_t **old = ctx->avs, *av0 = ctx->avs[0];
    uint32_t oldn = ctx->navs;
    avrm_av_params_t ap = { .size = 2, .pgid = (avrm_pgid_t) (4 * oldn) };   /* grows */
    avrm_av_t *av = NULL;
    CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK);
    CHECK(ctx->navs > oldn && ctx->avs != old);
    CHECK(old[0] == av0 && ctx->avs[0] == av0);
    for (uint32_t i = 0; i < oldn; i++)
        CHECK(old[i] == ctx->avs[i]);
    CHECK(ctx->avs[ap.pgid] == av);
    for (int i = 0; i < 3; i++)
        avrm_map_release(ctx, &g[i]);
    avrm_ctx_destroy(ctx);
}

/* counting allocator: live blocks and calls */
static long live, calls;
static void *c_malloc(size_t b) { calls++; live++; return malloc(b); }
static void *c_realloc(void *p, size_t b)
{
    calls++;
    void *q = realloc(p, b);
    if (!p && q) live++;
    return q;
}
static void c_free(void *p) { if (p) live--; free(p); }

static void test_allocator(void)
{
    static const avrm_allocator_t counting = { c_malloc, c_realloc, c_free };
    live = calls = 0;
    avrm_set_allocator(&counting);
    avrm_rankmap_t g[3], m, t;
    avrm_ctx_t *ctx = three_groups(g);
    const avrm_rankmap_t *parents[3] = { &g[0], &g[1], &g[2] };
    avrm_src_t src[20];
    uint32_t n = 0;
    for (int r = 0; r < 5; r++) {
        src[n++] = (avrm_src_t) { 2, (r * 3) % 5 };
        if (r < 3) src[n++] = (avrm_src_t) { 1, 2 - r };
    }
    CHECK(avrm_map_build_multi(ctx, parents, 3, src, n, &m) == AVRM_OK);
    int32_t perm[12] = { 3, 11, 0, 7, 2, 9, 5, 1, 10, 4, 8, 6 };   /* a table */
    CHECK(avrm_map_build(ctx, &g[0], perm, 12, &t) == AVRM_OK);
    CHECK(calls > 0 && live > 0);
    avrm_map_release(ctx, &t);
    avrm_map_release(ctx, &m);
    for (int i = 0; i < 3; i++)
        avrm_map_release(ctx, &g[i]);
    avrm_ctx_destroy(ctx);
    CHECK(live == 0);             /* every block freed, by the allocator that made it */
    avrm_set_allocator(NULL);
    long before = calls;
    ctx = three_groups(g);
    for (int i = 0; i < 3; i++)
        avrm_map_release(ctx, &g[i]);
    avrm_ctx_destroy(ctx);
    CHECK(calls == before);       /* libc's again */
}

int main(void)
{
    RUN(test_mark_groups);
    RUN(test_avs_retired);
    RUN(test_allocator);
    return tu_finish();
}
