/*
 * turning.c -- Grundy values of structured coin-turning games (coins numbered from 0).
 *
 * A move turns a set of coins whose rightmost coin x goes from heads to tails; G(x) is the
 * mex over the moves at x of the nim-sum of the OTHER coins' values (Winning Ways ch. 14;
 * a position's value is the nim-sum of its heads' values).  Two families have sets
 * cheap to walk: runs of consecutive coins, and arithmetic progressions (for each spacing d,
 * the progression x, x-d, x-2d, ...: O(x/d) steps, so O(n^2 log n) in all, the harmonic
 * sum over d).
 */
#include <stdlib.h>
#include <string.h>

#include "turning.h"

int tg_values(int family, size_t lo, size_t hi, uint64_t *g, size_t start, size_t stop,
              const nc_poll *poll)
{
    size_t cap = 64;
    uint32_t *stamp = (uint32_t *)calloc(cap, sizeof(uint32_t)), now = 0;
    if (!stamp)
        return NC_NOMEM;
    for (size_t x = start; x < stop; x++) {
        if ((x & 63) == 63 && nc_should_stop(poll)) {
            free(stamp);
            return NC_STOPPED;
        }
    again:
        now++;
#define MARK(v)                                                                             \
    do {                                                                                    \
        uint64_t v_ = (v);                                                                  \
        if (v_ < cap)                                                                       \
            stamp[v_] = now;                                                                \
    } while (0)
        if (lo <= 1)
            MARK(0); /* the head alone */
        if (family == TG_CONSECUTIVE) {
            uint64_t acc = 0;
            for (size_t c = 2; c <= hi && c <= x + 1; c++) {
                acc ^= g[x - (c - 1)];
                if (c >= lo)
                    MARK(acc);
            }
        } else { /* TG_PROGRESSION */
            for (size_t d = 1; d <= x; d++) {
                uint64_t acc = 0;
                size_t c = 1;
                for (size_t y = x; y >= d; y -= d) {
                    acc ^= g[y - d];
                    c++;
                    if (c > hi)
                        break;
                    if (c >= lo)
                        MARK(acc);
                }
            }
        }
#undef MARK
        /* Values above the table cannot matter for the mex until it reaches them: the mex
         * is at most the number of options, and the table grows to stay past it. */
        uint64_t m = 0;
        while (m < cap && stamp[m] == now)
            m++;
        int full = m == cap; /* every tracked value is an option: track more, then redo x */
        if (!full)
            g[x] = m;
        if (full || 2 * (m + 1) > cap) {
            size_t ncap = cap;
            while (ncap < 4 * (m + 1))
                ncap *= 2;
            uint32_t *s = (uint32_t *)realloc(stamp, ncap * sizeof(uint32_t));
            if (!s) {
                free(stamp);
                return NC_NOMEM;
            }
            memset(s + cap, 0, (ncap - cap) * sizeof(uint32_t));
            stamp = s;
            cap = ncap;
        }
        if (full)
            goto again;
    }
    free(stamp);
    return NC_OK;
}
