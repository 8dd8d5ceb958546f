/*
 * scenarios.h - the scenarios of bench-memory and bench-simbuild: each
 * replays one pattern of communicator creation (split, dup, intercomms,
 * reorder, spawn, application shapes, repeated patterns) for one simulated
 * process. Run `bench-memory -h` for the list.
 */
#ifndef BENCH_SCENARIOS_H
#define BENCH_SCENARIOS_H
#include "sim.h"

#define MAXABL 3
typedef struct scen {
    const char *name, *group, *what;
    void (*fn)(sim_t *, int);
    int K;
    uint32_t me;
    uint32_t maxN;      /* skip above (memory/time) */
    unsigned abl[MAXABL];   /* extra back ends: default params minus these FEAT_* masks */
} scen_t;

extern const scen_t scens[];
extern const size_t nscens;
/* list: comma-separated scenario names or groups ("paper", "apps",
 * "share", "contact", "all"); NULL selects every scenario */
int scen_selected(const char *list, const scen_t *sc);
#endif
