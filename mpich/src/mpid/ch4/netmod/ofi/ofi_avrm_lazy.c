/*
 * ofi_avrm_lazy.c - on-demand addressing for the OFI netmod (issue 24):
 * MPI_Init publishes this process's address (one PMI put, one fence) and
 * inserts no other process; a world peer's 8-byte address word stays
 * pending (AVRM_AVE_PENDING, carrying the peer's rank) until the first
 * operation that addresses it, which fetches its address from PMI, inserts
 * it into libfabric's AV and stores the word (MPIDI_OFI_av_resolve, reached
 * from MPIDI_OFI_av_root_addr, ofi_impl.h).
 *
 * When: MPIR_CVAR_AVRM_ON_DEMAND_AV (default on) and the provider keeps
 * MPI's source matching for a sender it has not inserted (ofi_rxm, ofi_rxd:
 * an unknown sender never matches a receive posted for another source, and
 * its queued messages match once it is inserted). Otherwise, eager (stock's
 * exchange), with the reason in the report: sockets and shm before
 * libfabric 1.19 hand a message from an unknown sender to a receive posted
 * for another source; several VNIs compute their endpoints from root
 * addresses inserted in rank order (patch 0009); a launcher-provided named
 * AV is already complete. The decision rests on inputs every process shares
 * (CVARs, FI_PROVIDER): a process with several NICs uses its first one on
 * demand (MPIDI_OFI_post_init), as stock does with
 * MPIR_CVAR_OFI_USE_MIN_NICS and a peer of one NIC. The computed AV (MPIR_CVAR_AVRM_COMPUTED_AV)
 * needs eager inserts in rank order: with both asked for, on-demand wins
 * (it saves libfabric's per-peer state, ~130 B over sockets and ~1.35 KB
 * over tcp;ofi_rxm, against the computed AV's 8 B) and the report says so.
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi beside ofi_init.c (patch 0015 lists it in MPICH's generated
 * Makefile.in). Its interface: MPIDI_OFI_addr_init and
 * MPIDI_OFI_av_count_hint for ofi_init.c (ofi_init.h), MPIDI_OFI_av_resolve
 * for the inline address lookup (ofi_impl.h).
 *
 * Thread safety: MPIDI_OFI_av_resolve holds MPIDIU_THREAD_UTIL_MUTEX across
 * the re-check of the word, the PMI get and the insert, so two threads that
 * touch the same new peer insert it once and PMI calls of resolutions are
 * serialized (callers may hold a VCI lock: VCI -> UTIL is MPICH's order).
 * Readers of the word are lock-free; the resolved word is stored with
 * release order after the insert.
 * Costs: init one PMI put + one PMI fence, O(P) word writes (the world AV's
 * entries exist either way); each first contact one PMI get (one round trip
 * to the local PMI server under hydra PMI-1, Slurm pmi2 and PMIx with a
 * collecting fence) and one fi_av_insert; later contacts nothing (the hot
 * path's cost is one sign test of the word).
 */
#include "mpidimpl.h"
#include "ofi_impl.h"
#include "ofi_init.h"
#include "ch4_avrm.h"

#define MPIDI_OFI_BC_KEY "avrm-bc-%u"

/* Why this process cannot address on demand, or NULL when it can. */
static const char *on_demand_refusal(void)
{
    const char *prov = MPIDI_OFI_global.prov_use[0]->fabric_attr->prov_name;
    size_t n = strlen(prov);

    if (!MPIR_CVAR_AVRM_ON_DEMAND_AV)
        return "MPIR_CVAR_AVRM_ON_DEMAND_AV=0";
    if (MPIDI_OFI_global.got_named_av)
        return "the launcher provided a complete named AV";
#ifdef MPIDI_OFI_VNI_USE_DOMAIN
    if (MPIDI_OFI_global.num_vnis > 1)
        return "several VNIs: their endpoints are computed from root addresses inserted in "
            "rank order";
#endif
    if (n >= 8 && (!strcmp(prov + n - 8, ";ofi_rxm") || !strcmp(prov + n - 8, ";ofi_rxd")))
        return NULL;
    if (!strcmp(prov, "shm") && fi_version() >= FI_VERSION(1, 19))
        return NULL;
    return "the provider hands a message from a sender it has not inserted to a receive "
        "posted for another source (sockets; shm before libfabric 1.19)";
}

/* The size hint of a local libfabric AV (fi_av_attr.count), which a
 * provider may preallocate for: the world when it is inserted at MPI_Init;
 * on demand a constant, whatever the job's size (the AV grows as peers are
 * inserted). libfabric 1.17's ofi_rxm over tcp preallocates (count + 1)
 * entries of 128 B: a hint of min(P, 64) was that 128 B per peer of the job
 * up to 64 processes (glibc mtrace of MPI_Init at 8 and 64 processes:
 * (P + 1) x 128 B live from one libfabric call site, the rest of libfabric
 * the same). Called when the contexts are created, before
 * MPIDI_OFI_addr_init decides: the same rule, without the named AV (a local
 * AV means there is none). */
#define MPIDI_OFI_ON_DEMAND_AV_HINT 16
size_t MPIDI_OFI_av_count_hint(void)
{
    if (on_demand_refusal())
        return (size_t) MPIR_Process.size;
    return MPIDI_OFI_ON_DEMAND_AV_HINT;
}

static void hex_encode(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decode exactly n bytes from a string of 2n hex digits; -1 otherwise. */
static int hex_decode(const char *in, unsigned char *out, size_t n)
{
    if (strlen(in) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hex_value(in[2 * i]), lo = hex_value(in[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (unsigned char) (hi << 4 | lo);
    }
    return 0;
}

/* MPI_Init, on demand: publish my root address, fence, insert myself. */
static int on_demand_init(void)
{
    int mpi_errno = MPI_SUCCESS;
    char key[32], val[2 * FI_NAME_MAX + 1];
    fi_addr_t self;

    MPIDI_OFI_global.addrnamelen = FI_NAME_MAX;
    MPIDI_OFI_CALL(fi_getname((fid_t) MPIDI_OFI_global.ctx[0].ep, MPIDI_OFI_global.addrname,
                              &MPIDI_OFI_global.addrnamelen), getname);
    MPIR_ERR_CHKANDJUMP1(MPIDI_OFI_global.addrnamelen > FI_NAME_MAX, mpi_errno, MPI_ERR_OTHER,
                         "**fail", "**fail %s", "the provider's address is longer than FI_NAME_MAX");
    hex_encode((const unsigned char *) MPIDI_OFI_global.addrname,
               MPIDI_OFI_global.addrnamelen, val);
    MPIR_ERR_CHKANDJUMP1((int) strlen(val) >= MPIR_pmi_max_val_size(), mpi_errno, MPI_ERR_OTHER,
                         "**fail", "**fail %s", "the provider's address does not fit one PMI value");
    snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY, (unsigned) MPIR_Process.rank);
    mpi_errno = MPIR_pmi_kvs_put(key, val);
    MPIR_ERR_CHECK(mpi_errno);
    mpi_errno = MPIR_pmi_barrier();
    MPIR_ERR_CHECK(mpi_errno);

    /* every world word pending (the stored AV is required: computed has no
     * words), then mine resolved: the first insert of every process */
    mpi_errno = MPIDIU_avt_world_pending("on-demand addressing keeps a pending word per peer");
    MPIR_ERR_CHECK(mpi_errno);
    MPIDI_OFI_CALL(fi_av_insert(MPIDI_OFI_global.ctx[0].av, MPIDI_OFI_global.addrname, 1, &self,
                                0ULL, NULL), avmap);
    mpi_errno = MPIDIU_av_set_addr(0, MPIR_Process.rank, self);
    MPIR_ERR_CHECK(mpi_errno);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Resolve world peer lpid. Holds MPIDIU_THREAD_UTIL_MUTEX. Errors name the
 * peer and the call that failed. */
static int resolve_locked(uint32_t lpid, fi_addr_t * out)
{
    int mpi_errno = MPI_SUCCESS;
    char key[32], val[2 * FI_NAME_MAX + 1], why[160];
    unsigned char name[FI_NAME_MAX];
    size_t len = MPIDI_OFI_global.addrnamelen;
    avrm_ave_t w = avrm_av_ave(MPIDI_avrm.ctx->avs[0], lpid);
    fi_addr_t addr = FI_ADDR_NOTAVAIL;
    MPL_time_t t0, t1;
    double dt;

    MPL_wtime(&t0);

    if (!avrm_ave_is_pending(w)) {      /* another thread resolved it meanwhile */
        *out = avrm_ave_addr(w);
        return MPI_SUCCESS;
    }
    snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY, lpid);
    val[0] = '\0';
    mpi_errno = MPIR_pmi_kvs_get((int) lpid, key, val, sizeof(val));
    if (mpi_errno) {
        snprintf(why, sizeof(why), "the address of rank %u: PMI get of key %s failed "
                 "(the peer may have finalized, or never published it)", lpid, key);
        mpi_errno = MPIR_Err_create_code(mpi_errno, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                         MPI_ERR_OTHER, "**fail", "**fail %s", why);
        goto fn_fail;
    }
    if (hex_decode(val, name, len)) {
        snprintf(why, sizeof(why), "the address of rank %u: PMI key %s holds %zu characters, "
                 "not the %zu hex digits of this provider's address", lpid, key, strlen(val),
                 2 * len);
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    int ret = fi_av_insert(MPIDI_OFI_global.ctx[0].av, name, 1, &addr, 0ULL, NULL);
    if (ret != 1 || addr == FI_ADDR_NOTAVAIL || addr > AVRM_AVE_MAX_ADDR) {
        snprintf(why, sizeof(why), "the address of rank %u: fi_av_insert returned %d (%s), "
                 "fi_addr %#" PRIx64, lpid, ret, ret < 0 ? fi_strerror(-ret) : "count",
                 (uint64_t) addr);
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    mpi_errno = MPIDIU_av_set_addr_locked(0, (int) lpid, addr);
    MPIR_ERR_CHECK(mpi_errno);
    MPIDI_avrm.peers_resolved++;
    MPL_wtime(&t1);
    MPL_wtime_diff(&t0, &t1, &dt);
    MPIDI_avrm.resolve_seconds += dt;
    *out = addr;
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* The hot path's slow branch: a pending word's peer, resolved. An error is
 * fatal here (the callers, down to the progress engine's replies, have no
 * error path for an address): it aborts with the message of the cause. */
fi_addr_t MPIDI_OFI_av_resolve(int64_t pending)
{
    fi_addr_t addr = FI_ADDR_NOTAVAIL;
    /* pending is the word >> 1 (arithmetic); shifted back it is the word
     * without its locality bit, which the lpid does not need */
    uint32_t lpid = avrm_ave_pending_lpid((avrm_ave_t) pending << 1);

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    int mpi_errno = lpid < (uint32_t) MPIR_Process.size ? resolve_locked(lpid, &addr)
        : MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_FATAL, __func__, __LINE__, MPI_ERR_OTHER,
                               "**fail", "**fail %s", "a pending address word names no rank of "
                               "this world");
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (mpi_errno)
        MPIR_Handle_fatal_error(NULL, "MPIDI_OFI_av_resolve", mpi_errno);
    return addr;
}

/* MPI_Init's address step: on demand when allowed, else stock's exchange. */
int MPIDI_OFI_addr_init(void)
{
    const char *refusal = on_demand_refusal();

    MPIDI_avrm.eager_reason = refusal;
    MPIDI_avrm.on_demand = refusal == NULL;
    if (MPIDI_avrm.on_demand)
        return on_demand_init();
    if (MPIDI_OFI_global.got_named_av)
        return MPI_SUCCESS;
    return MPIDI_OFI_addr_exchange_root_ctx();
}

