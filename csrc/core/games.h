/*
 * games.h -- the game engines of the C core, in plain C99 (no Python.h):
 *   heap.c     Grundy values of take-and-break heap games and Grundy's game.
 *   turning.c  Grundy values of structured coin-turning games.
 * Each extends a computed prefix g[0..start) to g[0..stop), so that callers can run long
 * computations in chunks and resume them.  Status codes and nc_poll come from nimcore.h.
 */
#ifndef NIMBERS_GAMES_H
#define NIMBERS_GAMES_H

#include "nimcore.h"

/* ---- heap.c --------------------------------------------------------------------------- */

/* Extends the Grundy values g[0..start) of a take-and-break game to g[0..stop).  rules[k]
 * (k < nrules) is the set of heap counts (bit j: j heaps, j <= 3) allowed after removing k
 * tokens; rules[0] must not allow 1 heap (a null move).  NC_OK or NC_NOMEM. */
int hp_take_break(const unsigned *rules, size_t nrules, uint32_t *g, size_t start, size_t stop);
/* The same for Grundy's game: split a heap into two unequal non-empty heaps. */
int hp_grundy_game(uint32_t *g, size_t start, size_t stop);

/* ---- turning.c ------------------------------------------------------------------------- */

enum { TG_CONSECUTIVE = 0, TG_PROGRESSION = 1 };
/* Extends the Grundy values g[0..start) of a coin-turning game to g[0..stop): a move turns
 * between lo and hi coins (hi may be SIZE_MAX) ending at the head x, either consecutive or
 * in arithmetic progression.  NC_OK, NC_NOMEM or NC_STOPPED. */
int tg_values(int family, size_t lo, size_t hi, uint64_t *g, size_t start, size_t stop,
              const nc_poll *poll);

#endif
