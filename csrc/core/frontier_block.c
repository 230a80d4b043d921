/*
 * frontier_block.c -- a step of a frontier run a block of FR_BLOCK positions at a time, once
 * the coverage is ready (frontier_cover.c).
 *
 * The value of n is the least common value c reached by no split, unless a smaller value of
 * rare class is reached by none.  Common values come only from splits with one rare part, and
 * marking every rare part for every position (a thousand parts for Grundy's game) was most
 * of the engine's time.  Here, for a whole block at once:
 *   1. the coverage names, for each position, the first K values of common class it does not
 *      prove reached: the candidates;
 *   2. vector compares of g(p) ^ g(n - k - p) with the candidates, for every far rare part p
 *      and every position of the block (32 positions an instruction), say which candidates
 *      are reached after all;
 * then each position in order marks its near rare parts (those whose partner may lie in the
 * block), walks the values of common class up to its first candidate not reached (a value
 * past the K candidates is checked against the far parts one by one), and settles the values
 * of rare class below it (frontier_settle.c).  The values equal the position-by-position
 * engine's: each step only proves a value reached or finds one that is not.
 */
#define _POSIX_C_SOURCE 200809L /* pread, clock_gettime in strict C11 */

#include "frontier_core.h"

#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__) && !defined(FR_NO_AVX512)
#include <immintrin.h>
#define BLOCK_AVX512 1 /* the blocks need AVX-512 (F, BW, VBMI2): fr_vectors_ready() */
#endif

#ifndef FR_CANDIDATES
#define FR_CANDIDATES 8
#endif
/* B: the coverage's block; S: the positions whose candidates are checked at once (the rare
 * parts below S are near: the fewer, the less each position marks by itself). */
enum { B = FR_BLOCK, S = 128, K = FR_CANDIDATES };

typedef struct {
    uint16_t cand[K][B];
    uint8_t ncand[B];
    uint8_t hit[K][B];
    uint16_t values[B];
    part *far, *near;   /* rare parts: checked for the block at once / position by position */
    size_t nfar, nnear;
    size_t parts_seen;  /* s->nparts when they were sorted: later ones are near */
    uint8_t row[(size_t)1 << MAX_BITS];
    finisher_scratch fs;
} block_work;

/* Far parts: rare, S <= p and 2p + kmax + 1 < m0, so that for every position of the S from m0
 * and every split the partner n - k - p is known, larger than p and at least 1. */
static int sort_parts(const fr_state *s, uint64_t m0, block_work *b)
{
    free(b->far);
    free(b->near);
    b->far = (part *)malloc((s->nparts + 1) * sizeof(part));
    b->near = (part *)malloc((s->nparts + 1) * sizeof(part));
    if (!b->far || !b->near)
        return -1;
    b->nfar = b->nnear = 0;
    b->parts_seen = s->nparts;
    for (size_t i = 0; i < s->nparts; i++) {
        const part *pt = &s->parts[i];
        if (!is_rare(s, pt->p, pt->g))
            continue;
        if (pt->p >= S && 2 * pt->p + s->kmax + 1 < m0)
            b->far[b->nfar++] = *pt;
        else
            b->near[b->nnear++] = *pt;
    }
    return 0;
}

/* ---- 1. the candidates ------------------------------------------------------------------- */

/* For each position n0 + j of the block, the first K values of common class (at most) its
 * coverage does not prove reached, 64 positions at a time. */
static void candidates(const fr_state *s, uint64_t n0, block_work *b)
{
    uint32_t ts = (uint32_t)1 << s->bits;
    /* the positions whose value class uses common[0]: (n0 + j - kmin) even, n0 even */
    uint64_t even = (s->kmin & 1) ? 0xaaaaaaaaaaaaaaaaull : 0x5555555555555555ull;
    for (size_t g = 0; g < B / 64; g++) {
        uint64_t need = ~(uint64_t)0;
        uint8_t count[64] = {0};
        for (uint32_t w = 0; w < ts && need; w++) {
            uint64_t m = (s->common[0][w] ? even : 0) | (s->common[1][w] ? ~even : 0);
            if (!(m &= need))
                continue;
            const uint64_t *words = fr_cover_common(s, n0, w);
            if (words)
                m &= ~words[g];
            while (m) {
                unsigned t = (unsigned)__builtin_ctzll(m);
                m &= m - 1;
                b->cand[count[t]][g * 64 + t] = (uint16_t)w;
                if (++count[t] == K)
                    need &= ~((uint64_t)1 << t);
            }
        }
        for (size_t t = 0; t < 64; t++) {
            size_t j = g * 64 + t;
            b->ncand[j] = count[t];
            for (int i = count[t]; i < K; i++)
                b->cand[i][j] = count[t] ? b->cand[0][j] : 0; /* a repeat: never read */
        }
    }
}

/* ---- 2. the candidates against every far part --------------------------------------------- */

#ifdef BLOCK_AVX512
/* hit[c][j0 + j] for the S positions m0 = n0 + j0 ..: 32 positions at a time, the
 * candidates in registers, every partner in the window. */
__attribute__((target("avx512f,avx512bw"))) static void
hits_avx512(const fr_state *s, uint64_t m0, size_t j0, block_work *b)
{
    for (size_t j = j0; j < j0 + S; j += 32) {
        __m512i cand[K];
        __mmask32 h[K];
        for (int c = 0; c < K; c++) {
            cand[c] = _mm512_loadu_si512((const void *)&b->cand[c][j]);
            h[c] = 0;
        }
        for (size_t k = 0; k < s->nsplit; k++) {
            const uint16_t *base = s->buf + (m0 + (j - j0) - s->split[k] - s->base);
            for (size_t i = 0; i < b->nfar; i++) {
                __m512i x = _mm512_xor_si512(_mm512_loadu_si512((const void *)(base - b->far[i].p)),
                                             _mm512_set1_epi16((short)b->far[i].g));
                for (int c = 0; c < K; c++)
                    h[c] |= _mm512_cmpeq_epi16_mask(x, cand[c]);
            }
        }
        for (int c = 0; c < K; c++)
            for (size_t t = 0; t < 32; t++)
                b->hit[c][j + t] = (uint8_t)((h[c] >> t) & 1);
    }
}

#endif

static void far_hits(const fr_state *s, uint64_t m0, size_t j0, block_work *b)
{
#ifdef BLOCK_AVX512
    hits_avx512(s, m0, j0, b);
#else
    (void)s, (void)m0, (void)j0, (void)b; /* never: fr_blocks_ready says no without them */
#endif
}

/* ---- each position in order ---------------------------------------------------------------- */

static int value_of(const fr_state *s, uint64_t i, uint32_t *v)
{
    if (i >= s->base) {
        *v = s->buf[i - s->base];
        return 0;
    }
    return fr_value_at(s, i, v);
}

/* Marks the one-heap moves and the splits with a near part. */
static int near_marks(const fr_state *s, uint64_t n, const block_work *b, uint8_t *row)
{
    if (n < s->nrules && (s->rules[n] & 1))
        row[0] = 1;
    uint32_t v;
    for (size_t t = 0; t < s->ntake && s->take[t] < n; t++) {
        if (value_of(s, n - s->take[t], &v) < 0)
            return -1;
        row[v] = 1;
    }
    for (size_t k = 0; k < s->nsplit; k++) {
        if (n < s->split[k] + 2)
            continue;
        uint64_t total = n - s->split[k];
        for (size_t i = 0; i < b->nnear && b->near[i].p < total; i++) {
            uint64_t q = total - b->near[i].p;
            if (s->unequal && q == b->near[i].p)
                continue;
            if (value_of(s, q, &v) < 0)
                return -1;
            row[b->near[i].g ^ v] = 1;
        }
        for (size_t i = b->parts_seen; i < s->nparts; i++) { /* rare heap sizes of the block */
            const part *pt = &s->parts[i];
            if (!is_rare(s, pt->p, pt->g) || pt->p >= total || (s->unequal && 2 * pt->p == total))
                continue;
            if (value_of(s, total - pt->p, &v) < 0)
                return -1;
            row[pt->g ^ v] = 1;
        }
    }
    return 0;
}

/* Whether a far part reaches w at n (a value past the candidates: rare). */
static int far_reaches(const fr_state *s, uint64_t n, const block_work *b, uint32_t w, int *err)
{
    for (size_t k = 0; k < s->nsplit; k++)
        for (size_t i = 0; i < b->nfar; i++) {
            uint32_t v;
            if (value_of(s, n - s->split[k] - b->far[i].p, &v) < 0) {
                *err = 1;
                return 0;
            }
            if ((b->far[i].g ^ v) == w)
                return 1;
        }
    return 0;
}

/* The least common value reached by no split at n0 + j, or 2^bits: the first candidate not
 * reached, or past the K candidates a walk that checks the far parts one by one. */
static int candidate(const fr_state *s, uint64_t n0, size_t j, block_work *b, uint32_t *c)
{
    for (int i = 0; i < b->ncand[j]; i++) {
        uint32_t w = b->cand[i][j];
        if (!b->hit[i][j] && !b->row[w]) {
            *c = w;
            return 0;
        }
    }
    uint64_t n = n0 + j;
    uint32_t ts = (uint32_t)1 << s->bits;
    const uint8_t *common = s->common[(n - s->kmin) & 1];
    int err = 0;
    uint32_t w = b->ncand[j] < K ? ts : (uint32_t)b->cand[K - 1][j] + 1;
    for (; w < ts; w++) {
        if (!common[w] || b->row[w])
            continue;
        const uint64_t *words = fr_cover_common(s, n0, w);
        int reached = words && ((words[j >> 6] >> (j & 63)) & 1);
        if (!reached)
            reached = far_reaches(s, n, b, w, &err);
        if (err)
            return -1;
        if (!reached)
            break;
    }
    *c = w;
    return 0;
}

/* One block: NC_OK, 1 when a value outgrew the tables (out[0..*made) valid), or an error. */
static int one_block(fr_state *s, block_work *b, uint16_t *out, size_t *made)
{
    uint64_t n0 = s->done;
    unsigned bits = s->bits;
    size_t ts = (size_t)1 << bits;
    candidates(s, n0, b);
    for (size_t j0 = 0; j0 < B; j0 += S) {
        if (sort_parts(s, n0 + j0, b) < 0)
            return NC_NOMEM;
        far_hits(s, n0 + j0, j0, b);
        for (size_t j = j0; j < j0 + S; j++) {
            uint64_t n = n0 + j;
            uint32_t c, v;
            memset(b->row, 0, ts);
            if (near_marks(s, n, b, b->row) < 0 || candidate(s, n0, j, b, &c) < 0 ||
                fr_settle_below(s, n, b->row, c, 1, &b->fs, &v) < 0 || (v >> MAX_BITS))
                return NC_BADARG;
            out[*made] = (uint16_t)v;
            if (fr_accept(s, (uint16_t)v) < 0)
                return NC_NOMEM;
            (*made)++;
            s->blocked++;
            if (s->bits != bits)
                return 1;
        }
    }
    return NC_OK;
}

/* Whether the block n0 may go this way: the coverage is ready and the window holds the partner
 * n - k - p of every rare part p (read without a system call by the vector checks). */
int fr_blocks_ready(const fr_state *s, uint64_t n0)
{
    if (!fr_vectors_ready() || !fr_cover_active(s, n0))
        return 0;
    size_t i = s->nparts; /* the largest rare part that may be far for the block */
    while (i > 0 && (2 * s->parts[i - 1].p + s->kmax + 1 >= n0 ||
                     !is_rare(s, s->parts[i - 1].p, s->parts[i - 1].g)))
        i--;
    uint64_t largest = i ? s->parts[i - 1].p : 0;
    return n0 >= s->base + largest + s->kmax + B;
}

int fr_step_blocks(fr_state *s, size_t count, uint16_t *out, size_t *made, const nc_poll *poll)
{
    block_work *b = (block_work *)calloc(1, sizeof *b);
    if (!b)
        return NC_NOMEM;
    int status = NC_OK;
    while (status == NC_OK && count - *made >= B && fr_blocks_ready(s, s->done)) {
        status = one_block(s, b, out, made);
        if (status == NC_OK && nc_should_stop(poll))
            status = NC_STOPPED;
    }
    free(b->far);
    free(b->near);
    free(b);
    return status == 1 ? NC_OK : status;
}
