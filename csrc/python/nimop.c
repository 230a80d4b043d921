/*
 * nimop.c -- NimOp, the type of the public operations (nim_mul, ...): called with exact ints
 * it runs the scalar path in C without touching numpy; anything else goes to the array path.
 */
#include "bindings.h"

#include <stddef.h>
#include <string.h>

/* ---- the fast-path callable ------------------------------------------------------------- */

/* NimOp(op, ufunc, array_call): calling it with exact ints of the right number runs the C
 * scalar path without touching numpy.  Anything else, and the ufunc methods (outer, reduce,
 * accumulate, reduceat, at), go to array_call(self, method_name, *args, **kwargs): the
 * Python layer, which validates the operands and calls the ufunc. */
typedef struct {
    PyObject_HEAD
    nim_op op;
    PyObject *ufunc;
    PyObject *array_call;
    PyObject *dict;
    vectorcallfunc vectorcall;
} NimOpObject;

/* array_call(self, method, *args, **kwargs) with vectorcall arguments. */
static PyObject *forward(NimOpObject *self, const char *method, PyObject *const *args,
                         size_t nargs, PyObject *kwnames)
{
    size_t nkw = kwnames ? (size_t)PyTuple_GET_SIZE(kwnames) : 0;
    PyObject **all = (PyObject **)PyMem_Malloc((nargs + nkw + 2) * sizeof(PyObject *));
    PyObject *name = PyUnicode_FromString(method);
    PyObject *r = NULL;
    if (all && name) {
        all[0] = (PyObject *)self;
        all[1] = name;
        for (size_t i = 0; i < nargs + nkw; i++)
            all[i + 2] = args[i];
        r = PyObject_Vectorcall(self->array_call, all, nargs + 2, kwnames);
    } else if (!all) {
        PyErr_NoMemory();
    }
    Py_XDECREF(name);
    PyMem_Free(all);
    return r;
}

static PyObject *nimop_vectorcall(NimOpObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (!kwnames && nargs == nim_op_arity[self->op] && PyLong_Check(args[0]) &&
        (nargs == 1 || PyLong_Check(args[1])))
        return nb_scalar(self->op, args[0], nargs == 2 ? args[1] : NULL);
    return forward(self, "__call__", args, (size_t)nargs, kwnames);
}

static PyObject *nimop_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"op", "ufunc", "array_call", NULL};
    const char *opname;
    PyObject *ufunc, *array_call;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOO", names, &opname, &ufunc, &array_call))
        return NULL;
    int op = -1;
    for (int i = 0; i < OP_COUNT; i++)
        if (strcmp(opname, nim_op_names[i]) == 0)
            op = i;
    if (op < 0) {
        PyErr_Format(PyExc_ValueError, "unknown nim operation %s", opname);
        return NULL;
    }
    if (!PyCallable_Check(array_call)) {
        PyErr_SetString(PyExc_TypeError, "array_call must be callable");
        return NULL;
    }
    NimOpObject *self = (NimOpObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    self->op = (nim_op)op;
    Py_INCREF(ufunc);
    self->ufunc = ufunc;
    Py_INCREF(array_call);
    self->array_call = array_call;
    self->dict = NULL;
    self->vectorcall = (vectorcallfunc)nimop_vectorcall;
    return (PyObject *)self;
}

static int nimop_traverse(NimOpObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->ufunc);
    Py_VISIT(self->array_call);
    Py_VISIT(self->dict);
    return 0;
}

static int nimop_clear(NimOpObject *self)
{
    Py_CLEAR(self->ufunc);
    Py_CLEAR(self->array_call);
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

#define FORWARD_METHOD(name)                                                               \
    static PyObject *nimop_##name(NimOpObject *self, PyObject *const *args, Py_ssize_t n,  \
                                  PyObject *kwnames)                                       \
    {                                                                                      \
        return forward(self, #name, args, (size_t)n, kwnames);                             \
    }
FORWARD_METHOD(outer)
FORWARD_METHOD(reduce)
FORWARD_METHOD(accumulate)
FORWARD_METHOD(reduceat)
FORWARD_METHOD(at)

#define METHOD(name, doc)                                                                  \
    {#name, (PyCFunction)(void (*)(void))nimop_##name, METH_FASTCALL | METH_KEYWORDS, doc}
static PyMethodDef nimop_methods[] = {
    METHOD(outer, "outer(a, b, **kw): the table of op(a[i], b[j]), as numpy's ufunc.outer"),
    METHOD(reduce, "reduce(a, axis=0, **kw): folds along an axis, as numpy's ufunc.reduce"),
    METHOD(accumulate, "accumulate(a, axis=0, **kw): running folds, as numpy's ufunc.accumulate"),
    METHOD(reduceat, "reduceat(a, indices, axis=0, **kw): folds over slices, as numpy's"),
    METHOD(at, "at(a, indices, b=None): in place at indices, as numpy's ufunc.at"),
    {NULL, NULL, 0, NULL},
};

static PyObject *nimop_get_ufunc(NimOpObject *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->ufunc);
    return self->ufunc;
}

static PyObject *nimop_get_op(NimOpObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(nim_op_names[self->op]);
}

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
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A nim operation: C scalar path for ints, numpy ufunc for arrays.",
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
