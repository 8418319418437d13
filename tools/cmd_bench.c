/* tfcc bench MODEL: latency, throughput, memory and a per-operator profile, in the spirit of
 * TensorFlow Lite's benchmark_model and ONNX Runtime's perf_test.
 *
 * Phases: load (model, then session), first inference, warm-up runs, timed runs (profiling off,
 * so the latency figures are not perturbed), then a separate profiled pass for the per-operator
 * table. --trace records every operator of every run through the session's op observer into
 * buffers reserved before the runs, and writes a Chrome trace at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "common/args.h"
#include "common/bench_report.h"
#include "common/bench_inputs.h"
#include "common/cli.h"
#include "common/cpulist.h"
#include "common/stats.h"
#include "common/trace.h"

#define CMD "bench"
#define MAX_SPECS 256
#define MAX_CPUS 1024

static const char k_usage[] =
    "usage: tfcc bench MODEL [options]\n"
    "\n"
    "Measures MODEL (.tflite): load time, first inference, latency min/avg/p50/p90/p99/max over\n"
    "the timed runs, inferences per second, peak RSS, arena bytes, and a per-operator profile\n"
    "(time, share, GOP/s = 2 x MACs per second, kernel chosen) from a separate profiled pass, so\n"
    "profiling does not perturb the latency figures.\n"
    "\n"
    "  -t, --threads N        worker threads incl. the caller (default 1; 0 = all CPUs)\n"
    "  -w, --warmup W         untimed runs after the first inference (default 1)\n"
    "  -r, --runs R           timed runs (see below)\n"
    "  -d, --duration S       seconds of timed runs (see below)\n"
    "      --affinity LIST    pin the caller and the workers to CPUs, e.g. 0,1 or 0-3 (caller on\n"
    "                         the first, worker k on entry k)\n"
    "      --isa CAP          cap kernel dispatch: generic, sse4, avx2, avx512 (x86-64) or\n"
    "                         neon (aarch64) (default: env TFCC_ISA, else the best the CPU has)\n"
    "      --precision P      f32 (default) or bf16: float CONV_2D / FULLY_CONNECTED with\n"
    "                         bfloat16 weights and inputs, float32 sums (AVX512-BF16 or\n"
    "                         AMX-BF16; elsewhere float32, see the profile's kernels)\n"
    "      --weights-cache PATH  packed-weights cache file: written by the first load, mapped\n"
    "                         by later ones (docs/weights_cache.md)\n"
    "      --verify-cache     check the whole source (SHA-256) and every cached block at load\n"
    "                         (default: the file's identity, blocks as they are taken)\n"
    "      --prefault         touch every page of the session's arena at creation\n"
    "  -i, --input FILE.npy   data for the next input (or NAME=FILE.npy); other inputs get\n"
    "                         seeded random data of their dtype\n"
    "      --seed N           seed of the random inputs (default 1)\n"
    "      --profile-runs N   runs of the profiled pass (default: min(timed runs, 10); 0: none)\n"
    "      --top N            operators listed by time in the text report (default 15; 0: all)\n"
    "      --trace FILE.json  write a Chrome trace (chrome://tracing, Perfetto) of every\n"
    "                         operator of every run\n"
    "      --json             machine-readable report on stdout\n"
    "      --custom-ops LIB.so  register the custom operators of plugin LIB.so (repeatable;\n"
    "                         docs/custom_ops.md)\n"
    "  -h, --help             this text\n"
    "\n"
    "Timed runs: --runs R alone does exactly R; --duration S alone runs until S seconds have\n"
    "passed (at least one run); both: until both are reached; neither: at least 10 runs and 1 s.\n"
    "JSON keys: load_ms, model_ms, session_ms, load_cpu_ms, first_ms, first_cpu_ms, latency_ms{min,avg,p50,p90,p99,max,stddev}, qps,\n"
    "cpu_ms_per_run (process CPU time per timed run, all threads),\n"
    "peak_rss_bytes, arena_bytes, memory{...}, ops[] (node, name, kernel, ms, share, macs, gops).\n";

enum {
  OPT_THREADS = 1,
  OPT_WARMUP,
  OPT_RUNS,
  OPT_DURATION,
  OPT_AFFINITY,
  OPT_ISA,
  OPT_PRECISION,
  OPT_WEIGHTS_CACHE,
  OPT_PREFAULT,
  OPT_VERIFY_CACHE,
  OPT_INPUT,
  OPT_SEED,
  OPT_PROFILE_RUNS,
  OPT_TOP,
  OPT_TRACE,
  OPT_JSON,
  OPT_HELP,
  OPT_CUSTOM_OPS
};
static const arg_opt k_opts[] = {{OPT_THREADS, "-t", "--threads", 1},
                                 {OPT_WARMUP, "-w", "--warmup", 1},
                                 {OPT_RUNS, "-r", "--runs", 1},
                                 {OPT_DURATION, "-d", "--duration", 1},
                                 {OPT_AFFINITY, NULL, "--affinity", 1},
                                 {OPT_ISA, NULL, "--isa", 1},
                                 {OPT_PRECISION, NULL, "--precision", 1},
                                 {OPT_WEIGHTS_CACHE, NULL, "--weights-cache", 1},
                                 {OPT_PREFAULT, NULL, "--prefault", 0},
                                 {OPT_VERIFY_CACHE, NULL, "--verify-cache", 0},
                                 {OPT_INPUT, "-i", "--input", 1},
                                 {OPT_SEED, NULL, "--seed", 1},
                                 {OPT_PROFILE_RUNS, NULL, "--profile-runs", 1},
                                 {OPT_TOP, NULL, "--top", 1},
                                 {OPT_TRACE, NULL, "--trace", 1},
                                 {OPT_JSON, NULL, "--json", 0},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {0, NULL, NULL, 0}};

typedef struct bench_opts {
  const char *model;
  long threads, warmup, runs, profile_runs, top, seed;
  double duration;
  int runs_set, duration_set, profile_set;
  int cpus[MAX_CPUS];
  int n_cpus;
  const char *isa;
  tfcc_precision precision;
  const char *weights_cache;
  int prefault, verify_cache;
  const char *specs[MAX_SPECS];
  int n_specs;
  const char *trace;
  int json;
} bench_opts;

typedef struct bench_state {
  tfcc_runtime *rt;
  tfcc_model *model;
  tfcc_session *session;
  void **inputs;
  int n_in;
  void **outputs;
  int n_out;
  double *lat, *scratch;
  size_t lat_cap;
  trace_rec trace;
  int tracing;
  bench_result r;
} bench_state;

static void state_free(bench_state *b) {
  bench_free_inputs(b->inputs, b->n_in);
  if (b->outputs)
    for (int i = 0; i < b->n_out; i++) free(b->outputs[i]);
  free(b->outputs);
  free(b->lat);
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

static const char *session_err(const tfcc_session *s, tfcc_status st) {
  const char *m = tfcc_session_last_error(s);
  return m && m[0] ? m : tfcc_status_str(st);
}

/* One run; adds it to the trace when tracing. Returns its milliseconds or -1 on failure; *end
 * (if not NULL) gets the clock reading that ended it, so that the timed loop checks its deadline
 * without a third clock read per run (two reads bracket each run, nothing else). */
static double run_once(bench_state *b, const char *phase, uint64_t *end) {
  uint64_t t0 = trace_now_ns();
  tfcc_status st = tfcc_session_run(b->session, (const void *const *)b->inputs, b->outputs);
  uint64_t t1 = trace_now_ns();
  if (end) *end = t1;
  if (st != TFCC_OK) {
    cli_error(CMD, CLI_EXIT_FAIL, "%s run failed: %s", phase, session_err(b->session, st));
    return -1;
  }
  if (b->tracing) trace_run(&b->trace, phase, t0, t1);
  return ms_between(t0, t1);
}

static int open_all(bench_state *b, const bench_opts *o) {
  char err[512];
  tfcc_runtime_options ro;
  cli_runtime_defaults(&ro, (int)o->threads);
  ro.isa = o->isa;
  if (o->n_cpus > 0) {
    ro.cpu_affinity = o->cpus;
    ro.cpu_affinity_count = o->n_cpus;
    if (cpulist_pin_self(o->cpus[0], err, sizeof err) != 0)
      return cli_error(CMD, CLI_EXIT_FAIL, "--affinity: %s", err);
  }
  tfcc_status st = tfcc_runtime_create(&ro, &b->rt);
  if (st != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "cannot create runtime: %s",
                     tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  if (cli_load_custom_ops(CMD, b->rt) != 0) return CLI_EXIT_FAIL;
  /* the level the runtime dispatches at: the cap from --isa, else TFCC_ISA, else none */
  const char *cap_name = o->isa ? o->isa : getenv("TFCC_ISA");
  b->r.cap = TFCC_ISA_NO_CAP;
  if (cap_name && cap_name[0] && tfcc_isa_parse(cap_name, &b->r.cap) == TFCC_OK)
    b->r.isa_capped = 1;
  b->r.level = tfcc_isa_dispatch_level(b->r.cap);

  /* load_ms: from the file name to a session ready to run */
  const double cpu0 = process_cpu_ms();
  uint64_t t0 = trace_now_ns();
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = o->precision;
  mo.weights_cache = o->weights_cache;
  mo.weights_cache_verify = o->verify_cache;
  b->r.precision = o->precision;
  st = tfcc_model_load_file(b->rt, o->model, &mo, &b->model);
  uint64_t t1 = trace_now_ns();
  if (st != TFCC_OK) {
    const char *why = tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st);
    return strstr(why, o->model) ? cli_error(CMD, CLI_EXIT_FAIL, "%s", why)
                                 : cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", o->model, why);
  }
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.prefault = o->prefault;
  st = tfcc_session_create(b->model, &so, &b->session);
  uint64_t t2 = trace_now_ns();
  if (st != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", o->model,
                     tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  b->r.load_cpu_ms = process_cpu_ms() - cpu0;
  b->r.load_ms = ms_between(t0, t2);
  b->r.model_ms = ms_between(t0, t1);
  b->r.session_ms = ms_between(t1, t2);

  if (bench_make_inputs(b->session, o->specs, o->n_specs, (uint64_t)o->seed, &b->inputs, &b->n_in,
                        err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  b->n_out = tfcc_session_output_count(b->session);
  b->outputs = (void **)calloc((size_t)b->n_out + 1, sizeof *b->outputs);
  if (!b->outputs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < b->n_out; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(b->session, i, &info);
    b->outputs[i] = malloc(info.bytes ? info.bytes : 1);
    if (!b->outputs[i])
      return cli_error(CMD, CLI_EXIT_FAIL, "out of memory (%zu bytes for output %d)", info.bytes,
                       i);
  }
  return 0;
}

static int bench(bench_state *b, const bench_opts *o) {
  if (open_all(b, o) != 0) return CLI_EXIT_FAIL;
  const int n_nodes = tfcc_model_op_count(b->model);
  const size_t ops_per_run = (size_t)(n_nodes > 0 ? n_nodes : 1);
  long runs = o->runs_set ? o->runs : (o->duration_set ? 1 : 10);
  double duration = o->duration_set ? o->duration : (o->runs_set ? 0.0 : 1.0);
  /* the profiled pass: --profile-runs, else min(timed runs, 10) (reserved for the trace at the
     most that can be, fixed once the timed runs are done) */
  long profile_runs = o->profile_set ? o->profile_runs : 10;

  if (o->trace) {
    if (trace_init(&b->trace, ops_per_run * (size_t)(1 + o->warmup), (size_t)(1 + o->warmup)) != 0)
      return cli_error(CMD, CLI_EXIT_FAIL, "out of memory for the trace");
    b->tracing = 1;
    tfcc_session_set_op_observer(b->session, trace_op, &b->trace);
  }
  const double first_cpu0 = process_cpu_ms();
  double first = run_once(b, "first", NULL);
  if (first < 0) return CLI_EXIT_FAIL;
  b->r.first_ms = first;
  b->r.first_cpu_ms = process_cpu_ms() - first_cpu0;
  for (long i = 0; i < o->warmup; i++)
    if (run_once(b, "warmup", NULL) < 0) return CLI_EXIT_FAIL;

  /* Latency array: the runs asked for, or an estimate for --duration (grown between runs). */
  double est = first > 0 ? duration * 1000.0 / first : 0;
  size_t cap = (size_t)runs + (est > 1e6 ? 1000000u : (size_t)est) + 16;
  b->lat = (double *)malloc(cap * sizeof *b->lat);
  if (!b->lat) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  b->lat_cap = cap;
  if (b->tracing && trace_reserve(&b->trace, cap + (size_t)profile_runs, ops_per_run) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "out of memory for the trace");

  /* The timed loop. Without a trace, one clock read per run: each run's latency is from the
     previous run's end to its own end (the loop's few instructions of bookkeeping included, a
     lat array growth excluded by a fresh reading), and the deadline check reuses it. With a
     trace, two reads bracket each run so that operator events line up with their run. The CPU
     time per run is the whole loop's either way. */
  double cpu0 = process_cpu_ms();
  uint64_t start = trace_now_ns(), deadline = start + (uint64_t)(duration * 1e9), now = start;
  size_t n = 0;
  for (;;) {
    if ((long)n >= runs && now >= deadline) break;
    if (n == b->lat_cap) {
      double *p = (double *)realloc(b->lat, 2 * b->lat_cap * sizeof *p);
      if (!p) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
      b->lat = p;
      b->lat_cap *= 2;
      if (b->tracing) trace_reserve(&b->trace, b->lat_cap - n + (size_t)profile_runs, ops_per_run);
      now = trace_now_ns();
    }
    double ms;
    if (b->tracing) {
      ms = run_once(b, "timed", &now);
      if (ms < 0) return CLI_EXIT_FAIL;
    } else {
      tfcc_status st = tfcc_session_run(b->session, (const void *const *)b->inputs, b->outputs);
      const uint64_t end = trace_now_ns();
      if (st != TFCC_OK)
        return cli_error(CMD, CLI_EXIT_FAIL, "timed run failed: %s", session_err(b->session, st));
      ms = ms_between(now, end);
      now = end;
    }
    b->lat[n++] = ms;
  }
  b->r.timed_s = (double)(trace_now_ns() - start) / 1e9;
  b->r.cpu_ms_per_run = n ? (process_cpu_ms() - cpu0) / (double)n : 0.0;
  if (!o->profile_set && (long)n < profile_runs) profile_runs = (long)n;
  b->r.profile_runs = profile_runs;
  b->scratch = (double *)malloc((n ? n : 1) * sizeof *b->scratch);
  if (!b->scratch) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  b->r.n_lat = n;
  stats_compute(b->lat, n, b->scratch, &b->r.lat);
  b->r.qps = b->r.timed_s > 0 ? (double)n / b->r.timed_s : 0.0;

  if (profile_runs > 0) {
    tfcc_status st = tfcc_session_set_profiling(b->session, 1);
    if (st != TFCC_OK)
      return cli_error(CMD, CLI_EXIT_FAIL, "cannot profile: %s", session_err(b->session, st));
    tfcc_session_profile_reset(b->session);
    for (long i = 0; i < profile_runs; i++)
      if (run_once(b, "profiled", NULL) < 0) return CLI_EXIT_FAIL;
    const tfcc_op_profile *entries = NULL;
    int n_entries = tfcc_session_profile(b->session, &entries);
    if (bench_profile_collect(entries, n_entries, &b->r) != 0)
      return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
    tfcc_session_set_profiling(b->session, 0);
  }
  b->r.peak_rss = stats_peak_rss_bytes();
  b->r.arena = tfcc_session_arena_bytes(b->session);
  b->r.have_mem = tfcc_session_memory_info(b->session, &b->r.mem) == TFCC_OK;
  if (b->tracing) {
    char err[512];
    tfcc_session_set_op_observer(b->session, NULL, NULL);
    if (trace_write(&b->trace, o->trace, o->model, err, sizeof err) != 0)
      return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  }
  return 0;
}

/* ------------------------------------------------------------ options */

static int parse_opts(int argc, char **argv, bench_opts *o, int *done) {
  args a;
  const char *v;
  char err[256];
  *done = 0;
  memset(o, 0, sizeof *o);
  o->threads = 1;
  o->warmup = 1;
  o->top = 15;
  o->seed = 1;
  args_init(&a, argc, argv);
  for (;;) {
    int id = args_next(&a, k_opts, &v);
    if (id == ARGS_END) break;
    int bad = 0;
    switch (id) {
      case ARGS_ERROR: return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
      case OPT_HELP:
        fputs(k_usage, stdout);
        *done = 1;
        return CLI_EXIT_OK;
      case OPT_THREADS:
        bad = args_int("--threads", v, 0, 1024, &o->threads, err, sizeof err);
        break;
      case OPT_CUSTOM_OPS:
        if (cli_add_custom_ops(CMD, v) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_WARMUP:
        bad = args_int("--warmup", v, 0, 1000000, &o->warmup, err, sizeof err);
        break;
      case OPT_RUNS:
        bad = args_int("--runs", v, 1, 100000000, &o->runs, err, sizeof err);
        o->runs_set = 1;
        break;
      case OPT_DURATION:
        bad = args_float("--duration", v, &o->duration, err, sizeof err);
        if (!bad && (o->duration < 0 || o->duration > 86400)) {
          snprintf(err, sizeof err, "--duration: %s is out of range [0, 86400] seconds", v);
          bad = -1;
        }
        o->duration_set = 1;
        break;
      case OPT_AFFINITY:
        o->n_cpus = cpulist_parse(v, o->cpus, MAX_CPUS, err, sizeof err);
        bad = o->n_cpus < 0;
        break;
      case OPT_ISA: {
        tfcc_isa isa;
        bad = cli_parse_isa("--isa", v, &isa, err, sizeof err);
        o->isa = v;
        break;
      }
      case OPT_PRECISION: bad = cli_parse_precision(v, &o->precision, err, sizeof err); break;
      case OPT_WEIGHTS_CACHE: o->weights_cache = v; break;
      case OPT_PREFAULT: o->prefault = 1; break;
      case OPT_VERIFY_CACHE: o->verify_cache = 1; break;
      case OPT_INPUT:
        if (o->n_specs >= MAX_SPECS)
          return cli_error(CMD, CLI_EXIT_USAGE, "too many -i (at most %d)", MAX_SPECS);
        o->specs[o->n_specs++] = v;
        break;
      case OPT_SEED: bad = args_int("--seed", v, 0, 2147483647L, &o->seed, err, sizeof err); break;
      case OPT_PROFILE_RUNS:
        bad = args_int("--profile-runs", v, 0, 1000000, &o->profile_runs, err, sizeof err);
        o->profile_set = 1;
        break;
      case OPT_TOP: bad = args_int("--top", v, 0, 1000000, &o->top, err, sizeof err); break;
      case OPT_TRACE: o->trace = v; break;
      case OPT_JSON: o->json = 1; break;
      case ARGS_POSITIONAL:
        if (o->model)
          return cli_error(CMD, CLI_EXIT_USAGE, "unexpected argument '%s' (one MODEL only)", v);
        o->model = v;
        break;
      default: break;
    }
    if (bad) return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
  }
  if (!o->model) return cli_error(CMD, CLI_EXIT_USAGE, "missing MODEL (see 'tfcc bench --help')");
  if (o->n_cpus > 0 && o->threads == 0) o->threads = o->n_cpus;
  return CLI_EXIT_OK;
}

int cmd_bench(int argc, char **argv) {
  static bench_opts o; /* large (CPU list, specs): not on the stack */
  int done;
  int rc = parse_opts(argc, argv, &o, &done);
  if (rc != CLI_EXIT_OK || done) return rc;
  bench_state b;
  memset(&b, 0, sizeof b);
  rc = bench(&b, &o);
  if (rc == 0) {
    bench_setting st = {
        o.model,
        o.threads,
        o.warmup,
        o.seed,
        o.top,
        o.cpus,
        o.n_cpus,
        o.n_specs == 0 ? "random" : o.n_specs >= b.n_in ? "files" : "files + random",
        o.trace,
        b.trace.n_ops,
        b.trace.dropped};
    if (o.json)
      bench_report_json(&b.r, &st, stdout);
    else
      bench_report_text(&b.r, &st);
  }
  state_free(&b);
  return rc;
}
