/*
 * test_errors.c - invalid input and injected allocation failures: every
 * failing call returns its error and leaves its outputs and the stats
 * untouched; AV and context basics; sizes of hot structs pinned.
 */
#include "tu_gen.h"
#include "avrm_alloc.h"

_Static_assert(sizeof(avrm_rankmap_t) == 48, "rank map is 48 bytes");
_Static_assert(sizeof(avrm_ave_t) == 8, "AV entry is 8 bytes");

static void test_sizes(void)
{
    CHECK(sizeof(avrm_rankmap_t) == 48);
    CHECK(sizeof(avrm_ave_t) == 8);
    CHECK(sizeof(avrm_gpid_t) == 8);
    CHECK(sizeof(avrm_seg_t) == 12);
    CHECK(sizeof(avrm_av_t) <= 64);
}

static void test_av_basics(void)
{
    avrm_params_t p = avrm_params_default();
    p.computed_av = 1;
    avrm_ctx_t *ctx = NULL;
    CHECK(avrm_ctx_create(&p, &ctx) == AVRM_OK);
    uint32_t list[] = { 2, 5, 9 };
    avrm_av_params_t ap = { .size = 12, .pgid = 0, .computed = 1,
                            .local = { .kind = AVRM_LOCAL_LIST, .count = 3, .list = list } };
    avrm_av_t *av = NULL, *sentinel = (avrm_av_t *) 0x1;
    CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK && av->entries == NULL && av->computed);
    list[0] = 3;                                              /* the list was copied */
    CHECK(avrm_av_is_local(av, 2) && avrm_av_is_local(av, 9) && !avrm_av_is_local(av, 3));
    CHECK(avrm_av_addr(av, 7) == 7);
    /* computed: addr must be lpid; a refused set changes nothing */
    CHECK(avrm_av_set(av, 4, 4, 0) == AVRM_OK && avrm_av_addr(av, 4) == 4 && !av->entries);
    CHECK(avrm_av_set(av, 4, 5, 0) == AVRM_ERR_ARG && avrm_av_addr(av, 4) == 4 && av->computed);
    CHECK(avrm_av_set(av, 12, 12, 0) == AVRM_ERR_ARG);       /* lpid out of range */
    CHECK(avrm_av_set(NULL, 0, 0, 0) == AVRM_ERR_ARG);
    /* nothing per peer: the AV struct, the copied list, the slot array (2 slots) */
    avrm_stats_t st;
    avrm_ctx_stats(ctx, &st);
    CHECK(st.av_entry_bytes == 0 &&
          st.av_meta_bytes == sizeof(avrm_av_t) + 3 * sizeof(uint32_t) + 2 * sizeof(avrm_av_t *));
    avrm_av_t *dup = sentinel;
    CHECK(avrm_av_create(NULL, &ap, &dup) == AVRM_ERR_ARG && dup == sentinel);
    CHECK(avrm_av_create(ctx, NULL, &dup) == AVRM_ERR_ARG && dup == sentinel);
    CHECK(avrm_av_create(ctx, &ap, NULL) == AVRM_ERR_ARG);
    CHECK(avrm_av_create(ctx, &ap, &dup) == AVRM_ERR_ARG && dup == sentinel);   /* slot taken */
    ap.size = 0;
    ap.pgid = 1;
    CHECK(avrm_av_create(ctx, &ap, &dup) == AVRM_ERR_ARG && dup == sentinel);
    ap.size = AVRM_MAX_WORLD + 1;
    CHECK(avrm_av_create(ctx, &ap, &dup) == AVRM_ERR_LIMIT && dup == sentinel);
    avrm_stats_t st2;
    avrm_ctx_stats(ctx, &st2);
    CHECK(memcmp(&st, &st2, sizeof(st)) == 0);               /* refusals account nothing */
    /* a world map over a computed AV: address = lpid, locality from the list */
    tmap_t w;
    CHECK(avrm_map_init_group(ctx, 0, &w.m) == AVRM_OK);
    CHECK(avrm_map_addr(ctx, &w.m, 11) == 11 && avrm_map_is_local(ctx, &w.m, 5) &&
          !avrm_map_is_local(ctx, &w.m, 6));
    avrm_map_release(ctx, &w.m);
    CHECK(avrm_av_make_stored(ctx, av) == AVRM_OK && av->entries && !av->computed);
    CHECK(avrm_av_addr(av, 7) == 7 && avrm_av_is_local(av, 5) && !avrm_av_is_local(av, 6));
    CHECK(avrm_av_set(av, 4, 99, 1) == AVRM_OK && avrm_av_addr(av, 4) == 99 &&
          avrm_av_is_local(av, 4));
    CHECK(avrm_av_set(av, 12, 1, 0) == AVRM_ERR_ARG);
    CHECK(avrm_av_set(av, 1, AVRM_AVE_MAX_ADDR + 1, 0) == AVRM_ERR_ARG);
    /* pending words: the lpid and the local bit survive, the sign marks them */
    CHECK(avrm_av_set_pending(av, 5, 1) == AVRM_OK && avrm_ave_is_pending(av->entries[5]) &&
          avrm_ave_pending_lpid(av->entries[5]) == 5 && avrm_av_is_local(av, 5));
    CHECK(avrm_av_set_pending(av, 12, 0) == AVRM_ERR_ARG);
    CHECK(avrm_av_set(av, 5, AVRM_AVE_MAX_ADDR, 1) == AVRM_OK &&
          !avrm_ave_is_pending(av->entries[5]) && avrm_av_addr(av, 5) == AVRM_AVE_MAX_ADDR);
    CHECK(!avrm_ave_is_pending(avrm_ave_make(AVRM_AVE_MAX_ADDR, 1)) &&
          avrm_ave_pending_lpid(avrm_ave_make_pending(AVRM_MAX_WORLD - 1, 1)) == AVRM_MAX_WORLD - 1);
    /* cyclic / range locality */
    ap = (avrm_av_params_t) { .size = 10, .pgid = 2, .computed = 1,
                              .local = { .kind = AVRM_LOCAL_CYCLIC, .nnodes = 3, .node = 1 } };
    CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK && avrm_av_is_local(av, 4) &&
          !avrm_av_is_local(av, 5));
    ap.pgid = 3;
    ap.local = (avrm_locality_t) { .kind = AVRM_LOCAL_RANGE, .first = 4, .count = 2 };
    CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK && avrm_av_is_local(av, 5) &&
          !avrm_av_is_local(av, 6) && !avrm_av_is_local(av, 3));
    ap.pgid = 4;
    ap.local = (avrm_locality_t) { .kind = AVRM_LOCAL_CYCLIC, .nnodes = 0 };
    CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_ERR_ARG);
    /* destroy gives back each AV's entries and struct (the slot arrays
     * stay until avrm_ctx_destroy) */
    avrm_ctx_stats(ctx, &st);
    CHECK(st.av_entry_bytes == 12 * sizeof(avrm_ave_t));
    avrm_av_destroy(ctx, 2);
    avrm_av_destroy(ctx, 3);
    avrm_av_destroy(ctx, 0);
    avrm_av_destroy(ctx, 0);                                  /* no AV there: nothing */
    avrm_ctx_stats(ctx, &st2);
    /* AV 0 is stored: its entries follow a header word (avrm_types.h) */
    CHECK(st2.av_entry_bytes == 0 &&
          st.av_meta_bytes - st2.av_meta_bytes == 3 * sizeof(avrm_av_t) + sizeof(avrm_ave_t));
    avrm_ctx_destroy(ctx);
}

static void test_invalid_input(void)
{
    avrm_ctx_t *ctx = NULL;
    avrm_ctx_create(NULL, &ctx);
    tu_av(ctx, 0, 50);
    tu_av(ctx, 1, 20);
    tmap_t w;
    tu_world(ctx, &w, 0);
    avrm_rankmap_t out, sentinel;
    memset(&sentinel, 0xa5, sizeof(sentinel));
    out = sentinel;
    avrm_stats_t s0, s1;
    avrm_ctx_stats(ctx, &s0);
    int32_t map[4] = { 1, 2, 50, 3 }, neg[2] = { 0, -1 }, ok[2] = { 0, 1 };
    CHECK(avrm_map_build(ctx, &w.m, map, 4, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build(ctx, &w.m, neg, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build(ctx, &w.m, ok, 0, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build(ctx, &w.m, NULL, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build(ctx, NULL, ok, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build(NULL, &w.m, ok, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build(ctx, &w.m, ok, 2, NULL) == AVRM_ERR_ARG);
    const avrm_rankmap_t *pars[2] = { &w.m, &w.m };
    avrm_src_t bad1[2] = { { 0, 1 }, { 2, 0 } }, bad2[2] = { { 0, 1 }, { 1, 50 } };
    CHECK(avrm_map_build_multi(ctx, pars, 2, bad1, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build_multi(ctx, pars, 2, bad2, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build_multi(ctx, pars, 0, bad2, 2, &out) == AVRM_ERR_ARG);
    avrm_gpid_t g1[2] = { { 1, 0, 0 }, { 20, 1, 0 } }, g2[1] = { { 0, 2, 0 } }, g3[1] = { { 0, 9, 0 } };
    CHECK(avrm_map_build_gpids(ctx, g1, 2, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build_gpids(ctx, g2, 1, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build_gpids(ctx, g3, 1, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_build_gpids(ctx, g1, 0, &out) == AVRM_ERR_ARG);
    CHECK(avrm_map_init_group(ctx, 5, &out) == AVRM_ERR_ARG);
    CHECK(memcmp(&out, &sentinel, sizeof(out)) == 0);
    avrm_ctx_stats(ctx, &s1);
    CHECK(tu_stats_eq(&s0, &s1));
    avrm_gpid_t gp;
    CHECK(avrm_map_lpid_checked(ctx, &w.m, 50, &gp) == AVRM_ERR_ARG);
    CHECK(avrm_map_lpid_checked(ctx, &w.m, -1, &gp) == AVRM_ERR_ARG);
    CHECK(avrm_map_lpid_checked(ctx, &w.m, 7, &gp) == AVRM_OK && gp.lpid == 7 && gp.pgid == 0);
    /* release leaves an empty map; releasing it again is harmless */
    tu_release(ctx, &w);
    CHECK(w.m.size == 0 && w.m.mode == AVRM_MODE_DIRECT);
    avrm_map_release(ctx, &w.m);
    avrm_ctx_stats(ctx, &s1);
    CHECK(s1.map_bytes == 0 && s1.nmaps[AVRM_MODE_DIRECT] == 0);
    avrm_ctx_destroy(ctx);
}

/* Call build(k) with the k-th allocation failing, for every k, until it
 * succeeds without any failure: failures must be clean. */
typedef avrm_status_t (*build_fn)(avrm_ctx_t *, tmap_t *, void *);

static void fail_each(avrm_ctx_t *ctx, build_fn fn, void *arg)
{
    for (long k = 0;; k++) {
        avrm_stats_t s0, s1;
        avrm_ctx_stats(ctx, &s0);
        tmap_t t;
        avrm_rankmap_t sentinel;
        memset(&sentinel, 0x5a, sizeof(sentinel));
        t.m = sentinel;
        avrm__alloc_fail_after(k);
        avrm_status_t rc = fn(ctx, &t, arg);
        long used = avrm__alloc_count();
        avrm__alloc_fail_after(-1);
        if (rc == AVRM_ERR_NOMEM) {
            avrm_ctx_stats(ctx, &s1);
            CHECK(memcmp(&t.m, &sentinel, sizeof(sentinel)) == 0);
            CHECK(tu_stats_eq(&s0, &s1));
            free(t.ref);
            continue;
        }
        CHECK(rc == AVRM_OK);
        if (rc == AVRM_OK) {
            CHECK(tu_check(ctx, &t));
            tu_release(ctx, &t);
        }
        if (used <= k) break;   /* no allocation failed: done */
    }
}

struct barg { const tmap_t *par; const int32_t *map; uint32_t n; const avrm_rankmap_t *const *pars;
              const avrm_src_t *src; const tmap_t *tp[2]; };

static avrm_status_t b_single(avrm_ctx_t *ctx, tmap_t *t, void *a)
{
    struct barg *b = a;
    t->n = b->n;
    t->ref = malloc(b->n * sizeof(*t->ref));
    for (uint32_t i = 0; i < b->n; i++) t->ref[i] = b->par->ref[b->map[i]];
    return avrm_map_build(ctx, &b->par->m, b->map, b->n, &t->m);
}

static avrm_status_t b_multi(avrm_ctx_t *ctx, tmap_t *t, void *a)
{
    struct barg *b = a;
    t->n = b->n;
    t->ref = malloc(b->n * sizeof(*t->ref));
    for (uint32_t i = 0; i < b->n; i++) t->ref[i] = b->tp[b->src[i].parent]->ref[b->src[i].rank];
    return avrm_map_build_multi(ctx, b->pars, 2, b->src, b->n, &t->m);
}

static void test_alloc_failures(void)
{
    for (int share = 0; share < 2; share++) {
        avrm_params_t p = avrm_params_default();
        p.share_by_content = (uint8_t) share;
        avrm_ctx_t *ctx = NULL;
        avrm_ctx_t *sentinel = (avrm_ctx_t *) 0x2;
        avrm__alloc_fail_after(0);
        CHECK(avrm_ctx_create(&p, &sentinel) == AVRM_ERR_NOMEM && sentinel == (avrm_ctx_t *) 0x2);
        avrm__alloc_fail_after(-1);
        avrm_ctx_create(&p, &ctx);
        /* AV creation: k = its struct, its entries, the context's slot array */
        for (long k = 0; k < 3; k++) {
            avrm_av_params_t ap = { .size = 100, .pgid = 0 };
            avrm_av_t *av = (avrm_av_t *) 0x3;
            avrm__alloc_fail_after(k);
            CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_ERR_NOMEM && av == (avrm_av_t *) 0x3);
            avrm__alloc_fail_after(-1);
            CHECK(ctx->navs == 0 || ctx->avs[0] == NULL);
        }
        avrm__alloc_fail_after(1000);
        CHECK(tu_av(ctx, 0, 300) != NULL && avrm__alloc_count() == 3);   /* all three failed above */
        avrm__alloc_fail_after(-1);
        tu_av(ctx, 1, 40);
        tmap_t w, w1, lut;
        tu_world(ctx, &w, 0);
        tu_world(ctx, &w1, 1);
        int32_t map[400];
        tu_srand(5);
        uint32_t n = tu_gen(G_PERM, 300, map);
        struct barg b = { .par = &w, .map = map, .n = n };
        fail_each(ctx, b_single, &b);                        /* lut16 */
        CHECK(tu_build(ctx, &w, map, n, &lut));
        fail_each(ctx, b_single, &b);                        /* same content again */
        for (int i = 0; i < 100; i++) map[i] = 50 + i;
        b = (struct barg) { .par = &lut, .map = map, .n = 100 };
        fail_each(ctx, b_single, &b);                        /* slice */
        n = tu_gen(G_DUP, 300, map);
        b = (struct barg) { .par = &lut, .map = map, .n = n };
        fail_each(ctx, b_single, &b);
        const avrm_rankmap_t *pars[2] = { &w.m, &w1.m };
        avrm_src_t src[340];
        for (int v = 0; v < 2; v++) {                        /* join, mlut */
            for (uint32_t i = 0; i < 340; i++)
                src[i] = v ? (avrm_src_t) { i % 2, (int32_t) (i % 40) }
                           : (avrm_src_t) { i >= 300, (int32_t) (i >= 300 ? i - 300 : i) };
            b = (struct barg) { .n = 340, .pars = pars, .src = src, .tp = { &w, &w1 } };
            fail_each(ctx, b_multi, &b);
        }
        tu_release(ctx, &lut);
        tu_release(ctx, &w);
        tu_release(ctx, &w1);
        avrm_stats_t st;
        avrm_ctx_stats(ctx, &st);
        CHECK(st.ntables == 0 && st.map_bytes == 0 && st.index_bytes == 0);
        avrm_ctx_destroy(ctx);
    }
}

/* The computed hot-path classes (avrm_types.h): DIRECT, OFFSET and STRIDE
 * maps (a negative stride too: COMPUTED) and ILUT, LUT16 and LUT maps (CILUT,
 * CLUT16, CLUT; LUT with LUT16 off) over a computed AV whose locality is a
 * RANGE or NONE decode inline; CYCLIC and LIST localities and the other
 * modes stay GENERIC. Every rank of every map against the plain answer (lpid, and the
 * AV's own locality test) and against the mode switch (avrm_map_ave_generic);
 * then the AV becomes stored and the resealed maps take the stored classes. */
static void test_computed_class(void)
{
    enum { N = 24 };
    const avrm_locality_t locs[] = {
        { .kind = AVRM_LOCAL_RANGE, .first = 8, .count = 8 },
        { .kind = AVRM_LOCAL_RANGE, .first = 0, .count = 1 },
        { .kind = AVRM_LOCAL_RANGE, .first = 16, .count = 8 },
        { .kind = AVRM_LOCAL_NONE },
        { .kind = AVRM_LOCAL_CYCLIC, .nnodes = 3, .node = 2 },
    };
    enum { NM = 7 };
    int32_t maps[NM][N], sizes[NM] = { 0, 8, 12, 12, 12, AVRM_CILUT_MAX, AVRM_CILUT_MAX + 1 };
    for (int i = 0; i < N; i++) {
        maps[1][i] = 3 + i;              /* OFFSET */
        maps[2][i] = 2 * i + 1;          /* STRIDE 2 */
        maps[3][i] = 22 - 2 * i;         /* STRIDE -2 */
        maps[4][i] = (i / 3) * 6 + i % 3;   /* BLOCK: GENERIC in every case */
        maps[5][i] = (7 * i + 5) % N;    /* ILUT: CILUT over a computed AV */
        maps[6][i] = (5 * i + 3) % N;    /* one rank too many for CILUT: LUT16 (CLUT16), or
                                          * LUT (CLUT) without LUT16 */
    }
    for (int k2 = 0; k2 < 2 * (int) (sizeof(locs) / sizeof(locs[0])); k2++) {
        size_t k = (size_t) k2 / 2;
        int lut16 = k2 % 2 == 0;
        const avrm_mode_t modes[NM] = { AVRM_MODE_DIRECT, AVRM_MODE_OFFSET, AVRM_MODE_STRIDE,
                                        AVRM_MODE_STRIDE, AVRM_MODE_BLOCK, AVRM_MODE_ILUT,
                                        lut16 ? AVRM_MODE_LUT16 : AVRM_MODE_LUT };
        const int8_t computed_path[NM] = { AVRM_PATH_COMPUTED, AVRM_PATH_COMPUTED,
                                           AVRM_PATH_COMPUTED, AVRM_PATH_COMPUTED,
                                           AVRM_PATH_GENERIC, AVRM_PATH_CILUT,
                                           lut16 ? AVRM_PATH_CLUT16 : AVRM_PATH_CLUT };
        const int8_t stored_path[NM] = { AVRM_PATH_OFFSET, AVRM_PATH_OFFSET, AVRM_PATH_STRIDE,
                                         AVRM_PATH_STRIDE, AVRM_PATH_GENERIC, AVRM_PATH_ILUT,
                                         lut16 ? AVRM_PATH_LUT16 : AVRM_PATH_LUT };
        avrm_params_t p = avrm_params_default();
        p.computed_av = 1;
        p.enable_lut16 = (uint8_t) lut16;
        avrm_ctx_t *ctx = NULL;
        CHECK(avrm_ctx_create(&p, &ctx) == AVRM_OK);
        avrm_av_params_t ap = { .size = N, .pgid = 0, .computed = 1, .local = locs[k] };
        avrm_av_t *av = NULL;
        CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK && av->computed);
        int range = locs[k].kind == AVRM_LOCAL_RANGE || locs[k].kind == AVRM_LOCAL_NONE;
        avrm_rankmap_t m[NM];
        CHECK(avrm_map_init_group(ctx, 0, &m[0]) == AVRM_OK);
        for (int j = 1; j < NM; j++)
            CHECK(avrm_map_build(ctx, &m[0], maps[j], (uint32_t) sizes[j], &m[j]) == AVRM_OK);
        for (int stored = 0; stored < 2; stored++) {
            for (int j = 0; j < NM; j++) {
                CHECK(m[j].mode == modes[j] || (j == 0 && m[j].mode == AVRM_MODE_DIRECT));
                int8_t want = stored ? stored_path[j] : range ? computed_path[j] : AVRM_PATH_GENERIC;
                CHECK(m[j].path == want);
                for (uint32_t r = 0; r < m[j].size; r++) {
                    avrm_lpid_t l = j == 0 ? r : (avrm_lpid_t) maps[j][r];
                    avrm_ave_t want_ent = stored ? avrm_ave_make(1000 + l, avrm_locality_has(&locs[k], l))
                                                 : avrm_ave_make(l, avrm_locality_has(&locs[k], l));
                    avrm_pgid_t g = 9;
                    CHECK(avrm_map_ave(ctx, &m[j], r) == want_ent);
                    CHECK(avrm_map_ave_generic(ctx, &m[j], r) == want_ent);
                    CHECK(avrm_map_addr(ctx, &m[j], r) == avrm_ave_addr(want_ent));
                    CHECK(avrm_map_is_local(ctx, &m[j], r) == avrm_locality_has(&locs[k], l));
                    CHECK(avrm_map_lpid(ctx, &m[j], r, &g) == l && g == 0);
                }
            }
            if (stored) {
                /* resealed maps equal fresh ones byte for byte (the group
                 * compare's memcmp shortcut relies on it) */
                avrm_rankmap_t fresh[3];
                CHECK(avrm_map_init_group(ctx, 0, &fresh[0]) == AVRM_OK);
                for (int j = 1; j < 3; j++)
                    CHECK(avrm_map_build(ctx, &fresh[0], maps[j], (uint32_t) sizes[j], &fresh[j]) == AVRM_OK);
                for (int j = 0; j < 3; j++) {
                    CHECK(memcmp(&fresh[j], &m[j], sizeof(fresh[j])) == 0);
                    avrm_map_release(ctx, &fresh[j]);
                }
                break;
            }
            CHECK(avrm_av_make_stored(ctx, av) == AVRM_OK);
            for (uint32_t l = 0; l < N; l++)
                CHECK(avrm_av_set(av, l, 1000 + l, avrm_locality_has(&locs[k], l)) == AVRM_OK);
            for (int j = 0; j < NM; j++) avrm_map_reseal(ctx, &m[j]);
        }
        for (int j = NM - 1; j >= 0; j--) avrm_map_release(ctx, &m[j]);
        avrm_ctx_destroy(ctx);
    }
}

/* A map built while its AV was computed must not go on decoding address ==
 * lpid once the AV becomes stored: without avrm_map_reseal it does (the bug
 * this test pins), with it every rank gives the stored address and bit. */
static void test_computed_then_stored(void)
{
    avrm_params_t p = avrm_params_default();
    p.computed_av = 1;
    avrm_ctx_t *ctx = NULL;
    CHECK(avrm_ctx_create(&p, &ctx) == AVRM_OK);
    avrm_av_params_t ap = { .size = 16, .pgid = 0, .computed = 1,
                            .local = { .kind = AVRM_LOCAL_RANGE, .first = 4, .count = 4 } };
    avrm_av_t *av = NULL;
    CHECK(avrm_av_create(ctx, &ap, &av) == AVRM_OK && av->computed);
    avrm_av_params_t sp = { .size = 4, .pgid = 1 };        /* a spawned group, stored */
    avrm_av_t *spawned = NULL;
    CHECK(avrm_av_create(ctx, &sp, &spawned) == AVRM_OK);
    for (uint32_t l = 0; l < 4; l++) CHECK(avrm_av_set(spawned, l, 500 + l, 0) == AVRM_OK);
    avrm_rankmap_t world, odd, group1, merged;
    int32_t odds[8];
    for (int i = 0; i < 8; i++) odds[i] = 2 * i + 1;
    CHECK(avrm_map_init_group(ctx, 0, &world) == AVRM_OK);
    CHECK(avrm_map_build(ctx, &world, odds, 8, &odd) == AVRM_OK);
    CHECK(avrm_map_init_group(ctx, 1, &group1) == AVRM_OK);
    const avrm_rankmap_t *pars[2] = { &world, &group1 };
    avrm_src_t src[20];                                      /* spawn + merge */
    for (int32_t i = 0; i < 20; i++) src[i] = i < 16 ? (avrm_src_t) { 0, i } : (avrm_src_t) { 1, i - 16 };
    CHECK(avrm_map_build_multi(ctx, pars, 2, src, 20, &merged) == AVRM_OK);
    CHECK(merged.mode == AVRM_MODE_JOIN && merged.path == AVRM_PATH_GENERIC);
    CHECK(avrm_map_ave(ctx, &merged, 6) == avrm_ave_make(6, 1) &&
          avrm_map_ave(ctx, &merged, 17) == avrm_ave_make(501, 0));
    CHECK(avrm_map_ave(ctx, &world, 5) == avrm_ave_make(5, 1));
    /* interleaved and permuted over both groups: MLUT32, whose class reads
     * every group's entries, so over a computed AV it stays GENERIC */
    avrm_rankmap_t packed;
    avrm_src_t psrc[20];
    for (int32_t i = 0, w = 0; i < 20; i++)
        psrc[i] = i % 5 == 4 ? (avrm_src_t) { 1, i / 5 } : (avrm_src_t) { 0, (w++ * 7) % 16 };
    CHECK(avrm_map_build_multi(ctx, pars, 2, psrc, 20, &packed) == AVRM_OK);
    CHECK(packed.mode == AVRM_MODE_MLUT32 && packed.path == AVRM_PATH_GENERIC);
    for (uint32_t r = 0; r < 20; r++) {
        uint32_t l = (uint32_t) psrc[r].rank;
        CHECK(avrm_map_ave(ctx, &packed, r) == (psrc[r].parent ? avrm_ave_make(500 + l, 0)
                                                              : avrm_ave_make(l, l >= 4 && l < 8)));
    }
    CHECK(avrm_av_make_stored(ctx, av) == AVRM_OK);
    for (uint32_t l = 0; l < 16; l++)   /* irregular addresses arrive */
        CHECK(avrm_av_set(av, l, 1000 + 7 * l, l % 5 == 0) == AVRM_OK);
    CHECK(avrm_map_addr(ctx, &world, 3) == 3);            /* stale: the bug */
    CHECK(avrm_map_addr(ctx, &merged, 3) == 1000 + 7 * 3);   /* JOIN reads its AVs: right */
    avrm_map_reseal(ctx, &world);
    avrm_map_reseal(ctx, &odd);
    avrm_map_reseal(ctx, &merged);
    CHECK(merged.path == AVRM_PATH_JOIN);
    avrm_map_reseal(ctx, &packed);
    CHECK(packed.path == AVRM_PATH_MLUT32);
    for (uint32_t r = 0; r < 20; r++) {
        uint32_t l = (uint32_t) psrc[r].rank;
        avrm_pgid_t g;
        CHECK(avrm_map_ave(ctx, &packed, r) == (psrc[r].parent ? avrm_ave_make(500 + l, 0)
                                                              : avrm_ave_make(1000 + 7 * l, l % 5 == 0)));
        CHECK(avrm_map_lpid(ctx, &packed, r, &g) == l && g == psrc[r].parent);
    }
    avrm_map_release(ctx, &packed);
    for (uint32_t r = 0; r < 20; r++)
        CHECK(avrm_map_ave(ctx, &merged, r) == (r < 16 ? avrm_ave_make(1000 + 7 * r, r % 5 == 0)
                                                         : avrm_ave_make(500 + r - 16, 0)));
    for (uint32_t r = 0; r < 16; r++)
        CHECK(avrm_map_ave(ctx, &world, r) == avrm_ave_make(1000 + 7 * r, r % 5 == 0));
    for (uint32_t r = 0; r < 8; r++) {
        uint32_t l = 2 * r + 1;
        CHECK(avrm_map_addr(ctx, &odd, r) == 1000 + 7 * l);
        CHECK(avrm_map_is_local(ctx, &odd, r) == (l % 5 == 0));
    }
    avrm_map_release(ctx, &merged);
    avrm_map_release(ctx, &group1);
    avrm_map_release(ctx, &odd);
    avrm_map_release(ctx, &world);
    avrm_ctx_destroy(ctx);
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_av_basics);
    RUN(test_computed_class);
    RUN(test_computed_then_stored);
    RUN(test_invalid_input);
    RUN(test_alloc_failures);
    return tu_finish();
}
