/* avrm_av.c - address vectors: create, fill, make stored, destroy (see avrm_av.h). */
#include <string.h>
#include "avrm_alloc.h"
#include "avrm_ctxi.h"
#include "avrm/avrm_av.h"

static size_t av_meta(const avrm_av_t *av)
{
    size_t b = sizeof(*av);
    if (av->local.kind == AVRM_LOCAL_LIST) b += (size_t) av->local.count * sizeof(uint32_t);
    if (av->entries && !av->sparse) b += sizeof(avrm_ave_t);     /* the header word */
    return b;
}

/* Bytes of a dense AV's entries, as ctx->stats keeps them (8 per peer); a
 * sparse AV's written pages change without the context, so avrm_ctx_stats
 * adds them when asked (avrm_av_sparse_bytes). */
static size_t av_entry_bytes(const avrm_av_t *av)
{
    return av->entries && !av->sparse ? (size_t) av->size * sizeof(avrm_ave_t) : 0;
}

size_t avrm_av_sparse_bytes(const avrm_av_t *av)
{
    return av && av->sparse ? (size_t) __atomic_load_n(&av->pages, __ATOMIC_RELAXED) * avrm__page_size()
                            : 0;
}

/* A dense entry array of n words after its header word (0); zeroed if asked. */
static avrm_ave_t *dense_alloc(uint32_t n, int zero)
{
    avrm_ave_t *b = zero ? avrm__calloc((size_t) n + 1u, sizeof(*b))
                         : avrm__malloc(((size_t) n + 1u) * sizeof(*b));
    if (!b) return NULL;
    b[0] = 0;
    return b + 1;
}

/* The reserved mapping of a sparse AV of size peers: the header and the
 * entries, whole pages. */
static size_t sparse_bytes(uint32_t size)
{
    return ((size_t) size + 1u) * sizeof(avrm_ave_t);
}

static void entries_free(avrm_ave_t *ents, int sparse, uint32_t size)
{
    if (!ents) return;
    if (sparse) {
        size_t ps = avrm__page_size();
        avrm__unreserve(ents - 1, (sparse_bytes(size) + ps - 1) / ps * ps);
    } else {
        avrm__free(ents - 1);
    }
}

/* Before a word is written into a sparse AV: its page holds memory from now
 * on; counted when every word of it was zero (untouched: words written are
 * never zero, and page 0 holds the header). Writers only (serialized). */
static void sparse_note_write(avrm_av_t *av, avrm_lpid_t lpid)
{
    size_t wpp = avrm__page_size() / sizeof(avrm_ave_t);
    const avrm_ave_t *page = av->entries - 1 + ((size_t) lpid + 1u) / wpp * wpp;
    for (size_t i = 0; i < wpp; i++)
        if (page[i]) return;
    __atomic_store_n(&av->pages, av->pages + 1u, __ATOMIC_RELAXED);   /* read by avrm_ctx_stats */
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
    if (!computed && !(ents = dense_alloc(params->size, 1))) goto err_ents;
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
    ctx->stats.av_entry_bytes += av_entry_bytes(av);
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
    entries_free(ents, 0, params->size);
err_ents:
    avrm__free(av);
err_av:
    return AVRM_ERR_NOMEM;
}

avrm_status_t avrm_av_set(avrm_av_t *av, avrm_lpid_t lpid, uint64_t addr, int is_local)
{
    if (!av || lpid >= av->size || addr > AVRM_AVE_MAX_ADDR) return AVRM_ERR_ARG;
    if (!av->entries && addr != lpid) return AVRM_ERR_ARG;
    if (av->sparse && avrm_ave_make(addr, is_local) == 0) return AVRM_ERR_ARG;
    if (av->sparse) sparse_note_write(av, lpid);
    if (av->entries)
        __atomic_store_n(&av->entries[lpid], avrm_ave_make(addr, is_local), __ATOMIC_RELEASE);
    return AVRM_OK;
}

avrm_status_t avrm_av_set_pending(avrm_av_t *av, avrm_lpid_t lpid, int is_local)
{
    if (!av || !av->entries || lpid >= av->size) return AVRM_ERR_ARG;
    if (av->sparse) sparse_note_write(av, lpid);
    __atomic_store_n(&av->entries[lpid], avrm_ave_make_pending(lpid, is_local), __ATOMIC_RELEASE);
    return AVRM_OK;
}

avrm_status_t avrm_av_make_stored(avrm_ctx_t *ctx, avrm_av_t *av)
{
    if (!ctx || !av) return AVRM_ERR_ARG;
    if (av->entries) return AVRM_OK;
    avrm_ave_t *ents = dense_alloc(av->size, 0);
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
    ctx->stats.av_entry_bytes += av_entry_bytes(av);
    return AVRM_OK;
}

avrm_status_t avrm_av_make_sparse(avrm_ctx_t *ctx, avrm_av_t *av)
{
    if (!ctx || !av) return AVRM_ERR_ARG;
    if (av->sparse) return AVRM_OK;
    size_t len;
    avrm_ave_t *base = avrm__reserve(sparse_bytes(av->size), &len);
    if (!base) return AVRM_ERR_NOMEM;
    base[0] = AVRM_AVH_SPARSE;

    avrm_av_t old = *av;
    ctx->stats.av_entry_bytes -= av_entry_bytes(av);
    ctx->stats.av_meta_bytes -= av_meta(av);
    memset(&av->local, 0, sizeof(av->local));
    av->entries = base + 1;
    av->computed = 0;
    av->sparse = 1;
    av->pages = 1;                                  /* page 0: the header */
    ctx->stats.av_entry_bytes += av_entry_bytes(av);
    ctx->stats.av_meta_bytes += av_meta(av);

    /* my node's members keep a pending word with their local bit */
    if (old.entries) {
        for (uint32_t l = 0; l < old.size; l++)
            if (avrm_ave_load(&old.entries[l]) & AVRM_AVE_LOCAL)
                avrm_av_set_pending(av, l, 1);
    } else if (old.local.kind == AVRM_LOCAL_RANGE) {
        for (uint32_t l = old.local.first; l - old.local.first < old.local.count && l < old.size; l++)
            avrm_av_set_pending(av, l, 1);
    } else if (old.local.kind == AVRM_LOCAL_CYCLIC) {
        for (uint32_t l = old.local.node; l < old.size; l += old.local.nnodes)
            avrm_av_set_pending(av, l, 1);
    } else if (old.local.kind == AVRM_LOCAL_LIST) {
        for (uint32_t i = 0; i < old.local.count; i++)
            avrm_av_set_pending(av, old.local.list[i], 1);
    }
    entries_free(old.entries, 0, old.size);
    avrm__free(old.local.list);
    if (av->pgid < AVRM_MLUT32_MAX_PGS)
        __atomic_store_n(&ctx->ents_of[av->pgid], av->entries, __ATOMIC_RELAXED);
    return AVRM_OK;
}

void avrm_av_destroy(avrm_ctx_t *ctx, avrm_pgid_t pgid)
{
    if (!ctx || pgid >= ctx->navs || !ctx->avs[pgid]) return;
    avrm_av_t *av = ctx->avs[pgid];
    ctx->stats.av_entry_bytes -= av_entry_bytes(av);
    ctx->stats.av_meta_bytes -= av_meta(av);
    entries_free(av->entries, av->sparse, av->size);
    avrm__free(av->local.list);
    avrm__free(av);
    ctx->avs[pgid] = NULL;
    if (pgid < AVRM_MLUT32_MAX_PGS)
        __atomic_store_n(&ctx->ents_of[pgid], NULL, __ATOMIC_RELAXED);
}
