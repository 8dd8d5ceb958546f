/*
 * ch4_avrm_av.h - CH4's AV manager on libavrm: one libavrm address vector per
 * process group (pgid == CH4's avtid), 8 bytes per peer (fi_addr << 1 | local
 * bit) instead of stock's 72-byte MPIDI_av_entry_t, or none for a computed
 * world AV; reference counts per group with stock's lifetime (a dynamic group
 * is freed when the last communicator using it is freed) and pgid reuse.
 *
 * Our file, added to the MPICH tree by patches/mpich/series; compiled once,
 * included by ch4_proc.c in place of stock's AV tables.
 *
 * Thread safety: writers take MPIDIU_THREAD_UTIL_MUTEX (see ch4_avrm.h).
 * Costs: init O(world) (stored: the entry array and its locality bits;
 * computed: O(world) scan of node_map to describe my node); new/free group
 * O(size); set O(1); ref counting O(1) per group, O(ranks) for a multi-group
 * map.
 */
#ifndef CH4_AVRM_AV_H_INCLUDED
#define CH4_AVRM_AV_H_INCLUDED

#include "ch4_avrm.h"
#include "ch4_avrm_errno.h"

MPIDI_avrm_t MPIDI_avrm;

static void params_from_cvars(avrm_params_t * p)
{
    *p = avrm_params_default();
    if (!MPIR_CVAR_AVRM_PATTERNS) {
        p->enable_patterns = p->enable_except = p->enable_grid = 0;
    }
    p->share_by_content = MPIR_CVAR_AVRM_SHARE_TABLES ? 1 : 0;
    p->computed_av = MPIR_CVAR_AVRM_COMPUTED_AV ? 1 : 0;
}

/* My node's members in the world, as a libavrm locality description:
 * RANGE (block placement), CYCLIC (round-robin cliques) or LIST.
 * *list is allocated for LIST only (libavrm copies it). */
static int world_locality(avrm_locality_t * loc, uint32_t ** list)
{
    const int *nm = MPIR_Process.node_map;
    int n = MPIR_Process.size, me = MPIR_Process.rank, k = MPIR_Process.num_nodes;
    int first = -1, last = -1, count = 0, cyclic = k > 0;

    memset(loc, 0, sizeof(*loc));
    *list = NULL;
    for (int i = 0; i < n; i++) {
        int local = nm[i] == nm[me];
        if (local) {
            if (first < 0)
                first = i;
            last = i;
            count++;
        }
        if (cyclic && local != (i % k == me % k))
            cyclic = 0;
    }
    if (last - first + 1 == count) {
        loc->kind = AVRM_LOCAL_RANGE;
        loc->first = (uint32_t) first;
        loc->count = (uint32_t) count;
    } else if (cyclic) {
        loc->kind = AVRM_LOCAL_CYCLIC;
        loc->nnodes = (uint32_t) k;
        loc->node = (uint32_t) (me % k);
    } else {
        *list = MPL_malloc(count * sizeof(uint32_t), MPL_MEM_ADDRESS);
        if (!*list)
            return MPI_ERR_NO_MEM;
        loc->kind = AVRM_LOCAL_LIST;
        loc->count = 0;
        for (int i = 0; i < n; i++)
            if (nm[i] == nm[me])
                (*list)[loc->count++] = (uint32_t) i;
        loc->list = *list;
    }
    return MPI_SUCCESS;
}

/* Context and world AV. Runs after MPIR_pmi_init (node_map exists) and
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
    mpi_errno = MPIDIU_avrm_errno(avrm_ctx_create(&params, &MPIDI_avrm.ctx));
    MPIR_ERR_CHKANDJUMP(mpi_errno, mpi_errno, MPI_ERR_OTHER, "**nomem");

    avp.size = (uint32_t) MPIR_Process.size;
    avp.pgid = 0;
    avp.computed = params.computed_av;
    if (avp.computed && MPIR_CVAR_CH4_ROOTS_ONLY_PMI) {
        /* node roots are inserted first: fi_addr is a permutation of ranks */
        avp.computed = 0;
        MPIDI_avrm.stored_reason = "MPIR_CVAR_CH4_ROOTS_ONLY_PMI inserts addresses out of rank order";
    }
    if (avp.computed) {
        mpi_errno = world_locality(&avp.local, &list);
        MPIR_ERR_CHKANDJUMP(mpi_errno, mpi_errno, MPI_ERR_OTHER, "**nomem");
    }
    mpi_errno = MPIDIU_avrm_errno(avrm_av_create(MPIDI_avrm.ctx, &avp, &av));
    MPL_free(list);
    MPIR_ERR_CHKANDJUMP(mpi_errno, mpi_errno, MPI_ERR_OTHER, "**nomem");
    if (av->entries) {
        /* address 0 until the netmod inserts it; the local bit from node_map */
        for (int i = 0; i < MPIR_Process.size; i++)
            avrm_av_set(av, (avrm_lpid_t) i, 0,
                        MPIR_Process.node_map[i] == MPIR_Process.node_map[MPIR_Process.rank],
                        NULL);
    }
    mpi_errno = MPIDIU_avt_add_ref(0);  /* the world group lives until finalize */

  fn_exit:
    return mpi_errno;
  fn_fail:
    avrm_ctx_destroy(MPIDI_avrm.ctx);
    MPIDI_avrm.ctx = NULL;
    goto fn_exit;
}

int MPIDIU_avt_destroy(void)
{
    MPIDIU_comm_local_maps_destroy();
    avrm_ctx_destroy(MPIDI_avrm.ctx);   /* every AV and table left */
    MPIDI_avrm.ctx = NULL;
    MPL_free(MPIDI_avrm.pg_refs);
    MPIDI_avrm.pg_refs = NULL;
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
    mpi_errno = MPIDIU_avrm_errno(avrm_av_create(ctx, &avp, &av));
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    MPIR_ERR_CHKANDJUMP(mpi_errno, mpi_errno, MPI_ERR_OTHER, "**nomem");
    *avtid = (int) pg;
  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

int MPIDIU_free_avt(int avtid)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    avrm_av_destroy(MPIDI_avrm.ctx, (avrm_pgid_t) avtid);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return MPI_SUCCESS;
}

int MPIDIU_avt_add_ref(int avtid)
{
    if ((uint32_t) avtid >= MPIDI_avrm.npg_refs) {
        uint32_t n = MPL_MAX(2 * MPIDI_avrm.npg_refs, (uint32_t) avtid + 8);
        uint32_t *r = MPL_realloc(MPIDI_avrm.pg_refs, n * sizeof(*r), MPL_MEM_ADDRESS);
        if (!r)
            return MPI_ERR_NO_MEM;
        memset(r + MPIDI_avrm.npg_refs, 0, (n - MPIDI_avrm.npg_refs) * sizeof(*r));
        MPIDI_avrm.pg_refs = r;
        MPIDI_avrm.npg_refs = n;
    }
    MPIDI_avrm.pg_refs[avtid]++;
    return MPI_SUCCESS;
}

/* The last reference to a dynamic group frees its AV (the world's lives
 * until MPIDIU_avt_destroy). */
int MPIDIU_avt_release_ref(int avtid)
{
    MPIR_Assert((uint32_t) avtid < MPIDI_avrm.npg_refs && MPIDI_avrm.pg_refs[avtid] > 0);
    if (--MPIDI_avrm.pg_refs[avtid] == 0 && avtid != 0)
        return MPIDIU_free_avt(avtid);
    return MPI_SUCCESS;
}

/* One reference per distinct group of map m (add) or release them. */
void MPIDIU_map_ref_groups(const avrm_rankmap_t * m, int add)
{
    avrm_ctx_t *ctx = MPIDI_avrm.ctx;

    if (m->size == 0)
        return;
    if (!avrm_map_is_multi(m)) {
        add ? MPIDIU_avt_add_ref(m->pgid) : MPIDIU_avt_release_ref(m->pgid);
        return;
    }
    uint8_t seen_small[256], *seen = seen_small;   /* on the stack when small (see build_part) */
    if (ctx->navs > sizeof(seen_small))
        seen = MPL_malloc(ctx->navs, MPL_MEM_ADDRESS);
    MPIR_Assert(seen);
    memset(seen, 0, ctx->navs);
    for (uint32_t r = 0; r < m->size; r++) {
        avrm_pgid_t g;
        avrm_map_lpid(ctx, m, r, &g);
        if (!seen[g]) {
            seen[g] = 1;
            add ? MPIDIU_avt_add_ref(g) : MPIDIU_avt_release_ref(g);
        }
    }
    if (seen != seen_small)
        MPL_free(seen);
}

/* The world AV turns stored (a computed AV was asked for, but addresses do
 * not follow the rank); maps built so far are resealed. */
void MPIDIU_avrm_require_stored(const char *reason)
{
    avrm_av_t *av = MPIDI_avrm.ctx->avs[0];
    if (!av->computed)
        return;
    MPIR_Assert(avrm_av_make_stored(MPIDI_avrm.ctx, av) == AVRM_OK);
    MPIDI_avrm.stored_reason = reason;
    /* only the builtin communicators exist while addresses are inserted */
    if (MPIR_Process.comm_world && MPIDI_COMM(MPIR_Process.comm_world, map).size)
        avrm_map_reseal(MPIDI_avrm.ctx, &MPIDI_COMM(MPIR_Process.comm_world, map));
    if (MPIR_Process.comm_self && MPIDI_COMM(MPIR_Process.comm_self, map).size)
        avrm_map_reseal(MPIDI_avrm.ctx, &MPIDI_COMM(MPIR_Process.comm_self, map));
}

/* The netmod inserted peer lpid of group avtid at fi_addr addr. The local
 * bit set at creation is kept. */
int MPIDIU_av_set_addr(int avtid, int lpid, uint64_t addr)
{
    avrm_av_t *av = MPIDI_avrm.ctx->avs[avtid];
    int is_local = (avrm_av_ave(av, (avrm_lpid_t) lpid) & AVRM_AVE_LOCAL) != 0;

    if (av->computed && addr != (uint64_t) lpid)
        MPIDIU_avrm_require_stored("the provider's fi_addr values do not follow the rank");
    if (avrm_av_set(av, (avrm_lpid_t) lpid, addr, is_local, NULL) != AVRM_OK)
        return MPI_ERR_INTERN;  /* fi_addr wider than 63 bits */
    return MPI_SUCCESS;
}

#endif /* CH4_AVRM_AV_H_INCLUDED */
