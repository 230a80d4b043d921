/*
 * frontier.c -- the sparse-space method (Winning Ways ch. 4; Gangolli & Plambeck 1989; A.
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
 */
#define _POSIX_C_SOURCE 200809L /* pread in strict C11 */

#include "frontier.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define FR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define FR_CLONES
#endif

/* G: positions per group; SLOTS: groups in flight; NFIRST: first heap sizes among the parts;
 * SCRATCH: values read back per piece; CHUNK_SPLITS: splits marked one by one per chunk
 * while values of rare class are pending, up to MARK_BUDGET before the search by value. */
#ifndef FR_NFIRST
#define FR_NFIRST 192
#endif
#ifndef FR_BUDGET
#define FR_BUDGET 256
#endif
/* TRY_VALUES: values with lists of witnesses to try, TRY_LEN entries each, PER_VALUE per
 * frequent value of the frontier, from heap sizes below TRY_FROM (cached near the frontier's). */
#ifndef FR_TRY_FROM
#define FR_TRY_FROM (1 << 16)
#endif
#ifndef FR_TRY_LEN
#define FR_TRY_LEN 128
#endif
enum { TRY_VALUES = 1024, TRY_LEN = FR_TRY_LEN, PER_VALUE = 8, TRY_FROM = FR_TRY_FROM };
enum { G = 64, SLOTS = 16, BLOCK = 64, NFIRST = FR_NFIRST, SCRATCH = 4096, CHUNK_SPLITS = 64,
       MARK_BUDGET = FR_BUDGET, MAX_BITS = 16 };

typedef struct {
    uint64_t p;
    uint32_t g;
} part;

typedef struct {
    uint8_t *tab;       /* G rows of 2^bits marks */
    size_t far_lo, far_hi; /* the parts [far_lo, far_hi) marked ahead */
} slot;

struct fr_state {
    unsigned *rules;
    size_t nrules;
    int unequal;                /* Grundy's game */
    size_t take[32], ntake;     /* remove k, leave one heap */
    size_t split[32], nsplit;   /* remove k, leave two heaps */
    size_t kmin, kmax;
    int parity_ok;
    int threads;
    /* the values */
    uint64_t done;
    uint16_t *head;
    size_t head_cap, nhead;
    uint16_t *buf; /* g(base .. done) */
    uint64_t base;
    size_t window, buf_cap;
    int fd, fwidth;
    unsigned bits;
    /* the sparse space */
    uint32_t emask;
    int has_mask;
    uint8_t *common[2]; /* 2^MAX_BITS each */
    part *parts;
    size_t nparts, pcap;
    uint64_t nrare, last_rare;
    size_t near_limit; /* D of the last step */
    /* the witnesses to try first for a value v of rare class: heap sizes a of the head
     * whose value u makes u ^ v a frequent value of the frontier */
    uint32_t *tries;     /* TRY_VALUES lists of TRY_LEN: a << 16 | g(a) */
    uint16_t *ntries;
    uint64_t tries_next; /* rebuilt when done reaches this */
    slot slots[SLOTS];
    size_t slot_bits;
};

static inline int parity32(uint32_t x)
{
    x ^= x >> 16;
    x ^= x >> 8;
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return (int)(x & 1);
}

static int is_rare(const fr_state *s, uint64_t i, uint32_t v)
{
    return !parity32(((v << 1) | (uint32_t)(i & 1)) & s->emask);
}

/* Heap sizes among the parts whatever their values: the first NFIRST, where the search for
 * values of rare class would start anyway. */
static int is_first(uint64_t n)
{
    return n <= NFIRST;
}

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

/* g(from .. from + n), n <= SCRATCH: a pointer into the head or the window, or the values
 * copied to scratch (from all three places); NULL when the file cannot be read. */
static const uint16_t *values_at(const fr_state *s, uint64_t from, size_t n, uint16_t *scratch)
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

static int value_at(const fr_state *s, uint64_t i, uint32_t *v)
{
    uint16_t one;
    const uint16_t *p = values_at(s, i, 1, &one);
    if (!p)
        return -1;
    *v = *p;
    return 0;
}

/* ---- the state -------------------------------------------------------------------------- */

fr_state *fr_new(const unsigned *rules, size_t nrules, int threads, size_t head_cap,
                 size_t window)
{
    fr_state *s = (fr_state *)calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->fd = -1;
    s->fwidth = 1;
    s->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    s->head_cap = head_cap < NFIRST + 1 ? NFIRST + 1 : head_cap;
    s->window = window < ((size_t)1 << 12) ? ((size_t)1 << 12) : window;
    s->buf_cap = 2 * s->window;
    s->head = (uint16_t *)malloc(s->head_cap * sizeof(uint16_t));
    s->buf = (uint16_t *)malloc(s->buf_cap * sizeof(uint16_t));
    s->common[0] = (uint8_t *)malloc((size_t)1 << MAX_BITS);
    s->common[1] = (uint8_t *)malloc((size_t)1 << MAX_BITS);
    int bad = !s->head || !s->buf || !s->common[0] || !s->common[1] || nrules > 32;
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
    free(s->parts);
    free(s->tries);
    free(s->ntries);
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

static int parts_reserve(fr_state *s, size_t need)
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
static int accept(fr_state *s, uint16_t v)
{
    uint64_t n = s->done;
    if (n < s->head_cap)
        s->head[s->nhead++] = v;
    buf_push(s, v);
    note_bits(s, v);
    int rare = s->has_mask && n >= 1 && is_rare(s, n, v);
    if (rare) {
        s->nrare++;
        s->last_rare = n;
    }
    if (n >= 1 && (rare || is_first(n))) {
        if (parts_reserve(s, s->nparts + 1) < 0)
            return -1;
        s->parts[s->nparts].p = n;
        s->parts[s->nparts].g = v;
        s->nparts++;
    }
    s->done++;
    return 0;
}

int fr_feed(fr_state *s, const uint16_t *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (accept(s, values[i]) < 0)
            return NC_NOMEM;
    return NC_OK;
}

int fr_set_mask(fr_state *s, uint32_t emask, const nc_poll *poll)
{
    if ((emask & 1) && !s->parity_ok)
        return NC_BADARG;
    s->emask = emask;
    s->has_mask = 1;
    for (int p = 0; p < 2; p++)
        for (uint32_t v = 0; v < ((uint32_t)1 << MAX_BITS); v++)
            s->common[p][v] = (uint8_t)parity32(((v << 1) | (uint32_t)p) & emask);
    s->nparts = 0;
    s->nrare = 0;
    s->last_rare = 0;
    uint16_t scratch[SCRATCH];
    for (uint64_t i = 1; i < s->done; i += SCRATCH) {
        size_t m = s->done - i < SCRATCH ? (size_t)(s->done - i) : SCRATCH;
        const uint16_t *v = values_at(s, i, m, scratch);
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
                if (parts_reserve(s, s->nparts + 1) < 0)
                    return NC_NOMEM;
                s->parts[s->nparts].p = n;
                s->parts[s->nparts].g = v[j];
                s->nparts++;
            }
        }
        if ((i & ((1u << 22) - 1)) < SCRATCH && nc_should_stop(poll))
            return NC_STOPPED;
    }
    return NC_OK;
}

/* ---- the marks of far parts, a group at a time ----------------------------------------- */

/* The first part index whose p is at least lo. */
static size_t parts_from(const part *pt, size_t n, uint64_t lo)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (pt[m].p < lo)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

FR_CLONES static void mark_group(uint8_t *tab, size_t ts, const uint16_t *src, size_t m,
                                 uint32_t gp)
{
    for (size_t r = 0; r < m; r++)
        tab[r * ts + (src[r] ^ gp)] = 1;
}

/* Marks, for the positions n0 .. n0+m, the splits whose smaller heap is a far part: p >= D and
 * 2p + kmax < n0 (so n - k - p > p), parts [lo, hi) of the first `len`. */
static int far_marks(const fr_state *s, slot *sl, uint64_t n0, size_t m, size_t near, size_t len,
                     unsigned bits, uint16_t *scratch)
{
    size_t ts = (size_t)1 << bits;
    memset(sl->tab, 0, m * ts);
    size_t lo = parts_from(s->parts, len, near);
    size_t hi = n0 > s->kmax ? parts_from(s->parts, len, (n0 - s->kmax + 1) / 2) : 0;
    if (hi < lo)
        hi = lo;
    sl->far_lo = lo;
    sl->far_hi = hi;
    for (size_t i = lo; i < hi; i++) {
        const part *pt = &s->parts[i];
        for (size_t k = 0; k < s->nsplit; k++) {
            const uint16_t *src = values_at(s, n0 - s->split[k] - pt->p, m, scratch);
            if (!src)
                return -1;
            mark_group(sl->tab, ts, src, m, pt->g);
        }
    }
    return 0;
}

/* ---- the witnesses to try first ------------------------------------------------------------ */

/* Rebuilds the lists from the frequencies of the window's last values: for v, the heap sizes
 * a < TRY_FROM of the head with g(a) = t ^ v for the most frequent values t, so that a split
 * a + (total - a) reaches v as often as t occurs near the frontier (tens of tries, where the
 * splits in order take thousands for the values that need two large, nearly equal parts). */
static int build_tries(fr_state *s)
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

/* Whether x[j] ^ ytop[-j] == c for some j < m: blocks of BLOCK (a few vector registers),
 * stopping after the first block with a hit. */
FR_CLONES static int block_hit(const uint16_t *x, const uint16_t *ytop, uint16_t c)
{
    unsigned hit = 0;
    for (size_t j = 0; j < BLOCK; j++)
        hit |= (uint16_t)(x[j] ^ ytop[-(ptrdiff_t)j]) == c;
    return hit != 0;
}

static int has_pair(const uint16_t *x, const uint16_t *ytop, size_t m, uint16_t c)
{
    size_t j = 0;
    for (; j + BLOCK <= m; j += BLOCK)
        if (block_hit(x + j, ytop - j, c))
            return 1;
    for (; j < m; j++)
        if ((uint16_t)(x[j] ^ ytop[-(ptrdiff_t)j]) == c)
            return 1;
    return 0;
}

/* The end (exclusive) of the smaller heap a of the splits a + (total - a). */
static uint64_t split_end(const fr_state *s, uint64_t total)
{
    return s->unequal ? (total + 1) / 2 : total / 2 + 1;
}

typedef struct {
    uint16_t sx[SCRATCH], sy[SCRATCH];
    uint32_t pending[(size_t)1 << MAX_BITS];
} finisher_scratch;

/* Marks the splits a + (total - a), lo <= a < hi (hi - lo <= SCRATCH), or looks for the value
 * c among them (mark == 0): 1 when found. */
static int splits(const fr_state *s, uint64_t total, uint64_t lo, uint64_t hi, uint8_t *row,
                  int mark, uint16_t c, finisher_scratch *fs, int *err)
{
    size_t m = (size_t)(hi - lo);
    const uint16_t *x = values_at(s, lo, m, fs->sx);
    const uint16_t *y = x ? values_at(s, total - hi + 1, m, fs->sy) : NULL;
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
    return has_pair(x, ytop, m, c);
}

/* g(n) given the row of marks of the parts and the take moves: the least unmarked common
 * value c, unless a smaller unmarked value of rare class is reached by no split. */
static int settle(const fr_state *s, uint64_t n, uint8_t *row, finisher_scratch *fs,
                  uint32_t *value)
{
    uint32_t ts = (uint32_t)1 << s->bits;
    const uint8_t *common = s->common[(n - s->kmin) & 1];
    uint32_t c = 0;
    while (c < ts && (!common[c] || row[c]))
        c++;
    size_t npending = 0;
    for (uint32_t v = 0; v < c; v++)
        if (!row[v])
            fs->pending[npending++] = v;
    if (!npending) {
        *value = c;
        return 0;
    }
    /* the splits lo[k] <= a < hi[k] of each kind are not marked yet */
    uint64_t lo[32], hi[32], total[32];
    for (size_t k = 0; k < s->nsplit; k++) {
        total[k] = n >= s->split[k] + 2 ? n - s->split[k] : 0;
        hi[k] = total[k] ? split_end(s, total[k]) : 1;
        lo[k] = NFIRST + 1 < hi[k] ? NFIRST + 1 : hi[k];
    }
    int err = 0;
    size_t budget = MARK_BUDGET;
    for (int any = 1; npending && any && budget;) {
        any = 0;
        for (size_t k = 0; k < s->nsplit; k++) {
            uint64_t top = hi[k] - lo[k] > CHUNK_SPLITS ? lo[k] + CHUNK_SPLITS : hi[k];
            if (top == lo[k])
                continue;
            splits(s, total[k], lo[k], top, row, 1, 0, fs, &err);
            budget = budget > top - lo[k] ? budget - (size_t)(top - lo[k]) : 0;
            lo[k] = top;
            any = 1;
        }
        size_t kept = 0;
        for (size_t i = 0; i < npending; i++)
            if (!row[fs->pending[i]])
                fs->pending[kept++] = fs->pending[i];
        npending = kept;
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
        for (uint64_t stretch = 4 * BLOCK; !hit; from += stretch, stretch = stretch < SCRATCH ? 2 * stretch : SCRATCH) {
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

/* The marks of the near parts (not in [far_lo, far_hi)) and of the one-heap moves. */
static int near_marks(const fr_state *s, uint64_t n, const slot *sl, uint8_t *row)
{
    if (n < s->nrules && (s->rules[n] & 1))
        row[0] = 1;
    for (size_t t = 0; t < s->ntake && s->take[t] < n; t++) {
        uint32_t v;
        if (value_at(s, n - s->take[t], &v) < 0)
            return -1;
        row[v] = 1;
    }
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
            if (q >= s->base)
                v = s->buf[q - s->base];
            else if (value_at(s, q, &v) < 0)
                return -1;
            row[s->parts[i].g ^ v] = 1;
        }
    }
    return 0;
}

/* ---- a step: the finisher and its helpers ------------------------------------------------ */

typedef struct {
    fr_state *s;
    uint64_t start, end;
    size_t near;                  /* D */
    unsigned bits;                /* the tables' */
    int helpers;
    volatile uint64_t published;  /* values known to the helpers (atomic) */
    volatile int stop;
    volatile uint64_t ready[SLOTS]; /* group j + 1 when its far marks are in */
    volatile uint64_t owner[SLOTS]; /* the group the slot may take next */
    volatile size_t nparts;         /* parts visible to the helpers */
    int failed;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int sleepers;
} step_ctx;

static uint64_t load_acq(volatile uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store_rel(volatile uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

/* Waiting for another thread: a short spin, then sleeping on the condition variable (the
 * machine may have fewer cores than threads).  wake() after every published change. */
static void wait_a_little(step_ctx *c, unsigned *spins)
{
    if (++*spins < 256) {
        CPU_RELAX();
        return;
    }
    pthread_mutex_lock(&c->lock);
    __atomic_add_fetch(&c->sleepers, 1, __ATOMIC_SEQ_CST);
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 1000000;
    if (t.tv_nsec >= 1000000000) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&c->cond, &c->lock, &t); /* the caller checks again */
    __atomic_sub_fetch(&c->sleepers, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&c->lock);
    *spins = 0;
}

static void wake(step_ctx *c)
{
    if (__atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&c->lock);
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
}

static int group_far(step_ctx *c, uint64_t j, uint16_t *scratch)
{
    fr_state *s = c->s;
    uint64_t n0 = c->start + j * G;
    size_t m = c->end - n0 < G ? (size_t)(c->end - n0) : G;
    size_t len = __atomic_load_n(&c->nparts, __ATOMIC_ACQUIRE);
    return far_marks(s, &s->slots[j % SLOTS], n0, m, c->near, len, c->bits, scratch);
}

static void *helper_main(void *arg)
{
    step_ctx *c = ((step_ctx **)arg)[0];
    uint64_t first = (uint64_t)(uintptr_t)((step_ctx **)arg)[1];
    uint16_t scratch[G];
    uint64_t groups = (c->end - c->start + G - 1) / G;
    for (uint64_t j = first; j < groups; j += (uint64_t)c->helpers) {
        uint64_t n1 = c->start + (j + 1) * G;
        if (n1 > c->end)
            n1 = c->end;
        uint64_t need = n1 > c->s->kmin + c->near ? n1 - c->s->kmin - c->near : 0;
        unsigned spins = 0;
        while (!c->stop && (load_acq(&c->owner[j % SLOTS]) != j || load_acq(&c->published) < need))
            wait_a_little(c, &spins);
        if (c->stop)
            break;
        if (group_far(c, j, scratch) < 0) {
            c->failed = 1;
            c->stop = 1;
            wake(c);
            break;
        }
        store_rel(&c->ready[j % SLOTS], j + 1);
        wake(c);
    }
    return NULL;
}

/* The parts below D: about 1 / (2 threads) of them with helpers (the finisher also settles),
 * none beyond what a group needs alone. */
static size_t choose_near(const fr_state *s)
{
    size_t least = 2 * G + s->kmax + 1;
    if (s->threads == 1 || !s->nparts)
        return G + s->kmax + 1;
    size_t i = s->nparts / (2 * (size_t)s->threads);
    uint64_t d = s->parts[i].p;
    return d > least ? (size_t)d : least;
}

static int slots_ready(fr_state *s)
{
    if (s->slot_bits == s->bits && s->slots[0].tab)
        return 0;
    for (int i = 0; i < SLOTS; i++) {
        free(s->slots[i].tab);
        s->slots[i].tab = (uint8_t *)malloc((size_t)G << s->bits);
        if (!s->slots[i].tab)
            return -1;
    }
    s->slot_bits = s->bits;
    return 0;
}

int fr_step(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
    *made = 0;
    if (!s->has_mask)
        return NC_BADARG;
    if (s->done - s->base > s->window) { /* room in the buffer: keep the window only */
        size_t drop = (size_t)(s->done - s->base) - s->window;
        memmove(s->buf, s->buf + drop, s->window * sizeof(uint16_t));
        s->base += drop;
    }
    size_t room = s->buf_cap - (size_t)(s->done - s->base);
    if (count > room)
        count = room;
    if (!count)
        return NC_OK;
    if (s->bits < 1)
        s->bits = 1;
    if (slots_ready(s) < 0 || parts_reserve(s, s->nparts + count) < 0)
        return NC_NOMEM;
    if (s->done >= s->tries_next && s->done >= 2 * TRY_FROM) {
        if (build_tries(s) < 0)
            return NC_NOMEM;
        s->tries_next = s->done + s->done / 4;
    }
    finisher_scratch *fs = (finisher_scratch *)malloc(sizeof *fs);
    if (!fs)
        return NC_NOMEM;
    step_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.start = s->done;
    c.end = s->done + count;
    c.near = choose_near(s);
    c.bits = s->bits;
    s->near_limit = c.near;
    c.helpers = s->threads - 1;
    c.published = s->done;
    c.nparts = s->nparts;
    for (uint64_t i = 0; i < SLOTS; i++)
        c.owner[i] = i;
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    pthread_t tid[64];
    void *args[64][2];
    int started = 0;
    for (int h = 0; h < c.helpers; h++) {
        args[h][0] = &c;
        args[h][1] = (void *)(uintptr_t)h;
        if (pthread_create(&tid[h], NULL, helper_main, args[h]) != 0)
            break;
        started++;
    }
    if (started < c.helpers) { /* fewer threads: the finisher marks ahead itself */
        c.stop = 1;
        wake(&c);
        for (int h = 0; h < started; h++)
            pthread_join(tid[h], NULL);
        c.stop = 0;
        c.helpers = 0;
        started = 0;
    }
    int status = NC_OK;
    unsigned bits = s->bits;
    uint64_t groups = (count + G - 1) / G;
    for (uint64_t j = 0; j < groups && status == NC_OK; j++) {
        slot *sl = &s->slots[j % SLOTS];
        uint64_t n0 = c.start + j * G;
        size_t m = c.end - n0 < G ? (size_t)(c.end - n0) : G;
        if (!c.helpers) {
            if (group_far(&c, j, fs->sx) < 0)
                status = NC_BADARG;
        } else {
            unsigned spins = 0;
            while (load_acq(&c.ready[j % SLOTS]) != j + 1 && !c.failed)
                wait_a_little(&c, &spins);
            if (c.failed)
                status = NC_BADARG;
        }
        size_t ts = (size_t)1 << bits;
        for (size_t r = 0; r < m && status == NC_OK; r++) {
            uint64_t n = n0 + r;
            uint8_t *row = sl->tab + r * ts;
            uint32_t v;
            if (near_marks(s, n, sl, row) < 0 || settle(s, n, row, fs, &v) < 0) {
                status = NC_BADARG;
                break;
            }
            if (v >> MAX_BITS) {
                status = NC_BADARG;
                break;
            }
            out[n - c.start] = (uint16_t)v;
            if (accept(s, (uint16_t)v) < 0) {
                status = NC_NOMEM;
                break;
            }
            (*made)++;
            if (s->bits != bits) { /* the tables grow: the groups ahead start over */
                status = 1;
                break;
            }
        }
        __atomic_store_n(&c.nparts, s->nparts, __ATOMIC_RELEASE);
        store_rel(&c.published, s->done);
        store_rel(&c.owner[j % SLOTS], j + SLOTS);
        wake(&c);
        if (status == NC_OK && nc_should_stop(poll))
            status = NC_STOPPED;
    }
    c.stop = 1;
    wake(&c);
    for (int h = 0; h < started; h++)
        pthread_join(tid[h], NULL);
    pthread_mutex_destroy(&c.lock);
    pthread_cond_destroy(&c.cond);
    free(fs);
    return status == 1 ? NC_OK : status;
}
