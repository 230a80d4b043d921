/*
 * games.c -- the bindings of the game engines (csrc/core/games.h): the Grundy values of heap
 * games and of structured coin-turning games, extended in place in a numpy array.
 */
#include "bindings.h"

#include <string.h>

#include "games.h"

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
    if (status != NC_OK)
        return nb_status_error(status);
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
    {"heap_extend", (PyCFunction)(void (*)(void))py_heap_extend, METH_FASTCALL,
     "heap_extend(rules, g, start, stop): Grundy values of a heap game, g[start:stop]"},
    {NULL, NULL, 0, NULL},
};

int nb_add_games(PyObject *module) { return PyModule_AddFunctions(module, game_methods); }
