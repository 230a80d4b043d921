/*
 * step.c -- a step of a frontier run (see state.c): groups of positions, their
 * far marks made ahead by helper threads, settled in order by the calling thread.
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
            const uint16_t *src = fr_values_at(s, n0 - s->split[k] - pt->p, m, scratch);
            if (!src)
                return -1;
            mark_group(sl->tab, ts, src, m, pt->g);
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

/* D: alone, the least a group allows; with helpers, a few groups more, so that they can mark
 * ahead while the finisher settles (the finisher's own work, the search for values of rare
 * class, is most of a position's cost: the parts' marks all go to the helpers' kernel). */
static size_t choose_near(const fr_state *s)
{
    if (s->threads == 1)
        return G + s->kmax + 1;
    return LOOKAHEAD * G + s->kmax + 1;
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

/* The helpers of a step: helper h of c->helpers marks the groups h, h + helpers, ...  When
 * not all of them start, none runs (the finisher marks ahead itself).  Returns those running. */
static int start_helpers(step_ctx *c, pthread_t *tid, void *(*args)[2])
{
    int started = 0;
    for (int h = 0; h < c->helpers; h++) {
        args[h][0] = c;
        args[h][1] = (void *)(uintptr_t)h;
        if (pthread_create(&tid[h], NULL, helper_main, args[h]) != 0)
            break;
        started++;
    }
    if (started == c->helpers)
        return started;
    c->stop = 1;
    wake(c);
    for (int h = 0; h < started; h++)
        pthread_join(tid[h], NULL);
    c->stop = 0;
    c->helpers = 0;
    return 0;
}

/* Settles the group j's positions in order (their far marks in): NC_OK, 1 when the tables
 * grew (the groups ahead start over), or an error. */
static int settle_group(step_ctx *c, uint64_t j, finisher_scratch *fs, uint16_t *out,
                        size_t *made)
{
    fr_state *s = c->s;
    slot *sl = &s->slots[j % SLOTS];
    uint64_t n0 = c->start + j * G;
    size_t m = c->end - n0 < G ? (size_t)(c->end - n0) : G;
    size_t ts = (size_t)1 << c->bits;
    for (size_t r = 0; r < m; r++) {
        uint64_t n = n0 + r;
        uint8_t *row = sl->tab + r * ts;
        uint32_t v;
        if (fr_near_marks(s, n, sl, row) < 0 || fr_settle(s, n, row, fs, &v) < 0 || v >> MAX_BITS)
            return NC_BADARG;
        out[n - c->start] = (uint16_t)v;
        if (fr_accept(s, (uint16_t)v) < 0)
            return NC_NOMEM;
        (*made)++;
        if (s->bits != c->bits)
            return 1;
    }
    return NC_OK;
}

/* count positions a group of G at a time: each group's far marks by a helper (or, alone, by
 * the finisher), then settled by the finisher, which hands the slot on. */
static int step_groups(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
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
    int started = start_helpers(&c, tid, args);
    int status = NC_OK;
    uint64_t groups = (count + G - 1) / G;
    for (uint64_t j = 0; j < groups && status == NC_OK; j++) {
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
        if (status == NC_OK)
            status = settle_group(&c, j, fs, out, made);
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

/* Keeps only the window of values in the buffer; the tables, parts and tries the step needs.
 * Returns the positions the buffer has room for (at most count), or -1 out of memory. */
static long step_room(fr_state *s, size_t count)
{
    if (s->done - s->base > s->window) {
        size_t drop = (size_t)(s->done - s->base) - s->window;
        memmove(s->buf, s->buf + drop, s->window * sizeof(uint16_t));
        s->base += drop;
    }
    size_t room = s->buf_cap - (size_t)(s->done - s->base);
    if (count > room)
        count = room;
    if (!count)
        return 0;
    if (s->bits < 1)
        s->bits = 1;
    if (slots_ready(s) < 0 || fr_parts_reserve(s, s->nparts + count) < 0)
        return -1;
    if (s->done >= s->tries_next && s->done >= 2 * TRY_FROM) {
        if (fr_build_tries(s) < 0)
            return -1;
        s->tries_next = s->done + s->done / 4;
    }
    return (long)count;
}

int fr_step(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
    *made = 0;
    if (!s->has_mask)
        return NC_BADARG;
    long room = step_room(s, count);
    if (room <= 0)
        return room < 0 ? NC_NOMEM : NC_OK;
    count = (size_t)room;
    size_t narrow = FR_NARROW ? fr_narrow_wait(s) : SIZE_MAX;
    if (narrow == 0) /* every value below 64: a word of marks a position (narrow.c) */
        return fr_step_narrow(s, count, out, made, poll);
    if (narrow < count) /* up to where the narrow steps can take over */
        count = narrow;
    if (fr_cover_refresh(s) < 0)
        return NC_NOMEM;
    size_t into_block = (size_t)(s->done % FR_BLOCK);
    if (fr_blocks_ready(s, s->done - into_block + (into_block ? FR_BLOCK : 0))) {
        if (into_block) /* position by position up to the next block */
            count = count < FR_BLOCK - into_block ? count : FR_BLOCK - into_block;
        else if (count >= FR_BLOCK) {
            int status = fr_step_blocks(s, count, out, made, poll);
            if (status != NC_OK || *made)
                return status;
            count = FR_BLOCK; /* the blocks declined this one: position by position */
        }
    }
    return step_groups(s, count, out, made, poll);
}
