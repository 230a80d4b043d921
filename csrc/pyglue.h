/*
 * pyglue.h -- what module.c shares with ufuncs.c: the scalar operations on Python ints of
 * any size.  Each validates its arguments (TypeError for a non-int, ValueError for a
 * negative int, ZeroDivisionError for a zero divisor) and returns a new reference or NULL.
 */
#ifndef PYGLUE_H
#define PYGLUE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef enum {
    OP_ADD, OP_MUL, OP_DIV, OP_POW, OP_SQUARE, OP_SQRT, OP_INV, OP_COUNT
} nim_op;

/* Number of operands of each operation. */
extern const int nim_op_arity[OP_COUNT];
extern const char *const nim_op_names[OP_COUNT];

/* Applies op to one (unary) or two Python objects. */
PyObject *nim_scalar(nim_op op, PyObject *a, PyObject *b);

/* ufuncs.c: creates the numpy ufuncs and adds them to the module; 0 or -1. */
int nim_add_ufuncs(PyObject *module);

#endif
