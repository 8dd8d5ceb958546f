/*
 * avrm_rankmap.h - building and releasing rank maps (slow path).
 *
 * A child map is built from its parent map(s) and the indirect mapping
 * array (child rank -> parent rank), following Table II of the AV-Rankmap
 * paper, then rescanned so that an irregular result that is in fact regular
 * becomes regular again. Never a wrong map: when no pattern is proven for
 * every rank, the result is a table.
 *
 * Thread safety: all calls here are writers: serialize them (avrm_ctx.h),
 * but avrm_map_formula, a pure function of the map.
 *
 * Costs: build O(n) time for n child ranks (from a formula O(1)); scratch
 * is O(1) unless the result is a table (then the table itself, plus O(n)
 * for mlut->mseg). Dup O(1). Release O(1) (O(table) when the last reference goes).
 */
#ifndef AVRM_RANKMAP_H
#define AVRM_RANKMAP_H

#include "avrm_lookup.h"

/* Map of a whole group: DIRECT over AV pgid (which must exist). */
avrm_status_t avrm_map_init_group(avrm_ctx_t *ctx, avrm_pgid_t pgid, avrm_rankmap_t *out);

/* Builders: every rank of one parent in order gives that parent's map, its
 * table shared as by avrm_map_dup (an MSEG parent only to a compact build).
 *
 * Child of one parent: child rank i is parent rank mapping[i]. n >= 1; every
 * mapping[i] in [0, parent->size) (AVRM_ERR_ARG otherwise; duplicates are
 * allowed, as in an MPI group with repeated ranks they are not, but the map
 * stays correct). n > AVRM_MAX_WORLD: AVRM_ERR_LIMIT (all builders). */
avrm_status_t avrm_map_build(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                             const int32_t *mapping, uint32_t n, avrm_rankmap_t *out);

/* Child of one parent by a formula: child rank i is parent rank
 * first + i * stride (stride may be negative: a reversed run), i < n; every
 * one in [0, parent->size) (AVRM_ERR_ARG otherwise). O(1) for a regular
 * parent; a table parent's child is built as by avrm_map_build, without a
 * mapping array (MPI_Comm_split's regular forms, avrm_split.h). */
avrm_status_t avrm_map_build_affine(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                                    int64_t first, int64_t stride, uint32_t n,
                                    avrm_rankmap_t *out);

/* Child of several parents (intercomm merge, group union, comm_create_group
 * across groups): child rank i is rank src[i].rank of parents[src[i].parent]. */
typedef struct avrm_src {
    uint32_t parent;
    int32_t  rank;
} avrm_src_t;
avrm_status_t avrm_map_build_multi(avrm_ctx_t *ctx, const avrm_rankmap_t *const *parents,
                                   uint32_t nparents, const avrm_src_t *src, uint32_t n,
                                   avrm_rankmap_t *out);

/* The same for maps that never translate a send (MPI groups): memory over
 * lookup speed. A result of at most AVRM_MSEG_MAX_SEGS runs that no regular
 * mode describes (the world minus k ranks; several groups in a few runs)
 * becomes MSEG, 12 B per run, instead of a 2 or 4 B per rank table. Only
 * these builders make MSEG maps: MSEG's lookup takes the generic class. */
avrm_status_t avrm_map_build_compact(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                                     const int32_t *mapping, uint32_t n, avrm_rankmap_t *out);
avrm_status_t avrm_map_build_multi_compact(avrm_ctx_t *ctx, const avrm_rankmap_t *const *parents,
                                           uint32_t nparents, const avrm_src_t *src, uint32_t n,
                                           avrm_rankmap_t *out);

/* Map from explicit gpids (connect/accept, spawn: remote groups known by
 * their gpids only). Detects patterns like every build. */
avrm_status_t avrm_map_build_gpids(avrm_ctx_t *ctx, const avrm_gpid_t *gpids, uint32_t n,
                                   avrm_rankmap_t *out);

/* A map of one process group in a regular mode as four words, from which
 * another process rebuilds it (MPI_Intercomm_create's leaders exchange it
 * in place of the group's lpid list): rank r < size is lpid
 * offset + (r / bs) * stride + r % bs; bs 1 is a stride map, and stride 1
 * an offset run. */
typedef struct avrm_formula {
    int32_t  offset, stride;
    uint32_t bs, size;
} avrm_formula_t;

/* m's formula: 1 when m is a DIRECT, OFFSET, STRIDE or BLOCK map of one
 * process group (m->pgid), else 0 and *f untouched. O(1). */
int avrm_map_formula(const avrm_rankmap_t *m, avrm_formula_t *f);

/* The map of f over AV pgid, in the mode the builders give those ranks.
 * AVRM_ERR_ARG when pgid has no AV, size or bs is 0, a stride of 0 names
 * one process at every rank, or some rank's lpid lies outside the AV; AVRM_ERR_LIMIT when size > AVRM_MAX_WORLD. O(1),
 * nothing allocated. */
avrm_status_t avrm_map_build_formula(avrm_ctx_t *ctx, avrm_pgid_t pgid, const avrm_formula_t *f,
                                     avrm_rankmap_t *out);

/* Same map, shared table (MPI_Comm_dup). O(1), never fails. */
void avrm_map_dup(avrm_ctx_t *ctx, const avrm_rankmap_t *in, avrm_rankmap_t *out);

/* Re-cache the AV entry arrays of a single-group or JOIN map and its
 * hot-path class, after an AV changed from computed to stored
 * (avrm_av_make_stored). O(1). The other multi-group maps find their AVs at
 * lookup time: a no-op for them. */
void avrm_map_reseal(const avrm_ctx_t *ctx, avrm_rankmap_t *m);

/* Drop a map; frees its table when the last reference goes. Leaves *m as
 * an empty DIRECT map of size 0. */
void avrm_map_release(avrm_ctx_t *ctx, avrm_rankmap_t *m);

/* seen[g] = 1 for every process group g that a rank of m belongs to; seen
 * has ctx->navs bytes, zeroed by the caller. A reader: O(1) for a
 * single-group map, O(m->size) decodes for a multi-group one. Callers that
 * drop group references act on seen after it returns: dropping the last one
 * destroys an AV that decoding the next rank may still read. */
void avrm_map_mark_groups(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint8_t *seen);

/* Bytes of table memory this map references (0 for regular modes), and
 * whether that table is shared with another map. */
size_t avrm_map_table_bytes(const avrm_rankmap_t *m, int *shared);

const char *avrm_mode_name(avrm_mode_t mode);

#endif /* AVRM_RANKMAP_H */
