/*
 * kernel_inline.h -- private to csrc/core: the kernels' working basis and the 64-bit product
 * as inline code, for the hot loops of the tower, the linear algebra and the logarithms.
 * Only kernel64.c fills the tables declared here.
 *
 * The "working basis" is the basis in which the selected kernel multiplies: the nim basis
 * itself for the portable kernel, the polynomial basis for the carry-less one.  Both maps are
 * GF(2)-linear, so nim-sums (XOR) are the same in both bases: code that chains many products
 * converts once on the way in and once on the way out.  No entry point of the core hands
 * working-basis values to its callers.
 */
#ifndef KERNEL_INLINE_H
#define KERNEL_INLINE_H

#include "nimcore.h"

/* Every entry point that chains products in the working basis runs between these two: the
 * kernel (and so the working basis) changes only while no such work runs, never mid-way. */
void nk_work_enter(void);
void nk_work_leave(void);

/* One 64-bit value into and out of the working basis. */
u64 nk_to_work(u64 a);
u64 nk_from_work(u64 a);

/* The tower (tower.c) in the working basis; same contracts as the nim-basis entry points,
 * scratch of tw_scratch_limbs(n) limbs, out may not alias an input unless stated. */
void tw_to_work(u64 *a, size_t n);
void tw_from_work(u64 *a, size_t n);
void tw_mulw(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *s);
void tw_squarew(const u64 *a, u64 *out, size_t n, u64 *s);  /* out may alias a */
void tw_sqrtw(const u64 *a, u64 *out, size_t n, u64 *s);    /* out may alias a */
void tw_invw(const u64 *a, u64 *out, size_t n, u64 *s);
int tw_poww(const u64 *a, const u64 *e, size_t ne, u64 *out, size_t n, u64 *s,
            const nc_poll *poll);

/* The carry-less kernel exists on x86-64 builds (decided by the target's macros, not by the
 * build machine, so cross-builds work).  Its code is compiled for PCLMULQDQ function by
 * function (NK_CLMUL_FN), not file by file: the rest of the extension runs on any x86-64, and
 * nk_init checks the CPU before the kernel is ever selected.  NIMBERS_PORTABLE_BUILD leaves it
 * out entirely. */
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(NIMBERS_PORTABLE_BUILD)
#define NK_HAVE_CLMUL 1
#include <emmintrin.h>
#include <wmmintrin.h>
#endif
#if defined(NK_HAVE_CLMUL) && (defined(__GNUC__) || defined(__clang__))
#define NK_CLMUL_FN __attribute__((target("pclmul,sse2")))
/* The 256-bit loops (two carry-less products an instruction), likewise per function. */
#define NK_HAVE_VPCLMUL 1
#define NK_VPCLMUL_FN __attribute__((target("vpclmulqdq,avx2,pclmul")))
#include <immintrin.h>
#else
#define NK_CLMUL_FN
#endif

/* constant_gfni.c: c (x) b[i] over an array by GFNI byte products, for the vpclmul kernel on
 * CPUs with GFNI (nk_gfni_init, at the end of nk_init, checks the CPU; mul is the nim product,
 * handed in so that constant_gfni.c calls nothing of kernel64.c). */
void nk_gfni_init(int vpclmul_ok, u64 (*mul)(u64, u64));
int nk_gfni_available(void);
void nk_mul_constant_gfni(u64 c, const u64 *b, ptrdiff_t sb, u64 *o, ptrdiff_t so, size_t n);

/* kernel_constant.c: o[i] = c (x) b[i] (and o1[i] = c1 (x) b[i] beside it) by the eight byte
 * tables of x -> c (x) x, or GFNI where constant_gfni.c runs; for the array loops
 * (kernel_arrays.c), inside nk_work_enter/leave. */
void nk_mul_constant(u64 c, const u64 *b, ptrdiff_t sb, u64 *o, ptrdiff_t so, size_t n);
void nk_mul_constant2(u64 c0, u64 c1, const u64 *b, ptrdiff_t sb, u64 *o0, u64 *o1,
                      ptrdiff_t so, size_t n);

/* Whether kernel k works in the polynomial basis (the carry-less ones) or the nim basis. */
#define NK_POLY(k) ((k) != NK_PORTABLE)

#if defined(__GNUC__) || defined(__clang__)
#define NK_ALIGN64 __attribute__((aligned(64)))
#else
#define NK_ALIGN64
#endif

/* Portable kernel: nim-products in GF(2^16) by discrete logarithms (base: a generator of
 * GF(2^16)*, found at start-up), then two Karatsuba levels of the Fermat tower.  Both tables
 * hold 16-bit entries, 128 KiB each, so they stay in a 512 KiB L2 beside the data streaming
 * by (one 32-bit logarithm table and a 4 x 65535 exponential table took 768 KiB).  A sum of
 * up to three logarithms is reduced modulo 65535 by folding bits 16 and up onto bit 0
 * (2^16 = 1 mod 65535), so nk_exp16 repeats its period past 65535; log 0 does not exist, so
 * a zero factor is masked. */
#define NK_EXP16_SIZE (65535 + 8)
extern uint16_t nk_log16[65536];
extern uint16_t nk_exp16[NK_EXP16_SIZE];
extern int nk_kernel;
/* The product table of GF(2^8), and (vpclmul builds) its rows 2^b as nibble tables for
 * VPSHUFB, both built by nk_init (kernel64.c). */
extern uint8_t nk_mul8_tab[256][256];
#ifdef NK_HAVE_VPCLMUL
extern uint8_t nk_nibble_tab[8][2][32];
#endif
/* 2^63 = h for the Fermat power X = 2^64 (X (x) X = X ^ h), in each basis ([NK_POLY(k)]). */
extern u64 nk_half_work[2];
extern u64 nk_half_squared_work[2]; /* (2^63) (x) (2^63) */

/* Linear maps on 64-bit vectors as eight byte tables (x -> sum of tab[j][byte j of x]). */
typedef u64 nk_lintab[8][256];
extern nk_lintab nk_to_poly_tab, nk_from_poly_tab;

/* The map's image from the eight bytes of x, k[0] the lowest (however they were taken out). */
static inline u64 nk_lookup8(const nk_lintab t, const size_t k[8])
{
    return t[0][k[0]] ^ t[1][k[1]] ^ t[2][k[2]] ^ t[3][k[3]] ^ t[4][k[4]] ^ t[5][k[5]] ^
           t[6][k[6]] ^ t[7][k[7]];
}

static inline u64 nk_apply_linear(const nk_lintab t, u64 x)
{
    const size_t k[8] = {x & 0xff,         (x >> 8) & 0xff,  (x >> 16) & 0xff,
                         (x >> 24) & 0xff, (x >> 32) & 0xff, (x >> 40) & 0xff,
                         (x >> 48) & 0xff, x >> 56};
    return nk_lookup8(t, k);
}

/* g^s for a sum s < 2^18 of logarithms. */
static inline uint32_t nk_exp16_sum(uint32_t s)
{
    return nk_exp16[(s & 0xffff) + (s >> 16)];
}

/* All ones when x is not 0 (and y is not 0), else 0. */
static inline uint32_t nk_nonzero(uint32_t x) { return -(uint32_t)(x != 0); }
static inline uint32_t nk_nonzero2(uint32_t x, uint32_t y)
{
    return -(uint32_t)((x != 0) & (y != 0));
}

static inline uint32_t nk_mul16(uint32_t a, uint32_t b)
{
    return nk_exp16_sum((uint32_t)nk_log16[a] + nk_log16[b]) & nk_nonzero2(a, b);
}

/* x (x) 2^15, the "half" h of the Fermat power 2^16, and x (x) h (x) h. */
static inline uint32_t nk_mulh16(uint32_t x)
{
    return nk_exp16_sum((uint32_t)nk_log16[x] + nk_log16[0x8000]) & nk_nonzero(x);
}

static inline uint32_t nk_mulhh16(uint32_t x)
{
    return nk_exp16_sum((uint32_t)nk_log16[x] + 2u * nk_log16[0x8000]) & nk_nonzero(x);
}

/* Karatsuba on the tower, X = 2^16: the high product comes times h directly, one
 * exponential of three logarithms (a1 (x) b1 (x) h). */
static inline uint32_t nk_mul32(uint32_t a, uint32_t b)
{
    uint32_t a0 = a & 0xffff, a1 = a >> 16, b0 = b & 0xffff, b1 = b >> 16;
    uint32_t p0 = nk_mul16(a0, b0), p1 = nk_mul16(a0 ^ a1, b0 ^ b1);
    uint32_t p2h = nk_exp16_sum((uint32_t)nk_log16[a1] + nk_log16[b1] + nk_log16[0x8000]) &
                   nk_nonzero2(a1, b1);
    return ((p1 ^ p0) << 16) | (p0 ^ p2h);
}

/* x (x) 2^31: 2^31 = 2^16 (x) 2^15, so with x = x1*2^16 + x0 (notes: "multiplying by h is
 * cheap"), x (x) 2^31 = ((x1 ^ x0) (x) 2^15) * 2^16 + x1 (x) 2^15 (x) 2^15. */
static inline uint32_t nk_mulh32(uint32_t x)
{
    uint32_t x0 = x & 0xffff, x1 = x >> 16;
    return (nk_mulh16(x0 ^ x1) << 16) | nk_mulhh16(x1);
}

/* Karatsuba on the tower: a (x) b = ((p1 ^ p0) * X) ^ p0 ^ (p2 (x) h), X = 2^32, h = 2^31. */
static inline u64 nk_mul64_portable(u64 a, u64 b)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t p0 = nk_mul32(a0, b0), p2 = nk_mul32(a1, b1), p1 = nk_mul32(a0 ^ a1, b0 ^ b1);
    return ((u64)(p1 ^ p0) << 32) | (u64)(p0 ^ nk_mulh32(p2));
}

#ifdef NK_HAVE_CLMUL
/* Polynomial basis: GF(2)[t] / (t^64 + r(t)).  Barrett reduction with mu = t^64 + mu_low =
 * floor(t^128 / m): q = hi ^ high(hi * mu_low), remainder = lo ^ low(q * r). */
extern __m128i nk_clmul_consts; /* low lane: mu_low, high lane: r */

NK_CLMUL_FN static inline __m128i nk_clmul_reduce(__m128i p)
{
    __m128i hi = _mm_srli_si128(p, 8);
    __m128i q = _mm_xor_si128(hi, _mm_srli_si128(_mm_clmulepi64_si128(hi, nk_clmul_consts, 0x00), 8));
    return _mm_xor_si128(p, _mm_clmulepi64_si128(q, nk_clmul_consts, 0x10));
}

NK_CLMUL_FN static inline u64 nk_mul64_clmul(u64 a, u64 b)
{
    __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a),
                                     _mm_cvtsi64_si128((long long)b), 0x00);
    return (u64)_mm_cvtsi128_si64(nk_clmul_reduce(p));
}

#ifdef NK_HAVE_VPCLMUL
/* The Barrett reduction of two 128-bit products at once, one in each 128-bit lane: the low
 * 64 bits of each lane receive its remainder (the high ones are left over). */
NK_VPCLMUL_FN static inline __m256i nk_clmul_reduce256(__m256i p, __m256i consts)
{
    __m256i hi = _mm256_srli_si256(p, 8);
    __m256i q = _mm256_xor_si256(hi, _mm256_srli_si256(_mm256_clmulepi64_epi128(hi, consts, 0x00), 8));
    return _mm256_xor_si256(p, _mm256_clmulepi64_epi128(q, consts, 0x10));
}

/* Four products a[i] (x) b[i] in the polynomial basis, for the 256-bit loops. */
NK_VPCLMUL_FN static inline __m256i nk_mul4_vpclmul(__m256i a, __m256i b, __m256i consts)
{
    __m256i even = nk_clmul_reduce256(_mm256_clmulepi64_epi128(a, b, 0x00), consts);
    __m256i odd = nk_clmul_reduce256(_mm256_clmulepi64_epi128(a, b, 0x11), consts);
    return _mm256_unpacklo_epi64(even, odd);
}
#endif
#endif

/* The product in the working basis of the selected kernel. */
NK_CLMUL_FN static inline u64 nk_mulw(u64 a, u64 b)
{
#ifdef NK_HAVE_CLMUL
    if (NK_POLY(nk_kernel))
        return nk_mul64_clmul(a, b);
#endif
    return nk_mul64_portable(a, b);
}

#endif
