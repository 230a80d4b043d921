/*
 * games.c -- the bindings of the game engines (csrc/core/heap.h, turning.h): the Grundy values
 * of heap games and of structured coin-turning games, extended in place in a numpy array.
 */
#include "bindings.h"

#include <string.h>

#include "heap.h"
#include "turning.h"

/* heap_extend(rules, g, start, stop, mask, method): rules a sequence of digit bit sets (None
 * for Grundy's game), g a writable C-contiguous uint8/16/32 buffer holding g[0..start); fills
 * g[start..stop) with the GIL released (Ctrl-C polled).  Returns (reached, mask, rare,
 * sparse_positions, exact_positions); reached < stop when a value outgrew the width.
 * heap_period(g, n, pmax, a, b, c, floor) -> (p, n0) or None: see hp_first_period. */
static PyObject *py_heap_extend(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "heap_extend(rules, g, start, stop, mask, method)");
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[2]), stop = PyLong_AsSsize_t(args[3]);
    long long mask = PyLong_AsLongLong(args[4]);
    long method = PyLong_AsLong(args[5]);
    if (PyErr_Occurred())
        return NULL;
    if (mask < -1 || mask > 0xfffffffeLL || method < HP_AUTO || method > HP_SPARSE) {
        PyErr_SetString(PyExc_ValueError, "heap_extend: mask -1 (automatic) or 0..2^32-2, method 0..2");
        return NULL;
    }
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
    const char *f = view.format ? view.format : "B";
    if (*f == '=' || *f == '<' || *f == '@')
        f++;
    int ok = view.ndim == 1 && 0 <= start && start <= stop && stop <= view.shape[0] &&
             ((view.itemsize == 1 && *f == 'B') || (view.itemsize == 2 && *f == 'H') ||
              (view.itemsize == 4 && (*f == 'I' || *f == 'L')));
    nc_poll poll = nb_signal_poll();
    hp_config cfg = {rules, (size_t)nrules, (int)view.itemsize, (int)method,
                     mask < 0 ? HP_MASK_AUTO : (uint32_t)mask, &poll};
    hp_report report = {0, 0, 0, 0, 0};
    size_t reached = (size_t)start;
    int status = NC_OK;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        status = hp_extend(&cfg, view.buf, (size_t)start, (size_t)stop, &reached, &report);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    PyMem_Free(rules);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError,
                        "heap_extend needs a 1-d uint8/uint16/uint32 array and 0 <= start <= stop <= len");
        return NULL;
    }
    if (status == NC_BADARG) {
        PyErr_SetString(PyExc_ValueError, "heap_extend: a Grundy value of 2^24 or more (beyond "
                                          "the engine's tables)");
        return NULL;
    }
    if (status != NC_OK)
        return nb_status_error(status);
    return Py_BuildValue("(nkknn)", (Py_ssize_t)reached, (unsigned long)report.mask,
                         (unsigned long)report.rare, (Py_ssize_t)report.sparse_positions,
                         (Py_ssize_t)report.exact_positions);
}

static PyObject *py_heap_period(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "heap_period(g, n, pmax, a, b, c, floor)");
        return NULL;
    }
    Py_ssize_t v[6];
    for (int i = 0; i < 6; i++) {
        v[i] = PyLong_AsSsize_t(args[i + 1]);
        if (v[i] == -1 && PyErr_Occurred())
            return NULL;
        if (v[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "heap_period: negative argument");
            return NULL;
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (view.ndim != 1 || (view.itemsize != 1 && view.itemsize != 2 && view.itemsize != 4) ||
        v[0] > view.shape[0] || v[2] < 1) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "heap_period needs a 1-d array of 1, 2 or 4 bytes, n <= len, a >= 1");
        return NULL;
    }
    hp_period_rule rule = {(size_t)v[2], (size_t)v[3], (size_t)v[4], (size_t)v[5]};
    size_t n0 = 0, p;
    Py_BEGIN_ALLOW_THREADS
    p = hp_first_period(view.buf, (int)view.itemsize, (size_t)v[0], (size_t)v[1], &rule, &n0);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (!p)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", (Py_ssize_t)p, (Py_ssize_t)n0);
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
        nc_poll poll = nb_signal_poll();
        Py_BEGIN_ALLOW_THREADS
        status = tg_values((int)family, (size_t)lo, h, (uint64_t *)view.buf, (size_t)start,
                           (size_t)stop, &poll);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "turning_extend: bad arguments");
        return NULL;
    }
    if (status != NC_OK)
        return nb_status_error(status);
    Py_RETURN_NONE;
}

static PyMethodDef game_methods[] = {
    {"turning_extend", (PyCFunction)(void (*)(void))py_turning_extend, METH_FASTCALL,
     "turning_extend(family, lo, hi, g, start, stop): coin-turning Grundy values"},
    {"heap_period", (PyCFunction)(void (*)(void))py_heap_period, METH_FASTCALL,
     "heap_period(g, n, pmax, a, b, c, floor): the least provable period, (p, n0) or None"},
    {"heap_extend", (PyCFunction)(void (*)(void))py_heap_extend, METH_FASTCALL,
     "heap_extend(rules, g, start, stop, mask, method): Grundy values of a heap game"},
    {NULL, NULL, 0, NULL},
};

int nb_add_games(PyObject *module) { return PyModule_AddFunctions(module, game_methods); }
