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
 * place): every process's avrm_split_start from the words of r-1 and r+1;
 * the scan rounds d = 1, 2, 4, .. < P, each process folding the prefix of
 * r-d (avrm_split_from_left) and the suffix of r+d (from_right); one array
 * per accumulator, the prefixes updated from r = P-1 down to d and the
 * suffixes from r = 0 up to P-1-d, so that what is read is still the
 * previous round's value, as the messages of a round carry it;
 * avrm_split_decide for each process; for a CYCLIC candidate each process's
 * avrm_split_cyclic_vote with the word of r-C, the votes ANDed, and
 * avrm_split_cyclic_settle; avrm_split_group for each process.
 *
 * Shapes (colour, key of parent rank r):
 *   oddeven   r % 2, r                      expected CYCLIC, keys up
 *   blocks8   r / 8, r                      RUNS up
 *   reversed  r / 8, -r                     RUNS down
 *   rows      r / ncols, r                  RUNS up
 *   cols      r % ncols, r                  CYCLIC up
 *   halves    r < P/2, r                    RUNS up (colours fall)
 *   randcolor hash(r) % 4, r                NONE
 *   randkey   r / 8, hash(r)                NONE
 * with nrows the largest divisor of P not above sqrt(P) and ncols = P /
 * nrows (the two factors MPI_Dims_create(P, 2) gives; here the rows are the
 * longer ones). A shape decided other than expected counts as wrong.
 *
 * Output columns (one row per shape and P):
 *   shape, P
 *   form        the kind decided after the cyclic check: RUNS, CYCLIC, NONE
 *   cyclic_check 1 when avrm_split_decide gave a CYCLIC candidate (its
 *               check is paid whether it holds or not)
 *   gathers     1 when the form is NONE: the process then also does the
 *               allgather, as stock MPICH
 *   messages_per_process, bytes_sent_per_process
 *               ours, for an interior process (0 < r < P-1), as the MPI
 *               glue sends them: 2 neighbour words of sizeof(avrm_split_ck_t)
 *               (8 B); 2 accumulators of sizeof(avrm_split_acc_t) (16 B) per
 *               scan round, ceil(log2 P) rounds; for a CYCLIC candidate 1
 *               word (8 B) to r+C and an allreduce of 4 B modelled as
 *               recursive doubling (ceil(log2 P) messages of 4 B); when
 *               gathers = 1, plus the allgather below (it sends (P-1) * 8 B
 *               in each of its algorithms). An upper bound: in the last scan
 *               round d >= P/2, so no process has both r-d and r+d and the
 *               busiest one sends one scan message fewer.
 *   allgather_algorithm, allgather_bytes_recv_per_process,
 *   allgather_messages_per_process
 *               stock MPICH 4.0.2's split: MPIR_Allgather of 2 MPI_INT
 *               (8 B) per process (src/mpi/comm/comm_split.c), every process
 *               receiving (P-1) * 8 B; messages sent: log2 P for recursive
 *               doubling, ceil(log2 P) for Bruck, P-1 for the ring.
 *   seconds     wall time of the replay of all P processes (start, scan,
 *               decide, cyclic check, group), not the shape's set-up or
 *               the check.
 *
 * The allgather's algorithm, as read in MPICH 4.0.2's source
 * (mpich-build/mpich-patched-src; patches/mpich touches no collective
 * selection): there is no MPIR_Allgather_intra_auto in 4.0.2. The blocking
 * MPIR_Allgather_impl with MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM = auto calls
 * MPIR_Allgather_allcomm_auto (src/mpi/coll/mpir_coll.c; CH4 reaches it
 * through MPIDI_Allgather_intra_composition_alpha and the netmod's
 * MPIDI_NM_mpi_allgather), which asks the collective selection tree of
 * maint/tuning/coll/mpir/generic.json (compiled into csel_json_autogen.c):
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
 * (key, parent rank); for every P, that all processes decide the same form
 * and that it is the shape's expected one.
 *
 * Cost: memory 2 * 4 B (colour, key) + 2 * 16 B (prefix, suffix) + 16 B
 * (form) = 56 B per process of the largest P: 0.94 GB at 2^24. Time:
 * O(P log P) library calls per shape and P, about a minute in all for
 * maxexp 24 on one core.
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

/* every process's words and state; arrays sized for the largest P */
typedef struct world {
    uint32_t P;
    int32_t *col, *key;
    avrm_split_acc_t *pre, *suf;
    avrm_split_form_t *f;
} world_t;

/* what the replay decided */
typedef struct outcome {
    int kind;           /* after the cyclic check */
    int order;
    int cyclic_check;   /* decide gave a CYCLIC candidate */
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
} shape_t;

static const shape_t shapes[] = {
    { "oddeven", fill_oddeven, AVRM_SPLIT_CYCLIC, 1 },
    { "blocks8", fill_blocks8, AVRM_SPLIT_RUNS, 1 },
    { "reversed", fill_reversed, AVRM_SPLIT_RUNS, -1 },
    { "rows", fill_rows, AVRM_SPLIT_RUNS, 1 },
    { "cols", fill_cols, AVRM_SPLIT_CYCLIC, 1 },
    { "halves", fill_halves, AVRM_SPLIT_RUNS, 1 },
    { "randcolor", fill_randcolor, AVRM_SPLIT_NONE, 0 },
    { "randkey", fill_randkey, AVRM_SPLIT_NONE, 0 },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

static const char *kind_name(int kind)
{
    switch (kind) {
    case AVRM_SPLIT_RUNS: return "RUNS";
    case AVRM_SPLIT_CYCLIC: return "CYCLIC";
    case AVRM_SPLIT_NONE: return "NONE";
    default: return "BAD_COLOR";
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

/* step 1: each process from its own word and its neighbours' */
static void replay_start(world_t *w)
{
    uint32_t P = w->P;
    for (uint32_t r = 0; r < P; r++) {
        avrm_split_ck_t me = ck(w, r), l, rt;
        if (r > 0) l = ck(w, r - 1);
        if (r + 1 < P) rt = ck(w, r + 1);
        avrm_split_start(r, P, me, r > 0 ? &l : NULL, r + 1 < P ? &rt : NULL,
                         me.color < 0 && me.color != UNDEF, &w->pre[r], &w->suf[r]);
    }
}

/* step 2, in place: a prefix reads r-d before r-d is updated (downwards),
 * a suffix reads r+d before r+d is updated (upwards) */
static void replay_scan(world_t *w)
{
    uint32_t P = w->P;
    for (uint64_t d = 1; d < P; d *= 2) {
        for (uint32_t r = P - 1; r >= d; r--)
            avrm_split_from_left(&w->pre[r], &w->pre[r - d]);
        for (uint32_t r = 0; r + d < P; r++)
            avrm_split_from_right(&w->suf[r], &w->suf[r + d]);
    }
}

static int same_form(const avrm_split_form_t *a, const avrm_split_form_t *b)
{
    return a->kind == b->kind && a->order == b->order && a->period == b->period;
}

/* step 3: every process decides; a CYCLIC candidate is checked by the AND
 * of every process's vote. Returns 0 when processes disagree. */
static int replay_decide(world_t *w, int *cyclic_check)
{
    uint32_t P = w->P, votes = ~0u;
    int agree = 1;
    for (uint32_t r = 0; r < P; r++) {
        avrm_split_decide(&w->pre[r], &w->suf[r], &w->f[r]);
        agree &= same_form(&w->f[r], &w->f[0]);
        if (w->f[r].kind == AVRM_SPLIT_CYCLIC) {
            uint32_t C = w->f[r].period;
            avrm_split_ck_t back;
            if (r >= C) back = ck(w, r - C);
            votes &= avrm_split_cyclic_vote(ck(w, r), r >= C ? &back : NULL);
        }
    }
    *cyclic_check = w->f[0].kind == AVRM_SPLIT_CYCLIC;
    if (*cyclic_check)
        for (uint32_t r = 0; r < P; r++) {
            avrm_split_cyclic_settle(&w->f[r], votes);
            agree &= same_form(&w->f[r], &w->f[0]);
        }
    return agree;
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
    double t0 = now();
    replay_start(w);
    replay_scan(w);
    o.agree = replay_decide(w, &o.cyclic_check);
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

/* ours, an interior process: messages and bytes sent */
static void ours_model(uint64_t P, int cyclic_check, int gathers, uint64_t *msgs, uint64_t *bytes)
{
    uint64_t L = ceil_log2(P), agm;
    *msgs = 2 + 2 * L;
    *bytes = 2 * sizeof(avrm_split_ck_t) + 2 * L * sizeof(avrm_split_acc_t);
    if (cyclic_check) {
        *msgs += 1 + L;
        *bytes += sizeof(avrm_split_ck_t) + L * sizeof(uint32_t);
    }
    if (gathers) {
        allgather_model(P, &agm);
        *msgs += agm;
        *bytes += (P - 1) * SPLIT_GATHER_BYTES;
    }
}

/* ---- main ---- */

static int world_alloc(world_t *w, uint32_t maxP)
{
    w->col = malloc(sizeof(*w->col) * maxP);
    w->key = malloc(sizeof(*w->key) * maxP);
    w->pre = malloc(sizeof(*w->pre) * maxP);
    w->suf = malloc(sizeof(*w->suf) * maxP);
    w->f = malloc(sizeof(*w->f) * maxP);
    return w->col && w->key && w->pre && w->suf && w->f;
}

static void world_free(world_t *w)
{
    free(w->col);
    free(w->key);
    free(w->pre);
    free(w->suf);
    free(w->f);
}

/* one shape at one P: its row; returns 1 when wrong */
static int run_one(world_t *w, const shape_t *s, uint32_t P, unsigned *checked)
{
    w->P = P;
    s->fill(P, w->col, w->key);
    outcome_t o = replay(w);
    int wrong = !o.agree || o.kind != s->kind || (s->kind != AVRM_SPLIT_NONE && o.order != s->order);
    if (wrong)
        fprintf(stderr, "splitsim: %s P %u: form %s order %d%s, expected %s order %d\n", s->name,
                P, kind_name(o.kind), o.order, o.agree ? "" : " (processes disagree)",
                kind_name(s->kind), s->order);
    if (P <= CHECK_MAXP) {
        ++*checked;
        if (o.agree && (o.kind == AVRM_SPLIT_RUNS || o.kind == AVRM_SPLIT_CYCLIC))
            wrong |= check_groups(w) != 0;
    }
    int gathers = o.kind == AVRM_SPLIT_NONE;
    uint64_t msgs, bytes, agm;
    ours_model(P, o.cyclic_check, gathers, &msgs, &bytes);
    const char *alg = allgather_model(P, &agm);
    printf("%s,%u,%s,%d,%d,%" PRIu64 ",%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",%.6f\n", s->name, P,
           kind_name(o.kind), o.cyclic_check, gathers, msgs, bytes, alg,
           (uint64_t) (P - 1) * SPLIT_GATHER_BYTES, agm, o.seconds);
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
    world_t w;
    if (!world_alloc(&w, UINT32_C(1) << maxexp)) {
        fprintf(stderr, "splitsim: out of memory for P = 2^%d\n", maxexp);
        world_free(&w);
        return 1;
    }
    printf("shape,P,form,cyclic_check,gathers,messages_per_process,bytes_sent_per_process,"
           "allgather_algorithm,allgather_bytes_recv_per_process,allgather_messages_per_process,"
           "seconds\n");
    unsigned checked = 0, wrong = 0;
    for (size_t si = 0; si < NSHAPES; si++)
        for (int e = MINEXP; e <= maxexp; e++)
            wrong += (unsigned) run_one(&w, &shapes[si], UINT32_C(1) << e, &checked);
    world_free(&w);
    fprintf(stderr, "splitsim: %u shapes x P checked, %u wrong\n", checked, wrong);
    return wrong ? 1 : 0;
}
