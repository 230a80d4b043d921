/*
 * kernel_arrays.c -- nim products, inverses and quotients below 2^64 over strided arrays (the
 * ufuncs' loops), and outer products: the selected kernel (kernel64.c) a block at a time,
 * runs of a constant operand as linear maps (kernel_constant.c), reductions and batch
 * inversions as interleaved chains.
 */
#include <string.h>

#include "kernel_inline.h"

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
            nk_mul_constant(AT(a, sa, i), SHIFT(b, sb, i), sb, SHIFT(o, so, i), so, ra);
            i += ra;
        } else if ((rb = run_length(b, sb, i, left)) >= CONSTANT_MIN) {
            nk_mul_constant(AT(b, sb, i), SHIFT(a, sa, i), sa, SHIFT(o, so, i), so, rb);
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
        OUT_T(uint8_t, o, so, i) = nk_mul8_tab[AT_T(uint8_t, a, sa, i)][AT_T(uint8_t, b, sb, i)];
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
            nk_mul_constant2(a[i], a[i + 1], b, sizeof(u64), o + i * n, o + (i + 1) * n,
                          sizeof(u64), n);
        if (i < m)
            nk_mul_constant(a[i], b, sizeof(u64), o + i * n, sizeof(u64), n);
    } else if (rows_per_block >= OUTER_MIN) {
        ptrdiff_t row = (ptrdiff_t)(n * sizeof(u64));
        for (size_t start = 0; start < m; start += rows_per_block) {
            size_t rows = m - start < rows_per_block ? m - start : rows_per_block;
            u64 *corner = o + start * n;
            size_t j = 0;
            for (; j + 1 < n; j += 2) /* each column of the block a constant times a, in pairs */
                nk_mul_constant2(b[j], b[j + 1], a + start, sizeof(u64), corner + j,
                              corner + j + 1, row, rows);
            if (j < n)
                nk_mul_constant(b[j], a + start, sizeof(u64), corner + j, row, rows);
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
        const uint8_t *row = nk_mul8_tab[a[i]];
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
