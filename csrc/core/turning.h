/*
 * turning.h -- Grundy values of structured coin-turning games (turning.c), in plain C (no
 * Python.h).  tg_values extends a computed prefix g[0..start) to g[0..stop), so that callers
 * can run long computations in chunks and resume them.  Status codes and nc_poll come from
 * nimcore.h.
 */
#ifndef NIMBERS_TURNING_H
#define NIMBERS_TURNING_H

#include "nimcore.h"

enum { TG_CONSECUTIVE = 0, TG_PROGRESSION = 1 };
/* Extends the Grundy values g[0..start) of a coin-turning game to g[0..stop): a move turns
 * between lo and hi coins (hi may be SIZE_MAX) ending at the head x, either consecutive or
 * in arithmetic progression.  NC_OK, NC_NOMEM or NC_STOPPED. */
int tg_values(int family, size_t lo, size_t hi, uint64_t *g, size_t start, size_t stop,
              const nc_poll *poll);

#endif
