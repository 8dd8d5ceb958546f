/* avrm_av.c - address vectors: create, fill, make stored, destroy (see avrm_av.h). */
#include <string.h>
#include "avrm_alloc.h"
#include "avrm_ctxi.h"
#include "avrm/avrm_av.h"

static size_t av_meta(const avrm_av_t *av)
{
    size_t b = sizeof(*av);
    if (av->local.kind == AVRM_LOCAL_LIST) b += (size_t) av->local.count * sizeof(uint32_t);
    return b;
}

static avrm_status_t check_locality(const avrm_locality_t *l, uint32_t size)
{
    switch (l->kind) {
    case AVRM_LOCAL_NONE:
    case AVRM_LOCAL_RANGE:
        return AVRM_OK;
    case AVRM_LOCAL_CYCLIC:
        return l->nnodes ? AVRM_OK : AVRM_ERR_ARG;
    case AVRM_LOCAL_LIST:
        if (l->count > size || (l->count && !l->list)) return AVRM_ERR_ARG;
        for (uint32_t i = 0; i < l->count; i++)
            if (l->list[i] >= size || (i && l->list[i] <= l->list[i - 1])) return AVRM_ERR_ARG;
        return AVRM_OK;
    }
    return AVRM_ERR_ARG;
}

/* My node's members are one run of ranks (in any form, the first and the
 * last member then bound local_size ranks). */
static int members_are_a_run(const avrm_hier_t *h)
{
    return avrm_hier_local_member(h, h->local_size - 1) - avrm_hier_local_member(h, 0) + 1 ==
           h->local_size;
}

uint32_t avrm_locality_list_len(const avrm_hier_t *h)
{
    return members_are_a_run(h) || h->form == AVRM_HIER_CYCLIC ? 0 : h->local_size;
}

void avrm_locality_of_hier(const avrm_hier_t *h, uint32_t *list, avrm_locality_t *loc)
{
    memset(loc, 0, sizeof(*loc));
    if (members_are_a_run(h)) {
        loc->kind = AVRM_LOCAL_RANGE;
        loc->first = avrm_hier_local_member(h, 0);
        loc->count = h->local_size;
    } else if (h->form == AVRM_HIER_CYCLIC) {
        loc->kind = AVRM_LOCAL_CYCLIC;
        loc->nnodes = h->nnodes;
        loc->node = h->my_node;
    } else {
        loc->kind = AVRM_LOCAL_LIST;
        for (uint32_t i = 0; i < h->local_size; i++)
            list[i] = avrm_hier_local_member(h, i);
        loc->count = h->local_size;
        loc->list = list;
    }
}

avrm_status_t avrm_av_create(avrm_ctx_t *ctx, const avrm_av_params_t *params, avrm_av_t **out)
{
    if (!ctx || !params || !out || params->size == 0) return AVRM_ERR_ARG;
    if (params->size > AVRM_MAX_WORLD || params->pgid >= AVRM_MAX_PGS) return AVRM_ERR_LIMIT;
    if (params->pgid < ctx->navs && ctx->avs[params->pgid]) return AVRM_ERR_ARG;
    int computed = params->computed && ctx->params.computed_av;
    if (computed && check_locality(&params->local, params->size) != AVRM_OK) return AVRM_ERR_ARG;

    avrm_av_t *av = avrm__calloc(1, sizeof(*av));
    avrm_ave_t *ents = NULL;
    uint32_t *list = NULL;
    avrm_av_t **avs;
    if (!av) goto err_av;
    if (!computed && !(ents = avrm__calloc(params->size, sizeof(*ents)))) goto err_ents;
    if (computed && params->local.kind == AVRM_LOCAL_LIST && params->local.count) {
        if (!(list = avrm__malloc(params->local.count * sizeof(*list)))) goto err_list;
        memcpy(list, params->local.list, params->local.count * sizeof(*list));
    }
    uint32_t navs = ctx->navs;
    if (params->pgid >= navs) {
        navs = params->pgid + 1u;
        if (navs < 2 * ctx->navs) navs = 2 * ctx->navs;
        if (navs > AVRM_MAX_PGS) navs = AVRM_MAX_PGS;
        /* replace, then retire: a lock-free reader that loaded the old
         * array keeps reading valid slots (an AV never moves); retired
         * arrays are chained through the slot before each array and freed
         * by avrm_ctx_destroy. Growth doubles, so they hold fewer slots
         * than the live one. */
        avrm_av_t **blk = avrm__malloc((navs + 1u) * sizeof(*blk));
        if (!blk) goto err_avs;
        blk[0] = (avrm_av_t *) (void *) (ctx->avs ? ctx->avs - 1 : NULL);
        avs = blk + 1;
        if (ctx->navs) memcpy(avs, ctx->avs, ctx->navs * sizeof(*avs));
        memset(avs + ctx->navs, 0, (navs - ctx->navs) * sizeof(*avs));
        ctx->stats.av_meta_bytes += (navs + 1u) * sizeof(*avs);
        __atomic_store_n(&ctx->avs, avs, __ATOMIC_RELEASE);
        ctx->navs = navs;
    }

    av->entries = ents;
    av->size = params->size;
    av->pgid = params->pgid;
    av->computed = (uint8_t) computed;
    if (computed) {
        av->local = params->local;
        av->local.list = (params->local.kind == AVRM_LOCAL_LIST) ? list : NULL;
    }
    ctx->avs[params->pgid] = av;
    if (params->pgid < AVRM_MLUT32_MAX_PGS)
        __atomic_store_n(&ctx->ents_of[params->pgid], ents, __ATOMIC_RELAXED);
    ctx->stats.av_entry_bytes += ents ? (size_t) av->size * sizeof(*ents) : 0;
    ctx->stats.av_meta_bytes += av_meta(av);
    if (params->pgid == 0) {
        ctx->world_size = av->size;
        avrm__ctx_add_world_grids(ctx);
    }
    *out = av;
    return AVRM_OK;

err_avs:
    avrm__free(list);
err_list:
    avrm__free(ents);
err_ents:
    avrm__free(av);
err_av:
    return AVRM_ERR_NOMEM;
}

avrm_status_t avrm_av_set(avrm_av_t *av, avrm_lpid_t lpid, uint64_t addr, int is_local)
{
    if (!av || lpid >= av->size || addr > AVRM_AVE_MAX_ADDR) return AVRM_ERR_ARG;
    if (!av->entries && addr != lpid) return AVRM_ERR_ARG;
    if (av->entries)
        __atomic_store_n(&av->entries[lpid], avrm_ave_make(addr, is_local), __ATOMIC_RELEASE);
    return AVRM_OK;
}

avrm_status_t avrm_av_set_pending(avrm_av_t *av, avrm_lpid_t lpid, int is_local)
{
    if (!av || !av->entries || lpid >= av->size) return AVRM_ERR_ARG;
    __atomic_store_n(&av->entries[lpid], avrm_ave_make_pending(lpid, is_local), __ATOMIC_RELEASE);
    return AVRM_OK;
}

avrm_status_t avrm_av_make_stored(avrm_ctx_t *ctx, avrm_av_t *av)
{
    if (!ctx || !av) return AVRM_ERR_ARG;
    if (av->entries) return AVRM_OK;
    avrm_ave_t *ents = avrm__malloc((size_t) av->size * sizeof(*ents));
    if (!ents) return AVRM_ERR_NOMEM;
    for (uint32_t l = 0; l < av->size; l++)
        ents[l] = avrm_ave_make(l, avrm_locality_has(&av->local, l));
    ctx->stats.av_meta_bytes -= av_meta(av);
    avrm__free(av->local.list);
    memset(&av->local, 0, sizeof(av->local));
    av->entries = ents;
    av->computed = 0;
    if (av->pgid < AVRM_MLUT32_MAX_PGS)
        __atomic_store_n(&ctx->ents_of[av->pgid], ents, __ATOMIC_RELAXED);
    ctx->stats.av_meta_bytes += av_meta(av);
    ctx->stats.av_entry_bytes += (size_t) av->size * sizeof(*ents);
    return AVRM_OK;
}

void avrm_av_destroy(avrm_ctx_t *ctx, avrm_pgid_t pgid)
{
    if (!ctx || pgid >= ctx->navs || !ctx->avs[pgid]) return;
    avrm_av_t *av = ctx->avs[pgid];
    ctx->stats.av_entry_bytes -= av->entries ? (size_t) av->size * sizeof(avrm_ave_t) : 0;
    ctx->stats.av_meta_bytes -= av_meta(av);
    avrm__free(av->entries);
    avrm__free(av->local.list);
    avrm__free(av);
    ctx->avs[pgid] = NULL;
    if (pgid < AVRM_MLUT32_MAX_PGS)
        __atomic_store_n(&ctx->ents_of[pgid], NULL, __ATOMIC_RELAXED);
}
