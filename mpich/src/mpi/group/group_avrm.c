/*
 * group_avrm.c - MPI groups on libavrm rank maps (mpir_group.h,
 * group_avrm.h): a group holds a map, not a member array. A new group's
 * map is built from its parent's (or two parents') with a mapping array,
 * or shares its communicator's; a member is looked up in another group
 * through that group's map inverse (avrm_find.h: O(1) for regular groups,
 * O(log n) with the rank index of a table map). grouputil.c and
 * group_impl.c keep MPICH's object management and the MPI entry points,
 * which call these.
 *
 * Our file, added to the MPICH tree by patches/mpich/series (patch
 * groups-on-avrm compiles it into libmpi).
 *
 * Thread safety: the constructors are libavrm writers, serialized by the
 * device (MPID_Rank_map_* take CH4's utility lock); lookups are lock-free
 * readers once the group's rank index exists (MPIR_Group_index). Cost: a
 * constructor O(n) for n members (O(1) when a map is shared), a lookup as
 * above; temporaries are O(size) ints, as MPICH's.
 */
#include "mpiimpl.h"
#include "group_avrm.h"

/* A group object around a map just built (or the error of its build). */
static int group_from_map(int mpi_errno, avrm_rankmap_t * map, int rank,
                          MPIR_Group ** new_group_ptr)
{
    MPIR_Group *g = NULL;

    if (mpi_errno)
        return mpi_errno;       /* the build failed: no map */
    mpi_errno = MPIR_Group_create((int) map->size, &g);
    if (mpi_errno) {
        MPID_Rank_map_release(map);
        return mpi_errno;
    }
    g->map = *map;
    g->rank = rank;
    *new_group_ptr = g;
    return MPI_SUCCESS;
}

int MPIR_Group_create_incl(MPIR_Group * parent, int n, const int mapping[],
                           MPIR_Group ** new_group_ptr)
{
    avrm_rankmap_t map;
    int my_parent_rank = parent ? parent->rank : MPIR_Process.rank;
    int rank = MPI_UNDEFINED;

    if (!mapping)               /* the world itself */
        rank = my_parent_rank;
    for (int i = 0; mapping && i < n && rank == MPI_UNDEFINED; i++)
        if (mapping[i] == my_parent_rank)
            rank = i;
    int mpi_errno = MPID_Rank_map_build(parent ? &parent->map : NULL, mapping, n, &map);
    return group_from_map(mpi_errno, &map, rank, new_group_ptr);
}

int MPIR_Group_create_from_comm(MPIR_Comm * comm, int remote, MPIR_Group ** new_group_ptr)
{
    avrm_rankmap_t map;
    int mpi_errno = MPID_Rank_map_dup(MPID_Comm_rank_map(comm, remote), &map);
    return group_from_map(mpi_errno, &map, remote ? MPI_UNDEFINED : comm->rank, new_group_ptr);
}

int MPIR_Group_create_union(MPIR_Group * g1, MPIR_Group * g2, int n2, const int ranks2[],
                            MPIR_Group ** new_group_ptr)
{
    int mpi_errno = MPI_SUCCESS;
    int n = g1->size + n2, rank = g1->rank;
    const avrm_rankmap_t *parents[2] = { &g1->map, &g2->map };
    avrm_rankmap_t map;

    if (n2 == 0) {      /* g2 adds nobody: g1's members, its map shared (O(1)) */
        mpi_errno = MPID_Rank_map_dup(&g1->map, &map);
        return group_from_map(mpi_errno, &map, rank, new_group_ptr);
    }
    avrm_src_t *src = MPL_malloc((size_t) n * sizeof(*src), MPL_MEM_GROUP);
    MPIR_ERR_CHKANDJUMP2(!src, mpi_errno, MPI_ERR_NO_MEM, "**nomem2", "**nomem2 %d %s",
                         (int) ((size_t) n * sizeof(*src)), "group union sources");
    for (int i = 0; i < g1->size; i++)
        src[i] = (avrm_src_t) { 0, i };
    for (int j = 0; j < n2; j++) {
        src[g1->size + j] = (avrm_src_t) { 1, ranks2[j] };
        if (rank == MPI_UNDEFINED && ranks2[j] == g2->rank)
            rank = g1->size + j;
    }
    mpi_errno = MPID_Rank_map_build_multi(parents, 2, src, n, &map);
    MPL_free(src);
    mpi_errno = group_from_map(mpi_errno, &map, rank, new_group_ptr);
  fn_fail:
    return mpi_errno;
}

int MPIR_Group_build_index(MPIR_Group * group)
{
    return MPID_Rank_map_index(&group->map, &group->rank_index);
}

int MPII_Group_ranks_in(MPIR_Group * g1, MPIR_Group * g2, int *ranks)
{
    int mpi_errno = MPIR_Group_index(g2);
    if (mpi_errno)
        return mpi_errno;
    for (int i = 0; i < g1->size; i++)
        ranks[i] = i;
    avrm_map_translate(MPIR_Avrm_ctx, &g1->map, ranks, (uint32_t) g1->size, &g2->map,
                       g2->rank_index, MPI_UNDEFINED, ranks);
    return MPI_SUCCESS;
}

int MPIR_Group_find_lpid(MPIR_Group * group, uint64_t lpid, int *rank_p)
{
    avrm_gpid_t g = { .lpid = (avrm_lpid_t) lpid, .pgid = (avrm_pgid_t) (lpid >> 32) };

    *rank_p = MPI_UNDEFINED;
    if (group->size == 0)
        return MPI_SUCCESS;
    int mpi_errno = MPIR_Group_index(group);
    if (mpi_errno)
        return mpi_errno;
    int64_t r = avrm_map_find(MPIR_Avrm_ctx, &group->map, group->rank_index, g);
    if (r >= 0)
        *rank_p = (int) r;
    return MPI_SUCCESS;
}

/* mapping[k++] = i for every member i of g1 that is (want = 1) or is not
 * (want = 0) in g2; *k_out = count. mapping: g1->size ints. */
int MPII_Group_select_members(MPIR_Group * g1, MPIR_Group * g2, int want, int *mapping,
                              int *k_out)
{
    /* each member's rank in g2 (or MPI_UNDEFINED), in place, then kept or not */
    int mpi_errno = MPII_Group_ranks_in(g1, g2, mapping), k = 0;

    if (mpi_errno)
        return mpi_errno;
    for (int i = 0; i < g1->size; i++)
        if ((mapping[i] != MPI_UNDEFINED) == want)
            mapping[k++] = i;
    *k_out = k;
    return MPI_SUCCESS;
}

/* The members of g1 selected by MPII_Group_select_members, or MPI_GROUP_EMPTY. */
int MPII_Group_select(MPIR_Group * g1, MPIR_Group * g2, int want, MPIR_Group ** new_group_ptr)
{
    int mpi_errno = MPI_SUCCESS, nnew = 0;
    int *mapping = NULL;
    MPIR_CHKLMEM_DECL(1);

    MPIR_CHKLMEM_MALLOC(mapping, int *, (g1->size + 1) * sizeof(int), mpi_errno, "mapping",
                        MPL_MEM_GROUP);
    mpi_errno = MPII_Group_select_members(g1, g2, want, mapping, &nnew);
    MPIR_ERR_CHECK(mpi_errno);
    if (nnew == 0)
        *new_group_ptr = MPIR_Group_empty;
    else
        mpi_errno = MPIR_Group_create_incl(g1, nnew, mapping, new_group_ptr);

  fn_exit:
    MPIR_CHKLMEM_FREEALL();
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

int MPII_Group_compare(MPIR_Group * group_ptr1, MPIR_Group * group_ptr2, int *result)
{
    int mpi_errno = MPI_SUCCESS;
    int size = group_ptr1->size, i, nsame = 0;

    if (size != group_ptr2->size) {
        *result = MPI_UNEQUAL;
        goto fn_exit;
    }
    /* the same map (a dup, or the group of one communicator twice): O(1) */
    if (memcmp(&group_ptr1->map, &group_ptr2->map, sizeof(avrm_rankmap_t)) == 0) {
        *result = MPI_IDENT;
        goto fn_exit;
    }
    for (i = 0; i < size; i++)
        if (MPIR_Group_lpid(group_ptr1, i) != MPIR_Group_lpid(group_ptr2, i))
            break;
    if (i == size) {
        *result = MPI_IDENT;
        goto fn_exit;
    }
    /* the same processes in another order? libavrm tells without a
     * translation for two progressions (O(1)); -1 leaves it to the
     * translation below */
    int same = avrm_map_same_members(MPIR_Avrm_ctx, &group_ptr1->map, &group_ptr2->map);
    if (same >= 0) {
        *result = same ? MPI_SIMILAR : MPI_UNEQUAL;
        goto fn_exit;
    }
    /* a group has no repeated process: same size and every member of 1 in 2
     * means the same set. Scratch on the stack below COMPARE_STACK members:
     * a malloc per call cost small groups 1-2 ns per member (grouptime). */
    enum { COMPARE_STACK = 256 };
    int small[COMPARE_STACK + 1];
    int *mapping = size < COMPARE_STACK ? small : MPL_malloc((size + 1) * sizeof(int),
                                                            MPL_MEM_GROUP);
    MPIR_ERR_CHKANDJUMP2(!mapping, mpi_errno, MPI_ERR_NO_MEM, "**nomem2", "**nomem2 %d %s",
                         (int) ((size + 1) * sizeof(int)), "group compare scratch");
    mpi_errno = MPII_Group_select_members(group_ptr1, group_ptr2, 1, mapping, &nsame);
    if (mapping != small)
        MPL_free(mapping);
    MPIR_ERR_CHECK(mpi_errno);
    *result = nsame == size ? MPI_SIMILAR : MPI_UNEQUAL;

  fn_exit:
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* The members of g whose flag is 0, in rank order (flags: g->size bytes). */
int MPII_Group_unflagged(MPIR_Group * group_ptr, const char *flags, int nnew,
                         MPIR_Group ** new_group_ptr)
{
    int mpi_errno = MPI_SUCCESS, k = 0;
    int *mapping = NULL;
    MPIR_CHKLMEM_DECL(1);

    if (nnew == 0) {
        *new_group_ptr = MPIR_Group_empty;
        goto fn_exit;
    }
    MPIR_CHKLMEM_MALLOC(mapping, int *, nnew * sizeof(int), mpi_errno, "mapping", MPL_MEM_GROUP);
    for (int i = 0; i < group_ptr->size; i++)
        if (!flags[i])
            mapping[k++] = i;
    MPIR_Assert(k == nnew);
    mpi_errno = MPIR_Group_create_incl(group_ptr, nnew, mapping, new_group_ptr);

  fn_exit:
    MPIR_CHKLMEM_FREEALL();
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* Ranks named by n (first, last, stride) triples, in order, into out (or
 * only counted when out is NULL). Error checking has guaranteed stride != 0. */
int MPII_Group_range_ranks(int n, int ranges[][3], int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        /* in 64 bits: j + stride and last - first overflow int near the limits */
        int64_t nsteps = ((int64_t) last - first) / stride;
        for (int64_t t = 0; t <= nsteps; t++) {
            if (out)
                out[k] = (int) (first + t * stride);
            k++;
        }
    }
    return k;
}

/* Each member of group looked up in comm's local group, the group the
 * communicator keeps (MPIR_Comm_group_impl; avrm_map_find: O(1) in a
 * formula, O(log n) through the rank index an irregular communicator's
 * group builds once and keeps): ranks[i] = its rank in comm (ranks NULL:
 * only checked); an error of class MPI_ERR_GROUP naming the first member
 * that is not in comm. Nothing of the group's size is allocated. */
static int members_in_comm(MPIR_Group * group_ptr, MPIR_Comm * comm_ptr, int ranks[])
{
    MPIR_Group *comm_group = NULL;

    MPIR_Assert(group_ptr != NULL);

    int mpi_errno = MPIR_Comm_group_impl(comm_ptr, &comm_group);
    MPIR_ERR_CHECK(mpi_errno);
    mpi_errno = MPIR_Group_index(comm_group);
    MPIR_ERR_CHECK(mpi_errno);
    for (int i = 0; i < group_ptr->size; i++) {
        avrm_pgid_t pg;
        avrm_gpid_t g = {.lpid = avrm_map_lpid(MPIR_Avrm_ctx, &group_ptr->map, (uint32_t) i, &pg) };
        g.pgid = pg;
        int64_t r = avrm_map_find(MPIR_Avrm_ctx, &comm_group->map, comm_group->rank_index, g);
        if (r < 0) {
            MPIR_ERR_SET1(mpi_errno, MPI_ERR_GROUP, "**groupnotincomm", "**groupnotincomm %d", i);
            break;
        }
        if (ranks)
            ranks[i] = (int) r;
    }

  fn_exit:
    if (comm_group)
        MPIR_Group_release(comm_group);
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* MPI_Comm_create of an intercommunicator: the mapping of the local group. */
int MPIR_Group_ranks_in_comm(MPIR_Group * group_ptr, MPIR_Comm * comm_ptr, int ranks[])
{
    return members_in_comm(group_ptr, comm_ptr, ranks);
}

/* MPI_Comm_create and MPI_Comm_create_group, with error checking. */
int MPIR_Group_check_subset(MPIR_Group * group_ptr, MPIR_Comm * comm_ptr)
{
    return members_in_comm(group_ptr, comm_ptr, NULL);
}
