/*
 * module.c -- the nimbers._core extension module: its init, which builds the core's tables and
 * gathers what each binding file adds, and the choice of the 64-bit kernel.  See bindings.h for
 * the map of the binding files and _core.pyi for the Python-side contract.
 */
#include "bindings.h"

#include <string.h>

/* The kernels by name, fastest last ("auto" takes the fastest the CPU has). */
static const struct {
    const char *name;
    int kernel;
} kernel_names[] = {{"portable", NK_PORTABLE}, {"clmul", NK_CLMUL}, {"vpclmul", NK_VPCLMUL}};
#define NUM_KERNELS (int)(sizeof kernel_names / sizeof kernel_names[0])

static int best_kernel(void)
{
    int best = NK_PORTABLE;
    for (int i = 0; i < NUM_KERNELS; i++)
        if (nk_kernel_available(kernel_names[i].kernel))
            best = kernel_names[i].kernel;
    return best;
}

static PyObject *py_set_kernel(PyObject *m, PyObject *arg)
{
    (void)m;
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!name) {
        PyErr_SetString(PyExc_TypeError,
                        "set_kernel() takes 'portable', 'clmul', 'vpclmul' or 'auto'");
        return NULL;
    }
    int k = strcmp(name, "auto") == 0 ? best_kernel() : -1;
    for (int i = 0; i < NUM_KERNELS && k < 0; i++)
        if (strcmp(name, kernel_names[i].name) == 0)
            k = kernel_names[i].kernel;
    if (k < 0) {
        PyErr_Format(PyExc_ValueError,
                     "unknown kernel %R: use 'portable', 'clmul', 'vpclmul' or 'auto'", arg);
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
        PyErr_Format(PyExc_ValueError,
                     "this CPU cannot run the %s kernel (see available_kernels())", name);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *py_get_kernel(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    for (int i = 0; i < NUM_KERNELS; i++)
        if (kernel_names[i].kernel == nk_get_kernel())
            return PyUnicode_FromString(kernel_names[i].name);
    Py_RETURN_NONE;
}

static PyObject *py_available_kernels(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    PyObject *names = PyList_New(0);
    for (int i = 0; names && i < NUM_KERNELS; i++) {
        if (!nk_kernel_available(kernel_names[i].kernel))
            continue;
        PyObject *name = PyUnicode_FromString(kernel_names[i].name);
        if (!name || PyList_Append(names, name) < 0)
            Py_CLEAR(names);
        Py_XDECREF(name);
    }
    if (!names)
        return NULL;
    PyObject *t = PyList_AsTuple(names);
    Py_DECREF(names);
    return t;
}

static PyObject *py_clmul_available(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    return PyBool_FromLong(nk_kernel_available(NK_CLMUL));
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
    {"get_kernel", py_get_kernel, METH_NOARGS, "get_kernel() -> 'portable', 'clmul' or 'vpclmul'"},
    {"available_kernels", py_available_kernels, METH_NOARGS,
     "available_kernels() -> the kernels this CPU can run, fastest last"},
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
        nb_add_linalg(m) < 0 || nb_add_logtable(m) < 0 || nb_add_games(m) < 0 ||
        nb_add_sparse(m) < 0 || nb_add_quadratic(m) < 0 || nb_add_frontier(m) < 0 ||
        nb_add_quotient(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
