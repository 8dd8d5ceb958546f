/*
 * translate.c - bench-translate: each strategy of avrm_map_translate
 * (MPI_Group_translate_ranks' batch, avrm_find.c) alone, on the pair of
 * maps that selects it, against the per-rank avrm_map_find loop that every
 * strategy replaces (the last resort of translate_other), on the same
 * input. One row per case and world size: ns per translated rank of each,
 * best of reps, thread CPU time; the rank index's kept bytes; both answers
 * checked equal (exit 1 otherwise: a wrong strategy must not be timed).
 *
 * The strategy a case takes follows from the maps' modes and the index
 * kind, by avrm_find.h's rules; the case checks those preconditions (the
 * modes built, the index dense or sorted) and exits 1 when the library
 * builds something else, so a row never names a strategy it did not run.
 *
 *   bench-translate [-n N[,N...]] [-r reps] [-o out.csv]
 */
#define _POSIX_C_SOURCE 200809L
#include "avrm/avrm.h"
#include "avrm/avrm_find.h"
#include "../common/maps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* what the case expects of m2 (so that the strategy named is the one run) */
enum need { NEED_DENSE_INDEX, NEED_NO_INDEX, NEED_SORTED_INDEX };

/* A group map of a case: the world, a map of bench/common's kinds (BK_*,
 * through bk_input), or one of these two of its own */
enum { G_WORLD = -1, G_WORLD_MINUS_3 = -2, G_EVERY_3RD_PERMUTED = -3 };

typedef struct tcase {
    const char *name, *strategy, *what;
    int m1, m2;                     /* G_* or BK_* */
    int m2_reversed;                /* m2's ranks in reverse order */
    avrm_mode_t m1_mode, m2_mode;   /* LUT stands for LUT16 too (worlds <= 64K) */
    enum need need;
} tcase_t;

static const tcase_t cases[] = {
    { "lut-from-world", "dense-index", "world into a permuted world (dense index kept)",
      G_WORLD, BK_LUT, 0, AVRM_MODE_DIRECT, AVRM_MODE_LUT, NEED_DENSE_INDEX },
    { "world-minus-3", "ascending-runs", "world into the world minus 3 ranks",
      G_WORLD, G_WORLD_MINUS_3, 0, AVRM_MODE_DIRECT, AVRM_MODE_MSEG, NEED_NO_INDEX },
    { "sparse-lut", "dense-pass", "world into every 3rd rank permuted (sorted index)",
      G_WORLD, G_EVERY_3RD_PERMUTED, 0, AVRM_MODE_DIRECT, AVRM_MODE_LUT, NEED_SORTED_INDEX },
    { "block", "dense-pass", "world into 4 of every 16 ranks (closed-form find)",
      G_WORLD, BK_BLOCK, 0, AVRM_MODE_DIRECT, AVRM_MODE_BLOCK, NEED_NO_INDEX },
    { "join-into-mlut", "galloping", "world+spawned in order into them permuted (sorted index)",
      BK_JOIN, BK_MLUT32, 0, AVRM_MODE_JOIN, AVRM_MODE_MLUT32, NEED_SORTED_INDEX },
    { "mlut-into-mlut", "index-search", "world+spawned permuted into that permutation reversed",
      BK_MLUT32, BK_MLUT32, 1, AVRM_MODE_MLUT32, AVRM_MODE_MLUT32, NEED_SORTED_INDEX },
    { "mseg-into-join", "per-rank-find", "world split by spawned into world then spawned",
      BK_MSEG, BK_JOIN, 0, AVRM_MODE_MSEG, AVRM_MODE_JOIN, NEED_NO_INDEX },
};
enum { NCASES = sizeof(cases) / sizeof(cases[0]) };

/* Group map g of world w (in reverse rank order when reversed), built as
 * MPI groups are (the compact builders) */
static avrm_status_t build_group(bk_world_t *w, int g, int reversed, avrm_rankmap_t *out)
{
    if (g == G_WORLD) {
        avrm_map_dup(w->ctx, &w->world, out);
        return AVRM_OK;
    }
    uint32_t N = w->n, n = 0;
    int32_t *map = NULL;
    avrm_src_t *src = NULL;
    if (g >= 0) {
        n = bk_input(w, g, &map, &src);
    } else if ((map = malloc((size_t) N * sizeof *map))) {
        if (g == G_WORLD_MINUS_3) {         /* ranks N/4, N/2, 3N/4 left out */
            for (uint32_t r = 0; r < N; r++)
                if (r != N / 4 && r != N / 2 && r != 3 * (N / 4)) map[n++] = (int32_t) r;
        } else {                            /* G_EVERY_3RD_PERMUTED: span 3 x size */
            n = N / 3;
            bk_shuffle32(map, n, 12);
            for (uint32_t i = 0; i < n; i++) map[i] *= 3;
        }
    }
    if (!map && !src) return AVRM_ERR_NOMEM;
    for (uint32_t i = 0; reversed && i < n / 2; i++) {
        if (map) { int32_t t = map[i]; map[i] = map[n - 1 - i]; map[n - 1 - i] = t; }
        else { avrm_src_t t = src[i]; src[i] = src[n - 1 - i]; src[n - 1 - i] = t; }
    }
    const avrm_rankmap_t *par[2] = { &w->world, &w->spawned };
    avrm_status_t st = map ? avrm_map_build_compact(w->ctx, &w->world, map, n, out)
                           : avrm_map_build_multi_compact(w->ctx, par, 2, src, n, out);
    free(map);
    free(src);
    return st;
}

int main(int argc, char **argv)
{
    const char *sizes = "4096,262144", *out = "bench/out/translate.csv";
    int reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) sizes = argv[++i];
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else { fprintf(stderr, "usage: %s [-n N[,N...]] [-r reps] [-o csv]\n", argv[0]); return 1; }
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 1; }
    fprintf(f, "case,strategy,maps,world,n1,n2,m1_mode,m2_mode,index_bytes,"
               "translate_ns_per_rank,find_ns_per_rank,find_per_translate\n");
    printf("thread CPU time, best of %d; ns per translated rank\n", reps);
    printf("%-15s %-14s %8s %8s %8s %-7s %-7s %9s %9s %9s %7s\n", "case", "strategy", "world",
           "n1", "n2", "m1", "m2", "index B", "translate", "find", "ratio");
    const char *p = sizes;
    while (*p) {
        uint32_t N = (uint32_t) strtoul(p, (char **) &p, 0);
        if (*p == ',') p++;
        bk_world_t w;
        avrm_params_t pp = avrm_params_default();
        if (N < 64 || bk_world_init_params(&w, N, &pp)) {
            fprintf(stderr, "world of %u: init failed (N >= 64)\n", N);
            return 1;
        }
        for (int c = 0; c < NCASES; c++) {
            const tcase_t *tc = &cases[c];
            avrm_rankmap_t m1, m2;
            if (build_group(&w, tc->m1, 0, &m1) != AVRM_OK ||
                build_group(&w, tc->m2, tc->m2_reversed, &m2) != AVRM_OK) {
                fprintf(stderr, "%s: build failed\n", tc->name);
                return 1;
            }
            avrm_rank_index_t *idx = NULL;
            if (avrm_rank_index_build(w.ctx, &m2, &idx) != AVRM_OK) {
                fprintf(stderr, "%s: index build failed\n", tc->name);
                return 1;
            }
            size_t ib = idx ? avrm_rank_index_bytes(idx) : 0;
            /* the index kind by avrm_find.h's rule: dense when m2 lies in one
             * process group and its lpids span at most 2 x its size */
            avrm_pgid_t pg0 = 0;
            int64_t lo = INT64_MAX, hi = -1, onepg = 1;
            for (uint32_t r = 0; r < m2.size; r++) {
                avrm_pgid_t pg;
                int64_t l = avrm_map_lpid(w.ctx, &m2, r, &pg);
                if (r == 0) pg0 = pg;
                onepg &= pg == pg0;
                lo = l < lo ? l : lo;
                hi = l > hi ? l : hi;
            }
            int dense = idx && onepg && hi - lo + 1 <= 2 * (int64_t) m2.size;
            avrm_mode_t m2m = m2.mode == AVRM_MODE_LUT16 ? AVRM_MODE_LUT : (avrm_mode_t) m2.mode;
            int ok = m1.mode == tc->m1_mode && m2m == tc->m2_mode &&
                     (tc->need == NEED_NO_INDEX ? !idx
                      : tc->need == NEED_SORTED_INDEX ? idx && !dense : dense);
            if (!ok) {
                fprintf(stderr, "%s: built %s -> %s (index %zu B), not %s -> %s as the case needs\n",
                        tc->name, avrm_mode_name((avrm_mode_t) m1.mode),
                        avrm_mode_name((avrm_mode_t) m2.mode), ib,
                        avrm_mode_name(tc->m1_mode), avrm_mode_name(tc->m2_mode));
                return 1;
            }
            uint32_t n = m1.size;
            int32_t *in = malloc((size_t) n * sizeof *in), *a = malloc((size_t) n * sizeof *a),
                    *b = malloc((size_t) n * sizeof *b);
            if (!in || !a || !b) return 1;
            for (uint32_t i = 0; i < n; i++) in[i] = (int32_t) i;
            double bt = 1e30, bf = 1e30;
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                avrm_map_translate(w.ctx, &m1, in, n, &m2, idx, -32766, a);
                double t1 = now();
                for (uint32_t i = 0; i < n; i++) {
                    avrm_pgid_t pg;
                    avrm_gpid_t g = { 0 };
                    g.lpid = avrm_map_lpid(w.ctx, &m1, (uint32_t) in[i], &pg);
                    g.pgid = pg;
                    int64_t rk = avrm_map_find(w.ctx, &m2, idx, g);
                    b[i] = rk >= 0 ? (int32_t) rk : -32766;
                }
                double t2 = now();
                bt = t1 - t0 < bt ? t1 - t0 : bt;
                bf = t2 - t1 < bf ? t2 - t1 : bf;
            }
            if (memcmp(a, b, (size_t) n * sizeof *a)) {
                fprintf(stderr, "%s: translate and find disagree\n", tc->name);
                return 1;
            }
            double nt = bt * 1e9 / n, nf = bf * 1e9 / n;
            fprintf(f, "%s,%s,\"%s\",%u,%u,%u,%s,%s,%zu,%.2f,%.2f,%.2f\n", tc->name, tc->strategy,
                    tc->what, N, n,
                    m2.size, avrm_mode_name((avrm_mode_t) m1.mode),
                    avrm_mode_name((avrm_mode_t) m2.mode), ib, nt, nf, nf / nt);
            printf("%-15s %-14s %8u %8u %8u %-7s %-7s %9zu %9.2f %9.2f %7.2f\n", tc->name,
                   tc->strategy, N, n, m2.size, avrm_mode_name((avrm_mode_t) m1.mode),
                   avrm_mode_name((avrm_mode_t) m2.mode), ib, nt, nf, nf / nt);
            free(in); free(a); free(b);
            avrm_rank_index_free(w.ctx, idx);
            avrm_map_release(w.ctx, &m1);
            avrm_map_release(w.ctx, &m2);
        }
        bk_world_fini(&w);
    }
    fclose(f);
    return 0;
}
