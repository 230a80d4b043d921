/*
 * settle.c -- the value of one position of a frontier run (see state.c): the
 * marks of the near parts and one-heap moves, then the least unmarked common value unless a
 * smaller value of rare class is reached by no split.
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the witnesses to try first ------------------------------------------------------------ */

/* Rebuilds the lists from the frequencies of the window's last values: for v, the heap sizes
 * a < TRY_FROM of the head with g(a) = t ^ v for the most frequent values t, so that a split
 * a + (total - a) reaches v as often as t occurs near the frontier (tens of tries, where the
 * splits in order take thousands for the values that need two large, nearly equal parts). */
int fr_build_tries(fr_state *s)
{
    size_t nv = (size_t)1 << s->bits < TRY_VALUES ? (size_t)1 << s->bits : TRY_VALUES;
    if (!s->tries) {
        s->tries = (uint32_t *)malloc((size_t)TRY_VALUES * TRY_LEN * sizeof(uint32_t));
        s->ntries = (uint16_t *)calloc(TRY_VALUES, sizeof(uint16_t));
        if (!s->tries || !s->ntries)
            return -1;
    }
    uint32_t *freq = (uint32_t *)calloc(nv, sizeof(uint32_t));
    uint32_t *where = (uint32_t *)malloc(nv * PER_VALUE * sizeof(uint32_t));
    uint8_t *nwhere = (uint8_t *)calloc(nv, 1);
    uint32_t *order = (uint32_t *)malloc(nv * sizeof(uint32_t));
    int ok = freq && where && nwhere && order;
    if (ok) {
        size_t have = (size_t)(s->done - s->base), from = have > TRY_FROM ? have - TRY_FROM : 0;
        for (size_t i = from; i < have; i++)
            if (s->buf[i] < nv)
                freq[s->buf[i]]++;
        size_t top = s->nhead < TRY_FROM ? s->nhead : TRY_FROM;
        for (size_t a = NFIRST + 1; a < top; a++) {
            uint16_t u = s->head[a];
            if (u < nv && nwhere[u] < PER_VALUE)
                where[(size_t)u * PER_VALUE + nwhere[u]++] = (uint32_t)a;
        }
        for (size_t t = 0; t < nv; t++)
            order[t] = (uint32_t)t;
        for (size_t i = 1; i < nv; i++) { /* most frequent first (insertion sort: nv <= 1024) */
            uint32_t t = order[i];
            size_t j = i;
            for (; j > 0 && freq[order[j - 1]] < freq[t]; j--)
                order[j] = order[j - 1];
            order[j] = t;
        }
        for (size_t v = 0; v < nv; v++) {
            uint32_t *list = s->tries + v * TRY_LEN;
            size_t len = 0;
            for (size_t i = 0; i < nv && freq[order[i]] && len < TRY_LEN; i++) {
                uint32_t u = order[i] ^ (uint32_t)v;
                for (size_t j = 0; u < nv && j < nwhere[u] && len < TRY_LEN; j++)
                    list[len++] = where[(size_t)u * PER_VALUE + j] << 16 | u;
            }
            for (size_t i = 1; i < len; i++) { /* by heap size: the loads go in order */
                uint32_t x = list[i];
                size_t j = i;
                for (; j > 0 && list[j - 1] > x; j--)
                    list[j] = list[j - 1];
                list[j] = x;
            }
            s->ntries[v] = (uint16_t)len;
        }
        for (size_t v = nv; v < TRY_VALUES; v++)
            s->ntries[v] = 0;
    }
    free(freq);
    free(where);
    free(nwhere);
    free(order);
    return ok ? 0 : -1;
}

/* Whether a split a + (total - a) with a among v's tries reaches v. */
static int tried(const fr_state *s, uint16_t v, const uint64_t *total, const uint64_t *hi)
{
    if (!s->tries || v >= TRY_VALUES)
        return 0;
    const uint32_t *list = s->tries + (size_t)v * TRY_LEN;
    for (size_t k = 0; k < s->nsplit; k++) {
        if (!total[k])
            continue;
        for (size_t i = 0, len = s->ntries[v]; i < len; i++) {
            uint64_t a = list[i] >> 16, q = total[k] - a;
            if (a >= hi[k] || q < s->base)
                continue;
            if ((uint16_t)(list[i] ^ s->buf[q - s->base]) == v)
                return 1;
        }
    }
    return 0;
}

/* ---- settling one position --------------------------------------------------------------- */

/* Marks the splits a + (total - a), lo <= a < hi (hi - lo <= SCRATCH), or looks for the value
 * c among them (mark == 0): 1 when found. */
static int splits(const fr_state *s, uint64_t total, uint64_t lo, uint64_t hi, uint8_t *row,
                  int mark, uint16_t c, finisher_scratch *fs, int *err)
{
    size_t m = (size_t)(hi - lo);
    const uint16_t *x = fr_values_at(s, lo, m, fs->sx);
    const uint16_t *y = x ? fr_values_at(s, total - hi + 1, m, fs->sy) : NULL;
    if (!y) {
        *err = 1;
        return 0;
    }
    const uint16_t *ytop = y + m - 1;
    if (mark) {
        for (size_t j = 0; j < m; j++)
            row[x[j] ^ ytop[-(ptrdiff_t)j]] = 1;
        return 0;
    }
    size_t scanned;
    return sp_has_pair_u16(x, ytop, m, c, &scanned); /* the pair test (sparse.h) */
}

/* g(n) given the row of marks of the parts and the take moves: the least unmarked common
 * value c, unless a smaller unmarked value of rare class is reached by no split.
 * fr_settle_below: the same from the candidate c, every common value below it marked; the
 * splits with smaller heap below `first` are marked already. */
int fr_settle(const fr_state *s, uint64_t n, uint8_t *row, finisher_scratch *fs,
                  uint32_t *value)
{
    uint32_t ts = (uint32_t)1 << s->bits;
    const uint8_t *common = s->common[(n - s->kmin) & 1];
    uint32_t c = 0;
    while (c < ts && (!common[c] || row[c]))
        c++;
    return fr_settle_below(s, n, row, c, NFIRST + 1, fs, value);
}

int fr_settle_below(const fr_state *s, uint64_t n, uint8_t *row, uint32_t c, uint64_t first,
                    finisher_scratch *fs, uint32_t *value)
{
    /* the values of rare class below c not marked (the common ones are: the caller's word) */
    size_t npending = 0;
    if (fr_cover_active(s, n & ~(uint64_t)(FR_BLOCK - 1))) { /* witnesses (cover.c) */
        npending = fr_cover_pending(s, n, c, row, fs->pending, 1);
    } else {
        const uint16_t *rare = s->rare_values[(n - s->kmin) & 1];
        for (size_t i = 0; i < s->nrare_values[(n - s->kmin) & 1] && rare[i] < c; i++)
            if (!row[rare[i]])
                fs->pending[npending++] = rare[i];
    }
    return fr_settle_pending(s, n, row, c, first, npending, fs, value);
}

int fr_settle_pending(const fr_state *s, uint64_t n, uint8_t *row, uint32_t c, uint64_t first,
                      size_t npending, finisher_scratch *fs, uint32_t *value)
{
    if (!npending) {
        *value = c;
        return 0;
    }
    /* the splits lo[k] <= a < hi[k] of each kind are not marked yet */
    uint64_t lo[32], hi[32], total[32];
    for (size_t k = 0; k < s->nsplit; k++) {
        total[k] = n >= s->split[k] + 2 ? n - s->split[k] : 0;
        hi[k] = total[k] ? fr_split_end(s, total[k]) : 1;
        lo[k] = first < hi[k] ? first : hi[k];
    }
    int err = 0;
    size_t budget = MARK_BUDGET, since = 0;
    for (int any = 1; any && sp_keep_marking(budget, npending);) { /* (sparse.h) */
        any = 0;
        for (size_t k = 0; k < s->nsplit; k++) {
            uint64_t top = hi[k] - lo[k] > CHUNK_SPLITS ? lo[k] + CHUNK_SPLITS : hi[k];
            if (top == lo[k])
                continue;
            splits(s, total[k], lo[k], top, row, 1, 0, fs, &err);
            budget = budget > top - lo[k] ? budget - (size_t)(top - lo[k]) : 0;
            since += (size_t)(top - lo[k]);
            lo[k] = top;
            any = 1;
        }
        if (sp_drop_due(since, npending)) {
            size_t kept = 0;
            for (size_t i = 0; i < npending; i++)
                if (!row[fs->pending[i]])
                    fs->pending[kept++] = fs->pending[i];
            npending = kept;
            since = 0;
        }
    }
    for (size_t i = 0; i < npending && !err; i++) {
        uint16_t v = (uint16_t)fs->pending[i];
        if (row[v])
            continue;
        if (tried(s, v, total, hi)) {
            row[v] = 1;
            continue;
        }
        int hit = 0;
        uint64_t from = 0;
        for (uint64_t stretch = 4 * SP_PAIR_BLOCK; !hit;
             from += stretch, stretch = stretch < SCRATCH ? 2 * stretch : SCRATCH) {
            int any = 0;
            for (size_t k = 0; k < s->nsplit && !hit; k++) {
                if (lo[k] + from >= hi[k])
                    continue;
                uint64_t a = lo[k] + from, b = hi[k] - a > stretch ? a + stretch : hi[k];
                hit = splits(s, total[k], a, b, row, 0, v, fs, &err);
                any = 1;
            }
            if (!any || err)
                break;
        }
        if (!hit) {
            *value = v;
            return err ? -1 : 0;
        }
        row[v] = 1;
    }
    *value = c;
    return err ? -1 : 0;
}

int fr_take_marks(const fr_state *s, uint64_t n, uint8_t *row)
{
    if (n < s->nrules && (s->rules[n] & 1))
        row[0] = 1;
    for (size_t t = 0; t < s->ntake && s->take[t] < n; t++) {
        uint32_t v;
        if (fr_value(s, n - s->take[t], &v) < 0)
            return -1;
        row[v] = 1;
    }
    return 0;
}

/* The marks of the near parts (not in [far_lo, far_hi)) and of the one-heap moves. */
int fr_near_marks(const fr_state *s, uint64_t n, const slot *sl, uint8_t *row)
{
    if (fr_take_marks(s, n, row) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++) {
        if (n < s->split[k] + 2)
            continue;
        uint64_t total = n - s->split[k];
        for (size_t i = 0; i < s->nparts; i++) {
            if (i == sl->far_lo)
                i = sl->far_hi;
            if (i >= s->nparts)
                break;
            uint64_t p = s->parts[i].p;
            if (p >= total)
                break;
            uint64_t q = total - p;
            if (s->unequal && q == p)
                continue;
            uint32_t v;
            if (fr_value(s, q, &v) < 0)
                return -1;
            row[s->parts[i].g ^ v] = 1;
        }
    }
    return 0;
}

