/* avrm_map.c - whole-group maps, dup, release, introspection (see avrm_rankmap.h). */
#include <string.h>
#include "avrm_mapi.h"

avrm_status_t avrm_map_init_group(avrm_ctx_t *ctx, avrm_pgid_t pgid, avrm_rankmap_t *out)
{
    if (!ctx || !out || pgid >= ctx->navs || !ctx->avs[pgid]) return AVRM_ERR_ARG;
    const avrm_av_t *av = ctx->avs[pgid];
    avrm_rankmap_t m;
    memset(&m, 0, sizeof(m));
    m.mode = AVRM_MODE_DIRECT;
    m.pgid = pgid;
    m.size = av->size;
    m.ents = av->entries;
    avrm__map_seal(ctx, &m);
    avrm__map_count(ctx, &m, +1);
    *out = m;
    return AVRM_OK;
}

avrm_ave_t avrm_map_ave_generic(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    avrm_pgid_t g;
    const avrm_ave_t *e;
    avrm_lpid_t l = avrm_map_locate(ctx, m, r, &g, &e);
    return e ? avrm_ave_get(e, l) : avrm_ave_make(l, avrm_locality_has(&avrm_ctx_av(ctx, g)->local, l));
}

void avrm_map_mark_groups(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint8_t *seen)
{
    if (m->size == 0) return;
    if (!avrm_map_is_multi(m)) {
        seen[m->pgid] = 1;
        return;
    }
    if (m->mode == AVRM_MODE_JOIN) {
        seen[m->pgid] = seen[m->u.join.pgid1] = 1;
        return;
    }
    if (m->mode == AVRM_MODE_MSEG) {         /* every rank lies in a segment */
        for (uint32_t k = 0; k < m->u.mseg.nsegs; k++)
            seen[m->u.mseg.segs[k].pgid] = 1;
        return;
    }
    /* MLUT/MLUT32: the groups of a whole table are found once, by a walk,
     * and kept in its header (avrm_table.h: groups); later calls for maps
     * of the whole table (its communicator, MPI_Comm_group, their dups and
     * releases) are O(15). A slice of a larger table, or a table with a
     * group >= AVRM_TABLE_GROUPS_MAX, walks its ranks every time. This stays
     * a reader: concurrent callers store the same value (relaxed atomics). */
    avrm_table_t *t = avrm__map_table(m);
    int whole = t && m->u.lut.v == (const void *) t->data &&
                (size_t) m->size * avrm__map_elem_bytes(m) == t->bytes;
    uint16_t known = whole ? __atomic_load_n(&t->groups, __ATOMIC_RELAXED) : 0;
    if (known && !(known & AVRM_TABLE_GROUPS_MANY)) {
        for (uint32_t g = 0; g < AVRM_TABLE_GROUPS_MAX; g++)
            if (known >> g & 1)
                seen[g] = 1;
        return;
    }
    uint16_t groups = 0;
    for (uint32_t r = 0; r < m->size; r++) {
        avrm_pgid_t g;
        (void) avrm_map_lpid(ctx, m, r, &g);
        seen[g] = 1;
        groups |= g < AVRM_TABLE_GROUPS_MAX ? (uint16_t) (1u << g) : AVRM_TABLE_GROUPS_MANY;
    }
    if (whole)
        __atomic_store_n(&t->groups, groups, __ATOMIC_RELAXED);
}

void avrm_map_reseal(const avrm_ctx_t *ctx, avrm_rankmap_t *m)
{
    if (!ctx || !m || !m->size) return;
    if (m->mode == AVRM_MODE_JOIN)
        m->u.join.ents1 = ctx->avs[m->u.join.pgid1]->entries;
    else if (m->mode == AVRM_MODE_MLUT32) {
        avrm__map_seal(ctx, m);      /* its class needs every group stored */
        return;
    } else if (avrm_map_is_multi(m))
        return;                      /* finds its AVs at lookup time */
    if (m->pgid >= ctx->navs || !ctx->avs[m->pgid]) return;
    m->ents = ctx->avs[m->pgid]->entries;
    avrm__map_seal(ctx, m);
}

size_t avrm_map_table_bytes(const avrm_rankmap_t *m, int *shared)
{
    const avrm_table_t *t = m ? avrm__map_table(m) : NULL;
    size_t b = 0;
    if (t) b = m->mode == AVRM_MODE_MSEG ? t->bytes : (size_t) m->size * avrm__map_elem_bytes(m);
    if (shared) *shared = t && t->refs > 1;
    return b;
}

void avrm_map_dup(avrm_ctx_t *ctx, const avrm_rankmap_t *in, avrm_rankmap_t *out)
{
    avrm_rankmap_t m = *in;
    avrm_table_t *t = avrm__map_table(&m);
    if (t) avrm_table_ref(ctx, t, avrm_map_table_bytes(&m, NULL));
    if (m.size) avrm__map_count(ctx, &m, +1);
    *out = m;
}

void avrm_map_release(avrm_ctx_t *ctx, avrm_rankmap_t *m)
{
    if (!ctx || !m) return;
    if (m->size) {
        avrm_table_t *t = avrm__map_table(m);
        if (t) avrm_table_unref(ctx, t, avrm_map_table_bytes(m, NULL));
        avrm__map_count(ctx, m, -1);
    }
    memset(m, 0, sizeof(*m));
    m->mode = AVRM_MODE_DIRECT;
    m->path = AVRM_PATH_GENERIC;   /* no cached entries */
}

const char *avrm_mode_name(avrm_mode_t mode)
{
    static const char *const names[AVRM_MODE_COUNT] = {
        [AVRM_MODE_DIRECT] = "direct", [AVRM_MODE_OFFSET] = "offset",
        [AVRM_MODE_STRIDE] = "stride", [AVRM_MODE_BLOCK] = "block",
        [AVRM_MODE_EXCEPT] = "except", [AVRM_MODE_GRID] = "grid", [AVRM_MODE_ILUT] = "ilut",
        [AVRM_MODE_JOIN] = "join",
        [AVRM_MODE_LUT] = "lut", [AVRM_MODE_LUT16] = "lut16",
        [AVRM_MODE_MLUT] = "mlut", [AVRM_MODE_MLUT32] = "mlut32", [AVRM_MODE_MSEG] = "mseg",
    };
    return (unsigned) mode < AVRM_MODE_COUNT ? names[mode] : "invalid";
}
