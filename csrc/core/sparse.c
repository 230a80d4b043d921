/*
 * sparse.c -- the sparse space's best mask, its switching rule and the pair test (sparse.h),
 * for both heap engines and, through the bindings, the statistics of Python.
 */
#include "sparse.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SP_CLONES
#endif

#define SP_RARE_FLAGS(T, SUF)                                                                 \
    void sp_rare_flags_##SUF(const T *g, size_t n, uint64_t start, uint32_t emask, int odd,    \
                             uint8_t *out)                                                    \
    {                                                                                         \
        for (size_t j = 0; j < n; j++)                                                        \
            out[j] = (uint8_t)sp_is_rare(emask, (unsigned)odd, start + j, (uint32_t)g[j]);    \
    }

SP_RARE_FLAGS(uint8_t, u8)
SP_RARE_FLAGS(uint16_t, u16)
SP_RARE_FLAGS(uint32_t, u32)

uint32_t sp_best_mask(const uint64_t *counts, int64_t *walsh, size_t size, uint64_t total,
                      int parity_ok, int odd, uint64_t *rare)
{
    for (size_t i = 0; i < size; i++)
        walsh[i] = (int64_t)counts[i];
    for (size_t h = 1; h < size; h <<= 1)
        for (size_t i = 0; i < size; i += 2 * h)
            for (size_t j = i; j < i + h; j++) {
                int64_t a = walsh[j], b = walsh[j + h];
                walsh[j] = a + b;
                walsh[j + h] = a - b;
            }
    uint32_t best = 0;
    int64_t best_rare = (int64_t)total + 1;
    for (size_t m = 1; m < size; m++) {
        if ((m & 1) && !parity_ok)
            continue;
        int64_t w = (m & 1) && odd ? -walsh[m] : walsh[m];
        int64_t r = ((int64_t)total + w) / 2;
        if (r < best_rare) {
            best_rare = r;
            best = (uint32_t)m;
        }
    }
    *rare = (uint64_t)best_rare;
    return best;
}

int sp_mask_better(uint64_t rare, uint64_t best_rare, int eager)
{
    uint64_t slack = eager ? 1 : rare / 8 > 8 ? rare / 8 : 8;
    return best_rare + slack <= rare;
}

uint64_t sp_next_check(uint64_t rare)
{
    return rare + (rare / 16 > 8 ? rare / 16 : 8);
}

/* The pair test, one per value width: blocks of SP_PAIR_BLOCK comparisons (a few vector
 * registers, every comparison of a block made: no branch inside), then the last few alone. */
#define SP_PAIR_TEST(T, SUF)                                                                  \
    SP_CLONES static int block_hit_##SUF(const T *x, const T *ytop, T c)                      \
    {                                                                                         \
        unsigned hit = 0;                                                                     \
        for (size_t j = 0; j < SP_PAIR_BLOCK; j++)                                            \
            hit |= (T)(x[j] ^ ytop[-(ptrdiff_t)j]) == c;                                      \
        return hit != 0;                                                                      \
    }                                                                                         \
    int sp_has_pair_##SUF(const T *x, const T *ytop, size_t m, uint32_t c, size_t *scanned)   \
    {                                                                                         \
        *scanned = 0;                                                                         \
        if (c > (T)~(T)0)                                                                     \
            return 0; /* no two values of this width reach c */                               \
        size_t j = 0;                                                                         \
        for (; j + SP_PAIR_BLOCK <= m; j += SP_PAIR_BLOCK)                                    \
            if (block_hit_##SUF(x + j, ytop - j, (T)c)) {                                     \
                *scanned = j + SP_PAIR_BLOCK;                                                 \
                return 1;                                                                     \
            }                                                                                 \
        *scanned = m;                                                                         \
        for (; j < m; j++)                                                                    \
            if ((T)(x[j] ^ ytop[-(ptrdiff_t)j]) == (T)c)                                      \
                return 1;                                                                     \
        return 0;                                                                             \
    }

SP_PAIR_TEST(uint8_t, u8)
SP_PAIR_TEST(uint16_t, u16)
SP_PAIR_TEST(uint32_t, u32)
