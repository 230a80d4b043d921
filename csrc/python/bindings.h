/*
 * bindings.h -- what the binding files of nimbers._core share.  One file per concept:
 *   module.c    module init, kernel choice
 *   ints.c      Python int <-> limbs, the scalar operations on ints of any size
 *   nimop.c     NimOp, the public operations' fast path for ints (its attributes are the ufunc's)
 *   ufuncs.c    the numpy ufuncs and their loops (validation inside the loops)
 *   linalg.c    matrices as buffers for the core's elimination
 *   logtable.c  LogTable, Pohlig-Hellman tables for logarithms
 *   games.c     the heap and coin-turning engines
 *   quadratic.c solve_quadratic64, x^2 + b x = c below 2^64 in one call
 *   frontier.c  the frontier engine for long heap-game runs
 *   quotient.c  the misère quotient construction's loops
 *   signals.c   the stop request (Ctrl-C) polled by the core's long loops
 * The arithmetic itself lives in csrc/core/ and never sees Python.
 */
#ifndef NIMBERS_BINDINGS_H
#define NIMBERS_BINDINGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "nimcore.h"

/* ---- ints.c ------------------------------------------------------------------------------ */

typedef enum {
    OP_ADD, OP_MUL, OP_DIV, OP_POW, OP_SQUARE, OP_SQRT, OP_INV, OP_COUNT
} nim_op;

/* Number of operands and name ("mul" for nim_mul) of each operation. */
extern const int nim_op_arity[OP_COUNT];
extern const char *const nim_op_names[OP_COUNT];

/* The largest field supported: GF(2^(2^24)).  Operands past it are refused up front, before
 * memory or time runs out (a product there already takes seconds). */
#define NB_MAX_LIMBS ((size_t)1 << 18)

/* A parsed non-negative int: its value when it fits 64 bits, else the limbs it needs. */
typedef struct {
    PyObject *obj; /* borrowed */
    u64 small;     /* the value when limbs == 1 */
    size_t limbs;  /* limbs of the smallest nim field GF(2^(64 limbs)) holding it, >= 1 */
} nim_arg;

/* TypeError for a non-int, ValueError for a negative or too large int; 0 or -1. */
int nb_parse(PyObject *o, nim_arg *out);
/* The value of a parsed int as n >= a->limbs limbs; 0 or -1. */
int nb_load(const nim_arg *a, u64 *dst, size_t n);
/* Parses o and loads it as n limbs; ValueError when it does not fit. */
int nb_limbs_of(PyObject *o, u64 *dst, size_t n);
/* A new int from n limbs. */
PyObject *nb_from_limbs(const u64 *src, size_t n);
/* Applies op to one (unary) or two Python ints: a new reference, or NULL with TypeError,
 * ValueError or ZeroDivisionError set. */
PyObject *nb_scalar(nim_op op, PyObject *a, PyObject *b);
/* nb_scalar on two elements of object arrays, which may also be Nimbers (read as their
 * values; the result is a Nimber when an operand was one). */
PyObject *nb_element(nim_op op, PyObject *a, PyObject *b);

/* ---- ufuncs.c --------------------------------------------------------------------------------- */

/* Whether o is a numpy array or numpy scalar (not a Python int: see nimop.c). */
int nb_is_numpy(PyObject *o);

/* ---- signals.c ----------------------------------------------------------------------------- */

/* A stop request for the core's long loops, checked at most every 20 ms: Ctrl-C in the main
 * thread.  The loops run with the GIL released; the check takes it for a moment. */
nc_poll nb_signal_poll(void);
/* The exception for a core status code (NC_STOPPED: the KeyboardInterrupt already raised);
 * always returns NULL. */
PyObject *nb_status_error(int status);

/* ---- registration: each file adds its functions and types to the module ---------------- */

int nb_add_ints(PyObject *module);
int nb_add_nimop(PyObject *module);
int nb_add_ufuncs(PyObject *module);
int nb_add_outer(PyObject *module); /* outer.c: nim_mul_outer, added by nb_add_ufuncs */
int nb_add_linalg(PyObject *module);
int nb_add_logtable(PyObject *module);
int nb_add_games(PyObject *module);
int nb_add_sparse(PyObject *module);
int nb_add_quadratic(PyObject *module);
int nb_add_frontier(PyObject *module);
int nb_add_quotient(PyObject *module);

#endif
