/*
 * simbuild.c - bench-simbuild: map build cost per rank inside the
 * simulator's scenarios (scenarios.h), for our builder (libavrm,
 * ours-stored: default parameters) and the MODEL of MPICH 4.0.2 CH4's
 * builder (bench/models/ch4build.h), fed the same events in the same run.
 *
 * usage: bench-simbuild [-n N[,N...]] [-s scen[,scen...]] [-p ppn] [-o out.csv] [-a]
 *
 * Per back end and scenario: thread CPU time spent in its map() calls (the
 * builds, dups and whole-group maps of every communicator the simulated
 * process creates, internal ones included; the cost of reading the clock,
 * calibrated at start, is subtracted per call), the number of calls, and
 * the ranks of the maps built by a mapping (dups and whole-group maps are
 * O(1) and not counted as ranks). ns/rank = time / those ranks.
 * The simulator's own work (colour/key sorting, gpid arrays) is outside
 * the timed calls. One run per (scenario, N); at 16M a run takes seconds.
 */
#define _POSIX_C_SOURCE 200809L
#include "scenarios.h"
#include "backend_avrm.h"
#include "../models/ch4build.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *nlist = "65536", *slist = NULL, *out = "bench/out/simbuild.csv";
    uint32_t P = 16;
    int append = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) nlist = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) slist = argv[++i];
        else if (!strcmp(argv[i], "-p") && i + 1 < argc) P = (uint32_t) atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "-a")) append = 1;
        else {
            fprintf(stderr, "usage: %s [-n N,..] [-s scen|paper|apps|share,..] [-p ppn] [-o csv] [-a]\n", argv[0]);
            return 1;
        }
    }
    FILE *f = fopen(out, append ? "a" : "w");
    if (!f) { perror(out); return 1; }
    if (!append)
        fprintf(f, "scenario,N,ppn,impl,label,calls,dups,ranks,ns_total,ns_per_rank\n");
    printf("%-12s %9s %-26s %7s %6s %11s %12s %9s\n", "scenario", "N", "impl", "calls", "dups",
           "ranks", "ms", "ns/rank");
    char nbuf[1024];
    snprintf(nbuf, sizeof nbuf, "%s", nlist);
    int rc = 0;
    for (char *save, *t = strtok_r(nbuf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint32_t N = (uint32_t) strtoul(t, NULL, 0);
        for (size_t k = 0; k < nscens; k++) {
            const scen_t *sc = &scens[k];
            if (!scen_selected(slist, sc) || N > sc->maxN) continue;
            sim_backend_t *b[2] = { avrm_backend_new(OURS_STORED), ch4build_backend_new() };
            if (!b[0] || !b[1]) { fprintf(stderr, "back end creation failed\n"); return 1; }
            sim_t s;
            uint32_t me = sc->me < N ? sc->me : 0;
            if (sim_init_ex(&s, N, P, 0, 1, me, b, 2) == 0) sc->fn(&s, sc->K);
            if (s.err) { fprintf(stderr, "%s N=%u: errors (see above)\n", sc->name, N); rc = 1; }
            for (int i = 0; i < 2; i++) {
                double per = b[i]->map_ranks ? b[i]->map_ns / (double) b[i]->map_ranks : 0;
                fprintf(f, "%s,%u,%u,%s,%s,%llu,%llu,%llu,%.0f,%.3f\n", sc->name, N, P, b[i]->name,
                        b[i]->label, (unsigned long long) b[i]->map_calls,
                        (unsigned long long) b[i]->dup_calls, (unsigned long long) b[i]->map_ranks,
                        b[i]->map_ns, per);
                printf("%-12s %9u %-26s %7llu %6llu %11llu %12.3f %9.3f\n", sc->name, N, b[i]->name,
                       (unsigned long long) b[i]->map_calls, (unsigned long long) b[i]->dup_calls,
                       (unsigned long long) b[i]->map_ranks, b[i]->map_ns / 1e6, per);
            }
            fflush(f);
            fflush(stdout);
            sim_fini(&s);
            for (int i = 0; i < 2; i++) b[i]->destroy(b[i]);
        }
    }
    fclose(f);
    return rc;
}
