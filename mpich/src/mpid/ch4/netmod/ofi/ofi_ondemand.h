/*
 * ofi_ondemand.h - on-demand addressing in the OFI netmod: MPI_Init
 * publishes this process's endpoint names in PMI and inserts no other
 * process; a world peer's address word stays pending (AVRM_AVE_PENDING,
 * carrying its rank) until the first operation that addresses it, which
 * reads its names from PMI, inserts them and stores the word. Why, and what
 * it saves: doc/design.md, "On-demand addressing".
 *
 * Files, by role (after UCX's ucp/wireup):
 *   ofi_ondemand_init.c     the provider rule, MPI_Init's publication, the
 *                           NICs of a peer's block, CVAR, pvars, report
 *   ofi_ondemand_names.c    PMI keys and values of endpoint names, and
 *                           the state, MPIDI_OFI_ondemand
 *   ofi_ondemand_log.c      the first-contact log a domain per VNI replays
 *   ofi_ondemand_resolve.c  first contact and the spawn paths' dynamic peers
 * The hot path's side (the pending test) is ofi_avrm.h.
 *
 * Rules:
 * - On demand only where the provider keeps MPI's source matching for a
 *   sender it has not inserted (ofi_rxm, ofi_rxd; shm from libfabric
 *   1.19: MPICH matches a receive's source by address alone), every
 *   process deciding alike from what they share (CVARs, FI_PROVIDER), or
 *   where a test forces it (MPIR_CVAR_AVRM_ON_DEMAND_FORCE); otherwise
 *   stock's exchange at MPI_Init, and the report says why
 *   (MPIDI_OFI_ondemand.eager_reason; on_reason when on).
 * - A peer's endpoints are one block of consecutive AV indices, the same
 *   in every AV of this process: its word is the block's first index, its
 *   NIC k is w + k (MPIDI_OFI_endpoint_addr). A dynamic peer's block is its
 *   root endpoint alone; a communicator with one never spreads over NICs.
 * - Several NICs: every process publishes its count of endpoints; a peer
 *   with another count is an error naming both at either end's first
 *   contact.
 * - A domain per VNI (MPIDI_OFI_VNI_AVS): first contact inserts nothing but
 *   appends the peer's names to the log (entry e: VNIs x block_nics names,
 *   VNI-major, and first[e], its word); VNI v's AVs replay the log in order
 *   up to the words they meet, under VCI v's lock, so every AV gives every
 *   peer one index. Entry 0 is this process. A name logged twice (a
 *   dynamic peer connected to again) keeps its first entry.
 *
 * Thread safety: MPIDI_OFI_ondemand's decisions (on, eager_reason, on_reason,
 * block_nics, nics, one_nic_reason, count_keys_fenced) are written in
 * MPI_Init and read without a lock after it. The log, nics_apart and the
 * counters change under MPIDIU_THREAD_UTIL_MUTEX, which first contact holds
 * across the re-check of the word, the PMI get and the insert or append,
 * so two threads touching one new peer resolve it once (callers may hold a
 * VCI lock: VCI -> UTIL is MPICH's order); its PMI gets also take MPICH's
 * PMI lock (MPIR_THREAD_VCI_PMI_MUTEX, UTIL -> PMI), which MPI_Comm_spawn
 * holds around its PMI call. A replay into VNI v's AVs also
 * holds VCI v's lock (the caller's, or taken there). av_known[v] is written
 * under VCI v's lock (a release store) and may be read without it (a
 * relaxed atomic load: RMA looks its address up before taking the lock):
 * it only grows, and a stale value sends the reader to
 * MPIDI_OFI_av_catch_up, which rechecks under the lock.
 * The resolved word is stored with release order after the insert.
 *
 * Costs: MPI_Init one PMI put and two fences (the second at post-init,
 * run by every process whatever its CVARs; several VNIs or NICs: one more
 * put per value's worth of names, and the count key); each first
 * contact one PMI get (more values with several endpoints) and one
 * fi_av_insert per AV that meets the peer; later contacts nothing. The
 * log: VNIs x NICs x the provider's name length + 8 B per peer contacted,
 * freed at MPI_Finalize; its word -> entry lookup is a binary search.
 */
#ifndef OFI_ONDEMAND_H_INCLUDED
#define OFI_ONDEMAND_H_INCLUDED

/* PMI keys: a process's root endpoint name; the names of its other
 * endpoints (slots 1..VNIs x NICs - 1) in as many values as they need
 * (chunk c >= 1); its count of endpoints, "VNIsxNICs". The names' keys
 * name both counts, so a peer that has other counts is a missing key,
 * never names read with the wrong VNI or NIC; a process of one endpoint
 * reads the peer's count key instead. */
#define MPIDI_OFI_BC_KEY "avrm-bc-%u"
#define MPIDI_OFI_BC_KEY_OTHERS "avrm-bc-%u-%dx%d-%d"
#define MPIDI_OFI_BC_KEY_COUNT "avrm-bc-%u-n"
#define MPIDI_OFI_BC_VAL_COUNT "%dx%d"     /* VNIs, NICs */
/* a PMI value of hex names: at most every VNI's or every NIC's name */
#define MPIDI_OFI_BC_VAL_MAX (2 * FI_NAME_MAX * MPL_MAX(MPIDI_OFI_MAX_VNIS, MPIDI_OFI_MAX_NICS) + 1)

typedef struct MPIDI_OFI_ondemand {
    /* decided in MPI_Init */
    int on;                     /* world peers are resolved on first contact */
    const char *eager_reason;   /* why not, when not */
    const char *on_reason;      /* why, when on */
    int block_nics;             /* NICs of a peer's block: 1 until post-init */
    int nics;                   /* the same for the pvar: 0 when eager */
    const char *one_nic_reason; /* why one when this process has more */
    int count_keys_fenced;      /* every process's count key is in PMI */
    /* under MPIDIU_THREAD_UTIL_MUTEX */
    uint64_t peers_resolved;    /* world peers resolved on first contact */
    double resolve_seconds;     /* time spent resolving them */
    char nics_apart[200];       /* set once NICs' AVs hold different blocks:
                                 * every later insert fails naming it */
    struct {                    /* the first-contact log (a domain per VNI) */
        int on;
        int slots;              /* names per entry: VNIs x block_nics */
        uint64_t len, cap;      /* entries */
        uint64_t next;          /* AV index of the next block */
        uint64_t dynamic;       /* of them dynamic peers' */
        char *names;
        uint64_t *first;        /* ascending: entry e's word */
        uint64_t replayed[MPIDI_OFI_MAX_VNIS];  /* entries VNI v's AVs hold (VCI v's lock) */
    } log;
} MPIDI_OFI_ondemand_t;

extern MPIDI_OFI_ondemand_t MPIDI_OFI_ondemand;

/* Between the files of on-demand addressing only. */
int MPIDI_OFI_ondemand_names_per_value(void);
int MPIDI_OFI_ondemand_put_names(const char *key, const char *names, int n);
int MPIDI_OFI_ondemand_get_names(uint32_t lpid, const char *key, unsigned char *out, int n);
int MPIDI_OFI_ondemand_get_other_names(uint32_t lpid, unsigned char *names, int total);
char *MPIDI_OFI_ondemand_log_entry(uint64_t e);
int MPIDI_OFI_ondemand_log_reserve(uint64_t cap, int slots);
int MPIDI_OFI_ondemand_log_append(int n, uint64_t * e);
void MPIDI_OFI_ondemand_log_drop(void);
int64_t MPIDI_OFI_ondemand_log_entry_at(uint64_t w);
int64_t MPIDI_OFI_ondemand_log_find(const void *name, uint64_t n);
int MPIDI_OFI_ondemand_log_free(void *unused);
int MPIDI_OFI_ondemand_insert_block(int vni, int nic, const char *names, int n,
                                    fi_addr_t * first, const char *whose, int64_t rank);
int MPIDI_OFI_ondemand_insert_in_every_nic(int vni, const char *names, int n,
                                           fi_addr_t * first, const char *whose, int64_t rank);
int MPIDI_OFI_ondemand_resolve_pending_locked(uint64_t shifted, fi_addr_t * out);
int MPIDI_OFI_ondemand_vci_held(int vni);
int MPIDI_OFI_ondemand_lock(void);
void MPIDI_OFI_ondemand_unlock(int took);

#endif /* OFI_ONDEMAND_H_INCLUDED */
