/* models.c - see models.h. MODEL code: no libavrm code is used here. */
#include "models.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef struct mcfg {
    const char *name;
    double entry_b, map_b, hdr_b, lut_b, mlut_b;
    double group_b;  /* bytes per member of an MPI group (MPIR_Group's member array) */
    int detect;      /* 0 none, 1 ch4 (offset/stride/block), 2 main (const stride on 64-bit lpid) */
    int slices;
    double node_b;   /* bytes per peer of the process's node map and shm local ranks */
    int canonical;   /* communicators' node tables (8 B per member) freed when
                      * the placement is canonical (main's rule) */
} mcfg_t;

static const mcfg_t cfgs[] = {
    /* groups: lrank_to_lpid {uint64 lpid; int next} = 16 B per member in 3.2
     * and 4.0.2; main keeps one stride or an 8 B per member lpid map */
    /* node maps: 3.2 keeps a peer's node id in its VC (counted in the 480 B)
     * and nemesis's local_ranks (4 B per peer); 4.0.2 and main node_map and
     * the POSIX module's local_ranks (4 + 4 B per peer). Communicators:
     * MPIR_Comm_commit keeps intranode_table and internode_table (4 + 4 B
     * per member) of every intracommunicator whose members all have a node;
     * main frees them for a canonical placement (one node, one rank per
     * node, or node-consecutive with the same count on every node). */
    [MODEL_VC]   = { "MODEL-vc-vcrt-3.2", 480, 8, 16, 4, 4, 16, 0, 0, 4, 0 },
    [MODEL_CH4]  = { "MODEL-ch4-4.0.2",    72, 40, 16, 4, 8, 16, 1, 1, 8, 0 },
    [MODEL_MAIN] = { "MODEL-mpich-main",   32, 24, 16, 8, 8, 8, 2, 0, 8, 1 },
};

typedef struct mh {          /* one map */
    int32_t tbl;             /* -1: regular (no table) */
    uint8_t multi;           /* table holds (pgid,lpid) */
    uint8_t owner;           /* 0: shares tbl with another map */
    uint8_t group;           /* an MPI group: not counted as a map */
    double bytes;            /* table bytes this map uses (owned or shared) */
} mh_t;

typedef struct mst {
    const mcfg_t *c;
    double entries, tables, shared, nmaps;
    double hier, node_map;
    uint32_t *refs;          /* per table id */
    double *tbytes;
    uint32_t ntbl, cap, live_tbl;
} mst_t;

static int32_t tbl_new(mst_t *s, double bytes)
{
    if (s->ntbl == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->refs = realloc(s->refs, s->cap * sizeof *s->refs);
        s->tbytes = realloc(s->tbytes, s->cap * sizeof *s->tbytes);
        if (!s->refs || !s->tbytes) exit(2);
    }
    s->refs[s->ntbl] = 1;
    s->tbytes[s->ntbl] = bytes;
    s->tables += bytes;
    s->live_tbl++;
    return (int32_t) s->ntbl++;
}

static int av_create(sim_backend_t *b, const sim_t *sm, uint16_t pgid, uint32_t size)
{
    (void) sm;
    mst_t *s = b->st;
    s->entries += s->c->entry_b * size;
    if (pgid == 0)
        s->node_map = s->c->node_b * size;
    return 0;
}

static void av_destroy(sim_backend_t *b, uint16_t pgid, uint32_t size)
{
    (void) pgid;
    mst_t *s = b->st;
    s->entries -= s->c->entry_b * size;
}

static int single_group(const uint32_t *gp, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) if (SIM_PGID(gp[i]) != SIM_PGID(gp[0])) return 0;
    return 1;
}

/* CH4's MPIDI_detect_regular_model on the final LUT: offset, stride, stride-block */
static int ch4_regular(const uint32_t *gp, uint32_t n)
{
    if (!single_group(gp, n)) return 0;
    if (n <= 2) return 1;
    int64_t st = (int64_t) gp[1] - gp[0];
    uint32_t i;
    for (i = 2; i < n; i++) if ((int64_t) gp[i] - gp[i - 1] != st) break;
    if (i == n) return st != 0;
    /* stride-block: runs of bs consecutive, runs start every `stride` */
    uint32_t bs = 1;
    while (bs < n && gp[bs] == gp[0] + bs) bs++;
    if (bs == 1 || bs == n) return 0;
    int64_t stride = (int64_t) gp[bs] - gp[0];
    for (i = 0; i < n; i++)
        if ((int64_t) gp[i] != (int64_t) gp[0] + (int64_t) (i / bs) * stride + i % bs) return 0;
    return 1;
}

/* MPICH main: MPIR_Lpid is 64-bit (world index in the high bits); one stride */
static int main_regular(const uint32_t *gp, uint32_t n)
{
    if (n <= 2) return 1;
    int64_t a = (int64_t) SIM_PGID(gp[0]) << 32 | SIM_LPID(gp[0]);
    int64_t b2 = (int64_t) SIM_PGID(gp[1]) << 32 | SIM_LPID(gp[1]);
    int64_t st = b2 - a, prev = b2;
    for (uint32_t i = 2; i < n; i++) {
        int64_t v = (int64_t) SIM_PGID(gp[i]) << 32 | SIM_LPID(gp[i]);
        if (v - prev != st) return 0;
        prev = v;
    }
    return 1;
}

static void share(mst_t *s, mh_t *h, const mh_t *from, double bytes)
{
    h->tbl = from->tbl;
    h->multi = from->multi;
    h->owner = 0;
    h->bytes = bytes;
    s->refs[from->tbl]++;
    s->shared += bytes;
}

static void *map(sim_backend_t *b, const sim_ev_t *ev)
{
    mst_t *s = b->st;
    const mcfg_t *c = s->c;
    mh_t *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->tbl = -1;
    s->nmaps++;
    const mh_t *par = ev->nparents ? ev->parents[0] : NULL;
    switch (ev->kind) {
    case SIM_EV_GROUP:
        if (c->detect == 0) { h->tbl = tbl_new(s, c->lut_b * ev->n); h->owner = 1; h->bytes = c->lut_b * ev->n; }
        return h;
    case SIM_EV_DUP:
        if (par->tbl >= 0) share(s, h, par, par->bytes);
        return h;
    case SIM_EV_COMM_GROUP:                 /* its own member array (gp NULL: identity) */
    case SIM_EV_GROUP_BUILD: {
        h->group = 1;
        s->nmaps--;
        int regular = !ev->gp || main_regular(ev->gp, ev->n);
        double bytes = c->detect == 2 && regular ? 0 : c->group_b * ev->n;
        if (bytes > 0) { h->tbl = tbl_new(s, bytes); h->owner = 1; h->bytes = bytes; }
        return h;
    }
    default:
        break;
    }
    const uint32_t *gp = ev->gp;
    uint32_t n = ev->n;
    int multi = !single_group(gp, n);
    if ((c->detect == 1 && ch4_regular(gp, n)) || (c->detect == 2 && main_regular(gp, n)))
        return h;
    double bytes = (multi ? c->mlut_b : c->lut_b) * n;
    if (c->slices && ev->kind == SIM_EV_BUILD && par->tbl >= 0 && (par->multi == multi)) {
        uint32_t i;
        for (i = 1; i < n; i++) if (ev->mapping[i] != ev->mapping[0] + (int32_t) i) break;
        if (i == n) { share(s, h, par, bytes); return h; }
    }
    h->tbl = tbl_new(s, bytes);
    h->owner = 1;
    h->multi = (uint8_t) multi;
    h->bytes = bytes;
    return h;
}

static void release(sim_backend_t *b, void *hv)
{
    mst_t *s = b->st;
    mh_t *h = hv;
    if (!h->group) s->nmaps--;
    if (h->tbl >= 0) {
        if (!h->owner) s->shared -= h->bytes;
        if (--s->refs[h->tbl] == 0) { s->tables -= s->tbytes[h->tbl]; s->live_tbl--; }
    }
    free(h);
}

/* a handle holding the table bytes of one communicator's hierarchy */
static void *hier(sim_backend_t *b, const sim_hier_ev_t *ev)
{
    mst_t *s = b->st;
    double *h = malloc(sizeof *h);
    if (!h) return NULL;
    int canonical = ev->nnodes == 1 || ev->nnodes == ev->n || (ev->consecutive && ev->balanced);
    *h = ev->unknown || (s->c->canonical && canonical) ? 0 : 8.0 * ev->n;
    s->hier += *h;
    return h;
}

static void hier_release(sim_backend_t *b, void *h)
{
    mst_t *s = b->st;
    s->hier -= *(double *) h;
    free(h);
}

static void report(sim_backend_t *b, sim_mem_t *o)
{
    mst_t *s = b->st;
    memset(o, 0, sizeof *o);
    o->av_entries = s->entries;
    o->maps = s->nmaps * s->c->map_b;
    o->meta = s->live_tbl * s->c->hdr_b;
    o->tables = s->tables;
    o->shared_avoided = s->shared;
    o->total = o->av_entries + o->maps + o->meta + o->tables;
    o->hier = s->hier;
    o->node_map = s->node_map;
    o->library = o->total + o->hier + o->node_map;
}

static void destroy(sim_backend_t *b)
{
    mst_t *s = b->st;
    free(s->refs); free(s->tbytes); free(s); free(b);
}

sim_backend_t *model_backend_new(int kind)
{
    sim_backend_t *b = calloc(1, sizeof *b);
    mst_t *s = calloc(1, sizeof *s);
    if (!b || !s) exit(2);
    s->c = &cfgs[kind];
    b->name = s->c->name;
    b->label = "MODEL";
    b->st = s;
    b->av_create = av_create;
    b->av_destroy = av_destroy;
    b->map = map;
    b->release = release;
    b->report = report;
    b->destroy = destroy;
    b->hier = hier;
    b->hier_release = hier_release;
    return b;
}
