/* avrm_detect.c - pattern detectors (see avrm_detect.h). */
#include "avrm_detect.h"

void avrm_det_result(const avrm_det_t *s, avrm_pat_t *p)
{
    *p = (avrm_pat_t) { .kind = AVRM_PAT_IRREG, .off = s->v0 };
    if (s->n <= 1 || (s->stride_ok && s->d == 1)) {
        p->kind = AVRM_MODE_OFFSET;
    } else if (s->stride_ok) {
        p->kind = AVRM_MODE_STRIDE;
        p->stride = s->d;
    } else if (s->block_ok && s->bs) {
        p->kind = AVRM_MODE_BLOCK;
        p->stride = s->bstride;
        p->bs = s->bs;
    }
}

void avrm_detect_regular(const avrm_seqv_t *s, avrm_pat_t *p)
{
    avrm_det_t d;
    avrm_det_init(&d);
    for (uint32_t i = 0; i < s->n && !(i > 2 && avrm_det_dead(&d)); i++)
        avrm_det_push(&d, avrm_seqv_at(s, i));
    if (d.n != s->n) {
        *p = (avrm_pat_t) { .kind = AVRM_PAT_IRREG };
        return;
    }
    avrm_det_result(&d, p);
}

int avrm_detect_grid(const avrm_seqv_t *s, avrm_pat_t *p)
{
    uint32_t n = s->n, P = 1, nd = 0;
    uint32_t ext[AVRM_MAX_GRID_DIMS + 1];
    int64_t ws[AVRM_MAX_GRID_DIMS + 1];
    int64_t x0 = avrm_seqv_at(s, 0);
    if (n < 2) return 0;
    /* levels from the innermost: block starts j*P advancing by a constant */
    while (P < n) {
        if (nd == AVRM_MAX_GRID_DIMS) return 0;
        int64_t w = avrm_seqv_at(s, P) - x0;
        uint32_t e = 2;
        int64_t prev = avrm_seqv_at(s, P);
        while ((uint64_t) e * P < n) {
            int64_t v = avrm_seqv_at(s, e * P);
            if (v - prev != w) break;
            prev = v;
            e++;
        }
        ws[nd] = w;
        ext[nd] = e;
        nd++;
        if ((uint64_t) e * P >= n) break;
        P *= e;
    }
    /* reverse to outermost-first */
    avrm_pat_t g = { .kind = AVRM_MODE_GRID, .ndims = (uint8_t) nd, .off = x0 };
    for (uint32_t d = 0; d < nd; d++) {
        g.ext[d] = ext[nd - 1 - d];
        g.ws[d] = ws[nd - 1 - d];
    }
    /* verify every element with an odometer */
    uint32_t c[AVRM_MAX_GRID_DIMS] = { 0 };
    int64_t cur = x0;
    for (uint32_t i = 0; i < n; i++) {
        if (avrm_seqv_at(s, i) != cur) return 0;
        int d = (int) nd - 1;
        c[d]++;
        cur += g.ws[d];
        while (d > 0 && c[d] == g.ext[d]) {
            cur -= (int64_t) g.ext[d] * g.ws[d];
            c[d] = 0;
            d--;
            c[d]++;
            cur += g.ws[d];
        }
    }
    *p = g;
    return 1;
}

/* 1 when x = stride except at 1..max_ex positions (fewer than the best so far). */
static int except_try(const avrm_seqv_t *s, int64_t off, int64_t stride, uint32_t max_ex,
                      avrm_pat_t *p)
{
    uint32_t nex = 0, rk[2] = { UINT32_MAX, UINT32_MAX }, lp[2] = { 0, 0 };
    int64_t cur = off;
    for (uint32_t i = 0; i < s->n; i++, cur += stride) {
        int64_t v = avrm_seqv_at(s, i);
        if (v == cur) continue;
        if (nex == max_ex) return 0;
        rk[nex] = i;
        lp[nex] = (uint32_t) v;
        nex++;
    }
    if (nex == 0) return 0;    /* a plain stride: not an exception map */
    *p = (avrm_pat_t) { .kind = AVRM_MODE_EXCEPT, .ndims = (uint8_t) nex, .off = off,
                        .stride = stride, .ex_rank = { rk[0], rk[1] },
                        .ex_lpid = { lp[0], lp[1] } };
    return 1;
}

int avrm_detect_except(const avrm_seqv_t *s, avrm_pat_t *p)
{
    /* at most 2 exceptions: 3 of the first 5 elements follow the stride,
     * so one of the pairs among them gives it */
    uint32_t k = s->n < 5 ? s->n : 5;
    int64_t tried_off[10], tried_st[10];
    unsigned ntried = 0;
    uint32_t best = 3;        /* fewest exceptions found + 1 */
    if (s->n < 3) return 0;
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = i + 1; j < k; j++) {
            int64_t dv = avrm_seqv_at(s, j) - avrm_seqv_at(s, i);
            if (dv % (int64_t) (j - i)) continue;
            int64_t st = dv / (int64_t) (j - i);
            int64_t off = avrm_seqv_at(s, i) - (int64_t) i * st;
            unsigned t = 0;
            while (t < ntried && !(tried_off[t] == off && tried_st[t] == st)) t++;
            if (t < ntried) continue;
            tried_off[ntried] = off;
            tried_st[ntried++] = st;
            if (except_try(s, off, st, best - 1, p)) {
                best = p->ndims;
                if (best == 1) return 1;
            }
        }
    return best < 3;
}

void avrm_pat_normalize(avrm_pat_t *p, uint32_t n)
{
    if (p->kind == AVRM_MODE_GRID) {
        /* drop inner dims of extent 1, merge dims d-1,d when ws[d-1] == ext[d]*ws[d] */
        uint32_t nd = 0;
        uint32_t ext[AVRM_MAX_GRID_DIMS];
        int64_t ws[AVRM_MAX_GRID_DIMS];
        for (uint32_t d = 0; d < p->ndims; d++) {
            if (d > 0 && p->ext[d] == 1) continue;
            ext[nd] = p->ext[d];
            ws[nd++] = p->ws[d];
        }
        uint32_t m = 0;
        for (uint32_t d = 0; d < nd; d++) {
            if (m > 0 && ws[m - 1] == (int64_t) ext[d] * ws[d]) {
                ext[m - 1] *= ext[d];     /* outer absorbs inner */
                ws[m - 1] = ws[d];
                continue;
            }
            ext[m] = ext[d];
            ws[m++] = ws[d];
        }
        /* an outer dim that is never reached (n <= inner product) vanishes */
        while (m > 1) {
            uint64_t inner = 1;
            for (uint32_t d = 1; d < m; d++) inner *= ext[d];
            if (inner < n) break;
            for (uint32_t d = 0; d + 1 < m; d++) { ext[d] = ext[d + 1]; ws[d] = ws[d + 1]; }
            m--;
        }
        if (m == 1) {
            p->kind = AVRM_MODE_STRIDE;
            p->stride = ws[0];
        } else if (m == 2 && ws[1] == 1) {
            p->kind = AVRM_MODE_BLOCK;
            p->stride = ws[0];
            p->bs = ext[1];
        } else {
            p->ndims = (uint8_t) m;
            for (uint32_t d = 0; d < m; d++) { p->ext[d] = ext[d]; p->ws[d] = ws[d]; }
            for (uint32_t d = m; d < AVRM_MAX_GRID_DIMS; d++) { p->ext[d] = 0; p->ws[d] = 0; }
            return;
        }
    }
    if (p->kind == AVRM_MODE_BLOCK) {
        if (p->bs >= n || p->stride == (int64_t) p->bs) {
            p->kind = AVRM_MODE_OFFSET;
        } else if (p->bs == 1) {
            p->kind = AVRM_MODE_STRIDE;
        }
    }
    if (p->kind == AVRM_MODE_STRIDE && (p->stride == 1 || n == 1))
        p->kind = AVRM_MODE_OFFSET;
    if (p->kind == AVRM_MODE_OFFSET && p->off == 0)
        p->kind = AVRM_MODE_DIRECT;
}
