/* tfcc bench MODEL: latency, throughput, memory and a per-operator profile, in the spirit of
 * TensorFlow Lite's benchmark_model and ONNX Runtime's perf_test. The options and the reports are
 * here; the measurement (phases, timed loop, profiled pass, --trace) is common/bench_run.c, which
 * tfcc.bench in Python runs too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/bench_report.h"
#include "common/bench_run.h"
#include "common/cli.h"
#include "common/cpulist.h"
#include "common/trace.h"

#define CMD "bench"
#define MAX_CPUS 1024

static const char k_usage[] =
    "usage: tfcc bench MODEL [options]\n"
    "\n"
    "Measures MODEL (.tflite, or an encrypted .tfcce with its key): load time, first inference,\n"
    "latency min/avg/p50/p90/p99/max over the timed runs, inferences per second, peak RSS, arena\n"
    "bytes, and a per-operator profile\n"
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
    "                         AMX-BF16; elsewhere float32, see the profile's kernels);\n"
    "                         fp16: on a GPU only (--device cuda)\n"
    "      --device D         cpu (default: env TFCC_DEVICE, else cpu) or cuda[:N]: the nodes\n"
    "                         the GPU backend runs on NVIDIA GPU N (docs/cuda.md)\n"
    "      --device-io        with --device cuda: inputs and outputs in GPU memory (inputs\n"
    "                         copied there once), as a pipeline whose data is already there\n"
    "      --quant-compat A   quantized arithmetic: tflite (default: TensorFlow Lite as it runs\n"
    "                         by default, XNNPACK's) or reference (its builtin kernels')\n"
    "      --weights-cache PATH  packed-weights cache file: written by the first load, mapped\n"
    "                         by later ones (docs/weights_cache.md)\n"
    "      --key-file FILE    key of an encrypted MODEL (.tfcce, tfcc encrypt): 32 raw bytes or\n"
    "                         64 hex digits; --weights-cache is then an encrypted cache\n"
    "                         (docs/weights_cache.md); load_ms includes the decryption\n"
    "      --key-env VAR      the same key as 64 hex digits in environment variable VAR\n"
    "      --verify-cache     check the whole source (SHA-256) and every cached block at load\n"
    "                         (default: the file's identity, blocks as they are taken)\n"
    "      --prefault         as the default, and the packed weights' last huge page made\n"
    "                         whole again (tfcc_session_options.prefault 1)\n"
    "      --no-prefault      touch nothing at the session's creation: the first run faults\n"
    "                         the arena's and the weights cache's pages in (default: touched\n"
    "                         at creation, counted in load_ms)\n"
    "      --prefault-background  read the weights cache's pages on a thread of their own from\n"
    "                         the session's creation on (tfcc_session_options.prefault 2)\n"
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
    "JSON keys: load_ms, model_ms, session_ms, load_cpu_ms, first_ms, first_cpu_ms, load_faults, first_faults, latency_ms{min,avg,p50,p90,p99,max,stddev},\n"
    "cpu_latency_ms{...} (each timed run's process CPU time), qps,\n"
    "cpu_ms_per_run (process CPU time per timed run, all threads), faults_per_run (page faults),\n"
    "peak_rss_bytes, arena_bytes, memory{...}, ops[] (node, name, kernel, ms, share, macs, gops).\n";

enum {
  OPT_THREADS = 1,
  OPT_WARMUP,
  OPT_RUNS,
  OPT_DURATION,
  OPT_AFFINITY,
  OPT_ISA,
  OPT_PRECISION,
  OPT_DEVICE,
  OPT_QUANT_COMPAT,
  OPT_WEIGHTS_CACHE,
  OPT_PREFAULT,
  OPT_PREFAULT_BG,
  OPT_NO_PREFAULT,
  OPT_VERIFY_CACHE,
  OPT_INPUT,
  OPT_SEED,
  OPT_PROFILE_RUNS,
  OPT_TOP,
  OPT_TRACE,
  OPT_JSON,
  OPT_HELP,
  OPT_CUSTOM_OPS,
  OPT_KEY_FILE,
  OPT_KEY_ENV,
  OPT_DEVICE_IO
};
static const arg_opt k_opts[] = {{OPT_THREADS, "-t", "--threads", 1},
                                 {OPT_WARMUP, "-w", "--warmup", 1},
                                 {OPT_RUNS, "-r", "--runs", 1},
                                 {OPT_DURATION, "-d", "--duration", 1},
                                 {OPT_AFFINITY, NULL, "--affinity", 1},
                                 {OPT_ISA, NULL, "--isa", 1},
                                 {OPT_PRECISION, NULL, "--precision", 1},
                                 {OPT_DEVICE, NULL, "--device", 1},
                                 {OPT_DEVICE_IO, NULL, "--device-io", 0},
                                 {OPT_QUANT_COMPAT, NULL, "--quant-compat", 1},
                                 {OPT_WEIGHTS_CACHE, NULL, "--weights-cache", 1},
                                 {OPT_PREFAULT, NULL, "--prefault", 0},
                                 {OPT_PREFAULT_BG, NULL, "--prefault-background", 0},
                                 {OPT_NO_PREFAULT, NULL, "--no-prefault", 0},
                                 {OPT_VERIFY_CACHE, NULL, "--verify-cache", 0},
                                 {OPT_INPUT, "-i", "--input", 1},
                                 {OPT_SEED, NULL, "--seed", 1},
                                 {OPT_PROFILE_RUNS, NULL, "--profile-runs", 1},
                                 {OPT_TOP, NULL, "--top", 1},
                                 {OPT_TRACE, NULL, "--trace", 1},
                                 {OPT_JSON, NULL, "--json", 0},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {OPT_KEY_FILE, NULL, "--key-file", 1},
                                 {OPT_KEY_ENV, NULL, "--key-env", 1},
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
  tfcc_quant_compat quant_compat;
  const char *weights_cache;
  int prefault, verify_cache, device_io;
  const char **specs; /* argc entries: each -i takes at least one argument */
  int n_specs;
  const char *trace;
  int json;
} bench_opts;

static int bench(bench_state *b, const bench_opts *o) {
  char err[512];
  if (o->n_cpus > 0 && cpulist_pin_self(o->cpus[0], err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "--affinity: %s", err);
  const bench_plan p = {.model = o->model,
                        .threads = o->threads,
                        .warmup = o->warmup,
                        .runs = o->runs,
                        .profile_runs = o->profile_runs,
                        .seed = o->seed,
                        .duration = o->duration,
                        .runs_set = o->runs_set,
                        .duration_set = o->duration_set,
                        .profile_set = o->profile_set,
                        .cpus = o->cpus,
                        .n_cpus = o->n_cpus,
                        .isa = o->isa,
                        .precision = o->precision,
                        .quant_compat = o->quant_compat,
                        .weights_cache = o->weights_cache,
                        .prefault = o->prefault,
                        .verify_cache = o->verify_cache,
                        .specs = o->specs,
                        .n_specs = o->n_specs,
                        .trace = o->trace,
                        .device_io = o->device_io,
                        .load = cli_load_model};
  tfcc_runtime_options ro;
  cli_runtime_defaults(&ro, (int)o->threads);
  if (bench_runtime(b, &p, ro, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  if (cli_load_custom_ops(CMD, b->rt) != 0) return CLI_EXIT_FAIL;
  if (bench_open(b, &p, err, sizeof err) != 0 || bench_measure(b, &p, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  return 0;
}

/* ------------------------------------------------------------ options */

static int parse_opts(int argc, char **argv, bench_opts *o, int *done) {
  args a;
  const char *v;
  char err[256];
  *done = 0;
  memset(o, 0, sizeof *o);
  o->specs = (const char **)calloc((size_t)argc + 1, sizeof *o->specs);
  if (!o->specs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
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
      case OPT_KEY_FILE:
      case OPT_KEY_ENV:
        if (cli_set_key(CMD, id == OPT_KEY_ENV, v) != 0) return CLI_EXIT_USAGE;
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
      case OPT_DEVICE: bad = cli_parse_device(v, err, sizeof err); break;
      case OPT_QUANT_COMPAT:
        bad = cli_parse_quant_compat(v, &o->quant_compat, err, sizeof err);
        break;
      case OPT_WEIGHTS_CACHE: o->weights_cache = v; break;
      case OPT_PREFAULT: o->prefault = 1; break;
      case OPT_PREFAULT_BG: o->prefault = TFCC_PREFAULT_BACKGROUND; break;
      case OPT_NO_PREFAULT: o->prefault = TFCC_PREFAULT_OFF; break;
      case OPT_DEVICE_IO: o->device_io = 1; break;
      case OPT_VERIFY_CACHE: o->verify_cache = 1; break;
      case OPT_INPUT: o->specs[o->n_specs++] = v; break;
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
  static bench_opts o; /* large (CPU list): not on the stack */
  int done;
  int rc = parse_opts(argc, argv, &o, &done);
  if (rc != CLI_EXIT_OK || done) {
    free((void *)o.specs);
    return rc;
  }
  bench_state b;
  memset(&b, 0, sizeof b);
  rc = bench(&b, &o);
  if (rc == 0) {
    bench_setting st = {o.model,
                        o.threads,
                        o.warmup,
                        o.seed,
                        o.top,
                        o.cpus,
                        o.n_cpus,
                        o.n_specs == 0 ? (o.device_io ? "random, in device memory" : "random")
                        : o.n_specs >= b.n_in ? (o.device_io ? "files, in device memory" : "files")
                        : o.device_io         ? "files + random, in device memory"
                                              : "files + random",
                        o.trace,
                        b.trace.n_ops,
                        b.trace.dropped};
    if (o.json)
      bench_report_json(&b.r, &st, stdout);
    else
      bench_report_text(&b.r, &st);
  }
  bench_state_free(&b);
  free((void *)o.specs);
  return rc;
}
