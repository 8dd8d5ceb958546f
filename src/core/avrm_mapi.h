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
    return m->mode >= AVRM_MODE_LUT ? m->u.lut.tbl : NULL;   /* LUT, LUT16, MLUT */
}

/* Bytes per rank of the per-rank table modes (LUT, LUT16, MLUT); 0 otherwise. */
static inline size_t avrm__map_elem_bytes(const avrm_rankmap_t *m)
{
    return m->mode == AVRM_MODE_LUT ? sizeof(uint32_t)
         : m->mode == AVRM_MODE_LUT16 ? sizeof(uint16_t)
         : m->mode == AVRM_MODE_MLUT ? sizeof(avrm_gpid_t) : 0;
}

/* Live map count/bytes per mode: +1 at build/init/dup, -1 at release. */
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
