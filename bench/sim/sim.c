/*
 * sim.c - communicator creation as MPI defines it, replayed for one process.
 * See sim.h. Internal comms follow MPICH 4.0.2 (MPIR_Comm_commit ->
 * MPIR_Comm_create_subcomms): every committed intracommunicator except the
 * internal ones gets, unless one of its members is a dynamic process (no
 * node id) or every member is on a node of its own,
 *   - a node comm (my node's ranks in comm rank order) when my node holds
 *     more than one of its ranks, also when the comm lies on one node;
 *   - a node-roots comm (lowest comm rank of each node, in comm rank order)
 *     when I am my node's root, also when that comm has one rank.
 * An intercomm gets its local comm (map dup of the local group, committed
 * like an intracomm) when it is first used as the parent of a dup, split or
 * merge (MPII_Setup_intercomm_localcomm), not at creation.
 * Each such committed intracommunicator also gets its node hierarchy
 * (build_hier), dynamic members or not, as MPIR_Comm_commit builds it.
 * MPI_COMM_SELF is built at init from the world map (one rank: me).
 * Spawn: see sim.h; the AVs of dynamic groups are reference counted by the
 * maps that use them (MPIDIU_map_ref_groups), as in MPICH's glue.
 */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

static void make_local(sim_t *s, sim_comm_t *c);   /* the local comm of an intercomm */

uint64_t sim_rand(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) { fprintf(stderr, "sim: out of memory (%zu bytes)\n", n); exit(2); }
    return p;
}

static sim_gp_t *gp_new(uint32_t n, uint32_t *v, uint16_t pgid)
{
    sim_gp_t *g = xmalloc(sizeof *g);
    g->n = n; g->refs = 1; g->v = v; g->pgid = pgid;
    return g;
}
static sim_gp_t *gp_ref(sim_gp_t *g) { if (g) g->refs++; return g; }
void sim_gp_unref(sim_gp_t *g)
{
    if (g && --g->refs == 0) { free(g->v); free(g); }
}
/* packed gpids as an array (temporary copy for identity groups) */
static const uint32_t *gp_array(const sim_gp_t *g, uint32_t **tmp)
{
    *tmp = NULL;
    if (g->v) return g->v;
    uint32_t *a = xmalloc((size_t) g->n * 4);
    for (uint32_t i = 0; i < g->n; i++) a[i] = SIM_PACK(g->pgid, i);
    *tmp = a;
    return a;
}

static sim_comm_t *comm_new(sim_t *s)
{
    sim_comm_t *c = calloc(1, sizeof *c);
    if (!c) { fprintf(stderr, "sim: out of memory\n"); exit(2); }
    c->next = s->all;
    s->all = c;
    s->ncomms++;
    return c;
}

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* one event to every back end; out[i] receives back end i's handle */
static void emit(sim_t *s, void **out, int kind, void **const *ph, uint32_t np,
                 const int32_t *mapping, const sim_src_t *src, const uint32_t *gp,
                 uint32_t n, uint16_t pgid)
{
    for (int i = 0; i < s->nb; i++) {
        void *par[4];
        for (uint32_t k = 0; k < np; k++) par[k] = ph[k][i];
        sim_ev_t ev = { .kind = kind, .parents = par, .nparents = np, .mapping = mapping,
                        .src = src, .gp = gp, .n = n, .pgid = pgid };
        sim_backend_t *b = s->b[i];
        if (s->timing) {
            double t0 = cpu_ns();
            out[i] = b->map(b, &ev);
            b->map_ns += cpu_ns() - t0 - s->clock_ns;
            b->map_calls++;
            if (kind == SIM_EV_DUP || kind == SIM_EV_GROUP || kind == SIM_EV_COMM_GROUP)
                b->dup_calls++;
            else b->map_ranks += n;
        } else {
            out[i] = b->map(b, &ev);
        }
        if (!out[i]) {
            fprintf(stderr, "sim: back end %s failed on event kind %d (n=%u)\n",
                    s->b[i]->name, kind, n);
            s->err = 1;
        }
    }
}

static void build_internal(sim_t *s, sim_comm_t *c, const sim_comm_t *dup_of);

/* dynamic groups used by packed gpids v[0..n) */
static uint8_t dyn_mask(const uint32_t *v, uint32_t n)
{
    uint8_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (SIM_PGID(v[i])) m |= (uint8_t) (1u << (SIM_PGID(v[i]) - 1));
    return m;
}

/* a map using the dynamic groups of m is made (add) or released: the last
 * release of a group destroys its AV in every back end */
static void dyn_ref(sim_t *s, uint8_t m, int add)
{
    for (uint32_t g = 1; g < SIM_MAXG; g++) {
        if (!(m >> (g - 1) & 1)) continue;
        if (add) { s->dynrefs[g]++; continue; }
        if (--s->dynrefs[g]) continue;
        for (int i = 0; i < s->nb; i++)
            if (s->b[i]->av_destroy) s->b[i]->av_destroy(s->b[i], (uint16_t) g, s->gsize[g]);
        s->gsize[g] = 0;
    }
}

/* child of intracomm-side (h/gp) with mapping; internal comms are not
 * committed further */
static sim_comm_t *child_build(sim_t *s, void **ph, const sim_gp_t *pgp, const int32_t *mapping,
                               uint32_t n, uint32_t myrank_in_parent, int internal)
{
    sim_comm_t *c = comm_new(s);
    uint32_t *v = xmalloc((size_t) n * 4);
    c->rank = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        v[i] = sim_gp_at(pgp, (uint32_t) mapping[i]);
        if ((uint32_t) mapping[i] == myrank_in_parent) c->rank = i;
    }
    c->size = n;
    c->gp = gp_new(n, v, 0);
    c->dyn = dyn_mask(v, n);
    void **par[1] = { ph };
    emit(s, c->h, SIM_EV_BUILD, par, 1, mapping, NULL, v, n, 0);
    dyn_ref(s, c->dyn, 1);
    if (!internal) build_internal(s, c, NULL);
    else sim_forget(c);
    return c;
}

typedef struct node_arg { const sim_t *s; const sim_gp_t *gp; } node_arg_t;

static int32_t gp_node_of(void *arg, uint32_t r)
{
    const node_arg_t *a = arg;
    uint32_t g = sim_gp_at(a->gp, r);
    return SIM_PGID(g) ? -1 : (int32_t) sim_node_of(a->s, g);
}

/* s->seen, the node bitmap: mark node nd (returns whether it was marked),
 * and clear it again after a scan */
static int seen_test_set(sim_t *s, uint32_t nd)
{
    int was = (int) (s->seen[nd >> 6] >> (nd & 63) & 1);
    s->seen[nd >> 6] |= 1ull << (nd & 63);
    return was;
}

static void seen_clear(sim_t *s, uint32_t nd)
{
    s->seen[nd >> 6] &= ~(1ull << (nd & 63));
}

/* the node hierarchy MPIR_Comm_commit gives c: its placement, then every
 * back end's hier(), or its hier_dup() of the parent's when c is a dup
 * (dup_of). Returns 0 when a member has no node (a dynamic process), 1
 * otherwise. */
static int build_hier(sim_t *s, sim_comm_t *c, const sim_comm_t *dup_of)
{
    node_arg_t a = { s, c->gp };
    sim_hier_ev_t ev = { .n = c->size, .my_rank = c->rank, .max_nodes = s->nnodes,
                         .node_of = gp_node_of, .arg = &a, .consecutive = 1, .balanced = 1 };
    uint32_t prev = UINT32_MAX, run = 0, run0 = 0, r;
    for (r = 0; r < c->size; r++) {
        int32_t nd = gp_node_of(&a, r);
        if (nd < 0) { ev.unknown = 1; break; }
        int fresh = !seen_test_set(s, (uint32_t) nd);
        ev.nnodes += (uint32_t) fresh;
        if ((uint32_t) nd != prev) {
            if (!fresh) ev.consecutive = 0;
            if (prev != UINT32_MAX && run0 == 0) run0 = run;
            else if (prev != UINT32_MAX && run != run0) ev.balanced = 0;
            run = 0;
            prev = (uint32_t) nd;
        }
        run++;
    }
    if (run0 && run != run0) ev.balanced = 0;
    for (uint32_t k = 0; k < r; k++)             /* clear what the scan set */
        seen_clear(s, (uint32_t) gp_node_of(&a, k));
    if (ev.unknown) ev.nnodes = 0;
    for (int i = 0; i < s->nb; i++) {
        sim_backend_t *b = s->b[i];
        if (!b->hier) continue;
        c->hh[i] = dup_of && dup_of->hh[i] && b->hier_dup ? b->hier_dup(b, dup_of->hh[i])
            : b->hier(b, &ev);
        if (!c->hh[i]) {
            fprintf(stderr, "sim: back end %s failed on a node hierarchy (n=%u)\n", b->name, ev.n);
            s->err = 1;
        }
    }
    return !ev.unknown;
}

static void build_internal(sim_t *s, sim_comm_t *c, const sim_comm_t *dup_of)
{
    if (!s->internal || c->inter) return;
    if (!c->gp) { fprintf(stderr, "sim: internal comms of a forgotten comm\n"); s->err = 1; return; }
    if (!build_hier(s, c, dup_of)) return;             /* a dynamic process: no node ids */
    uint32_t n = c->size, nloc = 0, nroots = 0;
    uint32_t mynode = sim_node_of(s, SIM_PACK(0, s->me));
    int32_t *loc = xmalloc((size_t) (n < 4096 ? n : 4096) * 4);   /* grows below */
    uint32_t loccap = n < 4096 ? n : 4096;
    int32_t *roots = xmalloc((size_t) n * 4);
    for (uint32_t r = 0; r < n; r++) {
        uint32_t nd = sim_node_of(s, sim_gp_at(c->gp, r));
        if (!seen_test_set(s, nd))
            roots[nroots++] = (int32_t) r;
        if (nd == mynode) {
            if (nloc == loccap) { loccap *= 2; loc = realloc(loc, (size_t) loccap * 4); if (!loc) exit(2); }
            loc[nloc++] = (int32_t) r;
        }
    }
    for (uint32_t i = 0; i < nroots; i++)
        seen_clear(s, sim_node_of(s, sim_gp_at(c->gp, (uint32_t) roots[i])));
    if (nroots < n) {             /* else every rank is on a node of its own */
        if (nloc > 1)
            c->node = child_build(s, c->h, c->gp, loc, nloc, c->rank, 1);
        if ((uint32_t) loc[0] == c->rank)
            c->roots = child_build(s, c->h, c->gp, roots, nroots, c->rank, 1);
    }
    free(loc);
    free(roots);
}

int sim_init(sim_t *s, uint32_t N, uint32_t P, uint32_t me, sim_backend_t **b, int nb)
{
    return sim_init_ex(s, N, P, 0, 0, me, b, nb);
}

int sim_init_ex(sim_t *s, uint32_t N, uint32_t P, uint32_t rr, int timing, uint32_t me,
                sim_backend_t **b, int nb)
{
    memset(s, 0, sizeof *s);
    s->N = N; s->P = P; s->rr = rr; s->me = me; s->nb = nb; s->internal = 1;
    s->timing = timing;
    for (int i = 0; i < nb; i++) s->b[i] = b[i];
    s->gsize[0] = N; s->ngroups = 1;
    s->nnodes = rr ? rr : (N + P - 1) / P;
    s->seen = calloc(s->nnodes / 64 + 1, 8);
    if (!s->seen) return -1;
    if (timing) {       /* cost of a clock read pair, best of 1000 */
        double best = 1e30;
        for (int k = 0; k < 1000; k++) {
            double t0 = cpu_ns(), t1 = cpu_ns();
            if (t1 - t0 < best) best = t1 - t0;
        }
        s->clock_ns = best;
    }
    for (int i = 0; i < nb; i++)
        if (b[i]->av_create(b[i], s, 0, N)) { fprintf(stderr, "sim: %s av_create failed\n", b[i]->name); return -1; }
    sim_comm_t *w = comm_new(s);
    w->size = N; w->rank = me;
    w->gp = gp_new(N, NULL, 0);
    emit(s, w->h, SIM_EV_GROUP, NULL, 0, NULL, NULL, NULL, N, 0);
    build_internal(s, w, NULL);
    s->world = w;
    int32_t myrank = (int32_t) me;
    s->self = child_build(s, w->h, w->gp, &myrank, 1, me, 0);
    sim_forget(s->self);
    return s->err ? -1 : 0;
}

static void release_maps(sim_t *s, sim_comm_t *c)
{
    if (s->nb && c->h[0]) dyn_ref(s, c->dyn, 0);
    if (s->nb && c->rh[0]) dyn_ref(s, c->rdyn, 0);
    for (int i = 0; i < s->nb; i++) {
        if (c->h[i]) s->b[i]->release(s->b[i], c->h[i]);
        if (c->rh[i]) s->b[i]->release(s->b[i], c->rh[i]);
        if (c->gh[i]) s->b[i]->release(s->b[i], c->gh[i]);
        if (c->hh[i]) s->b[i]->hier_release(s->b[i], c->hh[i]);
        c->h[i] = c->rh[i] = c->gh[i] = c->hh[i] = NULL;
    }
    sim_forget(c);
}

void sim_free(sim_t *s, sim_comm_t *c)
{
    if (!c) return;
    if (c->node) sim_free(s, c->node);
    if (c->roots) sim_free(s, c->roots);
    if (c->local) sim_free(s, c->local);
    c->node = c->roots = c->local = NULL;
    release_maps(s, c);
}

void sim_contact(sim_t *s, uint32_t lpid)
{
    for (int i = 0; i < s->nb; i++)
        if (s->b[i]->contact) s->b[i]->contact(s->b[i], lpid);
}

void sim_fini(sim_t *s)
{
    /* newest first, so children go before the tables they slice */
    for (sim_comm_t *c = s->all, *nx; c; c = nx) {
        nx = c->next;
        release_maps(s, c);
        free(c);
    }
    s->all = NULL;
    free(s->seen);
    s->seen = NULL;
}

void sim_forget(sim_comm_t *c)
{
    sim_gp_unref(c->gp);
    sim_gp_unref(c->rgp);
    c->gp = c->rgp = NULL;
}

/* the local comm of intercomm c, made on first use (MPII_Setup_intercomm_localcomm) */
static void need_local(sim_t *s, sim_comm_t *c)
{
    if (c->inter && !c->local) make_local(s, c);
}

sim_comm_t *sim_dup(sim_t *s, sim_comm_t *p)
{
    need_local(s, p);
    sim_comm_t *c = comm_new(s);
    c->size = p->size; c->rank = p->rank; c->inter = p->inter; c->rsize = p->rsize;
    c->gp = gp_ref(p->gp);
    c->rgp = gp_ref(p->rgp);
    c->dyn = p->dyn;
    void **par[1] = { p->h };
    emit(s, c->h, SIM_EV_DUP, par, 1, NULL, NULL, NULL, p->size, 0);
    dyn_ref(s, c->dyn, 1);
    if (p->inter) {
        c->rdyn = p->rdyn;
        void **rpar[1] = { p->rh };
        emit(s, c->rh, SIM_EV_DUP, rpar, 1, NULL, NULL, NULL, p->rsize, 0);
        dyn_ref(s, c->rdyn, 1);
    } else {
        build_internal(s, c, p);
    }
    return c;
}

/* stable sort of (key, rank) pairs by key; ranks ascend within a key */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y ? -1 : x > y;
}
static void sort_by_key(int32_t *rk, int32_t *key, uint32_t n)
{
    int sorted = 1;
    int32_t kmin = key[0], kmax = key[0];
    for (uint32_t i = 1; i < n; i++) {
        if (key[i] < key[i - 1]) sorted = 0;
        if (key[i] < kmin) kmin = key[i];
        if (key[i] > kmax) kmax = key[i];
    }
    if (sorted) return;
    uint64_t range = (uint64_t) ((int64_t) kmax - kmin) + 1;
    if (range <= 4ull * n + 16) {            /* counting sort: stable */
        uint32_t *cnt = calloc(range + 1, 4);
        int32_t *out = xmalloc((size_t) n * 4);
        for (uint32_t i = 0; i < n; i++) cnt[key[i] - kmin + 1]++;
        for (uint64_t k = 1; k <= range; k++) cnt[k] += cnt[k - 1];
        for (uint32_t i = 0; i < n; i++) out[cnt[key[i] - kmin]++] = rk[i];
        memcpy(rk, out, (size_t) n * 4);
        free(out); free(cnt);
    } else {
        uint64_t *kv = xmalloc((size_t) n * 8);
        for (uint32_t i = 0; i < n; i++)
            kv[i] = (uint64_t) ((int64_t) key[i] - INT32_MIN) << 32 | (uint32_t) rk[i];
        qsort(kv, n, 8, cmp_u64);
        for (uint32_t i = 0; i < n; i++) rk[i] = (int32_t) (uint32_t) kv[i];
        free(kv);
    }
}

/* members of colour `want` of a split of side (gp), sorted as MPI says */
static int32_t *split_members(const sim_gp_t *gp, sim_fn_t color, sim_fn_t key, void *arg,
                              int32_t want, uint32_t *nout)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < gp->n; r++)
        if (color(arg, r, sim_gp_at(gp, r)) == want) n++;
    if (!n) { *nout = 0; return NULL; }
    int32_t *rk = xmalloc((size_t) n * 4), *ky = key ? xmalloc((size_t) n * 4) : NULL;
    uint32_t j = 0;
    for (uint32_t r = 0; r < gp->n; r++) {
        uint32_t g = sim_gp_at(gp, r);
        if (color(arg, r, g) == want) {
            rk[j] = (int32_t) r;
            if (ky) ky[j] = key(arg, r, g);
            j++;
        }
    }
    if (ky) { sort_by_key(rk, ky, n); free(ky); }
    *nout = n;
    return rk;
}

sim_comm_t *sim_split(sim_t *s, sim_comm_t *c, sim_fn_t color, sim_fn_t key, void *arg)
{
    int32_t my = color(arg, c->rank, sim_gp_at(c->gp, c->rank));
    if (my == SIM_UNDEF) return NULL;
    uint32_t n;
    int32_t *m = split_members(c->gp, color, key, arg, my, &n);
    sim_comm_t *r = child_build(s, c->h, c->gp, m, n, c->rank, 0);
    free(m);
    return r;
}

sim_gp_t *sim_split_group(sim_t *s, sim_comm_t *c, sim_fn_t color, sim_fn_t key, void *arg, int32_t want)
{
    (void) s;
    uint32_t n;
    int32_t *m = split_members(c->gp, color, key, arg, want, &n);
    if (!m) return NULL;
    uint32_t *v = xmalloc((size_t) n * 4);
    for (uint32_t i = 0; i < n; i++) v[i] = sim_gp_at(c->gp, (uint32_t) m[i]);
    free(m);
    return gp_new(n, v, 0);
}

static sim_comm_t *create_from(sim_t *s, sim_comm_t *c, const int32_t *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if ((uint32_t) m[i] == c->rank) return child_build(s, c->h, c->gp, m, n, c->rank, 0);
    return NULL;
}

void sim_comm_group(sim_t *s, sim_comm_t *c)
{
    if (!s->nb || c->gh[0]) return;
    void **par[1] = { c->h };
    emit(s, c->gh, SIM_EV_COMM_GROUP, par, 1, NULL, NULL, c->gp ? c->gp->v : NULL, c->size, 0);
}

sim_comm_t *sim_group_incl(sim_t *s, sim_comm_t *c, const int32_t *ranks, uint32_t n)
{
    sim_comm_t *g = comm_new(s);
    s->ncomms--;                                   /* a group, not a communicator */
    uint32_t *v = xmalloc((size_t) n * 4);
    g->rank = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        v[i] = sim_gp_at(c->gp, (uint32_t) ranks[i]);
        if ((uint32_t) ranks[i] == c->rank) g->rank = i;
    }
    g->size = n;
    g->gp = gp_new(n, v, 0);
    g->dyn = dyn_mask(v, n);                       /* a group's map holds its AVs too */
    void **par[1] = { c->h };
    emit(s, g->h, SIM_EV_GROUP_BUILD, par, 1, ranks, NULL, v, n, 0);
    dyn_ref(s, g->dyn, 1);
    return g;
}

sim_comm_t *sim_incl(sim_t *s, sim_comm_t *c, const int32_t *ranks, uint32_t n)
{
    return create_from(s, c, ranks, n);
}

sim_comm_t *sim_excl(sim_t *s, sim_comm_t *c, const int32_t *ranks, uint32_t n)
{
    uint8_t *out = calloc(c->size, 1);
    for (uint32_t i = 0; i < n; i++) out[ranks[i]] = 1;
    int32_t *m = xmalloc((size_t) c->size * 4);
    uint32_t k = 0;
    for (uint32_t r = 0; r < c->size; r++) if (!out[r]) m[k++] = (int32_t) r;
    sim_comm_t *r = k ? create_from(s, c, m, k) : NULL;
    free(m); free(out);
    return r;
}

sim_comm_t *sim_range_incl(sim_t *s, sim_comm_t *c, const int32_t (*rg)[3], uint32_t n)
{
    uint64_t tot = 0;
    for (uint32_t i = 0; i < n; i++) tot += (uint64_t) ((rg[i][1] - rg[i][0]) / rg[i][2]) + 1;
    int32_t *m = xmalloc(tot * 4);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int32_t r = rg[i][0]; rg[i][2] > 0 ? r <= rg[i][1] : r >= rg[i][1]; r += rg[i][2])
            m[k++] = r;
    sim_comm_t *r = create_from(s, c, m, k);
    free(m);
    return r;
}

/* MPI_Dims_create: balanced factorization, non-increasing */
void sim_dims_create(uint32_t n, int nd, uint32_t *dims)
{
    for (int i = 0; i < nd; i++) dims[i] = 1;
    uint32_t f[64]; int nf = 0;
    for (uint32_t p = 2; (uint64_t) p * p <= n; p++)
        while (n % p == 0) { f[nf++] = p; n /= p; }
    if (n > 1) f[nf++] = n;
    for (int i = nf - 1; i >= 0; i--) {          /* largest factor to smallest dim */
        int j = 0;
        for (int k = 1; k < nd; k++) if (dims[k] < dims[j]) j = k;
        dims[j] *= f[i];
    }
    for (int i = 0; i < nd; i++)                 /* sort non-increasing */
        for (int k = i + 1; k < nd; k++)
            if (dims[k] > dims[i]) { uint32_t t = dims[i]; dims[i] = dims[k]; dims[k] = t; }
}

static int32_t key_rand(void *arg, uint32_t r, uint32_t g)
{
    (void) g;
    const int32_t *perm = arg;
    return perm[r];
}
static int32_t col0(void *a, uint32_t r, uint32_t g) { (void) a; (void) r; (void) g; return 0; }

sim_comm_t *sim_cart_create(sim_t *s, sim_comm_t *c, int nd, const uint32_t *dims, int reorder, uint64_t seed)
{
    uint64_t size = 1;
    for (int i = 0; i < nd; i++) size *= dims[i];
    if (size > c->size) return NULL;
    if (reorder) {   /* a topology-mapped order: random permutation */
        int32_t *perm = xmalloc((size_t) c->size * 4);
        for (uint32_t i = 0; i < c->size; i++) perm[i] = (int32_t) i;
        for (uint32_t i = c->size - 1; i > 0; i--) {
            uint32_t j = (uint32_t) (sim_rand(&seed) % (i + 1));
            int32_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        }
        sim_comm_t *r = sim_split(s, c, col0, key_rand, perm);
        free(perm);
        return r;
    }
    if (size == c->size) return sim_dup(s, c);     /* MPII_Comm_copy: map dup */
    int32_t rg[1][3] = { { 0, (int32_t) size - 1, 1 } };
    return sim_range_incl(s, c, rg, 1);
}

struct cart_arg { int nd; const uint32_t *dims; const int *remain; };
static int32_t cart_color(void *a, uint32_t r, uint32_t g)
{
    (void) g;
    const struct cart_arg *ca = a;
    int64_t color = 0, mul = 1;
    for (int d = ca->nd - 1; d >= 0; d--) {
        uint32_t co = r % ca->dims[d];
        r /= ca->dims[d];
        if (!ca->remain[d]) { color += co * mul; mul *= ca->dims[d]; }
    }
    return (int32_t) color;
}
static int32_t key_rank(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return (int32_t) r; }

sim_comm_t *sim_cart_sub(sim_t *s, sim_comm_t *cart, int nd, const uint32_t *dims, const int *remain)
{
    struct cart_arg ca = { nd, dims, remain };
    return sim_split(s, cart, cart_color, key_rank, &ca);
}

static void make_local(sim_t *s, sim_comm_t *c)
{
    if (!s->internal) return;
    sim_comm_t *l = comm_new(s);
    l->size = c->size; l->rank = c->rank; l->gp = gp_ref(c->gp);
    l->dyn = c->dyn;
    void **lp[1] = { c->h };
    emit(s, l->h, SIM_EV_DUP, lp, 1, NULL, NULL, NULL, c->size, 0);
    dyn_ref(s, l->dyn, 1);
    build_internal(s, l, NULL);
    sim_forget(l);
    c->local = l;
}

sim_comm_t *sim_intercomm_create(sim_t *s, sim_comm_t *local, sim_gp_t *remote)
{
    sim_comm_t *c = comm_new(s);
    c->inter = 1;
    c->size = local->size; c->rank = local->rank;
    c->gp = gp_ref(local->gp);
    c->rsize = remote->n;
    c->rgp = gp_ref(remote);
    c->dyn = local->dyn;
    void **par[1] = { local->h };
    emit(s, c->h, SIM_EV_DUP, par, 1, NULL, NULL, NULL, c->size, 0);
    dyn_ref(s, c->dyn, 1);
    uint32_t *tmp;
    const uint32_t *rv = gp_array(remote, &tmp);
    c->rdyn = dyn_mask(rv, remote->n);
    emit(s, c->rh, SIM_EV_GPIDS, NULL, 0, NULL, NULL, rv, remote->n, 0);
    dyn_ref(s, c->rdyn, 1);
    free(tmp);
    return c;
}

struct ic_arg { sim_fn_t f; void *arg; };
sim_comm_t *sim_inter_split(sim_t *s, sim_comm_t *ic, sim_fn_t lcolor, sim_fn_t rcolor, void *arg)
{
    need_local(s, ic);
    int32_t my = lcolor(arg, ic->rank, sim_gp_at(ic->gp, ic->rank));
    if (my == SIM_UNDEF) return NULL;
    uint32_t nl, nr;
    int32_t *ml = split_members(ic->gp, lcolor, key_rank, arg, my, &nl);
    int32_t *mr = split_members(ic->rgp, rcolor, key_rank, arg, my, &nr);
    if (!nr) { free(ml); return NULL; }
    sim_comm_t *c = comm_new(s);
    c->inter = 1;
    uint32_t *lv = xmalloc((size_t) nl * 4), *rv = xmalloc((size_t) nr * 4);
    for (uint32_t i = 0; i < nl; i++) {
        lv[i] = sim_gp_at(ic->gp, (uint32_t) ml[i]);
        if ((uint32_t) ml[i] == ic->rank) c->rank = i;
    }
    for (uint32_t i = 0; i < nr; i++) rv[i] = sim_gp_at(ic->rgp, (uint32_t) mr[i]);
    c->size = nl; c->rsize = nr;
    c->gp = gp_new(nl, lv, 0);
    c->rgp = gp_new(nr, rv, 0);
    c->dyn = dyn_mask(lv, nl);
    c->rdyn = dyn_mask(rv, nr);
    void **lp[1] = { ic->h }, **rp[1] = { ic->rh };
    emit(s, c->h, SIM_EV_BUILD, lp, 1, ml, NULL, lv, nl, 0);
    emit(s, c->rh, SIM_EV_BUILD, rp, 1, mr, NULL, rv, nr, 0);
    dyn_ref(s, c->dyn, 1);
    dyn_ref(s, c->rdyn, 1);
    free(ml); free(mr);
    return c;
}

sim_comm_t *sim_inter_merge(sim_t *s, sim_comm_t *ic, int high)
{
    need_local(s, ic);
    uint32_t n = ic->size + ic->rsize;
    sim_src_t *src = xmalloc((size_t) n * sizeof *src);
    uint32_t *v = xmalloc((size_t) n * 4);
    uint32_t k = 0;
    sim_comm_t *c = comm_new(s);
    for (int part = 0; part < 2; part++) {
        int loc = (part == 0) != (high != 0);     /* low group first */
        const sim_gp_t *g = loc ? ic->gp : ic->rgp;
        if (loc) c->rank = k + ic->rank;
        for (uint32_t i = 0; i < g->n; i++, k++) {
            src[k].parent = loc ? 0 : 1;
            src[k].rank = (int32_t) i;
            v[k] = sim_gp_at(g, i);
        }
    }
    c->size = n;
    c->gp = gp_new(n, v, 0);
    c->dyn = dyn_mask(v, n);
    void **par[2] = { ic->h, ic->rh };
    /* MPIR_Intercomm_merge_impl first commits a temporary intracomm (a
     * subcomm context id: no internal comms) to agree on the context id,
     * releases it, then builds the real one */
    void *tmp[SIM_MAXB];
    emit(s, tmp, SIM_EV_MULTI, par, 2, NULL, src, v, n, 0);
    dyn_ref(s, c->dyn, 1);
    for (int i = 0; i < s->nb; i++) if (tmp[i]) s->b[i]->release(s->b[i], tmp[i]);
    dyn_ref(s, c->dyn, 0);
    emit(s, c->h, SIM_EV_MULTI, par, 2, NULL, src, v, n, 0);
    dyn_ref(s, c->dyn, 1);
    free(src);
    build_internal(s, c, NULL);
    return c;
}

static int av_create_all(sim_t *s, uint16_t pgid, uint32_t size)
{
    s->gsize[pgid] = size;
    for (int i = 0; i < s->nb; i++)
        if (s->b[i]->av_create(s->b[i], s, pgid, size)) { s->err = 1; return -1; }
    return 0;
}

sim_comm_t *sim_spawn(sim_t *s, uint32_t M)
{
    int root = s->me == 0;
    s->ngroups = root && M > 1 ? 3 : 2;
    uint32_t *v = xmalloc((size_t) M * 4);
    sim_comm_t *peer = NULL;
    if (root) {
        /* dynamic_intercomm_create: the children's root address in an AV
         * of its own, a peer intercomm (self <-> it), then
         * MPIDI_OFI_upids_to_gpids finds that address and puts the others
         * in a new AV */
        if (av_create_all(s, 1, 1)) { free(v); return NULL; }
        peer = comm_new(s);
        peer->inter = 1;
        peer->size = peer->rsize = 1;
        peer->rdyn = 1;
        void **par[1] = { s->self->h };
        emit(s, peer->h, SIM_EV_DUP, par, 1, NULL, NULL, NULL, 1, 0);
        uint32_t rg = SIM_PACK(1, 0);
        emit(s, peer->rh, SIM_EV_GPIDS, NULL, 0, NULL, NULL, &rg, 1, 0);
        dyn_ref(s, peer->rdyn, 1);
        if (M > 1 && av_create_all(s, 2, M - 1)) { free(v); return NULL; }
        for (uint32_t i = 0; i < M; i++) v[i] = i ? SIM_PACK(2, i - 1) : SIM_PACK(1, 0);
    } else {
        if (av_create_all(s, 1, M)) { free(v); return NULL; }
        for (uint32_t i = 0; i < M; i++) v[i] = SIM_PACK(1, i);
    }
    sim_gp_t *g = gp_new(M, v, 1);
    sim_comm_t *ic = sim_intercomm_create(s, s->world, g);
    sim_gp_unref(g);
    if (peer) sim_free(s, peer);
    return ic;
}
