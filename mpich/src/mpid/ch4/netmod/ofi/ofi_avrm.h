/*
 * ofi_avrm.h - the OFI netmod's address of a peer: from the AV handle CH4
 * passes down (libavrm's 8-byte address word, ch4_avrm.h) to the fi_addr of
 * the endpoint an operation targets, for every send, put and receive.
 *
 * Our file, added to the MPICH tree by patches/mpich/series; included by
 * ofi_impl.h (only) where stock defines MPIDI_OFI_av_to_phys, so it sees
 * MPIDI_OFI_global and the netmod's types.
 *
 * The word's layout (ch4_avrm.h): bit 0 the locality, bits 1..62 the root
 * endpoint's fi_addr; bit 63 set: a world peer not contacted yet (on-demand
 * addressing, ofi_ondemand.h), bits 1..32 its rank. The other endpoints of a
 * peer (several NICs, several VNIs) follow from the root's address by
 * arithmetic (MPIDI_OFI_endpoint_addr): nothing else is stored per peer.
 *
 * Thread safety: every function here is a lock-free reader of the word. A
 * pending word, and with a domain per VNI a word that VNI's AV does not hold
 * yet, goes out of line (MPIDI_OFI_av_resolve, MPIDI_OFI_av_catch_up), which
 * take the locks they need (ofi_ondemand.h).
 *
 * Cost: a resolved word, one shift and one branch (one unsigned compare with
 * a domain per VNI), plus a multiply and adds for an endpoint other than the
 * root's.
 */
#ifndef OFI_AVRM_H_INCLUDED
#define OFI_AVRM_H_INCLUDED

#include "ofi_ondemand.h"

/* Whether a context's AV holds only its own VNI's endpoints of every peer
 * (1) or every endpoint (0). A message travels between contexts of one VNI
 * index under CH4's VCI methods "zero" and "comm" (both ends take the
 * communicator's or the window's VCI; dynamic peers use VNI 0): a context
 * never addresses another VNI's endpoint, so its AV needs one VNI's. The
 * "implicit" method picks the receiver's VNI by rank, tag or hint, so every
 * context keeps every endpoint. */
#if defined(MPIDI_CH4_VCI_METHOD) && MPIDI_CH4_VCI_METHOD == MPICH_VCI__IMPLICIT
#define MPIDI_OFI_AV_PER_VNI 0
#else
#define MPIDI_OFI_AV_PER_VNI 1
#endif

/* fi_addr of endpoint (nic, vni) of the peer whose root endpoint is at
 * FI_AV_TABLE index w: arithmetic, no table (issue 15). The exchange
 * (init_addrxchg.c) inserts, in every context's AV, the P world peers'
 * first endpoints at indices 0..P-1, then every world peer's other
 * endpoints in the order of its first's index, nic-major:
 *     P - 1 + w * (per_peer - 1) + nic * vnis + vni.
 * With MPIDI_OFI_AV_PER_VNI, context (nic', v)'s AV holds the endpoints of
 * VNI v only (vnis = 1, per_peer = NICs): its first endpoints are the
 * peers' (0, v), and vni drops out of the arithmetic; with one NIC every
 * endpoint is at w itself. Step 1 inserts the roots in rank order (w ==
 * rank: stock's layout and fi_addrs), or node roots first with
 * MPIR_CVAR_CH4_ROOTS_ONLY_PMI. A dynamic peer (w >= P, connected or
 * spawned later) has its root endpoint only, as in stock. On demand over
 * several NICs (ofi_ondemand.h) first contact inserts a peer's NICs'
 * endpoints as one block at its word, in every AV: w + nic (base 0, stride
 * 1); a dynamic peer has its root only, and communicators with one are
 * never spread over NICs (MPIDI_OFI_comm_nics_spread_ok), so only nic 0
 * is asked of it. */
MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_endpoint_addr(fi_addr_t w, int nic, int vni)
{
    if (MPIDI_OFI_AV_PER_VNI)
        vni = 0;
    /* (nic, vni) == (0, 0), the common path: no multiply */
    if (likely((nic | vni) == 0) || w >= MPIDI_OFI_global.endpoints.world)
        return w;
    uint32_t k = (uint32_t) nic * MPIDI_OFI_global.endpoints.vnis + (uint32_t) vni;
    return MPIDI_OFI_global.endpoints.base + w * MPIDI_OFI_global.endpoints.stride + k;
}

/* Out of line (ofi_ondemand_resolve.c): a pending word's peer, resolved on first
 * contact (PMI get, one fi_av_insert, the word stored) inside progress;
 * aborts naming the peer and the failed call when it cannot be. Takes the word shifted as
 * MPIDI_OFI_av_root_addr shifts it (its low 32 bits are the lpid), so the
 * hot path keeps one value live across the branch; cold: the compiler
 * lays the call out of the hot path. */
fi_addr_t MPIDI_OFI_av_resolve(int64_t pending) __attribute__ ((cold));

/* Out of line (ofi_ondemand_resolve.c): the peer of a pending word resolved
 * for an MPI call (the word stored in its AV); returns its resolved word,
 * or sets *err to the error (naming the rank, the PMI key and the cause)
 * that is the call's to return. With coll set (a collective's message,
 * whose helpers note an error and go on while the peer waits) it aborts
 * instead, saying why. */
avrm_ave_t MPIDI_OFI_av_resolve_call(avrm_ave_t pending, int coll, int *err)
    __attribute__ ((cold));

/* In the netmod's MPI entry points (send, receive from a source, probe,
 * RMA), before anything else: a world peer not contacted yet is resolved
 * here, so a failed first contact is an MPI error of that call, raised
 * through its communicator's or window's error handler, before any request
 * exists (coll: a collective's message, context_offset != 0, aborts as
 * above); the handle becomes the resolved word. Every handle after this
 * point is resolved (a resolved word's bit 63 is clear), so the send and
 * RMA paths below use MPIDI_OFI_av_to_phys_ready, without a second test.
 * Lookups made inside progress (replies, acknowledgements) can still meet
 * a pending word (MPIDI_OFI_av_resolve) and abort when it cannot be
 * resolved. With a domain per VNI, an insert into a VNI's AV that fails
 * when the AV catches up aborts too (MPIDI_OFI_av_catch_up). */
#define MPIDI_OFI_AV_READY_OR_RETURN(av_, coll_) \
    do { \
        if (unlikely((int64_t) MPIDIU_av_word(av_) < 0)) { \
            int ready_err_ = MPI_SUCCESS; \
            avrm_ave_t ready_w_ = MPIDI_OFI_av_resolve_call(MPIDIU_av_word(av_), (coll_), \
                                                            &ready_err_); \
            if (ready_err_) \
                return ready_err_; \
            MPIDI_OFI_AV_RESOLVED_HINT(ready_w_); \
            (av_) = MPIDIU_av_handle(ready_w_); \
        } \
    } while (0)
/* what a resolved word is, told to the compiler */
#if defined(__GNUC__)
#define MPIDI_OFI_AV_RESOLVED_HINT(w_) \
    do { if ((int64_t) (w_) < 0) __builtin_unreachable(); } while (0)
#else
#define MPIDI_OFI_AV_RESOLVED_HINT(w_) do { } while (0)
#endif

/* fi_addr of a peer's root endpoint from its AV handle: the word's address,
 * or, for a world peer not contacted yet (on-demand addressing), the one
 * MPIDI_OFI_av_resolve inserts. Every path that addresses a peer comes
 * here; the hot path pays one shift and one branch. */
MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_av_root_addr(MPIDI_av_entry_t * av)
{
    /* The word shifted arithmetically: the address of a resolved word (bit 63
     * clear, avrm_ave_addr), negative for a pending one: one value serves
     * the decode and the test. */
    int64_t a = (int64_t) MPIDIU_av_word(av) >> 1;
    if (unlikely(a < 0))
        return MPIDI_OFI_av_resolve(a);
    return (fi_addr_t) a;
}

#ifdef MPIDI_OFI_VNI_AVS
/* Out of line (ofi_ondemand_log.c): a word that VNI vni's AV does not hold
 * yet, shifted right by one: resolved if pending (PMI get, a log entry),
 * then that AV replays the log up to it; aborts naming the peer and the
 * failed call when it cannot. */
fi_addr_t MPIDI_OFI_av_catch_up(uint64_t shifted, int vni) __attribute__ ((cold));

/* A domain per VNI: fi_addr of a peer's root endpoint in VNI vni's AV (the
 * caller holds VCI vni's lock). Every VNI's AV has a peer at one index, its
 * word; on demand a VNI's AV holds the words below av_known[vni] and
 * inserts the others on first use (eager: every word is below). A pending
 * word (bit 63 set) is 2^62 or more shifted right, above every
 * av_known[vni]: one unsigned compare serves both tests. */
MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_av_vni_addr(MPIDI_av_entry_t * av, int vni)
{
    uint64_t a = MPIDIU_av_word(av) >> 1;
    if (unlikely(a >= __atomic_load_n(&MPIDI_OFI_global.av_known[vni], __ATOMIC_RELAXED)))
        return MPIDI_OFI_av_catch_up(a, vni);
    return a;
}
#endif

/* The spawn paths' view of an AV (ofi_ondemand_resolve.c): the name at an address,
 * as fi_av_lookup in context ctx_idx's AV gives it, and a dynamic peer's
 * address from its name. On demand over a domain per VNI both go through
 * the first-contact log, which keeps one index sequence in every VNI's AV. */
int MPIDI_OFI_av_name(int ctx_idx, fi_addr_t addr, void *name, size_t * len);
/* May comm's messages use NICs other than 0 (hashing, striping)? Not on
 * demand over several NICs when one of its groups is not the world's: a
 * dynamic peer's AV entry is its root endpoint alone. */
int MPIDI_OFI_comm_nics_spread_ok(MPIR_Comm * comm);
int MPIDI_OFI_av_insert_dynamic(int ctx_idx, const void *name, size_t len, fi_addr_t * addr);
/* A upid is a process's root endpoint name and a trailer naming its job
 * and world rank (ofi_ondemand_resolve.c): the name of comm's member i
 * (a world member's from PMI while pending: nothing is inserted); the
 * trailer of member i into out (MPIDI_OFI_upid_trailer_size() bytes); and,
 * for a upid of size bytes, the length of its name and the world rank of
 * this process's world it names (its name checked), or -1. */
int MPIDI_OFI_upid_name(MPIR_Comm * comm, int i, char *name, size_t * len);
size_t MPIDI_OFI_upid_trailer_size(void);
void MPIDI_OFI_upid_trailer(MPIR_Comm * comm, int i, char *out);
int MPIDI_OFI_upid_world_rank(const char *upid, int size, int *name_len, int *rank);

/* fi_addr of endpoint (nic, vni_remote) of the peer whose root endpoint is
 * at root: the others follow from it (MPIDI_OFI_endpoint_addr). With
 * scalable endpoints the VNI is a receive context of the NIC's endpoint
 * (fi_rx_addr). */
MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_root_to_phys(fi_addr_t root, int nic, int vni_remote)
{
#ifdef MPIDI_OFI_VNI_USE_DOMAIN
    root = MPIDI_OFI_endpoint_addr(root, nic, vni_remote);
    if (MPIDI_OFI_ENABLE_SCALABLE_ENDPOINTS)
        return fi_rx_addr(root, 0, MPIDI_OFI_MAX_ENDPOINTS_BITS);
#else
    root = MPIDI_OFI_endpoint_addr(root, nic, 0);
    if (MPIDI_OFI_ENABLE_SCALABLE_ENDPOINTS)
        return fi_rx_addr(root, vni_remote, MPIDI_OFI_MAX_ENDPOINTS_BITS);
#endif
    return root;
}

/* fi_addr of a peer from its AV handle (libavrm's address word, ch4_avrm.h),
 * for (nic, vni_remote), from the context (nic, vni_local): every lookup
 * that may meet a pending word (receives, probes, progress). */
MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_av_to_phys(MPIDI_av_entry_t * av, int nic,
                                                        int vni_local, int vni_remote)
{
#ifdef MPIDI_OFI_VNI_AVS
    /* the operation's context is (nic, vni_local): its AV is one of vni_local's */
    return MPIDI_OFI_root_to_phys(MPIDI_OFI_av_vni_addr(av, vni_local), nic, vni_remote);
#else
    return MPIDI_OFI_root_to_phys(MPIDI_OFI_av_root_addr(av), nic, vni_remote);
#endif
}

/* The same for a handle an MPI entry point made ready
 * (MPIDI_OFI_AV_READY_OR_RETURN): never pending, so no test (the send and
 * RMA paths below those entry points, and nothing else). With a domain per
 * VNI the VNI's AV may still have to catch up: the same lookup. */
MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_av_to_phys_ready(MPIDI_av_entry_t * av, int nic,
                                                              int vni_local, int vni_remote)
{
#ifdef MPIDI_OFI_VNI_AVS
    return MPIDI_OFI_root_to_phys(MPIDI_OFI_av_vni_addr(av, vni_local), nic, vni_remote);
#else
    return MPIDI_OFI_root_to_phys(MPIDIU_av_addr(av), nic, vni_remote);
#endif
}

MPL_STATIC_INLINE_PREFIX fi_addr_t MPIDI_OFI_rank_to_phys(int rank, int nic,
                                                          int vni_local, int vni_remote)
{
    return MPIDI_OFI_av_to_phys(MPIDIU_lpid_to_av(0, rank), nic, vni_local, vni_remote);
}

#endif /* OFI_AVRM_H_INCLUDED */
