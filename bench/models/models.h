/*
 * models.h - MODELs of other MPI implementations' address and rank-map
 * memory, driven by the same event stream as libavrm (bench/sim/sim.h).
 * These are accounting models written from the published layouts
 * (/work/shared/ANCHORS.md and the AV-Rankmap paper); they allocate no
 * O(n) memory and every output row they produce is labelled MODEL.
 *
 *   vc      MPICH 3.2 CH3 (the paper's baseline): 480 B VC per peer of every
 *           process group; 4 B/rank VCRT per communicator, shared only by
 *           map dups (MPI_Comm_dup, intercomm local group, local comm).
 *   ch4     MPICH 4.0.2 CH4: 72 B AV entry per peer; rank-map modes
 *           direct/offset/stride/stride-block (regular, no array),
 *           lut 4 B/rank, mlut 8 B/rank; detection on the mapping array and
 *           again on the final LUT (so the final gpids decide regularity);
 *           dups share the table; a contiguous sub-range of a lut/mlut
 *           parent shares a slice; an mlut whose ranks are all in one group
 *           is converted to a new lut.
 *   main    MPICH main: 32 B entry per peer; map is offset+stride (stride
 *           may be negative) or an 8 B/rank array (built in full, then
 *           scanned); dups share; no slices.
 * Categories: av_entries = per-peer entries; maps = per-comm map struct
 * (vc 8 B VCRT pointer, ch4 40 B MPIDI_rank_map_t, main 24 B); meta =
 * table headers (16 B each); tables = unique VCRT/LUT/MLUT/map arrays;
 * shared_avoided = table bytes that sharing avoided.
 * Beyond the address layer: hier = communicators' intranode and internode
 * tables; node_map = the process's node map and shm local ranks (models.c
 * says per model what is kept).
 */
#ifndef BENCH_MODELS_H
#define BENCH_MODELS_H
#include "../sim/sim.h"

enum model_kind { MODEL_VC, MODEL_CH4, MODEL_MAIN };
sim_backend_t *model_backend_new(int kind);

#endif
