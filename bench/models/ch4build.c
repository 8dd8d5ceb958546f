/* ch4build.c - see ch4build.h. MODEL code: no MPICH or libavrm code. */
#include "ch4build.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

enum { CB_DIRECT, CB_OFFSET, CB_STRIDE, CB_BLOCK, CB_LUT, CB_MLUT };
enum { DET_DIRECT, DET_OFFSET, DET_STRIDE, DET_IRREG };

typedef struct cb_gpid { int avtid, lpid; } cb_gpid_t;
typedef struct cb_tbl {     /* refcounted LUT/MLUT: an 8-byte header, then the entries */
    int refs, n;
    union { int lpid[1]; cb_gpid_t gpid[1]; } u;
} cb_tbl_t;
#define TBL_HDR 8

typedef struct cb_map {     /* 40 bytes in stock (MPIDI_rank_map_t); a struct here */
    int mode, avtid, size;
    int off, stride, bs;    /* lpid = off + (r / bs) * stride + r % bs; bs 1: off + r * stride */
    cb_tbl_t *t;            /* LUT/MLUT; lpid/gpid may point inside (slice) */
    const int *lpid;
    const cb_gpid_t *gpid;
} cb_map_t;

typedef struct cb_st {
    double tables, nmaps;
} cb_st_t;

static cb_tbl_t *tbl_new(cb_st_t *s, int n, size_t elem)
{
    cb_tbl_t *t = malloc(TBL_HDR + (size_t) (n ? n : 1) * elem);
    if (!t) { fprintf(stderr, "ch4build: out of memory\n"); exit(2); }
    t->refs = 1;
    t->n = n;
    s->tables += TBL_HDR + (double) n * (double) elem;
    return t;
}
static void tbl_unref(cb_st_t *s, cb_tbl_t *t, size_t elem)
{
    if (t && --t->refs == 0) {
        s->tables -= TBL_HDR + (double) t->n * (double) elem;
        free(t);
    }
}
static void map_drop(cb_st_t *s, cb_map_t *m)
{
    if (m->mode == CB_LUT) tbl_unref(s, m->t, sizeof(int));
    else if (m->mode == CB_MLUT) tbl_unref(s, m->t, sizeof(cb_gpid_t));
    m->t = NULL;
}

/* out[i] = lpid of parent rank mp[i] (mp NULL: rank r0 + i), one loop per
 * parent mode as in stock (the switch is outside the loop) */
static void fill_lpids(const cb_map_t *p, const int32_t *mp, int r0, int n, int *out)
{
#define LOOP(expr) do { for (int i = 0; i < n; i++) { int r = mp ? mp[i] : r0 + i; out[i] = (expr); } } while (0)
    switch (p->mode) {
    case CB_DIRECT: LOOP(r); break;
    case CB_OFFSET: LOOP(r + p->off); break;
    case CB_STRIDE: LOOP(p->off + r * p->stride); break;
    case CB_BLOCK:  LOOP(p->off + r / p->bs * (p->stride - p->bs) + r); break;
    case CB_LUT:    LOOP(p->lpid[r]); break;
    default:        LOOP(p->gpid[r].lpid); break;
    }
#undef LOOP
}

/* out[i] = gpid of parent rank r0 + i, one loop per parent mode */
static void fill_gpids(const cb_map_t *p, int r0, int n, cb_gpid_t *out)
{
#define LOOP(expr) do { for (int i = 0; i < n; i++) { int r = r0 + i; out[i].avtid = p->avtid; out[i].lpid = (expr); } } while (0)
    switch (p->mode) {
    case CB_DIRECT: LOOP(r); break;
    case CB_OFFSET: LOOP(r + p->off); break;
    case CB_STRIDE: LOOP(p->off + r * p->stride); break;
    case CB_BLOCK:  LOOP(p->off + r / p->bs * (p->stride - p->bs) + r); break;
    case CB_LUT:    LOOP(p->lpid[r]); break;
    default:        for (int i = 0; i < n; i++) out[i] = p->gpid[r0 + i]; break;
    }
#undef LOOP
}

/* offset / stride / block detection of a to-lpid array (leading run, then
 * a fixed stride between runs of that length) */
static int detect(const int *a, int n, int *off, int *bs, int *st)
{
    if (n == 0) return DET_DIRECT;
    int o = a[0], b = 0;
    while (b < n && a[b] == o + b) b++;
    if (b == n) { *off = o; return o == 0 ? DET_DIRECT : DET_OFFSET; }
    int s = a[b] - a[0];
    if (s < 0 || s <= b) return DET_IRREG;
    for (int i = b; i < n; i++)
        if (a[i] != o + i / b * (s - b) + i) return DET_IRREG;
    *off = o; *bs = b; *st = s;
    return DET_STRIDE;
}

static void to_lut(cb_st_t *s, const cb_map_t *p, const int32_t *mp, int n, cb_map_t *d)
{
    cb_tbl_t *t = tbl_new(s, n, sizeof(int));
    fill_lpids(p, mp, 0, n, t->u.lpid);
    d->mode = CB_LUT; d->avtid = p->avtid; d->size = n;
    d->t = t; d->lpid = t->u.lpid;
}
static void mlut_to_mlut(cb_st_t *s, const cb_map_t *p, const int32_t *mp, int n, cb_map_t *d)
{
    cb_tbl_t *t = tbl_new(s, n, sizeof(cb_gpid_t));
    for (int i = 0; i < n; i++) t->u.gpid[i] = p->gpid[mp[i]];
    d->mode = CB_MLUT; d->avtid = -1; d->size = n;
    d->t = t; d->gpid = t->u.gpid;
}
static void ref_of(const cb_map_t *p, int n, cb_map_t *d)
{
    *d = *p;
    d->size = n;
    if (d->t) d->t->refs++;
}

/* one irregular mapper over parent p */
static void build_one(cb_st_t *s, const cb_map_t *p, const int32_t *mp, int n, cb_map_t *d)
{
    int off = 0, bs = 1, st = 1;
    switch (detect(mp, n, &off, &bs, &st)) {
    case DET_DIRECT:
        ref_of(p, n, d);
        return;
    case DET_OFFSET:
        if (p->mode == CB_DIRECT || p->mode == CB_OFFSET) {
            *d = *p; d->mode = CB_OFFSET; d->size = n; d->off = p->off + off;
        } else if (p->mode == CB_STRIDE) {
            *d = *p; d->size = n; d->off = p->off + off * p->stride;
        } else if (p->mode == CB_BLOCK) {
            to_lut(s, p, mp, n, d);
        } else {                            /* slice of a LUT/MLUT */
            ref_of(p, n, d);
            if (p->mode == CB_LUT) d->lpid = p->lpid + off;
            else d->gpid = p->gpid + off;
        }
        return;
    case DET_STRIDE:
        if (p->mode == CB_DIRECT || p->mode == CB_OFFSET) {
            *d = *p; d->size = n;
            d->mode = bs == 1 ? CB_STRIDE : CB_BLOCK;
            d->off = off + p->off; d->stride = st; d->bs = bs;
        } else if (p->mode == CB_STRIDE && bs == 1) {
            *d = *p; d->size = n;
            d->stride = p->stride * st; d->off = p->stride * off + p->off;
        } else if (p->mode == CB_MLUT) {
            mlut_to_mlut(s, p, mp, n, d);
        } else {
            to_lut(s, p, mp, n, d);
        }
        return;
    default:
        if (p->mode == CB_MLUT) mlut_to_mlut(s, p, mp, n, d);
        else to_lut(s, p, mp, n, d);
    }
}

/* the checks every build ends with: an MLUT of one group becomes a LUT,
 * a regular LUT becomes a regular map */
static void finish(cb_st_t *s, cb_map_t *d)
{
    if (d->mode == CB_MLUT) {
        int a = d->gpid[0].avtid, i = 1;
        while (i < d->size && d->gpid[i].avtid == a) i++;
        if (i == d->size) {
            cb_tbl_t *t = tbl_new(s, d->size, sizeof(int));
            for (i = 0; i < d->size; i++) t->u.lpid[i] = d->gpid[i].lpid;
            map_drop(s, d);
            d->mode = CB_LUT; d->avtid = a; d->t = t; d->lpid = t->u.lpid;
        }
    }
    if (d->mode == CB_LUT) {
        int off = 0, bs = 1, st = 1;
        int k = detect(d->lpid, d->size, &off, &bs, &st);
        if (k != DET_IRREG) {
            map_drop(s, d);
            d->mode = k == DET_DIRECT ? CB_DIRECT : k == DET_OFFSET ? CB_OFFSET
                    : bs == 1 ? CB_STRIDE : CB_BLOCK;
            d->off = off; d->stride = st; d->bs = bs;
        }
    }
}

static void *map(sim_backend_t *b, const sim_ev_t *ev)
{
    cb_st_t *s = b->st;
    cb_map_t *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    const cb_map_t *p = ev->nparents ? ev->parents[0] : NULL;
    int n = (int) ev->n;
    s->nmaps++;
    switch (ev->kind) {
    case SIM_EV_GROUP:
        d->mode = CB_DIRECT; d->avtid = ev->pgid; d->size = n;
        return d;
    case SIM_EV_DUP:
    case SIM_EV_COMM_GROUP:     /* build time: stock's group fill is not modeled */
        ref_of(p, n, d);
        return d;
    case SIM_EV_BUILD:
    case SIM_EV_GROUP_BUILD:    /* stock fills a group by the same loop */
        build_one(s, p, ev->mapping, n, d);
        break;
    case SIM_EV_MULTI: {                    /* merge: each parent's ranks (one run each) into one MLUT */
        cb_tbl_t *t = tbl_new(s, n, sizeof(cb_gpid_t));
        for (int i = 0, j; i < n; i = j) {
            for (j = i + 1; j < n && ev->src[j].parent == ev->src[i].parent &&
                 ev->src[j].rank == ev->src[j - 1].rank + 1; j++)
                ;
            fill_gpids(ev->parents[ev->src[i].parent], ev->src[i].rank, j - i, t->u.gpid + i);
        }
        d->mode = CB_MLUT; d->avtid = -1; d->size = n; d->t = t; d->gpid = t->u.gpid;
        break;
    }
    case SIM_EV_GPIDS: {                    /* MPID_Create_intercomm_from_lpids */
        cb_tbl_t *t = tbl_new(s, n, sizeof(cb_gpid_t));
        for (int i = 0; i < n; i++) {
            t->u.gpid[i].avtid = (int) SIM_PGID(ev->gp[i]);
            t->u.gpid[i].lpid = (int) SIM_LPID(ev->gp[i]);
        }
        d->mode = CB_MLUT; d->avtid = -1; d->size = n; d->t = t; d->gpid = t->u.gpid;
        break;
    }
    }
    finish(s, d);
    return d;
}

static void release(sim_backend_t *b, void *h)
{
    cb_st_t *s = b->st;
    map_drop(s, h);
    s->nmaps--;
    free(h);
}

static int av_create(sim_backend_t *b, const sim_t *sm, uint16_t pgid, uint32_t size)
{
    (void) b; (void) sm; (void) pgid; (void) size;   /* build time only: no AV */
    return 0;
}

static void report(sim_backend_t *b, sim_mem_t *o)
{
    cb_st_t *s = b->st;
    memset(o, 0, sizeof *o);
    o->maps = 40 * s->nmaps;
    o->tables = s->tables;
    o->total = o->maps + o->tables;
}

static void destroy(sim_backend_t *b)
{
    free(b->st);
    free(b);
}

sim_backend_t *ch4build_backend_new(void)
{
    sim_backend_t *b = calloc(1, sizeof *b);
    cb_st_t *s = calloc(1, sizeof *s);
    if (!b || !s) exit(2);
    b->name = "MODEL-ch4-4.0.2-builder";
    b->label = "MODEL";
    b->st = s;
    b->av_create = av_create;
    b->map = map;
    b->release = release;
    b->report = report;
    b->destroy = destroy;
    return b;
}
