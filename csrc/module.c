/*
 * module.c -- the nimbers._core extension module: scalar nim arithmetic on Python ints of any
 * size, the fast-path callable type behind the public operations, and the linear algebra entry
 * points.  See _core.pyi for the Python-side contract.
 */
#include "pyglue.h"

#include <stddef.h>
#include <string.h>

#include "nimcore.h"

const int nim_op_arity[OP_COUNT] = {2, 2, 2, 2, 1, 1, 1};
const char *const nim_op_names[OP_COUNT] = {"add", "mul", "div", "pow", "square", "sqrt", "inv"};

/* The largest field supported: GF(2^(2^24)).  Operands past it are refused up front, before
 * memory or time runs out (a product there already takes seconds). */
#define MAX_LIMBS ((size_t)1 << 18)

/* ---- Python int <-> limbs ------------------------------------------------------------ */

/* The exact number of bytes of a non-negative int.  (PyLong_AsNativeBytes's size query
 * "may be larger than technically necessary", so it cannot size the field.) */
static Py_ssize_t long_nbytes(PyObject *o)
{
#if PY_VERSION_HEX < 0x030E0000
    size_t bits = _PyLong_NumBits(o);
    if (bits == (size_t)-1 && PyErr_Occurred())
        return -1;
#else
    PyObject *n = PyObject_CallMethod(o, "bit_length", NULL);
    if (!n)
        return -1;
    size_t bits = PyLong_AsSize_t(n);
    Py_DECREF(n);
    if (bits == (size_t)-1 && PyErr_Occurred())
        return -1;
#endif
    return (Py_ssize_t)((bits + 7) / 8);
}

static int long_to_limbs(PyObject *o, u64 *dst, size_t n)
{
    size_t nbytes = n * 8;
    unsigned char *buf = (unsigned char *)PyMem_Malloc(nbytes);
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(o, buf, (Py_ssize_t)nbytes,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                            Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    int bad = r < 0;
#else
    int bad = _PyLong_AsByteArray((PyLongObject *)o, buf, nbytes, 1, 0) < 0;
#endif
    if (!bad)
        for (size_t i = 0; i < n; i++) {
            u64 v = 0;
            for (int k = 7; k >= 0; k--)
                v = (v << 8) | buf[8 * i + (size_t)k];
            dst[i] = v;
        }
    PyMem_Free(buf);
    return bad ? -1 : 0;
}

static PyObject *limbs_to_long(const u64 *src, size_t n)
{
    while (n > 1 && src[n - 1] == 0)
        n--;
    if (n == 1)
        return PyLong_FromUnsignedLongLong(src[0]);
    unsigned char *buf = (unsigned char *)PyMem_Malloc(n * 8);
    if (!buf)
        return PyErr_NoMemory();
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            buf[8 * i + (size_t)k] = (unsigned char)(src[i] >> (8 * k));
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *r = PyLong_FromUnsignedNativeBytes(buf, (Py_ssize_t)(n * 8),
                                                 Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *r = _PyLong_FromByteArray(buf, n * 8, 1, 0);
#endif
    PyMem_Free(buf);
    return r;
}

/* ---- argument parsing ------------------------------------------------------------------ */

typedef struct {
    PyObject *obj; /* borrowed */
    u64 small;     /* the value when limbs == 1 */
    size_t limbs;  /* limbs of the smallest nim field GF(2^(64 limbs)) holding it, >= 1 */
} nim_arg;

static void set_negative_error(PyObject *o)
{
    Py_ssize_t nbytes = long_nbytes(o);
    PyErr_Clear();
    if (nbytes >= 0 && nbytes <= 32)
        PyErr_Format(PyExc_ValueError, "nimbers are non-negative integers, got %R", o);
    else
        PyErr_SetString(PyExc_ValueError, "nimbers are non-negative integers, got a negative int");
}

static size_t limbs_for_bytes(Py_ssize_t nbytes)
{
    size_t words = ((size_t)nbytes + 7) / 8, n = 1;
    while (n < words)
        n <<= 1;
    return n;
}

static int parse_nimber(PyObject *o, nim_arg *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "nimbers are non-negative integers, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    out->obj = o;
    unsigned long long u = PyLong_AsUnsignedLongLong(o); /* the common case, in one call */
    if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
        out->small = u;
        out->limbs = 1;
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    PyErr_Clear();
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow < 0 || (overflow == 0 && v < 0)) {
        set_negative_error(o);
        return -1;
    }
    PyErr_Clear();
    Py_ssize_t nbytes = long_nbytes(o);
    if (nbytes < 0)
        return -1;
    out->limbs = limbs_for_bytes(nbytes);
    if (out->limbs > MAX_LIMBS) {
        PyErr_Format(PyExc_ValueError,
                     "nimbers of more than 2^24 bits are not supported (got about %zd bits)",
                     nbytes * 8);
        return -1;
    }
    return 0;
}

static int load_arg(const nim_arg *a, u64 *dst, size_t n)
{
    memset(dst, 0, n * sizeof(u64));
    if (a->limbs == 1) {
        dst[0] = a->small;
        return 0;
    }
    return long_to_limbs(a->obj, dst, n);
}

/* ---- scalar operations ------------------------------------------------------------------ */

static PyObject *zero_division(nim_op op)
{
    PyErr_SetString(PyExc_ZeroDivisionError,
                    op == OP_INV   ? "0 has no nim-inverse"
                    : op == OP_DIV ? "nim-division by 0"
                                   : "0 has no negative nim-power");
    return NULL;
}

/* The exponent e = k mod (2^(64 n) - 1), as n limbs: every non-zero element of GF(2^(64 n))
 * has an order dividing 2^(64 n) - 1, so this gives a^k for negative and huge k alike. */
static int reduce_exponent(PyObject *k, size_t n, u64 *e)
{
    PyObject *one = PyLong_FromLong(1), *shift = PyLong_FromSize_t(64 * n);
    PyObject *p = one && shift ? PyNumber_Lshift(one, shift) : NULL;
    PyObject *order = p ? PyNumber_Subtract(p, one) : NULL;
    PyObject *r = order ? PyNumber_Remainder(k, order) : NULL;
    int status = r ? long_to_limbs(r, e, n) : -1;
    Py_XDECREF(one);
    Py_XDECREF(shift);
    Py_XDECREF(p);
    Py_XDECREF(order);
    Py_XDECREF(r);
    return status;
}

static PyObject *pow_zero_base(PyObject *k)
{
    PyObject *zero = PyLong_FromLong(0);
    if (!zero)
        return NULL;
    int positive = PyObject_RichCompareBool(k, zero, Py_GT);
    int is_zero = positive == 0 ? PyObject_RichCompareBool(k, zero, Py_EQ) : 0;
    Py_DECREF(zero);
    if (positive < 0 || is_zero < 0)
        return NULL;
    if (!positive && !is_zero)
        return zero_division(OP_POW);
    return PyLong_FromLong(is_zero); /* 0^0 = 1, 0^k = 0 */
}

/* All sizes: load into n limbs, change to the working basis, compute, change back. */
static PyObject *scalar_limbs(nim_op op, const nim_arg *a, const nim_arg *b, PyObject *k)
{
    size_t n = a->limbs;
    if (b && b->limbs > n)
        n = b->limbs;
    size_t total = 4 * n + tw_scratch_limbs(n);
    u64 *buf = (u64 *)PyMem_Malloc(total * sizeof(u64));
    if (!buf)
        return PyErr_NoMemory();
    u64 *x = buf, *y = buf + n, *out = buf + 2 * n, *t = buf + 3 * n, *s = buf + 4 * n;
    PyObject *result = NULL;
    if (load_arg(a, x, n) < 0 || (b && load_arg(b, y, n) < 0))
        goto done;
    if (op == OP_POW && reduce_exponent(k, n, y) < 0)
        goto done;
    tw_to_work(x, n);
    if (op == OP_MUL || op == OP_DIV)
        tw_to_work(y, n);
    switch (op) {
    case OP_MUL: tw_mul(x, y, out, n, s); break;
    case OP_DIV:
        tw_inv(y, t, n, s);
        tw_mul(x, t, out, n, s);
        break;
    case OP_POW: tw_pow(x, y, n, out, n, s); break;
    case OP_SQUARE: tw_square(x, out, n, s); break;
    case OP_SQRT: tw_sqrt(x, out, n, s); break;
    case OP_INV: tw_inv(x, out, n, s); break;
    default: break;
    }
    tw_from_work(out, n);
    result = limbs_to_long(out, n);
done:
    PyMem_Free(buf);
    return result;
}

static PyObject *scalar_pow(const nim_arg *a, PyObject *k)
{
    if (!PyLong_Check(k)) {
        PyErr_Format(PyExc_TypeError, "the exponent must be an int, not %.100s",
                     Py_TYPE(k)->tp_name);
        return NULL;
    }
    if (a->limbs == 1 && a->small <= 1) {
        if (a->small == 0)
            return pow_zero_base(k);
        return PyLong_FromLong(1);
    }
    if (a->limbs == 1) {
        int overflow = 0;
        long long e = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (e == -1 && PyErr_Occurred())
            return NULL;
        if (!overflow && e >= 0)
            return PyLong_FromUnsignedLongLong(nk_pow(a->small, (u64)e));
    }
    return scalar_limbs(OP_POW, a, NULL, k);
}

PyObject *nim_scalar(nim_op op, PyObject *ao, PyObject *bo)
{
    nim_arg a, b = {NULL, 0, 1};
    if (parse_nimber(ao, &a) < 0)
        return NULL;
    if (op == OP_POW)
        return scalar_pow(&a, bo);
    int binary = nim_op_arity[op] == 2;
    if (binary && parse_nimber(bo, &b) < 0)
        return NULL;
    if ((op == OP_INV && a.limbs == 1 && a.small == 0) ||
        (op == OP_DIV && b.limbs == 1 && b.small == 0))
        return zero_division(op);
    if (a.limbs == 1 && (!binary || b.limbs == 1)) {
        u64 x = a.small, y = binary ? b.small : 0, r = 0;
        switch (op) {
        case OP_ADD: r = x ^ y; break;
        case OP_MUL: r = nk_mul(x, y); break;
        case OP_DIV: r = nk_mul(x, nk_inv(y)); break;
        case OP_SQUARE: r = nk_square(x); break;
        case OP_SQRT: r = nk_sqrt(x); break;
        case OP_INV: r = nk_inv(x); break;
        default: break;
        }
        return PyLong_FromUnsignedLongLong(r);
    }
    if (op == OP_ADD) /* nim-sum is XOR, on ints of any size */
        return PyNumber_Xor(ao, bo);
    return scalar_limbs(op, &a, binary ? &b : NULL, NULL);
}

/* ---- the fast-path callable ------------------------------------------------------------- */

/* NimOp(op, ufunc, array_call): calling it with exact ints of the right number runs the C
 * scalar path without touching numpy.  Anything else, and the ufunc methods (outer, reduce,
 * accumulate, reduceat, at), go to array_call(self, method_name, *args, **kwargs): the
 * Python layer, which validates the operands and calls the ufunc. */
typedef struct {
    PyObject_HEAD
    nim_op op;
    PyObject *ufunc;
    PyObject *array_call;
    PyObject *dict;
    vectorcallfunc vectorcall;
} NimOpObject;

/* array_call(self, method, *args, **kwargs) with vectorcall arguments. */
static PyObject *forward(NimOpObject *self, const char *method, PyObject *const *args,
                         size_t nargs, PyObject *kwnames)
{
    size_t nkw = kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0;
    PyObject **all = (PyObject **)PyMem_Malloc((nargs + nkw + 2) * sizeof(PyObject *));
    PyObject *name = PyUnicode_FromString(method);
    PyObject *r = NULL;
    if (all && name) {
        all[0] = (PyObject *)self;
        all[1] = name;
        for (size_t i = 0; i < nargs + nkw; i++)
            all[i + 2] = args[i];
        r = PyObject_Vectorcall(self->array_call, all, nargs + 2, kwnames);
    } else if (!all) {
        PyErr_NoMemory();
    }
    Py_XDECREF(name);
    PyMem_Free(all);
    return r;
}

static PyObject *nimop_vectorcall(NimOpObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (!kwnames && nargs == nim_op_arity[self->op] && PyLong_Check(args[0]) &&
        (nargs == 1 || PyLong_Check(args[1])))
        return nim_scalar(self->op, args[0], nargs == 2 ? args[1] : NULL);
    return forward(self, "__call__", args, (size_t)nargs, kwnames);
}

static PyObject *nimop_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"op", "ufunc", "array_call", NULL};
    const char *opname;
    PyObject *ufunc, *array_call;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOO", names, &opname, &ufunc, &array_call))
        return NULL;
    int op = -1;
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(opname, nim_op_names[i]) == 0)
            op = i;
    if (op < 0) {
        PyErr_Format(PyExc_ValueError, "unknown nim operation %s", opname);
        return NULL;
    }
    if (!PyCallable_Check(array_call)) {
        PyErr_SetString(PyExc_TypeError, "array_call must be callable");
        return NULL;
    }
    NimOpObject *self = (NimOpObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->op = (nim_op)op;
    Py_INCREF(ufunc);
    self->ufunc = ufunc;
    Py_INCREF(array_call);
    self->array_call = array_call;
    self->dict = NULL;
    self->vectorcall = (vectorcallfunc)nimop_vectorcall;
    return (PyObject *)self;
}

static int nimop_traverse(NimOpObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->ufunc);
    Py_VISIT(self->array_call);
    Py_VISIT(self->dict);
    return 0;
}

static int nimop_clear(NimOpObject *self)
{
    Py_CLEAR(self->ufunc);
    Py_CLEAR(self->array_call);
    Py_CLEAR(self->dict);
    return 0;
}

static void nimop_dealloc(NimOpObject *self)
{
    PyObject_GC_UnTrack(self);
    nimop_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *nimop_repr(NimOpObject *self)
{
    return PyUnicode_FromFormat("<nimbers operation nim_%s>", nim_op_names[self->op]);
}

#define FORWARD_METHOD(name)                                                               \
    static PyObject *nimop_##name(NimOpObject *self, PyObject *const *args, Py_ssize_t n,  \
                                  PyObject *kwnames)                                       \
    {                                                                                      \
        return forward(self, #name, args, (size_t)n, kwnames);                             \
    }
FORWARD_METHOD(outer)
FORWARD_METHOD(reduce)
FORWARD_METHOD(accumulate)
FORWARD_METHOD(reduceat)
FORWARD_METHOD(at)

#define METHOD(name, doc)                                                                  \
    {#name, (PyCFunction)(void (*)(void))nimop_##name, METH_FASTCALL | METH_KEYWORDS, doc}
static PyMethodDef nimop_methods[] = {
    METHOD(outer, "outer(a, b, **kw): the table of op(a[i], b[j]), as numpy's ufunc.outer"),
    METHOD(reduce, "reduce(a, axis=0, **kw): folds along an axis, as numpy's ufunc.reduce"),
    METHOD(accumulate, "accumulate(a, axis=0, **kw): running folds, as numpy's ufunc.accumulate"),
    METHOD(reduceat, "reduceat(a, indices, axis=0, **kw): folds over slices, as numpy's"),
    METHOD(at, "at(a, indices, b=None): in place at indices, as numpy's ufunc.at"),
    {NULL, NULL, 0, NULL},
};

static PyObject *nimop_get_ufunc(NimOpObject *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->ufunc);
    return self->ufunc;
}

static PyObject *nimop_get_op(NimOpObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(nim_op_names[self->op]);
}

static PyGetSetDef nimop_getset[] = {
    {"ufunc", (getter)nimop_get_ufunc, NULL, "the numpy ufunc behind the array path", NULL},
    {"op", (getter)nimop_get_op, NULL, "the operation's name", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject NimOpType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nimbers._core.NimOp",
    .tp_basicsize = sizeof(NimOpObject),
    .tp_dealloc = (destructor)nimop_dealloc,
    .tp_vectorcall_offset = offsetof(NimOpObject, vectorcall),
    .tp_repr = (reprfunc)nimop_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A nim operation: C scalar path for ints, numpy ufunc for arrays.",
    .tp_traverse = (traverseproc)nimop_traverse,
    .tp_clear = (inquiry)nimop_clear,
    .tp_methods = nimop_methods,
    .tp_getset = nimop_getset,
    .tp_dictoffset = offsetof(NimOpObject, dict),
    .tp_new = nimop_new,
};

/* ---- module functions: scalars ------------------------------------------------------------ */

#define UNARY(name, op)                                                                   \
    static PyObject *py_##name(PyObject *m, PyObject *a)                                  \
    {                                                                                     \
        (void)m;                                                                          \
        return nim_scalar(op, a, NULL);                                                   \
    }
#define BINARY(name, op)                                                                  \
    static PyObject *py_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs)      \
    {                                                                                     \
        (void)m;                                                                          \
        if (nargs != 2) {                                                                 \
            PyErr_SetString(PyExc_TypeError, #name "() takes exactly 2 arguments");       \
            return NULL;                                                                  \
        }                                                                                 \
        return nim_scalar(op, args[0], args[1]);                                          \
    }

BINARY(add, OP_ADD)
BINARY(mul, OP_MUL)
BINARY(div, OP_DIV)
BINARY(pow, OP_POW)
UNARY(square, OP_SQUARE)
UNARY(sqrt, OP_SQRT)
UNARY(inv, OP_INV)

static PyObject *py_mul_portable(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    unsigned long long a, b;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mul_portable() takes exactly 2 arguments");
        return NULL;
    }
    a = PyLong_AsUnsignedLongLong(args[0]);
    if (a == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    b = PyLong_AsUnsignedLongLong(args[1]);
    if (b == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLongLong(nk_mul_portable(a, b));
}

static PyObject *py_set_kernel(PyObject *m, PyObject *arg)
{
    (void)m;
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!name) {
        PyErr_SetString(PyExc_TypeError, "set_kernel() takes 'portable', 'clmul' or 'auto'");
        return NULL;
    }
    int k = strcmp(name, "portable") == 0 ? NK_PORTABLE
            : strcmp(name, "clmul") == 0  ? NK_CLMUL
            : strcmp(name, "auto") == 0   ? (nk_clmul_available() ? NK_CLMUL : NK_PORTABLE)
                                          : -1;
    if (k < 0) {
        PyErr_Format(PyExc_ValueError, "unknown kernel %R: use 'portable', 'clmul' or 'auto'",
                     arg);
        return NULL;
    }
    if (nk_set_kernel(k) < 0) {
        PyErr_SetString(PyExc_ValueError, "this CPU has no carry-less multiplication");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_get_kernel(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    return PyUnicode_FromString(nk_get_kernel() == NK_CLMUL ? "clmul" : "portable");
}

static PyObject *py_clmul_available(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    return PyBool_FromLong(nk_clmul_available());
}

static PyObject *py_poly_basis(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    return Py_BuildValue("(KK)", (unsigned long long)nk_poly_generator(),
                         (unsigned long long)nk_poly_modulus_low());
}

/* ---- module functions: linear algebra ------------------------------------------------ */

/* A matrix travels as a C-contiguous uint64 buffer of shape (rows, cols, limbs), limbs a
 * power of two: one limb for entries below 2^64, more for the arbitrary-precision path. */
typedef struct {
    Py_buffer view;
    size_t rows, cols, limbs;
} matrix_arg;

static int get_matrix(PyObject *o, matrix_arg *m, int writable)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, &m->view, flags) < 0)
        return -1;
    const char *fmt = m->view.format ? m->view.format : "B";
    if (*fmt == '<' || *fmt == '=' || *fmt == '@')
        fmt++;
    int ok = m->view.ndim == 3 && m->view.itemsize == 8 && strchr("QLK", *fmt) && fmt[1] == 0;
    if (ok) {
        m->rows = (size_t)m->view.shape[0];
        m->cols = (size_t)m->view.shape[1];
        m->limbs = (size_t)m->view.shape[2];
        ok = m->limbs >= 1 && (m->limbs & (m->limbs - 1)) == 0 && m->limbs <= MAX_LIMBS;
    }
    if (!ok) {
        PyBuffer_Release(&m->view);
        PyErr_SetString(PyExc_ValueError,
                        "expected a C-contiguous uint64 array of shape (rows, cols, limbs)");
        return -1;
    }
    return 0;
}

static void matrix_to_work(matrix_arg *m)
{
    tw_to_work((u64 *)m->view.buf, m->rows * m->cols * m->limbs);
}

static void matrix_from_work(matrix_arg *m)
{
    tw_from_work((u64 *)m->view.buf, m->rows * m->cols * m->limbs);
}

static PyObject *py_det(PyObject *mod, PyObject *arg)
{
    (void)mod;
    matrix_arg m;
    if (get_matrix(arg, &m, 1) < 0)
        return NULL;
    if (m.rows != m.cols) {
        PyBuffer_Release(&m.view);
        PyErr_SetString(PyExc_ValueError, "det needs a square matrix");
        return NULL;
    }
    u64 *det = (u64 *)PyMem_Calloc(m.limbs, sizeof(u64));
    int status = det ? 0 : -1;
    if (det) {
        Py_BEGIN_ALLOW_THREADS
        matrix_to_work(&m);
        status = la_det((u64 *)m.view.buf, m.rows, m.limbs, det);
        tw_from_work(det, m.limbs);
        matrix_from_work(&m);
        Py_END_ALLOW_THREADS
    }
    PyObject *r = status < 0 ? PyErr_NoMemory() : limbs_to_long(det, m.limbs);
    PyMem_Free(det);
    PyBuffer_Release(&m.view);
    return r;
}

static PyObject *py_row_reduce(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "row_reduce(matrix, augmented_or_None)");
        return NULL;
    }
    matrix_arg m, a;
    int has_aug = args[1] != Py_None;
    if (get_matrix(args[0], &m, 1) < 0)
        return NULL;
    if (has_aug && get_matrix(args[1], &a, 1) < 0) {
        PyBuffer_Release(&m.view);
        return NULL;
    }
    if (has_aug && (a.rows != m.rows || a.limbs != m.limbs)) {
        PyBuffer_Release(&m.view);
        PyBuffer_Release(&a.view);
        PyErr_SetString(PyExc_ValueError, "the augmented matrix must have as many rows");
        return NULL;
    }
    size_t npiv = m.rows < m.cols ? m.rows : m.cols;
    size_t *pivots = (size_t *)PyMem_Malloc((npiv + 1) * sizeof(size_t));
    u64 *det = (u64 *)PyMem_Calloc(m.limbs, sizeof(u64));
    size_t rank = (size_t)-1;
    if (pivots && det) {
        Py_BEGIN_ALLOW_THREADS
        matrix_to_work(&m);
        if (has_aug)
            matrix_to_work(&a);
        rank = la_row_reduce((u64 *)m.view.buf, m.rows, m.cols, m.limbs, pivots, det,
                             has_aug ? (u64 *)a.view.buf : NULL, has_aug ? a.cols : 0);
        matrix_from_work(&m);
        if (has_aug)
            matrix_from_work(&a);
        tw_from_work(det, m.limbs);
        Py_END_ALLOW_THREADS
    }
    PyObject *result = NULL;
    if (rank == (size_t)-1) {
        PyErr_NoMemory();
    } else {
        PyObject *piv = PyList_New((Py_ssize_t)rank);
        for (size_t i = 0; piv && i < rank; i++)
            PyList_SET_ITEM(piv, (Py_ssize_t)i, PyLong_FromSize_t(pivots[i]));
        PyObject *d = m.rows == m.cols ? limbs_to_long(det, m.limbs) : (Py_INCREF(Py_None), Py_None);
        if (piv && d)
            result = Py_BuildValue("(nOO)", (Py_ssize_t)rank, piv, d);
        Py_XDECREF(piv);
        Py_XDECREF(d);
    }
    PyMem_Free(pivots);
    PyMem_Free(det);
    PyBuffer_Release(&m.view);
    if (has_aug)
        PyBuffer_Release(&a.view);
    return result;
}

static PyObject *py_matmul(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "matmul(a, b, out)");
        return NULL;
    }
    matrix_arg a, b, o;
    if (get_matrix(args[0], &a, 1) < 0)
        return NULL;
    if (get_matrix(args[1], &b, 1) < 0) {
        PyBuffer_Release(&a.view);
        return NULL;
    }
    if (get_matrix(args[2], &o, 1) < 0) {
        PyBuffer_Release(&a.view);
        PyBuffer_Release(&b.view);
        return NULL;
    }
    int status = -2;
    if (a.cols == b.rows && o.rows == a.rows && o.cols == b.cols && a.limbs == b.limbs &&
        a.limbs == o.limbs) {
        Py_BEGIN_ALLOW_THREADS
        matrix_to_work(&a);
        matrix_to_work(&b);
        status = la_matmul((u64 *)a.view.buf, (u64 *)b.view.buf, (u64 *)o.view.buf, a.rows,
                           a.cols, b.cols, a.limbs);
        matrix_from_work(&a);
        matrix_from_work(&b);
        matrix_from_work(&o);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&a.view);
    PyBuffer_Release(&b.view);
    PyBuffer_Release(&o.view);
    if (status == -2) {
        PyErr_SetString(PyExc_ValueError, "matmul: shapes do not match");
        return NULL;
    }
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* ---- discrete logarithms ------------------------------------------------------------ */

/* LogTable(limbs, [(p, g_p, e_p, m_p), ...]): for each prime p of the group order, the
 * subgroup generator g_p = g^e_p, the exponent e_p = (2^(64 limbs) - 1) / p and the number
 * of baby steps m_p (memory: about 24 bytes each; giant steps per query: p / m_p).
 * residues(a) gives log_g(a) mod each p (Pohlig-Hellman's steps; the caller combines them). */
typedef struct {
    PyObject_HEAD
    size_t n, count;
    dl_table **tables;
    u64 *exponents; /* count x n limbs */
} LogTableObject;

static void logtable_dealloc(LogTableObject *self)
{
    for (size_t i = 0; self->tables && i < self->count; i++)
        dl_free(self->tables[i]);
    PyMem_Free(self->tables);
    PyMem_Free(self->exponents);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int limbs_of(PyObject *o, u64 *dst, size_t n)
{
    nim_arg a;
    if (parse_nimber(o, &a) < 0)
        return -1;
    if (a.limbs > n) {
        PyErr_SetString(PyExc_ValueError, "value does not fit the table's field");
        return -1;
    }
    return load_arg(&a, dst, n);
}

static PyObject *logtable_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    Py_ssize_t n;
    PyObject *entries;
    if (kw && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "LogTable takes positional arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "nO", &n, &entries))
        return NULL;
    if (n < 1 || (n & (n - 1)) || n > 8) {
        PyErr_SetString(PyExc_ValueError, "LogTable: limbs must be 1, 2, 4 or 8");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(entries, "LogTable: entries must be a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    LogTableObject *self = (LogTableObject *)type->tp_alloc(type, 0);
    if (!self) {
        Py_DECREF(seq);
        return NULL;
    }
    self->n = (size_t)n;
    self->count = 0;
    self->tables = (dl_table **)PyMem_Calloc((size_t)count + 1, sizeof(dl_table *));
    self->exponents = (u64 *)PyMem_Calloc((size_t)(count + 1) * (size_t)n, sizeof(u64));
    u64 *g = (u64 *)PyMem_Calloc((size_t)n, sizeof(u64));
    if (!self->tables || !self->exponents || !g)
        goto nomem;
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned long long p, baby;
        PyObject *go, *eo;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "KOOK", &p, &go, &eo, &baby))
            goto fail;
        if (p < 2 || p >> 62 || baby < 1 || baby > ((u64)1 << 26)) {
            PyErr_SetString(PyExc_ValueError,
                            "LogTable: primes in [2, 2^62), baby steps in [1, 2^26]");
            goto fail;
        }
        if (limbs_of(go, g, (size_t)n) < 0 || limbs_of(eo, self->exponents + i * n, (size_t)n) < 0)
            goto fail;
        tw_to_work(g, (size_t)n);
        u64 m = (u64)baby;
        dl_table *t;
        Py_BEGIN_ALLOW_THREADS
        t = dl_new(g, (size_t)n, (u64)p, m);
        Py_END_ALLOW_THREADS
        if (!t)
            goto nomem;
        self->tables[i] = t;
        self->count++;
    }
    PyMem_Free(g);
    Py_DECREF(seq);
    return (PyObject *)self;
nomem:
    PyErr_NoMemory();
fail:
    PyMem_Free(g);
    Py_DECREF(seq);
    Py_DECREF(self);
    return NULL;
}

static PyObject *logtable_residues(LogTableObject *self, PyObject *arg)
{
    size_t n = self->n, bits = 64 * n;
    /* a^(2^k) for every k once, then each a^e_p as a product of those: the squarings are
     * shared by all the primes' exponents, and the products are independent. */
    u64 *buf = (u64 *)PyMem_Malloc(((bits + 3) * n + tw_scratch_limbs(n)) * sizeof(u64));
    if (!buf)
        return PyErr_NoMemory();
    u64 *sq = buf, *h = buf + bits * n, *t = h + n, *a = t + n, *s = a + n;
    if (limbs_of(arg, a, n) < 0) {
        PyMem_Free(buf);
        return NULL;
    }
    if (tw_is_zero(a, n)) {
        PyMem_Free(buf);
        PyErr_SetString(PyExc_ValueError, "0 has no logarithm");
        return NULL;
    }
    tw_to_work(a, n);
    memcpy(sq, a, n * sizeof(u64));
    for (size_t k = 1; k < bits; k++)
        tw_square(sq + (k - 1) * n, sq + k * n, n, s);
    PyObject *out = PyTuple_New((Py_ssize_t)self->count);
    for (size_t i = 0; out && i < self->count; i++) {
        const u64 *e = self->exponents + i * n;
        memset(h, 0, n * sizeof(u64));
        h[0] = nk_to_work(1);
        for (size_t k = 0; k < bits; k++)
            if (e[k / 64] >> (k % 64) & 1) {
                tw_mul(h, sq + k * n, t, n, s);
                memcpy(h, t, n * sizeof(u64));
            }
        int64_t x = dl_log(self->tables[i], h);
        if (x < 0) {
            Py_CLEAR(out);
            PyErr_SetString(PyExc_ValueError, "the value is not in the generated subgroup");
            break;
        }
        PyTuple_SET_ITEM(out, (Py_ssize_t)i, PyLong_FromLongLong(x));
    }
    PyMem_Free(buf);
    return out;
}

static PyMethodDef logtable_methods[] = {
    {"residues", (PyCFunction)logtable_residues, METH_O,
     "residues(a): log_g(a) modulo each prime of the table"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LogTableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nimbers._core.LogTable",
    .tp_basicsize = sizeof(LogTableObject),
    .tp_dealloc = (destructor)logtable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Baby-step giant-step tables for Pohlig-Hellman logarithms in a nim field.",
    .tp_methods = logtable_methods,
    .tp_new = logtable_new,
};

/* ---- module functions: heap games ---------------------------------------------------- */

/* heap_extend(rules, g, start, stop): rules a sequence of digit bit sets (None for Grundy's
 * game), g a writable C-contiguous uint32 buffer holding g[0..start); fills g[start..stop). */
static PyObject *py_heap_extend(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "heap_extend(rules, g, start, stop)");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[2]), stop = PyLong_AsSsize_t(args[3]);
    if ((start == -1 || stop == -1) && PyErr_Occurred())
        return NULL;
    unsigned *rules = NULL;
    Py_ssize_t nrules = 0;
    if (args[0] != Py_None) {
        PyObject *seq = PySequence_Fast(args[0], "rules must be a sequence of ints");
        if (!seq)
            return NULL;
        nrules = PySequence_Fast_GET_SIZE(seq);
        rules = (unsigned *)PyMem_Calloc((size_t)nrules + 1, sizeof(unsigned));
        for (Py_ssize_t i = 0; rules && i < nrules; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                PyMem_Free(rules);
                return NULL;
            }
            if (v < 0 || v > 15 || (i == 0 && (v & 3))) {
                Py_DECREF(seq);
                PyMem_Free(rules);
                PyErr_SetString(PyExc_ValueError, "a rule digit must be 0..15 (0 only 0, 4, 8, 12)");
                return NULL;
            }
            rules[i] = (unsigned)v;
        }
        Py_DECREF(seq);
        if (!rules)
            return PyErr_NoMemory();
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0) {
        PyMem_Free(rules);
        return NULL;
    }
    int ok = view.itemsize == 4 && view.ndim == 1 && 0 <= start && start <= stop &&
             stop <= view.shape[0] && (view.format == NULL || strchr("IL", view.format[0]) ||
                                        (view.format[0] == '=' && strchr("IL", view.format[1])));
    int status = 0;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        if (rules)
            status = hp_take_break(rules, (size_t)nrules, (uint32_t *)view.buf, (size_t)start,
                                   (size_t)stop);
        else
            status = hp_grundy_game((uint32_t *)view.buf, (size_t)start, (size_t)stop);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    PyMem_Free(rules);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "heap_extend needs a uint32 array and 0 <= start <= stop <= len");
        return NULL;
    }
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* turning_extend(family, lo, hi, g, start, stop): family 0 consecutive, 1 progression;
 * hi < 0 for no upper bound; g a writable C-contiguous uint64 buffer. */
static PyObject *py_turning_extend(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "turning_extend(family, lo, hi, g, start, stop)");
        return NULL;
    }
    long family = PyLong_AsLong(args[0]);
    Py_ssize_t lo = PyLong_AsSsize_t(args[1]), hi = PyLong_AsSsize_t(args[2]);
    Py_ssize_t start = PyLong_AsSsize_t(args[4]), stop = PyLong_AsSsize_t(args[5]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[3], &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
        return NULL;
    int ok = (family == TG_CONSECUTIVE || family == TG_PROGRESSION) && lo >= 1 &&
             view.itemsize == 8 && view.len / 8 >= stop && 0 <= start && start <= stop;
    int status = 0;
    if (ok) {
        size_t h = hi < 0 ? (size_t)-1 : (size_t)hi;
        Py_BEGIN_ALLOW_THREADS
        status = tg_values((int)family, (size_t)lo, h, (uint64_t *)view.buf, (size_t)start,
                           (size_t)stop);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "turning_extend: bad arguments");
        return NULL;
    }
    if (status < 0)
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"turning_extend", (PyCFunction)(void (*)(void))py_turning_extend, METH_FASTCALL,
     "turning_extend(family, lo, hi, g, start, stop): coin-turning Grundy values"},
    {"heap_extend", (PyCFunction)(void (*)(void))py_heap_extend, METH_FASTCALL,
     "heap_extend(rules, g, start, stop): Grundy values of a heap game, g[start:stop]"},
    {"add", (PyCFunction)(void (*)(void))py_add, METH_FASTCALL, "add(a, b): nim-sum"},
    {"mul", (PyCFunction)(void (*)(void))py_mul, METH_FASTCALL, "mul(a, b): nim-product"},
    {"div", (PyCFunction)(void (*)(void))py_div, METH_FASTCALL, "div(a, b): nim-quotient"},
    {"pow", (PyCFunction)(void (*)(void))py_pow, METH_FASTCALL, "pow(a, k): nim-power"},
    {"square", py_square, METH_O, "square(a): nim-square"},
    {"sqrt", py_sqrt, METH_O, "sqrt(a): nim square root"},
    {"inv", py_inv, METH_O, "inv(a): nim-inverse"},
    {"mul_portable", (PyCFunction)(void (*)(void))py_mul_portable, METH_FASTCALL,
     "mul_portable(a, b): the portable 64-bit kernel, whatever kernel is selected"},
    {"set_kernel", py_set_kernel, METH_O, "set_kernel('portable'|'clmul'|'auto')"},
    {"get_kernel", py_get_kernel, METH_NOARGS, "get_kernel() -> 'portable' or 'clmul'"},
    {"clmul_available", py_clmul_available, METH_NOARGS, "whether the CPU has carry-less multiply"},
    {"poly_basis", py_poly_basis, METH_NOARGS, "(alpha, r): basis generator and m(t) = t^64 + r"},
    {"det", py_det, METH_O, "det(m): determinant of an (r, r, limbs) uint64 array (overwritten)"},
    {"row_reduce", (PyCFunction)(void (*)(void))py_row_reduce, METH_FASTCALL,
     "row_reduce(m, aug) -> (rank, pivots, det): in place, to reduced row echelon form"},
    {"matmul", (PyCFunction)(void (*)(void))py_matmul, METH_FASTCALL,
     "matmul(a, b, out): out = a @ b over the nim field"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "nimbers._core",
    "The compiled core of nimbers: nim arithmetic, ufuncs and linear algebra.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    nk_init();
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (PyType_Ready(&NimOpType) < 0)
        goto fail;
    Py_INCREF(&NimOpType);
    if (PyModule_AddObject(m, "NimOp", (PyObject *)&NimOpType) < 0) {
        Py_DECREF(&NimOpType);
        goto fail;
    }
    if (PyType_Ready(&LogTableType) < 0)
        goto fail;
    Py_INCREF(&LogTableType);
    if (PyModule_AddObject(m, "LogTable", (PyObject *)&LogTableType) < 0) {
        Py_DECREF(&LogTableType);
        goto fail;
    }
    if (PyModule_AddIntConstant(m, "MAX_BITS", (long)(MAX_LIMBS * 64)) < 0)
        goto fail;
    if (nim_add_ufuncs(m) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
