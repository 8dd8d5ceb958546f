/*
 * avrm_split.c - the arithmetic of splits without a gather (avrm_split.h).
 *
 * Invariants: a prefix accumulator of rank r covers ranks max(0, r-2d+1)..r
 * after the round of distance d, a suffix r..min(P-1, r+2d-1); every field
 * combines by an idempotent operation (AND, min, max), so that the overlap
 * of a prefix and a suffix at r counts once.
 */
#include "avrm/avrm_split.h"

static uint32_t vote_flags(avrm_split_ck_t me, const avrm_split_ck_t *left, int bad_color)
{
    uint32_t f = AVRM_SPLIT_F_RISE | AVRM_SPLIT_F_FALL | AVRM_SPLIT_F_RUN_UP |
        AVRM_SPLIT_F_RUN_DOWN | AVRM_SPLIT_F_NO_REPEAT;
    if (!bad_color)
        f |= AVRM_SPLIT_F_COLOR_OK;
    if (!left)
        return f;
    if (me.color < left->color)
        f &= ~AVRM_SPLIT_F_RISE;
    else if (me.color > left->color)
        f &= ~AVRM_SPLIT_F_FALL;
    else if (me.key < left->key)
        f &= ~(AVRM_SPLIT_F_RUN_UP | AVRM_SPLIT_F_NO_REPEAT);
    else
        f &= ~(AVRM_SPLIT_F_RUN_DOWN | AVRM_SPLIT_F_NO_REPEAT);  /* an equal key keeps
                                                                  * parent order */
    return f;
}

void avrm_split_start(uint32_t r, uint32_t P, avrm_split_ck_t me, const avrm_split_ck_t *left,
                      const avrm_split_ck_t *right, int bad_color, avrm_split_acc_t *prefix,
                      avrm_split_acc_t *suffix)
{
    avrm_split_acc_t a = { .flags = vote_flags(me, left, bad_color),
                           .nonrise = (int32_t) P, .nonfall = (int32_t) P };
    if (left && me.color <= left->color)
        a.nonrise = (int32_t) r;
    if (left && me.color >= left->color)
        a.nonfall = (int32_t) r;
    *prefix = a;
    *suffix = a;
    prefix->bound = !left || left->color != me.color ? (int32_t) r : -1;
    suffix->bound = !right || right->color != me.color ? (int32_t) r + 1 : (int32_t) P + 1;
}

static void fold(avrm_split_acc_t *acc, const avrm_split_acc_t *in)
{
    acc->flags &= in->flags;
    if (in->nonrise < acc->nonrise)
        acc->nonrise = in->nonrise;
    if (in->nonfall < acc->nonfall)
        acc->nonfall = in->nonfall;
}

void avrm_split_from_left(avrm_split_acc_t *prefix, const avrm_split_acc_t *in)
{
    fold(prefix, in);
    if (in->bound > prefix->bound)
        prefix->bound = in->bound;
}

void avrm_split_from_right(avrm_split_acc_t *suffix, const avrm_split_acc_t *in)
{
    fold(suffix, in);
    if (in->bound < suffix->bound)
        suffix->bound = in->bound;
}

avrm_split_kind_t avrm_split_decide(const avrm_split_acc_t *prefix,
                                    const avrm_split_acc_t *suffix, avrm_split_form_t *f)
{
    avrm_split_acc_t all = *prefix;
    fold(&all, suffix);
    *f = (avrm_split_form_t) { .kind = AVRM_SPLIT_NONE };
    if (!(all.flags & AVRM_SPLIT_F_COLOR_OK)) {
        f->kind = AVRM_SPLIT_BAD_COLOR;
    } else if (all.flags & (AVRM_SPLIT_F_RISE | AVRM_SPLIT_F_FALL)) {
        /* one run per colour; the bounds are this process's run */
        f->order = all.flags & AVRM_SPLIT_F_RUN_UP ? 1 : all.flags & AVRM_SPLIT_F_RUN_DOWN ? -1 : 0;
        if (f->order) {
            f->kind = AVRM_SPLIT_RUNS;
            f->run_first = (uint32_t) prefix->bound;
            f->run_end = (uint32_t) suffix->bound;
        }
    } else if ((all.flags & AVRM_SPLIT_F_NO_REPEAT) && (all.nonrise >= 2 || all.nonfall >= 2)) {
        /* colours strictly monotone over 0..C-1 and a step back at C: a
         * period C if every later rank repeats r - C (to be checked; a
         * period C >= 2 never has equal neighbours) */
        f->kind = AVRM_SPLIT_CYCLIC;
        f->period = (uint32_t) (all.nonrise >= 2 ? all.nonrise : all.nonfall);
    }
    return (avrm_split_kind_t) f->kind;
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
    if (!f->order)
        f->kind = AVRM_SPLIT_NONE;
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
