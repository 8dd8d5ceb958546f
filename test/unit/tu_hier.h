/*
 * tu_hier.h - the reference for node hierarchies (avrm_hier.h): stock
 * MPICH's intranode/internode tables and member lists, rebuilt here the way
 * MPIR_Find_local/MPIR_Find_external build them, the form that describes
 * them by definition, and a checker counting every answer of a hierarchy
 * that differs. For test_hier.c and the fuzz target.
 */
#ifndef TU_HIER_H
#define TU_HIER_H

#include "tu.h"

/* node id of every rank of a communicator (< 0: unknown) */
typedef struct tu_place {
    uint32_t n, max_nodes;
    int32_t *node;
} tu_place_t;

static inline int32_t tu_node_of(void *arg, uint32_t r)
{
    return ((tu_place_t *) arg)->node[r];
}

typedef struct tu_href {
    int32_t *intra, *inter;
    uint32_t *local, *leader, nlocal, nnodes, my_node;
    int form;               /* avrm_hier_form_t by definition */
    size_t bytes;           /* out-of-line bytes of that form */
} tu_href_t;

static inline void tu_href_build(const tu_place_t *p, uint32_t me, tu_href_t *f)
{
    int32_t *idx = malloc(sizeof(int32_t) * p->max_nodes);
    f->intra = malloc(sizeof(int32_t) * p->n);
    f->inter = malloc(sizeof(int32_t) * p->n);
    f->local = malloc(sizeof(uint32_t) * p->n);
    f->leader = malloc(sizeof(uint32_t) * p->n);
    f->nlocal = f->nnodes = 0;
    for (uint32_t i = 0; i < p->max_nodes; i++)
        idx[i] = -1;
    for (uint32_t r = 0; r < p->n; r++) {
        f->intra[r] = -1;
        if (p->node[r] == p->node[me])
            f->intra[r] = (int32_t) f->nlocal, f->local[f->nlocal++] = r;
        if (idx[p->node[r]] < 0)
            idx[p->node[r]] = (int32_t) f->nnodes, f->leader[f->nnodes++] = r;
        f->inter[r] = idx[p->node[r]];
    }
    f->my_node = (uint32_t) f->inter[me];
    free(idx);
    /* block: x = r / q (q = first change), cyclic: x = r % nnodes with
     * nnodes < n, runs: x steps by 0 or 1, table otherwise */
    uint32_t q = p->n;
    for (uint32_t r = 1; r < p->n; r++)
        if (f->inter[r] != f->inter[r - 1]) { q = r; break; }
    int block = 1, cyclic = f->nnodes < p->n, runs = 1;
    for (uint32_t r = 0; r < p->n; r++) {
        block &= (uint32_t) f->inter[r] == r / q;
        cyclic &= (uint32_t) f->inter[r] == r % f->nnodes;
        if (r > 0)
            runs &= f->inter[r] == f->inter[r - 1] || f->inter[r] == f->inter[r - 1] + 1;
    }
    f->form = block ? AVRM_HIER_BLOCK : cyclic ? AVRM_HIER_CYCLIC : runs ? AVRM_HIER_RUNS
                                                                      : AVRM_HIER_TABLE;
    f->bytes = f->form == AVRM_HIER_RUNS ? (f->nnodes + 1) * 4u
             : f->form == AVRM_HIER_TABLE ? (f->nlocal + f->nnodes) * 4u +
                                            (size_t) p->n * (f->nnodes <= 65536 ? 2 : 4)
             : 0;
}

static inline void tu_href_free(tu_href_t *f)
{
    free(f->intra), free(f->inter), free(f->local), free(f->leader);
}

/* answers of h (built for process me of placement p) that differ from the
 * reference: form, bytes, sizes, every rank's intranode and internode rank,
 * the members (and each member's local index), the leaders,
 * node-consecutiveness, my node's first rank when consecutive */
static inline uint32_t tu_hier_mismatches(const avrm_hier_t *h, const tu_place_t *p, uint32_t me)
{
    tu_href_t f;
    uint32_t bad = 0;
    tu_href_build(p, me, &f);
    bad += h->form != f.form;
    bad += avrm_hier_bytes(h) != f.bytes;
    bad += h->size != p->n || h->nnodes != f.nnodes || h->my_node != f.my_node ||
           h->local_size != f.nlocal;
    if (!bad) {
        for (uint32_t r = 0; r < p->n; r++)
            bad += avrm_hier_internode(h, r) != (uint32_t) f.inter[r] ||
                   avrm_hier_intranode(h, r) != f.intra[r];
        for (uint32_t i = 0; i < f.nlocal; i++)
            bad += avrm_hier_local_member(h, i) != f.local[i] ||
                   avrm_hier_local_index(h, f.local[i]) != i;
        for (uint32_t e = 0; e < f.nnodes; e++)
            bad += avrm_hier_leader(h, e) != f.leader[e];
        bad += avrm_hier_is_consecutive(h) !=
               (f.form == AVRM_HIER_BLOCK || f.form == AVRM_HIER_RUNS);
        /* my node's first rank when its members are consecutive, else -1 */
        int64_t first = f.local[f.nlocal - 1] - f.local[0] == f.nlocal - 1 ? (int64_t) f.local[0] : -1;
        bad += avrm_hier_local_first(h) != first;
    }
    tu_href_free(&f);
    return bad;
}

#endif /* TU_HIER_H */
