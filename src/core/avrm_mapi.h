/*
 * avrm_mapi.h - rank-map helpers shared by the map and builder files
 * (private). Thread safety: writers only (see avrm_ctx.h). Costs O(1).
 */
#ifndef AVRM_MAPI_H
#define AVRM_MAPI_H

#include "avrm/avrm_rankmap.h"
#include "avrm_table.h"

/* Table referenced by m, or NULL for regular modes. */
static inline avrm_table_t *avrm__map_table(const avrm_rankmap_t *m)
{
    if (m->mode == AVRM_MODE_MSEG) return m->u.mseg.tbl;
    return m->mode >= AVRM_MODE_LUT ? m->u.lut.tbl : NULL;   /* LUT, LUT16, MLUT, MLUT32 */
}

/* Bytes per rank of the per-rank table modes (LUT, LUT16, MLUT, MLUT32); 0 otherwise. */
static inline size_t avrm__map_elem_bytes(const avrm_rankmap_t *m)
{
    return m->mode == AVRM_MODE_LUT ? sizeof(uint32_t)
         : m->mode == AVRM_MODE_LUT16 ? sizeof(uint16_t)
         : m->mode == AVRM_MODE_MLUT ? sizeof(avrm_gpid_t)
         : m->mode == AVRM_MODE_MLUT32 ? sizeof(uint32_t) : 0;
}

/* Live map count/bytes per mode: +1 at build/init/dup, -1 at release. */
/* Set the hot-path class from mode and the cached entry arrays (for a
 * computed AV, from its locality); every builder calls it once, last, on
 * the map it returns (dups copy it), and avrm_map_reseal after an AV became
 * stored. O(1). */
static inline void avrm__map_seal(const avrm_ctx_t *ctx, avrm_rankmap_t *m)
{
    /* per mode: its class over stored AVs, and over a computed AV whose
     * locality is a range */
    enum { STORED, COMPUTED };
    static const int8_t path_of[AVRM_MODE_COUNT][2] = {
        [AVRM_MODE_DIRECT] = { AVRM_PATH_OFFSET, AVRM_PATH_COMPUTED },
        [AVRM_MODE_OFFSET] = { AVRM_PATH_OFFSET, AVRM_PATH_COMPUTED },
        [AVRM_MODE_STRIDE] = { AVRM_PATH_STRIDE, AVRM_PATH_COMPUTED },
        [AVRM_MODE_BLOCK] = { AVRM_PATH_GENERIC, AVRM_PATH_GENERIC },
        [AVRM_MODE_EXCEPT] = { AVRM_PATH_GENERIC, AVRM_PATH_GENERIC },
        [AVRM_MODE_GRID] = { AVRM_PATH_GENERIC, AVRM_PATH_GENERIC },
        [AVRM_MODE_ILUT] = { AVRM_PATH_ILUT, AVRM_PATH_CILUT },
        [AVRM_MODE_JOIN] = { AVRM_PATH_JOIN, AVRM_PATH_GENERIC },
        [AVRM_MODE_LUT] = { AVRM_PATH_LUT, AVRM_PATH_CLUT },
        [AVRM_MODE_LUT16] = { AVRM_PATH_LUT16, AVRM_PATH_CLUT16 },
        [AVRM_MODE_MLUT] = { AVRM_PATH_GENERIC, AVRM_PATH_GENERIC },
        [AVRM_MODE_MLUT32] = { AVRM_PATH_MLUT32, AVRM_PATH_GENERIC },
        [AVRM_MODE_MSEG] = { AVRM_PATH_GENERIC, AVRM_PATH_GENERIC },
    };
    int stored = m->ents && (m->mode != AVRM_MODE_JOIN || m->u.join.ents1);
    if (m->mode == AVRM_MODE_MLUT32) {
        /* its groups' entries through ctx->ents_of: the class needs every
         * group it may name stored (a computed AV has no entries), which
         * no later AV changes (a map names existing groups; only
         * avrm_av_make_stored turns one stored: then avrm_map_reseal) */
        m->u.lut.ents_of = ctx->ents_of;
        stored = 1;
        for (uint32_t g = 0; g < ctx->navs && g < AVRM_MLUT32_MAX_PGS; g++)
            if (ctx->avs[g] && !ctx->avs[g]->entries)
                stored = 0;
    }
    m->path = stored ? path_of[m->mode][STORED] : AVRM_PATH_GENERIC;
    /* DIRECT/OFFSET/STRIDE: one layout whatever the AV, so that a map
     * resealed after its AV became stored equals a fresh one byte for byte
     * (MPI_Group_compare's memcmp shortcut): stride 1 for DIRECT/OFFSET, the
     * computed classes' range zero unless the class is one of them (a
     * stored ILUT of more than AVRM_CILUT_MAX ranks has lpids there). */
    if (m->mode < AVRM_MODE_STRIDE)
        m->u.reg.stride = 1;
    int8_t cpath = path_of[m->mode][COMPUTED];
    if (cpath == AVRM_PATH_GENERIC || (cpath == AVRM_PATH_CILUT && m->size > AVRM_CILUT_MAX))
        return;
    m->u.computed.first = m->u.computed.count = 0;
    if (stored || m->pgid >= ctx->navs || !ctx->avs[m->pgid])
        return;
    /* over a computed AV: a computed class when its locality is a range
     * test (RANGE, or NONE: an empty range); CYCLIC and LIST stay GENERIC
     * (avrm_locality_has) */
    const avrm_locality_t *loc = &ctx->avs[m->pgid]->local;
    if (loc->kind != AVRM_LOCAL_RANGE && loc->kind != AVRM_LOCAL_NONE)
        return;
    if (loc->kind == AVRM_LOCAL_RANGE) {
        m->u.computed.first = loc->first;
        m->u.computed.count = loc->count;
    }
    m->path = cpath;
}

static inline void avrm__map_count(avrm_ctx_t *ctx, const avrm_rankmap_t *m, int delta)
{
    if (delta > 0) {
        ctx->stats.map_bytes += sizeof(*m);
        ctx->stats.nmaps[m->mode]++;
    } else {
        ctx->stats.map_bytes -= sizeof(*m);
        ctx->stats.nmaps[m->mode]--;
    }
}

#endif /* AVRM_MAPI_H */
