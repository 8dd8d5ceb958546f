/*
 * ch4_avrm_split.c - MPI_Comm_split of an intracommunicator without
 * gathering the parent: the messages of libavrm's protocol (avrm_split.h)
 * and the new communicator, its rank map a formula over the parent's
 * (avrm_map_build_affine). comm_split.c calls MPID_Comm_split_regular first;
 * when no regular form holds, a parent of MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE
 * processes or more sorts (colour, key, rank) across its processes
 * (split_sorted), a smaller one returns to comm_split.c, which gathers
 * (colour, key) as MPICH does.
 *
 * Our file, added to the MPICH tree by patches/mpich/series and compiled
 * into libmpi (patch comm-split-without-gather lists it in Makefile.in and
 * declares the hook in mpidch4.h).
 *
 * Messages a process sends: 1 word (8 B) to r + 1 and one allreduce of a
 * 72-byte vote, reduced by libavrm's fold as an MPI op; runs of several
 * lengths add 1 word to r - 1 and at most 2 per round of a doubling scan
 * (ceil(log2 P) rounds, 4 B each), a period that its steps do not settle 1
 * word to r + C and an allreduce of 4 B. The context id as MPICH makes it. No
 * allocation per split but the new communicator and its map (O(1) for a
 * regular parent); the op and its datatype are made once, at MPI_Init. A
 * form that does not hold costs those words before the gather or the sort.
 * The sort: avrm_split.h's S1-S3 (at most ceil(log2 P)(ceil(log2 P)+1)/2
 * swaps of 12 B, the run scan, two allreduces of 4 B that agree on
 * failures, an allgather inside the run and one list of the new
 * communicator's n ranks): O(n) memory.
 *
 * MPI_Comm_split_type(SHARED) (MPID_Comm_split_type_node, called by
 * ch4_comm.c before MPICH's two splits): one allreduce of a 56-byte vote
 * (every process asks SHARED, no "shmem_topo" hint, the keys keep or
 * reverse parent order, the parent's node hierarchy is known), then the
 * context id; the node communicator's map is a formula over the parent's
 * (its node's members: BLOCK, CYCLIC, RUNS, a TABLE node of one stride) or
 * the TABLE's list of this node's members. Any other call pays the vote,
 * then MPICH's splits.
 *
 * Thread safety: a collective of the parent, as MPI_Comm_split; the map
 * build is a libavrm writer, under MPIDIU_THREAD_UTIL_MUTEX.
 */
#include "mpidimpl.h"
#include "ch4_avrm.h"
#include "mpir_avrm_errno.h"
#include "avrm/avrm_split.h"

/*
=== BEGIN_MPI_T_CVAR_INFO_BLOCK ===

cvars:
    - name        : MPIR_CVAR_AVRM_SPLIT_MIN_SIZE
      category    : CH4_AVRM
      type        : int
      default     : 64
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        MPI_Comm_split of an intracommunicator of at least this many
        processes first tries to settle the split without gathering every
        process's colour and key: when the colours form runs of consecutive
        ranks or repeat with a period, and the keys keep or reverse parent
        order, each process exchanges O(log P) words and builds its new
        rank map as a formula. Below 64 MPICH's gather moves fewer bytes
        (bench/results/split). MPI_Comm_split_type(SHARED) takes the
        node communicator from the parent's node hierarchy at any size
        after one small vote. 0: all as MPICH does.

    - name        : MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE
      category    : CH4_AVRM
      type        : int
      default     : 8192
      class       : none
      verbosity   : MPI_T_VERBOSITY_USER_BASIC
      scope       : MPI_T_SCOPE_ALL_EQ
      description : >-
        MPI_Comm_split of an intracommunicator of at least this many
        processes whose colours and keys no regular form settles sorts
        (colour, key, rank) across the processes instead of gathering
        them: O(log^2 P) exchanges of 12 bytes, then each process receives
        only its colour's members; no process holds O(P). Below it the
        gather, which a model of a fabric finds faster there for a few
        colours (bench/tools/sortmodel.py; on 2 cores the gather is faster
        at every P up to 128: bench/results/split-sort). 0: never sort.

=== END_MPI_T_CVAR_INFO_BLOCK ===
*/

/* splits this process settled without a gather (pvar avrm_comm_splits_no_gather),
 * of them by the sort (avrm_comm_splits_sorted), split_type calls from the
 * node hierarchy (avrm_comm_split_types_from_hier) */
static unsigned long long splits_no_gather, splits_sorted, split_types_from_hier;

/* a counter pvar's value: the counter registered as its address */
static void get_counter(void *addr, void *obj, int count, void *buf)
{
    *(unsigned long long *) buf = __atomic_load_n((unsigned long long *) addr, __ATOMIC_RELAXED);
}

/* A communicator whose splits needed the gather SKIP_AFTER times in a row
 * stops voting (the vote is spent for nothing there) but for one split in
 * RETRY_EVERY. The count is a hint of the communicator, "avrm_split_gathers"
 * (registered at MPI_Init; MPI_Comm_set_info may reset it): every process
 * updates it alike from the agreed outcome, so all decide alike. */
#define SKIP_AFTER 2
#define RETRY_EVERY 8
static int gathers_hint;

/* 1: this split gathers without voting */
static int skip_vote(MPIR_Comm * comm)
{
    int *n = &comm->hints[gathers_hint];
    if (*n < SKIP_AFTER)
        return 0;
    if (*n < SKIP_AFTER + RETRY_EVERY - 1) {
        ++*n;
        return 1;
    }
    *n = SKIP_AFTER - 1;        /* vote again; one more gather skips again */
    return 0;
}

/* The votes' reduction: one vote is one element of a 72-byte contiguous
 * type, so that no allreduce algorithm (a ring, a reduce-scatter, shared
 * memory cells) can hand the op part of a vote; the op is libavrm's fold.
 * Made at MPI_Init (a failure there fails MPI_Init, not one process's
 * split), freed at MPI_Finalize after MPID_Finalize. */
static MPIR_Op *sum_op;
static MPI_Datatype sum_type = MPI_DATATYPE_NULL;

static void sum_fold(void *in, void *inout, int *len, MPI_Datatype * dt)
{
    for (int i = 0; i < *len; i++) {
        avrm_split_sum_t a, b;  /* the buffers need not be aligned for int64 */
        memcpy(&a, (char *) inout + i * sizeof(a), sizeof(a));
        memcpy(&b, (char *) in + i * sizeof(b), sizeof(b));
        avrm_split_sum_fold(&a, &b);
        memcpy((char *) inout + i * sizeof(a), &a, sizeof(a));
    }
}

static int split_finalize(void *unused)
{
    if (sum_op)
        MPIR_Op_free_impl(sum_op);
    if (sum_type != MPI_DATATYPE_NULL)
        MPIR_Type_free_impl(&sum_type);
    sum_op = NULL;
    return MPI_SUCCESS;
}

int MPIDI_avrm_split_init(void)
{
    int mpi_errno = MPI_SUCCESS;
    static const struct {
        const char *name, *desc;
        unsigned long long *counter;
    } pvars[] = {
        {"avrm_comm_splits_no_gather", "MPI_Comm_split calls this process settled without "
         "gathering the parent's colours and keys (MPIR_CVAR_AVRM_SPLIT_MIN_SIZE)",
         &splits_no_gather},
        {"avrm_comm_splits_sorted", "MPI_Comm_split calls this process settled by the "
         "distributed sort (MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE), without a gather",
         &splits_sorted},
        {"avrm_comm_split_types_from_hier", "MPI_Comm_split_type(SHARED) calls this process "
         "settled from the parent's node hierarchy, without MPICH's two splits",
         &split_types_from_hier},
    };
    for (size_t i = 0; i < sizeof(pvars) / sizeof(pvars[0]); i++)
        MPIR_T_PVAR_REGISTER_impl(MPI_T_PVAR_CLASS_COUNTER, MPI_UNSIGNED_LONG_LONG,
                                  pvars[i].name, pvars[i].counter, 1, MPI_T_ENUM_NULL,
                                  MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_NO_OBJECT,
                                  MPIR_T_PVAR_FLAG_READONLY | MPIR_T_PVAR_FLAG_CONTINUOUS,
                                  get_counter, NULL, "CH4_AVRM", pvars[i].desc);
    gathers_hint = MPIR_Comm_register_hint(0, "avrm_split_gathers", NULL,
                                           MPIR_COMM_HINT_TYPE_INT, 0, 0);
    MPIR_Add_finalize(split_finalize, NULL, MPIR_FINALIZE_CALLBACK_PRIO - 1);
    mpi_errno = MPIR_Type_contiguous_impl((int) sizeof(avrm_split_sum_t), MPI_BYTE, &sum_type);
    MPIR_ERR_CHECK(mpi_errno);
    mpi_errno = MPIR_Type_commit_impl(&sum_type);
    MPIR_ERR_CHECK(mpi_errno);
    mpi_errno = MPIR_Op_create_impl(sum_fold, 1, &sum_op);
  fn_fail:
    return mpi_errno;
}

/* send n bytes to `to`, receive n from `from` (either may be MPI_PROC_NULL) */
static int swap(MPIR_Comm * comm, const void *out, int to, void *in, int from, int n, int tag,
                MPIR_Errflag_t * errflag)
{
    return MPIC_Sendrecv(out, n, MPI_BYTE, to, tag, in, n, MPI_BYTE, from, tag, comm,
                         MPI_STATUS_IGNORE, errflag);
}

/* record a communication error (err) into *errflag and *ret */
static void note_err(int err, MPIR_Errflag_t * errflag, int *ret)
{
    if (err) {
        *errflag = MPIX_ERR_PROC_FAILED == MPIR_ERR_GET_CLASS(err) ?
            MPIR_ERR_PROC_FAILED : MPIR_ERR_OTHER;
        MPIR_ERR_SET(err, *errflag, "**fail");
        MPIR_ERR_ADD(*ret, err);
    }
}

/* step 1's word: send (c, k) to r+1, learn r-1's into *lw */
static int left_word(MPIR_Comm * comm, const avrm_split_ck_t * me, avrm_split_ck_t * lw,
                     MPIR_Errflag_t * errflag)
{
    int r = comm->rank, P = comm->local_size;
    return swap(comm, me, r + 1 < P ? r + 1 : MPI_PROC_NULL, lw, r > 0 ? r - 1 : MPI_PROC_NULL,
                sizeof(*me), MPIR_ALLGATHER_TAG, errflag);
}

/* RUNS_SCAN: this process's run by the two-way doubling scan; an error is
 * recorded and the rounds go on (the caller agrees on it) */
static int scan_runs(MPIR_Comm * comm, avrm_split_ck_t me, const avrm_split_ck_t * lw,
                     avrm_split_form_t * f, MPIR_Errflag_t * errflag)
{
    int ret = MPI_SUCCESS;
    int r = comm->rank, P = comm->local_size;
    avrm_split_ck_t rw = me;
    int32_t first, end, in[2];

    note_err(swap(comm, &me, r > 0 ? r - 1 : MPI_PROC_NULL, &rw,
                  r + 1 < P ? r + 1 : MPI_PROC_NULL, sizeof(me), MPIR_ALLGATHER_TAG, errflag),
             errflag, &ret);
    avrm_split_scan_start((uint32_t) r, (uint32_t) P, me, r > 0 ? lw : NULL,
                          r + 1 < P ? &rw : NULL, &first, &end);
    for (int64_t d = 1; d < P; d *= 2) {
        int up = r + d < P ? (int) (r + d) : MPI_PROC_NULL;
        int down = r >= d ? (int) (r - d) : MPI_PROC_NULL;
        in[0] = -1;
        in[1] = P + 1;
        note_err(swap(comm, &first, up, &in[0], down, sizeof(first), MPIR_SCAN_TAG, errflag),
                 errflag, &ret);
        note_err(swap(comm, &end, down, &in[1], up, sizeof(end), MPIR_SCAN_TAG, errflag),
                 errflag, &ret);
        avrm_split_scan_fold(&first, in[0], &end, in[1]);
    }
    avrm_split_scan_settle(f, first, end);
    return ret;
}

/* CYCLIC_CHECK: every process compares its word with r - C's */
static int check_period(MPIR_Comm * comm, avrm_split_ck_t me, avrm_split_form_t * f,
                        MPIR_Errflag_t * errflag)
{
    int mpi_errno = MPI_SUCCESS;
    int r = comm->rank, P = comm->local_size, C = (int) f->period;
    avrm_split_ck_t back;

    mpi_errno = swap(comm, &me, r + C < P ? r + C : MPI_PROC_NULL, &back,
                     r >= C ? r - C : MPI_PROC_NULL, sizeof(me), MPIR_EXSCAN_TAG, errflag);
    MPIR_ERR_CHECK(mpi_errno);
    unsigned votes = avrm_split_cyclic_vote(me, r >= C ? &back : NULL);
    mpi_errno = MPIR_Allreduce(MPI_IN_PLACE, &votes, 1, MPI_UNSIGNED, MPI_BAND, comm, errflag);
    MPIR_ERR_CHECK(mpi_errno);
    avrm_split_cyclic_settle(f, votes);
  fn_fail:
    return mpi_errno;
}

/* The form every process agrees on (avrm_split.h's protocol). */
static int agree(MPIR_Comm * comm, avrm_split_ck_t me, int bad_color, avrm_split_form_t * f,
                 MPIR_Errflag_t * errflag)
{
    int mpi_errno = MPI_SUCCESS;
    int r = comm->rank, P = comm->local_size;
    avrm_split_ck_t lw;
    avrm_split_sum_t sum;

    mpi_errno = left_word(comm, &me, &lw, errflag);
    MPIR_ERR_CHECK(mpi_errno);
    avrm_split_vote((uint32_t) r, (uint32_t) P, me, r > 0 ? &lw : NULL, bad_color, &sum);
    mpi_errno = MPIR_Allreduce(MPI_IN_PLACE, &sum, 1, sum_type, sum_op->handle, comm, errflag);
    MPIR_ERR_CHECK(mpi_errno);
    /* a failed peer: decide nothing from a partial sum */
    MPIR_ERR_CHKANDJUMP(*errflag, mpi_errno, MPI_ERR_OTHER, "**coll_fail");
    switch (avrm_split_decide((uint32_t) r, (uint32_t) P, &sum, f)) {
    case AVRM_SPLIT_RUNS_SCAN:
        mpi_errno = scan_runs(comm, me, &lw, f, errflag);
        break;
    case AVRM_SPLIT_CYCLIC_CHECK:
        mpi_errno = check_period(comm, me, f, errflag);
        break;
    default:
        break;
    }
  fn_fail:
    return mpi_errno;
}

/* The new communicator's map: build(comm's map, arg, n, map), a libavrm
 * writer, under CH4's utility lock. */
typedef avrm_status_t (*build_fn) (const avrm_rankmap_t * parent, const void *arg, uint32_t n,
                                   avrm_rankmap_t * out);
static int build_map(MPIR_Comm * comm, build_fn build, const void *arg, uint32_t n,
                     avrm_rankmap_t * map)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    avrm_status_t st = build(&MPIDI_COMM(comm, map), arg, n, map);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    return MPIR_avrm_err(st, "split communicator rank map");
}

static void release_map(avrm_rankmap_t * map)
{
    MPID_THREAD_CS_ENTER(VCI, MPIDIU_THREAD_UTIL_MUTEX);
    avrm_map_release(MPIDI_avrm.ctx, map);
    MPID_THREAD_CS_EXIT(VCI, MPIDIU_THREAD_UTIL_MUTEX);
}

/* The new communicator of n processes, this one newrank, with *map (taken
 * over: a failure releases it) and ctx_id (given back until the
 * communicator exists). */
static int create_with(MPIR_Comm * comm, avrm_rankmap_t * map, uint32_t n, uint32_t newrank,
                       MPIR_Context_id_t ctx_id, MPIR_Comm ** newcomm_ptr)
{
    int mpi_errno = MPI_SUCCESS;
    MPIR_Comm *c = NULL;

    mpi_errno = MPIR_Comm_create(&c);
    if (mpi_errno) {
        release_map(map);
        MPIR_Free_contextid(ctx_id);
        goto fn_fail;
    }
    c->comm_kind = MPIR_COMM_KIND__INTRACOMM;
    c->context_id = c->recvcontext_id = ctx_id;
    c->local_size = c->remote_size = (int) n;
    c->rank = (int) newrank;
    /* no mapper: MPIDI_comm_create_rank_map keeps this map */
    MPIDI_COMM(c, map) = *map;
    MPIDI_COMM(c, local_map) = NULL;
    /* the parent's error handler, as every split inherits it */
    MPID_THREAD_CS_ENTER(POBJ, comm->mutex);
    MPID_THREAD_CS_ENTER(VCI, comm->mutex);
    c->errhandler = comm->errhandler;
    if (c->errhandler)
        MPIR_Errhandler_add_ref(c->errhandler);
    MPID_THREAD_CS_EXIT(VCI, comm->mutex);
    MPID_THREAD_CS_EXIT(POBJ, comm->mutex);
    c->tainted = comm->tainted;
    mpi_errno = MPIR_Comm_commit(c);
    MPIR_ERR_CHECK(mpi_errno);
    *newcomm_ptr = c;
  fn_fail:
    return mpi_errno;
}

/* the same, its map built first (a failure leaves no communicator) */
static int create(MPIR_Comm * comm, build_fn build, const void *arg, uint32_t n,
                  uint32_t newrank, MPIR_Context_id_t ctx_id, MPIR_Comm ** newcomm_ptr)
{
    avrm_rankmap_t map;
    int mpi_errno = build_map(comm, build, arg, n, &map);
    if (mpi_errno) {
        MPIR_Free_contextid(ctx_id);
        return mpi_errno;
    }
    return create_with(comm, &map, n, newrank, ctx_id, newcomm_ptr);
}

/* builds: parent ranks first + i * stride (arg: int64_t[2]), or a list
 * (arg: n parent ranks) */
static avrm_status_t build_affine(const avrm_rankmap_t * parent, const void *arg, uint32_t n,
                                  avrm_rankmap_t * out)
{
    const int64_t *fs = arg;
    return avrm_map_build_affine(MPIDI_avrm.ctx, parent, fs[0], fs[1], n, out);
}

static avrm_status_t build_list(const avrm_rankmap_t * parent, const void *arg, uint32_t n,
                                avrm_rankmap_t * out)
{
    return avrm_map_build(MPIDI_avrm.ctx, parent, arg, n, out);
}

/* Irregular splits: the sort of avrm_split.h (S1-S3). Every process is a
 * position of the network (holding one item after S1) and a member (its own
 * colour's list at the end). Tags: S1's swaps MPIR_ALLTOALL_TAG; S2 the
 * scan's; S3 the run's allgather MPIR_ALLGATHERV_TAG, the list
 * MPIR_GATHERV_TAG, and the run's size MPIR_TOPO_A_TAG, which its member
 * receives from MPI_ANY_SOURCE (it cannot know which position holds its
 * item): no other message with that tag reaches a process of the parent
 * before it leaves this split, since MPI_Dist_graph_create, the one other
 * sender, sends only after a reduce-scatter every process feeds, and a later
 * split's sizes only after an allreduce every process feeds.
 *
 * Failures: a communication error is recorded and the protocol goes on
 * with the same partners (as MPICH's collectives do), so that no process
 * waits for ever; two allreduces of 4 B agree on what failed anywhere: before
 * the lists move (an allocation, or any error so far: a run's bounds may be
 * wrong) and before the context id (an error since, or a map that could not
 * be built), so that every process returns the error and none keeps a
 * communicator that another lacks. */
typedef struct sort_arg {
    MPIR_Comm *comm;
    avrm_split_item_t *item;
    MPIR_Errflag_t *errflag;
    int mpi_errno;              /* the errors recorded */
} sort_arg_t;

/* S1: one comparator: swap items with partner, keep the lower or higher
 * (after an error, this position's own) */
static int sort_step(void *arg, uint32_t partner, int keep_low)
{
    sort_arg_t *a = arg;
    avrm_split_item_t theirs;
    int err = swap(a->comm, a->item, (int) partner, &theirs, (int) partner, sizeof(theirs),
                   MPIR_ALLTOALL_TAG, a->errflag);
    note_err(err, a->errflag, &a->mpi_errno);
    if (!err && (avrm_split_item_cmp(&theirs, a->item) < 0) == keep_low)
        *a->item = theirs;
    return 0;
}

static void reverse(int32_t * a, uint32_t from, uint32_t to)
{
    while (from + 1 < to) {
        int32_t t = a[from];
        a[from++] = a[--to];
        a[to] = t;
    }
}

/* S3: the run [first, first + n) allgathers its items' parent ranks; run[0]
 * is this position's on entry, run[i] the run's i-th on return (Bruck's
 * doubling, then a rotation by this position's index r - first) */
static void run_allgather(MPIR_Comm * comm, int32_t * run, uint32_t n, uint32_t first,
                          MPIR_Errflag_t * errflag, int *ret)
{
    uint32_t i = (uint32_t) comm->rank - first;

    for (uint32_t d = 1; d < n; d *= 2) {
        uint32_t cnt = MPL_MIN(d, n - d);
        note_err(MPIC_Sendrecv(run, cnt * sizeof(*run), MPI_BYTE,
                               (int) (first + (i + n - d) % n), MPIR_ALLGATHERV_TAG, run + d,
                               cnt * sizeof(*run), MPI_BYTE, (int) (first + (i + d) % n),
                               MPIR_ALLGATHERV_TAG, comm, MPI_STATUS_IGNORE, errflag),
                 errflag, ret);
    }
    /* run[k] is the run's (i + k) mod n-th: rotate right by i */
    reverse(run, 0, n);
    reverse(run, 0, i);
    reverse(run, i, n);
}

/* wait for a send of ours and free it */
static void finish_send(MPIR_Request ** req, MPIR_Errflag_t * errflag, int *ret)
{
    if (*req) {
        note_err(MPIC_Wait(*req, errflag), errflag, ret);
        MPIR_Request_free(*req);
        *req = NULL;
    }
}

/* what failed anywhere (bits: FAIL_*), agreed by an allreduce of 4 B */
#define FAIL_NOMEM 1
#define FAIL_COMM 2
static int agree_fail(MPIR_Comm * comm, int mine, MPIR_Errflag_t * errflag, int *ret)
{
    int all = mine | (*errflag ? FAIL_COMM : 0);
    note_err(MPIR_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_BOR, comm, errflag), errflag, ret);
    return all | (*errflag ? FAIL_COMM : 0);
}

/* MPI_Comm_split by the sort: no process holds more than its colour's and
 * its run's lists */
static int split_sorted(MPIR_Comm * comm, int color, int key, MPIR_Comm ** newcomm_ptr,
                        MPIR_Errflag_t * errflag)
{
    int mpi_errno = MPI_SUCCESS, ret = MPI_SUCCESS, fail;
    int r = comm->rank, P = comm->local_size, holder = MPI_PROC_NULL, have_map = 0;
    avrm_split_item_t it = { color, key, (uint32_t) r };
    sort_arg_t sa = { comm, &it, errflag, MPI_SUCCESS };
    avrm_split_form_t f = { 0 };
    avrm_split_ck_t ck, lw;
    avrm_rankmap_t map;
    int32_t *run = NULL, *list = NULL;
    uint32_t nrun = 0, nlist = 0, newrank = 0;
    MPIR_Request *req = NULL;
    MPI_Status st;
    MPIR_Context_id_t ctx_id = 0;

    avrm_sort_walk((uint32_t) P, (uint32_t) r, sort_step, &sa);        /* S1 */
    ret = sa.mpi_errno;
    ck = (avrm_split_ck_t) { it.color, it.key };        /* S2 */
    note_err(left_word(comm, &ck, &lw, errflag), errflag, &ret);
    note_err(scan_runs(comm, ck, &lw, &f, errflag), errflag, &ret);

    /* S3: the run's size to the member whose item this position holds */
    if (it.color != MPI_UNDEFINED) {
        nrun = f.run_end - f.run_first;
        note_err(MPIC_Isend(&nrun, sizeof(nrun), MPI_BYTE, (int) it.rank, MPIR_TOPO_A_TAG,
                            comm, &req, errflag), errflag, &ret);
    }
    if (color != MPI_UNDEFINED) {
        int err = MPIC_Recv(&nlist, sizeof(nlist), MPI_BYTE, MPI_ANY_SOURCE, MPIR_TOPO_A_TAG,
                            comm, &st, errflag);
        note_err(err, errflag, &ret);
        holder = err ? MPI_PROC_NULL : st.MPI_SOURCE;
    }
    finish_send(&req, errflag, &ret);
    run = nrun ? MPL_malloc(nrun * sizeof(*run), MPL_MEM_COMM) : NULL;
    list = nlist ? MPL_malloc(nlist * sizeof(*list), MPL_MEM_COMM) : NULL;
    fail = agree_fail(comm, (nrun && !run) || (nlist && !list) ? FAIL_NOMEM : 0, errflag, &ret);
    if (fail)
        goto fn_agreed;

    /* the run's list, sent to that member; this member's, from its holder */
    if (nrun) {
        run[0] = (int32_t) it.rank;
        run_allgather(comm, run, nrun, f.run_first, errflag, &ret);
        note_err(MPIC_Isend(run, nrun * sizeof(*run), MPI_BYTE, (int) it.rank,
                            MPIR_GATHERV_TAG, comm, &req, errflag), errflag, &ret);
    }
    if (nlist)
        note_err(MPIC_Recv(list, nlist * sizeof(*list), MPI_BYTE, holder, MPIR_GATHERV_TAG,
                           comm, MPI_STATUS_IGNORE, errflag), errflag, &ret);
    finish_send(&req, errflag, &ret);
    if (nlist && !*errflag) {
        while (newrank < nlist && list[newrank] != r)
            newrank++;
        /* not found: a list that cannot be this process's (a peer's bug) */
        if (newrank < nlist && build_map(comm, build_list, list, nlist, &map) == MPI_SUCCESS)
            have_map = 1;
    }
    fail = agree_fail(comm, nlist && !have_map && !*errflag ? FAIL_NOMEM : 0, errflag, &ret);
    if (fail)
        goto fn_agreed;

    mpi_errno = MPIR_Get_contextid_sparse(comm, &ctx_id, color == MPI_UNDEFINED);
    if (mpi_errno)
        goto fn_fail;
    if (have_map) {
        have_map = 0;           /* create_with takes it over */
        mpi_errno = create_with(comm, &map, nlist, newrank, ctx_id, newcomm_ptr);
        if (mpi_errno)
            goto fn_fail;
    }
    __atomic_fetch_add(&splits_no_gather, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&splits_sorted, 1, __ATOMIC_RELAXED);
    goto fn_exit;

  fn_agreed:
    /* every process fails alike: out of memory somewhere, or a peer's error */
    if (fail & FAIL_NOMEM)
        MPIR_ERR_SET1(mpi_errno, MPI_ERR_NO_MEM, "**fail", "**fail %s",
                      "out of memory for a split's member lists or map in some process");
    else
        MPIR_ERR_SET(mpi_errno, MPI_ERR_OTHER, "**coll_fail");
    MPIR_ERR_ADD(mpi_errno, ret);
  fn_fail:
    if (have_map)
        release_map(&map);
  fn_exit:
    MPL_free(run);
    MPL_free(list);
    return mpi_errno;
}

int MPID_Comm_split_regular(MPIR_Comm * comm, int color, int key, int check_colors,
                            MPIR_Comm ** newcomm_ptr, int *done)
{
    int mpi_errno = MPI_SUCCESS;
    MPIR_Errflag_t errflag = MPIR_ERR_NONE;
    avrm_split_form_t f;
    MPIR_Context_id_t ctx_id = 0;
    avrm_split_ck_t me = { color, key };

    int P = comm->local_size;
    /* a parent this large sorts what no form settles; it always votes */
    int sort = MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE > 0 && P >= MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE;

    *done = 0;
    if (comm->comm_kind != MPIR_COMM_KIND__INTRACOMM || MPIR_CVAR_AVRM_SPLIT_MIN_SIZE <= 0 ||
        (!sort && (P < MPIR_CVAR_AVRM_SPLIT_MIN_SIZE || skip_vote(comm))))
        return MPI_SUCCESS;
    mpi_errno = agree(comm, me, check_colors && color < 0 && color != MPI_UNDEFINED, &f, &errflag);
    MPIR_ERR_CHECK(mpi_errno);
    MPIR_ERR_CHKANDJUMP(errflag, mpi_errno, MPI_ERR_OTHER, "**coll_fail");
    if (f.kind == AVRM_SPLIT_NONE && sort) {
        *done = 1;
        *newcomm_ptr = NULL;
        return split_sorted(comm, color, key, newcomm_ptr, &errflag);
    }
    if (f.kind == AVRM_SPLIT_NONE) {
        comm->hints[gathers_hint]++;
        return MPI_SUCCESS;     /* the caller gathers */
    }
    comm->hints[gathers_hint] = 0;
    *done = 1;
    *newcomm_ptr = NULL;
    MPIR_ERR_CHKANDJUMP1(f.kind == AVRM_SPLIT_BAD_COLOR, mpi_errno, MPI_ERR_ARG, "**fail",
                         "**fail %s", "a color is negative and not MPI_UNDEFINED");
    mpi_errno = MPIR_Get_contextid_sparse(comm, &ctx_id, color == MPI_UNDEFINED);
    MPIR_ERR_CHECK(mpi_errno);
    __atomic_fetch_add(&splits_no_gather, 1, __ATOMIC_RELAXED);
    if (color != MPI_UNDEFINED) {
        int64_t fs[2];
        uint32_t n, newrank;
        avrm_split_group(&f, (uint32_t) comm->rank, (uint32_t) comm->local_size, &fs[0], &fs[1],
                         &n, &newrank);
        mpi_errno = create(comm, build_affine, fs, n, newrank, ctx_id, newcomm_ptr);
    }
  fn_fail:
    return mpi_errno;
}

/* MPI_Comm_split_type(SHARED)'s vote: the maxima over the parent of these
 * (a minimum as the maximum of its negation) */
enum { V_KEY, V_NKEY, V_UP, V_NUP, V_DOWN, V_NDOWN, V_OTHER, V_N };

int MPID_Comm_split_type_node(MPIR_Comm * comm, int split_type, int key, MPIR_Info * info,
                              MPIR_Comm ** newcomm_ptr, int *done)
{
    int mpi_errno = MPI_SUCCESS;
    MPIR_Errflag_t errflag = MPIR_ERR_NONE;
    const avrm_hier_t *h = &comm->hier;
    int64_t v[V_N], r = comm->rank, fs[2];
    int32_t *rev = NULL;
    uint32_t n = h->local_size, me = 0;
    int flag = 0;
    MPIR_Context_id_t ctx_id = 0;

    *done = 0;
    if (comm->comm_kind != MPIR_COMM_KIND__INTRACOMM || MPIR_CVAR_AVRM_SPLIT_MIN_SIZE <= 0)
        return MPI_SUCCESS;
    if (info) {
        char val[MPI_MAX_INFO_VAL + 1];
        MPIR_Info_get_impl(info, "shmem_topo", MPI_MAX_INFO_VAL, val, &flag);
    }
    /* this node's members in parent order (a formula but in the TABLE
     * form, a list there unless it is one); the keys keep that order
     * (equal, or key - rank the same everywhere) or reverse it (key + rank) */
    int64_t first = avrm_hier_local_member(h, 0);
    int64_t up = n > 1 ? (int64_t) avrm_hier_local_member(h, 1) - first : 1;
    int affine = h->form != AVRM_HIER_TABLE;
    if (!affine) {
        affine = 1;
        for (uint32_t i = 1; i < n && affine; i++)
            affine = (int64_t) avrm_hier_local_member(h, i) == first + up * i;
    }
    if (h->form != AVRM_HIER_NONE)
        me = avrm_hier_local_index(h, (uint32_t) r);
    if (!affine) {
        /* a list in reverse order, should the keys ask for it */
        rev = MPL_malloc(n * sizeof(*rev), MPL_MEM_COMM);
        for (uint32_t i = 0; rev && i < n; i++)
            rev[i] = (int32_t) h->words[n - 1 - i];
    }
    v[V_KEY] = key;
    v[V_NKEY] = -(int64_t) key;
    v[V_UP] = key - r;
    v[V_NUP] = r - key;
    v[V_DOWN] = key + r;
    v[V_NDOWN] = -(key + r);
    /* what takes MPICH's way: another type (MPI_UNDEFINED), MPICH's
     * topology hint, no node information, no memory for the list */
    v[V_OTHER] = split_type != MPI_COMM_TYPE_SHARED || flag || h->form == AVRM_HIER_NONE ||
        (!affine && !rev);
    mpi_errno = MPIR_Allreduce(MPI_IN_PLACE, v, V_N, MPI_INT64_T, MPI_MAX, comm, &errflag);
    MPIR_ERR_CHECK(mpi_errno);
    MPIR_ERR_CHKANDJUMP(errflag, mpi_errno, MPI_ERR_OTHER, "**coll_fail");
    int keep = v[V_KEY] == -v[V_NKEY] || v[V_UP] == -v[V_NUP];
    int reverse = !keep && v[V_DOWN] == -v[V_NDOWN];
    if (v[V_OTHER] || (!keep && !reverse))
        goto fn_exit;   /* every process saw the same maxima: all take MPICH's way */

    *done = 1;
    *newcomm_ptr = NULL;
    mpi_errno = MPIR_Get_contextid_sparse(comm, &ctx_id, FALSE);
    MPIR_ERR_CHECK(mpi_errno);
    __atomic_fetch_add(&split_types_from_hier, 1, __ATOMIC_RELAXED);
    uint32_t newrank = reverse ? n - 1 - me : me;
    if (affine) {
        fs[0] = reverse ? first + up * (n - 1) : first;
        fs[1] = reverse ? -up : up;
        mpi_errno = create(comm, build_affine, fs, n, newrank, ctx_id, newcomm_ptr);
    } else {
        mpi_errno = create(comm, build_list, reverse ? rev : (const int32_t *) h->words, n,
                           newrank, ctx_id, newcomm_ptr);
    }
  fn_exit:
    MPL_free(rev);
    return mpi_errno;
  fn_fail:
    goto fn_exit;
}
