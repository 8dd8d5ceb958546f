/*
 * splitsim.c - bench-splitsim: MPI_Comm_split without a gather, replayed
 * for every process of a simulated parent of P processes with libavrm's
 * own protocol functions (include/avrm/avrm_split.h), against the
 * allgather of (colour, key) that stock MPICH 4.0.2 does.
 *
 * usage: bench-splitsim [maxexp]
 *   P = 2^3, 2^4, ..., 2^maxexp (default 24, at most 26). The CSV goes to
 *   stdout; the check's summary, `splitsim: N shapes x P checked, M wrong`,
 *   to stderr: N the (shape, P) pairs whose groups were checked (P <= 2^12),
 *   M the pairs failing any check at any P. Exit status 1 when M > 0.
 *
 * The replay, per shape and P (as test/unit/test_split.c's simulate(), in
 * place, and as the glue, src/mpid/ch4/src/ch4_avrm_split.c, runs it):
 *  1. every process's avrm_split_vote from its word and r-1's, each folded
 *     as it is made into one sum (avrm_split_sum_fold; the fold is
 *     associative and commutative, so one pass in rank order gives what
 *     the allreduce gives in any order; test_split folds random trees);
 *  2. avrm_split_decide for every process with that sum; the kind it gives
 *     is the row's `path`;
 *  3. path RUNS_SCAN: every process's avrm_split_scan_start from the words
 *     of r-1 and r+1; rounds d = 1, 2, 4, .. < P, each process folding the
 *     run start of r-d and the run end of r+d (avrm_split_scan_fold); one
 *     array per word, the starts updated from r = P-1 down to d and the
 *     ends from r = 0 up to P-1-d, so that what is read is still the
 *     previous round's value, as the messages of a round carry it (each
 *     half folded with the other's identity, -1 or P+1, which is what the
 *     glue receives from MPI_PROC_NULL); avrm_split_scan_settle.
 *     path CYCLIC_CHECK: every process's avrm_split_cyclic_vote with the
 *     word of r-C, the votes ANDed, avrm_split_cyclic_settle;
 *  4. avrm_split_group for every process (form RUNS or CYCLIC).
 *
 * Shapes (colour, key of parent rank r):
 *   oddeven   r % 2, r                      CYCLIC up, decided directly
 *   blocks8   r / 8, r                      RUNS up, directly
 *   reversed  r / 8, -r                     RUNS down, directly
 *   rows      r / ncols, r                  RUNS up, directly
 *   cols      r % ncols, r                  CYCLIC up, directly
 *   halves    r < P/2, r                    RUNS up (colours fall), directly
 *   unequal   runs of lengths 1, 2, 3, ..   RUNS up, via RUNS_SCAN
 *             (colour the run's index), r
 *   even      r % 2 ? MPI_UNDEFINED : 0, r  CYCLIC up, via CYCLIC_CHECK (the
 *             colour falls to MPICH's MPI_UNDEFINED, -32766, and rises back:
 *             the period is the first non-fall, not settled by the steps)
 *   randcolor hash(r) % 4, r                NONE (path not fixed: a small P
 *             might pass for a period candidate)
 *   randkey   r / 8, hash(r)                NONE, directly
 * with nrows the largest divisor of P not above sqrt(P) and ncols = P /
 * nrows (the two factors MPI_Dims_create(P, 2) gives; here the rows are the
 * longer ones). A shape decided, or taking a path, other than expected
 * counts as wrong.
 *
 * Output columns (one row per shape and P):
 *   shape, P
 *   form        the kind finally decided: RUNS, CYCLIC, NONE (BAD: an
 *               erroneous colour; no shape has one)
 *   path        what avrm_split_decide said first: RUNS, CYCLIC (settled
 *               by the allreduce alone), RUNS_SCAN, CYCLIC_CHECK (one more
 *               step paid), NONE, BAD
 *   gathers     1 when the form is NONE: the process then also does the
 *               allgather, as stock MPICH
 *   messages_per_process, bytes_sent_per_process
 *               ours, as the glue sends them (MPI_PROC_NULL sends not
 *               counted), for the busiest process: the sum of each step's
 *               busiest, which for P >= 4 a power of two is one process (an
 *               r with P/4 <= r < 3P/4, and r + C < P on CYCLIC_CHECK, is the
 *               busiest of every step; there is one when C <= P/2), an upper
 *               bound otherwise. L = ceil(log2 P).
 *                 every path: 1 neighbour word of sizeof(avrm_split_ck_t)
 *                 (8 B, to r+1); the allreduce of the votes, 72 B
 *                 (sizeof(avrm_split_sum_t), 18 MPI_INT), recursive doubling
 *                 (below): L messages of 72 B;
 *                 RUNS_SCAN adds 1 word of 8 B (to r-1, for r+1's
 *                 scan_start) and the scan's 4 B words: 2 per round (start
 *                 to r+d, end to r-d) but 1 in the last (d >= P/2: no
 *                 process has both r-d and r+d), 2L - 1 in all;
 *                 CYCLIC_CHECK adds 1 word of 8 B (to r+C) and the
 *                 allreduce of 4 B (MPI_UNSIGNED, MPI_BAND): recursive
 *                 doubling, L messages of 4 B;
 *                 gathers = 1 adds the allgather below (it sends (P-1) * 8 B
 *                 in each of its algorithms).
 *   allgather_algorithm, allgather_bytes_recv_per_process,
 *   allgather_messages_per_process
 *               stock MPICH 4.0.2's split: MPIR_Allgather of 2 MPI_INT
 *               (8 B) per process (src/mpi/comm/comm_split.c), every process
 *               receiving (P-1) * 8 B; messages sent: log2 P for recursive
 *               doubling, ceil(log2 P) for Bruck, P-1 for the ring.
 *   sort_messages_per_process, sort_bytes_sent_per_process, sort_list_bytes
 *               form NONE (0 otherwise): the same split sorted instead of
 *               gathered (a parent of MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE and
 *               more; sort_model below), the busiest process's messages and
 *               bytes and its two lists (its run's and its colour's ranks,
 *               4 B each: the most memory the sort holds)
 *   seconds     wall time of the replay of all P processes (votes and their
 *               fold, decide, scan or cyclic check, group), not the shape's
 *               set-up or the check.
 *
 * Both collectives, as read in MPICH 4.0.2's source
 * (mpich-build/mpich-patched-src; patches/mpich touches no collective
 * selection; the selection tree compiled into
 * src/mpi/coll/src/csel_json_autogen.c is maint/tuning/coll/mpir/generic.json's,
 * checked equal for allreduce). The model is flat: one process per node, or
 * every peer on the netmod, as bench/real's runs.
 *
 * The allreduces. The glue calls MPIR_Allreduce (MPI_IN_PLACE): with
 * MPIR_CVAR_DEVICE_COLLECTIVES = percoll and
 * MPIR_CVAR_ALLREDUCE_DEVICE_COLLECTIVE = true (the defaults) that is CH4's
 * MPID_Allreduce, whose tree (maint/tuning/coll/ch4/generic.json) takes
 * composition gamma (POSIX shared memory) only when the communicator is
 * one node, alpha (node reduce, the node roots' netmod allreduce, node
 * bcast) for a parent-hierarchy communicator and a commutative op, beta
 * (the netmod's) otherwise; with one process per node MPIR_Comm_commit
 * makes no node_comm / node_roots_comm (the hierarchy stays flat), so beta:
 * MPIDI_NM_mpi_allreduce, which in OFI is MPIR_Allreduce_impl ->
 * (MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM = auto) MPIR_Allreduce_allcomm_auto
 * -> the csel tree for allreduce, intra:
 *   avg_msg_size <= 0:  smp when the op is commutative, else recursive doubling
 *   avg_msg_size <= 8:  recursive doubling
 *   otherwise, op not built in:  recursive doubling
 *   otherwise, built in, count < pof2:  recursive doubling
 *   otherwise:  reduce-scatter + allgather
 * with avg_msg_size = count * type size (csel.c get_avg_msgsize), "built
 * in" the op handle's kind (HANDLE_KIND_BUILTIN). The votes' allreduce:
 * 18 MPI_INT = 72 B with the user op the glue makes by MPIR_Op_create_impl
 * (commutative) -> recursive doubling (the op is not built in; its being
 * commutative matters only at avg_msg_size <= 0). The cyclic check's:
 * 1 MPI_UNSIGNED = 4 B, MPI_BAND -> recursive doubling (<= 8 B).
 * MPIR_Allreduce_intra_recursive_doubling
 * (src/mpi/coll/allreduce/allreduce_intra_recursive_doubling.c), with
 * pof2 the largest power of two <= P and rem = P - pof2: the even ranks
 * below 2 rem send their buffer to r+1 and sit out; the other pof2
 * processes exchange (MPIC_Sendrecv, the whole buffer) with log2(pof2)
 * partners; the odd ranks below 2 rem send the result back to r-1. So
 * log2 P messages of the full size for P a power of two; otherwise the
 * busiest (odd r < 2 rem) sends log2(pof2) + 1 = ceil(log2 P), the extra
 * steps included, the rest log2(pof2) or 1.
 *
 * The allgather: there is no MPIR_Allgather_intra_auto in 4.0.2. The
 * blocking MPIR_Allgather_impl with MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM =
 * auto calls MPIR_Allgather_allcomm_auto (src/mpi/coll/mpir_coll.c; CH4
 * reaches it through MPIDI_Allgather_intra_composition_alpha and the
 * netmod's MPIDI_NM_mpi_allgather), which asks the same tree:
 *   intra, comm_size pow2, total_msg_size < 524288  recursive doubling
 *   intra, comm_size pow2, otherwise                ring
 *   intra, any size, total_msg_size < 81920         Bruck
 *   intra, any size, otherwise                      ring
 * with total_msg_size = recvcount * type size * comm_size = 8 P
 * (csel.c get_total_msgsize). The thresholds equal the defaults of
 * MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE (524288) and _SHORT_MSG_SIZE (81920)
 * (src/mpi/coll/cvars.txt), but those CVARs are read only by the
 * nonblocking schedule selection (src/mpi/coll/mpir_coll_sched_auto.c):
 * setting them does not move the blocking allgather's switch. So for
 * P = 2^k: recursive doubling up to 2^15, the ring from 2^16 (P - 1
 * messages per process); Bruck only for P not a power of two below 10240.
 * Both sides' context id agreement (MPIR_Get_contextid_sparse) is the same
 * and not counted.
 *
 * Check: for P <= 2^12 (CHECK_MAXP; the brute force is O(P log P) plus the
 * sum of the squared class sizes), every process's avrm_split_group (first,
 * stride, n, its new rank) against the members of its colour sorted by
 * (key, parent rank); for every P, that all processes decide the same
 * (kind, order, period) at each step, and that form, order and path are
 * the shape's expected ones.
 *
 * Cost: memory 2 * 4 B (colour, key) + 2 * 4 B (the scan's start and end)
 * + 16 B (form) = 32 B per process of the largest P: 0.5 GiB at 2^24; the
 * votes are folded as they are made (one 72 B sum). Time: O(P) library
 * calls per shape and P, O(P log P) for the scan (unequal only): about
 * 14 s in all for maxexp 24 on one core, 2.2 s of it unequal's 2^24.
 */
#define _POSIX_C_SOURCE 200809L
#include "avrm/avrm_split.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MINEXP 3
#define MAXEXP_DEFAULT 24
#define MAXEXP_LIMIT 26
#define CHECK_MAXP 4096u                /* groups checked by brute force up to here */
#define UNDEF (-32766)                  /* MPICH's MPI_UNDEFINED */

/* MPICH 4.0.2's generic.json switch points for MPIR_Allgather (see above) */
#define ALLGATHER_LONG_MSG_SIZE 524288u
#define ALLGATHER_SHORT_MSG_SIZE 81920u
#define SPLIT_GATHER_BYTES 8u           /* 2 MPI_INT per process */

#define ANY_PATH (-1)                   /* a shape whose path is not fixed */

/* every process's words and state; arrays sized for the largest P */
typedef struct world {
    uint32_t P;
    int32_t *col, *key;
    int32_t *first, *end;               /* the scan's words (RUNS_SCAN) */
    avrm_split_form_t *f;
} world_t;

/* what the replay decided */
typedef struct outcome {
    int kind;           /* finally */
    int order;
    int path;           /* what avrm_split_decide said */
    int agree;          /* every process decided the same (kind, order, period) */
    double seconds;
} outcome_t;

/* ---- shapes ---- */

/* a fixed 32-bit mixer (lowbias32): colours and keys with no pattern */
static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* the longer side of the 2-D factorisation: P / (largest divisor <= sqrt P) */
static uint32_t ncols_of(uint32_t P)
{
    uint32_t s = 1;
    while ((uint64_t) (s + 1) * (s + 1) <= P) s++;
    while (P % s) s--;
    return P / s;
}

static void fill_oddeven(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) { c[r] = (int32_t) (r % 2); k[r] = (int32_t) r; }
}

static void fill_blocks8(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) { c[r] = (int32_t) (r / 8); k[r] = (int32_t) r; }
}

static void fill_reversed(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) { c[r] = (int32_t) (r / 8); k[r] = -(int32_t) r; }
}

static void fill_rows(uint32_t P, int32_t *c, int32_t *k)
{
    uint32_t nc = ncols_of(P);
    for (uint32_t r = 0; r < P; r++) { c[r] = (int32_t) (r / nc); k[r] = (int32_t) r; }
}

static void fill_cols(uint32_t P, int32_t *c, int32_t *k)
{
    uint32_t nc = ncols_of(P);
    for (uint32_t r = 0; r < P; r++) { c[r] = (int32_t) (r % nc); k[r] = (int32_t) r; }
}

static void fill_halves(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) { c[r] = r < P / 2; k[r] = (int32_t) r; }
}

/* runs of lengths 1, 2, 3, ... (the last cut short by P) */
static void fill_unequal(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0, len = 1, left = 1, run = 0; r < P; r++) {
        c[r] = (int32_t) run;
        k[r] = (int32_t) r;
        if (--left == 0) { run++; left = ++len; }
    }
}

/* the even ranks, MPI_UNDEFINED at the odd ones */
static void fill_even(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) { c[r] = r % 2 ? UNDEF : 0; k[r] = (int32_t) r; }
}

static void fill_randcolor(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) { c[r] = (int32_t) (mix(r) >> 30); k[r] = (int32_t) r; }
}

static void fill_randkey(uint32_t P, int32_t *c, int32_t *k)
{
    for (uint32_t r = 0; r < P; r++) {
        c[r] = (int32_t) (r / 8);
        k[r] = (int32_t) (mix(r ^ 0x9e3779b9u) >> 1);
    }
}

typedef struct shape {
    const char *name;
    void (*fill)(uint32_t P, int32_t *col, int32_t *key);
    int kind, order;    /* expected: the form the shape is by construction */
    int path;           /* expected first decision, or ANY_PATH */
} shape_t;

static const shape_t shapes[] = {
    { "oddeven", fill_oddeven, AVRM_SPLIT_CYCLIC, 1, AVRM_SPLIT_CYCLIC },
    { "blocks8", fill_blocks8, AVRM_SPLIT_RUNS, 1, AVRM_SPLIT_RUNS },
    { "reversed", fill_reversed, AVRM_SPLIT_RUNS, -1, AVRM_SPLIT_RUNS },
    { "rows", fill_rows, AVRM_SPLIT_RUNS, 1, AVRM_SPLIT_RUNS },
    { "cols", fill_cols, AVRM_SPLIT_CYCLIC, 1, AVRM_SPLIT_CYCLIC },
    { "halves", fill_halves, AVRM_SPLIT_RUNS, 1, AVRM_SPLIT_RUNS },
    { "unequal", fill_unequal, AVRM_SPLIT_RUNS, 1, AVRM_SPLIT_RUNS_SCAN },
    { "even", fill_even, AVRM_SPLIT_CYCLIC, 1, AVRM_SPLIT_CYCLIC_CHECK },
    { "randcolor", fill_randcolor, AVRM_SPLIT_NONE, 0, ANY_PATH },
    { "randkey", fill_randkey, AVRM_SPLIT_NONE, 0, AVRM_SPLIT_NONE },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

static const char *kind_name(int kind)
{
    switch (kind) {
    case AVRM_SPLIT_NONE: return "NONE";
    case AVRM_SPLIT_RUNS: return "RUNS";
    case AVRM_SPLIT_CYCLIC: return "CYCLIC";
    case AVRM_SPLIT_RUNS_SCAN: return "RUNS_SCAN";
    case AVRM_SPLIT_CYCLIC_CHECK: return "CYCLIC_CHECK";
    case AVRM_SPLIT_BAD_COLOR: return "BAD";
    default: return "ANY";
    }
}

/* ---- the replay ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static avrm_split_ck_t ck(const world_t *w, uint32_t r)
{
    return (avrm_split_ck_t) { w->col[r], w->key[r] };
}

/* step 1: every process's vote (from its word and r-1's), folded into *all
 * as it is made: the allreduce's result, which every process receives */
static void replay_votes(const world_t *w, avrm_split_sum_t *all)
{
    uint32_t P = w->P;
    for (uint32_t r = 0; r < P; r++) {
        avrm_split_ck_t me = ck(w, r), l;
        avrm_split_sum_t v;
        if (r > 0) l = ck(w, r - 1);
        avrm_split_vote(r, P, me, r > 0 ? &l : NULL, me.color < 0 && me.color != UNDEF, &v);
        if (r == 0)
            *all = v;
        else
            avrm_split_sum_fold(all, &v);
    }
}

static int same_form(const avrm_split_form_t *a, const avrm_split_form_t *b)
{
    return a->kind == b->kind && a->order == b->order && a->period == b->period;
}

/* step 2: every process decides from the sum. Returns 0 when they disagree. */
static int replay_decide(world_t *w, const avrm_split_sum_t *all)
{
    int agree = 1;
    for (uint32_t r = 0; r < w->P; r++) {
        avrm_split_decide(r, w->P, all, &w->f[r]);
        agree &= same_form(&w->f[r], &w->f[0]);
    }
    return agree;
}

/* step 3, RUNS_SCAN, in place: a start reads r-d before r-d is updated
 * (downwards), an end reads r+d before r+d is updated (upwards) */
static void replay_scan(world_t *w)
{
    uint32_t P = w->P;
    int32_t junk;
    for (uint32_t r = 0; r < P; r++) {
        avrm_split_ck_t me = ck(w, r), l, rt;
        if (r > 0) l = ck(w, r - 1);
        if (r + 1 < P) rt = ck(w, r + 1);
        avrm_split_scan_start(r, P, me, r > 0 ? &l : NULL, r + 1 < P ? &rt : NULL,
                              &w->first[r], &w->end[r]);
    }
    for (uint64_t d = 1; d < P; d *= 2) {
        for (uint32_t r = P - 1; r >= d; r--) {
            junk = (int32_t) P + 1;
            avrm_split_scan_fold(&w->first[r], w->first[r - d], &junk, (int32_t) P + 1);
        }
        for (uint32_t r = 0; r + d < P; r++) {
            junk = -1;
            avrm_split_scan_fold(&junk, -1, &w->end[r], w->end[r + d]);
        }
    }
    for (uint32_t r = 0; r < P; r++)
        avrm_split_scan_settle(&w->f[r], w->first[r], w->end[r]);
}

/* step 3, CYCLIC_CHECK: every process's vote on the word of r-C, ANDed */
static void replay_cyclic_check(world_t *w)
{
    uint32_t P = w->P, votes = ~0u;
    for (uint32_t r = 0; r < P; r++) {
        uint32_t C = w->f[r].period;
        avrm_split_ck_t back;
        if (r >= C) back = ck(w, r - C);
        votes &= avrm_split_cyclic_vote(ck(w, r), r >= C ? &back : NULL);
    }
    for (uint32_t r = 0; r < P; r++)
        avrm_split_cyclic_settle(&w->f[r], votes);
}

/* step 4: every process's group (what the glue hands avrm_map_build_affine) */
static uint64_t replay_groups(const world_t *w)
{
    uint64_t sum = 0;
    for (uint32_t r = 0; r < w->P; r++) {
        int64_t first, stride;
        uint32_t n, newrank;
        avrm_split_group(&w->f[r], r, w->P, &first, &stride, &n, &newrank);
        sum += (uint64_t) first + (uint64_t) stride + n + newrank;
    }
    return sum;
}

static outcome_t replay(world_t *w)
{
    outcome_t o = { 0 };
    static volatile uint64_t sink;
    avrm_split_sum_t all;
    double t0 = now();
    replay_votes(w, &all);
    o.agree = replay_decide(w, &all);
    o.path = w->f[0].kind;
    if (o.agree && o.path == AVRM_SPLIT_RUNS_SCAN)
        replay_scan(w);
    else if (o.agree && o.path == AVRM_SPLIT_CYCLIC_CHECK)
        replay_cyclic_check(w);
    for (uint32_t r = 1; o.agree && r < w->P; r++)     /* the kinds settled, alike */
        o.agree = w->f[r].kind == w->f[0].kind && w->f[r].order == w->f[0].order;
    o.kind = w->f[0].kind;
    o.order = w->f[0].order;
    if (o.agree && (o.kind == AVRM_SPLIT_RUNS || o.kind == AVRM_SPLIT_CYCLIC))
        sink += replay_groups(w);
    o.seconds = now() - t0;
    return o;
}

/* ---- the brute force ---- */

static const world_t *cmp_world;

/* MPI's order: colour classes apart, then key, then parent rank */
static int cmp_rank(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
    const int32_t *c = cmp_world->col, *k = cmp_world->key;
    if (c[x] != c[y]) return c[x] < c[y] ? -1 : 1;
    if (k[x] != k[y]) return k[x] < k[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* processes whose group differs from the sorted members of their colour */
static uint32_t check_groups(const world_t *w)
{
    static uint32_t order[CHECK_MAXP], pos[CHECK_MAXP], start[CHECK_MAXP], size[CHECK_MAXP];
    uint32_t P = w->P, wrong = 0;
    for (uint32_t i = 0; i < P; i++) order[i] = i;
    cmp_world = w;
    qsort(order, P, sizeof order[0], cmp_rank);
    for (uint32_t i = 0, s = 0; i < P; i++) {
        if (i > 0 && w->col[order[i]] != w->col[order[i - 1]]) s = i;
        pos[order[i]] = i;
        start[order[i]] = s;
    }
    for (uint32_t i = P; i-- > 0;)      /* class size: from its last member back */
        size[order[i]] = i + 1 < P && start[order[i + 1]] == start[order[i]]
            ? size[order[i + 1]] : i + 1 - start[order[i]];
    for (uint32_t r = 0; r < P; r++) {
        int64_t first, stride;
        uint32_t n, newrank, s = start[r];
        avrm_split_group(&w->f[r], r, P, &first, &stride, &n, &newrank);
        int bad = n != size[r] || newrank != pos[r] - s;
        for (uint32_t i = 0; !bad && i < n; i++)
            bad = first + (int64_t) i * stride != (int64_t) order[s + i];
        if (bad && wrong++ < 3)
            fprintf(stderr, "splitsim: P %u rank %u: group first %" PRId64 " stride %" PRId64
                    " n %u rank %u; brute force n %u rank %u\n", P, r, first, stride, n,
                    newrank, size[r], pos[r] - s);
    }
    return wrong;
}

/* ---- the cost models ---- */

static uint64_t ceil_log2(uint64_t P)
{
    uint64_t L = 0;
    while ((UINT64_C(1) << L) < P) L++;
    return L;
}

/* stock MPICH 4.0.2's allgather of 8 B per process: messages sent per process */
static const char *allgather_model(uint64_t P, uint64_t *msgs)
{
    uint64_t total = P * SPLIT_GATHER_BYTES;
    int pow2 = (P & (P - 1)) == 0;
    if (pow2 && total < ALLGATHER_LONG_MSG_SIZE) {
        *msgs = ceil_log2(P);
        return "recursive_doubling";
    }
    if (!pow2 && total < ALLGATHER_SHORT_MSG_SIZE) {
        *msgs = ceil_log2(P);
        return "brucks";
    }
    *msgs = P - 1;
    return "ring";
}

/* MPICH 4.0.2's MPIR_Allreduce, intra, auto (the csel tree above): which
 * algorithm for count ints of op; 1 when recursive doubling, which sends
 * the busiest process ceil(log2 P) messages of the whole buffer */
static int allreduce_is_recursive_doubling(uint64_t P, uint64_t count, uint64_t type_size,
                                           int op_built_in)
{
    uint64_t avg = count * type_size, pof2 = UINT64_C(1) << (ceil_log2(P + 1) - 1);
    if (avg <= 8)       /* (avg <= 0: smp for a commutative op; not here) */
        return avg > 0;
    return !op_built_in || count < pof2;
}

static uint64_t allreduce_msgs(uint64_t P)
{
    uint64_t pof2 = UINT64_C(1) << (ceil_log2(P + 1) - 1), rem = P - pof2;
    return ceil_log2(pof2) + (rem > 0);        /* the odd ranks below 2 rem */
}

/* ours, the busiest process: messages and bytes sent */
static void ours_model(uint64_t P, int path, int gathers, uint64_t *msgs, uint64_t *bytes)
{
    const uint64_t ck = sizeof(avrm_split_ck_t), sum = sizeof(avrm_split_sum_t);
    uint64_t L = ceil_log2(P), agm, ar = allreduce_msgs(P);
    *msgs = 1 + ar;                                    /* to r+1; the votes' allreduce */
    *bytes = ck + ar * sum;
    if (path == AVRM_SPLIT_RUNS_SCAN && L > 0) {
        *msgs += 1 + (2 * L - 1);                      /* to r-1; the scan */
        *bytes += ck + (2 * L - 1) * sizeof(int32_t);
    } else if (path == AVRM_SPLIT_CYCLIC_CHECK) {
        *msgs += 1 + ar;                               /* to r+C; the votes' AND */
        *bytes += ck + ar * sizeof(uint32_t);
    }
    if (gathers) {
        allgather_model(P, &agm);
        *msgs += agm;
        *bytes += (P - 1) * SPLIT_GATHER_BYTES;
    }
}

/* what no form settles, sorted (a parent of MPIR_CVAR_AVRM_SPLIT_SORT_MIN_SIZE
 * and more; ch4_avrm_split.c's split_sorted, avrm_split.h's S1-S3), the
 * busiest process: the vote as above, then D swaps of an item, the run
 * scan (a word to r+1 for the left neighbour, one to r-1 for the right,
 * the doubling's 2L - 1), its run's size (4 B), the two allreduces that
 * agree on failures (4 B each, recursive doubling), Bruck inside a run of n
 * (ceil(log2 n) messages, (n - 1) * 4 B) and the list (n * 4 B). n: the
 * largest colour. */
static void sort_model(uint64_t P, int path, uint64_t D, uint64_t n, uint64_t *msgs,
                       uint64_t *bytes)
{
    const uint64_t ck = sizeof(avrm_split_ck_t), item = sizeof(avrm_split_item_t);
    uint64_t L = ceil_log2(P), ar = allreduce_msgs(P);
    ours_model(P, path, 0, msgs, bytes);
    *msgs += D + 2 + (L ? 2 * L - 1 : 0) + 1 + 2 * ar + ceil_log2(n) + 1;
    *bytes += D * item + 2 * ck + (L ? 2 * L - 1 : 0) * sizeof(int32_t) + sizeof(uint32_t) +
        2 * ar * sizeof(int32_t) + (n - 1) * sizeof(int32_t) + n * sizeof(int32_t);
}

static int count_step(void *arg, uint32_t partner, int keep_low)
{
    (void) partner;
    (void) keep_low;
    ++*(uint64_t *) arg;
    return 0;
}

/* the comparators of position j over P */
static uint64_t swaps_of(uint32_t P, uint32_t j)
{
    uint64_t c = 0;
    avrm_sort_walk(P, j, count_step, &c);
    return c;
}

/* the most comparators of a position: every position walked up to
 * CHECK_MAXP (and, P a power of two, each must have avrm_sort_depth's
 * k (k + 1) / 2: *bad otherwise), above it positions 0, P/2 and P - 1 */
static uint64_t sort_swaps(uint32_t P, int *bad)
{
    uint32_t few[] = { 0, P / 2, P - 1 };
    uint32_t n = P <= CHECK_MAXP ? P : 3;
    uint64_t most = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c = swaps_of(P, P <= CHECK_MAXP ? i : few[i]);
        if ((P & (P - 1)) == 0 && c != avrm_sort_depth(P))
            *bad = 1;
        most = c > most ? c : most;
    }
    return most;
}

/* the largest colour class (colours in [0, P); scratch: P counters) */
static uint64_t largest_class(const world_t *w, int32_t *count)
{
    uint64_t most = 0;
    memset(count, 0, sizeof(*count) * w->P);
    for (uint32_t r = 0; r < w->P; r++)
        if (w->col[r] >= 0 && (uint32_t) w->col[r] < w->P) {
            uint64_t c = (uint64_t) ++count[w->col[r]];
            most = c > most ? c : most;
        }
    return most;
}

/* ---- main ---- */

static int world_alloc(world_t *w, uint32_t maxP)
{
    w->col = malloc(sizeof(*w->col) * maxP);
    w->key = malloc(sizeof(*w->key) * maxP);
    w->first = malloc(sizeof(*w->first) * maxP);
    w->end = malloc(sizeof(*w->end) * maxP);
    w->f = malloc(sizeof(*w->f) * maxP);
    return w->col && w->key && w->first && w->end && w->f;
}

static void world_free(world_t *w)
{
    free(w->col);
    free(w->key);
    free(w->first);
    free(w->end);
    free(w->f);
}

/* one shape at one P: its row; returns 1 when wrong */
static int run_one(world_t *w, const shape_t *s, uint32_t P, unsigned *checked)
{
    w->P = P;
    s->fill(P, w->col, w->key);
    outcome_t o = replay(w);
    int wrong = !o.agree || o.kind != s->kind ||
        (s->kind != AVRM_SPLIT_NONE && o.order != s->order) ||
        (s->path != ANY_PATH && o.path != s->path);
    if (wrong)
        fprintf(stderr, "splitsim: %s P %u: form %s order %d path %s%s, expected %s order %d "
                "path %s\n", s->name, P, kind_name(o.kind), o.order, kind_name(o.path),
                o.agree ? "" : " (processes disagree)", kind_name(s->kind), s->order,
                kind_name(s->path));
    if (P <= CHECK_MAXP) {
        ++*checked;
        if (o.agree && (o.kind == AVRM_SPLIT_RUNS || o.kind == AVRM_SPLIT_CYCLIC))
            wrong |= check_groups(w) != 0;
    }
    int gathers = o.kind == AVRM_SPLIT_NONE;
    uint64_t msgs, bytes, agm, smsgs = 0, sbytes = 0, slist = 0;
    ours_model(P, o.path, gathers, &msgs, &bytes);
    const char *alg = allgather_model(P, &agm);
    if (gathers) {
        int bad = 0;
        uint64_t n = largest_class(w, w->first);
        sort_model(P, o.path, sort_swaps(P, &bad), n, &smsgs, &sbytes);
        slist = 2 * n * sizeof(int32_t);
        if (bad) {
            fprintf(stderr, "splitsim: %s P %u: a position's comparators are not "
                    "avrm_sort_depth's\n", s->name, P);
            wrong = 1;
        }
    }
    printf("%s,%u,%s,%s,%d,%" PRIu64 ",%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ",%.6f\n", s->name, P, kind_name(o.kind), kind_name(o.path), gathers, msgs,
           bytes, alg, (uint64_t) (P - 1) * SPLIT_GATHER_BYTES, agm, smsgs, sbytes, slist,
           o.seconds);
    fflush(stdout);
    return wrong;
}

int main(int argc, char **argv)
{
    int maxexp = MAXEXP_DEFAULT;
    if (argc > 2 || (argc == 2 && ((maxexp = atoi(argv[1])) < MINEXP || maxexp > MAXEXP_LIMIT))) {
        fprintf(stderr, "usage: %s [maxexp]   (P = 2^%d .. 2^maxexp, maxexp %d..%d, default %d)\n",
                argv[0], MINEXP, MINEXP, MAXEXP_LIMIT, MAXEXP_DEFAULT);
        return 2;
    }
    /* the model's premise: both allreduces run recursive doubling */
    for (int e = MINEXP; e <= maxexp; e++) {
        uint64_t P = UINT64_C(1) << e;
        if (!allreduce_is_recursive_doubling(P, sizeof(avrm_split_sum_t) / sizeof(int), 4, 0) ||
            !allreduce_is_recursive_doubling(P, 1, 4, 1)) {
            fprintf(stderr, "splitsim: the allreduce model does not hold at P = 2^%d\n", e);
            return 1;
        }
    }
    world_t w;
    if (!world_alloc(&w, UINT32_C(1) << maxexp)) {
        fprintf(stderr, "splitsim: out of memory for P = 2^%d\n", maxexp);
        world_free(&w);
        return 1;
    }
    printf("shape,P,form,path,gathers,messages_per_process,bytes_sent_per_process,"
           "allgather_algorithm,allgather_bytes_recv_per_process,allgather_messages_per_process,"
           "sort_messages_per_process,sort_bytes_sent_per_process,sort_list_bytes,seconds\n");
    unsigned checked = 0, wrong = 0;
    for (size_t si = 0; si < NSHAPES; si++)
        for (int e = MINEXP; e <= maxexp; e++)
            wrong += (unsigned) run_one(&w, &shapes[si], UINT32_C(1) << e, &checked);
    world_free(&w);
    fprintf(stderr, "splitsim: %u shapes x P checked, %u wrong\n", checked, wrong);
    return wrong ? 1 : 0;
}
