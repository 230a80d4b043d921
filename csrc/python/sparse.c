/*
 * sparse.c -- the bindings of the sparse space (csrc/core/sparse.h), so that Python's
 * statistics (games/heap/stats.py) and long runs (research/frontier) class heap sizes, choose
 * and switch masks by the same code as the C engines:
 *   sparse_rare_flags(values, start, emask, odd, out): out[j] = heap size start + j is rare
 *   sparse_best_mask(counts, parity_ok, odd) -> (mask, rare)
 *   sparse_mask_better(rare, best_rare, eager) -> bool
 *   sparse_next_check(rare) -> int
 */
#include "bindings.h"

#include <string.h>

#include "sparse.h"

/* counts: a C-contiguous buffer of 8-byte integers counts[e] >= 0, e = 2 g + (n mod 2), of a
 * power-of-two length; every heap size counted is one of the total. */
static PyObject *py_sparse_best_mask(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "sparse_best_mask(counts, parity_ok, odd)");
        return NULL;
    }
    int parity_ok = PyObject_IsTrue(args[1]), odd = PyObject_IsTrue(args[2]);
    if (parity_ok < 0 || odd < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    const char *f = view.format ? view.format : "B";
    size_t size = view.itemsize == 8 ? (size_t)view.len / 8 : 0;
    int integer = f[0] == 'q' || f[0] == 'l' || f[0] == 'Q' || f[0] == 'L' ||
                  ((f[0] == '<' || f[0] == '=') && f[1] && strchr("qlQL", f[1]));
    if (!integer || size == 0 || (size & (size - 1)) != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError,
                        "sparse_best_mask: counts must be 8-byte integers, a power-of-two many");
        return NULL;
    }
    const int64_t *counts = (const int64_t *)view.buf;
    uint64_t total = 0;
    for (size_t i = 0; i < size; i++) {
        if (counts[i] < 0) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "sparse_best_mask: a negative count");
            return NULL;
        }
        total += (uint64_t)counts[i];
    }
    int64_t *walsh = (int64_t *)PyMem_Malloc(size * sizeof(int64_t));
    if (!walsh) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    uint64_t rare;
    uint32_t best = sp_best_mask((const uint64_t *)counts, walsh, size, total, parity_ok, odd,
                                 &rare);
    PyMem_Free(walsh);
    PyBuffer_Release(&view);
    return Py_BuildValue("(kK)", (unsigned long)best, (unsigned long long)rare);
}

/* values: a C-contiguous buffer of unsigned 1-, 2- or 4-byte values g(start ..); out: a
 * writable buffer of as many bytes. */
static PyObject *py_sparse_rare_flags(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "sparse_rare_flags(values, start, emask, odd, out)");
        return NULL;
    }
    unsigned long long start = PyLong_AsUnsignedLongLong(args[1]);
    unsigned long long emask = PyLong_AsUnsignedLongLong(args[2]);
    int odd = PyObject_IsTrue(args[3]);
    if (PyErr_Occurred() || odd < 0)
        return NULL;
    if (emask > 0xffffffffULL) {
        PyErr_SetString(PyExc_ValueError, "sparse_rare_flags: a mask of 32 bits at most");
        return NULL;
    }
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[4], &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    const char *f = in.format ? in.format : "B";
    char kind = (f[0] == '<' || f[0] == '=') ? f[1] : f[0];
    size_t n = in.itemsize ? (size_t)in.len / (size_t)in.itemsize : 0;
    int ok = strchr("BHIL", kind) != NULL && kind != '\0' &&
             (in.itemsize == 1 || in.itemsize == 2 || in.itemsize == 4) &&
             out.itemsize == 1 && (size_t)out.len == n;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        if (in.itemsize == 1)
            sp_rare_flags_u8((const uint8_t *)in.buf, n, start, (uint32_t)emask, odd, out.buf);
        else if (in.itemsize == 2)
            sp_rare_flags_u16((const uint16_t *)in.buf, n, start, (uint32_t)emask, odd,
                              out.buf);
        else
            sp_rare_flags_u32((const uint32_t *)in.buf, n, start, (uint32_t)emask, odd,
                              out.buf);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "sparse_rare_flags: unsigned values of 1, 2 or 4 "
                        "bytes, and a buffer of one byte for each");
        return NULL;
    }
    Py_RETURN_NONE;
}

static int read_count(PyObject *o, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static PyObject *py_sparse_mask_better(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    uint64_t rare, best_rare;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "sparse_mask_better(rare, best_rare, eager)");
        return NULL;
    }
    int eager = PyObject_IsTrue(args[2]);
    if (eager < 0 || read_count(args[0], &rare) < 0 || read_count(args[1], &best_rare) < 0)
        return NULL;
    return PyBool_FromLong(sp_mask_better(rare, best_rare, eager));
}

static PyObject *py_sparse_next_check(PyObject *mod, PyObject *arg)
{
    (void)mod;
    uint64_t rare;
    if (read_count(arg, &rare) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)sp_next_check(rare));
}

static PyMethodDef sparse_methods[] = {
    {"sparse_rare_flags", (PyCFunction)(void (*)(void))py_sparse_rare_flags, METH_FASTCALL,
     "sparse_rare_flags(values, start, emask, odd, out): out[j] = 1 where heap size start + j "
     "is rare"},
    {"sparse_best_mask", (PyCFunction)(void (*)(void))py_sparse_best_mask, METH_FASTCALL,
     "sparse_best_mask(counts, parity_ok, odd) -> (mask, rare): the mask over e = 2 g + parity "
     "making the fewest heap sizes rare"},
    {"sparse_mask_better", (PyCFunction)(void (*)(void))py_sparse_mask_better, METH_FASTCALL,
     "sparse_mask_better(rare, best_rare, eager) -> bool: the rule for switching masks"},
    {"sparse_next_check", (PyCFunction)py_sparse_next_check, METH_O,
     "sparse_next_check(rare) -> int: the rare count at which to look for a better mask again"},
    {NULL, NULL, 0, NULL},
};

int nb_add_sparse(PyObject *module)
{
    return PyModule_AddFunctions(module, sparse_methods);
}
