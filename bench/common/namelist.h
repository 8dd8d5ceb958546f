/*
 * namelist.h - is NAME one of the entries of a comma-separated LIST? (NULL
 * LIST: every name). Shared by the simulator's prediction (bench/sim/predict.c)
 * and the MPI side of the same scenarios (test/simcheck/pvars.c), which must
 * select scenarios identically. Thread safety: pure. Cost: O(strlen(LIST)).
 */
#ifndef BENCH_NAMELIST_H
#define BENCH_NAMELIST_H

#include <string.h>

static inline int namelist_has(const char *list, const char *name)
{
    if (!list) return 1;
    size_t l = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += l)
        if ((p == list || p[-1] == ',') && (p[l] == 0 || p[l] == ',')) return 1;
    return 0;
}

#endif /* BENCH_NAMELIST_H */
