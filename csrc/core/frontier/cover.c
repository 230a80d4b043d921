/*
 * cover.c -- witnesses for the values of rare class, a block of positions at a time
 * (see state.c).
 *
 * A value v of rare class below the candidate must be reached by some split a + q with two
 * common values, g(a) ^ g(q) = v.  Scanning the splits from the smallest heap takes thousands
 * of splits per position; the blocks here find most witnesses at once instead.  For the
 * frequent values t of the frontier the engine keeps one bitset each over recent positions
 * (bit q set when g(q) = t).  A heap size a of the head with g(a) = v ^ t reaches v at every
 * position n of a block with g(n - k - a) = t: the bitset of t read from n0 - k - a gives those
 * positions for the whole block in a few word operations (eight words of 64 positions: one
 * AVX-512 register, two of AVX2; simd.c).  For each value the first PAIRS_FIRST
 * pairs (a, t), taken by t's frequency, cover the block at once; a position that needs the
 * value and is still not covered has the block's next pairs tried, until it is (or they run
 * out: then the search).
 * Every bit set is a genuine split, so the coverage only ever proves reached values: the
 * values computed do not depend on it.
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* CB: the block, in positions (CW words of 64); CT: at most this many frequent values get a
 * bitset; CAMAX: witnesses from the head are heap sizes below it; CPAIRS: room for the pairs
 * of a value (PAIRS_RARE and PAIRS_COMMON used; PAIRS_FIRST: those a value of rare class gets
 * before any position asks; how they were tuned: benchmarks/README.md, "Frontier tuning
 * notes"); CSPAN: positions in each bitset's ring; CVALUES: values with coverage. */
#ifndef FR_TOP
#define FR_TOP 64
#endif
#ifndef FR_PAIRS_RARE
#define FR_PAIRS_RARE 1200
#endif
#ifndef FR_PAIRS_FIRST
#define FR_PAIRS_FIRST 200
#endif
#ifndef FR_CAMAX
#define FR_CAMAX (1 << 16)
#endif
#ifndef FR_PAIRS_COMMON
#define FR_PAIRS_COMMON 1200
#endif
enum { CB = FR_BLOCK, CW = FR_CW, CT = FR_TOP, CAMAX = FR_CAMAX, CPAIRS = 1200, CSPAN = FR_CSPAN,
       CVALUES = 1024, PAIRS_RARE = FR_PAIRS_RARE, PAIRS_FIRST = FR_PAIRS_FIRST,
       PAIRS_COMMON = FR_PAIRS_COMMON };

struct fr_cover {
    uint16_t top[CT];
    size_t ntop;              /* the frequent values kept (<= CT) */
    int16_t *index;           /* value -> its index among the frequent values, or -1 */
    uint64_t *rows;           /* CT rings of CSPAN bits: position i is bit i mod CSPAN, the
                               * first CW + 1 words repeated after the end (reads never wrap) */
    uint64_t base;            /* the first position the rings hold since the last build */
    size_t row_words;
    cover_pair *pairs;        /* CPAIRS per value */
    uint16_t *npairs;
    size_t nvalues;           /* values with lists */
    size_t amax;              /* witnesses from the head: heap sizes below amax (<= CAMAX) */
    int lagged;               /* witnesses from FR_LAG on, for a helper preparing a block ahead */
    uint64_t from;            /* the first block that may use the coverage */
    uint64_t refresh_at;      /* the next rebuild of the frequent values */
    /* the words of values of rare class, for FR_SETS blocks (n0 / CB modulo FR_SETS: a
     * helper prepares the next block while the finisher settles this one, and with
     * speculation the blocks settled before are still being proved: block.c) */
    uint64_t *stamp[FR_SETS]; /* stamp[.][v] == block + 1 when words[.][v] is for it */
    uint64_t (*words[FR_SETS])[CW];
    uint16_t *upto[FR_SETS];  /* the pairs of v that made them: the first PAIRS_FIRST, more on
                               * demand (a position that needs v and is not covered yet) */
    /* values of common class: witnesses among the rare parts, all values a block at a time */
    cover_pair *cpairs;
    uint16_t *ncpairs;
    uint64_t *cstamp[FR_SETS];
    uint64_t (*wordsc[FR_SETS])[CW];
};

void fr_cover_free(fr_cover *c)
{
    if (!c)
        return;
    free(c->index);
    free(c->rows);
    free(c->pairs);
    free(c->npairs);
    free(c->cpairs);
    free(c->ncpairs);
    for (int h = 0; h < FR_SETS; h++) {
        free(c->stamp[h]);
        free(c->words[h]);
        free(c->upto[h]);
        free(c->cstamp[h]);
        free(c->wordsc[h]);
    }
    free(c);
}

static fr_cover *cover_new(void)
{
    fr_cover *c = (fr_cover *)calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->row_words = CSPAN / 64 + CW + 1;
    c->index = (int16_t *)malloc(((size_t)1 << MAX_BITS) * sizeof(int16_t));
    c->rows = (uint64_t *)calloc(CT * c->row_words, sizeof(uint64_t));
    c->pairs = (cover_pair *)malloc((size_t)CVALUES * CPAIRS * sizeof(cover_pair));
    c->npairs = (uint16_t *)calloc(CVALUES, sizeof(uint16_t));
    c->cpairs = (cover_pair *)malloc((size_t)CVALUES * CPAIRS * sizeof(cover_pair));
    c->ncpairs = (uint16_t *)calloc(CVALUES, sizeof(uint16_t));
    int ok = c->index && c->rows && c->pairs && c->npairs && c->cpairs && c->ncpairs;
    for (int h = 0; h < FR_SETS; h++) {
        c->stamp[h] = (uint64_t *)calloc(CVALUES, sizeof(uint64_t));
        c->upto[h] = (uint16_t *)calloc(CVALUES, sizeof(uint16_t));
        ok = ok && c->upto[h];
        c->words[h] = (uint64_t(*)[CW])malloc((size_t)CVALUES * sizeof *c->words[h]);
        c->cstamp[h] = (uint64_t *)calloc(CVALUES, sizeof(uint64_t));
        c->wordsc[h] = (uint64_t(*)[CW])malloc((size_t)CVALUES * sizeof *c->wordsc[h]);
        ok = ok && c->stamp[h] && c->words[h] && c->cstamp[h] && c->wordsc[h];
    }
    if (!ok) {
        fr_cover_free(c);
        return NULL;
    }
    return c;
}

/* ---- the frequent values and their bitsets ---------------------------------------------- */

/* Position n's bit: the word of n in every ring is cleared when n starts it (the ring held
 * n - CSPAN there), then v's ring gets the bit; words 0 .. CW also go to their copies. */
static void set_bit(fr_cover *c, uint64_t n, uint16_t v)
{
    size_t i = (size_t)(n & (CSPAN - 1)), word = i >> 6;
    int copy = word <= CW;
    if ((i & 63) == 0)
        for (size_t t = 0; t < c->ntop; t++) {
            c->rows[t * c->row_words + word] = 0;
            if (copy)
                c->rows[t * c->row_words + CSPAN / 64 + word] = 0;
        }
    int16_t t = c->index[v];
    if (t >= 0) {
        uint64_t bit = (uint64_t)1 << (i & 63);
        c->rows[(size_t)t * c->row_words + word] |= bit;
        if (copy)
            c->rows[(size_t)t * c->row_words + CSPAN / 64 + word] |= bit;
    }
}

void fr_cover_note(fr_state *s, uint64_t n, uint16_t v)
{
    fr_cover *c = s->cover;
    if (c && c->nvalues)
        set_bit(c, n, v);
}

void fr_cover_unnote(fr_state *s, uint64_t n, uint16_t v)
{
    fr_cover *c = s->cover;
    if (!c || !c->nvalues || c->index[v] < 0)
        return;
    size_t i = (size_t)(n & (CSPAN - 1)), word = i >> 6;
    uint64_t keep = ~((uint64_t)1 << (i & 63));
    c->rows[(size_t)c->index[v] * c->row_words + word] &= keep;
    if (word <= CW)
        c->rows[(size_t)c->index[v] * c->row_words + CSPAN / 64 + word] &= keep;
}

void fr_cover_forget(fr_state *s)
{
    fr_cover *c = s->cover;
    for (int h = 0; c && h < FR_SETS; h++) {
        memset(c->stamp[h], 0, CVALUES * sizeof(uint64_t));
        memset(c->cstamp[h], 0, CVALUES * sizeof(uint64_t));
    }
}

void fr_cover_drop(fr_state *s)
{
    if (s->cover) {
        s->cover->nvalues = 0;
        fr_cover_forget(s);
    }
}

/* Whether the witnesses start from FR_LAG: with a helper, which prepares a block while the one
 * before it is settled, unless the blocks go alone for now (s->alone_until: block.c). */
static int lag_wanted(const fr_state *s)
{
    return s->threads > 1 && s->done >= s->alone_until;
}

int fr_cover_lagged(const fr_state *s)
{
    return s->cover && s->cover->nvalues && s->cover->lagged;
}

/* Heap sizes by value: bucket[start[u] .. start[u + 1]) are the sizes a in [lo, amax) with
 * g(a) = u < nv, from the head (rare == 0) or from the rare parts (rare == 1). */
static int by_value(const fr_state *s, size_t amax, size_t nv, int rare, uint32_t **bucket,
                    uint32_t **start)
{
    size_t lo = (size_t)fr_witness_from(s, lag_wanted(s));
    *bucket = (uint32_t *)malloc(amax * sizeof(uint32_t));
    *start = (uint32_t *)calloc(nv + 2, sizeof(uint32_t));
    uint32_t *fill = (uint32_t *)malloc((nv + 1) * sizeof(uint32_t));
    if (!*bucket || !*start || !fill) {
        free(fill);
        return -1;
    }
    uint32_t *st = *start;
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            memcpy(fill, st, (nv + 1) * sizeof(uint32_t));
        for (size_t i = 0; i < (rare ? s->nparts : amax); i++) {
            uint64_t a = rare ? s->parts[i].p : i;
            uint32_t u = rare ? s->parts[i].g : s->head[i];
            if (a < lo || a >= amax || u >= nv || (rare && !s->parts[i].rare))
                continue;
            if (!pass)
                st[u + 1]++;
            else
                (*bucket)[fill[u]++] = (uint32_t)a;
        }
        if (!pass)
            for (size_t u = 0; u < nv; u++)
                st[u + 1] += st[u];
    }
    free(fill);
    return 0;
}

/* For each value v < nv the pairs (a, t) with g(a) = v ^ top[t]: taken round-robin over t,
 * each t in proportion to its frequency, each t's sizes spread evenly over its bucket. */
static void pair_lists(const uint32_t *freq, const uint32_t *order, size_t have, size_t nv,
                       const uint32_t *bucket, const uint32_t *start, cover_pair *pairs,
                       uint16_t *npairs, size_t most)
{
    for (size_t v = 0; v < nv; v++) {
        cover_pair *list = pairs + v * CPAIRS;
        size_t len = 0, next[CT] = {0};
        for (uint64_t round = 0, any = 1; any && len < most; round++) {
            any = 0;
            for (size_t t = 0; t < have && len < most; t++) {
                if (round * freq[order[0]] >= 64 * (uint64_t)freq[order[t]] + freq[order[0]])
                    continue;
                uint32_t u = (uint32_t)(v ^ order[t]);
                size_t count = u < nv ? start[u + 1] - start[u] : 0;
                if (next[t] >= count)
                    continue;
                size_t pick = count > 65 ? next[t] * (count / 65) : next[t];
                list[len].a = bucket[start[u] + pick];
                list[len].t = (uint32_t)t;
                len++;
                next[t]++;
                any = 1;
            }
        }
        npairs[v] = (uint16_t)len;
    }
}

/* The CT most frequent values of the last amax positions, their bitsets over the last
 * CSPAN / 2 positions, and the pairs of every value: witnesses from the head for values of
 * rare class, from the rare parts for values of common class. */
static int cover_build(fr_state *s, fr_cover *c)
{
    size_t nv = (size_t)1 << s->bits < CVALUES ? (size_t)1 << s->bits : CVALUES;
    uint32_t *freq = (uint32_t *)calloc((size_t)1 << MAX_BITS, sizeof(uint32_t));
    uint32_t *bucket = NULL, *start = NULL;
    uint16_t chunk[SCRATCH];
    uint32_t order[CT];
    size_t have = 0;
    int ok = freq != NULL;
    for (uint64_t i = s->done - c->amax; ok && i < s->done; i += SCRATCH) {
        size_t m = s->done - i < SCRATCH ? (size_t)(s->done - i) : SCRATCH;
        const uint16_t *v = fr_values_at(s, i, m, chunk);
        ok = v != NULL;
        for (size_t j = 0; ok && j < m; j++)
            freq[v[j]]++;
    }
    for (uint32_t v = 0; ok && v < ((uint32_t)1 << s->bits); v++) { /* the CT largest counts */
        if (!freq[v] || (have == CT && freq[order[CT - 1]] >= freq[v]))
            continue;
        size_t j = have < CT ? have++ : CT - 1;
        for (; j > 0 && freq[order[j - 1]] < freq[v]; j--)
            order[j] = order[j - 1];
        order[j] = v;
    }
    /* the frequent values kept: those making 3/4 of the last amax values, 32 to CT of them
     * (a game whose values spread wider gets more bitsets, each pair covering less) */
    uint64_t mass = 0;
    for (size_t t = 0; t < have; t++) {
        if (t >= 32 && 4 * mass >= 3 * (uint64_t)c->amax) {
            have = t;
            break;
        }
        mass += freq[order[t]];
    }
    c->ntop = have;
    if (ok) {
        memset(c->index, 0xff, ((size_t)1 << MAX_BITS) * sizeof(int16_t));
        for (size_t t = 0; t < have; t++) {
            c->top[t] = (uint16_t)order[t];
            c->index[order[t]] = (int16_t)t;
        }
        memset(c->rows, 0, CT * c->row_words * sizeof(uint64_t));
        c->base = s->done > CSPAN / 2 ? (s->done - CSPAN / 2) & ~(uint64_t)63 : 0;
        /* (set_bit clears a word at its first position: base is a multiple of 64) */
    }
    for (uint64_t i = c->base; ok && i < s->done; i += SCRATCH) {
        size_t m = s->done - i < SCRATCH ? (size_t)(s->done - i) : SCRATCH;
        const uint16_t *v = fr_values_at(s, i, m, chunk);
        ok = v != NULL;
        for (size_t j = 0; ok && j < m; j++)
            set_bit(c, i + j, v[j]);
    }
    for (int rare = 0; ok && rare < 2; rare++) {
        ok = by_value(s, c->amax, nv, rare, &bucket, &start) == 0;
        if (ok)
            pair_lists(freq, order, have, nv, bucket, start, rare ? c->cpairs : c->pairs,
                       rare ? c->ncpairs : c->npairs, rare ? PAIRS_COMMON : PAIRS_RARE);
        free(bucket);
        free(start);
        bucket = start = NULL;
    }
    fr_cover_forget(s);
    c->nvalues = ok ? nv : 0;
    free(freq);
    return ok ? 0 : -1;
}

int fr_cover_refresh(fr_state *s)
{
    /* witnesses a < amax from the head, their partners n - k - a > a below the block: the
     * coverage starts at 4 amax (amax: CAMAX, or less when the head is short) */
    size_t amax = CAMAX;
    while (amax > s->nhead)
        amax /= 2;
    if (amax < 4 * CB || s->done < 4 * (uint64_t)amax)
        return 0;
    if (!s->cover && !(s->cover = cover_new()))
        return -1;
    fr_cover *c = s->cover;
    size_t nv = (size_t)1 << s->bits < CVALUES ? (size_t)1 << s->bits : CVALUES;
    if (s->done < c->refresh_at && c->nvalues == nv && c->amax == amax &&
        c->lagged == lag_wanted(s))
        return 0;
    c->nvalues = 0;
    c->amax = amax;
    c->lagged = lag_wanted(s);
    if (cover_build(s, c) < 0)
        return -1;
    c->from = (s->done + CB - 1) & ~(uint64_t)(CB - 1);
    c->refresh_at = s->done + CSPAN;
    return 0;
}

/* ---- the words of a block ---------------------------------------------------------------- */

/* The kernel of this engine's path (simd.c). */
static size_t cover_value(const fr_state *s, const fr_cover *c, uint64_t n0,
                          const cover_pair *list, size_t from, size_t len, size_t bit,
                          uint64_t *acc)
{
    return s->kern->cover(c->rows, c->row_words, s->split, s->nsplit, n0, list, from, len, bit,
                          acc);
}

/* Whether the block n0 may use the coverage: its partners n0 - k - a lie in the bitsets. */
static int usable(const fr_state *s, const fr_cover *c, uint64_t n0)
{
    return c && c->nvalues && n0 >= c->from && n0 >= c->base + c->amax + s->kmax;
}

/* The words of v (< nvalues) for the block n0, made on first use: the common class's from all
 * its pairs (witnesses among the rare parts), the rare class's from its first PAIRS_FIRST
 * (witnesses from the head; the rest only for a position that needs v: covers).  Past the
 * first pairs a value of rare class covered few more positions of a block, and most of those
 * did not need it (their answers were smaller): all its pairs at once cost a quarter more. */
static const uint64_t *words_of(const fr_state *s, fr_cover *c, uint64_t n0, uint32_t v,
                                int common)
{
    int h = (int)((n0 / CB) % FR_SETS);
    if (common) {
        if (c->cstamp[h][v] != n0 + 1) {
            cover_value(s, c, n0, c->cpairs + (size_t)v * CPAIRS, 0, c->ncpairs[v], CB,
                        c->wordsc[h][v]);
            /* released after the words: a thread that reads the stamp with acquire
             * (fr_cover_common_made) then reads finished words, on any CPU, not only on
             * x86's ordered stores, and the compiler keeps the stores in this order */
            __atomic_store_n(&c->cstamp[h][v], n0 + 1, __ATOMIC_RELEASE);
        }
        return c->wordsc[h][v];
    }
    if (c->stamp[h][v] != n0 + 1) {
        size_t len = c->npairs[v] < PAIRS_FIRST ? c->npairs[v] : PAIRS_FIRST;
        c->upto[h][v] = (uint16_t)cover_value(s, c, n0, c->pairs + (size_t)v * CPAIRS, 0, len,
                                              CB, c->words[h][v]);
        __atomic_store_n(&c->stamp[h][v], n0 + 1, __ATOMIC_RELEASE);
    }
    return c->words[h][v];
}

/* Whether the value v of rare class is reached at n0 + j by the block's coverage, its pairs
 * past the first ones tried now if need be (for the whole block, until they reach j). */
static int covers(const fr_state *s, fr_cover *c, uint64_t n0, uint32_t v, size_t j)
{
    const uint64_t *words = words_of(s, c, n0, v, 0);
    if ((words[j >> 6] >> (j & 63)) & 1)
        return 1;
    int h = (int)((n0 / CB) % FR_SETS);
    if (c->upto[h][v] >= c->npairs[v])
        return 0;
    c->upto[h][v] = (uint16_t)cover_value(s, c, n0, c->pairs + (size_t)v * CPAIRS,
                                          c->upto[h][v], c->npairs[v], j, c->words[h][v]);
    return (words[j >> 6] >> (j & 63)) & 1;
}

void fr_cover_ahead(const fr_state *s, uint64_t n0, size_t j, uint32_t c)
{
    fr_cover *cover = s->cover;
    uint64_t n = n0 + j;
    const uint16_t *rare = s->rare_values[(n - s->kmin) & 1];
    size_t nrare = s->nrare_values[(n - s->kmin) & 1];
    for (size_t i = 0; i < nrare && rare[i] < c && rare[i] < cover->nvalues; i++)
        covers(s, cover, n0, rare[i], j);
}

const uint64_t *fr_cover_rare(const fr_state *s, uint64_t n0, uint32_t v)
{
    return v < s->cover->nvalues ? words_of(s, s->cover, n0, v, 0) : NULL;
}

const uint64_t *fr_cover_common(const fr_state *s, uint64_t n0, uint32_t w)
{
    return w < s->cover->nvalues ? words_of(s, s->cover, n0, w, 1) : NULL;
}

int fr_cover_common_made(const fr_state *s, uint64_t n0, uint32_t w, const uint64_t **words)
{
    const fr_cover *c = s->cover;
    int h = (int)((n0 / CB) % FR_SETS);
    *words = NULL;
    if (w >= c->nvalues)
        return 0;
    if (__atomic_load_n(&c->cstamp[h][w], __ATOMIC_ACQUIRE) != n0 + 1)
        return -1;
    *words = c->wordsc[h][w];
    return 0;
}

size_t fr_cover_pending(const fr_state *s, uint64_t n, uint32_t c, const uint8_t *row,
                        uint32_t *pending, int extend)
{
    fr_cover *cover = s->cover;
    const uint16_t *rare = s->rare_values[(n - s->kmin) & 1];
    size_t nrare = s->nrare_values[(n - s->kmin) & 1], npending = 0;
    uint64_t n0 = n & ~(uint64_t)(CB - 1);
    size_t j = (size_t)(n - n0);
    /* the words already made and covering j, read in the loop without a call (their arrays
     * stay where they are: locals, which the calls would otherwise make GCC reload) */
    const uint64_t *stamp = cover->stamp[(n0 / CB) % FR_SETS];
    const uint64_t(*words)[CW] = (const uint64_t(*)[CW])cover->words[(n0 / CB) % FR_SETS];
    uint64_t bit = (uint64_t)1 << (j & 63);
    size_t nvalues = cover->nvalues;
    for (size_t i = 0; i < nrare && rare[i] < c; i++) {
        uint32_t v = rare[i];
        if (row[v] || (v < nvalues && stamp[v] == n0 + 1 && (words[v][j >> 6] & bit)))
            continue;
        if (extend && v < nvalues && covers(s, cover, n0, v, j))
            continue;
        pending[npending++] = v;
    }
    return npending;
}

size_t fr_cover_keep(const fr_state *s, uint64_t n, uint32_t *pending, size_t npending)
{
    uint64_t n0 = n & ~(uint64_t)(CB - 1);
    size_t kept = 0;
    for (size_t i = 0; i < npending; i++) {
        uint32_t v = pending[i];
        if (v >= s->cover->nvalues || !covers(s, s->cover, n0, v, (size_t)(n - n0)))
            pending[kept++] = v;
    }
    return kept;
}

int fr_cover_active(const fr_state *s, uint64_t n0)
{
    return usable(s, s->cover, n0);
}
