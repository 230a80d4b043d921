/*
 * quadratic.c -- solve_quadratic64(b, c): the roots of x (x) x (+) b (x) x = c for Python ints
 * b, c below 2^64, in one call (the core's quadratic.c); None for any other operands, which
 * field.solve_quadratic then validates and solves on its general path.
 */
#include "bindings.h"

/* An exact int in [0, 2^64) into *out: 1, or 0 (anything else; no exception left set). */
static int small_int(PyObject *o, u64 *out)
{
    if (!PyLong_CheckExact(o))
        return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear(); /* negative or 2^64 and up: the general path says what is wrong */
        return 0;
    }
    *out = (u64)v;
    return 1;
}

static PyObject *py_solve_quadratic64(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "solve_quadratic64(b, c) takes two ints");
        return NULL;
    }
    u64 b, c, roots[2][2];
    if (!small_int(args[0], &b) || !small_int(args[1], &c))
        Py_RETURN_NONE;
    int count = nq_solve_quadratic64(b, c, roots);
    if (count < 0) {
        PyErr_SetString(PyExc_AssertionError, "y^2 + y = d always has a root one field up");
        return NULL;
    }
    PyObject *result = PyTuple_New(count);
    for (int k = 0; result && k < count; k++) {
        const u64 limbs[2] = {roots[k][1], roots[k][0]};
        PyObject *root = nb_from_limbs(limbs, 2);
        if (!root) {
            Py_CLEAR(result);
            break;
        }
        PyTuple_SET_ITEM(result, k, root);
    }
    return result;
}

static PyMethodDef quadratic_methods[] = {
    {"solve_quadratic64", (PyCFunction)(void (*)(void))py_solve_quadratic64, METH_FASTCALL,
     "solve_quadratic64(b, c) -> the roots of x^2 + b x = c (nim arithmetic), increasing, for "
     "ints b, c below 2^64; None for other operands"},
    {NULL, NULL, 0, NULL},
};

int nb_add_quadratic(PyObject *module)
{
    nq_init();
    return PyModule_AddFunctions(module, quadratic_methods);
}
