/*
 * perm.h: a random permutation of 0..n-1 from rand() (header-only, shared by
 * the bench/real programs): the same on every process that seeds rand()
 * alike and calls it in the same order.
 */
#ifndef BENCH_REAL_PERM_H
#define BENCH_REAL_PERM_H
#include <stdlib.h>

static void perm_shuffle(int *perm, int n)
{
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rand() % (i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}
#endif
