/*
 * ufuncs.c -- numpy ufunc loops over the 64-bit kernel.
 *
 * Every unsigned integer dtype gets a loop (values of uint8/16/32 lie in the subfields
 * GF(2^8)... of GF(2^64), so the 64-bit kernel serves them all), and the object dtype gets a
 * loop over the scalar path for Python ints of any size.  numpy runs the non-object loops
 * without the GIL.  A zero divisor in a non-object loop yields 0 and raises numpy's
 * divide-by-zero floating-point flag, like numpy's own integer division; the Python layer
 * checks for zero divisors first and raises ZeroDivisionError.
 */
#include "bindings.h"

#include <fenv.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>


#define LOOP_ARGS char **args, npy_intp const *dims, npy_intp const *steps, void *data

typedef u64 (*binary_fn)(u64, u64);
typedef u64 (*unary_fn)(u64);

static u64 op_add(u64 a, u64 b) { return a ^ b; }

/* The floating-point divide-by-zero flag, which numpy reads after the loop (as for its own
 * integer division by zero). */
static void flag_zero_divisor(void) { feraiseexcept(FE_DIVBYZERO); }

static u64 op_div(u64 a, u64 b)
{
    if (b == 0) {
        flag_zero_divisor();
        return 0;
    }
    return nk_mul(a, nk_inv(b));
}

static u64 op_inv(u64 a)
{
    if (a == 0) {
        flag_zero_divisor();
        return 0;
    }
    return nk_inv(a);
}

/* a^k for a signed exponent: every non-zero element's order divides 2^64 - 1. */
static u64 op_pow(u64 a, npy_int64 k)
{
    const u64 order = ~(u64)0;
    if (k >= 0)
        return nk_pow(a, (u64)k);
    if (a == 0) {
        flag_zero_divisor();
        return 0;
    }
    u64 m = (u64)(-(k + 1)) + 1; /* |k|, without overflow at INT64_MIN */
    return nk_pow(a, (order - m % order) % order);
}

#define DEFINE_LOOPS(T)                                                                    \
    static void binary_##T(LOOP_ARGS)                                                      \
    {                                                                                      \
        binary_fn f = (binary_fn)data;                                                     \
        char *a = args[0], *b = args[1], *o = args[2];                                     \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], b += steps[1], o += steps[2]) \
            *(T *)o = (T)f(*(T *)a, *(T *)b);                                              \
    }                                                                                      \
    static void unary_##T(LOOP_ARGS)                                                       \
    {                                                                                      \
        unary_fn f = (unary_fn)data;                                                       \
        char *a = args[0], *o = args[1];                                                   \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], o += steps[1])               \
            *(T *)o = (T)f(*(T *)a);                                                       \
    }                                                                                      \
    static void pow_##T(LOOP_ARGS)                                                         \
    {                                                                                      \
        (void)data;                                                                        \
        char *a = args[0], *k = args[1], *o = args[2];                                     \
        for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], k += steps[1], o += steps[2]) \
            *(T *)o = (T)op_pow(*(T *)a, *(npy_int64 *)k);                                 \
    }

DEFINE_LOOPS(npy_uint8)
DEFINE_LOOPS(npy_uint16)
DEFINE_LOOPS(npy_uint32)
DEFINE_LOOPS(npy_uint64)

/* The product on uint64 goes through the array kernel, which hoists the basis change of a
 * broadcast operand. */
static void mul_uint64(LOOP_ARGS)
{
    (void)data;
    nk_mul_strided((const u64 *)args[0], steps[0], (const u64 *)args[1], steps[1],
                   (u64 *)args[2], steps[2], (size_t)dims[0]);
}

static void binary_object(LOOP_ARGS)
{
    nim_op op = (nim_op)(size_t)data;
    char *a = args[0], *b = args[1], *o = args[2];
    for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], b += steps[1], o += steps[2]) {
        PyObject *r = nb_scalar(op, *(PyObject **)a, *(PyObject **)b);
        if (!r)
            return;
        PyObject *old = *(PyObject **)o;
        *(PyObject **)o = r;
        Py_XDECREF(old);
    }
}

static void unary_object(LOOP_ARGS)
{
    nim_op op = (nim_op)(size_t)data;
    char *a = args[0], *o = args[1];
    for (npy_intp i = 0; i < dims[0]; i++, a += steps[0], o += steps[1]) {
        PyObject *r = nb_scalar(op, *(PyObject **)a, NULL);
        if (!r)
            return;
        PyObject *old = *(PyObject **)o;
        *(PyObject **)o = r;
        Py_XDECREF(old);
    }
}

/* The unsigned type numbers: uint64 is both NPY_ULONG and NPY_ULONGLONG on LP64 systems,
 * and arrays of either may arrive. */
#define NUM_UNSIGNED 5
static const int unsigned_types[NUM_UNSIGNED] = {NPY_UBYTE, NPY_USHORT, NPY_UINT, NPY_ULONG,
                                                 NPY_ULONGLONG};

static PyUFuncGenericFunction loop_for(int typenum, int arity, int is_pow)
{
    size_t size = typenum == NPY_UBYTE    ? sizeof(npy_ubyte)
                  : typenum == NPY_USHORT ? sizeof(npy_ushort)
                  : typenum == NPY_UINT   ? sizeof(npy_uint)
                  : typenum == NPY_ULONG  ? sizeof(npy_ulong)
                                          : sizeof(npy_ulonglong);
#define PICK(T) (is_pow ? pow_##T : arity == 2 ? binary_##T : unary_##T)
    switch (size) {
    case 1: return PICK(npy_uint8);
    case 2: return PICK(npy_uint16);
    case 4: return PICK(npy_uint32);
    default: return PICK(npy_uint64);
    }
#undef PICK
}

#define MAX_LOOPS (NUM_UNSIGNED + 1)

/* Static storage: numpy keeps the pointers for the ufunc's lifetime. */
static PyUFuncGenericFunction loop_store[OP_COUNT][MAX_LOOPS];
static void *data_store[OP_COUNT][MAX_LOOPS];
static char type_store[OP_COUNT][MAX_LOOPS * 3];

static PyObject *make_ufunc(nim_op op, void *kernel, int identity, const char *doc)
{
    int arity = nim_op_arity[op], is_pow = op == OP_POW, n = 0;
    for (int t = 0; t < NUM_UNSIGNED; t++, n++) {
        int tn = unsigned_types[t];
        loop_store[op][n] = loop_for(tn, arity, is_pow);
        if (op == OP_MUL && loop_store[op][n] == binary_npy_uint64)
            loop_store[op][n] = mul_uint64;
        data_store[op][n] = kernel;
        char *ty = type_store[op] + n * (arity + 1);
        ty[0] = (char)tn;
        if (arity == 2)
            ty[1] = (char)(is_pow ? NPY_INT64 : tn);
        ty[arity] = (char)tn;
    }
    loop_store[op][n] = arity == 2 ? binary_object : unary_object;
    data_store[op][n] = (void *)(size_t)op;
    char *ty = type_store[op] + n * (arity + 1);
    for (int i = 0; i <= arity; i++)
        ty[i] = NPY_OBJECT;
    n++;
    char name[32];
    PyOS_snprintf(name, sizeof name, "nim_%s", nim_op_names[op]);
    /* numpy keeps the name pointer: intern it in a static buffer per op. */
    static char names[OP_COUNT][32];
    memcpy(names[op], name, sizeof name);
    return PyUFunc_FromFuncAndData(loop_store[op], data_store[op], type_store[op], n, arity, 1,
                                   identity, names[op], doc, 0);
}

int nb_add_ufuncs(PyObject *module)
{
    import_array1(-1);
    import_umath1(-1);
    struct {
        nim_op op;
        void *kernel;
        int identity;
        const char *doc;
    } specs[] = {
        {OP_ADD, (void *)op_add, PyUFunc_Zero, "nim-sum (XOR) of two arrays"},
        {OP_MUL, (void *)nk_mul, PyUFunc_One, "nim-product of two arrays"},
        {OP_DIV, (void *)op_div, PyUFunc_None, "nim-quotient of two arrays"},
        {OP_POW, NULL, PyUFunc_None, "nim-power a^k, k an int64 array"},
        {OP_SQUARE, (void *)nk_square, PyUFunc_None, "nim-square of an array"},
        {OP_SQRT, (void *)nk_sqrt, PyUFunc_None, "nim square root of an array"},
        {OP_INV, (void *)op_inv, PyUFunc_None, "nim-inverse of an array"},
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        PyObject *uf = make_ufunc(specs[i].op, specs[i].kernel, specs[i].identity, specs[i].doc);
        char attr[40];
        PyOS_snprintf(attr, sizeof attr, "ufunc_%s", nim_op_names[specs[i].op]);
        if (!uf || PyModule_AddObject(module, attr, uf) < 0) {
            Py_XDECREF(uf);
            return -1;
        }
    }
    return 0;
}
