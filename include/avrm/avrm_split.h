/*
 * avrm_split.h - MPI_Comm_split without gathering the parent: the arithmetic
 * by which every process agrees, from O(1) words exchanged in O(log P)
 * rounds, that a split's colours and keys follow a form whose new groups
 * are rank-map formulas (first + i * stride in the parent). The MPI glue
 * moves the words; everything decided is decided here, the same way in
 * every process.
 *
 * The forms (P: the parent's size; c(r), k(r): colour and key of parent
 * rank r; a boundary is an r > 0 with c(r) != c(r-1)):
 *   RUNS    every colour class is one run of consecutive ranks: the colours
 *           at the boundaries all rise or all fall, so no colour comes back.
 *           Blocks (r / B), one colour, every process its own colour, the
 *           first n ranks and MPI_UNDEFINED after them, cart rows.
 *   CYCLIC  c(r) = c(r mod C) for a period 2 <= C < P, the colours of
 *           r = 0..C-1 strictly monotone: every class is a stride of C.
 *           Odd/even (r % 2), cart columns, r % C.
 * and the order inside each class: keys nondecreasing along it (UP: the
 * new rank is the position in parent order, ties broken by parent rank as
 * MPI says) or strictly decreasing (DOWN: reversed). Anything else: NONE,
 * and the caller gathers (colour, key) as MPICH does. MPI_UNDEFINED is an
 * ordinary colour value here (MPICH's is negative: it may lead a rising
 * sequence or end a falling one); its processes make no communicator.
 * NONE with a parent large enough sorts instead of gathering (below).
 *
 * The protocol, per process r:
 *  1. Learn (c, k) of r-1 (r+1's only in step 3's scan) and take its vote
 *     (avrm_split_vote, 72 B); the votes are reduced over all processes by
 *     avrm_split_sum_fold (one allreduce with it as a commutative op).
 *  2. avrm_split_decide gives the form, the same in every process. Most
 *     shapes are settled there: one run, up to three runs, runs of one
 *     length (the boundaries are the multiples of the first: their count
 *     and gcd say so), a period whose colours step by one amount and wrap
 *     back at multiples of C with keys monotone over the whole parent.
 *  3. Two shapes need one more step:
 *     RUNS_SCAN (runs of several lengths): each process's run bounds by a
 *       two-way doubling scan: for d = 1, 2, 4, ... < P send the run start
 *       to r+d and the run end to r-d, fold what r-d and r+d sent
 *       (avrm_split_scan_start, avrm_split_scan_fold);
 *     CYCLIC_CHECK (a period not settled by its steps): each process learns
 *       (c, k) of r - C (sending its own to r + C), takes
 *       avrm_split_cyclic_vote, the votes are ANDed over all processes
 *       (an allreduce of 4 B), and avrm_split_cyclic_settle decides.
 *  4. avrm_split_group: the new group as parent ranks first + i * stride,
 *     i < n, and this process's rank in it.
 * Messages a process sends, most shapes: 1 neighbour word (8 B, to r+1)
 * and one allreduce of 72 B; RUNS_SCAN adds at most 2 ceil(log2 P) of 4 B,
 * CYCLIC_CHECK 1 of 8 B and an allreduce of 4 B.
 *
 * Thread safety: pure functions on caller data. Cost: O(1) each, but
 * avrm_sort_walk: O(log^2 n) calls of its fn.
 */
#ifndef AVRM_SPLIT_H
#define AVRM_SPLIT_H

#include <stdint.h>

/* one process's colour and key (the words of steps 1 and 3) */
typedef struct avrm_split_ck {
    int32_t color, key;
} avrm_split_ck_t;

/* the votes of a set of processes, folded (step 1's allreduce) */
typedef struct avrm_split_sum {
    uint32_t flags;             /* AVRM_SPLIT_F_*: ANDed */
    int32_t  bmin, bmax;        /* least / greatest boundary (P / 0: none) */
    uint32_t bcount, bgcd;      /* boundaries: how many, gcd of their positions */
    int32_t  nonrise, nonfall;  /* least r > 0 with c(r) <= c(r-1) / >= (P: none) */
    uint32_t wcount, wgcd;      /* the non-rises ("wraps"): how many, gcd */
    uint32_t reserved;          /* 0 */
    int64_t  step_min, step_max;    /* c(r) - c(r-1) where it rises */
    int64_t  wrap_min, wrap_max;    /* c(r) - c(r-1) where it does not */
} avrm_split_sum_t;

#define AVRM_SPLIT_F_RISE       1u  /* no boundary where the colour falls */
#define AVRM_SPLIT_F_FALL       2u  /* no boundary where it rises */
#define AVRM_SPLIT_F_RUN_UP     4u  /* inside runs, keys never decrease */
#define AVRM_SPLIT_F_RUN_DOWN   8u  /* inside runs, keys strictly decrease */
#define AVRM_SPLIT_F_COLOR_OK  16u  /* no process gave an erroneous colour */
#define AVRM_SPLIT_F_NO_REPEAT 32u  /* no two neighbours share a colour (a period's
                                     * precondition) */
#define AVRM_SPLIT_F_KEY_UP    64u  /* keys never decrease over the whole parent */
#define AVRM_SPLIT_F_KEY_DOWN 128u  /* keys strictly decrease over the whole parent */

typedef enum avrm_split_kind {
    AVRM_SPLIT_NONE = 0,    /* no form: gather */
    AVRM_SPLIT_RUNS,
    AVRM_SPLIT_CYCLIC,
    AVRM_SPLIT_RUNS_SCAN,   /* runs, bounds to find by the scan */
    AVRM_SPLIT_CYCLIC_CHECK,/* a period candidate, to check */
    AVRM_SPLIT_BAD_COLOR    /* some process passed an erroneous colour */
} avrm_split_kind_t;

typedef struct avrm_split_form {
    uint8_t  kind;          /* avrm_split_kind_t */
    int8_t   order;         /* +1 UP, -1 DOWN; 0 while unknown (CYCLIC_CHECK) */
    uint32_t period;        /* CYCLIC: C */
    uint32_t run_first;     /* RUNS: this process's run [run_first, run_end) */
    uint32_t run_end;
} avrm_split_form_t;

/* Step 1. left: (c, k) of r-1, NULL for r = 0. bad_color: this process's
 * colour is erroneous (MPI: negative, not MPI_UNDEFINED). */
void avrm_split_vote(uint32_t r, uint32_t P, avrm_split_ck_t me, const avrm_split_ck_t *left,
                     int bad_color, avrm_split_sum_t *vote);
/* acc = acc (+) in: commutative and associative (an MPI op over votes) */
void avrm_split_sum_fold(avrm_split_sum_t *acc, const avrm_split_sum_t *in);

/* Step 2: all = every vote folded. Returns f->kind. */
avrm_split_kind_t avrm_split_decide(uint32_t r, uint32_t P, const avrm_split_sum_t *all,
                                    avrm_split_form_t *f);

/* Step 3, RUNS_SCAN: the scan's two words of rank r (right: (c, k) of r+1,
 * NULL at the end); fold what r-d sent into *first and what r+d sent into
 * *end; then settle with the results. */
void avrm_split_scan_start(uint32_t r, uint32_t P, avrm_split_ck_t me,
                           const avrm_split_ck_t *left, const avrm_split_ck_t *right,
                           int32_t *first, int32_t *end);
void avrm_split_scan_fold(int32_t *first, int32_t from_left, int32_t *end, int32_t from_right);
avrm_split_kind_t avrm_split_scan_settle(avrm_split_form_t *f, int32_t first, int32_t end);

/* Step 3, CYCLIC_CHECK: this process's vote given (c, k) of r - C (NULL
 * when r < C), and the decision from the votes ANDed over every process. */
#define AVRM_SPLIT_V_PERIOD   1u
#define AVRM_SPLIT_V_UP       2u
#define AVRM_SPLIT_V_DOWN     4u
uint32_t avrm_split_cyclic_vote(avrm_split_ck_t me, const avrm_split_ck_t *back);
avrm_split_kind_t avrm_split_cyclic_settle(avrm_split_form_t *f, uint32_t anded_votes);

/* Step 4 (kind RUNS or CYCLIC): the group of rank r's colour is parent ranks
 * *first + i * *stride, i < *n; r is its member *newrank. */
void avrm_split_group(const avrm_split_form_t *f, uint32_t r, uint32_t P, int64_t *first,
                      int64_t *stride, uint32_t *n, uint32_t *newrank);

/*
 * Irregular splits, without any process holding O(P) (avrm_sort.c): when no
 * form above holds, the parent sorts one item per process, (colour, key,
 * parent rank), by a comparator network run across the processes: position
 * j of the network is parent rank j, each comparator a swap of one 12-byte
 * item between its two positions. Then (the glue):
 *  S1. avrm_sort_walk: the comparators of position j, in order. Depth
 *      ceil(log2 P) (ceil(log2 P) + 1) / 2 swaps for any P (a bitonic network
 *      that splits odd sizes unevenly); no deadlock when every position
 *      takes its comparators in this order (each pair meets at the same
 *      comparator: the network's global order restricted to j).
 *  S2. Each colour now holds a run of positions: its bounds by the RUNS_SCAN
 *      above, over the sorted items' colours.
 *  S3. The positions of a run allgather their items' parent ranks (O(run)
 *      each) and each sends the list to the process whose item it holds,
 *      which receives it from a source it cannot know (the glue's rule).
 * Messages a process sends: at most the depth in 12-byte items, the scan's
 * 2 ceil(log2 P) of 4 B, its run's size, ceil(log2 n) of at most n/2 ranks
 * and one list of n ranks (n: its run's size), and the glue's two
 * allreduces of 4 B that agree on failures. Memory: O(n).
 */

/* one process's item of the sort */
typedef struct avrm_split_item {
    int32_t  color, key;
    uint32_t rank;          /* in the parent */
} avrm_split_item_t;

/* <0, 0, >0 as a sorts before, with or after b: by colour, key, parent rank
 * (the new ranks in MPI's order; MPI_UNDEFINED an ordinary colour) */
int avrm_split_item_cmp(const avrm_split_item_t *a, const avrm_split_item_t *b);

/* S1: for each comparator of position j in the network over n positions,
 * in order, fn(arg, partner, keep_low): after swapping items with partner,
 * j keeps the lower of the two (keep_low) or the higher. Stops at fn's first
 * nonzero return and returns it; 0 when done. n = 1: no comparator. */
typedef int (*avrm_sort_fn)(void *arg, uint32_t partner, int keep_low);
int avrm_sort_walk(uint32_t n, uint32_t j, avrm_sort_fn fn, void *arg);

/* a bound on the comparators of any position over n: k (k + 1) / 2,
 * k = ceil(log2 n) (the depth when n is a power of two) */
uint32_t avrm_sort_depth(uint32_t n);

#endif /* AVRM_SPLIT_H */
