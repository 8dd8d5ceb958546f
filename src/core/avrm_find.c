/* avrm_find.c - process -> rank in a map (see avrm_find.h). */
#include <stdlib.h>
#include <string.h>
#include "avrm/avrm_find.h"
#include "avrm_alloc.h"

/* A map's rank index: process -> smallest rank (built on demand by the
 * map's owner, avrm_find.h). Two layouts, chosen by avrm_rank_index_build:
 *   dense   every rank in one process group, its lpids within a span of at
 *           most DENSE_INDEX_SPAN x size: v[l - lo] = the smallest rank at
 *           lpid l, -1 where none. One load per lookup, and translations
 *           use it as their target with no per-call build.
 *   sorted  otherwise: v = the ranks sorted by (pgid, lpid, rank); binary
 *           search, O(log n) decodes per lookup.
 * 4 B per entry: n = size (sorted) or the span (dense, <= 2 x size). */
struct avrm_rank_index {
    uint32_t n;             /* entries of v */
    uint32_t dense;
    avrm_pgid_t pgid;       /* dense: the map's one process group */
    int32_t lo;             /* dense: the lpid of v[0] */
    int32_t v[];
};
#define DENSE_INDEX_SPAN 2

/* (pgid, lpid) as one ordered key */
static uint64_t gpid_key(avrm_pgid_t pg, avrm_lpid_t l)
{
    return (uint64_t) pg << 32 | l;
}

static uint64_t rank_key(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, uint32_t r)
{
    avrm_pgid_t pg;
    avrm_lpid_t l = avrm_map_lpid(ctx, m, r, &pg);
    return gpid_key(pg, l);
}

/* Candidates are checked by decoding; the smallest valid one wins. */
typedef struct best {
    const avrm_ctx_t *ctx;
    const avrm_rankmap_t *m;
    uint64_t key;
    int64_t rank;
} best_t;

static void try_rank(best_t *b, int64_t r)
{
    if (r < 0 || r >= (int64_t) b->m->size || (b->rank >= 0 && r >= b->rank)) return;
    if (rank_key(b->ctx, b->m, (uint32_t) r) == b->key) b->rank = r;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* BLOCK inverts in one step when blocks ascend without overlap. */
static int block_invertible(const avrm_rankmap_t *m)
{
    return m->u.reg.bs >= 1 && (int64_t) m->u.reg.stride >= (int64_t) m->u.reg.bs;
}

/* GRID inverts greedily when every stride is positive and exceeds the
 * largest offset the dimensions after it can add (so each index is the
 * quotient by its stride): a sub-block of a row-major grid, or a grid whose
 * rows are cut short (the world minus a hole every so many ranks). */
static int grid_nested(const avrm_rankmap_t *m)
{
    int64_t span = 0;
    for (int d = m->u.grid.ndims - 1; d >= 0; d--) {
        int64_t w = (int32_t) m->u.grid.wstride[d];
        if (w <= 0 || (d < m->u.grid.ndims - 1 && w <= span)) return 0;
        if (d > 0) span += (int64_t) (m->u.grid.ext[d] - 1) * w;
    }
    return 1;
}

int avrm_map_find_needs_index(const avrm_rankmap_t *m)
{
    switch ((avrm_mode_t) m->mode) {
    case AVRM_MODE_BLOCK: return !block_invertible(m);
    case AVRM_MODE_GRID:  return !grid_nested(m);
    case AVRM_MODE_MSEG:  return m->u.mseg.lut != NULL;
    case AVRM_MODE_ILUT:  /* <= 16 members: a dense index of <= 32 entries
                           * beats a scan of the inline table per lookup */
    case AVRM_MODE_LUT:
    case AVRM_MODE_LUT16:
    case AVRM_MODE_MLUT:
    case AVRM_MODE_MLUT32: return 1;
    default:              return 0;
    }
}

/* Index entries while sorting: pgid (16 bits) | lpid (24) | rank (24). */
#define PACK_LPID_SHIFT 24
#define PACK_PGID_SHIFT 48
#define PACK_RANK_MASK ((UINT64_C(1) << PACK_LPID_SHIFT) - 1)

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

size_t avrm_rank_index_bytes(const avrm_rank_index_t *idx)
{
    return idx ? sizeof(*idx) + (size_t) idx->n * sizeof(idx->v[0]) : 0;
}

void avrm_rank_index_free(avrm_ctx_t *ctx, avrm_rank_index_t *idx)
{
    if (!idx) return;
    if (ctx) ctx->stats.rank_index_bytes -= avrm_rank_index_bytes(idx);
    avrm__free(idx);
}

/* First index entry in [lo, hi) whose process key is >= key (hi if none). */
static uint32_t index_lower_bound(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                  const avrm_rank_index_t *idx, uint64_t key, uint32_t lo,
                                  uint32_t hi)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (rank_key(ctx, m, idx->v[mid]) < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int64_t find_indexed(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                            const avrm_rank_index_t *idx, uint64_t key)
{
    uint32_t lo = index_lower_bound(ctx, m, idx, key, 0, idx->n);
    return lo < idx->n && rank_key(ctx, m, idx->v[lo]) == key ? (int64_t) idx->v[lo] : -1;
}

int64_t avrm_map_find(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                      const avrm_rank_index_t *idx, avrm_gpid_t g)
{
    best_t b = { ctx, m, gpid_key(g.pgid, g.lpid), -1 };
    if (m->size == 0) return -1;
    if (idx && idx->dense) {
        uint64_t d = (uint64_t) ((int64_t) g.lpid - idx->lo);
        return g.pgid == idx->pgid && d < idx->n ? idx->v[d] : -1;
    }
    if (idx) return find_indexed(ctx, m, idx, b.key);
    int single = !avrm_map_is_multi(m);
    if (single && g.pgid != m->pgid) return -1;
    int64_t d = (int64_t) g.lpid - m->u.reg.offset;   /* DIRECT/OFFSET/STRIDE/BLOCK */
    switch ((avrm_mode_t) m->mode) {
    case AVRM_MODE_DIRECT:
    case AVRM_MODE_OFFSET:
        try_rank(&b, d);
        return b.rank;
    case AVRM_MODE_STRIDE:
        if (m->u.reg.stride == 0) try_rank(&b, d == 0 ? 0 : -1);
        else if (d % m->u.reg.stride == 0) try_rank(&b, d / m->u.reg.stride);
        return b.rank;
    case AVRM_MODE_BLOCK:
        if (!block_invertible(m)) break;
        {
            int64_t q = floor_div(d, m->u.reg.stride), j = d - q * m->u.reg.stride;
            if (j < (int64_t) m->u.reg.bs) try_rank(&b, q * m->u.reg.bs + j);
        }
        return b.rank;
    case AVRM_MODE_EXCEPT: {
        int64_t de = (int64_t) g.lpid - m->u.exc.offset;
        for (int k = 0; k < 2; k++)
            if (m->u.exc.ex_rank[k] != UINT32_MAX && m->u.exc.ex_lpid[k] == g.lpid)
                try_rank(&b, m->u.exc.ex_rank[k]);
        if (m->u.exc.stride == 0) try_rank(&b, de == 0 ? 0 : -1);
        else if (de % m->u.exc.stride == 0) try_rank(&b, de / m->u.exc.stride);
        if (b.rank < 0 && m->u.exc.stride == 0) break;   /* every rank but the exceptions */
        return b.rank;
    }
    case AVRM_MODE_GRID: {
        if (!grid_nested(m)) break;
        int64_t rest = (int64_t) g.lpid - m->u.grid.base, r = 0;
        if (rest < 0) return -1;
        for (int k = 0; k < m->u.grid.ndims; k++) {
            int64_t w = (int32_t) m->u.grid.wstride[k], i = rest / w;
            if (k > 0 && i >= m->u.grid.ext[k]) return -1;
            r = k == 0 ? i : r * m->u.grid.ext[k] + i;
            rest -= i * w;
        }
        if (rest == 0) try_rank(&b, r);
        return b.rank;
    }
    case AVRM_MODE_ILUT:
        for (uint32_t r = 0; r < m->size && b.rank < 0; r++)
            if (m->u.ilut[r] == g.lpid) b.rank = r;
        return b.rank;
    case AVRM_MODE_JOIN:
        if (g.pgid == m->pgid) try_rank(&b, (int64_t) g.lpid - m->u.join.delta0);
        if (g.pgid == m->u.join.pgid1) try_rank(&b, (int64_t) g.lpid - m->u.join.delta1);
        return b.rank;
    case AVRM_MODE_MSEG:        /* offset runs in rank order: the first run holding it */
        if (m->u.mseg.lut) break;
        for (uint32_t k = 0; k < m->u.mseg.nsegs; k++) {
            const avrm_seg_t *s = &m->u.mseg.segs[k];
            uint32_t end = k + 1 < m->u.mseg.nsegs ? s[1].first : m->size;
            if (s->pgid == g.pgid && g.lpid >= s->lpid_base && g.lpid - s->lpid_base < end - s->first)
                return (int64_t) s->first + (g.lpid - s->lpid_base);
        }
        return -1;
    default:
        break;
    }
    for (uint32_t r = 0; r < m->size; r++)       /* no formula and no index */
        if (rank_key(ctx, m, r) == b.key) return r;
    return -1;
}

static int is_offset(const avrm_rankmap_t *m)
{
    return m->mode == AVRM_MODE_DIRECT || m->mode == AVRM_MODE_OFFSET;
}

/* The one process group of every rank of m, if it has one: a single-group
 * map's, or an MSEG map's whose segments all lie in one group (the world
 * minus k ranks). 0 otherwise (JOIN, MLUT, MLUT32, MSEG across groups). */
static int sole_pgid(const avrm_rankmap_t *m, avrm_pgid_t *pg)
{
    if (!avrm_map_is_multi(m)) {
        *pg = m->pgid;
        return 1;
    }
    if (m->mode != AVRM_MODE_MSEG) return 0;
    for (uint32_t k = 1; k < m->u.mseg.nsegs; k++)
        if (m->u.mseg.segs[k].pgid != m->u.mseg.segs[0].pgid) return 0;
    *pg = m->u.mseg.segs[0].pgid;
    return 1;
}

/* An MSEG map's segment of the last rank decoded, so that ascending ranks
 * walk the segments in order instead of searching them per rank. */
typedef struct seg_cursor {
    const avrm_seg_t *segs;
    uint32_t nsegs, k;
    uint32_t first, next;      /* ranks [first, next) are segment k */
    int64_t base;              /* its lpid_base - first; OTHER_PG_BASE: another group's */
} seg_cursor_t;

#define NOT_IN_PG INT32_MIN
/* base + rank of another group's segment: far below any lpid, so every
 * target (target_of) finds it out of range */
#define OTHER_PG_BASE (INT64_MIN / 4)

static inline void seg_seek(seg_cursor_t *c, uint32_t r, avrm_pgid_t pg)
{
    if (r < c->first) c->k = 0;
    while (c->k + 1 < c->nsegs && c->segs[c->k + 1].first <= r) c->k++;
    const avrm_seg_t *s = &c->segs[c->k];
    c->first = s->first;
    c->next = c->k + 1 < c->nsegs ? s[1].first : UINT32_MAX;
    c->base = s->pgid == pg ? (int64_t) s->lpid_base - s->first : OTHER_PG_BASE;
}

/* lpid of rank r of an MSEG map without lut (far below 0: another group's) */
static inline int64_t seg_lpid(seg_cursor_t *c, uint32_t r, avrm_pgid_t pg)
{
    if (r < c->first || r >= c->next) seg_seek(c, r, pg);
    return c->base + r;
}

/* the same with a lut: NOT_IN_PG for another group's rank */
static inline int64_t seg_lut_lpid(seg_cursor_t *c, const avrm_lpid_t *lut, uint32_t r,
                                   avrm_pgid_t pg)
{
    if (r < c->first || r >= c->next) seg_seek(c, r, pg);
    return c->base == OTHER_PG_BASE ? NOT_IN_PG : (int64_t) lut[r];
}

/* Where a decoded lpid goes: d = (lpid - off) / st when that divides
 * exactly and falls in [0, size), `absent` otherwise; then, with a table
 * inv, inv[d] (absent where it holds -1). A rank of a stride map (an offset
 * map with st 1), an lpid itself (LPIDS_AS_IS), or a dense inverse. Or,
 * with nruns > 0, a rank of an MSEG map in one process group whose runs
 * ascend in lpid without overlap (the world minus a few ranks): the run
 * holding the lpid, found by a cursor that ascending lpids move forward. */
typedef struct target_run {
    int64_t lpid_base;          /* lpid of the run's first rank */
    uint32_t len, first;        /* its ranks: [first, first + len) */
} target_run_t;
typedef struct target {
    int64_t off, st, size;
    uint32_t st_inv, st_shift;  /* TO_STRIDE: stride_division */
    int64_t st_sign;            /* 0 for st > 0, -1 for st < 0: |d| = (d ^ sign) - sign */
    int64_t st_qmax;            /* the largest answer: min(UINT32_MAX / |st|, size - 1) */
    int32_t absent;
    const int32_t *inv;
    const target_run_t *run;
    uint32_t nruns;
} target_t;
static const target_t LPIDS_AS_IS = { 0, 1, INT32_MAX, 0, 0, 0, 0, NOT_IN_PG, NULL, NULL, 0 };

/* Exact division by |st| without a divide instruction (Hacker's Delight
 * 10-16, 10-17): |st| = odd x 2^shift; a 32-bit d is a multiple of |st| iff
 * q = rotate_right(d x inverse of odd mod 2^32, shift) <= UINT32_MAX / |st|,
 * and then q = d / |st|; st_qmax also bounds q by the map's size. st != 0. */
static void stride_division(target_t *t)
{
    uint32_t st = (uint32_t) (t->st < 0 ? -t->st : t->st);
    uint32_t shift = (uint32_t) __builtin_ctz(st), odd = st >> shift, inv = 1;
    if (odd != 1) {                     /* a power of two (every other rank): no steps */
        inv = (3 * odd) ^ 2;            /* correct to 5 bits; each step doubles them */
        for (int k = 0; k < 3; k++)
            inv *= 2 - odd * inv;
    }
    t->st_inv = inv;
    t->st_shift = shift;
    t->st_sign = t->st < 0 ? -1 : 0;
    int64_t qmax = odd == 1 ? UINT32_MAX >> shift : UINT32_MAX / st;
    t->st_qmax = qmax < t->size - 1 ? qmax : t->size - 1;      /* -1: an empty map */
}

/* target_of's steps, chosen once per loop (decode_lpids): every call site
 * passes a constant, so each loop is compiled without the other steps. */
enum target_kind { TO_RANK, TO_STRIDE, TO_INV, TO_RUNS };

/* TO_RUNS: the run of the last answer, one per decode loop: an lpid in it
 * costs one subtraction and one comparison */
typedef struct run_cursor {
    int64_t lpid_base, delta;   /* the run's first lpid; rank - lpid in it */
    uint64_t len;               /* 0 before the first seek */
    uint32_t k;
} run_cursor_t;

/* An lpid outside the cursor's run: from that run forward (from the first
 * when l lies below it), then the rank or absent */
static __attribute__((noinline)) int32_t run_seek(const target_run_t *run, uint32_t nruns,
                                                  int32_t absent, run_cursor_t *c, int64_t l)
{
    uint32_t k = l < run[c->k].lpid_base ? 0 : c->k;
    while (k + 1 < nruns && l >= run[k + 1].lpid_base) k++;
    const target_run_t *r = &run[k];
    *c = (run_cursor_t) { r->lpid_base, (int64_t) r->first - r->lpid_base, r->len, k };
    return (uint64_t) (l - r->lpid_base) < r->len ? (int32_t) (l + c->delta) : absent;
}

static inline __attribute__((always_inline)) int32_t target_of(const target_t *t, int64_t l,
                                                               enum target_kind kind,
                                                               run_cursor_t *c)
{
    if (kind == TO_RUNS)            /* lpid_base >= 0: another group's l misses every run */
        return (uint64_t) (l - c->lpid_base) < c->len ? (int32_t) (l + c->delta)
                                                      : run_seek(t->run, t->nruns, t->absent, c, l);
    int64_t d = l - t->off;         /* NOT_IN_PG, OTHER_PG_BASE + r: below 0, out of range */
    if (kind == TO_STRIDE) {        /* a multiply and a rotation, no divide */
        d = (d ^ t->st_sign) - t->st_sign;                  /* d / st = |d| / |st| */
        if ((uint64_t) d > UINT32_MAX) return t->absent;    /* below 0 too */
        uint32_t q = (uint32_t) d * t->st_inv;
        q = q >> t->st_shift | q << ((32 - t->st_shift) & 31);
        return (int64_t) q > t->st_qmax ? t->absent : (int32_t) q;     /* in [0, size) */
    }
    if ((uint64_t) d >= (uint64_t) t->size) return t->absent;
    if (kind != TO_INV) return (int32_t) d;
    return t->inv[d] >= 0 ? t->inv[d] : t->absent;
}

/* out[i] = target_of(t, lpid of rank in[i] of m) (in == NULL: of rank
 * i), the lpid taken as NOT_IN_PG when that rank is not in process group
 * pg; a negative in[i] is copied. out may be in. The map's class is tested
 * once for the loop, not per rank, for the classes translations meet most
 * (offset, tables including the inline one, stride, MSEG). */
static inline __attribute__((always_inline)) void
decode_lpids_to(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, const int32_t *in, uint32_t n,
                avrm_pgid_t pg, const target_t *tp, int32_t *out, enum target_kind kind)
{
    const target_t t = *tp;         /* out may alias what tp and m point to: */
    const avrm_rankmap_t mm = *m;   /* copies stay in registers (the calls out of
                                     * line below read m: mm does not escape) */
    run_cursor_t cursor = { 0, 0, 0, 0 };   /* TO_RUNS: no run yet */
#define DECODE_EACH(lpid_of)                                                    \
    do {                                                                        \
        if (in)                                                                 \
            for (uint32_t i = 0; i < n; i++) {                                  \
                uint32_t r = (uint32_t) in[i];                                  \
                out[i] = in[i] < 0 ? in[i] : target_of(&t, (lpid_of), kind, &cursor); \
            }                                                                   \
        else                                                                    \
            for (uint32_t r = 0; r < n; r++)                                    \
                out[r] = target_of(&t, (lpid_of), kind, &cursor);                  \
    } while (0)
    avrm_pgid_t g;
    avrm_lpid_t l;
    if (mm.pgid != pg && !avrm_map_is_multi(&mm)) {     /* another group's map */
        DECODE_EACH(((void) r, NOT_IN_PG));
        return;
    }
    switch ((avrm_mode_t) mm.mode) {
    case AVRM_MODE_DIRECT:
    case AVRM_MODE_OFFSET:
        DECODE_EACH(avrm__lpid_offset(&mm, r));
        break;
    case AVRM_MODE_STRIDE:
        DECODE_EACH(avrm__lpid_stride(&mm, r));
        break;
    case AVRM_MODE_LUT: {
        const avrm_lpid_t *v = m->u.lut.v;
        DECODE_EACH(v[r]);
        break;
    }
    case AVRM_MODE_LUT16: {
        const uint16_t *v = m->u.lut.v;
        DECODE_EACH(v[r]);
        break;
    }
    case AVRM_MODE_ILUT: {          /* through m: an array of mm would keep mm in memory */
        const uint16_t *v = m->u.ilut;
        DECODE_EACH(v[r]);
        break;
    }
    case AVRM_MODE_MSEG: {
        seg_cursor_t c = { m->u.mseg.segs, m->u.mseg.nsegs, 0, 1, 0, 0 };  /* empty: first > next */
        const avrm_lpid_t *lut = m->u.mseg.lut;
        if (!lut)
            DECODE_EACH(seg_lpid(&c, r, pg));
        else
            DECODE_EACH(seg_lut_lpid(&c, lut, r, pg));
        break;
    }
    case AVRM_MODE_JOIN:
    case AVRM_MODE_MLUT:
    case AVRM_MODE_MLUT32:
        DECODE_EACH((l = avrm_map_lpid(ctx, m, r, &g), g == pg ? (int64_t) l : NOT_IN_PG));
        break;
    default:                        /* BLOCK, EXCEPT, GRID: one group */
        DECODE_EACH(avrm_map_lpid(ctx, m, r, &g));
        break;
    }
#undef DECODE_EACH
}

/* One function per target kind, so that each loop's registers are its own */
#define DECODE_LPIDS_TO(name, kind)                                                              \
    static __attribute__((noinline)) void name(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,   \
                                               const int32_t *in, uint32_t n, avrm_pgid_t pg,    \
                                               const target_t *t, int32_t *out)                  \
    {                                                                                            \
        decode_lpids_to(ctx, m, in, n, pg, t, out, kind);                                        \
    }
DECODE_LPIDS_TO(decode_to_rank, TO_RANK)
DECODE_LPIDS_TO(decode_to_stride, TO_STRIDE)
DECODE_LPIDS_TO(decode_to_inv, TO_INV)
DECODE_LPIDS_TO(decode_to_runs, TO_RUNS)
#undef DECODE_LPIDS_TO

static void decode_lpids(const avrm_ctx_t *ctx, const avrm_rankmap_t *m, const int32_t *in,
                         uint32_t n, avrm_pgid_t pg, const target_t *t, int32_t *out)
{
    /* a stride target (avrm_map_translate's own, after stride_division)
     * calls decode_to_stride itself */
    if (t->inv)
        decode_to_inv(ctx, m, in, n, pg, t, out);
    else if (t->nruns)
        decode_to_runs(ctx, m, in, n, pg, t, out);
    else
        decode_to_rank(ctx, m, in, n, pg, t, out);
}

/* [*lo, *hi] = the range of the lpids lp[0..n) of group pg (negative:
 * another group's, skipped); empty (*lo > *hi) when there are none */
static void lpid_range(const int32_t *lp, uint32_t n, int32_t *lo, int32_t *hi)
{
    *lo = INT32_MAX;
    *hi = -1;
    for (uint32_t r = 0; r < n; r++) {
        if (lp[r] < 0) continue;
        *lo = lp[r] < *lo ? lp[r] : *lo;
        *hi = lp[r] > *hi ? lp[r] : *hi;
    }
}

/* inv[l - lo] = the smallest r with lp[r] == l, -1 where none (span entries) */
static void invert_lpids(const int32_t *lp, uint32_t n, int32_t lo, uint64_t span, int32_t *inv)
{
    memset(inv, 0xff, (size_t) span * sizeof(*inv));
    for (uint32_t r = n; r-- > 0;)      /* the smallest rank written last */
        if (lp[r] >= 0) inv[lp[r] - lo] = (int32_t) r;
}

#define DENSE_SPAN_FACTOR 4
#define DENSE_MIN_RANKS 8
#define DENSE_STACK_INTS 512     /* 2 KB on the stack, half for each array */
/* Translation through a dense inverse of m2 over its lpids in group pg:
 * inv[l - lo] = smallest rank of m2 at lpid l, over [lo, hi] = the whole
 * AV of pg or, when that is too wide, the span of m2's lpids; one pass over
 * m2 to fill it, then one load per rank. Taken only when the span is at
 * most DENSE_SPAN_FACTOR x (n + m2->size), so the 4 B per lpid of scratch
 * stay O(n + m2 size) as stock's O(size) temporaries do; 0 when not taken
 * (span too wide, or no memory: the caller searches instead). */
static int translate_dense(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1, const int32_t *in,
                           uint32_t n, avrm_pgid_t pg, const avrm_rankmap_t *m2,
                           int32_t absent, int32_t *out)
{
    int32_t small[DENSE_STACK_INTS];        /* both arrays of small groups: no malloc */
    int32_t *lp2 = m2->size <= DENSE_STACK_INTS / 2 ? small
                 : avrm__malloc((size_t) m2->size * sizeof(int32_t)), *inv = NULL;
    if (!lp2) return 0;
    int32_t lo = 0, hi = (int32_t) avrm_ctx_av(ctx, pg)->size - 1;
    uint64_t limit = (uint64_t) DENSE_SPAN_FACTOR * ((uint64_t) n + m2->size);
    decode_lpids(ctx, m2, NULL, m2->size, pg, &LPIDS_AS_IS, lp2);
    if ((uint64_t) hi + 1 > limit)          /* the whole AV is too wide: m2's span */
        lpid_range(lp2, m2->size, &lo, &hi);
    uint64_t span = hi >= lo ? (uint64_t) hi - lo + 1 : 0;
    if (span <= limit)
        inv = lp2 == small && span <= DENSE_STACK_INTS / 2 ? small + DENSE_STACK_INTS / 2
            : avrm__malloc((size_t) (span + 1) * sizeof(*inv));
    if (inv) invert_lpids(lp2, m2->size, lo, span, inv);
    if (lp2 != small) avrm__free(lp2);
    if (!inv) return 0;
    target_t t = { lo, 1, (int64_t) span, 0, 0, 0, 0, absent, inv, NULL, 0 };
    decode_lpids(ctx, m1, in, n, pg, &t, out);
    if (inv != small + DENSE_STACK_INTS / 2) avrm__free(inv);
    return 1;
}

/* The sorted index: every rank, by (pgid, lpid, rank). */
static avrm_rank_index_t *index_sorted(const avrm_ctx_t *ctx, const avrm_rankmap_t *m)
{
    uint32_t n = m->size;
    uint64_t *keys = avrm__malloc((size_t) n * sizeof(*keys));   /* scratch */
    avrm_rank_index_t *idx = avrm__malloc(sizeof(*idx) + (size_t) n * sizeof(idx->v[0]));
    if (!keys || !idx) {
        avrm__free(keys);
        avrm__free(idx);
        return NULL;
    }
    for (uint32_t r = 0; r < n; r++) {
        avrm_pgid_t pg;
        avrm_lpid_t l = avrm_map_lpid(ctx, m, r, &pg);
        keys[r] = (uint64_t) pg << PACK_PGID_SHIFT | (uint64_t) l << PACK_LPID_SHIFT | r;
    }
    qsort(keys, n, sizeof(*keys), cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        idx->v[i] = (int32_t) (keys[i] & PACK_RANK_MASK);
    idx->n = n;
    idx->dense = 0;
    idx->pgid = 0;
    idx->lo = 0;
    avrm__free(keys);
    return idx;
}

/* The dense index of a map in one process group pg whose lpids span at most
 * DENSE_INDEX_SPAN x size; NULL when they spread wider (or no memory) */
static avrm_rank_index_t *index_dense(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                      avrm_pgid_t pg, int *nomem)
{
    uint32_t n = m->size;
    int32_t *lp = avrm__malloc((size_t) n * sizeof(*lp));      /* scratch */
    if (!lp) {
        *nomem = 1;
        return NULL;
    }
    decode_lpids(ctx, m, NULL, n, pg, &LPIDS_AS_IS, lp);
    int32_t lo, hi;
    lpid_range(lp, n, &lo, &hi);            /* every rank is in pg: none skipped */
    uint64_t span = (uint64_t) hi - lo + 1;
    avrm_rank_index_t *idx = NULL;
    if (hi >= lo && span <= (uint64_t) DENSE_INDEX_SPAN * n) {
        idx = avrm__malloc(sizeof(*idx) + span * sizeof(idx->v[0]));
        *nomem = !idx;
    }
    if (idx) {
        idx->n = (uint32_t) span;
        idx->dense = 1;
        idx->pgid = pg;
        idx->lo = lo;
        invert_lpids(lp, n, lo, span, idx->v);
    }
    avrm__free(lp);
    return idx;
}

avrm_status_t avrm_rank_index_build(avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                    avrm_rank_index_t **out)
{
    if (!ctx || !m || !out) return AVRM_ERR_ARG;
    *out = NULL;
    if (!avrm_map_find_needs_index(m) || m->size == 0) return AVRM_OK;
    avrm_pgid_t pg;
    int nomem = 0;
    avrm_rank_index_t *idx = sole_pgid(m, &pg) ? index_dense(ctx, m, pg, &nomem) : NULL;
    if (!idx && !nomem) idx = index_sorted(ctx, m);
    if (!idx) return AVRM_ERR_NOMEM;
    ctx->stats.rank_index_bytes += avrm_rank_index_bytes(idx);
    *out = idx;
    return AVRM_OK;
}

/* The runs of an MSEG map without lut, all in one process group *pg, when
 * there are at most TARGET_RUNS of them and they ascend in lpid without
 * overlap (so each lpid has one rank); 0 otherwise. */
#define TARGET_RUNS 8
static uint32_t ascending_runs(const avrm_rankmap_t *m, target_run_t *run, avrm_pgid_t *pg)
{
    if (m->mode != AVRM_MODE_MSEG || m->u.mseg.lut || m->u.mseg.nsegs > TARGET_RUNS) return 0;
    uint32_t ns = m->u.mseg.nsegs;
    const avrm_seg_t *s = m->u.mseg.segs;
    for (uint32_t k = 0; k < ns; k++) {
        uint32_t end = k + 1 < ns ? s[k + 1].first : m->size;
        run[k] = (target_run_t) { s[k].lpid_base, end - s[k].first, s[k].first };
        if (s[k].pgid != s[0].pgid ||
            (k > 0 && run[k].lpid_base < run[k - 1].lpid_base + run[k - 1].len)) return 0;
    }
    *pg = s[0].pgid;
    return ns;
}

/* Every target but an offset or stride map (avrm_map_translate's own): out
 * of line, so that the common translation pays none of its set-up */
static __attribute__((noinline)) void
translate_other(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1, const int32_t *in, uint32_t n,
                const avrm_rankmap_t *m2, const avrm_rank_index_t *idx2, int32_t absent,
                int32_t *out)
{
    if (idx2 && idx2->dense) {
        /* m2's dense index is the inverse: one load per rank, no build */
        target_t t = { idx2->lo, 1, idx2->n, 0, 0, 0, 0, absent, idx2->v, NULL, 0 };
        decode_lpids(ctx, m1, in, n, idx2->pgid, &t, out);
        return;
    }
    avrm_pgid_t pg;
    target_run_t runs[TARGET_RUNS];
    uint32_t nruns = ascending_runs(m2, runs, &pg);
    if (nruns) {
        /* an MSEG m2 of a few runs ascending in lpid (the world minus a few
         * ranks): each decoded lpid found in its run, nothing built */
        target_t t = { 0, 1, 0, 0, 0, 0, 0, absent, NULL, runs, nruns };
        decode_lpids(ctx, m1, in, n, pg, &t, out);
        return;
    }
    if (n >= DENSE_MIN_RANKS && (uint64_t) n * DENSE_SPAN_FACTOR >= m2->size &&
        (sole_pgid(m1, &pg) || sole_pgid(m2, &pg)) &&
        translate_dense(ctx, m1, in, n, pg, m2, absent, out))
        return;     /* many ranks into a table, block, grid, exception or
                     * offset-runs map (its one pass costs at most 4 per rank),
                     * its lpids not spread too thin */
    if (idx2) {
        /* through the index: while the keys ascend (every rank of the world,
         * in order), galloping from the previous answer forward, O(n1 + n2)
         * like a merge; from the first key that descends on, a binary search
         * over the whole index, O(log n2) per rank: a gallop from an
         * unrelated position costs up to twice that (bench/run translate,
         * mlut-into-mlut) */
        uint32_t pos = 0;
        uint64_t prev = 0;
        int ascending = 1;
        for (uint32_t i = 0; i < n; i++) {
            if (in[i] < 0) {
                out[i] = in[i];
                continue;
            }
            avrm_pgid_t pg;
            avrm_lpid_t l = avrm_map_lpid(ctx, m1, (uint32_t) in[i], &pg);
            uint64_t key = gpid_key(pg, l);
            uint32_t lo = 0, hi = idx2->n;
            ascending = ascending && key >= prev;
            if (ascending) {
                uint32_t step = 1;
                lo = hi = pos;
                while (hi < idx2->n && rank_key(ctx, m2, idx2->v[hi]) < key) {   /* gallop */
                    lo = hi + 1;
                    hi += step;
                    step *= 2;
                }
                if (hi > idx2->n) hi = idx2->n;
            }
            lo = index_lower_bound(ctx, m2, idx2, key, lo, hi);   /* entry hi is >= key */
            pos = lo;
            prev = key;
            out[i] = lo < idx2->n && rank_key(ctx, m2, idx2->v[lo]) == key
                   ? (int32_t) idx2->v[lo] : absent;
        }
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (in[i] < 0) {
            out[i] = in[i];
            continue;
        }
        avrm_gpid_t g = { 0 };
        avrm_pgid_t pg;
        g.lpid = avrm_map_lpid(ctx, m1, (uint32_t) in[i], &pg);
        g.pgid = pg;
        int64_t r = avrm_map_find(ctx, m2, idx2, g);
        out[i] = r >= 0 ? (int32_t) r : absent;
    }
}

void avrm_map_translate(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1, const int32_t *in,
                        uint32_t n, const avrm_rankmap_t *m2, const avrm_rank_index_t *idx2,
                        int32_t absent, int32_t *out)
{
    if (!is_offset(m2) && (m2->mode != AVRM_MODE_STRIDE || m2->u.reg.stride == 0)) {
        translate_other(ctx, m1, in, n, m2, idx2, absent, out);
        return;
    }
    /* into an offset run (the world's group) or a stride (every other rank,
     * a column; an offset map is a stride of 1): the lpids, one subtraction
     * and, for a stride, a multiply (stride_division) */
    target_t t = { m2->u.reg.offset, is_offset(m2) ? 1 : m2->u.reg.stride, m2->size, 0, 0, 0, 0,
                   absent, NULL, NULL, 0 };
    if (t.st == 1) {
        decode_to_rank(ctx, m1, in, n, m2->pgid, &t, out);
    } else {
        stride_division(&t);
        decode_to_stride(ctx, m1, in, n, m2->pgid, &t, out);
    }
}

/* m as an arithmetic progression of lpids (DIRECT, OFFSET, STRIDE): its
 * smallest lpid and its step (0 for one rank); 0 when it is not one. A
 * stride of 0 over several ranks repeats one process: not a group. */
static int progression(const avrm_rankmap_t *m, int64_t *lo, int64_t *step)
{
    if (m->mode > AVRM_MODE_STRIDE) return 0;
    int64_t off = m->u.reg.offset, st = m->mode == AVRM_MODE_STRIDE ? m->u.reg.stride : 1;
    if (m->size > 1 && st == 0) return 0;
    *lo = st >= 0 ? off : off + (int64_t) (m->size - 1) * st;
    *step = m->size > 1 ? (st < 0 ? -st : st) : 0;
    return 1;
}

int avrm_map_same_members(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1,
                          const avrm_rankmap_t *m2)
{
    (void) ctx;
    uint32_t n = m1->size;
    if (n != m2->size) return 0;
    if (n == 0) return 1;
    avrm_pgid_t p1, p2;
    int one1 = sole_pgid(m1, &p1), one2 = sole_pgid(m2, &p2);
    if (one1 && one2 && p1 != p2) return 0;
    int64_t lo1, st1, lo2, st2;
    if (progression(m1, &lo1, &st1) && progression(m2, &lo2, &st2))
        return lo1 == lo2 && st1 == st2;       /* one group each: the same one */
    return -1;
}
