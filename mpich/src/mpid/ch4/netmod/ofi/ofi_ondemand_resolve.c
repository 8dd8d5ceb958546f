/*
 * ofi_ondemand_resolve.c - on-demand addressing: first contact (a pending
 * word's peer resolved: its names from PMI, its block into every NIC's AV
 * or the log, the word stored) and the spawn paths' dynamic peers. Rules:
 * ofi_ondemand.h.
 */
#include "mpidimpl.h"
#include "ofi_impl.h"
#include "ofi_init.h"
#include "ch4_avrm.h"
#include "ofi_ondemand.h"

/* Insert n names into the AV of context (vni, nic) as one block: at
 * *first, or where the AV puts it when *first is FI_ADDR_NOTAVAIL (then
 * *first is set). FI_AV_TABLE gives consecutive indices; anything else (a
 * name the AV already holds answers with its old index) is an error
 * naming whose block it is: `whose`, then `rank` when it is >= 0 (formatted
 * on failure only: first contact pays no snprintf). */
int MPIDI_OFI_ondemand_insert_block(int vni, int nic, const char *names, int n, fi_addr_t * first,
                        const char *whose, int64_t rank)
{
    int mpi_errno = MPI_SUCCESS;
    struct fid_av *av = MPIDI_OFI_global.ctx[MPIDI_OFI_get_ctx_index(NULL, vni, nic)].av;
    fi_addr_t got[MPIDI_OFI_MAX_NICS] = { FI_ADDR_NOTAVAIL };     /* read on failure too */
    char why[320];

    /* FI_THREAD_DOMAIN: the AV's VNI is not progressed meanwhile */
    MPID_THREAD_ASSERT_IN_CS(VCI, MPIDI_VCI(vni).lock);
    int ret = fi_av_insert(av, names, n, got, 0ULL, NULL);
    int ok = ret == n && got[0] != FI_ADDR_NOTAVAIL && got[0] <= AVRM_AVE_MAX_ADDR - n &&
        (*first == FI_ADDR_NOTAVAIL || got[0] == *first);
    for (int k = 1; ok && k < n; k++)
        ok = got[k] == got[0] + k;
    if (!ok) {
        char rk[24] = "";
        if (rank >= 0)
            snprintf(rk, sizeof(rk), " %" PRId64, rank);
        snprintf(why, sizeof(why), "%s%s: fi_av_insert of %d endpoint name(s) into the AV of "
                 "VNI %d, NIC %d returned %d (%s), fi_addr %#" PRIx64 " where %s", whose, rk, n,
                 vni, nic, ret,
                 ret < 0 ? fi_strerror(-ret) : "count", (uint64_t) got[0],
                 n > 1 ? "a block of consecutive indices, the same in every AV, belongs "
                 "(a peer connected to as a dynamic one first keeps its old index)" :
                 "every AV has it at one index");
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    *first = got[0];
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* A peer's block of n names into the AV of every NIC of VNI vni at one
 * index (*first as for insert_block: FI_ADDR_NOTAVAIL takes NIC 0's
 * choice for all). */
int MPIDI_OFI_ondemand_insert_in_every_nic(int vni, const char *names, int n, fi_addr_t * first,
                               const char *whose, int64_t rank)
{
    int mpi_errno = MPI_SUCCESS;

    MPIR_ERR_CHKANDJUMP1(MPIDI_OFI_ondemand.nics_apart[0], mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                         MPIDI_OFI_ondemand.nics_apart);
    for (int nic = 0; nic < MPIDI_OFI_ondemand.block_nics && !mpi_errno; nic++) {
        mpi_errno = MPIDI_OFI_ondemand_insert_block(vni, nic, names, n, first, whose, rank);
        if (mpi_errno && nic > 0)
            snprintf(MPIDI_OFI_ondemand.nics_apart, sizeof(MPIDI_OFI_ondemand.nics_apart), "on demand, VNI %d's NICs' AVs no longer "
                     "hold the same blocks: an insert failed in NIC %d's after NIC 0's took "
                     "it (the first error of this kind names whose block)", vni, nic);
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* World peer lpid's root endpoint name from PMI into name (one get), and
 * the names of its block (the root's, then names 1..total-1: its other
 * NICs' or VNIs'). Hold MPIDIU_THREAD_UTIL_MUTEX (UTIL -> PMI). */
static int get_root_name(uint32_t lpid, unsigned char *name)
{
    char key[48];

    snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY, lpid);
    return MPIDI_OFI_ondemand_get_names(lpid, key, name, 1);
}

static int get_block_names(uint32_t lpid, unsigned char *names, int total)
{
    int mpi_errno = get_root_name(lpid, names);
    if (!mpi_errno)
        mpi_errno = MPIDI_OFI_ondemand_get_other_names(lpid, names, total);
    return mpi_errno;
}

/* The world rank a pending word (shifted right by one) names, or an error
 * when it names none. */
static int pending_rank(uint64_t shifted, uint32_t * lpid)
{
    *lpid = avrm_ave_pending_lpid((avrm_ave_t) shifted << 1);
    if (*lpid < (uint32_t) MPIR_Process.size)
        return MPI_SUCCESS;
    return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                MPI_ERR_OTHER, "**fail", "**fail %s",
                                "a pending address word names no rank of this world");
}

/* Resolve world peer lpid: its names from PMI (or pre, fetched before
 * VCI 0's lock was taken; NULL: fetch them now), then its block into every
 * NIC's AV, or one log entry (MPIDI_OFI_ondemand.log.on); the word stored.
 * Holds MPIDIU_THREAD_UTIL_MUTEX (and VCI 0's lock without the log). Errors
 * name the peer and the call that failed. */
static int resolve_locked(uint32_t lpid, const unsigned char *pre, fi_addr_t * out)
{
    int mpi_errno = MPI_SUCCESS;
    char why[320];
    avrm_ave_t w = avrm_av_ave(MPIDI_avrm.ctx->avs[0], lpid);
    fi_addr_t addr = FI_ADDR_NOTAVAIL;
    MPL_time_t t0, t1;
    double dt;

    MPL_wtime(&t0);

    if (!avrm_ave_is_pending(w)) {      /* another thread resolved it meanwhile */
        *out = avrm_ave_addr(w);
        return MPI_SUCCESS;
    }
    if (MPIDI_OFI_ondemand.log.on) {
        /* appended, filled, dropped on a failure: no other thread sees it
         * meanwhile (UTIL held) */
        uint64_t e;
        mpi_errno = MPIDI_OFI_ondemand_log_append(MPIDI_OFI_ondemand.block_nics, &e);
        MPIR_ERR_CHECK(mpi_errno);
        unsigned char *names = (unsigned char *) MPIDI_OFI_ondemand_log_entry(e);
        mpi_errno = get_block_names(lpid, names, MPIDI_OFI_ondemand.log.slots);
        if (!mpi_errno && MPIDI_OFI_ondemand.log.dynamic && MPIDI_OFI_ondemand_log_find(names, e) >= 0) {
            /* logged as a dynamic peer (its root name in every VNI's slot)
             * before this resolution: the VNIs' AVs that replayed it hold
             * its root endpoint where its VNI's belongs */
            snprintf(why, sizeof(why), "rank %u of this world was connected to as a dynamic "
                     "peer before any contact in the world; on-demand addressing over several "
                     "VNIs cannot address it (MPIR_CVAR_AVRM_ON_DEMAND_AV=0 or one VCI can)",
                     lpid);
            mpi_errno = MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, __func__,
                                             __LINE__, MPI_ERR_OTHER, "**fail", "**fail %s",
                                             why);
        }
        if (mpi_errno) {
            MPIDI_OFI_ondemand_log_drop();
            goto fn_fail;
        }
        addr = MPIDI_OFI_ondemand.log.first[e];
    } else {
        unsigned char names[MPIDI_OFI_MAX_NICS * FI_NAME_MAX];
        if (!pre) {
            mpi_errno = get_block_names(lpid, names, MPIDI_OFI_ondemand.block_nics);
            MPIR_ERR_CHECK(mpi_errno);
            pre = names;
        }
        mpi_errno = MPIDI_OFI_ondemand_insert_in_every_nic(0, (const char *) pre, MPIDI_OFI_ondemand.block_nics, &addr,
                                        "the address of rank", lpid);
        MPIR_ERR_CHECK(mpi_errno);
    }
    mpi_errno = MPIDIU_av_set_addr_locked(0, (int) lpid, addr);
    if (mpi_errno && MPIDI_OFI_ondemand.log.on)
        MPIDI_OFI_ondemand_log_drop();     /* no word names it: a retry appends it again */
    MPIR_ERR_CHECK(mpi_errno);
    MPIDI_OFI_ondemand.peers_resolved++;
    MPL_wtime(&t1);
    MPL_wtime_diff(&t0, &t1, &dt);
    MPIDI_OFI_ondemand.resolve_seconds += dt;
    *out = addr;
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* A pending word (shifted right by one, either way) resolved; holds the
 * UTIL mutex. */
int MPIDI_OFI_ondemand_resolve_pending_locked(uint64_t shifted, fi_addr_t * out)
{
    uint32_t lpid;
    int mpi_errno = pending_rank(shifted, &lpid);

    return mpi_errno ? mpi_errno : resolve_locked(lpid, NULL, out);
}

/* Whether this thread holds VCI vni's lock (the send, receive and RMA
 * paths do below their entry points, progress does; the entry points,
 * compare-and-swap's and fetch-and-op's address lookups and the spawn
 * paths do not). */
int MPIDI_OFI_ondemand_vci_held(int vni)
{
#if MPICH_THREAD_GRANULARITY == MPICH_THREAD_GRANULARITY__VCI
    if (!MPIR_ThreadInfo.isThreaded)
        return 1;       /* the critical sections are no-ops */
    MPL_thread_id_t self, owner;
    int same = 0;
    MPL_thread_self(&self);
    owner = MPIDUI_OWNER_LOAD(MPIDI_VCI(vni).lock);
    MPL_thread_same(&self, &owner, &same);
    return same;
#else
    return 1;
#endif
}

/* The locks of an insert into VNI 0's AVs (first contact without the log,
 * a dynamic peer over several NICs): VCI 0's, unless this thread holds it,
 * then UTIL (MPICH's order). Without the log a per-VCI build has one VNI
 * (several need FI_AV_TABLE: refusal_reason), so no other VCI lock can be
 * held here. With the log nothing is inserted here: UTIL alone, and each
 * VNI's AV catches up under its own lock (MPIDI_OFI_av_catch_up). Returns
 * whether VCI 0's lock was taken, for ondemand_unlock. */
int MPIDI_OFI_ondemand_lock(void)
{
    int took = !MPIDI_OFI_ondemand.log.on && !MPIDI_OFI_ondemand_vci_held(0);

    if (took)
        MPID_THREAD_CS_ENTER(VCI, MPIDI_VCI(0).lock);
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return took;
}

void MPIDI_OFI_ondemand_unlock(int took)
{
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (took)
        MPID_THREAD_CS_EXIT(VCI, MPIDI_VCI(0).lock);
}

/* A pending word's peer (the word shifted right by one) resolved under
 * MPIDI_OFI_ondemand_lock. On failure with why set, nothing can return the
 * error: the job ends with its cause and why (func names the caller). */
static int resolve(uint64_t shifted, fi_addr_t * addr, const char *why, const char *func)
{
    unsigned char names[MPIDI_OFI_MAX_NICS * FI_NAME_MAX];
    const unsigned char *pre = NULL;
    uint32_t lpid;
    int mpi_errno = pending_rank(shifted, &lpid);

    if (!mpi_errno && !MPIDI_OFI_ondemand.log.on && !MPIDI_OFI_ondemand_vci_held(0)) {
        /* the PMI round trip before VCI 0's lock, which would stall every
         * thread's progress on VCI 0 meanwhile; a peer resolved by another
         * thread in between costs this thread a wasted get */
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        if (avrm_ave_is_pending(avrm_av_ave(MPIDI_avrm.ctx->avs[0], lpid))) {
            mpi_errno = get_block_names(lpid, names, MPIDI_OFI_ondemand.block_nics);
            pre = names;
        }
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    }
    if (!mpi_errno) {
        int took = MPIDI_OFI_ondemand_lock();
        mpi_errno = resolve_locked(lpid, pre, addr);
        MPIDI_OFI_ondemand_unlock(took);
    }
    if (mpi_errno && why) {
        mpi_errno = MPIR_Err_create_code(mpi_errno, MPIR_ERR_FATAL, func, __LINE__,
                                         MPI_ERR_OTHER, "**fail", "**fail %s", why);
        MPIR_Handle_fatal_error(NULL, func, mpi_errno);
    }
    return mpi_errno;
}

/* For an MPI call (MPIDI_OFI_AV_READY_OR_RETURN): the error goes back to
 * the call, or, for a collective's message, ends the job. */
avrm_ave_t MPIDI_OFI_av_resolve_call(avrm_ave_t pending, int coll, int *err)
{
    fi_addr_t addr = FI_ADDR_NOTAVAIL;

    *err = resolve((uint64_t) ((int64_t) pending >> 1), &addr,
                   coll ? "first contact for a collective failed: its peer would wait for "
                   "ever, so the job ends" : NULL, __func__);
    return *err ? 0 : avrm_ave_make(addr, (int) (pending & 1));
}

/* The hot path's slow branch inside progress (a reply or an
 * acknowledgement to a peer no MPI call of this process addressed yet):
 * there is no call to return an error to, so it aborts with the cause. */
fi_addr_t MPIDI_OFI_av_resolve(int64_t pending)
{
    fi_addr_t addr = FI_ADDR_NOTAVAIL;

    resolve((uint64_t) pending, &addr, "first contact from inside progress (a reply to a "
            "peer no MPI call addressed yet) failed: no call can return the error", __func__);
    return addr;
}

/* The name of the endpoint at address w of context ctx_idx's AV, as
 * fi_av_lookup gives it (the spawn paths compare and send names): from the
 * log when resolutions go there (w is a log entry; its VNI 0 name), else
 * from the AV. */
int MPIDI_OFI_av_name(int ctx_idx, fi_addr_t w, void *name, size_t * len)
{
    int mpi_errno = MPI_SUCCESS;

    if (MPIDI_OFI_ondemand.log.on) {
        size_t have = MPIDI_OFI_global.addrnamelen;
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        int64_t e = MPIDI_OFI_ondemand_log_entry_at(w);
        int known = e >= 0;
        if (known)
            memcpy(name, MPIDI_OFI_ondemand_log_entry(e), MPL_MIN(*len, have));
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        MPIR_ERR_CHKANDJUMP1(!known, mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                             "an address word names no contacted peer");
        *len = have;
        goto fn_exit;
    }
    MPIDI_OFI_VCI_CALL(fi_av_lookup(MPIDI_OFI_global.ctx[ctx_idx].av, w, name, len), 0,
                       avlookup);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* A dynamic peer (spawned, connected or accepted) from its root name: its
 * address in context ctx_idx's AV, inserted now, or a log entry with that
 * name in every VNI's slot (a dynamic peer is addressed on VNI 0; the
 * others' AVs keep the one index sequence) that each AV replays on use;
 * the entry it has when logged before. The log and the NICs' blocks take
 * MPIDIU_THREAD_UTIL_MUTEX, as first contact does (one index sequence). */
int MPIDI_OFI_av_insert_dynamic(int ctx_idx, const void *name, size_t len, fi_addr_t * addr)
{
    int mpi_errno = MPI_SUCCESS;

    MPIR_ERR_CHKANDJUMP1((MPIDI_OFI_ondemand.log.on || MPIDI_OFI_ondemand.block_nics > 1) && len != MPIDI_OFI_global.addrnamelen,
                         mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                         "a connecting process's address differs in length from this provider's");
    if (MPIDI_OFI_ondemand.log.on) {
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        int64_t old = MPIDI_OFI_ondemand_log_find(name, MPIDI_OFI_ondemand.log.len);
        uint64_t e = (uint64_t) old;
        if (old < 0) {
            mpi_errno = MPIDI_OFI_ondemand_log_append(1, &e);
            for (int v = 0; !mpi_errno && v < MPIDI_OFI_global.num_vnis; v++)
                memcpy(MPIDI_OFI_ondemand_log_entry(e) + v * MPIDI_OFI_ondemand.block_nics * len, name, len);
            MPIDI_OFI_ondemand.log.dynamic += !mpi_errno;
        }
        if (!mpi_errno)
            *addr = MPIDI_OFI_ondemand.log.first[e];
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        MPIR_ERR_CHECK(mpi_errno);
        goto fn_exit;
    }
    if (MPIDI_OFI_ondemand.block_nics > 1) {
        /* its root endpoint alone, at one index in every NIC's AV */
        *addr = FI_ADDR_NOTAVAIL;
        int took = MPIDI_OFI_ondemand_lock();
        mpi_errno = MPIDI_OFI_ondemand_insert_in_every_nic(0, (const char *) name, 1, addr,
                                        "a dynamic peer (spawn, connect)", -1);
        MPIDI_OFI_ondemand_unlock(took);
        MPIR_ERR_CHECK(mpi_errno);
        goto fn_exit;
    }
    int took = MPIDI_OFI_ondemand_lock();
    MPID_THREAD_ASSERT_IN_CS(VCI, MPIDI_VCI(0).lock);
    int ret = fi_av_insert(MPIDI_OFI_global.ctx[ctx_idx].av, name, 1, addr, 0ULL, NULL);
    MPIDI_OFI_ondemand_unlock(took);
    if (ret != 1) {
        char why[160];
        snprintf(why, sizeof(why), "fi_av_insert of a dynamic peer (spawn, connect) into the AV "
                 "of context %d returned %d (%s)", ctx_idx, ret,
                 ret < 0 ? fi_strerror(-ret) : "count");
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* A upid (the name the spawn and connect paths exchange for a process) is
 * its root endpoint's name followed by this trailer: the job's key (FNV-1a
 * of MPIR_pmi_job_id, or of MPIR_CVAR_AVRM_JOB_KEY), its world
 * rank in that job (UINT32_MAX for a process outside this process's
 * world), a magic word. A process of this world, reached through a port,
 * is then found as the world's rank, never as a second, dynamic identity,
 * whether or not it was contacted. */
#define UPID_MAGIC 0x31525641u  /* "AVR1" */
typedef struct {
    uint64_t job_key;
    uint32_t rank;
    uint32_t magic;
} upid_trailer_t;

static uint64_t job_key(void)
{
    static uint64_t key;        /* written once, the same value by every thread */
    uint64_t h = __atomic_load_n(&key, __ATOMIC_RELAXED);

    if (!h) {
        const char *id = MPIR_CVAR_AVRM_JOB_KEY && *MPIR_CVAR_AVRM_JOB_KEY ?
            MPIR_CVAR_AVRM_JOB_KEY : MPIR_pmi_job_id();
        h = 14695981039346656037ull;
        for (const char *c = id; c && *c; c++)
            h = (h ^ (unsigned char) *c) * 1099511628211ull;
        h |= 1;                 /* never 0: 0 means not computed */
        __atomic_store_n(&key, h, __ATOMIC_RELAXED);
    }
    return h;
}

/* The AM header's name of this process's endpoints (MPIDI_OFI_am_src_id):
 * the job's key folded to 24 bits, above the world rank (< 2^24), nic and
 * vni. Unique in a receiver's eyes only if the jobs it hears from fold to
 * different bits: check_am_job checks each job a process learns of. */
static uint32_t am_job_bits(uint64_t key)
{
    return (uint32_t) ((key ^ key >> 24 ^ key >> 48) & 0xffffff);
}

uint64_t MPIDI_OFI_am_src_id_base(void)
{
    return (uint64_t) am_job_bits(job_key()) << 40 | (uint64_t) MPIR_Process.rank << 16;
}

/* The other jobs' keys this process has met in upids (UTIL mutex), freed at
 * MPI_Finalize. */
static struct {
    uint64_t *keys;
    int n, cap;
} met_jobs;

static int met_jobs_free(void *unused)
{
    MPL_free(met_jobs.keys);
    memset(&met_jobs, 0, sizeof(met_jobs));
    return MPI_SUCCESS;
}

/* A process of another job (key; same_key: a job of this job's id but
 * other names, e.g. two launchers' jobs) is about to become a peer: its AM
 * ids should differ from every job's this process can hear from, or their
 * active messages would merge their sequence streams here (a hang or
 * misordered active messages, should both send to this process). A
 * collision is reported once per job on stderr and the connection goes on:
 * ending the job here leaves the other side of 4.0.2's connect handshake
 * waiting (both mpiexecs hung when tried), and an error returned here
 * would leave the connect's other processes in its broadcasts. O(jobs met);
 * best effort: no memory to remember a job leaves it unchecked. */
static void check_am_job(uint64_t key, int same_key)
{
    uint64_t clash = 0;
    int known = 0;

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    for (int i = 0; i < met_jobs.n && !known; i++) {
        known = met_jobs.keys[i] == key;
        if (!clash && am_job_bits(met_jobs.keys[i]) == am_job_bits(key))
            clash = met_jobs.keys[i];
    }
    if (known)
        clash = 0;      /* reported when it was met */
    else if (same_key || am_job_bits(key) == am_job_bits(job_key()))
        clash = job_key();
    if (!known) {
        if (met_jobs.n == met_jobs.cap) {
            /* no memory: the job goes unregistered (a later collision with
             * it goes unreported); an error here would leave the connect's
             * other processes in its broadcasts */
            int cap = met_jobs.cap ? 2 * met_jobs.cap : 4;
            uint64_t *k = MPL_realloc(met_jobs.keys, cap * sizeof(*k), MPL_MEM_ADDRESS);
            if (k && !met_jobs.keys)
                MPIR_Add_finalize(met_jobs_free, NULL, MPIR_FINALIZE_CALLBACK_PRIO - 1);
            if (k) {
                met_jobs.keys = k;
                met_jobs.cap = cap;
            }
        }
        if (met_jobs.n < met_jobs.cap)
            met_jobs.keys[met_jobs.n++] = key;
    }
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (clash)
        MPL_error_printf("MPICH (avrm) warning, world rank %d: a connected job (key %016" PRIx64
                         ") and %s (key %016" PRIx64 ") share the AM sender id bits %06x: "
                         "active messages of both to this process may be misordered or hang "
                         "(MPIR_CVAR_AVRM_JOB_KEY sets a job's key)\n", MPIR_Process.rank, key,
                         clash == job_key() ? "this job" : "another connected job", clash,
                         am_job_bits(key));
}

size_t MPIDI_OFI_upid_trailer_size(void)
{
    return sizeof(upid_trailer_t);
}

void MPIDI_OFI_upid_trailer(MPIR_Comm * comm, int i, char *out)
{
    int lpid = 0, avtid = 0;
    upid_trailer_t t = { job_key(), UINT32_MAX, UPID_MAGIC };

    MPIDIU_comm_rank_to_pid(comm, i, &lpid, &avtid);
    if (avtid == 0)
        t.rank = (uint32_t) lpid;
    memcpy(out, &t, sizeof(t));
}

/* World rank r's root endpoint name into buf (*len: its size in, the
 * name's length out): this process's own, a contacted peer's from the AV
 * (or the log), or a pending peer's from PMI (one get), inserting nothing:
 * the spawn and connect root names every member of its communicator
 * without contacting any. */
static int world_root_name(uint32_t r, char *buf, size_t * len)
{
    int mpi_errno = MPI_SUCCESS;
    avrm_ave_t w;

    if (r == (uint32_t) MPIR_Process.rank) {
        MPIR_Assert(*len >= MPIDI_OFI_global.addrnamelen);
        memcpy(buf, MPIDI_OFI_global.addrname, MPIDI_OFI_global.addrnamelen);
        *len = MPIDI_OFI_global.addrnamelen;
        return MPI_SUCCESS;
    }
    w = MPIDIU_av_word(MPIDIU_lpid_to_av(0, (int) r));
    if (!avrm_ave_is_pending(w))
        return MPIDI_OFI_av_name(MPIDI_OFI_get_ctx_index(NULL, 0, 0), avrm_ave_addr(w), buf, len);
    MPIR_Assert(*len >= MPIDI_OFI_global.addrnamelen);
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    mpi_errno = get_root_name(r, (unsigned char *) buf);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    *len = MPIDI_OFI_global.addrnamelen;
    return mpi_errno;
}

/* The root endpoint name of member i of comm (its upid's name part; *len as
 * for world_root_name): a world member's without contacting it, anyone
 * else's from its address. */
int MPIDI_OFI_upid_name(MPIR_Comm * comm, int i, char *name, size_t * len)
{
    int lpid = 0, avtid = 0;

    MPIDIU_comm_rank_to_pid(comm, i, &lpid, &avtid);
    if (avtid == 0)
        return world_root_name((uint32_t) lpid, name, len);
    return MPIDI_OFI_av_name(MPIDI_OFI_get_ctx_index(comm, 0, 0),
                             MPIDI_OFI_av_root_addr(MPIDIU_comm_rank_to_av(comm, i)), name, len);
}

/* Whether world rank r's root endpoint name is name (len bytes). */
static int world_name_is(uint32_t r, const char *name, size_t len, int *same)
{
    char buf[FI_NAME_MAX];
    size_t sz = sizeof(buf);

    *same = 0;
    if (len != MPIDI_OFI_global.addrnamelen || len > sizeof(buf))
        return MPI_SUCCESS;
    int mpi_errno = world_root_name(r, buf, &sz);
    if (!mpi_errno)
        *same = sz == len && !memcmp(buf, name, len);
    return mpi_errno;
}

int MPIDI_OFI_upid_world_rank(const char *upid, int size, int *name_len, int *rank)
{
    upid_trailer_t t;
    int same = 0, mpi_errno = MPI_SUCCESS;

    *rank = -1;
    *name_len = size;
    if (size <= (int) sizeof(t))
        return MPI_SUCCESS;
    memcpy(&t, upid + size - sizeof(t), sizeof(t));
    if (t.magic != UPID_MAGIC)
        return MPI_SUCCESS;
    *name_len = size - (int) sizeof(t);
    /* the same job's key and a rank of this world: the name must be that
     * rank's too (two jobs can share a job id: launchers on two hosts) */
    if (t.job_key == job_key() && t.rank < (uint32_t) MPIR_Process.size)
        mpi_errno = world_name_is(t.rank, upid, (size_t) *name_len, &same);
    if (!mpi_errno && same)
        *rank = (int) t.rank;
    else if (!mpi_errno && t.rank != UINT32_MAX)
        /* a process of another job (UINT32_MAX: a peer its sender relayed,
         * whose job the trailer does not name) */
        check_am_job(t.job_key, t.job_key == job_key());
    return mpi_errno;
}

