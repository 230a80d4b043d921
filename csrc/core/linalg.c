/*
 * linalg.c -- Gaussian elimination over the nim field GF(2^(64 n)).
 *
 * Entries arrive as n-limb nimbers in the nim basis and are converted in place to the
 * kernel's working basis for the elimination, then back (the basis change is a field
 * isomorphism, so determinants, ranks and solutions commute with it).  The elimination polls
 * for a stop request once per pivot (a 3000 x 3000 pivot step is a few milliseconds).  The field has
 * characteristic 2: a row swap does not change the sign of the determinant, since -1 = 1,
 * and the determinant equals the permanent.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel_inline.h"

#define ELEM(m, cols, n, i, j) ((m) + ((size_t)(i) * (cols) + (j)) * (n))

#ifdef NK_HAVE_VPCLMUL
/* dst[k] ^= f (x) src[k] four entries at a time (two carry-less products an instruction). */
NK_VPCLMUL_FN static size_t axpy1_vpclmul(u64 *dst, const u64 *src, u64 f, size_t len)
{
    __m256i consts = _mm256_broadcastsi128_si256(nk_clmul_consts);
    __m256i factor = _mm256_set1_epi64x((long long)f);
    size_t k = 0;
    for (; k + 4 <= len; k += 4) {
        __m256i s = _mm256_loadu_si256((const __m256i *)(src + k));
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + k));
        __m256i p = nk_mul4_vpclmul(s, factor, consts);
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_xor_si256(d, p));
    }
    return k; /* the entries done; the caller finishes the tail */
}
#endif

/* dst[k] ^= f (x) src[k] for k < len, one-limb entries: the hot loop. */
NK_CLMUL_FN static void axpy1(u64 *dst, const u64 *src, u64 f, size_t len)
{
#ifdef NK_HAVE_VPCLMUL
    if (nk_kernel == NK_VPCLMUL) {
        size_t done = axpy1_vpclmul(dst, src, f, len);
        dst += done;
        src += done;
        len -= done;
    }
#endif
#ifdef NK_HAVE_CLMUL
    if (NK_POLY(nk_kernel)) {
        __m128i wf = _mm_cvtsi64_si128((long long)f);
        for (size_t k = 0; k < len; k++) {
            __m128i p = _mm_clmulepi64_si128(wf, _mm_cvtsi64_si128((long long)src[k]), 0x00);
            dst[k] ^= (u64)_mm_cvtsi128_si64(nk_clmul_reduce(p));
        }
        return;
    }
#endif
    for (size_t k = 0; k < len; k++)
        dst[k] ^= nk_mul64_portable(f, src[k]);
}

/* dst[k] = f (x) dst[k]. */
NK_CLMUL_FN static void scale1(u64 *dst, u64 f, size_t len)
{
    for (size_t k = 0; k < len; k++)
        dst[k] = nk_mulw(f, dst[k]);
}

static void axpy(u64 *dst, const u64 *src, const u64 *f, size_t len, size_t n, u64 *s)
{
    if (n == 1) {
        axpy1(dst, src, f[0], len);
        return;
    }
    u64 *t = s, *rest = s + n;
    for (size_t k = 0; k < len; k++) {
        tw_mulw(f, src + k * n, t, n, rest);
        for (size_t i = 0; i < n; i++)
            dst[k * n + i] ^= t[i];
    }
}

static void scale(u64 *dst, const u64 *f, size_t len, size_t n, u64 *s)
{
    if (n == 1) {
        scale1(dst, f[0], len);
        return;
    }
    u64 *t = s, *rest = s + n;
    for (size_t k = 0; k < len; k++) {
        tw_mulw(f, dst + k * n, t, n, rest);
        memcpy(dst + k * n, t, n * sizeof(u64));
    }
}

static void swap_rows(u64 *m, size_t cols, size_t n, size_t i, size_t j)
{
    u64 *a = ELEM(m, cols, n, i, 0), *b = ELEM(m, cols, n, j, 0);
    for (size_t k = 0; k < cols * n; k++) {
        u64 t = a[k];
        a[k] = b[k];
        b[k] = t;
    }
}

/* Scratch for one field element's products: the element, its inverse, a factor, and the
 * tower's own scratch. */
static u64 *alloc_scratch(size_t n)
{
    return (u64 *)malloc((4 * n + tw_scratch_limbs(n)) * sizeof(u64));
}

static int row_reduce_work(u64 *m, size_t r, size_t c, size_t n, size_t *pivots,
                           size_t *rank_out, u64 *det, u64 *aug, size_t ac, const nc_poll *poll)
{
    u64 *s = alloc_scratch(n);
    if (!s)
        return NC_NOMEM;
    u64 *inv = s, *f = s + n, *d = s + 2 * n, *t = s + 3 * n, *rest = s + 4 * n;
    memset(d, 0, n * sizeof(u64));
    d[0] = nk_to_work(1);
    size_t rank = 0;
    for (size_t col = 0; col < c && rank < r; col++) {
        if (nc_should_stop(poll)) {
            free(s);
            return NC_STOPPED;
        }
        size_t p = rank;
        while (p < r && tw_is_zero(ELEM(m, c, n, p, col), n))
            p++;
        if (p == r)
            continue;
        if (p != rank) {
            swap_rows(m, c, n, p, rank);
            if (aug)
                swap_rows(aug, ac, n, p, rank);
        }
        u64 *prow = ELEM(m, c, n, rank, 0);
        tw_mulw(d, prow + col * n, t, n, rest);
        memcpy(d, t, n * sizeof(u64));
        tw_invw(prow + col * n, inv, n, rest);
        scale(prow + col * n, inv, c - col, n, rest);
        if (aug)
            scale(ELEM(aug, ac, n, rank, 0), inv, ac, n, rest);
        for (size_t i = 0; i < r; i++) {
            u64 *row = ELEM(m, c, n, i, 0);
            if (i == rank || tw_is_zero(row + col * n, n))
                continue;
            memcpy(f, row + col * n, n * sizeof(u64));
            axpy(row + col * n, prow + col * n, f, c - col, n, rest);
            if (aug)
                axpy(ELEM(aug, ac, n, i, 0), ELEM(aug, ac, n, rank, 0), f, ac, n, rest);
        }
        pivots[rank++] = col;
    }
    if (det) {
        if (rank == r && r == c)
            memcpy(det, d, n * sizeof(u64));
        else
            memset(det, 0, n * sizeof(u64));
    }
    free(s);
    *rank_out = rank;
    return NC_OK;
}

static int la_row_reduce_unguarded(u64 *m, size_t r, size_t c, size_t n, size_t *pivots, size_t *rank, u64 *det,
                  u64 *aug, size_t ac, const nc_poll *poll)
{
    tw_to_work(m, r * c * n);
    if (aug)
        tw_to_work(aug, r * ac * n);
    int status = row_reduce_work(m, r, c, n, pivots, rank, det, aug, ac, poll);
    tw_from_work(m, r * c * n);
    if (aug)
        tw_from_work(aug, r * ac * n);
    if (det)
        tw_from_work(det, n);
    return status;
}

int la_row_reduce(u64 *m, size_t r, size_t c, size_t n, size_t *pivots, size_t *rank, u64 *det,
                  u64 *aug, size_t ac, const nc_poll *poll)
{
    nk_work_enter();
    int result = la_row_reduce_unguarded(m, r, c, n, pivots, rank, det, aug, ac, poll);
    nk_work_leave();
    return result;
}

/* The determinant of one-limb entries, blocked: the plain elimination streams the whole
 * trailing matrix through memory once per pivot, which bounds large matrices by memory
 * bandwidth.  Here a panel of PANEL columns is eliminated first (updating only the panel's
 * columns, each multiplier kept where its entry was), then each trailing row takes the
 * PANEL pending updates at once while it sits in cache.  The pivot rows' own trailing parts
 * are brought up to date first, in order: row j's part then equals what the plain
 * elimination would have used for pivot j.  Row swaps move whole rows, pending updates
 * (their multipliers) included. */
#define PANEL 32

NK_CLMUL_FN static int det_blocked1(u64 *m, size_t r, u64 *det, const nc_poll *poll)
{
    u64 d = nk_to_work(1);
    *det = 0;
    for (size_t c0 = 0; c0 < r; c0 += PANEL) {
        if (nc_should_stop(poll))
            return NC_STOPPED;
        size_t c1 = c0 + PANEL < r ? c0 + PANEL : r;
        for (size_t col = c0; col < c1; col++) { /* the panel */
            size_t p = col;
            while (p < r && m[p * r + col] == 0)
                p++;
            if (p == r)
                return NC_OK; /* singular: det stays 0 */
            if (p != col)
                swap_rows(m, r, 1, p, col); /* no sign: -1 = 1 in characteristic 2 */
            u64 *prow = m + col * r;
            d = nk_mulw(d, prow[col]);
            u64 inv = nk_to_work(nk_inv(nk_from_work(prow[col])));
            for (size_t i = col + 1; i < r; i++) {
                u64 *row = m + i * r;
                if (row[col] == 0)
                    continue;
                row[col] = nk_mulw(row[col], inv); /* the multiplier, kept */
                axpy1(row + col + 1, prow + col + 1, row[col], c1 - col - 1);
            }
        }
        size_t rest = r - c1;
        for (size_t j = c0 + 1; j < c1; j++) /* the pivot rows' trailing parts, in order */
            for (size_t k = c0; k < j; k++)
                if (m[j * r + k])
                    axpy1(m + j * r + c1, m + k * r + c1, m[j * r + k], rest);
        for (size_t i = c1; i < r; i++) { /* every other row, all pending updates at once */
            if ((i & 63) == 0 && nc_should_stop(poll))
                return NC_STOPPED;
            for (size_t k = c0; k < c1; k++)
                if (m[i * r + k])
                    axpy1(m + i * r + c1, m + k * r + c1, m[i * r + k], rest);
        }
    }
    *det = d;
    return NC_OK;
}

static int det_work(u64 *m, size_t r, size_t n, u64 *det, const nc_poll *poll)
{
    if (n == 1)
        return det_blocked1(m, r, det, poll);
    u64 *s = alloc_scratch(n);
    memset(det, 0, n * sizeof(u64));
    if (!s)
        return NC_NOMEM;
    u64 *inv = s, *f = s + n, *d = s + 2 * n, *rest = s + 4 * n;
    memset(d, 0, n * sizeof(u64));
    d[0] = nk_to_work(1);
    for (size_t col = 0; col < r; col++) {
        if (nc_should_stop(poll)) {
            free(s);
            return NC_STOPPED;
        }
        size_t p = col;
        while (p < r && tw_is_zero(ELEM(m, r, n, p, col), n))
            p++;
        if (p == r) {
            free(s);
            return NC_OK; /* singular: det stays 0 */
        }
        if (p != col)
            swap_rows(m, r, n, p, col); /* no sign: -1 = 1 in characteristic 2 */
        u64 *prow = ELEM(m, r, n, col, 0);
        tw_mulw(d, prow + col * n, f, n, rest);
        memcpy(d, f, n * sizeof(u64));
        tw_invw(prow + col * n, inv, n, rest);
        for (size_t i = col + 1; i < r; i++) {
            u64 *row = ELEM(m, r, n, i, 0);
            if (tw_is_zero(row + col * n, n))
                continue;
            tw_mulw(row + col * n, inv, f, n, rest);
            axpy(row + (col + 1) * n, prow + (col + 1) * n, f, r - col - 1, n, rest);
        }
    }
    memcpy(det, d, n * sizeof(u64));
    free(s);
    return NC_OK;
}

static int la_det_unguarded(u64 *m, size_t r, size_t n, u64 *det, const nc_poll *poll)
{
    tw_to_work(m, r * r * n);
    int status = det_work(m, r, n, det, poll);
    tw_from_work(det, n);
    return status;
}

int la_det(u64 *m, size_t r, size_t n, u64 *det, const nc_poll *poll)
{
    nk_work_enter();
    int result = la_det_unguarded(m, r, n, det, poll);
    nk_work_leave();
    return result;
}

static int matmul_work(const u64 *a, const u64 *b, u64 *out, size_t r, size_t k, size_t c,
                       size_t n, const nc_poll *poll)
{
    memset(out, 0, r * c * n * sizeof(u64));
    u64 *s = alloc_scratch(n);
    if (!s)
        return NC_NOMEM;
    for (size_t i = 0; i < r; i++) {
        if (nc_should_stop(poll)) {
            free(s);
            return NC_STOPPED;
        }
        for (size_t j = 0; j < k; j++)
            axpy(ELEM(out, c, n, i, 0), ELEM(b, c, n, j, 0), ELEM(a, k, n, i, j), c, n, s);
    }
    free(s);
    return NC_OK;
}

static int la_matmul_unguarded(u64 *a, u64 *b, u64 *out, size_t r, size_t k, size_t c, size_t n,
              const nc_poll *poll)
{
    tw_to_work(a, r * k * n);
    tw_to_work(b, k * c * n);
    int status = matmul_work(a, b, out, r, k, c, n, poll);
    tw_from_work(a, r * k * n);
    tw_from_work(b, k * c * n);
    tw_from_work(out, r * c * n);
    return status;
}

int la_matmul(u64 *a, u64 *b, u64 *out, size_t r, size_t k, size_t c, size_t n,
              const nc_poll *poll)
{
    nk_work_enter();
    int result = la_matmul_unguarded(a, b, out, r, k, c, n, poll);
    nk_work_leave();
    return result;
}
