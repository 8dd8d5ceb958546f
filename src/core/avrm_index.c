/* avrm_index.c - content-sharing hash index of tables (see avrm_index.h). */
#include <string.h>
#include "avrm_alloc.h"
#include "avrm_index.h"

uint64_t avrm_index_hash(const avrm_table_t *t)
{
    const unsigned char *p = (const unsigned char *) t->data;
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ ((uint64_t) t->kind << 56) ^ t->bytes;
    size_t i = 0;
    for (; i + 8 <= t->bytes; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * UINT64_C(0x100000001b3);
        h ^= h >> 29;
    }
    for (; i < t->bytes; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h ^ (h >> 32);
}

avrm_table_t *avrm_index_find(const avrm_ctx_t *ctx, const avrm_table_t *t)
{
    const struct avrm_index *ix = ctx->index;
    if (!ix) return NULL;
    for (avrm_table_t *c = ix->buckets[t->hash & (ix->nbuckets - 1)]; c; c = c->next)
        if (c->hash == t->hash && c->kind == t->kind && c->bytes == t->bytes &&
            memcmp(c->data, t->data, t->bytes) == 0)
            return c;
    return NULL;
}

static size_t index_bytes(const struct avrm_index *ix)
{
    return sizeof(*ix) + ix->nbuckets * sizeof(ix->buckets[0]);
}

static int index_grow(avrm_ctx_t *ctx, size_t nb)
{
    struct avrm_index *ix = ctx->index;
    avrm_table_t **b = avrm__calloc(nb, sizeof(*b));
    if (!b) return 0;
    for (size_t i = 0; i < ix->nbuckets; i++) {
        avrm_table_t *c = ix->buckets[i];
        while (c) {
            avrm_table_t *next = c->next;
            c->next = b[c->hash & (nb - 1)];
            b[c->hash & (nb - 1)] = c;
            c = next;
        }
    }
    ctx->stats.index_bytes -= index_bytes(ix);
    avrm__free(ix->buckets);
    ix->buckets = b;
    ix->nbuckets = nb;
    ctx->stats.index_bytes += index_bytes(ix);
    return 1;
}

void avrm_index_insert(avrm_ctx_t *ctx, avrm_table_t *t)
{
    struct avrm_index *ix = ctx->index;
    if (!ix) {
        ix = avrm__calloc(1, sizeof(*ix));
        if (!ix) return;
        ix->nbuckets = 16;
        ix->buckets = avrm__calloc(ix->nbuckets, sizeof(*ix->buckets));
        if (!ix->buckets) {
            avrm__free(ix);
            return;
        }
        ctx->index = ix;
        ctx->stats.index_bytes += index_bytes(ix);
    }
    if (ix->count >= ix->nbuckets)
        (void) index_grow(ctx, ix->nbuckets * 2);   /* failure: longer chains */
    size_t b = t->hash & (ix->nbuckets - 1);
    t->next = ix->buckets[b];
    ix->buckets[b] = t;
    t->indexed = 1;
    ix->count++;
}

void avrm_index_remove(avrm_ctx_t *ctx, avrm_table_t *t)
{
    struct avrm_index *ix = ctx->index;
    if (!t->indexed || !ix) return;
    avrm_table_t **pp = &ix->buckets[t->hash & (ix->nbuckets - 1)];
    while (*pp && *pp != t) pp = &(*pp)->next;
    if (*pp) {
        *pp = t->next;
        ix->count--;
    }
    t->indexed = 0;
    t->next = NULL;
    if (ix->count == 0) {
        ctx->stats.index_bytes -= index_bytes(ix);
        avrm__free(ix->buckets);
        avrm__free(ix);
        ctx->index = NULL;
    }
}
