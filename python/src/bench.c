/* tfcc.bench: `tfcc bench MODEL --json` from Python. The same phases and timed loop as
 * tools/cmd_bench.c (load, session, first run, warm-up, timed runs with one clock read per run,
 * a separate profiled pass), the same seeded inputs (tools/common/bench_inputs.c), statistics
 * (stats.c) and JSON report (bench_report.c, written to a memory stream and parsed with json),
 * so the dict has the command's keys and meanings. No trace. The GIL is released while it runs. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tfcc_python.h"

#include "common/bench_inputs.h"
#include "common/bench_report.h"
#include "common/cpulist.h"
#include "common/stats.h"

#define MAX_SPECS 256
#define MAX_CPUS 1024

typedef struct py_bench {
  const char *model;
  long threads, warmup, runs, profile_runs, seed;
  double duration;
  int runs_set, duration_set, profile_set;
  int cpus[MAX_CPUS];
  int n_cpus;
  const char *isa;
  tfcc_precision precision;
  const char *specs[MAX_SPECS];
  int n_specs;
  /* state */
  tfcc_runtime *rt;
  tfcc_model *m;
  tfcc_session *s;
  void **inputs;
  int n_in;
  void **outputs;
  int n_out;
  double *lat, *scratch;
  bench_result r;
  char err[1024];
} py_bench;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double ms_between(uint64_t a, uint64_t b) { return (double)(b - a) / 1e6; }

static double process_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int fail(py_bench *b, const char *fmt, const char *a, const char *c) {
  snprintf(b->err, sizeof b->err, fmt, a, c);
  return -1;
}

static const char *why(const char *m, tfcc_status st) {
  return m && m[0] ? m : tfcc_status_str(st);
}

static int run_once(py_bench *b, const char *phase, double *ms) {
  uint64_t t0 = now_ns();
  tfcc_status st = tfcc_session_run(b->s, (const void *const *)b->inputs, b->outputs);
  uint64_t t1 = now_ns();
  if (st != TFCC_OK)
    return fail(b, "%s run failed: %s", phase, why(tfcc_session_last_error(b->s), st));
  *ms = ms_between(t0, t1);
  return 0;
}

/* The measurement, without the GIL. 0, or -1 with b->err set. */
static int bench_run(py_bench *b) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = (int)b->threads;
  ro.isa = b->isa;
  if (b->n_cpus > 0) {
    ro.cpu_affinity = b->cpus;
    ro.cpu_affinity_count = b->n_cpus;
    if (cpulist_pin_self(b->cpus[0], b->err, sizeof b->err) != 0) return -1;
  }
  tfcc_status st = tfcc_runtime_create(&ro, &b->rt);
  if (st != TFCC_OK) return fail(b, "cannot create runtime: %s%s", why(tfcc_last_error(), st), "");
  const char *cap_name = b->isa ? b->isa : getenv("TFCC_ISA");
  b->r.cap = TFCC_ISA_NO_CAP;
  if (cap_name && cap_name[0] && tfcc_isa_parse(cap_name, &b->r.cap) == TFCC_OK)
    b->r.isa_capped = 1;
  b->r.level = tfcc_isa_dispatch_level(b->r.cap);

  uint64_t t0 = now_ns();
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = b->precision;
  b->r.precision = b->precision;
  st = tfcc_model_load_file(b->rt, b->model, &mo, &b->m);
  uint64_t t1 = now_ns();
  if (st != TFCC_OK) {
    const char *w = why(tfcc_last_error(), st);
    return strstr(w, b->model) ? fail(b, "%s%s", w, "") : fail(b, "%s: %s", b->model, w);
  }
  st = tfcc_session_create(b->m, NULL, &b->s);
  uint64_t t2 = now_ns();
  if (st != TFCC_OK) return fail(b, "%s: %s", b->model, why(tfcc_last_error(), st));
  b->r.load_ms = ms_between(t0, t1);
  b->r.session_ms = ms_between(t1, t2);
  if (bench_make_inputs(b->s, b->specs, b->n_specs, (uint64_t)b->seed, &b->inputs, &b->n_in, b->err,
                        sizeof b->err) != 0)
    return -1;
  b->n_out = tfcc_session_output_count(b->s);
  b->outputs = (void **)calloc((size_t)b->n_out + 1, sizeof *b->outputs);
  if (!b->outputs) return fail(b, "out of memory%s%s", "", "");
  for (int i = 0; i < b->n_out; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(b->s, i, &info);
    b->outputs[i] = malloc(info.bytes ? info.bytes : 1);
    if (!b->outputs[i]) return fail(b, "out of memory%s%s", "", "");
  }

  long runs = b->runs_set ? b->runs : (b->duration_set ? 1 : 10);
  double duration = b->duration_set ? b->duration : (b->runs_set ? 0.0 : 1.0);
  long profile_runs = b->profile_set ? b->profile_runs : 10;
  double first;
  if (run_once(b, "first", &first) != 0) return -1;
  b->r.first_ms = first;
  for (long i = 0; i < b->warmup; i++) {
    double ms;
    if (run_once(b, "warmup", &ms) != 0) return -1;
  }
  double est = first > 0 ? duration * 1000.0 / first : 0;
  size_t cap = (size_t)runs + (est > 1e6 ? 1000000u : (size_t)est) + 16;
  b->lat = (double *)malloc(cap * sizeof *b->lat);
  if (!b->lat) return fail(b, "out of memory%s%s", "", "");

  /* the timed loop of tools/cmd_bench.c: one clock read per run */
  double cpu0 = process_cpu_ms();
  uint64_t start = now_ns(), deadline = start + (uint64_t)(duration * 1e9), now = start;
  size_t n = 0;
  for (;;) {
    if ((long)n >= runs && now >= deadline) break;
    if (n == cap) {
      double *p = (double *)realloc(b->lat, 2 * cap * sizeof *p);
      if (!p) return fail(b, "out of memory%s%s", "", "");
      b->lat = p;
      cap *= 2;
      now = now_ns();
    }
    st = tfcc_session_run(b->s, (const void *const *)b->inputs, b->outputs);
    const uint64_t end = now_ns();
    if (st != TFCC_OK)
      return fail(b, "timed run failed: %s%s", why(tfcc_session_last_error(b->s), st), "");
    b->lat[n++] = ms_between(now, end);
    now = end;
  }
  b->r.timed_s = (double)(now_ns() - start) / 1e9;
  b->r.cpu_ms_per_run = n ? (process_cpu_ms() - cpu0) / (double)n : 0.0;
  if (!b->profile_set && (long)n < profile_runs) profile_runs = (long)n;
  b->r.profile_runs = profile_runs;
  b->scratch = (double *)malloc((n ? n : 1) * sizeof *b->scratch);
  if (!b->scratch) return fail(b, "out of memory%s%s", "", "");
  b->r.n_lat = n;
  stats_compute(b->lat, n, b->scratch, &b->r.lat);
  b->r.qps = b->r.timed_s > 0 ? (double)n / b->r.timed_s : 0.0;

  if (profile_runs > 0) {
    st = tfcc_session_set_profiling(b->s, 1);
    if (st != TFCC_OK)
      return fail(b, "cannot profile: %s%s", why(tfcc_session_last_error(b->s), st), "");
    tfcc_session_profile_reset(b->s);
    for (long i = 0; i < profile_runs; i++) {
      double ms;
      if (run_once(b, "profiled", &ms) != 0) return -1;
    }
    const tfcc_op_profile *entries = NULL;
    int n_entries = tfcc_session_profile(b->s, &entries);
    if (bench_profile_collect(entries, n_entries, &b->r) != 0)
      return fail(b, "out of memory%s%s", "", "");
    tfcc_session_set_profiling(b->s, 0);
  }
  b->r.peak_rss = stats_peak_rss_bytes();
  b->r.arena = tfcc_session_arena_bytes(b->s);
  b->r.have_mem = tfcc_session_memory_info(b->s, &b->r.mem) == TFCC_OK;
  return 0;
}

static void bench_free(py_bench *b) {
  bench_free_inputs(b->inputs, b->n_in);
  if (b->outputs)
    for (int i = 0; i < b->n_out; i++) free(b->outputs[i]);
  free(b->outputs);
  free(b->lat);
  free(b->scratch);
  bench_result_free(&b->r);
  tfcc_session_destroy(b->s);
  tfcc_model_release(b->m);
  tfcc_runtime_destroy(b->rt);
}

/* The JSON report in a malloc'ed string (NULL if out of memory). */
static char *report_json(py_bench *b) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  const char *inputs = b->n_specs == 0         ? "random"
                       : b->n_specs >= b->n_in ? "files"
                                               : "files + random";
  bench_setting st = {b->model,  b->threads, b->warmup, b->seed, 15, b->cpus,
                      b->n_cpus, inputs,     NULL,      0,       0};
  bench_report_json(&b->r, &st, f);
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
  b->model = PyBytes_AS_STRING(path_bytes);
  b->threads = threads;
  b->warmup = warmup;
  b->seed = seed;
  if (threads < 0 || threads > 1024 || warmup < 0 || seed < 0 || seed > 2147483647L) {
    PyErr_SetString(PyExc_ValueError,
                    "num_threads must be in [0, 1024], warmup >= 0, seed in [0, 2^31)");
    goto done;
  }
  if (runs_obj != Py_None) {
    b->runs = PyLong_AsLong(runs_obj);
    if (b->runs == -1 && PyErr_Occurred()) goto done;
    if (b->runs < 1) {
      PyErr_SetString(PyExc_ValueError, "runs must be >= 1");
      goto done;
    }
    b->runs_set = 1;
  }
  if (duration_obj != Py_None) {
    b->duration = PyFloat_AsDouble(duration_obj);
    if (b->duration == -1.0 && PyErr_Occurred()) goto done;
    if (!(b->duration >= 0 && b->duration <= 86400)) {
      PyErr_SetString(PyExc_ValueError, "duration must be in [0, 86400] seconds");
      goto done;
    }
    b->duration_set = 1;
  }
  if (profile_obj != Py_None) {
    b->profile_runs = PyLong_AsLong(profile_obj);
    if (b->profile_runs == -1 && PyErr_Occurred()) goto done;
    if (b->profile_runs < 0) {
      PyErr_SetString(PyExc_ValueError, "profile_runs must be >= 0");
      goto done;
    }
    b->profile_set = 1;
  }
  if (affinity_obj != Py_None) {
    if (PyUnicode_Check(affinity_obj)) {
      const char *s = PyUnicode_AsUTF8(affinity_obj);
      if (!s) goto done;
      b->n_cpus = cpulist_parse(s, b->cpus, MAX_CPUS, b->err, sizeof b->err);
      if (b->n_cpus < 0) {
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
        b->cpus[b->n_cpus++] = (int)c;
      }
      Py_DECREF(seq);
    }
    if (b->n_cpus > 0 && b->threads == 0) b->threads = b->n_cpus;
  }
  if (isa) {
    tfcc_isa parsed;
    if (tfcc_isa_parse(isa, &parsed) != TFCC_OK) {
      PyErr_Format(PyExc_ValueError, "isa: unknown ISA '%s' (generic, sse4, avx2, avx512, neon)",
                   isa);
      goto done;
    }
    b->isa = isa;
  }
  if (precision && strcmp(precision, "f32") != 0) {
    if (strcmp(precision, "bf16") != 0) {
      PyErr_Format(PyExc_ValueError, "precision: '%s' is not f32 or bf16", precision);
      goto done;
    }
    b->precision = TFCC_PRECISION_BF16;
  }
  if (inputs_obj != Py_None &&
      string_list(inputs_obj, b->specs, MAX_SPECS, &b->n_specs, &specs_keep) != 0)
    goto done;

  int rc;
  cpu_set_t saved;
  const int restore =
      b->n_cpus > 0 && pthread_getaffinity_np(pthread_self(), sizeof saved, &saved) == 0;
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
  bench_free(b);
  PyMem_Free(b);
  Py_XDECREF(specs_keep);
  Py_XDECREF(path_bytes);
  return result;
}
