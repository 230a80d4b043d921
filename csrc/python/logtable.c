/*
 * logtable.c -- LogTable(limbs, [(p, g_p, e_p, m_p), ...]): the core's Pohlig-Hellman tables
 * (dlog.c) as a Python object.  For each prime p of the group order: the subgroup generator
 * g_p = g^e_p, the cofactor e_p = (2^(64 limbs) - 1) / p and the number of baby steps m_p
 * (memory: about 24 bytes each; giant steps per query: p / m_p).  residues(a) gives log_g(a)
 * mod each p; the caller (nimbers.field) combines them by the Chinese remainder theorem.
 * Everything is validated here or in the core: a bad table is a ValueError, never a crash.
 */
#include "bindings.h"

typedef struct {
    PyObject_HEAD
    dl_group *group;
} LogTableObject;

static void logtable_dealloc(LogTableObject *self)
{
    dl_group_free(self->group);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The entries as C arrays: primes, generators, cofactors, baby steps. */
typedef struct {
    size_t count, n;
    u64 *primes, *gens, *exps, *babies;
} entries_arg;

static void entries_free(entries_arg *e)
{
    PyMem_Free(e->primes);
    PyMem_Free(e->gens);
    PyMem_Free(e->exps);
    PyMem_Free(e->babies);
}

static int entries_parse(PyObject *seq, size_t n, entries_arg *e)
{
    e->count = (size_t)PySequence_Fast_GET_SIZE(seq);
    e->n = n;
    e->primes = (u64 *)PyMem_Calloc(e->count + 1, sizeof(u64));
    e->babies = (u64 *)PyMem_Calloc(e->count + 1, sizeof(u64));
    e->gens = (u64 *)PyMem_Calloc((e->count + 1) * n, sizeof(u64));
    e->exps = (u64 *)PyMem_Calloc((e->count + 1) * n, sizeof(u64));
    if (!e->primes || !e->babies || !e->gens || !e->exps) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < e->count; i++) {
        unsigned long long p, baby;
        PyObject *go, *eo;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), "KOOK", &p, &go, &eo,
                              &baby))
            return -1;
        e->primes[i] = p;
        e->babies[i] = baby;
        if (nb_limbs_of(go, e->gens + i * n, n) < 0 || nb_limbs_of(eo, e->exps + i * n, n) < 0)
            return -1;
    }
    return 0;
}

static PyObject *logtable_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    Py_ssize_t n;
    PyObject *entries;
    if (kw && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "LogTable takes positional arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "nO", &n, &entries))
        return NULL;
    if (n < 1 || (n & (n - 1)) || n > 8) {
        PyErr_SetString(PyExc_ValueError, "LogTable: limbs must be 1, 2, 4 or 8");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(entries, "LogTable: entries must be a sequence");
    if (!seq)
        return NULL;
    entries_arg e = {0, 0, NULL, NULL, NULL, NULL};
    dl_group *group = NULL;
    int status = NC_BADARG;
    if (entries_parse(seq, (size_t)n, &e) == 0) {
        nc_poll poll = nb_signal_poll();
        Py_BEGIN_ALLOW_THREADS
        status = dl_group_new(e.n, e.count, e.primes, e.gens, e.exps, e.babies, &group, &poll);
        Py_END_ALLOW_THREADS
        if (status == NC_BADARG)
            PyErr_SetString(PyExc_ValueError,
                            "LogTable: primes in [2, 2^62), generators not 0, baby steps in "
                            "[1, 2^26]");
        else if (status != NC_OK)
            nb_status_error(status);
    }
    entries_free(&e);
    Py_DECREF(seq);
    if (status != NC_OK)
        return NULL;
    LogTableObject *self = (LogTableObject *)type->tp_alloc(type, 0);
    if (!self) {
        dl_group_free(group);
        return NULL;
    }
    self->group = group;
    return (PyObject *)self;
}

static PyObject *logtable_residues(LogTableObject *self, PyObject *arg)
{
    size_t n = dl_group_limbs(self->group), count = dl_group_count(self->group);
    u64 *a = (u64 *)PyMem_Calloc(n, sizeof(u64));
    int64_t *res = (int64_t *)PyMem_Calloc(count + 1, sizeof(int64_t));
    PyObject *out = NULL;
    if (!a || !res) {
        PyErr_NoMemory();
        goto done;
    }
    if (nb_limbs_of(arg, a, n) < 0)
        goto done;
    if (tw_is_zero(a, n)) {
        PyErr_SetString(PyExc_ValueError, "0 has no logarithm");
        goto done;
    }
    nc_poll poll = nb_signal_poll();
    int status;
    /* The group's scratch is shared: the GIL stays held, so one query runs at a time. */
    status = dl_group_residues(self->group, a, res, &poll);
    if (status == NC_BADARG) {
        PyErr_SetString(PyExc_ValueError, "the value is not in the generated subgroup");
        goto done;
    }
    if (status != NC_OK) {
        nb_status_error(status);
        goto done;
    }
    out = PyTuple_New((Py_ssize_t)count);
    for (size_t i = 0; out && i < count; i++) {
        PyObject *r = PyLong_FromLongLong(res[i]);
        if (!r) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, (Py_ssize_t)i, r);
    }
done:
    PyMem_Free(a);
    PyMem_Free(res);
    return out;
}

static PyMethodDef logtable_methods[] = {
    {"residues", (PyCFunction)logtable_residues, METH_O,
     "residues(a): log_g(a) modulo each prime of the table"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LogTableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nimbers._core.LogTable",
    .tp_basicsize = sizeof(LogTableObject),
    .tp_dealloc = (destructor)logtable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Baby-step giant-step tables for Pohlig-Hellman logarithms in a nim field.",
    .tp_methods = logtable_methods,
    .tp_new = logtable_new,
};

int nb_add_logtable(PyObject *module)
{
    if (PyType_Ready(&LogTableType) < 0)
        return -1;
    Py_INCREF(&LogTableType);
    if (PyModule_AddObject(module, "LogTable", (PyObject *)&LogTableType) < 0) {
        Py_DECREF(&LogTableType);
        return -1;
    }
    return 0;
}
