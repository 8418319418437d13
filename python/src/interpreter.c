/* _tfcc.Interpreter: one runtime, model and session, and one NumPy array per input and output
 * that the session reads and writes in place (tfcc_session_run with their data pointers), so
 * invoke() copies nothing and tensor() hands out the arrays themselves. invoke() releases the
 * GIL; a busy flag (read and written under the GIL) refuses a second thread on the same
 * interpreter instead of racing on its session. The TensorFlow Lite API around it (details
 * dicts' users, signature runners, argument names) is python/tfcc/interpreter.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plugin_load.h"
#include "tfcc_python.h"
#ifdef TFCC_WITH_CRYPTO
#include "tfcc/tfcc_crypto.h"
#endif

typedef struct interp_obj {
  PyObject_HEAD tfcc_runtime *rt;
  tfcc_model *model;
  tfcc_session *session;
  int n_in, n_out;
  int32_t *in_tensor, *out_tensor; /* TFLite tensor index of each input / output */
  PyArrayObject **in_arr, **out_arr;
  const void **in_ptr; /* data pointers of the arrays, as run takes them */
  void **out_ptr;
  int busy; /* invoke is running with the GIL released */
  /* resize_tensor_input asked, allocate_tensors applies (TFLite's order: all inputs at once) */
  int32_t *pending_rank; /* per input: -1 none */
  int32_t (*pending_dims)[TFCC_MAX_DIMS];
  int n_pending;
  /* a signature's interpreter (_open_signature): the session runs that signature's subgraph
   * on the parent's model; the parent (kept alive) owns the runtime */
  PyObject *parent;
  int sig_index; /* -1: subgraph 0 */
} interp_obj;

static const char k_magic_encrypted[8] = {'T', 'F', 'C', 'C', 'E', 'N', 'C', '\0'};

static PyObject *not_ready(void) {
  PyErr_SetString(PyExc_RuntimeError, "Interpreter has no model (its constructor failed)");
  return NULL;
}

static PyObject *busy_error(void) {
  PyErr_SetString(PyExc_RuntimeError,
                  "Interpreter is busy: invoke() is running on another thread (use one Interpreter "
                  "per thread)");
  return NULL;
}

#define REQUIRE_READY(self) \
  do { \
    if (!(self)->session) return not_ready(); \
    if ((self)->busy) return busy_error(); \
  } while (0)

static const char *session_msg(const interp_obj *self, tfcc_status st) {
  const char *m = tfcc_session_last_error(self->session);
  return m && m[0] ? m : tfcc_status_str(st);
}

static const char *last_msg(tfcc_status st) {
  const char *m = tfcc_last_error();
  return m && m[0] ? m : tfcc_status_str(st);
}

/* ------------------------------------------------------------ buffers */

static void free_buffers(interp_obj *self) {
  for (int i = 0; self->in_arr && i < self->n_in; i++) Py_XDECREF(self->in_arr[i]);
  for (int i = 0; self->out_arr && i < self->n_out; i++) Py_XDECREF(self->out_arr[i]);
  PyMem_Free(self->in_arr);
  PyMem_Free(self->out_arr);
  PyMem_Free((void *)self->in_ptr);
  PyMem_Free(self->out_ptr);
  PyMem_Free(self->in_tensor);
  PyMem_Free(self->out_tensor);
  PyMem_Free(self->pending_rank);
  PyMem_Free(self->pending_dims);
  self->pending_rank = NULL;
  self->pending_dims = NULL;
  self->n_pending = 0;
  self->in_arr = self->out_arr = NULL;
  self->in_ptr = NULL;
  self->out_ptr = NULL;
  self->in_tensor = self->out_tensor = NULL;
}

static int same_shape(PyArrayObject *a, const tfcc_tensor_info *info, int typenum) {
  if (!a || PyArray_TYPE(a) != typenum || PyArray_NDIM(a) != info->rank) return 0;
  for (int d = 0; d < info->rank; d++)
    if (PyArray_DIMS(a)[d] != info->dims[d]) return 0;
  return 1;
}

/* (Re)makes the array of input/output i when its dtype or shape changed (the array stays the
 * same object otherwise, so tensor() views of it stay live). */
static int sync_buffer(interp_obj *self, int is_output, int i) {
  tfcc_tensor_info info;
  tfcc_status st = is_output ? tfcc_session_output_info(self->session, i, &info)
                             : tfcc_session_input_info(self->session, i, &info);
  if (st != TFCC_OK) {
    PyErr_Format(PyExc_RuntimeError, "%s %d: %s", is_output ? "output" : "input", i,
                 session_msg(self, st));
    return -1;
  }
  int num = tfcc_py_typenum(info.dtype);
  if (num < 0) {
    PyErr_Format(PyExc_ValueError, "%s %d (%s): dtype %s has no NumPy buffer type",
                 is_output ? "output" : "input", i, info.name ? info.name : "",
                 tfcc_dtype_name(info.dtype));
    return -1;
  }
  PyArrayObject **slot = is_output ? &self->out_arr[i] : &self->in_arr[i];
  if (same_shape(*slot, &info, num)) return 0;
  npy_intp dims[TFCC_MAX_DIMS];
  for (int d = 0; d < info.rank; d++) dims[d] = info.dims[d] < 0 ? 0 : info.dims[d];
  PyArrayObject *a = (PyArrayObject *)PyArray_ZEROS(info.rank, dims, num, 0);
  if (!a) return -1;
  if ((size_t)PyArray_NBYTES(a) != info.bytes) {
    PyErr_Format(PyExc_RuntimeError, "%s %d: array of %zd bytes for a tensor of %zu",
                 is_output ? "output" : "input", i, (Py_ssize_t)PyArray_NBYTES(a), info.bytes);
    Py_DECREF(a);
    return -1;
  }
  Py_XDECREF(*slot);
  *slot = a;
  if (is_output)
    self->out_ptr[i] = PyArray_DATA(a);
  else
    self->in_ptr[i] = PyArray_DATA(a);
  return 0;
}

static int sync_all(interp_obj *self) {
  for (int i = 0; i < self->n_in; i++)
    if (sync_buffer(self, 0, i) != 0) return -1;
  for (int i = 0; i < self->n_out; i++)
    if (sync_buffer(self, 1, i) != 0) return -1;
  return 0;
}

static int init_buffers(interp_obj *self) {
  self->n_in = tfcc_session_input_count(self->session);
  self->n_out = tfcc_session_output_count(self->session);
  size_t ni = (size_t)self->n_in + 1, no = (size_t)self->n_out + 1;
  self->in_arr = PyMem_Calloc(ni, sizeof *self->in_arr);
  self->out_arr = PyMem_Calloc(no, sizeof *self->out_arr);
  self->in_ptr = PyMem_Calloc(ni, sizeof *self->in_ptr);
  self->out_ptr = PyMem_Calloc(no, sizeof *self->out_ptr);
  self->in_tensor = PyMem_Calloc(ni, sizeof *self->in_tensor);
  self->out_tensor = PyMem_Calloc(no, sizeof *self->out_tensor);
  self->pending_rank = PyMem_Calloc(ni, sizeof *self->pending_rank);
  self->pending_dims = PyMem_Calloc(ni, sizeof *self->pending_dims);
  if (!self->in_arr || !self->out_arr || !self->in_ptr || !self->out_ptr || !self->in_tensor ||
      !self->out_tensor || !self->pending_rank || !self->pending_dims) {
    PyErr_NoMemory();
    return -1;
  }
  for (int i = 0; i < self->n_in; i++) self->pending_rank[i] = -1;
  tfcc_signature_info si;
  if (self->parent && tfcc_model_signature_info(self->model, self->sig_index, &si) == TFCC_OK) {
    /* a signature's session: its inputs and outputs are named as the signature names them; the
     * tensor indices are the signature's (in its subgraph) */
    for (int i = 0; i < self->n_in + self->n_out; i++) {
      const int is_out = i >= self->n_in, k = is_out ? i - self->n_in : i;
      tfcc_tensor_info info;
      int32_t *slot = is_out ? &self->out_tensor[k] : &self->in_tensor[k];
      *slot = -1;
      if ((is_out ? tfcc_session_output_info(self->session, k, &info)
                  : tfcc_session_input_info(self->session, k, &info)) != TFCC_OK)
        continue;
      const int n = is_out ? si.output_count : si.input_count;
      const char *const *names = is_out ? si.output_names : si.input_names;
      for (int j = 0; j < n; j++)
        if (names[j] && info.name && strcmp(names[j], info.name) == 0)
          *slot = is_out ? si.output_tensors[j] : si.input_tensors[j];
    }
    return sync_all(self);
  }
  for (int i = 0; i < self->n_in; i++)
    if (tfcc_model_input_tensor(self->model, i, &self->in_tensor[i]) != TFCC_OK)
      self->in_tensor[i] = -1;
  for (int i = 0; i < self->n_out; i++)
    if (tfcc_model_output_tensor(self->model, i, &self->out_tensor[i]) != TFCC_OK)
      self->out_tensor[i] = -1;
  return sync_all(self);
}

/* Position of TFLite tensor `tensor` among the inputs (or outputs); -1 if it is neither. */
static int find_pos(const int32_t *list, int n, long tensor) {
  for (int i = 0; i < n; i++)
    if (list[i] == tensor) return i;
  return -1;
}

/* ------------------------------------------------------------ construction */

static PyObject *interp_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  return type->tp_alloc(type, 0); /* zeroed */
}

static void interp_close(interp_obj *self) {
  free_buffers(self);
  tfcc_session_destroy(self->session);
  tfcc_model_release(self->model);
  if (!self->parent) tfcc_runtime_destroy(self->rt); /* a signature's: the parent's runtime */
  self->session = NULL;
  self->model = NULL;
  self->rt = NULL;
  Py_CLEAR(self->parent);
}

static void interp_dealloc(interp_obj *self) {
  interp_close(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static void free_plain(void *user, void *data, size_t size) { free(data); }

/* Library log lines: errors become the exception's message, so only warnings (e.g. a
 * KERNEL_FALLBACK) and, with env TFCC_LOG set, debug lines reach stderr. Thread-safe (one
 * fprintf per line). */
static void log_to_stderr(void *user, tfcc_log_level level, const char *tag, const char *message) {
  if (level == TFCC_LOG_ERROR) return;
  fprintf(stderr, "tfcc %s [%s] %s\n", level == TFCC_LOG_WARN ? "warning" : "info", tag, message);
}

#ifdef TFCC_WITH_CRYPTO
static void free_decrypted(void *user, void *data, size_t size) { tfcc_crypto_free(data, size); }

static const char *crypto_msg(tfcc_status st) {
  const char *m = tfcc_crypto_last_error();
  if (m && m[0]) return m;
  return last_msg(st);
}
#endif

typedef struct key_args {
  Py_buffer key; /* 32 raw bytes */
  int has_key;
  const char *key_file;
  const char *key_env;
} key_args;

static int wants_key(const key_args *k) { return k->has_key || k->key_file || k->key_env; }

static int file_is_encrypted(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char head[8];
  int enc =
      fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, k_magic_encrypted, 8) == 0;
  fclose(f);
  return enc;
}

/* Custom-operator plugins to register on the runtime before the model loads
 * (docs/custom_ops.md, "Plugins"): library paths (bytes) and registration functions (their
 * address, or a name found in the process), taken from the Python objects while the GIL is held. */
#define MAX_PLUGINS 32
typedef struct plugin_args {
  PyObject *libs_fast, *regs_fast;
  const char *libs[MAX_PLUGINS];
  int n_libs;
  tfcc_custom_ops_register_fn regs[MAX_PLUGINS];
  char reg_names[MAX_PLUGINS][96];
  int n_regs;
} plugin_args;

static int plugin_args_parse(plugin_args *pa, PyObject *libs, PyObject *regs) {
  if (libs != Py_None) {
    if (!(pa->libs_fast = PySequence_Fast(libs, "custom_op_libraries: expected a list of paths")))
      return -1;
    if (PySequence_Fast_GET_SIZE(pa->libs_fast) > MAX_PLUGINS) {
      PyErr_Format(PyExc_ValueError, "custom_op_libraries: at most %d libraries", MAX_PLUGINS);
      return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(pa->libs_fast); i++) {
      PyObject *o = PySequence_Fast_GET_ITEM(pa->libs_fast, i);
      if (!PyBytes_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "custom_op_libraries: each entry must be a path (bytes)");
        return -1;
      }
      pa->libs[pa->n_libs++] = PyBytes_AS_STRING(o);
    }
  }
  if (regs != Py_None) {
    if (!(pa->regs_fast = PySequence_Fast(regs, "custom_op_registerers: expected a list")))
      return -1;
    if (PySequence_Fast_GET_SIZE(pa->regs_fast) > MAX_PLUGINS) {
      PyErr_Format(PyExc_ValueError, "custom_op_registerers: at most %d functions", MAX_PLUGINS);
      return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(pa->regs_fast); i++) {
      PyObject *o = PySequence_Fast_GET_ITEM(pa->regs_fast, i);
      char *name = pa->reg_names[pa->n_regs];
      tfcc_custom_ops_register_fn fn = NULL;
      if (PyLong_Check(o)) {
        void *addr = PyLong_AsVoidPtr(o);
        if (!addr && PyErr_Occurred()) return -1;
        memcpy(&fn, &addr, sizeof fn);
        snprintf(name, sizeof pa->reg_names[0], "registerer at %p", addr);
      } else if (PyUnicode_Check(o)) {
        const char *s = PyUnicode_AsUTF8(o);
        if (!s) return -1;
        snprintf(name, sizeof pa->reg_names[0], "registerer %s", s);
        fn = tfcc_plugin_find(s);
        if (!fn) {
          PyErr_Format(
              PyExc_ValueError,
              "custom_op_registerers: no function named '%s' in this process (load its library with "
              "ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL) first, or pass the library in "
              "custom_op_libraries)",
              s);
          return -1;
        }
      } else {
        PyErr_SetString(PyExc_TypeError,
                        "custom_op_registerers: each entry must be a function name (str) or "
                        "a function address (int)");
        return -1;
      }
      if (!fn) {
        PyErr_SetString(PyExc_ValueError, "custom_op_registerers: a NULL function address");
        return -1;
      }
      pa->regs[pa->n_regs++] = fn;
    }
  }
  return 0;
}

/* Without the GIL: the libraries, then the functions; err holds the first failure. */
static tfcc_status plugin_args_register(const plugin_args *pa, tfcc_runtime *rt, char *err,
                                        size_t n) {
  for (int i = 0; i < pa->n_libs; i++) {
    tfcc_status st = tfcc_plugin_load(rt, pa->libs[i], err, n);
    if (st != TFCC_OK) return st;
  }
  for (int i = 0; i < pa->n_regs; i++) {
    tfcc_status st = tfcc_plugin_call(rt, pa->regs[i], pa->reg_names[i], err, n);
    if (st != TFCC_OK) return st;
  }
  return TFCC_OK;
}

/* _open(model_path, model_content, num_threads, isa, precision, quant_compat, key, key_file,
 *       key_env, disable_winograd, custom_op_libraries, custom_op_registerers): loads the model
 * and creates the session and buffers. Raises ValueError with tfcc's message on a model, option
 * or plugin that does not load. */
static PyObject *interp_open(interp_obj *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"model_path",
                           "model_content",
                           "num_threads",
                           "isa",
                           "precision",
                           "quant_compat",
                           "key",
                           "key_file",
                           "key_env",
                           "disable_winograd",
                           "custom_op_libraries",
                           "custom_op_registerers",
                           "device",
                           NULL};
  PyObject *path_obj = Py_None, *path_bytes = NULL;
  const char *device = NULL;
  Py_buffer content = {0};
  int num_threads = 1, disable_winograd = 0;
  const char *isa = NULL, *precision = NULL, *quant_compat = NULL;
  key_args key;
  memset(&key, 0, sizeof key);
  if (self->session) {
    PyErr_SetString(PyExc_RuntimeError, "Interpreter is already open");
    return NULL;
  }
  PyObject *libs_obj = Py_None, *regs_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|Oz*izzzz*zzpOOz", kwlist, &path_obj, &content,
                                   &num_threads, &isa, &precision, &quant_compat, &key.key,
                                   &key.key_file, &key.key_env, &disable_winograd, &libs_obj,
                                   &regs_obj, &device))
    return NULL;
  plugin_args plugins;
  memset(&plugins, 0, sizeof plugins);
  char plugin_err[1024] = "";
  key.has_key = key.key.buf != NULL;
  PyObject *result = NULL;
  const char *path = NULL;
  if (path_obj != Py_None) {
    if (!PyUnicode_FSConverter(path_obj, &path_bytes)) goto done;
    path = PyBytes_AS_STRING(path_bytes);
  }
  if ((path != NULL) == (content.buf != NULL)) {
    PyErr_SetString(PyExc_ValueError, "pass exactly one of model_path and model_content");
    goto done;
  }
  if (plugin_args_parse(&plugins, libs_obj, regs_obj) != 0) goto done;
  if (num_threads < 0 || num_threads > 1024) {
    PyErr_Format(PyExc_ValueError, "num_threads: %d is out of range [0, 1024] (0: all CPUs)",
                 num_threads);
    goto done;
  }
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = num_threads;
  ro.log_fn = log_to_stderr;
  ro.log_level = getenv("TFCC_LOG") && getenv("TFCC_LOG")[0] ? TFCC_LOG_DEBUG : TFCC_LOG_WARN;
  if (isa) {
    tfcc_isa parsed;
    if (tfcc_isa_parse(isa, &parsed) != TFCC_OK) {
      PyErr_Format(PyExc_ValueError, "isa: unknown ISA '%s' (generic, sse4, avx2, avx512, neon)",
                   isa);
      goto done;
    }
    ro.isa = isa;
  }
  char device_name[16] = "";
  if (device) { /* "cpu", "cuda" or "cuda:N" (docs/cuda.md) */
    const char *colon = strchr(device, ':');
    size_t len = colon ? (size_t)(colon - device) : strlen(device);
    char *end = NULL;
    long id = colon ? strtol(colon + 1, &end, 10) : 0;
    if (len == 0 || len >= sizeof device_name || (colon && (!colon[1] || *end || id < 0))) {
      PyErr_Format(PyExc_ValueError, "device: '%s' is not cpu, cuda or cuda:N", device);
      goto done;
    }
    memcpy(device_name, device, len);
    ro.device = device_name;
    ro.device_id = (int)id;
  }
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.disable_winograd = disable_winograd;
  if (precision && strcmp(precision, "f32") != 0 && strcmp(precision, "float32") != 0) {
    if (strcmp(precision, "fp16") == 0 || strcmp(precision, "float16") == 0) {
      mo.precision = TFCC_PRECISION_F16;
    } else if (strcmp(precision, "bf16") != 0 && strcmp(precision, "bfloat16") != 0) {
      PyErr_Format(PyExc_ValueError, "precision: '%s' is not f32, bf16 or fp16", precision);
      goto done;
    } else {
      mo.precision = TFCC_PRECISION_BF16;
    }
  }
  if (quant_compat && strcmp(quant_compat, "tflite") != 0) {
    if (strcmp(quant_compat, "reference") != 0) {
      PyErr_Format(PyExc_ValueError, "quant_compat: '%s' is not tflite or reference", quant_compat);
      goto done;
    }
    mo.quant_compat = TFCC_QUANT_COMPAT_REFERENCE;
  }
  if (key.has_key && key.key.len != 32) {
    PyErr_Format(PyExc_ValueError, "key: %zd bytes, an AES-256 key has 32", key.key.len);
    goto done;
  }
  const int content_encrypted =
      content.buf && content.len >= 8 && memcmp(content.buf, k_magic_encrypted, 8) == 0;
  const int encrypted = path ? file_is_encrypted(path) : content_encrypted;
#ifndef TFCC_WITH_CRYPTO
  if (encrypted || wants_key(&key)) {
    PyErr_SetString(
        PyExc_ValueError,
        "this tfcc build has no encrypted-model support (libtfcc_crypto, OpenSSL, was not found "
        "when it was built)");
    goto done;
  }
#else
  if (encrypted && !wants_key(&key)) {
    PyErr_Format(PyExc_ValueError,
                 "%s is an encrypted tfcc model: pass key=, key_file= or key_env=",
                 path ? path : "model_content");
    goto done;
  }
#endif
  if (!encrypted && wants_key(&key)) {
    PyErr_Format(PyExc_ValueError,
                 "%s is not an encrypted tfcc model (no TFCCENC header), but a key was given",
                 path ? path : "model_content");
    goto done;
  }

  /* Copy a caller's buffer (the model keeps it; 64-byte aligned like a mapping would be). */
  void *copy = NULL;
  size_t copy_size = 0;
  if (content.buf && content.len == 0) {
    PyErr_SetString(PyExc_ValueError, "model_content is empty");
    goto done;
  }
  if (content.buf && !encrypted) {
    copy_size = (size_t)content.len;
    copy = aligned_alloc(64, (copy_size + 63) & ~(size_t)63);
    if (!copy) {
      PyErr_NoMemory();
      goto done;
    }
    memcpy(copy, content.buf, copy_size);
  }

  tfcc_status st;
  const char *why = NULL;
  const char *stage = "load";
  Py_BEGIN_ALLOW_THREADS st = tfcc_runtime_create(&ro, &self->rt);
  if (st == TFCC_OK &&
      (st = plugin_args_register(&plugins, self->rt, plugin_err, sizeof plugin_err)) != TFCC_OK) {
    why = plugin_err;
    stage = "custom_ops";
    free(copy);
  } else if (st != TFCC_OK) {
    why = last_msg(st);
    stage = "runtime";
    free(copy); /* never handed to the model */
  } else if (encrypted) {
#ifdef TFCC_WITH_CRYPTO
    tfcc_key_source ks;
    memset(&ks, 0, sizeof ks);
    if (key.has_key) {
      ks.kind = TFCC_KEY_FROM_BYTES;
      ks.bytes = key.key.buf;
    } else if (key.key_file) {
      ks.kind = TFCC_KEY_FROM_FILE;
      ks.path = key.key_file;
    } else {
      ks.kind = TFCC_KEY_FROM_ENV;
      ks.env = key.key_env;
    }
    if (path) {
      st = tfcc_model_load_encrypted(self->rt, path, &ks, &mo, &self->model);
      if (st != TFCC_OK) why = crypto_msg(st);
    } else {
      void *plain = NULL;
      size_t plain_size = 0;
      st = tfcc_crypto_decrypt_buffer(content.buf, (size_t)content.len, &ks, &plain, &plain_size);
      if (st != TFCC_OK)
        why = crypto_msg(st);
      else {
        st = tfcc_model_load_owned_buffer(self->rt, plain, plain_size, free_decrypted, NULL, &mo,
                                          &self->model);
        if (st != TFCC_OK) why = last_msg(st);
      }
    }
#endif
  } else if (path) {
    st = tfcc_model_load_file(self->rt, path, &mo, &self->model);
    if (st != TFCC_OK) why = last_msg(st);
  } else {
    st = tfcc_model_load_owned_buffer(self->rt, copy, copy_size, free_plain, NULL, &mo,
                                      &self->model);
    if (st != TFCC_OK) why = last_msg(st);
  }
  if (st == TFCC_OK) {
    stage = "session";
    st = tfcc_session_create(self->model, NULL, &self->session);
    if (st != TFCC_OK) why = last_msg(st);
  }
  Py_END_ALLOW_THREADS if (st != TFCC_OK) {
    /* a message that does not name the file gets it in front */
    const char *name = path ? path : "model_content";
    if (strstr(why, name) || strcmp(stage, "runtime") == 0 || strcmp(stage, "custom_ops") == 0)
      PyErr_SetString(strcmp(stage, "runtime") == 0 ? PyExc_RuntimeError : PyExc_ValueError, why);
    else
      PyErr_Format(PyExc_ValueError, "%s: %s", name, why);
    interp_close(self);
    goto done;
  }
  if (init_buffers(self) != 0) {
    interp_close(self);
    goto done;
  }
  result = Py_NewRef(Py_None);
done:
  Py_XDECREF(plugins.libs_fast);
  Py_XDECREF(plugins.regs_fast);
  Py_XDECREF(path_bytes);
  if (content.buf) PyBuffer_Release(&content);
  if (key.key.buf) PyBuffer_Release(&key.key);
  return result;
}

/* _open_signature(parent, key): this (empty) interpreter runs signature `key` of the parent's
 * model (tfcc_session_create_for_signature: any subgraph), with its own session and buffers;
 * tensor indices are the signature's. ValueError naming the signatures if there is no such
 * key. */
static PyObject *interp_open_signature(interp_obj *self, PyObject *args) {
  PyObject *parent_obj;
  const char *key;
  if (!PyArg_ParseTuple(args, "O!s:_open_signature", &tfcc_py_interpreter_type, &parent_obj, &key))
    return NULL;
  interp_obj *parent = (interp_obj *)parent_obj;
  if (self->session) {
    PyErr_SetString(PyExc_RuntimeError, "Interpreter is already open");
    return NULL;
  }
  if (!parent->model) return not_ready();
  int index = -1;
  for (int k = 0; k < tfcc_model_signature_count(parent->model) && index < 0; k++) {
    tfcc_signature_info si;
    if (tfcc_model_signature_info(parent->model, k, &si) == TFCC_OK && strcmp(si.key, key) == 0)
      index = k;
  }
  tfcc_status st;
  Py_BEGIN_ALLOW_THREADS st =
      tfcc_session_create_for_signature(parent->model, key, NULL, &self->session);
  Py_END_ALLOW_THREADS if (st != TFCC_OK || index < 0) {
    self->session = NULL;
    PyErr_Format(PyExc_ValueError, "signature '%s': %s", key, last_msg(st));
    return NULL;
  }
  tfcc_model_retain(parent->model);
  self->model = parent->model;
  self->rt = parent->rt;
  self->parent = Py_NewRef(parent_obj);
  self->sig_index = index;
  if (init_buffers(self) != 0) {
    interp_close(self);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* ------------------------------------------------------------ details */

static int set_item(PyObject *d, const char *key, PyObject *value) {
  if (!value) return -1;
  int rc = PyDict_SetItemString(d, key, value);
  Py_DECREF(value);
  return rc;
}

static PyObject *int32_array(const int32_t *v, int n) {
  npy_intp dims[1] = {n};
  PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, dims, NPY_INT32);
  if (a && n > 0) memcpy(PyArray_DATA(a), v, (size_t)n * sizeof *v);
  return (PyObject *)a;
}

static PyObject *float32_array(const float *v, int n) {
  npy_intp dims[1] = {n};
  PyArrayObject *a = (PyArrayObject *)PyArray_SimpleNew(1, dims, NPY_FLOAT32);
  if (a && n > 0) memcpy(PyArray_DATA(a), v, (size_t)n * sizeof *v);
  return (PyObject *)a;
}

/* TensorFlow Lite's details dict of a tensor. */
static PyObject *details(const tfcc_tensor_info *info, int32_t tensor) {
  PyObject *d = PyDict_New(), *qp = NULL;
  if (!d) return NULL;
  const int q = info->quant_count;
  const double scale = q == 1 ? info->scales[0] : 0.0;
  const long zp = q == 1 ? info->zero_points[0] : 0;
  if (set_item(d, "name", PyUnicode_FromString(info->name ? info->name : "")) ||
      set_item(d, "index", PyLong_FromLong(tensor)) ||
      set_item(d, "shape", int32_array(info->dims, info->rank)) ||
      set_item(d, "shape_signature", int32_array(info->signature, info->rank)) ||
      set_item(d, "dtype", tfcc_py_dtype_object(info->dtype)) ||
      set_item(d, "quantization", Py_BuildValue("(dl)", scale, zp)))
    goto fail;
  qp = PyDict_New();
  if (!qp || set_item(qp, "scales", float32_array(info->scales, q)) ||
      set_item(qp, "zero_points", int32_array(info->zero_points, q)) ||
      set_item(qp, "quantized_dimension", PyLong_FromLong(q > 1 ? info->quant_axis : 0)))
    goto fail;
  if (set_item(d, "quantization_parameters", qp)) {
    qp = NULL;
    goto fail;
  }
  if (set_item(d, "sparsity_parameters", PyDict_New())) goto fail;
  return d;
fail:
  Py_XDECREF(qp);
  Py_DECREF(d);
  return NULL;
}

static PyObject *io_details(interp_obj *self, int is_output) {
  REQUIRE_READY(self); /* the session's shapes are not read while another thread runs it */
  const int n = is_output ? self->n_out : self->n_in;
  PyObject *list = PyList_New(n);
  if (!list) return NULL;
  for (int i = 0; i < n; i++) {
    tfcc_tensor_info info;
    tfcc_status st = is_output ? tfcc_session_output_info(self->session, i, &info)
                               : tfcc_session_input_info(self->session, i, &info);
    if (st != TFCC_OK) {
      Py_DECREF(list);
      PyErr_Format(PyExc_RuntimeError, "%s %d: %s", is_output ? "output" : "input", i,
                   session_msg(self, st));
      return NULL;
    }
    PyObject *d = details(&info, is_output ? self->out_tensor[i] : self->in_tensor[i]);
    if (!d) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, d);
  }
  return list;
}

static PyObject *interp_get_input_details(interp_obj *self, PyObject *unused) {
  return io_details(self, 0);
}
static PyObject *interp_get_output_details(interp_obj *self, PyObject *unused) {
  return io_details(self, 1);
}

static PyObject *tensor_list(const int32_t *v, int n) {
  PyObject *list = PyList_New(n);
  for (int i = 0; list && i < n; i++) {
    PyObject *x = PyLong_FromLong(v[i]);
    if (!x) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, x);
  }
  return list;
}

static PyObject *interp_io_tensors(interp_obj *self, PyObject *unused) {
  if (!self->session) return not_ready();
  PyObject *a = tensor_list(self->in_tensor, self->n_in),
           *b = a ? tensor_list(self->out_tensor, self->n_out) : NULL;
  if (!b) {
    Py_XDECREF(a);
    return NULL;
  }
  return Py_BuildValue("(NN)", a, b);
}

static PyObject *name_tensor_pairs(const char *const *names, const int32_t *tensors, int n) {
  PyObject *list = PyList_New(n);
  for (int i = 0; list && i < n; i++) {
    PyObject *t = Py_BuildValue("(sl)", names[i] ? names[i] : "", (long)tensors[i]);
    if (!t) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, t);
  }
  return list;
}

/* [(key, subgraph, [(name, tensor)...] inputs, [(name, tensor)...] outputs)] */
static PyObject *interp_signatures(interp_obj *self, PyObject *unused) {
  if (!self->model) return not_ready();
  const int n = tfcc_model_signature_count(self->model);
  PyObject *list = PyList_New(n);
  for (int i = 0; list && i < n; i++) {
    tfcc_signature_info s;
    if (tfcc_model_signature_info(self->model, i, &s) != TFCC_OK) {
      Py_DECREF(list);
      PyErr_Format(PyExc_RuntimeError, "signature %d: cannot be read", i);
      return NULL;
    }
    PyObject *ins = name_tensor_pairs(s.input_names, s.input_tensors, s.input_count);
    PyObject *outs =
        ins ? name_tensor_pairs(s.output_names, s.output_tensors, s.output_count) : NULL;
    if (!outs) {
      Py_XDECREF(ins);
      Py_DECREF(list);
      return NULL;
    }
    PyObject *t = Py_BuildValue("(slNN)", s.key, (long)s.subgraph, ins,
                                outs); /* N: stolen, also on failure */
    if (!t) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, t);
  }
  return list;
}

/* ------------------------------------------------------------ tensors */

static PyObject *interp_set_tensor(interp_obj *self, PyObject *args) {
  long tensor;
  PyObject *value;
  if (!PyArg_ParseTuple(args, "lO:set_tensor", &tensor, &value)) return NULL;
  REQUIRE_READY(self);
  const int pos = find_pos(self->in_tensor, self->n_in, tensor);
  if (pos < 0) {
    if (find_pos(self->out_tensor, self->n_out, tensor) >= 0)
      PyErr_Format(PyExc_ValueError,
                   "Cannot set tensor: tensor %ld is an output; tfcc sets inputs only", tensor);
    else
      PyErr_Format(PyExc_ValueError,
                   "Cannot set tensor: tensor %ld is not an input of this model (inputs are "
                   "the 'index' values of get_input_details())",
                   tensor);
    return NULL;
  }
  PyArrayObject *dst = self->in_arr[pos];
  PyArrayObject *src = (PyArrayObject *)PyArray_FromAny(value, NULL, 0, 0, 0, NULL);
  if (!src) return NULL;
  /* the tensor's name and dtype only for a message (not on the way of a good call) */
  tfcc_tensor_info info;
  memset(&info, 0, sizeof info);
  const int same_type = PyArray_EquivTypenums(PyArray_TYPE(src), PyArray_TYPE(dst));
  int same_dims = PyArray_NDIM(src) == PyArray_NDIM(dst);
  for (int d = 0; same_dims && d < PyArray_NDIM(src); d++)
    same_dims = PyArray_DIMS(src)[d] == PyArray_DIMS(dst)[d];
  if (!same_type || !same_dims) tfcc_session_input_info(self->session, pos, &info);
  const char *name = info.name ? info.name : "";
  if (!PyArray_EquivTypenums(PyArray_TYPE(src), PyArray_TYPE(dst))) {
    PyObject *got = PyObject_Str((PyObject *)PyArray_DESCR(src));
    PyErr_Format(
        PyExc_ValueError,
        "Cannot set tensor: got value of type %s but expected type %s for input %d, name: %s",
        got ? PyUnicode_AsUTF8(got) : "?", tfcc_dtype_name(info.dtype), pos, name);
    Py_XDECREF(got);
    Py_DECREF(src);
    return NULL;
  }
  if (PyArray_NDIM(src) != PyArray_NDIM(dst)) {
    PyErr_Format(
        PyExc_ValueError,
        "Cannot set tensor: dimension mismatch: got %d dimensions but expected %d for input %d, name: %s "
        "(resize_tensor_input changes the shape)",
        PyArray_NDIM(src), PyArray_NDIM(dst), pos, name);
    Py_DECREF(src);
    return NULL;
  }
  for (int d = 0; d < PyArray_NDIM(src); d++)
    if (PyArray_DIMS(src)[d] != PyArray_DIMS(dst)[d]) {
      PyErr_Format(
          PyExc_ValueError,
          "Cannot set tensor: dimension mismatch: got %zd but expected %zd for dimension %d of input %d, "
          "name: %s (resize_tensor_input changes the shape)",
          (Py_ssize_t)PyArray_DIMS(src)[d], (Py_ssize_t)PyArray_DIMS(dst)[d], d, pos, name);
      Py_DECREF(src);
      return NULL;
    }
  const int rc = PyArray_CopyInto(dst, src);
  Py_DECREF(src);
  if (rc != 0) return NULL;
  Py_RETURN_NONE;
}

/* The array of a tensor (input or output); NULL with ValueError for any other. Borrowed. */
static PyArrayObject *tensor_array(interp_obj *self, long tensor) {
  int pos = find_pos(self->out_tensor, self->n_out, tensor);
  if (pos >= 0) return self->out_arr[pos];
  pos = find_pos(self->in_tensor, self->n_in, tensor);
  if (pos >= 0) return self->in_arr[pos];
  PyErr_Format(
      PyExc_ValueError,
      "tensor %ld: tfcc keeps the inputs and outputs only (intermediate tensors share reused memory; "
      "see get_input_details / get_output_details for their indices)",
      tensor);
  return NULL;
}

static PyObject *interp_get_tensor(interp_obj *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"tensor_index", "subgraph_index", NULL};
  long tensor, subgraph = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "l|l:get_tensor", kwlist, &tensor, &subgraph))
    return NULL;
  REQUIRE_READY(self);
  if (subgraph != 0) {
    PyErr_Format(PyExc_ValueError, "subgraph_index %ld: tfcc runs subgraph 0 only", subgraph);
    return NULL;
  }
  PyArrayObject *a = tensor_array(self, tensor);
  return a ? PyArray_NewCopy(a, NPY_CORDER) : NULL;
}

/* A view of the array tfcc reads or writes (what tensor(i)() returns): writes go to the input,
 * reads see the output. A view, not the array itself, so that nothing done to it (reshaping,
 * ndarray.resize, flags) can move or change the buffer tfcc was given. */
static PyObject *interp_view(interp_obj *self, PyObject *arg) {
  long tensor = PyLong_AsLong(arg);
  if (tensor == -1 && PyErr_Occurred()) return NULL;
  if (!self->session) return not_ready();
  PyArrayObject *a = tensor_array(self, tensor);
  return a ? PyArray_View(a, NULL, NULL) : NULL;
}

/* Input / output by position (signature runners). */
static PyObject *interp_output_copy(interp_obj *self, PyObject *arg) {
  long pos = PyLong_AsLong(arg);
  if (pos == -1 && PyErr_Occurred()) return NULL;
  REQUIRE_READY(self);
  if (pos < 0 || pos >= self->n_out)
    return PyErr_Format(PyExc_IndexError, "output %ld out of range", pos);
  return PyArray_NewCopy(self->out_arr[pos], NPY_CORDER);
}

/* ------------------------------------------------------------ run */

static PyObject *pending_error(void) {
  PyErr_SetString(
      PyExc_RuntimeError,
      "Invoke called after resize_tensor_input without allocate_tensors(): call allocate_tensors() "
      "first");
  return NULL;
}

static PyObject *interp_invoke(interp_obj *self, PyObject *unused) {
  REQUIRE_READY(self);
  if (self->n_pending) return pending_error();
  tfcc_status st;
  self->busy = 1;
  Py_BEGIN_ALLOW_THREADS st = tfcc_session_run(self->session, self->in_ptr, self->out_ptr);
  Py_END_ALLOW_THREADS self->busy = 0;
  if (st != TFCC_OK) return tfcc_py_raise(PyExc_RuntimeError, "invoke", session_msg(self, st));
  Py_RETURN_NONE;
}

/* _invoke_loop(n) -> seconds: n runs timed in C with the GIL released once (the baseline of
 * python/bench/invoke_overhead.py). */
static PyObject *interp_invoke_loop(interp_obj *self, PyObject *arg) {
  long n = PyLong_AsLong(arg);
  if (n == -1 && PyErr_Occurred()) return NULL;
  REQUIRE_READY(self);
  if (self->n_pending) return pending_error();
  tfcc_status st = TFCC_OK;
  struct timespec t0, t1;
  self->busy = 1;
  Py_BEGIN_ALLOW_THREADS clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n && st == TFCC_OK; i++)
    st = tfcc_session_run(self->session, self->in_ptr, self->out_ptr);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  Py_END_ALLOW_THREADS self->busy = 0;
  if (st != TFCC_OK) return tfcc_py_raise(PyExc_RuntimeError, "invoke", session_msg(self, st));
  return PyFloat_FromDouble((double)(t1.tv_sec - t0.tv_sec) +
                            (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}

/* _resize(tensor_index, dims): records the shape; allocate_tensors() applies every pending one
 * at once (inputs that must change together, e.g. both operands of an ADD). */
static PyObject *interp_resize(interp_obj *self, PyObject *args) {
  long tensor;
  PyObject *dims_obj;
  if (!PyArg_ParseTuple(args, "lO:resize_tensor_input", &tensor, &dims_obj)) return NULL;
  REQUIRE_READY(self);
  const int pos = find_pos(self->in_tensor, self->n_in, tensor);
  if (pos < 0) {
    PyErr_Format(PyExc_ValueError, "resize_tensor_input: tensor %ld is not an input of this model",
                 tensor);
    return NULL;
  }
  PyArrayObject *dims =
      (PyArrayObject *)PyArray_FromAny(dims_obj, PyArray_DescrFromType(NPY_INT64), 0, 1,
                                       NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST, NULL);
  if (!dims) return NULL;
  const npy_intp rank = PyArray_SIZE(dims);
  if (PyArray_NDIM(dims) != 1 || rank > TFCC_MAX_DIMS) {
    Py_DECREF(dims);
    PyErr_Format(PyExc_ValueError,
                 "resize_tensor_input: tensor_size must be a 1-D list of at most %d dimensions",
                 TFCC_MAX_DIMS);
    return NULL;
  }
  int32_t d32[TFCC_MAX_DIMS];
  const int64_t *d64 = PyArray_DATA(dims);
  for (npy_intp i = 0; i < rank; i++) {
    if (d64[i] < 0 || d64[i] > INT32_MAX) {
      PyErr_Format(PyExc_ValueError, "resize_tensor_input: input %d dimension %zd is %lld", pos,
                   (Py_ssize_t)i, (long long)d64[i]);
      Py_DECREF(dims);
      return NULL;
    }
    d32[i] = (int32_t)d64[i];
  }
  Py_DECREF(dims);
  if (self->pending_rank[pos] < 0) self->n_pending++;
  self->pending_rank[pos] = (int32_t)rank;
  memcpy(self->pending_dims[pos], d32, (size_t)rank * sizeof *d32);
  Py_RETURN_NONE;
}

/* allocate_tensors(): applies pending resizes (tfcc_session_resize_inputs, one re-plan) and
 * makes new arrays for the inputs and outputs whose shape changed. Without a pending resize the
 * buffers are already there: nothing to do. */
static PyObject *interp_allocate_tensors(interp_obj *self, PyObject *unused) {
  REQUIRE_READY(self);
  if (self->n_pending == 0) Py_RETURN_NONE;
  int idx[64], *indices = self->n_pending <= 64
                              ? idx
                              : PyMem_Calloc((size_t)self->n_pending, sizeof *indices);
  int32_t rk[64],
      *ranks = self->n_pending <= 64 ? rk : PyMem_Calloc((size_t)self->n_pending, sizeof *ranks);
  const int32_t *dp[64],
      **dims = self->n_pending <= 64 ? dp : PyMem_Calloc((size_t)self->n_pending, sizeof *dims);
  PyObject *result = NULL;
  if (!indices || !ranks || !dims) {
    PyErr_NoMemory();
    goto done;
  }
  int k = 0;
  for (int i = 0; i < self->n_in; i++)
    if (self->pending_rank[i] >= 0) {
      indices[k] = i;
      ranks[k] = self->pending_rank[i];
      dims[k] = self->pending_dims[i];
      k++;
    }
  tfcc_status st = tfcc_session_resize_inputs(self->session, k, indices, ranks, dims);
  /* applied or refused, the request is consumed (TFLite keeps no half-applied resize either) */
  for (int i = 0; i < self->n_in; i++) self->pending_rank[i] = -1;
  self->n_pending = 0;
  if (st != TFCC_OK) {
    tfcc_py_raise(PyExc_ValueError, "allocate_tensors", session_msg(self, st));
    goto done;
  }
  if (sync_all(self) != 0) goto done;
  result = Py_NewRef(Py_None);
done:
  if (indices != idx) PyMem_Free(indices);
  if (ranks != rk) PyMem_Free(ranks);
  if (dims != dp) PyMem_Free((void *)dims);
  return result;
}

static PyObject *interp_reset_all_variables(interp_obj *self, PyObject *unused) {
  REQUIRE_READY(self);
  tfcc_status st = tfcc_session_reset_state(self->session);
  if (st != TFCC_OK)
    return tfcc_py_raise(PyExc_RuntimeError, "reset_all_variables", session_msg(self, st));
  Py_RETURN_NONE;
}

/* update_weights(path or bytes) -> dict of tfcc_model_update_info. */
static PyObject *interp_update_weights(interp_obj *self, PyObject *arg) {
  /* no busy check: runs on other threads may go on while the weights change (the library
     finishes them on the old weights) */
  if (!self->session) return not_ready();
  PyObject *path_bytes = NULL;
  Py_buffer buf = {0};
  if (PyObject_CheckBuffer(arg)) {
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) != 0) return NULL;
  } else if (!PyUnicode_FSConverter(arg, &path_bytes)) {
    return NULL;
  }
  const char *path = path_bytes ? PyBytes_AS_STRING(path_bytes) : NULL;
  tfcc_status st;
  const char *why = NULL;
  Py_BEGIN_ALLOW_THREADS st =
      path ? tfcc_model_update_weights(self->model, path)
           : tfcc_model_update_weights_buffer(self->model, buf.buf, (size_t)buf.len);
  if (st != TFCC_OK) why = last_msg(st);
  Py_END_ALLOW_THREADS if (buf.buf) PyBuffer_Release(&buf);
  if (st != TFCC_OK) {
    PyObject *r = path && !strstr(why, path)
                      ? PyErr_Format(PyExc_ValueError, "update_weights: %s: %s", path, why)
                      : tfcc_py_raise(PyExc_ValueError, "update_weights", why);
    Py_XDECREF(path_bytes);
    return r;
  }
  Py_XDECREF(path_bytes);
  tfcc_update_info u;
  tfcc_model_update_info(self->model, &u);
  return Py_BuildValue("{s:K,s:d,s:d,s:d,s:d,s:d}", "generation", (unsigned long long)u.generation,
                       "map_ms", u.map_ms, "prepare_ms", u.prepare_ms, "switch_ms", u.switch_ms,
                       "total_ms", u.total_ms, "drain_ms", u.drain_ms);
}

static PyObject *interp_memory_info(interp_obj *self, PyObject *unused) {
  REQUIRE_READY(self);
  tfcc_memory_info m;
  tfcc_status st = tfcc_session_memory_info(self->session, &m);
  if (st != TFCC_OK) return tfcc_py_raise(PyExc_RuntimeError, "memory_info", session_msg(self, st));
  return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:n}", "arena_bytes", (Py_ssize_t)m.arena_bytes,
                       "naive_bytes", (Py_ssize_t)m.naive_bytes, "lower_bound_bytes",
                       (Py_ssize_t)m.lower_bound_bytes, "persistent_bytes",
                       (Py_ssize_t)m.persistent_bytes, "constant_bytes",
                       (Py_ssize_t)m.constant_bytes, "dynamic_bytes",
                       (Py_ssize_t)tfcc_session_dynamic_bytes(self->session));
}

/* [(name, kernel-less) ...]: the operators of the model, for get_ops-style introspection. */
static PyObject *interp_ops(interp_obj *self, PyObject *unused) {
  if (!self->model) return not_ready();
  const int n = tfcc_model_op_count(self->model);
  PyObject *list = PyList_New(n);
  for (int i = 0; list && i < n; i++) {
    tfcc_op_info oi;
    tfcc_model_op_info(self->model, i, &oi);
    PyObject *t = Py_BuildValue("{s:i,s:s,s:i,s:O,s:L}", "index", i, "op_name", oi.name, "version",
                                (int)oi.version, "supported", oi.supported ? Py_True : Py_False,
                                "macs", (long long)oi.macs);
    if (!t) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, t);
  }
  return list;
}

static PyMethodDef interp_methods[] = {
    {"_open", TFCC_PY_KW(interp_open), METH_VARARGS | METH_KEYWORDS,
     "Loads the model (tfcc.Interpreter calls it)."},
    {"get_input_details", (PyCFunction)interp_get_input_details, METH_NOARGS,
     "Details of every input (TensorFlow Lite's dict keys)."},
    {"get_output_details", (PyCFunction)interp_get_output_details, METH_NOARGS,
     "Details of every output (TensorFlow Lite's dict keys)."},
    {"_io_tensors", (PyCFunction)interp_io_tensors, METH_NOARGS,
     "([input tensor indices], [output tensor indices])"},
    {"_signatures", (PyCFunction)interp_signatures, METH_NOARGS, "The file's SignatureDefs."},
    {"_open_signature", (PyCFunction)interp_open_signature, METH_VARARGS,
     "_open_signature(parent, key): runs signature key of parent's model (its own session)."},
    {"set_tensor", (PyCFunction)interp_set_tensor, METH_VARARGS,
     "set_tensor(tensor_index, value): copies value into the input (same dtype and shape)."},
    {"get_tensor", TFCC_PY_KW(interp_get_tensor), METH_VARARGS | METH_KEYWORDS,
     "get_tensor(tensor_index, subgraph_index=0): a copy of an input or output."},
    {"_view", (PyCFunction)interp_view, METH_O, "The array tfcc reads or writes for a tensor."},
    {"_output_copy", (PyCFunction)interp_output_copy, METH_O, "A copy of output i (by position)."},
    {"invoke", (PyCFunction)interp_invoke, METH_NOARGS,
     "Runs the model (the GIL is released while it runs)."},
    {"_invoke_loop", (PyCFunction)interp_invoke_loop, METH_O, "Seconds for n runs timed in C."},
    {"_resize", (PyCFunction)interp_resize, METH_VARARGS, "Records an input's new shape."},
    {"allocate_tensors", (PyCFunction)interp_allocate_tensors, METH_NOARGS,
     "Applies pending resize_tensor_input calls (all inputs at once) and remakes the arrays whose "
     "shape changed."},
    {"reset_all_variables", (PyCFunction)interp_reset_all_variables, METH_NOARGS,
     "Sets every variable (stateful) tensor back to zero."},
    {"update_weights", (PyCFunction)interp_update_weights, METH_O,
     "update_weights(path or bytes) -> dict: swaps in the weights of another file of the same graph "
     "(tfcc_model_update_weights); returns the timing figures."},
    {"memory_info", (PyCFunction)interp_memory_info, METH_NOARGS, "Arena and memory plan figures."},
    {"_ops", (PyCFunction)interp_ops, METH_NOARGS, "The model's operators."},
    {NULL, NULL, 0, NULL}};

PyTypeObject tfcc_py_interpreter_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tfcc._tfcc.Interpreter",
    .tp_basicsize = sizeof(interp_obj),
    .tp_dealloc = (destructor)interp_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "tfcc's interpreter core (use tfcc.Interpreter).",
    .tp_methods = interp_methods,
    .tp_new = interp_new,
};
