/* avrm_hier.c - building the node hierarchy descriptor (see avrm_hier.h). */
#include "avrm/avrm_hier.h"
#include "avrm_alloc.h"

const char *avrm_hier_form_name(avrm_hier_form_t form)
{
    static const char *const names[AVRM_HIER_FORM_COUNT] = {
        "none", "block", "cyclic", "runs", "table"
    };
    return form < AVRM_HIER_FORM_COUNT ? names[form] : "?";
}

size_t avrm_hier_bytes(const avrm_hier_t *h)
{
    switch (h->form) {
    case AVRM_HIER_RUNS:  return ((size_t) h->nnodes + 1) * 4;
    case AVRM_HIER_TABLE: return ((size_t) h->local_size + h->nnodes) * 4 +
                                 (size_t) h->size * h->width;
    default:              return 0;
    }
}

/* Out-of-line words with a reference count in the 8 bytes before them
 * (avrm_hier_dup shares them). */
static uint32_t *words_alloc(size_t bytes)
{
    uint64_t *p = avrm__malloc(sizeof(uint64_t) + bytes);
    if (!p) return NULL;
    *p = 1;
    return (uint32_t *) (p + 1);
}

static uint64_t *words_refs(const uint32_t *w)
{
    return (uint64_t *) (uintptr_t) w - 1;
}

/* One rank per node, nothing known: what MPICH does without node ids. */
static void hier_none(uint32_t n, uint32_t my_rank, avrm_hier_t *out)
{
    *out = (avrm_hier_t) { .form = AVRM_HIER_NONE, .size = n, .nnodes = n,
                           .my_node = my_rank, .local_size = 1 };
}

/* First pass: node index of every rank in order of first appearance
 * (node_idx[id] = index + 1, 0 while unseen), and which closed form holds
 * for every rank. */
typedef struct hier_scan {
    uint32_t nn, q, period, local_size, my_node;
    uint8_t  block_ok, cyclic_ok, runs_ok, unknown;
} hier_scan_t;

static avrm_status_t hier_scan(uint32_t n, int32_t my_id, uint32_t max_nodes,
                               avrm_node_of_fn node_of, void *arg, uint32_t *node_idx,
                               hier_scan_t *s)
{
    *s = (hier_scan_t) { .block_ok = 1, .cyclic_ok = 1, .runs_ok = 1 };
    uint32_t prev = 0;
    for (uint32_t r = 0; r < n; r++) {
        int32_t id = node_of(arg, r);
        if (id < 0) {
            s->unknown = 1;
            return AVRM_OK;
        }
        if ((uint32_t) id >= max_nodes)
            return AVRM_ERR_ARG;
        int fresh = node_idx[id] == 0;
        if (fresh)
            node_idx[id] = ++s->nn;
        uint32_t x = node_idx[id] - 1;
        if (id == my_id)
            s->local_size++;
        /* RUNS: a rank is on the previous rank's node or on a new one */
        if (r > 0 && x != prev && !fresh)
            s->runs_ok = 0;
        prev = x;
        /* BLOCK: the first change of node fixes q, then x == r / q */
        if (s->q == 0 && x != 0)
            s->q = r;
        if (s->q != 0 && x != r / s->q)
            s->block_ok = 0;
        /* CYCLIC: new nodes 0, 1, ... until node 0 comes back at r = period */
        if (s->period == 0 && r > 0 && x == 0)
            s->period = r;
        if (s->period != 0 ? x != r % s->period : x != r)
            s->cyclic_ok = 0;
    }
    s->my_node = node_idx[my_id] - 1;
    return AVRM_OK;
}

avrm_status_t avrm_hier_build(avrm_ctx_t *ctx, uint32_t n, uint32_t my_rank, uint32_t max_nodes,
                              avrm_node_of_fn node_of, void *arg, avrm_hier_t *out)
{
    if (n > AVRM_MAX_WORLD)
        return AVRM_ERR_LIMIT;
    if (n == 0 || my_rank >= n || max_nodes == 0 || !node_of || !out)
        return AVRM_ERR_ARG;
    int32_t my_id = node_of(arg, my_rank);
    if (my_id < 0) {
        hier_none(n, my_rank, out);
        return AVRM_OK;
    }
    if ((uint32_t) my_id >= max_nodes)
        return AVRM_ERR_ARG;

    uint32_t *node_idx = avrm__calloc(max_nodes, sizeof(uint32_t));
    if (!node_idx)
        return AVRM_ERR_NOMEM;
    hier_scan_t s;
    avrm_status_t st = hier_scan(n, my_id, max_nodes, node_of, arg, node_idx, &s);
    if (st != AVRM_OK || s.unknown) {
        avrm__free(node_idx);
        if (st == AVRM_OK)
            hier_none(n, my_rank, out);
        return st;
    }

    avrm_hier_t h = { .size = n, .nnodes = s.nn, .my_node = s.my_node,
                      .local_size = s.local_size };
    if (s.block_ok) {
        h.form = AVRM_HIER_BLOCK;
        h.q = s.q ? s.q : n;
    } else if (s.cyclic_ok) {
        h.form = AVRM_HIER_CYCLIC;
    } else {
        h.form = s.runs_ok ? AVRM_HIER_RUNS : AVRM_HIER_TABLE;
        h.width = s.nn <= 65536 ? 2 : 4;
        uint32_t *w = words_alloc(avrm_hier_bytes(&h));
        if (!w) {
            avrm__free(node_idx);
            return AVRM_ERR_NOMEM;
        }
        /* second pass: node indices are in node_idx since the first */
        uint32_t *local = w, *leader = w + h.local_size, next = 0, nlocal = 0;
        uint16_t *x16 = (uint16_t *) (leader + h.nnodes);
        uint32_t *x32 = leader + h.nnodes;
        for (uint32_t r = 0; r < n; r++) {
            uint32_t x = node_idx[node_of(arg, r)] - 1;
            if (h.form == AVRM_HIER_RUNS) {
                if (x == next)
                    w[next++] = r;
                continue;
            }
            if (x == next)
                leader[next++] = r;
            if (x == h.my_node)
                local[nlocal++] = r;
            if (h.width == 2) x16[r] = (uint16_t) x; else x32[r] = x;
        }
        if (h.form == AVRM_HIER_RUNS)
            w[h.nnodes] = n;
        h.words = w;
        if (ctx)                /* relaxed atomic: a release may run in another thread */
            __atomic_fetch_add(&ctx->stats.hier_bytes, avrm_hier_bytes(&h), __ATOMIC_RELAXED);
    }
    avrm__free(node_idx);
    *out = h;
    return AVRM_OK;
}

void avrm_hier_dup(const avrm_hier_t *src, avrm_hier_t *out)
{
    *out = *src;
    if (src->words)
        __atomic_fetch_add(words_refs(src->words), 1, __ATOMIC_RELAXED);
}

void avrm_hier_release(avrm_ctx_t *ctx, avrm_hier_t *h)
{
    if (h->words && __atomic_sub_fetch(words_refs(h->words), 1, __ATOMIC_ACQ_REL) == 0) {
        if (ctx)
            __atomic_fetch_sub(&ctx->stats.hier_bytes, avrm_hier_bytes(h), __ATOMIC_RELAXED);
        avrm__free(words_refs(h->words));
    }
    hier_none(1, 0, h);
}
