/*
 * ch4_avrm_av.c - CH4's AV manager on libavrm: one libavrm address vector per
 * process group (pgid == CH4's avtid), 8 bytes per peer (fi_addr << 1 | local
 * bit) instead of stock's 72-byte MPIDI_av_entry_t, or none for a computed
 * world AV; reference counts per group with stock's lifetime (a dynamic group
 * is freed when the last communicator using it is freed) and pgid reuse.
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi beside ch4_proc.c (patch ch4-address-layer-on-avrm lists it in Makefile.in); it
 * replaces stock's AV tables. Its interface: ch4_avrm.h and ch4_proc.h.
 *
 * Thread safety: writers hold MPIDIU_THREAD_UTIL_MUTEX (see ch4_avrm.h):
 * MPIDIU_new_avt, MPIDIU_free_avt and MPIDIU_av_set_addr take it; the
 * reference counting below runs inside map builds and releases, which hold
 * it (never taken twice).
 * Costs: init O(1): the world AV is computed (my node from the world's node
 * hierarchy; O(local size) when it is neither consecutive nor round-robin)
 * until the netmod settles it at MPI_Init, once its first context exists
 * (MPIDI_OFI_addr_settle_world, before any map but the builtins' can be
 * built): sparse on demand (O(local size)), else stored (O(world)) unless
 * computed is kept; stored from the start (O(world)) only when
 * MPIR_CVAR_CH4_ROOTS_ONLY_PMI forbids computed; new/free group
 * O(size); set O(1); ref counting O(1) per group, O(ranks) for a multi-group
 * map. Per-group state (pg_refs, pg_seen) is sized when a group is created,
 * where failing is reportable: taking or dropping references never allocates.
 */
#include "mpidimpl.h"
#include "ch4_proc.h"
#include "ch4_avrm.h"
#include "mpir_avrm_errno.h"

MPIDI_avrm_t MPIDI_avrm;

/* The world AV may stay computed after the netmod's inserts (the CVAR asked
 * for it and nothing refused it: a first insert out of rank order still
 * makes it stored); else it is computed only until the netmod settles it,
 * so that no word array exists before the netmod knows whether it addresses
 * on demand (sparse) or eagerly (stored). */
static int world_computed_kept;

/* Room for the reference count and scratch mark of groups 0..n-1. */
static int pg_state_reserve(uint32_t n)
{
    if (n <= MPIDI_avrm.npg_refs)
        return MPI_SUCCESS;
    n = MPL_MAX(n, 2 * MPIDI_avrm.npg_refs);
    uint32_t *r = MPL_realloc(MPIDI_avrm.pg_refs, n * sizeof(*r), MPL_MEM_ADDRESS);
    if (!r)
        return MPIR_avrm_err(AVRM_ERR_NOMEM, "process group reference counts");
    MPIDI_avrm.pg_refs = r;
    uint8_t *seen = MPL_realloc(MPIDI_avrm.pg_seen, n, MPL_MEM_ADDRESS);
    if (!seen)
        return MPIR_avrm_err(AVRM_ERR_NOMEM, "process group marks");
    MPIDI_avrm.pg_seen = seen;
    memset(r + MPIDI_avrm.npg_refs, 0, (n - MPIDI_avrm.npg_refs) * sizeof(*r));
    memset(seen + MPIDI_avrm.npg_refs, 0, n - MPIDI_avrm.npg_refs);
    MPIDI_avrm.npg_refs = n;
    return MPI_SUCCESS;
}

static void params_from_cvars(avrm_params_t * p)
{
    *p = avrm_params_default();
    if (!MPIR_CVAR_AVRM_PATTERNS) {
        p->enable_patterns = p->enable_except = p->enable_grid = 0;
    }
    p->share_by_content = MPIR_CVAR_AVRM_SHARE_TABLES ? 1 : 0;
    /* the world AV starts computed (no words) until the netmod settles it
     * (sparse on demand, else stored unless MPIR_CVAR_AVRM_COMPUTED_AV asks
     * for computed) */
    p->computed_av = 1;
}

/* My node's members in the world, as a libavrm locality description, from
 * the world's node hierarchy (avrm_locality_of_hier). *list is allocated
 * for a LIST only (libavrm copies it). */
static int world_locality(avrm_locality_t * loc, uint32_t ** list)
{
    const avrm_hier_t *h = &MPIR_Process.node_hier;
    uint32_t len = avrm_locality_list_len(h);

    *list = NULL;
    if (len) {
        *list = MPL_malloc(len * sizeof(uint32_t), MPL_MEM_ADDRESS);
        if (!*list)
            return MPIR_avrm_err(AVRM_ERR_NOMEM, "list of my node's members");
    }
    avrm_locality_of_hier(h, *list, loc);
    return MPI_SUCCESS;
}

/* Context and world AV. Runs after MPIR_pmi_init (node_hier exists) and
 * before any communicator exists. */
int MPIDIU_avt_init(void)
{
    int mpi_errno = MPI_SUCCESS;
    avrm_params_t params;
    avrm_av_params_t avp = { 0 };
    avrm_av_t *av = NULL;
    uint32_t *list = NULL;

    params_from_cvars(&params);
    MPIDI_avrm.stored_reason = NULL;
    mpi_errno = MPIR_avrm_err(avrm_ctx_create(&params, &MPIDI_avrm.ctx), "address layer context");
    MPIR_ERR_CHECK(mpi_errno);
    MPIR_Avrm_ctx = MPIDI_avrm.ctx;     /* communicators' node hierarchies account here */
    mpi_errno = pg_state_reserve(8);
    MPIR_ERR_CHECK(mpi_errno);

    avp.size = (uint32_t) MPIR_Process.size;
    avp.pgid = 0;
    avp.computed = params.computed_av;
    if (avp.computed && MPIR_CVAR_CH4_ROOTS_ONLY_PMI) {
        /* node roots are inserted first (fi_addr is a permutation of ranks),
         * and the node roots' init comm's map is built before the inserts */
        avp.computed = 0;
        if (MPIR_CVAR_AVRM_COMPUTED_AV)
            MPIDI_avrm.stored_reason = "MPIR_CVAR_CH4_ROOTS_ONLY_PMI inserts addresses out of rank order";
    }
    if (avp.computed) {
        mpi_errno = world_locality(&avp.local, &list);
        MPIR_ERR_CHECK(mpi_errno);
    }
    mpi_errno = MPIR_avrm_err(avrm_av_create(MPIDI_avrm.ctx, &avp, &av), "world address vector");
    MPL_free(list);
    MPIR_ERR_CHECK(mpi_errno);
    if (av->entries) {
        /* address 0 until the netmod inserts it; the local bit from the
         * world's node hierarchy */
        for (int i = 0; i < MPIR_Process.size; i++)
            avrm_av_set(av, (avrm_lpid_t) i, 0,
                        avrm_hier_intranode(&MPIR_Process.node_hier, (uint32_t) i) >= 0);
    }
    world_computed_kept = MPIR_CVAR_AVRM_COMPUTED_AV && av->computed;
    MPIDIU_avt_add_ref(0);      /* the world group lives until finalize */

  fn_exit:
    return mpi_errno;
  fn_fail:
    MPIDIU_avt_destroy();
    goto fn_exit;
}

int MPIDIU_avt_destroy(void)
{
    MPIR_Avrm_ctx = NULL;
    avrm_ctx_destroy(MPIDI_avrm.ctx);   /* every AV and table left */
    MPIDI_avrm.ctx = NULL;
    MPL_free(MPIDI_avrm.pg_refs);
    MPL_free(MPIDI_avrm.pg_seen);
    MPIDI_avrm.pg_refs = NULL;
    MPIDI_avrm.pg_seen = NULL;
    MPIDI_avrm.npg_refs = 0;
    return MPI_SUCCESS;
}

int MPIDIU_get_n_avts(void)
{
    return (int) MPIDI_avrm.ctx->navs;
}

int MPIDIU_avt_exists(int avtid)
{
    return avtid >= 0 && (uint32_t) avtid < MPIDI_avrm.ctx->navs && MPIDI_avrm.ctx->avs[avtid];
}

int MPIDIU_get_avt_size(int avtid)
{
    return (int) MPIDI_avrm.ctx->avs[avtid]->size;
}

/* A new group of `size` peers (spawn, connect/accept, join): stored AV,
 * every peer remote (as stock: dynamic peers never use shared memory),
 * reference count 0 until a communicator's map uses it. Lowest free pgid. */
int MPIDIU_new_avt(int size, int *avtid)
{
    int mpi_errno = MPI_SUCCESS;
    avrm_ctx_t *ctx = MPIDI_avrm.ctx;
    avrm_av_params_t avp = { 0 };
    avrm_av_t *av;
    uint32_t pg = 1;

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    while (pg < ctx->navs && ctx->avs[pg])
        pg++;
    avp.size = (uint32_t) size;
    avp.pgid = (avrm_pgid_t) pg;
    /* room for every slot ctx->avs may have after the create (libavrm grows
     * it to max(pgid + 1, 2 * navs)): MPIDIU_map_ref_groups walks them all */
    mpi_errno = pg_state_reserve(MPL_MAX(pg + 1, 2 * ctx->navs));
    if (mpi_errno == MPI_SUCCESS)
        mpi_errno = MPIR_avrm_err(avrm_av_create(ctx, &avp, &av), "address vector of a new process group");
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    MPIR_ERR_CHECK(mpi_errno);
    *avtid = (int) pg;
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Callers hold MPIDIU_THREAD_UTIL_MUTEX. */
static void free_avt_locked(int avtid)
{
    avrm_av_destroy(MPIDI_avrm.ctx, (avrm_pgid_t) avtid);
}

int MPIDIU_free_avt(int avtid)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    free_avt_locked(avtid);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return MPI_SUCCESS;
}

/* Never fails: the count exists since the group was created. */
int MPIDIU_avt_add_ref(int avtid)
{
    MPIR_Assert((uint32_t) avtid < MPIDI_avrm.npg_refs);
    MPIDI_avrm.pg_refs[avtid]++;
    return MPI_SUCCESS;
}

/* The last reference to a dynamic group frees its AV (the world's lives
 * until MPIDIU_avt_destroy). Callers hold MPIDIU_THREAD_UTIL_MUTEX. */
int MPIDIU_avt_release_ref(int avtid)
{
    MPIR_Assert((uint32_t) avtid < MPIDI_avrm.npg_refs && MPIDI_avrm.pg_refs[avtid] > 0);
    if (--MPIDI_avrm.pg_refs[avtid] == 0 && avtid != 0)
        free_avt_locked(avtid);
    return MPI_SUCCESS;
}

/* One reference per distinct group of map m, taken (add) or dropped. The
 * groups are marked first and the references changed after: dropping the
 * last one destroys an AV that decoding a later rank would read. Callers
 * hold MPIDIU_THREAD_UTIL_MUTEX (pg_seen is shared scratch). Never fails. */
void MPIDIU_map_ref_groups(const avrm_rankmap_t * m, int add)
{
    uint32_t navs = MPIDI_avrm.ctx->navs;
    uint8_t *seen = MPIDI_avrm.pg_seen;

    if (m->size == 0)
        return;
    MPIR_Assert(navs <= MPIDI_avrm.npg_refs);
    avrm_map_mark_groups(MPIDI_avrm.ctx, m, seen);
    for (uint32_t g = 0; g < navs; g++) {
        if (seen[g]) {
            seen[g] = 0;
            if (add)
                MPIDIU_avt_add_ref((int) g);
            else
                MPIDIU_avt_release_ref((int) g);
        }
    }
}

/* The world AV's entry array moved (made stored or sparse): the maps that
 * cached it are resealed. Only the builtin communicators can exist then:
 * the netmod settles the AV at MPI_Init, before any other map is built; a
 * computed AV kept by the CVAR turns stored at its first insert out of rank
 * order, inside the address exchange of comm_world's commit (with MPI
 * sessions a group of the world may predate it: that CVAR's limit). */
static void reseal_builtin_maps(void)
{
    if (MPIR_Process.comm_world && MPIDI_COMM(MPIR_Process.comm_world, map).size) {
        avrm_map_reseal(MPIDI_avrm.ctx, &MPIDI_COMM(MPIR_Process.comm_world, map));
        MPIDIU_avt_world_map_sealed(&MPIDI_COMM(MPIR_Process.comm_world, map));
    }
    if (MPIR_Process.comm_self && MPIDI_COMM(MPIR_Process.comm_self, map).size)
        avrm_map_reseal(MPIDI_avrm.ctx, &MPIDI_COMM(MPIR_Process.comm_self, map));
}

/* comm_world's map m was sealed: RMA's world shortcut (patch
 * send-put-path-at-stock-cost) reads the world AV's words directly when m is
 * the identity over them, else it has none. */
void MPIDIU_avt_world_map_sealed(const avrm_rankmap_t * m)
{
    MPIDI_avrm.world_ents = m->path == AVRM_PATH_OFFSET && m->u.reg.offset == 0 &&
        m->pgid == 0 ? m->ents : NULL;
}

/* The world AV turns stored (computed until now: the netmod addresses
 * eagerly and a computed AV was not asked for (reason NULL), or addresses
 * do not follow the rank); maps built so far are resealed. */
static int require_stored(const char *reason)
{
    avrm_av_t *av = MPIDI_avrm.ctx->avs[0];
    if (!av->computed)
        return MPI_SUCCESS;
    int mpi_errno = MPIR_avrm_err(avrm_av_make_stored(MPIDI_avrm.ctx, av),
                                    "stored world address vector (computed AV fallback)");
    if (mpi_errno)
        return mpi_errno;
    MPIDI_avrm.stored_reason = reason;
    world_computed_kept = 0;
    reseal_builtin_maps();
    return MPI_SUCCESS;
}

/* The netmod inserted peer lpid of group avtid at fi_addr addr. The local
 * bit set at creation is kept. Errors: memory for the computed AV's
 * fallback, or an fi_addr wider than the 62 bits an address word holds.
 * An AV writer: the caller holds MPIDIU_THREAD_UTIL_MUTEX. */
int MPIDIU_av_set_addr_locked(int avtid, int lpid, uint64_t addr)
{
    int mpi_errno = MPI_SUCCESS;
    avrm_av_t *av = MPIDI_avrm.ctx->avs[avtid];
    int is_local = (avrm_av_ave(av, (avrm_lpid_t) lpid) & AVRM_AVE_LOCAL) != 0;

    if (av->computed && (!world_computed_kept || addr != (uint64_t) lpid)) {
        mpi_errno = require_stored(world_computed_kept ?
                                   "the provider's fi_addr values do not follow the rank" : NULL);
        MPIR_ERR_CHECK(mpi_errno);
    }
    MPIR_ERR_CHKANDJUMP1(avrm_av_set(av, (avrm_lpid_t) lpid, addr, is_local) != AVRM_OK,
                         mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                         "an fi_addr an address word cannot hold (wider than 62 bits, or 0 "
                         "for a peer on another node of an on-demand world)");
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* The same, taking MPIDIU_THREAD_UTIL_MUTEX (callers hold no VCI lock: the
 * spawn path's fi_av_insert has released it; VCI -> UTIL is the order
 * MPICH's AM path already takes). */
int MPIDIU_av_set_addr(int avtid, int lpid, uint64_t addr)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    int mpi_errno = MPIDIU_av_set_addr_locked(avtid, lpid, addr);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return mpi_errno;
}

/* On-demand addressing: every world word pending, and none stored for a
 * peer not contacted yet: the world AV made sparse (avrm_av_make_sparse:
 * an untouched peer reads as its pending word; my node's members keep
 * theirs with the local bit, O(processes per node) words; each first
 * contact writes one word, memory a page per 512 consecutive ranks
 * touched). reason says why a computed AV was not kept. Runs in MPI_Init
 * before any communication. */
static int world_pending(const char *reason)
{
    avrm_av_t *av = MPIDI_avrm.ctx->avs[0];
    int mpi_errno = MPIR_avrm_err(avrm_av_make_sparse(MPIDI_avrm.ctx, av),
                                    "sparse world address vector (on-demand addressing)");
    if (mpi_errno)
        return mpi_errno;
    if (world_computed_kept)
        MPIDI_avrm.stored_reason = reason;
    world_computed_kept = 0;
    reseal_builtin_maps();
    return MPI_SUCCESS;
}

/* The netmod's choice for the world AV, made once in MPI_Init right after
 * its first context and before any communicator's address step: on demand
 * the AV is made sparse (world_pending); eagerly it is stored, unless
 * MPIR_CVAR_AVRM_COMPUTED_AV keeps it computed (world_computed_kept). */
int MPIDIU_avt_world_settle(int on_demand)
{
    if (on_demand)
        return world_pending("on-demand addressing keeps a word per contacted peer");
    return world_computed_kept ? MPI_SUCCESS : require_stored(NULL);
}
