/*
 * avrm_build.c - rank-map builders (see avrm_rankmap.h).
 *
 * Step 1: the mapping array is scanned once (range check + streaming
 *         offset/stride/block detection). Every rank of one parent in
 *         order is that parent's map (avrm_map_dup), but a send map never
 *         takes an MSEG parent's form.
 * Step 2: regular parent x regular mapping compose in closed form
 *         (compose()), and an offset mapping over a table parent becomes a
 *         slice of the parent's table.
 * Step 3: everything else goes through build_general(): one virtual pass
 *         over the child's gpids via avrm_map_locate (pgid runs, streaming
 *         detection); then, only if the result is a table, the table is
 *         filled and rescanned for grid/except before choosing
 *         LUT16/LUT/MLUT/MSEG and sharing by content.
 * Every output is written only on success.
 */
#include <string.h>
#include "avrm_alloc.h"
#include "avrm_detect.h"
#include "avrm_mapi.h"

/* ---- the child's gpid sequence, read through the parents' maps ---- */

typedef struct seq {
    const avrm_ctx_t *ctx;
    const avrm_rankmap_t *parent;              /* avrm_map_build */
    const int32_t *mapping;
    int64_t aff_first, aff_stride;             /* avrm_map_build_affine (mapping NULL) */
    const avrm_rankmap_t *const *parents;      /* avrm_map_build_multi */
    const avrm_src_t *src;
    const avrm_gpid_t *gpids;                  /* avrm_map_build_gpids */
    int compact;                               /* *_compact builders (groups): a result
                                                * of few runs becomes MSEG; never a
                                                * communicator's (send) map */
} seq_t;

static inline avrm_lpid_t seq_at(const seq_t *s, uint32_t i, avrm_pgid_t *pg)
{
    if (s->gpids) {
        *pg = s->gpids[i].pgid;
        return s->gpids[i].lpid;
    }
    if (s->src)
        return avrm_map_lpid(s->ctx, s->parents[s->src[i].parent], (uint32_t) s->src[i].rank, pg);
    uint32_t q = s->mapping ? (uint32_t) s->mapping[i]
                            : (uint32_t) (s->aff_first + (int64_t) i * s->aff_stride);
    return avrm_map_lpid(s->ctx, s->parent, q, pg);
}

/* ---- pattern -> map ---- */

static int fits32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* Fill *m from a normalized pattern; 0 when it does not fit the map fields. */
static int pat_to_map(const avrm_ctx_t *ctx, const avrm_pat_t *p, avrm_pgid_t pg, uint32_t n,
                      avrm_rankmap_t *m)
{
    memset(m, 0, sizeof(*m));
    m->mode = p->kind;
    m->pgid = pg;
    m->size = n;
    m->ents = ctx->avs[pg]->entries;
    switch ((avrm_mode_t) p->kind) {
    case AVRM_MODE_DIRECT:
        return 1;
    case AVRM_MODE_OFFSET:
    case AVRM_MODE_STRIDE:
    case AVRM_MODE_BLOCK:
        if (!fits32(p->off) || !fits32(p->stride)) return 0;
        m->u.reg.offset = (int32_t) p->off;
        m->u.reg.stride = (int32_t) p->stride;
        m->u.reg.bs = p->bs;
        return 1;
    case AVRM_MODE_EXCEPT:
        if (!ctx->params.enable_except || !fits32(p->off) || !fits32(p->stride)) return 0;
        m->u.exc.nex = p->ndims;
        m->u.exc.offset = (int32_t) p->off;
        m->u.exc.stride = (int32_t) p->stride;
        for (int k = 0; k < 2; k++) {
            m->u.exc.ex_rank[k] = k < p->ndims ? p->ex_rank[k] : UINT32_MAX;
            m->u.exc.ex_lpid[k] = k < p->ndims ? p->ex_lpid[k] : 0;
        }
        return 1;
    case AVRM_MODE_GRID:
        if (!ctx->params.enable_grid || p->ndims < 2 || p->ndims > AVRM_MAX_GRID_DIMS ||
            p->off < 0 || p->off > (int64_t) UINT32_MAX)
            return 0;
        m->u.grid.ndims = p->ndims;
        m->u.grid.base = (avrm_lpid_t) p->off;
        for (unsigned d = 0; d < p->ndims; d++) {
            if (!fits32(p->ws[d]) || (d > 0 && (p->ext[d] < 1 || p->ext[d] > UINT16_MAX)))
                return 0;
            m->u.grid.wstride[d] = (uint32_t) (int32_t) p->ws[d];
            m->u.grid.ext[d] = (uint16_t) (p->ext[d] > UINT16_MAX ? UINT16_MAX : p->ext[d]);
        }
        return 1;
    default:
        return 0;
    }
}

/* ---- step 2: closed-form composition of regular parent and mapping ---- */

static int64_t block_at(int64_t off, int64_t stride, int64_t bs, int64_t q)
{
    return off + (q / bs) * stride + q % bs;
}

/* Pattern of lpid(parent, mp(i)) for a regular parent and a regular mapping
 * pattern mp (OFFSET/STRIDE/BLOCK; a STRIDE may be negative, a reversed run:
 * avrm_map_build_affine). 0: no closed form. */
static int compose(const avrm_rankmap_t *par, const avrm_pat_t *mp, uint32_t n, avrm_pat_t *out)
{
    int64_t a = mp->off, s = mp->stride;
    avrm_pat_t r = { .kind = AVRM_PAT_IRREG };
    switch ((avrm_mode_t) par->mode) {
    case AVRM_MODE_DIRECT:
    case AVRM_MODE_OFFSET: {                        /* f(q) = p + q */
        int64_t p = par->mode == AVRM_MODE_DIRECT ? 0 : par->u.reg.offset;
        r = *mp;
        r.off = p + a;
        break;
    }
    case AVRM_MODE_STRIDE: {                        /* f(q) = p + q t */
        int64_t p = par->u.reg.offset, t = par->u.reg.stride;
        r.off = p + a * t;
        if (mp->kind == AVRM_MODE_OFFSET) {
            r.kind = AVRM_MODE_STRIDE;
            r.stride = t;
        } else if (mp->kind == AVRM_MODE_STRIDE) {
            r.kind = AVRM_MODE_STRIDE;
            r.stride = s * t;
        } else {                                    /* blocks of stride-t runs */
            r.kind = AVRM_MODE_GRID;
            r.ndims = 2;
            r.ext[0] = (n + mp->bs - 1) / mp->bs;
            r.ext[1] = mp->bs;
            r.ws[0] = s * t;
            r.ws[1] = t;
        }
        break;
    }
    case AVRM_MODE_BLOCK: {                         /* f(q) = p + (q/B) S + q%B */
        int64_t p = par->u.reg.offset, S = par->u.reg.stride, B = par->u.reg.bs;
        if (mp->kind == AVRM_MODE_OFFSET) {
            if (a % B == 0) {
                r = (avrm_pat_t) { .kind = AVRM_MODE_BLOCK, .off = block_at(p, S, B, a),
                                   .stride = S, .bs = (uint32_t) B };
            } else if (a % B + n <= B) {
                r = (avrm_pat_t) { .kind = AVRM_MODE_OFFSET, .off = block_at(p, S, B, a) };
            }
        } else if (mp->kind == AVRM_MODE_STRIDE) {
            int64_t last = a % B + (int64_t) (n - 1) * s;
            if (s % B == 0) {
                r = (avrm_pat_t) { .kind = AVRM_MODE_STRIDE, .off = block_at(p, S, B, a),
                                   .stride = (s / B) * S };
            } else if (last >= 0 && last < B) {      /* all inside one block */
                r = (avrm_pat_t) { .kind = AVRM_MODE_STRIDE, .off = block_at(p, S, B, a),
                                   .stride = s };
            }
        } else if (a % B == 0 && s % B == 0 && mp->bs <= B) {
            r = (avrm_pat_t) { .kind = AVRM_MODE_BLOCK, .off = block_at(p, S, B, a),
                               .stride = (s / B) * S, .bs = mp->bs };
        }
        break;
    }
    default:
        break;
    }
    if (r.kind == AVRM_PAT_IRREG) return 0;
    avrm_pat_normalize(&r, n);
    *out = r;
    return 1;
}

/* ---- step 3 helpers: rescan of a materialized lpid table ---- */

static int rescan(const avrm_ctx_t *ctx, const avrm_seqv_t *v, avrm_pgid_t pg, avrm_rankmap_t *m)
{
    const avrm_params_t *pr = &ctx->params;
    avrm_pat_t p;
    if (!pr->enable_patterns) return 0;
    avrm_detect_regular(v, &p);
    if (p.kind != AVRM_PAT_IRREG) {
        avrm_pat_normalize(&p, v->n);
        if (pat_to_map(ctx, &p, pg, v->n, m)) return 1;
    }
    if (pr->enable_grid && avrm_detect_grid(v, &p)) {
        avrm_pat_normalize(&p, v->n);
        if (pat_to_map(ctx, &p, pg, v->n, m)) return 1;
    }
    if (pr->enable_except && avrm_detect_except(v, &p) && pat_to_map(ctx, &p, pg, v->n, m))
        return 1;
    return 0;
}

static void set_lut(avrm_rankmap_t *m, avrm_mode_t mode, avrm_table_t *t, const void *v)
{
    m->mode = (uint8_t) mode;
    m->u.lut.v = v;
    m->u.lut.tbl = t;
}

/* MSEG of nseg segments: offset runs (nolut) or one run per group with the
 * lpids in a lut; seg_bytes is the table payload. */
static avrm_status_t build_mseg(avrm_ctx_t *ctx, const seq_t *s, uint32_t n, uint32_t nseg,
                                int nolut, size_t seg_bytes, avrm_rankmap_t *out)
{
    avrm_rankmap_t m;
    memset(&m, 0, sizeof(m));
    m.size = n;
    avrm_table_t *t = avrm_table_new(AVRM_MODE_MSEG, seg_bytes);
    if (!t) return AVRM_ERR_NOMEM;
    avrm_seg_t *sg = (avrm_seg_t *) t->data;
    uint32_t *lut = nolut ? NULL : (uint32_t *) (sg + nseg);
    uint32_t k = 0;
    avrm_pgid_t prevpg = 0;
    avrm_lpid_t prevl = 0;
    for (uint32_t i = 0; i < n; i++) {
        avrm_pgid_t pg;
        avrm_lpid_t l = seq_at(s, i, &pg);
        if (i == 0 || pg != prevpg || (nolut && l != prevl + 1))
            sg[k++] = (avrm_seg_t) { .first = i, .lpid_base = l, .pgid = pg };
        if (lut) lut[i] = l;
        prevpg = pg;
        prevl = l;
    }
    t = avrm_table_publish(ctx, t, t->bytes);
    m.mode = AVRM_MODE_MSEG;
    m.u.mseg.tbl = t;
    m.u.mseg.segs = (const avrm_seg_t *) t->data;
    m.u.mseg.lut = lut ? (const avrm_lpid_t *) ((const avrm_seg_t *) t->data + nseg) : NULL;
    m.u.mseg.nsegs = nseg;
    *out = m;
    return AVRM_OK;
}

/* Single-group table result: ILUT when it fits in the map (<= 16 ranks, 12
 * over a computed AV, every lpid < 65536), else LUT16 (every lpid < 65536) or LUT, shared by content.
 * The lpids are written once, into their final place (no temporary table),
 * and rescanned for grid/except. */
static avrm_status_t build_lut(avrm_ctx_t *ctx, const seq_t *s, uint32_t n, avrm_pgid_t pg,
                               uint32_t maxl, uint32_t nsegs, avrm_rankmap_t *out)
{
    avrm_rankmap_t m, regular;
    memset(&m, 0, sizeof(m));
    m.pgid = pg;
    m.size = n;
    m.ents = ctx->avs[pg]->entries;
    int narrow = maxl <= UINT16_MAX;
    /* over a computed AV an ILUT keeps the AV's locality in its last bytes
     * (its class CILUT): at most AVRM_CILUT_MAX ranks */
    uint32_t ilut_max = m.ents ? AVRM_ILUT_MAX : AVRM_CILUT_MAX;
    avrm_mode_t mode = ctx->params.enable_ilut && narrow && n <= ilut_max ? AVRM_MODE_ILUT
                     : ctx->params.enable_lut16 && narrow ? AVRM_MODE_LUT16 : AVRM_MODE_LUT;
    uint8_t w = mode == AVRM_MODE_LUT ? sizeof(uint32_t) : sizeof(uint16_t);
    avrm_table_t *t = NULL;
    void *v = m.u.ilut;
    if (mode != AVRM_MODE_ILUT) {
        if (!(t = avrm_table_new(mode, (size_t) n * w))) return AVRM_ERR_NOMEM;
        v = t->data;
    }
    for (uint32_t i = 0; i < n; i++) {
        avrm_pgid_t g;
        avrm_lpid_t l = seq_at(s, i, &g);
        if (w == sizeof(uint16_t)) ((uint16_t *) v)[i] = (uint16_t) l;
        else ((uint32_t *) v)[i] = l;
    }
    avrm_seqv_t sv = { v, n, w };
    if (rescan(ctx, &sv, pg, &regular)) {
        if (t) avrm_table_discard(t);
        *out = regular;
        return AVRM_OK;
    }
    /* compact builders (groups): a few offset runs (the world minus k
     * ranks) are smaller as MSEG segments than as a per-rank table */
    size_t seg_bytes = (size_t) nsegs * sizeof(avrm_seg_t);
    if (t && s->compact && ctx->params.enable_mseg && nsegs <= AVRM_MSEG_MAX_SEGS &&
        seg_bytes < t->bytes) {
        avrm_table_discard(t);
        return build_mseg(ctx, s, n, nsegs, 1, seg_bytes, out);
    }
    if (t) {
        t = avrm_table_publish(ctx, t, t->bytes);
        set_lut(&m, mode, t, t->data);
    } else {
        m.mode = AVRM_MODE_ILUT;
    }
    *out = m;
    return AVRM_OK;
}

/* Two groups, one offset run each (nsegs == 2): JOIN, no table. */
static avrm_status_t build_join(avrm_ctx_t *ctx, const seq_t *s, uint32_t n, avrm_rankmap_t *out)
{
    avrm_rankmap_t m;
    memset(&m, 0, sizeof(m));
    avrm_pgid_t pg0, pg1 = 0;
    avrm_lpid_t l0 = seq_at(s, 0, &pg0), l1 = 0;
    uint32_t first1 = 1;
    while (first1 < n && (l1 = seq_at(s, first1, &pg1), pg1 == pg0)) first1++;
    m.mode = AVRM_MODE_JOIN;
    m.size = n;
    m.pgid = pg0;
    m.ents = ctx->avs[pg0]->entries;
    m.u.join.ents1 = ctx->avs[pg1]->entries;
    m.u.join.first1 = first1;
    m.u.join.delta0 = (int32_t) l0;
    m.u.join.delta1 = (int32_t) (l1 - first1);
    m.u.join.pgid1 = pg1;
    *out = m;
    return AVRM_OK;
}

/* Several groups: JOIN for two offset runs, MSEG (a few runs) when smaller
 * than the per-rank table and the map never translates a send (a compact
 * build: MSEG takes the generic class, +73 instructions per MPI_Isend
 * against MLUT32's +5 in test/insns), else MLUT32 (4 B/rank) when every
 * pgid < 256, else MLUT (8 B/rank). */
static avrm_status_t build_multi_table(avrm_ctx_t *ctx, const seq_t *s, uint32_t n,
                                       uint32_t nruns, uint32_t nsegs, avrm_pgid_t maxpg,
                                       avrm_rankmap_t *out)
{
    if (ctx->params.enable_mseg && nsegs == 2) return build_join(ctx, s, n, out);
    int packed = maxpg < AVRM_MLUT32_MAX_PGS;          /* this map's pgids fit a byte */
    size_t mlut = (size_t) n * (packed ? sizeof(uint32_t) : sizeof(avrm_gpid_t));
    size_t seg_nolut = (size_t) nsegs * sizeof(avrm_seg_t);
    size_t seg_lut = (size_t) nruns * sizeof(avrm_seg_t) + (size_t) n * sizeof(uint32_t);
    /* the smallest MSEG variant within the segment cap, if any beats the table */
    int ok_nolut = nsegs <= AVRM_MSEG_MAX_SEGS, ok_lut = nruns <= AVRM_MSEG_MAX_SEGS;
    int nolut = ok_nolut && (!ok_lut || seg_nolut <= seg_lut);
    int use_mseg = ctx->params.enable_mseg && s->compact && (ok_nolut || ok_lut);
    size_t seg_bytes = nolut ? seg_nolut : seg_lut;
    avrm_rankmap_t m;
    memset(&m, 0, sizeof(m));
    m.size = n;
    if (!use_mseg || seg_bytes >= mlut) {
        avrm_mode_t mode = packed ? AVRM_MODE_MLUT32 : AVRM_MODE_MLUT;
        avrm_table_t *t = avrm_table_new(mode, mlut);
        if (!t) return AVRM_ERR_NOMEM;
        for (uint32_t i = 0; i < n; i++) {
            avrm_pgid_t pg;
            avrm_lpid_t l = seq_at(s, i, &pg);
            if (packed) {
                ((uint32_t *) t->data)[i] = (uint32_t) pg << AVRM_MLUT32_SHIFT | l;
            } else {
                avrm_gpid_t *g = (avrm_gpid_t *) t->data;
                g[i] = (avrm_gpid_t) { .lpid = l, .pgid = pg };
            }
        }
        t = avrm_table_publish(ctx, t, t->bytes);
        set_lut(&m, mode, t, t->data);
        *out = m;
        return AVRM_OK;
    }
    return build_mseg(ctx, s, n, nolut ? nsegs : nruns, nolut, seg_bytes, out);
}

/* Step 3 for any source: one virtual pass, then regular map or a table. */
static avrm_status_t build_general(avrm_ctx_t *ctx, const seq_t *s, uint32_t n, avrm_rankmap_t *out)
{
    avrm_det_t det;
    avrm_det_init(&det);
    int detect = ctx->params.enable_patterns, single = 1;
    avrm_pgid_t pg0 = 0, prevpg = 0, maxpg = 0;
    avrm_lpid_t prevl = 0, maxl = 0;
    uint32_t nruns = 1, nsegs = 1;
    for (uint32_t i = 0; i < n; i++) {
        avrm_pgid_t pg;
        avrm_lpid_t l = seq_at(s, i, &pg);
        if (i == 0) {
            pg0 = pg;
        } else if (pg != prevpg) {
            nruns++;
            nsegs++;
            single = 0;
        } else if (l != prevl + 1) {
            nsegs++;
        }
        if (l > maxl) maxl = l;
        if (pg > maxpg) maxpg = pg;
        if (detect && single && !avrm_det_dead(&det)) avrm_det_push(&det, l);
        prevpg = pg;
        prevl = l;
    }
    if (!single) return build_multi_table(ctx, s, n, nruns, nsegs, maxpg, out);
    if (detect && det.n == n) {
        avrm_pat_t p;
        avrm_rankmap_t m;
        avrm_det_result(&det, &p);
        if (p.kind != AVRM_PAT_IRREG) {
            avrm_pat_normalize(&p, n);
            if (pat_to_map(ctx, &p, pg0, n, &m)) {
                *out = m;
                return AVRM_OK;
            }
        }
    }
    return build_lut(ctx, s, n, pg0, maxl, nsegs, out);
}

/* Offset mapping over a table parent: a slice of the parent's table
 * (or a regular map when the slice is regular). */
static int build_slice(avrm_ctx_t *ctx, const avrm_rankmap_t *par, uint32_t a, uint32_t n,
                       avrm_rankmap_t *out)
{
    avrm_rankmap_t m = *par;
    size_t w = avrm__map_elem_bytes(par);
    const void *v = (const char *) par->u.lut.v + (size_t) a * w;
    if (par->mode == AVRM_MODE_MLUT) {
        const avrm_gpid_t *g = v;
        uint32_t i = 1;
        while (i < n && g[i].pgid == g[0].pgid) i++;
        if (i == n) return 0;          /* one group: build_general makes a LUT */
    } else if (par->mode == AVRM_MODE_MLUT32) {
        const uint32_t *g = v;
        uint32_t i = 1;
        while (i < n && g[i] >> AVRM_MLUT32_SHIFT == g[0] >> AVRM_MLUT32_SHIFT) i++;
        if (i == n) return 0;          /* one group: build_general makes a LUT */
    } else {
        avrm_seqv_t sv = { v, n, (uint8_t) w };
        if (rescan(ctx, &sv, par->pgid, &m)) {
            *out = m;
            return 1;
        }
        m = *par;
    }
    m.size = n;
    m.u.lut.v = v;
    avrm_table_ref(ctx, m.u.lut.tbl, (size_t) n * w);
    *out = m;
    return 1;
}

static avrm_status_t finish(avrm_ctx_t *ctx, avrm_status_t rc, const avrm_rankmap_t *m,
                            avrm_rankmap_t *out)
{
    if (rc != AVRM_OK) return rc;
    *out = *m;
    avrm__map_seal(ctx, out);
    avrm__map_count(ctx, out, +1);
    return AVRM_OK;
}

/* ---- public builders ---- */

/* May a child that is every rank of `parent` in order be the parent's map
 * itself (avrm_map_dup)? Yes, but a send map (not compact) never takes
 * MSEG, the slow class on the send path. */
static int takes_parent_form(const avrm_rankmap_t *parent, int compact)
{
    return compact || parent->mode != AVRM_MODE_MSEG;
}

static avrm_status_t build_one(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                               const int32_t *mapping, uint32_t n, int compact,
                               avrm_rankmap_t *out);
static avrm_status_t build_multi(avrm_ctx_t *ctx, const avrm_rankmap_t *const *parents,
                                 uint32_t nparents, const avrm_src_t *src, uint32_t n,
                                 int compact, avrm_rankmap_t *out);
static avrm_status_t build_mapped(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                                  const avrm_pat_t *mp, const seq_t *s, uint32_t n,
                                  avrm_rankmap_t *out);

avrm_status_t avrm_map_build(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                             const int32_t *mapping, uint32_t n, avrm_rankmap_t *out)
{
    return build_one(ctx, parent, mapping, n, 0, out);
}

static avrm_status_t build_one(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                               const int32_t *mapping, uint32_t n, int compact,
                               avrm_rankmap_t *out)
{
    if (!ctx || !parent || !mapping || !out || n == 0 || parent->size == 0) return AVRM_ERR_ARG;
    if (n > AVRM_MAX_WORLD) return AVRM_ERR_LIMIT;
    /* step 1: range check and mapping pattern, one pass */
    avrm_det_t det;
    avrm_det_init(&det);
    int detect = ctx->params.enable_patterns;
    for (uint32_t i = 0; i < n; i++) {
        if ((uint32_t) mapping[i] >= parent->size) return AVRM_ERR_ARG;
        if (detect && !avrm_det_dead(&det)) avrm_det_push(&det, mapping[i]);
    }
    avrm_pat_t mp = { .kind = AVRM_PAT_IRREG };
    if (detect && det.n == n) avrm_det_result(&det, &mp);
    seq_t s = { .ctx = ctx, .parent = parent, .mapping = mapping, .compact = compact };
    return build_mapped(ctx, parent, &mp, &s, n, out);
}

/* Steps 2 and 3 of a child of one parent whose mapping follows mp (or
 * AVRM_PAT_IRREG), the mapping read through s. */
static avrm_status_t build_mapped(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                                  const avrm_pat_t *mp, const seq_t *s, uint32_t n,
                                  avrm_rankmap_t *out)
{
    avrm_rankmap_t m;
    avrm_pat_t p;
    /* every rank of the parent in order (MPI_Group_incl of all, a union
     * adding nobody): the parent's map itself, its table shared */
    if (n == parent->size && mp->kind == AVRM_MODE_OFFSET && mp->off == 0 &&
        takes_parent_form(parent, s->compact)) {
        avrm_map_dup(ctx, parent, out);
        return AVRM_OK;
    }
    /* step 2 */
    if (mp->kind != AVRM_PAT_IRREG) {
        if (compose(parent, mp, n, &p) && pat_to_map(ctx, &p, parent->pgid, n, &m))
            return finish(ctx, AVRM_OK, &m, out);
        if (mp->kind == AVRM_MODE_OFFSET &&
            (parent->mode == AVRM_MODE_LUT || parent->mode == AVRM_MODE_LUT16 ||
             parent->mode == AVRM_MODE_MLUT || parent->mode == AVRM_MODE_MLUT32) &&
            build_slice(ctx, parent, (uint32_t) mp->off, n, &m))
            return finish(ctx, AVRM_OK, &m, out);
    }
    /* step 3 */
    return finish(ctx, build_general(ctx, s, n, &m), &m, out);
}

avrm_status_t avrm_map_build_affine(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                                    int64_t first, int64_t stride, uint32_t n,
                                    avrm_rankmap_t *out)
{
    if (!ctx || !parent || !out || n == 0 || parent->size == 0) return AVRM_ERR_ARG;
    if (n > AVRM_MAX_WORLD) return AVRM_ERR_LIMIT;
    if (n == 1) stride = 1;
    if (stride < -(int64_t) AVRM_MAX_WORLD || stride > (int64_t) AVRM_MAX_WORLD)
        return AVRM_ERR_ARG;
    int64_t last = first + (int64_t) (n - 1) * stride;      /* |stride|, n <= 2^24: no overflow */
    if (first < 0 || first >= parent->size || last < 0 || last >= parent->size)
        return AVRM_ERR_ARG;
    /* the builders' pattern of this mapping (avrm_det_result's form) */
    avrm_pat_t mp = { .kind = AVRM_PAT_IRREG };
    if (ctx->params.enable_patterns)
        mp = (avrm_pat_t) { .kind = stride == 1 ? AVRM_MODE_OFFSET : AVRM_MODE_STRIDE,
                            .off = first, .stride = stride };
    seq_t s = { .ctx = ctx, .parent = parent, .aff_first = first, .aff_stride = stride };
    return build_mapped(ctx, parent, &mp, &s, n, out);
}

avrm_status_t avrm_map_build_compact(avrm_ctx_t *ctx, const avrm_rankmap_t *parent,
                                     const int32_t *mapping, uint32_t n, avrm_rankmap_t *out)
{
    return build_one(ctx, parent, mapping, n, 1, out);
}

avrm_status_t avrm_map_build_multi(avrm_ctx_t *ctx, const avrm_rankmap_t *const *parents,
                                   uint32_t nparents, const avrm_src_t *src, uint32_t n,
                                   avrm_rankmap_t *out)
{
    return build_multi(ctx, parents, nparents, src, n, 0, out);
}

avrm_status_t avrm_map_build_multi_compact(avrm_ctx_t *ctx, const avrm_rankmap_t *const *parents,
                                           uint32_t nparents, const avrm_src_t *src, uint32_t n,
                                           avrm_rankmap_t *out)
{
    return build_multi(ctx, parents, nparents, src, n, 1, out);
}

static avrm_status_t build_multi(avrm_ctx_t *ctx, const avrm_rankmap_t *const *parents,
                                 uint32_t nparents, const avrm_src_t *src, uint32_t n,
                                 int compact, avrm_rankmap_t *out)
{
    if (!ctx || !parents || !src || !out || n == 0 || nparents == 0) return AVRM_ERR_ARG;
    if (n > AVRM_MAX_WORLD) return AVRM_ERR_LIMIT;
    for (uint32_t k = 0; k < nparents; k++)
        if (!parents[k]) return AVRM_ERR_ARG;
    const avrm_rankmap_t *p0 = parents[src[0].parent < nparents ? src[0].parent : 0];
    int identity = n == p0->size && takes_parent_form(p0, compact);
    for (uint32_t i = 0; i < n; i++) {
        if (src[i].parent >= nparents || (uint32_t) src[i].rank >= parents[src[i].parent]->size)
            return AVRM_ERR_ARG;
        identity = identity && src[i].parent == src[0].parent && src[i].rank == (int32_t) i;
    }
    if (identity) {     /* one parent's every rank in order: that map itself */
        avrm_map_dup(ctx, p0, out);
        return AVRM_OK;
    }
    avrm_rankmap_t m;
    seq_t s = { .ctx = ctx, .parents = parents, .src = src, .compact = compact };
    return finish(ctx, build_general(ctx, &s, n, &m), &m, out);
}

avrm_status_t avrm_map_build_gpids(avrm_ctx_t *ctx, const avrm_gpid_t *gpids, uint32_t n,
                                   avrm_rankmap_t *out)
{
    if (!ctx || !gpids || !out || n == 0) return AVRM_ERR_ARG;
    if (n > AVRM_MAX_WORLD) return AVRM_ERR_LIMIT;
    for (uint32_t i = 0; i < n; i++)
        if (gpids[i].pgid >= ctx->navs || !ctx->avs[gpids[i].pgid] ||
            gpids[i].lpid >= ctx->avs[gpids[i].pgid]->size)
            return AVRM_ERR_ARG;
    avrm_rankmap_t m;
    seq_t s = { .ctx = ctx, .gpids = gpids };
    return finish(ctx, build_general(ctx, &s, n, &m), &m, out);
}

int avrm_map_formula(const avrm_rankmap_t *m, avrm_formula_t *f)
{
    if (!m || !f || m->size == 0 || avrm_map_is_multi(m)) return 0;
    switch ((avrm_mode_t) m->mode) {
    case AVRM_MODE_DIRECT:
    case AVRM_MODE_OFFSET:
    case AVRM_MODE_STRIDE:
    case AVRM_MODE_BLOCK:
        *f = (avrm_formula_t) {
            .offset = m->mode == AVRM_MODE_DIRECT ? 0 : m->u.reg.offset,
            .stride = m->mode < AVRM_MODE_STRIDE ? 1 : m->u.reg.stride,
            .bs = m->mode == AVRM_MODE_BLOCK ? m->u.reg.bs : 1,
            .size = m->size,
        };
        return 1;
    default:
        return 0;
    }
}

avrm_status_t avrm_map_build_formula(avrm_ctx_t *ctx, avrm_pgid_t pgid, const avrm_formula_t *f,
                                     avrm_rankmap_t *out)
{
    if (!ctx || !f || !out || pgid >= ctx->navs || !ctx->avs[pgid] || f->size == 0 || f->bs == 0)
        return AVRM_ERR_ARG;
    if (f->size > AVRM_MAX_WORLD) return AVRM_ERR_LIMIT;
    /* a stride map of one process at every rank (blocks may overlap where
     * the last is short: ranks 2 3 1 are blocks of 2, -1 apart) */
    if (f->bs == 1 && f->stride == 0 && f->size > 1)
        return AVRM_ERR_ARG;
    /* the mode the builders give these ranks: one block or blocks that
     * touch are an offset run, blocks of one a stride */
    uint32_t bs = f->bs < f->size ? f->bs : f->size;
    int64_t stride = bs == f->size ? 0 : f->stride;
    avrm_pat_t p = { .kind = AVRM_MODE_BLOCK, .off = f->offset, .stride = stride, .bs = bs };
    if (bs == f->size || stride == (int64_t) bs)
        p = (avrm_pat_t) { .kind = AVRM_MODE_OFFSET, .off = f->offset, .stride = 1 };
    else if (bs == 1)
        p = (avrm_pat_t) { .kind = stride == 1 ? AVRM_MODE_OFFSET : AVRM_MODE_STRIDE,
                           .off = f->offset, .stride = stride };
    /* every lpid inside the AV: the extremes lie at the ends of the first
     * and the last block (blocks ascend inside, move by stride) */
    uint32_t nblk = (f->size - 1) / bs;         /* index of the last block */
    int64_t last0 = (int64_t) f->offset + (int64_t) nblk * stride;
    int64_t lo = last0 < f->offset ? last0 : f->offset;
    int64_t hi_first = (int64_t) f->offset + bs - 1;
    int64_t hi_last = last0 + (int64_t) (f->size - 1 - (uint64_t) nblk * bs);
    int64_t hi = hi_first > hi_last ? hi_first : hi_last;
    if (lo < 0 || hi >= (int64_t) ctx->avs[pgid]->size) return AVRM_ERR_ARG;
    if (p.kind == AVRM_MODE_OFFSET && p.off == 0)
        p.kind = AVRM_MODE_DIRECT;
    avrm_rankmap_t m;
    if (!pat_to_map(ctx, &p, pgid, f->size, &m)) return AVRM_ERR_ARG;
    return finish(ctx, AVRM_OK, &m, out);
}
