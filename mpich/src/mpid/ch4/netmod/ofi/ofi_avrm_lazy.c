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
 * for another source; a launcher-provided named AV is already complete;
 * several VNIs under the "implicit" VCI method (every context's AV holds
 * every endpoint) or without FI_AV_TABLE. The decision rests on inputs every
 * process shares (CVARs, FI_PROVIDER). The computed AV
 * (MPIR_CVAR_AVRM_COMPUTED_AV) needs eager inserts in rank order: with both
 * asked for, on-demand wins (it saves libfabric's per-peer state, ~130 B
 * over sockets and ~1.35 KB over tcp;ofi_rxm, against the computed AV's
 * 8 B) and the report says so.
 *
 * Several NICs (MPICH's count: every NIC found, or
 * MPIR_CVAR_CH4_OFI_MAX_NICS): each NIC's context has an AV of its own, and
 * first contact inserts the peer's NICs' endpoints as one block into every
 * one of them, in the same order, so the peer's word w is the block's
 * first index everywhere and its NIC k is w + k (MPIDI_OFI_endpoint_addr):
 * no side table. MPI_Init's post-init publishes this process's other
 * endpoints' names and its count of endpoints (one more PMI fence) and
 * inserts its own block (with a domain per VNI: logs it; the VNIs' AVs
 * replay it). Every peer must have as many NICs: no collective tells a
 * process its peers' counts (stock's allreduce at post-init would contact
 * log P peers), so a peer that published another count is an error at
 * either end's first contact naming the peer and the CVARs, where stock
 * stops MPI_Init with
 * **ofi_num_nics. At MPICH's defaults (every NIC found, and
 * MPIR_CVAR_OFI_USE_MIN_NICS: the job's fewest, which no process knows
 * before first contact) a process uses its first NIC on demand: its
 * nearest (ofi_nic.c orders them so, rotated by local rank), which stock's
 * messages take too except those it stripes over every NIC
 * (MPIR_CVAR_CH4_OFI_ENABLE_MULTI_NIC_STRIPING, on by default, from 1 MiB)
 * or hashes (off by default): one process's large messages get one NIC's
 * bandwidth where stock's get them all. MPIR_CVAR_CH4_OFI_MAX_NICS=N, or
 * MPIR_CVAR_OFI_USE_MIN_NICS=0 (stock then stops on unequal counts), uses
 * them all.
 * A dynamic peer has its root endpoint alone (a block of one), so a
 * communicator with one never spreads its messages over NICs
 * (MPIDI_OFI_comm_nics_spread_ok).
 *
 * A domain per VNI (per-VCI builds: MPIDI_OFI_VNI_AVS, ofi_types.h): each
 * context (VNI, NIC) has an AV of its own, used only under that VCI's lock
 * (FI_THREAD_DOMAIN), and a peer's word is one index valid in every one of
 * them. First contact therefore inserts nothing: it appends the peer's
 * endpoint names (one per VNI x NIC, from PMI) to a process-wide log whose
 * entries hold the blocks' first indices (their words), and each VNI's
 * AVs replay the log up to the words they meet, in log order, under that
 * VNI's lock, each entry as one block of the NICs' names of that VNI
 * (MPIDI_OFI_av_catch_up, reached from MPIDI_OFI_av_vni_addr when a word is
 * not below MPIDI_OFI_global.av_known[vni]). So every AV gets the same
 * blocks in the same order, a VNI's AVs hold only the peers that VNI (or a
 * word below theirs) needed, and no VNI ever touches another's domain.
 * Dynamic peers (spawn, connect/accept) are log entries too, a block of
 * their root name in every VNI's slot, so they keep the one index
 * sequence. Log entry 0 is this process. Memory: VNIs x NICs x the
 * provider's name length + 8 B per logged peer (tcp over IPv4: a 16-byte
 * sockaddr_in each), O(peers touched); freed at MPI_Finalize.
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi beside ofi_init.c (patch ch4-avrm-glue-compiled lists it in MPICH's generated
 * Makefile.in). Its interface: MPIDI_OFI_addr_init and
 * MPIDI_OFI_av_count_hint for ofi_init.c (ofi_init.h); MPIDI_OFI_av_resolve
 * and MPIDI_OFI_av_catch_up for the inline address lookups, and
 * MPIDI_OFI_av_name / MPIDI_OFI_av_insert_dynamic for the spawn paths
 * (ofi_impl.h).
 *
 * Thread safety: MPIDI_OFI_av_resolve and MPIDI_OFI_av_catch_up hold
 * MPIDIU_THREAD_UTIL_MUTEX across the re-check of the word, the PMI get and
 * the insert or the log append, so two threads that touch the same new peer
 * resolve it once and PMI calls of resolutions are serialized (callers may
 * hold a VCI lock: VCI -> UTIL is MPICH's order). MPIDI_OFI_av_catch_up
 * also holds VNI v's VCI lock while it inserts into v's AV: the caller's,
 * or taken there when the caller does not hold it (the spawn paths).
 * Readers of the word are lock-free; the resolved word is stored with
 * release order after the insert or the append. av_known[v] is written
 * under VCI v's lock; read without it too (ofi_rma.h's RMA paths look an
 * address up before they take the lock): it only grows, and a stale value
 * sends the caller to MPIDI_OFI_av_catch_up, which rechecks under it.
 * Costs: init one PMI put + one PMI fence, and with several VNIs or NICs
 * one more put per value's worth of their names + one more fence; O(P)
 * word writes (the world AV's entries exist either way); each first
 * contact one PMI get (and one per value's worth of its other endpoints'
 * names with several VNIs or NICs; each one round trip to the local PMI
 * server under hydra PMI-1, Slurm pmi2 and PMIx with a collecting fence) and one fi_av_insert per AV that meets the peer (NICs
 * x VNIs that use it); later contacts nothing. The log's word -> entry
 * lookup (the spawn paths' names) is a binary search.
 * The hot path's cost: one sign test of the word; with a domain per VNI one
 * unsigned compare with av_known[vni] instead (it also catches a pending
 * word).
 */
#include "mpidimpl.h"
#include "ofi_impl.h"
#include "ofi_init.h"
#include "ch4_avrm.h"

/* PMI keys: a process's root endpoint name; the names of its other
 * endpoints (slots 1..total-1 of VNIs x NICs) in as many values as they
 * need (chunk c >= 1); its count of endpoints, "VNIsxNICs". The names' keys
 * name both counts, so a peer that has other counts is a missing key at
 * first contact, never names read with the wrong VNI or NIC; a process of
 * one endpoint, which reads no such key, reads the count key instead
 * (get_other_names). Each is put only when post-init fences
 * (others_fence). */
#define MPIDI_OFI_BC_KEY "avrm-bc-%u"
#define MPIDI_OFI_BC_KEY_OTHERS "avrm-bc-%u-%dx%d-%d"
#define MPIDI_OFI_BC_KEY_COUNT "avrm-bc-%u-n"
#define MPIDI_OFI_BC_VAL_COUNT "%dx%d"     /* VNIs, NICs */
/* a PMI value of hex names: at most every VNI's or every NIC's name (more
 * take more values: names_per_value) */
#define MPIDI_OFI_BC_VAL_MAX (2 * FI_NAME_MAX * MPL_MAX(MPIDI_OFI_MAX_VNIS, MPIDI_OFI_MAX_NICS) + 1)

/* The first-contact log (a domain per VNI, on demand; see the top): entry
 * e holds the peer's endpoint names, VNI-major, slots VNIs x block_nics:
 * its name for VNI v at NIC k at slot v * block_nics + k (a dynamic peer:
 * its root name at slot v * block_nics of every VNI, a block of one), and
 * first[e], the AV index of the peer's block in every AV: its word.
 * Blocks follow each other, so first[] ascends and av_log.next is the
 * index the next block takes. on: resolutions append here and the VNIs'
 * AVs replay it; off: a resolution inserts into the NICs' AVs of VNI 0.
 * Under MPIDIU_THREAD_UTIL_MUTEX once MPI_Init is past. */
static struct {
    int on;
    int slots;                  /* names per entry: VNIs x block_nics */
    uint64_t len, cap;          /* entries */
    uint64_t next;              /* AV index of the next block */
    uint64_t dynamic;           /* of them dynamic peers' (a block of their root) */
    char *names;
    uint64_t *first;
    uint64_t replayed[MPIDI_OFI_MAX_VNIS];      /* entries VNI v's AVs hold (VCI v's lock) */
} av_log;

/* The NICs of a peer's block (several NICs, see the top): set by
 * MPIDI_OFI_addr_on_demand_nics at post-init; 1 (root endpoints only)
 * before and otherwise. Read without a lock after MPI_Init. */
static int block_nics = 1;

/* Every process's count key is in PMI (post-init's fence passed; see
 * others_fence). Read without a lock after MPI_Init. */
static int count_keys_fenced;

/* Why this process cannot address on demand, or NULL when it can. */
static const char *on_demand_refusal(void)
{
    const char *prov = MPIDI_OFI_global.prov_use[0]->fabric_attr->prov_name;
    size_t n = strlen(prov);

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

/* Other endpoints' names per PMI value after the root key's: as many as one
 * value (and put_names' buffer) holds */
static int names_per_value(void)
{
    int val_max = MPL_MIN(MPIR_pmi_max_val_size(), MPIDI_OFI_BC_VAL_MAX);
    int per = (val_max - 1) / (int) (2 * MPIDI_OFI_global.addrnamelen);
    return per < 1 ? 1 : per;
}

/* Publish n endpoint names of MPIDI_OFI_global.addrnamelen bytes each under
 * key: one PMI value, hex (MPI_Init's root name, and the other endpoints'
 * names in as few values as names_per_value allows). */
static int put_names(const char *key, const char *names, int n)
{
    int mpi_errno = MPI_SUCCESS;
    char val[MPIDI_OFI_BC_VAL_MAX];
    size_t len = MPIDI_OFI_global.addrnamelen;

    MPIR_ERR_CHKANDJUMP1(2 * len * n >= (size_t) MPIR_pmi_max_val_size(), mpi_errno,
                         MPI_ERR_OTHER, "**fail", "**fail %s",
                         "the provider's addresses do not fit one PMI value");
    for (int i = 0; i < n; i++)
        hex_encode((const unsigned char *) names + i * len, len, val + 2 * len * i);
    mpi_errno = MPIR_pmi_kvs_put(key, val);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Entry e of the log (e < cap): its slots' names. */
static char *log_entry(uint64_t e)
{
    return av_log.names + e * av_log.slots * MPIDI_OFI_global.addrnamelen;
}

/* AV indices in entry e's block */
static uint64_t log_block_size(uint64_t e)
{
    return (e + 1 < av_log.len ? av_log.first[e + 1] : av_log.next) - av_log.first[e];
}

/* Room for cap entries of slots names each (av_log.slots set once they fit). */
static int log_reserve(uint64_t cap, int slots)
{
    int mpi_errno = MPI_SUCCESS;
    size_t bytes = cap * slots * MPIDI_OFI_global.addrnamelen;
    char *names = MPL_realloc(av_log.names, bytes, MPL_MEM_ADDRESS);
    uint64_t *first = names ? MPL_realloc(av_log.first, cap * sizeof(uint64_t),
                                          MPL_MEM_ADDRESS) : NULL;

    if (names)
        av_log.names = names;
    if (first)
        av_log.first = first;
    MPIR_ERR_CHKANDJUMP2(!names || !first, mpi_errno, MPI_ERR_NO_MEM, "**nomem2",
                         "**nomem2 %d %s", (int) bytes, "the endpoint names of the peers "
                         "contacted (on-demand addressing over several VNIs)");
    av_log.cap = cap;
    av_log.slots = slots;
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* One more log entry, of a block of n AV indices: its index in *e, its
 * word in av_log.first[*e]; its names zeroed. Undone by log_drop. */
static int log_append(int n, uint64_t * e)
{
    int mpi_errno = MPI_SUCCESS;

    if (av_log.len == av_log.cap) {
        mpi_errno = log_reserve(av_log.cap ? 2 * av_log.cap : 16, av_log.slots);
        MPIR_ERR_CHECK(mpi_errno);
    }
    MPIR_ERR_CHKANDJUMP1(av_log.next + n - 1 > AVRM_AVE_MAX_ADDR, mpi_errno, MPI_ERR_OTHER,
                         "**fail", "**fail %s", "more peers contacted than an address word "
                         "can index");
    *e = av_log.len++;
    av_log.first[*e] = av_log.next;
    av_log.next += n;
    memset(log_entry(*e), 0, av_log.slots * MPIDI_OFI_global.addrnamelen);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* The last entry removed (its resolution failed). */
static void log_drop(void)
{
    av_log.next = av_log.first[--av_log.len];
}

/* The entry whose block starts at word w, or -1 (binary search: first[]
 * ascends). */
static int64_t log_entry_at(uint64_t w)
{
    uint64_t lo = 0, hi = av_log.len;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (av_log.first[mid] < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < av_log.len && av_log.first[lo] == w ? (int64_t) lo : -1;
}

/* The first of entries 0..n-1 whose root name (VNI 0, NIC 0) is name, or
 * -1. An AV answers the insert of an address it holds with the index it
 * has (the util AV's dedup), so a name logged twice would break the one
 * index sequence: a dynamic peer connected to again (MPI_Comm_disconnect,
 * then a new connect) takes its old entry. Linear: asked by the spawn
 * paths, and by a world resolution only once a dynamic peer was logged. */
static int64_t log_find(const void *name, uint64_t n)
{
    size_t len = MPIDI_OFI_global.addrnamelen;
    for (uint64_t e = 0; e < n; e++)
        if (!memcmp(log_entry(e), name, len))
            return (int64_t) e;
    return -1;
}

static int log_free(void *unused)
{
    MPL_free(av_log.names);
    MPL_free(av_log.first);
    memset(&av_log, 0, sizeof(av_log));
    return MPI_SUCCESS;
}

/* MPI_Init, on demand: publish my root address, fence; mine is the first
 * address of every AV (inserted into context 0's now, or log entry 0 that
 * each VNI's AV replays when it first meets a word). */
static int on_demand_init(void)
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
    mpi_errno = put_names(key, MPIDI_OFI_global.addrname[0], 1);
    MPIR_ERR_CHECK(mpi_errno);
    mpi_errno = MPIR_pmi_barrier();
    MPIR_ERR_CHECK(mpi_errno);

    /* every world word pending (the stored AV is required: computed has no
     * words), then mine resolved */
    mpi_errno = MPIDIU_avt_world_pending("on-demand addressing keeps a pending word per peer");
    MPIR_ERR_CHECK(mpi_errno);
    if (av_log.on) {
        /* entry 0: my root name now; the others' and its block grown to
         * my NICs (as many as MPIDI_OFI_addr_on_demand_nics chose) in
         * MPIDI_OFI_addr_publish_endpoints */
        uint64_t e;
        av_log.slots = MPIDI_OFI_global.num_vnis;
        mpi_errno = log_append(1, &e);
        MPIR_ERR_CHECK(mpi_errno);
        memcpy(log_entry(e), MPIDI_OFI_global.addrname, MPIDI_OFI_global.addrnamelen);
        self = av_log.first[e];
        MPIR_Add_finalize(log_free, NULL, MPIR_FINALIZE_CALLBACK_PRIO - 1);    /* after MPID_Finalize */
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
    if (MPIDI_avrm.peers_resolved || av_log.len > 1)
        return "peers were contacted before the NICs' contexts existed";
    for (int v = 0; v < MPIDI_OFI_MAX_VNIS; v++)
        if (av_log.replayed[v])
            return "addresses were used before the NICs' contexts existed";
    return NULL;
}

/* Post-init, on demand, before the other contexts exist: the NICs of a
 * peer's block (see the top). */
int MPIDI_OFI_addr_on_demand_nics(void)
{
    const char *why = one_nic_reason();

    block_nics = why ? 1 : MPIDI_OFI_global.num_nics;
    MPIDI_avrm.on_demand_nics = block_nics;
    MPIDI_avrm.one_nic_reason = why;
    return block_nics;
}

/* Insert n names into the AV of context (vni, nic) as one block: at
 * *first, or where the AV puts it when *first is FI_ADDR_NOTAVAIL (then
 * *first is set). FI_AV_TABLE gives consecutive indices; anything else (a
 * name the AV already holds answers with its old index) is an error
 * naming whose block it is: `whose`, then `rank` when it is >= 0 (formatted
 * on failure only: first contact pays no snprintf). */
static int insert_block(int vni, int nic, const char *names, int n, fi_addr_t * first,
                        const char *whose, int64_t rank)
{
    int mpi_errno = MPI_SUCCESS;
    struct fid_av *av = MPIDI_OFI_global.ctx[MPIDI_OFI_get_ctx_index(NULL, vni, nic)].av;
    fi_addr_t got[MPIDI_OFI_MAX_NICS] = { FI_ADDR_NOTAVAIL };     /* read on failure too */
    char why[320];

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

/* Set once a block went into some NICs' AVs and failed in another's: the
 * NICs' index sequences differ from then on, so every later insert fails
 * naming it (never a word that means one peer in one AV and another in
 * the next). Under MPIDIU_THREAD_UTIL_MUTEX. */
static char nics_apart[200];

/* A peer's block of n names into the AV of every NIC of VNI vni at one
 * index (*first as for insert_block: FI_ADDR_NOTAVAIL takes NIC 0's
 * choice for all). */
static int insert_in_every_nic(int vni, const char *names, int n, fi_addr_t * first,
                               const char *whose, int64_t rank)
{
    int mpi_errno = MPI_SUCCESS;

    MPIR_ERR_CHKANDJUMP1(nics_apart[0], mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                         nics_apart);
    for (int nic = 0; nic < block_nics && !mpi_errno; nic++) {
        mpi_errno = insert_block(vni, nic, names, n, first, whose, rank);
        if (mpi_errno && nic > 0)
            snprintf(nics_apart, sizeof(nics_apart), "on demand, VNI %d's NICs' AVs no longer "
                     "hold the same blocks: an insert failed in NIC %d's after NIC 0's took "
                     "it (the first error of this kind names whose block)", vni, nic);
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Whether post-init publishes other endpoints' names and fences: decided
 * by what every process shares (CVARs), never by this process's own count
 * of NICs, so that a process with fewer NICs than asked for joins the
 * fence too (publishing none: its peers' first contact then fails naming
 * it) instead of leaving the others in the fence for ever. */
static int others_fence(void)
{
    int nics_asked = MPIR_CVAR_CH4_OFI_MAX_NICS > 1 ||
        (MPIR_CVAR_CH4_OFI_MAX_NICS < 1 && !MPIR_CVAR_OFI_USE_MIN_NICS);
    return nics_asked || (av_log.on && MPIDI_OFI_global.num_vnis > 1);
}

/* Post-init, on demand over several VNIs or NICs (their contexts exist
 * now): publish the names of my other endpoints (slot s = VNI s / NICs,
 * NIC s % NICs; as few PMI values as hold them), fence (others_fence).
 * With the log they complete my entry (0), grown to a block of my NICs;
 * else my own block goes into every NIC's AV (my word, 0, is its first
 * index). One more PMI fence in MPI_Init, nothing per peer. */
int MPIDI_OFI_addr_publish_endpoints(void)
{
    int mpi_errno = MPI_SUCCESS;
    size_t len = MPIDI_OFI_global.addrnamelen;
    int per = names_per_value();
    int vnis = av_log.on ? MPIDI_OFI_global.num_vnis : 1;
    int total = vnis * block_nics;
    char block[MPIDI_OFI_MAX_NICS * FI_NAME_MAX];
    char *mine = block;
    char key[48], count[24];

    if (!others_fence())
        goto fn_exit;
    snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_COUNT, (unsigned) MPIR_Process.rank);
    snprintf(count, sizeof(count), MPIDI_OFI_BC_VAL_COUNT, vnis, block_nics);
    mpi_errno = MPIR_pmi_kvs_put(key, count);
    MPIR_ERR_CHECK(mpi_errno);
    if (total < 2)
        goto fence;
    if (av_log.on) {
        /* entry 0 takes a slot per VNI x NIC; with several NICs it is the
         * only entry (one_nic_reason) and its block grows to them */
        mpi_errno = log_reserve(av_log.cap, total);
        MPIR_ERR_CHECK(mpi_errno);
        if (block_nics > 1) {
            MPIR_Assert(av_log.len == 1);
            av_log.next = block_nics;
        }
        mine = log_entry(0);
    }
    memcpy(mine, MPIDI_OFI_global.addrname, len);
    for (int first = 1, c = 1; first < total; first += per, c++) {
        int n = MPL_MIN(per, total - first);
        for (int k = first; k < first + n; k++) {
            int ctx_idx = MPIDI_OFI_get_ctx_index(NULL, k / block_nics, k % block_nics);
            size_t got = len;
            MPIDI_OFI_CALL(fi_getname((fid_t) MPIDI_OFI_global.ctx[ctx_idx].ep, mine + k * len,
                                      &got), getname);
            MPIR_ERR_CHKANDJUMP1(got != len, mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                                 "the endpoint names of one provider differ in length");
        }
        snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_OTHERS, (unsigned) MPIR_Process.rank, vnis,
                 block_nics, c);
        mpi_errno = put_names(key, mine + first * len, n);
        MPIR_ERR_CHECK(mpi_errno);
    }
  fence:
    mpi_errno = MPIR_pmi_barrier();
    MPIR_ERR_CHECK(mpi_errno);
    count_keys_fenced = 1;
    if (total < 2)
        goto fn_exit;
    if (!av_log.on) {
        /* NIC 0's AV holds my root at 0 (on_demand_init): the rest after
         * it; every other NIC's AV the whole block at 0 */
        fi_addr_t at = 1;
        mpi_errno = insert_block(0, 0, mine + len, total - 1, &at, "this process's own NICs",
                                 -1);
        MPIR_ERR_CHECK(mpi_errno);
        for (int nic = 1; nic < total; nic++) {
            at = 0;
            mpi_errno = insert_block(0, nic, mine, total, &at, "this process's own NICs", -1);
            MPIR_ERR_CHECK(mpi_errno);
        }
    }
    if (block_nics > 1) {
        /* NIC k of word w at w + k, in every AV (MPIDI_OFI_endpoint_addr) */
        MPIDI_OFI_global.endpoints.world = UINT32_MAX;
        MPIDI_OFI_global.endpoints.per_peer = block_nics;
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
    return block_nics < 2 || (world_only(&MPIDI_COMM(comm, map)) &&
                              world_only(MPIDIU_comm_local_map(comm)));
}

/* PMI get of key (rank lpid's) and decode of n names of len bytes into
 * out. Errors name the peer, the key and the cause. */
static int get_names(uint32_t lpid, const char *key, unsigned char *out, int n)
{
    int mpi_errno = MPI_SUCCESS;
    char val[MPIDI_OFI_BC_VAL_MAX], why[200];
    size_t len = MPIDI_OFI_global.addrnamelen;

    val[0] = '\0';
    mpi_errno = MPIR_pmi_kvs_get((int) lpid, key, val, (int) MPL_MIN(sizeof(val),
                                                                     (size_t)
                                                                     MPIR_pmi_max_val_size()));
    if (mpi_errno) {
        snprintf(why, sizeof(why), "the address of rank %u: PMI get of key %s failed "
                 "(the peer may have finalized, or never published it)", lpid, key);
        mpi_errno = MPIR_Err_create_code(mpi_errno, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                         MPI_ERR_OTHER, "**fail", "**fail %s", why);
        goto fn_fail;
    }
    if (hex_decode(val, out, n * len)) {
        snprintf(why, sizeof(why), "the address of rank %u: PMI key %s holds %zu characters, "
                 "not the %zu hex digits of %d of this provider's addresses", lpid, key,
                 strlen(val), 2 * n * len, n);
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Names 1..total-1 of rank lpid's endpoints (its other VNIs' or NICs')
 * into names + k * addrnamelen, from the values
 * MPIDI_OFI_addr_publish_endpoints put. A process of one endpoint reads
 * none: once every count key is in (count_keys_fenced) it reads the peer's
 * instead, so a mismatch is an error at either end's first contact. */
static int get_other_names(uint32_t lpid, unsigned char *names, int total)
{
    int mpi_errno = MPI_SUCCESS;
    int per = names_per_value(), vnis = total / block_nics;
    char key[48], why[400], count[24] = "", mine[24];

    if (total < 2 && count_keys_fenced) {
        snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_COUNT, lpid);
        snprintf(mine, sizeof(mine), MPIDI_OFI_BC_VAL_COUNT, vnis, block_nics);
        mpi_errno = MPIR_pmi_kvs_get((int) lpid, key, count, (int) sizeof(count));
        if (!mpi_errno && strcmp(count, mine) != 0)
            mpi_errno = MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, __func__,
                                             __LINE__, MPI_ERR_OTHER, "**fail", "**fail %s",
                                             "its PMI key of counts names more endpoints");
    }
    for (int first = 1, c = 1; !mpi_errno && first < total; first += per, c++) {
        snprintf(key, sizeof(key), MPIDI_OFI_BC_KEY_OTHERS, lpid, vnis, block_nics, c);
        mpi_errno = get_names(lpid, key, names + first * MPIDI_OFI_global.addrnamelen,
                              MPL_MIN(per, total - first));
    }
    if (mpi_errno) {
        /* a key missing for other counts, or a PMI failure: the cause
         * follows in the error stack */
        snprintf(why, sizeof(why), "on demand, rank %u has another count of endpoints%s%s%s "
                 "than this process (rank %d: %d VNIs x %d NICs), or its names could not be "
                 "read: give every process as many (MPIR_CVAR_CH4_NUM_VCIS, "
                 "MPIR_CVAR_CH4_OFI_MAX_NICS), or MPIR_CVAR_AVRM_ON_DEMAND_AV=0", lpid,
                 count[0] ? " (VNIs x NICs: " : "", count, count[0] ? ")" : "",
                 MPIR_Process.rank, vnis, block_nics);
        mpi_errno = MPIR_Err_create_code(mpi_errno, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                         MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    return mpi_errno;
}

/* Resolve world peer lpid: its names from PMI, then its block (its root,
 * or its NICs' endpoints) into every NIC's AV, or one log entry
 * (av_log.on); the word stored. Holds MPIDIU_THREAD_UTIL_MUTEX. Errors
 * name the peer and the call that failed. */
static int resolve_locked(uint32_t lpid, fi_addr_t * out)
{
    int mpi_errno = MPI_SUCCESS;
    char key[48], why[320];
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
    if (av_log.on) {
        /* appended, filled, dropped on a failure: no other thread sees it
         * meanwhile (UTIL held) */
        uint64_t e;
        mpi_errno = log_append(block_nics, &e);
        MPIR_ERR_CHECK(mpi_errno);
        unsigned char *names = (unsigned char *) log_entry(e);
        mpi_errno = get_names(lpid, key, names, 1);
        if (!mpi_errno)
            mpi_errno = get_other_names(lpid, names, av_log.slots);
        if (!mpi_errno && av_log.dynamic && log_find(names, e) >= 0) {
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
            log_drop();
            goto fn_fail;
        }
        addr = av_log.first[e];
    } else {
        unsigned char names[MPIDI_OFI_MAX_NICS * FI_NAME_MAX];
        mpi_errno = get_names(lpid, key, names, 1);
        if (!mpi_errno)
            mpi_errno = get_other_names(lpid, names, block_nics);
        MPIR_ERR_CHECK(mpi_errno);
        mpi_errno = insert_in_every_nic(0, (const char *) names, block_nics, &addr,
                                        "the address of rank", lpid);
        MPIR_ERR_CHECK(mpi_errno);
    }
    mpi_errno = MPIDIU_av_set_addr_locked(0, (int) lpid, addr);
    if (mpi_errno && av_log.on)
        log_drop();     /* no word names it: a retry appends it again */
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

/* A pending word (shifted right by one, either way) resolved; holds the
 * UTIL mutex. */
static int resolve_pending_locked(uint64_t shifted, fi_addr_t * out)
{
    uint32_t lpid = avrm_ave_pending_lpid((avrm_ave_t) shifted << 1);

    if (lpid < (uint32_t) MPIR_Process.size)
        return resolve_locked(lpid, out);
    return MPIR_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, __func__, __LINE__,
                                MPI_ERR_OTHER, "**fail", "**fail %s",
                                "a pending address word names no rank of this world");
}

/* The hot path's slow branch: a pending word's peer, resolved. An error is
 * fatal here (the callers, down to the progress engine's replies, have no
 * error path for an address): it aborts with the message of the cause. */
fi_addr_t MPIDI_OFI_av_resolve(int64_t pending)
{
    fi_addr_t addr = FI_ADDR_NOTAVAIL;

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    int mpi_errno = resolve_pending_locked((uint64_t) pending, &addr);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (mpi_errno)
        MPIR_Handle_fatal_error(NULL, "MPIDI_OFI_av_resolve", mpi_errno);
    return addr;
}

#ifdef MPIDI_OFI_VNI_AVS
/* Whether this thread holds VCI vni's lock (the send, receive and RMA paths
 * do; the spawn paths do not). */
static int vci_lock_held(int vni)
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

/* VNI vni's AV replays the log up to entry w. Holds VCI vni's lock and
 * the UTIL mutex. */
static int replay_locked(int vni, uint64_t w)
{
    int mpi_errno = MPI_SUCCESS;
    size_t len = MPIDI_OFI_global.addrnamelen;
    char why[200];

    if (w >= av_log.next) {
        snprintf(why, sizeof(why), "address word %" PRIu64 " names no contacted peer (%" PRIu64
                 " logged)", w, av_log.len);
        MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s", why);
    }
    while (MPIDI_OFI_global.av_known[vni] <= w) {
        uint64_t e = av_log.replayed[vni];
        fi_addr_t at = av_log.first[e];
        int n = (int) log_block_size(e);
        mpi_errno = insert_in_every_nic(vni, log_entry(e) + vni * block_nics * len, n, &at,
                                        "contacted peer (log entry)", (int64_t) e);
        MPIR_ERR_CHECK(mpi_errno);
        av_log.replayed[vni] = e + 1;
        MPIDI_OFI_global.av_known[vni] = at + n;
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

    if (!av_log.on)     /* one AV: only a pending word gets here */
        return MPIDI_OFI_av_resolve((int64_t) shifted);
    int held = vci_lock_held(vni);
    if (!held)
        MPID_THREAD_CS_ENTER(VCI, MPIDI_VCI(vni).lock);
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (shifted > AVRM_AVE_MAX_ADDR)
        mpi_errno = resolve_pending_locked(shifted, &addr);
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

/* The name of the endpoint at address w of context ctx_idx's AV, as
 * fi_av_lookup gives it (the spawn paths compare and send names): from the
 * log when resolutions go there (w is a log entry; its VNI 0 name), else
 * from the AV. */
int MPIDI_OFI_av_name(int ctx_idx, fi_addr_t w, void *name, size_t * len)
{
    int mpi_errno = MPI_SUCCESS;

    if (av_log.on) {
        size_t have = MPIDI_OFI_global.addrnamelen;
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        int64_t e = log_entry_at(w);
        int known = e >= 0;
        if (known)
            memcpy(name, log_entry(e), MPL_MIN(*len, have));
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

    MPIR_ERR_CHKANDJUMP1((av_log.on || block_nics > 1) && len != MPIDI_OFI_global.addrnamelen,
                         mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                         "a connecting process's address differs in length from this provider's");
    if (av_log.on) {
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        int64_t old = log_find(name, av_log.len);
        uint64_t e = (uint64_t) old;
        if (old < 0) {
            mpi_errno = log_append(1, &e);
            for (int v = 0; !mpi_errno && v < MPIDI_OFI_global.num_vnis; v++)
                memcpy(log_entry(e) + v * block_nics * len, name, len);
            av_log.dynamic += !mpi_errno;
        }
        if (!mpi_errno)
            *addr = av_log.first[e];
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        MPIR_ERR_CHECK(mpi_errno);
        goto fn_exit;
    }
    if (block_nics > 1) {
        /* its root endpoint alone, at one index in every NIC's AV */
        *addr = FI_ADDR_NOTAVAIL;
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        mpi_errno = insert_in_every_nic(0, (const char *) name, 1, addr,
                                        "a dynamic peer (spawn, connect)", -1);
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        MPIR_ERR_CHECK(mpi_errno);
        goto fn_exit;
    }
    MPIDI_OFI_VCI_CALL(fi_av_insert(MPIDI_OFI_global.ctx[ctx_idx].av, name, 1, addr, 0ULL,
                                    NULL), 0, avmap);
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* MPI_Init's address step: on demand when allowed, else stock's exchange. */
int MPIDI_OFI_addr_init(void)
{
    const char *refusal = on_demand_refusal();

    MPIDI_avrm.eager_reason = refusal;
    MPIDI_avrm.on_demand = refusal == NULL;
#ifdef MPIDI_OFI_VNI_AVS
    /* the log needs one index sequence in every AV: FI_AV_TABLE */
    av_log.on = MPIDI_avrm.on_demand && MPIDI_OFI_ENABLE_AV_TABLE;
    for (int v = 0; v < MPIDI_OFI_MAX_VNIS; v++)
        MPIDI_OFI_global.av_known[v] = av_log.on ? 0 : AVRM_AVE_MAX_ADDR + 1;
#endif
    if (MPIDI_avrm.on_demand)
        return on_demand_init();
    if (MPIDI_OFI_global.got_named_av)
        return MPI_SUCCESS;
    return MPIDI_OFI_addr_exchange_root_ctx();
}
