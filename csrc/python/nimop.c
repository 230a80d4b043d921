/*
 * nimop.c -- NimOp, the type of the public operations (nim_mul, ...).  One call, three routes:
 *   - exact ints of the right number: the scalar path in C, without touching numpy;
 *   - numpy arrays and numpy scalars only: the ufunc itself (validation happens in its loops);
 *   - anything else (Python ints beside arrays, lists, dask and other array libraries):
 *     fallback(self, *args, **kwargs), the Python layer, which makes arrays of ints and lists
 *     and tells lazy libraries the result's dtype, then calls the ufunc.
 * Attributes a NimOp lacks are the ufunc's: nim_mul.reduce is nim_mul.ufunc.reduce, and
 * nim_mul.nin, .identity, .outer, .accumulate, .at follow numpy's ufunc semantics.
 * A NimOp pickles by name: the module it says it lives in (__module__) holds it.
 */
#include "bindings.h"

#include <stddef.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    nim_op op;
    PyObject *ufunc;
    PyObject *fallback;
    PyObject *dict;
    vectorcallfunc vectorcall;
} NimOpObject;

/* fallback(self, *args, **kwargs) with vectorcall arguments. */
static PyObject *call_fallback(NimOpObject *self, PyObject *const *args, size_t nargs,
                               PyObject *kwnames)
{
    size_t nkw = kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0;
    PyObject **all = (PyObject **)PyMem_Malloc((nargs + nkw + 1) * sizeof(PyObject *));
    if (!all)
        return PyErr_NoMemory();
    all[0] = (PyObject *)self;
    for (size_t i = 0; i < nargs + nkw; i++)
        all[i + 1] = args[i];
    PyObject *r = PyObject_Vectorcall(self->fallback, all, nargs + 1, kwnames);
    PyMem_Free(all);
    return r;
}

static PyObject *nimop_vectorcall(NimOpObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int arity = nim_op_arity[self->op];
    if (!kwnames && nargs == arity && PyLong_Check(args[0]) &&
        (nargs == 1 || PyLong_Check(args[1])))
        return nb_scalar(self->op, args[0], nargs == 2 ? args[1] : NULL);
    int direct = nargs >= 1;
    for (Py_ssize_t i = 0; direct && i < nargs; i++)
        direct = nb_is_numpy(args[i]);
    if (direct)
        return PyObject_Vectorcall(self->ufunc, args, (size_t)nargs, kwnames);
    return call_fallback(self, args, (size_t)nargs, kwnames);
}

static PyObject *nimop_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"op", "ufunc", "fallback", NULL};
    const char *opname;
    PyObject *ufunc, *fallback;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOO", names, &opname, &ufunc, &fallback))
        return NULL;
    int op = -1;
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(opname, nim_op_names[i]) == 0)
            op = i;
    if (op < 0) {
        PyErr_Format(PyExc_ValueError, "unknown nim operation %s", opname);
        return NULL;
    }
    if (!PyCallable_Check(ufunc) || !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "NimOp needs a callable ufunc and fallback");
        return NULL;
    }
    NimOpObject *self = (NimOpObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->op = (nim_op)op;
    self->ufunc = Py_NewRef(ufunc);
    self->fallback = Py_NewRef(fallback);
    self->dict = NULL;
    self->vectorcall = (vectorcallfunc)nimop_vectorcall;
    return (PyObject *)self;
}

static int nimop_traverse(NimOpObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->ufunc);
    Py_VISIT(self->fallback);
    Py_VISIT(self->dict);
    return 0;
}

static int nimop_clear(NimOpObject *self)
{
    Py_CLEAR(self->ufunc);
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->dict);
    return 0;
}

static void nimop_dealloc(NimOpObject *self)
{
    PyObject_GC_UnTrack(self);
    nimop_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *nimop_repr(NimOpObject *self)
{
    return PyUnicode_FromFormat("<nimbers operation nim_%s>", nim_op_names[self->op]);
}

/* Own attributes first (__doc__, __name__, ...), then the ufunc's. */
static PyObject *nimop_getattro(NimOpObject *self, PyObject *name)
{
    PyObject *r = PyObject_GenericGetAttr((PyObject *)self, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError) || !self->ufunc)
        return r;
    PyErr_Clear();
    return PyObject_GetAttr(self->ufunc, name);
}

/* Pickled as a global: its __name__, found again in its __module__. */
static PyObject *nimop_reduce(NimOpObject *self, PyObject *unused)
{
    (void)unused;
    return PyObject_GetAttrString((PyObject *)self, "__name__");
}

static PyObject *nimop_get_ufunc(NimOpObject *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->ufunc);
}

static PyObject *nimop_get_op(NimOpObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(nim_op_names[self->op]);
}

static PyMethodDef nimop_methods[] = {
    {"__reduce__", (PyCFunction)nimop_reduce, METH_NOARGS, "pickled by name"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef nimop_getset[] = {
    {"ufunc", (getter)nimop_get_ufunc, NULL, "the numpy ufunc behind the array path", NULL},
    {"op", (getter)nimop_get_op, NULL, "the operation's name", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject NimOpType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nimbers._core.NimOp",
    .tp_basicsize = sizeof(NimOpObject),
    .tp_dealloc = (destructor)nimop_dealloc,
    .tp_vectorcall_offset = offsetof(NimOpObject, vectorcall),
    .tp_repr = (reprfunc)nimop_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = (getattrofunc)nimop_getattro,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A nim operation: C scalar path for ints, its numpy ufunc for arrays.",
    .tp_traverse = (traverseproc)nimop_traverse,
    .tp_clear = (inquiry)nimop_clear,
    .tp_methods = nimop_methods,
    .tp_getset = nimop_getset,
    .tp_dictoffset = offsetof(NimOpObject, dict),
    .tp_new = nimop_new,
};

int nb_add_nimop(PyObject *module)
{
    if (PyType_Ready(&NimOpType) < 0)
        return -1;
    Py_INCREF(&NimOpType);
    if (PyModule_AddObject(module, "NimOp", (PyObject *)&NimOpType) < 0) {
        Py_DECREF(&NimOpType);
        return -1;
    }
    return 0;
}
