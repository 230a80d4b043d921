/*
 * heap.h -- Grundy values of take-and-break heap games and Grundy's game (heap.c), in plain C
 * (no Python.h).  hp_extend extends a computed prefix g[0..start) to g[0..stop), so that
 * callers can run long computations in chunks and resume them; the sparse space it uses is
 * sparse.h's.  Status codes and nc_poll come from nimcore.h.
 */
#ifndef NIMBERS_HEAP_H
#define NIMBERS_HEAP_H

#include "nimcore.h"

enum { HP_AUTO = 0, HP_EXACT = 1, HP_SPARSE = 2 }; /* methods */
#define HP_MASK_AUTO 0xffffffffu

/* A heap game and how to compute it.  rules[k] (k < nrules) is the set of heap counts
 * (bit j: j non-empty heaps, j <= 3) allowed after removing k tokens; rules[0] must not allow
 * one heap (a null move); rules == NULL is Grundy's game (split into two unequal heaps).
 * width: bytes per stored value (1, 2 or 4).  method: HP_AUTO picks the cheaper method
 * position by position.  mask: the sparse-space mask over the extended values
 * 2 g(i) + (i mod 2), or HP_MASK_AUTO.  poll may be NULL. */
typedef struct {
    const unsigned *rules;
    size_t nrules;
    int width;
    int method;
    uint32_t mask;
    const nc_poll *poll;
} hp_config;

/* What a run used: the last mask (0: none) and its number of rare positions, the positions
 * settled by each method, and how often the mask was re-chosen. */
typedef struct {
    uint32_t mask;
    size_t rare;
    size_t sparse_positions, exact_positions, mask_changes;
} hp_report;

/* Extends the values g[0..start) to g[0..stop) (g holds cfg->width bytes per value).
 * NC_OK, NC_NOMEM, NC_STOPPED or NC_BADARG (a bad width, or a value of 2^24 or more: beyond
 * the engine's tables); *reached is the number of values known, below stop on NC_OK when
 * the next value does not fit the width.  report may be NULL. */
int hp_extend(const hp_config *cfg, void *g, size_t start, size_t stop, size_t *reached,
              hp_report *report);

/* A rule proving a period p with pre-period n0 from n values: a * max(n0, floor) + b * p + c
 * <= n.  Guy-Smith for moves leaving at most two heaps: (2, 2, t, 1), t the most tokens a move
 * removes; the window argument for subtraction games: (1, 1, t, 0). */
typedef struct {
    size_t a, b, c, floor;
} hp_period_rule;

/* The least p <= pmax for which g[i + p] == g[i] from the pre-period *preperiod to the end of
 * g[0..n) and the rule holds; 0 when there is none.  g holds width bytes per value. */
size_t hp_first_period(const void *g, int width, size_t n, size_t pmax,
                       const hp_period_rule *rule, size_t *preperiod);

#endif
