/*
 * ch4_avrm_group.c - the device side of MPIR groups on libavrm rank maps
 * (MPID_Rank_map_*, MPID_Comm_rank_map, MPID_Comm_map_from_group; declared
 * in mpidch4.h, called by group_avrm.c and comm_impl.c): a group's map is
 * built, dup'd and released here, like a communicator's, so that it holds
 * references on its process groups too; and its rank index
 * (MPID_Rank_map_index) is built once per group under the same lock. A
 * group map never translates a send: libavrm's compact builders make it
 * (the world minus k ranks is k + 1 segments, not a table).
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi (patch groups-on-avrm lists it in Makefile.in).
 *
 * Thread safety: builds, dups, releases and index builds are libavrm
 * writers, under MPIDIU_THREAD_UTIL_MUTEX (see ch4_avrm.h); a published
 * rank index is read without a lock. Costs: O(members) per build, O(1) per
 * dup and release (O(table) when the last reference goes), O(members) per
 * rank index, once.
 */
#include "mpidimpl.h"
#include "ch4_avrm.h"
#include "mpir_avrm_errno.h"

const avrm_rankmap_t *MPID_Comm_rank_map(MPIR_Comm * comm, int remote)
{
    if (comm->comm_kind == MPIR_COMM_KIND__INTERCOMM && !remote)
        return MPIDIU_comm_local_map(comm);
    return &MPIDI_COMM(comm, map);
}

/* A new group map takes a reference on each process group of its members. */
static int group_map_done(avrm_status_t st, avrm_rankmap_t * out, const char *what)
{
    if (st == AVRM_OK)
        MPIDIU_map_ref_groups(out, 1);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return MPIR_avrm_err(st, what);
}

int MPID_Rank_map_dup(const avrm_rankmap_t * in, avrm_rankmap_t * out)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    avrm_map_dup(MPIDI_avrm.ctx, in, out);
    return group_map_done(AVRM_OK, out, "group rank map");
}

int MPID_Rank_map_build(const avrm_rankmap_t * parent, const int mapping[], int n,
                        avrm_rankmap_t * out)
{
    avrm_rankmap_t world;
    avrm_status_t st = AVRM_OK;
    int own_world = 0;          /* world was made here: release it */

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (!parent && !mapping) {  /* the world itself */
        st = avrm_map_init_group(MPIDI_avrm.ctx, 0, out);
        return group_map_done(st, out, "world group rank map");
    }
    if (!parent) {
        st = avrm_map_init_group(MPIDI_avrm.ctx, 0, &world);
        own_world = st == AVRM_OK;
        parent = &world;
    }
    if (st == AVRM_OK)
        st = avrm_map_build_compact(MPIDI_avrm.ctx, parent, (const int32_t *) mapping,
                                    (uint32_t) n, out);
    if (own_world)
        avrm_map_release(MPIDI_avrm.ctx, &world);
    return group_map_done(st, out, "group rank map");
}

int MPID_Rank_map_build_multi(const avrm_rankmap_t * const parents[], int nparents,
                              const avrm_src_t src[], int n, avrm_rankmap_t * out)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    avrm_status_t st = avrm_map_build_multi_compact(MPIDI_avrm.ctx, parents, (uint32_t) nparents,
                                                    src, (uint32_t) n, out);
    return group_map_done(st, out, "group rank map (union)");
}

/* The references go after the map has been read (see MPIDIU_map_ref_groups). */
void MPID_Rank_map_release(avrm_rankmap_t * m)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    MPIDIU_map_ref_groups(m, 0);
    avrm_map_release(MPIDI_avrm.ctx, m);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
}

/* A group's rank index (MPIR_Group_build_index): the first thread to need it
 * builds it under the writers' lock; a thread that raced it there finds it
 * built. Published with a release store: MPIR_Group_index tests it with an
 * acquire load and no lock. */
int MPID_Rank_map_index(const avrm_rankmap_t * m, avrm_rank_index_t ** idx)
{
    avrm_status_t st = AVRM_OK;

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    if (!__atomic_load_n(idx, __ATOMIC_RELAXED)) {
        avrm_rank_index_t *built = NULL;
        st = avrm_rank_index_build(MPIDI_avrm.ctx, m, &built);
        __atomic_store_n(idx, built, __ATOMIC_RELEASE);
    }
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return MPIR_avrm_err(st, "group rank index");
}

void MPID_Rank_map_index_free(avrm_rank_index_t * idx)
{
    if (!idx)
        return;
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    avrm_rank_index_free(MPIDI_avrm.ctx, idx);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
}


/* MPI_Comm_create and MPI_Comm_create_group: the new intracommunicator's
 * map is its group's, set before its commit, with no mapper and no mapping
 * array of the group's size: a dup (O(1), a table shared), or, for a
 * group's MSEG map (groups take the compact builders; MSEG is the slow
 * class on the send path), what the plain builder makes of those ranks. */
int MPID_Comm_map_from_group(MPIR_Comm * comm, MPIR_Group * group)
{
    avrm_status_t st = AVRM_OK;

    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    memset(&MPIDI_COMM(comm, map), 0, sizeof(avrm_rankmap_t));
    if (group->map.mode != AVRM_MODE_MSEG)
        avrm_map_dup(MPIDI_avrm.ctx, &group->map, &MPIDI_COMM(comm, map));
    else
        st = avrm_map_build_affine(MPIDI_avrm.ctx, &group->map, 0, 1, (uint32_t) group->size,
                                   &MPIDI_COMM(comm, map));
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return MPIR_avrm_err(st, "communicator rank map from its group");
}
