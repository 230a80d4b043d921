/*
 * tower.c -- nimbers of any size, as arrays of n 64-bit limbs (n a power of two).
 *
 * A value a < 2^(64 n) is split on the Fermat tower as a = a1 * X ^ a0 with X = 2^(32 n),
 * and h = X / 2 (notes, "The tower"):
 *   product      3 half-size products (Karatsuba), cost ~ n^1.58 kernel products;
 *   times h      3 half-size "times h" (h = X' (x) h' one level down);
 *   square       (b1 X + b0)^2 = b1^2 X + (b1^2 (x) h + b0^2);
 *   square root  sqrt(a1 X + a0) = sqrt(a1) X + sqrt(a0 + a1 (x) h);
 *   inverse      conj(a) (x) N(a)^-1 with N(a) = a0 (x) (a0 + a1) + a1^2 (x) h.
 * The recursion runs in the kernel's working basis (the *w functions); the basis change is
 * limb by limb, since the tower above 64 bits only ever XORs limbs and multiplies single
 * limbs.  The public entry points (nim basis in and out) convert copies of their operands.
 */
#include <string.h>

#include "kernel_inline.h"

/* The working functions need 10 n + 16 limbs; the entry points add room for two copies. */
#define WORK_SCRATCH(n) (10 * (n) + 16)
size_t tw_scratch_limbs(size_t n) { return WORK_SCRATCH(n) + 2 * n; }

/* Stop requests inside the recursion: a product of 2^22 bits takes seconds.  The public entry
 * point of this thread's computation keeps its poll here; the recursion asks it at levels of
 * POLL_LIMBS limbs and more (a few milliseconds of work each) and, once stopped, returns at
 * once from every level (the result is then discarded). */
#define POLL_LIMBS 2048
static _Thread_local const nc_poll *tower_poll;
static _Thread_local int tower_stopped;

static int stopping(size_t n)
{
    if (!tower_stopped && n >= POLL_LIMBS && nc_should_stop(tower_poll))
        tower_stopped = 1;
    return tower_stopped;
}

int tw_is_zero(const u64 *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i])
            return 0;
    return 1;
}

void tw_to_work(u64 *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = nk_to_work(a[i]);
}

void tw_from_work(u64 *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = nk_from_work(a[i]);
}

static void xor_into(u64 *dst, const u64 *a, const u64 *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = a[i] ^ b[i];
}

/* out = c (x) 2^(64 n - 1); out must not alias c.  Scratch: n limbs. */
NK_CLMUL_FN static void mul_half(const u64 *c, u64 *out, size_t n, u64 *s)
{
    if (n == 1) {
        out[0] = nk_mulw(c[0], nk_half_work[NK_POLY(nk_kernel)]);
        return;
    }
    if (n == 2) { /* h (x) h is a constant: two independent products instead of three */
        u64 c0 = c[0], c1 = c[1];
        out[1] = nk_mulw(c0 ^ c1, nk_half_work[NK_POLY(nk_kernel)]);
        out[0] = nk_mulw(c1, nk_half_squared_work[NK_POLY(nk_kernel)]);
        return;
    }
    size_t h = n / 2;
    xor_into(s, c, c + h, h);
    mul_half(s, out + h, h, s + h);      /* high half: (c0 ^ c1) (x) h' */
    mul_half(c + h, s, h, s + h);        /* c1 (x) h' ... */
    mul_half(s, out, h, s + h);          /* ... (x) h' again: the low half */
}

NK_CLMUL_FN void tw_mulw(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *s)
{
    if (n >= POLL_LIMBS && stopping(n))
        return;
    if (n == 1) {
        out[0] = nk_mulw(a[0], b[0]);
        return;
    }
    if (n == 2) { /* the leaf: three independent products, which the CPU overlaps */
        u64 a0 = a[0], a1 = a[1], b0 = b[0], b1 = b[1];
        u64 p0 = nk_mulw(a0, b0), p2 = nk_mulw(a1, b1), p1 = nk_mulw(a0 ^ a1, b0 ^ b1);
        out[1] = p1 ^ p0;
        out[0] = p0 ^ nk_mulw(p2, nk_half_work[NK_POLY(nk_kernel)]);
        return;
    }
    size_t h = n / 2;
    u64 *sa = s, *sb = s + h, *p1 = s + 2 * h, *rest = s + 3 * h;
    tw_mulw(a, b, out, h, rest);                 /* p0 -> low half of out */
    tw_mulw(a + h, b + h, out + h, h, rest);     /* p2 -> high half of out */
    xor_into(sa, a, a + h, h);
    xor_into(sb, b, b + h, h);
    tw_mulw(sa, sb, p1, h, rest);
    mul_half(out + h, sa, h, rest);             /* p2 (x) h, into sa */
    for (size_t i = 0; i < h; i++) {
        u64 p0 = out[i];
        out[h + i] = p1[i] ^ p0;
        out[i] = p0 ^ sa[i];
    }
}

NK_CLMUL_FN void tw_squarew(const u64 *a, u64 *out, size_t n, u64 *s)
{
    if (n >= POLL_LIMBS && stopping(n))
        return;
    if (n == 1) {
        out[0] = nk_mulw(a[0], a[0]);
        return;
    }
    size_t h = n / 2;
    u64 *sq1 = s, *sq0 = s + h, *mh = s + 2 * h, *rest = s + 3 * h;
    tw_squarew(a + h, sq1, h, rest);
    tw_squarew(a, sq0, h, rest);
    mul_half(sq1, mh, h, rest);
    for (size_t i = 0; i < h; i++) {
        out[h + i] = sq1[i];
        out[i] = mh[i] ^ sq0[i];
    }
}

void tw_sqrtw(const u64 *a, u64 *out, size_t n, u64 *s)
{
    if (n >= POLL_LIMBS && stopping(n))
        return;
    if (n == 1) {
        out[0] = nk_to_work(nk_sqrt(nk_from_work(a[0])));
        return;
    }
    size_t h = n / 2;
    u64 *t = s, *r1 = s + h, *r0 = s + 2 * h, *rest = s + 3 * h;
    mul_half(a + h, t, h, rest);
    for (size_t i = 0; i < h; i++)
        t[i] ^= a[i];
    tw_sqrtw(a + h, r1, h, rest);
    tw_sqrtw(t, r0, h, rest);
    memcpy(out + h, r1, h * sizeof(u64));
    memcpy(out, r0, h * sizeof(u64));
}

void tw_invw(const u64 *a, u64 *out, size_t n, u64 *s)
{
    if (n >= POLL_LIMBS && stopping(n))
        return;
    if (n == 1) {
        out[0] = nk_to_work(nk_inv(nk_from_work(a[0])));
        return;
    }
    size_t h = n / 2;
    u64 *x = s, *p = s + h, *q = s + 2 * h, *r = s + 3 * h, *lo = s + 4 * h, *rest = s + 5 * h;
    xor_into(x, a, a + h, h);                   /* a0 ^ a1 */
    tw_mulw(a, x, p, h, rest);                   /* a0 (x) (a0 ^ a1) */
    tw_squarew(a + h, q, h, rest);               /* a1^2 */
    mul_half(q, r, h, rest);                    /* a1^2 (x) h */
    for (size_t i = 0; i < h; i++)
        p[i] ^= r[i];                           /* the norm N(a), in the subfield */
    tw_invw(p, q, h, rest);                      /* N^-1 */
    tw_mulw(a + h, q, r, h, rest);               /* high half: a1 (x) N^-1 */
    tw_mulw(x, q, lo, h, rest);                  /* low half: (a0 ^ a1) (x) N^-1 */
    memcpy(out + h, r, h * sizeof(u64));
    memcpy(out, lo, h * sizeof(u64));
}

int tw_poww(const u64 *a, const u64 *e, size_t ne, u64 *out, size_t n, u64 *s,
            const nc_poll *poll)
{
    u64 *w = s, *r = s + n, *t = s + 2 * n, *rest = s + 3 * n;
    memcpy(w, a, n * sizeof(u64));
    memset(r, 0, n * sizeof(u64));
    r[0] = nk_to_work(1);
    size_t top = ne * 64;
    while (top > 0 && !(e[(top - 1) / 64] >> ((top - 1) % 64) & 1))
        top--;
    for (size_t bit = 0; bit < top; bit++) {
        /* A poll every bit for fields of 4096 bits and more (a poll is a clock read; one
         * product at the largest size takes half a second). */
        if (n >= 64 && (nc_should_stop(poll) || tower_stopped))
            return NC_STOPPED;
        if (e[bit / 64] >> (bit % 64) & 1) {
            tw_mulw(r, w, t, n, rest);
            memcpy(r, t, n * sizeof(u64));
        }
        if (bit + 1 < top)
            tw_squarew(w, w, n, rest);
    }
    memcpy(out, r, n * sizeof(u64));
    return NC_OK;
}

/* ---- nim basis in and out ---------------------------------------------------------------- */

/* Copies of the operands, converted, in the first 2 n limbs of the scratch. */
static u64 *load_work(const u64 *a, u64 *slot, size_t n)
{
    memcpy(slot, a, n * sizeof(u64));
    tw_to_work(slot, n);
    return slot;
}

/* Runs one public operation under this thread's poll (nested calls keep the outer one's). */
#define UNDER_POLL(poll, call)                                                                 \
    do {                                                                                       \
        const nc_poll *outer_poll = tower_poll;                                                \
        int outer_stopped = tower_stopped;                                                     \
        tower_poll = (poll);                                                                   \
        tower_stopped = 0;                                                                     \
        nk_work_enter();                                                                       \
        call;                                                                                  \
        nk_work_leave();                                                                       \
        status = tower_stopped ? NC_STOPPED : status;                                          \
        tower_poll = outer_poll;                                                               \
        tower_stopped = outer_stopped;                                                         \
    } while (0)

static void mul_in_nim_basis(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *s)
{
    u64 *x = load_work(a, s, n), *y = load_work(b, s + n, n);
    tw_mulw(x, y, out, n, s + 2 * n);
    tw_from_work(out, n);
}

static void div_in_nim_basis(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *s)
{
    u64 *x = load_work(a, s, n), *y = load_work(b, s + n, n);
    tw_invw(y, out, n, s + 2 * n);
    memcpy(y, out, n * sizeof(u64));
    tw_mulw(x, y, out, n, s + 2 * n);
    tw_from_work(out, n);
}

/* The unary operations: square, square root, inverse. */
static void unary_in_nim_basis(void (*op)(const u64 *, u64 *, size_t, u64 *), const u64 *a,
                               u64 *out, size_t n, u64 *s)
{
    op(load_work(a, s, n), out, n, s + 2 * n);
    tw_from_work(out, n);
}

int tw_mul(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *s, const nc_poll *poll)
{
    int status = NC_OK;
    UNDER_POLL(poll, mul_in_nim_basis(a, b, out, n, s));
    return status;
}

int tw_div(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *s, const nc_poll *poll)
{
    int status = NC_OK;
    UNDER_POLL(poll, div_in_nim_basis(a, b, out, n, s));
    return status;
}

int tw_square(const u64 *a, u64 *out, size_t n, u64 *s, const nc_poll *poll)
{
    int status = NC_OK;
    UNDER_POLL(poll, unary_in_nim_basis(tw_squarew, a, out, n, s));
    return status;
}

int tw_sqrt(const u64 *a, u64 *out, size_t n, u64 *s, const nc_poll *poll)
{
    int status = NC_OK;
    UNDER_POLL(poll, unary_in_nim_basis(tw_sqrtw, a, out, n, s));
    return status;
}

int tw_inv(const u64 *a, u64 *out, size_t n, u64 *s, const nc_poll *poll)
{
    int status = NC_OK;
    UNDER_POLL(poll, unary_in_nim_basis(tw_invw, a, out, n, s));
    return status;
}

int tw_pow(const u64 *a, const u64 *e, size_t ne, u64 *out, size_t n, u64 *s,
           const nc_poll *poll)
{
    int status = NC_OK;
    UNDER_POLL(poll, status = tw_poww(load_work(a, s, n), e, ne, out, n, s + 2 * n, poll);
                     tw_from_work(out, n));
    return status;
}
