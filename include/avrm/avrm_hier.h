/*
 * avrm_hier.h - the node hierarchy of a communicator without per-rank tables.
 *
 * MPICH's node-aware code asks, for a communicator of n ranks spread over
 * nodes: which node index (internode rank: the order in which nodes first
 * appear in rank order) a rank is on, which intranode rank it has on this
 * process's node (-1 when it is on another node), who the members of this
 * node are and who leads every node. Stock MPICH 4.0.2 keeps two int tables
 * of n entries for the communicator's life (intranode_table,
 * internode_table). Here one 32-byte descriptor answers them, in one of
 * these forms, proven for every rank when it is built:
 *
 *   BLOCK   node(r) = r / q         consecutive ranks, q per node (the last
 *                                   node may have fewer): block placement,
 *                                   one node (q = n), one rank per node (q = 1)
 *   CYCLIC  node(r) = r % nnodes    round-robin placement (nnodes < n)
 *   RUNS    node(r) = e with starts[e] <= r < starts[e + 1]: consecutive
 *           ranks, uneven counts; nnodes + 1 words out of line
 *   TABLE   node(r) = x[r], otherwise; x has 2 B per rank when
 *           nnodes <= 65536 (else 4 B), plus this node's members and every
 *           node's leader (4 B each)
 *   NONE    no node information (a rank's node is unknown, e.g. a spawned
 *           process): every answer is "one rank per node", the
 *           communicator gets no node-aware algorithms
 *
 * BLOCK and CYCLIC cost 0 bytes besides the descriptor, RUNS O(nodes).
 * Building scans the ranks once (twice for RUNS/TABLE) through the caller's
 * node_of() and keeps O(#node ids) scratch: no O(n) temporary for
 * BLOCK/CYCLIC.
 *
 * Costs of the queries: BLOCK/CYCLIC O(1); RUNS O(log nnodes);
 * TABLE internode O(1), intranode O(log local_size). The intranode rank of
 * a rank known to be local (avrm_hier_local_index) is one subtraction for
 * BLOCK and RUNS.
 *
 * MPICH uses it twice: inline in every communicator (MPIR_Comm.hier), and
 * once per process for the world (MPIR_Process.node_hier), where it replaces
 * stock's node_map (4 B per peer) and the shared-memory module's
 * local_ranks (4 B per peer): node ids are internode ranks of the world.
 *
 * Thread safety: build and release are writers (serialize them with the
 * other writers of the context, see avrm_ctx.h); the words' reference count
 * and stats.hier_bytes are relaxed atomics, so a dup or the release of one
 * descriptor may also run beside the build of another (make check-tsan saw
 * that in MPICH's per-VCI build). Queries only read the
 * descriptor and its out-of-line words and may run concurrently. A dup
 * shares its source's words.
 */
#ifndef AVRM_HIER_H
#define AVRM_HIER_H

#include "avrm_ctx.h"

typedef enum avrm_hier_form {
    AVRM_HIER_NONE = 0,
    AVRM_HIER_BLOCK,
    AVRM_HIER_CYCLIC,
    AVRM_HIER_RUNS,
    AVRM_HIER_TABLE,
    AVRM_HIER_FORM_COUNT
} avrm_hier_form_t;

/* 32 bytes (pinned below); lives inline in the communicator. */
typedef struct avrm_hier {
    uint8_t  form;          /* avrm_hier_form_t */
    uint8_t  width;         /* TABLE: bytes per entry of x (2 or 4) */
    uint16_t reserved;
    uint32_t size;          /* ranks */
    uint32_t nnodes;        /* nodes spanned (node_roots_comm size) */
    uint32_t my_node;       /* this process's internode rank */
    uint32_t local_size;    /* ranks on this process's node */
    uint32_t q;             /* BLOCK: ranks per node */
    /* RUNS:  uint32_t starts[nnodes + 1] (starts[nnodes] == size)
     * TABLE: uint32_t local[local_size], uint32_t leader[nnodes],
     *        then x[size] (uint16_t or uint32_t) */
    const uint32_t *words;
} avrm_hier_t;

_Static_assert(sizeof(avrm_hier_t) == 32, "avrm_hier_t is inline in every communicator");

/* Node id of rank r (any id >= 0 naming its node, < max_nodes), or < 0 when
 * unknown. */
typedef int32_t (*avrm_node_of_fn)(void *arg, uint32_t rank);

/* Build the hierarchy of n ranks (1 <= n <= AVRM_MAX_WORLD), this process
 * being my_rank, node ids in [0, max_nodes). A rank of unknown node gives
 * form NONE with AVRM_OK (node awareness is an optimization). Errors:
 * AVRM_ERR_ARG (n, my_rank, an id >= max_nodes), AVRM_ERR_LIMIT,
 * AVRM_ERR_NOMEM; *out is untouched on error. ctx (may be NULL) gets the
 * out-of-line bytes in stats.hier_bytes. */
avrm_status_t avrm_hier_build(avrm_ctx_t *ctx, uint32_t n, uint32_t my_rank, uint32_t max_nodes,
                              avrm_node_of_fn node_of, void *arg, avrm_hier_t *out);

/* The hierarchy of a communicator with the same ranks in the same order (a
 * dup): *out = *src, the out-of-line words shared (a reference count in
 * the 8 bytes before them, atomic: dups of dups may run in two threads).
 * O(1), never fails, nothing counted again in stats.hier_bytes. */
void avrm_hier_dup(const avrm_hier_t *src, avrm_hier_t *out);

/* Drops this descriptor's reference to its out-of-line words (freed, and
 * uncounted from stats.hier_bytes, with the last); leaves form NONE. Same
 * ctx as the build. */
void avrm_hier_release(avrm_ctx_t *ctx, avrm_hier_t *h);

/* Out-of-line bytes of this descriptor (shared with its dups; the 8-byte
 * reference count before them is not included). */
size_t avrm_hier_bytes(const avrm_hier_t *h);

/* Node-consecutive: each node's ranks are one run (BLOCK or RUNS). */
static inline int avrm_hier_is_consecutive(const avrm_hier_t *h)
{
    return h->form == AVRM_HIER_BLOCK || h->form == AVRM_HIER_RUNS;
}

/* Index of the run of r in starts[0..nnodes] (RUNS): O(log nnodes). */
static inline uint32_t avrm_hier__run_of(const avrm_hier_t *h, uint32_t r)
{
    uint32_t lo = 0, hi = h->nnodes;         /* starts[lo] <= r < starts[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (h->words[mid] <= r) lo = mid; else hi = mid;
    }
    return lo;
}

/* Internode rank of r (r < size): index of its node. */
static inline uint32_t avrm_hier_internode(const avrm_hier_t *h, uint32_t r)
{
    switch (h->form) {
    case AVRM_HIER_BLOCK:  return r / h->q;
    case AVRM_HIER_CYCLIC: return r % h->nnodes;
    case AVRM_HIER_RUNS:   return avrm_hier__run_of(h, r);
    case AVRM_HIER_TABLE: {
        const void *x = h->words + h->local_size + h->nnodes;
        return h->width == 2 ? ((const uint16_t *) x)[r] : ((const uint32_t *) x)[r];
    }
    default:               return r;
    }
}

/* BLOCK and RUNS only: this node's ranks are the local_size consecutive
 * ones from this one. (Inside a switch on the form the test folds away.) */
static inline uint32_t avrm__hier_run_first(const avrm_hier_t *h)
{
    return h->form == AVRM_HIER_BLOCK ? h->my_node * h->q : h->words[h->my_node];
}

/* Intranode rank of r, a rank known to be on this process's node (the
 * shared-memory send path asks only about such ranks): a subtraction for
 * BLOCK and RUNS, a division for CYCLIC, O(log local_size) for TABLE. */
static inline uint32_t avrm_hier_local_index(const avrm_hier_t *h, uint32_t r)
{
    switch (h->form) {
    case AVRM_HIER_BLOCK:  return r - avrm__hier_run_first(h);
    case AVRM_HIER_CYCLIC: return r / h->nnodes;
    case AVRM_HIER_RUNS:   return r - avrm__hier_run_first(h);
    case AVRM_HIER_TABLE: {                   /* local[] is sorted */
        uint32_t lo = 0, hi = h->local_size;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (h->words[mid] < r) lo = mid + 1; else hi = mid;
        }
        return lo;
    }
    default:               return 0;          /* NONE: r is this process */
    }
}

/* Intranode rank of r on this process's node, -1 when r is elsewhere.
 * BLOCK and RUNS: this node's ranks are the local_size consecutive ones from
 * its first, so one range test answers both (no division, no search; the
 * shared-memory RMA path asks it per operation). */
static inline __attribute__((always_inline)) int32_t avrm_hier_intranode(const avrm_hier_t *h,
                                                                         uint32_t r)
{
    uint32_t d;
    switch (h->form) {
    case AVRM_HIER_BLOCK:
        d = r - avrm__hier_run_first(h);
        return d < h->local_size ? (int32_t) d : -1;
    case AVRM_HIER_RUNS:
        d = r - avrm__hier_run_first(h);
        return d < h->local_size ? (int32_t) d : -1;
    case AVRM_HIER_NONE:
        return h->my_node == r ? 0 : -1;
    default:                                   /* CYCLIC, TABLE */
        if (avrm_hier_internode(h, r) != h->my_node)
            return -1;
        return (int32_t) avrm_hier_local_index(h, r);
    }
}

/* Rank of this node's member i (i < local_size), ascending in i. */
static inline uint32_t avrm_hier_local_member(const avrm_hier_t *h, uint32_t i)
{
    switch (h->form) {
    case AVRM_HIER_BLOCK:  return h->my_node * h->q + i;
    case AVRM_HIER_CYCLIC: return h->my_node + i * h->nnodes;
    case AVRM_HIER_RUNS:   return h->words[h->my_node] + i;
    case AVRM_HIER_TABLE:  return h->words[i];
    default:               return h->my_node;
    }
}

/* This node's first rank when its ranks are consecutive, else -1: a local
 * rank r's local index is then r - first (what avrm_hier_local_index
 * answers, without the switch). O(1). */
static inline int64_t avrm_hier_local_first(const avrm_hier_t *h)
{
    switch (h->form) {
    case AVRM_HIER_BLOCK:
    case AVRM_HIER_RUNS:   return avrm__hier_run_first(h);
    case AVRM_HIER_TABLE:                      /* local[] is sorted */
        return h->words[h->local_size - 1] - h->words[0] == h->local_size - 1 ? (int64_t) h->words[0] : -1;
    case AVRM_HIER_CYCLIC: return h->local_size == 1 ? (int64_t) h->my_node : -1;
    default:               return h->my_node;  /* NONE: this process alone */
    }
}

/* Rank of node e's leader, its lowest rank (e < nnodes). */
static inline uint32_t avrm_hier_leader(const avrm_hier_t *h, uint32_t e)
{
    switch (h->form) {
    case AVRM_HIER_BLOCK:  return e * h->q;
    case AVRM_HIER_CYCLIC: return e;
    case AVRM_HIER_RUNS:   return h->words[e];
    case AVRM_HIER_TABLE:  return h->words[h->local_size + e];
    default:               return e;
    }
}

const char *avrm_hier_form_name(avrm_hier_form_t form);

#endif /* AVRM_HIER_H */
