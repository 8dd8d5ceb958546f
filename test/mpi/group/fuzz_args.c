/*
 * fuzz_args: a deterministic fuzz of the arguments of the group and
 * communicator creation calls under MPI_ERRORS_RETURN.
 *
 *   fuzz_args [ITERS [SEED [MODE]]]     defaults 300 1
 *
 * Each iteration picks one call and random arguments, valid or not:
 *   MPI_Group_incl / _excl (repeated and out-of-range ranks, n < 0, n = 0,
 *   n = group size, n > group size), MPI_Group_range_incl / _range_excl
 *   (positive and negative strides, zero stride, out-of-range endpoints,
 *   duplicated ranks across triplets, INT_MIN / INT_MAX, n = 0, n < 0, more
 *   triplets than the group has ranks), MPI_Group_union / _intersection /
 *   _difference / _compare / _translate_ranks (MPI_PROC_NULL and out-of-range
 *   ranks) on groups made earlier in the run, MPI_GROUP_EMPTY, MPI_GROUP_NULL
 *   and the groups of communicators made earlier (MPI_Comm_group, a group
 *   that differs by process), MPI_Comm_create (per-process disjoint groups,
 *   groups that are not a subset of the communicator), MPI_Comm_create_group
 *   (called by the members of the group only, the same group on each; bad
 *   tags; groups that are not a subset) and MPI_Comm_split (MPI_UNDEFINED,
 *   negative colours at some processes, colours near INT_MAX, keys INT_MIN /
 *   INT_MAX, ties) on MPI_COMM_WORLD, MPI_COMM_NULL and communicators made
 *   earlier (a pool of a few, freed at the end), and MPI_Intercomm_create
 *   between the even and odd ranks of those (bad tags, local leaders out of
 *   range, MPI_COMM_NULL; both sides checked against the test's lists).
 *
 * The arguments are checked by the test itself against MPI-4.0's rules
 * (7.3.2, 7.4.2), not derived from how they were drawn: an erroneous call
 * must return an error whose class (MPI_Error_class) is one the erroneous
 * arguments stand for and leave the output handle null; a valid call must
 * succeed with the result the test computes (group members as world ranks,
 * av_check_group; new communicators, av_check_comm, with the error handler
 * MPI_ERRORS_RETURN inherited from the parent).  Classes expected:
 *   MPI_ERR_RANK  incl/excl: a rank out of range or repeated (n > size is
 *                 one of these); translate_ranks: a rank out of range;
 *                 MPI_Intercomm_create: a local leader out of range
 *   MPI_ERR_ARG   n < 0; a range with stride 0, a computed rank out of
 *                 range or computed twice; a negative colour other than
 *                 MPI_UNDEFINED at any process of the parent (every process
 *                 of that parent gets it)
 *   MPI_ERR_GROUP MPI_GROUP_NULL; MPI_Comm_create_group (at every caller)
 *                 and MPI_Comm_create (at the callers in the group) with a
 *                 group that is not a subset of the communicator
 *   MPI_ERR_TAG   MPI_Comm_create_group or MPI_Intercomm_create with a
 *                 negative tag
 *   MPI_ERR_COMM  MPI_COMM_NULL as the parent
 * One random sequence drives every process (the seed is the same
 * everywhere; each iteration draws from a stream derived from the shared
 * one, so a draw that depends on a process's own group stays within its
 * iteration): collective calls are entered by the same decisions, and an
 * erroneous collective argument is the same at every process of the parent
 * except a negative colour, which MPI_Comm_split must report everywhere.
 *
 * Where the library departs from MPI-4.0 the case is kept out (or
 * accepted both ways) unless MODE asks for it (comma separated):
 *   strict    expect what MPI-4.0 says where MPICH differs:
 *             - a range with a negative stride and a last < 0 whose
 *               computed ranks are all valid, e.g. (3, -1, -5) = {3}:
 *               MPICH returns MPI_ERR_ARG (it requires last >= 0);
 *             - a triplet whose stride goes away from last, e.g. (3, 1, 1):
 *               MPI's formula computes no rank, MPICH returns MPI_ERR_ARG
 *               (without strict either answer passes);
 *             - MPI_Comm_create with a group that is not a subset of the
 *               communicator: erroneous, but MPICH returns MPI_SUCCESS and
 *               MPI_COMM_NULL at the callers that are not in the group
 *               (without strict that passes);
 *             - a communicator made by MPI_Comm_create or
 *               MPI_Comm_create_group inherits the parent's error handler
 *               (MPI-4.0 9.3): MPICH gives it MPI_ERRORS_ARE_FATAL (the
 *               test sets MPI_ERRORS_RETURN on every new communicator)
 *   nooverflow  keeps out two ranges that crash MPICH 4.0.2's range
 *             check (MPIR_Group_check_valid_ranges; patch
 *             group-range-int-overflow fixes it here), for stock:
 *             - a positive stride whose next rank after the last computed
 *               one passes INT_MAX, e.g. (1, INT_MAX, INT_MAX) = {1} (valid):
 *               SIGSEGV (signed overflow in its loop); with nooverflow the
 *               stride is shortened to INT_MAX - first;
 *             - last - first = INT_MIN with stride -1, e.g. (0, INT_MIN, -1)
 *               (erroneous): SIGFPE (INT_MIN / -1); with nooverflow last is
 *               moved up 1
 *   stats     rank 0 prints how many calls of each kind ran and how many
 *             were erroneous
 *   trace     every process prints each call, its outcome and the expected
 */
#include <limits.h>
#include "avtest.h"

#define GPOOL 14                /* groups: 0 = world, 1 = MPI_GROUP_EMPTY, */
#define GKEEP 5                 /* 2..4 the first groups, kept */
#define CPOOL 6                 /* communicators: 0 = MPI_COMM_WORLD */
#define CLS(c) (1u << (c))

typedef struct {
    MPI_Group g;                /* this process's handle */
    int n, *w;                  /* members' world ranks, in group order */
    int global;                 /* the same group on every process */
} gent_t;

typedef struct {
    MPI_Comm c;                 /* this process's communicator or MPI_COMM_NULL */
    int nparts;                 /* communicators in the slot (one per part) */
    int *part, *crank;          /* world rank -> part or -1, rank in the part */
} cent_t;

static gent_t gp[GPOOL], gnull = { MPI_GROUP_NULL, 0, NULL, 1 };
static cent_t cp[CPOOL];
static int ngp, ncp, W, strict, overflow, stats, trace;
static unsigned seed, S;        /* the shared stream; this iteration's */
static char ctx[1024];

enum { OP_INCL, OP_EXCL, OP_RINCL, OP_REXCL, OP_UNION, OP_INTER, OP_DIFF, OP_COMPARE,
       OP_TRANSLATE, OP_COMMGROUP, OP_CREATE, OP_CREATE_GROUP, OP_SPLIT, OP_INTERCOMM, NOPS };
static const char *const op_name[NOPS] = {
    "MPI_Group_incl", "MPI_Group_excl", "MPI_Group_range_incl", "MPI_Group_range_excl",
    "MPI_Group_union", "MPI_Group_intersection", "MPI_Group_difference", "MPI_Group_compare",
    "MPI_Group_translate_ranks", "MPI_Comm_group", "MPI_Comm_create", "MPI_Comm_create_group",
    "MPI_Comm_split", "MPI_Intercomm_create" };
static int ncalls[NOPS], nbad[NOPS];

static int rnd(int n)
{
    return n > 0 ? (int) (av_rand(&S) % (unsigned) n) : 0;
}

static int pick(const int *v, int n)
{
    return v[rnd(n)];
}

static int *ints(int n)
{
    return calloc((size_t) (n > 0 ? n : 0) + 1, sizeof(int));
}

/* ---- messages ---- */

static void cat(const char *fmt, ...)
{
    size_t l = strlen(ctx);
    va_list ap;
    if (l + 1 >= sizeof ctx)
        return;
    va_start(ap, fmt);
    vsnprintf(ctx + l, sizeof ctx - l, fmt, ap);
    va_end(ap);
}

static void cat_ints(const int *v, int n)
{
    cat("{");
    for (int i = 0; i < n && i < 12; i++)
        cat(i ? ",%d" : "%d", v[i]);
    cat(n > 12 ? ",...}" : "}");
}

static void cat_group(const gent_t *e)
{
    if (e == &gnull) {
        cat("MPI_GROUP_NULL");
        return;
    }
    cat("pool %d%s world", (int) (e - gp), e->global ? "" : " (this process's)");
    cat_ints(e->w, e->n);
}

static const char *cls_name(int c)
{
    switch (c) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_GROUP: return "MPI_ERR_GROUP";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_TAG: return "MPI_ERR_TAG";
    default: return "another class";
    }
}

static const char *mask_names(unsigned m, char *buf, size_t len)
{
    buf[0] = 0;
    for (int c = 0; c < 32; c++)
        if (m & CLS(c))
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s(%d)", buf[0] ? " or " : "",
                     cls_name(c), c);
    return buf;
}

/* The return code against the expectation: errs = the classes the
 * erroneous arguments stand for (0: the call is valid), may_pass = MPI
 * leaves it open whether the call succeeds (or MPICH's known answer is
 * accepted, see the header). 1 when the call succeeded as it may: the
 * caller checks its result. */
static int check_rc(int rc, unsigned errs, int may_pass, int op)
{
    char b[160];
    if (trace) {
        int cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        printf("[world %d] %s -> %s (expected %s%s)\n", av_wrank, ctx, cls_name(cls),
               errs ? mask_names(errs, b, sizeof b) : "MPI_SUCCESS",
               errs && may_pass ? " or MPI_SUCCESS" : "");
    }
    ncalls[op]++;
    if (errs && !may_pass)
        nbad[op]++;
    if (rc == MPI_SUCCESS) {
        if (errs && !may_pass) {
            av_err("returned MPI_SUCCESS, expected %s", mask_names(errs, b, sizeof b));
            return 0;
        }
        return 1;
    }
    int cls = -1;
    MPI_Error_class(rc, &cls);
    if (!errs)
        av_err("failed with %s(%d), expected MPI_SUCCESS", cls_name(cls), cls);
    else if (!(errs & CLS(cls)))
        av_err("error class %s(%d), expected %s", cls_name(cls), cls,
               mask_names(errs, b, sizeof b));
    return 0;
}

/* ---- groups ---- */

static void free_group(MPI_Group *g)
{
    if (*g != MPI_GROUP_NULL && *g != MPI_GROUP_EMPTY)
        MPI_Group_free(g);
    *g = MPI_GROUP_NULL;
}

/* the outcome of a group constructor: 1 when ng is to be checked */
static int group_outcome(int rc, unsigned errs, int may_pass, int op, MPI_Group *ng)
{
    int ok = check_rc(rc, errs, may_pass, op);
    if (rc != MPI_SUCCESS && *ng != MPI_GROUP_NULL) {
        av_err("failed but newgroup is not MPI_GROUP_NULL");
        *ng = MPI_GROUP_NULL;   /* not a handle we may free */
    }
    if (rc == MPI_SUCCESS && !ok)
        free_group(ng);
    return ok;
}

static void check_new_group(MPI_Group g, const int *w, int n)
{
    av_check_group(g, w, n);
    int r, want = av_find(w, n, av_wrank), res;
    MPI_Group_rank(g, &r);
    if (r != (want < 0 ? MPI_UNDEFINED : want))
        av_err("MPI_Group_rank %d, expected %d", r, want < 0 ? MPI_UNDEFINED : want);
    if (n == 0) {
        MPI_Group_compare(g, MPI_GROUP_EMPTY, &res);
        if (res != MPI_IDENT)
            av_err("an empty result compares %d with MPI_GROUP_EMPTY", res);
    }
}

/* a pool slot for a new entry (decided alike everywhere) */
static int gslot(void)
{
    if (ngp < GPOOL)
        return ngp++;
    int s = GKEEP + rnd(GPOOL - GKEEP);
    free_group(&gp[s].g);
    free(gp[s].w);
    return s;
}

/* a checked result: pooled when it is the same everywhere and not empty
 * (the pool keeps MPI_GROUP_EMPTY), else freed */
static void take_group(MPI_Group g, int *w, int n, int global)
{
    if (!global || n == 0) {
        free_group(&g);
        free(w);
        return;
    }
    gp[gslot()] = (gent_t) { g, n, w, 1 };
}

static gent_t *pick_group(void)
{
    return rnd(14) == 0 ? &gnull : &gp[rnd(ngp)];
}

/* a list of n ranks of a group of size (n > 0): distinct, random order */
static void perm_prefix(int *r, int n, int size)
{
    int *p = ints(size);
    for (int i = 0; i < size; i++)
        p[i] = i;
    av_shuffle(p, size, &S);
    for (int i = 0; i < n; i++)
        r[i] = p[i];
    free(p);
}

static const int bad_rank_neg[] = { -2, -3, -1000, MPI_UNDEFINED, INT_MIN };

/* ranks for incl/excl; returns n (may be < 0), r has room for size + 3 */
static int gen_ranks(int size, int *r)
{
    int n, k;
    switch (rnd(10)) {
    case 0:
        return 0;
    case 1:                     /* n = size */
        perm_prefix(r, size, size);
        return size;
    case 2:                     /* n > size: a repeat or an out-of-range rank */
        n = size + 1 + rnd(2);
        for (int i = 0; i < n; i++)
            r[i] = size ? rnd(size) : rnd(3);
        return n;
    case 3:
        r[0] = 0;
        return rnd(2) ? -1 : INT_MIN;
    case 4:                     /* a rank repeated */
        k = 1 + rnd(size);
        perm_prefix(r, k < size ? k : size, size);
        if (size == 0)
            r[0] = 0;
        r[k] = r[rnd(k)];
        return k + 1;
    case 5:                     /* a rank out of range (MPI_PROC_NULL too) */
        n = 1 + rnd(size + 1);
        perm_prefix(r, n < size ? n : size, size);
        k = rnd(3);
        r[rnd(n)] = k == 0 ? size + rnd(3) : k == 1 ? MPI_PROC_NULL
            : k == 2 && rnd(2) ? INT_MAX : pick(bad_rank_neg, 5);
        return n;
    default:
        n = rnd(size + 1);
        perm_prefix(r, n, size);
        return n;
    }
}

/* MPI's classes for incl/excl/translate rank lists */
static unsigned check_ranks(const int *r, int n, int size, int proc_null_ok)
{
    unsigned e = 0;
    if (n < 0)
        return CLS(MPI_ERR_ARG);
    for (int i = 0; i < n; i++) {
        if (proc_null_ok && r[i] == MPI_PROC_NULL)
            continue;
        if (r[i] < 0 || r[i] >= size)
            e |= CLS(MPI_ERR_RANK);
        else if (!proc_null_ok && av_find(r, i, r[i]) >= 0)
            e |= CLS(MPI_ERR_RANK);
    }
    return e;
}

static void op_incl_excl(int op)
{
    gent_t *a = pick_group();
    int *r = ints(a->n + 3), n = gen_ranks(a->n, r);
    unsigned errs = (a == &gnull ? CLS(MPI_ERR_GROUP) : 0) | check_ranks(r, n, a->n, 0);
    cat("%s(", op_name[op]);
    cat_group(a);
    cat(", n=%d, ranks=", n);
    cat_ints(r, n);
    cat(")");
    MPI_Group ng = MPI_GROUP_NULL;
    int rc = op == OP_INCL ? MPI_Group_incl(a->g, n, r, &ng) : MPI_Group_excl(a->g, n, r, &ng);
    if (group_outcome(rc, errs, 0, op, &ng)) {
        int *w = ints(a->n), m = 0;
        if (op == OP_INCL) {
            for (int i = 0; i < n; i++)
                w[m++] = a->w[r[i]];
            if (n == 0 && ng != MPI_GROUP_EMPTY)    /* MPI-4.0 7.3.2 */
                av_err("n = 0 gave a group other than MPI_GROUP_EMPTY");
        } else {
            for (int i = 0; i < a->n; i++)
                if (av_find(r, n, i) < 0)
                    w[m++] = a->w[i];
        }
        check_new_group(ng, w, m);
        take_group(ng, w, m, a->global);
    }
    free(r);
}

/* One triplet as MPI-4.0 reads it: its computed ranks
 * first + i * stride, 0 <= i <= floor((last - first) / stride), appended
 * to out. T_BAD: stride 0, first or a computed rank out of range; T_AWAY:
 * a valid first but the stride goes away from last (floor < 0: no rank is
 * computed, by the formula; MPI-4.0 says no more about it). */
enum { T_OK, T_BAD, T_AWAY };
static int triplet(const int *t, int size, int *out, int *k)
{
    long long first = t[0], last = t[1], stride = t[2];
    if (stride == 0 || first < 0 || first >= size)
        return T_BAD;
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
        return T_AWAY;
    long long cnt = (last - first) / stride + 1;    /* same signs: floor */
    if (cnt > size)
        return T_BAD;           /* more distinct ranks than the group has */
    for (long long i = 0; i < cnt; i++) {
        long long x = first + i * stride;
        if (x < 0 || x >= size)
            return T_BAD;
        out[(*k)++] = (int) x;
    }
    return T_OK;
}

static void gen_triplet(int size, int *t)
{
    int first = size ? rnd(size) : 0, s = 1 + rnd(3), cnt;
    static const int bad_first[] = { -1, -2, INT_MIN, INT_MAX };
    switch (rnd(20)) {
    case 0:                     /* zero stride */
        t[0] = first, t[1] = rnd(size + 1), t[2] = 0;
        return;
    case 1:                     /* first out of range */
        t[0] = rnd(2) ? size + rnd(2) : pick(bad_first, 4);
        t[2] = rnd(2) ? 1 : -1;
        t[1] = t[2] > 0 ? size : 0;
        return;
    case 2:                     /* the last computed rank out of range */
        if (rnd(2))
            t[0] = first, t[1] = size + rnd(3) * s, t[2] = s;
        else
            t[0] = first, t[1] = -1 - rnd(3), t[2] = -1;    /* computes -1 */
        return;
    case 3:                     /* the stride goes away from last */
        t[0] = first, t[1] = first + (rnd(2) ? 1 + rnd(3) : -1 - rnd(3));
        t[2] = t[1] > t[0] ? -s : s;
        return;
    case 4:                     /* extremes */
        t[0] = first;
        t[1] = rnd(2) ? INT_MAX : rnd(2) ? INT_MIN : first;
        t[2] = rnd(2) ? INT_MAX : rnd(2) ? INT_MIN : t[1] >= first ? 1 : -1;
        return;
    case 5: case 6: case 7: case 8: case 9: case 10: case 11:
        /* descending, possibly overshooting last */
        cnt = rnd(first / s + 1);
        t[0] = first, t[1] = first - cnt * s - (rnd(2) ? rnd(s) : 0), t[2] = -s;
        if (rnd(6) == 0)
            t[2] = -(size + 1);     /* one rank */
        return;
    default:                    /* ascending, possibly overshooting last */
        if (rnd(6) == 0)
            s = size + 1 + rnd(INT_MAX - size - 1);     /* one rank */
        cnt = s > size ? 0 : rnd((size - 1 - first) / s + 1);
        t[0] = first, t[1] = first + cnt * s + (rnd(2) ? rnd(s < 1000 ? s : 1000) : 0);
        t[2] = s;
        return;
    }
}

/* keep out what MPICH gets wrong (see the header) unless asked for */
static void tame_triplet(int size, int *t)
{
    long long first = t[0], last = t[1], stride = t[2];
    if (first < 0 || first >= size || stride == 0)
        return;
    /* (first, INT_MIN + first, -1): MPICH divides INT_MIN by -1 (SIGFPE) */
    if (!overflow && stride == -1 && last - first == INT_MIN)
        t[1]++;
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
        return;
    long long act = first + stride * ((last - first) / stride);
    if (!overflow && stride > 0 && act < size && act + stride > INT_MAX) {
        t[2] = INT_MAX - t[0];
        if (t[1] > INT_MAX - 1)
            t[1] = INT_MAX - 1;
    }
    /* (first, last < 0, -s) with every computed rank valid: MPI's answer,
     * MPICH's MPI_ERR_ARG; last moved to the last computed rank */
    if (!strict && stride < 0 && last < 0 && act >= 0 && (first - act) / -stride + 1 <= size)
        t[1] = (int) act;
}

static void op_range(int op)
{
    gent_t *a = pick_group();
    int n = rnd(8) == 0 ? -1 : rnd(8) == 0 ? a->n + 1 : rnd(4);
    int (*rg)[3] = calloc((size_t) (n > 0 ? n : 1), sizeof *rg);
    for (int i = 0; i < n; i++) {
        gen_triplet(a->n, rg[i]);
        tame_triplet(a->n, rg[i]);
    }
    /* MPI's reading: every computed rank, in order */
    unsigned errs = a == &gnull ? CLS(MPI_ERR_GROUP) : 0;
    int away = 0, k = 0, cap = 0;
    for (int i = 0; i < n; i++)
        cap += a->n + 1;
    int *ranks = ints(cap);
    if (n < 0)
        errs |= CLS(MPI_ERR_ARG);
    for (int i = 0; i < n; i++) {
        int kind = triplet(rg[i], a->n, ranks, &k);
        if (kind == T_BAD)
            errs |= CLS(MPI_ERR_ARG);
        away += kind == T_AWAY;
    }
    for (int i = 0; i < k; i++)
        if (av_find(ranks, i, ranks[i]) >= 0)
            errs |= CLS(MPI_ERR_ARG);   /* a rank computed twice */
    int may_pass = 0;
    if (away && !strict) {      /* no rank, or MPICH's MPI_ERR_ARG */
        may_pass = errs == 0;
        errs |= CLS(MPI_ERR_ARG);
    }
    cat("%s(", op_name[op]);
    cat_group(a);
    cat(", n=%d, ranges={", n);
    for (int i = 0; i < n && i < 6; i++)
        cat("%s(%d,%d,%d)", i ? "," : "", rg[i][0], rg[i][1], rg[i][2]);
    cat(n > 6 ? ",...})" : "})");
    MPI_Group ng = MPI_GROUP_NULL;
    int rc = op == OP_RINCL ? MPI_Group_range_incl(a->g, n, rg, &ng)
        : MPI_Group_range_excl(a->g, n, rg, &ng);
    if (group_outcome(rc, errs, may_pass, op, &ng)) {
        int *w = ints(a->n + k), m = 0;
        if (op == OP_RINCL) {
            for (int i = 0; i < k; i++)
                w[m++] = a->w[ranks[i]];
        } else {
            for (int i = 0; i < a->n; i++)
                if (av_find(ranks, k, i) < 0)
                    w[m++] = a->w[i];
        }
        check_new_group(ng, w, m);
        take_group(ng, w, m, a->global);
    }
    free(ranks);
    free(rg);
}

/* members of a that are (want 1) / are not (0) in b */
static int ref_select(const gent_t *a, const gent_t *b, int want, int *out)
{
    return av_ref_select(a->w, a->n, b->w, b->n, want, out);
}

static int ref_compare(const gent_t *a, const gent_t *b)
{
    return av_ref_compare(a->w, a->n, b->w, b->n);
}

static void op_set(int op)
{
    gent_t *a = pick_group(), *b = pick_group();
    unsigned errs = a == &gnull || b == &gnull ? CLS(MPI_ERR_GROUP) : 0;
    cat("%s(", op_name[op]);
    cat_group(a);
    cat(", ");
    cat_group(b);
    cat(")");
    if (op == OP_COMPARE) {
        int res = -77, rc = MPI_Group_compare(a->g, b->g, &res);
        if (check_rc(rc, errs, 0, op) && res != ref_compare(a, b))
            av_err("result %d, expected %d", res, ref_compare(a, b));
        return;
    }
    MPI_Group ng = MPI_GROUP_NULL;
    int rc = op == OP_UNION ? MPI_Group_union(a->g, b->g, &ng)
        : op == OP_INTER ? MPI_Group_intersection(a->g, b->g, &ng)
        : MPI_Group_difference(a->g, b->g, &ng);
    if (group_outcome(rc, errs, 0, op, &ng)) {
        int *w = ints(a->n + b->n), m;
        if (op == OP_UNION) {
            memcpy(w, a->w, sizeof(int) * (size_t) a->n);
            m = a->n + ref_select(b, a, 0, w + a->n);
        } else {
            m = ref_select(a, b, op == OP_INTER, w);
        }
        check_new_group(ng, w, m);
        take_group(ng, w, m, a->global && b->global);
    }
}

static void op_translate(void)
{
    gent_t *a = pick_group(), *b = pick_group();
    int size = a->n, n, kind = rnd(8);
    n = kind == 0 ? 0 : kind == 1 ? size : kind == 2 ? size + 1 + rnd(2)
        : kind == 3 ? (rnd(2) ? -1 : INT_MIN) : rnd(size + 2);
    int *r = ints(n), *out = ints(n);
    for (int i = 0; i < n; i++) {
        int k = rnd(10);
        r[i] = k == 1 ? (rnd(2) ? size + rnd(2) : rnd(2) ? INT_MAX : pick(bad_rank_neg, 5))
            : k == 0 || size == 0 ? MPI_PROC_NULL : rnd(size);
        out[i] = -77;
    }
    unsigned errs = (a == &gnull || b == &gnull ? CLS(MPI_ERR_GROUP) : 0) |
        check_ranks(r, n, size, 1);
    cat("%s(", op_name[OP_TRANSLATE]);
    cat_group(a);
    cat(", n=%d, ranks1=", n);
    cat_ints(r, n);
    cat(", ");
    cat_group(b);
    cat(")");
    int rc = MPI_Group_translate_ranks(a->g, n, r, b->g, out);
    if (check_rc(rc, errs, 0, OP_TRANSLATE))
        for (int i = 0; i < n; i++) {
            int want = r[i] == MPI_PROC_NULL ? MPI_PROC_NULL : av_find(b->w, b->n, a->w[r[i]]);
            if (want == -1 && r[i] != MPI_PROC_NULL)
                want = MPI_UNDEFINED;
            if (out[i] != want) {
                av_err("rank %d translated to %d, expected %d", r[i], out[i], want);
                break;
            }
        }
    free(r);
    free(out);
}

/* ---- communicators ---- */

/* world ranks of part p of slot e in rank order; returns the count */
static int part_members(const cent_t *e, int p, int *out)
{
    int n = 0;
    for (int w = 0; w < W; w++)
        if (e->part[w] == p) {
            out[e->crank[w]] = w;
            n++;
        }
    return n;
}

static int subset_of(const int *l, int n, const int *set, int m)
{
    for (int i = 0; i < n; i++)
        if (av_find(set, m, l[i]) < 0)
            return 0;
    return 1;
}

/* a new communicator of this process: its error handler inherited from
 * the parent (MPI-4.0 9.3; MPICH's MPI_Comm_create and _create_group give
 * MPI_ERRORS_ARE_FATAL instead: checked in strict mode only), then the
 * full check against its expected members */
static void check_new_comm(MPI_Comm c, const int *w, int n, int op)
{
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(c, &eh);
    if (eh != MPI_ERRORS_RETURN && (strict || op == OP_SPLIT))
        av_err("the new communicator's error handler is not MPI_ERRORS_RETURN"
               " (the parent's)");
    MPI_Errhandler_free(&eh);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    av_check_comm(c, w, n);
}

/* the outcome of a communicator constructor at this process: expect a
 * communicator of members w[0..n) when member, else MPI_COMM_NULL */
static void comm_outcome(int rc, unsigned errs, int may_pass, int op, MPI_Comm *nc,
                         const int *w, int n, int member)
{
    int ok = check_rc(rc, errs, may_pass, op);
    if (rc != MPI_SUCCESS && *nc != MPI_COMM_NULL) {
        av_err("failed but newcomm is not MPI_COMM_NULL");
        *nc = MPI_COMM_NULL;
        return;
    }
    if (rc != MPI_SUCCESS)
        return;
    if (!ok || !member) {
        if (*nc != MPI_COMM_NULL) {
            if (ok)
                av_err("a process outside the new group got a communicator");
            MPI_Comm_free(nc);  /* its other members do the same (or hang) */
        }
        return;
    }
    if (*nc == MPI_COMM_NULL)
        av_err("a member got MPI_COMM_NULL");
    else
        check_new_comm(*nc, w, n, op);
}

/* a new slot from a plan (part/crank per world rank), or the new
 * communicators freed when no process got one */
static void take_comm(MPI_Comm c, int nparts, int *part, int *crank)
{
    if (nparts == 0) {
        free(part);
        free(crank);
        return;
    }
    int s;
    if (ncp < CPOOL) {
        s = ncp++;
    } else {
        s = 1 + rnd(CPOOL - 1);
        if (cp[s].c != MPI_COMM_NULL)
            MPI_Comm_free(&cp[s].c);
        free(cp[s].part);
        free(cp[s].crank);
    }
    cp[s] = (cent_t) { c, nparts, part, crank };
}

/* a parent: a pool slot, or -1 for MPI_COMM_NULL (every process calls) */
static int pick_parent(void)
{
    return rnd(16) == 0 ? -1 : rnd(ncp);
}

static void cat_parent(int k)
{
    if (k < 0) {
        cat("MPI_COMM_NULL");
        return;
    }
    int *m = ints(W), p = cp[k].part[av_wrank];
    cat("comm pool %d (%d parts", k, cp[k].nparts);
    if (p >= 0) {
        int n = part_members(&cp[k], p, m);
        cat(", this process's world");
        cat_ints(m, n);
    }
    cat(")");
    free(m);
}

static const int good_colors[] = { 0, 0, 1, 1, 2, 3, MPI_UNDEFINED, INT_MAX, INT_MAX - 1 };
static const int bad_colors[] = { -1, -2, -1000, INT_MIN, MPI_UNDEFINED - 1, MPI_UNDEFINED + 1 };

static void op_split(void)
{
    int k = pick_parent(), me = av_wrank;
    int *color = ints(W), *key = ints(W);
    for (int w = 0; w < W; w++) {
        color[w] = pick(good_colors, 9);
        int kk = rnd(9);
        key[w] = kk == 0 ? INT_MIN : kk == 1 ? INT_MAX : kk == 2 ? -1 : kk == 3 ? W - w
            : kk < 6 ? 0 : rnd(3);
    }
    if (rnd(6) == 0)            /* negative colours at one or two processes */
        for (int i = 1 + rnd(2); i > 0; i--)
            color[rnd(W)] = pick(bad_colors, 6);
    cat("MPI_Comm_split(");
    cat_parent(k);
    cat(", colours by world rank ");
    cat_ints(color, W);
    cat(", keys ");
    cat_ints(key, W);
    cat(")");
    MPI_Comm nc = MPI_COMM_NULL;
    if (k < 0) {
        int rc = MPI_Comm_split(MPI_COMM_NULL, color[me], key[me], &nc);
        comm_outcome(rc, CLS(MPI_ERR_COMM), 0, OP_SPLIT, &nc, NULL, 0, 0);
        goto out;
    }
    /* the plan: one new part per (parent part, colour), ordered by
     * (key, rank in the parent) */
    const cent_t *e = &cp[k];
    int *part = ints(W), *crank = ints(W), np = 0, *pp = ints(W), *pc = ints(W);
    int *bad = ints(e->nparts);
    for (int w = 0; w < W; w++)
        if (e->part[w] >= 0 && color[w] < 0 && color[w] != MPI_UNDEFINED)
            bad[e->part[w]] = 1;
    for (int w = 0; w < W; w++) {
        part[w] = -1;
        int p = e->part[w];
        if (p < 0 || bad[p] || color[w] == MPI_UNDEFINED)
            continue;
        int j;
        for (j = 0; j < np; j++)
            if (pp[j] == p && pc[j] == color[w])
                break;
        if (j == np)
            pp[np] = p, pc[np] = color[w], np++;
        part[w] = j;
    }
    for (int w = 0; w < W; w++) {
        if (part[w] < 0)
            continue;
        crank[w] = 0;
        for (int v = 0; v < W; v++)
            if (v != w && part[v] == part[w] &&
                (key[v] < key[w] || (key[v] == key[w] && e->crank[v] < e->crank[w])))
                crank[w]++;
    }
    if (e->part[me] >= 0) {
        int rc = MPI_Comm_split(e->c, color[me], key[me], &nc);
        int *m = ints(W), n = 0;
        if (part[me] >= 0) {
            for (int w = 0; w < W; w++)
                if (part[w] == part[me])
                    m[crank[w]] = w, n++;
        }
        comm_outcome(rc, bad[e->part[me]] ? CLS(MPI_ERR_ARG) : 0, 0, OP_SPLIT, &nc, m, n,
                     part[me] >= 0);
        free(m);
    }
    free(pp);
    free(pc);
    free(bad);
    take_comm(nc, np, part, crank);
    nc = MPI_COMM_NULL;
  out:
    if (nc != MPI_COMM_NULL)
        MPI_Comm_free(&nc);
    free(color);
    free(key);
}

/* a random list of world ranks from the part's members m[0..n): a subset
 * in random order, of size lo..n */
static int gen_subset(const int *m, int n, int lo, int *out)
{
    int k = lo + rnd(n - lo + 1), *p = ints(n);
    for (int i = 0; i < n; i++)
        p[i] = m[i];
    av_shuffle(p, n, &S);
    memcpy(out, p, sizeof(int) * (size_t) k);
    free(p);
    return k;
}

/* add one or two world ranks from outside m[0..n) to l (when there are) */
static int add_outsiders(const int *m, int n, int *l, int k)
{
    int *o = ints(W), no = 0;
    for (int w = 0; w < W; w++)
        if (av_find(m, n, w) < 0)
            o[no++] = w;
    av_shuffle(o, no, &S);
    for (int i = 0, c = 1 + rnd(2); i < c && i < no; i++)
        l[k++] = o[i];
    av_shuffle(l, k, &S);       /* the outsiders anywhere */
    free(o);
    return k;
}

/* the global pool entries (the same everywhere) */
static int pick_global_group(void)
{
    int idx[GPOOL], n = 0;
    for (int i = 0; i < ngp; i++)
        if (gp[i].global)
            idx[n++] = i;
    return idx[rnd(n)];         /* world and empty are always there */
}

/* The members l[0..n) form part *np of the plan (ranks in that order). */
static void plan_part(const int *l, int n, int *part, int *crank, int *np)
{
    for (int i = 0; i < n; i++)
        part[l[i]] = *np, crank[l[i]] = i;
    ++*np;
}

static void cat_my_group(int null, const int *l, int n)
{
    cat(", this process's group: ");
    if (null)
        cat("MPI_GROUP_NULL");
    else if (n == 0)
        cat("MPI_GROUP_EMPTY");
    else {
        cat("world");
        cat_ints(l, n);
    }
}

/* The group this process passes: pool group gi itself (gi >= 0), else
 * MPI_GROUP_NULL, the world's members l[0..n) or MPI_GROUP_EMPTY; release
 * it with release_my_group. */
static MPI_Group my_group(int gi, int null, const int *l, int n)
{
    MPI_Group g = MPI_GROUP_NULL;
    if (gi >= 0)
        g = gp[gi].g;
    else if (!null && n > 0)
        MPI_Group_incl(av_wgroup, n, l, &g);
    else if (!null)
        g = MPI_GROUP_EMPTY;
    return g;
}

static void release_my_group(int gi, MPI_Group *g)
{
    if (gi < 0)
        free_group(g);
}

/* MPI_Comm_create: per part of the parent, one group for all, or two
 * disjoint groups (each member passes its own, the others either or the
 * empty group), MPI_GROUP_NULL for all, a pool group, or a group that is
 * not a subset of the part */
static void op_create(void)
{
    int k = pick_parent(), me = av_wrank;
    cat("MPI_Comm_create(");
    cat_parent(k);
    MPI_Comm nc = MPI_COMM_NULL;
    if (k < 0) {
        int gi = rnd(4) ? pick_global_group() : -1;
        cat(", ");
        cat_group(gi < 0 ? &gnull : &gp[gi]);
        cat(")");
        int rc = MPI_Comm_create(MPI_COMM_NULL, gi < 0 ? MPI_GROUP_NULL : gp[gi].g, &nc);
        comm_outcome(rc, CLS(MPI_ERR_COMM) | (gi < 0 ? CLS(MPI_ERR_GROUP) : 0), 0, OP_CREATE,
                     &nc, NULL, 0, 0);
        return;
    }
    const cent_t *e = &cp[k];
    int *part = ints(W), *crank = ints(W), np = 0, *m = ints(W);
    int *myl = ints(W), myn = 0, mynull = 0, mymode = -1, mygi = -1;
    unsigned myerrs = 0;
    int mymay = 0, mymember = 0;
    for (int w = 0; w < W; w++)
        part[w] = -1;
    for (int p = 0; p < e->nparts; p++) {
        int n = part_members(e, p, m), mode = rnd(9), gi = -1;
        int *A = ints(W + 2), na = 0, *B = ints(W), nb = 0, *which = ints(W);
        if (mode == 4 && n == W)
            mode = 7;           /* no outsider to add */
        if (mode == 8)
            mode = n < W ? 4 : 7;
        switch (mode) {
        case 0:                 /* MPI_GROUP_EMPTY everywhere */
            break;
        case 1:                 /* the whole part, reordered */
            na = gen_subset(m, n, n, A);
            break;
        case 2:                 /* two disjoint groups */
            na = gen_subset(m, n, 1, A);
            for (int i = 0; i < n; i++)
                if (av_find(A, na, m[i]) < 0)
                    B[nb++] = m[i];
            av_shuffle(B, nb, &S);
            nb = rnd(nb + 1);
            break;
        case 3:                 /* MPI_GROUP_NULL everywhere */
            break;
        case 4:                 /* not a subset */
            na = gen_subset(m, n, 0, A);
            na = add_outsiders(m, n, A, na);
            break;
        case 5:                 /* a pool group */
            gi = pick_global_group();
            na = gp[gi].n;
            memcpy(A, gp[gi].w, sizeof(int) * (size_t) na);
            break;
        default:
            na = gen_subset(m, n, 0, A);
        }
        /* what each member passes: 1 = A, 2 = B, 0 = MPI_GROUP_EMPTY */
        for (int i = 0; i < n; i++)
            which[i] = mode == 0 || mode == 3 ? 0 : mode != 2 ? 1
                : av_find(A, na, m[i]) >= 0 ? 1 : av_find(B, nb, m[i]) >= 0 ? 2 : rnd(3);
        int sub = subset_of(A, na, m, n);
        /* the plan: the valid groups become parts */
        if (mode != 3 && sub && na > 0)
            plan_part(A, na, part, crank, &np);
        if (mode == 2 && nb > 0)
            plan_part(B, nb, part, crank, &np);
        int i = av_find(m, n, me);
        if (i < 0) {
            free(A), free(B), free(which);
            continue;
        }
        mymode = mode;
        if (mode == 3) {
            mynull = 1;
            myerrs = CLS(MPI_ERR_GROUP);
        } else if (which[i] == 1) {
            memcpy(myl, A, sizeof(int) * (size_t) na), myn = na;
        } else if (which[i] == 2) {
            memcpy(myl, B, sizeof(int) * (size_t) nb), myn = nb;
        }
        if (mode != 3 && which[i] == 1 && !sub) {
            /* MPI: erroneous. MPICH reports it where the caller is in the
             * group; the other callers get MPI_SUCCESS and MPI_COMM_NULL */
            myerrs = CLS(MPI_ERR_GROUP);
            mymay = !strict && av_find(A, na, me) < 0;
        }
        mymember = !myerrs && av_find(myl, myn, me) >= 0;
        mygi = gi;
        free(A), free(B), free(which);
    }
    cat_my_group(mynull, myl, myn);
    cat(", mode %d)", mymode);
    if (e->part[me] >= 0) {
        MPI_Group g = my_group(mygi, mynull, myl, myn);
        int rc = MPI_Comm_create(e->c, g, &nc);
        comm_outcome(rc, myerrs, mymay, OP_CREATE, &nc, myl, myn, mymember);
        release_my_group(mygi, &g);
    }
    free(m);
    free(myl);
    take_comm(nc, np, part, crank);
}

/* MPI_Comm_create_group, per part of the parent: called by the members of
 * the group that are in the part (all the part's members with
 * MPI_GROUP_EMPTY or MPI_GROUP_NULL), the same group and tag on each */
static void op_create_group(void)
{
    int k = pick_parent(), me = av_wrank;
    static const int bad_tags[] = { -1, -5, INT_MIN };
    cat("MPI_Comm_create_group(");
    cat_parent(k);
    MPI_Comm nc = MPI_COMM_NULL;
    if (k < 0) {
        int gi = pick_global_group(), tag = rnd(4) ? rnd(100) : pick(bad_tags, 3);
        cat(", ");
        cat_group(&gp[gi]);
        cat(", tag %d)", tag);
        int rc = MPI_Comm_create_group(MPI_COMM_NULL, gp[gi].g, tag, &nc);
        comm_outcome(rc, CLS(MPI_ERR_COMM) | (tag < 0 ? CLS(MPI_ERR_TAG) : 0), 0,
                     OP_CREATE_GROUP, &nc, NULL, 0, 0);
        return;
    }
    const cent_t *e = &cp[k];
    int *part = ints(W), *crank = ints(W), np = 0, *m = ints(W);
    int *myl = ints(W + 2), myn = 0, mycall = 0, mynull = 0, mytag = 0, mymode = -1, mygi = -1;
    unsigned myerrs = 0;
    for (int w = 0; w < W; w++)
        part[w] = -1;
    for (int p = 0; p < e->nparts; p++) {
        int n = part_members(e, p, m), mode = rnd(9);
        int *L = ints(W + 2), nl = 0, tag = rnd(8) ? rnd(100) : pick(bad_tags, 3), gi = -1;
        if (mode == 8)
            mode = 2;
        if (mode == 2 && n == W)
            mode = 7;
        switch (mode) {
        case 0:                 /* MPI_GROUP_EMPTY, every member calls */
        case 1:                 /* MPI_GROUP_NULL, every member calls */
            break;
        case 2:                 /* not a subset: its members in the part call */
            nl = gen_subset(m, n, 0, L);
            nl = add_outsiders(m, n, L, nl);
            break;
        case 3:                 /* a pool group */
            gi = pick_global_group();
            nl = gp[gi].n;
            memcpy(L, gp[gi].w, sizeof(int) * (size_t) nl);
            break;
        default:
            nl = gen_subset(m, n, 1, L);
        }
        int sub = subset_of(L, nl, m, n);
        if (mode >= 2 && sub && tag >= 0 && nl > 0)
            plan_part(L, nl, part, crank, &np);
        if (av_find(m, n, me) >= 0) {
            mymode = mode, mytag = tag;
            mycall = mode <= 1 || av_find(L, nl, me) >= 0;
            mynull = mode == 1;
            mygi = gi;
            memcpy(myl, L, sizeof(int) * (size_t) nl), myn = nl;
            myerrs = (tag < 0 ? CLS(MPI_ERR_TAG) : 0) |
                (mode == 1 || !sub ? CLS(MPI_ERR_GROUP) : 0);
        }
        free(L);
    }
    cat_my_group(mynull, myl, myn);
    cat(", tag %d, mode %d%s)", mytag, mymode, mycall ? "" : ", not called here");
    if (mycall) {
        MPI_Group g = my_group(mygi, mynull, myl, myn);
        int rc = MPI_Comm_create_group(e->c, g, mytag, &nc);
        comm_outcome(rc, myerrs, 0, OP_CREATE_GROUP, &nc, myl, myn,
                     !myerrs && av_find(myl, myn, me) >= 0);
        release_my_group(mygi, &g);
    }
    free(m);
    free(myl);
    take_comm(nc, np, part, crank);
}

/* MPI_Comm_group of a pool communicator: a group that differs by process
 * (MPI_GROUP_EMPTY where the process has none), checked and pooled */
static void op_comm_group(void)
{
    int k = rnd(ncp), p = cp[k].part[av_wrank];
    int *w = ints(W), n = p >= 0 ? part_members(&cp[k], p, w) : 0;
    MPI_Group g = MPI_GROUP_EMPTY;
    cat("MPI_Comm_group(");
    cat_parent(k);
    cat(")");
    if (p >= 0) {
        int rc = MPI_Comm_group(cp[k].c, &g);
        if (check_rc(rc, 0, 0, OP_COMMGROUP)) {
            check_new_group(g, w, n);
        } else {                /* pooled all the same: the pool stays alike */
            g = MPI_GROUP_EMPTY;
            n = 0;
        }
    } else {
        ncalls[OP_COMMGROUP]++;
    }
    gp[gslot()] = (gent_t) { g, n, w, 0 };
}

/* MPI_Intercomm_create between the even and the odd ranks of each part of
 * a pooled communicator (sides made by a split of it, leaders their rank 0,
 * the pooled communicator as the peer), or MPI_COMM_NULL as local_comm;
 * erroneous arguments the same at every process of both sides, so that
 * every process can tell without the exchange: a negative tag
 * (MPI_ERR_TAG), a local leader outside the group (MPI_ERR_RANK). A remote
 * leader or peer communicator that is wrong at the leaders only is left
 * out: MPICH checks them in the local leader alone, and the groups wait. */
static void op_intercomm(void)
{
    int k = pick_parent(), me = av_wrank, bad = rnd(4);
    static const int bad_leads[] = { -1, INT_MAX, -1000 };
    int tag = bad == 0 ? -1 - rnd(5) : rnd(100), lead = bad == 1 ? pick(bad_leads, 3) : 0;
    unsigned errs = bad == 0 ? CLS(MPI_ERR_TAG) : bad == 1 ? CLS(MPI_ERR_RANK) : 0;
    MPI_Comm ic = MPI_COMM_NULL, side = MPI_COMM_NULL;
    cat("MPI_Intercomm_create(even/odd sides of ");
    cat_parent(k);
    cat(", local leader %d, tag %d)", lead, tag);
    if (k < 0) {
        int rc = MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, tag, &ic);
        comm_outcome(rc, CLS(MPI_ERR_COMM), 0, OP_INTERCOMM, &ic, NULL, 0, 0);
        return;
    }
    const cent_t *e = &cp[k];
    int p = e->part[me];
    if (p < 0)
        return;
    int *m = ints(W), n = part_members(e, p, m), cr = e->crank[me];
    if (n < 2) {
        free(m);
        return;
    }
    /* side s: the part's ranks of parity s, in order */
    int *sw[2] = { ints(W), ints(W) }, sn[2] = { 0, 0 };
    for (int i = 0; i < n; i++)
        sw[i % 2][sn[i % 2]++] = m[i];
    int rc = MPI_Comm_split(e->c, cr % 2, cr, &side);
    if (!check_rc(rc, 0, 0, OP_SPLIT))
        goto out;
    rc = MPI_Intercomm_create(side, lead, e->c, cr % 2 ? 0 : 1, tag, &ic);
    if (!check_rc(rc, errs, 0, OP_INTERCOMM)) {
        if (ic != MPI_COMM_NULL)
            av_err("failed but newintercomm is not MPI_COMM_NULL");
        goto out;
    }
    MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
    av_check_inter(ic, sw[cr % 2], sn[cr % 2], sw[1 - cr % 2], sn[1 - cr % 2]);
  out:
    if (ic != MPI_COMM_NULL)
        MPI_Comm_free(&ic);
    if (side != MPI_COMM_NULL)
        MPI_Comm_free(&side);
    free(sw[0]);
    free(sw[1]);
    free(m);
}

static void iteration(int it)
{
    static const int weight[NOPS] = { 3, 3, 3, 3, 2, 2, 2, 1, 2, 1, 3, 3, 3, 2 };
    int total = 0, op, x;
    S = av_rand(&seed) * 2654435761u + (unsigned) it;
    for (op = 0; op < NOPS; op++)
        total += weight[op];
    x = rnd(total);
    for (op = 0; x >= weight[op]; op++)
        x -= weight[op];
    snprintf(ctx, sizeof ctx, "iteration %d: ", it);
    av_ctx = ctx;
    switch (op) {
    case OP_INCL: case OP_EXCL: op_incl_excl(op); break;
    case OP_RINCL: case OP_REXCL: op_range(op); break;
    case OP_UNION: case OP_INTER: case OP_DIFF: case OP_COMPARE: op_set(op); break;
    case OP_TRANSLATE: op_translate(); break;
    case OP_COMMGROUP: op_comm_group(); break;
    case OP_CREATE: op_create(); break;
    case OP_CREATE_GROUP: op_create_group(); break;
    case OP_INTERCOMM: op_intercomm(); break;
    default: op_split();
    }
    av_ctx = "";
}

int main(int argc, char **argv)
{
    av_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    unsigned seed0 = argc > 2 ? (unsigned) strtoul(argv[2], NULL, 0) : 1;
    seed = seed0;
    const char *mode = argc > 3 ? argv[3] : "";
    strict = strstr(mode, "strict") != NULL;
    overflow = strstr(mode, "nooverflow") == NULL;
    stats = strstr(mode, "stats") != NULL;
    trace = strstr(mode, "trace") != NULL;
    W = av_wsize;

    gp[0] = (gent_t) { av_wgroup, W, ints(W), 1 };
    for (int i = 0; i < W; i++)
        gp[0].w[i] = i;
    gp[1] = (gent_t) { MPI_GROUP_EMPTY, 0, ints(0), 1 };
    ngp = 2;
    /* and three groups to start from: the world reversed, its even ranks,
     * a random half in random order (checked like every result) */
    int rg[1][3] = { { W - 1, 0, -1 } }, *w = ints(W), n = 0;
    MPI_Group g;
    S = seed;
    snprintf(ctx, sizeof ctx, "the first groups");
    av_ctx = ctx;
    for (int i = 0; i < W; i++)
        w[i] = W - 1 - i;
    MPI_Group_range_incl(av_wgroup, 1, rg, &g);
    check_new_group(g, w, W);
    take_group(g, w, W, 1);
    w = ints(W);
    for (int i = 0; i < W; i += 2)
        w[n++] = i;
    rg[0][0] = 0, rg[0][1] = W - 1, rg[0][2] = 2;
    MPI_Group_range_incl(av_wgroup, 1, rg, &g);
    check_new_group(g, w, n);
    take_group(g, w, n, 1);
    w = ints(W);
    n = (W + 1) / 2;
    perm_prefix(w, n, W);
    MPI_Group_incl(av_wgroup, n, w, &g);
    check_new_group(g, w, n);
    take_group(g, w, n, 1);
    cp[0] = (cent_t) { MPI_COMM_WORLD, 1, ints(W), ints(W) };
    for (int i = 0; i < W; i++)
        cp[0].crank[i] = i;
    ncp = 1;

    for (int it = 0; it < iters; it++)
        iteration(it);

    for (int s = 1; s < ncp; s++) {
        if (cp[s].c != MPI_COMM_NULL)
            MPI_Comm_free(&cp[s].c);
        free(cp[s].part);
        free(cp[s].crank);
    }
    free(cp[0].part);
    free(cp[0].crank);
    for (int s = 0; s < ngp; s++) {
        if (s >= 2)
            free_group(&gp[s].g);   /* (2..4 included) */
        free(gp[s].w);
    }
    if (stats && av_wrank == 0) {
        printf("%d iterations, seed %u:", iters, seed0);
        for (int op = 0; op < NOPS; op++)
            printf(" %s %d (%d erroneous)%s", op_name[op] + 4, ncalls[op], nbad[op],
                   op + 1 < NOPS ? "," : "\n");
        fflush(stdout);
    }
    return av_finalize();
}
