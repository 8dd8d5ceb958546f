/*
 * avrm_ctxi.h - context helpers shared by the core's files (private).
 * Thread safety: writers only (see avrm_ctx.h). Costs: O(sqrt(n)) factoring.
 */
#ifndef AVRM_CTXI_H
#define AVRM_CTXI_H

#include "avrm/avrm_ctx.h"

/* MPI_Dims_create-style balanced factorization of n in ndims (<= 4) dims,
 * non-increasing. */
void avrm__dims_create(uint32_t n, unsigned ndims, uint32_t *dims);

/* Register the 2-, 3- and 4-d factorizations of ctx->world_size. */
void avrm__ctx_add_world_grids(avrm_ctx_t *ctx);

#endif /* AVRM_CTXI_H */
