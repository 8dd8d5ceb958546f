/*
 * avrm_index.h - content-sharing index: a hash set of live tables keyed by
 * (kind, bytes, content), private to the core.
 *
 * Created on the first insert, freed when its last table leaves, so that its
 * bytes (stats.index_bytes = struct + bucket array) return to 0 with the
 * tables. Chained buckets, doubled when the load passes 1.
 *
 * Thread safety: writers only (see avrm_ctx.h). Costs: hash O(bytes); find
 * O(1) expected + one memcmp per candidate with equal hash; insert amortized
 * O(1); remove O(chain).
 */
#ifndef AVRM_INDEX_H
#define AVRM_INDEX_H

#include "avrm_table.h"

struct avrm_index {
    avrm_table_t **buckets;
    size_t nbuckets;             /* power of two */
    size_t count;
};

uint64_t avrm_index_hash(const avrm_table_t *t);

/* Live table with the same kind, size and content as t (t->hash set), or NULL. */
avrm_table_t *avrm_index_find(const avrm_ctx_t *ctx, const avrm_table_t *t);

/* Link t (t->hash set); on allocation failure t stays unindexed. */
void avrm_index_insert(avrm_ctx_t *ctx, avrm_table_t *t);

void avrm_index_remove(avrm_ctx_t *ctx, avrm_table_t *t);

#endif /* AVRM_INDEX_H */
