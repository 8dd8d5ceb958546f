/*
 * ch4_avrm.h - CH4's address layer on libavrm: the process-wide state, the
 * AV handle passed down CH4's netmod/shmmod API, and the inline translations
 * (communicator rank -> gpid, address word, locality) that replace the mode
 * switches of stock ch4_proc.h.
 *
 * Our file, added to the MPICH tree by patches/mpich/series; included by
 * ch4_proc.h, so every CH4 translation goes through libavrm's lookup
 * (include/avrm/avrm_lookup.h): the hot-path classes inline (direct, offset,
 * lut, stride, ilut, join, lut16), every other mode through its one mode
 * switch out of line (avrm_map_ave_generic).
 *
 * The AV handle (MPIDI_av_entry_t *): the peer's 8-byte libavrm address word
 * (fi_addr << 1 | local bit) carried BY VALUE in the pointer-typed slot that
 * CH4's generated API passes down (so no prototype changes). It is never
 * dereferenced: MPIDIU_av_word() recovers the word, bit 0 is the locality,
 * the rest the fi_addr, or, with bit 63 set, the rank of a world peer whose
 * address is resolved on first contact (on-demand addressing: the netmod's
 * MPIDI_OFI_av_root_addr, ofi_avrm.h). It works for stored and computed AVs
 * alike. A handle is a value, not an identity: a peer's handle changes from
 * pending to resolved at its first contact, so handles are not compared.
 * Requires 64-bit pointers.
 *
 * Thread safety: the inline readers are lock-free (libavrm's readers).
 * Writers (map build/release, AV create/fill/destroy) run under
 * MPIDIU_THREAD_UTIL_MUTEX (a no-op under the global critical section, which
 * then serializes them; a real mutex under per-vci granularity).
 *
 * Cost: every translation here is one libavrm decode: 7-18 instructions for
 * the hot-path classes over a stored AV, 21-60 through the mode switch
 * (avrm_lookup.h has the per-mode figures).
 */
#ifndef CH4_AVRM_H_INCLUDED
#define CH4_AVRM_H_INCLUDED

#include "avrm/avrm.h"

_Static_assert(sizeof(void *) == sizeof(avrm_ave_t), "the AV handle carries a 64-bit word");

typedef struct MPIDI_avrm {
    avrm_ctx_t *ctx;            /* read by the hot path (multi-group maps) */
    /* The world AV's entries when MPI_COMM_WORLD's rank r is entry r of a
     * stored world AV (always, unless the world AV is computed): RMA on a
     * window over the world or a dup of it (MPIDIU_win_rank_to_av) loads
     * the word from here, one load as stock's table; NULL otherwise. Set
     * by MPIDIU_avt_world_map_sealed each time comm_world's map is sealed
     * (built, or resealed when the world AV's kind changes), cleared when
     * that map is released. */
    const avrm_ave_t *world_ents;
    uint32_t *pg_refs;          /* communicator references per process group */
    uint8_t *pg_seen;           /* scratch marks per group (MPIDIU_map_ref_groups) */
    uint32_t npg_refs;          /* entries of both, >= ctx->navs */
    const char *stored_reason;  /* why the world AV is stored although
                                 * MPIR_CVAR_AVRM_COMPUTED_AV asked otherwise */
    /* the netmod's part of the report line (MPIR_CVAR_AVRM_REPORT), set by
     * the netmod at MPI_Init; NULL: "addresses exchanged at MPI_Init" */
    void (*netmod_report)(void);
} MPIDI_avrm_t;

extern MPIDI_avrm_t MPIDI_avrm;

MPL_STATIC_INLINE_PREFIX MPIDI_av_entry_t *MPIDIU_av_handle(avrm_ave_t word)
{
    return (MPIDI_av_entry_t *) (uintptr_t) word;
}

MPL_STATIC_INLINE_PREFIX avrm_ave_t MPIDIU_av_word(const MPIDI_av_entry_t * av)
{
    return (avrm_ave_t) (uintptr_t) av;
}

/* fi_addr (nic 0) carried by a handle */
MPL_STATIC_INLINE_PREFIX uint64_t MPIDIU_av_addr(const MPIDI_av_entry_t * av)
{
    return avrm_ave_addr(MPIDIU_av_word(av));
}

/* Handle of peer lpid of process group avtid (pgid). */
MPL_STATIC_INLINE_PREFIX MPIDI_av_entry_t *MPIDIU_lpid_to_av(int avtid, int lpid)
{
    /* a lock-free reader: ctx->avs may be replaced meanwhile (acquire load) */
    return MPIDIU_av_handle(avrm_av_ave(avrm_ctx_av(MPIDI_avrm.ctx, (uint32_t) avtid),
                                        (avrm_lpid_t) lpid));
}

/* The local group of an intercomm has its own map; an intracomm has none. */
MPL_STATIC_INLINE_PREFIX const avrm_rankmap_t *MPIDIU_comm_local_map(MPIR_Comm * comm)
{
    return MPIDI_COMM(comm, local_map) ? MPIDI_COMM(comm, local_map) : &MPIDI_COMM(comm, map);
}

/* AV manager (ch4_avrm_av.c) */
int MPIDIU_av_set_addr(int avtid, int lpid, uint64_t addr);
int MPIDIU_av_set_addr_locked(int avtid, int lpid, uint64_t addr);
int MPIDIU_avt_world_settle(int on_demand);
int MPIDIU_avt_exists(int avtid);
void MPIDIU_avt_world_map_sealed(const avrm_rankmap_t * m);
void MPIDIU_map_ref_groups(const avrm_rankmap_t * m, int add);

/* Rank maps (ch4_avrm_comm.c) */
int MPIDIU_comm_set_builtin_map(MPIR_Comm * comm);
int MPIDIU_comm_map_from_gpids(MPIR_Comm * comm, int size, const uint64_t gpids[]);
int MPIDIU_comm_map_node_roots(MPIR_Comm * comm);
void MPIDIU_comm_release_maps(MPIR_Comm * comm);
void MPIDIU_comm_local_maps_destroy(void);   /* at finalize, before the context goes */
int MPIDI_avrm_split_init(void);  /* ch4_avrm_split.c, at MPID_Init: pvars, op, type */

/* MPI_Intercomm_create (ch4_avrm_intercomm.c): groups of the world cross as
 * rank-map formulas or lists of world ranks; *done 0: MPICH's exchange of
 * process names follows (ch4_comm.c). The remote group's gpid list it
 * returns holds either remote_size gpids or, for a formula,
 * MPIDIU_GPID_FORMULA and two words, which MPIDIU_gpids_formula
 * (ch4_avrm_comm.c, where the list is read) decodes (1; 0 for a list of
 * gpids). */
#define MPIDIU_GPID_FORMULA UINT64_MAX  /* no process group has avtid 2^32 - 1 */
int MPIDIU_intercomm_exchange(MPIR_Comm * local_comm, int local_leader, MPIR_Comm * peer_comm,
                              int remote_leader, int *remote_size, uint64_t ** remote_gpids,
                              int *is_low_group, int *done);
int MPIDIU_gpids_formula(int size, const uint64_t gpids[], avrm_formula_t * f);

#endif /* CH4_AVRM_H_INCLUDED */
