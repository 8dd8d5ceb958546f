/*
 * avrm_lookup.h - the inline fast path: communicator rank -> (pgid, lpid)
 * -> address word. avrm_map_locate() is the ONLY place a rank-map mode is
 * decoded; every other lookup is built on it and the compiler drops what a
 * caller does not use.
 *
 * Thread safety: read-only, lock-free; see avrm_ctx.h.
 * Preconditions: r < m->size (the MPI layer validates ranks; use
 * avrm_map_lpid_checked() where it does not). No allocation, no call.
 *
 * Cost (x86_64 gcc 12 -O2, instructions of avrm_map_addr incl. dispatch,
 * measured with callgrind on a noinline wrapper, minus its ret and two
 * argument moves; core author's measurement, bench/ has the official one):
 *   direct/offset 9, stride 15, block 18 (one div), except 19,
 *   grid 3-d 38, lut/lut16 15, mlut 20, mseg (2 segments) 40.
 * Targets (<= 7 direct/offset, <= 11 others) are not reached yet: the
 * computed-AV test (ents == NULL) costs 2 on every path, and the switch
 * jump table 4.
 */
#ifndef AVRM_LOOKUP_H
#define AVRM_LOOKUP_H

#include "avrm_av.h"

static inline avrm_lpid_t avrm_map_locate(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                          uint32_t r, avrm_pgid_t *pgid,
                                          const avrm_ave_t **ents)
{
    *pgid = m->pgid;
    *ents = m->ents;
    if (__builtin_expect(m->mode <= AVRM_MODE_OFFSET, 1))   /* DIRECT has offset 0 */
        return (uint32_t) m->u.reg.offset + r;
    switch ((avrm_mode_t) m->mode) {
    case AVRM_MODE_DIRECT:
    case AVRM_MODE_OFFSET:
        break;    /* handled above */
    case AVRM_MODE_STRIDE:
        return (uint32_t) m->u.reg.offset + r * (uint32_t) m->u.reg.stride;
    case AVRM_MODE_BLOCK:
        return (uint32_t) m->u.reg.offset + (r / m->u.reg.bs) * (uint32_t) m->u.reg.stride
               + r % m->u.reg.bs;
    case AVRM_MODE_EXCEPT:
        if (r == m->u.exc.ex_rank[0]) return m->u.exc.ex_lpid[0];
        if (r == m->u.exc.ex_rank[1]) return m->u.exc.ex_lpid[1];   /* unused slot: rank UINT32_MAX */
        return (uint32_t) m->u.exc.offset + r * (uint32_t) m->u.exc.stride;
    case AVRM_MODE_GRID: {
        avrm_lpid_t l = m->u.grid.base;
        for (int d = m->ndims - 1; d > 0; d--) {
            l += (r % m->u.grid.ext[d]) * m->u.grid.wstride[d];
            r /= m->u.grid.ext[d];
        }
        return l + r * m->u.grid.wstride[0];
    }
    case AVRM_MODE_LUT:
        return ((const avrm_lpid_t *) m->u.lut.v)[r];
    case AVRM_MODE_LUT16:
        return ((const uint16_t *) m->u.lut.v)[r];
    case AVRM_MODE_MLUT: {
        avrm_gpid_t g = ((const avrm_gpid_t *) m->u.lut.v)[r];
        *pgid = g.pgid;
        *ents = ctx->avs[g.pgid]->entries;
        return g.lpid;
    }
    case AVRM_MODE_MSEG: {
        const avrm_seg_t *s = m->u.mseg.segs;
        uint32_t lo = 0, n = m->u.mseg.nsegs;       /* last segment with first <= r */
        while (n > 1) {
            uint32_t half = n / 2;
            if (s[lo + half].first <= r) lo += half;
            n -= half;
        }
        *pgid = s[lo].pgid;
        *ents = ctx->avs[s[lo].pgid]->entries;
        return m->u.mseg.lut ? m->u.mseg.lut[r] : s[lo].lpid_base + (r - s[lo].first);
    }
    case AVRM_MODE_COUNT:
        break;
    }
    __builtin_unreachable();   /* modes are set only by the builder */
}

/* rank -> (pgid, lpid): for group operations. */
static inline avrm_lpid_t avrm_map_lpid(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                        uint32_t r, avrm_pgid_t *pgid)
{
    const avrm_ave_t *e;
    return avrm_map_locate(ctx, m, r, pgid, &e);
}

/* rank -> network address word (libfabric fi_addr_t): the send/put path. */
static inline uint64_t avrm_map_addr(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    avrm_pgid_t g;
    const avrm_ave_t *e;
    avrm_lpid_t l = avrm_map_locate(ctx, m, r, &g, &e);
    return e ? avrm_ave_addr(e[l]) : (uint64_t) l;
}

/* rank -> is the peer on this node (shared-memory transport)? */
static inline int avrm_map_is_local(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    avrm_pgid_t g;
    const avrm_ave_t *e;
    avrm_lpid_t l = avrm_map_locate(ctx, m, r, &g, &e);
    return e ? (e[l] & AVRM_AVE_LOCAL) != 0 : avrm_locality_has(&ctx->avs[g]->local, l);
}

/* Checked variant for untrusted ranks: AVRM_ERR_ARG when r >= size. */
static inline avrm_status_t avrm_map_lpid_checked(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                                  int r, avrm_gpid_t *out)
{
    if (r < 0 || (uint32_t) r >= m->size) return AVRM_ERR_ARG;
    avrm_pgid_t g;
    out->lpid = avrm_map_lpid(ctx, m, (uint32_t) r, &g);
    out->pgid = g;
    out->reserved = 0;
    return AVRM_OK;
}

#endif /* AVRM_LOOKUP_H */
