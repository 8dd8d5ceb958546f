/*
 * ofi_ondemand_init.c - on-demand addressing at MPI_Init: the provider rule
 * (whether a process may leave its peers uninserted), this process's names
 * published, the NICs of a peer's block decided, the netmod's CVAR, pvars
 * and report line. Rules: ofi_ondemand.h.
 */
#include "mpidimpl.h"
#include "ofi_impl.h"
#include "ofi_init.h"
#include "ch4_avrm.h"
#include "ofi_ondemand.h"

/*
=== BEGIN_MPI_T_CVAR_INFO_BLOCK ===

cvars:
    - name        : MPIR_CVAR_AVRM_ON_DEMAND_AV
      category    : CH4_AVRM
      type        : boolean
      default     : true
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        Resolve a peer's network address on first contact (PMI get and one
        libfabric AV insert) instead of inserting every process at
        MPI_Init. Applies where the provider keeps MPI's source matching
        for senders it has not inserted (ofi_rxm, ofi_rxd; shm from
        libfabric 1.19), over every VNI, and over several NICs when
        MPIR_CVAR_CH4_OFI_MAX_NICS asks for them (default builds; every
        process then needs that many; otherwise the first NIC); elsewhere
        addresses are exchanged at MPI_Init as in MPICH, and
        MPIR_CVAR_AVRM_REPORT says why.

    - name        : MPIR_CVAR_AVRM_ON_DEMAND_FORCE
      category    : CH4_AVRM
      type        : boolean
      default     : false
      class       : none
      verbosity   : MPI_T_VERBOSITY_MPIDEV_DETAIL
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        Testing only: resolve peers on first contact even where the
        provider rule of MPIR_CVAR_AVRM_ON_DEMAND_AV refuses it for the
        provider's source matching (a receive posted for one source may
        then take another sender's message: the test that shows it runs
        with this). The other reasons to exchange at MPI_Init still hold.

    - name        : MPIR_CVAR_AVRM_JOB_KEY
      category    : CH4_AVRM
      type        : string
      default     : ""
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_DETAIL
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        The text this job's key is made of in place of the PMI job id (the
        key names the job in the upids the connect and spawn paths
        exchange, and its active messages' sender ids, 24 bits of it).
        Two connected jobs whose keys fold to the same 24 bits are warned
        about when they connect: another text here for one of them cures
        it. Spawned children inherit it from the launcher's environment
        and then share their parent's key: set it on jobs that connect
        through ports (the same text for two of them makes them collide,
        as a test does).

=== END_MPI_T_CVAR_INFO_BLOCK ===
*/

/* Whether a receive posted for one source is safe from the message of a
 * sender this process has not inserted. MPICH 4.0.2 matches a receive's
 * source by address alone (FI_DIRECTED_RECV; the sender's rank travels in
 * completion data, never in the tag, whatever MPIR_CVAR_CH4_OFI_RANK_BITS
 * reserves), so it takes a provider that matches such senders by address:
 * ofi_rxm and ofi_rxd insert a connecting peer before they match, shm does
 * from libfabric 1.19. No libfabric capability says so (FI_DIRECTED_RECV
 * is silent about senders not in the AV): those are known by name. Sets
 * on_reason, or writes the refusal. */
static char refusal_text[320];
static int source_matching_safe(const char *prov)
{
    size_t n = strlen(prov);

    if ((n >= 8 && (!strcmp(prov + n - 8, ";ofi_rxm") || !strcmp(prov + n - 8, ";ofi_rxd"))) ||
        (!strcmp(prov, "shm") && fi_version() >= FI_VERSION(1, 19))) {
        MPIDI_OFI_ondemand.on_reason = "the provider matches senders it has not inserted by address";
        return 1;
    }
    snprintf(refusal_text, sizeof(refusal_text), "provider %s may hand the message of a sender "
             "not in the AV to a receive posted for another source, which MPICH matches by "
             "address alone", prov);
    return 0;
}

/* Why this process cannot address on demand, or NULL when it can. Every
 * process decides alike: from CVARs (MPI_T_SCOPE_ALL_EQ) and the provider
 * (FI_PROVIDER). */
static const char *refusal_reason(void)
{
    const char *prov = MPIDI_OFI_global.prov_use[0]->fabric_attr->prov_name;

    if (!MPIR_CVAR_AVRM_ON_DEMAND_AV)
        return "MPIR_CVAR_AVRM_ON_DEMAND_AV=0";
    if (MPIDI_OFI_global.got_named_av)
        return "the launcher provided a complete named AV";
#ifdef MPIDI_OFI_VNI_AVS
    if (MPIDI_OFI_global.num_vnis > 1 && !MPIDI_OFI_AV_PER_VNI)
        return "several VNIs under the implicit VCI method: every context's AV holds every "
            "VNI's endpoints, computed from root addresses inserted in rank order";
    if (MPIDI_OFI_global.num_vnis > 1 && !MPIDI_OFI_ENABLE_AV_TABLE)
        return "several VNIs without FI_AV_TABLE: a peer's one index in every VNI's AV needs it";
#else
    if (MPIDI_OFI_global.num_vnis > 1)
        return "several VNIs in one libfabric domain: first contact from any of them would "
            "insert into the AV they share, which only every VNI's lock protects";
#endif
    if (source_matching_safe(prov))
        return NULL;
    if (MPIR_CVAR_AVRM_ON_DEMAND_FORCE) {
        MPIDI_OFI_ondemand.on_reason = "forced by MPIR_CVAR_AVRM_ON_DEMAND_FORCE (testing): "
            "source matching is not safe here";
        return NULL;
    }
    return refusal_text;
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
    if (refusal_reason())
        return (size_t) MPIR_Process.size;
    return MPIDI_OFI_ON_DEMAND_AV_HINT;
}

/* MPI_Init, on demand: publish my root address, fence; mine is the first
 * address of every AV (inserted into context 0's now, or log entry 0 that
 * each VNI's AV replays when it first meets a word). */
static int publish_root(void)
{
    int mpi_errno = MPI_SUCCESS;
    char key[32];
    fi_addr_t self;

    MPIDI_OFI_global.addrnamelen = FI_NAME_MAX;
    MPIDI_OFI_CALL(fi_getname((fid_t) MPIDI_OFI_global.ctx[0].ep, MPIDI_OFI_global.addrname,
                              &MPIDI_OFI_global.addrnamelen), getname);
    MPIR_ERR_CHKANDJUMP1(MPIDI_OFI_global.addrnamelen > FI_NAME_MAX, mpi_errno, MPI_ERR_OTHER,
                         "**fail", "**fail %s", "the provider's address is longer than FI_NAME_MAX");
    snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY, (unsigned) MPIR_Process.rank);
    mpi_errno = MPIDI_OFI_ondemand_put_names(key, MPIDI_OFI_global.addrname[0], 1);
    MPIR_ERR_CHECK(mpi_errno);
    mpi_errno = MPIR_pmi_barrier();
    MPIR_ERR_CHECK(mpi_errno);

    /* every world word pending (the world AV is sparse since
     * MPIDI_OFI_addr_settle_world), then mine resolved */
    if (MPIDI_OFI_ondemand.log.on) {
        /* entry 0: my root name now; the others' and its block grown to
         * my NICs (as many as MPIDI_OFI_addr_on_demand_nics chose) in
         * MPIDI_OFI_addr_publish_endpoints */
        uint64_t e;
        MPIDI_OFI_ondemand.log.slots = MPIDI_OFI_global.num_vnis;
        mpi_errno = MPIDI_OFI_ondemand_log_append(1, &e);
        MPIR_ERR_CHECK(mpi_errno);
        memcpy(MPIDI_OFI_ondemand_log_entry(e), MPIDI_OFI_global.addrname, MPIDI_OFI_global.addrnamelen);
        self = MPIDI_OFI_ondemand.log.first[e];
        MPIR_Add_finalize(MPIDI_OFI_ondemand_log_free, NULL, MPIR_FINALIZE_CALLBACK_PRIO - 1);    /* after MPID_Finalize */
    } else {
        MPIDI_OFI_CALL(fi_av_insert(MPIDI_OFI_global.ctx[0].av, MPIDI_OFI_global.addrname, 1,
                                    &self, 0ULL, NULL), avmap);
    }
    mpi_errno = MPIDIU_av_set_addr(0, MPIR_Process.rank, self);
    MPIR_ERR_CHECK(mpi_errno);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Why this process, with several NICs, uses one on demand; NULL when it
 * uses them all (or has one). */
static const char *one_nic_reason(void)
{
    if (MPIDI_OFI_global.num_nics < 2)
        return NULL;
    if (MPIR_CVAR_CH4_OFI_MAX_NICS < 2 && MPIR_CVAR_OFI_USE_MIN_NICS)
        return "MPIR_CVAR_OFI_USE_MIN_NICS (default) at MPICH's count of every NIC found: the "
            "job's fewest is unknown before first contact (MPIR_CVAR_CH4_OFI_MAX_NICS=N, or "
            "MPIR_CVAR_OFI_USE_MIN_NICS=0 where every node has as many, uses them all)";
    if (!MPIDI_OFI_ENABLE_AV_TABLE)
        return "FI_AV_MAP: a peer's block of NICs needs FI_AV_TABLE's consecutive indices";
    if (MPIDI_OFI_ondemand.peers_resolved || MPIDI_OFI_ondemand.log.len > 1)
        return "peers were contacted before the NICs' contexts existed";
    for (int v = 0; v < MPIDI_OFI_MAX_VNIS; v++)
        if (MPIDI_OFI_ondemand.log.replayed[v])
            return "addresses were used before the NICs' contexts existed";
    return NULL;
}

/* Post-init, on demand, before the other contexts exist: the NICs of a
 * peer's block (ofi_ondemand.h). */
int MPIDI_OFI_addr_on_demand_nics(void)
{
    const char *why = one_nic_reason();

    MPIDI_OFI_ondemand.block_nics = why ? 1 : MPIDI_OFI_global.num_nics;
    MPIDI_OFI_ondemand.nics = MPIDI_OFI_ondemand.block_nics;
    MPIDI_OFI_ondemand.one_nic_reason = why;
    return MPIDI_OFI_ondemand.block_nics;
}

/* Whether post-init publishes this process's counts of endpoints (and
 * peers of one endpoint read theirs at first contact): when the CVARs ask
 * for several NICs, or several VNIs go through the log. A process whose
 * CVARs differ (an MPMD job) publishes none, and its peers' first contact
 * then fails naming the missing key. */
static int counts_published(void)
{
    int nics_asked = MPIR_CVAR_CH4_OFI_MAX_NICS > 1 ||
        (MPIR_CVAR_CH4_OFI_MAX_NICS < 1 && !MPIR_CVAR_OFI_USE_MIN_NICS);
    return nics_asked || (MPIDI_OFI_ondemand.log.on && MPIDI_OFI_global.num_vnis > 1);
}

/* Post-init, on demand (the contexts of several VNIs or NICs exist now):
 * publish my counts of endpoints (counts_published) and the names of my
 * other endpoints (slot s = VNI s / NICs, NIC s % NICs; as few PMI values
 * as hold them), then fence. Every process on demand fences here, whatever
 * its CVARs, its NICs or its VNIs, so the fences of an MPMD job whose
 * executables set them apart still pair up. With the log they complete my
 * entry (0), grown to a block of my NICs; else my own block goes into every
 * NIC's AV (my word, 0, is its first index). One more PMI fence in
 * MPI_Init, nothing per peer. */
int MPIDI_OFI_addr_publish_endpoints(void)
{
    int mpi_errno = MPI_SUCCESS;
    size_t len = MPIDI_OFI_global.addrnamelen;
    int per = MPIDI_OFI_ondemand_names_per_value();
    int vnis = MPIDI_OFI_ondemand.log.on ? MPIDI_OFI_global.num_vnis : 1;
    int total = vnis * MPIDI_OFI_ondemand.block_nics;
    char block[MPIDI_OFI_MAX_NICS * FI_NAME_MAX];
    char *mine = block;
    char key[48], count[24];

    if (!counts_published())
        goto fence;
    snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_COUNT, (unsigned) MPIR_Process.rank);
    snprintf(count, sizeof(count), MPIDI_OFI_BC_VAL_COUNT, vnis, MPIDI_OFI_ondemand.block_nics);
    mpi_errno = MPIR_pmi_kvs_put(key, count);
    MPIR_ERR_CHECK(mpi_errno);
    if (total < 2)
        goto fence;
    if (MPIDI_OFI_ondemand.log.on) {
        /* entry 0 takes a slot per VNI x NIC; with several NICs it is the
         * only entry (one_nic_reason) and its block grows to them */
        mpi_errno = MPIDI_OFI_ondemand_log_reserve(MPIDI_OFI_ondemand.log.cap, total);
        MPIR_ERR_CHECK(mpi_errno);
        if (MPIDI_OFI_ondemand.block_nics > 1) {
            MPIR_Assert(MPIDI_OFI_ondemand.log.len == 1);
            MPIDI_OFI_ondemand.log.next = MPIDI_OFI_ondemand.block_nics;
        }
        mine = MPIDI_OFI_ondemand_log_entry(0);
    }
    memcpy(mine, MPIDI_OFI_global.addrname, len);
    for (int first = 1, c = 1; first < total; first += per, c++) {
        int n = MPL_MIN(per, total - first);
        for (int k = first; k < first + n; k++) {
            int ctx_idx = MPIDI_OFI_get_ctx_index(NULL, k / MPIDI_OFI_ondemand.block_nics, k % MPIDI_OFI_ondemand.block_nics);
            size_t got = len;
            MPIDI_OFI_CALL(fi_getname((fid_t) MPIDI_OFI_global.ctx[ctx_idx].ep, mine + k * len,
                                      &got), getname);
            MPIR_ERR_CHKANDJUMP1(got != len, mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                                 "the endpoint names of one provider differ in length");
        }
        snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_OTHERS, (unsigned) MPIR_Process.rank, vnis,
                 MPIDI_OFI_ondemand.block_nics, c);
        mpi_errno = MPIDI_OFI_ondemand_put_names(key, mine + first * len, n);
        MPIR_ERR_CHECK(mpi_errno);
    }
  fence:
    mpi_errno = MPIR_pmi_barrier();
    MPIR_ERR_CHECK(mpi_errno);
    MPIDI_OFI_ondemand.count_keys_fenced = counts_published();
    if (total < 2)
        goto fn_exit;
    if (!MPIDI_OFI_ondemand.log.on) {
        /* NIC 0's AV holds my root at 0 (on_demand_init): the rest after
         * it; every other NIC's AV the whole block at 0 */
        fi_addr_t at = 1;
        int took = MPIDI_OFI_ondemand_lock();
        mpi_errno = MPIDI_OFI_ondemand_insert_block(0, 0, mine + len, total - 1, &at, "this process's own NICs",
                                 -1);
        for (int nic = 1; nic < total && !mpi_errno; nic++) {
            at = 0;
            mpi_errno = MPIDI_OFI_ondemand_insert_block(0, nic, mine, total, &at, "this process's own NICs", -1);
        }
        MPIDI_OFI_ondemand_unlock(took);
        MPIR_ERR_CHECK(mpi_errno);
    }
    if (MPIDI_OFI_ondemand.block_nics > 1) {
        /* NIC k of word w at w + k, in every AV (MPIDI_OFI_endpoint_addr) */
        MPIDI_OFI_global.endpoints.world = UINT32_MAX;
        MPIDI_OFI_global.endpoints.per_peer = MPIDI_OFI_ondemand.block_nics;
        MPIDI_OFI_global.endpoints.vnis = 1;
        MPIDI_OFI_global.endpoints.base = 0;
        MPIDI_OFI_global.endpoints.stride = 1;
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

static int world_only(const avrm_rankmap_t * m)
{
    return !avrm_map_is_multi(m) && m->pgid == 0;
}

int MPIDI_OFI_comm_nics_spread_ok(MPIR_Comm * comm)
{
    return MPIDI_OFI_ondemand.block_nics < 2 || (world_only(&MPIDI_COMM(comm, map)) &&
                              world_only(MPIDIU_comm_local_map(comm)));
}

/* The netmod's pvars: peers resolved, the NICs of a peer's block, seconds
 * spent resolving. */
static void get_resolved(void *addr, void *obj, int count, void *buf)
{
    *(unsigned long long *) buf = MPIDI_OFI_ondemand.peers_resolved;
}

static void get_nics(void *addr, void *obj, int count, void *buf)
{
    *(unsigned long long *) buf = (unsigned long long) MPIDI_OFI_ondemand.nics;
}

static void get_resolve_time(void *addr, void *obj, int count, void *buf)
{
    *(double *) buf = MPIDI_OFI_ondemand.resolve_seconds;
}

static void register_pvars(void)
{
    static int dummy;

    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_COUNTER, MPI_UNSIGNED_LONG_LONG,
                              "avrm_peers_resolved", &dummy, 1, MPI_T_ENUM_NULL,
                              MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_NO_OBJECT,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              get_resolved, NULL, "CH4_AVRM",
                              "World peers whose address this process resolved on first contact "
                              "(on-demand addressing; 0 when addresses are exchanged at MPI_Init)");
    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED_LONG_LONG,
                              "avrm_on_demand_nics", &dummy, 1, MPI_T_ENUM_NULL,
                              MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_NO_OBJECT,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              get_nics, NULL, "CH4_AVRM",
                              "NICs of a peer that first contact resolves (on-demand addressing: "
                              "1 its first NIC, N all N; 0 when addresses are exchanged at "
                              "MPI_Init; MPIR_CVAR_AVRM_REPORT says why one of several)");
    MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_TIMER, MPI_DOUBLE, "avrm_resolve_time", &dummy, 1,
                              MPI_T_ENUM_NULL, MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_NO_OBJECT,
                              MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                              get_resolve_time, NULL, "CH4_AVRM",
                              "Seconds this process spent resolving peers on first contact "
                              "(PMI get and libfabric AV insert)");
}

/* The netmod's part of the address layer's report line
 * (MPIR_CVAR_AVRM_REPORT, printed by CH4 at MPI_Finalize). */
static void report(void)
{
    if (MPIDI_OFI_ondemand.on) {
        printf("; addresses on demand (%s): %llu peers resolved in %.6f s",
               MPIDI_OFI_ondemand.on_reason,
               (unsigned long long) MPIDI_OFI_ondemand.peers_resolved,
               MPIDI_OFI_ondemand.resolve_seconds);
        if (MPIDI_OFI_ondemand.nics > 1)
            printf(", %d NICs each", MPIDI_OFI_ondemand.nics);
        else if (MPIDI_OFI_ondemand.one_nic_reason)
            printf(" (first NIC only: %s)", MPIDI_OFI_ondemand.one_nic_reason);
    } else
        printf("; addresses exchanged at MPI_Init (%s)", MPIDI_OFI_ondemand.eager_reason);
}

/* MPI_Init, once context 0 exists (its AV is open: a named AV is known):
 * the world AV's kind, before anything builds a map over it. With MPI
 * sessions a group of the world (MPI_Group_from_session_pset) may be built
 * before comm_world and its address step (MPIDI_OFI_addr_init), and its map
 * caches the world AV's entry array, which must not move after
 * (MPIDIU_avt_world_settle has the rule). */
int MPIDI_OFI_addr_settle_world(void)
{
    return MPIDIU_avt_world_settle(refusal_reason() == NULL);
}

/* MPI_Init's address step: on demand when allowed, else stock's exchange. */
int MPIDI_OFI_addr_init(void)
{
    const char *refusal = refusal_reason();

    register_pvars();
    MPIDI_avrm.netmod_report = report;
    MPIDI_OFI_ondemand.eager_reason = refusal;
    MPIDI_OFI_ondemand.on = refusal == NULL;
#ifdef MPIDI_OFI_VNI_AVS
    /* the log needs one index sequence in every AV: FI_AV_TABLE */
    MPIDI_OFI_ondemand.log.on = MPIDI_OFI_ondemand.on && MPIDI_OFI_ENABLE_AV_TABLE;
    for (int v = 0; v < MPIDI_OFI_MAX_VNIS; v++)
        MPIDI_OFI_global.av_known[v] = MPIDI_OFI_ondemand.log.on ? 0 : AVRM_AVE_MAX_ADDR + 1;
#endif
    if (MPIDI_OFI_ondemand.on)
        return publish_root();
    if (MPIDI_OFI_global.got_named_av)
        return MPI_SUCCESS;
    return MPIDI_OFI_addr_exchange_root_ctx();
}
