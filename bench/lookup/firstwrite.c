/*
 * firstwrite.c - bench-firstwrite: what libavrm adds to a first contact,
 * the store of the peer's resolved word (avrm_av_set), in the world AV as
 * on-demand addressing had it before issue 55 (dense: a pending word per
 * peer, written at MPI_Init) and as it has it now (sparse: nothing until
 * the first contact, whose page may be new: a scan of it and the kernel's
 * page fault). The rest of a first contact (a PMI get, fi_av_insert) is the
 * same code in both; the pvar avrm_resolve_time measures the whole.
 *
 *   bench-firstwrite [-n N] [-k K] [-r reps]
 *
 * For each layout and order (seq: K consecutive ranks, a stencil's
 * neighbours; rand: K random ranks, every page new), the median over reps
 * of the wall time per write, ns, a fresh AV each rep. Prints CSV:
 *   layout,order,N,K,ns_per_write,bytes_after
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "avrm/avrm.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    uint32_t N = 1u << 20, K = 4096;
    int reps = 9;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) N = (uint32_t) strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-k") && i + 1 < argc) K = (uint32_t) strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
        else { fprintf(stderr, "usage: %s [-n N] [-k K] [-r reps]\n", argv[0]); return 1; }
    }
    if (K >= N || reps < 1 || reps > 99) { fprintf(stderr, "need K < N, 1 <= reps <= 99\n"); return 1; }
    uint32_t *lp = malloc((size_t) K * sizeof(*lp));
    if (!lp) return 1;
    printf("layout,order,N,K,ns_per_write,bytes_after\n");
    for (int order = 0; order < 2; order++) {
        uint64_t x = 88172645463325252ull;
        for (uint32_t i = 0; i < K; i++) {
            x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
            lp[i] = order ? (uint32_t) ((x * 2685821657736338717ull) % (N - 1)) + 1 : i + 1;
        }
        for (int sparse = 0; sparse < 2; sparse++) {
            double t[99];
            size_t bytes = 0;
            for (int r = 0; r < reps; r++) {
                avrm_params_t p = avrm_params_default();
                avrm_ctx_t *ctx;
                avrm_av_t *av;
                avrm_av_params_t ap = { .size = N, .pgid = 0 };
                if (avrm_ctx_create(&p, &ctx) != AVRM_OK || avrm_av_create(ctx, &ap, &av) != AVRM_OK)
                    return 1;
                avrm_av_set(av, 0, 0, 1);       /* this process: address 0, local */
                if (sparse) {
                    if (avrm_av_make_sparse(ctx, av) != AVRM_OK) return 1;
                } else {
                    for (uint32_t l = 1; l < N; l++) avrm_av_set_pending(av, l, 0);
                }
                double t0 = now();
                for (uint32_t i = 0; i < K; i++) avrm_av_set(av, lp[i], (uint64_t) i + 1, 0);
                t[r] = (now() - t0) / K;
                avrm_stats_t st;
                avrm_ctx_stats(ctx, &st);
                bytes = st.av_entry_bytes;
                avrm_ctx_destroy(ctx);
            }
            qsort(t, (size_t) reps, sizeof(t[0]), cmp);
            printf("%s,%s,%u,%u,%.1f,%zu\n", sparse ? "sparse" : "dense", order ? "rand" : "seq", N, K,
                   t[reps / 2], bytes);
        }
    }
    free(lp);
    return 0;
}
