/*
 * avrm_split.c - the arithmetic of splits without a gather (avrm_split.h).
 *
 * Rules: a vote describes the step from r-1 to r (nothing for r = 0); every
 * field of avrm_split_sum_t folds by AND, min, max, sum or gcd, so the
 * reduction may run in any order and grouping. The scan's words fold by max
 * (run start) and min (run end), idempotent, so that overlapping ranges
 * count once.
 *
 * Why the count and gcd settle equal runs and periods without a second
 * round: if the boundaries' gcd is their least, B, and there are
 * floor((P-1)/B) of them, every multiple of B below P is a boundary and no
 * other rank is. The same for the non-rises of a period C; with every rising
 * step d and every wrap -(C-1) d, c(r) = c(r - C) follows by induction.
 */
#include <stddef.h>
#include "avrm/avrm_split.h"

_Static_assert(sizeof(avrm_split_sum_t) == 72, "a vote is 72 bytes, without padding");

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void avrm_split_vote(uint32_t r, uint32_t P, avrm_split_ck_t me, const avrm_split_ck_t *left,
                     int bad_color, avrm_split_sum_t *v)
{
    *v = (avrm_split_sum_t) {
        .flags = AVRM_SPLIT_F_RISE | AVRM_SPLIT_F_FALL | AVRM_SPLIT_F_RUN_UP |
                 AVRM_SPLIT_F_RUN_DOWN | AVRM_SPLIT_F_NO_REPEAT | AVRM_SPLIT_F_KEY_UP |
                 AVRM_SPLIT_F_KEY_DOWN | (bad_color ? 0 : AVRM_SPLIT_F_COLOR_OK),
        .bmin = (int32_t) P, .bmax = 0, .nonrise = (int32_t) P, .nonfall = (int32_t) P,
        .step_min = INT64_MAX, .step_max = INT64_MIN,
        .wrap_min = INT64_MAX, .wrap_max = INT64_MIN,
    };
    if (!left)
        return;
    int64_t d = (int64_t) me.color - left->color;
    if (me.key < left->key)
        v->flags &= ~AVRM_SPLIT_F_KEY_UP;
    else
        v->flags &= ~AVRM_SPLIT_F_KEY_DOWN;
    if (d == 0) {
        /* inside a run; an equal key keeps parent order: not reversed */
        v->flags &= ~(AVRM_SPLIT_F_NO_REPEAT |
                      (me.key < left->key ? AVRM_SPLIT_F_RUN_UP : AVRM_SPLIT_F_RUN_DOWN));
    } else {
        v->flags &= ~(d < 0 ? AVRM_SPLIT_F_RISE : AVRM_SPLIT_F_FALL);
        v->bmin = v->bmax = (int32_t) r;
        v->bcount = 1;
        v->bgcd = r;
    }
    if (d > 0) {
        v->step_min = v->step_max = d;
    } else {
        v->nonrise = (int32_t) r;
        v->wcount = 1;
        v->wgcd = r;
        v->wrap_min = v->wrap_max = d;
    }
    if (d >= 0)
        v->nonfall = (int32_t) r;
}

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

void avrm_split_sum_fold(avrm_split_sum_t *acc, const avrm_split_sum_t *in)
{
    acc->flags &= in->flags;
    acc->bmin = MIN(acc->bmin, in->bmin);
    acc->bmax = MAX(acc->bmax, in->bmax);
    acc->bcount += in->bcount;
    acc->bgcd = gcd(acc->bgcd, in->bgcd);
    acc->nonrise = MIN(acc->nonrise, in->nonrise);
    acc->nonfall = MIN(acc->nonfall, in->nonfall);
    acc->wcount += in->wcount;
    acc->wgcd = gcd(acc->wgcd, in->wgcd);
    acc->step_min = MIN(acc->step_min, in->step_min);
    acc->step_max = MAX(acc->step_max, in->step_max);
    acc->wrap_min = MIN(acc->wrap_min, in->wrap_min);
    acc->wrap_max = MAX(acc->wrap_max, in->wrap_max);
}

/* the run of r when the boundaries alone say it (else 0) */
static int runs_known(uint32_t r, uint32_t P, const avrm_split_sum_t *a, avrm_split_form_t *f)
{
    uint32_t lo, hi;
    if (a->bcount == 0) {
        lo = 0, hi = P;
    } else if (a->bcount <= 2) {                /* up to three runs */
        uint32_t b0 = (uint32_t) a->bmin, b1 = (uint32_t) a->bmax;
        lo = r < b0 ? 0 : r < b1 ? b0 : b1;
        hi = r < b0 ? b0 : r < b1 ? b1 : P;
    } else if (a->bgcd == (uint32_t) a->bmin && a->bcount == (P - 1) / (uint32_t) a->bmin) {
        uint32_t B = (uint32_t) a->bmin;        /* runs of B, the last maybe shorter */
        lo = r - r % B;
        hi = P - lo < B ? P : lo + B;
    } else {
        return 0;
    }
    f->run_first = lo;
    f->run_end = hi;
    return 1;
}

/* a rising period settled by its steps: every rise d, every wrap -(C-1) d,
 * the wraps the multiples of C */
static int period_settled(uint32_t P, uint32_t C, const avrm_split_sum_t *a)
{
    return a->step_min == a->step_max && a->wrap_min == a->wrap_max &&
        a->wrap_min == -(int64_t) (C - 1) * a->step_min && a->wgcd == C &&
        a->wcount == (P - 1) / C;
}

avrm_split_kind_t avrm_split_decide(uint32_t r, uint32_t P, const avrm_split_sum_t *a,
                                    avrm_split_form_t *f)
{
    uint32_t fl = a->flags;
    *f = (avrm_split_form_t) { .kind = AVRM_SPLIT_NONE };
    if (!(fl & AVRM_SPLIT_F_COLOR_OK)) {
        f->kind = AVRM_SPLIT_BAD_COLOR;
    } else if (fl & (AVRM_SPLIT_F_RISE | AVRM_SPLIT_F_FALL)) {
        f->order = fl & AVRM_SPLIT_F_RUN_UP ? 1 : fl & AVRM_SPLIT_F_RUN_DOWN ? -1 : 0;
        if (f->order)
            f->kind = runs_known(r, P, a, f) ? AVRM_SPLIT_RUNS : AVRM_SPLIT_RUNS_SCAN;
    } else if ((fl & AVRM_SPLIT_F_NO_REPEAT) && (a->nonrise >= 2 || a->nonfall >= 2)) {
        /* colours strictly monotone over 0..C-1 and a step back at C */
        f->kind = AVRM_SPLIT_CYCLIC_CHECK;
        f->period = (uint32_t) (a->nonrise >= 2 ? a->nonrise : a->nonfall);
        if (a->nonrise >= 2 && period_settled(P, f->period, a)) {
            f->order = fl & AVRM_SPLIT_F_KEY_UP ? 1 : fl & AVRM_SPLIT_F_KEY_DOWN ? -1 : 0;
            if (f->order)
                f->kind = AVRM_SPLIT_CYCLIC;
        }
    }
    return (avrm_split_kind_t) f->kind;
}

void avrm_split_scan_start(uint32_t r, uint32_t P, avrm_split_ck_t me,
                           const avrm_split_ck_t *left, const avrm_split_ck_t *right,
                           int32_t *first, int32_t *end)
{
    *first = !left || left->color != me.color ? (int32_t) r : -1;
    *end = !right || right->color != me.color ? (int32_t) r + 1 : (int32_t) P + 1;
}

void avrm_split_scan_fold(int32_t *first, int32_t from_left, int32_t *end, int32_t from_right)
{
    *first = MAX(*first, from_left);
    *end = MIN(*end, from_right);
}

avrm_split_kind_t avrm_split_scan_settle(avrm_split_form_t *f, int32_t first, int32_t end)
{
    f->kind = AVRM_SPLIT_RUNS;
    f->run_first = (uint32_t) first;
    f->run_end = (uint32_t) end;
    return AVRM_SPLIT_RUNS;
}

uint32_t avrm_split_cyclic_vote(avrm_split_ck_t me, const avrm_split_ck_t *back)
{
    if (!back)
        return AVRM_SPLIT_V_PERIOD | AVRM_SPLIT_V_UP | AVRM_SPLIT_V_DOWN;
    if (me.color != back->color)
        return 0;
    return AVRM_SPLIT_V_PERIOD | (me.key >= back->key ? AVRM_SPLIT_V_UP : AVRM_SPLIT_V_DOWN);
}

avrm_split_kind_t avrm_split_cyclic_settle(avrm_split_form_t *f, uint32_t anded_votes)
{
    f->order = 0;
    if (anded_votes & AVRM_SPLIT_V_PERIOD)
        f->order = anded_votes & AVRM_SPLIT_V_UP ? 1 : anded_votes & AVRM_SPLIT_V_DOWN ? -1 : 0;
    f->kind = f->order ? AVRM_SPLIT_CYCLIC : AVRM_SPLIT_NONE;
    return (avrm_split_kind_t) f->kind;
}

void avrm_split_group(const avrm_split_form_t *f, uint32_t r, uint32_t P, int64_t *first,
                      int64_t *stride, uint32_t *n, uint32_t *newrank)
{
    uint32_t pos;       /* r's position in its class, in parent order */
    int64_t lo, step;
    if (f->kind == AVRM_SPLIT_RUNS) {
        lo = f->run_first;
        step = 1;
        *n = f->run_end - f->run_first;
        pos = r - f->run_first;
    } else {
        uint32_t q = r % f->period;
        lo = q;
        step = f->period;
        *n = (P - q + f->period - 1) / f->period;
        pos = r / f->period;
    }
    if (f->order > 0) {
        *first = lo;
        *stride = step;
        *newrank = pos;
    } else {
        *first = lo + (int64_t) (*n - 1) * step;
        *stride = -step;
        *newrank = *n - 1 - pos;
    }
}
