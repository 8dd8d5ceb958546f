/*
 * avrm_table.h - refcounted tables behind LUT/LUT16/MLUT/MSEG rank maps
 * (private to the core).
 *
 * A table is one allocation: this header followed by the payload
 *   LUT    uint32_t lpid[n]            LUT16 uint16_t lpid[n]
 *   MLUT   avrm_gpid_t gpid[n]         MSEG  avrm_seg_t seg[nsegs] [+ uint32_t lut[n]]
 * Maps point into the payload (a slice of a parent LUT/MLUT points inside
 * it) and hold one reference each. `refbytes` sums the bytes each live map
 * references (avrm_map_table_bytes), so that
 *   stats.table_bytes        = sum over live tables of sizeof(header) + bytes
 *   stats.table_shared_bytes = sum over live tables of max(0, refbytes - bytes)
 * are exact at all times.
 *
 * Thread safety: writers only (serialized by the caller, see avrm_ctx.h);
 * lookups read the payload lock-free and never the header, but for
 * `groups`, which avrm_map_mark_groups (a reader) fills and reads with
 * relaxed atomics: every filler stores the same value.
 * Costs: new O(1) + allocation; publish O(bytes) (hash + maybe one memcmp);
 * ref/unref O(1), O(1) + free on the last reference.
 */
#ifndef AVRM_TABLE_H
#define AVRM_TABLE_H

#include "avrm/avrm_ctx.h"

typedef struct avrm_table {
    uint32_t refs;               /* live maps referencing the table */
    uint8_t  kind;               /* avrm_mode_t: LUT, LUT16, MLUT or MSEG */
    uint8_t  indexed;            /* linked into ctx->index */
    uint16_t groups;             /* MLUT/MLUT32: process groups of the whole
                                  * table, bit g for group g < 15, bit 15 for
                                  * any group >= 15; 0 until the first
                                  * avrm_map_mark_groups of a whole-table map */
    size_t   bytes;              /* payload bytes */
    size_t   refbytes;           /* sum of bytes referenced by live maps */
    uint64_t hash;               /* content hash (valid when indexed) */
    struct avrm_table *next;     /* index bucket chain */
    struct avrm_table *lprev, *lnext;   /* ctx->tables: every live table */
    uint64_t data[];             /* payload, 8-byte aligned */
} avrm_table_t;

_Static_assert(sizeof(avrm_table_t) == 56, "table header (counted in stats.table_bytes)");

#define AVRM_TABLE_GROUPS_MAX 15
#define AVRM_TABLE_GROUPS_MANY 0x8000u

/* Allocate an unpublished table (not accounted, refs 0). NULL on NOMEM. */
avrm_table_t *avrm_table_new(avrm_mode_t kind, size_t bytes);

/* Free a table that was never published. */
void avrm_table_discard(avrm_table_t *t);

/* Make a filled table live with one reference of refbytes. With
 * share_by_content, an identical live table (same kind, bytes, content) is
 * referenced instead and t is freed: always use the returned table. Never
 * fails (if the index cannot grow, the table is simply not indexed). */
avrm_table_t *avrm_table_publish(avrm_ctx_t *ctx, avrm_table_t *t, size_t refbytes);

void avrm_table_ref(avrm_ctx_t *ctx, avrm_table_t *t, size_t refbytes);
void avrm_table_unref(avrm_ctx_t *ctx, avrm_table_t *t, size_t refbytes);

/* Free every table still live (context destruction). */
void avrm_table_free_all(avrm_ctx_t *ctx);

#endif /* AVRM_TABLE_H */
