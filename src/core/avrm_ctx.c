/* avrm_ctx.c - context, parameters, virtual grids, accounting snapshot. */
#include <string.h>
#include "avrm_alloc.h"
#include "avrm_table.h"
#include "avrm_ctxi.h"
#include "avrm/avrm_av.h"

avrm_params_t avrm_params_default(void)
{
    return (avrm_params_t) {
        .enable_patterns = 1, .enable_except = 1, .enable_grid = 1, .enable_lut16 = 1,
        .enable_mseg = 1, .share_by_content = 1, .computed_av = 0, .enable_ilut = 1,
    };
}

avrm_status_t avrm_ctx_create(const avrm_params_t *params, avrm_ctx_t **out)
{
    if (!out) return AVRM_ERR_ARG;
    avrm_ctx_t *ctx = avrm__calloc(1, sizeof(*ctx));
    if (!ctx) return AVRM_ERR_NOMEM;
    ctx->params = params ? *params : avrm_params_default();
    *out = ctx;
    return AVRM_OK;
}

void avrm_ctx_destroy(avrm_ctx_t *ctx)
{
    if (!ctx) return;
    for (uint32_t g = 0; g < ctx->navs; g++)
        if (ctx->avs[g]) avrm_av_destroy(ctx, (avrm_pgid_t) g);
    avrm_table_free_all(ctx);
    /* the live array of AV slots and every one it replaced (avrm_av.c) */
    for (avrm_av_t **blk = ctx->avs ? ctx->avs - 1 : NULL; blk;) {
        avrm_av_t **retired = (avrm_av_t **) (void *) blk[0];
        avrm__free(blk);
        blk = retired;
    }
    avrm__free(ctx);
}

static int grid_known(const avrm_ctx_t *ctx, uint8_t ndims, const uint32_t *dims)
{
    for (uint32_t i = 0; i < ctx->ngrids; i++)
        if (ctx->grids[i].ndims == ndims &&
            memcmp(ctx->grids[i].dims, dims, ndims * sizeof(uint32_t)) == 0)
            return 1;
    return 0;
}

avrm_status_t avrm_ctx_add_grid(avrm_ctx_t *ctx, uint8_t ndims, const uint32_t *dims)
{
    if (!ctx || !dims || ndims < 1 || ndims > AVRM_MAX_GRID_DIMS || ctx->world_size == 0)
        return AVRM_ERR_ARG;
    uint64_t prod = 1;
    for (unsigned d = 0; d < ndims; d++) {
        if (dims[d] == 0) return AVRM_ERR_ARG;
        prod *= dims[d];
        if (prod > ctx->world_size) return AVRM_ERR_ARG;
    }
    if (prod != ctx->world_size) return AVRM_ERR_ARG;
    if (grid_known(ctx, ndims, dims)) return AVRM_OK;
    if (ctx->ngrids == AVRM_MAX_GRIDS) return AVRM_ERR_LIMIT;
    avrm_grid_t *g = &ctx->grids[ctx->ngrids++];
    memset(g, 0, sizeof(*g));
    g->ndims = ndims;
    memcpy(g->dims, dims, ndims * sizeof(uint32_t));
    return AVRM_OK;
}

void avrm__dims_create(uint32_t n, unsigned ndims, uint32_t *dims)
{
    /* Balanced factorization, like MPI_Dims_create: prime factors from the
     * largest, each to the dimension with the smallest product so far;
     * then sorted non-increasing. */
    uint32_t primes[32];
    unsigned np = 0;
    for (uint32_t p = 2, m = n; m > 1 && np < 32;) {
        if ((uint64_t) p * p > m) { primes[np++] = m; break; }
        if (m % p == 0) { primes[np++] = p; m /= p; }
        else p += (p == 2) ? 1 : 2;
    }
    for (unsigned d = 0; d < ndims; d++) dims[d] = 1;
    for (unsigned i = np; i-- > 0;) {
        unsigned best = 0;
        for (unsigned d = 1; d < ndims; d++)
            if (dims[d] < dims[best]) best = d;
        dims[best] *= primes[i];
    }
    for (unsigned i = 1; i < ndims; i++)          /* insertion sort, descending */
        for (unsigned j = i; j > 0 && dims[j] > dims[j - 1]; j--) {
            uint32_t t = dims[j]; dims[j] = dims[j - 1]; dims[j - 1] = t;
        }
}

void avrm__ctx_add_world_grids(avrm_ctx_t *ctx)
{
    for (unsigned nd = 2; nd <= AVRM_MAX_GRID_DIMS; nd++) {
        uint32_t dims[AVRM_MAX_GRID_DIMS];
        avrm__dims_create(ctx->world_size, nd, dims);
        (void) avrm_ctx_add_grid(ctx, (uint8_t) nd, dims);
    }
}

void avrm_ctx_stats(const avrm_ctx_t *ctx, avrm_stats_t *out)
{
    if (!ctx || !out) return;
    *out = ctx->stats;
    for (uint32_t g = 0; g < ctx->navs; g++)
        out->av_entry_bytes += avrm_av_sparse_bytes(avrm_ctx_av(ctx, g));
}
