/*
 * ofi_ondemand_log.c - on-demand addressing with a domain per VNI: the
 * first-contact log (the names of every peer contacted, in the order their
 * words were given) and each VNI's AVs replaying it up to the words they
 * meet. Rules and layout: ofi_ondemand.h.
 */
#include "mpidimpl.h"
#include "ofi_impl.h"
#include "ofi_init.h"
#include "ch4_avrm.h"
#include "ofi_ondemand.h"

/* Entry e of the log (e < cap): its slots' names. */
char *MPIDI_OFI_ondemand_log_entry(uint64_t e)
{
    return MPIDI_OFI_ondemand.log.names + e * MPIDI_OFI_ondemand.log.slots * MPIDI_OFI_global.addrnamelen;
}

/* Room for cap entries of slots names each (MPIDI_OFI_ondemand.log.slots set once they fit). */
int MPIDI_OFI_ondemand_log_reserve(uint64_t cap, int slots)
{
    int mpi_errno = MPI_SUCCESS;
    size_t bytes = cap * slots * MPIDI_OFI_global.addrnamelen;
    char *names = MPL_realloc(MPIDI_OFI_ondemand.log.names, bytes, MPL_MEM_ADDRESS);
    uint64_t *first = names ? MPL_realloc(MPIDI_OFI_ondemand.log.first, cap * sizeof(uint64_t),
                                          MPL_MEM_ADDRESS) : NULL;

    if (names)
        MPIDI_OFI_ondemand.log.names = names;
    if (first)
        MPIDI_OFI_ondemand.log.first = first;
    MPIR_ERR_CHKANDJUMP2(!names || !first, mpi_errno, MPI_ERR_NO_MEM, "**nomem2",
                         "**nomem2 %d %s", (int) bytes, "the endpoint names of the peers "
                         "contacted (on-demand addressing over several VNIs)");
    MPIDI_OFI_ondemand.log.cap = cap;
    MPIDI_OFI_ondemand.log.slots = slots;
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* One more log entry, of a block of n AV indices: its index in *e, its
 * word in MPIDI_OFI_ondemand.log.first[*e]; its names zeroed. Undone by log_drop. */
int MPIDI_OFI_ondemand_log_append(int n, uint64_t * e)
{
    int mpi_errno = MPI_SUCCESS;

    if (MPIDI_OFI_ondemand.log.len == MPIDI_OFI_ondemand.log.cap) {
        mpi_errno = MPIDI_OFI_ondemand_log_reserve(MPIDI_OFI_ondemand.log.cap ? 2 * MPIDI_OFI_ondemand.log.cap : 16, MPIDI_OFI_ondemand.log.slots);
        MPIR_ERR_CHECK(mpi_errno);
    }
    MPIR_ERR_CHKANDJUMP1(MPIDI_OFI_ondemand.log.next + n - 1 > AVRM_AVE_MAX_ADDR, mpi_errno, MPI_ERR_OTHER,
                         "**fail", "**fail %s", "more peers contacted than an address word "
                         "can index");
    *e = MPIDI_OFI_ondemand.log.len++;
    MPIDI_OFI_ondemand.log.first[*e] = MPIDI_OFI_ondemand.log.next;
    MPIDI_OFI_ondemand.log.next += n;
    memset(MPIDI_OFI_ondemand_log_entry(*e), 0, MPIDI_OFI_ondemand.log.slots * MPIDI_OFI_global.addrnamelen);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* The last entry removed (its resolution failed). */
void MPIDI_OFI_ondemand_log_drop(void)
{
    MPIDI_OFI_ondemand.log.next = MPIDI_OFI_ondemand.log.first[--MPIDI_OFI_ondemand.log.len];
}

/* The entry whose block starts at word w, or -1 (binary search: first[]
 * ascends). */
int64_t MPIDI_OFI_ondemand_log_entry_at(uint64_t w)
{
    uint64_t lo = 0, hi = MPIDI_OFI_ondemand.log.len;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (MPIDI_OFI_ondemand.log.first[mid] < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < MPIDI_OFI_ondemand.log.len && MPIDI_OFI_ondemand.log.first[lo] == w ? (int64_t) lo : -1;
}

/* The first of entries 0..n-1 whose root name (VNI 0, NIC 0) is name, or
 * -1. An AV answers the insert of an address it holds with the index it
 * has (the util AV's dedup), so a name logged twice would break the one
 * index sequence: a dynamic peer connected to again (MPI_Comm_disconnect,
 * then a new connect) takes its old entry. Linear: asked by the spawn
 * paths, and by a world resolution only once a dynamic peer was logged. */
int64_t MPIDI_OFI_ondemand_log_find(const void *name, uint64_t n)
{
    size_t len = MPIDI_OFI_global.addrnamelen;
    for (uint64_t e = 0; e < n; e++)
        if (!memcmp(MPIDI_OFI_ondemand_log_entry(e), name, len))
            return (int64_t) e;
    return -1;
}

int MPIDI_OFI_ondemand_log_free(void *unused)
{
    MPL_free(MPIDI_OFI_ondemand.log.names);
    MPL_free(MPIDI_OFI_ondemand.log.first);
    memset(&MPIDI_OFI_ondemand.log, 0, sizeof(MPIDI_OFI_ondemand.log));
    return MPI_SUCCESS;
}

#ifdef MPIDI_OFI_VNI_AVS
/* AV indices in entry e's block */
static uint64_t log_block_size(uint64_t e)
{
    return (e + 1 < MPIDI_OFI_ondemand.log.len ? MPIDI_OFI_ondemand.log.first[e + 1] : MPIDI_OFI_ondemand.log.next) - MPIDI_OFI_ondemand.log.first[e];
}

/* VNI vni's AV replays the log up to entry w. Holds VCI vni's lock and
 * the UTIL mutex. */
static int replay_locked(int vni, uint64_t w)
{
    int mpi_errno = MPI_SUCCESS;
    size_t len = MPIDI_OFI_global.addrnamelen;
    char why[200];

    if (w >= MPIDI_OFI_ondemand.log.next) {
        snprintf(why, sizeof(why), "address word %" PRIu64 " names no contacted peer (%" PRIu64
                 " logged)", w, MPIDI_OFI_ondemand.log.len);
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    while (MPIDI_OFI_global.av_known[vni] <= w) {
        uint64_t e = MPIDI_OFI_ondemand.log.replayed[vni];
        fi_addr_t at = MPIDI_OFI_ondemand.log.first[e];
        int n = (int) log_block_size(e);
        mpi_errno = MPIDI_OFI_ondemand_insert_in_every_nic(vni, MPIDI_OFI_ondemand_log_entry(e) + vni * MPIDI_OFI_ondemand.block_nics * len, n, &at,
                                        "contacted peer (log entry)", (int64_t) e);
        MPIR_ERR_CHECK(mpi_errno);
        MPIDI_OFI_ondemand.log.replayed[vni] = e + 1;
        __atomic_store_n(&MPIDI_OFI_global.av_known[vni], at + n, __ATOMIC_RELEASE);
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* MPIDI_OFI_av_vni_addr's slow branch: a word (shifted right by one) that
 * VNI vni's AV does not hold yet: resolved if pending, then that AV caught
 * up to it. Fatal on error, like MPIDI_OFI_av_resolve. */
fi_addr_t MPIDI_OFI_av_catch_up(uint64_t shifted, int vni)
{
    int mpi_errno = MPI_SUCCESS;
    fi_addr_t addr = shifted;

    if (!MPIDI_OFI_ondemand.log.on)     /* one AV: only a pending word gets here */
        return MPIDI_OFI_av_resolve((int64_t) shifted);
    int held = MPIDI_OFI_ondemand_vci_held(vni);
    if (!held)
        MPID_THREAD_CS_ENTER(VCI, MPIDI_VCI(vni).lock);
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (shifted > AVRM_AVE_MAX_ADDR)
        mpi_errno = MPIDI_OFI_ondemand_resolve_pending_locked(shifted, &addr);
    if (!mpi_errno)
        mpi_errno = replay_locked(vni, addr);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (!held)
        MPID_THREAD_CS_EXIT(VCI, MPIDI_VCI(vni).lock);
    if (mpi_errno)
        MPIR_Handle_fatal_error(NULL, "MPIDI_OFI_av_catch_up", mpi_errno);
    return addr;
}
#endif
