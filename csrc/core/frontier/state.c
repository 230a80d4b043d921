/*
 * state.c -- the sparse-space method (Winning Ways ch. 4; Gangolli & Plambeck 1989; A.
 * Flammenkamp's tables) for long runs: bounded memory, several threads, values in a file.
 *
 * Position n's options of common class all come from splits with a rare part (see heap.c),
 * so marking g(p) ^ g(n - k - p) for every part p -- every rare heap size, plus the first
 * NFIRST heap sizes, whose splits reach most values of rare class too -- gives a certain
 * candidate: the least unmarked value of common class.  Smaller unmarked values of rare
 * class are then looked for among the remaining splits, stopping at the first hit.
 *
 * Positions go in groups of G.  A part p >= D ("far") only reads values at least D below the
 * group, so its marks for a whole group are made ahead of time, G positions at once (one load
 * of G consecutive values per part): by helper threads when there are several, each taking
 * groups in turn, while the finisher (the calling thread) settles the groups in order with
 * the near parts (p < D, and the parts that are not yet the smaller heap of their splits).
 * The marks are facts about the game, so the values do not depend on the number of threads
 * or on D; only the time does.  A part appended during a step (a new rare heap size q) is the
 * larger heap of its splits until n > 2q + k, when the helpers, which run at most D behind the
 * finisher, already see it.
 *
 * This file holds the state (feeding, the mask and the rare list); values.c reads values back,
 * settle.c settles one position, step.c runs a step (internal.h).
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the state -------------------------------------------------------------------------- */

fr_state *fr_new(const unsigned *rules, size_t nrules, int threads, size_t head_cap,
                 size_t window)
{
    fr_state *s = (fr_state *)calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->fd = -1;
    s->fwidth = 1;
    s->path = fr_path_best(); /* the widest vector kernels this CPU runs */
    s->kern = fr_kernels_of(s->path);
    s->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    s->head_cap = head_cap < NFIRST + 1 ? NFIRST + 1 : head_cap;
    s->window = window < ((size_t)1 << 12) ? ((size_t)1 << 12) : window;
    s->buf_cap = 2 * s->window;
    s->head = (uint16_t *)malloc(s->head_cap * sizeof(uint16_t));
    s->buf = (uint16_t *)malloc(s->buf_cap * sizeof(uint16_t));
    s->common[0] = (uint8_t *)malloc((size_t)1 << MAX_BITS);
    s->common[1] = (uint8_t *)malloc((size_t)1 << MAX_BITS);
    s->rare_values[0] = (uint16_t *)malloc(((size_t)1 << MAX_BITS) * sizeof(uint16_t));
    s->rare_values[1] = (uint16_t *)malloc(((size_t)1 << MAX_BITS) * sizeof(uint16_t));
    int bad = !s->head || !s->buf || !s->common[0] || !s->common[1] || !s->rare_values[0] ||
              !s->rare_values[1] || nrules > 32;
    if (rules) {
        s->rules = (unsigned *)malloc((nrules + 1) * sizeof(unsigned));
        bad = bad || !s->rules;
        for (size_t k = 0; !bad && k < nrules; k++) {
            s->rules[k] = rules[k];
            if (rules[k] & 8)
                bad = 1; /* three heaps: not the sparse space's game */
            if (k && (rules[k] & 2))
                s->take[s->ntake++] = k;
            if (rules[k] & 4)
                s->split[s->nsplit++] = k;
        }
        s->nrules = nrules;
    } else {
        s->unequal = 1;
        s->split[s->nsplit++] = 0;
    }
    if (bad || !s->nsplit) {
        fr_free(s);
        return NULL;
    }
    s->kmin = s->split[0];
    s->kmax = s->split[s->nsplit - 1];
    s->parity_ok = 1;
    for (size_t i = 1; i < s->nsplit; i++)
        if ((s->split[i] ^ s->split[0]) & 1)
            s->parity_ok = 0;
    return s;
}

void fr_free(fr_state *s)
{
    if (!s)
        return;
    free(s->rules);
    free(s->head);
    free(s->buf);
    free(s->common[0]);
    free(s->common[1]);
    free(s->rare_values[0]);
    free(s->rare_values[1]);
    free(s->parts);
    free(s->tries);
    free(s->ntries);
    fr_cover_free(s->cover);
    for (int i = 0; i < SLOTS; i++)
        free(s->slots[i].tab);
    free(s);
}

void fr_set_file(fr_state *s, int fd, int width)
{
    s->fd = fd;
    s->fwidth = width == 2 ? 2 : 1;
}

void fr_get_info(const fr_state *s, fr_info *info)
{
    info->done = s->done;
    info->rare = s->nrare;
    info->last_rare = s->last_rare;
    info->bits = s->bits;
    info->emask = s->emask;
    info->parts = s->nparts;
    info->near_limit = s->near_limit;
    info->blocked = s->blocked;
    info->taken_back = s->taken_back;
    info->narrowed = s->narrowed;
    info->alone_until = s->alone_until;
    info->lag_until = s->lag_until;
    info->teamed = s->teamed;
}

/* Keeps the window: when the buffer is full, its last `window` values move to the front. */
static void buf_push(fr_state *s, uint16_t v)
{
    if (s->done - s->base == s->buf_cap) {
        size_t drop = s->buf_cap - s->window;
        memmove(s->buf, s->buf + drop, s->window * sizeof(uint16_t));
        s->base += drop;
    }
    s->buf[s->done - s->base] = v;
}

static void note_bits(fr_state *s, uint32_t v)
{
    while (s->bits < MAX_BITS && ((uint32_t)1 << s->bits) <= v)
        s->bits++;
}

int fr_parts_reserve(fr_state *s, size_t need)
{
    if (need <= s->pcap)
        return 0;
    size_t cap = s->pcap ? s->pcap : 1024;
    while (cap < need)
        cap *= 2;
    part *p = (part *)realloc(s->parts, cap * sizeof(part));
    if (!p)
        return -1;
    s->parts = p;
    s->pcap = cap;
    return 0;
}

/* A value of position done, known: kept in the head and the window, and a part when rare. */
int fr_accept(fr_state *s, uint16_t v)
{
    uint64_t n = s->done;
    if (n < s->head_cap)
        s->head[s->nhead++] = v;
    buf_push(s, v);
    note_bits(s, v);
    fr_cover_note(s, n, v);
    int rare = s->has_mask && n >= 1 && is_rare(s, n, v);
    if (rare) {
        s->nrare++;
        s->last_rare = n;
    }
    if (n >= 1 && (rare || is_first(n))) {
        if (fr_parts_reserve(s, s->nparts + 1) < 0)
            return -1;
        s->parts[s->nparts].p = n;
        s->parts[s->nparts].g = v;
        s->parts[s->nparts].rare = (uint32_t)rare;
        __atomic_store_n(&s->nparts, s->nparts + 1, __ATOMIC_RELEASE); /* read by helpers */
    }
    s->done++;
    return 0;
}

void fr_take_back(fr_state *s, uint64_t n)
{
    for (uint64_t m = n; m < s->done; m++)
        fr_cover_unnote(s, m, s->buf[m - s->base]);
    if (s->nhead > n)
        s->nhead = (size_t)n;
    s->blocked -= s->done - n;
    s->done = n;
    s->taken_back++;
    fr_cover_forget(s);
}

int fr_feed(fr_state *s, const uint16_t *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fr_accept(s, values[i]) < 0)
            return NC_NOMEM;
    return NC_OK;
}

int fr_set_mask(fr_state *s, uint32_t emask, const nc_poll *poll)
{
    if ((emask & 1) && !s->parity_ok)
        return NC_BADARG;
    s->emask = emask;
    s->has_mask = 1;
    for (int p = 0; p < 2; p++) {
        s->nrare_values[p] = 0;
        for (uint32_t v = 0; v < ((uint32_t)1 << MAX_BITS); v++) {
            s->common[p][v] = (uint8_t)sp_is_common_value(emask, v, (unsigned)p);
            if (!s->common[p][v])
                s->rare_values[p][s->nrare_values[p]++] = (uint16_t)v;
        }
    }
    s->nparts = 0;
    s->nrare = 0;
    s->last_rare = 0;
    uint16_t scratch[SCRATCH];
    for (uint64_t i = 1; i < s->done; i += SCRATCH) {
        size_t m = s->done - i < SCRATCH ? (size_t)(s->done - i) : SCRATCH;
        const uint16_t *v = fr_values_at(s, i, m, scratch);
        if (!v)
            return NC_BADARG;
        for (size_t j = 0; j < m; j++) {
            uint64_t n = i + j;
            int rare = is_rare(s, n, v[j]);
            if (rare) {
                s->nrare++;
                s->last_rare = n;
            }
            if (rare || is_first(n)) {
                if (fr_parts_reserve(s, s->nparts + 1) < 0)
                    return NC_NOMEM;
                s->parts[s->nparts].p = n;
                s->parts[s->nparts].g = v[j];
                s->parts[s->nparts].rare = (uint32_t)rare;
                s->nparts++;
            }
        }
        if ((i & ((1u << 22) - 1)) < SCRATCH && nc_should_stop(poll))
            return NC_STOPPED;
    }
    return NC_OK;
}

