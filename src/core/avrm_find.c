/* avrm_find.c - process -> rank in a map (see avrm_find.h). */
#include <stdlib.h>
#include "avrm/avrm_find.h"
#include "avrm_alloc.h"

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
    return idx ? sizeof(*idx) + (size_t) idx->n * sizeof(uint32_t) : 0;
}

avrm_status_t avrm_rank_index_build(avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                                    avrm_rank_index_t **out)
{
    if (!ctx || !m || !out) return AVRM_ERR_ARG;
    if (!avrm_map_find_needs_index(m) || m->size == 0) {
        *out = NULL;
        return AVRM_OK;
    }
    uint32_t n = m->size;
    uint64_t *keys = avrm__malloc((size_t) n * sizeof(*keys));   /* scratch */
    avrm_rank_index_t *idx = avrm__malloc(sizeof(*idx) + (size_t) n * sizeof(uint32_t));
    if (!keys || !idx) {
        avrm__free(keys);
        avrm__free(idx);
        return AVRM_ERR_NOMEM;
    }
    for (uint32_t r = 0; r < n; r++) {
        avrm_pgid_t pg;
        avrm_lpid_t l = avrm_map_lpid(ctx, m, r, &pg);
        keys[r] = (uint64_t) pg << PACK_PGID_SHIFT | (uint64_t) l << PACK_LPID_SHIFT | r;
    }
    qsort(keys, n, sizeof(*keys), cmp_u64);
    for (uint32_t i = 0; i < n; i++)
        idx->rank[i] = (uint32_t) (keys[i] & PACK_RANK_MASK);
    idx->n = n;
    avrm__free(keys);
    ctx->stats.rank_index_bytes += avrm_rank_index_bytes(idx);
    *out = idx;
    return AVRM_OK;
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
        if (rank_key(ctx, m, idx->rank[mid]) < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static int64_t find_indexed(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                            const avrm_rank_index_t *idx, uint64_t key)
{
    uint32_t lo = index_lower_bound(ctx, m, idx, key, 0, idx->n);
    return lo < idx->n && rank_key(ctx, m, idx->rank[lo]) == key ? (int64_t) idx->rank[lo] : -1;
}

int64_t avrm_map_find(const avrm_ctx_t *ctx, const avrm_rankmap_t *m,
                      const avrm_rank_index_t *idx, avrm_gpid_t g)
{
    best_t b = { ctx, m, gpid_key(g.pgid, g.lpid), -1 };
    if (m->size == 0) return -1;
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

void avrm_map_translate(const avrm_ctx_t *ctx, const avrm_rankmap_t *m1, const int32_t *in,
                        uint32_t n, const avrm_rankmap_t *m2, const avrm_rank_index_t *idx2,
                        int32_t absent, int32_t *out)
{
    if (is_offset(m1) && is_offset(m2) && m1->pgid == m2->pgid) {
        /* both offset runs of one group: r2 = r1 + (offset1 - offset2) */
        int64_t delta = (int64_t) m1->u.reg.offset - m2->u.reg.offset;
        for (uint32_t i = 0; i < n; i++) {
            int64_t r = in[i] < 0 ? in[i] : in[i] + delta;
            out[i] = in[i] < 0 ? in[i] : (r >= 0 && r < (int64_t) m2->size ? (int32_t) r : absent);
        }
        return;
    }
    if (is_offset(m2) && m1->mode == AVRM_MODE_MSEG && !m1->u.mseg.lut) {
        /* offset runs (the world minus k) into an offset run: the run of the
         * previous rank first (ascending ranks walk the runs in order) */
        const avrm_seg_t *sg = m1->u.mseg.segs;
        uint32_t ns = m1->u.mseg.nsegs, k = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (in[i] < 0) {
                out[i] = in[i];
                continue;
            }
            uint32_t r = (uint32_t) in[i];
            if (r < sg[k].first) k = 0;
            while (k + 1 < ns && sg[k + 1].first <= r) k++;
            int64_t d = (int64_t) sg[k].lpid_base + (r - sg[k].first) - m2->u.reg.offset;
            out[i] = sg[k].pgid == m2->pgid && d >= 0 && d < (int64_t) m2->size ? (int32_t) d : absent;
        }
        return;
    }
    int stride_target = is_offset(m2) || (m2->mode == AVRM_MODE_STRIDE && m2->u.reg.stride != 0);
    if (stride_target && !avrm_map_is_multi(m1)) {
        /* into an offset run (the world's group) or a stride (every other
         * rank, a column; an offset map is a stride of 1): decode, one
         * subtraction and an exact division */
        int same = m1->pgid == m2->pgid;
        int64_t st = is_offset(m2) ? 1 : m2->u.reg.stride;
        for (uint32_t i = 0; i < n; i++) {
            if (in[i] < 0) {
                out[i] = in[i];
                continue;
            }
            avrm_pgid_t pg;
            int64_t d = (int64_t) avrm_map_lpid(ctx, m1, (uint32_t) in[i], &pg) - m2->u.reg.offset;
            int64_t r = d / st;
            out[i] = same && d % st == 0 && r >= 0 && r < (int64_t) m2->size ? (int32_t) r : absent;
        }
        return;
    }
    if (idx2) {
        /* through the index: from the previous answer forward, galloping,
         * when the keys ascend (every rank of the world, in order: O(n1 + n2)
         * like a merge), a binary search otherwise */
        uint32_t pos = 0;
        uint64_t prev = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (in[i] < 0) {
                out[i] = in[i];
                continue;
            }
            avrm_pgid_t pg;
            avrm_lpid_t l = avrm_map_lpid(ctx, m1, (uint32_t) in[i], &pg);
            uint64_t key = gpid_key(pg, l);
            uint32_t lo = key >= prev ? pos : 0, step = 1, hi = lo;
            while (hi < idx2->n && rank_key(ctx, m2, idx2->rank[hi]) < key) {   /* gallop */
                lo = hi + 1;
                hi += step;
                step *= 2;
            }
            if (hi > idx2->n) hi = idx2->n;
            lo = index_lower_bound(ctx, m2, idx2, key, lo, hi);   /* entry hi is >= key */
            pos = lo;
            prev = key;
            out[i] = lo < idx2->n && rank_key(ctx, m2, idx2->rank[lo]) == key
                   ? (int32_t) idx2->rank[lo] : absent;
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
