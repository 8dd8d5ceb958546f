/*
 * memory.c - bench-memory: per-process memory of address vectors and rank
 * maps for the paper's scenarios (Figs 9-14) and application-shaped ones,
 * ours (libavrm: stored AV, computed AV, paper modes only, no content
 * sharing, plus per-scenario ablations of single beyond-paper features)
 * against the MODELs of MPICH 3.2 VC/VCRT, MPICH 4.0.2 CH4 and MPICH main.
 *
 * Columns total..tables are the address layer (the paper's figures);
 * hier (communicators' node hierarchies / stock's intranode and internode
 * tables), node_map (the process's node map and shm local ranks) and
 * library (all of them) are the rest of the library's O(P) state.
 *
 * usage: bench-memory [-n N[,N...]] [-s scen[,scen...]] [-p ppn] [-o out.csv] [-a] [-m models-only]
 * Scenario names: split10 split100 dup10 dup100 isplit10 isplit100 idup10
 * idup100 reorder10 reorder100 spawn10 spawn100 nek5000 nwchem lsms fft3d
 * kumar kumar252 workers repeat100 nodesplit100; "paper", "apps" and "share"
 * select the groups.
 */
#define _POSIX_C_SOURCE 200809L
#include "scenarios.h"
#include "../models/models.h"
#ifndef BENCH_MODELS_ONLY
#include "backend_avrm.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *nlist = "4096,65536", *slist = NULL, *out = "bench/out/memory.csv";
    uint32_t P = 16;
    int append = 0, models_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) nlist = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) slist = argv[++i];
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) P = (uint32_t) atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "-a")) append = 1;
        else if (!strcmp(argv[i], "-m")) models_only = 1;
        else {
            fprintf(stderr, "usage: %s [-n N,..] [-s scen|paper|apps|share|contact,..] [-p ppn] [-o csv] [-a] [-m]\n", argv[0]);
            for (size_t k = 0; k < nscens; k++) fprintf(stderr, "  %-11s %s\n", scens[k].name, scens[k].what);
            return 1;
        }
    }
#ifdef BENCH_MODELS_ONLY
    models_only = 1;
#endif
    (void) models_only;
    FILE *f = fopen(out, append ? "a" : "w");
    if (!f) { perror(out); return 1; }
    if (!append)
        fprintf(f, "scenario,N,ppn,impl,label,total,av_entries,meta,maps,tables,shared_avoided,comms,seconds,modes,hier,node_map,library,resolved\n");
    char nbuf[1024];
    snprintf(nbuf, sizeof nbuf, "%s", nlist);
    int rc = 0;
    for (char *save, *t = strtok_r(nbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint32_t N = (uint32_t) strtoul(t, NULL, 0);
        for (size_t k = 0; k < nscens; k++) {
            const scen_t *sc = &scens[k];
            if (!scen_selected(slist, sc) || N > sc->maxN) continue;
            sim_backend_t *b[SIM_MAXB];
            int nb = 0;
#ifndef BENCH_MODELS_ONLY
            if (!models_only) {
                b[nb++] = avrm_backend_new(OURS_STORED);
                b[nb++] = avrm_backend_new(OURS_COMPUTED);
                b[nb++] = avrm_backend_new(OURS_PAPER);
                b[nb++] = avrm_backend_new(OURS_NOSHARE);
                if (!strcmp(sc->group, "contact") || !strcmp(sc->name, "world"))
                    b[nb++] = avrm_backend_new(OURS_ONDEMAND);
                for (int a = 0; a < MAXABL && sc->abl[a]; a++) b[nb++] = avrm_backend_ablate(sc->abl[a]);
            }
#endif
            b[nb++] = model_backend_new(MODEL_VC);
            b[nb++] = model_backend_new(MODEL_CH4);
            b[nb++] = model_backend_new(MODEL_MAIN);
            for (int i = 0; i < nb; i++) if (!b[i]) { fprintf(stderr, "back end creation failed\n"); return 1; }
            sim_t s;
            double t0 = now();
            uint32_t me = sc->me < N ? sc->me : 0;
            if (sim_init(&s, N, P, me, b, nb) == 0) sc->fn(&s, sc->K);
            double dt = now() - t0;
            if (s.err) { fprintf(stderr, "%s N=%u: errors (see above)\n", sc->name, N); rc = 1; }
            for (int i = 0; i < nb; i++) {
                sim_mem_t m;
                b[i]->report(b[i], &m);
                char modes[256] = "-";
#ifndef BENCH_MODELS_ONLY
                if (!strcmp(b[i]->label, "OURS")) {
                    size_t cnt[AVRM_MODE_COUNT];
                    avrm_bench_mode_counts(b[i], cnt);
                    size_t o = 0;
                    modes[0] = 0;
                    for (int md = 0; md < AVRM_MODE_COUNT; md++)
                        if (cnt[md]) o += (size_t) snprintf(modes + o, sizeof modes - o, "%s%s:%zu",
                                                            o ? " " : "", avrm_mode_name((avrm_mode_t) md), cnt[md]);
                }
#endif
                fprintf(f, "%s,%u,%u,%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%llu,%.3f,%s,%.0f,%.0f,%.0f,%.0f\n",
                        sc->name, N, P, b[i]->name, b[i]->label, m.total, m.av_entries,
                        m.meta, m.maps, m.tables, m.shared_avoided, (unsigned long long) s.ncomms, dt, modes,
                        m.hier, m.node_map, m.library, m.resolved);
            }
            fflush(f);
            fprintf(stderr, "  %-10s N=%-8u %3llu comms  %.2fs\n", sc->name, N, (unsigned long long) s.ncomms, dt);
            sim_fini(&s);
            for (int i = 0; i < nb; i++) b[i]->destroy(b[i]);
        }
    }
    fclose(f);
    return rc;
}
