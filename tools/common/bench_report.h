/* Results of `tfcc bench` and their two reports (text table, JSON). */
#ifndef TFCC_TOOLS_BENCH_REPORT_H
#define TFCC_TOOLS_BENCH_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "tfcc/tfcc.h"

/* One row of the per-operator table. */
typedef struct op_row {
  int32_t node;
  const char *name, *kernel;
  int64_t macs;
  double ms; /* per run */
} op_row;

/* Per operator type. */
typedef struct type_row {
  const char *name;
  int count;
  int64_t macs;
  double ms;
  char kernels[96];
} type_row;

typedef struct bench_result {
  /* load_ms: file name to a session ready to run (model load + session creation); model_ms
   * and session_ms its two parts; load_cpu_ms the process CPU time over the same span */
  double load_ms, model_ms, session_ms, load_cpu_ms, first_ms, first_cpu_ms, timed_s;
  double cpu_ms_per_run; /* process CPU time (all threads) per timed run */
  /* page faults of the process (minor + major) over the load span, the first run, and per timed
   * run (the timed loop's mean) */
  long load_faults, first_faults;
  double faults_per_run;
  size_t n_lat;
  latency_stats lat;
  /* the timed runs' process CPU times (all threads), ms: at one thread, their spread is the
   * work's own (faults, cache and TLB misses), not the time another process held the CPU */
  latency_stats cpu_lat;
  double qps;
  size_t peak_rss, arena;
  tfcc_memory_info mem;
  int have_mem;
  tfcc_isa level;
  int isa_capped;
  tfcc_isa cap;
  tfcc_precision precision;       /* the model option asked for (--precision) */
  tfcc_quant_compat quant_compat; /* --quant-compat */
  op_row *ops;
  int n_ops;
  long profile_runs;
  double profile_ms; /* sum of operator times per profiled run */
  type_row *types;
  int n_types;
} bench_result;

/* The setting a report describes. */
typedef struct bench_setting {
  const char *model;
  long threads, warmup, seed, top;
  const int *cpus;
  int n_cpus;
  const char *inputs; /* "random", "files", "files + random" */
  const char *trace;  /* path or NULL */
  size_t trace_events, trace_dropped;
} bench_setting;

/* Fills r->ops, r->types, r->profile_ms from a session's profile (entries that never ran are
 * skipped: folded at prepare time). Returns 0, or -1 when out of memory. */
int bench_profile_collect(const tfcc_op_profile *entries, int n, bench_result *r);
void bench_result_free(bench_result *r);

/* 2 x MACs per second in units of 1e9 (GFLOP/s for float operators, GOPS for integer ones). */
double bench_gops(int64_t macs, double ms);

void bench_report_text(const bench_result *r, const bench_setting *st);
/* The JSON report on out (stdout for `tfcc bench --json`; a memory stream for tfcc.bench). */
void bench_report_json(const bench_result *r, const bench_setting *st, FILE *out);

#endif
