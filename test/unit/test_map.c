/*
 * test_map.c - rank maps against reference tables: expected modes for the
 * paper's patterns and ours, every parent mode x every mapping kind (Table
 * II and beyond), chains of builds, multi-parent maps, worlds up to 1M.
 */
#include "tu_gen.h"

static avrm_ctx_t *new_ctx(const avrm_params_t *p, uint32_t w, uint32_t w1)
{
    avrm_ctx_t *ctx = NULL;
    avrm_params_t d = avrm_params_default();
    if (avrm_ctx_create(p ? p : &d, &ctx) != AVRM_OK) return NULL;
    tu_av(ctx, 0, w);
    if (w1) tu_av(ctx, 1, w1);
    return ctx;
}

static int build_expect(avrm_ctx_t *ctx, const tmap_t *par, const int32_t *map, uint32_t n,
                        tmap_t *out, avrm_mode_t mode)
{
    if (!tu_build(ctx, par, map, n, out)) return 0;
    int ok = tu_check(ctx, out);
    if (out->m.mode != mode) {
        fprintf(stderr, "  expected %s got %s\n", avrm_mode_name(mode),
                avrm_mode_name((avrm_mode_t) out->m.mode));
        ok = 0;
    }
    return ok;
}

static void test_modes_regular(void)
{
    avrm_ctx_t *ctx = new_ctx(NULL, 1000, 0);
    tmap_t w, a, b, c, d, e, f;
    int32_t map[1000];
    tu_world(ctx, &w, 0);
    CHECK(w.m.mode == AVRM_MODE_DIRECT && tu_check(ctx, &w));
    for (int i = 0; i < 100; i++) map[i] = 10 + i;
    CHECK(build_expect(ctx, &w, map, 100, &a, AVRM_MODE_OFFSET));
    for (int i = 0; i < 100; i++) map[i] = i;
    CHECK(build_expect(ctx, &w, map, 100, &b, AVRM_MODE_DIRECT));
    tu_release(ctx, &b);
    for (int i = 0; i < 30; i++) map[i] = 3 * i + 1;           /* offset parent o stride */
    CHECK(build_expect(ctx, &a, map, 30, &b, AVRM_MODE_STRIDE));
    for (int i = 0; i < 10; i++) map[i] = 2 + 2 * i;           /* stride o stride */
    CHECK(build_expect(ctx, &b, map, 10, &c, AVRM_MODE_STRIDE));
    CHECK(c.m.u.reg.stride == 6);
    for (int i = 0; i < 5; i++) map[i] = 2 + i;                /* stride o offset */
    CHECK(build_expect(ctx, &c, map, 5, &d, AVRM_MODE_STRIDE));
    tu_release(ctx, &d);
    for (int i = 0; i < 1000; i++) map[i] = 999 - i;           /* reversed */
    CHECK(build_expect(ctx, &w, map, 1000, &d, AVRM_MODE_STRIDE));
    CHECK(d.m.u.reg.stride == -1);
    for (int i = 0; i < 10; i++) map[i] = 2 * i;               /* reversed o stride */
    CHECK(build_expect(ctx, &d, map, 10, &e, AVRM_MODE_STRIDE));
    tu_release(ctx, &e);
    int n = 0;
    for (int q = 0; q < 1000; q++) if (q % 10 < 4) map[n++] = q;   /* blocks 4 of 10 */
    CHECK(build_expect(ctx, &w, map, (uint32_t) n, &e, AVRM_MODE_BLOCK));
    for (int i = 0; i < 40; i++) map[i] = 8 + i;               /* block o block-aligned offset */
    CHECK(build_expect(ctx, &e, map, 40, &f, AVRM_MODE_BLOCK));
    tu_release(ctx, &f);
    for (int i = 0; i < 3; i++) map[i] = 5 + i;                /* inside one block */
    CHECK(build_expect(ctx, &e, map, 3, &f, AVRM_MODE_OFFSET));
    tu_release(ctx, &f);
    for (int i = 0; i < 50; i++) map[i] = 4 * i + 1;           /* block o stride%B==0 */
    CHECK(build_expect(ctx, &e, map, 50, &f, AVRM_MODE_STRIDE));
    tu_release(ctx, &f);
    for (int i = 0; i < 14; i++) map[i] = 4 * (i / 2) + i % 2;   /* stride parent o block */
    CHECK(build_expect(ctx, &b, map, 14, &f, AVRM_MODE_GRID));
    tu_release(ctx, &f);
    for (int i = 0; i < 500; i++) map[i] = i < 250 ? 500 + i : i - 250;   /* half swap */
    CHECK(build_expect(ctx, &w, map, 500, &f, AVRM_MODE_BLOCK));
    tu_release(ctx, &f);
    tmap_t *all[] = { &a, &b, &c, &d, &e, &w };
    for (unsigned i = 0; i < 6; i++) tu_release(ctx, all[i]);
    avrm_stats_t st;
    avrm_ctx_stats(ctx, &st);
    CHECK(st.map_bytes == 0 && st.table_bytes == 0 && st.ntables == 0);
    avrm_ctx_destroy(ctx);
}

static void test_modes_except_grid(void)
{
    avrm_ctx_t *ctx = new_ctx(NULL, 16, 0);
    tmap_t w, a, b;
    int32_t map[4096] = { 1, 4, 8, 12 };                       /* paper Fig. 1 node roots */
    tu_world(ctx, &w, 0);
    CHECK(build_expect(ctx, &w, map, 4, &a, AVRM_MODE_EXCEPT));
    CHECK(a.m.u.exc.nex == 1 && a.m.u.exc.ex_rank[0] == 0 && a.m.u.exc.ex_rank[1] == UINT32_MAX);
    int32_t two[] = { 3, 2, 4, 6, 8, 10, 1 };                  /* two exceptions */
    CHECK(build_expect(ctx, &w, two, 7, &b, AVRM_MODE_EXCEPT));
    tu_release(ctx, &a);
    tu_release(ctx, &b);
    tu_release(ctx, &w);
    avrm_ctx_destroy(ctx);

    ctx = new_ctx(NULL, 512, 0);                               /* 8x8x8 */
    tu_world(ctx, &w, 0);
    uint32_t dims[3] = { 8, 8, 8 }, lo[3] = { 1, 2, 3 }, ext[3] = { 2, 3, 4 }, st[3] = { 1, 1, 1 };
    uint32_t n = tu_subgrid(map, 3, dims, lo, ext, st);
    CHECK(build_expect(ctx, &w, map, n, &a, AVRM_MODE_GRID));
    CHECK(a.m.u.grid.ndims == 3);
    uint32_t st2[3] = { 2, 1, 2 }, ext2[3] = { 3, 2, 2 };      /* stepped sub-block */
    n = tu_subgrid(map, 3, dims, lo, ext2, st2);
    CHECK(build_expect(ctx, &w, map, n, &b, AVRM_MODE_GRID));
    tu_release(ctx, &b);
    uint32_t ext3[3] = { 1, 3, 4 };                            /* cart_sub plane: a block */
    n = tu_subgrid(map, 3, dims, lo, ext3, st);
    CHECK(build_expect(ctx, &w, map, n, &b, AVRM_MODE_BLOCK));
    tu_release(ctx, &b);
    tu_release(ctx, &a);
    tu_release(ctx, &w);
    avrm_ctx_destroy(ctx);

    ctx = new_ctx(NULL, 1296, 0);                              /* 6x6x6x6 */
    tu_world(ctx, &w, 0);
    uint32_t d4[4] = { 6, 6, 6, 6 }, l4[4] = { 1, 0, 2, 1 }, e4[4] = { 2, 3, 2, 3 },
             s4[4] = { 1, 1, 2, 1 };
    n = tu_subgrid(map, 4, d4, l4, e4, s4);
    CHECK(build_expect(ctx, &w, map, n, &a, AVRM_MODE_GRID));
    CHECK(a.m.u.grid.ndims == 4);
    tu_release(ctx, &a);
    avrm_stats_t sts;
    avrm_ctx_stats(ctx, &sts);
    CHECK(sts.ntables == 0);
    tu_release(ctx, &w);
    /* the world grids were registered with the world AV */
    CHECK(ctx->ngrids == 3 && ctx->grids[1].ndims == 3);
    CHECK(avrm_ctx_add_grid(ctx, 2, (uint32_t[]) { 36, 36 }) == AVRM_OK);
    CHECK(avrm_ctx_add_grid(ctx, 2, (uint32_t[]) { 36, 35 }) == AVRM_ERR_ARG);
    avrm_ctx_destroy(ctx);
}

static void test_modes_tables(void)
{
    avrm_params_t p = avrm_params_default();
    for (int lut16 = 1; lut16 >= 0; lut16--) {
        p.enable_lut16 = (uint8_t) lut16;
        avrm_ctx_t *ctx = new_ctx(&p, 720, 0);
        tmap_t w, a, b, c, d;
        int32_t map[720];
        avrm_stats_t s0, s1;
        tu_world(ctx, &w, 0);
        tu_srand(7);
        uint32_t n = tu_gen(G_PERM, 720, map);
        avrm_mode_t lm = lut16 ? AVRM_MODE_LUT16 : AVRM_MODE_LUT;
        CHECK(build_expect(ctx, &w, map, n, &a, lm));
        avrm_ctx_stats(ctx, &s0);
        CHECK(s0.ntables == 1 && s0.table_shared_bytes == 0);
        CHECK(build_expect(ctx, &w, map, n, &b, lm));          /* same content: shared */
        avrm_ctx_stats(ctx, &s1);
        int sh = 0;
        size_t tb = avrm_map_table_bytes(&b.m, &sh);
        CHECK(s1.ntables == 1 && sh && s1.table_shared_bytes == tb && s1.index_bytes > 0);
        for (int i = 0; i < 100; i++) map[i] = 300 + i;       /* lut o offset: slice */
        CHECK(build_expect(ctx, &a, map, 100, &c, lm));
        CHECK(c.m.u.lut.tbl == a.m.u.lut.tbl);
        avrm_ctx_stats(ctx, &s1);
        CHECK(s1.ntables == 1 && s1.table_shared_bytes == tb + avrm_map_table_bytes(&c.m, NULL));
        avrm_map_dup(ctx, &c.m, &d.m);
        d.n = c.n;
        d.ref = malloc(c.n * sizeof(*d.ref));
        memcpy(d.ref, c.ref, c.n * sizeof(*d.ref));
        CHECK(tu_check(ctx, &d));
        tu_release(ctx, &a);
        tu_release(ctx, &b);
        CHECK(tu_check(ctx, &c) && tu_check(ctx, &d));
        tu_release(ctx, &c);
        tu_release(ctx, &d);
        tu_release(ctx, &w);
        avrm_ctx_stats(ctx, &s1);
        CHECK(s1.ntables == 0 && s1.table_bytes == 0 && s1.table_shared_bytes == 0 &&
              s1.index_bytes == 0 && s1.map_bytes == 0);
        avrm_ctx_destroy(ctx);
    }
}

static void test_multi(void)
{
    avrm_ctx_t *ctx = new_ctx(NULL, 100, 60);
    tmap_t w0, w1, m, s, t;
    tu_world(ctx, &w0, 0);
    tu_world(ctx, &w1, 1);
    const avrm_rankmap_t *pars[2] = { &w0.m, &w1.m };
    avrm_src_t src[160];
    avrm_gpid_t ref[160];
    /* concatenation (intercomm merge): JOIN, no table */
    for (uint32_t i = 0; i < 160; i++) {
        src[i] = i < 100 ? (avrm_src_t) { 0, (int32_t) i } : (avrm_src_t) { 1, (int32_t) (i - 100) };
        ref[i] = (avrm_gpid_t) { .lpid = i < 100 ? i : i - 100, .pgid = i < 100 ? 0 : 1 };
    }
    m.n = 160;
    m.ref = ref;
    CHECK(avrm_map_build_multi(ctx, pars, 2, src, 160, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_JOIN && m.m.path == AVRM_PATH_JOIN && tu_check(ctx, &m));
    CHECK(avrm_map_table_bytes(&m.m, NULL) == 0);
    /* child of the merged map: second half of world then all of group 1 */
    int32_t map[160];
    for (int i = 0; i < 110; i++) map[i] = 50 + i;
    CHECK(tu_build(ctx, &m, map, 110, &s) && s.m.mode == AVRM_MODE_JOIN && tu_check(ctx, &s));
    tu_release(ctx, &s);
    for (int i = 0; i < 50; i++) map[i] = 100 + i;             /* only group 1 */
    CHECK(tu_build(ctx, &m, map, 50, &s) && s.m.mode == AVRM_MODE_DIRECT && s.m.pgid == 1 &&
          tu_check(ctx, &s));
    tu_release(ctx, &s);
    avrm_map_release(ctx, &m.m);
    /* three offset runs (world split around group 1): MSEG without lut */
    for (uint32_t i = 0; i < 160; i++) {
        uint32_t g = i >= 50 && i < 110, r = i < 50 ? i : g ? i - 50 : i - 60;
        src[i] = (avrm_src_t) { g, (int32_t) r };
        ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
    }
    /* (a group's map; a communicator's takes MLUT32: MSEG's lookup is the
     * generic class's, too slow for a send path) */
    CHECK(avrm_map_build_multi_compact(ctx, pars, 2, src, 160, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MSEG && m.m.u.mseg.lut == NULL && m.m.u.mseg.nsegs == 3);
    CHECK(m.m.path == AVRM_PATH_GENERIC && tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    CHECK(avrm_map_build_multi(ctx, pars, 2, src, 160, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MLUT32 && m.m.path == AVRM_PATH_MLUT32 && tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    /* interleaved and permuted: MLUT, and a slice of it */
    tu_srand(11);
    for (uint32_t i = 0; i < 160; i++) {
        uint32_t g = i % 2 ? 1 : 0, r = i / 2 % (g ? 60 : 100);
        if (i > 120) { g = 0; r = tu_below(100); }
        src[i] = (avrm_src_t) { g, (int32_t) r };
        ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
    }
    CHECK(avrm_map_build_multi(ctx, pars, 2, src, 160, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MLUT32 && m.m.path == AVRM_PATH_MLUT32 && tu_check(ctx, &m));
    for (int i = 0; i < 60; i++) map[i] = 10 + i;
    CHECK(tu_build(ctx, &m, map, 60, &s) && s.m.mode == AVRM_MODE_MLUT32 &&
          s.m.path == AVRM_PATH_MLUT32 &&
          s.m.u.lut.tbl == m.m.u.lut.tbl && tu_check(ctx, &s));
    for (int i = 0; i < 30; i++) map[i] = 130 + i;             /* slice inside one group */
    CHECK(tu_build(ctx, &m, map, 30, &t) && t.m.mode == AVRM_MODE_LUT16 && tu_check(ctx, &t));
    CHECK(t.m.path == AVRM_PATH_LUT16);
    tu_release(ctx, &s);
    tu_release(ctx, &t);
    avrm_map_release(ctx, &m.m);
    /* gpids: a regular remote group */
    for (uint32_t i = 0; i < 30; i++) ref[i] = (avrm_gpid_t) { .lpid = 2 * i + 1, .pgid = 1 };
    CHECK(avrm_map_build_gpids(ctx, ref, 30, &m.m) == AVRM_OK && m.m.mode == AVRM_MODE_STRIDE);
    m.n = 30;
    CHECK(tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    /* multi with runs of reordered lpids: MLUT32 (4 B/rank) beats MSEG with
     * lut (4 B/rank + segments) whenever pgids fit a byte */
    for (uint32_t i = 0; i < 160; i++) {
        uint32_t g = i < 100 ? 0 : 1, r = g ? (i - 100) * 7 % 60 : (i * 13) % 100;
        src[i] = (avrm_src_t) { g, (int32_t) r };
        ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
    }
    m.n = 160;
    CHECK(avrm_map_build_multi(ctx, pars, 2, src, 160, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MLUT32 && tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    tu_release(ctx, &w0);
    tu_release(ctx, &w1);
    avrm_stats_t st;
    avrm_ctx_stats(ctx, &st);
    CHECK(st.ntables == 0 && st.map_bytes == 0 && st.table_shared_bytes == 0);
    avrm_ctx_destroy(ctx);
}

/* One parent of each mode over a world of w (pg 1 of size w1 for the
 * multi-group ones); returns how many were made. */
static int make_parents(avrm_ctx_t *ctx, uint32_t w, tmap_t *p)
{
    int k = 0;
    int32_t *map = malloc((size_t) 2 * w * sizeof(int32_t));
    tu_world(ctx, &p[k++], 0);                                  /* direct */
    uint32_t n;
    for (n = 0; n < w - 7; n++) map[n] = (int32_t) (n + 5);
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* offset */
    for (n = 0; 3 * n + 2 < w; n++) map[n] = (int32_t) (3 * n + 2);
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* stride */
    for (n = 0; n < w; n++) map[n] = (int32_t) (w - 1 - n);
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* negative stride */
    n = 0;
    for (uint32_t q = 1; q < w; q++) if ((q - 1) % 6 < 4) map[n++] = (int32_t) q;
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* block */
    for (n = 0; 4 * n < w; n++) map[n] = (int32_t) (4 * n);
    map[0] = 1;
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* except */
    uint32_t dims[3], lo[3] = { 0, 1, 1 }, ext[3], st[3] = { 1, 1, 1 };
    tu_dims(w, 3, dims);
    for (int d = 0; d < 3; d++) ext[d] = dims[d] > 2 ? dims[d] - 1 - (d > 0) : 1;
    n = tu_subgrid(map, 3, dims, lo, ext, st);
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* grid */
    n = tu_gen(G_PERM, w, map);
    k += tu_build(ctx, &p[0], map, n, &p[k]);                   /* lut16 / lut */
    /* multi: world + group 1 interleaved (mlut) and concatenated (join) */
    const avrm_rankmap_t *pars[2] = { &p[0].m, NULL };
    tmap_t g1;
    tu_world(ctx, &g1, 1);
    pars[1] = &g1.m;
    avrm_src_t *src = malloc((size_t) (w + g1.n) * sizeof(*src));
    for (int variant = 0; variant < 2; variant++) {
        tmap_t *t = &p[k];
        t->n = w + g1.n;
        t->ref = malloc(t->n * sizeof(*t->ref));
        for (uint32_t i = 0; i < t->n; i++) {
            uint32_t g, r;
            if (variant == 0) { g = tu_below(2); r = tu_below(g ? g1.n : w); }
            else { g = i >= w; r = g ? i - w : (i * 7 + 3) % w; }
            src[i] = (avrm_src_t) { g, (int32_t) r };
            t->ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
        }
        if (avrm_map_build_multi(ctx, pars, 2, src, t->n, &t->m) == AVRM_OK) k++;
        else free(t->ref);
    }
    free(src);
    tu_release(ctx, &g1);
    free(map);
    return k;
}

/* Every parent mode x every mapping kind, then two more generations. */
/* More than 256 groups: MLUT32 cannot pack the pgid, the 8-byte MLUT serves. */
/* The compact builders (MPI groups): the world minus k ranks is MSEG with
 * k + 1 segments at most, not a table, whatever the world's size; a regular
 * result stays regular, a small one ILUT, a random one a table; and the
 * plain builder keeps the table (its hot path). */
static void test_compact(void)
{
    static const uint32_t sizes[] = { 1000, 70000 };   /* k + 1 segments < a table */
    for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
        uint32_t W = sizes[z];
        avrm_ctx_t *ctx = new_ctx(NULL, W, 0);
        tmap_t w, g, c;
        int32_t *map = malloc(sizeof(int32_t) * W);
        tu_world(ctx, &w, 0);
        tu_srand(31 + z);
        for (uint32_t k = 1; k <= 5; k++) {
            uint32_t n = 0;
            for (uint32_t q = 0; q < W; q++)
                if (q % (W / k) != W / (2 * k)) map[n++] = (int32_t) q;     /* k holes */
            CHECK(tu_build_ex(ctx, &w, map, n, 1, &g) && tu_check(ctx, &g));
            /* MSEG, or a regular mode when the holes are regular (one hole:
             * BLOCK, two runs of a stride; a hole every W/k ranks: GRID) */
            CHECK(g.m.mode == AVRM_MODE_MSEG || g.m.mode == AVRM_MODE_BLOCK ||
                  g.m.mode == AVRM_MODE_GRID);
            CHECK(g.m.mode != AVRM_MODE_MSEG || (g.m.u.mseg.lut == NULL && g.m.u.mseg.nsegs <= k + 1));
            CHECK(avrm_map_table_bytes(&g.m, NULL) <= (k + 1) * sizeof(avrm_seg_t));
            CHECK(!avrm_map_find_needs_index(&g.m));
            /* translations into it (its runs as the target when at most 4) and out of it */
            CHECK(tu_translate_mismatches(ctx, &w, &g) == 0 && tu_translate_mismatches(ctx, &g, &w) == 0 &&
                  tu_translate_mismatches(ctx, &g, &g) == 0);
            CHECK(tu_build(ctx, &w, map, n, &c) && tu_check(ctx, &c));        /* a comm: table */
            CHECK(tu_translate_mismatches(ctx, &c, &g) == 0);
            CHECK(c.m.mode != AVRM_MODE_MSEG);     /* the plain builder keeps its hot path */
            tu_release(ctx, &c);
            tu_release(ctx, &g);
        }
        uint32_t n = tu_gen(G_STRIDE, W, map);
        CHECK(tu_build_ex(ctx, &w, map, n, 1, &g) && tu_check(ctx, &g));
        CHECK(g.m.mode == AVRM_MODE_STRIDE || g.m.mode == AVRM_MODE_OFFSET || g.m.mode == AVRM_MODE_DIRECT);
        tu_release(ctx, &g);
        n = tu_gen(G_PERM, W, map);
        CHECK(tu_build_ex(ctx, &w, map, n, 1, &g) && tu_check(ctx, &g));
        CHECK(g.m.mode == AVRM_MODE_LUT16 || g.m.mode == AVRM_MODE_LUT);
        tu_release(ctx, &g);
        /* 3 runs out of lpid order, one process twice (the first run's rank
         * wins): an MSEG target whose runs are not sorted by lpid */
        n = 0;
        for (uint32_t q = 0; q < 300; q++) map[n++] = (int32_t) (W / 2 + q);
        for (uint32_t q = 0; q < 200; q++) map[n++] = (int32_t) q;
        for (uint32_t q = 0; q < 250; q++) map[n++] = (int32_t) (W / 2 + 150 + q);
        CHECK(tu_build_ex(ctx, &w, map, n, 1, &g) && tu_check(ctx, &g) && g.m.mode == AVRM_MODE_MSEG);
        CHECK(tu_translate_mismatches(ctx, &w, &g) == 0 && tu_translate_mismatches(ctx, &g, &g) == 0);
        tu_release(ctx, &g);
        static const int32_t few[10] = { 0, 1, 2, 3, 4, 12, 13, 20, 21, 22 };   /* 3 runs */
        memcpy(map, few, sizeof(few));
        CHECK(tu_build_ex(ctx, &w, map, 10, 1, &g) && tu_check(ctx, &g) && g.m.mode == AVRM_MODE_ILUT);
        tu_release(ctx, &g);
        tu_release(ctx, &w);
        avrm_stats_t st;
        avrm_ctx_stats(ctx, &st);
        CHECK(st.table_bytes == 0 && st.map_bytes == 0);
        free(map);
        avrm_ctx_destroy(ctx);
    }
}

static void test_mlut_wide(void)
{
    enum { NG = 300, GS = 3, N = 2 * NG };
    avrm_ctx_t *ctx = new_ctx(NULL, GS, 0);
    static tmap_t w[NG];
    const avrm_rankmap_t *pars[NG];
    avrm_src_t src[N];
    avrm_gpid_t ref[N];
    for (uint32_t g = 0; g < NG; g++) {
        if (g) tu_av(ctx, (avrm_pgid_t) g, GS);
        tu_world(ctx, &w[g], (avrm_pgid_t) g);
        pars[g] = &w[g].m;
    }
    tu_srand(5);
    for (uint32_t i = 0; i < N; i++) {                 /* irregular mix of all groups */
        uint32_t g = tu_below(NG), r = tu_below(GS);
        src[i] = (avrm_src_t) { g, (int32_t) r };
        ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
    }
    tmap_t m = { .n = N, .ref = ref };
    CHECK(avrm_map_build_multi(ctx, pars, NG, src, N, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MLUT && tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    /* two runs of reordered lpids (groups 0 and 299): a group's map, MSEG with lut wins */
    for (uint32_t i = 0; i < N; i++) {
        uint32_t g = i < N / 2 ? 0 : NG - 1, r = (i * 7) % GS;
        src[i] = (avrm_src_t) { g, (int32_t) r };
        ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
    }
    CHECK(avrm_map_build_multi_compact(ctx, pars, NG, src, N, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MSEG && m.m.u.mseg.lut != NULL && tu_check(ctx, &m));
    CHECK(m.m.path == AVRM_PATH_GENERIC);
    avrm_map_release(ctx, &m.m);
    /* as a communicator's map: MLUT (a pgid beyond 255), never MSEG */
    CHECK(avrm_map_build_multi(ctx, pars, NG, src, N, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MLUT && tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    /* groups 0 and 1 only, in a context with 300 groups: still MLUT32 */
    for (uint32_t i = 0; i < N; i++) {
        uint32_t g = tu_below(2), r = tu_below(GS);
        src[i] = (avrm_src_t) { g, (int32_t) r };
        ref[i] = (avrm_gpid_t) { .lpid = r, .pgid = (avrm_pgid_t) g };
    }
    CHECK(avrm_map_build_multi(ctx, pars, NG, src, N, &m.m) == AVRM_OK);
    CHECK(m.m.mode == AVRM_MODE_MLUT32 && m.m.path == AVRM_PATH_MLUT32 && tu_check(ctx, &m));
    avrm_map_release(ctx, &m.m);
    for (uint32_t g = 0; g < NG; g++) tu_release(ctx, &w[g]);
    avrm_ctx_destroy(ctx);
}

static void test_table2_matrix(void)
{
    avrm_params_t prm[3] = { avrm_params_default(), avrm_params_default(), { 0 } };
    prm[1].enable_lut16 = 0;
    prm[1].enable_mseg = 0;
    prm[1].share_by_content = 0;
    uint32_t sizes[] = { 720, 70000 };
    for (int pi = 0; pi < 3; pi++)
        for (int si = 0; si < 2; si++) {
            uint32_t w = sizes[si];
            avrm_ctx_t *ctx = new_ctx(&prm[pi], w, 97);
            avrm_stats_t base;
            avrm_ctx_stats(ctx, &base);
            tmap_t par[16];
            int np = make_parents(ctx, w, par);
            CHECK(np == 10);
            int32_t *map = malloc((size_t) 2 * (w + 97) * sizeof(int32_t));
            int seen[AVRM_MODE_COUNT] = { 0 };
            for (int i = 0; i < np; i++) {
                seen[par[i].m.mode] = 1;
                CHECK(tu_check(ctx, &par[i]));
                for (int g = 0; g < G_COUNT; g++) {
                    tu_srand((unsigned long) (pi * 1000 + si * 100 + i * 20 + g));
                    tmap_t c1, c2, c3;
                    uint32_t n = tu_gen(g, par[i].n, map);
                    if (!tu_build(ctx, &par[i], map, n, &c1)) { CHECK(0); continue; }
                    seen[c1.m.mode] = 1;
                    if (!tu_check(ctx, &c1)) {
                        CHECK(0);
                        fprintf(stderr, "  parent %s x %s\n",
                                avrm_mode_name((avrm_mode_t) par[i].m.mode), tu_gen_names[g]);
                    }
                    n = tu_gen((int) tu_below(G_COUNT), c1.n, map);
                    CHECK(tu_build(ctx, &c1, map, n, &c2) && tu_check(ctx, &c2));
                    n = tu_gen((int) tu_below(G_COUNT), c2.n, map);
                    CHECK(tu_build(ctx, &c2, map, n, &c3) && tu_check(ctx, &c3));
                    seen[c2.m.mode] = seen[c3.m.mode] = 1;
                    tu_release(ctx, &c2);
                    tu_release(ctx, &c1);
                    tu_release(ctx, &c3);
                }
            }
            if (pi == 0)
                for (int md = AVRM_MODE_DIRECT; md < AVRM_MODE_COUNT; md++)
                    if (md != (si ? AVRM_MODE_LUT16 : AVRM_MODE_LUT) && md != AVRM_MODE_MLUT &&
                        md != AVRM_MODE_MSEG && md != AVRM_MODE_JOIN &&
                        /* multi-group: MLUT32 here, MSEG and JOIN in test_multi */
                        !seen[md]) {
                        fprintf(stderr, "  mode %s never produced (size %u)\n",
                                avrm_mode_name((avrm_mode_t) md), w);
                        CHECK(0);
                    }
            for (int i = np; i-- > 0;) tu_release(ctx, &par[i]);
            avrm_stats_t end;
            avrm_ctx_stats(ctx, &end);
            CHECK(tu_stats_eq(&base, &end));
            free(map);
            avrm_ctx_destroy(ctx);
        }
}

static void test_world_1m(void)
{
    const uint32_t W = 1u << 20;
    avrm_ctx_t *ctx = new_ctx(NULL, W, 0);
    tmap_t w, c;
    int32_t *map = malloc(W * sizeof(int32_t));
    tu_world(ctx, &w, 0);
    uint32_t n;
    for (n = 0; n < W / 2; n++) map[n] = (int32_t) (W / 2 + n);
    CHECK(build_expect(ctx, &w, map, n, &c, AVRM_MODE_OFFSET));
    tu_release(ctx, &c);
    for (n = 0; n < W / 16; n++) map[n] = (int32_t) (16 * n + 3);
    CHECK(build_expect(ctx, &w, map, n, &c, AVRM_MODE_STRIDE));
    tu_release(ctx, &c);
    n = 0;
    for (uint32_t q = 0; q < W; q++) if (q % 64 < 48) map[n++] = (int32_t) q;
    CHECK(build_expect(ctx, &w, map, n, &c, AVRM_MODE_BLOCK));
    tu_release(ctx, &c);
    uint32_t dims[3], lo[3] = { 3, 5, 7 }, ext[3] = { 50, 60, 40 }, st[3] = { 1, 1, 1 };
    tu_dims(W, 3, dims);
    n = tu_subgrid(map, 3, dims, lo, ext, st);
    CHECK(build_expect(ctx, &w, map, n, &c, AVRM_MODE_GRID));
    tu_release(ctx, &c);
    tu_srand(1);
    n = tu_gen(G_PERM, W, map);
    CHECK(build_expect(ctx, &w, map, n, &c, AVRM_MODE_LUT));
    tmap_t d;
    for (n = 0; n < W / 2; n++) map[n] = (int32_t) (W / 4 + n);
    CHECK(build_expect(ctx, &c, map, n, &d, AVRM_MODE_LUT));
    tu_release(ctx, &d);
    tu_release(ctx, &c);
    tu_release(ctx, &w);
    free(map);
    avrm_ctx_destroy(ctx);
}

/* The checker must be able to fail: a corrupted map is detected. */
static void test_checker_detects_corruption(void)
{
    avrm_ctx_t *ctx = new_ctx(NULL, 100, 0);
    tmap_t w, c;
    int32_t map[50];
    tu_world(ctx, &w, 0);
    for (int i = 0; i < 50; i++) map[i] = 2 * i;
    CHECK(tu_build(ctx, &w, map, 50, &c) && c.m.mode == AVRM_MODE_STRIDE);
    c.m.u.reg.stride = 3;                                      /* corrupt */
    CHECK(tu_mismatches(ctx, &c.m, c.ref, c.n) > 0);
    c.m.u.reg.stride = 2;
    c.ref[49].lpid = 1;                                        /* corrupt the reference */
    CHECK(tu_mismatches(ctx, &c.m, c.ref, c.n) == 1);
    tu_release(ctx, &c);
    tu_release(ctx, &w);
    avrm_ctx_destroy(ctx);
}

static int cmp_u64_asc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

/* The reference of avrm_map_same_members: the sorted process keys. */
static int same_set_ref(const tmap_t *a, const tmap_t *b)
{
    if (a->n != b->n) return 0;
    uint64_t *ka = malloc((a->n + 1) * sizeof(*ka)), *kb = malloc((b->n + 1) * sizeof(*kb));
    for (uint32_t r = 0; r < a->n; r++) {
        ka[r] = (uint64_t) a->ref[r].pgid << 32 | a->ref[r].lpid;
        kb[r] = (uint64_t) b->ref[r].pgid << 32 | b->ref[r].lpid;
    }
    qsort(ka, a->n, sizeof(*ka), cmp_u64_asc);
    qsort(kb, b->n, sizeof(*kb), cmp_u64_asc);
    int same = memcmp(ka, kb, a->n * sizeof(*ka)) == 0;
    free(ka);
    free(kb);
    return same;
}

/* MPI_Group_compare's set test: every generated group (no repeats) and
 * its reverse, against every other, over worlds of 1000 and 70000; answers
 * are the reference's, and decided (not -1) whenever both maps are
 * progressions (DIRECT, OFFSET, STRIDE). */
/* avrm_map_formula and avrm_map_build_formula: a regular map rebuilt from
 * its four words holds the ranks of the mapping it was built from (the
 * reference table), in the same mode and bytes; tables have no formula;
 * formulas that name a process twice or leave the AV are refused */
static void test_formula(void)
{
    avrm_ctx_t *ctx = new_ctx(NULL, 1000, 0);
    tmap_t w, c;
    int32_t map[1000];
    avrm_formula_t f;
    avrm_pgid_t g;
    tu_world(ctx, &w, 0);
    tu_srand(91);
    uint32_t regular = 0;
    for (int t = 0; t < 2000; t++) {
        /* blocks of bs ranks, block starts stride apart (either sign) */
        uint32_t bs = 1 + tu_below(t % 3 ? 4 : 12);
        int64_t stride = t % 4 ? (int64_t) bs + tu_below(9) : 1 + (int64_t) tu_below(bs + 2);
        if (tu_below(3) == 0) stride = -stride;
        uint32_t nblk = 1 + tu_below(40), n = 0;
        int64_t first = stride < 0 ? 999 - (bs - 1) : tu_below(50);
        for (uint32_t b = 0; b < nblk; b++)
            for (uint32_t i = 0; i < bs; i++) {
                int64_t l = first + (int64_t) b * stride + i;
                if (l < 0 || l >= 1000) goto built;
                map[n++] = (int32_t) l;
            }
      built:
        if (n == 0) continue;
        CHECK(tu_build(ctx, &w, map, n, &c));
        if (avrm_map_formula(&c.m, &f)) {
            tmap_t r = { .ref = c.ref, .n = c.n };
            regular++;
            CHECK(f.size == n);
            CHECK(avrm_map_build_formula(ctx, 0, &f, &r.m) == AVRM_OK);
            CHECK(tu_check(ctx, &r));
            CHECK(r.m.mode == c.m.mode && memcmp(&r.m, &c.m, sizeof(r.m)) == 0);
            avrm_map_release(ctx, &r.m);
        } else {
            CHECK(c.m.mode >= AVRM_MODE_EXCEPT);
        }
        tu_release(ctx, &c);
    }
    CHECK(regular > 1000);
    /* the whole world, and a table */
    CHECK(avrm_map_formula(&w.m, &f) && f.offset == 0 && f.stride == 1 && f.size == 1000);
    for (int i = 0; i < 100; i++) map[i] = (i * 37) % 100;
    CHECK(tu_build(ctx, &w, map, 100, &c));
    CHECK(!avrm_map_formula(&c.m, &f));
    tu_release(ctx, &c);
    /* refused */
    avrm_rankmap_t bad;
    const avrm_formula_t refused[] = {
        { 0, 1, 1, 0 }, { 0, 1, 0, 10 }, { -1, 1, 1, 10 }, { 995, 1, 1, 10 },
        { 0, 1, 1, 1001 }, { 900, -100, 1, 11 }, { 0, 0, 1, 2 }, { 0, 8, 4, 10 + 1000 },
        { 1, -2, 2, 3 },
    };
    for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
        CHECK(avrm_map_build_formula(ctx, 0, &refused[k], &bad) == AVRM_ERR_ARG);
    f = (avrm_formula_t) { 0, 1, 1, 10 };
    CHECK(avrm_map_build_formula(ctx, 1, &f, &bad) == AVRM_ERR_ARG);
    f.size = AVRM_MAX_WORLD + 1;
    CHECK(avrm_map_build_formula(ctx, 0, &f, &bad) == AVRM_ERR_LIMIT);
    /* blocks that overlap where the last is short (a group made by
     * MPI_Comm_create_group: world ranks 2 3 1) */
    f = (avrm_formula_t) { 2, -1, 2, 3 };
    CHECK(avrm_map_build_formula(ctx, 0, &f, &bad) == AVRM_OK &&
          avrm_map_lpid(ctx, &bad, 0, &g) == 2 && avrm_map_lpid(ctx, &bad, 1, &g) == 3 &&
          avrm_map_lpid(ctx, &bad, 2, &g) == 1);
    avrm_map_release(ctx, &bad);
    /* a short last block: ranks 0..9 in blocks of 4, 8 apart, end at
     * lpid first + 17 (not first + 19) */
    f = (avrm_formula_t) { 982, 8, 4, 10 };
    CHECK(avrm_map_build_formula(ctx, 0, &f, &bad) == AVRM_OK && bad.mode == AVRM_MODE_BLOCK &&
          avrm_map_lpid(ctx, &bad, 9, &g) == 999);
    avrm_map_release(ctx, &bad);
    f.offset = 983;
    CHECK(avrm_map_build_formula(ctx, 0, &f, &bad) == AVRM_ERR_ARG);
    tu_release(ctx, &w);
    avrm_ctx_destroy(ctx);
}

static void test_same_members(void)
{
    static const uint32_t sizes[] = { 1000, 70000 };
    for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
        uint32_t W = sizes[z];
        avrm_ctx_t *ctx = new_ctx(NULL, W, W);
        tmap_t w, w1, maps[2 * G_COUNT];
        int32_t *map = malloc(sizeof(int32_t) * W), tmp;
        uint32_t nm = 0, decided = 0, pairs = 0;
        tu_world(ctx, &w, 0);
        tu_world(ctx, &w1, 1);
        tu_srand(71 + z);
        for (int k = 0; k < G_COUNT; k++) {
            if (k == G_DUP || k == G_FEW) continue;     /* may repeat a process */
            uint32_t n = tu_gen(k, W, map);
            CHECK(tu_build_ex(ctx, &w, map, n, 1, &maps[nm]) && tu_check(ctx, &maps[nm]));
            nm++;
            for (uint32_t i = 0; i < n / 2; i++) {
                tmp = map[i];
                map[i] = map[n - 1 - i];
                map[n - 1 - i] = tmp;
            }
            CHECK(tu_build_ex(ctx, &w, map, n, 1, &maps[nm]) && tu_check(ctx, &maps[nm]));
            nm++;
        }
        for (uint32_t i = 0; i < nm; i++)
            for (uint32_t j = 0; j < nm; j++) {
                int got = avrm_map_same_members(ctx, &maps[i].m, &maps[j].m);
                int want = same_set_ref(&maps[i], &maps[j]);
                if (got != want && got != -1)
                    fprintf(stderr, "  same_members %s vs %s: %d, want %d\n",
                            avrm_mode_name((avrm_mode_t) maps[i].m.mode),
                            avrm_mode_name((avrm_mode_t) maps[j].m.mode), got, want);
                CHECK(got == want || got == -1);
                if (maps[i].m.mode <= AVRM_MODE_STRIDE && maps[j].m.mode <= AVRM_MODE_STRIDE) {
                    pairs++;
                    decided += got != -1;
                }
            }
        CHECK(pairs > 0 && decided == pairs);
        CHECK(avrm_map_same_members(ctx, &w.m, &w1.m) == 0);      /* two groups of one size */
        CHECK(avrm_map_same_members(ctx, &w.m, &w.m) == 1);
        /* two progressions of one size and one smallest process: the even
         * ranks and the first half differ by their step */
        tmap_t even, half;
        for (uint32_t i = 0; i < W / 2; i++) map[i] = (int32_t) (2 * i);
        CHECK(tu_build_ex(ctx, &w, map, W / 2, 1, &even) && even.m.mode == AVRM_MODE_STRIDE);
        for (uint32_t i = 0; i < W / 2; i++) map[i] = (int32_t) i;
        CHECK(tu_build_ex(ctx, &w, map, W / 2, 1, &half) && half.m.mode <= AVRM_MODE_OFFSET);
        CHECK(avrm_map_same_members(ctx, &even.m, &half.m) == 0);
        tu_release(ctx, &even);
        tu_release(ctx, &half);
        for (uint32_t i = 0; i < nm; i++) tu_release(ctx, &maps[i]);
        tu_release(ctx, &w1);
        tu_release(ctx, &w);
        free(map);
        avrm_ctx_destroy(ctx);
    }
}

int main(void)
{
    RUN(test_checker_detects_corruption);
    RUN(test_modes_regular);
    RUN(test_modes_except_grid);
    RUN(test_modes_tables);
    RUN(test_multi);
    RUN(test_mlut_wide);
    RUN(test_compact);
    RUN(test_same_members);
    RUN(test_formula);
    RUN(test_table2_matrix);
    RUN(test_world_1m);
    return tu_finish();
}
