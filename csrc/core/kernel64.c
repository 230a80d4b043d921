/*
 * kernel64.c -- nim arithmetic below 2^64.
 *
 * Two kernels compute the same function:
 *  - portable: log/exp tables of GF(2^16) and two Karatsuba levels of the Fermat tower
 *    (Conway's rules: X (x) X = X ^ X/2 for a Fermat power X; see the notes, "The tower");
 *  - clmul: PCLMULQDQ in the polynomial basis GF(2)[t]/(m) of GF(2^64), where m is the
 *    minimal polynomial of a generator alpha; the change of basis t^i <-> alpha^i is
 *    GF(2)-linear, eight byte-table lookups each way.
 * Every table is built at start-up from the definition of the product on two bits, in well
 * under a millisecond; nothing is hard-coded but the choice of alpha's first candidate.
 */
#include <string.h>

#include "kernel_inline.h"

uint16_t nk_log16[65536];
uint16_t nk_exp16[NK_EXP16_SIZE];
int nk_kernel = NK_PORTABLE;
u64 nk_half_work[2];
u64 nk_half_squared_work[2];
NK_ALIGN64 nk_lintab nk_to_poly_tab;
NK_ALIGN64 nk_lintab nk_from_poly_tab;
NK_ALIGN64 static nk_lintab square_tab;
NK_ALIGN64 static nk_lintab sqrt_tab;
static u64 poly_r, poly_alpha;
static int clmul_ok, vpclmul_ok;
#ifdef NK_HAVE_CLMUL
__m128i nk_clmul_consts;
#endif

/* ---- building the portable tables -------------------------------------------------- */

/* Nim-product of a, b < 2^bits (bits a power of two <= 8) straight from the tower rules;
 * used only to fill the 8-bit table. */
static unsigned small_mul(unsigned a, unsigned b, unsigned bits)
{
    if (bits == 1)
        return a & b;
    unsigned k = bits / 2, mask = (1u << k) - 1, half = 1u << (k - 1);
    unsigned a0 = a & mask, a1 = a >> k, b0 = b & mask, b1 = b >> k;
    unsigned p0 = small_mul(a0, b0, k), p2 = small_mul(a1, b1, k);
    unsigned p1 = small_mul(a0 ^ a1, b0 ^ b1, k);
    return ((p1 ^ p0) << k) | (p0 ^ small_mul(p2, half, k));
}

uint8_t nk_mul8_tab[256][256];

static uint32_t mul16_from8(uint32_t a, uint32_t b)
{
    uint32_t a0 = a & 0xff, a1 = a >> 8, b0 = b & 0xff, b1 = b >> 8;
    uint32_t p0 = nk_mul8_tab[a0][b0], p2 = nk_mul8_tab[a1][b1], p1 = nk_mul8_tab[a0 ^ a1][b0 ^ b1];
    return ((p1 ^ p0) << 8) | (p0 ^ nk_mul8_tab[p2][0x80]);
}

static uint32_t pow16_from8(uint32_t a, uint32_t e)
{
    uint32_t r = 1;
    while (e) {
        if (e & 1)
            r = mul16_from8(r, a);
        a = mul16_from8(a, a);
        e >>= 1;
    }
    return r;
}

/* 65535 = 3 * 5 * 17 * 257: g generates GF(2^16)* iff g^(65535/p) != 1 for each p. */
static uint32_t generator16(void)
{
    static const uint32_t primes[4] = {3, 5, 17, 257};
    for (uint32_t g = 2;; g++) {
        int ok = 1;
        for (int i = 0; i < 4 && ok; i++)
            ok = pow16_from8(g, 65535 / primes[i]) != 1;
        if (ok)
            return g;
    }
}

static void build_log_tables(void)
{
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++)
            nk_mul8_tab[a][b] = (uint8_t)small_mul(a, b, 8);
    uint32_t g = generator16(), x = 1;
    for (uint32_t i = 0; i < 65535; i++) {
        nk_exp16[i] = (uint16_t)x;
        nk_log16[x] = (uint16_t)i;
        x = mul16_from8(x, g);
    }
    for (uint32_t i = 65535; i < NK_EXP16_SIZE; i++) /* the period again, for folded sums */
        nk_exp16[i] = nk_exp16[i - 65535];
    nk_log16[0] = 0; /* never used unmasked */
}

/* Eight byte tables of the GF(2)-linear map sending bit i to images[i]. */
static void build_linear(nk_lintab t, const u64 images[64])
{
    for (int j = 0; j < 8; j++)
        for (int byte = 0; byte < 256; byte++) {
            u64 v = 0;
            for (int b = 0; b < 8; b++)
                if (byte >> b & 1)
                    v ^= images[8 * j + b];
            t[j][byte] = v;
        }
}

/* Squaring is the Frobenius map, linear over GF(2); its inverse, the square root, is
 * x -> x^(2^63) in GF(2^64).  Both become byte tables. */
static void build_frobenius_tables(void)
{
    u64 sq[64], rt[64];
    for (int i = 0; i < 64; i++) {
        u64 e = (u64)1 << i;
        sq[i] = nk_mul64_portable(e, e);
        u64 r = e;
        for (int k = 0; k < 63; k++)
            r = nk_mul64_portable(r, r);
        rt[i] = r;
    }
    build_linear(square_tab, sq);
    build_linear(sqrt_tab, rt);
}

/* ---- the polynomial basis ---------------------------------------------------------- */

/* Inverts the 64x64 bit matrix whose column j is cols[j]; inv_cols receives the columns of
 * the inverse.  Returns 0 when singular. */
static int invert_bit_matrix(const u64 cols[64], u64 inv_cols[64])
{
    u64 rows[64], aug[64];
    for (int i = 0; i < 64; i++) {
        rows[i] = 0;
        for (int j = 0; j < 64; j++)
            rows[i] |= (cols[j] >> i & 1) << j;
        aug[i] = (u64)1 << i;
    }
    for (int c = 0; c < 64; c++) {
        int p = c;
        while (p < 64 && !(rows[p] >> c & 1))
            p++;
        if (p == 64)
            return 0;
        u64 t = rows[p]; rows[p] = rows[c]; rows[c] = t;
        t = aug[p]; aug[p] = aug[c]; aug[c] = t;
        for (int i = 0; i < 64; i++)
            if (i != c && (rows[i] >> c & 1)) {
                rows[i] ^= rows[c];
                aug[i] ^= aug[c];
            }
    }
    for (int j = 0; j < 64; j++) {
        inv_cols[j] = 0;
        for (int i = 0; i < 64; i++)
            inv_cols[j] |= (aug[i] >> j & 1) << i;
    }
    return 1;
}

/* Tries alpha: its powers alpha^0..alpha^63 must be a basis (alpha has degree 64).  Fills the
 * basis tables and r with alpha^64 = sum r_i alpha^i, i.e. m(t) = t^64 + r(t). */
static int build_poly_basis(u64 alpha)
{
    u64 pw[65], inv_cols[64];
    pw[0] = 1;
    for (int j = 1; j <= 64; j++)
        pw[j] = nk_mul64_portable(pw[j - 1], alpha);
    if (!invert_bit_matrix(pw, inv_cols))
        return 0;
    build_linear(nk_from_poly_tab, pw);
    build_linear(nk_to_poly_tab, inv_cols);
    poly_r = nk_apply_linear(nk_to_poly_tab, pw[64]);
    poly_alpha = alpha;
    nk_half_work[NK_PORTABLE] = (u64)1 << 63;
    nk_half_work[NK_CLMUL] = nk_apply_linear(nk_to_poly_tab, (u64)1 << 63);
    u64 hh = nk_mul64_portable((u64)1 << 63, (u64)1 << 63);
    nk_half_squared_work[NK_PORTABLE] = hh;
    nk_half_squared_work[NK_CLMUL] = nk_apply_linear(nk_to_poly_tab, hh);
    return 1;
}

/* mu = floor(t^128 / (t^64 + r)) = t^64 + mu_low, by long division over GF(2).
 * The remainder lives in three words: bits 0..191. */
static u64 barrett_mu_low(u64 r)
{
    u64 rem[3] = {0, 0, 1}; /* t^128 */
    u64 q = 0;              /* bits 0..63 of the quotient; bit 64 is always 1 */
    for (int d = 128; d >= 64; d--) {
        if (!(rem[d / 64] >> (d % 64) & 1))
            continue;
        int s = d - 64; /* subtract m * t^s = t^d + r * t^s */
        if (s < 64)
            q |= (u64)1 << s;
        rem[d / 64] ^= (u64)1 << (d % 64);
        rem[s / 64] ^= r << (s % 64);
        if (s % 64)
            rem[s / 64 + 1] ^= r >> (64 - s % 64);
    }
    return q;
}

#ifdef NK_HAVE_CLMUL
#if defined(__GNUC__) || defined(__clang__)
static int cpu_has_clmul(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
}
#else
static int cpu_has_clmul(void) { return 0; }
#endif
#ifdef NK_HAVE_VPCLMUL
static int cpu_has_vpclmul(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("avx2");
}
#else
static int cpu_has_vpclmul(void) { return 0; }
#endif
#endif

#ifdef NK_HAVE_VPCLMUL
/* Bytewise products by 2^b as two 16-entry tables (low nibble, high nibble) for VPSHUFB,
 * repeated in both 128-bit lanes. */
NK_ALIGN64 uint8_t nk_nibble_tab[8][2][32];

static void build_nibble_tables(void)
{
    for (int b = 0; b < 8; b++)
        for (int i = 0; i < 32; i++) {
            nk_nibble_tab[b][0][i] = nk_mul8_tab[1u << b][i & 15];
            nk_nibble_tab[b][1][i] = nk_mul8_tab[1u << b][(i & 15) << 4];
        }
}
#endif

void nk_init(void)
{
    build_log_tables();
    build_frobenius_tables();
#ifdef NK_HAVE_VPCLMUL
    build_nibble_tables();
#endif
    /* 2^32 + 6 generates GF(2^64)* (notes, "Orders and logarithms"), so it has degree 64;
     * the loop only guards the claim. */
    u64 alpha = ((u64)1 << 32) + 6;
    while (!build_poly_basis(alpha))
        alpha++;
#ifdef NK_HAVE_CLMUL
    nk_clmul_consts = _mm_set_epi64x((long long)poly_r, (long long)barrett_mu_low(poly_r));
    clmul_ok = cpu_has_clmul();
    vpclmul_ok = clmul_ok && cpu_has_vpclmul();
#else
    (void)barrett_mu_low;
    clmul_ok = 0;
#endif
    nk_kernel = vpclmul_ok ? NK_VPCLMUL : clmul_ok ? NK_CLMUL : NK_PORTABLE;
    nk_gfni_init(vpclmul_ok, nk_mul);
}

int nk_kernel_available(int kernel)
{
    return kernel == NK_PORTABLE || (kernel == NK_CLMUL && clmul_ok) ||
           (kernel == NK_VPCLMUL && vpclmul_ok);
}
int nk_get_kernel(void) { return nk_kernel; }
u64 nk_poly_modulus_low(void) { return poly_r; }
u64 nk_poly_generator(void) { return poly_alpha; }

/* ---- switching kernels safely ---------------------------------------------------------- */

/* A count of the computations in the working basis, and a flag while a switch runs: a
 * reader-writer lock whose writer never waits (set_kernel refuses instead). */
#define SWITCHING (1L << 30)
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static volatile long work_state;
static long load_state(void) { return work_state; }
static int swap_state(long expected, long desired)
{
    return _InterlockedCompareExchange(&work_state, desired, expected) == expected;
}
#else
#include <stdatomic.h>
static atomic_long work_state;
static long load_state(void) { return atomic_load(&work_state); }
static int swap_state(long expected, long desired)
{
    return atomic_compare_exchange_strong(&work_state, &expected, desired);
}
#endif

void nk_work_enter(void)
{
    for (;;) { /* a switch holds the flag for a few instructions */
        long s = load_state();
        if (!(s & SWITCHING) && swap_state(s, s + 1))
            return;
    }
}

void nk_work_leave(void)
{
    for (;;) {
        long s = load_state();
        if (swap_state(s, s - 1))
            return;
    }
}

int nk_set_kernel(int kernel)
{
    if (!nk_kernel_available(kernel))
        return -1;
    if (!swap_state(0, SWITCHING))
        return -2; /* work in the working basis is running in another thread */
    nk_kernel = kernel;
    swap_state(SWITCHING, 0);
    return 0;
}

/* ---- scalar operations ------------------------------------------------------------- */

u64 nk_to_work(u64 a)
{
    return NK_POLY(nk_kernel) ? nk_apply_linear(nk_to_poly_tab, a) : a;
}

u64 nk_from_work(u64 a)
{
    return NK_POLY(nk_kernel) ? nk_apply_linear(nk_from_poly_tab, a) : a;
}


NK_CLMUL_FN u64 nk_mul(u64 a, u64 b)
{
#ifdef NK_HAVE_CLMUL
    if (NK_POLY(nk_kernel))
        return nk_apply_linear(nk_from_poly_tab,
                               nk_mul64_clmul(nk_apply_linear(nk_to_poly_tab, a),
                                              nk_apply_linear(nk_to_poly_tab, b)));
#endif
    return nk_mul64_portable(a, b);
}

u64 nk_square(u64 a) { return nk_apply_linear(square_tab, a); }
u64 nk_sqrt(u64 a) { return nk_apply_linear(sqrt_tab, a); }

/* Inverse through the norm to the half-size subfield (notes: a^-1 = conj(a) (x) N(a)^-1,
 * N(a1 X + a0) = a0^2 + a0 a1 + a1^2 h, conj = a1 X + (a0 ^ a1)). */
static uint32_t inv16(uint32_t a) { return nk_exp16[65535 - nk_log16[a]]; }

static uint32_t inv32(uint32_t a)
{
    uint32_t a0 = a & 0xffff, a1 = a >> 16;
    uint32_t n = nk_mul16(a0, a0 ^ a1) ^ nk_mulh16(nk_mul16(a1, a1));
    uint32_t ni = inv16(n);
    return (nk_mul16(a1, ni) << 16) | nk_mul16(a0 ^ a1, ni);
}

u64 nk_inv(u64 a)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t n = nk_mul32(a0, a0 ^ a1) ^ nk_mulh32(nk_mul32(a1, a1));
    uint32_t ni = inv32(n);
    return ((u64)nk_mul32(a1, ni) << 32) | nk_mul32(a0 ^ a1, ni);
}

NK_CLMUL_FN static u64 nk_pow_unguarded(u64 a, u64 e)
{
    u64 w = nk_to_work(a), r = nk_to_work(1);
    while (e) {
        if (e & 1)
            r = nk_mulw(r, w);
        e >>= 1;
        if (e)
            w = nk_mulw(w, w);
    }
    return nk_from_work(r);
}

u64 nk_pow(u64 a, u64 e)
{
    nk_work_enter();
    u64 result = nk_pow_unguarded(a, e);
    nk_work_leave();
    return result;
}

