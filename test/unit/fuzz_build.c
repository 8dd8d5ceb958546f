/*
 * fuzz_build.c - libFuzzer target: input bytes -> params, AV sizes, then a
 * sequence of builds (raw mapping arrays from the bytes, generated
 * structured mappings, multi-parent picks, gpids, dups, releases); every
 * map is checked rank by rank against its reference table, and the stats
 * must return to the AV-only baseline; every map's inverse (avrm_find.h)
 * is checked for every member; builds take the plain or the compact
 * builders (groups') by one bit of the op byte. Each map also gets a node hierarchy
 * (avrm_hier.h) for one of its ranks, under a world placement taken from
 * the bytes (block, round-robin or arbitrary node ids), checked against
 * stock's tables (tu_hier.h). Built with clang
 * -fsanitize=fuzzer,address,undefined (test/unit/local.mk).
 */
#include "tu_gen.h"
#include "tu_hier.h"

#define FPOOL 8

typedef struct { const uint8_t *p; size_t n; } in_t;

/* node ids of the world's lpids: wnode[l]; nodes < wmax */
static int32_t *wnode;
static uint32_t wmax;

/* the hierarchy of map t seen from its rank me: ranks of group 1 (a
 * spawned group) have no node id */
static int hier_bad(avrm_ctx_t *ctx, const tmap_t *t, uint32_t me)
{
    tu_place_t p = { t->n, wmax, malloc(sizeof(int32_t) * t->n) };
    avrm_hier_t h;
    int known = 1, bad;
    for (uint32_t r = 0; r < t->n; r++) {
        p.node[r] = t->ref[r].pgid == 0 ? wnode[t->ref[r].lpid] : -1;
        known &= p.node[r] >= 0;
    }
    bad = avrm_hier_build(ctx, t->n, me, wmax, tu_node_of, &p, &h) != AVRM_OK;
    if (!bad)
        bad = known ? tu_hier_mismatches(&h, &p, me) != 0 : h.form != AVRM_HIER_NONE;
    if (!bad)
        avrm_hier_release(ctx, &h);
    free(p.node);
    return bad;
}

static uint32_t take(in_t *in, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes && in->n; i++, in->p++, in->n--) v = v << 8 | *in->p;
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in_t in = { data, size };
    uint32_t flags = take(&in, 1);
    avrm_params_t p = avrm_params_default();
    p.enable_lut16 = !(flags & 1);
    p.enable_mseg = !(flags & 2);
    p.share_by_content = !(flags & 4);
    p.enable_patterns = !(flags & 8);
    p.enable_ilut = !(flags & 16);
    uint32_t w = 1 + take(&in, 2) % 600, w1 = 1 + take(&in, 1) % 64;
    avrm_ctx_t *ctx = NULL;
    if (avrm_ctx_create(&p, &ctx) != AVRM_OK) return 0;
    tu_av(ctx, 0, w);
    tu_av(ctx, 1, w1);
    uint32_t place = take(&in, 1), q = 1 + place % 9;
    wnode = malloc(sizeof(int32_t) * w);
    wmax = w + 10;                                 /* ids below stay < wmax */
    for (uint32_t l = 0; l < w; l++)                 /* block q, round-robin q, or bytes */
        wnode[l] = (int32_t) ((place >> 6) == 0 ? l / q : (place >> 6) == 1 ? l % q
                              : (in.n ? take(&in, 1) : l) % (q + 1));
    avrm_stats_t base, now;
    avrm_ctx_stats(ctx, &base);
    tmap_t pool[FPOOL];
    int live[FPOOL] = { 0 };
    tu_world(ctx, &pool[0], 0);
    tu_world(ctx, &pool[1], 1);
    live[0] = live[1] = 1;
    uint32_t cap = 2 * (w + w1);
    int32_t *map = malloc(cap * sizeof(int32_t));
    avrm_src_t *src = malloc(cap * sizeof(avrm_src_t));
    while (in.n) {
        uint32_t op = take(&in, 1), slot = (op >> 4) % FPOOL, a = take(&in, 1) % FPOOL;
        int any = 0;
        for (int i = 0; i < FPOOL; i++) any |= live[i];
        if (!any) {                                         /* all released: a new world map */
            tu_world(ctx, &pool[0], 0);
            live[0] = 1;
        }
        while (!live[a]) a = (a + 1) % FPOOL;
        if (live[slot]) {
            if (tu_mismatches(ctx, &pool[slot].m, pool[slot].ref, pool[slot].n)) abort();
            tu_release(ctx, &pool[slot]);
            live[slot] = 0;
            continue;
        }
        tmap_t *t = &pool[slot], *pa = &pool[a];
        uint32_t n = 0;
        switch (op & 7) {
        case 0: case 1: {                                   /* raw mapping from bytes */
            uint32_t len = 1 + take(&in, 1);
            if (len > pa->n && (op & 8)) len = pa->n;
            uint32_t base_r = take(&in, 2) % pa->n;
            for (n = 0; n < len && n < cap; n++) {
                uint32_t b = in.n ? take(&in, 1) : n;
                /* small deltas keep patterns likely, big ones break them */
                map[n] = (int32_t) ((base_r + (b < 128 ? n * (b % 5) : b * 7919u)) % pa->n);
            }
            if (!tu_build_ex(ctx, pa, map, n, (op >> 3) & 1, t)) abort();
            break;
        }
        case 2: case 3: case 4:                             /* structured */
            tu_srand(take(&in, 2));
            n = tu_gen((int) (take(&in, 1) % G_COUNT), pa->n, map);
            if (!tu_build_ex(ctx, pa, map, n, (op >> 3) & 1, t)) abort();
            break;
        case 5: {                                           /* two parents */
            uint32_t b = take(&in, 1) % FPOOL;
            while (!live[b]) b = (b + 1) % FPOOL;
            const tmap_t *tp[2] = { pa, &pool[b] };
            const avrm_rankmap_t *pars[2] = { &pa->m, &pool[b].m };
            uint32_t len = 1 + take(&in, 1) * 4, mode = take(&in, 1);
            if (len > cap) len = cap;
            for (n = 0; n < len; n++) {
                uint32_t k = mode & 1 ? n % 2 : (mode >> 1) & 1 ? n >= len / 2 : take(&in, 1) & 1;
                uint32_t r = (mode & 4) ? (n / 2) % tp[k]->n : (n + take(&in, 1)) % tp[k]->n;
                src[n] = (avrm_src_t) { k, (int32_t) r };
            }
            t->n = n;
            t->ref = malloc(n * sizeof(*t->ref));
            for (uint32_t i = 0; i < n; i++) t->ref[i] = tp[src[i].parent]->ref[src[i].rank];
            int compact = (op >> 3) & 1;
            if ((compact ? avrm_map_build_multi_compact(ctx, pars, 2, src, n, &t->m)
                         : avrm_map_build_multi(ctx, pars, 2, src, n, &t->m)) != AVRM_OK)
                abort();
            if (!compact && t->m.mode == AVRM_MODE_MSEG)    /* a send map never takes MSEG */
                abort();
            break;
        }
        case 6: {                                           /* gpids */
            tu_srand(take(&in, 2));
            n = tu_gen((int) (take(&in, 1) % G_COUNT), pa->n, map);
            t->n = n;
            t->ref = malloc(n * sizeof(*t->ref));
            for (uint32_t i = 0; i < n; i++) t->ref[i] = pa->ref[map[i]];
            if (avrm_map_build_gpids(ctx, t->ref, n, &t->m) != AVRM_OK) abort();
            break;
        }
        default:                                            /* dup */
            avrm_map_dup(ctx, &pa->m, &t->m);
            t->n = pa->n;
            t->ref = malloc(t->n * sizeof(*t->ref));
            memcpy(t->ref, pa->ref, t->n * sizeof(*t->ref));
            break;
        }
        live[slot] = 1;
        if (tu_mismatches(ctx, &t->m, t->ref, t->n)) abort();
        if (tu_find_mismatches(ctx, &t->m, t->ref, t->n)) abort();     /* the inverse */
        if (t->n && hier_bad(ctx, t, take(&in, 2) % t->n)) abort();
    }
    for (int i = FPOOL; i-- > 0;)
        if (live[i]) {
            if (tu_mismatches(ctx, &pool[i].m, pool[i].ref, pool[i].n)) abort();
            tu_release(ctx, &pool[i]);
        }
    avrm_ctx_stats(ctx, &now);
    if (!tu_stats_eq(&base, &now)) abort();
    free(map);
    free(src);
    free(wnode);
    avrm_ctx_destroy(ctx);
    return 0;
}
