/*
 * ufuncs.c -- the numpy ufuncs of nimbers (nim_add, nim_mul, nim_div, nim_pow, nim_square,
 * nim_sqrt, nim_inv), with their loops registered through NumPy 2's ArrayMethod API.
 *
 * The loops (ufunc_loops.c) validate: a negative entry raises ValueError, a zero divisor
 * ZeroDivisionError, from inside the loop (the GIL is taken only on that error path).  So
 * every caller of the ufunc -- numpy, dask, any library speaking __array_ufunc__ -- gets the
 * same semantics.
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
#define NB_IMPORTS_NUMPY
#include "bindings.h"
#include "ufunc_loops.h"

#include <string.h>


/* ---- registration ------------------------------------------------------------------------ */

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
        const width_loops *w = &nb_loops_by_width[width_index(u->singleton->elsize)];
        PyArray_DTypeMeta *pairs[4][3] = {{u, u, u}, {s, s, u}, {u, s, u}, {s, u, u}};
        for (int p = 0; p < 4; p++) {
            loop_fn *loop = w->binary[which][p];
            int size = u->singleton->elsize;
            if (op == OP_MUL && p == 0)
                loop = size == 1 ? nb_mul_uu8_table : size == 2 ? nb_mul_uu16_table
                       : size == 8 ? nb_mul_uu64_blocked : loop;
            if (op == OP_MUL && p > 0 && size == 8)
                loop = p == 1 ? nb_mul_ii64_blocked : p == 2 ? nb_mul_ui64_blocked : nb_mul_iu64_blocked;
            if (op == OP_DIV && p == 0 && size == 8)
                loop = nb_div_uu64_batch;
            loop_fn *contiguous = op == OP_ADD ? w->add_contiguous[p] : NULL;
            if (add_loop(ufunc, nim_op_names[op], 2, pairs[p], loop, contiguous, nb_identity_of(op, 0),
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
        const width_loops *w = &nb_loops_by_width[width_index(u->singleton->elsize)];
        PyArray_DTypeMeta *pairs[2][2] = {{u, u}, {s, u}};
        for (int p = 0; p < 2; p++) {
            loop_fn *loop = w->unary[which][p];
            if (op == OP_INV && p == 0 && u->singleton->elsize == 8)
                loop = nb_inv_u64_batch;
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
        const width_loops *w = &nb_loops_by_width[width_index(u->singleton->elsize)];
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

static int add_object_loop(PyObject *ufunc, nim_op op)
{
    PyArray_DTypeMeta *o = dtype_of(NPY_OBJECT);
    if (!o)
        return -1;
    PyArray_DTypeMeta *dtypes[3] = {o, o, o};
    return add_loop(ufunc, nim_op_names[op], nim_op_arity[op], dtypes, nb_object_loops[op], NULL,
                    nb_identity_of(op, 1), NPY_METH_REQUIRES_PYAPI | reorderable(op));
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
    if (nb_add_outer(module) < 0)
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
