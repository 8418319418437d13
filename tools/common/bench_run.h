/* The measurement of `tfcc bench` (tools/cmd_bench.c) and tfcc.bench (python/src/bench.c), written
 * once: runtime, model and session (load timed), seeded inputs (bench_inputs.h), first inference,
 * warm-up runs, the timed loop (one clock read per run without a trace), the separate profiled pass,
 * memory figures; everything into a bench_result (bench_report.h). Errors are written to err (the
 * caller adds its prefix) and the functions return -1. */
#ifndef TFCC_TOOLS_BENCH_RUN_H
#define TFCC_TOOLS_BENCH_RUN_H

#include <stddef.h>

#include "bench_report.h"
#include "tfcc/tfcc.h"
#include "trace.h"

/* What to measure: the options of `tfcc bench` that shape the measurement. */
typedef struct bench_plan {
  const char *model;
  long threads, warmup, runs, profile_runs, seed;
  double duration;
  int runs_set, duration_set,
      profile_set; /* the defaults: 10 runs, or 1 s; min(runs, 10) profiled */
  const int *cpus; /* the runtime's affinity (the caller pins itself) */
  int n_cpus;
  const char *isa;
  tfcc_precision precision;
  tfcc_quant_compat quant_compat; /* 0: TFCC_QUANT_COMPAT_TFLITE */
  const char *weights_cache;
  int prefault;
  int verify_cache;         /* tfcc_model_options.weights_cache_verify */
  const char *const *specs; /* input files (bench_inputs.h) */
  int n_specs;
  const char *trace; /* Chrome trace path, or NULL */
  /* inputs and outputs in the device's memory (tfcc_runtime_device_alloc; a device runtime
   * only): the inputs copied there once, every run reads and writes device memory */
  int device_io;
  /* the model loader (NULL: tfcc_model_load_file); tfcc bench's is cli_load_model (its
   * --key-file / --key-env). TFCC_OK, or the status with err naming the file. Timed in load_ms. */
  tfcc_status (*load)(tfcc_runtime *rt, const char *path, const tfcc_model_options *opts,
                      tfcc_model **out, char *err, size_t n);
} bench_plan;

typedef struct bench_state {
  tfcc_runtime *rt;
  tfcc_model *model;
  tfcc_session *session;
  void **inputs;
  int n_in;
  void **outputs;
  int n_out;
  void **dev_in, **dev_out; /* device_io: the device copies of inputs and outputs, else NULL */
  double *lat, *scratch;
  double *lat_cpu; /* each timed run's process CPU time, ms (beside lat, the same capacity) */
  size_t lat_cap;
  trace_rec trace;
  int tracing;
  bench_result r;
} bench_state;

/* Creates b->rt from the caller's options ro (its defaults, log settings) with the plan's threads,
 * affinity and ISA cap, and records the dispatch level in b->r. */
int bench_runtime(bench_state *b, const bench_plan *p, tfcc_runtime_options ro, char *err,
                  size_t n);
/* Loads the model and creates the session (timed: b->r.load_ms and its parts), then the inputs
 * and output buffers. */
int bench_open(bench_state *b, const bench_plan *p, char *err, size_t n);
/* First inference, warm-up, the timed runs, the profiled pass, memory; writes the trace file
 * when p->trace is set. */
int bench_measure(bench_state *b, const bench_plan *p, char *err, size_t n);
void bench_state_free(bench_state *b);

#endif
