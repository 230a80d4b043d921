/*
 * values.c -- reading a frontier run's values back (see state.c): from the head (the first
 * heap sizes, kept), the window (the recent values, kept) or the caller's values file (pread).
 * The lowest layer of the engine: every other file reads values through it, and it calls none
 * of them.
 */
#define _POSIX_C_SOURCE 200809L /* pread in strict C11 */

#include "internal.h"

#include <string.h>
#include <unistd.h>

/* ---- reading values back: head, window or file ---------------------------------------- */

static int file_read(const fr_state *s, uint64_t from, size_t n, uint16_t *dst)
{
    if (s->fd < 0)
        return -1;
    size_t w = (size_t)s->fwidth;
    uint8_t raw[2 * SCRATCH];
    while (n) {
        size_t m = n < SCRATCH ? n : SCRATCH, want = m * w, got = 0;
        while (got < want) {
            ssize_t r = pread(s->fd, raw + got, want - got, (off_t)((from * w) + got));
            if (r <= 0)
                return -1;
            got += (size_t)r;
        }
        for (size_t i = 0; i < m; i++)
            dst[i] = w == 1 ? raw[i] : (uint16_t)(raw[2 * i] | (raw[2 * i + 1] << 8));
        dst += m;
        from += m;
        n -= m;
    }
    return 0;
}

/* g(from .. from + n): a pointer into the head or the window, or the values (scratch holds n)
 * copied to scratch (from all three places); NULL when the file cannot be read. */
const uint16_t *fr_values_at(const fr_state *s, uint64_t from, size_t n, uint16_t *scratch)
{
    if (from >= s->base)
        return s->buf + (from - s->base);
    if (from + n <= s->nhead)
        return s->head + from;
    size_t i = 0;
    while (i < n) {
        uint64_t at = from + i;
        if (at >= s->base) {
            memcpy(scratch + i, s->buf + (at - s->base), (n - i) * sizeof(uint16_t));
            break;
        }
        if (at < s->nhead) {
            size_t m = s->nhead - at < n - i ? (size_t)(s->nhead - at) : n - i;
            memcpy(scratch + i, s->head + at, m * sizeof(uint16_t));
            i += m;
            continue;
        }
        size_t m = s->base - at < n - i ? (size_t)(s->base - at) : n - i;
        if (file_read(s, at, m, scratch + i) < 0)
            return NULL;
        i += m;
    }
    return scratch;
}

int fr_value_at(const fr_state *s, uint64_t i, uint32_t *v)
{
    uint16_t one;
    const uint16_t *p = fr_values_at(s, i, 1, &one);
    if (!p)
        return -1;
    *v = *p;
    return 0;
}
