/*
 * lookup.c - bench-lookup: cost of rank -> address translation per mode.
 *
 *   bench-lookup [-n N] [-k K] [-r reps] [-o out.csv]     ns per lookup
 *   bench-lookup --insns [-n N] [-k K]                    loops for callgrind
 *
 * ns mode: for each mode one map is built through the API (bench/common),
 * then K lookups of avrm_map_addr() over a sequential and a random rank
 * stream are timed (best of reps), next to a MODEL of MPICH 4.0.2's lut
 * path (4-byte rank table + 72-byte AV entries, fi_addr in dest[0][0]).
 * --insns: runs loop_<mode> (K lookups) and loop_empty (same loop, trivial
 * body) once each; bench/tools/insns.sh runs it under
 * `valgrind --tool=callgrind --toggle-collect=loop_*` and prints
 * (Ir(loop_<mode>) - Ir(loop_empty)) / K.
 * Each iteration passes the map and context through an empty asm so the
 * compiler reloads them like a real call site (no hoisting out of the loop).
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/maps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BARRIER2(a, b) __asm__ volatile("" : "+r"(a), "+r"(b))

#define DEFINE_LOOP(name)                                                              \
    __attribute__((noinline)) uint64_t loop_##name(const avrm_ctx_t *ctx,              \
            const avrm_rankmap_t *m, const uint32_t *rk, size_t K)                    \
    {                                                                                  \
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
DEFINE_LOOP(lut)
DEFINE_LOOP(lut16)
DEFINE_LOOP(mlut)
DEFINE_LOOP(mseg)
DEFINE_LOOP(direct_computed)
DEFINE_LOOP(stride_computed)

typedef uint64_t (*loop_fn)(const avrm_ctx_t *, const avrm_rankmap_t *, const uint32_t *, size_t);
static const loop_fn loops[BK_NKINDS] = {
    loop_direct, loop_offset, loop_stride, loop_block, loop_except,
    loop_grid, loop_lut, loop_lut16, loop_mlut, loop_mseg
};

__attribute__((noinline)) uint64_t loop_empty(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                              const uint32_t *rk, size_t K)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < K; i++) {
        const avrm_ctx_t *c = ctx; const avrm_rankmap_t *mm = m;
        BARRIER2(c, mm);
        acc += rk[i];
    }
    return acc;
}

/* MODEL of MPICH 4.0.2 CH4 lut mode: comm->map.irreg.lut.lpid[r] -> av_table->table[lpid]
 * (72-byte MPIDI_av_entry_t: fi_addr_t dest[8][1] + is_local) -> dest[0][0] */
typedef struct model_ave { uint64_t dest[8]; uint8_t is_local; } model_ave_t;
_Static_assert(sizeof(model_ave_t) == 72, "72-byte CH4 AV entry");
typedef struct model_lut { const int32_t *lpid; const model_ave_t *tbl; } model_lut_t;

__attribute__((noinline)) uint64_t loop_model_ch4_lut(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                                      const uint32_t *rk, size_t K)
{
    (void) ctx;
    const model_lut_t *ml0 = (const model_lut_t *) (const void *) m;
    uint64_t acc = 0;
    for (size_t i = 0; i < K; i++) {
        const model_lut_t *ml = ml0; const avrm_ctx_t *c = ctx;
        BARRIER2(c, ml);
        acc += ml->tbl[ml->lpid[rk[i]]].dest[0];
    }
    return acc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static double time_loop(loop_fn f, const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
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
        else if (!strcmp(argv[i], "--insns")) insns = 1;
        else { fprintf(stderr, "usage: %s [--insns] [-n N] [-k K] [-r reps] [-o csv]\n", argv[0]); return 1; }
    }
    bk_world_t w, wc, wp;
    avrm_params_t pp = avrm_params_default();
    pp.enable_mseg = 0;      /* a true mlut: with mseg on, a random mix of two groups may become mseg */
    if (bk_world_init(&w, N, 0) || bk_world_init(&wc, N, 1) || bk_world_init_params(&wp, N, &pp)) {
        fprintf(stderr, "world init failed\n");
        return 1;
    }
    avrm_rankmap_t maps[BK_NKINDS];
    uint32_t sizes[BK_NKINDS];
    for (int k = 0; k < BK_NKINDS; k++) {
        int32_t *mp; avrm_src_t *sp;
        sizes[k] = bk_input(&w, k, &mp, &sp);
        bk_world_t *wk = k == BK_MLUT ? &wp : &w;
        if (bk_build(wk, k, mp, sp, sizes[k], &maps[k]) != AVRM_OK) { fprintf(stderr, "build %s failed\n", bk_kind_name[k]); return 1; }
        free(mp); free(sp);
    }
    /* computed-AV variants: direct and stride over a computed world AV */
    avrm_rankmap_t cdirect, cstride;
    {
        int32_t *mp; avrm_src_t *sp;
        uint32_t n = bk_input(&wc, BK_DIRECT, &mp, &sp);
        if (bk_build(&wc, BK_DIRECT, mp, sp, n, &cdirect) != AVRM_OK) return 1;
        free(mp);
        n = bk_input(&wc, BK_STRIDE, &mp, &sp);
        if (bk_build(&wc, BK_STRIDE, mp, sp, n, &cstride) != AVRM_OK) return 1;
        free(mp);
    }
    /* MODEL: MPICH 4.0.2 lut over 72-byte entries, same random order as our lut */
    model_ave_t *mtbl = calloc(N, sizeof *mtbl);
    int32_t *mlpid = malloc((size_t) N * 4);
    bk_shuffle32(mlpid, N, 7);
    for (uint32_t i = 0; i < N; i++) mtbl[i].dest[0] = i;
    model_lut_t ml = { mlpid, mtbl };
    const avrm_rankmap_t *mlp = (const avrm_rankmap_t *) (const void *) &ml;

    uint32_t *seq = malloc(K * 4), *rnd = malloc(K * 4);
    if (!seq || !rnd) return 1;
    if (insns) {
        /* one pass each; the sequential stream; callgrind counts per function */
        for (int k = 0; k < BK_NKINDS; k++) {
            streams(sizes[k], K, seq, rnd, 1);
            sink += loops[k](k == BK_MLUT ? wp.ctx : w.ctx, &maps[k], seq, K);
            printf("mode %s actual %s n %u\n", bk_kind_name[k], avrm_mode_name((avrm_mode_t) maps[k].mode), sizes[k]);
        }
        streams(cdirect.size, K, seq, rnd, 1);
        sink += loop_direct_computed(wc.ctx, &cdirect, seq, K);
        printf("mode direct_computed actual %s n %u\n", avrm_mode_name((avrm_mode_t) cdirect.mode), cdirect.size);
        streams(cstride.size, K, seq, rnd, 1);
        sink += loop_stride_computed(wc.ctx, &cstride, seq, K);
        printf("mode stride_computed actual %s n %u\n", avrm_mode_name((avrm_mode_t) cstride.mode), cstride.size);
        streams(N, K, seq, rnd, 1);
        sink += loop_model_ch4_lut(NULL, mlp, seq, K);
        sink += loop_empty(w.ctx, &maps[0], seq, K);
        printf("K %zu\n", K);
        return 0;
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 1; }
    fprintf(f, "impl,label,mode,actual_mode,n,ns_seq,ns_rand,ns_empty_seq,ns_empty_rand\n");
    printf("%-28s %-7s %-8s %9s %8s %8s\n", "impl/mode", "label", "actual", "n", "ns seq", "ns rand");
    for (int k = -3; k < BK_NKINDS; k++) {
        const avrm_ctx_t *ctx = w.ctx;
        const avrm_rankmap_t *m;
        loop_fn fn;
        const char *impl = "ours", *label = "OURS", *mode;
        char actual[32];
        if (k == -3) { m = mlp; fn = loop_model_ch4_lut; impl = "MODEL-ch4-4.0.2"; label = "MODEL"; mode = "lut"; ctx = NULL; }
        else if (k == -2) { m = &cdirect; fn = loop_direct_computed; ctx = wc.ctx; impl = "ours-computed"; mode = "direct"; }
        else if (k == -1) { m = &cstride; fn = loop_stride_computed; ctx = wc.ctx; impl = "ours-computed"; mode = "stride"; }
        else { m = &maps[k]; fn = loops[k]; mode = bk_kind_name[k]; if (k == BK_MLUT) { ctx = wp.ctx; impl = "ours-mseg-off"; } }
        uint32_t n = k == -3 ? N : m->size;
        snprintf(actual, sizeof actual, "%s", k == -3 ? "lut" : avrm_mode_name((avrm_mode_t) m->mode));
        streams(n, K, seq, rnd, 12345);
        double ts = time_loop(fn, ctx, m, seq, K, reps);
        double tr = time_loop(fn, ctx, m, rnd, K, reps);
        double es = time_loop(loop_empty, ctx, m, seq, K, reps);
        double er = time_loop(loop_empty, ctx, m, rnd, K, reps);
        fprintf(f, "%s,%s,%s,%s,%u,%.3f,%.3f,%.3f,%.3f\n", impl, label, mode, actual, n, ts, tr, es, er);
        char nm[64];
        snprintf(nm, sizeof nm, "%s/%s", impl, mode);
        printf("%-28s %-7s %-8s %9u %8.2f %8.2f\n", nm, label, actual, n, ts, tr);
    }
    fclose(f);
    for (int k = 0; k < BK_NKINDS; k++) avrm_map_release(k == BK_MLUT ? wp.ctx : w.ctx, &maps[k]);
    bk_world_fini(&wp);
    avrm_map_release(wc.ctx, &cdirect);
    avrm_map_release(wc.ctx, &cstride);
    bk_world_fini(&w);
    bk_world_fini(&wc);
    free(mtbl); free(mlpid); free(seq); free(rnd);
    return 0;
}
