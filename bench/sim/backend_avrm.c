/* backend_avrm.c - the simulator's back end for our libavrm. */
#include "backend_avrm.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct ost {
    avrm_ctx_t *ctx;
    int computed;
    int ondemand;              /* the world AV sparse, peers set at contact */
    uint64_t next_addr;        /* ondemand: FI_AV_TABLE index of the next insert */
    uint64_t resolved;         /* ondemand: peers resolved at first contact */
    int wide;                  /* no mlut32: dynamic groups at pgid 255 + g */
    double wide_meta;          /* AV slots that adds, left out of the report */
    uint32_t narrow_navs;      /* ctx->navs had every group kept its own pgid */
    avrm_hier_t world_hier;    /* the process's node map (MPIR_Process.node_hier):
                                * built without the context, as MPICH does */
    char name[64];
} ost_t;

static int32_t world_node_of(void *arg, uint32_t r)
{
    return (int32_t) sim_node_of(arg, SIM_PACK(0, r));
}

/* the libavrm pgid of simulator group g */
static avrm_pgid_t pg_of(const ost_t *s, uint32_t g)
{
    return (avrm_pgid_t) (s->wide && g ? g + AVRM_MLUT32_MAX_PGS - 1 : g);
}

/* slots of ctx->avs after creating pgid pg when it has navs (avrm_av.c's
 * growth rule: pgid + 1, at least double) */
static uint32_t slots_after(uint32_t navs, uint32_t pg)
{
    if (pg < navs) return navs;
    return pg + 1 > 2 * navs ? pg + 1 : 2 * navs;
}

/* bytes a growth from navs0 to navs adds (avrm_av.c: a new array of navs
 * slots and its link to the retired one; none without growth) */
static double growth_bytes(uint32_t navs0, uint32_t navs)
{
    return navs == navs0 ? 0 : ((double) navs + 1) * sizeof(avrm_av_t *);
}

static int av_create(sim_backend_t *b, const sim_t *sm, uint16_t pgid, uint32_t size)
{
    ost_t *s = b->st;
    avrm_av_params_t ap;
    memset(&ap, 0, sizeof ap);
    ap.size = size;
    ap.pgid = pg_of(s, pgid);
    uint32_t navs0 = s->ctx->navs;
    uint32_t *list = NULL;
    if (pgid == 0) {
        /* the world's node map, then (computed AV) my node's members from
         * it, as MPICH's MPIR_pmi_init and glue make them */
        if (avrm_hier_build(NULL, size, sm->me, sm->nnodes, world_node_of, (void *) sm,
                            &s->world_hier) != AVRM_OK) return -1;
        if (s->computed) {
            ap.computed = 1;
            uint32_t len = avrm_locality_list_len(&s->world_hier);
            if (len && !(list = malloc((size_t) len * sizeof *list))) return -1;
            avrm_locality_of_hier(&s->world_hier, list, &ap.local);
        }
    }
    avrm_av_t *av;
    avrm_status_t st = avrm_av_create(s->ctx, &ap, &av);
    free(list);
    if (st != AVRM_OK) { fprintf(stderr, "avrm_av_create: %d\n", st); return -1; }
    /* slots beyond those pgid itself would have added */
    uint32_t narrow = slots_after(s->narrow_navs, pgid);
    s->wide_meta += growth_bytes(navs0, s->ctx->navs) - growth_bytes(s->narrow_navs, narrow);
    s->narrow_navs = narrow;
    if (av->entries) {
        /* synthetic FI_AV_TABLE addresses: world first, then later groups */
        uint64_t base = pgid == 0 ? 0 : sm->gsize[0];
        for (uint32_t l = 0; l < size; l++) {
            int loc = pgid == 0 && avrm_hier_intranode(&s->world_hier, l) >= 0;
            if (avrm_av_set(av, l, base + l, loc) != AVRM_OK) return -1;
        }
    }
    if (pgid == 0 && s->ondemand) {
        /* on-demand addressing at MPI_Init (MPIDIU_avt_world_pending, then
         * this process inserted first: address 0, local) */
        if (avrm_av_make_sparse(s->ctx, av) != AVRM_OK ||
            avrm_av_set(av, sm->me, 0, 1) != AVRM_OK) return -1;
        s->next_addr = 1;
    }
    return 0;
}

/* first contact (ofi_ondemand_resolve.c): a world peer on another node gets
 * the next AV index; a node-local one goes through shared memory and stays
 * pending */
static void contact(sim_backend_t *b, uint32_t lpid)
{
    ost_t *s = b->st;
    avrm_av_t *av = avrm_ctx_av(s->ctx, 0);
    avrm_ave_t w = avrm_av_ave(av, lpid);
    if (avrm_ave_is_pending(w) && !(w & AVRM_AVE_LOCAL) &&
        avrm_av_set(av, lpid, s->next_addr, 0) == AVRM_OK)
        s->next_addr++, s->resolved++;
}

static void av_destroy(sim_backend_t *b, uint16_t pgid, uint32_t size)
{
    (void) size;
    ost_t *s = b->st;
    avrm_av_destroy(s->ctx, pg_of(s, pgid));
}

static void *map(sim_backend_t *b, const sim_ev_t *ev)
{
    ost_t *s = b->st;
    avrm_rankmap_t *m = malloc(sizeof *m);
    if (!m) return NULL;
    avrm_status_t st = AVRM_OK;
    switch (ev->kind) {
    case SIM_EV_GROUP:
        st = avrm_map_init_group(s->ctx, pg_of(s, ev->pgid), m);
        break;
    case SIM_EV_DUP:
    case SIM_EV_COMM_GROUP:     /* ours: the group shares the comm's map */
        avrm_map_dup(s->ctx, ev->parents[0], m);
        break;
    case SIM_EV_BUILD:
        st = avrm_map_build(s->ctx, ev->parents[0], ev->mapping, ev->n, m);
        break;
    case SIM_EV_GROUP_BUILD:    /* ours: groups take the compact builder */
        st = avrm_map_build_compact(s->ctx, ev->parents[0], ev->mapping, ev->n, m);
        break;
    case SIM_EV_MULTI: {
        _Static_assert(sizeof(sim_src_t) == sizeof(avrm_src_t), "same layout");
        const avrm_rankmap_t *par[4];
        for (uint32_t i = 0; i < ev->nparents; i++) par[i] = ev->parents[i];
        st = avrm_map_build_multi(s->ctx, par, ev->nparents, (const avrm_src_t *) ev->src, ev->n, m);
        break;
    }
    case SIM_EV_GPIDS: {
        avrm_gpid_t *g = malloc((size_t) ev->n * sizeof *g);
        if (!g) { free(m); return NULL; }
        for (uint32_t i = 0; i < ev->n; i++) {
            g[i].lpid = SIM_LPID(ev->gp[i]);
            g[i].pgid = pg_of(s, SIM_PGID(ev->gp[i]));
            g[i].reserved = 0;
        }
        st = avrm_map_build_gpids(s->ctx, g, ev->n, m);
        free(g);
        break;
    }
    }
    if (st != AVRM_OK) { free(m); return NULL; }
    return m;
}

/* a committed intracommunicator's hierarchy, accounted in the context
 * (stats.hier_bytes), as MPIR_Find_hierarchy builds it */
static void *hier(sim_backend_t *b, const sim_hier_ev_t *ev)
{
    ost_t *s = b->st;
    avrm_hier_t *h = malloc(sizeof *h);
    if (!h) return NULL;
    if (avrm_hier_build(s->ctx, ev->n, ev->my_rank, ev->max_nodes, ev->node_of, ev->arg, h) !=
        AVRM_OK) {
        free(h);
        return NULL;
    }
    return h;
}

/* a dup's: the parent's words shared (avrm_hier_dup), nothing counted again */
static void *hier_dup(sim_backend_t *b, void *parent)
{
    (void) b;
    avrm_hier_t *h = malloc(sizeof *h);
    if (h) avrm_hier_dup(parent, h);
    return h;
}

static void hier_release(sim_backend_t *b, void *h)
{
    ost_t *s = b->st;
    avrm_hier_release(s->ctx, h);
    free(h);
}

static void release(sim_backend_t *b, void *h)
{
    ost_t *s = b->st;
    avrm_map_release(s->ctx, h);
    free(h);
}

static void report(sim_backend_t *b, sim_mem_t *o)
{
    ost_t *s = b->st;
    avrm_stats_t st;
    avrm_ctx_stats(s->ctx, &st);
    memset(o, 0, sizeof *o);
    o->av_entries = (double) st.av_entry_bytes;
    o->meta = (double) st.av_meta_bytes + (double) st.index_bytes - s->wide_meta;
    o->maps = (double) st.map_bytes;
    o->tables = (double) st.table_bytes;
    o->shared_avoided = (double) st.table_shared_bytes;
    o->total = o->av_entries + o->meta + o->maps + o->tables;
    o->hier = (double) st.hier_bytes;
    o->node_map = (double) avrm_hier_bytes(&s->world_hier);
    o->library = o->total + o->hier + o->node_map;
    o->resolved = (double) s->resolved;
}

static void destroy(sim_backend_t *b)
{
    ost_t *s = b->st;
    avrm_hier_release(NULL, &s->world_hier);
    avrm_ctx_destroy(s->ctx);
    free(s);
    free(b);
}

void avrm_bench_mode_counts(sim_backend_t *b, size_t counts[AVRM_MODE_COUNT])
{
    ost_t *s = b->st;
    avrm_stats_t st;
    avrm_ctx_stats(s->ctx, &st);
    memcpy(counts, st.nmaps, sizeof st.nmaps);
}

void avrm_bench_stats(sim_backend_t *b, avrm_stats_t *st)
{
    ost_t *s = b->st;
    avrm_ctx_stats(s->ctx, st);
}

size_t avrm_bench_node_map_bytes(sim_backend_t *b)
{
    ost_t *s = b->st;
    return avrm_hier_bytes(&s->world_hier);
}

static sim_backend_t *make(const avrm_params_t *p, int computed, int wide, int ondemand,
                           const char *nm)
{
    sim_backend_t *b = calloc(1, sizeof *b);
    ost_t *s = calloc(1, sizeof *s);
    if (!b || !s) { free(b); free(s); return NULL; }
    if (avrm_ctx_create(p, &s->ctx) != AVRM_OK) { free(b); free(s); return NULL; }
    s->computed = computed;
    s->wide = wide;
    s->ondemand = ondemand;
    snprintf(s->name, sizeof s->name, "%s", nm);
    b->name = s->name;
    b->label = "OURS";
    b->st = s;
    b->av_create = av_create;
    b->av_destroy = av_destroy;
    b->map = map;
    b->release = release;
    b->report = report;
    b->destroy = destroy;
    b->hier = hier;
    b->hier_dup = hier_dup;
    b->hier_release = hier_release;
    b->contact = ondemand ? contact : NULL;
    return b;
}

sim_backend_t *avrm_backend_ablate(unsigned off)
{
    static const char *const fname[] = { "except", "grid", "lut16", "mseg", "mlut32", "share", "ilut" };
    avrm_params_t p = avrm_params_default();
    if (off & FEAT_EXCEPT) p.enable_except = 0;
    if (off & FEAT_GRID) p.enable_grid = 0;
    if (off & FEAT_LUT16) p.enable_lut16 = 0;
    if (off & FEAT_MSEG) p.enable_mseg = 0;
    if (off & FEAT_SHARE) p.share_by_content = 0;
    if (off & FEAT_ILUT) p.enable_ilut = 0;
    p.computed_av = 0;
    char nm[64] = "ours-paper-modes";
    if ((off & FEAT_ALL) != FEAT_ALL) {
        size_t o = (size_t) snprintf(nm, sizeof nm, "ours");
        for (int k = 0; k < 7; k++)
            if (off & (1u << k)) o += (size_t) snprintf(nm + o, sizeof nm - o, "-no%s", fname[k]);
    }
    return make(&p, 0, (off & FEAT_MLUT32) != 0, 0, nm);
}

sim_backend_t *avrm_backend_new(int variant)
{
    if (variant == OURS_PAPER) return avrm_backend_ablate(FEAT_ALL);
    if (variant == OURS_NOSHARE) return avrm_backend_ablate(FEAT_SHARE);
    avrm_params_t p = avrm_params_default();
    if (variant == OURS_COMPUTED) p.computed_av = 1;
    if (variant == OURS_ONDEMAND) return make(&p, 0, 0, 1, "ours-ondemand");
    return make(&p, variant == OURS_COMPUTED, 0, 0,
                variant == OURS_COMPUTED ? "ours-computed" : "ours-stored");
}
