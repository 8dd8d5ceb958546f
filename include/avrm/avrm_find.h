/*
 * avrm_find.h - the inverse of a rank map: process (pgid, lpid) -> its rank
 * in the map, for MPI group operations (translate_ranks, compare, union,
 * intersection, difference) and for finding a group's members in a
 * communicator (MPI_Comm_create).
 *
 * Regular maps invert in closed form and need nothing stored. The per-rank
 * table modes (ILUT, LUT, LUT16, MLUT, MLUT32, MSEG with a lut) and the rare
 * regular maps whose formula is not invertible in one step (BLOCK with
 * stride < block size or negative, GRID with strides that do not nest) need
 * a rank index, built on demand by the owner of the map and freed with it:
 * when the map is in one process group and its lpids span at most 2 x its
 * size (a permuted or thinned world, a node's ranks), a dense inverse over
 * that span (4 B per lpid of the span: 4-8 B per rank), else the map's
 * ranks sorted by (pgid, lpid, rank) (4 B per rank).
 *
 * Every closed-form answer is checked by decoding the candidate rank, so a
 * formula never returns a non-member. When a process appears at several
 * ranks (maps allow it, MPI groups do not), the smallest rank is returned.
 *
 * Thread safety: avrm_map_find is a reader (lock-free, like avrm_lookup.h).
 * avrm_rank_index_build/_free are writers (accounting in ctx->stats):
 * serialize them with the other writers (avrm_ctx.h).
 *
 * Costs: find O(1) for DIRECT/OFFSET/STRIDE/BLOCK/EXCEPT/GRID/JOIN,
 * O(16) ILUT, O(segments) <= 64 for MSEG without lut, O(1) with a dense
 * index, O(log n) decodes with a sorted one. Index build: O(n) time and 4 B
 * per rank of scratch (dense), else O(n log n) and 8 B per rank while
 * sorting; kept: stats.rank_index_bytes.
 */
#ifndef AVRM_FIND_H
#define AVRM_FIND_H

#include "avrm_lookup.h"

/* Opaque (avrm_find.c): dense or sorted, see the costs above. */
typedef struct avrm_rank_index avrm_rank_index_t;

/* Does avrm_map_find need an index for this map? O(1). */
int avrm_map_find_needs_index(const avrm_rankmap_t *m);

/* Index of m's ranks; *out = NULL (and AVRM_OK) when m needs none. */
avrm_status_t avrm_rank_index_build(avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                    avrm_rank_index_t **out);
void avrm_rank_index_free(avrm_ctx_t *ctx, avrm_rank_index_t *idx);
size_t avrm_rank_index_bytes(const avrm_rank_index_t *idx);

/* Smallest rank r of m with gpid g, or -1 when g is not in m. idx: from
 * avrm_rank_index_build on this same map (NULL when it needs none; a map
 * that needs one and gets NULL is searched linearly, O(n) decodes). */
int64_t avrm_map_find(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                      const avrm_rank_index_t *idx, avrm_gpid_t g);

/* Batch translation (MPI_Group_translate_ranks): out[i] = the smallest rank
 * of m2 holding the process at rank in[i] of m1, or `absent` when m2 has
 * none; a negative in[i] (MPI_PROC_NULL) is copied. in[i] < m1->size; out
 * may be in. The class of m1 is tested once per call, not per rank, for the
 * offset, table, stride and MSEG classes (an MSEG m1 walks its runs). Into
 * an offset or stride m2: one decode, a subtraction and, for a stride, a
 * multiply per rank (exact division by an inverse, no divide). Into a map
 * with a dense index (idx2): that index is the inverse, one load per rank,
 * nothing built. Into an MSEG m2 of at most 8 runs of one process group
 * ascending in lpid (the world minus a few ranks): each rank's process found
 * by a cursor over those runs (amortized O(1) for ascending processes),
 * nothing built. Many ranks (n >= 8 and n >= size of m2 / 4) with one
 * process group on either side, into any other m2: a dense inverse of m2
 * built per call, O(n + m2 size) time, 4 B of scratch per lpid of the AV or
 * of m2's span (at most 4 x (n + m2 size), else not taken).
 * Otherwise through a sorted index, a galloping search from the previous
 * answer (ascending processes: O(n1 + n2)), or one avrm_map_find per rank.
 * idx2: m2's index, as for avrm_map_find. */
void avrm_map_translate(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1, const int32_t *in,
                        uint32_t n, const avrm_rankmap_t *m2, const avrm_rank_index_t *idx2,
                        int32_t absent, int32_t *out);

/* Do m1 and m2 hold the same processes, in any order (MPI_Group_compare's
 * MPI_SIMILAR)? 1 yes, 0 no, -1 when it cannot tell cheaply: the caller
 * then translates (avrm_map_translate). Both maps must hold distinct
 * processes, as MPI groups do. Sizes differ, or both maps lie in one
 * process group each and the groups differ: 0, O(1). Both DIRECT, OFFSET
 * or STRIDE: O(1), the two arithmetic progressions compared. -1 otherwise:
 * a bitmap of the process group's AV filled by decoding both maps rank by
 * rank was measured slower than the translation for irregular groups
 * (bench/run group-time, 2026-11-27: excl3 at 64 processes 18.0 ns per
 * member against the translation's 7.1). A reader, lock-free. */
int avrm_map_same_members(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1,
                          const avrm_rankmap_t *m2);

#endif /* AVRM_FIND_H */
