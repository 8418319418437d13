/* The _tfcc module: dtype mapping, errors, cpu_info(), version, and the types and functions of
 * interpreter.c and bench.c. The Python package (python/tfcc) builds the TensorFlow Lite API on
 * top of it. */
#define TFCC_PYTHON_MODULE_C
#include "tfcc_python.h"

#include <stdlib.h>
#include <string.h>

#ifdef TFCC_WITH_CRYPTO
#include "tfcc/tfcc_crypto.h"
#define TFCC_PY_HAS_CRYPTO 1
#else
#define TFCC_PY_HAS_CRYPTO 0
#endif

int tfcc_py_typenum(tfcc_dtype t) {
  switch (t) {
    case TFCC_FLOAT32: return NPY_FLOAT32;
    case TFCC_FLOAT16: return NPY_FLOAT16;
    case TFCC_FLOAT64: return NPY_FLOAT64;
    case TFCC_INT8: return NPY_INT8;
    case TFCC_INT4: return NPY_INT8;   /* one value per byte, sign-extended (tfcc.h) */
    case TFCC_INT2: return NPY_INT8;   /* types: one value per byte, sign-extended */
    case TFCC_UINT4: return NPY_UINT8; /* types: one value per byte */
    case TFCC_FLOAT8_E4M3FN:
    case TFCC_FLOAT8_E5M2: return NPY_UINT8; /* types: the raw float8 bytes */
    case TFCC_UINT8: return NPY_UINT8;
    case TFCC_INT16: return NPY_INT16;
    case TFCC_UINT16: return NPY_UINT16;
    case TFCC_INT32: return NPY_INT32;
    case TFCC_UINT32: return NPY_UINT32;
    case TFCC_INT64: return NPY_INT64;
    case TFCC_UINT64: return NPY_UINT64;
    case TFCC_BOOL: return NPY_BOOL;
    case TFCC_COMPLEX64: return NPY_COMPLEX64;
    case TFCC_COMPLEX128: return NPY_COMPLEX128;
    default: return -1;
  }
}

PyObject *tfcc_py_dtype_object(tfcc_dtype t) {
  int num = tfcc_py_typenum(t);
  /* what TensorFlow Lite's details name for types without a buffer NumPy can hold */
  if (num < 0) num = t == TFCC_STRING ? NPY_STRING : NPY_OBJECT;
  return PyArray_TypeObjectFromType(num);
}

PyObject *tfcc_py_raise(PyObject *exc, const char *what, const char *message) {
  if (what && what[0])
    PyErr_Format(exc, "%s: %s", what, message && message[0] ? message : "failed");
  else
    PyErr_SetString(exc, message && message[0] ? message : "failed");
  return NULL;
}

/* ------------------------------------------------------------ cpu_info */

static int dict_set(PyObject *d, const char *key, PyObject *value) {
  if (!value) return -1;
  int rc = PyDict_SetItemString(d, key, value);
  Py_DECREF(value);
  return rc;
}

static PyObject *py_cpu_info(PyObject *module, PyObject *unused) {
  tfcc_cpu_info ci;
  tfcc_status st = tfcc_cpu_info_get(&ci);
  if (st != TFCC_OK) return tfcc_py_raise(PyExc_RuntimeError, "cpu_info", tfcc_status_str(st));
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  PyObject *features = PyList_New(0);
  if (!features) goto fail;
  for (int f = 0; f < TFCC_CPU_FEATURE_COUNT_; f++) {
    if (!(ci.flags & (1ull << f))) continue;
    PyObject *name = PyUnicode_FromString(tfcc_cpu_feature_name((tfcc_cpu_feature)f));
    if (!name || PyList_Append(features, name) != 0) {
      Py_XDECREF(name);
      Py_DECREF(features);
      goto fail;
    }
    Py_DECREF(name);
  }
  /* the level kernels dispatch at with no cap (the env TFCC_ISA caps it in a runtime) */
  const char *env = getenv("TFCC_ISA");
  tfcc_isa cap = TFCC_ISA_NO_CAP;
  if (env && env[0] && tfcc_isa_parse(env, &cap) != TFCC_OK) cap = TFCC_ISA_NO_CAP;
  if (dict_set(d, "vendor", PyUnicode_FromString(ci.vendor)) ||
      dict_set(d, "brand", PyUnicode_FromString(ci.brand)) ||
      dict_set(d, "arch", PyUnicode_FromString(ci.arch)) || dict_set(d, "features", features) ||
      dict_set(d, "logical_cpus", PyLong_FromLong(ci.logical_cpus)) ||
      dict_set(d, "physical_cores", PyLong_FromLong(ci.physical_cores)) ||
      dict_set(d, "numa_nodes", PyLong_FromLong(ci.numa_nodes)) ||
      dict_set(d, "l1d_bytes", PyLong_FromSize_t(ci.l1d_bytes)) ||
      dict_set(d, "l2_bytes", PyLong_FromSize_t(ci.l2_bytes)) ||
      dict_set(d, "l3_bytes", PyLong_FromSize_t(ci.l3_bytes)) ||
      dict_set(d, "amx_permitted", PyBool_FromLong(ci.amx_permitted)) ||
      dict_set(d, "best_isa", PyUnicode_FromString(tfcc_isa_name(ci.best_isa))) ||
      dict_set(d, "isa", PyUnicode_FromString(tfcc_isa_name(tfcc_isa_dispatch_level(cap)))))
    goto fail;
  return d;
fail:
  Py_DECREF(d);
  return NULL;
}

static PyObject *py_dispatch_isa(PyObject *module, PyObject *arg) {
  tfcc_isa cap = TFCC_ISA_NO_CAP;
  if (arg != Py_None) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    if (tfcc_isa_parse(name, &cap) != TFCC_OK) {
      PyErr_Format(PyExc_ValueError, "isa: unknown ISA '%s' (generic, sse4, avx2, avx512, neon)",
                   name);
      return NULL;
    }
  }
  return PyUnicode_FromString(tfcc_isa_name(tfcc_isa_dispatch_level(cap)));
}

/* encrypt_file(in_path, out_path, key, key_id=None): tfcc_crypto_encrypt_file with a 32-byte key. */
static PyObject *py_encrypt_file(PyObject *module, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"in_path", "out_path", "key", "key_id", NULL};
  PyObject *in_obj, *out_obj, *in_b = NULL, *out_b = NULL, *result = NULL;
  Py_buffer key = {0};
  const char *key_id = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOy*|z:encrypt_file", kwlist, &in_obj, &out_obj, &key,
                                   &key_id))
    return NULL;
  if (!PyUnicode_FSConverter(in_obj, &in_b) || !PyUnicode_FSConverter(out_obj, &out_b)) goto done;
  if (key.len != 32) {
    PyErr_Format(PyExc_ValueError, "key: %zd bytes, an AES-256 key has 32", key.len);
    goto done;
  }
#ifdef TFCC_WITH_CRYPTO
  tfcc_key_source ks;
  memset(&ks, 0, sizeof ks);
  ks.kind = TFCC_KEY_FROM_BYTES;
  ks.bytes = key.buf;
  tfcc_status st;
  Py_BEGIN_ALLOW_THREADS st =
      tfcc_crypto_encrypt_file(PyBytes_AS_STRING(in_b), PyBytes_AS_STRING(out_b), &ks, key_id);
  Py_END_ALLOW_THREADS if (st != TFCC_OK) {
    const char *m = tfcc_crypto_last_error();
    tfcc_py_raise(PyExc_ValueError, "encrypt_file", m && m[0] ? m : tfcc_status_str(st));
    goto done;
  }
  result = Py_NewRef(Py_None);
#else
  PyErr_SetString(PyExc_ValueError,
                  "this tfcc build has no encrypted-model support (built without OpenSSL)");
#endif
done:
  PyBuffer_Release(&key);
  Py_XDECREF(in_b);
  Py_XDECREF(out_b);
  return result;
}

static PyMethodDef module_methods[] = {
    {"encrypt_file", TFCC_PY_KW(py_encrypt_file), METH_VARARGS | METH_KEYWORDS,
     "encrypt_file(in_path, out_path, key, key_id=None): writes an encrypted model (.tfcce, AES-256-GCM) "
     "that Interpreter(model_path, key=key) loads."},
    {"cpu_info", py_cpu_info, METH_NOARGS,
     "cpu_info() -> dict: this CPU as tfcc sees it (vendor, brand, arch, features, caches, the ISA "
     "level kernels dispatch at)."},
    {"_dispatch_isa", py_dispatch_isa, METH_O,
     "The ISA level kernels run at under a cap (None: no cap)."},
    {"bench", TFCC_PY_KW(tfcc_py_bench), METH_VARARGS | METH_KEYWORDS,
     "bench(model_path, ...) -> dict: the report of `tfcc bench MODEL --json` (see tfcc.bench)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_tfcc",
                                        "tfcc's CPython extension (use the tfcc package).",
                                        -1,
                                        module_methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

PyMODINIT_FUNC PyInit__tfcc(void) {
  import_array();
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  if (PyType_Ready(&tfcc_py_interpreter_type) < 0) goto fail;
  Py_INCREF(&tfcc_py_interpreter_type);
  if (PyModule_AddObject(m, "Interpreter", (PyObject *)&tfcc_py_interpreter_type) < 0) {
    Py_DECREF(&tfcc_py_interpreter_type);
    goto fail;
  }
  if (PyModule_AddStringConstant(m, "version", tfcc_version()) < 0 ||
      PyModule_AddIntConstant(m, "has_crypto", TFCC_PY_HAS_CRYPTO) < 0)
    goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
