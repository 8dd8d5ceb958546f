/*
 * test_threads.c - the thread-safety rule of avrm_ctx.h under a race
 * detector: "one writer, any number of lock-free readers". Built with
 * -fsanitize=thread and the core sources (make unit-tsan; test/unit/tsan.sh
 * runs it).
 *
 * NREADERS reader threads resolve every rank of a few live rank maps (one of
 * each kind: direct, stride, permutation table, small irregular, multi-group
 * interleaved, multi-group runs, join, over a computed AV, from gpids) with
 * the lookups of avrm_lookup.h, avrm_map_find (a reader, avrm_find.h) and
 * avrm_av_addr/avrm_av_is_local (avrm_av.h), and compare every answer with a
 * plain table the test computed before starting the threads. Meanwhile ONE
 * writer thread, the only writer, creates WRITER_AVS new AVs (ctx->avs grows
 * several times: avrm_av_create replaces the array under the readers), fills
 * them, builds regular and irregular maps over them and over the readers'
 * maps (children that share a reader map's table, dups, multi-group maps
 * with a reader map as a parent), checks and releases them, and destroys
 * half of its AVs, and resolves, one by one, the peers of an AV whose words
 * start pending (on-demand addressing: first contact in CH4 is such a
 * writer, under its lock, while other threads send to the same peers).
 * Readers of that AV accept the pending or the resolved word, and after the
 * writer's end only the resolved one. It never releases a map or destroys an AV a reader uses,
 * so every race TSan reports is one in libavrm under its own rule, and
 * every wrong answer a bug. Two cases: default parameters with a computed
 * AV, and tables only (every irregular map a table, no ILUT/LUT16/MSEG).
 * Bounded: a fixed number of writer iterations; readers stop after the
 * writer (a few seconds under TSan).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "tu_gen.h"

#define NREADERS    3
#define WRITER_AVS  300     /* pgids 5..304: ctx->avs grows 5 -> 512 slots */
#define W           600     /* world (pgid 0) */
#define G1          200     /* spawned groups: pgid 1 and 2 stored, */
#define G2          90
#define G3          120     /* pgid 3 computed when the case allows it */
#define G3_LOCAL_FIRST 30   /* pgid 3's locality: a RANGE of 20 members */
#define G3_LOCAL_COUNT 20
#define LZ          64      /* pgid 4: every word pending until the writer resolves it */
#define LZ_PG       4
#define NPG         5       /* pgids made before the threads */
#define MAXPG       1024

/* Which groups are computed: written before the threads start (0-3) or by
 * the writer alone (its own pgids); readers never read it. */
static uint8_t computed_pg[MAXPG];

/* The entry word a rank of group g at lpid l must give: the reference of
 * tu.h for a stored AV, lpid and locality range for a computed one. */
static avrm_ave_t ref_ave(avrm_pgid_t g, avrm_lpid_t l)
{
    if (computed_pg[g])
        return (avrm_ave_t) l << 1 | (l - G3_LOCAL_FIRST < G3_LOCAL_COUNT);
    return tu_addr(g, l) << 1 | (uint64_t) tu_local(g, l);
}

/* A reader map: built before the threads, never changed while they run. */
typedef struct rmap {
    avrm_rankmap_t m;
    uint32_t n;
    avrm_gpid_t *ref;            /* rank -> gpid (distinct: find(ref[r]) == r) */
    avrm_ave_t *ave;             /* rank -> entry word */
    avrm_rank_index_t *idx;      /* built by the main thread (a writer call) */
    int needs_index;
    int ondemand;                /* over pgid LZ_PG: a word may still be pending */
} rmap_t;

#define NMAPS 10
static avrm_ctx_t *ctx;
static rmap_t maps[NMAPS];
static int nmaps;
static avrm_av_t *av_of[NPG];    /* pgids 0-4, for avrm_av_addr/is_local */
static atomic_int readers_started, writer_done;

typedef struct reader {
    pthread_t th;
    long passes, bad;
    char first[200];             /* the first wrong answer */
} reader_t;

static void note(reader_t *rd, const rmap_t *t, uint32_t r, const char *what)
{
    if (rd->bad++ == 0)
        snprintf(rd->first, sizeof(rd->first), "map %d (%s) rank %u: %s", (int) (t - maps),
                 avrm_mode_name((avrm_mode_t) t->m.mode), r, what);
}

/* Is got rank r's entry word, or, on an on-demand map before the writer's end
 * (!final), the pending word of the same peer? */
static int ave_ok(const rmap_t *t, uint32_t r, avrm_ave_t got, int final)
{
    if (got == t->ave[r]) return 1;
    return t->ondemand && !final &&
           got == avrm_ave_make_pending(t->ref[r].lpid, (int) (t->ave[r] & AVRM_AVE_LOCAL));
}

/* One pass of a reader over every rank of every reader map; final: the
 * writer has finished (every pending word must be resolved). */
static void reader_pass(reader_t *rd, int final)
{
    for (int k = 0; k < nmaps; k++) {
        const rmap_t *t = &maps[k];
        const avrm_rankmap_t *m = &t->m;
        for (uint32_t r = 0; r < t->n; r++) {
            avrm_pgid_t g;
            avrm_lpid_t l = avrm_map_lpid(ctx, m, r, &g);
            if (g != t->ref[r].pgid || l != t->ref[r].lpid) { note(rd, t, r, "lpid"); continue; }
            avrm_gpid_t gp;
            if (avrm_map_lpid_checked(ctx, m, (int) r, &gp) != AVRM_OK || gp.pgid != g ||
                gp.lpid != l)
                note(rd, t, r, "lpid_checked");
            avrm_ave_t e = avrm_map_ave(ctx, m, r);
            if (!ave_ok(t, r, e, final)) note(rd, t, r, final ? "ave (final)" : "ave");
            uint64_t a = avrm_map_addr(ctx, m, r);
            if (a != t->ave[r] >> 1 && !(t->ondemand && !final && a == e >> 1))
                note(rd, t, r, "addr");
            if (avrm_map_is_local(ctx, m, r) != (int) (t->ave[r] & 1)) note(rd, t, r, "is_local");
            if (avrm_map_find(ctx, m, t->idx, t->ref[r]) != r) note(rd, t, r, "find");
            /* without the index: closed form, or a linear search (1 rank in 16) */
            if ((!t->needs_index || r % 16 == 0) && avrm_map_find(ctx, m, NULL, t->ref[r]) != r)
                note(rd, t, r, "find without index");
            if (g < NPG) {  /* one read: a second could see the entry resolved since */
                uint64_t aa = avrm_av_addr(av_of[g], l);
                if (aa != t->ave[r] >> 1 && !ave_ok(t, r, aa << 1 | (t->ave[r] & 1), final))
                    note(rd, t, r, "av_addr");
            }
            if (g < NPG && !ave_ok(t, r, avrm_av_ave(av_of[g], l), final))
                note(rd, t, r, "av_ave");
            if (g < NPG && avrm_av_is_local(av_of[g], l) != (int) (t->ave[r] & 1))
                note(rd, t, r, "av_is_local");
        }
        avrm_gpid_t gp, absent = { .lpid = 0, .pgid = 0xfffe };
        if (avrm_map_lpid_checked(ctx, m, (int) t->n, &gp) != AVRM_ERR_ARG ||
            avrm_map_lpid_checked(ctx, m, -1, &gp) != AVRM_ERR_ARG)
            note(rd, t, t->n, "lpid_checked out of range");
        if (avrm_map_find(ctx, m, t->idx, absent) != -1) note(rd, t, 0, "find of a non-member");
    }
}

static void *reader_main(void *arg)
{
    reader_t *rd = arg;
    atomic_fetch_add(&readers_started, 1);
    do {
        reader_pass(rd, 0);
        rd->passes++;
    } while (!atomic_load(&writer_done));
    reader_pass(rd, 1);          /* one more after the writer's last change */
    rd->passes++;
    return NULL;
}

/* Writer-side check of one of its own maps: wrong ranks, plus the inverse
 * (tu_find_mismatches builds and frees a rank index: writer calls). */
static size_t writer_bad(const tmap_t *t)
{
    size_t bad = t->m.size != t->n;
    for (uint32_t r = 0; !bad && r < t->n; r++) {
        avrm_pgid_t g;
        avrm_lpid_t l = avrm_map_lpid(ctx, &t->m, r, &g);
        bad += g != t->ref[r].pgid || l != t->ref[r].lpid ||
               avrm_map_ave(ctx, &t->m, r) != ref_ave(g, l);
    }
    return bad ? bad : tu_find_mismatches(ctx, &t->m, t->ref, t->n);
}

static long writer_errors;
static uint32_t writer_navs_grew;

/* The only writer: new AVs, maps over them and over the readers' maps. */
static void *writer_main(void *arg)
{
    int computed_ok = *(const int *) arg;
    int32_t map[W];
    avrm_src_t src[W + 64];
    uint32_t navs_seen = ctx->navs;
    while (atomic_load(&readers_started) < NREADERS) sched_yield();
    for (uint32_t k = 0; k < WRITER_AVS; k++) {
        /* first contact with one more peer of the on-demand AV (all by k = 256) */
        uint32_t lz = k / (WRITER_AVS / LZ);
        if (k % (WRITER_AVS / LZ) == 0 && lz < LZ &&
            avrm_av_set(av_of[LZ_PG], lz, tu_addr(LZ_PG, lz), tu_local(LZ_PG, lz)) != AVRM_OK)
            writer_errors++;
        avrm_pgid_t pg = (avrm_pgid_t) (NPG + k);
        uint32_t size = 5 + k % 40;
        int comp = computed_ok && k % 4 == 3;
        avrm_av_params_t ap = { .size = size, .pgid = pg, .computed = (uint8_t) comp,
                                .local = { .kind = AVRM_LOCAL_RANGE, .first = G3_LOCAL_FIRST,
                                           .count = G3_LOCAL_COUNT } };
        avrm_av_t *av = NULL;
        if (avrm_av_create(ctx, &ap, &av) != AVRM_OK) { writer_errors++; continue; }
        computed_pg[pg] = (uint8_t) comp;
        if (ctx->navs != navs_seen) { writer_navs_grew++; navs_seen = ctx->navs; }
        for (uint32_t l = 0; l < size; l++)
            if (avrm_av_set(av, l, comp ? l : tu_addr(pg, l), tu_local(pg, l)) != AVRM_OK)
                writer_errors++;

        tmap_t grp, a, b, c, d;
        tu_world(ctx, &grp, pg);                             /* regular: direct */
        writer_errors += writer_bad(&grp) != 0;
        uint32_t n = 0;
        for (uint32_t q = 1; q < size; q += 3) map[n++] = (int32_t) q;
        if (tu_build(ctx, &grp, map, n, &a)) {               /* regular: stride */
            writer_errors += writer_bad(&a) != 0;
            tu_release(ctx, &a);
        } else writer_errors++;
        n = tu_gen(G_PERM, size, map);
        if (tu_build(ctx, &grp, map, n, &a)) {               /* irregular: ilut/lut */
            writer_errors += writer_bad(&a) != 0;
            tu_release(ctx, &a);
        } else writer_errors++;

        /* multi-group, the readers' world map as a parent (read only) */
        const avrm_rankmap_t *pars[2] = { &maps[0].m, &grp.m };
        tmap_t wp = { .m = maps[0].m, .ref = maps[0].ref, .n = maps[0].n };
        const tmap_t *tp[2] = { &wp, &grp };
        n = 0;
        for (uint32_t i = 0; i < 2 * size; i++) {            /* interleaved: mlut(32) */
            uint32_t p = i % 2, r = p ? i / 2 : (i * 37) % W;
            src[n++] = (avrm_src_t) { p, (int32_t) r };
        }
        b.n = n;
        b.ref = malloc(n * sizeof(*b.ref));
        for (uint32_t i = 0; i < n; i++) b.ref[i] = tp[src[i].parent]->ref[src[i].rank];
        if (avrm_map_build_multi(ctx, pars, 2, src, n, &b.m) == AVRM_OK) {
            writer_errors += writer_bad(&b) != 0;
            avrm_map_release(ctx, &b.m);
        } else writer_errors++;
        free(b.ref);
        n = 0;                                               /* runs: mseg/join/table */
        for (uint32_t r = 0; r < 50; r++) src[n++] = (avrm_src_t) { 0, (int32_t) r };
        for (uint32_t r = 0; r < size; r++) src[n++] = (avrm_src_t) { 1, (int32_t) r };
        for (uint32_t r = 100; r < 150; r++) src[n++] = (avrm_src_t) { 0, (int32_t) r };
        c.n = n;
        c.ref = malloc(n * sizeof(*c.ref));
        for (uint32_t i = 0; i < n; i++) c.ref[i] = tp[src[i].parent]->ref[src[i].rank];
        if (avrm_map_build_multi_compact(ctx, pars, 2, src, n, &c.m) == AVRM_OK) {
            writer_errors += writer_bad(&c) != 0;
            avrm_map_release(ctx, &c.m);
        } else writer_errors++;
        free(c.ref);

        /* a child of the readers' permutation map (a slice: its table's
         * reference count changes under the readers) and a dup of their
         * multi-group map; both released again */
        const rmap_t *pm = &maps[2];
        tmap_t par = { .m = pm->m, .ref = pm->ref, .n = pm->n };
        uint32_t lo = k % (pm->n - 100);
        for (n = 0; n < 100; n++) map[n] = (int32_t) (lo + n);
        if (tu_build(ctx, &par, map, n, &d)) {
            writer_errors += writer_bad(&d) != 0;
            tu_release(ctx, &d);
        } else writer_errors++;
        avrm_rankmap_t dup;
        avrm_map_dup(ctx, &maps[4].m, &dup);
        avrm_map_release(ctx, &dup);

        /* from gpids: the new group reversed (stride -1) */
        avrm_gpid_t gp[64];
        for (uint32_t i = 0; i < size; i++) gp[i] = (avrm_gpid_t) { .lpid = size - 1 - i, .pgid = pg };
        d.n = size;
        d.ref = gp;
        if (avrm_map_build_gpids(ctx, gp, size, &d.m) == AVRM_OK) {
            writer_errors += writer_bad(&d) != 0;
            avrm_map_release(ctx, &d.m);
        } else writer_errors++;

        tu_release(ctx, &grp);
        if (k % 2) avrm_av_destroy(ctx, pg);                 /* no reader uses it */
    }
    atomic_store(&writer_done, 1);
    return NULL;
}

/* Reader map k from its gpids (the reference) and the builder's result. */
static void add_map(avrm_status_t st, const avrm_gpid_t *ref, uint32_t n)
{
    rmap_t *t = &maps[nmaps];
    CHECK(st == AVRM_OK);
    if (st != AVRM_OK) return;
    t->n = n;
    t->ref = malloc(n * sizeof(*t->ref));
    t->ave = malloc(n * sizeof(*t->ave));
    memcpy(t->ref, ref, n * sizeof(*ref));
    for (uint32_t r = 0; r < n; r++) t->ave[r] = ref_ave(ref[r].pgid, ref[r].lpid);
    t->needs_index = avrm_map_find_needs_index(&t->m);
    CHECK(avrm_rank_index_build(ctx, &t->m, &t->idx) == AVRM_OK);
    nmaps++;
}

static void run_case(const avrm_params_t *p, int computed)
{
    static const uint32_t gsize[NPG] = { W, G1, G2, G3, LZ };
    avrm_gpid_t ref[W + G1];
    avrm_src_t src[W + G1];
    int32_t map[W];
    memset(computed_pg, 0, sizeof(computed_pg));
    memset(maps, 0, sizeof(maps));
    nmaps = 0;
    atomic_store(&readers_started, 0);
    atomic_store(&writer_done, 0);
    writer_errors = 0;
    writer_navs_grew = 0;
    tu_srand(4242);
    CHECK(avrm_ctx_create(p, &ctx) == AVRM_OK);
    for (avrm_pgid_t g = 0; g < NPG; g++) {
        int comp = computed && g == 3;
        avrm_av_params_t ap = { .size = gsize[g], .pgid = g, .computed = (uint8_t) comp,
                                .local = { .kind = AVRM_LOCAL_RANGE, .first = G3_LOCAL_FIRST,
                                           .count = G3_LOCAL_COUNT } };
        CHECK(avrm_av_create(ctx, &ap, &av_of[g]) == AVRM_OK);
        CHECK((av_of[g]->entries == NULL) == comp);
        computed_pg[g] = (uint8_t) comp;
        for (uint32_t l = 0; l < gsize[g] && !comp; l++)
            CHECK((g == LZ_PG ? avrm_av_set_pending(av_of[g], l, tu_local(g, l))
                              : avrm_av_set(av_of[g], l, tu_addr(g, l), tu_local(g, l))) ==
                  AVRM_OK);
    }
    /* the reader maps; children are built as child rank -> parent rank over
     * the world's DIRECT map (maps[0]), so their gpids are the parent ranks */
    rmap_t *w = &maps[0];
    for (uint32_t r = 0; r < W; r++) ref[r] = (avrm_gpid_t) { .lpid = r, .pgid = 0 };
    add_map(avrm_map_init_group(ctx, 0, &w->m), ref, W);                 /* 0 direct */
    uint32_t n = 0;
    for (uint32_t q = 1; q < W; q += 3) map[n++] = (int32_t) q;
    for (uint32_t i = 0; i < n; i++) ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) map[i] };
    add_map(avrm_map_build(ctx, &w->m, map, n, &maps[nmaps].m), ref, n);  /* 1 stride */
    n = tu_gen(G_PERM, W, map);
    for (uint32_t i = 0; i < n; i++) ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) map[i] };
    add_map(avrm_map_build(ctx, &w->m, map, n, &maps[nmaps].m), ref, n);  /* 2 lut16/lut */
    tu_gen(G_PERM, W, map);                                 /* 12 random processes */
    n = 12;
    for (uint32_t i = 0; i < n; i++) ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) map[i] };
    add_map(avrm_map_build(ctx, &w->m, map, n, &maps[nmaps].m), ref, n);  /* 3 ilut/lut */

    avrm_rankmap_t g1, g2, g3;
    CHECK(avrm_map_init_group(ctx, 1, &g1) == AVRM_OK);
    CHECK(avrm_map_init_group(ctx, 2, &g2) == AVRM_OK);
    CHECK(avrm_map_init_group(ctx, 3, &g3) == AVRM_OK);
    const avrm_rankmap_t *pars[4] = { &w->m, &g1, &g2, &g3 };
    /* 4: world and group 1 shuffled together (distinct): mlut32/mlut */
    n = 0;
    for (uint32_t r = 0; r < W; r += 2) src[n++] = (avrm_src_t) { 0, (int32_t) r };
    for (uint32_t r = 0; r < G1; r++) src[n++] = (avrm_src_t) { 1, (int32_t) r };
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = tu_below(i);
        avrm_src_t s = src[i - 1]; src[i - 1] = src[j]; src[j] = s;
    }
    for (uint32_t i = 0; i < n; i++)
        ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) src[i].rank, .pgid = (avrm_pgid_t) src[i].parent };
    add_map(avrm_map_build_multi(ctx, pars, 2, src, n, &maps[nmaps].m), ref, n);
    /* 5: world 0-149, group 2, world 400-599 (an MPI group): mseg/mlut */
    n = 0;
    for (uint32_t r = 0; r < 150; r++) src[n++] = (avrm_src_t) { 0, (int32_t) r };
    for (uint32_t r = 0; r < G2; r++) src[n++] = (avrm_src_t) { 2, (int32_t) r };
    for (uint32_t r = 400; r < W; r++) src[n++] = (avrm_src_t) { 0, (int32_t) r };
    for (uint32_t i = 0; i < n; i++)
        ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) src[i].rank, .pgid = (avrm_pgid_t) src[i].parent };
    add_map(avrm_map_build_multi_compact(ctx, pars, 3, src, n, &maps[nmaps].m), ref, n);
    /* 6: world then group 1 (intercomm merge): join */
    n = 0;
    for (uint32_t r = 0; r < W; r++) src[n++] = (avrm_src_t) { 0, (int32_t) r };
    for (uint32_t r = 0; r < G1; r++) src[n++] = (avrm_src_t) { 1, (int32_t) r };
    for (uint32_t i = 0; i < n; i++)
        ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) src[i].rank, .pgid = (avrm_pgid_t) src[i].parent };
    add_map(avrm_map_build_multi(ctx, pars, 2, src, n, &maps[nmaps].m), ref, n);
    /* 7: group 3 (computed in the first case) and group 1 interleaved:
     * the generic path reads the computed AV's locality through ctx->avs */
    n = 0;
    for (uint32_t r = 0; r < G3; r++) {
        src[n++] = (avrm_src_t) { 3, (int32_t) (G3 - 1 - r) };
        if (r % 2) src[n++] = (avrm_src_t) { 1, (int32_t) r };
    }
    for (uint32_t i = 0; i < n; i++)
        ref[i] = (avrm_gpid_t) { .lpid = (avrm_lpid_t) src[i].rank, .pgid = (avrm_pgid_t) src[i].parent };
    add_map(avrm_map_build_multi(ctx, pars, 4, src, n, &maps[nmaps].m), ref, n);
    /* 8: group 2 every other process, from gpids: stride (table if none) */
    n = 0;
    for (uint32_t l = 1; l < G2; l += 2) ref[n++] = (avrm_gpid_t) { .lpid = l, .pgid = 2 };
    add_map(avrm_map_build_gpids(ctx, ref, n, &maps[nmaps].m), ref, n);
    /* 9: the on-demand AV's group (direct), its words resolved by the writer */
    for (uint32_t l = 0; l < LZ; l++) ref[l] = (avrm_gpid_t) { .lpid = l, .pgid = LZ_PG };
    maps[nmaps].ondemand = 1;
    add_map(avrm_map_init_group(ctx, LZ_PG, &maps[nmaps].m), ref, LZ);
    avrm_map_release(ctx, &g1);
    avrm_map_release(ctx, &g2);
    avrm_map_release(ctx, &g3);
    if (nmaps != NMAPS) return;

    /* the references hold before any thread starts */
    reader_t rd[NREADERS];
    memset(rd, 0, sizeof(rd));
    reader_pass(&rd[0], 0);
    CHECK(rd[0].bad == 0);
    if (rd[0].bad) fprintf(stderr, "  before the threads: %s\n", rd[0].first);
    memset(rd, 0, sizeof(rd));

    uint32_t navs0 = ctx->navs;
    pthread_t wt;
    for (int i = 0; i < NREADERS; i++) CHECK(pthread_create(&rd[i].th, NULL, reader_main, &rd[i]) == 0);
    CHECK(pthread_create(&wt, NULL, writer_main, &computed) == 0);
    pthread_join(wt, NULL);
    long passes = 0;
    for (int i = 0; i < NREADERS; i++) {
        pthread_join(rd[i].th, NULL);
        CHECK(rd[i].bad == 0);
        if (rd[i].bad) fprintf(stderr, "  reader %d: %ld wrong answers, first: %s\n", i, rd[i].bad, rd[i].first);
        passes += rd[i].passes;
    }
    CHECK(writer_errors == 0);
    if (writer_errors) fprintf(stderr, "  writer: %ld wrong maps or failed calls\n", writer_errors);
    CHECK(writer_navs_grew >= 5 && passes >= 2 * NREADERS);
    printf("  %d readers: %ld passes over", NREADERS, passes);
    for (int k = 0; k < nmaps; k++) printf(" %s", avrm_mode_name((avrm_mode_t) maps[k].m.mode));
    printf("; writer: %d AVs, ctx->avs grew %u times (%u -> %u slots)\n", WRITER_AVS,
           writer_navs_grew, navs0, ctx->navs);

    for (int k = 0; k < nmaps; k++) {
        avrm_rank_index_free(ctx, maps[k].idx);
        avrm_map_release(ctx, &maps[k].m);
        free(maps[k].ref);
        free(maps[k].ave);
    }
    avrm_stats_t st;
    avrm_ctx_stats(ctx, &st);
    CHECK(st.map_bytes == 0 && st.ntables == 0 && st.rank_index_bytes == 0);
    avrm_ctx_destroy(ctx);
    ctx = NULL;
}

/* default parameters, computed AVs on: regular modes, lut16, ilut, mseg, join */
static void test_default_params(void)
{
    avrm_params_t p = avrm_params_default();
    p.computed_av = 1;
    run_case(&p, 1);
}

/* tables only: every irregular map a (shared) lut or mlut table */
static void test_tables_only(void)
{
    avrm_params_t p = avrm_params_default();
    p.enable_lut16 = p.enable_ilut = p.enable_mseg = 0;
    run_case(&p, 0);
}

int main(void)
{
    RUN(test_default_params);
    RUN(test_tables_only);
    return tu_finish();
}
