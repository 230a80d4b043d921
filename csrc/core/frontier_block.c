/*
 * frontier_block.c -- a step of a frontier run a block of FR_BLOCK positions at a time, once
 * the coverage is ready (frontier_cover.c).
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
 * settles the values of rare class below it (frontier_settle.c).  With two threads a helper
 * prepares the next block while the calling thread settles this one (the checks against the
 * very far parts for the whole block at once, which bound each position's value from below),
 * and extends the next block's coverage of the values of rare class below those bounds while
 * it waits.  With K > 2 threads the calling thread speculates: each position takes its first
 * candidate at once, and the K - 2 provers show afterwards, a settled block each in turn,
 * that no smaller value of rare class is missing (past the first few thousand heap sizes one
 * never is in the games run so far; where one is, the run is taken back to that position).
 * The values equal the position-by-position engine's: each step only proves a value reached
 * or finds one that is not, and a speculation stands only once proved.  The vector kernels
 * (the checks of step 2, the coverage's words) are s->kern's: AVX-512, AVX2 or portable C,
 * chosen at run time (frontier_simd.c).
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "frontier_core.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* B: the coverage's block; S: the positions whose candidates are checked at once; K: the
 * candidates of a position (frontier_core.h). */
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
    const uint16_t **fsrc; /* the far and mid parts' partners for it (far_marks: made on first
                            * use in the sub-block, fsrc_m0 == m0), split k: fsrc[k * nfm + i] */
    uint16_t *fpool;
    uint64_t fsrc_m0;
    size_t far_marked;  /* positions that went past their K candidates (far_marks) */
    size_t far_cap, near_cap, src_cap, pool_cap, mid_cap, msrc_cap, fsrc_cap, fpool_cap;
    size_t parts_seen;  /* s->nparts when they were split: later ones are near */
    uint8_t row[(size_t)1 << MAX_BITS];
    finisher_scratch fs;
    struct spec_block *spec; /* FR_SETS blocks settled on speculation (NULL: none) */
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

/* Room for need items of size bytes in *ptr (capacity *cap): 0, or -1 out of memory. */
static int room(void *ptr, size_t *cap, size_t need, size_t size)
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
static int far_part(const fr_state *s, const part *pt, uint64_t m0, uint64_t least)
{
    return pt->p >= least && 2 * pt->p + s->kmax + 1 < m0;
}

/* The rare parts among parts[0 .. nparts): far ones into far, the others into near (NULL:
 * not wanted); returns the number of far parts. */
static size_t split_parts(const fr_state *s, size_t nparts, uint64_t m0, uint64_t least,
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
static const uint16_t *source(const fr_state *s, uint64_t at, uint16_t *pool)
{
    if (at >= s->base)
        return s->buf + (at - s->base);
    return fr_values_at(s, at, S, pool);
}

/* The partners' values for the sub-block from m0 of the parts[0 .. n) and split k into src
 * (source: S values each), those read back going to pool from *pooled on: 0, or -1 when a
 * read fails. */
static int sources_of(const fr_state *s, uint64_t m0, size_t k, const part *parts, size_t n,
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

/* ---- preparing a block: 1. the candidates ------------------------------------------------ */

/* For the positions n0 + 64 g + t of the block, the first K values of common class (at most)
 * that its coverage does not prove reached, nor `also` (NULL, or for each value w < nalso the
 * word also[2 w] of the positions some other split reaches it at). */
static void group_candidates(const fr_state *s, uint64_t n0, block_prep *p, size_t g,
                             const uint64_t *also, size_t nalso)
{
    uint32_t ts = (uint32_t)1 << s->bits;
    /* the positions whose value class uses common[0]: (n0 + j - kmin) even, n0 even */
    uint64_t even = (s->kmin & 1) ? 0xaaaaaaaaaaaaaaaaull : 0x5555555555555555ull;
    uint64_t need = ~(uint64_t)0;
    uint8_t count[64] = {0};
    for (uint32_t w = 0; w < ts && need; w++) {
        uint64_t m = (s->common[0][w] ? even : 0) | (s->common[1][w] ? ~even : 0);
        if (!(m &= need))
            continue;
        const uint64_t *words = fr_cover_common(s, n0, w);
        if (words)
            m &= ~words[g];
        if (w < nalso)
            m &= ~also[2 * (size_t)w];
        while (m) {
            unsigned t = (unsigned)__builtin_ctzll(m);
            m &= m - 1;
            p->cand[count[t]][g * 64 + t] = (uint16_t)w;
            if (++count[t] == K)
                need &= ~((uint64_t)1 << t);
        }
    }
    for (size_t t = 0; t < 64; t++) {
        size_t j = g * 64 + t;
        p->ncand[j] = count[t];
        for (int i = count[t]; i < K; i++)
            p->cand[i][j] = count[t] ? p->cand[0][j] : 0; /* a repeat: never read */
    }
}

/* Each position's candidates, 64 positions at a time. */
static void candidates(const fr_state *s, uint64_t n0, block_prep *p)
{
    for (size_t g = 0; g < B / 64; g++)
        group_candidates(s, n0, p, g, NULL, 0);
}

/* Whether the candidates of the positions from m0 are made again without the lag parts'
 * values (see lag_candidates and answer_lag). */
static int lag_remade(const fr_state *s, uint64_t m0)
{
    return m0 < __atomic_load_n(&s->lag_until, __ATOMIC_ACQUIRE) && fr_cover_lagged(s);
}

/* With a helper the coverage's witnesses start from FR_LAG instead of B (frontier_cover.c):
 * the rare parts in between, the lag parts, reach values the coverage does not show, and
 * those values took the candidates' places (0.364 has 187 such parts: most of its positions
 * then went past all K candidates to the far parts' marks).  By the time a sub-block is
 * prepared their partners are known, so its candidates are made again without the values
 * they reach: 1 when they were, 0 when there is no lag part, -1 out of memory or a read. */
static int lag_candidates(const fr_state *s, block_prep *p, size_t j0, size_t nparts)
{
    uint64_t m0 = p->n0 + j0, hi = fr_witness_from(s, 1);
    size_t ts = (size_t)1 << s->bits, nlag = 0;
    if (room(&p->lag, &p->lag_cap, nparts + 1, sizeof(part)) < 0)
        return -1;
    for (size_t i = 0; i < nparts; i++) {
        const part *pt = &s->parts[i];
        if (pt->rare && pt->p < hi && far_part(s, pt, m0, fr_witness_from(s, 0)))
            p->lag[nlag++] = *pt;
    }
    if (!nlag)
        return 0;
    if (room(&p->reach, &p->reach_cap, 2 * ts, sizeof(uint64_t)) < 0 ||
        room(&p->pool, &p->pool_cap, S, sizeof(uint16_t)) < 0)
        return -1;
    memset(p->reach, 0, 2 * ts * sizeof(uint64_t));
    for (size_t k = 0; k < s->nsplit; k++)
        for (size_t i = 0; i < nlag; i++) {
            const uint16_t *q = source(s, m0 - s->split[k] - p->lag[i].p, p->pool);
            if (!q)
                return -1;
            for (size_t j = 0; j < S; j++)
                p->reach[2 * (size_t)(p->lag[i].g ^ q[j]) + (j >> 6)] |= (uint64_t)1 << (j & 63);
        }
    for (size_t g = 0; g < S / 64; g++)
        group_candidates(s, p->n0, p, j0 / 64 + g, p->reach + g, ts);
    return 1;
}

/* ---- 2. the candidates against every far part: s->kern->hits (frontier_simd.c) ----------- */

/* The coverage of the values of rare class below the block's first candidates (the first
 * candidates are most positions' values), made while the block before is settled. */
static void rare_coverage(const fr_state *s, const block_prep *p)
{
    uint32_t top = 0;
    for (size_t j = 0; j < B; j++)
        if (p->ncand[j] && p->cand[0][j] > top)
            top = p->cand[0][j];
    for (uint32_t v = 0; v < top; v++)
        if (!s->common[0][v] || !s->common[1][v])
            fr_cover_rare(s, p->n0, v);
}

/* Prepares the block n0 (values below n0 - FR_LAG + ... known: see frontier_cover.c): its
 * candidates. */
static void prepare_block(const fr_state *s, uint64_t n0, block_prep *p)
{
    p->n0 = n0;
    p->early = 0;
    candidates(s, n0, p);
}

/* The hits of the sub-block j0 of the prepared block from the parts [0, nparts): 1, or 0 when
 * the values file could not be read. */
static int prepare_sub(const fr_state *s, block_prep *p, size_t j0, size_t nparts,
                       uint64_t least, uint64_t below, int more)
{
    uint64_t m0 = p->n0 + j0;
    /* (not for the early checks, made before the lag parts' partners are known) */
    if (least <= fr_witness_from(s, 0) && lag_remade(s, m0)) {
        int remade = lag_candidates(s, p, j0, nparts);
        if (remade < 0)
            return 0;
        if (remade) { /* the checks made early were of the former candidates */
            below = UINT64_MAX;
            more = 0;
        }
    }
    if (room(&p->far, &p->far_cap, nparts + 1, sizeof(part)) < 0)
        return 0;
    size_t nfar = split_parts(s, nparts, m0, least, p->far, NULL, NULL), pooled = 0;
    while (nfar && p->far[nfar - 1].p >= below) /* (the parts go by heap size) */
        nfar--;
    for (size_t i = 0; i < nfar; i++)
        pooled += m0 - s->split[0] - p->far[i].p < s->base + s->kmax;
    if (room(&p->src, &p->src_cap, nfar * s->nsplit + 1, sizeof(uint16_t *)) < 0 ||
        room(&p->pool, &p->pool_cap, (pooled * s->nsplit + 1) * S, sizeof(uint16_t)) < 0)
        return 0;
    pooled = 0;
    for (size_t k = 0; k < s->nsplit; k++)
        if (sources_of(s, m0, k, p->far, nfar, p->src + k * nfar, p->pool, &pooled) < 0)
            return 0;
    s->kern->hits(&p->cand[0][0], &p->hit[0][0], j0, p->far, nfar, s->nsplit, p->src, more);
    return 1;
}

/* With helpers, a block is prepared while the block before it is settled: its positions'
 * partners below that block are known, so the checks against the very far parts (p from
 * VERY_FAR on) are made then for the whole block, and each sub-block's checks later only add
 * the parts in [AHEAD_LEAST, VERY_FAR).  The first candidate they leave unreached bounds the
 * position's value from below (its value is the first candidate left unreached by every
 * part, or larger): every value of rare class below that bound will be asked there, so the
 * helpers extend their coverage ahead (before, only those below the first candidate: at 27%
 * of Officers' positions the value). */
static uint64_t very_far(const fr_state *s)
{
    return 2 * (uint64_t)B + s->kmax + 1;
}

static void checks_ahead(const fr_state *s, block_prep *p, size_t nparts, int early)
{
    p->early = early;
    for (size_t j0 = 0; j0 < B && p->early; j0 += S)
        p->early = prepare_sub(s, p, j0, nparts, very_far(s), UINT64_MAX, 0);
    for (size_t j = 0; j < B; j++) {
        int i = 0;
        while (p->early && i + 1 < p->ncand[j] && p->hit[i][j])
            i++;
        p->least[j] = p->ncand[j] ? p->cand[i][j] : 0;
    }
}

/* ---- settling a block, each position in order ----------------------------------------------- */

/* The near parts' partners for the sub-block from m0 (NULL where a part lies so close that
 * its first positions have none: those go one by one). */
static int near_sources(const fr_state *s, uint64_t m0, block_work *b)
{
    size_t pooled = 0;
    if (room(&b->src, &b->src_cap, b->nnear * s->nsplit + 1, sizeof(uint16_t *)) < 0 ||
        room(&b->pool, &b->pool_cap, (b->nnear * s->nsplit + 1) * S, sizeof(uint16_t)) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++)
        for (size_t i = 0; i < b->nnear; i++) {
            const uint16_t **src = &b->src[k * b->nnear + i];
            uint64_t p = b->near[i].p;
            *src = NULL;
            if (p + s->split[k] + 1 > m0)
                continue;
            uint64_t at = m0 - s->split[k] - p;
            if (!(*src = source(s, at, b->pool + pooled * S)))
                return -1;
            pooled += at < s->base;
        }
    return 0;
}

/* Marks the one-heap moves and the splits with a near part at n = m0 + j.  (The lists are
 * read into locals: a store to row may alias anything, and would reload them.) */
static int near_marks(const fr_state *s, uint64_t m0, size_t j, const block_work *b,
                      uint8_t *row)
{
    uint64_t n = m0 + j;
    uint32_t v;
    const part *near = b->near;
    size_t nnear = b->nnear;
    int unequal = s->unequal;
    if (fr_take_marks(s, n, row) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++) {
        if (n < s->split[k] + 2)
            continue;
        uint64_t total = n - s->split[k];
        const uint16_t *const *src = b->src + k * nnear;
        for (size_t i = 0; i < nnear && near[i].p < total; i++) {
            uint64_t q = total - near[i].p;
            if (unequal && q == near[i].p)
                continue;
            if (src[i])
                v = src[i][j];
            else if (fr_value(s, q, &v) < 0)
                return -1;
            row[near[i].g ^ v] = 1;
        }
        for (size_t i = b->parts_seen; i < s->nparts; i++) { /* rare heap sizes of the block */
            const part *pt = &s->parts[i];
            if (!pt->rare || pt->p >= total || (s->unequal && 2 * pt->p == total))
                continue;
            if (fr_value(s, total - pt->p, &v) < 0)
                return -1;
            row[pt->g ^ v] = 1;
        }
    }
    return 0;
}

/* The partners of the far and mid parts for the sub-block b->m0, as near_sources makes those
 * of the near parts: read back once for the sub-block where they lie before the window (one
 * read each, where fr_value would read the file value by value). */
static int far_sources(const fr_state *s, block_work *b)
{
    size_t nfm = b->nfar + b->nmid, pooled = 0;
    if (room(&b->fsrc, &b->fsrc_cap, nfm * s->nsplit + 1, sizeof(uint16_t *)) < 0 ||
        room(&b->fpool, &b->fpool_cap, (nfm * s->nsplit + 1) * S, sizeof(uint16_t)) < 0)
        return -1;
    for (size_t k = 0; k < s->nsplit; k++) {
        const uint16_t **src = b->fsrc + k * nfm;
        if (sources_of(s, b->m0, k, b->far, b->nfar, src, b->fpool, &pooled) < 0 ||
            sources_of(s, b->m0, k, b->mid, b->nmid, src + b->nfar, b->fpool, &pooled) < 0)
            return -1;
    }
    b->fsrc_m0 = b->m0;
    return 0;
}

/* Marks every far (and mid) part's split at n: past the K candidates the walk goes on with
 * exact marks. */
static int far_marks(const fr_state *s, uint64_t n, block_work *b, uint8_t *row)
{
    const part *far = b->far, *mid = b->mid; /* (locals: see near_marks) */
    size_t nfar = b->nfar, nmid = b->nmid;
    uint64_t largest = nfar ? far[nfar - 1].p : 0;
    b->far_marked++;
    if (nfar && n >= s->base + s->kmax + largest) { /* every partner in the window */
        for (size_t k = 0; k < s->nsplit; k++) {
            const uint16_t *q = s->buf + (n - s->split[k] - s->base);
            for (size_t i = 0; i < nfar; i++)
                row[far[i].g ^ q[-(ptrdiff_t)far[i].p]] = 1;
            for (size_t i = 0; i < nmid; i++) /* (mid parts: partners in the window) */
                row[mid[i].g ^ q[-(ptrdiff_t)mid[i].p]] = 1;
        }
        return 0;
    }
    if (b->fsrc_m0 != b->m0 && far_sources(s, b) < 0)
        return -1;
    size_t j = (size_t)(n - b->m0), nfm = nfar + nmid;
    for (size_t k = 0; k < s->nsplit; k++) {
        const uint16_t *const *src = b->fsrc + k * nfm;
        for (size_t i = 0; i < nfar; i++)
            row[far[i].g ^ src[i][j]] = 1;
        for (size_t i = 0; i < nmid; i++)
            row[mid[i].g ^ src[nfar + i][j]] = 1;
    }
    return 0;
}

/* The least common value reached by no split at n0 + j, or 2^bits: the first candidate not
 * reached, or past the K candidates a walk with the far parts marked. */
static int candidate(const fr_state *s, const block_prep *p, size_t j, block_work *b,
                     uint32_t *c)
{
    for (int i = 0; i < p->ncand[j]; i++) {
        uint32_t w = p->cand[i][j];
        if (!p->hit[i][j] && !b->row[w]) {
            *c = w;
            return 0;
        }
    }
    uint64_t n = p->n0 + j;
    uint32_t ts = (uint32_t)1 << s->bits;
    const uint8_t *common = s->common[(n - s->kmin) & 1];
    uint32_t w = p->ncand[j] < K ? ts : (uint32_t)p->cand[K - 1][j] + 1;
    for (int marked = 0; w < ts; w++) {
        if (!common[w] || b->row[w])
            continue;
        const uint64_t *words = fr_cover_common(s, p->n0, w);
        if (words && ((words[j >> 6] >> (j & 63)) & 1))
            continue;
        if (marked)
            break;
        if (far_marks(s, n, b, b->row) < 0)
            return -1;
        marked = 1;
        w--; /* w again, with the far parts marked */
    }
    *c = w;
    return 0;
}

/* With a helper the near parts reach up to 3S: those from S on whose partners all lie before
 * the sub-block (not late) get their candidates checked at once, like the far parts, and
 * leave the near list. */
static int is_mid(const fr_state *s, const block_work *b, size_t i, uint64_t m0)
{
    const part *pt = &b->near[i];
    int mid = pt->p >= S && 2 * pt->p + s->kmax + 1 < m0;
    for (size_t k = 0; mid && k < s->nsplit; k++)
        mid = b->src[k * b->nnear + i] != NULL;
    return mid;
}

static int mid_parts(const fr_state *s, uint64_t m0, block_prep *p, size_t j0, block_work *b)
{
    if (room(&b->mid, &b->mid_cap, b->nnear + 1, sizeof(part)) < 0 ||
        room(&b->msrc, &b->msrc_cap, b->nnear * s->nsplit + 1, sizeof(uint16_t *)) < 0)
        return -1;
    size_t kept = 0, nmid = 0;
    for (size_t i = 0; i < b->nnear; i++)
        nmid += is_mid(s, b, i, m0);
    b->nmid = 0;
    if (!nmid)
        return 0;
    for (size_t i = 0; i < b->nnear; i++) { /* mid: to mid and msrc (k-major); else kept */
        if (is_mid(s, b, i, m0)) {
            for (size_t k = 0; k < s->nsplit; k++)
                b->msrc[k * nmid + b->nmid] = b->src[k * b->nnear + i];
            b->mid[b->nmid++] = b->near[i];
            continue;
        }
        for (size_t k = 0; k < s->nsplit; k++)
            b->src[k * b->nnear + kept] = b->src[k * b->nnear + i];
        b->near[kept++] = b->near[i];
    }
    /* the sources of the kept parts, k-major with the new count */
    for (size_t k = 1; k < s->nsplit; k++)
        for (size_t i = 0; i < kept; i++)
            b->src[k * kept + i] = b->src[k * b->nnear + i];
    b->nnear = kept;
    s->kern->hits(&p->cand[0][0], &p->hit[0][0], j0, b->mid, b->nmid, s->nsplit, b->msrc, 1);
    return 0;
}

/* Position j's value taken on speculation, c (< 2^bits), and its obligations recorded: 0, or
 * -1 out of memory. */
static int speculate(const fr_state *s, uint64_t n0, size_t j, uint32_t c, block_work *b)
{
    spec_block *sb = &b->spec[(n0 / B) % FR_SETS];
    size_t npending = fr_cover_pending(s, n0 + j, c, b->row, b->fs.pending, 0);
    if (j == 0)
        sb->first[0] = 0;
    size_t at = sb->first[j];
    if (room(&sb->todo, &sb->todo_cap, at + npending + 1, sizeof(uint16_t)) < 0)
        return -1;
    for (size_t i = 0; i < npending; i++)
        sb->todo[at + i] = (uint16_t)b->fs.pending[i];
    sb->first[j + 1] = (uint32_t)(at + npending);
    sb->value[j] = (uint16_t)c;
    return 0;
}

/* Settles the sub-block j0 of the prepared block: NC_OK, 1 when a value outgrew the tables
 * (out[0..*made) valid), 2 when speculation stops before a value that would, or an error. */
static int settle(fr_state *s, block_prep *p, size_t j0, uint64_t least, block_work *b,
                  uint16_t *out, size_t *made)
{
    unsigned bits = s->bits;
    size_t ts = (size_t)1 << bits;
    uint64_t m0 = p->n0 + j0;
    b->parts_seen = s->nparts;
    if (room(&b->far, &b->far_cap, s->nparts + 1, sizeof(part)) < 0 ||
        room(&b->near, &b->near_cap, s->nparts + 1, sizeof(part)) < 0)
        return NC_NOMEM;
    b->nfar = split_parts(s, s->nparts, m0, least, b->far, b->near, &b->nnear);
    b->m0 = m0;
    b->fsrc_m0 = UINT64_MAX; /* (far_marks makes the far parts' sources when it needs them) */
    if (near_sources(s, m0, b) < 0 || mid_parts(s, m0, p, j0, b) < 0)
        return NC_BADARG;
    for (size_t j = j0; j < j0 + S; j++) {
        uint64_t n = p->n0 + j;
        uint32_t c, v;
        memset(b->row, 0, ts);
        if (near_marks(s, m0, j - j0, b, b->row) < 0 || candidate(s, p, j, b, &c) < 0)
            return NC_BADARG;
        if (b->spec) { /* speculation: c now, the proofs on other threads */
            if (c >= ts)
                return 2; /* a value that widens the tables: proved here, after the step */
            if (speculate(s, p->n0, j, c, b) < 0)
                return NC_NOMEM;
            v = c;
        } else if (fr_settle_below(s, n, b->row, c, 1, &b->fs, &v) < 0 || (v >> MAX_BITS)) {
            return NC_BADARG;
        }
        out[*made] = (uint16_t)v;
        if (fr_accept(s, (uint16_t)v) < 0)
            return NC_NOMEM;
        (*made)++;
        s->blocked++;
        if (s->bits != bits)
            return 1;
    }
    return NC_OK;
}

/* ---- the step: a helper prepares the next block while this thread settles ---------------- */

/* With K threads: the calling thread settles, one helper prepares (the checks of each
 * sub-block, the next block's candidates and rare coverage), and with K > 2 the K - 2 others
 * prove the blocks settled on speculation (benchmarks/README.md: "K threads"). */
enum { SUBS = B / S };
/* FR_PROVERS: at most this many provers (threads past FR_PROVERS + 2 are not started: on a
 * 16-core Xeon, Officers and Grundy's game ran no faster with 8 threads than with 3 or 4, and
 * the one preparing helper bounds the run from 4 on: benchmarks/README.md, "K threads").
 * FR_QUIET: speculation only this far past the last value of rare class. */
#ifndef FR_PROVERS
#define FR_PROVERS 2
#endif
#ifndef FR_QUIET
#define FR_QUIET (4 * FR_SETS * FR_BLOCK)
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
 * on the next block (prepared, not yet handed over: only the helper touches its coverage):
 * a position's value is at least its first candidate, so every value of rare class below it
 * will be asked for there, and the later pairs of those not covered yet are tried now, a
 * position at a time while the calling thread is still busy.  (Officers: a quarter of the
 * calling thread's time had gone to those pairs; done for every position the helper became
 * the longer side.) */
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
        if (npos && c->start + bi * B < fail_at(c) &&
            (!fs || !row || prove_block(c, bi, npos, fs, row) < 0))
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

static void *helper_main(void *arg)
{
    pipe_ctx *c = (pipe_ctx *)arg;
    const block_prep *ahead = NULL; /* prepared ahead, not yet handed over */
    size_t ahead_j = 0;
    if (!wait_for(c, &c->ready, 1)) /* the calling thread prepares the first block */
        return NULL;
    for (uint64_t u = 1; u < c->subs; u++) {
        if (u >= AHEAD)
            cover_while_waiting(c, u - AHEAD, ahead, &ahead_j);
        if (u % SUBS == 0)
            ahead = NULL; /* handed over below */
        if (u >= AHEAD && !wait_for(c, &c->settled, u - AHEAD)) /* values below u - AHEAD */
            break;
        block_prep *p = &c->b->prep[(u / SUBS) & 1];
        size_t nparts = __atomic_load_n(&c->s->nparts, __ATOMIC_ACQUIRE);
        uint64_t below = p->early ? very_far(c->s) : UINT64_MAX;
        if (!prepare_sub(c->s, p, (u % SUBS) * S, nparts, AHEAD_LEAST, below, p->early)) {
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
            prepare_block(c->s, c->start + next * B, &c->b->prep[next & 1]);
            /* the early checks (moved work, but in two passes) unless the calling thread
             * waited for this helper since the last block (without other helpers, whose
             * bounds they are): else the helper would become the longer side (Grundy's
             * game, two threads, is about balanced without them) */
            int starved = __atomic_exchange_n(&c->starved, 0, __ATOMIC_ACQ_REL);
            int remade = lag_remade(c->s, c->start + next * B); /* (new candidates: checks then) */
            checks_ahead(c->s, &c->b->prep[next & 1], nparts, !starved && !remade);
            rare_coverage(c->s, &c->b->prep[next & 1]);
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
    free((void *)b->fsrc);
    free(b->fpool);
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
 * start from FR_LAG, not from B: for a game with many rare parts in between (0.364: 187 of
 * its 822 from B on) the candidates can be so much weaker that most positions go past all K
 * of them to the far parts' exact marks (0.364 from about 2^23 on: two threads ran 3x slower
 * than one).  So with a helper every PROBE blocks count those positions.  Past a quarter,
 * for the next FR_ALONE positions, the sub-blocks' candidates are made again without the lag
 * parts' values (lag_candidates: more work for the helper, which Grundy's game, balanced at
 * two threads, should not get at every block); if a quarter still go past, the blocks go
 * alone for the next FR_ALONE positions (the coverage made again from B).  Then they try
 * again.  (With the default head Grundy's game counts 4% of its positions and Officers 11%:
 * both keep their candidates; 0.364 counts 67% and 0.166 75%.) */
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
    if (t->helped && t->nprovers)
        return;
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
            if (u % SUBS == 0)
                prepare_block(s, n0, p);
            if (!prepare_sub(s, p, j0, s->nparts, least, UINT64_MAX, 0))
                break;
            if (u == 0)
                publish(c, &c->ready, 1);
        } else if (!wait_ready(c, u)) {
            break;
        }
        status = settle(s, p, j0, least, b, out, made);
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
}

int fr_step_blocks(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
    block_work *b = (block_work *)calloc(1, sizeof *b); /* its arrays grow as they need */
    if (!b)
        return NC_NOMEM;
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
