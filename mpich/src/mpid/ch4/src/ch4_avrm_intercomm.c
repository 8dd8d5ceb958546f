/*
 * ch4_avrm_intercomm.c - MPI_Intercomm_create's exchange of the two groups
 * (MPID_Intercomm_exchange_map, ch4_comm.c, calls MPIDIU_intercomm_exchange
 * first) when both groups are processes of the world: a group whose rank
 * map is a formula (avrm_formula_t: offset runs, strides, blocks, as splits
 * and group ranges make them) crosses as that formula, 16 bytes, in place
 * of its list of processes; any other group as its list of world ranks
 * (4 B each). A group with processes of other worlds (spawn, connect) takes
 * MPICH's exchange of process names, told so by the same first message.
 *
 * The protocol. Each leader sends its peer leader a hello of 8 ints (the
 * group's size, whether every member is of the world, whether a formula
 * follows, the formula, the world rank of its rank 0), then its list when
 * it has no formula, and receives the same. It checks that the groups are
 * disjoint and broadcasts 9 ints to its group (the remote size, low or
 * high, the remote formula or none, an error or MPICH's exchange to
 * follow), then the remote list when there was no formula. So a regular
 * group costs every process O(1) bytes where MPICH moves 8 B per remote
 * process into each. Overlapping groups are an MPI_ERR_COMM in every
 * process of both groups (MPICH's leaders return it and their groups wait).
 *
 * The remote group reaches MPID_Create_intercomm_from_lpids in MPICH's
 * gpid list: MPIDIU_GPID_FORMULA, then the formula in two words
 * (MPIDIU_gpids_formula decodes it; ch4_avrm.h).
 *
 * Thread safety: a collective of the local group and the leaders' peer
 * communicator, as MPI_Intercomm_create; map builds and rank indexes are
 * libavrm writers, under MPIDIU_THREAD_UTIL_MUTEX.
 *
 * Costs: a leader decodes each member of its group once (the world test,
 * and its list when there is no formula) and, with error checking, each
 * member of one group to find it in the other: O(1) each in a formula (a
 * rank index of a formula that needs one, 4 B per rank, while it checks);
 * between two lists, a bitmap over one list's span when no larger than the
 * list, else that list sorted.
 */
#include <limits.h>
#include "mpidimpl.h"
#include "ch4_avrm.h"
#include "mpir_avrm_errno.h"

/* the leaders' hello, ints */
enum { HELLO_SIZE, HELLO_FLAGS, HELLO_LPID0, HELLO_FORMULA, HELLO_N = HELLO_FORMULA + 4 };
#define HELLO_WORLD   1         /* every member is a process of the world */
#define HELLO_HAS_FORMULA 2     /* HELLO_FORMULA.. hold the group's formula, no list follows */

/* what a leader tells its group, ints */
enum { INFO_STATUS, INFO_REMOTE_SIZE, INFO_LOW, INFO_HAS_FORMULA, INFO_FORMULA,
    INFO_SHARED = INFO_FORMULA + 4, INFO_N };
enum {
    STATUS_DONE,                /* the remote group follows (its list unless a formula) */
    STATUS_MPICH,               /* not both of the world: MPICH's exchange follows */
    STATUS_OVERLAP,             /* INFO_SHARED is in both groups */
    STATUS_FAILED               /* the leaders' exchange failed */
};

static void formula_to_ints(const avrm_formula_t * f, int *w)
{
    w[0] = f->offset;
    w[1] = f->stride;
    w[2] = (int) f->bs;
    w[3] = (int) f->size;
}

static void formula_from_ints(const int *w, avrm_formula_t * f)
{
    *f = (avrm_formula_t) {.offset = w[0],.stride = w[1],.bs = (uint32_t) w[2],
        .size = (uint32_t) w[3] };
}

/* The gpid list of MPID_Intercomm_exchange_map for a remote formula. */
static int gpids_of_formula(const avrm_formula_t * f, uint64_t ** out)
{
    uint64_t *g = MPL_malloc(3 * sizeof(uint64_t), MPL_MEM_COMM);
    if (!g)
        return MPIR_avrm_err(AVRM_ERR_NOMEM, "intercomm remote group formula");
    g[0] = MPIDIU_GPID_FORMULA;
    g[1] = (uint64_t) (uint32_t) f->offset << 32 | (uint32_t) f->stride;
    g[2] = (uint64_t) f->bs << 32 | f->size;
    *out = g;
    return MPI_SUCCESS;
}

/* The gpid list of n world ranks held as ints at its start, widened in
 * place (from the top down: word i overwrites ints 2i and 2i + 1, read
 * already). */
static void widen_lpids(uint64_t * g, int n)
{
    const int *l = (const int *) g;
    for (int i = n - 1; i >= 0; i--)
        g[i] = MPIDIU_GPID_CREATE(0, (uint32_t) l[i]);
}

/* Is every member of comm's group a process of the world? O(1) for a map
 * of one group, one decode per member otherwise (as MPICH's test). */
static int group_is_world(MPIR_Comm * comm)
{
    const avrm_rankmap_t *m = &MPIDI_COMM(comm, map);
    if (!avrm_map_is_multi(m))
        return m->pgid == 0;
    for (int i = 0; i < comm->local_size; i++) {
        int lpid, avtid;
        MPIDIU_comm_rank_to_pid(comm, i, &lpid, &avtid);
        if (avtid != 0)
            return 0;
    }
    return 1;
}

/* One group as a leader sees it: a formula's map, or a list of world ranks. */
typedef struct side {
    const avrm_rankmap_t *map;  /* NULL: list */
    const int *list;
    int size;
} side_t;

static int side_lpid(const side_t * s, int i)
{
    avrm_pgid_t g;
    return s->map ? (int) avrm_map_lpid(MPIDI_avrm.ctx, s->map, (uint32_t) i, &g) : s->list[i];
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

/* A world rank in both groups, or -1 in *shared. A formula side is searched
 * for each member of the other (O(1) each; a rank index of the formula's
 * map while it searches, if its form needs one). Of two lists, one is
 * marked in a bitmap over the span of its ranks when that takes no more
 * bytes than the list itself, else sorted (a copy), and the other's
 * members looked up there. */
static int groups_overlap(const side_t * a, const side_t * b, int *shared)
{
    int mpi_errno = MPI_SUCCESS;
    avrm_rank_index_t *idx = NULL;
    int *sorted = NULL;
    uint8_t *bits = NULL;
    int lo = INT_MAX, hi = -1;
    if (!a->map) {
        const side_t *t = a;
        a = b;
        b = t;
    }
    *shared = -1;
    if (a->map && avrm_map_find_needs_index(a->map)) {
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        avrm_status_t st = avrm_rank_index_build(MPIDI_avrm.ctx, a->map, &idx);
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        mpi_errno = MPIR_avrm_err(st, "rank index for the intercomm groups' overlap check");
        MPIR_ERR_CHECK(mpi_errno);
    } else if (!a->map) {
        for (int i = 0; i < a->size; i++) {
            lo = MPL_MIN(lo, a->list[i]);
            hi = MPL_MAX(hi, a->list[i]);
        }
        size_t span = (size_t) (hi - lo) + 1;
        if (span / 8 <= (size_t) a->size * sizeof(int)) {
            bits = MPL_calloc(span / 8 + 1, 1, MPL_MEM_COMM);
            for (int i = 0; bits && i < a->size; i++)
                bits[(a->list[i] - lo) / 8] |= (uint8_t) (1u << ((a->list[i] - lo) % 8));
        } else if ((sorted = MPL_malloc((size_t) a->size * sizeof(int), MPL_MEM_COMM))) {
            memcpy(sorted, a->list, (size_t) a->size * sizeof(int));
            qsort(sorted, (size_t) a->size, sizeof(int), int_cmp);
        }
        if (!bits && !sorted) {
            mpi_errno = MPIR_avrm_err(AVRM_ERR_NOMEM, "intercomm groups' overlap check");
            goto fn_fail;
        }
    }
    for (int i = 0; i < b->size && *shared < 0; i++) {
        int l = side_lpid(b, i);
        avrm_gpid_t g = {.lpid = (avrm_lpid_t) l,.pgid = 0 };
        if (bits ? l >= lo && l <= hi && (bits[(l - lo) / 8] >> ((l - lo) % 8) & 1)
            : sorted ? bsearch(&l, sorted, (size_t) a->size, sizeof(int), int_cmp) != NULL
            : avrm_map_find(MPIDI_avrm.ctx, a->map, idx, g) >= 0)
            *shared = l;
    }
  fn_exit:
    if (idx) {
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        avrm_rank_index_free(MPIDI_avrm.ctx, idx);
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    }
    MPL_free(sorted);
    MPL_free(bits);
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}

/* The leader's part: hello and lists with the remote leader, the overlap
 * check, and info for its group. *list: the remote list as ints at the
 * start of a buffer of remote_size words (widened after the broadcast), or
 * NULL. An error return leaves info[INFO_STATUS] STATUS_FAILED. */
static int leader_exchange(MPIR_Comm * local_comm, MPIR_Comm * peer_comm, int remote_leader,
                           int *info, uint64_t ** list)
{
    int mpi_errno = MPI_SUCCESS;
    MPIR_Errflag_t errflag = MPIR_ERR_NONE;
    const int tag = MPIR_TAG_COLL_BIT;  /* MPICH's exchange uses the same */
    const avrm_rankmap_t *lm = &MPIDI_COMM(local_comm, map);
    int n = local_comm->local_size, hello[HELLO_N] = { 0 }, rhello[HELLO_N];
    int *local_list = NULL, lpid, avtid;
    avrm_formula_t lf, rf;
    avrm_rankmap_t rmap;
    int have_rmap = 0;
    avrm_pgid_t g;

    info[INFO_STATUS] = STATUS_FAILED;
    *list = NULL;
    MPIDIU_comm_rank_to_pid(peer_comm, remote_leader, &lpid, &avtid);
    int world = avtid == 0 && group_is_world(local_comm);
    int has_f = world && avrm_map_formula(lm, &lf);
    hello[HELLO_SIZE] = n;
    hello[HELLO_FLAGS] = (world ? HELLO_WORLD : 0) | (has_f ? HELLO_HAS_FORMULA : 0);
    hello[HELLO_LPID0] = world ? (int) avrm_map_lpid(MPIDI_avrm.ctx, lm, 0, &g) : -1;
    if (has_f)
        formula_to_ints(&lf, hello + HELLO_FORMULA);
    mpi_errno = MPIC_Sendrecv(hello, HELLO_N, MPI_INT, remote_leader, tag, rhello, HELLO_N,
                              MPI_INT, remote_leader, tag, peer_comm, MPI_STATUS_IGNORE, &errflag);
    MPIR_ERR_CHECK(mpi_errno);
    if (!(hello[HELLO_FLAGS] & rhello[HELLO_FLAGS] & HELLO_WORLD)) {
        info[INFO_STATUS] = STATUS_MPICH;
        goto fn_exit;
    }

    int rn = rhello[HELLO_SIZE], rhas_f = (rhello[HELLO_FLAGS] & HELLO_HAS_FORMULA) != 0;
    if (!has_f) {
        local_list = MPL_malloc((size_t) n * sizeof(int), MPL_MEM_COMM);
        if (!local_list) {
            mpi_errno = MPIR_avrm_err(AVRM_ERR_NOMEM, "intercomm local group list");
            goto fn_fail;
        }
        for (int i = 0; i < n; i++)
            local_list[i] = (int) avrm_map_lpid(MPIDI_avrm.ctx, lm, (uint32_t) i, &g);
    }
    if (!rhas_f) {
        *list = MPL_malloc((size_t) rn * sizeof(uint64_t), MPL_MEM_COMM);
        if (!*list) {
            mpi_errno = MPIR_avrm_err(AVRM_ERR_NOMEM, "intercomm remote group list");
            goto fn_fail;
        }
    }
    if (!has_f || !rhas_f) {
        mpi_errno = MPIC_Sendrecv(local_list, has_f ? 0 : n, MPI_INT, remote_leader, tag,
                                  *list, rhas_f ? 0 : rn, MPI_INT, remote_leader, tag, peer_comm,
                                  MPI_STATUS_IGNORE, &errflag);
        MPIR_ERR_CHECK(mpi_errno);
    }

    info[INFO_STATUS] = STATUS_DONE;
    info[INFO_REMOTE_SIZE] = rn;
    info[INFO_LOW] = hello[HELLO_LPID0] < rhello[HELLO_LPID0];
    info[INFO_HAS_FORMULA] = rhas_f;
    memcpy(info + INFO_FORMULA, rhello + HELLO_FORMULA, 4 * sizeof(int));
    info[INFO_SHARED] = -1;
    if (rhas_f) {
        formula_from_ints(rhello + HELLO_FORMULA, &rf);
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        avrm_status_t st = avrm_map_build_formula(MPIDI_avrm.ctx, 0, &rf, &rmap);
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        if (st != AVRM_OK) {
            char what[160];
            snprintf(what, sizeof what, "the remote group's formula (first world rank %d, "
                     "blocks of %u, %d apart, %u ranks)", rf.offset, rf.bs, rf.stride, rf.size);
            mpi_errno = MPIR_avrm_err(st, what);
            goto fn_fail;
        }
        have_rmap = 1;
    }
#ifdef HAVE_ERROR_CHECKING
    {
        MPID_BEGIN_ERROR_CHECKS;
        {
            side_t loc = {.map = has_f ? lm : NULL,.list = local_list,.size = n };
            side_t rem = {.map = rhas_f ? &rmap : NULL,.list = (const int *) *list,.size = rn };
            mpi_errno = groups_overlap(&loc, &rem, &info[INFO_SHARED]);
            MPIR_ERR_CHECK(mpi_errno);
            if (info[INFO_SHARED] >= 0)
                info[INFO_STATUS] = STATUS_OVERLAP;
        }
        MPID_END_ERROR_CHECKS;
    }
#endif

  fn_exit:
    if (have_rmap) {
        MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
        avrm_map_release(MPIDI_avrm.ctx, &rmap);
        MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    }
    MPL_free(local_list);
    return mpi_errno;
  fn_fail:
    info[INFO_STATUS] = STATUS_FAILED;
    goto fn_exit;
}

int MPIDIU_intercomm_exchange(MPIR_Comm * local_comm, int local_leader, MPIR_Comm * peer_comm,
                              int remote_leader, int *remote_size, uint64_t ** remote_gpids,
                              int *is_low_group, int *done)
{
    int mpi_errno = MPI_SUCCESS, leader_errno = MPI_SUCCESS;
    MPIR_Errflag_t errflag = MPIR_ERR_NONE;
    int info[INFO_N] = { 0 };
    uint64_t *list = NULL;
    int leader = local_comm->rank == local_leader;

    *done = 0;
    if (leader)
        leader_errno = leader_exchange(local_comm, peer_comm, remote_leader, info, &list);
    /* every outcome reaches the group, so that none waits for a leader that failed */
    mpi_errno = MPIR_Bcast_allcomm_auto(info, INFO_N, MPI_INT, local_leader, local_comm, &errflag);
    MPIR_ERR_CHECK(mpi_errno);
    switch (info[INFO_STATUS]) {
        case STATUS_MPICH:
            goto fn_exit;
        case STATUS_FAILED:
            mpi_errno = leader_errno;
            if (!leader)
                MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_OTHER, "**fail", "**fail %s",
                                     "the group's leader failed to exchange the groups with the "
                                     "remote leader");
            goto fn_fail;
        case STATUS_OVERLAP:
            MPIR_ERR_SETANDJUMP1(mpi_errno, MPI_ERR_COMM, "**dupprocesses", "**dupprocesses %d",
                                 info[INFO_SHARED]);
        default:
            break;
    }

    *remote_size = info[INFO_REMOTE_SIZE];
    *is_low_group = info[INFO_LOW];
    if (info[INFO_HAS_FORMULA]) {
        avrm_formula_t f;
        formula_from_ints(info + INFO_FORMULA, &f);
        mpi_errno = gpids_of_formula(&f, remote_gpids);
        MPIR_ERR_CHECK(mpi_errno);
    } else {
        if (!leader) {
            /* a process that cannot hold the list returns alone, as in
             * MPICH's exchange */
            list = MPL_malloc((size_t) *remote_size * sizeof(uint64_t), MPL_MEM_COMM);
            if (!list) {
                mpi_errno = MPIR_avrm_err(AVRM_ERR_NOMEM, "intercomm remote group list");
                goto fn_fail;
            }
        }
        mpi_errno = MPIR_Bcast_allcomm_auto(list, *remote_size, MPI_INT, local_leader,
                                            local_comm, &errflag);
        MPIR_ERR_CHECK(mpi_errno);
        widen_lpids(list, *remote_size);
        *remote_gpids = list;
        list = NULL;
    }
    *done = 1;

  fn_exit:
    MPL_free(list);
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}
