/*
 * heap.c -- Grundy values of heap games (take-and-break games and Grundy's game).
 *
 * A take-and-break code gives, for removing k tokens, a set of allowed numbers of heaps
 * to leave (bit j: exactly j non-empty heaps; CGSuite's notation, hex digits for j = 3).
 * g(n) = mex of the nim-sums of the heaps each move leaves (Sprague-Grundy).
 * The computation extends a prefix g[0..start) to g[0..stop), so the caller can run it in
 * chunks (a progress bar between chunks).  The "seen" marks are stamps (no clearing between
 * positions).  Cost per position: O(n) for each removal that may leave two heaps, O(n^2) for
 * three.
 */
#include <stdlib.h>
#include <string.h>

#include "games.h"

typedef struct {
    uint32_t *stamp;
    size_t size;
    uint32_t now;
} marks;

/* Room for every nim-sum of values <= maxg: below the next power of two above maxg. */
static int marks_reserve(marks *m, uint32_t maxg)
{
    size_t need = 1;
    while (need <= (size_t)maxg)
        need <<= 1;
    need = need * 2 + 2; /* and the mex itself, one past the largest seen */
    if (need <= m->size)
        return 0;
    uint32_t *s = (uint32_t *)realloc(m->stamp, need * sizeof(uint32_t));
    if (!s)
        return -1;
    memset(s + m->size, 0, (need - m->size) * sizeof(uint32_t));
    m->stamp = s;
    m->size = need;
    return 0;
}

static uint32_t mex_of_marks(const marks *m)
{
    uint32_t v = 0;
    while ((size_t)v < m->size && m->stamp[v] == m->now)
        v++;
    return v;
}

/* Stores g[n] = the mex of the marked options and keeps room for the values to come.
 * 0, or -1 when out of memory (the marks are then freed). */
static int settle(marks *m, uint32_t *g, size_t n, uint32_t *maxg)
{
    g[n] = mex_of_marks(m);
    if (g[n] > *maxg) {
        *maxg = g[n];
        if (marks_reserve(m, *maxg) < 0) {
            free(m->stamp);
            return -1;
        }
    }
    return 0;
}

/* Marks with room for every value of the prefix g[0..start); 0, or -1 when out of memory. */
static int marks_start(marks *m, const uint32_t *g, size_t start, uint32_t *maxg)
{
    *maxg = 0;
    for (size_t i = 0; i < start; i++)
        if (g[i] > *maxg)
            *maxg = g[i];
    return marks_reserve(m, *maxg);
}

int hp_take_break(const unsigned *rules, size_t nrules, uint32_t *g, size_t start, size_t stop)
{
    marks m = {NULL, 0, 0};
    uint32_t maxg;
    if (marks_start(&m, g, start, &maxg) < 0)
        return -1;
    for (size_t n = start; n < stop; n++) {
        m.now++;
        for (size_t k = 0; k < nrules && k <= n; k++) {
            unsigned bits = rules[k];
            size_t r = n - k;
            if ((bits & 1) && r == 0)
                m.stamp[0] = m.now;
            if ((bits & 2) && r >= 1 && !(k == 0))
                m.stamp[g[r]] = m.now;
            if ((bits & 4) && r >= 2)
                for (size_t a = 1; a <= r / 2; a++)
                    m.stamp[g[a] ^ g[r - a]] = m.now;
            if ((bits & 8) && r >= 3)
                for (size_t a = 1; a <= r / 3; a++)
                    for (size_t b = a; b <= (r - a) / 2; b++)
                        m.stamp[g[a] ^ g[b] ^ g[r - a - b]] = m.now;
        }
        if (settle(&m, g, n, &maxg) < 0)
            return -1;
    }
    free(m.stamp);
    return 0;
}

int hp_grundy_game(uint32_t *g, size_t start, size_t stop)
{
    marks m = {NULL, 0, 0};
    uint32_t maxg;
    if (marks_start(&m, g, start, &maxg) < 0)
        return -1;
    for (size_t n = start; n < stop; n++) {
        m.now++;
        for (size_t a = 1; 2 * a < n; a++) /* two unequal non-empty heaps a < n - a */
            m.stamp[g[a] ^ g[n - a]] = m.now;
        if (settle(&m, g, n, &maxg) < 0)
            return -1;
    }
    free(m.stamp);
    return 0;
}
