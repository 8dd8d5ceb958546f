/*
 * tu_gen.h - mapping-array generators for the unit tests (child rank ->
 * parent rank), all of size <= psize, written into a caller buffer.
 */
#ifndef TU_GEN_H
#define TU_GEN_H

#include "tu.h"

enum { G_IDENT, G_OFFSET, G_STRIDE, G_NEGSTRIDE, G_REVERSE, G_BLOCK, G_NEGBLOCK, G_GRID,
       G_EXCEPT, G_PERM, G_SUBSET, G_DUP, G_HALFSWAP, G_FEW, G_HOLES, G_COUNT };
static const char *const tu_gen_names[G_COUNT] = {
    "ident", "offset", "stride", "negstride", "reverse", "block", "negblock", "grid",
    "except", "perm", "subset", "dup", "halfswap", "few", "holes" };

/* Balanced factorization for test grids (independent of the library's). */
static inline void tu_dims(uint32_t n, int nd, uint32_t *dims)
{
    for (int d = 0; d < nd; d++) dims[d] = 1;
    uint32_t m = n;
    for (uint32_t p = 2; m > 1;) {
        if ((uint64_t) p * p > m) p = m;
        if (m % p) { p++; continue; }
        int best = 0;
        for (int d = 1; d < nd; d++) if (dims[d] < dims[best]) best = d;
        dims[best] *= p;
        m /= p;
    }
}

/* Sub-block of a virtual grid dims[nd] of size psize: lo[d]..lo[d]+ext[d]
 * with step st[d] in each dim, row-major. Returns count. */
static inline uint32_t tu_subgrid(int32_t *map, int nd, const uint32_t *dims, const uint32_t *lo,
                                  const uint32_t *ext, const uint32_t *st)
{
    uint32_t c[4] = { 0 }, n = 0, total = 1;
    for (int d = 0; d < nd; d++) total *= ext[d];
    for (uint32_t i = 0; i < total; i++) {
        uint32_t lin = 0;
        for (int d = 0; d < nd; d++) lin = lin * dims[d] + lo[d] + c[d] * st[d];
        map[n++] = (int32_t) lin;
        for (int d = nd - 1; d >= 0; d--) { if (++c[d] < ext[d]) break; c[d] = 0; }
    }
    return n;
}

/* Fill map (capacity psize) with a mapping of kind k; returns its length >= 1. */
static inline uint32_t tu_gen(int k, uint32_t ps, int32_t *map)
{
    uint32_t n = 0;
    switch (k) {
    case G_IDENT:
        for (n = 0; n < ps; n++) map[n] = (int32_t) n;
        break;
    case G_OFFSET: {
        uint32_t a = tu_below(ps), len = 1 + tu_below(ps - a);
        for (n = 0; n < len; n++) map[n] = (int32_t) (a + n);
        break;
    }
    case G_STRIDE: {
        uint32_t s = 1 + tu_below(ps > 8 ? 8 : ps), a = tu_below(s < ps ? s : ps);
        for (n = 0; a + n * s < ps; n++) map[n] = (int32_t) (a + n * s);
        break;
    }
    case G_NEGSTRIDE: {
        uint32_t s = 1 + tu_below(4), a = ps - 1 - tu_below(ps < 3 ? ps : 3);
        for (n = 0; (int64_t) a - (int64_t) n * s >= 0; n++) map[n] = (int32_t) (a - n * s);
        break;
    }
    case G_REVERSE:
        for (n = 0; n < ps; n++) map[n] = (int32_t) (ps - 1 - n);
        break;
    case G_BLOCK: {
        uint32_t bs = 1 + tu_below(8), S = bs + tu_below(8), a = tu_below(bs);
        for (uint32_t q = a; q < ps; q++)
            if ((q - a) % S < bs) map[n++] = (int32_t) q;
        break;
    }
    case G_NEGBLOCK: {            /* blocks in reverse order, ascending inside */
        uint32_t bs = 1 + tu_below(6), nb = ps / bs;
        for (uint32_t b = nb; b-- > 0;)
            for (uint32_t j = 0; j < bs; j++) map[n++] = (int32_t) (b * bs + j);
        break;
    }
    case G_GRID: {
        int nd = 3 + (int) tu_below(2);
        uint32_t dims[4], lo[4], ext[4], st[4];
        tu_dims(ps, nd, dims);
        for (int d = 0; d < nd; d++) {
            st[d] = 1 + (tu_below(3) == 0 ? tu_below(2) : 0);
            if (tu_below(4) == 0) { lo[d] = tu_below(dims[d]); ext[d] = 1; }   /* cart_sub */
            else {
                lo[d] = tu_below(dims[d]);
                uint32_t room = (dims[d] - lo[d] + st[d] - 1) / st[d];
                ext[d] = 1 + tu_below(room);
            }
        }
        n = tu_subgrid(map, nd, dims, lo, ext, st);
        break;
    }
    case G_EXCEPT: {              /* node roots: stride with 1-2 odd ones */
        uint32_t s = 2 + tu_below(4);
        for (n = 0; n * s < ps; n++) map[n] = (int32_t) (n * s);
        if (n > 0) map[0] = (int32_t) tu_below(ps);
        if (n > 3 && tu_below(2)) map[n - 1 - tu_below(n - 1)] = (int32_t) tu_below(ps);
        break;
    }
    case G_PERM:
        for (n = 0; n < ps; n++) map[n] = (int32_t) n;
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = tu_below(i);
            int32_t t = map[i - 1]; map[i - 1] = map[j]; map[j] = t;
        }
        break;
    case G_SUBSET:
        for (uint32_t q = 0; q < ps; q++)
            if (tu_below(3)) map[n++] = (int32_t) q;
        break;
    case G_DUP: {
        uint32_t len = 1 + tu_below(ps);
        for (n = 0; n < len; n++) map[n] = (int32_t) tu_below(ps);
        break;
    }
    case G_HALFSWAP: {            /* second half first (intercomm-merge-like order) */
        uint32_t h = ps / 2;
        for (uint32_t q = h; q < ps; q++) map[n++] = (int32_t) q;
        for (uint32_t q = 0; q < h; q++) map[n++] = (int32_t) q;
        break;
    }
    case G_FEW: {                 /* a small random communicator (ILUT-sized) */
        uint32_t len = 1 + tu_below(ps < AVRM_ILUT_MAX + 2 ? ps : AVRM_ILUT_MAX + 2);   /* <= ps */
        for (n = 0; n < len; n++) map[n] = (int32_t) tu_below(ps);
        break;
    }
    case G_HOLES: {               /* all but k random ranks (the survivors of a failure) */
        uint32_t k = 1 + tu_below(6);
        for (uint32_t q = 0; q < ps; q++) map[n++] = (int32_t) q;
        for (uint32_t j = 0; j < k && n > 1; j++) {
            uint32_t x = tu_below(n);
            memmove(map + x, map + x + 1, (n - x - 1) * sizeof(*map));
            n--;
        }
        break;
    }
    }
    if (n == 0) map[n++] = (int32_t) tu_below(ps);
    return n;
}

#endif /* TU_GEN_H */
