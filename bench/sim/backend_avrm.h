/* backend_avrm.h - libavrm as a simulator back end (bench/sim/sim.h). */
#ifndef BACKEND_AVRM_H
#define BACKEND_AVRM_H
#include "sim.h"
#include "avrm/avrm.h"

/* Beyond-paper features a back end can switch off (ablation). MLUT32 has no
 * parameter: the core packs (pgid, lpid) in 4 bytes whenever the map's own
 * largest pgid is below AVRM_MLUT32_MAX_PGS (256), so "no mlut32" gives
 * every dynamic group pgid 255 + its simulator pgid (the world stays 0):
 * every multi-group table is then the paper's 8-byte MLUT. The AV pointer
 * slots this adds (about 2 KB) are left out of the report. JOIN has no
 * parameter either: it is MSEG's two-run case (FEAT_MSEG switches both). */
enum {
    FEAT_EXCEPT = 1, FEAT_GRID = 2, FEAT_LUT16 = 4, FEAT_MSEG = 8, FEAT_MLUT32 = 16,
    FEAT_SHARE = 32, FEAT_ILUT = 64, FEAT_ALL = 127
};

enum { OURS_STORED, OURS_COMPUTED, OURS_PAPER, OURS_NOSHARE, OURS_ONDEMAND };
/* variant: OURS_STORED (default params), OURS_COMPUTED (computed world AV),
 * OURS_ONDEMAND (on-demand addressing: the world AV sparse, a peer's word
 * written at its first contact, sim_contact),
 * OURS_PAPER (paper modes only: every FEAT_* off),
 * OURS_NOSHARE (default params, share_by_content off) */
sim_backend_t *avrm_backend_new(int variant);
/* default params (stored AV) with the features in `off` switched off; named
 * "ours-no<feat>[-no<feat>...]" (FEAT_ALL: "ours-paper-modes") */
sim_backend_t *avrm_backend_ablate(unsigned off);
void avrm_bench_mode_counts(sim_backend_t *b, size_t counts[AVRM_MODE_COUNT]);
/* the context's accounting as libavrm gives it (what MPICH's pvars read) */
void avrm_bench_stats(sim_backend_t *b, avrm_stats_t *st);
/* bytes of the process's node map (MPICH's pvar avrm_node_map_bytes) */
size_t avrm_bench_node_map_bytes(sim_backend_t *b);
#endif
