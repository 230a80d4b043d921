/*
 * linalg.c -- the bindings of the core's Gaussian elimination: a matrix travels as a
 * C-contiguous uint64 buffer of shape (rows, cols, limbs), limbs a power of two (one limb for
 * entries below 2^64, more for the arbitrary-precision path), in the nim basis.  The core
 * works on the buffer in place with the GIL released and stops on Ctrl-C.
 */
#include "bindings.h"

#include <string.h>

typedef struct {
    Py_buffer view;
    size_t rows, cols, limbs;
} matrix_arg;

static int get_matrix(PyObject *o, matrix_arg *m)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE;
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
        ok = m->limbs >= 1 && (m->limbs & (m->limbs - 1)) == 0 && m->limbs <= NB_MAX_LIMBS;
    }
    if (!ok) {
        PyBuffer_Release(&m->view);
        PyErr_SetString(PyExc_ValueError,
                        "expected a C-contiguous uint64 array of shape (rows, cols, limbs)");
        return -1;
    }
    return 0;
}

static u64 *data(matrix_arg *m) { return (u64 *)m->view.buf; }

static PyObject *py_det(PyObject *mod, PyObject *arg)
{
    (void)mod;
    matrix_arg m;
    if (get_matrix(arg, &m) < 0)
        return NULL;
    if (m.rows != m.cols) {
        PyBuffer_Release(&m.view);
        PyErr_SetString(PyExc_ValueError, "det needs a square matrix");
        return NULL;
    }
    u64 *det = (u64 *)PyMem_Calloc(m.limbs, sizeof(u64));
    int status = NC_NOMEM;
    if (det) {
        nc_poll poll = nb_signal_poll();
        Py_BEGIN_ALLOW_THREADS
        status = la_det(data(&m), m.rows, m.limbs, det, &poll);
        Py_END_ALLOW_THREADS
    }
    PyObject *r = status == NC_OK ? nb_from_limbs(det, m.limbs) : nb_status_error(status);
    PyMem_Free(det);
    PyBuffer_Release(&m.view);
    return r;
}

static PyObject *row_reduce_result(size_t rank, const size_t *pivots, const u64 *det,
                                   const matrix_arg *m)
{
    PyObject *piv = PyList_New((Py_ssize_t)rank);
    for (size_t i = 0; piv && i < rank; i++) {
        PyObject *p = PyLong_FromSize_t(pivots[i]);
        if (!p) {
            Py_CLEAR(piv);
            break;
        }
        PyList_SET_ITEM(piv, (Py_ssize_t)i, p);
    }
    PyObject *d = m->rows == m->cols ? nb_from_limbs(det, m->limbs) : Py_NewRef(Py_None);
    PyObject *result = piv && d ? Py_BuildValue("(nOO)", (Py_ssize_t)rank, piv, d) : NULL;
    Py_XDECREF(piv);
    Py_XDECREF(d);
    return result;
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
    if (get_matrix(args[0], &m) < 0)
        return NULL;
    if (has_aug && get_matrix(args[1], &a) < 0) {
        PyBuffer_Release(&m.view);
        return NULL;
    }
    if (has_aug && (a.rows != m.rows || a.limbs != m.limbs || a.view.buf == m.view.buf)) {
        PyBuffer_Release(&m.view);
        PyBuffer_Release(&a.view);
        PyErr_SetString(PyExc_ValueError,
                        "the augmented matrix must be another array with as many rows");
        return NULL;
    }
    size_t npiv = m.rows < m.cols ? m.rows : m.cols, rank = 0;
    size_t *pivots = (size_t *)PyMem_Malloc((npiv + 1) * sizeof(size_t));
    u64 *det = (u64 *)PyMem_Calloc(m.limbs, sizeof(u64));
    int status = NC_NOMEM;
    if (pivots && det) {
        nc_poll poll = nb_signal_poll();
        Py_BEGIN_ALLOW_THREADS
        status = la_row_reduce(data(&m), m.rows, m.cols, m.limbs, pivots, &rank, det,
                               has_aug ? data(&a) : NULL, has_aug ? a.cols : 0, &poll);
        Py_END_ALLOW_THREADS
    }
    PyObject *result = status == NC_OK ? row_reduce_result(rank, pivots, det, &m)
                                       : nb_status_error(status);
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
    if (get_matrix(args[0], &a) < 0)
        return NULL;
    if (get_matrix(args[1], &b) < 0) {
        PyBuffer_Release(&a.view);
        return NULL;
    }
    if (get_matrix(args[2], &o) < 0) {
        PyBuffer_Release(&a.view);
        PyBuffer_Release(&b.view);
        return NULL;
    }
    /* The core converts a and b in place (and back): they must be distinct buffers, and
     * distinct from out. */
    int fits = a.cols == b.rows && o.rows == a.rows && o.cols == b.cols &&
               a.limbs == b.limbs && a.limbs == o.limbs && a.view.buf != b.view.buf &&
               o.view.buf != a.view.buf && o.view.buf != b.view.buf;
    int status = NC_BADARG;
    if (fits) {
        nc_poll poll = nb_signal_poll();
        Py_BEGIN_ALLOW_THREADS
        status = la_matmul(data(&a), data(&b), data(&o), a.rows, a.cols, b.cols, a.limbs,
                           &poll);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&a.view);
    PyBuffer_Release(&b.view);
    PyBuffer_Release(&o.view);
    if (status == NC_BADARG) {
        PyErr_SetString(PyExc_ValueError, "matmul: shapes do not match (or arrays are shared)");
        return NULL;
    }
    if (status != NC_OK)
        return nb_status_error(status);
    Py_RETURN_NONE;
}

static PyMethodDef linalg_methods[] = {
    {"det", py_det, METH_O, "det(m): determinant of an (r, r, limbs) uint64 array (overwritten)"},
    {"row_reduce", (PyCFunction)(void (*)(void))py_row_reduce, METH_FASTCALL,
     "row_reduce(m, aug) -> (rank, pivots, det): in place, to reduced row echelon form"},
    {"matmul", (PyCFunction)(void (*)(void))py_matmul, METH_FASTCALL,
     "matmul(a, b, out): out = a @ b over the nim field"},
    {NULL, NULL, 0, NULL},
};

int nb_add_linalg(PyObject *module) { return PyModule_AddFunctions(module, linalg_methods); }
