/*
 * avrm_detect.h - pattern detection over integer sequences (private).
 *
 * A pattern (avrm_pat_t) describes a sequence x[0..n) exactly:
 *   OFFSET  x[i] = off + i
 *   STRIDE  x[i] = off + i * stride
 *   BLOCK   x[i] = off + (i / bs) * stride + i % bs
 *   EXCEPT  STRIDE except x[ex_rank[k]] = ex_lpid[k], k < nex (<= 2)
 *   GRID    x[i] = off + sum_d c_d * ws[d], i = row-major index of (c_0..c_{nd-1})
 *           over extents ext[] (last dim fastest; c_0 unbounded)
 *   LUT     none of the above (kind IRREG)
 * Every detector verifies every element: a pattern is never guessed.
 *
 * 1. avrm_det_*: streaming, one pass, O(1) state, no random access: offset,
 *    stride, block. Used on mapping arrays and on virtual lpid sequences.
 * 2. avrm_detect_grid / avrm_detect_except: random access on a materialized
 *    array (uint32 or uint16), O(n) time (except: <= 10 early-exit passes).
 *
 * Thread safety: pure functions on caller data.
 */
#ifndef AVRM_DETECT_H
#define AVRM_DETECT_H

#include "avrm/avrm_types.h"

#define AVRM_PAT_IRREG AVRM_MODE_LUT

typedef struct avrm_pat {
    uint8_t  kind;                  /* avrm_mode_t: OFFSET..GRID, or AVRM_PAT_IRREG */
    uint8_t  ndims;                 /* GRID dims; EXCEPT: number of exceptions */
    uint32_t bs;                    /* BLOCK */
    int64_t  off, stride;           /* OFFSET/STRIDE/BLOCK/EXCEPT; GRID: off = base */
    uint32_t ex_rank[2];
    uint32_t ex_lpid[2];
    uint32_t ext[AVRM_MAX_GRID_DIMS];
    int64_t  ws[AVRM_MAX_GRID_DIMS];
} avrm_pat_t;

/* Streaming detector of offset/stride/block. */
typedef struct avrm_det {
    uint32_t n, bs, pos;
    uint8_t  stride_ok, block_ok;
    int64_t  v0, prev, d, bstride, rowbase;
} avrm_det_t;

static inline void avrm_det_init(avrm_det_t *s)
{
    *s = (avrm_det_t) { .stride_ok = 1, .block_ok = 1 };
}

/* Nothing regular can come out any more: callers may stop pushing. */
static inline int avrm_det_dead(const avrm_det_t *s)
{
    return !s->stride_ok && !s->block_ok;
}

static inline void avrm_det_push(avrm_det_t *s, int64_t v)
{
    uint32_t i = s->n++;
    if (i == 0) {
        s->v0 = s->prev = v;
        return;
    }
    int64_t inc = v - s->prev;
    s->prev = v;
    if (i == 1) {
        s->d = inc;
        s->block_ok = (inc == 1);
        return;
    }
    if (inc != s->d) s->stride_ok = 0;
    if (!s->block_ok) return;
    if (s->bs == 0) {
        if (inc != 1) {                 /* first block ends at i */
            s->bs = i;
            s->bstride = v - s->v0;
            s->rowbase = v;
            s->pos = 0;
        }
        return;
    }
    if (++s->pos == s->bs) {
        s->pos = 0;
        s->rowbase += s->bstride;
    }
    if (v != s->rowbase + s->pos) s->block_ok = 0;
}

/* Result of the pushed sequence (n >= 1). */
void avrm_det_result(const avrm_det_t *s, avrm_pat_t *p);

/* Read-only view of a materialized sequence: width 4 (uint32) or 2 (uint16). */
typedef struct avrm_seqv {
    const void *v;
    uint32_t n;
    uint8_t width;
} avrm_seqv_t;

static inline int64_t avrm_seqv_at(const avrm_seqv_t *s, uint32_t i)
{
    return s->width == 2 ? (int64_t) ((const uint16_t *) s->v)[i]
                         : (int64_t) ((const uint32_t *) s->v)[i];
}

/* Offset/stride/block over a view (streaming detector). */
void avrm_detect_regular(const avrm_seqv_t *s, avrm_pat_t *p);

/* Nested strides of up to AVRM_MAX_GRID_DIMS levels (includes offset,
 * stride and block as 1-2 levels; caller normalizes). 1 if found. */
int avrm_detect_grid(const avrm_seqv_t *s, avrm_pat_t *p);

/* Stride with 1 or 2 exceptions. 1 if found. */
int avrm_detect_except(const avrm_seqv_t *s, avrm_pat_t *p);

/* Normalize a pattern to its cheapest equivalent kind (DIRECT/OFFSET/STRIDE/
 * BLOCK/GRID...): merges/drops grid dims, collapses degenerate blocks. */
void avrm_pat_normalize(avrm_pat_t *p, uint32_t n);

#endif /* AVRM_DETECT_H */
