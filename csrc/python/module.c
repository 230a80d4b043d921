/*
 * module.c -- the nimbers._core extension module: its init, which builds the core's tables and
 * gathers what each binding file adds, and the choice of the 64-bit kernel.  See bindings.h for
 * the map of the binding files and _core.pyi for the Python-side contract.
 */
#include "bindings.h"

#include <string.h>

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
    int status = nk_set_kernel(k);
    if (status == -2) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a computation is running in another thread: select the kernel "
                        "before starting threads, or when they are idle");
        return NULL;
    }
    if (status < 0) {
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

static PyMethodDef kernel_methods[] = {
    {"set_kernel", py_set_kernel, METH_O, "set_kernel('portable'|'clmul'|'auto')"},
    {"get_kernel", py_get_kernel, METH_NOARGS, "get_kernel() -> 'portable' or 'clmul'"},
    {"clmul_available", py_clmul_available, METH_NOARGS, "whether the CPU has carry-less multiply"},
    {"poly_basis", py_poly_basis, METH_NOARGS,
     "(alpha, r): the carry-less kernel's basis generator and its modulus t^64 + r"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "nimbers._core",
    "The compiled core of nimbers: nim arithmetic, ufuncs, linear algebra and game engines.",
    -1, kernel_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    nk_init();
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    if (nb_add_ints(m) < 0 || nb_add_nimop(m) < 0 || nb_add_ufuncs(m) < 0 ||
        nb_add_linalg(m) < 0 || nb_add_logtable(m) < 0 || nb_add_games(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
