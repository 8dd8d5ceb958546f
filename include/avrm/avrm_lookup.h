/*
 * avrm_lookup.h - the inline fast path: communicator rank -> (pgid, lpid)
 * -> address word. avrm_map_locate() is the only mode switch; the hot-path
 * classes (avrm__map_hot_) are tested before it and use the same per-mode
 * formulas; every lookup is built on these two and the compiler drops what a
 * caller does not use.
 *
 * Thread safety: read-only, lock-free; see avrm_ctx.h.
 * Preconditions: r < m->size (the MPI layer validates ranks; use
 * avrm_map_lpid_checked() where it does not). No allocation; no call but
 * avrm_map_ave's generic path (avrm_map_ave_generic).
 *
 * Cost: instructions per avrm_map_addr() inlined in a loop, x86_64 gcc 12
 * -O2, measured with callgrind by bench/run-core.sh (loop minus empty loop;
 * its "lookup: instructions" table):
 *   hot-path classes (stored AVs): direct 7, offset 7, lut 12, stride 13,
 *                ilut 13, join 14, lut16 16, mlut32 22; computed AV (RANGE
 *                locality, the computed classes): direct 9, stride 9, lut 19,
 *                ilut 20, lut16 21
 *   generic:     except 32, block 32, mlut 34, grid (3-d) 51, mseg 63
 * The generic path pays the class tests (avrm__map_hot_: a zero test, a
 * sign, five compares), the PIC jump table and the computed-AV test. (With
 * MLUT32 a generic mode, mlut32 cost 31 and every generic mode 2 less; the
 * computed tables' test costs every generic mode 2.)
 * avrm_map_ave keeps the generic path out of line (one call). In libmpi's
 * MPI_Isend the classes cost what test/insns/baseline-default.csv shows.
 */
#ifndef AVRM_LOOKUP_H
#define AVRM_LOOKUP_H

#include "avrm_av.h"

/* The fast path is always inlined (MPICH CH4 inlines its rank->address
 * translation the same way); an outlined call costs more than most modes. */
#define AVRM_INLINE static inline __attribute__((always_inline))

/* Per-mode lpid formulas: the only definitions, shared by the hot-path
 * classes below and by the mode switch. */
AVRM_INLINE avrm_lpid_t avrm__lpid_offset(const avrm_rankmap_t *m, uint32_t r)
{
    return (uint32_t) m->u.reg.offset + r;                 /* DIRECT: offset 0 */
}
AVRM_INLINE avrm_lpid_t avrm__lpid_stride(const avrm_rankmap_t *m, uint32_t r)
{
    return (uint32_t) m->u.reg.offset + r * (uint32_t) m->u.reg.stride;   /* mod 2^32 */
}
AVRM_INLINE avrm_lpid_t avrm__lpid_lut(const avrm_rankmap_t *m, uint32_t r)
{
    return ((const avrm_lpid_t *) m->u.lut.v)[r];
}
/* r < size <= AVRM_ILUT_MAX. GCC's -Warray-bounds may see this inlined with
 * a constant rank beyond 16 on a map whose class it cannot know (not ILUT):
 * the warning is off for these lines only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
AVRM_INLINE avrm_lpid_t avrm__lpid_ilut(const avrm_rankmap_t *m, uint32_t r)
{
    return m->u.ilut[r];
}
#pragma GCC diagnostic pop
AVRM_INLINE avrm_lpid_t avrm__lpid_lut16(const avrm_rankmap_t *m, uint32_t r)
{
    return ((const uint16_t *) m->u.lut.v)[r];
}
/* packed[r] = pgid << 24 | lpid */
AVRM_INLINE avrm_lpid_t avrm__lpid_mlut32(const avrm_rankmap_t *m, uint32_t r, avrm_pgid_t *pgid)
{
    uint32_t g = ((const uint32_t *) m->u.lut.v)[r];
    *pgid = (avrm_pgid_t) (g >> AVRM_MLUT32_SHIFT);
    return g & (AVRM_MAX_WORLD - 1);
}

/* The mode switch: rank -> lpid, with the rank's group and that AV's entry
 * array (NULL: computed AV, address == lpid). */
AVRM_INLINE avrm_lpid_t avrm_map_locate(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                          uint32_t r, avrm_pgid_t *pgid,
                                          const avrm_ave_t **ents)
{
    *pgid = m->pgid;
    *ents = m->ents;
    switch ((avrm_mode_t) m->mode) {
    case AVRM_MODE_DIRECT:
    case AVRM_MODE_OFFSET:
        return avrm__lpid_offset(m, r);
    case AVRM_MODE_STRIDE:
        return avrm__lpid_stride(m, r);
    case AVRM_MODE_BLOCK:
        return (uint32_t) m->u.reg.offset + (r / m->u.reg.bs) * (uint32_t) m->u.reg.stride
               + r % m->u.reg.bs;
    case AVRM_MODE_EXCEPT:
        if (r == m->u.exc.ex_rank[0]) return m->u.exc.ex_lpid[0];
        if (r == m->u.exc.ex_rank[1]) return m->u.exc.ex_lpid[1];   /* unused slot: rank UINT32_MAX */
        return (uint32_t) m->u.exc.offset + r * (uint32_t) m->u.exc.stride;
    case AVRM_MODE_GRID: {
        avrm_lpid_t l = m->u.grid.base;
        for (int d = m->u.grid.ndims - 1; d > 0; d--) {
            l += (r % m->u.grid.ext[d]) * m->u.grid.wstride[d];
            r /= m->u.grid.ext[d];
        }
        return l + r * m->u.grid.wstride[0];
    }
    case AVRM_MODE_ILUT:
        return avrm__lpid_ilut(m, r);
    case AVRM_MODE_JOIN: {      /* entries from the AVs: the cached ones may predate a reseal */
        int second = r >= m->u.join.first1;
        *pgid = second ? m->u.join.pgid1 : m->pgid;
        *ents = avrm_ctx_av(ctx, *pgid)->entries;
        return (uint32_t) (second ? m->u.join.delta1 : m->u.join.delta0) + r;
    }
    case AVRM_MODE_LUT:
        return avrm__lpid_lut(m, r);
    case AVRM_MODE_LUT16:
        return avrm__lpid_lut16(m, r);
    case AVRM_MODE_MLUT: {
        avrm_gpid_t g = ((const avrm_gpid_t *) m->u.lut.v)[r];
        *pgid = g.pgid;
        *ents = avrm_ctx_av(ctx, g.pgid)->entries;
        return g.lpid;
    }
    case AVRM_MODE_MLUT32: {
        avrm_lpid_t l = avrm__lpid_mlut32(m, r, pgid);
        *ents = avrm_ctx_av(ctx, *pgid)->entries;
        return l;
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
        *ents = avrm_ctx_av(ctx, s[lo].pgid)->entries;
        return m->u.mseg.lut ? m->u.mseg.lut[r] : s[lo].lpid_base + (r - s[lo].first);
    }
    case AVRM_MODE_COUNT:
        break;
    }
    __builtin_unreachable();   /* modes are set only by the builder */
}

/* What a caller of the hot-path classes wants (a constant at every call):
 * rank r's lpid and group, its entry word, or the entry word's address only
 * (the COMPUTED class then skips the locality test). */
enum { AVRM__HOT_LPID = 0, AVRM__HOT_ENT = 1, AVRM__HOT_ADDR = 2 };

/* One output of the hot-path classes: rank r's entry word (want_ent: ENT or
 * ADDR), or its lpid and group (LPID). The entry is loaded in
 * each class's branch, as a hand-written tree would: one load after the
 * tree's merge made GCC 12 allocate the MPI_Isend path's registers worse
 * (2-3 more instructions per call, issue 25). */
AVRM_INLINE void avrm__hot_out(int want_ent, const avrm_ave_t *ents, avrm_pgid_t g,
                               avrm_lpid_t l, avrm_ave_t *ent, avrm_lpid_t *lpid,
                               avrm_pgid_t *pgid)
{
    if (want_ent) {
        *ent = avrm_ave_get(ents, l);
    } else {
        *lpid = l;
        *pgid = g;
    }
}

/* The output of the computed classes (address == lpid l, locality the
 * range test of the map's copy of the AV's RANGE), as avrm__hot_out's. */
AVRM_INLINE void avrm__computed_out(const avrm_rankmap_t *m, int want_ent, avrm_lpid_t l,
                                    avrm_ave_t *ent, avrm_lpid_t *lpid, avrm_pgid_t *pgid)
{
    if (want_ent) {
        *ent = avrm_ave_make(l, want_ent == AVRM__HOT_ENT &&
                                l - m->u.computed.first < m->u.computed.count);
    } else {
        *lpid = l;
        *pgid = m->pgid;
    }
}

/* The hot-path classes (avrm_path_t), without the switch: rank r's entry
 * word (want_ent) or its lpid and group, when m's class is not GENERIC;
 * returns 0 otherwise. OFFSET by the zero test of the signed class byte,
 * LUT and COMPUTED by its sign and one compare, then one compare with JOIN
 * splits STRIDE, JOIN and the rest (ILUT, LUT16, MLUT32, the computed
 * tables, GENERIC). */
AVRM_INLINE int avrm__map_hot_(const avrm_rankmap_t *m, uint32_t r, int want_ent,
                               avrm_ave_t *ent, avrm_lpid_t *lpid, avrm_pgid_t *pgid)
{
    int p = m->path;
    if (__builtin_expect(p == AVRM_PATH_OFFSET, 1))
        avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_offset(m, r), ent, lpid, pgid);
    else if (p < 0) {
        if (p == AVRM_PATH_LUT)
            avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_lut(m, r), ent, lpid, pgid);
        else                    /* AVRM_PATH_COMPUTED */
            avrm__computed_out(m, want_ent, avrm__lpid_stride(m, r), ent, lpid, pgid);
    }
    else if (p <= AVRM_PATH_JOIN) {
        if (p < AVRM_PATH_JOIN)                              /* AVRM_PATH_STRIDE */
            avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_stride(m, r), ent, lpid, pgid);
        else if (r < m->u.join.first1)
            avrm__hot_out(want_ent, m->ents, m->pgid, (uint32_t) m->u.join.delta0 + r,
                          ent, lpid, pgid);
        else
            avrm__hot_out(want_ent, m->u.join.ents1, m->u.join.pgid1,
                          (uint32_t) m->u.join.delta1 + r, ent, lpid, pgid);
    } else if (p < AVRM_PATH_LUT16)                          /* AVRM_PATH_ILUT */
        avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_ilut(m, r), ent, lpid, pgid);
    else if (p == AVRM_PATH_LUT16)
        avrm__hot_out(want_ent, m->ents, m->pgid, avrm__lpid_lut16(m, r), ent, lpid, pgid);
    else if (p == AVRM_PATH_MLUT32) {
        avrm_pgid_t g;
        avrm_lpid_t l = avrm__lpid_mlut32(m, r, &g);
        avrm__hot_out(want_ent, __atomic_load_n(&m->u.lut.ents_of[g], __ATOMIC_RELAXED), g, l,
                      ent, lpid, pgid);
    } else if (__builtin_expect(p < AVRM_PATH_GENERIC, 0))  /* the computed tables */
        avrm__computed_out(m, want_ent, p == AVRM_PATH_CLUT ? avrm__lpid_lut(m, r)
                                        : p == AVRM_PATH_CLUT16 ? avrm__lpid_lut16(m, r)
                                        : avrm__lpid_ilut(m, r), ent, lpid, pgid);
    else
        return 0;
    return 1;
}

/* The entry word of rank r through the hot-path classes, all inline; 0 when
 * m's class is GENERIC (then avrm_map_ave_generic answers). avrm_map_ave is
 * this and that; a caller whose ctx is a global calls the two itself, so
 * that the global is read on the generic branch only: GCC orders plain
 * memory accesses around the atomic entry load (avrm_ave_load), so a ctx
 * loaded as avrm_map_ave's argument stays in front of it on every path
 * (CH4's MPIDIU_comm_rank_to_av: 2 instructions per MPI_Isend, issue 25). */
AVRM_INLINE int avrm_map_ave_hot(const avrm_rankmap_t *m, uint32_t r, avrm_ave_t *ent)
{
    return avrm__map_hot_(m, r, AVRM__HOT_ENT, ent, NULL, NULL);
}

/* rank -> (pgid, lpid): for group operations and CH4's rank -> lpid (the
 * active-message and shared-memory paths): the hot-path classes first, as
 * in avrm_map_ave, then the mode switch. */
AVRM_INLINE avrm_lpid_t avrm_map_lpid(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                        uint32_t r, avrm_pgid_t *pgid)
{
    avrm_lpid_t l;
    if (avrm__map_hot_(m, r, AVRM__HOT_LPID, NULL, &l, pgid))
        return l;
    const avrm_ave_t *e;
    return avrm_map_locate(ctx, m, r, pgid, &e);
}

/* avrm_map_ave's GENERIC class, out of line (avrm_map.c): the switch and the
 * computed-AV test. */
avrm_ave_t avrm_map_ave_generic(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r);

/* rank -> the peer's address word as stored in an AV entry: address << 1 |
 * AVRM_AVE_LOCAL. One decode gives both the network address and the
 * locality bit (CH4 needs both on every send/put). For a computed AV the word
 * is made up: lpid << 1 | (lpid in my node's locality description).
 * The hot-path classes are inline, the rest one call away: MPICH inlines
 * this at every send/put/AM site, and the whole switch inlined there made
 * the enclosing functions too big for the compiler to inline in turn. */
AVRM_INLINE avrm_ave_t avrm_map_ave(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    avrm_ave_t ent;
    if (avrm_map_ave_hot(m, r, &ent)) return ent;
    return avrm_map_ave_generic(ctx, m, r);
}

/* rank -> network address word (libfabric fi_addr_t) only, all inline. Kept
 * apart from avrm_map_ave: on the generic path it skips the locality of a
 * computed AV (routing it through avrm_map_ave cost 2-9 more instructions
 * per lookup). */
AVRM_INLINE uint64_t avrm_map_addr(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    avrm_ave_t ent;
    if (avrm__map_hot_(m, r, AVRM__HOT_ADDR, &ent, NULL, NULL)) return avrm_ave_addr(ent);
    avrm_pgid_t g;
    const avrm_ave_t *e;
    avrm_lpid_t l = avrm_map_locate(ctx, m, r, &g, &e);
    return e ? avrm_ave_addr(avrm_ave_load(&e[l])) : (uint64_t) l;
}

/* rank -> is the peer on this node (shared-memory transport)? */
AVRM_INLINE int avrm_map_is_local(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    return (avrm_map_ave(ctx, m, r) & AVRM_AVE_LOCAL) != 0;
}

/* Does the map span several process groups (JOIN, MLUT, MLUT32, MSEG)?
 * Then m->pgid is not every rank's group: each rank carries its own pgid. */
static inline int avrm_map_is_multi(const avrm_rankmap_t *m)
{
    return m->mode == AVRM_MODE_JOIN || m->mode == AVRM_MODE_MLUT || m->mode == AVRM_MODE_MLUT32 || m->mode == AVRM_MODE_MSEG;
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
