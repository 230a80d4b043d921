/*
 * heap.c -- Grundy values of heap games (take-and-break games and Grundy's game).
 *
 * A take-and-break code gives, for removing k tokens, a set of allowed numbers of heaps to
 * leave (bit j: exactly j non-empty heaps; CGSuite's notation, hex digits for j = 3).
 * g(n) = mex of the nim-sums of the heaps each move leaves (Sprague-Grundy).  hp_extend
 * extends a prefix g[0..start) to g[0..stop) in place; the values are stored in 1, 2 or 4
 * bytes each, and the engine stops early when a value outgrows the width.
 *
 * Two exact methods, chosen position by position from their estimated cost:
 *
 * - The sparse space (sparse.h: its classes, mask, switching rule and pair test): the marks of
 *   the splits with a rare part give a certain candidate, the least common value not found;
 *   smaller values of rare class are looked for among the other splits, a vector register of
 *   them at a time, stopping at the first hit (usually soon: see settle).  The parity term is
 *   used only when every splitting move removes a number of tokens of the same parity.
 *
 * - The plain scan, for games with many rare positions (0.04, 0.06) and the early positions
 *   of every game: mark the value of every split, take the mex.
 *
 * Moves leaving three heaps (hex digits 8 and up) use a plain scan of all splits.
 * Nothing here needs Python: long runs call the poll (nimcore.h), which may stop them.
 */
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "heap_marks.h"
#include "sparse.h"

/* PARTIAL: splits marked one by one in a chunk, SPARSE_SCALAR_PAIRS of them at most per
 * position, then STRETCH per kind of split in turn (whole blocks of the pair test);
 * POLL_WORK: comparisons between two calls of the poll (well under a millisecond);
 * RARE_COST: a rare part's cost, in splits of the plain scan. */
enum { PARTIAL = 64, SPARSE_SCALAR_PAIRS = 512, STRETCH = 4 * HP_BLOCK,
       POLL_WORK = 1 << 18, RARE_COST = 4 };

/* ---- the engine ---------------------------------------------------------------------------- */

typedef struct {
    const hp_config *cfg;
    void *g;
    int width;
    /* the moves, as lists of token counts */
    size_t *take, ntake;     /* leave one heap */
    size_t *split, nsplit;   /* leave two heaps */
    size_t *split3, nsplit3; /* leave three heaps */
    int unequal;             /* Grundy's game: the two heaps differ */
    int parity_ok;           /* every split removes a number of tokens of one parity */
    size_t split_parity;
    /* the values so far: all below 2^bits */
    unsigned bits;
    size_t nvalues;      /* 2^bits + 1: the room of the tables below (the mex is <= 2^bits) */
    marks seen;          /* the values the moves of the current position reach */
    uint32_t *pending;   /* values whose reachability is still open */
    size_t *cursor;      /* settle's progress through each kind of split, and their totals */
    uint8_t *common[2];  /* 1 for the values of common class, split totals of parity 0 and 1 */
    uint64_t *counts;    /* counts[e] for e = 2 g + parity, g < 2^COUNT_BITS */
    int64_t *walsh;
    /* the sparse space */
    uint32_t mask; /* M over e = 2 g + parity; 0 when the sparse method is off */
    uint32_t *rpos, *rval;
    size_t nrare, rcap;
    size_t next_check; /* re-choose the mask when nrare reaches this */
    size_t work;        /* comparisons since the last poll */
    double search_cost; /* the recent cost of settle's search, in splits of the plain scan */
    hp_report *report;
} engine;

static void engine_free(engine *e)
{
    free(e->take);
    free(e->split);
    free(e->split3);
    free(e->seen.seen);
    free(e->pending);
    free(e->cursor);
    free(e->common[0]);
    free(e->common[1]);
    free(e->counts);
    free(e->walsh);
    free(e->rpos);
    free(e->rval);
}

static int rules_read(engine *e)
{
    const hp_config *c = e->cfg;
    if (!c->rules) { /* Grundy's game */
        e->split = (size_t *)calloc(1, sizeof(size_t));
        e->cursor = (size_t *)malloc(3 * sizeof(size_t));
        if (!e->split || !e->cursor)
            return -1;
        e->nsplit = 1;
        e->unequal = 1;
        e->parity_ok = 1;
        return 0;
    }
    size_t n = c->nrules ? c->nrules : 1;
    e->take = (size_t *)malloc(n * sizeof(size_t));
    e->split = (size_t *)malloc(n * sizeof(size_t));
    e->split3 = (size_t *)malloc(n * sizeof(size_t));
    if (!e->take || !e->split || !e->split3)
        return -1;
    e->parity_ok = 1;
    e->cursor = (size_t *)malloc(3 * n * sizeof(size_t));
    if (!e->cursor)
        return -1;
    for (size_t k = 0; k < c->nrules; k++) {
        unsigned bits = c->rules[k];
        if ((bits & 2) && k > 0)
            e->take[e->ntake++] = k;
        if (bits & 4) {
            if (e->nsplit && (k & 1) != e->split_parity)
                e->parity_ok = 0;
            e->split_parity = k & 1;
            e->split[e->nsplit++] = k;
        }
        if (bits & 8)
            e->split3[e->nsplit3++] = k;
    }
    return 0;
}

static int is_rare(const engine *e, size_t i, uint32_t v)
{
    return sp_is_rare(e->mask, (unsigned)e->split_parity, i, v);
}

/* The counts behind the choice of the mask cover the values below 2^COUNT_BITS (masks of
 * their bits; a larger value is rare or common all the same, and exactness never depends on
 * the mask).  No value may reach 2^MAX_BITS: its tables would not fit. */
enum { COUNT_BITS = 16, MAX_BITS = 24 };

static size_t count_size(unsigned bits)
{
    return (size_t)2 << (bits < COUNT_BITS ? bits : COUNT_BITS);
}

static void count_value(engine *e, size_t i, uint32_t v)
{
    if (v < (1u << COUNT_BITS))
        e->counts[(v << 1) | (i & 1)]++;
}

/* Tables and counts for values below 2^bits (their contents rebuilt by the caller). */
static int room_for_bits(engine *e, unsigned bits)
{
    size_t nvalues = ((size_t)1 << bits) + 1;
    size_t ncounts = count_size(bits);
    uint32_t *seen = (uint32_t *)realloc(e->seen.seen, nvalues * sizeof(uint32_t));
    if (seen)
        e->seen.seen = seen;
    uint32_t *pending = (uint32_t *)realloc(e->pending, nvalues * sizeof(uint32_t));
    if (pending)
        e->pending = pending;
    uint8_t *c0 = (uint8_t *)realloc(e->common[0], nvalues);
    if (c0)
        e->common[0] = c0;
    uint8_t *c1 = (uint8_t *)realloc(e->common[1], nvalues);
    if (c1)
        e->common[1] = c1;
    uint64_t *counts = (uint64_t *)realloc(e->counts, ncounts * sizeof(uint64_t));
    if (counts)
        e->counts = counts;
    int64_t *walsh = (int64_t *)realloc(e->walsh, ncounts * sizeof(int64_t));
    if (walsh)
        e->walsh = walsh;
    if (!seen || !pending || !c0 || !c1 || !counts || !walsh)
        return -1;
    size_t old_counts = e->nvalues ? count_size(e->bits) : 0;
    memset(e->counts + old_counts, 0, (ncounts - old_counts) * sizeof(uint64_t));
    memset(e->seen.seen + e->nvalues, 0, (nvalues - e->nvalues) * sizeof(uint32_t));
    e->bits = bits;
    e->nvalues = nvalues;
    return 0;
}

/* common[p][v]: 1 when v is of common class as the value of a split of a total of parity p. */
static void classes_build(engine *e)
{
    for (int p = 0; p < 2; p++)
        for (uint32_t v = 0; v < e->nvalues; v++)
            e->common[p][v] = e->mask && sp_is_common_value(e->mask, v, (unsigned)p);
}

/* The passes over all values so far (billions, in long runs) ask the poll now and then. */
enum { STOP = -2, TOO_LARGE = -3 };
static int stop_now(const engine *e, size_t i)
{
    return (i & ((1u << 22) - 1)) == 0 && i && nc_should_stop(e->cfg->poll);
}

static int rare_push(engine *e, size_t i, uint32_t v)
{
    if (e->nrare == e->rcap) {
        size_t cap = e->rcap ? 2 * e->rcap : 64;
        uint32_t *p = (uint32_t *)realloc(e->rpos, cap * sizeof(uint32_t));
        if (p)
            e->rpos = p;
        uint32_t *q = (uint32_t *)realloc(e->rval, cap * sizeof(uint32_t));
        if (q)
            e->rval = q;
        if (!p || !q)
            return -1;
        e->rcap = cap;
    }
    e->rpos[e->nrare] = (uint32_t)i;
    e->rval[e->nrare] = v;
    e->nrare++;
    return 0;
}

/* The rare positions 1 <= i < n under the current mask (heap 0 is never part of a split). */
static int rare_build(engine *e, size_t n)
{
    e->nrare = 0;
    for (size_t i = 1; i < n; i++) {
        uint32_t v = get_value(e->g, e->width, i);
        if (is_rare(e, i, v) && rare_push(e, i, v) < 0)
            return -1;
        if (stop_now(e, i))
            return STOP;
    }
    return 0;
}

/* Re-chooses the mask, the one making the fewest of the positions 1..n-1 rare, when it has
 * clearly fewer rare positions (sparse.h's search and rule: the rebuild of the rare list costs
 * a pass over all values, so small gains wait). */
static int mask_update(engine *e, size_t n)
{
    if (e->cfg->mask != HP_MASK_AUTO || !e->nsplit || e->nsplit3)
        return 0;
    if (e->mask && e->nrare < e->next_check)
        return 0;
    uint64_t best_rare;
    uint32_t best = sp_best_mask(e->counts, e->walsh, count_size(e->bits), (uint64_t)(n - 1),
                                 e->parity_ok, (int)e->split_parity, &best_rare);
    if (!e->mask || sp_mask_better(e->nrare, best_rare, 0)) {
        e->mask = best;
        if (e->report)
            e->report->mask_changes++;
        classes_build(e);
        if (rare_build(e, n) < 0)
            return -1;
    }
    e->next_check = (size_t)sp_next_check(e->nrare);
    return 0;
}

static int engine_start(engine *e, size_t start)
{
    if (rules_read(e) < 0)
        return -1;
    uint32_t maxg = 0;
    for (size_t i = 0; i < start; i++) {
        uint32_t v = get_value(e->g, e->width, i);
        if (v > maxg)
            maxg = v;
        if (stop_now(e, i))
            return STOP;
    }
    unsigned bits = 0;
    while (bits < 32 && ((uint64_t)1 << bits) <= maxg)
        bits++;
    if (bits > MAX_BITS)
        return TOO_LARGE;
    if (room_for_bits(e, bits) < 0)
        return -1;
    for (size_t i = 1; i < start; i++)
        count_value(e, i, get_value(e->g, e->width, i));
    if (e->cfg->mask != HP_MASK_AUTO && e->nsplit && !e->nsplit3) {
        e->mask = e->cfg->mask & (e->parity_ok ? 0xffffffffu : 0xfffffffeu);
        classes_build(e);
        return rare_build(e, start);
    }
    classes_build(e);
    return mask_update(e, start > 0 ? start : 1);
}

/* A value reached 2^bits: double the room; the classes and the mask follow. */
static int engine_grow(engine *e, uint32_t v)
{
    unsigned bits = e->bits;
    while (bits < 32 && ((uint64_t)1 << bits) <= v)
        bits++;
    if (bits > MAX_BITS)
        return TOO_LARGE;
    if (room_for_bits(e, bits) < 0)
        return -1;
    classes_build(e);
    return 0;
}

/* The end (exclusive) of the first heap a of the splits a + (total - a), a <= total - a. */
static size_t split_end(const engine *e, size_t total)
{
    return e->unequal ? (total + 1) / 2 : total / 2 + 1;
}

/* Keeps the pending values that are still unmarked; their number. */
static size_t drop_marked(engine *e, size_t npending)
{
    size_t kept = 0;
    for (size_t i = 0; i < npending; i++)
        if (!marked(e->seen, e->pending[i]))
            e->pending[kept++] = e->pending[i];
    return kept;
}

/* g(n), given the marks of the moves so far and a value limit known to be unreachable: the
 * least unmarked value below limit that no split reaches, or limit.  First splits are marked
 * one by one, a chunk of each kind in turn, up to SPARSE_SCALAR_PAIRS of them while values are
 * pending, and on while many are (sp_keep_marking; the values marked leave the list now and
 * then, sp_drop_due); then each pending value, smallest first, is looked for in the splits
 * not yet marked, a vector register at a time and a stretch of each kind in turn, until one
 * is missing.  Both go up from the smallest heap: the early values are the most varied,
 * while two heaps of the (nearly) periodic tail give only the few nim-sums of its residues. */
static uint32_t settle(engine *e, size_t n, uint32_t limit)
{
    double cost = 0;
    size_t npending = 0;
    for (uint32_t v = 0; v < limit; v++)
        if (!marked(e->seen, v))
            e->pending[npending++] = v;
    /* the splits lo[s] <= a < hi[s] of kind s are not marked yet */
    size_t *lo = e->cursor, *hi = lo + e->nsplit, *total = hi + e->nsplit;
    size_t left = 0;
    for (size_t s = 0; s < e->nsplit; s++) {
        total[s] = n >= e->split[s] + 2 ? n - e->split[s] : 0;
        hi[s] = total[s] ? split_end(e, total[s]) : 1;
        lo[s] = 1;
        left += hi[s] - 1;
    }
    size_t budget = SPARSE_SCALAR_PAIRS, since = 0;
    while (left && sp_keep_marking(budget, npending)) { /* (sparse.h) */
        for (size_t s = 0; s < e->nsplit; s++) {
            size_t chunk = hi[s] - lo[s] < PARTIAL ? hi[s] - lo[s] : PARTIAL;
            hp_mark_pairs(e->g, e->width, total[s], lo[s], lo[s] + chunk, e->seen);
            lo[s] += chunk;
            left -= chunk;
            budget = budget > chunk ? budget - chunk : 0;
            cost += (double)chunk;
            since += chunk;
        }
        if (sp_drop_due(since, npending)) {
            npending = drop_marked(e, npending);
            since = 0;
        }
    }
    for (size_t i = 0; i < npending; i++) {
        uint32_t c = e->pending[i];
        if (marked(e->seen, c))
            continue;
        int hit = 0;
        for (size_t from = 0; !hit; from += STRETCH) {
            int any = 0;
            for (size_t s = 0; s < e->nsplit && !hit; s++) {
                if (lo[s] + from >= hi[s])
                    continue;
                size_t bottom = lo[s] + from, top = hi[s] - bottom > STRETCH ? bottom + STRETCH : hi[s];
                size_t scanned;
                hit = hp_search_value(e->g, e->width, total[s], bottom, top, c, &scanned);
                e->work += scanned / 16;
                cost += (double)scanned / 16;
                any = 1;
            }
            if (!any)
                break;
        }
        if (!hit) {
            e->search_cost = (7 * e->search_cost + cost) / 8;
            return c;
        }
        mark(e->seen, c);
    }
    e->search_cost = (7 * e->search_cost + cost) / 8;
    return limit;
}

/* The least value of common class (for splits of a total of parity p) that is not marked;
 * 2^bits when there is none below it (no move reaches 2^bits). */
static uint32_t first_common_unmarked(const engine *e, int p)
{
    const uint8_t *common = e->common[p];
    uint32_t top = (uint32_t)1 << e->bits;
    uint32_t v = 0;
    while (v < top && (!common[v] || marked(e->seen, v)))
        v++;
    return v;
}

/* The sparse method when its estimated cost is the lower: a rare part costs a scattered load
 * and store (about RARE_COST times a split of the plain scan), plus the search for the
 * smaller values of rare class, as much as it took lately. */
static int use_sparse(const engine *e, size_t n)
{
    if (!e->mask || e->cfg->method == HP_EXACT)
        return 0;
    if (e->cfg->method == HP_SPARSE)
        return 1;
    double sparse = (double)(RARE_COST * e->nrare * e->nsplit) + e->search_cost;
    double exact = 0;
    for (size_t s = 0; s < e->nsplit; s++)
        if (n >= e->split[s] + 2)
            exact += (double)((n - e->split[s]) / 2);
    return sparse < exact;
}

static uint32_t position_value(engine *e, size_t n)
{
    if (++e->seen.now == 0) { /* the stamps wrapped around: clear them */
        memset(e->seen.seen, 0, e->nvalues * sizeof(uint32_t));
        e->seen.now = 1;
    }
    const hp_config *c = e->cfg;
    if (c->rules && n < c->nrules && (c->rules[n] & 1))
        mark(e->seen, 0);
    for (size_t t = 0; t < e->ntake && e->take[t] < n; t++)
        mark(e->seen, get_value(e->g, e->width, n - e->take[t]));
    e->work += e->ntake;
    uint32_t top = (uint32_t)1 << e->bits;
    if (e->nsplit3) {
        for (size_t s = 0; s < e->nsplit; s++)
            if (n >= e->split[s] + 2) {
                size_t total = n - e->split[s];
                hp_mark_pairs(e->g, e->width, total, 1, total / 2 + 1, e->seen);
                e->work += total / 2;
            }
        for (size_t s = 0; s < e->nsplit3; s++)
            if (n >= e->split3[s] + 3) {
                size_t total = n - e->split3[s];
                hp_mark_triples(e->g, e->width, total, e->seen);
                e->work += total * total / 12;
            }
        uint32_t v = 0;
        while (marked(e->seen, v))
            v++;
        return v;
    }
    if (!e->nsplit || use_sparse(e, n)) {
        for (size_t s = 0; s < e->nsplit; s++) {
            size_t k = e->split[s];
            if (n >= k + 2)
                hp_mark_rare(e->g, e->width, n - k, e->rpos, e->rval, e->nrare, e->unequal,
                          e->seen);
        }
        e->work += e->nrare * e->nsplit;
        int p = (int)((n - (e->nsplit ? e->split[0] : 0)) & 1);
        uint32_t candidate = e->nsplit ? first_common_unmarked(e, p) : top;
        if (e->report)
            e->report->sparse_positions++;
        return settle(e, n, candidate);
    }
    for (size_t s = 0; s < e->nsplit; s++)
        if (n >= e->split[s] + 2) {
            size_t total = n - e->split[s];
            hp_mark_pairs(e->g, e->width, total, 1, split_end(e, total), e->seen);
            e->work += total / 2;
        }
    if (e->report)
        e->report->exact_positions++;
    uint32_t v = 0;
    while (marked(e->seen, v))
        v++;
    return v;
}

static void store(void *g, int width, size_t i, uint32_t v)
{
    if (width == 1)
        ((uint8_t *)g)[i] = (uint8_t)v;
    else if (width == 2)
        ((uint16_t *)g)[i] = (uint16_t)v;
    else
        ((uint32_t *)g)[i] = v;
}

int hp_extend(const hp_config *cfg, void *g, size_t start, size_t stop, size_t *reached,
              hp_report *report)
{
    engine e;
    memset(&e, 0, sizeof e);
    e.cfg = cfg;
    e.g = g;
    e.width = cfg->width;
    e.report = report;
    *reached = start;
    if (e.width != 1 && e.width != 2 && e.width != 4)
        return NC_BADARG;
    if (start == 0 && stop > 0) {
        store(g, e.width, 0, 0); /* no move from the empty heap */
        start = 1;
    }
    int status = NC_OK;
    int started = engine_start(&e, start);
    if (started < 0) {
        engine_free(&e);
        return started == STOP ? NC_STOPPED : started == TOO_LARGE ? NC_BADARG : NC_NOMEM;
    }
    uint32_t limit = e.width == 4 ? 0xffffffffu : ((uint32_t)1 << (8 * e.width)) - 1;
    size_t n = start;
    for (; n < stop; n++) {
        uint32_t v = position_value(&e, n);
        if (v > limit)
            break; /* it does not fit the width: the caller widens and resumes */
        store(g, e.width, n, v);
        int grown = v >> e.bits ? engine_grow(&e, v) : 0;
        if (grown < 0) {
            status = grown == TOO_LARGE ? NC_BADARG : NC_NOMEM;
            break;
        }
        count_value(&e, n, v);
        int failed = 0;
        if (e.mask && is_rare(&e, n, v))
            failed = rare_push(&e, n, v) < 0 ? -1 : mask_update(&e, n + 1);
        else if (!e.mask && e.nsplit && !e.nsplit3 && (n & (n - 1)) == 0)
            failed = mask_update(&e, n + 1); /* no mask yet: try one now and then */
        if (failed < 0) {
            status = failed == STOP ? NC_STOPPED : NC_NOMEM;
            n++;
            break;
        }
        if (e.work >= POLL_WORK) {
            e.work = 0;
            if (nc_should_stop(cfg->poll)) {
                status = NC_STOPPED;
                n++;
                break;
            }
        }
    }
    *reached = n;
    if (report) {
        report->mask = e.mask;
        report->rare = e.nrare;
    }
    engine_free(&e);
    return status;
}
