/*
 * avrm.h - AV-Rankmap core library (libavrm): umbrella header.
 * Levels: avrm_types.h (types), avrm_ctx.h (context), avrm_av.h (address
 * vectors), avrm_lookup.h (inline fast path), avrm_rankmap.h (builder), avrm_hier.h (node
 * hierarchy of a communicator), avrm_find.h (process -> rank: groups).
 * Plain C11; no MPI or libfabric header is included anywhere in libavrm.
 */
#ifndef AVRM_H
#define AVRM_H
#include "avrm_types.h"
#include "avrm_ctx.h"
#include "avrm_av.h"
#include "avrm_lookup.h"
#include "avrm_rankmap.h"
#include "avrm_hier.h"
#include "avrm_find.h"
#endif
