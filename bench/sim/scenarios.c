/*
 * scenarios.c - the communicator-creation scenarios of bench-memory and
 * bench-simbuild (see scenarios.h): the paper's Figs 9-14,
 * application-shaped ones and content-sharing ones, replayed through the
 * simulator's MPI operations (sim.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "scenarios.h"
#include "backend_avrm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t parity(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return (int32_t) (r & 1); }
static int32_t key_rank(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return (int32_t) r; }
static int32_t zero(void *a, uint32_t r, uint32_t g) { (void) a; (void) r; (void) g; return 0; }
static int32_t key_perm(void *a, uint32_t r, uint32_t g) { (void) g; return ((const int32_t *) a)[r]; }

static void shuffle(int32_t *p, uint32_t n, uint64_t seed)
{
    for (uint32_t i = 0; i < n; i++) p[i] = (int32_t) i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t) (sim_rand(&seed) % (i + 1));
        int32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

/* MPI_Init only: the world and self communicators (whole-process model,
 * bench/report wholeproc) */
static void sc_world(sim_t *s, int K) { (void) s; (void) K; }

/* First contacts (group "contact"): the world peers me sends to in an
 * application, for back ends that resolve addresses on demand
 * (sim_contact); no communicator is created. */

/* the largest divisor of n whose k-th power is at most n */
static uint32_t root_divisor(uint32_t n, int k)
{
    uint32_t best = 1;
    for (uint64_t f = 2;; f++) {
        uint64_t p = 1;
        for (int j = 0; j < k; j++) p *= f;
        if (p > n) break;
        if (n % f == 0) best = (uint32_t) f;
    }
    return best;
}

/* d[0..nd) (nd 2 or 3) balanced factors of n, as MPI_Dims_create makes
 * them for n a product of small primes: the smallest first chosen as
 * large as the root allows */
static void dims_of(uint32_t n, int nd, uint32_t *d)
{
    if (nd == 3) {
        d[2] = root_divisor(n, 3);
        n /= d[2];
    }
    d[1] = root_divisor(n, 2);
    d[0] = n / d[1];
}

/* an allreduce's partners by recursive doubling: me ^ 2^k */
static void contact_doubling(sim_t *s)
{
    for (uint32_t b = 1; b < s->N; b <<= 1)
        if ((s->me ^ b) < s->N) sim_contact(s, s->me ^ b);
}

/* a periodic nd-dimensional stencil's 2 nd neighbours, then an allreduce */
static void contact_stencil(sim_t *s, int nd)
{
    uint32_t d[3], c[3], stride[3], r = s->me;
    dims_of(s->N, nd, d);
    for (int k = nd - 1, st = 1; k >= 0; k--) {
        stride[k] = (uint32_t) st;
        c[k] = r / stride[k] % d[k];
        st *= (int) d[k];
    }
    for (int k = 0; k < nd; k++)
        if (d[k] > 1) {
            sim_contact(s, r - c[k] * stride[k] + (c[k] + 1) % d[k] * stride[k]);
            sim_contact(s, r - c[k] * stride[k] + (c[k] + d[k] - 1) % d[k] * stride[k]);
        }
    contact_doubling(s);
}

static void sc_stencil2d(sim_t *s, int K) { (void) K; contact_stencil(s, 2); }
static void sc_stencil3d(sim_t *s, int K) { (void) K; contact_stencil(s, 3); }

/* a binomial-tree reduction to rank 0: me's parent and children */
static void sc_tree(sim_t *s, int K)
{
    (void) K;
    uint32_t low = s->me & -s->me;
    if (s->me) sim_contact(s, s->me - low);
    for (uint32_t b = 1; b < s->N && (!s->me || b < low); b <<= 1)
        if (s->me + b < s->N) sim_contact(s, s->me + b);
}

static void sc_alltoall(sim_t *s, int K)
{
    (void) K;
    for (uint32_t l = 0; l < s->N; l++)
        if (l != s->me) sim_contact(s, l);
}

/* K odd/even splits of world, no reorder (Fig 9) */
static void sc_split(sim_t *s, int K)
{
    for (int k = 0; k < K; k++) {
        sim_comm_t *c = sim_split(s, s->world, parity, key_rank, NULL);
        if (c) sim_forget(c);
    }
}
/* K dups of world, with their node/node-roots comms (Fig 10) */
static void sc_dup(sim_t *s, int K)
{
    for (int k = 0; k < K; k++) sim_dup(s, s->world);
}
/* base: odd/even split, intercomm between the halves */
static sim_comm_t *inter_base(sim_t *s)
{
    sim_comm_t *a = sim_split(s, s->world, parity, key_rank, NULL);
    int32_t other = (int32_t) ((s->me & 1) ^ 1);
    sim_gp_t *rg = sim_split_group(s, s->world, parity, key_rank, NULL, other);
    sim_comm_t *ic = sim_intercomm_create(s, a, rg);
    sim_gp_unref(rg);
    sim_forget(a);
    return ic;
}
/* Fig 11: K odd/even splits of the intercomm */
static void sc_isplit(sim_t *s, int K)
{
    sim_comm_t *ic = inter_base(s);
    for (int k = 0; k < K; k++) {
        sim_comm_t *c = sim_inter_split(s, ic, parity, parity, NULL);
        if (c) sim_forget(c);
    }
}
/* Fig 12: K dups of the intercomm */
static void sc_idup(sim_t *s, int K)
{
    sim_comm_t *ic = inter_base(s);
    for (int k = 0; k < K; k++) sim_forget(sim_dup(s, ic));
}
/* Fig 13: K dups of world with unique random rank orders */
static void sc_reorder(sim_t *s, int K)
{
    int32_t *perm = malloc((size_t) s->N * 4);
    for (int k = 0; k < K; k++) {
        shuffle(perm, s->N, 1000 + (uint64_t) k);
        sim_comm_t *c = sim_split(s, s->world, zero, key_perm, perm);
        sim_forget(c);
    }
    free(perm);
}
/* Fig 14: spawn N/16 processes (one per node of the world), merge the
 * parent-side intercomm (world low), then K uniquely reordered dups of it */
static void sc_spawn(sim_t *s, int K)
{
    uint32_t M = s->N / 16 ? s->N / 16 : 1;
    sim_comm_t *ic = sim_spawn(s, M);
    if (!ic) { s->err = 1; return; }
    sim_comm_t *mg = sim_inter_merge(s, ic, 0);
    int32_t *perm = malloc((size_t) mg->size * 4);
    for (int k = 0; k < K; k++) {
        shuffle(perm, mg->size, 2000 + (uint64_t) k);
        sim_comm_t *c = sim_split(s, mg, zero, key_perm, perm);
        sim_forget(c);
    }
    free(perm);
}
/* Nek5000 large-scale problem: 86 refinement levels = 86 dups of world */
static void sc_nek(sim_t *s, int K) { (void) K; sc_dup(s, 86); }

/* NWChem: 2-D process grid row and column splits, 50 RMA-window dups */
struct grid2 { uint32_t pc; };
static int32_t row_of(void *a, uint32_t r, uint32_t g) { (void) g; return (int32_t) (r / ((struct grid2 *) a)->pc); }
static int32_t col_of(void *a, uint32_t r, uint32_t g) { (void) g; return (int32_t) (r % ((struct grid2 *) a)->pc); }
static void sc_nwchem(sim_t *s, int K)
{
    (void) K;
    uint32_t d[2];
    sim_dims_create(s->N, 2, d);
    struct grid2 g = { d[1] };
    sim_forget(sim_split(s, s->world, row_of, key_rank, &g));
    sim_forget(sim_split(s, s->world, col_of, key_rank, &g));
    for (int k = 0; k < 50; k++) sim_dup(s, s->world);
}
/* LSMS: rank 0 master, walkers of 100 consecutive ranks (me = 1 by default
 * for this scenario: walker 0 spans nodes 0..6, node-roots 1,16,32,...) */
static int32_t walker(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return r == 0 ? 0 : 1 + (int32_t) ((r - 1) / 100); }
static void sc_lsms(sim_t *s, int K)
{
    (void) K;
    sim_forget(sim_split(s, s->world, walker, key_rank, NULL));
}
/* 3-D FFT pencils: 2-D cart grid of world, row and column cart_sub */
static void sc_fft(sim_t *s, int K)
{
    (void) K;
    uint32_t d[2];
    sim_dims_create(s->N, 2, d);
    sim_comm_t *cart = sim_cart_create(s, s->world, 2, d, 0, 0);
    int r0[2] = { 0, 1 }, r1[2] = { 1, 0 };
    sim_forget(sim_cart_sub(s, cart, 2, d, r0));
    sim_forget(sim_cart_sub(s, cart, 2, d, r1));
}
/* Kumar et al.: 4-D grid (64^4 at 16M), cart_sub along each dimension
 * (four 1-D comms) and across each hyperplane (four 3-D comms) */
static void kumar_dims(uint32_t N, uint32_t *d)
{
    if (N == 16u << 20) { d[0] = d[1] = d[2] = d[3] = 64; return; }
    sim_dims_create(N, 4, d);
}
static void sc_kumar(sim_t *s, int K)
{
    (void) K;
    uint32_t d[4];
    kumar_dims(s->N, d);
    sim_comm_t *cart = sim_cart_create(s, s->world, 4, d, 0, 0);
    for (int dim = 0; dim < 4; dim++) {
        int one[4] = { 0, 0, 0, 0 }, three[4] = { 1, 1, 1, 1 };
        one[dim] = 1; three[dim] = 0;
        sim_forget(sim_cart_sub(s, cart, 4, d, one));
        sim_forget(sim_cart_sub(s, cart, 4, d, three));
    }
}
/* Kumar's BG/Q neighbourhood test: along each dimension, split at every
 * point k into coords [0,k) and [k,ext): ext-1 comms per dimension for me */
struct karg { uint32_t d[4]; int dim; uint32_t k; };
static int32_t kcolor(void *a, uint32_t r, uint32_t g)
{
    (void) g;
    struct karg *ka = a;
    for (int d = 3; d > ka->dim; d--) r /= ka->d[d];
    return (r % ka->d[ka->dim]) >= ka->k;
}
static void sc_kumar252(sim_t *s, int K)
{
    (void) K;
    struct karg ka;
    kumar_dims(s->N, ka.d);
    for (ka.dim = 0; ka.dim < 4; ka.dim++)
        for (ka.k = 1; ka.k < ka.d[ka.dim]; ka.k++)
            sim_forget(sim_split(s, s->world, kcolor, key_rank, &ka));
}

/* Master/worker: split world into {0} and the workers 1..N-1 (me = 1): the
 * workers' node-roots comm is 1, 16, 32, ...: a stride with one exception */
static int32_t is_worker(void *a, uint32_t r, uint32_t g) { (void) a; (void) g; return r != 0; }
static void sc_workers(sim_t *s, int K)
{
    (void) K;
    sim_forget(sim_split(s, s->world, is_worker, key_rank, NULL));
}

/* Content sharing (issue: "identical LUTs shared across communicators by
 * content ... measure it on repeated non-dup patterns like internal
 * node-roots comms").
 * repeat: K MPI_Comm_create from the same irregular group: a fixed random
 * half of the world in a fixed random order, me at comm rank 0 (so that me
 * is its node's root and holds the node-roots comm). Each comm gets its
 * node and node-roots comms; all K stay alive. */
static void sc_repeat(sim_t *s, int K)
{
    uint32_t n = s->N / 2 ? s->N / 2 : 1;
    int32_t *perm = malloc((size_t) s->N * 4);
    shuffle(perm, s->N, 3000);
    for (uint32_t i = 0; i < s->N; i++)
        if ((uint32_t) perm[i] == s->me) { perm[i] = perm[0]; perm[0] = (int32_t) s->me; break; }
    for (int k = 0; k < K; k++) {
        sim_comm_t *c = sim_incl(s, s->world, perm, n);
        if (c) sim_forget(c);
    }
    free(perm);
}
/* nodesplit: K MPI_Comm_split with the same irregular colour/key: whole
 * nodes get a fixed random colour (0/1), keys are a fixed random
 * permutation with me's key lowest (me is its node's root). Each result:
 * a N/2-rank irregular LUT, a 16-rank node comm in random order and a
 * N/32-rank irregular node-roots comm, identical across the K splits. */
struct nsplit { const uint8_t *ncol; const int32_t *key; uint32_t P; };
static int32_t ns_color(void *a, uint32_t r, uint32_t g) { (void) g; const struct nsplit *x = a; return x->ncol[r / x->P]; }
static int32_t ns_key(void *a, uint32_t r, uint32_t g) { (void) g; return ((const struct nsplit *) a)->key[r]; }
static void sc_nodesplit(sim_t *s, int K)
{
    uint32_t nn = (s->N + s->P - 1) / s->P;
    uint8_t *ncol = malloc(nn);
    int32_t *key = malloc((size_t) s->N * 4);
    uint64_t seed = 4000;
    for (uint32_t i = 0; i < nn; i++) ncol[i] = (uint8_t) (sim_rand(&seed) & 1);
    shuffle(key, s->N, 4001);
    key[s->me] = -1;
    struct nsplit a = { ncol, key, s->P };
    for (int k = 0; k < K; k++) {
        sim_comm_t *c = sim_split(s, s->world, ns_color, ns_key, &a);
        if (c) sim_forget(c);
    }
    free(ncol);
    free(key);
}



const scen_t scens[] = {
    { "world",     "apps",  "MPI_Init only: world and self", sc_world, 0, 0, 1u << 24, { 0 } },
    { "stencil2d", "contact", "first contacts of a 2-D periodic stencil + allreduce (me = 0)", sc_stencil2d, 0, 0, 1u << 24, { 0 } },
    { "stencil3d", "contact", "first contacts of a 3-D periodic stencil + allreduce (me = 0)", sc_stencil3d, 0, 0, 1u << 24, { 0 } },
    { "tree",      "contact", "first contacts of a binomial-tree reduction (me = 0, the root)", sc_tree, 0, 0, 1u << 24, { 0 } },
    { "alltoall",  "contact", "first contacts of an all-to-all (every peer)", sc_alltoall, 0, 0, 1u << 24, { 0 } },
    { "split10",   "paper", "10 odd/even splits of world (Fig 9)", sc_split, 10, 0, 1u << 24, { 0 } },
    { "split100",  "paper", "100 odd/even splits of world (Fig 9)", sc_split, 100, 0, 1u << 24, { 0 } },
    { "dup10",     "paper", "10 dups of world + node/node-roots (Fig 10)", sc_dup, 10, 0, 1u << 24, { 0 } },
    { "dup100",    "paper", "100 dups of world + node/node-roots (Fig 10)", sc_dup, 100, 0, 1u << 24, { 0 } },
    { "isplit10",  "paper", "10 odd/even splits of an intercomm (Fig 11)", sc_isplit, 10, 0, 1u << 24, { 0 } },
    { "isplit100", "paper", "100 odd/even splits of an intercomm (Fig 11)", sc_isplit, 100, 0, 1u << 24, { 0 } },
    { "idup10",    "paper", "10 dups of an intercomm (Fig 12)", sc_idup, 10, 0, 1u << 24, { 0 } },
    { "idup100",   "paper", "100 dups of an intercomm (Fig 12)", sc_idup, 100, 0, 1u << 24, { 0 } },
    { "reorder10", "paper", "10 randomly reordered dups of world (Fig 13)", sc_reorder, 10, 0, 1u << 21, { FEAT_LUT16 } },
    { "reorder100","paper", "100 randomly reordered dups of world (Fig 13)", sc_reorder, 100, 0, 1u << 21, { FEAT_LUT16 } },
    { "spawn10",   "paper", "merged world+spawned(N/16) + 10 reordered dups (Fig 14)", sc_spawn, 10, 0, 1u << 21,
      { FEAT_MSEG, FEAT_MLUT32 } },
    { "spawn100",  "paper", "merged world+spawned(N/16) + 100 reordered dups (Fig 14)", sc_spawn, 100, 0, 1u << 21,
      { FEAT_MSEG, FEAT_MLUT32 } },
    { "nek5000",   "apps",  "Nek5000: 86 dups of world", sc_nek, 0, 0, 1u << 24, { 0 } },
    { "nwchem",    "apps",  "NWChem: 2-D grid row+col splits, 50 RMA-window dups", sc_nwchem, 0, 0, 1u << 24, { 0 } },
    { "lsms",      "apps",  "LSMS: master + walkers of 100 (me = rank 1)", sc_lsms, 0, 1, 1u << 24, { FEAT_EXCEPT } },
    { "workers",   "apps",  "master/worker split {0} | 1..N-1 (me = 1): node-roots 1,16,32,..", sc_workers, 0, 1, 1u << 24, { FEAT_EXCEPT } },
    { "fft3d",     "apps",  "3-D FFT pencils: 2-D cart, row/col cart_sub", sc_fft, 0, 0, 1u << 24, { 0 } },
    { "kumar",     "apps",  "Kumar 4-D grid (64^4 at 16M): 1-D and 3-D cart_subs", sc_kumar, 0, 0, 1u << 24, { FEAT_GRID } },
    { "kumar252",  "apps",  "Kumar BG/Q neighbourhood split test (ext-1 per dim)", sc_kumar252, 0, 0, 1u << 20, { FEAT_GRID } },
    { "repeat100", "share", "100 comm_create from one irregular half of world (+node/node-roots)", sc_repeat, 100, 0, 1u << 20, { 0 } },
    { "nodesplit100","share","100 splits, same irregular node colour/random key (+node/node-roots)", sc_nodesplit, 100, 0, 1u << 20, { 0 } },
};
const size_t nscens = sizeof scens / sizeof scens[0];

int scen_selected(const char *list, const scen_t *sc)
{
    if (!list) return 1;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        if (!strcmp(t, sc->name) || !strcmp(t, sc->group) || !strcmp(t, "all")) return 1;
    return 0;
}
