/*
 * ints.c -- Python ints of any size as little-endian arrays of 64-bit limbs, and the scalar
 * operations on them: one limb through the 64-bit kernel, more through the Fermat tower.
 * Every entry point validates its arguments (TypeError for a non-int, ValueError for a
 * negative int, ZeroDivisionError for a zero divisor).
 */
#include "bindings.h"

#include <string.h>

const int nim_op_arity[OP_COUNT] = {2, 2, 2, 2, 1, 1, 1};
const char *const nim_op_names[OP_COUNT] = {"add", "mul", "div", "pow", "square", "sqrt", "inv"};

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

/* Limbs are little-endian u64s; written as little-endian bytes they are the same memory on a
 * little-endian host, so ints convert straight into and out of the limb array.  A
 * big-endian host swaps each limb after. */
static void swap_limbs_if_big_endian(u64 *a, size_t n)
{
#if !PY_LITTLE_ENDIAN
    for (size_t i = 0; i < n; i++) {
        u64 v = a[i], r = 0;
        for (int k = 0; k < 8; k++, v >>= 8)
            r = (r << 8) | (v & 0xff);
        a[i] = r;
    }
#else
    (void)a;
    (void)n;
#endif
}

static int long_to_limbs(PyObject *o, u64 *dst, size_t n)
{
    size_t nbytes = n * 8;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t r = PyLong_AsNativeBytes(o, dst, (Py_ssize_t)nbytes,
                                        Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                            Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (r < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)o, (unsigned char *)dst, nbytes, 1, 0) < 0)
        return -1;
#endif
    swap_limbs_if_big_endian(dst, n);
    return 0;
}

PyObject *nb_from_limbs(const u64 *src, size_t n)
{
    while (n > 1 && src[n - 1] == 0)
        n--;
    if (n == 1)
        return PyLong_FromUnsignedLongLong(src[0]);
#if PY_LITTLE_ENDIAN
    const unsigned char *bytes = (const unsigned char *)src;
    u64 *copy = NULL;
#else
    u64 *copy = (u64 *)PyMem_Malloc(n * 8);
    if (!copy)
        return PyErr_NoMemory();
    memcpy(copy, src, n * 8);
    swap_limbs_if_big_endian(copy, n);
    const unsigned char *bytes = (const unsigned char *)copy;
#endif
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *r = PyLong_FromUnsignedNativeBytes(bytes, (Py_ssize_t)(n * 8),
                                                 Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *r = _PyLong_FromByteArray(bytes, n * 8, 1, 0);
#endif
    PyMem_Free(copy);
    return r;
}

/* The sign of an int, without raising. */
static int long_sign(PyObject *o)
{
#if PY_VERSION_HEX >= 0x030E0000
    int sign = 0;
    PyLong_GetSign(o, &sign);
    return sign;
#else
    return _PyLong_Sign(o);
#endif
}

/* ---- argument parsing ------------------------------------------------------------------ */

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

/* No exception is raised and caught on the way: ints past 64 bits are as common as small
 * ones here. */
int nb_parse(PyObject *o, nim_arg *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "nim arithmetic takes integers, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    out->obj = o;
    if (long_sign(o) < 0) {
        set_negative_error(o);
        return -1;
    }
    Py_ssize_t nbytes = long_nbytes(o);
    if (nbytes < 0)
        return -1;
    if (nbytes <= 8) {
        out->small = PyLong_AsUnsignedLongLong(o);
        out->limbs = 1;
        return out->small == (unsigned long long)-1 && PyErr_Occurred() ? -1 : 0;
    }
    out->limbs = limbs_for_bytes(nbytes);
    if (out->limbs > NB_MAX_LIMBS) {
        PyErr_Format(PyExc_ValueError,
                     "nimbers of more than 2^24 bits are not supported (got about %zd bits)",
                     nbytes * 8);
        return -1;
    }
    return 0;
}

int nb_load(const nim_arg *a, u64 *dst, size_t n)
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

/* Operands of this many limbs and more are computed with the GIL released (their copies
 * are the core's input): 4096 bits, where a product takes tens of microseconds. */
#define RELEASE_GIL_LIMBS 64
/* Operands up to 512 bits compute in a buffer on the stack (no allocation per call). */
#define STACK_LIMBS (3 * 8 + 12 * 8 + 16 + 2 * 8)

/* All sizes: load into n limbs, compute in the core (nim basis in and out). */
static PyObject *scalar_limbs(nim_op op, const nim_arg *a, const nim_arg *b, PyObject *k)
{
    size_t n = a->limbs;
    if (b && b->limbs > n)
        n = b->limbs;
    size_t total = 3 * n + tw_scratch_limbs(n);
    u64 on_stack[STACK_LIMBS];
    u64 *buf = total <= STACK_LIMBS ? on_stack : (u64 *)PyMem_Malloc(total * sizeof(u64));
    if (!buf)
        return PyErr_NoMemory();
    u64 *x = buf, *y = buf + n, *out = buf + 2 * n, *s = buf + 3 * n;
    PyObject *result = NULL;
    if (nb_load(a, x, n) < 0 || (b && nb_load(b, y, n) < 0))
        goto done;
    if (op == OP_POW && reduce_exponent(k, n, y) < 0)
        goto done;
    int status = NC_OK;
    nc_poll poll = nb_signal_poll();
    PyThreadState *saved = n >= RELEASE_GIL_LIMBS ? PyEval_SaveThread() : NULL;
    const nc_poll *stop = saved ? &poll : NULL;
    switch (op) {
    case OP_MUL: status = tw_mul(x, y, out, n, s, stop); break;
    case OP_DIV: status = tw_div(x, y, out, n, s, stop); break;
    case OP_POW: status = tw_pow(x, y, n, out, n, s, stop); break;
    case OP_SQUARE: status = tw_square(x, out, n, s, stop); break;
    case OP_SQRT: status = tw_sqrt(x, out, n, s, stop); break;
    case OP_INV: status = tw_inv(x, out, n, s, stop); break;
    default: break;
    }
    if (saved)
        PyEval_RestoreThread(saved);
    result = status == NC_OK ? nb_from_limbs(out, n) : nb_status_error(status);
done:
    if (buf != on_stack)
        PyMem_Free(buf);
    return result;
}

/* a^k for an exact int k. */
static PyObject *pow_exact(const nim_arg *a, PyObject *k)
{
    if (a->limbs == 1 && a->small <= 1) {
        if (a->small == 0)
            return pow_zero_base(k);
        return PyLong_FromLong(1);
    }
    int overflow = 0;
    long long small_k = PyLong_AsLongLongAndOverflow(k, &overflow);
    if (small_k == -1 && PyErr_Occurred())
        return NULL;
    if (overflow < 0 || (!overflow && small_k < 0)) {
        /* a^k = (a^-1)^(-k): one inverse, then an exponent no larger than |k| (reducing a
         * negative k modulo the group order would give an exponent as long as the field). */
        PyObject *inv = nb_scalar(OP_INV, a->obj, NULL);
        PyObject *minus_k = inv ? PyNumber_Negative(k) : NULL;
        PyObject *r = minus_k ? nb_scalar(OP_POW, inv, minus_k) : NULL;
        Py_XDECREF(inv);
        Py_XDECREF(minus_k);
        return r;
    }
    if (a->limbs == 1) {
        unsigned long long e = PyLong_AsUnsignedLongLong(k); /* every 64-bit exponent */
        if (!(e == (unsigned long long)-1 && PyErr_Occurred()))
            return PyLong_FromUnsignedLongLong(nk_pow(a->small, (u64)e));
        PyErr_Clear();
    }
    return scalar_limbs(OP_POW, a, NULL, k);
}

static PyObject *scalar_pow(const nim_arg *a, PyObject *k)
{
    if (!PyLong_Check(k)) {
        PyErr_Format(PyExc_TypeError, "the exponent must be an int, not %.100s",
                     Py_TYPE(k)->tp_name);
        return NULL;
    }
    /* An exact int: an int subclass's own arithmetic never runs in the reduction below. */
    PyObject *exact = PyNumber_Index(k);
    if (!exact)
        return NULL;
    PyObject *r = pow_exact(a, exact);
    Py_DECREF(exact);
    return r;
}

PyObject *nb_scalar(nim_op op, PyObject *ao, PyObject *bo)
{
    nim_arg a, b = {NULL, 0, 1};
    if (nb_parse(ao, &a) < 0)
        return NULL;
    if (op == OP_POW)
        return scalar_pow(&a, bo);
    int binary = nim_op_arity[op] == 2;
    if (binary && nb_parse(bo, &b) < 0)
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

/* ---- elements of object arrays: ints, or Nimbers read as their values ------------------- */

/* nimbers.Nimber, registered by nimbers/nimber.py when it is imported (the class is defined
 * in Python; the loops only need to recognise it).  A borrowed-and-kept reference. */
static PyObject *nimber_type = NULL;

static PyObject *py_register_nimber(PyObject *m, PyObject *type)
{
    (void)m;
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "_register_nimber() takes the Nimber class");
        return NULL;
    }
    Py_INCREF(type);
    Py_XSETREF(nimber_type, type);
    Py_RETURN_NONE;
}

static int is_nimber(PyObject *o)
{
    return nimber_type && Py_IS_TYPE(o, (PyTypeObject *)nimber_type);
}

/* The int a Nimber holds (its "_value" slot), or o itself: a new reference. */
static PyObject *element_value(PyObject *o)
{
    if (!is_nimber(o))
        return Py_NewRef(o);
    PyObject *value = PyObject_GetAttrString(o, "_value");
    if (value && !PyLong_CheckExact(value)) {
        PyErr_SetString(PyExc_TypeError, "a Nimber whose value is not an int");
        Py_CLEAR(value);
    }
    return value;
}

PyObject *nb_element(nim_op op, PyObject *ao, PyObject *bo)
{
    PyObject *a = element_value(ao);
    PyObject *b = a && bo ? element_value(bo) : NULL;
    PyObject *r = NULL;
    if (a && (b || !bo))
        r = nb_scalar(op, a, op == OP_POW ? bo : b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    /* A Nimber gives a Nimber, as in a call on scalars (an exponent is only a count). */
    if (r && (is_nimber(ao) || (bo && op != OP_POW && is_nimber(bo))))
        Py_SETREF(r, PyObject_CallOneArg(nimber_type, r));
    return r;
}

int nb_limbs_of(PyObject *o, u64 *dst, size_t n)
{
    nim_arg a;
    if (nb_parse(o, &a) < 0)
        return -1;
    if (a.limbs > n) {
        PyErr_SetString(PyExc_ValueError, "value does not fit the field");
        return -1;
    }
    return nb_load(&a, dst, n);
}

/* ---- module functions: scalars ------------------------------------------------------------ */

#define UNARY(name, op)                                                                   \
    static PyObject *py_##name(PyObject *m, PyObject *a)                                  \
    {                                                                                     \
        (void)m;                                                                          \
        return nb_scalar(op, a, NULL);                                                   \
    }
#define BINARY(name, op)                                                                  \
    static PyObject *py_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs)      \
    {                                                                                     \
        (void)m;                                                                          \
        if (nargs != 2) {                                                                 \
            PyErr_SetString(PyExc_TypeError, #name "() takes exactly 2 arguments");       \
            return NULL;                                                                  \
        }                                                                                 \
        return nb_scalar(op, args[0], args[1]);                                          \
    }

BINARY(add, OP_ADD)
BINARY(mul, OP_MUL)
BINARY(div, OP_DIV)
BINARY(pow, OP_POW)
UNARY(sqrt, OP_SQRT)
UNARY(inv, OP_INV)


static PyMethodDef int_methods[] = {
    {"add", (PyCFunction)(void (*)(void))py_add, METH_FASTCALL, "add(a, b, /)\n--\n\nnim-sum"},
    {"mul", (PyCFunction)(void (*)(void))py_mul, METH_FASTCALL, "mul(a, b, /)\n--\n\nnim-product"},
    {"div", (PyCFunction)(void (*)(void))py_div, METH_FASTCALL, "div(a, b, /)\n--\n\nnim-quotient"},
    {"pow", (PyCFunction)(void (*)(void))py_pow, METH_FASTCALL, "pow(a, k, /)\n--\n\nnim-power"},
    {"sqrt", py_sqrt, METH_O, "sqrt(a, /)\n--\n\nnim square root"},
    {"inv", py_inv, METH_O, "inv(a, /)\n--\n\nnim-inverse"},
    {"_register_nimber", py_register_nimber, METH_O,
     "_register_nimber(cls, /)\n--\n\nthe Nimber class, whose instances array loops read as their values"},
    {NULL, NULL, 0, NULL},
};

int nb_add_ints(PyObject *module)
{
    if (PyModule_AddFunctions(module, int_methods) < 0)
        return -1;
    return PyModule_AddIntConstant(module, "MAX_BITS", (long)(NB_MAX_LIMBS * 64));
}
