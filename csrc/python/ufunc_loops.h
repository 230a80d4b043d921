/*
 * ufunc_loops.h -- the strided loops of the nimbers ufuncs (ufunc_loops.c), as tables for their
 * registration (ufuncs.c).  numpy's C API comes through numpy_api.h.
 */
#ifndef NIMBERS_UFUNC_LOOPS_H
#define NIMBERS_UFUNC_LOOPS_H

#include "numpy_api.h"

#define LOOP_PARAMS                                                                            \
    PyArrayMethod_Context *context, char *const data[], const npy_intp dims[],                \
        const npy_intp steps[], NpyAuxData *aux

typedef PyArrayMethod_StridedLoop loop_fn;

/* The loops of one width: [op][pair], pairs uu, ii, ui, iu for binary operations; u, i for
 * unary ones and for pow (with [0] the int64 exponent, [1] the uint64 one). */
typedef struct {
    loop_fn *binary[3][4];   /* add, mul, div */
    loop_fn *add_contiguous[4];
    loop_fn *unary[3][2];    /* square, sqrt, inv */
    loop_fn *pow[2][2];      /* [u or i][int64 or uint64 exponent] */
} width_loops;

/* The loops of each width (8, 16, 32, 64 bits), of the object dtype by operation, and the
 * identities reductions start from (NULL: none). */
extern const width_loops nb_loops_by_width[4];
extern loop_fn *const nb_object_loops[OP_COUNT];
PyArrayMethod_GetReductionInitial *nb_identity_of(nim_op op, int object);

/* The faster loops that replace some of the table's: products by tables (8 and 16 bits), in
 * blocks (64 bits), batch inversion and division. */
int nb_mul_uu8_table(LOOP_PARAMS);
int nb_mul_uu16_table(LOOP_PARAMS);
int nb_mul_uu64_blocked(LOOP_PARAMS);
int nb_mul_ii64_blocked(LOOP_PARAMS);
int nb_mul_ui64_blocked(LOOP_PARAMS);
int nb_mul_iu64_blocked(LOOP_PARAMS);
int nb_div_uu64_batch(LOOP_PARAMS);
int nb_inv_u64_batch(LOOP_PARAMS);

#endif
