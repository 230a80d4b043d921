/*
 * ufunc_loops.c -- the loops of the numpy ufuncs of nimbers (nim_add, nim_mul, nim_div,
 * nim_pow, nim_square, nim_sqrt, nim_inv), registered through NumPy 2's ArrayMethod API by
 * ufuncs.c.
 *
 * The loops validate: a negative entry raises ValueError, a zero divisor ZeroDivisionError,
 * from inside the loop (the GIL is taken only on that error path).  So every caller of the
 * ufunc -- numpy, dask, any library speaking __array_ufunc__ -- gets the same semantics.
 *
 * Loops, for each integer width K (8, 16, 32, 64 bits; values below 2^K lie in the subfield
 * GF(2^K) of GF(2^64), so the 64-bit kernel serves them all and the result fits K bits):
 *   binary  (uK, uK), (iK, iK), (uK, iK), (iK, uK) -> uK   (signed operands checked)
 *   unary   (uK) -> uK, (iK) -> uK
 *   pow     (uK or iK, int64 or uint64 exponent) -> uK
 *   object  Python ints of any size, through the scalar path (ints.c)
 * The mixed-sign loops make reductions over signed arrays exact: the accumulator is unsigned,
 * the elements are read (and checked) as they are.  Promoters pick a loop for any other pair
 * of integer dtypes without an unsafe cast, and for Python ints (NEP 50: they take the
 * array's dtype).  Reductions start from the identity, so every element passes a loop.
 */
#include "bindings.h"
#include "ufunc_loops.h"

#include <string.h>

/* ---- errors from inside a loop (the GIL may be released) ------------------------------- */

static int loop_error(PyObject *type, const char *message)
{
    PyGILState_STATE state = PyGILState_Ensure();
    PyErr_SetString(type, message);
    PyGILState_Release(state);
    return -1;
}

static int negative_entry(long long v)
{
    PyGILState_STATE state = PyGILState_Ensure();
    PyErr_Format(PyExc_ValueError, "nimbers are non-negative integers, got %lld", v);
    PyGILState_Release(state);
    return -1;
}

static int zero_divisor(nim_op op)
{
    return loop_error(PyExc_ZeroDivisionError,
                      op == OP_INV   ? "0 has no nim-inverse (the array holds a 0)"
                      : op == OP_DIV ? "nim-division by 0 (the divisor array holds a 0)"
                                     : "0 has no negative nim-power");
}

/* ---- element operations on values already checked non-negative ------------------------ */

static u64 pow_signed(u64 a, long long k)
{
    if (k >= 0)
        return nk_pow(a, (u64)k);
    /* a^k = (a^-1)^|k|; every non-zero element's order divides 2^64 - 1 */
    u64 m = (u64)(-(k + 1)) + 1; /* |k|, without overflow at INT64_MIN */
    return nk_pow(nk_inv(a), m);
}

/* ---- typed loops ------------------------------------------------------------------------- */

/* The check of an operand: a negative entry of a signed type is an error. */
#define CHECK_i(v)                                                                             \
    do {                                                                                       \
        if ((v) < 0)                                                                           \
            return negative_entry((long long)(v));                                             \
    } while (0)
#define CHECK_u(v) ((void)0)

/* Element operations of the loops, on values already checked non-negative.  A zero divisor
 * leaves the loop with ZeroDivisionError. */
#define ADD_OF(x, y) ((x) ^ (y))
#define MUL_OF(x, y) nk_mul((x), (y))
#define DIV_OF(x, y) nk_mul((x), nk_inv(y))
#define NO_ZERO_CHECK(y, op) ((void)0)
#define ZERO_CHECK(y, op)                                                                      \
    do {                                                                                       \
        if ((y) == 0)                                                                          \
            return zero_divisor(op);                                                           \
    } while (0)

/* One binary loop: operand types TA, TB (signedness SA, SB: i is checked), result TO. */
#define BINARY_LOOP(OPNAME, NAME, TA, TB, TO, SA, SB, OF, DIVISOR_CHECK, OP)                  \
    static int OPNAME##_##NAME(LOOP_PARAMS)                                                    \
    {                                                                                          \
        const char *a = data[0], *b = data[1];                                                 \
        char *o = data[2];                                                                     \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], b += steps[1], o += steps[2]) { \
            TA x = *(const TA *)a;                                                             \
            TB y = *(const TB *)b;                                                             \
            CHECK_##SA(x);                                                                     \
            CHECK_##SB(y);                                                                     \
            DIVISOR_CHECK(y, OP);                                                              \
            *(TO *)o = (TO)OF((u64)(TO)x, (u64)(TO)y);                                         \
        }                                                                                      \
        return 0;                                                                              \
    }

#define BINARY_LOOPS(NAME, TA, TB, TO, SA, SB)                                                 \
    BINARY_LOOP(add, NAME, TA, TB, TO, SA, SB, ADD_OF, NO_ZERO_CHECK, OP_ADD)                  \
    BINARY_LOOP(mul, NAME, TA, TB, TO, SA, SB, MUL_OF, NO_ZERO_CHECK, OP_MUL)                  \
    BINARY_LOOP(div, NAME, TA, TB, TO, SA, SB, DIV_OF, ZERO_CHECK, OP_DIV)

/* Whether an input and the output share memory other than element for element (an
 * accumulation reads the element just written): then the loop must go in order. */
static int overlaps(const char *in, const char *out, npy_intp n, size_t size)
{
    size_t bytes = (size_t)n * size;
    return in != out && in < out + bytes && out < in + bytes;
}

/* The nim-sum of contiguous arrays: a plain XOR the compiler vectorizes; signed operands are
 * checked a block at a time (the OR of a block is negative iff one of its entries is). */
#define ADD_BLOCK 1024
#define SIGN_OR_i(acc, v) ((acc) |= (v))
#define SIGN_OR_u(acc, v) ((void)(v))
/* GCC vectorizes such loops at -O3 only (clang at -O2). */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("O3")))
#else
#define VECTORIZE
#endif
#define ADD_CONTIGUOUS(NAME, TA, TB, TO, SA, SB)                                               \
    VECTORIZE static int add_##NAME##_contig(LOOP_PARAMS)                                      \
    {                                                                                          \
        const TA *restrict a = (const TA *)data[0];                                            \
        const TB *restrict b = (const TB *)data[1];                                            \
        TO *restrict o = (TO *)data[2];                                                        \
        if (overlaps(data[0], data[2], dims[0], sizeof(TO)) ||                                 \
            overlaps(data[1], data[2], dims[0], sizeof(TO)))                                   \
            return add_##NAME(context, data, dims, steps, aux);                                \
        for (npy_intp start = 0; start < dims[0]; start += ADD_BLOCK) {                        \
            npy_intp stop = dims[0] - start < ADD_BLOCK ? dims[0] : start + ADD_BLOCK;         \
            TA sa = 0;                                                                         \
            TB sb = 0;                                                                         \
            (void)sa;                                                                          \
            (void)sb;                                                                          \
            for (npy_intp i = start; i < stop; i++) {                                          \
                SIGN_OR_##SA(sa, a[i]);                                                        \
                SIGN_OR_##SB(sb, b[i]);                                                        \
                o[i] = (TO)((TO)a[i] ^ (TO)b[i]);                                              \
            }                                                                                  \
            if (CHECK_NEG_##SA(sa) || CHECK_NEG_##SB(sb))                                      \
                return add_##NAME(context, data, dims, steps, aux); /* names the entry */      \
        }                                                                                      \
        return 0;                                                                              \
    }
#define CHECK_NEG_i(acc) ((acc) < 0)
#define CHECK_NEG_u(acc) 0

/* One unary loop (square, sqrt, inv); and, below, pow with a signed or unsigned 64-bit
 * exponent. */
#define UNARY_LOOP(OPNAME, NAME, TA, TO, SA, FN, ZERO, OP)                                     \
    static int OPNAME##_##NAME(LOOP_PARAMS)                                                    \
    {                                                                                          \
        const char *a = data[0];                                                               \
        char *o = data[1];                                                                     \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], o += steps[1]) {                 \
            TA x = *(const TA *)a;                                                             \
            CHECK_##SA(x);                                                                     \
            ZERO(x, OP);                                                                       \
            *(TO *)o = (TO)FN((u64)(TO)x);                                                     \
        }                                                                                      \
        return 0;                                                                              \
    }

#define UNARY_LOOPS(NAME, TA, TO, SA)                                                          \
    UNARY_LOOP(square, NAME, TA, TO, SA, nk_square, NO_ZERO_CHECK, OP_SQUARE)                 \
    UNARY_LOOP(sqrt, NAME, TA, TO, SA, nk_sqrt, NO_ZERO_CHECK, OP_SQRT)                       \
    UNARY_LOOP(inv, NAME, TA, TO, SA, nk_inv, ZERO_CHECK, OP_INV)                             \
    static int pow_##NAME##_i(LOOP_PARAMS)                                                     \
    {                                                                                          \
        const char *a = data[0], *k = data[1];                                                 \
        char *o = data[2];                                                                     \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], k += steps[1], o += steps[2]) { \
            TA x = *(const TA *)a;                                                             \
            npy_int64 e = *(const npy_int64 *)k;                                               \
            CHECK_##SA(x);                                                                    \
            if (x == 0 && e < 0)                                                               \
                return zero_divisor(OP_POW);                                                   \
            *(TO *)o = (TO)pow_signed((u64)(TO)x, (long long)e);                               \
        }                                                                                      \
        return 0;                                                                              \
    }                                                                                          \
    static int pow_##NAME##_u(LOOP_PARAMS)                                                     \
    {                                                                                          \
        const char *a = data[0], *k = data[1];                                                 \
        char *o = data[2];                                                                     \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], k += steps[1], o += steps[2]) { \
            TA x = *(const TA *)a;                                                             \
            CHECK_##SA(x);                                                                    \
            *(TO *)o = (TO)nk_pow((u64)(TO)x, (u64) * (const npy_uint64 *)k);                  \
        }                                                                                      \
        return 0;                                                                              \
    }

#define WIDTH_LOOPS(K)                                                                         \
    BINARY_LOOPS(uu##K, npy_uint##K, npy_uint##K, npy_uint##K, u, u)                           \
    BINARY_LOOPS(ii##K, npy_int##K, npy_int##K, npy_uint##K, i, i)                             \
    BINARY_LOOPS(ui##K, npy_uint##K, npy_int##K, npy_uint##K, u, i)                            \
    BINARY_LOOPS(iu##K, npy_int##K, npy_uint##K, npy_uint##K, i, u)                            \
    ADD_CONTIGUOUS(uu##K, npy_uint##K, npy_uint##K, npy_uint##K, u, u)                         \
    ADD_CONTIGUOUS(ii##K, npy_int##K, npy_int##K, npy_uint##K, i, i)                           \
    ADD_CONTIGUOUS(ui##K, npy_uint##K, npy_int##K, npy_uint##K, u, i)                          \
    ADD_CONTIGUOUS(iu##K, npy_int##K, npy_uint##K, npy_uint##K, i, u)                          \
    UNARY_LOOPS(u##K, npy_uint##K, npy_uint##K, u)                                             \
    UNARY_LOOPS(i##K, npy_int##K, npy_uint##K, i)

WIDTH_LOOPS(8)
WIDTH_LOOPS(16)
WIDTH_LOOPS(32)
WIDTH_LOOPS(64)

/* The product of two uint64 arrays goes through the array kernel, which works in blocks and
 * hoists the basis change of a broadcast operand. */
int nb_mul_uu64_blocked(LOOP_PARAMS)
{
    nk_mul_strided((const u64 *)data[0], steps[0], (const u64 *)data[1], steps[1],
                   (u64 *)data[2], steps[2], (size_t)dims[0]);
    return 0;
}

/* Products with a signed 64-bit operand (int64 arrays, and the unsigned accumulator of a
 * reduction over one) go through the same array kernel, a chunk at a time: each chunk's
 * signed operands are checked first (a cheap pass while the chunk sits in cache), so a
 * broadcast constant becomes a linear map and the rest goes in blocks, as for uint64; a chunk
 * holding a negative entry goes to the element loop, which names it. */
#define SIGNED_CHUNK 16384

static int any_negative(const char *p, npy_intp step, npy_intp n)
{
    if (step == 0)
        n = n > 0 ? 1 : 0;
    npy_int64 acc = 0;
    if (step == (npy_intp)sizeof(npy_int64)) {
        const npy_int64 *v = (const npy_int64 *)p;
        for (npy_intp i = 0; i < n; i++)
            acc |= v[i];
    } else {
        for (npy_intp i = 0; i < n; i++)
            acc |= *(const npy_int64 *)(p + i * step);
    }
    return acc < 0;
}

static int mul_signed64_blocked(LOOP_PARAMS, int check_a, int check_b,
                                PyArrayMethod_StridedLoop *element_loop)
{
    for (npy_intp start = 0; start < dims[0]; start += SIGNED_CHUNK) {
        npy_intp len = dims[0] - start < SIGNED_CHUNK ? dims[0] - start : SIGNED_CHUNK;
        char *chunk[3] = {data[0] + start * steps[0], data[1] + start * steps[1],
                          data[2] + start * steps[2]};
        if ((check_a && any_negative(chunk[0], steps[0], len)) ||
            (check_b && any_negative(chunk[1], steps[1], len)))
            return element_loop(context, chunk, &len, steps, aux);
        nk_mul_strided((const u64 *)chunk[0], steps[0], (const u64 *)chunk[1], steps[1],
                       (u64 *)chunk[2], steps[2], (size_t)len);
    }
    return 0;
}

int nb_mul_ii64_blocked(LOOP_PARAMS)
{
    return mul_signed64_blocked(context, data, dims, steps, aux, 1, 1, mul_ii64);
}

int nb_mul_ui64_blocked(LOOP_PARAMS)
{
    return mul_signed64_blocked(context, data, dims, steps, aux, 0, 1, mul_ui64);
}

int nb_mul_iu64_blocked(LOOP_PARAMS)
{
    return mul_signed64_blocked(context, data, dims, steps, aux, 1, 0, mul_iu64);
}

/* The subfields GF(2^8) and GF(2^16) multiply by tables. */
int nb_mul_uu8_table(LOOP_PARAMS)
{
    nk_mul_strided8((const uint8_t *)data[0], steps[0], (const uint8_t *)data[1], steps[1],
                    (uint8_t *)data[2], steps[2], (size_t)dims[0]);
    return 0;
}

int nb_mul_uu16_table(LOOP_PARAMS)
{
    nk_mul_strided16((const uint16_t *)data[0], steps[0], (const uint16_t *)data[1], steps[1],
                     (uint16_t *)data[2], steps[2], (size_t)dims[0]);
    return 0;
}

/* Inverses and quotients of uint64 arrays by batch inversion, once no divisor is 0. */
static int has_zero(const char *p, npy_intp step, npy_intp n)
{
    for (npy_intp i = 0; i < n; i++)
        if (*(const npy_uint64 *)(p + i * step) == 0)
            return 1;
    return 0;
}

int nb_inv_u64_batch(LOOP_PARAMS)
{
    if (has_zero(data[0], steps[0], dims[0]))
        return zero_divisor(OP_INV);
    nk_inv_strided((const u64 *)data[0], steps[0], (u64 *)data[1], steps[1], (size_t)dims[0]);
    return 0;
}

int nb_div_uu64_batch(LOOP_PARAMS)
{
    if (has_zero(data[1], steps[1], dims[0]))
        return zero_divisor(OP_DIV);
    nk_div_strided((const u64 *)data[0], steps[0], (const u64 *)data[1], steps[1],
                   (u64 *)data[2], steps[2], (size_t)dims[0]);
    return 0;
}

/* ---- object loops: Python ints of any size, and Nimbers ------------------------------- */

static int store_object(char *o, PyObject *r)
{
    if (!r)
        return -1;
    PyObject *old = *(PyObject **)o;
    *(PyObject **)o = r;
    Py_XDECREF(old);
    return 0;
}

/* An element of an object array as the core reads it: a numpy integer or bool scalar is
 * the int it holds (as nim_mul(np.uint8(3), 3) reads it), anything else itself (a Python
 * int, a Nimber, or what nb_element then refuses).  A new reference, NULL on error. */
static PyObject *object_element(PyObject *o)
{
    if (PyArray_IsScalar(o, Integer))
        return PyNumber_Index(o);
    if (PyArray_IsScalar(o, Bool))
        return PyLong_FromLong(PyObject_IsTrue(o));
    return Py_NewRef(o);
}

static PyObject *object_result(nim_op op, PyObject *x, PyObject *y)
{
    PyObject *a = object_element(x), *b = y && a ? object_element(y) : NULL;
    PyObject *r = a && (b || !y) ? nb_element(op, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}

#define OBJECT_LOOPS(OP, NAME)                                                                 \
    static int NAME##_object(LOOP_PARAMS)                                                      \
    {                                                                                          \
        int binary = nim_op_arity[OP] == 2;                                                    \
        const char *a = data[0], *b = binary ? data[1] : NULL;                                 \
        char *o = data[binary ? 2 : 1];                                                        \
        npy_intp sa = steps[0], sb = binary ? steps[1] : 0, so = steps[binary ? 2 : 1];        \
        for (npy_intp i = 0; i < dims[0]; i++, a += sa, b += sb, o += so) {                    \
            PyObject *x = *(PyObject *const *)a, *y = binary ? *(PyObject *const *)b : NULL;   \
            if (!x || (binary && !y)) {                                                        \
                PyErr_SetString(PyExc_TypeError, "nimbers are non-negative integers, not NULL"); \
                return -1;                                                                     \
            }                                                                                  \
            if (store_object(o, object_result(OP, x, y)) < 0)                                  \
                return -1;                                                                     \
        }                                                                                      \
        return 0;                                                                              \
    }

OBJECT_LOOPS(OP_ADD, add)
OBJECT_LOOPS(OP_MUL, mul)
OBJECT_LOOPS(OP_DIV, div)
OBJECT_LOOPS(OP_POW, pow)
OBJECT_LOOPS(OP_SQUARE, square)
OBJECT_LOOPS(OP_SQRT, sqrt)
OBJECT_LOOPS(OP_INV, inv)

/* ---- reductions start from the identity ---------------------------------------------- */

static int initial_zero(PyArrayMethod_Context *context, npy_bool empty, void *initial)
{
    (void)empty;
    memset(initial, 0, (size_t)context->descriptors[0]->elsize);
    return 1;
}

static int initial_one(PyArrayMethod_Context *context, npy_bool empty, void *initial)
{
    (void)empty;
    switch (context->descriptors[0]->elsize) {
    case 1: *(npy_uint8 *)initial = 1; break;
    case 2: *(npy_uint16 *)initial = 1; break;
    case 4: *(npy_uint32 *)initial = 1; break;
    default: *(npy_uint64 *)initial = 1; break;
    }
    return 1;
}

static int initial_object(PyArrayMethod_Context *context, npy_bool empty, void *initial,
                          long value)
{
    (void)context;
    (void)empty;
    PyGILState_STATE state = PyGILState_Ensure();
    PyObject *v = PyLong_FromLong(value);
    PyGILState_Release(state);
    if (!v)
        return -1;
    *(PyObject **)initial = v;
    return 1;
}

static int initial_object_zero(PyArrayMethod_Context *c, npy_bool e, void *i)
{
    return initial_object(c, e, i, 0);
}

static int initial_object_one(PyArrayMethod_Context *c, npy_bool e, void *i)
{
    return initial_object(c, e, i, 1);
}

/* ---- the tables of loops ---------------------------------------------------------------- */

#define WIDTH_TABLE(K)                                                                         \
    {{{add_uu##K, add_ii##K, add_ui##K, add_iu##K},                                            \
      {mul_uu##K, mul_ii##K, mul_ui##K, mul_iu##K},                                            \
      {div_uu##K, div_ii##K, div_ui##K, div_iu##K}},                                           \
     {add_uu##K##_contig, add_ii##K##_contig, add_ui##K##_contig, add_iu##K##_contig},         \
     {{square_u##K, square_i##K}, {sqrt_u##K, sqrt_i##K}, {inv_u##K, inv_i##K}},               \
     {{pow_u##K##_i, pow_u##K##_u}, {pow_i##K##_i, pow_i##K##_u}}}

const width_loops nb_loops_by_width[4] = {WIDTH_TABLE(8), WIDTH_TABLE(16), WIDTH_TABLE(32),
                                              WIDTH_TABLE(64)};

loop_fn *const nb_object_loops[OP_COUNT] = {add_object,    mul_object,  div_object,
                                                pow_object,    square_object, sqrt_object,
                                                inv_object};

PyArrayMethod_GetReductionInitial *nb_identity_of(nim_op op, int object)
{
    if (op == OP_ADD)
        return object ? initial_object_zero : initial_zero;
    if (op == OP_MUL)
        return object ? initial_object_one : initial_one;
    return NULL;
}
