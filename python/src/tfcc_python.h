/* Shared declarations of the tfcc CPython extension (_tfcc). */
#ifndef TFCC_PYTHON_H
#define TFCC_PYTHON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL tfcc_python_ARRAY_API
#ifndef TFCC_PYTHON_MODULE_C
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "tfcc/tfcc.h"

/* Casts a METH_VARARGS | METH_KEYWORDS function to PyCFunction without -Wcast-function-type. */
#define TFCC_PY_KW(fn) ((PyCFunction)(void (*)(void))(fn))

/* NumPy type number of a tfcc dtype that tfcc can run with (-1 if none: string, ...; int4 is int8, one value a byte; types: int2 int8 and uint4 uint8, one value a byte, float8 uint8, its raw bytes). */
int tfcc_py_typenum(tfcc_dtype t);
/* The NumPy scalar type (np.float32, ...) named in tensor details; new reference. */
PyObject *tfcc_py_dtype_object(tfcc_dtype t);
/* Sets exc with "what: message" and returns NULL. */
PyObject *tfcc_py_raise(PyObject *exc, const char *what, const char *message);

/* The Interpreter core type (python/src/interpreter.c). */
extern PyTypeObject tfcc_py_interpreter_type;

/* tfcc.bench (python/src/bench.c). */
PyObject *tfcc_py_bench(PyObject *module, PyObject *args, PyObject *kw);

#endif
