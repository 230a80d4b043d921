/*
 * block.h -- what the files of the block step share (private to frontier/): the step and its
 * threads (block.c), preparing a block a block ahead (block_prepare.c), settling a block
 * position by position (block_settle.c).  See block.c for the method.
 */
#ifndef NIMBERS_FRONTIER_BLOCK_H
#define NIMBERS_FRONTIER_BLOCK_H

#include "internal.h"

/* B: the coverage's block; S: the positions whose candidates are checked at once; K: the
 * candidates of a position (internal.h). */
enum { B = FR_BLOCK, S = FR_SUB, K = FR_K };

/* What a block needs before its positions: prepared a block ahead. */
typedef struct {
    uint64_t n0;
    uint16_t cand[K][B];
    uint8_t ncand[B];
    uint8_t hit[K][B];
    uint16_t least[B];  /* a value no larger than the position's (helpers: checks_ahead) */
    int early;          /* the very far parts checked when the block was prepared */
    part *far;          /* scratch: the far parts of a sub-block */
    const uint16_t **src; /* their partners' values for the sub-block, split k: src[k * nfar + i] */
    uint16_t *pool;     /* S values each for partners before the window */
    part *lag;          /* scratch: the lag parts (lag_candidates) */
    uint64_t *reach;    /* the values they reach in a sub-block: two words a value */
    size_t far_cap, src_cap, pool_cap, lag_cap, reach_cap;
} block_prep;

/* One thread's means of settling positions: the calling thread's lane is in block_work, a
 * team worker has its own (block_team.c). */
typedef struct {
    uint8_t *row;          /* 2^MAX_BITS marks */
    uint32_t *pending;     /* the values of rare class left open (2^MAX_BITS) */
    const uint16_t **fsrc; /* the far and mid parts' partners for it (far_marks: made on first
                            * use in the sub-block, fsrc_m0 == m0), split k: fsrc[k * nfm + i] */
    uint16_t *fpool;
    uint64_t fsrc_m0;
    size_t fsrc_cap, fpool_cap;
    int may_make;          /* may make the coverage's words of the block (their one owner) */
} settle_lane;

typedef struct {
    block_prep prep[2]; /* blocks n0 / B even and odd */
    part *far, *near;   /* the calling thread's split of the parts for a sub-block */
    size_t nfar, nnear;
    const uint16_t **src; /* the near parts' partners: src[k * nnear + i] (NULL: one by one) */
    uint16_t *pool;
    part *mid;          /* near parts from S on, not late: checked at once like the far ones */
    const uint16_t **msrc;
    size_t nmid;
    uint64_t m0;        /* the sub-block being settled */
    size_t far_marked;  /* positions that went past their K candidates (far_marks) */
    size_t far_cap, near_cap, src_cap, pool_cap, mid_cap, msrc_cap;
    size_t parts_seen;  /* s->nparts when they were split: later ones are near */
    uint8_t row[(size_t)1 << MAX_BITS];
    finisher_scratch fs;
    struct spec_block *spec; /* FR_SETS blocks settled on speculation (NULL: none) */
    settle_lane lane;   /* the calling thread's (row: row, pending: fs.pending) */
} block_work;

/* A block settled on speculation (K >= 3 threads): each position took its first candidate c,
 * the least value of common class no split reaches, and its proof obligations are the values
 * of rare class below c that its marks and the coverage's words did not show reached then.
 * A prover shows each reached (the coverage's later pairs, then the search), or finds the
 * first that is not: that value of rare class is the position's, and the run is taken back
 * to it (fr_step_blocks). */
typedef struct spec_block {
    uint32_t first[B + 1];    /* position j's obligations: todo[first[j] .. first[j + 1]) */
    uint16_t value[B];        /* the value taken, c */
    uint16_t *todo;
    size_t todo_cap;
} spec_block;

/* The position loops' helpers, inlined where they are called (in block_settle.c: the
 * calling thread's loop and a team thread's position each get their own copy; out of line,
 * one thread's run took 6% more CPU). */
#if defined(__GNUC__)
#define FR_INLINE static inline __attribute__((always_inline))
#else
#define FR_INLINE static inline
#endif

/* Room for need items of size bytes in *ptr (capacity *cap): 0, or -1 out of memory. */
static inline int room(void *ptr, size_t *cap, size_t need, size_t size)
{
    void **p = (void **)ptr;
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Far for the sub-block from m0: the partner m0 + j - k - p of each of its positions lies
 * below m0 + S - least (below the sub-blocks a helper may still be settling), is larger than
 * p and at least 1. */
static inline int far_part(const fr_state *s, const part *pt, uint64_t m0, uint64_t least)
{
    return pt->p >= least && 2 * pt->p + s->kmax + 1 < m0;
}

/* The rare parts among parts[0 .. nparts): far ones into far, the others into near (NULL:
 * not wanted); returns the number of far parts. */
static inline size_t split_parts(const fr_state *s, size_t nparts, uint64_t m0, uint64_t least,
                          part *far, part *near, size_t *nnear)
{
    size_t nf = 0, nn = 0;
    for (size_t i = 0; i < nparts; i++) {
        const part *pt = &s->parts[i];
        if (!pt->rare)
            continue;
        if (far_part(s, pt, m0, least))
            far[nf++] = *pt;
        else if (near)
            near[nn++] = *pt;
    }
    if (nnear)
        *nnear = nn;
    return nf;
}

/* The values g(at .. at + S) of a sub-block's partners: a pointer into the window (read as
 * they are written, when the partners are positions of the sub-block itself), or read back
 * from the values file into pool; NULL when that read fails. */
static inline const uint16_t *source(const fr_state *s, uint64_t at, uint16_t *pool)
{
    if (at >= s->base)
        return s->buf + (at - s->base);
    return fr_values_at(s, at, S, pool);
}

/* The partners' values for the sub-block from m0 of the parts[0 .. n) and split k into src
 * (source: S values each), those read back going to pool from *pooled on: 0, or -1 when a
 * read fails. */
static inline int sources_of(const fr_state *s, uint64_t m0, size_t k, const part *parts, size_t n,
                      const uint16_t **src, uint16_t *pool, size_t *pooled)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t at = m0 - s->split[k] - parts[i].p;
        if (!(src[i] = source(s, at, pool + *pooled * S)))
            return -1;
        *pooled += at < s->base;
    }
    return 0;
}

/* block_prepare.c */
int fr_block_lag_remade(const fr_state *s, uint64_t m0);
void fr_block_rare_coverage(const fr_state *s, const block_prep *p);
void fr_block_prepare(const fr_state *s, uint64_t n0, block_prep *p);
int fr_block_prepare_sub(const fr_state *s, block_prep *p, size_t j0, size_t nparts,
                         uint64_t least, uint64_t below, int more);
uint64_t fr_block_very_far(const fr_state *s);
uint32_t fr_block_top(const block_prep *p, int first);
void fr_block_checks_ahead(const fr_state *s, block_prep *p, size_t nparts, int early);

/* block_settle.c */
int fr_block_settle(fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b,
                    uint16_t *out, size_t *made);
/* The sub-block j0's parts split into far, mid and near, with their partners' sources (the
 * start of fr_block_settle): 0, -2 out of memory, or -1 a read failed. */
int fr_block_begin(const fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b);
/* Position j of the begun sub-block by lane l, its partners' values read from the window (not
 * yet settled ones too: a team's guesses): its near marks, its first candidate not reached *c,
 * and the values of rare class below it that the marks and the coverage's words leave open,
 * l->pending[0 .. *npending); *past when it went past its K candidates.  0; 1 when lane l
 * may not finish it (a word of the coverage not made yet, a value past the tables); -1 an
 * error. */
int fr_block_guess(const fr_state *s, const block_prep *p, size_t j, const block_work *b,
                   settle_lane *l, uint32_t *c, size_t *npending, int *past);
/* Position j's value taken on speculation, c, with its obligations pending[0 .. npending):
 * 0, or -1 out of memory. */
int fr_block_record(uint64_t n0, size_t j, uint32_t c, const uint32_t *pending, size_t npending,
                    block_work *b);

/* A build with -DFR_TEAM_STATS times each role's work, on the monotonic clock, and prints the
 * sums at exit (block_team.c; for benchmarks/README.md, "Settling by a team"). */
/* ST_SHARED: the helper's words made by team threads (fr_team_words). */
enum { ST_PREPARE, ST_AHEAD, ST_PROVE, ST_SETTLE, ST_TEAM, ST_SHARED, ST_ROLES };
#ifdef FR_TEAM_STATS
uint64_t fr_stat_now(void);
void fr_stat_add(int role, uint64_t ns);
#define FR_TIMED(role, stmt)                                                                   \
    do {                                                                                       \
        uint64_t t0_ = fr_stat_now();                                                          \
        stmt;                                                                                  \
        fr_stat_add(role, fr_stat_now() - t0_);                                                \
    } while (0)
#else
#define FR_TIMED(role, stmt)                                                                   \
    do {                                                                                       \
        stmt;                                                                                  \
    } while (0)
#endif

/* block_team.c: a sub-block settled on speculation by a team of threads (see there). */
typedef struct fr_team fr_team;
/* A team of the calling thread and `workers` more (started now): NULL out of memory; fewer
 * workers when some would not start. */
fr_team *fr_team_new(size_t workers);
void fr_team_free(fr_team *t);
int fr_team_settle(fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b,
                   fr_team *t, uint16_t *out, size_t *made);
/* The helper's part of preparing the block n0 shared with the team: the coverage's words of
 * the values w < hi of common class (common) or of rare class (not), each value's made by
 * one thread, the team's idle ones and the caller; returns when all are made (the caller may
 * then read them).  Only the helper calls it, on a block no other thread reads yet. */
void fr_team_words(fr_team *t, const fr_state *s, uint64_t n0, size_t hi, int common);

#endif
