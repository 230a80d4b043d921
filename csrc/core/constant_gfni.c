/*
 * constant_gfni.c -- c (x) x for one constant c over an array, by the GFNI instructions, for
 * the vpclmul kernel on CPUs that have them (the table path of kernel64.c elsewhere).
 *
 * The bytes of a 64-bit nimber are coordinates over the subfield GF(2^8): x = sum of
 * x_m (x) B_m with B_m = 2^(8m) (a product of Fermat powers above GF(2^8), so x_m (x) B_m is
 * the ordinary product).  Multiplying by c is GF(2^8)-linear, so byte j of c (x) x is
 *     y_j = sum over m of C[j][m] (x) x_m,   C[j][m] = byte j of c (x) B_m,
 * a product in GF(2^8) per term.  GF2P8MULB multiplies bytes in GF(2^8), but in the AES
 * representation (modulus x^8 + x^4 + x^3 + x + 1); the nim field's GF(2^8) is isomorphic to
 * it by a linear map phi, which GF2P8AFFINEQB applies to every byte.  So for four elements in
 * a 256-bit register: map the bytes to the AES representation, then for each rotation s of
 * the bytes within an element multiply byte j (now x_(j+s)) by phi(C[j][j+s]) and add, then
 * map back: 2 affine maps, 7 byte shuffles and 8 byte products for four products, where the
 * table path does eight lookups an element.
 */
#include <string.h>

#include "kernel_inline.h"

#ifdef NK_HAVE_VPCLMUL

#define NK_GFNI_FN __attribute__((target("gfni,avx2")))

static int gfni_ok;
static u64 to_aes_matrix, from_aes_matrix;
static uint8_t to_aes[256];
/* The nim product, handed in by nk_gfni_init's caller (kernel64.c), so that this leaf calls
 * nothing of the file that chooses it. */
static u64 (*nim_product)(u64, u64);

int nk_gfni_available(void) { return gfni_ok; }

static uint8_t aes_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    while (b) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

/* The affine matrix of a linear map on bytes: row (byte) 7 - i selects the input bits whose
 * images have bit i (GF2P8AFFINEQB's convention). */
static u64 affine_matrix(const uint8_t map[256])
{
    u64 m = 0;
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 8; k++)
            if (map[1u << k] >> i & 1)
                m |= (u64)1 << (8 * (7 - i) + k);
    return m;
}

/* phi: the nim field's GF(2^8) onto the AES one, alpha^k -> beta^k for a generator alpha and
 * the beta that makes the map additive too (a root of alpha's minimal polynomial). */
static int build_isomorphism(void)
{
    uint8_t alpha = 2;
    for (;; alpha++) { /* a generator: its order is 255 = 3 * 5 * 17 */
        int generates = 1;
        for (int d = 0; d < 3 && generates; d++) {
            static const int cofactor[3] = {85, 51, 15};
            u64 p = 1;
            for (int k = 0; k < cofactor[d]; k++)
                p = nim_product(p, alpha);
            generates = p != 1;
        }
        if (generates)
            break;
    }
    for (int beta = 2; beta < 256; beta++) {
        uint8_t map[256] = {0}, back[256] = {0};
        u64 a = 1;
        uint8_t b = 1;
        for (int k = 0; k < 255; k++) {
            map[a] = b;
            a = nim_product(a, alpha);
            b = aes_mul(b, (uint8_t)beta);
        }
        int additive = 1;
        for (unsigned x = 0; x < 256 && additive; x++) {
            uint8_t sum = 0;
            for (int i = 0; i < 8; i++)
                if (x >> i & 1)
                    sum ^= map[1u << i];
            additive = sum == map[x];
        }
        if (!additive)
            continue;
        for (unsigned x = 0; x < 256; x++)
            back[map[x]] = (uint8_t)x;
        for (unsigned x = 0; x < 256; x++)
            to_aes[x] = map[x];
        to_aes_matrix = affine_matrix(map);
        from_aes_matrix = affine_matrix(back);
        return 1;
    }
    return 0;
}

void nk_gfni_init(int vpclmul_ok, u64 (*mul)(u64, u64))
{
    nim_product = mul;
    __builtin_cpu_init();
    gfni_ok = vpclmul_ok && __builtin_cpu_supports("gfni") && __builtin_cpu_supports("avx2") &&
              build_isomorphism();
}

/* Four products c (x) x_i: x holds four elements, the rest are the constant's registers. */
NK_GFNI_FN static inline __m256i mul4(__m256i x, const __m256i d[8], const __m256i rot[8],
                                      __m256i to, __m256i from)
{
    __m256i a = _mm256_gf2p8affine_epi64_epi8(x, to, 0);
    __m256i acc = _mm256_gf2p8mul_epi8(a, d[0]);
    for (int s = 1; s < 8; s++)
        acc = _mm256_xor_si256(acc, _mm256_gf2p8mul_epi8(_mm256_shuffle_epi8(a, rot[s]), d[s]));
    return _mm256_gf2p8affine_epi64_epi8(acc, from, 0);
}

NK_GFNI_FN void nk_mul_constant_gfni(u64 c, const u64 *b, ptrdiff_t sb, u64 *o, ptrdiff_t so,
                                     size_t n)
{
    /* C[j][m] = byte j of c (x) B_m, in the AES representation; d[s] holds C[j][j+s] at
     * byte j of each element, rot[s] moves byte j+s of each element to byte j */
    uint8_t coef[8][8];
    for (int m = 0; m < 8; m++) {
        u64 image = nim_product(c, (u64)1 << (8 * m));
        for (int j = 0; j < 8; j++)
            coef[j][m] = to_aes[(image >> (8 * j)) & 0xff];
    }
    __m256i d[8], rot[8];
    for (int s = 0; s < 8; s++) {
        uint8_t db[32], rb[32];
        for (int e = 0; e < 4; e++)
            for (int j = 0; j < 8; j++) {
                db[8 * e + j] = coef[j][(j + s) & 7];
                rb[8 * e + j] = (uint8_t)(8 * (e & 1) + ((j + s) & 7)); /* within 128 bits */
            }
        d[s] = _mm256_loadu_si256((const __m256i *)db);
        rot[s] = _mm256_loadu_si256((const __m256i *)rb);
    }
    __m256i to = _mm256_set1_epi64x((long long)to_aes_matrix);
    __m256i from = _mm256_set1_epi64x((long long)from_aes_matrix);
    size_t i = 0;
    if (sb == (ptrdiff_t)sizeof(u64) && so == (ptrdiff_t)sizeof(u64)) {
        for (; i + 8 <= n; i += 8) { /* two registers at a time: independent chains */
            __m256i x0 = _mm256_loadu_si256((const __m256i *)(b + i));
            __m256i x1 = _mm256_loadu_si256((const __m256i *)(b + i + 4));
            _mm256_storeu_si256((__m256i *)(o + i), mul4(x0, d, rot, to, from));
            _mm256_storeu_si256((__m256i *)(o + i + 4), mul4(x1, d, rot, to, from));
        }
    }
    for (; i < n; i += 4) { /* strided (an outer product's columns), and the last few */
        u64 buf[4] = {0, 0, 0, 0};
        size_t len = n - i < 4 ? n - i : 4;
        if (sb == (ptrdiff_t)sizeof(u64) && len == 4)
            memcpy(buf, b + i, sizeof buf);
        else
            for (size_t k = 0; k < len; k++)
                buf[k] = *(const u64 *)((const char *)b + (ptrdiff_t)(i + k) * sb);
        __m256i y = mul4(_mm256_loadu_si256((const __m256i *)buf), d, rot, to, from);
        _mm256_storeu_si256((__m256i *)buf, y);
        for (size_t k = 0; k < len; k++)
            *(u64 *)((char *)o + (ptrdiff_t)(i + k) * so) = buf[k];
    }
}

#else

int nk_gfni_available(void) { return 0; }
void nk_gfni_init(int vpclmul_ok, u64 (*mul)(u64, u64)) { (void)vpclmul_ok, (void)mul; }
void nk_mul_constant_gfni(u64 c, const u64 *b, ptrdiff_t sb, u64 *o, ptrdiff_t so, size_t n)
{
    (void)c, (void)b, (void)sb, (void)o, (void)so, (void)n;
}

#endif
