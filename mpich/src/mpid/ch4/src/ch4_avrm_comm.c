/*
 * ch4_avrm_comm.c - communicator rank maps built by libavrm: the walker over
 * MPIR's mappers (comm->mapper_head) that replaces stock ch4i_comm.c's
 * builder, the builtin maps (world, self), maps from gpids (intercomms from
 * lpids), the roots-only-PMI init comm, and release at comm free. The maps
 * of MPIR groups are ch4_avrm_group.c's.
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi beside ch4i_comm.c. Its interface: ch4_avrm.h and ch4i_comm.h
 * (the commit pre-hook).
 *
 * Which parent map a mapper reads (kept from stock): a mapper from the local
 * group of an intercomm (L2L, L2R) reads its local_map, every other mapper
 * the source's map. The local part (L2L, R2L) builds an intracomm's map or an
 * intercomm's local_map; the remote part (L2R, R2R) an intercomm's map.
 * An intracomm without a mapper comes with its map: MPI_Comm_split's
 * regular forms (ch4_avrm_split.c), MPI_Comm_create and _create_group (its
 * group's map, MPID_Comm_map_from_group in ch4_avrm_group.c).
 * One DUP mapper -> avrm_map_dup (shared table, O(1)); one IRREGULAR mapper ->
 * avrm_map_build (pattern detection, Table II composition); several mappers
 * (intercomm merge) -> avrm_map_build_multi.
 *
 * Thread safety: builds and releases are libavrm writers; they run under
 * MPIDIU_THREAD_UTIL_MUTEX (see ch4_avrm.h). Costs: O(ranks) per build, O(1)
 * per dup and release (O(table) when the last reference goes).
 */
#include "mpidimpl.h"
#include "ch4i_comm.h"
#include "ch4_avrm.h"
#include "mpir_avrm_errno.h"

/* MPIR_Comm's address-layer fields (MPIDI_Devcomm_t's map and local_map,
 * MPIR_Comm's hier) take 88 bytes where stock's two rank maps and two node
 * table pointers took 96: pinned, so that a change shows here. */
_Static_assert(sizeof(avrm_hier_t) + sizeof(avrm_rankmap_t) + sizeof(avrm_rankmap_t *) == 88,
               "MPIR_Comm's address-layer fields take 88 bytes");

static int is_remote_part(const MPIR_Comm_map_t * mp)
{
    return mp->dir == MPIR_COMM_MAP_DIR__L2R || mp->dir == MPIR_COMM_MAP_DIR__R2R;
}

static int reads_local_group(const MPIR_Comm_map_t * mp)
{
    return mp->dir == MPIR_COMM_MAP_DIR__L2L || mp->dir == MPIR_COMM_MAP_DIR__L2R;
}

static const avrm_rankmap_t *mapper_parent(const MPIR_Comm_map_t * mp)
{
    MPIR_Comm *src = mp->src_comm;
    if (reads_local_group(mp) && src->comm_kind == MPIR_COMM_KIND__INTERCOMM)
        return MPIDIU_comm_local_map(src);
    return &MPIDI_COMM(src, map);
}

static uint32_t mapper_size(const MPIR_Comm_map_t * mp)
{
    if (mp->type == MPIR_COMM_MAP_TYPE__IRREGULAR)
        return (uint32_t) mp->src_mapping_size;
    return (uint32_t) (reads_local_group(mp) ? mp->src_comm->local_size
                       : mp->src_comm->remote_size);
}

/* Build one part (local or remote) of comm from its mappers into *out.
 * *found = 0 when the part has no mapper (out untouched). */
#define BUILD_SMALL_PARENTS 4
#define BUILD_SMALL_SRC 256     /* 2 KiB of stack */
static int build_part(MPIR_Comm * comm, int remote, avrm_rankmap_t * out, int *found)
{
    avrm_ctx_t *ctx = MPIDI_avrm.ctx;
    MPIR_Comm_map_t *mp, *one = NULL;
    uint32_t nmappers = 0, n = 0;
    avrm_status_t st;

    LL_FOREACH(comm->mapper_head, mp) {
        if (is_remote_part(mp) == remote) {
            one = mp;
            nmappers++;
            n += mapper_size(mp);
        }
    }
    *found = nmappers > 0;
    if (nmappers == 0)
        return MPI_SUCCESS;
    if (n == 0) {
        /* an empty group (a side of MPI_Comm_create on an intercomm): a map
         * of size 0, never looked up; release is a no-op */
        memset(out, 0, sizeof(*out));
        out->path = AVRM_PATH_GENERIC;
        return MPI_SUCCESS;
    }
    if (nmappers == 1 && one->type != MPIR_COMM_MAP_TYPE__IRREGULAR) {
        avrm_map_dup(ctx, mapper_parent(one), out);
        return MPI_SUCCESS;
    }
    if (nmappers == 1)
        return MPIR_avrm_err(avrm_map_build(ctx, mapper_parent(one), one->src_mapping, n, out),
                               "communicator rank map");

    /* several mappers, concatenated in list order (intercomm merge). The
     * source list lives on the stack when small: a temporary on the heap
     * would count in the heap cost of every merge. */
    const avrm_rankmap_t *parents_small[BUILD_SMALL_PARENTS], **parents = parents_small;
    avrm_src_t src_small[BUILD_SMALL_SRC], *src = src_small;
    uint32_t k = 0, j = 0;
    if (nmappers > BUILD_SMALL_PARENTS)
        parents = MPL_malloc(nmappers * sizeof(*parents), MPL_MEM_COMM);
    if (n > BUILD_SMALL_SRC)
        src = MPL_malloc(n * sizeof(*src), MPL_MEM_COMM);
    if (!parents || !src) {
        st = AVRM_ERR_NOMEM;
        goto done;
    }
    LL_FOREACH(comm->mapper_head, mp) {
        if (is_remote_part(mp) != remote)
            continue;
        parents[k] = mapper_parent(mp);
        uint32_t sz = mapper_size(mp);
        for (uint32_t i = 0; i < sz; i++, j++) {
            src[j].parent = k;
            src[j].rank = mp->type == MPIR_COMM_MAP_TYPE__IRREGULAR ? mp->src_mapping[i]
                : (int32_t) i;
        }
        k++;
    }
    st = avrm_map_build_multi(ctx, parents, nmappers, src, n, out);
  done:
    if (parents != parents_small)
        MPL_free(parents);
    if (src != src_small)
        MPL_free(src);
    return MPIR_avrm_err(st, "communicator rank map (merge)");
}

/* Local maps of intercomms come from a slab, as MPICH's handle pools serve
 * its own objects: blocks of LOCAL_MAPS_PER_BLOCK maps with a free list
 * threaded through the free slots, so a local map costs its 48 bytes, not a
 * 64-byte malloc chunk. Blocks stay until MPIDIU_comm_local_maps_destroy
 * (finalize). Callers hold MPIDIU_THREAD_UTIL_MUTEX. Cost: O(1), a malloc
 * per block. */
#define LOCAL_MAPS_PER_BLOCK 32
typedef union local_map_slot {
    avrm_rankmap_t map;
    union local_map_slot *next_free;
} local_map_slot_t;
typedef struct local_map_block {
    struct local_map_block *next;
    local_map_slot_t slot[LOCAL_MAPS_PER_BLOCK];
} local_map_block_t;
static struct {
    local_map_block_t *blocks;
    local_map_slot_t *free;
} local_maps;

static avrm_rankmap_t *local_map_alloc(void)
{
    if (!local_maps.free) {
        local_map_block_t *b = MPL_malloc(sizeof(*b), MPL_MEM_COMM);
        if (!b)
            return NULL;
        for (int i = 0; i < LOCAL_MAPS_PER_BLOCK; i++)
            b->slot[i].next_free = i + 1 < LOCAL_MAPS_PER_BLOCK ? &b->slot[i + 1] : NULL;
        b->next = local_maps.blocks;
        local_maps.blocks = b;
        local_maps.free = &b->slot[0];
    }
    local_map_slot_t *s = local_maps.free;
    local_maps.free = s->next_free;
    return &s->map;
}

static void local_map_free(avrm_rankmap_t * m)
{
    local_map_slot_t *s = (local_map_slot_t *) m;
    s->next_free = local_maps.free;
    local_maps.free = s;
}

void MPIDIU_comm_local_maps_destroy(void)
{
    while (local_maps.blocks) {
        local_map_block_t *b = local_maps.blocks;
        local_maps.blocks = b->next;
        MPL_free(b);
    }
    local_maps.free = NULL;
}

/* The commit pre-hook of every communicator but the builtin ones. An
 * intercomm without remote-part mappers got its map from
 * MPID_Create_intercomm_from_lpids. */
int MPIDI_comm_create_rank_map(MPIR_Comm * comm)
{
    int mpi_errno = MPI_SUCCESS, found;
    avrm_rankmap_t local;

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (comm->comm_kind == MPIR_COMM_KIND__INTRACOMM) {
        MPIDI_COMM(comm, local_map) = NULL;
        if (!comm->mapper_head) {
            /* MPID_Comm_split_regular or MPID_Comm_map_from_group built the
             * map (the intracomms made without a mapper); anything else is
             * a bug, not an assertion that a build without them would skip */
            MPIR_ERR_CHKINTERNAL(MPIDI_COMM(comm, map).size != (uint32_t) comm->local_size,
                                 mpi_errno, "intracomm without a mapper or a rank map");
        } else {
            memset(&MPIDI_COMM(comm, map), 0, sizeof(avrm_rankmap_t));
            mpi_errno = build_part(comm, 0, &MPIDI_COMM(comm, map), &found);
            MPIR_ERR_CHECK(mpi_errno);
            MPIR_Assert(found);
        }
    } else {
        /* remote part (or the map MPIDIU_comm_map_from_gpids made), then the
         * local one; on failure neither is kept, so that freeing the comm
         * drops no reference it never took */
        avrm_rankmap_t remote;
        avrm_rankmap_t *slot = NULL;
        MPIDI_COMM(comm, local_map) = NULL;
        mpi_errno = build_part(comm, 1, &remote, &found);
        if (mpi_errno) {
            /* only a part with mappers can fail: comm's map was never set */
            memset(&MPIDI_COMM(comm, map), 0, sizeof(avrm_rankmap_t));
            goto fn_fail;
        }
        if (found)
            MPIDI_COMM(comm, map) = remote;
        mpi_errno = build_part(comm, 0, &local, &found);
        if (mpi_errno == MPI_SUCCESS) {
            MPIR_Assert(found);
            slot = local_map_alloc();
            if (!slot) {
                avrm_map_release(MPIDI_avrm.ctx, &local);
                mpi_errno = MPIR_avrm_err(AVRM_ERR_NOMEM, "intercomm local rank map");
            }
        }
        if (mpi_errno) {
            avrm_map_release(MPIDI_avrm.ctx, &MPIDI_COMM(comm, map));
            goto fn_fail;
        }
        *slot = local;
        MPIDI_COMM(comm, local_map) = slot;
        MPIDIU_map_ref_groups(slot, 1);
    }
    MPIDIU_map_ref_groups(&MPIDI_COMM(comm, map), 1);
  fn_exit:
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* comm_world: the world group; comm_self: my own rank of it. Built before
 * the netmod inserts addresses: the map caches the world AV's entry array
 * (none for a computed AV; if it moves after, ch4_avrm_av.c reseals). */
int MPIDIU_comm_set_builtin_map(MPIR_Comm * comm)
{
    avrm_ctx_t *ctx = MPIDI_avrm.ctx;
    avrm_status_t st;

    MPIDI_COMM(comm, local_map) = NULL;
    if (comm == MPIR_Process.comm_world) {
        st = avrm_map_init_group(ctx, 0, &MPIDI_COMM(comm, map));
    } else {
        avrm_rankmap_t world;
        int32_t me = MPIR_Process.rank;
        st = avrm_map_init_group(ctx, 0, &world);
        if (st == AVRM_OK) {
            st = avrm_map_build(ctx, &world, &me, 1, &MPIDI_COMM(comm, map));
            avrm_map_release(ctx, &world);
        }
    }
    if (st == AVRM_OK)
        MPIDIU_map_ref_groups(&MPIDI_COMM(comm, map), 1);
    if (st == AVRM_OK && comm == MPIR_Process.comm_world)
        MPIDIU_avt_world_map_sealed(&MPIDI_COMM(comm, map));
    return MPIR_avrm_err(st, "builtin communicator rank map");
}

void MPIDIU_comm_release_maps(MPIR_Comm * comm)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (MPIDI_COMM(comm, local_map)) {
        MPIDIU_map_ref_groups(MPIDI_COMM(comm, local_map), 0);
        avrm_map_release(MPIDI_avrm.ctx, MPIDI_COMM(comm, local_map));
        local_map_free(MPIDI_COMM(comm, local_map));
        MPIDI_COMM(comm, local_map) = NULL;
    }
    if (comm == MPIR_Process.comm_world)
        MPIDI_avrm.world_ents = NULL;
    MPIDIU_map_ref_groups(&MPIDI_COMM(comm, map), 0);
    avrm_map_release(MPIDI_avrm.ctx, &MPIDI_COMM(comm, map));
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
}

/* A gpid list that carries a formula of the world (ch4_avrm.h): its
 * MPIDIU_GPID_FORMULA marker, then the formula in two words. */
int MPIDIU_gpids_formula(int size, const uint64_t gpids[], avrm_formula_t * f)
{
    if (size < 1 || gpids[0] != MPIDIU_GPID_FORMULA)
        return 0;
    *f = (avrm_formula_t) {.offset = (int32_t) (gpids[1] >> 32),.stride = (int32_t) gpids[1],
        .bs = (uint32_t) (gpids[2] >> 32),.size = (uint32_t) gpids[2] };
    return 1;
}

/* Remote group of an intercomm known by gpids (avtid << 32 | lpid), or by
 * a formula of the world (MPIDIU_gpids_formula), before its commit. */
int MPIDIU_comm_map_from_gpids(MPIR_Comm * comm, int size, const uint64_t gpids[])
{
    avrm_formula_t f;
    avrm_gpid_t *g = NULL;
    avrm_status_t st = AVRM_ERR_NOMEM;

    if (MPIDIU_gpids_formula(size, gpids, &f)) {
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        st = avrm_map_build_formula(MPIDI_avrm.ctx, 0, &f, &MPIDI_COMM(comm, map));
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    } else if ((g = MPL_malloc(size * sizeof(*g), MPL_MEM_COMM))) {
        for (int i = 0; i < size; i++) {
            g[i].lpid = (avrm_lpid_t) MPIDIU_GPID_GET_LPID(gpids[i]);
            g[i].pgid = (avrm_pgid_t) MPIDIU_GPID_GET_AVTID(gpids[i]);
            g[i].reserved = 0;
        }
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        st = avrm_map_build_gpids(MPIDI_avrm.ctx, g, (uint32_t) size, &MPIDI_COMM(comm, map));
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        MPL_free(g);
    }
    return MPIR_avrm_err(st, "intercomm remote rank map");
}

/* The node-roots init comm of MPIR_CVAR_CH4_ROOTS_ONLY_PMI: world ranks
 * MPIR_Process_node_root(0..num_nodes), listed for the build (O(nodes) while
 * it runs; that mode inserts every world address eagerly anyway). Not
 * committed: no group references. */
int MPIDIU_comm_map_node_roots(MPIR_Comm * comm)
{
    int n = MPIR_Process.num_nodes;
    MPIDI_COMM(comm, local_map) = NULL;
    int32_t *roots = MPL_malloc((size_t) n * sizeof(*roots), MPL_MEM_ADDRESS);
    if (!roots)
        return MPIR_avrm_err(AVRM_ERR_NOMEM, "list of the node roots");
    for (int e = 0; e < n; e++)
        roots[e] = MPIR_Process_node_root(e);
    int mpi_errno = MPIR_avrm_err(avrm_map_build(MPIDI_avrm.ctx,
                                                   &MPIDI_COMM(MPIR_Process.comm_world, map),
                                                   roots, (uint32_t) n, &MPIDI_COMM(comm, map)),
                                    "node roots rank map");
    MPL_free(roots);
    return mpi_errno;
}
