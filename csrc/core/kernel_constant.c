/*
 * kernel_constant.c -- c (x) x for one constant c over an array (and two constants over one
 * array, the lines of an outer product): x -> c (x) x is GF(2)-linear (notes, "Linear maps"),
 * so eight byte tables of its images make an element 8 lookups and 7 XORs, no change of
 * basis; on CPUs with GFNI the vpclmul kernel uses byte products instead (constant_gfni.c).
 * Called by the array loops (kernel_arrays.c) for runs of a constant operand and outer
 * products; the tables' images come from the scalar product (kernel64.c).
 */
#include <string.h>

#include "kernel_inline.h"

#define AT(p, s, i) (*(const u64 *)((const char *)(p) + (ptrdiff_t)(i) * (s)))
#define OUT(p, s, i) (*(u64 *)((char *)(p) + (ptrdiff_t)(i) * (s)))

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

/* images[8b + j] = bytes[j] (x) 2^b, bytewise, 32 bytes an instruction. */
NK_VPCLMUL_FN static void bytewise_images_avx2(const u64 bytes[8], u64 images[64])
{
    __m256i low = _mm256_set1_epi8(0x0f);
    __m256i x[2] = {_mm256_loadu_si256((const __m256i *)bytes),
                    _mm256_loadu_si256((const __m256i *)(bytes + 4))};
    for (int b = 0; b < 8; b++) {
        __m256i lo_tab = _mm256_load_si256((const __m256i *)nk_nibble_tab[b][0]);
        __m256i hi_tab = _mm256_load_si256((const __m256i *)nk_nibble_tab[b][1]);
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
    for (int j = 0; j < 8; j++)
        bytes[j] = nk_mul(c, bytes[j]);
#ifdef NK_HAVE_VPCLMUL
    /* the portable kernel stays plain C */
    if (NK_POLY(nk_kernel) && nk_kernel_available(NK_VPCLMUL)) {
        bytewise_images_avx2(bytes, images);
        fill_linear_avx2(t, images);
        return;
    }
#endif
    for (int b = 0; b < 8; b++)
        for (int j = 0; j < 8; j++)
            images[8 * b + j] = mul_bytewise(nk_mul8_tab[1u << b], bytes[j]);
    fill_linear(t, images);
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

void nk_mul_constant(u64 c, const u64 *b, ptrdiff_t sb, u64 *o, ptrdiff_t so, size_t n)
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
void nk_mul_constant2(u64 c0, u64 c1, const u64 *b, ptrdiff_t sb, u64 *o0, u64 *o1,
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
