/*
 * tu.h - unit-test helpers: a tiny runner, a reference world and the
 * checker that compares every rank of a map with a plain reference table.
 * Tests use only the public API (plus the allocation hook of avrm_alloc.h).
 */
#ifndef TU_H
#define TU_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "avrm/avrm.h"

static int tu_pass, tu_fail, tu_case_fail;
static unsigned long tu_seed;

#define CHECK(c) do { if (!(c)) { tu_case_fail++; \
    if (tu_case_fail < 6) fprintf(stderr, "  %s:%d: CHECK(%s) failed (seed %lu)\n", \
                                  __FILE__, __LINE__, #c, tu_seed); } } while (0)

#define RUN(fn) do { tu_case_fail = 0; fn(); \
    if (tu_case_fail) { tu_fail++; printf("FAIL: %s\n", #fn); } \
    else { tu_pass++; printf("PASS: %s\n", #fn); } fflush(stdout); } while (0)

static inline int tu_finish(void)
{
    printf("%d passed, %d failed\n", tu_pass, tu_fail);
    return tu_fail ? 1 : 0;
}

/* xorshift64*: deterministic random numbers */
static uint64_t tu_rs = 88172645463325252ull;
static inline uint64_t tu_rand(void)
{
    tu_rs ^= tu_rs >> 12; tu_rs ^= tu_rs << 25; tu_rs ^= tu_rs >> 27;
    return tu_rs * 2685821657736338717ull;
}
static inline uint32_t tu_below(uint32_t n) { return n ? (uint32_t) (tu_rand() % n) : 0; }
static inline void tu_srand(unsigned long s) { tu_seed = s; tu_rs = s * 2654435761ull + 1; }

/* Reference addresses: independent of the library. */
static inline uint64_t tu_addr(avrm_pgid_t g, avrm_lpid_t l)
{
    return ((uint64_t) l * 2654435761u + (uint64_t) g * 1000003u + 17) & ((1ull << 62) - 1);
}
static inline int tu_local(avrm_pgid_t g, avrm_lpid_t l) { return (l + g) % 3 == 0; }

/* Create stored AV pgid of size n, filled with the reference addresses. */
static inline avrm_av_t *tu_av(avrm_ctx_t *ctx, avrm_pgid_t g, uint32_t n)
{
    avrm_av_params_t p = { .size = n, .pgid = g };
    avrm_av_t *av = NULL;
    if (avrm_av_create(ctx, &p, &av) != AVRM_OK) return NULL;
    for (uint32_t l = 0; l < n; l++)
        avrm_av_set(av, l, tu_addr(g, l), tu_local(g, l));
    return av;
}

/* A map with its reference table. */
typedef struct tmap {
    avrm_rankmap_t m;
    avrm_gpid_t *ref;
    uint32_t n;
} tmap_t;

/* Mismatches of m against ref (every rank: gpid, address, locality). */
static inline size_t tu_mismatches(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                   const avrm_gpid_t *ref, uint32_t n)
{
    size_t bad = 0;
    if (m->size != n) return (size_t) -1;
    for (uint32_t r = 0; r < n; r++) {
        avrm_pgid_t g;
        avrm_lpid_t l = avrm_map_lpid(ctx, m, r, &g);
        if (l != ref[r].lpid || g != ref[r].pgid) { bad++; continue; }
        if (avrm_map_addr(ctx, m, r) != tu_addr(g, l)) bad++;
        else if (avrm_map_is_local(ctx, m, r) != tu_local(g, l)) bad++;
        else if (avrm_map_ave(ctx, m, r) != avrm_map_ave_generic(ctx, m, r)) bad++;
    }
    return bad;
}

/* The inverse (avrm_find.h) against the reference: every member's gpid
 * finds its smallest rank, with the index the map needs and without any
 * (small maps: the linear fallback), and gpids next to members' that are
 * not members find -1. Leaves the stats as it found them. */
typedef struct tu_keyrank { uint64_t key; uint32_t rank; } tu_keyrank_t;
static int tu_keyrank_cmp(const void *a, const void *b)
{
    const tu_keyrank_t *x = a, *y = b;
    return x->key != y->key ? (x->key > y->key) - (x->key < y->key)
                            : (x->rank > y->rank) - (x->rank < y->rank);
}
static inline avrm_gpid_t tu_key_gpid(uint64_t k)
{
    return (avrm_gpid_t) { .lpid = (avrm_lpid_t) k, .pgid = (avrm_pgid_t) (k >> 32) };
}
static inline size_t tu_find_mismatches(const avrm_ctx_t *cctx, const avrm_rankmap_t *m,
                                        const avrm_gpid_t *ref, uint32_t n)
{
    avrm_ctx_t *ctx = (avrm_ctx_t *) cctx;           /* the index is accounted */
    size_t bad = 0, before = ctx->stats.rank_index_bytes;
    avrm_rank_index_t *idx = NULL;
    avrm_status_t st = avrm_rank_index_build(ctx, m, &idx);   /* NOMEM: tests of */
    if (st != AVRM_OK && st != AVRM_ERR_NOMEM) return 1;       /* injected failures */
    if (st == AVRM_OK && (idx != NULL) != (avrm_map_find_needs_index(m) && n > 0)) bad++;
    tu_keyrank_t *kr = malloc(((size_t) n + 1) * sizeof(*kr));
    for (uint32_t r = 0; r < n; r++)
        kr[r] = (tu_keyrank_t) { (uint64_t) ref[r].pgid << 32 | ref[r].lpid, r };
    qsort(kr, n, sizeof(*kr), tu_keyrank_cmp);
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && kr[i].key == kr[i - 1].key) continue;
        avrm_gpid_t g = tu_key_gpid(kr[i].key);
        if (avrm_map_find(ctx, m, idx, g) != kr[i].rank) bad++;
        if (n <= 256 && avrm_map_find(ctx, m, NULL, g) != kr[i].rank) bad++;
        uint32_t j = i + 1;                           /* the next distinct key */
        while (j < n && kr[j].key == kr[i].key) j++;
        uint64_t next = kr[i].key + 1;                /* a neighbour, if not a member */
        if ((j == n || kr[j].key != next) && avrm_map_find(ctx, m, idx, tu_key_gpid(next)) != -1)
            bad++;
        if (kr[i].key > 0 && (i == 0 || kr[i - 1].key != kr[i].key - 1) &&
            avrm_map_find(ctx, m, idx, tu_key_gpid(kr[i].key - 1)) != -1)
            bad++;
    }
    avrm_gpid_t other = { .lpid = 0, .pgid = 0xfffe };  /* a group no test map uses */
    if (avrm_map_find(ctx, m, idx, other) != -1) bad++;
    free(kr);
    avrm_rank_index_free(ctx, idx);
    if (ctx->stats.rank_index_bytes != before) bad++;
    return bad;
}

/* avrm_map_translate from a to b against the references: every rank of a
 * (and MPI_PROC_NULL-like -1) goes to the smallest rank of b with the same
 * process, or to `absent`. */
static inline size_t tu_translate_mismatches(const avrm_ctx_t *cctx, const tmap_t *a, const tmap_t *b)
{
    avrm_ctx_t *ctx = (avrm_ctx_t *) cctx;
    const int32_t absent = -7;
    size_t bad = 0;
    avrm_rank_index_t *idx = NULL;
    /* out of memory (the fault-injection tests): no index, and the answers
     * must be right without one (linear search); any other error is wrong */
    avrm_status_t ist = avrm_rank_index_build(ctx, &b->m, &idx);
    if (ist != AVRM_OK && ist != AVRM_ERR_NOMEM) return 1;
    if (ist != AVRM_OK) idx = NULL;
    tu_keyrank_t *kr = malloc(((size_t) b->n + 1) * sizeof(*kr));
    for (uint32_t r = 0; r < b->n; r++)
        kr[r] = (tu_keyrank_t) { (uint64_t) b->ref[r].pgid << 32 | b->ref[r].lpid, r };
    qsort(kr, b->n, sizeof(*kr), tu_keyrank_cmp);
    int32_t *in = malloc(((size_t) a->n + 1) * sizeof(int32_t)), *out = malloc(((size_t) a->n + 1) * sizeof(int32_t));
    for (uint32_t i = 0; i < a->n; i++) in[i] = (int32_t) i;
    in[a->n] = -1;
    avrm_map_translate(ctx, &a->m, in, a->n + 1, &b->m, idx, absent, out);
    for (uint32_t i = 0; i < a->n; i++) {
        uint64_t key = (uint64_t) a->ref[i].pgid << 32 | a->ref[i].lpid;
        uint32_t lo = 0, hi = b->n;                     /* first entry >= key */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (kr[mid].key < key) lo = mid + 1;
            else hi = mid;
        }
        int32_t want = lo < b->n && kr[lo].key == key ? (int32_t) kr[lo].rank : absent;
        bad += out[i] != want;
    }
    bad += out[a->n] != -1;
    /* in place, as MPICH's group code calls it (out == in) */
    avrm_map_translate(ctx, &a->m, in, a->n + 1, &b->m, idx, absent, in);
    for (uint32_t i = 0; i <= a->n; i++) bad += in[i] != out[i];
    free(in);
    free(out);
    free(kr);
    avrm_rank_index_free(ctx, idx);
    return bad;
}

static inline int tu_check(const avrm_ctx_t *ctx, const tmap_t *t)
{
    size_t bad = tu_mismatches(ctx, &t->m, t->ref, t->n);
    if (!bad && (bad = tu_find_mismatches(ctx, &t->m, t->ref, t->n)))
        fprintf(stderr, "  map mode %s size %u: %zu inverse lookups wrong (seed %lu)\n",
                avrm_mode_name((avrm_mode_t) t->m.mode), t->n, bad, tu_seed);
    else if (bad)
        fprintf(stderr, "  map mode %s size %u: %zu ranks wrong (seed %lu)\n",
                avrm_mode_name((avrm_mode_t) t->m.mode), t->n, bad, tu_seed);
    return bad == 0;
}

/* Build child of parent by mapping; reference computed from parent's ref.
 * tu_build_ex: compact (avrm_map_build_compact, the groups' builder) or not. */
static inline int tu_build_ex(avrm_ctx_t *ctx, const tmap_t *par, const int32_t *map, uint32_t n,
                              int compact, tmap_t *out)
{
    out->ref = malloc((size_t) n * sizeof(avrm_gpid_t));
    out->n = n;
    for (uint32_t i = 0; i < n; i++) out->ref[i] = par->ref[map[i]];
    avrm_status_t rc = compact ? avrm_map_build_compact(ctx, &par->m, map, n, &out->m)
                               : avrm_map_build(ctx, &par->m, map, n, &out->m);
    if (rc != AVRM_OK) {
        free(out->ref);
        out->ref = NULL;
        return 0;
    }
    return 1;
}

static inline int tu_build(avrm_ctx_t *ctx, const tmap_t *par, const int32_t *map, uint32_t n,
                           tmap_t *out)
{
    return tu_build_ex(ctx, par, map, n, 0, out);
}

static inline void tu_release(avrm_ctx_t *ctx, tmap_t *t)
{
    avrm_map_release(ctx, &t->m);
    free(t->ref);
    t->ref = NULL;
}

static inline void tu_world(avrm_ctx_t *ctx, tmap_t *w, avrm_pgid_t g)
{
    avrm_map_init_group(ctx, g, &w->m);
    w->n = w->m.size;
    w->ref = malloc((size_t) w->n * sizeof(avrm_gpid_t));
    for (uint32_t i = 0; i < w->n; i++) w->ref[i] = (avrm_gpid_t) { .lpid = i, .pgid = g };
}

static inline int tu_stats_eq(const avrm_stats_t *a, const avrm_stats_t *b)
{
    return memcmp(a, b, sizeof(*a)) == 0;
}

#endif /* TU_H */
