/*
 * block.c -- a step of a frontier run a block of FR_BLOCK positions at a time, once
 * the coverage is ready (cover.c).
 *
 * The value of n is the least common value c reached by no split, unless a smaller value of
 * rare class is reached by none.  Common values come only from splits with one rare part, and
 * marking every rare part for every position (a thousand parts for Grundy's game) was most
 * of the engine's time.  Here a block is first prepared, from values before the block that
 * precedes it:
 *   1. the coverage names, for each position, the first K values of common class it does not
 *      prove reached: the candidates;
 *   2. vector compares of g(p) ^ g(n - k - p) with the candidates, for every far rare part p
 *      (p >= FR_LAG) and every position (32 positions an instruction), say which candidates
 *      are reached after all;
 * then each position in order marks its near rare parts, walks its candidates up to the
 * first one not reached (past the K candidates the far parts are marked one by one), and
 * settles the values of rare class below it (settle.c).  With two threads a helper
 * prepares the next block while the calling thread settles this one (the checks against the
 * very far parts for the whole block at once, which bound each position's value from below),
 * and extends the next block's coverage of the values of rare class below those bounds while
 * it waits.  With K > 2 threads the calling thread speculates: each position takes its first
 * candidate at once, and the K - 2 provers show afterwards, a settled block each in turn,
 * that no smaller value of rare class is missing (past the first few thousand heap sizes one
 * never is in the games run so far; where one is, the run is taken back to that position).
 * Threads past the helper and FR_PROVERS provers settle each sub-block with the calling
 * thread, as a team (block_team.c).
 * The values equal the position-by-position engine's: each step only proves a value reached
 * or finds one that is not, and a speculation stands only once proved.  The vector kernels
 * (the checks of step 2, the coverage's words) are s->kern's: AVX-512, AVX2 or portable C,
 * chosen at run time (simd.c).
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "block.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the step: a helper prepares the next block while this thread settles ---------------- */

/* With K threads: the calling thread settles, one helper prepares (the checks of each
 * sub-block, the next block's candidates and rare coverage), and with K > 2 up to FR_PROVERS
 * others prove the blocks settled on speculation (benchmarks/README.md: "K threads"); the rest
 * settle with the calling thread (a team: block_team.c). */
enum { SUBS = B / S };
/* FR_PROVERS: at most this many provers (threads past FR_PROVERS + 2 form the team: the one
 * preparing helper bounds the run from 4 threads on; measured: benchmarks/README.md, "Frontier
 * tuning notes").  FR_QUIET: speculation only this far past the last value of rare class. */
#ifndef FR_PROVERS
#define FR_PROVERS 2
#endif
#ifndef FR_QUIET
#define FR_QUIET (4 * FR_SETS * FR_BLOCK)
#endif
/* FR_TEAM: threads at most that settle each sub-block beside the calling thread, with
 * speculation, the threads past the helper and the provers (block_team.c); 0 builds without.
 * FR_TEAM_LEAST: a team only with this many such threads at least (a team settles a position
 * about twice, once on guesses: with fewer the calling thread alone was projected faster,
 * benchmarks/README.md, "Settling by a team").  FR_TEAM_ALWAYS: the team's rounds even with
 * no such thread (for measuring them). */
#ifndef FR_TEAM
#define FR_TEAM 16
#endif
#ifndef FR_TEAM_LEAST
#define FR_TEAM_LEAST 4
#endif
#ifndef FR_TEAM_ALWAYS
#define FR_TEAM_ALWAYS 0
#endif

typedef struct {
    fr_state *s;
    block_work *b;
    uint64_t start, subs;       /* the step's first position and its sub-blocks */
    volatile uint64_t ready;    /* sub-blocks prepared (atomic): 0 is a failure */
    volatile uint64_t settled;  /* sub-blocks settled (atomic) */
    volatile int stop, failed;
    volatile int starved;       /* the calling thread waited for a sub-block (atomic) */
    /* speculation (b->spec): the provers take the settled blocks in turn */
    volatile uint64_t claim;    /* the next block (from start) a prover takes (atomic) */
    volatile uint64_t proved;   /* blocks proved from the first on (atomic; under lock) */
    uint8_t *is_proved;         /* per block (under lock) */
    volatile uint64_t final;    /* where the settling stopped, or UINT64_MAX (under lock) */
    volatile uint64_t fail_at;  /* the first position found wrong, or UINT64_MAX (under lock) */
    uint32_t fail_value;        /* its value */
    volatile int prove_error;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_cond_t settled_block; /* the provers sleep on it: a block settled, or the end */
    fr_team *volatile team;     /* the team, once started (atomic): shares the helper's words */
} pipe_ctx;

static uint64_t load_acq(volatile uint64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

static void publish(pipe_ctx *c, volatile uint64_t *what, uint64_t value)
{
    pthread_mutex_lock(&c->lock);
    __atomic_store_n(what, value, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

/* Waits until *what >= value or the step stops: 1 when it got there. */
static int wait_for(pipe_ctx *c, volatile uint64_t *what, uint64_t value)
{
    for (int spin = 0; spin < 4000; spin++) { /* a short spin, then sleeping (fewer cores) */
        if (load_acq(what) >= value)
            return 1;
        if (__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
            return 0;
        CPU_RELAX();
    }
    pthread_mutex_lock(&c->lock);
    while (load_acq(what) < value && !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
        pthread_cond_wait(&c->cond, &c->lock);
    pthread_mutex_unlock(&c->lock);
    return load_acq(what) >= value;
}

/* The helper prepares sub-block u while the calling thread settles u - 2 or u - 1 (far parts
 * from AHEAD_LEAST on), and after sub-block 2 of each block the next block's candidates and
 * rare coverage (FR_LAG: from values 256 before the block before). */
#ifndef FR_AHEAD
#define FR_AHEAD 2
#endif
enum { AHEAD = FR_AHEAD, AHEAD_LEAST = (AHEAD + 1) * S };

/* Before waiting for the calling thread to settle sub-block `want`, the helper uses the time
 * on the next block (prepared, not yet handed over: only the helper touches its coverage): a
 * position's value is at least its first candidate, so every value of rare class below it will
 * be asked for there, and the later pairs of those not covered yet are tried now, a position
 * at a time while the calling thread is still busy (benchmarks/README.md, "Frontier tuning
 * notes"). */
static void cover_while_waiting(pipe_ctx *c, uint64_t want, const block_prep *next, size_t *j)
{
    while (next && *j < B && load_acq(&c->settled) < want &&
           !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
        if (next->least[*j])
            fr_cover_ahead(c->s, next->n0, *j, next->least[*j]);
        (*j)++;
    }
}

/* ---- speculation: the provers ---------------------------------------------------------- */

/* Waits until block bi is settled or the settling stopped: how many of its positions were.
 * (No spinning: a prover is not on the critical path, and spinning provers took issue slots
 * from the settling thread's core where they shared one.) */
static size_t settled_in(pipe_ctx *c, uint64_t bi)
{
    uint64_t want = (bi + 1) * SUBS, n0 = c->start + bi * B;
    pthread_mutex_lock(&c->lock);
    while (load_acq(&c->settled) < want && c->final == UINT64_MAX)
        pthread_cond_wait(&c->settled_block, &c->lock);
    uint64_t end = load_acq(&c->settled) >= want ? n0 + B : c->final;
    pthread_mutex_unlock(&c->lock);
    return end > n0 ? (size_t)(end - n0 < B ? end - n0 : B) : 0;
}

static uint64_t fail_at(pipe_ctx *c) { return load_acq(&c->fail_at); }

/* Proves the first npos positions of block bi: each obligation reached by the coverage's later
 * pairs or by the search, else the first value not reached is the position's (noted in
 * c->fail_at when it is the first so far).  0, or -1 when the values file failed. */
static int prove_block(pipe_ctx *c, uint64_t bi, size_t npos, finisher_scratch *fs,
                       uint8_t *row)
{
    const fr_state *s = c->s;
    const spec_block *sb = &c->b->spec[(c->start / B + bi) % FR_SETS];
    uint64_t n0 = c->start + bi * B;
    size_t ts = (size_t)1 << s->bits;
    for (size_t j = 0; j < npos && n0 + j < fail_at(c); j++) {
        size_t npending = sb->first[j + 1] - sb->first[j];
        for (size_t i = 0; i < npending; i++)
            fs->pending[i] = sb->todo[sb->first[j] + i];
        if (!(npending = fr_cover_keep(s, n0 + j, fs->pending, npending)))
            continue;
        uint32_t v;
        memset(row, 0, ts); /* (the search marks every split again) */
        if (fr_settle_pending(s, n0 + j, row, sb->value[j], 1, npending, fs, &v) < 0)
            return -1;
        if (v == sb->value[j])
            continue;
        pthread_mutex_lock(&c->lock);
        if (n0 + j < c->fail_at) {
            c->fail_value = v;
            __atomic_store_n(&c->fail_at, n0 + j, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&c->lock);
        break;
    }
    return 0;
}

static void *prover_main(void *arg)
{
    pipe_ctx *c = (pipe_ctx *)arg;
    finisher_scratch *fs = (finisher_scratch *)malloc(sizeof *fs);
    uint8_t *row = (uint8_t *)malloc((size_t)1 << MAX_BITS);
    for (uint64_t bi; (bi = __atomic_fetch_add(&c->claim, 1, __ATOMIC_SEQ_CST)) < c->subs / SUBS;) {
        size_t npos = settled_in(c, bi);
        int bad = 0;
        if (npos && c->start + bi * B < fail_at(c))
            FR_TIMED(ST_PROVE, bad = !fs || !row || prove_block(c, bi, npos, fs, row) < 0);
        if (bad)
            __atomic_store_n(&c->prove_error, 1, __ATOMIC_RELEASE);
        pthread_mutex_lock(&c->lock);
        c->is_proved[bi] = 1;
        uint64_t proved = c->proved;
        while (proved < c->subs / SUBS && c->is_proved[proved])
            proved++;
        __atomic_store_n(&c->proved, proved, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
    free(fs);
    free(row);
    return NULL;
}

/* The settling stopped at `end`: the provers finish the blocks before it. */
static void settling_stopped(pipe_ctx *c, uint64_t end)
{
    pthread_mutex_lock(&c->lock);
    c->final = end;
    pthread_cond_broadcast(&c->settled_block);
    pthread_mutex_unlock(&c->lock);
}

/* The calling thread waits for sub-block u, noting when it had to (the helper is then the
 * longer side: see checks_ahead's call): 1 when it is prepared. */
static int wait_ready(pipe_ctx *c, uint64_t u)
{
    if (load_acq(&c->ready) < u + 1)
        __atomic_store_n(&c->starved, 1, __ATOMIC_RELEASE);
    return wait_for(c, &c->ready, u + 1) && !__atomic_load_n(&c->failed, __ATOMIC_ACQUIRE);
}

/* The helper prepares the block `next` (its buffer free): its candidates, the early checks,
 * the rare coverage.  With a team, its idle threads make the coverage's words with the helper
 * first (fr_team_words): those of common class up to the block before's largest candidate,
 * then those of rare class below the first candidates (the helper's preparing was the run's
 * bound with a team: benchmarks/README.md, "Settling by a team"). */
static void prepare_next(pipe_ctx *c, uint64_t next, size_t nparts)
{
    block_prep *p = &c->b->prep[next & 1];
    uint64_t n0 = c->start + next * B;
    fr_team *team = __atomic_load_n(&c->team, __ATOMIC_ACQUIRE);
    if (team && next >= 2) /* (p holds the block next - 2's candidates) */
        FR_TIMED(ST_PREPARE, fr_team_words(team, c->s, n0, (size_t)fr_block_top(p, 0) + 1, 1));
    FR_TIMED(ST_PREPARE, fr_block_prepare(c->s, n0, p));
    /* the early checks (moved work, but in two passes) unless the calling thread waited for
     * this helper since the last block (without other helpers, whose bounds they are): else
     * the helper would become the longer side (a game balanced at two threads without them:
     * benchmarks/README.md, "Frontier tuning notes") */
    int starved = __atomic_exchange_n(&c->starved, 0, __ATOMIC_ACQ_REL);
    /* remade: new candidates, whose checks come then */
    int remade = fr_block_lag_remade(c->s, n0);
    FR_TIMED(ST_PREPARE, fr_block_checks_ahead(c->s, p, nparts, !starved && !remade));
    if (team)
        FR_TIMED(ST_PREPARE, fr_team_words(team, c->s, n0, fr_block_top(p, 1), 0));
    FR_TIMED(ST_PREPARE, fr_block_rare_coverage(c->s, p));
}

static void *helper_main(void *arg)
{
    pipe_ctx *c = (pipe_ctx *)arg;
    const block_prep *ahead = NULL; /* prepared ahead, not yet handed over */
    size_t ahead_j = 0;
    if (!wait_for(c, &c->ready, 1)) /* the calling thread prepares the first block */
        return NULL;
    for (uint64_t u = 1; u < c->subs; u++) {
        if (u >= AHEAD)
            FR_TIMED(ST_AHEAD, cover_while_waiting(c, u - AHEAD, ahead, &ahead_j));
        if (u % SUBS == 0)
            ahead = NULL; /* handed over below */
        if (u >= AHEAD && !wait_for(c, &c->settled, u - AHEAD)) /* values below u - AHEAD */
            break;
        block_prep *p = &c->b->prep[(u / SUBS) & 1];
        size_t nparts = __atomic_load_n(&c->s->nparts, __ATOMIC_ACQUIRE);
        uint64_t below = p->early ? fr_block_very_far(c->s) : UINT64_MAX;
        int ok;
        FR_TIMED(ST_PREPARE, ok = fr_block_prepare_sub(c->s, p, (u % SUBS) * S, nparts,
                                                       AHEAD_LEAST, below, p->early));
        if (!ok) {
            __atomic_store_n(&c->failed, 1, __ATOMIC_RELEASE);
            publish(c, &c->ready, u + 1);
            break;
        }
        if (u % SUBS == 2 && (u / SUBS + 1) * SUBS < c->subs) {
            /* the next block's buffer is free: its block before was settled (u - 2 >= 4U) */
            uint64_t next = u / SUBS + 1;
            if (!wait_for(c, &c->settled, next * SUBS - SUBS))
                break;
            /* with speculation, its words and obligations replace those of the block
             * FR_SETS before it: that block proved */
            if (c->b->spec && next >= FR_SETS && !wait_for(c, &c->proved, next - FR_SETS + 1))
                break;
            publish(c, &c->ready, u + 1);
            prepare_next(c, next, nparts);
            ahead = &c->b->prep[next & 1];
            ahead_j = 0;
            continue;
        }
        publish(c, &c->ready, u + 1);
    }
    return NULL;
}

static void free_work(block_work *b)
{
    free(b->far);
    free(b->near);
    free((void *)b->src);
    free(b->pool);
    free(b->mid);
    free((void *)b->msrc);
    free((void *)b->lane.fsrc);
    free(b->lane.fpool);
    for (int h = 0; h < 2; h++) {
        free(b->prep[h].far);
        free((void *)b->prep[h].src);
        free(b->prep[h].pool);
        free(b->prep[h].lag);
        free(b->prep[h].reach);
    }
    for (int h = 0; b->spec && h < FR_SETS; h++)
        free(b->spec[h].todo);
    free(b->spec);
    free(b);
}

int fr_blocks_ready(const fr_state *s, uint64_t n0)
{
    return fr_cover_active(s, n0);
}

/* Speculation went wrong at c->fail_at: the values from there on are taken back, and that
 * position gets the value its proof found. */
static int take_back(fr_state *s, const pipe_ctx *c, uint16_t *out, size_t *made)
{
    uint64_t n = c->fail_at;
    fr_take_back(s, n);
    out[n - c->start] = (uint16_t)c->fail_value;
    *made = (size_t)(n - c->start) + 1;
    s->blocked++;
    return fr_accept(s, (uint16_t)c->fail_value) < 0 ? NC_NOMEM : NC_OK;
}

/* A helper prepares each block while the one before is settled, so the coverage's witnesses
 * start from FR_LAG, not from B: for a game with many rare parts in between the candidates
 * can be so much weaker that most positions go past all K of them to the far parts' exact
 * marks, and two threads run slower than one.  So with a helper every PROBE blocks count
 * those positions.  Past a quarter,
 * for the next FR_ALONE positions, the sub-blocks' candidates are made again without the lag
 * parts' values (lag_candidates: more work for the helper, which a game balanced at two
 * threads should not get at every block); if a quarter still go past, the blocks go alone for
 * the next FR_ALONE positions (the coverage made again from B).  Then they try again.  The
 * games measured, and their shares: benchmarks/README.md, "Frontier tuning notes". */
enum { PROBE = 8 };
#ifndef FR_ALONE
#define FR_ALONE (1 << 22)
#endif

static int lag_costs(const block_work *b)
{
    return 4 * b->far_marked > PROBE * B;
}

/* The lag costs too much at `here`: 1 when the blocks go alone from there (the step ends
 * there), 0 when the candidates leave out the lag parts' values from there on. */
static int answer_lag(fr_state *s, uint64_t here)
{
    if (here >= s->lag_until) { /* (written by the calling thread alone) */
        __atomic_store_n(&s->lag_until, here + FR_ALONE, __ATOMIC_RELEASE);
        return 0;
    }
    s->alone_until = here + FR_ALONE;
    return 1;
}

/* The threads of a step of blocks beside the calling thread. */
typedef struct {
    pthread_t helper, provers[FR_PROVERS];
    size_t nprovers;
    int helped;
    fr_team *team; /* with speculation and threads past the provers: block_team.c */
} block_threads;

/* Starts the provers (speculation: three threads or more, while values of rare class come
 * rarely: a speculation taken back costs the blocks settled after it and a new step) and the
 * helper; without a helper there is no speculation either. */
static void start_threads(fr_state *s, pipe_ctx *c, block_work *b, block_threads *t)
{
    size_t want = s->threads > 2 && c->subs > SUBS && s->done - s->last_rare >= FR_QUIET
                      ? (size_t)s->threads - 2 : 0;
    if (want > FR_PROVERS)
        want = FR_PROVERS;
    if (want) {
        b->spec = (spec_block *)calloc(FR_SETS, sizeof(spec_block));
        c->is_proved = (uint8_t *)calloc(c->subs / SUBS, 1);
        if (!b->spec || !c->is_proved)
            want = 0;
    }
    for (t->nprovers = 0; t->nprovers < want; t->nprovers++)
        if (pthread_create(&t->provers[t->nprovers], NULL, prover_main, c) != 0)
            break;
    t->helped = s->threads > 1 && c->subs > 1 && fr_cover_lagged(s) &&
                pthread_create(&t->helper, NULL, helper_main, c) == 0;
    t->team = NULL;
    if (t->helped && t->nprovers) {
        size_t workers = (size_t)s->threads - 2 - t->nprovers;
        workers = workers < FR_TEAM ? workers : FR_TEAM;
        if ((workers && workers >= FR_TEAM_LEAST) || FR_TEAM_ALWAYS)
            t->team = fr_team_new(workers); /* (none: the calling thread alone) */
        __atomic_store_n(&c->team, t->team, __ATOMIC_RELEASE); /* (the helper may run) */
        return;
    }
    settling_stopped(c, c->start); /* no speculation after all */
    for (size_t e = 0; e < t->nprovers; e++)
        pthread_join(t->provers[e], NULL);
    t->nprovers = 0;
    free(b->spec);
    b->spec = NULL;
}

/* The calling thread's part: each sub-block prepared (by itself, or waited for from the
 * helper), then settled in order.  Returns the status; *made the values settled. */
static int settle_blocks(fr_state *s, pipe_ctx *c, block_work *b, const block_threads *t,
                         uint16_t *out, size_t *made, const nc_poll *poll)
{
    uint64_t least = t->helped ? AHEAD_LEAST : S; /* the far parts */
    int status = NC_OK;
    for (uint64_t u = 0; u < c->subs && status == NC_OK; u++) {
        block_prep *p = &b->prep[(u / SUBS) & 1];
        uint64_t n0 = c->start + (u / SUBS) * B;
        size_t j0 = (u % SUBS) * S;
        int block_end = u % SUBS == SUBS - 1;
        if (u % SUBS == 0 && !fr_blocks_ready(s, n0))
            break;
        if (!t->helped || u == 0) {
            int ok;
            if (u % SUBS == 0)
                FR_TIMED(ST_PREPARE, fr_block_prepare(s, n0, p));
            FR_TIMED(ST_PREPARE, ok = fr_block_prepare_sub(s, p, j0, s->nparts, least,
                                                           UINT64_MAX, 0));
            if (!ok)
                break;
            if (u == 0)
                publish(c, &c->ready, 1);
        } else if (!wait_ready(c, u)) {
            break;
        }
        if (t->team)
            FR_TIMED(ST_TEAM, status = fr_team_settle(s, p, j0, least, b, t->team, out, made));
        else
            FR_TIMED(ST_SETTLE, status = fr_block_settle(s, p, j0, least, b, out, made));
        if (status == NC_OK || status == 1)
            publish(c, &c->settled, u + 1);
        if (status != NC_OK)
            break;
        if (t->nprovers && block_end) {
            pthread_mutex_lock(&c->lock);
            pthread_cond_broadcast(&c->settled_block);
            pthread_mutex_unlock(&c->lock);
        }
        if (b->spec && fail_at(c) != UINT64_MAX)
            break; /* a proof failed: the settling after it is moot */
        if (t->helped && (u + 1) % (PROBE * SUBS) == 0) {
            if (lag_costs(b) && answer_lag(s, c->start + (u + 1) / SUBS * B))
                break; /* the coverage made again without the lag: the next step goes alone */
            b->far_marked = 0;
        }
        if (block_end && nc_should_stop(poll))
            status = NC_STOPPED;
    }
    return status;
}

/* The provers finish the blocks settled, the helper stops; all are joined. */
static void stop_threads(pipe_ctx *c, block_threads *t, size_t made)
{
    if (t->nprovers)
        settling_stopped(c, c->start + made);
    if (t->helped) {
        pthread_mutex_lock(&c->lock);
        __atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
        pthread_join(t->helper, NULL);
    }
    for (size_t e = 0; e < t->nprovers; e++)
        pthread_join(t->provers[e], NULL);
    fr_team_free(t->team);
}

int fr_step_blocks(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
    block_work *b = (block_work *)calloc(1, sizeof *b); /* its arrays grow as they need */
    if (!b)
        return NC_NOMEM;
    b->lane.row = b->row;
    b->lane.pending = b->fs.pending;
    b->lane.may_make = 1;
    pipe_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.b = b;
    c.start = s->done;
    c.subs = (count / B) * SUBS;
    c.final = c.fail_at = UINT64_MAX;
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    pthread_cond_init(&c.settled_block, NULL);
    block_threads t;
    start_threads(s, &c, b, &t);
    int status = settle_blocks(s, &c, b, &t, out, made, poll);
    stop_threads(&c, &t, *made);
    if (status == 2)
        status = NC_OK; /* speculation stopped before a value that widens the tables */
    if (c.prove_error && (status == NC_OK || status == NC_STOPPED))
        status = NC_BADARG;
    else if (c.fail_at != UINT64_MAX && status != NC_NOMEM && status != NC_BADARG)
        status = take_back(s, &c, out, made) < 0 ? NC_NOMEM : status;
    pthread_mutex_destroy(&c.lock);
    pthread_cond_destroy(&c.cond);
    pthread_cond_destroy(&c.settled_block);
    free(c.is_proved);
    free_work(b);
    return status == 1 ? NC_OK : status;
}
