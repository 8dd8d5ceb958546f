/*
 * ch4build.h - MODEL of MPICH 4.0.2 CH4's rank-map builder (ch4i_comm.c's
 * MPIDI_comm_create_rank_map and MPID_Create_intercomm_from_lpids), for the
 * build time of bench-simbuild. Written from the algorithm's description
 * (/work/shared/CH4-SURFACE.md and the stock tree, read, not copied): it
 * does the same passes over the same kinds of arrays, with its own code.
 *
 * Unlike models.c it builds and keeps the tables, as stock does (O(n)
 * memory per table map), so that the time of every pass is real:
 *   one mapper (split, create, node comms): detect offset/stride/block on
 *     the mapping array; compose with a regular parent in O(1), else fill
 *     a LUT (8 B header + 4 B/rank, malloc) through the parent's mode
 *     switch, or an MLUT (8 B/rank) from an MLUT parent; a contiguous
 *     range of a LUT/MLUT parent is a slice (reference);
 *   dup: a reference;
 *   merge (several mappers): an MLUT filled from each parent;
 *   intercomm from gpids: an MLUT from the gpid array;
 *   then (every build): an MLUT of one group becomes a new LUT (copy), and
 *     a LUT whose content is regular is freed (detection on the LUT).
 * Labelled MODEL; its report() gives the bytes it holds (tables with
 * headers, 40 B per map) as a cross-check of MODEL-ch4-4.0.2's accounting.
 */
#ifndef BENCH_CH4BUILD_H
#define BENCH_CH4BUILD_H
#include "../sim/sim.h"

sim_backend_t *ch4build_backend_new(void);

#endif
