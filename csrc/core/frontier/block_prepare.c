/*
 * block_prepare.c -- preparing a block of the block step (block.c) from values before the
 * block that precedes it: 1. each position's candidates from the coverage (cover.c), 2. the
 * candidates against every far rare part (s->kern->hits, simd.c); with a helper, the checks
 * against the very far parts that bound each position's value from below.
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "block.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
int fr_block_lag_remade(const fr_state *s, uint64_t m0)
{
    return m0 < __atomic_load_n(&s->lag_until, __ATOMIC_ACQUIRE) && fr_cover_lagged(s);
}

/* With a helper the coverage's witnesses start from FR_LAG instead of B (cover.c): the rare
 * parts in between, the lag parts, reach values the coverage does not show, and those values
 * took the candidates' places (with many such parts most positions went past all K candidates
 * to the far parts' marks: benchmarks/README.md, "Frontier tuning notes").  By the time a
 * sub-block is prepared their partners are known, so its candidates are made again without the
 * values they reach: 1 when they were, 0 when there is no lag part, -1 out of memory or a
 * read. */
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

/* The largest of the prepared block's first candidates (first), or of all its candidates. */
uint32_t fr_block_top(const block_prep *p, int first)
{
    uint32_t top = 0;
    for (size_t j = 0; j < B; j++)
        if (p->ncand[j]) {
            uint32_t c = p->cand[first ? 0 : p->ncand[j] - 1][j];
            top = c > top ? c : top;
        }
    return top;
}

/* ---- 2. the candidates against every far part: s->kern->hits (simd.c) ----------- */

/* The coverage of the values of rare class below the block's first candidates (the first
 * candidates are most positions' values), made while the block before is settled. */
void fr_block_rare_coverage(const fr_state *s, const block_prep *p)
{
    uint32_t top = fr_block_top(p, 1);
    for (uint32_t v = 0; v < top; v++)
        if (!s->common[0][v] || !s->common[1][v])
            fr_cover_rare(s, p->n0, v);
}

/* Prepares the block n0 (values below n0 - FR_LAG + ... known: see cover.c): its
 * candidates. */
void fr_block_prepare(const fr_state *s, uint64_t n0, block_prep *p)
{
    p->n0 = n0;
    p->early = 0;
    candidates(s, n0, p);
}

/* The hits of the sub-block j0 of the prepared block from the parts [0, nparts): 1, or 0 when
 * the values file could not be read. */
int fr_block_prepare_sub(const fr_state *s, block_prep *p, size_t j0, size_t nparts,
                         uint64_t least, uint64_t below, int more)
{
    uint64_t m0 = p->n0 + j0;
    /* (not for the early checks, made before the lag parts' partners are known) */
    if (least <= fr_witness_from(s, 0) && fr_block_lag_remade(s, m0)) {
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
 * helpers extend their coverage ahead (before, only those below the first candidate, which
 * is often the value). */
uint64_t fr_block_very_far(const fr_state *s)
{
    return 2 * (uint64_t)B + s->kmax + 1;
}

void fr_block_checks_ahead(const fr_state *s, block_prep *p, size_t nparts, int early)
{
    p->early = early;
    for (size_t j0 = 0; j0 < B && p->early; j0 += S)
        p->early = fr_block_prepare_sub(s, p, j0, nparts, fr_block_very_far(s), UINT64_MAX, 0);
    for (size_t j = 0; j < B; j++) {
        int i = 0;
        while (p->early && i + 1 < p->ncand[j] && p->hit[i][j])
            i++;
        p->least[j] = p->ncand[j] ? p->cand[i][j] : 0;
    }
}
