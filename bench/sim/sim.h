/*
 * sim.h - simulator of one MPI process (world rank `me`) in a job of N
 * processes, P per node. It replays communicator creation exactly as MPI
 * defines it (split, group incl/excl/range_incl, cart_create/cart_sub,
 * intercomm create/split/dup/merge, spawn) and feeds the resulting stream
 * of "communicator created from parent(s) with this mapping array" events
 * to several back ends: our libavrm and the MODELs of other MPIs
 * (bench/models/). Only communicators that contain `me` are created.
 * MPI_COMM_SELF and MPICH 4.0.2's internal communicators are created as
 * MPICH creates them (sim.c's header says when); test/simcheck checks the
 * resulting bytes against the real library's MPI_T pvars.
 *
 * Grids: cart_create declares none to the back ends (MPICH's glue declares
 * none to libavrm, whose GRID mode uses only the MPI_Dims_create-style
 * factorizations of the world it adds itself).
 *
 * Node hierarchies: every committed intracommunicator but the internal
 * ones (as MPIR_Comm_commit does) is shown to each back end's hier() with
 * the node of every member; the world's node map is each back end's own,
 * made when the world's AV is (av_create of pgid 0).
 *
 * Memory: a comm keeps its packed gpid array (4 B/rank, transient) only
 * until sim_forget(); the world and its dups need none (identity).
 */
#ifndef SIM_H
#define SIM_H

#include <stddef.h>
#include <stdint.h>

#define SIM_MAXB 12           /* back ends per run */
#define SIM_UNDEF (-1)        /* MPI_UNDEFINED colour */
#define SIM_MAXG 3            /* groups: the world, at most two AVs of one spawn */

/* packed gpid: pgid in bits 24..31, lpid in bits 0..23 (16M max) */
#define SIM_PACK(pg, l)  ((uint32_t) (pg) << 24 | (uint32_t) (l))
#define SIM_PGID(g)      ((g) >> 24)
#define SIM_LPID(g)      ((g) & 0xFFFFFFu)

typedef struct sim_src { uint32_t parent; int32_t rank; } sim_src_t;

enum sim_ev_kind {
    SIM_EV_GROUP,   /* map of a whole process group (MPI_COMM_WORLD) */
    SIM_EV_DUP,     /* same ranks as parents[0] (MPI_Comm_dup, map dup) */
    SIM_EV_BUILD,   /* child rank i = parent rank mapping[i] */
    SIM_EV_MULTI,   /* child rank i = rank src[i].rank of parents[src[i].parent] */
    SIM_EV_GPIDS,   /* remote group known only by gpids (intercomm) */
    SIM_EV_COMM_GROUP, /* the group MPI_Comm_group caches in parents[0]'s comm
                        * (gp: its packed gpids, NULL for the identity of pgid 0) */
    SIM_EV_GROUP_BUILD /* an MPI group: rank i = parent rank mapping[i] */
};

/* A committed intracommunicator's placement: node of every rank (node_of;
 * -1 for a dynamic process) and what the MODELs' rules ask of it. */
typedef struct sim_hier_ev {
    uint32_t n, my_rank, max_nodes;
    int32_t (*node_of)(void *arg, uint32_t rank);
    void *arg;
    uint32_t nnodes;          /* nodes spanned (0 when unknown) */
    uint8_t unknown;          /* a member has no node (dynamic process) */
    uint8_t consecutive;      /* each node's ranks are one run */
    uint8_t balanced;         /* every node holds the same number of ranks */
} sim_hier_ev_t;

typedef struct sim_ev {
    int kind;
    void *const *parents;     /* back end's handles */
    uint32_t nparents;
    const int32_t *mapping;   /* BUILD */
    const sim_src_t *src;     /* MULTI */
    const uint32_t *gp;       /* final packed gpids of the child (all kinds but GROUP/DUP) */
    uint32_t n;               /* child size */
    uint16_t pgid;            /* GROUP */
} sim_ev_t;

/* Memory of one back end, bytes per process by category. Models map their
 * own categories onto these (see bench/models/models.h). */
typedef struct sim_mem {
    double av_entries;    /* per-peer address entries (ours 8 B, VC 480 B, CH4 72 B, main 32 B) */
    double meta;          /* AV structs, locality lists, table headers, index */
    double maps;          /* per-communicator map structs */
    double tables;        /* unique O(n) tables (lut/mlut/VCRT) */
    double shared_avoided;/* bytes that sharing avoided (not part of the total) */
    double total;         /* av_entries + meta + maps + tables */
    /* beyond the address layer (the whole library's O(P) state) */
    double hier;          /* communicators' node hierarchies (stock: intranode_table
                           * + internode_table, 8 B per member) */
    double node_map;      /* the process's node of every peer and shm local rank of
                           * every peer (stock: 8 B per peer) */
    double library;       /* total + hier + node_map */
    double resolved;      /* on demand: world peers resolved (first contacts
                           * on another node: libfabric inserts); else 0 */
} sim_mem_t;

typedef struct sim sim_t;
typedef struct sim_backend sim_backend_t;
struct sim_backend {
    const char *name;     /* e.g. "ours-stored", "MODEL-ch4-4.0.2" */
    const char *label;    /* "OURS" or "MODEL" */
    void *st;
    int  (*av_create)(sim_backend_t *b, const sim_t *s, uint16_t pgid, uint32_t size);
    void *(*map)(sim_backend_t *b, const sim_ev_t *ev);   /* NULL: error */
    void (*release)(sim_backend_t *b, void *h);
    void (*report)(sim_backend_t *b, sim_mem_t *out);
    void (*destroy)(sim_backend_t *b);
    /* a dynamic group's AV is freed (no map uses it any more); may be NULL */
    void (*av_destroy)(sim_backend_t *b, uint16_t pgid, uint32_t size);
    /* node hierarchy of a committed intracommunicator; NULL: error */
    void *(*hier)(sim_backend_t *b, const sim_hier_ev_t *ev);
    /* a dup's hierarchy from its parent's (MPIR_Comm_commit shares it);
     * NULL: every committed communicator builds its own */
    void *(*hier_dup)(sim_backend_t *b, void *parent);
    void (*hier_release)(sim_backend_t *b, void *h);
    /* the first message to world process lpid (on-demand addressing: its
     * address resolved and stored); NULL: a back end that keeps every
     * peer's address from MPI_Init (eager, the MODELs) */
    void (*contact)(sim_backend_t *b, uint32_t lpid);
    /* filled by the simulator when sim_t.timing is set: thread CPU time
     * spent in map() (the calibrated cost of reading the clock removed),
     * calls, and ranks of the maps built other than dups/whole groups */
    double map_ns;
    uint64_t map_calls, map_ranks, dup_calls;
};

typedef struct sim_gp {       /* packed gpids of a group (shared by dups) */
    uint32_t n, refs;
    uint32_t *v;              /* NULL: identity lpid i of group `pgid` */
    uint16_t pgid;
} sim_gp_t;

typedef struct sim_comm sim_comm_t;
struct sim_comm {
    uint32_t size, rank;      /* local group; rank of me */
    sim_gp_t *gp;             /* NULL after sim_forget */
    void *h[SIM_MAXB];
    int inter;
    uint32_t rsize;           /* intercomm: remote group */
    sim_gp_t *rgp;
    void *rh[SIM_MAXB];
    void *gh[SIM_MAXB];       /* the group MPI_Comm_group cached (sim_comm_group) */
    void *hh[SIM_MAXB];       /* node hierarchy (committed non-internal intracomms) */
    sim_comm_t *node, *roots, *local;   /* internal comms MPICH creates */
    uint8_t dyn, rdyn;        /* bit g-1: the local / remote map uses dynamic group g */
    sim_comm_t *next;         /* all comms, for teardown */
};

struct sim {
    uint32_t N, P, me;
    uint32_t rr;              /* 0: P consecutive world ranks per node; else
                               * rr nodes, world rank i on node i % rr */
    uint32_t nnodes;
    uint32_t gsize[SIM_MAXG];    /* AV size of each group (0: none) */
    uint32_t dynrefs[SIM_MAXG];  /* maps using each dynamic group */
    int ngroups;
    int internal;             /* create node/node-roots/local comms (default 1) */
    int timing;               /* time each back end's map() (sim_backend_t.map_ns) */
    double clock_ns;          /* cost of one clock read pair, subtracted */
    int nb;
    sim_backend_t *b[SIM_MAXB];
    sim_comm_t *world, *self, *all;
    uint64_t *seen;           /* node bitmap (nnodes bits), scratch */
    uint64_t ncomms;          /* communicators created (user + internal) */
    int err;
};

/* world of N processes (AV pgid 0 in each back end), P per node, with
 * MPI_COMM_WORLD (and its internal comms) and MPI_COMM_SELF */
int  sim_init(sim_t *s, uint32_t N, uint32_t P, uint32_t me, sim_backend_t **b, int nb);
/* the same with a placement: rr == 0 as above, rr > 0 round-robin over rr
 * nodes (MPICH's MPIR_CVAR_NUM_CLIQUES without CLIQUES_BY_BLOCK); timing:
 * see sim_backend_t.map_ns */
int  sim_init_ex(sim_t *s, uint32_t N, uint32_t P, uint32_t rr, int timing, uint32_t me,
                 sim_backend_t **b, int nb);
void sim_fini(sim_t *s);      /* releases every map, destroys nothing of the back ends */
/* me sends to world process lpid (each back end's contact(), when it has one) */
void sim_contact(sim_t *s, uint32_t lpid);

static inline uint32_t sim_gp_at(const sim_gp_t *g, uint32_t i)
{
    return g->v ? g->v[i] : SIM_PACK(g->pgid, i);
}
/* node of a world process (MPICH's node_map); a dynamic process (pgid > 0)
 * has none (MPID_Get_node_id gives -1) */
static inline uint32_t sim_node_of(const sim_t *s, uint32_t g)
{
    return s->rr ? SIM_LPID(g) % s->rr : SIM_LPID(g) / s->P;
}

/* Communicator operations; each returns the new comm of me, or NULL when
 * me is not a member (MPI_COMM_NULL). */
typedef int32_t (*sim_fn_t)(void *arg, uint32_t parent_rank, uint32_t gpid);
sim_comm_t *sim_dup(sim_t *s, sim_comm_t *c);
sim_comm_t *sim_split(sim_t *s, sim_comm_t *c, sim_fn_t color, sim_fn_t key, void *arg);
/* MPI_Comm_group(c): made on first call, cached in c until it is freed */
void sim_comm_group(sim_t *s, sim_comm_t *c);
/* MPI_Group_incl of c's group: a group object (h[] only, no internal
 * comms), freed with sim_free; rank UINT32_MAX when me is not a member */
sim_comm_t *sim_group_incl(sim_t *s, sim_comm_t *c, const int32_t *ranks, uint32_t n);
sim_comm_t *sim_incl(sim_t *s, sim_comm_t *c, const int32_t *ranks, uint32_t n);   /* group incl + comm_create */
sim_comm_t *sim_excl(sim_t *s, sim_comm_t *c, const int32_t *ranks, uint32_t n);
sim_comm_t *sim_range_incl(sim_t *s, sim_comm_t *c, const int32_t (*ranges)[3], uint32_t n);
sim_comm_t *sim_cart_create(sim_t *s, sim_comm_t *c, int ndims, const uint32_t *dims, int reorder, uint64_t seed);
sim_comm_t *sim_cart_sub(sim_t *s, sim_comm_t *cart, int ndims, const uint32_t *dims, const int *remain);
/* intercomm: local = c, remote = the group of `remote` gpids */
sim_comm_t *sim_intercomm_create(sim_t *s, sim_comm_t *local, sim_gp_t *remote);
sim_comm_t *sim_inter_split(sim_t *s, sim_comm_t *ic, sim_fn_t lcolor, sim_fn_t rcolor, void *arg);
sim_comm_t *sim_inter_merge(sim_t *s, sim_comm_t *ic, int high);
/* parent side of MPI_Comm_spawn of M processes (root: world rank 0):
 * intercomm world <-> the new group, as MPICH 4.0.2 CH4 builds it: the
 * root keeps the children's root in an AV of its own (pgid 1, made for a
 * temporary peer intercomm) and the other M-1 in a second AV (pgid 2);
 * every other rank has one AV of M (pgid 1). A dynamic group's AV is
 * destroyed when the last map using it is released. */
sim_comm_t *sim_spawn(sim_t *s, uint32_t M);
/* gpids of the group with colour `color` of a split of c (no comm created):
 * the remote side of an intercomm that me is not part of. */
sim_gp_t *sim_split_group(sim_t *s, sim_comm_t *c, sim_fn_t color, sim_fn_t key, void *arg, int32_t want);
void sim_gp_unref(sim_gp_t *g);
void sim_forget(sim_comm_t *c);        /* drop the gpid arrays (comm no longer a parent) */
void sim_free(sim_t *s, sim_comm_t *c);/* MPI_Comm_free: release maps now */

void sim_dims_create(uint32_t n, int ndims, uint32_t *dims);
uint64_t sim_rand(uint64_t *st);       /* splitmix64 */

#endif
