/*
 * narrow.c -- a step of the frontier engine for games whose values all lie below 64
 * (0.167, 0.054, 0.454, 0.106 of the open three-digit codes): a position's marks are one
 * 64-bit word instead of a byte a value.
 *
 * The value of n is the least value of common class that no split with a rare part reaches,
 * unless a smaller value of rare class is reached by no split at all (state.c).  Here:
 *   1. the rare parts' splits are marked FR_NG positions at once, a word each: for each part
 *      and split, the partners of the FR_NG positions are FR_NG consecutive values, so one
 *      vector shift per eight (AVX-512) or four (AVX2) positions sets their bits
 *      (kern->narrow_marks);
 *   2. position by position, in order: the one-heap moves and the parts too close for step 1;
 *      the candidate c is the lowest common bit not set;
 *   3. the values of rare class below c not yet marked are looked for among the splits
 *      a + (total - a) from a = 1 up, 32 splits at a time (kern->narrow_search), up to
 *      NARROW_SPLITS; what is still missing then goes to the ordinary search
 *      (fr_settle_pending, settle.c), which looks on to the last split.
 * The values are the ordinary engine's: the same mex, the marks in a word instead of a row.
 * Where the blocks (block.c) prepare candidates, coverage and checks for values of
 * any size, small values leave them mostly overhead (benchmarks/README.md, "Narrow steps").
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* NARROW_SPLITS: the splits looked at by words before the ordinary search (a multiple of 32);
 * NARROW_FROM: the least position (so that every split looked at has total - a > a);
 * NARROW_POOL: the most partners read back for a step (the pairs whose partners lie in
 * neither the head nor the window: a rare part far behind the window). */
enum { NARROW_SPLITS = 1024, NARROW_FROM = 1 << 14, NARROW_POOL = 1 << 24 };

typedef struct {
    uint64_t start;          /* the step's first position */
    const uint16_t **src;    /* pair i's partners: src[i][j] = g(start + j - off[i]) */
    uint32_t *off;           /* a pair (rare part p, split k): its partner at n - (k + p) */
    uint8_t *gv;             /* g(p) */
    size_t nvec, npairs;     /* the pairs marked by vectors first, the close ones behind */
    uint16_t *pool;          /* partners read back */
    uint16_t hrev[NARROW_SPLITS]; /* g(NARROW_SPLITS - 1 - u): the small heaps, reversed */
    uint64_t common[2], rare[2];  /* the values below 64 of each class, by (n - kmin) & 1 */
} narrow_ctx;

/* The least position from which every rare part's split is a split for all FR_NG positions
 * marked at once: partners of at least 1 (and, for Grundy's game, never equal to the part). */
static uint64_t narrow_least(const fr_state *s)
{
    uint64_t top = s->last_rare; /* the largest rare part (the parts go by heap size) */
    uint64_t least = (s->unequal ? 2 * top : top) + s->kmax + 2 * FR_NG;
    return least > NARROW_FROM ? least : NARROW_FROM;
}

size_t fr_narrow_wait(const fr_state *s)
{
    /* every value so far below 64, the small heaps in the head, the search's partners in the
     * window (which follows the frontier) */
    if (s->bits > 6 || !s->nsplit || !s->has_mask || s->head_cap < NARROW_SPLITS ||
        s->window < NARROW_SPLITS + s->kmax + FR_NG)
        return SIZE_MAX;
    uint64_t n = s->done, least = narrow_least(s);
    if (n < least)
        return (size_t)(least - n);
    if (s->nhead < NARROW_SPLITS || n - s->kmax - NARROW_SPLITS - FR_NG < s->base)
        return SIZE_MAX; /* (not while a run goes on: the head fills first) */
    return 0;
}

/* The pairs of the step from s->done, their partners and the step's count (fewer where the
 * partners to read back would be too many, or not all known yet): 0, or -1 out of memory. */
static int narrow_ctx_make(const fr_state *s, narrow_ctx *c, size_t *count)
{
    c->start = s->done;
    c->npairs = (size_t)s->nrare * s->nsplit; /* (nrare: the rare parts, heap 0 not one) */
    c->off = (uint32_t *)malloc((c->npairs + 1) * sizeof(uint32_t));
    c->gv = (uint8_t *)malloc(c->npairs + 1);
    c->src = (const uint16_t **)malloc((c->npairs + 1) * sizeof(uint16_t *));
    if (!c->off || !c->gv || !c->src)
        return -1;
    size_t front = 0, back = c->npairs, far = 0;
    for (size_t k = 0; k < s->nsplit; k++)
        for (size_t i = 0; i < s->nparts; i++) {
            const part *pt = &s->parts[i];
            if (!pt->rare)
                continue;
            uint32_t off = (uint32_t)(s->split[k] + pt->p);
            size_t at = off >= FR_NG ? front++ : --back;
            c->off[at] = off;
            c->gv[at] = (uint8_t)pt->g;
            if (off >= FR_NG && c->start - off < s->base) { /* before the window: */
                far++; /* read back now, so every partner of the step must be known now */
                if (*count > off - FR_NG)
                    *count = off - FR_NG;
            }
        }
    c->nvec = front;
    if (far && *count > NARROW_POOL / far)
        *count = NARROW_POOL / far > FR_NG ? NARROW_POOL / far : FR_NG;
    size_t span = *count + FR_NG;
    if (far && !(c->pool = (uint16_t *)malloc(far * span * sizeof(uint16_t))))
        return -1;
    for (size_t i = 0, used = 0; i < c->nvec; i++) {
        uint64_t from = c->start - c->off[i];
        uint16_t *room = from < s->base ? c->pool + span * used++ : NULL;
        if (!(c->src[i] = fr_values_at(s, from, span, room))) /* (the window: no copy) */
            return -1;
    }
    for (size_t u = 0; u < NARROW_SPLITS; u++)
        c->hrev[u] = s->head[NARROW_SPLITS - 1 - u];
    for (int p = 0; p < 2; p++) {
        c->common[p] = c->rare[p] = 0;
        for (uint32_t v = 0; v < 64; v++)
            *(s->common[p][v] ? &c->common[p] : &c->rare[p]) |= (uint64_t)1 << v;
    }
    return 0;
}

/* The marks at n of the one-heap moves and of the pairs too close for the vector marks. */
static uint64_t close_marks(const fr_state *s, const narrow_ctx *c, uint64_t n)
{
    const uint16_t *at = s->buf + (n - s->base);
    uint64_t row = n < s->nrules && (s->rules[n] & 1) ? 1 : 0;
    for (size_t t = 0; t < s->ntake; t++)
        row |= (uint64_t)1 << (at[-(ptrdiff_t)s->take[t]] & 63);
    for (size_t i = c->nvec; i < c->npairs; i++)
        row |= (uint64_t)1 << ((c->gv[i] ^ at[-(ptrdiff_t)c->off[i]]) & 63);
    return row;
}

/* The value at n from its marks so far: the candidate c, then the values of rare class below
 * it that no split marked yet, looked for among the splits. */
static int narrow_value(const fr_state *s, const narrow_ctx *c, uint64_t n, uint64_t row,
                        finisher_scratch *fs, uint32_t *value)
{
    int parity = (int)((n - s->kmin) & 1);
    uint64_t open = ~row & c->common[parity];
    uint32_t cand = open ? (uint32_t)__builtin_ctzll(open) : 64;
    uint64_t want = c->rare[parity] & (cand >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << cand) - 1);
    size_t a = 1; /* the splits with smaller heap below a are marked */
    if (want & ~row) {
        const uint16_t *y[32]; /* by kind of split (at most 32): the partners of the splits
                                * a .. a + 31 are y[k][-a .. -a + 32), in reverse order */
        for (size_t k = 0; k < s->nsplit; k++)
            y[k] = s->buf + (n - s->split[k] - 31 - s->base);
        row = s->kern->narrow_search(c->hrev + NARROW_SPLITS - 32, y, s->nsplit, row, want,
                                     NARROW_SPLITS, &a);
    }
    uint64_t pending = want & ~row;
    if (!pending && cand < 64) {
        *value = cand;
        return 0;
    }
    /* the ordinary search from split a on, with a row of bytes (every value so far is below
     * 64 = 2^bits at most, the row's size) */
    uint8_t rowb[64];
    for (uint32_t v = 0; v < 64; v++)
        rowb[v] = (uint8_t)((row >> v) & 1);
    if (cand >= 64) /* every value of common class below 64 reached: as the ordinary engine */
        return fr_settle_below(s, n, rowb, cand, a, fs, value);
    size_t npending = 0;
    for (; pending; pending &= pending - 1)
        fs->pending[npending++] = (uint32_t)__builtin_ctzll(pending);
    return fr_settle_pending(s, n, rowb, cand, a, npending, fs, value);
}

int fr_step_narrow(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
    *made = 0;
    fr_cover_drop(s); /* not kept up to date here: made again when the blocks need it */
    narrow_ctx *c = (narrow_ctx *)calloc(1, sizeof *c);
    finisher_scratch *fs = (finisher_scratch *)malloc(sizeof *fs);
    int status = c && fs && narrow_ctx_make(s, c, &count) == 0 ? NC_OK : NC_NOMEM;
    size_t nparts = s->nparts;
    for (size_t j0 = 0; j0 < count && status == NC_OK; j0 += FR_NG) {
        uint64_t acc[FR_NG] = {0};
        s->kern->narrow_marks(acc, c->src, c->gv, c->nvec, j0);
        size_t m = count - j0 < FR_NG ? count - j0 : FR_NG;
        for (size_t j = 0; j < m && status == NC_OK; j++) {
            uint64_t n = c->start + j0 + j;
            uint32_t v;
            if (narrow_value(s, c, n, acc[j] | close_marks(s, c, n), fs, &v) < 0)
                status = NC_BADARG;
            else if (fr_accept(s, (uint16_t)v) < 0)
                status = NC_NOMEM;
            else
                out[(*made)++] = (uint16_t)v;
            s->narrowed += status == NC_OK;
            if (s->nparts != nparts || s->bits > 6)
                break;
        }
        /* a new rare part, or a value of 64 or more: the next step starts afresh */
        if (s->nparts != nparts || s->bits > 6)
            break;
        if (status == NC_OK && (j0 & 0xffff) == 0 && nc_should_stop(poll))
            status = NC_STOPPED;
    }
    if (c) {
        free(c->src);
        free(c->off);
        free(c->gv);
        free(c->pool);
    }
    free(c);
    free(fs);
    return status;
}
