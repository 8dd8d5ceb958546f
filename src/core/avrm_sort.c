/*
 * avrm_sort.c - the distributed sort of irregular splits (avrm_split.h):
 * the items' order and the comparator network each process walks.
 *
 * The network: a bitonic sorter generalised to any n. Sorting [lo, lo+n)
 * into direction d sorts its first floor(n/2) positions against d and the
 * rest along d, which makes the range bitonic, then merges it. Merging a
 * bitonic [lo, lo+n) compares lo+i with lo+i+m for i < n-m, m the greatest
 * power of two below n, which leaves every item of [lo, lo+m) on the d-side
 * of every item of [lo+m, lo+n), both halves bitonic; then it merges each
 * half. A position takes only the comparators of the ranges that hold it:
 * one range per level, O(log n) sort levels of O(log n) merge levels.
 * Checked for every n <= 300 and some larger by test/unit/test_sort.c
 * (random items with ties, and the network run as its processes would).
 */
#include <stddef.h>
#include "avrm/avrm_split.h"

_Static_assert(sizeof(avrm_split_item_t) == 12, "an item is 12 bytes on the wire");

int avrm_split_item_cmp(const avrm_split_item_t *a, const avrm_split_item_t *b)
{
    if (a->color != b->color)
        return a->color < b->color ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

typedef struct walk {
    uint32_t j;
    avrm_sort_fn fn;
    void *arg;
} walk_t;

/* the greatest power of two below n (n >= 2) */
static uint32_t pow2_below(uint32_t n)
{
    uint32_t m = 1;
    while (m < (n + 1) / 2)
        m *= 2;
    return m;
}

/* merge the bitonic range [lo, lo + n) holding w->j; up: ascending */
static int merge(const walk_t *w, uint32_t lo, uint32_t n, int up)
{
    while (n > 1) {
        uint32_t m = pow2_below(n);
        int rc = 0;
        if (w->j < lo + n - m)
            rc = w->fn(w->arg, w->j + m, up);   /* the lower position */
        else if (w->j >= lo + m)
            rc = w->fn(w->arg, w->j - m, !up);  /* the upper one */
        if (rc)
            return rc;
        if (w->j < lo + m) {
            n = m;
        } else {
            lo += m;
            n -= m;
        }
    }
    return 0;
}

static int sort(const walk_t *w, uint32_t lo, uint32_t n, int up)
{
    if (n < 2)
        return 0;
    uint32_t m = n / 2;
    int rc = w->j < lo + m ? sort(w, lo, m, !up) : sort(w, lo + m, n - m, up);
    return rc ? rc : merge(w, lo, n, up);
}

int avrm_sort_walk(uint32_t n, uint32_t j, avrm_sort_fn fn, void *arg)
{
    walk_t w = { j, fn, arg };
    return j < n ? sort(&w, 0, n, 1) : 0;
}

uint32_t avrm_sort_depth(uint32_t n)
{
    uint32_t k = 0;
    while (k < 32 && (1ull << k) < n)
        k++;
    return k * (k + 1) / 2;
}
