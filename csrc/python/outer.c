/*
 * outer.c -- nim_mul.outer of unsigned arrays (the ufunc's own outer runs through numpy's
 * broadcast, which hides the constant of each row from the loop).
 */
#include "bindings.h"
#include "numpy_api.h"

#include <string.h>

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

int nb_add_outer(PyObject *module)
{
    return PyModule_AddFunctions(module, outer_methods);
}
