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
 *
 * The protocol, per process r:
 *  1. Learn (c, k) of r-1 and r+1; avrm_split_start fills this process's
 *     prefix and suffix accumulators (16 B each).
 *  2. A two-way doubling scan: for d = 1, 2, 4, ... < P, send the prefix
 *     to r+d and the suffix to r-d; fold what r-d sent with
 *     avrm_split_from_left and what r+d sent with avrm_split_from_right.
 *     After it the prefix covers ranks 0..r and the suffix r..P-1.
 *  3. avrm_split_decide: the form (every process the same), and for RUNS
 *     this process's run. CYCLIC is a candidate until its period is
 *     checked everywhere: each process learns (c, k) of r - C (sending its
 *     own to r + C), takes avrm_split_cyclic_vote, the votes are ANDed
 *     over all processes (one allreduce of an int), and
 *     avrm_split_cyclic_settle ends the decision.
 *  4. avrm_split_group: the new group as parent ranks first + i * stride,
 *     i < n, and this process's rank in it.
 * Messages a process sends: at most 2 + 2 ceil(log2 P) (+ 1 and an
 * allreduce of 4 B for a CYCLIC candidate, which needs no two neighbours
 * of one colour), 8 or 16 B each.
 *
 * Thread safety: pure functions on caller data. Cost: O(1) each.
 */
#ifndef AVRM_SPLIT_H
#define AVRM_SPLIT_H

#include <stdint.h>

/* one process's colour and key (the words of steps 1 and 3) */
typedef struct avrm_split_ck {
    int32_t color, key;
} avrm_split_ck_t;

/* a scan accumulator over a range of ranks (the word of step 2) */
typedef struct avrm_split_acc {
    uint32_t flags;         /* AVRM_SPLIT_F_*: ANDed over the range */
    int32_t  nonrise;       /* least r > 0 in range with c(r) <= c(r-1), else P */
    int32_t  nonfall;       /* least r > 0 in range with c(r) >= c(r-1), else P */
    int32_t  bound;         /* prefix: last run start in range (max, -1 none);
                             * suffix: first run end in range (min, P + 1 none) */
} avrm_split_acc_t;

#define AVRM_SPLIT_F_RISE      1u   /* no boundary where the colour falls */
#define AVRM_SPLIT_F_FALL      2u   /* no boundary where it rises */
#define AVRM_SPLIT_F_RUN_UP    4u   /* inside runs, keys never decrease */
#define AVRM_SPLIT_F_RUN_DOWN  8u   /* inside runs, keys strictly decrease */
#define AVRM_SPLIT_F_COLOR_OK 16u   /* no process gave an erroneous colour */
#define AVRM_SPLIT_F_NO_REPEAT 32u  /* no two neighbours share a colour (a period's
                                     * precondition: spares its check otherwise) */

typedef enum avrm_split_kind {
    AVRM_SPLIT_NONE = 0,    /* no form: gather */
    AVRM_SPLIT_RUNS,
    AVRM_SPLIT_CYCLIC,      /* after avrm_split_decide: a candidate, check it */
    AVRM_SPLIT_BAD_COLOR    /* some process passed an erroneous colour */
} avrm_split_kind_t;

typedef struct avrm_split_form {
    uint8_t  kind;          /* avrm_split_kind_t */
    int8_t   order;         /* +1 UP, -1 DOWN; 0 while a CYCLIC key order is unknown */
    uint32_t period;        /* CYCLIC: C */
    uint32_t run_first;     /* RUNS: this process's run [run_first, run_end) */
    uint32_t run_end;
} avrm_split_form_t;

/* Step 1. left/right: (c, k) of r-1 / r+1, NULL at the ends. bad_color:
 * this process's colour is erroneous (MPI: negative, not MPI_UNDEFINED). */
void avrm_split_start(uint32_t r, uint32_t P, avrm_split_ck_t me, const avrm_split_ck_t *left,
                      const avrm_split_ck_t *right, int bad_color, avrm_split_acc_t *prefix,
                      avrm_split_acc_t *suffix);

/* Step 2: fold the prefix of rank r-d into this prefix / the suffix of r+d
 * into this suffix. */
void avrm_split_from_left(avrm_split_acc_t *prefix, const avrm_split_acc_t *in);
void avrm_split_from_right(avrm_split_acc_t *suffix, const avrm_split_acc_t *in);

/* Step 3. Returns f->kind. */
avrm_split_kind_t avrm_split_decide(const avrm_split_acc_t *prefix,
                                    const avrm_split_acc_t *suffix, avrm_split_form_t *f);

/* CYCLIC check: this process's vote given (c, k) of r - C (NULL when
 * r < C), and the decision from the votes ANDed over every process. */
#define AVRM_SPLIT_V_PERIOD   1u
#define AVRM_SPLIT_V_UP       2u
#define AVRM_SPLIT_V_DOWN     4u
uint32_t avrm_split_cyclic_vote(avrm_split_ck_t me, const avrm_split_ck_t *back);
avrm_split_kind_t avrm_split_cyclic_settle(avrm_split_form_t *f, uint32_t anded_votes);

/* Step 4 (kind RUNS or CYCLIC): the group of rank r's colour is parent ranks
 * *first + i * *stride, i < *n; r is its member *newrank. */
void avrm_split_group(const avrm_split_form_t *f, uint32_t r, uint32_t P, int64_t *first,
                      int64_t *stride, uint32_t *n, uint32_t *newrank);

#endif /* AVRM_SPLIT_H */
