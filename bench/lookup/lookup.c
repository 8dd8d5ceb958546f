/*
 * lookup.c - bench-lookup: cost of rank -> address translation per mode.
 *
 *   bench-lookup [-n N] [-k K] [-r reps] [-o out.csv] [-w]     ns per lookup
 *   bench-lookup --insns [-n N] [-k K]                    loops for callgrind
 *
 * ours: for each mode one map is built through the API (bench/common;
 * `mlut32` mixes two groups, `mlut` is the same mix with the second group
 * at pgid 256, which the 4-byte packing cannot hold; `join` is world then
 * spawned, `mseg` three runs), then K lookups of
 * avrm_map_addr() over a sequential and a random rank stream are timed
 * (best of reps).
 * MODEL: MPICH 4.0.2 CH4's MPIDIU_comm_rank_to_av() (ch4_proc.h: the switch
 * over the 11 MPIDI_RANK_MAP_* modes, av_table0 / av_tables[avtid], 72-byte
 * MPIDI_av_entry_t) followed by MPIDI_OFI_av_to_phys() with scalable
 * endpoints off at compile time (dest[0][0]), on the same inputs for the
 * modes CH4 has (direct, offset, stride, block = STRIDE_BLOCK, lut, mlut;
 * the *_INTRA variants, as for a world-derived comm).
 * --insns: runs every loop once (K lookups, sequential stream) and
 * loop_empty (same loop, trivial body); run-core.sh runs it under
 * `valgrind --tool=callgrind --toggle-collect=loop_*` and report.py prints
 * (Ir(loop_<x>) - Ir(loop_empty)) / K.
 * Each iteration passes the map and context (MODEL: the AV-table manager,
 * MPICH's MPIDI_global.avt_mgr) through an empty asm so the compiler
 * reloads them like a real call site (no hoisting out of the loop).
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/maps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BARRIER2(a, b) __asm__ volatile("" : "+r"(a), "+r"(b))

#define DEFINE_LOOP(name)                                                              \
    __attribute__((noinline)) uint64_t loop_##name(const void *ctx0,                   \
            const void *m0, const uint32_t *rk, size_t K)                              \
    {                                                                                  \
        const avrm_ctx_t *ctx = ctx0; const avrm_rankmap_t *m = m0;                    \
        uint64_t acc = 0;                                                              \
        for (size_t i = 0; i < K; i++) {                                               \
            const avrm_ctx_t *c = ctx; const avrm_rankmap_t *mm = m;                   \
            BARRIER2(c, mm);                                                           \
            acc += avrm_map_addr(c, mm, rk[i]);                                        \
        }                                                                              \
        return acc;                                                                    \
    }
DEFINE_LOOP(direct)
DEFINE_LOOP(offset)
DEFINE_LOOP(stride)
DEFINE_LOOP(block)
DEFINE_LOOP(except)
DEFINE_LOOP(grid)
DEFINE_LOOP(ilut)
DEFINE_LOOP(lut)
DEFINE_LOOP(lut16)
DEFINE_LOOP(mlut32)
DEFINE_LOOP(mlut)
DEFINE_LOOP(join)
DEFINE_LOOP(mseg)
DEFINE_LOOP(direct_computed)
DEFINE_LOOP(stride_computed)
DEFINE_LOOP(ilut_computed)
DEFINE_LOOP(lut_computed)
DEFINE_LOOP(lut16_computed)

typedef uint64_t (*loop_fn)(const void *, const void *, const uint32_t *, size_t);
static const loop_fn loops[BK_NKINDS] = {
    loop_direct, loop_offset, loop_stride, loop_block, loop_except,
    loop_grid, loop_ilut, loop_lut, loop_lut16, loop_mlut32, loop_mlut, loop_join, loop_mseg
};

__attribute__((noinline)) uint64_t loop_empty(const void *ctx, const void *m,
                                              const uint32_t *rk, size_t K)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < K; i++) {
        const void *c = ctx, *mm = m;
        BARRIER2(c, mm);
        acc += rk[i];
    }
    return acc;
}

/* ---- MODEL of MPICH 4.0.2 CH4 (layouts from mpidpre.h / ch4_types.h) ---- */
typedef struct model_ave { uint64_t dest[8]; uint8_t is_local; } model_ave_t;   /* dest[nic][1] */
_Static_assert(sizeof(model_ave_t) == 72, "72-byte CH4 AV entry");
typedef struct model_avt { int handle, ref_count, size, pad; model_ave_t table[]; } model_avt_t;
typedef struct model_mgr { int max_n_avts, n_avts, n_free; model_avt_t *av_table0, **av_tables; } model_mgr_t;
typedef struct model_gpid { int avtid, lpid; } model_gpid_t;
enum {   /* MPIDI_rank_map_mode */
    M_DIRECT, M_DIRECT_INTRA, M_OFFSET, M_OFFSET_INTRA, M_STRIDE, M_STRIDE_INTRA,
    M_STRIDE_BLOCK, M_STRIDE_BLOCK_INTRA, M_LUT, M_LUT_INTRA, M_MLUT, M_NONE
};
typedef struct model_map {   /* MPIDI_rank_map_t */
    int mode, avtid, size;
    union { int offset; struct { int offset, stride, blocksize; } stride; } reg;
    union { struct { void *t; int *lpid; } lut; struct { void *t; model_gpid_t *gpid; } mlut; } irreg;
} model_map_t;

static inline __attribute__((always_inline)) uint64_t model_addr(const model_mgr_t *g,
                                                                 const model_map_t *m, int rank)
{
    const model_ave_t *ret = NULL;
    int lpid;
    switch (m->mode) {
    case M_DIRECT: ret = &g->av_tables[m->avtid]->table[rank]; break;
    case M_DIRECT_INTRA: ret = &g->av_table0->table[rank]; break;
    case M_OFFSET: ret = &g->av_tables[m->avtid]->table[rank + m->reg.offset]; break;
    case M_OFFSET_INTRA: ret = &g->av_table0->table[rank + m->reg.offset]; break;
    case M_STRIDE:
        lpid = rank * m->reg.stride.stride + m->reg.stride.offset;
        ret = &g->av_tables[m->avtid]->table[lpid]; break;
    case M_STRIDE_INTRA:
        lpid = rank * m->reg.stride.stride + m->reg.stride.offset;
        ret = &g->av_table0->table[lpid]; break;
    case M_STRIDE_BLOCK:
        lpid = rank / m->reg.stride.blocksize * (m->reg.stride.stride - m->reg.stride.blocksize)
               + rank + m->reg.stride.offset;
        ret = &g->av_tables[m->avtid]->table[lpid]; break;
    case M_STRIDE_BLOCK_INTRA:
        lpid = rank / m->reg.stride.blocksize * (m->reg.stride.stride - m->reg.stride.blocksize)
               + rank + m->reg.stride.offset;
        ret = &g->av_table0->table[lpid]; break;
    case M_LUT: ret = &g->av_tables[m->avtid]->table[m->irreg.lut.lpid[rank]]; break;
    case M_LUT_INTRA: ret = &g->av_table0->table[m->irreg.lut.lpid[rank]]; break;
    case M_MLUT:
        ret = &g->av_tables[m->irreg.mlut.gpid[rank].avtid]->table[m->irreg.mlut.gpid[rank].lpid];
        break;
    default: __builtin_unreachable();   /* MPIR_Assert(0) in MPICH */
    }
    return ret->dest[0];
}

#define DEFINE_MODEL_LOOP(name)                                                        \
    __attribute__((noinline)) uint64_t loop_model_##name(const void *g0, const void *m0, \
                                                         const uint32_t *rk, size_t K)  \
    {                                                                                  \
        const model_mgr_t *g = g0; const model_map_t *m = m0;                          \
        uint64_t acc = 0;                                                              \
        for (size_t i = 0; i < K; i++) {                                               \
            const model_mgr_t *gg = g; const model_map_t *mm = m;                      \
            BARRIER2(gg, mm);                                                          \
            acc += model_addr(gg, mm, (int) rk[i]);                                    \
        }                                                                              \
        return acc;                                                                    \
    }
DEFINE_MODEL_LOOP(direct)
DEFINE_MODEL_LOOP(offset)
DEFINE_MODEL_LOOP(stride)
DEFINE_MODEL_LOOP(block)
DEFINE_MODEL_LOOP(lut)
DEFINE_MODEL_LOOP(mlut)

enum { MK_DIRECT, MK_OFFSET, MK_STRIDE, MK_BLOCK, MK_LUT, MK_MLUT, MK_N };
static const char *const mk_name[MK_N] = { "direct", "offset", "stride", "block", "lut", "mlut" };
static const int mk_kind[MK_N] = { BK_DIRECT, BK_OFFSET, BK_STRIDE, BK_BLOCK, BK_LUT, BK_MLUT };
static const loop_fn mk_loop[MK_N] = {
    loop_model_direct, loop_model_offset, loop_model_stride, loop_model_block,
    loop_model_lut, loop_model_mlut
};

static model_avt_t *model_avt(uint32_t n, uint64_t base)
{
    model_avt_t *t = calloc(1, sizeof *t + (size_t) n * sizeof(model_ave_t));
    if (!t) return NULL;
    t->size = (int) n;
    for (uint32_t i = 0; i < n; i++) t->table[i].dest[0] = base + i;
    return t;
}

/* the CH4 maps for the same inputs as bk_input (see bench/common/maps.c) */
static int model_maps(const bk_world_t *w, model_mgr_t *g, model_map_t *mm, uint32_t *sizes)
{
    uint32_t N = w->n;
    g->av_tables = calloc(2, sizeof *g->av_tables);
    if (!g->av_tables) return -1;
    g->av_tables[0] = g->av_table0 = model_avt(N, 0);
    g->av_tables[1] = model_avt(w->m, N);
    if (!g->av_table0 || !g->av_tables[1]) return -1;
    g->max_n_avts = g->n_avts = 2;
    memset(mm, 0, MK_N * sizeof *mm);
    for (int k = 0; k < MK_N; k++) {
        int32_t *mp; avrm_src_t *sp;
        sizes[k] = bk_input(w, mk_kind[k], &mp, &sp);
        model_map_t *m = &mm[k];
        m->size = (int) sizes[k];
        switch (k) {
        case MK_DIRECT: m->mode = M_DIRECT_INTRA; break;
        case MK_OFFSET: m->mode = M_OFFSET_INTRA; m->reg.offset = mp[0]; break;
        case MK_STRIDE: m->mode = M_STRIDE_INTRA; m->reg.stride.offset = mp[0];
                        m->reg.stride.stride = mp[1] - mp[0]; break;
        case MK_BLOCK:  m->mode = M_STRIDE_BLOCK_INTRA; m->reg.stride.offset = mp[0];
                        m->reg.stride.blocksize = 4; m->reg.stride.stride = 16; break;
        case MK_LUT:    m->mode = M_LUT_INTRA; m->irreg.lut.lpid = (int *) mp; mp = NULL; break;
        case MK_MLUT: {
            model_gpid_t *gp = malloc((size_t) sizes[k] * sizeof *gp);
            if (!gp) return -1;
            for (uint32_t i = 0; i < sizes[k]; i++) { gp[i].avtid = (int) sp[i].parent; gp[i].lpid = sp[i].rank; }
            m->mode = M_MLUT;
            m->irreg.mlut.gpid = gp;
            break;
        }
        }
        /* check against the definition */
        for (uint32_t i = 0; i < sizes[k]; i++) {
            uint64_t want = mp ? (uint64_t) mp[i] : sp ? (sp[i].parent ? N : 0) + (uint64_t) sp[i].rank
                                                     : (uint64_t) m->irreg.lut.lpid[i];
            if (model_addr(g, m, (int) i) != want) {
                fprintf(stderr, "MODEL %s wrong at rank %u\n", mk_name[k], i);
                return -1;
            }
        }
        free(mp); free(sp);
    }
    return 0;
}

static void model_free(model_mgr_t *g, model_map_t *mm)
{
    free(mm[MK_LUT].irreg.lut.lpid);
    free(mm[MK_MLUT].irreg.mlut.gpid);
    free(g->av_tables[0]); free(g->av_tables[1]); free(g->av_tables);
}

/* Thread CPU time by default: on a shared CPU, time slices given to other
 * processes are not counted (caches stay shared). -w: wall clock. */
static clockid_t clk = CLOCK_THREAD_CPUTIME_ID;
static double now(void)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static double time_loop(loop_fn f, const void *ctx, const void *m,
                        const uint32_t *rk, size_t K, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        sink += f(ctx, m, rk, K);
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    return best * 1e9 / (double) K;
}

static void streams(uint32_t n, size_t K, uint32_t *seq, uint32_t *rnd, uint64_t seed)
{
    for (size_t i = 0; i < K; i++) {
        seq[i] = (uint32_t) (i % n);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        rnd[i] = (uint32_t) ((seed >> 33) % n);
    }
}

int main(int argc, char **argv)
{
    uint32_t N = 1u << 20;
    size_t K = 4u << 20;
    int reps = 5, insns = 0;
    const char *out = "bench/out/lookup.csv";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) N = (uint32_t) strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-k") && i + 1 < argc) K = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "-w")) clk = CLOCK_MONOTONIC;
        else if (!strcmp(argv[i], "--insns")) insns = 1;
        else { fprintf(stderr, "usage: %s [--insns] [-n N] [-k K] [-r reps] [-o csv] [-w]\n", argv[0]); return 1; }
    }
    bk_world_t w, wc, wp;    /* wp: spawned AV at pgid 256, for the 8-byte MLUT (default params) */
    avrm_params_t pp = avrm_params_default();
    if (bk_world_init(&w, N, 0) || bk_world_init(&wc, N, 1) ||
        bk_world_init_pg(&wp, N, &pp, bk_kind_pgid(BK_MLUT))) {
        fprintf(stderr, "world init failed\n");
        return 1;
    }
    avrm_rankmap_t maps[BK_NKINDS];
    uint32_t sizes[BK_NKINDS];
    for (int k = 0; k < BK_NKINDS; k++) {
        int32_t *mp; avrm_src_t *sp;
        bk_world_t *wk = k == BK_MLUT ? &wp : &w;
        sizes[k] = bk_input(wk, k, &mp, &sp);
        if (bk_build(wk, k, mp, sp, sizes[k], &maps[k]) != AVRM_OK) { fprintf(stderr, "build %s failed\n", bk_kind_name[k]); return 1; }
        if (maps[k].mode != bk_kind_mode[k])
            fprintf(stderr, "bench-lookup: kind %s built as mode %s\n", bk_kind_name[k],
                    avrm_mode_name((avrm_mode_t) maps[k].mode));
        free(mp); free(sp);
    }
    /* computed-AV variants: the modes with a computed class, over a
     * computed world AV */
    enum { NCOMP = 5 };
    static const int ckind[NCOMP] = { BK_DIRECT, BK_STRIDE, BK_ILUT, BK_LUT, BK_LUT16 };
    static const loop_fn cloop[NCOMP] = { loop_direct_computed, loop_stride_computed,
                                          loop_ilut_computed, loop_lut_computed,
                                          loop_lut16_computed };
    avrm_rankmap_t cmaps[NCOMP];
    for (int c = 0; c < NCOMP; c++) {
        int32_t *mp; avrm_src_t *sp;
        uint32_t n = bk_input(&wc, ckind[c], &mp, &sp);
        if (ckind[c] == BK_ILUT && n > AVRM_CILUT_MAX) n = AVRM_CILUT_MAX;  /* its computed class */
        if (bk_build(&wc, ckind[c], mp, sp, n, &cmaps[c]) != AVRM_OK) return 1;
        free(mp);
    }
    model_mgr_t mg;
    model_map_t mmaps[MK_N];
    uint32_t msizes[MK_N];
    memset(&mg, 0, sizeof mg);
    if (model_maps(&w, &mg, mmaps, msizes)) { fprintf(stderr, "MODEL setup failed\n"); return 1; }

    /* rows: ours kinds, ours computed, MODEL kinds */
    enum { NROWS = BK_NKINDS + NCOMP + MK_N };
    struct row { const char *impl, *label, *mode, *fname; char actual[24]; loop_fn fn;
                 const void *ctx, *m; uint32_t n; } rows[NROWS];
    int nr = 0;
    for (int k = 0; k < BK_NKINDS; k++) {
        struct row *r = &rows[nr++];
        *r = (struct row) { k == BK_MLUT ? "ours-pgid256" : "ours", "OURS", bk_kind_name[k],
                            bk_kind_name[k], "", loops[k], k == BK_MLUT ? wp.ctx : w.ctx, &maps[k], sizes[k] };
        snprintf(r->actual, sizeof r->actual, "%s", avrm_mode_name((avrm_mode_t) maps[k].mode));
    }
    for (int c = 0; c < NCOMP; c++) {
        static char cfn[NCOMP][24];
        snprintf(cfn[c], sizeof cfn[c], "%s_computed", bk_kind_name[ckind[c]]);
        rows[nr] = (struct row) { "ours-computed", "OURS", bk_kind_name[ckind[c]], cfn[c], "",
                                  cloop[c], wc.ctx, &cmaps[c], cmaps[c].size };
        snprintf(rows[nr].actual, 24, "%s", avrm_mode_name((avrm_mode_t) cmaps[c].mode));
        nr++;
    }
    static char mfn[MK_N][24];
    for (int k = 0; k < MK_N; k++) {
        snprintf(mfn[k], sizeof mfn[k], "model_%s", mk_name[k]);
        rows[nr] = (struct row) { "MODEL-ch4-4.0.2", "MODEL", mk_name[k], mfn[k], "", mk_loop[k],
                                  &mg, &mmaps[k], msizes[k] };
        snprintf(rows[nr].actual, 24, "%s", mk_name[k]); nr++;
    }

    uint32_t *seq = malloc(K * 4), *rnd = malloc(K * 4);
    if (!seq || !rnd) return 1;
    if (insns) {
        /* one pass each over the sequential stream; callgrind counts per function */
        for (int i = 0; i < nr; i++) {
            streams(rows[i].n, K, seq, rnd, 1);
            sink += rows[i].fn(rows[i].ctx, rows[i].m, seq, K);
            printf("mode %s actual %s n %u impl %s\n", rows[i].fname, rows[i].actual, rows[i].n, rows[i].impl);
        }
        streams(N, K, seq, rnd, 1);
        sink += loop_empty(w.ctx, &maps[0], seq, K);
        printf("K %zu\n", K);
    } else {
        FILE *f = fopen(out, "w");
        if (!f) { perror(out); return 1; }
        fprintf(f, "impl,label,mode,actual_mode,n,ns_seq,ns_rand,ns_empty_seq,ns_empty_rand\n");
        printf("clock: %s; best of %d; K = %zu lookups per run\n",
               clk == CLOCK_MONOTONIC ? "wall" : "thread CPU time", reps, K);
        printf("%-28s %-7s %-8s %9s %8s %8s\n", "impl/mode", "label", "actual", "n", "ns seq", "ns rand");
        for (int i = 0; i < nr; i++) {
            struct row *r = &rows[i];
            streams(r->n, K, seq, rnd, 12345);
            double ts = time_loop(r->fn, r->ctx, r->m, seq, K, reps);
            double tr = time_loop(r->fn, r->ctx, r->m, rnd, K, reps);
            double es = time_loop(loop_empty, r->ctx, r->m, seq, K, reps);
            double er = time_loop(loop_empty, r->ctx, r->m, rnd, K, reps);
            fprintf(f, "%s,%s,%s,%s,%u,%.3f,%.3f,%.3f,%.3f\n", r->impl, r->label, r->mode, r->actual,
                    r->n, ts, tr, es, er);
            char nm[64];
            snprintf(nm, sizeof nm, "%s/%s", r->impl, r->mode);
            printf("%-28s %-7s %-8s %9u %8.2f %8.2f\n", nm, r->label, r->actual, r->n, ts, tr);
        }
        fclose(f);
    }
    for (int k = 0; k < BK_NKINDS; k++) avrm_map_release(k == BK_MLUT ? wp.ctx : w.ctx, &maps[k]);
    for (int c = 0; c < NCOMP; c++) avrm_map_release(wc.ctx, &cmaps[c]);
    bk_world_fini(&wp);
    bk_world_fini(&w);
    bk_world_fini(&wc);
    model_free(&mg, mmaps);
    free(seq); free(rnd);
    return 0;
}
