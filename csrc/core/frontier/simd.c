/*
 * simd.c -- the two vector kernels of the block engine (block.c,
 * cover.c), once per path, and the choice of path at run time.
 *
 *   hits:  the candidates of 128 positions against every far rare part (about 12% of a run);
 *   cover: a block's 512 bits of a frequent value's ring, read from any bit offset and or'ed
 *          together pair after pair (about 30%).
 *
 * And for the narrow steps (narrow.c: every value below 64, a position's marks one
 * 64-bit word), narrow_marks and narrow_search: 1 << (a ^ b) or'ed over pairs of values, a
 * variable shift of 64-bit lanes (vpsllvq) for eight or four values at once.
 *
 * Paths: AVX-512 (F, BW, VBMI2: 32 positions, or all 512 bits, in one register), AVX2 (16
 * positions or 256 bits), and portable C for any CPU and compiler (GCC and Clang vector
 * extensions of 32 bytes where they exist: SSE2 on plain x86-64, NEON on AArch64; scalar
 * otherwise).  Each path carries its own target attribute: no global -m flag, so one build
 * runs on every CPU of its architecture and picks, by cpuid, the widest path this CPU runs
 * (fr_path_best), like the arithmetic kernels (kernel64.c).  All paths compute the same bits,
 * so the values do not depend on the path; tests/games/test_frontier_paths.py runs each.
 */
#include "internal.h"

#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__) && !defined(FR_NO_X86_PATHS)
#include <immintrin.h>
#define FR_X86 1
#endif

enum { B = FR_BLOCK, S = FR_SUB, K = FR_K, CW = FR_CW };

/* ---- portable ------------------------------------------------------------------------- */

#if defined(__GNUC__) /* GCC and Clang: generic vectors of 16 bytes */
/* 16 bytes, the width that plain x86-64 (SSE2) and AArch64 (NEON) both have: a wider generic
 * vector is split by GCC into scalar compares where the target lacks it (measured: 10x
 * slower than these). */
typedef uint16_t v8u __attribute__((vector_size(16)));
typedef int16_t v8s __attribute__((vector_size(16)));
enum { VL = 8 };

/* An unaligned load (memcpy: the compiler makes it one vector load). */
#define LOAD8(v, p) memcpy(&(v), (p), sizeof(v))

/* Compares rather than minima (a vector ?: is C++ only in GCC): got[c] lanes are -1 where
 * some part reached candidate c. */
static void hits_portable(const uint16_t *cand, uint8_t *hit, size_t j0, const part *far,
                          size_t nfar, size_t nsplit, const uint16_t *const *sources, int more)
{
    for (size_t j = j0; j < j0 + S; j += VL) {
        v8u want[K];
        v8s got[K];
#pragma GCC unroll 16
        for (int c = 0; c < K; c++) {
            LOAD8(want[c], cand + (size_t)c * B + j);
            got[c] = (v8s){0};
        }
        for (size_t k = 0; k < nsplit; k++) {
            const uint16_t *const *src = sources + k * nfar;
            for (size_t i = 0; i < nfar; i++) {
                v8u x;
                LOAD8(x, src[i] + (j - j0));
                x ^= (uint16_t)far[i].g;
#pragma GCC unroll 16
                for (int c = 0; c < K; c++)
                    got[c] |= (v8s)(x == want[c]);
            }
        }
        for (int c = 0; c < K; c++)
            for (size_t t = 0; t < VL; t++) {
                uint8_t *h = hit + (size_t)c * B + j + t;
                *h = (uint8_t)((got[c][t] != 0) | (more ? *h : 0));
            }
    }
}
#else /* any other C compiler: the same, one position at a time */
static void hits_portable(const uint16_t *cand, uint8_t *hit, size_t j0, const part *far,
                          size_t nfar, size_t nsplit, const uint16_t *const *sources, int more)
{
    for (size_t j = j0; j < j0 + S; j++)
        for (int c = 0; c < K; c++) {
            uint16_t w = cand[(size_t)c * B + j];
            int got = more && hit[(size_t)c * B + j];
            for (size_t k = 0; k < nsplit && !got; k++)
                for (size_t i = 0; i < nfar && !got; i++)
                    got = (uint16_t)(sources[k * nfar + i][j - j0] ^ far[i].g) == w;
            hit[(size_t)c * B + j] = (uint8_t)got;
        }
}
#endif

/* Whether the words are all ones, or bit `bit` (< B) is set. */
static int cover_done(const uint64_t *sum, size_t bit)
{
    if (bit < B && ((sum[bit >> 6] >> (bit & 63)) & 1))
        return 1;
    uint64_t all = ~(uint64_t)0;
    for (int w = 0; w < CW; w++)
        all &= sum[w];
    return all == ~(uint64_t)0;
}

/* Word w of the block starts at bit `at` of the ring: (row[w] >> sh) | (row[w + 1] << (64 - sh)),
 * the second shift split in two so that sh = 0 shifts by no more than 63.  Generic vectors of
 * two words where there are (left to the vectorizer, GCC kept the sums in memory, a load and
 * a store per two words and pair), plain C otherwise. */
#if defined(__GNUC__)
typedef uint64_t v2q __attribute__((vector_size(16)));
#define ROW_OR(sum, row, sh)                                                               \
    do {                                                                                   \
        _Pragma("GCC unroll 4") for (int w_ = 0; w_ < CW / 2; w_++) {                      \
            v2q lo_, hi_;                                                                  \
            memcpy(&lo_, (row) + 2 * w_, sizeof lo_);                                      \
            memcpy(&hi_, (row) + 2 * w_ + 1, sizeof hi_);                                  \
            (sum)[w_] |= (lo_ >> (sh)) | ((hi_ << 1) << (63 - (sh)));                      \
        }                                                                                  \
    } while (0)
#else
typedef struct { uint64_t q[2]; } v2q;
#define ROW_OR(sum, row, sh)                                                               \
    do {                                                                                   \
        for (int w_ = 0; w_ < CW; w_++)                                                    \
            (sum)[w_ / 2].q[w_ % 2] |=                                                     \
                ((row)[w_] >> (sh)) | (((row)[w_ + 1] << 1) << (63 - (sh)));               \
    } while (0)
#endif

static size_t cover_portable(const uint64_t *rows, size_t row_words, const size_t *split,
                             size_t nsplit, uint64_t n0, const cover_pair *list, size_t from,
                             size_t len, size_t bit, uint64_t *acc)
{
    v2q sum[CW / 2];
    uint64_t out[CW];
    memset(sum, 0, sizeof sum);
    if (from)
        memcpy(sum, acc, sizeof sum);
    size_t i = from;
    while (i < len) {
        for (size_t k = 0; k < nsplit; k++) {
            uint64_t at = (n0 - split[k] - list[i].a) & (FR_CSPAN - 1);
            const uint64_t *row = rows + list[i].t * row_words + (at >> 6);
            unsigned sh = (unsigned)(at & 63);
            ROW_OR(sum, row, sh);
        }
        if ((++i & 7) == 0) {
            memcpy(out, sum, sizeof out);
            if (cover_done(out, bit))
                break;
        }
    }
    memcpy(acc, sum, sizeof sum);
    return i;
}

/* ---- narrow steps, portable (scalar: SSE2 has no shift of each lane by its own count) ---- */

static void narrow_marks_portable(uint64_t *acc, const uint16_t *const *src, const uint8_t *gv,
                                  size_t npairs, size_t j0)
{
    uint64_t a[FR_NG];
    memcpy(a, acc, sizeof a);
    for (size_t i = 0; i < npairs; i++) {
        const uint16_t *q = src[i] + j0;
        uint32_t g = gv[i];
        for (int j = 0; j < FR_NG; j++)
            a[j] |= (uint64_t)1 << ((g ^ q[j]) & 63);
    }
    memcpy(acc, a, sizeof a);
}

static inline uint64_t narrow_chunk_portable(const uint16_t *x, const uint16_t *y)
{
    uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0; /* four chains: the ors need not wait for each other */
    for (size_t i = 0; i < 32; i += 4) {
        r0 |= (uint64_t)1 << ((x[i] ^ y[i]) & 63);
        r1 |= (uint64_t)1 << ((x[i + 1] ^ y[i + 1]) & 63);
        r2 |= (uint64_t)1 << ((x[i + 2] ^ y[i + 2]) & 63);
        r3 |= (uint64_t)1 << ((x[i + 3] ^ y[i + 3]) & 63);
    }
    return r0 | r1 | r2 | r3;
}

/* The search loop of every path around its chunk of 32 splits. */
#define NARROW_SEARCH(name, attr, chunk)                                                         \
    attr static uint64_t name(const uint16_t *x, const uint16_t *const *y, size_t nsplit,       \
                              uint64_t row, uint64_t want, size_t limit, size_t *at)            \
    {                                                                                          \
        size_t a = *at;                                                                        \
        for (; (want & ~row) && a + 32 <= limit; a += 32)                                      \
            for (size_t k = 0; k < nsplit; k++)                                                \
                row |= chunk(x - a, y[k] - a);                                                 \
        *at = a;                                                                               \
        return row;                                                                            \
    }
NARROW_SEARCH(narrow_search_portable, , narrow_chunk_portable)

/* ---- AVX2 ----------------------------------------------------------------------------- */

#ifdef FR_X86
/* 16 positions a register; the eight candidates and their hit masks are 16 registers, so GCC
 * reads the candidates from memory (a load folded into each compare).  The loops over the
 * candidates are unrolled by hand's pragma: left rolled, GCC kept the masks in memory (a load
 * and a store per candidate and part). */
__attribute__((target("avx2"))) static void
hits_avx2(const uint16_t *cand, uint8_t *hit, size_t j0, const part *far, size_t nfar,
          size_t nsplit, const uint16_t *const *sources, int more)
{
    for (size_t j = j0; j < j0 + S; j += 16) {
        __m256i want[K], got[K];
#pragma GCC unroll 16
        for (int c = 0; c < K; c++) {
            want[c] = _mm256_loadu_si256((const __m256i *)(cand + (size_t)c * B + j));
            got[c] = _mm256_setzero_si256();
        }
        for (size_t k = 0; k < nsplit; k++) {
            const uint16_t *const *src = sources + k * nfar;
            for (size_t i = 0; i < nfar; i++) {
                __m256i x = _mm256_xor_si256(
                    _mm256_loadu_si256((const __m256i *)(src[i] + (j - j0))),
                    _mm256_set1_epi16((short)far[i].g));
#pragma GCC unroll 16
                for (int c = 0; c < K; c++)
                    got[c] = _mm256_or_si256(got[c], _mm256_cmpeq_epi16(x, want[c]));
            }
        }
        for (int c = 0; c < K; c++) {
            uint32_t m = (uint32_t)_mm256_movemask_epi8(got[c]); /* two bits a position */
            for (size_t t = 0; t < 16; t++) {
                uint8_t *h = hit + (size_t)c * B + j + t;
                *h = (uint8_t)(((m >> (2 * t)) & 1) | (more ? *h : 0));
            }
        }
    }
}

/* Narrow steps: four positions (or values) a register of 64-bit lanes. */
__attribute__((target("avx2"))) static void
narrow_marks_avx2(uint64_t *acc, const uint16_t *const *src, const uint8_t *gv, size_t npairs,
                  size_t j0)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i a[4];
    for (int t = 0; t < 4; t++)
        a[t] = _mm256_loadu_si256((const __m256i *)(acc + 4 * t));
    for (size_t i = 0; i < npairs; i++) {
        const uint16_t *q = src[i] + j0;
        __m256i g = _mm256_set1_epi64x(gv[i]);
#pragma GCC unroll 4
        for (int t = 0; t < 4; t++) {
            __m256i x = _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(q + 4 * t)));
            a[t] = _mm256_or_si256(a[t], _mm256_sllv_epi64(one, _mm256_xor_si256(x, g)));
        }
    }
    for (int t = 0; t < 4; t++)
        _mm256_storeu_si256((__m256i *)(acc + 4 * t), a[t]);
}

__attribute__((target("avx2"))) static inline uint64_t narrow_chunk_avx2(const uint16_t *x,
                                                                        const uint16_t *y)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i r[4];
    for (int h = 0; h < 2; h++) {
        __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(x + 16 * h)),
                                     _mm256_loadu_si256((const __m256i *)(y + 16 * h)));
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        __m256i a = _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(lo));
        __m256i b = _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(_mm_srli_si128(lo, 8)));
        __m256i c = _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(hi));
        __m256i d = _mm256_sllv_epi64(one, _mm256_cvtepu16_epi64(_mm_srli_si128(hi, 8)));
        r[2 * h] = _mm256_or_si256(a, b);
        r[2 * h + 1] = _mm256_or_si256(c, d);
    }
    __m256i o = _mm256_or_si256(_mm256_or_si256(r[0], r[1]), _mm256_or_si256(r[2], r[3]));
    __m128i h = _mm_or_si128(_mm256_castsi256_si128(o), _mm256_extracti128_si256(o, 1));
    return (uint64_t)_mm_cvtsi128_si64(h) | (uint64_t)_mm_extract_epi64(h, 1);
}
NARROW_SEARCH(narrow_search_avx2, __attribute__((target("avx2"))), narrow_chunk_avx2)

/* Two registers of four words; a shift by 64 or more gives 0 in AVX2, so sh = 0 needs no
 * special case. */
__attribute__((target("avx2"))) static size_t
cover_avx2(const uint64_t *rows, size_t row_words, const size_t *split, size_t nsplit,
           uint64_t n0, const cover_pair *list, size_t from, size_t len, size_t bit,
           uint64_t *acc)
{
    __m256i lo = from ? _mm256_loadu_si256((const __m256i *)acc) : _mm256_setzero_si256();
    __m256i hi = from ? _mm256_loadu_si256((const __m256i *)(acc + 4)) : _mm256_setzero_si256();
    __m256i ones = _mm256_set1_epi64x(-1), mlo = _mm256_setzero_si256(), mhi = mlo;
    if (bit < B) {
        uint64_t one[CW] = {0};
        one[bit >> 6] = (uint64_t)1 << (bit & 63);
        mlo = _mm256_loadu_si256((const __m256i *)one);
        mhi = _mm256_loadu_si256((const __m256i *)(one + 4));
    }
    size_t i = from;
    while (i < len) {
        for (size_t k = 0; k < nsplit; k++) {
            uint64_t at = (n0 - split[k] - list[i].a) & (FR_CSPAN - 1);
            const uint64_t *w = rows + list[i].t * row_words + (at >> 6);
            int sh = (int)(at & 63);
            __m128i r = _mm_cvtsi32_si128(sh), l = _mm_cvtsi32_si128(64 - sh);
            __m256i a0 = _mm256_loadu_si256((const __m256i *)w);
            __m256i a1 = _mm256_loadu_si256((const __m256i *)(w + 4));
            __m256i b0 = _mm256_loadu_si256((const __m256i *)(w + 1));
            __m256i b1 = _mm256_loadu_si256((const __m256i *)(w + 5));
            a0 = _mm256_or_si256(_mm256_srl_epi64(a0, r), _mm256_sll_epi64(b0, l));
            a1 = _mm256_or_si256(_mm256_srl_epi64(a1, r), _mm256_sll_epi64(b1, l));
            lo = _mm256_or_si256(lo, a0);
            hi = _mm256_or_si256(hi, a1);
        }
        if ((++i & 7) == 0) {
            __m256i all = _mm256_and_si256(lo, hi);
            __m256i got = _mm256_or_si256(_mm256_and_si256(lo, mlo), _mm256_and_si256(hi, mhi));
            if (_mm256_testc_si256(all, ones) || !_mm256_testz_si256(got, got))
                break;
        }
    }
    _mm256_storeu_si256((__m256i *)acc, lo);
    _mm256_storeu_si256((__m256i *)(acc + 4), hi);
    return i;
}

/* ---- AVX-512 -------------------------------------------------------------------------- */

/* 32 positions a register; each candidate keeps the least x ^ candidate over the parts, 0
 * where one reaches it (vector minima: eight mask registers would not fit beside the
 * compares' own). */
__attribute__((target("avx512f,avx512bw"))) static void
hits_avx512(const uint16_t *cand, uint8_t *hit, size_t j0, const part *far, size_t nfar,
            size_t nsplit, const uint16_t *const *sources, int more)
{
    for (size_t j = j0; j < j0 + S; j += 32) {
        __m512i want[K], least[K];
#pragma GCC unroll 16
        for (int c = 0; c < K; c++) {
            want[c] = _mm512_loadu_si512((const void *)(cand + (size_t)c * B + j));
            least[c] = _mm512_set1_epi16(-1);
        }
        for (size_t k = 0; k < nsplit; k++) {
            const uint16_t *const *src = sources + k * nfar;
            for (size_t i = 0; i < nfar; i++) {
                __m512i x = _mm512_xor_si512(_mm512_loadu_si512((const void *)(src[i] + (j - j0))),
                                             _mm512_set1_epi16((short)far[i].g));
#pragma GCC unroll 16
                for (int c = 0; c < K; c++)
                    least[c] = _mm512_min_epu16(least[c], _mm512_xor_si512(x, want[c]));
            }
        }
        for (int c = 0; c < K; c++) {
            __mmask32 h = _mm512_cmpeq_epi16_mask(least[c], _mm512_setzero_si512());
            for (size_t t = 0; t < 32; t++) {
                uint8_t *o = hit + (size_t)c * B + j + t;
                *o = (uint8_t)(((h >> t) & 1) | (more ? *o : 0));
            }
        }
    }
}

/* The whole block in one register: a funnel shift of words w[0..8] by sh (VBMI2). */
__attribute__((target("avx512f,avx512vbmi2"))) static size_t
cover_avx512(const uint64_t *rows, size_t row_words, const size_t *split, size_t nsplit,
             uint64_t n0, const cover_pair *list, size_t from, size_t len, size_t bit,
             uint64_t *acc)
{
    __m512i sum = from ? _mm512_loadu_si512((const void *)acc) : _mm512_setzero_si512();
    __m512i ones = _mm512_set1_epi64(-1), one = _mm512_setzero_si512();
    if (bit < B)
        one = _mm512_mask_set1_epi64(one, (__mmask8)(1u << (bit >> 6)),
                                     (long long)((uint64_t)1 << (bit & 63)));
    size_t i = from;
    while (i < len) {
        for (size_t k = 0; k < nsplit; k++) {
            uint64_t at = (n0 - split[k] - list[i].a) & (FR_CSPAN - 1);
            const uint64_t *w = rows + list[i].t * row_words + (at >> 6);
            __m512i lo = _mm512_loadu_si512((const void *)w);
            __m512i hi = _mm512_alignr_epi64(_mm512_set1_epi64((long long)w[CW]), lo, 1);
            __m512i sh = _mm512_set1_epi64((long long)(at & 63));
            sum = _mm512_or_si512(sum, _mm512_shrdv_epi64(lo, hi, sh));
        }
        if ((++i & 7) == 0 && (_mm512_cmpneq_epi64_mask(sum, ones) == 0 ||
                               _mm512_test_epi64_mask(sum, one) != 0))
            break;
    }
    _mm512_storeu_si512((void *)acc, sum);
    return i;
}

/* Narrow steps: eight positions (or values) a register of 64-bit lanes. */
__attribute__((target("avx512f"))) static void
narrow_marks_avx512(uint64_t *acc, const uint16_t *const *src, const uint8_t *gv,
                    size_t npairs, size_t j0)
{
    const __m512i one = _mm512_set1_epi64(1);
    __m512i a0 = _mm512_loadu_si512((const void *)acc), a1 = _mm512_loadu_si512((const void *)(acc + 8));
    for (size_t i = 0; i < npairs; i++) {
        const uint16_t *q = src[i] + j0;
        __m512i g = _mm512_set1_epi64(gv[i]);
        __m512i x0 = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)q));
        __m512i x1 = _mm512_cvtepu16_epi64(_mm_loadu_si128((const __m128i *)(q + 8)));
        a0 = _mm512_or_si512(a0, _mm512_sllv_epi64(one, _mm512_xor_si512(x0, g)));
        a1 = _mm512_or_si512(a1, _mm512_sllv_epi64(one, _mm512_xor_si512(x1, g)));
    }
    _mm512_storeu_si512((void *)acc, a0);
    _mm512_storeu_si512((void *)(acc + 8), a1);
}

__attribute__((target("avx512f"))) static inline uint64_t narrow_chunk_avx512(const uint16_t *x,
                                                                            const uint16_t *y)
{
    const __m512i one = _mm512_set1_epi64(1);
    __m256i v0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)x),
                                  _mm256_loadu_si256((const __m256i *)y));
    __m256i v1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(x + 16)),
                                  _mm256_loadu_si256((const __m256i *)(y + 16)));
    __m512i r0 = _mm512_sllv_epi64(one, _mm512_cvtepu16_epi64(_mm256_castsi256_si128(v0)));
    __m512i r1 = _mm512_sllv_epi64(one, _mm512_cvtepu16_epi64(_mm256_extracti128_si256(v0, 1)));
    __m512i r2 = _mm512_sllv_epi64(one, _mm512_cvtepu16_epi64(_mm256_castsi256_si128(v1)));
    __m512i r3 = _mm512_sllv_epi64(one, _mm512_cvtepu16_epi64(_mm256_extracti128_si256(v1, 1)));
    return (uint64_t)_mm512_reduce_or_epi64(
        _mm512_or_si512(_mm512_or_si512(r0, r1), _mm512_or_si512(r2, r3)));
}
NARROW_SEARCH(narrow_search_avx512, __attribute__((target("avx512f"))), narrow_chunk_avx512)
#endif

/* ---- the choice ------------------------------------------------------------------------ */

#define PORTABLE_KERNELS(name)                                                                  \
    {name, narrow_marks_portable, narrow_search_portable, hits_portable, cover_portable}
static const fr_kernels KERNELS[FR_PATHS] = {
    PORTABLE_KERNELS("portable"),
#ifdef FR_X86
    {"avx2", narrow_marks_avx2, narrow_search_avx2, hits_avx2, cover_avx2},
    {"avx512", narrow_marks_avx512, narrow_search_avx512, hits_avx512, cover_avx512},
#else
    PORTABLE_KERNELS("avx2"), /* never chosen: fr_path_supported says no */
    PORTABLE_KERNELS("avx512"),
#endif
};

int fr_path_supported(int path)
{
    if (path == FR_PATH_PORTABLE)
        return 1;
#ifdef FR_X86
    static int known[FR_PATHS] = {-1, -1, -1}; /* (two threads may store the same answer) */
    if (path < 0 || path >= FR_PATHS)
        return 0;
    int k = __atomic_load_n(&known[path], __ATOMIC_RELAXED);
    if (k < 0) {
        __builtin_cpu_init();
        k = path == FR_PATH_AVX2 ? __builtin_cpu_supports("avx2")
                                 : __builtin_cpu_supports("avx512f") &&
                                       __builtin_cpu_supports("avx512bw") &&
                                       __builtin_cpu_supports("avx512vbmi2");
        __atomic_store_n(&known[path], k, __ATOMIC_RELAXED);
    }
    return k != 0;
#else
    return 0;
#endif
}

int fr_path_best(void)
{
    int best = FR_PATH_PORTABLE;
    for (int p = 1; p < FR_PATHS; p++)
        if (fr_path_supported(p))
            best = p;
    return best;
}

const char *fr_path_name(int path)
{
    return path >= 0 && path < FR_PATHS ? KERNELS[path].name : NULL;
}

const fr_kernels *fr_kernels_of(int path)
{
    return &KERNELS[path >= 0 && path < FR_PATHS ? path : FR_PATH_PORTABLE];
}

int fr_set_path(fr_state *s, int path)
{
    if (!fr_path_supported(path))
        return NC_BADARG;
    s->path = path;
    s->kern = fr_kernels_of(path);
    return NC_OK;
}

int fr_get_path(const fr_state *s)
{
    return s->path;
}
