/* backend_avrm.h - libavrm as a simulator back end (bench/sim/sim.h). */
#ifndef BACKEND_AVRM_H
#define BACKEND_AVRM_H
#include "sim.h"
#include "avrm/avrm.h"

enum { OURS_STORED, OURS_COMPUTED, OURS_PAPER };
/* variant: OURS_STORED (default params), OURS_COMPUTED (computed world AV),
 * OURS_PAPER (paper modes only: except/grid/lut16/mseg/share_by_content off) */
sim_backend_t *avrm_backend_new(int variant);
void avrm_bench_mode_counts(sim_backend_t *b, size_t counts[AVRM_MODE_COUNT]);
#endif
