/*
 * buildtime.c - bench-build: rank-map build time per rank for each mapping
 * kind (child of the world map, or of world + spawned for mlut/mseg), at
 * N = 1M by default. Times avrm_map_build / avrm_map_build_multi only (the
 * mapping array is prepared before); release is outside the timed part.
 * Best of reps. Also avrm_map_build_gpids of the whole world and
 * avrm_map_dup (1000 dups timed together, ns per dup). Target: <= 10 ns/rank.
 *
 *   bench-build [-n N] [-r reps] [-o out.csv] [-w]
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/maps.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Thread CPU time by default: on a shared CPU, time slices given to other
 * processes are not counted (caches stay shared). -w: wall clock. */
static clockid_t clk = CLOCK_THREAD_CPUTIME_ID;
static double now(void)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    uint32_t N = 1u << 20;
    int reps = 5;
    const char *out = "bench/out/build.csv";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) N = (uint32_t) strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "-w")) clk = CLOCK_MONOTONIC;
        else { fprintf(stderr, "usage: %s [-n N] [-r reps] [-o csv] [-w]\n", argv[0]); return 1; }
    }
    enum { NDUP = 1000 };
    static avrm_rankmap_t dups[NDUP];
    bk_world_t w, ww;        /* ww: spawned AV at pgid 256, for the 8-byte MLUT */
    avrm_params_t pp = avrm_params_default();
    if (bk_world_init(&w, N, 0) || bk_world_init_pg(&ww, N, &pp, bk_kind_pgid(BK_MLUT))) {
        fprintf(stderr, "world init failed\n");
        return 1;
    }
    FILE *f = fopen(out, "w");
    if (!f) { perror(out); return 1; }
    fprintf(f, "kind,actual_mode,n,ns_total_best,ns_per_rank,target_ns_per_rank,ok\n");
    printf("clock: %s; best of %d\n", clk == CLOCK_MONOTONIC ? "wall" : "thread CPU time", reps);
    printf("%-14s %-8s %9s %12s %10s\n", "kind", "actual", "n", "best us", "ns/rank");
    for (int k = 0; k <= BK_NKINDS + 1; k++) {
        int32_t *mp = NULL; avrm_src_t *sp = NULL;
        uint32_t n;
        avrm_gpid_t *gp = NULL;
        const char *kn;
        if (k < BK_NKINDS) { n = bk_input(&w, k, &mp, &sp); kn = bk_kind_name[k]; }
        else if (k == BK_NKINDS) {      /* remote group by gpids (intercomm/spawn) */
            n = N; kn = "gpids-world";
            gp = malloc((size_t) n * sizeof *gp);
            for (uint32_t i = 0; i < n; i++) { gp[i].lpid = i; gp[i].pgid = 0; gp[i].reserved = 0; }
        } else { n = N; kn = "dup(lut)"; }
        avrm_rankmap_t lutmap;
        if (k == BK_NKINDS + 1) {       /* dup of a lut map: O(1) */
            int32_t *lm; avrm_src_t *ls;
            uint32_t ln = bk_input(&w, BK_LUT, &lm, &ls);
            if (bk_build(&w, BK_LUT, lm, ls, ln, &lutmap) != AVRM_OK) return 1;
            free(lm);
        }
        double best = 1e30;
        char actual[32] = "?";
        for (int r = 0; r < reps; r++) {
            avrm_rankmap_t m;
            avrm_status_t st;
            double t0 = now();
            bk_world_t *wk = k == BK_MLUT ? &ww : &w;
            if (k < BK_NKINDS) st = bk_build(wk, k, mp, sp, n, &m);
            else if (k == BK_NKINDS) st = avrm_map_build_gpids(w.ctx, gp, n, &m);
            else {                      /* NDUP dups, timed together */
                for (int d = 0; d < NDUP; d++) avrm_map_dup(w.ctx, &lutmap, &dups[d]);
                m = dups[0];
                st = AVRM_OK;
            }
            double dt = now() - t0;
            if (st != AVRM_OK) { fprintf(stderr, "%s: build failed %d\n", kn, st); return 1; }
            if (k == BK_NKINDS + 1) {
                for (int d = 1; d < NDUP; d++) avrm_map_release(w.ctx, &dups[d]);
                dt /= NDUP;
            }
            snprintf(actual, sizeof actual, "%s", avrm_mode_name((avrm_mode_t) m.mode));
            avrm_map_release(wk->ctx, &m);
            if (dt < best) best = dt;
        }
        if (k == BK_NKINDS + 1) avrm_map_release(w.ctx, &lutmap);
        double per = best * 1e9 / n;
        if (k == BK_NKINDS + 1) per = best * 1e9;   /* dup: per call */
        int isdup = k == BK_NKINDS + 1;
        fprintf(f, "%s,%s,%u,%.0f,%.3f,%s,%s\n", kn, actual, n, best * 1e9, per,
                isdup ? "O(1)" : "10", isdup ? "n/a" : per <= 10 ? "yes" : "NO");
        printf("%-14s %-8s %9u %12.1f %10.2f%s\n", kn, actual, n, best * 1e6, per,
               k == BK_NKINDS + 1 ? " (ns per dup, O(1))" : (per <= 10 ? "" : "  > 10 ns/rank target"));
        free(mp); free(sp); free(gp);
    }
    fclose(f);
    bk_world_fini(&w);
    bk_world_fini(&ww);
    return 0;
}
