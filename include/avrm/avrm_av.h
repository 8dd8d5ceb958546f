/*
 * avrm_av.h - address vectors: one table of 8-byte entries per process group.
 *
 * Thread safety: writers (create/set/destroy) serialized by the caller, see
 * avrm_ctx.h. avrm_av_addr/avrm_av_is_local are read-only and lock-free.
 *
 * Costs: create O(1) (computed) or O(size) zero-fill (stored); make_sparse
 * O(local members); set O(1) (sparse: the first write into a page scans it);
 * addr O(1), 2-3 instructions; is_local O(1) except LOCAL_LIST: O(log ppn).
 */
#ifndef AVRM_AV_H
#define AVRM_AV_H

#include "avrm_ctx.h"
#include "avrm_hier.h"

typedef struct avrm_av_params {
    uint32_t    size;        /* peers in the group, 1..AVRM_MAX_WORLD */
    avrm_pgid_t pgid;        /* 0 = world; must be a free slot */
    uint8_t     computed;    /* request computed mode (honoured only if
                              * ctx->params.computed_av, else stored) */
    avrm_locality_t local;   /* computed mode: members of my node; a LIST is
                              * copied. Ignored in stored mode. */
} avrm_av_params_t;

/* Create the AV of group params->pgid. Stored entries start as 0 (address 0,
 * remote) and are filled with avrm_av_set. Errors: NOMEM, ARG (size 0, slot
 * taken), LIMIT (size > AVRM_MAX_WORLD). On success *out is set. */
avrm_status_t avrm_av_create(avrm_ctx_t *ctx, const avrm_av_params_t *params, avrm_av_t **out);

/* Fill one stored entry. addr must be <= AVRM_AVE_MAX_ADDR (62 bits;
 * AVRM_ERR_ARG otherwise); lpid must be < size. In computed mode nothing is
 * written and addr must equal lpid (else ARG: the caller must fall back to
 * stored). The word is stored with release order: a lock-free reader that
 * sees it sees what the writer did before. */
avrm_status_t avrm_av_set(avrm_av_t *av, avrm_lpid_t lpid, uint64_t addr, int is_local);

/* Mark a stored entry pending (avrm_ave_make_pending: resolved on first
 * contact by the caller, which then calls avrm_av_set). ARG for a computed
 * AV (it has no entries) or lpid >= size. O(1). */
avrm_status_t avrm_av_set_pending(avrm_av_t *av, avrm_lpid_t lpid, int is_local);

/* Turn a computed AV into a stored one (irregular addresses found after
 * creation). O(size). Maps built over the AV while it was computed cache
 * no entry array: reseal each of them (avrm_map_reseal) afterwards, or they
 * go on decoding address == lpid. */
avrm_status_t avrm_av_make_stored(avrm_ctx_t *ctx, avrm_av_t *av);

/* Turn a stored or computed AV into a sparse one (avrm_types.h): its entries
 * in a reserved mapping where an untouched word reads 0, which means
 * pending (avrm_ave_get makes the pending word of its lpid): memory only
 * for the pages written, one page per 512 consecutive lpids that hold a
 * word. My node's members get their pending word with the local bit; no
 * other word is kept, so call it before any address is set (on-demand
 * addressing at MPI_Init). Maps built over the AV cached the old entry
 * array: reseal them (avrm_map_reseal). NOMEM when the mapping cannot be
 * made (nothing changed). Cost: O(local members) writes, O(size) reads of
 * a dense AV's locality bits; a later avrm_av_set/_set_pending also scans
 * the page it writes once (512 words) to count it. Written words must be
 * nonzero (avrm_av_set refuses address 0 remote: ARG). */
avrm_status_t avrm_av_make_sparse(avrm_ctx_t *ctx, avrm_av_t *av);
/* the bytes of av's written pages (0 unless sparse); avrm_ctx_stats adds
 * them to av_entry_bytes */
size_t avrm_av_sparse_bytes(const avrm_av_t *av);

void avrm_av_destroy(avrm_ctx_t *ctx, avrm_pgid_t pgid);

/* My node's members, from the world's node hierarchy h (avrm_hier.h), as
 * the locality of a computed world AV: RANGE when they are consecutive
 * ranks, CYCLIC for a round-robin placement, else LIST. A LIST needs
 * list[avrm_locality_list_len(h)] from the caller (0: none needed), filled
 * here; avrm_av_create copies it. O(1); LIST O(local_size). */
uint32_t avrm_locality_list_len(const avrm_hier_t *h);
void avrm_locality_of_hier(const avrm_hier_t *h, uint32_t *list, avrm_locality_t *loc);

static inline int avrm_locality_has(const avrm_locality_t *loc, avrm_lpid_t lpid)
{
    switch (loc->kind) {
    case AVRM_LOCAL_RANGE:  return lpid - loc->first < loc->count;
    case AVRM_LOCAL_CYCLIC: return lpid % loc->nnodes == loc->node;
    case AVRM_LOCAL_LIST: {
        uint32_t lo = 0, hi = loc->count;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (loc->list[mid] < lpid) lo = mid + 1; else hi = mid;
        }
        return lo < loc->count && loc->list[lo] == lpid;
    }
    case AVRM_LOCAL_NONE: break;
    }
    return 0;
}

/* Address word of lpid (no range check: the caller validated the rank). */
static inline uint64_t avrm_av_addr(const avrm_av_t *av, avrm_lpid_t lpid)
{
    return av->entries ? avrm_ave_addr(avrm_ave_load(&av->entries[lpid])) : (uint64_t) lpid;
}

static inline int avrm_av_is_local(const avrm_av_t *av, avrm_lpid_t lpid)
{
    return av->entries ? (avrm_ave_load(&av->entries[lpid]) & AVRM_AVE_LOCAL) != 0
                       : avrm_locality_has(&av->local, lpid);
}

/* The entry word of lpid: address << 1 | local bit (made up for a computed
 * AV; the pending word of an untouched peer of a sparse one). */
static inline avrm_ave_t avrm_av_ave(const avrm_av_t *av, avrm_lpid_t lpid)
{
    return av->entries ? avrm_ave_get(av->entries, lpid)
                       : avrm_ave_make(lpid, avrm_locality_has(&av->local, lpid));
}

#endif /* AVRM_AV_H */
