/*
 * test_random.c - random operations checked against reference tables:
 * a pool of maps, each built from a random live parent (or several) with a
 * random mapping, dups and releases in random order; at the end the stats
 * must be back to the AV-only baseline. A fixed seed, then a random one
 * (printed on failure; rerun with AVRM_SEED=n).
 */
#include <time.h>
#include "tu_gen.h"

#define POOL 48

static void run_seed(unsigned long seed, uint32_t w, int steps)
{
    tu_srand(seed);
    avrm_params_t p = avrm_params_default();
    if (tu_below(4) == 0) p.share_by_content = 0;
    if (tu_below(4) == 0) p.enable_lut16 = 0;
    if (tu_below(6) == 0) p.enable_patterns = 0;
    if (tu_below(4) == 0) p.enable_mseg = 0;
    if (tu_below(4) == 0) p.enable_ilut = 0;
    avrm_ctx_t *ctx = NULL;
    avrm_ctx_create(&p, &ctx);
    uint32_t w1 = 1 + tu_below(w), w2 = 1 + tu_below(64);
    tu_av(ctx, 0, w);
    tu_av(ctx, 1, w1);
    tu_av(ctx, 3, w2);
    avrm_stats_t base, now;
    avrm_ctx_stats(ctx, &base);
    tmap_t pool[POOL];
    int live[POOL] = { 0 };
    tu_world(ctx, &pool[0], 0);
    tu_world(ctx, &pool[1], 1);
    tu_world(ctx, &pool[2], 3);
    live[0] = live[1] = live[2] = 1;
    uint32_t cap = 2 * (w + w1 + w2);                   /* no map grows beyond */
    int32_t *map = malloc((size_t) cap * sizeof(int32_t));
    avrm_src_t *src = malloc((size_t) cap * sizeof(avrm_src_t));
    for (int step = 0; step < steps; step++) {
        int slot = (int) tu_below(POOL);
        if (live[slot]) {
            if (!tu_check(ctx, &pool[slot])) CHECK(0);
            tu_release(ctx, &pool[slot]);
            live[slot] = 0;
            continue;
        }
        int a = (int) tu_below(POOL), any = 0;
        for (int i = 0; i < POOL; i++) any |= live[i];
        if (!any) {                                     /* all released: a new world map */
            tu_world(ctx, &pool[slot], (avrm_pgid_t) (tu_below(2) ? 0 : 3));
            live[slot] = 1;
            continue;
        }
        while (!live[a]) a = (a + 1) % POOL;
        tmap_t *t = &pool[slot];
        uint32_t op = tu_below(10);
        if (op == 0) {                                  /* dup */
            avrm_map_dup(ctx, &pool[a].m, &t->m);
            t->n = pool[a].n;
            t->ref = malloc(t->n * sizeof(*t->ref));
            memcpy(t->ref, pool[a].ref, t->n * sizeof(*t->ref));
        } else if (op <= 2) {                           /* several parents */
            int b = (int) tu_below(POOL);
            while (!live[b]) b = (b + 1) % POOL;
            const avrm_rankmap_t *pars[2] = { &pool[a].m, &pool[b].m };
            const tmap_t *tp[2] = { &pool[a], &pool[b] };
            uint32_t n = 0, kind = tu_below(3);
            if (tp[0]->n + tp[1]->n > cap) kind = 2;
            if (kind == 0) {                            /* concatenation */
                for (int k = 0; k < 2; k++)
                    for (uint32_t r = 0; r < tp[k]->n; r++) src[n++] = (avrm_src_t) { (uint32_t) k, (int32_t) r };
            } else {                                    /* random picks / interleave */
                uint32_t sum = tp[0]->n + tp[1]->n, len = 1 + tu_below(sum < cap ? sum : cap);
                for (; n < len; n++) {
                    uint32_t k = kind == 1 ? n % 2 : tu_below(2);
                    src[n] = (avrm_src_t) { k, (int32_t) (kind == 1 ? (n / 2) % tp[k]->n : tu_below(tp[k]->n)) };
                }
            }
            t->n = n;
            t->ref = malloc(n * sizeof(*t->ref));
            for (uint32_t i = 0; i < n; i++) t->ref[i] = tp[src[i].parent]->ref[src[i].rank];
            int compact = (int) tu_below(2);
            avrm_status_t st = compact ? avrm_map_build_multi_compact(ctx, pars, 2, src, n, &t->m)
                                       : avrm_map_build_multi(ctx, pars, 2, src, n, &t->m);
            CHECK(st != AVRM_OK || compact || t->m.mode != AVRM_MODE_MSEG);   /* send maps: no MSEG */
            if (st != AVRM_OK) {
                CHECK(0);
                free(t->ref);
                continue;
            }
        } else if (op == 3) {                           /* from gpids */
            uint32_t n = tu_gen((int) tu_below(G_COUNT), pool[a].n, map);
            avrm_gpid_t *g = malloc(n * sizeof(*g));
            for (uint32_t i = 0; i < n; i++) g[i] = pool[a].ref[map[i]];
            t->n = n;
            t->ref = g;
            if (avrm_map_build_gpids(ctx, g, n, &t->m) != AVRM_OK) {
                CHECK(0);
                free(g);
                continue;
            }
        } else {
            uint32_t n = tu_gen((int) tu_below(G_COUNT), pool[a].n, map);
            if (!tu_build_ex(ctx, &pool[a], map, n, (int) tu_below(2), t)) { CHECK(0); continue; }
        }
        live[slot] = 1;
        if (!tu_check(ctx, t)) CHECK(0);
        int o = (int) tu_below(POOL);                   /* translations with another map */
        while (!live[o]) o = (o + 1) % POOL;
        if (tu_translate_mismatches(ctx, t, &pool[o]) || tu_translate_mismatches(ctx, &pool[o], t))
            CHECK(0);
    }
    /* release the rest in random order, checking the parents' survivors */
    for (;;) {
        int any = 0;
        for (int i = 0; i < POOL; i++) any |= live[i];
        if (!any) break;
        int s = (int) tu_below(POOL);
        while (!live[s]) s = (s + 1) % POOL;
        if (!tu_check(ctx, &pool[s])) CHECK(0);
        tu_release(ctx, &pool[s]);
        live[s] = 0;
    }
    avrm_ctx_stats(ctx, &now);
    CHECK(tu_stats_eq(&base, &now));
    free(map);
    free(src);
    avrm_ctx_destroy(ctx);
}

static void test_random_fixed(void)
{
    for (unsigned long s = 1; s <= 40; s++)
        run_seed(s, 1 + (uint32_t) (s * 37 % 300), 1500);
    run_seed(1000, 70000, 300);
}

static void test_random_seeded(void)
{
    const char *e = getenv("AVRM_SEED");
    unsigned long seed = e ? strtoul(e, NULL, 0) : (unsigned long) time(NULL);
    int before = tu_case_fail;
    for (unsigned long k = 0; k < 20; k++)
        run_seed(seed + k, 1 + (uint32_t) ((seed + k) % 2000), 400);
    if (tu_case_fail != before)
        fprintf(stderr, "  random seed base %lu (rerun: AVRM_SEED=%lu)\n", seed, seed);
}

int main(void)
{
    RUN(test_random_fixed);
    RUN(test_random_seeded);
    return tu_finish();
}
