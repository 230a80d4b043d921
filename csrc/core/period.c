/*
 * period.c -- the first period of a heap game's values that a rule proves (hp_first_period,
 * heap.h): Guy and Smith's theorem for moves leaving at most two heaps, the window argument for
 * subtraction games (the rules come from games/heap/periodicity.py).
 */
#include "heap.h"

static inline uint32_t get_value(const void *g, int width, size_t i)
{
    return width == 1 ? ((const uint8_t *)g)[i] : width == 2 ? ((const uint16_t *)g)[i]
                                                             : ((const uint32_t *)g)[i];
}

size_t hp_first_period(const void *g, int width, size_t n, size_t pmax, const hp_period_rule *rule,
                       size_t *preperiod)
{
    if (pmax >= n)
        pmax = n ? n - 1 : 0;
    for (size_t p = 1; p <= pmax; p++) {
        /* the rule a * max(n0, floor) + b * p + c <= n bounds n0 from above */
        size_t need = rule->b * p + rule->c;
        if (need > n)
            break;
        size_t limit = (n - need) / rule->a; /* n0 may be at most this */
        if (limit < rule->floor || limit >= n - p)
            continue;
        /* g[j] == g[j + p] for limit <= j < n - p, looked at from the bottom up: a failing p
         * (a multiple of the true period included) fails near the pre-period, at once */
        size_t j = limit;
        while (j < n - p && get_value(g, width, j) == get_value(g, width, j + p))
            j++;
        if (j < n - p)
            continue;
        while (limit > 0 && get_value(g, width, limit - 1) == get_value(g, width, limit - 1 + p))
            limit--;
        *preperiod = limit;
        return p;
    }
    return 0;
}
