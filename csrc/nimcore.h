/*
 * nimcore.h -- the arithmetic of the nim field, in plain C99.
 *
 * Layers (each file implements one):
 *   kernel64.c  products, squares, roots and inverses of nimbers below 2^64,
 *               with a portable table path and a carry-less-multiplication path
 *               (PCLMULQDQ) in a polynomial basis isomorphic to the nim field.
 *   tower.c     nimbers of any size as arrays of 64-bit limbs, split on the
 *               Fermat tower a = a1*X (+) a0 down to the 64-bit kernel.
 *   linalg.c    Gaussian elimination over the nim field, limbs of any size.
 *   heap.c      Grundy values of take-and-break heap games.
 *   turning.c   Grundy values of structured coin-turning games.
 *   dlog.c      discrete logarithms (baby-step giant-step tables).
 * module.c and ufuncs.c bind these to Python and numpy; nothing here needs Python.
 */
#ifndef NIMCORE_H
#define NIMCORE_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;

/* ---- kernel64.c ------------------------------------------------------- */

enum { NK_PORTABLE = 0, NK_CLMUL = 1 };

/* Builds every table (a few hundred microseconds); call once before anything else. */
void nk_init(void);
/* 1 when the CPU can run the carry-less path. */
int nk_clmul_available(void);
/* Selects the kernel; returns -1 when the CPU lacks it. */
int nk_set_kernel(int kernel);
int nk_get_kernel(void);

/* The "working basis" is the basis in which the selected kernel multiplies: the nim basis
 * itself for the portable kernel, the polynomial basis for the carry-less one.  Both maps are
 * GF(2)-linear, so nim-sums (XOR) are the same in both bases: code that chains many products
 * converts once on the way in and once on the way out. */
u64 nk_to_work(u64 a);
u64 nk_from_work(u64 a);
u64 nk_mul_work(u64 a, u64 b);      /* product of two values in the working basis */

/* Nim basis in, nim basis out. */
u64 nk_mul(u64 a, u64 b);
u64 nk_square(u64 a);
u64 nk_sqrt(u64 a);
u64 nk_inv(u64 a);                  /* a != 0 */
u64 nk_pow(u64 a, u64 e);           /* plain exponent, no reduction; nk_pow(0, 0) == 1 */

/* The portable kernel, always available (tests compare the two paths). */
u64 nk_mul_portable(u64 a, u64 b);

/* Whole-array products for the ufunc loops: o[i] = a[i] (x) b[i] with byte strides. */
void nk_mul_strided(const u64 *a, ptrdiff_t sa, const u64 *b, ptrdiff_t sb,
                    u64 *o, ptrdiff_t so, size_t n);

/* Polynomial-basis facts, for tests and documentation. */
u64 nk_poly_modulus_low(void);      /* m(t) = t^64 + this */
u64 nk_poly_generator(void);        /* alpha, whose powers form the basis */

/* ---- tower.c ------------------------------------------------------------ */

/* A nimber of n limbs (n a power of two) is a little-endian array of n u64s; it lies in the
 * field GF(2^(64 n)).  Scratch space: tw_scratch_limbs(n) limbs. */
size_t tw_scratch_limbs(size_t n);
void tw_to_work(u64 *a, size_t n);
void tw_from_work(u64 *a, size_t n);
/* Working-basis operations (see above); out may not alias inputs unless stated. */
void tw_mul(const u64 *a, const u64 *b, u64 *out, size_t n, u64 *scratch);
void tw_square(const u64 *a, u64 *out, size_t n, u64 *scratch);  /* out may alias a */
void tw_sqrt(const u64 *a, u64 *out, size_t n, u64 *scratch);    /* out may alias a */
void tw_inv(const u64 *a, u64 *out, size_t n, u64 *scratch);     /* a != 0 */
/* a^e with e given as ne little-endian limbs. */
void tw_pow(const u64 *a, const u64 *e, size_t ne, u64 *out, size_t n, u64 *scratch);
int tw_is_zero(const u64 *a, size_t n);

/* ---- linalg.c ----------------------------------------------------------- */

/* Row-reduces an r x c matrix of n-limb nimbers (row-major, in the working basis) in place
 * to reduced row echelon form.  pivots receives the pivot column of each pivot row; the
 * return value is the rank.  det, when not NULL and r == c, receives the determinant (n limbs).
 * aug, when not NULL, is an r x ac matrix that receives the same row operations. */
size_t la_row_reduce(u64 *m, size_t r, size_t c, size_t n, size_t *pivots, u64 *det,
                     u64 *aug, size_t ac);
/* Determinant of an r x r matrix (destroys m).  These return 0, or -1 when out of memory
 * (la_row_reduce then returns (size_t)-1). */
int la_det(u64 *m, size_t r, size_t n, u64 *det);
/* out (r x c) = a (r x k) times b (k x c). */
int la_matmul(const u64 *a, const u64 *b, u64 *out, size_t r, size_t k, size_t c, size_t n);

/* ---- heap.c ------------------------------------------------------------- */

/* Extends the Grundy values g[0..start) of a take-and-break game to g[0..stop).  rules[k]
 * (k < nrules) is the set of heap counts (bit j: j heaps, j <= 3) allowed after removing k
 * tokens; rules[0] must not allow 1 heap (a null move).  0, or -1 when out of memory. */
int hp_take_break(const unsigned *rules, size_t nrules, uint32_t *g, size_t start, size_t stop);
/* The same for Grundy's game: split a heap into two unequal non-empty heaps. */
int hp_grundy_game(uint32_t *g, size_t start, size_t stop);

/* ---- turning.c ---------------------------------------------------------- */

enum { TG_CONSECUTIVE = 0, TG_PROGRESSION = 1 };
/* Extends the Grundy values g[0..start) of a coin-turning game to g[0..stop): a move turns
 * between lo and hi coins (hi may be SIZE_MAX) ending at the head x, either consecutive or
 * in arithmetic progression.  0, or -1 when out of memory. */
int tg_values(int family, size_t lo, size_t hi, uint64_t *g, size_t start, size_t stop);

/* ---- dlog.c -------------------------------------------------------------- */

/* Baby-step giant-step tables for the subgroup of prime order p generated by g (n limbs,
 * working basis), with m baby steps (p < 2^63, m < 2^32). */
typedef struct dl_table dl_table;
dl_table *dl_new(const u64 *g, size_t n, u64 p, u64 m);
void dl_free(dl_table *t);
/* x in [0, p) with g^x = h, or -1 when h is not in the subgroup.  Not thread-safe. */
int64_t dl_log(dl_table *t, const u64 *h);

#endif
