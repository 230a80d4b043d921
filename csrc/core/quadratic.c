/*
 * quadratic.c -- x (x) x (+) b (x) x = c for b, c below 2^64, in one call (field.py's
 * solve_quadratic takes this path for such operands and keeps the general one).
 *
 * With x = b (x) y (b != 0) the equation becomes Artin-Schreier's y (x) y (+) y = d, with
 * d = c / b^2.  The map y -> y^2 + y is GF(2)-linear (squaring is the Frobenius map) with
 * kernel {0, 1}, so a preimage map S, found once by Gauss-Jordan elimination over the images
 * of the 64 basis vectors, solves it with eight byte-table lookups whenever d has a root in
 * GF(2^64) (trace 0).  Otherwise the roots lie one field up, GF(2^128) with X = 2^64,
 * X (x) X = X + h, h = 2^63: y = X + y0 with y0^2 + y0 = d + h (the upper half y1 solves
 * y1^2 + y1 = 0, and y1 = 0 leaves d itself, which has no root).  Then b (x) X is b X (b is
 * below X) and the roots are b X + b (x) y0 and that plus b.
 */
#include "kernel_inline.h"

static NK_ALIGN64 nk_lintab preimage;

/* Builds S (at start-up, after the kernel's tables: nk_square must work). */
void nq_init(void)
{
    /* pivots[p]: an image with highest bit p, reduced so that no other pivot's image has bit
     * p, and the preimage it came from */
    u64 image_of[64], pre_of[64];
    int has[64] = {0};
    for (int i = 0; i < 64; i++) {
        u64 bit = (u64)1 << i, image = nk_square(bit) ^ bit, pre = bit;
        for (int p = 0; p < 64; p++)
            if (has[p] && (image >> p & 1))
                image ^= image_of[p], pre ^= pre_of[p];
        if (!image)
            continue; /* the kernel {0, 1}: bit 0 */
        int p = 63;
        while (!(image >> p & 1))
            p--;
        for (int q = 0; q < 64; q++)
            if (has[q] && (image_of[q] >> p & 1))
                image_of[q] ^= image, pre_of[q] ^= pre;
        has[p] = 1, image_of[p] = image, pre_of[p] = pre;
    }
    /* S sends bit j of d to the preimage of the pivot at j (0 where there is none: such d
     * have no root here, which the caller checks) */
    for (int j = 0; j < 8; j++)
        for (unsigned v = 0; v < 256; v++) {
            u64 s = 0;
            for (int b = 0; b < 8; b++)
                if (v >> b & 1 && has[8 * j + b])
                    s ^= pre_of[8 * j + b];
            preimage[j][v] = s;
        }
}

/* A root y < 2^64 of y^2 + y = d, or 0 with *found = 0 (0 is a root only of d = 0). */
static u64 artin_schreier64(u64 d, int *found)
{
    u64 y = nk_apply_linear((const u64(*)[256])preimage, d);
    *found = (nk_square(y) ^ y) == d;
    return y;
}

int nq_solve_quadratic64(u64 b, u64 c, u64 roots[2][2])
{
    if (b == 0) { /* squaring is a bijection: one root */
        roots[0][0] = 0, roots[0][1] = nk_sqrt(c);
        return 1;
    }
    u64 d = nk_mul(c, nk_inv(nk_square(b)));
    int found;
    u64 y = artin_schreier64(d, &found), hi = 0, lo;
    if (found) {
        lo = nk_mul(b, y);
    } else {
        y = artin_schreier64(d ^ ((u64)1 << 63), &found); /* always found: trace(h) = 1 */
        hi = b, lo = nk_mul(b, y);
    }
    /* the two roots differ by b: low halves lo and lo ^ b, the smaller first */
    u64 other = lo ^ b;
    roots[0][0] = roots[1][0] = hi;
    roots[0][1] = lo < other ? lo : other;
    roots[1][1] = lo < other ? other : lo;
    return found ? 2 : -1;
}
