/*
 * heap_marks.c -- the kernels of the heap engine (heap.c) that mark the values of a position's
 * splits, one set per value width, and its pair test, sparse.h's (heap_marks.h).
 */
#include "heap_marks.h"
#include "sparse.h"

/* The index of the rare position r in the sorted rpos[0..n), or n when r is not rare. */
static size_t rare_index(const uint32_t *rpos, size_t n, uint32_t r)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rpos[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && rpos[lo] == r ? lo : n;
}

/* ---- kernels, one set per value width ---------------------------------------------------- */

/* The kernels of heap_marks.h for one value width T (the dispatchers below pick one). */
#define HP_KERNELS(T, SUF)                                                                    \
    static void mark_pairs_##SUF(const T *g, size_t total, size_t lo, size_t hi,              \
                                 marks seen)                                              \
    {                                                                                         \
        const T *far = g + total;                                                             \
        for (size_t a = lo; a < hi; a++) {                                                    \
            uint32_t x = g[a], y = far[-(ptrdiff_t)a];                                        \
            mark(seen, x ^ y);                                                                \
        }                                                                                     \
    }                                                                                         \
    static void mark_rare_range_##SUF(const T *top, const uint32_t *rpos,                     \
                                      const uint32_t *rval, size_t from, size_t to,           \
                                      marks seen)                                             \
    {                                                                                         \
        uint32_t *s = seen.seen, now = seen.now;                                              \
        size_t i = from;                                                                      \
        for (; i + 4 <= to; i += 4) {                                                         \
            uint32_t v0 = rval[i] ^ top[-(ptrdiff_t)rpos[i]];                                 \
            uint32_t v1 = rval[i + 1] ^ top[-(ptrdiff_t)rpos[i + 1]];                         \
            uint32_t v2 = rval[i + 2] ^ top[-(ptrdiff_t)rpos[i + 2]];                         \
            uint32_t v3 = rval[i + 3] ^ top[-(ptrdiff_t)rpos[i + 3]];                         \
            s[v0] = now;                                                                      \
            s[v1] = now;                                                                      \
            s[v2] = now;                                                                      \
            s[v3] = now;                                                                      \
        }                                                                                     \
        for (; i < to; i++)                                                                   \
            s[rval[i] ^ top[-(ptrdiff_t)rpos[i]]] = now;                                      \
    }                                                                                         \
    static void mark_rare_##SUF(const T *g, size_t total, const uint32_t *rpos,               \
                                const uint32_t *rval, size_t nrare, int unequal,              \
                                marks seen)                                                   \
    {                                                                                         \
        while (nrare && rpos[nrare - 1] >= total)                                             \
            nrare--;                                                                          \
        size_t skip = nrare; /* Grundy's game: the rare total / 2 is no split of its own */   \
        if (unequal && total % 2 == 0)                                                        \
            skip = rare_index(rpos, nrare, (uint32_t)(total / 2));                            \
        mark_rare_range_##SUF(g + total, rpos, rval, 0, skip, seen);                          \
        if (skip < nrare)                                                                     \
            mark_rare_range_##SUF(g + total, rpos, rval, skip + 1, nrare, seen);              \
    }                                                                                         \
    static void mark_triples_##SUF(const T *g, size_t total, marks seen)                  \
    {                                                                                         \
        for (size_t a = 1; a <= total / 3; a++)                                               \
            for (size_t b = a; b <= (total - a) / 2; b++)                                     \
                mark(seen, (uint32_t)(g[a] ^ g[b] ^ g[total - a - b]));                       \
    }

HP_KERNELS(uint8_t, u8)
HP_KERNELS(uint16_t, u16)
HP_KERNELS(uint32_t, u32)

void hp_mark_pairs(const void *g, int width, size_t total, size_t lo, size_t hi,
                   marks seen)
{
    if (width == 1)
        mark_pairs_u8((const uint8_t *)g, total, lo, hi, seen);
    else if (width == 2)
        mark_pairs_u16((const uint16_t *)g, total, lo, hi, seen);
    else
        mark_pairs_u32((const uint32_t *)g, total, lo, hi, seen);
}

/* Whether the value c is among the splits a + (total - a), lo <= a < hi: the sparse space's
 * pair test (sparse.c).  *scanned: how many were compared, counted in whole blocks of HP_BLOCK
 * (the cost settle weighs). */
int hp_search_value(const void *g, int width, size_t total, size_t lo, size_t hi, uint32_t c,
                    size_t *scanned)
{
    size_t m = hi - lo;
    int hit = HP_DISPATCH(width,
        sp_has_pair_u8((const uint8_t *)g + lo, (const uint8_t *)g + total - lo, m, c, scanned),
        sp_has_pair_u16((const uint16_t *)g + lo, (const uint16_t *)g + total - lo, m, c, scanned),
        sp_has_pair_u32((const uint32_t *)g + lo, (const uint32_t *)g + total - lo, m, c, scanned));
    size_t blocks = (*scanned + HP_BLOCK - 1) / HP_BLOCK * HP_BLOCK;
    *scanned = blocks < m ? blocks : m;
    return hit;
}

void hp_mark_rare(const void *g, int width, size_t total, const uint32_t *rpos,
                  const uint32_t *rval, size_t nrare, int unequal, marks seen)
{
    if (width == 1)
        mark_rare_u8((const uint8_t *)g, total, rpos, rval, nrare, unequal, seen);
    else if (width == 2)
        mark_rare_u16((const uint16_t *)g, total, rpos, rval, nrare, unequal, seen);
    else
        mark_rare_u32((const uint32_t *)g, total, rpos, rval, nrare, unequal, seen);
}

void hp_mark_triples(const void *g, int width, size_t total, marks seen)
{
    if (width == 1)
        mark_triples_u8((const uint8_t *)g, total, seen);
    else if (width == 2)
        mark_triples_u16((const uint16_t *)g, total, seen);
    else
        mark_triples_u32((const uint32_t *)g, total, seen);
}
