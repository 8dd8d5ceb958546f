/*
 * predict.c - bench-predict: the simulator's prediction of libavrm's
 * accounting (the values of MPICH's MPI_T pvars avrm_*_bytes, the node
 * hierarchies and the world's node map included, and
 * avrm_maps_by_mode) on every rank of a small world, for the scenario list
 * of test/simcheck/pvars.c. test/simcheck/run.sh runs both and compares
 * them byte for byte.
 *
 *   bench-predict -n N [-P ppn | -r nodes] [-c] [-s scen,...]
 *     -P ppn    ppn consecutive world ranks per node (N: all local; 1:
 *               MPIR_CVAR_NOLOCAL; N/2: 2 cliques by block)
 *     -r nodes  round-robin over `nodes` nodes (MPIR_CVAR_NUM_CLIQUES)
 *     -c        the world AV computed (MPIR_CVAR_AVRM_COMPUTED_AV=1)
 *     -o        on-demand addressing (tcp;ofi_rxm): the world AV sparse
 *
 * Output, one line per scenario, phase and rank, as pvars.c prints it:
 *   SCEN[-freed] RANK av_entry av_meta map table table_shared index hier node_map MODES
 * (MODES: mode:count,... of the live maps, "-" when none). Each scenario
 * creates its communicators, prints, frees them (reverse order) and
 * prints again ("-freed"); the next scenario starts from that state, in
 * one simulated process per rank (me = RANK), as in one MPI job.
 *
 * The two files describe the same scenarios twice, in MPI calls and in
 * simulator calls: a change to one must be made to the other.
 */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "backend_avrm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/namelist.h"

#define MAXC 16
typedef struct run { sim_t *s; sim_comm_t *c[MAXC]; int nc; } run_t;

static void keep(run_t *r, sim_comm_t *c) { if (c) r->c[r->nc++] = c; }

static int32_t parity(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return (int32_t) (r & 1); }
static int32_t key_rank(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return (int32_t) r; }
static int32_t zero(void *a, uint32_t r, uint32_t g) { (void) a; (void) r; (void) g; return 0; }
static int32_t from_array(void *a, uint32_t r, uint32_t g) { (void) g; return ((const int32_t *) a)[r]; }
static int32_t not_zero(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return r != 0; }
struct two { const int32_t *col, *key; };
static int32_t two_col(void *a, uint32_t r, uint32_t g) { (void) g; return ((struct two *) a)->col[r]; }
static int32_t two_key(void *a, uint32_t r, uint32_t g) { (void) g; return ((struct two *) a)->key[r]; }

static void shuffle(int32_t *p, uint32_t n, uint64_t seed)
{
    for (uint32_t i = 0; i < n; i++) p[i] = (int32_t) i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t) (sim_rand(&seed) % (i + 1));
        int32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

/* ---- the scenarios (mirror of test/simcheck/pvars.c) ---- */
static void sc_init(run_t *r) { (void) r; }

static void sc_split(run_t *r)
{
    for (int k = 0; k < 4; k++) keep(r, sim_split(r->s, r->s->world, parity, key_rank, NULL));
}

static void sc_dup(run_t *r)
{
    for (int k = 0; k < 4; k++) keep(r, sim_dup(r->s, r->s->world));
}

static void sc_reorder(run_t *r)
{
    int32_t perm[1024];
    for (int k = 0; k < 4; k++) {
        shuffle(perm, r->s->N, 1000 + (uint64_t) k);
        keep(r, sim_split(r->s, r->s->world, zero, from_array, perm));
    }
}

static void sc_incl(run_t *r)
{
    int32_t perm[1024];
    shuffle(perm, r->s->N, 3000);
    sim_comm_group(r->s, r->s->world);     /* MPI_Comm_group(world): cached in it */
    sim_comm_t *g = sim_group_incl(r->s, r->s->world, perm, r->s->N / 2);
    for (int k = 0; k < 3; k++) keep(r, sim_incl(r->s, r->s->world, perm, r->s->N / 2));
    /* MPI_Group_free(g): a member's comms keep it (their local_group) */
    if (g->rank != UINT32_MAX) keep(r, g);
    else sim_free(r->s, g);
}

static void sc_colsplit(run_t *r)
{
    int32_t col[1024], key[1024];
    uint64_t seed = 4000;
    for (uint32_t i = 0; i < r->s->N; i++) col[i] = (int32_t) (sim_rand(&seed) & 1);
    shuffle(key, r->s->N, 4001);
    struct two a = { col, key };
    for (int k = 0; k < 3; k++) keep(r, sim_split(r->s, r->s->world, two_col, two_key, &a));
}

static void sc_inter(run_t *r)
{
    sim_t *s = r->s;
    sim_comm_t *a = sim_split(s, s->world, parity, key_rank, NULL);
    keep(r, a);
    sim_gp_t *rg = sim_split_group(s, s->world, parity, key_rank, NULL, (int32_t) ((s->me & 1) ^ 1));
    sim_comm_t *ic = sim_intercomm_create(s, a, rg);
    sim_gp_unref(rg);
    keep(r, ic);
    for (int k = 0; k < 2; k++) keep(r, sim_inter_split(s, ic, parity, parity, NULL));
    for (int k = 0; k < 2; k++) keep(r, sim_dup(s, ic));
    keep(r, sim_inter_merge(s, ic, (int) (s->me & 1)));
}

static void sc_cart(run_t *r)
{
    sim_t *s = r->s;
    uint32_t d2[2], d4[4];
    sim_dims_create(s->N, 2, d2);
    sim_comm_t *c2 = sim_cart_create(s, s->world, 2, d2, 0, 0);
    keep(r, c2);
    int row[2] = { 0, 1 }, col[2] = { 1, 0 };
    keep(r, sim_cart_sub(s, c2, 2, d2, row));
    keep(r, sim_cart_sub(s, c2, 2, d2, col));
    sim_dims_create(s->N, 4, d4);
    sim_comm_t *c4 = sim_cart_create(s, s->world, 4, d4, 0, 0);
    keep(r, c4);
    for (int dim = 0; dim < 4; dim++) {
        int one[4] = { 0, 0, 0, 0 }, three[4] = { 1, 1, 1, 1 };
        one[dim] = 1; three[dim] = 0;
        keep(r, sim_cart_sub(s, c4, 4, d4, one));
        keep(r, sim_cart_sub(s, c4, 4, d4, three));
    }
}

static void sc_workers(run_t *r)
{
    keep(r, sim_split(r->s, r->s->world, not_zero, key_rank, NULL));
}

/* 2 processes spawned by world rank 0, merged after the world, then one
 * reordered dup of the merged comm (key: a permutation of its ranks) */
static void sc_spawn(run_t *r)
{
    sim_t *s = r->s;
    sim_comm_t *ic = sim_spawn(s, 2);
    keep(r, ic);
    if (!ic) return;
    sim_comm_t *m = sim_inter_merge(s, ic, 0);
    keep(r, m);
    int32_t perm[1024 + 2];
    shuffle(perm, m->size, 2000);
    keep(r, sim_split(s, m, zero, from_array, perm));
}

static const struct { const char *name; void (*fn)(run_t *); } scen[] = {
    { "init", sc_init }, { "split", sc_split }, { "dup", sc_dup }, { "reorder", sc_reorder },
    { "incl", sc_incl }, { "colsplit", sc_colsplit }, { "inter", sc_inter }, { "cart", sc_cart },
    { "workers", sc_workers }, { "spawn", sc_spawn },
};
#define NSC (sizeof scen / sizeof scen[0])

static void print(sim_backend_t *b, const char *name, const char *phase, uint32_t rank)
{
    avrm_stats_t st;
    avrm_bench_stats(b, &st);
    printf("%s%s %u %zu %zu %zu %zu %zu %zu %zu %zu ", name, phase, rank, st.av_entry_bytes,
           st.av_meta_bytes, st.map_bytes, st.table_bytes,
           st.table_shared_bytes, st.index_bytes, st.hier_bytes, avrm_bench_node_map_bytes(b));
    int any = 0;
    for (int m = 0; m < AVRM_MODE_COUNT; m++)
        if (st.nmaps[m])
            printf("%s%s:%zu", any++ ? "," : "", avrm_mode_name((avrm_mode_t) m), st.nmaps[m]);
    printf("%s\n", any ? "" : "-");
}

int main(int argc, char **argv)
{
    uint32_t N = 0, P = 0, rr = 0;
    int computed = 0, ondemand = 0;
    const char *list = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc) N = (uint32_t) atoi(argv[++i]);
        else if (!strcmp(argv[i], "-P") && i + 1 < argc) P = (uint32_t) atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) rr = (uint32_t) atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) list = argv[++i];
        else if (!strcmp(argv[i], "-c")) computed = 1;
        else if (!strcmp(argv[i], "-o")) ondemand = 1;
        else N = 0, i = argc;
    }
    if (N < 2 || N > 1024 || (P == 0 && rr == 0)) {
        fprintf(stderr, "usage: %s -n N (2..1024) -P ppn | -r nodes [-c | -o] [-s scen,...]\n", argv[0]);
        return 1;
    }
    if (!P) P = N;
    int rc = 0;
    for (uint32_t me = 0; me < N; me++) {
        sim_backend_t *b = avrm_backend_new(ondemand ? OURS_ONDEMAND
                                            : computed ? OURS_COMPUTED : OURS_STORED);
        sim_t s;
        if (!b || sim_init_ex(&s, N, P, rr, 0, me, &b, 1)) { fprintf(stderr, "sim init failed\n"); return 1; }
        for (size_t k = 0; k < NSC; k++) {
            if (!namelist_has(list, scen[k].name)) continue;
            run_t r = { &s, { 0 }, 0 };
            scen[k].fn(&r);
            print(b, scen[k].name, "", me);
            if (s.err) { fprintf(stderr, "%s: simulator error\n", scen[k].name); rc = 1; }
            for (int i = r.nc - 1; i >= 0; i--) sim_free(&s, r.c[i]);
            print(b, scen[k].name, "-freed", me);
        }
        sim_fini(&s);
        b->destroy(b);
    }
    return rc;
}
