/* tfcc.bench: `tfcc bench MODEL --json` from Python. The command's own measurement
 * (tools/common/bench_run.c: load, session, first run, warm-up, timed runs with one clock read per
 * run, a separate profiled pass; seeded inputs, statistics) and JSON report (bench_report.c,
 * written to a memory stream and parsed with json), so the dict has the command's keys and
 * meanings. No trace. The GIL is released while it runs. This file holds only the Python side:
 * keyword arguments to a bench_plan, the report to a dict. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfcc_python.h"

#include "common/bench_report.h"
#include "common/bench_run.h"
#include "common/cpulist.h"
#include "common/stats.h"

#define MAX_SPECS 256
#define MAX_CPUS 1024

typedef struct py_bench {
  bench_plan p;
  int cpus[MAX_CPUS];
  const char *specs[MAX_SPECS];
  bench_state s;
  char err[1024];
} py_bench;

/* The measurement, without the GIL. 0, or -1 with b->err set. */
static int bench_run(py_bench *b) {
  b->p.cpus = b->cpus;
  b->p.specs = b->specs;
  if (b->p.n_cpus > 0 && cpulist_pin_self(b->cpus[0], b->err, sizeof b->err) != 0) return -1;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  if (bench_runtime(&b->s, &b->p, ro, b->err, sizeof b->err) != 0 ||
      bench_open(&b->s, &b->p, b->err, sizeof b->err) != 0)
    return -1;
  return bench_measure(&b->s, &b->p, b->err, sizeof b->err);
}

/* The JSON report in a malloc'ed string (NULL if out of memory). */
static char *report_json(py_bench *b) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  const char *inputs = b->p.n_specs == 0           ? "random"
                       : b->p.n_specs >= b->s.n_in ? "files"
                                                   : "files + random";
  bench_setting st = {b->p.model,  b->p.threads, b->p.warmup, b->p.seed, 15, b->cpus,
                      b->p.n_cpus, inputs,       NULL,        0,         0};
  bench_report_json(&b->s.r, &st, f);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

static int string_list(PyObject *seq, const char **out, int max, int *n, PyObject **keep) {
  *keep = PySequence_Fast(seq, "inputs must be a list of 'FILE.npy' or 'NAME=FILE.npy' strings");
  if (!*keep) return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(*keep);
  if (len > max) {
    PyErr_Format(PyExc_ValueError, "too many inputs (at most %d)", max);
    return -1;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    out[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(*keep, i));
    if (!out[i]) return -1;
  }
  *n = (int)len;
  return 0;
}

PyObject *tfcc_py_bench(PyObject *module, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"model_path", "num_threads", "warmup",       "runs",
                           "duration",   "affinity",    "isa",          "precision",
                           "inputs",     "seed",        "profile_runs", NULL};
  PyObject *path_obj, *runs_obj = Py_None, *duration_obj = Py_None, *affinity_obj = Py_None,
                      *inputs_obj = Py_None, *profile_obj = Py_None;
  long threads = 1, warmup = 1, seed = 1;
  const char *isa = NULL, *precision = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|llOOOzzOlO:bench", kwlist, &path_obj, &threads,
                                   &warmup, &runs_obj, &duration_obj, &affinity_obj, &isa,
                                   &precision, &inputs_obj, &seed, &profile_obj))
    return NULL;
  py_bench *b = PyMem_Calloc(1, sizeof *b);
  if (!b) return PyErr_NoMemory();
  PyObject *path_bytes = NULL, *specs_keep = NULL, *result = NULL;
  char *text = NULL;
  if (!PyUnicode_FSConverter(path_obj, &path_bytes)) goto done;
  b->p.model = PyBytes_AS_STRING(path_bytes);
  b->p.threads = threads;
  b->p.warmup = warmup;
  b->p.seed = seed;
  if (threads < 0 || threads > 1024 || warmup < 0 || seed < 0 || seed > 2147483647L) {
    PyErr_SetString(PyExc_ValueError,
                    "num_threads must be in [0, 1024], warmup >= 0, seed in [0, 2^31)");
    goto done;
  }
  if (runs_obj != Py_None) {
    b->p.runs = PyLong_AsLong(runs_obj);
    if (b->p.runs == -1 && PyErr_Occurred()) goto done;
    if (b->p.runs < 1) {
      PyErr_SetString(PyExc_ValueError, "runs must be >= 1");
      goto done;
    }
    b->p.runs_set = 1;
  }
  if (duration_obj != Py_None) {
    b->p.duration = PyFloat_AsDouble(duration_obj);
    if (b->p.duration == -1.0 && PyErr_Occurred()) goto done;
    if (!(b->p.duration >= 0 && b->p.duration <= 86400)) {
      PyErr_SetString(PyExc_ValueError, "duration must be in [0, 86400] seconds");
      goto done;
    }
    b->p.duration_set = 1;
  }
  if (profile_obj != Py_None) {
    b->p.profile_runs = PyLong_AsLong(profile_obj);
    if (b->p.profile_runs == -1 && PyErr_Occurred()) goto done;
    if (b->p.profile_runs < 0) {
      PyErr_SetString(PyExc_ValueError, "profile_runs must be >= 0");
      goto done;
    }
    b->p.profile_set = 1;
  }
  if (affinity_obj != Py_None) {
    if (PyUnicode_Check(affinity_obj)) {
      const char *s = PyUnicode_AsUTF8(affinity_obj);
      if (!s) goto done;
      b->p.n_cpus = cpulist_parse(s, b->cpus, MAX_CPUS, b->err, sizeof b->err);
      if (b->p.n_cpus < 0) {
        PyErr_SetString(PyExc_ValueError, b->err);
        goto done;
      }
    } else {
      PyObject *seq = PySequence_Fast(
          affinity_obj, "affinity must be a CPU list string ('0-3') or a list of ints");
      if (!seq) goto done;
      Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
      for (Py_ssize_t i = 0; i < len && i < MAX_CPUS; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((c == -1 && PyErr_Occurred()) || c < 0) {
          Py_DECREF(seq);
          if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "affinity: CPU %ld is negative", c);
          goto done;
        }
        b->cpus[b->p.n_cpus++] = (int)c;
      }
      Py_DECREF(seq);
    }
    if (b->p.n_cpus > 0 && b->p.threads == 0) b->p.threads = b->p.n_cpus;
  }
  if (isa) {
    tfcc_isa parsed;
    if (tfcc_isa_parse(isa, &parsed) != TFCC_OK) {
      PyErr_Format(PyExc_ValueError, "isa: unknown ISA '%s' (generic, sse4, avx2, avx512, neon)",
                   isa);
      goto done;
    }
    b->p.isa = isa;
  }
  if (precision && strcmp(precision, "f32") != 0) {
    if (strcmp(precision, "bf16") != 0) {
      PyErr_Format(PyExc_ValueError, "precision: '%s' is not f32 or bf16", precision);
      goto done;
    }
    b->p.precision = TFCC_PRECISION_BF16;
  }
  if (inputs_obj != Py_None &&
      string_list(inputs_obj, b->specs, MAX_SPECS, &b->p.n_specs, &specs_keep) != 0)
    goto done;

  int rc;
  cpu_set_t saved;
  const int restore =
      b->p.n_cpus > 0 && pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0;
  Py_BEGIN_ALLOW_THREADS rc = bench_run(b);
  if (restore)
    pthread_setaffinity_np(pthread_self(), sizeof saved, &saved); /* pinned by --affinity */
  if (rc == 0) text = report_json(b);
  Py_END_ALLOW_THREADS if (rc != 0) {
    PyErr_SetString(PyExc_RuntimeError, b->err);
    goto done;
  }
  if (!text) {
    PyErr_NoMemory();
    goto done;
  }
  PyObject *json = PyImport_ImportModule("json");
  if (!json) goto done;
  result = PyObject_CallMethod(json, "loads", "s", text);
  Py_DECREF(json);
done:
  free(text);
  bench_state_free(&b->s);
  PyMem_Free(b);
  Py_XDECREF(specs_keep);
  Py_XDECREF(path_bytes);
  return result;
}
