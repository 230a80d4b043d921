/*
 * frontier.c -- the binding of the frontier engine (csrc/core/frontier.h): an engine is a
 * capsule; its steps run with the GIL released and stop on Ctrl-C, keeping what they made.
 * NIMBERS_FRONTIER_PATH=avx512|avx2|portable (read when an engine is made) forces the block
 * engine's vector kernels onto a narrower path; a path this CPU lacks is a ValueError.
 */
#include "bindings.h"

#include "frontier/frontier.h"

#include <stdlib.h>
#include <string.h>

/* The path named by NIMBERS_FRONTIER_PATH ("auto" or unset: the widest this CPU runs), or -1
 * with a ValueError set. */
static int path_from_environment(void)
{
    const char *name = getenv("NIMBERS_FRONTIER_PATH");
    if (!name || !*name || strcmp(name, "auto") == 0)
        return fr_path_best();
    for (int p = 0; p < FR_PATHS; p++) {
        if (strcmp(name, fr_path_name(p)) != 0)
            continue;
        if (fr_path_supported(p))
            return p;
        PyErr_Format(PyExc_ValueError, "NIMBERS_FRONTIER_PATH=%s: this CPU lacks the "
                     "instructions of that path (it runs %s)", name, fr_path_name(fr_path_best()));
        return -1;
    }
    PyErr_Format(PyExc_ValueError, "NIMBERS_FRONTIER_PATH=%s: not a path (avx512, avx2, "
                 "portable or auto)", name);
    return -1;
}

#define CAPSULE "nimbers.frontier"

static void capsule_free(PyObject *cap)
{
    fr_free((fr_state *)PyCapsule_GetPointer(cap, CAPSULE));
}

static fr_state *engine_of(PyObject *o)
{
    return (fr_state *)PyCapsule_GetPointer(o, CAPSULE);
}

/* A 1-d C-contiguous uint16 buffer (writable when asked). */
static int u16_view(PyObject *o, Py_buffer *view, int writable)
{
    if (PyObject_GetBuffer(o, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT |
                                        (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '=' || *f == '<' || *f == '@')
        f++;
    if (view->ndim != 1 || view->itemsize != 2 || *f != 'H') {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "frontier: a 1-d uint16 array is needed");
        return -1;
    }
    return 0;
}

/* frontier_new(rules, threads, head, window): rules a sequence of digit bit sets (None:
 * Grundy's game). */
static PyObject *py_frontier_new(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "frontier_new(rules, threads, head, window)");
        return NULL;
    }
    long threads = PyLong_AsLong(args[1]);
    Py_ssize_t head = PyLong_AsSsize_t(args[2]), window = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred())
        return NULL;
    if (threads < 1 || threads > 64 || head < 0 || window < 0) {
        PyErr_SetString(PyExc_ValueError, "frontier_new: threads 1..64, head and window >= 0");
        return NULL;
    }
    int path = path_from_environment();
    if (path < 0)
        return NULL;
    unsigned rules[33];
    Py_ssize_t nrules = 0;
    if (args[0] != Py_None) {
        PyObject *seq = PySequence_Fast(args[0], "rules must be a sequence of ints");
        if (!seq)
            return NULL;
        nrules = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < nrules && i < 32; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v < 0 || v > 15) {
                Py_DECREF(seq);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a rule digit must be 0..15");
                return NULL;
            }
            rules[i] = (unsigned)v;
        }
        Py_DECREF(seq);
        if (nrules > 32) {
            PyErr_SetString(PyExc_ValueError, "frontier_new: at most 32 rule digits");
            return NULL;
        }
    }
    fr_state *s = fr_new(args[0] == Py_None ? NULL : rules, (size_t)nrules, (int)threads,
                         (size_t)head, (size_t)window);
    if (!s) {
        PyErr_SetString(PyExc_ValueError, "frontier_new: out of memory, or a game whose moves "
                                          "leave three heaps or never two");
        return NULL;
    }
    fr_set_path(s, path); /* supported: checked above */
    PyObject *cap = PyCapsule_New(s, CAPSULE, capsule_free);
    if (!cap)
        fr_free(s);
    return cap;
}

/* frontier_set_file(engine, fd, width) */
static PyObject *py_frontier_set_file(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "frontier_set_file(engine, fd, width)");
        return NULL;
    }
    fr_state *s = engine_of(args[0]);
    long fd = PyLong_AsLong(args[1]), width = PyLong_AsLong(args[2]);
    if (!s || PyErr_Occurred())
        return NULL;
    if (width != 1 && width != 2) {
        PyErr_SetString(PyExc_ValueError, "frontier_set_file: width 1 or 2");
        return NULL;
    }
    fr_set_file(s, (int)fd, (int)width);
    Py_RETURN_NONE;
}

/* frontier_feed(engine, values): appends known values (uint16). */
static PyObject *py_frontier_feed(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "frontier_feed(engine, values)");
        return NULL;
    }
    fr_state *s = engine_of(args[0]);
    Py_buffer view;
    if (!s || u16_view(args[1], &view, 0) < 0)
        return NULL;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = fr_feed(s, (const uint16_t *)view.buf, (size_t)view.shape[0]);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (status != NC_OK)
        return nb_status_error(status);
    Py_RETURN_NONE;
}

/* frontier_set_mask(engine, emask): rebuilds the rare list. */
static PyObject *py_frontier_set_mask(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "frontier_set_mask(engine, emask)");
        return NULL;
    }
    fr_state *s = engine_of(args[0]);
    long long emask = PyLong_AsLongLong(args[1]);
    if (!s || PyErr_Occurred())
        return NULL;
    if (emask < 0 || emask > 0x1ffff) {
        PyErr_SetString(PyExc_ValueError, "frontier_set_mask: a mask of 17 bits");
        return NULL;
    }
    nc_poll poll = nb_signal_poll();
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = fr_set_mask(s, (uint32_t)emask, &poll);
    Py_END_ALLOW_THREADS
    if (status == NC_BADARG) {
        PyErr_SetString(PyExc_ValueError, "frontier_set_mask: a parity bit for splits of both "
                                          "parities, or the values file cannot be read");
        return NULL;
    }
    if (status != NC_OK)
        return nb_status_error(status);
    Py_RETURN_NONE;
}

/* frontier_step(engine, out, count) -> (made, stopped): out[0..made) are the next values;
 * stopped when Ctrl-C asked to stop (the KeyboardInterrupt is left to the caller to raise
 * once it has kept them). */
static PyObject *py_frontier_step(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "frontier_step(engine, out, count)");
        return NULL;
    }
    fr_state *s = engine_of(args[0]);
    Py_ssize_t count = PyLong_AsSsize_t(args[2]);
    if (!s || PyErr_Occurred())
        return NULL;
    Py_buffer view;
    if (u16_view(args[1], &view, 1) < 0)
        return NULL;
    if (count < 0 || count > view.shape[0]) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "frontier_step: 0 <= count <= len(out)");
        return NULL;
    }
    nc_poll poll = nb_signal_poll();
    size_t made = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = fr_step(s, (size_t)count, (uint16_t *)view.buf, &made, &poll);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    int stopped = status == NC_STOPPED;
    if (stopped && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
            return NULL; /* a signal handler raised something else */
        PyErr_Clear();
    }
    if (status == NC_BADARG) {
        PyErr_SetString(PyExc_ValueError, "frontier_step: a value of 2^16 or more, no mask, "
                                          "or the values file cannot be read");
        return NULL;
    }
    if (status != NC_OK && !stopped)
        return nb_status_error(status);
    return Py_BuildValue("(nO)", (Py_ssize_t)made, stopped ? Py_True : Py_False);
}

/* frontier_info(engine) -> (done, rare, last_rare, bits, emask, parts, near, blocked,
 * taken_back, narrowed, alone_until, lag_until, teamed) */
static PyObject *py_frontier_info(PyObject *mod, PyObject *arg)
{
    (void)mod;
    fr_state *s = engine_of(arg);
    if (!s)
        return NULL;
    fr_info i;
    fr_get_info(s, &i);
    return Py_BuildValue("(KKKIInnKKKKKK)", (unsigned long long)i.done, (unsigned long long)i.rare,
                         (unsigned long long)i.last_rare, i.bits, (unsigned)i.emask,
                         (Py_ssize_t)i.parts, (Py_ssize_t)i.near_limit,
                         (unsigned long long)i.blocked, (unsigned long long)i.taken_back,
                         (unsigned long long)i.narrowed, (unsigned long long)i.alone_until,
                         (unsigned long long)i.lag_until, (unsigned long long)i.teamed);
}

/* frontier_vectors() -> bool: whether this CPU runs a vector path wider than the portable one
 * (AVX2 or AVX-512; every CPU runs the blocks, on the portable path at least) */
static PyObject *py_frontier_vectors(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    return PyBool_FromLong(fr_path_best() != FR_PATH_PORTABLE);
}

/* frontier_paths() -> tuple of the paths this CPU runs, narrowest first */
static PyObject *py_frontier_paths(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    PyObject *out = PyTuple_New(0);
    for (int p = 0; out && p < FR_PATHS; p++) {
        if (!fr_path_supported(p))
            continue;
        PyObject *name = PyUnicode_FromString(fr_path_name(p));
        if (!name || _PyTuple_Resize(&out, PyTuple_GET_SIZE(out) + 1) < 0) {
            Py_XDECREF(name);
            Py_XDECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, PyTuple_GET_SIZE(out) - 1, name);
    }
    return out;
}

/* frontier_path(engine) -> str: the path of the engine's vector kernels */
static PyObject *py_frontier_path(PyObject *mod, PyObject *arg)
{
    (void)mod;
    fr_state *s = engine_of(arg);
    if (!s)
        return NULL;
    return PyUnicode_FromString(fr_path_name(fr_get_path(s)));
}

static PyMethodDef frontier_methods[] = {
    {"frontier_new", (PyCFunction)(void (*)(void))py_frontier_new, METH_FASTCALL,
     "frontier_new(rules, threads, head, window): a frontier engine"},
    {"frontier_set_file", (PyCFunction)(void (*)(void))py_frontier_set_file, METH_FASTCALL,
     "frontier_set_file(engine, fd, width): the values file to read old values from"},
    {"frontier_feed", (PyCFunction)(void (*)(void))py_frontier_feed, METH_FASTCALL,
     "frontier_feed(engine, values): appends known values"},
    {"frontier_set_mask", (PyCFunction)(void (*)(void))py_frontier_set_mask, METH_FASTCALL,
     "frontier_set_mask(engine, emask): the sparse-space mask; rebuilds the rare list"},
    {"frontier_step", (PyCFunction)(void (*)(void))py_frontier_step, METH_FASTCALL,
     "frontier_step(engine, out, count) -> (made, stopped)"},
    {"frontier_info", py_frontier_info, METH_O,
     "frontier_info(engine) -> (done, rare, last_rare, bits, emask, parts, near, blocked, "
     "taken_back, narrowed, alone_until, lag_until, teamed)"},
    {"frontier_vectors", py_frontier_vectors, METH_NOARGS,
     "frontier_vectors() -> bool: whether this CPU runs a vector path (AVX2 or AVX-512)"},
    {"frontier_paths", py_frontier_paths, METH_NOARGS,
     "frontier_paths() -> tuple: the block engine's paths this CPU runs, narrowest first"},
    {"frontier_path", py_frontier_path, METH_O,
     "frontier_path(engine) -> str: 'avx512', 'avx2' or 'portable' (NIMBERS_FRONTIER_PATH)"},
    {NULL, NULL, 0, NULL},
};

int nb_add_frontier(PyObject *module) { return PyModule_AddFunctions(module, frontier_methods); }
