/*
 * quotient.c -- the bindings of the misère quotient loops (csrc/core/quotient.h).
 *
 * quotient_mark_p(mul, cycles, gen, opt_start, opt) -> (p, parent, via, order), over the
 *     monoid mul times the cyclic monoids of cycles (int32 (r, 2): index, period each; r may
 *     be 0; see mq_monoid): bytes of 0/1 (the
 *     P-portion read off) and native int32 arrays as bytes (the lex-least positions, as
 *     mq_mark_p gives them; order holds the elements reached only);
 * quotient_n_failure(mul, p, gen, opt_start, opt, max_states)
 *     -> (found, exponents tuple, states): found 1 (a failure, its exponents), 0 (none) or
 *        -1 (more than max_states states).
 * quotient_refine(delta, out) -> (classes as native int32 bytes, count): Moore's partition
 *     refinement of the automaton delta (int32 (letters, n)) with outputs out (uint8/bool).
 * mul: a C-contiguous int32 array (m, m); p: uint8 or bool (m,); gen: int32 (ng,);
 * opt_start: int64 (ng + 1,); opt: int32.  Both run with the GIL released, Ctrl-C polled.
 */
#include "bindings.h"

#include <string.h>

#include "quotient.h"

/* A C-contiguous buffer of ndim dimensions and items of the given size and format letters. */
static int get_array(PyObject *o, Py_buffer *view, int ndim, Py_ssize_t itemsize,
                     const char *formats, const char *name)
{
    if (PyObject_GetBuffer(o, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '=' || *f == '<' || *f == '@')
        f++;
    if (view->ndim != ndim || view->itemsize != itemsize || !*f || f[1] || !strchr(formats, *f)) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous %d-d array of %zd-byte items",
                     name, ndim, itemsize);
        return -1;
    }
    return 0;
}

typedef struct {
    Py_buffer mul, gen, start, opt;
    size_t m, ng;
} tables;

static void release(tables *t, int n)
{
    Py_buffer *b[] = {&t->mul, &t->gen, &t->start, &t->opt};
    for (int i = 0; i < n; i++)
        PyBuffer_Release(b[i]);
}

/* The monoid table and the generators' options, checked for shape (the core checks values). */
static int get_tables(PyObject *const *args, tables *t)
{
    if (get_array(args[0], &t->mul, 2, 4, "il", "mul") < 0)
        return -1;
    if (get_array(args[1], &t->gen, 1, 4, "il", "gen") < 0) {
        release(t, 1);
        return -1;
    }
    if (get_array(args[2], &t->start, 1, 8, "lq", "opt_start") < 0) {
        release(t, 2);
        return -1;
    }
    if (get_array(args[3], &t->opt, 1, 4, "il", "opt") < 0) {
        release(t, 3);
        return -1;
    }
    t->m = (size_t)t->mul.shape[0];
    t->ng = (size_t)t->gen.shape[0];
    if (t->mul.shape[1] != t->mul.shape[0] || t->m == 0 ||
        t->start.shape[0] != t->gen.shape[0] + 1) {
        release(t, 4);
        PyErr_SetString(PyExc_ValueError, "mul must be square and non-empty, opt_start one "
                                          "longer than gen");
        return -1;
    }
    return 0;
}

static PyObject *py_mark_p(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "quotient_mark_p(mul, cycles, gen, opt_start, opt)");
        return NULL;
    }
    PyObject *rest[4] = {args[0], args[2], args[3], args[4]};
    tables t;
    if (get_tables(rest, &t) < 0)
        return NULL;
    Py_buffer cyc;
    if (get_array(args[1], &cyc, 2, 4, "il", "cycles") < 0) {
        release(&t, 4);
        return NULL;
    }
    size_t ncyc = (size_t)cyc.shape[0];
    int32_t *index = (int32_t *)PyMem_Calloc(ncyc + 1, sizeof(int32_t));
    int32_t *period = (int32_t *)PyMem_Calloc(ncyc + 1, sizeof(int32_t));
    int ok = cyc.shape[1] == 2 && index && period;
    for (size_t j = 0; ok && j < ncyc; j++) {
        index[j] = ((const int32_t *)cyc.buf)[2 * j];
        period[j] = ((const int32_t *)cyc.buf)[2 * j + 1];
    }
    PyBuffer_Release(&cyc);
    mq_monoid monoid = {(const int32_t *)t.mul.buf, t.m, ncyc, index, period};
    size_t size = t.m;
    for (size_t j = 0; ok && j < ncyc; j++) {
        ok = index[j] >= 0 && period[j] >= 1 && index[j] <= INT32_MAX - period[j] &&
             size <= (size_t)INT32_MAX / ((size_t)index[j] + (size_t)period[j]);
        if (ok)
            size *= (size_t)index[j] + (size_t)period[j];
    }
    if (!ok) {
        PyMem_Free(index);
        PyMem_Free(period);
        release(&t, 4);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "cycles must be (r, 2): index >= 0, period >= 1, "
                                              "and the monoid below 2^31 elements");
        return NULL;
    }
    t.m = size;
    Py_ssize_t m = (Py_ssize_t)t.m;
    PyObject *out = PyBytes_FromStringAndSize(NULL, m);
    PyObject *parent = PyBytes_FromStringAndSize(NULL, m * 4);
    PyObject *via = PyBytes_FromStringAndSize(NULL, m * 4);
    int32_t *order = (int32_t *)PyMem_Malloc((size_t)m * 4);
    if (!out || !parent || !via || !order) {
        Py_XDECREF(out);
        Py_XDECREF(parent);
        Py_XDECREF(via);
        PyMem_Free(order);
        PyMem_Free(index);
        PyMem_Free(period);
        release(&t, 4);
        return order ? NULL : PyErr_NoMemory();
    }
    nc_poll poll = nb_signal_poll();
    int status;
    size_t reached = 0;
    Py_BEGIN_ALLOW_THREADS
    status = mq_mark_p(&monoid, (const int32_t *)t.gen.buf, t.ng,
                       (const int64_t *)t.start.buf, (const int32_t *)t.opt.buf,
                       (size_t)t.opt.shape[0], (uint8_t *)PyBytes_AS_STRING(out),
                       (int32_t *)PyBytes_AS_STRING(parent), (int32_t *)PyBytes_AS_STRING(via),
                       order, &reached, &poll);
    Py_END_ALLOW_THREADS
    release(&t, 4);
    PyMem_Free(index);
    PyMem_Free(period);
    if (status != NC_OK) {
        Py_DECREF(out);
        Py_DECREF(parent);
        Py_DECREF(via);
        PyMem_Free(order);
        if (status == NC_BADARG) {
            PyErr_SetString(PyExc_ValueError, "quotient_mark_p: an element out of range");
            return NULL;
        }
        return nb_status_error(status);
    }
    PyObject *first = PyBytes_FromStringAndSize((const char *)order, (Py_ssize_t)reached * 4);
    PyMem_Free(order);
    if (!first) {
        Py_DECREF(out);
        Py_DECREF(parent);
        Py_DECREF(via);
        return NULL;
    }
    return Py_BuildValue("(NNNN)", out, parent, via, first);
}

static PyObject *py_n_failure(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "quotient_n_failure(mul, p, gen, opt_start, opt, max_states)");
        return NULL;
    }
    Py_ssize_t max_states = PyLong_AsSsize_t(args[5]);
    if (max_states == -1 && PyErr_Occurred())
        return NULL;
    if (max_states < 0) {
        PyErr_SetString(PyExc_ValueError, "max_states must be >= 0");
        return NULL;
    }
    PyObject *rest[4] = {args[0], args[2], args[3], args[4]};
    tables t;
    if (get_tables(rest, &t) < 0)
        return NULL;
    Py_buffer p;
    if (get_array(args[1], &p, 1, 1, "B?", "p") < 0) {
        release(&t, 4);
        return NULL;
    }
    if ((size_t)p.shape[0] != t.m) {
        PyBuffer_Release(&p);
        release(&t, 4);
        PyErr_SetString(PyExc_ValueError, "p must have one entry per element");
        return NULL;
    }
    uint32_t *exps = (uint32_t *)PyMem_Calloc(t.ng + 1, sizeof(uint32_t));
    if (!exps) {
        PyBuffer_Release(&p);
        release(&t, 4);
        return PyErr_NoMemory();
    }
    nc_poll poll = nb_signal_poll();
    int status, found = 0;
    size_t states = 0;
    Py_BEGIN_ALLOW_THREADS
    status = mq_n_failure((const int32_t *)t.mul.buf, t.m, (const uint8_t *)p.buf,
                          (const int32_t *)t.gen.buf, t.ng, (const int64_t *)t.start.buf,
                          (const int32_t *)t.opt.buf, (size_t)t.opt.shape[0],
                          (size_t)max_states, exps, &found, &states, &poll);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&p);
    release(&t, 4);
    PyObject *word = NULL;
    if (status == NC_OK && (word = PyTuple_New((Py_ssize_t)t.ng)) != NULL) {
        for (size_t i = 0; i < t.ng; i++) {
            PyObject *v = PyLong_FromUnsignedLong(exps[i]);
            if (!v) {
                Py_CLEAR(word);
                break;
            }
            PyTuple_SET_ITEM(word, (Py_ssize_t)i, v);
        }
    }
    PyMem_Free(exps);
    if (status == NC_BADARG) {
        PyErr_SetString(PyExc_ValueError, "quotient_n_failure: an element out of range");
        return NULL;
    }
    if (status != NC_OK)
        return nb_status_error(status);
    if (!word)
        return NULL;
    return Py_BuildValue("(iNn)", found, word, (Py_ssize_t)states);
}

static PyObject *py_refine(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "quotient_refine(delta, out)");
        return NULL;
    }
    Py_buffer delta, out;
    if (get_array(args[0], &delta, 2, 4, "il", "delta") < 0)
        return NULL;
    if (get_array(args[1], &out, 1, 1, "B?", "out") < 0) {
        PyBuffer_Release(&delta);
        return NULL;
    }
    size_t ng = (size_t)delta.shape[0], n = (size_t)delta.shape[1];
    if ((size_t)out.shape[0] != n || n == 0 || n > (size_t)INT32_MAX) {
        PyBuffer_Release(&delta);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "delta must be (letters, n) and out (n,), n >= 1");
        return NULL;
    }
    PyObject *cls = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n * 4);
    if (!cls) {
        PyBuffer_Release(&delta);
        PyBuffer_Release(&out);
        return NULL;
    }
    nc_poll poll = nb_signal_poll();
    int status;
    size_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    status = mq_refine((const int32_t *)delta.buf, ng, n, (const uint8_t *)out.buf,
                       (int32_t *)PyBytes_AS_STRING(cls), &count, &poll);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&delta);
    PyBuffer_Release(&out);
    if (status != NC_OK) {
        Py_DECREF(cls);
        if (status == NC_BADARG) {
            PyErr_SetString(PyExc_ValueError, "quotient_refine: a target out of range");
            return NULL;
        }
        return nb_status_error(status);
    }
    return Py_BuildValue("(Nn)", cls, (Py_ssize_t)count);
}

static PyMethodDef quotient_methods[] = {
    {"quotient_mark_p", (PyCFunction)(void (*)(void))py_mark_p, METH_FASTCALL,
     "quotient_mark_p(mul, cycles, gen, opt_start, opt) -> (p, parent, via, order): the "
     "P-portion read off the lex-least positions, and those positions (csrc/core/quotient.h)"},
    {"quotient_n_failure", (PyCFunction)(void (*)(void))py_n_failure, METH_FASTCALL,
     "quotient_n_failure(mul, p, gen, opt_start, opt, max_states) -> (found, exponents, "
     "states): the lex-least N-failure (csrc/core/quotient.h)"},
    {"quotient_refine", (PyCFunction)(void (*)(void))py_refine, METH_FASTCALL,
     "quotient_refine(delta, out) -> (classes, count): Moore's partition refinement "
     "(csrc/core/quotient.h)"},
    {NULL, NULL, 0, NULL},
};

int nb_add_quotient(PyObject *module) { return PyModule_AddFunctions(module, quotient_methods); }
