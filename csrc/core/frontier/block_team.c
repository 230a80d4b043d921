/*
 * block_team.c -- a sub-block of the block step (block.c) settled on speculation by a team:
 * the calling thread and `workers` more settle its positions at once, each position against
 * guesses of the values before it in the sub-block, and the calling thread alone keeps, in
 * order, those whose guesses held.
 *
 * On speculation (three threads or more: block.c) a position's value is its first candidate
 * no split reaches, c, and its values of rare class below c are proved later (the provers).
 * c depends on the values before it through the near parts' splits and the one-heap moves,
 * some of them in the same sub-block.  So, after the scheme of speculative parallel
 * evaluation that mvr/officers describes for its CUDA kernel (guess, verify in parallel, keep
 * up to the first wrong guess, repeat), a round is:
 *   1. each position not yet kept, j >= lo, gets a guess: its first candidate the far and mid
 *      parts do not reach (round 1: about 96% of Grundy's game's values and 90% of
 *      Officers'), or the value it got in the round before; the guesses go into the window
 *      past s->done, where the positions' reads find them;
 *   2. the team settles the positions from lo in parallel (fr_block_guess: near marks, the
 *      candidate, the obligations), CHUNK positions a claim;
 *   3. the calling thread keeps them in order (fr_accept, the obligations recorded) while
 *      every position before was given its own value as its guess: position j's reads were
 *      then the values themselves, so its c is the one position-by-position settling finds.
 *      The first position whose c differs from its guess is kept too (its reads were right),
 *      and the round ends there: the later positions read a wrong value.  A position a team
 *      thread could not finish (a word of the coverage not made yet: only the calling thread
 *      makes them; too many obligations; a value past the tables) is settled by the calling
 *      thread there, whose reads are then right; a new rare heap size ends the round too (the
 *      later positions did not mark its splits).
 * Each round keeps at least one position, so the sub-block ends; a value is only ever kept
 * once its position was settled on right values, and the obligations go to the provers as
 * before: the values equal the one-thread engine's.  The serial part is step 3 (and the
 * positions left to the calling thread); benchmarks/README.md, "Settling by a team", has
 * what it costs.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime in strict C11 */

#include "block.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CHUNK: positions a claim; OBLIGED: obligations a team thread keeps for a position (more:
 * the calling thread settles it). */
enum { CHUNK = 8, OBLIGED = 96 };

typedef struct {
    uint16_t value;
    uint8_t left;  /* left to the calling thread */
    uint8_t past;  /* went past its K candidates */
    uint16_t nob;
    uint16_t ob[OBLIGED];
} team_result;

typedef struct {
    struct fr_team *t;
    settle_lane lane;
} team_worker;

struct fr_team {
    pthread_t *threads;
    team_worker *w;
    size_t workers;
    pthread_mutex_t lock; /* the claims and the round's parameters */
    pthread_cond_t go;
    /* the round (under lock) */
    const fr_state *s;
    const block_prep *p;
    const block_work *b;
    volatile uint64_t round;
    size_t next, hi;           /* the next of list[0 .. hi) to claim, the end */
    volatile size_t finished;  /* positions of the round finished (atomic) */
    int quit;
    uint16_t list[S];          /* the round's positions (of the block) */
    team_result res[S];
    uint16_t guess[S];         /* what the positions of the sub-block read at each position */
    /* the helper's words of the next block, shared with idle team threads (fr_team_words;
     * under lock but jdone): the values [0, jhi) of one class, one a claim */
    const fr_state *js;
    uint64_t jn0;
    int jcommon;
    volatile size_t jnext, jhi; /* (atomic: job_left reads them outside the lock) */
    volatile size_t jdone;     /* values claimed and made (atomic) */
};

#ifdef FR_TEAM_STATS
#include <stdio.h>
/* A build with -DFR_TEAM_STATS prints, at exit, what the team did (benchmarks/README.md). */
static uint64_t st_sub, st_rounds, st_par, st_kept, st_left, st_wrong, st_rare, st_reads;
static uint64_t st_par_ns, st_serial_ns;
static uint64_t st_role[ST_ROLES];
uint64_t fr_stat_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* (threads share the 2-core machine) */
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define now_ns fr_stat_now
static void print_stats(void);
void fr_stat_add(int role, uint64_t ns)
{
    static int registered;
    if (!__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL))
        atexit(print_stats);
    __atomic_fetch_add(&st_role[role], ns, __ATOMIC_RELAXED);
}
static void print_stats(void)
{
    fprintf(stderr, "roles ns: prepare %llu (words shared %llu) ahead %llu prove %llu settle "
            "%llu team %llu\n",
            (unsigned long long)st_role[ST_PREPARE], (unsigned long long)st_role[ST_SHARED],
            (unsigned long long)st_role[ST_AHEAD],
            (unsigned long long)st_role[ST_PROVE], (unsigned long long)st_role[ST_SETTLE],
            (unsigned long long)st_role[ST_TEAM]);
    fprintf(stderr, "team: sub-blocks %llu rounds %llu positions settled in parallel %llu kept "
            "%llu left to the calling thread %llu wrong guesses %llu new rare %llu; ns: "
            "parallel phases (the calling thread's CPU) %llu serial passes %llu; offsets read in a "
            "sub-block %.1f\n",
            (unsigned long long)st_sub, (unsigned long long)st_rounds,
            (unsigned long long)st_par, (unsigned long long)st_kept,
            (unsigned long long)st_left, (unsigned long long)st_wrong,
            (unsigned long long)st_rare, (unsigned long long)st_par_ns,
            (unsigned long long)st_serial_ns,
            st_sub ? (double)st_reads / (double)st_sub : 0.0);
}
#define STAT(x) (x)
#else
#define STAT(x) ((void)0)
#endif

/* Position j of the round by lane l, into its result. */
static void settle_one(fr_team *t, settle_lane *l, size_t j)
{
    team_result *r = &t->res[j % S];
    uint32_t c = 0;
    size_t np = 0;
    int past = 0;
    int st = fr_block_guess(t->s, t->p, j, t->b, l, &c, &np, &past);
    r->left = (uint8_t)(st != 0 || np > OBLIGED);
    r->past = (uint8_t)past;
    r->value = (uint16_t)c;
    r->nob = (uint16_t)(r->left ? 0 : np);
    for (size_t i = 0; i < r->nob; i++)
        r->ob[i] = (uint16_t)l->pending[i];
}

/* Claims and settles the round's positions until none is left. */
static void run_round(fr_team *t, settle_lane *l, uint64_t round)
{
    for (;;) {
        pthread_mutex_lock(&t->lock);
        size_t at = t->next, end = at + CHUNK < t->hi ? at + CHUNK : t->hi;
        int mine = t->round == round && at < t->hi;
        if (mine)
            t->next = end;
        pthread_mutex_unlock(&t->lock);
        if (!mine)
            return;
        for (size_t i = at; i < end; i++)
            settle_one(t, l, t->list[i]);
        __atomic_fetch_add(&t->finished, end - at, __ATOMIC_RELEASE);
    }
}

/* The coverage's words of the value w for the block n0, when w is of the job's class (the
 * job's values [0, jhi) are of both). */
static void make_words(const fr_state *s, uint64_t n0, uint32_t w, int common)
{
    int of_common = s->common[0][w] || s->common[1][w];
    int of_rare = !s->common[0][w] || !s->common[1][w];
    if (common && of_common)
        (void)fr_cover_common(s, n0, w);
    else if (!common && of_rare)
        (void)fr_cover_rare(s, n0, w);
}

/* Claims and makes the job's words, a value a claim, until none is left or (round: not
 * UINT64_MAX) a round other than `round` starts: the round goes first. */
static void run_words(fr_team *t, uint64_t round)
{
    for (;;) {
        pthread_mutex_lock(&t->lock);
        size_t at = __atomic_load_n(&t->jnext, __ATOMIC_RELAXED);
        int mine = (round == UINT64_MAX || t->round == round) &&
                   at < __atomic_load_n(&t->jhi, __ATOMIC_RELAXED);
        uint32_t w = (uint32_t)at;
        if (mine)
            __atomic_store_n(&t->jnext, at + 1, __ATOMIC_RELAXED);
        const fr_state *s = t->js;
        uint64_t n0 = t->jn0;
        int common = t->jcommon;
        pthread_mutex_unlock(&t->lock);
        if (!mine)
            return;
        if (round == UINT64_MAX)
            make_words(s, n0, w, common); /* the helper's own: timed as its preparing */
        else
            FR_TIMED(ST_SHARED, make_words(s, n0, w, common));
        /* released after the words (their stamps too): fr_team_words reads it with acquire */
        __atomic_fetch_add(&t->jdone, 1, __ATOMIC_RELEASE);
    }
}

/* Whether the job has values left to claim (a hint outside the lock). */
static int job_left(fr_team *t)
{
    return __atomic_load_n(&t->jnext, __ATOMIC_RELAXED) <
           __atomic_load_n(&t->jhi, __ATOMIC_RELAXED);
}

static void *worker_main(void *arg)
{
    team_worker *w = (team_worker *)arg;
    fr_team *t = w->t;
    uint64_t seen = 0;
    for (;;) {
        uint64_t round = __atomic_load_n(&t->round, __ATOMIC_ACQUIRE);
        for (int spin = 0; round == seen && !job_left(t) && spin < 2000; spin++) {
            CPU_RELAX(); /* then sleeping */
            round = __atomic_load_n(&t->round, __ATOMIC_ACQUIRE);
        }
        pthread_mutex_lock(&t->lock);
        while (t->round == seen && !t->quit && !job_left(t))
            pthread_cond_wait(&t->go, &t->lock);
        round = t->round;
        int quit = t->quit;
        pthread_mutex_unlock(&t->lock);
        if (quit)
            return NULL;
        if (round == seen) { /* no round: the helper's words */
            run_words(t, round);
            continue;
        }
        seen = round;
        run_round(t, &w->lane, round);
    }
}

void fr_team_words(fr_team *t, const fr_state *s, uint64_t n0, size_t hi, int common)
{
    if (!hi)
        return;
    pthread_mutex_lock(&t->lock);
    t->js = s;
    t->jn0 = n0;
    t->jcommon = common;
    __atomic_store_n(&t->jdone, 0, __ATOMIC_RELAXED); /* (the job before: all done) */
    __atomic_store_n(&t->jnext, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->jhi, hi, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->lock);
    run_words(t, UINT64_MAX);
    /* the values others claimed: each is one value's words, being made now */
    for (unsigned spin = 0; __atomic_load_n(&t->jdone, __ATOMIC_ACQUIRE) < hi; spin++)
        if (spin > 1000)
            sched_yield();
        else
            CPU_RELAX();
}

static int lane_init(settle_lane *l)
{
    memset(l, 0, sizeof *l);
    l->row = (uint8_t *)malloc((size_t)1 << MAX_BITS);
    l->pending = (uint32_t *)malloc(((size_t)1 << MAX_BITS) * sizeof(uint32_t));
    l->fsrc_m0 = UINT64_MAX;
    return l->row && l->pending ? 0 : -1;
}

static void lane_free(settle_lane *l)
{
    free(l->row);
    free(l->pending);
    free((void *)l->fsrc);
    free(l->fpool);
}

fr_team *fr_team_new(size_t workers)
{
    fr_team *t = (fr_team *)calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->threads = (pthread_t *)calloc(workers + 1, sizeof(pthread_t));
    t->w = (team_worker *)calloc(workers + 1, sizeof(team_worker));
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->go, NULL);
    if (!t->threads || !t->w) {
        fr_team_free(t);
        return NULL;
    }
    for (; t->workers < workers; t->workers++) {
        team_worker *w = &t->w[t->workers];
        w->t = t;
        if (lane_init(&w->lane) < 0 ||
            pthread_create(&t->threads[t->workers], NULL, worker_main, w) != 0) {
            lane_free(&w->lane);
            break;
        }
    }
    return t;
}

void fr_team_free(fr_team *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->quit = 1;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->lock);
    for (size_t i = 0; i < t->workers; i++) {
        pthread_join(t->threads[i], NULL);
        lane_free(&t->w[i].lane);
    }
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->go);
    free(t->threads);
    free(t->w);
    free(t);
}

/* Step 2: the positions list[0 .. n) settled by the team, the calling thread with lane l
 * (which makes no word of the coverage then: the others read them). */
static void parallel_round(fr_team *t, settle_lane *l, size_t n)
{
    pthread_mutex_lock(&t->lock);
    t->next = 0;
    t->hi = n;
    __atomic_store_n(&t->finished, 0, __ATOMIC_RELAXED);
    uint64_t round = t->round + 1;
    __atomic_store_n(&t->round, round, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->lock);
    run_round(t, l, round);
    for (unsigned spin = 0; __atomic_load_n(&t->finished, __ATOMIC_ACQUIRE) < n; spin++)
        if (spin > 1000)
            sched_yield(); /* a worker between its claim and its results (fewer cores) */
        else
            CPU_RELAX();
}

/* Position j settled by the calling thread, its reads right: its value and obligations into
 * its result.  0; 2 a value past the tables; else an error status. */
static int settle_here(fr_team *t, fr_state *s, block_prep *p, size_t j, block_work *b)
{
    team_result *r = &t->res[j % S];
    uint32_t c = 0;
    size_t np = 0;
    int past = 0;
    int st = fr_block_guess(s, p, j, b, &b->lane, &c, &np, &past);
    if (st < 0)
        return NC_BADARG;
    if (st > 0)
        return 2; /* a value that widens the tables: proved after the step (block.c) */
    r->value = (uint16_t)c;
    r->past = (uint8_t)past;
    r->left = 0;
    r->nob = 0;
    return fr_block_record(p->n0, j, c, b->lane.pending, np, b) < 0 ? NC_NOMEM : NC_OK;
}

/* Step 3 from lo: the positions kept, in order; *lo past the last one kept.  NC_OK; 1 a value
 * outgrew the tables; 2 speculation stops before one that would; an error. */
static int keep(fr_team *t, fr_state *s, block_prep *p, size_t j0, block_work *b,
                size_t *lo, uint16_t *out, size_t *made)
{
    unsigned bits = s->bits;
    size_t nparts = s->nparts;
    uint32_t pending[OBLIGED];
    for (size_t j = j0 + *lo; j < j0 + S; j++) {
        team_result *r = &t->res[j % S];
        if (r->left) {
            STAT(st_left++);
            int st = settle_here(t, s, p, j, b);
            if (st != NC_OK)
                return st;
        } else {
            for (size_t i = 0; i < r->nob; i++)
                pending[i] = r->ob[i];
            if (fr_block_record(p->n0, j, r->value, pending, r->nob, b) < 0)
                return NC_NOMEM;
        }
        STAT(st_kept++);
        b->far_marked += r->past;
        out[*made] = r->value;
        if (fr_accept(s, r->value) < 0)
            return NC_NOMEM;
        (*made)++;
        s->blocked++;
        s->teamed++;
        *lo = j + 1 - j0;
        if (s->bits != bits)
            return 1;
        if (r->value != t->guess[j % S] || s->nparts != nparts) {
            STAT(r->value != t->guess[j % S] ? st_wrong++ : st_rare++);
            break; /* the later positions read a wrong guess, or missed a new part's splits */
        }
    }
    return NC_OK;
}

/* A set of positions of a sub-block: bit j of word j / 64. */
typedef struct {
    uint64_t w[S / 64];
} subset;

static void add(subset *x, size_t j)
{
    x->w[j / 64] |= (uint64_t)1 << (j % 64);
}

static int has(const subset *x, size_t j)
{
    return (int)((x->w[j / 64] >> (j % 64)) & 1);
}

/* The positions d (0 < d < S) before a position of the sub-block that it reads: the one-heap
 * moves' and the near parts' splits (the far and mid parts' partners lie before the
 * sub-block). */
static subset reads(const fr_state *s, const block_work *b)
{
    subset d = {{0}};
    for (size_t t = 0; t < s->ntake; t++)
        if (s->take[t] < S)
            add(&d, s->take[t]);
    for (size_t k = 0; k < s->nsplit; k++)
        for (size_t i = 0; i < b->nnear; i++)
            if (s->split[k] + b->near[i].p < S)
                add(&d, s->split[k] + b->near[i].p);
    return d;
}

/* The positions that read a position of `changed`: i + d for each i of it and d of `d`. */
static subset readers(const subset *changed, const subset *d)
{
    subset r = {{0}};
    for (size_t q = 0; q < S / 64; q++)
        for (uint64_t m = changed->w[q]; m; m &= m - 1) {
            size_t i = q * 64 + (size_t)__builtin_ctzll(m), wq = i / 64, sh = i % 64;
            for (size_t w = wq; w < S / 64; w++) /* r |= d << i */
                r.w[w] |= d->w[w - wq] << sh |
                          (sh && w > wq ? d->w[w - wq - 1] >> (64 - sh) : 0);
        }
    return r;
}

/* Step 1: the guesses of the positions lo .. S of the sub-block from j0 into the window: the
 * first candidate the far and mid parts do not reach (first), else each position's value of
 * the round before; into *changed the positions read differently from the round before (the
 * last position kept, and the guesses that changed). */
static void guess(fr_team *t, fr_state *s, const block_prep *p, size_t j0, size_t was,
                  size_t lo, int first, subset *changed)
{
    uint16_t *at = s->buf + (p->n0 + j0 - s->base);
    for (size_t j = was; j < lo; j++)
        if (at[j] != t->guess[j])
            add(changed, j);
    for (size_t j = lo; j < S; j++) {
        const team_result *r = &t->res[j];
        uint16_t g = t->guess[j];
        if (first) {
            g = 0;
            for (int i = 0; i < p->ncand[j0 + j]; i++)
                if (!p->hit[i][j0 + j]) {
                    g = p->cand[i][j0 + j];
                    break;
                }
        } else if (!r->left && r->value != g) {
            g = r->value;
            add(changed, j);
        }
        t->guess[j] = g;
        at[j] = g;
    }
}

int fr_team_settle(fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b,
                   fr_team *t, uint16_t *out, size_t *made)
{
    int begun = fr_block_begin(s, p, j0, least, b);
    if (begun < 0)
        return begun == -2 ? NC_NOMEM : NC_BADARG;
    t->s = s;
    t->p = p;
    t->b = b;
    subset d = reads(s, b), todo;
    memset(&todo, 0xff, sizeof todo);
    STAT(st_sub++);
#ifdef FR_TEAM_STATS
    for (size_t j = 1; j < S; j++)
        st_reads += (uint64_t)has(&d, j);
#endif
    for (size_t lo = 0, was = 0, round = 0; lo < S; round++) {
        subset changed = {{0}};
        guess(t, s, p, j0, was, lo, round == 0, &changed);
        if (round > 0) {
            size_t nparts = s->nparts;
            todo = readers(&changed, &d);
            if (nparts != b->parts_seen) /* a new part: every later position marks it */
                memset(&todo, 0xff, sizeof todo);
        }
        size_t n = 0;
        for (size_t j = lo; j < S; j++)
            if (has(&todo, j) && (round == 0 || !t->res[j].left))
                t->list[n++] = (uint16_t)(j0 + j);
#ifdef FR_TEAM_STATS
        uint64_t t0 = now_ns();
#endif
        if (n) {
            settle_lane l = b->lane;
            l.may_make = 0;
            parallel_round(t, &l, n);
            l.may_make = 1;
            b->lane = l; /* (its arrays may have grown) */
        }
        STAT(st_rounds++);
        STAT(st_par += n);
#ifdef FR_TEAM_STATS
        uint64_t t1 = now_ns();
        st_par_ns += t1 - t0;
#endif
        was = lo;
        int st = keep(t, s, p, j0, b, &lo, out, made);
        STAT(st_serial_ns += now_ns() - t1);
        if (st != NC_OK)
            return st;
    }
    return NC_OK;
}
