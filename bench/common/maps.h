/*
 * maps.h - builds one rank map of each mode through the libavrm API, for
 * bench/lookup and bench/build. World AV (pgid 0) of n peers, stored,
 * synthetic addresses; spawned AV of n/16 peers (pgid 1) for mlut32/join/mseg.
 * The builder packs a multi-group table in 4 bytes (MLUT32) when the map's
 * own largest pgid is below AVRM_MLUT32_MAX_PGS (256), so kind `mlut` is
 * built in a world whose spawned AV has pgid 256 (bk_kind_pgid).
 */
#ifndef BENCH_MAPS_H
#define BENCH_MAPS_H
#include "avrm/avrm.h"

enum bk_kind {
    BK_DIRECT, BK_OFFSET, BK_STRIDE, BK_BLOCK, BK_EXCEPT, BK_GRID,
    BK_ILUT, BK_LUT, BK_LUT16, BK_MLUT32, BK_MLUT, BK_JOIN, BK_MSEG, BK_NKINDS
};
extern const char *const bk_kind_name[BK_NKINDS];
extern const avrm_mode_t bk_kind_mode[BK_NKINDS];   /* the mode we aim at */

typedef struct bk_world {
    avrm_ctx_t *ctx;
    uint32_t n, m;          /* world and spawned sizes */
    avrm_pgid_t pg1;        /* pgid of the spawned AV */
    avrm_rankmap_t world, spawned;
} bk_world_t;

/* computed: world AV in computed mode (else stored) */
int bk_world_init(bk_world_t *w, uint32_t n, int computed);
/* same with explicit parameters (computed_av honoured as above) */
int bk_world_init_params(bk_world_t *w, uint32_t n, const avrm_params_t *p);
/* same with the spawned AV at pgid pg1 (>= 1) */
int bk_world_init_pg(bk_world_t *w, uint32_t n, const avrm_params_t *p, avrm_pgid_t pg1);
/* pgid of the spawned AV that kind k needs: 256 for BK_MLUT, else 1 */
avrm_pgid_t bk_kind_pgid(int kind);
void bk_world_fini(bk_world_t *w);

/* Input of kind k: mapping array (single parent) or src array (two
 * parents: world, spawned). Returns the child size; *mapping or *src is
 * malloc'ed (the other NULL). */
uint32_t bk_input(const bk_world_t *w, int kind, int32_t **mapping, avrm_src_t **src);

/* Build the map of kind k from its input (timed part of bench/build). */
avrm_status_t bk_build(bk_world_t *w, int kind, const int32_t *mapping, const avrm_src_t *src,
                       uint32_t n, avrm_rankmap_t *out);

void bk_shuffle32(int32_t *p, uint32_t n, uint64_t seed);
#endif
