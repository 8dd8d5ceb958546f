/*
 * avrm_ctx.h - per-process state of the core: the address vectors of every
 * process group, build parameters, accounting and the table-sharing index.
 *
 * Thread safety: one writer, any number of lock-free readers. Every call that
 * changes the context (AV insert/remove, map build/release) must be
 * serialized by the caller (MPICH holds its global/comm-creation lock).
 * Lookups (avrm_lookup.h) only read and may run concurrently with each other,
 * and with writers as long as the writer does not remove an AV or release a
 * map that a reader is using.
 *
 * Cost: create O(1); destroy O(#AVs + #tables).
 */
#ifndef AVRM_CTX_H
#define AVRM_CTX_H

#include "avrm_types.h"

/* Candidate virtual grids of the world for GRID detection. */
typedef struct avrm_grid {
    uint8_t  ndims;
    uint32_t dims[AVRM_MAX_GRID_DIMS];   /* row-major; product == world size */
} avrm_grid_t;

#define AVRM_MAX_GRIDS 8

typedef struct avrm_ctx {
    /* read by the hot path (avrm_lookup.h): AV of group g is avs[g], NULL
     * when g is free. avrm_av_create may replace the array by a larger one
     * (release store); the old one stays valid until avrm_ctx_destroy, so
     * a reader that loaded it is never left with freed memory. Readers
     * load it with avrm_ctx_av (acquire), never plainly. Rank maps
     * never cache it, only single AVs' entry arrays, which never move. */
    avrm_av_t   **avs;
    uint32_t      navs;           /* slots in avs */
    /* everything below is for the slow path only */
    avrm_params_t params;
    avrm_stats_t  stats;
    uint32_t      world_size;     /* size of AV 0 once created */
    uint32_t      ngrids;
    avrm_grid_t   grids[AVRM_MAX_GRIDS];
    struct avrm_index *index;     /* content-sharing index (share_by_content) */
    struct avrm_table *tables;    /* every live table, so that destroy frees them */
    /* the entry array of group g < AVRM_MLUT32_MAX_PGS, NULL when g has no
     * AV or a computed one: what the MLUT32 class reads through its maps
     * (u.lut.ents_of points here), so that the hot path needs no ctx.
     * Written with the AV (create, make_stored, destroy: relaxed stores),
     * read relaxed; 2 KB, never moves. */
    const avrm_ave_t *ents_of[AVRM_MLUT32_MAX_PGS];
} avrm_ctx_t;

/* The AV of group g (NULL when g is free; g < navs), as a lock-free reader
 * must read it: ctx->avs loaded with acquire, pairing with the release store
 * of avrm_av_create that publishes a grown array, so that the slots copied
 * into it are seen. A plain load of ctx->avs while a writer may grow it is
 * a data race (ThreadSanitizer reports it: test/unit/tsan.sh). On x86 the
 * acquire load is the same one mov. O(1). */
static inline avrm_av_t *avrm_ctx_av(const avrm_ctx_t *ctx, uint32_t g)
{
    return __atomic_load_n(&ctx->avs, __ATOMIC_ACQUIRE)[g];
}

/* The allocator of every libavrm allocation, process-wide; libc's by
 * default (avrm_set_allocator(NULL)). Set it before the first context is
 * created and leave it while one exists: a block is freed by the allocator
 * that made it. MPICH's glue passes MPL's, so that MPICH's memory tracing
 * (--enable-g=mem) sees libavrm's blocks too. Not thread-safe; O(1). */
typedef struct avrm_allocator {
    void *(*malloc_fn)(size_t bytes);
    void *(*realloc_fn)(void *p, size_t bytes);
    void  (*free_fn)(void *p);
} avrm_allocator_t;
void avrm_set_allocator(const avrm_allocator_t *a);

/* Default parameters: every pattern and table-sharing on, computed AV off. */
avrm_params_t avrm_params_default(void);

/* Create a context. On success *out is set. Errors: AVRM_ERR_NOMEM. */
avrm_status_t avrm_ctx_create(const avrm_params_t *params, avrm_ctx_t **out);

/* Destroy: frees AVs, tables still referenced and the index. Maps that still
 * point into it become invalid. NULL is a no-op. */
void avrm_ctx_destroy(avrm_ctx_t *ctx);

/* Declare a virtual grid of the world (e.g. an MPI_Cart_create grid) for
 * GRID detection. Grids whose product differs from the world size are
 * refused with AVRM_ERR_ARG. When the world AV is created, the core adds
 * MPI_Dims_create-style factorizations for 2, 3 and 4 dims by itself.
 * Cost O(1). */
avrm_status_t avrm_ctx_add_grid(avrm_ctx_t *ctx, uint8_t ndims, const uint32_t *dims);

/* Snapshot of the accounting. Cost O(1). */
void avrm_ctx_stats(const avrm_ctx_t *ctx, avrm_stats_t *out);

#endif /* AVRM_CTX_H */
