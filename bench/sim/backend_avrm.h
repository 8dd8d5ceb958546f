/* backend_avrm.h - libavrm as a simulator back end (bench/sim/sim.h). */
#ifndef BACKEND_AVRM_H
#define BACKEND_AVRM_H
#include "sim.h"
#include "avrm/avrm.h"

/* Beyond-paper features a back end can switch off (ablation). MLUT32 has no
 * parameter: the core packs (pgid, lpid) in 4 bytes whenever the context has
 * at most AVRM_MLUT32_MAX_PGS group slots, so "no mlut32" creates a one-peer
 * AV at pgid 256 next to the world (the 8-byte MLUT of the paper is then
 * chosen) and leaves that AV's bytes out of the report. */
enum {
    FEAT_EXCEPT = 1, FEAT_GRID = 2, FEAT_LUT16 = 4, FEAT_MSEG = 8, FEAT_MLUT32 = 16,
    FEAT_SHARE = 32, FEAT_ILUT = 64, FEAT_ALL = 127
};

enum { OURS_STORED, OURS_COMPUTED, OURS_PAPER, OURS_NOSHARE };
/* variant: OURS_STORED (default params), OURS_COMPUTED (computed world AV),
 * OURS_PAPER (paper modes only: every FEAT_* off),
 * OURS_NOSHARE (default params, share_by_content off) */
sim_backend_t *avrm_backend_new(int variant);
/* default params (stored AV) with the features in `off` switched off; named
 * "ours-no<feat>[-no<feat>...]" (FEAT_ALL: "ours-paper-modes") */
sim_backend_t *avrm_backend_ablate(unsigned off);
void avrm_bench_mode_counts(sim_backend_t *b, size_t counts[AVRM_MODE_COUNT]);
#endif
