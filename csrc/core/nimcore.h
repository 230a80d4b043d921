/*
 * nimcore.h -- the arithmetic of the nim field, in plain C99.  Nothing in csrc/core/ includes
 * Python.h; the bindings in csrc/python/ are the only code that knows about Python.
 *
 * Layers (each file implements one):
 *   kernel64.c  products, squares, roots and inverses of nimbers below 2^64,
 *               with a portable table path and a carry-less-multiplication path
 *               (PCLMULQDQ) in a polynomial basis isomorphic to the nim field;
 *               kernel_arrays.c the same over strided arrays and outer products,
 *               kernel_constant.c (and constant_gfni.c) products by one constant.
 *   tower.c     nimbers of any size as arrays of 64-bit limbs, split on the
 *               Fermat tower a = a1*X (+) a0 down to the 64-bit kernel.
 *   linalg.c    Gaussian elimination over the nim field, limbs of any size.
 *   dlog.c      discrete logarithms (Pohlig-Hellman with baby-step giant-step tables).
 * The game engines have their own headers: heap.h, turning.h, frontier/frontier.h, and
 * sparse.h the sparse space both heap engines use.
 *
 * Every entry point takes and returns nimbers in the nim basis (the integers themselves).
 * The kernels' private working basis stays inside this folder (kernel_inline.h).
 */
#ifndef NIMCORE_H
#define NIMCORE_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;

/* ---- status codes and interruption --------------------------------------------------- */

/* What the long computations return: NC_OK, or why they stopped. */
enum { NC_OK = 0, NC_NOMEM = -1, NC_STOPPED = -2, NC_BADARG = -3 };

/* A long computation calls stop(ctx) every few milliseconds of work; a non-zero answer makes
 * it free what it allocated and return NC_STOPPED (the bindings use it for Ctrl-C). */
typedef struct {
    int (*stop)(void *ctx);
    void *ctx;
} nc_poll;

static inline int nc_should_stop(const nc_poll *p)
{
    return p && p->stop && p->stop(p->ctx);
}

/* ---- kernel64.c, kernel_arrays.c: nimbers below 2^64 ---------------------------------- */

/* The kernels: portable tables; PCLMULQDQ; and 256-bit VPCLMULQDQ (with AVX2) for the array
 * loops, which shares the carry-less kernel's polynomial basis. */
enum { NK_PORTABLE = 0, NK_CLMUL = 1, NK_VPCLMUL = 2 };

/* Builds every table (a few hundred microseconds); call once before anything else. */
void nk_init(void);
/* 1 when the CPU can run that kernel. */
int nk_kernel_available(int kernel);
/* Selects the kernel: 0, -1 when the CPU lacks it, -2 while another thread computes in the
 * working basis (a switch then would mix two bases). */
int nk_set_kernel(int kernel);
int nk_get_kernel(void);

u64 nk_mul(u64 a, u64 b);
u64 nk_square(u64 a);
u64 nk_sqrt(u64 a);
u64 nk_inv(u64 a);                  /* a != 0 */
u64 nk_pow(u64 a, u64 e);           /* plain exponent, no reduction; nk_pow(0, 0) == 1 */

/* x (x) x (+) b (x) x = c for b, c < 2^64 (quadratic.c): the roots as 128-bit numbers
 * roots[k] = {high limb, low limb}, increasing; returns their count (1 when b == 0, else 2).
 * nq_init builds its table once, after nk_init. */
void nq_init(void);
int nq_solve_quadratic64(u64 b, u64 c, u64 roots[2][2]);

/* Whole arrays for the ufunc loops, with byte strides.  o[i] = a[i] (x) b[i]; a broadcast
 * operand (stride 0) becomes a linear map, and numpy's reductions (a == o, strides 0) and
 * accumulations (a one element behind o) are chained in the working basis. */
void nk_mul_strided(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb,
                    u64 *o, ptrdiff_t so, size_t n);
/* The same on the subfields GF(2^8) and GF(2^16), by tables. */
void nk_mul_strided8(const uint8_t *a, ptrdiff_t sa, const uint8_t *b, ptrdiff_t sb,
                     uint8_t *o, ptrdiff_t so, size_t n);
void nk_mul_strided16(const uint16_t *a, ptrdiff_t sa, const uint16_t *b, ptrdiff_t sb,
                      uint16_t *o, ptrdiff_t so, size_t n);
/* Outer products of contiguous arrays, o[i * n + j] = a[i] (x) b[j] (o holds m n elements
 * and overlaps neither input): each line of o is a constant times an array. */
void nk_mul_outer(const u64 *a, size_t m, const u64 *b, size_t n, u64 *o);
void nk_mul_outer8(const uint8_t *a, size_t m, const uint8_t *b, size_t n, uint8_t *o);
void nk_mul_outer16(const uint16_t *a, size_t m, const uint16_t *b, size_t n, uint16_t *o);
/* o[i] = a[i]^-1 and o[i] = a[i] (x) b[i]^-1 by batch inversion; no zero divisor allowed
 * (the caller checks).  o may be an input element for element, no other overlap. */
void nk_inv_strided(const u64 *a, ptrdiff_t sa, u64 *o, ptrdiff_t so, size_t n);
void nk_div_strided(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb, u64 *o,
                    ptrdiff_t so, size_t n);

/* The polynomial basis of the carry-less kernel: the powers of alpha, with the minimal
 * polynomial m(t) = t^64 + low of alpha.  The one owner of that basis (field.py reads it). */
u64 nk_poly_generator(void);
u64 nk_poly_modulus_low(void);

/* ---- tower.c: nimbers of any size ------------------------------------------------------- */

/* A nimber of n limbs (n a power of two) is a little-endian array of n u64s; it lies in the
 * field GF(2^(64 n)).  Every operation takes tw_scratch_limbs(n) limbs of scratch; out may
 * alias an input.  Each returns NC_OK, or NC_STOPPED when poll asked it to stop (large
 * fields only: a product of 2^22 bits takes seconds); poll may be NULL. */
size_t tw_scratch_limbs(size_t n);
int tw_is_zero(const u64 *a, size_t n);
int tw_mul(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *scratch, const nc_poll *poll);
int tw_div(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *scratch,
           const nc_poll *poll); /* b != 0 */
int tw_square(const u64 *a, u64 *out, size_t n, u64 *scratch, const nc_poll *poll);
int tw_sqrt(const u64 *a, u64 *out, size_t n, u64 *scratch, const nc_poll *poll);
int tw_inv(const u64 *a, u64 *out, size_t n, u64 *scratch, const nc_poll *poll); /* a != 0 */
/* a^e with e given as ne little-endian limbs. */
int tw_pow(const u64 *a, const u64 *e, size_t ne, u64 *out, size_t n, u64 *scratch,
           const nc_poll *poll);

/* ---- linalg.c ----------------------------------------------------------------------------- */

/* Row-reduces an r x c matrix of n-limb nimbers (row-major) in place to reduced row echelon
 * form.  pivots receives the pivot column of each pivot row; *rank the rank.  det, when not
 * NULL and r == c, receives the determinant (n limbs).  aug, when not NULL, is an r x ac
 * matrix that receives the same row operations.  NC_OK, NC_NOMEM or NC_STOPPED (the matrix
 * is then left in an unspecified state). */
int la_row_reduce(u64 *m, size_t r, size_t c, size_t n, size_t *pivots, size_t *rank, u64 *det,
                  u64 *aug, size_t ac, const nc_poll *poll);
/* Determinant of an r x r matrix (destroys m). */
int la_det(u64 *m, size_t r, size_t n, u64 *det, const nc_poll *poll);
/* out (r x c) = a (r x k) times b (k x c); a and b are left unchanged. */
int la_matmul(u64 *a, u64 *b, u64 *out, size_t r, size_t k, size_t c, size_t n,
              const nc_poll *poll);

/* ---- dlog.c ------------------------------------------------------------------------------- */

/* Pohlig-Hellman tables for logarithms in GF(2^(64 n)): for each of `count` primes p_i of
 * the group order, the generator g_i = g^e_i of the subgroup of order p_i, the cofactor
 * e_i = (2^(64 n) - 1) / p_i and m_i baby steps (p_i < 2^62, 1 <= m_i <= 2^26; memory about
 * 24 bytes a baby step).  gens and exps hold count x n limbs. */
typedef struct dl_group dl_group;
/* NC_OK and *out set, NC_NOMEM, NC_STOPPED, or NC_BADARG for a generator 0 or bad sizes. */
int dl_group_new(size_t n, size_t count, const u64 *primes, const u64 *gens, const u64 *exps,
                 const u64 *baby_steps, dl_group **out, const nc_poll *poll);
void dl_group_free(dl_group *g);
size_t dl_group_limbs(const dl_group *g);
size_t dl_group_count(const dl_group *g);
/* log_g(a) modulo each p_i, into residues[0..count): NC_OK, NC_BADARG when a is 0 or not in
 * the group generated, NC_NOMEM or NC_STOPPED.  Not thread-safe (shared scratch). */
int dl_group_residues(dl_group *g, const u64 *a, int64_t *residues, const nc_poll *poll);

#endif
