/*
 * numpy_api.h -- numpy's C API for the files of the bindings that use it (ufuncs.c,
 * ufunc_loops.c, outer.c): one API table, imported once by nb_add_ufuncs (ufuncs.c, which
 * defines NB_IMPORTS_NUMPY before including this).
 */
#ifndef NIMBERS_NUMPY_API_H
#define NIMBERS_NUMPY_API_H

#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NPY_TARGET_VERSION NPY_2_0_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL nimbers_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL nimbers_UFUNC_API
#ifndef NB_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#define NO_IMPORT_UFUNC
#endif
#include <numpy/arrayobject.h>
#include <numpy/dtype_api.h>
#include <numpy/ufuncobject.h>

#endif
