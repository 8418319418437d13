/* The measurement of `tfcc bench` and tfcc.bench; the contract is in bench_run.h.
 *
 * Phases: load (model, then session), first inference, warm-up runs, timed runs (profiling off,
 * so the latency figures are not perturbed), then a separate profiled pass for the per-operator
 * table. A trace records every operator of every run through the session's op observer into
 * buffers reserved before the runs, and is written at the end. */
#include "bench_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_inputs.h"
#include "stats.h"

static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

/* The device copies of bench_plan.device_io (freed before the runtime). */
static void free_device_io(bench_state *b) {
  for (int i = 0; b->dev_in && i < b->n_in; i++) tfcc_runtime_device_free(b->rt, b->dev_in[i]);
  for (int i = 0; b->dev_out && i < b->n_out; i++) tfcc_runtime_device_free(b->rt, b->dev_out[i]);
  free(b->dev_in);
  free(b->dev_out);
  b->dev_in = b->dev_out = NULL;
}

void bench_state_free(bench_state *b) {
  free_device_io(b);
  bench_free_inputs(b->inputs, b->n_in);
  if (b->outputs)
    for (int i = 0; i < b->n_out; i++) free(b->outputs[i]);
  free(b->outputs);
  free(b->lat);
  free(b->lat_cpu);
  free(b->scratch);
  bench_result_free(&b->r);
  trace_free(&b->trace);
  tfcc_session_destroy(b->session);
  tfcc_model_release(b->model);
  tfcc_runtime_destroy(b->rt);
}

static double ms_between(uint64_t a, uint64_t b) { return (double)(b - a) / 1e6; }

static double process_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *last_error(tfcc_status st) {
  return tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st);
}

static const char *session_err(const tfcc_session *s, tfcc_status st) {
  const char *m = tfcc_session_last_error(s);
  return m && m[0] ? m : tfcc_status_str(st);
}

/* One run; adds it to the trace when tracing. Returns its milliseconds or -1 on failure; *end
 * (if not NULL) gets the clock reading that ended it, so that the timed loop checks its deadline
 * without a third clock read per run (two reads bracket each run, nothing else). */
static double run_once(bench_state *b, const char *phase, uint64_t *end, char *err, size_t n) {
  uint64_t t0 = trace_now_ns();
  void **in = b->dev_in ? b->dev_in : b->inputs, **out = b->dev_out ? b->dev_out : b->outputs;
  tfcc_status st = tfcc_session_run(b->session, (const void *const *)in, out);
  uint64_t t1 = trace_now_ns();
  if (end) *end = t1;
  if (st != TFCC_OK) return fail(err, n, "%s run failed: %s", phase, session_err(b->session, st));
  if (b->tracing) trace_run(&b->trace, phase, t0, t1);
  return ms_between(t0, t1);
}

int bench_runtime(bench_state *b, const bench_plan *p, tfcc_runtime_options ro, char *err,
                  size_t n) {
  ro.num_threads = (int)p->threads;
  ro.isa = p->isa;
  if (p->n_cpus > 0) {
    ro.cpu_affinity = p->cpus;
    ro.cpu_affinity_count = p->n_cpus;
  }
  tfcc_status st = tfcc_runtime_create(&ro, &b->rt);
  if (st != TFCC_OK) return fail(err, n, "cannot create runtime: %s", last_error(st));
  /* the level the runtime dispatches at: the cap from isa, else TFCC_ISA, else none */
  const char *cap_name = p->isa ? p->isa : getenv("TFCC_ISA");
  b->r.cap = TFCC_ISA_NO_CAP;
  if (cap_name && cap_name[0] && tfcc_isa_parse(cap_name, &b->r.cap) == TFCC_OK)
    b->r.isa_capped = 1;
  b->r.level = tfcc_isa_dispatch_level(b->r.cap);
  return 0;
}

/* bench_plan.device_io: device buffers for every input (a copy of the host one) and output. */
static int device_io(bench_state *b, char *err, size_t n) {
  b->dev_in = (void **)calloc((size_t)b->n_in + 1, sizeof *b->dev_in);
  b->dev_out = (void **)calloc((size_t)b->n_out + 1, sizeof *b->dev_out);
  if (!b->dev_in || !b->dev_out) return fail(err, n, "out of memory");
  for (int k = 0; k < b->n_in + b->n_out; k++) {
    const int out = k >= b->n_in, i = out ? k - b->n_in : k;
    tfcc_tensor_info info;
    (out ? tfcc_session_output_info : tfcc_session_input_info)(b->session, i, &info);
    void **slot = out ? &b->dev_out[i] : &b->dev_in[i];
    tfcc_status st = tfcc_runtime_device_alloc(b->rt, info.bytes ? info.bytes : 1, 0, slot);
    if (st == TFCC_OK && !out)
      st = tfcc_runtime_device_copy(b->rt, *slot, b->inputs[i], info.bytes);
    if (st != TFCC_OK)
      return fail(err, n, "device memory for %s %d: %s", out ? "output" : "input", i,
                  last_error(st));
  }
  return 0;
}

int bench_open(bench_state *b, const bench_plan *p, char *err, size_t n) {
  /* load_ms: from the file name to a session ready to run */
  const double cpu0 = process_cpu_ms();
  const long faults0 = stats_page_faults();
  uint64_t t0 = trace_now_ns();
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = p->precision;
  mo.quant_compat = p->quant_compat;
  mo.weights_cache = p->weights_cache;
  mo.weights_cache_verify = p->verify_cache;
  b->r.precision = p->precision;
  b->r.quant_compat = p->quant_compat;
  tfcc_status st = p->load ? p->load(b->rt, p->model, &mo, &b->model, err, n)
                           : tfcc_model_load_file(b->rt, p->model, &mo, &b->model);
  uint64_t t1 = trace_now_ns();
  if (st != TFCC_OK && p->load) return -1;
  if (st != TFCC_OK) {
    const char *why = last_error(st);
    return strstr(why, p->model) ? fail(err, n, "%s", why) : fail(err, n, "%s: %s", p->model, why);
  }
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.prefault = p->prefault;
  st = tfcc_session_create(b->model, &so, &b->session);
  uint64_t t2 = trace_now_ns();
  if (st != TFCC_OK) return fail(err, n, "%s: %s", p->model, last_error(st));
  b->r.load_cpu_ms = process_cpu_ms() - cpu0;
  b->r.load_faults = stats_page_faults() - faults0;
  b->r.load_ms = ms_between(t0, t2);
  b->r.model_ms = ms_between(t0, t1);
  b->r.session_ms = ms_between(t1, t2);

  if (bench_make_inputs(b->session, p->specs, p->n_specs, (uint64_t)p->seed, &b->inputs, &b->n_in,
                        err, n) != 0)
    return -1;
  b->n_out = tfcc_session_output_count(b->session);
  b->outputs = (void **)calloc((size_t)b->n_out + 1, sizeof *b->outputs);
  if (!b->outputs) return fail(err, n, "out of memory");
  for (int i = 0; i < b->n_out; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(b->session, i, &info);
    b->outputs[i] = malloc(info.bytes ? info.bytes : 1);
    if (!b->outputs[i])
      return fail(err, n, "out of memory (%zu bytes for output %d)", info.bytes, i);
  }
  return p->device_io ? device_io(b, err, n) : 0;
}

int bench_measure(bench_state *b, const bench_plan *p, char *err, size_t en) {
  const int n_nodes = tfcc_model_op_count(b->model);
  const size_t ops_per_run = (size_t)(n_nodes > 0 ? n_nodes : 1);
  long runs = p->runs_set ? p->runs : (p->duration_set ? 1 : 10);
  double duration = p->duration_set ? p->duration : (p->runs_set ? 0.0 : 1.0);
  /* the profiled pass: profile_runs, else min(timed runs, 10) (reserved for the trace at the
     most that can be, fixed once the timed runs are done) */
  long profile_runs = p->profile_set ? p->profile_runs : 10;

  if (p->trace) {
    if (trace_init(&b->trace, ops_per_run * (size_t)(1 + p->warmup), (size_t)(1 + p->warmup)) != 0)
      return fail(err, en, "out of memory for the trace");
    b->tracing = 1;
    tfcc_session_set_op_observer(b->session, trace_op, &b->trace);
  }
  const double first_cpu0 = process_cpu_ms();
  const long first_faults0 = stats_page_faults();
  double first = run_once(b, "first", NULL, err, en);
  if (first < 0) return -1;
  b->r.first_ms = first;
  b->r.first_cpu_ms = process_cpu_ms() - first_cpu0;
  b->r.first_faults = stats_page_faults() - first_faults0;
  for (long i = 0; i < p->warmup; i++)
    if (run_once(b, "warmup", NULL, err, en) < 0) return -1;

  /* Latency array: the runs asked for, or an estimate for the duration (grown between runs). */
  double est = first > 0 ? duration * 1000.0 / first : 0;
  size_t cap = (size_t)runs + (est > 1e6 ? 1000000u : (size_t)est) + 16;
  b->lat = (double *)malloc(cap * sizeof *b->lat);
  b->lat_cpu = (double *)malloc(cap * sizeof *b->lat_cpu);
  if (!b->lat || !b->lat_cpu) return fail(err, en, "out of memory");
  b->lat_cap = cap;
  if (b->tracing && trace_reserve(&b->trace, cap + (size_t)profile_runs, ops_per_run) != 0)
    return fail(err, en, "out of memory for the trace");

  /* The timed loop. Without a trace, one clock read per run: each run's latency is from the
     previous run's end to its own end (the loop's few instructions of bookkeeping included, a
     lat array growth excluded by a fresh reading), and the deadline check reuses it. With a
     trace, two reads bracket each run so that operator events line up with their run. The CPU
     time per run is the whole loop's either way; each run's own (lat_cpu) is the process CPU
     clock read after it, against the reading after the run before. */
  double cpu0 = process_cpu_ms(), cpu_prev = cpu0;
  const long faults0 = stats_page_faults();
  uint64_t start = trace_now_ns(), deadline = start + (uint64_t)(duration * 1e9), now = start;
  size_t n = 0;
  for (;;) {
    if ((long)n >= runs && now >= deadline) break;
    if (n == b->lat_cap) {
      double *q = (double *)realloc(b->lat, 2 * b->lat_cap * sizeof *q);
      if (!q) return fail(err, en, "out of memory");
      b->lat = q;
      if (!(q = (double *)realloc(b->lat_cpu, 2 * b->lat_cap * sizeof *q)))
        return fail(err, en, "out of memory");
      b->lat_cpu = q;
      b->lat_cap *= 2;
      if (b->tracing) trace_reserve(&b->trace, b->lat_cap - n + (size_t)profile_runs, ops_per_run);
      now = trace_now_ns();
      cpu_prev = process_cpu_ms();
    }
    double ms;
    if (b->tracing) {
      ms = run_once(b, "timed", &now, err, en);
      if (ms < 0) return -1;
    } else {
      tfcc_status st = tfcc_session_run(b->session, (const void *const *)b->inputs, b->outputs);
      const uint64_t end = trace_now_ns();
      if (st != TFCC_OK) return fail(err, en, "timed run failed: %s", session_err(b->session, st));
      ms = ms_between(now, end);
      now = end;
    }
    const double cpu = process_cpu_ms();
    b->lat_cpu[n] = cpu - cpu_prev;
    cpu_prev = cpu;
    b->lat[n++] = ms;
  }
  b->r.timed_s = (double)(trace_now_ns() - start) / 1e9;
  b->r.cpu_ms_per_run = n ? (process_cpu_ms() - cpu0) / (double)n : 0.0;
  b->r.faults_per_run = n ? (double)(stats_page_faults() - faults0) / (double)n : 0.0;
  if (!p->profile_set && (long)n < profile_runs) profile_runs = (long)n;
  /* per-operator profiles are the CPU's (a device reports its own: docs/cuda.md) */
  if (!p->profile_set && strcmp(tfcc_runtime_device(b->rt), "cpu") != 0) profile_runs = 0;
  b->r.profile_runs = profile_runs;
  b->scratch = (double *)malloc((n ? n : 1) * sizeof *b->scratch);
  if (!b->scratch) return fail(err, en, "out of memory");
  b->r.n_lat = n;
  stats_compute(b->lat, n, b->scratch, &b->r.lat);
  stats_compute(b->lat_cpu, n, b->scratch, &b->r.cpu_lat);
  b->r.qps = b->r.timed_s > 0 ? (double)n / b->r.timed_s : 0.0;

  if (profile_runs > 0) {
    tfcc_status st = tfcc_session_set_profiling(b->session, 1);
    if (st != TFCC_OK) return fail(err, en, "cannot profile: %s", session_err(b->session, st));
    tfcc_session_profile_reset(b->session);
    for (long i = 0; i < profile_runs; i++)
      if (run_once(b, "profiled", NULL, err, en) < 0) return -1;
    const tfcc_op_profile *entries = NULL;
    int n_entries = tfcc_session_profile(b->session, &entries);
    if (bench_profile_collect(entries, n_entries, &b->r) != 0)
      return fail(err, en, "out of memory");
    tfcc_session_set_profiling(b->session, 0);
  }
  b->r.peak_rss = stats_peak_rss_bytes();
  b->r.arena = tfcc_session_arena_bytes(b->session);
  b->r.have_mem = tfcc_session_memory_info(b->session, &b->r.mem) == TFCC_OK;
  if (b->tracing) {
    tfcc_session_set_op_observer(b->session, NULL, NULL);
    if (trace_write(&b->trace, p->trace, p->model, err, en) != 0) return -1;
  }
  return 0;
}
