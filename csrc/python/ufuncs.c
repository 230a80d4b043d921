/*
 * ufuncs.c -- the numpy ufuncs of nimbers (nim_add, nim_mul, nim_div, nim_pow, nim_square,
 * nim_sqrt, nim_inv), with their loops registered through NumPy 2's ArrayMethod API.
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

#include <string.h>

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NPY_TARGET_VERSION NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/dtype_api.h>
#include <numpy/ufuncobject.h>

#define LOOP_PARAMS                                                                            \
    PyArrayMethod_Context *context, char *const data[], const npy_intp dims[],                \
        const npy_intp steps[], NpyAuxData *aux

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
static int mul_uu64_blocked(LOOP_PARAMS)
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

static int mul_ii64_blocked(LOOP_PARAMS)
{
    return mul_signed64_blocked(context, data, dims, steps, aux, 1, 1, mul_ii64);
}

static int mul_ui64_blocked(LOOP_PARAMS)
{
    return mul_signed64_blocked(context, data, dims, steps, aux, 0, 1, mul_ui64);
}

static int mul_iu64_blocked(LOOP_PARAMS)
{
    return mul_signed64_blocked(context, data, dims, steps, aux, 1, 0, mul_iu64);
}

/* The subfields GF(2^8) and GF(2^16) multiply by tables. */
static int mul_uu8_table(LOOP_PARAMS)
{
    nk_mul_strided8((const uint8_t *)data[0], steps[0], (const uint8_t *)data[1], steps[1],
                    (uint8_t *)data[2], steps[2], (size_t)dims[0]);
    return 0;
}

static int mul_uu16_table(LOOP_PARAMS)
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

static int inv_u64_batch(LOOP_PARAMS)
{
    if (has_zero(data[0], steps[0], dims[0]))
        return zero_divisor(OP_INV);
    nk_inv_strided((const u64 *)data[0], steps[0], (u64 *)data[1], steps[1], (size_t)dims[0]);
    return 0;
}

static int div_uu64_batch(LOOP_PARAMS)
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

/* ---- registration ------------------------------------------------------------------------ */

typedef PyArrayMethod_StridedLoop loop_fn;

/* The loops of one width: [op][pair], pairs uu, ii, ui, iu for binary operations; u, i for
 * unary ones and for pow (with [0] the int64 exponent, [1] the uint64 one). */
typedef struct {
    loop_fn *binary[3][4];   /* add, mul, div */
    loop_fn *add_contiguous[4];
    loop_fn *unary[3][2];    /* square, sqrt, inv */
    loop_fn *pow[2][2];      /* [u or i][int64 or uint64 exponent] */
} width_loops;

#define WIDTH_TABLE(K)                                                                         \
    {{{add_uu##K, add_ii##K, add_ui##K, add_iu##K},                                            \
      {mul_uu##K, mul_ii##K, mul_ui##K, mul_iu##K},                                            \
      {div_uu##K, div_ii##K, div_ui##K, div_iu##K}},                                           \
     {add_uu##K##_contig, add_ii##K##_contig, add_ui##K##_contig, add_iu##K##_contig},         \
     {{square_u##K, square_i##K}, {sqrt_u##K, sqrt_i##K}, {inv_u##K, inv_i##K}},               \
     {{pow_u##K##_i, pow_u##K##_u}, {pow_i##K##_i, pow_i##K##_u}}}

static const width_loops loops_by_width[4] = {WIDTH_TABLE(8), WIDTH_TABLE(16), WIDTH_TABLE(32),
                                              WIDTH_TABLE(64)};

static int width_index(int itemsize)
{
    return itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : 3;
}

/* The C integer types numpy has a DType for: the same width may appear twice (long and long
 * long are both 64 bits on LP64 systems), and arrays of either may arrive. */
#define NUM_INT_TYPES 5
static const int unsigned_types[NUM_INT_TYPES] = {NPY_UBYTE, NPY_USHORT, NPY_UINT, NPY_ULONG,
                                                  NPY_ULONGLONG};
static const int signed_types[NUM_INT_TYPES] = {NPY_BYTE, NPY_SHORT, NPY_INT, NPY_LONG,
                                                NPY_LONGLONG};

static PyArray_DTypeMeta *dtype_of(int typenum)
{
    PyArray_Descr *d = PyArray_DescrFromType(typenum);
    if (!d)
        return NULL;
    PyArray_DTypeMeta *meta = NPY_DTYPE(d);
    Py_DECREF(d); /* the DType class lives as long as numpy */
    return meta;
}

static int add_loop(PyObject *ufunc, const char *name, int nin, PyArray_DTypeMeta **dtypes,
                    loop_fn *loop, loop_fn *contiguous,
                    PyArrayMethod_GetReductionInitial *initial, int flags)
{
    PyType_Slot slots[4] = {{NPY_METH_strided_loop, (void *)loop}, {0, NULL}, {0, NULL},
                            {0, NULL}};
    int n = 1;
    if (initial)
        slots[n++] = (PyType_Slot){NPY_METH_get_reduction_initial, (void *)initial};
    if (contiguous)
        slots[n++] = (PyType_Slot){NPY_METH_contiguous_loop, (void *)contiguous};
    PyArrayMethod_Spec spec = {
        .name = name,
        .nin = nin,
        .nout = 1,
        .casting = NPY_NO_CASTING,
        .flags = (NPY_ARRAYMETHOD_FLAGS)flags,
        .dtypes = dtypes,
        .slots = slots,
    };
    return PyUFunc_AddLoopFromSpec(ufunc, &spec);
}

static PyArrayMethod_GetReductionInitial *identity_of(nim_op op, int object)
{
    if (op == OP_ADD)
        return object ? initial_object_zero : initial_zero;
    if (op == OP_MUL)
        return object ? initial_object_one : initial_one;
    return NULL;
}

/* The field's sum and product are associative and commutative: a reduction may run over
 * several axes at once, in any order. */
static int reorderable(nim_op op)
{
    return op == OP_ADD || op == OP_MUL ? NPY_METH_IS_REORDERABLE : 0;
}

static int add_binary_loops(PyObject *ufunc, nim_op op, int which)
{
    for (int t = 0; t < NUM_INT_TYPES; t++) {
        PyArray_DTypeMeta *u = dtype_of(unsigned_types[t]), *s = dtype_of(signed_types[t]);
        if (!u || !s)
            return -1;
        const width_loops *w = &loops_by_width[width_index(u->singleton->elsize)];
        PyArray_DTypeMeta *pairs[4][3] = {{u, u, u}, {s, s, u}, {u, s, u}, {s, u, u}};
        for (int p = 0; p < 4; p++) {
            loop_fn *loop = w->binary[which][p];
            int size = u->singleton->elsize;
            if (op == OP_MUL && p == 0)
                loop = size == 1 ? mul_uu8_table : size == 2 ? mul_uu16_table
                       : size == 8 ? mul_uu64_blocked : loop;
            if (op == OP_MUL && p > 0 && size == 8)
                loop = p == 1 ? mul_ii64_blocked : p == 2 ? mul_ui64_blocked : mul_iu64_blocked;
            if (op == OP_DIV && p == 0 && size == 8)
                loop = div_uu64_batch;
            loop_fn *contiguous = op == OP_ADD ? w->add_contiguous[p] : NULL;
            if (add_loop(ufunc, nim_op_names[op], 2, pairs[p], loop, contiguous, identity_of(op, 0),
                         NPY_METH_NO_FLOATINGPOINT_ERRORS | reorderable(op)) < 0)
                return -1;
        }
    }
    return 0;
}

static int add_unary_loops(PyObject *ufunc, nim_op op, int which)
{
    for (int t = 0; t < NUM_INT_TYPES; t++) {
        PyArray_DTypeMeta *u = dtype_of(unsigned_types[t]), *s = dtype_of(signed_types[t]);
        if (!u || !s)
            return -1;
        const width_loops *w = &loops_by_width[width_index(u->singleton->elsize)];
        PyArray_DTypeMeta *pairs[2][2] = {{u, u}, {s, u}};
        for (int p = 0; p < 2; p++) {
            loop_fn *loop = w->unary[which][p];
            if (op == OP_INV && p == 0 && u->singleton->elsize == 8)
                loop = inv_u64_batch;
            if (add_loop(ufunc, nim_op_names[op], 1, pairs[p], loop, NULL, NULL,
                         NPY_METH_NO_FLOATINGPOINT_ERRORS) < 0)
                return -1;
        }
    }
    return 0;
}

static int add_pow_loops(PyObject *ufunc)
{
    PyArray_DTypeMeta *i64 = dtype_of(NPY_INT64), *u64t = dtype_of(NPY_UINT64);
    if (!i64 || !u64t)
        return -1;
    for (int t = 0; t < NUM_INT_TYPES; t++) {
        PyArray_DTypeMeta *u = dtype_of(unsigned_types[t]), *s = dtype_of(signed_types[t]);
        if (!u || !s)
            return -1;
        const width_loops *w = &loops_by_width[width_index(u->singleton->elsize)];
        PyArray_DTypeMeta *bases[2] = {u, s}, *exps[2] = {i64, u64t};
        for (int b = 0; b < 2; b++)
            for (int e = 0; e < 2; e++) {
                PyArray_DTypeMeta *dtypes[3] = {bases[b], exps[e], u};
                if (add_loop(ufunc, "pow", 2, dtypes, w->pow[b][e], NULL, NULL,
                             NPY_METH_NO_FLOATINGPOINT_ERRORS) < 0)
                    return -1;
            }
    }
    return 0;
}

static loop_fn *const object_loops[OP_COUNT] = {add_object,    mul_object,  div_object,
                                                pow_object,    square_object, sqrt_object,
                                                inv_object};

static int add_object_loop(PyObject *ufunc, nim_op op)
{
    PyArray_DTypeMeta *o = dtype_of(NPY_OBJECT);
    if (!o)
        return -1;
    PyArray_DTypeMeta *dtypes[3] = {o, o, o};
    return add_loop(ufunc, nim_op_names[op], nim_op_arity[op], dtypes, object_loops[op], NULL,
                    identity_of(op, 1), NPY_METH_REQUIRES_PYAPI | reorderable(op));
}

/* ---- promotion ---------------------------------------------------------------------------- */

/* A concrete integer DType (not the abstract one of Python ints): its width and sign. */
static int concrete_int(PyArray_DTypeMeta *d, int *itemsize, int *is_signed)
{
    if (!d || !d->singleton) /* abstract DTypes (Python ints) have no instance */
        return 0;
    char kind = d->singleton->kind;
    if (kind == 'b') { /* booleans are the nimbers 0 and 1 */
        *itemsize = 1;
        *is_signed = 0;
        return 1;
    }
    if (kind != 'u' && kind != 'i')
        return 0;
    *itemsize = d->singleton->elsize;
    *is_signed = kind == 'i';
    return 1;
}

static PyArray_DTypeMeta *int_dtype(int itemsize, int is_signed)
{
    static const int u[4] = {NPY_UINT8, NPY_UINT16, NPY_UINT32, NPY_UINT64};
    static const int s[4] = {NPY_INT8, NPY_INT16, NPY_INT32, NPY_INT64};
    int w = width_index(itemsize);
    return dtype_of(is_signed ? s[w] : u[w]);
}

static void set_new(PyArray_DTypeMeta *new_op_dtypes[], int i, PyArray_DTypeMeta *d)
{
    Py_INCREF(d);
    new_op_dtypes[i] = d;
}

/* Two integer operands (either may be a Python int, whose DType is abstract): the loop of
 * the wider width that reads each operand with its own sign, so no cast can wrap a value.
 * A Python int takes the other operand's dtype (NEP 50); two Python ints take int64. */
static int promote_binary(PyObject *ufunc, PyArray_DTypeMeta *const op_dtypes[],
                          PyArray_DTypeMeta *const signature[], PyArray_DTypeMeta *new_op_dtypes[])
{
    (void)ufunc;
    int size[2] = {0, 0}, sign[2] = {0, 0}, known[2];
    for (int i = 0; i < 2; i++)
        known[i] = concrete_int(op_dtypes[i], &size[i], &sign[i]);
    if (!known[0] && !known[1]) {
        size[0] = size[1] = 8;
        sign[0] = sign[1] = 1;
    } else if (!known[0]) {
        size[0] = size[1];
        sign[0] = sign[1];
    } else if (!known[1]) {
        size[1] = size[0];
        sign[1] = sign[0];
    }
    int width = size[0] > size[1] ? size[0] : size[1], out_size, out_signed;
    if (concrete_int(signature[2], &out_size, &out_signed) && out_size > width)
        width = out_size; /* dtype=uint64 asked for: the inputs are widened to it */
    for (int i = 0; i < 2; i++)
        set_new(new_op_dtypes, i, signature[i] ? signature[i] : int_dtype(width, sign[i]));
    set_new(new_op_dtypes, 2, signature[2] ? signature[2] : int_dtype(width, 0));
    return 0;
}

/* pow: the base as above; the exponent int64, or uint64 when it is a uint64 array. */
static int promote_pow(PyObject *ufunc, PyArray_DTypeMeta *const op_dtypes[],
                       PyArray_DTypeMeta *const signature[], PyArray_DTypeMeta *new_op_dtypes[])
{
    (void)ufunc;
    int size = 8, sign = 1, esize, esign, out_size, out_signed;
    concrete_int(op_dtypes[0], &size, &sign);
    if (concrete_int(signature[2], &out_size, &out_signed) && out_size > size)
        size = out_size;
    int unsigned_exponent = concrete_int(op_dtypes[1], &esize, &esign) && !esign && esize == 8;
    set_new(new_op_dtypes, 0, signature[0] ? signature[0] : int_dtype(size, sign));
    set_new(new_op_dtypes, 1, signature[1] ? signature[1] : int_dtype(8, !unsigned_exponent));
    set_new(new_op_dtypes, 2, signature[2] ? signature[2] : int_dtype(size, 0));
    return 0;
}

/* A boolean array is an array of the nimbers 0 and 1: uint8. */
static int promote_unary(PyObject *ufunc, PyArray_DTypeMeta *const op_dtypes[],
                         PyArray_DTypeMeta *const signature[], PyArray_DTypeMeta *new_op_dtypes[])
{
    (void)ufunc;
    (void)op_dtypes;
    set_new(new_op_dtypes, 0, signature[0] ? signature[0] : int_dtype(1, 0));
    set_new(new_op_dtypes, 1, signature[1] ? signature[1] : int_dtype(1, 0));
    return 0;
}

/* An object operand makes the whole call an object call (ints of any size). */
static int promote_object(PyObject *ufunc, PyArray_DTypeMeta *const op_dtypes[],
                          PyArray_DTypeMeta *const signature[], PyArray_DTypeMeta *new_op_dtypes[])
{
    int nargs = ((PyUFuncObject *)ufunc)->nargs;
    PyArray_DTypeMeta *o = dtype_of(NPY_OBJECT);
    (void)op_dtypes;
    for (int i = 0; i < nargs; i++)
        set_new(new_op_dtypes, i, signature[i] ? signature[i] : o);
    return 0;
}

/* A float or complex operand has no loop: say so in the words of the rest of nimbers
 * (numpy's own message would name DType classes and the loops it did not find). */
static int refuse_inexact(PyObject *ufunc, PyArray_DTypeMeta *const op_dtypes[],
                          PyArray_DTypeMeta *const signature[], PyArray_DTypeMeta *new_op_dtypes[])
{
    (void)signature;
    (void)new_op_dtypes;
    int nin = ((PyUFuncObject *)ufunc)->nin;
    for (int i = 0; i < nin; i++) {
        PyArray_DTypeMeta *d = op_dtypes[i];
        if (d && (PyObject_IsSubclass((PyObject *)d, (PyObject *)&PyArray_FloatAbstractDType) > 0 ||
                  PyObject_IsSubclass((PyObject *)d, (PyObject *)&PyArray_ComplexAbstractDType) > 0)) {
            PyObject *name = d->singleton ? PyObject_Str((PyObject *)d->singleton) : NULL;
            if (name) {
                PyErr_Format(PyExc_TypeError, "nim arithmetic takes integers, not %U", name);
                Py_DECREF(name);
            } else {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "nim arithmetic takes integers, not floats");
            }
            return -1;
        }
    }
    PyErr_SetString(PyExc_TypeError, "nim arithmetic takes integers");
    return -1;
}

static int add_promoter(PyObject *ufunc, PyArray_DTypeMeta **dtypes, int n, void *fn)
{
    PyObject *tuple = PyTuple_New(n);
    if (!tuple)
        return -1;
    for (int i = 0; i < n; i++) {
        PyObject *d = dtypes[i] ? (PyObject *)dtypes[i] : Py_None;
        Py_INCREF(d);
        PyTuple_SET_ITEM(tuple, i, d);
    }
    PyObject *capsule = PyCapsule_New(fn, "numpy._ufunc_promoter", NULL);
    int status = capsule ? PyUFunc_AddPromoter(ufunc, tuple, capsule) : -1;
    Py_XDECREF(capsule);
    Py_DECREF(tuple);
    return status;
}

/* The refusals of float and complex operands: beside anything, and (so that no two
 * promoters match a call equally well) beside each other and beside objects. */
static int add_refusals(PyObject *ufunc, int nin)
{
    PyArray_DTypeMeta *inexact[2] = {&PyArray_FloatAbstractDType, &PyArray_ComplexAbstractDType};
    /* numpy compares a call's candidates in the order they were registered: the most
     * specific pairs first, "beside anything" (NULL) last */
    PyArray_DTypeMeta *others[3] = {dtype_of(NPY_OBJECT), NULL, NULL};
    for (int k = 0; k < 2; k++) {
        if (nin == 1) {
            PyArray_DTypeMeta *dtypes[2] = {inexact[k], NULL};
            if (add_promoter(ufunc, dtypes, 2, (void *)refuse_inexact) < 0)
                return -1;
            continue;
        }
        others[1] = k == 0 ? inexact[1] : NULL; /* float beside complex: registered once */
        for (int j = -1; j < 3; j++) {
            if (j == 1 && !others[1])
                continue;
            PyArray_DTypeMeta *beside = j < 0 ? inexact[k] : others[j];
            PyArray_DTypeMeta *left[3] = {inexact[k], beside, NULL};
            PyArray_DTypeMeta *right[3] = {beside, inexact[k], NULL};
            if (add_promoter(ufunc, left, 3, (void *)refuse_inexact) < 0 ||
                (beside != inexact[k] && add_promoter(ufunc, right, 3, (void *)refuse_inexact) < 0))
                return -1;
        }
    }
    return 0;
}

static int add_promoters(PyObject *ufunc, nim_op op)
{
    PyArray_DTypeMeta *anyint = &PyArray_IntAbstractDType, *o = dtype_of(NPY_OBJECT);
    PyArray_DTypeMeta *b = dtype_of(NPY_BOOL);
    if (add_refusals(ufunc, nim_op_arity[op]) < 0)
        return -1;
    if (nim_op_arity[op] == 1) {
        PyArray_DTypeMeta *obj[2] = {o, NULL}, *boolean[2] = {b, NULL};
        if (add_promoter(ufunc, obj, 2, (void *)promote_object) < 0 ||
            add_promoter(ufunc, boolean, 2, (void *)promote_unary) < 0)
            return -1;
        return 0;
    }
    void *fn = op == OP_POW ? (void *)promote_pow : (void *)promote_binary;
    PyArray_DTypeMeta *pairs[4][3] = {{anyint, anyint, NULL}, {b, anyint, NULL},
                                      {anyint, b, NULL}, {b, b, NULL}};
    for (int i = 0; i < 4; i++)
        if (add_promoter(ufunc, pairs[i], 3, fn) < 0)
            return -1;
    PyArray_DTypeMeta *left[3] = {o, NULL, NULL}, *right[3] = {NULL, o, NULL};
    if (add_promoter(ufunc, left, 3, (void *)promote_object) < 0 ||
        add_promoter(ufunc, right, 3, (void *)promote_object) < 0)
        return -1;
    return 0;
}

/* ---- for nimop.c ---------------------------------------------------------------------------- */

int nb_is_numpy(PyObject *o)
{
    return PyArray_Check(o) || PyArray_IsScalar(o, Generic);
}

/* ---- nim_mul.outer of unsigned arrays -------------------------------------------------- */

/* numpy runs ufunc.outer as a broadcast product, and its iterator copies short rows of the
 * broadcast operands into buffers (numpy 2.3 on), so the loop never sees the constant of a
 * row.  The product of a uint8, uint16 or uint64 array by another of its dtype goes here
 * instead: each row (or column) of the result is a constant times an array. */

/* A C-contiguous, aligned copy or view of an exact ndarray of typenum in the machine's byte
 * order; NULL (no error set) for anything else. */
static PyArrayObject *plain_operand(PyObject *x, int typenum)
{
    if (!PyArray_CheckExact(x) || PyArray_TYPE((PyArrayObject *)x) != typenum ||
        !PyArray_ISNOTSWAPPED((PyArrayObject *)x))
        return NULL;
    return (PyArrayObject *)PyArray_FromAny(x, NULL, 0, 0, NPY_ARRAY_CARRAY_RO, NULL);
}

/* The shape of the outer product, a's dimensions then b's, into dims; its number of
 * dimensions, or -1 past NPY_MAXDIMS.  Element by element: a 0-d operand may have no
 * dimensions array at all (NULL). */
static int outer_shape(PyArrayObject *a, PyArrayObject *b, npy_intp dims[NPY_MAXDIMS])
{
    int na = PyArray_NDIM(a), nb = PyArray_NDIM(b);
    if (na + nb > NPY_MAXDIMS)
        return -1;
    for (int i = 0; i < na; i++)
        dims[i] = PyArray_DIM(a, i);
    for (int i = 0; i < nb; i++)
        dims[na + i] = PyArray_DIM(b, i);
    return na + nb;
}

/* Whether out can take the result in place: an exact, writeable, C-contiguous, aligned
 * ndarray of the shape and dtype in the machine's byte order, sharing no memory with an
 * operand. */
static int usable_out(PyArrayObject *out, PyArrayObject *a, PyArrayObject *b, int typenum)
{
    npy_intp dims[NPY_MAXDIMS];
    int nd = outer_shape(a, b, dims);
    if (nd < 0 || !PyArray_CheckExact((PyObject *)out) || PyArray_TYPE(out) != typenum ||
        PyArray_NDIM(out) != nd || !PyArray_ISCARRAY(out) || !PyArray_ISNOTSWAPPED(out))
        return 0;
    for (int i = 0; i < nd; i++)
        if (PyArray_DIM(out, i) != dims[i])
            return 0;
    const char *lo = PyArray_BYTES(out), *hi = lo + PyArray_NBYTES(out);
    PyArrayObject *ops[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const char *x = PyArray_BYTES(ops[k]), *y = x + PyArray_NBYTES(ops[k]);
        if (x < hi && lo < y)
            return 0;
    }
    return 1;
}

static PyObject *new_outer(PyArrayObject *a, PyArrayObject *b, int typenum)
{
    npy_intp dims[NPY_MAXDIMS];
    int nd = outer_shape(a, b, dims);
    return nd < 0 ? NULL : PyArray_SimpleNew(nd, dims, typenum);
}

static void run_outer(int typenum, PyArrayObject *a, PyArrayObject *b, PyArrayObject *o)
{
    size_t m = (size_t)PyArray_SIZE(a), n = (size_t)PyArray_SIZE(b);
    const void *x = PyArray_DATA(a), *y = PyArray_DATA(b);
    void *z = PyArray_DATA(o);
    Py_BEGIN_ALLOW_THREADS
    if (typenum == NPY_UINT8)
        nk_mul_outer8(x, m, y, n, z);
    else if (typenum == NPY_UINT16)
        nk_mul_outer16(x, m, y, n, z);
    else
        nk_mul_outer(x, m, y, n, z);
    Py_END_ALLOW_THREADS
}

/* mul_outer(a, b, out=None): the outer product, or NotImplemented when the call is not two
 * exact ndarrays of one of those dtypes (with an out= that can take the result): numpy's own
 * outer then serves it, with every keyword and type it knows. */
static PyObject *py_mul_outer(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"a", "b", "out", NULL};
    PyObject *ao, *bo, *outo = Py_None;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O", names, &ao, &bo, &outo))
        return NULL;
    if (PyTuple_Check(outo) && PyTuple_GET_SIZE(outo) == 1)
        outo = PyTuple_GET_ITEM(outo, 0);
    if (!PyArray_CheckExact(ao))
        Py_RETURN_NOTIMPLEMENTED;
    int typenum = PyArray_TYPE((PyArrayObject *)ao);
    if (PyArray_EquivTypenums(typenum, NPY_UINT64))
        typenum = NPY_UINT64;
    if (typenum != NPY_UINT8 && typenum != NPY_UINT16 && typenum != NPY_UINT64)
        Py_RETURN_NOTIMPLEMENTED;
    PyArrayObject *a = plain_operand(ao, PyArray_TYPE((PyArrayObject *)ao));
    PyArrayObject *b = a ? plain_operand(bo, PyArray_TYPE((PyArrayObject *)ao)) : NULL;
    PyObject *result = NULL;
    if (!a || !b) {
        if (!PyErr_Occurred())
            result = Py_NewRef(Py_NotImplemented);
    } else if (outo != Py_None) {
        if (PyArray_Check(outo) && usable_out((PyArrayObject *)outo, a, b, PyArray_TYPE(a))) {
            run_outer(typenum, a, b, (PyArrayObject *)outo);
            result = Py_NewRef(outo);
        } else {
            result = Py_NewRef(Py_NotImplemented);
        }
    } else if ((result = new_outer(a, b, PyArray_TYPE(a))) != NULL) {
        run_outer(typenum, a, b, (PyArrayObject *)result);
    } else if (!PyErr_Occurred()) {
        result = Py_NewRef(Py_NotImplemented);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    return result;
}

static PyMethodDef outer_methods[] = {
    {"mul_outer", (PyCFunction)(void (*)(void))py_mul_outer, METH_VARARGS | METH_KEYWORDS,
     "mul_outer(a, b, out=None): nim_mul.outer of two uint8, uint16 or uint64 arrays of one "
     "dtype, or NotImplemented"},
    {NULL, NULL, 0, NULL},
};

/* ---- the ufuncs ---------------------------------------------------------------------------- */

static PyObject *make_ufunc(nim_op op, int identity, const char *doc)
{
    static char names[OP_COUNT][32]; /* numpy keeps the name pointer */
    PyOS_snprintf(names[op], sizeof names[op], "nim_%s", nim_op_names[op]);
    PyObject *ufunc = PyUFunc_FromFuncAndData(NULL, NULL, NULL, 0, nim_op_arity[op], 1,
                                              identity, names[op], doc, 0);
    if (!ufunc)
        return NULL;
    int status;
    switch (op) {
    case OP_ADD: status = add_binary_loops(ufunc, op, 0); break;
    case OP_MUL: status = add_binary_loops(ufunc, op, 1); break;
    case OP_DIV: status = add_binary_loops(ufunc, op, 2); break;
    case OP_SQUARE: status = add_unary_loops(ufunc, op, 0); break;
    case OP_SQRT: status = add_unary_loops(ufunc, op, 1); break;
    case OP_INV: status = add_unary_loops(ufunc, op, 2); break;
    default: status = add_pow_loops(ufunc); break;
    }
    if (status < 0 || add_object_loop(ufunc, op) < 0 || add_promoters(ufunc, op) < 0) {
        Py_DECREF(ufunc);
        return NULL;
    }
    return ufunc;
}

int nb_add_ufuncs(PyObject *module)
{
    import_array1(-1);
    import_umath1(-1);
    if (PyModule_AddFunctions(module, outer_methods) < 0)
        return -1;
    struct {
        nim_op op;
        int identity;
        const char *doc;
    } specs[] = {
        {OP_ADD, PyUFunc_Zero, "nim-sum (XOR) of two arrays of non-negative integers"},
        {OP_MUL, PyUFunc_One, "nim-product of two arrays of non-negative integers"},
        {OP_DIV, PyUFunc_None, "nim-quotient a (x) b^-1; ZeroDivisionError for a 0 divisor"},
        {OP_POW, PyUFunc_None, "nim-power a^k (k an integer, negative for a != 0)"},
        {OP_SQUARE, PyUFunc_None, "nim-square of an array"},
        {OP_SQRT, PyUFunc_None, "nim square root of an array"},
        {OP_INV, PyUFunc_None, "nim-inverse of an array; ZeroDivisionError for a 0"},
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        PyObject *uf = make_ufunc(specs[i].op, specs[i].identity, specs[i].doc);
        char attr[40];
        PyOS_snprintf(attr, sizeof attr, "nim_%s", nim_op_names[specs[i].op]);
        if (!uf || PyModule_AddObject(module, attr, uf) < 0) {
            Py_XDECREF(uf);
            return -1;
        }
    }
    return 0;
}
