/* avrm_table.c - refcounted tables and their accounting (see avrm_table.h). */
#include "avrm_alloc.h"
#include "avrm_index.h"
#include "avrm_table.h"

static size_t shared_part(const avrm_table_t *t)
{
    return t->refbytes > t->bytes ? t->refbytes - t->bytes : 0;
}

static size_t alloc_bytes(const avrm_table_t *t)
{
    return sizeof(*t) + t->bytes;
}

avrm_table_t *avrm_table_new(avrm_mode_t kind, size_t bytes)
{
    avrm_table_t *t = avrm__malloc(sizeof(*t) + bytes);
    if (!t) return NULL;
    *t = (avrm_table_t) { .kind = (uint8_t) kind, .bytes = bytes };
    return t;
}

void avrm_table_discard(avrm_table_t *t)
{
    avrm__free(t);
}

avrm_table_t *avrm_table_publish(avrm_ctx_t *ctx, avrm_table_t *t, size_t refbytes)
{
    if (ctx->params.share_by_content) {
        t->hash = avrm_index_hash(t);
        avrm_table_t *same = avrm_index_find(ctx, t);
        if (same) {
            avrm_table_discard(t);
            avrm_table_ref(ctx, same, refbytes);
            return same;
        }
        avrm_index_insert(ctx, t);
    }
    t->refs = 1;
    t->refbytes = refbytes;
    t->lprev = NULL;
    t->lnext = ctx->tables;
    if (ctx->tables) ctx->tables->lprev = t;
    ctx->tables = t;
    ctx->stats.table_bytes += alloc_bytes(t);
    ctx->stats.table_shared_bytes += shared_part(t);
    ctx->stats.ntables++;
    return t;
}

void avrm_table_ref(avrm_ctx_t *ctx, avrm_table_t *t, size_t refbytes)
{
    ctx->stats.table_shared_bytes -= shared_part(t);
    t->refs++;
    t->refbytes += refbytes;
    ctx->stats.table_shared_bytes += shared_part(t);
}

static void table_free(avrm_ctx_t *ctx, avrm_table_t *t)
{
    avrm_index_remove(ctx, t);
    if (t->lprev) t->lprev->lnext = t->lnext; else ctx->tables = t->lnext;
    if (t->lnext) t->lnext->lprev = t->lprev;
    ctx->stats.table_shared_bytes -= shared_part(t);
    ctx->stats.table_bytes -= alloc_bytes(t);
    ctx->stats.ntables--;
    avrm__free(t);
}

void avrm_table_unref(avrm_ctx_t *ctx, avrm_table_t *t, size_t refbytes)
{
    if (--t->refs == 0) {
        table_free(ctx, t);
        return;
    }
    ctx->stats.table_shared_bytes -= shared_part(t);
    t->refbytes -= refbytes;
    ctx->stats.table_shared_bytes += shared_part(t);
}

void avrm_table_free_all(avrm_ctx_t *ctx)
{
    while (ctx->tables) table_free(ctx, ctx->tables);
}
