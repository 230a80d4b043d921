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

static uint8_t mul8_tab[256][256];

static uint32_t mul16_from8(uint32_t a, uint32_t b)
{
    uint32_t a0 = a & 0xff, a1 = a >> 8, b0 = b & 0xff, b1 = b >> 8;
    uint32_t p0 = mul8_tab[a0][b0], p2 = mul8_tab[a1][b1], p1 = mul8_tab[a0 ^ a1][b0 ^ b1];
    return ((p1 ^ p0) << 8) | (p0 ^ mul8_tab[p2][0x80]);
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
            mul8_tab[a][b] = (uint8_t)small_mul(a, b, 8);
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
static void build_nibble_tables(void);
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
    nk_gfni_init(vpclmul_ok);
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

/* ---- arrays ------------------------------------------------------------------------ */

#define AT(p, s, i) (*(const u64 *)((const char *)(p) + (ptrdiff_t)(i) * (s)))
#define OUT(p, s, i) (*(u64 *)((char *)(p) + (ptrdiff_t)(i) * (s)))

/* The carry-less array loop works in blocks, one stage at a time (convert the operands,
 * multiply, convert back): each stage's iterations are independent and short, so the CPU
 * overlaps them, where one long chain per element would leave it waiting on latencies. */
#define BLOCK 256

#ifdef NK_HAVE_CLMUL
/* The middle stage of a block, wa[i] = wa[i] (x) wb[i] in the polynomial basis. */
NK_CLMUL_FN static void mul_stage_clmul(u64 *wa, const u64 *wb, size_t n)
{
    for (size_t i = 0; i < n; i++)
        wa[i] = nk_mul64_clmul(wa[i], wb[i]);
}

#ifdef NK_HAVE_VPCLMUL
NK_VPCLMUL_FN static void mul_stage_vpclmul(u64 *wa, const u64 *wb, size_t n)
{
    __m256i consts = _mm256_broadcastsi128_si256(nk_clmul_consts);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(wa + i));
        __m256i y = _mm256_loadu_si256((const __m256i *)(wb + i));
        _mm256_storeu_si256((__m256i *)(wa + i), nk_mul4_vpclmul(x, y, consts));
    }
    mul_stage_clmul(wa + i, wb + i, n - i);
}
#endif

NK_CLMUL_FN static void mul_block_clmul(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb,
                            u64 *o, ptrdiff_t so, size_t n)
{
    u64 wa[BLOCK], wb[BLOCK];
    if (sa == 0) { /* a broadcast operand (outer products, scalar times array) */
        u64 w = nk_apply_linear(nk_to_poly_tab, a[0]);
        for (size_t i = 0; i < n; i++)
            wa[i] = w;
    } else {
        for (size_t i = 0; i < n; i++)
            wa[i] = nk_apply_linear(nk_to_poly_tab, AT(a, sa, i));
    }
    for (size_t i = 0; i < n; i++)
        wb[i] = nk_apply_linear(nk_to_poly_tab, AT(b, sb, i));
#ifdef NK_HAVE_VPCLMUL
    if (nk_kernel == NK_VPCLMUL)
        mul_stage_vpclmul(wa, wb, n);
    else
#endif
        mul_stage_clmul(wa, wb, n);
    for (size_t i = 0; i < n; i++)
        OUT(o, so, i) = nk_apply_linear(nk_from_poly_tab, wa[i]);
}
#endif

/* Whether writing o[0..n) can change an input element before it is read, other than the
 * same element in place: reductions (accumulator stride 0) and accumulations (the output one
 * element behind the input) chain the results, so blocks must not read ahead. */
static int chains(const u64 *x, ptrdiff_t sx, const u64 *o, ptrdiff_t so, size_t n)
{
    if (n < 2 || (x == o && sx == so && so != 0))
        return 0;
    const char *x0 = (const char *)x, *o0 = (const char *)o;
    const char *x1 = x0 + (ptrdiff_t)(n - 1) * sx, *o1 = o0 + (ptrdiff_t)(n - 1) * so;
    const char *xlo = x0 < x1 ? x0 : x1, *xhi = (x0 < x1 ? x1 : x0) + sizeof(u64);
    const char *olo = o0 < o1 ? o0 : o1, *ohi = (o0 < o1 ? o1 : o0) + sizeof(u64);
    return xlo < ohi && olo < xhi;
}

/* x -> c (x) x is GF(2)-linear (notes, "Linear maps"): eight byte tables of its images cost
 * 64 products and 2048 XORs, then an element is 8 lookups and 7 XORs, no basis change.  Worth
 * it from a few hundred elements on. */
#define CONSTANT_MIN 384

/* Eight byte tables of a linear map from the images of its 64 bits, images[8b + j] the
 * image of bit 8j + b: table j's entries 2^b .. 2^(b+1)-1 are the lower ones XOR that image
 * (vectorized: 255 XORs a table, 2040 in all). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void fill_linear(nk_lintab t, const u64 images[64])
{
    for (int j = 0; j < 8; j++) {
        u64 *row = t[j];
        row[0] = 0;
        for (int bit = 0; bit < 8; bit++) {
            u64 image = images[8 * bit + j];
            unsigned top = 1u << bit;
            for (unsigned v = 0; v < top; v++)
                row[top + v] = row[v] ^ image;
        }
    }
}

#ifdef NK_HAVE_VPCLMUL
/* The same with 256-bit XORs, for the carry-less kernels on a CPU with AVX2 (checked with
 * VPCLMULQDQ at start-up): entries 4..255 four at a time, half the stores of the 128-bit
 * loop the compiler makes of fill_linear. */
NK_VPCLMUL_FN static void fill_linear_avx2(nk_lintab t, const u64 images[64])
{
    for (int j = 0; j < 8; j++) {
        u64 *row = t[j];
        row[0] = 0;
        row[1] = images[j];
        row[2] = images[8 + j];
        row[3] = images[j] ^ images[8 + j];
        for (int bit = 2; bit < 8; bit++) {
            __m256i image = _mm256_set1_epi64x((long long)images[8 * bit + j]);
            unsigned top = 1u << bit;
            for (unsigned v = 0; v < top; v += 4) {
                __m256i x = _mm256_load_si256((const __m256i *)(row + v));
                _mm256_store_si256((__m256i *)(row + top + v), _mm256_xor_si256(x, image));
            }
        }
    }
}

/* Bytewise products by 2^b as two 16-entry tables (low nibble, high nibble) for VPSHUFB,
 * repeated in both 128-bit lanes. */
NK_ALIGN64 static uint8_t nibble_tab[8][2][32];

static void build_nibble_tables(void)
{
    for (int b = 0; b < 8; b++)
        for (int i = 0; i < 32; i++) {
            nibble_tab[b][0][i] = mul8_tab[1u << b][i & 15];
            nibble_tab[b][1][i] = mul8_tab[1u << b][(i & 15) << 4];
        }
}

/* images[8b + j] = bytes[j] (x) 2^b, bytewise, 32 bytes an instruction. */
NK_VPCLMUL_FN static void bytewise_images_avx2(const u64 bytes[8], u64 images[64])
{
    __m256i low = _mm256_set1_epi8(0x0f);
    __m256i x[2] = {_mm256_loadu_si256((const __m256i *)bytes),
                    _mm256_loadu_si256((const __m256i *)(bytes + 4))};
    for (int b = 0; b < 8; b++) {
        __m256i lo_tab = _mm256_load_si256((const __m256i *)nibble_tab[b][0]);
        __m256i hi_tab = _mm256_load_si256((const __m256i *)nibble_tab[b][1]);
        for (int h = 0; h < 2; h++) {
            __m256i lo = _mm256_and_si256(x[h], low);
            __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x[h], 4), low);
            __m256i r = _mm256_xor_si256(_mm256_shuffle_epi8(lo_tab, lo),
                                         _mm256_shuffle_epi8(hi_tab, hi));
            _mm256_storeu_si256((__m256i *)(images + 8 * b + 4 * h), r);
        }
    }
}
#endif

static void mul_block(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb, u64 *o,
                      ptrdiff_t so, size_t n);

/* y (x) x for y < 2^8 acts on each byte of x alone (the bytes are x_p (x) 2^(8p), and
 * 2^(8p) is a product of Fermat powers above the subfield GF(2^8)): eight lookups in row y
 * of the product table. */
static u64 mul_bytewise(const uint8_t row[256], u64 x)
{
    u64 r = 0;
    for (int p = 0; p < 64; p += 8)
        r |= (u64)row[(x >> p) & 0xff] << p;
    return r;
}

/* The tables of x -> c (x) x.  Its 64 images: c (x) 2^(8j+b) = (c (x) 2^(8j)) (x) 2^b (the
 * bits of 8j and b are disjoint, so 2^(8j+b) is the nim-product), eight products by the
 * kernel and 56 bytewise ones. */
static void constant_tables(u64 c, nk_lintab t)
{
    u64 bytes[8], images[64];
    for (int j = 0; j < 8; j++)
        bytes[j] = (u64)1 << (8 * j);
    mul_block(&c, 0, bytes, sizeof(u64), bytes, sizeof(u64), 8);
#ifdef NK_HAVE_VPCLMUL
    if (NK_POLY(nk_kernel) && vpclmul_ok) { /* the portable kernel stays plain C */
        bytewise_images_avx2(bytes, images);
        fill_linear_avx2(t, images);
        return;
    }
#endif
    for (int b = 0; b < 8; b++)
        for (int j = 0; j < 8; j++)
            images[8 * b + j] = mul_bytewise(mul8_tab[1u << b], bytes[j]);
    fill_linear(t, images);
}

#define SHIFT(p, s, i) ((void *)((const char *)(p) + (ptrdiff_t)(i) * (s)))

/* How many elements from i on equal element i (all of them for a stride of 0). */
static size_t run_length(const u64 *a, ptrdiff_t sa, size_t i, size_t left)
{
    if (sa == 0)
        return left;
    u64 first = AT(a, sa, i);
    size_t r = 1;
    while (r < left && AT(a, sa, i + r) == first)
        r++;
    return r;
}

/* One block (at most BLOCK elements) with the selected kernel. */
NK_CLMUL_FN static void mul_block(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb, u64 *o,
                                  ptrdiff_t so, size_t n)
{
#ifdef NK_HAVE_CLMUL
    if (NK_POLY(nk_kernel)) {
        mul_block_clmul(a, sa, b, sb, o, so, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        OUT(o, so, i) = nk_mul64_portable(AT(a, sa, i), AT(b, sb, i));
}

/* The eight table indices of the element at p: its low four bytes shifted out of a register,
 * its high four loaded from memory one by one.  Half and half balances the ALU against the
 * load ports: about 20% faster on Zen 3 than eight shifts (every index from the register). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BYTE_INDICES(k, p)                                                                     \
    do {                                                                                       \
        uint32_t low_ = (uint32_t) * (p);                                                      \
        const uint8_t *high_ = (const uint8_t *)(p) + 4;                                       \
        k[0] = low_ & 0xff, k[1] = (low_ >> 8) & 0xff, k[2] = (low_ >> 16) & 0xff;             \
        k[3] = low_ >> 24, k[4] = high_[0], k[5] = high_[1], k[6] = high_[2], k[7] = high_[3]; \
    } while (0)
#else
#define BYTE_INDICES(k, p)                                                                     \
    do {                                                                                       \
        u64 x_ = *(p);                                                                         \
        for (int b_ = 0; b_ < 8; b_++)                                                         \
            k[b_] = (x_ >> (8 * b_)) & 0xff;                                                   \
    } while (0)
#endif

/* The GFNI path (constant_gfni.c) where the vpclmul kernel runs on a CPU with GFNI, for a
 * contiguous output: an outer product's columns (an output stride of a row) keep the tables,
 * whose two-columns-a-pass loop is faster there (2.2 against 4.0 ns a product, 10^5 x 10). */
static int constant_by_gfni(ptrdiff_t so)
{
    return so == (ptrdiff_t)sizeof(u64) && nk_kernel == NK_VPCLMUL && nk_gfni_available();
}

static void mul_constant(u64 c, const u64 *b, ptrdiff_t sb, u64 *o, ptrdiff_t so, size_t n)
{
    if (constant_by_gfni(so)) {
        nk_mul_constant_gfni(c, b, sb, o, so, n);
        return;
    }
    NK_ALIGN64 nk_lintab t;
    constant_tables(c, t);
    for (size_t i = 0; i < n; i++) {
        size_t k[8];
        BYTE_INDICES(k, &AT(b, sb, i));
        OUT(o, so, i) = nk_lookup8((const u64(*)[256])t, k);
    }
}

/* Two constants over one array, o0[i] = c0 (x) b[i] and o1[i] = c1 (x) b[i] (two lines of an
 * outer product): each element's indices serve both tables, which makes a product about 15%
 * cheaper than mul_constant's and pays for the tables an outer product builds per line.  The
 * two tables (32 KiB) are as much as Zen 3's L1 holds; four would spill it. */
static void mul_constant2(u64 c0, u64 c1, const u64 *b, ptrdiff_t sb, u64 *o0, u64 *o1,
                          ptrdiff_t so, size_t n)
{
    if (constant_by_gfni(so)) { /* the line b stays in L1 for the second pass */
        nk_mul_constant_gfni(c0, b, sb, o0, so, n);
        nk_mul_constant_gfni(c1, b, sb, o1, so, n);
        return;
    }
    NK_ALIGN64 nk_lintab t0, t1;
    constant_tables(c0, t0);
    constant_tables(c1, t1);
    for (size_t i = 0; i < n; i++) {
        size_t k[8];
        BYTE_INDICES(k, &AT(b, sb, i));
        OUT(o0, so, i) = nk_lookup8((const u64(*)[256])t0, k);
        OUT(o1, so, i) = nk_lookup8((const u64(*)[256])t1, k);
    }
}

/* A reduction, acc = acc (x) b[0] (x) ... (x) b[n-1]: the product is associative and
 * commutative, so eight independent chains in the working basis (one basis change an
 * element) keep the multiplier busy. */
#ifdef NK_HAVE_VPCLMUL
/* The same with the 256-bit carry-less product: eight chains in two vectors of four. */
NK_VPCLMUL_FN static u64 product_of_vpclmul(u64 acc, const u64 *b, ptrdiff_t sb, size_t n)
{
    __m256i consts = _mm256_broadcastsi128_si256(nk_clmul_consts);
    u64 one = nk_apply_linear(nk_to_poly_tab, 1), w[8];
    __m256i lo = _mm256_set1_epi64x((long long)one), hi = lo;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (int j = 0; j < 8; j++)
            w[j] = nk_apply_linear(nk_to_poly_tab, AT(b, sb, i + (size_t)j));
        lo = nk_mul4_vpclmul(lo, _mm256_loadu_si256((const __m256i *)w), consts);
        hi = nk_mul4_vpclmul(hi, _mm256_loadu_si256((const __m256i *)(w + 4)), consts);
    }
    _mm256_storeu_si256((__m256i *)w, lo);
    _mm256_storeu_si256((__m256i *)(w + 4), hi);
    u64 r = nk_apply_linear(nk_to_poly_tab, acc);
    for (int j = 0; j < 8; j++)
        r = nk_mul64_clmul(r, w[j]);
    for (; i < n; i++)
        r = nk_mul64_clmul(r, nk_apply_linear(nk_to_poly_tab, AT(b, sb, i)));
    return nk_apply_linear(nk_from_poly_tab, r);
}
#endif

NK_CLMUL_FN static u64 product_of(u64 acc, const u64 *b, ptrdiff_t sb, size_t n)
{
#ifdef NK_HAVE_VPCLMUL
    if (nk_kernel == NK_VPCLMUL)
        return product_of_vpclmul(acc, b, sb, n);
#endif
    u64 one = nk_to_work(1), w[8] = {nk_to_work(acc), one, one, one, one, one, one, one};
    for (size_t i = 0; i < n; i++)
        w[i & 7] = nk_mulw(w[i & 7], nk_to_work(AT(b, sb, i)));
    for (int half = 4; half >= 1; half /= 2)
        for (int k = 0; k < half; k++)
            w[k] = nk_mulw(w[k], w[k + half]);
    return nk_from_work(w[0]);
}

/* An accumulation, o[i] = o[i-1] (x) b[i] with o[-1] = first: one chain, in the working
 * basis. */
NK_CLMUL_FN static void running_product(u64 first, const u64 *b, ptrdiff_t sb, u64 *o,
                                        ptrdiff_t so, size_t n)
{
    u64 w = nk_to_work(first);
    for (size_t i = 0; i < n; i++) {
        w = nk_mulw(w, nk_to_work(AT(b, sb, i)));
        OUT(o, so, i) = nk_from_work(w);
    }
}

NK_CLMUL_FN static void nk_mul_strided_unguarded(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb,
                                u64 *o, ptrdiff_t so, size_t n)
{
    if (n == 0)
        return;
    if (sb == 0 && sa != 0) { /* the product commutes: keep a broadcast operand first */
        const u64 *t = a;
        a = b;
        b = t;
        sb = sa;
        sa = 0;
    }
    if (sa == 0 && so == 0 && a == o) { /* numpy's reduce: the accumulator is operand 0 */
        o[0] = product_of(a[0], b, sb, n);
        return;
    }
    if (sa == so && (const char *)a + so == (const char *)o && !chains(b, sb, o, so, n)) {
        running_product(a[0], b, sb, o, so, n); /* numpy's accumulate: a is o one behind */
        return;
    }
    if (chains(a, sa, o, so, n) || chains(b, sb, o, so, n)) {
        for (size_t i = 0; i < n; i++) /* any other overlap: one element at a time, in order */
            OUT(o, so, i) = nk_mul(AT(a, sa, i), AT(b, sb, i));
        return;
    }
    /* A constant operand shows as a run of equal values (numpy's buffers repeat a broadcast
     * operand): runs long enough become linear maps, the rest goes block by block. */
    for (size_t i = 0; i < n;) {
        size_t left = n - i, ra = run_length(a, sa, i, left), rb;
        if (ra >= CONSTANT_MIN) {
            mul_constant(AT(a, sa, i), SHIFT(b, sb, i), sb, SHIFT(o, so, i), so, ra);
            i += ra;
        } else if ((rb = run_length(b, sb, i, left)) >= CONSTANT_MIN) {
            mul_constant(AT(b, sb, i), SHIFT(a, sa, i), sa, SHIFT(o, so, i), so, rb);
            i += rb;
        } else {
            size_t len = left < BLOCK ? left : BLOCK;
            mul_block(SHIFT(a, sa, i), sa, SHIFT(b, sb, i), sb, SHIFT(o, so, i), so, len);
            i += len;
        }
    }
}

void nk_mul_strided(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb,
                                u64 *o, ptrdiff_t so, size_t n)
{
    nk_work_enter();
    nk_mul_strided_unguarded(a, sa, b, sb, o, so, n);
    nk_work_leave();
}

/* Montgomery's batch inversion, a block at a time: running products p_i = a_0 ... a_i, one
 * inversion of the last, then backwards a_i^-1 = (p_i)^-1 (x) p_(i-1) and (p_(i-1))^-1 =
 * (p_i)^-1 (x) a_i: three products an element instead of an inversion.  The products of one
 * chain depend on each other, so four chains run interleaved (element i in chain i mod 4)
 * and share the one inversion.  With num, o_i = num_i (x) a_i^-1 (division).  No a_i may be
 * 0; o may be a or num element for element. */
#define CHAINS 4

/* Forward, from element `from` on: w[i] = a_i in the working basis, prefix[i] the running
 * product of chain i % CHAINS, acc the chains' running products. */
NK_CLMUL_FN static void forward_chains(const u64 *a, ptrdiff_t sa, u64 *w, u64 *prefix,
                                       u64 *acc, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++) {
        w[i] = nk_to_work(AT(a, sa, i));
        prefix[i] = acc[i % CHAINS] = nk_mulw(acc[i % CHAINS], w[i]);
    }
}

/* Backward over [from, to), last element first: o_i = num_i (x) a_i^-1, inv the chains'
 * inverses of their running products. */
NK_CLMUL_FN static void backward_chains(const u64 *w, const u64 *prefix, u64 *inv,
                                        const u64 *num, ptrdiff_t snum, u64 *o, ptrdiff_t so,
                                        size_t from, size_t to)
{
    for (size_t i = to; i-- > from;) {
        size_t c = i % CHAINS;
        u64 r = i >= CHAINS ? nk_mulw(inv[c], prefix[i - CHAINS]) : inv[c];
        if (num)
            r = nk_mulw(r, nk_to_work(AT(num, snum, i)));
        inv[c] = nk_mulw(inv[c], w[i]);
        OUT(o, so, i) = nk_from_work(r);
    }
}

#ifdef NK_HAVE_VPCLMUL
/* The same four chains as the four lanes of a 256-bit vector, over whole groups of four
 * elements from 0; returns how many elements it did. */
NK_VPCLMUL_FN static size_t forward_chains4(const u64 *a, ptrdiff_t sa, u64 *w, u64 *prefix,
                                            u64 *acc, size_t n)
{
    __m256i consts = _mm256_broadcastsi128_si256(nk_clmul_consts);
    __m256i v = _mm256_loadu_si256((const __m256i *)acc);
    size_t i = 0;
    for (; i + CHAINS <= n; i += CHAINS) {
        for (size_t j = 0; j < CHAINS; j++)
            w[i + j] = nk_apply_linear(nk_to_poly_tab, AT(a, sa, i + j));
        v = nk_mul4_vpclmul(v, _mm256_loadu_si256((const __m256i *)(w + i)), consts);
        _mm256_storeu_si256((__m256i *)(prefix + i), v);
    }
    _mm256_storeu_si256((__m256i *)acc, v);
    return i;
}

NK_VPCLMUL_FN static void backward_chains4(const u64 *w, const u64 *prefix, u64 *inv,
                                           const u64 *num, ptrdiff_t snum, u64 *o, ptrdiff_t so,
                                           size_t groups)
{
    __m256i consts = _mm256_broadcastsi128_si256(nk_clmul_consts);
    __m256i v = _mm256_loadu_si256((const __m256i *)inv);
    u64 lanes[CHAINS];
    for (size_t g = groups; g-- > 0;) {
        size_t i = g * CHAINS;
        __m256i r = i ? nk_mul4_vpclmul(v, _mm256_loadu_si256((const __m256i *)(prefix + i - CHAINS)),
                                        consts)
                      : v;
        if (num) {
            for (size_t j = 0; j < CHAINS; j++)
                lanes[j] = nk_apply_linear(nk_to_poly_tab, AT(num, snum, i + j));
            r = nk_mul4_vpclmul(r, _mm256_loadu_si256((const __m256i *)lanes), consts);
        }
        v = nk_mul4_vpclmul(v, _mm256_loadu_si256((const __m256i *)(w + i)), consts);
        _mm256_storeu_si256((__m256i *)lanes, r);
        for (size_t j = 0; j < CHAINS; j++)
            OUT(o, so, i + j) = nk_apply_linear(nk_from_poly_tab, lanes[j]);
    }
    _mm256_storeu_si256((__m256i *)inv, v);
}
#endif

NK_CLMUL_FN static void inverse_block(const u64 *a, ptrdiff_t sa, const u64 *num,
                                      ptrdiff_t snum, u64 *o, ptrdiff_t so, size_t n)
{
    u64 w[BLOCK], prefix[BLOCK], one = nk_to_work(1);
    u64 acc[CHAINS] = {one, one, one, one};
    size_t vector = 0; /* elements the 256-bit loops take: whole groups of four */
#ifdef NK_HAVE_VPCLMUL
    if (nk_kernel == NK_VPCLMUL)
        vector = forward_chains4(a, sa, w, prefix, acc, n);
#endif
    forward_chains(a, sa, w, prefix, acc, vector, n);
    /* the inverses of the four chains' totals, from one inversion of their product */
    u64 pair01 = nk_mulw(acc[0], acc[1]), pair23 = nk_mulw(acc[2], acc[3]);
    u64 all = nk_to_work(nk_inv(nk_from_work(nk_mulw(pair01, pair23))));
    u64 inv01 = nk_mulw(all, pair23), inv23 = nk_mulw(all, pair01);
    u64 inv[CHAINS] = {nk_mulw(inv01, acc[1]), nk_mulw(inv01, acc[0]), nk_mulw(inv23, acc[3]),
                       nk_mulw(inv23, acc[2])};
    backward_chains(w, prefix, inv, num, snum, o, so, vector, n); /* the tail, then the groups */
#ifdef NK_HAVE_VPCLMUL
    if (vector)
        backward_chains4(w, prefix, inv, num, snum, o, so, vector / CHAINS);
#endif
}

static void nk_inv_strided_unguarded(const u64 *a, ptrdiff_t sa, u64 *o, ptrdiff_t so, size_t n)
{
    for (size_t start = 0; start < n; start += BLOCK) {
        size_t len = n - start < BLOCK ? n - start : BLOCK;
        inverse_block((const u64 *)((const char *)a + (ptrdiff_t)start * sa), sa, NULL, 0,
                      (u64 *)((char *)o + (ptrdiff_t)start * so), so, len);
    }
}

void nk_inv_strided(const u64 *a, ptrdiff_t sa, u64 *o, ptrdiff_t so, size_t n)
{
    nk_work_enter();
    nk_inv_strided_unguarded(a, sa, o, so, n);
    nk_work_leave();
}

static void nk_div_strided_unguarded(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb, u64 *o,
                    ptrdiff_t so, size_t n)
{
    for (size_t start = 0; start < n; start += BLOCK) {
        size_t len = n - start < BLOCK ? n - start : BLOCK;
        inverse_block((const u64 *)((const char *)b + (ptrdiff_t)start * sb), sb,
                      (const u64 *)((const char *)a + (ptrdiff_t)start * sa), sa,
                      (u64 *)((char *)o + (ptrdiff_t)start * so), so, len);
    }
}

void nk_div_strided(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb, u64 *o,
                    ptrdiff_t so, size_t n)
{
    nk_work_enter();
    nk_div_strided_unguarded(a, sa, b, sb, o, so, n);
    nk_work_leave();
}

/* ---- the subfields GF(2^8) and GF(2^16): tables -------------------------------------- */

#define AT_T(T, p, s, i) (*(const T *)((const char *)(p) + (ptrdiff_t)(i) * (s)))
#define OUT_T(T, p, s, i) (*(T *)((char *)(p) + (ptrdiff_t)(i) * (s)))

void nk_mul_strided8(const uint8_t *a, ptrdiff_t sa, const uint8_t *b, ptrdiff_t sb,
                     uint8_t *o, ptrdiff_t so, size_t n)
{
    for (size_t i = 0; i < n; i++) /* the 64 KiB product table, in order (o may chain) */
        OUT_T(uint8_t, o, so, i) = mul8_tab[AT_T(uint8_t, a, sa, i)][AT_T(uint8_t, b, sb, i)];
}

void nk_mul_strided16(const uint16_t *a, ptrdiff_t sa, const uint16_t *b, ptrdiff_t sb,
                      uint16_t *o, ptrdiff_t so, size_t n)
{
    for (size_t i = 0; i < n; i++) /* logarithms and exponentials of GF(2^16) */
        OUT_T(uint16_t, o, so, i) =
            (uint16_t)nk_mul16(AT_T(uint16_t, a, sa, i), AT_T(uint16_t, b, sb, i));
}

/* ---- outer products ------------------------------------------------------------------------ */

/* o[i][j] = a[i] (x) b[j], o row-major m x n.  Each table of a linear map x -> c (x) x serves
 * one line of o: a row (c = a[i], n elements) or a column (c = b[j]), whichever is longer,
 * a column cut into blocks of rows whose part of o stays in L2 (the strided writes of one
 * column land in the lines the next columns fill).  A table costs a few dozen element-wise
 * products: lines shorter than OUTER_MIN go through the block kernel. */
#define OUTER_BLOCK_BYTES (256 * 1024)
#define OUTER_MIN 128

static void outer_unguarded(const u64 *a, size_t m, const u64 *b, size_t n, u64 *o)
{
    size_t block = OUTER_BLOCK_BYTES / sizeof(u64) / n, rows_per_block = block < m ? block : m;
    if (n >= OUTER_MIN && n >= rows_per_block) {
        size_t i = 0;
        for (; i + 1 < m; i += 2) /* each row a constant times b, two rows at a time */
            mul_constant2(a[i], a[i + 1], b, sizeof(u64), o + i * n, o + (i + 1) * n,
                          sizeof(u64), n);
        if (i < m)
            mul_constant(a[i], b, sizeof(u64), o + i * n, sizeof(u64), n);
    } else if (rows_per_block >= OUTER_MIN) {
        ptrdiff_t row = (ptrdiff_t)(n * sizeof(u64));
        for (size_t start = 0; start < m; start += rows_per_block) {
            size_t rows = m - start < rows_per_block ? m - start : rows_per_block;
            u64 *corner = o + start * n;
            size_t j = 0;
            for (; j + 1 < n; j += 2) /* each column of the block a constant times a, in pairs */
                mul_constant2(b[j], b[j + 1], a + start, sizeof(u64), corner + j,
                              corner + j + 1, row, rows);
            if (j < n)
                mul_constant(b[j], a + start, sizeof(u64), corner + j, row, rows);
        }
    } else {
        for (size_t i = 0; i < m; i++)
            nk_mul_strided_unguarded(a + i, 0, b, sizeof(u64), o + i * n, sizeof(u64), n);
    }
}

void nk_mul_outer(const u64 *a, size_t m, const u64 *b, size_t n, u64 *o)
{
    if (m == 0 || n == 0)
        return;
    nk_work_enter();
    outer_unguarded(a, m, b, n, o);
    nk_work_leave();
}

void nk_mul_outer8(const uint8_t *a, size_t m, const uint8_t *b, size_t n, uint8_t *o)
{
    for (size_t i = 0; i < m; i++) { /* row a[i] of the product table maps b[j] to o[i][j] */
        const uint8_t *row = mul8_tab[a[i]];
        for (size_t j = 0; j < n; j++)
            o[i * n + j] = row[b[j]];
    }
}

void nk_mul_outer16(const uint16_t *a, size_t m, const uint16_t *b, size_t n, uint16_t *o)
{
    for (size_t i = 0; i < m; i++) { /* the logarithm of the row's constant, once */
        uint32_t log_c = nk_log16[a[i]], row_mask = -(uint32_t)(a[i] != 0);
        for (size_t j = 0; j < n; j++)
            o[i * n + j] = (uint16_t)(nk_exp16_sum(log_c + nk_log16[b[j]]) & row_mask &
                                      -(uint32_t)(b[j] != 0));
    }
}
